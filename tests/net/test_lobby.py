"""The lobby without sockets (wire.md §4.6, §5.3): sessions joined by in-memory wires, a host's table,
players claiming seats, the commitments to chain roots, start; and what goes wrong on the way."""

from __future__ import annotations

import hashlib

import pytest

from carcnet.engine import Phase, Rules
from carcnet.log import LogHeader, Seat
from carcnet.net import Claim, Commit, Error, Lobby, LobbySeat, SeatKey, Start, WireHeader
from carcnet.net.framing import ProtocolError
from carcnet.net.link import Link
from carcnet.net.lobby import (
    COMMIT_TIMEOUT,
    Begin,
    Hosting,
    LobbyAction,
    LobbyChanged,
    LobbyContext,
    LobbyRole,
    Refuse,
    Seating,
    SeatPlan,
    Send,
    Watching,
)
from carcnet.net.messages import Role, Seal
from carcnet.net.signing import commitment, sealed_game_id, seat_chain, sign_commit, sign_seal
from carcnet.net.sync import SyncSession

from .loopback import GAME, MemoryWire, counter_random, identity, pump

#: A game id made from Ann's identity key and a nonce (wire.md §4.2 "The game id"): her start is
#: sealed with her key, and a spectator takes it.
ANN_NONCE = hashlib.sha256(b"carcnet test game nonce").digest()
SEALED = sealed_game_id(identity("Ann").public, ANN_NONCE)


def host_session(plan, rules: Rules | None = None, name: str = "Ann", *, sealed: bool = False) -> SyncSession:
    table = Hosting(name="Friday game", options=rules or Rules(), plan=plan, random=counter_random("host"), created=0,
                    nonce=ANN_NONCE if sealed else None)
    return SyncSession(game=SEALED if sealed else GAME, name="Ann", identity=identity(name), lobby=table)


def player_session(name: str, game: str = GAME, **kw) -> SyncSession:
    key = identity(name)
    seating = Seating(name=name, key=key, **kw)
    return SyncSession(game=game, name=name, identity=key, lobby=seating)


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
    host = host_session(PLAN, rules, sealed=True)
    bob, cleo = player_session("Bob", SEALED, colour="blue"), player_session("Cleo", SEALED, colour="blue")
    watcher = SyncSession(game=SEALED, name="Eve", role="spectator", identity=identity("Eve"), lobby=Watching())
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
    # wire.md §4.2: the host sealed the header with the key the game id was made from, and every
    # peer keeps the seal to pass it on in its welcomes
    assert host.replica.seal is not None and all(s.replica.seal == host.replica.seal for s in sessions)
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
        assert header.commits[seat] == seat_chain(key, SEALED, seat, length)[0]  # type: ignore[index]
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
    assert ("received", "seat-taken") in [(e.kind, e.code) for e in bob.connections.events]
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
    cleo.connections.close_link(cleo_wire.a)
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
    assert ("sent", "bad-commit") in [(e.kind, e.code) for e in host.connections.events]
    assert host.header is None


def test_a_commitment_signed_by_another_key_is_refused() -> None:
    host = host_session([SeatPlan("host", "Ann", "red"), SeatPlan("open")])
    _mallory, wire, _key = seated_by_hand(host, "Mallory", 1, "blue")
    digest = commitment(bytes(32))
    wire.a.send(Commit(seat=1, hash=digest, sig=sign_commit(identity("Other"), GAME, 1, digest)))
    pump(wire)
    assert ("sent", "bad-signature") in [(e.kind, e.code) for e in host.connections.events]
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
    assert ("sent", "bad-header") in [(e.kind, e.code) for e in bob.connections.events]


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
    assert late_wire.a.closed and ("received", "no-seat") in [(e.kind, e.code) for e in late.connections.events]
    assert table.locked_at is not None
    host.apply_lobby(table.tick(table.locked_at + COMMIT_TIMEOUT - 1, links=host.connections.open_links()))
    assert table.locked
    host.apply_lobby(table.tick(table.locked_at + COMMIT_TIMEOUT + 1, links=host.connections.open_links()))
    assert not table.locked and table.table[1] is None  # Slow never committed: its seat is open again


