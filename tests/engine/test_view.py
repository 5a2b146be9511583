"""``Game.view``: what a player at the table knows, and bots get (issue 17): the state, the bag's
contents, never the order of the tiles face down."""

from __future__ import annotations

import gc
import random
import types

from hypothesis import given, settings
from hypothesis import strategies as st

from carcnet.bots import GreedyBot, RandomBot, SearchBot, random_move
from carcnet.engine import Game, GameSetup, Phase, PlayerView, Rules, tile_kind

from .test_draws import draw_now, table_game


def _reachable(root: object, limit: int = 200_000) -> list[object]:
    """Every object reachable from *root* through data (not through modules, classes or functions,
    which reach the whole program), breadth first, at most *limit*."""
    seen: dict[int, object] = {id(root): root}
    todo = [root]
    skip = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)
    while todo and len(seen) < limit:
        obj = todo.pop()
        for ref in gc.get_referents(obj):
            if isinstance(ref, skip) or id(ref) in seen:
                continue
            seen[id(ref)] = ref
            todo.append(ref)
    assert len(seen) < limit
    return list(seen.values())


def _played(seed: int, moves: int, rules: Rules = Rules()) -> Game:
    game = Game(GameSetup(players=2 + seed % 3, seed=seed, rules=rules))
    rng = random.Random(seed)
    for _ in range(moves):
        if game.phase is Phase.GAME_OVER:
            break
        game.apply(random_move(game, rng))
    return game


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(0, 150), st.booleans())
def test_a_view_holds_no_draw_order(seed, moves, river):
    """Nothing a bot can reach from its view is the real game, its setup (the seed), its deck, or any
    sequence in the real order of the tiles face down."""
    real = _played(seed, moves, Rules(river=river, abbot=river))
    view = real.view()
    future = real.deck[real.deck_index :]
    reached = _reachable(view)
    ids = {id(o) for o in reached}
    assert id(real) not in ids and id(real.setup) not in ids and id(real.deck) not in ids
    assert view.game.setup.seed is None and view.game.setup.draws is None
    if len(future) > 2 and list(future) != sorted(future):
        assert not [o for o in reached if isinstance(o, (tuple, list)) and len(o) >= len(future)
                    and tuple(o[-len(future):]) == future]


@settings(max_examples=4, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 140), st.booleans())
def test_pondering_reads_the_bag_s_contents_never_its_order(seed, moves, abbot):
    """A search bot thinking ahead (issue 32) from a view finds the same turns, whatever the order of
    the tiles face down; and nothing it keeps is that order."""
    real = _played(seed, moves, Rules(abbot=abbot))
    if real.phase not in (Phase.PLACE_TILE, Phase.DEPLOY) or real.tiles_left < 3:
        return
    rest = list(real.deck[real.deck_index :])
    rest.reverse()
    rest.insert(len(rest) // 2, rest.pop())  # another order of the same tiles
    other = Game(GameSetup(players=real.players, draw_order=(*real.deck[: real.deck_index], *rest), rules=real.setup.rules))
    for move in real.moves:
        other.apply(move)
    seat = (real.seat + 1) % real.players
    bots = SearchBot(seed, "easy"), SearchBot(seed, "easy")
    assert bots[0].ponder(real.view(), seat) == bots[1].ponder(other.view(), seat) > 0
    assert bots[0]._pondered == bots[1]._pondered
    future = real.deck[real.deck_index :]
    assert not [o for o in _reachable(bots[0]) if isinstance(o, (tuple, list)) and len(o) >= len(future)
                and tuple(o[-len(future):]) == future]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(0, 150), st.booleans())
def test_a_view_answers_every_question_a_player_may_ask_as_the_game_does(seed, moves, river):
    real = _played(seed, moves, Rules(river=river, abbot=river))
    view = real.view()
    game = view.game
    assert view.seat == real.seat
    for ask in ("phase", "seat", "drawn", "scores", "supply", "supplies", "tiles_left", "set_aside", "placed",
                "last_placed", "winners"):
        assert getattr(game, ask) == getattr(real, ask), ask
    assert game.remaining() == real.remaining() == view.remaining()
    assert game.legal_moves() == real.legal_moves() and game.dead_spots() == real.dead_spots()
    assert game.projected_final() == real.projected_final() and game.features() == real.features()
    assert sorted(t for group in view.groups for t in group) == sorted(real.deck[real.deck_index :])
    assert all(list(group) == sorted(group) for group in view.groups)


def test_a_sample_is_one_possible_future_group_by_group_and_reproducible():
    real = _played(11, 3, Rules(river=True))  # still on the river: river tiles, lake, start tile, land
    view = real.view()
    assert [len(g) for g in view.groups] == [len(view.groups[0]), 1, 1, 71] and view.groups[1] == ("R2",)
    a, b = view.sample(random.Random(5)), view.sample(random.Random(5))
    assert a.deck == b.deck and a is not view.game
    futures = {view.sample(random.Random(s)).deck[real.deck_index :] for s in range(20)}
    assert len(futures) > 10  # shuffled, not the canonical order
    for future in futures:
        river = len(view.groups[0])
        assert all(tile_kind(t).has_river for t in future[:river]) and future[river] == "R2"
        assert future[river + 1] == "D" and sorted(future) == sorted(real.deck[real.deck_index :])
    sample = view.sample(random.Random(1))  # plays on alone: the real game and the view are untouched
    before = (real.digest, len(real.moves), len(view.game.moves))
    while sample.phase is not Phase.GAME_OVER:
        sample.apply(random_move(sample, random.Random(2)))
    assert (real.digest, len(real.moves), len(view.game.moves)) == before


def test_a_view_of_a_game_whose_draws_the_table_makes():
    game, chains = table_game(3)
    draw_now(game, chains)
    view = game.view()
    assert isinstance(view, PlayerView) and view.game.bag is None and view.game.drawn == game.drawn
    assert view.remaining() == game.remaining() and view.game.legal_moves() == game.legal_moves()
    assert view.game.setup.draws is None


def test_bots_play_from_a_view_and_the_greedy_bot_keeps_its_planned_deploy():
    game = Game(GameSetup(players=2, seed=3))
    greedy, rand = GreedyBot(1), RandomBot(2)
    replays = 0
    original = GreedyBot._best_deploy

    def counting(self, g):
        nonlocal replays
        replays += 1
        return original(self, g)

    GreedyBot._best_deploy = counting  # type: ignore[method-assign]
    try:
        while game.phase is not Phase.GAME_OVER:
            bot = greedy if game.seat == 0 else rand
            move = bot.choose(game.view())
            assert move in game.legal_moves()
            game.apply(move)
    finally:
        GreedyBot._best_deploy = original  # type: ignore[method-assign]
    assert replays == 0  # each deploy came from the plan made with the placement, on a fresh view
