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
from carcnet.i18n import pgettext

from .palette import seat_hex

__all__ = ["ScoreChart", "ScoreHistory", "integer_ticks", "score_history"]

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


def integer_ticks(top: int, most: int = 6) -> list[int]:
    """At most *most* ticks from 0 to at least *top*, a round step apart (1, 2 or 5 times a power of
    ten): an axis of whole points or turns, never ``17.8``.

    >>> integer_ticks(83), integer_ticks(71), integer_ticks(3), integer_ticks(0)
    ([0, 20, 40, 60, 80, 100], [0, 20, 40, 60, 80], [0, 1, 2, 3], [0, 1])
    """
    top = max(top, 1)
    step = 1
    while True:  # bounded: the step grows tenfold every three rounds
        for factor in (1, 2, 5):
            if -(-top // (step * factor)) + 1 <= most:
                step *= factor
                return list(range(0, -(-top // step) * step + 1, step))
        step *= 10


class ScoreChart(PlotextPlot):
    """Every seat's score after each turn (x: turns), in the seats' colours, with an optional mark at
    one turn: drawn once mounted when made with a *history*, and by :meth:`show` after."""

    DEFAULT_CSS = """
    ScoreChart { height: 1fr; min-height: 8; }
    """

    def __init__(
        self, names: Sequence[str], colours: Sequence[str], *, history: ScoreHistory | None = None,
        marked: int | None = None, id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self._names = list(names)
        self._colours = list(colours)
        self.history = history
        self.marked = marked
        #: ``(turn, seat)`` of a review's marked turns, drawn as an ``x`` (:meth:`show`).
        self.reviewed: list[tuple[int, int]] = []

    def on_mount(self) -> None:
        # drawn by the chart itself once mounted: a screen that looked it up from its own on_mount
        # found none when the app was closing as it came up
        if self.history is not None:
            self.show(self.history, self.marked)

    def on_resize(self) -> None:
        if self.history is not None:  # the ticks are chosen for the room the plot has
            self.show(self.history, self.marked)

    def show(self, history: ScoreHistory, marked: int | None = None,
             reviewed: Sequence[tuple[int, int]] | None = None) -> None:
        """Draws *history*; *marked* (a turn) gets a vertical line (the replay's current move);
        *reviewed*, ``(turn, seat)`` pairs (a review's marked turns), an ``x`` on the seat's line
        at that turn, in its colour (kept for later redraws when given).

        Both axes count whole turns and points from 0 (the turns as the replay and ``carcnet
        replay`` number them), with room above the highest score, so that every line stays inside
        the plot."""
        self.history = history
        self.marked = marked
        if reviewed is not None:
            self.reviewed = list(reviewed)
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        turns = list(range(len(history.scores)))
        for seat, name in enumerate(self._names):
            colour = Color.parse(seat_hex(self._colours[seat]) or self._colours[seat])
            plt.plot(turns, [s[seat] for s in history.scores], label=name, color=colour.rgb, marker="braille")
        for seat in range(len(self._names)):
            turns_marked = [t for t, s in self.reviewed if s == seat and 0 <= t < len(history.scores)]
            if turns_marked:
                colour = Color.parse(seat_hex(self._colours[seat]) or self._colours[seat])
                plt.scatter(turns_marked, [history.scores[t][seat] for t in turns_marked], marker="x",
                            color=colour.rgb)
        if marked is not None:
            plt.vline(marked, "white")
        last = max(1, len(turns) - 1)
        top = max((max(s) for s in history.scores), default=0)
        width, height = self.size
        # as many ticks as the plot has room for: plotext drops the ones that do not fit, unevenly
        x_most = max(2, min(8, (width - 8) // 8)) if width else 7
        y_most = max(2, min(6, (height - 4) // 2)) if height else 6
        x_ticks, y_ticks = integer_ticks(last, x_most), integer_ticks(top + 1, y_most)
        plt.xlim(0, last)
        plt.ylim(0, y_ticks[-1])
        plt.xticks([float(t) for t in x_ticks if t <= last], [str(t) for t in x_ticks if t <= last])
        plt.yticks([float(t) for t in y_ticks], [str(t) for t in y_ticks])
        # Translators: the score chart's axes: the turns played, and the score
        plt.xlabel(pgettext("score chart", "turn"))
        plt.ylabel(pgettext("score chart", "points"))
        self.refresh()
