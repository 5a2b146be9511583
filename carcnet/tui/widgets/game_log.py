"""Provides the game log panel: one line per placement and deployment, and one per scoring that
says why ("Red +8: city, 3 tiles, 1 pennant"); The Princess & the Dragon's dragon moved, the figures it
eats, the knights the princess sends home and the tiles held aside before the first volcano."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from rich.text import Text
from textual.widgets import RichLog

from carcnet.engine import (
    BuilderTurn,
    DragonMoved,
    Event,
    FairyScored,
    Figure,
    FlockScored,
    GameEnded,
    GoodsScored,
    GoodsTaken,
    MeepleDeployed,
    MeepleReturned,
    PointsScored,
    Position,
    SeatHandedBack,
    SeatHandedOver,
    SecondTileDeclined,
    SegmentKind,
    TileHeld,
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

__all__ = ["GameLog", "LogContext", "describe_event", "log_context"]


class LogContext(NamedTuple):
    """What the log has seen that tells the next event (The Princess & the Dragon).

    Attributes:
        dragon: Where the dragon is, as the log has seen it (for the direction of its next step).
        after: ``"eats"`` right after the dragon moved (the figures returned next are eaten);
            ``"placed"`` right after a tile was placed (a figure returned next is a knight the
            princess sends home); ``""`` otherwise.
    """

    dragon: Position | None = None
    after: str = ""


def log_context(context: LogContext, event: Event) -> LogContext:
    """*context* after *event*."""
    if isinstance(event, DragonMoved):
        return LogContext(event.position, "eats" if event.seat is not None else "")
    if isinstance(event, TilePlaced):
        return LogContext(context.dragon, "placed")
    if isinstance(event, MeepleReturned) and context.after == "eats":
        return context
    return LogContext(context.dragon) if context.after else context


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


def _dragon_line(event: DragonMoved, names: list[str], before: Position | None) -> Text:
    """The line of the dragon moved (The Princess & the Dragon): to a volcano just placed, or a step by
    a seat, told by its direction from *before* (where it was) when the log knows it."""
    if event.seat is None:
        # Translators: a line of the game log (The Princess & the Dragon): a volcano was placed; {where}: as in
        # "Ann placed a tile {where}" ("just north of the start tile")
        return styled(_("The dragon flies to the volcano {where}"), "bold", where=where_words(event.position))
    player = Text(names[event.seat])
    step = None if before is None else (event.position.x - before.x, event.position.y - before.y)
    said = {
        # Translators: a line of the game log (The Princess & the Dragon): a player moved the dragon one tile
        # (north: up on the board); {player}: a seat's name
        (0, -1): _("{player} moves the dragon north"),
        # Translators: a line of the game log (The Princess & the Dragon); {player}: a seat's name
        (1, 0): _("{player} moves the dragon east"),
        # Translators: a line of the game log (The Princess & the Dragon); {player}: a seat's name
        (0, 1): _("{player} moves the dragon south"),
        # Translators: a line of the game log (The Princess & the Dragon); {player}: a seat's name
        (-1, 0): _("{player} moves the dragon west"),
    }.get(step) if step is not None else None
    if said is None:
        # Translators: a line of the game log (The Princess & the Dragon); {player}: a seat's name, {where}:
        # as in "Ann placed a tile {where}"
        return styled(_("{player} moves the dragon {where}"), player=player, where=where_words(event.position))
    return styled(said, player=player)


def _eaten_line(event: MeepleReturned, names: list[str]) -> Text:
    """The line of a figure the dragon eats (The Princess & the Dragon): back to its owner's supply."""
    said = {
        # Translators: a line of the game log (The Princess & the Dragon): the dragon eats a figure, back to
        # its owner's supply; {player}: the owner's name
        Figure.MEEPLE: _("The dragon eats one of {player}'s meeples"),
        # Translators: a line of the game log (The Princess & the Dragon); {player}: the owner's name
        Figure.LARGE: _("The dragon eats {player}'s large meeple"),
        # Translators: a line of the game log (The Princess & the Dragon); {player}: the owner's name
        Figure.ABBOT: _("The dragon eats {player}'s abbot"),
        # Translators: a line of the game log (The Princess & the Dragon); {player}: the owner's name
        Figure.BUILDER: _("The dragon eats {player}'s builder"),
        # Translators: a line of the game log (The Princess & the Dragon); {player}: the owner's name
        Figure.PIG: _("The dragon eats {player}'s pig"),
        # Translators: a line of the game log (The Princess & the Dragon); {player}: the owner's name
        Figure.SHEPHERD: _("The dragon eats {player}'s shepherd"),
    }
    return styled(said.get(event.figure, said[Figure.MEEPLE]), "bold", player=Text(names[event.seat]))


def _named(seat: int, names: list[str], colours: list[str]) -> Text:
    """A seat's name in its colour."""
    return Text(names[seat], style=seat_style(colours[seat]))


def _said_by(line: Text, seat: int, colours: list[str]) -> Text:
    """*line*, a seat's line, in the seat's colour (its own styles over it)."""
    line.style = seat_style(colours[seat])
    return line


def describe_event(event: Event, names: list[str], colours: list[str], context: LogContext = LogContext()) -> Text | None:
    """One log line for *event*, or ``None`` for events not worth a line (draws, returns); *context*:
    what the log saw before it (:func:`log_context`: a figure returned after the dragon moved is
    eaten, one returned right after a tile placed is sent home by the princess)."""
    if isinstance(event, DragonMoved):
        line = _dragon_line(event, names, context.dragon)
        return line if event.seat is None else _said_by(line, event.seat, colours)
    if isinstance(event, MeepleReturned) and context.after == "eats":
        return _eaten_line(event, names)
    if isinstance(event, MeepleReturned) and context.after == "placed":
        # Translators: a line of the game log (The Princess & the Dragon): instead of deploying, the player
        # whose tile showed a princess sends a knight of her city home; {player}: the knight's owner
        return styled(_("The princess sends {player}'s knight home"), "bold", player=Text(names[event.seat]))
    if isinstance(event, TileHeld):
        # Translators: a line of the game log (The Princess & the Dragon): a dragon tile drawn before any
        # volcano is placed waits beside the pile; {player}: a seat's name
        said = _("{player} drew a dragon tile: it waits beside the pile until a volcano is placed; "
                 "{player} draws again").format(player=names[event.seat])
        return Text(said, style="italic")
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
        if event.elsewhere:
            # Translators: a line of the game log (The Princess & the Dragon): a follower deployed through the
            # magic portal; {deployed}: the deploy's line ("Ann deployed a knight on the city"), {x},{y}: its tile
            line = styled(_("{deployed} through the magic portal, at {x},{y}"), deployed=line,
                          x=Text(str(event.position.x)), y=Text(str(event.position.y)))
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
    if isinstance(event, PointsScored | GoodsScored | FlockScored | FairyScored):
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
        self._seen = LogContext()

    def add(self, events: Iterable[Event]) -> None:
        """Writes the lines of *events*, which follow those added before (:func:`log_context`)."""
        for event in events:
            line = describe_event(event, self._names, self._colours, self._seen)
            self._seen = log_context(self._seen, event)
            if line is not None:
                self.write(line)
