"""What a newcomer tripped on in the panels and forms (Textual pilot): long names on the scoreboard,
the deploy list's one selected row, the score chart's axes and the turns the replay counts, the
settings that lose typing or forget the rule options, checkboxes told apart in every theme, and the
wording (articles, the order of the clock's note, the inspector's separators, the colours' names).
"""

from __future__ import annotations

import re

import pytest
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Select

from carcnet.engine import (
    DeployMeeple,
    Figure,
    Game,
    GameSetup,
    MeepleDeployed,
    PlaceTile,
    Position,
    Rules,
    SegmentKind,
)
from carcnet.engine.expansions import traders
from carcnet.log import COLOURS, Seat
from carcnet.table import LocalTable
from carcnet.tui.app import STYLESHEET, CarcnetApp
from carcnet.tui.screens.board_screen import BoardScreen
from carcnet.tui.screens.game import GameScreen
from carcnet.tui.screens.home import HomeScreen
from carcnet.tui.screens.replay import ChartScreen, ReplayScreen
from carcnet.tui.screens.settings_screen import SettingsScreen
from carcnet.tui.screens.setup import NewGameScreen, SeatRow
from carcnet.tui.settings import Settings
from carcnet.tui.widgets.chart import ScoreChart, score_history
from carcnet.tui.widgets.game_log import describe_event
from carcnet.tui.widgets.palette import seat_hex, use_palette
from carcnet.tui.widgets.scoreboard import Scoreboard

from .test_app import _new_game
from .test_inspector import ScreenApp as InspectorApp
from .test_inspector import position
from .test_lan import _until
from .test_replay import _finished_game

pytestmark = pytest.mark.asyncio

LONG = "Bartholomew Fitzgerald-Wainwrigh"  # 32 characters, the form's limit
assert len(LONG) == 32


@pytest.fixture(autouse=True)
def _standard_palette():
    yield
    use_palette("standard")  # the palette is the interface's own; leave it as other tests expect


def _lines(widget: Widget) -> list[str]:
    """The widget's lines as drawn, padding included."""
    width, height = widget.outer_size
    return [strip.text for strip in widget.render_lines(Region(0, 0, width, height))]


def _screen_lines(app: App) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


# ---------------------------------------------------------------------- item 4: long names


class _BoardApp(App[None]):
    """A scoreboard in a side panel *width* columns wide."""

    def __init__(self, names: list[str], width: int) -> None:
        super().__init__()
        self.names = names
        self.width = width

    def compose(self) -> ComposeResult:
        board = Scoreboard(self.names, list(COLOURS[: len(self.names)]), id="scores")
        board.styles.width = self.width
        yield board


@pytest.mark.parametrize("width", [34, 24])
@pytest.mark.parametrize("clocks", [False, True])
async def test_a_32_character_name_leaves_every_seat_its_turn_arrow_score_and_abbot(width, clocks):
    """Six seats named with 32 characters, The Abbot: every row keeps the turn arrow, the score,
    the meeples and the abbot; the names are cut with an ellipsis; the marks (away) stay."""
    names = [LONG[:31] + str(i) for i in range(6)]
    game = Game(GameSetup(players=6, seed=3, rules=Rules(abbot=True)))
    app = _BoardApp(names, width)
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.query_one(Scoreboard)
        clock = {seat: "0:42+5:00" for seat in range(6)} if clocks else None
        board.show(game, marks={2: "away", 3: "bot"}, clocks=clock)
        await pilot.pause()
        lines = _lines(board)
        # each seat's line; where a name, its clock and its supply do not fit on one line (a clock in
        # 24 columns), the clock and supply on the next
        starts = [i for i, line in enumerate(lines) if "Barthol" in line][:6]  # not the drawn tile's line
        two_lines = starts[1] - starts[0] == 2  # where the name would be cut short, the supply under it
        assert two_lines == (clocks or width < 30), lines
        assert len(starts) == 6 and all(b - a == (2 if two_lines else 1) for a, b in zip(starts, starts[1:])), lines
        rows = [lines[i].rstrip() + (" " + lines[i + 1].strip() if two_lines else "") for i in starts]
        for seat, row in enumerate(rows):
            assert all(len(lines[i].rstrip()) <= width for i in starts), lines
            assert "…" in row and LONG[:31] not in row, row  # cut to fit
            assert row.lstrip().startswith("▶") == (seat == 0), row
            assert re.search(r" 0 (0:42\+5:00 )?(7●A|●●●●●●● A) *$", row.rstrip()), row  # score, supply, abbot
            if clocks:
                assert "0:42+5:00" in row
        assert "(away)" in rows[2] and "(bot)" in rows[3]


