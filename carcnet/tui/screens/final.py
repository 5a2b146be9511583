"""Provides the final-scoring screen and the "if the game ended now" projection: each seat's points
by feature kind, during the game and at the end, and the winner (HiG "Final scoring"); the final
screen draws every seat's score over the game below the table. :func:`final_position` is the game
over as a board draws it: every figure that stood on the board when the last tile was played."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, cast

from rich import box
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from carcnet.engine import CATEGORIES, Figure, Game, GoodsScored, MeepleReturned, Phase, PointsScored, Position
from carcnet.i18n import N_, _, joined, listed, ngettext
from carcnet.tui.words import variant_words
from carcnet.tui.widgets.chart import ScoreChart, score_history
from carcnet.tui.widgets.footer import KeyFooter
from carcnet.tui.widgets.palette import seat_style

__all__ = ["FinalScreen", "ProjectionScreen", "final_figures", "final_position", "score_table"]

#: The score table's column headings, by feature kind (in English: shown with ``_()``).
_LABELS = {"road": N_("Roads"), "city": N_("Cities"), "cloister": N_("Cloisters"), "garden": N_("Gardens"),
           "field": N_("Farms"), "goods": N_("Goods"), "sheep": N_("Sheep"),
           "fairy": N_("Fairy")}


def final_figures(game: Game) -> list[tuple[int, Figure, Position, int]]:
    """The figures on the board of *game* when its last tile was played, as
    :meth:`Game.figures` gives them (``(seat, figure, position, segment)``): at ``GAME_OVER`` the
    final scoring returned every figure but the farmers to its supply (HB "Final scoring"), and
    those come back from the :class:`MeepleReturned` events that follow the final scoring's events
    (:class:`PointsScored`, then with Traders & Builders :class:`GoodsScored`: before, only the
    farmers stayed on the board of such a game); before the end, :meth:`Game.figures` itself."""
    figures = game.figures()
    if game.phase is not Phase.GAME_OVER:
        return figures
    events = game.events
    i = len(events) - 1
    while i >= 0 and not isinstance(events[i], MeepleReturned | PointsScored):
        i -= 1  # the game's end
    returned: list[MeepleReturned] = []
    while i >= 0 and isinstance(events[i], MeepleReturned):
        returned.append(events[i])  # type: ignore[arg-type]
        i -= 1
    last = events[i] if i >= 0 else None
    if not (isinstance(last, PointsScored | GoodsScored) and last.final):
        return figures  # no final scoring of a feature: those were returned in play
    back = [(e.seat, e.figure, e.position, e.segment) for e in reversed(returned)]
    return back + [f for f in figures if f not in back]


class _FinalPosition:
    """*game* as a board reads it, with :meth:`figures` those of :func:`final_figures`; anything
    else is *game*'s own."""

    __slots__ = ("_figures", "_game")

    def __init__(self, game: Game) -> None:
        self._game = game
        self._figures = final_figures(game)

    def figures(self) -> list[tuple[int, Figure, Position, int]]:
        return list(self._figures)

    def __getattr__(self, name: str) -> object:
        return getattr(self._game, name)


def final_position(game: Game) -> Game:
    """What a board draws of *game*: at ``GAME_OVER`` the final position with every figure that was
    on the board before the final scoring (as JCloisterZone draws it; the scores and supplies are
    the game's), else *game* itself. Nothing of *game* changes."""
    if game.phase is not Phase.GAME_OVER:
        return game
    return cast(Game, _FinalPosition(game))


