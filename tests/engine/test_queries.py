"""The queries the UI and bots use: projection, features, remaining tiles, figures."""

from __future__ import annotations

import pytest

from carcnet.bots import RandomBot
from carcnet.engine import Game, GameSetup, Phase, Position, Rules, SegmentKind, SkipMeeple, replay
from carcnet.engine.notation import play_script


def _random_game(seed: int, players: int) -> Game:
    game = Game(GameSetup(players=players, seed=seed))
    bot = RandomBot(seed)
    while game.phase is not Phase.GAME_OVER:
        game.apply(bot.choose(game.view()))
    return game


@pytest.mark.parametrize("seed", range(8))
def test_projection_before_the_last_skip_is_the_final_result(seed):
    played = _random_game(seed, 2 + seed % 5)
    game = replay(played.setup, played.moves[:-1])  # the last turn's tile is placed
    totals, events = game.projected_final()
    breakdown = game.projected_breakdown()
    assert all(ev.final for ev in events)
    game.apply(SkipMeeple())  # ends the game: this turn's completions, then the final scoring
    assert game.phase is Phase.GAME_OVER
    assert totals == game.scores
    # pending completions are projected in the final column and scored in play: compare per category
    assert [{c: sum(v) for c, v in seat.items()} for seat in breakdown] == [
        {c: sum(v) for c, v in seat.items()} for seat in game.breakdown
    ]
    if str(played.moves[-1]) == "skip":
        assert totals == played.scores


def test_projection_is_pure():
    game = Game(GameSetup(players=3, seed=11))
    bot = RandomBot(3)
    for _ in range(60):
        game.apply(bot.choose(game.view()))
    digest, scores, supply = game.digest, list(game.scores), list(game.supply)
    first = game.projected_final()
    assert game.projected_final() == first
    assert (game.digest, game.scores, game.supply) == (digest, scores, supply)


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(river=True, abbot=True), Rules(small_city=True), Rules(farms="city"), Rules(farms="off")],
    ids=["base", "river-abbot", "small-city", "city-farms", "no-farmers"],
)
def test_projected_scores_are_the_projection_without_its_events(rules):
    """At every move of random and greedy games (completions pending in the deploy phase, farms,
    abbots, the variants), the lean projection a bot's evaluation reads equals the full one."""
    from carcnet.bots import GreedyBot

    checked = 0
    for seed, bot in ((1, RandomBot(1)), (2, GreedyBot(2)), (3, RandomBot(3))):
        game = Game(GameSetup(players=2 + seed, seed=seed, rules=rules))
        while True:
            assert game.projected_scores() == game.projected_final()[0]
            checked += 1
            if game.phase is Phase.GAME_OVER:
                break
            game.apply(bot.choose(game.view()))
    assert checked > 400


def test_feature_queries_describe_tiles_completeness_and_occupants():
    game = play_script(
        """
        place E 0,-1 180          # closes the start tile's city: complete, nobody on it
        place U 1,0 90; deploy 0  # seat 1: thief on the road east of the start tile
        """,
        then=("V",),
    )
    city = game.feature_at(Position(0, 0), 0)
    assert city.kind is SegmentKind.CITY and city.complete
    assert city.tiles == (Position(0, -1), Position(0, 0)) and city.meeples == ()
    road = game.feature_at(Position(1, 0), 0)
    assert road.kind is SegmentKind.ROAD and not road.complete
    assert road.tiles == (Position(0, 0), Position(1, 0)) and [s for s, _ in road.meeples] == [1]
    assert game.feature_segments(Position(0, 0), 1) == [(Position(0, 0), 1), (Position(1, 0), 0)]
    kinds = [f.kind for f in game.features()]
    assert kinds.count(SegmentKind.CITY) == 1 and kinds.count(SegmentKind.ROAD) == 1
    assert game.figures() == [(1, game.figures()[0][1], Position(1, 0), 0)]
    with pytest.raises(KeyError, match="no tile at 5,5"):
        game.feature_at(Position(5, 5), 0)


