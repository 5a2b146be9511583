"""Provides Inns & Cathedrals as an expansion (``docs/rules.md``, "Inns & Cathedrals"; played from rules
version 4 on): its large meeple, which each player has one of, goes wherever a meeple may and counts as
two followers for the majority (ZM-IC "The large meeple"), and its words in the state line
(``protocol/digest.md`` §3: ``large=``, the large meeples in supply, only in a game with the
expansion). Its tiles, the inns' and cathedrals' scoring and the majority's weights are still the
core's (``docs/expansion-hook-plan.md`` §9, step 6).
"""

from __future__ import annotations

from ..expansion import Expansion, FigureRule
from ..moves import Figure
from ..tiles import SegmentKind

__all__ = ["LARGE_PER_PLAYER", "InnsCathedrals"]

_LARGE = Figure.LARGE
#: Large meeples each player has (ZM-IC "Each player receives the large meeple in their color").
LARGE_PER_PLAYER = 1


class InnsCathedrals(Expansion):
    """Inns & Cathedrals: the large meeple (its inns, cathedrals and tiles still in the core)."""

    name = "inns"
    title = "Inns & Cathedrals"
    option = "inns"
    since = 4
    words = ("inn", "inns", "cathedral", "cathedrals", "large")
    digest_order = 30  # " large=…" after the abbots (digest.md §3)
    figures = (_LARGE,)
    figure_rules = (
        FigureRule(_LARGE, LARGE_PER_PLAYER, order=10,
                   kinds=frozenset({SegmentKind.ROAD, SegmentKind.CITY, SegmentKind.CLOISTER, SegmentKind.FIELD}),
                   wrong_kind="a meeple cannot go on a {label}",
                   none_left="seat {seat}'s large meeple is on the board", word="large"),
    )
