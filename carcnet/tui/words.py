"""Provides tiles and turns in words, for players: what a tile shows (:func:`tile_words`), where on
the board a position is (:func:`where_words`), and a whole turn (:func:`turn_words`), as the review
and the game's log and status line say them: "a tile with a city and a road next to your city in
the north-west, a knight on its city", never a tile's id or a position's coordinates; and what a
feature is made of and what it scored (:func:`feature_words`, :func:`score_words`), as the game's
log and the inspector say them.

Each function returns a whole phrase in the language in use (:mod:`carcnet.i18n`), built from
messages that are themselves whole phrases with placeholders: each noun phrase with its article
(``a city``, ``two cities``), each place (``just north of the start tile``), each figure on each
feature (``a knight on its city``), so that a translation agrees its articles, cases and plurals
within one message. The English is as it always was.

>>> tile_words("E"), tile_words("B"), tile_words("ICK")
('a tile with a city', 'a cloister', 'a tile with a city and a cathedral')
>>> where_words(Position(0, -1)), where_words(Position(-4, -3)), where_words(Position(5, 1))
('just north of the start tile', 'in the north-west', 'in the east')
"""

from __future__ import annotations

from collections.abc import Sequence

from carcnet.engine import (
    DeployMeeple,
    FeatureInfo,
    Figure,
    FlockScored,
    Game,
    GoodsScored,
    Move,
    PlaceTile,
    PointsScored,
    Position,
    ReturnAbbot,
    Rules,
    SegmentKind,
    tile_kind,
)
from carcnet.engine.tiles import GOODS
from carcnet.i18n import _, joined, listed, ngettext, npgettext, pgettext
from carcnet.tui.parts import face
from carcnet.tui.render import figure_name, figure_role, role_name, with_article

__all__ = [
    "bot_words",
    "chained",
    "feature_words",
    "figure_on_words",
    "figure_words",
    "goods_words",
    "kind_words",
    "placed_words",
    "positions_before",
    "rules_words",
    "score_words",
    "tile_words",
    "turn_words",
    "variant_words",
    "where_words",
    "why_illegal",
    "why_not_here",
]


# ------------------------------------------------------------------------------------ pieces


def chained(parts: Sequence[str]) -> str:
    """*parts* joined by "and" each time, in the language in use: ``a``, ``a and b``, ``a and b and
    c`` (the game log's winners and the seats that share a score)."""
    if not parts:
        return ""
    text = parts[0]
    for part in parts[1:]:
        text = _("{list} and {last}").format(list=text, last=part)
    return text


def kind_words(kind: SegmentKind) -> str:
    """A feature's kind, bare, in the language in use: ``city``, ``road`` (the engine's
    ``kind.label`` in English)."""
    names = {
        # Translators: a kind of feature, bare, as in "city: 4 (8 closed)" in the deploy choice
        SegmentKind.ROAD: pgettext("feature", "road"),
        SegmentKind.CITY: pgettext("feature", "city"),
        SegmentKind.FIELD: pgettext("feature", "field"),
        SegmentKind.CLOISTER: pgettext("feature", "cloister"),
        SegmentKind.RIVER: pgettext("feature", "river"),
        SegmentKind.GARDEN: pgettext("feature", "garden"),
    }
    return names[kind]


def goods_words(kind: str, count: int) -> str:
    """*count* goods tokens of *kind* (``"wine"``, ``"grain"``, ``"cloth"``): ``2 wine``."""
    if kind == "wine":
        # Translators: Traders & Builders' goods tokens: "city, 3 tiles, 2 wine"; {count}: a number (digits)
        return npgettext("goods", "{count} wine", "{count} wine", count).format(count=count)
    if kind == "grain":
        # Translators: Traders & Builders' goods tokens: "city, 3 tiles, 2 grain"; {count}: a number (digits)
        return npgettext("goods", "{count} grain", "{count} grain", count).format(count=count)
    if kind == "cloth":
        # Translators: Traders & Builders' goods tokens: "city, 3 tiles, 2 cloth"; {count}: a number (digits)
        return npgettext("goods", "{count} cloth", "{count} cloth", count).format(count=count)
    return f"{count} {kind}"