@pytest.mark.parametrize("plan", [[SeatPlan("open")], [SeatPlan("host", "A", "red"), SeatPlan("bot", "B", "red", "greedy")]])
def test_a_bad_plan_is_refused(plan) -> None:
    with pytest.raises(ValueError):
        host_session(plan)


class _Silent(LobbyRole):
    """A lobby that takes lobby messages and does nothing: the test sends this peer's by hand."""

    def on_message(self, link, message, *, links, now) -> list[LobbyAction]:
        return []


class _Hosting(_Silent):
    wire_role = "host"



def test_a_table_without_auto_start_waits_for_the_opener() -> None:
    table = Hosting(name="g", options=Rules(), plan=[SeatPlan("host", "Ann", "red"), SeatPlan("open")],
                      random=counter_random("host"), auto_start=False)
    host = SyncSession(game=GAME, name="Ann", identity=identity("Ann"), lobby=table)
    with pytest.raises(ValueError, match="1 seat is still open"):
        table.start(links=host.connections.open_links(), now=host.clock())
    bob = player_session("Bob")
    wire = MemoryWire(bob, host)
    pump(wire)
    assert table.full and not table.locked and host.header is None
    assert isinstance(bob.lobby, Seating) and bob.lobby.seat == 1 and bob.lobby.round is None
    host.apply_lobby(table.start(links=host.connections.open_links(), now=host.clock()))
    pump(wire)
    assert host.header is not None and bob.header == host.header
    with pytest.raises(ValueError, match="has started"):
        table.start(links=host.connections.open_links(), now=host.clock())


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
    mallory = host_session([SeatPlan("host", "Mallory", "red"), SeatPlan("open")], name="Mallory")
    to_bob = MemoryWire(mallory, bob)  # Mallory dials Bob
    pump(to_ann, to_bob)
    assert ("sent", "forbidden") in [(e.kind, e.code) for e in bob.connections.events]
    assert bob.lobby.lobby == real and bob.lobby.seat == 1 and to_bob.b.closed
    # Bob dials a second "host" himself: another identity than Ann's is refused too
    mallory2 = host_session([SeatPlan("host", "Mal", "red"), SeatPlan("open")], name="Mal")
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
    mallory = host_session([SeatPlan("host", "Mallory", "red"), SeatPlan("bot", "R", "blue", "greedy")],
                           name="Mallory")
    to_eve = MemoryWire(mallory, watcher)  # dials Eve, and her table is full: she starts at once
    pump(to_ann, to_eve)
    assert isinstance(watcher.lobby, Watching) and watcher.lobby.lobby == real
    assert watcher.header is None


def test_a_player_that_knows_its_host_key_takes_no_lobby_from_a_forged_table() -> None:
    """wire.md §4.6 with a known host key (an mDNS record's ``key``, the interface's browser): the
    record pointed at Mallory's table, which proves Mallory's key: her lobby is refused, Bob sits
    nowhere, and a later dial to Ann's real table seats him there."""
    ann = host_session([SeatPlan("host", "Ann", "red"), SeatPlan("open")])
    mallory = host_session([SeatPlan("host", "Mallory", "red"), SeatPlan("open")], name="Mallory")
    key = identity("Bob")
    bob = SyncSession(game=GAME, name="Bob", identity=key,
                      lobby=Seating(name="Bob", key=key, host_key=identity("Ann").public))
    forged = MemoryWire(bob, mallory)
    pump(forged)
    assert ("sent", "forbidden") in [(e.kind, e.code) for e in bob.connections.events] and forged.a.closed
    assert isinstance(bob.lobby, Seating) and bob.lobby.lobby is None and bob.lobby.seat is None
    real = MemoryWire(bob, ann)
    pump(real)
    assert bob.header is not None and bob.header == ann.header


# ---------------------------------------------------------------------- values in, actions out
#
# The lobby without a session: each call takes a message (or a clock's time) and the open links, and
# returns what the session is to do (wire.md §4.6, §5.3). The links are real ones, opened in memory.

ANN, BOB, CLEO = identity("Ann"), identity("Bob"), identity("Cleo")
CONTEXT = LobbyContext(game=GAME, name="Ann", identity=ANN)


