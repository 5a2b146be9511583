"""Provides The Abbot as an expansion (Z14 "The Abbot"; ``docs/rules.md``): where each seat's abbot
stands, the recall (instead of deploying, a player may take the abbot back and score its cloister or
garden at once, as the final scoring would: 1 a tile, its own and each placed neighbour; the abbot
returns to the supply), and its words in the state line (``protocol/digest.md`` §3: ``abbots=``, the
abbots in supply, only in a game with The Abbot). The abbot is a figure
the core deploys as it does a meeple (its :class:`~carcnet.engine.expansion.FigureRule`); the gardens,
a kind of segment, are the tile list's and the core's.
"""

from __future__ import annotations

from ..errors import IllegalMoveError
from ..events import Event
from ..expansion import Expansion, FigureRule, GameState
from ..geometry import Position, position_of
from ..moves import Figure, Move, ReturnAbbot
from ..scoring import feature_value
from ..tiles import SegmentKind

__all__ = ["ABBOTS_PER_PLAYER", "Abbot", "AbbotState", "abbot_at"]

_ABBOT = Figure.ABBOT
#: Abbots each player has (Z14 "The Abbot": "Each player receives the abbot in their color").
ABBOTS_PER_PLAYER = 1


class AbbotState:
    """One game's abbots on the board: per seat, the feature-graph node its abbot stands on, or
    ``None`` (in supply); and its recall, the move offered while it stands there (made once, when it
    is deployed)."""

    __slots__ = ("nodes", "recalls")

    def __init__(self, players: int) -> None:
        self.nodes: list[int | None] = [None] * players
        self.recalls: list[ReturnAbbot | None] = [None] * players

    def copy(self) -> AbbotState:
        """An independent copy (:meth:`Game.copy`)."""
        other = AbbotState.__new__(AbbotState)
        other.nodes = self.nodes[:]
        other.recalls = self.recalls[:]  # moves are immutable
        return other


class Abbot(Expansion):
    """The Abbot (Z14): the abbot on a cloister or a garden; instead of deploying, its recall, scored
    at once as the final scoring would."""

    name = "abbot"
    title = "The Abbot"
    option = "abbot"
    words = ("abbot", "abbots", "garden", "gardens")
    digest_order = 20  # " abbots=…" right after supply= (digest.md §3)
    figures = (_ABBOT,)
    figure_rules = (
        FigureRule(_ABBOT, ABBOTS_PER_PLAYER, order=20, kinds=frozenset({SegmentKind.CLOISTER, SegmentKind.GARDEN}),
                   wrong_kind="the abbot goes on a cloister or garden only",
                   none_left="seat {seat}'s abbot is on the board", word="abbots"),
    )
    moves = (ReturnAbbot,)
    off_reason = "no-abbot"

    def new_state(self, players: int) -> AbbotState:
        return AbbotState(players)

    def _nodes(self, game: GameState) -> list[int | None]:
        state = game.ext[self.slot]
        assert isinstance(state, AbbotState)
        return state.nodes

    def on_deploy(self, game: GameState, seat: int, figure: Figure, node: int) -> None:
        state: AbbotState = game.ext[self.slot]
        state.nodes[seat] = node
        state.recalls[seat] = ReturnAbbot(position_of(game.graph.tile[node]))

    def on_return(self, game: GameState, seat: int, figure: Figure, node: int) -> None:
        state: AbbotState = game.ext[self.slot]
        state.nodes[seat] = None
        state.recalls[seat] = None

    def turn_actions(self, game: GameState, out: list[Move]) -> None:
        recall = game.ext[self.slot].recalls[game.seat]
        if recall is not None:  # the seat's abbot is on the board: it may be recalled
            out.append(recall)

    def check_move(self, game: GameState, move: Move) -> None:
        assert isinstance(move, ReturnAbbot)
        seat = game.seat
        node = self._nodes(game)[seat]
        if node is None:
            raise IllegalMoveError("no-abbot", f"{move}: seat {seat}'s abbot is not on the board")
        where = position_of(game.graph.tile[node])
        if where != move.position:
            raise IllegalMoveError("no-abbot", f"{move}: seat {seat}'s abbot is at {where}")

    def apply_move(self, game: GameState, move: Move, events: list[Event]) -> None:
        """Z14 "The Abbot": the abbot's cloister or garden scores now as in the final scoring (1 + 1 a
        placed neighbour), to its seat; the abbot returns to the supply."""
        seat = game.seat
        node = self._nodes(game)[seat]
        assert node is not None  # (check_move)
        info = game.feature_info(game.graph.find(node))
        points = feature_value(info, final=True)
        game.award((seat,), points, info, events)
        game.return_figure(node, events)


def abbot_at(game: GameState, seat: int) -> Position | None:
    """Where *seat*'s abbot stands, or ``None`` (in supply, or a game without The Abbot). Constant time."""
    slot = game.expansion_slot(Abbot)
    if slot is None:
        return None
    state = game.ext[slot]
    assert isinstance(state, AbbotState)
    node = state.nodes[seat]
    return None if node is None else position_of(game.graph.tile[node])
