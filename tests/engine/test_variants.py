"""The rules every table plays (issue 16): the corrected river tiles R6 and R7 and the tile table's
check, the start tile's three options, a river that is always finished, and the editions' scoring
variants (small cities, first-edition farms, no farmers), as rulebook positions and properties.

Sources: ``hig-annotated-rules-v4-with-faq-and-river.txt`` (HA): "THE RIVER", FN 17 (small city),
FN 27–28 (first-edition farms), FN 31 (U-turns); ``zman-2014-rules-with-farmers-river-abbot.txt``
(Z14) "The River". Conventions: x east, y south; rotations clockwise quarter turns; the start tile D
at (0, 0) has its city to the north, the spring R1 its river to the south.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carcnet.engine.expansions.river import river_end
from carcnet.bots import RandomBot
from carcnet.engine import (
    MEEPLES_PER_PLAYER,
    DeployMeeple,
    Figure,
    Game,
    GameSetup,
    IllegalMoveError,
    MeepleDeployed,
    Phase,
    PlaceTile,
    PointsScored,
    Position,
    Rules,
    SegmentKind,
    SkipMeeple,
    parse_move,
    replay,
    tile_kind,
)
from carcnet.engine.preview import preview_placement
from carcnet.engine.tiles import RIVER_DESIGNS, TileKind, _design, register

P = Position
RIVER = Rules(river=True)


def _play(rules: Rules, order: tuple[str, ...], script: list[str], players: int = 2) -> Game:
    return replay(GameSetup(players=players, draw_order=order, rules=rules), [parse_move(m) for m in script])


# ------------------------------------------------------------------------------ R6, R7 and the check


@pytest.mark.parametrize(
    ("row", "words"),
    [
        # R6 as carcnet had it: one field from the east to the west of the strip the road crosses
        (("R6", "city N", "river E W", "road S", "field EL WR borders 0", "field ER SL", "field SR WL"),
         "field 3 crosses road 2 \\(it runs to the city\\)"),
        # R7 as carcnet had it: the south bank one field across the road
        (("R7", "river E W", "road S", "cloister", "field N EL WR", "field ER S WL"),
         "field 4 crosses road 1"),
        (("Z1", "road N S", "field N E S W"), "field 1 crosses road 0 \\(it runs from side to side\\)"),
        (("Z2", "river N S", "field NR E S W NL"), "field 1 crosses river 0"),
        (("Z3", "road E", "road S", "road W", "field N EL WR", "field ER SL SR WL"), "meets other roads"),
    ],
)
def test_the_tile_table_refuses_a_field_that_crosses_a_road_or_a_river(row, words):
    with pytest.raises(ValueError, match=words):
        _design(row[0], *row[1:])


def test_every_printed_design_passes_the_check_and_a_is_the_only_field_round_a_road_end():
    """A road ends at a junction, a city gate or a cloister; the field goes round it only on A (the
    cloister stands in the one field), as the spring's and the lake's do (HA FN 30)."""
    from carcnet.engine.tiles import BASE_DESIGNS, GARDEN_VARIANTS

    wraps = []
    for kind in (*BASE_DESIGNS, *RIVER_DESIGNS, *GARDEN_VARIANTS):
        again = TileKind(kind.letter, kind.segments, kind.expansion)  # validated on construction
        assert again.segments == kind.segments
        for seg in kind.segments:
            if seg.kind in (SegmentKind.ROAD, SegmentKind.RIVER) and len(seg.sides) == 1:
                (s,) = seg.sides
                owners = [i for i, f in enumerate(kind.segments) if {2 * s, 2 * s + 1} <= set(f.halves)]
                if owners:
                    wraps.append(kind.letter)
    assert sorted(set(wraps)) == ["A", "R1", "R2"]


def test_r6_the_road_crosses_the_river_to_the_city_so_a_farmer_on_each_side_scores_apart():
    """R6 turned a quarter (river north-south, city east, road west crossing the river to the city's
    gate): the strip between the river and the city is two farms, north and south of the road. Red
    puts a farmer on the south one; Blue later reaches the north one through the spring's farm (HA
    FN 30: it goes round the spring) and may put a farmer there too. The city closes: each scores 3."""
    game = Game(GameSetup(players=2, draw_order=("R6", "R7", "R2", "B", "E"), rules=RIVER))
    game.apply(PlaceTile("R6", P(0, 1), 1))
    south, north = game.feature_at(P(0, 1), 3), game.feature_at(P(0, 1), 4)
    assert south.anchor != north.anchor  # two farms: the road divides the strip
    assert {str(m) for m in game.deploy_options()} >= {"deploy 3", "deploy 4"}
    game.apply(DeployMeeple(3))  # Red on the south part of the strip
    for move in ("place R7 0,2 90", "skip", "place R2 0,3 180", "skip"):
        game.apply(parse_move(move))
    game.apply(PlaceTile("B", P(1, 0), 0))  # beside the spring: its farm is the strip's north part
    assert game.feature_at(P(1, 0), 1).anchor == game.feature_at(P(0, 1), 4).anchor
    assert DeployMeeple(1) in game.deploy_options()  # legal: not the farm Red's farmer is on
    game.apply(DeployMeeple(1))
    game.apply(PlaceTile("E", P(1, 1), 3))  # closes R6's city from the east
    game.apply(SkipMeeple())
    assert game.phase is Phase.GAME_OVER
    farms = [e for e in game.events if isinstance(e, PointsScored) and e.final]
    assert [(e.seats, e.points) for e in farms] == [((0,), 3), ((1,), 3)]
    assert farms[0].feature.anchor != farms[1].feature.anchor and game.scores == [3, 3]


def test_r7_the_road_crosses_the_river_to_the_cloister_and_splits_the_bank_it_comes_from():
    """R7 turned a quarter (river north-south, road west over the river to the cloister on the east
    bank): the west bank is two farms, north and south of the road (the east bank one, round the
    cloister). Blue puts a farmer on the south-west one; Red then one on the north-west one's farm:
    both legal, scored apart."""
    game = _play(RIVER, ("R3", "R7", "R3"), ["place R3 0,1 0", "skip"])
    game.apply(PlaceTile("R7", P(0, 2), 1))
    assert game.feature_at(P(0, 2), 4).anchor != game.feature_at(P(0, 2), 5).anchor
    assert {DeployMeeple(4), DeployMeeple(5)} <= set(game.deploy_options())
    game.apply(DeployMeeple(4))  # Blue: the south-west part
    game.apply(PlaceTile("R3", P(0, 3), 0))
    # Red: R3's east field is the east bank, which the spring joins to the north-west part (HA FN 30)
    assert game.feature_at(P(0, 3), 1).anchor == game.feature_at(P(0, 2), 5).anchor
    assert DeployMeeple(1) in game.deploy_options()
    game.apply(DeployMeeple(1))
    assert game.phase is Phase.GAME_OVER
    scored = [e for e in game.events if isinstance(e, PointsScored) and e.feature.kind is SegmentKind.FIELD]
    assert sorted(e.seats for e in scored) == [(0,), (1,)] and len({e.feature.anchor for e in scored}) == 2


# ------------------------------------------------------------------------------ the start tile


def test_the_start_tile_comes_right_after_the_river_by_default():
    """HA "THE RIVER": the original start tile may be "placed as soon as the river has been completed,
    and is treated like a normal tile": the first tile after the lake, by the next player."""
    assert Rules().river_start == "after"
    for seed in range(20):
        deck = GameSetup(players=2, seed=seed, rules=RIVER).deck()
        assert deck[10] == "R2" and deck[11] == "D" and deck.count("D") == 4
    game = _play(RIVER, ("R3", "R2", "D"), ["place R3 0,1 0", "skip", "place R2 0,2 180", "skip"])
    assert game.drawn == "D" and game.seat == 0 and game.legal_placements()


