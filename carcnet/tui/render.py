"""Provides the board's pictures as plain data: tile designs drawn into character cells.

Pure: imports the engine's tile data and nothing from Textual or Rich, so it is tested without a
terminal. :mod:`carcnet.tui.widgets.board` turns the cells into styled strips.

How a design becomes cells (:func:`tile_art`), for any design and any odd size, from its segments only
(no picture per letter, so expansion designs draw themselves):

* Each cell gets coordinates ``u, v`` in ``[-1, 1]`` (x east, y south, as on the board), its *depth*
  from each side (0 on that side's border, 1 on the opposite one) and the half-side whose wedge it
  lies in: the eight wedges are cut by the diagonals and the two axes, named as in
  :class:`~carcnet.engine.geometry.HalfSide`; a cell on a cut belongs to the next wedge clockwise.
* **City**: a segment reaching one side is a dome against that side (depth within an ellipse); a
  segment reaching two or more sides fills those sides' wedges, plus a band across the tile between
  opposite sides, plus the centre when it joins opposite sides or three. A border cell only ever shows
  a segment that reaches that side (corners excepted). Cells of two different cities never touch: the
  deeper cell of a touching pair goes back to the field, so separate cities read as separate.
* **Road and river**: a path from each side's midpoint along the axis to the centre, stopping at a
  city; a segment with two sides runs through the centre; ends that meet at a free centre make a
  junction (a village), or a lake for rivers.
* **Cloister and garden**: a small building on the centre (one cell in the overview).
* **Field**: every other cell, in the field of its wedge's half-side; a wedge on a city side takes the
  nearest field half-side around the tile that no road or river separates from it.
* Each segment gets an *anchor*: a cell of it near its centre (with a free cell on its right when
  there is one, for the seat digit of a meeple). Meeples, deploy spot numbers and pennants go there.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import IntEnum
from functools import cache, lru_cache
from typing import TYPE_CHECKING, NamedTuple

from carcnet.engine import Figure, Position, Segment, SegmentKind, Terrain, TileKind, TileVariant
from carcnet.engine.expansions.hills import flocks
from carcnet.engine.geometry import position_of
from carcnet.i18n import pgettext
from carcnet.tui.parts import DEPLOY_ORDER, face

if TYPE_CHECKING:
    from carcnet.engine import Game

__all__ = [
    "ASCII_GLYPHS",
    "UNICODE_GLYPHS",
    "Cell",
    "Glyphs",
    "Mode",
    "Paint",
    "Role",
    "TileArt",
    "Zoom",
    "board_text",
    "compose_empty",
    "compose_tile",
    "figure_letter",
    "figure_name",
    "field_sheep",
    "figure_role",
    "role_name",
    "shepherds",
    "tile_art",
    "with_article",
]


class Zoom(IntEnum):
    """How large a tile is drawn, smallest first (a terminal cell is about twice as tall as it is
    wide, so each size is about square on screen)."""

    OVERVIEW = 0
    """5 × 3 cells a tile: the board at a glance, each figure still its role letter and seat number."""
    DETAILED = 1
    """9 × 5 cells a tile: fields, roads, walls, pennants, figures."""
    LARGE = 2
    """13 × 7 cells a tile: every feature drawn plainly, the cloister a building, a calmer field."""

    @property
    def size(self) -> tuple[int, int]:
        """``(width, height)`` of one tile in cells."""
        return _ZOOM_SIZES[self]


_ZOOM_SIZES = {Zoom.OVERVIEW: (5, 3), Zoom.DETAILED: (9, 5), Zoom.LARGE: (13, 7)}

#: The field texture of the large zoom: one dot in six cells, so that a board of large tiles reads
#: calmly (the detailed zoom's one in three would fill it with dots).
_CALM_FIELD = {" · ": " ·    ", " . ": " .    "}


class Role(IntEnum):
    """What a cell of a tile shows; the widget colours by role."""

    FIELD = 0
    ROAD = 1
    CITY = 2
    PENNANT = 3
    CLOISTER = 4
    GARDEN = 5
    RIVER = 6
    JUNCTION = 7
    INN = 8
    """An inn by a road (Inns & Cathedrals)."""
    CATHEDRAL = 9
    """A cathedral in a city (Inns & Cathedrals)."""
    HILL = 10
    """A hill: a mark of the whole tile (Hills & Sheep), on a field cell."""
    VINEYARD = 11
    """A vineyard: a mark of the whole tile (Hills & Sheep), on a field cell."""


class Mode(IntEnum):
    """How a tile's cells are painted."""

    NORMAL = 0
    GHOST = 1
    """The drawn tile, shown where it would go."""
    HIGHLIGHT = 2
    """Part of the feature whose deploy spot is selected."""


class Paint(NamedTuple):
    """A style key: what the widget needs to choose colours for a cell (hashable, cheap).

    Attributes:
        layer: ``"tile"`` terrain; ``"cursor"`` the cursor's corner marks; ``"meeple"`` a figure's role
            letter and ``"seat"`` its seat digit; ``"spot"`` / ``"chosen"`` a deploy spot number (the
            selected one); ``"mark"`` a seat's last placed tile; ``"open"`` a position where the drawn
            tile fits; ``"empty"`` no tile.
        role: The :class:`Role` of the cell underneath (for its background).
        mode: The :class:`Mode` of the cell underneath.
        parity: ``(x + y) % 2`` of the position, for a checkerboard shade that shows tile edges.
        seat: The seat of a figure or mark; -1 otherwise.
    """

    layer: str
    role: int = 0
    mode: int = 0
    parity: int = 0
    seat: int = -1


