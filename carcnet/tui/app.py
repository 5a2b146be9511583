"""Provides :class:`CarcnetApp`: the Textual application (home, new game, game, replay, help).

The app builds :class:`~carcnet.session.GameSession` objects and hands them to the game screen; it
never changes a game itself. Saved games live in :attr:`CarcnetApp.data_dir`.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from textual.app import App, SystemCommand
from textual.screen import Screen

from carcnet.engine import Rules
from carcnet.log import default_dir
from carcnet.session import GameSession, SeatPlan
from carcnet.tui.screens.game import GameScreen
from carcnet.tui.screens.home import HomeScreen

__all__ = ["CarcnetApp"]


class CarcnetApp(App[None]):
    """carcnet's terminal interface.

    Args:
        data_dir: Folder of saved games (default: the user data folder, ``CARCNET_DATA_DIR``).
        bot_delay: Seconds a bot waits before each move so people can follow; 0 in tests.
        seed: Deck seed for new games (default: random), for tests and demos.
    """

    TITLE = "carcnet"
    SUB_TITLE = "Carcassonne for the terminal"
    ENABLE_COMMAND_PALETTE = True

    def __init__(self, *, data_dir: Path | None = None, bot_delay: float = 0.6, seed: int | None = None) -> None:
        super().__init__()
        self.data_dir = Path(data_dir) if data_dir is not None else default_dir()
        self.bot_delay = bot_delay
        self.seed = seed

    def on_mount(self) -> None:
        self.push_screen(HomeScreen())
        gc.freeze()  # long-lived start-up objects out of the collector's way (docs/performance.md)

    # ------------------------------------------------------------------ sessions

    def new_session(
        self, seats: Sequence[SeatPlan], seed: int | None = None, rules: Rules | None = None
    ) -> GameSession:
        """Starts and records a new local game in :attr:`data_dir` with the rule options *rules*."""
        from carcnet.log import LogHeader, Seat, new_path

        chosen = seed if seed is not None else self.seed
        if chosen is None:
            chosen = int.from_bytes(os.urandom(8), "big")
        header = LogHeader.new(
            [Seat(s.name, s.colour, "bot" if s.bot else "human", s.bot) for s in seats],
            seed=chosen,
            options=rules,
        )
        self.data_dir.mkdir(parents=True, exist_ok=True)
        from carcnet.log import GameRecorder

        return GameSession(GameRecorder.create(header, new_path(header, self.data_dir)))

    def resume_session(self, path: Path) -> GameSession:
        """Continues the saved game at *path*."""
        return GameSession.resume(path)

    def game_screen(self, session: GameSession) -> GameScreen:
        return GameScreen(session, bot_delay=self.bot_delay)

    # ------------------------------------------------------------------ command palette

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        if isinstance(screen, GameScreen):
            yield SystemCommand("Projected scores", "The scores if the game ended now", screen.action_projection)
            yield SystemCommand("Zoom", "Switch the board between detailed and overview", screen.board.action_toggle_zoom)
            yield SystemCommand("Recentre", "Centre the board on the cursor, then the start tile", screen.board.action_centre)
            yield SystemCommand("Back to the menu", "The game is saved and can be resumed", screen.action_leave)
        yield SystemCommand("Help", "How to play and every key", self.action_show_help)

    def action_show_help(self) -> None:
        from carcnet.tui.screens.help import HelpScreen

        self.push_screen(HelpScreen())
