"""Two seats (protocol/wire.md §5.9 "Two seats, and leaving"), in memory: two laptops with table draws,
joined by in-memory wires, a clock that moves only when the test moves it.

- a laptop that leaves on purpose gives its seat's vote to the other, which commits alone at once and
  plays on with a bot for the seat left, whichever of the two has the lower key;
- no seat alone is a quorum otherwise: a split or a crash leaves each side's entries pending, the one
  left goes on, and a laptop coming back from a crash confirms what the other played;
- a split where both sides went on heals into one log: a handover of a seat that the other branch shows
  present loses, and when neither shows the other present the table's tie order (drawn from its first
  draw, which no peer chooses) decides;
- a cheater's handover of a present seat is never taken, and a seat that never votes keeps nothing of
  the honest seat's pending (§5.9 "A vote withheld").
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from carcnet.bots import make_bot
from carcnet.engine import DrawTile, HandOver, Phase
from carcnet.net.sync import SyncSession
from carcnet.net.messages import Reveal, decode_message
from carcnet.net.signing import tie_order, tie_source

from .loopback import GAME, MemoryWire, pump, seat_key
from .test_table_draws import Clock, table_header

#: Which laptop has the lower key: seat 0's or seat 1's (both orders are played).
LOWER = min((0, 1), key=lambda seat: seat_key(seat).public)
ORDERS = {"the lower key stays": (LOWER, 1 - LOWER), "the higher key stays": (1 - LOWER, LOWER)}


class Pair:
    """Two laptops of a two-seat game, each playing its seat, and the wire between them."""

    def __init__(self) -> None:
        self.clock = Clock()
        self.header = table_header(2)
        self.peers = [self.laptop(seat) for seat in range(2)]
        self.wire: MemoryWire | None = MemoryWire(self.peers[0], self.peers[1])
        self.bots = [make_bot("random", seat) for seat in range(2)]
        self.carry()

    def laptop(self, seat: int, entries: Sequence = (), *, gave: bool = False) -> SyncSession:
        return SyncSession(game=GAME, name=f"P{seat}", identity=seat_key(seat), header=self.header,
                           seats={seat: seat_key(seat)}, entries=entries, clock=self.clock, gave=gave)

    def carry(self) -> None:
        if self.wire is not None:
            pump(self.wire)  # (what a side said before it closed still arrives)

    def beat(self) -> None:
        """A heartbeat of every laptop (votes and draw values go with it), the wire carried."""
        self.clock.now += 5.0
        for peer in self.peers:
            if peer.header is not None:
                peer.connections.tell_all()
                peer._router.draw_step()  # (a table's tick does this)
        self.carry()

    def cut(self) -> None:
        """The wire goes silent, as a dead link does: each side times it out, nothing more arrives."""
        wire = self.wire
        assert wire is not None
        self.peers[0].connections.time_out(wire.a, "dead")
        self.peers[1].connections.time_out(wire.b, "dead")
        wire.a.data_to_send(), wire.b.data_to_send()
        self.wire = None

    def carry_but_reveals(self) -> None:
        """Carries what each side sent, but its draw values (a split that falls between a turn's
        entries and the values of the draw after it)."""
        wire = self.wire
        assert wire is not None
        for src, dst in ((wire.a, wire.b), (wire.b, wire.a)):
            data, kept = src.data_to_send(), b""
            while data:
                size = 4 + int.from_bytes(data[:4], "big")
                if not isinstance(decode_message(data[:size]), Reveal):
                    kept += data[:size]
                data = data[size:]
            if kept:
                dst.receive_data(kept)

    def heal(self) -> None:
        self.wire = MemoryWire(self.peers[0], self.peers[1])
        self.carry()

    def move(self, p: int) -> bool:
        """Laptop *p* makes a move of a seat it plays, if the game waits for one; whether it did."""
        peer = self.peers[p]
        game = peer.game
        assert game is not None
        if peer.over or game.phase is Phase.DRAW or not peer.plays(game.seat):
            return False
        peer.submit(self.bots[game.seat].choose(game.view()))
        return True

    def play_alone(self, p: int, limit: int = 3000) -> None:
        """Laptop *p* plays every seat it plays to the end of the game, beating as a table does."""
        peer = self.peers[p]
        for _ in range(limit):
            if peer.over:
                return
            if not self.move(p):
                self.beat()
        raise AssertionError(f"the game did not end at {peer.name}: missing {peer.missing()}")

    def play_until_turn(self, seat: int) -> None:
        """Both laptops play (everything carried) until *seat* is to place its tile, a few turns in."""
        for _ in range(400):
            self.carry()
            game = self.peers[0].game
            assert game is not None
            if game.phase is Phase.PLACE_TILE and game.seat == seat and self.peers[0].have > 6:
                return
            if not any(self.move(p) for p in (0, 1)):
                self.beat()
        raise AssertionError("never that seat's turn")

    def end_turn(self, seat: int) -> None:
        """*seat*'s laptop plays its whole turn, nothing carried: it waits for the next draw, and the
        other laptop has seen nothing of the turn yet."""
        peer = self.peers[seat]
        while peer.game is not None and peer.game.phase is not Phase.DRAW:
            assert self.move(seat)


def committed_to_the_end(peer: SyncSession) -> bool:
    """Whether every entry *peer* holds is committed there (a table draw at the end is never voted for)."""
    return peer.replica.commit_index >= peer.replica.vote_seq


# ---------------------------------------------------------------------- a goodbye gives the vote


@pytest.mark.parametrize("reason", ["quit", "shutdown"])
@pytest.mark.parametrize("order", list(ORDERS))
def test_a_goodbye_gives_the_vote_and_the_one_left_commits_alone(order: str, reason: str) -> None:
    stays, goes = ORDERS[order]
    pair = Pair()
    pair.play_until_turn(goes)
    pair.peers[goes].close(reason)
    pair.carry()
    left = pair.peers[stays]
    assert left.replica.votes is not None and left.replica.votes.holder(goes, left.game.digests) == stays
    assert pair.peers[goes].replica.gave  # it casts no vote again in this game
    left.submit(HandOver(goes, "greedy", stays))  # the seat left goes to a bot here
    pair.wire = None
    pair.play_alone(stays)
    assert committed_to_the_end(left), (left.replica.commit_index, left.have)


def test_a_goodbye_nobody_hears_gives_no_vote() -> None:
    """wire.md §5.9 "Two seats, and leaving": a laptop whose links are all gone when it leaves gives
    nothing (nobody would hear it) and keeps its vote, to cast again when it comes back (the last of
    three to leave gave every vote it held to a laptop gone for good, and never voted again)."""
    pair = Pair()
    pair.play_until_turn(1)
    pair.cut()
    alone = pair.peers[1]
    alone.close("quit")
    assert not alone.replica.gave and alone.replica.votes is not None and alone.replica.votes.gives() == ()


def test_a_laptop_that_gave_its_vote_and_comes_back_follows_and_votes_no_more() -> None:
    pair = Pair()
    pair.play_until_turn(1)
    saved = list(pair.peers[1].entries)
    pair.peers[1].close("shutdown")
    pair.carry()
    pair.peers[0].submit(HandOver(1, "greedy", 0))
    pair.wire = None
    for _ in range(12):
        if not pair.move(0):
            pair.beat()
    back = pair.laptop(1, saved, gave=True)
    pair.peers[1] = back
    pair.heal()
    pair.beat()
    assert back.entries == pair.peers[0].entries
    assert back.replica.vote(back.seats) == []  # it gave its vote: nothing to say
    assert committed_to_the_end(pair.peers[0])


# ---------------------------------------------------------------------- no seat alone is a quorum


@pytest.mark.parametrize("order", list(ORDERS))
def test_a_crash_leaves_the_one_left_playing_on_and_the_laptop_back_confirms_it(order: str) -> None:
    """No word from the other laptop: the one left hands its seat to a bot and plays on, its entries
    pending (no seat alone is a quorum, whichever has the lower key); the crashed laptop comes back from
    its save, takes what was played as its own first choice, and votes: everything is committed."""
    stays, goes = ORDERS[order]
    pair = Pair()
    pair.play_until_turn(goes)
    saved = list(pair.peers[goes].entries)
    pair.cut()
    left = pair.peers[stays]
    before = left.replica.commit_index
    left.submit(HandOver(goes, "greedy", stays))
    for _ in range(40):
        if not pair.move(stays):
            pair.beat()
    assert left.replica.commit_index == before < left.replica.vote_seq  # pending, not lost
    back = pair.laptop(goes, saved)
    pair.peers[goes] = back
    pair.heal()
    pair.beat()
    assert back.entries == left.entries and not back.replica.aside
    pair.beat()
    assert committed_to_the_end(left) and committed_to_the_end(back)


@pytest.mark.parametrize("order", list(ORDERS))
def test_a_crash_as_the_table_draws_leaves_the_one_left_going_on_and_the_laptop_back_takes_it(order: str) -> None:
    """The laptop dies as the table draws, before its value went out: the one left waits for it, hands
    its seat to a bot and plays on. Back from its save, the crashed laptop takes the handover of its own
    seat (it stopped, so its value never went out: wire.md §5.6 "What the others check"), as the one
    left played it, and votes: everything is committed (it held the handover back for good, and the
    one left waited for ever)."""
    stays, goes = ORDERS[order]
    pair = Pair()
    pair.play_until_turn(stays)
    pair.end_turn(stays)
    for _ in range(3):
        pair.carry_but_reveals()  # the turn crosses, the values of the next draw do not
    saved = list(pair.peers[goes].entries)
    pair.cut()
    left = pair.peers[stays]
    assert left.game is not None and left.game.phase is Phase.DRAW and left.missing()
    for _ in range(3):
        pair.beat()  # the one left waits for the value that never comes
    left.submit(HandOver(goes, "greedy", stays))
    for _ in range(40):
        if not pair.move(stays):
            pair.beat()
    assert left.replica.commit_index < left.replica.vote_seq  # pending, not lost
    back = pair.laptop(goes, saved)
    pair.peers[goes] = back
    pair.heal()
    for _ in range(3):
        pair.beat()
    assert back.entries == left.entries and not back.replica.aside and not left.replica.aside
    assert committed_to_the_end(left) and committed_to_the_end(back)


@pytest.mark.parametrize("order", list(ORDERS))
def test_a_split_of_two_heals_into_one_log_and_a_present_seat_s_own_move_beats_its_handover(order: str) -> None:
    """A 1 | 1 split at the turn of the seat that goes: the other laptop hands that seat to a bot and plays
    on, while the seat plays its own move. After the heal the own move shows the seat was there: it wins,
    whichever laptop holds the lower key, and the other's entries are set aside (and said)."""
    stays, goes = ORDERS[order]
    pair = Pair()
    pair.play_until_turn(goes)
    pair.cut()
    pair.peers[stays].submit(HandOver(goes, "greedy", stays))
    for _ in range(6):
        for p in (0, 1):
            if not pair.move(p):
                pair.beat()
    pair.heal()
    for _ in range(10):
        pair.beat()
    a, b = pair.peers
    assert a.entries == b.entries and not a.stopped and not b.stopped
    seq = len(pair.peers[goes].replica.aside[0].entries) if pair.peers[goes].replica.aside else None
    assert seq is None  # the seat that was there kept its moves
    assert pair.peers[stays].replica.aside and isinstance(pair.peers[stays].replica.aside[0].entries[0].entry.move,
                                                           HandOver)


