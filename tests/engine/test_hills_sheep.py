"""Hills & Sheep's hills and vineyards: the rulebooks' examples as positions (``docs/rules-next.md`` §4,
H1–H5, each with its source), the tile list, the shared side of HSB, and properties over random games
with every combination of expansions.

Conventions: x east, y south; the start tile D at (0, 0) has its city to the north and its road
east–west. Red is seat 0, Blue seat 1.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from carcnet.bots import make_bot
from carcnet.engine import (
    MEEPLES_PER_PLAYER,
    Figure,
    FlockScored,
    Game,
    GameSetup,
    IllegalMoveError,
    MeepleReturned,
    Phase,
    PointsScored,
    Position,
    Rules,
    SetupError,
    TokenDrawn,
    parse_move,
    replay,
    tile_kind,
)
from carcnet.engine.expansions import hooks_for
from carcnet.engine.expansions.hills import HillsSheep, bag, flocks, shepherd_at
from carcnet.engine.tiles import HILLS_DESIGNS, expansion_tile_counts, tileset

HILLS = Rules(hills_sheep=True)
P = Position
REPO = Path(__file__).resolve().parents[2]


def _play(order: tuple[str, ...], moves: list[str], rules: Rules = HILLS, players: int = 2) -> Game:
    game = Game(GameSetup(players=players, draw_order=order, rules=rules))
    for move in moves:
        game.apply(parse_move(move))
    return game


def _points(game: Game) -> list[tuple[tuple[int, ...], int, bool]]:
    return [(e.seats, e.points, e.final) for e in game.events if isinstance(e, PointsScored)]


# ------------------------------------------------------------------------------------ the tiles


def test_the_box_holds_18_tiles_8_hills_8_vineyards_and_2_cloisters():
    """WIKIA "Out of the 18 tiles of the game, 8 include vineyards, 8 include hills"; JCloisterZone's
    ``hills-and-sheep`` sets (``docs/rules-next.md`` §2.4)."""
    counts = expansion_tile_counts("hills")
    assert sum(counts.values()) == 18 and len(HILLS_DESIGNS) == 16
    marks = Counter(mark for letter, n in counts.items() for mark in tile_kind(letter).marks for _ in range(n))
    assert marks == {"hill": 8, "vineyard": 8}
    cloisters = [k.letter for k in HILLS_DESIGNS if any(s.kind.name == "CLOISTER" for s in k.segments)]
    assert cloisters == ["HSJ", "HSK"] and not any(tile_kind(x).marks for x in cloisters)
    assert not any(len(k.marks) > 1 for k in HILLS_DESIGNS)  # no tile has both


def test_the_tiles_join_the_land_tiles_and_hsn_has_its_garden_with_the_abbot():
    _, (land,) = tileset(hills=True)
    assert sum(land.values()) == 71 + 18
    _, (land,) = tileset(hills=True, abbot=True)
    assert "HSN" not in land and land["HSNG"] == 1 and sum(land.values()) == 71 + 18
    assert tile_kind("HSNG").marks == ("hill",)


def test_the_tiles_need_the_option_and_rules_6():
    with pytest.raises(SetupError):
        GameSetup(players=2, draw_order=("HSA",)).validate()
    assert HILLS.version_problem(5) is not None and HILLS.version_problem(6) is None
    assert HILLS.words().endswith("hills-sheep=1") and "hills-sheep" not in Rules().words()


# ------------------------------------------------------------------------------------ the hill's hidden tile


def test_h5_a_hill_takes_the_tile_under_it_out_of_the_game():
    """HS2 (WICA-OP 2g: "immediately draw a second tile. Keep the second tile face-down underneath");
    JCloisterZone's ``hiddenUnderHills``: no tile is chosen, the pile is one shorter."""
    game = _play(("HSM", "U", "V"), ["place HSM 1,0 90", "skip", "place U -1,0 90", "skip"])
    assert game.phase is Phase.GAME_OVER and game.hidden == 1
    assert [str(m) for m in game.moves if str(m).startswith("place")] == ["place HSM 1,0 90", "place U -1,0 90"]
    assert " hidden=0 " in game.state_line(0)
    assert " hidden=1 " in game.state_line(1)  # taken as the hill is placed


