"""The expansion hook (``carcnet/engine/expansion.py``, ``docs/architecture.md`` "Expansions"): the
hook table of each rule combination holds only what the expansions in play change, the base game's
holds nothing, and the core calls what the table holds (the pins, ``test_pins.py``, hold every
combination's games to what they were before the hook)."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

import pytest

from carcnet.engine import DeployMeeple, Figure, Game, GameSetup, IllegalMoveError, Position, MoveFairy, RemoveKnight, ReturnAbbot, Rules
from carcnet.engine.events import PointsScored
from carcnet.engine.events import FeatureInfo
from carcnet.engine.expansion import (
    BASE_FARM_CITY_POINTS,
    HOOKS,
    Expansion,
    GameState,
    base_completed_points,
    base_value,
    build_hooks,
)
from carcnet.engine.geometry import Position
from carcnet.engine.tiles import MARK_CATHEDRAL, MARK_INN, SegmentKind
from carcnet.engine.expansions import (
    FIGURES,
    MOVES,
    REGISTRY,
    Abbot,
    HillsSheep,
    InnsCathedrals,
    PrincessDragon,
    River,
    TradersBuilders,
    hooks_for,
)
from carcnet.engine.rules import FARM_RULES, RIVER_STARTS, SUPPORTED_RULES


def _combinations() -> list[tuple[Rules, int]]:
    out = []
    for version in SUPPORTED_RULES:
        for river, abbot, small, inns, traders, hills in itertools.product((False, True), repeat=6):
            if (inns or traders) and version < 4 or hills and version < 6:
                continue
            for farms in FARM_RULES:
                for start in RIVER_STARTS if river else ("after",):
                    out.append((Rules(river=river, abbot=abbot, river_start=start, small_city=small, farms=farms,
                                      inns=inns, traders=traders, hills_sheep=hills), version))
    return out


COMBINATIONS = _combinations()


def test_the_base_games_table_holds_nothing() -> None:
    hooks = hooks_for(Rules(), 4)
    assert hooks.active == () and hooks.names == frozenset()
    assert hooks.farm_scoring is None and not hooks.exact_projection and not hooks.closed_kinds
    assert hooks.farm_city_points == BASE_FARM_CITY_POINTS == 3
    assert hooks.value is base_value and hooks.completed_points is base_completed_points  # the core's own
    assert not (hooks.slots or hooks.new_states or hooks.worded or hooks.on_deploy or hooks.on_return
                or hooks.turn_actions or hooks.moves or hooks.claimers or hooks.claims_by_kind or hooks.rule_of)


@pytest.mark.parametrize(("rules", "version"), COMBINATIONS, ids=[f"{r.text()} v{v}" for r, v in COMBINATIONS])
def test_each_combinations_table_holds_exactly_the_expansions_in_play(rules: Rules, version: int) -> None:
    hooks = hooks_for(rules, version)
    assert hooks is hooks_for(rules, version)  # made once
    assert hooks.names == {cls.name for cls in REGISTRY if cls.active(rules, version)}
    city = rules.farms == "city"
    assert ("city-farms" in hooks.names) is city
    assert (hooks.farm_scoring is not None) is city
    hills = rules.hills_sheep
    assert hooks.exact_projection is (city or rules.inns or rules.traders)
    assert hooks.tie_mark == ("hill" if hills else "")
    assert hooks.farm_city_points == {"farm": 3, "city": 4, "off": 0}[rules.farms]
    assert ("no-farmers" in hooks.names) is (rules.farms == "off")
    assert set(hooks.closed_kinds) == ({SegmentKind.FIELD} if rules.farms == "off" else set())
    assert ("small-cities" in hooks.names) is rules.small_city
    assert (hooks.value is base_value) is (not rules.small_city and not rules.inns and not hills)
    assert [e.slot for e in hooks.active] == list(range(len(hooks.active)))
    abbot, traders = rules.abbot, rules.traders
    assert ("abbot" in hooks.names) is abbot and (Abbot in hooks.slots) is abbot
    heard = ({Figure.ABBOT} if abbot else set()) | ({Figure.BUILDER, Figure.PIG} if traders else set())
    assert set(hooks.on_deploy) == set(hooks.on_return) == heard  # (the shepherd: its expansion's own)
    assert set(hooks.moves) == ({ReturnAbbot} if abbot else set())
    claiming = {Figure.ABBOT} if abbot else set()
    if rules.inns:
        claiming.add(Figure.LARGE)
    joining = {Figure.BUILDER, Figure.PIG} if traders else set()
    assert claiming == {rule.figure for rule, _ in hooks.claimers}
    assert joining == {rule.figure for rule, _ in hooks.joiners}
    assert set(hooks.rule_of) == claiming | joining == {rule.figure for rule in hooks.stocked}
    assert [rule.order for rule, _ in hooks.claimers] == sorted(rule.order for rule, _ in hooks.claimers)
    assert hooks.marked is (rules.inns or rules.traders)
    assert hooks.weights == ({**({Figure.LARGE: 2} if rules.inns else {}),
                              **({Figure.BUILDER: 0, Figure.PIG: 0} if traders else {})} or None)
    game = Game(GameSetup(players=3, seed=1, rules=rules, rules_version=version))
    assert game.supplies == {figure: [1, 1, 1] for figure in claiming | joining}
    assert game.supply_of(Figure.ABBOT) == [int(abbot)] * 3 and game.supply_of(Figure.LARGE) == [int(rules.inns)] * 3
    for rule, _ in hooks.claimers:  # what no farmers closes, a figure's kinds lose too
        assert not rule.kinds & hooks.closed_kinds.keys() and rule.shut <= hooks.closed_kinds.keys()
    assert hooks.claims_by_kind == {kind: takers for kind in SegmentKind if (takers := tuple(
        j for j, (rule, _) in enumerate(hooks.claimers) if kind in rule.kinds))}  # the claimers by kind, in order
    assert hooks.words == tuple(w for w, on in (("abbots", abbot), ("large", rules.inns)) if on)  # digest order
    assert len(hooks.turn_actions) == int(abbot) + int(hills)
    assert len(hooks.turn_end) == int(traders)
    assert len(hooks.before_scoring) == len(hooks.clear_tile) == int(hills)
    assert len(hooks.farm_bonus) == int(traders)
    assert set(hooks.placers) == ({Figure.SHEPHERD} if hills else set())
    assert len(hooks.on_tile_placed) == int(traders) + int(rules.river) + int(hills)
    assert (hooks.restricts is not None) is (hooks.filter_placements is not None) is rules.river
    assert ("river" in hooks.names) is rules.river and (River in hooks.slots) is rules.river
    assert len(hooks.on_completed) == len(hooks.final_scoring) == int(traders)
    assert len(hooks.snapshots) == int(traders) + int(hills)
    assert len(hooks.new_states) == len(hooks.active)


def test_every_registered_expansion_has_a_name_title_and_option_of_its_own() -> None:
    names = [cls.name for cls in REGISTRY]
    assert len(set(names)) == len(names)
    for cls in REGISTRY:
        assert cls.name and cls.title and cls.option in Rules.__dataclass_fields__
        assert cls.since in SUPPORTED_RULES


def test_an_expansions_public_methods_are_hooks() -> None:
    """A method an expansion defines that is no hook would never be called (a misspelt hook): each
    public method of a registered expansion is one of :data:`HOOKS`, ``active`` or ``state_words``."""
    assert all(callable(getattr(Expansion, name)) for name in HOOKS)
    for cls in REGISTRY:
        defined = {name for name, value in vars(cls).items() if callable(value) or isinstance(value, (classmethod,
                                                                                                      staticmethod))}
        public = {name for name in defined if not name.startswith("_")}
        assert public <= {*HOOKS, "active", "state_words"}, f"{cls.__name__}: {public - {*HOOKS, 'active', 'state_words'}}"


class _OtherFarms(Expansion):
    """A test-only farm scoring that replaces the core's too."""

    name, title, option = "other-farms", "other farms", "small_city"

    def farm_scoring(self, game: GameState, fields: list[int], field_tiles: dict[int, set[int]]) -> list[PointsScored]:
        return []


