"""A bot handed a seat in the middle of a turn (the tile placed, the deploy pending) finishes it."""

from __future__ import annotations

import pytest

from carcnet.bots import make_bot
from carcnet.engine import Game, GameSetup, HandOver, Phase


@pytest.mark.parametrize("name", ["greedy", "random"])
def test_a_bot_handed_a_seat_after_its_placement_deploys_or_skips(name: str) -> None:
    game = Game(GameSetup(players=3, seed=11))
    place = make_bot("random", 1).choose(game.view())
    game.apply(place)  # seat 0 placed; its player leaves before deploying
    assert game.phase is Phase.DEPLOY
    game.apply(HandOver(0, name, 1))
    bot = make_bot(name, 5)
    game.apply(bot.choose(game.view()))  # a legal deploy or skip for seat 0
    assert game.phase is Phase.PLACE_TILE and game.seat == 1
