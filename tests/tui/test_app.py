"""The whole app driven by key presses (Textual pilot): home screen to final scores, resume, help,
projection, new-game checks (issue 4)."""

from __future__ import annotations

import pytest

from carcnet.engine import Phase
from carcnet.log import load
from carcnet.tui.app import CarcnetApp
from carcnet.tui.screens.final import FinalScreen, ProjectionScreen
from carcnet.tui.screens.game import GameScreen
from carcnet.tui.screens.help import HelpScreen
from carcnet.tui.screens.home import HomeScreen
from carcnet.tui.screens.saved import SavedGamesScreen
from carcnet.tui.screens.setup import NewGameScreen
from carcnet.tui.settings import Settings

pytestmark = pytest.mark.asyncio


async def _new_game(pilot, app: CarcnetApp, prepare=None) -> GameScreen:
    """From the home screen: n (new game), optionally *prepare* the setup screen, Ctrl+S (start)."""
    await pilot.press("n")
    await pilot.pause()
    setup = app.screen
    assert isinstance(setup, NewGameScreen)
    if prepare is not None:
        prepare(setup)
        await pilot.pause()
    await pilot.press("ctrl+s")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, GameScreen)
    return screen


async def _until_human(pilot, screen: GameScreen) -> None:
    """Lets queued bot moves run: pauses (bounded) until a person is to move or the game is over."""
    for _ in range(50):
        if (screen.table.my_turn() and (screen.board.interactive or screen.confirming)) or screen.table.status != "playing":
            return
        await pilot.pause()
    raise AssertionError("the bots did not finish their turns")


async def _human_turn(pilot, screen: GameScreen) -> None:
    """One human action by keys: Tab + Enter to place at the nearest legal position, then deploy on
    spot 1 (or skip with 0 when there is none: the screen skips by itself when nothing is legal),
    then Enter to confirm the turn (with confirmation on, the default)."""
    await _until_human(pilot, screen)
    game = screen.shown_game
    if screen.confirming:
        await pilot.press("enter")
    elif game.phase is Phase.PLACE_TILE:
        await pilot.press("tab", "enter")
    elif game.phase is Phase.DEPLOY:
        await pilot.press("1" if game.deploy_options() else "0")
    await pilot.pause()


@pytest.mark.slow
async def test_a_whole_game_from_the_home_screen_to_the_final_scores(tmp_path):
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(100, 30)) as pilot:
        assert isinstance(app.screen, HomeScreen)
        screen = await _new_game(pilot, app)  # seat 1 a person, seat 2 a greedy bot
        for _ in range(300):  # bounded: 36 human turns of at most 3 actions
            if isinstance(app.screen, FinalScreen):
                break
            await _human_turn(pilot, screen)
        assert isinstance(app.screen, FinalScreen)
        game = screen.table.game
        assert game.phase is Phase.GAME_OVER and len(game.board.tiles) == 72 - len(game.set_aside)
        # the human seat made its moves by keys: every one of its placements is in the log on disk
        saved = load(screen.table.path)
        assert saved.game.digest == game.digest and saved.game.phase is Phase.GAME_OVER
        turns = len(saved.entries) // 2
        assert [e.seat for e in saved.entries] == [t % 2 for t in range(turns) for _ in (0, 1)]
        text = str(app.screen.query_one("#winner").render())
        assert "wins" in text or "win " in text
        await pilot.press("escape")  # back to the final board
        assert isinstance(app.screen, GameScreen)
        # issue 15 item 8: after the game the footer offers the final scores, not "If it ended now",
        # and the status line no longer points at a table that is closed
        assert not screen.check_action("projection", ()) and screen.check_action("final", ())
        await pilot.pause()
        status = str(screen.query_one("#status").render())
        assert "f shows the final scores" in status and "Escape on the scores" not in status
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, FinalScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


