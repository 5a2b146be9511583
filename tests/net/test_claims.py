"""wire.md §4.5 "Checking claims" at real tables: a peer with a throwaway key, and a seated player, lie
in their heartbeats the ways a liar moved the table before, and none of it moves it now.

The liar proves a key of its own and says, after the game started, that it is the table's host (a
``hello`` with role ``host``), then claims the host's bot seat and says it sees whom it likes. Before,
a laptop that had restarted (so that it knew the host only from who ran which seat) took the first
link that called itself host for the host: the liar became the runner and the owner of the host's bot
seat, its ``sees`` counted, and so it made a present seat away (then the table could hand it over and
give it back to the liar), kept a crashed seat present, and made a connected laptop say it was cut
off. Sessions are joined by in-memory wires (no sockets), as in ``test_handover_rule.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from carcnet.bots import make_bot
from carcnet.net import Bye, Hello, SeatKey, encode_message
from carcnet.net.link import Link
from carcnet.net.messages import Heartbeat
from carcnet.net.sync import MemoryLog, SyncSession
from carcnet.table import NetTable

from .loopback import GAME, identity, make_header, seat_key
from .loopback import pump as carry

#: The identity of the peer that opened the table and runs seat 0's bot under a key of its own.
HOST = seat_key(9)
LIAR = identity("Mallory")


class Wire:
    """Two links joined in memory, the connector's hello given by hand (its role included)."""

    def __init__(self, connector: SyncSession, acceptor: SyncSession, *, role: str | None = None) -> None:
        if role is None:
            self.a = connector.connect_link(("127.0.0.1", 1))
        else:
            hello = Hello(game=GAME, role=role, name=connector.name, key=connector.identity.public,  # type: ignore[arg-type]
                          have=connector.have, digest=connector.digest, port=None)
            self.a = connector.connections.connect_link(("127.0.0.1", 1), hello)
        self.b = acceptor.connections.accept_link()


def pump(wires: list[Wire]) -> None:
    """Carries bytes on every wire until all are quiet (:func:`loopback.pump`)."""
    carry(*wires, rounds=100)


def lose(session: SyncSession, link: Link, wires: list[Wire]) -> None:
    """*session*'s link ends as a dead connection ends it (``bye`` ``timeout``)."""
    session.connections.time_out(link, "heartbeat")
    pump(wires)


def table(name: str, key: SeatKey, seat: int, players: int, tmp_path: Path, *, runners: dict[int, bytes] | None = None
          ) -> NetTable:
    """A player's table of a game of *players* seats, playing *seat* with *key* (its identity is the
    seat key, except the host's: it plays seat 0's bot under its own). *runners*: who ran each seat
    as this laptop last heard, kept beside its save (a laptop that restarted: it knows the host only
    from them)."""
    header = make_header(players)
    identity_key = HOST if seat == 0 else key
    session = SyncSession(game=GAME, name=name, identity=identity_key, header=header, seats={seat: key},
                          persistence=MemoryLog())
    out = NetTable(session, kind="player", listen=None, discovery=False, directory=tmp_path / name)
    if runners:
        out.records.runners.update(runners)
    return out


def liar_session(players: int) -> SyncSession:
    return SyncSession(game=GAME, name="Mallory", identity=LIAR, header=make_header(players), persistence=MemoryLog())


def say(wire: Wire, session: SyncSession, *, sees: tuple[bytes, ...] = (), seats: tuple[int, ...] = ()) -> None:
    wire.a.send(Heartbeat(have=session.have, digest=session.digest, sees=sees, seats=seats))


def play(tables: list[NetTable], wires: list[Wire], moves: int, check) -> None:
    """Plays *moves* moves (greedy bots, each at its seat's peer), calling *check* after each."""
    bots = {t.my_seats[0]: (t, make_bot("greedy", t.my_seats[0])) for t in tables}
    for _ in range(moves):
        seat = tables[0].to_play
        assert seat is not None
        peer, bot = bots[seat]
        peer.session.submit(bot.choose(peer.game.view()))  # type: ignore[union-attr]
        pump(wires)
        check()


@pytest.fixture
def three(tmp_path: Path):
    """Ann's laptop runs seat 0's bot under a key of its own (the host); Bob plays seat 1, Cleo seat 2.
    Cleo's laptop restarted: it knows the host as the runner of seat 0 it saved. Mallory, with a key
    of her own, reaches Cleo first, says she is the host and claims seat 0; then the others connect."""
    ann = table("Ann", seat_key(0), 0, 3, tmp_path)
    bob = table("Bob", seat_key(1), 1, 3, tmp_path)
    cleo = table("Cleo", seat_key(2), 2, 3, tmp_path, runners={0: HOST.public})
    mallory = liar_session(3)
    wires = [Wire(mallory, cleo.session, role="host")]
    pump(wires)
    say(wires[0], mallory, seats=(0,))
    pump(wires)
    wires += [Wire(ann.session, bob.session), Wire(ann.session, cleo.session), Wire(bob.session, cleo.session)]
    pump(wires)
    return ann, bob, cleo, mallory, wires