def test_a_hill_placed_when_the_pile_is_empty_hides_nothing():
    """JCloisterZone: ``if (!tilePack.isEmpty()) increaseHiddenUnderHills()`` (no text found)."""
    game = _play(("U", "HSM"), ["place U 1,0 90", "skip", "place HSM -1,0 90", "skip"])
    assert game.phase is Phase.GAME_OVER and game.hidden == 0


def test_the_tiles_left_count_no_hidden_tile():
    game = _play(("HSM", "U", "V", "W"), ["place HSM 1,0 90"])
    assert game.tiles_left == 2  # U, V and W face down, one of them under the hill
    assert game.remaining() == {"U": 1, "V": 1, "W": 1}  # which one is under it, no one knows


# ------------------------------------------------------------------------------------ hills break ties


H3 = ["place U -1,0 90", "skip", "place U 1,0 90", "skip", "place E -1,-1 90", "deploy 0"]


def test_h3_a_follower_on_a_hill_breaks_the_tie():
    """HS4: of the players tied for the most followers, those with a follower on a hill tile score
    the feature alone (Z-Man's product text: "that player will have an advantage over the others,
    and will score all the points for that feature")."""
    moves = [*H3, "place HSF 1,-1 90", "deploy 1", "place R 0,-1 180", "skip"]
    game = _play(("U", "U", "E", "HSF", "R", "X"), moves)
    city = [p for p in _points(game) if not p[2]]
    assert city == [((1,), 8, False)]  # Blue alone: 4 tiles; without Hills & Sheep both would score 8


def test_h3_without_a_hill_both_tied_players_score():
    """The same position with the base game's H (the same two cities as HSF turned, no hill)."""
    moves = [*H3, "place H 1,-1 0", "deploy 1", "place R 0,-1 180", "skip"]
    game = _play(("U", "U", "E", "H", "R"), moves)
    assert [p for p in _points(game) if not p[2]] == [((0, 1), 8, False)]


def test_h4_both_tied_players_on_hills_both_score():
    """HS4; JCloisterZone #414: "default tie breaker is just presence on hill(s), regardless of count"."""
    moves = ["place U -1,0 90", "skip", "place U 1,0 90", "skip", "place HSD -1,-1 90", "deploy 0",
             "place HSF 1,-1 90", "deploy 1", "place R 0,-1 180", "skip"]
    game = _play(("U", "U", "HSD", "HSF", "R", "X", "X"), moves)
    assert [p for p in _points(game) if not p[2]] == [((0, 1), 8, False)]


def test_the_placement_preview_breaks_ties_as_the_scoring_does():
    from carcnet.engine.preview import preview_placement

    game = _play(("U", "U", "E", "HSF", "R", "X"), [*H3, "place HSF 1,-1 90", "deploy 1"])
    assert preview_placement(game, P(0, -1), 2).turn_points() == (0, 8)
    game = _play(("U", "U", "E", "HSF", "C", "HSD", "X", "X", "X"),  # (two hills: two tiles hidden)
                 [*H3, "place HSF 1,-1 90", "deploy 1", "place C 0,-1 0", "skip"])
    # Blue's HSD closes the city from the north: 1 knight each, Blue's on a hill; each deploy after it
    assert game.drawn == "HSD"
    pv = preview_placement(game, P(0, -2), 2)
    assert pv.turn_points() == (0, 12)  # D, E, HSF, C, HSD and C's pennant, to Blue alone
    for deploy in [None, *pv.deploy_options()]:
        expected = game.copy()
        expected.apply(parse_move("place HSD 0,-2 180"))
        events = expected.apply(parse_move("skip" if deploy is None else f"deploy {deploy}"))
        scored = [0, 0]
        for e in events:
            if isinstance(e, PointsScored):
                for seat in e.seats:
                    scored[seat] += e.points
        assert pv.turn_points(deploy) == tuple(scored)


