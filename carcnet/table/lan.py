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

Files, in the data folder's ``games`` directory (``carcnet.log.store.default_dir``): the log
``<created>-<game id 8>.carclog`` and, for a player, ``<same>.keys`` (JSON, mode 0600: the game id, the
name this peer plays under, its identity key and the seat keys it plays, as hex of the 32 private bytes; wire.md §3.1).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Self

from carcnet.bots import make_bot
from carcnet.engine import Game, HandBack, HandOver, IllegalMoveError, Move, Phase, Rules
from carcnet.log import LogError, Seat, default_dir, new_path
from carcnet.log.values import name_problem
from carcnet.net.framing import ProtocolError
from carcnet.net.lobby import Hosting, Seating, SeatPlan, Watching
from carcnet.net.messages import Lobby, PeerInfo, WireHeader
from carcnet.net.peer import Peer
from carcnet.net.signing import SeatKey
from carcnet.net.storage import RecorderLog
from carcnet.net.sync import Change, Link, SyncError, SyncSession
from carcnet.net.transport import Timing

from .base import Status, Table, TableError, bot_seed
from .clock import SeatClocks, TurnClock

__all__ = ["LanError", "NetKind", "NetTable", "SeatPlan", "describe_table", "keys_path", "new_game_id", "plan_from_text"]

log = logging.getLogger("carcnet.table")

#: What a peer is at a network table.
NetKind = Literal["host", "player", "spectator"]


#: Seconds a bot seat must be away at its turn (no peer at the table in touch with the laptop that
#: runs it) before the table takes it over (wire.md §5.6): a little more than the 20 s in which a
#: silent connection is taken for dead (§2.1).
TAKEOVER = 30.0
#: Seconds a seat's value for a draw may be missing before the seat counts as away (wire.md §5.7): a
#: peer sends its value as soon as it has admitted the entry before the draw, in milliseconds; 10 s
#: leaves room for a slow laptop and is half the time in which a silent connection is dead (§2.1).
REVEAL_WAIT = 10.0

#: Refusals after which a peer without the game's header cannot go on with the peer that sent them.
_FATAL = frozenset({"no-seat", "wrong-game", "bad-version", "bad-header"})


class LanError(Exception):
    """A network game cannot be opened as asked (a saved game that is not a network game, no seat
    key for it, …). The text says what to do."""


def new_game_id(random: Callable[[int], bytes] = os.urandom) -> str:
    """A fresh game id: 32 lowercase hex digits from *random* (the system's random source; tests
    give a fixed one, so that a whole network game, its draws included, plays the same every run)."""
    return random(16).hex()


def keys_path(log_path: Path) -> Path:
    """Where the seat keys of the game logged at *log_path* are kept."""
    return log_path.with_suffix(".keys")


@dataclass(frozen=True, slots=True)
class _Saved:
    identity: SeatKey
    seats: dict[int, SeatKey]
    name: str | None  # the peer's own name (its owner's), None in files written before it was kept
    clock: TurnClock | None = None  # the table's turn clock (wire.md §4.6), None without one


