"""Provides the Twisted reactor that magic-wormhole runs on, in a thread of its own, and byte streams
between it and asyncio.

magic-wormhole (the invite codes of :mod:`.invite`) is written for Twisted; carcnet's network and its
interface are asyncio. Rather than put Twisted's reactor on the interface's event loop (a choice made
once per process, before anything imports the reactor, and bound to one loop while tests and the
interface make several), the reactor runs in one daemon thread, started on first use and kept for
the life of the process. Two things cross between the threads:

- calls: :func:`call` runs a function on the reactor thread and gives its result (a value, a
  ``Deferred`` or a coroutine's) to the asyncio task that awaits it;
- bytes: :class:`StreamBridge` joins a Twisted protocol's transport (a dilation subchannel) to one end
  of a :func:`socket.socketpair`, the other end becoming an asyncio stream
  (:func:`asyncio.open_connection`), so a table's connection over an invite code is an ordinary
  ``(reader, writer)`` pair to :class:`~carcnet.net.transport.Channel`. Flow control is the kernel's
  and Twisted's producers: what this laptop writes waits while the pairing cannot take more; what
  the other laptop sends beyond :data:`MAX_BEHIND` bytes unread closes the stream.

Only this module and :mod:`.invite` import Twisted or magic-wormhole, and only when an invite code is
used: without the optional extra (``pip install 'carcnet[internet]'``) the rest of carcnet runs.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["StreamBridge", "call", "reactor"]

log = logging.getLogger("carcnet.net")

T = TypeVar("T")

#: Bytes a pairing's stream may send beyond what this laptop's socket buffers hold before it is closed
#: (a table's largest frame is 1 MiB, wire.md §2.2; its reader takes frames as they come).
MAX_BEHIND = 4 * 1024 * 1024

_lock = threading.Lock()
_reactor: Any = None


def reactor() -> Any:
    """The Twisted reactor, running in its daemon thread (started at the first call).

    Raises:
        ImportError: Twisted is not installed (the ``internet`` extra).
    """
    global _reactor
    with _lock:
        if _reactor is None:
            from twisted.internet import reactor as imported

            twisted_reactor: Any = imported
            _tune_dilation()
            thread = threading.Thread(target=twisted_reactor.run, kwargs={"installSignalHandlers": False},
                                      name="carcnet twisted reactor", daemon=True)
            thread.start()
            _reactor = twisted_reactor
        return _reactor


async def call(function: Callable[..., Any], *args: Any) -> Any:
    """Runs ``function(*args)`` on the reactor thread and returns its result: the value it returns,
    or what the ``Deferred`` or coroutine it returns comes to.

    Raises:
        Whatever the function raised, or its ``Deferred`` failed with.
        asyncio.CancelledError: The awaiting task was cancelled (the call runs on regardless).
    """
    from twisted.internet import defer

    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()

    def settle(outcome: Any, failed: bool) -> None:
        if future.done():
            return
        if failed:
            future.set_exception(outcome)
        else:
            future.set_result(outcome)

    def done(result: Any) -> None:
        loop.call_soon_threadsafe(settle, result, False)

    def failed(failure: Any) -> None:
        loop.call_soon_threadsafe(settle, failure.value, True)

    def start() -> None:
        try:
            value = function(*args)
        except Exception as exc:  # given to the awaiting task, as a Deferred's failure would be
            loop.call_soon_threadsafe(settle, exc, True)
            return
        if asyncio.iscoroutine(value):
            value = defer.ensureDeferred(value)
        if isinstance(value, defer.Deferred):
            value.addCallbacks(done, failed)
        else:
            done(value)

    reactor().callFromThread(start)
    return await future


def _tune_dilation() -> None:
    """Makes a move cross a dilated wormhole in one round trip.

    magic-wormhole's dilation leaves Nagle's algorithm on its TCP connection, and each record it
    receives is answered by an ACK record before the reply that follows it: a small write with
    another unacknowledged before it waits for the peer's delayed ACK, 40 ms on Linux, at each
    end. A move over the relay took 88 ms on loopback for 1 ms direct (measured in
    ``benchmarks/bench_net.py``). The connections are given ``TCP_NODELAY``, and, where the system
    has it, ``TCP_QUICKACK`` after every read, so the relay's own Nagle (its side is not ours to set)
    is answered at once. Applied once, to the dilation's connection protocol only.
    """
    try:
        from wormhole._dilation.connection import DilatedConnectionProtocol  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except ImportError:  # not installed: nothing to tune
        return
    if getattr(DilatedConnectionProtocol, "_carcnet_tuned", False):
        return
    made, received = DilatedConnectionProtocol.connectionMade, DilatedConnectionProtocol.dataReceived
    quickack = getattr(socket, "TCP_QUICKACK", None)

    def connection_made(self: Any) -> None:
        transport = getattr(self, "transport", None)
        if transport is not None and hasattr(transport, "setTcpNoDelay"):
            transport.setTcpNoDelay(True)
        made(self)

    def data_received(self: Any, data: bytes) -> None:
        sock = getattr(getattr(self, "transport", None), "socket", None)
        if quickack is not None and sock is not None:
            try:
                sock.setsockopt(socket.IPPROTO_TCP, quickack, 1)
            except OSError:
                pass
        received(self, data)

    DilatedConnectionProtocol.connectionMade = connection_made
    DilatedConnectionProtocol.dataReceived = data_received
    DilatedConnectionProtocol._carcnet_tuned = True


class StreamBridge:
    """Joins a Twisted stream (a dilation subchannel: its protocol is :meth:`protocol`) to an asyncio
    stream, through a :func:`socket.socketpair`.

    Args:
        deliver: Called on the reactor thread with the asyncio end of the pair (a non-blocking
            socket) once the Twisted stream is made; the caller hands it to its event loop, which
            opens it with :func:`asyncio.open_connection` (``sock=``).

    Either end closing closes the other; data flows both ways with Twisted's producers registered
    on each transport, so a slow reader pauses the writer rather than a buffer growing.
    """

    def __init__(self, deliver: Callable[[socket.socket], None]) -> None:
        self._deliver = deliver

    def protocol(self) -> Any:
        """A new protocol instance for the Twisted stream (for a factory's ``buildProtocol``)."""
        from twisted.internet.protocol import Protocol

        deliver = self._deliver

        class _Pump(Protocol):
            peer: Any = None

            def dataReceived(self, data: bytes) -> None:  # noqa: N802 (Twisted's name)
                if self.peer is not None and self.peer.transport is not None:
                    self.peer.transport.write(data)

            def connectionLost(self, reason: Any = None) -> None:  # noqa: N802
                peer, self.peer = self.peer, None
                if peer is not None:
                    peer.peer = None
                    if peer.transport is not None:
                        # a producer still registered would keep a drained transport from closing
                        peer.transport.unregisterProducer()
                        peer.transport.loseConnection()

        class _Behind:
            """The asyncio side's socket as a producer's consumer: while it is full, what the
            other laptop sends is counted, and past :data:`MAX_BEHIND` bytes the stream is closed
            (dilation 0.24 cannot pause a subchannel's inbound data: its connection has no
            ``pauseProducing``)."""

            def __init__(self, outer: Any) -> None:
                self.outer, self.paused, self.excess = outer, False, 0

            def pauseProducing(self) -> None:  # noqa: N802
                self.paused = True

            def resumeProducing(self) -> None:  # noqa: N802
                self.paused, self.excess = False, 0

            def stopProducing(self) -> None:  # noqa: N802
                self.paused = False

        class _Outer(_Pump):
            behind: _Behind | None = None

            def connectionMade(self) -> None:  # noqa: N802
                from twisted.internet import reactor as twisted_reactor
                from twisted.internet.protocol import Factory

                ours, theirs = socket.socketpair()
                inner = _Pump()
                inner.peer, self.peer = self, inner
                try:
                    ours.setblocking(False)
                    twisted_reactor.adoptStreamConnection(ours.fileno(), ours.family, Factory.forProtocol(lambda: inner))
                finally:
                    ours.close()  # adopted: Twisted holds a duplicate of it
                # what this laptop writes waits while the pairing cannot take more
                transport: Any = self.transport
                transport.registerProducer(inner.transport, True)
                self.behind = _Behind(self)
                adopted: Any = inner.transport
                adopted.registerProducer(self.behind, True)
                theirs.setblocking(False)
                deliver(theirs)

            def dataReceived(self, data: bytes) -> None:  # noqa: N802
                behind = self.behind
                if behind is not None and behind.paused:
                    behind.excess += len(data)
                    if behind.excess > MAX_BEHIND:
                        log.warning("a pairing's stream sent %d bytes more than this laptop read: closed", behind.excess)
                        transport: Any = self.transport
                        transport.loseConnection()
                        return
                super().dataReceived(data)

        return _Outer()
