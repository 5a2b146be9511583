"""The board's three zooms (Textual pilot): the large one that draws every feature plainly, the
detailed one, and an overview that keeps each figure's role and seat; chosen by ``z``, ``+`` / ``-``
and the mouse wheel (on the tile under the mouse; Shift+wheel still scrolls), and opening at the
size that suits the terminal."""

from __future__ import annotations

import pytest

pytest.importorskip("textual")

from textual import events

from carcnet.engine import Position
from carcnet.tui.render import Zoom
from carcnet.tui.widgets.board import BoardView

from .board_app import BoardApp, seeded_game


def test_each_zoom_is_about_square_on_screen_and_larger_than_the_last():
    sizes = [zoom.size for zoom in sorted(Zoom)]
    assert sizes == [(5, 3), (9, 5), (13, 7)]
    for width, height in sizes:
        assert 0.7 <= width / (2 * height) <= 1.0  # a terminal cell is about twice as tall as wide


@pytest.mark.asyncio
async def test_z_goes_through_the_three_zooms_and_plus_minus_stop_at_the_ends():
    app = BoardApp(seeded_game(11, 40))
    async with app.run_test(size=(100, 40)) as pilot:
        board = app.query_one(BoardView)
        assert board.zoom is Zoom.DETAILED
        seen = []
        for _ in range(3):
            await pilot.press("z")
            seen.append(board.zoom)
            assert board.camera == board.cursor
        assert seen == [Zoom.OVERVIEW, Zoom.LARGE, Zoom.DETAILED]
        await pilot.press("plus", "plus", "plus")
        assert board.zoom is Zoom.LARGE
        assert board.tile_region(board.cursor).size == (13, 7)
        await pilot.press("minus", "minus", "minus")
        assert board.zoom is Zoom.OVERVIEW
        assert board.tile_region(board.cursor).size == (5, 3)


async def _wheel(pilot, board: BoardView, offset: tuple[int, int], *, up: bool, shift: bool = False) -> None:
    kind = events.MouseScrollUp if up else events.MouseScrollDown
    await pilot._post_mouse_events([kind], board, offset=offset, shift=shift)


@pytest.mark.asyncio
async def test_the_wheel_zooms_on_the_tile_under_the_mouse():
    app = BoardApp(seeded_game(11, 40))
    async with app.run_test(size=(100, 40)) as pilot:
        board = app.query_one(BoardView)
        await pilot.pause()
        spot = (20, 8)  # away from the middle: the board must not simply centre on the cursor
        under = board.position_at(*spot)
        await _wheel(pilot, board, spot, up=True)
        assert board.zoom is Zoom.LARGE
        assert board.position_at(*spot) == under
        await _wheel(pilot, board, spot, up=False)
        await _wheel(pilot, board, spot, up=False)
        assert board.zoom is Zoom.OVERVIEW
        assert board.position_at(*spot) == under
        await _wheel(pilot, board, spot, up=False)  # the smallest already
        assert board.zoom is Zoom.OVERVIEW


@pytest.mark.asyncio
async def test_shift_wheel_scrolls_the_board_instead():
    app = BoardApp(seeded_game(11, 40))
    async with app.run_test(size=(100, 40)) as pilot:
        board = app.query_one(BoardView)
        await pilot.pause()
        before = board.scroll_offset
        await _wheel(pilot, board, (20, 8), up=False, shift=True)
        assert board.zoom is Zoom.DETAILED
        assert board.scroll_offset != before


@pytest.mark.parametrize(("size", "name"), [((80, 24), "DETAILED"), ((120, 40), "DETAILED"), ((200, 60), "LARGE")])
@pytest.mark.asyncio
async def test_a_board_without_a_zoom_opens_at_the_one_that_suits_the_terminal(size, name):
    zoom = Zoom[name]
    app = BoardApp(seeded_game(11, 40), zoom=None)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        board = app.query_one(BoardView)
        assert board.zoom is zoom
        assert board.camera == board.cursor


def test_auto_zoom_thresholds():
    from carcnet.tui.widgets.board import auto_zoom

    assert auto_zoom(80 - 34, 24 - 3) is Zoom.DETAILED  # the game screen's board at 80 x 24
    assert auto_zoom(120 - 34, 40 - 3) is Zoom.DETAILED
    assert auto_zoom(8 * 13, 6 * 7) is Zoom.LARGE


@pytest.mark.asyncio
async def test_the_large_zoom_draws_figures_with_role_and_seat_on_the_board():
    game = seeded_game(11, 40)
    app = BoardApp(game, zoom=Zoom.LARGE)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        board = app.query_one(BoardView)
        seat, _, position, _ = game.figures()[0]
        board.centre_on(position)
        await pilot.pause()
        region = board.tile_region(position)
        rows = ["".join(s.text for s in board.render_line(region.y + r))[region.x:region.right]
                for r in range(region.height)]
        assert any(str(seat + 1) in row and any(letter in row for letter in "KTMF") for row in rows), rows
        assert position in board._view.figures
        assert Position(0, 0) in board._view.tiles
