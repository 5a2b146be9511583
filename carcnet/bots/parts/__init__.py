"""The bots' knowledge of each expansion, a part each (``docs/architecture.md``, "Expansions"): what
greedy (and so the search bot's playouts and candidates) answers to an expansion's question, and what
it plays instead of a skip on a turn with nothing better to deploy on its tile. A part names the
engine's expansion it plays (:attr:`BotPart.expansion`, the engine's ``Expansion.name``); the greedy
bot asks the parts of the expansions in play, and knows none of them by name.

Parts: The Abbot (:mod:`.abbot`), Hills & Sheep (:mod:`.hills`), The Princess & the Dragon
(:mod:`.dragon`). Inns & Cathedrals' and Traders & Builders' knowledge is in the valuation itself
(``greedy_bot._MarkedTurn``: inns, cathedrals, goods, the builder's second tile) and in the search's
fitted weights (``evaluation.py``).

To add one: a module here with its functions and a ``PART``, listed in :data:`PARTS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from carcnet.engine import Move, Rules
from carcnet.engine.expansions import hooks_for
from carcnet.engine.rules import RULES_VERSION

from . import abbot, dragon, hills
from .part import Answer, BotPart, Instead

__all__ = ["ANSWERS", "PARTS", "BotPart", "Instead", "instead_moves"]

#: Every part, in registry order.
PARTS: tuple[BotPart, ...] = (abbot.PART, hills.PART, dragon.PART)
#: Each question's move type → its answer (a question's move type is its expansion's alone).
ANSWERS: Mapping[type[Move], Answer] = {move: answer for part in PARTS for move, answer in part.answers.items()}


@cache
def instead_moves(rules: Rules, version: int = RULES_VERSION) -> tuple[Instead, ...]:
    """The moves instead of a skip of the parts whose expansions *rules* play under rules *version*,
    in their order (made once per pair)."""
    names = hooks_for(rules, version).names
    pairs = sorted((pair for part in PARTS if part.expansion in names for pair in part.instead), key=lambda p: p[0])
    return tuple(instead for _order, instead in pairs)