@dataclass(frozen=True, slots=True)
class Glyphs:
    """The characters the board is drawn with. Every glyph is one terminal cell wide.

    Attributes:
        field: Field texture: ``field[(col + 2 * row) % len(field)]`` (blank and dots).
        city: City fill.
        pennant: A pennant on a city.
        road: Road piece by the directions it joins, indexed by a mask N=1, E=2, S=4, W=8.
        river: River piece, indexed like ``road``.
        junction: Where roads end at the centre (a village).
        lake: Where rivers end at the centre.
        cloister: The cloister building: its roof row then its wall row (three cells each).
        cloister_small: The cloister in one cell (overview).
        garden: A garden cell.
        inn: An inn by a road (Inns & Cathedrals), on a road cell next to the road's spot.
        cathedral: A cathedral in a city (Inns & Cathedrals), on a city cell next to the city's spot.
        hill: A hill (Hills & Sheep), a mark of the whole tile: on a field cell towards its south-east
            corner.
        vineyard: A vineyard (Hills & Sheep), a mark of the whole tile, where a hill would go.
        flock: How a shepherd's sheep show after it (Hills & Sheep): a prefix, then the number in
            these ten digits (``S1⁵``: seat 1's shepherd with 5 sheep; ``S1:5`` in ASCII).
        open: Fill of an empty position where the drawn tile fits.
        cursor: Corner marks of the cursor: NW, NE, SW, SE.
        mark: Corner mark of a seat's last placed tile (in the seat's colour).
    """

    field: str
    city: str
    pennant: str
    road: tuple[str, ...]
    river: tuple[str, ...]
    junction: str
    lake: str
    cloister: tuple[str, str]
    cloister_small: str
    garden: str
    inn: str
    cathedral: str
    hill: str
    vineyard: str
    flock: tuple[str, str]
    open: str
    cursor: tuple[str, str, str, str]
    mark: str


UNICODE_GLYPHS = Glyphs(
    field=" · ",
    city="▒",
    pennant="⚑",
    #      0    1    2    3    4    5    6    7    8    9    10   11   12   13   14   15
    road=("═", "║", "═", "╚", "║", "║", "╔", "╠", "═", "╝", "═", "╩", "╗", "╣", "╦", "╬"),
    river=("~",) * 16,
    junction="■",
    lake="◎",
    cloister=("▗▲▖", "▐†▌"),
    cloister_small="†",
    garden="♣",
    inn="⌂",
    cathedral="‡",
    hill="▲",
    vineyard="∵",
    flock=("", "⁰¹²³⁴⁵⁶⁷⁸⁹"),
    open="░",
    cursor=("┏", "┓", "┗", "┛"),
    mark="◤",
)
"""The default glyphs (box drawing and block elements)."""

ASCII_GLYPHS = Glyphs(
    field=" . ",
    city="#",
    pennant="^",
    road=("=", "|", "=", "+", "|", "|", "+", "+", "=", "+", "=", "+", "+", "+", "+", "+"),
    river=("~",) * 16,
    junction="o",
    lake="O",
    cloister=("/^\\", "|+|"),
    cloister_small="+",
    garden="*",
    inn="n",
    cathedral="&",
    hill="m",
    vineyard="%",
    flock=(":", "0123456789"),
    open=":",
    cursor=("[", "]", "[", "]"),
    mark="*",
)
"""Plain ASCII glyphs, for terminals without box drawing (and for text captures)."""

#: Letter of each figure role; the same in every glyph set so that figures read without colour.
ROLE_LETTERS = {"knight": "K", "thief": "T", "monk": "M", "farmer": "F", "abbot": "A", "gardener": "G"}

_ROLE_OF_KIND = {
    SegmentKind.ROAD: "thief",
    SegmentKind.CITY: "knight",
    SegmentKind.CLOISTER: "monk",
    SegmentKind.FIELD: "farmer",
    SegmentKind.GARDEN: "gardener",
    SegmentKind.RIVER: "thief",
}


def figure_name(figure: Figure) -> str:
    """What the interface calls *figure*, with its article, in the language in use: ``a meeple``,
    ``the large meeple`` (Inns & Cathedrals), ``the abbot`` (The Abbot), ``the builder``, ``the pig``
    (Traders & Builders), ``the shepherd`` (Hills & Sheep): its part's face (:mod:`carcnet.tui.parts`).

    >>> figure_name(Figure.LARGE)
    'the large meeple'
    """
    return face(figure).name()


class _FigureNames(Mapping[Figure, str]):
    """:func:`figure_name` as a mapping, looked up in the language in use at each access."""

    def __getitem__(self, figure: Figure) -> str:
        return figure_name(figure)

    def __iter__(self) -> Iterator[Figure]:
        return iter(DEPLOY_ORDER)

    def __len__(self) -> int:
        return len(DEPLOY_ORDER)


#: What the interface calls each figure, with its article (Inns & Cathedrals' large meeple, The
#: Abbot's abbot): :func:`figure_name`, in the language in use when it is read.
FIGURE_NAMES: Mapping[Figure, str] = _FigureNames()


def role_name(role: str) -> str:
    """A figure's role (:func:`figure_role`) with its article, in the language in use: ``a knight``,
    ``an abbot``.

    >>> role_name("abbot"), role_name("thief")
    ('an abbot', 'a thief')
    """
    names = {
        # Translators: a meeple on a city, with its article
        "knight": pgettext("figure", "a knight"),
        # Translators: a meeple on a road, with its article
        "thief": pgettext("figure", "a thief"),
        # Translators: a meeple on a cloister, with its article
        "monk": pgettext("figure", "a monk"),
        # Translators: a meeple on a field, with its article
        "farmer": pgettext("figure", "a farmer"),
        # Translators: The Abbot's figure, with its article
        "abbot": pgettext("figure", "an abbot"),
        # Translators: a figure on a garden, with its article
        "gardener": pgettext("figure", "a gardener"),
    }
    return names[role] if role in names else with_article(role)


def figure_letter(kind: SegmentKind, figure: Figure = Figure.MEEPLE) -> str:
    """The letter a figure shows on the board: its face's (:mod:`carcnet.tui.parts`: ``L`` for Inns &
    Cathedrals' large meeple whatever its role, the feature it stands on says which; ``B`` and ``P``
    for Traders & Builders' builder and pig, ``S`` for Hills & Sheep's shepherd: the letters the
    scoreboard gives them in the supply), else its role's (:data:`ROLE_LETTERS`).

    >>> figure_letter(SegmentKind.ROAD), figure_letter(SegmentKind.ROAD, Figure.LARGE)
    ('T', 'L')
    >>> figure_letter(SegmentKind.CITY, Figure.BUILDER)
    'B'
    """
    return face(figure).letter or ROLE_LETTERS[figure_role(kind, figure)]


def figure_role(kind: SegmentKind, figure: Figure = Figure.MEEPLE) -> str:
    """The role a figure has on a segment of *kind*: ``"knight"``, ``"thief"``, ``"monk"``,
    ``"farmer"``, or its face's wherever it stands (``"abbot"`` for The Abbot's figure).

    >>> figure_role(SegmentKind.CITY), figure_role(SegmentKind.CLOISTER, Figure.ABBOT)
    ('knight', 'abbot')
    """
    return face(figure).role or _ROLE_OF_KIND[kind]