async def test_the_scoreboard_shows_each_seat_s_goods_capital_where_it_holds_the_most():
    """Issue 33: Traders & Builders' tokens per seat (wine, grain, cloth), the kind's letter a capital
    for each seat holding the most of it, ties included (the 10 points it would score now); none for
    a kind nobody holds; the builder and the pig in the supply."""
    names = ["Ann", "Bob", "Cleo"]
    game = Game(GameSetup(players=3, seed=3, rules=Rules(traders=True)))
    traders.goods(game)[:] = [[2, 0, 1], [2, 0, 0], [0, 0, 3]]  # wine tied, no grain, cloth to Cleo
    app = _BoardApp(names, 40)
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.query_one(Scoreboard)
        board.show(game)
        await pilot.pause()
        rows = [row.rstrip() for row in _lines(board)[:3]]
        assert rows[0].endswith(" BP W2 g0 c1") and rows[1].endswith(" BP W2 g0 c0"), rows
        assert rows[2].endswith(" BP w0 g0 C3"), rows


async def test_the_game_screen_shows_every_long_named_seats_score(tmp_path):
    """The whole game screen at 80x24: six 32-character names, every seat's score and abbot shown."""
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        names = [LONG[:31] + str(i) for i in range(6)]
        seats = [Seat(names[0], COLOURS[0], "human")] + [
            Seat(n, COLOURS[i], "bot", "greedy") for i, n in enumerate(names) if i]
        app.show_table(LocalTable.new(seats, seed=5, rules=Rules(abbot=True), directory=tmp_path, bot_delay=0))
        await _until(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        await pilot.pause()
        rows = _lines(app.screen.scoreboard)[:6]
        assert all(re.search(r"… (\(bot\) )?0 (7●A|●●●●●●● A) *$", row) for row in rows), rows


EXPANSIONS = Rules(abbot=True, inns=True, traders=True)
NAMES = ["Bartholomew", "Annabel", "Roswitha", "Christophe"]  # 7 to 11 letters


@pytest.mark.parametrize(("size", "players"), [((120, 40), 4), ((80, 24), 4), ((60, 18), 3)])
async def test_names_stay_whole_on_the_scoreboard_with_every_expansion_s_figures(tmp_path, size, players):
    """The Abbot, Inns & Cathedrals and Traders & Builders: each seat's supply holds the large meeple,
    the abbot, the builder, the pig and three kinds of goods, and its name (up to 11 letters) and its
    mark still show whole on the game screen at 120, 80 and 60 columns, with its score and supply
    (on a line of its own under the name where the panel is narrow)."""
    names = NAMES[:players]
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=size) as pilot:
        seats = [Seat(names[0], COLOURS[0], "human")] + [
            Seat(n, COLOURS[i], "bot", "greedy") for i, n in enumerate(names) if i]
        app.show_table(LocalTable.new(seats, seed=5, rules=EXPANSIONS, directory=tmp_path, bot_delay=0))
        await _until(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        await pilot.pause()
        text = "\n".join(_lines(app.screen.scoreboard))
        for name in names[1:]:
            assert f"{name} (bot)" in text, (name, text)
        assert names[0] in text and "…" not in text.split("tiles left")[0], text
        assert text.count("w0 g0 c0") == players, text  # every seat's goods
        assert text.count("LABP") + text.count("L A BP") == players, text  # large meeple, abbot, builder, pig
        assert app.screen.log_panel.outer_size.height >= 1, "the log's rule"


@pytest.mark.parametrize("width", [42, 34, 24])
async def test_names_stay_whole_beside_a_turn_clock_and_every_expansion(width):
    """A network table's turn clocks beside the expansions' figures and goods, in the side panel at
    120 (42 columns), 80 (34) and 60 (24): every name whole, with its clock, score and supply."""
    game = Game(GameSetup(players=4, seed=3, rules=EXPANSIONS))
    app = _BoardApp(NAMES, width)
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.query_one(Scoreboard)
        board.show(game, clocks={seat: "0:53+5:00" for seat in range(4)})
        await pilot.pause()
        text = "\n".join(_lines(board))
        for name in NAMES:
            assert name in text, (name, text)
        assert text.count("0:53+5:00") == 4 and text.count("w0 g0 c0") == 4, text


# ---------------------------------------------------------------------- item 5: one selected row


def _reversed_rows(widget: Widget) -> list[str]:
    lines = widget.render_lines(Region(0, 0, *widget.outer_size))
    return [strip.text for strip in lines if any(s.style is not None and s.style.reverse and s.text.strip()
                                                 for s in strip)]


async def test_only_the_spot_enter_takes_looks_selected_in_the_deploy_list(tmp_path):
    """Before a spot is chosen nothing looks selected (Enter deploys nowhere); Tab chooses spot 1,
    then spot 2: one row looks selected, the one the board highlights."""
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(120, 44)) as pilot:
        screen = await _new_game(pilot, app)
        await pilot.press("tab", "enter")  # the tile placed: the deploy list
        await pilot.pause()
        board, panel = screen.board, screen.inspector
        assert len(board.spots) >= 2
        assert _reversed_rows(panel) == [] and board.chosen_spot is None and board._highlight == {}
        for chosen in (0, 1):
            await pilot.press("tab")
            await pilot.pause()
            rows = _reversed_rows(panel)  # the selected row, wrapped on two lines in a narrow panel
            assert rows and rows[0].lstrip().startswith(f"▸{chosen + 1} "), rows
            assert sum("▸" in line for line in _lines(panel)) == 1
            assert board.chosen_spot == chosen and board._highlight  # the same spot on the board
            segment = board.spots[chosen]
            assert segment in board._highlight[screen.shown_game.placed]
        spots = board.spots
        await pilot.press("enter")  # Enter deploys on the row shown selected
        await pilot.pause()
        assert screen._provisional[-1] == DeployMeeple(spots[1], Figure.MEEPLE)


