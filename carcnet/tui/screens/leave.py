"""Provides :class:`LeaveScreen`: the question a player is asked before leaving a network game that goes
on, as JCloisterZone and Board Game Arena ask it: stay, leave and keep the seat (the game can be
resumed from the menu), or give the seat to a bot and leave (the others' table then plays it).

Dismissed with :data:`STAY`, :data:`KEEP` or :data:`GIVE`; the game screen does the rest
(protocol/wire.md §4.7: ``bye`` shutdown keeps the seat, ``bye`` quit gives it up, §5.6)."""

from __future__ import annotations

from typing import ClassVar, Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Static

__all__ = ["GIVE", "KEEP", "STAY", "LeaveChoice", "LeaveScreen"]

#: What the player chose: stay at the table; leave and keep the seat; give the seat to a bot and leave.
LeaveChoice = Literal["stay", "keep", "give"]
STAY: LeaveChoice = "stay"
KEEP: LeaveChoice = "keep"
GIVE: LeaveChoice = "give"


class LeaveScreen(ModalScreen[LeaveChoice]):
    """Asks whether to leave the network game *name* (the game's name, for the title), and how.

    Keys: Escape or ``s`` stays, ``l`` leaves and keeps the seat, ``g`` gives the seat to a bot and
    leaves; Tab and Enter (or the mouse) choose a button. A second ``q`` (or Ctrl+Q) leaves and keeps
    the seat, as a second press of a quit key does in most programs."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,s", "choose('stay')", "Stay", key_display="s"),
        Binding("l,q", "choose('keep')", "Leave, keep the seat", key_display="l"),
        Binding("g", "choose('give')", "Give the seat to a bot"),
        Binding("left,up", "app.focus_previous", "Previous", show=False),
        Binding("right,down", "app.focus_next", "Next", show=False),
    ]
    """Escape or s: stay; l (or q again): leave and keep the seat; g: give the seat to a bot and leave."""

    def __init__(self, name: str, seat: str | None = None) -> None:
        super().__init__()
        self.game_name = name
        self.seat = seat

    def compose(self) -> ComposeResult:
        seat = f" ({self.seat})" if self.seat else ""
        with Vertical(id="leave"):
            yield Static(f"[b]Leave {self.game_name}?[/b] The game goes on without you{seat}.", id="question")
            yield Button("Stay  (s)", id="stay", variant="primary")
            yield Static("Back to the table.", classes="hint")
            yield Button("Leave and keep the seat  (l)", id="keep")
            yield Static("The others wait for you, or give your seat to a bot at your turn. "
                         "You can come back: Resume in the menu.", classes="hint")
            yield Button("Give the seat to a bot and leave  (g)", id="give", variant="warning")
            yield Static("The others' table plays your seat with a bot from your next turn.", classes="hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#stay", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        choice = event.button.id
        if choice in (STAY, KEEP, GIVE):
            self.dismiss(choice)

    def action_choose(self, choice: LeaveChoice) -> None:
        self.dismiss(choice)
