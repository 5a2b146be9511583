"""The River in the interface: the help's paragraph on its rules, by where the start tile goes."""

from __future__ import annotations

from carcnet.engine import Rules
from carcnet.i18n import N_, _

__all__ = ["rules_help"]

#: Where the start tile goes with The River (``Rules.river_start``), in English (marked).
_STARTS = {
    "after": N_("**The River**: the start tile comes right after the lake, like any tile."),
    "river": N_("**The River**: the start tile is among the river tiles; it may not go where the river "
                "could no longer be finished."),
    "omit": N_("**The River**: the start tile is left out."),
}


def rules_help(rules: Rules) -> str:
    """The help's paragraph on The River's rules, in the language in use."""
    # Translators: {note} says where the start tile goes ("**The River**: the start tile is left out.")
    return _("{note} The river is always finished: a river tile goes only where every river tile "
                          "left can still follow.").format(note=_(_STARTS[rules.river_start]))