def test_the_start_tile_shuffled_into_the_river_tiles():
    """HA "THE RIVER": the start tile "can either be mixed into the stack of river tiles"."""
    rules = Rules(river=True, river_start="river")
    positions = set()
    for seed in range(40):
        deck = GameSetup(players=2, seed=seed, rules=rules).deck()
        assert deck[11] == "R2" and "D" in deck[:11] and deck.count("D") == 4
        positions.add(deck.index("D"))
    assert len(positions) > 5  # anywhere among the river tiles


def test_the_start_tile_left_in_the_box():
    """Z14 "The River": "When playing with The River, return the start tile to the box."."""
    rules = Rules(river=True, river_start="omit")
    deck = GameSetup(players=2, seed=3, rules=rules).deck()
    assert deck[10] == "R2" and deck.count("D") == 3 and len(deck) == 82 == rules.pile_size()


def test_the_start_tile_among_the_river_tiles_may_not_block_the_river():
    """The river is always finished (docs/rules.md): the start tile, drawn while the river is open,
    may not go where the river could then not be finished: beside its open end, or where a curve
    still to come would need to go."""
    order = ("R5", "R4", "D", "R3", "R3", "R4", "R6", "R7", "R8", "R9", "R10", "R2")
    game = _play(Rules(river=True, river_start="river"), order,
                 ["place R5 0,1 90", "skip", "place R4 0,2 180", "skip"])
    assert game.drawn == "D" and river_end(game) is not None
    allowed = {p.position for p in game.legal_placements()}
    assert allowed and P(1, 1) not in allowed and P(0, 3) not in allowed and P(-1, 0) in allowed
    with pytest.raises(IllegalMoveError, match="no way to be finished") as info:
        game.apply(PlaceTile("D", P(1, 1), 3))  # it fits there, but touches the river's open end at 1,2
    with pytest.raises(IllegalMoveError) as info:
        game.apply(PlaceTile("D", P(1, 1), 1))  # a turn that does not fit is refused for its sides
    assert info.value.reason == "side-mismatch"
    with pytest.raises(IllegalMoveError, match="no way to be finished") as info:
        game.apply(PlaceTile("D", P(1, 1), 3))
    assert info.value.reason == "river"


