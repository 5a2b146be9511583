"""Provides the replay screen: a saved game move by move on the board, with the log and scores."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from carcnet.engine import DrawTile, Game, Phase, replay
from carcnet.log import LoadedLog
from carcnet.tui.render import UNICODE_GLYPHS, Glyphs
from carcnet.tui.screens.board_screen import BoardScreen

__all__ = ["ReplayScreen"]


class ReplayScreen(BoardScreen):
    """Steps through a saved game. The board can be panned and zoomed as in play; nothing changes
    the saved game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,right_square_bracket", "step(1)", "Next move", key_display="n"),
        Binding("b,left_square_bracket", "step(-1)", "Back", key_display="b"),
        Binding("N", "step(20)", "+20 moves", key_display="N"),
        Binding("B", "step(-20)", "-20 moves", key_display="B"),
        # priority: the focused board scrolls on Home and End otherwise (issue 15 item 2)
        Binding("home", "goto(0)", "Start", priority=True),
        Binding("end", "goto(-1)", "End", priority=True),
        Binding("f", "final", "Scores"),
        Binding("escape,q", "back", "Menu"),
    ]
    """n / b one move on or back (N / B twenty); Home / End the start or the end; f the score table."""

    def __init__(self, loaded: LoadedLog, *, glyphs: Glyphs = UNICODE_GLYPHS) -> None:
        seats = loaded.header.seats
        super().__init__(loaded.game, [s.name for s in seats], [s.colour for s in seats], glyphs=glyphs)
        self.loaded = loaded
        self.moves = list(loaded.game.moves)
        #: The positions replay stops at: a number of moves after which the next is no table draw
        #: (deck.md §5: a draw is the table's, shown with the move before it), and the end.
        self.stops = [p for p in range(len(self.moves) + 1)
                      if p == len(self.moves) or not isinstance(self.moves[p], DrawTile)]
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
        played = sum(not isinstance(m, DrawTile) for m in self.moves)
        done = sum(not isinstance(m, DrawTile) for m in self.moves[: self.step])
        self.status.update(f"Replay: move {done} of {played}{end}. n / b next / back, N / B twenty, Home start, "
                           "End last move")

    def action_step(self, delta: int) -> None:
        at = self.stops.index(self.step) if self.step in self.stops else len(self.stops) - 1
        self.step = self.stops[max(0, min(len(self.stops) - 1, at + delta))]
        self._show()

    def action_goto(self, step: int) -> None:
        self.step = self.stops[-1] if step < 0 else self.stops[0] if step == 0 else step
        self._show()

    def action_final(self) -> None:
        from carcnet.tui.screens.final import ProjectionScreen

        self.app.push_screen(ProjectionScreen(self.game, self.names, self.colours))

    def action_back(self) -> None:
        self.dismiss(None)
