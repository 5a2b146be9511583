"""Provides the asyncio transport: TCP streams driving the sans-I/O connections (``protocol/wire.md`` §2.1).

The thin adapter under :mod:`carcnet.net.sync`, in the manner of hypercorn's ``asyncio/tcp_server.py``
over h11: :func:`serve` listens and :func:`connect` dials; a :class:`Channel` runs one connection for an
:class:`Endpoint` (a :class:`carcnet.net.sync.Link`): a read loop that feeds it what arrives, writes of
whatever it queues, and the clocks of wire.md §2.1 that the sans-I/O layers do not keep (handshake
deadline, heartbeats, dead peer), from a :class:`Timing`. Only the peer's heartbeats
keep a connection alive: frames of anything else (a stale ``reveal`` again and again, entries held
already) are the peer's to send and say nothing of whether it is there, so they never put off its
death.

Writing needs no lock: :meth:`asyncio.StreamWriter.write` never blocks, every frame is queued whole by
the endpoint, and the event loop runs one callback at a time, so frames never interleave. What a lock
and ``drain()`` would buy, back-pressure, is replaced by a bound: a peer that lets more than
:data:`MAX_UNSENT` bytes pile up unread is dropped (``bye`` ``timeout``). Every task a channel starts
lives in its :class:`asyncio.TaskGroup` and ends with the connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol

from .protocol import State

__all__ = [
    "ACCEPTS_PER_TURN",
    "BACKLOG",
    "MAX_UNSENT",
    "READ_SIZE",
    "Channel",
    "Endpoint",
    "Listener",
    "Timing",
    "connect",
    "serve",
]

log = logging.getLogger("carcnet.net")

#: Bytes asked of the socket per read.
READ_SIZE = 1 << 16
#: Most bytes a peer may leave unread in our send buffer before it is dropped (8 MiB: a few whole logs).
MAX_UNSENT = 8 << 20
#: Most bytes read and thrown away after this side's last frame, while waiting for the other side's end
#: of the stream (wire.md §4.7 "Closing"): past them the socket is reset.
MAX_LINGER = 1 << 16


@dataclass(frozen=True, slots=True)
class Timing:
    """The clocks of wire.md §2.1, in seconds. Tests shorten them.

    Attributes:
        handshake: The handshake must be done this long after the TCP connection.
        heartbeat: Send a ``heartbeat`` after this long without sending anything; and one after half
            of :attr:`dead` without sending a heartbeat, whatever else was sent.
        dead: A connection on which no heartbeat arrived for this long since it opened is dead:
            ``bye`` ``timeout``.
        frame: A frame must be whole this long after its first byte arrived (a peer that trickles a
            frame byte by byte holds up to 1 MiB of our memory).
        connect: Longest wait for a TCP connection to be made.
        close: Longest wait for a closing socket to flush, and for the other side's end of the stream
            after it (wire.md §4.7 "Closing").
        backoff: Waits between reconnection attempts; the last one repeats.
        table_retry: The longest wait between reconnection attempts to a player proven to sit at the
            table, at the address where its key proved itself (wire.md §2.1, §4.2): after a split
            heals, the first attempt comes within these seconds.
        stall: A spectator leaves a link that has given it no entry for this long while its peer
            says it holds more, or holds less than another link gave (wire.md §5.10).
        quiet: A spectator that has taken no entry for this long asks one more player (§5.10).
        leave: A player leaving a game going on on purpose waits up to this long, while a link to a
            player is open, for the table to hold what it gave before it says ``bye`` (§5.9 "Two
            seats, and leaving").
    """

    handshake: float = 10.0
    heartbeat: float = 5.0
    dead: float = 20.0
    frame: float = 10.0
    connect: float = 10.0
    close: float = 2.0
    backoff: tuple[float, ...] = (1.0, 2.0, 4.0, 8.0, 16.0, 30.0)
    stall: float = 10.0
    quiet: float = 60.0
    table_retry: float = 4.0
    leave: float = 3.0

    def retry_delay(self, attempt: int, *, table: bool = False) -> float:
        """The wait in seconds before reconnection attempt *attempt* (0 for the first retry): the
        back-off of wire.md §2.1; to a player proven at the table at its confirmed address (*table*,
        §4.2), never more than :attr:`table_retry`.

        >>> [Timing().retry_delay(i) for i in range(8)]
        [1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0, 30.0]
        >>> [Timing().retry_delay(i, table=True) for i in range(8)]
        [1.0, 2.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0]
        """
        delay = self.backoff[min(attempt, len(self.backoff) - 1)]
        return min(delay, self.table_retry) if table else delay


class Endpoint(Protocol):
    """What a :class:`Channel` drives: one side of one connection, without I/O
    (:class:`carcnet.net.sync.Link` is one)."""

    @property
    def state(self) -> State:
        """The connection's state; the channel ends once it is ``CLOSED``."""
        ...

    def receive_data(self, data: bytes) -> None:
        """Bytes read from the socket; ``b""`` when the stream ended."""
        ...

    def data_to_send(self) -> bytes:
        """Bytes to write now (and forget)."""
        ...

    def heartbeat(self) -> None:
        """Nothing was sent for :attr:`Timing.heartbeat` seconds, or no heartbeat for half of
        :attr:`Timing.dead`: send one."""
        ...

    @property
    def heartbeats(self) -> int:
        """Heartbeats received so far: the peer is alive while this grows (wire.md §2.1)."""
        ...

    @property
    def buffered(self) -> int:
        """Bytes received that do not make a whole frame yet."""
        ...

    def time_out(self, what: str) -> None:
        """A deadline passed (``"handshake"``, ``"dead"``, ``"frame"``, ``"unsent"``): end the connection."""
        ...

    def set_waker(self, wake: Callable[[], None] | None) -> None:
        """The function to call whenever bytes are queued (``None``: stop calling it)."""
        ...


class Channel:
    """One TCP connection, driving one :class:`Endpoint`.

    Lifecycle: built on an open stream pair; :meth:`run` reads, writes and keeps the clocks until the
    endpoint is ``CLOSED`` (by either side, a timer, or the end of the stream), then closes the socket
    (after flushing what was queued, at most :attr:`Timing.close` seconds) and returns. Cancelling
    :meth:`run` ends the connection the same way, telling the endpoint the stream ended.

    Args:
        reader: The stream's reader.
        writer: The stream's writer.
        endpoint: The connection's sans-I/O side.
        timing: The clocks.
    """

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        endpoint: Endpoint,
        timing: Timing | None = None,
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.endpoint = endpoint
        self.timing = timing or Timing()
        self._loop = asyncio.get_running_loop()
        now = self._loop.time()
        self._started = now
        self._alive = now  # when the peer last showed it is there: the opening, then each heartbeat
        self._beats = 0  # the endpoint's heartbeats received, as last seen
        self._last_out = now  # when this side last sent anything (or the channel began) …
        self._last_beat = now  # … and a heartbeat
        self._done = asyncio.Event()
        self._was_open = False  # the timer is told once when the connection opens
        self._partial_since: float | None = None  # when the incomplete frame held now began to arrive
        self._poke = asyncio.Event()  # a deadline moved: the timer looks again

    @property
    def peername(self) -> tuple[str, int] | None:
        """The peer's address, as the socket sees it."""
        name = self.writer.get_extra_info("peername")
        return (str(name[0]), int(name[1])) if name else None

    async def run(self) -> None:
        """Runs the connection until it closes (see the class)."""
        endpoint = self.endpoint
        endpoint.set_waker(self.flush)
        self.flush()  # what was queued before the channel started (a connector's hello)
        try:
            async with asyncio.TaskGroup() as tasks:
                reading = tasks.create_task(self._read_loop())
                timing = tasks.create_task(self._timer_loop())
                await self._done.wait()
                reading.cancel()
                timing.cancel()
        finally:
            endpoint.set_waker(None)
            if endpoint.state is not State.CLOSED:
                endpoint.receive_data(b"")  # cancelled from outside: the stream ends here
            self._write(endpoint.data_to_send())
            await self._close_socket()

    def flush(self) -> None:
        """Writes what the endpoint queued; notices when it closed. Called by the endpoint's waker."""
        self._write(self.endpoint.data_to_send())
        state = self.endpoint.state
        if state is State.OPEN:
            if not self._was_open:
                self._was_open = True
                self._alive = self._loop.time()  # the dead clock starts when the connection opens
                self._poke.set()
        elif state is State.CLOSED:
            self._done.set()

    def _write(self, data: bytes) -> None:
        if not data or self.writer.is_closing():
            return
        self.writer.write(data)
        self._last_out = self._loop.time()
        if self.writer.transport.get_write_buffer_size() > MAX_UNSENT:
            log.warning("dropping a peer that reads too slowly (%s)", self.peername)
            self.endpoint.time_out("unsent")
            self.writer.transport.abort()
            self._done.set()

    async def _read_loop(self) -> None:
        endpoint = self.endpoint
        while endpoint.state is not State.CLOSED:
            try:
                data = await self.reader.read(READ_SIZE)
            except (ConnectionError, OSError):
                data = b""
            now = self._loop.time()
            endpoint.receive_data(data)
            beats = endpoint.heartbeats
            if beats != self._beats:
                self._beats, self._alive = beats, now  # wire.md §2.1: only a heartbeat keeps it alive
            if not endpoint.buffered:
                self._partial_since = None
            elif self._partial_since is None:
                self._partial_since = now
                self._poke.set()
            self.flush()
            if not data:
                break
        self._done.set()

    async def _timer_loop(self) -> None:
        """The clocks of wire.md §2.1: the handshake deadline, then the peer's heartbeats (dead without
        one for :attr:`Timing.dead`) and ours (after :attr:`Timing.heartbeat` of silence, and at least
        every half of :attr:`Timing.dead`); the frame deadline throughout. Sleeps until the next one is due, or until :attr:`_poke` says a
        deadline moved (the connection opened, a frame began)."""
        endpoint, timing, loop = self.endpoint, self.timing, self._loop
        while endpoint.state is not State.CLOSED:
            now = loop.time()
            opened = endpoint.state is State.OPEN
            partial = self._partial_since
            expired = (
                "handshake" if not opened and now >= self._started + timing.handshake
                else "dead" if opened and now >= self._alive + timing.dead
                else "frame" if partial is not None and now >= partial + timing.frame
                else None
            )
            if expired is not None:
                endpoint.time_out(expired)
                self.flush()
                break
            beat = min(self._last_out + timing.heartbeat, self._last_beat + timing.dead / 2)
            if opened and now >= beat:
                endpoint.heartbeat()
                self.flush()
                self._last_out = self._last_beat = now  # even if nothing could be written
            due = self._alive + timing.dead if opened else self._started + timing.handshake
            if opened:
                due = min(due, self._last_out + timing.heartbeat, self._last_beat + timing.dead / 2)
            if partial is not None:
                due = min(due, partial + timing.frame)
            self._poke.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poke.wait(), max(due - loop.time(), 0.001))
        self._done.set()

    async def _close_socket(self) -> None:
        """Closes the socket as wire.md §4.7 "Closing" says: this side's end of the stream after what
        was queued, then what still comes read and thrown away (at most :data:`MAX_LINGER` bytes) until
        the other side's end, then the socket closed; within :attr:`Timing.close` seconds in all, else
        reset. A socket closed while the other side still sends is reset by the kernel; the other side's
        next write then fails, and asyncio drops what its program had not read yet: the ``bye`` just
        sent."""
        writer = self.writer
        with contextlib.suppress(Exception):
            if writer.can_write_eof() and not writer.is_closing():
                writer.write_eof()
        try:
            async with asyncio.timeout(self.timing.close):
                if not writer.is_closing():
                    await self._linger()
                writer.close()
                await writer.wait_closed()
        except (TimeoutError, ConnectionError, OSError):
            writer.transport.abort()
        except asyncio.CancelledError:
            writer.transport.abort()
            raise

    async def _linger(self) -> None:
        """Reads and throws away what the other side still sends, until its end of the stream.

        Raises:
            ConnectionError: Past :data:`MAX_LINGER` bytes (the socket is then reset).
        """
        thrown = 0
        while not self.reader.at_eof():
            data = await self.reader.read(READ_SIZE)
            if not data:
                return
            thrown += len(data)
            if thrown > MAX_LINGER:
                raise ConnectionAbortedError("more than MAX_LINGER bytes after the last frame")


