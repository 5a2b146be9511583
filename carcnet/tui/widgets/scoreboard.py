"""Provides the scoreboard: each seat's colour, name, score and meeples in supply, whose turn it is,
the tiles left and the drawn tile."""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from carcnet.engine import MEEPLES_PER_PLAYER, Game, Phase, tile_kind
from carcnet.tui.render import UNICODE_GLYPHS, Glyphs, Zoom, tile_art
from carcnet.tui.widgets.board import art_line

from .palette import seat_style

__all__ = ["Scoreboard"]


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
    def who(name: str, style: str, mark: str | None) -> Text:
        """A name cell: the name, then *mark* in brackets (``bot``, ``you``, ``away``…; red when away)."""
        who = Text(name, style=style)
        if mark:
            who.append(f" ({mark})", style="bold red" if "away" in mark else "dim")
        return who

    def show(self, game: Game, rotation: int | None = None, marks: Mapping[int, str] | None = None,
             note: str | None = None, clocks: Mapping[int, str] | None = None) -> None:
        """Redraws from *game*; *rotation* turns the drawn tile preview; *marks* (seat → text) follow
        the names; *note* replaces the line under a placed tile ("deploy or skip"); *clocks* (seat →
        ``0:42+5:00``) get a column of their own (a table with a turn clock)."""
        self._shown = (game, rotation, marks, note, clocks)
        table = Table.grid(padding=(0, 1))
        table.add_column(width=1)
        if clocks and self.size.width:  # the names give way to the clocks (cut with an ellipsis)
            others = 1 + max(map(len, clocks.values())) + len(str(max(game.scores))) + 4 + 4
            table.add_column(no_wrap=True, overflow="ellipsis", max_width=max(4, self.size.width - 2 - others))
        else:
            table.add_column(ratio=1, no_wrap=True)
        if clocks:
            table.add_column(no_wrap=True, style="dim")
        table.add_column(justify="right")
        table.add_column(no_wrap=True)
        over = game.phase is Phase.GAME_OVER
        for seat, name in enumerate(self._names):
            style = seat_style(self._colours[seat])
            turn = "▶" if seat == game.seat and not over else ("★" if over and seat in game.winners else " ")
            supply = game.supply[seat]
            # a narrow side panel (at 80 columns), or room for the clocks: a count, not 7 dots
            narrow = 0 < self.size.width < 30 or bool(clocks)
            meeples = f"{supply}●" if narrow else "●" * supply + "○" * (MEEPLES_PER_PLAYER - supply)
            if game.setup.rules.abbot:
                meeples += ("A" if game.abbots[seat] else "a") if narrow else (" A" if game.abbots[seat] else " a")
            cells = [Text(turn, style=style), self.who(name, style, (marks or {}).get(seat))]
            if clocks:
                cells.append(Text(clocks.get(seat, "")))
            table.add_row(*cells, Text(str(game.scores[seat]), style="bold"), Text(meeples, style=style))
        parts: list[Table | Text] = [table]
        if over:
            parts.append(Text("\nGame over", style="bold"))
        else:
            variants = game.setup.rules.variants()  # the scoring the table plays, when not HiG's
            parts.append(Text(f"\n{game.tiles_left} tiles left" + "".join(f" · {v}" for v in variants), style="dim"))
            drawn = game.drawn
            if drawn is not None:
                art = tile_art(tile_kind(drawn), rotation or 0, Zoom.DETAILED, self._glyphs)
                parts.append(Text(f"{self._names[game.seat]} draws {drawn}:", style=seat_style(self._colours[game.seat])))
                parts.append(Text("\n").join(art_line(art, r) for r in range(art.height)))  # in colour
            elif game.placed is not None:
                parts.append(Text(f"{self._names[game.seat]}: {note or 'deploy or skip'}",
                                  style=seat_style(self._colours[game.seat])))
        self.update(Group(*parts))


