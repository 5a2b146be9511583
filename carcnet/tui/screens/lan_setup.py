"""Provides the host's table setup (:class:`HostSetupScreen`) and the form a joining player fills in
(:class:`JoinFormScreen`): names, colours, who plays each seat, the rule options."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Input, Label, Select, Static

from carcnet.engine import Rules
from carcnet.lan import SeatPlan
from carcnet.log import COLOURS
from carcnet.tui.widgets.rule_options import RuleOptions

from .lan import check_name

__all__ = ["HostSeatRow", "HostSetupScreen", "JoinChoice", "JoinFormScreen"]

#: Who sits at a seat of a network table: the host's person, a player on the network, or a bot.
KINDS = (
    ("You (at this terminal)", "host"),
    ("Open: a player on the LAN", "open"),
    ("Random bot", "random"),
    ("Greedy bot", "greedy"),
)


class HostSeatRow(Horizontal):
    """One seat of the table: who sits there, and its colour (an open seat's player picks their own)."""

    DEFAULT_CSS = """
    HostSeatRow { height: 3; }
    HostSeatRow Label { width: 4; padding: 1 0; }
    HostSeatRow .kind { width: 36; }
    HostSeatRow .colour { width: 16; }
    """

    def __init__(self, index: int, kind: str) -> None:
        super().__init__(classes="seat")
        self.index = index
        self.kind = kind

    def compose(self) -> ComposeResult:
        yield Label(f"{self.index + 1}.")
        yield Select(KINDS, value=self.kind, allow_blank=False, classes="kind")
        colour = Select([(c.capitalize(), c) for c in COLOURS], value=COLOURS[self.index], allow_blank=False,
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


class HostSetupScreen(Screen[None]):
    """Open a table on the network: the game's name, your name, each seat (you, open for a player on
    the network, or a bot) and the rule options. Ctrl+S opens it and shows the lobby."""

    DEFAULT_CSS = """
    HostSetupScreen { align: center top; }
    HostSetupScreen > VerticalScroll { width: 78; max-width: 100%; padding: 1 2; }
    HostSetupScreen .field { height: 3; }
    HostSetupScreen .field Label { width: 14; padding: 1 0; }
    HostSetupScreen .field Input { width: 36; }
    HostSetupScreen #buttons { height: 3; margin-top: 1; }
    HostSetupScreen #error { color: $error; height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("ctrl+s", "open_table", "Open the table"),
        Binding("ctrl+n", "add", "Add seat"),
        Binding("ctrl+r", "remove", "Remove seat"),
    ]
    """Escape back; Ctrl+S open the table; Ctrl+N / Ctrl+R add or remove a seat (2 to 6)."""

    def __init__(self, name: str = "", game_name: str = "") -> None:
        super().__init__()
        self.my_name = name
        self.game_name = game_name

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(
                "[b]Host a LAN game[/b]: players on the network join the open seats. Seat 1 plays first. "
                "Ctrl+S opens the table; the game starts by itself once every seat is taken."
            )
            with Horizontal(classes="field"):
                yield Label("Game name")
                yield Input(self.game_name or (f"{self.my_name}'s game"[:32] if self.my_name else "LAN game"),
                            max_length=32, id="game-name")
            with Horizontal(classes="field"):
                yield Label("Your name")
                yield Input(self.my_name or "Host", max_length=32, id="my-name")
            with Vertical(id="seats"):
                yield HostSeatRow(0, "host")
                yield HostSeatRow(1, "open")
            with Horizontal(id="buttons"):
                yield Button("+ seat", id="add")
                yield Button("- seat", id="remove")
            yield RuleOptions(id="options")
            yield Static("", id="error")
            yield Button("Open the table", variant="primary", id="open")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#game-name", Input).focus()

    def rows(self) -> list[HostSeatRow]:
        return list(self.query(HostSeatRow))

    @on(Button.Pressed, "#add")
    def action_add(self) -> None:
        rows = self.rows()
        if len(rows) >= 6:
            self._error("A game has at most 6 players.")
            return
        self.query_one("#seats").mount(HostSeatRow(len(rows), "open"))
        self._error("")

    @on(Button.Pressed, "#remove")
    def action_remove(self) -> None:
        rows = self.rows()
        if len(rows) <= 2:
            self._error("A game needs at least 2 players.")
            return
        rows[-1].remove()
        self._error("")

    def _error(self, text: str) -> None:
        self.query_one("#error", Static).update(text)

    def rules(self) -> Rules:
        return self.query_one(RuleOptions).rules()

    def plan(self) -> list[SeatPlan] | str:
        """The table's :class:`~carcnet.lan.SeatPlan` list, or a message saying what is wrong."""
        me = self.query_one("#my-name", Input).value.strip()
        problem = check_name(me, "Your name") or check_name(
            self.query_one("#game-name", Input).value.strip(), "The game name")
        if problem:
            return problem
        chosen = [row.chosen for row in self.rows()]
        kinds = [k for k, _ in chosen]
        if kinds.count("host") > 1:
            return "Only one seat can be yours; the other people join over the network."
        if "open" not in kinds:
            return "Leave at least one seat open for a player on the network (or start a local game)."
        colours = [c for k, c in chosen if k != "open"]
        if len(set(colours)) != len(colours):
            return "Two seats have the same colour."
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
        from carcnet.lan import LanGame
        from carcnet.tui.app import CarcnetApp

        app = self.app
        assert isinstance(app, CarcnetApp)
        me = self.query_one("#my-name", Input).value.strip()
        try:
            lan = LanGame.host(
                name=me,
                game_name=self.query_one("#game-name", Input).value.strip(),
                rules=self.rules(),
                plan=plan,
                **app.lan_kwargs("host"),
            )
        except ValueError as exc:
            self._error(f"Cannot open the table: {exc}")
            return
        app.player_name = me
        from .lan_lobby import LobbyScreen

        app.switch_screen(LobbyScreen(app.run_lan(lan)))

    def action_back(self) -> None:
        self.dismiss(None)


# ---------------------------------------------------------------------- joining


@dataclass(frozen=True, slots=True)
class JoinChoice:
    """How to sit down: under *name*, in *colour* if free (``None``: any), as a person or a *bot*."""

    name: str
    colour: str | None
    bot: str | None


class JoinFormScreen(ModalScreen[JoinChoice | None]):
    """Asks a joining player's name, colour and who plays (a person here, or a bot this computer runs).
    Enter joins with what is shown; Escape goes back."""

    DEFAULT_CSS = """
    JoinFormScreen { align: center middle; }
    JoinFormScreen > Vertical { width: 64; max-width: 100%; height: auto; padding: 1 2;
                                border: thick $accent; background: $surface; }
    JoinFormScreen .field { height: 3; }
    JoinFormScreen .field Label { width: 12; padding: 1 0; }
    JoinFormScreen .field Input, JoinFormScreen .field Select { width: 36; }
    JoinFormScreen #error { color: $error; height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Back"),
        Binding("ctrl+s", "join", "Join"),
    ]
    """Escape back; Enter (in the name) or Ctrl+S joins."""

    def __init__(self, title: str, name: str) -> None:
        super().__init__()
        self.title_text = title
        self.default = name

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"[b]Join {self.title_text}[/b]")
            with Horizontal(classes="field"):
                yield Label("Your name")
                yield Input(self.default, max_length=32, id="name")
            with Horizontal(classes="field"):
                yield Label("Colour")
                yield Select([("Any free colour", "any"), *((c.capitalize(), c) for c in COLOURS)],
                             value="any", allow_blank=False, id="colour")
            with Horizontal(classes="field"):
                yield Label("Played by")
                yield Select([("Me, at this terminal", "human"), ("Random bot", "random"),
                              ("Greedy bot", "greedy")], value="human", allow_blank=False, id="player")
            yield Static("", id="error")
            yield Button("Join", variant="primary", id="join")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#name", Input).focus()

    @on(Input.Submitted, "#name")
    @on(Button.Pressed, "#join")
    def action_join(self) -> None:
        name = self.query_one("#name", Input).value.strip()
        problem = check_name(name, "Your name")
        if problem:
            self.query_one("#error", Static).update(problem)
            return
        colour = str(self.query_one("#colour", Select).value)
        player = str(self.query_one("#player", Select).value)
        self.dismiss(JoinChoice(name, None if colour == "any" else colour, None if player == "human" else player))

    def action_cancel(self) -> None:
        self.dismiss(None)