def _goods_name(kind: str) -> str:
    """A kind of goods, bare, as a tile shows its symbol."""
    # Translators: a goods symbol a tile shows, in "a tile with a city and wine"
    names = {"wine": pgettext("goods", "wine"), "grain": pgettext("goods", "grain"),
             "cloth": pgettext("goods", "cloth")}
    return names.get(kind, kind)


def bot_words(level: str) -> str:
    """A bot of *level* with its article: ``a greedy bot``, ``an easy bot``."""
    words = {
        # Translators: who plays a seat, as in "Ann's seat goes to {bot}, run by Bob"
        "random": _("a random bot"),
        "greedy": _("a greedy bot"),
        "easy": _("an easy bot"),
        "medium": _("a medium bot"),
        "hard": _("a hard bot"),
        "expert": _("an expert bot"),
    }
    return words[level] if level in words else with_article(level + " bot")


# ------------------------------------------------------------------------------------ tiles


def _cities(n: int) -> str:
    count = {
        # Translators: a number in words, in "{count} cities" (a tile with two cities)
        2: pgettext("number of cities", "two"),
        3: pgettext("number of cities", "three"),
        4: pgettext("number of cities", "four"),
    }.get(n, str(n))
    # Translators: what a tile shows, after "with" in "a tile with {features}"; {count}: a number in
    # words ("two")
    return npgettext("tile shows", "a city", "{count} cities", n).format(count=count)


def _pennants(n: int) -> str:
    count = {
        # Translators: a number in words, in "{count} pennants" (a tile with two pennants)
        2: pgettext("number of pennants", "two"),
        3: pgettext("number of pennants", "three"),
        4: pgettext("number of pennants", "four"),
    }.get(n, str(n))
    # Translators: what a tile shows, after "with" in "a tile with {features}"; {count}: a number in
    # words ("two")
    return npgettext("tile shows", "a pennant", "{count} pennants", n).format(count=count)


def _roads(n: int) -> str:
    count = {
        # Translators: a number in words, in "{count} roads" (a tile with three roads)
        2: pgettext("number of roads", "two"),
        3: pgettext("number of roads", "three"),
        4: pgettext("number of roads", "four"),
    }.get(n, str(n))
    # Translators: what a tile shows, after "with" in "a tile with {features}"; {count}: a number in
    # words ("two")
    return npgettext("tile shows", "a road", "{count} roads", n).format(count=count)


def tile_words(letter: str) -> str:
    """What the tile *letter* shows, with its article: ``a tile with a city and a road``, ``a
    cloister with a road``, ``a river tile with a road``, ``a tile with two cities and a pennant``.
    """
    segments = tile_kind(letter).segments
    kinds = [s.kind for s in segments]
    parts = []
    cities = kinds.count(SegmentKind.CITY)
    if cities:
        parts.append(_cities(cities))
    pennants = sum(s.pennant for s in segments)
    if pennants:
        parts.append(_pennants(pennants))
    if any(s.cathedral for s in segments):
        # Translators: what a tile shows, after "with" in "a tile with {features}"
        parts.append(pgettext("tile shows", "a cathedral"))
    roads = kinds.count(SegmentKind.ROAD)
    if roads:
        parts.append(_roads(roads))
    if any(s.inn for s in segments):
        # Translators: what a tile shows, after "with" in "a tile with {features}"
        parts.append(pgettext("tile shows", "an inn"))
    goods = sorted({g for s in segments for g in s.goods})
    if goods:
        parts.append(listed([_goods_name(g) for g in goods]))
    if SegmentKind.GARDEN in kinds:
        # Translators: what a tile shows, after "with" in "a tile with {features}"
        parts.append(pgettext("tile shows", "a garden"))
    marks = tile_kind(letter).marks
    if "hill" in marks:
        # Translators: what a tile shows (Hills & Sheep), after "with" in "a tile with {features}"
        parts.append(pgettext("tile shows", "a hill"))
    if "vineyard" in marks:
        # Translators: what a tile shows (Hills & Sheep), after "with" in "a tile with {features}"
        parts.append(pgettext("tile shows", "a vineyard"))
    features = listed(parts)
    if SegmentKind.CLOISTER in kinds:
        # Translators: {features}: what else the tile shows, e.g. "a road" or "a city and two roads"
        return _("a cloister with {features}").format(features=features) if parts else _("a cloister")
    if SegmentKind.RIVER in kinds:
        # Translators: {features}: what else the tile shows, e.g. "a road" or "a city and two roads"
        return _("a river tile with {features}").format(features=features) if parts else _("a river tile")
    if not parts:
        return _("a tile of fields")
    # Translators: {features}: what the tile shows, e.g. "a city and a road", "two cities and a pennant"
    return _("a tile with {features}").format(features=features)