def test_remaining_counts_the_face_down_tiles_by_design():
    game = Game(GameSetup(players=2, seed=4))
    remaining = game.remaining()
    assert sum(remaining.values()) == game.tiles_left == 70
    assert list(remaining) == sorted(remaining)
    assert remaining.get(game.drawn, 0) == GameSetup(players=2, seed=4).deck().count(game.drawn) - 1


def _counted(tiles: tuple[str, ...]) -> dict[str, int]:
    return {letter: tiles.count(letter) for letter in sorted(set(tiles))}


@pytest.mark.parametrize("rules", [Rules(), Rules(river=True, traders=True)], ids=["base", "river+traders"])
def test_remaining_kept_as_tiles_are_drawn_is_a_fresh_count(rules):
    """remaining() is counted once and then kept up to date draw by draw: at every point of a game it
    is what counting the face-down tiles gives, its dict is the caller's own, and a copy, or a view
    whose tiles face down are in another order, counts its own."""
    game = Game(GameSetup(players=2, seed=11, rules=rules))
    bot = RandomBot(11)
    while game.phase is not Phase.GAME_OVER:
        fresh = _counted(game.deck[game.deck_index :])
        left = game.remaining()
        assert left == fresh and list(left) == list(fresh)
        left.clear()  # the caller's own: the game keeps its count
        if len(game.moves) % 7 == 0:
            copy = game.copy()
            view = game.view().game
            game.apply(bot.choose(game.view()))
            assert copy.remaining() == fresh == view.remaining()
        else:
            game.apply(bot.choose(game.view()))
        assert game.remaining() == _counted(game.deck[game.deck_index :])
    assert game.remaining() == {}


def test_worth_and_open_sides_of_a_small_position():
    game = play_script(
        """
        place E 0,-1 180          # closes the start tile's city: complete, 2 tiles, scored 4
        place U 1,0 90; deploy 0  # a road east of the start tile, open at both ends
        """,
        then=("V",),
    )
    city = game.feature_at(Position(0, 0), 0)
    assert game.worth(city) == (4, None) and game.open_sides(Position(0, 0), 0) == 0
    road = game.feature_at(Position(1, 0), 0)
    assert game.worth(road) == (2, 2) and game.open_sides(Position(1, 0), 0) == 2
    farm = game.feature_at(Position(1, 0), 1)
    assert farm.kind is SegmentKind.FIELD and game.open_sides(Position(1, 0), 1) == 0
    assert game.worth(farm) == (3 * len(farm.cities), None) and len(farm.cities) in (0, 1)


def test_an_open_city_with_a_pennant_is_worth_half_now_of_what_it_would_be_closed():
    game = play_script("place C 0,-1 0", then=("V",))  # C: a city on every side, with a pennant
    city = game.feature_at(Position(0, -1), 0)
    assert (len(city.tiles), city.pennants, city.complete) == (2, 1, False)
    assert game.worth(city) == (3, 6) and game.open_sides(Position(0, -1), 0) == 3


@pytest.mark.parametrize("seed", range(6))
def test_worth_now_is_what_the_projection_and_the_completions_score(seed):
    """Every feature held at any point of a random game is projected at ``worth(f)[0]``, and every
    feature scored on completion scored ``worth(f)[0]`` of the feature as completed."""
    played = _random_game(seed, 2 + seed % 4)
    game = Game(played.setup)
    for move in played.moves:
        for event in game.apply(move):
            if type(event).__name__ == "PointsScored" and not event.final:
                assert event.points == game.worth(event.feature)[0]
        if game.phase is Phase.GAME_OVER:
            break
        for event in game.projected_final()[1]:
            if event.feature.kind is not SegmentKind.FIELD:
                assert event.points == game.worth(event.feature)[0]
            else:
                assert event.points == game.worth(event.feature)[0] == 3 * len(event.feature.cities)