def _link(name: str, role: Role = "player", *, dialled: bool = False) -> Link:
    """An open link to the peer *name*, which declared *role*, as this side sees it: the peer dialled
    this side, or this side dialled it (*dialled*)."""
    here = SyncSession(game=GAME, name="Here", identity=identity("Here"))
    there = SyncSession(game=GAME, name=name, identity=identity(name), role="spectator" if role == "spectator" else "player",
                        lobby=_Hosting() if role == "host" else None)
    wire = MemoryWire(here, there) if dialled else MemoryWire(there, here)
    pump(wire)
    link = wire.a if dialled else wire.b
    assert link.is_open and link.role == role
    return link


def _table(plan: list[SeatPlan], *, auto_start: bool = True) -> Hosting:
    table = Hosting(name="g", options=Rules(), plan=plan, random=counter_random("host"), created=0,
                    auto_start=auto_start)
    table.attach(CONTEXT)
    return table


def _root(key, seat: int) -> bytes:
    return seat_chain(key, GAME, seat, Rules().pile_size())[0]


def _commit(key, seat: int) -> Commit:
    root = _root(key, seat)
    return Commit(seat=seat, hash=root, sig=sign_commit(key, GAME, seat, root))


def _claim(seat: int, name: str = "Bob", colour: str = "blue", key=BOB) -> Claim:
    return Claim(seat=seat, name=name, colour=colour, key=key.public)


THREE = [SeatPlan("host", "Ann", "red"), SeatPlan("open"), SeatPlan("open")]


@pytest.mark.parametrize(
    ("claim", "refusal"),
    [
        pytest.param(_claim(1), None, id="a free seat"),
        pytest.param(_claim(2, colour="yellow"), None, id="another free seat"),
        pytest.param(_claim(0), ("seat-taken", "seat 0 is taken by Ann"), id="a taken seat"),
        pytest.param(_claim(1, colour="red"), ("seat-taken", "red is taken by Ann"), id="a taken colour"),
        pytest.param(_claim(3), ("seat-taken", "the table has 3 seats; there is no seat 3"), id="no such seat"),
        pytest.param(_claim(1, key=ANN), ("seat-taken", "that key holds another seat"), id="another seat's key"),
    ],
)
def test_a_claim_is_answered_with_the_table_to_everyone_or_refused(claim: Claim, refusal) -> None:
    table = _table(THREE)
    bob, eve, mal = _link("Bob"), _link("Eve", "spectator"), _link("Mal", "host")
    actions = table.on_message(bob, claim, links=[bob, eve, mal], now=5.0)
    if refusal is None:
        held = table.table[claim.seat]
        assert held is not None and held.seat.name == "Bob" and held.key == BOB.public
        assert table.owners == {claim.seat: bob} and not table.locked
        # the table to every player and spectator (not to a peer that says it hosts), then the news
        assert actions == [Send(bob, table.lobby), Send(eve, table.lobby), LobbyChanged()]
    else:
        assert actions == [Refuse(bob, *refusal)]
        assert table.owners == {} and table.table[1:] == [None, None]


@pytest.mark.parametrize(
    ("message", "refusal"),
    [
        pytest.param(_commit(BOB, 1), ("unexpected-message", "commit while the table is not locked"), id="commit"),
        pytest.param(Lobby(name="g", options=Rules(), table=(None, None)), ("unexpected-message", "lobby to the host"),
                     id="lobby"),
    ],
)
def test_the_host_refuses_what_is_not_a_claim_or_a_commitment_of_a_locked_table(message, refusal) -> None:
    table = _table(THREE)
    bob = _link("Bob")
    assert table.on_message(bob, message, links=[bob], now=0.0) == [Refuse(bob, *refusal)]