def where_words(position: Position) -> str:
    """Where *position* is on the board, from the start tile at (0, 0): ``on the start tile``, ``just
    north of the start tile`` (a neighbour), else the compass area, ``in the north-west`` (a
    position twice as far one way as the other lies that way)."""
    x, y = position.x, position.y
    if (x, y) == (0, 0):
        # Translators: where a tile is, as in "a tile with a city on the start tile"
        return _("on the start tile")
    sx = (x > 0) - (x < 0)
    sy = (y > 0) - (y < 0)
    if abs(x) >= 2 * abs(y):
        sy = 0
    elif abs(y) >= 2 * abs(x):
        sx = 0
    if max(abs(x), abs(y)) == 1:  # a neighbour of the start tile; signs of x (east) and y (south)
        return {
            # Translators: where a tile is, as in "Ann placed a tile just north of the start tile"
            (0, -1): _("just north of the start tile"),
            (1, -1): _("just north-east of the start tile"),
            (1, 0): _("just east of the start tile"),
            (1, 1): _("just south-east of the start tile"),
            (0, 1): _("just south of the start tile"),
            (-1, 1): _("just south-west of the start tile"),
            (-1, 0): _("just west of the start tile"),
            (-1, -1): _("just north-west of the start tile"),
        }[sx, sy]
    return {
        # Translators: where a tile is on the board, as in "Ann placed a tile in the north"
        (0, -1): _("in the north"),
        (1, -1): _("in the north-east"),
        (1, 0): _("in the east"),
        (1, 1): _("in the south-east"),
        (0, 1): _("in the south"),
        (-1, 1): _("in the south-west"),
        (-1, 0): _("in the west"),
        (-1, -1): _("in the north-west"),
    }[sx, sy]


def placed_words(letter: str, position: Position) -> str:
    """The tile *letter* placed at *position*: ``a tile with a city just north of the start tile``."""
    # Translators: a placement; {tile}: what the tile shows ("a tile with a city"), {where}: where it
    # goes ("just north of the start tile", "in the west")
    return _("{tile} {where}").format(tile=tile_words(letter), where=where_words(position))


# ------------------------------------------------------------------------------------ turns


def _beside_words(closing: bool, kind: SegmentKind, yours: bool, owners: str | None) -> str:
    """What a placement joins: ``closing your city``, ``next to Blue's road``, ``next to a road``.
    *yours*: the mover's alone; else *owners* the owners in words, ``None`` for nobody's."""
    if yours:
        if closing:
            messages = {
                # Translators: what a placed tile does, as in "a tile with a road closing your road in the west"
                SegmentKind.ROAD: _("closing your road"),
                SegmentKind.CITY: _("closing your city"),
                SegmentKind.CLOISTER: _("closing your cloister"),
                SegmentKind.GARDEN: _("closing your garden"),
            }
        else:
            messages = {
                # Translators: what a placed tile touches, as in "a tile with a road next to your road in the west"
                SegmentKind.ROAD: _("next to your road"),
                SegmentKind.CITY: _("next to your city"),
                SegmentKind.CLOISTER: _("next to your cloister"),
                SegmentKind.GARDEN: _("next to your garden"),
            }
    elif owners is None:
        if closing:
            messages = {
                # Translators: what a placed tile does to a feature nobody holds
                SegmentKind.ROAD: _("closing a road"),
                SegmentKind.CITY: _("closing a city"),
                SegmentKind.CLOISTER: _("closing a cloister"),
                SegmentKind.GARDEN: _("closing a garden"),
            }
        else:
            messages = {
                # Translators: what a placed tile touches: a feature nobody holds
                SegmentKind.ROAD: _("next to a road"),
                SegmentKind.CITY: _("next to a city"),
                SegmentKind.CLOISTER: _("next to a cloister"),
                SegmentKind.GARDEN: _("next to a garden"),
            }
    elif closing:
        messages = {
            # Translators: {owners}: whose feature it is, e.g. "Blue's", "Blue's and your" (from "{name}'s"
            # and "your")
            SegmentKind.ROAD: _("closing {owners} road"),
            # Translators: {owners}: whose feature it is, e.g. "Blue's", "Blue's and your"
            SegmentKind.CITY: _("closing {owners} city"),
            # Translators: {owners}: whose feature it is, e.g. "Blue's", "Blue's and your"
            SegmentKind.CLOISTER: _("closing {owners} cloister"),
            # Translators: {owners}: whose feature it is, e.g. "Blue's", "Blue's and your"
            SegmentKind.GARDEN: _("closing {owners} garden"),
        }
    else:
        messages = {
            # Translators: {owners}: whose feature it is, e.g. "Blue's", "Blue's and your" (from "{name}'s"
            # and "your")
            SegmentKind.ROAD: _("next to {owners} road"),
            # Translators: {owners}: whose feature it is, e.g. "Blue's", "Blue's and your"
            SegmentKind.CITY: _("next to {owners} city"),
            # Translators: {owners}: whose feature it is, e.g. "Blue's", "Blue's and your"
            SegmentKind.CLOISTER: _("next to {owners} cloister"),
            # Translators: {owners}: whose feature it is, e.g. "Blue's", "Blue's and your"
            SegmentKind.GARDEN: _("next to {owners} garden"),
        }
    return messages[kind].format(owners=owners)


