"""At a network table (issue 15): chat between two peers in the log panel, a spectator's line reaching
a player marked as a spectator's, and the bell when the turn comes to this laptop. The host is the
app, driven by keys; the other player is a NetTable on loopback, as in test_lan.py.
"""

from __future__ import annotations

import pytest

from carcnet.table import NetTable
from carcnet.tui.screens.game import ChatScreen, GameScreen
from carcnet.tui.settings import Settings

from ..net.loopback import FAST
from .test_lan import LIMIT, _app, _bot, _open_table, _shows, _start_when_full, _until

pytestmark = pytest.mark.asyncio


async def _game(pilot, app, tmp_path, bot: str | None):
    lobby = await _open_table(pilot, app, "host", "open")
    lan = lobby.table
    bob = _bot(lan.game_id, "Bob", lan.peer.port, tmp_path, bot)
    return lobby, lan, bob


async def test_chat_between_two_peers_shows_in_the_log_panel_under_the_seats_names(tmp_path):
    app = _app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        lobby, lan, bob = await _game(pilot, app, tmp_path, None)  # Bob: a person at another laptop
        async with bob:
            await _start_when_full(pilot, lobby)
            await _until(pilot, lambda: isinstance(app.screen, GameScreen) and bob.session.header is not None,
                         "the game on both laptops")
            screen = app.screen
            assert screen.check_action("chat", ())
            bob.say("good luck, Ann [b]not bold[/b]")
            await _shows(pilot, screen, "#log", "Bob: good luck, Ann [b]not bold[/b]")  # plain text, no markup
            await pilot.press("slash")
            await _until(pilot, lambda: isinstance(app.screen, ChatScreen), "the chat line")
            await pilot.press(*"thanks Bob", "enter")
            await _until(pilot, lambda: any(line.text == "thanks Bob" for line in bob.chats()),
                         "Bob to hear it")
            assert bob.chats()[-1] == (0, "thanks Bob", False, None)
            await _shows(pilot, screen, "#log", "Ann: thanks Bob")
            # a line with a control character is refused, and says why; nothing is sent
            await pilot.press("slash")
            await _until(pilot, lambda: isinstance(app.screen, ChatScreen), "the chat line")
            app.screen.query_one("#line").value = "ring\x07"
            await pilot.press("enter")
            await _until(pilot, lambda: app.screen is screen, "back to the game")
            assert len(bob.chats()) == 2
            # table talk is not the game: neither log holds it
            assert all(b"thanks Bob" not in path.read_bytes() for path in (lan.path, bob.path))


async def test_a_spectator_s_line_reaches_a_player_over_loopback_marked_as_a_spectator_s(tmp_path):
    """Ann (the app) plays Bob (another laptop); Eve watches through Ann's address. Eve's line, signed
    with her own key, reaches Ann's screen as "Eve (watching): …" (never under a seat's name) and,
    passed on by Ann, Bob's laptop; Ann's answer reaches Eve."""
    app = _app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        lobby, lan, bob = await _game(pilot, app, tmp_path, None)
        async with bob:
            await _start_when_full(pilot, lobby)
            await _until(pilot, lambda: isinstance(app.screen, GameScreen) and bob.session.header is not None,
                         "the game on both laptops")
            screen = app.screen
            eve = NetTable.spectate(lan.game_id, name="Eve", directory=tmp_path / "Eve", listen=None,
                                    dial=[("127.0.0.1", lan.peer.port)], discovery=False, timing=FAST)
            async with eve:
                await eve.wait_until(lambda: eve.game is not None and eve.can_chat, LIMIT)
                eve.say("go for the big city, Ann")
                await _shows(pilot, screen, "#log", "Eve (watching): go for the big city, Ann")
                assert lan.chats()[-1] == (None, "go for the big city, Ann", False, "Eve")
                await _until(pilot, lambda: any(line.spectator == "Eve" for line in bob.chats()),
                             "Bob to hear it")
                await pilot.press("slash")
                await _until(pilot, lambda: isinstance(app.screen, ChatScreen), "the chat line")
                await pilot.press(*"maybe", "enter")
                await eve.wait_until(lambda: any(line.text == "maybe" for line in eve.chats()), LIMIT)
                assert eve.chats()[-1] == (0, "maybe", False, None)


async def test_the_bell_rings_when_the_turn_comes_and_not_when_turned_off(tmp_path):
    for bell in (True, False):
        app = _app(tmp_path / str(bell), settings=Settings(bell=bell, confirm=False))
        rings = []
        app.bell = lambda: rings.append(1)  # type: ignore[method-assign]
        async with app.run_test(size=(120, 40)) as pilot:
            lobby, lan, bob = await _game(pilot, app, tmp_path / str(bell), "greedy")
            async with bob:
                await _start_when_full(pilot, lobby)
                await _until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.my_turn(), "Ann's turn")
                screen = app.screen
                first = len(rings)
                assert first == (1 if bell else 0)
                await pilot.press("tab", "enter", "0")  # a turn; the bot answers; the turn comes back
                await _until(pilot, lambda: screen.my_turn() and len(lan.session.entries) >= 4, "Ann's turn again")
                assert len(rings) == (2 if bell else 0)


async def test_the_turn_clock_shows_for_every_seat_and_a_turn_that_runs_out_is_played_for_the_player(tmp_path):
    """Issue 15: the turn clock, agreed at the table, shown for every seat; when Ann's turn and bank
    run out (1 s each here) while she has only tried a placement, her own laptop plays the turn with
    the greedy bot's choice: her tried turn is dropped and the log says why (wire.md §5.8)."""
    from carcnet.engine import DrawTile
    from carcnet.table import TurnClock, plan_from_text
    from carcnet.tui.app import Launch
    from carcnet.tui.screens.lobby import LobbyScreen

    plan = plan_from_text("me,open", me="Ann")
    app = _app(tmp_path, start=Launch("host", name="Ann", plan=plan, clock=TurnClock(1, 1)))
    async with app.run_test(size=(120, 40)) as pilot:
        await _until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.run.running, "the lobby")
        lobby = app.screen
        lan = lobby.table
        await _shows(pilot, lobby, "#options", "Turn clock: 1 s a turn + 0:01 bank")
        bob = _bot(lan.game_id, "Bob", lan.peer.port, tmp_path, "greedy")
        async with bob:
            await _start_when_full(pilot, lobby)
            await _until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.my_turn(), "Ann's turn")
            screen = app.screen
            await _shows(pilot, screen, "#scoreboard", "Ann (", "+0:0")  # her clock runs, Bob's bank shows
            await pilot.press("tab", "enter")  # a placement tried, not confirmed
            await _until(pilot, lambda: any("time ran out" in n for n in lan.notes), "Ann's time to run out", 15)
            await _until(pilot, lambda: sum(1 for e in bob.session.entries if e.entry.seat == 0
                                            and not isinstance(e.entry.move, DrawTile)) >= 2, "her turn played")
            await _shows(pilot, screen, "#log", "Ann's time ran out")
            assert not screen._provisional  # the tried turn was dropped, and she was told