def test_the_claim_that_fills_the_table_locks_it_and_the_host_commits_its_own_seats() -> None:
    table = _table([SeatPlan("host", "Ann", "red"), SeatPlan("open"), SeatPlan("bot", "Robo", "green", "greedy")])
    bob, eve = _link("Bob"), _link("Eve", "spectator")
    actions = table.on_message(bob, _claim(1), links=[bob, eve], now=7.0)
    assert table.locked and table.locked_at == 7.0 and table.started is None
    robo = table.own[2]
    assert actions == [
        Send(bob, table.lobby), Send(eve, table.lobby), LobbyChanged(),  # the locked table
        Send(bob, _commit(ANN, 0)), Send(bob, _commit(robo, 2)),  # wire.md §5.3 step 2, to the seated
    ]
    assert table.lobby.locked
    # a claim now is too late
    cleo = _link("Cleo")
    assert table.on_message(cleo, _claim(1, "Cleo", key=CLEO), links=[bob, eve, cleo], now=8.0) == [
        Refuse(cleo, "lobby-locked", "the table is locked")
    ]


def test_commitments_are_relayed_and_the_last_one_starts_the_game() -> None:
    table = _table(THREE)
    bob, cleo, eve = _link("Bob"), _link("Cleo"), _link("Eve", "spectator")
    links = [bob, cleo, eve]
    table.on_message(bob, _claim(1), links=links, now=0.0)
    table.on_message(cleo, _claim(2, "Cleo", "yellow", CLEO), links=links, now=0.0)
    assert table.locked
    # a commitment for a seat that is not the sender's, then Bob's own: relayed to Cleo only
    assert table.on_message(bob, _commit(CLEO, 2), links=links, now=1.0) == [
        Refuse(bob, "unexpected-message", "seat 2 is not this peer's")
    ]
    assert table.on_message(bob, _commit(BOB, 1), links=links, now=1.0) == [Send(cleo, _commit(BOB, 1))]
    assert table.started is None
    actions = table.on_message(cleo, _commit(CLEO, 2), links=links, now=2.0)
    header = table.started
    assert header is not None and table.round is None
    assert header.commits == (_root(ANN, 0), _root(BOB, 1), _root(CLEO, 2))
    assert header.keys == (ANN.public, BOB.public, CLEO.public) and header.game == GAME
    start = Start(header=header)
    assert actions == [
        Send(bob, _commit(CLEO, 2)),
        Send(bob, start), Send(cleo, start), Send(eve, start),
        Begin(header, {0: ANN}, (bob, cleo, eve), cleo),  # a header refused at home is refused to Cleo
    ]


@pytest.mark.parametrize(
    ("after", "freed"),
    [
        pytest.param(COMMIT_TIMEOUT - 1, False, id="in time"),
        pytest.param(COMMIT_TIMEOUT, True, id="on the dot"),
        pytest.param(COMMIT_TIMEOUT + 1, True, id="late"),
    ],
)
def test_a_round_that_times_out_frees_the_seats_that_did_not_commit(after: float, freed: bool) -> None:
    table = _table(THREE)
    bob, cleo, eve = _link("Bob"), _link("Cleo"), _link("Eve", "spectator")
    links = [bob, cleo, eve]
    table.on_message(bob, _claim(1), links=links, now=100.0)
    table.on_message(cleo, _claim(2, "Cleo", "yellow", CLEO), links=links, now=100.0)
    table.on_message(bob, _commit(BOB, 1), links=links, now=101.0)  # Cleo never commits
    actions = table.tick(100.0 + after, links=links)
    if not freed:
        assert actions == [] and table.locked and table.owners == {1: bob, 2: cleo}
        return
    assert not table.locked and table.round is None and table.owners == {1: bob} and table.table[2] is None
    lobby = table.lobby
    assert not lobby.locked and lobby.table[1] is not None
    # freeing the seat unlocks the table (one broadcast), then the round is closed (another)
    assert actions == [Send(bob, lobby), Send(cleo, lobby), Send(eve, lobby), LobbyChanged()] * 2
    assert table.tick(1000.0, links=links) == []  # nothing left to time out


def test_a_player_leaving_frees_its_seat_and_unlocks_the_table() -> None:
    table = _table([SeatPlan("host", "Ann", "red"), SeatPlan("open")])
    bob, eve = _link("Bob"), _link("Eve", "spectator")
    table.on_message(bob, _claim(1), links=[bob, eve], now=0.0)
    assert table.locked
    assert table.on_close(eve, links=[bob]) == []  # a spectator held no seat
    actions = table.on_close(bob, links=[eve])
    assert not table.locked and table.table[1] is None and table.owners == {}
    assert actions == [Send(eve, table.lobby), LobbyChanged()]


