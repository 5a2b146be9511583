"""The main screens at 120 × 40, 80 × 24 and 60 × 18: home, new game, game, final scores and replay.

Each is checked for anything cut at its right edge (a widget wider than the part of the screen it is
shown in: a menu's border, the new-game form's colour column or seed box, a footer key) and kept as a
snapshot (pytest-textual-snapshot; regenerate with ``--snapshot-update`` after a deliberate change,
and look at the report first). The tables that were cut ("Cloist…" in the final scores, "Red 19, B"
in the saved games) and the inspector that hid a tile's second feature are checked here too.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

pytest.importorskip("textual")

from rich.console import Console
from textual.app import App
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from carcnet.bots import make_bot
from carcnet.engine import Game, GameSetup, Phase
from carcnet.log import load
from carcnet.tui.app import STYLESHEET, CarcnetApp
from carcnet.tui.screens.final import FinalScreen, score_table
from carcnet.tui.screens.replay import ReplayScreen

VECTORS = Path(__file__).parents[2] / "protocol" / "vectors"
SIZES = [(120, 40), (80, 24), (60, 18)]
SCREENS = ["home", "new_game", "game", "final", "replay"]
NAMES = ["Ann", "Bob", "Cem"]
COLOURS = ["red", "blue", "green"]


def finished_game(seed: int = 21, players: int = 3) -> Game:
    game = Game(GameSetup(players=players, seed=seed))
    bots = [make_bot("greedy", seed + s) for s in range(players)]
    while game.phase is not Phase.GAME_OVER:
        game.apply(bots[game.seat].choose(game.view()))
    return game


class _ScreenApp(App[None]):
    CSS_PATH = STYLESHEET

    def __init__(self, factory: Callable[[], object]) -> None:
        super().__init__()
        self._factory = factory

    def on_mount(self) -> None:
        self.push_screen(self._factory())  # type: ignore[arg-type]


async def _settle(pilot: Pilot) -> None:
    for _ in range(3):
        await pilot.pause()


def scene(name: str, tmp_path: Path) -> tuple[App, Callable[[Pilot], Awaitable[None]]]:
    """The app showing screen *name*, and what to do before looking at it."""
    if name == "final":
        game = finished_game()
        return _ScreenApp(lambda: FinalScreen(game, NAMES, COLOURS)), _settle
    if name == "replay":
        loaded = load(VECTORS / "log2-signed.bin")
        return _ScreenApp(lambda: ReplayScreen(loaded)), _settle
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)

    async def before(pilot: Pilot) -> None:
        await _settle(pilot)
        if name in ("new_game", "game"):
            await pilot.press("n")
            await _settle(pilot)
        if name == "host_setup":
            await pilot.press("h")
            await _settle(pilot)
        if name == "settings":
            await pilot.press("o")
            await _settle(pilot)
        if name == "game":
            await pilot.press("ctrl+s")
            await _settle(pilot)
            await pilot.press("tab")  # the drawn tile's ghost where it fits
            await _settle(pilot)

    return app, before


def cut_widgets(app: App) -> list[tuple[Widget, object, object]]:
    """The widgets of the screen wider than the part of the screen they are shown in (cut at their
    left or right edge), with their region and that visible part; those scrolled out of view
    vertically count too (they would be cut once scrolled to)."""
    cut = []
    for widget, geometry in app.screen._compositor.full_map.items():
        region, clip = geometry.region, geometry.clip
        if not widget.display or region.width == 0:
            continue
        if region.x < clip.x or region.right > clip.right:
            cut.append((widget, region, clip))
    return cut


@pytest.mark.asyncio
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", [*SCREENS, "host_setup", "settings"])
async def test_nothing_is_cut(name, size, tmp_path):
    app, before = scene(name, tmp_path)
    async with app.run_test(size=size) as pilot:
        await before(pilot)
        cut = cut_widgets(app)
        assert not cut, [(type(w).__name__, w.id, r, c) for w, r, c in cut]
        footer = app.screen.query_one(Footer)
        for key in footer.query(FooterKey):  # every key of the footer whole on the screen
            assert 0 <= key.region.x and key.region.right <= size[0], (key.key_display, key.region)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", SCREENS)
def test_snapshot(name, size, tmp_path, snap_compare):
    """Home, new game, game (the drawn tile's ghost where it fits), final scores (three greedy bots,
    seed 21) and the replay of a saved network game, at each size."""
    app, before = scene(name, tmp_path)
    assert snap_compare(app, terminal_size=size, run_before=before)


def test_the_score_table_cuts_no_heading_at_60_columns():
    """A 60-column terminal leaves the table 54 cells: every heading and score whole, the names
    wrapped ("Cloist…" at 120 columns with long names before)."""
    names = ["Bartholomew Featherstonehaugh-S", "Blue (hard bot)", "Yellow (medium bot)", "Green", "Black", "Grey"]
    colours = ["red", "blue", "yellow", "green", "black", "grey"]
    # the base game's four kinds at 60 columns (54 cells), and The Abbot's gardens too at 120 (86)
    for width, kinds in ((54, ("road", "city", "cloister", "field")), (86, ("road", "city", "cloister", "garden", "field"))):
        breakdown = [{c: [12, 24] if c in kinds else [0, 0] for c in ("road", "city", "cloister", "garden", "field")}
                     for _ in names]
        table = score_table(names, colours, breakdown, [180, 170, 160, 150, 140, 130], (0,))
        console = Console(width=width, record=True, color_system=None)
        console.print(table)
        text = console.export_text()
        headings = {"road": "Roads", "city": "Cities", "cloister": "Cloisters", "garden": "Gardens", "field": "Farms"}
        for heading in ("Player", *(headings[k] for k in kinds), "Total"):
            assert heading in text, (heading, width, text)
        assert "12 + 24" in text and "180" in text and "…" not in text, text
        assert max(len(line.rstrip()) for line in text.splitlines()) <= width


@pytest.mark.asyncio
async def test_the_saved_games_list_shows_whole_players_and_scores(tmp_path):
    """The players cell, filled in once the save is checked ("Red 19, Blue 23"), was cut to the
    width of the names alone ("Red 19, B")."""
    from textual.widgets import DataTable

    from carcnet.tui.screens.saved import SavedGamesScreen

    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=3)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")
        await _settle(pilot)
        await pilot.press("ctrl+s")
        await _settle(pilot)
        for _ in range(4):  # a few turns (place, no meeple, confirm): the save has scores to show
            await pilot.press("tab", "enter", "0", "enter")
            await _settle(pilot)
        await app.push_screen(SavedGamesScreen(app.tables, "resume"))
        await _settle(pilot)
        table = app.screen.query_one(DataTable)
        for _ in range(200):  # the background check fills the players cell in (bounded)
            await pilot.pause()
            if table.row_count and any(ch.isdigit() for ch in str(table.get_row_at(0)[2])):
                break
        players = str(table.get_row_at(0)[2])
        assert any(ch.isdigit() for ch in players), players
        column = table.ordered_columns[2]
        assert column.get_render_width(table) - 2 * table.cell_padding >= len(players), (column.width, players)


@pytest.mark.asyncio
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_status_line_wraps_whole(size, tmp_path):
    """The game's status line wraps instead of stopping mid-word ("Backspace takes" at 60 columns):
    every word of it on the screen, after a placement tried (the longest prompt)."""
    app, before = scene("game", tmp_path)
    async with app.run_test(size=size) as pilot:
        await before(pilot)
        await pilot.press("enter")  # the tile placed on trial: the deploy prompt, with Backspace
        await _settle(pilot)
        status = app.screen.query_one("#status")
        words = " ".join(str(status.render()).split())
        assert "Backspace" in words, words
        strips = app.screen._compositor.render_strips()
        region = status.region
        shown = " ".join(
            " ".join("".join(s.text for s in strips[y])[region.x:region.right].split())
            for y in range(region.y, region.bottom)
        )
        assert shown == words, (shown, words)