async def test_quit_mid_game_and_resume_where_it_stopped(tmp_path):
    """With confirmation off, a placement is played at once: leave while deploying, and the deploy
    choice is still open on resuming."""
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=11, settings=Settings(confirm=False))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _new_game(pilot, app)
        for _ in range(6):
            await _human_turn(pilot, screen)
        await _until_human(pilot, screen)
        if screen.table.game.phase is Phase.DEPLOY:
            await pilot.press("0")
            await _until_human(pilot, screen)
        for _ in range(10):  # place a tile, then leave while deploying (a tile with no free spot is
            assert screen.table.game.phase is Phase.PLACE_TILE  # skipped by itself: try the next)
            await pilot.press("tab", "enter")
            await pilot.pause()
            if screen.table.game.phase is Phase.DEPLOY:
                break
            await _until_human(pilot, screen)
        before = screen.table.game
        assert before.phase is Phase.DEPLOY
        digest, moves, path = before.digest, len(before.moves), screen.table.path
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("r")  # resume
        await pilot.pause()
        assert isinstance(app.screen, SavedGamesScreen)
        await pilot.press("enter")
        await pilot.pause()
        resumed = app.screen
        assert isinstance(resumed, GameScreen)
        game = resumed.table.game
        assert resumed.table.path == path
        assert (game.digest, len(game.moves), game.phase) == (digest, moves, Phase.DEPLOY)
        await pilot.press("0")  # the deploy choice left open is made now
        await pilot.pause()
        assert len(resumed.table.game.moves) > moves


async def test_help_projection_and_command_palette_entries(tmp_path):
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        screen = await _new_game(pilot, app)
        await pilot.press("p")
        assert isinstance(app.screen, ProjectionScreen)
        await pilot.press("escape")
        titles = [c.title for c in app.get_system_commands(screen)]
        assert {"Projected scores", "Zoom", "Recentre", "Help", "Back to the menu"} <= set(titles)


async def test_new_game_screen_checks_seats(tmp_path):
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        for _ in range(5):
            await pilot.press("ctrl+n")
        await pilot.pause()
        assert len(screen.rows()) == 6
        assert "at most 6" in str(screen.query_one("#error").render())
        for _ in range(6):
            await pilot.press("ctrl+r")
        await pilot.pause()
        assert len(screen.rows()) == 2
        assert "at least 2" in str(screen.query_one("#error").render())
        screen.rows()[1].query_one(".name").value = "Red"  # same name as seat 1
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert "same name" in str(screen.query_one("#error").render())


async def test_two_people_share_the_terminal(tmp_path):
    """Hotseat: both seats are people; each plays its own turns by keys, and no bot is involved."""
    from textual.widgets import Select

    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=8)
    async with app.run_test(size=(100, 30)) as pilot:

        def two_people(setup: NewGameScreen) -> None:
            setup.rows()[1].query_one(".player", Select).value = "human"

        screen = await _new_game(pilot, app, two_people)
        assert screen.table.bots == {} and screen.local_seats == {0, 1}
        for _ in range(12):  # four turns, two each, each confirmed
            assert screen.board.interactive or screen.confirming
            await _human_turn(pilot, screen)
        seats = [e.seat for e in screen.table.recorder.entries]
        assert seats[:8] == [0, 0, 1, 1, 0, 0, 1, 1]


async def test_new_game_with_the_river_and_the_abbot(tmp_path):
    from textual.widgets import Checkbox, Select

    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=4)
    async with app.run_test(size=(100, 30)) as pilot:

        def expansions(setup: NewGameScreen) -> None:
            setup.query_one("#river", Checkbox).value = True
            setup.query_one("#abbot", Checkbox).value = True
            setup.query_one("#river-start", Select).value = "omit"

        screen = await _new_game(pilot, app, expansions)
        rules = screen.table.game.setup.rules
        assert (rules.river, rules.abbot, rules.river_start) == (True, True, "omit")
        assert screen.table.header.options == rules
        assert screen.table.game.tile_at(screen.table.game.board.positions()[0]).kind.letter == "R1"
        for _ in range(3):  # a river tile, placed by keys at the river's end; no deploy; confirmed
            await _human_turn(pilot, screen)
            if screen.table.game.moves:
                break
        game = screen.table.game
        assert game.moves and game.tile_at(game.moves[0].position).kind.has_river


