"""Provides :class:`QuestionScreen`: a yes-or-no question over the screen, answered with ``y`` or
``n`` (Escape), or a button."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from carcnet.i18n import N_, _

__all__ = ["QuestionScreen"]


class QuestionScreen(ModalScreen[bool]):
    """Asks *question*, saying what each answer does (*detail*): ``y`` or the *yes* button answers
    yes, ``n``, Escape or the *no* button (focused first, so a stray Enter changes nothing) no. The
    texts are shown as given: the caller gives them in the language in use."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", N_("Yes")),
        Binding("n,escape", "answer(False)", N_("No")),
    ]
    """y answers yes; n or Escape no."""

    def __init__(self, question: str, detail: str, *, yes: str, no: str) -> None:
        super().__init__()
        self.question, self.detail, self.yes, self.no = question, detail, yes, no

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, id="question", markup=False)
            # Translators: {detail} is what each answer does (a sentence or two); {yes} and {no} are the
            # buttons' labels in lower case ("stop it and continue"); y and n are the keys.
            yield Static(_("{detail}\ny: {yes}; n or Escape: {no}.").format(
                detail=self.detail, yes=self.yes.lower(), no=self.no.lower()), id="detail", markup=False)
            with Horizontal(id="buttons"):
                yield Button(self.yes, id="yes", variant="primary")
                yield Button(self.no, id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
