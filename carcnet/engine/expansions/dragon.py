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
from ..geometry import KEY_LIMIT, KEY_STRIDE, Position, key_of, position_of
from ..moves import Figure, Move, MoveDragon, MoveFairy, RemoveKnight
from ..rules import Rules
from ..tiles import SegmentKind, TileKind

__all__ = ["DRAGON", "DRAGON_STEPS", "PORTAL", "VOLCANO", "DragonMove", "DragonState", "PrincessDragon", "dragon_at"]

#: The tile marks (:attr:`~carcnet.engine.tiles.TileKind.marks`) of the dragon's tiles, the volcano
#: and the magic portal.
DRAGON, VOLCANO, PORTAL = "dragon", "volcano", "portal"
#: The dragon's steps a movement (HIG-PD: "moved exactly 6 times. It does not matter how many players
#: are playing").
DRAGON_STEPS = 6
_MEEPLE = Figure.MEEPLE


class DragonState:
    """One game's dragon.

    Attributes:
        dragon: The board key of the dragon's tile, or ``None`` (beside the board, before the first volcano).
        path: This movement's tiles, its start first (empty when the dragon is not moving).
        tile: The tile placed last by a seat.
        fairy: The feature-graph node of the follower the fairy was put next to, or ``None``.
        fairy_tile: The board key of the fairy's tile, or ``None`` (beside the board).
        offered: The fairy's moves this deploy phase offered, with its tile (:attr:`tile`) and seat,
            or ``None`` (to check a move against them by identity first).
    """

    __slots__ = ("dragon", "fairy", "fairy_tile", "offered", "path", "tile")

    def __init__(self, players: int) -> None:
        self.dragon: int | None = None
        self.path: list[int] = []
        self.tile: PlacedTile | None = None
        self.fairy: int | None = None
        self.fairy_tile: int | None = None
        self.offered: tuple[PlacedTile | None, int, tuple[Move, ...]] | None = None

    def copy(self) -> DragonState:
        """An independent copy (:meth:`Game.copy`)."""
        other = DragonState.__new__(DragonState)
        other.dragon, other.path, other.tile = self.dragon, self.path[:], self.tile
        other.fairy, other.fairy_tile = self.fairy, self.fairy_tile
        other.offered = None
        return other