@pytest.mark.parametrize("order", list(ORDERS))
def test_a_split_of_two_at_a_draw_heals_by_the_tie_order_not_the_keys(order: str) -> None:
    """A 1 | 1 split as the table draws, before either value crossed: each side hands the other's seat
    over and plays on. Neither branch shows the other seat present, and one vote each is no quorum:
    the tie-break chooses the branch whose voter comes first in the table's tie order (drawn from the
    first draw's values), the same at both laptops, whatever their keys."""
    stays, goes = ORDERS[order]
    pair = Pair()
    pair.play_until_turn(stays)
    first_draw = next(e for e in pair.peers[0].entries if isinstance(e.entry.move, DrawTile))
    tie = tie_order(GAME, 2, tie_source(first_draw.entry.move.values))  # type: ignore[union-attr]
    pair.end_turn(stays)
    for _ in range(3):
        pair.carry_but_reveals()  # the turn crosses, the values of the next draw do not
    assert all(peer.game.phase is Phase.DRAW and peer.missing() for peer in pair.peers)
    pair.cut()
    pair.peers[stays].submit(HandOver(goes, "greedy", stays))
    pair.peers[goes].submit(HandOver(stays, "greedy", goes))
    for _ in range(8):
        for p in (0, 1):
            if not pair.move(p):
                pair.beat()
    a, b = pair.peers
    parted = next((i for i, (x, y) in enumerate(zip(a.entries, b.entries, strict=False)) if x != y), None)
    pair.heal()
    for _ in range(10):
        pair.beat()
    assert a.entries[: min(a.have, b.have)] == b.entries[: min(a.have, b.have)] and not a.stopped and not b.stopped
    assert parted is not None and parted < pair.peers[stays].have
    winner = tie[0]
    assert not pair.peers[winner].replica.aside and pair.peers[1 - winner].replica.aside


