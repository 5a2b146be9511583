"""A local table on a fixed deck whose bot seats follow a script (what the tutorial plays on):
``LocalTable.new(order=, script=, moves=)`` and :class:`~carcnet.bots.ScriptedBot`."""

from __future__ import annotations

import asyncio

import pytest

from carcnet.bots import RandomBot, ScriptedBot
from carcnet.engine import Game, GameSetup, IllegalMoveError, Phase
from carcnet.engine.notation import parse_move
from carcnet.log import Seat, load
from carcnet.table import LocalTable

ORDER = ("U", "E", "V")
SEATS = [Seat("Ann", "red"), Seat("Bot", "blue", "bot", "random")]
#: Ann's first turn, then the bot's, as scripted.
MOVES = [parse_move(m) for m in ("place U 1,0 90", "skip", "place E 0,1 180", "deploy 0")]


def test_the_scripted_bot_plays_the_script_where_it_is_legal_and_its_fallback_elsewhere():
    game = Game(GameSetup(players=2, draw_order=ORDER))
    for move in MOVES[:2]:
        game.apply(move)
    bot = ScriptedBot({2: MOVES[2], 3: MOVES[3]}, RandomBot(1))
    assert bot.choose(game.view()) == MOVES[2]
    off = ScriptedBot({2: parse_move("place E 5,5 0")}, RandomBot(1))  # not legal: the fallback's move
    assert off.choose(game.view()) in game.legal_moves()


@pytest.mark.asyncio
async def test_a_fixed_deck_begun_part_way_with_its_bot_seat_on_the_script(tmp_path):
    table = LocalTable.new(SEATS, order=ORDER, script={2: MOVES[2], 3: MOVES[3]}, moves=MOVES[:2],
                           directory=tmp_path)
    assert table.header.order == ORDER and table.header.seed is None
    assert list(table.game.moves) == MOVES[:2]
    async with table:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 20
        while len(table.game.moves) < 4:
            assert loop.time() < deadline, "the bot did not play its script"
            await asyncio.sleep(0.01)
    assert list(table.game.moves) == MOVES and table.game.phase is Phase.PLACE_TILE
    assert list(load(table.path).game.moves) == MOVES  # on disk, and resumed with the script again
    again = LocalTable.resume(table.path, script={2: MOVES[2]})
    assert isinstance(again.bots[1], ScriptedBot)
    again.close()


def test_a_first_move_that_is_not_legal_leaves_no_file(tmp_path):
    with pytest.raises(IllegalMoveError):
        LocalTable.new(SEATS, order=ORDER, moves=[parse_move("place U 5,5 0")], directory=tmp_path)
    assert not list(tmp_path.glob("*.carclog"))
