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
from textual.widgets import Button, Static

from carcnet.i18n import N_, _
from carcnet.tui.widgets.footer import KeyFooter

__all__ = ["GIVE", "KEEP", "STAY", "LeaveChoice", "LeaveScreen"]

#: What the player chose: stay at the table; leave and keep the seat; give the seat to a bot and leave.
LeaveChoice = Literal["stay", "keep", "give"]
STAY: LeaveChoice = "stay"
KEEP: LeaveChoice = "keep"
GIVE: LeaveChoice = "give"


class LeaveScreen(ModalScreen[LeaveChoice]):
    """Asks whether to leave the network game *name* (the game's name, for the title; ``None``: a game
    without one, "this game"), and how; *seat*: the seats the player leaves, in words.

    Keys: Escape or ``s`` stays, ``l`` leaves and keeps the seat, ``g`` gives the seat to a bot and
    leaves; Tab and Enter (or the mouse) choose a button. A second ``q`` (or Ctrl+Q) leaves and keeps
    the seat, as a second press of a quit key does in most programs."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,s", "choose('stay')", N_("Stay"), key_display="s"),
        Binding("l,q", "choose('keep')", N_("Leave, keep the seat"), key_display="l"),
        Binding("g", "choose('give')", N_("Give the seat to a bot")),
        Binding("left,up", "app.focus_previous", N_("Previous"), show=False),
        Binding("right,down", "app.focus_next", N_("Next"), show=False),
    ]
    """Escape or s: stay; l (or q again): leave and keep the seat; g: give the seat to a bot and leave."""

    def __init__(self, name: str | None, seat: str | None = None) -> None:
        super().__init__()
        self.game_name = name
        self.seat = seat

    def compose(self) -> ComposeResult:
        # Translators: {game} is the game's name
        question = (_("[b]Leave {game}?[/b]").format(game=self.game_name) if self.game_name
                    else _("[b]Leave this game?[/b]"))
        # Translators: {seats} names the seats the player leaves ("Ann", "Ann, Bob")
        goes_on = (_("The game goes on without you ({seats}).").format(seats=self.seat) if self.seat
                   else _("The game goes on without you."))
        with Vertical(id="leave"):
            yield Static(f"{question} {goes_on}", id="question")
            # Translators: (s) is the key that chooses the button: keep it
            yield Button(_("Stay  (s)"), id="stay", variant="primary")
            yield Static(_("Back to the table."), classes="hint")
            # Translators: (l) is the key that chooses the button: keep it
            yield Button(_("Leave and keep the seat  (l)"), id="keep")
            # Translators: Resume: the menu's entry that resumes a saved game
            yield Static(_("The others wait for you, or give your seat to a bot at your turn. "
                           "You can come back: Resume in the menu."), classes="hint")
            # Translators: (g) is the key that chooses the button: keep it
            yield Button(_("Give the seat to a bot and leave  (g)"), id="give", variant="warning")
            yield Static(_("The others' table plays your seat with a bot from your next turn."), classes="hint")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#stay", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        choice = event.button.id
        if choice in (STAY, KEEP, GIVE):
            self.dismiss(choice)

    def action_choose(self, choice: LeaveChoice) -> None:
        self.dismiss(choice)
