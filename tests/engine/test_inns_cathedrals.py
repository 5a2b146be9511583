"""Inns & Cathedrals (issue 33): a road with an inn scores 2 a tile when completed and nothing when
incomplete at the end; a city with a cathedral 3 a tile and pennant completed and nothing incomplete
at the end; the large meeple counts as two for the majority (docs/rules.md, with the sources of each
rule); the rulebooks' examples and FAQ rulings as positions."""

from __future__ import annotations

from carcnet.engine import Figure, Game, GameSetup, PointsScored, Rules, parse_move
from carcnet.engine.events import FeatureInfo
from carcnet.engine.geometry import Position
from carcnet.engine.expansions import hooks_for
from carcnet.engine.scoring import feature_value
from carcnet.engine.tiles import SegmentKind

INNS = Rules(inns=True)


def _play(order: tuple[str, ...], moves: list[str], rules: Rules = INNS) -> Game:
    game = Game(GameSetup(players=2, draw_order=order, rules=rules))
    for move in moves:
        game.apply(parse_move(move))
    return game


def _points(game: Game) -> list[tuple[tuple[int, ...], int, bool]]:
    return [(e.seats, e.points, e.final) for e in game.events if isinstance(e, PointsScored)]


def test_a_completed_road_with_an_inn_scores_2_a_tile():
    # a cloister's road ends it to the west, the start tile, the inn's road, a cloister's road to the east
    moves = ["place ICB 1,0 0", "deploy 0", "place A 2,0 90", "skip", "place A -1,0 270", "skip"]
    game = _play(("ICB", "A", "A"), moves)
    assert (( 0,), 8, False) in _points(game)  # 4 tiles x 2


def test_an_incomplete_road_with_an_inn_scores_nothing_at_the_end():
    game = _play(("ICB",), ["place ICB 1,0 0", "deploy 0"])
    assert _points(game) == [((0,), 0, True)]
    plain = _play(("U",), ["place U 1,0 90", "deploy 0"], Rules())  # the same road without an inn
    assert _points(plain) == [((0,), 2, True)]


def test_an_incomplete_city_with_a_cathedral_scores_nothing_at_the_end():
    game = _play(("ICK",), ["place ICK 0,-1 0", "deploy 0"])
    assert game.scores == [0, 0]
    assert _points(game) == [((0,), 0, True)]


def test_a_completed_city_with_a_cathedral_scores_3_a_tile_and_pennant():
    value = hooks_for(INNS, 4).value
    where = (Position(0, 0), 0)
    info = FeatureInfo(SegmentKind.CITY, where, (Position(0, 0), Position(0, 1), Position(1, 0)), True, 1, cathedral=True)
    assert value(info, False) == 12  # (3 tiles + 1 pennant) x 3
    assert value(info, True) == 12
    incomplete = FeatureInfo(SegmentKind.CITY, where, info.tiles, False, 1, cathedral=True)
    assert value(incomplete, True) == 0
    assert feature_value(info, final=False) == 8  # the core's value knows no cathedral: 2 a tile and pennant


def test_the_projection_scores_inns_and_cathedrals_as_the_end_would():
    game = _play(("ICB", "U"), ["place ICB 1,0 0", "deploy 0"])
    assert game.projected_scores() == game.projected_final()[0] == [0, 0]  # incomplete inn road: 0


def test_a_saved_game_names_inns_and_cathedrals_and_only_then():
    from carcnet.log import LogHeader, Seat
    from carcnet.log.codec import from_wire, options_to_wire, to_wire

    assert "inns" not in options_to_wire(Rules())
    assert options_to_wire(INNS)["inns"] is True
    header = LogHeader.new([Seat("Ann", "red"), Seat("Bob", "blue")], seed=5, options=INNS)
    back = from_wire(to_wire(header))
    assert isinstance(back, LogHeader) and back.options == INNS and back.setup().rules.inns


def test_the_large_meeple_counts_as_two_for_the_majority():
    """Inns & Cathedrals: the large meeple counts as two meeples for the majority; it comes from its
    own supply (one a player), and the state line of the digest says where it is."""
    from carcnet.engine import Figure
    game = Game(GameSetup(players=2, draw_order=("ICB",), rules=INNS))
    assert game.majority([(0, Figure.LARGE, 5), (1, Figure.MEEPLE, 6), (1, Figure.MEEPLE, 7)]) == (0, 1)
    assert game.majority([(0, Figure.LARGE, 5), (1, Figure.MEEPLE, 6)]) == (0,)
    game = _play(("ICB", "U"), ["place ICB 1,0 0", "deploy 0 large"])
    assert game.supply_of(Figure.LARGE) == [0, 1] and game.supply == [7, 7]
    assert " large=0,1\n" in game.state_line()
    assert "deploy 0 large" not in [str(m) for m in game.legal_moves()]  # Bob's turn now


def test_the_large_meeple_only_with_inns_and_cathedrals():
    from carcnet.engine import IllegalMoveError

    game = _play(("U",), ["place U 1,0 90"], Rules())
    try:
        game.apply(parse_move("deploy 0 large"))
    except IllegalMoveError as exc:
        assert exc.reason == "wrong-figure"
    else:
        raise AssertionError("the large meeple was deployed without Inns & Cathedrals")


