"""Placement previews (``carcnet.engine.preview``) against what applying the move actually does.

The oracle is the engine itself: for every legal placement of the drawn tile, and every deploy option
after it, the move is applied to an independent copy of the game (``replay(game.setup, game.moves)``)
and the preview must agree with the result: the merged features of the placed tile (kind, anchor,
open count, completeness, tiles, pennants, figures, bordering cities, which segments share a feature),
the deploy options, the completions in scoring order, the points and returned meeples per seat.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carcnet.bots import RandomBot
from carcnet.engine import (
    DeployMeeple,
    Event,
    FeatureCompleted,
    Figure,
    Game,
    GameEnded,
    GameSetup,
    IllegalMoveError,
    MeepleReturned,
    Phase,
    PlaceTile,
    PointsScored,
    Position,
    Rules,
    SegmentKind,
    SkipMeeple,
    TileDrawn,
    TileSetAside,
    replay,
)
from carcnet.engine.geometry import position_of
from carcnet.engine.notation import play_script
from carcnet.engine.preview import FeatureChange, HeldJoin, feature_changes, preview_placement
from carcnet.engine.tiles import GOODS, ROTATIONS_OF_BITS, pack_goods


def _turn_events(events: list[Event]) -> list[Event]:
    """The events of the turn's own scoring: up to the next draw or the final scoring."""
    out: list[Event] = []
    for ev in events:
        if isinstance(ev, TileDrawn | TileSetAside | GameEnded) or (
            isinstance(ev, PointsScored) and ev.final
        ):
            break
        out.append(ev)
    return out


#: What each figure counts for a majority: the large meeple two, the builder and the pig none.
_WEIGHT = {Figure.MEEPLE: 1, Figure.ABBOT: 1, Figure.LARGE: 2, Figure.BUILDER: 0, Figure.PIG: 0}


def _per_seat(pairs, players: int) -> tuple[int, ...]:
    out = [0] * players
    for seat, amount in pairs:
        out[seat] += amount
    return tuple(out)


