"""Provides :class:`BoardScreen`: the layout shared by the game and replay screens: the board, a
side panel with the scoreboard and the log, a status line and the footer."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from carcnet.engine import Game
from carcnet.tui.render import ASCII_GLYPHS, UNICODE_GLYPHS, Glyphs
from carcnet.tui.widgets.board import BoardView
from carcnet.tui.widgets.game_log import GameLog
from carcnet.tui.widgets.scoreboard import Scoreboard

__all__ = ["BoardScreen", "glyphs_named"]


def glyphs_named(name: str) -> Glyphs:
    """The glyph set of the settings' ``glyphs`` (``"unicode"`` or ``"ascii"``)."""
    return ASCII_GLYPHS if name == "ascii" else UNICODE_GLYPHS


class BoardScreen(Screen[None]):
    """Board on the left, scoreboard and log on the right, status line below. Shows *game*; the
    subclass decides what changes it (a game session or a replay)."""


    def __init__(self, game: Game, names: list[str], colours: list[str], *, glyphs: Glyphs = UNICODE_GLYPHS) -> None:
        super().__init__()
        self.names = names
        self.colours = colours
        self.board = BoardView(game, colours, glyphs=glyphs, interactive=False, id="board")
        self.scoreboard = Scoreboard(names, colours, glyphs=glyphs, id="scoreboard")
        self.log_panel = GameLog(names, colours, id="log")
        self.status = Static("", id="status")

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield self.board
            with Vertical(id="side"):
                yield self.scoreboard
                yield self.log_panel
        yield self.status
        yield Footer()
