"""Provides :class:`SeatFormScreen`: what the new-game and host setup screens share: a list of 2 to 6
seat rows with buttons (and keys) to add and remove one, and an error line."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Static

from carcnet.i18n import N_, ngettext

__all__ = ["SeatFormScreen"]

#: The fewest and the most seats a game has.
LEAST, MOST = 2, 6


class SeatFormScreen(Screen[None]):
    """A form with one row per seat in ``#seats`` and an ``#error`` line. Subclasses say what a new
    row is (:meth:`new_row`); ``+ seat`` / ``- seat`` (``#add``, ``#remove``, Ctrl+N, Ctrl+R) add or
    remove the last row, keeping 2 to 6 seats."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", N_("Back")),
        Binding("ctrl+n", "add", N_("Add seat")),
        Binding("ctrl+r", "remove", N_("Remove seat")),
    ]
    """Escape back; Ctrl+N / Ctrl+R add or remove a seat (2 to 6)."""

    HORIZONTAL_BREAKPOINTS = [(0, "-slim"), (72, "-roomy")]  # noqa: RUF012 (typed by Screen)
    """Under 72 columns the screen has the class ``-slim``: the style sheet puts the fields of a row
    that would not fit side by side under each other (at 60 columns the farm rule's choice and the
    small cities box)."""

    def new_row(self, index: int) -> Widget:
        """The row of a seat added at *index* (0-based)."""
        raise NotImplementedError

    def rows(self) -> list[Widget]:
        """The seat rows, in seat order."""
        return list(self.query_one("#seats").children)

    @on(Button.Pressed, "#add")
    def action_add(self) -> None:
        rows = self.rows()
        if len(rows) >= MOST:
            self._error(ngettext("A game has at most {n} player.", "A game has at most {n} players.",
                                 MOST).format(n=MOST))
            return
        self.query_one("#seats").mount(self.new_row(len(rows)))
        self._error("")

    @on(Button.Pressed, "#remove")
    def action_remove(self) -> None:
        rows = self.rows()
        if len(rows) <= LEAST:
            self._error(ngettext("A game needs at least {n} player.", "A game needs at least {n} players.",
                                 LEAST).format(n=LEAST))
            return
        rows[-1].remove()
        self._error("")

    def _error(self, text: str) -> None:
        self.query_one("#error", Static).update(text)

    def action_back(self) -> None:
        self.dismiss(None)
