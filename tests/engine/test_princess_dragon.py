"""The Princess & the Dragon, so far its tiles, the volcano and the dragon: the rulebooks' examples as
positions (``docs/rules-next.md`` §4, P1–P3 and P10, each with its source), and properties over
random games with every combination of expansions.

Conventions: x east, y south; the start tile D at (0, 0) has its city to the north and its road
east–west. Red is seat 0, Blue seat 1.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from carcnet.bots import make_bot, random_move
from carcnet.engine import (
    MEEPLES_PER_PLAYER,
    DeployMeeple,
    DragonMoved,
    FairyScored,
    Figure,
    Game,
    GameSetup,
    IllegalMoveError,
    MeepleDeployed,
    MeepleReturned,
    Phase,
    PointsScored,
    Position,
    Rules,
    SegmentKind,
    TileHeld,
    parse_move,
    replay,
    tile_kind,
)
from carcnet.engine.expansions import hooks_for
from carcnet.engine.expansions.dragon import dragon_at
from carcnet.engine.tiles import DRAGON_DESIGNS, expansion_tile_counts, tileset

DRAGON = Rules(princess_dragon=True)
P = Position


def _play(order: tuple[str, ...], moves: list[str], rules: Rules = DRAGON, players: int = 2) -> Game:
    game = Game(GameSetup(players=players, draw_order=order, rules=rules))
    for move in moves:
        game.apply(parse_move(move))
    return game


# ------------------------------------------------------------------------------------ the tiles


def test_the_box_holds_30_tiles_6_volcanoes_12_dragons_6_princesses_6_portals():
    """W-PD2 "Contents" (PG-D: "6 Volcano tiles 12 Dragon tiles 6 Princess tiles 6 Magic Portal
    tiles"); JCloisterZone's ``princess-and-dragon`` sets."""
    counts = expansion_tile_counts("dragon")
    assert sum(counts.values()) == 30 and len(DRAGON_DESIGNS) == 29
    marks = Counter(mark for letter, n in counts.items() for mark in tile_kind(letter).marks for _ in range(n))
    assert marks == {"volcano": 6, "dragon": 12, "princess": 6, "portal": 6}
    princesses = [k.letter for k in DRAGON_DESIGNS if any(s.princess for s in k.segments)]
    assert princesses == [k.letter for k in DRAGON_DESIGNS if "princess" in k.marks]
    _, (land,) = tileset(dragon=True, abbot=True)
    assert land["PDBG"] == land["PDJG"] == 1 and "PDB" not in land and sum(land.values()) == 71 + 30


def test_p10_the_tunnel_is_one_road_and_its_fields_stay_apart():
    """PD17 (W-PD2: "The two road segments that proceed through the tunnel are part of a single
    connected road. The fields, however, are separate.")."""
    kind = tile_kind("PDQ")
    road = next(s for s in kind.segments if s.kind is SegmentKind.ROAD)
    assert road.tunnel and len(road.sides) == 2
    fields = [s for s in kind.segments if s.kind is SegmentKind.FIELD]
    assert [len(f.halves) for f in fields] == [2, 2]  # north (both sides of the road), south


def test_p10_the_monastery_in_a_city_completes_with_its_neighbours():
    """PD16 (W-PD2: "The monastery is complete when it is surrounded by tiles, even if the city is
    still under construction"): PDO has a city and a cloister segment of their own."""
    kinds = [s.kind for s in tile_kind("PDO").segments]
    assert kinds == [SegmentKind.CITY, SegmentKind.CLOISTER, SegmentKind.FIELD]


# ------------------------------------------------------------------------------------ the dragon


P1 = ["place PD3 1,0 0", "skip",  # Red: the volcano, its road east–west; the dragon flies to (1,0)
      "place U 2,0 90", "deploy 0",  # Blue: a thief on the road
      "place PDH 3,0 0", "deploy 1"]  # Red: a dragon tile; a farmer on its north field


def test_p1_the_dragon_eats_and_meets_a_dead_end():
    """PD5, PD6 (W-PD2: "players take turns moving the dragon one space at a time … until the dragon
    has moved 6 spaces or is unable to move"; what it eats: CAR via JCZ #189)."""
    game = _play(("PD3", "U", "PDH", "V"), P1)
    assert dragon_at(game) == (1, 0)
    assert game.phase is Phase.STEP and game.actor == 0  # step 1: Red, the seat whose turn it is
    assert {str(m) for m in game.legal_moves()} == {"dragon 2,0", "dragon 0,0"}
    game.apply(parse_move("dragon 2,0"))  # Blue's thief eaten
    assert game.actor == 1 and [str(m) for m in game.legal_moves()] == ["dragon 3,0"]
    with pytest.raises(IllegalMoveError, match="the dragon may go to") as refused:
        game.apply(parse_move("dragon 1,0"))  # a tile of this movement
    assert refused.value.reason == "bad-dragon"
    game.apply(parse_move("dragon 3,0"))  # Red's farmer eaten; step 3 has no target: the movement ends
    assert dragon_at(game) == (3, 0) and game.phase is Phase.PLACE_TILE and game.seat == 1
    eaten = [(e.seat, e.figure, e.position) for e in game.events if isinstance(e, MeepleReturned)]
    assert eaten == [(1, Figure.MEEPLE, P(2, 0)), (0, Figure.MEEPLE, P(3, 0))]
    assert game.supply == [MEEPLES_PER_PLAYER, MEEPLES_PER_PLAYER] and game.scores == [0, 0]
    assert [e.seat for e in game.events if isinstance(e, DragonMoved)] == [None, 0, 1]


def test_p1_no_figure_goes_on_the_volcano():
    """PD2 (W-PD2: "you may not place a meeple on a Volcano tile")."""
    game = _play(("PD3", "U"), ["place PD3 1,0 0"])
    assert [str(m) for m in game.legal_moves()] == ["skip"]
    with pytest.raises(IllegalMoveError, match="dragon's tile") as refused:
        game.apply(parse_move("deploy 0"))
    assert refused.value.reason == "bad-segment"


def test_p2_exactly_six_steps_the_seats_in_turn():
    """PD5 (HIG-PD: "moved exactly 6 times. It does not matter how many players are playing")."""
    moves = ["place PD3 1,0 0", "skip"]
    order = ["PD3"]
    for x in range(2, 8):
        moves += [f"place U {x},0 90", "deploy 0" if x == 5 else "skip"]
        order.append("U")
    moves += ["place PDH 8,0 0", "skip"]
    order += ["PDH", "V"]
    game = _play(tuple(order), moves, players=3)
    assert game.seat == 1 and game.phase is Phase.STEP
    movers = []
    for x in range(2, 8):
        movers.append(game.actor)
        game.apply(parse_move(f"dragon {x},0"))
    assert movers == [1, 2, 0, 1, 2, 0]  # the seat whose turn it is first, then seat order
    assert dragon_at(game) == (7, 0) and game.phase is Phase.PLACE_TILE  # six steps: one short of the dragon tile
    assert [(e.seat, e.position) for e in game.events if isinstance(e, MeepleReturned)] == [(1, P(5, 0))]


def test_p3_a_dragon_tile_before_any_volcano_waits():
    """PD3 (HIG-PD: "this land tile will be placed apart. You have to pick another land tile. As soon
    as the dragon comes into play through a volcano land tile, all of the land tiles you placed apart
    are coming back to the land tile stack")."""
    game = _play(("PDG", "U", "PD3", "V"), [])
    assert game.drawn == "U" and game.held == ["PDG"] and game.seat == 0
    assert [e.tile for e in game.events if isinstance(e, TileHeld)] == ["PDG"]
    assert game.tiles_left == 3 and game.remaining() == {"PD3": 1, "PDG": 1, "V": 1}
    for move in ["place U 1,0 90", "skip", "place PD3 2,0 0", "skip"]:
        game.apply(parse_move(move))
    assert dragon_at(game) == (2, 0) and game.held == [] and game.drawn == "V"
    assert game.deck[game.deck_index:] == ("PDG",)  # a given order: the held tiles after the rest


def test_held_tiles_go_back_into_a_seeded_pile_shuffled():
    """deck.md §8: with a seed, the tiles not drawn and the held ones are shuffled together when the
    first volcano is placed."""
    for seed in range(40):
        game = Game(GameSetup(players=2, seed=seed, rules=DRAGON))
        held: list[str] = []
        while game.phase is not Phase.GAME_OVER and dragon_at(game) is None:
            held = list(game.held)
            game.apply(game.legal_moves()[0])
        if held and game.phase is not Phase.GAME_OVER:
            rest = Counter(game.deck[game.deck_index:])
            assert game.held == [] and not Counter(held) - rest  # every held tile is back in the pile
            assert rest + Counter([game.drawn] if game.drawn else []) == Counter(game.remaining()) + Counter(
                [game.drawn] if game.drawn else [])
            return
    pytest.fail("no seed held a dragon tile before its first volcano")


def test_the_dragon_never_enters_a_tile_twice_in_a_movement_and_eats_everything():
    for seed in range(15):
        game = Game(GameSetup(players=2 + seed % 4, seed=seed, rules=DRAGON))
        bots = [make_bot("random", seed + s) for s in range(game.players)]
        path: list[Position] = []
        while game.phase is not Phase.GAME_OVER:
            move = bots[game.actor].choose(game.view())
            before = game.phase
            events = game.apply(move)
            if before is Phase.STEP:
                moved = [e.position for e in events if isinstance(e, DragonMoved)]
                assert len(moved) == 1 and moved[0] not in path
                path.append(moved[0])
                assert not [f for f in game.figures() if f[2] == moved[0]]  # nothing left on the tile
            else:
                path = [P(*dragon_at(game))] if dragon_at(game) else []  # type: ignore[misc]


# ------------------------------------------------------------------------------------ properties


def _every_combination() -> list[Rules]:
    return [Rules(princess_dragon=True, river=river, abbot=abbot, inns=inns, traders=traders, hills_sheep=hills)
            for river, abbot, inns, traders, hills in itertools.product((False, True), repeat=5)]


@pytest.mark.parametrize("rules", _every_combination(), ids=lambda r: r.words().replace(" ", ","))
def test_random_games_with_the_dragon_end_return_every_figure_and_replay_the_same(rules: Rules):
    """With every combination of expansions: every game ends, every figure is in supply or on the
    board, every tile is placed, set aside, under a hill or held (no volcano came), and a replay
    gives the same digests."""
    for seed in range(3):
        players = 2 + seed % 5
        game = Game(GameSetup(players=players, seed=seed, rules=rules))
        bots = [make_bot("greedy" if s % 2 else "random", seed * 7 + s) for s in range(players)]
        while game.phase is not Phase.GAME_OVER:
            game.apply(bots[game.actor].choose(game.view()))
            on_board = Counter((s, f) for s, f, _, _ in game.figures())
            for s in range(players):
                assert game.supply[s] + on_board[(s, Figure.MEEPLE)] == MEEPLES_PER_PLAYER
                for figure, supply in game.supplies.items():
                    assert supply[s] + on_board[(s, figure)] == hooks_for(rules, 6).rule_of[figure].per_seat
        placed = len(game.board.tiles) - 1
        assert placed + len(game.set_aside) + game.hidden + len(game.held) == rules.pile_size()
        assert not game.held or dragon_at(game) is None
        assert replay(game.setup, game.moves).digests == game.digests
        assert not any(isinstance(e, PointsScored) and e.points < 0 for e in game.events)


# ------------------------------------------------------------------------------------ the princess


P8 = ["place N 0,-1 180", "deploy 0"]  # Blue: a knight in the city D–N, open to the east (Red: a first tile)


def test_p8_the_princess_sends_a_knight_home():
    """PD14 (W-PD2, WICA-OP step 3d: "you may remove a knight of your choice and skip all of Step 4";
    CAR: "the player may remove one knight")."""
    moves = ["place U -1,0 90", "skip", *P8, "place PDB 1,-1 270"]
    game = _play(("U", "N", "PDB", "V"), moves)
    options = {str(m) for m in game.legal_moves()}
    assert "princess 0,-1 0" in options and "deploy 1" in options and "skip" in options  # may, not must
    game.apply(parse_move("princess 0,-1 0"))
    assert [(e.seat, e.position) for e in game.events if isinstance(e, MeepleReturned)] == [(1, P(0, -1))]
    assert game.supply == [MEEPLES_PER_PLAYER, MEEPLES_PER_PLAYER] and game.seat == 1  # the turn is over
    with pytest.raises(IllegalMoveError, match="no knight there") as refused:
        _play(("U", "N", "PDB", "V"), moves).apply(parse_move("princess 0,0 0"))
    assert refused.value.reason == "bad-princess"


def test_a_princess_in_a_city_without_knights_is_an_ordinary_tile():
    game = _play(("PDB", "V"), ["place PDB 0,-1 180"])
    assert not any(str(m).startswith("princess") for m in game.legal_moves())


# ------------------------------------------------------------------------------------ the fairy


P4 = ["place U 1,0 90", "skip",
      "place U -1,0 90", "deploy 0",  # Blue: a thief on the road (-1,0)…(1,0)
      "place B 0,1 0", "deploy 0",  # Red: a monk
      "place B 1,1 0", "fairy -1,0 0",  # Blue: no figure; the fairy next to his thief
      "place W 2,0 0", "skip",  # Red: his turn begins, the fairy is by no follower of his: nothing
      "place W -2,0 0", "skip"]  # Blue: his turn begins: +1; the road W–U–D–U–W completed: 5 + the fairy's 3


def test_p4_the_fairy_s_point_and_its_three_points():
    """PD11, PD12 (W-PD2; CAR via JCZ #158: the owner "receives 3 points, independent of how much (if
    anything) the player otherwise receives from the scoring")."""
    game = _play(("U", "U", "B", "B", "W", "W", "V", "V"), P4)
    fairy = [(e.seats, e.points) for e in game.events if isinstance(e, FairyScored)]
    assert fairy == [((1,), 1), ((1,), 3)]
    assert game.scores[1] == 1 + 5 + 3 and game.breakdown[1]["fairy"] == [4, 0]
    assert " fairy=-1,0,- " in f"{game.state_line().rstrip()} "  # the thief gone home: next to nobody (PD13)
    game.apply(parse_move("place V 3,0 0"))  # (Red)
    game.apply(parse_move("skip"))
    assert [e for e in game.events if isinstance(e, FairyScored)][-1].points == 3  # no new point at Blue's turn


P5 = ["place PD3 1,0 0", "skip",  # Red: the volcano, the dragon to (1,0)
      "place U -1,0 90", "deploy 0",  # Blue: a thief
      "place B 0,1 0", "deploy 0",  # Red: a monk
      "place B 1,1 0", "fairy -1,0 0",  # Blue: the fairy next to his thief
      "place PDH 2,0 0", "skip",  # Red: a dragon tile, no figure
      "dragon 0,0"]  # step 1, Red


def test_p5_the_fairy_stops_the_dragon():
    """PD10 (W-PD1: "The dragon cannot enter a tile with the fairy on it")."""
    game = _play(("PD3", "U", "B", "B", "PDH", "V", "V"), P5)
    assert game.actor == 1 and {str(m) for m in game.legal_moves()} == {"dragon 0,1"}
    with pytest.raises(IllegalMoveError, match="the dragon may go to"):
        game.apply(parse_move("dragon -1,0"))
    game.apply(parse_move("dragon 0,1"))  # Red's monk eaten
    game.apply(parse_move("dragon 1,1"))  # Red's only target; step 4 has none
    assert game.phase is Phase.PLACE_TILE and dragon_at(game) == (1, 1)
    assert (1, Figure.MEEPLE, P(-1, 0), 0) in game.figures()  # Blue's thief, safe by the fairy


def test_p6_the_fairy_moved_before_the_dragon_moves():
    """PD4, PD9 (W-PD2's community question: moving the fairy before the dragon moves is allowed)."""
    moves = [*P5[:8], "place PDH 2,0 0", "fairy 0,1 0", "dragon 0,0"]
    game = _play(("PD3", "U", "B", "B", "PDH", "V", "V"), moves)
    assert [str(m) for m in game.legal_moves()] == ["dragon -1,0"]  # (0,1) is the fairy's tile now
    game.apply(parse_move("dragon -1,0"))  # Blue eats his own thief
    assert game.phase is Phase.PLACE_TILE and (0, Figure.MEEPLE, P(0, 1), 0) in game.figures()


# ------------------------------------------------------------------------------------ the magic portal


P9 = ["place U 1,0 90", "deploy 0",  # Red: a thief on the road through D
      "place PDW -1,0 0"]  # Blue: a portal; its E–S curve joins the same road


def _portal_game(order: tuple[str, ...] = ("U", "PDW", "V", "V"), moves: list[str] = P9, rules: Rules = DRAGON,
                 players: int = 2) -> Game:
    return _play(order, moves, rules, players)


def test_p9_the_portal_lets_a_follower_go_on_any_free_feature():
    """PD15 (HIG-PD: "you are allowed to place a follower on any land tile you want, except on finished
    streets, castles and so on"; JCZ ``AbstractActionPhase``): every free feature of every tile, the
    portal's own as usual; never a feature a figure holds, wherever it runs."""
    game = _portal_game()
    options = {str(m) for m in game.deploy_options()}
    assert {"deploy 0", "deploy 2", "deploy 3", "deploy 4"} <= options  # PDW: its N–W road and its fields
    assert "deploy 1" not in options  # PDW's E–S road is Red's thief's road
    assert "deploy 0 @0,0" in options  # D's city
    assert {"deploy 2 @0,0", "deploy 3 @0,0"} <= options  # D's fields
    assert not any(o.startswith("deploy 1 @0,0") or o.startswith("deploy 0 @1,0") for o in options)  # the road
    d, u = tile_kind("D"), tile_kind("U")
    kinds_at = {P(0, 0): d, P(1, 0): u}
    for move in game.deploy_options():
        if move.at is not None:
            assert move.at in kinds_at and move.figure is Figure.MEEPLE
    game.apply(parse_move("deploy 0 @0,0"))
    assert (1, Figure.MEEPLE, P(0, 0), 0) in game.figures() and game.supply[1] == MEEPLES_PER_PLAYER - 1
    assert game.seat == 0 and game.phase is Phase.PLACE_TILE
    assert "deploy 0 @0,0" in [str(m) for m in game.moves]


def test_p9_the_portal_refuses_what_the_rules_forbid():
    """PD15: no feature a figure holds, no position without a tile, no other tile without a portal."""
    for text, reason in (("deploy 0 @1,0", "feature-occupied"),  # U's road: Red's thief
                         ("deploy 0 @5,5", "bad-position"),  # no tile there
                         ("deploy 0 @-1,0", "bad-position"),  # the portal's own tile takes no position
                         ("deploy 9 @0,0", "bad-segment")):
        with pytest.raises(IllegalMoveError) as refused:
            _portal_game().apply(parse_move(text))
        assert refused.value.reason == reason, text
    plain = _play(("U", "U", "V"), ["place U 1,0 90", "skip", "place U -1,0 90"])
    assert all(m.at is None for m in plain.deploy_options())
    with pytest.raises(IllegalMoveError, match="on the tile just placed") as refused:
        plain.apply(parse_move("deploy 0 @0,0"))
    assert refused.value.reason == "bad-position"


def test_p9_no_completed_feature_through_the_portal_but_on_the_portal_tile():
    """PD15 (JCZ #392: no completed city through a portal; HIG-PD "except on finished streets,
    castles"): D's city completed by an E above it is refused through the portal."""
    moves = ["place E 0,-1 180", "skip", "place PDW -1,0 0"]
    game = _play(("E", "PDW", "V", "V"), moves)
    assert "deploy 0 @0,0" not in {str(m) for m in game.deploy_options()}
    with pytest.raises(IllegalMoveError) as refused:
        game.apply(parse_move("deploy 0 @0,0"))
    assert refused.value.reason == "feature-complete"


def test_p9_special_figures_only_on_the_portal_tile():
    """PD15 (JCZ ``AbstractActionPhase``: special figures on the placed tile only; #357: no shepherd
    through a portal). The large meeple and the abbot are followers: they may go through."""
    rules = Rules(princess_dragon=True, traders=True, inns=True, abbot=True)
    game = _play(("U", "PDW", "V", "V"), ["place U 1,0 90", "skip", "place PDW -1,0 0"], rules)
    far = [m for m in game.deploy_options() if m.at is not None]
    assert {m.figure for m in far} == {Figure.MEEPLE, Figure.LARGE}
    with pytest.raises(IllegalMoveError) as refused:
        game.apply(parse_move("deploy 0 builder @1,0"))
    assert refused.value.reason == "wrong-figure"
    game.apply(parse_move("deploy 0 large @1,0"))
    assert (1, Figure.LARGE, P(1, 0), 0) in game.figures()


def test_no_follower_through_the_portal_onto_the_dragon_s_tile():
    """PD8 (JCZ ``DragonCapability.isMeepleDeploymentAllowed``): the volcano at (1,0) holds the dragon."""
    game = _play(("PD3", "PDW", "V", "V"), ["place PD3 1,0 0", "skip", "place PDW -1,0 0"])
    far = {m.at for m in game.deploy_options() if m.at is not None}
    assert P(0, 0) in far and P(1, 0) not in far
    with pytest.raises(IllegalMoveError, match="dragon") as refused:
        game.apply(parse_move("deploy 1 @1,0"))
    assert refused.value.reason == "bad-segment"


def test_a_portal_deploy_round_trips_through_text_and_the_log():
    from carcnet.log.codec import pack, unpack

    for text in ("deploy 0 @0,0", "deploy 2 large @-3,4", "deploy 1"):
        move = parse_move(text)
        assert str(move) == text and unpack(pack(move)) == move
    assert b"pos" not in pack(parse_move("deploy 1"))  # a deploy on the tile placed writes no position


def test_random_games_through_portals_replay_the_same():
    """Every portal deploy a random bot makes is legal on replay, and the follower stands where it said."""
    went = 0
    for seed in range(6):
        game = Game(GameSetup(players=3, seed=seed, rules=DRAGON))
        rng = random.Random(seed)
        while game.phase is not Phase.GAME_OVER:
            move = random_move(game, rng)
            events = game.apply(move)
            if isinstance(move, DeployMeeple) and move.at is not None:
                went += 1
                assert [e.position for e in events if isinstance(e, MeepleDeployed)] == [move.at]
        assert replay(game.setup, game.moves).digests == game.digests
    assert went > 0


def test_a_saved_game_names_the_princess_and_the_dragon_and_only_then():
    from carcnet.log import LogHeader, Seat
    from carcnet.log.codec import from_wire, options_to_wire, to_wire

    assert "princess-dragon" not in options_to_wire(Rules())
    assert options_to_wire(DRAGON)["princess-dragon"] is True
    header = LogHeader.new([Seat("Ann", "red"), Seat("Bob", "blue")], seed=5, options=DRAGON)
    back = from_wire(to_wire(header))
    assert isinstance(back, LogHeader) and back.options == DRAGON and back.setup().rules.princess_dragon
