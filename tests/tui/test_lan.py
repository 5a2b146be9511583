"""LAN play in the interface (issue 5 items 3, 5, 6, 8), driven by the Textual pilot on loopback: host a
table from the home screen and let a :class:`~carcnet.table.NetTable` join it; play by keys against a bot
that joined, leave, resume from the saved games; watch a game between NetTables; the menu entries, the
browser's typed address, the setup checks.

No mDNS here (``discovery=False``): peers find each other by typed address on 127.0.0.1. Waits are on
conditions (bounded polls of the pilot, or ``NetTable.wait_until``), never fixed sleeps.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.css.query import NoMatches
from textual.geometry import Region
from textual.widgets import Input, OptionList, Select

from carcnet.engine import DrawTile, Phase, Rules
from carcnet.log import load
from carcnet.net.adverts import GameAd
from carcnet.net.sync import Desync
from carcnet.table import NetTable, plan_from_text
from carcnet.tui.addresses import parse_target
from carcnet.tui.app import CarcnetApp, Launch
from carcnet.tui.screens.browse import BrowserScreen
from carcnet.tui.screens.final import FinalScreen
from carcnet.tui.screens.game import DesyncScreen, GameScreen
from carcnet.tui.screens.home import HomeScreen
from carcnet.tui.screens.host_setup import HostSetupScreen, JoinFormScreen
from carcnet.tui.screens.lobby import LobbyScreen
from carcnet.tui.screens.saved import SavedGamesScreen

from ..net.loopback import FAST
from .keyplay import until

LOOP = ("127.0.0.1", 0)
LAN = {"listen": LOOP, "discovery": False, "timing": FAST}
LIMIT = 15.0


def _app(tmp_path: Path, name: str = "Ann", **kw) -> CarcnetApp:
    return CarcnetApp(data_dir=tmp_path / "tui", bot_delay=0, lan_options=LAN, player_name=name, **kw)


_until = until  # polls the pilot until a predicate holds (keyplay.until)


def _text(screen, selector: str) -> str:
    """What the widget at *selector* shows, as plain text (lines joined by spaces: wrapped text reads on)."""
    try:
        widget = screen.query_one(selector)
    except NoMatches:  # not composed yet
        return ""
    lines = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
    return " ".join(" ".join(line.text.split()) for line in lines)


async def _shows(pilot, screen, selector: str, *texts: str) -> None:
    """Waits until the widget at *selector* shows every one of *texts*."""
    await _until(pilot, lambda: all(t in _text(screen, selector) for t in texts), f"{selector} to show {texts}")


def _bot(game_id: str, name: str, port: int, tmp_path: Path, bot: str | None = "random") -> NetTable:
    return NetTable.join(game_id, name=name, bot=bot, directory=tmp_path / name, listen=LOOP,
                        dial=[("127.0.0.1", port)], discovery=False, timing=FAST)


async def _start_when_full(pilot, lobby: LobbyScreen) -> None:
    """The host presses s once every seat is taken (the opener starts the game)."""
    await _shows(pilot, lobby, "#status", "Every seat is taken", "press s")
    assert lobby.check_action("start", ())
    await pilot.press("s")


async def _open_table(pilot, app: CarcnetApp, *kinds: str) -> LobbyScreen:
    """From the home screen: h, the seats played by *kinds* (``host``, ``open`` or a bot), Ctrl+S."""
    await pilot.press("h")
    await pilot.pause()
    setup = app.screen
    assert isinstance(setup, HostSetupScreen)
    for _ in range(len(kinds) - 2):
        await pilot.press("ctrl+n")
    await pilot.pause()
    for row, kind in zip(setup.rows(), kinds, strict=True):
        row.query_one(".kind", Select).value = kind
    await pilot.pause()
    await pilot.press("ctrl+s")
    await _until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.run.running, "the lobby")
    lobby = app.screen
    assert isinstance(lobby, LobbyScreen)
    return lobby


@pytest.mark.asyncio
async def test_host_a_table_from_the_menu_a_bot_joins_and_the_game_plays_to_the_final_scores(tmp_path):
    app = _app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        lobby = await _open_table(pilot, app, "greedy", "open")
        lan = lobby.table
        port = lan.peer.port
        await _shows(pilot, lobby, "#status", "Waiting for 1 more player", "You start the game (s)")
        assert not lobby.check_action("start", ())
        await _shows(pilot, lobby, "#address", f"carcnet join 127.0.0.1:{port} --game {lan.game_id}")
        await _shows(pilot, lobby, "#seats", "open", "Greedy 1 (your bot)", "Rating", "new")
        bob = _bot(lan.game_id, "Bob", port, tmp_path)
        async with bob:
            await _start_when_full(pilot, lobby)
            await _until(pilot, lambda: isinstance(app.screen, FinalScreen), "the final scores")
            await bob.wait_until(lambda: bob.status == "finished" and bob.session.have == lan.session.have, LIMIT)
        assert lan.status == "finished" and lan.session.digest == bob.session.digest
        await _shows(pilot, app.screen, "#winner", "win")
        await pilot.press("escape")  # the final board
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert screen.marks()[0] == "your bot" and screen.marks()[1].startswith("bot")
        assert load(lan.path).game.digest == lan.session.digest  # saved in the app's data folder
        assert lan.path.parent == tmp_path / "tui"
        # issue 34: the finished network game counted into the ratings of the app's data folder, once
        from carcnet.club.ratings import RATINGS_FILE, Ratings

        ratings = Ratings.read(tmp_path / "tui" / RATINGS_FILE)
        assert ratings.games == {lan.game_id} and len(ratings.players) == 2
        assert all(r.games == 1 for r in ratings.players.values())
        await pilot.press("q")
        await _until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.runs[0].ended, "home")


async def _my_turns(pilot, screen: GameScreen, turns: int) -> None:
    """Plays *turns* of the person's moves by keys (Tab + Enter places, 1 or 0 deploys, Enter confirms),
    waiting for the bot on the other side between them."""
    done = 0
    while done < turns:
        await _until(pilot, screen.my_turn, "our turn")
        game = screen.shown_game
        if screen.confirming:
            await pilot.press("enter")
            done += 1
        elif game.phase is Phase.PLACE_TILE:
            await pilot.press("tab", "enter")
        else:
            await pilot.press("1" if game.deploy_options() else "0")
        await pilot.pause()


@pytest.mark.asyncio
async def test_play_by_keys_against_a_bot_leave_and_resume_on_the_network(tmp_path):
    app = _app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        lobby = await _open_table(pilot, app, "host", "open")
        lan = lobby.table
        bob = _bot(lan.game_id, "Bob", lan.peer.port, tmp_path, "greedy")
        async with bob:
            await _start_when_full(pilot, lobby)
            await _until(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
            screen = app.screen
            assert screen.marks() == {0: "you", 1: "bot"}
            await _my_turns(pilot, screen, 3)
            await bob.wait_until(lambda: bob.session.have >= lan.session.have, LIMIT)
            moves = lan.session.have
            turns = [e.entry.seat for e in lan.session.entries if not isinstance(e.entry.move, DrawTile)]
            assert turns[:6] == [0, 0, 1, 1, 0, 0]
            await _shows(pilot, screen, "#scoreboard", "Ann (you)", "Bob (bot)")
            path = lan.path
            await pilot.press("q", "l")  # leave and keep the seat (the question's l): bye to Bob, who stays
            await _until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.runs[-1].ended, "home")
            await bob.wait_until(lambda: not bob.session.connections.open_links(), LIMIT)
            # Resume from the saved games: back on the network, Bob away until he dials the new port.
            await pilot.press("r")
            await pilot.pause()
            assert isinstance(app.screen, SavedGamesScreen)
            assert "LAN" in str(app.screen.query_one("DataTable").get_row_at(0))
            await pilot.press("enter")
            await _until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.run.running, "resumed")
            resumed = app.screen
            again = resumed.table
            assert again.path == path and again.session.have == moves and again.my_seats == [0]
            # nobody is named away before the table is heard; hearing nobody, Bob is away (wire.md §4.5)
            await _until(pilot, lambda: resumed.marks()[1] == "bot, away", "Bob away")
            if again.session.to_play == 1:
                await _shows(pilot, resumed, "#status", "Bob's laptop is gone")
            await _shows(pilot, resumed, "#scoreboard", "Bob (bot, away)")
            bob.dial("127.0.0.1", again.peer.port)
            await _until(pilot, lambda: 1 not in again.away(), "Bob back")
            assert resumed.marks()[1] == "bot"
            await _my_turns(pilot, resumed, 1)
            await bob.wait_until(lambda: bob.session.have >= again.session.have, LIMIT)
            assert again.session.have > moves and bob.session.digest == again.session.digest
            await pilot.press("q", "l")
            await _until(pilot, lambda: isinstance(app.screen, HomeScreen), "home")
    # `carcnet resume <file>` opens it straight on the network
    app = _app(tmp_path, start=Launch("resume", path=path))
    async with app.run_test(size=(120, 40)) as pilot:
        await _until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.run.running, "resumed")
        assert app.screen.table.session.have > moves
    assert app.runs[0].ended  # quitting the app left the game


@pytest.mark.asyncio
async def test_leaving_the_lobby_or_quitting_says_bye(tmp_path):
    app = _app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        lobby = await _open_table(pilot, app, "host", "open", "open")
        lan = lobby.table
        assert len(lan.lobby.table) == 3
        bob = _bot(lan.game_id, "Bob", lan.peer.port, tmp_path)
        async with bob:
            await _shows(pilot, lobby, "#seats", "Ann (you)", "Bob", "random bot")
            await _shows(pilot, lobby, "#status", "Waiting for 1 more player")
            await bob.wait_until(lambda: bob.session.connections.open_links(), LIMIT)
            await pilot.press("escape")
            await _until(pilot, lambda: isinstance(app.screen, HomeScreen), "home")
            await bob.wait_until(lambda: not bob.session.connections.open_links(), LIMIT)
            assert "Ann left" in bob.notes
        assert app.runs[0].ended or app.runs[0].stopping
        # quitting the app from a lobby leaves it too
        lobby = await _open_table(pilot, app, "host", "open")
    assert app.runs[-1].ended and lobby.table.peer is not None


@pytest.mark.asyncio
async def test_a_spectator_watches_a_game_between_lan_games_to_the_same_end(tmp_path):
    host = NetTable.host(name="Ann", game_name="Loopback", rules=Rules(abbot=True),
                        plan=plan_from_text("greedy,open", me="Ann"), directory=tmp_path / "host",
                        listen=LOOP, discovery=False, timing=FAST)
    async with host:
        port = host.peer.port
        app = _app(tmp_path, "Eve")
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("s")
            await pilot.pause()
            browser = app.screen
            assert isinstance(browser, BrowserScreen) and browser.mode == "spectate"
            browser.query_one("#address", Input).value = f"carcnet join 127.0.0.1:{port} --game {host.game_id}"
            await pilot.press("enter")
            await _until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.table.lobby is not None,
                         "the spectator's lobby")
            lobby = app.screen
            assert lobby.table.kind == "spectator"
            await _shows(pilot, lobby, "#title", "Loopback", "you watch")
            await _shows(pilot, lobby, "#status", "Waiting for 1 more player")
            bob = _bot(host.game_id, "Bob", port, tmp_path)
            async with bob:
                await _until(pilot, lambda: isinstance(app.screen, FinalScreen), "the final scores")
                watcher = lobby.table
                await watcher.wait_until(lambda: watcher.session.have == host.session.have, LIMIT)
            assert host.status == watcher.status == "finished"
            assert watcher.session.digest == host.session.digest == bob.session.digest
            await pilot.press("escape")
            screen = app.screen
            assert isinstance(screen, GameScreen) and screen.table.spectating
            assert screen.board.interactive is False
            assert watcher.game.setup.rules.abbot
            await pilot.press("q")
            await _until(pilot, lambda: isinstance(app.screen, HomeScreen), "home")


@pytest.mark.asyncio
async def test_the_home_screen_has_working_host_join_and_spectate_entries(tmp_path):
    app = _app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        menu = app.screen.query_one(OptionList)
        for entry in ("host", "join", "spectate"):
            assert not menu.get_option(entry).disabled
            assert "coming" not in str(menu.get_option(entry).prompt)
        for key, kind in (("h", HostSetupScreen), ("j", BrowserScreen), ("s", BrowserScreen)):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, kind)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, HomeScreen)
        # the menu itself: down to the join entry, Enter
        menu.highlighted = menu.get_option_index("join")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, BrowserScreen) and app.screen.mode == "join"


@pytest.mark.asyncio
async def test_the_browser_reads_a_typed_address_and_asks_for_what_is_missing(tmp_path):
    app = _app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("j")
        await pilot.pause()
        browser = app.screen
        assert isinstance(browser, BrowserScreen)
        await _shows(pilot, browser, "#state", "off")
        field = browser.query_one("#address", Input)
        field.value = "not an address!"
        await pilot.press("enter")
        await pilot.pause()
        await _shows(pilot, browser, "#error", "no port; expected host:port")
        field.value = "127.0.0.1:7000"
        await pilot.press("enter")
        await pilot.pause()
        await _shows(pilot, browser, "#error", "game id")
        field.value = "127.0.0.1:7000 " + "ab" * 16
        await pilot.press("enter")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, JoinFormScreen)  # name and colour before connecting
        assert form.query_one("#name", Input).value == "Ann"
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is browser


def test_parse_target_takes_address_and_game_id_in_any_form():
    game = "3f2a9c1b" * 4
    assert parse_target(f"192.168.1.20:7000 {game}") == parse_target(f"carcnet join 192.168.1.20:7000 --game {game}")
    t = parse_target(f"--game={game.upper()} [fe80::1%eth0]:7000")
    assert (t.host, t.port, t.game) == ("fe80::1%eth0", 7000, game)
    assert parse_target("ann-laptop.local:7000").game is None
    with pytest.raises(ValueError, match="host:port"):
        parse_target(game)
    with pytest.raises(ValueError, match="port"):
        parse_target("10.0.0.1")


@pytest.mark.asyncio
async def test_host_setup_checks_the_table(tmp_path):
    app = _app(tmp_path)
    async with app.run_test(size=(100, 36)) as pilot:
        await pilot.press("h")
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, HostSetupScreen)
        setup.rows()[1].query_one(".kind", Select).value = "greedy"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        await _shows(pilot, setup, "#error", "at least one seat open")
        assert isinstance(app.screen, HostSetupScreen)
        setup.rows()[1].query_one(".kind", Select).value = "host"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        await _shows(pilot, setup, "#error", "Only one seat")
        setup.rows()[1].query_one(".kind", Select).value = "open"
        setup.query_one("#my-name", Input).value = " "
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        await _shows(pilot, setup, "#error", "empty")
        assert not app.runs


@pytest.mark.asyncio
async def test_the_command_line_opens_lan_screens_directly(tmp_path):
    game = "ab" * 16
    app = _app(tmp_path, start=Launch("join", game=game, address=("127.0.0.1", 7000)))
    async with app.run_test(size=(100, 30)) as pilot:
        await _until(pilot, lambda: isinstance(app.screen, JoinFormScreen), "the join form")
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
    app = _app(tmp_path, start="host")
    async with app.run_test(size=(100, 36)) as pilot:
        # the form mounted, its choices too, before the app ends (one mounting then finds its parts gone)
        await _until(pilot, lambda: isinstance(app.screen, HostSetupScreen) and app.screen.query("#my-name")
                     and all(choice.is_mounted for choice in app.screen.query(Select)), "the host setup")
        assert app.screen.query_one("#my-name", Input).value == "Ann"


def _ad(game: str, name: str, **kw) -> GameAd:
    fields = {"phase": "lobby", "seats_taken": 1, "seats_total": 2, "peer": "Ann", "role": "host",
              "key": bytes(32), "port": 7000, "addresses": ("192.0.2.7",)}
    fields.update(kw)
    return GameAd(game=game, name=name, **fields)


@pytest.mark.asyncio
async def test_the_browser_lists_found_games_and_greys_what_cannot_be_joined(tmp_path):
    """The list as discovery fills it (events stood in for by setting the ads): one line per game, the
    host's first; another version, a full table or a game under way greyed with the reason."""
    app = _app(tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.press("j")
        await pilot.pause()
        browser = app.screen
        assert isinstance(browser, BrowserScreen)
        browser.ads = {
            "a": _ad("a" * 32, "Open table"),
            "a2": _ad("a" * 32, "Open table", peer="Bob", role="player", key=bytes([1]) * 32, port=7001),
            "b": _ad("b" * 32, "Future", proto=99),
            "c": _ad("c" * 32, "Full", seats_taken=2),
            "d": _ad("d" * 32, "Busy", phase="playing", seats_taken=2),
        }
        browser.show_games()
        await pilot.pause()
        listing = browser.query_one("#games", OptionList)
        assert listing.display and listing.option_count == 4
        assert [o.id for o in listing.options if not o.disabled] == ["a" * 32]
        prompts = {o.id: str(o.prompt) for o in listing.options}
        assert "hosted with a newer carcnet: update carcnet to join it" in prompts["b" * 32] and "full" in prompts["c" * 32]
        assert "watch it instead" in prompts["d" * 32]
        assert "host Ann" in prompts["a" * 32] and "192.0.2.7:7000" in prompts["a" * 32]
        await _shows(pilot, browser, "#state", "4 game(s) found, 1 to join")
        listing.focus()
        listing.highlighted = listing.get_option_index("a" * 32)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, JoinFormScreen)
        await pilot.press("escape")
        await pilot.pause()
        # typed address with no game id: the game found at that address is the one meant
        field = browser.query_one("#address", Input)
        field.value = "192.0.2.7:7000"
        field.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, JoinFormScreen)


