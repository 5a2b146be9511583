"""Snapshots of the question asked before leaving a network game (pytest-textual-snapshot) at 120x40, 80x24
and 60x18: the three choices and their hints, none cut.

Regenerate with ``--snapshot-update`` after a deliberate change, and look at the report first.
"""

from __future__ import annotations

import pytest

pytest.importorskip("pytest_textual_snapshot")

from textual.app import App

from carcnet.tui.app import STYLESHEET
from carcnet.tui.screens.leave import LeaveScreen


class ScreenApp(App[None]):
    CSS_PATH = STYLESHEET

    def on_mount(self) -> None:
        self.push_screen(LeaveScreen("Friday game", "Ann"))


@pytest.mark.parametrize("size", [(120, 40), (80, 24), (60, 18)], ids=["120x40", "80x24", "60x18"])
def test_the_leave_question(snap_compare, size):
    assert snap_compare(ScreenApp(), terminal_size=size)