def test_a_hill_never_helps_a_player_who_is_not_tied():
    assert hooks_for(HILLS, 6).tie_mark == "hill" and hooks_for(Rules(), 6).tie_mark == ""
    game = _play(("HSM", "U", "U"), [])
    # seat 1 alone holds the most; seat 0's follower on a hill does not matter
    assert game.majority([(1, Figure.MEEPLE, 0), (1, Figure.MEEPLE, 0), (0, Figure.MEEPLE, 0)]) == (1,)


def test_the_projected_scores_break_ties_as_the_scoring_does():
    moves = [*H3, "place HSF 1,-1 90", "deploy 1", "place C 0,-1 0", "skip"]  # C joins both, open north
    game = _play(("U", "U", "E", "HSF", "C", "X", "X"), moves)
    assert game.projected_scores() == game.projected_final()[0] == [0, 5]  # 4 tiles, 1 pennant: Blue alone


# ------------------------------------------------------------------------------------ vineyards


H1 = ["place B 0,1 0", "skip", "place E -1,1 270", "skip", "place HSE 1,1 90", "skip", "place B -1,2 0", "skip",
      "place B 1,2 0", "skip", "place HSA -1,3 180", "skip", "place E 0,3 180", "skip", "place HSA 1,3 180", "skip",
      "place B 0,2 0", "deploy 0"]


def test_h1_three_vineyards_round_a_completed_cloister_score_18():
    """HS5, W-HS2's "Example 1": "There are 3 vineyards in the tiles surrounding the monastery. You
    score 18 points (9 + 3 + 3 + 3)"."""
    game = _play(("B", "E", "HSE", "B", "B", "HSA", "E", "HSA", "B"), H1)
    assert _points(game)[0] == ((0,), 18, False)
    (completed,) = [e.feature for e in game.events if isinstance(e, PointsScored)]
    assert completed.around.count("vineyard") == 3
    assert hooks_for(Rules(), 6).value(completed, False) == 9  # the base game's value: no vineyard counts


def test_h2_an_incomplete_cloister_gets_nothing_from_vineyards():
    """HS5; WIKIA: "at game end, an incomplete monastery does not receive any additional points from
    its neighboring vineyards"."""
    game = _play(("B", "HSA"), ["place B 0,1 0", "deploy 0", "place HSA 1,1 180", "skip"])
    assert _points(game) == [((0,), 3, True)]


def test_the_placement_preview_counts_the_vineyards():
    from carcnet.engine.preview import preview_placement

    game = _play(("B", "E", "HSE", "B", "B", "HSA", "E", "B", "HSA"),
                 [*H1[:14], "place B 0,2 0", "deploy 0"])
    assert game.drawn == "HSA"  # the last neighbour, a vineyard, completes the cloister
    pv = preview_placement(game, P(1, 3), 2)
    assert [c.points for c in pv.completions] == [18]


# ------------------------------------------------------------------------------------ HSB's shared side


def test_a_city_met_on_the_shared_side_joins_both_cities_placed_against_it():
    """HSB (JCloisterZone ``multi-edge="N"``): both its cities reach the north side; a city met there
    joins both. Turned 180°, its shared side meets the start tile's city."""
    game = _play(("HSB",), ["place HSB 0,-1 180"])
    a, b, d = game.feature_at(P(0, -1), 0), game.feature_at(P(0, -1), 1), game.feature_at(P(0, 0), 0)
    assert a.anchor == b.anchor == d.anchor and sorted(a.tiles) == [P(0, -1), P(0, 0)]
    g = game.graph
    root = g.find(game.tile_at(P(0, 0)).base)
    assert g.open[root] == 2  # the east side of one city, the west side of the other


def test_a_tile_placed_against_the_shared_side_joins_both_cities():
    """The other way round: HSB placed first (turned 90°: its shared side east, open), a city then
    placed east of it joins both; before that, the two are separate cities, each with its own knight."""
    game = _play(("HSB", "E", "E"), ["place HSB 0,-1 90", "deploy 0"])
    assert game.feature_at(P(0, -1), 0).anchor != game.feature_at(P(0, -1), 1).anchor
    game.apply(parse_move("place E 1,-1 270"))
    assert game.feature_at(P(1, -1), 0).anchor == game.feature_at(P(0, -1), 0).anchor == game.feature_at(P(0, -1), 1).anchor
    game.apply(parse_move("skip"))
    game.apply(parse_move("place E 0,-2 180"))  # closes the north side: D, HSB and both E, complete
    game.apply(parse_move("skip"))
    assert _points(game)[0] == ((0,), 8, False)


