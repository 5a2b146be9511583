"""The tiles of Inns & Cathedrals and Traders & Builders (issue 33) as data: their counts, inns,
cathedrals and goods as the boxes list them, every design well formed and turned like any other."""

from __future__ import annotations

import dataclasses

import pytest

from carcnet.engine.tiles import (
    BASE_DESIGNS,
    DRAGON_DESIGNS,
    GARDEN_VARIANTS,
    GOODS,
    HILLS_DESIGNS,
    INNS_DESIGNS,
    INNS_GARDEN_VARIANTS,
    RIVER_DESIGNS,
    TRADERS_DESIGNS,
    Segment,
    SegmentKind,
    TileKind,
    expansion_tile_counts,
    tile_kind,
)


def test_inns_and_cathedrals_has_18_tiles_6_inns_and_2_cathedrals():
    counts = expansion_tile_counts("inns")
    assert sum(counts.values()) == 18 and len(counts) == 17
    inns = [k for k in INNS_DESIGNS if any(s.inn for s in k.segments)]
    assert sum(counts[k.letter] for k in inns) == 6
    cathedrals = [k for k in INNS_DESIGNS if any(s.cathedral for s in k.segments)]
    assert [k.letter for k in cathedrals] == ["ICK"] and counts["ICK"] == 2
    assert all(k.expansion == "inns" for k in INNS_DESIGNS)


def test_traders_and_builders_has_24_tiles_and_the_goods_of_the_box():
    counts = expansion_tile_counts("traders")
    assert sum(counts.values()) == 24 and set(counts.values()) == {1}
    goods = {g: 0 for g in GOODS}
    for kind in TRADERS_DESIGNS:
        for seg in kind.segments:
            for good in seg.goods:
                goods[good] += 1
    assert goods == {"wine": 9, "grain": 6, "cloth": 5}  # the 20 tokens in the box
    assert sum(1 for k in TRADERS_DESIGNS if not any(s.goods for s in k.segments)) == 4


def test_the_ids_are_unique_and_the_designs_known_by_id():
    ids = [k.letter for k in (*BASE_DESIGNS, *RIVER_DESIGNS, *INNS_DESIGNS, *TRADERS_DESIGNS)]
    assert len(ids) == len(set(ids))
    for kind in (*INNS_DESIGNS, *TRADERS_DESIGNS):
        assert tile_kind(kind.letter) is kind


@pytest.mark.parametrize("kind", [*INNS_DESIGNS, *TRADERS_DESIGNS], ids=lambda k: k.letter)
def test_every_design_turns_keeping_its_inns_cathedrals_and_goods(kind: TileKind):
    for rotation in range(4):
        turned = kind.variant(rotation).segments
        assert [(s.kind, s.inn, s.cathedral, s.goods) for s in turned] == [
            (s.kind, s.inn, s.cathedral, s.goods) for s in kind.segments
        ]
    assert all(str(s).split()[0] == s.kind.label for s in kind.segments)


def test_inns_cathedrals_and_goods_only_where_the_rules_put_them():
    with pytest.raises(ValueError, match="only road segments have inns"):
        TileKind("Z1", (Segment(SegmentKind.CITY, inn=True, sides=(0, 1, 2, 3)),))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="only city segments have cathedrals or goods"):
        city = tile_kind("ICK").segments[0]
        TileKind("Z2", (dataclasses.replace(tile_kind("B").segments[0], cathedral=True), *tile_kind("B").segments[1:]))
    assert city.cathedral


def test_with_the_abbot_two_inns_and_cathedrals_tiles_are_their_garden_variants():
    """The second edition prints a garden on ICB and ICH (JCloisterZone ``IC/RFr.iG``, ``IC/CCCCG``):
    with The Abbot those tiles are ICBG and ICHG (the design plus a garden, like the base game's
    gardens); without it the plain designs. The pile keeps its 89 land tiles either way."""
    from carcnet.engine.tiles import INNS_GARDEN_DESIGNS, tileset

    _, plain = tileset(inns=True)
    _, gardens = tileset(inns=True, abbot=True)
    assert sum(plain[0].values()) == sum(gardens[0].values()) == 71 + 18
    for letter in INNS_GARDEN_DESIGNS:
        assert plain[0][letter] == 1 and f"{letter}G" not in plain[0]
        assert gardens[0][f"{letter}G"] == 1 and letter not in gardens[0]
        garden = tile_kind(f"{letter}G")
        assert garden.segments[:-1] == tile_kind(letter).segments
        assert garden.segments[-1].kind is SegmentKind.GARDEN


def test_only_roads_and_cities_carry_inns_cathedrals_and_goods():
    """The marked feature graph joins fields as the plain one does (``join_fields``): no design puts an
    inn, a cathedral or goods on a field, and the half-sides joined across an edge are fields'."""
    kinds = {*BASE_DESIGNS, *RIVER_DESIGNS, *GARDEN_VARIANTS, *INNS_DESIGNS, *INNS_GARDEN_VARIANTS, *TRADERS_DESIGNS,
             *HILLS_DESIGNS, *DRAGON_DESIGNS}
    for kind in kinds:
        for r in range(4):
            variant = kind.variant(r)
            for i, node_kind in enumerate(variant.node_kinds):
                if node_kind is SegmentKind.FIELD:
                    assert variant.node_marks[i] == 0 and variant.node_goods[i] == 0, kind.letter
            for _offset, _facing, _side, half_a, half_b, _second in variant.links:
                for half in (half_a, half_b):
                    assert half < 0 or variant.node_kinds[half] is SegmentKind.FIELD, kind.letter
