"""The event service: what one laptop of a tournament answers the others (protocol/tournament.md §6).

Every laptop of an event listens on one TCP port and answers four requests, one frame each way
(a 4-byte big-endian length, then one msgpack map): ``status?`` (who it is, proven by a signature
over the asker's nonce; the round it is at; the tables it has open; the event's laptops it knows),
``charter?`` (the signed charter, once there is one), ``log?`` (the log it counted for a table) and
``enrol`` (a player asking the opener to be entered, signed by the player's key). Nothing a reply
says is believed unless it proves itself: a status by its signature, a charter by the opener's, a
log by its seats' (:mod:`carcnet.club.results`). Addresses are hints.

Budgets (a stranger can make a laptop spend no more), by the asker's address and role: a *laptop*
is an address the runner knows an event laptop at (one that signed a status for its nonce), any other
a *stranger*. :data:`MAX_CONNECTIONS` connections at once in all, of which strangers hold at most
:data:`MAX_STRANGERS` (the rest kept for the laptops) and one address at most
:data:`MAX_PER_STRANGER` (a laptop's: :data:`MAX_PER_LAPTOP`), so that one address holding its
connections never starves another's requests; :data:`MAX_REQUESTS` requests on each,
:data:`REQUEST_BYTES` a request, :data:`REPLY_BYTES` a reply, :data:`READ_TIMEOUT` seconds to send a
request; and each address's replies at most :data:`STRANGER_REPLIES` requests and
:data:`STRANGER_REPLY_BYTES` bytes (a laptop: :data:`LAPTOP_REPLIES`, :data:`LAPTOP_REPLY_BYTES`) over
any :data:`WINDOW` seconds (a bucket refilled evenly). A connection that breaks any of them is closed;
nothing else changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgpack

from carcnet.log.signatures import verify
from carcnet.net.signing import SeatKey

__all__ = [
    "LAPTOP_REPLIES", "LAPTOP_REPLY_BYTES", "MAX_CONNECTIONS", "MAX_PER_LAPTOP", "MAX_PER_STRANGER", "MAX_REQUESTS",
    "MAX_STRANGERS", "STRANGER_REPLIES", "STRANGER_REPLY_BYTES", "WINDOW", "READ_TIMEOUT", "REPLY_BYTES", "REQUEST_BYTES", "EventService",
    "Refused", "ServiceError", "Status", "ask", "read_status", "sign_status",
]

log = logging.getLogger("carcnet.club")

#: Connections one laptop's service holds at once; more are closed at once.
MAX_CONNECTIONS = 32
#: Connections strangers (addresses of no known laptop) hold at once, all of them together.
MAX_STRANGERS = 20
#: Connections one stranger's address holds at once.
MAX_PER_STRANGER = 4
#: Connections one known laptop's address holds at once (its polls, its log fetches, its enrolments).
MAX_PER_LAPTOP = 8
#: Seconds over which an address's reply budget is counted (refilled evenly).
WINDOW = 10.0
#: Requests answered to one stranger's address over :data:`WINDOW` seconds (a laptop polls every 2 s).
STRANGER_REPLIES = 100
#: Reply bytes sent to one stranger's address over :data:`WINDOW` seconds: a charter and a few logs.
STRANGER_REPLY_BYTES = 4 << 20
#: Requests answered to one known laptop's address over :data:`WINDOW` seconds.
LAPTOP_REPLIES = 400
#: Reply bytes sent to one known laptop's address over :data:`WINDOW` seconds: a round's logs.
LAPTOP_REPLY_BYTES = 32 << 20
#: Requests one connection may make.
MAX_REQUESTS = 16
#: Largest request frame body (bytes): an enrolment with a 32-character name is under 300.
REQUEST_BYTES = 4096
#: Largest reply frame body (bytes): a log (a six-seat game with every draw is under 200 KiB).
REPLY_BYTES = 1 << 20
#: Seconds a connection may take to send its next request, and an asker waits for a reply.
READ_TIMEOUT = 5.0
#: The status signature's domain (protocol/tournament.md §6.2).
STATUS_DOMAIN = b"carcnet/event-status/v1\0"
#: The enrolment signature's domain (§6.1).
ENROL_DOMAIN = b"carcnet/enrol/v1\0"

_LENGTH = struct.Struct(">I")


class ServiceError(Exception):
    """A request that got no usable reply (no connection, a timeout, a malformed or oversized frame,
    a refusal, a signature that does not verify): the message says which."""


class Refused(ServiceError):
    """The other laptop answered with a refusal (an ``error`` reply): the message is its text."""


def pack(message: dict[str, Any]) -> bytes:
    """*message* as one frame: its length (4 bytes, big-endian), then msgpack (bin for bytes)."""
    body = msgpack.packb(message, use_bin_type=True)
    return _LENGTH.pack(len(body)) + body


def unpack(body: bytes, limit: int) -> dict[str, Any]:
    """The map of a frame body, strictly: string keys, bounded sizes.

    Raises:
        ServiceError: Not one msgpack map within the limits.
    """
    try:
        value = msgpack.unpackb(body, raw=False, strict_map_key=True, max_bin_len=limit, max_str_len=4096,
                                max_array_len=4096, max_map_len=64, max_ext_len=0)
    except (ValueError, TypeError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError) as exc:
        raise ServiceError(f"a malformed frame: {exc}") from None
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        raise ServiceError("a frame is a map with a 'type'")
    return value


async def read_frame(reader: asyncio.StreamReader, limit: int, timeout: float) -> dict[str, Any] | None:
    """The next frame's map, ``None`` at a clean end of the stream.

    Raises:
        ServiceError: A frame over *limit* bytes, a torn or malformed one, or none within *timeout*.
    """
    try:
        head = await asyncio.wait_for(reader.readexactly(4), timeout)
        (length,) = _LENGTH.unpack(head)
        if not 0 < length <= limit:
            raise ServiceError(f"a frame of {length} bytes (at most {limit})")
        body = await asyncio.wait_for(reader.readexactly(length), timeout)
    except asyncio.IncompleteReadError as exc:
        if not exc.partial:
            return None
        raise ServiceError("the connection ended inside a frame") from None
    except TimeoutError:
        raise ServiceError(f"no frame within {timeout:g} s") from None
    except OSError as exc:
        raise ServiceError(f"the connection broke: {exc}") from None
    return unpack(body, limit)


class _Bucket:
    """One address's reply budget: requests and bytes, each refilled evenly over :data:`WINDOW` s."""

    __slots__ = ("bytes", "replies", "when")

    def __init__(self, now: float, replies: float, size: float) -> None:
        self.replies, self.bytes, self.when = replies, size, now

    def spend(self, now: float, replies: int, size: int, most: tuple[float, float]) -> bool:
        """Refills for the time since the last spend (up to *most*: requests, bytes), then takes
        *replies* requests and *size* bytes; ``False`` (nothing taken) when not that much is left."""
        elapsed = max(0.0, now - self.when)
        self.when = now
        self.replies = min(most[0], self.replies + most[0] * elapsed / WINDOW)
        self.bytes = min(most[1], self.bytes + most[1] * elapsed / WINDOW)
        if self.replies < replies or self.bytes < size:
            return False
        self.replies -= replies
        self.bytes -= size
        return True