# ------------------------------------------------------------------------------------ shepherds and sheep


def _sheep(order: tuple[str, ...], moves: list[str], tokens: tuple[str, ...] | None, players: int = 2) -> Game:
    game = Game(GameSetup(players=players, draw_order=order, rules=HILLS, tokens=tokens))
    for move in moves:
        game.apply(parse_move(move))
    return game


def _flocks_scored(game: Game) -> list[tuple[tuple[int, ...], int]]:
    return [(e.seats, e.points) for e in game.events if isinstance(e, FlockScored)]


H6 = ["place U 1,0 90", "deploy 2 shepherd",  # Red: the north field (D's strip joins it); a token at once
      "place U -1,0 90", "deploy 2",  # Blue: a farmer in the same field (HS6: allowed)
      "place U 2,0 90", "skip", "flock grow",  # Red extends his field: he must tend the flock
      "place U -2,0 90", "skip",  # Blue extends it too: Blue has no shepherd there, nothing happens
      "place U 3,0 90", "skip", "flock score"]
H6_ORDER = ("U", "U", "U", "U", "U", "V")


def test_h6_a_flock_grows_and_is_scored():
    """HS6, HS7, HS8 (W-HS2's captions "placing a shepherd", "drawing a token"; ZM-HS "Grow the flock
    (draw another token from the bag) OR Gather the flock (score points)"): tokens 3 then 2, a flock
    of 5 sheep scored 5; the shepherd back, the bag full again, the farmer stays."""
    game = _sheep(H6_ORDER, H6[:7], ("3", "2"))
    assert [e.token for e in game.events if isinstance(e, TokenDrawn)] == ["3", "2"]
    assert flocks(game) == [(0, game.tile_at(P(1, 0)).base + 2, ["3", "2"])] and len(bag(game)) == 16  # type: ignore[union-attr]
    assert game.phase is Phase.PLACE_TILE and game.seat == 1  # Blue's turn: no question for Blue
    game.apply(parse_move(H6[7]))
    game.apply(parse_move(H6[8]))
    assert game.phase is Phase.PLACE_TILE and game.seat == 0  # Blue extended Red's field: nothing asked
    for move in H6[9:11]:
        game.apply(parse_move(move))
    assert game.phase is Phase.STEP and game.actor == 0 and " step flock " in f" {game.state_line()}"
    assert {str(m) for m in game.legal_moves()} == {"flock grow", "flock score"}
    game.apply(parse_move("flock score"))
    assert _flocks_scored(game) == [((0,), 5)] and game.scores == [5, 0]
    assert flocks(game) == [] and len(bag(game)) == 18 and shepherd_at(game, 0) is None
    assert (1, Figure.MEEPLE) in [(s, f) for s, f, _, _ in game.figures()]  # Blue's farmer stays
    assert game.breakdown[0]["sheep"] == [5, 0]


def test_h6_a_wolf_scatters_the_flock_without_points():
    """HS9 (ZM-HS; NL-HS): tokens 3 then a wolf: the shepherd back with no points, the 3 and the wolf
    in the bag (18)."""
    game = _sheep(H6_ORDER, H6[:7], ("3", "W"))
    assert [e.token for e in game.events if isinstance(e, TokenDrawn)] == ["3", "W"]
    assert flocks(game) == [] and len(bag(game)) == 18 and game.scores == [0, 0]
    assert any(isinstance(e, MeepleReturned) and e.figure is Figure.SHEPHERD for e in game.events)


def test_h6_a_wolf_at_once_sends_the_shepherd_back():
    game = _sheep(H6_ORDER, H6[:2], ("W",))
    assert flocks(game) == [] and len(bag(game)) == 18 and shepherd_at(game, 0) is None
    assert any(str(m) == "deploy 1 shepherd" for m in _sheep(H6_ORDER, H6[:2] + ["place U -1,0 90"], ("W",)).legal_moves())


