"""Provides Inns & Cathedrals as an expansion (``docs/rules.md``, "Inns & Cathedrals"; played from rules
version 4 on): its large meeple, which each player has one of, goes wherever a meeple may and counts as
two followers for the majority (ZM-IC "The large meeple"), with its words in the state line
(``protocol/digest.md`` §3: ``large=``, the large meeples in supply, only in a game with the
expansion); and what its inns and cathedrals do to a feature's points (W-IC-r28570, HA FN 23, PG-I; docs/rules.md): a
road with an inn scores 2 a tile completed and nothing left incomplete at the end, a city with a
cathedral 3 a tile and pennant completed and nothing left incomplete at the end. Its tiles are the
tile list's (their marks, kept by the feature graph as features merge).
"""

from __future__ import annotations

from ..events import FeatureInfo
from ..expansion import Expansion, FigureRule
from ..moves import Figure
from ..tiles import MARK_CATHEDRAL, MARK_INN, SegmentKind

__all__ = ["LARGE_PER_PLAYER", "InnsCathedrals"]

_LARGE = Figure.LARGE
_ROAD, _CITY = SegmentKind.ROAD, SegmentKind.CITY
#: Large meeples each player has (ZM-IC "Each player receives the large meeple in their color").
LARGE_PER_PLAYER = 1


class InnsCathedrals(Expansion):
    """Inns & Cathedrals: the large meeple, the inns and the cathedrals."""

    name = "inns"
    title = "Inns & Cathedrals"
    option = "inns"
    since = 4
    words = ("inn", "inns", "cathedral", "cathedrals", "large")
    digest_order = 30  # " large=…" after the abbots (digest.md §3)
    marked_graph = True  # a feature's inn and cathedral, kept as features merge
    exact_projection = True  # an inn's road or a cathedral's city left incomplete scores nothing
    figures = (_LARGE,)
    figure_rules = (
        FigureRule(_LARGE, LARGE_PER_PLAYER, order=10,
                   kinds=frozenset({SegmentKind.ROAD, SegmentKind.CITY, SegmentKind.CLOISTER, SegmentKind.FIELD}),
                   wrong_kind="a meeple cannot go on a {label}",
                   none_left="seat {seat}'s large meeple is on the board", word="large", weight=2),
    )

    def value(self, info: FeatureInfo, final: bool, points: int) -> int:
        """W-IC-r28570: a completed road with an inn scores "2 points per tile"; HA FN 23: left
        incomplete it "earns no points whatsoever at the end of the game". PG-I: a completed city with
        a cathedral scores "3 points per tile and coat of arms", left incomplete "zero points"."""
        if info.kind is _ROAD and info.inn:
            return 0 if final and not info.complete else 2 * len(info.tiles)
        if info.kind is _CITY and info.cathedral:
            return 0 if final and not info.complete else 3 * (len(info.tiles) + info.pennants)
        return points

    def completed_points(self, kind: SegmentKind, tiles: int, pennants: int, mark: int, points: int) -> int:
        if kind is _ROAD and mark & MARK_INN:
            return 2 * tiles
        if kind is _CITY and mark & MARK_CATHEDRAL:
            return 3 * (tiles + pennants)
        return points
