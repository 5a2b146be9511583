"""Provides the host's table setup (:class:`HostSetupScreen`) and the form a joining player fills in
(:class:`JoinFormScreen`): names, colours, who plays each seat, the rule options."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rich.markup import escape
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from carcnet.engine import Rules
from carcnet.i18n import N_, _, pgettext
from carcnet.log import COLOURS
from carcnet.table import SeatPlan, TurnClock
from carcnet.tui.addresses import check_name
from carcnet.tui.messages import ChangeSettings, OpenTable
from carcnet.tui.tables import TableMaker
from carcnet.tui.widgets.footer import KeyFooter
from carcnet.tui.widgets.palette import colour_choices
from carcnet.tui.widgets.rule_options import RuleOptions, TickBox
from carcnet.tui.widgets.text_input import TextInput

from .seat_form import SeatFormScreen

__all__ = ["HostSeatRow", "HostSetupScreen", "JoinChoice", "JoinFormScreen"]

#: Who sits at a seat of a network table: the host's person, a player on the network, or a bot (in
#: English, marked: :func:`choices` gives them in the language in use).
KINDS = (
    (N_("You (at this terminal)"), "host"),
    (N_("Open: a player on the LAN"), "open"),
    (N_("Random bot"), "random"),
    (N_("Greedy bot"), "greedy"),
    (N_("Easy bot"), "easy"),
    (N_("Medium bot"), "medium"),
    (N_("Hard bot"), "hard"),
    (N_("Expert bot"), "expert"),
)


def choices(pairs: tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
    """*pairs* (label, value) with each label in the language in use."""
    return [(_(label), value) for label, value in pairs]


class HostSeatRow(Horizontal):
    """One seat of the table: who sits there, and its colour (an open seat's player picks their own)."""

    def __init__(self, index: int, kind: str) -> None:
        super().__init__(classes="seat")
        self.index = index
        self.kind = kind

    def compose(self) -> ComposeResult:
        yield Label(f"{self.index + 1}.")
        yield Select(choices(KINDS), value=self.kind, allow_blank=False, classes="kind")
        colour = Select(colour_choices(), value=COLOURS[self.index], allow_blank=False,
                        classes="colour")
        colour.disabled = self.kind == "open"
        yield colour

    @on(Select.Changed, ".kind")
    def _kind_changed(self, event: Select.Changed) -> None:
        self.query_one(".colour", Select).disabled = event.value == "open"

    @property
    def chosen(self) -> tuple[str, str]:
        """``(kind, colour)``: kind ``host``, ``open`` or a bot name."""
        return str(self.query_one(".kind", Select).value), str(self.query_one(".colour", Select).value)


#: The turn clocks offered: none, or seconds a turn + a bank a seat (carcnet.table.clock), in English
#: (marked: :func:`choices` gives them in the language in use).
CLOCK_CHOICES = (
    (N_("No clock"), ""),
    (N_("30 s a turn + 2 min bank"), "30+120"),
    (N_("60 s a turn + 5 min bank"), "60+300"),
    (N_("2 min a turn + 10 min bank"), "120+600"),
)


class HostSetupScreen(SeatFormScreen):
    """Open a table on the network: the game's name, your name, each seat (you, open for a player on
    the network, or a bot) and the rule options. Ctrl+S opens it and shows the lobby.

    Args:
        tables: The app's table maker (its player name is the name offered).
        game_name: The game's name to offer (default: "<your name>'s game").
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+s", "open_table", N_("Open the table"))]
    """Ctrl+S open the table (and the seat form's keys)."""

    def __init__(self, tables: TableMaker, game_name: str = "") -> None:
        super().__init__()
        self.tables = tables
        self.my_name = tables.player_name
        self.game_name = game_name

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(_(
                "[b]Host a LAN game[/b]: players on the network join the open seats. Seat 1 plays first. "
                "Ctrl+S opens the table; once every seat is taken, you start the game (s in the lobby)."
            ))
            with Horizontal(classes="field"):
                yield Label(_("Game name"))
                # Translators: the game name offered; {name} is the host's name.
                offered = _("{name}'s game").format(name=self.my_name)[:32] if self.my_name else _("LAN game")
                yield TextInput(self.game_name or offered, max_length=32, id="game-name")
            with Horizontal(classes="field"):
                yield Label(_("Your name"))
                yield TextInput(self.my_name or pgettext("the name offered to a host without one", "Host"),
                                max_length=32, id="my-name")
            with Vertical(id="seats"):
                yield HostSeatRow(0, "host")
                yield HostSeatRow(1, "open")
            with Horizontal(id="buttons"):
                yield Button(_("+ seat"), id="add")
                yield Button(_("- seat"), id="remove")
            yield RuleOptions(self.tables.settings.rules, id="options")  # those of the last game
            with Horizontal(classes="field"):
                yield Label(_("Turn clock"))
                yield Select(choices(CLOCK_CHOICES), value="", allow_blank=False, id="clock",
                             tooltip=_("Seconds a turn, then a bank a seat; when both run out, the player's "
                                       "own laptop plays the turn with the greedy bot's choice"))
            yield TickBox(_("Invite from anywhere (a code)"), id="invite",
                          tooltip=_("Friends in other homes sit down with a short code the lobby shows, read out "
                                    "over the phone; it works once, and the next one shows. Needs carcnet's "
                                    "internet extra"))
            yield Static("", id="error")
            yield Button(_("Open the table"), variant="primary", id="open")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#game-name", Input).focus()

    def new_row(self, index: int) -> HostSeatRow:
        return HostSeatRow(index, "open")

    def rules(self) -> Rules:
        return self.query_one(RuleOptions).rules()

    def clock(self) -> TurnClock | None:
        """The turn clock chosen, or ``None`` (no clock)."""
        chosen = str(self.query_one("#clock", Select).value)
        return TurnClock.parse(chosen) if chosen else None

    def plan(self) -> list[SeatPlan] | str:
        """The table's :class:`~carcnet.lan.SeatPlan` list, or a message saying what is wrong."""
        me = self.query_one("#my-name", Input).value.strip()
        problem = check_name(me, _("Your name")) or check_name(
            self.query_one("#game-name", Input).value.strip(), _("The game name"))
        if problem:
            return problem
        chosen = [row.chosen for row in self.query(HostSeatRow)]
        kinds = [k for k, __ in chosen]
        if kinds.count("host") > 1:
            return _("Only one seat can be yours; the other people join over the network.")
        if "open" not in kinds:
            return _("Leave at least one seat open for a player on the network (or start a local game).")
        colours = [c for k, c in chosen if k != "open"]
        if len(set(colours)) != len(colours):
            return _("Two seats have the same colour.")
        plan = []
        for i, (kind, colour) in enumerate(chosen):
            if kind == "host":
                plan.append(SeatPlan("host", me, colour))
            elif kind == "open":
                plan.append(SeatPlan("open"))
            else:
                plan.append(SeatPlan("bot", f"{kind.capitalize()} {i + 1}", colour, kind))
        return plan

    @on(Button.Pressed, "#open")
    def action_open_table(self) -> None:
        plan = self.plan()
        if isinstance(plan, str):
            self._error(plan)
            return
        me = self.query_one("#my-name", Input).value.strip()
        invite = None
        if self.query_one("#invite", TickBox).value:
            try:
                invite = invite_servers(self.tables.settings)
            except ValueError as exc:
                # "[internet]" is no markup
                self._error(escape(_("Cannot invite from anywhere: {reason}").format(reason=exc)))
                return
        try:
            table = self.tables.host(name=me, game_name=self.query_one("#game-name", Input).value.strip(),
                                     rules=self.rules(), plan=plan, clock=self.clock(), invite=invite)
        except ValueError as exc:
            self._error(_("Cannot open the table: {reason}").format(reason=exc))
            return
        if self.rules() != self.tables.settings.rules:  # the forms open with these options next time
            self.post_message(ChangeSettings(rules=self.rules()))
        self.post_message(OpenTable(table))


# ---------------------------------------------------------------------- joining


@dataclass(frozen=True, slots=True)
class JoinChoice:
    """How to sit down: under *name*, in *colour* if free (``None``: any), as a person or a *bot*;
    *invite*: this laptop hands out invite codes to the table too."""

    name: str
    colour: str | None
    bot: str | None
    invite: bool = False


def invite_servers(settings: Any) -> Any:
    """The invite servers *settings* name (its ``relay`` and ``transit``): a
    ``carcnet.net.invite.Servers``.

    Raises:
        ValueError: The internet extra is missing, or a server is malformed (one line each).
    """
    from carcnet.net import invite

    if (missing := invite.missing()) is not None:
        raise ValueError(missing)
    return invite.servers(settings.relay, settings.transit)


class JoinFormScreen(ModalScreen[JoinChoice | None]):
    """Asks a joining player's name, colour and who plays (a person here, or a bot this computer runs).
    Enter joins with what is shown; Escape goes back."""


    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Back")),
        Binding("ctrl+s", "join", N_("Join")),
    ]
    """Escape back; Enter (in the name) or Ctrl+S joins."""

    def __init__(self, title: str, name: str) -> None:
        super().__init__()
        self.title_text = title
        self.default = name

    def compose(self) -> ComposeResult:
        with Vertical():
            # Translators: the form's title; {game} is what is joined (the game's name and its host).
            yield Static(_("[b]Join {game}[/b]").format(game=self.title_text))
            with Horizontal(classes="field"):
                yield Label(_("Your name"))
                yield TextInput(self.default, max_length=32, id="name")
            with Horizontal(classes="field"):
                yield Label(_("Colour"))
                yield Select([(_("Any free colour"), "any"), *colour_choices()],
                             value="any", allow_blank=False, id="colour")
            with Horizontal(classes="field"):
                yield Label(_("Played by"))
                yield Select([(_("Me, at this terminal"), "human"), *choices(KINDS[2:])], value="human",
                             allow_blank=False, id="player")
            yield TickBox(_("Invite from anywhere (a code)"), id="invite",
                          tooltip=_("Hand out invite codes to this table too: friends in other homes sit down with "
                                    "a code the lobby shows, and stay at the table if the host leaves. Needs "
                                    "carcnet's internet extra"))
            yield Static("", id="error")
            yield Button(_("Join"), variant="primary", id="join")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#name", Input).focus()

    @on(Input.Submitted, "#name")
    @on(Button.Pressed, "#join")
    def action_join(self) -> None:
        name = self.query_one("#name", Input).value.strip()
        problem = check_name(name, _("Your name"))
        if problem:
            self.query_one("#error", Static).update(problem)
            return
        colour = str(self.query_one("#colour", Select).value)
        player = str(self.query_one("#player", Select).value)
        self.dismiss(JoinChoice(name, None if colour == "any" else colour, None if player == "human" else player,
                                self.query_one("#invite", TickBox).value))

    def action_cancel(self) -> None:
        self.dismiss(None)
