"""Provides :class:`Connections`: one peer's connections to the others, without I/O
(``protocol/wire.md`` §2.1, §3, §4.1–4.2, §4.8).

The room of the links (:class:`~carcnet.net.link.Link`, one per connection): it makes them
(:meth:`Connections.connect_link`, :meth:`Connections.accept_link`), is their
:class:`~carcnet.net.link.LinkOwner` (bytes in, heartbeats and timers), closes them
(:meth:`Connections.refuse`, :meth:`Connections.close_link`, :meth:`Connections.time_out`), keeps
one connection per pair of peers (§2.1), the frame budget of each (§2.2), the address book of where
the player peers listen (:class:`~carcnet.net.book.AddressBook`, §4.2) and this peer's own log of
events (:class:`NetEvent`, §4.8, bounded). What the connections carry is its owner's business: every
event of a connection goes to :meth:`ConnectionsOwner.deliver` (the session's dispatch table), and
the owner hears when a link is gone and when the book learned an address.

What a connection's peer is, for its budgets and its address, is what it has proven (§2.1–2.2, §4.2):
its identity key is a seat key of the header, the table judged its heartbeat's claim of a seat
(:meth:`Connections.judged`), or, before the start, the host seated it (:meth:`Connections.sat_down`).
A claim alone lifts nothing and confirms nothing; the claims of a heartbeat are taken at most at the
pace of :class:`~carcnet.net.link.ClaimBudget` (§4.5 "Bounded work").
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Protocol

from .book import AddressBook
from .framing import MAX_FRAME, SMALL_FRAME, ProtocolError
from .link import MAX_PEERS_TAKEN, Link, SeenFrames
from .messages import Bye, Entries, Error, Heartbeat, Hello, Message, PeerInfo, Reject, Welcome, WireHeader
from .protocol import ConnectionEvent, PeerConnection, Refused, State
from .signing import SeatKey

__all__ = [
    "DISCOURAGED_PER_SECOND", "DISCOURAGED_SECONDS", "FRAMES_KEPT", "MAX_DISCOURAGED", "MAX_EVENTS", "MAX_SENT_ENTRIES",
    "ClaimsDue", "Connections", "ConnectionsOwner", "Discouraged", "Pace", "NetEvent", "at_table_address", "small_batches",
    "takes_peers",
]

log = logging.getLogger("carcnet.net")

#: wire.md §2.1: seconds an IP address stays discouraged after one of its connections broke a budget
#: of what messages cost (:meth:`Connections.over_budget`), the new connections a second it may open
#: meanwhile (instead of 16), and the addresses remembered so at most (the oldest forgotten first).
DISCOURAGED_SECONDS = 30.0
DISCOURAGED_PER_SECOND = 1
MAX_DISCOURAGED = 256
#: Events a peer keeps (its connection log, :attr:`Connections.events`): the newest ones.
MAX_EVENTS = 1000

#: ``entries`` frames this peer keeps encoded (:meth:`Connections.entries_frame`): a whole game of
#: 32-entry batches, each at most 16 KiB.
FRAMES_KEPT = 16

#: Entries this peer puts in one ``entries`` message at most (wire.md §4.3): 32 entries of the largest
#: kind (a table draw of six values, a handover naming a bot) encode to less than 16 KiB, the frame
#: budget of a connection whose peer has proven no seat (§2.2), so whoever receives them takes them.
MAX_SENT_ENTRIES = 32


@dataclass(frozen=True, slots=True)
class ClaimsDue:
    """A connection event :class:`Connections` makes itself: claims of the link's peer kept back by its
    :class:`~carcnet.net.link.ClaimBudget` may be taken now (its owner tells its listeners, as for a new claim)."""


def small_batches(batches: Iterable[Entries]) -> list[Entries]:
    """*batches* cut into ``entries`` messages of at most :data:`MAX_SENT_ENTRIES` entries each, in
    order and always at the same places (so that two peers that send the same entries from the same seq
    send the same bytes, wire.md §5.5)."""
    out: list[Entries] = []
    for batch in batches:
        entries = batch.entries
        if len(entries) <= MAX_SENT_ENTRIES:
            out.append(batch)
            continue
        for i in range(0, len(entries), MAX_SENT_ENTRIES):
            out.append(Entries(from_seq=batch.from_seq + i, entries=entries[i : i + MAX_SENT_ENTRIES]))
    return out


@dataclass(frozen=True, slots=True)
class NetEvent:
    """One line of a peer's own log of events (not the game's move log, wire.md §4.8).

    Attributes:
        time: The session's clock when it happened.
        kind: ``"sent"`` (an ``error``/``reject``/``bye`` we sent), ``"received"`` (one the peer sent),
            ``"info"`` (a connection opened or closed, a stop, the protocol's account of a line told to
            the people at the table).
        code: The error or reject code, the bye reason, or what happened (``"open"``, ``"closed"``;
            ``"note"``: the account of a line told to people, e.g. a refused handover and why).
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


