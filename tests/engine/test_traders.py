"""Traders & Builders (issue 33), the rulebooks' examples and rulings as positions: whoever completes
a city by placing its last tile takes its goods, whoever holds the city; at the end the seats with
the most tokens of each kind score 10, ties all; the pig (1 more a city to its farmer's owner) and the
builder (a second tile, once) (docs/rules.md; ZM-TB, W-TB, CS-T, PG-B)."""

from __future__ import annotations

import pytest

from carcnet.engine import Figure, Game, GameSetup, PointsScored, Rules, SetupError, parse_move
from carcnet.engine.events import GoodsScored, GoodsTaken
from carcnet.engine.expansions import traders

TRADERS = Rules(traders=True)


def _play(order: tuple[str, ...], moves: list[str], rules: Rules = TRADERS, version: int = 4) -> Game:
    """The game of *order* after *moves*, under rules *version* (4: the second tile drawn at once)."""
    game = Game(GameSetup(players=2, draw_order=order, rules=rules, rules_version=version))
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
    assert traders.goods(game) == [[0, 0, 0], [1, 0, 0]]
    final = [e for e in game.events if isinstance(e, GoodsScored)]
    assert [(e.kind, e.seats, e.points) for e in final] == [("wine", (1,), 10)]
    assert game.scores == [6, 10] and game.breakdown[1]["goods"] == [0, 10]


def test_an_incomplete_city_gives_no_goods_and_nobody_scores_a_kind_nobody_holds():
    game = _play(("TBT",), ["place TBT 0,-1 180", "deploy 0"])
    assert traders.goods(game) == [[0, 0, 0], [0, 0, 0]]
    assert not any(isinstance(e, (GoodsTaken, GoodsScored)) for e in game.events)
    assert game.scores == [2, 0]  # the incomplete city: 1 a tile


def test_ties_for_the_most_of_a_kind_all_score_10():
    """ZM-TB: "For each type (Wine, Grain, or Cloth), the player who has the most tokens scores 10
    points. In case of a tie for a type, tied players each score 10 points." Three seats holding
    wine 2/2/1, grain 0/0/0, cloth 1/3/0: Red and Blue score 10 for wine, Blue 10 for cloth, nobody
    for grain."""
    game = Game(GameSetup(players=3, seed=1, rules=TRADERS))
    traders.goods(game)[:] = [[2, 0, 1], [2, 0, 3], [1, 0, 0]]
    scored = [(e.kind, e.seats, e.points, e.count) for e in game._expansions_final()]
    assert scored == [("wine", (0, 1), 10, 2), ("cloth", (1,), 10, 3)]
    totals, events = game.projected_final()
    assert totals == [10, 20, 0] and sum(isinstance(e, GoodsScored) for e in events) == 2
    assert game.projected_scores() == totals


def test_the_state_line_names_the_goods_only_with_the_expansion():
    game = _play(("TBT", "E"), ["place TBT 0,-1 180", "deploy 0", "place E 1,-1 270"])
    game.apply(parse_move("skip"))
    assert " goods=0/0/0,1/0/0 pigs=1,1 builders=1,1 second=0\n" in game.state_line()
    plain = Game(GameSetup(players=2, draw_order=("E",)))
    assert "goods=" not in plain.state_line()
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
    assert game.supplies[Figure.PIG] == [0, 1] and game.phase.value == "over"
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


# ------------------------------------------------------------------ the builder


def _builder_game(version: int = 4) -> Game:
    """Red's thief on the start tile's road (extended east), then Red's builder on it; Blue closes
    the start city and places a cap beside it."""
    return _play(("U", "E", "U", "E", "U", "U", "E"), version=version, moves=[
        "place U 1,0 90", "deploy 0",  # Red: the road, a thief
        "place E 0,-1 180", "skip",  # Blue
        "place U 2,0 90", "deploy 0 builder",  # Red: the road again, the builder beside the thief
        "place E 1,-1 0", "skip",  # Blue
    ])


