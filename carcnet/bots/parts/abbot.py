"""Greedy's play with The Abbot (``docs/rules.md``, "The Abbot"; ``docs/bots.md``): the abbot on a
turn with nothing better to deploy, and its recall."""

from __future__ import annotations

from carcnet.engine import Figure, Game, Move, ReturnAbbot, SegmentKind
from carcnet.engine.expansions.abbot import Abbot, abbot_at

from .part import BotPart

__all__ = ["PART", "abbot_instead"]


def abbot_instead(game: Game) -> Move | None:
    """With The Abbot, on a turn with nothing better to deploy (*game* in ``Phase.DEPLOY``): the abbot
    on this tile's cloister or garden; else take it back once its cloister or garden is worth 6 or
    more, or when few tiles are left (it then scores 1 + 1 per neighbour, as at the end); else
    ``None``."""
    for option in game.deploy_options():
        if option.figure is Figure.ABBOT:
            return option
    where = abbot_at(game, game.seat)
    if where is not None:
        tile = game.tile_at(where)
        assert tile is not None
        segment = next(i for i, seg in enumerate(tile.variant.segments) if seg.kind in (
            SegmentKind.CLOISTER, SegmentKind.GARDEN) and (game.seat, Figure.ABBOT) in
            game.feature_at(where, i).meeples)
        worth = len(game.feature_at(where, segment).tiles)
        if worth >= 6 or game.tiles_left <= 8:
            return ReturnAbbot(where)
    return None


#: The Abbot's part: the abbot before every other expansion's move instead of a skip.
PART = BotPart(Abbot.name, instead=((10, abbot_instead),))
