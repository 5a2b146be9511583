"""The Princess & the Dragon in the interface: the help's paragraph on its rules (its figures are
neutral, the dragon and the fairy: the board draws them, :func:`carcnet.tui.render.dragon_view`)."""

from __future__ import annotations

from carcnet.engine import Rules
from carcnet.i18n import _

__all__ = ["rules_help"]


def rules_help(rules: Rules) -> str:
    """The help's paragraph on this expansion's rules, in the language in use."""
    return _("**The Princess & the Dragon**: 30 more tiles. The first volcano (◬, ASCII `v`) "
                          "brings the dragon (`D`, white on red) onto the board; a dragon tile (§, ASCII "
                          "`d`) drawn before it waits beside the pile. No figure goes on the dragon's tile. "
                          "After a dragon tile, the dragon moves six tiles, the players in turn from you, "
                          "never twice onto a tile, eating every figure where it goes: when your step is "
                          "asked, arrows or Tab then Enter (or a click) move it to a tile tinted amber. "
                          "Instead of deploying, `x` lets the princess (♛, ASCII `q`) of your tile's city "
                          "send one of its knights home, and `m` puts the fairy (✦, ASCII `f`) next to one "
                          "of your followers: 1 point as each of your turns begins, 3 when that follower's "
                          "feature scores, and the dragon may not enter its tile (`✦` on the scoreboard). "
                          "After placing a magic portal (Ω, ASCII `@`), `o` deploys a follower on a free, "
                          "unfinished feature of any other tile instead. `t` shows the dragon tiles "
                          "waiting.")
