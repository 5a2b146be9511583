"""Provides :class:`RuleOptions`: the rules of a new game (The River with its start-tile choice, The
Abbot, the farm scoring and small cities), shared by the local new-game screen and the host's table
setup."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Checkbox, Select

from carcnet.engine import FARM_RULES, RIVER_START_TEXT, RIVER_STARTS, Rules

__all__ = ["RuleOptions"]


class RuleOptions(Vertical):
    """The rule options, in two rows. First the expansions: ``#river`` (checkbox), ``#abbot``
    (checkbox) and, shown only with The River on, ``#river-start``: what becomes of the base game's
    start tile (:data:`~carcnet.engine.RIVER_STARTS`), in plain words. Then the
    editions' scoring: ``#farms`` (:data:`~carcnet.engine.FARM_RULES`) and
    ``#small-city`` (checkbox). Defaults are those of :class:`~carcnet.engine.Rules`."""

    DEFAULT_CSS = """
    RuleOptions { height: auto; margin-top: 1; }
    RuleOptions > Horizontal { height: 3; }
    RuleOptions #river-start { width: 38; }
    RuleOptions #river-start.-off { display: none; }
    RuleOptions #farms { width: 38; }
    """

    def compose(self) -> ComposeResult:
        default = Rules()
        with Horizontal():
            yield Checkbox("The River", id="river")
            yield Checkbox("The Abbot", id="abbot")
            yield Select(
                [(f"Start tile {RIVER_START_TEXT[v]}", v) for v in RIVER_STARTS],
                value=default.river_start, allow_blank=False, id="river-start", classes="-off",
                tooltip="With The River, the base game's start tile is placed right after the river or shuffled "
                "into the river tiles (the two ways of the HiG rules), or left in the box (Z-Man)",
            )
        with Horizontal():
            yield Select(
                [(_FARM_CHOICES[v], v) for v in FARM_RULES],
                value=default.farms, allow_blank=False, id="farms",
                tooltip="How farmers score at the end: each farm 3 per completed city it supplies (HiG), each "
                "city once, 4 to the most farmers around it (first edition, RGG), or no farmers at all",
            )
            yield Checkbox(
                "Small cities", id="small-city", value=default.small_city,
                tooltip="A completed city of two tiles scores 2 and its pennants 1 each (RGG edition)",
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
            small_city=self.query_one("#small-city", Checkbox).value,
            farms=str(self.query_one("#farms", Select).value),
        )


#: The farm choices in plain words.
_FARM_CHOICES = {
    "farm": "Farmers: 3 a city, each farm",
    "city": "Farmers: 4 a city, 1st edition",
    "off": "No farmers",
}