def test_dead_spots_are_the_open_positions_no_tile_left_fits():
    """A spot no tile still to come can fill (issue 15, the bag): with only V (a road curve) left,
    the spot north of the start tile needs a city side and is dead; where V fits, nothing is dead."""
    from carcnet.engine import Game, GameSetup, tile_kind
    from carcnet.engine.geometry import Position as P

    game = Game(GameSetup(players=2, draw_order=("V",)))
    dead = game.dead_spots()
    assert P(0, -1) in dead
    fits = {p.position for p in game.legal_placements()}
    assert not fits & set(dead) and dead == sorted(dead)
    # a position is dead exactly when no design left (the drawn one included) fits it in any rotation
    designs = [tile_kind(letter) for letter in {*game.remaining(), game.drawn}]
    for key, pattern in game.board.frontier.items():
        from carcnet.engine.geometry import position_of

        assert (position_of(key) in dead) == (not any(d.fitting_rotations(pattern) for d in designs))
    full = Game(GameSetup(players=2, seed=4))  # the whole bag: every spot can still be filled
    assert full.dead_spots() == []


@pytest.mark.parametrize(
    ("position", "rotation", "reason"),
    [
        (Position(0, -1), 2, None),
        (Position(0, -1), 0, "side-mismatch"),
        (Position(0, -1), 4, "bad-rotation"),
        (Position(0, 0), 2, "occupied"),
        (Position(5, 5), 2, "not-adjacent"),
    ],
)
def test_check_placement_gives_the_key_or_the_reason_apply_gives(position, rotation, reason):
    from carcnet.engine import IllegalMoveError, PlaceTile
    from carcnet.engine.geometry import key_of

    game = Game(GameSetup(players=2, draw_order=("E", "V")))
    move = PlaceTile("E", position, rotation)
    if reason is None:
        assert game.check_placement(move) == (key_of(position.x, position.y), rotation)
        assert game.moves == []  # only checked
        return
    with pytest.raises(IllegalMoveError) as checked:
        game.check_placement(move)
    with pytest.raises(IllegalMoveError) as applied:
        game.apply(move)
    assert (checked.value.reason, str(checked.value)) == (applied.value.reason, str(applied.value))


def test_check_placement_outside_the_placing_phase_raises_as_apply():
    from carcnet.engine import IllegalMoveError, PlaceTile

    game = Game(GameSetup(players=2, draw_order=("E",)))
    game.apply(PlaceTile("E", Position(0, -1), 2))
    move = PlaceTile("E", Position(1, 0), 0)
    for phase in (Phase.DEPLOY, Phase.GAME_OVER):
        assert game.phase is phase
        with pytest.raises(IllegalMoveError) as checked:
            game.check_placement(move)
        with pytest.raises(IllegalMoveError) as applied:
            game.apply(move)
        assert (checked.value.reason, str(checked.value)) == (applied.value.reason, str(applied.value))
        if phase is Phase.DEPLOY:
            game.apply(SkipMeeple())  # the last tile: the game ends


def test_drawn_kind_is_the_design_to_place_then_the_one_placed():
    from carcnet.engine import PlaceTile, tile_kind

    game = Game(GameSetup(players=2, draw_order=("E",)))
    assert game.drawn_kind is tile_kind("E") and game.drawn == "E"
    game.apply(PlaceTile("E", Position(0, -1), 2))
    assert game.drawn_kind is tile_kind("E") and game.drawn is None
    game.apply(SkipMeeple())
    assert game.phase is Phase.GAME_OVER and game.drawn_kind is None


def test_areas_around_are_the_cloisters_next_to_an_empty_position():
    from carcnet.engine import PlaceTile
    from carcnet.engine.geometry import RING_OFFSETS, key_of

    game = Game(GameSetup(players=2, draw_order=("B", "E")))
    game.apply(PlaceTile("B", Position(0, 1), 0))  # a cloister south of the start tile
    cloister = game.graph.find(game.tile_at(Position(0, 1)).base)
    for x, y in ((1, 1), (1, 2), (0, 2), (-1, 0)):
        around = game.areas_around(key_of(x, y))
        assert [node for _, node in around] == [cloister]
        (ring, _), = around
        assert key_of(x, y) + RING_OFFSETS[ring] == key_of(0, 1)  # ring: the offset to the cloister
    assert game.areas_around(key_of(3, 3)) == ()
    assert game.areas_around(key_of(0, 1)) == ()  # not empty


def test_score_categories_are_public():
    from carcnet import engine

    assert "CATEGORIES" in engine.__all__
    assert engine.CATEGORIES == ("road", "city", "cloister", "garden", "field", "goods", "sheep", "fairy")