# ------------------------------------------------------------------------------ a river always finished


def test_a_river_tile_is_refused_where_the_river_could_not_be_finished():
    """Heading north along the spring's west, a curve turned east would leave no room for a straight
    tile next (it would touch the spring), and the next curve may not turn east again (HA FN 31): so
    that way is refused, though the U-turn rule alone allows it, and the west turn is the only one."""
    order = ("R10", "R7", "R4", "R8", "R9", "R3", "R3", "R4", "R5", "R6", "R2")
    game = _play(Rules(river=True, river_start="omit"), order,
                 ["place R10 0,1 90", "skip", "place R7 -1,1 0", "skip", "place R4 -2,1 180", "skip",
                  "place R8 -2,0 90", "skip"])
    assert game.drawn == "R9"
    assert [p.rotations for p in game.legal_placements()] == [(0,)]
    with pytest.raises(IllegalMoveError, match="could then not be finished") as info:
        game.apply(PlaceTile("R9", P(-2, -1), 3))
    assert info.value.reason == "river"


def _random_river_game(seed: int, rules: Rules) -> Game:
    game = Game(GameSetup(players=2 + seed % 3, seed=seed, rules=rules))
    bot = RandomBot(seed)
    while game.phase is not Phase.GAME_OVER:
        game.apply(bot.choose(game.view()))
    return game


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**64 - 1), st.sampled_from(("after", "river", "omit")), st.booleans())
def test_the_whole_river_is_placed_in_every_random_game(seed, start, abbot):
    """Every river tile and the lake are placed, none set aside (10,000 games: benchmarks/bench_river.py)."""
    game = _random_river_game(seed, Rules(river=True, river_start=start, abbot=abbot))
    placed = [game.tile_at(p) for p in (e.position for e in game.events if type(e).__name__ == "TilePlaced")]
    river = [t.kind.letter for t in placed if t.kind.has_river]
    assert river_end(game) is None and len(river) == 12 and river[-1] == "R2"
    assert not [t for t in game.set_aside if tile_kind(t).has_river or (t == "D" and start == "river")]


