"""Provides :class:`SyncSession`: one peer's copy of a LAN game's log, kept in step with its peers,
without I/O (``protocol/wire.md`` §5.4–5.5).

A session holds the game's header (with the seat keys), the signed entries in seq order and the engine
:class:`~carcnet.engine.Game` they replay to. It speaks to its peers through :class:`Link` objects, one
per connection, each wrapping a :class:`~carcnet.net.protocol.PeerConnection`: the transport
(:mod:`carcnet.net.transport`) feeds a link the bytes it reads (:meth:`Link.receive_data`) and writes
what :meth:`Link.data_to_send` gives it, and tells the link when a timer fires (:meth:`Link.heartbeat`,
:meth:`Link.time_out`). Nothing here reads a socket, starts a task or looks at a clock it was not given,
so several sessions can be wired together in memory (see ``tests/net/test_sync.py``).

What a session does (wire.md §5.4–5.5):

- **Authoring**: :meth:`SyncSession.submit` plays a move for a seat whose key this peer holds: the
  engine applies it, the entry is signed, saved (:class:`Persistence`) and sent to every link.
- **Taking entries**: every entry received goes through :func:`~carcnet.net.protocol.admit_entry`
  (seq, signature, author, legality, digest) before it is appended and saved; then it is passed on to
  every other link whose peer lacks it. A refused entry is answered with its code (``error``), closing
  that connection where wire.md §6 says so; the game is unchanged.
- **Gaps and late joiners**: on every handshake the side that holds more sends the missing entries at
  once; ``entries`` beyond the next seq are answered ``bad-seq`` and the sender sends again from there;
  ``want`` is answered from the log; heartbeats carry ``have``/``digest`` for comparison.
- **Desync**: a signed entry whose digest differs from this engine's, or a second, different entry
  signed by the same seat for a seq already held, stops the game here with a :class:`Desync` report
  naming the entry and the peers. Unsigned claims (a heartbeat's or handshake's digest) only close the
  connection they came on, so that no peer (a spectator above all) can stop a game by talking.

Roles: a ``"player"`` session authors, relays and serves; a ``"spectator"`` session only receives (its
connections refuse to send ``entries``, wire.md §3.3) and is never an author.
"""

from __future__ import annotations

import itertools
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

from carcnet.engine import DrawTile, Game, HandBack, HandOver, IllegalMoveError, Move, Phase
from carcnet.engine.draws import check_reveal
from carcnet.log import LogEntry
from carcnet.log.values import name_problem

from .admission import admit_entry, check_header, compare_have
from .framing import MAX_FRAME, SMALL_FRAME, ProtocolError
from .messages import (
    CHAT_ID_SIZE,
    MAX_CHAT,
    MAX_ENTRIES,
    MAX_PEERS,
    Bye,
    Chat,
    Claim,
    Commit,
    Entries,
    Error,
    Heartbeat,
    Hello,
    Lobby,
    Message,
    PeerInfo,
    Reject,
    Reveal,
    Role,
    SignedEntry,
    Start,
    Want,
    Welcome,
    WireHeader,
)
from .protocol import Closed, ConnectionEvent, PeerConnection, Proven, Refused, State
from .signing import SeatKey, seat_chain, sign_chat, sign_entry, verify_chat, verify_entry

if TYPE_CHECKING:
    from .lobby import LobbyRole

__all__ = [
    "CHAT_AGE",
    "CHAT_RATE",
    "CHAT_WINDOW",
    "MAX_CHATS",
    "Change",
    "ChatLine",
    "Desync",
    "Link",
    "MemoryLog",
    "NetEvent",
    "Persistence",
    "SyncError",
    "SyncSession",
]

log = logging.getLogger("carcnet.net")

#: ``want``s a connection may send in a row with nothing new to answer them with (wire.md §4.4) before
#: it is closed ``forbidden``: a peer answers one ``want`` per ``have``, so that a stranger pipelining
#: ``want`` cannot make it send the whole log again and again (issue 13 item 1).
MAX_IGNORED_WANTS = 32
#: Events a session keeps (its connection log, ``SyncSession.events``): the newest ones.
MAX_EVENTS = 1000
#: Addresses a session's book holds at most (wire.md §4.2): as many as a welcome lists.
MAX_BOOK = MAX_PEERS

#: What a listener is told changed (see :meth:`SyncSession.add_listener`).
Change = Literal["header", "entry", "open", "close", "peer", "stop", "lobby", "chat"]
_link_ids = itertools.count(1)

#: wire.md §4.9 budgets: chat lines kept (for the interface), lines remembered to pass each on once,
#: lines taken per seat in :data:`CHAT_WINDOW` seconds (more are dropped, not passed on), and how far
#: off this peer's clock a line's time may be (an older one is a replay: dropped).
MAX_CHATS = 200
CHAT_SEEN = 512
CHAT_RATE = 5
CHAT_WINDOW = 10.0
CHAT_AGE = 600.0


@dataclass(frozen=True, slots=True)
class ChatLine:
    """A line of table talk, checked (wire.md §4.9).

    Attributes:
        seat: The seat that spoke (its name is the header's).
        text: What it said.
        time: When it was written, by the writer's clock (seconds since 1970-01-01 UTC).
        mine: Whether this peer wrote it.
    """

    seat: int
    text: str
    time: float
    mine: bool = False


class SyncError(Exception):
    """This program asked the session for something it cannot do now (a bug or a stale UI, never the
    peer's fault): a move for a seat this peer does not hold, a move once the game stopped, …"""


def _draw_race(held: SignedEntry, other: SignedEntry) -> str | None:
    """wire.md §5.7: for two different entries of one seq, a draw and a handover, which wins:
    ``"theirs"`` (this peer holds the draw, *other* is the handover), ``"ours"`` (the reverse), or
    ``None`` when they are not a draw and a handover."""
    mine, theirs = type(held.entry.move), type(other.entry.move)
    if mine is DrawTile and theirs is HandOver:
        return "theirs"
    if mine is HandOver and theirs is DrawTile:
        return "ours"
    return None


class Persistence(Protocol):
    """Where a session saves its log as it grows (``log.md`` §9: on disk before it counts).

    The app plugs the log recorder in; tests use :class:`MemoryLog`.
    """

    def on_append(self, signed: SignedEntry) -> None:
        """Saves *signed*, the next entry of the log, where a crash of this program cannot lose it
        (written to the operating system); :meth:`sync` makes it durable. Called before the entry is
        passed on to peers. An exception propagates to the caller of :meth:`SyncSession.submit` or,
        for a received entry, ends that connection with ``internal``."""
        ...

    def on_take_back(self, seq: int) -> None:
        """Removes the last entry saved, *seq*: a table draw that a signed ``handover`` for the same
        seq beat (wire.md §5.7 "A draw racing a handover"), the one entry a peer ever takes back."""
        ...

    def sync(self) -> None:
        """Makes every entry saved so far durable (fsync: a power loss cannot lose it). The session
        calls it before it sends an entry this peer signed (``log.md`` §9); the peer calls it in a
        worker thread after received entries, so it must be safe beside :meth:`on_append`."""
        ...


class MemoryLog:
    """:class:`Persistence` in memory: the saved entries, in order."""

    def __init__(self, entries: Iterable[SignedEntry] = ()) -> None:
        self.entries: list[SignedEntry] = list(entries)

    def on_append(self, signed: SignedEntry) -> None:
        self.entries.append(signed)

    def on_take_back(self, seq: int) -> None:
        assert self.entries and self.entries[-1].seq == seq
        self.entries.pop()

    def sync(self) -> None:
        """Nothing to do: memory is all there is."""