#: Connections taken from the listening socket in one turn of the event loop at most: a flood of
#: connections waits in the kernel's queue between the other work of the loop (a table's moves),
#: rather than taking the loop for one long turn (asyncio's own server takes up to its backlog, 100).
ACCEPTS_PER_TURN = 16
#: The listening socket's queue of connections not yet taken.
BACKLOG = 1024


class Listener:
    """A listening TCP socket whose connections are screened by address before anything is made for
    them (:func:`serve`). Closed by :meth:`close`; :attr:`sockets` as :class:`asyncio.Server`'s."""

    def __init__(self, sock: socket.socket, on_connection: Callable[[asyncio.StreamReader, asyncio.StreamWriter],
                 Coroutine[Any, Any, None]], tasks: asyncio.TaskGroup, admit: Callable[[asyncio.StreamWriter], bool] | None,
                 screen: Callable[[str], bool] | None) -> None:
        self._sock = sock
        self._on_connection = on_connection
        self._tasks = tasks
        self._admit = admit
        self._screen = screen
        self._loop = asyncio.get_running_loop()
        self._closed = asyncio.Event()
        self._loop.add_reader(sock.fileno(), self._readable)

    @property
    def sockets(self) -> tuple[socket.socket, ...]:
        return () if self._closed.is_set() else (self._sock,)

    def close(self) -> None:
        """Stops accepting (the connections taken go on)."""
        if not self._closed.is_set():
            self._loop.remove_reader(self._sock.fileno())
            self._sock.close()
            self._closed.set()

    async def wait_closed(self) -> None:
        await self._closed.wait()

    def _readable(self) -> None:
        for _ in range(ACCEPTS_PER_TURN):
            try:
                conn, peer = self._sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:  # out of file descriptors, or the like: the next turn tries again
                log.warning("accepting a connection failed: %s", exc)
                return
            address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
            if self._screen is not None and not self._screen(address):
                conn.close()  # as asyncio's abort of a transport closes it: the peer reads its end
                continue
            conn.setblocking(False)
            self._tasks.create_task(self._start(conn))

    async def _start(self, conn: socket.socket) -> None:
        reader = asyncio.StreamReader(limit=READ_SIZE, loop=self._loop)
        protocol = asyncio.StreamReaderProtocol(reader, loop=self._loop)
        try:
            transport, _ = await self._loop.connect_accepted_socket(lambda: protocol, sock=conn)
        except OSError:
            conn.close()
            return
        writer = asyncio.StreamWriter(transport, protocol, reader, self._loop)
        if self._admit is not None and not self._admit(writer):
            transport.abort()
            return
        await self._on_connection(reader, writer)


