"""Provides tiles and turns in words, for players: what a tile shows (:func:`tile_words`), where on
the board a position is (:func:`where_words`), and a whole turn (:func:`turn_words`), as the review
and the game's log and status line say them: "a tile with a city and a road next to your city in
the north-west, a knight on its city", never a tile's id or a position's coordinates.

Each function returns a whole phrase in English, built from parts that are themselves whole phrases,
so that a translation can replace one at a time.

>>> tile_words("E"), tile_words("B"), tile_words("ICK")
('a tile with a city', 'a cloister', 'a tile with a city and a cathedral')
>>> where_words(Position(0, -1)), where_words(Position(-4, -3)), where_words(Position(5, 1))
('just north of the start tile', 'in the north-west', 'in the east')
"""

from __future__ import annotations

from collections.abc import Sequence

from carcnet.engine import (
    DeployMeeple,
    Figure,
    Game,
    Move,
    PlaceTile,
    Position,
    ReturnAbbot,
    SegmentKind,
    tile_kind,
)
from carcnet.tui.render import FIGURE_NAMES, figure_role, with_article

__all__ = ["figure_words", "positions_before", "tile_words", "turn_words", "where_words", "why_not_here"]

_NUMBERS = {1: "a", 2: "two", 3: "three", 4: "four"}


def _count(n: int, word: str, plural: str | None = None) -> str:
    return f"{_NUMBERS.get(n, str(n))} {word if n == 1 else plural or word + 's'}"