@pytest.mark.asyncio
async def test_the_command_line_forms_host_a_table_and_join_it_without_questions(tmp_path):
    """``carcnet host`` / ``carcnet join HOST:PORT --game ID --name N`` hand the app ``(screen, {…})``:
    the table opens at once, and the joiner sits down without the form."""
    plan = plan_from_text("me,open", me="Ann")
    host_app = _app(tmp_path, start=("host", {"name": "Ann", "game_name": None, "plan": plan, "rules": Rules()}))
    async with host_app.run_test(size=(120, 40)) as host_pilot:
        await _until(host_pilot, lambda: isinstance(host_app.screen, LobbyScreen) and host_app.screen.run.running,
                     "the host's lobby")
        lan = host_app.screen.table
        assert lan.game_name == "Ann's game" and lan.hosting.plan == tuple(plan)
        start = ("join", {"address": f"127.0.0.1:{lan.peer.port}", "game": lan.game_id, "name": "Bob"})
        join_app = CarcnetApp(data_dir=tmp_path / "bob", bot_delay=0, lan_options=LAN, start=start)
        async with join_app.run_test(size=(120, 40)) as join_pilot:
            await _until(join_pilot, lambda: isinstance(join_app.screen, LobbyScreen), "Bob's lobby")
            await _shows(join_pilot, join_app.screen, "#status", "waiting for the host to start")
            await _start_when_full(host_pilot, host_app.screen)
            await _until(join_pilot, lambda: isinstance(join_app.screen, GameScreen), "Bob's game screen")
            await _until(host_pilot, lambda: isinstance(host_app.screen, GameScreen), "Ann's game screen")
            bob = join_app.screen
            assert join_app.player_name == "Bob" and bob.table.human_seats == [1]
            assert bob.marks() == {1: "you"} and not bob.board.interactive
            await _shows(join_pilot, bob, "#status", "waiting for Ann")
            ann = host_app.screen
            await _shows(host_pilot, ann, "#status", "Ann to place")
            await host_pilot.press("tab", "enter", "0", "enter")  # Ann plays her turn; Bob sees it arrive
            await _shows(join_pilot, bob, "#log", "Ann placed")
            assert bob.table.session.have >= 3  # the first draw, her place and her skip
            # A desync stop (stood in for: the report set as the session would) shows its report.
            session = bob.table.session
            session.replica.stop(Desync("desync", 2, 0, "Ann", bytes(32), "Bob", "the digest differs", None,
                                             session.entries[0]))
            bob.redraw()
            await _until(join_pilot, lambda: isinstance(join_app.screen, DesyncScreen), "the report")
            await _shows(join_pilot, join_app.screen, "Static", "the digest differs", "From peer: Ann")
            await join_pilot.press("escape")
            await _shows(join_pilot, bob, "#status", "The game stopped")
            await join_pilot.press("d")
            assert isinstance(join_app.screen, DesyncScreen)


