"""Tile pictures (carcnet.tui.render): drawn from the segment data, for every design, rotation and zoom.

No Textual here: render.py is pure.
"""

from __future__ import annotations

import dataclasses
import doctest
import unicodedata

import pytest

from carcnet.engine import (
    BASE_DESIGNS,
    Game,
    GameSetup,
    HalfSide,
    PlaceTile,
    Position,
    Segment,
    SegmentKind,
    Side,
    Terrain,
    TileKind,
    tile_kind,
)
from carcnet.engine.tiles import HILLS_DESIGNS, INNS_DESIGNS, INNS_GARDEN_VARIANTS
from carcnet.tui import render
from carcnet.tui.render import (
    ASCII_GLYPHS,
    UNICODE_GLYPHS,
    Mode,
    Role,
    Zoom,
    board_text,
    compose_empty,
    compose_tile,
    figure_role,
    tile_art,
)

SIZES = [*(z.size for z in Zoom), (3, 3), (15, 7)]  # the zooms, and more sizes to show it is generic
ROLES_OF_KIND = {
    SegmentKind.CITY: {Role.CITY, Role.PENNANT, Role.CATHEDRAL},
    SegmentKind.ROAD: {Role.ROAD, Role.INN},
    SegmentKind.FIELD: {Role.FIELD, Role.HILL, Role.VINEYARD},  # a tile's hill or vineyard stands on a field
    SegmentKind.CLOISTER: {Role.CLOISTER},
    SegmentKind.GARDEN: {Role.GARDEN},
    SegmentKind.RIVER: {Role.RIVER},
}
ROLE_OF_TERRAIN = {
    Terrain.CITY: Role.CITY,
    Terrain.ROAD: Role.ROAD,
    Terrain.FIELD: Role.FIELD,
    Terrain.RIVER: Role.RIVER,
}

# Two designs that are not in the base game, to show that nothing is drawn per letter.
RIVER = TileKind(
    "test-river",
    (
        Segment(SegmentKind.RIVER, (Side.N, Side.S)),
        Segment(SegmentKind.FIELD, halves=(HalfSide.NR, HalfSide.EL, HalfSide.ER, HalfSide.SL)),
        Segment(SegmentKind.FIELD, halves=(HalfSide.SR, HalfSide.WL, HalfSide.WR, HalfSide.NL)),
    ),
    "test",
)
SPRING = TileKind(
    "test-spring",
    (
        Segment(SegmentKind.RIVER, (Side.S,)),
        Segment(SegmentKind.FIELD, halves=tuple(HalfSide)),
    ),
    "test",
)
GARDEN_CITY = TileKind(
    "test-garden",
    (
        Segment(SegmentKind.GARDEN),
        Segment(SegmentKind.CITY, (Side.E,), pennant=True),
        Segment(SegmentKind.ROAD, (Side.W,)),
        Segment(SegmentKind.FIELD, halves=(HalfSide.NL, HalfSide.NR, HalfSide.WR), borders=(1,)),
        Segment(SegmentKind.FIELD, halves=(HalfSide.SL, HalfSide.SR, HalfSide.WL), borders=(1,)),
    ),
    "test",
)
#: The roles of a tile's marks (Hills & Sheep), by its marks.
TILE_MARKS = {("hill",): (Role.HILL,), ("vineyard",): (Role.VINEYARD,)}
DESIGNS = [*BASE_DESIGNS, RIVER, SPRING, GARDEN_CITY, *INNS_DESIGNS, *INNS_GARDEN_VARIANTS, *HILLS_DESIGNS]


def border_cells(width: int, height: int, side: int) -> list[tuple[int, int]]:
    """The non-corner cells along *side*, in (col, row)."""
    if side == Side.N:
        return [(c, 0) for c in range(1, width - 1)]
    if side == Side.S:
        return [(c, height - 1) for c in range(1, width - 1)]
    if side == Side.E:
        return [(width - 1, r) for r in range(1, height - 1)]
    return [(0, r) for r in range(1, height - 1)]


def half_of_border_cell(width: int, height: int, side: int, col: int, row: int) -> int | None:
    """The half-side a border cell lies on (None for a side's midpoint), as seen from the centre."""
    cx, cy = width // 2, height // 2
    if side == Side.N:
        return None if col == cx else (HalfSide.NL if col < cx else HalfSide.NR)
    if side == Side.E:
        return None if row == cy else (HalfSide.EL if row < cy else HalfSide.ER)
    if side == Side.S:
        return None if col == cx else (HalfSide.SL if col > cx else HalfSide.SR)
    return None if row == cy else (HalfSide.WL if row > cy else HalfSide.WR)


