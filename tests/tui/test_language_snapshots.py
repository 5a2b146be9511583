"""The screens a player sees most, in every language carcnet offers, at 80×24 and 120×40: the home
screen, a game after a few turns, its help, and the final scores.

Two checks each: nothing is cut that English shows whole (every key the English footer shows is shown:
in the footer, or beside its entry in a menu on the screen, as the home screen lists every key; and no
more text ends in "…" than in English), and a snapshot (pytest-textual-snapshot) for a person
to look at the layout in each language. Regenerate the snapshots with ``--snapshot-update`` after a
deliberate change, and look at the report first.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import pytest

pytest.importorskip("pytest_textual_snapshot")

from carcnet.i18n import LANGUAGES, set_language
from carcnet.tui.app import CarcnetApp
from carcnet.tui.widgets.footer import KeyFooter

from .test_app import _human_turn, _new_game
from .test_screens_snapshots import COLOURS, NAMES, ScreenApp, finished_game

TRANSLATED = [code for code in LANGUAGES if code != "en"]
SIZES = [(80, 24), (120, 40)]
SCREENS = ["home", "game", "help", "final"]


def _app(screen: str, tmp_path) -> tuple[object, Callable[[object], Awaitable[None]]]:
    """The app showing *screen*, and what brings it there (a pilot's keys)."""
    if screen == "final":
        from carcnet.tui.screens.final import FinalScreen

        game = finished_game()

        async def nothing(pilot) -> None:
            await pilot.pause()

        return ScreenApp(lambda: FinalScreen(game, NAMES, COLOURS)), nothing
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)

    async def there(pilot) -> None:
        await pilot.pause()
        if screen == "home":
            return
        game_screen = await _new_game(pilot, app)
        for __ in range(12):  # a few turns of Red (keys) and the greedy bot
            await _human_turn(pilot, game_screen)
        if screen == "help":
            await pilot.press("question_mark")
        await pilot.pause()

    return app, there


async def _seen(code: str, screen: str, size: tuple[int, int], tmp_path, monkeypatch) -> tuple[set[str], int]:
    """The keys shown (the footer's, and those at the end of a menu's entry: ``… n ▎``) and the
    number of "…" on *screen* in the language *code*."""
    monkeypatch.setenv("LANGUAGE", code)
    set_language(code)
    try:
        app, there = _app(screen, tmp_path)
        async with app.run_test(size=size) as pilot:
            await there(pilot)
            footers = list(app.screen.query(KeyFooter))
            keys = {item.key for footer in footers for item in footer.shown}
            lines = [strip.text for strip in app.screen._compositor.render_strips()]
            body = lines[:-1] if footers else lines
            menu = {match.group(1) for line in body for match in [re.search(r"\s(\S)\s*▎\s*$", line)] if match}
            keys |= {"question_mark" if key == "?" else key for key in menu}
            return keys, "\n".join(lines).count("…")
    finally:
        set_language("en")


@pytest.mark.asyncio
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("code", TRANSLATED)
async def test_nothing_is_cut_that_english_shows_whole(code, screen, size, tmp_path, monkeypatch):
    english_keys, english_cuts = await _seen("en", screen, size, tmp_path / "en", monkeypatch)
    keys, cuts = await _seen(code, screen, size, tmp_path / code, monkeypatch)
    assert english_keys <= keys, f"keys not shown in {code}: {english_keys - keys}"
    assert cuts <= english_cuts


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("code", TRANSLATED)
def test_snapshot(code, screen, size, snap_compare, tmp_path, monkeypatch):
    monkeypatch.setenv("LANGUAGE", code)
    set_language(code)
    try:
        app, there = _app(screen, tmp_path)
        assert snap_compare(app, run_before=there, terminal_size=size)
    finally:
        set_language("en")
