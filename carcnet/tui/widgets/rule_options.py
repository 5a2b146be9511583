"""Provides :class:`RuleOptions`: the expansions of a new game (The River with its start-tile choice,
The Abbot), shared by the local new-game screen and the host's table setup."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Checkbox, Select

from carcnet.engine import Rules

__all__ = ["RuleOptions"]


class RuleOptions(Horizontal):
    """A row of the rule options: ``#river`` (checkbox), ``#abbot`` (checkbox) and, shown only with
    The River on, ``#river-start``: what becomes of the base game's start tile (``mix``: shuffled in
    with the land tiles, HiG; ``omit``: left in the box, Z-Man), in plain words (issue 15 item 7)."""

    DEFAULT_CSS = """
    RuleOptions { height: 3; margin-top: 1; }
    RuleOptions #river-start { width: 32; }
    RuleOptions #river-start.-off { display: none; }
    """

    def compose(self) -> ComposeResult:
        yield Checkbox("The River", id="river")
        yield Checkbox("The Abbot", id="abbot")
        yield Select(
            [("Start tile: shuffled in", "mix"), ("Start tile: left out", "omit")],
            value="mix", allow_blank=False, id="river-start", classes="-off",
            tooltip="With The River, the base game's start tile is shuffled into the land tiles (HiG) "
            "or left in the box (Z-Man)",
        )

    @on(Checkbox.Changed, "#river")
    def _river(self, event: Checkbox.Changed) -> None:
        self.query_one("#river-start", Select).set_class(not event.value, "-off")

    def rules(self) -> Rules:
        """The options as the engine's :class:`~carcnet.engine.Rules`."""
        return Rules(
            river=self.query_one("#river", Checkbox).value,
            abbot=self.query_one("#abbot", Checkbox).value,
            river_start=str(self.query_one("#river-start", Select).value),
        )
