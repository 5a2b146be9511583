"""Provides :class:`SyncSession`: a network game at one peer, its log kept in step with its peers,
without I/O (``protocol/wire.md`` §5.4–5.5).

The session is the face of a network game that the table (:mod:`carcnet.table`) and the transport
(:class:`~carcnet.net.peer.Peer`) hold. It is made of rooms, each a module of its own:

- :class:`~carcnet.net.replica.Replica` (:attr:`SyncSession.replica`): the header, the signed entries
  in seq order and the engine :class:`~carcnet.engine.Game` they replay to; authoring, admitting,
  the draw taken back for a handover, the desync report;
- :class:`~carcnet.net.connections.Connections` (:attr:`SyncSession.connections`): the links, one per
  connection (:class:`~carcnet.net.link.Link`), their closing, the address book, the event log;
- :class:`~carcnet.net.routing.Router`: what to do with each message, by a dispatch table, relaying
  and catching up;
- :class:`~carcnet.net.draws.DrawValues` (:attr:`SyncSession.draws`), :class:`~carcnet.net.chat.ChatRoom`
  (:attr:`SyncSession.chat`) and the lobby (:mod:`carcnet.net.lobby`).

The transport feeds a link the bytes it reads (:meth:`Link.receive_data`) and writes what
:meth:`Link.data_to_send` gives it. Nothing here reads a socket, starts a task or looks at a clock
it was not given, so several sessions can be wired together in memory (``tests/net/test_sync.py``).

What a session does (wire.md §5.4–5.5):

- **Authoring**: :meth:`SyncSession.submit` plays a move for a seat whose key this peer holds: the
  engine applies it, the entry is signed, saved (:class:`~carcnet.net.replica.Persistence`) and sent to
  every link.
- **Taking entries**: every entry received goes through :func:`~carcnet.net.admission.admit_entry`
  (seq, signature, author, legality, digest) before it is appended and saved; then it is passed on to
  every other link whose peer lacks it. A refused entry is answered with its code (``error``), closing
  that connection where wire.md §6 says so; the game is unchanged.
- **Gaps and late joiners**: on every handshake the side that holds more sends the missing entries at
  once; ``entries`` beyond the next seq are answered ``bad-seq`` and the sender sends again from there;
  ``want`` is answered from the log; heartbeats carry ``have``/``digest`` for comparison.
- **Desync**: a signed entry whose digest differs from this engine's, or two different entries both
  signed by the same seat for one seq, stops the game here with a :class:`Desync` report naming the
  entry and the peers. Unsigned claims (a heartbeat's or handshake's digest) only close the
  connection they came on, so that no peer (a spectator above all) can stop a game by talking.

Roles: a ``"player"`` session authors, relays and serves; a ``"spectator"`` session only receives (its
connections refuse to send ``entries``, wire.md §3.3) and is never an author.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence

from carcnet.engine import Game, HandBack, HandOver, Move, Phase
from carcnet.i18n import _

from .chat import ChatLine
from .connections import NetEvent
from .framing import ProtocolError
from .link import Link, send_once
from .lobby import LobbyAction, LobbyContext, LobbyRole
from .messages import Ack, Chat, Give, Hello, Meet, Role, Seal, SignedEntry, SpectatorChat, WireHeader
from .replica import Desync, MemoryLog, Persistence, Replica, SyncError
from .routing import Listener, Router, SessionChange
from .signing import SeatKey

__all__ = [
    "Desync",
    "MemoryLog",
    "NetEvent",
    "Persistence",
    "SessionChange",
    "SyncError",
    "SyncSession",
]


class SyncSession:
    """A network game at one peer: its log (the replica), its links, the table's draws and talk.

    Lifecycle: built with the game id and, if this peer has it, the header and the entries it saved;
    links are added as connections are made (:meth:`connect_link`) or accepted
    (``connections.accept_link``); :meth:`submit` plays the held seats' moves; :meth:`close` says
    ``bye`` to every link. A session without a header (a spectator, a peer that lost its log) takes
    the first one a ``welcome`` brings. After a :class:`Desync` the session is *stopped*: it takes and
    authors no more entries, and still answers ``want``.

    Args:
        game: The game id.
        name: This peer's name (1 to 32 characters), sent in hello and welcome.
        role: ``"player"`` or ``"spectator"``.
        identity: This peer's identity key (wire.md §3.1); a fresh one by default.
        header: The game's header, or ``None`` until a peer sends it.
        seal: The host's seal of *header* (wire.md §4.2), kept beside the save: passed on in welcomes
            (spectators take no header without it); dropped when it does not seal *header*.
        seats: Seat index → the seat key this peer plays it with (players only).
        entries: Entries already saved (a peer coming back); each is checked again.
        persistence: Where new entries are saved; a :class:`MemoryLog` by default.
        clock: Seconds, for the event log and the lobby's timeouts (``time.monotonic`` by default).
        wall_clock: Seconds since 1970-01-01 UTC, for the informative ``time`` of heartbeats
            (``time.time`` by default).
        lobby: The lobby this peer takes part in before the game starts (:mod:`carcnet.net.lobby`):
            the host's table, a player's seating or a spectator's view; ``None`` for a session that
            gets its header from a ``welcome`` or was given one.
        gave: Whether this peer gave its seats' votes away when it left the game before (wire.md §5.9
            "Two seats, and leaving", kept beside the save): it casts none again.
        gives: The votes given it held when it left (kept beside the save), checked again.

    Attributes:
        replica: The log (:class:`~carcnet.net.replica.Replica`).
        connections: The links, the address book and the event log
            (:class:`~carcnet.net.connections.Connections`).
        draws: This peer's part in the table's draws (:class:`~carcnet.net.draws.DrawValues`).
        chat: The table talk (:class:`~carcnet.net.chat.ChatRoom`), never in the log.
        seats: Seat → the key this peer plays it with.

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
        seal: Seal | None = None,
        seats: Mapping[int, SeatKey] | None = None,
        entries: Sequence[SignedEntry] = (),
        persistence: Persistence | None = None,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
        lobby: LobbyRole | None = None,
        gave: bool = False,
        gives: Sequence[Give] = (),
    ) -> None:
        if role not in ("player", "spectator"):
            raise ValueError(f"a session plays or watches; role {role!r} is the lobby's")
        self.game_id = game
        self.name = name
        self.role: Role = role
        self.identity = identity if identity is not None else SeatKey.generate()
        self.clock = clock
        self.wall_clock = wall_clock
        self.seats: dict[int, SeatKey] = {}
        self.replica = Replica(game, name, persistence)
        self._listeners: list[Listener] = []
        self.lobby = lobby
        self._router = Router(game=game, name=name, role=role, identity=self.identity, replica=self.replica,
                              seats=self.seats, listeners=self._listeners, lobby=lobby, clock=clock,
                              wall_clock=wall_clock)
        self.connections = self._router.connections
        self.draws = self._router.draws
        self.chat = self._router.chat
        #: The introductions taken and not yet acted on (wire.md §4.12): the table takes them.
        self.meetings = self._router.hints.meetings
        if lobby is not None:
            lobby.attach(LobbyContext(game=self.game_id, name=self.name, identity=self.identity))
        if header is not None:
            try:
                self._router.take_header(header, seal)
            except ProtocolError as exc:
                raise ValueError(f"{exc.code}: {exc.message}") from None
        self.replica.load(entries)
        self._router.witness.loaded(self.replica.have, self.digest)
        self.replica.gave = gave  # a resumed laptop that gave its votes away casts none again (wire.md §5.9)
        self.replica.take_votes((), gives)  # the votes given it held, checked again (one that fails: dropped)
        for seat, key in (seats or {}).items():
            self.add_seat(seat, key)
        self._router.draw_step()  # a game resumed while it waited for a draw: this peer's values are ready

    # ------------------------------------------------------------------ state

    @property
    def header(self) -> WireHeader | None:
        """The game's header, once held (:attr:`Replica.header`)."""
        return self.replica.header

    @property
    def game(self) -> Game | None:
        """The engine game the log replays to, ``None`` without a header. Read only."""
        return self.replica.game

    @property
    def entries(self) -> list[SignedEntry]:
        """The signed entries held, entry *seq* at index ``seq - 1``. Read only."""
        return self.replica.entries

    @property
    def desync(self) -> Desync | None:
        """Why the game stopped here, or ``None``."""
        return self.replica.desync

    @property
    def have(self) -> int:
        """Seq of the last entry held (0: none)."""
        return self.replica.have

    @property
    def digest(self) -> bytes | None:
        """The digest at :attr:`have`, or ``None`` without a header."""
        game = self.replica.game
        return game.digest if game is not None else None

    @property
    def stopped(self) -> bool:
        """Whether a :class:`Desync` stopped the game here."""
        return self.replica.desync is not None

    @property
    def over(self) -> bool:
        """Whether the game is over (the engine says so)."""
        return self.replica.over

    @property
    def to_play(self) -> int | None:
        """The seat whose move is next (the engine's ``actor``: the seat whose turn it is, or the seat an
        expansion's question asks), ``None`` without a game, once it is over or stopped, and while the
        table draws (wire.md §5.7: nobody moves until the draw is made)."""
        game = self.replica.game
        if game is None or self.over or self.stopped or game.phase is Phase.DRAW:
            return None
        return game.actor

    @property
    def wire_role(self) -> Role:
        """The role this peer declares in a new connection's handshake (wire.md §3.2): the lobby's
        while it lasts (``"host"`` for the table's holder), else :attr:`role`."""
        return self._router.wire_role

    def missing(self) -> list[int]:
        """The seats whose value the draw the game waits for still lacks (wire.md §5.7), in seat
        order; empty when the game does not wait for a draw or is stopped, and at a spectator, which is
        sent no values (it gets the draw's entry) and so cannot tell whose value is missing."""
        if self.stopped or self.role == "spectator":
            return []
        return self.draws.missing(self.game)

    def plays(self, seat: int) -> bool:
        """Whether this peer makes *seat*'s moves: it holds the seat's key, or the key of the seat that
        took it over with a ``handover`` (``carcnet.engine.HandOver``)."""
        return self._router.plays(seat)

    # ------------------------------------------------------------------ seats and listeners

    def add_listener(self, listener: Listener) -> None:
        """Calls *listener(change, link)* after every change (:data:`~carcnet.net.routing.SessionChange`).
        Listeners must not raise."""
        self._listeners.append(listener)

    def add_seat(self, seat: int, key: SeatKey) -> None:
        """Plays *seat* from now on with *key* (its key in the header).

        Raises:
            ValueError: A spectator, no header yet, no such seat, or not the seat's key.
        """
        header = self.replica.header
        if self.role != "player":
            raise ValueError("a spectator plays no seat")
        if header is None:
            raise ValueError("seats are taken once the header is known")
        if not 0 <= seat < len(header.keys) or header.keys[seat] != key.public:
            raise ValueError(f"that is not the key of seat {seat} in this game's header")
        self.seats[seat] = key

    def drop_seat(self, seat: int) -> None:
        """Stops playing *seat* here (another peer takes it over)."""
        self.seats.pop(seat, None)

    def use_persistence(self, persistence: Persistence) -> None:
        """Saves every entry from now on to *persistence* (the table opens its log file once the
        header is known); entries held already are not written again."""
        self.replica.use_persistence(persistence)

    def say_banks(self, have: int, banks: Sequence[int]) -> None:
        """This peer's heartbeats carry *banks* (each seat's bank of the turn clock in milliseconds,
        seat by seat; empty: none) while its log is at seq *have*, the point they were measured at
        (wire.md §4.5, §5.8). The clock is its table's: the session only carries it."""
        self._router.banks = (have, tuple(banks))

    def ask(self, seats: Iterable[int]) -> None:
        """This peer's heartbeats ask the table's taker to hand *seats* over to a bot (wire.md §5.6
        "Who makes the handover": its person let a bot play them, and another laptop is the taker);
        sent at once on every link when they change. Empty: nothing asked."""
        asks = tuple(sorted(set(seats)))
        if asks != self._router.asks:
            self._router.asks = asks
            self.connections.tell_all()

    @property
    def asks(self) -> tuple[int, ...]:
        """The seats this peer's heartbeats ask the taker to hand over (:meth:`ask`)."""
        return self._router.asks

    def presence_changed(self) -> None:
        """Something about who is at the table changed without a message (a clock ran out): tells
        the listeners (``"peer"``)."""
        self._router.changed("peer", None)

    # ------------------------------------------------------------------ the lobby and the start

    def begin(self, header: WireHeader, seats: Mapping[int, SeatKey], *, told: Iterable[Link] = (),
              seal: Seal | None = None) -> None:
        """Starts the game the lobby agreed on: takes *header* (checked as wire.md §5.4 says, with its
        host's *seal* kept when it checks, §4.2), plays
        *seats* with their keys, and tells every open connection, with a ``heartbeat``, that this peer
        holds the header now (so that they send it entries) and which seats it plays (§4.5). *told*
        are the connections that know the header already (those the ``start`` was sent to or came
        from).

        Raises:
            ProtocolError: The header is refused (its code: ``bad-header``, ``wrong-game``…);
                nothing changed.
            ValueError: A seat key that is not the header's, or seats for a spectator.
        """
        self._router.begin(header, seats, told=told, seal=seal)

    def apply_lobby(self, actions: Iterable[LobbyAction]) -> None:
        """Carries out, in order, what a lobby call returned (:mod:`carcnet.net.lobby`): a ``Send`` is
        queued on its link, a ``Refuse`` refuses its link's input (``connections.refuse``), a
        ``Begin`` is :meth:`begin` (a header refused there is refused on the begin's ``source``
        connection, or raised when it has none), and a ``LobbyChanged`` tells the listeners
        (``"lobby"``).

        Raises:
            ProtocolError: A ``Begin`` without a source whose header is refused.
            ValueError: A ``Begin`` whose seat keys are not the header's.
        """
        self._router.apply_lobby(actions)

    # ------------------------------------------------------------------ acting

    def connect_link(self, address: tuple[str, int] | None = None) -> Link:
        """A link for a connection this side made to *address*; its ``hello`` is queued (wire.md
        §3.2: what this peer holds, its role, where it listens)."""
        hello = Hello(game=self.game_id, role=self.wire_role, name=self.name, key=self.identity.public,
                      have=self.have, digest=self.digest, port=self.connections.listen_port)
        return self.connections.connect_link(address, hello)

    def submit(self, move: Move) -> SignedEntry:
        """Plays *move* for the seat to play, which this peer must play (:meth:`plays`): applies it,
        signs the entry with the seat's signer's key, saves it and sends it to every peer (wire.md §5.5
        "Authoring"). A :class:`~carcnet.engine.HandOver` is made by its ``by`` seat, which this peer
        must hold; from then on this peer plays the seat handed over.

        Raises:
            SyncError: No game yet, the game is over or stopped, or the seat to play is not held here.
            IllegalMoveError: The engine refuses the move; nothing changed.
        """
        router = self._router
        signed = self.replica.author(move, self.seats)
        router.relay(None)
        router.log_changed()
        router.changed("entry", None)
        if isinstance(move, HandOver | HandBack):
            self.connections.tell_all()  # this peer plays one seat more or fewer (wire.md §4.5)
        router.draw_step()
        return signed

    def say(self, text: str, seat: int | None = None) -> ChatLine:
        """Says *text* at the table as *seat* (default: the first seat this peer plays): signed with
        the seat key, sent to every peer this one is connected to, who pass it on (wire.md §4.9). A
        peer that plays no seat (a spectator) speaks as itself: signed with its identity key, under
        its name, shown as a spectator's (§4.9a).

        Raises:
            SyncError: No header yet, or *seat* is not one this peer plays.
            ValueError: *text* is not 1 to :data:`~carcnet.net.messages.MAX_CHAT` characters under
                the rule of names.
        """
        header = self.header
        if header is None:
            raise SyncError(_("there is no game to talk at yet"))
        message: Chat | SpectatorChat
        if seat is None and not self.seats:
            message, line = self.chat.write_spectator(self.identity, header.game, self.name, text,
                                                      self.wall_clock())
        else:
            seat = min(self.seats) if seat is None else seat
            key = self.seats.get(seat)
            if key is None:
                raise SyncError(_("a player speaks only for a seat it plays"))
            message, line = self.chat.write(key, header.game, seat, text, self.wall_clock())
        send_once(message, self.connections.links)
        self._router.changed("chat", None)
        return line

    def direct_players(self) -> list[tuple[bytes, Link]]:
        """``(key, link)`` of every open link to a player proven at the table (:meth:`~carcnet.net.
        connections.Connections.at_table`) that came over an address, not an invite's pairing (wire.md
        §4.12: those an introduction goes to)."""
        connections = self.connections
        return [(link.key, link) for link in connections.open_links()
                if link.key is not None and link.remote is not None and link.role != "spectator"
                and connections.at_table(link.key)]

    def introduce(self, link: Link, meet: Meet) -> bool:
        """Sends the introduction *meet* on *link* (wire.md §4.12); ``False`` when it is closed."""
        return link.send(meet)

    def close(self, reason: str = "quit") -> None:
        """Says ``bye`` *reason* on every link (this peer leaves). A player leaving a game going on on
        purpose (``quit`` or ``shutdown``) first gives the votes its seats hold to another seat
        (:meth:`give_votes`), so that the table goes on committing without it."""
        if reason in ("quit", "shutdown"):
            self.give_votes()
        self.connections.close(reason)

    def give_votes(self, to: int | None = None) -> Ack | None:
        """Gives the votes this peer's seats hold to seat *to* (default :meth:`heir`), sends them on every
        open link and casts no vote again in this game (wire.md §5.9 "Two seats, and leaving"). Nothing
        when this peer is no player of a game going on, there is nobody to give to, or it has no
        connection at all but a spectator's, open or opening: a give nobody can hear helps nobody, and
        this laptop, back, votes again (the last of three to leave, alone, gave its votes to a laptop
        gone for good and never voted again). A give made while links are in their handshakes is
        kept, and comes when the laptop does."""
        replica = self.replica
        if self.role != "player" or replica.game is None or replica.over or replica.gave or not self.seats:
            return None
        if not any(link.role != "spectator" and not link.closed for link in self.connections.links):
            return None
        if to is None:
            to = self.heir()
        votes, game, seq = replica.votes, replica.game, replica.vote_seq
        if to is None or votes is None or game is None or replica.stopped or to in self.seats:
            return None
        held = [seat for seat in range(votes.players) if votes.holder(seat, game.digests) in self.seats]
        replica.gave = True  # from now on this laptop votes no more (it may still play)
        gives = votes.give(self.seats, held, to, seq, game.digests[seq])
        if not gives:
            return None
        ack = Ack(votes=(), gives=gives)
        send_once(ack, self.connections.open_links())
        self._router.changed("gives", None)  # (the table keeps that it gave beside its save)
        return ack

    def heir(self) -> int | None:
        """The seat a leaving peer gives its votes to (wire.md §5.9 "Two seats, and leaving"): of the
        seats it does not play whose votes are still their own, those whose laptop is connected here
        first, then the first in the table's tie order (seat order before it is drawn) read round from
        the place after this peer's first seat; ``None`` when there is none. Read round, two laptops
        that leave at once at a bigger table give one way along the order (0 to 1, 1 to 2), not to
        each other, and the third holds both votes."""
        votes, header = self.replica.votes, self.replica.header
        if votes is None or header is None:
            return None
        candidates = [seat for seat in range(votes.players)
                      if seat not in self.seats and votes.holder(seat, None) == seat]
        if not candidates:
            return None
        here: set[int] = set()
        for link in self.connections.open_links():
            if link.role != "spectator":
                here.update(link.seats)
                here.update(seat for seat in candidates if link.key == header.keys[seat])
        tie = votes.tie
        rank = tie.rank if tie is not None else (lambda seat: seat)
        start = min(rank(seat) for seat in self.seats)
        return min(candidates, key=lambda seat: (seat not in here, (rank(seat) - start) % votes.players))

    def __repr__(self) -> str:
        links = len(self.connections.open_links())
        return f"SyncSession({self.name!r}, {self.role}, have={self.have}, links={links})"