async def serve(
    host: str,
    port: int,
    on_connection: Callable[[asyncio.StreamReader, asyncio.StreamWriter], Coroutine[Any, Any, None]],
    tasks: asyncio.TaskGroup,
    *,
    admit: Callable[[asyncio.StreamWriter], bool] | None = None,
    screen: Callable[[str], bool] | None = None,
) -> Listener:
    """Listens on *host*:*port* (0: any free port); each accepted connection runs
    ``on_connection(reader, writer)`` as a task of *tasks*, which holds it. A connection is first
    screened by its IP address: one ``screen(address)`` refuses is closed at once, before any
    transport, task or byte (wire.md §2.1: a flood costs the accept and the close); then, once
    its transport is made, ``admit(writer)`` decides by what is held (a refused one is aborted before
    a byte is read). At most :data:`ACCEPTS_PER_TURN` connections are taken a turn of the loop.

    Raises:
        OSError: The address cannot be listened on (taken, not this machine's).

    Returns:
        The :class:`Listener`: ``listener.sockets[0].getsockname()`` is the address; close it to stop
        accepting.
    """
    loop = asyncio.get_running_loop()
    infos = await loop.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, kind, proto, _name, where = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(where)
        sock.listen(BACKLOG)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return Listener(sock, on_connection, tasks, admit, screen)


async def connect(
    host: str, port: int, *, timeout: float = 10.0
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Opens a TCP connection to *host*:*port*, waiting at most *timeout* seconds.

    Raises:
        OSError: Refused, unreachable, or (as ``TimeoutError``) too slow.
    """
    reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    return reader, writer