def _listed(parts: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(parts) <= 1:
        return "".join(parts)
    return f"{', '.join(parts[:-1])} and {parts[-1]}"


def tile_words(letter: str) -> str:
    """What the tile *letter* shows, with its article: ``a tile with a city and a road``, ``a
    cloister with a road``, ``a river tile with a road``, ``a tile with two cities and a pennant``.
    """
    segments = tile_kind(letter).segments
    kinds = [s.kind for s in segments]
    parts = []
    cities = kinds.count(SegmentKind.CITY)
    if cities:
        parts.append(_count(cities, "city", "cities"))
    pennants = sum(s.pennant for s in segments)
    if pennants:
        parts.append(_count(pennants, "pennant"))
    if any(s.cathedral for s in segments):
        parts.append("a cathedral")
    roads = kinds.count(SegmentKind.ROAD)
    if roads:
        parts.append(_count(roads, "road"))
    if any(s.inn for s in segments):
        parts.append("an inn")
    goods = sorted({g for s in segments for g in s.goods})
    if goods:
        parts.append(_listed(goods))
    if SegmentKind.GARDEN in kinds:
        parts.append("a garden")
    if SegmentKind.CLOISTER in kinds:
        head = "a cloister"
    elif SegmentKind.RIVER in kinds:
        head = "a river tile"
    else:
        head = "a tile"
    if not parts:
        return head if head != "a tile" else "a tile of fields"
    return f"{head} with {_listed(parts)}"


#: The compass areas of the board, by the signs of a position's x (east) and y (south).
_COMPASS = {(0, -1): "north", (1, -1): "north-east", (1, 0): "east", (1, 1): "south-east",
            (0, 1): "south", (-1, 1): "south-west", (-1, 0): "west", (-1, -1): "north-west"}


def where_words(position: Position) -> str:
    """Where *position* is on the board, from the start tile at (0, 0): ``on the start tile``, ``just
    north of the start tile`` (a neighbour), else the compass area, ``in the north-west`` (a
    position twice as far one way as the other lies that way)."""
    x, y = position.x, position.y
    if (x, y) == (0, 0):
        return "on the start tile"
    sx = (x > 0) - (x < 0)
    sy = (y > 0) - (y < 0)
    if abs(x) >= 2 * abs(y):
        sy = 0
    elif abs(y) >= 2 * abs(x):
        sx = 0
    area = _COMPASS[sx, sy]
    if max(abs(x), abs(y)) == 1:
        return f"just {area} of the start tile"
    return f"in the {area}"


def _owner(seats: list[int], seat: int, names: Sequence[str]) -> str:
    """Whose a feature is, for the player of *seat*: ``your``, ``Blue's``, ``Blue's and your``, or
    ``a`` (nobody's)."""
    if not seats:
        return "a"
    named = [("your" if s == seat else f"{names[s]}'s") for s in dict.fromkeys(seats)]
    return _listed(named)


def _placement_words(before: Game, place: PlaceTile, names: Sequence[str]) -> tuple[str, Game]:
    """The placement *place* from the position *before*, in words, and the game after it."""
    seat = before.seat
    after = before.copy()
    after.apply(place)
    tile = after.tile_at(place.position)
    joined = []  # (rank, words): the seat's own features first, then others', then nobody's
    for index, segment in enumerate(tile.variant.segments):
        if segment.kind in (SegmentKind.FIELD, SegmentKind.RIVER):
            continue
        info = after.feature_at(place.position, index)
        if len(info.tiles) < 2 and not info.complete:
            continue  # a feature of this tile alone
        holders = [s for s, figure in info.meeples if figure not in (Figure.BUILDER, Figure.PIG)]
        owner = _owner(holders, seat, names)
        verb = "closing" if info.complete else "next to"
        rank = (0 if seat in holders else 1 if holders else 2, not info.complete)
        joined.append((rank, f"{verb} {owner} {info.kind.label}"))
    words = tile_words(place.tile)
    if joined:
        words += " " + min(joined)[1]
    return f"{words} {where_words(place.position)}", after


def figure_words(figure: Figure, kind: SegmentKind) -> str:
    """A figure deployed on a feature of *kind*, with its article: ``a knight``, ``the large meeple``,
    ``the builder``, ``the pig``, ``the abbot``."""
    if figure is Figure.MEEPLE:
        return with_article(figure_role(kind, figure))
    return FIGURE_NAMES[figure]


def _follow_up_words(after: Game, move: Move) -> str:
    if isinstance(move, DeployMeeple) and after.placed is not None:
        kind = after.tile_at(after.placed).variant.segments[move.segment].kind
        return f"{figure_words(move.figure, kind)} on its {kind.label}"
    if isinstance(move, ReturnAbbot):
        return "the abbot taken back"
    return "no meeple"


def turn_words(before: Game, turn: tuple[Move, Move], names: Sequence[str], *, other: tuple[Move, Move] | None = None) -> str:
    """A turn (a placement and its follow-up) from the position *before*, for the player of the seat
    to move there: ``a tile with a city next to your city in the north-west, a knight on its city``.
    With *other*, a turn it is set beside (the one played, for the bot's): where both put their tile
    on the same position, ``the same place, turned another way``."""
    place, follow = turn
    if not isinstance(place, PlaceTile):
        return str(place)
    if other is not None and isinstance(other[0], PlaceTile) and other[0].position == place.position:
        after = before.copy()
        after.apply(place)
        where = "the same place" if other[0].rotation == place.rotation else "the same place, turned another way"
        return f"{where}, {_follow_up_words(after, follow)}"
    words, after = _placement_words(before, place, names)
    return f"{words}, {_follow_up_words(after, follow)}"


def positions_before(game: Game, indices: Sequence[int]) -> dict[int, Game]:
    """The position before each move of *indices* (indices in *game*'s moves), from one replay of
    *game*: copies of the game as it stood."""
    wanted = set(indices)
    position = Game(game.setup)
    out = {}
    for i, move in enumerate(game.moves):
        if i in wanted:
            out[i] = position.copy()
        if i >= max(wanted, default=-1):
            break
        position.apply(move)
    return out


def why_not_here(game: Game | None, position: Position) -> str:
    """Why the drawn tile of *game* cannot be placed at *position*, in a sentence (HiG "Place a tile")."""
    letter = game.drawn if game is not None else None
    if game is None or letter is None:
        return "There is no tile to place now."
    if game.tile_at(position) is not None:
        return "There is a tile there already."
    neighbours = [Position(position.x + dx, position.y + dy) for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))]
    if not any(game.tile_at(n) is not None for n in neighbours):
        return "That place touches no tile along a side: a tile goes next to one."
    if tile_kind(letter).has_river:
        return "Your tile is a river tile: it must continue the river where it ends, without a U-turn."
    return ("Your tile fits there in no rotation: every side must match its neighbour's (city to city, "
            "road to road, field to field). Tab shows where it fits.")
