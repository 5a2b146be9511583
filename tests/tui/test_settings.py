"""Settings that stick (issue 15): read from and saved to the configuration folder
(``CARCNET_CONFIG_DIR``, set per test by tests/conftest.py), edited on the settings screen, applied
by the app and found again after a restart. A bad file loses nothing.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from textual.widgets import Input, Select, Switch

from carcnet.tui.app import CarcnetApp
from carcnet.tui.render import ASCII_GLYPHS
from carcnet.tui.screens.game import GameScreen
from carcnet.tui.screens.home import HomeScreen
from carcnet.tui.screens.settings_screen import SettingsScreen
from carcnet.tui.screens.setup import NewGameScreen
from carcnet.tui.settings import FILE_NAME, SeatDefault, Settings, config_dir
from carcnet.tui.widgets.palette import seat_hex, use_palette

from .test_lan import _until


@pytest.fixture(autouse=True)
def _standard_palette():
    yield
    use_palette("standard")  # the palette is the interface's own; leave it as other tests expect


def test_defaults_without_a_file_and_a_round_trip(tmp_path):
    first = Settings.load(tmp_path)
    assert first == Settings() and first.problem is None and first.path == tmp_path / FILE_NAME
    changed = first.changed(theme="nord", name="Zoe", confirm=False, glyphs="ascii", palette="colour-blind",
                            bell=False, seats=(SeatDefault("A", "red"), SeatDefault("B", "blue", "random"),
                                               SeatDefault("C", "green", "greedy")))
    changed.save()
    assert Settings.load(tmp_path) == changed
    assert json.loads((tmp_path / FILE_NAME).read_text())["seats"][1] == {"name": "B", "colour": "blue",
                                                                         "player": "random"}
    assert not list(tmp_path.glob("*.tmp"))


def test_the_folder_is_the_environments_or_the_users_config_folder(monkeypatch, tmp_path):
    assert config_dir() == Path(os.environ["CARCNET_CONFIG_DIR"])
    monkeypatch.delenv("CARCNET_CONFIG_DIR")
    import platformdirs

    assert config_dir() == Path(platformdirs.user_config_dir("carcnet", appauthor=False))


@pytest.mark.parametrize(
    ("content", "kept", "said"),
    [
        ("{not json", {}, "is not JSON"),
        ("[1, 2]", {}, "does not hold settings"),
        ('{"theme": "nord", "confirm": "yes", "glyphs": "emoji", "seats": [], "future": 1}', {"theme": "nord"},
         "seats, confirm, glyphs not understood"),
    ],
)
def test_a_bad_file_is_read_as_far_as_it_makes_sense_and_kept_aside(tmp_path, content, kept, said):
    path = tmp_path / FILE_NAME
    path.write_text(content)
    settings = Settings.load(tmp_path)
    assert settings.problem is not None and said in settings.problem
    assert settings == Settings().changed(**kept)
    settings.changed(bell=False).save()
    assert (tmp_path / (FILE_NAME + ".bad")).read_text() == content  # nothing lost
    again = Settings.load(tmp_path)
    assert again.problem is None and again == Settings().changed(**kept, bell=False)


def test_a_wrong_value_is_refused():
    for name, value in (("confirm", "no"), ("glyphs", "emoji"), ("palette", "sepia"), ("seats", ()), ("path", "x"),
                        ("think_cap", "7"), ("think_cap", 10)):
        with pytest.raises(ValueError, match=name):
            Settings().changed(**{name: value})


@pytest.mark.asyncio
async def test_settings_changed_on_the_screen_survive_a_restart(tmp_path):
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(100, 34)) as pilot:
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("o")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        screen.query_one("#theme", Select).value = "nord"
        screen.query_one("#confirm", Switch).value = False
        screen.query_one("#glyphs", Select).value = "ascii"
        screen.query_one("#palette", Select).value = "colour-blind"
        screen.query_one("#bell", Switch).value = False
        screen.query_one("#think_cap", Select).value = "5"
        name = screen.query_one("#name", Input)
        name.focus()
        await pilot.press(*"Zoe", "enter")
        await _until(pilot, lambda: app.settings.name == "Zoe" and not app.settings.bell and app.settings.think_cap == "5",
                     "the settings saved")
        assert app.theme == "nord"  # at once
        assert seat_hex("red") == "#d55e00"
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)

    use_palette("standard")
    saved = Settings.load()
    assert (saved.theme, saved.name, saved.confirm, saved.glyphs, saved.palette, saved.bell, saved.think_cap) == (
        "nord", "Zoe", False, "ascii", "colour-blind", False, "5")

    again = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)  # a restart: read from the folder
    async with again.run_test(size=(100, 34)) as pilot:
        await pilot.pause()
        assert again.theme == "nord" and again.player_name == "Zoe" and seat_hex("red") == "#d55e00"
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await _until(pilot, lambda: isinstance(again.screen, GameScreen), "the game")
        game = again.screen
        assert not game.confirm and game.board._glyphs is ASCII_GLYPHS and game.table.think_cap == 5.0
        await pilot.press("tab", "enter")  # no confirmation: played at once
        await _until(pilot, lambda: len(game.table.game.moves) == 1, "the placement played")


@pytest.mark.asyncio
async def test_the_theme_chosen_in_the_palette_is_kept(tmp_path):
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        app.theme = "gruvbox"  # what the command palette's theme picker does
        await _until(pilot, lambda: app.settings.theme == "gruvbox", "the theme saved")
    assert Settings.load().theme == "gruvbox"


@pytest.mark.asyncio
async def test_the_new_game_form_opens_with_the_seats_last_started(tmp_path):
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, NewGameScreen) and len(form.rows()) == 2
        await pilot.press("ctrl+n")
        await pilot.pause()
        form.rows()[2].query_one(".name", Input).value = "Cem"
        form.rows()[2].query_one(".player", Select).value = "random"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await _until(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
    seats = Settings.load().seats
    assert [(s.name, s.player) for s in seats] == [("Red", "human"), ("Blue", "greedy"), ("Cem", "random")]

    again = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with again.run_test(size=(100, 34)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        form = again.screen
        assert isinstance(form, NewGameScreen)
        assert [row.chosen() for row in form.rows()] == [("Red", "red", None), ("Blue", "blue", "greedy"),
                                                         ("Cem", "yellow", "random")]


@pytest.mark.asyncio
async def test_a_burst_of_typing_and_backspaces_in_the_name_keeps_every_key_in_order(tmp_path):
    """Typing as fast as a terminal delivers it: "Bobby", 5 Backspaces, "Zed", 3 Backspaces, "Alice"
    leaves "Alice" in the field and in the settings (the Backspaces were handled after the letters
    typed after them: "BobAl")."""
    from textual.widgets import Input

    from carcnet.tui.screens.settings_screen import SettingsScreen

    from .keyplay import burst, settled, until

    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen), "the settings")
        field = app.screen.query_one("#name", Input)
        burst(app, [*"Bobby", *["backspace"] * 5, *"Zed", *["backspace"] * 3, *"Alice"])
        await pilot.pause()
        await until(pilot, lambda: settled(app), "every key handled")
        assert field.value == "Alice"
        await pilot.press("escape")
        assert app.settings.name == "Alice" and Settings.load().name == "Alice"
