"""wire.md §5.6 at the peers' tables: who may give a seat away when links are lost; and §4.5's claims
checked (a heartbeat's ``seats`` a peer cannot play, a spectator's claims).

Sessions joined by in-memory wires (no sockets, so nothing reconnects by itself); a link is lost as a
heartbeat timeout loses it (``bye`` ``timeout``), or left on purpose (``bye`` ``quit``).
"""

from __future__ import annotations

import pytest

from carcnet.bots import make_bot
from carcnet.engine import HandOver
from carcnet.net.messages import Heartbeat
from carcnet.net.sync import MemoryLog, SyncSession
from carcnet.table import NetTable, TableError

from .loopback import GAME, MemoryWire, make_header, pump, seat_key


def _table(players: int, *, bot_host: bool = False) -> tuple[list[NetTable], dict[tuple[int, int], MemoryWire]]:
    """*players* peers, one seat each (the seat key is the peer's identity), all connected. With
    *bot_host*, peer 0 plays seat 0 as a host plays a bot seat: with a seat key that is not its
    identity, so that only its heartbeats tell the others which peer plays seat 0."""
    header = make_header(players)
    sessions = [
        SyncSession(game=GAME, name=f"P{i}", identity=seat_key(9 if bot_host and i == 0 else i), header=header,
                    seats={i: seat_key(i)},
                    persistence=MemoryLog())
        for i in range(players)
    ]
    tables = [NetTable(s, kind="player", listen=None, discovery=False) for s in sessions]
    wires = {(a, b): MemoryWire(sessions[a], sessions[b]) for a in range(players) for b in range(a + 1, players)}
    _pump(wires)
    return tables, wires


def _pump(wires: dict[tuple[int, int], MemoryWire]) -> None:
    pump(*wires.values(), rounds=50)


def _play_until(tables: list[NetTable], wires, seat: int) -> None:
    """Plays (greedy bots, each at its own peer) until it is *seat*'s turn to place."""
    bots = [make_bot("greedy", i) for i in range(len(tables))]
    for _ in range(40):
        to_play = tables[0].to_play
        if to_play == seat and tables[0].game.placed is None:
            return
        tables[to_play].session.submit(bots[to_play].choose(tables[to_play].game.view()))
        _pump(wires)
    raise AssertionError("never the seat's turn")


def _lose(tables: list[NetTable], wires, a: int, b: int, reason: str = "timeout") -> None:
    """The link between peers *a* and *b* ends: *a* says ``bye`` *reason*."""
    wire = wires[(min(a, b), max(a, b))]
    link = wire.a if a < b else wire.b
    if reason == "timeout":
        tables[a].session.connections.time_out(link, "heartbeat")
    else:
        tables[a].session.connections.close_link(link, reason)
    _pump(wires)


def test_the_side_that_holds_most_of_the_table_may_give_the_lost_seat_away():
    tables, wires = _table(3)
    _play_until(tables, wires, 2)
    _lose(tables, wires, 0, 2)
    _lose(tables, wires, 1, 2)  # P2's laptop lost both links: P0 and P1 are two of three
    p0, p1, p2 = tables
    assert 2 in p0.away() and p0.may_hand_over(2) and p0.seat_to_hand_over() == 2
    assert p2.cut_off and not p0.cut_off and not p1.cut_off
    assert "You are cut off from the table: no other player is connected to this laptop" in p2.notes
    assert not p2.may_hand_over(0) and not p2.may_hand_over(1)  # the cut-off side gives nothing away
    p0.hand_over(2, "greedy")
    _pump(wires)
    assert p1.session.have == p0.session.have and p0.game.handovers[2] is not None


def _taker_and_other(tables: list[NetTable]) -> tuple[NetTable, NetTable]:
    """Of P0 and P1 (P2's laptop gone), the table's taker (wire.md §5.6) and the other."""
    p0, p1 = tables[0], tables[1]
    runner = p0.presence().takeover_runner(p0.session.clock())
    assert runner == p1.presence().takeover_runner(p1.session.clock()) and runner is not None
    return (p0, p1) if runner == p0.session.identity.public else (p1, p0)