class ConnectionsOwner(Protocol):
    """What :class:`Connections` hands on to the session it serves."""

    def deliver(self, link: Link, event: ConnectionEvent | ClaimsDue) -> None:
        """One event of *link*'s connection (a message, or what the connection says: refused,
        proven, closed; or :class:`ClaimsDue`), in order."""
        ...

    def lost(self, link: Link) -> None:
        """*link* was closed and removed."""
        ...

    def heartbeat(self) -> Heartbeat:
        """The ``heartbeat`` this peer sends now (wire.md §4.5)."""
        ...

    def beside_heartbeat(self, link: Link) -> tuple[Message, ...]:
        """What else to send *link* with a heartbeat (the votes it has not been passed and the
        certificate of the commit index, wire.md §5.9), maybe nothing."""
        ...

    def addresses_changed(self) -> None:
        """The address book learned a new key or address."""
        ...


class Connections:
    """This peer's links, their closing, the address book and the event log.

    Args:
        game: The game id (every connection is for it).
        identity: This peer's identity key (wire.md §3.1).
        name: This peer's name, for the program's log records.
        clock: Seconds, for the event log.
        owner: Where connection events go (:class:`ConnectionsOwner`).

    Attributes:
        links: Every link not closed yet, in the order made.
        events: The last :data:`MAX_EVENTS` things that happened on the connections, oldest first:
            bounded, so that a stranger opening and spoiling connections for ever costs no memory
            (wire.md §2.1).
        addresses: Where the player peers listen (wire.md §4.2): the address book.
        seen: Recent ``entries`` frames whose entries are held, shared by every link.
        listen_port: The TCP port this peer listens on, sent in its hellos (``None``: nowhere).
        closing: Whether :meth:`close` was called (this peer is leaving).
        header: The game's header once held (seated peers and frame budgets depend on it).
        runners: Identity keys the table judged to play a seat (:meth:`judged`): with the header's seat
            keys, the peers proven to sit at the table.
        lobby_seated: Identity keys the host seated in its lobby (:meth:`sat_down`), before the start.
    """

    def __init__(
        self, *, game: str, identity: SeatKey, name: str, clock: Callable[[], float], owner: ConnectionsOwner
    ) -> None:
        self.game_id = game
        self.identity = identity
        self.name = name
        self.clock = clock
        self._owner = owner
        self.links: list[Link] = []
        self.events: deque[NetEvent] = deque(maxlen=MAX_EVENTS)
        self.addresses = AddressBook(identity.public)
        self.seen = SeenFrames()
        self.listen_port: int | None = None
        self.closing = False
        self.header: WireHeader | None = None
        self.runners: set[bytes] = set()
        self.lobby_seated: frozenset[bytes] = frozenset()
        self.host: bytes | None = None  # the key that sealed the header (wire.md §4.2), once checked
        self._frames: dict[tuple[int, int, bytes, bytes | None], bytes] = {}
        #: The IP addresses one of whose connections broke a budget lately (:meth:`over_budget`).
        self.discouraged = Discouraged(clock)

    # ------------------------------------------------------------------ links

    def connect_link(self, address: tuple[str, int] | None, hello: Hello) -> Link:
        """A link for a connection this side made to *address*; *hello* is queued on it."""
        link = Link(self, PeerConnection(game=self.game_id, initiator=True, identity=self.identity), address,
                    seen=self.seen, own_key=self.identity.public)
        self.links.append(link)
        link.send(hello)
        return link

    def accept_link(self) -> Link:
        """A link for a connection a peer made to this side; it waits for the peer's ``hello``."""
        link = Link(self, PeerConnection(game=self.game_id, initiator=False, identity=self.identity), None,
                    seen=self.seen, own_key=self.identity.public)
        self.links.append(link)
        return link

    def open_links(self) -> list[Link]:
        """The links whose handshake is done and that are alive."""
        return [link for link in self.links if link.is_open]

    def link_to(self, key: bytes) -> Link | None:
        """The open link to the peer with identity *key*, if any."""
        for link in self.links:
            if link.is_open and link.key == key:
                return link
        return None

    def set_listen_port(self, port: int | None) -> None:
        """Where this peer listens (``None``: nowhere), told in its hellos (wire.md §4.1)."""
        self.listen_port = port

    def started(self, header: WireHeader, host: bytes | None = None) -> None:
        """The game's header is held now (again with *host*, the key that sealed it, once checked): the
        frame budgets follow it (wire.md §2.2), and the addresses of the open links of the seat keys and
        of the host are confirmed (§4.2)."""
        self.header = header
        self.host = host if host is not None else self.host
        for link in list(self.links):
            self.frame_budget(link)
            self.confirm(link)

    # ------------------------------------------------------------------ for the links (LinkOwner)

    def receive(self, link: Link, data: bytes) -> None:
        """Bytes from *link*'s socket (``b""``: it ended). Every event is delivered in order; anything
        the owner did not expect ends that connection with ``internal``, never the peer."""
        events: list[ConnectionEvent | ClaimsDue] = list(link.conn.receive_data(data))
        if link.claims.pending and link.is_open and link.claims.take(self.clock()):
            events.append(ClaimsDue())  # claims kept back by their budget: their turn has come
        if link.beat_owed and link.is_open and link.beats.take(self.clock()):
            self.send_heartbeat(link)  # news kept back by this peer's pace (:meth:`news`)
        for event in events:
            try:
                self._owner.deliver(link, event)
            except Exception as exc:  # a bug here must cost one connection, not the game
                log.exception("%s: handling %r from %s failed", self.name, type(event).__name__, link.name)
                self.refuse(link, "internal", f"{type(exc).__name__}: {exc}")
        if link.conn.state is State.CLOSED:
            self.drop(link, None)
        link.notify()

    def send_heartbeat(self, link: Link) -> None:
        """Queues this peer's ``heartbeat`` on *link*, once its handshake is done (wire.md §4.5)."""
        if link.is_open:
            link.beat_owed = False
            link.send(self._owner.heartbeat())
            for beside in self._owner.beside_heartbeat(link):
                link.send(beside)

    def news(self, link: Link) -> None:
        """This peer has news for *link* (its links or seats changed, wire.md §4.5): a ``heartbeat`` now
        if the link's pace allows it (:data:`~carcnet.net.link.NEWS_BURST`), else one is owed and goes
        with the next frame the link brings once it does, or with the transport's next heartbeat. So
        that however often this peer's links come and go (a cheater reconnecting as fast as it can),
        it never sends a peer more heartbeats than the peer's budget (§2.1), which would close it."""
        if link.beats.take(self.clock()):
            self.send_heartbeat(link)
        else:
            link.beat_owed = True

    def tell_all(self, about: Link | None = None) -> None:
        """Sends this peer's ``heartbeat`` on every open link at once (wire.md §4.5): its connections or
        its seats changed, and the others learn whom it is in touch with. When *about* (a link that
        opened or closed) is given, only a peer proven to sit at the table (:meth:`at_table`: before the
        start, seated by the host) is news to everyone: a stranger's connection is told this peer's
        heartbeat (it needs it before any entries) and nobody else is, so that keys proven one after
        another cost no heartbeat on every link, nor every link's budget of such messages (wire.md
        §2.1)."""
        if about is not None and (about.key is None or not self.at_table(about.key)):
            if about.is_open:
                self.news(about)
            return
        for link in self.open_links():
            self.news(link)

    def time_out(self, link: Link, what: str) -> None:
        """Ends *link* with ``bye`` ``timeout`` (*what* says which timer, for the event log)."""
        if not link.closed:
            self.record("sent", "timeout", f"{what}: bye timeout", None, link)
            link.send(Bye(reason="timeout"))
            self.drop(link, "timeout")

    # ------------------------------------------------------------------ closing

    def refuse(self, link: Link, code: str, message: str, seq: int | None = None) -> None:
        """Answers bad input from *link* with ``error`` *code* (closing where wire.md §6 says), logged."""
        if link.closed:
            return
        self.record("sent", code, message, seq, link)
        log.warning("%s refuses %s: %s (%s)", self.name, link.name, code, message)
        link.send(Error(code=code, message=message[:256], seq=seq))
        if link.closed:
            self.drop(link, code)

    def reject(self, link: Link, code: str, message: str) -> None:
        """Answers a ``hello`` with ``reject`` *code* (wire.md §3.2): the connection ends."""
        self.record("sent", code, message, None, link)
        link.send(Reject(code=code, message=message[:256]))
        self.drop(link, code)

    def close_link(self, link: Link, reason: str = "quit") -> None:
        """Ends *link* with ``bye`` *reason*."""
        if not link.closed:
            self.record("sent", reason, "bye", None, link)
            link.closed_here = True
            link.send(Bye(reason=reason))
            self.drop(link, reason)

    def close(self, reason: str = "quit") -> None:
        """Says ``bye`` *reason* on every link (this peer leaves)."""
        self.closing = True
        for link in list(self.links):
            self.close_link(link, reason)

    def drop(self, link: Link, code: str | None) -> None:
        """Removes *link*, closed with *code* (or what closed it), and tells the owner."""
        if link not in self.links:
            return
        self.links.remove(link)
        link.closed_by = code or link.closed_by or "closed"
        self.record("info", "closed", link.closed_by, None, link)
        self._owner.lost(link)

    def record(self, kind: str, code: str, message: str, seq: int | None, link: Link | None) -> None:
        """Adds a line to :attr:`events` (:class:`NetEvent`)."""
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

    def notice(self, link: Link, event: Refused | Bye | Reject) -> None:
        """What only goes in the event log: our connection refused the peer's input (``Refused``), or
        the peer said ``bye`` or rejected our hello."""
        if isinstance(event, Refused):
            self.record("sent", event.code, event.message, event.seq, link)
            log.warning("%s refused %s: %s (%s)", self.name, link.name, event.code, event.message)
        elif isinstance(event, Bye):
            self.record("received", event.reason, "bye", None, link)
        else:
            self.record("received", event.code, event.message, None, link)
            # two peers that dialled each other at once: one connection stays (wire.md §2.1), no fault
            level = logging.INFO if event.code == "duplicate" else logging.WARNING
            log.log(level, "%s was refused by %s: %s (%s)", self.name, link.address or link.name, event.code,
                    event.message)

    # ------------------------------------------------------------------ the handshake's bookkeeping

    def opened(self, link: Link, *, sent_header: bool) -> bool:
        """*link*'s handshake is done: notes what the peer holds, its frame budget and the event;
        keeps one connection per pair of peers (wire.md §2.1: the one whose connector has the smaller
        key). Returns whether *link* is kept."""
        peer = link.peer
        assert peer is not None
        link.opened = True
        link.opened_at = self.clock()
        self.frame_budget(link)
        link.peer_holds(peer.have, "exactly", header=peer.digest is not None or sent_header)
        self.record("info", "open", f"{peer.role} {peer.name}", None, link)
        for other in self.links:
            if other is link or not other.is_open or other.key != peer.key:
                continue
            ours, theirs = link.connector_key or b"", other.connector_key or b""
            loser = link if (ours, link.id) > (theirs, other.id) else other
            self.close_link(loser, "duplicate")
            if loser is link:
                return False
        return True

    def duplicate_hello(self, hello: Hello) -> str | None:
        """Why a ``hello`` must be rejected ``duplicate`` (wire.md §2.1: our own key, or a key this
        peer is connected to already by a connection that wins), or ``None``."""
        if hello.key == self.identity.public:
            return "that is this peer's own key"
        held = self.link_to(hello.key)
        if held is not None and held.connector_key is not None and held.connector_key <= hello.key:
            return "this peer is connected to that key already"
        return None

    def welcome_peers(self, exclude: bytes) -> tuple[PeerInfo, ...]:
        """The ``peers`` of a welcome to the peer of key *exclude* (wire.md §4.2): the book's confirmed
        addresses only, never a handshake still under way (an unproven hello is nobody's address)."""
        return self.addresses.welcome_list(exclude)

    def add_known(self, info: PeerInfo, *, confirmed: bool = False) -> None:
        """Records where a player peer listens (:meth:`AddressBook.add`, wire.md §4.2): *confirmed*
        when that key proved itself there to this peer (§3.4), else a hint. The owner hears when the
        book learned something new."""
        if self.addresses.add(info, confirmed=confirmed):
            self._owner.addresses_changed()

    def forget(self, address: tuple[str, int]) -> None:
        """Drops the hints of the book at *address* (:meth:`AddressBook.forget`)."""
        self.addresses.forget(address)

    def seated(self, link: Link) -> bool:
        """Whether *link*'s peer has proven that it plays at the started game (wire.md §2.1–2.2
        budgets): its identity key is a seat key of the header, or the table judged its claim of a seat
        (:attr:`runners`). A seat named in a heartbeat proves nothing by itself."""
        header, key = self.header, link.key
        return (header is not None and link.is_open and link.role != "spectator" and key is not None
                and (key in header.keys or key in self.runners))

    def frame_budget(self, link: Link) -> None:
        """wire.md §2.2 "Budgets by role": 1 MiB frames only from a peer proven to play at the table
        (:meth:`seated`) once the game has started; 16 KiB from anyone else, which is all their messages
        need (this peer's own ``entries`` messages fit too: :func:`small_batches`)."""
        link.conn.max_frame = MAX_FRAME if self.seated(link) else SMALL_FRAME

    def entries_frame(self, link: Link, message: Entries) -> bytes:
        """The frame of the ``entries`` *message* for the open *link*: encoded by its connection (which
        checks that this peer may send it) the first time, then taken from a cache of the last
        :data:`FRAMES_KEPT` (an ``entries`` frame changes no connection's state and any role may receive
        it, wire.md §3.3). Every proven newcomer is sent the log so far (§5.5), and without the cache a
        stranger that proves key after key made this peer encode the whole log each time. The cache is
        keyed by the first seq, the count and the last entry's digest and signature: the digest chain
        commits to every entry before it (digest.md §4), and hashing the entries themselves cost a good
        part of encoding them."""
        frames = self._frames
        last = message.entries[-1] if message.entries else None
        key = (message.from_seq, len(message.entries), last.entry.digest if last else b"", last.sig if last else None)
        frame = frames.pop(key, None)
        if frame is None or not link.is_open:
            frame = link.conn.send(message)
        frames[key] = frame  # the newest last: the least used goes first
        if len(frames) > FRAMES_KEPT:
            del frames[next(iter(frames))]
        return frame

    def quiet(self, link: Link, what: str, *, seated_free: bool = False) -> bool:
        """*link*'s peer sent *what*, a message that changes nothing here (a ``heartbeat``, a ``chat``
        line dropped): takes it from the link's budget (wire.md §2.1, :data:`~carcnet.net.link.QUIET_BURST`),
        unless *seated_free* and the peer is :meth:`seated` (an ``ack`` with nothing new: seated players
        pass votes on with every heartbeat, §4.11). Returns ``False`` when the budget is spent: the link
        is closed ``forbidden`` and the message must not be acted on."""
        if (seated_free and self.seated(link)) or link.quiet.take(self.clock()):
            return True
        self.over_budget(link, f"{what}: more messages that change nothing than its budget")
        return False

    def over_budget(self, link: Link, message: str) -> None:
        """*link*'s peer broke a budget of what messages cost (wire.md §2.1): ``error`` ``forbidden``
        closes the link, and its IP address is discouraged (:attr:`discouraged`), so that a stranger
        breaking a budget on purpose pays a second for each handshake it makes us do."""
        self.refuse(link, "forbidden", message)
        if link.remote is not None:
            self.discouraged.mark(link.remote)

    def take_claims(self, link: Link, sees: tuple[bytes, ...], seats: tuple[int, ...],
                    asks: tuple[int, ...] = ()) -> bool:
        """A heartbeat of *link*'s peer (not a spectator's, whose claims count for nothing) says it sees
        *sees*, plays *seats* and asks for *asks* to be handed over (wire.md §4.5, §5.6 "Who makes the
        handover"): kept on the link; returns whether the table should judge them now, which is when
        they changed (or a change was kept back) and the link's :class:`~carcnet.net.link.ClaimBudget`
        allows it. Claims prove nothing here: no budget, no address follows from them until the table
        judged them (:meth:`judged`); an ask counts only from a peer believed to play a seat."""
        if (sees, seats, asks) == (link.sees, link.seats, link.asks) and not link.claims.pending:
            return False
        link.sees, link.seats, link.asks = sees, seats, asks
        return link.claims.take(self.clock())

    def judged(self, link: Link, believed: Collection[int]) -> None:
        """The table judged the claim of *link*'s peer (wire.md §4.5 "Checking claims") and believes it
        plays *believed*: with at least one seat the peer is proven to sit at the table (:attr:`runners`),
        which lifts its frame budget (§2.2), keeps its connection from being given up for a stranger's
        (§2.1) and confirms where it listens (§4.2)."""
        if not believed or link.key is None or link.key in self.runners:
            return
        self.runners.add(link.key)
        self.frame_budget(link)
        self.confirm(link)
        self.tell_all()  # a peer at the table now: news to everyone (wire.md §4.5)

    def sat_down(self, keys: Collection[bytes]) -> None:
        """The host's lobby seats the players of identity *keys* now (wire.md §4.2: before the start, an
        address is confirmed once its player sat down, not when it proved its key)."""
        new = frozenset(keys) - self.lobby_seated
        self.lobby_seated = frozenset(keys)
        for link in list(self.links):
            self.confirm(link)
        if new:
            self.tell_all()  # a player sat down: news to everyone (wire.md §4.5)

    def sees(self) -> set[bytes]:
        """The identity keys of the players this peer is connected to, for its heartbeat's ``sees``
        (wire.md §4.5): once the header is held, only those proven to sit at the table (:meth:`at_table`),
        so that strangers connected as players push nobody out of the 32 a heartbeat lists."""
        header = self.header
        return {link.key for link in self.open_links() if link.role != "spectator" and link.key
                and (header is None or self.at_table(link.key))}

    def at_table(self, key: bytes) -> bool:
        """Whether the peer of identity *key* has proven that it sits at the table (wire.md §4.2): once
        the game has started, its key is a seat key of the header, or the key that sealed the header
        (the host, whose bots play under keys of their own), or the table judged its claim of a seat;
        before, the host seated it."""
        header = self.header
        if header is None:
            return key in self.lobby_seated
        return key in header.keys or key == self.host or key in self.runners

    def confirm(self, link: Link) -> None:
        """Confirms where the peer of the open *link* listens (wire.md §4.2) when it sits at the table
        (:meth:`at_table`) and is not confirmed yet: the address it dialled from with its hello's
        ``port``, or the address this peer dialled and its welcome's key proved itself at."""
        key = link.key
        if key is None or not link.is_open or key in self.addresses.confirmed or not self.at_table(key):
            return
        peer = link.peer
        if isinstance(peer, Welcome):
            if link.address is not None and peer.role != "spectator":
                self.add_known(PeerInfo(key, peer.name, *link.address), confirmed=True)
            return
        info = where_it_listens(link)
        if info is not None:
            self.add_known(info, confirmed=True)


