"""The interface in the pseudo-locale (carcnet.i18n: every marked string accented and 40 % longer,
between ‹ and ›): a plain English word on a screen is a string nobody marked for translation; and
the language switched in the settings shows at once.

Each screen is drawn as a player meets it (Textual pilot) and its text read back; the words that are
data (the players' names, the program's name) are the only plain ones allowed.
"""

from __future__ import annotations

import getpass
import re

import pytest

from carcnet.bots import BOTS
from carcnet.i18n import PSEUDO, language, set_language
from carcnet.tui.app import CarcnetApp
from carcnet.tui.screens.final import FinalScreen
from carcnet.tui.screens.game import GameScreen
from carcnet.tui.screens.home import HomeScreen
from carcnet.tui.screens.settings_screen import SettingsScreen
from carcnet.tui.screens.setup import NewGameScreen

from .test_app import _new_game, _until_human
from .test_screens_snapshots import COLOURS, NAMES, ScreenApp, finished_game

pytestmark = pytest.mark.asyncio

#: Plain words a screen may show in any language: data, not text (the login name is the name field's
#: placeholder; the bots' names are typed as they are, ``greedy,greedy``).
DATA = {"carcnet", *NAMES, getpass.getuser(), getpass.getuser().title(), *BOTS}
#: A run of three or more plain (unaccented) letters: in the pseudo-locale, an unmarked string.
PLAIN = re.compile(r"(?<![^\W\d_])[A-Za-z]{3,}(?![^\W\d_])")


def _screen_lines(app) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


def plain_words(lines: list[str], allowed: set[str] = frozenset()) -> list[tuple[str, str]]:
    """The plain English words of *lines* (with the line each is on), *allowed* and :data:`DATA`
    left out, and what a player types or reads as data: paths, options (``--game``), the bots' names."""
    found = []
    for line in lines:
        typed = re.sub(r"\S*/\S*|--[\w-]+", " ", line)
        for match in PLAIN.finditer(typed):
            if match.group() not in DATA | set(allowed):
                found.append((match.group(), line.strip()))
    return found


def test_the_checker_finds_a_plain_word_and_passes_a_marked_one():
    set_language(PSEUDO)
    from carcnet.i18n import _

    assert plain_words([_("New game") + " Ann"]) == []
    assert plain_words(["‹Ñéŵ ĝáɱé› Settings"]) == [("Settings", "‹Ñéŵ ĝáɱé› Settings")]


@pytest.fixture
def pseudo(monkeypatch):
    """The pseudo-locale, as a player would choose it: in the environment (the app's "auto")."""
    monkeypatch.setenv("LANGUAGE", PSEUDO)
    set_language(PSEUDO)
    yield
    set_language("en")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_home_screen_new_game_form_and_settings_are_all_marked(tmp_path, pseudo, size):
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert plain_words(_screen_lines(app)) == []
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert plain_words(_screen_lines(app), {"Red", "Blue"}) == []
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        assert plain_words(_screen_lines(app), {"Red", "Blue", "English", "Deutsch", "Polski",
                                                "textual", "dark"}) == []  # theme names


#: The home screen's entries other than a new game and the settings, each by its key: the lessons,
#: the saved games to resume and to replay, the host setup, the games on the network to join and
#: to watch, a tournament.
ENTRIES = ["l", "r", "p", "h", "j", "s", "t"]


@pytest.mark.parametrize("key", ENTRIES)
async def test_every_entry_of_the_home_screen_is_marked(tmp_path, pseudo, key):
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5, player_name="Ann",
                     lan_options={"listen": "127.0.0.1", "discovery": False})
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        home = app.screen
        await pilot.press(key)
        await pilot.pause()
        assert app.screen is not home
        assert plain_words(_screen_lines(app), {"Red", "Blue"}) == []


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_game_screen_and_its_help_are_all_marked(tmp_path, pseudo, size):
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=size) as pilot:
        screen = await _new_game(pilot, app)
        assert isinstance(screen, GameScreen)
        await _until_human(pilot, screen)
        assert plain_words(_screen_lines(app), {"Red", "Blue"}) == []
        await pilot.press("question_mark")
        await pilot.pause()
        assert plain_words(_screen_lines(app), {"Red", "Blue"}) == []


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_final_scores_are_all_marked(pseudo, size):
    game = finished_game()
    app = ScreenApp(lambda: FinalScreen(game, NAMES, COLOURS))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert plain_words(_screen_lines(app)) == []


async def test_the_language_chosen_in_the_settings_shows_at_once(tmp_path):
    """The settings' Language switches the screens open (the settings, the home screen below it)
    without a restart, and is kept for the next start."""
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("o")
        await pilot.pause()
        before = "\n".join(_screen_lines(app))
        assert "Settings" in before
        set_language(PSEUDO)  # what the Select does for a language, with every string visible
        app.relabel()
        await pilot.pause()
        after = "\n".join(_screen_lines(app))
        assert "Settings" not in after and "Šéťťíñĝš" in after
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert plain_words(_screen_lines(app)) == []
        set_language("en")
        app.change_settings(language="en")
        await pilot.pause()
        assert language() == "en" and app.settings.language == "en"