def check_turn(game: Game) -> Counter[str]:
    """Checks the preview of every legal placement and follow-up of the drawn tile against the engine.

    Returns counts of the special cases met, so tests can make sure they were exercised.
    """
    assert game.phase is Phase.PLACE_TILE
    seen: Counter[str] = Counter()
    letter = game.drawn
    assert letter is not None
    players = game.players
    probe = replay(game.setup, game.moves)  # an illegal move leaves it unchanged
    for placement in game.legal_placements():
        pos = placement.position
        for rotation in set(range(4)) - set(placement.rotations):  # a turn equal to a listed one, or illegal
            move = PlaceTile(letter, pos, rotation)
            try:
                preview_placement(game, pos, rotation)
            except IllegalMoveError as previewed:
                with pytest.raises(IllegalMoveError) as applied:
                    probe.apply(move)
                assert (previewed.reason, str(previewed)) == (applied.value.reason, str(applied.value))
            else:
                replay(game.setup, game.moves).apply(move)  # legal too
        for rotation in placement.rotations:
            move = PlaceTile(letter, pos, rotation)
            pv = preview_placement(game, pos, rotation)
            assert (pv.tile, pv.position, pv.rotation, pv.seat) == (letter, pos, rotation, game.seat)
            copy = replay(game.setup, game.moves)
            copy.apply(move)
            g = copy.graph
            meeples = [d.segment for d in copy.deploy_options() if d.figure is Figure.MEEPLE]
            assert list(pv.deploy_options()) == meeples, move  # the other figures: not previewed yet
            roots = [g.find(copy.tile_at(pos).base + sp.index) for sp in pv.segments]  # type: ignore[union-attr]
            for sp, root in zip(pv.segments, roots, strict=True):
                where = f"{move}, segment {sp.index}: {sp}"
                info = copy.feature_at(pos, sp.index)
                assert sp.kind is info.kind, where
                assert sp.anchor == info.anchor, where
                assert sp.open == g.open[root], where
                assert sp.complete == info.complete, where
                if sp.kind is SegmentKind.FIELD:
                    assert sp.tiles is None, where
                    assert sp.cities == len(info.cities), where
                    bordering = {g.find(c) for c in g.borders[root] or ()}
                    assert sp.open_cities == sum(1 for c in bordering if g.open[c] > 0), where
                else:
                    assert sp.tiles == len(info.tiles), where
                    assert (sp.cities, sp.open_cities) == (0, 0), where
                assert sp.pennants == info.pennants, where
                assert sp.figures == _per_seat(((s, _WEIGHT[f]) for s, f in info.meeples), players), where
                # the same feature exactly when the same root
                for other, other_root in zip(pv.segments, roots, strict=True):
                    assert (other.feature == sp.feature) == (other_root == root), where
                    if other.index != sp.index and other_root == root and sp.joins:
                        seen["two segments join one feature"] += 1
                # the joined features: existing ones (before), all merged into this one (after)
                for j in sp.joins:
                    before = game.feature_at(*j.anchor)
                    assert g.find(copy.tile_at(j.anchor[0]).base + j.anchor[1]) == root, where  # type: ignore[union-attr]
                    assert (j.anchor, j.kind, j.pennants) == (before.anchor, before.kind, before.pennants), (
                        where
                    )
                    if j.tiles is not None:
                        assert j.tiles == len(before.tiles), where
                    assert j.figures == _per_seat(((s, _WEIGHT[f]) for s, f in before.meeples), players), where
                    if j.kind is SegmentKind.FIELD:
                        assert j.cities == len(before.cities), where
                anchors = [j.anchor for j in sp.joins]
                assert len(set(anchors)) == len(anchors), where
                if len(sp.joins) > 1:
                    seen["joins several features"] += 1
                if sp.kind in (SegmentKind.ROAD, SegmentKind.CITY):
                    tile = copy.tile_at(pos)
                    assert tile is not None
                    touching = [
                        s for s in tile.variant.segments[sp.index].sides if game.tile_at(pos.neighbour(s))
                    ]
                    if len(touching) > 1 and len(sp.joins) == 1:
                        seen["one segment meets one feature twice"] += 1
                if (
                    sp.kind is SegmentKind.FIELD
                    and sp.cities
                    and any(c.kind is SegmentKind.CITY and c.segment is not None for c in pv.completions)
                ):
                    seen["farm borders a city completed now"] += 1
            for area in pv.areas:
                info = copy.feature_at(*area.anchor)
                assert (area.kind, area.tiles, area.complete) == (info.kind, len(info.tiles), info.complete)
                assert area.figures == _per_seat(((s, _WEIGHT[f]) for s, f in info.meeples), players)
            # every follow-up: skip on this copy, each deploy on a fresh one
            for deploy in [None, *pv.deploy_options()]:
                if deploy is None:
                    after = copy
                    events = after.apply(SkipMeeple())
                else:
                    after = replay(game.setup, game.moves)
                    after.apply(move)
                    events = after.apply(DeployMeeple(deploy))
                while after.phase is Phase.STEP and not any(isinstance(e, TileDrawn) for e in events):
                    events += after.apply(after.legal_moves()[0])  # an expansion's question before the scoring
                turn = _turn_events(events)
                where = f"{move} then {deploy}"
                completed = [ev.feature.anchor for ev in turn if isinstance(ev, FeatureCompleted)]
                assert completed == [c.anchor for c in pv.completions], where
                scored = [(s, ev.points) for ev in turn if isinstance(ev, PointsScored) for s in ev.seats]
                assert pv.turn_points(deploy) == _per_seat(scored, players), where
                returned = [(ev.seat, 1) for ev in turn if isinstance(ev, MeepleReturned)]
                assert pv.turn_returns(deploy) == _per_seat(returned, players), where
                if any(isinstance(ev, PointsScored) and len(ev.seats) > 1 for ev in turn):
                    seen["shared majority"] += 1
                if any(c.segment is None for c in pv.completions):
                    seen["completes a neighbouring cloister"] += 1
                if deploy is not None and any(
                    c.segment == pv.segments[deploy].feature for c in pv.completions
                ):
                    seen["deploy on a feature completed now"] += 1
            seen["placements"] += 1
    return seen


