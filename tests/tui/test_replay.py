"""The replay screen (Textual pilot): n / b step one player's move at a time, Home and End jump; a
game with table draws steps over its draws (they come with the move before them)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App

from carcnet.engine import DrawTile, Phase
from carcnet.log import load
from carcnet.tui.app import STYLESHEET
from carcnet.tui.screens.replay import ReplayScreen

VECTORS = Path(__file__).parents[2] / "protocol" / "vectors"

pytestmark = pytest.mark.asyncio


class _App(App[None]):
    CSS_PATH = STYLESHEET

    def __init__(self, screen: ReplayScreen) -> None:
        super().__init__()
        self._screen = screen

    def on_mount(self) -> None:
        self.push_screen(self._screen)


@pytest.mark.parametrize("name", ["log3-table", "log2-signed"])
async def test_replay_steps_over_the_tables_draws(name):
    loaded = load(VECTORS / f"{name}.bin")
    screen = ReplayScreen(loaded)
    played = [m for m in loaded.game.moves if not isinstance(m, DrawTile)]
    async with _App(screen).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert f"move {len(played)} of {len(played)}" in str(screen.status.render())
        seen = []
        for _ in range(len(played) + 2):  # back to the start, one move at a time
            await pilot.press("b")
            await pilot.pause()
            seen.append(screen.step)
            assert screen.game.phase is not Phase.DRAW  # never stopped in the middle of a draw
        assert seen[-1] == seen[-2] and "move 0 of" in str(screen.status.render())
        assert len(set(seen)) == len(played)  # one stop per player's move (and the start)
        await pilot.press("n")
        await pilot.pause()
        assert "move 1 of" in str(screen.status.render()) and screen.game.drawn is None


async def test_home_and_end_jump_to_the_start_and_the_end_and_N_B_go_twenty():
    """Issue 15 item 2: Home and End reached the focused board (which scrolled) instead of the
    replay; N and B were hidden."""
    loaded = load(VECTORS / "log2-signed.bin")
    screen = ReplayScreen(loaded)
    async with _App(screen).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        end = screen.step
        await pilot.press("home")
        await pilot.pause()
        assert screen.step == 0 and "move 0 of" in str(screen.status.render())
        await pilot.press("end")
        await pilot.pause()
        assert screen.step == end
        shown = {b.binding.key_display for b in screen.active_bindings.values() if b.binding.show}
        assert {"N", "B"} <= shown
