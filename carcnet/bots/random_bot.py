"""Provides the random bot: uniform over the legal moves of the phase, farmers included."""

from __future__ import annotations

import random

from carcnet.engine import Game, Move


class RandomBot:
    """Picks uniformly among ``game.legal_moves()``: every (position, rotation) when placing, every
    legal segment or a skip when deploying.

    Reproducible: seeded, and it draws only with ``random.Random.random()``, whose sequence Python
    keeps stable across versions (unlike ``randrange`` and ``choice``).
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, game: Game) -> Move:
        moves = game.legal_moves()
        if not moves:
            raise ValueError("no legal move: the game is over")
        return moves[int(self._rng.random() * len(moves))]