def drawings(kind: TileKind) -> list[tuple[int, tuple[int, int]]]:
    """Every (rotation, size) of *kind* to check: each size of :data:`SIZES` at each rotation whose
    turned design differs from the earlier rotations' (B, C and ICK look the same every way round:
    the picture is drawn from the turned design alone, so only their rotation 0 is drawn)."""
    turned = [dataclasses.replace(kind.variant(r), rotation=0) for r in range(4)]
    return [(r, size) for r in range(4) if turned[r] not in turned[:r] for size in SIZES]


def test_every_design_is_drawn_every_distinct_way_round():
    """The cases of the three tests below: every design, each distinct rotation at each size (only
    B, C and ICK have rotations that draw the same picture)."""
    same = {kind.letter for kind in DESIGNS if len(drawings(kind)) < 4 * len(SIZES)}
    assert same == {"B", "C", "ICK"}
    assert all(len(drawings(kind)) == len(SIZES) for kind in DESIGNS if kind.letter in same)


def _case(kind: TileKind, rotation: int, size: tuple[int, int]) -> str:
    return f"{kind.letter}-r{rotation}-{size[0]}x{size[1]}"


@pytest.mark.parametrize("kind", DESIGNS, ids=lambda k: k.letter)
def test_each_side_shows_its_terrain_on_its_border_cells(kind):
    for rotation, size in drawings(kind):
        art = tile_art(kind, rotation, size, ASCII_GLYPHS)
        variant = kind.variant(rotation)
        w, h = size
        case = _case(kind, rotation, size)
        for side in Side:
            terrain = variant.terrain[side]
            for col, row in border_cells(w, h, side):
                cell = art.cell(col, row)
                half = half_of_border_cell(w, h, side, col, row)
                where = (case, side.name, col, row, art.lines())
                if terrain in (Terrain.CITY, Terrain.ROAD, Terrain.RIVER) and (
                    terrain == Terrain.CITY or half is None
                ):
                    expected_roles = (
                        {Role.CITY, Role.PENNANT} if terrain == Terrain.CITY else {ROLE_OF_TERRAIN[terrain]}
                    )
                    assert cell.role in expected_roles, where
                    assert cell.segment == variant.side_segment[side], where
                else:  # a field half-side (beside a road or river, or a field side); a tile too small for
                    # its hill or vineyard (Hills & Sheep) off the edge has it there
                    assert cell.role in (Role.FIELD, *TILE_MARKS.get(kind.marks, ())), where
                    halves = [half] if half is not None else [2 * side, 2 * side + 1]
                    assert cell.segment in {variant.half_segment[x] for x in halves}, where


@pytest.mark.parametrize("kind", DESIGNS, ids=lambda k: k.letter)
def test_cells_belong_to_segments_of_their_own_kind(kind):
    for rotation, size in drawings(kind):
        art = tile_art(kind, rotation, size, UNICODE_GLYPHS)
        segments = kind.variant(rotation).segments
        where = (_case(kind, rotation, size), art.lines())
        for row in art.cells:
            for cell in row:
                assert len(cell.char) == 1 and unicodedata.east_asian_width(cell.char) not in "WF", where
                if cell.role is Role.JUNCTION:
                    assert cell.segment == -1, where
                    continue
                assert 0 <= cell.segment < len(segments), where
                assert cell.role in ROLES_OF_KIND[segments[cell.segment].kind], where


@pytest.mark.parametrize("kind", DESIGNS, ids=lambda k: k.letter)
def test_different_cities_never_touch(kind):
    for rotation, size in drawings(kind):
        art = tile_art(kind, rotation, size)
        w, h = size
        for r in range(h):
            for c in range(w):
                a = art.cell(c, r)
                for c2, r2 in ((c + 1, r), (c, r + 1)):
                    if c2 < w and r2 < h:
                        b = art.cell(c2, r2)
                        if a.role in (Role.CITY, Role.PENNANT) and b.role in (Role.CITY, Role.PENNANT):
                            assert a.segment == b.segment, (_case(kind, rotation, size), art.lines())


