"""Provides :class:`NetTable`: one network game at this peer, everything wired together.

The :class:`~carcnet.table.base.Table` the command line and the interface hold for a network game, as
:class:`~carcnet.table.local.LocalTable` is for a local one. It composes the layers of
:mod:`carcnet.net` (none of which knows the others' neighbours): the session (:class:`~carcnet.net.sync.SyncSession`) with its lobby
(:mod:`carcnet.net.lobby`), the sockets (:class:`~carcnet.net.peer.Peer`), discovery
(:mod:`carcnet.net.discovery`: this peer's advertisement, and the other peers of the game found by mDNS),
the log on disk (:class:`~carcnet.net.storage.RecorderLog`, with the seat keys beside it so that the
game can be resumed by this peer), and the bots (:mod:`carcnet.bots`) of the seats this peer runs.

The interface reads it through the :class:`~carcnet.table.base.Table` queries and changes the game
only through :meth:`NetTable.submit`, :meth:`NetTable.hand_over` and :meth:`NetTable.start`; it learns
of changes through :meth:`NetTable.add_listener`. Nothing here touches textual.

Its rooms: what the session tells (the game, the lobby, presence) is
:class:`~carcnet.table.netview.NetView`'s, which :class:`NetTable` extends; presence's rules are
:mod:`carcnet.net.presence`'s (values in, decisions out), carried out for seats changing hands by
:class:`~carcnet.table.hands.SeatHands` (which :class:`NetTable` is) and for the rest here; the keys file is
:mod:`carcnet.table.keys`'s; this table's mDNS record is :mod:`carcnet.table.advert`'s.

Files, in the data folder's ``games`` directory (``carcnet.log.store.default_dir``): the log
``<created>-<game id 8>.carclog`` and, for a player, ``<same>.keys`` (:mod:`carcnet.table.keys`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Self, TypedDict, Unpack

from carcnet.bots import make_bot
from carcnet.engine import Rules
from carcnet.i18n import _, joined, ngettext, pgettext
from carcnet.log import LogError, default_dir, new_path
from carcnet.net.adverts import GameAd
from carcnet.net.invite import About, Pairing, Servers
from carcnet.net.link import Link
from carcnet.net.lobby import Hosting, Seating, SeatPlan, Watching
from carcnet.net.messages import Lobby, WireHeader
from carcnet.net.peer import MAX_HINT_FAILURES, Peer
from carcnet.net.presence import LEFT_ON_PURPOSE
from carcnet.net.signing import SeatKey, sealed_game_id
from carcnet.net.storage import RecorderLog
from carcnet.net.sync import SessionChange, SyncSession
from carcnet.net.transport import Timing

from .advert import advertise_and_browse, found_peer, table_ad
from .aside import aside_detail, aside_note
from .base import bot_seed
from .clock import TurnClock
from .driver import BotDriver
from .eventfile import keep_connection_log
from .farewell import farewell
from .keys import LanError, keys_path, read_keys, save_keys
from .hands import SeatHands
from .invites import InviteDesk
from .netview import NetKind
from .rejoin import Rejoin
from .timekeeper import Timekeeper
from .words import REFUSED, hello_text, part_missing, refused, stopped

__all__ = [
    "LanError", "NetKind", "NetOptions", "NetTable", "SeatPlan", "describe_table", "keys_path",
    "plan_from_text",
]

log = logging.getLogger("carcnet.table")


#: Seconds a bot seat must be away at its turn (no peer at the table in touch with the laptop that
#: runs it) before the table takes it over (wire.md §5.6): a little more than the 20 s in which a
#: silent connection is taken for dead (§2.1).
TAKEOVER = 30.0
#: Seconds a seat's value for a draw may be missing before the seat counts as away (wire.md §5.7): a
#: peer sends its value as soon as it has admitted the entry before the draw, in milliseconds; 10 s
#: leaves room for a slow laptop and is half the time in which a silent connection is dead (§2.1).
REVEAL_WAIT = 10.0

#: Refusals after which a peer without the game's header cannot go on with the peer that sent them.
_FATAL = frozenset(REFUSED)


class NetOptions(TypedDict, total=False):
    """How a network table connects and plays, as :meth:`NetTable.host`, :meth:`~NetTable.join`,
    :meth:`~NetTable.spectate` and :meth:`~NetTable.resume` pass it on to :class:`NetTable`, whose
    arguments of the same names say what each is (any left out: its default there)."""

    directory: str | os.PathLike[str] | None
    listen: tuple[str, int] | None
    dial: Sequence[tuple[str, int]]
    discovery: bool
    interfaces: Sequence[str] | None
    timing: Timing | None
    bot_delay: float
    takeover: float | None
    reveal_wait: float | None
    invite: Servers | None
    pairings: Sequence[Pairing]


class NetTable(SeatHands):
    """A network game at this peer: lobby, session, sockets, discovery, saved log and bots.

    Build with :meth:`host`, :meth:`join`, :meth:`spectate` or :meth:`resume`, then
    ``async with game:`` runs it (listening, dialing, advertising, browsing, playing the bots) until
    the block is left or :meth:`close` is called. What it reads of its session (the game, the lobby,
    who is present) is :class:`~carcnet.table.netview.NetView`'s.

    Args:
        session: The game's session (with its lobby, if any).
        kind: What this peer is at the table.
        directory: Where logs and keys go (default: the data folder's games directory).
        listen: ``(host, port)`` to accept connections on (players); ``None`` for spectators.
        dial: Addresses to connect to from the start (typed ``host:port``).
        discovery: Whether to advertise and browse with mDNS.
        interfaces: IP addresses for mDNS (``None``: every interface).
        timing: The clocks of wire.md §2.1.
        bot_names: Seat → bot name for the seats this peer's bots play (host bots, ``carcnet bot``).
        game_name: The game's name for the advertisement (hosts know it; others learn it).
        bot_delay: Seconds this peer's bots wait before each turn, so that people can follow.
        takeover: Seconds a bot seat must be away at its turn before the table takes it over
            (:data:`TAKEOVER`; wire.md §5.6).
        reveal_wait: Seconds a seat's value for a draw may be missing before the seat counts as away
            (:data:`REVEAL_WAIT`; wire.md §5.7 "Withholding").
        recorder: A resumed game's log, already open.
        invite: Where to hand out invite codes from (:mod:`carcnet.table.invites`); ``None``: none.
        pairings: Laptops already paired by a code (the one a joining laptop typed): paths to them.

    Attributes:
        session: The :class:`SyncSession`.
        peer: The :class:`Peer` once running.
    """

    def __init__(
        self,
        session: SyncSession,
        *,
        kind: NetKind,
        directory: str | os.PathLike[str] | None = None,
        listen: tuple[str, int] | None = ("0.0.0.0", 0),
        dial: Sequence[tuple[str, int]] = (),
        discovery: bool = True,
        interfaces: Sequence[str] | None = None,
        timing: Timing | None = None,
        bot_names: dict[int, str] | None = None,
        game_name: str | None = None,
        recorder: RecorderLog | None = None,
        bot_delay: float = 0.0,
        takeover: float | None = None,
        reveal_wait: float | None = None,
        invite: Servers | None = None,
        pairings: Sequence[Pairing] = (),
    ) -> None:
        super().__init__(session, kind, bot_delay=bot_delay, bot_names=bot_names,
                         reveal_wait=REVEAL_WAIT if reveal_wait is None else reveal_wait)
        self.takeover = TAKEOVER if takeover is None else takeover
        self.directory = Path(directory) if directory is not None else None
        self.listen_at = listen
        self.dial_first = list(dial)
        self.discovery = discovery
        self.interfaces = list(interfaces) if interfaces is not None else None
        self.timing = timing or Timing()
        # a peer that is there is heard from within one and a half heartbeats (wire.md §2.1, §5.7)
        self.fresh = 1.5 * self.timing.heartbeat
        self.game_name = game_name
        self.recorder = recorder
        self.peer: Peer | None = None
        #: The invite codes and the pairings they made, once running with either (wire.md §2.3).
        self.invites: InviteDesk | None = None
        self._said_missing_extra = False
        self._invite, self._pairings = invite, list(pairings)
        #: Plays this peer's bot seats once running (:class:`~carcnet.table.driver.BotDriver`).
        self.driver: BotDriver | None = None
        self._path = recorder.path if recorder is not None else None
        self._stack = contextlib.AsyncExitStack()
        self._ad_dirty: asyncio.Event | None = None  # made in __aenter__ (needs a running loop)
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False
        self._watching_through: Link | None = None  # a spectator: the link it follows the game through
        self._was_cut_off = False
        self._saw_most = True  # this peer saw most of the table at the last change of its links (§5.6)
        self._hand_back_soon = False
        self._said_connected: set[bytes | None] = set()  # peers whose coming was said and not their going
        def probe(link: Link | None) -> bool:  # a discovery probe (net.probe) is nobody: its link goes unsaid
            return link is not None and link.role == "spectator" and link.name == "carcnet probe"

        #: What each change of the session sets off here, before the table's listeners hear of it.
        self._reactions: dict[SessionChange, Callable[[Link | None], None]] = {
            "header": lambda _link: self._started(),
            "stop": lambda _link: self._stopped(),
            "peer": self._heard,
            "open": lambda link: None if probe(link) else self._link_opened(link),
            "close": lambda link: None if probe(link) else self._link_closed(link),
            "aside": lambda _link: self._set_aside(),
            "gives": lambda _link: None if self.kind == "spectator" else self._save_keys(),  # (kept, §5.9)
            "meet": lambda _link: self._take_meetings(),
        }
        #: Whether this laptop's bots and turn clock may move (a resumed one: once in step, :mod:`.rejoin`).
        self.rejoin = Rejoin(self.session, self.timing.dead)
        #: The turn clock (wire.md §5.8): measured, agreed with the table, kept beside the save.
        self.timekeeper = Timekeeper(self, note=self._note, changed=self._changed, save=self._save_keys,
                                     closing=lambda: self._closing, ready=self.rejoin.ready)
        self._asides_said = 0  # entries set aside said so far (wire.md §5.9)
        session.add_listener(self._on_change)
        keep_connection_log(self)  # also in <save>.events, for a bug report after a crash

    # ------------------------------------------------------------------ construction

    @classmethod
    def host(
        cls,
        *,
        name: str,
        game_name: str,
        rules: Rules,
        plan: Sequence[SeatPlan],
        random: Callable[[int], bytes] = os.urandom,
        auto_start: bool = True,
        clock: TurnClock | None = None,
        **options: Unpack[NetOptions],
    ) -> Self:
        """Opens a table: this peer holds the lobby; *plan* says which seats are open, played here
        by a person (``host``) or by a bot this peer runs. With *auto_start* the game starts as soon
        as every seat is taken; without, when :meth:`start` is called (the opener's word). *clock*:
        the turn clock the table plays with (:mod:`carcnet.table.clock`), shown in the lobby.
        *random* (``random(n)`` gives *n* bytes; the system's by default) gives this peer's seat key,
        whose draw chain follows from it, the nonce the game id is made from with that key (wire.md
        §4.2 "The game id": the header's seal) and its bots' keys: tests fix it, so that a whole
        network game, its draws included, plays the same every run. *options*: how the table
        connects and plays (:class:`NetOptions`).

        Raises:
            ValueError: A bad plan (size, colours, names) or an unknown bot.
        """
        for p in plan:
            if p.kind == "bot":
                make_bot(p.bot or "greedy", 0)
        identity = SeatKey.from_seed(random(32))  # the host's seat key; its draw chain comes from it
        nonce = random(32)  # with the key, the game id: only this host can seal the game's header
        table = Hosting(name=game_name, options=rules, plan=plan, random=random, auto_start=auto_start,
                        clock=(clock.turn, clock.bank) if clock is not None else None, nonce=nonce)
        session = SyncSession(game=sealed_game_id(identity.public, nonce), name=name, role="player", lobby=table,
                              identity=identity)
        bots = {seat: p.bot or "greedy" for seat, p in enumerate(plan) if p.kind == "bot"}
        return cls(session, kind="host", bot_names=bots, game_name=game_name, **options)

    @classmethod
    def join(
        cls,
        game: str,
        *,
        name: str,
        colour: str | None = None,
        seat: int | None = None,
        bot: str | None = None,
        random: Callable[[int], bytes] = os.urandom,
        host_key: bytes | None = None,
        **options: Unpack[NetOptions],
    ) -> Self:
        """Sits down at game *game*'s table: claims a seat as *name* (a person at this terminal, or
        *bot* played by this peer), then plays it. *random* (``random(n)`` gives *n* bytes; the
        system's by default) gives this peer's seat key, whose draw chain follows from it (deck.md
        §5.1; tests fix it). *host_key*, when known (the table's mDNS record), is the only host
        identity whose lobby this peer takes (wire.md §4.6). *options*: as :meth:`host`'s.

        Raises:
            ValueError: An unknown bot, or a malformed game id.
        """
        if bot is not None:
            make_bot(bot, 0)
        key = SeatKey.from_seed(random(32))  # the seat key; the seat's draw chain comes from it
        seating = Seating(name=name, key=key, colour=colour, seat=seat, bot=bot, host_key=host_key)
        session = SyncSession(game=game, name=name, role="player", identity=key, lobby=seating)
        node = cls(session, kind="player", **options)
        node._bot_for_seating = bot
        return node

    @classmethod
    def spectate(cls, game: str, *, name: str, host_key: bytes | None = None,
                 **options: Unpack[NetOptions]) -> Self:
        """Watches game *game*: the whole log, then live moves; sends nothing that changes it. In the
        lobby it follows only the host of identity *host_key*, when given (wire.md §4.6). *options*:
        as :meth:`host`'s; a spectator listens nowhere unless told."""
        session = SyncSession(game=game, name=name, role="spectator", lobby=Watching(host_key))
        options.setdefault("listen", None)
        return cls(session, kind="spectator", **options)

    @classmethod
    def resume(cls, path: str | os.PathLike[str], *, name: str | None = None,
               **options: Unpack[NetOptions]) -> Self:
        """Re-opens a saved network game on the network: this peer plays the seats whose keys it
        kept; peers that hold more of the log bring it up to date. *options*: as :meth:`host`'s; the
        new log goes beside the old one unless told.

        Raises:
            LogError: The log is refused (see ``carcnet.log.load``), or it is not a network game.
            LanError: No seat keys for it here, or they are damaged.
        """
        path = Path(path)
        recorder, header, entries = RecorderLog.resume(path)
        try:
            saved = read_keys(keys_path(path), header)
            seats = header.header.seats
            people = [seats[s].name for s in sorted(saved.seats) if seats[s].player == "human"]
            # the owner's name as it was at the table; older keys files: the person's seat, else the seats'
            me = name or saved.name or ", ".join(people or [seats[s].name for s in sorted(saved.seats)]) or "carcnet"
            session = SyncSession(
                game=header.game,
                name=me[:32],
                role="player",
                identity=saved.identity,
                header=header,
                seal=saved.seal,
                seats=saved.seats, gave=saved.gave, gives=saved.gives,
                entries=entries,
                persistence=recorder,
            )
        except BaseException:
            recorder.close()
            raise
        bots = {
            seat: header.header.seats[seat].bot or "greedy"
            for seat in saved.seats
            if header.header.seats[seat].player == "bot"
        }
        assert session.game is not None
        for seat, handover in enumerate(session.game.handovers):
            if handover is not None and session.plays(seat):
                bots[seat] = handover.bot
        options.setdefault("directory", path.parent)
        table = cls(session, kind="player", bot_names=bots, recorder=recorder, game_name=saved.game_name, **options)
        table._saved_clock = saved.clock
        table.records.owners.update(saved.owners)  # the seats taken over here go back to them (§5.6)
        table.records.runners.update(saved.runners)  # who ran each seat, as last heard (§4.5)
        table.records.left.update(saved.left)  # who left on purpose, not back since (§5.6 rule 1)
        table.records.gave_up.update(saved.gave_up)
        table.timekeeper.resumed(saved.banks)  # the banks it had, agreed with the table's (wire.md §5.8)
        # no move of its own until it took what the table played meanwhile (with nobody there, on
        # alone after a while, unless it gave its votes away: then nothing it played could commit)
        table.rejoin.hold(alone=not saved.gave)
        return table

    _bot_for_seating: str | None = None

    # ------------------------------------------------------------------ bots

    def _wake_bots(self, change: SessionChange, link: Link | None) -> None:
        """The session changed: after a move, the start or a stop, a bot of this peer may be to move."""
        if change in ("entry", "header", "stop", "open") and self.driver is not None:
            self.driver.wake()

    # ------------------------------------------------------------------ acting

    def dial(self, host: str, port: int) -> None:
        """Connects to a peer of this game at *host*:*port* (typed by hand, or found)."""
        if self.peer is not None:
            self.peer.dial(host, port)
        else:
            self.dial_first.append((host, port))

    async def wait_until(self, predicate: Callable[[], bool], timeout: float | None) -> None:
        """Returns once *predicate()* holds (checked after every change). Raises TimeoutError."""
        assert self.peer is not None, "the game is not running"
        await self.peer.wait_until(predicate, timeout)

    # ------------------------------------------------------------------ running

    async def __aenter__(self) -> Self:
        await self._stack.__aenter__()
        try:
            listen = self.listen_at
            header = self.header
            bots = {
                seat: make_bot(self.bot_names[seat], bot_seed(header.header.digest, seat))
                for seat in self.my_seats
                if seat in self.bot_names
            } if header is not None else {}
            peer = Peer(
                self.session,
                host=listen[0] if listen else "127.0.0.1",
                port=listen[1] if listen else 0,
                listen=listen is not None,
                timing=self.timing,
            )
            self.rejoin.start(self.session.clock())
            asyncio.get_running_loop().call_later(self.rejoin.wait, self._wake_bots, "entry", None)
            self.driver = BotDriver(
                self.session,
                self.session.submit,
                bots=bots,
                delay=self.bot_delay,
                think_cap=lambda: self.think_cap,
                ponder=lambda: self.ponder,
                on_thinking=self._thinking,
                name=self.session.name,
                ready=self.rejoin.ready,
            )
            self.session.add_listener(self._wake_bots)
            self.peer = await self._stack.enter_async_context(peer)
            self._tasks.append(asyncio.create_task(self.driver.run(), name=f"carcnet bots of {self.session.name}"))
            if listen is not None:
                self.session.connections.set_listen_port(peer.port)
            for address in self.dial_first:
                peer.dial(*address)
            if self._invite is not None or self._pairings:
                self._invite_desk(peer)
            dirty = self._ad_dirty = asyncio.Event()
            if self.discovery:
                self._tasks.append(asyncio.create_task(advertise_and_browse(
                    interfaces=self.interfaces, dirty=dirty, ad=self._ad, found=self._found,
                    closing=lambda: self._closing, note=self._note,
                )))
            table = self.hosting
            if table is not None and table.auto_start and table.full and table.started is None and not table.locked:
                # no open seat: nobody to wait for (a game of the host's own seats)
                self.session.apply_lobby(table.lock(links=self.session.connections.open_links(), now=self.session.clock()))
            if self.hosting is not None:
                self._tasks.append(asyncio.create_task(self._tick()))
            if self.kind != "spectator":
                self._tasks.append(asyncio.create_task(self._take_over_bot_seats()))
            self._tasks.append(asyncio.create_task(self._watch_withholding()))
            self._tasks.append(asyncio.create_task(self.timekeeper.watch()))
            self._note(hello_text(self.kind, self.game_id, self.peer.port if self.peer.listen else None,
                                  self.header is not None))
        except BaseException:
            await self._stack.aclose()
            raise
        self.running = True
        self._changed("running")
        return self

    def _invite_desk(self, peer: Peer) -> InviteDesk:
        """The table's invite codes and pairings (:attr:`invites`), running from the first call."""
        if self.invites is None:
            self.invites = InviteDesk(self._invite, About(self.game_id, self.game_name or ""), self._pairings,
                                      note=self._note, changed=lambda: self._changed("invite"), peer=peer)
            self._tasks.append(asyncio.create_task(self.invites.run(peer)))
        return self.invites

    def _take_meetings(self) -> None:
        """Meets the laptops elsewhere that a player at the table, connected here directly, introduced
        this one to (wire.md §4.12), through the invite desk; without the internet extra, says once
        that it is needed."""
        from carcnet.net import invite

        meetings = self.session.meetings
        while meetings:
            meet = meetings.popleft()
            if self._closing or self.peer is None:
                continue
            if (missing := invite.missing()) is not None:
                if not self._said_missing_extra:
                    self._said_missing_extra = True
                    # Translators: {missing} says how to get invite codes working (which package to install).
                    self._note(_("A laptop elsewhere could not be introduced to this one: {missing}").format(missing=missing))
                continue
            try:
                servers = invite.servers(meet.relay, meet.transit)
            except ValueError as exc:
                log.info("an introduction names servers this laptop cannot use: %s", exc)
                continue
            self._invite_desk(self.peer).meet(meet.code, meet.dial, servers)

    def close(self, reason: str = "quit") -> None:
        """Leaves the game: ``bye`` to every peer, no more listening or advertising."""
        self._closing = True
        self.running = False
        if self.peer is not None:
            self.peer.close(reason)
        for task in self._tasks:
            task.cancel()

    async def aclose(self, reason: str = "quit") -> None:
        """:meth:`close`, then waits until every task ended and the log is closed."""
        self.close(reason)
        if self.peer is not None:
            await self.peer.aclose(reason)
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.invites is not None:
            await self.invites.aclose()
        await self._stack.aclose()
        if self.recorder is not None:
            self.recorder.close()
        self._changed("ended")

    # ------------------------------------------------------------------ reacting

    def _on_change(self, change: SessionChange, link: Link | None) -> None:
        """Every change of the session: its own reaction (:attr:`_reactions`), then what follows any
        move or link (a handback to look at, the mDNS record, the clocks), then the listeners."""
        react = self._reactions.get(change)
        if react is not None:
            react(link)
        if change in ("entry", "open", "close", "peer") and self.peer is not None and not self._hand_back_soon:
            self._hand_back_soon = True  # after the change is handled: the session is not re-entered
            asyncio.get_running_loop().call_soon(self._hand_back)
        if self._ad_dirty is not None and change in ("lobby", "header", "entry", "stop"):
            self._ad_dirty.set()
        if change in ("header", "entry", "stop"):
            self.timekeeper.update()
        self._changed(change)

    def _stopped(self) -> None:
        """The game stopped here: says why (a desync's report)."""
        if self.session.desync is not None:
            self._note(*stopped(self.session.desync))

    def _set_aside(self) -> None:
        """A healed split set entries aside (wire.md §5.9): one line for each set not said yet."""
        records = self.session.replica.aside
        names = [seat.name for seat in self.seats]
        for record in records[self._asides_said:]:
            self._note(aside_note(record, names, set(self.session.seats)), aside_detail(record, names))
        self._asides_said = len(records)

    def _heard(self, link: Link | None) -> None:
        """A peer's heartbeat said which seats it plays (wire.md §4.5): believed or not (:meth:`heard`)."""
        if self.heard(link) and self.kind != "spectator" and self.session.seats:
            self._save_keys()  # who runs which seat, should this laptop restart (wire.md §5.6)

    def _link_opened(self, link: Link | None) -> None:
        """A link opened: the peer is seen and back (wire.md §5.6), said once per peer."""
        if link is None:
            return
        if link.key is not None and link.role != "spectator":
            back = link.key in self.records.left
            self.records.opened(link.key)
            if back and self.session.seats:
                self._save_keys()  # it left on purpose no more (§5.6 rule 1)
        # One line per peer coming and going: a second connection of a pair is no news.
        if link.key not in self._said_connected:
            self._said_connected.add(link.key)
            # Translators: {name} is a player's name.
            self._note(_("{name} connected").format(name=link.name))
        self._cut_off_news()
        was = self._watching_through  # a spectator's player; a second link while it is open is no news
        if self.kind == "spectator" and (was is None or not was.is_open):
            if was is not None and was.name != link.name:
                # Translators: {name} and {was} are players' names.
                self._note(_("Watching through {name} now ({was} is gone)").format(name=link.name, was=was.name))
            self._watching_through = link

    def _link_closed(self, link: Link | None) -> None:
        """A link closed: whether its peer left on purpose (§5.6), why the table refused this peer
        before the game (its :attr:`failure`), and the peer's going, said once."""
        if link is None:
            return
        session, key = self.session, link.key
        if key is not None and link.role != "spectator" and link.opened:
            # a bye this peer said is no word that the other left (a spectator drops a link it has no use for);
            # nor is one on a link whose key was never proven: anyone can say a hello with another's key
            left = (frozenset(self.records.left), frozenset(self.records.gave_up))
            self.records.closed(key, None if link.closed_here else link.closed_by, still_connected=session.connections.link_to(key) is not None,
                                started=session.header is not None and not session.over)
            if left != (frozenset(self.records.left), frozenset(self.records.gave_up)) and session.seats:
                self._save_keys()  # who left on purpose, should this laptop restart (§5.6 rule 1)
        if link.closed_by in _FATAL and session.header is None:
            said = next((e.message for e in reversed(session.connections.events) if e.code == link.closed_by), "")
            self.failure, account = refused(link.closed_by, said)
            if not session.connections.open_links():
                self._note(_sentence(self.failure), account)
        elif session.header is None and link.role == "host" and link.closed_by in LEFT_ON_PURPOSE:
            # Translators: {name} is the host's name.
            self.failure = _("the host ({name}) closed the table before the game started").format(name=link.name)
            self._note(_sentence(self.failure))
        if link.opened and link.closed_by != "duplicate" and (key is None or session.connections.link_to(key) is None):
            self._said_connected.discard(key)
            seated = key is not None and session.connections.at_table(key)  # a stranger gives up no seat
            if link.closed_here and not session.connections.closing and session.role == "spectator":
                # Translators: {name} is a player's name.
                self._note(_("Stopped watching through {name}").format(name=link.name))
            elif not link.closed_here:  # this peer's own bye: it is the one going, or done with that link
                self._note(*farewell(link.name, link.closed_by, role=link.role if seated or link.role == "spectator" else None,
                                     started=session.header is not None and not session.over))
        self._cut_off_news()

    def _cut_off_news(self) -> None:
        """Says when this laptop loses the table (:attr:`cut_off`) and when it is back in touch. Once it
        sees most of the table again (wire.md §5.6 rules 2-3) while the table draws, the wait for the
        draw's values counts again from now (§5.7 "Withholding"): the values of the peers it was apart
        from come as their links open, and a seat is not judged withholding for the time this laptop
        could not hear it (else each side of a healed split hands the other's seats over at once)."""
        cut_off = self.cut_off
        if cut_off != self._was_cut_off:
            self._was_cut_off = cut_off
            self._note(_("You are cut off from the table: no other player is connected to this laptop")
                       if cut_off else _("Back in touch with the table"))
        sees_most = self.spectating or self.status != "playing" or self.presence().sees_most()
        if sees_most and not self._saw_most:
            self.session.draws.restart(self.session.clock())
        self._saw_most = sees_most

    def _started(self) -> None:
        """The header arrived: save the log (and this peer's seat keys), start the bots."""
        header = self.session.header
        assert header is not None
        if self.recorder is None:
            directory = self.directory if self.directory is not None else default_dir()
            directory.mkdir(parents=True, exist_ok=True)
            path = new_path(header.header, directory)
            try:
                self.recorder = RecorderLog.continue_or_create(header, path)
            except (LogError, OSError) as exc:
                # Translators: {reason} says why the save could not be written.
                self._note(_("Cannot save the game: {reason}").format(reason=exc))
                return
            self.session.use_persistence(self.recorder)
            self._path = path
            if self.recorder.held:
                # Translators: {path} is the save's file, {seq} a move's number.
                self._note(_("Back at the game; its save goes on in {path} from move {seq}").format(
                    path=path, seq=self.recorder.held + 1))
            else:
                # Translators: {path} is the save's file.
                self._note(_("The game started; saving it to {path}").format(path=path))
        # The lobby adds the seats right after the header: look once it has.
        asyncio.get_running_loop().call_soon(self._seats_known)

    def _seats_known(self) -> None:
        session, header = self.session, self.session.header
        if header is None or self.path is None:
            return
        if session.seats and self.kind != "spectator":
            self._save_keys()
        if self._bot_for_seating is not None:
            for seat in session.seats:
                self.bot_names[seat] = self._bot_for_seating
        if self.driver is not None:
            for seat in session.seats:
                name = self.bot_names.get(seat)
                if name is not None and seat not in self.driver.bots:
                    self.driver.set_bot(seat, make_bot(name, bot_seed(header.header.digest, seat)))

    def _save_keys(self) -> None:
        """Writes this peer's keys file beside its save (:func:`~carcnet.table.keys.save_keys`)."""
        try:
            if self.path is not None:
                name = self.game_name or (self.lobby.name if self.lobby is not None else None)
                save_keys(self.path, self.session, self.records, self.clock, name, self.timekeeper.kept())
        except OSError as exc:
            # Translators: {reason} says why the file could not be written.
            self._note(_("Cannot save the seat keys (the game cannot be resumed here): {reason}").format(reason=exc))

    # ------------------------------------------------------------------ discovery

    def _ad(self) -> GameAd | None:
        """This peer's mDNS record for the game now (:func:`~carcnet.table.advert.table_ad`), or ``None``."""
        peer, session, header = self.peer, self.session, self.session.header
        return table_ad(
            game=session.game_id,
            peer=session.name,
            key=session.identity.public,
            port=peer.port if peer is not None and peer.listen else None,
            spectator=self.kind == "spectator",
            status=self.status,
            opener=self.hosting is not None,
            seats=header.header.seats if header is not None else None,
            lobby=self.lobby,
            game_name=self.game_name,
        )

    def _found(self, ad: GameAd) -> None:
        """A game's record found on the LAN (:func:`~carcnet.table.advert.found_peer`): a player lists
        the peer it names; a spectator without a link dials it."""
        info = found_peer(ad, game=self.session.game_id, me=self.session.identity.public)
        if info is None:
            return
        if self.kind == "spectator":  # a record is a hint: dialled as a fail-over's are (wire.md §5.10)
            if self.peer is not None and not self.session.connections.open_links():
                self.peer.dial(info.addr, info.port, attempts=MAX_HINT_FAILURES)
            return
        self.session.connections.add_known(info)

    async def _watch_withholding(self) -> None:
        """Tells the listeners when the seats away change with time alone (a draw value withheld, wire.md
        §5.7; nobody heard on arrival, §4.5), and says once per draw that a seat withholds its value."""
        tick = max(0.02, min(0.5, self.reveal_wait / 4))
        last: tuple[list[int], list[int]] = ([], [])
        said: set[tuple[int, int]] = set()
        while not self._closing:
            await asyncio.sleep(tick)  # the clock of the withholding rule, not a synchronisation
            seen = (now := self.withholding(), self.away())
            if seen == last:
                continue
            last = seen
            header, waiting = self.session.header, self.session.draws.waiting
            for seat in now:
                if header is not None and waiting is not None and (waiting[0], seat) not in said:
                    said.add((waiting[0], seat))
                    self._note(*part_missing(header.header.seats[seat].name, seat, draw=waiting[0],
                                             wait=self.reveal_wait))
            self.session.presence_changed()

    async def _tick(self) -> None:
        table = self.hosting
        assert table is not None
        while not self._closing and table.started is None:
            await asyncio.sleep(1.0)  # a clock for the lobby's commit–reveal timeout, not a synchronisation
            self.session.apply_lobby(table.tick(self.session.clock(), links=self.session.connections.open_links()))


def plan_from_text(text: str, *, me: str, bot: str = "greedy") -> list[SeatPlan]:
    """A table plan from the command line's ``--seats``: comma-separated ``me``, ``open`` or a bot
    name (``greedy``, ``random``), e.g. ``me,open,open,greedy``. Names and colours are handed out in
    order; bots are called after their kind and seat.

    Raises:
        ValueError: An unknown item, more than one ``me``, or not 2 to 6 seats.
    """
    from carcnet.bots import BOTS
    from carcnet.log import COLOURS

    items = [t.strip().lower() for t in text.split(",") if t.strip()]
    if not 2 <= len(items) <= 6:
        # Translators: --seats is the command line's option (kept as it is); {count} is how many seats it gave.
        raise ValueError(ngettext("a table has 2 to 6 seats; --seats gave {count}",
                                  "a table has 2 to 6 seats; --seats gave {count}", len(items)).format(count=len(items)))
    if items.count("me") > 1:
        # Translators: 'me' is the word typed in --seats (kept as it is).
        raise ValueError(_("only one seat can be 'me'"))
    plan: list[SeatPlan] = []
    for i, item in enumerate(items):
        colour = COLOURS[i]
        if item == "me":
            plan.append(SeatPlan("host", me, colour))
        elif item == "open":
            plan.append(SeatPlan("open"))
        elif item in BOTS:
            plan.append(SeatPlan("bot", f"{item.capitalize()} {i + 1}", colour, item))
        else:
            # Translators: {number} is a seat's number, {item} what was typed for it; me, open and the bots'
            # names ({bots}) are the words typed in --seats (kept as they are).
            raise ValueError(_("seat {number}: {item} is not me, open or a bot ({bots})").format(
                number=i + 1, item=repr(item), bots=joined(BOTS)))
    return plan


def _sentence(text: str) -> str:
    """*text* with its first letter a capital (the rest as it is: a name in it keeps its case)."""
    return text[:1].upper() + text[1:]


def _colour_word(colour: str) -> str:
    """A seat's colour (``COLOURS``) in the player's words."""
    words = {
        "red": pgettext("colour", "red"), "blue": pgettext("colour", "blue"),
        "yellow": pgettext("colour", "yellow"), "green": pgettext("colour", "green"),
        "black": pgettext("colour", "black"), "grey": pgettext("colour", "grey"),
    }
    return words.get(colour, colour)


def _seat_line(number: int, name: str, colour: str, bot: str | None) -> str:
    if bot:
        # Translators: a seat of the table: {number} its number, {name} its player's name, {colour} its
        # colour, {bot} the bot's kind (greedy, random).
        return _("{number}. {name} ({colour}, {bot} bot)").format(number=number, name=name,
                                                                 colour=_colour_word(colour), bot=bot)
    # Translators: a seat of the table: {number} its number, {name} its player's name, {colour} its colour.
    return _("{number}. {name} ({colour}, person)").format(number=number, name=name, colour=_colour_word(colour))


def describe_table(lobby: Lobby | None, *, header: WireHeader | None = None) -> list[str]:
    """One line per seat for people: ``1. Ann (red, person)`` or ``2. (open)``."""
    if header is not None:
        return [_seat_line(i + 1, s.name, s.colour, s.bot) for i, s in enumerate(header.header.seats)]
    if lobby is None:
        return []
    out = []
    for i, s in enumerate(lobby.table):
        if s is None:
            # Translators: a seat nobody has taken yet; {number} is its number.
            out.append(_("{number}. (open)").format(number=i + 1))
        else:
            out.append(_seat_line(i + 1, s.seat.name, s.seat.colour, s.seat.bot))
    return out
