"""Provides the errors the engine raises for bad setups and illegal moves."""

from __future__ import annotations

__all__ = ["IllegalMoveError", "SetupError"]


class SetupError(ValueError):
    """A game setup that cannot start: player count, seed, draw order or rule options."""


class IllegalMoveError(ValueError):
    """A move that breaks the rules in the current state; the state is left untouched.

    Attributes:
        reason: A stable short code for programs (``"wrong-phase"``, ``"wrong-tile"``,
            ``"not-adjacent"``, ``"occupied"``, ``"side-mismatch"``, ``"river"``, ``"bad-rotation"``,
            ``"bad-segment"``, ``"feature-occupied"``, ``"no-supply"``, ``"wrong-figure"``,
            ``"no-abbot"``, ``"game-over"``, ``"bad-move"``). The message says the rest in words.
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
