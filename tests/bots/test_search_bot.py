"""The search bot (issue 17): legal moves only at every level, deterministic for a seed, plays from a
player's view, stops at its time cap."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carcnet.bots import BOTS, LEVELS, SearchBot, level_cap, make_bot, random_move
from carcnet.bots.greedy_bot import GreedyBot
from carcnet.engine import Game, GameSetup, Phase, Rules


def _position(seed: int, moves: int, rules: Rules) -> Game:
    game = Game(GameSetup(players=2 + seed % 2, seed=seed, rules=rules))
    rng = random.Random(seed)
    for _ in range(moves):
        if game.phase is Phase.GAME_OVER:
            break
        game.apply(random_move(game, rng))
    return game


@settings(max_examples=10, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(0, 150),
    st.sampled_from([Rules(), Rules(river=True, abbot=True), Rules(farms="city", small_city=True),
                     Rules(inns=True), Rules(river=True, abbot=True, inns=True), Rules(traders=True),
                     Rules(river=True, abbot=True, inns=True, traders=True)]),
    st.sampled_from(list(LEVELS)),
)
def test_every_level_returns_only_legal_moves(seed, moves, rules, level):
    game = _position(seed, moves, rules)
    if game.phase is Phase.GAME_OVER:
        return
    bot = SearchBot(seed, level)
    for _ in range(2):  # the placement, then the deploy it planned with it
        if game.phase is Phase.GAME_OVER:
            break
        move = bot.choose(game.view())
        assert move in game.legal_moves(), (level, move)
        game.apply(move)


def test_the_same_seed_plays_the_same_moves():
    def play(seed: int) -> list[str]:
        game = Game(GameSetup(players=2, seed=9, rules=Rules(river=True, abbot=True)))
        bots = [SearchBot(seed, "easy"), make_bot("greedy", 3)]
        while game.phase is not Phase.GAME_OVER and len(game.moves) < 60:
            game.apply(bots[game.seat].choose(game.view()))
        return [str(m) for m in game.moves]

    first = play(1)
    assert play(1) == first
    assert any(play(s) != first for s in (2, 3, 4))  # the seed matters (the determinisations differ)


def test_a_search_bot_stops_at_its_time_cap():
    game = _position(4, 20, Rules())
    bot = SearchBot(1, "hard", time_cap=0.0)  # no time at all: the prior's best turn, nothing played out
    move = bot.choose(game.view())
    assert move in game.legal_moves()
    assert bot.stats.capped and bot.stats.iterations == 0
    assert move == GreedyBot(1).ranked_turns(game)[0][1]  # the prior's best placement


class SlowClock:
    """A wall clock that moves *step* seconds each time it is read (a laptop doing other things:
    every playout seems to take *step*)."""

    def __init__(self, step: float) -> None:
        self.now, self.step, self.reads = 100.0, step, 0

    def __call__(self) -> float:
        self.now += self.step
        self.reads += 1
        return self.now


@pytest.mark.parametrize("level", list(LEVELS))
def test_the_cap_is_honoured_on_a_slow_clock(level):
    """Issue 32: under an injected clock on which each playout seems to take 0.05 s, a 0.5 s cap ends
    the search after about 10 playouts, whatever the level's budget: the turn took at most its cap
    plus one playout on that clock, and the move is legal. The cap counts from when the table asked
    (``started``), not from when the search began."""
    game = _position(7, 24, Rules(river=True, abbot=True))
    clock = SlowClock(0.05)
    bot = SearchBot(3, level, time_cap=0.5, clock=clock)
    begin = clock.now
    move = bot.choose(game.view())
    assert move in game.legal_moves()
    assert bot.stats.capped or bot.stats.iterations == LEVELS[level].iterations
    # the cap and one playout; on this clock every read moves it, the check that stops and the last
    # read (the stats) too
    assert clock.now - begin <= 0.5 + 3 * clock.step
    assert bot.stats.iterations <= 0.5 / clock.step
    # asked 0.4 s before the search began (a worker thread that started late): 0.1 s are left
    clock2 = SlowClock(0.05)
    late = SearchBot(3, level, time_cap=0.5, clock=clock2)
    late.started = clock2.now - 0.4
    late.choose(game.view())
    assert late.stats.iterations <= 2 and late.stats.capped
    assert late.started is None  # for that turn only


def test_a_cap_that_never_comes_changes_nothing():
    """Determinism: a cap far beyond the budget plays the same turns as no cap (same seed)."""
    game = _position(11, 30, Rules())
    free = SearchBot(5, "medium").choose(game.view())
    capped = SearchBot(5, "medium", time_cap=3600.0).choose(game.view())
    assert free == capped


def test_the_levels_are_bots_by_name_everywhere_bots_are():
    assert list(BOTS) == ["random", "greedy", "easy", "medium", "hard", "expert"]
    for level in LEVELS:
        bot = make_bot(level, 5, time_cap=2.0)
        assert isinstance(bot, SearchBot) and bot.name == level and bot.time_cap == 2.0 and bot.slow
    with pytest.raises(ValueError, match="known levels: easy, medium, hard, expert"):
        SearchBot(1, "grandmaster")
    # each level's own cap at a table: 2 s, the expert (three times hard's budget) 3 s; none for a one-ply bot
    assert [level_cap(make_bot(level, 1)) for level in LEVELS] == [2.0, 2.0, 2.0, 3.0]
    assert level_cap(make_bot("greedy", 1)) is None


@pytest.mark.parametrize("name", ["greedy", "easy"])
def test_a_bot_given_a_seat_mid_turn_at_a_table_that_draws_deploys_from_its_view(name):
    """A handover between a placement and its deploy (a laptop gone mid-turn): the bot has no plan
    and rebuilds the turn from the view, whose game draws from its own order, without the table's
    draws or the handover in its replay (the kill -9 end-to-end test found this)."""
    from carcnet.engine import HandOver

    from ..engine.test_draws import draw_now, table_game

    game, chains = table_game(3)
    rng = random.Random(3)
    for _ in range(200):
        if game.phase is Phase.DEPLOY and len(game.moves) > 40:
            break
        if game.phase is Phase.DRAW:
            draw_now(game, chains)
        else:
            game.apply(random_move(game, rng))
    seat = game.seat
    game.apply(HandOver(seat, name, (seat + 1) % 3))
    move = make_bot(name, 1).choose(game.view())
    assert move in game.legal_moves()


def test_the_candidates_are_the_best_turn_of_each_placement_then_the_next_best_turns():
    from carcnet.bots.search_bot import _candidates
    from carcnet.engine import DeployMeeple, PlaceTile, Position, SkipMeeple

    a, b, c = (PlaceTile("D", Position(x, 0), 0) for x in (1, 2, 3))
    ranked = [(9.0, a, DeployMeeple(1)), (8.0, a, SkipMeeple()), (7.0, b, SkipMeeple()),
              (6.0, a, DeployMeeple(0)), (5.0, c, DeployMeeple(2)), (4.0, b, DeployMeeple(0))]
    assert _candidates(ranked, 3) == [(a, DeployMeeple(1)), (b, SkipMeeple()), (c, DeployMeeple(2))]
    assert _candidates(ranked, 2) == [(a, DeployMeeple(1)), (b, SkipMeeple())]
    # fewer placements than candidates: the next best turns fill in, in the prior's order
    assert _candidates(ranked, 5) == [(a, DeployMeeple(1)), (b, SkipMeeple()), (c, DeployMeeple(2)),
                                      (a, SkipMeeple()), (a, DeployMeeple(0))]
    assert _candidates(ranked[:1], 4) == [(a, DeployMeeple(1))]


def test_the_search_bot_plays_its_abbot_as_the_greedy_bot_does():
    """With The Abbot a planned skip becomes the greedy bot's abbot move (on this tile's cloister or
    garden, or its recall), in the bot's own turns and in its playouts: a search bot that never
    used its abbot lost two games in three to greedy with The River and The Abbot."""
    from carcnet.engine import DeployMeeple, Figure, ReturnAbbot

    for seed in (3, 4):
        game = Game(GameSetup(players=2, seed=seed, rules=Rules(river=True, abbot=True)))
        bots = [SearchBot(seed, "easy"), make_bot("greedy", seed)]
        abbot_moves = 0
        while game.phase is not Phase.GAME_OVER:
            seat = game.seat
            move = bots[seat].choose(game.view())
            if seat == 0 and (isinstance(move, ReturnAbbot) or (isinstance(move, DeployMeeple) and move.figure is Figure.ABBOT)):
                abbot_moves += 1
            game.apply(move)
        assert abbot_moves >= 1, seed


@pytest.mark.parametrize(("left", "to_the_end"), [(8, True), (20, False)])
def test_in_the_last_tiles_the_expert_plays_its_futures_out_to_the_end(monkeypatch, left, to_the_end):
    """The expert's *endgame*: with that many tiles left or fewer, every playout ends the game, so
    its value is the real final margin; before, playouts stop after the horizon."""
    from carcnet.bots import search_bot

    assert LEVELS["expert"].endgame >= 8 > LEVELS["hard"].endgame
    game = Game(GameSetup(players=2, seed=11))
    bots = [GreedyBot(1), GreedyBot(2)]
    while game.tiles_left > left or game.phase is not Phase.PLACE_TILE:
        game.apply(bots[game.seat].choose(game.view()))
    seen: list[Phase] = []
    real = search_bot.margin

    def spy(played, seat, weights):  # type: ignore[no-untyped-def]
        seen.append(played.phase)
        return real(played, seat, weights)

    monkeypatch.setattr(search_bot, "margin", spy)
    move = SearchBot(3, "expert").choose(game.view())
    assert move in game.legal_moves()
    assert seen  # the search ran
    assert all(p is Phase.GAME_OVER for p in seen) is to_the_end