@dataclass(frozen=True, slots=True)
class DragonMove:
    """One step of the dragon's movement, asked of *seat* (a :class:`~carcnet.engine.expansion.Step`):
    *targets* are the board keys of the tiles the dragon may go to (:meth:`PrincessDragon._targets`,
    found as the step is asked; nothing changes them before it is answered)."""

    seat: int
    owner: PrincessDragon
    targets: tuple[int, ...]
    draws: ClassVar[bool] = False

    def words(self) -> str:
        return "dragon"

    def legal_moves(self, game: GameState) -> list[Move]:
        made = _DRAGON_MOVES.get
        return [made(key) or _dragon_move(key) for key in self.targets]

    def apply(self, game: GameState, move: Move, events: list[Event]) -> bool:
        """PD5, PD6: the dragon goes one tile; it eats every figure there; the next seat's step, if the
        movement goes on."""
        if type(move) is not MoveDragon:
            raise IllegalMoveError("wrong-phase", f"{move}: move the dragon first")
        assert isinstance(move, MoveDragon)
        owner = self.owner
        targets = self.targets
        position = move.position
        for key in targets:
            if position_of(key) == position:
                break
        else:
            where = ", ".join(str(position_of(k)) for k in targets)
            raise IllegalMoveError("bad-dragon", f"{move}: the dragon may go to {where}")
        state: DragonState = game.ext[owner.slot]
        state.dragon = key
        state.path.append(key)
        events.append(_MOVED.get((self.seat, key)) or _moved(self.seat, key))
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

    def __init__(self, rules: Rules, version: int, slot: int) -> None:
        super().__init__(rules, version, slot)
        #: The dragon's steps asked so far, by (seat, targets): immutable values, shared by every game.
        self._steps: dict[tuple[int, tuple[int, ...]], DragonMove] = {}

    def new_state(self, players: int) -> DragonState:
        return DragonState(players)

    def _state_of(self, game: GameState) -> DragonState:
        """This game's :class:`DragonState`."""
        state = game.ext[self.slot]
        assert isinstance(state, DragonState)
        return state

    def holds(self, game: GameState, kind: TileKind) -> bool:
        """PD3: a dragon tile waits while no dragon is on the board."""
        return DRAGON in kind.marks and game.ext[self.slot].dragon is None

    def on_tile_placed(self, game: GameState, placed: PlacedTile, seat: int | None) -> None:
        """PD2: the dragon flies to a volcano as it is placed; the first brings back the held tiles."""
        if seat is None:
            return
        state = game.ext[self.slot]
        state.tile = placed
        if VOLCANO in placed.kind.marks:
            first = state.dragon is None
            state.dragon = placed.key
            if first:
                game.release_held()

    def turn_actions(self, game: GameState, out: list[Move]) -> None:
        """PD14: the tile's princess joined a city holding knights: each of them may be sent home;
        PD9: the fairy next to each follower of the seat's but the one it is next to."""
        state: DragonState = game.ext[self.slot]
        tile = state.tile
        if tile is not None and _princess_segments(tile.kind):
            out.extend(self._knights(game))
        start = len(out)
        self._fairy_into(game, state, out)
        state.offered = (tile, game.seat, tuple(out[start:]))

    def check_move(self, game: GameState, move: Move) -> None:
        if type(move) is MoveFairy:
            state: DragonState = game.ext[self.slot]
            offered = state.offered  # this deploy phase's own moves, if listed: found by identity
            if offered is not None and offered[0] is state.tile and offered[1] == game.seat:
                for listed in offered[2]:
                    if listed is move:
                        return
            if not self._fairy_allowed(game, move) and move not in self._fairy_moves(game):
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
            state = game.ext[self.slot]
            state.fairy, state.fairy_tile = node, key
            return
        game.return_figure(node, events)

    def _fairy_moves(self, game: GameState) -> list[MoveFairy]:
        """PD9: next to each follower of the seat's on the board (figures of weight > 0), but the one
        the fairy is next to, in deployment order."""
        out: list[Move] = []
        self._fairy_into(game, game.ext[self.slot], out)
        return out  # type: ignore[return-value]

    @staticmethod
    def _fairy_into(game: GameState, state: DragonState, out: list[Move]) -> None:
        """Appends :meth:`_fairy_moves` to *out*."""
        fairy = state.fairy
        seat = game.seat
        graph = game.graph
        parent, meeples, tile_of, index = graph.parent, graph.meeples, graph.tile, graph.index
        weight_of = game.weight_of
        made = _FAIRY_MOVES.get
        for node in game.figure_nodes():
            if node == fairy:
                continue
            root = node
            while parent[root] != root:  # FeatureGraph.find, inlined
                parent[root] = root = parent[parent[root]]
            for s, figure, n in meeples[root] or ():  # type: ignore[union-attr]
                if n == node and s == seat and (figure is _MEEPLE or weight_of(figure) > 0):
                    code = tile_of[node] << 5 | index[node]
                    out.append(made(code) or _fairy_move(code))

    def _fairy_allowed(self, game: GameState, move: MoveFairy) -> bool:
        """Whether *move* is one of :meth:`_fairy_moves`, found from its node alone; ``False`` also
        for a move whose position or segment is not a plain int (then the list decides)."""
        position, segment = move.position, move.segment
        if type(position) is not Position or type(position.x) is not int or type(position.y) is not int \
                or type(segment) is not int:
            return False
        x, y = position
        if not (-KEY_LIMIT <= x <= KEY_LIMIT and -KEY_LIMIT <= y <= KEY_LIMIT):
            return False
        placed = game.board.tiles.get(key_of(x, y))
        if placed is None or not 0 <= segment < len(placed.variant.segments):
            return False
        node = placed.base + segment
        if node == game.ext[self.slot].fairy:
            return False
        graph = game.graph
        return any(n == node and s == game.seat and game.weight_of(figure) > 0
                   for s, figure, n in graph.meeples[graph.find(node)] or ())

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
        node = game.ext[self.slot].fairy
        if node is None:
            return
        seat = game.seat
        graph = game.graph
        for owner, _figure, other in graph.meeples[graph.find(node)] or ():
            if other == node:  # (_fairy_owner, inlined)
                if owner == seat:
                    game.add_score(_TURN_POINT.get(seat) or _turn_point(seat), events)
                return

    def on_completed(self, game: GameState, root: int, info: FeatureInfo, events: list[Event]) -> None:
        """PD12: the follower next to the fairy in a feature scored: its owner 3 more, whatever the
        feature gives it (CAR: "independent of how much (if anything) the player otherwise receives")."""
        state = game.ext[self.slot]
        owner = self._fairy_owner(game, state)
        if owner is not None and state.fairy is not None and game.graph.find(state.fairy) == root:
            game.add_score(FairyScored((owner,), 3), events)

    def final_scoring(self, game: GameState) -> list[Scoring]:
        """PD12 at the end: every follower still on the board is in a feature the final scoring scores."""
        owner = self._fairy_owner(game, game.ext[self.slot])
        return [] if owner is None else [FairyScored((owner,), 3, True)]

    def _knights(self, game: GameState) -> list[RemoveKnight]:
        """The knights of the city the tile just placed shows the princess in (followers: figures of
        weight > 0), in the city's deployment order."""
        tile = game.ext[self.slot].tile
        if tile is None:
            return []
        graph = game.graph
        out: list[RemoveKnight] = []
        for i in _princess_segments(tile.kind):
            for seat, figure, node in graph.meeples[graph.find(tile.base + i)] or ():
                if game.weight_of(figure) > 0:
                    knight = RemoveKnight(position_of(graph.tile[node]), graph.index[node])
                    if knight not in out:
                        out.append(knight)
        return out

    def deploy_anywhere(self, game: GameState) -> bool:
        """PD15: a follower may go on any tile when the tile just placed shows a magic portal."""
        tile = game.ext[self.slot].tile
        return tile is not None and PORTAL in tile.kind.marks

    def no_deploy(self, game: GameState, key: int) -> str | None:
        """PD2, PD8: no figure on the dragon's tile (a volcano just placed is one)."""
        if key == game.ext[self.slot].dragon:
            return "no figure may go on the dragon's tile"
        return None

    def before_scoring(self, game: GameState, events: list[Event]) -> None:
        """PD2: a volcano placed this turn says where the dragon is; PD4, PD5: a dragon tile starts the
        dragon's movement, the seat whose turn it is first."""
        state = game.ext[self.slot]
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
        targets = self._targets(game) if made < DRAGON_STEPS else ()
        if targets:
            seat = (game.seat + made) % game.players
            step = self._steps.get((seat, targets))
            if step is None:
                step = self._steps[seat, targets] = DragonMove(seat, self, targets)
            game.push_step(step)
        else:
            state.path = []

    def _targets(self, game: GameState) -> tuple[int, ...]:
        """PD5: where the dragon may go now: the placed tiles beside it (north, east, south, west) it
        has not been on in this movement, as board keys."""
        state: DragonState = game.ext[self.slot]
        dragon = state.dragon
        if dragon is None:
            return ()
        tiles, path, fairy = game.board.tiles, state.path, state.fairy_tile
        return tuple([key for key in (dragon - 1, dragon + KEY_STRIDE, dragon + 1, dragon - KEY_STRIDE)
                      if key in tiles and key not in path and key != fairy])

    def snapshot(self, game: GameState) -> tuple[int | None, int, tuple[int, ...], int | None, int | None]:
        """``(dragon, held, path, fairy's tile, fairy's segment)``: board keys; the segment ``None``
        when the fairy stands next to nobody; the words written from them by :meth:`state_words`."""
        state: DragonState = game.ext[self.slot]
        tile = state.fairy_tile
        segment = None
        if tile is not None:
            node = state.fairy
            if node is not None:
                graph = game.graph
                for _seat, _figure, other in graph.meeples[graph.find(node)] or ():
                    if other == node:  # (_fairy_owner, inlined)
                        segment = graph.index[node]
                        break
        return state.dragon, len(game.held), tuple(state.path) if state.path else (), tile, segment

    def state_words(self, part: tuple[int | None, int, tuple[int, ...], int | None, int | None]) -> str:
        dragon, held, path, tile, segment = part
        where = "-" if dragon is None else _xy(dragon)
        fairy = "-" if tile is None else f"{_xy(tile)},{'-' if segment is None else segment}"
        return f" dragon={where} held={held} path={'/'.join(map(_xy, path)) or '-'} fairy={fairy}"


