"""Provides the tournament screen (:class:`TournamentScreen`): open an event at this laptop or join one
another laptop opened, enter yourself and bots, follow the rounds and the standings; when a round
seats you, your game opens over it (protocol/tournament.md, docs/club.md).

The event runs in the app's loop (:class:`~carcnet.club.runner.EventRunner`); this screen only reads
what it says and asks it to start. Your games are its tables, shown by the game screen like any other.
"""

from __future__ import annotations

import logging
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Checkbox, DataTable, Input, Label, RichLog, Static

from carcnet.club.event import EventError
from carcnet.club.identity import load_identity
from carcnet.club.ratings import RATINGS_FILE, Ratings, bot_id, display
from carcnet.club.runner import EventRunner
from carcnet.i18n import N_, _, ngettext, pgettext
from carcnet.table import NetTable
from carcnet.tui.running import TableRun
from carcnet.tui.tables import TableMaker
from carcnet.tui.widgets.footer import KeyFooter
from carcnet.tui.widgets.rule_options import TickBox
from carcnet.tui.widgets.text_input import TextInput

__all__ = ["TournamentScreen"]

#: Bot levels a laptop may enter.
LEVELS = ("random", "greedy", "easy", "medium", "hard", "expert")


def signed_points(value: Fraction) -> str:
    """A score difference as points are written: whole points as they are (``+15``, ``-3``, ``0``),
    a fraction of a point (a table of three or more: a mean of the opponents' scores) to one place
    (``+2.5``).

    >>> signed_points(Fraction(15)), signed_points(Fraction(-3)), signed_points(Fraction(0)), signed_points(Fraction(5, 2))
    ('+15', '-3', '0', '+2.5')
    """
    if value.denominator == 1:
        return f"{int(value):+d}" if value else "0"
    return f"{float(value):+.1f}"