def test_two_expansions_that_replace_the_farm_scoring_refuse_to_play_together() -> None:
    rules = Rules(farms="city", small_city=True)
    with pytest.raises(ValueError, match="first-edition farms"):
        build_hooks(rules, 4, (*REGISTRY, _OtherFarms))
    assert build_hooks(Rules(small_city=True), 4, (*REGISTRY, _OtherFarms)).farm_scoring is not None


_KINDS = (SegmentKind.ROAD, SegmentKind.CITY, SegmentKind.CLOISTER)


@given(st.sampled_from(COMBINATIONS), st.sampled_from(_KINDS), st.integers(1, 12), st.integers(0, 4),
       st.sampled_from((0, MARK_INN, MARK_CATHEDRAL)))
def test_a_completed_features_value_is_its_completed_points_under_every_combination(
        combination: tuple[Rules, int], kind: SegmentKind, tiles: int, pennants: int, mark: int) -> None:
    """The two forms of one rule agree: what the core scores a completed feature (``value``, from its
    description) and what a placement's preview and the bots expect (``completed_points``, from its
    counts), the variants in play included (the small-city rule, HA FN 17)."""
    rules, version = combination
    hooks = hooks_for(rules, version)
    if kind is SegmentKind.CLOISTER:
        tiles, pennants, mark = 9, 0, 0
    if kind is SegmentKind.ROAD:
        pennants = 0
    if not rules.inns:  # no inn and no cathedral on the tiles of a game without Inns & Cathedrals
        mark = 0
    info = FeatureInfo(kind, (Position(0, 0), 0), tuple(Position(x, 0) for x in range(tiles)), True, pennants,
                       inn=bool(mark & MARK_INN) and kind is SegmentKind.ROAD,
                       cathedral=bool(mark & MARK_CATHEDRAL) and kind is SegmentKind.CITY)
    mark = (MARK_INN if info.inn else 0) | (MARK_CATHEDRAL if info.cathedral else 0)
    assert hooks.value(info, False) == hooks.completed_points(kind, tiles, pennants, mark)
    if kind is SegmentKind.ROAD:  # HiG "Scoring summary"; Inns & Cathedrals: an inn doubles it
        expected = tiles * (2 if info.inn else 1)
    elif kind is SegmentKind.CITY:  # a cathedral 3 each; a small city 1 each (HA FN 17); else 2 each
        small = rules.small_city and tiles == 2
        expected = (3 if info.cathedral else 1 if small else 2) * (tiles + pennants)
    else:
        expected = 9
    assert hooks.value(info, False) == expected