def test_the_host_sends_its_table_to_players_and_spectators_that_connect() -> None:
    table = _table(THREE)
    bob, eve, mal = _link("Bob"), _link("Eve", "spectator"), _link("Mal", "host")
    assert table.on_open(bob) == [Send(bob, table.lobby)]
    assert table.on_open(eve) == [Send(eve, table.lobby)]
    assert table.on_open(mal) == []


def test_the_opener_starts_a_full_table_and_a_table_of_its_own_seats_starts_at_once() -> None:
    table = _table([SeatPlan("host", "Ann", "red"), SeatPlan("open")], auto_start=False)
    bob = _link("Bob")
    with pytest.raises(ValueError, match="1 seat is still open"):
        table.start(links=[bob], now=0.0)
    assert table.on_message(bob, _claim(1), links=[bob], now=0.0) == [Send(bob, table.lobby), LobbyChanged()]
    assert not table.locked  # it waits for the opener
    actions = table.start(links=[bob], now=3.0)
    assert table.locked and table.locked_at == 3.0
    assert actions == [Send(bob, table.lobby), LobbyChanged(), Send(bob, _commit(ANN, 0))]
    with pytest.raises(ValueError, match="starting or has started"):
        table.start(links=[bob], now=4.0)
    # Only the host's seats: locking commits them all and starts; the begin has no connection to blame.
    own = _table([SeatPlan("host", "Ann", "red"), SeatPlan("bot", "Robo", "blue", "random")])
    eve = _link("Eve", "spectator")
    actions = own.lock(links=[eve], now=0.0)
    header = own.started
    assert header is not None and header.commits == (_root(ANN, 0), _root(own.own[1], 1))
    assert actions == [Send(eve, own.lobby), LobbyChanged(), Send(eve, Start(header=header)),
                       Begin(header, {0: ANN, 1: own.own[1]}, (eve,), None)]


def _lobby(*seats: tuple[str, str, bytes] | None, locked: bool = False,
           clock: tuple[int, int] | None = None) -> Lobby:
    table = tuple(LobbySeat(Seat(s[0], s[1]), s[2]) if s else None for s in seats)
    return Lobby(name="g", options=Rules(), table=table, locked=locked, clock=clock)


OPEN_TABLE = _lobby(("Ann", "red", ANN.public), None)
LOCKED_TABLE = _lobby(("Ann", "red", ANN.public), ("Bob", "blue", BOB.public), locked=True)


@pytest.mark.parametrize(
    ("sender", "host_key", "message", "expected"),
    [
        pytest.param(("Ann", "host", True), None, OPEN_TABLE, "claim", id="a lobby from the table dialled"),
        pytest.param(("Ann", "host", True), ANN.public, OPEN_TABLE, "claim", id="a lobby from the pinned host"),
        pytest.param(("Ann", "host", True), None, LOCKED_TABLE, "commit", id="a locked table with this seat"),
        pytest.param(("Ann", "host", False), None, OPEN_TABLE,
                     ("forbidden", "lobby from a peer that dialled this one: only the table it joined counts"),
                     id="a lobby from a peer that dialled this one"),
        pytest.param(("Mal", "host", True), ANN.public, OPEN_TABLE,
                     ("forbidden", "lobby from another host than the one this peer sat down with"),
                     id="a lobby from another host"),
        pytest.param(("Ann", "host", True), None, _commit(ANN, 0),
                     ("unexpected-message", "commit before this player committed"), id="a commit before the lock"),
        pytest.param(("Cleo", "player", False), None, _claim(1, "Cleo", key=CLEO),
                     ("lobby-locked", "this peer does not hold the table: ask the host"), id="a claim to a player"),
    ],
)
def test_a_player_takes_lobby_messages_only_from_its_host(sender, host_key, message, expected) -> None:
    """wire.md §4.6 "Whose table": a lobby, commit or start only over a connection this peer dialled,
    from the host it first took one from (or the one it was told of)."""
    seating = Seating(name="Bob", key=BOB, colour="blue", host_key=host_key)
    seating.attach(LobbyContext(game=GAME, name="Bob", identity=BOB))
    name, role, dialled = sender
    link = _link(name, role, dialled=dialled)
    actions = seating.on_message(link, message, links=[link], now=0.0)
    if expected == "claim":
        assert actions == [Send(link, Claim(seat=1, name="Bob", colour="blue", key=BOB.public)), LobbyChanged()]
        assert seating.host is link and seating.lobby == message
    elif expected == "commit":
        assert actions == [Send(link, _commit(BOB, 1)), LobbyChanged()]
        assert seating.seat == 1 and seating.round is not None
    else:
        assert actions == [Refuse(link, *expected)]
        assert seating.lobby is None and seating.host is None


