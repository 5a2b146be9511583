"""Greedy's play with The Princess & the Dragon (``docs/rules.md``, "The Princess & the Dragon";
``docs/bots.md``): the dragon's steps, and on a turn with nothing better to deploy on its tile the
princess, a follower through the magic portal, the fairy."""

from __future__ import annotations

from carcnet.engine import DeployMeeple, Figure, Game, Move, MoveDragon, MoveFairy, RemoveKnight
from carcnet.engine.expansions.dragon import PrincessDragon

from .part import BotPart

__all__ = ["PART", "PORTAL_FLOOR", "dragon_answer", "fairy_instead", "portal_instead", "princess_instead"]


def dragon_answer(game: Game, moves: list[Move]) -> Move:
    """The dragon's step (The Princess & the Dragon's question): to the tile where it eats the most
    of the others' figures less this seat's own (the first such tile, in the question's order)."""
    seat = game.actor
    best, worth = moves[0], None
    for move in moves:
        assert isinstance(move, MoveDragon)
        value = sum(1 if owner != seat else -1 for owner, _figure, where, _ in game.figures() if where == move.position)
        if worth is None or value > worth:
            best, worth = move, value
    return best


def princess_instead(game: Game) -> RemoveKnight | None:
    """The princess's removal of another seat's knight, on a turn with nothing better to deploy (The
    Princess & the Dragon); ``None`` when there is none to remove."""
    for move in game.legal_moves():
        if type(move) is RemoveKnight:
            tile = game.tile_at(move.position)
            assert tile is not None
            held = game.graph.meeples[game.graph.find(tile.base + move.segment)] or ()
            if any(seat != game.seat and node == tile.base + move.segment for seat, _f, node in held):
                return move
    return None


#: The least a follower through the magic portal must be expected to score for greedy to send it.
PORTAL_FLOOR = 4.0


def portal_instead(game: Game) -> DeployMeeple | None:
    """A follower through the magic portal, on a turn with nothing better to deploy on the tile (The
    Princess & the Dragon): onto the free feature elsewhere with the best expected score, ``now +
    (if_completed - now) / (1 + open)`` (a road's, city's, cloister's or garden's open sides or
    empty neighbours: the fewer, the likelier it completes), a farm its end score; when that is at
    least :data:`PORTAL_FLOOR` and the seat keeps a meeple in supply. ``None`` otherwise."""
    if game.supply[game.seat] < 2:
        return None
    best: DeployMeeple | None = None
    worth = PORTAL_FLOOR - 1e-9
    for move in game.deploy_options():
        if move.at is None or move.figure is not Figure.MEEPLE:
            continue
        now, completed = game.worth(game.feature_at(move.at, move.segment))
        value = float(now) if completed is None else now + (completed - now) / (1 + game.open_sides(move.at, move.segment))
        if value > worth:
            best, worth = move, value
    return best


def fairy_instead(game: Game) -> MoveFairy | None:
    """The fairy next to this seat's follower on a turn with nothing better to deploy, when it stands
    by no follower of this seat's (The Princess & the Dragon: 1 a turn, 3 when the feature scores);
    ``None`` otherwise."""
    moves = [move for move in game.legal_moves() if type(move) is MoveFairy]
    if not moves:
        return None
    mine = {(position, segment) for seat, _f, position, segment in game.figures() if seat == game.seat}
    if len(moves) < len(mine):  # the fairy already stands by one of this seat's followers
        return None
    return moves[0]  # type: ignore[return-value]


#: The Princess & the Dragon's part: the dragon's steps; the princess first, then the portal, the
#: fairy last (after Hills & Sheep's shepherd).
PART = BotPart(PrincessDragon.name, answers={MoveDragon: dragon_answer},
               instead=((20, princess_instead), (30, portal_instead), (50, fairy_instead)))
