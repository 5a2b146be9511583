"""Provides the board: placed tiles, the frontier of open positions, and legal placements.

Placement rule (HiG basic rules, "1. Place a tile", FAQ 7 and 8): the new tile must touch at least
one placed tile along a side (corners do not count), and every side that touches a placed tile must
show the same terrain (city to city, road to road, field to field; river to river with The River).

The board keeps a *frontier*: every empty position that touches a placed tile, with a *pattern*
packing the terrain of each neighbouring side that faces it (:meth:`TileKind.fitting_rotations`).
Placing a tile updates at most four frontier entries; enumerating the legal placements of a design is
one cached lookup per frontier entry, never a scan of the whole board.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .geometry import SIDE_OFFSETS, Position, Side, position_of
from .tiles import Terrain, TileKind, TileVariant

__all__ = ["Board", "PlacedTile", "Placement"]


@dataclass(slots=True)
class PlacedTile:
    """A tile on the board.

    Attributes:
        kind: Its design.
        variant: The design turned by ``rotation``.
        key: Engine key of its position.
        position: Its position.
        rotation: Clockwise quarter turns, 0–3.
        base: Feature-graph node of its segment 0; segment ``i`` is node ``base + i``.
        seat: Who placed it; ``None`` for the start tile.
    """

    kind: TileKind
    variant: TileVariant
    key: int
    position: Position
    rotation: int
    base: int
    seat: int | None


class Placement(NamedTuple):
    """A position where the drawn tile fits, with the distinct rotations that fit there (a named
    tuple: cheap to make, as one is made per open position and turn)."""

    position: Position
    rotations: tuple[int, ...]


class Board:
    """Placed tiles by key and the frontier of open positions (key → neighbour pattern)."""

    __slots__ = ("frontier", "tiles")

    def __init__(self) -> None:
        self.tiles: dict[int, PlacedTile] = {}
        self.frontier: dict[int, int] = {}

    def copy(self) -> Board:
        """An independent copy (the placed tiles themselves never change, so they are shared)."""
        other = Board.__new__(Board)
        other.tiles = dict(self.tiles)
        other.frontier = dict(self.frontier)
        return other

    def place(self, tile: PlacedTile) -> None:
        """Puts *tile* on the board and updates the frontier around it. Does not check legality."""
        key = tile.key
        tiles = self.tiles
        frontier = self.frontier
        tiles[key] = tile
        frontier.pop(key, None)
        bits = tile.variant.facing
        for s in range(4):
            nk = key + SIDE_OFFSETS[s]
            if nk not in tiles:
                frontier[nk] = frontier.get(nk, 0) | bits[s]

    def placements(self, kind: TileKind) -> list[tuple[int, tuple[int, ...]]]:
        """``(key, rotations)`` for every frontier position where *kind* fits, sorted by key (x, then y)."""
        fits = kind._fits  # the per-design lookup (TileKind.fitting_rotations without the call)
        out = [(k, r) for k, p in self.frontier.items() if (r := fits[p])]
        out.sort()
        return out

    def fits_somewhere(self, kind: TileKind) -> bool:
        """True when *kind* fits at some frontier position (stops at the first)."""
        fits = kind._fit_bits
        for p in self.frontier.values():
            if fits[p]:
                return True
        return False

    def mismatch(self, key: int, variant: TileVariant) -> tuple[Side, Terrain, Terrain] | None:
        """The first side of *variant* at *key* that does not match its neighbour, as
        ``(side, this tile's terrain, neighbour's terrain)``; ``None`` when all touching sides match."""
        for s in Side:
            nt = self.tiles.get(key + SIDE_OFFSETS[s])
            if nt is not None:
                theirs = nt.variant.terrain[s.opposite]
                if theirs != variant.terrain[s]:
                    return s, variant.terrain[s], theirs
        return None

    def positions(self) -> list[Position]:
        """Positions of all placed tiles, in placement order."""
        return [position_of(k) for k in self.tiles]