def _header(roots: list[bytes], keys: list[bytes]) -> WireHeader:
    seats = [Seat("Ann", "red"), Seat("Bob", "blue")]
    return WireHeader.of(LogHeader.new(seats, commits=roots, game=GAME, keys=keys))


@pytest.mark.parametrize(
    ("roots", "keys", "refusal"),
    [
        pytest.param([_root(ANN, 0), _root(BOB, 1)], [ANN.public, BOB.public], None, id="its seat, key and root"),
        pytest.param([_root(ANN, 0), _root(BOB, 1)], [ANN.public, CLEO.public],
                     ("bad-header", "the header does not give seat 1 this player's key"), id="another key"),
        pytest.param([_root(ANN, 0), bytes([8]) * 32], [ANN.public, BOB.public],
                     ("bad-header", "the header does not hold this player's chain root"), id="another root"),
        pytest.param([bytes([7]) * 32, _root(BOB, 1)], [ANN.public, BOB.public],
                     ("bad-header", "the header's commitments are not the ones relayed"), id="another relayed root"),
    ],
)
def test_a_player_checks_the_start_before_it_begins(roots, keys, refusal) -> None:
    """wire.md §5.3 step 3: its seat, key and chain root, and the roots relayed before, are the header's."""
    seating = Seating(name="Bob", key=BOB)
    seating.attach(LobbyContext(game=GAME, name="Bob", identity=BOB))
    ann = _link("Ann", "host", dialled=True)
    seating.on_message(ann, LOCKED_TABLE, links=[ann], now=0.0)
    seating.on_message(ann, _commit(ANN, 0), links=[ann], now=0.0)  # relayed by the host
    header = _header(roots, keys)
    actions = seating.on_message(ann, Start(header=header), links=[ann], now=0.0)
    if refusal is None:
        assert actions == [Begin(header, {1: BOB}, (ann,), ann)]
    else:
        assert actions == [Refuse(ann, *refusal)]


@pytest.mark.parametrize(
    ("code", "changed"),
    [("seat-taken", True), ("lobby-locked", True), ("bad-message", False)],
)
def test_a_refused_claim_is_news_and_the_player_claims_again(code: str, changed: bool) -> None:
    seating = Seating(name="Bob", key=BOB)
    seating.attach(LobbyContext(game=GAME, name="Bob", identity=BOB))
    ann = _link("Ann", "host", dialled=True)
    seating.on_message(ann, OPEN_TABLE, links=[ann], now=0.0)
    actions = seating.on_error(ann, Error(code=code, message="no"))
    assert actions == ([LobbyChanged()] if changed else [])
    assert seating.problem == ("no" if changed else None)
    assert seating.on_close(_link("Cleo"), links=[ann]) == []
    assert seating.on_close(ann, links=[]) == [LobbyChanged()] and seating.host is None


START = Start(header=_header([_root(ANN, 0), _root(BOB, 1)], [ANN.public, BOB.public]))


