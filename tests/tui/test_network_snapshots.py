"""Snapshots of the network screens (pytest-textual-snapshot): host setup, the games list, the lobby and
a network game, driven by the in-memory wire (sessions joined without sockets, seeds and keys fixed).

Regenerate with ``--snapshot-update`` after a deliberate change, and look at the report first.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pytest_textual_snapshot")

from textual.app import App

from carcnet.bots import make_bot
from carcnet.engine import DrawTile, Rules
from carcnet.net.adverts import GameAd
from carcnet.net.lobby import Hosting, Seating, SeatPlan
from carcnet.net.messages import PROTO_VERSION
from carcnet.net.sync import SyncSession
from carcnet.table import NetTable
from carcnet.tui.app import STYLESHEET
from carcnet.tui.running import TableRun
from carcnet.tui.screens.browse import BrowserScreen
from carcnet.tui.screens.game import GameScreen
from carcnet.tui.screens.host_setup import HostSetupScreen
from carcnet.tui.screens.lobby import LobbyScreen
from carcnet.tui.tables import TableMaker

from ..net.loopback import GAME, MemoryWire, counter_random, identity, pump

SIZE = (100, 30)


class ScreenApp(App[None]):
    """One screen over an empty app, styled as carcnet's."""

    CSS_PATH = STYLESHEET

    def __init__(self, screen_factory) -> None:
        super().__init__()
        self._factory = screen_factory

    def on_mount(self) -> None:
        self.push_screen(self._factory())


def _maker(tmp_path: Path) -> TableMaker:
    return TableMaker(data_dir=tmp_path, bot_delay=0, player_name="Ann", net_options={"discovery": False})


def _table(*, start: bool, moves: int = 0) -> tuple[NetTable, list[MemoryWire]]:
    """Ann's table (Ann, an open seat Bob takes over the in-memory wire, a greedy bot), as the host's
    :class:`NetTable` sees it: in the lobby, or started with *moves* moves played."""
    plan = [SeatPlan("host", "Ann", "red"), SeatPlan("open"), SeatPlan("bot", "Robo", "green", "greedy")]
    hosting = Hosting(name="Friday game", options=Rules(abbot=True), plan=plan, random=counter_random("host"),
                      created=0, auto_start=False)
    host = SyncSession(game=GAME, name="Ann", identity=identity("Ann"), lobby=hosting)
    bob_key = identity("Bob")
    bob = SyncSession(game=GAME, name="Bob", identity=bob_key,
                      lobby=Seating(name="Bob", key=bob_key, colour="blue"))
    wires = [MemoryWire(bob, host)]
    pump(*wires)
    if start:
        host.apply_lobby(hosting.start(links=host.connections.open_links(), now=host.clock()))
        pump(*wires)
        assert host.game is not None
        bots = {seat: make_bot("greedy", seat) for seat in range(3)}
        for _ in range(moves):  # player moves; the table's draws come between them by themselves
            seat = host.game.seat
            (host if seat != 1 else bob).submit(bots[seat].choose(host.game.view()))
            pump(*wires)
    # The table wraps the session once the game is as wanted (as a resumed one does): nothing is saved.
    table = NetTable(host, kind="host", listen=None, discovery=False, game_name="Friday game",
                     bot_names={2: "greedy"})
    table.running = True  # shown as running; no sockets are opened
    return table, wires


def test_host_setup_screen(snap_compare, tmp_path):
    """The table setup: the game's name, yours, a seat for you and an open one, the rule options."""
    assert snap_compare(ScreenApp(lambda: HostSetupScreen(_maker(tmp_path))), terminal_size=SIZE)


def test_games_list(snap_compare, tmp_path):
    """Three advertised games: one to join, one full, one from another carcnet (greyed with the reason)."""
    ads = {
        "a": GameAd(game="3f2a9c1b" * 4, name="Friday game", phase="lobby", seats_taken=1, seats_total=3,
                    peer="Ann", role="host", key=bytes(32), port=7000, addresses=("192.168.1.20",)),
        "b": GameAd(game="9c1b3f2a" * 4, name="Full table", phase="lobby", seats_taken=4, seats_total=4,
                    peer="Cleo", role="host", key=bytes([1]) * 32, port=7001, addresses=("192.168.1.21",)),
        "c": GameAd(game="1b3f2a9c" * 4, name="Newer game", phase="lobby", seats_taken=1, seats_total=2,
                    peer="Dan", role="host", key=bytes([2]) * 32, port=7002, addresses=("192.168.1.22",), proto=PROTO_VERSION + 1),
    }

    async def show(pilot) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, BrowserScreen)
        screen.ads = dict(ads)
        screen.show_games()
        await pilot.pause()

    app = ScreenApp(lambda: BrowserScreen(_maker(tmp_path), "join"))
    assert snap_compare(app, terminal_size=SIZE, run_before=show)