def test_two_players_who_let_a_bot_play_at_once_make_one_handover():
    """wire.md §5.6 "Who makes the handover": P2's laptop is gone and both others press ``b`` before
    anything passes between them. Each making its own ``handover`` split the votes at that seq one
    each, and the tie-break waited for P2's vote for ever (the commit model's ``crash 0, hand 1 0,
    hand 2 0``); only the table's taker makes it now, and the other asks it in its heartbeats."""
    tables, wires = _table(3)
    _play_until(tables, wires, 2)
    _lose(tables, wires, 0, 2)
    _lose(tables, wires, 1, 2)
    taker, other = _taker_and_other(tables)
    taker_name = taker.session.header.header.seats[min(taker.session.seats)].name
    assert other.hand_over(2, "greedy") == taker_name and other.session.asks == (2,)
    assert taker.hand_over(2, "greedy") is None
    _pump(wires)
    moves = [m for m in taker.game.moves if isinstance(m, HandOver)]
    assert len(moves) == 1 and moves[0].by in taker.session.seats
    assert other.session.entries == taker.session.entries
    other._drop_asks(other.blocking())
    assert other.session.asks == ()
    name = taker.session.header.header.seats[2].name
    assert f"A bot will play for {name} from {taker_name}'s laptop" in other.notes


def test_the_taker_makes_the_handover_another_player_asks_for():
    """wire.md §5.6 "Who makes the handover": only the other player presses ``b``; its heartbeat asks
    the taker, whose tick makes the ``handover`` (its bot runs there)."""
    tables, wires = _table(3)
    _play_until(tables, wires, 2)
    _lose(tables, wires, 0, 2)
    _lose(tables, wires, 1, 2)
    taker, other = _taker_and_other(tables)
    have = taker.session.have
    assert taker._answer_asks(taker.blocking()) is False  # nobody asked
    other.hand_over(2, "greedy")
    _pump(wires)
    assert taker.presence().asked() == [2] and taker.session.have == have  # asked, not made yet
    assert taker._answer_asks(taker.blocking()) is True
    _pump(wires)
    assert [m.by for m in other.game.moves if isinstance(m, HandOver)] == [min(taker.session.seats)]
    assert other.session.entries == taker.session.entries


def test_an_ask_for_a_present_seat_moves_nothing():
    """wire.md §4.5 ``asks``: a seated liar asks the taker to hand over the seat of a player who is
    there; the taker's own rules refuse it (a present seat is never handed over), and nothing is made."""
    tables, wires = _table(3)
    _play_until(tables, wires, 2)
    taker, other = _taker_and_other(tables)
    have = taker.session.have
    other.session.ask([2])  # what a cheating laptop's heartbeats would say
    _pump(wires)
    assert taker.presence().asked() == [2] and 2 in taker.blocking()
    assert taker._answer_asks(taker.blocking()) is False
    _pump(wires)
    assert taker.session.have == have and taker.game.handovers[2] is None


def test_a_cut_off_player_may_not_give_the_others_seats_away():
    tables, wires = _table(3)
    _play_until(tables, wires, 0)
    _lose(tables, wires, 2, 0)
    _lose(tables, wires, 2, 1)
    p2 = tables[2]
    assert p2.cut_off and 0 in p2.away() and p2.seat_to_hand_over() is None
    with pytest.raises(TableError, match="in touch with too few of the other players"):
        p2.hand_over(0, "greedy")
    assert p2.session.have == tables[0].session.have  # nothing was made


