"""Provides the new-game screen: 2 to 6 seats, each a person or a bot with its level, names and
colours, and an optional seed."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, Label, Select, Static

from carcnet.i18n import N_, _
from carcnet.log import COLOURS, Seat
from carcnet.tui.messages import ChangeSettings, OpenTable
from carcnet.tui.settings import SeatDefault
from carcnet.tui.tables import TableMaker
from carcnet.tui.widgets.footer import KeyFooter
from carcnet.tui.widgets.palette import colour_choices, colour_name, names_colour
from carcnet.tui.widgets.rule_options import RuleOptions
from carcnet.tui.widgets.text_input import TextInput

from .seat_form import SeatFormScreen

__all__ = ["NewGameScreen", "SeatRow"]

#: Who plays a seat (label, value), in English (marked: :func:`player_choices` gives them in the
#: language in use).
PLAYERS = (
    (N_("Person"), "human"), (N_("Random bot"), "random"), (N_("Greedy bot"), "greedy"),
    (N_("Easy bot"), "easy"), (N_("Medium bot"), "medium"), (N_("Hard bot"), "hard"), (N_("Expert bot"), "expert"),
)


def player_choices() -> list[tuple[str, str]]:
    """:data:`PLAYERS` with each label in the language in use."""
    return [(_(label), value) for label, value in PLAYERS]


class SeatRow(Horizontal):
    """One seat: name, who plays it, colour (by default the seat's own: Red, Blue…)."""

    def __init__(self, index: int, player: str, name: str | None = None, colour: str | None = None) -> None:
        super().__init__(classes="seat")
        self.index = index
        self.player = player if player in {value for __, value in PLAYERS} else "greedy"
        self.colour = colour if colour in COLOURS else COLOURS[index]
        # a seat named after its colour is named as the palette in use draws it
        self.seat_name = colour_name(self.colour) if not name or names_colour(name, self.colour) else name

    def compose(self) -> ComposeResult:
        i = self.index
        yield Label(f"{i + 1}.")
        yield TextInput(self.seat_name, placeholder=_("name"), max_length=32, classes="name")
        yield Select(player_choices(), value=self.player, allow_blank=False, classes="player")
        yield Select(colour_choices(), value=self.colour, allow_blank=False, classes="colour")

    def chosen(self) -> tuple[str, str, str | None]:
        """``(name, colour, bot)``: *bot* ``None`` for a person."""
        name = self.query_one(".name", Input).value.strip()
        player = self.query_one(".player", Select).value
        colour = self.query_one(".colour", Select).value
        return name, str(colour), None if player == "human" else str(player)


class NewGameScreen(SeatFormScreen):
    """Set up a local game, then start it (the game is recorded from its first move).

    Args:
        tables: The app's table maker (where the game is saved, how bots are paced).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", N_("Start")),
        Binding("ctrl+l", "lessons", N_("Lessons"), tooltip=N_("A short lesson on each expansion's rules")),
    ]
    """Ctrl+S start, Ctrl+L the expansions' lessons (and the seat form's keys)."""

    def __init__(self, tables: TableMaker) -> None:
        super().__init__()
        self.tables = tables

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(_("[b]New local game[/b]: seat 1 plays first. People share this terminal. Ctrl+S starts."))
            settings = self.tables.settings
            with Vertical(id="seats"):  # the seats of the last game started here (the settings)
                for i, seat in enumerate(settings.seats[:6]):
                    name = seat.name
                    if i == 0 and seat.player == "human" and settings.name and all(
                            s.name != settings.name for s in settings.seats[1:]):
                        name = settings.name  # seat 1 is the player's own: the settings' "Your name"
                    yield SeatRow(i, seat.player, name, seat.colour)
            with Horizontal(id="buttons"):
                yield Button(_("+ seat"), id="add")
                yield Button(_("- seat"), id="remove")
                yield TextInput(placeholder=_("seed (empty: random)"), id="seed", restrict=r"[0-9]*")
            yield RuleOptions(self.tables.settings.rules, id="options")  # those of the last game
            yield Button(_("How the expansions play: a lesson each"), id="lessons")
            yield Static("", id="error")
            yield Button(_("Start"), variant="primary", id="start")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(".name", Input).focus()

    def new_row(self, index: int) -> SeatRow:
        return SeatRow(index, "greedy")

    def plans(self) -> list[Seat] | str:
        """The seats, or a message saying what is wrong."""
        chosen = [row.chosen() for row in self.query(SeatRow)]
        for i, (name, __, __) in enumerate(chosen):
            if not name:
                # Translators: {number} is the seat's number, 1 to 6.
                return _("Seat {number} needs a name.").format(number=i + 1)
        names = [name for name, __, __ in chosen]
        if len(set(names)) != len(names):
            return _("Two seats have the same name.")
        colours = [colour for __, colour, __ in chosen]
        if len(set(colours)) != len(colours):
            return _("Two seats have the same colour.")
        try:
            return [Seat(name, colour, "bot" if bot else "human", bot) for name, colour, bot in chosen]
        except ValueError as exc:
            return _("Cannot start: {problem}").format(problem=exc)

    @on(Button.Pressed, "#lessons")
    def action_lessons(self) -> None:
        """The expansions' lessons (The River, The Abbot, Inns & Cathedrals, Traders & Builders)."""
        from carcnet.tui.screens.tutorial import ExpansionLessonsScreen
        from carcnet.tui.tutorial import Progress

        self.app.push_screen(ExpansionLessonsScreen(Progress(self.tables.tutorial_dir)))

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        plans = self.plans()
        if isinstance(plans, str):
            self._error(plans)
            return
        seed_text = self.query_one("#seed", Input).value
        seed = int(seed_text) % 2**64 if seed_text else None
        rules = self.query_one(RuleOptions).rules()
        try:
            table = self.tables.local(plans, seed, rules)
        except (OSError, ValueError) as exc:
            self._error(_("Cannot start: {problem}").format(problem=exc))
            return
        seats = tuple(SeatDefault(p.name, p.colour, p.bot or "human") for p in plans)
        kept = {"seats": seats, "rules": rules}  # the form opens with these seats and options next time
        changed = {k: v for k, v in kept.items() if v != getattr(self.tables.settings, k)}
        if changed:
            self.post_message(ChangeSettings(**changed))
        self.post_message(OpenTable(table))
