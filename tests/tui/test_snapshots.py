"""Snapshots of the board (pytest-textual-snapshot): both zooms, the meeple chooser, a finished game.

Everything is fixed: seeded games played by the reproducible random bot, fixed terminal sizes, no
animation or clock on screen. Baselines live in ``__snapshots__/``; after a deliberate change to the
look, regenerate them with ``pytest tests/tui/test_snapshots.py --snapshot-update`` and look at the
report before committing.
"""

from __future__ import annotations

import pytest

pytest.importorskip("pytest_textual_snapshot")

from carcnet.engine import Position
from carcnet.tui.render import Zoom
from carcnet.tui.widgets.board import BoardView

from .board_app import BoardApp, inns_game, seeded_game


class TestBoardSnapshots:
    def test_detailed_zoom(self, snap_compare):
        """Seed 11 after 20 turns at 80×24: meeples of both seats, pennants, a cloister, the seats'
        last tiles marked; Tab put the cursor on the nearest position where the drawn tile (B, a
        cloister) fits, with its ghost; the other such positions shaded."""
        assert snap_compare(BoardApp(seeded_game(11, 40)), press=["tab"], terminal_size=(80, 24))

    def test_overview_zoom(self, snap_compare):
        """The same board and cursor in the 3×3 overview."""
        assert snap_compare(BoardApp(seeded_game(11, 40)), press=["tab", "z"], terminal_size=(80, 24))

    def test_meeple_chooser_with_a_feature_highlighted(self, snap_compare):
        """Seed 13: seat 1 (the second) has placed an O (city, road, two fields); its four legal
        spots are numbered; Tab chose spot 1 and a second Tab spot 2, the road, whose whole feature
        (four tiles) is highlighted."""
        assert snap_compare(BoardApp(seeded_game(13, 15)), press=["tab", "tab"], terminal_size=(80, 24))

    def test_inns_and_cathedrals(self, snap_compare):
        """Inns & Cathedrals at 80×24: the inn (⌂) on the road east of the start tile, under Red's
        large meeple; the cathedral (‡) in the city north of it, Blue's meeple in it; Tab put the
        cursor where ICL (a pennant, a road with an inn) fits first, its ghost drawn."""
        assert snap_compare(BoardApp(inns_game()), press=["tab"], terminal_size=(80, 24))

    def test_finished_game_overview(self, snap_compare):
        """All 72 tiles of the seed-5 game, farmers left on the board, in the overview at 120×40."""
        game = seeded_game(5, 10**6)

        async def centre(pilot) -> None:
            board = pilot.app.query_one(BoardView)
            min_x, min_y, max_x, max_y = board._view.bounds
            board.centre_on(Position((min_x + max_x) // 2, (min_y + max_y) // 2))

        app = BoardApp(game, zoom=Zoom.OVERVIEW)
        assert snap_compare(app, run_before=centre, terminal_size=(120, 40))
