"""Provides The River as an expansion (HA "THE RIVER"; Z14 "The River"; ``docs/rules.md``, "The
River"): where a tile may be placed while the river is open. Each river tile continues the river's
open end, never turns twice in a row the same way (HA FN 31), and leaves the river finishable with the
river tiles left; a land tile placed while the river is open (the start tile among the river tiles)
must leave it finishable too. From rules version 3 on, "finishable" is the exact rule (every order of
the river tiles left); before, the sufficient test of rules 2. The searches are
:mod:`carcnet.engine.river`'s; this part keeps each game's river end and answers the core's
placement hooks. Its tiles and their order (the spring first, the lake last) are the tile list's and
the deck's.
"""

from __future__ import annotations

from collections.abc import Callable

from ..board import PlacedTile
from ..errors import IllegalMoveError
from ..expansion import Expansion, GameState
from ..geometry import position_of
from ..moves import PlaceTile
from ..river import (
    RiverEnd,
    advance_river,
    river_designs_left,
    river_finishable,
    river_stays_finishable,
    river_turn,
    river_unblocked,
)
from ..tiles import TileKind

__all__ = ["River", "RiverState", "river_end"]

#: The rules version from which a river's finishability is the exact rule (docs/rules.md).
_EXACT = 3


class RiverState:
    """One game's river: its open end (:data:`~carcnet.engine.river.RiverEnd`), ``None`` before the
    spring and once the lake is placed."""

    __slots__ = ("end",)

    def __init__(self, players: int) -> None:
        self.end: RiverEnd | None = None

    def copy(self) -> RiverState:
        """An independent copy (:meth:`Game.copy`)."""
        other = RiverState.__new__(RiverState)
        other.end = self.end
        return other


class River(Expansion):
    """The River: its placement rules while the river is open."""

    name = "river"
    title = "The River"
    option = "river"
    words = ("river", "rivers")

    def new_state(self, players: int) -> RiverState:
        return RiverState(players)

    def on_tile_placed(self, game: GameState, placed: PlacedTile, seat: int | None) -> None:
        """A river tile (the spring, placed as the start tile, included) moves the river's open end on."""
        kind = placed.kind
        if kind.has_river:
            state: RiverState = game.ext[self.slot]
            state.end = advance_river(state.end, kind, placed.key, placed.rotation)

    def restricts(self, game: GameState, kind: TileKind) -> bool:
        """Its rules apply to placing *kind* now: a river tile, or any tile while the river is open."""
        return kind.has_river or game.ext[self.slot].end is not None

    def filter_placements(self, game: GameState, kind: TileKind) -> list[tuple[int, tuple[int, ...]]]:
        """``(key, rotations)`` where *kind* may go: the frontier lookup, and for a river tile only the
        river's open end with the turns the U-turn rule allows (HA "THE RIVER", FN 31); every one
        leaving the river finishable."""
        end: RiverEnd | None = game.ext[self.slot].end
        board = game.board
        remaining = _river_left(game)
        if not kind.has_river:
            placements = board.placements(kind)
            if end is None:
                return placements
            # a land tile among the river tiles (the start tile, river_start "river") must leave the river finishable
            tiles = board.tiles
            if self.version < _EXACT:
                return [(key, rots) for key, rots in placements if river_unblocked(tiles, end, key, remaining)]
            variants = kind._variants
            out = []
            for key, rots in placements:
                kept = tuple(r for r in rots if river_stays_finishable(tiles, end, key, variants[r], remaining))
                if kept:
                    out.append((key, kept))
            return out
        if end is None:
            return []
        key = end[0]
        pattern = board.frontier.get(key)
        if pattern is None:
            return []
        exact = self.version >= _EXACT
        rotations = tuple(
            r for r in kind.fitting_rotations(pattern)
            if river_turn(end, kind, r) is not None
            and (river_stays_finishable(board.tiles, end, key, kind._variants[r], remaining) if exact
                 else river_finishable(board.tiles, end, kind, r, remaining))
        )
        return [(key, rotations)] if rotations else []

    def check_placement(self, game: GameState, move: PlaceTile, kind: TileKind, key: int, rotation: int,
                        pattern: int) -> None:
        """The river rules of a placement (HA "THE RIVER"; reason ``"river"``): a river tile continues
        the river's open end, never turns twice the same way, and leaves the river finishable; a land
        tile placed while the river is open leaves it finishable. The core checks the sides."""
        end: RiverEnd | None = game.ext[self.slot].end
        tiles = game.board.tiles
        exact = self.version >= _EXACT
        if kind.has_river:
            if end is None or end[0] != key:
                where = (
                    "the river is complete"
                    if end is None
                    else f"it must continue the river at {position_of(end[0])}"
                )
                raise IllegalMoveError("river", f"{move}: {where}")
            if kind.fits(rotation, pattern) and river_turn(end, kind, rotation) is None:
                raise IllegalMoveError(
                    "river", f"{move}: the river may not turn twice in a row in the same direction"
                )
            if kind.fits(rotation, pattern) and not (
                river_stays_finishable(tiles, end, key, kind._variants[rotation], game.remaining)
                if exact
                else river_finishable(tiles, end, kind, rotation, game.remaining)
            ):
                raise IllegalMoveError(
                    "river", f"{move}: the river could then not be finished with the river tiles left"
                )
        elif end is not None and (not exact or kind.fits(rotation, pattern)) and not (
            river_stays_finishable(tiles, end, key, kind._variants[rotation], game.remaining)
            if exact
            else river_unblocked(tiles, end, key, game.remaining)
        ):  # rules 3: a turn that does not fit is refused for its sides (by the core), not searched
            raise IllegalMoveError("river", f"{move}: it would leave the river no way to be finished")


def _river_left(game: GameState) -> Callable[[], dict[str, int]]:
    """The river tiles face down in *game* (``river_designs_left(game.remaining())``), asked at most
    once: they do not change while the placements of one tile are weighed, and the searches read
    nothing else of the tiles face down."""
    answer: list[dict[str, int]] = []

    def remaining() -> dict[str, int]:
        if not answer:
            answer.append(river_designs_left(game.remaining()))
        return answer[0]

    return remaining


def river_end(game: GameState) -> RiverEnd | None:
    """The river's open end in *game* (:data:`~carcnet.engine.river.RiverEnd`): ``None`` before the
    spring, once the lake is placed, and in a game without The River."""
    slot = game.expansion_slot(River)
    if slot is None:
        return None
    state = game.ext[slot]
    assert isinstance(state, RiverState)
    return state.end
