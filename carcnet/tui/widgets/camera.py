"""Provides the board's camera: :class:`Camera`, where the board's positions lie in the scrolled view.

The board (:class:`~carcnet.tui.widgets.board.BoardView`) is a scroll view over a virtual canvas: the
tiles' bounds plus a margin of half a view on every side, so that any position can be centred. The
camera keeps the board position drawn at the canvas's top-left cell (:attr:`Camera.origin`) and works
out, for a zoom, a scroll offset and a view's size, which position is under a cell, where a position
is drawn, what scroll centres a position or keeps it in view, and how the canvas grows with the
board. Values in, values out: the widget owns the scrolling (Textual's) and scrolls where it is told.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.geometry import Region, Size

from carcnet.engine import Position
from carcnet.tui.render import Zoom

__all__ = ["Anchor", "Bounds", "Camera"]

#: The board's extent: the least x and y and the greatest x and y of its tiles and their frontier.
Bounds = tuple[int, int, int, int]
#: A point of the board kept under the mouse while the zoom changes: (board x, board y, view column,
#: view row), the board's coordinates in tiles (fractions within a tile).
Anchor = tuple[float, float, int, int]


@dataclass(slots=True)
class Camera:
    """Where the board's positions are drawn on the canvas the view scrolls over.

    Attributes:
        origin: The board position drawn at the canvas's top-left cell.
    """

    origin: tuple[int, int] = (0, 0)

    def position_at(self, zoom: Zoom, scroll: tuple[float, float], col: int, row: int) -> Position:
        """The board position under the view's cell *col*, *row* (*scroll*: the view's offset)."""
        tw, th = zoom.size
        x = (int(scroll[0]) + col) // tw + self.origin[0]
        return Position(x, (int(scroll[1]) + row) // th + self.origin[1])

    def tile_region(self, zoom: Zoom, scroll: tuple[float, float], position: Position) -> Region:
        """Where *position* is drawn, in the view's cells (may lie outside the view)."""
        tw, th = zoom.size
        return Region(
            (position.x - self.origin[0]) * tw - int(scroll[0]),
            (position.y - self.origin[1]) * th - int(scroll[1]),
            tw,
            th,
        )

    def centre(self, zoom: Zoom, scroll: tuple[float, float], size: Size) -> Position:
        """The position at the middle of a view of *size*."""
        tw, th = zoom.size
        x = int(scroll[0] + size.width / 2) // tw + self.origin[0]
        y = int(scroll[1] + size.height / 2) // th + self.origin[1]
        return Position(x, y)

    def centring(self, zoom: Zoom, size: Size, position: Position) -> tuple[int, int]:
        """The scroll offset that puts *position* in the middle of a view of *size*."""
        tw, th = zoom.size
        x = (position.x - self.origin[0]) * tw + tw // 2 - size.width // 2
        y = (position.y - self.origin[1]) * th + th // 2 - size.height // 2
        return x, y

    def lay_out(self, zoom: Zoom, size: Size, bounds: Bounds) -> tuple[Size, tuple[int, int]]:
        """Moves :attr:`origin` for a board of *bounds* in a view of *size*: the canvas is the board
        plus a margin of half a view (and two tiles), so that any position can be centred. Returns
        the canvas's size and how far, in cells, what was drawn moved on it (the scroll that keeps the
        view still; ``(0, 0)`` when the origin did not move)."""
        tw, th = zoom.size
        min_x, min_y, max_x, max_y = bounds
        mx = size.width // tw // 2 + 2
        my = size.height // th // 2 + 2
        origin = (min_x - mx, min_y - my)
        shift = ((self.origin[0] - origin[0]) * tw, (self.origin[1] - origin[1]) * th)
        self.origin = origin
        return Size((max_x - min_x + 1 + 2 * mx) * tw, (max_y - min_y + 1 + 2 * my) * th), shift

    def following(self, zoom: Zoom, size: Size, scroll: tuple[float, float],
                  position: Position) -> tuple[float, float] | None:
        """The scroll offset that brings *position* into a view of *size* moving as little as needed,
        a tile clear of the edge where the view is three tiles or more; ``None`` when it is in view."""
        tw, th = zoom.size
        width, height = size
        region = self.tile_region(zoom, scroll, position)
        mx = tw if width >= 3 * tw else 0
        my = th if height >= 3 * th else 0
        x, y = scroll
        if region.x - mx < 0:
            x += region.x - mx
        elif region.right + mx > width:
            x += region.right + mx - width
        if region.y - my < 0:
            y += region.y - my
        elif region.bottom + my > height:
            y += region.bottom + my - height
        return None if (x, y) == tuple(scroll) else (x, y)

    def anchor(self, zoom: Zoom, scroll: tuple[float, float], col: int, row: int) -> Anchor:
        """The point of the board under the view's cell *col*, *row*, to keep there as the zoom changes."""
        tw, th = zoom.size
        return ((scroll[0] + col) / tw + self.origin[0], (scroll[1] + row) / th + self.origin[1], col, row)

    def anchored(self, zoom: Zoom, anchor: Anchor) -> tuple[int, int]:
        """The scroll offset at *zoom* that puts the board's point of *anchor* under its cell again."""
        bx, by, col, row = anchor
        tw, th = zoom.size
        return round((bx - self.origin[0]) * tw - col), round((by - self.origin[1]) * th - row)

    @staticmethod
    def within(bounds: Bounds, position: Position) -> Position:
        """*position*, moved into *bounds* if it lies outside them."""
        min_x, min_y, max_x, max_y = bounds
        return Position(min(max(position.x, min_x), max_x), min(max(position.y, min_y), max_y))
