"""The address book of wire.md §4.2 (issue 13 item 4, dial reflection): hints from mDNS and other
peers' welcomes are bounded, never replace an address where a key proved itself, are never passed on,
and are forgotten when they never answer or another key answers there."""

from __future__ import annotations

import asyncio
import socket
import statistics

import pytest

from carcnet.net import PeerInfo
from carcnet.net.book import MAX_BOOK
from carcnet.net.connections import at_table_address
from carcnet.net.lobby import LobbyRole
from carcnet.net.peer import MAX_HINT_FAILURES
from carcnet.net.sync import SyncSession

from .loopback import (
    LoopbackGame,
    MemoryWire,
    all_over,
    assert_identical,
    identity,
    make_header,
    pump,
    seat_key,
    until,
)

HEADER = make_header(2)


def session(name: str, seats=()) -> SyncSession:
    return SyncSession(game=HEADER.game, name=name, identity=identity(name), header=HEADER,
                       seats={s: seat_key(s) for s in seats})


def seated(name: str, seat: int) -> SyncSession:
    """A player whose seat key is its identity key, as a player's is (wire.md §3.1)."""
    return SyncSession(game=HEADER.game, name=name, identity=seat_key(seat), header=HEADER, seats={seat: seat_key(seat)})


def _info(name: str, port: int, addr: str = "192.168.1.50") -> PeerInfo:
    return PeerInfo(identity(name).public, name, addr, port)


def test_hints_are_bounded_and_never_replace_a_confirmed_address():
    host = session("Host", seats=(0,))
    bob = seated("Bob", 1)
    bob.connections.listen_port = 40123
    wire = MemoryWire(bob, host)
    wire.b.remote = "192.168.1.7"
    wire.pump()
    bob_key = seat_key(1).public
    assert bob_key in host.connections.addresses.confirmed and host.connections.addresses.entries[bob_key].addr == "192.168.1.7"
    host.connections.add_known(PeerInfo(bob_key, "Bob", "10.0.0.66", 666))  # a forged mDNS record for Bob's key
    assert host.connections.addresses.entries[bob_key].addr == "192.168.1.7" and host.connections.addresses.entries[bob_key].port == 40123
    for i in range(4 * MAX_BOOK):  # 20,000 hellos in the issue; a flood of records here
        host.connections.add_known(_info(f"Stranger {i}", 1000 + i))
    assert len(host.connections.addresses.entries) == MAX_BOOK and bob_key in host.connections.addresses.entries
    # only confirmed addresses are passed on: a newcomer's welcome lists Bob, not the strangers
    cleo = session("Cleo")
    to_host = MemoryWire(cleo, host)
    to_host.pump()
    assert [p.key for p in to_host.a.peer.peers] == [bob_key]  # type: ignore[union-attr]


def test_an_address_where_another_key_answers_is_forgotten():
    host = session("Host", seats=(0,))
    bob = session("Bob", seats=(1,))
    bob.connections.add_known(PeerInfo(identity("Ann").public, "Ann", "127.0.0.1", 40999))  # a hint: "Ann is there"
    wire = MemoryWire(bob, host, address=("127.0.0.1", 40999))  # but Host answers there
    wire.pump()
    assert identity("Ann").public not in bob.connections.addresses.entries
    assert bob.connections.addresses.entries[identity("Host").public].port == 40999 and identity("Host").public in bob.connections.addresses.confirmed


@pytest.mark.asyncio
async def test_a_hint_that_never_answers_is_given_up_and_the_game_goes_on():
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        dead_port = s.getsockname()[1]
    async with LoopbackGame(make_header(2)) as table:
        a = await table.player("Ann", [0])
        b = await table.player("Bob", [1], dial=[a])
        ghost = PeerInfo(identity("Ghost").public, "Ghost", "127.0.0.1", dead_port)
        a.session.connections.add_known(ghost)
        assert ghost.key in a.session.connections.addresses.entries
        await a.wait_until(lambda: ghost.key not in a.session.connections.addresses.entries, 30)
        assert a.unreachable.get(("127.0.0.1", dead_port), 0) >= MAX_HINT_FAILURES - 1
        await all_over([a, b])
        assert_identical([a, b])