def test_an_expansions_move_in_a_game_without_it_is_refused_with_its_reason() -> None:
    """The core knows every expansion's moves (:data:`MOVES`): one made where the expansion is not in
    play is refused with the expansion's reason code, not taken for nonsense."""
    assert MOVES == {ReturnAbbot: Abbot, RemoveKnight: PrincessDragon, MoveFairy: PrincessDragon} and FIGURES == {Figure.ABBOT: Abbot, Figure.LARGE: InnsCathedrals,
                                                         Figure.BUILDER: TradersBuilders, Figure.PIG: TradersBuilders,
                                                         Figure.SHEPHERD: HillsSheep}
    game = Game(GameSetup(players=2, draw_order=("E", "E")))
    game.apply(game.legal_moves()[0])
    with pytest.raises(IllegalMoveError, match="played without The Abbot") as refused:
        game.apply(ReturnAbbot(Position(0, 0)))
    assert refused.value.reason == "no-abbot"
    with pytest.raises(IllegalMoveError, match="played without The Abbot") as refused:
        game.apply(DeployMeeple(0, Figure.ABBOT))
    assert refused.value.reason == "wrong-figure"
    with pytest.raises(IllegalMoveError, match="played without Inns & Cathedrals") as refused:
        game.apply(DeployMeeple(0, Figure.LARGE))
    assert refused.value.reason == "wrong-figure"
    with pytest.raises(IllegalMoveError, match="played without Hills & Sheep") as refused:
        game.apply(DeployMeeple(0, Figure.SHEPHERD))
    assert refused.value.reason == "wrong-figure"


@pytest.mark.parametrize(("figure", "rules", "why"), [
    (Figure.LARGE, Rules(inns=True, farms="off"), "this game is played without farmers"),
    (Figure.LARGE, Rules(inns=True, river=True), "a meeple cannot go on a river"),
    (Figure.ABBOT, Rules(abbot=True, farms="off"), "the abbot goes on a cloister or garden only"),
    (Figure.ABBOT, Rules(abbot=True), "the abbot goes on a cloister or garden only"),
])
def test_a_claiming_figure_refused_where_it_may_not_go_says_why(figure: Figure, rules: Rules, why: str) -> None:
    """A figure of an expansion on a kind it never goes on says its own words; on a kind it would go on
    but which another expansion in play closes (no farmers), that expansion's words."""
    river = "river" in why
    game = Game(GameSetup(players=2, draw_order=("R2" if river else "E", "E"), rules=rules, rules_version=4))
    game.apply(game.legal_moves()[0])
    placed = game.drawn_kind
    assert placed is not None
    wanted = "river" if river else "field"
    segment = next(i for i, seg in enumerate(placed.segments) if seg.kind.label == wanted)
    with pytest.raises(IllegalMoveError, match=why) as refused:
        game.apply(DeployMeeple(segment, figure))
    assert refused.value.reason == "bad-segment"