class TournamentScreen(Screen[None]):
    """An event at this laptop: the form, then its progress and standings.

    Args:
        tables: The app's table maker (its data folder, player name, network options and bot pace).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+o", "open_event", N_("Open here")),
        Binding("ctrl+j", "join_event", N_("Join")),
        Binding("ctrl+s", "start_event", N_("Start")),
        Binding("escape", "back", N_("Back")),
    ]

    def __init__(self, tables: TableMaker) -> None:
        super().__init__()
        self.tables = tables
        self.runner: EventRunner | None = None
        self._worker: Any = None

    def compose(self) -> ComposeResult:
        with Vertical(id="event-form"):
            yield Static(_("Tournament: Swiss rounds of several tables at once across the room's laptops"), id="title")
            with Horizontal():
                yield Label(_("Event"))
                yield TextInput(_("Club night"), id="event-name", max_length=40)
                yield Label(_("Rounds"))
                yield TextInput("3", id="rounds", type="integer", max_length=2)
                yield Label(_("Seats a table"))
                yield TextInput("4", id="size", type="integer", max_length=1)
            with Horizontal():
                yield Label(_("Bots you enter"))
                # Translators: {levels} are bot levels as they are typed (in English: greedy, hard…).
                yield TextInput("greedy,greedy", id="bots", placeholder=_("e.g. {levels}").format(levels="greedy,hard"))
                yield TickBox(_("I play"), True, id="play")  # ticked or not by its mark, in every theme
            with Horizontal():
                yield Label(_("Opener's address"))
                yield TextInput("", id="address", placeholder=_("host:port, or empty: the first event found on the LAN"))
            with Horizontal(id="event-buttons"):
                yield Button(_("Open here"), id="open", variant="primary")
                yield Button(_("Join"), id="join")
                yield Button(_("Start"), id="start", disabled=True)
        yield DataTable(id="standings", cursor_type="row", zebra_stripes=True)
        yield RichLog(id="event-log", wrap=True, max_lines=500)
        yield KeyFooter()

    def on_mount(self) -> None:
        table = self.query_one("#standings", DataTable)
        # Translators: a column of the standings: the name of a tie-break (the opponents' wins added up).
        buchholz = _("Buchholz")
        table.add_columns("#", _("player"), _("wins"), _("difference"), buchholz, _("games"), _("rating"))
        self.query_one("#event-name", Input).focus()

    # ------------------------------------------------------------------ actions

    @on(Button.Pressed, "#open")
    def action_open_event(self) -> None:
        """Opens an event here with the form's values; others join it at the address shown."""
        self._begin(opening=True)

    @on(Button.Pressed, "#join")
    def action_join_event(self) -> None:
        """Joins the event of the opener at the typed address."""
        self._begin(opening=False)

    @on(Button.Pressed, "#start")
    def action_start_event(self) -> None:
        """The opener's word: the charter is signed with the players entered so far."""
        if self.runner is None:
            return
        try:
            self.runner.start()
        except EventError as exc:
            self.notify(str(exc), title=_("Cannot start"), severity="error")
            return
        self.query_one("#start", Button).disabled = True

    def action_back(self) -> None:
        """Back to the menu (an event under way goes on while the app runs)."""
        self.app.pop_screen()

    # ------------------------------------------------------------------ the event

    def _players(self) -> list[tuple[str, str | None]]:
        me = self.tables.player_name[:32] or "Player"
        levels = [b.strip() for b in self.query_one("#bots", Input).value.split(",") if b.strip()]
        unknown = [b for b in levels if b not in LEVELS]
        if unknown:
            # Translators: {level} is what was typed (quoted), {levels} the levels to type, in English.
            raise ValueError(_("unknown bot level {level}: one of {levels}").format(
                level=repr(unknown[0]), levels=", ".join(LEVELS)))
        players: list[tuple[str, str | None]] = [(me, None)] if self.query_one("#play", Checkbox).value else []
        return players + [(f"{b.title()} {i} ({me})"[:32], b) for i, b in enumerate(levels, 1)]

    def _base(self) -> Path:
        data = self.tables.data_dir
        return data.parent if data.name == "games" else data

    def _begin(self, *, opening: bool) -> None:
        if self.runner is not None:
            self.notify(_("This screen runs an event already"), severity="warning")
            return
        options = self.tables.net_options
        listen = options.get("listen") or ("0.0.0.0", 0)
        common: dict[str, Any] = {
            "name": self.tables.player_name[:32] or "carcnet", "note": self._note, "on_table": self._seated,
            "listen": (listen[0], 0), "table_host": listen[0], "timing": options.get("timing"),
            "bot_delay": self.tables.bot_delay, "discovery": self.tables.discovery,
            "interfaces": self.tables.interfaces,
        }
        try:
            players = self._players()
            identity = load_identity(self._base())
            if opening:
                runner = EventRunner.open(
                    identity, event_name=self.query_one("#event-name", Input).value.strip() or _("Club night"),
                    rounds=int(self.query_one("#rounds", Input).value or 3),
                    size=int(self.query_one("#size", Input).value or 4), data_dir=self._base() / "events",
                    players=players, **common)
            else:
                from carcnet.net.adverts import parse_host_port

                typed = self.query_one("#address", Input).value.strip()
                if not typed and not self.tables.discovery:
                    raise ValueError(_("type the opener's address (host:port): mDNS is off"))
                where = parse_host_port(typed) if typed else None  # none: the first event mDNS finds
                runner = EventRunner(identity, folder=self._base() / "events", by_event=True, players=players,
                                     dial=[(where.host, where.port)] if where else [], **common)
        except (ValueError, OSError) as exc:
            self.notify(str(exc), title=_("Tournament"), severity="error")
            return
        self.runner = runner
        self.query_one("#start", Button).disabled = not opening
        for button in ("#open", "#join"):
            self.query_one(button, Button).disabled = True
        self._worker = self.run_worker(self._run(runner), exclusive=True, group="event")

    async def _run(self, runner: EventRunner) -> None:
        try:
            await runner.run()
        except EventError as exc:
            self._note(_("The event stopped: {reason}").format(reason=exc))
            return
        except Exception as exc:  # never a traceback over the screen: one line, the details in the log
            logging.getLogger("carcnet.club").exception("the event stopped")
            # Translators: {error} is the kind of error (a Python name), {detail} its message.
            self._note(_("The event stopped: {error}: {detail} (carcnet.log has the details)").format(
                error=type(exc).__name__, detail=str(exc)[:160]))
            return
        ratings = self._ratings_path()
        try:
            rated = Ratings.read(ratings)
            counted = runner.rate(rated)
            rated.write(ratings)
            # Translators: {counted} of the event's {n} games were counted into the ratings.
            self._note(ngettext("Ratings: {counted} of {n} game counted", "Ratings: {counted} of {n} games counted",
                                len(counted)).format(counted=sum(why is None for _t, why in counted), n=len(counted)))
            for table, why in counted:
                if why is not None and not why.startswith("not counted again"):
                    self._note(f"  {table}: {why}")
        except (OSError, ValueError) as exc:
            self._note(_("Ratings not updated: {reason}").format(reason=exc))
        self._show_standings()
        self.notify(_("The event is over: final standings"), title=_("Tournament"))

    def _ratings_path(self) -> Path:
        return self.tables.data_dir / RATINGS_FILE

    def _note(self, line: str) -> None:
        """Writes the event's *line* in the log; once the event has started (its charter signed), the
        standings follow (on every line: the runner's lines are in the language in use, so none is
        told apart by its words)."""
        self.query_one("#event-log", RichLog).write(line)
        if self.runner is not None and self.runner.charter is not None:
            self._show_standings()
            self.query_one("#start", Button).disabled = True

    def _show_standings(self) -> None:
        runner = self.runner
        if runner is None or runner.charter is None:
            return
        try:
            rated = Ratings.read(self._ratings_path())
        except (OSError, ValueError):
            rated = Ratings()
        table = self.query_one("#standings", DataTable)
        table.clear()
        for s in runner.standings():
            entrant = runner.charter.players[int(s.player)]
            player = (entrant.key.hex() if entrant.bot is None
                      else bot_id(entrant.bot, None if entrant.key == runner.me else entrant.key))
            rating = f"{display(rated.players[player])[0]}" if player in rated.players else pgettext("rating", "new")
            table.add_row(str(s.rank), entrant.name, f"{float(s.wins):g}", signed_points(s.difference),
                          f"{float(s.buchholz):g}", str(s.games), rating)

    def _seated(self, number: int, t: int, table: NetTable) -> None:
        """A round seats this laptop's person: its game opens over this screen."""
        from carcnet.tui.screens.game import GameScreen
        from carcnet.tui.screens.lobby import LobbyScreen

        self.notify(_("Round {round}: your game at table {table}").format(round=number, table=t + 1),
                    title=_("Tournament"))
        # the event runs the table; the screens follow it. Its game is counted into the ratings by the
        # event, with the charter's word on whose each seat is (a bot seat is played by the laptop that
        # opened the table, whoever entered the bot), not by the table's own keys file.
        run = TableRun(table)
        if table.game is not None:
            self.app.push_screen(GameScreen(run, settings=self.tables.settings, data_dir=self.tables.data_dir))
        else:  # seated at another laptop's table: its lobby until the game starts
            self.app.push_screen(LobbyScreen(run, self.tables.settings, data_dir=self.tables.data_dir))