def at_table_address(connections: Connections, address: tuple[str, int]) -> bool:
    """Whether *address* (``(host, port)``) is where a player proven to sit at the table listens
    (:meth:`Connections.at_table`), its key having proven itself there (a confirmed address of the
    book, wire.md §4.2): such an address is dialled again at the shorter pace of §2.1. A hint, or a key
    that has proven nothing at the table, never is: no stranger makes this peer dial it more often."""
    book = connections.addresses
    return any((info.addr, info.port) == address and key in book.confirmed and connections.at_table(key)
               for key, info in book.entries.items())


def where_it_listens(link: Link) -> PeerInfo | None:
    """Where the player that dialled *link* listens: the connection's source address and its hello's
    ``port`` (wire.md §4.1), or ``None`` (a spectator, no port, no address)."""
    hello = link.peer
    if not isinstance(hello, Hello) or hello.role == "spectator" or hello.port is None or link.remote is None:
        return None
    for addr in (link.remote, link.remote.split("%", 1)[0]):  # without an IPv6 %scope if need be
        try:
            return PeerInfo(hello.key, hello.name, addr, hello.port)
        except ProtocolError:  # not an IP address
            continue
    return None


def takes_peers(connections: Connections, link: Link, host: bytes | None) -> bool:
    """Whether a player takes the ``peers`` that came on *link* as hints (wire.md §4.10): from a
    player proven at the table (:meth:`Connections.at_table`) or *host*, the host it sat down with
    (before the start), the first :data:`~carcnet.net.link.MAX_PEERS_TAKEN` on the link; counts it
    when so."""
    key = link.key
    if key is None or link.role == "spectator" or not (connections.at_table(key) or key == host):
        return False
    if link.peers_taken >= MAX_PEERS_TAKEN:
        return False
    link.peers_taken += 1
    return True