def _xy(key: int) -> str:
    position = position_of(key)
    return f"{position.x},{position.y}"


#: The segments showing the princess of each design met so far, by id (the same at every rotation).
_PRINCESS: dict[str, tuple[int, ...]] = {}


def _princess_segments(kind: TileKind) -> tuple[int, ...]:
    """The indices of *kind*'s city segments that show the princess."""
    found = _PRINCESS.get(kind.letter)
    if found is None:
        found = _PRINCESS[kind.letter] = tuple(i for i, seg in enumerate(kind.segments)
                                               if seg.princess and seg.kind is SegmentKind.CITY)
    return found


#: The :class:`DragonMoved` of each (seat, board key) met so far (immutable values, shared by every game).
_MOVED: dict[tuple[int | None, int], DragonMoved] = {}


def _moved(seat: int | None, key: int) -> DragonMoved:
    """Makes and remembers the :class:`DragonMoved` of *seat* to the board key *key*."""
    event = _MOVED[seat, key] = DragonMoved(seat, position_of(key))
    return event


#: The :class:`FairyScored` of the point each seat's turn begins with (immutable values, shared by every game).
_TURN_POINT: dict[int, FairyScored] = {}


def _turn_point(seat: int) -> FairyScored:
    """Makes and remembers the :class:`FairyScored` of *seat*'s point as its turn begins."""
    event = _TURN_POINT[seat] = FairyScored((seat,), 1)
    return event


#: The :class:`MoveFairy` of each ``key << 5 | segment`` met so far (immutable values, shared by every game).
_FAIRY_MOVES: dict[int, MoveFairy] = {}


def _fairy_move(code: int) -> MoveFairy:
    """Makes and remembers the :class:`MoveFairy` of ``key << 5 | segment``."""
    move = _FAIRY_MOVES[code] = MoveFairy(position_of(code >> 5), code & 31)
    return move


#: The :class:`MoveDragon` to each board key met so far (immutable values, shared by every game).
_DRAGON_MOVES: dict[int, MoveDragon] = {}


def _dragon_move(key: int) -> MoveDragon:
    """Makes and remembers the :class:`MoveDragon` to the board key *key*."""
    move = _DRAGON_MOVES[key] = MoveDragon(position_of(key))
    return move


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
