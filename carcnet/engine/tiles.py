"""Provides the land tile designs as data: the 24 base designs A–X and their segments.

Source: HiG basic rules, "The Tiles in the Basic Game" (``shared/rules/hig-basic-rules-with-tile-list.txt``)
and the HiG tile distribution (``hig-annotated-rules-v4-with-faq-and-river.txt``, "TILE DISTRIBUTION").
The counts are A2 B4 C1 D4 E5 F2 G1 H3 I2 J3 K3 L3 M2 N3 O2 P3 Q1 R3 S2 T1 U8 V9 W4 X1 = 72, one D
being the start tile (the extracted HiG list reads "D 2x"; 72 tiles need D = 4, see ``docs/rules.md``).

The table
---------
Each design is one row: its rulebook letter, how many the tile set holds, and its segments as
printed (rotation 0). A segment is written ``KIND EDGES [pennant] [inn] [cathedral] [GOODS …] [borders I J …]``:

* ``road``, ``city`` and ``river`` segments list the **sides** they reach (``N E S W``);
* ``field`` segments list the **half-sides** they reach (``NL NR EL ER SL SR WL WR``, see
  :mod:`carcnet.engine.geometry`); a bare side letter stands for both its halves;
* ``cloister`` and ``garden`` reach no edge;
* ``pennant`` marks a city segment with a pennant;
* ``inn`` marks a road segment with an inn by it, ``cathedral`` a city segment with a cathedral
  (Inns & Cathedrals); ``wine``, ``grain`` and ``cloth`` the goods a city segment shows (Traders &
  Builders), one word per symbol;
* ``ends`` marks a road that ends inside its field, the field going round its end (Hills & Sheep's
  HSK and HSP, where something else also divides the tile's fields);
* ``borders I J`` lists, for a field, the indices (0-based, in row order) of the city segments it
  borders: what farmers score at the end of the game.

A design may also carry **tile marks** (``marks``: ``hill``, ``vineyard``), which belong to the
whole tile and no segment, and **shared sides** (``shared``): a side that two city segments reach,
so that a city met across it joins both (Hills & Sheep's HSB; JCloisterZone's ``multi-edge``).

A side's terrain follows from the segments: city or road or river if such a segment reaches it,
field otherwise. A road or river side is flanked by field half-sides, which is how a road splits a
side's field into two farm segments. Rotations are derived from the row (:meth:`TileKind.variant`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from .geometry import SIDE_OFFSETS, HalfSide, Side

__all__ = [
    "BASE_DESIGNS",
    "GARDEN_VARIANTS",
    "GOODS",
    "INNS_DESIGNS",
    "TRADERS_DESIGNS",
    "HILLS_DESIGNS",
    "DRAGON_DESIGNS",
    "TILE_MARKS",
    "expansion_tile_counts",
    "pack_goods",
    "unpack_goods",
    "RIVER_DESIGNS",
    "RIVER_LAKE",
    "RIVER_SPRING",
    "tileset",
    "group_rank",
    "BASE_START",
    "Segment",
    "SegmentKind",
    "Terrain",
    "TileKind",
    "TileVariant",
    "base_tile_counts",
    "tile_kind",
]


class Terrain(IntEnum):
    """What a side of a tile shows; touching sides must show the same terrain."""

    FIELD = 0
    ROAD = 1
    CITY = 2
    RIVER = 3


class SegmentKind(IntEnum):
    """The kind of a segment, and so of the feature it is part of."""

    ROAD = 0
    CITY = 1
    FIELD = 2
    CLOISTER = 3
    RIVER = 4
    GARDEN = 5

    @property
    def label(self) -> str:
        """Lower-case English name: ``"road"``, ``"city"``, ``"field"`` …"""
        return self.name.lower()


#: Segment kinds that complete when the eight surrounding positions are filled.
AREA_KINDS = (SegmentKind.CLOISTER, SegmentKind.GARDEN)
_TERRAIN_OF = {SegmentKind.ROAD: Terrain.ROAD, SegmentKind.CITY: Terrain.CITY, SegmentKind.RIVER: Terrain.RIVER}


@dataclass(frozen=True, slots=True)
class Segment:
    """One part of a tile: a road, city, field, cloister, river or garden segment.

    Attributes:
        kind: What the segment is.
        sides: Sides reached (road, city, river), clockwise from north. Empty otherwise.
        halves: Half-sides reached (field). Empty otherwise.
        pennant: True for a city segment that shows a pennant.
        borders: For a field, indices of the city segments on the same tile that it borders.
        inn: True for a road segment with an inn by it (Inns & Cathedrals: a road with an inn scores
            2 a tile when completed, nothing when incomplete at the end).
        cathedral: True for a city segment with a cathedral (Inns & Cathedrals: 3 a tile and pennant
            when completed, nothing when incomplete at the end).
        goods: For a city segment, the goods symbols it shows, each ``"wine"``, ``"grain"`` or
            ``"cloth"`` (Traders & Builders: the tokens go to whoever completes the city).
        ends: For a road reaching one side, that it ends inside its field, which goes round its end
            although something else divides the tile's fields (Hills & Sheep's HSK and HSP).
        princess: For a city segment, that it shows the princess (The Princess & the Dragon: whoever
            places it may send a knight of that city home).
        tunnel: For a road, that it runs under the tile's city through a tunnel: the fields on its
            two sides are one where the tile shows them so (The Princess & the Dragon's PDQ).
    """

    kind: SegmentKind
    sides: tuple[Side, ...] = ()
    halves: tuple[HalfSide, ...] = ()
    pennant: bool = False
    borders: tuple[int, ...] = ()
    inn: bool = False
    cathedral: bool = False
    goods: tuple[str, ...] = ()
    ends: bool = False
    princess: bool = False
    tunnel: bool = False

    def rotated(self, rotation: int) -> Segment:
        """This segment after *rotation* clockwise quarter turns of its tile."""
        if rotation % 4 == 0:
            return self
        return Segment(
            self.kind,
            tuple(sorted(s.rotated(rotation) for s in self.sides)),
            tuple(sorted(h.rotated(rotation) for h in self.halves)),
            self.pennant,
            self.borders,
            self.inn,
            self.cathedral,
            self.goods,
            self.ends,
            self.princess,
            self.tunnel,
        )

    def __str__(self) -> str:
        parts = [self.kind.label, *(s.name for s in self.sides), *(h.name for h in self.halves)]
        if self.pennant:
            parts.append("pennant")
        if self.inn:
            parts.append("inn")
        if self.cathedral:
            parts.append("cathedral")
        parts.extend(self.goods)
        if self.ends:
            parts.append("ends")
        if self.princess:
            parts.append("princess")
        if self.tunnel:
            parts.append("tunnel")
        if self.borders:
            parts.append("borders " + " ".join(map(str, self.borders)))
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class TileVariant:
    """A design turned by one rotation, with the lookup arrays the engine uses when placing it.

    Segment indices are those of the design's row: turning a tile moves its segments, it never
    renumbers them.

    Attributes:
        kind: The design.
        rotation: Clockwise quarter turns, 0–3.
        segments: The rotated segments, indexed as in the table row.
        terrain: Terrain of each side, indexed by ``Side``.
        side_segment: Index of the road/city/river segment on each side, or -1 for a field side.
        second: Index of a second city segment on each side (a shared side), or -1 (every side of
            every design but Hills & Sheep's HSB).
        half_segment: Index of the field segment on each half-side, or -1 where a city side is.
        signature: The terrains packed as ``sum((terrain[s] + 1) << 3 * s)``, for fit checks.
        area_segments: Indices of the cloister and garden segments.
        node_kinds, node_open, node_pennants, node_borders, node_ones: Per segment, the initial
            feature data the feature graph copies when the tile is placed (kind; open sides, or 8
            for a cloister or garden; pennants; bordering city indices for fields, else ``None``; 1).
        node_marks: Per segment, :data:`MARK_INN` and :data:`MARK_CATHEDRAL` bits (0 on every
            tile but Inns & Cathedrals' ones).
        node_goods: Per segment, its goods symbols packed as :func:`pack_goods` (0 on every tile but
            Traders & Builders' ones).
        closable: Indices of the segments that can be completed (every kind but the field), in
            row order: the features a placement may complete.
        node_indices, node_nones: ``0 … n-1`` and ``None`` per segment (what the graph copies).
        facing: Per side ``s``, what this tile adds to the pattern of the open position beyond that
            side: ``(terrain[s] + 1) << 3 * ((s + 2) % 4)`` (see :meth:`TileKind.fitting_rotations`).
        edges: Per side ``s``, ``(side_segment[s], half_segment[2s], half_segment[2s + 1], second[s])``.
        links: Per side ``s``, ``(key offset of the neighbour beyond it, the neighbour's facing side,
            *edges[s]*)``: what a placement joins across each side, in side order.
    """

    kind: TileKind
    rotation: int
    segments: tuple[Segment, ...]
    terrain: tuple[Terrain, Terrain, Terrain, Terrain]
    side_segment: tuple[int, int, int, int]
    second: tuple[int, int, int, int]
    half_segment: tuple[int, ...]
    signature: int
    area_segments: tuple[int, ...]
    node_kinds: tuple[SegmentKind, ...]
    node_open: tuple[int, ...]
    node_pennants: tuple[int, ...]
    node_marks: tuple[int, ...]
    node_goods: tuple[int, ...]
    node_borders: tuple[tuple[int, ...] | None, ...]
    node_ones: tuple[int, ...]
    closable: tuple[int, ...]
    node_indices: tuple[int, ...]
    node_nones: tuple[None, ...]
    facing: tuple[int, int, int, int]
    edges: tuple[tuple[int, int, int, int], ...]
    links: tuple[tuple[int, int, int, int, int, int], ...]


@dataclass(frozen=True, slots=True, eq=False)
class TileKind:
    """A land tile design, identified by its rulebook letter (``"A"`` … ``"X"`` in the base game).

    Attributes:
        letter: The rulebook letter or, for expansions, a short id (``"R1"`` …).
        segments: The segments as printed, at rotation 0.
        expansion: ``"base"`` or the expansion the design belongs to.
        marks: The tile's marks, which belong to no segment: ``"hill"``, ``"vineyard"`` (Hills &
            Sheep), in the row's order.
        shared: The sides (at rotation 0) that two city segments reach (a city met across one joins
            both), in side order.
    """

    letter: str
    segments: tuple[Segment, ...]
    expansion: str = "base"
    marks: tuple[str, ...] = ()
    shared: tuple[Side, ...] = ()
    _variants: list[TileVariant] = field(default_factory=list, repr=False)
    _fits: dict[int, tuple[int, ...]] = field(init=False, repr=False)
    _fit_bits: bytes = field(init=False, repr=False)
    _distinct: list[int] = field(default_factory=list, repr=False)
    has_river: bool = field(init=False, repr=False)
    """Whether the design shows a river (The River's placement rules apply to it)."""

    def __post_init__(self) -> None:
        _validate(self.letter, self.segments, self.shared)
        unknown = [mark for mark in self.marks if mark not in TILE_MARKS]
        if unknown:
            raise ValueError(f"tile {self.letter}: no tile mark {unknown[0]!r} ({', '.join(TILE_MARKS)})")
        object.__setattr__(self, "has_river", any(seg.kind == SegmentKind.RIVER for seg in self.segments))
        for r in range(4):
            self._variants.append(_make_variant(self, r))
        seen: list[frozenset[Segment]] = []
        for r, v in enumerate(self._variants):
            shape = frozenset(v.segments)
            if shape not in seen:
                seen.append(shape)
                self._distinct.append(r)
        fits, bits = _fit_tables(self)
        object.__setattr__(self, "_fits", fits)  # a plain dict: a lookup is the C fast path
        object.__setattr__(self, "_fit_bits", bits)  # bytes: read by index, small enough to stay in cache

    def __repr__(self) -> str:
        return f"TileKind({self.letter!r})"

    def variant(self, rotation: int) -> TileVariant:
        """The design turned *rotation* clockwise quarter turns (0–3)."""
        return self._variants[rotation]

    @property
    def distinct_rotations(self) -> tuple[int, ...]:
        """Rotations giving different tiles (one per class of identical turns: C has only 0)."""
        return tuple(self._distinct)

    @property
    def terrain(self) -> tuple[Terrain, ...]:
        """Terrain of each side at rotation 0."""
        return self._variants[0].terrain

    def fitting_rotations(self, pattern: int) -> tuple[int, ...]:
        """Distinct rotations whose sides match *pattern*, an open position's packed neighbour sides.

        *pattern* packs, for each side ``s`` of the open position, ``(terrain + 1) << 3 * s`` of the
        neighbouring side that faces it, or 0 where there is no neighbour (:data:`ALL_PATTERNS`). A
        lookup in a table made with the design: what legal placement enumeration reads.

        Raises:
            KeyError: *pattern* is none an open position can have.
        """
        return self._fits[pattern]

    def fits(self, rotation: int, pattern: int) -> bool:
        """True when the design turned by *rotation* matches *pattern* (see :meth:`fitting_rotations`)."""
        return self._variants[rotation].signature & PATTERN_MASKS[pattern] == pattern


def _pattern_mask(pattern: int) -> int:
    """Bit mask selecting the sides of *pattern* that have a neighbour."""
    mask = 0
    for s in range(4):
        if (pattern >> (3 * s)) & 7:
            mask |= 7 << (3 * s)
    return mask


#: Every pattern an open position can have: per side, 0 (no neighbour) or a terrain + 1.
ALL_PATTERNS: tuple[int, ...] = tuple(
    a | b << 3 | c << 6 | d << 9 for a in range(5) for b in range(5) for c in range(5) for d in range(5)
)
#: The pattern mask of each set of sides (bit ``s`` of the index: side ``s`` has a neighbour).
_SIDE_SET_MASKS = tuple(sum(7 << 3 * s for s in range(4) if sides >> s & 1) for sides in range(16))


#: Pattern → the bit mask of its sides that have a neighbour, for every pattern of
#: :data:`ALL_PATTERNS`: a design turned ``r`` fits an open position of pattern *p* when
#: ``variant.signature & PATTERN_MASKS[p] == p``.
PATTERN_MASKS: dict[int, int] = {pattern: _pattern_mask(pattern) for pattern in ALL_PATTERNS}


def _fit_tables(kind: TileKind) -> tuple[dict[int, tuple[int, ...]], bytes]:
    """Pattern → the distinct rotations of *kind* that fit it (smallest first), for every pattern of
    :data:`ALL_PATTERNS`; and the same as bits (rotation ``r`` is ``1 << r``; 0: none fits) in a
    bytes indexed by the pattern.
    Filled from the other side: the design turned ``r`` fits exactly the 16 patterns ``signature &
    mask``, one per set of sides with a neighbour; every other pattern fits no rotation."""
    found: dict[int, list[int]] = {}
    for r in kind._distinct:
        signature = kind._variants[r].signature
        for mask in _SIDE_SET_MASKS:
            found.setdefault(signature & mask, []).append(r)
    fits: dict[int, tuple[int, ...]] = dict.fromkeys(ALL_PATTERNS, ())
    fits.update({p: tuple(rotations) for p, rotations in found.items()})
    bits = bytearray(max(ALL_PATTERNS) + 1)  # indexed by the pattern: 2.3 KB a design, not a dict's 18
    for p, rotations in found.items():
        bits[p] = sum(1 << r for r in rotations)
    return fits, bytes(bits)


#: The rotations of each 4-bit set of ``TileKind._fit_bits``, smallest first.
#: Bits of ``TileVariant.node_marks``: a segment with an inn, with a cathedral (Inns & Cathedrals).
MARK_INN, MARK_CATHEDRAL = 1, 2
#: The marks a tile may carry (:attr:`TileKind.marks`): a hill, a vineyard (Hills & Sheep); a princess,
#: a dragon, a magic portal, a volcano (The Princess & the Dragon).
TILE_MARKS = ("hill", "vineyard", "princess", "dragon", "portal", "volcano")
#: Bits per kind of goods in a packed count (:func:`pack_goods`): up to 255 symbols of a kind.
_GOODS_BITS = 8


def pack_goods(goods: tuple[str, ...]) -> int:
    """Goods symbols as one int, a count per kind of :data:`GOODS` in 8 bits each (wine lowest), so
    that the goods of two features add up as ints.

    >>> pack_goods(("grain", "grain")), unpack_goods(pack_goods(("wine", "cloth", "wine")))
    (512, (2, 0, 1))
    """
    return sum(1 << _GOODS_BITS * GOODS.index(g) for g in goods)


def unpack_goods(packed: int) -> tuple[int, int, int]:
    """The counts of a :func:`pack_goods` int, in :data:`GOODS` order (wine, grain, cloth)."""
    mask = (1 << _GOODS_BITS) - 1
    return packed & mask, packed >> _GOODS_BITS & mask, packed >> 2 * _GOODS_BITS & mask
#: The kinds of goods of Traders & Builders, as the tile table writes them.
GOODS = ("wine", "grain", "cloth")

ROTATIONS_OF_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(4) if bits >> r & 1) for bits in range(16)
)


def _parse_segment(spec: str) -> Segment:
    words = spec.split()
    kind = SegmentKind[words[0].upper()]
    sides: list[Side] = []
    halves: list[HalfSide] = []
    pennant = inn = cathedral = ends = princess = tunnel = False
    goods: list[str] = []
    borders: list[int] = []
    i = 1
    while i < len(words):
        w = words[i]
        if w == "pennant":
            pennant = True
        elif w == "inn":
            inn = True
        elif w == "cathedral":
            cathedral = True
        elif w == "ends":
            ends = True
        elif w == "princess":
            princess = True
        elif w == "tunnel":
            tunnel = True
        elif w in GOODS:
            goods.append(w)
        elif w == "borders":
            borders = [int(b) for b in words[i + 1 :]]
            break
        elif kind == SegmentKind.FIELD:
            if w in Side.__members__:
                halves += [HalfSide(2 * Side[w]), HalfSide(2 * Side[w] + 1)]
            else:
                halves.append(HalfSide[w])
        else:
            sides.append(Side[w])
        i += 1
    return Segment(kind, tuple(sorted(sides)), tuple(sorted(halves)), pennant, tuple(borders), inn, cathedral,
                   tuple(goods), ends, princess, tunnel)


#: The most segments a design may have.
MAX_SEGMENTS = 32


def _validate(letter: str, segments: tuple[Segment, ...], shared: tuple[Side, ...] = ()) -> None:
    """Checks a design is well formed; raises ``ValueError`` naming the design and the fault. A side
    of *shared* is reached by exactly two city segments."""
    if not 1 <= len(segments) <= MAX_SEGMENTS:
        raise ValueError(f"tile {letter}: a design has 1 to {MAX_SEGMENTS} segments, not {len(segments)}")
    side_kind: dict[Side, SegmentKind] = {}
    half_owner: dict[HalfSide, int] = {}
    for i, seg in enumerate(segments):
        for s in seg.sides:
            if s in side_kind and not (s in shared and seg.kind is SegmentKind.CITY is side_kind[s]):
                raise ValueError(f"tile {letter}: side {s.name} is reached by two segments")
            side_kind[s] = seg.kind
        for h in seg.halves:
            if h in half_owner:
                raise ValueError(f"tile {letter}: half-side {h.name} is in two fields")
            half_owner[h] = i
        for b in seg.borders:
            if not (0 <= b < len(segments)) or segments[b].kind != SegmentKind.CITY:
                raise ValueError(f"tile {letter}: field {i} borders {b}, which is not a city segment")
        if seg.pennant and seg.kind != SegmentKind.CITY:
            raise ValueError(f"tile {letter}: only city segments carry pennants")
        if seg.inn and seg.kind != SegmentKind.ROAD:
            raise ValueError(f"tile {letter}: only road segments have inns")
        if (seg.cathedral or seg.goods) and seg.kind != SegmentKind.CITY:
            raise ValueError(f"tile {letter}: only city segments have cathedrals or goods")
        if seg.ends and (seg.kind != SegmentKind.ROAD or len(seg.sides) != 1):
            raise ValueError(f"tile {letter}: only a road reaching one side ends inside its field")
        if seg.princess and seg.kind != SegmentKind.CITY:
            raise ValueError(f"tile {letter}: only a city segment shows the princess")
        if seg.tunnel and seg.kind != SegmentKind.ROAD:
            raise ValueError(f"tile {letter}: only a road runs through a tunnel")
    for s in shared:
        if sum(s in seg.sides for seg in segments if seg.kind is SegmentKind.CITY) != 2:
            raise ValueError(f"tile {letter}: shared side {s.name} is not reached by two city segments")
    for s in Side:
        for h in (HalfSide(2 * s), HalfSide(2 * s + 1)):
            if side_kind.get(s) == SegmentKind.CITY and h in half_owner:
                raise ValueError(f"tile {letter}: half-side {h.name} is field on a city side")
            if side_kind.get(s) != SegmentKind.CITY and h not in half_owner:
                raise ValueError(f"tile {letter}: half-side {h.name} belongs to no field")
    _check_cuts(letter, segments, side_kind, half_owner)


def _check_cuts(
    letter: str, segments: tuple[Segment, ...], side_kind: dict[Side, SegmentKind], half_owner: dict[HalfSide, int]
) -> None:
    """Checks that every road and river separates the fields beside it, as on every printed
    tile: no field reaches both sides of a *cut*, a line a road or river draws across the tile.

    Going round the tile clockwise, the half-sides are ``NL NR EL ER SL SR WL WR`` (indices 0–7) and
    a side ``s`` lies between its halves ``2s`` and ``2s + 1``. A road or river reaching two sides
    cuts the tile between them. One reaching a single side ends inside the tile:

    * at a **junction**, where three or four single-side roads meet (L, W, X): cut between each pair;
    * at a **city** gate, on a tile with a city and no cloister (S, T; R6, whose road crosses the river
      to the gate): cut from its side to the city, both ways round;
    * otherwise at a **cloister**, **spring** or **lake** standing in its field (A, R1, R2): the field
      may go round that end only when nothing else on the tile divides it, that is when the one
      field holds every field half-side of the tile; else the two halves beside the road differ (R7,
      whose road crosses the river to its cloister, splits the south bank).

    Raises ``ValueError`` naming the design, the road or river and the field that crosses it.
    """
    def crossing(arc_a: list[int], arc_b: list[int]) -> int | None:
        fields_a = {half_owner[HalfSide(h)] for h in arc_a if HalfSide(h) in half_owner}
        return next((half_owner[HalfSide(h)] for h in arc_b if half_owner.get(HalfSide(h)) in fields_a), None)

    def between(a: int, b: int) -> tuple[list[int], list[int]]:  # halves clockwise from side a to side b, and the rest
        first = [(2 * a + 1 + i) % 8 for i in range((2 * b - 2 * a) % 8)]
        return first, [h for h in range(8) if h not in first]

    def fail(i: int, field_index: int, what: str) -> None:
        raise ValueError(f"tile {letter}: field {field_index} crosses {segments[i].kind.label} {i} ({what})")

    single = [i for i, seg in enumerate(segments) if seg.kind is SegmentKind.ROAD and len(seg.sides) == 1]
    has_city = any(seg.kind is SegmentKind.CITY for seg in segments)
    has_cloister = any(seg.kind is SegmentKind.CLOISTER for seg in segments)
    fields = {h for h in half_owner}
    for i, seg in enumerate(segments):
        if seg.kind not in (SegmentKind.ROAD, SegmentKind.RIVER) or seg.tunnel:  # (a tunnel cuts nothing)
            continue
        if len(seg.sides) == 2:
            bad = crossing(*between(seg.sides[0], seg.sides[1]))
            if bad is not None:
                fail(i, bad, "it runs from side to side")
            continue
        (s,) = seg.sides
        if seg.kind is SegmentKind.ROAD and len(single) >= 3:
            for j in single:
                if j != i:
                    bad = crossing(*between(s, segments[j].sides[0]))
                    if bad is not None:
                        fail(i, bad, "it meets other roads at a junction")
        elif seg.kind is SegmentKind.ROAD and has_city and not has_cloister:
            ahead = [(2 * s + 1 + k) % 8 for k in range(8)]
            behind = [(2 * s - k) % 8 for k in range(8)]
            arcs = [arc[: next(n for n, h in enumerate(arc) if side_kind.get(Side(h // 2)) is SegmentKind.CITY)]
                    for arc in (ahead, behind)]
            bad = crossing(arcs[0], arcs[1])
            if bad is not None:
                fail(i, bad, "it runs to the city")
        elif not seg.ends:  # (a road written to end inside its field goes round it as printed)
            left, right = half_owner.get(HalfSide(2 * s)), half_owner.get(HalfSide(2 * s + 1))
            if left is not None and left == right and {h for h, f in half_owner.items() if f == left} != fields:
                fail(i, left, "it ends in the tile and something else divides the field")


def _make_variant(kind: TileKind, rotation: int) -> TileVariant:
    segments = tuple(seg.rotated(rotation) for seg in kind.segments)
    terrain = [Terrain.FIELD] * 4
    side_segment = [-1] * 4
    second = [-1] * 4
    half_segment = [-1] * 8
    for i, seg in enumerate(segments):
        for s in seg.sides:
            terrain[s] = _TERRAIN_OF[seg.kind]
            if side_segment[s] >= 0:  # a shared side: its second city segment
                second[s] = i
            else:
                side_segment[s] = i
        for h in seg.halves:
            half_segment[h] = i
    signature = sum((int(t) + 1) << (3 * s) for s, t in enumerate(terrain))
    edges = tuple((side_segment[s], half_segment[2 * s], half_segment[2 * s + 1], second[s]) for s in range(4))
    return TileVariant(
        kind,
        rotation,
        segments,
        (terrain[0], terrain[1], terrain[2], terrain[3]),
        (side_segment[0], side_segment[1], side_segment[2], side_segment[3]),
        (second[0], second[1], second[2], second[3]),
        tuple(half_segment),
        signature,
        area_segments=tuple(i for i, seg in enumerate(segments) if seg.kind in AREA_KINDS),
        node_kinds=tuple(seg.kind for seg in segments),
        node_open=tuple(8 if seg.kind in AREA_KINDS else len(seg.sides) for seg in segments),
        node_pennants=tuple(int(seg.pennant) for seg in segments),
        node_marks=tuple(MARK_INN * seg.inn | MARK_CATHEDRAL * seg.cathedral for seg in segments),
        node_goods=tuple(pack_goods(seg.goods) for seg in segments),
        node_borders=tuple(seg.borders if seg.kind == SegmentKind.FIELD else None for seg in segments),
        node_ones=(1,) * len(segments),
        closable=tuple(i for i, seg in enumerate(segments) if seg.kind != SegmentKind.FIELD),
        node_indices=tuple(range(len(segments))),
        node_nones=(None,) * len(segments),
        facing=tuple((int(t) + 1) << (3 * ((s + 2) % 4)) for s, t in enumerate(terrain)),  # type: ignore[arg-type]
        edges=edges,
        links=tuple((SIDE_OFFSETS[s], (s + 2) % 4, *edges[s]) for s in range(4)),
    )


def _design(letter: str, *specs: str, expansion: str = "base", marks: tuple[str, ...] = (),
            shared: str = "") -> TileKind:
    return TileKind(letter, tuple(_parse_segment(s) for s in specs), expansion, marks,
                    tuple(Side[w] for w in shared.split()))


# fmt: off
#: The base game's 24 designs, in letter order, each with its count in the 72-tile set.
#: Rotation 0 is as written here; the start tile D has its city to the north and its road east–west.
_BASE_ROWS: tuple[tuple[TileKind, int], ...] = (
    (_design("A", "cloister", "road S", "field N E S W"),                                       2),
    (_design("B", "cloister", "field N E S W"),                                                 4),
    (_design("C", "city N E S W pennant"),                                                      1),
    (_design("D", "city N", "road E W", "field EL WR borders 0", "field ER S WL"),               4),
    (_design("E", "city N", "field E S W borders 0"),                                           5),
    (_design("F", "city E W pennant", "field N borders 0", "field S borders 0"),                2),
    (_design("G", "city N S", "field E borders 0", "field W borders 0"),                        1),
    (_design("H", "city E", "city W", "field N S borders 0 1"),                                 3),
    (_design("I", "city E", "city S", "field N W borders 0 1"),                                 2),
    (_design("J", "city N", "road E S", "field EL SR W borders 0", "field ER SL"),               3),
    (_design("K", "city N", "road S W", "field E SL WR borders 0", "field SR WL"),               3),
    (_design("L", "city N", "road E", "road S", "road W",
             "field EL WR borders 0", "field ER SL", "field SR WL"),                             3),
    (_design("M", "city N W pennant", "field E S borders 0"),                                   2),
    (_design("N", "city N W", "field E S borders 0"),                                           3),
    (_design("O", "city N W pennant", "road E S", "field EL SR borders 0", "field ER SL"),       2),
    (_design("P", "city N W", "road E S", "field EL SR borders 0", "field ER SL"),               3),
    (_design("Q", "city N E W pennant", "field S borders 0"),                                   1),
    (_design("R", "city N E W", "field S borders 0"),                                           3),
    (_design("S", "city N E W pennant", "road S", "field SL borders 0", "field SR borders 0"),   2),
    (_design("T", "city N E W", "road S", "field SL borders 0", "field SR borders 0"),          1),
    (_design("U", "road N S", "field NR E SL", "field SR W NL"),                                8),
    (_design("V", "road S W", "field N E SL WR", "field SR WL"),                                9),
    (_design("W", "road E", "road S", "road W", "field N EL WR", "field ER SL", "field SR WL"),  4),
    (_design("X", "road N", "road E", "road S", "road W",
             "field NR EL", "field ER SL", "field SR WL", "field WR NL"),                       1),
)
# fmt: on

# fmt: off
#: The River's 12 tiles (HA "THE RIVER", TILE DISTRIBUTION; Z14 "The River"), ids R1–R10. The spring
#: (R1) is placed first and the lake (R2) last; the farm goes round both (HA FN 30). A river side is
#: flanked by field half-sides, so the river separates the farms on its banks.
_RIVER_ROWS: tuple[tuple[TileKind, int], ...] = (
    (_design("R1", "river S", "field N E S W", expansion="river"),                              1),  # spring
    (_design("R2", "river S", "field N E S W", expansion="river"),                              1),  # lake
    (_design("R3", "river N S", "field NR E SL", "field SR W NL", expansion="river"),           2),  # straight
    (_design("R4", "river S W", "field N E SL WR", "field SR WL", expansion="river"),           2),  # curve
    (_design("R5", "city N", "city S", "river E W",
             "field EL WR borders 0", "field ER WL borders 1", expansion="river"),              1),  # between two cities
    (_design("R6", "city N", "river E W", "road S", "field EL borders 0", "field WR borders 0",
             "field ER SL", "field SR WL", expansion="river"),                                  1),  # road over the river to a city
    (_design("R7", "river E W", "road S", "cloister", "field N EL WR", "field ER SL", "field SR WL",
             expansion="river"),                                                                1),  # road over the river to a cloister
    (_design("R8", "road N S", "river E W",
             "field NR EL", "field ER SL", "field SR WL", "field WR NL", expansion="river"),     1),  # bridge
    (_design("R9", "city N E", "river S W", "field SL WR borders 0", "field SR WL",
             expansion="river"),                                                                1),  # curve by a city
    (_design("R10", "road N E", "river S W", "field NR EL", "field NL ER SL WR", "field SR WL",
             expansion="river"),                                                                1),  # curve and road curve
)
# fmt: on
# fmt: off
#: Inns & Cathedrals (Hans im Glück second edition, 2015; the third edition prints the same designs):
#: 17 designs, 18 tiles (the cathedral twice), ids ``IC`` + the tile's letter on wikicarpedia's C2
#: list. Six roads with an inn, two cathedrals. Checked design by design against JCloisterZone's tile
#: definitions (each row's comment) and the printed tiles' pictures (docs/rules.md, "The expansions'
#: tiles").
_INNS_ROWS: tuple[tuple[TileKind, int], ...] = (
    # JCloisterZone IC/Rr.i
(_design("ICA", "road S W inn", "field NL NR EL ER SL WR", "field SR WL", expansion="inns"), 1),
    # JCloisterZone IC/RFr.i
    (_design("ICB", "road E W inn", "field NL NR EL WR", "field ER SL SR WL", expansion="inns"), 1),
    # JCloisterZone IC/RRR.i
    (_design("ICC", "road E inn", "road S", "road W", "field NL NR EL WR", "field ER SL", "field SR WL", expansion="inns"), 1),
    # JCloisterZone IC/LRFR
    (_design("ICD", "cloister", "road E", "road W", "field NL NR EL WR", "field ER SL SR WL", expansion="inns"), 1),
    # JCloisterZone IC/RrRr
    (_design("ICE", "road N W", "road E S", "field NL WR", "field ER SL", "field NR EL SR WL", expansion="inns"), 1),
    # JCloisterZone IC/CcR
    (_design("ICF", "city N W", "road E", "field EL borders 0", "field ER SL SR borders 0", expansion="inns"), 1),
    # JCloisterZone IC/C!
    (_design("ICG", "city N", "field EL ER borders 0", "field SL SR WL WR borders 0", expansion="inns"), 1),
    # JCloisterZone IC/CCCC
    (_design("ICH", "city N", "city E", "city S", "city W", "field borders 0 1 2 3", expansion="inns"), 1),
    # JCloisterZone IC/CRCR
    (_design("ICI", "city N", "city S", "road E", "road W", "field EL borders 0", "field WR borders 0", "field ER borders 1", "field WL borders 1", expansion="inns"), 1),
    # JCloisterZone IC/CFR
    (_design("ICJ", "city N", "road S", "field EL ER SL borders 0", "field SR WL WR borders 0", expansion="inns"), 1),
    # JCloisterZone IC/Cccc.c
    (_design("ICK", "city N E S W cathedral", expansion="inns"), 2),
    # JCloisterZone IC/CcRr+.i
    (_design("ICL", "city N W pennant", "road E S inn", "field EL SR borders 0", "field ER SL", expansion="inns"), 1),
    # JCloisterZone IC/RrC.i
    (_design("ICM", "city N", "road S W inn", "field EL ER SL WR borders 0", "field SR WL", expansion="inns"), 1),
    # JCloisterZone IC/RCc.i
    (_design("ICN", "city N W", "road S inn", "field EL ER SL borders 0", "field SR borders 0", expansion="inns"), 1),
    # JCloisterZone IC/CCC
    (_design("ICO", "city N", "city E", "city W", "field SL SR borders 0 1 2", expansion="inns"), 1),
    # JCloisterZone IC/CCc+
    (_design("ICP", "city N W pennant", "city S", "field EL ER borders 0 1", expansion="inns"), 1),
    # JCloisterZone IC/CRcR+
    (_design("ICQ", "city E W pennant", "road N", "road S", "field NL borders 0", "field NR borders 0", "field SL borders 0", "field SR borders 0", expansion="inns"), 1),
)
#: Traders & Builders (Hans im Glück second edition, 2015; the third the same): 24 designs, one tile
#: each, ids ``TB`` + the tile's letter on wikicarpedia's C2 list. 20 show a goods symbol on their
#: city: 9 wine, 6 grain, 5 cloth (the tokens in the box). Checked like the Inns & Cathedrals rows.
_TRADERS_ROWS: tuple[tuple[TileKind, int], ...] = (
    # JCloisterZone TB/CR
(_design("TBA", "city N", "road E", "field EL borders 0", "field ER SL SR WL WR borders 0", expansion="traders"), 1),
    # JCloisterZone TB/RRrr
    (_design("TBB", "road N S", "road E W", "field NR EL", "field ER SL", "field SR WL", "field NL WR", expansion="traders"), 1),
    # JCloisterZone TB/RRC
    (_design("TBC", "city N", "road S", "road W", "field WR borders 0", "field SR WL", "field EL ER SL borders 0", expansion="traders"), 1),
    # JCloisterZone TB/CcRC.g
    (_design("TBD", "city N W grain", "city S", "road E", "field EL borders 0", "field ER borders 0 1", expansion="traders"), 1),
    # JCloisterZone TB/CRc.g
    (_design("TBE", "city E W grain", "road S", "field NL NR borders 0", "field SL borders 0", "field SR borders 0", expansion="traders"), 1),
    # JCloisterZone TB/RCc.g
    (_design("TBF", "city N W grain", "road S", "field EL ER SL borders 0", "field SR borders 0", expansion="traders"), 1),
    # JCloisterZone TB/Cc.g
    (_design("TBG", "city N W grain", "field EL ER SL SR borders 0", expansion="traders"), 1),
    # JCloisterZone TB/Ccc.g
    (_design("TBH", "city N E W grain", "field SL SR borders 0", expansion="traders"), 1),
    # JCloisterZone TB/RCc!.g
    (_design("TBI", "city N W grain", "road S", "field EL ER borders 0", "field SL borders 0", "field SR borders 0", expansion="traders"), 1),
    # JCloisterZone TB/LRRR
    (_design("TBJ", "cloister", "road E", "road S", "road W", "field NL NR EL WR", "field ER SL", "field SR WL", expansion="traders"), 1),
    # JCloisterZone TB/CcR.c
    (_design("TBK", "city N W cloth", "road E", "field EL borders 0", "field ER SL SR borders 0", expansion="traders"), 1),
    # JCloisterZone TB/CcRC.c
    (_design("TBL", "city N W cloth", "city S", "road E", "field EL borders 0", "field ER borders 0 1", expansion="traders"), 1),
    # JCloisterZone TB/CcCC.c
    (_design("TBM", "city N W cloth", "city E", "city S", "field borders 0 1 2", expansion="traders"), 1),
    # JCloisterZone TB/CCc.c
    (_design("TBN", "city E W cloth", "city S", "field NL NR borders 0", "field borders 0 1", expansion="traders"), 1),
    # JCloisterZone TB/CcRR!.c
    (_design("TBO", "city N W cloth", "road E", "road S", "field EL borders 0", "field ER borders 0", "field SL borders 0", "field SR borders 0", expansion="traders"), 1),
    # JCloisterZone TB/CCc.w
    (_design("TBP", "city E W wine", "city S", "field NL NR borders 0", "field borders 0 1", expansion="traders"), 1),
    # JCloisterZone TB/CFc.w
    (_design("TBQ", "city E W wine", "field NL NR borders 0", "field SL SR borders 0", expansion="traders"), 1),
    # JCloisterZone TB/CRcR.w
    (_design("TBR", "city E W wine", "road N", "road S", "field NL borders 0", "field NR borders 0", "field SL borders 0", "field SR borders 0", expansion="traders"), 1),
    # JCloisterZone TB/CRc.w
    (_design("TBS", "city E W wine", "road S", "field NL NR borders 0", "field SL borders 0", "field SR borders 0", expansion="traders"), 1),
    # JCloisterZone TB/Cc.w
    (_design("TBT", "city N W wine", "field EL ER SL SR borders 0", expansion="traders"), 1),
    # JCloisterZone TB/CcRR.w
    (_design("TBU", "city N W wine", "road E", "road S", "field EL borders 0", "field ER SL borders 0", "field SR borders 0", expansion="traders"), 1),
    # JCloisterZone TB/CccR.w
    (_design("TBV", "city N E W wine", "road S", "field SL borders 0", "field SR borders 0", expansion="traders"), 1),
    # JCloisterZone TB/CcR!.w
    (_design("TBW", "city N W wine", "road E", "field EL borders 0", "field ER borders 0", "field SL SR borders 0", expansion="traders"), 1),
    # JCloisterZone TB/CcCc.w
    (_design("TBX", "city N W wine", "city E S", "field borders 0 1", expansion="traders"), 1),
)
#: Hills & Sheep (Hans im Glück, 2014; the second edition, 2018, adds a garden to HSN): 16 designs,
#: 18 tiles, 8 with a hill and 8 with a vineyard (tile marks). The ids are ``HS`` + a letter in the
#: order of JCloisterZone's ids (the C2 letters were not found: ``docs/rules-next.md`` §2.4). Checked
#: design by design against JCloisterZone's tile definitions (each row's comment). Roads ending at a
#: hill end there as at a crossing.
_HILLS_ROWS: tuple[tuple[TileKind, int], ...] = (
    # JCloisterZone HS/C!.v
    (_design("HSA", "city N", "field SR WL WR borders 0", "field EL ER SL borders 0", expansion="hills", marks=("vineyard",)), 2),
    # JCloisterZone HS/CC!.v (multi-edge N: the E city reaches the N side too)
    (_design("HSB", "city N W", "city E N", "field SL SR borders 0 1", expansion="hills", marks=("vineyard",), shared="N"), 2),
    # JCloisterZone HS/Cc.h.1
    (_design("HSC", "city N W", "field EL ER SL SR borders 0", expansion="hills", marks=("hill",)), 1),
    # JCloisterZone HS/CC.h.2
    (_design("HSD", "city N", "city W", "field EL ER SL SR borders 0 1", expansion="hills", marks=("hill",)), 1),
    # JCloisterZone HS/Cc.v
    (_design("HSE", "city N W", "field EL ER SL SR borders 0", expansion="hills", marks=("vineyard",)), 1),
    # JCloisterZone HS/CFC.h
    (_design("HSF", "city N", "city S", "field EL ER WL WR borders 0 1", expansion="hills", marks=("hill",)), 1),
    # JCloisterZone HS/CFC.v
    (_design("HSG", "city W", "city E", "field NL NR borders 0 1", "field SL SR borders 0 1", expansion="hills", marks=("vineyard",)), 1),
    # JCloisterZone HS/CFR.h
    (_design("HSH", "city N", "road S", "field SR WL WR borders 0", "field EL ER SL borders 0", expansion="hills", marks=("hill",)), 1),
    # JCloisterZone HS/CRr.h
    (_design("HSI", "city N", "road E S", "field EL SR WL WR borders 0", "field ER SL", expansion="hills", marks=("hill",)), 1),
    # JCloisterZone HS/LCRr
    (_design("HSJ", "cloister", "city N", "road E S", "field EL SR WL WR borders 1", "field ER SL", expansion="hills"), 1),
    # JCloisterZone HS/LRrR
    (_design("HSK", "cloister", "road S ends", "road N E", "field NL WR WL SR SL ER", "field NR EL", expansion="hills"), 1),
    # JCloisterZone HS/RCC.v
    (_design("HSL", "city N", "city W", "road S", "field SR borders 0 1", "field EL ER SL borders 0", expansion="hills", marks=("vineyard",)), 1),
    # JCloisterZone HS/RFR.h
    (_design("HSM", "road N", "road S", "field NR EL ER SL", "field SR WL WR NL", expansion="hills", marks=("hill",)), 1),
    # JCloisterZone HS/RR.h (the second edition's HS/RR.hG: with The Abbot, HSNG)
    (_design("HSN", "road W", "road S", "field WR NL NR EL ER SL", "field SR WL", expansion="hills", marks=("hill",)), 1),
    # JCloisterZone HS/RrC.h
    (_design("HSO", "city N", "road S W", "field EL ER SL WR borders 0", "field SR WL", expansion="hills", marks=("hill",)), 1),
    # JCloisterZone HS/RRr.v
    (_design("HSP", "road E W", "road S ends", "field NL NR EL WR", "field ER SL SR WL", expansion="hills", marks=("vineyard",)), 1),
)
#: The Princess & the Dragon (Hans im Glück second edition, 2016): 29 designs, 30 tiles (PDG twice),
#: ids ``PD`` + the tile's letter on wikicarpedia's C2 list (A–Z, then 1–3): 6 with a princess in a
#: city (A–F), 12 with a dragon (G–Q), 6 with a magic portal (R–W), 6 with a volcano (X–Z, 1–3), the
#: symbols tile marks. Checked design by design against JCloisterZone's tile definitions (each row's
#: comment; ``docs/rules-next.md`` §1.4). PDQ's road runs under its city through a tunnel; PDF's
#: second field lies between its two cities, reaching no side; PDS keeps JCloisterZone's pennant.
_DRAGON_ROWS: tuple[tuple[TileKind, int], ...] = (
    # JCloisterZone DG/CcRr.p
    (_design("PDA", "city N W princess", "road E S", "field EL SR borders 0", "field ER SL", expansion="dragon", marks=("princess",)), 1),
    # JCloisterZone DG/Cc.pG (the first edition's DG/Cc.p: no garden; with The Abbot, PDBG)
    (_design("PDB", "city N W princess", "field EL ER SL SR borders 0", expansion="dragon", marks=("princess",)), 1),
    # JCloisterZone DG/Ccc.p
    (_design("PDC", "city N E W princess", "field SL SR borders 0", expansion="dragon", marks=("princess",)), 1),
    # JCloisterZone DG/CRRR.p
    (_design("PDD", "city N princess", "road E", "road S", "road W", "field EL WR borders 0", "field ER SL", "field SR WL", expansion="dragon", marks=("princess",)), 1),
    # JCloisterZone DG/Cc!.p
    (_design("PDE", "city N W princess", "field EL ER borders 0", "field SL SR borders 0", expansion="dragon", marks=("princess",)), 1),
    # JCloisterZone DG/CCc+.p
    (_design("PDF", "city N princess", "city E S pennant", "field WL WR borders 0", "field borders 0 1", expansion="dragon", marks=("princess",)), 1),
    # JCloisterZone DG/Rr.d
    (_design("PDG", "road S W", "field NL NR EL ER SL WR", "field SR WL", expansion="dragon", marks=("dragon",)), 2),
    # JCloisterZone DG/RFr.d
    (_design("PDH", "road E W", "field NL NR EL WR", "field ER SL SR WL", expansion="dragon", marks=("dragon",)), 1),
    # JCloisterZone DG/RRR.d
    (_design("PDI", "road E", "road S", "road W", "field NL NR EL WR", "field ER SL", "field SR WL", expansion="dragon", marks=("dragon",)), 1),
    # JCloisterZone DG/C.dG (the first edition's DG/C.d: no garden; with The Abbot, PDJG)
    (_design("PDJ", "city N", "field E S W borders 0", expansion="dragon", marks=("dragon",)), 1),
    # JCloisterZone DG/Cc.d
    (_design("PDK", "city N W", "field EL ER SL SR borders 0", expansion="dragon", marks=("dragon",)), 1),
    # JCloisterZone DG/RrC.d
    (_design("PDL", "city N", "road S W", "field EL ER SL WR borders 0", "field SR WL", expansion="dragon", marks=("dragon",)), 1),
    # JCloisterZone DG/CRr.d
    (_design("PDM", "city N", "road E S", "field EL SR WL WR borders 0", "field ER SL", expansion="dragon", marks=("dragon",)), 1),
    # JCloisterZone DG/CFc+.d
    (_design("PDN", "city E W pennant", "field NL NR borders 0", "field SL SR borders 0", expansion="dragon", marks=("dragon",)), 1),
    # JCloisterZone DG/LCcc.d: a monastery inside the city (the cloister completes with its 8 neighbours)
    (_design("PDO", "city N E W", "cloister", "field SL SR borders 0", expansion="dragon", marks=("dragon",)), 1),
    # JCloisterZone DG/LRRR.d
    (_design("PDP", "cloister", "road E", "road S", "road W", "field NL NR EL WR", "field ER SL", "field SR WL", expansion="dragon", marks=("dragon",)), 1),
    # JCloisterZone DG/CRcr.d: the road runs under the city through a tunnel, one road; the fields north and south stay apart
    (_design("PDQ", "city E W", "road N S tunnel", "field NL NR borders 0", "field SL SR borders 0", expansion="dragon", marks=("dragon",)), 1),
    # JCloisterZone DG/RRR.g
    (_design("PDR", "road E", "road S", "road W", "field NL NR EL WR", "field ER SL", "field SR WL", expansion="dragon", marks=("portal",)), 1),
    # JCloisterZone DG/Ccc+.g
    (_design("PDS", "city N E W pennant", "field SL SR borders 0", expansion="dragon", marks=("portal",)), 1),
    # JCloisterZone DG/RrC.g
    (_design("PDT", "city N", "road S W", "field EL ER SL WR borders 0", "field SR WL", expansion="dragon", marks=("portal",)), 1),
    # JCloisterZone DG/CRr.g
    (_design("PDU", "city N", "road E S", "field EL SR WL WR borders 0", "field ER SL", expansion="dragon", marks=("portal",)), 1),
    # JCloisterZone DG/CcRr.g
    (_design("PDV", "city N W", "road E S", "field EL SR borders 0", "field ER SL", expansion="dragon", marks=("portal",)), 1),
    # JCloisterZone DG/RrRr.g
    (_design("PDW", "road N W", "road E S", "field NL WR", "field ER SL", "field NR EL SR WL", expansion="dragon", marks=("portal",)), 1),
    # JCloisterZone DG/Rr.v
    (_design("PDX", "road S W", "field NL NR EL ER SL WR", "field SR WL", expansion="dragon", marks=("volcano",)), 1),
    # JCloisterZone DG/CC.v
    (_design("PDY", "city N", "city E", "field SL SR WL WR borders 0 1", expansion="dragon", marks=("volcano",)), 1),
    # JCloisterZone DG/C.v
    (_design("PDZ", "city N", "field E S W borders 0", expansion="dragon", marks=("volcano",)), 1),
    # JCloisterZone DG/R.v
    (_design("PD1", "road S", "field N E S W", expansion="dragon", marks=("volcano",)), 1),
    # JCloisterZone DG/F.v
    (_design("PD2", "field N E S W", expansion="dragon", marks=("volcano",)), 1),
    # JCloisterZone DG/RFr.v
    (_design("PD3", "road E W", "field NL NR EL WR", "field ER SL SR WL", expansion="dragon", marks=("volcano",)), 1),
)
# fmt: on
#: The River's spring (placed at (0, 0) instead of the start tile) and lake (drawn last of the river).
RIVER_SPRING, RIVER_LAKE = "R1", "R2"

#: Designs of which The Abbot's edition prints one copy with a garden (Z14 "The Abbot"):
#: the garden variant is the same design plus a ``garden`` segment (last in the row), id ``<id>G``.
GARDEN_DESIGNS = ("E", "H", "I", "M", "N", "R", "U", "V")
#: The river design with a garden on one of its two copies.
GARDEN_RIVER_DESIGN = "R4"


def _with_garden(kind: TileKind, expansion: str) -> TileKind:
    return TileKind(f"{kind.letter}G", (*kind.segments, Segment(SegmentKind.GARDEN)), expansion, kind.marks,
                    kind.shared)


#: The base designs A–X, in letter order.
BASE_DESIGNS: tuple[TileKind, ...] = tuple(kind for kind, _ in _BASE_ROWS)
#: The River's designs R1–R10.
RIVER_DESIGNS: tuple[TileKind, ...] = tuple(kind for kind, _ in _RIVER_ROWS)
_BY_ID = {k.letter: k for k in (*BASE_DESIGNS, *RIVER_DESIGNS)}
#: The garden variants (The Abbot): EG, HG, IG, MG, NG, RG, UG, VG and R4G.
GARDEN_VARIANTS: tuple[TileKind, ...] = (
    *(_with_garden(_BY_ID[x], "abbot") for x in GARDEN_DESIGNS),
    _with_garden(_BY_ID[GARDEN_RIVER_DESIGN], "river+abbot"),
)
#: Letter of the base game's start tile (placed at (0, 0), rotation 0, before the first turn).
BASE_START = "D"

#: Inns & Cathedrals' designs ICA–ICQ (ICK is the cathedral, two tiles).
INNS_DESIGNS: tuple[TileKind, ...] = tuple(kind for kind, _ in _INNS_ROWS)
#: Inns & Cathedrals' designs printed with a garden (the second edition's tiles; JCloisterZone's
#: ``IC/RFr.iG`` and ``IC/CCCCG``): with The Abbot their one tile each is the garden variant, id
#: ``<id>G``; without it the garden is a field like the rest (as the base game's gardens).
INNS_GARDEN_DESIGNS = ("ICB", "ICH")
#: The garden variants of :data:`INNS_GARDEN_DESIGNS`: ICBG and ICHG.
INNS_GARDEN_VARIANTS: tuple[TileKind, ...] = tuple(
    _with_garden(kind, "inns+abbot") for kind in INNS_DESIGNS if kind.letter in INNS_GARDEN_DESIGNS
)
#: Traders & Builders' designs TBA–TBX.
TRADERS_DESIGNS: tuple[TileKind, ...] = tuple(kind for kind, _ in _TRADERS_ROWS)
#: Hills & Sheep's designs HSA–HSP.
HILLS_DESIGNS: tuple[TileKind, ...] = tuple(kind for kind, _ in _HILLS_ROWS)
#: Hills & Sheep's design printed with a garden (the second edition's HS/RR.hG): with The Abbot its
#: one tile is the garden variant HSNG.
HILLS_GARDEN_DESIGNS = ("HSN",)
#: The garden variant of :data:`HILLS_GARDEN_DESIGNS`: HSNG.
HILLS_GARDEN_VARIANTS: tuple[TileKind, ...] = tuple(
    _with_garden(kind, "hills+abbot") for kind in HILLS_DESIGNS if kind.letter in HILLS_GARDEN_DESIGNS
)
#: The Princess & the Dragon's designs PDA–PD3.
DRAGON_DESIGNS: tuple[TileKind, ...] = tuple(kind for kind, _ in _DRAGON_ROWS)
#: The Princess & the Dragon's designs printed with a garden (the second edition's DG/Cc.pG and
#: DG/C.dG): with The Abbot, PDBG and PDJG.
DRAGON_GARDEN_DESIGNS = ("PDB", "PDJ")
#: The garden variants of :data:`DRAGON_GARDEN_DESIGNS`.
DRAGON_GARDEN_VARIANTS: tuple[TileKind, ...] = tuple(
    _with_garden(kind, "dragon+abbot") for kind in DRAGON_DESIGNS if kind.letter in DRAGON_GARDEN_DESIGNS
)

_KINDS: dict[str, TileKind] = {
    k.letter: k
    for k in (*BASE_DESIGNS, *RIVER_DESIGNS, *GARDEN_VARIANTS, *INNS_DESIGNS, *INNS_GARDEN_VARIANTS, *TRADERS_DESIGNS,
              *HILLS_DESIGNS, *HILLS_GARDEN_VARIANTS, *DRAGON_DESIGNS, *DRAGON_GARDEN_VARIANTS)
}


def expansion_tile_counts(expansion: str) -> dict[str, int]:
    """Id → number of tiles of an expansion's set: ``"inns"`` (Inns & Cathedrals, 18), ``"traders"``
    (Traders & Builders, 24) or ``"hills"`` (Hills & Sheep, 18), in id order.

    Raises:
        ValueError: Another name.
    """
    rows = {"inns": _INNS_ROWS, "traders": _TRADERS_ROWS, "hills": _HILLS_ROWS, "dragon": _DRAGON_ROWS}.get(expansion)
    if rows is None:
        raise ValueError(f"no expansion {expansion!r} with tiles of its own here (inns, traders, hills, dragon)")
    return {kind.letter: count for kind, count in rows}


def register(kind: TileKind) -> None:
    """Adds an expansion design to the letter registry; raises ``ValueError`` on a clash."""
    old = _KINDS.get(kind.letter)
    if old is not None and old is not kind:
        raise ValueError(f"tile id {kind.letter!r} is already taken")
    _KINDS[kind.letter] = kind


def tile_kind(letter: str) -> TileKind:
    """The design with this letter. Raises ``KeyError`` naming the letter when there is none."""
    try:
        return _KINDS[letter]
    except KeyError:
        raise KeyError(f"no tile design {letter!r}") from None


def base_tile_counts() -> dict[str, int]:
    """Letter → number of tiles in the base set (72 in all, start tile included), in letter order."""
    return {kind.letter: count for kind, count in _BASE_ROWS}


def group_rank(letter: str) -> int:
    """The part of a pile the tile *letter* belongs to, in the order :func:`tileset`'s groups come:
    0 a river tile (not the lake), 1 the lake, 2 any other tile. For cutting a given order into the
    groups a seeded pile deals.

    Raises:
        KeyError: No tile has that id."""
    if letter == RIVER_LAKE:
        return 1
    return 0 if tile_kind(letter).has_river else 2


def tileset(
    *, river: bool = False, abbot: bool = False, river_start: str = "after", inns: bool = False,
    traders: bool = False, hills: bool = False, dragon: bool = False,
) -> tuple[str, list[dict[str, int]]]:
    """The tiles of a game: the tile placed at (0, 0), and the groups drawn one after another (each
    shuffled on its own, ``protocol/deck.md`` §4), as id → count.

    Base game: start tile D; one group, the other 71 tiles. With The River (HA "THE RIVER"): the
    spring R1 at (0, 0); the 10 river tiles; the lake R2; then the land tiles. The base start tile
    D, by *river_start* (``docs/rules.md``): ``"after"``, a group of its own between the lake and
    the land tiles (HA: "placed as soon as the river has been completed"); ``"river"``, shuffled
    into the river tiles (HA: "mixed into the stack of river tiles"); ``"omit"``, left out (Z14:
    "return the start tile to the box"). With The Abbot: one copy each of E, H, I, M, N, R, U, V
    (and one R4) is its garden variant. With *inns* (Inns & Cathedrals) its 18 tiles join the land
    tiles; with The Abbot too, ICB and ICH are their garden variants ICBG and ICHG. With *traders*
    (Traders & Builders) its 24 tiles join the land tiles. With *hills* (Hills & Sheep) its 18 tiles
    join the land tiles; with The Abbot too, HSN is its garden variant HSNG. With *dragon* (The
    Princess & the Dragon) its 30 tiles join the land tiles; with The Abbot too, PDB and PDJ are their
    garden variants PDBG and PDJG.

    Raises:
        ValueError: *river_start* is none of ``"after"``, ``"river"``, ``"omit"``.
    """
    if river_start not in ("after", "river", "omit"):
        raise ValueError(f"river_start must be 'after', 'river' or 'omit', got {river_start!r}")
    land = base_tile_counts()
    if abbot:
        for letter in GARDEN_DESIGNS:
            land[letter] -= 1
            land[f"{letter}G"] = 1
    land[BASE_START] -= 1
    if inns:  # Inns & Cathedrals: its 18 tiles shuffled into the land tiles
        land.update(expansion_tile_counts("inns"))
        if abbot:  # two of them printed with a garden
            for letter in INNS_GARDEN_DESIGNS:
                land[f"{letter}G"] = land.pop(letter)
    if traders:  # Traders & Builders: its 24 tiles shuffled into the land tiles
        land.update(expansion_tile_counts("traders"))
    if hills:  # Hills & Sheep: its 18 tiles shuffled into the land tiles
        land.update(expansion_tile_counts("hills"))
        if abbot:  # one of them printed with a garden (the second edition)
            for letter in HILLS_GARDEN_DESIGNS:
                land[f"{letter}G"] = land.pop(letter)
    if dragon:  # The Princess & the Dragon: its 30 tiles shuffled into the land tiles
        land.update(expansion_tile_counts("dragon"))
        if abbot:  # two of them printed with a garden (the second edition)
            for letter in DRAGON_GARDEN_DESIGNS:
                land[f"{letter}G"] = land.pop(letter)
    if not river:
        return BASE_START, [land]
    flow = {kind.letter: count for kind, count in _RIVER_ROWS if kind.letter not in (RIVER_SPRING, RIVER_LAKE)}
    if abbot:
        flow[GARDEN_RIVER_DESIGN] -= 1
        flow[f"{GARDEN_RIVER_DESIGN}G"] = 1
    if river_start == "river":
        flow[BASE_START] = 1
    groups = [flow, {RIVER_LAKE: 1}]
    if river_start == "after":
        groups.append({BASE_START: 1})
    return RIVER_SPRING, [*groups, land]
