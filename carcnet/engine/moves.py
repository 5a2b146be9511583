"""Provides the moves: what a player does, and all that the log stores and the wire carries.

A turn is two moves by the seat whose turn it is (HiG basic rules, "Playing the game"):
:class:`PlaceTile`, then one follower action: :class:`DeployMeeple` or :class:`SkipMeeple`
(The Abbot adds :class:`ReturnAbbot`); an expansion's question inside a turn is answered by its own
move (Traders & Builders' :class:`SecondTile`). Two moves are no player's turn: :class:`HandOver`, by which
the remaining players give the seat of a player gone for good to a bot, and :class:`HandBack`, by
which that bot's runner gives the seat back to its player who returned. At a network table whose
draws come from the players (``protocol/deck.md`` §5), :class:`DrawTile` records the values a draw
was made from. Everything else (draws from a seeded or given order, set-aside tiles, scores,
returned meeples) is derived by the engine as events. Moves carry no seat: the engine knows whose turn it is,
and the log records the author beside each move.

Text forms (``str(move)``, read back by :func:`carcnet.engine.notation.parse_move`):
``place V 1,-2 90`` · ``deploy 3`` · ``deploy 0 abbot`` · ``deploy 0 @2,-1`` · ``skip`` · ``return-abbot 1,0`` ·
``second-tile take`` · ``second-tile decline`` · ``deploy 2 shepherd`` · ``flock grow`` · ``flock score`` · ``dragon 1,0`` · ``princess 0,-1 0`` · ``fairy -1,0 0`` · ``handover 2 greedy by 0`` · ``handback 2`` · ``draw <64 hex digits or -, one per seat>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .geometry import Position

__all__ = [
    "DeployMeeple", "DrawTile", "Figure", "Flock", "HandBack", "HandOver", "Move", "MoveDragon", "MoveFairy",
    "PlaceTile", "RemoveKnight", "ReturnAbbot", "SecondTile", "SkipMeeple",
]


class Figure(str, Enum):
    """A kind of figure a player owns. Its role (thief, knight, monk, farmer) follows from the feature."""

    MEEPLE = "meeple"
    """The ordinary follower; 7 per player."""
    ABBOT = "abbot"
    """The Abbot expansion's figure; 1 per player, on cloisters and gardens only."""
    LARGE = "large"
    """Inns & Cathedrals' large meeple; 1 per player, anywhere a meeple may go; counts as two
    meeples for the majority on its feature."""
    BUILDER = "builder"
    """Traders & Builders' builder; 1 per player, on a road or city that holds one of the player's
    followers; counts for no majority; extending its feature gives its owner a second tile in the
    turn (once); back to the supply when the feature is scored."""
    PIG = "pig"
    """Traders & Builders' pig; 1 per player, on a farm that holds one of the player's farmers,
    until the end; counts for no majority; its owner scores that farm's cities 4 each instead of 3."""
    SHEPHERD = "shepherd"
    """Hills & Sheep's shepherd; 1 per player, instead of a meeple on a field of the tile just placed
    that holds no shepherd (farmers may be there); not a follower: it counts for no majority and
    claims nothing; its flock is the sheep tokens drawn from the bag beside it."""


@dataclass(frozen=True, slots=True)
class PlaceTile:
    """Place the drawn tile at *position*, turned clockwise by *rotation* quarter turns.

    Attributes:
        tile: Letter of the drawn tile's design, e.g. ``"D"``: a replica whose deck has diverged
            fails on the very next move.
        position: Where the tile goes (x east, y south).
        rotation: Clockwise quarter turns, 0–3.
    """

    tile: str
    position: Position
    rotation: int

    def __str__(self) -> str:
        return f"place {self.tile} {self.position.x},{self.position.y} {90 * self.rotation}"


_SET_TILE = PlaceTile.tile.__set__  # type: ignore[attr-defined,misc]  # the slots' descriptors
_SET_POSITION = PlaceTile.position.__set__  # type: ignore[attr-defined,misc]
_SET_ROTATION = PlaceTile.rotation.__set__  # type: ignore[attr-defined,misc]


def _place_tile_init(self: PlaceTile, tile: str, position: Position, rotation: int) -> None:
    """``PlaceTile.__init__``: the dataclass's, filling the slots through their descriptors (about
    half the cost of ``object.__setattr__``: a playout makes one a turn), and accepting a plain
    ``(x, y)`` for *position*."""
    if type(position) is not Position and isinstance(position, tuple) and len(position) == 2:
        position = Position(*position)
    _SET_TILE(self, tile)
    _SET_POSITION(self, position)
    _SET_ROTATION(self, rotation)


PlaceTile.__init__ = _place_tile_init  # type: ignore[method-assign]  # on purpose: replaces the dataclass's


@dataclass(frozen=True, slots=True)
class DeployMeeple:
    """Deploy a figure from the supply onto segment *segment* of the tile just placed, or of the tile
    at *at* (a follower through the magic portal, The Princess & the Dragon).

    Attributes:
        segment: Index of the segment in the design's table row (see :mod:`carcnet.engine.tiles`).
        figure: Which figure; the abbot only with The Abbot, and only on a cloister or garden.
        at: The board position of the tile the figure goes on when it is not the tile just placed,
            else ``None``. Only a follower, on a turn whose tile lets one go anywhere (an
            expansion's ``deploy_anywhere``).
    """

    segment: int
    figure: Figure = Figure.MEEPLE
    at: Position | None = None

    def __str__(self) -> str:
        text = f"deploy {self.segment}" if self.figure is Figure.MEEPLE else f"deploy {self.segment} {self.figure.value}"
        return text if self.at is None else f"{text} @{self.at.x},{self.at.y}"