# ---------------------------------------------------------------------- a cheater at two seats


@pytest.mark.parametrize("order", list(ORDERS))
def test_a_handover_of_a_present_seat_is_never_taken_at_two_seats(order: str) -> None:
    """The cheater's laptop, modified, hands the honest seat over at its turn while both are there (a
    ground key changes nothing: no seat alone is a quorum, whichever key is lower). The honest laptop,
    in touch with it all along, does not take it and plays its own move; its move shows it was there,
    so the cheater's laptop (carcnet's code after all) sets its handover aside: one log, the honest
    seat its own."""
    honest, cheat = ORDERS[order]
    pair = Pair()
    pair.play_until_turn(honest)
    seq = pair.peers[honest].have + 1
    pair.peers[cheat].submit(HandOver(honest, "greedy", cheat))
    pair.carry()
    game = pair.peers[honest].game
    assert game is not None and game.handovers[honest] is None and pair.peers[honest].have == seq - 1
    assert pair.move(honest)
    for _ in range(6):
        pair.beat()
    a, b = pair.peers
    assert a.entries == b.entries and not a.stopped and not b.stopped
    assert pair.peers[honest].entries[seq - 1].entry.seat == honest
    assert not any(isinstance(e.entry.move, HandOver) for e in pair.peers[honest].entries)
    aside = pair.peers[cheat].replica.aside
    assert aside and isinstance(aside[0].entries[0].entry.move, HandOver)


