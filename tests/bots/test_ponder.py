"""Pondering (issue 32): a search bot thinks about its next turn while the seat before it plays. What
it finds is exactly what it would find at its turn (the same move, the same seed), it plays it at once
when the position comes, it stops when told, and a game plays the same with and without it."""

from __future__ import annotations

import pytest

from carcnet.bots import GreedyBot, SearchBot
from carcnet.bots.ponder import positions_ahead, predicted_turns
from carcnet.engine import Game, GameSetup, Phase, Rules


def _game_with_pondering(rules: Rules, seed: int, every: int, moves: int) -> tuple[list[str], int, int]:
    """An easy search bot (seat 1) against greedy (seat 0), the bot pondering at every *every*-th
    move of the greedy seat: the moves, how many of the bot's turns came from pondering, and how
    many of those a fresh bot (no pondering, the same seed) checked."""
    game = Game(GameSetup(players=2, seed=seed, rules=rules))
    bot, other = SearchBot(seed, "easy"), GreedyBot(seed + 100)
    hits = checked = 0
    n = 0
    while game.phase is not Phase.GAME_OVER and len(game.moves) < moves:
        if game.seat == 1:
            placing = game.phase is Phase.PLACE_TILE
            fresh = SearchBot(seed, "easy").choose(game.view()) if placing else None
            move = bot.choose(game.view())
            if placing and bot.stats.pondered:
                hits += 1
                assert move == fresh, (len(game.moves), move, fresh)
                checked += 1
        else:
            n += 1
            if n % every == 0:
                bot.ponder(game.view().detached(), 1)
            move = other.choose(game.view())
        game.apply(move)
    return [str(m) for m in game.moves], hits, checked


@pytest.mark.parametrize("rules", [Rules(), Rules(river=True, abbot=True)], ids=["base", "river+abbot"])
def test_a_pondered_turn_is_the_move_a_search_at_the_turn_makes(rules):
    pondered, hits, checked = _game_with_pondering(rules, 11, every=5, moves=200)
    assert hits >= 5 and checked == hits  # the positions came (greedy plays what the bot expects)
    plain, none, _ = _game_with_pondering(rules, 11, every=10**9, moves=200)
    assert none == 0
    assert pondered == plain  # determinism per seed: the same game with pondering and without


def test_pondering_stops_when_told_and_keeps_only_whole_searches():
    game = Game(GameSetup(players=2, seed=4))
    bot = SearchBot(4, "easy")
    assert bot.ponder(game.view(), 1, stop=lambda: True) == 0 and not bot._pondered
    asked = 0

    def stop() -> bool:
        nonlocal asked
        asked += 1
        return asked > 40  # a few searches' playouts (16 each), then stop in the middle of one

    done = bot.ponder(game.view(), 1, stop=stop)
    assert 1 <= done < 10 and len(bot._pondered) == done


def test_positions_ahead_are_the_views_the_bot_gets_when_they_come_true():
    """Each predicted position, made from a view, equals the real game's view when the predicted turn
    is played and that design is the next drawn (the board, the bag's groups, what a search reads)."""
    game = Game(GameSetup(players=2, seed=8, rules=Rules(river=True, abbot=True)))
    for _ in range(6):  # a few turns in: the river under way
        bot = GreedyBot(1)
        game.apply(bot.choose(game.view()))
        game.apply(bot.choose(game.view()))
    view = game.view()
    turns = predicted_turns(view, GreedyBot(0))
    seen: list[tuple[int, str]] = []
    for turn, design, copies, ahead in positions_ahead(view, (game.seat + 1) % 2, GreedyBot(0)):
        # the real (seeded) game with *design* the next face down, then the turn played
        real = game.copy()
        real.deck = _with_next(game, design)
        for move in turn:
            real.apply(move)
        real_view = real.view()
        assert real_view.groups == ahead.groups and real_view.game.drawn == design == ahead.game.drawn
        assert real_view.game.setup.canonical() == ahead.game.setup.canonical()
        assert real_view.game.scores == ahead.game.scores and real_view.game.supply == ahead.game.supply
        assert real_view.game.legal_moves() == ahead.game.legal_moves()
        assert copies == view.groups[0].count(design)
        seen.append((turns.index(turn), design))
    assert len(turns) > 1 and len(seen) == len(set(seen))
    assert {d for k, d in seen if k == 0} == set(view.groups[0])  # every river design fits somewhere here
    assert seen[0][0] == 0  # the likeliest first


def _with_next(game: Game, design: str) -> tuple[str, ...]:
    """*game*'s order of tiles with *design* the next face down (the first copy of it moved up)."""
    drawn, rest = list(game.deck[: game.deck_index]), list(game.deck[game.deck_index :])
    rest.remove(design)
    return (*drawn, design, *rest)