@pytest.mark.asyncio
async def test_b_hands_the_seat_of_a_player_gone_for_good_to_a_bot(tmp_path):
    from carcnet.engine import HandOver

    app = _app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        lobby = await _open_table(pilot, app, "greedy", "open")
        lan = lobby.table
        bob = _bot(lan.game_id, "Bob", lan.peer.port, tmp_path, bot=None)  # a person, who never moves
        async with bob:
            await _start_when_full(pilot, lobby)
            await _until(pilot, lambda: isinstance(app.screen, GameScreen) and lan.session.have >= 2, "play")
            assert bob.human_seats == [1]
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await _until(pilot, lambda: lan.session.to_play == 1 and 1 in lan.away(), "Bob away at his turn")
        await _shows(pilot, screen, "#status", "Bob's laptop is gone", "let a bot play for Bob [b]")
        assert screen.check_action("hand_over", ())
        await pilot.press("b")
        game = lan.game
        await _until(pilot, lambda: game.handovers[1] is not None, "the handover entry")
        await _until(pilot, lambda: isinstance(app.screen, FinalScreen), "the final scores", timeout=2 * LIMIT)
        handovers = [e.move for e in load(lan.path).entries if isinstance(e.move, HandOver)]
        assert handovers == [HandOver(1, "greedy", 0)]
        assert lan.status == "finished" and 1 in lan.my_seats


