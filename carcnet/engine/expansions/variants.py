"""Provides the editions' scoring variants as expansions (``docs/rules.md``, "Variants").

:class:`SmallCities`: the small-city rule of the RGG edition (HA FN 17), ``Rules.small_city``: a
completed city of two tiles scores 1 a tile and 1 a pennant instead of 2.

:class:`NoFarmers`: the game without farmers (``Rules.farms == "off"``; docs/rules.md): no meeple goes
on a field, so no farm is ever scored.

:class:`CityFarms`: the first edition's farm scoring (Hans im Glück's first edition; the HA FAQ
FN 27-28), ``Rules.farms == "city"``: instead of each farm scoring 3 a completed city it supplies,
each completed city supplied by farms with farmers scores 4, once, to the seats with the most farmers
in all the farms supplying it.
"""

from __future__ import annotations

from ..events import FeatureInfo, PointsScored
from ..expansion import Expansion, GameState
from ..rules import Rules
from ..tiles import MARK_CATHEDRAL, SegmentKind

__all__ = ["CityFarms", "NoFarmers", "SmallCities"]

_CITY, _FIELD = SegmentKind.CITY, SegmentKind.FIELD


class SmallCities(Expansion):
    """The small-city rule (HA FN 17): a completed city of two tiles scores 1 a tile and 1 a pennant
    (a cathedral's city scores as Inns & Cathedrals says, whatever its size)."""

    name = "small-cities"
    title = "small cities"
    option = "small_city"
    words = ("small city",)

    def value(self, info: FeatureInfo, final: bool, points: int) -> int:
        if info.kind is _CITY and info.complete and len(info.tiles) == 2 and not info.cathedral:
            return len(info.tiles) + info.pennants
        return points

    def completed_points(self, kind: SegmentKind, tiles: int, pennants: int, mark: int, points: int) -> int:
        if kind is _CITY and tiles == 2 and not mark & MARK_CATHEDRAL:
            return tiles + pennants
        return points


class CityFarms(Expansion):
    """First-edition farms (HA FN 27-28): a completed city scores 4 for the majority of the farmers
    supplying it, counted over every farm that supplies it (ties all score)."""

    name = "city-farms"
    title = "first-edition farms"
    option = "farms"
    words = ("farms",)
    farm_city_points = 4
    exact_projection = True  # city by city: the core's shortcut counts farm by farm

    @classmethod
    def active(cls, rules: Rules, version: int) -> bool:
        return rules.farms == "city"

    def farm_scoring(self, game: GameState, fields: list[int], field_tiles: dict[int, set[int]]) -> list[PointsScored]:
        """Every completed city that a farm with farmers supplies, once, in the order of the farms'
        first farmers: 4 points to the seats with the most farmers in all the farms supplying it (HA
        FN 28)."""
        g = game.graph
        find = g.find
        supplied: dict[int, list[int]] = {}  # city root → farms supplying it, each once
        for r in fields:
            for c in g.borders[r] or ():
                cr = find(c)
                if g.open[cr] == 0:
                    farms = supplied.setdefault(cr, [])
                    if r not in farms:
                        farms.append(r)
        events = []
        for cr, farms in supplied.items():
            farmers = [m for r in farms for m in g.meeples[r] or ()]
            events.append(PointsScored(game.majority(farmers), self.farm_city_points, game.feature_info(cr), True,
                                       farmers=True))
        return events


class NoFarmers(Expansion):
    """No farmers (docs/rules.md, "Variants"): no meeple goes on a field, and a farm scores nothing."""

    name = "no-farmers"
    title = "no farmers"
    option = "farms"
    words = ("farms",)
    farm_city_points = 0
    closed_kinds = {_FIELD: "this game is played without farmers"}

    @classmethod
    def active(cls, rules: Rules, version: int) -> bool:
        return rules.farms == "off"
