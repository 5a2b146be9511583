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
    FlockScored,
    GameEnded,
    GoodsScored,
    GoodsTaken,
    MeepleDeployed,
    MeepleReturned,
    PointsScored,
    SeatHandedBack,
    SeatHandedOver,
    SecondTileDeclined,
    SegmentKind,
    TilePlaced,
    TileSetAside,
    TokenDrawn,
)
from carcnet.engine.tiles import GOODS
from carcnet.i18n import _, joined, ngettext
from carcnet.tui.parts import face
from carcnet.tui.render import figure_role, role_name
from carcnet.tui.words import bot_words, chained, goods_words, kind_words, score_words, tile_words, where_words

from .palette import seat_style, styled

__all__ = ["GameLog", "describe_event"]


def _deployed(figure: Figure, kind: SegmentKind) -> str:
    """The message of a figure deployed on a feature of *kind*: ``{player} deployed a knight on the
    city`` (its face's words, :mod:`carcnet.tui.parts`)."""
    shown = face(figure)
    said = shown.deployed.get(kind)
    if said is not None:
        return said()
    role = role_name(figure_role(kind, figure))
    if shown.in_log is not None:
        role = shown.in_log(role)
    # Translators: a line of the game log; {player}: a seat's name, {figure}: "a knight", "the pig";
    # {feature}: a feature's kind ("city")
    return _("{player} deployed {figure} on the {feature}").replace("{figure}", role).replace(
        "{feature}", kind_words(kind))


def _token_line(event: TokenDrawn, names: list[str]) -> Text:
    """The line of a token drawn from the sheep bag (Hills & Sheep): ``Ann's shepherd finds 3 sheep``,
    or the wolf's."""
    if event.token == "W":
        # Translators: a line of the game log (Hills & Sheep): the wolf drawn from the sheep bag scatters
        # the flocks of the field; {player}: a seat's name
        return styled(_("A wolf! {player}'s flock scatters"), "bold", player=Text(names[event.seat]))
    count = int(event.token)
    # Translators: a line of the game log (Hills & Sheep): a token drawn from the sheep bag; {player}: a
    # seat's name, {count}: the sheep on the token (1 to 4, digits)
    said = ngettext("{player}'s shepherd finds {count} sheep", "{player}'s shepherd finds {count} sheep", count)
    return styled(said, player=Text(names[event.seat]), count=str(count))


def _named(seat: int, names: list[str], colours: list[str]) -> Text:
    """A seat's name in its colour."""
    return Text(names[seat], style=seat_style(colours[seat]))


def _said_by(line: Text, seat: int, colours: list[str]) -> Text:
    """*line*, a seat's line, in the seat's colour (its own styles over it)."""
    line.style = seat_style(colours[seat])
    return line


def describe_event(event: Event, names: list[str], colours: list[str]) -> Text | None:
    """One log line for *event*, or ``None`` for events not worth a line (draws, returns)."""
    if isinstance(event, TilePlaced):
        if event.seat is None:
            return Text(_("The start tile is placed"), style="dim")
        # Translators: a line of the game log; {player}: a seat's name, {where}: "in the north-west",
        # "just south of the start tile" (the board shows which tile)
        line = styled(_("{player} placed a tile {where}"), player=Text(names[event.seat]),
                      where=where_words(event.position))
        return _said_by(line, event.seat, colours)
    if isinstance(event, MeepleDeployed):
        line = styled(_deployed(event.figure, event.kind), player=Text(names[event.seat]))
        return _said_by(line, event.seat, colours)
    if isinstance(event, BuilderTurn):
        # Translators: a line of the game log (Traders & Builders); {player}: a seat's name
        line = styled(_("{player} extended their builder's feature: a second tile this turn"), "bold",
                      player=Text(names[event.seat]))
        return _said_by(line, event.seat, colours)
    if isinstance(event, SecondTileDeclined):
        # Translators: a line of the game log (Traders & Builders); {player}: a seat's name
        line = styled(_("{player} leaves the second tile their builder gives"), player=Text(names[event.seat]))
        return _said_by(line, event.seat, colours)
    if isinstance(event, GoodsTaken):
        taken = joined(goods_words(kind, n) for n, kind in zip(event.goods, GOODS, strict=True) if n)
        # Translators: a line of the game log (Traders & Builders); {player}: a seat's name, {goods}: the
        # tokens taken ("1 wine, 2 cloth")
        line = styled(_("{player} completed the city and takes its goods: {goods}"), player=Text(names[event.seat]),
                      goods=taken)
        return _said_by(line, event.seat, colours)
    if isinstance(event, TokenDrawn):
        return _said_by(_token_line(event, names), event.seat, colours)
    if isinstance(event, MeepleReturned) and event.figure is Figure.SHEPHERD:  # (other returns say nothing)
        # Translators: a line of the game log (Hills & Sheep); {player}: a seat's name
        line = styled(_("{player}'s shepherd goes back to their supply"), player=Text(names[event.seat]))
        return _said_by(line, event.seat, colours)
    if isinstance(event, PointsScored | GoodsScored | FlockScored):
        players = _named(event.seats[0], names, colours)
        for seat in event.seats[1:]:
            players = styled(_("{list} and {last}"), list=players, last=_named(seat, names, colours))
        # Translators: a line of the game log; {players}: who scored ("Ann", "Ann and Bob"), {score}: what
        # and why ("+8: city, 3 tiles, 1 pennant")
        line = styled(_("{players} {score}"), "bold", players=players, score=score_words(event))
        if event.final:
            # Translators: after a line of the game log: the final scoring's
            line.append(" " + _("(final)"), style="dim")
        return line
    if isinstance(event, TileSetAside):
        # Translators: a line of the game log; {tile}: what the tile shows ("a tile with a city"),
        # {player}: a seat's name
        said = _("{tile} fits nowhere: set aside; {player} draws again").format(
            tile=tile_words(event.tile), player=names[event.seat])
        return Text(said[:1].upper() + said[1:], style="italic")
    if isinstance(event, SeatHandedOver):
        # Translators: a line of the game log; {player}: the seat's name, {bot}: "a greedy bot", {by}: the
        # player whose laptop runs the bot
        line = styled(_("{player}'s seat goes to {bot}, run by {by}"), "italic", player=Text(names[event.seat]),
                      bot=bot_words(event.bot), by=names[event.by])
        return _said_by(line, event.seat, colours)
    if isinstance(event, SeatHandedBack):
        # Translators: a line of the game log; {player}: a seat's name
        line = styled(_("{player} is back and plays their seat again"), "italic", player=Text(names[event.seat]))
        return _said_by(line, event.seat, colours)
    if isinstance(event, GameEnded):
        winners = chained([names[s] for s in event.winners])
        # Translators: the game log's last line; {winners}: "Ann", "Ann and Bob"
        said = ngettext("Game over: {winners} wins", "Game over: {winners} win", len(event.winners))
        return Text(said.format(winners=winners), style="bold reverse")
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