@dataclass(frozen=True, slots=True)
class Desync:
    """Why the game stopped at this peer: proof that two peers' logs parted.

    Attributes:
        code: ``"desync"`` (a signed entry whose digest differs from this engine's) or ``"conflict"``
            (a second, different entry signed by the same seat for a seq this peer holds).
        seq: The entry's seq.
        seat: The seat that signed it.
        peer: Name of the peer it came from (the relay; the author is *seat*).
        peer_key: That peer's identity key.
        local: This peer's name.
        message: Words for people.
        ours: The entry this peer holds for *seq* (``None`` for ``"desync"``: it holds none).
        theirs: The entry received.
    """

    code: str
    seq: int
    seat: int
    peer: str
    peer_key: bytes
    local: str
    message: str
    ours: SignedEntry | None
    theirs: SignedEntry

    def __str__(self) -> str:
        return (
            f"{self.code} at seq {self.seq} (seat {self.seat}): entry from {self.peer} "
            f"({self.peer_key.hex()[:12]}…) refused by {self.local}: {self.message}"
        )


@dataclass(frozen=True, slots=True)
class NetEvent:
    """One line of a peer's own log of events (not the game's move log, wire.md §4.8).

    Attributes:
        time: The session's clock when it happened.
        kind: ``"sent"`` (an ``error``/``reject``/``bye`` we sent), ``"received"`` (one the peer sent),
            ``"info"`` (a connection opened or closed, a stop).
        code: The error or reject code, the bye reason, or what happened (``"open"``, ``"closed"``).
        message: The text.
        seq: The seq concerned, or ``None``.
        peer: The peer's name (``None`` before its hello or welcome).
        peer_key: The peer's identity key (``None`` before its hello or welcome).
    """

    time: float
    kind: str
    code: str
    message: str
    seq: int | None
    peer: str | None
    peer_key: bytes | None


class _SeenFrames:
    """Recent ``entries`` frames whose entries the session holds (sent, or received and taken), each
    with the last seq it carries; the oldest are forgotten beyond *size*.

    Frames are canonical (wire.md §2.2), so the same entries relayed by another peer are the same
    bytes: :meth:`Link.receive_data` skips such a repeat instead of decoding it, which is what
    decoding it would come to (identical entries are ignored, wire.md §5.5 "Overlaps").
    """

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._frames: dict[bytes, int] = {}

    def get(self, frame: bytes) -> int | None:
        return self._frames.get(frame)

    def add(self, frame: bytes, upto: int) -> None:
        frames = self._frames
        frames[frame] = upto
        if len(frames) > self.size:
            del frames[next(iter(frames))]


class Link:
    """One connection as a session sees it: the :class:`PeerConnection`, what the peer holds, and the
    bytes waiting to be written. Made by :meth:`SyncSession.connect_link` or
    :meth:`SyncSession.accept_link`; driven by a transport through :meth:`receive_data`,
    :meth:`data_to_send`, :meth:`heartbeat` and :meth:`time_out`.

    Attributes:
        id: A number for logs, unique in the process.
        conn: The connection's state machine.
        address: ``(host, port)`` this side dialed (connector), else ``None``.
        peer_have: The last seq the peer holds, as far as this side knows (handshake, heartbeats,
            entries either way, ``bad-seq`` and ``want``).
        peer_has_header: Whether the peer holds the header (it may receive entries).
        closed_by: The :class:`Closed` event or the code that ended the link (``None`` while alive).
    """

    def __init__(self, session: SyncSession, conn: PeerConnection, address: tuple[str, int] | None) -> None:
        self.id = next(_link_ids)
        self.session = session
        self.conn = conn
        self.address = address
        #: The peer's IP address as text, as this side sees it (the transport sets it from the
        #: socket; ``None`` when unknown). With a ``hello``'s ``port`` it says where the peer listens.
        self.remote: str | None = None
        self.peer_have = 0
        self.peer_has_header = False
        self.closed_by: str | None = None
        self.opened = False
        #: Whether our welcome carried the header (an acceptor's link, until the peer is proven).
        self.welcomed_with_header = False
        #: Heartbeats received on this link, and when the last one came (the session's clock).
        self.heartbeats = 0
        self.last_heartbeat: float | None = None
        #: What the peer's last heartbeat said (wire.md §4.5): the players it is connected to, and the
        #: seats it plays. Empty until its first heartbeat.
        self.sees: tuple[bytes, ...] = ()
        self.seats: tuple[int, ...] = ()
        #: The ``have`` at which this peer last answered a ``want`` on this link (wire.md §4.4: at most
        #: one answer per ``have``), and the ``want``s ignored since.
        self.want_answered_at: int | None = None
        self.wants_ignored = 0
        self._pending = bytearray()
        self._passthrough = False
        self._held_upto: int | None = None
        self._out = bytearray()
        self._wake: Callable[[], None] | None = None

    # ------------------------------------------------------------------ for the transport

    @property
    def state(self) -> State:
        """The connection's state (wire.md §7)."""
        return self.conn.state

    def receive_data(self, data: bytes) -> None:
        """Takes bytes read from the socket (``b""``: the stream ended) and acts on every message.

        Whole frames are handed on one by one, except a byte-for-byte repeat of a recent ``entries``
        frame whose entries this peer holds, from a player (see :class:`_SeenFrames`): in a mesh every
        entry arrives once from its author and again from each relay, and the repeats need not be
        decoded to be ignored.
        """
        session = self.session
        if self._passthrough or not data:
            if self._pending:
                pending = bytes(self._pending)
                self._pending.clear()
                session.receive(self, pending)
            session.receive(self, data)
            return
        buffer = self._pending
        buffer += data
        start = 0
        while len(buffer) - start >= 4:
            length = int.from_bytes(buffer[start : start + 4], "big")
            if length == 0 or length > self.conn.max_frame:
                self._passthrough = True  # the connection refuses it; nothing after it is read
                break
            end = start + 4 + length
            if end > len(buffer):
                break
            frame = bytes(buffer[start:end])
            start = end
            upto = (
                session.seen.get(frame)
                if self.conn.state is State.OPEN and self.role != "spectator"
                else None
            )
            if upto is not None:
                self.peer_have = max(self.peer_have, upto)
                continue
            self._held_upto = None
            session.receive(self, frame)
            if self._held_upto is not None:
                session.seen.add(frame, self._held_upto)
            if self.conn.state is State.CLOSED:
                buffer.clear()
                return
        rest = bytes(buffer[start:])
        buffer.clear()
        if self._passthrough:
            session.receive(self, rest)
        else:
            buffer += rest

    def data_to_send(self) -> bytes:
        """The bytes to write now, in order; empties the queue."""
        queued = self.conn.data_to_send()
        if queued:
            self._out += queued
        data = bytes(self._out)
        self._out.clear()
        return data

    @property
    def buffered(self) -> int:
        """Bytes received that do not make a whole frame yet (the transport's frame deadline)."""
        return len(self._pending) + self.conn.buffered

    def heartbeat(self) -> None:
        """Nothing was sent for a while (wire.md §2.1): queue a ``heartbeat``."""
        self.session.send_heartbeat(self)

    def time_out(self, what: str) -> None:
        """The handshake or a frame took too long, or nothing was received for too long: ``bye``
        ``timeout``."""
        self.session.time_out(self, what)

    def set_waker(self, wake: Callable[[], None] | None) -> None:
        """Installs the function the link calls whenever it queues bytes (the transport writes them)."""
        self._wake = wake

    # ------------------------------------------------------------------ for the session

    @property
    def peer(self) -> Hello | Welcome | None:
        """The peer's hello or welcome, once received."""
        return self.conn.peer

    @property
    def key(self) -> bytes | None:
        """The peer's identity key, once known."""
        return self.conn.peer.key if self.conn.peer is not None else None

    @property
    def name(self) -> str:
        """The peer's name, once known; else the link's number."""
        return self.conn.peer.name if self.conn.peer is not None else f"link {self.id}"

    @property
    def role(self) -> Role | None:
        """The role the peer declared."""
        return self.conn.their_role

    @property
    def is_open(self) -> bool:
        """Whether the handshake is done and the connection is alive."""
        return self.conn.state is State.OPEN

    @property
    def closed(self) -> bool:
        """Whether the connection is closed."""
        return self.conn.state is State.CLOSED

    @property
    def connector_key(self) -> bytes | None:
        """The identity key of the side that connected (for duplicate connections, wire.md §2.1)."""
        return self.session.identity.public if self.conn.initiator else self.key

    def send(self, message: Message) -> bool:
        """Queues *message*; ``False`` (and nothing queued) when the connection is closed already."""
        if self.conn.state is State.CLOSED:
            return False
        frame = self.conn.send(message)
        self._out += self.conn.data_to_send()  # what the connection queued itself (its proof) goes first
        self._out += frame
        self._notify()
        return True

    def queue(self, frame: bytes) -> None:
        """Queues an encoded frame the connection has already allowed (see ``SyncSession._send_from``)."""
        self._out += self.conn.data_to_send()
        self._out += frame
        self._notify()

    def _notify(self) -> None:
        if self._wake is not None:
            self._wake()

    def __repr__(self) -> str:
        return f"Link({self.id}, {self.name}, {self.conn.state.name}, peer_have={self.peer_have})"


