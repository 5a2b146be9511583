"""Provides :class:`Phase`: what a game waits for (``protocol/digest.md`` §3, the state line's first word)."""

from __future__ import annotations

from enum import Enum

__all__ = ["Phase"]


class Phase(str, Enum):
    """What the game waits for."""

    DRAW = "draw"
    """The table must draw the current seat's tile (:class:`~carcnet.engine.moves.DrawTile`): only
    in a game whose draws come from the table (``GameSetup.draws``)."""
    PLACE_TILE = "place"
    """The current seat must place the drawn tile."""
    DEPLOY = "deploy"
    """The current seat may deploy a figure on the tile just placed (or skip)."""
    STEP = "step"
    """An expansion's question to the current seat inside its turn (``Game.steps``: Traders &
    Builders' second tile, taken or declined, from rules version 5 on)."""
    GAME_OVER = "over"
    """The final scoring is done."""