def test_h7_one_flock_for_two_shepherds():
    """HS13 (NL-HS "De schapen op een weide (ook die er later bijkomen) gelden altijd voor alle
    herders in die weide"), HS8: Red's and Blue's fields joined by a cloister; Red grows the flock of
    both: 3 + 2 + 4."""
    moves = ["place U 1,0 90", "deploy 2 shepherd", "place U -1,0 90", "deploy 1 shepherd",
             "place A 2,0 90", "deploy 0"]
    game = _sheep(("U", "U", "A", "V"), [*moves, "flock grow"], ("3", "2", "4"))
    assert sorted(sum((tokens for _s, _n, tokens in flocks(game)), [])) == ["2", "3", "4"]
    scored = _sheep(("U", "U", "A", "V"), [*moves, "flock score"], ("3", "2"))
    assert _flocks_scored(scored) == [((0, 1), 5)] and scored.scores == [5, 5]  # every shepherd there: 3 + 2
    wolf = _sheep(("U", "U", "A", "V"), [*moves, "flock grow"], ("3", "2", "W"))
    assert flocks(wolf) == [] and len(bag(wolf)) == 18 and wolf.scores == [0, 0]


H8 = ["place V 0,1 270", "skip", "place V 1,1 0", "skip", "place V 0,2 180", "deploy 2 shepherd"]


def test_h8_a_closed_field_is_scored_in_another_player_s_turn():
    """HS10 (W-HS2 §3, JCZ #368 "blue closes farm with red Shepherd"): "If any player completes a
    field with shepherds and sheep by fully surrounding it by roads and cities, immediately resolve
    the Guide the flock to the stable action for that field"."""
    game = _sheep(("V", "V", "V", "V", "U"), [*H8, "place V 1,2 90", "skip"], ("2",))
    assert _flocks_scored(game) == [((0,), 2)] and game.scores[0] == 2 + 0
    assert flocks(game) == [] and len(bag(game)) == 18


def test_h8_the_owner_who_closes_his_field_may_grow_it_first():
    """HS10, meepledrone's reading in JCZ #363 (JCloisterZone since 2021): "if you are the active
    player and your shepherd is in the closed field, you have the option to draw a sheep token before
    scoring all the shepherds"."""
    moves = ["place V 0,1 270", "skip", "place V 1,1 0", "skip", "place U -1,0 90", "skip",
             "place V 0,2 180", "deploy 2 shepherd", "place U -2,0 90", "skip", "place U -3,0 90", "skip",
             "place V 1,2 90", "skip"]
    game = _sheep(("V", "V", "U", "V", "U", "U", "V", "U"), moves, ("2", "3"), players=3)
    assert game.phase is Phase.STEP and game.actor == 0  # seat 0 deployed it and closes its field
    grown = game.copy()
    grown.apply(parse_move("flock grow"))
    assert _flocks_scored(grown) == [((0,), 5)]  # drawn 3, then scored at once: closed
    game.apply(parse_move("flock score"))
    assert _flocks_scored(game) == [((0,), 2)]


def test_a_shepherd_on_a_field_closed_as_it_is_placed_is_scored_at_once():
    """JCZ #303 (C1's "Special case"): the shepherd placed on a field that cannot grow draws its token
    and is scored at once."""
    moves = ["place V 0,1 270", "skip", "place V 1,1 0", "skip", "place V 0,2 180", "skip", "place V 1,2 90",
             "deploy 2 shepherd"]
    game = _sheep(("V", "V", "V", "V", "U"), moves, ("4",))
    assert _flocks_scored(game) == [((1,), 4)] and game.scores == [0, 4]  # (the road of 4 has nobody)
    assert flocks(game) == []