async def test_new_game_with_the_editions_variants_shows_them_in_the_game(tmp_path):
    """Issue 16: the farm scoring and small cities are chosen in the new-game screen, in plain words;
    the game is played by them and says so: the scoreboard, the help, the scores if it ended now."""
    from textual.widgets import Checkbox, Markdown, Select, Static

    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=4)
    async with app.run_test(size=(100, 30)) as pilot:
        labels: list[str] = []

        def variants(setup: NewGameScreen) -> None:
            farms = setup.query_one("#farms", Select)
            labels.extend(str(label) for label, _ in farms._options)
            farms.value = "city"
            setup.query_one("#small-city", Checkbox).value = True

        screen = await _new_game(pilot, app, variants)
        assert labels == ["Farmers: 3 a city, each farm", "Farmers: 4 a city, 1st edition", "No farmers"]
        rules = screen.table.game.setup.rules
        assert (rules.farms, rules.small_city, rules.river) == ("city", True, False)
        assert screen.table.header.options == rules
        from textual.geometry import Region

        board = screen.query_one("#scoreboard")
        lines = board.render_lines(Region(0, 0, board.size.width, board.size.height))
        assert "small cities · first-edition farms" in " ".join(" ".join(line.text.split()) for line in lines)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.query_one(Markdown).source
        assert text.startswith("## This game: small cities, first-edition farms") and "4 points" in text
        await pilot.press("escape", "p")
        await pilot.pause()
        assert isinstance(app.screen, ProjectionScreen)
        title = app.screen.query_one(Static)
        assert "If the game ended now (small cities, first-edition farms)" in " ".join(
            line.text for line in title.render_lines(Region(0, 0, title.size.width, title.size.height)))


@pytest.mark.slow
async def test_a_search_bot_thinks_off_the_loop_with_its_clock_shown_and_its_cap_applied(tmp_path, monkeypatch):
    """Issue 17: the hard search bot chosen in the new-game screen; it thinks in a worker thread, the
    status line says so with its seconds and the cap, and the cap stops it. Its budget is made
    endless here, so that only the cap can end its turn."""
    from textual.geometry import Region
    from textual.widgets import Select

    import carcnet.bots.search_bot as search
    from carcnet.bots import SearchBot

    # the settings' default cap is each level's own: the level's cap (1 s here) stops it
    monkeypatch.setitem(search.LEVELS, "hard", search.Level("hard", 10**9, 4, 1, cap=1.0))
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=6)
    async with app.run_test(size=(100, 30)) as pilot:
        choices: list[str] = []

        def hard(setup: NewGameScreen) -> None:
            player = setup.rows()[1].query_one(".player", Select)
            choices.extend(str(label) for label, _ in player._options)
            player.value = "hard"

        screen = await _new_game(pilot, app, hard)
        assert choices[-4:] == ["Easy bot", "Medium bot", "Hard bot", "Expert bot"]
        table = screen.table
        bot = table.bots[1]
        assert isinstance(bot, SearchBot) and bot.name == "hard"
        assert table.think_cap is None  # the settings' default: each level's own cap
        status = screen.status

        def status_text() -> str:
            return " ".join(line.text for line in status.render_lines(Region(0, 0, status.size.width, 2)))

        shown: list[str] = []

        def on_change(change: str) -> None:  # as the bot starts thinking: what the status line says
            if change == "thinking" and table.thinking is not None:
                screen._show_status()
                shown.append(status_text())

        table.add_listener(on_change)
        for _ in range(20):  # bounded: the person's turn by keys, until the bot has thought once
            if shown and table.thinking is None and table.game.seat == 0:
                break
            await _human_turn(pilot, screen)
        assert shown and "(hard bot) is thinking… 0.0 s (at most 1 s)" in shown[0], shown
        assert bot.stats.capped and bot.stats.iterations < 10**9 and table.game.seat == 0


