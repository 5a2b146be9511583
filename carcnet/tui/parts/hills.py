"""Hills & Sheep's figure in the interface: the shepherd (``S``), its sheep beside it."""

from __future__ import annotations

from carcnet.engine import Figure, SegmentKind
from carcnet.i18n import _, pgettext

from .face import FigureFace

__all__ = ["SHEPHERD"]

_FIELD = SegmentKind.FIELD


def _shepherd() -> str:
    # Translators: Hills & Sheep's figure, with its article
    return pgettext("figure", "the shepherd")


SHEPHERD = FigureFace(
    Figure.SHEPHERD, "S", "", True,
    name=_shepherd,
    label=lambda: pgettext("figure", "Shepherd"),
    no_spot=lambda: _("no spot for the shepherd"),
    # Translators: {key}: the key ("a")
    spots=lambda: _("{key}: the shepherd's spots"),
    on_its={
        # Translators: Hills & Sheep's figure deployed on the tile just placed ("its": the tile's)
        _FIELD: lambda: _("the shepherd on its field"),
    },
    on_the={
        # Translators: Hills & Sheep's figure, in a turn waiting to be confirmed
        _FIELD: lambda: _("the shepherd on the field"),
    },
    deployed={
        # Translators: a line of the game log (Hills & Sheep); {player}: a seat's name
        _FIELD: lambda: _("{player} deployed the shepherd on the field"),
    },
    in_log=lambda _role: _shepherd(),
)
