"""The lobby without sockets (wire.md §4.6, §5.3): sessions joined by in-memory wires, a host's table,
players claiming seats, the commitments to chain roots, start; and what goes wrong on the way."""

from __future__ import annotations

import pytest

from carcnet.engine import Phase, Rules
from carcnet.log import LogHeader, Seat
from carcnet.net import Claim, Commit, Lobby, LobbySeat, Start, WireHeader
from carcnet.net.lobby import COMMIT_TIMEOUT, Hosting, LobbyRole, Seating, SeatPlan, Watching
from carcnet.net.signing import commitment, seat_chain, sign_commit
from carcnet.net.sync import SyncSession

from .loopback import GAME, MemoryWire, counter_random, identity, pump


def host_session(plan, rules: Rules | None = None) -> SyncSession:
    table = Hosting(name="Friday game", options=rules or Rules(), plan=plan, random=counter_random("host"), created=0)
    return SyncSession(game=GAME, name="Ann", identity=identity("Ann"), lobby=table)


def player_session(name: str, **kw) -> SyncSession:
    key = identity(name)
    seating = Seating(name=name, key=key, **kw)
    return SyncSession(game=GAME, name=name, identity=key, lobby=seating)


def seated_by_hand(host: SyncSession, name: str, seat: int, colour: str, *wires: MemoryWire):
    """A peer whose lobby messages the test sends by hand, connected to *host* and sitting at *seat*:
    its session, its wire and its key. *wires* are pumped along."""
    key = identity(name)
    session = SyncSession(game=GAME, name=name, identity=key, lobby=_Silent())
    wire = MemoryWire(session, host)
    pump(*wires, wire)
    wire.a.send(Claim(seat=seat, name=name, colour=colour, key=key.public))
    pump(*wires, wire)
    return session, wire, key


PLAN = [SeatPlan("host", "Ann", "red"), SeatPlan("open"), SeatPlan("open"), SeatPlan("bot", "Robo", "green", "greedy")]


def test_players_sit_down_commit_their_chains_and_start_with_the_same_header() -> None:
    rules = Rules(river=True, abbot=True, river_start="omit")
    host = host_session(PLAN, rules)
    bob, cleo = player_session("Bob", colour="blue"), player_session("Cleo", colour="blue")
    watcher = SyncSession(game=GAME, name="Eve", role="spectator", identity=identity("Eve"), lobby=Watching())
    wires = [MemoryWire(bob, host), MemoryWire(watcher, host)]
    pump(*wires)
    table = host.lobby
    assert isinstance(table, Hosting)
    assert bob.header is None and [s is not None for s in table.table] == [True, True, False, True]
    assert isinstance(watcher.lobby, Watching) and watcher.lobby.lobby == table.lobby  # spectators see the table
    wires.append(MemoryWire(cleo, host))
    pump(*wires)
    sessions = [host, bob, cleo, watcher]
    assert all(s.header is not None for s in sessions)
    header = host.header
    assert header is not None
    assert all(s.header == header for s in sessions)
    names = [s.name for s in header.header.seats]
    colours = [s.colour for s in header.header.seats]
    assert names == ["Ann", "Bob", "Cleo", "Robo"]
    assert colours[1] == "blue" and colours[2] not in ("red", "blue", "green")  # Cleo's blue was taken
    assert header.header.seats[3].bot == "greedy" and header.header.options == rules
    # wire.md §5.3: each seat's commitment is its chain's root (from its key); no seed, no nonces.
    assert header.nonces is None and header.header.seed is None and header.header.format == 3
    length = rules.pile_size()
    keys = {0: identity("Ann"), 1: identity("Bob"), 2: identity("Cleo")}
    for seat, key in keys.items():
        assert header.commits[seat] == seat_chain(key, GAME, seat, length)[0]  # type: ignore[index]
    assert header.keys[1] == identity("Bob").public and header.keys[0] == identity("Ann").public
    assert set(host.seats) == {0, 3} and set(bob.seats) == {1} and set(cleo.seats) == {2}
    assert watcher.seats == {}
    # wire.md §5.7: every player revealed its value for draw 1 and everyone made the same draw,
    # the spectator included (it gets the draw entry).
    assert host.have == bob.have == cleo.have == watcher.have == 1
    game = host.game
    assert game is not None and game.phase is Phase.PLACE_TILE and game.deck_index == 1
    assert {s.digest for s in sessions} == {host.digest}
    # The game plays on: the host moves for seat 0 and everyone takes the entry (and the next draw).
    from carcnet.bots import make_bot

    host.submit(make_bot("greedy", 1).choose(game.view()))
    host.submit(make_bot("greedy", 1).choose(game.view()))
    pump(*wires)
    assert bob.have == cleo.have == watcher.have == host.have == 4 and bob.game.phase is Phase.PLACE_TILE  # type: ignore[union-attr]