async def test_saved_games_list_at_once_and_are_checked_in_the_background(tmp_path, monkeypatch):
    """Issue 13 item 9 in the interface: the saved-games list shows every save from its header before
    any game is replayed; the replays run off the event loop and then drop the games this list is not
    for (a finished game from Resume) and fill in state and scores."""
    import asyncio
    import threading

    import carcnet.tui.screens.saved as saved_screen
    from carcnet.cli import main

    monkeypatch.setenv("CARCNET_DATA_DIR", str(tmp_path))
    assert main(["demo", "--players", "2", "--bot", "greedy", "--seed", "5", "--save"]) == 0
    (finished,) = (tmp_path / "games").glob("*.carclog")
    cut = finished.with_name("0-cut.carclog")  # sorts last: the list is newest (by name) first
    data = finished.read_bytes()
    cut.write_bytes(data[: len(data) // 2])
    release = threading.Event()
    real_load = saved_screen.load

    def slow_load(path):
        assert release.wait(30), "the test never released the replays"
        return real_load(path)

    monkeypatch.setattr(saved_screen, "load", slow_load)
    app = CarcnetApp(data_dir=tmp_path / "games", bot_delay=0, seed=3)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SavedGamesScreen)
        table = screen.query_one("DataTable")
        assert table.row_count == 2  # listed from the headers while no replay has finished
        assert "checking" in str(table.get_row_at(0)[1])
        release.set()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        while table.row_count != 1 or "checking" in str(table.get_row_at(0)[1]):
            assert loop.time() < deadline, "the replays never finished"
            await pilot.pause(0.01)
        state = str(table.get_row_at(0)[1])
        assert state.startswith("turn ") and "damaged tail" in state
        assert str(table.get_row_at(0)[3]) == cut.name
        await pilot.press("a")  # every game, the finished one too
        while table.row_count != 2 or any("checking" in str(table.get_row_at(i)[1]) for i in range(2)):
            assert loop.time() < deadline, "the replays never finished"
            await pilot.pause(0.01)
        assert {str(table.get_row_at(i)[1]).split(" ")[0] for i in range(2)} == {"finished", "turn"}


async def test_t_shows_the_bag_its_designs_and_counts_never_its_order(tmp_path):
    """Issue 14 (the interface): the bag dialog lists every design still to come and how many, as
    the game's remaining() says, and nothing of the order."""
    from carcnet.tui.screens.bag import BagScreen

    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _new_game(pilot, app)
        game = screen.table.game
        await pilot.press("t")
        await pilot.pause()
        bag = app.screen
        assert isinstance(bag, BagScreen)
        text = str(bag.query_one("#bag-text").render())
        assert f"{game.tiles_left} tiles left in the bag" in text
        for letter, count in game.remaining().items():
            assert f"{letter:<5}×{count}" in text, letter
        deck = "".join(game.deck[game.deck_index :])
        assert deck not in text.replace(" ", "")  # the order is nowhere
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


async def test_the_log_panel_wraps_its_lines_and_has_no_horizontal_scrollbar(tmp_path):
    """Issue 15 item 3: lines like "Blue +18: city, 13 tiles, 5 penn…" were cut at the panel's edge,
    with a horizontal scrollbar (RichLog rendered them at least 78 cells wide)."""
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=11)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _new_game(pilot, app)
        for _ in range(8):
            await _human_turn(pilot, screen)
        await pilot.pause()
        log = screen.log_panel
        width = log.scrollable_content_region.width
        assert log.lines and max(len(line.text) for line in log.lines) <= width
        assert not log.show_horizontal_scrollbar


async def test_the_drawn_tiles_preview_is_in_the_boards_colours(tmp_path, monkeypatch):
    """Issue 15 item 6 (its first half): the sidebar's picture of the drawn tile had no colour."""
    from rich.console import Group
    from rich.text import Text

    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _new_game(pilot, app)
        shown = []
        monkeypatch.setattr(screen.scoreboard, "update", shown.append)
        screen.scoreboard.show(screen.table.game)
        (group,) = shown
        assert isinstance(group, Group)
        picture = group.renderables[-1]
        assert isinstance(picture, Text) and len(picture.plain.splitlines()) == 5
        backgrounds = {span.style.bgcolor.name for span in picture.spans if span.style.bgcolor}  # type: ignore[union-attr]
        assert len(backgrounds) >= 1 and all(span.style.color for span in picture.spans)  # type: ignore[union-attr]