@pytest.mark.parametrize("kind", DESIGNS, ids=lambda k: k.letter)
@pytest.mark.parametrize("zoom", list(Zoom), ids=lambda z: z.name)
def test_every_segment_has_its_own_anchor(kind, zoom):
    for rotation in range(4):
        art = tile_art(kind, rotation, zoom)
        segments = kind.variant(rotation).segments
        assert len(art.anchors) == len(segments)
        assert len(set(art.anchors)) == len(segments)  # a figure or number per segment, never two on a cell
        for i, (col, row) in enumerate(art.anchors):
            own = [art.cell(col, row).segment, art.cell(col + 1, row).segment if art.pairs[i] else -2]
            if art.segment_cells(i):  # in the overview a segment may have no cell (the field under L's city)
                # the anchor is the segment's; in the large zoom it may be the field cell left of it
                assert own[0] == i or (zoom is Zoom.LARGE and own[1] == i), (i, art.lines())
            else:
                assert zoom is Zoom.OVERVIEW, (i, art.lines())
            if art.pairs[i]:  # the seat digit's cell: the segment's own, or in the large zoom a field's
                right = art.cell(col + 1, row)
                assert right.segment == i or (zoom is Zoom.LARGE and right.role is Role.FIELD), art.lines()
                assert (col + 1, row) not in art.anchors


@pytest.mark.parametrize("kind", DESIGNS, ids=lambda k: k.letter)
def test_the_large_zoom_shows_every_figure_as_its_role_and_seat(kind):
    """In the large zoom every figure is its role letter and its seat number (a thief on a road that
    runs north–south too: in the detailed zoom it is its seat number alone)."""
    for rotation in range(4):
        art = tile_art(kind, rotation, Zoom.LARGE, UNICODE_GLYPHS)
        assert (art.width, art.height) == (13, 7)
        segments = kind.variant(rotation).segments
        for i, segment in enumerate(segments):
            if segment.kind is SegmentKind.FIELD and not art.segment_cells(i):
                continue
            grid = compose_tile(art, figures=[(i, 1, "X")])
            c, r = art.anchors[i]
            assert (grid[r][c][0], grid[r][c + 1][0]) == ("X", "2"), (i, art.lines())
        text = "".join(art.lines())
        assert text.count(UNICODE_GLYPHS.pennant) == sum(s.pennant for s in segments)
        if any(s.kind is SegmentKind.CLOISTER for s in segments):
            assert UNICODE_GLYPHS.cloister[0] in text and UNICODE_GLYPHS.cloister[1] in text
        if any(s.kind is SegmentKind.RIVER for s in segments):
            assert "~" in text


@pytest.mark.parametrize("kind", DESIGNS, ids=lambda k: k.letter)
def test_a_tile_too_narrow_has_no_room_for_a_seat_number(kind):
    for rotation in range(4):
        assert not any(tile_art(kind, rotation, (3, 3)).pairs)


@pytest.mark.parametrize("kind", DESIGNS, ids=lambda k: k.letter)
def test_detailed_zoom_shows_every_segment_pennant_and_cloister(kind):
    for rotation in range(4):
        art = tile_art(kind, rotation, Zoom.DETAILED, UNICODE_GLYPHS)
        segments = kind.variant(rotation).segments
        text = "".join(art.lines())
        for i in range(len(segments)):
            assert art.segment_cells(i), (i, art.lines())
        assert text.count(UNICODE_GLYPHS.pennant) == sum(s.pennant for s in segments)
        # Inns & Cathedrals: every inn and cathedral shows, each once
        assert text.count(UNICODE_GLYPHS.inn) == sum(s.inn for s in segments), (kind.letter, art.lines())
        assert text.count(UNICODE_GLYPHS.cathedral) == sum(s.cathedral for s in segments), kind.letter
        if any(s.kind is SegmentKind.CLOISTER for s in segments):
            assert "†" in text
        if any(s.kind is SegmentKind.RIVER for s in segments):
            assert "~" in text


def test_rotating_a_design_turns_its_picture():
    """Terrain of the four sides, read off the picture's border midpoints, turns with the tile."""
    for kind in DESIGNS:
        for rotation in range(4):
            art = tile_art(kind, rotation, (3, 3))
            mids = [art.cell(1, 0), art.cell(2, 1), art.cell(1, 2), art.cell(0, 1)]
            roles = [Role.CITY if m.role is Role.PENNANT else Role.FIELD if m.role in (Role.HILL, Role.VINEYARD)
                     else m.role for m in mids]
            turned = [ROLE_OF_TERRAIN[kind.variant(0).terrain[(s - rotation) % 4]] for s in range(4)]
            assert roles == turned


FLAT = dataclasses.replace(ASCII_GLYPHS, field=".")  # ASCII with a plain field, for readable pictures


