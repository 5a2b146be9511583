"""Provides the scripted bot: the moves of a script, by the game's move number, for lessons and
demonstrations played on a fixed deck; another bot's choice where the script has none."""

from __future__ import annotations

from collections.abc import Mapping

from carcnet.engine import Move, PlayerView

from .base import Bot

__all__ = ["ScriptedBot"]


class ScriptedBot:
    """Plays ``script[n]`` when the game has had *n* moves and that move is legal; otherwise what
    *fallback* chooses (a script written for another course of the game, a game resumed elsewhere).

    The script is keyed by the number of moves made before it, so a game resumed from its log picks
    the script up where it stands.

    Args:
        script: Move number → the move to play then.
        fallback: The bot for the moves the script does not give.
    """

    def __init__(self, script: Mapping[int, Move], fallback: Bot) -> None:
        self.script = dict(script)
        self.fallback = fallback
        self.name = fallback.name

    def choose(self, view: PlayerView) -> Move:
        """The script's move for this point of the game if it is legal, else the fallback's."""
        game = view.game
        move = self.script.get(len(game.moves))
        if move is not None and move in game.legal_moves():
            return move
        return self.fallback.choose(view)
