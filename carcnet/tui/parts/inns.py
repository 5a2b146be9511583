"""Inns & Cathedrals' figure in the interface: the large meeple (``L`` on the board)."""

from __future__ import annotations

from carcnet.engine import Figure, Rules, SegmentKind
from carcnet.i18n import _, pgettext

from .face import FigureFace

__all__ = ["rules_help", "LARGE"]

_ROAD, _CITY, _CLOISTER, _FIELD = SegmentKind.ROAD, SegmentKind.CITY, SegmentKind.CLOISTER, SegmentKind.FIELD

LARGE = FigureFace(
    Figure.LARGE, "L", "", True,
    # Translators: Inns & Cathedrals' figure, with its article
    name=lambda: pgettext("figure", "the large meeple"),
    label=lambda: pgettext("figure", "Large meeple"),
    no_spot=lambda: _("no spot for the large meeple"),
    # Translators: {key}: the key ("a")
    spots=lambda: _("{key}: the large meeple's spots"),
    on_its={
        # Translators: Inns & Cathedrals' figure deployed on the tile just placed ("its": the tile's)
        _ROAD: lambda: _("the large meeple on its road"),
        _CITY: lambda: _("the large meeple on its city"),
        _CLOISTER: lambda: _("the large meeple on its cloister"),
        _FIELD: lambda: _("the large meeple on its field"),
    },
    on_the={
        # Translators: Inns & Cathedrals' figure, in a turn waiting to be confirmed
        _ROAD: lambda: _("the large meeple on the road"),
        _CITY: lambda: _("the large meeple on the city"),
        _CLOISTER: lambda: _("the large meeple on the cloister"),
        _FIELD: lambda: _("the large meeple on the field"),
    },
    deployed={
        # Translators: a line of the game log (Inns & Cathedrals' large meeple); {player}: a seat's name
        _ROAD: lambda: _("{player} deployed the large meeple as a thief on the road"),
        # Translators: {player}: a seat's name
        _CITY: lambda: _("{player} deployed the large meeple as a knight on the city"),
        # Translators: {player}: a seat's name
        _CLOISTER: lambda: _("{player} deployed the large meeple as a monk on the cloister"),
        # Translators: {player}: a seat's name
        _FIELD: lambda: _("{player} deployed the large meeple as a farmer on the field"),
    },
    # Translators: Inns & Cathedrals' large meeple in a role; {role}: "a knight", "a thief"
    in_log=lambda role: _("the large meeple as {role}").format(role=role),
    # Translators: after a seat's name and its figures on a feature: "Red 2 (large meeple)"
    holds_note=lambda: pgettext("holds", "(large meeple)"),
)


def rules_help(rules: Rules) -> str:
    """The help's paragraph on this expansion's rules, in the language in use."""
    return _("**Inns & Cathedrals**: 18 more tiles. A road with an inn (⌂, ASCII `n`) scores 2 a "
                          "tile when completed and nothing if still open at the end; a city with a cathedral "
                          "(‡, ASCII `&`) 3 a tile and pennant completed, nothing if open at the end. Each "
                          "player has a large meeple: `a` switches to it; it goes anywhere a meeple goes and "
                          "counts as two for the majority (the scoreboard shows `L` while it is in the supply, "
                          "`l` while it is on the board).")