def test_some_base_designs_as_drawn():
    """What a few designs look like (ASCII, detailed zoom): a picture check for the reader."""
    pictures = {letter: tile_art(tile_kind(letter), 0, Zoom.DETAILED, FLAT).lines() for letter in "BDFLM"}
    assert pictures["B"] == [".........", ".../^\\...", "...|+|...", ".........", "........."]  # cloister
    assert pictures["D"] == [
        ".#######.",
        "..#####..",
        "=========",
        ".........",
        ".........",
    ]  # the start tile
    assert pictures["F"] == [
        ".........",
        "##.....##",
        "###^#####",
        "##.....##",
        ".........",
    ]  # city band, pennant
    assert pictures["L"] == [
        ".#######.",
        "..#####..",
        "====o====",
        "....|....",
        "....|....",
    ]  # three roads end
    assert pictures["M"] == ["########.", "#^####...", "####.....", "##.......", "........."]  # corner city


def test_figure_roles_and_letters():
    assert figure_role(SegmentKind.ROAD) == "thief"
    assert figure_role(SegmentKind.CITY) == "knight"
    assert figure_role(SegmentKind.CLOISTER) == "monk"
    assert figure_role(SegmentKind.FIELD) == "farmer"
    assert render.ROLE_LETTERS["abbot"] == "A"
    assert len(set(render.ROLE_LETTERS.values())) == len(render.ROLE_LETTERS)


def test_compose_tile_places_figures_spots_cursor_and_mark():
    art = tile_art(tile_kind("D"), 0, Zoom.DETAILED)
    grid = compose_tile(
        art,
        parity=1,
        highlight=[0],
        figures=[(1, 0, "T")],
        spots=[(0, "1"), (3, "2")],
        selected=3,
        cursor=True,
        mark=1,
    )
    col, row = art.anchors[1]
    assert grid[row][col][0] == "T" and grid[row][col][1].layer == "meeple" and grid[row][col][1].seat == 0
    if art.pairs[1]:
        assert grid[row][col + 1][0] == "1" and grid[row][col + 1][1].layer == "seat"
    col, row = art.anchors[0]
    assert grid[row][col][0] == "1" and grid[row][col][1].layer == "spot"
    col, row = art.anchors[3]
    assert grid[row][col][0] == "2" and grid[row][col][1].layer == "chosen"
    corners = [grid[0][0], grid[0][-1], grid[-1][0], grid[-1][-1]]
    assert [c[0] for c in corners] == list(UNICODE_GLYPHS.cursor)  # the cursor wins over the mark
    city_cells = [p for r in grid for (ch, p) in r if p.layer == "tile" and p.role == Role.CITY]
    assert city_cells and all(p.mode == Mode.HIGHLIGHT and p.parity == 1 for p in city_cells)
    field_cells = [p for r in grid for (ch, p) in r if p.layer == "tile" and p.role == Role.FIELD]
    assert all(p.mode == Mode.NORMAL for p in field_cells)
    marked = compose_tile(art, mark=1)
    assert (
        marked[0][0][0] == UNICODE_GLYPHS.mark
        and marked[0][0][1].layer == "mark"
        and marked[0][0][1].seat == 1
    )


def test_compose_ghost_and_empty_positions():
    art = tile_art(tile_kind("V"), 1, Zoom.OVERVIEW)
    ghost = compose_tile(art, ghost=True)
    assert all(p.mode == Mode.GHOST for row in ghost for _, p in row)
    open_ = compose_empty(9, 5, open=True)
    assert {ch for row in open_ for ch, _ in row} == {UNICODE_GLYPHS.open}
    blank = compose_empty(3, 3, cursor=True)
    assert blank[1][1][0] == " " and blank[0][0][0] == UNICODE_GLYPHS.cursor[0]


def test_board_text_of_a_small_game():
    game = Game(GameSetup(players=2, draw_order=("E", "U")))
    game.apply(PlaceTile("E", Position(0, -1), 2))  # turned so that its city caps the start tile's city
    assert board_text(game, Zoom.OVERVIEW, FLAT).splitlines() == [".....", ".....", ".###.", ".###.", "=====", "....."]
    assert board_text(game, Zoom.DETAILED, FLAT).splitlines() == [
        ".........",
        ".........",
        ".........",
        "..#####..",
        ".#######.",
        ".#######.",
        "..#####..",
        "=========",
        ".........",
        ".........",
    ]