def test_only_a_player_proven_at_the_table_is_dialled_again_at_the_tables_pace():
    """wire.md §2.1, §4.2: the address where a seat's key proved itself is dialled again at the table's
    pace; a hint (even under a seat key), or the address of a key that proved itself but sits at no
    seat, at the back-off's."""
    host = session("Host", seats=(0,))
    bob = seated("Bob", 1)
    bob.connections.listen_port = 40123
    wire = MemoryWire(bob, host)
    wire.b.remote = "192.168.1.7"
    wire.pump()
    stranger = session("Stranger")
    MemoryWire(host, stranger, address=("192.168.1.8", 40500)).pump()  # its welcome proves its key there
    host.connections.add_known(PeerInfo(seat_key(0).public, "Forged", "192.168.1.9", 40999))
    book = host.connections.addresses
    assert identity("Stranger").public in book.confirmed and seat_key(0).public not in book.confirmed
    assert at_table_address(host.connections, ("192.168.1.7", 40123))
    assert not at_table_address(host.connections, ("192.168.1.8", 40500))
    assert not at_table_address(host.connections, ("192.168.1.9", 40999))


class Split:
    """A fake clock and a network split for one dialer of :class:`~carcnet.net.peer.Peer`: every attempt
    fails at once (no route) and is noted at the fake time; a wait between attempts advances the fake
    time instead of passing (the event loop only takes its turn), up to *until*."""

    def __init__(self, until: float) -> None:
        self.now = 0.0
        self.until = until
        self.attempts: list[float] = []
        self.over = asyncio.Event()
        self._sleep = asyncio.sleep

    async def sleep(self, delay: float) -> None:
        self.now += delay
        if self.now >= self.until:
            self.over.set()
        await self._sleep(0)

    async def connect(self, host: str, port: int, *, timeout: float) -> object:
        self.attempts.append(self.now)
        raise OSError("no route to host")


async def _dialled(monkeypatch, info: PeerInfo, *, confirmed: bool, until: float = 300.0) -> list[float]:
    """When Ann's peer dials *info*'s address, on the fake clock of a split that lasts *until* seconds,
    the address in her book (*confirmed* or a hint) as the key it is booked under left it."""
    from carcnet.net import peer as peer_module

    split = Split(until)
    monkeypatch.setattr(peer_module, "connect", split.connect)
    monkeypatch.setattr(peer_module.asyncio, "sleep", split.sleep)
    ann = seated("Ann", 0)
    ann.connections.add_known(info, confirmed=confirmed)
    async with peer_module.Peer(ann, listen=False) as peer:
        peer.dial(info.addr, info.port, learned=True)
        book = ann.connections.addresses
        forgotten = asyncio.ensure_future(peer.wait_until(lambda: info.key not in book.entries, None))
        # bounded: the fake clock runs as fast as the loop turns
        await asyncio.wait([forgotten, asyncio.ensure_future(split.over.wait())], timeout=10,
                           return_when=asyncio.FIRST_COMPLETED)
        peer.close()
    monkeypatch.undo()
    return split.attempts


@pytest.mark.asyncio
async def test_after_a_split_heals_a_player_of_the_table_is_dialled_again_within_seconds(monkeypatch) -> None:
    """wire.md §2.1: the links of a split come back within seconds of the heal. Bob's address (his seat
    key proved itself there) is dialled again at most every 4 s however long the split lasts, so the
    first attempt after a heal at any moment comes within 4 s of it (it came 15-23 s after the heal with
    the back-off to 30 s); a hint is dialled at the back-off's pace, and forgotten after 6 attempts."""
    attempts = await _dialled(monkeypatch, PeerInfo(seat_key(1).public, "Bob", "10.0.0.2", 40000), confirmed=True)
    waits = [min(t for t in attempts if t >= heal) - heal for heal in (0.5 * i for i in range(1, 590))]
    assert max(waits) <= 4.0 and statistics.median(waits) < 5.0, attempts[:12]  # wire.md §2.1
    hint = PeerInfo(identity("Someone").public, "Someone", "10.0.0.9", 40000)
    assert await _dialled(monkeypatch, hint, confirmed=False) == [0.0, 1.0, 3.0, 7.0, 15.0, 31.0]


def test_a_stranger_that_proves_its_own_key_after_the_start_is_not_in_the_book():
    """Issue 13 item 4: 20,000 hellos with ports made the host dial the attacker's addresses; a proven
    key that plays no seat teaches nothing once the game has started."""
    host = session("Host", seats=(0,))
    for i in range(50):
        stranger = session(f"Stranger {i}")
        stranger.connections.listen_port = 20000 + i
        wire = MemoryWire(stranger, host)
        wire.b.remote = "192.168.1.66"
        wire.pump()
        assert wire.b.is_open
    assert host.connections.addresses.entries == {} and host.connections.addresses.confirmed == set()


