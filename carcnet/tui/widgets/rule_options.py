"""Provides :class:`RuleOptions`: the expansions of a new game (The River with its start-tile choice,
The Abbot), shared by the local new-game screen and the host's table setup."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Checkbox, Select

from carcnet.engine import Rules

__all__ = ["RuleOptions"]


class RuleOptions(Horizontal):
    """A row of the rule options: ``#river`` (checkbox), ``#river-start`` (``mix``: the base start tile
    mixed into the land tiles, HiG; ``omit``: left out, Z-Man) and ``#abbot`` (checkbox)."""

    DEFAULT_CSS = """
    RuleOptions { height: 3; margin-top: 1; }
    RuleOptions #river-start { width: 32; }
    """

    def compose(self) -> ComposeResult:
        yield Checkbox("The River", id="river")
        yield Select(
            [("Start tile mixed in (HiG)", "mix"), ("Start tile left out (Z-Man)", "omit")],
            value="mix", allow_blank=False, id="river-start",
        )
        yield Checkbox("The Abbot", id="abbot")

    def rules(self) -> Rules:
        """The options as the engine's :class:`~carcnet.engine.Rules`."""
        return Rules(
            river=self.query_one("#river", Checkbox).value,
            abbot=self.query_one("#abbot", Checkbox).value,
            river_start=str(self.query_one("#river-start", Select).value),
        )