def test_no_single_peer_chooses_the_first_tile() -> None:
    """The same table with another player's key (so another chain) draws another first tile, while
    the host's chain stays the same: the draw depends on every seat's value (deck.md §5.2)."""
    firsts = set()
    for name in ("Bob", "Bert", "Bea", "Bo"):
        host = host_session([SeatPlan("host", "Ann", "red"), SeatPlan("open")])
        key = identity(name)
        bob = SyncSession(game=GAME, name=name, identity=key, lobby=Seating(name=name, key=key))
        pump(MemoryWire(bob, host))
        assert bob.header == host.header and host.header is not None and host.game is not None
        firsts.add(host.game.drawn)
    assert len(firsts) > 1


def test_a_claim_of_a_taken_seat_or_colour_is_refused_and_the_connection_stays() -> None:
    host = host_session([SeatPlan("host", "Ann", "red"), SeatPlan("open"), SeatPlan("open")])
    bob = player_session("Bob", colour="red", seat=0)  # wants Ann's seat and colour
    wire = MemoryWire(bob, host)
    pump(wire)
    table = host.lobby
    assert isinstance(table, Hosting)
    seated = table.table[1]
    assert seated is not None and seated.seat.name == "Bob" and seated.seat.colour != "red"
    # A hand-made claim of Ann's seat: seat-taken, the link stays open.
    wire.a.send(Claim(seat=0, name="Bob", colour="yellow", key=identity("Bob").public))
    pump(wire)
    assert wire.a.is_open and wire.b.is_open
    assert ("received", "seat-taken") in [(e.kind, e.code) for e in bob.events]
    # Moving to another open seat frees the old one.
    wire.a.send(Claim(seat=2, name="Bob", colour="yellow", key=identity("Bob").public))
    pump(wire)
    assert table.table[1] is None and table.table[2] is not None and table.table[2].seat.colour == "yellow"


def test_a_player_leaving_a_locked_table_unlocks_it_and_voids_the_commitments() -> None:
    host = host_session([SeatPlan("host", "Ann", "red"), SeatPlan("open"), SeatPlan("open")])
    bob = player_session("Bob")
    # Cleo is driven by hand: she sits, then leaves after the lock without revealing.
    bob_wire = MemoryWire(bob, host)
    pump(bob_wire)
    cleo, cleo_wire, _key = seated_by_hand(host, "Cleo", 2, "green", bob_wire)
    table = host.lobby
    assert isinstance(table, Hosting) and table.locked and table.round is not None
    assert isinstance(bob.lobby, Seating) and bob.lobby.round is not None  # Bob committed
    cleo.close_link(cleo_wire.a)
    pump(bob_wire, cleo_wire)
    assert not table.locked and table.round is None and table.table[2] is None
    assert bob.lobby.lobby is not None and not bob.lobby.lobby.locked and bob.lobby.round is None
    assert host.header is None and bob.header is None


def test_a_commitment_that_copies_anothers_root_is_refused() -> None:
    host = host_session([SeatPlan("host", "Ann", "red"), SeatPlan("open")])
    _mallory, wire, key = seated_by_hand(host, "Mallory", 1, "blue")
    ann_root = seat_chain(identity("Ann"), GAME, 0, Rules().pile_size())[0]
    wire.a.send(Commit(seat=1, hash=ann_root, sig=sign_commit(key, GAME, 1, ann_root)))
    pump(wire)
    assert ("sent", "bad-commit") in [(e.kind, e.code) for e in host.events]
    assert host.header is None


