"""Provides the bag screen (``t``): every tile design still to come and how many, as pictures; with
Hills & Sheep, the tiles under hills and the sheep bag's tokens; with The Princess & the Dragon, the
dragon tiles held beside the pile before the first volcano.

What every player may know of the bag is its contents, never its order: at a network table the order
does not exist before each draw (``protocol/deck.md`` §5), and a local game's seeded order is not shown
either. Reads the game (``Game.remaining()``); changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from carcnet.engine import Game, SegmentKind, tile_kind
from carcnet.engine.expansions import hills
from carcnet.i18n import N_, _, ngettext, pgettext
from carcnet.tui.render import Zoom, tile_art
from carcnet.tui.widgets.painting import art_line
from carcnet.tui.widgets.footer import KeyFooter

__all__ = ["BagScreen", "bag_text"]

_PER_ROW = 7


_WITH: dict[str, Callable[[int], str]] = {
    # Translators: {n} of the tiles left in the bag hold a city (a part of "Tiles left: {kinds}.")
    "city": lambda n: ngettext("{n} with a city", "{n} with a city", n),
    # Translators: {n} of the tiles left in the bag hold a road
    "road": lambda n: ngettext("{n} with a road", "{n} with a road", n),
    # Translators: {n} of the tiles left in the bag hold a cloister
    "cloister": lambda n: ngettext("{n} with a cloister", "{n} with a cloister", n),
    # Translators: {n} of the tiles left in the bag hold a garden
    "garden": lambda n: ngettext("{n} with a garden", "{n} with a garden", n),
    # Translators: {n} of the tiles left in the bag hold a river
    "river": lambda n: ngettext("{n} with a river", "{n} with a river", n),
    # Translators: {n} of the tiles left in the bag hold a pennant
    "pennant": lambda n: ngettext("{n} with a pennant", "{n} with a pennant", n),
    # Translators: {n} of the tiles left in the bag hold an inn
    "inn": lambda n: ngettext("{n} with an inn", "{n} with an inn", n),
    # Translators: {n} of the tiles left in the bag hold a cathedral
    "cathedral": lambda n: ngettext("{n} with a cathedral", "{n} with a cathedral", n),
    # Translators: {n} of the tiles left in the bag show a hill (Hills & Sheep)
    "hill": lambda n: ngettext("{n} with a hill", "{n} with a hill", n),
    # Translators: {n} of the tiles left in the bag show a vineyard (Hills & Sheep)
    "vineyard": lambda n: ngettext("{n} with a vineyard", "{n} with a vineyard", n),
    # Translators: {n} of the tiles left in the bag show a volcano (The Princess & the Dragon)
    "volcano": lambda n: ngettext("{n} with a volcano", "{n} with a volcano", n),
    # Translators: {n} of the tiles left in the bag show the dragon (The Princess & the Dragon: placing one
    # moves the dragon)
    "dragon": lambda n: ngettext("{n} with the dragon", "{n} with the dragon", n),
    # Translators: {n} of the tiles left in the bag show a princess (The Princess & the Dragon)
    "princess": lambda n: ngettext("{n} with a princess", "{n} with a princess", n),
    # Translators: {n} of the tiles left in the bag show a magic portal (The Princess & the Dragon)
    "portal": lambda n: ngettext("{n} with a magic portal", "{n} with a magic portal", n),
}
"""How many tiles left hold each kind of feature, in words, by kind (:func:`bag_text`'s last line)."""


def _with_words(kind: str, n: int) -> str:
    """``3 with a city``: *n* tiles left hold a feature of *kind*."""
    return _WITH[kind](n).format(n=n)


def bag_text(game: Game) -> Text:
    """The bag as text: per design its picture (9 × 5 cells, unrotated) and ``×count``, seven to a
    row; then how many tiles left hold each kind of feature; then the dead spots, the open positions
    no tile left fits (``Game.dead_spots``)."""
    remaining = game.remaining()
    out = Text()
    total = sum(remaining.values())
    # Translators: the bag screen's first line, {n} the number of tiles left to draw
    out.append(ngettext("{n} tile left in the bag", "{n} tiles left in the bag", total).format(n=total), style="bold")
    out.append("  " + _("(its contents, which everyone may know; never its order)") + "\n", style="dim")
    if game.hidden:  # Hills & Sheep: which ones, nobody knows
        # Translators: under "{n} tiles left in the bag" (Hills & Sheep): {n} of them lie under hills
        out.append(ngettext("{n} of them lies face down under a hill: out of the game, no one knows which",
                            "{n} of them lie face down under hills: out of the game, no one knows which",
                            game.hidden).format(n=game.hidden) + "\n", style="dim")
    if game.held:  # The Princess & the Dragon: drawn before any volcano
        held = len(game.held)
        # Translators: under "{n} tiles left in the bag" (The Princess & the Dragon): {n} of them are dragon
        # tiles drawn before any volcano was placed
        out.append(ngettext("{n} of them, a dragon tile drawn before any volcano, waits beside the pile: it goes "
                            "back into the bag when the first volcano is placed",
                            "{n} of them, dragon tiles drawn before any volcano, wait beside the pile: they go "
                            "back into the bag when the first volcano is placed", held).format(n=held) + "\n",
                   style="dim")
    out.append("\n")
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
    kinds = {"city": 0, "road": 0, "cloister": 0, "garden": 0, "river": 0, "pennant": 0, "inn": 0, "cathedral": 0,
             "hill": 0, "vineyard": 0, "volcano": 0, "dragon": 0, "princess": 0, "portal": 0}
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
        for mark in kind.marks:  # Hills & Sheep's hills and vineyards: marks of the whole tile
            if mark in kinds:
                kinds[mark] += count
    separator = pgettext("list separator", ", ")
    shown = separator.join(_with_words(name, n) for name, n in kinds.items() if n)
    if shown:
        # Translators: {kinds} is a list of "3 with a city" (how many tiles left hold each kind of feature)
        out.append(_("Tiles left: {kinds}.").format(kinds=shown), style="dim")
    dead = game.dead_spots()
    out.append("\n\n")
    if dead:
        where = separator.join(f"{p.x},{p.y}" for p in dead)
        # Translators: the heading of the list of dead spots, {n} their number (the explanation follows)
        out.append(ngettext("Dead spots: {n}", "Dead spots: {n}", len(dead)).format(n=len(dead)), style="bold")
        # Translators: follows "Dead spots: 3"; {positions} lists them ("2,-1, 0,3")
        out.append(" " + _("(no tile left fits there; they stay empty, and a cloister beside one is never "
                           "completed): {positions}.").format(positions=where), style="dim")
    else:
        out.append(_("No dead spot: a tile left fits every open position."), style="dim")
    if game.setup.rules.hills_sheep:
        out.append("\n\n")
        out.append_text(_sheep_bag(hills.bag(game)))
    return out


def _sheep_bag(tokens: list[str]) -> Text:
    """The sheep bag's tokens (Hills & Sheep), which everyone may know: ``Sheep bag: 18 tokens: 4 × 1
    sheep, 5 × 2 sheep, … 2 wolves``."""
    parts = []
    for token in "1234":
        n, count = tokens.count(token), int(token)
        if n:
            # Translators: a token of the sheep bag (Hills & Sheep): {count} sheep on it (digits)
            sheep = ngettext("{count} sheep", "{count} sheep", count).format(count=count)
            # Translators: {n} tokens of the sheep bag that each show {sheep} ("1 sheep", "3 sheep")
            parts.append(_("{n} × {sheep}").format(n=n, sheep=sheep))
    wolves = tokens.count("W")
    if wolves:
        # Translators: the wolves in the sheep bag (Hills & Sheep); {n}: how many (digits)
        parts.append(ngettext("{n} wolf", "{n} wolves", wolves).format(n=wolves))
    out = Text()
    # Translators: the sheep bag's heading on the bag screen (Hills & Sheep); {n}: its tokens (digits)
    out.append(ngettext("Sheep bag: {n} token", "Sheep bag: {n} tokens", len(tokens)).format(n=len(tokens)),
               style="bold")
    if parts:  # what they show: "(4 × 1 sheep, 2 wolves)"
        out.append(" (" + pgettext("list separator", ", ").join(parts) + ")", style="dim")
    return out


class BagScreen(ModalScreen[None]):
    """The tiles left in the bag (``t``; Escape closes)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,t,enter", "close", N_("Close"))]
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
