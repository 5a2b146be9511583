"""Traders & Builders' goods (issue 33, in progress: the builder and the pig are to come): whoever
completes a city by placing its last tile takes its goods, whoever holds the city; at the end the
seats with the most tokens of each kind score 10, ties all (docs/rules.md; ZM-TB, W-TB)."""

from __future__ import annotations

import pytest

from carcnet.engine import Game, GameSetup, PointsScored, Rules, SetupError, parse_move
from carcnet.engine.events import GoodsScored, GoodsTaken
from carcnet.engine.state import _state_line

TRADERS = Rules(traders=True)


def _play(order: tuple[str, ...], moves: list[str], rules: Rules = TRADERS) -> Game:
    game = Game(GameSetup(players=2, draw_order=order, rules=rules))
    for move in moves:
        game.apply(parse_move(move))
    return game


def test_rulebook_the_goods_go_to_whoever_completes_the_city_not_to_its_holder():
    """W-TB: "The player who completed the city (by placing the last tile) takes the depicted goods
    tokens [...] who has control of the city has no impact on this step." Red's knight in the start
    tile's city and a corner with wine; Blue closes it: Red scores the city (3 tiles, 6), Blue takes
    the wine, and at the end Blue alone holds wine: 10."""
    game = _play(("TBT", "E"), ["place TBT 0,-1 180", "deploy 0", "place E 1,-1 270", "skip"])
    taken = [e for e in game.events if isinstance(e, GoodsTaken)]
    assert [(e.seat, e.goods) for e in taken] == [(1, (1, 0, 0))]
    assert ((0,), 6, False) in [(e.seats, e.points, e.final) for e in game.events if isinstance(e, PointsScored)]
    assert game.goods == [[0, 0, 0], [1, 0, 0]]
    final = [e for e in game.events if isinstance(e, GoodsScored)]
    assert [(e.kind, e.seats, e.points) for e in final] == [("wine", (1,), 10)]
    assert game.scores == [6, 10] and game.breakdown[1]["goods"] == [0, 10]


def test_an_incomplete_city_gives_no_goods_and_nobody_scores_a_kind_nobody_holds():
    game = _play(("TBT",), ["place TBT 0,-1 180", "deploy 0"])
    assert game.goods == [[0, 0, 0], [0, 0, 0]]
    assert not any(isinstance(e, (GoodsTaken, GoodsScored)) for e in game.events)
    assert game.scores == [2, 0]  # the incomplete city: 1 a tile


def test_ties_for_the_most_of_a_kind_all_score_10():
    """ZM-TB: "For each type (Wine, Grain, or Cloth), the player who has the most tokens scores 10
    points. In case of a tie for a type, tied players each score 10 points." Three seats holding
    wine 2/2/1, grain 0/0/0, cloth 1/3/0: Red and Blue score 10 for wine, Blue 10 for cloth, nobody
    for grain."""
    game = Game(GameSetup(players=3, seed=1, rules=TRADERS))
    game.goods = [[2, 0, 1], [2, 0, 3], [1, 0, 0]]
    scored = [(e.kind, e.seats, e.points, e.count) for e in game._goods_scoring()]
    assert scored == [("wine", (0, 1), 10, 2), ("cloth", (1,), 10, 3)]
    totals, events = game.projected_final()
    assert totals == [10, 20, 0] and sum(isinstance(e, GoodsScored) for e in events) == 2
    assert game.projected_scores() == totals


def test_the_state_line_names_the_goods_only_with_the_expansion():
    game = _play(("TBT", "E"), ["place TBT 0,-1 180", "deploy 0", "place E 1,-1 270"])
    game.apply(parse_move("skip"))
    assert " goods=0/0/0,1/0/0 pigs=1,1\n" in _state_line(game._snapshot())
    plain = Game(GameSetup(players=2, draw_order=("E",)))
    assert "goods=" not in _state_line(plain._snapshot())
    assert "traders=1" in GameSetup(players=2, seed=1, rules=TRADERS).canonical()


def test_traders_is_played_from_rules_version_4_on():
    for version in (2, 3):
        with pytest.raises(SetupError, match=f"rules version {version} has no traders"):
            GameSetup(players=2, seed=1, rules=TRADERS, rules_version=version).validate()


def test_a_saved_game_names_traders_and_only_then():
    from carcnet.log import LogHeader, Seat
    from carcnet.log.codec import from_wire, options_to_wire, to_wire

    assert "traders" not in options_to_wire(Rules())
    assert options_to_wire(TRADERS)["traders"] is True
    header = LogHeader.new([Seat("Ann", "red"), Seat("Bob", "blue")], seed=5, options=TRADERS)
    back = from_wire(to_wire(header))
    assert isinstance(back, LogHeader) and back.options == TRADERS and back.setup().rules.traders


# ------------------------------------------------------------------ the pig


def test_the_pig_joins_its_owner_s_farmer_and_adds_1_a_city():
    """CS-T: "The pig can only be placed on meadows, which already has at least one own follower on it
    and there it will remain until the end of the game. [...] If you get points for a meadow at the
    end, where you also have a pig on it, you receive 4 instead of 3 points for each castle." Red's
    farmer north of the start tile's road; Blue completes the start city; Red extends the farm and
    puts its pig there: at the end the farm scores Red 3 for the city and the pig 1 more."""
    game = _play(("U", "E", "U"), ["place U 1,0 90", "deploy 2", "place E 0,-1 180", "skip", "place U -1,0 90"])
    options = [str(m) for m in game.deploy_options()]
    assert "deploy 2 pig" in options and "deploy 1 pig" not in options  # not the south farm: no farmer of Red's
    assert "deploy 2" not in options  # the farm is held
    game.apply(parse_move("deploy 2 pig"))
    assert game.pigs == [0, 1] and game.phase.value == "over"
    farm = [(e.seats, e.points, e.pig) for e in game.events if isinstance(e, PointsScored) and e.final]
    assert farm == [((0,), 3, False), ((0,), 1, True)]
    assert game.scores == [4, 0]  # the city Blue completed held no knight


def test_the_pig_is_refused_where_its_owner_has_no_farmer_and_without_the_expansion():
    from carcnet.engine import IllegalMoveError

    game = _play(("U", "E", "U"), ["place U 1,0 90", "deploy 2", "place E 0,-1 180", "skip", "place U -1,0 90"])
    with pytest.raises(IllegalMoveError, match="farm that holds one of your farmers"):
        game.apply(parse_move("deploy 1 pig"))  # the south farm: nobody's
    with pytest.raises(IllegalMoveError, match="farm only"):
        game.apply(parse_move("deploy 0 pig"))  # the road
    plain = _play(("U",), ["place U 1,0 90"], Rules())
    with pytest.raises(IllegalMoveError, match="without Traders & Builders"):
        plain.apply(parse_move("deploy 2 pig"))
