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
from carcnet.tui.screens.game import ChatScreen, GameScreen
from carcnet.tui.screens.lobby import LobbyScreen

from ..net.loopback import FAST
from .test_lan import LIMIT, LOOP, _app, _shows, _text, _until

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


async def test_a_spectator_chats_and_what_it_types_into_the_chat_never_reaches_the_board(tmp_path):
    """Eve watches Ann's turn (nobody plays it here). A spectator could not chat, and its typing moved
    the board's cursor: now / opens the chat line for her too; every key she types into it (h j k l,
    the arrows, Tab, r, z, Enter's line) stays in the line and the board's cursor, zoom and view do not
    move (Home and End are the line's); her line reaches Ann's laptop over loopback as a spectator's,
    and her own log shows it marked so. Outside the chat line her letters still leave the board alone (the arrows move it)."""
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
                assert screen.table.spectating and screen.table.can_chat and screen.check_action("chat", ())
                board = screen.board
                start = (board.cursor, board.zoom, board.scroll_offset)
                await pilot.press("slash")
                await _until(pilot, lambda: isinstance(app.screen, ChatScreen), "the chat line")
                assert "(watching)" in _text(app.screen, "Static")
                await pilot.press(*"hjkl rz", "up", "down", "left", "right", "tab", "shift+tab", "pageup",
                                  "home")
                await pilot.press("end", *" nice road", "enter")  # Home and End move the line's own cursor
                await _until(pilot, lambda: app.screen is screen, "back to the game")
                assert (board.cursor, board.zoom, board.scroll_offset) == start
                await _until(pilot, lambda: any(t.spectator == "Eve" for t in host.chats()),
                             "Ann's laptop to hear it")
                said = [t for t in host.chats() if t.spectator == "Eve"]
                assert [(t.seat, t.text, t.mine) for t in said] == [(None, "hjkl rz nice road", False)]
                await _shows(pilot, screen, "#log", "Eve (watching): hjkl rz nice road")
                await pilot.press(*"hello")  # outside the chat line: letters are not moves for a spectator
                await pilot.pause()
                assert board.cursor == start[0]
                await pilot.press("left")
                assert board.cursor != start[0]
                await pilot.press("q")
                await _until(pilot, lambda: not isinstance(app.screen, GameScreen), "left")