def test_rulebook_extending_the_builder_s_road_gives_a_second_tile_once():
    """ZM-TB: "If you place a Land tile that continues the road or city your builder occupies, you may
    immediately draw and place another Land tile." W-TB1: "There is no chain reaction. If the play
    continues the road or city which includes their builder, they may not draw a third tile.\""""
    from carcnet.engine.events import BuilderTurn

    game = _builder_game()
    assert game.supplies[Figure.BUILDER] == [0, 1] and game.seat == 0
    game.apply(parse_move("place U 3,0 90"))
    game.apply(parse_move("skip"))
    assert [e.seat for e in game.events if isinstance(e, BuilderTurn)] == [0]
    assert game.seat == 0 and game.phase.value == "place" and game.drawn == "U"  # Red's second tile
    assert "second=1" in game.state_line()
    game.apply(parse_move("place U -1,0 90"))  # it extends the builder's road again: no third tile
    game.apply(parse_move("skip"))
    assert game.seat == 1 and sum(isinstance(e, BuilderTurn) for e in game.events) == 1


def test_the_builder_needs_its_owner_s_follower_and_counts_for_no_majority():
    from carcnet.engine import IllegalMoveError

    game = _play(("U", "E", "U"), ["place U 1,0 90", "deploy 0", "place E 0,-1 180", "skip", "place U 2,0 90"])
    assert "deploy 0 builder" in [str(m) for m in game.deploy_options()]
    with pytest.raises(IllegalMoveError, match="road or city only"):
        game.apply(parse_move("deploy 1 builder"))
    fresh = _play(("U",), ["place U 1,0 90"])  # nobody's road yet
    with pytest.raises(IllegalMoveError, match="holds one of your followers"):
        fresh.apply(parse_move("deploy 0 builder"))
    assert game.majority([(0, Figure.BUILDER, 1), (0, Figure.MEEPLE, 2), (1, Figure.MEEPLE, 3)]) == (0, 1)
    assert game.majority([(0, Figure.PIG, 1), (0, Figure.MEEPLE, 2), (1, Figure.MEEPLE, 3)]) == (0, 1)


def test_the_builder_comes_back_with_its_feature_scored():
    """PG-B: "Your builder and your meeples are all returned to your supply [...] when the feature
    they occupy is scored." Red ends the builder's road with a cloister to the east (a second tile
    follows) and closes it with a cloister to the west: 5 tiles, 5 points; the thief and the builder
    come back."""
    game = _play(("U", "E", "U", "E", "A", "A"), [
        "place U 1,0 90", "deploy 0", "place E 0,-1 180", "skip", "place U 2,0 90", "deploy 0 builder",
        "place E 1,-1 0", "skip",
        "place A 3,0 90", "skip",  # extends the builder's road: Red's second tile follows
        "place A -1,0 270", "skip",  # closes it
    ])
    assert ((0,), 5, False) in [(e.seats, e.points, e.final) for e in game.events if isinstance(e, PointsScored)]
    assert game.supplies[Figure.BUILDER] == [1, 1] and game.supply[0] == 7
    assert game.phase.value == "over"


def test_random_games_with_traders_keep_every_figure_and_replay_the_same():
    """Property (issue 33): with Traders & Builders alone and with every other option, after every
    move each seat's builder and pig are in its supply or on the board, scores never fall, and a
    replay gives the same digests."""
    import random

    from carcnet.bots import random_move
    from carcnet.engine import Figure, Phase, replay
    from carcnet.engine.events import BuilderTurn

    turns = 0
    for rules in (TRADERS, Rules(traders=True, inns=True, river=True, abbot=True)):
        for seed in range(40):
            game = Game(GameSetup(players=2 + seed % 4, seed=seed, rules=rules))
            rng = random.Random(seed)
            before = list(game.scores)
            for _ in range(2000):
                if game.phase is Phase.GAME_OVER:
                    break
                game.apply(random_move(game, rng))
                assert all(a >= b for a, b in zip(game.scores, before, strict=True))
                before = list(game.scores)
                on = [f for _s, f, _p, _i in game.figures()]
                assert on.count(Figure.PIG) + sum(game.supplies[Figure.PIG]) == game.players
                assert on.count(Figure.BUILDER) + sum(game.supplies[Figure.BUILDER]) == game.players
            assert game.phase is Phase.GAME_OVER
            assert replay(game.setup, game.moves).digests == game.digests
            turns += sum(isinstance(e, BuilderTurn) for e in game.events)
    assert turns > 0  # random players got second tiles


