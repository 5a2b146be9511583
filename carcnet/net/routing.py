"""Provides :class:`Router`: what a session does with each message its connections bring, without I/O
(``protocol/wire.md`` §3–§5).

The router is the session's working half (:class:`~carcnet.net.sync.SyncSession` is the face the
table holds). It receives every event of every connection from
:class:`~carcnet.net.connections.Connections` and sends it, by a dispatch table on its type
(:data:`ROUTES`), to the room that knows what to do with it: the handshake's answers here, entries
to the :class:`~carcnet.net.replica.Replica` (admit, relay, catch up, desync), chain values to
:class:`~carcnet.net.draws.DrawValues`, chat to :class:`~carcnet.net.chat.ChatRoom`, lobby messages
to the lobby (whose actions it carries out). It holds the rooms and the state it shares with the
session (the seats this peer plays, the listeners), never the session itself.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal

from carcnet.engine import IllegalMoveError, Phase

from .admission import compare_have
from .chat import CHAT_TYPES, ChatMessage, ChatRoom, unsigned_words
from .connections import ClaimsDue, Connections, small_batches
from .draws import DrawValues
from .framing import ProtocolError
from .gossip import draw_values, took_our_branch, votes_to_pass
from .hints import Hints
from .link import HELD_REPEATS, Link, send_once
from .lobby import Begin, LobbyAction, LobbyRole, Refuse, Send, passed_start
from .messages import (
    MAX_PEERS,
    Ack,
    Bye,
    Claim,
    Commit,
    Entries,
    Error,
    Heartbeat,
    Hello,
    Lobby,
    Meet,
    Message,
    PeerInfo,
    Peers,
    Reject,
    Reveal,
    Role,
    Seal,
    SignedEntry,
    Start,
    Want,
    Welcome,
    WireHeader,
)
from .protocol import Closed, ConnectionEvent, Proven, Refused, State
from .replica import Desync, Replica, Taken
from .signing import SeatKey
from .witness import Witness

__all__ = ["ASK_EVERY", "MAX_IGNORED_WANTS", "ROUTES", "VOTE_EVERY", "Listener", "Router", "SessionChange"]

log = logging.getLogger("carcnet.net")

#: ``want``s a connection may send in a row with nothing new to answer them with (wire.md §4.4) before
#: it is closed ``forbidden``: a peer answers one ``want`` per ``have``, so that a stranger pipelining
#: ``want`` cannot make it send the whole log again and again.
MAX_IGNORED_WANTS = 32

#: Seconds between two votes of this peer's seats (wire.md §5.9): a vote covers its whole prefix, so
#: entries that follow each other faster are voted for together.
VOTE_EVERY = 0.2
#: Seconds between two ``want``s of this peer to one link for another branch's entries (wire.md §5.9).
ASK_EVERY = 1.0

#: What a session's listener is told changed (see :meth:`~carcnet.net.sync.SyncSession.add_listener`):
#: the ``"header"`` taken, an ``"entry"`` appended (one call per batch), a link ``"open"``/``"close"``,
#: ``"peer"`` news (an address learned, a heartbeat's presence, a clock), ``"stop"`` (a desync),
#: ``"lobby"``, ``"chat"``, ``"commit"`` (the commit index grew, wire.md §5.9), ``"aside"`` (entries
#: set aside for committed ones: :attr:`~carcnet.net.replica.Replica.aside`), ``"gives"`` (votes given
#: came, §5.9: kept beside the save), ``"meet"`` (an introduction taken, §4.12:
#: :attr:`Router.hints`).
SessionChange = Literal["header", "entry", "open", "close", "peer", "stop", "lobby", "chat", "commit", "aside",
                        "gives", "meet"]
#: A listener of a session: called with what changed and the link it came on (``None``: from here).
Listener = Callable[[SessionChange, Link | None], None]


class Router:
    """The session's working half: the rooms, and what to do with each connection event.

    Args:
        game: The game id.
        name: This peer's name.
        role: ``"player"`` or ``"spectator"``.
        identity: This peer's identity key.
        replica: The log.
        seats: Seat → key of the seats this peer holds keys for (shared with the session).
        listeners: The session's listeners (shared with the session).
        lobby: The lobby, while the game has not started here.
        clock: Seconds, monotonic (event log, lobby timers, budgets).
        wall_clock: Seconds since 1970-01-01 UTC (heartbeats' and chat lines' informative times).

    Attributes:
        connections: The links (:class:`~carcnet.net.connections.Connections`), whose owner this is.
        draws: This peer's part in the table's draws.
        chat: The table talk.
    """

    def __init__(
        self,
        *,
        game: str,
        name: str,
        role: Role,
        identity: SeatKey,
        replica: Replica,
        seats: dict[int, SeatKey],
        listeners: list[Listener],
        lobby: LobbyRole | None,
        clock: Callable[[], float],
        wall_clock: Callable[[], float],
    ) -> None:
        self.game_id = game
        self.name = name
        self.role: Role = role
        self.identity = identity
        self.replica = replica
        self.seats = seats
        self.listeners = listeners
        self.lobby = lobby
        self.clock = clock
        self.wall_clock = wall_clock
        self.connections = Connections(game=game, identity=identity, name=name, clock=clock, owner=self)
        self.draws = DrawValues()
        self.witness = Witness()  # what this peer saw of the others (wire.md §5.6, §5.9)
        if role == "player":  # wire.md §5.6 "What the others check": a handover is judged on what this peer saw
            replica.vet = lambda game, move: self.witness.vet(game, move, self.draws, self.clock(), self.plays,
                                                              self.connections, replica.header, self.seats)
        self.chat = ChatRoom()
        self.hints = Hints()
        self._voted_at = -VOTE_EVERY  # when this peer's seats last voted (wire.md §5.9) …
        self._vote_due = True  # … whether the log's end waits for its vote (a resumed log's does), and
        self._voted_partings: set[int] = set()  # … where other branches parted from the log at its last vote
        #: The seats' banks of the turn clock this peer's heartbeats carry (wire.md §5.8), said by its
        #: table with the ``have`` they are the banks at: carried only while the log is at that ``have``.
        self.banks: tuple[int, tuple[int, ...]] = (0, ())
        #: The seats this peer's person lets a bot play, asking the taker (wire.md §5.6 "Who makes the
        #: handover"), said by its table: carried with every heartbeat.
        self.asks: tuple[int, ...] = ()

    # ------------------------------------------------------------------ state

    @property
    def in_lobby(self) -> bool:
        """Whether the lobby is on: this peer has a lobby and no header yet."""
        return self.lobby is not None and self.replica.header is None

    @property
    def wire_role(self) -> Role:
        """The role this peer declares in a new connection's handshake (wire.md §3.2): the lobby's
        while it lasts (``"host"`` for the table's holder), else :attr:`role`."""
        return self.lobby.wire_role if self.lobby is not None and self.replica.header is None else self.role

    def plays(self, seat: int) -> bool:
        """Whether this peer makes *seat*'s moves: it holds the seat's key, or the key of the seat that
        took it over with a ``handover`` (``carcnet.engine.HandOver``)."""
        game = self.replica.game
        return game is not None and game.signer(seat) in self.seats

    def changed(self, change: SessionChange, link: Link | None) -> None:
        """Tells every listener (:data:`SessionChange`)."""
        for listener in list(self.listeners):
            listener(change, link)

    # ------------------------------------------------------------------ the game starting here

    def take_header(self, header: WireHeader, seal: Seal | None = None) -> None:
        """Takes the game's header into the replica (wire.md §5.4), with its host's *seal* when it
        checks (§4.2), and tells the connections and the listeners.

        Raises:
            ProtocolError: The header is refused; nothing changed.
        """
        self.replica.take_header(header)
        self.replica.take_seal(seal)
        self.connections.started(header, self.replica.sealer)
        self.changed("header", None)

    def begin(self, header: WireHeader, seats: Mapping[int, SeatKey], *, told: Iterable[Link] = (),
              seal: Seal | None = None) -> None:
        """Starts the game the lobby agreed on (see :meth:`~carcnet.net.sync.SyncSession.begin`).

        Raises:
            ProtocolError: The header is refused, or a second, different one; nothing changed.
            ValueError: A seat key that is not the header's.
        """
        if seats and self.role != "player":
            raise ValueError("a spectator plays no seat")
        for seat, key in seats.items():
            if not 0 <= seat < len(header.keys) or header.keys[seat] != key.public:
                raise ValueError(f"that is not the key of seat {seat} in this game's header")
        held = self.replica.header
        if held is not None:
            if header.fingerprint != held.fingerprint:
                raise ProtocolError("desync", "a second, different header for this game")
            if self.replica.take_seal(seal):
                self.connections.started(held, self.replica.sealer)
            return
        self.take_header(header, seal)
        for seat, key in seats.items():
            self.seats[seat] = key
        self.apply_lobby(passed := passed_start(self.connections.open_links(), header, seal))  # §4.6: spectators
        for link in (*told, *(send.link for send in passed)):
            link.peer_holds(header=True)
        self.connections.tell_all()
        self.draw_step()

    def apply_lobby(self, actions: Iterable[LobbyAction]) -> None:
        """Carries out, in order, what a lobby call returned (see
        :meth:`~carcnet.net.sync.SyncSession.apply_lobby`).

        Raises:
            ProtocolError: A ``Begin`` without a source whose header is refused.
            ValueError: A ``Begin`` whose seat keys are not the header's.
        """
        for action in actions:
            if isinstance(action, Send):
                action.link.send(action.message)
            elif isinstance(action, Refuse):
                self.connections.refuse(action.link, action.code, action.message, action.seq)
            elif isinstance(action, Begin):
                try:
                    self.begin(action.header, action.seats, told=action.told, seal=action.seal)
                except ProtocolError as exc:
                    if action.source is None:
                        raise
                    self.connections.refuse(action.source, exc.code, exc.message, exc.seq)
            else:
                self.changed("lobby", None)

    # ------------------------------------------------------------------ for the connections

    def deliver(self, link: Link, event: ConnectionEvent | ClaimsDue) -> None:
        """Routes one event of *link*'s connection to its handler: the dispatch table :data:`ROUTES`,
        by the event's type."""
        if not isinstance(event, ClaimsDue):
            link.last_heard = self.clock()  # anything it sends shows it is there (wire.md §5.7)
        route = ROUTES.get(type(event))
        if route is not None:
            route(self, link, event)

    def lost(self, link: Link) -> None:
        """*link* is gone: the other players hear of it (presence, wire.md §4.5), the lobby too."""
        if link.opened and link.role != "spectator" and not self.connections.closing:
            self.connections.tell_all(link)
        if self.in_lobby and link.opened:
            assert self.lobby is not None
            self.apply_lobby(self.lobby.on_close(link, links=self.connections.open_links()))
        self.changed("close", link)

    def heartbeat(self) -> Heartbeat:
        """This peer's ``heartbeat`` now (wire.md §4.5): what it holds, the players it is connected to
        (:meth:`Connections.sees`), the seats it plays."""
        game = self.replica.game
        keys = self.connections.sees()
        seats = tuple(sorted(self.seats)) if game is None else tuple(s for s in range(game.players) if self.plays(s))
        at, banks = self.banks
        return Heartbeat(have=self.replica.have, digest=game.digest if game is not None else None,
                         time=int(self.wall_clock() * 1000), sees=tuple(sorted(keys))[:MAX_PEERS], seats=seats,
                         banks=banks if game is not None and at == self.replica.have else (),
                         asks=self.asks if game is not None else ())

    def beside_heartbeat(self, link: Link) -> tuple[Message, ...]:
        """With each heartbeat a player passes on the votes it holds (wire.md §5.9: they reach peers with
        no link to the voter; a peer on another branch learns that this one is committed) and its values
        of the draw the table waits for (§5.7): :mod:`carcnet.net.gossip`. A log that stopped growing
        votes here where another branch parts from it."""
        if self._vote_due or self.replica.partings != self._voted_partings:
            self.log_changed(now=True)
        if self.role != "player":
            return ()
        return (*votes_to_pass(self.replica, link, again=True), *draw_values(self.draws, self.replica, self.seats, link))

    def addresses_changed(self) -> None:
        """The address book learned something: listeners hear ``"peer"`` (a player peer dials it), and
        the peers hear where the players listen now (:meth:`Hints.tell`, wire.md §4.10)."""
        self.changed("peer", None)
        self.hints.tell(self.role, self.connections)

    def _on_peers(self, link: Link, peers: Peers) -> None:
        """wire.md §4.10: :meth:`Hints.take_peers`, the host being the one this peer sat down with."""
        host = getattr(self.lobby, "host_key", None) if self.replica.header is None else None
        self.hints.take_peers(link, peers, role=self.role, host=host, connections=self.connections)

    def _on_meet(self, link: Link, meet: Meet) -> None:
        """wire.md §4.12: an introduction, for the table above (:attr:`hints`, ``"meet"``)."""
        if self.hints.take_meet(link, meet, role=self.role, connections=self.connections):
            self.changed("meet", link)

    # ------------------------------------------------------------------ the handshake (wire.md §3–§4.2)

    def _on_hello(self, link: Link, hello: Hello) -> None:
        connections = self.connections
        duplicate = connections.duplicate_hello(hello)
        if duplicate is not None:
            connections.reject(link, "duplicate", duplicate)
            return
        refusal = self.lobby.admit(hello.role, hello.key) if self.in_lobby and self.lobby else None
        if refusal is not None:
            connections.reject(link, *refusal)
            return
        header, game = self.replica.header, self.replica.game
        link.send(
            Welcome(
                game=self.game_id,
                role=self.wire_role,
                name=self.name,
                key=self.identity.public,
                have=self.replica.have,
                digest=game.digest if game is not None else None,
                header=header,
                seal=self.replica.seal if header is not None else None,
                peers=connections.welcome_peers(hello.key),
            )
        )
        link.welcomed_with_header = header is not None

    def _on_proven(self, link: Link, proven: Proven) -> None:
        """The connector proved its key (wire.md §3.4): from here what its hello said counts. (On the
        connector's side the ``Welcome`` event that follows opens the link.)"""
        if link.conn.initiator:
            return
        # wire.md §4.1: a player that listens says on which port; with the address it dialed from,
        # this peer can list it in its own welcomes (done now that the link is open, so that the
        # "peer" change does not make the transport dial a peer it is connected to).
        # wire.md §4.2: only the address of a player proven to sit at the table is kept (a seat key of
        # the header; before the start, one the host seated; a peer that runs a seat under another key
        # once the table judged its claim)
        self.connections.confirm(link)
        self._opened(link, sent_header=link.welcomed_with_header)

    def _on_welcome(self, link: Link, welcome: Welcome) -> None:
        connections = self.connections
        if welcome.key == self.identity.public:
            connections.close_link(link, "duplicate")
            return
        if welcome.header is not None:
            held = self.replica.header
            if held is None:
                try:
                    if self.lobby is not None:  # a spectator takes only a sealed header (wire.md §5.4)
                        self.lobby.judge_header(welcome.header, welcome.seal)
                    self.take_header(welcome.header, welcome.seal)
                except ProtocolError as exc:
                    connections.refuse(link, exc.code, exc.message, exc.seq)
                    return
            elif welcome.header.fingerprint != held.fingerprint:
                connections.refuse(link, "desync", "the peer's header of this game differs from ours", 0)
                return
            else:
                if self.replica.take_seal(welcome.seal):  # one this peer lacked (a save of before the seal)
                    connections.started(held, self.replica.sealer)
        if link.address is not None:
            # wire.md §4.2: whoever the book said listens there, the key that proved itself does
            connections.forget(link.address)
            if welcome.role != "spectator":
                connections.add_known(PeerInfo(welcome.key, welcome.name, *link.address), confirmed=True)
        for info in welcome.peers:
            connections.add_known(info)
        self._opened(link, sent_header=False)

    def _opened(self, link: Link, *, sent_header: bool) -> None:
        if not self.connections.opened(link, sent_header=sent_header):
            return  # a second connection to the same peer, closed
        peer = link.peer
        assert peer is not None
        header = self.replica.header
        if (
            header is not None and not link.peer_has_header and header.commits is not None
            and link.conn.our_role == "host" and link.role != "host"
        ):
            # the game started while this peer's proof was on its way (welcomed in the lobby, opened
            # after the start): the host gives it the start it would have had (wire.md §4.6)
            link.send(Start(header=header, seal=self.replica.seal))
            link.peer_holds(header=True)
        self.changed("open", link)
        if link.role != "spectator" or self.role == "player":
            self.connections.tell_all(link)  # the newcomer at once; everyone if it sits at the table
        if self.in_lobby:
            assert self.lobby is not None
            self.apply_lobby(self.lobby.on_open(link))
        game = self.replica.game
        if game is None:
            return
        lack = self._compare(link, peer.have, peer.digest)
        if lack is not None and lack > 0 and link.peer_has_header:
            self.send_from(peer.have + 1, link)
            link.want_answered_at = self.replica.have  # the catch-up answers a want of the same range (§4.4)
            link.want_answered_from = peer.have + 1
        if lack is not None and link.role != "spectator" and not self.replica.stopped:
            for reveal in self.draws.values_held(game, self.seats):
                send_once(reveal, [link])

    # ------------------------------------------------------------------ the log (wire.md §4.4, §5.5)

    def _compare(self, link: Link, have: int, digest: bytes | None) -> int | None:
        """How many entries the peer of *link* lacks (negative: holds more) by the ``have`` and
        ``digest`` it claims (a handshake or a heartbeat), or ``None`` after a mismatch: a draw racing a
        handover (wire.md §5.7: ours is sent, or theirs asked for), and in any case the votes passed and
        the other branch asked for (§5.9, :meth:`_other_branch`): an unsigned claim proves nothing and
        never stops the game or closes the link."""
        game = self.replica.game
        assert game is not None
        try:
            lack = compare_have(game.digests, have, digest)
        except ProtocolError as exc:
            # §5.9: its log parts from ours: relay it nothing until they agree
            link.peer_holds(parted=exc.seq or 1)
            answer = self.replica.race_answer(exc.seq)
            if answer == "send" and exc.seq is not None:
                link.peer_holds(exc.seq - 1, "exactly", header=True)
                self.send_from(exc.seq, link)
            elif answer == "want" and exc.seq is not None and link.role != "spectator":
                self._ask_branch(link, exc.seq)
            # §5.9: whichever branch the votes commit wins, a draw's race with a handover included
            self._other_branch(link)
            return None
        if digest is not None and have <= len(game.digests) - 1:
            link.peer_holds(parted=0)  # it holds a prefix of ours: what it lacks can be relayed
        return lack

    def _other_branch(self, link: Link) -> None:
        """The peer of *link* holds another branch of the log (its digest differs at a seq both hold):
        not proof of anything (an unsigned claim) and, under the commit rule, what a healed split looks
        like (wire.md §5.9). Pass it the votes held, and if this log has pending entries, ask it for
        its entries from the commit index on: the branch the votes commit replaces the other. Once per
        link until this peer's log or votes change."""
        replica = self.replica
        votes = replica.votes
        if votes is None:
            return
        for message in votes_to_pass(self.replica, link) if self.role == "player" else ():  # the newest votes, the certificate, the first ones
            link.send(message)
        if link.role != "spectator" and replica.commit_index < replica.have:
            self._ask_branch(link, replica.commit_index + 1)

    def _ask_branch(self, link: Link, start: int) -> None:
        """Sends *link* ``want`` from *start*, at most once every :data:`ASK_EVERY` seconds per link,
        and not the same question again while neither this peer's log nor the peer's ``have`` changed
        (wire.md §4.4, §5.9: the peer answers one ``want`` per entry it holds; votes need no asking)."""
        now = self.clock()
        asked = (start, self.replica.have, link.heard_have)
        if link.asked == asked or (link.branch_asked is not None and now - link.branch_asked < ASK_EVERY):
            return  # the same question, nothing new on either side, or asked a moment ago
        link.branch_asked, link.asked = now, asked
        link.send(Want(from_seq=start))

    def _on_entries(self, link: Link, message: Entries) -> None:
        replica = self.replica
        if replica.game is None or replica.header is None:
            self.connections.refuse(link, "unexpected-message", "entries before this peer holds the header")
            return
        if replica.stopped or not message.entries:
            return
        # §5.9: a peer that said it holds more than this log (its want lowers only what we believe it holds),
        # at a digest we cannot compare, may hold another branch: what does not follow is asked about
        said = max(link.peer_have, link.heard_have, link.peer.have if link.peer is not None else 0)
        ahead = said > replica.have
        link.peer_holds(message.entries[-1].seq)
        with self.witness.taking(link):  # (a handover of a seat played here is judged by its link, §5.6)
            taken = replica.take(message.entries, message.from_seq, parted=bool(link.parted) or ahead,
                                 source=link.key or b"")
        if taken.parted:
            # §5.9: its log parts from ours: relay it nothing until they agree
            link.peer_holds(parted=taken.parted)
        if link.repeated(message.from_seq, message.entries[-1].seq, new=taken.appended > 0 or not taken.held_all):
            self.connections.over_budget(link, f"more than {HELD_REPEATS} entries messages in a row that "
                                         "repeat entries it sent already")  # wire.md §4.3 budget
            return
        if taken.took_back is not None:
            for other in self.connections.links:  # they may hold the draw taken back: send them the handover
                other.peer_holds(taken.took_back - 1, "at-most")
        if taken.stop is not None:
            stop = taken.stop
            self.stop(link, stop.code, stop.theirs, stop.ours, stop.message)
        if taken.refusal is not None:
            self.connections.refuse(link, *taken.refusal)
        if taken.want is not None and link.role != "spectator":
            self._ask_branch(link, taken.want)  # the answer overlaps this log: it shows where they part
        if taken.held_all:
            link.held_upto(message.entries[-1].seq)  # every entry of it is held now
        if taken.appended or taken.set_aside is not None:
            _settled(self, link, taken)
        elif replica.passed_over == replica.vote_seq:
            self.log_changed()  # a handover passed over for the draw held: the seats vote for the draw (§5.6)

    def _on_want(self, link: Link, want: Want) -> None:
        have = self.replica.have
        if self.replica.game is None:
            self.connections.refuse(link, "unexpected-message", "want before this peer holds the header")
            return
        if self.role == "spectator":
            return  # a spectator sends no entries (wire.md §3.3); the asker will find another peer
        link.peer_holds(header=True)  # it asks for entries: it holds the header
        # wire.md §4.4: one answer per entry held, and one more that reaches further back (a peer
        # whose votes now show where another branch parts from its log, §5.9)
        reach_back = (link.want_answered_at == have and want.from_seq < link.want_answered_from
                      and link.reached_back != have)
        if link.want_answered_at == have and not reach_back:  # nothing new since the last answer
            link.wants_ignored += 1
            if link.wants_ignored > MAX_IGNORED_WANTS:
                self.connections.over_budget(link, f"more than {MAX_IGNORED_WANTS} wants with nothing new to send")
            return
        if reach_back:
            link.reached_back = have
        link.want_answered_at, link.want_answered_from, link.wants_ignored = have, want.from_seq, 0
        if want.from_seq > have:
            link.send(Entries(from_seq=want.from_seq, entries=()))
            return
        link.peer_holds(want.from_seq - 1, "exactly")
        self.send_from(want.from_seq, link)

    def _on_heartbeat(self, link: Link, beat: Heartbeat) -> None:
        if not self.connections.quiet(link, "heartbeat"):  # wire.md §2.1: a budget of them, before any work
            return
        link.heartbeats += 1
        link.last_heartbeat = self.clock()
        link.heard_have = beat.have
        link.banks = (beat.have, beat.banks)
        # wire.md §4.5: a spectator's claims count for nothing; a player's are judged by the table, at
        # most at the pace of the link's budget, and lift no budget nor confirm an address by themselves
        if link.role != "spectator" and self.connections.take_claims(link, beat.sees, beat.seats, beat.asks):
            self.changed("peer", link)
        if self.replica.game is None:
            return
        lack = self._compare(link, beat.have, beat.digest)
        if lack is None or beat.digest is None:
            return
        link.peer_holds(beat.have, header=True)
        if lack >= 0 and self.witness.vote_withheld(link, self.replica, self.seats, self.clock(), self.connections):
            self.changed("commit", link)
        if lack > 0:
            self.send_from(link.peer_have + 1, link)
        elif lack < 0 and link.role != "spectator":
            # after our last entry, or after the commit index when votes could commit another branch
            # where ours are pending: the answer then overlaps them and shows where they part (§5.9)
            replica = self.replica
            self._ask_branch(link, replica.commit_index + 1 if replica.elsewhere() else replica.have + 1)

    def _on_error(self, link: Link, error: Error) -> None:
        """An ``error`` that left the connection open: ``bad-seq`` (the peer holds ``seq - 1``: send
        it everything from ``seq``), or a refusal the lobby answers."""
        if not self.connections.quiet(link, "error"):  # it changes nothing here: a budget of them (§2.1)
            return
        self.connections.record("received", error.code, error.message, error.seq, link)
        if error.code == "bad-seq" and error.seq is not None:
            if 1 <= error.seq <= self.replica.have and not link.parted:  # answered as a want, under its budget
                self._on_want(link, Want(from_seq=error.seq))  # (§4.4: one answer per entry held)
        elif self.in_lobby and link.conn.state is not State.CLOSED:
            assert self.lobby is not None
            self.apply_lobby(self.lobby.on_error(link, error))

    def relay(self, source: Link | None) -> None:
        """Sends what each other link's peer lacks (wire.md §5.5 "Relaying"); spectators relay nothing.
        Links that lack the same entries share one encoded frame."""
        if self.role == "spectator":
            return
        have = self.replica.have
        lacking: dict[int, list[Link]] = {}
        for link in self.connections.links:
            if link is not source and link.is_open and link.peer_has_header and link.peer_have < have and not link.parted:
                lacking.setdefault(link.peer_have + 1, []).append(link)
        for start, links in lacking.items():
            self.send_from(start, *links)

    def log_changed(self, *, now: bool = False) -> None:
        """This peer's log has a new end: its seats vote for it (wire.md §5.9), on every open link, and
        the listeners hear ``"commit"`` when the commit index grew. At most once every :data:`VOTE_EVERY`
        seconds unless *now* or alone (no heartbeat would carry it): a vote covers the whole prefix, so a
        burst needs only its last entry voted for; the vote due goes with the next change or heartbeat."""
        clock = self.clock()
        self.witness.log_end(self.replica, clock)
        if not now and clock - self._voted_at < VOTE_EVERY and not self.replica.over and self.connections.links:
            self._vote_due = True
            return
        self._vote_due, self._voted_at = False, clock
        self._voted_partings = set(self.replica.partings)
        before = self.replica.commit_index
        for ack in (cast := self.replica.vote(self.seats)):
            send_once(ack, self.connections.open_links())
        if self.replica.commit_index > before:
            self.changed("commit", None)
        if cast and (retried := self.replica.retry_branch()) is not None:
            _settled(self, None, retried)  # its own vote may be the last the tie-break waited for

    def _on_ack(self, link: Link, ack: Ack) -> None:
        """wire.md §5.9: seats' votes, each checked once against the seat's key (one that does not
        verify is ``bad-signature``). News may commit entries, or show that another branch could be
        committed where this log's entries are pending: its entries are asked for."""
        replica = self.replica
        if replica.header is None:
            self.connections.refuse(link, "unexpected-message", "ack before this peer holds the header")
            return
        before = replica.commit_index
        news, bad = replica.take_votes(ack.votes, ack.gives)
        if bad:
            self.connections.refuse(link, "bad-signature", "a vote not signed by its seat's key")
            return
        if took_our_branch(replica, link, ack.votes, news):
            link.peer_holds(parted=0)
        if not news:
            self.connections.quiet(link, "ack", seated_free=True)  # votes held, or stale: nothing new (§4.11)
            return
        if replica.commit_index > before:
            self.changed("commit", link)
        if ack.gives:
            self._vote_due = True  # a vote given may be this peer's to cast now, its log unchanged (§5.9)
            self.changed("gives", link)
        retried = replica.retry_branch()  # a batch ignored for want of these votes may be committed now
        if retried is not None:
            _settled(self, link, retried)
        elif replica.elsewhere():
            self._other_branch(link)

    def send_from(self, start: int, *links: Link) -> None:
        """Sends every entry from seq *start* on to *links*, at most 256 per message."""
        if self.role == "spectator":
            return
        have = self.replica.have
        for message in small_batches(self.replica.batches(start)):
            last = message.entries[-1].seq
            frame: bytes | None = None
            for link in links:
                if not link.is_open:
                    continue
                if frame is None:
                    # encoded once for every open link (no connection's state changes with an
                    # ``entries`` frame) and kept for the next newcomer's catch-up
                    frame = self.connections.entries_frame(link, message)
                    self.connections.seen.add(frame, last)
                link.queue(frame)
        for link in links:
            link.peer_holds(have)

    def stop(self, link: Link, code: str, theirs: SignedEntry, ours: SignedEntry | None, text: str) -> None:
        """The logs parted (wire.md §5.5 "What stops a game"): the game stops here, with a
        :class:`~carcnet.net.replica.Desync` report naming the entry and the peers."""
        report = Desync(code=code, seq=theirs.seq, seat=theirs.entry.seat, peer=link.name, peer_key=link.key or b"",
                        local=self.name, message=text, ours=ours, theirs=theirs)
        self.replica.stop(report)
        self.connections.record("info", "stop", str(report), report.seq, link)
        log.error("%s: game stopped: %s", self.name, report)
        self.changed("stop", link)

    # ------------------------------------------------------------------ table draws, chat, the lobby

    def draw_step(self) -> None:
        """While the game waits for a draw: sends this peer's values for it (once per draw and link),
        and once every contributing seat's value is held, makes the draw (:class:`DrawValues`). A
        tile set aside makes another draw at once: loops."""
        replica = self.replica
        game, header = replica.game, replica.header
        while game is not None and header is not None and not replica.stopped and game.phase is Phase.DRAW:
            step = self.draws.step(game, header, self.seats, self.clock())
            for reveal in step.reveals:  # to the players; spectators get the draw's entry instead
                send_once(reveal, [link for link in self.connections.links if link.role != "spectator"])
            if step.move is None:
                return
            drawer = game.seat  # log.md §6: a draw's entry names the seat whose tile it draws
            try:
                game.apply(step.move)
            except IllegalMoveError as exc:  # values were checked on receipt: a bug, never input
                log.error("%s: the draw %d was refused: %s", self.name, game.next_draw, exc)
                return
            replica.append_draw(step.move, drawer)
            self.relay(None)
            self.changed("entry", None)
            self.log_changed()

    def _on_reveal(self, link: Link, reveal: Reveal) -> None:
        """wire.md §5.7: a chain value for a draw, judged by :meth:`DrawValues.take`; a new one may
        complete the draw."""
        verdict = self.draws.take(reveal, self.replica.game, self.replica.header)
        refuse = self.connections.refuse
        if verdict == "held":
            self.draw_step()
        elif verdict == "no-header":
            refuse(link, "unexpected-message", "reveal before this peer holds the header")
        elif verdict == "seeded":
            refuse(link, "unexpected-message", "reveal in a game whose draws are seeded")
        elif verdict == "bad-reveal":
            refuse(link, "bad-reveal", f"seat {reveal.seat}'s value for draw {reveal.draw} does not match its chain")

    def _on_chat(self, link: Link, chat: ChatMessage) -> None:
        """A line from a player or a spectator (the writer's peer or a relay), judged by the chat room:
        refused ``bad-chat`` (closes), dropped, or kept and passed on to every other link."""
        header = self.replica.header
        if header is None or self.replica.game is None:
            self.connections.refuse(link, "unexpected-message", f"{chat.TYPE} before the header is held here")
            return
        verdict = self.chat.take(chat, header.keys, header.game, self.clock(), self.wall_clock())
        if verdict == "bad-chat":
            self.connections.refuse(link, "bad-chat", unsigned_words(chat))
        elif verdict == "keep":
            send_once(chat, [other for other in self.connections.links if other is not link])
            self.changed("chat", link)
        else:
            self.connections.quiet(link, "chat")  # wire.md §4.9: lines dropped cost the link its budget

    def _on_lobby_message(self, link: Link, message: Lobby | Claim | Commit | Start) -> None:
        """A lobby message: the lobby's while there is no header (wire.md §4.6, §5.3); then a spectator
        that followed the lobby takes a ``start``'s header (§5.4: a seated player's further checks of
        §5.3 belong to the lobby), and the rest is too late (§3.3)."""
        refuse = self.connections.refuse
        if self.in_lobby:
            assert self.lobby is not None
            self.apply_lobby(self.lobby.on_message(link, message, links=self.connections.open_links(),
                                                   now=self.clock()))
            if isinstance(message, Claim) and self.lobby is not None:  # wire.md §4.2: sat down, confirmed
                self.connections.sat_down(self.lobby.seated_keys())
        elif isinstance(message, Claim):  # wire.md §3.3: too late for a seat; the connection stays
            refuse(link, "lobby-locked", "the game has started")
        elif isinstance(message, Start) and self.replica.header is None:
            try:
                self.take_header(message.header)
            except ProtocolError as exc:
                refuse(link, exc.code, exc.message, exc.seq)
                return
            link.peer_holds(header=True)
        elif not (isinstance(message, Start) and self.role == "spectator" and message.header == self.replica.header):
            # wire.md §3.3: once a header is held the lobby is over (a second start included, but a spectator's
            # of its header: the host and a player pass it on, §4.6); claims, commitments are not its business.
            refuse(link, "unexpected-message", f"{type(message).__name__.lower()}: the game has started")


def _settled(router: Router, link: Link | None, taken: Taken) -> None:
    """What follows entries taken from *link*: entries set aside for a committed branch (wire.md §5.9:
    the other links may hold them, so the branch is sent to them; the listeners hear ``"aside"``), then
    new entries relayed, voted for, told, and a draw made if the game waits for one."""
    aside = taken.set_aside
    if aside is not None:
        for other in router.connections.links:
            other.peer_holds(aside.seq - 1, "at-most")
        router.connections.record("info", "aside", f"{len(aside.entries)} entries from seq {aside.seq} set aside "
                                  "for the committed branch", aside.seq, link)
        router.changed("aside", link)
    if taken.appended:
        router.relay(link)
        router.log_changed()
        router.changed("entry", link)
        router.draw_step()


def _notice(router: Router, link: Link, event: Refused | Bye | Reject) -> None:
    router.connections.notice(link, event)


def _closed(router: Router, link: Link, closed: Closed) -> None:  # (the connection closed itself)
    router.connections.drop(link, closed.code)


def _claims_due(router: Router, link: Link, _due: ClaimsDue) -> None:
    """Claims of *link*'s peer kept back by their budget may be judged now (wire.md §4.5)."""
    router.changed("peer", link)


#: The dispatch table of :meth:`Router.deliver`: each event of a connection (a message, or what the
#: connection itself says: refused, proven, closed), by type, to its handler.
ROUTES: dict[type, Callable[[Router, Link, Any], None]] = {
    Refused: _notice,
    Bye: _notice,
    Reject: _notice,
    Closed: _closed,
    ClaimsDue: _claims_due,
    Error: Router._on_error,
    Hello: Router._on_hello,
    Proven: Router._on_proven,
    Welcome: Router._on_welcome,
    Entries: Router._on_entries,
    Want: Router._on_want,
    Heartbeat: Router._on_heartbeat,
    **dict.fromkeys(CHAT_TYPES, Router._on_chat),
    Reveal: Router._on_reveal,
    Lobby: Router._on_lobby_message,
    Claim: Router._on_lobby_message,
    Commit: Router._on_lobby_message,
    Start: Router._on_lobby_message,
    Peers: Router._on_peers,
    Ack: Router._on_ack,
    Meet: Router._on_meet,
}
