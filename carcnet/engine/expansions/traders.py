"""Provides Traders & Builders as an expansion (``docs/rules.md``, "Traders & Builders"; played from
rules version 4 on), sources as there (ZM-TB, W-TB1, PG-B):

* **Goods**: whoever places the tile that completes a city with goods symbols takes its goods tokens,
  whoever holds the city (ZM-TB "Scoring a city with Goods symbols"); at the end, per kind of goods,
  the seats with the most tokens, at least one, score 10 each (ZM-TB "Final scoring").
* **The builder**: it goes beside its seat's follower on an incomplete road or city; a tile that
  extends that road or city gives the seat a second tile, never a third (W-TB1 "There is no chain
  reaction"); it counts for no majority and comes back when its feature is scored. From rules
  version 5 on the seat may decline the second tile (ZM-TB: "you *may* immediately draw and place
  another Land tile"): the game asks before the tile is drawn (``Phase.STEP``, the move
  :class:`~carcnet.engine.moves.SecondTile`); under rules 4 it is always drawn.
* **The pig**: it goes beside its seat's farmer; a farm scored to that seat at the end scores 1 more
  for each completed city it supplies (4 instead of 3); it counts for no majority.

Its words in the state line (``protocol/digest.md`` §3, only in a game with it): `` goods=`` (each
seat's ``wine/grain/cloth``), `` pigs=``, `` builders=`` (in supply) and `` second=`` (1 while the
tile in play is a builder's second tile); while the choice is asked, the line starts ``step
second-tile``. Its tiles are the tile list's (their goods symbols, kept by
the feature graph as features merge).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..board import PlacedTile
from ..errors import IllegalMoveError
from ..events import (
    BuilderTurn,
    Event,
    FeatureInfo,
    GoodsScored,
    GoodsTaken,
    PointsScored,
    Scoring,
    SecondTileDeclined,
)
from ..expansion import Expansion, FigureRule, GameState
from ..moves import Figure, Move, SecondTile
from ..tiles import GOODS, SegmentKind

__all__ = ["DECLINABLE_SINCE", "GOODS_POINTS", "SecondTileChoice", "TradersBuilders", "TradersState", "goods",
           "second_tile"]

_PIG, _BUILDER = Figure.PIG, Figure.BUILDER
_ROAD, _CITY, _FIELD = SegmentKind.ROAD, SegmentKind.CITY, SegmentKind.FIELD
#: What the most tokens of a kind of goods score at the end (ZM-TB "Final scoring": "the player who
#: has the most tokens scores 10 points").
GOODS_POINTS = 10
#: The rules version from which the builder's second tile may be declined.
DECLINABLE_SINCE = 5
_TAKE, _DECLINE = SecondTile(True), SecondTile(False)


class TradersState:
    """One game's goods and builder's turns.

    Attributes:
        goods: Per seat, its goods tokens ``[wine, grain, cloth]``.
        bonus: The tile just placed extended the road or city of the seat's builder: the seat draws a
            second tile when its turn ends.
        second: The tile in play is the seat's second tile of the turn (no third follows it).
        part: The last :meth:`TradersBuilders.snapshot` while nothing it holds has changed since, or
            ``None`` (a snapshot is taken after every move; the goods and figures seldom change).
        builders: Per seat, the feature-graph node its builder stands on, or ``None`` (in supply).
    """

    __slots__ = ("bonus", "builders", "goods", "part", "second")

    def __init__(self, players: int) -> None:
        self.goods: list[list[int]] = [[0, 0, 0] for _ in range(players)]
        self.bonus = False
        self.second = False
        self.part: tuple[tuple[int, ...], ...] | None = None
        self.builders: list[int | None] = [None] * players

    def copy(self) -> TradersState:
        """An independent copy (:meth:`Game.copy`)."""
        other = TradersState.__new__(TradersState)
        other.goods = [g[:] for g in self.goods]
        other.bonus, other.second, other.part = self.bonus, self.second, self.part
        other.builders = self.builders[:]
        return other


@dataclass(frozen=True, slots=True)
class SecondTileChoice:
    """The question of the builder's second tile (rules 5 on): *seat* takes it or declines it, before
    it is drawn (a :class:`~carcnet.engine.expansion.Step`)."""

    seat: int
    slot: int  # Traders & Builders' place in ``Game.ext``
    draws: ClassVar[bool] = False  # the seat answers

    def words(self) -> str:
        return "second-tile"

    def legal_moves(self, game: GameState) -> list[Move]:
        return [_TAKE, _DECLINE]

    def apply(self, game: GameState, move: Move, events: list[Event]) -> bool:
        """ZM-TB: "you may immediately draw and place another Land tile": taken, the seat draws it
        (a :class:`~carcnet.engine.events.BuilderTurn`); declined, the next seat's turn
        (:class:`~carcnet.engine.events.SecondTileDeclined`)."""
        if type(move) is not SecondTile:
            raise IllegalMoveError("wrong-phase", f"{move}: take or decline the builder's second tile first")
        assert isinstance(move, SecondTile)
        if not isinstance(move.take, bool):
            raise IllegalMoveError("bad-move", f"{move}: take must be true or false")
        if not move.take:
            events.append(SecondTileDeclined(self.seat))
            return False
        state: TradersState = game.ext[self.slot]
        state.second = True
        state.part = None
        events.append(BuilderTurn(self.seat))
        return True


class TradersBuilders(Expansion):
    """Traders & Builders: goods, the builder and its second tile, the pig."""

    name = "traders"
    title = "Traders & Builders"
    option = "traders"
    since = 4
    words = ("trader", "traders", "builder", "builders", "pig", "pigs", "goods", "wine", "grain", "cloth")
    digest_order = 40  # " goods=… pigs=… builders=… second=…" after the figures' supplies (digest.md §3)
    marked_graph = True  # a city's goods, kept as features merge
    exact_projection = True  # the goods and the pig's points are in the final scoring only
    figures = (_BUILDER, _PIG)
    step_moves = (SecondTile,)
    figure_rules = (
        FigureRule(_BUILDER, 1, order=30, kinds=frozenset({_ROAD, _CITY}),
                   wrong_kind="the builder goes on a road or city only",
                   none_left="seat {seat}'s builder is on the board", weight=0, joins=True, open_only=True,
                   wrong_place="the builder goes only on an incomplete road or city that holds one of your followers"),
        FigureRule(_PIG, 1, order=40, kinds=frozenset({_FIELD}), wrong_kind="the pig goes on a farm only",
                   none_left="seat {seat}'s pig is on the board", weight=0, joins=True,
                   wrong_place="the pig goes only on a farm that holds one of your farmers"),
    )

    def new_state(self, players: int) -> TradersState:
        return TradersState(players)

    def _state(self, game: GameState) -> TradersState:
        state = game.ext[self.slot]
        assert isinstance(state, TradersState)
        return state

    def on_tile_placed(self, game: GameState, placed: PlacedTile, seat: int | None) -> None:
        if seat is not None:
            state: TradersState = game.ext[self.slot]
            builder = state.builders[seat]
            if builder is not None and not state.second:  # the seat's builder is on the board
                state.bonus = _extends_builder(game, placed, builder)

    def on_deploy(self, game: GameState, seat: int, figure: Figure, node: int) -> None:
        state: TradersState = game.ext[self.slot]
        state.part = None  # its supply changed
        if figure is _BUILDER:
            state.builders[seat] = node

    def on_return(self, game: GameState, seat: int, figure: Figure, node: int) -> None:
        state: TradersState = game.ext[self.slot]
        state.part = None
        if figure is _BUILDER:
            state.builders[seat] = None

    def turn_end(self, game: GameState, events: list[Event]) -> bool:
        """W-TB1: a tile that extends the builder's road or city gives a second tile, "There is no chain
        reaction" (the second tile gives no third)."""
        state: TradersState = game.ext[self.slot]
        if state.bonus:
            state.bonus = False
            if self.version >= DECLINABLE_SINCE:  # the seat may decline it: asked before the draw
                game.push_step(SecondTileChoice(game.seat, self.slot))
                return False
            state.second = True
            state.part = None
            events.append(BuilderTurn(game.seat))
            return True
        if state.second:
            state.second = False
            state.part = None
        return False

    def on_completed(self, game: GameState, root: int, info: FeatureInfo, events: list[Event]) -> None:
        """ZM-TB "Scoring a city with Goods symbols": the seat that placed the tile takes the city's
        goods, whoever holds the city."""
        taken = info.goods
        if taken[0] or taken[1] or taken[2]:
            state = self._state(game)
            mine = state.goods[game.seat]
            for k in range(3):
                mine[k] += taken[k]
            state.part = None
            events.append(GoodsTaken(game.seat, taken, info))

    def farm_bonus(self, game: GameState, seats: tuple[int, ...], info: FeatureInfo,
                   figures: Sequence[tuple[int, Figure, int]]) -> list[PointsScored]:
        """The pig: its owner, scoring the farm, gets 1 more a completed city (4 instead of 3)."""
        if not info.cities:
            return []
        return [PointsScored((s,), len(info.cities), info, True, pig=True)
                for s in seats if any(seat == s and f is _PIG for seat, f, _ in figures)]

    def final_scoring(self, game: GameState) -> list[Scoring]:
        """ZM-TB "Final scoring": per kind of goods, 10 to every seat holding the most tokens of it, at
        least one (JCloisterZone: nobody scores a kind nobody holds)."""
        held = self._state(game).goods
        out: list[Scoring] = []
        for k, kind in enumerate(GOODS):
            most = max(g[k] for g in held)
            if most:
                seats = tuple(s for s, g in enumerate(held) if g[k] == most)
                out.append(GoodsScored(kind, seats, GOODS_POINTS, most))
        return out

    def snapshot(self, game: GameState) -> Any:
        state: TradersState = game.ext[self.slot]
        part = state.part
        if part is None:
            part = state.part = (*(tuple(g) for g in state.goods), tuple(game.supplies[_PIG]),
                                 tuple(game.supplies[_BUILDER]), (int(state.second),))
        return part

    def state_words(self, part: Any) -> str:
        *tokens, pigs, builders, second = part
        return (f" goods={','.join('/'.join(map(str, g)) for g in tokens)} pigs={','.join(map(str, pigs))}"
                f" builders={','.join(map(str, builders))} second={second[0]}")


