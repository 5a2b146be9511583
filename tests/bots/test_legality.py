"""Every bot only ever makes legal moves, and every game between bots ends with the final scoring."""

from __future__ import annotations

import pytest

from carcnet.bots import GreedyBot, RandomBot, make_bot
from carcnet.engine import (
    MEEPLES_PER_PLAYER,
    GameEnded,
    Phase,
    PointsScored,
    TilePlaced,
    TileSetAside,
    base_tile_counts,
)

from .helpers import play

SEEDS_PER_TABLE = 30


def _table(seed: int, players: int) -> list:
    """A table mixing the bots by seed: all random, all greedy, or alternating from either end."""
    layout = seed % 4
    bots = []
    for seat in range(players):
        greedy = layout == 1 or (layout == 2 and seat % 2 == 0) or (layout == 3 and seat % 2 == 1)
        bots.append(GreedyBot(seed * 10 + seat) if greedy else RandomBot(seed * 10 + seat))
    return bots


@pytest.mark.parametrize("players", range(2, 7))
def test_bots_make_only_legal_moves_and_games_end_with_final_scoring(players):
    for seed in range(players * 1000, players * 1000 + SEEDS_PER_TABLE):
        game = play(seed, _table(seed, players), check_legal=True)
        where = f"seed {seed}, {players} players"
        assert game.phase is Phase.GAME_OVER, where
        assert game.legal_moves() == [], where
        events = game.events
        assert isinstance(events[-1], GameEnded), where
        assert not any(isinstance(ev, GameEnded) for ev in events[:-1]), where
        assert events[-1].scores == tuple(game.scores), where
        assert events[-1].winners == tuple(s for s in range(players) if game.scores[s] == max(game.scores)), (
            where
        )
        # the final scoring comes after the last tile, and nothing but it and returns follow
        last_tile = max(i for i, ev in enumerate(events) if isinstance(ev, TilePlaced))
        finals = [i for i, ev in enumerate(events) if isinstance(ev, PointsScored) and ev.final]
        assert all(i > last_tile for i in finals), where
        # every tile was placed or set aside; farmers stay, every other meeple is back
        placed = sum(isinstance(ev, TilePlaced) for ev in events)
        aside = sum(isinstance(ev, TileSetAside) for ev in events)
        assert placed + aside == sum(base_tile_counts().values()), where
        on_board = [0] * players
        for seat, _, _, _ in game.figures():
            on_board[seat] += 1
        assert [game.supply[s] + on_board[s] for s in range(players)] == [MEEPLES_PER_PLAYER] * players, where
        assert all(game.feature_at(pos, seg).kind.label == "field" for _, _, pos, seg in game.figures()), (
            where
        )


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_a_bot_refuses_to_move_when_the_game_is_over(name):
    game = play(5, [make_bot(name, 1), make_bot(name, 2)])
    with pytest.raises(ValueError):
        make_bot(name, 3).choose(game.view())