def _on_board(game: Game, seat: int, figure) -> int:  # type: ignore[no-untyped-def]
    return sum(1 for s, f, _pos, _seg in game.figures() if s == seat and f is figure)


def test_figures_are_conserved_and_scores_only_rise_in_random_games():
    """Property (issue 33): with Inns & Cathedrals alone and with The River and The Abbot, every
    figure is in its owner's supply or on the board after every move (7 meeples, 1 large meeple, the
    abbot), scores never fall, and a replay of the moves gives the same digests."""
    import random

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from carcnet.bots import random_move
    from carcnet.engine import Figure, replay

    @settings(max_examples=12, deadline=None)
    @given(st.integers(0, 2**32 - 1), st.integers(2, 5), st.booleans())
    def check(seed: int, players: int, more: bool) -> None:
        rules = Rules(inns=True, river=more, abbot=more)
        game = Game(GameSetup(players=players, seed=seed, rules=rules))
        rng = random.Random(seed)
        before = list(game.scores)
        while game.phase.value != "over":
            game.apply(random_move(game, rng))
            assert all(a >= b for a, b in zip(game.scores, before, strict=True))
            before = list(game.scores)
            for seat in range(players):
                assert game.supply[seat] + _on_board(game, seat, Figure.MEEPLE) == 7
                assert game.supply_of(Figure.LARGE)[seat] + _on_board(game, seat, Figure.LARGE) == 1
                assert game.supply_of(Figure.ABBOT)[seat] + _on_board(game, seat, Figure.ABBOT) == (1 if more else 0)
        assert replay(game.setup, game.moves).digests == game.digests

    check()


# ------------------------------------------------------------------ the rulebooks' examples, as positions


def test_rulebook_example_a_completed_road_of_five_tiles_with_an_inn_scores_10():
    """W-IC (the C2 rulebook's caption): "You score 10 points for this road, since there is an inn
    and five tiles." A cloister's road, the start tile, the inn's road, a straight road, a cloister."""
    moves = ["place ICB 1,0 0", "deploy 0", "place U 2,0 90", "skip", "place A 3,0 90", "skip",
             "place A -1,0 270", "skip"]
    game = _play(("ICB", "U", "A", "A"), moves)
    assert ((0,), 10, False) in _points(game)
    assert game.supply[0] == 7  # the meeple came back


def test_faq_two_inns_on_one_road_still_score_2_a_tile():
    """W-IC: "a road with one or more inns": 2 a tile, however many inns (JCloisterZone: the same)."""
    moves = ["place ICB 1,0 0", "deploy 0", "place ICA 2,0 0", "skip", "place A 2,1 180", "skip",
             "place A -1,0 270", "skip"]
    game = _play(("ICB", "ICA", "A", "A"), moves)
    assert ((0,), 10, False) in _points(game)  # 5 tiles, 2 inns: 10, not 15 or 20


def test_rulebook_example_the_large_meeple_wins_a_city_against_one_meeple_and_scores_it_once():
    """CS-I's example: "In a castle are located a RED big follower and a YELLOW normal follower. If the
    castle gets finished, the RED player gets points"; DZ / HA FN 18: the size of the followers
    does not double the points. Red's large meeple on the start tile's city, Yellow's meeple on a
    city beside it; a corner joins and completes them: 4 tiles, 8 points, Red's alone."""
    moves = ["place N 0,-1 180", "deploy 0 large", "place D 1,0 0", "deploy 0", "place N 1,-1 270", "skip"]
    game = _play(("N", "D", "N"), moves)
    assert ((0,), 8, False) in _points(game)
    assert game.scores == [8, 0]
    assert game.supply_of(Figure.LARGE) == [1, 1] and game.supply == [7, 7]  # both figures back in their supplies


def test_faq_a_cathedral_in_an_opponent_s_city_left_open_takes_its_points():
    """W-IC FAQ: "Am I allowed to place cathedrals in other players' cities? Yes [...] it can strip a
    large city of an opponent of points." Red's city of the start tile and a corner; Blue adds a
    cathedral tile to it and the game ends with the city open: Red scores nothing for it (a plain
    four-sided city there instead: 3 tiles and a pennant, 4 points at the end)."""
    moves = ["place N 0,-1 180", "deploy 0"]
    stripped = _play(("N", "ICK"), [*moves, "place ICK 1,-1 0", "skip"])
    assert stripped.scores == [0, 0] and ((0,), 0, True) in _points(stripped)
    plain = _play(("N", "C"), [*moves, "place C 1,-1 0", "skip"])
    assert plain.scores == [4, 0]


def test_an_inn_or_cathedral_shows_in_a_feature_s_description():
    game = _play(("ICB",), ["place ICB 1,0 0"])
    road = next(f for f in game.features() if f.inn)
    assert road.describe() == "road, 2 tiles, an inn"
    city = FeatureInfo(SegmentKind.CITY, (Position(0, 0), 0), (Position(0, 0),), False, 0, cathedral=True)
    assert city.describe() == "city, 1 tile, a cathedral"