@pytest.mark.asyncio
async def test_the_browser_confirms_each_table_by_a_handshake_and_lists_the_proven_first(tmp_path, monkeypatch):
    """Issue 13 item 6 in the interface (discovery.md §4): every record the browser finds is probed; a
    table whose peer proves the advertised key is listed first with ✓, a record nobody proves is
    greyed, and a forged record sharing a real game's id is never the one chosen. The mDNS browser is
    stood in for by the records it would report; the probes are real handshakes on loopback."""
    from carcnet.net import discovery
    from carcnet.net.discovery import GameFound

    from ..net.loopback import LoopbackGame, identity, make_header

    header = make_header(2)
    async with LoopbackGame(header) as table:
        ann = await table.player("Ann", [0], bots=False)
        port = ann.address[1]
        real = _ad(header.game, "Zed's real table", phase="playing", seats_taken=2, key=identity("Ann").public,
                   port=port, addresses=("127.0.0.1",))
        twin = _ad(header.game, "Zed's real table", phase="playing", seats_taken=2, peer="Ann", role="host",
                   key=identity("Mallory").public, port=port, addresses=("127.0.0.1",))
        fake = _ad("f" * 32, "A forged table", phase="playing", seats_taken=2, key=identity("Mallory").public,
                   port=port, addresses=("127.0.0.1",))
        events = [GameFound(fake, "fake"), GameFound(twin, "twin"), GameFound(real, "real")]

        class FakeBrowser:
            def __init__(self, **_kw) -> None:
                pass

            async def __aenter__(self):
                return self

            async def __aexit__(self, *exc) -> None:
                return None

            async def next_event(self, timeout: float):
                return events.pop(0) if events else None

        monkeypatch.setattr(discovery, "Browser", FakeBrowser)
        app = CarcnetApp(data_dir=tmp_path / "tui", bot_delay=0, player_name="Ann",
                         lan_options={**LAN, "discovery": True})
        async with app.run_test(size=(140, 30)) as pilot:
            await pilot.press("s")  # watch a game
            await _until(pilot, lambda: isinstance(app.screen, BrowserScreen), "the browser")
            browser = app.screen
            await _until(pilot, lambda: len(browser.checks) == 3 and None not in browser.checks.values(), "probes")
            assert browser.checks[(header.game, identity("Ann").public, port)] is True
            assert browser.checks[(header.game, identity("Mallory").public, port)] is False
            listing = browser.query_one("#games", OptionList)
            assert [o.id for o in listing.options] == [header.game, "f" * 32]  # the proven first
            assert "✓" in str(listing.options[0].prompt) and not listing.options[0].disabled
            assert listing.options[1].disabled and "forged" in str(listing.options[1].prompt)
            chosen = []
            monkeypatch.setattr(browser, "proceed", lambda *args: chosen.append(args))
            browser.choose(header.game)
            assert chosen == [(header.game, ("127.0.0.1", port), "Zed's real table", identity("Ann").public)]
