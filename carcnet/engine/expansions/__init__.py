"""Provides the expansions, one module each, and :data:`REGISTRY`, the one list of them
(``docs/architecture.md``, "Expansions: the hook and how to add one"). The registry's order is the
order in which the core calls their hooks.

Each in its module (``docs/expansion-hook-plan.md`` §9): The River
(:mod:`~carcnet.engine.expansions.river`), The Abbot (:mod:`~carcnet.engine.expansions.abbot`), Inns &
Cathedrals (:mod:`~carcnet.engine.expansions.inns`), Traders & Builders
(:mod:`~carcnet.engine.expansions.traders`), Hills & Sheep (:mod:`~carcnet.engine.expansions.hills`), The
Princess & the Dragon (:mod:`~carcnet.engine.expansions.dragon`) and the editions' variants
(:mod:`~carcnet.engine.expansions.variants`: first-edition farms, small cities, no farmers). The core
names none of them (``tests/engine/test_core_names.py``).
"""

from __future__ import annotations

from functools import cache

from ..expansion import Expansion, Hooks, build_hooks
from ..moves import Figure, Move
from ..rules import Rules
from .abbot import Abbot
from .dragon import PrincessDragon
from .hills import HillsSheep
from .inns import InnsCathedrals
from .river import River
from .traders import TradersBuilders
from .variants import CityFarms, NoFarmers, SmallCities

__all__ = ["FIGURES", "MOVES", "REGISTRY", "STEP_MOVES", "Abbot", "CityFarms", "HillsSheep", "InnsCathedrals", "NoFarmers",
           "PrincessDragon", "River",
           "SmallCities", "TradersBuilders", "hooks_for"]

#: Every expansion the engine knows, in the order their hooks are called.
REGISTRY: tuple[type[Expansion], ...] = (
    River, Abbot, InnsCathedrals, HillsSheep, PrincessDragon, TradersBuilders, SmallCities, CityFarms, NoFarmers)

#: Every move an expansion adds → the expansion (what the core says of one made in a game without it).
MOVES: dict[type[Move], type[Expansion]] = {move: cls for cls in REGISTRY for move in cls.moves}
#: Every move that answers an expansion's step → the expansion.
STEP_MOVES: dict[type[Move], type[Expansion]] = {move: cls for cls in REGISTRY for move in cls.step_moves}
#: Every figure an expansion deploys (as a meeple, or itself) → the expansion (likewise).
FIGURES: dict[Figure, type[Expansion]] = {
    **{rule.figure: cls for cls in REGISTRY for rule in cls.figure_rules},
    **{figure: cls for cls in REGISTRY for figure in cls.placed_figures},
}


@cache
def hooks_for(rules: Rules, version: int) -> Hooks:
    """The hook table of *rules* under rules *version* (:func:`~carcnet.engine.expansion.build_hooks`
    over :data:`REGISTRY`), made once per pair."""
    return build_hooks(rules, version, REGISTRY)