class Pace:
    """The new connections taken from each IP address within the last second (wire.md §2.1), for a
    budget of so many a second. At most *addresses* are remembered: past that, those with none in
    the last second are forgotten, at most once a second (a flood from many addresses costs no sweep
    a connection); past twice that, the longest remembered first.

    Args:
        addresses: Addresses remembered before quiet ones are forgotten.
    """

    def __init__(self, addresses: int) -> None:
        self.addresses = addresses
        #: IP address → when its connections of the last second were taken, the newest last.
        self.recent: dict[str, deque[float]] = {}
        self._swept = float("-inf")

    def take(self, ip: str, per_second: int, now: float) -> bool:
        """Takes one more connection from *ip* at *now* (seconds), unless *per_second* were taken
        within the second before; returns whether it was taken."""
        recent = self.recent.get(ip)
        if recent is None:
            recent = self.recent[ip] = deque()
        while recent and recent[0] <= now - 1.0:
            recent.popleft()
        if len(recent) >= per_second:
            return False
        recent.append(now)
        if len(self.recent) > self.addresses and now - self._swept >= 1.0:
            self._swept = now
            for quiet in [a for a, r in self.recent.items() if not r or r[-1] <= now - 1.0]:
                del self.recent[quiet]
        while len(self.recent) > 2 * self.addresses:
            del self.recent[next(iter(self.recent))]
        return True


class Discouraged:
    """The IP addresses one of whose connections broke a budget of what messages cost (wire.md §2.1),
    each for :data:`DISCOURAGED_SECONDS` from then: a peer accepts at most
    :data:`DISCOURAGED_PER_SECOND` new connections a second from one. At most :data:`MAX_DISCOURAGED`
    are remembered, the oldest mark forgotten first.

    Args:
        clock: The session's clock (seconds).
    """

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        #: IP address → until when it is discouraged, the newest mark last.
        self.until: dict[str, float] = {}

    def mark(self, ip: str) -> None:
        """*ip* broke a budget now."""
        self.until.pop(ip, None)
        self.until[ip] = self.clock() + DISCOURAGED_SECONDS
        if len(self.until) > MAX_DISCOURAGED:
            del self.until[next(iter(self.until))]

    def __contains__(self, ip: object) -> bool:
        until = self.until.get(ip) if isinstance(ip, str) else None
        if until is None:
            return False
        if until <= self.clock():
            del self.until[ip]  # type: ignore[arg-type]
            return False
        return True