def test_a_commitment_signed_by_another_key_is_refused() -> None:
    host = host_session([SeatPlan("host", "Ann", "red"), SeatPlan("open")])
    _mallory, wire, _key = seated_by_hand(host, "Mallory", 1, "blue")
    digest = commitment(bytes(32))
    wire.a.send(Commit(seat=1, hash=digest, sig=sign_commit(identity("Other"), GAME, 1, digest)))
    pump(wire)
    assert ("sent", "bad-signature") in [(e.kind, e.code) for e in host.events]
    assert host.header is None


def test_a_start_without_the_players_commitment_is_refused() -> None:
    """wire.md §5.3 step 3: a player checks its seat, key and chain root are in the header."""
    key = identity("Bob")
    seating = Seating(name="Bob", key=key)
    bob = SyncSession(game=GAME, name="Bob", identity=key, lobby=seating)
    fake_host = SyncSession(game=GAME, name="Host", identity=identity("Host"), lobby=_Hosting())
    wire = MemoryWire(bob, fake_host)
    pump(wire)
    ann = identity("Ann")
    table = (
        LobbySeat(Seat("Ann", "red"), ann.public),
        LobbySeat(Seat("Bob", "blue"), key.public),
    )
    wire.b.send(Lobby(name="g", options=Rules(), table=table, locked=True))
    pump(wire)
    assert seating.seat == 1 and seating.round is not None  # Bob committed
    roots = [bytes([7]) * 32, bytes([8]) * 32]  # not Bob's root
    header = WireHeader.of(LogHeader.new([Seat("Ann", "red"), Seat("Bob", "blue")], commits=roots, game=GAME,
                                         keys=[ann.public, key.public]))
    wire.b.send(Start(header=header))
    pump(wire)
    assert bob.header is None
    assert ("sent", "bad-header") in [(e.kind, e.code) for e in bob.events]


def test_a_full_table_rejects_another_player_with_no_seat() -> None:
    host = host_session([SeatPlan("host", "Ann", "red"), SeatPlan("open")])
    pump(MemoryWire(player_session("Bob"), host))
    assert host.header is not None  # full, started
    late = player_session("Zed")
    wire = MemoryWire(late, host)
    pump(wire)
    # After the start a player without a seat may connect (it follows the log like a spectator).
    assert late.header == host.header and late.seats == {}


def test_a_locked_table_refuses_a_newcomer_and_a_late_round_is_abandoned() -> None:
    host = host_session([SeatPlan("host", "Ann", "red"), SeatPlan("open")])
    _slow, wire, _key = seated_by_hand(host, "Slow", 1, "blue")
    table = host.lobby
    assert isinstance(table, Hosting) and table.locked
    late = player_session("Late")
    late_wire = MemoryWire(late, host)
    pump(wire, late_wire)
    assert late_wire.a.closed and ("received", "no-seat") in [(e.kind, e.code) for e in late.events]
    assert table.locked_at is not None
    table.tick(table.locked_at + COMMIT_TIMEOUT - 1)
    assert table.locked
    table.tick(table.locked_at + COMMIT_TIMEOUT + 1)
    assert not table.locked and table.table[1] is None  # Slow never committed: its seat is open again


@pytest.mark.parametrize("plan", [[SeatPlan("open")], [SeatPlan("host", "A", "red"), SeatPlan("bot", "B", "red", "greedy")]])
def test_a_bad_plan_is_refused(plan) -> None:
    with pytest.raises(ValueError):
        host_session(plan)


class _Silent(LobbyRole):
    """A lobby that takes lobby messages and does nothing: the test sends this peer's by hand."""

    def on_message(self, link, message) -> None:
        pass


class _Hosting(_Silent):
    wire_role = "host"



def test_a_table_without_auto_start_waits_for_the_opener() -> None:
    table = Hosting(name="g", options=Rules(), plan=[SeatPlan("host", "Ann", "red"), SeatPlan("open")],
                      random=counter_random("host"), auto_start=False)
    host = SyncSession(game=GAME, name="Ann", identity=identity("Ann"), lobby=table)
    with pytest.raises(ValueError, match="1 seat is still open"):
        table.start()
    bob = player_session("Bob")
    wire = MemoryWire(bob, host)
    pump(wire)
    assert table.full and not table.locked and host.header is None
    assert isinstance(bob.lobby, Seating) and bob.lobby.seat == 1 and bob.lobby.round is None
    table.start()
    pump(wire)
    assert host.header is not None and bob.header == host.header
    with pytest.raises(ValueError, match="has started"):
        table.start()


