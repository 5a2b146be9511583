"""Provides :class:`GameSession`: the one façade the interface holds for a game being played.

A session owns the game's recorder (every move is on disk before it counts, ``protocol/log.md`` §9)
and the bots of the bot seats. The interface reads the game through :attr:`GameSession.game` and
changes it only through :meth:`GameSession.submit` (a human's move) and
:meth:`GameSession.play_bot_move`. It never touches textual; the LAN layer will plug in here too.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from carcnet.bots import Bot, make_bot
from carcnet.engine import Event, Game, Move, Phase, Rules
from carcnet.log import GameRecorder, LogHeader, Recovery, Seat

__all__ = ["GameSession", "SeatPlan", "bot_seed"]


@dataclass(frozen=True, slots=True)
class SeatPlan:
    """One seat of a new local game: who sits there.

    Attributes:
        name: Shown name, 1 to 32 characters.
        colour: One of ``carcnet.log.COLOURS``, distinct per game.
        bot: ``None`` for a human at this terminal, else a bot name (``"random"``, ``"greedy"``).
    """

    name: str
    colour: str
    bot: str | None = None


def bot_seed(setup_digest: bytes, seat: int) -> int:
    """A bot's seed: from the game's setup digest and its seat, so the same setup plays the same."""
    return int.from_bytes(hashlib.sha256(setup_digest + f"carcnet/bot {seat}".encode()).digest()[:8], "big")


class GameSession:
    """A game being played at this terminal: recorder, bots, and listeners for changes.

    Lifecycle: :meth:`new_local` or :meth:`resume`; then :meth:`submit` / :meth:`play_bot_move` until
    ``game.phase`` is ``Phase.GAME_OVER``; :meth:`close`.

    Attributes:
        recorder: The game's :class:`~carcnet.log.GameRecorder`.
        bots: Seat → bot, for the bot seats.
    """

    def __init__(self, recorder: GameRecorder) -> None:
        self.recorder = recorder
        self.bots: dict[int, Bot] = {
            i: make_bot(seat.bot or "random", bot_seed(recorder.header.digest, i))
            for i, seat in enumerate(recorder.header.seats)
            if seat.player == "bot"
        }
        self._listeners: list[Callable[[list[Event]], None]] = []

    # ---------------------------------------------------------------- construction

    @classmethod
    def new_local(
        cls,
        seats: Sequence[SeatPlan],
        *,
        seed: int | None = None,
        rules: Rules | None = None,
        path: str | os.PathLike[str] | None = None,
    ) -> GameSession:
        """Starts and records a new game; a random seed unless one is given (``os.urandom``).

        Raises:
            LogFormatError: A seat is invalid (name, colour, bot).
            ValueError: Unknown bot name.
            OSError: The log cannot be created.
        """
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "big")
        header = LogHeader.new(
            [Seat(s.name, s.colour, "bot" if s.bot else "human", s.bot) for s in seats], seed=seed, options=rules
        )
        for s in seats:
            if s.bot:
                make_bot(s.bot, 0)
        return cls(GameRecorder.create(header, path))

    @classmethod
    def resume(cls, path: str | os.PathLike[str]) -> GameSession:
        """Continues a saved game. Raises ``LogError`` when the log is refused, ``OSError`` on I/O."""
        return cls(GameRecorder.resume(path))

    # ---------------------------------------------------------------- reading

    @property
    def game(self) -> Game:
        """The game after every recorded move. Read only."""
        return self.recorder.game

    @property
    def header(self) -> LogHeader:
        return self.recorder.header

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.header.seats]

    @property
    def colours(self) -> list[str]:
        return [s.colour for s in self.header.seats]

    @property
    def path(self) -> Path:
        return self.recorder.path

    @property
    def recovery(self) -> Recovery | None:
        """What resuming did with a damaged last record, if anything."""
        return self.recorder.recovery

    def is_bot_turn(self) -> bool:
        """True when the game goes on and the seat to move is a bot."""
        return self.game.phase is not Phase.GAME_OVER and self.game.seat in self.bots

    def is_over(self) -> bool:
        return self.game.phase is Phase.GAME_OVER

    # ---------------------------------------------------------------- changing

    def subscribe(self, listener: Callable[[list[Event]], None]) -> None:
        """Calls *listener* with the events of every move made from now on."""
        self._listeners.append(listener)

    def submit(self, move: Move) -> list[Event]:
        """Plays and records *move* for the seat to move.

        Raises:
            IllegalMoveError: The engine refuses it; nothing changes.
            OSError, LogError: Recording failed; the game is as before the move.
        """
        events = self.recorder.submit(move)
        for listener in list(self._listeners):
            listener(events)
        return events

    def play_bot_move(self) -> list[Event]:
        """Lets the bot of the seat to move choose and play one move. Raises ``ValueError`` when it is
        not a bot's turn."""
        if not self.is_bot_turn():
            raise ValueError("it is not a bot's turn")
        move = self.bots[self.game.seat].choose(self.game)
        return self.submit(move)

    def close(self) -> None:
        self.recorder.close()
