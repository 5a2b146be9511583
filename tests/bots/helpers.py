"""Helpers shared by the bot tests: playing a whole game between bots."""

from __future__ import annotations

from collections.abc import Sequence

from carcnet.bots import Bot
from carcnet.engine import Game, GameSetup, Phase, base_tile_counts

#: Every tile after the start tile gives two moves: place, then deploy or skip.
MAX_MOVES = 2 * (sum(base_tile_counts().values()) - 1)


def play(seed: int, bots: Sequence[Bot], *, check_legal: bool = False) -> Game:
    """Plays a seeded game with ``bots[seat]`` choosing for each seat, to the end.

    With *check_legal*, every chosen move must be one of ``game.legal_moves()`` before it is applied
    (and ``apply`` raises on any illegal one anyway).
    """
    game = Game(GameSetup(players=len(bots), seed=seed))
    while game.phase is not Phase.GAME_OVER:
        assert len(game.moves) < MAX_MOVES, "the game did not end after the last tile"
        move = bots[game.seat].choose(game.view())
        if check_legal:
            assert move in game.legal_moves(), f"seed {seed}, move {len(game.moves)}: {move} is not legal"
        game.apply(move)
    return game
