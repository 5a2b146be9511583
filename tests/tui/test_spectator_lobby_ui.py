"""A spectator in the lobby (Textual pilot on loopback): it used to see "Connecting to the table…" until
the start when it came through a player (every peer of a game advertises it), the players' logs then
said "Eve left (unexpected-message)", and its game screen showed no turn clock. Now it sees the lobby
(the seats as they fill, the options, the clock), the game starts for it with nobody refused, and the
scoreboard shows the seats' clocks.

Waits are on conditions (bounded polls of the pilot, or ``NetTable.wait_until``), never fixed sleeps.
"""

from __future__ import annotations

import pytest
from textual.widgets import Input

from carcnet.engine import Rules
from carcnet.table import NetTable, plan_from_text
from carcnet.table.clock import TurnClock
from carcnet.tui.screens.browse import BrowserScreen
from carcnet.tui.screens.game import GameScreen
from carcnet.tui.screens.lobby import LobbyScreen

from ..net.loopback import FAST
from .test_lan import LIMIT, LOOP, _app, _shows, _until

pytestmark = pytest.mark.asyncio


async def test_a_spectator_that_came_through_a_player_sees_the_lobby_and_then_the_clocks(tmp_path):
    host = NetTable.host(name="Ann", game_name="Friday", rules=Rules(), plan=plan_from_text("me,open,open", me="Ann"),
                         directory=tmp_path / "Ann", listen=LOOP, discovery=False, timing=FAST,
                         clock=TurnClock(60, 300), auto_start=False)
    async with host:
        bob = NetTable.join(host.game_id, name="Bob", bot="greedy", directory=tmp_path / "Bob", listen=LOOP,
                            dial=[("127.0.0.1", host.peer.port)], discovery=False, timing=FAST)
        async with bob:
            await bob.wait_until(lambda: bool(bob.lobby_seats()), LIMIT)
            app = _app(tmp_path, "Eve")
            async with app.run_test(size=(120, 40)) as pilot:
                await pilot.press("s")
                await pilot.pause()
                browser = app.screen
                assert isinstance(browser, BrowserScreen) and browser.mode == "spectate"
                browser.query_one("#address", Input).value = (
                    f"carcnet join 127.0.0.1:{bob.peer.port} --game {host.game_id}")  # Bob's address, not Ann's
                await pilot.press("enter")
                await _until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the spectator's lobby")
                lobby = app.screen
                assert lobby.table.kind == "spectator"
                await _shows(pilot, lobby, "#seats", "Ann", "Bob", "open")
                await _shows(pilot, lobby, "#options", "Turn clock")
                await _shows(pilot, lobby, "#status", "Waiting for 1 more player")
                cleo = NetTable.join(host.game_id, name="Cleo", bot="greedy", directory=tmp_path / "Cleo",
                                     listen=LOOP, dial=[("127.0.0.1", host.peer.port)], discovery=False, timing=FAST)
                async with cleo:
                    await _shows(pilot, lobby, "#seats", "Cleo")  # the seats as they fill
                    await _until(pilot, lambda: host.hosting is not None and host.hosting.full, "a full table")
                    host.start()
                    await _until(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
                    screen = app.screen
                    watcher = screen.table
                    assert watcher.spectating
                    await _until(pilot, lambda: watcher.seat_clock(0) is not None, "the spectator's clocks")
                    await _shows(pilot, screen, "#scoreboard", "+5:00")
                    for table in (host, bob, cleo):
                        assert not any("unexpected-message" in note for note in table.notes), table.notes
                        assert not any(e.code == "unexpected-message" for e in table.session.connections.events)
                    assert not any(e.code == "unexpected-message" for e in watcher.session.connections.events)
                    await pilot.press("q")  # a spectator is not asked
                    await _until(pilot, lambda: not isinstance(app.screen, GameScreen), "left")


async def test_a_spectator_s_typing_leaves_the_board_alone_and_slash_says_why_there_is_no_chat(tmp_path):
    """Eve watches Ann's turn (nobody plays it here). A spectator typing a line moved the board's
    cursor (h and l are moves) and / did nothing: now its letters leave the cursor where it is (the
    arrows still move it) and / says that only the players talk at the table."""
    host = NetTable.host(name="Ann", game_name="Friday", rules=Rules(), plan=plan_from_text("me,open", me="Ann"),
                         directory=tmp_path / "Ann", listen=LOOP, discovery=False, timing=FAST, auto_start=True)
    async with host:
        bob = NetTable.join(host.game_id, name="Bob", bot="greedy", directory=tmp_path / "Bob", listen=LOOP,
                            dial=[("127.0.0.1", host.peer.port)], discovery=False, timing=FAST)
        async with bob:
            await bob.wait_until(lambda: bob.game is not None, LIMIT)
            app = _app(tmp_path, "Eve")
            async with app.run_test(size=(120, 40)) as pilot:
                await pilot.press("s")
                await pilot.pause()
                browser = app.screen
                assert isinstance(browser, BrowserScreen)
                browser.query_one("#address", Input).value = f"carcnet join 127.0.0.1:{host.peer.port} --game {host.game_id}"
                await pilot.press("enter")
                await _until(pilot, lambda: isinstance(app.screen, GameScreen), "the spectator's game screen")
                screen = app.screen
                assert screen.table.spectating and not screen.table.can_chat
                board = screen.board
                start = board.cursor
                await pilot.press(*"hello")
                await pilot.pause()
                assert board.cursor == start
                await pilot.press("left")
                assert board.cursor != start
                await pilot.press("slash")
                await pilot.pause()
                assert any("Only the players can talk at the table" in n.message for n in app._notifications)
                await pilot.press("q")
                await _until(pilot, lambda: not isinstance(app.screen, GameScreen), "left")
