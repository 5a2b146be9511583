"""Provides :class:`LocalTable`: a game whose seats are all at this laptop (people taking turns at one
terminal, and bots), its log a file written before each move counts (``protocol/log.md`` §9).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Self

from carcnet.bots import Bot, ScriptedBot, make_bot
from carcnet.engine import Game, Move, Phase, Rules
from carcnet.i18n import _
from carcnet.log import GameRecorder, LogError, LogHeader, Seat, new_path
from carcnet.log.branch import continue_from

from .base import Status, Table, TableError, bot_seed
from .driver import BotDriver

__all__ = ["LocalTable"]


class LocalTable(Table):
    """A game at this terminal: every seat is played here, by a person or a bot; the log is a file.

    Build with :meth:`new` or :meth:`resume`. While ``async with table:`` runs, the bots of the bot
    seats move by themselves (after ``bot_delay`` seconds before each placement); a person's move
    comes in through :meth:`submit`. Leaving the block closes the log.

    Args:
        recorder: The game's open log.
        bot_delay: Seconds a bot waits before placing its tile (0: at once).
        script: Move number → the move a bot seat plays then, if legal (a lesson on a fixed deck: the
            bots play the script, each its own bot where the script gives nothing;
            :class:`~carcnet.bots.ScriptedBot`).

    Attributes:
        recorder: The game's :class:`~carcnet.log.GameRecorder`.
        bots: Seat → bot, for the bot seats.
    """

    def __init__(self, recorder: GameRecorder, *, bot_delay: float = 0.0,
                 script: Mapping[int, Move] | None = None) -> None:
        super().__init__("local", bot_delay=bot_delay)
        self.recorder = recorder
        self.recovery = recorder.recovery
        self.bots: dict[int, Bot] = {
            i: make_bot(seat.bot or "random", bot_seed(recorder.header.digest, i))
            for i, seat in enumerate(recorder.header.seats)
            if seat.player == "bot"
        }
        if script:
            self.bots = {i: ScriptedBot(script, bot) for i, bot in self.bots.items()}
        self._driver = BotDriver(
            _LocalTurns(self),
            self._record,
            bots=self.bots,
            delay=bot_delay,
            think_cap=lambda: self.think_cap,
            ponder=lambda: self.ponder,
            on_thinking=self._thinking,
            stop_on=(OSError, LogError),
            name="local",
        )
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    # ---------------------------------------------------------------- construction

    @classmethod
    def new(
        cls,
        seats: Sequence[Seat],
        *,
        seed: int | None = None,
        rules: Rules | None = None,
        directory: str | os.PathLike[str] | None = None,
        bot_delay: float = 0.0,
        order: Sequence[str] | None = None,
        script: Mapping[int, Move] | None = None,
        moves: Sequence[Move] = (),
    ) -> Self:
        """Starts and records a new game in *directory* (default: the data folder's games directory);
        a random seed (``os.urandom``) unless one is given, or instead of a seed the explicit draw
        *order* of a fixed deck (tile ids, the start tile left out: ``protocol/deck.md``). *script*:
        moves for the bot seats (see the class). *moves*: the first moves, recorded at once (a lesson
        begun part-way through its game).

        Raises:
            LogFormatError: A seat is invalid (name, colour, bot), or two share a colour.
            ValueError: Unknown bot name.
            IllegalMoveError: One of *moves* is not legal (nothing is kept: the log is removed).
            OSError: The log cannot be created.
        """
        if seed is None and order is None:
            seed = int.from_bytes(os.urandom(8), "big")
        for s in seats:
            if s.bot:
                make_bot(s.bot, 0)
        header = LogHeader.new(list(seats), seed=seed, order=order, options=rules)
        path = None
        if directory is not None:
            Path(directory).mkdir(parents=True, exist_ok=True)
            path = new_path(header, Path(directory))
        recorder = GameRecorder.create(header, path)
        try:
            for move in moves:
                recorder.submit(move)
        except BaseException:
            recorder.close()
            if path is not None:
                path.unlink(missing_ok=True)
            raise
        return cls(recorder, bot_delay=bot_delay, script=script)

    @classmethod
    def branch(cls, header: LogHeader, moves: Sequence[Move], at: int, *, directory: str | os.PathLike[str],
               seats: Sequence[Seat] | None = None, bot_delay: float = 0.0) -> Self:
        """A new local game that continues the game of *header* and *moves* after its first *at*
        moves ("continue from here", :func:`carcnet.log.branch.continue_from`), recorded in a new
        file of *directory*; the original's file is not touched.

        Raises:
            ValueError: *at* out of range, or *seats* not one per seat.
            LogFormatError: A seat is invalid. OSError: The log cannot be created.
        """
        new, kept = continue_from(header, moves, at, seats=seats)
        Path(directory).mkdir(parents=True, exist_ok=True)
        recorder = GameRecorder.create(new, new_path(new, Path(directory)))
        try:
            for move in kept:
                recorder.submit(move)
        except BaseException:
            recorder.close()
            raise
        return cls(recorder, bot_delay=bot_delay)

    @classmethod
    def resume(cls, path: str | os.PathLike[str], *, bot_delay: float = 0.0,
               script: Mapping[int, Move] | None = None) -> Self:
        """Continues a saved local game (*script*: moves for its bot seats, see the class).

        Raises:
            LogError: The log is refused (``carcnet.log.load`` says why).
            OSError: It cannot be read or written.
        """
        return cls(GameRecorder.resume(path), bot_delay=bot_delay, script=script)

    # ---------------------------------------------------------------- reading

    @property
    def game(self) -> Game:
        """The game after every recorded move. Read only."""
        return self.recorder.game

    @property
    def header(self) -> LogHeader:
        """The game's log header."""
        return self.recorder.header

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.recorder.header.seats

    @property
    def path(self) -> Path:
        return self.recorder.path

    @property
    def status(self) -> Status:
        if self.recorder.writer.broken:
            return "stopped"
        return "finished" if self.game.phase is Phase.GAME_OVER else "playing"

    @property
    def to_play(self) -> int | None:
        return self.game.actor if self.status == "playing" else None

    @property
    def my_seats(self) -> list[int]:
        return list(range(len(self.seats)))

    @property
    def human_seats(self) -> list[int]:
        return [s for s in range(len(self.seats)) if s not in self.bots]

    def my_turn(self) -> bool:
        seat = self.to_play
        return seat is not None and seat not in self.bots

    # ---------------------------------------------------------------- changing

    def submit(self, move: Move) -> None:
        """Plays and records *move* for the seat to move, a person's (see :meth:`Table.submit`)."""
        if not self.my_turn():
            raise TableError(_("it is not a person's turn at this table"))
        self._record(move)

    def _record(self, move: Move) -> None:
        try:
            self.recorder.submit(move)
        except (OSError, LogError) as exc:
            if self.recorder.writer.broken:
                # Translators: {reason} says why the save could not be written.
                self.failure = _("the game cannot be saved ({reason}); resume it from the menu").format(reason=exc)
                # Translators: {reason} says why the save could not be written.
                self._note(_("Could not save the move: {reason}").format(reason=exc))
                self._changed("stop")
            raise
        self._changed("entry")
        self._driver.wake()

    # ---------------------------------------------------------------- running

    async def __aenter__(self) -> Self:
        self.running = True
        self._task = asyncio.get_running_loop().create_task(self._driver.run(), name="carcnet local bots")
        self._changed("running")
        return self

    def close(self, reason: str = "quit") -> None:
        """Stops the bots and closes the log (everything is on disk already)."""
        if self._closed:
            return
        self._closed = True
        self.running = False
        if self._task is not None:
            self._task.cancel()
        self.recorder.close()

    async def aclose(self, reason: str = "quit") -> None:
        self.close(reason)
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._changed("ended")


class _LocalTurns:
    """A local table's game as its :class:`~carcnet.table.driver.BotDriver` reads it: every seat is
    played here; the moves held are the game's moves."""

    __slots__ = ("_table",)

    def __init__(self, table: LocalTable) -> None:
        self._table = table

    @property
    def to_play(self) -> int | None:
        return self._table.to_play

    @property
    def game(self) -> Game:
        return self._table.game

    @property
    def have(self) -> int:
        return len(self._table.game.moves)

    def plays(self, seat: int) -> bool:
        return True