def play_to(seed: int, players: int, turns: set[int], rules: Rules | None = None) -> Counter[str]:
    """Plays a seeded random game, checking every placement at the given turn numbers (0-based)."""
    game = Game(GameSetup(players=players, seed=seed, rules=rules or Rules()))
    bot = RandomBot(seed)
    seen: Counter[str] = Counter()
    turn = 0
    while game.phase is not Phase.GAME_OVER and turn <= max(turns):
        if game.phase is Phase.PLACE_TILE:
            if turn in turns:
                seen += check_turn(game)
            turn += 1
        game.apply(bot.choose(game.view()))
    return seen


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    players=st.integers(2, 6),
    turns=st.sets(st.integers(0, 70), min_size=1, max_size=4),
)
def test_preview_agrees_with_the_engine_for_every_placement_and_deploy(seed, players, turns):
    play_to(seed, players, turns)


def test_preview_agrees_with_the_engine_at_every_third_turn_of_a_whole_game():
    seen = play_to(2024, 3, set(range(0, 71, 3)))
    assert seen["placements"] > 300, seen


def test_preview_agrees_with_the_engine_with_inns_and_cathedrals():
    """Roads with an inn and cities with a cathedral completed by a placement score as the engine
    scores them (issue 33)."""
    seen = play_to(77, 2, set(range(0, 88, 2)), Rules(inns=True))
    assert seen["placements"] > 300, seen


#: A seeded random 2-player game and a turn (0-based) where each special case of the merge happens.
SPECIAL_CASES = [
    ("two segments join one feature", 3, 40),  # e.g. an H tile whose two cities meet one city
    ("one segment meets one feature twice", 0, 57),  # closing a loop: one feature on two sides
    ("joins several features", 3, 2),
    ("farm borders a city completed now", 3, 0),
    ("deploy on a feature completed now", 3, 0),
    ("shared majority", 2, 21),
    ("completes a neighbouring cloister", 3, 66),
]


@pytest.mark.parametrize(("case", "seed", "turn"), SPECIAL_CASES)
def test_special_cases_are_exercised(case, seed, turn):
    seen = play_to(seed, 2, {turn})
    assert seen[case], f"{case!r} not met in seed {seed}, turn {turn}: {seen}"


def test_preview_of_closing_the_start_city():
    game = Game(GameSetup(players=2, draw_order=("E", "V")))
    pv = preview_placement(game, Position(0, -1), 2)
    city, field = pv.segments
    assert (city.kind, city.complete, city.open, city.tiles, city.figures) == (
        SegmentKind.CITY,
        True,
        0,
        2,
        (0, 0),
    )
    assert [j.anchor for j in city.joins] == [(Position(0, 0), 0)]
    assert (field.kind, field.cities, field.open_cities, field.joins) == (SegmentKind.FIELD, 1, 0, ())
    assert [c.anchor for c in pv.completions] == [(Position(0, 0), 0)]
    assert pv.turn_points(0) == (4, 0) and pv.turn_returns(0) == (1, 0)
    assert pv.turn_points(1) == pv.turn_points() == (0, 0)


def test_preview_of_joining_two_held_roads_into_a_loop_scores_both_seats():
    game = play_script(
        """
        place V 1,0 0; deploy 0      # seat 0: thief on the start road, which turns south at 1,0
        place W -1,0 0; deploy 1     # seat 1: the start road now ends at a crossing; thief on its south arm
        place V 1,1 90               # seat 0's road turns west
        place U 0,1 90               # ... and runs on west, below the start tile
        """,
        then=("V", "U"),
    )
    pv = preview_placement(game, Position(-1, 1), 2)  # road north and east: both roads meet
    road = pv.segments[0]
    assert len(road.joins) == 2 and [j.figures for j in road.joins] == [(1, 0), (0, 1)]
    assert (road.complete, road.open, road.tiles, road.figures) == (True, 0, 6, (1, 1))
    assert not road.deployable and pv.deploy_options() == (1, 2)
    assert [(c.kind, c.points) for c in pv.completions] == [(SegmentKind.ROAD, 6)]
    assert pv.turn_points() == pv.turn_points(1) == (6, 6)  # a tie: both score in full
    assert pv.turn_returns() == (1, 1)
    game.apply(PlaceTile("V", Position(-1, 1), 2))
    events = game.apply(SkipMeeple())
    assert [(ev.seats, ev.points) for ev in events if isinstance(ev, PointsScored)] == [((0, 1), 6)]