def _owners(seats: list[int], seat: int, names: Sequence[str]) -> str | None:
    """Whose a feature held by *seats* is (not the player of *seat*'s alone), in words: ``Blue's``,
    ``Blue's and your``; ``None`` for nobody's."""
    if not seats:
        return None
    holders = list(dict.fromkeys(seats))
    named = []
    for s in holders:
        if s == seat:
            # Translators: the player's own, among others in a list: "Blue's and your" in "next to {owners} city"
            named.append(pgettext("whose, in a list", "your"))
        else:
            # Translators: a seat's, in "next to {owners} city" ("Blue's"); {name}: the seat's name
            named.append(pgettext("whose", "{name}'s").format(name=names[s]))
    return listed(named)


def _english_owner(seats: list[int], seat: int, names: Sequence[str]) -> str:
    """Whose a feature is in English (the order features are told in, the same in every language)."""
    if not seats:
        return "a"
    named = [("your" if s == seat else f"{names[s]}'s") for s in dict.fromkeys(seats)]
    return f"{', '.join(named[:-1])} and {named[-1]}" if len(named) > 1 else named[0]


def _placement_words(before: Game, place: PlaceTile, names: Sequence[str]) -> tuple[str, Game]:
    """The placement *place* from the position *before*, in words, and the game after it."""
    seat = before.seat
    after = before.copy()
    after.apply(place)
    tile = after.tile_at(place.position)
    joined = []  # (rank, English, words): the seat's own features first, then others', then nobody's
    for index, segment in enumerate(tile.variant.segments):
        if segment.kind in (SegmentKind.FIELD, SegmentKind.RIVER):
            continue
        info = after.feature_at(place.position, index)
        if len(info.tiles) < 2 and not info.complete:
            continue  # a feature of this tile alone
        holders = [s for s, figure in info.meeples if face(figure).follower]
        verb = "closing" if info.complete else "next to"
        rank = (0 if seat in holders else 1 if holders else 2, not info.complete)
        english = f"{verb} {_english_owner(holders, seat, names)} {info.kind.label}"
        yours = list(dict.fromkeys(holders)) == [seat]
        owners = None if yours else _owners(holders, seat, names)
        joined.append((rank, english, _beside_words(info.complete, info.kind, yours, owners)))
    tile_text, where = tile_words(place.tile), where_words(place.position)
    if joined:
        # Translators: a placement; {tile}: what the tile shows ("a tile with a city"), {beside}: what
        # it joins ("next to your city"), {where}: where it goes ("in the north-west")
        return _("{tile} {beside} {where}").format(tile=tile_text, beside=min(joined)[2], where=where), after
    return _("{tile} {where}").format(tile=tile_text, where=where), after


