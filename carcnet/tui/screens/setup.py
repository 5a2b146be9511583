"""Provides the new-game screen: 2 to 6 seats, each a person or a bot with its level, names and
colours, and an optional seed."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Select, Static

from carcnet.log import COLOURS
from carcnet.session import SeatPlan
from carcnet.tui.widgets.rule_options import RuleOptions

__all__ = ["NewGameScreen", "SeatRow"]

PLAYERS = (("Person", "human"), ("Random bot", "random"), ("Greedy bot", "greedy"))
DEFAULT_NAMES = ("Red", "Blue", "Yellow", "Green", "Black", "Grey")


class SeatRow(Horizontal):
    """One seat: name, who plays it, colour."""

    DEFAULT_CSS = """
    SeatRow { height: 3; }
    SeatRow Input { width: 22; }
    SeatRow Select { width: 20; }
    SeatRow Label { width: 4; padding: 1 0; }
    """

    def __init__(self, index: int, player: str) -> None:
        super().__init__(classes="seat")
        self.index = index
        self.player = player

    def compose(self) -> ComposeResult:
        i = self.index
        yield Label(f"{i + 1}.")
        yield Input(DEFAULT_NAMES[i], placeholder="name", max_length=32, classes="name")
        yield Select(PLAYERS, value=self.player, allow_blank=False, classes="player")
        yield Select([(c.capitalize(), c) for c in COLOURS], value=COLOURS[i], allow_blank=False, classes="colour")

    def plan(self) -> SeatPlan:
        name = self.query_one(".name", Input).value.strip()
        player = self.query_one(".player", Select).value
        colour = self.query_one(".colour", Select).value
        return SeatPlan(name, str(colour), None if player == "human" else str(player))


class NewGameScreen(Screen[None]):
    """Set up a local game, then start it (the game is recorded from its first move)."""

    DEFAULT_CSS = """
    NewGameScreen { align: center top; }
    NewGameScreen > VerticalScroll { width: 72; max-width: 100%; padding: 1 2; }
    NewGameScreen #buttons { height: 3; margin-top: 1; }
    NewGameScreen #seed { width: 30; }
    NewGameScreen #error { color: $error; height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("ctrl+s", "start", "Start"),
        Binding("ctrl+n", "add", "Add seat"),
        Binding("ctrl+r", "remove", "Remove seat"),
    ]
    """Escape back; Ctrl+S start; Ctrl+N / Ctrl+R add or remove a seat (2 to 6)."""

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static("[b]New local game[/b]: seat 1 plays first. People share this terminal. Ctrl+S starts.")
            with Vertical(id="seats"):
                yield SeatRow(0, "human")
                yield SeatRow(1, "greedy")
            with Horizontal(id="buttons"):
                yield Button("+ seat", id="add")
                yield Button("- seat", id="remove")
                yield Input(placeholder="seed (empty: random)", id="seed", restrict=r"[0-9]*")
            yield RuleOptions(id="options")
            yield Static("", id="error")
            yield Button("Start", variant="primary", id="start")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(".name", Input).focus()

    def rows(self) -> list[SeatRow]:
        return list(self.query(SeatRow))

    @on(Button.Pressed, "#add")
    def action_add(self) -> None:
        rows = self.rows()
        if len(rows) >= 6:
            self._error("A game has at most 6 players.")
            return
        self.query_one("#seats").mount(SeatRow(len(rows), "greedy"))
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

    def plans(self) -> list[SeatPlan] | str:
        """The seats, or a message saying what is wrong."""
        plans = [row.plan() for row in self.rows()]
        for i, p in enumerate(plans):
            if not p.name:
                return f"Seat {i + 1} needs a name."
        names = [p.name for p in plans]
        if len(set(names)) != len(names):
            return "Two seats have the same name."
        colours = [p.colour for p in plans]
        if len(set(colours)) != len(colours):
            return "Two seats have the same colour."
        return plans

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        plans = self.plans()
        if isinstance(plans, str):
            self._error(plans)
            return
        seed_text = self.query_one("#seed", Input).value
        seed = int(seed_text) % 2**64 if seed_text else None
        from carcnet.tui.app import CarcnetApp

        app = self.app
        assert isinstance(app, CarcnetApp)
        rules = self.query_one(RuleOptions).rules()
        try:
            session = app.new_session(plans, seed, rules)
        except (OSError, ValueError) as exc:
            self._error(f"Cannot start: {exc}")
            return
        app.switch_screen(app.game_screen(session))

    def action_back(self) -> None:
        self.dismiss(None)