def test_preview_raises_like_apply():
    game = Game(GameSetup(players=2, draw_order=("E", "V")))
    cases = [
        (Position(0, 0), 0, "occupied"),
        (Position(5, 5), 0, "not-adjacent"),
        (Position(0, -1), 0, "side-mismatch"),  # E's field south against the start tile's city
        (Position(0, -1), 4, "bad-rotation"),
        (Position(0, -1), True, "bad-rotation"),
    ]
    for position, rotation, reason in cases:
        with pytest.raises(IllegalMoveError) as previewed:
            preview_placement(game, position, rotation)
        with pytest.raises(IllegalMoveError) as applied:
            replay(game.setup, game.moves).apply(PlaceTile("E", position, rotation))
        assert previewed.value.reason == applied.value.reason == reason
        assert str(previewed.value) == str(applied.value)
    game.apply(PlaceTile("E", Position(0, -1), 2))
    with pytest.raises(IllegalMoveError) as exc:
        preview_placement(game, Position(1, 0), 0)
    assert exc.value.reason == "wrong-phase"
    game.apply(SkipMeeple())
    game.apply(PlaceTile("V", Position(1, 0), 0))
    game.apply(SkipMeeple())
    assert game.phase is Phase.GAME_OVER
    with pytest.raises(IllegalMoveError) as exc:
        preview_placement(game, Position(2, 0), 0)
    assert exc.value.reason == "game-over"


def test_illegal_deploys_in_a_preview_raise_like_apply():
    game = Game(GameSetup(players=2, draw_order=("U", "V")))
    pv = preview_placement(game, Position(1, 0), 1)  # U east-west: the road continues the start road
    for segment, reason in [(9, "bad-segment"), (-1, "bad-segment")]:
        with pytest.raises(IllegalMoveError) as exc:
            pv.turn_points(segment)
        assert exc.value.reason == reason
    game.apply(PlaceTile("U", Position(1, 0), 1))
    game.apply(DeployMeeple(0))  # seat 0 on the road
    pv = preview_placement(game, Position(-1, 0), 3)
    road = pv.segments[0]
    assert road.figures == (1, 0) and not road.deployable and 0 not in pv.deploy_options()
    with pytest.raises(IllegalMoveError) as exc:
        pv.turn_returns(0)
    assert exc.value.reason == "feature-occupied"


def test_preview_is_pure():
    game = Game(GameSetup(players=3, seed=5))
    bot = RandomBot(5)
    for _ in range(50):
        game.apply(bot.choose(game.view()))
    if game.phase is not Phase.PLACE_TILE:
        game.apply(bot.choose(game.view()))
    before = (game.digest, list(game.scores), list(game.supply), game.features(), game.legal_placements())
    for placement in game.legal_placements():
        for rotation in range(4):
            try:
                preview_placement(game, placement.position, rotation)
            except IllegalMoveError:
                pass
    assert (
        game.digest,
        list(game.scores),
        list(game.supply),
        game.features(),
        game.legal_placements(),
    ) == before


