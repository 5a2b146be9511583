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

Its words in the state line (``protocol/digest.md`` §3): `` dragon=<x>,<y>|- held=<n> path=<x>,<y>/…|-
fairy=<x>,<y>,<segment>|-`` (the dragon's tile; the tiles held; this movement's tiles, its start first;
the fairy's follower's place, or its tile with ``-`` for the segment when it stands next to nobody).

* **The princess** (PD14): instead of deploying, a knight of the city the tile's princess joined is
  sent home (:class:`~carcnet.engine.moves.RemoveKnight`).
* **The fairy** (PD9–PD13): instead of deploying, next to one of the seat's followers
  (:class:`~carcnet.engine.moves.MoveFairy`); its owner scores 1 as each of its turns begins and 3 when
  that follower's feature is scored (during the game or at the end); the dragon may not enter its
  tile; when the follower leaves, the fairy stays, next to nobody.

* **The magic portal** (PD15): on a turn whose tile shows a portal, a follower may go on any
  placed tile instead (:meth:`PrincessDragon.deploy_anywhere`; ``DeployMeeple.at``): on a feature no
  figure holds and that is not completed, never on the dragon's tile; the builder, pig and shepherd
  only on the portal's tile.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..board import PlacedTile
from ..errors import IllegalMoveError
from ..events import DragonMoved, Event, FairyScored, FeatureInfo, Scoring
from ..expansion import Expansion, GameState
from ..geometry import SIDE_OFFSETS, key_of, position_of
from ..moves import Move, MoveDragon, MoveFairy, RemoveKnight
from ..tiles import SegmentKind, TileKind

__all__ = ["DRAGON", "DRAGON_STEPS", "PORTAL", "VOLCANO", "DragonMove", "DragonState", "PrincessDragon", "dragon_at"]

#: The tile marks (:attr:`~carcnet.engine.tiles.TileKind.marks`) of the dragon's tiles, the volcano
#: and the magic portal.
DRAGON, VOLCANO, PORTAL = "dragon", "volcano", "portal"
#: The dragon's steps a movement (HIG-PD: "moved exactly 6 times. It does not matter how many players
#: are playing").
DRAGON_STEPS = 6


class DragonState:
    """One game's dragon.

    Attributes:
        dragon: The board key of the dragon's tile, or ``None`` (beside the board, before the first volcano).
        path: This movement's tiles, its start first (empty when the dragon is not moving).
        tile: The tile placed last by a seat.
        fairy: The feature-graph node of the follower the fairy was put next to, or ``None``.
        fairy_tile: The board key of the fairy's tile, or ``None`` (beside the board).
    """

    __slots__ = ("dragon", "fairy", "fairy_tile", "path", "tile")

    def __init__(self, players: int) -> None:
        self.dragon: int | None = None
        self.path: list[int] = []
        self.tile: PlacedTile | None = None
        self.fairy: int | None = None
        self.fairy_tile: int | None = None

    def copy(self) -> DragonState:
        """An independent copy (:meth:`Game.copy`)."""
        other = DragonState.__new__(DragonState)
        other.dragon, other.path, other.tile = self.dragon, self.path[:], self.tile
        other.fairy, other.fairy_tile = self.fairy, self.fairy_tile
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
    moves = (RemoveKnight, MoveFairy)
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
        """PD14: the tile's princess joined a city holding knights: each of them may be sent home;
        PD9: the fairy next to each follower of the seat's but the one it is next to."""
        out.extend(self._knights(game))
        out.extend(self._fairy_moves(game))

    def check_move(self, game: GameState, move: Move) -> None:
        if type(move) is MoveFairy:
            if move not in self._fairy_moves(game):
                raise IllegalMoveError("bad-fairy", f"{move}: no follower of seat {game.seat}'s there, or the fairy is by it")
            return
        assert isinstance(move, RemoveKnight)
        if move not in self._knights(game):
            raise IllegalMoveError("bad-princess", f"{move}: no knight there in the princess's city")

    def apply_move(self, game: GameState, move: Move, events: list[Event]) -> None:
        """PD14: the knight goes home (a builder or pig of its seat left alone too); PD9: the fairy
        goes next to the follower. No figure is deployed this turn."""
        assert isinstance(move, RemoveKnight | MoveFairy)
        key = key_of(move.position.x, move.position.y)
        node = game.board.tiles[key].base + move.segment
        if type(move) is MoveFairy:
            state = self._state_of(game)
            state.fairy, state.fairy_tile = node, key
            return
        game.return_figure(node, events)

    def _fairy_moves(self, game: GameState) -> list[MoveFairy]:
        """PD9: next to each follower of the seat's on the board (figures of weight > 0), but the one
        the fairy is next to, in deployment order."""
        state = self._state_of(game)
        out: list[MoveFairy] = []
        for seat, figure, position, segment in game.figures():
            if seat == game.seat and game.weight_of(figure) > 0:
                if game.board.tiles[key_of(position.x, position.y)].base + segment != state.fairy:
                    out.append(MoveFairy(position, segment))
        return out

    def _fairy_owner(self, game: GameState, state: DragonState) -> int | None:
        """The seat whose follower the fairy stands next to, or ``None`` (it left, PD13)."""
        node = state.fairy
        if node is None:
            return None
        graph = game.graph
        for seat, _figure, other in graph.meeples[graph.find(node)] or ():
            if other == node:
                return seat
        return None

    def turn_start(self, game: GameState, events: list[Event]) -> None:
        """PD11: "At the beginning of your turn, if the fairy is next to one of your followers, you
        score 1 point" (W-PD2)."""
        if self._fairy_owner(game, self._state_of(game)) == game.seat:
            game.add_score(FairyScored((game.seat,), 1), events)

    def on_completed(self, game: GameState, root: int, info: FeatureInfo, events: list[Event]) -> None:
        """PD12: the follower next to the fairy in a feature scored: its owner 3 more, whatever the
        feature gives it (CAR: "independent of how much (if anything) the player otherwise receives")."""
        state = self._state_of(game)
        owner = self._fairy_owner(game, state)
        if owner is not None and state.fairy is not None and game.graph.find(state.fairy) == root:
            game.add_score(FairyScored((owner,), 3), events)

    def final_scoring(self, game: GameState) -> list[Scoring]:
        """PD12 at the end: every follower still on the board is in a feature the final scoring scores."""
        owner = self._fairy_owner(game, self._state_of(game))
        return [] if owner is None else [FairyScored((owner,), 3, True)]

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

    def deploy_anywhere(self, game: GameState) -> bool:
        """PD15: a follower may go on any tile when the tile just placed shows a magic portal."""
        tile = self._state_of(game).tile
        return tile is not None and PORTAL in tile.kind.marks

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
                if key in tiles and key not in state.path and key != state.fairy_tile]

    def snapshot(self, game: GameState) -> tuple[int | None, int, tuple[int, ...], str]:
        state = self._state_of(game)
        if state.fairy_tile is None:
            fairy = "-"
        else:
            by = self._fairy_owner(game, state) is not None and state.fairy is not None
            fairy = f"{_xy(state.fairy_tile)},{game.graph.index[state.fairy] if by else '-'}"  # type: ignore[index]
        return state.dragon, len(game.held), tuple(state.path), fairy

    def state_words(self, part: tuple[int | None, int, tuple[int, ...], str]) -> str:
        dragon, held, path, fairy = part
        where = "-" if dragon is None else _xy(dragon)
        return f" dragon={where} held={held} path={'/'.join(map(_xy, path)) or '-'} fairy={fairy}"


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
