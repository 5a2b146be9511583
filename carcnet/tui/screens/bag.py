"""Provides the bag screen (``t``): every tile design still to come and how many, as pictures.

What every player may know of the bag is its contents, never its order: at a network table the order
does not exist before each draw (``protocol/deck.md`` §5), and a local game's seeded order is not shown
either. Reads the game (``Game.remaining()``); changes nothing.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from carcnet.engine import Game, SegmentKind, tile_kind
from carcnet.tui.render import Zoom, tile_art
from carcnet.tui.widgets.painting import art_line
from carcnet.tui.widgets.footer import KeyFooter

__all__ = ["BagScreen", "bag_text"]

_PER_ROW = 7


def bag_text(game: Game) -> Text:
    """The bag as text: per design its picture (9 × 5 cells, unrotated) and ``×count``, seven to a
    row; then how many tiles left hold each kind of feature; then the dead spots, the open positions
    no tile left fits (``Game.dead_spots``)."""
    remaining = game.remaining()
    out = Text()
    total = sum(remaining.values())
    out.append(f"{total} tile{'s' if total != 1 else ''} left in the bag", style="bold")
    out.append("  (its contents, which everyone may know; never its order)\n\n", style="dim")
    letters = list(remaining)
    for start in range(0, len(letters), _PER_ROW):
        row = letters[start : start + _PER_ROW]
        arts = [tile_art(tile_kind(letter), 0, Zoom.DETAILED) for letter in row]
        for r in range(Zoom.DETAILED.size[1]):
            for art in arts:
                out.append_text(art_line(art, r))
                out.append("  ")
            out.append("\n")
        for letter in row:
            out.append(f"{letter:<5}×{remaining[letter]:<3}  ", style="bold")
        out.append("\n\n")
    kinds = {"city": 0, "road": 0, "cloister": 0, "garden": 0, "river": 0, "pennant": 0, "inn": 0, "cathedral": 0}
    for letter, count in remaining.items():
        kind = tile_kind(letter)
        seen = {seg.kind for seg in kind.segments}
        for name, segment_kind in (("city", SegmentKind.CITY), ("road", SegmentKind.ROAD),
                                   ("cloister", SegmentKind.CLOISTER), ("garden", SegmentKind.GARDEN),
                                   ("river", SegmentKind.RIVER)):
            if segment_kind in seen:
                kinds[name] += count
        for mark in ("pennant", "inn", "cathedral"):  # Inns & Cathedrals' inns and cathedrals too
            if any(getattr(seg, mark, False) for seg in kind.segments):
                kinds[mark] += count
    shown = ", ".join(f"{n} with {'an' if name[0] in 'aeiou' else 'a'} {name}" for name, n in kinds.items() if n)
    if shown:
        out.append(f"Tiles left: {shown}.", style="dim")
    dead = game.dead_spots()
    out.append("\n\n")
    if dead:
        where = ", ".join(f"{p.x},{p.y}" for p in dead)
        out.append(f"Dead spots: {len(dead)}", style="bold")
        out.append(f" (no tile left fits there; they stay empty, and a cloister beside one is never "
                   f"completed): {where}.", style="dim")
    else:
        out.append("No dead spot: a tile left fits every open position.", style="dim")
    return out


class BagScreen(ModalScreen[None]):
    """The tiles left in the bag (``t``; Escape closes)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,t,enter", "close", "Close")]
    """Escape, t or Enter closes."""

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="bag"):
            yield Static(bag_text(self.game), id="bag-text")
        yield KeyFooter()

    def action_close(self) -> None:
        self.dismiss(None)