def test_a_city_s_goods_show_in_its_description():
    game = _play(("TBT",), ["place TBT 0,-1 180"])
    city = next(f for f in game.features() if any(f.goods))
    assert city.goods == (1, 0, 0) and city.describe() == "city, 2 tiles, 1 wine"



def test_rulebook_three_farmers_tied_two_with_a_pig_score_8_8_and_6():
    """W-TB's example: three players tied on a farm beside two completed cities, two of them with a
    pig: 8, 8 and 6 points (3 a city each, 1 more a city with the pig). Red's farmer north of the
    start tile's road, Blue's south of it, Yellow's north of the start city (which Yellow closes);
    Red begins a city whose field joins Red's and Yellow's farms and puts its pig there; Blue closes
    that city; Yellow ends the road with a cloister, joining the farms north and south of it, and
    puts its pig on the farm."""
    game = Game(GameSetup(players=3, draw_order=("U", "U", "E", "E", "E", "A"), rules=TRADERS))
    for move in ["place U 1,0 90", "deploy 2",  # Red's farmer, north of the road
                 "place U -1,0 90", "deploy 1",  # Blue's, south of it
                 "place E 0,-1 180", "deploy 1",  # Yellow closes the start city; its farmer north of it
                 "place E 1,-1 0", "deploy 1 pig",  # Red: a city begun, the farms joined, its pig
                 "place E 1,-2 180", "skip",  # Blue closes that city
                 "place A 2,0 90"]:  # Yellow: the road ends, the farms north and south of it join
        game.apply(parse_move(move))
    pig = [str(m) for m in game.deploy_options() if str(m).endswith(" pig")]
    assert len(pig) == 1
    game.apply(parse_move(pig[0]))
    assert game.phase.value == "over" and game.supplies[Figure.PIG] == [0, 1, 0]
    farm = sorted((e.seats, e.points, e.pig) for e in game.events if isinstance(e, PointsScored) and e.final)
    assert farm == [((0,), 2, True), ((0, 1, 2), 6, False), ((2,), 2, True)]
    assert game.scores == [8, 6, 8]


def test_the_second_tile_comes_when_the_first_completes_the_builder_s_road():
    """W-TB1 (the publisher's note): the second tile comes "even if the builder is no longer present
    by the end of the first part of the turn". Blue ends the road's west end with a cloister; Red's
    first tile ends its east end: the road (5 tiles) scores, the thief and the builder come back, and
    Red still places a second tile, on which its builder may go again beside a follower of its own."""
    from carcnet.engine.events import BuilderTurn

    game = _play(("U", "A", "U", "E", "A", "E", "U", "G", "U"), [
        "place U 1,0 90", "deploy 0",  # Red: the road, a thief
        "place A -1,0 270", "skip",  # Blue ends its west end
        "place U 2,0 90", "deploy 0 builder",  # Red: the builder beside the thief
        "place E 0,-1 180", "skip",  # Blue
        "place A 3,0 90", "skip",  # Red ends the road: it scores, the figures come back
    ])
    assert ((0,), 5, False) in [(e.seats, e.points, e.final) for e in game.events if isinstance(e, PointsScored)]
    assert game.supplies[Figure.BUILDER] == [1, 1] and game.supply[0] == 7
    assert [e.seat for e in game.events if isinstance(e, BuilderTurn)] == [0]
    assert game.seat == 0 and game.phase.value == "place" and game.drawn == "E"  # the second tile
    game.apply(parse_move("place E 1,-1 0"))
    game.apply(parse_move("deploy 0"))  # a knight in the city it begins
    assert game.seat == 1
    game.apply(parse_move("place U -1,1 90"))  # Blue, out of the way, south of the cloister
    game.apply(parse_move("skip"))
    game.apply(parse_move("place G 1,-2 0"))  # Red's city grows north: the builder goes beside the knight
    assert "deploy 0 builder" in [str(m) for m in game.deploy_options()]
    game.apply(parse_move("deploy 0 builder"))
    assert game.supplies[Figure.BUILDER] == [0, 1]


