"""Provides the random bot: uniform over the legal moves of the phase, farmers included."""

from __future__ import annotations

import random

from carcnet.engine import Game, Move, Phase, PlaceTile, PlayerView
from carcnet.engine.geometry import position_of
from carcnet.engine.tiles import ROTATIONS_OF_BITS

__all__ = ["RandomBot", "random_move"]

#: How many rotations each 4-bit set of a placement code holds.
_PAIRS = tuple(map(len, ROTATIONS_OF_BITS))


class RandomBot:
    """Picks uniformly among the legal moves: every (position, rotation) pair when placing (the
    order of ``game.legal_moves()``), every legal segment or a skip when deploying.

    Reproducible: seeded, and it draws only with ``random.Random.random()``, whose sequence Python
    keeps stable across versions (unlike ``randrange`` and ``choice``).
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Move:
        """A uniformly random legal move for the seat to play. Raises ``ValueError`` when the game is over."""
        return random_move(view.game, self._rng)


def random_move(game: Game, rng: random.Random) -> Move:
    """A uniformly random legal move of *game*, drawn with ``rng.random()`` alone: over every
    (position, rotation) pair when placing, every legal deployment, recall or skip after. What the
    random bot plays, and the engine benchmark's and a search's playout policy (on a game, no view:
    the engine's own speed). Raises ``ValueError`` when the game is over."""
    if game.phase is Phase.PLACE_TILE:
        # uniform over (position, rotation) pairs, without building every PlaceTile or Placement
        codes = game.placement_codes()
        pick = int(rng.random() * sum([_PAIRS[code & 15] for code in codes]))
        for code in codes:
            pairs = _PAIRS[code & 15]
            if pick < pairs:
                return PlaceTile(game.drawn or "", position_of(code >> 4), ROTATIONS_OF_BITS[code & 15][pick])
            pick -= pairs
        raise AssertionError("unreachable: pick is below the number of pairs")
    moves = game.legal_moves()
    if not moves:
        raise ValueError("no legal move: the game is over")
    return moves[int(rng.random() * len(moves))]
