"""Provides the scoring values (HiG "Scoring summary", "Final scoring"): what a feature scores and
who scores it, before the editions' variants change it (``carcnet.engine.expansions.variants``). Pure functions of counts; ``Game`` applies them
when features complete and at the end, previews and bots to look ahead.
"""

from __future__ import annotations

from .events import FeatureInfo
from .moves import Figure
from .tiles import MARK_CATHEDRAL, MARK_INN, SegmentKind

__all__ = ["completed_points", "feature_value", "majority"]

_ROAD, _CITY = SegmentKind.ROAD, SegmentKind.CITY
_AREA = (SegmentKind.CLOISTER, SegmentKind.GARDEN)
_LARGE = Figure.LARGE
_PIG = Figure.PIG
_BUILDER = Figure.BUILDER

def majority(meeples: list[tuple[int, Figure, int]]) -> tuple[int, ...]:
    """Seats with the most figures on a feature, in seat order (HiG: "In the case of a draw, all
    players involved score the full number of points"); Inns & Cathedrals' large meeple counts as
    two, Traders & Builders' pig and builder as none."""
    counts: dict[int, int] = {}
    for seat, figure, _ in meeples:
        if figure is _PIG or figure is _BUILDER:  # Traders & Builders: they count for no majority
            continue
        counts[seat] = counts.get(seat, 0) + (2 if figure is _LARGE else 1)
    best = max(counts.values())
    return tuple(sorted(s for s, c in counts.items() if c == best))


def feature_value(info: FeatureInfo, *, final: bool) -> int:
    """Points a road, city, cloister or garden is worth (HiG "Scoring summary"), before the variants
    change it (the hook table's ``value``: the small-city rule).

    Completed: road 1 per tile, city 2 per tile + 2 per pennant, cloister/garden 9. Incomplete at
    the end: road 1 per tile, city 1 per tile + 1 per pennant, cloister/garden 1 + 1 per neighbour.
    Inns & Cathedrals: a road with an inn 2 per tile completed, 0 incomplete at the end; a city with
    a cathedral 3 per tile and pennant completed, 0 incomplete at the end.
    """
    kind = info.kind
    n = len(info.tiles)
    if kind is _ROAD:
        if info.inn:
            return 0 if final and not info.complete else 2 * n
        return n
    if kind is _CITY:
        if info.cathedral:
            return 0 if final and not info.complete else 3 * (n + info.pennants)
        return (1 if final and not info.complete else 2) * (n + info.pennants)
    if kind in _AREA:
        return n  # the tile itself plus its placed neighbours; 9 when complete
    raise ValueError(f"{kind.label} is not scored this way")


def completed_points(kind: SegmentKind, tiles: int, pennants: int, mark: int = 0) -> int:
    """Points for a completed feature of *tiles* tiles and *pennants* pennants (HiG "Scoring
    summary"), before the variants change them (the hook table's ``completed_points``): road 1 per
    tile, city 2 per tile and pennant, cloister or garden 9 (*tiles* is 9); 0 for a river or field.
    Inns & Cathedrals (*mark*: the feature's :data:`~carcnet.engine.tiles.MARK_INN` and
    ``MARK_CATHEDRAL`` bits): a road with an inn 2 per tile, a city with a cathedral 3 per tile and
    pennant."""
    if kind is _ROAD:
        return 2 * tiles if mark & MARK_INN else tiles
    if kind is _CITY:
        if mark & MARK_CATHEDRAL:
            return 3 * (tiles + pennants)
        return 2 * (tiles + pennants)
    if kind in _AREA:
        return tiles
    return 0