def test_a_seat_claimed_in_a_heartbeat_confirms_no_address():
    """wire.md §4.2: after the start a heartbeat that claims a seat proved nothing (before, it confirmed
    a stranger's address, which every later welcome then passed on)."""
    from carcnet.net.messages import Heartbeat

    host = session("Host", seats=(0,))
    for i in range(MAX_BOOK + 8):
        stranger = session(f"Stranger {i}")
        stranger.connections.listen_port = 20000 + i
        wire = MemoryWire(stranger, host)
        wire.b.remote = "192.168.1.66"
        wire.pump()
        wire.a.send(Heartbeat(have=stranger.have, digest=stranger.digest, seats=(1,), sees=(identity("Host").public,)))
        wire.pump()
        assert wire.b.is_open and wire.b.seats == (1,)
    assert host.connections.addresses.entries == {}
    bob = seated("Bob", 1)
    bob.connections.listen_port = 40123
    wire = MemoryWire(bob, host)
    wire.b.remote = "192.168.1.7"
    wire.pump()
    assert list(host.connections.addresses.entries) == [seat_key(1).public]  # the seated player is


def _lobby_host():
    from carcnet.engine import Rules
    from carcnet.net.lobby import Hosting, SeatPlan

    from .loopback import counter_random

    plan = [SeatPlan("host", "Ann", "red"), SeatPlan("open"), SeatPlan("open")]
    table = Hosting(name="Friday game", options=Rules(), plan=plan, random=counter_random("host"), created=0)
    return SyncSession(game=HEADER.game, name="Ann", identity=identity("Ann"), lobby=table)


class _Silent(LobbyRole):
    """A lobby that takes the host's messages and claims nothing (a stranger that proved its key)."""

    def on_message(self, link, message, *, links, now):
        return []


def _bot(name: str, colour: str) -> SyncSession:
    from carcnet.net.lobby import Seating

    key = seat_key({"Robo": 1, "Droid": 2}[name])
    return SyncSession(game=HEADER.game, name=name, identity=key,
                       lobby=Seating(name=name, key=key, colour=colour, bot="greedy"))


def test_proven_hellos_in_the_lobby_do_not_push_the_players_out_of_the_welcomes():
    """wire.md §4.2 (issue 35 item 5): 40 proven ``player`` hellos with ports reach the host before the
    start; then two bots sit down. The host's welcome to the second bot lists the first (so that they
    connect to each other), and none of the 40: before, each proven hello confirmed its address, the
    book filled with 32 of them, and the bots never learned each other (the table hung)."""
    from .loopback import pump

    host = _lobby_host()
    wires = []
    for i in range(40):
        stranger = SyncSession(game=HEADER.game, name=f"Stranger {i}", identity=identity(f"Stranger {i}"),
                               lobby=_Silent())
        stranger.connections.listen_port = 20000 + i
        wire = MemoryWire(stranger, host)
        wire.b.remote = f"10.0.{i // 200}.{i % 200 + 1}"
        wires.append(wire)
        pump(wire)
        assert wire.b.is_open
    assert host.connections.addresses.entries == {}
    robo, droid = _bot("Robo", "blue"), _bot("Droid", "green")
    robo.connections.listen_port, droid.connections.listen_port = 40001, 40002
    to_robo = MemoryWire(robo, host)
    to_robo.b.remote = "192.168.1.21"
    pump(*wires, to_robo)
    table = host.lobby
    assert [s is not None for s in table.table] == [True, True, False]  # type: ignore[union-attr]
    assert list(host.connections.addresses.entries) == [seat_key(1).public]  # sat down: confirmed
    to_droid = MemoryWire(droid, host)
    to_droid.b.remote = "192.168.1.22"
    pump(to_droid)
    listed = to_droid.a.peer.peers  # type: ignore[union-attr]
    assert [(p.key, p.addr, p.port) for p in listed] == [(seat_key(1).public, "192.168.1.21", 40001)]


