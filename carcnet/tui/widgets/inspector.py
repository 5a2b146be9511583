"""Provides the side panel under the scoreboard that explains the board:

* while the player deploys, **the deploy choice**: every numbered spot with its feature and what it
  would score (``1 city, 3 tiles, 1 pennant: 8 if closed; 4 now``), for the meeple or the abbot, and
  the abbot's recall with what it scores now;
* otherwise **the feature inspector**: the features of the placed tile under the cursor (or the
  mouse), each with its tiles, pennants, open sides, who holds it (figures per seat) and what it is
  worth now and if completed; the chosen one (``i`` cycles) is outlined on the board, a farm with the
  completed cities it supplies.

The words are :func:`carcnet.tui.words.feature_words` (the engine's
:meth:`carcnet.engine.FeatureInfo.describe`, in the language in use) and the points
:meth:`carcnet.engine.Game.worth`, the engine's own scoring (HiG "Scoring summary", "Final scoring").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.text import Text
from textual.widgets import Static

from carcnet.engine import FeatureInfo, Figure, Game, Position, SegmentKind, tile_kind
from carcnet.i18n import _, listed, ngettext, pgettext
from carcnet.tui.parts import DEPLOY_ORDER, face
from carcnet.tui.render import figure_name, shepherds
from carcnet.tui.words import chained, feature_words, kind_words, where_words

from .palette import seat_style, styled

__all__ = ["Inspector", "TileFeatures", "flow", "tile_features", "worth_text"]

#: The order the features of a tile are listed in: the ones people score most first.
_ORDER = {SegmentKind.CLOISTER: 0, SegmentKind.GARDEN: 1, SegmentKind.CITY: 2, SegmentKind.ROAD: 3,
          SegmentKind.FIELD: 4, SegmentKind.RIVER: 5}


def worth_text(game: Game, info: FeatureInfo) -> str:
    """What a feature is worth in words: ``8 if closed; 4 now`` (a city), ``2`` (a road: the same
    either way), ``3`` (a farm, at the end), ``4, complete``."""
    now, closed = game.worth(info)
    if info.kind is SegmentKind.RIVER:
        # Translators: what the river is worth in the inspector
        return _("not scored")
    if info.complete:
        # Translators: what a feature is worth in the inspector; {points}: a number (digits)
        return _("{points}, complete").format(points=now)
    if closed is None or closed == now:
        return str(now)
    # Translators: what a feature is worth in the inspector; {closed}: its points once closed, {now}: now
    return _("{closed} if closed; {now} now").format(closed=closed, now=now)


def short_worth(game: Game, info: FeatureInfo) -> str:
    """:func:`worth_text` for a narrow panel: ``3 (6 closed)``, ``2``, ``4 complete``."""
    now, closed = game.worth(info)
    if info.kind is SegmentKind.RIVER:
        return _("not scored")
    if info.complete:
        # Translators: what a feature is worth, in a narrow panel; {points}: a number (digits)
        return _("{points} complete").format(points=now)
    if closed is None or closed == now:
        return str(now)
    # Translators: what a feature is worth, in a narrow panel; {now}: its points now, {closed}: once closed
    return _("{now} ({closed} closed)").format(now=now, closed=closed)


#: Under this many cells across, the deploy choice gives a spot one line, its feature's kind and
#: points (:func:`short_worth`), not its make-up: the side panel at 60 columns.
NARROW = 30


@dataclass(frozen=True, slots=True)
class TileFeatures:
    """The features of one placed tile, as the inspector lists them.

    Attributes:
        position: The tile's position.
        letter: Its design.
        features: Each feature once, as ``(a segment of it on this tile, its snapshot)``, cloisters
            first, then cities, roads, fields, the river.
    """

    position: Position
    letter: str
    features: tuple[tuple[int, FeatureInfo], ...]


def tile_features(game: Game, position: Position) -> TileFeatures | None:
    """The features of the tile at *position*, or ``None`` where there is no tile."""
    tile = game.tile_at(position)
    if tile is None:
        return None
    seen: dict[tuple[Position, int], tuple[int, FeatureInfo]] = {}
    for segment in range(len(tile.variant.segments)):
        info = game.feature_at(position, segment)
        seen.setdefault(info.anchor, (segment, info))
    ordered = sorted(seen.values(), key=lambda item: (_ORDER.get(item[1].kind, 9), item[0]))
    return TileFeatures(position, tile.kind.letter, tuple(ordered))


def outline(game: Game, position: Position, segment: int) -> dict[Position, frozenset[int]]:
    """The segments to outline for the feature holding *segment* at *position*, by position: the
    feature's own, and for a farm also those of the completed cities it supplies."""
    by_position: dict[Position, set[int]] = {}
    for p, s in game.feature_segments(position, segment):
        by_position.setdefault(p, set()).add(s)
    info = game.feature_at(position, segment)
    for city in info.cities:  # a farm's completed cities: their city segments on their tiles
        for p in city:
            tile = game.tile_at(p)
            assert tile is not None
            for s, seg in enumerate(tile.variant.segments):
                if seg.kind is SegmentKind.CITY and game.feature_at(p, s).tiles == city:
                    by_position.setdefault(p, set()).add(s)
    return {p: frozenset(s) for p, s in by_position.items()}


