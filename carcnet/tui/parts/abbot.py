"""The Abbot's figure in the interface: the abbot (its role the abbot's wherever it stands)."""

from __future__ import annotations

from carcnet.engine import Figure, Rules, SegmentKind
from carcnet.i18n import _, pgettext

from .face import FigureFace

__all__ = ["rules_help", "ABBOT"]

_CLOISTER, _GARDEN = SegmentKind.CLOISTER, SegmentKind.GARDEN

ABBOT = FigureFace(
    Figure.ABBOT, "", "abbot", True,
    # Translators: The Abbot's figure, with its article
    name=lambda: pgettext("figure", "the abbot"),
    label=lambda: pgettext("figure", "Abbot"),
    no_spot=lambda: _("no spot for the abbot"),
    # Translators: {key}: the key ("a")
    spots=lambda: _("{key}: the abbot's spots"),
    on_its={
        # Translators: The Abbot's figure deployed on the tile just placed ("its": the tile's)
        _CLOISTER: lambda: _("the abbot on its cloister"),
        _GARDEN: lambda: _("the abbot on its garden"),
    },
    on_the={
        # Translators: The Abbot's figure, in a turn waiting to be confirmed
        _CLOISTER: lambda: _("the abbot on the cloister"),
        _GARDEN: lambda: _("the abbot on the garden"),
    },
    deployed={
        # Translators: a line of the game log (The Abbot); {player}: a seat's name
        _CLOISTER: lambda: _("{player} deployed an abbot on the cloister"),
        # Translators: {player}: a seat's name
        _GARDEN: lambda: _("{player} deployed an abbot on the garden"),
    },
    # Translators: after a seat's name and its figures on a feature: "Red 2 (abbot)"
    holds_note=lambda: pgettext("holds", "(abbot)"),
)


def rules_help(rules: Rules) -> str:
    """The help's paragraph on this expansion's rules, in the language in use."""
    return _("**The Abbot**: `a` switches to the abbot (a cloister or a garden), `A` recalls it.")
