"""Provides the settings screen (``o`` on the menu, or the command palette's Settings): every
setting of :class:`~carcnet.tui.settings.Settings`, saved as soon as it is changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, Input, Label, Select, Static, Switch

from carcnet.tui.addresses import check_name
from carcnet.tui.messages import ChangeSettings
from carcnet.tui.render import with_article
from carcnet.tui.settings import THINK_CAPS, SeatDefault, Settings
from carcnet.tui.widgets.footer import KeyFooter
from carcnet.tui.widgets.palette import colour_name
from carcnet.tui.widgets.text_input import TextInput

__all__ = ["SettingsScreen"]

GLYPH_CHOICES = (("Unicode: box drawing and blocks", "unicode"), ("ASCII: for plain terminals", "ascii"))
PALETTE_CHOICES = (("The board game's colours", "standard"), ("Colour-blind safe (Okabe-Ito)", "colour-blind"))
THINK_CHOICES = tuple((f"At most {cap} s" if cap != "level" else "Each level's own (2 s, expert 3 s)", cap)
                      for cap in THINK_CAPS)
#: Seconds after the last key in the name field before the name is saved.
NAME_PAUSE = 0.5


def describe_seats(seats: tuple[SeatDefault, ...]) -> str:
    """The new-game seats in words: ``Red (a person, red), Blue (a greedy bot, blue)``, each colour
    named as the palette in use draws it."""
    return ", ".join(f"{s.name} ({'a person' if s.player == 'human' else with_article(s.player + ' bot')}, "
                     f"{colour_name(s.colour).lower()})" for s in seats)


class SettingsScreen(Screen[None]):
    """The player's settings, each saved when changed (a :class:`ChangeSettings` to the app).

    The name field, focused when the screen opens, is saved :data:`NAME_PAUSE` seconds after the
    last key, on Enter, when it loses the focus, and on leaving the screen (Escape, or the app
    quitting): whatever was typed last is what is saved, however fast.

    Args:
        settings: The settings as they are now.
        themes: The names of the themes to offer.
        login: The name network games use when *name* is empty (the placeholder).
        change: What saves a change at once (the carcnet app's ``change_settings``): called, not
            sent through this screen, whose messages are dropped once it is dismissed (a change made
            just before Escape, or as the app quits, was lost). ``None``: each change is a
            :class:`ChangeSettings` posted to the app.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "Back")]
    """Escape back to the menu."""

    def __init__(self, settings: Settings, themes: list[str], login: str,
                 change: Callable[..., object] | None = None) -> None:
        super().__init__()
        self.change = change
        self.settings = settings
        self.themes = themes
        self.login = login
        self._name_timer: Timer | None = None

    def on_mount(self) -> None:
        self.query_one("#name", Input).focus()

    def on_resize(self, event: events.Resize) -> None:
        """Under 80 columns the fields fit beside their labels (``-narrow``), none cut."""
        self.set_class(event.size.width < 80, "-narrow")

    def compose(self) -> ComposeResult:
        s = self.settings
        with VerticalScroll():
            yield Static("[b]Settings[/b]: saved as soon as they change, kept for the next start.")
            with Horizontal(classes="field"):
                yield Label("Your name")
                yield TextInput(s.name, placeholder=f"{self.login} (your login name)", max_length=32, id="name")
            with Horizontal(classes="field"):
                yield Label("Theme")
                themes = sorted(set(self.themes) | {s.theme})
                yield Select([(t, t) for t in themes], value=s.theme, allow_blank=False, id="theme")
            with Horizontal(classes="field"):
                yield Label("Confirm turns")
                yield Switch(s.confirm, id="confirm")
                yield Static("Enter plays the turn shown; off: each choice is played at once", classes="hint")
            with Horizontal(classes="field"):
                yield Label("Glyphs")
                yield Select(GLYPH_CHOICES, value=s.glyphs, allow_blank=False, id="glyphs")
            with Horizontal(classes="field"):
                yield Label("Seat colours")
                yield Select(PALETTE_CHOICES, value=s.palette, allow_blank=False, id="palette")
            with Horizontal(classes="field"):
                yield Label("Turn bell")
                yield Switch(s.bell, id="bell")
                yield Static("the terminal bell when your turn comes at a network table", classes="hint")
            with Horizontal(classes="field"):
                yield Label("Bot think time")
                yield Select(THINK_CHOICES, value=s.think_cap, allow_blank=False, id="think_cap")
                yield Static("the most a search bot (easy to expert) thinks per turn", classes="hint")
            with Horizontal(classes="field"):
                yield Label("Bots think ahead")
                yield Switch(s.ponder, id="ponder")
                yield Static("on the others' turns, so they answer at once more often", classes="hint")
            with Horizontal(classes="field"):
                yield Label("New-game seats")
                yield Static(describe_seats(s.seats), id="seats")
            yield Static("The new-game forms open with the seats and rule options of the last game started there.", classes="hint")
            yield Button("Reset the seats", id="reset-seats")
            yield Static("", id="error")
        yield KeyFooter()

    def _change(self, **values: object) -> None:
        """Saves *values*: by :attr:`change` at once, else told to the app itself, not through this
        screen, whose messages are dropped once it is dismissed."""
        change = self.change
        if change is not None:  # the carcnet app: saved now
            try:
                change(**values)
            except ValueError as exc:
                self.notify(str(exc), title="Settings", severity="error")
        else:
            self.app.post_message(ChangeSettings(**values))
        if self.is_attached:
            self.query_one("#error", Static).update("")

    @on(Input.Changed, "#name")
    def _typed(self, event: Input.Changed) -> None:
        if self._name_timer is not None:
            self._name_timer.stop()
        self._name_timer = self.set_timer(NAME_PAUSE, self._save_name)

    @on(Input.Submitted, "#name")
    @on(Input.Blurred, "#name")
    def _name_done(self) -> None:
        self._save_name()

    def _save_name(self) -> None:
        """Saves the name field as it is now (not as an earlier event saw it), if it changed."""
        if self._name_timer is not None:
            self._name_timer.stop()
            self._name_timer = None
        try:
            name = self.query_one("#name", Input).value.strip()
        except NoMatches:  # already taken down
            return
        if name == self.settings.name:
            return
        problem = check_name(name, "Your name") if name else None
        if problem is not None:
            if self.is_attached:
                self.query_one("#error", Static).update(problem)
            return
        self.settings = self.settings.changed(name=name)
        self._change(name=name)

    def on_unmount(self) -> None:
        self._save_name()  # the app quit with the screen open

    @on(Select.Changed)
    def _select(self, event: Select.Changed) -> None:
        key = event.select.id
        if key in ("theme", "glyphs", "palette", "think_cap") and event.value != getattr(self.settings, key):
            self.settings = self.settings.changed(**{key: event.value})
            self._change(**{key: event.value})

    @on(Switch.Changed)
    def _switch(self, event: Switch.Changed) -> None:
        key = event.switch.id
        if key in ("confirm", "bell", "ponder") and event.value != getattr(self.settings, key):
            self.settings = self.settings.changed(**{key: event.value})
            self._change(**{key: event.value})

    @on(Button.Pressed, "#reset-seats")
    def _reset_seats(self) -> None:
        seats = Settings().seats
        self.settings = self.settings.changed(seats=seats)
        self._change(seats=seats)
        self.query_one("#seats", Static).update(describe_seats(seats))

    def action_back(self) -> None:
        self._save_name()
        self.dismiss(None)
