"""The asyncio transport on loopback (protocol/wire.md §2.1): the handshake deadline, heartbeats, dead
peers, reconnection with back-off, duplicate connections, clean closing."""

from __future__ import annotations

import asyncio
import contextlib
import doctest
import socket
import time

import pytest

from carcnet.net import Bye, Heartbeat
from carcnet.net import transport as transport_module
from carcnet.net.peer import Peer
from carcnet.net.sync import SyncSession
from carcnet.net.transport import Channel, Timing, connect, serve

from .loopback import (
    FAST,
    GAME,
    LIMIT,
    LoopbackGame,
    RawClient,
    identity,
    make_header,
    seat_key,
    session_until,
    until,
)


def test_doctests():
    result = doctest.testmod(transport_module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_the_back_off_of_the_spec():
    assert [Timing().retry_delay(i) for i in range(7)] == [1, 2, 4, 8, 16, 30, 30]
    assert Timing().handshake == 10 and Timing().heartbeat == 5 and Timing().dead == 20


def player_session(name: str, seats=(), header=None) -> SyncSession:
    header = header or make_header(2)
    return SyncSession(
        game=GAME, name=name, identity=identity(name), header=header, seats={s: seat_key(s) for s in seats}
    )


@pytest.mark.asyncio
async def test_serve_and_connect_drive_two_sessions():
    a, b = player_session("A", seats=(0,)), player_session("B")
    async with asyncio.TaskGroup() as tasks:

        async def accepted(reader, writer):
            await Channel(reader, writer, a.connections.accept_link(), FAST).run()

        server = await serve("127.0.0.1", 0, accepted, tasks)
        port = server.sockets[0].getsockname()[1]
        reader, writer = await connect("127.0.0.1", port, timeout=LIMIT)
        link = b.connect_link(("127.0.0.1", port))
        channel = tasks.create_task(Channel(reader, writer, link, FAST).run())
        await session_until(b, lambda: link.is_open)
        a.submit(a.game.legal_moves()[0])
        await session_until(b, lambda: b.have == 1)
        assert b.entries == a.entries
        b.connections.close_link(link, "quit")
        await asyncio.wait_for(channel, LIMIT)
        server.close()
    assert a.connections.links == [] and b.connections.links == []
    assert [(e.kind, e.code) for e in a.connections.events][-2:] == [("received", "quit"), ("info", "closed")]


@pytest.mark.asyncio
async def test_connect_to_a_closed_port_raises():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(OSError):
        await connect("127.0.0.1", port, timeout=LIMIT)


@pytest.mark.asyncio
async def test_a_silent_connection_is_dropped_after_the_handshake_deadline():
    timing = Timing(handshake=0.2, heartbeat=0.5, dead=5)
    async with LoopbackGame(make_header(2), timing) as table:
        a = await table.player("Ann", [0], bots=False)
        raw = await RawClient.open(a.address)
        started = time.monotonic()
        assert await raw.next() == Bye(reason="timeout")
        assert await raw.next() is None  # closed
        assert 0.15 < time.monotonic() - started < 2
        assert ("sent", "timeout") in [(e.kind, e.code) for e in a.session.connections.events]
        await raw.aclose()


@pytest.mark.asyncio
async def test_heartbeats_flow_and_a_peer_that_says_nothing_is_dead():
    timing = Timing(handshake=2, heartbeat=0.05, dead=0.4)
    async with LoopbackGame(make_header(2), timing) as table:
        a = await table.player("Ann", [0], bots=False)
        raw = await RawClient.open(a.address)
        started = time.monotonic()
        await raw.hello("Quiet")  # then silence
        beats = []
        while (message := await raw.next()) is not None:
            if isinstance(message, Heartbeat):
                beats.append(message)
            else:
                assert message == Bye(reason="timeout")
        assert len(beats) >= 3 and all(b.have == 0 and b.digest == a.session.digest for b in beats)
        assert 0.35 < time.monotonic() - started < 3
        await raw.aclose()


@pytest.mark.asyncio
async def test_heartbeats_keep_a_quiet_game_alive():
    timing = Timing(handshake=2, heartbeat=0.03, dead=0.15)
    async with LoopbackGame(make_header(2), timing) as table:
        a = await table.player("Ann", [0], bots=False)
        b = await table.player("Bob", [1], bots=False, dial=[a])
        await until([a, b], lambda: len(a.session.connections.open_links()) == len(b.session.connections.open_links()) == 1)
        await asyncio.sleep(0.6)  # four dead-peer intervals without a move: a timing check, not a sync
        assert len(a.session.connections.open_links()) == len(b.session.connections.open_links()) == 1
        assert a.session.connections.links[0].heartbeats >= 5 and b.session.connections.links[0].heartbeats >= 5
        assert not [e for p in (a, b) for e in p.session.connections.events if e.code == "timeout"]


class Proxy:
    """A TCP forwarder between a dialer and a peer, whose connections the test can cut."""

    def __init__(self, target: tuple[str, int], tasks: asyncio.TaskGroup) -> None:
        self.target = target
        self.tasks = tasks
        self.writers: list[asyncio.StreamWriter] = []
        self.server: asyncio.Server | None = None
        self.accepted = 0

    async def start(self) -> tuple[str, int]:
        self.server = await serve("127.0.0.1", 0, self._forward, self.tasks)
        return "127.0.0.1", self.server.sockets[0].getsockname()[1]

    async def _forward(self, reader, writer) -> None:
        self.accepted += 1
        up_reader, up_writer = await connect(*self.target, timeout=LIMIT)
        self.writers += [writer, up_writer]

        async def pipe(src, dst):
            with contextlib.suppress(ConnectionError, OSError):
                while data := await src.read(1 << 16):
                    dst.write(data)
            dst.transport.abort()

        async with asyncio.TaskGroup() as pipes:
            pipes.create_task(pipe(reader, up_writer))
            pipes.create_task(pipe(up_reader, writer))

    def cut(self) -> None:
        """Breaks every connection abruptly: no bye, no error, just the end of the streams."""
        for writer in self.writers:
            writer.transport.abort()
        self.writers.clear()

    def close(self) -> None:
        assert self.server is not None
        self.server.close()
        self.cut()


@pytest.mark.asyncio
async def test_a_broken_connection_is_dialed_again_and_catches_up():
    async with asyncio.TaskGroup() as tasks, LoopbackGame(make_header(2)) as table:
        a = await table.player("Ann", [0], bots=False)
        proxy = Proxy(a.address, tasks)
        b = await table.player("Bob", [1], bots=False)
        b.dial(*await proxy.start())
        await until([a, b], lambda: len(a.session.connections.open_links()) == len(b.session.connections.open_links()) == 1)
        proxy.cut()
        await until([a, b], lambda: not a.session.connections.open_links() and not b.session.connections.open_links())
        assert b.session.connections.links == [] and ("info", "closed") in [(e.kind, e.code) for e in b.session.connections.events]
        a.session.submit(a.session.game.legal_moves()[0])  # made while they are apart
        await until([a, b], lambda: b.session.have == 1)  # Bob dialed again and caught up
        assert proxy.accepted == 2 and b.session.entries == a.session.entries
        proxy.close()


@pytest.mark.asyncio
async def test_a_dialer_waits_for_a_peer_that_is_not_there_yet():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    async with LoopbackGame(make_header(2)) as table:
        b = await table.player("Bob", [1], bots=False)
        b.dial("127.0.0.1", port)  # refused at first; tried again after 0.05, 0.1, 0.2, 0.2 … s
        await until([b], lambda: b.unreachable.get(("127.0.0.1", port), 0) >= 3)
        session = player_session("Ann", seats=(0,), header=table.header)
        a = await table._add(Peer(session, port=port, timing=FAST), [])
        await until([a, b], lambda: len(b.session.connections.open_links()) == 1)
        assert a.port == port


@pytest.mark.asyncio
async def test_two_peers_dialing_each_other_keep_one_connection():
    async with LoopbackGame(make_header(2)) as table:
        a = await table.player("Ann", [0], bots=False)
        b = await table.player("Bob", [1], bots=False)
        a.dial(*b.address)
        b.dial(*a.address)
        smaller = min(identity("Ann").public, identity("Bob").public)

        def settled() -> bool:
            la, lb = a.session.connections.links, b.session.connections.links
            return (
                len(la) == len(lb) == 1
                and la[0].is_open
                and lb[0].is_open
                and la[0].connector_key == lb[0].connector_key == smaller
            )

        await until([a, b], settled)
        a.session.submit(a.session.game.legal_moves()[0])
        await until([a, b], lambda: b.session.have == 1)
        assert settled()


@pytest.mark.asyncio
async def test_leaving_says_bye_and_ends_every_task():
    async with LoopbackGame(make_header(2)) as table:
        a = await table.player("Ann", [0], bots=False)
        b = await table.player("Bob", [1], bots=False, dial=[a])
        await until([a, b], lambda: len(b.session.connections.open_links()) == 1)
        started = time.monotonic()
        await a.aclose()
        await until([b], lambda: not b.session.connections.links)
        assert time.monotonic() - started < 1
        assert a.session.connections.links == []
        assert [(e.kind, e.code) for e in b.session.connections.events][-2:] == [("received", "quit"), ("info", "closed")]
        assert [(e.kind, e.code) for e in a.session.connections.events][-2:] == [("sent", "quit"), ("info", "closed")]