@pytest.mark.parametrize("kind", [k for k in HILLS_DESIGNS if k.marks], ids=lambda k: k.letter)
def test_a_tile_s_hill_or_vineyard_shows_once_on_a_field_cell(kind):
    """Hills & Sheep's tile marks: once each, in every zoom and rotation, on a cell of a field
    segment that is no anchor and no digit cell; from the detailed zoom on off the tile's edge (no
    corner: the cursor's and the last tile's marks go there); in the overview a corner only where no
    other cell is left, never the north-west one (the last tile's mark)."""
    (mark,) = kind.marks
    role = {"hill": Role.HILL, "vineyard": Role.VINEYARD}[mark]
    for rotation in range(4):
        for zoom in Zoom:
            for glyphs in (UNICODE_GLYPHS, ASCII_GLYPHS):
                art = tile_art(kind, rotation, zoom, glyphs)
                glyph = glyphs.hill if mark == "hill" else glyphs.vineyard
                cells = [(c, r) for r, row in enumerate(art.cells) for c, cell in enumerate(row) if cell.role is role]
                where = (kind.letter, rotation, zoom, art.lines())
                assert len(cells) == 1, where
                ((c, r),) = cells
                assert art.cell(c, r).char == glyph, where
                segments = kind.variant(rotation).segments
                assert segments[art.cell(c, r).segment].kind is SegmentKind.FIELD, where
                w, h = art.width, art.height
                assert (c, r) != (0, 0), where
                digits = {(x + 1, y) for (x, y), pair in zip(art.anchors, art.pairs, strict=True) if pair}
                assert (c, r) not in set(art.anchors) | digits, where
                if zoom is not Zoom.OVERVIEW:
                    assert 0 < c < w - 1 and 0 < r < h - 1, where


def test_a_shepherd_shows_its_sheep_after_its_seat_number():
    """Hills & Sheep: a shepherd is ``S`` and its seat number, then its sheep in small digits
    (``S1⁵``; ``S1:12`` in ASCII), where the cells after it are free on the tile."""
    art = tile_art(tile_kind("U"), 1, Zoom.DETAILED)  # a road east-west, a field either side
    field = next(i for i, s in enumerate(art_segments(art)) if s.kind is SegmentKind.FIELD)
    c, r = art.anchors[field]
    assert art.pairs[field]
    grid = compose_tile(art, figures=[(field, 0, "S")], flocks=[(field, 0, 5)])
    assert "".join(ch for ch, _ in grid[r][c:c + 3]) == "S1⁵"
    assert grid[r][c + 2][1].layer == "flock" and grid[r][c + 2][1].seat == 0
    ascii_art = tile_art(tile_kind("U"), 1, Zoom.LARGE, ASCII_GLYPHS)
    c, r = ascii_art.anchors[field]
    grid = compose_tile(ascii_art, figures=[(field, 1, "S")], flocks=[(field, 1, 12)], glyphs=ASCII_GLYPHS)
    assert "".join(ch for ch, _ in grid[r][c:c + 5]) == "S2:12"
    narrow = tile_art(tile_kind("U"), 1, Zoom.OVERVIEW)  # no room after it: the sheep left out, whole
    grid = compose_tile(narrow, figures=[(field, 0, "S")], flocks=[(field, 0, 123456)])
    assert not [p for row in grid for _, p in row if p.layer == "flock"]
    assert [p for row in grid for _, p in row if p.layer in ("meeple", "seat")]  # the shepherd itself shows


def art_segments(art: render.TileArt) -> tuple[Segment, ...]:
    return tile_kind(art.letter).variant(art.rotation).segments


def test_board_text_draws_the_shepherds_with_their_sheep():
    from carcnet.engine import Rules, parse_move

    game = Game(GameSetup(players=2, draw_order=("U", "U", "U"), rules=Rules(hills_sheep=True), tokens=("3", "2")))
    for move in ("place U 1,0 90", "deploy 2 shepherd", "place U -1,0 90", "deploy 1 shepherd"):
        game.apply(parse_move(move))
    text = board_text(game, Zoom.DETAILED, FLAT, show_open=False)
    assert "S1:3" in text and "S2:2" in text, text


def test_rejects_even_or_tiny_sizes():
    with pytest.raises(ValueError):
        tile_art(tile_kind("A"), 0, (8, 5))
    with pytest.raises(ValueError):
        tile_art(tile_kind("A"), 0, (1, 1))


def test_doctests():
    failures, tests = doctest.testmod(render)
    assert tests > 0 and failures == 0


def test_the_words_doctests():
    """Tiles and places in words (carcnet.tui.words), as the examples in its docstring say them."""
    from carcnet.tui import words

    failures, tests = doctest.testmod(words)
    assert tests > 0 and failures == 0
