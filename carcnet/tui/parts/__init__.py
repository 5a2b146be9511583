"""The interface's knowledge of each expansion's figures, a part each (``docs/architecture.md``,
"Expansions"): a figure's letter on the board, its names, its deploy choice's lines, its words in a
turn told in words and in the game log come with it (:class:`~.face.FigureFace`); and each
expansion's paragraph in the help's rules (:data:`RULES_HELP`). The board, the
inspector, the words and the log ask :func:`face` and :data:`FACES`, and name no figure of an
expansion.

Parts: the base game's meeple (:mod:`.base`), Inns & Cathedrals' large meeple (:mod:`.inns`), The
Abbot's abbot (:mod:`.abbot`), Traders & Builders' builder and pig (:mod:`.traders`), Hills & Sheep's
shepherd (:mod:`.hills`). To add a figure: its face in its expansion's part, listed in :data:`FACES`
at its place in the deploy order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from carcnet.engine import Figure, Rules

from . import abbot, dragon, hills, inns, river, traders
from .abbot import ABBOT
from .base import MEEPLE
from .face import FigureFace, Words, WordsOn
from .hills import SHEPHERD
from .inns import LARGE
from .traders import BUILDER, PIG

__all__ = ["DEPLOY_ORDER", "FACES", "RULES_HELP", "FigureFace", "Words", "WordsOn", "face"]

#: Every figure's face, in the order the deploy choice switches through them with ``a``.
FACES: Mapping[Figure, FigureFace] = {f.figure: f for f in (MEEPLE, LARGE, ABBOT, BUILDER, PIG, SHEPHERD)}
#: The figures a deploy choice switches through with ``a``, in order.
DEPLOY_ORDER: tuple[Figure, ...] = tuple(FACES)


#: Each expansion's paragraph in the help's rules of a game played with it, by the engine's
#: ``Expansion.name``, in the help's order.
RULES_HELP: tuple[tuple[str, Callable[[Rules], str]], ...] = (
    ("river", river.rules_help), ("abbot", abbot.rules_help), ("inns", inns.rules_help),
    ("traders", traders.rules_help), ("hills-sheep", hills.rules_help), ("princess-dragon", dragon.rules_help),
)


def face(figure: Figure) -> FigureFace:
    """*figure*'s face. Raises ``KeyError`` for a figure no part shows."""
    return FACES[figure]
