"""Hills & Sheep's figure in the interface: the shepherd (``S``), its sheep beside it."""

from __future__ import annotations

from carcnet.engine import Figure, Rules, SegmentKind
from carcnet.i18n import _, pgettext

from .face import FigureFace

__all__ = ["rules_help", "SHEPHERD"]

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


def rules_help(rules: Rules) -> str:
    """The help's paragraph on this expansion's rules, in the language in use."""
    return _("**Hills & Sheep**: 18 more tiles. A hill (▲, ASCII `m`) hides a tile under it, "
                          "out of the game, and breaks a tie for the most followers in favour of those with "
                          "a follower on a hill; a completed cloister scores 3 more for each vineyard (∵, "
                          "ASCII `%`) around it. Instead of a meeple you may put your shepherd on a field "
                          "of your tile (`a` switches to it; `S` while in your supply, `s` and its sheep "
                          "on the board): it draws a token from the sheep bag (1 to 4 sheep, or a wolf "
                          "that scatters the flock). When your tile extends its field, `g` grows the flock "
                          "(another token) or `s` scores it: each shepherd there scores 1 a sheep and comes "
                          "back. A field closed with shepherds is scored at once; at the end they score "
                          "nothing. `t` shows the sheep bag.")
