"""The asyncio transport on loopback (protocol/wire.md §2.1): the handshake deadline, heartbeats, dead
peers, reconnection with back-off, duplicate connections, clean closing."""

from __future__ import annotations

import asyncio
import contextlib
import doctest
import socket

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


def timeouts(peer) -> list[str]:
    """What *peer*'s event log says of the connections it timed out, oldest first: which timer ran out."""
    return [e.message for e in peer.session.connections.events if e.code == "timeout"]


async def heartbeats_until(links, count: int) -> None:
    """Returns once each of *links* has received *count* heartbeats (a heartbeat that changes nothing
    tells no listener, so this looks after each short wait, a bounded number of times)."""
    for _ in range(int(LIMIT / 0.01)):
        if all(lk.heartbeats >= count for lk in links):
            return
        await asyncio.sleep(0.01)
    raise TimeoutError(f"not {count} heartbeats on every link within {LIMIT} s")


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
    timing = Timing(handshake=2.0, heartbeat=0.1, dead=5)
    # the ruler: Bob's heartbeats to Ann, one per heartbeat interval of silence on the loop's clock
    # (about 20 while the deadline runs; never more however loaded the machine, only fewer)
    ticks = round(timing.handshake / timing.heartbeat)
    async with LoopbackGame(make_header(2), timing) as table:
        a = await table.player("Ann", [0], bots=False)
        b = await table.player("Bob", [1], bots=False, dial=[a])
        await until([a, b], lambda: len(a.session.connections.open_links()) == 1)
        (beside,) = a.session.connections.open_links()
        raw = await RawClient.open(a.address)
        before = beside.heartbeats
        assert await raw.next() == Bye(reason="timeout")  # nothing before it: the link never opened
        waited = beside.heartbeats - before
        assert await raw.next() is None  # closed
        # the handshake deadline cut it, not the dead clock nor the frame deadline; not before it
        # (a quarter of its heartbeats at least), nor long after (a few more than it holds)
        assert timeouts(a) == ["handshake: bye timeout"]
        assert ticks // 4 <= waited <= ticks + 3, f"{waited} heartbeats beside a deadline of {ticks}"
        assert beside.is_open  # Bob's link is untouched
        await raw.aclose()


@pytest.mark.asyncio
async def test_heartbeats_flow_and_a_peer_that_says_nothing_is_dead():
    timing = Timing(handshake=2, heartbeat=0.05, dead=1.0)
    # a heartbeat after each heartbeat interval of silence, until the dead clock: about 20 (and one
    # or two with news when the link opens); on the loop's clock, so never more however loaded the
    # machine, only fewer
    most = round(timing.dead / timing.heartbeat)
    async with LoopbackGame(make_header(2), timing) as table:
        a = await table.player("Ann", [0], bots=False)
        raw = await RawClient.open(a.address)
        await raw.hello("Quiet")  # then silence
        beats = []
        for _ in range(2 * most):  # a peer whose dead clock never ran out would beat on for ever
            message = await raw.next()
            if message is None:
                break
            if isinstance(message, Heartbeat):
                beats.append(message)
            else:
                assert message == Bye(reason="timeout")
        else:
            raise AssertionError(f"still beating after {len(beats)} heartbeats: never dead")
        # not dead before its clock (a quarter of its heartbeats at least), nor long after
        assert most // 4 <= len(beats) <= most + 3, f"{len(beats)} heartbeats before a dead clock of {most}"
        assert all(b.have == 0 and b.digest == a.session.digest for b in beats)
        assert timeouts(a) == ["dead: bye timeout"]  # its dead clock, not the handshake's
        await raw.aclose()


@pytest.mark.asyncio
async def test_heartbeats_keep_a_quiet_game_alive():
    # each side sends a heartbeat only after a heartbeat interval of silence (no move is made), so
    # a link that received 2 * dead / heartbeat + 1 of them has outlived two dead-peer intervals;
    # the count stays within the receiver's budget of messages that change nothing (QUIET_BURST)
    timing = Timing(handshake=2, heartbeat=0.05, dead=0.5)
    outlived = 2 * round(timing.dead / timing.heartbeat) + 1
    async with LoopbackGame(make_header(2), timing) as table:
        a = await table.player("Ann", [0], bots=False)
        b = await table.player("Bob", [1], bots=False, dial=[a])
        await until([a, b], lambda: len(a.session.connections.open_links()) == len(b.session.connections.open_links()) == 1)
        links = (a.session.connections.links[0], b.session.connections.links[0])
        await heartbeats_until(links, outlived)
        assert a.session.connections.links[0] is links[0] and b.session.connections.links[0] is links[1]
        assert links[0].is_open and links[1].is_open  # the same links, never closed nor replaced
        assert timeouts(a) == timeouts(b) == []
        assert a.session.have == b.session.have == 0  # no move kept them alive


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
        await a.aclose()
        await until([b], lambda: not b.session.connections.links)
        assert a.session.connections.links == []
        assert timeouts(b) == []  # Bob closed it on the bye, not when his dead clock ran out
        assert [(e.kind, e.code) for e in b.session.connections.events][-2:] == [("received", "quit"), ("info", "closed")]
        assert [(e.kind, e.code) for e in a.session.connections.events][-2:] == [("sent", "quit"), ("info", "closed")]


@pytest.mark.asyncio
async def test_a_closing_side_reads_what_still_comes_so_the_last_frame_is_not_reset_away():
    """wire.md §4.7 "Closing": a side that closes its socket while the other still sends makes the kernel
    reset the connection; the other's next write then fails, and its program drops what it had not
    read yet: the ``bye`` itself (a headless player's goodbye, under load, read as a connection lost
    after an error). Ann says ``bye`` while Bob goes on sending, a few heartbeats' worth, before he
    reads, then ends his stream: he still reads her ``bye``."""
    a = player_session("Ann", seats=(0,))
    timing = Timing(handshake=LIMIT, heartbeat=LIMIT, dead=LIMIT, close=LIMIT)
    async with asyncio.TaskGroup() as tasks:
        channels: list[asyncio.Task[None]] = []

        async def accepted(reader, writer):
            channels.append(asyncio.current_task())  # type: ignore[arg-type]
            await Channel(reader, writer, a.connections.accept_link(), timing).run()

        server = await serve("127.0.0.1", 0, accepted, tasks)
        bob = await RawClient.open(server.sockets[0].getsockname()[:2])
        await bob.hello("Bob")
        await session_until(a, lambda: bool(a.connections.open_links()))
        (link,) = a.connections.open_links()
        a.connections.close_link(link, "quit")  # Ann's bye, then her end of the stream
        with contextlib.suppress(ConnectionError):
            for _ in range(20):  # Bob's heartbeats, as he has not read the bye yet (1 KiB each, 20 KiB in all)
                bob.writer.write(bytes(1 << 10))
                await bob.writer.drain()
                await asyncio.wait(channels, timeout=0.05)  # Ann's socket may be closed meanwhile
            bob.writer.write_eof()
        await asyncio.wait_for(channels[0], LIMIT)
        server.close()
        messages: list[object] = []
        try:
            while (message := await bob.next()) is not None:
                messages.append(message)
        except ConnectionError as exc:
            messages.append(exc)
        bob.writer.close()
    assert any(isinstance(m, Bye) and m.reason == "quit" for m in messages), messages