# ---------------------------------------------------------------------- item 6: the chart and turns


@pytest.mark.parametrize("size", [(100, 30), (80, 24), (60, 18)])
async def test_the_chart_has_integer_axes_and_its_lines_stay_in_the_plot(size, tmp_path):
    loaded = _finished_game(tmp_path)
    history = score_history(loaded.game)

    class _App(App[None]):
        CSS_PATH = STYLESHEET

        def on_mount(self) -> None:
            self.push_screen(ChartScreen(history, ["Ann", "Bob", "Cem"], ["red", "blue", "green"], 30))

    app = _App()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        chart = app.screen.query_one(ScoreChart)
        lines = _screen_lines(app)
        text = "\n".join(lines)
        assert not re.search(r"\d\.\d", text), text  # no "110.0", no "turn 20.8"
        top = next(i for i, line in enumerate(lines) if "┌" in line)
        bottom = next(i for i, line in enumerate(lines) if "└" in line)
        left, right = lines[top].index("┌"), lines[top].rindex("┐")
        for i, line in enumerate(lines):
            for j, char in enumerate(line):
                if 0x2800 < ord(char) <= 0x28FF:  # a braille dot of a line (or the legend)
                    assert top < i < bottom and left < j < right, (i, j, text)
        assert chart.region.right <= app.screen.query_one("ChartScreen > Vertical").region.right
        ticks = [t for t in lines[bottom + 1].split() if t != "█"]  # the dialog's border aside
        assert ticks[0] == "0" and all(t.isdigit() for t in ticks), ticks