def with_article(words: str) -> str:
    """*words* after the article English gives them (English only: a translated phrase has a message
    of its own with its article, as :func:`role_name` and :func:`figure_name` give): ``a`` before a consonant, ``an`` before a vowel
    (the figures, roles and bot levels the interface names: none starts with a silent or a sounded
    letter that reads otherwise).

    >>> with_article("abbot"), with_article("knight"), with_article("easy bot"), with_article("greedy bot")
    ('an abbot', 'a knight', 'an easy bot', 'a greedy bot')
    """
    return ("an " if words[:1].lower() in tuple("aeiou") else "a ") + words


@dataclass(frozen=True, slots=True)
class Cell:
    """One character cell of a drawn tile.

    Attributes:
        char: What is drawn.
        role: What it shows.
        segment: Index of the segment it belongs to (as in the design's table row), or -1 for a
            road junction (which belongs to no segment).
    """

    char: str
    role: Role
    segment: int


@dataclass(frozen=True, slots=True)
class TileArt:
    """A design at one rotation drawn into ``width × height`` cells.

    Attributes:
        letter: The design's letter.
        rotation: Clockwise quarter turns.
        width: Cells across.
        height: Cells down.
        cells: The cells, row by row.
        anchors: For each segment, the ``(col, row)`` where its figure or deploy number goes.
        pairs: For each segment, whether the cell right of its anchor takes a meeple's seat digit:
            a cell of the segment too; from 13 cells across (the large zoom) also a field cell beside
            a segment one cell wide, whose anchor may then be that field cell left of it; never in
            tiles narrower than 5 cells.
    """

    letter: str
    rotation: int
    width: int
    height: int
    cells: tuple[tuple[Cell, ...], ...]
    anchors: tuple[tuple[int, int], ...]
    pairs: tuple[bool, ...]

    def cell(self, col: int, row: int) -> Cell:
        """The cell at *col*, *row*."""
        return self.cells[row][col]

    def lines(self) -> list[str]:
        """The characters, one string a row."""
        return ["".join(c.char for c in row) for row in self.cells]

    def segment_cells(self, segment: int) -> list[tuple[int, int]]:
        """``(col, row)`` of every cell of *segment*, row by row."""
        return [
            (c, r)
            for r, row in enumerate(self.cells)
            for c, cell in enumerate(row)
            if cell.segment == segment
        ]


# ------------------------------------------------------------------------------------ drawing

_DOME = 0.3  # depth of a one-side city at the middle of its side (fraction of the tile)
_BAND = 0.25  # half-width of the band joining a city's opposite sides
_EPS = 1e-9
_STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))  # N E S W, as (dcol, drow)
_EDGE_PATH_KINDS = (SegmentKind.ROAD, SegmentKind.RIVER)
_AREA_KINDS = (SegmentKind.CLOISTER, SegmentKind.GARDEN)


class _Geometry(NamedTuple):
    u: float
    v: float
    depth: tuple[float, float, float, float]
    border: tuple[int, ...]  # sides whose border the cell is on
    half: int  # wedge half-side 0..7, or -1 for the centre
    other: int  # on a cut between two wedges: the half-side counter-clockwise of it; else == half