def _lean_from_full(game: Game, key: int, rotation: int) -> tuple[tuple, tuple]:
    """What :func:`feature_changes` must say, read off the full preview."""
    from carcnet.engine.tiles import MARK_CATHEDRAL, MARK_INN

    pv = preview_placement(game, position_of(key), rotation)
    g = game.graph
    anchors = {}  # a joined feature's anchor -> its root, as the lean form names it
    for sp in pv.segments:
        for j in sp.joins:
            anchors[j.anchor] = g.find(game._node(*j.anchor))
    # Inns & Cathedrals: the inns and cathedrals of each feature, read off the engine (after the
    # placement on a copy, before it on the game), and where the large meeple may go
    after = game.copy()
    after.apply(PlaceTile(game.drawn, position_of(key), rotation))

    def mark(info) -> int:  # type: ignore[no-untyped-def]
        return MARK_INN * info.inn | MARK_CATHEDRAL * info.cathedral

    def goods(info) -> tuple[str, ...]:  # type: ignore[no-untyped-def]  # the tokens, as pack_goods takes them
        return tuple(kind for n, kind in zip(info.goods, GOODS, strict=True) for _ in range(n))

    rules = game.setup.rules
    barred = {SegmentKind.RIVER, SegmentKind.GARDEN} | ({SegmentKind.FIELD} if rules.farms == "off" else set())
    has_large = rules.inns and game.supply_of(Figure.LARGE)[game.seat] > 0

    def large(sp) -> bool:  # type: ignore[no-untyped-def]
        return has_large and sp.kind not in barred and not any(sp.figures)

    changes = tuple(
        FeatureChange(
            sp.index, sp.kind, sp.open, sp.complete, sp.tiles, sp.pennants, sp.figures, sp.deployable,
            sp.cities, sp.open_cities,
            tuple(HeldJoin(anchors[j.anchor], j.kind, j.open, j.tiles, j.pennants, j.figures, j.cities, j.open_cities,
                           mark(game.feature_at(*j.anchor)) if rules.inns else 0)
                  for j in sp.joins if any(j.figures)),
            mark(after.feature_at(position_of(key), sp.index)) if rules.inns else 0,
            large(sp),
            pack_goods(goods(after.feature_at(position_of(key), sp.index))) if rules.traders else 0,
        )
        for sp in pv.segments
        if sp.feature == sp.index and (any(sp.figures) or sp.deployable or large(sp))
    )
    return changes, tuple(a for a in pv.areas if any(a.figures))


@pytest.mark.parametrize("rules", [Rules(), Rules(river=True, abbot=True), Rules(farms="off", small_city=True),
                                   Rules(river=True, abbot=True, inns=True), Rules(traders=True, inns=True)],
                         ids=["base", "river-abbot", "no-farmers", "river-abbot-inns", "inns-traders"])
def test_feature_changes_are_the_full_preview_in_lean_form(rules):
    """At every legal placement of whole greedy and random games (figures on the board, farms, the
    abbot, the river), the lean form a bot's valuation reads equals the full preview's numbers."""
    from carcnet.bots import GreedyBot, RandomBot

    checked = 0
    for seed, bot in ((5, GreedyBot(5)), (6, RandomBot(6))):
        game = Game(GameSetup(players=2 + seed % 2, seed=seed, rules=rules))
        while game.phase is not Phase.GAME_OVER:
            if game.phase is Phase.PLACE_TILE:
                memo: dict[int, set[int]] = {}  # kept over the turn's placements, as the greedy bot does
                for code in game.placement_codes():
                    for rotation in ROTATIONS_OF_BITS[code & 15]:
                        want = _lean_from_full(game, code >> 4, rotation)
                        assert feature_changes(game, code >> 4, rotation) == want
                        assert feature_changes(game, code >> 4, rotation, memo) == want
                        checked += 1
            game.apply(bot.choose(game.view()))
    assert checked > 1000


def test_preview_agrees_with_the_engine_with_traders_and_builders():
    """With Traders & Builders the builders and pigs on features count for no majority in the
    preview, as in the engine (issue 33): completions score the seats the engine scores."""
    seen = play_to(91, 3, set(range(0, 96, 2)), Rules(traders=True, inns=True))
    assert seen["placements"] > 300, seen


def test_preview_agrees_with_the_engine_with_hills_and_sheep():
    """Hills & Sheep's tiles (HSB's shared side, the roads that end in their field) join as the engine
    joins them, and cloisters completed beside vineyards score their 3 more a vineyard."""
    seen = play_to(31, 3, set(range(0, 88, 2)), Rules(hills_sheep=True))
    assert seen["placements"] > 300, seen
