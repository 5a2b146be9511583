"""Traders & Builders' figures in the interface: the builder (``B``) and the pig (``P``), which join
a follower's feature and hold none themselves."""

from __future__ import annotations

from carcnet.engine import Figure, Rules, SegmentKind
from carcnet.i18n import _, pgettext

from .face import FigureFace

__all__ = ["rules_help", "BUILDER", "PIG"]

_ROAD, _CITY, _FIELD = SegmentKind.ROAD, SegmentKind.CITY, SegmentKind.FIELD


def _builder() -> str:
    # Translators: Traders & Builders' figure, with its article
    return pgettext("figure", "the builder")


def _pig() -> str:
    # Translators: Traders & Builders' figure, with its article
    return pgettext("figure", "the pig")


BUILDER = FigureFace(
    Figure.BUILDER, "B", "", False,
    name=_builder,
    label=lambda: pgettext("figure", "Builder"),
    no_spot=lambda: _("no spot for the builder"),
    # Translators: {key}: the key ("a")
    spots=lambda: _("{key}: the builder's spots"),
    on_its={
        # Translators: Traders & Builders' figures deployed on the tile just placed ("its": the tile's)
        _ROAD: lambda: _("the builder on its road"),
        _CITY: lambda: _("the builder on its city"),
    },
    on_the={
        # Translators: Traders & Builders' figures, in a turn waiting to be confirmed
        _ROAD: lambda: _("the builder on the road"),
        _CITY: lambda: _("the builder on the city"),
    },
    deployed={
        # Translators: a line of the game log (Traders & Builders); {player}: a seat's name
        _ROAD: lambda: _("{player} deployed the builder on the road"),
        # Translators: {player}: a seat's name
        _CITY: lambda: _("{player} deployed the builder on the city"),
    },
    in_log=lambda _role: _builder(),
)

PIG = FigureFace(
    Figure.PIG, "P", "", False,
    name=_pig,
    label=lambda: pgettext("figure", "Pig"),
    no_spot=lambda: _("no spot for the pig"),
    # Translators: {key}: the key ("a")
    spots=lambda: _("{key}: the pig's spots"),
    on_its={_FIELD: lambda: _("the pig on its field")},
    on_the={_FIELD: lambda: _("the pig on the field")},
    deployed={
        # Translators: {player}: a seat's name
        _FIELD: lambda: _("{player} deployed the pig on the field"),
    },
    in_log=lambda _role: _pig(),
)


def rules_help(rules: Rules) -> str:
    """The help's paragraph on this expansion's rules, in the language in use."""
    return _("**Traders & Builders**: 24 more tiles. Whoever completes a city takes its goods "
                          "(wine, grain, cloth; the scoreboard's `w1 g0 C2`, a capital where you hold the most "
                          "of a kind, ties too); at the end the most of each kind score 10. `a` switches to "
                          "the builder (on your own road or city: extending it gives you a second tile that "
                          "turn) and the pig (on your own farm: 4 a city instead of 3); `B` `P` while in your "
                          "supply.")