def test_rules_5_ask_before_the_second_tile_and_take_it():
    """ZM-TB: "you *may* immediately draw and place another Land tile": under rules 5 the turn whose
    tile extends the builder's road ends with the question, before the tile is drawn (the same seat,
    no tile drawn); taken, the seat draws it, as under rules 4."""
    from carcnet.engine import Phase, SecondTile
    from carcnet.engine.events import BuilderTurn

    game = _builder_game(version=5)
    game.apply(parse_move("place U 3,0 90"))
    game.apply(parse_move("skip"))
    assert game.phase is Phase.STEP and game.seat == 0 and game.actor == 0 and game.drawn is None
    assert game.legal_moves() == [SecondTile(True), SecondTile(False)]
    assert game.state_line().startswith("step second-tile seat=0 drawn=- next=5 ")
    assert " second=0\n" in game.state_line() and not any(isinstance(e, BuilderTurn) for e in game.events)
    assert game.author(SecondTile(True)) == (0, 0)
    events = game.apply(parse_move("second-tile take"))
    assert [type(e).__name__ for e in events] == ["BuilderTurn", "TileDrawn"]
    assert game.phase is Phase.PLACE_TILE and game.seat == 0 and game.drawn == "U" and " second=1\n" in game.state_line()
    game.apply(parse_move("place U -1,0 90"))  # extends the builder's road again: no third tile, no question
    game.apply(parse_move("skip"))
    assert game.phase is Phase.PLACE_TILE and game.seat == 1 and " second=0\n" in game.state_line()


def test_rules_5_a_declined_second_tile_is_the_next_seat_s_draw():
    """Declined, the next seat's turn begins and draws the tile Red would have drawn; Red's builder
    stays on its road (a later extension asks again)."""
    from carcnet.engine import Phase

    game = _builder_game(version=5)
    game.apply(parse_move("place U 3,0 90"))
    game.apply(parse_move("skip"))
    events = game.apply(parse_move("second-tile decline"))
    assert [type(e).__name__ for e in events] == ["SecondTileDeclined", "TileDrawn"]
    assert events[0].seat == 0 and events[1].seat == 1
    assert game.phase is Phase.PLACE_TILE and game.seat == 1 and game.drawn == "U"
    assert game.supplies[Figure.BUILDER] == [0, 1] and " second=0\n" in game.state_line()


def test_rules_5_refuse_a_move_out_of_its_place_and_keep_the_game():
    """A placement while the question waits, an answer when nothing is asked, and an answer in a
    game without the expansion are refused with their reasons; the game is unchanged."""
    from carcnet.engine import IllegalMoveError, SecondTile

    game = _builder_game(version=5)
    with pytest.raises(IllegalMoveError, match="nothing is asked") as early:
        game.apply(SecondTile(True))
    assert early.value.reason == "wrong-phase"
    game.apply(parse_move("place U 3,0 90"))
    game.apply(parse_move("skip"))
    digest = game.digest
    with pytest.raises(IllegalMoveError, match="second tile first") as placed:
        game.apply(parse_move("place U 4,0 90"))
    assert placed.value.reason == "wrong-phase" and game.digest == digest
    plain = Game(GameSetup(players=2, seed=1))
    with pytest.raises(IllegalMoveError, match="without Traders & Builders"):
        plain.apply(SecondTile(False))


def test_rules_5_a_copy_mid_question_and_a_replay_answer_alike():
    """A copy made while the question waits plays on alone; a replay of the moves reaches the same
    digests; the log's wire form of the answer reads back."""
    from carcnet.engine import SecondTile, replay
    from carcnet.log.codec import from_wire, to_wire

    game = _builder_game(version=5)
    game.apply(parse_move("place U 3,0 90"))
    game.apply(parse_move("skip"))
    other = game.copy()
    other.apply(SecondTile(False))
    game.apply(SecondTile(True))
    assert other.seat == 1 and game.seat == 0
    for played in (game, other):
        assert replay(played.setup, played.moves).digests == played.digests
    for answer in (SecondTile(True), SecondTile(False)):
        assert from_wire(to_wire(answer)) == answer and parse_move(str(answer)) == answer
    with pytest.raises(Exception, match="take must be a bool"):
        from_wire({"type": "second-tile", "take": 1})
