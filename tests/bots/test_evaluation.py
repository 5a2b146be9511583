"""The search bot's evaluation (issue 17): ``Game.held_features`` against the engine's slow, public
description of every feature; the counts per seat; the real margin at the end; the fitting
script's least squares."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carcnet.bots import GreedyBot, random_move
from carcnet.bots.evaluation import DEAD_FEATURES, FEATURES, WEIGHTS, features, margin, values, weights_for
from carcnet.engine import Game, GameSetup, Phase, Position, Rules, SegmentKind, Side

_RULES = [Rules(), Rules(river=True, abbot=True)]


def _position(seed: int, moves: int, rules: Rules, players: int = 2) -> Game:
    game = Game(GameSetup(players=players, seed=seed, rules=rules))
    rng = random.Random(seed)
    for _ in range(moves):
        if game.phase is Phase.GAME_OVER:
            break
        game.apply(random_move(game, rng))
    return game


def _slow_held(game: Game) -> list[tuple]:
    """What ``held_features`` should say, from ``features()``, ``open_sides`` and each field
    segment's bordering city segments: the public, slow path."""
    out = []
    for info in game.features():
        if not info.meeples:
            continue
        figures = [0] * game.players
        for seat, _figure in info.meeples:
            figures[seat] += 1
        position, segment = info.anchor
        if info.kind is SegmentKind.FIELD:
            unfinished = set()
            for where, index in game.feature_segments(position, segment):
                tile = game.tile_at(where)
                for city in tile.variant.segments[index].borders:
                    around = game.feature_at(where, city)
                    if not around.complete:
                        unfinished.add(around.anchor)
            out.append((info.kind, 0, 0, len(unfinished), tuple(figures)))
        else:
            out.append((info.kind, len(info.tiles), info.pennants, game.open_sides(position, segment), tuple(figures)))
    return sorted(out, key=repr)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 150), st.sampled_from(_RULES), st.integers(2, 4))
def test_held_features_agree_with_the_slow_description_of_every_feature(seed, moves, rules, players):
    game = _position(seed, moves, rules, players)
    assert sorted((tuple(h) for h in game.held_features()), key=repr) == _slow_held(game)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 150))
def test_a_seat_s_meeples_are_in_its_supply_or_on_the_board(seed, moves):
    game = _position(seed, moves, Rules())
    counts = features(game)
    supply, placed = FEATURES.index("supply"), FEATURES.index("placed")
    assert [c[supply] + c[placed] for c in counts] == [7.0] * game.players
    totals, _ = game.projected_final()
    assert [c[0] for c in counts] == [float(t - s) for t, s in zip(totals, game.scores, strict=True)]


def test_at_the_end_of_the_game_the_value_is_the_real_score():
    game = Game(GameSetup(players=2, seed=5))
    bots = [GreedyBot(1), GreedyBot(2)]
    while game.phase is not Phase.GAME_OVER:
        before = values(game)
        assert len(before) == 2
        game.apply(bots[game.seat].choose(game.view()))
    assert values(game) == [float(s) for s in game.scores]
    assert margin(game, 0) == game.scores[0] - game.scores[1]
    assert all(len(row) in (2 * len(FEATURES), 2 * (len(FEATURES) + len(DEAD_FEATURES))) for row in WEIGHTS.values())


def test_a_city_about_to_close_is_worth_more_than_the_same_city_wide_open():
    """Same seat, same points if the game ended now: the weights value the closable city more
    (the fit found it: a city with one open side is completed more often)."""
    w = WEIGHTS["base"]
    k = len(FEATURES)
    share = 0.5
    weight = [w[i] + w[k + i] * share for i in range(k)]
    assert weight[FEATURES.index("city1")] > weight[FEATURES.index("city3")]


