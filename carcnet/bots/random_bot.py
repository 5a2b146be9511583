"""Provides the random bot: uniform over the legal moves of the phase, farmers included."""

from __future__ import annotations

import random

from carcnet.engine import Game, Move, Phase, PlaceTile


class RandomBot:
    """Picks uniformly among the legal moves: every (position, rotation) pair when placing (the
    order of ``game.legal_moves()``), every legal segment or a skip when deploying.

    Reproducible: seeded, and it draws only with ``random.Random.random()``, whose sequence Python
    keeps stable across versions (unlike ``randrange`` and ``choice``).
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, game: Game) -> Move:
        if game.phase is Phase.PLACE_TILE:
            # uniform over (position, rotation) pairs, without building every PlaceTile
            placements = game.legal_placements()
            pick = int(self._rng.random() * sum(len(p.rotations) for p in placements))
            for p in placements:
                if pick < len(p.rotations):
                    return PlaceTile(game.drawn or "", p.position, p.rotations[pick])
                pick -= len(p.rotations)
            raise AssertionError("unreachable: pick is below the number of pairs")
        moves = game.legal_moves()
        if not moves:
            raise ValueError("no legal move: the game is over")
        return moves[int(self._rng.random() * len(moves))]