class EventService:
    """This laptop's server (see the module docstring).

    Args:
        answer: ``answer(request map, the asker's IP address)`` → reply map (``None``: no reply, the
            connection is closed). Called on the event loop; must not block.
        host: The address to listen on (``0.0.0.0``: every interface).
        port: The port (0: any free one; :attr:`port` says which).
        known: ``known(address)``: whether an event laptop is known at that IP address (its budgets
            are a laptop's; any other address's a stranger's). Called on the event loop.
        clock: Seconds (monotonic) for the reply budgets.

    Attributes:
        refused: Connections closed for a budget, frames refused (what a flood costs, for the tests).
    """

    def __init__(self, answer: Callable[[dict[str, Any], str | None], dict[str, Any] | None], *, host: str = "0.0.0.0",
                 port: int = 0, known: Callable[[str], bool] = lambda _address: False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.answer = answer
        self.host = host
        self.port = port
        self.known = known
        self.clock = clock
        self._server: asyncio.Server | None = None
        self._open: dict[asyncio.StreamWriter, str | None] = {}
        self._buckets: dict[str | None, _Bucket] = {}
        self.refused = 0

    async def __aenter__(self) -> EventService:
        self._server = await asyncio.start_server(self._serve, self.host, self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Stops listening and closes every connection."""
        if self._server is not None:
            self._server.close()
            for writer in list(self._open):
                writer.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2.0)
            self._server = None

    def _admits(self, address: str | None) -> bool:
        """Whether a new connection from *address* is within the connection budgets."""
        if len(self._open) >= MAX_CONNECTIONS:
            return False
        same = sum(1 for a in self._open.values() if a == address)
        if address is not None and self.known(address):
            return same < MAX_PER_LAPTOP
        strangers = sum(1 for a in self._open.values() if a is None or not self.known(a))
        return strangers < MAX_STRANGERS and same < MAX_PER_STRANGER

    def _spend(self, address: str | None, replies: int, size: int) -> bool:
        """Takes *replies* requests and *size* reply bytes from *address*'s budget (:class:`_Bucket`):
        a request is taken before it is answered (a signature costs), its reply's bytes after."""
        laptop = address is not None and self.known(address)
        most = (LAPTOP_REPLIES, LAPTOP_REPLY_BYTES) if laptop else (STRANGER_REPLIES, STRANGER_REPLY_BYTES)
        now = self.clock()
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= 4096:  # forget those whose budgets are whole again
                self._buckets = {a: b for a, b in self._buckets.items() if now - b.when < WINDOW}
            bucket = self._buckets[address] = _Bucket(now, *most)
        return bucket.spend(now, replies, size, most)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else None
        if not self._admits(address):
            self.refused += 1
            writer.close()
            return
        self._open[writer] = address
        try:
            for _ in range(MAX_REQUESTS):
                try:
                    request = await read_frame(reader, REQUEST_BYTES, READ_TIMEOUT)
                except ServiceError as exc:
                    self.refused += 1
                    log.info("event service: %s", exc)
                    return
                if request is None:
                    return
                if not self._spend(address, 1, 0):
                    self.refused += 1
                    log.info("event service: %s asked past its budget of requests", address)
                    return
                try:
                    reply = self.answer(request, address)
                except Exception:  # a bug here must not leave the asker without a word
                    log.exception("event service: the answer to %r failed", request.get("type"))
                    reply = {"type": "error", "text": "this laptop could not answer (its log says why)"}
                if reply is None:
                    return
                frame = pack(reply)
                if not self._spend(address, 0, len(frame)):
                    self.refused += 1
                    log.info("event service: %s asked past its reply budget", address)
                    return
                writer.write(frame)
                await asyncio.wait_for(writer.drain(), READ_TIMEOUT)
        except (OSError, TimeoutError):
            pass
        finally:
            self._open.pop(writer, None)
            writer.close()


async def ask(address: tuple[str, int], request: dict[str, Any], *, timeout: float = READ_TIMEOUT,
              limit: int = REPLY_BYTES) -> dict[str, Any]:
    """Sends *request* to the service at *address* and returns its reply (one connection each).

    Raises:
        Refused: An ``error`` reply (its text, at most 200 characters).
        ServiceError: No connection, no reply within *timeout*, a malformed or oversized reply.
    """
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(*address), timeout)
    except (OSError, TimeoutError) as exc:
        raise ServiceError(f"cannot reach {address[0]}:{address[1]}: {exc or 'timed out'}") from None
    try:
        writer.write(pack(request))
        await asyncio.wait_for(writer.drain(), timeout)
        reply = await read_frame(reader, limit, timeout)
    except (OSError, TimeoutError) as exc:
        raise ServiceError(f"{address[0]}:{address[1]}: {exc or 'timed out'}") from None
    finally:
        writer.close()
    if reply is None:
        raise ServiceError(f"{address[0]}:{address[1]} closed the connection without a reply")
    if reply["type"] == "error":
        raise Refused(str(reply.get("text", "refused"))[:200])
    return reply


# ---------------------------------------------------------------------- status (§6.2)


@dataclass(frozen=True, slots=True)
class Status:
    """What a laptop's signed status says.

    Attributes:
        event: The event id it runs. key: Its identity key (proven by the signature). round: The
            round it is at (0: before the charter; the event's rounds + 1: finished).
        tables: ``(round, table, game id, port)`` of each table it has open (where to join it).
        held: ``(round, table)`` of each table whose counted log it holds.
        peers: ``(key, host, port)`` of the event's laptops it knows (hints).
    """

    event: str
    key: bytes
    round: int
    tables: tuple[tuple[int, int, str, int], ...]
    held: tuple[tuple[int, int], ...]
    peers: tuple[tuple[bytes, str, int], ...]


def _status_body(status: Status) -> list[Any]:
    return [status.event, status.key, status.round, [list(t) for t in status.tables],
            [list(h) for h in status.held], [list(p) for p in status.peers]]


def sign_status(key: SeatKey, status: Status, nonce: bytes) -> dict[str, Any]:
    """The ``status`` reply to a request of *nonce*: the fields, then the key's signature over
    :data:`STATUS_DOMAIN`, the nonce and the msgpack of the fields (protocol/tournament.md §6.2)."""
    body = _status_body(status)
    sig = key.sign(STATUS_DOMAIN + nonce + msgpack.packb(body, use_bin_type=True))
    return {"type": "status", "body": body, "sig": sig}


def read_status(reply: dict[str, Any], nonce: bytes) -> Status:
    """Reads and checks a ``status`` reply to a request of *nonce*.

    Raises:
        ServiceError: Not a status, a field out of shape, or a signature that does not verify
            under the key it names for this nonce.
    """
    body, sig = reply.get("body"), reply.get("sig")
    try:
        if reply["type"] != "status" or not isinstance(body, list) or len(body) != 6:
            raise TypeError("not a status")
        event, key, rnd, tables, held, peers = body
        status = Status(
            str(event), bytes(key), int(rnd),
            tuple((int(r), int(t), str(g), int(p)) for r, t, g, p in tables),
            tuple((int(r), int(t)) for r, t in held),
            tuple((bytes(k), str(h), int(p)) for k, h, p in peers),
        )
        if len(status.key) != 32 or not isinstance(sig, bytes) or len(sig) != 64:
            raise TypeError("a key of 32 bytes and a signature of 64")
    except (TypeError, ValueError) as exc:
        raise ServiceError(f"a malformed status: {exc}") from None
    if not verify(status.key, STATUS_DOMAIN + nonce + msgpack.packb(body, use_bin_type=True), sig):
        raise ServiceError("a status whose signature does not verify")
    return status


def enrol_bytes(event: str, name: str, bot: str | None) -> bytes:
    """What an enrolment's key signs (§6.1): the domain, the event id, 0, the name, 0, the bot's
    level (empty for a person)."""
    return ENROL_DOMAIN + f"{event}\0{name}\0{bot or ''}".encode()
