"""Provides The Princess & the Dragon as an expansion (Hans im Glück second edition, 2016;
``docs/rules.md``, "The Princess & the Dragon"; the rules gathered with their sources in
``docs/rules-next.md`` §1): so far its tiles, the volcano and the dragon.

* **Dragon tiles before the dragon** (PD3): a dragon tile drawn while no dragon is on the board waits
  beside the pile (:meth:`PrincessDragon.holds`: ``Game.held``; with table draws the bag does not
  draw it); the first volcano puts them back (``protocol/deck.md`` §8).
* **The volcano** (PD2): the dragon flies to a volcano as it is placed; no figure may go on it.
* **The dragon's movement** (PD5–PD7): after a dragon tile's deploy and before its scoring (HiG and
  Z-Man, WICA-OP step 5d), the dragon moves six tiles, one a step, the seats in turn from the one
  whose turn it is (:class:`DragonMove`, answered by :class:`~carcnet.engine.moves.MoveDragon`), never
  onto a tile it has been on in this movement; it stops early when it cannot move. On every tile it
  enters it eats every figure (``GameState.clear_tile``): back to their supplies without points.
* No figure may be deployed on the dragon's tile (PD8, JCloisterZone's reading).

Its words in the state line (``protocol/digest.md`` §3): `` dragon=<x>,<y>|- held=<n> path=<x>,<y>/…|-``
(the dragon's tile; the tiles held; this movement's tiles, its start first).

Not yet: the fairy, the princess, the magic portal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..board import PlacedTile
from ..errors import IllegalMoveError
from ..events import DragonMoved, Event
from ..expansion import Expansion, GameState
from ..geometry import SIDE_OFFSETS, key_of, position_of
from ..moves import Move, MoveDragon, RemoveKnight
from ..tiles import SegmentKind, TileKind

__all__ = ["DRAGON", "DRAGON_STEPS", "VOLCANO", "DragonMove", "DragonState", "PrincessDragon", "dragon_at"]

#: The tile marks (:attr:`~carcnet.engine.tiles.TileKind.marks`) of the dragon's tiles and the volcano.
DRAGON, VOLCANO = "dragon", "volcano"
#: The dragon's steps a movement (HIG-PD: "moved exactly 6 times. It does not matter how many players
#: are playing").
DRAGON_STEPS = 6


class DragonState:
    """One game's dragon.

    Attributes:
        dragon: The board key of the dragon's tile, or ``None`` (beside the board, before the first volcano).
        path: This movement's tiles, its start first (empty when the dragon is not moving).
        tile: The tile placed last by a seat.
    """

    __slots__ = ("dragon", "path", "tile")

    def __init__(self, players: int) -> None:
        self.dragon: int | None = None
        self.path: list[int] = []
        self.tile: PlacedTile | None = None

    def copy(self) -> DragonState:
        """An independent copy (:meth:`Game.copy`)."""
        other = DragonState.__new__(DragonState)
        other.dragon, other.path, other.tile = self.dragon, self.path[:], self.tile
        return other


@dataclass(frozen=True, slots=True)
class DragonMove:
    """One step of the dragon's movement, asked of *seat* (a :class:`~carcnet.engine.expansion.Step`)."""

    seat: int
    owner: PrincessDragon
    draws: ClassVar[bool] = False

    def words(self) -> str:
        return "dragon"

    def legal_moves(self, game: GameState) -> list[Move]:
        return [MoveDragon(position_of(key)) for key in self.owner._targets(game)]

    def apply(self, game: GameState, move: Move, events: list[Event]) -> bool:
        """PD5, PD6: the dragon goes one tile; it eats every figure there; the next seat's step, if the
        movement goes on."""
        if type(move) is not MoveDragon:
            raise IllegalMoveError("wrong-phase", f"{move}: move the dragon first")
        assert isinstance(move, MoveDragon)
        owner = self.owner
        targets = owner._targets(game)
        position = move.position
        key = next((k for k in targets if position_of(k) == position), None)
        if key is None:
            where = ", ".join(str(position_of(k)) for k in targets)
            raise IllegalMoveError("bad-dragon", f"{move}: the dragon may go to {where}")
        state = owner._state_of(game)
        state.dragon = key
        state.path.append(key)
        events.append(DragonMoved(self.seat, position))
        game.clear_tile(key, events)
        owner._next_step(game, state)
        return False