def _write_keys(path: Path, game: str, identity: SeatKey, seats: dict[int, SeatKey], name: str,
                clock: TurnClock | None = None) -> None:
    data: dict[str, object] = {
        "game": game,
        "name": name,
        "identity": identity.seed.hex(),
        "seats": {str(seat): key.seed.hex() for seat, key in sorted(seats.items())},
    }
    if clock is not None:
        data["clock"] = [clock.turn, clock.bank]
    tmp = path.with_suffix(".keys.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump(data, f, indent=1)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _read_keys(path: Path, header: WireHeader) -> _Saved:
    """The keys file of the game *header* starts, checked as any other input: a map with the game id,
    this peer's identity key and name, and seat → key for seats of this game whose public keys are the
    header's (wire.md §3.1).

    Raises:
        LanError: No file, or a damaged one (the text says what is wrong; never a traceback).
    """
    game = header.game
    try:
        data = json.loads(path.read_text())
        if not isinstance(data, dict):
            raise ValueError("it is not a map")
        if data.get("game") != game:
            raise LanError(f"{path.name} holds the keys of game {data.get('game')!r}, not {game}")
        identity = SeatKey.from_seed(_seed(data.get("identity"), "identity"))
        raw = data.get("seats")
        if not isinstance(raw, dict):
            raise ValueError("'seats' is not a map of seat to key")
        seats: dict[int, SeatKey] = {}
        for text, value in raw.items():
            if not (isinstance(text, str) and text.isdigit() and int(text) < len(header.keys)):
                raise ValueError(f"this game has no seat {text!r}")
            key = SeatKey.from_seed(_seed(value, f"seat {text}"))
            if key.public != header.keys[int(text)]:
                raise ValueError(f"the key of seat {text} is not the one the game's header names")
            seats[int(text)] = key
        name = data.get("name")
        if name is not None and name_problem(name) is not None:
            raise ValueError(f"the name {name!r} is not a name")
        raw_clock = data.get("clock")
        clock = None
        if raw_clock is not None:
            if not (isinstance(raw_clock, list) and len(raw_clock) == 2):
                raise ValueError("'clock' is not [turn seconds, bank seconds]")
            clock = TurnClock(*raw_clock)
    except FileNotFoundError:
        raise LanError(
            f"no seat keys for this game ({path.name}): only the peer that played it can resume it; "
            "others can watch it"
        ) from None
    except (ValueError, TypeError, OSError) as exc:
        raise LanError(f"{path.name} is damaged: {exc}") from None
    return _Saved(identity, seats, name, clock)


def _seed(value: object, what: str) -> bytes:
    """32 private bytes written as 64 hex digits in a keys file."""
    if not isinstance(value, str) or len(value) != 64:
        raise ValueError(f"{what} is not 64 hex digits")
    return bytes.fromhex(value)


class NetTable(Table):
    """A network game at this peer: lobby, session, sockets, discovery, saved log and bots.

    Build with :meth:`host`, :meth:`join`, :meth:`spectate` or :meth:`resume`, then
    ``async with game:`` runs it (listening, dialing, advertising, browsing, playing the bots) until
    the block is left or :meth:`close` is called.

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
    ) -> None:
        super().__init__(kind, bot_delay=bot_delay)
        self.takeover = TAKEOVER if takeover is None else takeover
        self.reveal_wait = REVEAL_WAIT if reveal_wait is None else reveal_wait
        self.session = session
        self.directory = Path(directory) if directory is not None else None
        self.listen_at = listen
        self.dial_first = list(dial)
        self.discovery = discovery
        self.interfaces = list(interfaces) if interfaces is not None else None
        self.timing = timing or Timing()
        self.bot_names: dict[int, str] = dict(bot_names or {})
        self.game_name = game_name
        self.recorder = recorder
        self.peer: Peer | None = None
        self._path: Path | None = recorder.path if recorder is not None else None
        self._stack = contextlib.AsyncExitStack()
        self._advertiser: object | None = None
        self._ad_dirty: asyncio.Event | None = None  # made in __aenter__ (needs a running loop)
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False
        self._seen_keys: set[bytes] = set()
        self._watching_through: str | None = None  # a spectator: the player it follows the game through
        self._left: set[bytes] = set()  # keys of peers that said bye (quit, shutdown) and did not come back
        self._was_cut_off = False
        #: Seat → the identity key of the peer whose heartbeat last said it plays the seat (wire.md §4.5).
        self._runners: dict[int, bytes] = {}
        #: Seat → the identity key of the peer that played it while it was its own (not handed over):
        #: the peer that gets it back when it returns (wire.md §5.6).
        self._owners: dict[int, bytes] = {}
        #: Seat → the identity key of the peer it was taken from while still connected (it withheld
        #: its draw value, wire.md §5.7): not given back until that peer has left and come back.
        self._withheld: dict[int, bytes] = {}
        self._hand_back_soon = False
        self._said_connected: set[bytes | None] = set()  # peers whose coming was said and not their going
        #: The turn clock as this laptop measures it (:mod:`carcnet.table.clock`), once the game has
        #: started at a table that plays with one; a resumed game's comes from its keys file.
        self.clocks: SeatClocks | None = None
        self._saved_clock: TurnClock | None = None
        session.add_listener(self._on_change)

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
        **kw: object,
    ) -> Self:
        """Opens a table: this peer holds the lobby; *plan* says which seats are open, played here
        by a person (``host``) or by a bot this peer runs. With *auto_start* the game starts as soon
        as every seat is taken; without, when :meth:`start` is called (the opener's word). *clock*:
        the turn clock the table plays with (:mod:`carcnet.table.clock`), shown in the lobby.
        *random* (``random(n)`` gives *n* bytes; the system's by default) gives the game id, this
        peer's seat key, whose draw chain follows from it, and its bots' keys: tests fix it, so that
        a whole network game, its draws included, plays the same every run.

        Raises:
            ValueError: A bad plan (size, colours, names) or an unknown bot.
        """
        for p in plan:
            if p.kind == "bot":
                make_bot(p.bot or "greedy", 0)
        table = Hosting(name=game_name, options=rules, plan=plan, random=random, auto_start=auto_start,
                        clock=(clock.turn, clock.bank) if clock is not None else None)
        identity = SeatKey.from_seed(random(32))  # the host's seat key; its draw chain comes from it
        session = SyncSession(game=new_game_id(random), name=name, role="player", lobby=table, identity=identity)
        bots = {seat: p.bot or "greedy" for seat, p in enumerate(plan) if p.kind == "bot"}
        return cls(session, kind="host", bot_names=bots, game_name=game_name, **kw)  # type: ignore[arg-type]

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
        **kw: object,
    ) -> Self:
        """Sits down at game *game*'s table: claims a seat as *name* (a person at this terminal, or
        *bot* played by this peer), then plays it. *random* (``random(n)`` gives *n* bytes; the
        system's by default) gives this peer's seat key, whose draw chain follows from it (deck.md
        §5.1; tests fix it). *host_key*, when known (the table's mDNS record), is the only host
        identity whose lobby this peer takes (wire.md §4.6).

        Raises:
            ValueError: An unknown bot, or a malformed game id.
        """
        if bot is not None:
            make_bot(bot, 0)
        key = SeatKey.from_seed(random(32))  # the seat key; the seat's draw chain comes from it
        seating = Seating(name=name, key=key, colour=colour, seat=seat, bot=bot, host_key=host_key)
        session = SyncSession(game=game, name=name, role="player", identity=key, lobby=seating)
        node = cls(session, kind="player", **kw)  # type: ignore[arg-type]
        node._bot_for_seating = bot
        return node

    @classmethod
    def spectate(cls, game: str, *, name: str, host_key: bytes | None = None, **kw: object) -> Self:
        """Watches game *game*: the whole log, then live moves; sends nothing that changes it. In the
        lobby it follows only the host of identity *host_key*, when given (wire.md §4.6)."""
        session = SyncSession(game=game, name=name, role="spectator", lobby=Watching(host_key))
        kw.setdefault("listen", None)
        return cls(session, kind="spectator", **kw)  # type: ignore[arg-type]

    @classmethod
    def resume(cls, path: str | os.PathLike[str], *, name: str | None = None, **kw: object) -> Self:
        """Re-opens a saved network game on the network: this peer plays the seats whose keys it
        kept; peers that hold more of the log bring it up to date.

        Raises:
            LogError: The log is refused (see ``carcnet.log.load``), or it is not a network game.
            LanError: No seat keys for it here, or they are damaged.
        """
        path = Path(path)
        recorder, header, entries = RecorderLog.resume(path)
        try:
            saved = _read_keys(keys_path(path), header)
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
                seats=saved.seats,
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
        kw.setdefault("directory", path.parent)
        table = cls(session, kind="player", bot_names=bots, recorder=recorder, **kw)  # type: ignore[arg-type]
        table._saved_clock = saved.clock  # the clocks start again with full banks (wire.md §5.8)
        table._clock_update()
        return table

    _bot_for_seating: str | None = None

    # ------------------------------------------------------------------ state

    @property
    def game_id(self) -> str:
        return self.session.game_id

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
    def desync(self) -> object | None:
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

    def withholding(self) -> list[int]:
        """The seats whose value for the draw the table waits for has been missing for more than
        :attr:`reveal_wait` seconds although their peer is connected here and alive: it sent a
        heartbeat since the draw began (wire.md §5.7). The table treats them as away. A peer that
        has not been heard from since is not judged: this laptop may be the one cut off, which the
        dead-connection clock tells (§2.1, §5.6). Never a seat played here."""
        waiting = self.session.waiting
        if waiting is None or self.session.clock() - waiting[1] < self.reveal_wait:
            return []
        out = []
        for seat in self.session.missing():
            runner = self._runner(seat) if not self.session.plays(seat) else None
            link = self.session.link_to(runner) if runner is not None else None
            if link is not None and link.last_heartbeat is not None and link.last_heartbeat > waiting[1]:
                out.append(seat)
        return out

    def draw_waits_for(self) -> list[int]:
        return self.session.missing()

    def draws_known_to(self) -> str | None:
        """The name of the one peer that plays every seat still contributing to the draws (so knows
        every value of every future draw: deck.md §5.3), or ``None`` when two or more peers
        contribute, or in a game without table draws. A seat's peer is :meth:`_runner`'s; a bot of
        the host's not placed yet counts as the host's."""
        header, game = self.session.header, self.session.game
        if header is None or game is None or header.header.table is None or game.phase is Phase.GAME_OVER:
            return None
        me = self.session.identity.public
        host = me if self.kind == "host" else next(
            (link.key for link in self.session.links if link.role == "host" and link.key is not None), None
        )
        runners = {self._runner(seat) or host for seat in game.contributors()}
        if len(runners) != 1 or None in runners:
            return None
        (runner,) = runners
        if runner == me:
            return "you"
        names = {link.key: link.name for link in self.session.links if link.key is not None}
        seat = next((s for s in game.contributors() if (self._runner(s) or host) == runner), None)
        return names.get(runner) or (header.header.seats[seat].name if seat is not None else None)

    def blocking(self) -> list[int]:
        """The seats the game waits for now: the seat to play, or while the table draws, the seats
        whose value is missing (wire.md §5.7)."""
        seat = self.to_play
        return [seat] if seat is not None else self.session.missing()

    def seat_to_hand_over(self) -> int | None:
        """A seat the game waits for whose player is away (or withholds its draw value) and that this
        laptop may give to a bot (wire.md §5.6–5.7), else ``None``."""
        if self.spectating:
            return None
        for seat in self.blocking():
            if seat not in self.my_seats and seat in self.away() and self.may_hand_over(seat):
                return seat
        return None

    def away(self) -> list[int]:
        """The seats whose player no peer at the table is in touch with now: the table's presence, not
        one connection's (wire.md §4.5); and the seats that withhold their draw value (:meth:`withholding`). A seat's runner is the peer whose heartbeat says it plays the
        seat, else the peer whose identity is the seat's key (a player's seat key is its identity,
        §3.1); it is present when it is this peer, is connected to this peer, or is seen by a peer
        this peer is connected to. A bot of the host's that no heartbeat has placed yet counts as
        present while any player is connected. Seats played here are never away."""
        header, game = self.session.header, self.session.game
        if header is None or game is None:
            return []
        alive = self._alive()
        players = any(link.role != "spectator" for link in self.session.open_links())
        out = []
        for seat in range(len(header.keys)):
            if self.session.plays(seat):
                continue
            runner = self._runner(seat)
            if runner is None:
                if players:
                    continue  # a bot whose peer never connected under its key (the host's): not placed yet
                runner = header.keys[game.signer(seat)]
            if runner not in alive:
                out.append(seat)
        return sorted(set(out) | set(self.withholding()))

    def _alive(self) -> set[bytes]:
        """The identity keys of the players this peer hears of: itself, those it is connected to, and
        those they say they are connected to (wire.md §4.5)."""
        alive = {self.session.identity.public}
        for link in self.session.open_links():
            if link.role != "spectator" and link.key is not None:
                alive.add(link.key)
            alive.update(link.sees)
        return alive

    def _runner(self, seat: int) -> bytes | None:
        """The identity key of the peer that plays *seat*: the one whose heartbeat last said so, else
        the seat's signing key when a connection carried it (a player's seat key is its identity), else
        ``None`` (a bot of the host's not placed yet)."""
        header, game = self.session.header, self.session.game
        assert header is not None and game is not None
        if self.session.plays(seat):
            return self.session.identity.public
        runner = self._runners.get(seat)
        if runner is not None:
            return runner
        signer = game.signer(seat)
        key = header.keys[signer]
        if header.header.seats[signer].player == "bot" and key not in self._seen_keys:
            return None
        return key

    def takeover_runner(self) -> bytes | None:
        """Who takes an away bot seat over (wire.md §5.6): the lowest identity key among the players in
        touch with the table that play a seat of their own (not one handed over to them)."""
        header, game = self.session.header, self.session.game
        if header is None or game is None:
            return None
        alive = self._alive()
        keys = set()
        for seat in range(len(header.keys)):
            if game.handovers[seat] is not None:
                continue
            runner = self._runner(seat)
            if runner is not None and runner in alive:
                keys.add(runner)
        return min(keys) if keys else None

    async def _take_over_bot_seats(self) -> None:
        """Gives a bot seat whose laptop is gone to a bot run by the table, by the deterministic rule of
        wire.md §5.6: once it has been away at its turn for :attr:`takeover` seconds, the peer that
        :meth:`takeover_runner` names (if it may hand over) makes the ``handover``; the bot is the one
        the header names."""
        loop = asyncio.get_running_loop()
        tick = max(0.05, min(1.0, self.takeover / 4))
        away_since: dict[int, float] = {}
        refused: tuple[int, int] | None = None  # the seat and move count last refused (said once)
        while not self._closing:
            await asyncio.sleep(tick)  # the clock of the away rule, not a synchronisation
            header, game = self.session.header, self.session.game
            blocking = self.blocking()
            if header is None or game is None or not blocking or self.status != "playing" or not self.my_seats:
                away_since.clear()
                continue
            for gone in [s for s in away_since if s not in blocking]:
                del away_since[gone]
            away = self.away()
            due = []
            for seat in blocking:
                signer = game.signer(seat)
                if header.header.seats[signer].player != "bot" or game.handovers[seat] is not None or seat not in away:
                    away_since.pop(seat, None)
                elif loop.time() - away_since.setdefault(seat, loop.time()) >= self.takeover:
                    due.append(seat)
            if not due:
                continue
            seat = due[0]
            bot = header.header.seats[game.signer(seat)].bot
            name = header.header.seats[seat].name
            if not self.may_hand_over(seat):
                if refused != (seat, len(game.moves)):
                    refused = (seat, len(game.moves))
                    why = ("this laptop is cut off from the table" if self.cut_off
                           else "this laptop does not see most of the table")
                    self._note(f"Not taking {name}'s seat over: {why} (wire.md 5.6)")
                continue
            if self.takeover_runner() != self.session.identity.public:
                continue
            try:
                self.hand_over(seat, bot or "greedy")
            except (TableError, IllegalMoveError, ValueError) as exc:
                self._note(f"Cannot take {name}'s seat over: {exc}")
            away_since.pop(seat, None)

    def seated_peers(self) -> dict[bytes, bool]:
        """The other seated peers of the game, by identity key, and whether this peer is connected to
        each now. A seat's peer is the one that plays its signer's seat (wire.md §5.6): the peer whose
        heartbeat lists that seat, else the one whose identity is the seat's key once a connection has
        carried it (a player's seat key is its identity key, §3.1). A seat whose peer is not known yet
        (a bot of the host's before the host's first heartbeat) is not counted; nor are seats played
        here."""
        header, game = self.session.header, self.session.game
        if header is None or game is None:
            return {}
        own = self.session.identity.public
        open_keys = {link.key for link in self.session.open_links() if link.role != "spectator"}
        out: dict[bytes, bool] = {}
        for seat in range(len(header.keys)):
            runner = self._runner(game.signer(seat))
            if runner is None or runner == own:
                continue
            out[runner] = runner in open_keys
        return out

    @property
    def cut_off(self) -> bool:
        """Whether this player's laptop has lost the table: the game goes on, and none of the other
        seated peers that did not say ``bye`` is connected to it (wire.md §5.6)."""
        if self.spectating or self.status != "playing":
            return False
        peers = {key: connected for key, connected in self.seated_peers().items() if key not in self._left}
        return bool(peers) and not any(peers.values())  # those who said bye left; the others are unreachable

    def may_hand_over(self, seat: int) -> bool:
        """Whether wire.md §5.6 lets this peer hand *seat* over: its peer said ``bye`` (it left on
        purpose); or this peer and the seated peers it is connected to are more than half of the seated
        peers; or exactly half, with the lowest identity key of them all on this side. Two sides of a
        split can never both pass, so they never hand each other's seats to bots."""
        header, game = self.session.header, self.session.game
        if header is None or game is None:
            return False
        key = self._runner(game.signer(seat))
        if key is not None and key in self._left:
            return True
        peers = self.seated_peers()
        side = [self.session.identity.public, *(k for k, connected in peers.items() if connected)]
        total = 1 + len(peers)
        if 2 * len(side) > total:
            return True
        return 2 * len(side) == total and min(side) == min([self.session.identity.public, *peers])

    @property
    def think_cap(self) -> float | None:
        """Seconds this laptop's search bots may think per turn (``Table.think_cap``); set at any time."""
        return self._think_cap

    @think_cap.setter
    def think_cap(self, seconds: float | None) -> None:
        self._think_cap = seconds
        peer = getattr(self, "peer", None)
        if peer is not None:
            peer.think_cap = seconds

    def _thinking(self, seat: int | None) -> None:
        """The peer's slow bot for *seat* started thinking (``None``: it is done): :attr:`thinking`."""
        self.thinking = None if seat is None else (seat, time.monotonic())
        self._changed("thinking")

    def hand_over(self, seat: int, bot: str = "greedy") -> None:
        """Gives *seat*, whose player is gone for good, to *bot*, run by this peer from now on: a
        ``handover`` entry in the log, made by this peer's own seat (``protocol/log.md`` §6). Only
        the seat to play can be handed over (the game waits at its turn), or while the table draws,
        any seat (one whose value is missing, wire.md §5.7).

        Raises:
            TableError: This peer plays no seat of its own, or the game is not going on.
            IllegalMoveError: Not the seat to play, already a bot's, or an unknown bot.
            ValueError: An unknown bot name.
        """
        make_bot(bot, 0)
        game, header = self.session.game, self.session.header
        if game is None or header is None:
            raise TableError("no game yet")
        if not self.may_hand_over(seat):
            raise TableError("this laptop does not see most of the table: it may not give a seat away "
                             "(wire.md §5.6); wait until the others are back")
        own = [s for s in sorted(self.session.seats) if game.handovers[s] is None]
        if not own:
            raise TableError("only a player with a seat of their own can take a seat over")
        by = next((s for s in own if s not in self.bot_names), own[0])
        owner = self._runner(game.signer(seat))
        try:
            self.session.submit(HandOver(seat, bot, by))
        except SyncError as exc:
            raise TableError(str(exc)) from None
        if owner is not None and self.session.link_to(owner) is not None:
            self._withheld[seat] = owner  # still connected: it withheld its draw value, it did not leave
        self.bot_names[seat] = bot
        self._note(f"{header.header.seats[seat].name}'s seat is played by a {bot} bot from this peer now")
        if self.peer is not None:
            self.peer.set_bot(seat, make_bot(bot, bot_seed(header.header.digest, seat)))

    def _hand_back(self) -> None:
        """wire.md §5.6 "Coming back": a seat handed over to a bot here goes back to its own peer when
        that peer is connected to this one again. From then on this peer's bot leaves the seat alone,
        and at the seat's next turn, before its tile is placed, this peer (the only one that may make
        the seat's entries then) makes the ``handback``; if the owner goes again first, the bot plays
        on. On the owner's side, a seat given back to a bot of its own is played by that bot again."""
        self._hand_back_soon = False
        header, game, peer = self.session.header, self.session.game, self.peer
        if header is None or game is None or peer is None or self.status != "playing" or self._closing:
            return
        connected = {link.key for link in self.session.open_links() if link.role != "spectator"}
        for seat, handover in enumerate(game.handovers):
            if handover is None:
                if seat in self.session.seats and seat in self.bot_names and seat not in peer.bots:
                    peer.set_bot(seat, make_bot(self.bot_names[seat], bot_seed(header.header.digest, seat)))
                continue
            if seat in self.session.seats or not self.session.plays(seat) or seat in self._withheld:
                continue  # not run here, or taken from a laptop that withheld its value and never left
            if self._owners.get(seat, header.keys[seat]) not in connected:
                if seat not in peer.bots:
                    bot = self.bot_names.setdefault(seat, handover.bot)
                    peer.set_bot(seat, make_bot(bot, bot_seed(header.header.digest, seat)))
                continue
            if self.to_play == seat and game.phase is not Phase.PLACE_TILE:
                continue  # mid-turn: the bot finishes it, the seat goes back at its next turn
            if seat in peer.bots:
                peer.set_bot(seat, None)
            if self.to_play == seat:
                try:
                    self.session.submit(HandBack(seat))
                except (SyncError, IllegalMoveError) as exc:
                    self._note(f"Cannot give {header.header.seats[seat].name}'s seat back: {exc}")
                    continue
                self.bot_names.pop(seat, None)
                self._note(f"{header.header.seats[seat].name} is back and plays their seat again")

    # ------------------------------------------------------------------ acting

    @property
    def can_chat(self) -> bool:
        return self.session.header is not None and bool(self.session.seats)

    def chats(self) -> list[tuple[int, str, bool]]:
        return [(line.seat, line.text, line.mine) for line in self.session.chats]

    @property
    def chats_made(self) -> int:
        return self.session.chats_made

    def say(self, text: str) -> None:
        """Says *text* to the table (protocol/wire.md §4.9): signed with this laptop's first seat key,
        sent to every peer it is connected to, who pass it on; never part of the game's log."""
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
            raise ValueError("only the peer that opened the table starts the game")
        table.start()

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
                bots=bots,
                bot_delay=self.bot_delay,
            )
            peer.think_cap = self.think_cap
            peer.on_thinking = self._thinking
            self.peer = await self._stack.enter_async_context(peer)
            if listen is not None:
                self.session.listen_port = peer.port
            for address in self.dial_first:
                peer.dial(*address)
            self._ad_dirty = asyncio.Event()
            if self.discovery:
                self._tasks.append(asyncio.create_task(self._discover()))
            table = self.hosting
            if table is not None and table.auto_start and table.full and table.started is None and not table.locked:
                table.lock()  # no open seat: nobody to wait for (a game of the host's own seats)
            if self.hosting is not None:
                self._tasks.append(asyncio.create_task(self._tick()))
            if self.kind != "spectator":
                self._tasks.append(asyncio.create_task(self._take_over_bot_seats()))
            self._tasks.append(asyncio.create_task(self._watch_withholding()))
            if self.kind != "spectator":
                self._tasks.append(asyncio.create_task(self._watch_clock()))
            self._note(self._hello_text())
        except BaseException:
            await self._stack.aclose()
            raise
        self.running = True
        self._changed("running")
        return self

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
        await self._stack.aclose()
        if self.recorder is not None:
            self.recorder.close()
        self._changed("ended")

    def _hello_text(self) -> str:
        peer = self.peer
        where = f" on port {peer.port}" if peer is not None and peer.listen else ""
        return {
            "host": f"Opened the table of game {self.game_id}{where}",
            "player": (
                f"Back on the network with game {self.game_id}{where}"
                if self.header is not None
                else f"Looking for the table of game {self.game_id}{where}"
            ),
            "spectator": f"Watching game {self.game_id}",
        }[self.kind]

    @property
    def log_name(self) -> str:
        return self.session.name

    # ------------------------------------------------------------------ reacting

    def _on_change(self, change: Change, link: Link | None) -> None:
        if change == "header":
            self._started()
        elif change == "stop" and self.session.desync is not None:
            self._note(f"The game stopped: {self.session.desync}")
        elif change == "peer" and link is not None and link.key is not None:
            game = self.session.game
            for seat in link.seats:
                self._runners[seat] = link.key
                if game is not None and seat < game.players and game.handovers[seat] is None:
                    self._owners[seat] = link.key
        elif change in ("open", "close") and link is not None:
            if link.key is not None and link.role != "spectator":
                self._seen_keys.add(link.key)
                if change == "open":
                    self._left.discard(link.key)
                elif link.closed_by in ("quit", "shutdown") and self.session.link_to(link.key) is None:
                    self._left.add(link.key)
            if change == "close" and link.closed_by in _FATAL and self.session.header is None:
                said = next((e.message for e in reversed(self.session.events) if e.code == link.closed_by), "")
                self.failure = f"refused: {link.closed_by}: {said}" if said else f"refused: {link.closed_by}"
                if not self.session.open_links():
                    self._note(self.failure.capitalize())
            elif (
                change == "close"
                and self.session.header is None
                and link.role == "host"
                and link.closed_by in ("quit", "shutdown")
            ):
                self.failure = f"the host ({link.name}) closed the table before the game started"
                self._note(self.failure.capitalize())
            # One line per peer coming and going: a second connection of a pair is no news.
            if change == "open" and link.key not in self._said_connected:
                self._said_connected.add(link.key)
                self._note(f"{link.name} connected")
            elif change == "close" and link.opened and link.closed_by != "duplicate" and (
                link.key is None or self.session.link_to(link.key) is None
            ):
                for seat in [s for s, key in self._withheld.items() if key == link.key]:
                    del self._withheld[seat]  # gone now: coming back is coming back (wire.md §5.6)
                self._said_connected.discard(link.key)
                self._note(f"{link.name} left ({link.closed_by})")
            cut_off = self.cut_off
            if cut_off != self._was_cut_off:
                self._was_cut_off = cut_off
                self._note("You are cut off from the table: no other player is connected to this laptop"
                           if cut_off else "Back in touch with the table")
            if self.kind == "spectator" and change == "open" and self._watching_through not in (None, link.name):
                self._note(f"Watching through {link.name} now ({self._watching_through} is gone)")
            if self.kind == "spectator" and change == "open":
                self._watching_through = link.name
        if change in ("entry", "open", "close", "peer") and self.peer is not None and not self._hand_back_soon:
            self._hand_back_soon = True  # after the change is handled: the session is not re-entered
            asyncio.get_running_loop().call_soon(self._hand_back)
        if self._ad_dirty is not None and change in ("lobby", "header", "entry", "stop"):
            self._ad_dirty.set()
        if change in ("header", "entry", "stop"):
            self._clock_update()
        self._changed(change)

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
                self._note(f"Cannot save the game: {exc}")
                return
            self.session.persistence = self.recorder
            self._path = path
            if self.recorder.held:
                self._note(f"Back at the game; its save goes on in {path} from move {self.recorder.held + 1}")
            else:
                self._note(f"The game started; saving it to {path}")
        # The lobby adds the seats right after the header: look once it has.
        asyncio.get_running_loop().call_soon(self._seats_known)

    def _seats_known(self) -> None:
        session, header = self.session, self.session.header
        if header is None or self.path is None:
            return
        if session.seats and self.kind != "spectator":
            try:
                _write_keys(keys_path(self.path), header.game, session.identity, session.seats, session.name,
                            self.clock)
            except OSError as exc:
                self._note(f"Cannot save the seat keys (the game cannot be resumed here): {exc}")
        if self._bot_for_seating is not None:
            for seat in session.seats:
                self.bot_names[seat] = self._bot_for_seating
        if self.peer is not None:
            for seat in session.seats:
                name = self.bot_names.get(seat)
                if name is not None and seat not in self.peer.bots:
                    self.peer.set_bot(seat, make_bot(name, bot_seed(header.header.digest, seat)))

    # ------------------------------------------------------------------ discovery

    def _ad(self) -> object | None:
        from carcnet.net.adverts import GameAd

        peer = self.peer
        if peer is None or not peer.listen or self.kind == "spectator":
            return None
        session = self.session
        lobby = self.lobby
        if session.header is not None:
            seats = session.header.header.seats
            taken = total = len(seats)
            name = self.game_name or (lobby.name if lobby else " & ".join(s.name for s in seats)[:32])
        elif lobby is not None:
            total = len(lobby.table)
            taken = sum(s is not None for s in lobby.table)
            name = lobby.name
        else:
            return None
        phase = {"lobby": "lobby", "playing": "playing", "finished": "finished"}.get(self.status)
        if phase is None:
            return None
        role = "host" if self.hosting is not None and session.header is None else "player"
        return GameAd(
            game=session.game_id,
            name=name,
            phase=phase,  # type: ignore[arg-type]
            seats_taken=taken,
            seats_total=total,
            peer=session.name,
            role=role,  # type: ignore[arg-type]
            key=session.identity.public,
            port=peer.port,
        )

    async def _discover(self) -> None:
        from carcnet.net.discovery import Advertiser, Browser, DiscoveryError, GameFound, GameUpdated

        dirty = self._ad_dirty
        assert dirty is not None
        try:
            async with Browser(interfaces=self.interfaces) as browser, Advertiser(interfaces=self.interfaces) as adv:
                advertised: object | None = None
                dirty.set()
                while not self._closing:
                    if dirty.is_set():
                        dirty.clear()
                        ad = self._ad()
                        if ad != advertised:
                            if ad is not None and advertised is None:
                                await adv.start(ad)  # type: ignore[arg-type]
                            elif ad is not None:
                                await adv.update(ad)  # type: ignore[arg-type]
                            advertised = ad
                    try:
                        async with asyncio.timeout(0.25):
                            event = await browser.next_event(timeout=0.25)
                    except TimeoutError:
                        continue
                    if event is None:
                        return
                    if isinstance(event, GameFound | GameUpdated):
                        self._found(event.ad)
        except DiscoveryError as exc:
            self._note(f"mDNS is not available ({exc}); connect with host:port")

    def _found(self, ad: object) -> None:
        from carcnet.net.adverts import GameAd

        assert isinstance(ad, GameAd)
        session = self.session
        if ad.game != session.game_id or ad.key == session.identity.public or not ad.addresses:
            return
        address = next((a for a in ad.addresses if "%" not in a and ":" not in a), ad.addresses[0])
        try:
            info = PeerInfo(ad.key, ad.peer, address.split("%")[0], ad.port)
        except ProtocolError:  # not an address a peer could be listed with
            return
        if self.kind == "spectator":
            if self.peer is not None and not session.open_links():
                self.peer.dial(info.addr, info.port)
            return
        session.add_known(info)

    async def _watch_withholding(self) -> None:
        """Tells the table's listeners when a seat starts or stops withholding its draw value
        (:meth:`withholding` changes with time alone, wire.md §5.7), and says so once per draw."""
        tick = max(0.02, min(0.5, self.reveal_wait / 4))
        last: list[int] = []
        said: set[tuple[int, int]] = set()
        while not self._closing:
            await asyncio.sleep(tick)  # the clock of the withholding rule, not a synchronisation
            now = self.withholding()
            if now == last:
                continue
            last = now
            header, waiting = self.session.header, self.session.waiting
            for seat in now:
                if header is not None and waiting is not None and (waiting[0], seat) not in said:
                    said.add((waiting[0], seat))
                    self._note(f"Waiting for {header.header.seats[seat].name}'s draw value: "
                               f"the seat counts as away (wire.md 5.7)")
            self.session.presence_changed()

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

    def _clock_update(self) -> None:
        """Starts and stops the seats' clocks as the turn passes (the seat to move, not while drawing)."""
        game = self.session.game
        if game is None:
            return
        if self.clocks is None:
            clock = self.clock
            if clock is None:
                return
            self.clocks = SeatClocks(clock, game.players)
        to_play = game.seat if game.phase in (Phase.PLACE_TILE, Phase.DEPLOY) and not self.session.stopped else None
        self.clocks.update(to_play, self.session.clock())

    async def _watch_clock(self) -> None:
        """wire.md §5.8: when the turn of a seat a person plays here runs out (its turn and its bank
        used up), this laptop plays the rest of the turn with the greedy bot's choice, and says so.
        Redraws the clocks once a second meanwhile."""
        said: set[tuple[int, int]] = set()
        shown = -1
        while not self._closing:
            await asyncio.sleep(0.25 if self.clocks is not None else 1.0)  # the clock's tick, not a synchronisation
            clocks, game = self.clocks, self.session.game
            if clocks is None or game is None or clocks.running is None or not self.running:
                continue
            seat = clocks.running[0]
            second = int(self.session.clock())
            if second != shown:  # the figures shown change once a second
                shown = second
                self._changed("clock")
            if seat not in self.human_seats or not clocks.expired(seat, self.session.clock()):
                continue
            turn = (seat, game.deck_index)
            if turn not in said:
                said.add(turn)
                self._note(f"{self.names[seat]}'s time ran out: the greedy bot plays the turn")
            header = self.session.header
            bot = make_bot("greedy", bot_seed(header.header.digest, seat) if header is not None else 0)
            for _ in range(2):  # the placement, then the deployment
                game = self.session.game
                if game is None or game.seat != seat or game.phase not in (Phase.PLACE_TILE, Phase.DEPLOY):
                    break
                try:
                    self.submit(bot.choose(game.view()))
                except (TableError, IllegalMoveError, SyncError) as exc:
                    log.info("the clock's move for seat %s was refused: %s", seat, exc)
                    break

    async def _tick(self) -> None:
        table = self.hosting
        assert table is not None
        while not self._closing and table.started is None:
            await asyncio.sleep(1.0)  # a clock for the lobby's commit–reveal timeout, not a synchronisation
            table.tick(self.session.clock())


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
        raise ValueError(f"a table has 2 to 6 seats; --seats gave {len(items)}")
    if items.count("me") > 1:
        raise ValueError("only one seat can be 'me'")
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
            raise ValueError(f"seat {i + 1}: {item!r} is not me, open or a bot ({', '.join(BOTS)})")
    return plan


def describe_table(lobby: Lobby | None, *, header: WireHeader | None = None) -> list[str]:
    """One line per seat for people: ``1. Ann (red, person)`` or ``2. (open)``."""
    if header is not None:
        return [
            f"{i + 1}. {s.name} ({s.colour}, {s.bot + ' bot' if s.bot else 'person'})"
            for i, s in enumerate(header.header.seats)
        ]
    if lobby is None:
        return []
    out = []
    for i, s in enumerate(lobby.table):
        if s is None:
            out.append(f"{i + 1}. (open)")
        else:
            out.append(f"{i + 1}. {s.seat.name} ({s.seat.colour}, {s.seat.bot + ' bot' if s.seat.bot else 'person'})")
    return out
