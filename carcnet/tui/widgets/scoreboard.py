"""Provides the scoreboard: each seat's colour, name, score and meeples in supply, whose turn it is,
the tiles left and the drawn tile."""

from __future__ import annotations

from collections.abc import Mapping

from rich.cells import cell_len
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.widget import Widget
from textual.widgets import Static

from carcnet.engine import MEEPLES_PER_PLAYER, Figure, Game, Phase, Rules, tile_kind
from carcnet.engine.expansions import traders
from carcnet.i18n import _, ngettext
from carcnet.tui.render import UNICODE_GLYPHS, Glyphs, Zoom, dragon_view, shepherds, tile_art
from carcnet.tui.widgets.painting import art_line
from carcnet.tui.words import tile_words, variant_words

from .palette import seat_style

__all__ = ["NAME_ROOM", "Scoreboard", "cut"]

#: The fewest cells a name gets on its seat's line before the supply is drawn as a count, then on a
#: line of its own under the name: enough for most names whole, and a long one's first word.
NAME_ROOM = 10


def cut(text: str, width: int) -> str:
    """*text* in at most *width* cells: whole, or cut and ending in ``…``.

    >>> cut("Bartholomew", 6), cut("Bob", 6)
    ('Barth…', 'Bob')
    """
    if cell_len(text) <= width:
        return text
    out = ""
    for char in text:
        if cell_len(out + char) > width - 1:
            break
        out += char
    return out + "…"