class PrincessDragon(Expansion):
    """The Princess & the Dragon: the dragon's tiles held until the first volcano, the volcano, the
    dragon's movement."""

    name = "princess-dragon"
    title = "The Princess & the Dragon"
    option = "princess_dragon"
    since = 6
    words = ("dragon", "dragons", "volcano", "volcanoes", "princess", "fairy", "portal", "portals")
    digest_order = 60  # " dragon=… held=… path=…" after Hills & Sheep's words (digest.md §3)
    step_moves = (MoveDragon,)
    moves = (RemoveKnight,)
    off_reason = "no-dragon"

    def new_state(self, players: int) -> DragonState:
        return DragonState(players)

    def _state_of(self, game: GameState) -> DragonState:
        """This game's :class:`DragonState`."""
        state = game.ext[self.slot]
        assert isinstance(state, DragonState)
        return state

    def holds(self, game: GameState, kind: TileKind) -> bool:
        """PD3: a dragon tile waits while no dragon is on the board."""
        return DRAGON in kind.marks and self._state_of(game).dragon is None

    def on_tile_placed(self, game: GameState, placed: PlacedTile, seat: int | None) -> None:
        """PD2: the dragon flies to a volcano as it is placed; the first brings back the held tiles."""
        if seat is None:
            return
        state = self._state_of(game)
        state.tile = placed
        if VOLCANO in placed.kind.marks:
            first = state.dragon is None
            state.dragon = placed.key
            if first:
                game.release_held()

    def turn_actions(self, game: GameState, out: list[Move]) -> None:
        """PD14: the tile's princess joined a city holding knights: each of them may be sent home."""
        out.extend(self._knights(game))

    def check_move(self, game: GameState, move: Move) -> None:
        assert isinstance(move, RemoveKnight)
        if move not in self._knights(game):
            raise IllegalMoveError("bad-princess", f"{move}: no knight there in the princess's city")

    def apply_move(self, game: GameState, move: Move, events: list[Event]) -> None:
        """PD14: the knight goes home (a builder or pig of its seat left alone too); no figure is
        deployed this turn."""
        assert isinstance(move, RemoveKnight)
        tile = game.board.tiles[key_of(move.position.x, move.position.y)]
        game.return_figure(tile.base + move.segment, events)

    def _knights(self, game: GameState) -> list[RemoveKnight]:
        """The knights of the city the tile just placed shows the princess in (followers: figures of
        weight > 0), in the city's deployment order."""
        tile = self._state_of(game).tile
        if tile is None:
            return []
        graph = game.graph
        out: list[RemoveKnight] = []
        for i, seg in enumerate(tile.variant.segments):
            if seg.princess and seg.kind is SegmentKind.CITY:
                for seat, figure, node in graph.meeples[graph.find(tile.base + i)] or ():
                    if game.weight_of(figure) > 0:
                        knight = RemoveKnight(position_of(graph.tile[node]), graph.index[node])
                        if knight not in out:
                            out.append(knight)
        return out

    def no_deploy(self, game: GameState, key: int) -> str | None:
        """PD2, PD8: no figure on the dragon's tile (a volcano just placed is one)."""
        if key == self._state_of(game).dragon:
            return "no figure may go on the dragon's tile"
        return None

    def before_scoring(self, game: GameState, events: list[Event]) -> None:
        """PD2: a volcano placed this turn says where the dragon is; PD4, PD5: a dragon tile starts the
        dragon's movement, the seat whose turn it is first."""
        state = self._state_of(game)
        tile = state.tile
        if tile is None or state.dragon is None:
            return
        if VOLCANO in tile.kind.marks and state.dragon == tile.key:
            events.append(DragonMoved(None, tile.position))
        elif DRAGON in tile.kind.marks:
            state.path = [state.dragon]
            self._next_step(game, state)

    def _next_step(self, game: GameState, state: DragonState) -> None:
        """The movement's next step to ask, if fewer than six were made and the dragon can move;
        else the movement ends."""
        made = len(state.path) - 1
        if made < DRAGON_STEPS and self._targets(game):
            game.push_step(DragonMove((game.seat + made) % game.players, self))
        else:
            state.path = []

    def _targets(self, game: GameState) -> list[int]:
        """PD5: where the dragon may go now: the placed tiles beside it (north, east, south, west) it
        has not been on in this movement."""
        state = self._state_of(game)
        if state.dragon is None:
            return []
        tiles = game.board.tiles
        return [key for key in (state.dragon + offset for offset in SIDE_OFFSETS)
                if key in tiles and key not in state.path]

    def snapshot(self, game: GameState) -> tuple[int | None, int, tuple[int, ...]]:
        state = self._state_of(game)
        return state.dragon, len(game.held), tuple(state.path)

    def state_words(self, part: tuple[int | None, int, tuple[int, ...]]) -> str:
        dragon, held, path = part
        where = "-" if dragon is None else _xy(dragon)
        return f" dragon={where} held={held} path={'/'.join(map(_xy, path)) or '-'}"


def _xy(key: int) -> str:
    position = position_of(key)
    return f"{position.x},{position.y}"


def dragon_at(game: GameState) -> tuple[int, int] | None:
    """Where the dragon is as ``(x, y)``, or ``None`` (beside the board, or a game without The
    Princess & the Dragon)."""
    slot = game.expansion_slot(PrincessDragon)
    if slot is None:
        return None
    state = game.ext[slot]
    assert isinstance(state, DragonState)
    if state.dragon is None:
        return None
    position = position_of(state.dragon)
    return position.x, position.y
