"""Leaving a network game (Textual pilot on loopback): one ``q``, Ctrl+C or Ctrl+Q asks a player first, as
JCloisterZone and Board Game Arena do: stay, leave and keep the seat (``bye`` shutdown: the others wait
and may resume it later), or give the seat to a bot and leave (``bye`` quit: the others' table plays it,
protocol/wire.md §4.7, §5.6); the others read which. A local game and a finished one leave at once.

Waits are on conditions (bounded polls of the pilot, or ``NetTable.wait_until``), never fixed sleeps.
"""

from __future__ import annotations

import pytest
from textual.widgets import Button

from carcnet.table import NetTable
from carcnet.tui.screens.game import GameScreen
from carcnet.tui.screens.home import HomeScreen

from ..net.loopback import FAST
from .test_lan import LIMIT, LOOP, _app, _open_table, _start_when_full, _until

pytestmark = pytest.mark.asyncio


def _asked(app) -> bool:
    """Whether the leave question (:class:`~carcnet.tui.screens.leave.LeaveScreen`) is on top."""
    return type(app.screen).__name__ == "LeaveScreen"


def _bob(game_id: str, port: int, tmp_path) -> NetTable:
    """Bob joins with a greedy bot; his table takes an away seat over after a short wait."""
    return NetTable.join(game_id, name="Bob", bot="greedy", directory=tmp_path / "Bob", listen=LOOP,
                         dial=[("127.0.0.1", port)], discovery=False, timing=FAST, takeover=0.3)


async def _playing(pilot, app, tmp_path):
    lobby = await _open_table(pilot, app, "host", "open")
    lan = lobby.table
    bob = _bob(lan.game_id, lan.peer.port, tmp_path)
    return lan, bob


async def test_q_asks_a_player_escape_stays_and_giving_the_seat_lets_the_table_play_it(tmp_path):
    app = _app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        lan, bob = await _playing(pilot, app, tmp_path)
        async with bob:
            await _start_when_full(pilot, app.screen)
            await _until(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
            screen = app.screen
            await pilot.press("q")
            await _until(pilot, lambda: _asked(app), "the question")
            labels = [str(b.label) for b in app.screen.query(Button)]
            assert [label.split("  ")[0] for label in labels] == [
                "Stay", "Leave and keep the seat", "Give the seat to a bot and leave"]
            await pilot.press("escape")  # stay
            await _until(pilot, lambda: app.screen is screen, "back at the table")
            assert lan.running and bob.session.connections.open_links()
            await pilot.press("ctrl+q")  # quitting the app asks too
            await _until(pilot, lambda: _asked(app), "the question again")
            await pilot.press("s")
            await _until(pilot, lambda: app.screen is screen, "back at the table again")
            await pilot.press("ctrl+c")
            await _until(pilot, lambda: _asked(app), "the question on ctrl+c")
            await pilot.press("g")  # give the seat to a bot and leave
            await _until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.runs[-1].ended, "home")
            await bob.wait_until(lambda: any("Ann left the game and gave up the seat" in n for n in bob.notes), LIMIT)
            # Bob's table plays Ann's seat from her turn on: a handover by Bob's seat, and the game goes on
            await bob.wait_until(lambda: bob.game is not None and bob.game.handovers[0] is not None, LIMIT)
            handover = bob.game.handovers[0]
            assert handover.by == 1 and 0 in bob.my_seats


async def test_leaving_and_keeping_the_seat_leaves_it_to_its_owner(tmp_path):
    app = _app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        lan, bob = await _playing(pilot, app, tmp_path)
        async with bob:
            await _start_when_full(pilot, app.screen)
            await _until(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
            await pilot.press("q")
            await _until(pilot, lambda: _asked(app), "the question")
            await pilot.press("l")  # leave and keep the seat
            await _until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.runs[-1].ended, "home")
            await bob.wait_until(lambda: any("Ann left for now and keeps the seat: Ann can come back" in n
                                             for n in bob.notes), LIMIT)
            await bob.wait_until(lambda: bob.to_play == 0 and 0 in bob.away(), LIMIT)
            # a person's seat kept by its owner is never taken over by itself: the people decide (b)
            assert 0 not in bob.presence().takeover_candidates(bob.session.clock())
            assert bob.game.handovers[0] is None
        assert lan.path is not None and lan.path.exists()  # saved: Resume in the menu takes it up


async def test_a_local_game_leaves_without_a_question(tmp_path):
    from carcnet.log import Seat
    from carcnet.table import LocalTable

    table = LocalTable.new([Seat("Ann", "red", "human"), Seat("Bot", "blue", "bot", "greedy")], seed=3,
                           directory=tmp_path / "games")
    app = _app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        app.show_table(table, replace=False)  # over the home screen, as the menu opens it
        await _until(pilot, lambda: isinstance(app.screen, GameScreen), "the local game")
        await pilot.press("q")
        await _until(pilot, lambda: isinstance(app.screen, HomeScreen), "home at once")
