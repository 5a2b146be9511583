"""Provides the game screen: the board, the scoreboard with the drawn tile, and the log.

The screen holds a :class:`~carcnet.session.GameSession` and changes the game only by submitting
moves to it (a human's choice posted by the board, or a bot's move after a short visible pause).
Every move is on disk before the screen shows it (the session records it).
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.timer import Timer

from carcnet.engine import DeployMeeple, Event, IllegalMoveError, Phase, PlaceTile, SkipMeeple
from carcnet.log import LogError
from carcnet.session import GameSession
from carcnet.tui.screens.table import TableScreen
from carcnet.tui.widgets.board import BoardView
from carcnet.tui.widgets.palette import seat_style

__all__ = ["GameScreen"]


class GameScreen(TableScreen):
    """A game at this terminal: humans (hotseat) and bots around one board.

    Args:
        session: The game being played.
        bot_delay: Seconds a bot waits before each move, so people can follow (0 in tests).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "projection", "If it ended now", tooltip="Projected final scores with their breakdown"),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("q", "leave", "Menu", tooltip="Back to the menu; the game is saved and can be resumed"),
    ]
    """``p`` projected final scores; ``?`` help; ``q`` back to the menu (nothing is lost)."""

    def __init__(self, session: GameSession, *, bot_delay: float = 0.6) -> None:
        super().__init__(session.game, session.names, session.colours)
        self.session = session
        self.bot_delay = bot_delay
        self._bot_timer: Timer | None = None
        self._bot_pending = False
        self._rotation: int | None = None
        self._finished_shown = False

    def on_mount(self) -> None:
        game = self.session.game
        self.log_panel.add(game.events)
        if self.session.recovery is not None:
            self.notify(self.session.recovery.message, title="Saved game repaired", severity="warning", timeout=10)
        self.board.focus()
        self._after_change()

    # ----------------------------------------------------------------------- turn flow

    @property
    def local_seats(self) -> set[int]:
        """The seats played by people at this terminal."""
        return {s for s in range(self.session.game.players) if s not in self.session.bots}

    def _after_change(self, events: list[Event] | None = None) -> None:
        """Brings every panel up to date and schedules whatever happens next."""
        session = self.session
        game = session.game
        if events:
            self.log_panel.add(events)
        human = not session.is_over() and not session.is_bot_turn()
        self.board.interactive = human
        self.board.refresh_game(game)
        self.scoreboard.show(game, self._rotation, self.local_seats)
        self._show_status()
        if session.is_over():
            self._show_final()
        elif session.is_bot_turn():
            self._schedule_bot()
        elif game.phase is Phase.DEPLOY and not game.deploy_options():
            self._submit(SkipMeeple())  # nothing to choose: no meeple left or no free segment

    def _show_status(self) -> None:
        game = self.session.game
        if game.phase is Phase.GAME_OVER:
            self.status.update("Game over: press Escape on the scores to look at the board, q for the menu")
            return
        name = self.session.names[game.seat]
        style = seat_style(self.session.colours[game.seat])
        if self.session.is_bot_turn():
            text = f"[{style}]{name}[/] is thinking…"
        elif game.phase is Phase.PLACE_TILE:
            text = (f"[{style}]{name}[/]: place {game.drawn}: Tab next spot, r rotate, Enter place, "
                    "arrows move, z zoom")
        else:
            text = f"[{style}]{name}[/]: a digit deploys a meeple on that spot, 0 or Space skips"
        self.status.update(text)

    def _schedule_bot(self) -> None:
        if self._bot_pending:
            return
        self._bot_pending = True
        if self.bot_delay > 0:
            self._bot_timer = self.set_timer(self.bot_delay, self._bot_step)
        else:  # no pause (tests): after the screen has refreshed
            self.call_after_refresh(self._bot_step)

    def _bot_step(self) -> None:
        self._bot_timer = None
        self._bot_pending = False
        if not self.is_attached or self.session.recorder.writer.broken or not self.session.is_bot_turn():
            return
        try:
            events = self.session.play_bot_move()
        except (OSError, LogError) as exc:
            self.notify(f"Could not save the move: {exc}. The game is paused; resume it from the menu.",
                        severity="error", timeout=15)
            return
        self._after_change(events)

    def _submit(self, move: PlaceTile | DeployMeeple | SkipMeeple) -> None:
        try:
            events = self.session.submit(move)
        except IllegalMoveError as exc:
            self.notify(str(exc), title="Not allowed", severity="error")
            return
        except (OSError, LogError) as exc:
            self.notify(f"Could not save the move: {exc}", severity="error", timeout=15)
            return
        self._after_change(events)

    def _show_final(self) -> None:
        if self._finished_shown:
            return
        self._finished_shown = True
        from carcnet.tui.screens.final import FinalScreen

        self.app.push_screen(FinalScreen(self.session.game, self.session.names, self.session.colours))

    # ----------------------------------------------------------------------- board messages

    @on(BoardView.PlacementChosen)
    def _placement(self, message: BoardView.PlacementChosen) -> None:
        game = self.session.game
        if game.phase is not Phase.PLACE_TILE or self.session.is_bot_turn() or game.drawn is None:
            return
        self._submit(PlaceTile(game.drawn, message.position, message.rotation))

    @on(BoardView.DeployChosen)
    def _deploy(self, message: BoardView.DeployChosen) -> None:
        game = self.session.game
        if game.phase is not Phase.DEPLOY or self.session.is_bot_turn():
            return
        self._submit(SkipMeeple() if message.segment is None else DeployMeeple(message.segment))

    @on(BoardView.CursorMoved)
    def _cursor(self, message: BoardView.CursorMoved) -> None:
        if message.rotation != self._rotation:
            self._rotation = message.rotation
            self.scoreboard.show(self.session.game, self._rotation, self.local_seats)

    # ----------------------------------------------------------------------- actions

    def action_projection(self) -> None:
        from carcnet.tui.screens.final import ProjectionScreen

        self.app.push_screen(ProjectionScreen(self.session.game, self.session.names, self.session.colours))

    def action_help(self) -> None:
        from carcnet.tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())

    def action_leave(self) -> None:
        if self._bot_timer is not None:
            self._bot_timer.stop()
            self._bot_timer = None
        self._bot_pending = True  # nothing more after leaving
        self.session.close()
        self.dismiss(None)
