"""Greedy's play with Hills & Sheep (``docs/rules.md``, "Hills & Sheep"; ``docs/bots.md``): the
flock's question, and the shepherd on a turn with nothing better to deploy."""

from __future__ import annotations

from carcnet.engine import DeployMeeple, Figure, Flock, Game, Move
from carcnet.engine.expansions import hills

from .part import BotPart

__all__ = ["PART", "flock_answer", "shepherd_instead"]


def flock_answer(game: Game, moves: list[Move] | None = None) -> Flock:
    """Grow the flock or score it (Hills & Sheep's question, *game* in ``Phase.STEP``): grow while a
    token's expected sheep are worth the wolf's risk, ``(1 - w / n) * (F + m) > F`` for a flock of *F*
    sheep in the field, *n* tokens in the bag, *w* wolves among them and *m* sheep a sheep token on
    average, and while tiles are left for the flock to be scored later (shepherds score nothing at
    the end); else score it."""
    tokens = hills.bag(game)
    node = next(node for seat, node, _ in hills.flocks(game) if seat == game.seat)
    root = game.graph.find(node)
    flock = sum(int(t) for _, other, own in hills.flocks(game) if game.graph.find(other) == root for t in own)
    wolves = tokens.count(hills.WOLF)
    sheep = [int(t) for t in tokens if t != hills.WOLF]
    if not sheep or game.tiles_left < 2 * game.players:
        return _SCORE
    mean = sum(sheep) / len(sheep)
    return _GROW if (1 - wolves / len(tokens)) * (flock + mean) > flock else _SCORE


def shepherd_instead(game: Game) -> DeployMeeple | None:
    """The shepherd, in supply, on the tile's field that reaches the most sides (the likeliest to be
    extended), on a turn with nothing better to deploy (Hills & Sheep); ``None`` without it."""
    best: DeployMeeple | None = None
    reach = -1
    tile = None
    for move in game.legal_moves():
        if type(move) is DeployMeeple and move.figure is Figure.SHEPHERD:
            if tile is None:
                tile = game.tile_at(game.placed) if game.placed is not None else None
                if tile is None:
                    return move
            halves = len(tile.variant.segments[move.segment].halves)
            if halves > reach:
                best, reach = move, halves
    return best


_GROW, _SCORE = Flock(True), Flock(False)


#: Hills & Sheep's part: the flock's answer; the shepherd after the abbot, the princess and the portal.
PART = BotPart(hills.HillsSheep.name, answers={Flock: flock_answer}, instead=((40, shepherd_instead),))
