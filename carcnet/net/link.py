"""Provides :class:`Link`: one connection as a replica sees it, between the transport and its owner
(``protocol/wire.md`` §2, §5.5).

A link wraps a :class:`~carcnet.net.protocol.PeerConnection` (the connection's state machine) with
what its owner needs to know of the peer (the last seq it holds, whether it holds the header, its
heartbeats' presence claims), the bytes waiting to be written, and the cut of the byte stream into
frames that skips byte-for-byte repeats of ``entries`` frames already held (:class:`SeenFrames`).
The transport (:mod:`carcnet.net.transport`) drives it through :meth:`Link.receive_data`,
:meth:`Link.data_to_send`, :meth:`Link.heartbeat` and :meth:`Link.time_out`; the link hands every
whole frame to its :class:`LinkOwner` (the :class:`~carcnet.net.sync.SyncSession`). No I/O, no
clock.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from typing import Literal, Protocol

from .messages import Heartbeat, Hello, Message, Role, Want, Welcome
from .protocol import PeerConnection, State

__all__ = [
    "CLAIM_BURST", "CLAIM_EVERY", "HELD_REPEATS", "MAX_MEETS_TAKEN", "MAX_PEERS_TAKEN", "NEWS_BURST", "NEWS_RATE", "QUIET_BURST", "QUIET_RATE", "Bucket",
    "ClaimBudget", "Held", "Link",
    "LinkOwner", "SeenFrames", "send_once",
]

_link_ids = itertools.count(1)

#: wire.md §4.5 "Bounded work": a link's heartbeat claims (``sees``, ``seats``) are taken at once for
#: :data:`CLAIM_BURST` changes (a peer whose links open one after the other as the game starts), then
#: at most one change every :data:`CLAIM_EVERY` seconds; a change that comes sooner is kept and taken
#: with the link's first frame after that (the last one said counts). Each change taken makes the table
#: judge the claims again, so a peer that alternates them costs that at most once a second.
CLAIM_BURST = 8
CLAIM_EVERY = 1.0

#: wire.md §2.1 budget of the messages that change nothing at this peer but cost it a frame's decoding
#: each (a ``heartbeat``, a ``chat`` line dropped): :data:`QUIET_BURST` at once from one link, then
#: :data:`QUIET_RATE` a second; one more closes the link ``forbidden``. An honest peer sends a
#: heartbeat every 5 s and one more each time one of its links to a player opens or closes, and passes
#: on at most 5 lines a seat in 10 s (3 a second at six seats); a stranger that sends them as fast as it can write (a core burnt, honest p99 x54) is
#: cut off, and must pay a new handshake (16 a second from one address) to go on.
QUIET_BURST = 32
QUIET_RATE = 8.0

#: The pace of this peer's own heartbeats with news (its links or seats changed, wire.md §4.5) on one
#: link: :data:`NEWS_BURST` at once, then :data:`NEWS_RATE` a second; the news owed beyond goes with
#: the next one. With the transport's own (one after 5 s without sending), well within the receiver's
#: :data:`QUIET_BURST` and :data:`QUIET_RATE`, whatever this peer's links do.
#: ``peers`` messages a player takes as hints from one connection (wire.md §4.10).
MAX_PEERS_TAKEN = 8
#: ``meet``s taken on one connection (wire.md §4.12): each costs a visit to the invite server it names.
MAX_MEETS_TAKEN = 8

NEWS_BURST = 16
NEWS_RATE = 2.0

#: wire.md §4.3 budget: ``entries`` messages in a row from one link that bring nothing new and repeat
#: only entries that link sent already (a repeat its frame cache does not catch: the same entries
#: encoded otherwise) before the link is closed ``forbidden``. An honest peer sends an entry to a link
#: once, and again only when asked (a ``want``, which starts the count again) or after a draw was taken
#: back.
HELD_REPEATS = 4

#: How a seq bounds what a link's peer holds (:meth:`Link.peer_holds`): this log up to it at least, up
#: to it and no further, or not beyond it.
Held = Literal["at-least", "exactly", "at-most"]


class Bucket:
    """A budget of things one link may make this peer do: *burst* at once, then one more every
    *every* seconds (a token bucket, on the session's clock given to :meth:`take`)."""

    __slots__ = ("_at", "_tokens", "burst", "every")

    def __init__(self, burst: int, every: float) -> None:
        self.burst = burst
        self.every = every
        self._tokens = float(burst)
        self._at: float | None = None

    def take(self, now: float) -> bool:
        """Takes one from the budget at *now* (seconds); ``False`` when none is left."""
        if self._at is not None:
            self._tokens = min(float(self.burst), self._tokens + (now - self._at) / self.every)
        self._at = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False


class ClaimBudget(Bucket):
    """The pace at which one link's heartbeat claims are taken (wire.md §4.5 "Bounded work"): a bucket
    of :data:`CLAIM_BURST` changes, refilled by one every :data:`CLAIM_EVERY` seconds.

    Attributes:
        pending: Whether a change was kept back and waits for the bucket.
    """

    __slots__ = ("pending",)

    def __init__(self) -> None:
        super().__init__(CLAIM_BURST, CLAIM_EVERY)
        self.pending = False

    def take(self, now: float) -> bool:
        """Whether a change may be taken at *now* (session clock seconds); if not, it is kept back
        (:attr:`pending`)."""
        taken = super().take(now)
        self.pending = not taken
        return taken


class LinkOwner(Protocol):
    """What a :class:`Link` hands its input to (the session that holds it)."""

    def receive(self, link: Link, data: bytes) -> None:
        """Bytes from *link*'s socket: one whole frame, or (after a bad length, or at the end of the
        stream, ``b""``) whatever is left, for the connection to refuse."""
        ...

    def send_heartbeat(self, link: Link) -> None:
        """Nothing was sent on *link* for a while (wire.md §2.1): queue a ``heartbeat``."""
        ...

    def time_out(self, link: Link, what: str) -> None:
        """A timer of *link* ran out (*what* says which): end it with ``bye`` ``timeout``."""
        ...


class SeenFrames:
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
    :meth:`Connections.accept_link`; driven by a transport through :meth:`receive_data`,
    :meth:`data_to_send`, :meth:`heartbeat` and :meth:`time_out`.

    Attributes:
        id: A number for logs, unique in the process.
        conn: The connection's state machine.
        address: ``(host, port)`` this side dialed (connector), else ``None``.
        peer_have: The last seq the peer holds, as far as this side knows (handshake, heartbeats,
            entries either way, ``bad-seq`` and ``want``).
        peer_has_header: Whether the peer holds the header (it may receive entries).
        parted: The seq at which the peer's log parts from this peer's, as far as it showed, or 0.
        closed_by: The :class:`Closed` event or the code that ended the link (``None`` while alive).

    What the peer holds (:attr:`peer_have`, :attr:`peer_has_header`, :attr:`parted`), on which
    relaying rests, changes only through :meth:`peer_holds`.
    """

    def __init__(
        self,
        owner: LinkOwner,
        conn: PeerConnection,
        address: tuple[str, int] | None,
        *,
        seen: SeenFrames,
        own_key: bytes,
    ) -> None:
        self.id = next(_link_ids)
        self._owner = owner
        self._seen = seen
        self._own_key = own_key
        self.conn = conn
        self.address = address
        #: The peer's IP address as text, as this side sees it (the transport sets it from the
        #: socket; ``None`` when unknown). With a ``hello``'s ``port`` it says where the peer listens.
        self.remote: str | None = None
        self._peer_have = 0
        self._peer_has_header = False
        self._parted = 0
        self.closed_by: str | None = None
        #: Whether this peer ended the link with its own ``bye`` (the peer itself may not be leaving).
        self.closed_here = False
        self.opened = False
        #: When the handshake was done (the session's clock), ``None`` before.
        self.opened_at: float | None = None
        #: At a table of two: the seq of this log the peer's heartbeats say it holds that its seat has
        #: not voted for, since when, and over how many heartbeats (wire.md §5.9 "A vote withheld").
        self.unvoted: tuple[int, float, int] | None = None
        #: Whether our welcome carried the header (an acceptor's link, until the peer is proven).
        self.welcomed_with_header = False
        #: Heartbeats received on this link, and when the last one came (the session's clock).
        self.heartbeats = 0
        self.last_heartbeat: float | None = None
        #: When anything last came from the peer (the session's clock; set by its router): a stale
        #: message too shows the peer is there (wire.md §5.7 "The price of a veto").
        self.last_heard: float | None = None
        #: What the peer's last heartbeat said (wire.md §4.5): the players it is connected to, the
        #: seats it plays, and the seats its person lets a bot play (§5.6 "Who makes the handover").
        #: Empty until its first heartbeat.
        self.sees: tuple[bytes, ...] = ()
        self.seats: tuple[int, ...] = ()
        self.asks: tuple[int, ...] = ()
        #: The ``have`` of the peer's last heartbeat and the seats' banks it said at it (wire.md §5.8).
        self.banks: tuple[int, tuple[int, ...]] = (0, ())
        #: The ``have`` at which this peer last answered a ``want`` on this link (wire.md §4.4: at most
        #: one answer per ``have``), and the ``want``s ignored since.
        self.want_answered_at: int | None = None
        self.wants_ignored = 0
        #: Where the last answered ``want`` started, and the ``have`` at which this peer last answered
        #: one that reached further back at an unchanged ``have`` (at most one such per ``have``).
        self.want_answered_from = 0
        self.reached_back: int | None = None
        #: The version of the votes and the commit index this peer last passed on to this link
        #: (wire.md §5.9; ``Router.beside_heartbeat``), and when
        #: (the session's clock) it last asked the link's peer for another branch's entries.
        self.votes_sent: tuple[int, int, tuple[int, ...]] | None = None
        self.branch_asked: float | None = None
        #: The last ``want`` sent on this link and what it was asked on (start, this peer's ``have``,
        #: the peer's ``have``); the ``have`` of the peer's last heartbeat.
        self.asked: tuple[int, int, int] | None = None
        self.heard_have = 0
        #: How many ``peers`` this (player) peer took from the peer as hints (wire.md §4.10: at most
        #: :data:`MAX_PEERS_TAKEN`).
        self.peers_taken = 0
        #: How many ``meet``s this peer took from the peer (wire.md §4.12: at most :data:`MAX_MEETS_TAKEN`).
        self.meets_taken = 0
        #: The pace at which the table takes this peer's heartbeat claims (wire.md §4.5).
        self.claims = ClaimBudget()
        #: What the peer may still send that changes nothing here (wire.md §2.1, :data:`QUIET_BURST`).
        self.quiet = Bucket(QUIET_BURST, 1 / QUIET_RATE)
        #: The pace of this peer's heartbeats with news on this link, and whether one is owed
        #: (:data:`NEWS_BURST`; ``Connections.news``).
        self.beats = Bucket(NEWS_BURST, 1 / NEWS_RATE)
        self.beat_owed = False
        #: The last seq of the entries this peer sent on this link, and how many ``entries`` messages in
        #: a row brought nothing new and repeated only those (wire.md §4.3, :data:`HELD_REPEATS`).
        self.sent_upto = 0
        self.repeats = 0
        #: The ``have`` of the last two heartbeats this side sent here, older first: a peer may resend
        #: entries until the news that they are held reaches it, a heartbeat after it was sent.
        self._told = (0, 0)
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
        frame whose entries this peer holds, from a player (see :class:`SeenFrames`): in a mesh every
        entry arrives once from its author and again from each relay, and the repeats need not be
        decoded to be ignored.
        """
        owner = self._owner
        if self._passthrough or not data:
            if self._pending:
                pending = bytes(self._pending)
                self._pending.clear()
                owner.receive(self, pending)
            owner.receive(self, data)
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
                self._seen.get(frame)
                if self.conn.state is State.OPEN and self.role != "spectator"
                else None
            )
            if upto is not None:
                self.peer_holds(upto)
                continue
            self._held_upto = None
            owner.receive(self, frame)
            if self._held_upto is not None:
                self._seen.add(frame, self._held_upto)
            if self.conn.state is State.CLOSED:
                buffer.clear()
                return
        rest = bytes(buffer[start:])
        buffer.clear()
        if self._passthrough:
            owner.receive(self, rest)
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
        self._owner.send_heartbeat(self)

    def time_out(self, what: str) -> None:
        """The handshake or a frame took too long, or nothing was received for too long: ``bye``
        ``timeout``."""
        self._owner.time_out(self, what)

    def set_waker(self, wake: Callable[[], None] | None) -> None:
        """Installs the function the link calls whenever it queues bytes (the transport writes them)."""
        self._wake = wake

    # ------------------------------------------------------------------ what the peer holds

    @property
    def peer_have(self) -> int:
        """The last seq the peer holds, as far as this side knows (:meth:`peer_holds`)."""
        return self._peer_have

    @property
    def peer_has_header(self) -> bool:
        """Whether the peer holds the header, so that it may be sent entries (:meth:`peer_holds`)."""
        return self._peer_has_header

    @property
    def parted(self) -> int:
        """The seq at which the peer's log parts from this peer's, as far as it showed (a digest that
        differs at a seq both hold, or entries of another branch; wire.md §5.9), or 0: nothing is
        relayed to it until a heartbeat or its vote shows that it holds this peer's branch
        (:meth:`peer_holds`)."""
        return self._parted

    def peer_holds(self, seq: int | None = None, held: Held = "at-least", *, header: bool = False,
                   parted: int | None = None) -> None:
        """What this side learned of the peer's log: the one way :attr:`peer_have`,
        :attr:`peer_has_header` and :attr:`parted` change. Relaying rests on them (wire.md §5.5
        "Relaying"): an open link is sent every entry after :attr:`peer_have` while its peer holds the
        header and its log does not part from this peer's.

        The rule, by what *seq* (a seq of this log, ≥ 0) says with *held*:

        - ``"at-least"``: the peer holds this log up to *seq* at least: entries it sent, or this side
          sent it, a heartbeat's ``have`` (after its digest matched), a repeat of a frame held. It never
          lowers what this side believes, so a late or repeated word cannot make it send again.
        - ``"exactly"``: the peer said itself where its log ends: the ``have`` of its handshake (§4.1,
          §4.2), a ``want`` from ``seq + 1`` (§4.4), a ``bad-seq`` at ``seq + 1`` (§4.8), a digest that
          differs at ``seq + 1`` where this side is the one to send (§5.7). It may lower it: what comes
          after is sent again.
        - ``"at-most"``: this side's log changed after *seq* (a draw taken back, §5.7; entries set
          aside for a committed branch, §5.9): whatever the peer holds beyond may be another entry, so
          it is sent this log's from ``seq + 1``. It never raises it.

        *header*: the peer holds the header (it was sent one, said it holds one, or sent what only a
        holder sends); once held, always held. *parted*: the seq at which its log parts from this
        one (§5.9), or 0 once it showed that it holds a prefix of this log or took this branch."""
        if seq is not None:
            if held == "at-least":
                self._peer_have = max(self._peer_have, seq)
            elif held == "at-most":
                self._peer_have = min(self._peer_have, seq)
            else:
                self._peer_have = seq
        if header:
            self._peer_has_header = True
        if parted is not None:
            self._parted = parted

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
        return self._own_key if self.conn.initiator else self.key

    def send(self, message: Message) -> bool:
        """Queues *message*; ``False`` (and nothing queued) when the connection is closed already."""
        if self.conn.state is State.CLOSED:
            return False
        if isinstance(message, Want):
            self.repeats = 0  # what the peer sends now answers it: repeats are asked for
        elif isinstance(message, Heartbeat):
            self._told = (self._told[1], message.have)
        frame = self.conn.send(message)
        self._out += self.conn.data_to_send()  # what the connection queued itself (its proof) goes first
        self._out += frame
        self.notify()
        return True

    def queue(self, frame: bytes) -> None:
        """Queues an encoded frame the connection has already allowed (see ``Router.send_from``)."""
        self._out += self.conn.data_to_send()
        self._out += frame
        self.notify()

    def held_upto(self, seq: int) -> None:
        """The owner took every entry of the frame being handled, the last being *seq*: a repeat of
        the same bytes is skipped from now on (:class:`SeenFrames`)."""
        self._held_upto = seq

    def repeated(self, first: int, last: int, *, new: bool) -> bool:
        """The peer sent entries *first* to *last*, which brought something *new* or not (wire.md §4.3
        budget): returns whether this link has now sent more than :data:`HELD_REPEATS` messages in a
        row that brought nothing new and repeated only entries it had sent already (the owner closes
        it ``forbidden``). A ``want`` this side sends starts the count again (:meth:`send`); a repeat
        of entries past what this side's heartbeat before the last one said it holds is not counted
        (the peer may not have heard yet: a peer healing a split resends from where the logs parted
        with each heartbeat until this side's news comes)."""
        if new or first > self.sent_upto:
            self.repeats = 0
        elif last > self._told[0]:
            pass  # the news that this side holds them may still be on its way
        else:
            self.repeats += 1
        self.sent_upto = max(self.sent_upto, last)
        return self.repeats > HELD_REPEATS

    def notify(self) -> None:
        """Wakes the transport (bytes may be queued)."""
        if self._wake is not None:
            self._wake()

    def __repr__(self) -> str:
        return f"Link({self.id}, {self.name}, {self.conn.state.name}, peer_have={self.peer_have})"


def send_once(message: Message, links: Iterable[Link]) -> None:
    """Sends *message* on every open link of *links*, encoded once."""
    frame: bytes | None = None
    for link in tuple(links):
        if not link.is_open:
            continue
        if frame is None:
            frame = link.conn.send(message)
        link.queue(frame)
