"""Provides the replay screen: a saved game move by move on the board, with the log and scores."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from carcnet.engine import Game, Phase, replay
from carcnet.log import LoadedLog
from carcnet.tui.screens.board_screen import BoardScreen

__all__ = ["ReplayScreen"]


class ReplayScreen(BoardScreen):
    """Steps through a saved game. The board can be panned and zoomed as in play; nothing changes
    the saved game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,right_square_bracket", "step(1)", "Next move", key_display="n"),
        Binding("b,left_square_bracket", "step(-1)", "Back", key_display="b"),
        Binding("N", "step(20)", "+20", show=False),
        Binding("B", "step(-20)", "-20", show=False),
        Binding("home", "goto(0)", "Start", show=False),
        Binding("end", "goto(-1)", "End"),
        Binding("f", "final", "Scores"),
        Binding("escape,q", "back", "Menu"),
    ]
    """n / b one move on or back (N / B twenty); Home / End the start or the end; f the score table."""

    def __init__(self, loaded: LoadedLog) -> None:
        seats = loaded.header.seats
        super().__init__(loaded.game, [s.name for s in seats], [s.colour for s in seats])
        self.loaded = loaded
        self.moves = list(loaded.game.moves)
        self.step = len(self.moves)
        self.game: Game = loaded.game

    def on_mount(self) -> None:
        self.board.focus()
        if self.loaded.damage is not None:
            self.notify(self.loaded.damage.message, title="Damaged tail ignored", severity="warning")
        self._show()

    def _show(self) -> None:
        self.game = replay(self.loaded.header.setup(), self.moves[: self.step])
        self.board.refresh_game(self.game)
        self.scoreboard.show(self.game)
        self.log_panel.clear()
        self.log_panel.add(self.game.events)
        end = " (end)" if self.game.phase is Phase.GAME_OVER else ""
        self.status.update(f"Replay: move {self.step} of {len(self.moves)}{end}. n next, b back, End last move")

    def action_step(self, delta: int) -> None:
        self.action_goto(max(0, min(len(self.moves), self.step + delta)))

    def action_goto(self, step: int) -> None:
        self.step = len(self.moves) if step < 0 else step
        self._show()

    def action_final(self) -> None:
        from carcnet.tui.screens.final import ProjectionScreen

        self.app.push_screen(ProjectionScreen(self.game, self.names, self.colours))

    def action_back(self) -> None:
        self.dismiss(None)
