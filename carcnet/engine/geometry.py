"""Provides board coordinates, tile sides, half-sides and rotations.

Axes (used everywhere in carcnet, on screen and on the wire):

* ``x`` grows to the **east** (right on screen), ``y`` grows to the **south** (down on screen),
  exactly as terminal rows and columns do. The first tile (the start tile) lies at ``(0, 0)``.
* North is up. The sides of a tile are ``N, E, S, W`` in **clockwise** order.
* A rotation is a number of **clockwise quarter turns**, 0 to 3 (``Rotation.R90`` is one quarter
  turn: what was the north side faces east).
* Each side has two halves, named as seen from the tile's centre looking out through that side:
  ``NL`` is the west half of the north side, ``NR`` its east half; ``EL`` is the north half of the
  east side, ``ER`` its south half; ``SL`` the east half of the south side, ``SR`` its west half;
  ``WL`` the south half of the west side, ``WR`` its north half. Listed ``NL, NR, EL, ER, SL, SR,
  WL, WR`` they run clockwise around the tile, which makes rotation an index shift.

Internally the engine packs a position into one integer *key* (``x * 1024 + y``, valid for
``|y| < 512``); :func:`key_of` and :func:`position_of` convert. Keys never leave the engine.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

__all__ = [
    "HalfSide",
    "Position",
    "Rotation",
    "Side",
    "key_of",
    "position_of",
]


class Side(IntEnum):
    """A side of a tile, clockwise from north."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def opposite(self) -> Side:
        """The side that faces this one across an edge (``N`` ↔ ``S``, ``E`` ↔ ``W``)."""
        return Side((self + 2) % 4)

    def rotated(self, rotation: int) -> Side:
        """This side after *rotation* clockwise quarter turns of its tile."""
        return Side((self + rotation) % 4)


class HalfSide(IntEnum):
    """Half of a side, as seen from the tile's centre: L is the left half, R the right half.

    The eight values run clockwise around the tile, so ``HalfSide(i)`` lies on ``Side(i // 2)``.
    """

    NL = 0
    NR = 1
    EL = 2
    ER = 3
    SL = 4
    SR = 5
    WL = 6
    WR = 7

    @property
    def side(self) -> Side:
        """The side this half belongs to."""
        return Side(self // 2)

    @property
    def opposite(self) -> HalfSide:
        """The half-side it touches on the neighbouring tile (``NL`` ↔ ``SR``, ``NR`` ↔ ``SL``, …)."""
        return HalfSide(opposite_half(self))

    def rotated(self, rotation: int) -> HalfSide:
        """This half-side after *rotation* clockwise quarter turns of its tile."""
        return HalfSide((self + 2 * rotation) % 8)


def opposite_half(half: int) -> int:
    """Index of the half-side that touches *half* across an edge (see :class:`HalfSide`)."""
    side, k = divmod(half, 2)
    return 2 * ((side + 2) % 4) + (1 - k)


class Rotation(IntEnum):
    """Clockwise quarter turns applied to a tile design as printed in the tile table."""

    R0 = 0
    R90 = 1
    R180 = 2
    R270 = 3

    @property
    def degrees(self) -> int:
        """The rotation in degrees clockwise: 0, 90, 180 or 270."""
        return 90 * int(self)


class Position(NamedTuple):
    """A cell of the board: ``x`` grows east, ``y`` grows south; the start tile is at ``(0, 0)``."""

    x: int
    y: int

    def neighbour(self, side: Side) -> Position:
        """The position across *side*.

        >>> Position(0, 0).neighbour(Side.N)
        Position(x=0, y=-1)
        """
        dx, dy = _SIDE_STEP[side]
        return Position(self.x + dx, self.y + dy)

    def __str__(self) -> str:
        return f"{self.x},{self.y}"


_SIDE_STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))

#: Key stride: a key is ``x * KEY_STRIDE + y``.
KEY_STRIDE = 1024
#: Largest ``|x|`` or ``|y|`` a key may hold; far beyond any board (at most ~90 tiles wide).
KEY_LIMIT = 500

#: Key offset of the neighbour across each side, indexed by ``Side``.
SIDE_OFFSETS = (-1, KEY_STRIDE, 1, -KEY_STRIDE)
#: Key offsets of the eight surrounding positions (cloister and garden neighbourhoods).
RING_OFFSETS = tuple(
    dx * KEY_STRIDE + dy for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)
)


def key_of(x: int, y: int) -> int:
    """Packs a position into the engine's integer key. Raises ``ValueError`` beyond ±500."""
    if not (-KEY_LIMIT <= x <= KEY_LIMIT and -KEY_LIMIT <= y <= KEY_LIMIT):
        raise ValueError(f"position {x},{y} is outside the board limits (±{KEY_LIMIT})")
    return x * KEY_STRIDE + y


def position_of(key: int) -> Position:
    """Unpacks an engine key into a :class:`Position` (memoised: positions are immutable)."""
    pos = _POSITIONS.get(key)
    if pos is None:
        x = (key + KEY_STRIDE // 2) // KEY_STRIDE
        pos = _POSITIONS[key] = Position(x, key - x * KEY_STRIDE)
    return pos


_POSITIONS: dict[int, Position] = {}