@pytest.mark.parametrize("order", list(ORDERS))
def test_a_seat_that_never_votes_keeps_nothing_of_the_honest_seat_pending(order: str) -> None:
    """The cheater's laptop plays its moves, sends its heartbeats and draw values, and never a vote: at
    two seats its vote was needed for every entry. Its heartbeats say it holds the honest log; once
    they have said so for the wait without a vote, the honest laptop counts that vote as its own seat's
    (wire.md §5.9 "A vote withheld") and ends the game with every move committed."""
    honest, cheat = ORDERS[order]
    pair = Pair()
    pair.peers[cheat].replica.vote = lambda keys: []  # type: ignore[method-assign]  # (its laptop, modified)
    for _ in range(4000):
        if pair.peers[honest].over:
            break
        if not any(pair.move(p) for p in (0, 1)):
            pair.beat()
    else:
        raise AssertionError("the game did not end")
    for _ in range(4):
        pair.beat()
    left = pair.peers[honest]
    assert left.entries == pair.peers[cheat].entries and committed_to_the_end(left)
    assert any(event.code == "vote-withheld" for event in left.connections.events)


def test_an_honest_pair_never_takes_the_other_for_withholding_its_vote() -> None:
    pair = Pair()
    for _ in range(4000):
        if pair.peers[0].over:
            break
        if not any(pair.move(p) for p in (0, 1)):
            pair.beat()
    for _ in range(4):
        pair.beat()
    assert all(committed_to_the_end(peer) for peer in pair.peers)
    assert not [e for peer in pair.peers for e in peer.connections.events if e.code == "vote-withheld"]