# ------------------------------------------------------------------------------ small cities


SMALL = "T16P"  # a design with one city side and a pennant: no printed base tile has one


def _one_sided_pennant() -> str:
    try:
        tile_kind(SMALL)
    except KeyError:
        register(_design(SMALL, "city N pennant", "field E S W borders 0"))
    return SMALL


@pytest.mark.parametrize(("small_city", "points"), [(True, 3), (False, 6)])
def test_a_small_city_with_a_pennant(small_city, points):
    """HA FN 17: under the small-city rule "a city of two segments ... scored only 2 points, or 1 point
    per tile. Pennants in a small city also scored only 1 point each": 2 + 1 = 3; else 2·2 + 2 = 6."""
    letter = _one_sided_pennant()
    rules = Rules(small_city=small_city)
    game = Game(GameSetup(players=2, draw_order=(letter, "E"), rules=rules))
    pv = preview_placement(game, P(0, -1), 2)
    assert pv.turn_points(0)[0] == points  # the preview agrees
    game.apply(PlaceTile(letter, P(0, -1), 2))  # its city south, onto D's city
    info = game.feature_at(P(0, 0), 0)
    assert info.complete and info.pennants == 1 and game.worth(info) == (points, None)
    game.apply(DeployMeeple(0))
    assert game.scores == [points, 0]
    assert game.breakdown[0]["city"] == [points, 0]


@pytest.mark.parametrize(("small_city", "points"), [(True, 2), (False, 4)])
def test_only_a_city_of_two_tiles_is_small(small_city, points):
    game = _play(Rules(small_city=small_city), ("E", "N", "E", "E"), ["place E 0,-1 180", "deploy 0"])
    assert game.scores == [points, 0]  # two tiles, no pennant
    three = _play(Rules(small_city=small_city), ("N", "E", "E"),
                  ["place N 0,-1 180", "deploy 0", "place E 1,-1 270", "skip"])
    assert three.scores == [6, 0]  # three tiles: 2 each under both rules


# ------------------------------------------------------------------------------ first-edition farms


def _footnote_28(farms: str, blue_second_farmer: bool = True) -> Game:
    """HA FN 28's example: one completed city (D's, then N and E: three tiles) bordered by three
    farms: the strip north of D's road, N's field and E's field. Blue (seat 0) has a farmer on N's
    field and one on the strip; Yellow (seat 1) one on E's field."""
    return _play(Rules(farms=farms), ("N", "E", "U"), [
        "place N 0,-1 180", "deploy 1",  # Blue: the city goes on east; a farmer on N's field
        "place E 1,-1 270", "deploy 1",  # Yellow closes the city; a farmer on E's field
        "place U -1,0 90", "deploy 2" if blue_second_farmer else "skip",  # Blue: a farmer on D's strip
    ])


def test_first_edition_farms_the_rulebook_example():
    """HA FN 28: "According to the old rules, blue would be the only one to score points, since two of
    his or her farmers are supplying the cities, even though they are on different farms. Yellow has
    only one farmer adjacent to the city and goes home without anything." And: "The player with the
    majority of adjacent farmers supplying a city would earn four points for it."."""
    game = _footnote_28("city")
    assert game.phase is Phase.GAME_OVER
    assert game.scores == [4, 0]
    (scored,) = [e for e in game.events if isinstance(e, PointsScored) and e.final]
    assert scored.farmers and scored.seats == (0,) and scored.points == 4 and scored.category == "field"
    assert scored.feature.kind is SegmentKind.CITY and scored.describe() == "+4: farmers supplying a city, 3 tiles"
    assert game.breakdown[0]["field"] == [0, 4] and game.breakdown[0]["city"] == [0, 0]
    assert game.projected_breakdown() == game.breakdown


