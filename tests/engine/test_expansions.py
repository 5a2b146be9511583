"""The River and The Abbot (issue 6): rulebook examples as positions, and properties over random games.

Sources: ``hig-annotated-rules-v4-with-faq-and-river.txt`` (HA) "THE RIVER" and FN 30–31;
``zman-2014-rules-with-farmers-river-abbot.txt`` (Z14) "The River", "The Abbot".
Conventions: x east, y south; the spring R1 at (0, 0) has its river to the south.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from carcnet.bots import make_bot
from carcnet.engine.expansions.abbot import abbot_at
from carcnet.engine import (
    BASE_DESIGNS,
    MEEPLES_PER_PLAYER,
    DeployMeeple,
    Figure,
    Game,
    GameSetup,
    IllegalMoveError,
    MeepleReturned,
    Phase,
    PlaceTile,
    PointsScored,
    Position,
    ReturnAbbot,
    Rules,
    SegmentKind,
    SkipMeeple,
    Terrain,
    base_tile_counts,
    parse_move,
    replay,
    tile_kind,
)
from carcnet.engine.tiles import GARDEN_VARIANTS, RIVER_DESIGNS
from carcnet.engine.expansions.river import river_end

RIVER = Rules(river=True)
ABBOT = Rules(abbot=True)
BOTH = Rules(river=True, abbot=True)
P = Position


def _play(rules: Rules, order: tuple[str, ...], script: list[str], players: int = 2) -> Game:
    return replay(GameSetup(players=players, draw_order=order, rules=rules), [parse_move(m) for m in script])


# ------------------------------------------------------------------------------------ tile data


def test_river_has_twelve_tiles_and_gardens_replace_one_copy_each():
    start, groups = GameSetup(players=2, seed=1, rules=RIVER).tiles()
    # the default: the start tile D is placed as soon as the river is complete (HA "THE RIVER")
    assert start == "R1" and [sum(g.values()) for g in groups] == [10, 1, 1, 71] and groups[2] == {"D": 1}
    _, among = GameSetup(players=2, seed=1, rules=Rules(river=True, river_start="river")).tiles()
    assert [sum(g.values()) for g in among] == [11, 1, 71] and among[0]["D"] == 1 and among[2]["D"] == 3
    _, omitted = GameSetup(players=2, seed=1, rules=Rules(river=True, river_start="omit")).tiles()
    assert [sum(g.values()) for g in omitted] == [10, 1, 71] and omitted[2]["D"] == 3
    _, gardens = GameSetup(players=2, seed=1, rules=BOTH).tiles()
    land = gardens[3]
    for letter in "EHIMNRUV":
        assert land[letter] == base_tile_counts()[letter] - 1 and land[f"{letter}G"] == 1
    assert gardens[0]["R4"] == 1 and gardens[0]["R4G"] == 1
    assert len(RIVER_DESIGNS) == 10 and len(GARDEN_VARIANTS) == 9


def test_seeded_river_deck_draws_the_river_first_and_the_lake_last():
    deck = GameSetup(players=2, seed=99, rules=BOTH).deck()
    assert all(t.startswith("R") and t[1:2].isdigit() for t in deck[:11])
    assert deck[10] == "R2" and "R1" not in deck
    assert not any(t[:1] == "R" and t[1:2].isdigit() for t in deck[11:])
    assert len(deck) == 11 + 72


def test_garden_variants_are_their_design_plus_a_garden():
    for kind in GARDEN_VARIANTS:
        plain = tile_kind(kind.letter[:-1])
        assert kind.segments[:-1] == plain.segments and kind.segments[-1].kind is SegmentKind.GARDEN


# ------------------------------------------------------------------------------------ The River


def test_spring_starts_the_river_and_a_river_tile_must_continue_its_open_end():
    game = Game(GameSetup(players=2, draw_order=("R3", "R3"), rules=RIVER))
    assert game.tile_at(P(0, 0)).kind.letter == "R1"
    assert [p.position for p in game.legal_placements()] == [P(0, 1)]
    with pytest.raises(IllegalMoveError, match="must continue the river at 0,1") as info:
        game.apply(PlaceTile("R3", P(1, 0), 0))  # beside the spring: fields match, but no river
    assert info.value.reason == "river"


def test_no_second_turn_in_a_row_in_the_same_direction():
    """Z14: "the river cannot turn twice in the same direction"; HA FN 31: only immediate U-turns."""
    game = _play(RIVER, ("R4", "R4", "R3", "R4"), ["place R4 0,1 90", "skip"])  # heading south, turns right
    assert river_end(game) == (P(-1, 1).x * 1024 + 1, 1, 1)  # open end west of it, entered from the east
    placements = game.legal_placements()
    assert placements == [type(placements[0])(P(-1, 1), (3,))]  # only the left turn
    before = game.digest
    with pytest.raises(IllegalMoveError, match="may not turn twice in a row in the same direction"):
        game.apply(PlaceTile("R4", P(-1, 1), 2))  # a second right turn
    assert game.digest == before
    game.apply(PlaceTile("R4", P(-1, 1), 3))  # the left turn is fine
    game.apply(SkipMeeple())
    game.apply(PlaceTile("R3", P(-1, 2), 0))  # straight on, south
    game.apply(SkipMeeple())
    # after a straight tile a turn may be in the same direction again
    assert [p.rotations for p in game.legal_placements()] == [(1, 2)]  # right (W) or left (E)


def test_river_from_spring_to_lake():
    """HA: "When the river is finished, the lake tile is placed"; then the land tiles follow."""
    order = ("R3", "R5", "R8", "R2", "E")
    game = _play(RIVER, order, [])
    for _ in range(4):
        assert game.drawn is not None and tile_kind(game.drawn).has_river
        placement = game.legal_placements()[0]
        game.apply(PlaceTile(game.drawn, placement.position, placement.rotations[0]))
        game.apply(SkipMeeple())
    assert river_end(game) is None and game.drawn == "E"
    rivers = [p for p in game.board.positions() if game.tile_at(p).kind.has_river]
    assert rivers == [P(0, 0), P(0, 1), P(0, 2), P(0, 3), P(0, 4)]
    lake = game.tile_at(P(0, 4))
    assert lake.kind.letter == "R2" and lake.variant.terrain[0] == Terrain.RIVER  # its river meets R8's
    river = game.feature_at(P(0, 0), 0)
    assert river.kind is SegmentKind.RIVER and river.complete and len(river.tiles) == 5


def test_no_meeple_on_the_river():
    game = _play(RIVER, ("R3", "B"), ["place R3 0,1 0"])
    assert [m.segment for m in game.deploy_options()] == [1, 2]  # the two banks, not the river (0)
    with pytest.raises(IllegalMoveError, match="cannot go on a river") as info:
        game.apply(DeployMeeple(0))
    assert info.value.reason == "bad-segment"


def test_the_river_splits_farms_and_the_farm_goes_round_the_spring():
    """A bridge (R8) below the spring: the road and the river cut its fields in four; north of the
    road both banks are one farm around the spring (HA FN 30), south of it they are two farms."""
    game = _play(RIVER, ("R8", "R3", "B"), ["place R8 0,1 90", "deploy 2"])  # farmer on the south-east
    north_east, north_west = game.feature_at(P(0, 1), 5), game.feature_at(P(0, 1), 4)
    south_east, south_west = game.feature_at(P(0, 1), 2), game.feature_at(P(0, 1), 3)
    assert north_east.anchor == north_west.anchor == game.feature_at(P(0, 0), 1).anchor
    assert south_east.anchor != south_west.anchor
    assert [s for s, _ in south_east.meeples] == [0] and south_west.meeples == ()
    game.apply(PlaceTile("R3", P(0, 2), 0))
    # R3's east bank continues the farmer's farm, its west bank the empty one across the river
    assert game.feature_at(P(0, 2), 1).anchor == south_east.anchor
    assert game.feature_at(P(0, 2), 2).anchor == south_west.anchor
    assert [m.segment for m in game.deploy_options()] == [2]


# ------------------------------------------------------------------------------------ The Abbot


def test_abbot_recalled_for_six_points():
    """Z14 "The Abbot": the player places a tile, deploys nothing, takes back the abbot placed
    earlier and scores 6: its cloister and five neighbours."""
    game = _play(
        ABBOT,
        ("B", "B", "B", "B", "B", "B"),
        [
            "place B 0,1 0", "deploy 0 abbot",  # seat 0: abbot in the cloister below the start tile
            "place B -1,1 0", "skip",
            "place B 1,1 0", "skip",
            "place B 0,2 0", "skip",
            "place B -1,2 0",  # seat 0: the fifth neighbour
        ],
    )
    assert game.supply_of(Figure.ABBOT) == [0, 1] and abbot_at(game, 0) == P(0, 1)
    assert ReturnAbbot(P(0, 1)) in game.legal_moves()
    events = game.apply(ReturnAbbot(P(0, 1)))
    scored = [e for e in events if isinstance(e, PointsScored)]
    assert [(e.seats, e.points, e.final, e.feature.kind) for e in scored] == [((0,), 6, False, SegmentKind.CLOISTER)]
    assert [e for e in events if isinstance(e, MeepleReturned)][0].figure is Figure.ABBOT
    assert game.scores == [6, 0] and game.supply_of(Figure.ABBOT) == [1, 1] and abbot_at(game, 0) is None
    assert game.breakdown[0]["cloister"] == [6, 0]


def test_garden_scored_like_a_cloister_and_only_for_the_abbot():
    order = ("UG", "E", "B", "B", "U", "B", "B", "B", "B")
    game = _play(ABBOT, order, ["place UG 1,0 90"])
    options = game.deploy_options()
    assert DeployMeeple(3, Figure.ABBOT) in options and DeployMeeple(3) not in options
    with pytest.raises(IllegalMoveError, match="cannot go on a garden"):
        game.apply(DeployMeeple(3))
    game.apply(DeployMeeple(3, Figure.ABBOT))
    script = [
        "place E 0,-1 180", "place B 1,-1 0", "place B 2,-1 0", "place U 2,0 90",
        "place B 0,1 0", "place B 1,1 0",
    ]
    for text in script:
        game.apply(parse_move(text))
        game.apply(SkipMeeple())
    events = game.apply(parse_move("place B 2,1 0")) + game.apply(SkipMeeple())  # the eighth neighbour
    scored = [e for e in events if isinstance(e, PointsScored)]
    assert [(e.seats, e.points, e.feature.kind, e.feature.complete) for e in scored] == [
        ((0,), 9, SegmentKind.GARDEN, True)
    ]
    assert game.supply_of(Figure.ABBOT) == [1, 1] and game.breakdown[0]["garden"] == [9, 0]


def test_abbot_in_the_final_scoring_and_a_meeple_may_share_nothing_with_it():
    game = _play(ABBOT, ("B", "B"), ["place B 0,1 0", "deploy 0 abbot", "place B 1,1 0", "skip"])
    assert game.phase is Phase.GAME_OVER
    finals = [e for e in game.events if isinstance(e, PointsScored) and e.final]
    assert [(e.seats, e.points) for e in finals] == [((0,), 3)]  # cloister + 2 neighbours
    assert game.supply_of(Figure.ABBOT) == [1, 1] and game.supply == [7, 7]


def test_abbot_refused_without_the_expansion_and_off_cloisters():
    game = _play(Rules(), ("B",), ["place B 0,1 0"])
    with pytest.raises(IllegalMoveError) as info:
        game.apply(DeployMeeple(0, Figure.ABBOT))
    assert info.value.reason == "wrong-figure"
    with pytest.raises(IllegalMoveError) as info:
        game.apply(ReturnAbbot(P(0, 1)))
    assert info.value.reason == "no-abbot"
    game = _play(ABBOT, ("E",), ["place E 0,1 180"])
    with pytest.raises(IllegalMoveError, match="cloister or garden only"):
        game.apply(DeployMeeple(0, Figure.ABBOT))


def test_expansion_tiles_need_their_option():
    from carcnet.engine import SetupError

    with pytest.raises(SetupError, match="needs river"):
        Game(GameSetup(players=2, draw_order=("R3",)))
    with pytest.raises(SetupError, match="needs abbot"):
        Game(GameSetup(players=2, draw_order=("EG",)))


# ------------------------------------------------------------------------------------ properties


def _river_path_ok(game: Game) -> None:
    """The river tiles form one path from the spring, in placement order, each joined to the one
    before along a river side; the lake (if placed) is the last river tile."""
    rivers = [game.tile_at(p) for p in game.board.positions() if game.tile_at(p).kind.has_river]
    assert rivers[0].kind.letter == "R1" and rivers[0].position == P(0, 0)
    for prev, cur in zip(rivers, rivers[1:]):
        dx, dy = cur.position.x - prev.position.x, cur.position.y - prev.position.y
        side = {(0, -1): 0, (1, 0): 1, (0, 1): 2, (-1, 0): 3}[(dx, dy)]
        assert prev.variant.terrain[side] == Terrain.RIVER and cur.variant.terrain[(side + 2) % 4] == Terrain.RIVER
    if any(t.kind.letter == "R2" for t in rivers):
        assert rivers[-1].kind.letter == "R2" and river_end(game) is None


@given(
    seed=st.integers(0, 2**64 - 1),
    players=st.integers(2, 6),
    rules=st.sampled_from([RIVER, ABBOT, BOTH, Rules(river=True, abbot=True, river_start="omit")]),
    bots=st.sampled_from(["random", "greedy"]),
)
def test_random_games_with_expansions_keep_the_invariants(seed, players, rules, bots):
    game = Game(GameSetup(players=players, seed=seed, rules=rules))
    seats = [make_bot(bots if s % 2 == 0 else "random", seed + s) for s in range(players)]
    land_started = False
    while game.phase is not Phase.GAME_OVER:
        move = seats[game.seat].choose(game.view())
        if isinstance(move, PlaceTile) and rules.river:
            is_river = tile_kind(move.tile).has_river
            assert not (is_river and land_started), "a river tile after a land tile"
            land_started |= not is_river
        game.apply(move)
        on_board = Counter((s, f) for s, f, _, _ in game.figures())
        for s in range(players):
            assert game.supply[s] + on_board[(s, Figure.MEEPLE)] == MEEPLES_PER_PLAYER
            assert game.supply_of(Figure.ABBOT)[s] + on_board[(s, Figure.ABBOT)] == (1 if rules.abbot else 0)
    if rules.river:
        _river_path_ok(game)
        placed = Counter(t.kind.letter for t in game.board.tiles.values())
        assert placed["R2"] + game.set_aside.count("R2") == 1
    assert replay(game.setup, game.moves).digests == game.digests


def test_base_designs_unchanged_by_the_expansions():
    assert [k.letter for k in BASE_DESIGNS] == [chr(c) for c in range(ord("A"), ord("X") + 1)]
