"""Provides the help screen (``?``): how to play a turn and every key."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Markdown

from carcnet.engine import RULES_VERSION, Rules
from carcnet.engine.expansions import hooks_for
from carcnet.i18n import N_, _, pgettext
from carcnet.tui.parts import RULES_HELP
from carcnet.tui.widgets.footer import KeyFooter, footer_items
from carcnet.tui.words import rules_words

__all__ = ["HELP_TEXT", "HOW_TO_PLAY", "HelpScreen", "help_text"]

#: A key cell in words ("arrows, h j k l", "Enter, click"), marked for translation; a bare key ("r",
#: "F12", "1 – 9") is not.
_IN_WORDS = re.compile(r"[A-Za-z]{2}")


@dataclass(frozen=True, slots=True)
class _Heading:
    """A Markdown heading of *level* (``#``, ``##``)."""

    level: int
    text: str


class _Table(tuple[tuple[str, str], ...]):
    """A Markdown table of keys: rows of (key, what it does)."""

    def __new__(cls, *rows: tuple[str, str]) -> _Table:
        return super().__new__(cls, rows)


#: How to play, block by block (headings, paragraphs, tables of keys), in English, marked: each
#: paragraph and each table cell in words is a message of its own (:func:`help_text` puts them
#: together, in the language in use).
HOW_TO_PLAY: tuple[_Heading | _Table | str, ...] = (
    _Heading(1, N_("How to play")),
    N_("New to Carcassonne? **Learn to play** on the menu (l), or `carcnet tutorial`, plays a first game with you\n"
       "that teaches a lesson at a time; the new-game form has a short lesson for each expansion (Ctrl+L)."),
    N_("Each turn the player **places the drawn tile** so that it touches the board along a side and every\n"
       "touching side matches (city to city, road to road, field to field); then may **deploy one meeple** on\n"
       "a segment of that tile whose road, city, cloister or farm holds no meeple yet; then completed roads,\n"
       "cities and cloisters score and their meeples come back. Farmers stay until the end."),
    _Heading(2, N_("Placing the tile")),
    _Table(
        (N_("Tab / Shift+Tab"), N_("next / previous position where the tile fits, nearest first")),
        (N_("arrows, h j k l"), N_("move the cursor (the view follows; h j k l not while watching, where "
                                   "letters are typing); drag with the mouse to pan")),
        ("r", N_("turn the tile to its next legal rotation there")),
        (N_("Enter, click"), N_("place it")),
        ("z", N_("the next zoom: large, detailed, overview, then large again")),
        (N_("+ / -, mouse wheel"), N_("zoom in / out (the wheel zooms on the tile under the mouse; "
                                      "Shift+wheel scrolls)")),
        ("c", N_("centre on the cursor; again: on the start tile")),
    ),
    _Heading(2, N_("Deploying a meeple")),
    N_("The free spots of the placed tile are numbered; once a spot is chosen, its feature is highlighted on\n"
       "the board and its row (`▸`) in the panel under the scores, which lists each spot with its feature and\n"
       "what it would score (\"city, 3 tiles, 1 pennant: 8 if closed; 4 now\")."),
    _Table(
        ("1 – 9", N_("deploy on that spot")),
        (N_("Tab, a click"), N_("choose a spot (the first Tab: spot 1); Enter deploys on it. Enter before "
                                "a spot is chosen deploys nothing, so a second Enter after placing cannot "
                                "spend a meeple")),
        (N_("0, Space"), N_("no meeple this turn")),
        ("a", N_("with The Abbot, Inns & Cathedrals, Traders & Builders or Hills & Sheep: the next figure to "
                 "deploy (the footer names it): the meeple, the large meeple (anywhere a meeple goes; counts as "
                 "two), the abbot (cloisters and gardens), the builder (beside your own follower), the pig "
                 "(beside your own farmer), the shepherd (a field without a shepherd), then the meeple again")),
        ("A", N_("with The Abbot: take your abbot back instead of deploying; its cloister or garden scores "
                 "now")),
        ("y, n", N_("with Traders & Builders: take the second tile your builder gives you, or leave it "
                    "(the next player's turn)")),
        ("g, s", N_("with Hills & Sheep, when your tile extends your shepherd's field: grow the flock (a token "
                    "from the sheep bag: sheep, or a wolf that scatters the flock) or score it (1 a sheep to "
                    "every shepherd in the field)")),
        ("x, m", N_("with The Princess & the Dragon, instead of deploying: x the princess sends home a knight of "
                    "the city your tile's princess joined, m moves the fairy next to one of your followers; the "
                    "figures to choose from are numbered on the board: a digit, Tab then Enter, or a click; "
                    "Escape goes back")),
        ("o", N_("with The Princess & the Dragon, after placing a magic portal (Ω): deploy a follower on a free, "
                 "unfinished feature of another tile instead; its spots are marked on the board (1 to 9 by "
                 "digit): a digit, Tab then Enter, or a click; Escape goes back")),
    ),
    _Heading(2, N_("Moving the dragon")),
    N_("With The Princess & the Dragon, after a dragon tile the dragon moves six tiles, one a step, the\n"
       "players in turn: when your step is asked, the tiles it may go to are tinted amber and its path so far\n"
       "red; it eats every figure on each tile it enters."),
    _Table(
        (N_("arrows, Tab"), N_("the cursor starts on the dragon: an arrow moves it to the tile beside; Tab goes "
                               "through the tiles the dragon may go to")),
        (N_("Enter, click"), N_("move the dragon to the tile at the cursor (or the tile clicked)")),
    ),
    _Heading(2, N_("Confirming the turn")),
    N_("The tile and the meeple go on the board as you choose them, but the turn is only played when you\n"
       "confirm it (at a network table, only then is it signed and sent): the status line says what it plays\n"
       "and scores."),
    _Table(
        (N_("Enter"), N_("confirm the turn")),
        (N_("Backspace, u"), N_("take back the deployment, then the placement")),
    ),
    N_("Players who want speed turn confirmation off in the settings (o on the menu): each choice is then\n"
       "played at once."),
    _Heading(2, N_("Anywhere in a game")),
    _Table(
        ("i", N_("the panel under the scores names the features of the tile under the cursor (or the "
                 "mouse): tiles, pennants, open sides, who holds them, what they are worth now and if "
                 "closed; i outlines the next one on the board (a farm with the cities it supplies)")),
        ("p", N_("the scores if the game ended now, with their breakdown")),
        ("t", N_("the tiles left in the bag: every design and how many (everyone may know the bag's "
                 "contents, never its order)")),
        ("?", N_("this help")),
        ("F12", N_("a bug report: you say what happened, and one file is written (the save, the versions, "
                   "your settings and the screen; never your keys) for you to attach to a bug report; the "
                   "notification names it")),
        ("q", N_("back to the menu: the game is saved after every move and can be resumed")),
        (N_("Ctrl+P"), N_("the command palette")),
    ),
    _Heading(2, N_("Playing on a LAN")),
    N_("No server: the computers of a game talk to each other directly. From the menu:"),
    _Table(
        ("h", N_("**host** a table: the game's name, your name, and each seat: you, *open* for a player on "
                 "the network, or a bot; Ctrl+S opens it")),
        ("j", N_("**join** a table found on the LAN (Enter), giving your name and colour, or a bot to play "
                 "for you")),
        ("s", N_("**spectate**: watch a game, the same board and scoreboard, without playing")),
        ("t", N_("an **event** (tournament): open one here (Ctrl+O) or join one (Ctrl+J: the opener's "
                 "address, or empty for the first found on the LAN), entering yourself and bots; the "
                 "opener starts it (Ctrl+S); each round your game opens over the standings")),
    ),
    N_("A table may play with a **turn clock** (the host chooses it): the scoreboard shows each seat's time;\n"
       "when a player's turn and bank run out, their laptop plays the turn with the greedy bot's choice."),
    N_("In a game, **/** says a line to everyone at the table, players and spectators; it is shown in the log\n"
       "panel under your seat's name (a spectator's with \"(watching)\" after it) and is not saved with the game.\n"
       "While you type the line, your keys go into it, never to the board. The terminal bell rings when the turn\n"
       "comes to you (the settings turn it off)."),
    N_("In the **lobby** the seats fill as players join. Once every seat is taken the host presses **s** to\n"
       "start. Every tile is drawn by all the players' computers together (each reveals a value it committed\n"
       "to before the game), so nobody can pick the tiles or know them before they are drawn.\n"
       "Escape or q leaves the table. In a game, **b** gives the seat of a player who is away at their turn\n"
       "(gone for good) to a bot run by your computer."),
    N_("Where a game does not show up in the list (multicast blocked on the network), type the address the\n"
       "host's lobby shows, e.g. `192.168.1.20:7000 --game 3f2a…` (the game id is in the lobby), then Enter."),
    N_("During a network game you move only on your own seats; the others' moves appear as they arrive. A\n"
       "seat marked **away** has lost its connection: the game waits for it to come back. If the computers\n"
       "ever disagree about the game it stops, and **d** shows the report. **q** (or Ctrl+C, Ctrl+Q) asks a\n"
       "player first: stay, leave and keep the seat (resume it later from *Resume a saved game*: it goes back on\n"
       "the network), or give the seat to a bot and leave (the others' table plays it). **[** shows the game so\n"
       "far in a replay over the live table, which goes on (the status line counts the new moves); Escape comes\n"
       "back to the present."),
    N_("Scoring: a completed road scores 1 per tile, a city 2 per tile and 2 per pennant, a cloister 9.\n"
       "At the end an incomplete road scores 1 per tile, a city 1 per tile and pennant, a cloister 1 plus\n"
       "1 per neighbour, and each farm's majority owner 3 per completed city it borders. A table may play\n"
       "the editions' variants instead (chosen in the new-game and host screens): small cities, first-edition\n"
       "farms, no farmers."),
)


def _table(rows: list[tuple[str, str]], english: bool = False) -> str:
    """*rows* (key, what it does) as a Markdown table under the headings "key" and "does"."""
    key = "key" if english else pgettext("the help's table of keys: its heading", "key")
    does = "does" if english else pgettext("the help's table of keys: its heading", "does")
    return "\n".join([f"| {key} | {does} |", "| --- | --- |", *(f"| {k} | {d} |" for k, d in rows)])


def help_text(english: bool = False) -> str:
    """How to play (:data:`HOW_TO_PLAY`) as Markdown, in the language in use (*english*: in English).

    >>> help_text(english=True).splitlines()[:2]
    ['# How to play', '']
    """
    def words(text: str) -> str:
        return text if english else _(text)

    blocks = []
    for block in HOW_TO_PLAY:
        if isinstance(block, _Heading):
            blocks.append("#" * block.level + " " + words(block.text))
        elif isinstance(block, _Table):
            blocks.append(_table([(words(k) if _IN_WORDS.search(k) else k, words(d)) for k, d in block], english))
        else:
            blocks.append(words(block))
    return "\n\n".join(blocks) + "\n"


#: :func:`help_text` in English (the screen shows it in the language in use).
HELP_TEXT = help_text(english=True)

#: What each variant changes, for the help of a game played with it (docs/rules.md), in English
#: (marked: :func:`rules_help` shows them in the language in use); each expansion's paragraph is its
#: part's (:data:`carcnet.tui.parts.RULES_HELP`).
RULE_NOTES = {
    "small_city": N_("**Small cities**: a completed city of two tiles scores 2, and its pennants 1 each."),
    "city": N_("**First-edition farms**: at the end each completed city is scored once: 4 points to the "
               "player(s) with the most farmers in all the farms around it."),
    "off": N_("**No farmers**: no meeple goes on a field, and farms score nothing."),
}


def rules_help(rules: Rules) -> str:
    """The help's paragraph on the rules of the game at hand: its options, then what each changes."""
    # Translators: {rules} lists the game's expansions and variants ("The Abbot, small cities"), or "base game"
    lines = ["## " + _("This game: {rules}").format(rules=rules_words(rules)), ""]
    names = hooks_for(rules, RULES_VERSION).names
    for expansion, words in RULES_HELP:  # each expansion's paragraph, from its part
        if expansion in names:
            lines.append("- " + words(rules))
    if rules.small_city:
        lines.append("- " + _(RULE_NOTES["small_city"]))
    if rules.farms != "farm":
        lines.append("- " + _(RULE_NOTES[rules.farms]))
    return "\n".join(lines) + "\n\n"


def keys_help(screen: Screen[object]) -> str:
    """The help's table of the keys *screen* offers now (its footer's keys, those a narrow footer
    leaves out too, as the footer words them), or ``""`` when it has none."""
    items = footer_items(screen.active_bindings, screen.app.get_key_display)
    if not items:
        return ""
    rows = [(_cell(item.display), _cell(item.tooltip or item.description)) for item in items]
    return "## " + _("Keys of this screen") + "\n\n" + _table(rows) + "\n\n"


def _cell(text: str) -> str:
    """*text* for a Markdown table cell (a ``|`` would end the cell; ``<`` ``>`` ``*`` read as markup)."""
    return "".join(f"\\{c}" if c in "|*_`<>[]\\" else c for c in text)


class HelpScreen(ModalScreen[None]):
    """Opened from a game, the rules of that game first; then the keys of the screen it opened over
    (the footer's, also those a narrow footer leaves out); then the rules in brief and every key."""

    def __init__(self, rules: Rules | None = None) -> None:
        super().__init__()
        self.rules = rules


    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,question_mark,q", "close", N_("Close"))]
    """Escape, ? or q closes."""
    #: Composed again when the language changes (its text is made from :attr:`rules` and the screen below).
    RELABEL_BY_COMPOSING = True

    def compose(self) -> ComposeResult:
        stack = self.app.screen_stack
        if self in stack:  # composed again (the language changed): the screen it opened over
            at = stack.index(self)
            below = stack[at - 1] if at > 0 else None
        else:
            below = stack[-1] if stack else None
        keys = keys_help(below) if below is not None else ""
        with VerticalScroll():
            yield Markdown((rules_help(self.rules) if self.rules is not None else "") + keys + help_text())
        yield KeyFooter()

    def action_close(self) -> None:
        self.dismiss(None)
