"""Provides the bot interface: a player's view in, one legal move out."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from carcnet.engine import Game, Move, PlaceTile, PlayerView


class Bot(Protocol):
    """Chooses a move for the seat whose turn it is, from what that seat's player knows: a
    :class:`~carcnet.engine.PlayerView` (``game.view()``), which holds the board, scores, supplies,
    the drawn tile and the bag's contents, never the order of the tiles face down."""

    name: str

    def choose(self, view: PlayerView) -> Move:
        """A legal move for ``view.seat`` in ``view.game.phase``. Must not change ``view.game``."""
        ...


@runtime_checkable
class Capped(Protocol):
    """A bot whose think time per turn can be capped (the search bot): *time_cap* in seconds, or
    ``None`` for its own budget alone, counted from *started* (on the bot's clock,
    :func:`time.perf_counter`) when set: when the table asked for the move."""

    time_cap: float | None
    started: float | None


class TurnPlan:
    """A bot's placement and the follow-up it chose with it, kept from the placement phase to the
    deploy phase of the same game, and given back only if that turn is still the one it planned for
    (a view shares its game's list of moves, so the plan survives the fresh view of the next call)."""

    __slots__ = ("_plan",)

    def __init__(self) -> None:
        self._plan: tuple[int, int, PlaceTile, Move] | None = None

    def keep(self, game: Game, place: PlaceTile, follow: Move) -> PlaceTile:
        """Remembers *follow* for after *place* in *game*; returns *place*."""
        self._plan = (id(game.moves), len(game.moves) + 1, place, follow)
        return place

    def take(self, game: Game) -> Move | None:
        """The planned follow-up if *game* is in the deploy phase right after the planned placement
        and the follow-up is still legal; else ``None`` (a seat taken over mid-turn). Forgets it."""
        plan, self._plan = self._plan, None
        if (
            plan is not None
            and plan[0] == id(game.moves)
            and plan[1] == len(game.moves)
            and game.moves[-1] == plan[2]
            and plan[3] in game.legal_moves()
        ):
            return plan[3]
        return None
