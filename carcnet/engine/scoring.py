"""Provides the scoring values (HiG "Scoring summary", "Final scoring"): what a feature scores and
who scores it, before the editions' variants change it (``carcnet.engine.expansions.variants``). Pure functions of counts; ``Game`` applies them
when features complete and at the end, previews and bots to look ahead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .events import FeatureInfo
from .moves import Figure
from .tiles import SegmentKind

__all__ = ["completed_points", "feature_value", "majority"]

_ROAD, _CITY = SegmentKind.ROAD, SegmentKind.CITY
_AREA = (SegmentKind.CLOISTER, SegmentKind.GARDEN)

def majority(meeples: Sequence[tuple[int, Figure, int]], weights: Mapping[Figure, int] | None = None) -> tuple[int, ...]:
    """Seats with the most followers on a feature, in seat order (HiG: "In the case of a draw, all
    players involved score the full number of points"). *meeples*: ``(seat, figure, node)`` each, at
    least one of weight > 0; *weights*: figure → how many followers it counts as where not 1 (the
    hook table's: an expansion's figure, ``FigureRule.weight``), ``None`` when every figure counts 1."""
    counts: dict[int, int] = {}
    if weights is None:
        for seat, _figure, _ in meeples:
            counts[seat] = counts.get(seat, 0) + 1
    else:
        for seat, figure, _ in meeples:
            weight = weights.get(figure, 1)
            if weight:  # a figure that counts for no majority gives its seat no share
                counts[seat] = counts.get(seat, 0) + weight
    best = max(counts.values())
    return tuple(sorted(s for s, c in counts.items() if c == best))


def feature_value(info: FeatureInfo, *, final: bool) -> int:
    """Points a road, city, cloister or garden is worth (HiG "Scoring summary"), before the
    expansions change it (the hook table's ``value``: Inns & Cathedrals' inns and cathedrals, the
    small-city rule).

    Completed: road 1 per tile, city 2 per tile + 2 per pennant, cloister/garden 9. Incomplete at
    the end: road 1 per tile, city 1 per tile + 1 per pennant, cloister/garden 1 + 1 per neighbour.
    """
    kind = info.kind
    n = len(info.tiles)
    if kind is _ROAD:
        return n
    if kind is _CITY:
        return (1 if final and not info.complete else 2) * (n + info.pennants)
    if kind in _AREA:
        return n  # the tile itself plus its placed neighbours; 9 when complete
    raise ValueError(f"{kind.label} is not scored this way")


def completed_points(kind: SegmentKind, tiles: int, pennants: int, mark: int = 0) -> int:
    """Points for a completed feature of *tiles* tiles and *pennants* pennants (HiG "Scoring
    summary"), before the expansions change them (the hook table's ``completed_points``; *mark*,
    the feature's marks, is theirs to read): road 1 per tile, city 2 per tile and pennant, cloister
    or garden 9 (*tiles* is 9); 0 for a river or field."""
    if kind is _ROAD:
        return tiles
    if kind is _CITY:
        return 2 * (tiles + pennants)
    if kind in _AREA:
        return tiles
    return 0