def test_h9_shepherds_score_nothing_at_the_end():
    """HS11 (farin in JCZ #314: "if your shepherd and sheep are in a field at the end of the game, you
    do not score any points for them")."""
    game = _sheep(("U", "U", "U"), H6[:7], ("3", "2"))
    assert game.phase is Phase.GAME_OVER and flocks(game)  # Red's flock of 5 still there
    assert game.breakdown[0]["sheep"] == [0, 0] and not _flocks_scored(game)


def test_where_a_shepherd_may_go():
    """HS6 (C2 via JCZ #310): "You can place your shepherd even if there is already a farmer in that
    field (and vice versa), but you cannot place a shepherd if there is already another shepherd in
    that field"; on a field only; one a player."""
    game = _sheep(("U", "U", "U", "U"), H6[:2] + ["place U -1,0 90"], ("3",))
    options = {str(m) for m in game.legal_moves()}
    assert "deploy 1 shepherd" in options and "deploy 2 shepherd" not in options  # the north field has Red's
    assert "deploy 2" in options  # a farmer may join it
    with pytest.raises(IllegalMoveError, match="already holds a shepherd") as refused:
        game.apply(parse_move("deploy 2 shepherd"))
    assert refused.value.reason == "feature-occupied"
    with pytest.raises(IllegalMoveError, match="on a field only"):
        game.apply(parse_move("deploy 0 shepherd"))
    game.apply(parse_move("deploy 1 shepherd"))
    game.apply(parse_move("place U 2,0 90"))
    with pytest.raises(IllegalMoveError, match="shepherd is on the board") as refused:
        game.apply(parse_move("deploy 1 shepherd"))
    assert refused.value.reason == "no-supply"


def test_the_flock_s_question_is_answered_only_by_a_flock_move():
    game = _sheep(H6_ORDER, H6[:6], ("3", "2"))
    with pytest.raises(IllegalMoveError, match="grow the flock or score it first"):
        game.apply(parse_move("skip"))
    with pytest.raises(IllegalMoveError, match="nothing is asked now"):
        _sheep(H6_ORDER, H6[:2], ("3",)).apply(parse_move("flock grow"))


def test_a_seeded_game_s_tokens_follow_deck_md_7():
    """protocol/deck.md §7: the t-th token of a game of seed s is bag[below(len(bag))], below on the
    stream seeded by the first 8 bytes of SHA-256("carcnet/sheep/v1" 0x00 ‖ s ‖ t)."""
    from carcnet.engine.draws import draw_index

    game = Game(GameSetup(players=2, seed=77, rules=HILLS))
    bags: list[list[str]] = []
    while game.phase is not Phase.GAME_OVER:
        move = next((m for m in game.legal_moves() if str(m).endswith("shepherd") or str(m) == "flock grow"),
                    game.legal_moves()[0])
        if str(move).endswith("shepherd") or str(move) == "flock grow":
            bags.append(bag(game))
        game.apply(move)
    drawn = [e.token for e in game.events if isinstance(e, TokenDrawn)]
    assert len(drawn) == len(bags) >= 2
    for t, (token, before) in enumerate(zip(drawn, bags, strict=True), start=1):
        value = hashlib.sha256(b"carcnet/sheep/v1\0" + (77).to_bytes(8, "big") + t.to_bytes(4, "big")).digest()
        assert token == before[draw_index(value, len(before))]


def test_a_view_s_tokens_are_not_the_game_s():
    """A bot's view (PlayerView) cannot tell the next token of a seeded game: its copy draws from
    another stream."""
    differ = 0
    for seed in range(12):
        game = Game(GameSetup(players=2, seed=seed, rules=HILLS))
        game.apply(next(m for m in game.legal_moves() if str(m).startswith("place")))
        deploy = next((m for m in game.legal_moves() if str(m).endswith("shepherd")), None)
        if deploy is None:
            continue
        real, seen = game.copy(), game.view().detached().game
        real.apply(deploy)
        seen.apply(deploy)
        differ += [e.token for e in real.events if isinstance(e, TokenDrawn)] != [
            e.token for e in seen.events if isinstance(e, TokenDrawn)]
    assert differ >= 3