async def test_a_screenshot_is_saved_where_there_is_no_downloads_folder(tmp_path, monkeypatch):
    """Issue 15 item 8: Palette -> Screenshot failed when ~/Downloads did not exist. It is said once,
    once written, naming the file (two notes said it)."""
    import platformdirs

    monkeypatch.setattr(platformdirs, "user_downloads_dir", lambda: str(tmp_path / "no-such-folder"))
    app = CarcnetApp(data_dir=tmp_path / "data" / "games", bot_delay=0, seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        app.deliver_screenshot(filename="shot.svg")
        await pilot.pause()
        saved = tmp_path / "data" / "screenshots" / "shot.svg"
        for _ in range(100):  # the file is written by a worker: bounded wait on its appearance
            if saved.exists() and saved.stat().st_size:
                break
            await pilot.pause(0.02)
        assert saved.read_text().startswith("<svg")
        from .keyplay import until

        said = lambda: [n.message for n in app._notifications if n.title == "Screenshot"]  # noqa: E731
        await until(pilot, lambda: bool(said()), "the note that it is saved")
        assert len(said()) == 1 and str(saved) in said()[0], said()


def _as_a_stripping_viewer_draws_it(svg: str) -> list[str]:
    """The rows of an SVG screenshot as a viewer draws them that strips each text run's leading and
    trailing spaces (SVG's default white-space handling) and draws what is left at the run's x."""
    import html
    import re

    rows: dict[float, dict[int, str]] = {}
    for m in re.finditer(r'<text [^>]*?x="([-\d.]+)" y="([\d.]+)" textLength="([\d.]+)"[^>]*>([^<]*)</text>', svg):
        text = html.unescape(m[4]).strip("\xa0 ").replace("\xa0", " ")
        row = rows.setdefault(float(m[2]), {})
        for i, char in enumerate(text):
            row[round(float(m[1]) / 12.2) + i] = char
    return ["".join(row.get(c, " ") for c in range(max(row) + 1)) if row else "" for _, row in sorted(rows.items())]


async def test_a_screenshot_keeps_its_spaces_in_a_viewer_that_strips_them(tmp_path, monkeypatch):
    """The SVG screenshot (the palette's Screenshot, a bug report's screen) drawn by a viewer that
    strips a text run's spaces read "?Help qMenu": each run now starts at its first letter."""
    import platformdirs

    from .keyplay import until

    monkeypatch.setattr(platformdirs, "user_downloads_dir", lambda: str(tmp_path / "no-such-folder"))
    app = CarcnetApp(data_dir=tmp_path / "data" / "games", bot_delay=0, seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("n")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        await pilot.pause()
        app.deliver_screenshot(filename="shot.svg")
        saved = tmp_path / "data" / "screenshots" / "shot.svg"
        await until(pilot, lambda: any(n.title == "Screenshot" for n in app._notifications), "the screenshot saved")
        drawn = _as_a_stripping_viewer_draws_it(saved.read_text())
        footer = drawn[-1]
        assert footer.startswith("? Help q Menu"), footer
        assert any("Red to place: Tab next spot" in row for row in drawn), "\n".join(drawn)


async def test_p_on_the_home_screen_opens_the_finished_games_to_replay(tmp_path):
    """Issue 15 item 8: Replay had no key on the home screen."""
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, SavedGamesScreen) and app.screen.mode == "replay"


async def test_at_80x24_the_new_game_form_scrolls_to_every_seat_and_the_footer_keeps_help_and_menu(tmp_path):
    """Issue 15 item 7: at 80x24 the new-game form cut seats 3-6 off with no scrollbar; the river's
    start-tile choice wrapped, used jargon ("mixed in (HiG)") and showed with The River off; the game
    screen's footer dropped ? Help and q Menu."""
    from textual.containers import VerticalScroll
    from textual.widgets import Checkbox, Select

    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, NewGameScreen)
        for _ in range(4):
            await pilot.press("ctrl+n")
        await pilot.pause()
        rows = form.rows()
        assert len(rows) == 6 and all(row.region.height == 3 for row in rows)  # none cut to nothing
        scroll = form.query_one(VerticalScroll)
        assert scroll.max_scroll_y > 0
        scroll.scroll_to_widget(rows[5], animate=False)
        await pilot.pause()
        assert form.region.contains_region(rows[5].region)  # seat 6 can be brought into view

        start = form.query_one("#river-start", Select)
        assert not start.display  # no river, no start-tile question
        form.query_one("#river", Checkbox).value = True
        await pilot.pause()
        assert start.display and start.region.height == 3  # on one line
        labels = [str(label) for label, _ in start._options]
        assert all("HiG" not in label and "Z-Man" not in label for label in labels)
        form.query_one("#river", Checkbox).value = False
        for _ in range(4):
            await pilot.press("ctrl+r")
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.pause()
        shown = [b.binding.action for b in screen.active_bindings.values() if b.binding.show]
        assert shown[:2] == ["help", "leave"]  # first: never cut off by a narrow terminal


async def test_the_bag_names_the_dead_spots_no_tile_left_can_fill():
    """Issue 15 (the bag): the dead spots, the open positions no tile left fits, with where they are."""
    from textual.app import App

    from carcnet.engine import Game, GameSetup
    from carcnet.tui.app import STYLESHEET
    from carcnet.tui.screens.bag import BagScreen, bag_text

    game = Game(GameSetup(players=2, draw_order=("V",)))  # only a road curve left: no city side
    dead = game.dead_spots()
    assert dead
    text = bag_text(game).plain
    assert f"Dead spots: {len(dead)}" in text and all(f"{p.x},{p.y}" in text for p in dead)
    assert "No dead spot" in bag_text(Game(GameSetup(players=2, seed=4))).plain

    class _App(App[None]):
        CSS_PATH = STYLESHEET

        def on_mount(self) -> None:
            self.push_screen(BagScreen(game))

    async with _App().run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "Dead spots" in str(pilot.app.screen.query_one("#bag-text").render())