def _sealed_start(signer: SeatKey = ANN, nonce: bytes = ANN_NONCE) -> Start:
    """The start of Ann's table in the game her key makes (:data:`SEALED`), sealed by *signer* with
    *nonce* (wire.md §4.2)."""
    seats = [Seat("Ann", "red"), Seat("Bob", "blue")]
    length = Rules().pile_size()
    roots = [seat_chain(ANN, SEALED, 0, length)[0], seat_chain(BOB, SEALED, 1, length)[0]]
    header = WireHeader.of(LogHeader.new(seats, commits=roots, game=SEALED, keys=[ANN.public, BOB.public]))
    return Start(header=header, seal=Seal(signer.public, nonce, sign_seal(signer, header.fingerprint)))


#: Ann's seal, with her key and nonce, of another header than the one it comes with.
START_SEAL_OF_ANOTHER = Seal(ANN.public, ANN_NONCE, sign_seal(ANN, START.header.fingerprint))


@pytest.mark.parametrize(
    ("sender", "message", "expected"),
    [
        pytest.param(("Ann", "host", True), OPEN_TABLE, "changed", id="a lobby from the table dialled"),
        pytest.param(("Ann", "host", True), _sealed_start(), "begin", id="a start from the table dialled"),
        pytest.param(("Ann", "host", True), START,
                     ("bad-header", f"the header comes without its host's seal: nothing shows it is game {GAME}'s"),
                     id="a start without a seal"),
        pytest.param(("Ann", "host", True), _sealed_start(BOB),
                     ("bad-header", (f"the seal's key and nonce make game id "
                                     f"{sealed_game_id(BOB.public, ANN_NONCE)}, not {SEALED}: another host's")),
                     id="a start sealed by another key"),
        pytest.param(("Ann", "host", True), Start(header=_sealed_start().header, seal=START_SEAL_OF_ANOTHER),
                     ("bad-header", "the seal does not sign this header: its host started another one"),
                     id="a start with the seal of another header"),
        pytest.param(("Ann", "host", False), OPEN_TABLE,
                     ("forbidden", "lobby from a peer that dialled this one: only the table it joined counts"),
                     id="a lobby from a peer that dialled this one"),
        pytest.param(("Mal", "host", True), START,
                     ("bad-header", f"the header comes without its host's seal: nothing shows it is game {GAME}'s"),
                     id="a start from another peer dialled: judged by its seal"),
        pytest.param(("Bob", "player", True), _sealed_start(), "begin", id="the host's start passed on by a player"),
        pytest.param(("Bob", "player", False), _sealed_start(),
                     ("forbidden", "start from a peer that dialled this one: only the table it joined counts"),
                     id="a start from a peer that dialled this one"),
        pytest.param(("Bob", "player", False), _claim(1),
                     ("unexpected-message", "claim to a spectator"), id="a claim"),
    ],
)
def test_a_spectator_follows_only_its_host(sender, message, expected) -> None:
    watching = Watching(host_key=ANN.public)
    watching.attach(LobbyContext(game=GAME, name="Eve", identity=identity("Eve")))
    name, role, dialled = sender
    link = _link(name, role, dialled=dialled)
    actions = watching.on_message(link, message, links=[link], now=0.0)
    if expected == "changed":
        assert actions == [LobbyChanged()] and watching.lobby == message
    elif expected == "begin":
        assert actions == [Begin(message.header, {}, (link,), link, message.seal)]
    else:
        assert actions == [Refuse(link, *expected)] and watching.lobby is None


def test_without_a_lobby_every_lobby_message_is_refused() -> None:
    role = LobbyRole()
    role.attach(CONTEXT)
    bob = _link("Bob")
    assert role.on_message(bob, _claim(1), links=[bob], now=0.0) == [
        Refuse(bob, "unexpected-message", "claim: no lobby here")
    ]
    assert role.on_open(bob) == role.on_close(bob, links=[]) == role.on_error(bob, Error(code="x", message="y")) == []


