"""Provides :class:`LiveReplayScreen`: the game so far, move by move, while it goes on (a player or a
spectator steps back through it, as the replay of a saved game does), the live table going on under
it; Escape returns to the present. Moves that arrive meanwhile are counted on the status line
("3 new moves"), and the status line says when the turn comes to this terminal."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.binding import Binding, BindingType

from carcnet.engine import DrawTile
from carcnet.i18n import N_, _, ngettext
from carcnet.log import LoadedLog, LogHeader
from carcnet.table import Table
from carcnet.tui.render import UNICODE_GLYPHS, Glyphs
from carcnet.tui.screens.board_screen import number_words
from carcnet.tui.screens.replay import ReplayScreen

__all__ = ["LiveReplayScreen", "new_moves"]

#: Seconds between two looks at the live table for new moves (a display tick, not a synchronisation).
LOOK_EVERY = 0.5


def new_moves(table: Table, since: int) -> int:
    """How many players' moves *table*'s game holds past its first *since* log moves (the table's
    draws are not counted, as the replay does not count them)."""
    game = table.game
    if game is None:
        return 0
    return sum(not isinstance(m, DrawTile) for m in game.moves[since:])


class LiveReplayScreen(ReplayScreen):
    """The moves of *table*'s game up to now, to step through as a saved game's replay (n / b, Home /
    End, g, Space, the chart); the table plays on meanwhile and nothing here changes it. Escape (or
    ``[`` again) goes back to the game as it is now.

    Args:
        table: The running table (its game has started).
        glyphs: The board's glyphs.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,left_square_bracket,q", "back", N_("Back to the game"), key_display="Esc",
                tooltip=N_("Back to the game as it is now")),
    ]
    """Escape, ``[`` or ``q``: back to the present (the game screen under it)."""

    def __init__(self, table: Table, *, glyphs: Glyphs = UNICODE_GLYPHS) -> None:
        game = table.game
        assert game is not None, "the game has not started"
        header = getattr(table, "header", None)  # a local table's log header, or a network table's wire header
        log_header = header if isinstance(header, LogHeader) else getattr(header, "header", None)
        assert isinstance(log_header, LogHeader)
        snapshot = game.copy()
        super().__init__(LoadedLog(Path(), log_header, (), snapshot, None, 0), glyphs=glyphs)
        self.table = table
        self._since = len(snapshot.moves)
        self._new = 0
        self._turn = False

    def on_mount(self) -> None:
        super().on_mount()
        self.set_interval(LOOK_EVERY, self._look)

    def _look(self) -> None:
        """Counts the moves made since the replay opened; redraws the status line when that changed."""
        new = new_moves(self.table, self._since)
        turn = self.table.my_turn()
        if (new, turn) != (self._new, self._turn):
            self._show()

    @property
    def new(self) -> int:
        """Players' moves made at the table since this replay opened."""
        return self._new

    def _show(self) -> None:
        super()._show()
        self._new = new_moves(self.table, self._since)
        self._turn = self.table.my_turn()
        numbers = {"move": self._move_number(self.step), "moves": self._move_number(len(self.moves))}
        if self.step == len(self.moves):
            # Translators: the live replay's status line: the move shown (the last one), of how many
            parts = [_("[b]The game so far[/b]: move {move} of {moves} (now)").format(**numbers)]
        else:
            # Translators: the live replay's status line: the move shown, of how many
            parts = [_("[b]The game so far[/b]: move {move} of {moves}").format(**numbers)]
        if self._new:
            # Translators: the moves made at the table since the replay opened
            parts.append(ngettext("[b]{n} new move[/b]", "[b]{n} new moves[/b]", self._new).format(n=self._new))
        else:
            parts.append(_("no new move"))
        if self._turn:
            parts.append(_("[b]your turn[/b]"))
        # Translators: Esc is the key
        parts.append(_("Esc: back to the game."))
        keys = ""
        if self.playing:
            # Translators: {speed} moves a second (0.5, 2)
            keys = _("Playing, {speed} moves/s.").format(speed=number_words(self.speed)) + " "
        # Translators: the replay's keys: n/b one move on or back, N/B twenty, Home/End, g, Space
        keys += _("n/b ±1, N/B ±20, Home/End, g go to, Space play")
        self.status.update(" · ".join(parts) + " " + keys)