async def test_the_replay_counts_turns_as_the_chart_and_the_transcript_do(tmp_path):
    from carcnet.cli.report import transcript

    loaded = _finished_game(tmp_path)
    names = [s.name for s in loaded.header.seats]
    turns = sum(1 for line in transcript(loaded.header.setup(), loaded.game.moves, names)
                if re.match(r" *\d+\. ", line))
    history = score_history(loaded.game)
    assert len(history.scores) - 1 == turns  # the chart's last turn

    class _App(App[None]):
        CSS_PATH = STYLESHEET

        def on_mount(self) -> None:
            self.push_screen(ReplayScreen(loaded))

    app = _App()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert f"turn {turns} of {turns}, move {2 * turns} of {2 * turns}" in str(screen.status.render())
        await pilot.press("home", "n")
        await pilot.pause()
        assert f"turn 1 of {turns}, move 1 of" in str(screen.status.render())  # turn 1's placement
        await pilot.press("g")
        await pilot.pause()
        assert f"Go to turn (0 to {turns})" in " ".join(_screen_lines(app))
        await pilot.press("backspace", "2", "0", "enter")
        await pilot.pause()
        assert f"turn 20 of {turns}, move 40 of" in str(screen.status.render())
        await pilot.press("s")
        await pilot.pause()
        assert app.screen.query_one(ScoreChart).marked == 20  # the chart marks the same turn


async def test_the_saved_games_list_counts_turns_as_the_replay_does():
    """A network game with the table's draws: 9 moves, 3 turns played; the list said turn 5."""
    from pathlib import Path

    from carcnet.log import load
    from carcnet.tui.screens.saved import _state

    loaded = load(Path(__file__).parents[2] / "protocol" / "vectors" / "log3-table.bin")
    assert len(loaded.game.moves) == 9 and sum(isinstance(m, PlaceTile) for m in loaded.game.moves) == 3
    assert _state(loaded)[1].startswith("turn 4")  # the fourth turn is next


# ---------------------------------------------------------------------- item 7: settings


async def test_the_settings_open_with_the_name_field_focused(tmp_path):
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        assert app.focused is app.screen.query_one("#name", Input)  # typing goes to a field at once


async def test_a_quick_burst_of_typing_in_the_name_is_saved_whole(tmp_path):
    """Typed, then Escape at once: the name was saved only when the field lost the focus, which the
    dismissed screen never heard of; a burst after a save kept the earlier part ("BobAl")."""
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        app.screen.query_one("#name", Input).focus()
        await pilot.press(*"Bob", "tab")
        await _until(pilot, lambda: app.settings.name == "Bob", "the name saved")
        await pilot.press("shift+tab", "end")
        await _until(pilot, lambda: app.settings.name == "Bob", "the name saved after a pause")
        await pilot.press(*"Alice", "escape")  # a burst, then straight back to the menu
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert app.settings.name == "BobAlice"
        await pilot.press("o")
        await pilot.pause()
        app.screen.query_one("#name", Input).focus()
        await pilot.press("ctrl+u", *"Cy", "escape")
        await pilot.pause()
    assert Settings.load().name == "Cy"  # on disk, whole


async def test_the_rule_options_are_remembered_between_games(tmp_path):
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(100, 34)) as pilot:
        def river_and_abbot(form: NewGameScreen) -> None:
            form.query_one("#river", Checkbox).value = True
            form.query_one("#abbot", Checkbox).value = True
            form.query_one("#farms", Select).value = "city"

        screen = await _new_game(pilot, app, river_and_abbot)
        assert screen.table.game.setup.rules == Rules(river=True, abbot=True, farms="city")

    again = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)  # a restart
    async with again.run_test(size=(100, 34)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        form = again.screen
        assert isinstance(form, NewGameScreen)
        assert form.query_one("#river", Checkbox).value and form.query_one("#abbot", Checkbox).value
        assert form.query_one("#farms", Select).value == "city" and form.query_one("#river-start").display
        await pilot.press("ctrl+s")
        await _until(pilot, lambda: isinstance(again.screen, GameScreen), "the game")
        assert again.screen.table.game.setup.rules == Rules(river=True, abbot=True, farms="city")


async def test_your_name_sits_in_seat_1_of_a_local_game(tmp_path):
    Settings.load().changed(name="Zoe").save()
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(100, 34)) as pilot:
        screen = await _new_game(pilot, app)
        assert screen.names[0] == "Zoe" and 0 in screen.table.human_seats