@pytest.mark.parametrize("source", [False, True], ids=["raised to the caller", "refused on the source"])
def test_the_session_carries_a_begin_out_and_a_refused_header_goes_where_the_lobby_says(source: bool) -> None:
    session = SyncSession(game=GAME, name="Ann", identity=ANN)
    bob = _link("Bob")
    theirs = WireHeader.of(LogHeader.new([Seat("Ann", "red"), Seat("Bob", "blue")], commits=[bytes(32), bytes([1]) * 32],
                                         game="0" * 32, keys=[ANN.public, BOB.public]))
    begin = Begin(theirs, {}, (), bob if source else None)
    if source:
        session.apply_lobby([begin])
        assert ("sent", "wrong-game") in [(e.kind, e.code) for e in session.connections.events]
    else:
        with pytest.raises(ProtocolError) as caught:
            session.apply_lobby([begin])
        assert caught.value.code == "wrong-game"
    assert session.header is None
    header = _header([_root(ANN, 0), _root(BOB, 1)], [ANN.public, BOB.public])
    seen = []
    session.add_listener(lambda change, link: seen.append(change))
    session.apply_lobby([LobbyChanged(), Begin(header, {0: ANN}, (), None)])
    assert session.header == header and session.seats == {0: ANN} and seen[:2] == ["lobby", "header"]


#: (the clock of the table the player sat down at, the clock of the host's next lobby, the refusal)
CLOCK_CHANGES = [
    pytest.param(None, None, None, id="no clock stays no clock"),
    pytest.param((60, 300), (60, 300), None, id="the same clock"),
    pytest.param((60, 300), (1, 0), "60+300 → 1+0", id="a shorter clock"),
    pytest.param(None, (1, 0), "no clock → 1+0", id="a clock where there was none"),
    pytest.param((60, 300), None, "60+300 → no clock", id="no clock where there was one"),
]


@pytest.mark.parametrize(("sat", "then", "refusal"), CLOCK_CHANGES)
def test_a_player_holds_the_host_to_the_clock_it_sat_down_under(sat, then, refusal) -> None:
    """wire.md §4.6: a player agrees to the turn clock by sitting down; a host's lobby with another
    clock after that is refused ``forbidden`` (closing the connection frees the seat), and the person
    is told why, so that no clock of one second has their turns played by their bot."""
    seating = Seating(name="Bob", key=BOB, colour="blue")
    seating.attach(LobbyContext(game=GAME, name="Bob", identity=BOB))
    ann = _link("Ann", "host", dialled=True)
    sat_at = _lobby(("Ann", "red", ANN.public), None, clock=sat)
    claim = Claim(seat=1, name="Bob", colour="blue", key=BOB.public)
    assert seating.on_message(ann, sat_at, links=[ann], now=0.0) == [Send(ann, claim), LobbyChanged()]
    granted = _lobby(("Ann", "red", ANN.public), ("Bob", "blue", BOB.public), clock=then)
    actions = seating.on_message(ann, granted, links=[ann], now=1.0)
    if refusal is None:
        assert actions == [LobbyChanged()] and seating.seat == 1 and seating.lobby == granted
    else:
        assert actions == [Refuse(ann, "forbidden", f"the turn clock changed after this player sat down ({refusal})")]
        assert seating.lobby == sat_at and seating.problem is not None and refusal in seating.problem


def test_a_full_tables_clock_binds_nobody_who_did_not_sit_down() -> None:
    seating = Seating(name="Cleo", key=CLEO)
    seating.attach(LobbyContext(game=GAME, name="Cleo", identity=CLEO))
    ann = _link("Ann", "host", dialled=True)
    full = _lobby(("Ann", "red", ANN.public), ("Bob", "blue", BOB.public), clock=(60, 300))
    assert seating.on_message(ann, full, links=[ann], now=0.0) == [LobbyChanged()]
    assert seating.seat is None and seating.problem == "the table is full"
    opened = _lobby(("Ann", "red", ANN.public), None, clock=(30, 0))
    actions = seating.on_message(ann, opened, links=[ann], now=1.0)
    assert actions == [Send(ann, Claim(seat=1, name="Cleo", colour="blue", key=CLEO.public)), LobbyChanged()]


def test_the_hosts_clock_is_fixed_when_the_table_opens() -> None:
    table = Hosting(name="g", options=Rules(), plan=THREE, random=counter_random("host"), created=0, clock=(60, 300))
    with pytest.raises(AttributeError):
        table.clock = (1, 0)  # type: ignore[misc]
    assert table.clock == (60, 300) and table.lobby.clock == (60, 300)
