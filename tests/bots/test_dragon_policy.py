"""Greedy's choices with The Princess & the Dragon on a turn with nothing better to deploy on its
tile: the princess against another seat's knight, a follower through the magic portal, the fairy by
its own follower (``docs/bots.md``). Positions from ``tests/engine/test_princess_dragon.py``."""

from __future__ import annotations

import pytest

from carcnet.bots.greedy_bot import GreedyBot
from carcnet.bots.parts import dragon as greedy_dragon
from carcnet.bots.parts.dragon import fairy_instead, portal_instead, princess_instead
from carcnet.engine import Game, GameSetup, Phase, Rules, SkipMeeple, parse_move

DRAGON = Rules(princess_dragon=True)


def _play(order: tuple[str, ...], moves: list[str]) -> Game:
    game = Game(GameSetup(players=2, draw_order=order, rules=DRAGON))
    for move in moves:
        game.apply(parse_move(move))
    return game


def test_the_princess_sends_another_seat_s_knight_home_never_its_own():
    moves = ["place U -1,0 90", "skip", "place N 0,-1 180", "deploy 0", "place PDB 1,-1 270"]
    game = _play(("U", "N", "PDB", "V"), moves)
    assert str(princess_instead(game)) == "princess 0,-1 0"  # Blue's knight, Red to play
    own = _play(("N", "U", "PDB", "V"), ["place N 0,-1 180", "deploy 0", "place U -1,0 90", "skip",
                                           "place PDB 1,-1 270"])
    assert own.seat == 0 and "princess 0,-1 0" in {str(m) for m in own.legal_moves()}
    assert princess_instead(own) is None  # Red's own knight stays


def test_a_follower_through_the_portal_goes_where_it_is_worth_most(monkeypatch: pytest.MonkeyPatch):
    game = _play(("U", "PDW", "V", "V"), ["place U 1,0 90", "deploy 0", "place PDW -1,0 0"])
    assert portal_instead(game) is None  # D's city, one tile: 1 + (2 - 1) / 2 = 1.5, below the floor
    monkeypatch.setattr(greedy_dragon, "PORTAL_FLOOR", 1.0)
    assert str(portal_instead(game)) == "deploy 0 @0,0"  # the best of D's city and the farms (0)
    assert str(GreedyBot(0).follow_up(game, SkipMeeple())) == "deploy 0 @0,0"


def test_the_fairy_goes_by_the_seat_s_follower_once():
    moves = ["place U 1,0 90", "skip", "place U -1,0 90", "deploy 0", "place B 0,1 0", "deploy 0", "place B 1,1 0"]
    game = _play(("U", "U", "B", "B", "W", "W", "V", "V"), moves)
    assert str(fairy_instead(game)) == "fairy -1,0 0"  # Blue's thief
    game.apply(parse_move("fairy -1,0 0"))
    game.apply(parse_move("place W 2,0 0"))
    game.apply(parse_move("skip"))
    game.apply(parse_move("place W -2,0 0"))
    assert game.phase is Phase.DEPLOY and fairy_instead(game) is None  # it already stands by his follower


def test_a_deploy_planned_on_a_volcano_is_a_skip():
    """PD2: the dragon lands on a volcano as it is placed, and no figure may go on its tile; a plan
    made before the placement (greedy's, a search's candidates) cannot know it."""
    game = _play(("PD3", "V"), ["place PD3 1,0 0"])
    assert game.phase is Phase.DEPLOY and not any(type(m).__name__ == "DeployMeeple" for m in game.legal_moves())
    assert GreedyBot(0).follow_up(game, parse_move("deploy 0")) == SkipMeeple()


def test_a_search_bot_plays_a_whole_game_with_the_dragon():
    from carcnet.bots import make_bot

    game = Game(GameSetup(players=2, seed=11, rules=DRAGON))
    bots = [make_bot("easy", 1), make_bot("greedy", 2)]
    while game.phase is not Phase.GAME_OVER:
        game.apply(bots[game.actor].choose(game.view()))
    assert game.phase is Phase.GAME_OVER