class SyncSession:
    """One peer's copy of a LAN game: header, signed entries, the replayed engine game, and its links.

    Lifecycle: built with the game id and, if this peer has it, the header and the entries it saved;
    links are added as connections are made (:meth:`connect_link`) or accepted (:meth:`accept_link`);
    :meth:`submit` plays the held seats' moves; :meth:`close` says ``bye`` to every link. A session
    without a header (a spectator, a peer that lost its log) takes the first one a ``welcome`` brings.
    After a :class:`Desync` the session is *stopped*: it takes and authors no more entries, and still
    answers ``want``.

    Args:
        game: The game id.
        name: This peer's name (1 to 32 characters), sent in hello and welcome.
        role: ``"player"`` or ``"spectator"``.
        identity: This peer's identity key (wire.md §3.1); a fresh one by default.
        header: The game's header, or ``None`` until a peer sends it.
        seats: Seat index → the seat key this peer plays it with (players only).
        entries: Entries already saved (a peer coming back); each is checked again.
        persistence: Where new entries are saved; a :class:`MemoryLog` by default.
        clock: Seconds, for the event log and the lobby's timeouts (``time.monotonic`` by default).
        wall_clock: Seconds since 1970-01-01 UTC, for the informative ``time`` of heartbeats
            (``time.time`` by default).
        lobby: The lobby this peer takes part in before the game starts (:mod:`carcnet.net.lobby`):
            the host's table, a player's seating or a spectator's view; ``None`` for a session that
            gets its header from a ``welcome`` or was given one.

    Raises:
        ValueError: A seat key that is not the header's key for its seat, seats for a spectator, or
            saved entries that do not replay (the error's code and message in the text).
    """

    def __init__(
        self,
        *,
        game: str,
        name: str,
        role: Role = "player",
        identity: SeatKey | None = None,
        header: WireHeader | None = None,
        seats: Mapping[int, SeatKey] | None = None,
        entries: Sequence[SignedEntry] = (),
        persistence: Persistence | None = None,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
        lobby: LobbyRole | None = None,
    ) -> None:
        if role not in ("player", "spectator"):
            raise ValueError(f"a session plays or watches; role {role!r} is the lobby's")
        self.game_id = game
        self.name = name
        self.role: Role = role
        self.identity = identity if identity is not None else SeatKey.generate()
        self.persistence: Persistence = persistence if persistence is not None else MemoryLog()
        self.clock = clock
        self.wall_clock = wall_clock
        #: Whether :meth:`close` was called (no presence news is sent while leaving).
        self.closing = False
        self.header: WireHeader | None = None
        self.game: Game | None = None
        self.entries: list[SignedEntry] = []
        self.seats: dict[int, SeatKey] = {}
        self.links: list[Link] = []
        #: Identity key → where that player peer listens (learned by dialing it, from welcomes, or
        #: given with :meth:`add_known`); sent in this peer's welcomes.
        self.book: dict[bytes, PeerInfo] = {}
        #: The keys of :attr:`book` whose address is confirmed: that key proved itself there (§3.4).
        self.confirmed: set[bytes] = set()
        #: The TCP port this peer listens on, sent in its hellos (``None``: it does not listen). Set by
        #: the transport (:class:`~carcnet.net.peer.Peer`) once it listens.
        self.listen_port: int | None = None
        self.desync: Desync | None = None
        #: The last :data:`MAX_EVENTS` things that happened on the connections (oldest first): bounded,
        #: so that a stranger opening and spoiling connections forever costs no memory (wire.md §2.1).
        self.events: deque[NetEvent] = deque(maxlen=MAX_EVENTS)
        #: Recent ``entries`` frames whose entries are held (see :meth:`Link.receive_data`).
        self.seen = _SeenFrames()
        self._listeners: list[Callable[[Change, Link | None], None]] = []
        #: Table draws (wire.md §5.7): draw → seat → the chain value received (checked) or made here,
        #: for the current draw and the next only.
        self.reveals: dict[int, dict[int, bytes]] = {}
        #: Seat → its whole chain, for the seats whose keys this peer holds (made on first use).
        self._chains: dict[int, list[bytes] | None] = {}
        #: The draw the game waits for and since when (:attr:`clock`), or ``None``.
        self.waiting: tuple[int, float] | None = None
        #: Table talk (wire.md §4.9): the last :data:`MAX_CHATS` lines, oldest first; never in the log.
        self.chats: deque[ChatLine] = deque(maxlen=MAX_CHATS)
        #: How many lines were ever kept (:attr:`chats` holds the last :data:`MAX_CHATS`).
        self.chats_made = 0
        self._chat_seen: deque[tuple[int, bytes]] = deque(maxlen=CHAT_SEEN)
        self._chat_times: dict[int, deque[float]] = {}
        self.lobby = lobby
        if lobby is not None:
            lobby.attach(self)
        if header is not None:
            try:
                self._take_header(header)
            except ProtocolError as exc:
                raise ValueError(f"{exc.code}: {exc.message}") from None
        elif entries:
            raise ValueError("saved entries need their header")
        for signed in entries:
            assert self.game is not None and self.header is not None
            try:
                admit_entry(self.game, self.header, signed)
            except ProtocolError as exc:
                raise ValueError(f"saved entry {signed.seq}: {exc.code}: {exc.message}") from None
            self.entries.append(signed)
        for seat, key in (seats or {}).items():
            self.add_seat(seat, key)
        self._draw_step()  # a game resumed while it waited for a draw: this peer's values are ready

    # ------------------------------------------------------------------ state

    @property
    def have(self) -> int:
        """Seq of the last entry held (0: none)."""
        return len(self.entries)

    @property
    def digest(self) -> bytes | None:
        """The digest at :attr:`have`, or ``None`` without a header."""
        return self.game.digest if self.game is not None else None

    @property
    def stopped(self) -> bool:
        """Whether a :class:`Desync` stopped the game here."""
        return self.desync is not None

    @property
    def over(self) -> bool:
        """Whether the game is over (the engine says so)."""
        return self.game is not None and self.game.phase is Phase.GAME_OVER

    @property
    def to_play(self) -> int | None:
        """The seat whose move is next, ``None`` without a game, once it is over or stopped, and while
        the table draws (wire.md §5.7: nobody moves until the draw is made)."""
        if self.game is None or self.over or self.stopped or self.game.phase is Phase.DRAW:
            return None
        return self.game.seat

    def open_links(self) -> list[Link]:
        """The links whose handshake is done and that are alive."""
        return [link for link in self.links if link.is_open]

    def link_to(self, key: bytes) -> Link | None:
        """The open link to the peer with identity *key*, if any."""
        for link in self.links:
            if link.is_open and link.key == key:
                return link
        return None

    def add_listener(self, listener: Callable[[Change, Link | None], None]) -> None:
        """Calls *listener(change, link)* after every change: ``"header"`` taken, ``"entry"``
        appended (one call per batch), link ``"open"``/``"close"``, a new ``"peer"`` address learned,
        ``"stop"`` (a :class:`Desync`). Listeners must not raise."""
        self._listeners.append(listener)

    def add_seat(self, seat: int, key: SeatKey) -> None:
        """Plays *seat* from now on with *key* (its key in the header).

        Raises:
            ValueError: A spectator, no header yet, no such seat, or not the seat's key.
        """
        if self.role != "player":
            raise ValueError("a spectator plays no seat")
        if self.header is None:
            raise ValueError("seats are taken once the header is known")
        if not 0 <= seat < len(self.header.keys) or self.header.keys[seat] != key.public:
            raise ValueError(f"that is not the key of seat {seat} in this game's header")
        self.seats[seat] = key

    def plays(self, seat: int) -> bool:
        """Whether this peer makes *seat*'s moves: it holds the seat's key, or the key of the seat that
        took it over with a ``handover`` (``carcnet.engine.HandOver``)."""
        return self.game is not None and self.game.signer(seat) in self.seats

    def drop_seat(self, seat: int) -> None:
        """Stops playing *seat* here (another peer takes it over)."""
        self.seats.pop(seat, None)

    @property
    def _in_lobby(self) -> bool:
        return self.lobby is not None and self.header is None

    @property
    def wire_role(self) -> Role:
        """The role this peer declares in a new connection's handshake (wire.md §3.2): the lobby's
        while it lasts (``"host"`` for the table's holder), else :attr:`role`."""
        return self.lobby.wire_role if self.lobby is not None and self.header is None else self.role

    def begin(self, header: WireHeader, seats: Mapping[int, SeatKey], *, told: Iterable[Link] = ()) -> None:
        """Starts the game the lobby agreed on: takes *header* (checked as wire.md §5.4 says), plays
        *seats* with their keys, and tells every open connection, with a ``heartbeat``, that this peer
        holds the header now (so that they send it entries) and which seats it plays (§4.5). *told*
        are the connections that know the header already (those the ``start`` was sent to or came
        from).

        Raises:
            ProtocolError: The header is refused (its code: ``bad-header``, ``wrong-game``…);
                nothing changed.
            ValueError: A seat key that is not the header's.
        """
        for seat, key in seats.items():
            if not 0 <= seat < len(header.keys) or header.keys[seat] != key.public:
                raise ValueError(f"that is not the key of seat {seat} in this game's header")
        if self.header is not None:
            if header.fingerprint != self.header.fingerprint:
                raise ProtocolError("desync", "a second, different header for this game")
            return
        self._take_header(header)
        for seat, key in seats.items():
            self.add_seat(seat, key)
        for link in told:
            link.peer_has_header = True
        self._tell_presence()
        self._draw_step()

    def presence_changed(self) -> None:
        """Something about who is at the table changed without a message (a clock ran out): tells
        the listeners (``"peer"``)."""
        self._changed("peer", None)

    def lobby_changed(self) -> None:
        """The lobby says its table or state changed (for listeners: ``"lobby"``)."""
        self._changed("lobby", None)

    def add_known(self, info: PeerInfo, *, confirmed: bool = False) -> None:
        """Records where a player peer listens (wire.md §4.2 "The address book"): a *confirmed*
        address is one where that key proved itself to this peer (§3.4); anything else (mDNS, a
        welcome's ``peers``) is a hint. A hint never replaces a confirmed address, the book holds at
        most :data:`MAX_BOOK` entries (a hint finds no room; a confirmed address takes a hint's), and
        only confirmed addresses are passed on in this peer's welcomes."""
        key = info.key
        if key == self.identity.public:
            return
        if not confirmed and key in self.confirmed:
            return
        if key not in self.book and len(self.book) >= MAX_BOOK:
            hints = [k for k in self.book if k not in self.confirmed]
            if not confirmed or not hints:
                return
            del self.book[hints[0]]
        new = self.book.get(key) != info
        self.book[key] = info
        if confirmed:
            self.confirmed.add(key)
        if new:
            self._changed("peer", None)

    def forget(self, address: tuple[str, int]) -> None:
        """Drops the unconfirmed entries of the book at *address* (wire.md §4.2): it never answered, or
        another key answered there. They are neither dialled nor passed on any more."""
        for key, info in list(self.book.items()):
            if (info.addr, info.port) == address and key not in self.confirmed:
                del self.book[key]

    # ------------------------------------------------------------------ links

    def connect_link(self, address: tuple[str, int] | None = None) -> Link:
        """A link for a connection this side made to *address*; its ``hello`` is queued."""
        link = Link(self, PeerConnection(game=self.game_id, initiator=True, identity=self.identity), address)
        self.links.append(link)
        link.send(
            Hello(
                game=self.game_id,
                role=self.wire_role,
                name=self.name,
                key=self.identity.public,
                have=self.have,
                digest=self.digest,
                port=self.listen_port,
            )
        )
        return link

    def accept_link(self) -> Link:
        """A link for a connection a peer made to this side; it waits for the peer's ``hello``."""
        link = Link(self, PeerConnection(game=self.game_id, initiator=False, identity=self.identity), None)
        self.links.append(link)
        return link

    def receive(self, link: Link, data: bytes) -> None:
        """Bytes from *link*'s socket (``b""``: it ended). Every message is acted on in order;
        anything this code did not expect ends that connection with ``internal``, never the session."""
        events = link.conn.receive_data(data)
        for event in events:
            try:
                self._handle(link, event)
            except Exception as exc:  # a bug here must cost one connection, not the game
                log.exception("%s: handling %r from %s failed", self.name, type(event).__name__, link.name)
                self.refuse(link, "internal", f"{type(exc).__name__}: {exc}")
        if link.conn.state is State.CLOSED:
            self._lost(link, None)
        link._notify()

    def send_heartbeat(self, link: Link) -> None:
        """Queues a ``heartbeat`` on *link* (once its handshake is done): what this peer holds, the
        players it is connected to and the seats it plays (wire.md §4.5)."""
        if link.is_open:
            link.send(Heartbeat(have=self.have, digest=self.digest, time=int(self.wall_clock() * 1000),
                                sees=self._sees(), seats=self._seats_played()))

    def _sees(self) -> tuple[bytes, ...]:
        keys = {link.key for link in self.open_links() if link.role != "spectator" and link.key is not None}
        return tuple(sorted(keys))[:MAX_PEERS]

    def _seats_played(self) -> tuple[int, ...]:
        if self.game is None:
            return tuple(sorted(self.seats))
        return tuple(s for s in range(self.game.players) if self.plays(s))

    def _tell_presence(self) -> None:
        """This peer's connections changed: every open link hears it at once (wire.md §4.5), so that
        presence is the table's, not one connection's."""
        for link in self.open_links():
            self.send_heartbeat(link)

    def time_out(self, link: Link, what: str) -> None:
        """Ends *link* with ``bye`` ``timeout`` (*what* says which timer, for the event log)."""
        if not link.closed:
            self._record("sent", "timeout", f"{what}: bye timeout", None, link)
            link.send(Bye(reason="timeout"))
            self._lost(link, "timeout")

    def refuse(self, link: Link, code: str, message: str, seq: int | None = None) -> None:
        """Answers bad input from *link* with ``error`` *code* (closing where wire.md §6 says), logged."""
        if link.closed:
            return
        self._record("sent", code, message, seq, link)
        log.warning("%s refuses %s: %s (%s)", self.name, link.name, code, message)
        link.send(Error(code=code, message=message[:256], seq=seq))
        if link.closed:
            self._lost(link, code)

    def close_link(self, link: Link, reason: str = "quit") -> None:
        """Ends *link* with ``bye`` *reason*."""
        if not link.closed:
            self._record("sent", reason, "bye", None, link)
            link.send(Bye(reason=reason))
            self._lost(link, reason)

    def close(self, reason: str = "quit") -> None:
        """Says ``bye`` *reason* on every link (this peer leaves)."""
        self.closing = True
        for link in list(self.links):
            self.close_link(link, reason)

    # ------------------------------------------------------------------ authoring

    def submit(self, move: Move) -> SignedEntry:
        """Plays *move* for the seat to play, which this peer must play (:meth:`plays`): applies it,
        signs the entry with the seat's signer's key, saves it and sends it to every peer (wire.md §5.5
        "Authoring"). A :class:`~carcnet.engine.HandOver` is made by its ``by`` seat, which this peer
        must hold; from then on this peer plays the seat handed over.

        Raises:
            SyncError: No game yet, the game is over or stopped, or the seat to play is not held here.
            IllegalMoveError: The engine refuses the move; nothing changed.
        """
        game, header = self.game, self.header
        if game is None or header is None:
            raise SyncError("no game yet: the header has not arrived")
        if self.stopped:
            raise SyncError(f"the game is stopped: {self.desync}")
        if self.over:
            raise SyncError("the game is over")
        seat, signer = game.author(move)
        key = self.seats.get(signer)
        if key is None:
            if isinstance(move, HandOver):
                raise SyncError(f"seat {seat} would take seat {move.seat} over, but this peer does not play it")
            if isinstance(move, HandBack):
                raise SyncError(f"{move}: seat {seat} runs the seat's bot, and this peer does not play it")
            raise SyncError(f"it is seat {seat}'s turn, which this peer does not play")
        game.apply(move)
        entry = LogEntry(len(game.moves), seat, move, game.digest)
        signed = SignedEntry(entry, sign_entry(key, header.game, entry))
        self._append(signed)
        self.persistence.sync()  # log.md §9: what this peer signs is on disk before anyone sees it
        self._relay(None)
        self._changed("entry", None)
        if isinstance(move, HandOver | HandBack):
            self._tell_presence()  # this peer plays one seat more or fewer (wire.md §4.5)
        self._draw_step()
        return signed

    # ------------------------------------------------------------------ receiving

    def _handle(self, link: Link, event: ConnectionEvent) -> None:
        if isinstance(event, Refused):
            self._record("sent", event.code, event.message, event.seq, link)
            log.warning("%s refused %s: %s (%s)", self.name, link.name, event.code, event.message)
        elif isinstance(event, Closed):
            self._lost(link, event.code)
        elif isinstance(event, Error):
            self._record("received", event.code, event.message, event.seq, link)
            if event.code == "bad-seq" and event.seq is not None:
                self._resend(link, event.seq)
            elif self._in_lobby and link.conn.state is not State.CLOSED:
                assert self.lobby is not None
                self.lobby.on_error(link, event)
        elif isinstance(event, Bye):
            self._record("received", event.reason, "bye", None, link)
        elif isinstance(event, Reject):
            self._record("received", event.code, event.message, None, link)
            log.warning("%s was refused by %s: %s (%s)", self.name, link.address, event.code, event.message)
        elif isinstance(event, Hello):
            self._on_hello(link, event)
        elif isinstance(event, Proven):
            if not link.conn.initiator:  # the connector's Welcome event follows; it opens the link
                self._on_proven(link)
        elif isinstance(event, Welcome):
            self._on_welcome(link, event)
        elif isinstance(event, Entries):
            self._on_entries(link, event)
        elif isinstance(event, Want):
            self._on_want(link, event)
        elif isinstance(event, Heartbeat):
            self._on_heartbeat(link, event)
        elif isinstance(event, Chat):
            self._on_chat(link, event)
        elif isinstance(event, Reveal):
            self._on_reveal(link, event)
        elif isinstance(event, Lobby | Claim | Commit | Start) and self._in_lobby:
            assert self.lobby is not None
            self.lobby.on_message(link, event)
        elif isinstance(event, Claim):  # wire.md §3.3: too late for a seat; the connection stays
            self.refuse(link, "lobby-locked", "the game has started")
        elif isinstance(event, Start) and self.header is None:
            self._on_start(link, event)
        elif isinstance(event, Lobby | Commit | Start):
            # wire.md §3.3: once a header is held the lobby is over (a second start included); the
            # lobby itself (claims, commitments) is not this session's business.
            self.refuse(link, "unexpected-message", f"{type(event).__name__.lower()}: the game has started")

    def _on_hello(self, link: Link, hello: Hello) -> None:
        if hello.key == self.identity.public:
            self._reject(link, "duplicate", "that is this peer's own key")
            return
        held = self.link_to(hello.key)
        if held is not None and held.connector_key is not None and held.connector_key <= hello.key:
            self._reject(link, "duplicate", "this peer is connected to that key already")
            return
        refusal = self.lobby.admit(hello.role, hello.key) if self._in_lobby and self.lobby else None
        if refusal is not None:
            self._reject(link, *refusal)
            return
        link.send(
            Welcome(
                game=self.game_id,
                role=self.wire_role,
                name=self.name,
                key=self.identity.public,
                have=self.have,
                digest=self.digest,
                header=self.header,
                peers=self._peer_list(hello.key),
            )
        )
        link.welcomed_with_header = self.header is not None

    def _on_proven(self, link: Link) -> None:
        """The connector proved its key (wire.md §3.4): from here what its hello said counts."""
        # wire.md §4.1: a player that listens says on which port; with the address it dialed from,
        # this peer can list it in its own welcomes (done now that the link is open, so that the
        # "peer" change does not make the transport dial a peer it is connected to).
        info = self._where_it_listens(link)
        if info is not None and (self.header is None or info.key in self.header.keys):
            # wire.md §4.2: once the game has started only a seated player's address is kept here; a
            # peer that runs a seat under another key is kept when its heartbeat says so
            self.add_known(info, confirmed=True)
        self._opened(link, sent_header=link.welcomed_with_header)

    @staticmethod
    def _where_it_listens(link: Link) -> PeerInfo | None:
        """Where the player that dialled *link* listens: the connection's source address and its
        hello's ``port`` (wire.md §4.1), or ``None`` (a spectator, no port, no address)."""
        hello = link.peer
        if not isinstance(hello, Hello) or hello.role == "spectator" or hello.port is None or link.remote is None:
            return None
        for addr in (link.remote, link.remote.split("%", 1)[0]):  # without an IPv6 %scope if need be
            try:
                return PeerInfo(hello.key, hello.name, addr, hello.port)
            except ProtocolError:  # not an IP address
                continue
        return None

    def _reject(self, link: Link, code: str, message: str) -> None:
        self._record("sent", code, message, None, link)
        link.send(Reject(code=code, message=message[:256]))
        self._lost(link, code)

    def _on_welcome(self, link: Link, welcome: Welcome) -> None:
        if welcome.key == self.identity.public:
            self.close_link(link, "duplicate")
            return
        if welcome.header is not None:
            if self.header is None:
                try:
                    self._take_header(welcome.header)
                except ProtocolError as exc:
                    self.refuse(link, exc.code, exc.message, exc.seq)
                    return
            elif welcome.header.fingerprint != self.header.fingerprint:
                self.refuse(link, "desync", "the peer's header of this game differs from ours", 0)
                return
        if link.address is not None:
            # wire.md §4.2: whoever the book said listens there, the key that proved itself does
            self.forget(link.address)
            if welcome.role != "spectator":
                self.add_known(PeerInfo(welcome.key, welcome.name, *link.address), confirmed=True)
        for info in welcome.peers:
            self.add_known(info)
        self._opened(link, sent_header=False)

    def _on_start(self, link: Link, start: Start) -> None:
        """A peer without a header (a spectator that followed the lobby) takes the one ``start`` brings
        (wire.md §5.4). A seated player's further checks of §5.3 (its seat, key and commitment) belong to
        the lobby, which gives a player session its header before play."""
        try:
            self._take_header(start.header)
        except ProtocolError as exc:
            self.refuse(link, exc.code, exc.message, exc.seq)
            return
        link.peer_has_header = True

    def seated(self, link: Link) -> bool:
        """Whether *link*'s peer, proven, plays at the started game: its key is a seat key of the header,
        or its heartbeat lists the seats it plays (wire.md §2.1–2.2 budgets)."""
        header = self.header
        return header is not None and link.is_open and link.role != "spectator" and (
            link.key in header.keys or bool(link.seats)
        )

    def _frame_budget(self, link: Link) -> None:
        """wire.md §2.2 "Budgets by role": 1 MiB frames only from a player that plays at the table
        (a seat key of the header, or its heartbeat lists seats) once the game has started; 16 KiB
        from anyone else, which is all their messages need."""
        link.conn.max_frame = MAX_FRAME if self.seated(link) else SMALL_FRAME

    def _opened(self, link: Link, *, sent_header: bool) -> None:
        peer = link.peer
        assert peer is not None
        link.opened = True
        self._frame_budget(link)
        link.peer_have = peer.have
        link.peer_has_header = peer.digest is not None or sent_header
        self._record("info", "open", f"{peer.role} {peer.name}", None, link)
        # wire.md §2.1: one connection per pair; keep the one whose connector has the smaller key.
        for other in self.links:
            if other is link or not other.is_open or other.key != peer.key:
                continue
            ours, theirs = link.connector_key or b"", other.connector_key or b""
            loser = link if (ours, link.id) > (theirs, other.id) else other
            self.close_link(loser, "duplicate")
            if loser is link:
                return
        header = self.header
        if (
            header is not None and not link.peer_has_header and header.commits is not None
            and link.conn.our_role == "host" and link.role != "host"
        ):
            # the game started while this peer's proof was on its way (welcomed in the lobby, opened
            # after the start): the host gives it the start it would have had (wire.md §4.6)
            link.send(Start(header=header))
            link.peer_has_header = True
        self._changed("open", link)
        if link.role != "spectator" or self.role == "player":
            self._tell_presence()
        if self._in_lobby:
            assert self.lobby is not None
            self.lobby.on_open(link)
        if self.game is None:
            return
        try:
            lack = compare_have(self.game.digests, peer.have, peer.digest)
        except ProtocolError as exc:
            if not self._draw_raced(link, exc.seq):
                self.refuse(link, exc.code, exc.message, exc.seq)
            return
        if lack > 0 and link.peer_has_header:
            self._send_from(peer.have + 1, link)
            link.want_answered_at = self.have  # the catch-up answers a want of the same range (wire.md §4.4)
        if link.role != "spectator":
            self._reveal_to(link)

    def _on_entries(self, link: Link, message: Entries) -> None:
        game, header = self.game, self.header
        if game is None or header is None:
            self.refuse(link, "unexpected-message", "entries before this peer holds the header")
            return
        if self.stopped or not message.entries:
            return
        link.peer_have = max(link.peer_have, message.entries[-1].seq)
        appended = 0
        for signed in message.entries:
            seq, have = signed.seq, self.have
            if seq <= have:
                held = self.entries[seq - 1]
                if held != signed:
                    race = _draw_race(held, signed)
                    if race == "theirs" and seq == have and self._take_back_draw(signed):
                        appended += 1  # the handover took the draw's place: carry on from it
                        continue
                    if race is not None:
                        break  # wire.md §5.7: a draw a handover beats is ignored; the sender takes it back
                    self._conflict(link, held, signed)
                    break
                continue
            if seq > have + 1:
                self.refuse(
                    link, "bad-seq", f"entries from {message.from_seq}; the next is {have + 1}", have + 1
                )
                break
            try:
                admit_entry(game, header, signed)
            except ProtocolError as exc:
                if exc.code == "desync":
                    self._rebuild()
                    self._stop(link, "desync", signed, None, exc.message)
                self.refuse(link, exc.code, exc.message, exc.seq)
                break
            self._append(signed)
            appended += 1
        else:
            link._held_upto = message.entries[-1].seq  # every entry of it is held now
        if appended:
            self._relay(link)
            self._changed("entry", link)
            self._draw_step()

    def _draw_raced(self, link: Link, seq: int | None) -> bool:
        """wire.md §5.7 "A draw racing a handover", seen in a handshake or heartbeat: the peer's digest
        at its last seq *seq* differs from ours, and our entry there is a handover or a draw, so the
        peer may hold the other. Not a desync yet: the entries settle it. We send ours from *seq* (a
        handover, which the peer takes in place of its draw) or ask for theirs (a draw of ours, which
        their handover replaces); a real desync shows up there, signed. Returns whether it was such a
        case."""
        if seq is None or not 1 <= seq <= self.have:
            return False
        move = self.entries[seq - 1].entry.move
        if isinstance(move, HandOver):
            link.peer_has_header = True
            link.peer_have = seq - 1
            self._send_from(seq, link)
            return True
        if isinstance(move, DrawTile) and link.role != "spectator":
            link.send(Want(from_seq=seq))
            return True
        return False

    def _take_back_draw(self, handover: SignedEntry) -> bool:
        """wire.md §5.7 "A draw racing a handover": this peer's last entry is a draw, and *handover*,
        for the same seq, is accepted in the state before it: the draw is taken back (from the log,
        the game and the file), the handover appended, and every peer is sent it again. Returns
        whether it was."""
        header = self.header
        assert header is not None and self.entries
        game = self._replayed(len(self.entries) - 1)
        try:
            admit_entry(game, header, handover)
        except ProtocolError:
            return False
        seq = handover.seq
        self.persistence.on_take_back(seq)
        self.entries.pop()
        self.game = game
        self._append(handover)
        for link in self.links:
            link.peer_have = min(link.peer_have, seq - 1)  # they may hold the draw: send them the handover
        log.info("%s: a handover beat the draw of seq %d; the draw is taken back", self.name, seq)
        return True

    def _conflict(self, link: Link, held: SignedEntry, signed: SignedEntry) -> None:
        """wire.md §5.5 "Overlaps": a different entry for a seq held. Signed by the same seat, it proves
        the seat signed two moves for one seq: the game stops. Otherwise it is just bad input."""
        assert self.header is not None
        seq, seat = signed.seq, signed.entry.seat
        text = f"seq {seq}: a different entry from the one held"
        proof = seat == held.entry.seat and signed.sig is not None and verify_entry(
            self.header.keys[self._signer_at(seq, seat)], self.header.game, signed.entry, signed.sig
        )
        if proof:
            self._stop(
                link, "conflict", signed, held, f"seat {seat} signed two different entries for seq {seq}"
            )
        self.refuse(link, "conflict", text, seq)

    def _signer_at(self, seq: int, seat: int) -> int:
        """The seat whose key signed *seat*'s entry *seq*: *seat*, or the taker of the last ``handover``
        of *seat* made before *seq* unless a ``handback`` gave it back since (log.md §6)."""
        signer = seat
        for signed in self.entries[: seq - 1]:
            move = signed.entry.move
            if isinstance(move, HandOver) and move.seat == seat:
                signer = move.by
            elif isinstance(move, HandBack) and move.seat == seat:
                signer = seat
        return signer

    def _on_want(self, link: Link, want: Want) -> None:
        if self.game is None:
            self.refuse(link, "unexpected-message", "want before this peer holds the header")
            return
        if self.role == "spectator":
            return  # a spectator sends no entries (wire.md §3.3); the asker will find another peer
        link.peer_has_header = True  # it asks for entries: it holds the header
        if link.want_answered_at == self.have:  # wire.md §4.4: nothing new since the last answer
            link.wants_ignored += 1
            if link.wants_ignored > MAX_IGNORED_WANTS:
                self.refuse(link, "forbidden", f"more than {MAX_IGNORED_WANTS} wants with nothing new to send")
            return
        link.want_answered_at, link.wants_ignored = self.have, 0
        if want.from_seq > self.have:
            link.send(Entries(from_seq=want.from_seq, entries=()))
            return
        link.peer_have = want.from_seq - 1
        self._send_from(want.from_seq, link)

    def _on_heartbeat(self, link: Link, beat: Heartbeat) -> None:
        link.heartbeats += 1
        link.last_heartbeat = self.clock()
        if (beat.sees, beat.seats) != (link.sees, link.seats):
            link.sees, link.seats = beat.sees, beat.seats
            if beat.seats and link.key not in self.confirmed and (info := self._where_it_listens(link)):
                self.add_known(info, confirmed=True)  # it plays a seat: its address is worth passing on
            self._frame_budget(link)
            self._changed("peer", link)
        if self.game is None:
            return
        try:
            lack = compare_have(self.game.digests, beat.have, beat.digest)
        except ProtocolError as exc:
            if not self._draw_raced(link, exc.seq):
                self.refuse(link, exc.code, exc.message, exc.seq)
            return
        if beat.digest is None:
            return
        link.peer_has_header = True
        link.peer_have = max(link.peer_have, beat.have)
        if lack > 0:
            self._send_from(link.peer_have + 1, link)
        elif lack < 0 and link.role != "spectator":
            link.send(Want(from_seq=self.have + 1))

    # ------------------------------------------------------------------ table draws (wire.md §5.7)

    def _chain(self, seat: int) -> list[bytes] | None:
        """The chain of *seat* if this peer holds the seat's key and it gives the header's root."""
        if seat not in self._chains:
            header, key = self.header, self.seats.get(seat)
            values = None
            if header is not None and key is not None and header.header.table is not None:
                values = seat_chain(key, header.game, seat, header.header.options.pile_size())
                if header.commits is None or values[0] != header.commits[seat]:
                    log.warning("%s: seat %d's key does not give the header's chain root", self.name, seat)
                    values = None
            self._chains[seat] = values
        return self._chains[seat]

    def _draw_step(self) -> None:
        """While the game waits for a draw: sends this peer's values for it (once per draw and link),
        and once every contributing seat's value is held, makes the draw (wire.md §5.7). A tile set
        aside makes another draw at once: loops."""
        game, header = self.game, self.header
        while game is not None and header is not None and not self.stopped and game.phase is Phase.DRAW:
            draw = game.deck_index + 1
            if self.waiting is None or self.waiting[0] != draw:
                self.waiting = (draw, self.clock())
            held = self.reveals.setdefault(draw, {})
            for old in [d for d in self.reveals if d < draw]:
                del self.reveals[old]
            contributors = game.contributors()
            for seat in contributors:
                values = self._chain(seat) if seat in self.seats else None
                if values is not None and seat not in held:
                    held[seat] = values[draw]
                    self._send_reveal(Reveal(seat=seat, draw=draw, value=values[draw]))
            if any(seat not in held for seat in contributors):
                return
            move = DrawTile(tuple(held.get(s) if s in contributors else None for s in range(game.players)))
            drawer = game.seat  # log.md §6: a draw's entry names the seat whose tile it draws
            try:
                game.apply(move)
            except IllegalMoveError as exc:  # values were checked on receipt: a bug, never input
                log.error("%s: the draw %d was refused: %s", self.name, draw, exc)
                return
            self._append(SignedEntry(LogEntry(len(game.moves), drawer, move, game.digest), None))
            self._relay(None)
            self._changed("entry", None)

    def missing(self) -> list[int]:
        """The seats whose value the draw the game waits for still lacks (wire.md §5.7), in seat
        order; empty when the game does not wait for a draw."""
        game = self.game
        if game is None or game.phase is not Phase.DRAW or self.stopped:
            return []
        held = self.reveals.get(game.deck_index + 1, {})
        return [seat for seat in game.contributors() if seat not in held]

    def _reveal_to(self, link: Link) -> None:
        """Sends a newly opened player link this peer's values for the draw the game waits for."""
        game = self.game
        if game is None or game.phase is not Phase.DRAW or self.stopped:
            return
        draw = game.deck_index + 1
        for seat, value in sorted(self.reveals.get(draw, {}).items()):
            if seat in self.seats:
                self._send_reveal(Reveal(seat=seat, draw=draw, value=value), link)

    def _send_reveal(self, reveal: Reveal, *links: Link) -> None:
        """Sends one of this peer's chain values to the players it is connected to (spectators get
        the draw entry instead), or to *links*."""
        self._send_once(reveal, [link for link in links or self.links if link.role != "spectator"])

    def _send_once(self, message: Message, links: Iterable[Link]) -> None:
        """Sends *message* on every open link of *links*, encoded once."""
        frame: bytes | None = None
        for link in tuple(links):
            if not link.is_open:
                continue
            if frame is None:
                frame = link.conn.send(message)
            link.queue(frame)

    def _on_reveal(self, link: Link, reveal: Reveal) -> None:
        """wire.md §5.7: a value for the current draw or the next, from a seat that contributes,
        checked against the seat's chain at once (``bad-reveal`` closes otherwise). Others are
        ignored: a value for a draw made already, or one far ahead of this peer."""
        game, header = self.game, self.header
        if game is None or header is None:
            self.refuse(link, "unexpected-message", "reveal before this peer holds the header")
            return
        if header.header.table is None:
            self.refuse(link, "unexpected-message", "reveal in a game whose draws are seeded")
            return
        current = game.deck_index + 1  # the draw the game waits for, or the next one
        draw, seat = reveal.draw, reveal.seat
        if not current <= draw <= current + 1 or seat >= game.players or game.handovers[seat] is not None:
            return
        held = self.reveals.setdefault(draw, {})
        if held.get(seat) == reveal.value:
            return
        known = game.revealed[seat] if game.revealed is not None else (0, b"")
        if seat in held or not check_reveal(header.game, seat, reveal.value, draw, known):
            self.refuse(link, "bad-reveal", f"seat {seat}'s value for draw {draw} does not match its chain")
            return
        held[seat] = reveal.value
        self._draw_step()

    # ------------------------------------------------------------------ table talk (wire.md §4.9)

    def say(self, text: str, seat: int | None = None) -> ChatLine:
        """Says *text* at the table as *seat* (default: the first seat this peer plays): signed with
        the seat key, sent to every peer this one is connected to, who pass it on.

        Raises:
            SyncError: No header yet, or no seat of this peer's to speak for.
            ValueError: *text* is not 1 to :data:`MAX_CHAT` characters under the rule of names.
        """
        header = self.header
        if header is None:
            raise SyncError("there is no game to talk at yet")
        if seat is None:
            seat = min(self.seats) if self.seats else -1
        key = self.seats.get(seat)
        if key is None:
            raise SyncError("only a player at the table speaks, for a seat it plays")
        problem = name_problem(text, MAX_CHAT)
        if problem is not None:
            raise ValueError(f"a chat line {problem}")
        chat_id = secrets.token_bytes(CHAT_ID_SIZE)
        time_ms = int(self.wall_clock() * 1000)
        message = Chat(seat=seat, id=chat_id, time=time_ms, text=text,
                       sig=sign_chat(key, header.game, seat, chat_id, time_ms, text))
        self._chat_seen.append((seat, chat_id))
        line = ChatLine(seat, text, time_ms / 1000, mine=True)
        self.chats.append(line)
        self.chats_made += 1
        self._pass_on(message, None)
        self._changed("chat", None)
        return line

    def _on_chat(self, link: Link, chat: Chat) -> None:
        """A line from a player's peer (the writer's or a relay's): checked under the seat's key
        (``bad-chat`` closes otherwise), then kept and passed on once, unless it was seen already,
        is too old or too far ahead (a replay), or its seat spoke too often (dropped)."""
        header, game = self.header, self.game
        if header is None or game is None:
            self.refuse(link, "unexpected-message", "chat before this peer holds the header")
            return
        seat = chat.seat
        if seat >= game.players or not verify_chat(header.header.keys[seat], header.game, seat, chat.id, chat.time,
                                                   chat.text, chat.sig):
            self.refuse(link, "bad-chat", f"a chat line for seat {seat} not signed by the seat's key")
            return
        if (seat, chat.id) in self._chat_seen:
            return
        self._chat_seen.append((seat, chat.id))
        if abs(chat.time / 1000 - self.wall_clock()) > CHAT_AGE:
            return
        now = self.clock()
        times = self._chat_times.setdefault(seat, deque(maxlen=CHAT_RATE))
        if len(times) == CHAT_RATE and now - times[0] < CHAT_WINDOW:
            return
        times.append(now)
        self.chats.append(ChatLine(seat, chat.text, chat.time / 1000))
        self.chats_made += 1
        self._pass_on(chat, link)
        self._changed("chat", link)

    def _pass_on(self, chat: Chat, source: Link | None) -> None:
        """Sends a chat line to every open link but the one it came from."""
        self._send_once(chat, [link for link in self.links if link is not source])

    def _resend(self, link: Link, seq: int) -> None:
        """The peer answered ``bad-seq``: it holds ``seq - 1``; send it everything from *seq*."""
        link.peer_have = seq - 1
        if seq <= self.have:
            self._send_from(seq, link)

    # ------------------------------------------------------------------ the log

    def _take_header(self, header: WireHeader) -> None:
        self.game = check_header(header, game=self.game_id)
        self.header = header
        for link in self.links:
            self._frame_budget(link)
        self._changed("header", None)

    def _append(self, signed: SignedEntry) -> None:
        self.entries.append(signed)
        self.persistence.on_append(signed)

    def _rebuild(self) -> None:
        """After a digest mismatch the game holds a move its log does not: replay the log."""
        self.game = self._replayed(len(self.entries))

    def _replayed(self, count: int) -> Game:
        """The game after the first *count* entries of the log, replayed (they were checked)."""
        assert self.header is not None
        game = Game(self.header.header.setup())
        for signed in self.entries[:count]:
            game.apply(signed.entry.move)
        return game

    def _relay(self, source: Link | None) -> None:
        """Sends what each other link's peer lacks (wire.md §5.5 "Relaying"); spectators relay nothing.
        Links that lack the same entries share one encoded frame."""
        if self.role == "spectator":
            return
        have = self.have
        lacking: dict[int, list[Link]] = {}
        for link in self.links:
            if link is not source and link.is_open and link.peer_has_header and link.peer_have < have:
                lacking.setdefault(link.peer_have + 1, []).append(link)
        for start, links in lacking.items():
            self._send_from(start, *links)

    def _send_from(self, start: int, *links: Link) -> None:
        """Sends every entry from seq *start* on to *links*, at most 256 per message."""
        if self.role == "spectator":
            return
        have = self.have
        for first in range(max(start, 1), have + 1, MAX_ENTRIES):
            last = min(first + MAX_ENTRIES - 1, have)
            message = Entries(from_seq=first, entries=tuple(self.entries[first - 1 : last]))
            frame: bytes | None = None
            for link in links:
                if not link.is_open:
                    continue
                if frame is None:
                    # The first link's connection checks that we may send it (state, both roles); an
                    # ``entries`` frame changes no connection's state and any role may receive it,
                    # so the same bytes are good for every other open link (encoded once, not n times).
                    frame = link.conn.send(message)
                    self.seen.add(frame, last)
                link.queue(frame)
        for link in links:
            link.peer_have = max(link.peer_have, have)

    def _stop(self, link: Link, code: str, theirs: SignedEntry, ours: SignedEntry | None, text: str) -> None:
        report = Desync(
            code=code,
            seq=theirs.seq,
            seat=theirs.entry.seat,
            peer=link.name,
            peer_key=link.key or b"",
            local=self.name,
            message=text,
            ours=ours,
            theirs=theirs,
        )
        self.desync = report
        self._record("info", "stop", str(report), report.seq, link)
        log.error("%s: game stopped: %s", self.name, report)
        self._changed("stop", link)

    # ------------------------------------------------------------------ helpers

    def _peer_list(self, exclude: bytes) -> tuple[PeerInfo, ...]:
        """The ``peers`` of a welcome (wire.md §4.2): the book, then the players whose handshake with
        this peer is under way (their proof is due any moment: two players that dial the table at
        once must learn each other), for keys the book does not hold. A dialler checks the key it
        reaches (§3.4), so a listed address proves nothing by itself."""
        infos = [info for key, info in self.book.items() if key != exclude and key in self.confirmed]
        for link in self.links:
            if link.conn.initiator or link.is_open or link.closed:
                continue
            info = self._where_it_listens(link)
            if info is not None and info.key != exclude and info.key not in self.book:
                infos.append(info)
        return tuple(infos[:MAX_PEERS])

    def _lost(self, link: Link, code: str | None) -> None:
        if link not in self.links:
            return
        self.links.remove(link)
        link.closed_by = code or link.closed_by or "closed"
        self._record("info", "closed", link.closed_by, None, link)
        if link.opened and link.role != "spectator" and not self.closing:
            self._tell_presence()
        if self._in_lobby and link.opened:
            assert self.lobby is not None
            self.lobby.on_close(link)
        self._changed("close", link)

    def _record(self, kind: str, code: str, message: str, seq: int | None, link: Link | None) -> None:
        self.events.append(
            NetEvent(
                self.clock(),
                kind,
                code,
                message,
                seq,
                link.name if link is not None and link.peer is not None else None,
                link.key if link is not None else None,
            )
        )

    def _changed(self, change: Change, link: Link | None) -> None:
        for listener in list(self._listeners):
            listener(change, link)

    def __repr__(self) -> str:
        return f"SyncSession({self.name!r}, {self.role}, have={self.have}, links={len(self.open_links())})"