def test_the_same_position_under_the_current_rules():
    """HA FN 28: "According to the new rules, both farmers earn points; and following the most recent
    rule changes, blue even earns points twice": 3 for each of Blue's farms, 3 for Yellow's."""
    game = _footnote_28("farm")
    assert game.scores == [6, 3]


def test_first_edition_farms_ties_all_score():
    """One farmer each around the city: a tie, and "in the case of a draw, all the players with the
    most farmers" score (HiG "Scoring farms", read for the first edition's cities as for its farms)."""
    game = _footnote_28("city", blue_second_farmer=False)
    assert game.scores == [4, 4]


# ------------------------------------------------------------------------------ no farmers


def test_without_farmers_no_meeple_goes_on_a_field_and_no_farm_scores():
    rules = Rules(farms="off")
    game = Game(GameSetup(players=2, draw_order=("E", "U"), rules=rules))
    assert preview_placement(game, P(0, 1), 2).deploy_options() == (0,)
    game.apply(PlaceTile("E", P(0, 1), 2))  # south of D, its city south: its field is D's south farm
    assert [str(m) for m in game.deploy_options()] == ["deploy 0"]  # the city only
    with pytest.raises(IllegalMoveError, match="without farmers") as info:
        game.apply(DeployMeeple(1))
    assert info.value.reason == "bad-segment"
    game.apply(SkipMeeple())
    game.apply(PlaceTile("U", P(1, 0), 1))
    assert all(game.tile_at(P(1, 0)).variant.segments[m.segment].kind is not SegmentKind.FIELD
               for m in game.deploy_options())
    game.apply(SkipMeeple())
    assert game.phase is Phase.GAME_OVER and not game.projected_final()[1]
    # the same moves with farmers: the farmer is legal and its farm would score
    with_farmers = _play(Rules(), ("E", "U"), ["place E 0,1 180", "deploy 1"])
    assert with_farmers.supply[0] == MEEPLES_PER_PLAYER - 1


# ------------------------------------------------------------------------------ properties per variant


VARIANTS = [
    Rules(small_city=True),
    Rules(farms="city"),
    Rules(farms="off"),
    Rules(river=True, abbot=True, small_city=True, farms="city"),
    Rules(river=True, river_start="river", farms="off"),
]


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**64 - 1), st.sampled_from(VARIANTS))
def test_every_variant_conserves_figures_scores_only_up_and_replays_to_the_same_digests(seed, rules):
    game = Game(GameSetup(players=2 + seed % 5, seed=seed, rules=rules))
    bot = RandomBot(seed)
    rng = random.Random(seed)
    last = list(game.scores)
    seen = 0
    while game.phase is not Phase.GAME_OVER:
        moves = game.legal_moves()
        game.apply(moves[0] if rng.random() < 0.05 else bot.choose(game.view()))
        on_board = [0] * game.players
        for seat, figure, _position, _segment in game.figures():
            on_board[seat] += figure is Figure.MEEPLE
        assert all(game.supply[s] + on_board[s] == MEEPLES_PER_PLAYER for s in range(game.players))
        assert all(a >= b for a, b in zip(game.scores, last, strict=True))
        last = list(game.scores)
        for event in game.events[seen:]:
            if isinstance(event, MeepleDeployed) and rules.farms == "off":
                assert event.kind is not SegmentKind.FIELD
            if isinstance(event, PointsScored) and event.feature.kind is SegmentKind.FIELD:
                assert rules.farms == "farm"
            if isinstance(event, PointsScored) and event.farmers:
                assert rules.farms == "city" and event.points == 4 and event.feature.complete
            if isinstance(event, PointsScored) and event.feature.kind is SegmentKind.CITY and not event.final \
                    and len(event.feature.tiles) == 2:
                assert event.points == (1 if rules.small_city else 2) * (2 + event.feature.pennants)
        seen = len(game.events)
    again = replay(game.setup, game.moves)
    assert again.digests == game.digests and again.scores == game.scores
    assert sum(sum(b for pair in seat.values() for b in pair) for seat in game.breakdown) == sum(game.scores)
