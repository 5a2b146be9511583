"""Stepping back through a game while it goes on (Textual pilot on loopback): ``[`` opens the moves so far
in a replay over the live table, which plays on underneath; the status line counts the moves that arrive
("3 new moves"); Escape returns to the present. For a spectator and for a player.

Waits are on conditions (bounded polls of the pilot, or ``NetTable.wait_until``), never fixed sleeps.
"""

from __future__ import annotations

import pytest
from textual.widgets import Input

from carcnet.engine import DrawTile, Rules
from carcnet.table import NetTable, plan_from_text
from carcnet.tui.screens.browse import BrowserScreen
from carcnet.tui.screens.game import GameScreen
from carcnet.tui.screens.lobby import LobbyScreen

from ..net.loopback import FAST
from .test_lan import LOOP, _app, _bot, _open_table, _shows, _start_when_full, _until

pytestmark = pytest.mark.asyncio


def _replaying(app) -> bool:
    """Whether the replay of the game so far (:class:`~carcnet.tui.screens.live_replay.LiveReplayScreen`) is on top."""
    return type(app.screen).__name__ == "LiveReplayScreen"


def _played(table: NetTable) -> int:
    game = table.game
    return 0 if game is None else sum(not isinstance(m, DrawTile) for m in game.moves)


async def test_a_spectator_steps_back_while_the_game_goes_on_and_esc_returns_to_the_present(tmp_path):
    host = NetTable.host(name="Ann", game_name="Loopback", rules=Rules(), plan=plan_from_text("greedy,open", me="Ann"),
                         directory=tmp_path / "host", listen=LOOP, discovery=False, timing=FAST, bot_delay=0.3)
    async with host:
        port = host.peer.port
        app = _app(tmp_path, "Eve")
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("s")
            await pilot.pause()
            browser = app.screen
            assert isinstance(browser, BrowserScreen)
            browser.query_one("#address", Input).value = f"carcnet join 127.0.0.1:{port} --game {host.game_id}"
            await pilot.press("enter")
            await _until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            bob = NetTable.join(host.game_id, name="Bob", bot="greedy", directory=tmp_path / "Bob", listen=LOOP,
                                dial=[("127.0.0.1", port)], discovery=False, timing=FAST, bot_delay=0.3)
            async with bob:
                await _until(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
                screen = app.screen
                watcher = screen.table
                await _until(pilot, lambda: _played(watcher) >= 4, "a few moves")
                await pilot.press("left_square_bracket")
                await _until(pilot, lambda: _replaying(app), "the replay")
                replay = app.screen
                shown = replay._move_number(len(replay.moves))
                assert shown >= 4
                await _shows(pilot, replay, "#status", "The game so far", f"of {shown} (now)")
                await pilot.press("b", "b")
                await pilot.pause()
                assert replay._move_number(replay.step) == shown - 2
                assert len(replay.game.board.tiles) < len(watcher.game.board.tiles)
                # the table plays on underneath; the replay counts what arrives
                await _until(pilot, lambda: replay.new >= 3, "three new moves")
                await _shows(pilot, replay, "#status", "new moves")
                assert replay._move_number(len(replay.moves)) == shown  # the replay itself stays put
                await pilot.press("escape")
                await _until(pilot, lambda: app.screen is screen, "back to the present")
                await _until(pilot, lambda: len(screen.board.game.moves) == len(watcher.game.moves), "the board now")
                assert _played(watcher) >= shown + 3


async def test_a_player_opens_the_replay_and_comes_back_to_the_turn(tmp_path):
    app = _app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        lobby = await _open_table(pilot, app, "host", "open")
        lan = lobby.table
        bob = _bot(lan.game_id, "Bob", lan.peer.port, tmp_path, "greedy")
        async with bob:
            await _start_when_full(pilot, lobby)
            await _until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.my_turn(), "our turn")
            screen = app.screen
            await pilot.press("left_square_bracket")
            await _until(pilot, lambda: _replaying(app), "the replay")
            await _shows(pilot, app.screen, "#status", "your turn")
            await pilot.press("home")
            await pilot.pause()
            assert app.screen._move_number(app.screen.step) == 0 and len(app.screen.game.board.tiles) == 1
            await pilot.press("left_square_bracket")  # [ again: back
            await _until(pilot, lambda: app.screen is screen, "back at the table")
            assert screen.my_turn() and lan.running