def flow(parts: Sequence[Text], width: int, indent: str | Text, more: str, sep: str = " · ") -> list[Text]:
    """*parts* joined by *sep* in lines of at most *width* cells (0: one line), the first line
    after *indent*, the others after *more*: a line breaks only between parts, so that no line ends
    or starts with the separator (a part wider than a line is left for the panel to wrap).

    >>> [t.plain for t in flow([Text("field, 0 completed cities"), Text("nobody"), Text("1")], 30, "  ", "    ")]
    ['  field, 0 completed cities', '    nobody · 1']
    """
    lines = [indent.copy() if isinstance(indent, Text) else Text(indent)]
    fresh = True
    for part in parts:
        line = lines[-1]
        if not fresh and width and line.cell_len + len(sep) + part.cell_len > width:
            lines.append(Text(more))
            line, fresh = lines[-1], True
        if not fresh:
            line.append(sep)
        line.append_text(part)
        fresh = False
    return lines


def _hint() -> Text:
    """What the panel says where there is nothing to explain."""
    return Text(_("Put the cursor or the mouse on a tile: its features, who holds them and what they are worth "
                  "show here."), style="dim")


def _marks_words(marks: Sequence[str]) -> str:
    """The marks of a whole tile in words (Hills & Sheep): ``a hill``, ``a vineyard``; ``""`` for none."""
    words = {
        # Translators: a mark of the whole tile (Hills & Sheep), after where the tile is in the inspector:
        # "In the north · a hill"
        "hill": pgettext("tile mark", "a hill"),
        # Translators: a mark of the whole tile (Hills & Sheep), after where the tile is in the inspector:
        # "In the north · a vineyard"
        "vineyard": pgettext("tile mark", "a vineyard"),
    }
    return listed([words[m] for m in marks if m in words])


def _no_spot(figure: Figure) -> str:
    """The deploy choice's line when *figure* has no spot on the tile (its face's)."""
    return face(figure).no_spot()


def _spots_of(figure: Figure) -> str:
    """The deploy choice's line for the key that switches to *figure*: ``{key}: the abbot's spots``
    (its face's)."""
    return face(figure).spots()


