"""The exact river rule (issue 33's outside check, rules 3): a placement is refused only when some
order of the river tiles left could strand the river. Checked against the case the check found,
against the sufficient rule it replaces (everything that rule allowed is allowed), and against a
brute force written with other parts of the engine (each side's terrain, every order of the tiles)."""

from __future__ import annotations

import random

import pytest

from carcnet.engine.expansions.river import river_end
from carcnet.bots import random_move
from carcnet.engine import Game, GameSetup, IllegalMoveError, Phase, Rules
from carcnet.engine.geometry import SIDE_OFFSETS, key_of
from carcnet.engine.notation import parse_move
from carcnet.engine.river import advance_river, river_finishable, river_stays_finishable, river_turn, river_unblocked
from carcnet.engine.tiles import RIVER_LAKE, TileVariant, tile_kind

CASE = (
    "place R6 0,1 90; skip; place R4 0,2 90; skip; place R3 -1,2 90; skip; place R9 -2,2 180; skip; "
    "place R8 -2,1 90; skip; place R5 -2,0 270; skip; place R7 -2,-1 90; skip; place R10 -2,-2 270; skip; "
    "place R3 -1,-2 90; skip"
)


def test_the_case_the_outside_check_found():
    """R4 at (0,-2) turned 0 sends the river to (0,-1), beside the spring's field side: the lake (the
    only tile left) fits there, so the river can be finished; the sufficient rule refused it."""
    order = tuple("R6 R4 R3 R9 R8 R5 R7 R10 R3 R4 R2".split())
    game = Game(GameSetup(players=2, draw_order=order, rules=Rules(river=True, river_start="omit")))
    for move in CASE.split("; "):
        game.apply(parse_move(move))
    assert game.drawn == "R4"
    end, kind, key = river_end(game), tile_kind("R4"), key_of(0, -2)
    assert end is not None and end[0] == key
    assert not river_finishable(game.board.tiles, end, kind, 0, game.remaining)  # the rule before
    assert river_stays_finishable(game.board.tiles, end, key, kind.variant(0), game.remaining)
    assert advance_river(end, kind, key, 0) == (key_of(0, -1), 0, 1)  # on to (0,-1), entering it from the north


@pytest.mark.parametrize("version", [2, 3])
def test_a_game_plays_by_its_own_rules_version(version):
    """A game saved under rules 2 goes on under rules 2: the placement rules 3 allows there is refused."""
    order = tuple("R6 R4 R3 R9 R8 R5 R7 R10 R3 R4 R2".split())
    setup = GameSetup(players=2, draw_order=order, rules=Rules(river=True, river_start="omit"), rules_version=version)
    game = Game(setup)
    for move in CASE.split("; "):
        game.apply(parse_move(move))
    assert (game.setup.canonical().splitlines()[1].split()[:2]) == ["rules", str(version)]
    rotations = {p.rotations for p in game.legal_placements()}
    if version == 2:
        assert rotations == {(1,)}
        with pytest.raises(IllegalMoveError, match="could then not be finished"):
            game.apply(parse_move("place R4 0,-2 0"))
    else:
        assert rotations == {(0, 1)}
        game.apply(parse_move("place R4 0,-2 0"))
        game.apply(parse_move("skip"))
        assert game.drawn == "R2"
        game.apply(parse_move("place R2 0,-1 180"))  # the lake, beside the spring's field side
        assert river_end(game) is None


def _fits(tiles: dict[int, TileVariant], key: int, variant: TileVariant) -> bool:
    """Whether *variant* at *key* matches every neighbour's side (terrain by terrain)."""
    for s in range(4):
        other = tiles.get(key + SIDE_OFFSETS[s])
        if other is not None and other.terrain[(s + 2) % 4] != variant.terrain[s]:
            return False
    return True


def _brute(tiles: dict[int, TileVariant], end: tuple[int, int, int], left: tuple[str, ...]) -> bool:
    """The river open at *end* finished whatever order *left* (river designs) come in, the lake last."""
    key = end[0]
    if key in tiles:
        return False
    if not left:
        lake = tile_kind(RIVER_LAKE)
        return any(_fits(tiles, key, lake.variant(r)) and river_turn(end, lake, r) is not None for r in range(4))
    for design in sorted(set(left)):
        rest = list(left)
        rest.remove(design)
        kind = tile_kind(design)
        if not any(
            _fits(tiles, key, kind.variant(r)) and river_turn(end, kind, r) is not None
            and _brute({**tiles, key: kind.variant(r)}, advance_river(end, kind, key, r), tuple(rest))  # type: ignore[arg-type]
            for r in range(4)
        ):
            return False
    return True


def _river_left(game: Game) -> tuple[str, ...]:
    return tuple(t for t, n in game.remaining().items() for _ in range(n) if tile_kind(t).has_river and t != RIVER_LAKE)


@pytest.mark.parametrize("start", ["after", "river", "omit"])
def test_the_exact_rule_allows_all_the_sufficient_rule_did_and_refuses_exactly_what_can_strand(start):
    checked = refused = widened = 0
    for seed in range(300):
        game = Game(GameSetup(players=2, seed=seed, rules=Rules(river=True, river_start=start)))
        rng = random.Random(seed)
        while game.phase is not Phase.GAME_OVER and river_end(game) is not None:
            end = river_end(game)
            left = _river_left(game)
            if game.phase is Phase.PLACE_TILE and len(left) <= 5:
                kind = tile_kind(game.drawn or "")
                tiles = {k: t.variant for k, t in game.board.tiles.items()}
                keys = [end[0]] if kind.has_river else list(game.board.frontier)
                for key in keys:
                    for r in range(4):
                        variant = kind.variant(r)
                        if not _fits(tiles, key, variant) or kind.has_river and river_turn(end, kind, r) is None:
                            continue
                        exact = river_stays_finishable(game.board.tiles, end, key, variant, game.remaining)
                        if kind.has_river:
                            before = river_finishable(game.board.tiles, end, kind, r, game.remaining)
                            after = advance_river(end, kind, key, r)
                            truth = True if after is None else _brute({**tiles, key: variant}, after, left)
                        else:
                            before = river_unblocked(game.board.tiles, end, key, game.remaining)
                            truth = _brute({**tiles, key: variant}, end, left)
                        assert exact == truth, (seed, key, r)
                        assert exact or not before, (seed, key, r)  # nothing allowed before is refused now
                        checked += 1
                        refused += not exact
                        widened += exact and not before
            game.apply(random_move(game, rng))
    assert checked > 500 and refused > 0  # real refusals, each one a strandable river
    assert widened > 0  # placements the sufficient rule refused that cannot strand the river
