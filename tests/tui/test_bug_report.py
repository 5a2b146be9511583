"""F12 in a game writes a bug report (docs/bug-reports.md): the screen as it was, a note, one zip in the
saved games' ``reports`` folder, named in a notification; Escape writes none."""

from __future__ import annotations

import json
import zipfile
from types import SimpleNamespace

import pytest
from textual.widgets import Input

from carcnet.tui.app import CarcnetApp
from carcnet.tui.screens.bug_report import BugNoteScreen
from carcnet.tui.screens.game import DesyncScreen, GameScreen
from carcnet.tui.screens.help import HELP_TEXT
from carcnet.tui.settings import Settings

from ..bundles import replay_bundle

pytestmark = pytest.mark.asyncio


async def _game(pilot, app: CarcnetApp) -> GameScreen:
    await pilot.press("n")
    await pilot.pause()
    await pilot.press("ctrl+s")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, GameScreen)
    return screen


async def test_f12_writes_a_report_of_the_game_with_the_screen_and_a_note(tmp_path):
    app = CarcnetApp(data_dir=tmp_path / "games", bot_delay=0, seed=5, settings=Settings(name="Ann", bell=False))
    said: list[str] = []
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _game(pilot, app)
        notify = app.notify
        app.notify = lambda message, **kw: (said.append(message), notify(message, **kw))[1]  # type: ignore[method-assign]
        await pilot.press("f12")
        await pilot.pause()
        assert isinstance(app.screen, BugNoteScreen)
        app.screen.query_one(Input).value = "the tile would not rotate"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen
        reports = list((tmp_path / "games" / "reports").glob("carcnet-report-*.zip"))
        assert len(reports) == 1 and any(str(reports[0]) in s for s in said)
        with zipfile.ZipFile(reports[0]) as archive:
            members = {name: archive.read(name) for name in archive.namelist()}
        assert members["save.carclog"] == screen.table.path.read_bytes()
        manifest = json.loads(members["manifest.json"])
        assert manifest["note"] == "the tile would not rotate" and manifest["origin"] == "interface"
        assert manifest["table"]["kind"] == "local" and manifest["table"]["moves"] == len(screen.table.game.moves)
        assert json.loads(members["settings.json"])["name"] == "Ann"
        assert members["screen.svg"].startswith(b"<svg")
        text = members["screen.txt"].decode()
        names = screen.table.names
        assert all(name in text for name in names) and "Bug report" not in text  # the game, before the question
        assert replay_bundle(reports[0]).digest == screen.table.game.digest

        await pilot.press("f12")  # Escape: no report
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and len(list((tmp_path / "games" / "reports").iterdir())) == 1


async def test_the_key_works_over_the_stop_report_and_is_in_the_help_and_the_palette(tmp_path):
    assert "| F12 | a bug report" in HELP_TEXT
    app = CarcnetApp(data_dir=tmp_path / "games", bot_delay=0, seed=5)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _game(pilot, app)
        assert "Bug report (F12)" in [c.title for c in app.get_system_commands(screen)]
        app.push_screen(DesyncScreen(SimpleNamespace(message="the peers parted", code="desync", seq=3)))
        await pilot.pause()
        await pilot.press("f12")  # the game stopped: the report is asked for from the stop's screen
        await pilot.pause()
        assert isinstance(app.screen, BugNoteScreen)
        await pilot.press("enter")
        await pilot.pause()
        report = next((tmp_path / "games" / "reports").glob("carcnet-report-*.zip"))
        with zipfile.ZipFile(report) as archive:
            assert "the peers parted" in archive.read("screen.txt").decode()
