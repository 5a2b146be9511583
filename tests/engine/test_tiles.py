"""The tile data: 24 base designs, 72 tiles, sides, segments, fields and rotations (HiG tile list)."""

from __future__ import annotations

import pytest

from carcnet.engine import BASE_DESIGNS, HalfSide, SegmentKind, Side, Terrain, base_tile_counts, tile_kind

# The counts of the issue and of the HiG list (with D = 4: the extracted list reads "D 2x", see docs/rules.md).
EXPECTED_COUNTS = dict(
    A=2, B=4, C=1, D=4, E=5, F=2, G=1, H=3, I=2, J=3, K=3, L=3,
    M=2, N=3, O=2, P=3, Q=1, R=3, S=2, T=1, U=8, V=9, W=4, X=1,
)  # fmt: skip

# Side codes (N, E, S, W from some rotation; c city, r road, f field) of the HiG "TILE DISTRIBUTION"
# table in hig-annotated-rules-v4-with-faq-and-river.txt, assigned to letters by the tile pictures.
HIG_SIDE_CODES = dict(
    A="fffr", B="ffff", C="cccc", D="crfr", E="cfff", F="cfcf", G="cfcf", H="cfcf", I="ccff",
    J="crrf", K="cfrr", L="crrr", M="ccff", N="ccff", O="ccrr", P="ccrr", Q="cccf", R="cccf",
    S="cccr", T="cccr", U="frfr", V="ffrr", W="frrr", X="rrrr",
)  # fmt: skip
CODE = {Terrain.CITY: "c", Terrain.ROAD: "r", Terrain.FIELD: "f"}


def test_deck_has_72_tiles_in_24_designs_with_the_rulebook_counts():
    counts = base_tile_counts()
    assert list(counts) == [chr(c) for c in range(ord("A"), ord("X") + 1)]
    assert counts == EXPECTED_COUNTS
    assert sum(counts.values()) == 72
    assert [k.letter for k in BASE_DESIGNS] == list(counts)


def test_ten_pennants_in_the_base_set():
    counts = base_tile_counts()
    pennants = sum(
        counts[k.letter] * sum(seg.pennant for seg in k.segments) for k in BASE_DESIGNS
    )
    assert pennants == 10  # C1 F2 M2 O2 Q1 S2


@pytest.mark.parametrize("kind", BASE_DESIGNS, ids=lambda k: k.letter)
def test_side_codes_match_the_hig_distribution_table(kind):
    codes = {"".join(CODE[t] for t in kind.variant(r).terrain) for r in range(4)}
    assert HIG_SIDE_CODES[kind.letter] in codes


def test_start_tile_has_city_north_and_road_east_west():
    d = tile_kind("D").variant(0)
    assert d.terrain == (Terrain.CITY, Terrain.ROAD, Terrain.FIELD, Terrain.ROAD)


def _derived_borders(kind):
    """Which city segments each field touches along the tile's edge (an independent derivation:
    on base tiles a field borders a city exactly where their half-sides are neighbours clockwise)."""
    owner = {}
    for i, seg in enumerate(kind.segments):
        for h in seg.halves:
            owner[int(h)] = ("field", i)
        for s in seg.sides:
            if seg.kind == SegmentKind.CITY:
                owner[2 * s] = owner[2 * s + 1] = ("city", i)
    out = {}
    for i, seg in enumerate(kind.segments):
        if seg.kind == SegmentKind.FIELD:
            near = set()
            for h in seg.halves:
                for nb in ((h + 1) % 8, (h - 1) % 8):
                    if nb in owner and owner[nb][0] == "city":
                        near.add(owner[nb][1])
            out[i] = tuple(sorted(near))
    return out


@pytest.mark.parametrize("kind", BASE_DESIGNS, ids=lambda k: k.letter)
def test_field_borders_agree_with_edge_adjacency(kind):
    written = {i: seg.borders for i, seg in enumerate(kind.segments) if seg.kind == SegmentKind.FIELD}
    assert written == _derived_borders(kind)


@pytest.mark.parametrize("kind", BASE_DESIGNS, ids=lambda k: k.letter)
def test_rotation_turns_sides_and_segments_clockwise(kind):
    v0 = kind.variant(0)
    for r in range(4):
        v = kind.variant(r)
        for s in Side:
            assert v.terrain[s.rotated(r)] == v0.terrain[s]
        for seg0, seg in zip(v0.segments, v.segments):
            assert seg.kind == seg0.kind and seg.pennant == seg0.pennant
            assert set(seg.sides) == {s.rotated(r) for s in seg0.sides}
            assert set(seg.halves) == {h.rotated(r) for h in seg0.halves}


@pytest.mark.parametrize("kind", BASE_DESIGNS, ids=lambda k: k.letter)
def test_every_non_city_half_side_is_in_exactly_one_field(kind):
    v = kind.variant(0)
    for h in HalfSide:
        in_fields = [i for i, seg in enumerate(v.segments) if h in seg.halves]
        if v.terrain[h.side] == Terrain.CITY:
            assert in_fields == []
        else:
            assert len(in_fields) == 1


def test_a_road_splits_the_field_of_its_side():
    u = tile_kind("U").variant(0)  # straight road north-south
    east, west = u.half_segment[HalfSide.NR], u.half_segment[HalfSide.NL]
    assert east != west and u.segments[east].kind == u.segments[west].kind == SegmentKind.FIELD


def test_distinct_rotations_skip_identical_turns():
    assert tile_kind("C").distinct_rotations == (0,)
    assert tile_kind("B").distinct_rotations == (0,)
    assert tile_kind("X").distinct_rotations == (0,)
    assert tile_kind("U").distinct_rotations == (0, 1)
    assert tile_kind("H").distinct_rotations == (0, 1)
    assert tile_kind("V").distinct_rotations == (0, 1, 2, 3)


def test_unknown_letter_is_named_in_the_error():
    with pytest.raises(KeyError, match="'Z'"):
        tile_kind("Z")


def test_quarter_turn_of_halves_moves_them_one_side_clockwise():
    assert HalfSide.NL.rotated(1) == HalfSide.EL
    assert HalfSide.WR.rotated(1) == HalfSide.NR
    assert HalfSide.NL.opposite == HalfSide.SR and HalfSide.NR.opposite == HalfSide.SL
    assert HalfSide.EL.opposite == HalfSide.WR
