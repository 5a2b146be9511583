"""Provides :class:`RuleOptions`: the rules of a new game (The River with its start-tile choice, The
Abbot, Hills & Sheep, The Princess & the Dragon, Inns & Cathedrals, Traders & Builders, the farm
scoring and small cities),
shared by the local new-game screen and the host's table setup."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.style import Style
from textual.widgets import Checkbox, Select

from carcnet.engine import FARM_RULES, RIVER_START_TEXT, RIVER_STARTS, Rules
from carcnet.i18n import N_, _

__all__ = ["RuleOptions", "TickBox"]


class TickBox(Checkbox):
    """A checkbox told ticked or not by its shape in every theme: ``✔`` when ticked, an empty box
    when not (Textual's own draws the same ``X`` in both, told apart by a shade that some themes,
    nord among them, make the same)."""

    DEFAULT_CSS = """
    TickBox.-on > .toggle--button { text-style: bold; }
    """

    TICKED = "✔"
    """The mark inside a ticked box."""

    @property
    def _button(self) -> Content:
        button_style = self.get_visual_style("toggle--button")
        side_style = Style(foreground=button_style.background, background=self.background_colors[1])
        return Content.assemble(
            (self.BUTTON_LEFT, side_style),
            (self.TICKED if self.value else " ", button_style),
            (self.BUTTON_RIGHT, side_style),
        )


class RuleOptions(Vertical):
    """The rule options, in rows. First the expansions: ``#river``, ``#abbot``, ``#inns`` (Inns &
    Cathedrals), ``#traders`` (Traders & Builders), ``#hills-sheep`` (Hills & Sheep) and
    ``#princess-dragon`` (The Princess & the Dragon; checkboxes); then, shown only with The River on,
    ``#river-start``: what becomes of the base game's
    start tile (:data:`~carcnet.engine.RIVER_STARTS`), in plain words, on a row of its own so that
    its ``▼`` is never cut. Then the editions' scoring: ``#farms``
    (:data:`~carcnet.engine.FARM_RULES`) and ``#small-city`` (checkbox). The checkboxes are
    :class:`TickBox` es.

    Args:
        rules: The options it opens with (default: those of :class:`~carcnet.engine.Rules`; the
            new-game forms pass the last ones started, kept in the settings).
    """

    DEFAULT_CSS = """
    RuleOptions { height: auto; margin-top: 1; }
    RuleOptions > Horizontal { height: 3; }
    RuleOptions #river-row.-off, RuleOptions #river-start.-off { display: none; }
    RuleOptions #river-start { width: 38; max-width: 100%; }
    RuleOptions #farms { width: 38; }
    """

    def __init__(self, rules: Rules | None = None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._start = rules if rules is not None else Rules()

    def compose(self) -> ComposeResult:
        default = self._start
        with Horizontal():
            yield TickBox(_("The River"), default.river, id="river")
            yield TickBox(_("The Abbot"), default.abbot, id="abbot")
        with Horizontal():  # the big-box expansions, on a row of their own (a 60-column terminal)
            yield TickBox(
                _("Inns & Cathedrals"), default.inns, id="inns",
                tooltip=_("18 more tiles: inns on roads and cathedrals in cities (worth more completed, nothing "
                          "if not), and a large meeple each that counts as two (HiG Inns & Cathedrals)"),
            )
            yield TickBox(
                _("Traders & Builders"), default.traders, id="traders",
                tooltip=_("24 more tiles: goods to whoever completes a city (10 at the end for the most of each "
                          "kind), a builder each for a second tile, a pig each worth 1 more a city on its farm"),
            )
        with Horizontal():  # a row of its own: beside The River and The Abbot it was cut at 60 columns
            yield TickBox(
                _("Hills & Sheep"), default.hills_sheep, id="hills-sheep",
                tooltip=_("18 more tiles: hills that break a tie for the most followers, vineyards worth 3 more to "
                          "each cloister around them, and a shepherd each whose flock of sheep you grow or score "
                          "(beware the wolf)"),
            )
        with Horizontal():  # a row of its own too: its long name is cut beside another at 60 columns
            yield TickBox(
                _("The Princess & the Dragon"), default.princess_dragon, id="princess-dragon",
                tooltip=_("30 more tiles: volcanoes, the dragon that eats every figure on its way, princesses "
                          "that send a knight home, magic portals; and the fairy, worth a point a turn by your "
                          "follower"),
            )
        with Horizontal(id="river-row", classes="" if default.river else "-off"):
            yield Select(
                [(_river_start_choice(v), v) for v in RIVER_STARTS],
                value=default.river_start, allow_blank=False, id="river-start", classes="" if default.river else "-off",
                tooltip=_("With The River, the base game's start tile is placed right after the river or shuffled "
                          "into the river tiles (the two ways of the HiG rules), or left in the box (Z-Man)"),
            )
        with Horizontal():
            yield Select(
                [(_(_FARM_CHOICES[v]), v) for v in FARM_RULES],
                value=default.farms, allow_blank=False, id="farms",
                tooltip=_("How farmers score at the end: each farm 3 per completed city it supplies (HiG), each "
                          "city once, 4 to the most farmers around it (first edition, RGG), or no farmers at all"),
            )
            yield TickBox(
                _("Small cities"), id="small-city", value=default.small_city,
                tooltip=_("A completed city of two tiles scores 2 and its pennants 1 each (RGG edition)"),
            )

    @on(Checkbox.Changed, "#river")
    def _river(self, event: Checkbox.Changed) -> None:
        for part in self.query("#river-row, #river-start"):
            part.set_class(not event.value, "-off")

    def rules(self) -> Rules:
        """The options as the engine's :class:`~carcnet.engine.Rules`."""
        return Rules(
            river=self.query_one("#river", Checkbox).value,
            abbot=self.query_one("#abbot", Checkbox).value,
            river_start=str(self.query_one("#river-start", Select).value),
            small_city=self.query_one("#small-city", Checkbox).value,
            farms=str(self.query_one("#farms", Select).value),
            inns=self.query_one("#inns", Checkbox).value,
            traders=self.query_one("#traders", Checkbox).value,
            hills_sheep=self.query_one("#hills-sheep", Checkbox).value,
            princess_dragon=self.query_one("#princess-dragon", Checkbox).value,
        )


#: The farm choices in plain words, in English (shown in the language in use).
_FARM_CHOICES = {
    "farm": N_("Farmers: 3 a city, each farm"),
    "city": N_("Farmers: 4 a city, 1st edition"),
    "off": N_("No farmers"),
}


def _river_start_choice(start: str) -> str:
    """The choice of :data:`~carcnet.engine.RIVER_STARTS` *start*, in the language in use: ``Start tile
    after the river``."""
    choices = {
        # Translators: what becomes of the base game's start tile with The River
        "after": _("Start tile after the river"),
        "river": _("Start tile among the river tiles"),
        "omit": _("Start tile left out"),
    }
    return choices[start] if start in choices else f"Start tile {RIVER_START_TEXT[start]}"
