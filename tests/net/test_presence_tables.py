"""Presence without flicker at the peers' tables (wire.md §4.5): what a table lists away after every
change of its session, as a laptop arrives, and as a spectator's player dies and it fails over.

Ann's laptop plays seat 0 under a key of its own (a bot of the host's), Bob seat 1, Cleo seat 2; Eve
watches. Sessions are joined by in-memory wires (no sockets, no clock but the tables' own), and a
laptop that dies is one whose links the others time out and that is never heard from again.
"""

from __future__ import annotations

from pathlib import Path

from carcnet.log import COLOURS, LogHeader, Seat
from carcnet.net import WireHeader
from carcnet.net.sync import MemoryLog, SyncSession
from carcnet.table import NetTable

from .loopback import GAME, MemoryWire, pump, seat_key

NAMES = ("Ann", "Bob", "Cleo")


def _header() -> WireHeader:
    """Seat 0 a greedy bot (Ann's), seats 1 and 2 people (Bob and Cleo), each seat's key its own."""
    seats = [Seat("Greedy 1", COLOURS[0], "bot", "greedy"), Seat("Bob", COLOURS[1]), Seat("Cleo", COLOURS[2])]
    keys = tuple(seat_key(i).public for i in range(3))
    return WireHeader(LogHeader.new(seats, seed=2024, created=0, game=GAME), keys)


def _players(tmp_path: Path) -> list[NetTable]:
    header = _header()
    sessions = [SyncSession(game=GAME, name=name, identity=seat_key(9 if seat == 0 else seat), header=header,
                            seats={seat: seat_key(seat)}, persistence=MemoryLog()) for seat, name in enumerate(NAMES)]
    return [NetTable(session, kind="player", listen=None, discovery=False, directory=tmp_path / session.name)
            for session in sessions]


def _spectator(tmp_path: Path) -> NetTable:
    session = SyncSession(game=GAME, name="Eve", role="spectator", identity=seat_key(8), header=_header(),
                          persistence=MemoryLog())
    return NetTable(session, kind="spectator", listen=None, discovery=False, directory=tmp_path / "Eve")


def _watch(table: NetTable) -> list[list[int]]:
    """Every away list *table* shows, after every change of its session, repeats left out."""
    shown: list[list[int]] = []

    def check(_change: str) -> None:
        away = table.away()
        if table.status == "playing" and (not shown or shown[-1] != away):
            shown.append(away)

    table.add_listener(check)
    return shown


def _link(wires: list[MemoryWire], connector: NetTable, acceptor: NetTable) -> MemoryWire:
    wire = MemoryWire(connector.session, acceptor.session)
    wires.append(wire)
    pump(*wires)
    return wire


def test_a_player_arriving_names_nobody_away_while_its_links_are_made(tmp_path: Path) -> None:
    """Cleo sits down last: her link to Ann opens first, Ann's heartbeat says she sees Bob, and Cleo's
    own link to Bob opens after. Bob is never away at Cleo's (she listed him away a moment)."""
    ann, bob, cleo = _players(tmp_path)
    shown = _watch(cleo)
    wires: list[MemoryWire] = []
    _link(wires, bob, ann)
    _link(wires, cleo, ann)
    assert cleo.away() == []
    _link(wires, cleo, bob)
    assert shown == [[]], shown


def test_a_spectator_arriving_and_failing_over_shows_only_what_the_table_says(tmp_path: Path) -> None:
    """Eve watches through Bob: nobody away from the start (she listed Cleo away until Bob's first
    heartbeat). Bob's laptop dies: Eve's link to it closes first, and she shows the table's last word
    (she listed every seat away, Greedy 1, Bob and Cleo, while Ann and Cleo played on), then fails
    over to Cleo, whose heartbeat says Bob is gone: Bob away, and nobody else ever."""
    ann, bob, cleo = _players(tmp_path)
    eve = _spectator(tmp_path)
    shown = _watch(eve)
    wires: list[MemoryWire] = []
    for connector, acceptor in ((bob, ann), (cleo, ann), (cleo, bob)):
        _link(wires, connector, acceptor)
    through_bob = _link(wires, eve, bob)
    assert shown == [[]], shown

    # Bob's laptop dies: Eve's dead-connection clock runs out first, then Ann's and Cleo's
    alive = [wire for wire in wires if bob.session not in (wire.connector, wire.acceptor)]
    eve.session.connections.time_out(through_bob.a, "heartbeat")
    assert eve.away() == [], eve.away()
    for table in (ann, cleo):
        link = table.session.connections.link_to(bob.session.identity.public)
        assert link is not None
        table.session.connections.time_out(link, "heartbeat")
    pump(*alive)
    assert eve.away() == [], eve.away()

    wires = [*alive]
    _link(wires, eve, cleo)
    assert shown == [[], [1]], shown
