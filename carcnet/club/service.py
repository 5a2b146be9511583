"""The event service: what one laptop of a tournament answers the others (protocol/tournament.md §6).

Every laptop of an event listens on one TCP port and speaks the table's wire underneath: the frames
of :mod:`carcnet.net.framing` (a 4-byte big-endian length, then one strict msgpack map) and the
proven-key handshake of protocol/wire.md §3.4 (:class:`carcnet.club.wire.EventLink`: ``hello``,
``welcome`` and ``proof`` each way), after which the asker's identity key is proven and it may make
requests, one reply each: ``status?`` (who this laptop is, signed over the asker's nonce; the round
it is at; the tables it has open; the event's laptops it knows), ``charter?`` (the signed charter,
once there is one), ``log?`` (the log it counted for a table) and ``enrol`` (a player asking the
opener to be entered, signed by the player's key, which must be the key the asker proved). Nothing
a reply says is believed unless it proves itself: a status by its signature, a charter by the
opener's, a log by its seats' (:mod:`carcnet.club.results`). Addresses are hints.

Budgets (a stranger can make a laptop spend no more), by the asker's address and role. A *laptop* is
a connection whose proven key is one of the event's laptops' (``laptop(key)``); any other proven key
is a *stranger*'s. Before its proof a connection is judged by its address: one at which an event
laptop's key proved itself, or answered this laptop's status (``known(address)``), takes a laptop's
place for its handshake; any other a stranger's, and a connection that proves a stranger's key from
a laptop's address must then fit a stranger's places or is closed. Checked when a connection is
accepted, before a byte of it is read (:func:`carcnet.net.transport.serve`'s ``admit``):
:data:`MAX_CONNECTIONS` at once in all, of which strangers hold at most :data:`MAX_STRANGERS` (the
rest kept for the laptops) and one address at most :data:`MAX_PER_STRANGER` (a laptop's:
:data:`MAX_PER_LAPTOP`), so that one address holding its connections never starves another's
requests; when the strangers' places (or all) are taken, the address holding the most strangers'
connections gives up its oldest for a newcomer, as at a table; at most :data:`MAX_NEW_PER_SECOND`
new connections a second from a stranger's address (:data:`LAPTOP_NEW_PER_SECOND` a laptop's), and 1
a second from a stranger's address discouraged for breaking a budget (:class:`carcnet.net.connections.Discouraged`, as the table's; a laptop's address is
not slowed so, lest a stranger on the laptop's machine slow the laptop). Then :data:`READ_TIMEOUT`
seconds for the handshake and for each request, :data:`MAX_REQUESTS` requests a connection,
:data:`REQUEST_BYTES` a request, :data:`REPLY_BYTES` a reply; and each address's replies at most
:data:`STRANGER_REPLIES` requests and :data:`STRANGER_REPLY_BYTES` bytes (a laptop's:
:data:`LAPTOP_REPLIES`, :data:`LAPTOP_REPLY_BYTES`) over any :data:`WINDOW` seconds (a bucket refilled
evenly). A connection that breaks any of them is closed; one that breaks a budget of what it sends
(a bad frame or proof, requests past its budget) discourages its address; nothing else changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgpack

from carcnet.log.signatures import verify
from carcnet.net.connections import Discouraged, Pace
from carcnet.net.framing import ProtocolError, encode_frame
from carcnet.net.signing import SeatKey
from carcnet.net.transport import READ_SIZE, Listener, connect, serve

from .wire import EventLink

__all__ = [
    "LAPTOP_NEW_PER_SECOND",
    "LAPTOP_REPLIES",
    "LAPTOP_REPLY_BYTES",
    "MAX_CONNECTIONS",
    "MAX_NEW_PER_SECOND",
    "MAX_PER_LAPTOP",
    "MAX_PER_STRANGER",
    "MAX_REQUESTS",
    "MAX_STRANGERS",
    "STRANGERS_NEW_PER_SECOND",
    "READ_TIMEOUT",
    "REPLY_BYTES",
    "REQUEST_BYTES",
    "STRANGER_REPLIES",
    "STRANGER_REPLY_BYTES",
    "WINDOW",
    "Asker",
    "EventService",
    "Refused",
    "ServiceError",
    "Status",
    "ask",
    "read_status",
    "sign_status",
]

log = logging.getLogger("carcnet.club")

#: Connections one laptop's service holds at once; more are closed at once.
MAX_CONNECTIONS = 32
#: Connections strangers (keys of no event laptop, and connections in their handshake from an
#: address of no known laptop) hold at once, all of them together.
MAX_STRANGERS = 20
#: Connections one stranger's address holds at once.
MAX_PER_STRANGER = 4
#: Connections one known laptop's address holds at once (its polls, its log fetches, its enrolments).
MAX_PER_LAPTOP = 8
#: New connections taken from a stranger's address within one second (the table's budget,
#: protocol/wire.md §2.1): each costs a handshake (a signature and a verification).
MAX_NEW_PER_SECOND = 16
#: New connections taken from strangers' addresses, all together, within one second before each
#: stranger's address is held to 1 a second (as a discouraged one's): a flood from many addresses
#: costs a handshake an address a second at most, and a newcomer still gets one.
STRANGERS_NEW_PER_SECOND = 64
#: New connections taken from a known laptop's address within one second: laptops on one machine
#: (one address) poll each other every 2 s, one connection a request.
LAPTOP_NEW_PER_SECOND = 64
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
#: Largest request frame body (bytes): an enrolment with a 32-character name is under 300, a
#: handshake message under 150.
REQUEST_BYTES = 4096
#: Largest reply frame body (bytes): a log (a six-seat game with every draw is under 200 KiB), carried
#: as one bin (the only frames of net/'s framing whose bins are longer than 64 bytes).
REPLY_BYTES = 1 << 20
#: Seconds a connection may take to finish its handshake, then to send each request; and an asker
#: waits for a reply.
READ_TIMEOUT = 5.0
#: Addresses at which an event laptop's key proved itself, remembered (the newest kept).
MAX_LAPTOP_ADDRESSES = 64
#: The status signature's domain (protocol/tournament.md §6.2).
STATUS_DOMAIN = b"carcnet/event-status/v1\0"
#: The enrolment signature's domain (§6.1).
ENROL_DOMAIN = b"carcnet/enrol/v1\0"


class ServiceError(Exception):
    """A request that got no usable reply (no connection, a timeout, a malformed or oversized frame,
    a handshake that failed, a refusal, a signature that does not verify): the message says which."""


class Refused(ServiceError):
    """The other laptop answered with a refusal (an ``error`` reply): the message is its text."""


@dataclass(frozen=True, slots=True)
class Asker:
    """Who made a request: its IP address (a hint), the identity key it proved on the connection,
    and whether that key is one of the event's laptops'."""

    address: str | None
    key: bytes
    laptop: bool


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


@dataclass(slots=True)
class _Held:
    """A connection the service holds: its address, and its place (``"laptop"``: a laptop's, proven
    or in its handshake from a laptop's address; ``"stranger"``: any other)."""

    address: str | None
    place: str


class EventService:
    """This laptop's server (see the module docstring).

    Lifecycle: ``async with`` listens (:attr:`port` then says where) and closes every connection at
    the end; each connection is served by a task of the service's own group.

    Args:
        answer: ``answer(request map, Asker)`` → reply map (``None``: no reply, the connection is
            closed). Called on the event loop; must not block.
        identity: This laptop's identity key: what it proves in every handshake.
        event: ``event()``: the event id this laptop runs (``""`` before it knows it): a hello for
            another event is refused.
        host: The address to listen on (``0.0.0.0``: every interface).
        port: The port (0: any free one).
        laptop: ``laptop(key)``: whether a proven identity key is one of the event's laptops'.
        known: ``known(address)``: whether an event laptop answered this laptop's status at that IP
            address (a connection from it takes a laptop's place for its handshake).
        clock: Seconds (monotonic) for the budgets.

    Attributes:
        refused: Connections closed for a budget, frames or handshakes refused (for the tests).
        evicted: Strangers' connections closed to make room for a newcomer.
    """

    def __init__(self, answer: Callable[[dict[str, Any], Asker], dict[str, Any] | None], *, identity: SeatKey,
                 event: Callable[[], str] = lambda: "", host: str = "0.0.0.0", port: int = 0,
                 laptop: Callable[[bytes], bool] = lambda _key: False,
                 known: Callable[[str], bool] = lambda _address: False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.answer = answer
        self.identity = identity
        self.event = event
        self.host = host
        self.port = port
        self.laptop = laptop
        self.known = known
        self.clock = clock
        self._server: Listener | None = None
        self._tasks: asyncio.TaskGroup | None = None
        self._open: dict[asyncio.StreamWriter, _Held] = {}
        self._buckets: dict[tuple[str | None, str], _Bucket] = {}
        self._pace = Pace(4 * MAX_CONNECTIONS)
        self._strangers_new: deque[float] = deque()  # when strangers' connections were taken, the last second
        self._laptop_addresses: dict[str, None] = {}  # where event laptops' keys proved themselves
        self.discouraged = Discouraged(clock)
        self.refused = 0
        self.evicted = 0

    async def __aenter__(self) -> EventService:
        self._tasks = asyncio.TaskGroup()
        await self._tasks.__aenter__()
        self._server = await serve(self.host, self.port, self._serve, self._tasks, admit=self._admit,
                                   screen=self._screen)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Stops listening and closes every connection."""
        if self._server is not None:
            self._server.close()
            for writer in list(self._open):
                writer.transport.abort()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2.0)
            self._server = None
        if self._tasks is not None:
            tasks, self._tasks = self._tasks, None
            with contextlib.suppress(Exception):
                await tasks.__aexit__(None, None, None)

    # ------------------------------------------------------------------ budgets

    def _laptop_address(self, address: str | None) -> bool:
        return address is not None and (address in self._laptop_addresses or self.known(address))

    def _fits(self, address: str | None, place: str, *, besides: asyncio.StreamWriter | None = None) -> bool:
        """Whether one more connection of *place* from *address* fits the places held (but *besides*)."""
        held = [h for w, h in self._open.items() if w is not besides]
        if len(held) >= MAX_CONNECTIONS:
            return False
        same = sum(1 for h in held if h.address == address)
        if place == "laptop":
            return same < MAX_PER_LAPTOP
        strangers = [h for h in held if h.place == "stranger"]
        return len(strangers) < MAX_STRANGERS and sum(1 for h in strangers if h.address == address) < MAX_PER_STRANGER

    def _make_room(self, address: str | None, place: str) -> bool:
        """Whether a new connection of *place* from *address* can be taken, making room if it must (as
        a table's peer does, protocol/wire.md §2.1): when the places of strangers, or all places, are
        taken, the address holding the most strangers' connections gives up its oldest, so that
        strangers from many addresses never keep out the next asker; never a laptop's connection, and
        never for an address at its own cap."""
        if self._fits(address, place):
            return True
        held = list(self._open.values())
        same = sum(1 for h in held if h.address == address and (place == "laptop" or h.place == "stranger"))
        if same >= (MAX_PER_LAPTOP if place == "laptop" else MAX_PER_STRANGER):
            return False
        strangers = [(w, h) for w, h in self._open.items() if h.place == "stranger"]
        if not strangers:
            return False
        counts: dict[str | None, int] = {}
        for _w, h in strangers:
            counts[h.address] = counts.get(h.address, 0) + 1
        crowded = max(counts, key=lambda a: counts[a])
        victim = next(w for w, h in strangers if h.address == crowded)  # its oldest (insertion order)
        del self._open[victim]
        victim.transport.abort()
        self.evicted += 1
        return self._fits(address, place)

    def _screen(self, address: str) -> bool:
        """Whether to take one more connection from IP *address* this second (its role's pace, 1 a
        second while it is discouraged), decided as it is accepted, before anything is made for it."""
        now = self.clock()
        laptop = self._laptop_address(address)
        recent = self._strangers_new
        while recent and recent[0] <= now - 1.0:
            recent.popleft()
        per_second = (LAPTOP_NEW_PER_SECOND if laptop else 1 if address in self.discouraged
                      or len(recent) >= STRANGERS_NEW_PER_SECOND else MAX_NEW_PER_SECOND)
        if self._server is None or not self._pace.take(address, per_second, now):
            self.refused += 1
            return False
        if not laptop:
            recent.append(now)
        return True

    def _admit(self, writer: asyncio.StreamWriter) -> bool:
        """Whether to take a connection that passed :meth:`_screen`, by the places held, decided before
        any byte of it is read."""
        peer = writer.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else None
        place = "laptop" if self._laptop_address(address) else "stranger"
        if self._server is None or not self._make_room(address, place):
            self.refused += 1
            return False
        self._open[writer] = _Held(address, place)
        return True

    def _spend(self, address: str | None, laptop: bool, replies: int, size: int) -> bool:
        """Takes *replies* requests and *size* reply bytes from *address*'s budget of its role
        (:class:`_Bucket`): a request is taken before it is answered (a signature costs), its reply's
        bytes after."""
        most = (LAPTOP_REPLIES, LAPTOP_REPLY_BYTES) if laptop else (STRANGER_REPLIES, STRANGER_REPLY_BYTES)
        now = self.clock()
        slot = (address, "laptop" if laptop else "stranger")
        bucket = self._buckets.get(slot)
        if bucket is None:
            if len(self._buckets) >= 4096:  # forget those whose budgets are whole again
                self._buckets = {a: b for a, b in self._buckets.items() if now - b.when < WINDOW}
            bucket = self._buckets[slot] = _Bucket(now, *most)
        return bucket.spend(now, replies, size, most)

    def _proven(self, writer: asyncio.StreamWriter, key: bytes) -> Asker | None:
        """The asker once *key* proved itself on the connection; ``None`` (refused) when a stranger's
        key, proven from a laptop's address, does not fit a stranger's places."""
        held = self._open[writer]
        laptop = self.laptop(key)
        if not laptop and held.place == "laptop" and not self._fits(held.address, "stranger", besides=writer):
            return None
        if laptop and held.address is not None:
            self._laptop_addresses.pop(held.address, None)
            self._laptop_addresses[held.address] = None
            if len(self._laptop_addresses) > MAX_LAPTOP_ADDRESSES:
                del self._laptop_addresses[next(iter(self._laptop_addresses))]
        held.place = "laptop" if laptop else "stranger"
        return Asker(held.address, key, laptop)

    def _refuse(self, address: str | None, why: str, *, discourage: bool) -> None:
        self.refused += 1
        log.info("event service: %s: %s", address, why)
        if discourage and address is not None:
            self.discouraged.mark(address)

    # ------------------------------------------------------------------ a connection

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held = self._open.get(writer)
        address = held.address if held is not None else None
        link = EventLink("acceptor", self.identity, event=self.event(), max_frame=REQUEST_BYTES)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + READ_TIMEOUT  # the handshake, then each request
        asker: Asker | None = None
        answered = 0
        try:
            while True:
                out = link.data_to_send()
                if out:
                    writer.write(out)
                    await asyncio.wait_for(writer.drain(), READ_TIMEOUT)
                request = link.next_message() if asker is not None else None
                if request is not None:
                    if writer not in self._open:  # given up for a newcomer: no more answers
                        return
                    if answered >= MAX_REQUESTS or not self._spend(address, asker.laptop, 1, 0):  # type: ignore[union-attr]
                        self._refuse(address, "requests past its budget", discourage=True)
                        return
                    answered += 1
                    reply = self._answer(request, asker)  # type: ignore[arg-type]
                    if reply is None:
                        return
                    try:
                        link.send(reply)
                    except ProtocolError as exc:
                        log.error("event service: the reply to %r is no frame: %s", request.get("type"), exc)
                        link.send({"type": "error", "text": "this laptop could not answer (its log says why)"})
                    frame = link.data_to_send()
                    if not self._spend(address, asker.laptop, 0, len(frame)):  # type: ignore[union-attr]
                        self._refuse(address, "replies past its budget", discourage=False)
                        return
                    writer.write(frame)
                    await asyncio.wait_for(writer.drain(), READ_TIMEOUT)
                    deadline = loop.time() + READ_TIMEOUT
                    continue
                try:
                    data = await asyncio.wait_for(reader.read(READ_SIZE), max(0.0, deadline - loop.time()))
                except TimeoutError:
                    self._refuse(address, "no handshake or request in time", discourage=False)
                    return
                if not data:
                    return
                try:
                    link.receive_data(data)
                except ProtocolError as exc:
                    # another event or version is an honest laptop's mistake; the rest a broken or forged one
                    self._refuse(address, f"{exc.code}: {exc}", discourage=exc.code not in ("wrong-game", "bad-version"))
                    with contextlib.suppress(ProtocolError):
                        writer.write(encode_frame({"type": "error", "text": str(exc)[:200]}))
                    return
                if asker is None and link.peer_key is not None:
                    if writer not in self._open:  # given up for a newcomer while its bytes were read
                        return
                    asker = self._proven(writer, link.peer_key)
                    if asker is None:
                        self._refuse(address, "a stranger's key from a laptop's address, past a stranger's places",
                                     discourage=False)
                        return
                    deadline = loop.time() + READ_TIMEOUT
        except (OSError, TimeoutError):
            pass
        except Exception:  # one broken connection must not end the service
            log.exception("event service: a connection from %s failed", address)
        finally:
            self._open.pop(writer, None)
            writer.close()

    def _answer(self, request: dict[str, Any], asker: Asker) -> dict[str, Any] | None:
        try:
            return self.answer(request, asker)
        except Exception:  # a bug here must not leave the asker without a word
            log.exception("event service: the answer to %r failed", request.get("type"))
            return {"type": "error", "text": "this laptop could not answer (its log says why)"}


async def ask(address: tuple[str, int], request: dict[str, Any], *, identity: SeatKey, event: str = "",
              timeout: float = READ_TIMEOUT, limit: int = REPLY_BYTES) -> dict[str, Any]:
    """Sends *request* to the service at *address* as *identity* (proven in the handshake, asking for
    *event*, ``""`` when not known) and returns its reply (one connection each).

    Raises:
        Refused: An ``error`` reply (its text, at most 200 characters).
        ServiceError: No connection, no reply within *timeout*, a malformed or oversized reply, a
            handshake that failed.
    """
    where = f"{address[0]}:{address[1]}"
    try:
        reader, writer = await connect(*address, timeout=timeout)
    except (OSError, TimeoutError) as exc:
        raise ServiceError(f"cannot reach {where}: {exc or 'timed out'}") from None
    link = EventLink("connector", identity, event=event, max_frame=limit, max_bin=limit)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    asked = False
    try:
        while True:
            if link.open and not asked:
                link.send(request)
                asked = True
            out = link.data_to_send()
            if out:
                writer.write(out)
                await asyncio.wait_for(writer.drain(), max(0.0, deadline - loop.time()))
            reply = link.next_message()
            if reply is not None:
                break
            data = await asyncio.wait_for(reader.read(READ_SIZE), max(0.0, deadline - loop.time()))
            if not data:
                raise ServiceError(f"{where} closed the connection without a reply")
            link.receive_data(data)
    except ProtocolError as exc:
        if exc.code == "refused":
            raise Refused(exc.message) from None
        raise ServiceError(f"{where}: {exc.code}: {exc.message}") from None
    except (OSError, TimeoutError) as exc:
        raise ServiceError(f"{where}: {exc or 'timed out'}") from None
    finally:
        writer.close()
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