def figure_words(figure: Figure, kind: SegmentKind) -> str:
    """A figure deployed on a feature of *kind*, with its article: ``a knight``, ``the large meeple``,
    ``the builder``, ``the pig``, ``the abbot``."""
    if figure is Figure.MEEPLE:
        return role_name(figure_role(kind, figure))
    return figure_name(figure)


def _on_its_words(figure: Figure, kind: SegmentKind) -> str:
    """A figure deployed on a feature of the tile just placed: ``a knight on its city`` (its face's
    words, :mod:`carcnet.tui.parts`)."""
    said = face(figure).on_its.get(kind)
    if said is not None:
        return said()
    # Translators: a deployment on the tile just placed; {figure}: "a knight", "the abbot"; {feature}:
    # the feature's kind ("city")
    return _("{figure} on its {feature}").format(figure=figure_words(figure, kind), feature=kind_words(kind))


def figure_on_words(figure: Figure, kind: SegmentKind) -> str:
    """A figure deployed on a feature of *kind*, by the figure's name: ``a meeple on the city``, ``the
    abbot on the garden`` (what a turn waiting for its confirmation deploys; its face's words,
    :mod:`carcnet.tui.parts`)."""
    said = face(figure).on_the.get(kind)
    if said is not None:
        return said()
    # Translators: a deployment; {figure}: "a meeple", "the abbot"; {feature}: the feature's kind ("city")
    return _("{figure} on the {feature}").format(figure=figure_name(figure), feature=kind_words(kind))


def _follow_up_words(after: Game, move: Move) -> str:
    if isinstance(move, DeployMeeple) and after.placed is not None:
        kind = after.tile_at(after.placed).variant.segments[move.segment].kind
        return _on_its_words(move.figure, kind)
    if isinstance(move, ReturnAbbot):
        # Translators: the second half of a turn: the abbot taken back instead of deploying a figure
        return _("the abbot taken back")
    # Translators: the second half of a turn: no figure deployed
    return _("no meeple")


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
        follow_up = _follow_up_words(after, follow)
        if other[0].rotation == place.rotation:
            # Translators: a bot's turn beside the one played, its tile where the player put theirs;
            # {follow_up}: its figure ("a knight on its city", "no meeple")
            return _("the same place, {follow_up}").format(follow_up=follow_up)
        # Translators: a bot's turn beside the one played, its tile where the player put theirs but
        # turned another way; {follow_up}: its figure ("a knight on its city", "no meeple")
        return _("the same place, turned another way, {follow_up}").format(follow_up=follow_up)
    words, after = _placement_words(before, place, names)
    # Translators: a turn in words; {placement}: the tile and where it went ("a tile with a city in
    # the west"), {follow_up}: its figure ("a knight on its city", "no meeple")
    return _("{placement}, {follow_up}").format(placement=words, follow_up=_follow_up_words(after, follow))


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
        return _("There is no tile to place now.")
    if game.tile_at(position) is not None:
        return _("There is a tile there already.")
    neighbours = [Position(position.x + dx, position.y + dy) for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))]
    if not any(game.tile_at(n) is not None for n in neighbours):
        return _("That place touches no tile along a side: a tile goes next to one.")
    if tile_kind(letter).has_river:
        return _("Your tile is a river tile: it must continue the river where it ends, without a U-turn.")
    return _("Your tile fits there in no rotation: every side must match its neighbour's (city to city, "
             "road to road, field to field). Tab shows where it fits.")


def why_illegal(reason: str) -> str:
    """Why a move was refused, in the player's words, from the engine's reason code
    (:attr:`carcnet.engine.IllegalMoveError.reason`; the engine's own message is for developers)."""
    words = {
        "wrong-phase": _("It is not the time for that move now."),
        "wrong-tile": _("That is not the tile drawn."),
        "not-adjacent": _("That place touches no tile along a side: a tile goes next to one."),
        "occupied": _("There is a tile there already."),
        "side-mismatch": _("The tile does not fit there: every side must match its neighbour's."),
        "river": _("A river tile must continue the river where it ends, without a U-turn."),
        "bad-rotation": _("The tile cannot be turned that way."),
        "bad-segment": _("There is no such spot on the tile."),
        "feature-occupied": _("That feature has a meeple already: you cannot deploy there."),
        "no-supply": _("You have no such figure left in your supply."),
        "wrong-figure": _("That figure cannot go there."),
        "no-abbot": _("You have no abbot on the board to take back."),
        "game-over": _("The game is over."),
        "bad-handover": _("The seat cannot be handed over now."),
        "bad-handback": _("The seat cannot be handed back now."),
    }
    return words.get(reason, _("That move is not allowed by the rules."))


