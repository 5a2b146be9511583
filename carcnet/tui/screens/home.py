"""Provides the home screen: new local game, resume, replay, host / join / watch a LAN game, help and quit."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding, BindingType
from textual.containers import Vertical
from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from carcnet.i18n import N_, _
from carcnet.tui.screens.board_screen import footer_first
from carcnet.tui.tables import TableMaker
from carcnet.tui.widgets.footer import KeyFooter

__all__ = ["HomeScreen"]

TITLE = r"""
  ___ __ _ _ __ ___ _ __   ___| |_
 / __/ _` | '__/ __| '_ \ / _ \ __|
| (_| (_| | | | (__| | | |  __/ |_
 \___\__,_|_|  \___|_| |_|\___|\__|
"""


def _entry(label: str, entry: str, key: str) -> Option:
    """A menu entry with its key at the right: every key shows on the menu, however few of them the
    footer has room for (at 60 columns it stopped at Join)."""
    row = Table.grid(expand=True)
    row.add_column(ratio=1)
    row.add_column(justify="right", width=1)
    row.add_row(Text(label, overflow="ellipsis", no_wrap=True), Text(key, style="bold"))
    return Option(row, id=entry)


class HomeScreen(Screen[None]):
    """The first screen. Each entry opens its screen.

    Args:
        tables: The app's table maker, handed to the screens that start a game.
    """

    #: Composed again when the language changes (its state is :attr:`tables`, none in its widgets).
    RELABEL_BY_COMPOSING = True

    BINDINGS: ClassVar[list[BindingType]] = [
        # (off the footer, which must fit 80 columns: the menu's first entry shows its key, and ? lists it)
        Binding("l", "open('learn')", N_("Learn"), show=False,
                tooltip=N_("Learn to play: a first game that teaches, a lesson at a time")),
        Binding("n", "open('new')", N_("New")),
        Binding("r", "open('resume')", N_("Resume")),
        Binding("p", "open('replay')", N_("Replay")),
        Binding("h", "open('host')", N_("Host")),
        Binding("j", "open('join')", N_("Join")),
        Binding("s", "open('spectate')", N_("Watch")),
        Binding("t", "open('tournament')", N_("Event")),
        Binding("o", "open('settings')", N_("Settings")),
        Binding("question_mark", "open('help')", N_("Help"), key_display="?"),
        Binding("q", "open('quit')", N_("Quit")),
    ]
    """Shortcuts for the entries: l learn to play, n new game, r resume, p replay, h host, j join, s spectate, o settings,
    ? help, q quit."""

    def __init__(self, tables: TableMaker) -> None:
        super().__init__()
        self.tables = tables

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size)

    def _fit(self, size: Size) -> None:
        """Under 100 columns a compact footer without the palette hint (Ctrl+P still opens it); under
        24 rows no big title."""
        footer = self.query_one(KeyFooter)
        footer.compact = size.width < 100
        footer.show_command_palette = size.width >= 100
        self.set_class(size.height < 24, "-short")

    async def recompose(self) -> None:
        """Composed again in the language just chosen, with the same entry highlighted and the
        footer fitted to the size as before."""
        highlighted = self.query_one("#menu", OptionList).highlighted
        await super().recompose()
        self.query_one("#menu", OptionList).highlighted = highlighted
        self._fit(self.size)

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """Help and Quit first in the footer, so that 80 columns show them."""
        return footer_first(super().active_bindings, ("open('help')", "open('quit')"))

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(TITLE, id="title")
            yield Static(_("Carcassonne for the terminal"), id="tagline")
            yield OptionList(
                _entry(_("Learn to play: a first game that teaches you"), "learn", "l"),
                _entry(_("New local game: people and bots at this terminal"), "new", "n"),
                _entry(_("Resume a saved game"), "resume", "r"),
                _entry(_("Replay a finished game"), "replay", "p"),
                None,
                _entry(_("Host a LAN game: open a table on the network"), "host", "h"),
                _entry(_("Join a LAN game"), "join", "j"),
                _entry(_("Spectate a LAN game: watch without playing"), "spectate", "s"),
                _entry(_("Tournament: rounds across the room's laptops"), "tournament", "t"),
                None,
                _entry(_("Settings"), "settings", "o"),
                _entry(_("Help"), "help", "?"),
                _entry(_("Quit"), "quit", "q"),
                id="menu",
            )
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    async def _selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            await self.action_open(event.option.id)

    async def action_open(self, entry: str) -> None:
        app = self.app
        if entry == "learn":
            from carcnet.tui.screens.tutorial import TutorialMenuScreen

            app.push_screen(TutorialMenuScreen(self.tables))
        elif entry == "new":
            from carcnet.tui.screens.setup import NewGameScreen

            app.push_screen(NewGameScreen(self.tables))
        elif entry in ("resume", "replay"):
            from carcnet.tui.screens.saved import SavedGamesScreen

            app.push_screen(SavedGamesScreen(self.tables, entry))
        elif entry == "host":
            from carcnet.tui.screens.host_setup import HostSetupScreen

            app.push_screen(HostSetupScreen(self.tables))
        elif entry in ("join", "spectate"):
            from carcnet.tui.screens.browse import BrowserScreen

            app.push_screen(BrowserScreen(self.tables, entry))  # type: ignore[arg-type]
        elif entry == "tournament":
            from carcnet.tui.screens.tournament import TournamentScreen

            app.push_screen(TournamentScreen(self.tables))
        elif entry == "settings":  # the app's: it saves every change at once
            await self.run_action("app.settings")
        elif entry == "help":
            from carcnet.tui.screens.help import HelpScreen

            app.push_screen(HelpScreen())
        elif entry == "quit":
            app.exit()
