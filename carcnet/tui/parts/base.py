"""The base game's figure in the interface: the meeple (knight, thief, monk, farmer by its feature)."""

from __future__ import annotations

from carcnet.engine import Figure, SegmentKind
from carcnet.i18n import _, pgettext

from .face import FigureFace

__all__ = ["MEEPLE"]

_ROAD, _CITY, _CLOISTER, _FIELD = SegmentKind.ROAD, SegmentKind.CITY, SegmentKind.CLOISTER, SegmentKind.FIELD

MEEPLE = FigureFace(
    Figure.MEEPLE, "", "", True,
    # Translators: a player's figure with its article, as in "no spot for {figure}"
    name=lambda: pgettext("figure", "a meeple"),
    # Translators: the footer's name for the key that switches the figure to deploy to this one
    label=lambda: pgettext("figure", "Meeple"),
    # Translators: the deploy choice when a figure has nowhere to go on the tile just placed
    no_spot=lambda: _("no spot for a meeple"),
    # Translators: the key that switches the deploy choice to another figure; {key}: the key ("a")
    spots=lambda: _("{key}: a meeple's spots"),
    on_its={
        # Translators: a deployment on the tile just placed ("its": the tile's), in a turn told in words:
        # "a tile with a city in the west, a knight on its city"
        _ROAD: lambda: _("a thief on its road"),
        _CITY: lambda: _("a knight on its city"),
        _CLOISTER: lambda: _("a monk on its cloister"),
        _FIELD: lambda: _("a farmer on its field"),
    },
    on_the={
        # Translators: a deployment in a turn waiting to be confirmed: "Enter confirms: a tile with a city
        # in the west, a meeple on the city"
        _ROAD: lambda: _("a meeple on the road"),
        _CITY: lambda: _("a meeple on the city"),
        _CLOISTER: lambda: _("a meeple on the cloister"),
        _FIELD: lambda: _("a meeple on the field"),
    },
    deployed={
        # Translators: a line of the game log; {player}: a seat's name
        _ROAD: lambda: _("{player} deployed a thief on the road"),
        # Translators: {player}: a seat's name
        _CITY: lambda: _("{player} deployed a knight on the city"),
        # Translators: {player}: a seat's name
        _CLOISTER: lambda: _("{player} deployed a monk on the cloister"),
        # Translators: {player}: a seat's name
        _FIELD: lambda: _("{player} deployed a farmer on the field"),
    },
)