def score_table(
    names: list[str], colours: list[str], breakdown: list[dict[str, list[int]]], totals: list[int],
    winners: tuple[int, ...], variants: Sequence[str] = (),
) -> Table:
    """A table: one row per seat (best first), one column per feature kind with "in play + final";
    the caption names the scoring *variants* in play, in words
    (:func:`~carcnet.tui.words.variant_words`)."""
    shown = [c for c in CATEGORIES if any(sum(b.get(c, (0, 0))) for b in breakdown)] or [
        "road", "city", "cloister", "field"]
    # no vertical rules: 60 columns hold every heading of six columns whole
    table = Table(expand=False, header_style="bold", pad_edge=False, box=box.SIMPLE_HEAD, show_edge=False,
                  collapse_padding=True)
    # a narrow table wraps the names, never cuts a column's heading or a score
    table.add_column("", no_wrap=True, min_width=1)
    table.add_column(_("Player"), overflow="fold", min_width=6)
    for c in shown:
        label = _(_LABELS[c])
        table.add_column(label, justify="right", no_wrap=True, min_width=len(label))
    table.add_column(_("Total"), justify="right", style="bold", no_wrap=True, min_width=5)
    for seat in sorted(range(len(names)), key=lambda s: (-totals[s], s)):
        cells = []
        for c in shown:
            during, final = breakdown[seat][c]
            cell = Text(str(during))
            if final:
                cell.append(f" + {final}", style="italic")
            cells.append(cell)
        mark = "★" if seat in winners else ""
        table.add_row(mark, Text(names[seat], style=seat_style(colours[seat])), *cells, str(totals[seat]))
    table.caption = "; ".join([_("a + b: a points during the game, b in the final scoring"), *variants])
    return table


class _ScoresModal(ModalScreen[str | None]):
    """A framed score table over the board, for *game* with seats *names* and *colours*."""


    def __init__(self, game: Game, names: list[str], colours: list[str]) -> None:
        super().__init__()
        self.game = game
        self.names = names
        self.colours = colours


class FinalScreen(_ScoresModal):
    """The final scores with each seat's breakdown and the winner(s). Escape shows the board again
    (dismissed with ``None``); Enter or ``m`` asks for the menu (dismissed with ``"menu"``: the game
    screen under it leaves); ``v`` asks for the review of the game (dismissed with ``"review"``: the
    replay opens and reviews it)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "board", N_("Look at the board")),
        Binding("enter,m", "menu", N_("Menu")),
        Binding("v", "review", N_("Review the game")),
    ]
    """Escape: back to the final board; Enter or m: the menu; v: the review."""

    def compose(self) -> ComposeResult:
        game = self.game
        points = max(game.scores)
        if len(game.winners) > 1:
            # Translators: {winners} is a list of the players who tie for the win ("Ann and Bob")
            line = ngettext("{winners} win with {points} point!", "{winners} win with {points} points!", points)
        else:
            # Translators: {winners} is the winner's name
            line = ngettext("{winners} wins with {points} point!", "{winners} wins with {points} points!", points)
        winners = listed([self.names[s] for s in game.winners])
        with Vertical():
            yield Static(Text(line.format(winners=winners, points=points)), id="winner")
            yield Static(score_table(self.names, self.colours, game.breakdown, game.scores, game.winners,
                                     variant_words(game.setup.rules)), id="table")
            yield ScoreChart(self.names, self.colours, history=score_history(game), id="chart")
        yield KeyFooter()

    def action_board(self) -> None:
        self.dismiss(None)

    def action_menu(self) -> None:
        self.dismiss("menu")

    def action_review(self) -> None:
        self.dismiss("review")


class ProjectionScreen(_ScoresModal):
    """What each seat would score if the game ended now: the current score plus the final scoring of
    every incomplete feature and farm (``Game.projected_final``)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,p,enter", "close", N_("Close"))]
    """Escape, p or Enter closes."""

    def compose(self) -> ComposeResult:
        game = self.game
        totals, _events = game.projected_final()
        best = max(totals)
        leaders = tuple(s for s in range(game.players) if totals[s] == best)
        title = _("Final scores") if game.phase is Phase.GAME_OVER else _("If the game ended now")
        variants = variant_words(game.setup.rules)
        if variants:
            # Translators: {title} is "Final scores" or "If the game ended now"; {variants} lists the
            # scoring variants in play ("small cities, first-edition farms")
            title = _("{title} ({variants})").format(
                title=title, variants=joined(variants))
        with Vertical():
            yield Static(Text(title, style="bold"))
            yield Static(score_table(self.names, self.colours, game.projected_breakdown(), totals, leaders))
        yield KeyFooter()

    def action_close(self) -> None:
        self.dismiss(None)