@pytest.mark.asyncio
async def test_a_peer_whose_last_link_closes_dials_its_address_again():
    """Ann accepted Bob's link and never dialled him; Bob's dial ends when its connection closes for a
    reason that asks for no retry (here his own ``bye``; in the nemesis, a second link to Ann open at
    that moment). When Ann's last link to Bob closes she dials the address her book holds for him
    (wire.md §4.2). Before, she dialled only when her book changed: two laptops whose dials had both
    ended that way never met again (the nemesis, seed 183: a fork for ever)."""
    async with LoopbackGame(make_header(2)) as table:
        a = await table.player("Ann", [0], bots=False, key=seat_key(0))
        b = await table.player("Bob", [1], dial=[a], bots=False, key=seat_key(1))
        await until([a, b], lambda: len(a.session.connections.open_links()) == 1)
        link = b.session.connections.open_links()[0]
        first = link.id
        b.session.connections.close_link(link, "quit")  # Bob's dial of Ann ends: no retry after a bye
        await until([a, b], lambda: any(other.id != first for other in b.session.connections.open_links()), 30)
        assert a.session.connections.link_to(seat_key(1).public) is not None


def test_the_key_that_sealed_the_header_sits_at_the_table():
    """wire.md §4.2: the host proves that it sits at the table by the seal of the header (its bots play
    under keys of their own, so its identity is no seat key); before, only a judged claim of a bot seat
    did, and until then its address and frame budget were a stranger's."""
    host_key = identity("Host").public
    bob = seated("Bob", 1)
    connections = bob.connections
    assert not connections.at_table(host_key)  # the header alone: the host's key is no seat key
    connections.started(HEADER, host_key)
    assert connections.at_table(host_key) and not connections.at_table(identity("Mallory").public)
    connections.started(HEADER)  # the header again, the seal not passed: the host stays known
    assert connections.at_table(host_key)


def test_two_players_who_sit_down_at_once_learn_each_other_from_the_host():
    """wire.md §4.10 (issue 30: a spectator test hung in CI): Robo and Droid reach the host at the same
    moment; each one's welcome comes before the other sat down, so it names neither. When each sits
    down, the host tells the players at the table where the other listens (``peers``), and each takes
    it as a hint from the host it sat down with. Before, a player ignored ``peers``: the two never
    dialled each other, and when one died the other never saw it go (the table stalled)."""
    host = _lobby_host()
    robo, droid = _bot("Robo", "blue"), _bot("Droid", "green")
    robo.connections.listen_port, droid.connections.listen_port = 40001, 40002
    to_robo, to_droid = MemoryWire(robo, host), MemoryWire(droid, host)
    to_robo.b.remote, to_droid.b.remote = "192.168.1.21", "192.168.1.22"
    for _ in range(10):  # Robo's handshake, not his claim of a seat
        if to_robo.a.is_open and to_robo.b.is_open:
            break
        for src, dst in ((to_robo.a, to_robo.b), (to_robo.b, to_robo.a)):
            if data := src.data_to_send():
                dst.receive_data(data)
    assert to_robo.a.is_open and to_robo.b.is_open
    assert [s is not None for s in host.lobby.table] == [True, False, False]  # type: ignore[union-attr]
    pump(to_droid)  # Droid: welcomed and seated while Robo has not sat down
    pump(to_robo, to_droid)
    assert to_robo.a.peer.peers == () and to_droid.a.peer.peers == ()  # type: ignore[union-attr]
    assert [s is not None for s in host.lobby.table] == [True, True, True]  # type: ignore[union-attr]
    learned = robo.connections.addresses.entries.get(seat_key(2).public)
    assert learned is not None and (learned.addr, learned.port) == ("192.168.1.22", 40002)
    learned = droid.connections.addresses.entries.get(seat_key(1).public)
    assert learned is not None and (learned.addr, learned.port) == ("192.168.1.21", 40001)


def test_a_player_takes_peers_only_from_the_table_and_only_a_few():
    """wire.md §4.10: a player takes ``peers`` as hints only from a peer proven at the table (or the host
    it sat down with), the first 8 on a connection: a stranger's, or the ninth, adds nothing to its book
    (each hint is a dial)."""
    from carcnet.net.messages import Peers

    bob = seated("Bob", 1)
    stranger = session("Stranger")
    wire = MemoryWire(stranger, bob)
    wire.pump()
    assert wire.b.is_open
    wire.a.send(Peers(peers=(_info("Eve", 40100),)))
    wire.pump()
    assert bob.connections.addresses.entries == {}
    ann = seated("Ann", 0)
    to_ann = MemoryWire(ann, bob)
    to_ann.pump()
    taken = to_ann.b.peers_taken  # Ann's own, when her book learned where Bob listens
    assert taken <= 1
    for i in range(12):
        to_ann.a.send(Peers(peers=(_info(f"Hint {i}", 40200 + i),)))
        to_ann.pump()
    assert [info.name for info in bob.connections.addresses.entries.values() if info.name.startswith("Hint")] == [
        f"Hint {i}" for i in range(8 - taken)]
