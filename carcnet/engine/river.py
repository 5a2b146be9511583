"""Provides The River's placement rules (HA "THE RIVER"; Z14 "The River"): each river tile continues
the river's open end, never turns twice in a row the same way (HA FN 31), and leaves the river
finishable with the river tiles left, whatever order they come in (``docs/rules.md``, "The river is
always finished"); a land tile placed while the river is open must leave it finishable too.

The river's open end is ``(key, enter, last)``: the board key (:func:`~carcnet.engine.geometry.key_of`)
of the empty position the river flows into, its side facing the river, and the last turn (-1 left,
0 straight, 1 right). The River's part keeps it per game (``expansions.river.river_end(game)``, ``None`` before
the spring and once the lake is placed) and asks the functions here, which are pure.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING

from .geometry import SIDE_OFFSETS, Side, position_of
from .tiles import RIVER_LAKE, SegmentKind, TileKind, TileVariant, tile_kind

if TYPE_CHECKING:
    from .board import PlacedTile

__all__ = [
    "RIVER_LOOKAHEAD",
    "RiverEnd",
    "advance_river",
    "river_designs_left",
    "river_finishable",
    "river_tiles_left",
    "river_turn",
    "river_unblocked",
    "river_stays_finishable",
]

#: River tiles the finishable-river check looks ahead at most: The River's 10 between spring and lake,
#: which bounds the search to C(10, 5) = 252 sequences of straight and curved tiles.
RIVER_LOOKAHEAD = 10

RiverEnd = tuple[int, int, int]
"""``(key, enter, last)``: see the module docstring."""

_RIVER = SegmentKind.RIVER
#: Letter → 1 for a straight river tile, 2 for a curve, 0 for any other tile (the spring and the
#: lake included); filled on first use.
_RIVER_SHAPES: dict[str, int] = {}
#: The letters of :data:`_RIVER_SHAPES` that are river tiles (shape 1 or 2), filled with it.
_RIVER_IDS: set[str] = set()


#: (design, rotation) → the sides its river reaches; filled on first use.
_SIDES: dict[tuple[TileKind, int], tuple[Side, ...]] = {}


def _river_sides(kind: TileKind, rotation: int) -> tuple[Side, ...]:
    """The sides the river of *kind* turned *rotation* reaches."""
    sides = _SIDES.get((kind, rotation))
    if sides is None:
        sides = _SIDES[kind, rotation] = next(seg.sides for seg in kind.variant(rotation).segments
                                              if seg.kind is _RIVER)
    return sides


#: (design, rotation, side the river enters by) → :func:`_flow`; filled on first use.
_FLOWS: dict[tuple[TileKind, int, int], tuple[int | None, int | None]] = {}


def _flow(kind: TileKind, rotation: int, enter: int) -> tuple[int | None, int | None]:
    """The river of *kind* turned *rotation*, entered by the side *enter*: ``(turn, exit)``, its turn
    (-1 left, 0 straight, 1 right; 0 for the lake; ``None`` when it does not take the river in by
    *enter*) and its first side other than *enter* (``None``: none, the lake). Remembered."""
    sides = _river_sides(kind, rotation)
    exits = [s for s in sides if s != enter]
    if enter not in sides:
        turn = None
    else:
        turn = {0: 0, 1: 1, 3: -1}[(exits[0] - (enter + 2)) % 4] if exits else 0
    flow = _FLOWS[kind, rotation, enter] = (turn, exits[0] if exits else None)
    return flow


def river_turn(end: RiverEnd, kind: TileKind, rotation: int) -> int | None:
    """The turn a river tile makes at the river's *end* (-1 left, 0 straight, 1 right; 0 for the
    lake), or ``None`` when it would be the second turn in a row in the same direction (or does not
    take the river in)."""
    _key, enter, last = end
    turn = (_FLOWS.get((kind, rotation, enter)) or _flow(kind, rotation, enter))[0]
    if turn is None or (turn != 0 and turn == last):
        return None
    return turn


def advance_river(end: RiverEnd | None, kind: TileKind, key: int, rotation: int) -> RiverEnd | None:
    """The river's open end after the river tile *kind* is placed at *key* turned *rotation* (the
    spring starts the river, *end* being ``None``); ``None`` once the lake is placed."""
    if end is None:  # the spring: its river side is the open end
        sides = _river_sides(kind, rotation)
        return (key + SIDE_OFFSETS[sides[0]], (sides[0] + 2) % 4, 0) if sides else None
    turn = river_turn(end, kind, rotation) or 0
    exit = (_FLOWS.get((kind, rotation, end[1])) or _flow(kind, rotation, end[1]))[1]
    return None if exit is None else (key + SIDE_OFFSETS[exit], (exit + 2) % 4, turn)


def river_tiles_left(remaining: dict[str, int]) -> tuple[int, int]:
    """``(straight, curved)``: the river tiles among *remaining* (letter → count face down), the
    lake not counted (it is drawn last); at most :data:`RIVER_LOOKAHEAD` in all."""
    straight = curved = 0
    for letter, count in remaining.items():
        shape = _shape_of(letter)
        if shape == 1:
            straight += count
        elif shape == 2:
            curved += count
    if straight + curved > RIVER_LOOKAHEAD:  # only a given order holds more (a test's): look 10 tiles ahead
        curved = min(curved, RIVER_LOOKAHEAD - min(straight, RIVER_LOOKAHEAD // 2))
        straight = min(straight, RIVER_LOOKAHEAD - curved)
    return straight, curved


def river_finishable(
    occupied: Collection[int],
    end: RiverEnd,
    kind: TileKind,
    rotation: int,
    remaining: Callable[[], dict[str, int]],
) -> bool:
    """Whether the river tile *kind*, turned *rotation* at the river's *end*, leaves the river
    finishable with the river tiles left (*remaining*, asked only when needed, as
    ``Game.remaining``), whatever order they come in. *occupied*: the keys of the placed tiles. The
    lake ends the river: always finishable."""
    key, enter, _last = end
    exits = [s for s in _river_sides(kind, rotation) if s != enter]
    if not exits:
        return True
    turn = river_turn(end, kind, rotation)
    assert turn is not None
    straight, curved = river_tiles_left(remaining())
    return _river_step(set(occupied), key, exits[0], turn, straight, curved)


def river_unblocked(
    occupied: Collection[int], end: RiverEnd, key: int, remaining: Callable[[], dict[str, int]]
) -> bool:
    """Whether a land tile at *key* leaves the open river finishable (see :func:`river_finishable`)."""
    river_key, enter, last = end
    straight, curved = river_tiles_left(remaining())
    if _distance(key, river_key) > straight + curved + 1:
        return True  # the rest of the river cannot come near it
    if any(key == river_key + SIDE_OFFSETS[s] for s in range(4) if s != enter):
        return False  # it would touch the river's open end
    taken = set(occupied)
    taken.add(key)
    return key != river_key and _river_next(taken, river_key, (enter + 2) % 4, last, straight, curved)


def _river_shape(kind: TileKind) -> int:
    if not kind.has_river:
        return 0
    sides = next(seg.sides for seg in kind.segments if seg.kind is _RIVER)
    if len(sides) != 2:
        return 0
    return 1 if (sides[1] - sides[0]) % 4 == 2 else 2


def _distance(a: int, b: int) -> int:
    """Manhattan distance between two position keys."""
    pa, pb = position_of(a), position_of(b)
    return abs(pa.x - pb.x) + abs(pa.y - pb.y)


def _river_next(occupied: set[int], end: int, heading: int, last: int, straight: int, curved: int) -> bool:
    """Whether the river, flowing *heading* (a side) into the empty position *end* after a turn
    *last* (-1, 0, 1), can be finished with *straight* straight and *curved* curved tiles left
    whatever their order, then the lake (``docs/rules.md``, "The river is always finished").

    Each tile must be placeable when it comes: for every kind left (straight, curve) some legal
    way to lay it (a curve not turning the way the last curve did, HA FN 31) leads to a position
    that is again empty with no placed neighbour but the tile before it, from which the rest can
    be laid. A position with one placed neighbour takes any river tile and the lake. The search
    visits at most one node per sequence of kinds, C(10, 4) = 210 sequences for the full river; it
    is skipped when :func:`_river_clear` settles the position at once (almost always).
    """
    if (straight or curved) and _river_clear(occupied, end, heading, last, straight + curved):
        return True
    if straight and not _river_step(occupied, end, heading, 0, straight - 1, curved):
        return False
    if curved and not (
        (last != 1 and _river_step(occupied, end, (heading + 1) % 4, 1, straight, curved - 1))
        or (last != -1 and _river_step(occupied, end, (heading + 3) % 4, -1, straight, curved - 1))
    ):
        return False
    return True


#: ``(heading, side, tiles)`` → the key offsets, from a river's open end, of every position
#: :func:`_river_clear` needs empty (:func:`_clear_offsets`); filled on first use.
_CLEAR: dict[tuple[int, int, int], frozenset[int]] = {}


def _clear_offsets(heading: int, side: int, tiles: int) -> frozenset[int]:
    """The key offsets, from the empty position a river flows into *heading*, of the positions that
    *tiles* river tiles and the lake laid ahead and towards *side* (each tile a step *heading* or a
    step *side*) take or touch: with ``a`` steps *heading* and ``b`` steps *side*, every ``a, b >= 0``
    with ``a + b <= tiles + 1``, and the rows ``a == -1`` and ``b == -1`` beside them from 1 to *tiles*
    (the tile the river comes from, ``a == -1, b == 0``, is not among them)."""
    ahead, aside = SIDE_OFFSETS[heading], SIDE_OFFSETS[side]
    offsets = {a * ahead + b * aside for a in range(tiles + 2) for b in range(tiles + 2 - a)}
    offsets.update(-ahead + b * aside for b in range(1, tiles + 1))
    offsets.update(a * ahead - aside for a in range(1, tiles + 1))
    region = _CLEAR[heading, side, tiles] = frozenset(offsets)
    return region


def _river_clear(occupied: set[int], end: int, heading: int, last: int, tiles: int) -> bool:
    """A sufficient condition for :func:`_river_next` (the same arguments, *tiles* river tiles left,
    at least one): on one side the river may turn to first (not the way *last* turned), every
    position of :func:`_clear_offsets` is empty. Then the river can always be laid within that
    quarter of the board, each curve turning back the way the one before did not (ahead, then
    aside, then ahead, …): every position it reaches is one step further from *end* than the one
    before, so it touches nothing but the tile before it, whatever order the tiles come in."""
    for turn, side in ((1, (heading + 1) % 4), (-1, (heading + 3) % 4)):
        if turn != last:
            region = _CLEAR.get((heading, side, tiles)) or _clear_offsets(heading, side, tiles)
            for key in occupied:
                if key - end in region:
                    break
            else:
                return True
    return False


def _river_step(occupied: set[int], at: int, exit: int, turn: int, straight: int, curved: int) -> bool:
    """Lays a river tile at *at* leaving through side *exit* (see :func:`_river_next`)."""
    offsets = SIDE_OFFSETS
    nxt = at + offsets[exit]
    if nxt in occupied:
        return False
    back = (exit + 2) % 4
    for side in range(4):
        if side != back and nxt + offsets[side] in occupied:
            return False
    if not straight and not curved:
        return True
    occupied.add(at)
    try:
        return _river_next(occupied, nxt, exit, turn, straight, curved)
    finally:
        occupied.discard(at)


# ---------------------------------------------------------------------- the exact rule (rules 3)


def river_stays_finishable(
    tiles: Mapping[int, PlacedTile],
    end: RiverEnd,
    key: int,
    variant: TileVariant,
    remaining: Callable[[], dict[str, int]],
) -> bool:
    """Whether placing *variant* at *key* (a river tile continuing the river at its open *end*, or a
    land tile anywhere while the river is open) leaves the river finishable whatever order the river
    tiles still face down come in: the exact rule (``docs/rules.md``, "The river is always finished",
    rules 3). *tiles*: the placed tiles by key; *remaining*: the face-down tiles (``Game.remaining``),
    asked only when needed.

    Finishable means: for each river design that may come next, some placement the rules allow (it
    continues the open end, matches every placed neighbour's side, does not turn the way the last
    curve did) leaves the river finishable with the rest; with none left, the lake fits at the open
    end. A land tile among the river tiles (the start tile, river_start "river") can always go where
    it touches nothing of the river, so it is left out.

    The search first asks the sufficient test of :func:`river_finishable` (the next position touches
    no placed tile but the one before it), which settles almost every position at once, and only
    where it fails looks at the tiles' sides; its nodes are memoised by the tiles laid and the river
    tiles left.
    """
    if variant.kind.has_river:
        new_end = advance_river(end, variant.kind, key, variant.rotation)
        if new_end is None:
            return True  # the lake: the river is finished
    else:
        new_end = end
    designs = _river_designs(remaining())
    if sum([count for _letter, count in designs]) > RIVER_LOOKAHEAD:  # only a hand-made order holds more
        if variant.kind.has_river:
            return river_finishable(tiles, end, variant.kind, variant.rotation, remaining)
        return river_unblocked(tiles, end, key, remaining)
    return _exact(tiles, {key: variant}, new_end, designs, {})


def river_designs_left(remaining: dict[str, int]) -> dict[str, int]:
    """The river designs among *remaining* (id → count face down, as ``Game.remaining``) with their
    counts, in the same order: the lake, drawn last, and the land tiles left out. Every function
    here that is given the tiles face down reads only these, so they may be given this instead."""
    return dict(_river_designs(remaining))


def _river_designs(remaining: dict[str, int]) -> tuple[tuple[str, int], ...]:
    """The river designs among *remaining* (the lake, drawn last, and land tiles left out), by id."""
    if not _RIVER_SHAPES.keys() >= remaining.keys():
        for letter in remaining.keys() - _RIVER_SHAPES.keys():  # ids not met yet
            _shape_of(letter)
    return tuple([(letter, remaining[letter]) for letter in sorted(remaining.keys() & _RIVER_IDS)])


def _shape_of(letter: str) -> int:
    """:data:`_RIVER_SHAPES` of *letter*, filled on first use."""
    shape = _RIVER_SHAPES.get(letter)
    if shape is None:
        shape = _RIVER_SHAPES[letter] = _river_shape(tile_kind(letter))
        if shape:
            _RIVER_IDS.add(letter)
    return shape


def _pattern(tiles: Mapping[int, PlacedTile], laid: dict[int, TileVariant], key: int) -> int:
    """The neighbour pattern of the empty position *key* (as ``Board.frontier`` keeps it) with the
    tiles *laid* by the search on the board too."""
    pattern = 0
    for s in range(4):
        nk = key + SIDE_OFFSETS[s]
        placed = tiles.get(nk)
        if placed is not None:
            pattern |= placed.variant.facing[(s + 2) % 4]
        else:
            variant = laid.get(nk)
            if variant is not None:
                pattern |= variant.facing[(s + 2) % 4]
    return pattern


def _exact(
    tiles: Mapping[int, PlacedTile],
    laid: dict[int, TileVariant],
    end: RiverEnd,
    designs: tuple[tuple[str, int], ...],
    memo: dict[tuple[object, ...], bool],
) -> bool:
    """Whether the river open at *end* can be finished whatever order *designs* (id, count) come in,
    on *tiles* with the search's tiles *laid* (see :func:`river_stays_finishable`)."""
    key, enter, last = end
    if key in tiles or key in laid:
        return False  # the river runs into a tile
    pattern = _pattern(tiles, laid, key)
    if not designs:
        lake = tile_kind(RIVER_LAKE)
        return any(river_turn(end, lake, r) is not None for r in lake.fitting_rotations(pattern))
    # the sufficient test: the open end touches only the tile before it, and the rest can always be
    # laid so that each next position touches only the tile before it
    if pattern == _only_back(pattern, enter):
        straight = curved = 0
        for d, c in designs:  # river designs only: shape 1 or 2
            if _RIVER_SHAPES[d] == 1:
                straight += c
            else:
                curved += c
        occupied = set(tiles)
        occupied.update(laid)
        if straight + curved <= RIVER_LOOKAHEAD and _river_next(occupied, key, (enter + 2) % 4, last, straight, curved):
            return True
    memo_key = (end, designs, tuple(sorted((k, v.kind.letter, v.rotation) for k, v in laid.items())))
    known = memo.get(memo_key)
    if known is not None:
        return known
    result = True
    for i, (letter, count) in enumerate(designs):
        kind = tile_kind(letter)
        rest = designs[:i] + ((letter, count - 1),) + designs[i + 1 :] if count > 1 else designs[:i] + designs[i + 1 :]
        placeable = False
        for r in kind.fitting_rotations(pattern):
            if river_turn(end, kind, r) is None:
                continue
            after = advance_river(end, kind, key, r)
            assert after is not None  # a river design (not the lake) has an exit
            laid[key] = kind.variant(r)
            try:
                placeable = _exact(tiles, laid, after, rest, memo)
            finally:
                del laid[key]
            if placeable:
                break
        if not placeable:
            result = False
            break
    memo[memo_key] = result
    return result


def _only_back(pattern: int, enter: int) -> int:
    """*pattern* reduced to the side *enter* (the tile before): equal to *pattern* when the position
    touches nothing else."""
    return pattern & (7 << 3 * enter)
