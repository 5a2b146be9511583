"""Provides the score chart: every seat's score over the game, one line per seat in its
colour, drawn with textual-plotext; on the replay screen (``s``, with the move shown marked) and on
the final-scores screen.

:func:`score_history` replays the game's moves once (about 1 ms for a whole game) and records the
scores after every turn; the chart only draws it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from textual.color import Color
from textual_plotext import PlotextPlot

from carcnet.engine import DeployMeeple, Game, Move, ReturnAbbot, SkipMeeple

from .palette import seat_hex

__all__ = ["ScoreChart", "ScoreHistory", "score_history"]

_TURN_ENDS = (DeployMeeple, SkipMeeple, ReturnAbbot)


@dataclass(frozen=True, slots=True)
class ScoreHistory:
    """Every seat's score after each turn.

    Attributes:
        moves: For each point, the number of moves played (an index into the game's moves + 1).
        scores: For each point, the scores in seat order; point 0 is the start (all 0), the last one
            is after the final scoring when the game is over.
    """

    moves: tuple[int, ...]
    scores: tuple[tuple[int, ...], ...]

    def turn_at(self, moves: int) -> int:
        """The number of whole turns played after *moves* moves (the chart's x)."""
        return sum(1 for m in self.moves[1:] if m <= moves)


def score_history(game: Game, moves: Sequence[Move] | None = None) -> ScoreHistory:
    """Replays *moves* (default: the game's) from the game's setup and records the scores after each
    turn (a deployment, a skip or a recall ends one)."""
    replayed = Game(game.setup)
    points = [0]
    scores = [tuple(replayed.scores)]
    for i, move in enumerate(game.moves if moves is None else moves, start=1):
        replayed.apply(move)
        if isinstance(move, _TURN_ENDS):
            points.append(i)
            scores.append(tuple(replayed.scores))
    return ScoreHistory(tuple(points), tuple(scores))


class ScoreChart(PlotextPlot):
    """Every seat's score after each turn (x: turns), in the seats' colours, with an optional mark at
    one turn. Call :meth:`show` to draw."""

    DEFAULT_CSS = """
    ScoreChart { height: 1fr; min-height: 8; }
    """

    def __init__(self, names: Sequence[str], colours: Sequence[str], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._names = list(names)
        self._colours = list(colours)
        self.history: ScoreHistory | None = None
        self.marked: int | None = None

    def show(self, history: ScoreHistory, marked: int | None = None) -> None:
        """Draws *history*; *marked* (a turn) gets a vertical line (the replay's current move)."""
        self.history = history
        self.marked = marked
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        turns = list(range(len(history.scores)))
        for seat, name in enumerate(self._names):
            colour = Color.parse(seat_hex(self._colours[seat]) or self._colours[seat])
            plt.plot(turns, [s[seat] for s in history.scores], label=name, color=colour.rgb, marker="braille")
        if marked is not None:
            plt.vline(marked, "white")
        plt.xlabel("turn")
        plt.ylabel("points")
        self.refresh()
