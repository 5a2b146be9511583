"""Provides the interface's bug report (F12 in a game, ``docs/bug-reports.md``): the screen is taken
as it is, the person may say what happened (:class:`BugNoteScreen`), and one zip file is written
(:func:`carcnet.table.bundle.write_bundle`) into the ``reports`` folder of the saved games, with the
save, what the table holds in memory (its connection log, its stop), the versions, the settings and the
screen; a notification names the file.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Console
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from carcnet.i18n import N_, _
from carcnet.table import Table
from carcnet.table.bundle import REPORTS, BundleError, Screen, write_bundle
from carcnet.tui.settings import Settings
from carcnet.tui.svg import spaces_placed
from carcnet.tui.widgets.footer import KeyFooter
from carcnet.tui.widgets.text_input import TextInput

__all__ = ["REPORTS", "BugNoteScreen", "capture_screen", "report_bug"]


class BugNoteScreen(ModalScreen["str | None"]):
    """Asks what happened; dismissed with the note (Enter, empty allowed) or ``None`` (Escape: no report)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("No report"))]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(_("Bug report: what happened? (Enter writes the report, Escape writes none)"))
            yield TextInput(placeholder=_("e.g. the game stopped after Bob placed his tile"), max_length=500, id="note")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _write(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)


def capture_screen(app: App[Any]) -> Screen:
    """The screen as it is: the SVG of ``App.export_screenshot`` and the same cells as plain text
    (rendered as Textual renders a screenshot; without the text when that fails)."""
    svg = spaces_placed(app.export_screenshot())
    text = None
    try:
        width, height = app.size
        console = Console(width=width, height=height, file=io.StringIO(), record=True, color_system=None,
                          legacy_windows=False, safe_box=False)
        console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
        text = "\n".join(line.rstrip() for line in console.export_text(styles=False).splitlines()) + "\n"
    except Exception:  # noqa: BLE001 - the SVG is enough; a change of Textual's insides must not lose the report
        text = None
    return Screen(svg, text)


def report_bug(app: App[Any], table: Table, *, folder: Path | None = None,
               settings: Settings | None = None) -> None:
    """Takes the screen, asks for a note, then writes the report of *table*'s game into *folder*
    (default: ``reports`` beside the save) with the player's *settings*, and says where."""
    save = table.path
    if save is None:
        app.notify(_("No save yet: the game has not started here."), title=_("No bug report"), severity="warning")
        return
    screen = capture_screen(app)
    target = folder if folder is not None else save.parent / REPORTS

    def write(note: str | None) -> None:
        if note is None:
            return
        try:
            path = write_bundle(save, target, note=note, screen=screen, table=table, origin="interface",
                                settings=settings.to_json() if settings is not None else None)
        except (BundleError, OSError) as exc:
            app.notify(_("The report could not be written: {reason}").format(reason=exc), title=_("No bug report"),
                       severity="error", timeout=15)
            return
        # Translators: {path} is the report's file.
        app.notify(_("Written to {path}. It holds the save, versions, settings and the screen, never your keys: "
                     "attach it to your bug report.").format(path=path), title=_("Bug report"), timeout=15)

    app.push_screen(BugNoteScreen(), write)