# ---------------------------------------------------------------------- item 11: checkboxes, ▼


async def test_ticked_and_unticked_checkboxes_look_different_in_every_theme(tmp_path):
    """Told apart by the mark itself, not by a shade (nord drew both the same)."""
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        river, abbot = app.screen.query_one("#river", Checkbox), app.screen.query_one("#abbot", Checkbox)
        river.value = True
        themes = sorted(app.available_themes)
        assert "nord" in themes
        for theme in themes:
            app.theme = theme
            await pilot.pause()
            ticked, unticked = _lines(river)[1], _lines(abbot)[1]  # the row under the border
            assert ticked.replace("The River", "") != unticked.replace("The Abbot", ""), (theme, ticked, unticked)


@pytest.mark.parametrize("size", [(120, 40), (80, 24), (60, 18)])
async def test_the_start_tile_select_shows_its_arrow(size, tmp_path):
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=size) as pilot:
        await pilot.press("n")
        await pilot.pause()
        form = app.screen
        form.query_one("#river", Checkbox).value = True
        await pilot.pause()
        select = form.query_one("#river-start", Select)
        select.scroll_visible(animate=False)
        await pilot.pause()
        assert select.display and select.region.width > 0
        row = _screen_lines(app)[select.region.y + 1]
        shown = row[select.region.x: select.region.right]
        assert "Start tile after the river" in shown and "▼" in shown, row
        assert select.region.right <= form.query_one("VerticalScroll").region.right


# ---------------------------------------------------------------------- item 14: wording


async def test_an_abbot_is_deployed_with_an_article_that_fits():
    event = MeepleDeployed(seat=0, position=Position(0, 1), segment=0, kind=SegmentKind.CLOISTER,
                           figure=Figure.ABBOT)
    line = describe_event(event, ["Ann", "Bob"], ["red", "blue"])
    assert line is not None and line.plain == "Ann deployed an abbot on the cloister"
    knight = MeepleDeployed(seat=1, position=Position(0, 1), segment=0, kind=SegmentKind.CITY, figure=Figure.MEEPLE)
    assert describe_event(knight, ["Ann", "Bob"], ["red", "blue"]).plain == "Bob deployed a knight on the city"


def test_the_builder_s_second_tile_taken_or_left_is_said_in_the_game_log():
    """Rules 5: the second tile taken says so (the builder's turn), and left says so too."""
    from carcnet.engine import BuilderTurn, SecondTileDeclined

    names, colours = ["Ann", "Bob"], ["red", "blue"]
    taken = describe_event(BuilderTurn(0), names, colours)
    left = describe_event(SecondTileDeclined(1), names, colours)
    assert taken is not None and taken.plain == "Ann extended their builder's feature: a second tile this turn"
    assert left is not None and left.plain == "Bob leaves the second tile their builder gives"


async def test_a_note_made_before_moves_is_logged_before_them(tmp_path):
    """The clock's note ("time ran out") is made, then the bot's moves for the seat: the log shows
    them in that order."""
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _new_game(pilot, app)
        table = screen.table
        from carcnet.bots import make_bot

        bot = make_bot("greedy", 1)
        table._note("Red's time ran out: the greedy bot plays the turn")  # what the timekeeper does
        table.submit(bot.choose(table.game.view()))  # then, at once, the turn
        table.submit(bot.choose(table.game.view()))
        await _until(pilot, lambda: any("Blue placed" in line for line in _lines(screen.log_panel)), "Blue's turn")
        lines = [" ".join(line.split()) for line in _lines(screen.log_panel)]
        note = next(i for i, line in enumerate(lines) if "time ran out" in line)
        placed = next(i for i, line in enumerate(lines) if line.startswith("Red placed"))
        assert note < placed, lines


