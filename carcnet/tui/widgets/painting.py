"""Provides the board's painting: :class:`BoardPainter` turns the *looks* of board positions into styled
lines, and the terrain colours (:data:`TERRAIN`, :func:`art_line`) the other pictures of tiles share.

:mod:`carcnet.tui.render` draws each tile into cells (plain data, cached per design, rotation and
zoom); the painter styles them into pieces of segments, cached per *look* of a position (design,
rotation, decorations, cursor: a hashable key the board widget makes), and assembles the lines of the
view from those pieces, cached per row until a position on it looks otherwise. So a cursor move
re-renders two tiles and rebuilds lines from cached pieces. Nothing here knows Textual's widgets or the
game: the board (:class:`~carcnet.tui.widgets.board.BoardView`) says what each position looks like.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.color import Color
from textual.strip import Strip

from carcnet.engine import Position, tile_kind
from carcnet.tui.render import (
    Glyphs,
    Mode,
    Paint,
    Role,
    TileArt,
    Zoom,
    compose_empty,
    compose_tile,
    tile_art,
)
from carcnet.tui.widgets.palette import seat_hex

__all__ = ["TERRAIN", "BoardPainter", "Look", "art_line", "seat_colour"]

#: Terrain colours by what a cell shows: (foreground, background at parity 0, background at parity 1).
#: The two backgrounds differ enough that neighbouring tiles read as separate tiles, like a
#: chessboard (with barely different shades the tile edges did not show).
TERRAIN = {
    Role.FIELD: ("#8fc26a", "#3d6e2b", "#4b8037"),
    Role.ROAD: ("#f6efd9", "#3d6e2b", "#4b8037"),
    Role.JUNCTION: ("#f6efd9", "#3d6e2b", "#4b8037"),
    Role.CITY: ("#6e5232", "#b08d5c", "#c29d69"),
    # pennants and cloisters in no seat's colour (a blue pennant, a red cloister read
    # as Blue's and Red's): a pale gold pennant on the city, a cream cloister on the field
    Role.PENNANT: ("#ffe9a0", "#8a6a3e", "#9a7848"),
    Role.CLOISTER: ("#fff4dc", "#3d6e2b", "#4b8037"),
    Role.GARDEN: ("#ffb3de", "#3d6e2b", "#4b8037"),
    Role.RIVER: ("#d3ecff", "#2e6fb0", "#3a80c4"),
    # an inn on the road's field, a cathedral on the city: both in no seat's colour
    Role.INN: ("#ffd27a", "#3d6e2b", "#4b8037"),
    Role.CATHEDRAL: ("#fff4dc", "#8a6a3e", "#9a7848"),
    # Hills & Sheep's marks of the whole tile, on the field: a sandy hill, purple grapes
    Role.HILL: ("#e8d28a", "#3d6e2b", "#4b8037"),
    Role.VINEYARD: ("#d9a6ff", "#3d6e2b", "#4b8037"),
    # The Princess & the Dragon's marks: a glowing volcano, the dragon's symbol, a portal's blue light on
    # the field, the princess in her city's colours
    Role.VOLCANO: ("#ff7a3a", "#3d6e2b", "#4b8037"),
    Role.DRAGON_MARK: ("#ff5a5a", "#3d6e2b", "#4b8037"),
    Role.PORTAL: ("#7ad8ff", "#3d6e2b", "#4b8037"),
    Role.PRINCESS: ("#ffd6f0", "#8a6a3e", "#9a7848"),
}

#: What decides how a position looks, as a hashable key, made by the board widget:
#: ``("tile", zoom, letter, rotation, parity, figures, flocks, highlight, spots, selected, cursor, mark, tint,
#: dragon, fairy)``,
#: ``("ghost", zoom, letter, rotation, parity)`` or ``("empty", zoom, fits, cursor, parity)``.
Look = tuple

_GHOST_TINT = Color.parse("#a0a8ff")
_HIGHLIGHT = Color.parse("#ffd24a")
_CURSOR = "#ffff3a"
#: The dragon's path so far and the tiles it may move to (The Princess & the Dragon): a red and an amber tint.
_PATH_TINT = Color.parse("#c0282a")
_TARGET_TINT = Color.parse("#ff9a1a")
#: The dragon: white on red, and the fairy: deep blue on pale gold, both in no seat's colour.
_DRAGON = Style(color="#ffffff", bgcolor="#c0141a", bold=True)
_FAIRY = Style(color="#2a1a6e", bgcolor="#fff2a8", bold=True)
_SPOT = Style(color="#000000", bgcolor="#ffd24a", bold=True)
_CHOSEN = Style(color="#000000", bgcolor="#ffffff", bold=True)
_OPEN = ("#b8e68a", "#24361f", "#20311c")
_EMPTY_BG = "#0f130f"

_CACHE_LIMIT = 8192

#: The roles drawn bold: the roads, and the marks on a tile.
_BOLD = frozenset((Role.ROAD, Role.PENNANT, Role.CLOISTER, Role.INN, Role.CATHEDRAL, Role.HILL, Role.VINEYARD,
                   Role.VOLCANO, Role.DRAGON_MARK, Role.PORTAL, Role.PRINCESS))


def art_line(art: TileArt, row: int) -> Text:
    """Row *row* of a drawn tile in the board's terrain colours (parity 0), for pictures outside the
    board: the drawn tile's preview, the bag."""
    out = Text()
    for cell in art.cells[row]:
        fg, bg, _ = TERRAIN.get(cell.role, ("#ffffff", "#000000", ""))
        out.append(cell.char, style=Style(color=fg, bgcolor=bg))
    return out


