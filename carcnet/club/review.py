"""The review of a saved game for the interface and the command line: which turns the
search bot would have played otherwise, for clearly more points. The review itself is
:mod:`carcnet.bots.review`'s (its docstring says how it is estimated); this gives it a saved game."""

from __future__ import annotations

from collections.abc import Callable

from carcnet.bots.review import MARK_POINTS, TurnReview, review_game
from carcnet.log import LoadedLog

__all__ = ["MARK_POINTS", "TurnReview", "review_log"]


def review_log(loaded: LoadedLog, *, level: str = "hard", on_turn: Callable[[int, int], None] | None = None,
               stop: Callable[[], bool] | None = None) -> list[TurnReview]:
    """Reviews every turn of the game of *loaded* by the search bot at *level*; *on_turn* (done,
    total) after each turn, *stop* asked before each (ends it early). CPU-bound: a few seconds a
    turn at ``hard`` on a laptop, so an interface runs it off its event loop.

    Raises:
        ValueError: An unknown level.
    """
    game = loaded.game
    return review_game(game.setup, game.moves, level=level, on_turn=on_turn, stop=stop)
