"""Provides :class:`NetView`: a network game as this peer's session holds it, read as a
:class:`~carcnet.table.base.Table`.

What a :class:`~carcnet.net.sync.SyncSession` tells of the game (its seats, lobby and status, who
plays which seat, who is present: wire.md §4.5, §5.6, §5.7, the turn clock and the table talk), and
what is done through it alone (a move, a line of talk, the opener's start). Presence is asked of a
:class:`~carcnet.net.presence.PresenceSnapshot` taken on each question. Running the game (sockets,
discovery, bots, the log on disk, handovers) is :class:`~carcnet.table.lan.NetTable`'s, built on this.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from carcnet.engine import Game, Move, Phase
from carcnet.i18n import _
from carcnet.log import Seat
from carcnet.net.link import Link
from carcnet.net.lobby import Hosting, Seating, Watching
from carcnet.net.messages import Lobby, WireHeader
from carcnet.net.presence import LinkView, PresenceRecords, PresenceSnapshot
from carcnet.net.sync import Desync, SessionChange, SyncError, SyncSession

from .base import Status, Table, TableError, TalkLine
from .clock import SeatClocks, TurnClock

__all__ = ["NetKind", "NetView"]

#: What a peer is at a network table.
NetKind = Literal["host", "player", "spectator"]


class NetView(Table):
    """A network game as this peer's session holds it: reading it, and acting through the session.

    Args:
        session: The game's session (with its lobby, if any).
        kind: What this peer is at the table.
        bot_delay: Seconds this peer's bots wait before each turn, so that people can follow.
        bot_names: Seat → bot name for the seats this peer's bots play (host bots, ``carcnet bot``).
        reveal_wait: Seconds a seat's value for a draw may be missing before the seat counts as away
            (wire.md §5.7 "Withholding").

    Attributes:
        session: The :class:`SyncSession`.
        game_id: The game id.
        bot_names: Seat → the bot this peer plays it with.
        reveal_wait: As above; may be changed at any time.
        records: What this peer remembers of the table's peers (:class:`PresenceRecords`).
        clocks: The turn clock as this laptop measures it (:mod:`carcnet.table.clock`), once the game
            has started at a table that plays with one.
    """

    def __init__(self, session: SyncSession, kind: NetKind, *, bot_delay: float,
                 bot_names: dict[int, str] | None, reveal_wait: float) -> None:
        super().__init__(kind, bot_delay=bot_delay)
        self.session = session
        self.game_id = session.game_id
        self.log_name = session.name
        self.bot_names: dict[int, str] = dict(bot_names or {})
        self.reveal_wait = reveal_wait
        #: Seconds in which a peer that is there is heard from (1.5 × the heartbeat of wire.md §2.1):
        #: a seat is judged withholding only while most of the table was heard from within them (§5.7).
        self.fresh = 7.5
        # a handover of a seat while the table draws is taken here once its value has been missing for
        # half that wait (wire.md §5.7): room for two laptops beginning to wait at different moments
        session.draws.wait = min(session.draws.wait, reveal_wait / 2)
        self.records = PresenceRecords(since=session.clock())
        # the protocol's account of a line told to people: the connection log (an ``info`` event of
        # code ``note``), so the events file beside the save, a bug report and ``--verbose`` hold it
        self.details = lambda line, account: session.connections.record(
            "info", "note", f"{account} (told: {line})", None, None)
        session.add_listener(self._judge_claims)
        self.clocks: SeatClocks | None = None
        #: A resumed game's turn clock, from its keys file (the lobby's is gone).
        self._saved_clock: TurnClock | None = None
        self._path: Path | None = None

    # ------------------------------------------------------------------ the game

    @property
    def header(self) -> WireHeader | None:
        return self.session.header

    @property
    def game(self) -> Game | None:
        return self.session.game

    @property
    def seats(self) -> tuple[Seat, ...]:
        header = self.session.header
        return header.header.seats if header is not None else ()

    @property
    def path(self) -> Path | None:
        """The log file once the game has started here."""
        return self._path

    @property
    def to_play(self) -> int | None:
        return self.session.to_play

    @property
    def desync(self) -> Desync | None:
        return self.session.desync

    @property
    def hosting(self) -> Hosting | None:
        """The table's lobby as held by the peer that opened it (``None`` elsewhere)."""
        lobby = self.session.lobby
        return lobby if isinstance(lobby, Hosting) else None

    @property
    def lobby(self) -> Lobby | None:
        """The table as last known: the host's own, or the host's last ``lobby`` message."""
        role = self.session.lobby
        if isinstance(role, Hosting):
            return role.lobby
        if isinstance(role, Seating | Watching):
            return role.lobby
        return None

    def lobby_seats(self) -> set[int]:
        """The seats of the lobby this peer plays (its person's and its bots'), before the start."""
        role = self.session.lobby
        if isinstance(role, Hosting):
            return set(role.own)
        if isinstance(role, Seating) and role.seat is not None:
            return {role.seat}
        return set()

    @property
    def lobby_problem(self) -> str | None:
        """Why this peer has no seat at the table (the host's answer to its claim), or ``None``."""
        return getattr(self.session.lobby, "problem", None)

    @property
    def status(self) -> Status:
        s = self.session
        if s.stopped:
            return "stopped"
        if s.over:
            return "finished"
        if s.header is not None:
            return "playing"
        if self.lobby is not None:
            return "lobby"
        return "connecting"

    @property
    def my_seats(self) -> list[int]:
        """The seats this peer plays (a person's, its bots', and seats handed over to its bots)."""
        header = self.session.header
        if header is None:
            return sorted(self.session.seats)
        return [s for s in range(len(header.keys)) if self.session.plays(s)]

    @property
    def human_seats(self) -> list[int]:
        """The seats played by a person at this terminal."""
        return [s for s in self.my_seats if s not in self.bot_names]

    @property
    def clock(self) -> TurnClock | None:
        """The turn clock the table agreed on in its lobby (wire.md §4.6), or ``None``."""
        lobby = self.lobby
        if lobby is not None and lobby.clock is not None:
            return TurnClock(*lobby.clock)
        return self._saved_clock

    def seat_clock(self, seat: int) -> str | None:
        clocks = self.clocks
        return clocks.describe(seat, self.session.clock()) if clocks is not None else None

    # ------------------------------------------------------------------ presence

    def presence(self) -> PresenceSnapshot:
        """The table's presence as this peer knows it now (:class:`PresenceSnapshot`): its session, its
        open links and what :attr:`records` remembers."""
        session, records = self.session, self.records
        header, game = session.header, session.game
        me = session.identity.public
        # the table's host, proven: this peer; the key that sealed the header; the host this peer sat
        # down with; else who records say (wire.md §4.5). A link that calls itself host proves nothing.
        seal = session.replica.seal
        host = me if self.kind == "host" else (seal.key if seal is not None else None) or getattr(
            session.lobby, "host_key", None) or records.host
        links = tuple(LinkView(link.key, link.role, link.sees, link.last_heartbeat, link.last_heard, link.asks)
                      for link in session.connections.open_links())
        if header is None or game is None:
            return PresenceSnapshot(me=me, links=links, host=host, left=frozenset(records.left),
                                    gave_up=frozenset(records.gave_up),
                                    seen=frozenset(records.seen), waiting=session.draws.waiting,
                                    missing=tuple(session.missing()), reveal_wait=self.reveal_wait)
        seats = range(len(header.keys))
        draws = header.header.draws is not None and game.phase is not Phase.GAME_OVER
        return PresenceSnapshot(
            me=me,
            keys=tuple(header.keys),
            bot_seats=frozenset(s for s, seat in enumerate(header.header.seats) if seat.player == "bot"),
            signers=tuple(game.signer(s) for s in seats),
            handovers=tuple(h.bot if h is not None else None for h in game.handovers),
            plays=frozenset(s for s in seats if session.plays(s)),
            own=frozenset(session.seats),
            links=links,
            host=host,
            runners=dict(records.runners),
            owners=dict(records.owners),
            withheld=dict(records.withheld),
            handed=dict(records.handed),
            left=frozenset(records.left),
            gave_up=frozenset(records.gave_up),
            seen=frozenset(records.seen),
            contributors=tuple(game.contributors()) if draws else None,
            drawing=game.next_draw if game.phase is Phase.DRAW else None,
            waiting=session.draws.waiting,
            missing=tuple(session.missing()),
            reveal_wait=self.reveal_wait,
            fresh=self.fresh,
            to_play=session.to_play,
            placing=game.phase is Phase.PLACE_TILE,
            turn=game.seat if game.phase in (Phase.PLACE_TILE, Phase.DRAW) else None,
            tie=session.replica.votes.tie.order if session.replica.votes and session.replica.votes.tie else None,
            view=records.view,
            since=records.since,
            heard_at=records.heard_at,
        )

    def heard(self, link: Link | None) -> bool:
        """A player's heartbeat said which seats it plays (wire.md §4.5): the seats it can play are
        believed (its runner, and for seats not handed over, their owner, §5.6), the rest dropped and
        counted (:meth:`PresenceRecords.take_claim`); a peer believed to play a seat is proven to sit at
        the table for its budgets and address (:meth:`~carcnet.net.connections.Connections.judged`). A
        spectator's claims count for nothing: it plays no seat. Returns whether the runners changed
        (worth saving, should this laptop restart)."""
        if link is None or link.key is None or link.role in (None, "spectator"):
            return False
        records = self.records
        if self.session.game is None:
            return False  # nothing to judge a claim by yet; the header's arrival judges the claims held
        before = dict(records.runners)
        dropped = records.take_claim(self.presence(), link.key, link.seats)
        self.session.connections.judged(link, [seat for seat in link.seats if seat not in dropped])
        return records.runners != before

    def _judge_claims(self, change: SessionChange, _link: Link | None) -> None:
        """The game began here: the claims that came before it are judged now (:meth:`heard`). And what
        the players at the table say of its presence is kept as it changes (a heartbeat's claims, a link
        opened or closed, the game begun): a spectator shows it while it hears none of them, and nobody
        is away before this peer first heard it (:meth:`PresenceRecords.heard_table`, wire.md §4.5)."""
        if change == "header":
            for link in self.session.connections.open_links():
                self.heard(link)
        if change in ("header", "open", "close", "peer") and self.session.game is not None:
            self.records.heard_table(self.presence(), self.session.clock())

    def withholding(self) -> list[int]:
        """The seats whose value for the draw the table waits for has been missing for
        :attr:`reveal_wait` seconds since this laptop began waiting for the draw, whatever their links
        say (wire.md §5.7): the table treats them as away. Never a seat played here."""
        return self.presence().withholding(self.session.clock())

    def away(self) -> list[int]:
        """The seats whose player no peer at the table is in touch with now: the table's presence, not
        one connection's (wire.md §4.5); and the seats that withhold their draw value (:meth:`withholding`).
        A seat's runner is the peer whose heartbeat says it plays the seat, else the peer whose identity
        is the seat's key (a player's seat key is its identity, §3.1); it is present when it is this
        peer, is connected to this peer, or is seen by a peer this peer is connected to. A bot of the
        host's that no heartbeat has placed yet counts as present while any player is connected. Seats
        played here, and those whose key this peer holds, are never away; nor is anyone before this
        peer has heard what the table says (a spectator keeps what it last heard while it hears no
        player: :meth:`PresenceSnapshot.away`)."""
        return self.presence().away(self.session.clock())

    def draw_waits_for(self) -> list[int]:
        return self.session.missing()

    def draws_known_to(self) -> str | None:
        """The name of the one peer that plays every seat still contributing to the draws (so knows
        every value of every future draw: deck.md §5.3), or ``None`` when two or more peers
        contribute, or in a game without table draws. A seat's peer is
        :meth:`PresenceSnapshot.runner`'s; a bot of the host's not placed yet counts as the host's."""
        header = self.session.header
        if header is None or header.header.draws is None:
            return None  # no table draws: nothing to ask
        known = self.presence().draws_known_to()
        if known is None:
            return None
        runner, seat = known
        if runner == self.session.identity.public:
            return "you"
        names = {link.key: link.name for link in self.session.connections.links if link.key is not None}
        return names.get(runner) or header.header.seats[seat].name

    def blocking(self) -> list[int]:
        """The seats the game waits for now: the seat to play, or while the table draws, the seats
        whose value is missing (wire.md §5.7)."""
        seat = self.to_play
        return [seat] if seat is not None else self.session.missing()

    def seat_to_hand_over(self) -> int | None:
        """A seat the game waits for that this laptop may give to a bot (wire.md §5.6 "Which seats"):
        at its turn, one whose player is away; while the table draws, one withholding its value past
        the wait; never a present seat (:meth:`PresenceSnapshot.handover_refusal`). Else ``None``."""
        if self.spectating:
            return None
        presence, now = self.presence(), self.session.clock()
        return next((seat for seat in self.blocking() if presence.handover_refusal(seat, now) is None), None)

    def seated_peers(self) -> dict[bytes, bool]:
        """The other seated peers of the game, by identity key, and whether this peer is connected to
        each now (wire.md §5.6; :meth:`PresenceSnapshot.seated_peers`)."""
        return self.presence().seated_peers()

    @property
    def pending(self) -> int:
        """Entries this peer holds that are not committed yet (wire.md §5.9: not yet held by seats that
        are a quorum), a table draw at the end not counted: a split's small side shows them as such."""
        replica = self.session.replica
        return max(0, replica.vote_seq - replica.commit_index)

    @property
    def cut_off(self) -> bool:
        """Whether this player's laptop has lost the table: the game goes on, and none of the other
        seated peers that did not say ``bye`` is connected to it (wire.md §5.6)."""
        if self.spectating or self.status != "playing":
            return False
        return self.presence().cut_off()

    def may_hand_over(self, seat: int) -> bool:
        """Whether wire.md §5.6 lets this peer hand *seat* over: its peer said ``bye`` (it left on
        purpose); or this peer and the seated peers it is connected to are more than half of the seated
        peers; or exactly half, with the peer of the table's tie seat on this side. Two sides of a
        split can never both pass, so they never hand each other's seats to bots."""
        return self.presence().may_hand_over(seat)

    # ------------------------------------------------------------------ acting through the session

    @property
    def can_chat(self) -> bool:
        return self.session.header is not None

    def chats(self) -> list[TalkLine]:
        return [TalkLine(line.seat, line.text, line.mine, line.spectator) for line in self.session.chat.lines]

    @property
    def chats_made(self) -> int:
        return self.session.chat.made

    def say(self, text: str) -> None:
        """Says *text* to the table (protocol/wire.md §4.9): signed with this laptop's first seat key
        (a spectator's with its identity key, under its name, §4.9a), sent to every peer it is
        connected to, who pass it on; never part of the game's log."""
        try:
            self.session.say(text)
        except SyncError as exc:
            raise TableError(str(exc)) from None

    def submit(self, move: Move) -> None:
        """Plays *move* for the seat to play, which a person at this terminal holds (see
        :meth:`Table.submit`): signed, logged, and sent to every peer."""
        try:
            self.session.submit(move)
        except SyncError as exc:
            raise TableError(str(exc)) from None

    def start(self) -> None:
        """The opener starts the game once every seat is taken (a table opened without auto_start).

        Raises:
            ValueError: Not this peer's table, a seat still open, or the game is starting already.
        """
        table = self.hosting
        if table is None:
            raise ValueError(_("only the peer that opened the table starts the game"))
        session = self.session
        session.apply_lobby(table.start(links=session.connections.open_links(), now=session.clock()))