def test_the_fitting_script_recovers_known_weights():
    path = Path(__file__).parents[2] / "benchmarks" / "fit_evaluation.py"
    spec = importlib.util.spec_from_file_location("fit_evaluation", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rng = random.Random(3)
    truth = [1.5, -2.0, 0.25]
    rows = []
    for _ in range(400):
        x = [rng.uniform(-5, 5) for _ in truth]
        rows.append((x, sum(a * b for a, b in zip(x, truth, strict=True)) + 4.0 + rng.uniform(-0.01, 0.01)))
    fitted = module.least_squares(rows)
    assert [round(v, 2) for v in fitted] == [*truth, 4.0]


@pytest.mark.parametrize(("rules", "row"), [
    (Rules(), "base"), (Rules(river=True), "base"), (Rules(abbot=True), "abbot"),
    (Rules(inns=True), "inns"), (Rules(inns=True, abbot=True), "inns"),
    (Rules(traders=True), "traders"), (Rules(traders=True, inns=True, river=True, abbot=True), "traders"),
])
def test_each_rule_set_uses_the_row_fitted_for_it(rules, row):
    """Issue 33: the expansions' games are valued by the rows fitted on their own games."""
    from carcnet.bots.evaluation import weights_for

    assert weights_for(rules) == WEIGHTS[row]
    assert len({WEIGHTS[name] for name in ("base", "abbot", "inns", "traders")}) == 4


def _slow_dead(game: Game) -> list[tuple]:
    """What ``dead_held_features`` should say, from ``dead_spots`` and the public description of
    every feature: a held road or city with a side of one of its segments facing a dead spot, a
    held cloister or garden with a dead spot among the eight positions around it."""
    dead = set(game.dead_spots())
    out = []
    for info in game.features():
        if not info.meeples or info.kind in (SegmentKind.FIELD, SegmentKind.RIVER):
            continue
        position, segment = info.anchor
        if info.kind in (SegmentKind.CLOISTER, SegmentKind.GARDEN):
            around = {Position(position.x + dx, position.y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
            touches = bool(around & dead)
        else:
            touches = any(
                where.neighbour(Side(side)) in dead
                for where, index in game.feature_segments(position, segment)
                for side in game.tile_at(where).variant.segments[index].sides
            )
        if touches:
            figures = [0] * game.players
            for seat, _figure in info.meeples:
                figures[seat] += 1
            out.append((info.kind, len(info.tiles), info.pennants, game.open_sides(position, segment), tuple(figures)))
    return sorted(out, key=repr)


def _late_position(seed: int, left: int, rules: Rules, players: int) -> Game:
    """A game played by greedy bots until *left* tiles are left in the bag (dead spots come late)."""
    game = Game(GameSetup(players=players, seed=seed, rules=rules))
    bots = [GreedyBot(seed + s) for s in range(players)]
    while game.phase is not Phase.GAME_OVER and game.tiles_left > left:
        game.apply(bots[game.seat].choose(game.view()))
    return game


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 30), st.sampled_from(_RULES), st.integers(2, 4))
def test_dead_held_features_agree_with_the_dead_spots_and_the_slow_description(seed, left, rules, players):
    game = _late_position(seed, left, rules, players)
    dead = game.dead_held_features()
    assert sorted((tuple(h) for h in dead), key=repr) == _slow_dead(game)
    assert all(h in game.held_features() for h in dead)  # a subset, never a field


def test_dead_features_are_found_in_real_games_and_counted_for_their_seats():
    """Greedy games leave features that can never be completed late in the game: each counts its
    seats' figures on it, and its size for the seats holding it (the ``base+dead`` row's counts)."""
    found = 0
    for seed in range(8):
        game = _late_position(seed, 6, Rules(), 2)
        counts = features(game, dead=True)
        assert [len(c) for c in counts] == [len(FEATURES) + len(DEAD_FEATURES)] * 2
        want = [[0.0, 0.0], [0.0, 0.0]]
        for held in game.dead_held_features():
            found += 1
            for seat, c in enumerate(held.figures):
                want[seat][0] += c
                if c and c == max(held.figures):
                    want[seat][1] += held.tiles + held.pennants
        assert [c[len(FEATURES):] for c in counts] == want
        assert [c[: len(FEATURES)] for c in counts] == features(game)
    assert found  # dead features do occur: the counts are not always zero


def test_the_dead_row_is_the_base_game_s_when_asked_for():
    assert weights_for(Rules(), dead=True) == WEIGHTS["base+dead"]
    assert weights_for(Rules(river=True), dead=True) == WEIGHTS["base+dead"]
    assert weights_for(Rules(abbot=True), dead=True) == WEIGHTS["abbot"]
    assert weights_for(Rules()) == WEIGHTS["base"]
    assert len(WEIGHTS["base+dead"]) == 2 * (len(FEATURES) + len(DEAD_FEATURES))
    # the dead counts weigh in only through their own weights
    row = WEIGHTS["base+dead"]
    k = len(FEATURES) + len(DEAD_FEATURES)
    blind = tuple(0.0 if i % k >= len(FEATURES) else w for i, w in enumerate(row))
    game = next(g for g in (_late_position(s, 6, Rules(), 2) for s in range(8)) if g.dead_held_features())
    assert values(game, blind) == values(game, row[: len(FEATURES)] + row[k : k + len(FEATURES)])
    assert values(game, blind) != values(game, row)