@pytest.mark.parametrize("order", ["lower key left", "higher key left"])
def test_at_a_table_of_two_either_side_of_a_split_may_go_on_and_a_bye_lets_either(order: str):
    """Two seats: no seat alone is a quorum (wire.md §5.9 "Two seats, and leaving"), so neither side of
    a split commits alone and either may give the other's seat to a bot; the heal keeps one branch.
    Neither is ever "cut off": a laptop alone at a table of two is cut off from nobody still playing."""
    lower = min((0, 1), key=lambda i: seat_key(i).public)
    stays, goes = (1 - lower, lower) if order == "lower key left" else (lower, 1 - lower)
    tables, wires = _table(2)
    _play_until(tables, wires, goes)
    _lose(tables, wires, stays, goes)
    assert tables[stays].may_hand_over(goes) and tables[stays].seat_to_hand_over() == goes
    assert tables[goes].may_hand_over(stays)  # the other side too: the votes settle which counts
    assert not tables[stays].cut_off and not tables[goes].cut_off
    # A peer that said bye left on purpose: its seat may go, whatever the keys.
    tables, wires = _table(2)
    _play_until(tables, wires, goes)
    _lose(tables, wires, goes, stays, reason="quit")
    assert tables[stays].may_hand_over(goes) and tables[stays].seat_to_hand_over() == goes


def test_a_peer_that_plays_only_a_bot_seat_counts_at_the_table():
    """The opener of a table that plays only a bot seat is known by its heartbeats, not by a seat key
    (seen at six hosts: a cut-off player counted the table as itself and one other, and gave both
    other seats away)."""
    tables, wires = _table(3, bot_host=True)
    _play_until(tables, wires, 1)
    host_identity = seat_key(9).public
    assert set(tables[2].seated_peers()) == {host_identity, seat_key(1).public}
    _lose(tables, wires, 2, 0)
    _lose(tables, wires, 2, 1)
    p0, p1, p2 = tables
    assert p2.cut_off and set(p2.away()) == {0, 1}
    assert not p2.may_hand_over(0) and not p2.may_hand_over(1) and p2.seat_to_hand_over() is None
    assert p0.may_hand_over(2) and p1.may_hand_over(2)


def _say(tables: list[NetTable], wires, a: int, b: int, **claims) -> None:
    """Peer *a*'s next heartbeat to *b* says *claims* (``sees``, ``seats``) instead of the truth."""
    wire = wires[(min(a, b), max(a, b))]
    link = wire.a if a < b else wire.b
    session = tables[a].session
    link.send(Heartbeat(have=session.have, digest=session.digest, **claims))
    _pump(wires)


def test_a_player_cannot_make_a_gone_seat_present_by_claiming_it():
    """wire.md §4.5 "Checking claims": P2 is gone; P1's heartbeat says it plays P2's seat too. P0
    believes only the seat P1 can play, counts the rest, and still shows P2's seat away."""
    tables, wires = _table(3)
    _play_until(tables, wires, 1)
    _lose(tables, wires, 2, 0)
    _lose(tables, wires, 2, 1)
    p0 = tables[0]
    assert p0.away() == [2]
    _say(tables, wires, 1, 0, seats=(1, 2), sees=(seat_key(0).public,))
    assert p0.away() == [2] and p0.records.dropped == 1 and p0.records.runners[2] == seat_key(2).public
    assert p0.presence().runner(2) == seat_key(2).public


def test_a_spectators_claims_count_for_nothing():
    """A spectator plays no seat: its heartbeat's ``sees`` does not make a gone seat present, and its
    ``seats`` makes it nobody's runner."""
    tables, wires = _table(3)
    _play_until(tables, wires, 1)
    _lose(tables, wires, 2, 0)
    _lose(tables, wires, 2, 1)
    eve = SyncSession(game=GAME, name="Eve", role="spectator", persistence=MemoryLog())
    wires[(0, 9)] = wire = MemoryWire(eve, tables[0].session)
    _pump(wires)
    assert eve.header is not None
    wire.a.send(Heartbeat(have=eve.have, digest=eve.digest, seats=(2,), sees=(seat_key(2).public,)))
    _pump(wires)
    p0 = tables[0]
    assert p0.away() == [2] and eve.identity.public not in p0.records.runners.values() and p0.records.dropped == 0
    assert p0.presence().takeover_runner() == seat_key(0).public