def test_a_peer_that_dials_a_waiting_player_and_claims_to_host_is_refused() -> None:
    """Issue 13 item 3 (wire.md §4.6 "Whose table"): Mallory opens a table under the same game id and
    dials Bob, who waits at Ann's: her lobby is refused, Bob never takes her seat, commit or start,
    and the real table starts as if she had not been there."""
    host = host_session(PLAN)
    bob, cleo = player_session("Bob", colour="blue"), player_session("Cleo")
    to_ann = MemoryWire(bob, host)
    pump(to_ann)
    real = host.lobby.lobby if isinstance(host.lobby, Hosting) else None
    assert isinstance(bob.lobby, Seating) and bob.lobby.seat == 1
    mallory = host_session([SeatPlan("host", "Mallory", "red"), SeatPlan("open")])
    mallory.identity = identity("Mallory")
    to_bob = MemoryWire(mallory, bob)  # Mallory dials Bob
    pump(to_ann, to_bob)
    assert ("sent", "forbidden") in [(e.kind, e.code) for e in bob.events]
    assert bob.lobby.lobby == real and bob.lobby.seat == 1 and to_bob.b.closed
    # Bob dials a second "host" himself: another identity than Ann's is refused too
    mallory2 = host_session([SeatPlan("host", "Mal", "red"), SeatPlan("open")])
    mallory2.identity = identity("Mal")
    to_mal = MemoryWire(bob, mallory2)
    pump(to_ann, to_mal)
    assert bob.lobby.lobby == real and to_mal.a.closed
    wires = [to_ann, MemoryWire(cleo, host)]
    pump(*wires)
    assert bob.header is not None and bob.header == host.header and cleo.header == host.header
    assert mallory.header is None


def test_a_spectator_takes_the_lobby_and_start_only_from_the_table_it_dialled() -> None:
    host = host_session([SeatPlan("host", "Ann", "red"), SeatPlan("open")])
    watcher = SyncSession(game=GAME, name="Eve", role="spectator", identity=identity("Eve"), lobby=Watching())
    to_ann = MemoryWire(watcher, host)
    pump(to_ann)
    real = watcher.lobby.lobby if isinstance(watcher.lobby, Watching) else None
    assert real is not None
    mallory = host_session([SeatPlan("host", "Mallory", "red"), SeatPlan("bot", "R", "blue", "greedy")])
    mallory.identity = identity("Mallory")
    to_eve = MemoryWire(mallory, watcher)  # dials Eve, and her table is full: she starts at once
    pump(to_ann, to_eve)
    assert isinstance(watcher.lobby, Watching) and watcher.lobby.lobby == real
    assert watcher.header is None


def test_a_player_that_knows_its_host_key_takes_no_lobby_from_a_forged_table() -> None:
    """wire.md §4.6 with a known host key (an mDNS record's ``key``, the interface's browser): the
    record pointed at Mallory's table, which proves Mallory's key: her lobby is refused, Bob sits
    nowhere, and a later dial to Ann's real table seats him there."""
    ann = host_session([SeatPlan("host", "Ann", "red"), SeatPlan("open")])
    mallory = host_session([SeatPlan("host", "Mallory", "red"), SeatPlan("open")])
    mallory.identity = identity("Mallory")
    key = identity("Bob")
    bob = SyncSession(game=GAME, name="Bob", identity=key,
                      lobby=Seating(name="Bob", key=key, host_key=identity("Ann").public))
    forged = MemoryWire(bob, mallory)
    pump(forged)
    assert ("sent", "forbidden") in [(e.kind, e.code) for e in bob.events] and forged.a.closed
    assert isinstance(bob.lobby, Seating) and bob.lobby.lobby is None and bob.lobby.seat is None
    real = MemoryWire(bob, ann)
    pump(real)
    assert bob.header is not None and bob.header == ann.header