def test_lobby_of_the_host(snap_compare):
    """Ann's lobby once Bob sat down over the wire: every seat taken, s starts the game."""
    table, _wires = _table(start=False)
    assert table.status == "lobby" and table.lobby is not None and table.lobby.table[1] is not None
    assert snap_compare(ScreenApp(lambda: LobbyScreen(TableRun(table))), terminal_size=SIZE)


def test_network_game_of_the_host(snap_compare):
    """The same table seven moves in, at Ann's laptop: the marks, the scores, the log, whose turn."""
    table, _wires = _table(start=True, moves=7)
    assert table.status == "playing" and table.game is not None
    assert len([m for m in table.game.moves if not isinstance(m, DrawTile)]) == 7
    assert snap_compare(ScreenApp(lambda: GameScreen(TableRun(table))), terminal_size=SIZE)


@pytest.mark.asyncio
async def test_the_status_line_says_whose_draw_value_is_missing_and_offers_the_seat_to_a_bot():
    """Issue 14 in the interface: Ann's turn ends while Bob's laptop hears nothing (its wire is not
    pumped), so the table waits for Bob's value for the next draw: the status line says so; once
    Bob's value has been missing for the wait (0 s here) his seat counts as away and b gives it to a
    bot, after which the draw is made without him."""
    table, wires = _table(start=True, moves=0)
    table.reveal_wait = 0.0
    session = table.session
    game = session.game
    assert game is not None and table.draws_known_to() is None  # Ann and Bob both contribute
    for _ in range(2):  # Ann (seat 0) places and deploys; Bob does not hear of it
        session.submit(make_bot("greedy", 0).choose(game.view()))
    assert session.missing() == [1] and table.blocking() == [1]
    (wire,) = wires  # Bob's laptop is alive (a heartbeat comes through) but sends no value
    wire.connector.connections.send_heartbeat(wire.a)
    wire.b.receive_data(wire.a.data_to_send())
    assert table.withholding() == [1]
    app = ScreenApp(lambda: GameScreen(TableRun(table)))
    async with app.run_test(size=(160, 30)) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        screen.redraw()
        await pilot.pause()
        text = str(screen.query_one("#status").render())
        assert "Bob's part of the draw has not come. Wait, or let a bot play for Bob [b]" in text, text
        await pilot.press("b")
        await pilot.pause()
        assert game.handovers[1] is not None and session.missing() == [] and game.phase.value == "place"
        assert table.draws_known_to() == "you"  # Ann's laptop now plays every contributing seat
        screen.redraw()
        await pilot.pause()
        assert "only your laptop draws the tiles now" in str(screen.query_one("#status").render())


def test_network_game_with_table_talk_and_a_turn_clock(snap_compare):
    """The same table with a turn clock (60 s + 5 min, Ann's turn 18 s in) and a line from Bob: the
    scoreboard shows each seat's clock, the log panel the line under Bob's name."""
    from carcnet.table import TurnClock

    table, wires = _table(start=True, moves=7)
    bob = wires[0].connector
    bob.say("good luck, Ann")
    pump(*wires)
    table._saved_clock = TurnClock(60, 300)
    table.session.clock = lambda: 1000.0
    table.timekeeper.update()
    table.session.clock = lambda: 1018.0
    assert table.chats() == [(1, "good luck, Ann", False, None)]
    assert table.seat_clock(table.game.seat) == "0:42+5:00"
    assert snap_compare(ScreenApp(lambda: GameScreen(TableRun(table))), terminal_size=SIZE)


def test_settings_screen(snap_compare):
    """The settings as they open with the defaults: name (the login name offered), theme,
    confirmation, glyphs, seat colours, bell, the new-game seats."""
    from carcnet.tui.screens.settings_screen import SettingsScreen
    from carcnet.tui.settings import Settings

    themes = ["textual-dark", "textual-light", "nord", "gruvbox"]
    assert snap_compare(ScreenApp(lambda: SettingsScreen(Settings(), themes, "Ann")), terminal_size=SIZE)