class Scoreboard(Static):
    """Scores, supplies and turn for every seat, then the drawn tile (turned as the cursor shows it).

    Call :meth:`show` after every change. Reads the game; never changes it.
    """

    DEFAULT_CSS = """
    Scoreboard { height: auto; padding: 0 1; }
    """

    def __init__(self, names: list[str], colours: list[str], *, glyphs: Glyphs = UNICODE_GLYPHS,
                 id: str | None = None) -> None:
        super().__init__(id=id)
        self._names = names
        self._colours = colours
        self._glyphs = glyphs
        self._shown: tuple[Game, int | None, Mapping[int, str] | None, str | None,
                           Mapping[int, str] | None] | None = None

    def on_resize(self) -> None:
        if self._shown is not None:  # the supply is drawn as a count in a narrow panel
            self.show(*self._shown)

    @staticmethod
    def who(name: str, style: str, mark: str | None, width: int | None = None) -> Text:
        """A name cell: the name, then *mark* in brackets (``bot``, ``you``, ``away``…; red when away),
        at most *width* cells wide: the name is cut first (ending in ``…``), so that the mark stays."""
        suffix = f" ({mark})" if mark else ""
        if width is not None and cell_len(name) + cell_len(suffix) > width:
            room = width - cell_len(suffix)
            if room >= 4:  # a few letters of the name, and the whole mark
                name = cut(name, room)
            else:
                name, suffix = cut(name + suffix, width), ""
        who = Text(name, style=style)
        if suffix:
            away = "away" in suffix or _("away") in suffix  # the mark as the game screen words it
            who.append(suffix, style="bold red" if away else "dim")
        return who

    def _rows(self, game: Game, over: bool, clocks: Mapping[int, str] | None, *,
              counted: bool) -> list[tuple[str, str, str, str | None]]:
        """Each seat's turn mark, score, supply and clock; the meeples as a count when *counted*, else
        as dots."""
        rows = []
        for seat in range(len(self._names)):
            turn = "▶" if seat == game.seat and not over else ("★" if over and seat in game.winners else " ")
            clock = (clocks or {}).get(seat, "") if clocks else None
            rows.append((turn, str(game.scores[seat]), self._supply(game, seat, counted), clock))
        return rows

    @staticmethod
    def _supply(game: Game, seat: int, counted: bool) -> str:
        """What *seat* holds in supply: its meeples (a count when *counted*, else dots), then the
        expansions' figures (a capital in supply, a small letter on the board), the goods, the
        shepherd (with its sheep on the board), and ``✦`` when the fairy stands by one of its followers."""
        supply = game.supply[seat]
        meeples = f"{supply}●" if counted else "●" * supply + "○" * (MEEPLES_PER_PLAYER - supply)
        gap = "" if counted else " "
        if game.setup.rules.inns:  # the large meeple: L in supply, l on the board
            meeples += gap + ("L" if game.supply_of(Figure.LARGE)[seat] else "l")
        if game.setup.rules.abbot:
            meeples += gap + ("A" if game.supply_of(Figure.ABBOT)[seat] else "a")
        goods = traders.goods(game)
        if goods is not None:  # Traders & Builders: B and P in supply (b, p on the board), the goods
            meeples += gap + ("B" if game.supplies[Figure.BUILDER][seat] else "b")
            meeples += "P" if game.supplies[Figure.PIG][seat] else "p"
            # wine, grain, cloth tokens, the letter capital where the seat holds the most of the kind
            # (ties too): the 10 points it would score if the game ended now (the help says so)
            meeples += " " + " ".join(
                (letter.upper() if n and n == max(g[k] for g in goods) else letter) + str(n)
                for k, (letter, n) in enumerate(zip("wgc", goods[seat], strict=True)))
        if game.setup.rules.hills_sheep:  # the shepherd: S in supply, s and its sheep on the board
            flock = next((sheep for other, _p, _s, sheep in shepherds(game) if other == seat), None)
            meeples += gap + ("S" if flock is None else f"s{flock}")
        if game.setup.rules.princess_dragon:  # the fairy by one of the seat's followers: a point a turn
            fairy = dragon_view(game).fairy
            if fairy is not None and fairy[1] >= 0 and any(
                    s == seat and p == fairy[0] and g == fairy[1] for s, _f, p, g in game.figures()):
                meeples += gap + "✦"
        return meeples

    @staticmethod
    def _room(rows: list[tuple[str, str, str, str | None]], width: int) -> int:
        """The cells a name has in one line of *width* cells beside the other columns (a space between
        each)."""
        others = 1 + max(len(r[1]) for r in rows) + max(len(r[2]) for r in rows) + 3
        if any(r[3] is not None for r in rows):
            others += max(len(r[3] or "") for r in rows) + 1
        return width - others

    def _budget(self) -> int | None:
        """The rows the scoreboard may take in its panel: what the inspector's panel and the log's rule
        leave (the log's lines scroll; ``None`` outside a board screen's side panel)."""
        side = self.parent
        if not isinstance(side, Widget) or not side.size.height:
            return None
        taken = sum(child.outer_size.height for child in side.children if child is not self and child.styles.height
                    is not None and not child.styles.height.is_fraction)
        return side.size.height - taken - 1

    def _table(self, rows: list[tuple[str, str, str, str | None]], marks: Mapping[int, str] | None,
               two_lines: bool, width: int) -> Table:
        """The seats' rows: on one line each, or on *two_lines* (the name and score, then the supply,
        after the clock or under it)."""
        room: int | None = None
        if width:
            room = max(3, width - 1 - max(len(r[1]) for r in rows) - 2) if two_lines else max(3, self._room(rows, width))
        table = Table.grid(padding=(0, 1))
        table.add_column(width=1)
        table.add_column(no_wrap=True, ratio=1)
        if any(r[3] is not None for r in rows) and not two_lines:
            table.add_column(no_wrap=True, style="dim")
        table.add_column(justify="right", no_wrap=True)
        if not two_lines:
            table.add_column(no_wrap=True)
        for seat, (turn, score, meeples, clock) in enumerate(rows):
            style = seat_style(self._colours[seat])
            cells = [Text(turn, style=style), self.who(self._names[seat], style, (marks or {}).get(seat), room)]
            if two_lines:
                table.add_row(*cells, Text(score, style="bold"))
                supply = Text(meeples, style=style)
                if clock and cell_len(f"{clock} {meeples}") <= width - 2:
                    supply = Text.assemble((clock, "dim"), " ", supply)
                elif clock:  # the clock on a line of its own
                    table.add_row(Text(""), Text(clock, style="dim"), Text(""))
                table.add_row(Text(""), supply, Text(""))
                continue
            if clock is not None:
                cells.append(Text(clock))
            table.add_row(*cells, Text(score, style="bold"), Text(meeples, style=style))
        return table

    def show(self, game: Game, rotation: int | None = None, marks: Mapping[int, str] | None = None,
             note: str | None = None, clocks: Mapping[int, str] | None = None) -> None:
        """Redraws from *game*; *rotation* turns the drawn tile preview; *marks* (seat → text) follow
        the names; *note* replaces the line under a placed tile ("deploy or skip"); *clocks* (seat →
        ``0:42+5:00``) get a column of their own (a table with a turn clock).

        Every seat's row keeps its turn arrow, score and supply (meeples; the large meeple, ``L`` in
        supply and ``l`` on the board; the abbot, ``A`` and ``a``; the builder and pig, ``B`` ``P`` and
        ``b`` ``p``, then the goods tokens: ``w1 G2 c0``, a capital for a kind the seat holds the most
        of, ties included; the shepherd, ``S`` in supply, ``s`` and its sheep on the board: ``s5``; ``✦``
        the fairy by one of the seat's followers)
        whatever the width:
        a long name (up to 32 characters) is cut to the room left, ending in ``…``."""
        self._shown = (game, rotation, marks, note, clocks)
        over = game.phase is Phase.GAME_OVER
        width = self.size.width  # within the padding
        rows, two_lines, zoom = self._layout(game, over, marks, clocks, width)
        parts: list[Table | Text] = [self._table(rows, marks, two_lines, width)]
        parts += self._under(game, over, two_lines, zoom, rotation, note)
        self.update(Group(*parts))

    def _layout(self, game: Game, over: bool, marks: Mapping[int, str] | None,
                clocks: Mapping[int, str] | None,
                width: int) -> tuple[list[tuple[str, str, str, str | None]], bool, Zoom | None]:
        """The seats' rows and how they are laid out in *width* cells: the supply as dots, or as a count
        where the dots would cut a name shorter than it wants (:meth:`_need`); each seat on two lines
        where even that is too short; and the zoom of the drawn tile under them (``None``: in words)."""
        need = self._need(marks)
        rows = self._rows(game, over, clocks, counted=bool(clocks))
        if width and self._room(rows, width) < need:
            rows = self._rows(game, over, clocks, counted=True)
        if width and self._room(rows, width) < need:
            two_lines, zoom = self._two_lines(game, over, rows, width)
            return rows, two_lines, zoom
        return rows, False, Zoom.DETAILED

    def _need(self, marks: Mapping[int, str] | None) -> int:
        """The cells the names want: each whole (its first :data:`NAME_ROOM` cells if longer) with its
        mark."""
        marks = marks or {}
        return max(min(cell_len(name), NAME_ROOM) + (cell_len(f" ({marks[seat]})") if marks.get(seat) else 0)
                   for seat, name in enumerate(self._names))

    def _two_lines(self, game: Game, over: bool, rows: list[tuple[str, str, str, str | None]],
                   width: int) -> tuple[bool, Zoom | None]:
        """Whether each seat goes on two lines (the name and score, then the supply and clock under
        it): where the panel has the rows for them, with a smaller drawn tile or none if it must; and
        the drawn tile's zoom then."""
        budget = self._budget()
        extra = 0 if over else 1 + (game.drawn is not None or game.placed is not None)
        for preview in (Zoom.DETAILED, Zoom.OVERVIEW, None):
            art_rows = preview.size[1] if preview is not None and game.drawn is not None and not over else 0
            lines = sum(2 + (r[3] is not None and cell_len(f"{r[3]} {r[2]}") > width - 2) for r in rows)
            if budget is None or lines + extra + art_rows <= budget:
                return True, preview
        return False, Zoom.DETAILED

    def _under(self, game: Game, over: bool, two_lines: bool, zoom: Zoom | None, rotation: int | None,
               note: str | None) -> list[Table | Text]:
        """What goes under the seats: "Game over", or the tiles left (and the variants played), then the
        drawn tile (drawn at *zoom*, turned by *rotation*; in words where *zoom* is ``None``) or the
        line under a placed tile (*note*)."""
        gap = "" if two_lines else "\n"  # two lines a seat: no blank line under them
        if over:
            return [Text(gap + _("Game over"), style="bold")]
        left = game.tiles_left
        # Translators: under the scoreboard; {count}: a number (digits)
        tiles = ngettext("{count} tile left", "{count} tiles left", left).format(count=left)
        parts: list[Table | Text] = [
            Text(gap + tiles + "".join(f" · {v}" for v in variant_words(game.setup.rules)), style="dim")]
        style = seat_style(self._colours[game.seat])
        drawn = game.drawn
        if drawn is not None:
            # the tile drawn under it; where there is no room for it, in words
            if zoom is not None:
                # Translators: under the scoreboard, over the drawn tile's picture; {player}: a seat's name
                said = _("{player} draws:").format(player=self._names[game.seat])
            else:
                # Translators: under the scoreboard; {player}: a seat's name, {tile}: what the tile shows ("a
                # tile with a city")
                said = _("{player} draws {tile}").format(player=self._names[game.seat], tile=tile_words(drawn))
            parts.append(Text(said, style=style, overflow="ellipsis", no_wrap=True))
            if zoom is not None:
                art = tile_art(tile_kind(drawn), rotation or 0, zoom, self._glyphs)
                parts.append(Text("\n").join(art_line(art, r) for r in range(art.height)))  # in colour
        elif game.placed is not None:
            # Translators: under the scoreboard while a seat deploys; {player}: a seat's name, {note}: what
            # it may do ("deploy or skip")
            said = _("{player}: {note}").format(player=self._names[game.seat], note=note or _("deploy or skip"))
            parts.append(Text(said, style=style))
        return parts


