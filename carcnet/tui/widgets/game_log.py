"""Provides the game log panel: one line per placement and deployment, and one per scoring that
says why ("Red +8: city, 3 tiles, 1 pennant")."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual.widgets import RichLog

from carcnet.engine import (
    BuilderTurn,
    Event,
    Figure,
    GameEnded,
    GoodsScored,
    GoodsTaken,
    MeepleDeployed,
    PointsScored,
    SeatHandedBack,
    SeatHandedOver,
    TilePlaced,
    TileSetAside,
)
from carcnet.engine.tiles import GOODS
from carcnet.tui.render import figure_role, with_article
from carcnet.tui.words import tile_words, where_words

from .palette import seat_style

__all__ = ["GameLog", "describe_event"]


def describe_event(event: Event, names: list[str], colours: list[str]) -> Text | None:
    """One log line for *event*, or ``None`` for events not worth a line (draws, returns)."""
    if isinstance(event, TilePlaced):
        if event.seat is None:
            return Text("The start tile is placed", style="dim")
        line = Text(names[event.seat], style=seat_style(colours[event.seat]))
        line.append(f" placed a tile {where_words(event.position)}")  # the board shows which
        return line
    if isinstance(event, MeepleDeployed):
        line = Text(names[event.seat], style=seat_style(colours[event.seat]))
        role = with_article(figure_role(event.kind, event.figure))
        if event.figure is Figure.LARGE:  # Inns & Cathedrals
            role = f"the large meeple as {role}"
        elif event.figure is Figure.BUILDER or event.figure is Figure.PIG:  # Traders & Builders
            role = f"the {event.figure.value}"
        line.append(f" deployed {role} on the {event.kind.label}")
        return line
    if isinstance(event, BuilderTurn):
        line = Text(names[event.seat], style=seat_style(colours[event.seat]))
        line.append(" extended their builder's feature: a second tile this turn", style="bold")
        return line
    if isinstance(event, GoodsTaken):
        line = Text(names[event.seat], style=seat_style(colours[event.seat]))
        taken = ", ".join(f"{n} {kind}" for n, kind in zip(event.goods, GOODS, strict=True) if n)
        line.append(f" completed the city and takes its goods: {taken}")
        return line
    if isinstance(event, PointsScored | GoodsScored):
        line = Text()
        for i, seat in enumerate(event.seats):
            if i:
                line.append(" and ")
            line.append(names[seat], style=seat_style(colours[seat]))
        line.append(f" {event.describe()}", style="bold")
        if event.final:
            line.append(" (final)", style="dim")
        return line
    if isinstance(event, TileSetAside):
        words = tile_words(event.tile)
        return Text(f"{words[0].upper()}{words[1:]} fits nowhere: set aside; {names[event.seat]} draws again",
                    style="italic")
    if isinstance(event, SeatHandedOver):
        line = Text(names[event.seat], style=seat_style(colours[event.seat]))
        line.append(f"'s seat goes to {with_article(event.bot + ' bot')}, run by {names[event.by]}", style="italic")
        return line
    if isinstance(event, SeatHandedBack):
        line = Text(names[event.seat], style=seat_style(colours[event.seat]))
        line.append(" is back and plays their seat again", style="italic")
        return line
    if isinstance(event, GameEnded):
        winners = " and ".join(names[s] for s in event.winners)
        return Text(f"Game over: {winners} {'win' if len(event.winners) > 1 else 'wins'}", style="bold reverse")
    return None


class GameLog(RichLog):
    """The log panel. :meth:`add` writes the lines of a move's events."""

    DEFAULT_CSS = """
    GameLog { height: 1fr; border-top: solid $panel-lighten-2; scrollbar-size-vertical: 1; overflow-x: hidden;
              scrollbar-gutter: stable; }
    """

    def __init__(self, names: list[str], colours: list[str], *, id: str | None = None) -> None:
        # min_width: RichLog renders lines at least 78 cells wide by default, wider than the panel
        super().__init__(wrap=True, markup=False, highlight=False, min_width=10, id=id)
        self._names = names
        self._colours = colours

    def add(self, events: Iterable[Event]) -> None:
        for event in events:
            line = describe_event(event, self._names, self._colours)
            if line is not None:
                self.write(line)