def _extends_builder(game: GameState, placed: PlacedTile, builder: int) -> bool:
    """Whether *placed* joined the road or city that holds the builder standing on the graph node
    *builder*."""
    g = game.graph
    parent = g.parent
    root = g.find(builder)
    base = placed.base
    for i, kind in enumerate(placed.variant.node_kinds):
        if kind is _ROAD or kind is _CITY:
            n = base + i
            while parent[n] != n:  # FeatureGraph.find, inlined
                parent[n] = n = parent[parent[n]]
            if n == root:
                return True
    return False


def _state_of(game: GameState) -> TradersState | None:
    slot = game.expansion_slot(TradersBuilders)
    if slot is None:
        return None
    state = game.ext[slot]
    assert isinstance(state, TradersState)
    return state


def goods(game: GameState) -> list[list[int]] | None:
    """Each seat's goods tokens ``[wine, grain, cloth]`` (the game's own lists: read, never change),
    or ``None`` in a game without Traders & Builders."""
    state = _state_of(game)
    return None if state is None else state.goods


def second_tile(game: GameState) -> bool:
    """Whether the tile in play (drawn, placed or being drawn) is the seat's second tile of the turn,
    given by its builder (no third follows it); ``False`` in a game without Traders & Builders."""
    state = _state_of(game)
    return state is not None and state.second