def seat_colour(name: str) -> str:
    """A seat colour as ``#rrggbb``."""
    named = seat_hex(name)
    return named if named is not None else Color.parse(name).hex


class BoardPainter:
    """The styled pieces of board positions and the lines of the view made of them, with their caches.

    Lifecycle: made with the seats' colours and the glyphs; :meth:`line` paints a row of the view; the
    board calls :meth:`forget` for positions whose look changed, :meth:`forget_lines` when its
    origin moved (every line is elsewhere), :meth:`forget_all` when everything may look otherwise.

    Args:
        colours: Seat colours in seat order (names such as ``"red"`` or ``#rrggbb``).
        glyphs: The glyph set.
    """

    def __init__(self, colours: Iterable[str], glyphs: Glyphs) -> None:
        self._colours = tuple(seat_colour(c) for c in colours)
        self._glyphs = glyphs
        self._styles_cache_: dict[Paint, Style] = {}
        self._pieces: dict[tuple, tuple[tuple[Segment, ...], ...]] = {}
        self._looks: dict[Position, Look] = {}
        self._lines: dict[int, dict[tuple[int, int], Strip]] = {}  # virtual row -> (scroll x, width) -> line

    # ------------------------------------------------------------------ the lines of the view

    def line(self, vy: int, scroll_x: int, width: int, zoom: Zoom, origin: tuple[int, int],
             look: Callable[[Position], Look]) -> Strip:
        """Virtual row *vy* of the view, *width* cells from *scroll_x*, of the board whose top-left
        position is *origin*, drawn at *zoom*: assembled from cached pieces (*look* says how a position
        looks when its look is not cached), and cached itself until a position on it changes, so that
        vertical scrolling reuses lines."""
        lines = self._lines.get(vy)
        if lines is None or len(lines) > 8:  # a few horizontal offsets per row (a drag makes many)
            lines = self._lines[vy] = {}
        line = lines.get((scroll_x, width))
        if line is None:
            line = lines[(scroll_x, width)] = self._build_line(vy, scroll_x, width, zoom, origin, look)
        return line

    def _build_line(self, vy: int, scroll_x: int, width: int, zoom: Zoom, origin: tuple[int, int],
                    look: Callable[[Position], Look]) -> Strip:
        tw, th = zoom.size
        ty, row = divmod(vy, th)
        ox, oy = origin
        board_y = oy + ty
        tx, offset = divmod(scroll_x, tw)
        segments: list[Segment] = []
        extend = segments.extend
        remaining = width
        if offset:
            extend(self._cut(Position(ox + tx, board_y), row, offset, min(tw, offset + remaining), look))
            remaining -= tw - offset
            tx += 1
        while remaining >= tw:
            extend(self._piece(Position(ox + tx, board_y), look)[row])
            remaining -= tw
            tx += 1
        if remaining > 0:
            extend(self._cut(Position(ox + tx, board_y), row, 0, remaining, look))
        return Strip(segments, width)

    def _cut(self, position: Position, row: int, start: int, end: int,
             look: Callable[[Position], Look]) -> tuple[Segment, ...]:
        """Cells *start* to *end* of one row of a position's piece (every glyph is one cell wide)."""
        out: list[Segment] = []
        x = 0
        for segment in self._piece(position, look)[row]:
            text = segment.text
            n = len(text)
            if x + n > start and x < end:
                out.append(Segment(text[max(0, start - x) : end - x], segment.style))
            x += n
        return tuple(out)

    # ------------------------------------------------------------------ the caches

    def forget(self, positions: Iterable[Position], zoom: Zoom, origin: tuple[int, int]) -> None:
        """Drops what is cached about how *positions* look, and the lines they are on (at *zoom*, the
        board's top-left position at *origin*)."""
        th = zoom.size[1]
        oy = origin[1]
        for position in positions:
            self._looks.pop(position, None)
            top = (position.y - oy) * th
            for vy in range(top, top + th):
                self._lines.pop(vy, None)

    def forget_lines(self) -> None:
        """Drops the lines (the board's origin moved: each is another row now)."""
        self._lines.clear()

    def forget_all(self) -> None:
        """Drops every look and line (the pieces stay: a look draws the same piece whenever it comes)."""
        self._looks.clear()
        self._lines.clear()

    def _piece(self, position: Position,
               look_of: Callable[[Position], Look]) -> tuple[tuple[Segment, ...], ...]:
        """The styled rows of one position, from the cache of looks (*look_of* says how it looks when
        that is not cached)."""
        look = self._looks.get(position)
        if look is None:
            look = self._looks[position] = look_of(position)
        piece = self._pieces.get(look)
        if piece is None:
            if len(self._pieces) > _CACHE_LIMIT:
                self._pieces.clear()
            piece = self._pieces[look] = self._draw(look)
        return piece

    # ------------------------------------------------------------------ a piece and its styles

    def _draw(self, look: Look) -> tuple[tuple[Segment, ...], ...]:
        glyphs = self._glyphs
        if look[0] == "tile":
            (_, zoom, letter, rotation, parity, figures, flocks, highlight, spots, selected, cursor, mark, tint,
             dragon, fairy) = look
            art = tile_art(tile_kind(letter), rotation, zoom, glyphs)
            grid = compose_tile(
                art,
                parity=parity,
                highlight=highlight,
                figures=figures,
                flocks=flocks,
                spots=spots,
                selected=selected,
                cursor=cursor,
                mark=mark,
                glyphs=glyphs,
                tint=tint,
                dragon=dragon,
                fairy=fairy,
            )
        elif look[0] == "ghost":
            _, zoom, letter, rotation, parity = look
            art = tile_art(tile_kind(letter), rotation, zoom, glyphs)
            grid = compose_tile(art, parity=parity, ghost=True, cursor=True, glyphs=glyphs)
        else:
            _, zoom, fits, cursor, parity = look
            w, h = zoom.size
            grid = compose_empty(w, h, open=fits, cursor=cursor, parity=parity, glyphs=glyphs)
        style = self._style
        rows = []
        for row in grid:
            segments: list[Segment] = []
            run, paint = row[0]
            for char, p in row[1:]:
                if p == paint:
                    run += char
                else:
                    segments.append(Segment(run, style(paint)))
                    run, paint = char, p
            segments.append(Segment(run, style(paint)))
            rows.append(tuple(segments))
        return tuple(rows)

    def _style(self, paint: Paint) -> Style:
        style = self._styles_cache_.get(paint)
        if style is None:
            style = self._styles_cache_[paint] = self._make_style(paint)
        return style

    def _make_style(self, paint: Paint) -> Style:
        layer, role, mode, parity, seat = paint
        if layer == "empty":
            return Style(bgcolor=_EMPTY_BG)
        if layer == "open":
            return Style(color=_OPEN[0], bgcolor=_OPEN[1 + parity])
        if layer == "spot":
            return _SPOT
        if layer == "chosen":
            return _CHOSEN
        if layer == "dragon":
            return _DRAGON
        if layer == "fairy":
            return _FAIRY
        if layer in ("meeple", "seat"):
            colour = Color.parse(self._colour(seat))
            return Style(color=colour.get_contrast_text(1.0).hex, bgcolor=colour.hex, bold=True)
        if layer == "cursor" and role < 0:  # on a position without a tile
            return Style(color=_CURSOR, bgcolor=_OPEN[1 + parity] if seat == -1 else _EMPTY_BG, bold=True)
        fg, bg = self._terrain(role, mode, parity)
        if layer == "cursor":
            return Style(color=_CURSOR, bgcolor=bg, bold=True)
        if layer in ("mark", "flock"):  # a seat's last tile; its shepherd's sheep (Hills & Sheep)
            colour = Color.parse(self._colour(seat))
            return Style(color=colour.hex, bgcolor=colour.blend(Color(0, 0, 0), 0.55).hex, bold=True)
        return Style(
            color=fg,
            bgcolor=bg,
            bold=role in _BOLD or mode == Mode.HIGHLIGHT,
            underline=mode == Mode.HIGHLIGHT,  # colour-blind players see the highlight too
        )

    @staticmethod
    def _terrain(role: int, mode: int, parity: int) -> tuple[str, str]:
        fg, bg0, bg1 = TERRAIN[Role(role)]
        bg = bg1 if parity else bg0
        if mode == Mode.GHOST:
            fgc, bgc = Color.parse(fg), Color.parse(bg)
            return fgc.blend(_GHOST_TINT, 0.35).hex, bgc.blend(_GHOST_TINT, 0.45).hex
        if mode == Mode.HIGHLIGHT:
            fgc, bgc = Color.parse(fg), Color.parse(bg)
            return fgc.blend(Color(0, 0, 0), 0.5).hex, bgc.blend(_HIGHLIGHT, 0.7).hex
        if mode in (Mode.PATH, Mode.TARGET):
            tint = _PATH_TINT if mode == Mode.PATH else _TARGET_TINT
            return fg, Color.parse(bg).blend(tint, 0.5).hex
        return fg, bg

    def _colour(self, seat: int) -> str:
        return self._colours[seat % len(self._colours)] if self._colours else "#ffffff"
