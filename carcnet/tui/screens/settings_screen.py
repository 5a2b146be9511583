"""Provides the settings screen (``o`` on the menu, or the command palette's Settings): every
setting of :class:`~carcnet.tui.settings.Settings`, saved as soon as it is changed."""

from __future__ import annotations

import os
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

from carcnet.i18n import LANGUAGES, N_, _, language_from_environment
from carcnet.tui.addresses import check_name
from carcnet.tui.messages import ChangeSettings
from carcnet.tui.render import with_article
from carcnet.tui.settings import LANGUAGE_CHOICES, THINK_CAPS, SeatDefault, Settings
from carcnet.tui.widgets.footer import KeyFooter
from carcnet.tui.widgets.palette import colour_name
from carcnet.tui.widgets.text_input import TextInput

__all__ = ["SettingsScreen"]

#: The choices of the selects, in English (marked: :func:`choices` gives them in the language in use).
GLYPH_CHOICES = ((N_("Unicode: box drawing and blocks"), "unicode"), (N_("ASCII: for plain terminals"), "ascii"))
PALETTE_CHOICES = ((N_("The board game's colours"), "standard"), (N_("Colour-blind safe (Okabe-Ito)"), "colour-blind"))


def choices(pairs: tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
    """*pairs* (label, value) with each label in the language in use."""
    return [(_(label), value) for label, value in pairs]


def think_choices() -> list[tuple[str, str]]:
    """The think-time caps, in words."""
    return [(_("At most {seconds} s").format(seconds=cap) if cap != "level"
             else _("Each level's own (2 s, expert 3 s)"), cap) for cap in THINK_CAPS]


def language_choices() -> list[tuple[str, str]]:
    """The languages, each named in itself, after the environment's ("Automatic (English)")."""
    auto = LANGUAGES.get(language_from_environment(os.environ), "English")
    return [(_("Automatic ({language})").format(language=auto), "auto"),
            *((LANGUAGES[code], code) for code in LANGUAGE_CHOICES if code != "auto")]

#: Seconds after the last key in the name field before the name is saved.
NAME_PAUSE = 0.5


def describe_seats(seats: tuple[SeatDefault, ...]) -> str:
    """The new-game seats in words: ``Red (a person, red), Blue (a greedy bot, blue)``, each colour
    named as the palette in use draws it."""
    return ", ".join(
        _("{name} ({player}, {colour})").format(
            name=s.name, player=_("a person") if s.player == "human" else bot_words(s.player),
            colour=colour_name(s.colour).lower())
        for s in seats)


def bot_words(level: str) -> str:
    """A bot of *level* with its article: ``a greedy bot``, ``an easy bot``."""
    words = {"random": N_("a random bot"), "greedy": N_("a greedy bot"), "easy": N_("an easy bot"),
             "medium": N_("a medium bot"), "hard": N_("a hard bot"), "expert": N_("an expert bot")}
    return _(words[level]) if level in words else with_article(level + " bot")


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

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", N_("Back"))]
    """Escape back to the menu."""
    #: Composed again when the language changes (its state is :attr:`settings`).
    RELABEL_BY_COMPOSING = True

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
            yield Static(_("[b]Settings[/b]: saved as soon as they change, kept for the next start."))
            with Horizontal(classes="field"):
                yield Label(_("Your name"))
                yield TextInput(s.name, placeholder=_("{login} (your login name)").format(login=self.login),
                                max_length=32, id="name")
            with Horizontal(classes="field"):
                yield Label(_("Language"))
                yield Select(language_choices(), value=s.language, allow_blank=False, id="language")
            with Horizontal(classes="field"):
                yield Label(_("Theme"))
                themes = sorted(set(self.themes) | {s.theme})
                yield Select([(t, t) for t in themes], value=s.theme, allow_blank=False, id="theme")
            with Horizontal(classes="field"):
                yield Label(_("Confirm turns"))
                yield Switch(s.confirm, id="confirm")
                yield Static(_("Enter plays the turn shown; off: each choice is played at once"), classes="hint")
            with Horizontal(classes="field"):
                yield Label(_("Glyphs"))
                yield Select(choices(GLYPH_CHOICES), value=s.glyphs, allow_blank=False, id="glyphs")
            with Horizontal(classes="field"):
                yield Label(_("Seat colours"))
                yield Select(choices(PALETTE_CHOICES), value=s.palette, allow_blank=False, id="palette")
            with Horizontal(classes="field"):
                yield Label(_("Turn bell"))
                yield Switch(s.bell, id="bell")
                yield Static(_("the terminal bell when your turn comes at a network table"), classes="hint")
            with Horizontal(classes="field"):
                yield Label(_("Bot think time"))
                yield Select(think_choices(), value=s.think_cap, allow_blank=False, id="think_cap")
                yield Static(_("the most a search bot (easy to expert) thinks per turn"), classes="hint")
            with Horizontal(classes="field"):
                yield Label(_("Bots think ahead"))
                yield Switch(s.ponder, id="ponder")
                yield Static(_("on the others' turns, so they answer at once more often"), classes="hint")
            with Horizontal(classes="field"):
                yield Label(_("New-game seats"))
                yield Static(describe_seats(s.seats), id="seats")
            yield Static(_("The new-game forms open with the seats and rule options of the last game started there."),
                         classes="hint")
            yield Button(_("Reset the seats"), id="reset-seats")
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
                self.notify(str(exc), title=_("Settings"), severity="error")
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
        problem = check_name(name, _("Your name")) if name else None
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
        if key in ("theme", "glyphs", "palette", "think_cap", "language") and event.value != getattr(self.settings, key):
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