# ------------------------------------------------------------------------------------ features


def _feature_head(info: FeatureInfo, n: int) -> str:
    """The kind of *info* and its size: ``city, 3 tiles``, ``field, 2 completed cities``, ``cloister,
    4 of 8 neighbours``."""
    kind = info.kind
    if kind is SegmentKind.FIELD:
        n = len(info.cities)
        # Translators: what a farm is made of, in the game log and the inspector: "field, 2 completed
        # cities"; {count}: a number (digits)
        return npgettext("feature", "field, {count} completed city", "field, {count} completed cities",
                         n).format(count=n)
    if kind in (SegmentKind.CLOISTER, SegmentKind.GARDEN) and not info.complete:
        if kind is SegmentKind.CLOISTER:
            # Translators: a cloister not yet surrounded; {count}: the tiles around it (0 to 7)
            return npgettext("feature", "cloister, {count} of 8 neighbours", "cloister, {count} of 8 neighbours",
                             n - 1).format(count=n - 1)
        # Translators: a garden (The Abbot) not yet surrounded; {count}: the tiles around it (0 to 7)
        return npgettext("feature", "garden, {count} of 8 neighbours", "garden, {count} of 8 neighbours",
                         n - 1).format(count=n - 1)
    messages = {
        # Translators: what a feature is made of, in the game log and the inspector: "city, 3 tiles, 1
        # pennant"; {count}: a number (digits)
        SegmentKind.CITY: npgettext("feature", "city, {count} tile", "city, {count} tiles", n),
        # Translators: {count}: a number (digits)
        SegmentKind.ROAD: npgettext("feature", "road, {count} tile", "road, {count} tiles", n),
        # Translators: {count}: a number (digits)
        SegmentKind.CLOISTER: npgettext("feature", "cloister, {count} tile", "cloister, {count} tiles", n),
        # Translators: {count}: a number (digits)
        SegmentKind.GARDEN: npgettext("feature", "garden, {count} tile", "garden, {count} tiles", n),
        # Translators: {count}: a number (digits)
        SegmentKind.RIVER: npgettext("feature", "river, {count} tile", "river, {count} tiles", n),
    }
    return messages[kind].format(count=n)


def feature_words(info: FeatureInfo, *, scored: str = "") -> str:
    """What the feature *info* is made of, in the language in use (the engine's
    :meth:`~carcnet.engine.FeatureInfo.describe` in English): ``city, 3 tiles, 1 pennant``, ``road, 2
    tiles, an inn``, ``field, 2 completed cities``, ``cloister, 4 of 8 neighbours``. *scored*
    ``"farmers"``: a city as the first edition's farmers score it (``farmers supplying a city, 3
    tiles``); ``"pig"``: a farm as its pig scores it (``the pig in a field, 2 completed cities``)."""
    n = len(info.tiles)
    if scored == "pig":
        m = len(info.cities)
        # Translators: what a farm's pig scores (Traders & Builders): "+2: the pig in a field, 2 completed
        # cities"; {count}: a number (digits)
        return npgettext("feature", "the pig in a field, {count} completed city",
                         "the pig in a field, {count} completed cities", m).format(count=m)
    if info.kind is SegmentKind.FIELD or (info.kind in (SegmentKind.CLOISTER, SegmentKind.GARDEN)
                                          and not info.complete):
        return _feature_head(info, n)
    if scored == "farmers":
        # Translators: a completed city the farmers around it score (first edition): "+4: farmers
        # supplying a city, 3 tiles, 1 pennant"; {count}: a number (digits)
        head = npgettext("feature", "farmers supplying a city, {count} tile", "farmers supplying a city, {count} tiles",
                         n).format(count=n)
    else:
        head = _feature_head(info, n)
    parts = [head]
    if info.kind is SegmentKind.CITY and info.pennants:
        # Translators: a part of a city's make-up: "city, 3 tiles, 1 pennant"; {count}: a number (digits)
        parts.append(npgettext("feature", "{count} pennant", "{count} pennants", info.pennants).format(
            count=info.pennants))
    if info.inn:
        # Translators: a part of a road's make-up (Inns & Cathedrals): "road, 3 tiles, an inn"
        parts.append(pgettext("feature", "an inn"))
    if info.cathedral:
        # Translators: a part of a city's make-up (Inns & Cathedrals): "city, 3 tiles, a cathedral"
        parts.append(pgettext("feature", "a cathedral"))
    parts += [goods_words(kind, count) for count, kind in zip(info.goods, GOODS, strict=True) if count]
    return joined(parts)