class Inspector(Static):
    """The panel: :meth:`show_spots` while deploying, :meth:`show_tile` otherwise, :meth:`clear`
    where there is nothing to explain."""

    DEFAULT_CSS = """
    Inspector { height: 10; padding: 0 1; border-top: solid $panel-lighten-2; }
    """
    """A fixed height: what it shows changes at every cursor move, and a panel that grew and shrank
    would lay the whole side panel out again each time (the benchmark's p90 went from 5 to 20 ms)."""

    def __init__(self, names: Sequence[str], colours: Sequence[str], *, id: str | None = None) -> None:
        super().__init__(_hint(), id=id)
        self._names = list(names)
        self._colours = list(colours)
        #: Whether it shows only how to use it (nothing under the cursor to explain).
        self.empty = True
        #: What it shows, to show again at another width (its lines break at the panel's width).
        self._again: Callable[[], None] | None = None

    def on_resize(self) -> None:
        if self._again is not None:  # its lines break between parts, at the panel's width
            self._again()

    def clear(self) -> None:
        """Shows how to use it (nothing to explain under the cursor)."""
        self.empty = True
        self._again = None
        self.update(_hint())

    def _holders(self, info: FeatureInfo) -> Text:
        """Who holds a feature: each seat's followers on it, e.g. ``Red 2, Blue 1 (abbot)``; Traders &
        Builders' builder and pig named apart (they count for no majority), e.g. ``Red 1 and the
        builder``."""
        if not info.meeples:
            # Translators: who holds a feature, in the inspector: no one
            return Text(_("nobody"), style="dim")
        counts: dict[int, list[Figure]] = {}
        for seat, figure in info.meeples:
            counts.setdefault(seat, []).append(figure)
        out = Text()
        for i, (seat, figures) in enumerate(counts.items()):
            if i:
                out.append(pgettext("list separator", ", "))
            followers = [f for f in figures if face(f).follower]
            helpers = chained([figure_name(f) for f in DEPLOY_ORDER if f in figures and not face(f).follower])
            name = self._names[seat]
            holder = Text()
            holder.append(f"{name} {len(followers)}" if followers else name, style=seat_style(self._colours[seat]))
            for f in DEPLOY_ORDER:  # the abbot's, the large meeple's note
                note = face(f).holds_note
                if note is not None and f in followers:
                    holder.append(" " + note())
            if helpers and followers:
                # Translators: who holds a feature: {seat}: a seat and its figures ("Red 1"), {helpers}: the
                # builder, the pig or both ("the builder and the pig")
                holder = styled(_("{seat} and {helpers}"), seat=holder, helpers=helpers)
            elif helpers:
                # Translators: who holds a feature: {seat}: a seat's name, {helpers}: the builder, the pig or
                # both ("the builder and the pig")
                holder = styled(_("{seat}: {helpers}"), seat=holder, helpers=helpers)
            out.append_text(holder)
        return out

    def _flocks(self, game: Game) -> dict[tuple[Position, int], Text]:
        """The shepherds on the board (Hills & Sheep) by their field (its anchor): each seat's with its
        sheep, then the flock the field's shepherds share, e.g. ``shepherd: Red 3 sheep``,
        ``shepherds: Red 3, Blue 2 sheep (a flock of 5)``."""
        by_field: dict[tuple[Position, int], list[tuple[int, int]]] = {}
        for seat, position, segment, sheep in shepherds(game):
            by_field.setdefault(game.feature_at(position, segment).anchor, []).append((seat, sheep))
        out = {}
        for anchor, held in by_field.items():
            total = sum(sheep for _seat, sheep in held)
            names = Text()
            for i, (seat, sheep) in enumerate(held):
                if i:
                    names.append(pgettext("list separator", ", "))
                names.append(f"{self._names[seat]} {sheep}", style=seat_style(self._colours[seat]))
            if len(held) == 1:
                # Translators: a field's shepherd in the inspector (Hills & Sheep): {shepherd}: its seat's name
                # and its sheep ("Red 3"; the plural agrees with that number)
                said = ngettext("shepherd: {shepherd} sheep", "shepherd: {shepherd} sheep", total)
            else:
                # Translators: a field's shepherds in the inspector (Hills & Sheep): {shepherds}: each seat and its
                # sheep ("Red 3, Blue 2"); {count}: the sheep of the flock they share, which each scores (digits)
                said = ngettext("shepherds: {shepherds} sheep (a flock of {count})",
                                "shepherds: {shepherds} sheep (a flock of {count})", total)
            out[anchor] = styled(said, shepherd=names, shepherds=names, count=str(total))
        return out

    def show_spots(self, game: Game, spots: Sequence[int], figure: Figure, *, other: Figure | None,
                   recall: Position | None, selected: int | None = None) -> None:
        """The deploy choice: each spot of the placed tile for *figure*, numbered as on the board,
        with its feature and points; ``a`` and the *other* figure it switches to (the meeple, the
        large meeple, the abbot) when another has spots too; the recall.

        Only the row of *selected* (an index of *spots*: the spot the board highlights, which Enter
        deploys on) looks selected, ``▸`` and reversed; the others are plain."""
        self._again = lambda: self.show_spots(game, spots, figure, other=other, recall=recall,
                                              selected=selected)
        placed = game.placed
        if placed is None:
            self.clear()
            return
        lines = []
        width = self.size.width
        for number, segment in enumerate(spots, start=1):
            info = game.feature_at(placed, segment)
            chosen = number - 1 == selected
            mark = Text(f"{'▸' if chosen else ' '}{number} ", style="bold")
            if figure is Figure.SHEPHERD:  # its flock, not the farm's points
                # Translators: what the shepherd does once deployed (Hills & Sheep), in the deploy choice
                worth = short = _("a token from the sheep bag")
            else:
                worth, short = worth_text(game, info), short_worth(game, info)
            if 0 < width < NARROW:  # a line a spot, its points first: they were wrapped out of sight
                # Translators: a deploy spot in a narrow panel: {feature}: its kind ("city"), {points}: what
                # it is worth ("3 (6 closed)")
                row = [mark + styled(_("{feature}: {points}"), feature=kind_words(info.kind),
                                     points=Text(short, style="bold"))]
            else:
                # Translators: a deploy spot: {feature}: what its feature is made of ("city, 3 tiles"), then
                # what it is worth
                spot = Text(_("{feature}:").format(feature=feature_words(info)))
                row = flow([spot, Text(worth, style="bold")], width, mark, "   ", sep=" ")
            if chosen:  # the whole row, on every line it takes
                for line in row:
                    line.pad_right(max(0, width - line.cell_len))
                    line.stylize("reverse")
            lines.extend(row)
        if not spots:
            lines.append(Text(_no_spot(figure), style="dim"))
        if other is not None:
            lines.append(Text(_spots_of(other).format(key="a"), style="dim"))
        if recall is not None:
            held = next((game.feature_at(p, s) for seat, f, p, s in game.figures()
                         if f is Figure.ABBOT and seat == game.seat), None)
            if held is not None:
                line = Text(" A ", style="bold")
                # Translators: what "{points} now" says in "recall the abbot (...): 3 now"
                points = Text(_("{points} now").format(points=game.worth(held)[0]), style="bold")
                # Translators: the abbot taken back (The Abbot); {feature}: what its cloister or garden is made
                # of ("garden, 2 of 8 neighbours"), {points}: what it scores ("3 now")
                line.append_text(styled(_("recall the abbot ({feature}): {points}"), feature=feature_words(held),
                                        points=points))
                lines.append(line)
        self.empty = False
        self.update(Text("\n").join(lines))

    def show_tile(self, game: Game, features: TileFeatures, chosen: int) -> None:
        """The features of a placed tile, the *chosen* one (an index of ``features.features``) marked."""
        self._again = lambda: self.show_tile(game, features, chosen)
        p = features.position
        where = _("The start tile") if (p.x, p.y) == (0, 0) else where_words(p)[:1].upper() + where_words(p)[1:]
        lines = [Text(where, style="bold")]  # what it shows, feature by feature, below
        marks = _marks_words(tile_kind(features.letter).marks)
        if marks:
            lines[0].append(" · " + marks, style="dim")
        flocks = self._flocks(game)
        width = self.size.width
        for i, (segment, info) in enumerate(features.features):
            shepherds = flocks.get(info.anchor)
            if i != chosen:  # what it is and who holds it
                parts = [Text(feature_words(info), style="dim"), self._holders(info)]
                if shepherds is not None:
                    parts.append(shepherds)
                lines.extend(flow(parts, width, "  ", "    "))
                continue
            lines.append(Text("▸ " + feature_words(info), style="bold"))
            parts = []
            if info.kind is not SegmentKind.FIELD and not info.complete:
                sides = game.open_sides(p, segment)
                if info.kind in (SegmentKind.CLOISTER, SegmentKind.GARDEN):
                    # Translators: the places around a cloister or garden still without a tile
                    parts.append(Text(ngettext("{count} to place around", "{count} to place around",
                                               sides).format(count=sides)))
                else:
                    # Translators: the open sides of a road or city, in the inspector
                    parts.append(Text(ngettext("{count} open side", "{count} open sides", sides).format(count=sides)))
            elif info.complete:
                # Translators: a feature finished, in the inspector
                parts.append(Text(_("complete")))
            parts.append(self._holders(info))
            parts.append(Text(worth_text(game, info), style="bold"))
            if shepherds is not None:
                parts.append(shepherds)
            lines.extend(flow(parts, width, "    ", "    "))
        if len(features.features) > 1:
            # Translators: {key}: the key ("i")
            lines.append(Text(_("{key}: outline the next feature").format(key="i"), style="dim"))
        self.empty = False
        self.update(Text("\n").join(lines))
