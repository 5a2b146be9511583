"""Legal placements around the start tile, counted by hand (a perft-style tripwire), and the errors
that name what is wrong with an illegal placement (HiG "Place a tile", FAQ 7 and 8)."""

from __future__ import annotations

import random

import pytest

from carcnet.engine import Game, GameSetup, IllegalMoveError, Phase, Position, parse_move

# Start tile D at (0,0): city north, road east and west, field south. By hand:
# E (one city side): north with city south (1), south with field north (3 rotations) = 4.
# U (straight road): east and west with the road east-west (1 each), south likewise (1) = 3.
# X (crossing): east and west only (1 each, all turns identical) = 2.
# C (all city): north only = 1.  B (cloister): south only, one distinct rotation = 1.
# V (curve): east 2 (road must reach west), west 2, south 2 (north must be field) = 6.
HAND_COUNTS = {"E": 4, "U": 3, "X": 2, "C": 1, "B": 1, "V": 6}


@pytest.mark.parametrize("letter, pairs", sorted(HAND_COUNTS.items()))
def test_placements_next_to_the_start_tile(letter, pairs):
    game = Game(GameSetup(players=2, draw_order=(letter,)))
    assert sum(len(p.rotations) for p in game.legal_placements()) == pairs
    assert len(game.legal_moves()) == pairs


def test_placements_are_sorted_by_x_then_y():
    game = Game(GameSetup(players=2, draw_order=("V",)))
    positions = [p.position for p in game.legal_placements()]
    assert positions == sorted(positions) == [Position(-1, 0), Position(0, 1), Position(1, 0)]


@pytest.mark.parametrize(
    "move, reason, words",
    [
        ("place E 0,-1 0", "side-mismatch", "S side is field but the tile at 0,0 shows city"),
        ("place E 2,0 0", "not-adjacent", "touches no placed tile"),
        ("place E 1,1 0", "not-adjacent", "touches no placed tile"),  # corner only
        ("place E 0,0 0", "occupied", "already a tile at 0,0"),
        ("place U 0,-1 0", "wrong-tile", "drawn tile is E"),
    ],
)
def test_illegal_placements_name_what_is_wrong(move, reason, words):
    game = Game(GameSetup(players=2, draw_order=("E", "U")))
    before = game.digest
    with pytest.raises(IllegalMoveError, match=words) as info:
        game.apply(parse_move(move))
    assert info.value.reason == reason
    assert game.digest == before and len(game.board.tiles) == 1


@pytest.mark.parametrize("position", [(True, 0), (0, False), (0.0, -1), ("0", -1), (501, 0), (0, -501)])
def test_a_position_that_is_not_a_board_position_is_refused_whole(position):
    from carcnet.engine import PlaceTile

    game = Game(GameSetup(players=2, draw_order=("E", "U")))
    before = game.digest
    with pytest.raises(IllegalMoveError, match="not a board position") as info:
        game.apply(PlaceTile("E", position, 0))
    assert info.value.reason == "not-adjacent" and game.digest == before


def test_rotation_out_of_range_is_refused():
    from carcnet.engine import PlaceTile

    game = Game(GameSetup(players=2, draw_order=("E",)))
    with pytest.raises(IllegalMoveError) as info:
        game.apply(PlaceTile("E", Position(0, -1), 4))
    assert info.value.reason == "bad-rotation"


def test_deploy_before_placing_is_refused():
    game = Game(GameSetup(players=2, draw_order=("E",)))
    with pytest.raises(IllegalMoveError, match="place the drawn tile E first") as info:
        game.apply(parse_move("deploy 0"))
    assert info.value.reason == "wrong-phase"


def test_any_rotation_that_fits_is_accepted_even_if_not_listed():
    game = Game(GameSetup(players=2, draw_order=("U", "U")))
    assert [p.rotations for p in game.legal_placements()] == [(1,), (1,), (1,)]
    game.apply(parse_move("place U 1,0 270"))  # the same tile as 90°
    assert game.tile_at(Position(1, 0)).rotation == 3



def _fits_by_definition(kind, rotation: int, pattern: int) -> bool:
    """Each side with a neighbour (a non-zero 3-bit field of *pattern*) shows its terrain."""
    terrain = kind.variant(rotation).terrain
    return all((pattern >> 3 * s & 7) in (0, int(terrain[s]) + 1) for s in range(4))


def test_every_designs_fit_table_is_the_definition_at_every_pattern():
    """The per-design tables (filled at once, from each rotation's 16 sub-patterns) agree with the
    definition of a fit at every pattern an open position can have."""
    from carcnet.engine.tiles import ALL_PATTERNS, BASE_DESIGNS, GARDEN_VARIANTS, RIVER_DESIGNS

    designs = [*BASE_DESIGNS, *RIVER_DESIGNS, *GARDEN_VARIANTS]
    assert len(designs) > 24
    for kind in designs:
        for pattern in ALL_PATTERNS:
            want = tuple(r for r in kind.distinct_rotations if _fits_by_definition(kind, r, pattern))
            assert kind.fitting_rotations(pattern) == want, (kind.letter, pattern)
            assert kind._fit_bits[pattern] == sum(1 << r for r in want)
            assert [kind.fits(r, pattern) for r in range(4)] == [
                _fits_by_definition(kind, r, pattern) for r in range(4)
            ]


def test_placement_codes_pack_the_legal_placements():
    """``key << 4 | rotation bits`` per legal placement, in the same order, at every turn of a game."""
    from carcnet.bots import random_move
    from carcnet.engine.geometry import key_of

    game = Game(GameSetup(players=2, seed=11))
    rng = random.Random(5)
    turns = 0
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.PLACE_TILE:
            codes = game.placement_codes()
            assert codes == [
                key_of(*p.position) << 4 | sum(1 << r for r in p.rotations) for p in game.legal_placements()
            ]
            codes.clear()  # a new list on each call: the game's own is untouched
            assert game.placement_codes()
            turns += 1
        else:
            assert game.placement_codes() == []
        game.apply(random_move(game, rng))
    assert turns > 60 and game.placement_codes() == []
