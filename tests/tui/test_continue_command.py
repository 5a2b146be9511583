"""``carcnet continue FILE --turn N`` plays the new game at this terminal (the interface opens on it),
as the README says; ``--save-only`` only saves it."""

from __future__ import annotations

from pathlib import Path

import pytest

from carcnet.cli import main
from carcnet.engine import PlaceTile
from carcnet.log import load
from carcnet.tui.screens.game import GameScreen

from ..club.test_ratings import _signed_game
from .keyplay import until

pytestmark = pytest.mark.asyncio


async def test_continue_opens_the_new_game_in_the_interface(tmp_path: Path, monkeypatch, capsys):
    from carcnet.cli import common

    log = _signed_game(tmp_path / "game.carclog")
    before = log.read_bytes()
    data = tmp_path / "data"
    apps = []
    monkeypatch.setattr(common, "run_interface", lambda app, data_dir: apps.append(app) or 0)
    assert main(["continue", str(log), "--turn", "4", "--data-dir", str(data)]) == 0
    (app,) = apps  # the interface, not a sentence and an exit
    (path,) = data.glob("*.carclog")
    assert log.read_bytes() == before
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the new game on the screen")
        table = app.screen.table
        assert table.path == path
        assert sum(isinstance(m, PlaceTile) for m in table.game.moves) >= 4
    assert sum(isinstance(m, PlaceTile) for m in load(path).game.moves[:]) >= 4


async def test_continue_with_save_only_saves_and_says_how_to_play_it(tmp_path: Path, monkeypatch, capsys):
    from carcnet.cli import common

    log = _signed_game(tmp_path / "game.carclog")
    data = tmp_path / "data"
    monkeypatch.setattr(common, "run_interface", lambda app, data_dir: pytest.fail("no interface with --save-only"))
    assert main(["continue", str(log), "--turn", "4", "--data-dir", str(data), "--save-only"]) == 0
    (path,) = data.glob("*.carclog")
    out = capsys.readouterr().out
    assert f"carcnet resume {path}" in out
