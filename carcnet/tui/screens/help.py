"""Provides the help screen (``?``): how to play a turn and every key."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Markdown

from carcnet.engine import Rules
from carcnet.tui.widgets.footer import KeyFooter, footer_items

__all__ = ["HELP_TEXT", "HelpScreen"]

HELP_TEXT = """\
# How to play

New to Carcassonne? **Learn to play** on the menu (l), or `carcnet tutorial`, plays a first game with you
that teaches a lesson at a time; the new-game form has a short lesson for each expansion (Ctrl+L).

Each turn the player **places the drawn tile** so that it touches the board along a side and every
touching side matches (city to city, road to road, field to field); then may **deploy one meeple** on
a segment of that tile whose road, city, cloister or farm holds no meeple yet; then completed roads,
cities and cloisters score and their meeples come back. Farmers stay until the end.

## Placing the tile

| key | does |
| --- | --- |
| Tab / Shift+Tab | next / previous position where the tile fits, nearest first |
| arrows, h j k l | move the cursor (the view follows; h j k l not while watching, where letters are typing); drag with the mouse to pan |
| r | turn the tile to its next legal rotation there |
| Enter, click | place it |
| z | the next zoom: large, detailed, overview, then large again |
| + / -, mouse wheel | zoom in / out (the wheel zooms on the tile under the mouse; Shift+wheel scrolls) |
| c | centre on the cursor; again: on the start tile |

## Deploying a meeple

The free spots of the placed tile are numbered; once a spot is chosen, its feature is highlighted on
the board and its row (`▸`) in the panel under the scores, which lists each spot with its feature and
what it would score ("city, 3 tiles, 1 pennant: 8 if closed; 4 now").

| key | does |
| --- | --- |
| 1 – 9 | deploy on that spot |
| Tab, a click | choose a spot (the first Tab: spot 1); Enter deploys on it. Enter before a spot is chosen deploys nothing, so a second Enter after placing cannot spend a meeple |
| 0, Space | no meeple this turn |
| a | with The Abbot, Inns & Cathedrals or Traders & Builders: the next figure to deploy (the footer names it): the meeple, the large meeple (anywhere a meeple goes; counts as two), the abbot (cloisters and gardens), the builder (beside your own follower), the pig (beside your own farmer), then the meeple again |
| A | with The Abbot: take your abbot back instead of deploying; its cloister or garden scores now |

## Confirming the turn

The tile and the meeple go on the board as you choose them, but the turn is only played when you
confirm it (at a network table, only then is it signed and sent): the status line says what it plays
and scores.

| key | does |
| --- | --- |
| Enter | confirm the turn |
| Backspace, u | take back the deployment, then the placement |

Players who want speed turn confirmation off in the settings (o on the menu): each choice is then
played at once.

## Anywhere in a game