def test_a_liar_that_says_it_hosts_is_no_runner_no_owner_no_host(three) -> None:
    _ann, _bob, cleo, _mallory, _wires = three
    assert cleo.records.runners.get(0) == HOST.public and cleo.records.owners.get(0) != LIAR.public
    assert cleo.presence().table_host() == HOST.public and cleo.records.dropped >= 1
    assert cleo.presence().runner(0) == HOST.public


def test_a_liar_makes_no_present_seat_away_and_gets_none_handed_over(three) -> None:
    """The liar leaves; the host's bot seat, whose laptop is connected and plays, is never away at
    Cleo's: not a candidate for a takeover, and nobody's to give back to the liar."""
    ann, bob, cleo, _mallory, wires = three
    lose(cleo.session, cleo.session.connections.links[0], wires)  # Mallory's link, the first Cleo made
    assert not any(link.key == LIAR.public for link in cleo.session.connections.open_links())
    clock = cleo.session.clock

    def check() -> None:
        assert 0 not in cleo.away(), cleo.away()
        assert 0 not in cleo.presence().takeover_candidates(clock())

    check()
    play([ann, bob, cleo], wires[1:], 30, check)
    assert cleo.records.owners.get(0) != LIAR.public and 0 not in cleo.away()


def test_nobody_keeps_a_crashed_seat_present_by_saying_it_sees_it(three) -> None:
    """Bob's laptop crashes (both his links die). Mallory, and Ann, who is seated, say they still see
    him: Cleo counts only what she can prove, and Bob's seat is away, so the table can take it over."""
    ann, bob, cleo, mallory, wires = three
    play([ann, bob, cleo], wires[1:], 4, lambda: None)
    lose(ann.session, wires[1].a, wires)
    lose(cleo.session, wires[3].b, wires)
    assert cleo.away() == [1]
    say(wires[0], mallory, sees=(seat_key(1).public,), seats=(0,))
    say(wires[2], ann.session, sees=(seat_key(1).public, seat_key(2).public), seats=(0,))
    pump(wires)
    assert cleo.away() == [1] and ann.away() == [1]
    assert cleo.may_hand_over(1)


def test_a_liar_cannot_make_a_connected_laptop_say_it_is_cut_off(tmp_path: Path) -> None:
    """A table of two: Ann hosts and runs seat 0's bot; Bob's laptop restarted. Mallory reaches Bob
    first, says she hosts and claims seat 0, then leaves. Bob is connected to Ann all along: he is not
    cut off, says nothing of the kind, and may still give an away seat to a bot."""
    ann = table("Ann", seat_key(0), 0, 2, tmp_path)
    bob = table("Bob", seat_key(1), 1, 2, tmp_path, runners={0: HOST.public})
    mallory = liar_session(2)
    wires = [Wire(mallory, bob.session, role="host")]
    pump(wires)
    say(wires[0], mallory, seats=(0,))
    pump(wires)
    wires.append(Wire(ann.session, bob.session))
    pump(wires)
    said = 0  # (alone until Ann came: at a table of two that is never "cut off", wire.md §5.6)
    lose(bob.session, bob.session.connections.links[0], wires)
    assert [link.key for link in bob.session.connections.open_links()] == [HOST.public]
    assert not bob.cut_off and bob.seated_peers() == {HOST.public: True}
    assert not [note for note in bob.notes[said:] if "cut off" in note], bob.notes


def test_a_bye_on_a_link_that_never_proved_its_key_says_nobody_left(tmp_path: Path) -> None:
    """A stranger that says ``hello`` with Bob's key (his public identity) and ``bye`` ``quit`` before
    proving it: had the table taken that for Bob leaving on purpose, it would give Bob's seat away by
    rule 1 of wire.md §5.6 while his laptop is only out of reach, split or not, and take it over as a
    seat given up. Only a link that opened (its key proven) says who left."""
    bob_key = seat_key(1).public
    # alone (a split's small side, or everyone else away), knowing who runs each seat (from its save)
    cleo = table("Cleo", seat_key(2), 2, 3, tmp_path, runners={0: HOST.public, 1: bob_key})
    assert not cleo.presence().may_hand_over(1)
    link = cleo.session.connections.accept_link()
    hello = Hello(game=GAME, role="player", name="Bob", key=bob_key, have=0, digest=None, port=None)
    link.receive_data(encode_message(hello))  # the hello arrives; no proof follows, only a bye
    link.receive_data(encode_message(Bye(reason="quit")))
    assert link.key == bob_key and not link.opened and link.closed
    assert bob_key not in cleo.records.left and bob_key not in cleo.records.gave_up
    assert not cleo.presence().may_hand_over(1)  # one of three: no seat given away on a stranger's word