def score_words(event: PointsScored | GoodsScored | FlockScored) -> str:
    """What a scoring gave and why, in the language in use (the engine's ``describe()`` in English):
    ``+8: city, 3 tiles, 1 pennant``, ``+10: the most wine (3 tokens)``, ``+7: a flock of 7 sheep``."""
    if isinstance(event, FlockScored):
        # Translators: Hills & Sheep: a flock herded into the stable scores 1 a sheep; {points} and
        # {count} are the same number (digits)
        return ngettext("+{points}: a flock of {count} sheep", "+{points}: a flock of {count} sheep",
                        event.points).format(points=event.points, count=event.points)
    if isinstance(event, GoodsScored):
        count = event.count
        if event.kind == "wine":
            # Translators: Traders & Builders' final scoring of the goods; {count}: the tokens (digits)
            said = ngettext("+{points}: the most wine ({count} token)", "+{points}: the most wine ({count} tokens)",
                            count)
        elif event.kind == "grain":
            # Translators: Traders & Builders' final scoring of the goods; {count}: the tokens (digits)
            said = ngettext("+{points}: the most grain ({count} token)", "+{points}: the most grain ({count} tokens)",
                            count)
        elif event.kind == "cloth":
            # Translators: Traders & Builders' final scoring of the goods; {count}: the tokens (digits)
            said = ngettext("+{points}: the most cloth ({count} token)", "+{points}: the most cloth ({count} tokens)",
                            count)
        else:
            return event.describe()
        return said.format(points=event.points, count=count)
    scored = "farmers" if event.farmers else "pig" if event.pig else ""
    if (event.farmers and event.feature.kind is not SegmentKind.CITY) or (
            event.pig and event.feature.kind is not SegmentKind.FIELD):
        return event.describe()  # the engine scores farmers' cities and pigs' farms alone
    # Translators: what a feature scored and what it is made of: "+8: city, 3 tiles, 1 pennant"
    return _("+{points}: {feature}").format(points=event.points, feature=feature_words(event.feature, scored=scored))


def variant_words(rules: Rules) -> list[str]:
    """The scoring variants *rules* play, in words (the engine's
    :meth:`~carcnet.engine.Rules.variants`, in the language in use):
    ``[]`` for the HiG scoring, else some of ``small cities`` and ``first-edition farms`` or ``no
    farmers``."""
    out = [_("small cities")] if rules.small_city else []
    if rules.farms == "city":
        out.append(_("first-edition farms"))
    elif rules.farms == "off":
        out.append(_("no farmers"))
    return out


def rules_words(rules: Rules) -> str:
    """*rules* in words (the engine's :meth:`~carcnet.engine.Rules.text`, in the language in use):
    ``base game``, or the
    expansions and variants: ``The River (start tile after the river), The Abbot, small cities``.

    >>> every = Rules(river=True, river_start="omit", abbot=True, inns=True, traders=True, hills_sheep=True,
    ...               small_city=True, farms="off")
    >>> all(rules_words(r) == r.text() for r in (Rules(), every, Rules(river=True, farms="city")))
    True
    """
    parts = []
    if rules.river:
        parts.append({"after": _("The River (start tile after the river)"),
                      "river": _("The River (start tile among the river tiles)"),
                      "omit": _("The River (start tile left out)")}[rules.river_start])
    if rules.abbot:
        parts.append(_("The Abbot"))
    if rules.inns:
        parts.append(_("Inns & Cathedrals"))
    if rules.traders:
        parts.append(_("Traders & Builders"))
    if rules.hills_sheep:
        parts.append(_("Hills & Sheep"))
    parts.extend(variant_words(rules))
    return joined(parts) or _("base game")