def test_tokens_go_with_a_given_order_and_the_expansion():
    with pytest.raises(SetupError, match="tokens go with"):
        GameSetup(players=2, seed=1, rules=HILLS, tokens=("1",)).validate()
    with pytest.raises(SetupError, match="tokens go with"):
        GameSetup(players=2, draw_order=("U",), tokens=("1",)).validate()
    with pytest.raises(SetupError, match="tokens must be"):
        GameSetup(players=2, draw_order=("U",), rules=HILLS, tokens=("5",)).validate()
    setup = GameSetup(players=2, draw_order=("U",), rules=HILLS, tokens=("3", "W"))
    assert setup.canonical().endswith("order U\ntokens 3 W\n")


# ------------------------------------------------------------------------------------ properties


def _every_combination() -> list[Rules]:
    return [Rules(hills_sheep=True, river=river, abbot=abbot, inns=inns, traders=traders)
            for river, abbot, inns, traders in itertools.product((False, True), repeat=4)]


@pytest.mark.parametrize("rules", _every_combination(), ids=lambda r: r.words().replace(" ", ","))
def test_random_games_with_hills_end_return_every_figure_and_replay_the_same(rules: Rules):
    """With every combination of expansions: every game ends (after its hidden tiles: the tiles
    placed and set aside are the pile less the hidden ones), every figure is in supply or on the
    board, and a replay gives the same digests."""
    for seed in range(6):
        players = 2 + seed % 5
        game = Game(GameSetup(players=players, seed=seed, rules=rules))
        bots = [make_bot("greedy" if s % 2 else "random", seed * 7 + s) for s in range(players)]
        while game.phase is not Phase.GAME_OVER:
            game.apply(bots[game.seat].choose(game.view()))
            on_board = Counter((s, f) for s, f, _, _ in game.figures())
            for s in range(players):
                assert game.supply[s] + on_board[(s, Figure.MEEPLE)] == MEEPLES_PER_PLAYER
                for figure, supply in game.supplies.items():
                    assert supply[s] + on_board[(s, figure)] == hooks_for(rules, 6).rule_of[figure].per_seat
            if len(game.moves) % 7 == 0:  # the projection's shortcut breaks ties as the final scoring does
                assert game.projected_scores() == game.projected_final()[0]
            in_fields = [token for _seat, _node, tokens in flocks(game) for token in tokens]
            assert len(bag(game)) + len(in_fields) == 18 and all(tokens for _s, _n, tokens in flocks(game))
        placed = len(game.board.tiles) - 1
        assert placed + len(game.set_aside) + game.hidden == rules.pile_size()
        hills = sum(1 for t in game.board.tiles.values() if "hill" in t.kind.marks)
        assert game.hidden <= hills
        assert replay(game.setup, game.moves).digests == game.digests


_HASHSEED_SCRIPT = """
import hashlib, json, sys
from carcnet.bots import RandomBot
from carcnet.engine import Game, GameSetup, Phase, Rules
out = []
for seed, players, every in json.loads(sys.argv[1]):
    rules = Rules(hills_sheep=True, river=every, abbot=every, inns=every, traders=every)
    game = Game(GameSetup(players=players, seed=seed, rules=rules))
    bot = RandomBot(seed)
    while game.phase is not Phase.GAME_OVER:
        game.apply(bot.choose(game.view()))
    out.append([game.digest.hex(), game.scores, hashlib.sha256(repr(game.events).encode()).hexdigest()])
print(json.dumps(out))
"""


def test_games_with_hills_do_not_depend_on_the_hash_seed():
    games = [[11, 3, False], [2**63 + 5, 5, True]]
    results = []
    for hash_seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(REPO)}
        done = subprocess.run([sys.executable, "-c", _HASHSEED_SCRIPT, json.dumps(games)], cwd=REPO, env=env,
                              capture_output=True, text=True, timeout=120, check=True)
        results.append(json.loads(done.stdout))
    assert results[0] == results[1]
    assert hashlib.sha256(json.dumps(results[0]).encode()).hexdigest()  # the games ran


def test_the_expansion_is_in_play_only_with_its_option():
    assert HillsSheep.active(HILLS, 6) and not HillsSheep.active(HILLS, 5) and not HillsSheep.active(Rules(), 6)