@dataclass(frozen=True, slots=True)
class SkipMeeple:
    """Deploy nothing this turn."""

    def __str__(self) -> str:
        return "skip"


@dataclass(frozen=True, slots=True)
class ReturnAbbot:
    """The Abbot: instead of deploying, take the abbot back from *position* and score its feature now."""

    position: Position

    def __str__(self) -> str:
        return f"return-abbot {self.position.x},{self.position.y}"


@dataclass(frozen=True, slots=True)
class SecondTile:
    """Traders & Builders (rules 5 on): the seat whose tile extended its builder's road or city takes
    (*take*) or declines the second tile the builder gives (ZM-TB: "you may immediately draw and place
    another Land tile"), before it is drawn."""

    take: bool

    def __str__(self) -> str:
        return "second-tile take" if self.take else "second-tile decline"


@dataclass(frozen=True, slots=True)
class Flock:
    """Hills & Sheep: the seat whose tile extended the field of its own shepherd tends the flock
    (ZM-HS: "she must choose one of two different actions"): *grow* it (a token is drawn from the
    bag: a sheep joins it, a wolf scatters it) or, not *grow*, herd it into the stable (every
    shepherd in the field scores 1 a sheep there)."""

    grow: bool

    def __str__(self) -> str:
        return "flock grow" if self.grow else "flock score"


@dataclass(frozen=True, slots=True)
class MoveDragon:
    """The Princess & the Dragon: the seat asked moves the dragon one tile, to the placed tile at
    *position* beside it (W-PD2: "players take turns moving the dragon one space at a time (vertically
    or horizontally) until the dragon has moved 6 spaces or is unable to move"); the dragon eats every
    figure there."""

    position: Position

    def __str__(self) -> str:
        return f"dragon {self.position.x},{self.position.y}"


@dataclass(frozen=True, slots=True)
class MoveFairy:
    """The Princess & the Dragon: instead of deploying, the seat puts the fairy next to its follower on
    *segment* of the tile at *position* (W-PD2: "On any turn in which you do not place (or move) a
    meeple, you may assign the fairy to one of your meeples by placing the fairy directly next to it")."""

    position: Position
    segment: int

    def __str__(self) -> str:
        return f"fairy {self.position.x},{self.position.y} {self.segment}"


@dataclass(frozen=True, slots=True)
class RemoveKnight:
    """The Princess & the Dragon: instead of deploying, the seat whose tile's princess joined a city
    holding knights sends one of them home: the figure on *segment* of the tile at *position* (W-PD2:
    "you may remove a knight of your choice and skip all of Step 4")."""

    position: Position
    segment: int

    def __str__(self) -> str:
        return f"princess {self.position.x},{self.position.y} {self.segment}"


@dataclass(frozen=True, slots=True)
class HandOver:
    """A bot takes over *seat*, whose player is gone for good (not in the
    rulebooks: the table's agreement, recorded in the log). The game waits for *seat*'s move, so only
    the seat it waits for (``Game.actor``: the seat whose turn it is, or the seat an expansion's
    question asks) can be handed over, or any seat while the table draws; the turn and the phase do
    not change.

    Attributes:
        seat: The seat handed over: the seat whose move the game waits for.
        bot: Which bot plays it from now on (a ``carcnet.bots`` name: 1 to 32 of ``a``–``z``,
            ``0``–``9``, ``-``).
        by: The seat whose player runs the bot (and, in a network game, signs the seat's entries
            with its own key from now on); not *seat*, and not a seat handed over itself.
    """

    seat: int
    bot: str
    by: int

    def __str__(self) -> str:
        return f"handover {self.seat} {self.bot} by {self.by}"


@dataclass(frozen=True, slots=True)
class HandBack:
    """*seat*'s own player is back: the bot a :class:`HandOver` gave the seat to stops playing it
    (not in the rulebooks), at *seat*'s turn before its tile is placed (a turn boundary), or while the
    table draws (any seat handed over, as a :class:`HandOver` may name any seat then); taken back by
    the seat itself, also mid-turn (its tile placed: the runner left before its deploy, and nobody
    else could make it). The turn and the phase do not change; the seat's own player makes its next
    move.

    Made by the peer that ran the bot (the handover's ``by`` seat: *by* is ``None``), or, when that
    peer is gone, by the seat's own player taking its seat back (*by* is *seat*; in a network game
    signed by the seat's own key, ``protocol/log.md`` §6, ``protocol/wire.md`` §5.6 "Taking a seat
    back"). The two are different moves (their text, so their digests, differ): where both are made
    at one seq, the table keeps one by its votes.

    Attributes:
        seat: The seat given back, handed over earlier: the seat whose turn it is, or any while the
            table draws.
        by: ``None`` when the bot's runner gives the seat back; *seat* when its own player takes it.
    """

    seat: int
    by: int | None = None

    def __str__(self) -> str:
        return f"handback {self.seat}" if self.by is None else f"handback {self.seat} by {self.by}"


@dataclass(frozen=True, slots=True)
class DrawTile:
    """The table draws the next tile from the seats' chain values (``protocol/deck.md`` §5): no
    player's move, and only in a game whose draws come from the table (``GameSetup.draws``), in
    ``Phase.DRAW``. Anyone may make it once every contributing seat revealed its value for the draw;
    every peer makes the same one.

    Attributes:
        values: One entry per seat, in seat order: the seat's 32-byte chain value for this draw, or
            ``None`` for a seat that does not contribute (one handed over to a bot).
    """

    values: tuple[bytes | None, ...]

    def __str__(self) -> str:
        return "draw " + " ".join("-" if v is None else v.hex() for v in self.values)


Move = PlaceTile | DeployMeeple | SkipMeeple | ReturnAbbot | SecondTile | HandOver | HandBack | DrawTile