@pytest.mark.parametrize("size", [(60, 18), (80, 24), (100, 30), (120, 40)])
async def test_the_inspector_never_starts_or_ends_a_line_with_a_separator(size):
    app = InspectorApp(position())
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        assert isinstance(screen, BoardScreen)
        for at in (Position(-1, 0), Position(0, 1), Position(1, 0), Position(0, 0), Position(0, -1)):
            screen.board.cursor = at
            await pilot.pause()
            for _ in range(3):
                await pilot.press("i")
                await pilot.pause()
                for line in _lines(screen.inspector):
                    text = line.strip()
                    assert not text.startswith("·") and not text.endswith("·") and "·  " not in text, line


async def test_the_colour_blind_palette_names_the_colours_it_draws(tmp_path):
    Settings.load().changed(palette="colour-blind").save()
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        rows = list(app.screen.query(SeatRow))
        assert seat_hex("red") == "#d55e00"  # drawn vermillion, not red
        assert rows[0].chosen()[:2] == ("Vermillion", "red") and rows[1].chosen()[:2] == ("Sky blue", "blue")
        shown = " ".join(_screen_lines(app))
        assert "Vermillion" in shown and "Red" not in shown and "Blue" not in shown
    use_palette("standard")
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5, settings=Settings.load().changed(palette="standard"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        assert [row.chosen()[0] for row in app.screen.query(SeatRow)] == ["Red", "Blue"]



async def test_players_see_tiles_and_places_in_words_not_ids_or_coordinates(tmp_path):
    """The scoreboard said "Ann draws ICJ", the status line "place ICJ", its confirmation "ICJ at
    1,0", the log "placed ICJ at 1,0" and the inspector "Tile D at 0,0": now each says the tile and
    the place in words, and no tile id or coordinates show anywhere on the screen."""
    from carcnet.engine import Phase

    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(120, 40)) as pilot:
        seats = [Seat("Ann", COLOURS[0], "human"), Seat("Bob", COLOURS[1], "bot", "greedy")]
        table = LocalTable.new(seats, order=("ICJ", "TBT", "ICB", "TBA"), rules=Rules(inns=True, traders=True),
                               directory=tmp_path, bot_delay=0)
        app.show_table(table)
        await _until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.my_turn(), "Ann's turn")
        screen = app.screen
        await pilot.pause()
        ids = re.compile(r"\b(ICJ|TBT|ICB|TBA|D)\b|-?\d+,-?\d+")
        text = "\n".join(_screen_lines(app))
        assert "Ann draws:" in text and "Ann to place: Tab" in text and "The start tile" in text, text
        assert not ids.search(text), ids.search(text)
        await pilot.press("tab", "enter", "0")
        await _until(pilot, lambda: screen.confirming, "the turn to confirm")
        await pilot.pause()
        status = " ".join(str(screen.status.render()).split())
        assert "Enter confirms: a tile with a city and a road" in status and not ids.search(status), status
        await pilot.press("enter")
        await _until(pilot, lambda: screen.table.game.phase is Phase.GAME_OVER or screen.my_turn(), "Ann's next turn")
        log = "\n".join(_lines(screen.log_panel))
        assert "Ann placed a tile just" in " ".join(log.split()), log
        assert not ids.search(log), log


@pytest.mark.parametrize("size", [(120, 40), (80, 24), (60, 18)])
async def test_the_seat_buttons_are_two_buttons_apart(tmp_path, size):
    """"+ seat" and "- seat" touched: their faces and borders read as one bare box until the focus
    came to one. A gap of the screen's own background stands between them, and the seed beside them
    shows whole."""
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=size) as pilot:
        await pilot.press("n")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, NewGameScreen)
        add, remove, seed = (form.query_one(f"#{i}") for i in ("add", "remove", "seed"))
        assert add.region.right < remove.region.x, (add.region, remove.region)
        row = _screen_lines(app)[add.region.y + 1]
        assert "+ seat" in row and "- seat" in row and "seed (empty: random)" in row, row
        assert seed.region.right <= size[0], seed.region