@cache
def _geometry(width: int, height: int) -> tuple[tuple[_Geometry, ...], ...]:
    rows = []
    for r in range(height):
        row = []
        for c in range(width):
            u = 2 * c / (width - 1) - 1
            v = 2 * r / (height - 1) - 1
            depth = ((1 + v) / 2, (1 - u) / 2, (1 - v) / 2, (1 + u) / 2)
            border = tuple(s for s, on in enumerate((r == 0, c == width - 1, r == height - 1, c == 0)) if on)
            if 2 * c == width - 1 and 2 * r == height - 1:
                half = other = -1
            else:
                angle = math.degrees(math.atan2(u, -v)) % 360  # clockwise from north
                half = (int((angle + _EPS) // 45) + 1) % 8  # [0, 45) is NR, [315, 360) is NL
                on_cut = abs(angle / 45 - round(angle / 45)) < 1e-6
                other = (half - 1) % 8 if on_cut else half
            row.append(_Geometry(u, v, depth, border, half, other))
        rows.append(tuple(row))
    return tuple(rows)


def tile_art(
    kind: TileKind, rotation: int, zoom: Zoom | tuple[int, int], glyphs: Glyphs = UNICODE_GLYPHS
) -> TileArt:
    """Draws *kind* turned *rotation* quarter turns at *zoom* (or an explicit odd ``(width, height)``,
    at least 3 × 3). Cached: call it freely.

    >>> from carcnet.engine import tile_kind
    >>> for line in tile_art(tile_kind("D"), 0, Zoom.DETAILED, ASCII_GLYPHS).lines():
    ...     print(repr(line))
    ' ####### '
    '  ##### .'
    '========='
    ' .  .  . '
    '  .  .  .'
    """
    size = zoom.size if isinstance(zoom, Zoom) else zoom
    if zoom is Zoom.LARGE and glyphs.field in _CALM_FIELD:
        glyphs = replace(glyphs, field=_CALM_FIELD[glyphs.field])
    return _tile_art(kind, rotation % 4, size[0], size[1], glyphs)


#: What a cloister or garden segment draws, and a road or river segment.
_AREA_ROLES = {SegmentKind.CLOISTER: Role.CLOISTER, SegmentKind.GARDEN: Role.GARDEN}
_PATH_ROLES = {SegmentKind.ROAD: Role.ROAD, SegmentKind.RIVER: Role.RIVER}
_PATH_TERRAINS = (Terrain.ROAD, Terrain.RIVER)
_Owners = list[list[int]]  # per cell: the segment index, or -1
_Roles = list[list[Role | None]]  # per cell: what it shows, or None while not drawn


@dataclass(slots=True)
class _Draft:
    """A tile being drawn: per cell, the segment it belongs to (-1: none, or a road junction) and
    what it shows (``None``: not drawn yet). Each step of :func:`_tile_art` draws on free cells only."""

    width: int
    height: int
    geo: tuple[tuple[_Geometry, ...], ...]
    owner: _Owners
    role: _Roles
    roof: int = -1  # the row of a building's roof (:func:`_draw_buildings`), -1 before it is drawn

    @classmethod
    def empty(cls, width: int, height: int) -> _Draft:
        return cls(
            width,
            height,
            _geometry(width, height),
            [[-1] * width for _ in range(height)],
            [[None] * width for _ in range(height)],
        )

    @property
    def centre(self) -> tuple[int, int]:
        """``(col, row)`` of the centre cell."""
        return self.width // 2, self.height // 2

    def free(self, c: int, r: int) -> bool:
        return self.role[r][c] is None

    def claim(self, c: int, r: int, segment: int, what: Role) -> None:
        self.owner[r][c] = segment
        self.role[r][c] = what


@lru_cache(maxsize=4096)
def _tile_art(kind: TileKind, rotation: int, width: int, height: int, glyphs: Glyphs) -> TileArt:
    if width < 3 or height < 3 or width % 2 == 0 or height % 2 == 0:
        raise ValueError(f"a tile is drawn in an odd number of cells, at least 3 × 3, not {width} × {height}")
    variant = kind.variant(rotation)
    segments = variant.segments
    draft = _Draft.empty(width, height)
    # in this order: a cell drawn by one step is not drawn again by a later one
    _draw_cities(draft, segments)
    _draw_buildings(draft, variant)
    ends = _draw_paths(draft, segments)
    _draw_path_ends(draft, segments, ends)
    _draw_fields(draft, variant)
    anchors, pairs = _anchors(draft.owner, segments, width, height)
    if width >= _ROOMY:
        anchors, pairs = _roomy_pairs(draft, anchors, pairs)
    chars = _characters(draft, variant, ends, glyphs)
    _draw_marks(draft, chars, segments, anchors, pairs, glyphs)
    _draw_tile_marks(draft, chars, kind.marks, anchors, pairs, glyphs)
    cells = tuple(
        tuple(Cell(chars[r][c], draft.role[r][c] or Role.FIELD, draft.owner[r][c]) for c in range(width))
        for r in range(height)
    )
    return TileArt(kind.letter, rotation, width, height, cells, anchors, pairs)


def _draw_cities(draft: _Draft, segments: Sequence[Segment]) -> None:
    """Draws each city segment on the cells :func:`_in_city` gives it, then parts touching cities."""
    depth: dict[tuple[int, int], float] = {}
    for i, seg in enumerate(segments):
        if seg.kind is not SegmentKind.CITY:
            continue
        sides = {int(s) for s in seg.sides}
        for r, row in enumerate(draft.geo):
            for c, g in enumerate(row):
                if _in_city(g, sides) and draft.free(c, r):
                    draft.claim(c, r, i, Role.CITY)
                    depth[(c, r)] = min(g.depth[s] for s in sides)
    _separate_cities(draft.owner, draft.role, draft.geo, depth)


def _in_city(g: _Geometry, sides: set[int]) -> bool:
    """Whether a cell lies in a city reaching *sides* (see :func:`_in_dome`, :func:`_in_wedges`); a
    border cell only on a side the city reaches, or on a corner."""
    corner = len(g.border) == 2
    if not corner and any(s not in sides for s in g.border):
        return False  # a border cell shows its own side's terrain
    if len(sides) == 1:
        (s,) = sides
        return not corner and _in_dome(g, s)
    return _in_wedges(g, sides)


def _in_dome(g: _Geometry, side: int) -> bool:
    """Whether a cell lies in the dome of a city reaching only *side*: within an ellipse against it."""
    along = g.u if side in (0, 2) else g.v
    return g.depth[side] <= _DOME * math.sqrt(max(0.0, 1 - along * along)) + _EPS


def _in_wedges(g: _Geometry, sides: set[int]) -> bool:
    """Whether a cell lies in a city reaching two *sides* or more: their wedges, the band between
    opposite sides, and the centre when the city joins opposite sides or three."""
    if g.half < 0:
        return {0, 2} <= sides or {1, 3} <= sides or len(sides) >= 3
    return (
        (g.half // 2 in sides and g.other // 2 in sides)  # on a diagonal: both wedges
        or ({0, 2} <= sides and abs(g.u) <= _BAND + _EPS)
        or ({1, 3} <= sides and abs(g.v) <= _BAND + _EPS)
    )


def _roof(variant: TileVariant, cy: int) -> int:
    """Row of a building's roof: just above the centre row; on it when a road or river comes from
    the north and none from the south (the building stands below its end)."""
    paths = [t in _PATH_TERRAINS for t in variant.terrain]
    return cy if paths[0] and not paths[2] else cy - 1


def _draw_buildings(draft: _Draft, variant: TileVariant) -> None:
    """Draws cloisters and gardens: the centre cell, or a roof and walls row of three cells each
    from 5 × 5 cells up (:func:`_roof`'s rows; for a cloister the other two round the centre where
    those leave it more cells: a city across the walls' row hid Hills & Sheep's HSJ's cross)."""
    cx, cy = draft.centre
    block = [(cx, cy)]
    if draft.width >= 5 and draft.height >= 5:
        draft.roof = _roof(variant, cy)
        rows = {roof: [(c, r) for r in (roof, roof + 1) for c in (cx - 1, cx, cx + 1)] for roof in (cy - 1, cy)}
        if any(seg.kind is SegmentKind.CLOISTER for seg in variant.segments):
            free = {roof: sum(draft.free(c, r) for c, r in cells) for roof, cells in rows.items()}
            other = cy - 1 if draft.roof == cy else cy
            if free[other] > free[draft.roof]:
                draft.roof = other
        block = rows[draft.roof]
    for i, seg in enumerate(variant.segments):
        what = _AREA_ROLES.get(seg.kind)
        if what is None:
            continue
        for c, r in block:
            if draft.free(c, r):
                draft.claim(c, r, i, what)


def _draw_paths(draft: _Draft, segments: Sequence[Segment]) -> list[int]:
    """Draws roads and rivers from each side's midpoint towards the centre, through it for a segment
    with two sides or more. Returns the single-side segments: those ending in the tile."""
    cx, cy = draft.centre
    ends: list[int] = []
    for i, seg in enumerate(segments):
        what = _PATH_ROLES.get(seg.kind)
        if what is None:
            continue
        for s in seg.sides:
            dc, dr = _STEPS[s]
            c, r = cx + dc * cx, cy + dr * cy
            while (c, r) != (cx, cy) and draft.free(c, r):
                draft.claim(c, r, i, what)
                c, r = c - dc, r - dr
        if len(seg.sides) < 2:
            ends.append(i)
        elif draft.free(cx, cy):
            draft.claim(cx, cy, i, what)
    return ends


def _draw_path_ends(draft: _Draft, segments: Sequence[Segment], ends: list[int]) -> None:
    """Where single-side roads (rivers) end at a free centre: a junction, or a lake of the first river."""
    cx, cy = draft.centre
    if not ends or not draft.free(cx, cy):
        return
    rivers = [i for i in ends if segments[i].kind is SegmentKind.RIVER]
    if len(rivers) == len(ends):
        draft.claim(cx, cy, rivers[0], Role.RIVER)
    else:
        draft.claim(cx, cy, -1, Role.JUNCTION)


def _draw_fields(draft: _Draft, variant: TileVariant) -> None:
    """Draws every cell left as the field of its wedge (see :func:`_field_of_half`); a field that
    touches no side takes the cells no wedge gave; a free centre goes to the field around it
    (:func:`_centre_field`)."""
    half_segment = variant.half_segment
    blocked = [t in _PATH_TERRAINS for t in variant.terrain]  # such sides cut their field
    for r, row in enumerate(draft.geo):
        for c, g in enumerate(row):
            if draft.free(c, r):
                field = _field_of_half(g.half, half_segment, blocked) if g.half >= 0 else -1
                draft.claim(c, r, field, Role.FIELD)
    # a field that touches no side (Inns & Cathedrals' four cities round a field) takes the cells
    # left between them
    enclosed = [i for i, s in enumerate(variant.segments) if s.kind is SegmentKind.FIELD and not s.halves]
    if len(enclosed) == 1:
        for r, row in enumerate(draft.owner):
            for c, owner in enumerate(row):
                if owner == -1 and draft.role[r][c] is Role.FIELD:
                    row[c] = enclosed[0]
    cx, cy = draft.centre
    if draft.owner[cy][cx] == -1 and draft.role[cy][cx] is Role.FIELD:
        draft.owner[cy][cx] = _centre_field(draft.owner, draft.role, cx, cy, variant.segments)


#: The character of a cell by its role: ``(glyphs, draft, col, row) -> char``. A cloister's cells
#: are drawn by :func:`_draw_cloisters`, pennants, cathedrals and inns by :func:`_draw_marks`.
_CHAR_OF_ROLE: dict[Role | None, Callable[[Glyphs, _Draft, int, int], str]] = {
    Role.FIELD: lambda glyphs, draft, c, r: glyphs.field[(c + 2 * r) % len(glyphs.field)],
    Role.CITY: lambda glyphs, draft, c, r: glyphs.city,
    Role.ROAD: lambda glyphs, draft, c, r: glyphs.road[_joins(draft, c, r)],
    Role.RIVER: lambda glyphs, draft, c, r: glyphs.river[_joins(draft, c, r)],
    Role.JUNCTION: lambda glyphs, draft, c, r: glyphs.junction,
    Role.GARDEN: lambda glyphs, draft, c, r: glyphs.garden,
}


def _blank(glyphs: Glyphs, draft: _Draft, c: int, r: int) -> str:
    return " "


def _characters(draft: _Draft, variant: TileVariant, ends: list[int], glyphs: Glyphs) -> list[list[str]]:
    """The characters of the drawn cells (pennants still to come)."""
    chars = [
        [_CHAR_OF_ROLE.get(draft.role[r][c], _blank)(glyphs, draft, c, r) for c in range(draft.width)]
        for r in range(draft.height)
    ]
    cx, cy = draft.centre
    if draft.role[cy][cx] is Role.RIVER and draft.owner[cy][cx] in ends:
        chars[cy][cx] = glyphs.lake
    _draw_cloisters(draft, chars, variant, glyphs)
    return chars


def _draw_cloisters(draft: _Draft, chars: list[list[str]], variant: TileVariant, glyphs: Glyphs) -> None:
    """The cloister building: one cell, or its roof and walls rows (whatever cells it kept)."""
    cx, cy = draft.centre
    roof = draft.roof if draft.roof >= 0 else _roof(variant, cy)
    for i, seg in enumerate(variant.segments):
        if seg.kind is not SegmentKind.CLOISTER:
            continue
        building = [
            (c, r)
            for r in range(draft.height)
            for c in range(draft.width)
            if draft.owner[r][c] == i and draft.role[r][c] is Role.CLOISTER
        ]
        if len(building) == 1:
            c, r = building[0]
            chars[r][c] = glyphs.cloister_small
        else:
            for c, r in building:
                chars[r][c] = glyphs.cloister[r - roof][c - (cx - 1)]


def _draw_marks(
    draft: _Draft,
    chars: list[list[str]],
    segments: Sequence[Segment],
    anchors: Sequence[tuple[int, int]],
    pairs: Sequence[bool],
    glyphs: Glyphs,
) -> None:
    """A pennant on each city that shows one, then a cathedral in each city that has one, on city
    cells, and an inn by each road that has one, on a road cell: each next to its segment's anchor,
    never on it (or on the meeple's digit cell). A tile too small for a mark leaves it out."""
    for i, seg in enumerate(segments):
        marks = []  # (the cells it goes on, its glyph, its role, kept off the tile's edge)
        if seg.kind is SegmentKind.CITY and seg.pennant:
            marks.append((Role.CITY, glyphs.pennant, Role.PENNANT, False))
        if seg.kind is SegmentKind.CITY and seg.cathedral:
            marks.append((Role.CITY, glyphs.cathedral, Role.CATHEDRAL, True))
        if seg.kind is SegmentKind.ROAD and seg.inn:
            marks.append((Role.ROAD, glyphs.inn, Role.INN, True))
        for on, glyph, role, inner in marks:
            spot = _mark_cell(draft.owner, draft.role, i, anchors[i], pairs[i], draft.width, draft.height, on, inner)
            if spot is None and role is Role.INN:  # a road too short for it: the inn stands beside it
                spot = _beside(draft, i, anchors, pairs)
            if spot is not None:
                c, r = spot
                chars[r][c] = glyph
                draft.role[r][c] = role
                draft.owner[r][c] = i


#: The glyph and role of each tile mark (:attr:`~carcnet.engine.TileKind.marks`, Hills & Sheep).
_TILE_MARKS: dict[str, tuple[Callable[[Glyphs], str], Role]] = {
    "hill": (lambda glyphs: glyphs.hill, Role.HILL),
    "vineyard": (lambda glyphs: glyphs.vineyard, Role.VINEYARD),
}


def _draw_tile_marks(
    draft: _Draft,
    chars: list[list[str]],
    marks: Sequence[str],
    anchors: Sequence[tuple[int, int]],
    pairs: Sequence[bool],
    glyphs: Glyphs,
) -> None:
    """The marks of the whole tile (a hill, a vineyard: Hills & Sheep), each on a field cell as near
    the tile's south-east corner as may be, off the tile's edge where it can (the edge shows what
    meets the neighbour), a corner only where nothing else is left (the cursor's marks go there; the
    north-west one, the last tile's mark, never): never the centre, a segment's anchor or a figure's
    digit cell. The cell stays its field's (a click or a highlight of the field takes it in). A tile
    without such a field cell leaves it out."""
    width, height = draft.width, draft.height
    taken = {*anchors, *((c + 1, r) for (c, r), pair in zip(anchors, pairs, strict=True) if pair), draft.centre}
    corners = {(width - 1, 0), (0, height - 1), (width - 1, height - 1)}
    taken.add((0, 0))
    for mark in marks:
        shown = _TILE_MARKS.get(mark)
        if shown is None:
            continue
        cells = [
            (c, r)
            for r in range(height)
            for c in range(width)
            if draft.role[r][c] is Role.FIELD and (c, r) not in taken
        ]
        if not cells:
            continue
        c, r = min(cells, key=lambda p: (p in corners, p[0] in (0, width - 1) or p[1] in (0, height - 1),
                                         (width - 1 - p[0]) ** 2 + (2 * (height - 1 - p[1])) ** 2, -p[1], -p[0]))
        glyph, role = shown
        chars[r][c] = glyph(glyphs)
        draft.role[r][c] = role
        taken.add((c, r))


def _separate_cities(
    owner: _Owners, role: _Roles, geo: tuple[tuple[_Geometry, ...], ...], depth: dict[tuple[int, int], float]
) -> None:
    """Gives back to the field the deeper of any two touching cells of different cities (corners first)."""
    height, width = len(owner), len(owner[0])
    changed = True
    while changed:
        changed = False
        for r in range(height):
            for c in range(width):
                a = owner[r][c]
                if role[r][c] is not Role.CITY:
                    continue
                for dc, dr in ((1, 0), (0, 1)):
                    c2, r2 = c + dc, r + dr
                    if c2 >= width or r2 >= height or role[r2][c2] is not Role.CITY or owner[r2][c2] == a:
                        continue
                    b = owner[r2][c2]
                    key_a = (len(geo[r][c].border) == 2, depth[(c, r)], a)
                    key_b = (len(geo[r2][c2].border) == 2, depth[(c2, r2)], b)
                    lc, lr = (c, r) if key_a > key_b else (c2, r2)
                    owner[lr][lc] = -1
                    role[lr][lc] = None
                    changed = True
                    break
                if changed:
                    break
            if changed:
                break


def _field_of_half(half: int, half_segment: Sequence[int], blocked: Sequence[bool]) -> int:
    """The field on *half*, or else the nearest field around the tile not cut off by a road or river."""
    if half_segment[half] >= 0:
        return half_segment[half]
    for distance in range(1, 8):
        for step in (1, -1):
            h = half
            ok = True
            for _ in range(distance):
                nxt = (h + step) % 8
                # crossing between the two halves of one side crosses that side's axis
                if h // 2 == nxt // 2 and blocked[h // 2]:
                    ok = False
                    break
                h = nxt
            if ok and half_segment[h] >= 0:
                return half_segment[h]
    return -1


def _centre_field(owner: _Owners, role: _Roles, cx: int, cy: int, segments: Sequence[Segment]) -> int:
    """The field most of the centre's neighbours belong to (lowest index on a tie)."""
    counts: dict[int, int] = {}
    for dc, dr in _STEPS:
        c, r = cx + dc, cy + dr
        if role[r][c] is Role.FIELD and owner[r][c] >= 0:
            counts[owner[r][c]] = counts.get(owner[r][c], 0) + 1
    if counts:
        return min(counts, key=lambda s: (-counts[s], s))
    fields = [i for i, seg in enumerate(segments) if seg.kind is SegmentKind.FIELD]
    return fields[0] if fields else -1


def _joins(draft: _Draft, c: int, r: int) -> int:
    """Direction mask (N=1, E=2, S=4, W=8) of a road or river cell's joins: along its own segment,
    into a junction or lake, and out through the side at a side's midpoint."""
    owner, role = draft.owner, draft.role
    cx, cy = draft.centre
    mask = 0
    me = owner[r][c]
    for s, (dc, dr) in enumerate(_STEPS):
        c2, r2 = c + dc, r + dr
        if not (0 <= c2 < draft.width and 0 <= r2 < draft.height):
            if (c2 == cx or r2 == cy) and (c == cx or r == cy):
                mask |= 1 << s  # leaves the tile through a side's midpoint
            continue
        if (owner[r2][c2] == me and role[r2][c2] is role[r][c]) or role[r2][c2] is Role.JUNCTION:
            mask |= 1 << s
    return mask


def _anchors(
    owner: _Owners, segments: Sequence[Segment], width: int, height: int
) -> tuple[tuple[tuple[int, int], ...], tuple[bool, ...]]:
    """For each segment, the cell nearest its cells' centre (preferring one with its right neighbour
    in the same segment); a segment with no cell (possible in the overview) gets the free cell nearest
    to where its sides are."""
    anchors: list[tuple[int, int] | None] = []
    pairs: list[bool] = []
    for i in range(len(segments)):
        cells = [(c, r) for r in range(height) for c in range(width) if owner[r][c] == i]
        anchor, paired = _anchor_of_cells(owner, i, cells, width) if cells else (None, False)
        anchors.append(anchor)
        pairs.append(paired)
    for i, seg in enumerate(segments):
        if anchors[i] is None:
            anchors[i] = _free_anchor(seg, {a for a in anchors if a is not None}, width, height)
    return tuple(a for a in anchors if a is not None), tuple(pairs)


#: From this many cells across (the large zoom) every figure shows its role letter and seat number.
_ROOMY = 13


def _roomy_pairs(
    draft: _Draft, anchors: Sequence[tuple[int, int]], pairs: Sequence[bool]
) -> tuple[tuple[tuple[int, int], ...], tuple[bool, ...]]:
    """``(anchors, pairs)`` where a segment without two cells side by side (a road running
    north–south, a narrow field) also gets two cells for its figure, so that in the large zoom a
    figure is its role letter and its seat number: the seat number on the field cell right of the
    anchor, or else the role letter on the field cell left of it (the anchor moves there). A cell
    that is another segment's anchor or digit, or a road, river or city cell, is never taken."""
    out = list(anchors)
    paired = list(pairs)
    taken = set(anchors) | {(c + 1, r) for (c, r), p in zip(anchors, pairs) if p}

    def free(c: int, r: int) -> bool:
        return 0 <= c < draft.width and (c, r) not in taken and draft.role[r][c] in (Role.FIELD, None)

    for i, (c, r) in enumerate(anchors):
        if paired[i]:
            continue
        if free(c + 1, r):
            paired[i] = True
            taken.add((c + 1, r))
        elif free(c - 1, r):
            out[i] = (c - 1, r)
            paired[i] = True
            taken.add((c - 1, r))
    return tuple(out), tuple(paired)


def _anchor_of_cells(
    owner: _Owners, segment: int, cells: list[tuple[int, int]], width: int
) -> tuple[tuple[int, int], bool]:
    """``(anchor, paired)``: the cell of *cells* nearest their centre, or a paired one (its right
    neighbour in *segment* too, from 5 cells across) not much farther."""
    mc = sum(c for c, _ in cells) / len(cells)
    mr = sum(r for _, r in cells) / len(cells)

    def dist(cell: tuple[int, int]) -> tuple[float, int, int]:
        c, r = cell
        return ((c - mc) ** 2 + (2 * (r - mr)) ** 2, r, c)

    best = min(cells, key=dist)
    paired = [(c, r) for c, r in cells if c + 1 < width and owner[r][c + 1] == segment] if width >= 5 else []
    if paired:
        best_pair = min(paired, key=dist)
        if dist(best_pair)[0] <= dist(best)[0] + 2.5:
            best = best_pair
    return best, best in paired


def _free_anchor(seg: Segment, used: set[tuple[int, int]], width: int, height: int) -> tuple[int, int]:
    """For a segment without cells: the cell not in *used* nearest to where its sides and half-sides are."""
    cx, cy = width // 2, height // 2
    du = dv = 0.0
    for s in seg.sides:
        du += _STEPS[s][0]
        dv += _STEPS[s][1]
    for h in seg.halves:
        side_dc, side_dr = _STEPS[h // 2]
        along = 1 if h % 2 else -1  # L is left of the axis as seen from the centre
        du += side_dc - side_dr * along * 0.5
        dv += side_dr + side_dc * along * 0.5
    n = max(1, len(seg.sides) + len(seg.halves))
    want = (cx + du / n * cx, cy + dv / n * cy)
    free = [(c, r) for r in range(height) for c in range(width) if (c, r) not in used]
    return min(free, key=lambda p: ((p[0] - want[0]) ** 2 + (2 * (p[1] - want[1])) ** 2, p[1], p[0]))


def _beside(
    draft: _Draft, segment: int, anchors: Sequence[tuple[int, int]], pairs: Sequence[bool]
) -> tuple[int, int] | None:
    """A field cell off the tile's edge, its centre and every segment's anchor (and digit cell),
    next to a road cell of *segment* (the nearest to its anchor), or ``None``."""
    width, height = draft.width, draft.height
    spots = {*anchors, *((c + 1, r) for (c, r), pair in zip(anchors, pairs, strict=True) if pair)}
    road = {(c, r) for r in range(height) for c in range(width)
            if draft.owner[r][c] == segment and draft.role[r][c] is Role.ROAD}
    cells = [
        (c, r)
        for r in range(1, height - 1)
        for c in range(1, width - 1)
        if draft.role[r][c] is Role.FIELD and (c, r) != draft.centre and (c, r) not in spots
        and any((c + dc, r + dr) in road for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)))
    ]
    if not cells:
        return None
    ac, ar = anchors[segment]
    return min(cells, key=lambda p: ((p[0] - ac) ** 2 + (2 * (p[1] - ar)) ** 2, p[1], -p[0]))


def _mark_cell(
    owner: _Owners, role: _Roles, segment: int, anchor: tuple[int, int], pair: bool, width: int, height: int,
    on: Role = Role.CITY, inner: bool = False,
) -> tuple[int, int] | None:
    """A cell of *segment* drawn as *on* (a city or road cell) next to its anchor (not the anchor or
    the digit cell right of it; with *inner*, not on the tile's edge either, where a road must meet
    its neighbour's)."""
    ac, ar = anchor
    taken = {anchor, (ac + 1, ar)} if pair else {anchor}
    cells = [
        (c, r)
        for r in range(height)
        for c in range(width)
        if owner[r][c] == segment and role[r][c] is on and (c, r) not in taken
        and not (inner and (c in (0, width - 1) or r in (0, height - 1)))
    ]
    if not cells:
        return None
    return min(cells, key=lambda p: ((p[0] - ac) ** 2 + (2 * (p[1] - ar)) ** 2, p[1], -p[0]))


# -------------------------------------------------------------------------------- composition

Row = tuple[tuple[str, Paint], ...]


def compose_tile(
    art: TileArt,
    *,
    parity: int = 0,
    ghost: bool = False,
    highlight: Iterable[int] = (),
    figures: Iterable[tuple[int, int, str]] = (),
    flocks: Iterable[tuple[int, int, int]] = (),
    spots: Iterable[tuple[int, str]] = (),
    selected: int | None = None,
    cursor: bool = False,
    mark: int | None = None,
    glyphs: Glyphs = UNICODE_GLYPHS,
) -> tuple[Row, ...]:
    """Paints a drawn tile: terrain, then the last-placed mark, cursor, figures, their flocks and
    deploy spots.

    Args:
        art: The drawn design.
        parity: ``(x + y) % 2`` of its position.
        ghost: Paint it as the drawn tile on trial (the ghost).
        highlight: Segments to paint as part of the selected feature.
        figures: ``(segment, seat, role letter)`` of each figure on the tile: the letter and the seat
            number where the segment has room for two cells, else the seat number alone.
        flocks: ``(segment, seat, sheep)`` of each shepherd (Hills & Sheep): its sheep, in
            ``glyphs.flock``, in the cells right after the figure's on that tile where they are free
            (within the tile, not another segment's anchor or digit cell); else left out.
        spots: ``(segment, label)`` of each deploy spot (label: a digit).
        selected: The segment whose spot is selected.
        cursor: Draw the cursor's corner marks.
        mark: The seat whose last placed tile this is.
        glyphs: The glyph set (for the cursor and mark characters).

    Returns:
        One row per cell row: ``(char, paint)`` per cell.
    """
    hl = frozenset(highlight)
    base = Mode.GHOST if ghost else Mode.NORMAL
    grid = [
        [
            (
                cell.char,
                Paint(
                    "tile",
                    cell.role,
                    Mode.HIGHLIGHT if cell.segment in hl and cell.segment >= 0 else base,
                    parity,
                ),
            )
            for cell in row
        ]
        for row in art.cells
    ]

    def over(c: int, r: int, char: str, layer: str, seat: int = -1) -> None:
        _, under = grid[r][c]
        grid[r][c] = (char, Paint(layer, under.role, under.mode, parity, seat))

    w, h = art.width, art.height
    if mark is not None:
        over(0, 0, glyphs.mark, "mark", mark)
    if cursor:
        for (c, r), char in zip(((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)), glyphs.cursor):
            over(c, r, char, "cursor")
    for segment, seat, letter in figures:
        c, r = art.anchors[segment]
        if art.pairs[segment]:  # the role letter and the seat number
            over(c, r, letter, "meeple", seat)
            over(c + 1, r, str(seat + 1), "seat", seat)
        else:  # one cell (the overview): the seat number, so the seat is not told by colour alone
            over(c, r, str(seat + 1), "meeple", seat)
    flocks = tuple(flocks)
    if flocks:
        taken = {*art.anchors, *((c + 1, r) for (c, r), pair in zip(art.anchors, art.pairs, strict=True) if pair)}
        prefix, digits = glyphs.flock
        for segment, seat, sheep in flocks:
            text = prefix + "".join(digits[int(d)] for d in str(sheep))
            c, r = art.anchors[segment]
            start = c + (2 if art.pairs[segment] else 1)
            cells = [(start + i, r) for i in range(len(text))]
            if all(col < w and (col, row) not in taken for col, row in cells):
                for (col, row), char in zip(cells, text, strict=True):
                    over(col, row, char, "flock", seat)
                taken.update(cells)
    for segment, label in spots:
        c, r = art.anchors[segment]
        over(c, r, label, "chosen" if segment == selected else "spot")
    return tuple(tuple(row) for row in grid)


def compose_empty(
    width: int,
    height: int,
    *,
    open: bool = False,
    cursor: bool = False,
    parity: int = 0,
    glyphs: Glyphs = UNICODE_GLYPHS,
) -> tuple[Row, ...]:
    """Paints a position without a tile: blank, or filled with ``glyphs.open`` where the drawn tile
    fits; with the cursor's corner marks when *cursor*."""
    paint = Paint("open", parity=parity) if open else Paint("empty")
    char = glyphs.open if open else " "
    grid = [[(char, paint)] * width for _ in range(height)]
    if cursor:
        for (c, r), mark in zip(
            ((0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)), glyphs.cursor
        ):
            grid[r][c] = (mark, Paint("cursor", role=-1, parity=parity, seat=-1 if open else -2))
    return tuple(tuple(row) for row in grid)


# ------------------------------------------------------------------------------- plain board


_SHEPHERD = Figure.SHEPHERD


def shepherds(game: Game) -> list[tuple[int, Position, int, int]]:
    """Hills & Sheep's shepherds on the board of *game* (kept by the expansion, not among
    :meth:`Game.figures`): ``(seat, position, segment, sheep)`` each, *sheep* the sheep its tokens show,
    in seat order; ``[]`` without the expansion."""
    graph = game.graph
    return [(seat, position_of(graph.tile[node]), graph.index[node], sum(int(token) for token in tokens))
            for seat, node, tokens in flocks(game)]


def field_sheep(game: Game, seat: int) -> int:
    """The sheep in the field of *seat*'s shepherd (Hills & Sheep): its own and those of every other
    shepherd there, what each of them scores when the flock is scored; 0 when it has none on the
    board."""
    placed = shepherds(game)
    mine = next(((position, segment) for other, position, segment, _sheep in placed if other == seat), None)
    if mine is None:
        return 0
    field = game.feature_at(*mine).anchor
    return sum(sheep for _seat, position, segment, sheep in placed
               if game.feature_at(position, segment).anchor == field)


def board_text(
    game: Game,
    zoom: Zoom = Zoom.DETAILED,
    glyphs: Glyphs = ASCII_GLYPHS,
    *,
    show_open: bool = True,
) -> str:
    """The whole board as plain text (tiles, figures, the positions where the drawn tile fits), for
    captures, logs and tests. Rows run north to south; each line is as wide as the board."""
    tiles = {t.position: t for t in game.board.tiles.values()}
    open_ = {p.position for p in game.legal_placements()} if show_open else set()
    figures: dict[Position, list[tuple[int, int, str]]] = {}
    for seat, figure, position, segment in game.figures():
        kind = tiles[position].variant.segments[segment].kind
        figures.setdefault(position, []).append((segment, seat, figure_letter(kind, figure)))
    flocks: dict[Position, list[tuple[int, int, int]]] = {}
    for seat, position, segment, sheep in shepherds(game):
        figures.setdefault(position, []).append((segment, seat, figure_letter(SegmentKind.FIELD, _SHEPHERD)))
        flocks.setdefault(position, []).append((segment, seat, sheep))
    xs = [p.x for p in tiles] + [p.x for p in open_]
    ys = [p.y for p in tiles] + [p.y for p in open_]
    w, h = zoom.size
    lines = []
    for y in range(min(ys), max(ys) + 1):
        rows = [""] * h
        for x in range(min(xs), max(xs) + 1):
            pos = Position(x, y)
            tile = tiles.get(pos)
            if tile is not None:
                art = tile_art(tile.kind, tile.rotation, zoom, glyphs)
                grid = compose_tile(art, figures=figures.get(pos, ()), flocks=flocks.get(pos, ()), glyphs=glyphs)
            else:
                grid = compose_empty(w, h, open=pos in open_, glyphs=glyphs)
            for r in range(h):
                rows[r] += "".join(ch for ch, _ in grid[r])
        lines.extend(rows)
    return "\n".join(line.rstrip() for line in lines)
