"""Provides the bot interface: a game in, one legal move out."""

from __future__ import annotations

from typing import Protocol

from carcnet.engine import Game, Move


class Bot(Protocol):
    """Chooses a move for the seat whose turn it is. Must not change *game*."""

    name: str

    def choose(self, game: Game) -> Move:
        """A legal move for ``game.seat`` in ``game.phase``."""
        ...