| key | does |
| --- | --- |
| i | the panel under the scores names the features of the tile under the cursor (or the mouse): tiles, pennants, open sides, who holds them, what they are worth now and if closed; i outlines the next one on the board (a farm with the cities it supplies) |
| p | the scores if the game ended now, with their breakdown |
| t | the tiles left in the bag: every design and how many (everyone may know the bag's contents, never its order) |
| ? | this help |
| F12 | a bug report: you say what happened, and one file is written (the save, the versions, your settings and the screen; never your keys) for you to attach to a bug report; the notification names it |
| q | back to the menu: the game is saved after every move and can be resumed |
| Ctrl+P | the command palette |

## Playing on a LAN

No server: the computers of a game talk to each other directly. From the menu:

| key | does |
| --- | --- |
| h | **host** a table: the game's name, your name, and each seat: you, *open* for a player on the network, or a bot; Ctrl+S opens it |
| j | **join** a table found on the LAN (Enter), giving your name and colour, or a bot to play for you |
| s | **spectate**: watch a game, the same board and scoreboard, without playing |
| t | an **event** (tournament): open one here (Ctrl+O) or join one (Ctrl+J: the opener's address, or empty for the first found on the LAN), entering yourself and bots; the opener starts it (Ctrl+S); each round your game opens over the standings |

A table may play with a **turn clock** (the host chooses it): the scoreboard shows each seat's time;
when a player's turn and bank run out, their laptop plays the turn with the greedy bot's choice.

In a game, **/** says a line to everyone at the table, players and spectators; it is shown in the log
panel under your seat's name (a spectator's with "(watching)" after it) and is not saved with the game.
While you type the line, your keys go into it, never to the board. The terminal bell rings when the turn
comes to you (the settings turn it off).

In the **lobby** the seats fill as players join. Once every seat is taken the host presses **s** to
start. Every tile is drawn by all the players' computers together (each reveals a value it committed
to before the game), so nobody can pick the tiles or know them before they are drawn.
Escape or q leaves the table. In a game, **b** gives the seat of a player who is away at their turn
(gone for good) to a bot run by your computer.

Where a game does not show up in the list (multicast blocked on the network), type the address the
host's lobby shows, e.g. `192.168.1.20:7000 --game 3f2a…` (the game id is in the lobby), then Enter.

During a network game you move only on your own seats; the others' moves appear as they arrive. A
seat marked **away** has lost its connection: the game waits for it to come back. If the computers
ever disagree about the game it stops, and **d** shows the report. **q** (or Ctrl+C, Ctrl+Q) asks a
player first: stay, leave and keep the seat (resume it later from *Resume a saved game*: it goes back on
the network), or give the seat to a bot and leave (the others' table plays it). **[** shows the game so
far in a replay over the live table, which goes on (the status line counts the new moves); Escape comes
back to the present.

Scoring: a completed road scores 1 per tile, a city 2 per tile and 2 per pennant, a cloister 9.
At the end an incomplete road scores 1 per tile, a city 1 per tile and pennant, a cloister 1 plus
1 per neighbour, and each farm's majority owner 3 per completed city it borders. A table may play
the editions' variants instead (chosen in the new-game and host screens): small cities, first-edition
farms, no farmers.
"""

#: What each rule option changes, for the help of a game played with it (docs/rules.md).
RULE_NOTES = {
    "small_city": "**Small cities**: a completed city of two tiles scores 2, and its pennants 1 each.",
    "city": "**First-edition farms**: at the end each completed city is scored once: 4 points to the "
    "player(s) with the most farmers in all the farms around it.",
    "off": "**No farmers**: no meeple goes on a field, and farms score nothing.",
    "after": "**The River**: the start tile comes right after the lake, like any tile.",
    "river": "**The River**: the start tile is among the river tiles; it may not go where the river "
    "could no longer be finished.",
    "omit": "**The River**: the start tile is left out.",
}


def rules_help(rules: Rules) -> str:
    """The help's paragraph on the rules of the game at hand: its options, then what each changes."""
    lines = [f"## This game: {rules.text()}", ""]
    if rules.river:
        lines.append("- " + RULE_NOTES[rules.river_start] + " The river is always finished: a river tile goes "
                     "only where every river tile left can still follow.")
    if rules.abbot:
        lines.append("- **The Abbot**: `a` switches to the abbot (a cloister or a garden), `A` recalls it.")
    if rules.inns:
        lines.append("- **Inns & Cathedrals**: 18 more tiles. A road with an inn (⌂, ASCII `n`) scores 2 a tile "
                     "when completed and nothing if still open at the end; a city with a cathedral (‡, ASCII "
                     "`&`) 3 a tile and pennant completed, nothing if open at the end. Each player has a large "
                     "meeple: `a` switches to it; it goes anywhere a meeple goes and counts as two for the majority "
                     "(the scoreboard shows `L` while it is in the supply, `l` while it is on the board).")
    if rules.traders:
        lines.append("- **Traders & Builders**: 24 more tiles. Whoever completes a city takes its goods (wine, grain, "
                     "cloth; the scoreboard's `w1 g0 C2`, a capital where you hold the most of a kind, ties too); at the "
                     "end the most of each kind score 10. `a` switches "
                     "to the builder (on your own road or city: extending it gives you a second tile that turn) and "
                     "the pig (on your own farm: 4 a city instead of 3); `B` `P` while in your supply.")
    if rules.small_city:
        lines.append("- " + RULE_NOTES["small_city"])
    if rules.farms != "farm":
        lines.append("- " + RULE_NOTES[rules.farms])
    return "\n".join(lines) + "\n\n"


def keys_help(screen: Screen[object]) -> str:
    """The help's table of the keys *screen* offers now (its footer's keys, those a narrow footer
    leaves out too), or ``""`` when it has none."""
    items = footer_items(screen.active_bindings, screen.app.get_key_display)
    if not items:
        return ""
    rows = [f"| {_cell(item.display)} | {_cell(item.tooltip or item.description)} |" for item in items]
    return "## Keys of this screen\n\n| key | does |\n| --- | --- |\n" + "\n".join(rows) + "\n\n"


def _cell(text: str) -> str:
    """*text* for a Markdown table cell (a ``|`` would end the cell; ``<`` ``>`` ``*`` read as markup)."""
    return "".join(f"\\{c}" if c in "|*_`<>[]\\" else c for c in text)


class HelpScreen(ModalScreen[None]):
    """Opened from a game, the rules of that game first; then the keys of the screen it opened over
    (the footer's, also those a narrow footer leaves out); then the rules in brief and every key."""

    def __init__(self, rules: Rules | None = None) -> None:
        super().__init__()
        self.rules = rules


    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,question_mark,q", "close", "Close")]
    """Escape, ? or q closes."""

    def compose(self) -> ComposeResult:
        stack = self.app.screen_stack
        below = stack[-1] if stack and stack[-1] is not self else (stack[-2] if len(stack) > 1 else None)
        keys = keys_help(below) if below is not None else ""
        with VerticalScroll():
            yield Markdown((rules_help(self.rules) if self.rules is not None else "") + keys + HELP_TEXT)
        yield KeyFooter()

    def action_close(self) -> None:
        self.dismiss(None)
