"""The saved-games list (Resume, Replay): a save can be archived (moved with the files beside it into
``archive/`` beside the saves, out of the list) or deleted, each after a question that a stray Enter
answers "keep it"; a game being played is neither. A save has no ``.lock`` file beside it."""

from __future__ import annotations

from pathlib import Path

import pytest

from carcnet.bots import make_bot
from carcnet.engine import Phase
from carcnet.log import GameRecorder, LogHeader, Seat
from carcnet.log.lock import SaveLock
from carcnet.tui.app import CarcnetApp
from carcnet.tui.screens.help import HelpScreen, keys_help
from carcnet.tui.screens.saved import ARCHIVE, ConfirmFileScreen, SavedGamesScreen
from carcnet.tui.widgets.footer import footer_items

pytestmark = pytest.mark.asyncio


def _unfinished(folder: Path, name: str, seed: int, moves: int = 12) -> Path:
    """A local game of two greedy bots left after *moves* moves, saved as *name*."""
    seats = [Seat("Ann", "red", "human"), Seat("Bob", "blue", "bot", "greedy")]
    recorder = GameRecorder.create(LogHeader.new(seats, seed=seed), folder / name)
    bot = make_bot("greedy", seed)
    while len(recorder.game.moves) < moves and recorder.game.phase is not Phase.GAME_OVER:
        recorder.submit(bot.choose(recorder.game.view()))
    assert not list(folder.glob("*.lock"))  # the writer's lock is on the save itself
    recorder.close()
    return folder / name


async def _listed(pilot, screen: SavedGamesScreen, rows: int) -> None:
    """Waits (bounded) until the list holds *rows* games, each checked."""
    table = screen.query_one("DataTable")
    for _ in range(1000):
        if table.row_count == rows and not screen._pending:
            return
        await pilot.pause(0.01)
    raise AssertionError(f"{table.row_count} rows, {len(screen._pending)} being checked")


async def _resume_list(pilot, app: CarcnetApp, rows: int) -> SavedGamesScreen:
    await pilot.press("r")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, SavedGamesScreen)
    await _listed(pilot, screen, rows)
    return screen


async def test_archive_and_delete_ask_first_and_take_the_files_beside_the_save(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    older = _unfinished(games, "20260101-100000-aaaaaaaa.carclog", 3)
    newer = _unfinished(games, "20260102-100000-bbbbbbbb.carclog", 4)
    side = [newer.with_suffix(".keys"), newer.with_suffix(".events"), newer.with_name(newer.name + ".aside")]
    for f in side:
        f.write_text("beside the save")
    app = CarcnetApp(data_dir=games, bot_delay=0, seed=1)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await _resume_list(pilot, app, 2)
        keys = {i.description: i.display for i in footer_items(screen.active_bindings, app.get_key_display)}
        assert keys.get("Archive") == "e" and keys.get("Delete") == "d", keys
        assert "archive/ folder" in keys_help(screen) and "Delete the selected save" in keys_help(screen)

        # the newest first: archive it, after saying no once and answering a stray Enter
        for answer in ("n", "enter"):
            await pilot.press("e")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmFileScreen) and newer.name in str(app.screen.query_one("#question").render())
            await pilot.press(answer)
            await pilot.pause()
            assert app.screen is screen and newer.is_file()
        await pilot.press("e")
        await pilot.pause()
        await pilot.press("y")
        await _listed(pilot, screen, 1)
        archive = games / ARCHIVE
        assert not newer.exists() and (archive / newer.name).is_file()
        assert all(not f.exists() and (archive / f.name).read_text() == "beside the save" for f in side)

        # then delete the other: Escape keeps it, y deletes it
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmFileScreen) and "for good" in str(app.screen.query_one("#detail").render())
        await pilot.press("escape")
        await pilot.pause()
        assert older.is_file()
        await pilot.press("delete")
        await pilot.pause()
        await pilot.press("y")
        await _listed(pilot, screen, 0)
        assert not older.exists() and sorted(p.name for p in games.iterdir()) == [ARCHIVE]

        await pilot.press("question_mark")  # the help lists the keys too
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


async def test_a_save_being_played_is_neither_archived_nor_deleted(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    path = _unfinished(games, "20260101-100000-cccccccc.carclog", 5)
    app = CarcnetApp(data_dir=games, bot_delay=0, seed=1)
    lock = SaveLock.acquire(path)  # another carcnet writes it
    try:
        async with app.run_test(size=(120, 30)) as pilot:
            screen = await _resume_list(pilot, app, 1)
            for key in ("e", "d"):
                await pilot.press(key)
                await pilot.pause()
                await pilot.press("y")
                await pilot.pause()
                assert app.screen is screen and screen.query_one("DataTable").row_count == 1
            said = [n.message for n in app._notifications]
            assert len([m for m in said if "a save has one writer" in m]) == 2, said
    finally:
        lock.release()
    assert path.is_file() and not (games / ARCHIVE).exists()
