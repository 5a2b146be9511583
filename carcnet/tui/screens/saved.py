"""Provides the saved-games list: unfinished games to resume, finished ones to replay; a save can be
archived (moved into ``archive/`` beside the saves, out of the list) or deleted, each after a question.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, DataTable, Static
from textual.worker import get_current_worker

from carcnet.engine import Phase, PlaceTile
from carcnet.log import LoadedLog, LogError, LogSummary, load, summarize
from carcnet.log.lock import SaveLock
from carcnet.table import LanError
from carcnet.tui.messages import OpenTable
from carcnet.tui.screens.board_screen import glyphs_named
from carcnet.tui.tables import TableMaker
from carcnet.tui.widgets.footer import KeyFooter

__all__ = ["ARCHIVE", "ConfirmFileScreen", "SavedGamesScreen", "archive_save", "delete_save", "save_files",
           "saved_games"]

#: The folder, beside the saves, that archived saves are moved into (not listed by Resume or Replay).
ARCHIVE = "archive"


def saved_games(folder: Path) -> list[tuple[Path, LogSummary | str]]:
    """Every ``.carclog`` in *folder*, newest first, each summarized from its header without replaying
    it (``log.summarize``), or the reason it cannot be read."""
    out: list[tuple[Path, LogSummary | str]] = []
    files = sorted(folder.glob("*.carclog"), reverse=True) if folder.is_dir() else []
    for path in files:
        try:
            out.append((path, summarize(path)))
        except (LogError, OSError) as exc:
            out.append((path, str(exc)))
    return out


def save_files(path: Path) -> list[Path]:
    """The save *path* and the files kept beside it that exist: a network game's seat keys
    (``.keys``) and connection log (``.events``), the moves set aside (``.aside``) and damaged tails
    set aside by a repair (``.damaged-N``)."""
    from carcnet.log.aside import aside_path
    from carcnet.table.eventfile import events_path
    from carcnet.table.keys import keys_path

    beside = [keys_path(path), events_path(path), aside_path(path)]
    beside += sorted(path.parent.glob(f"{path.name}.damaged-*"))
    return [path] + [f for f in beside if f.is_file()]


def _unused(path: Path) -> SaveLock:
    """The save's writer lock, taken so that no program writes it while it is moved or deleted.

    Raises:
        LogError: ``"locked"``: a game is being played in it (here or by another program).
        OSError: It cannot be opened (gone already).
    """
    return SaveLock.acquire(path)


def archive_save(path: Path) -> Path:
    """Moves the save *path* and its side files (:func:`save_files`) into :data:`ARCHIVE` beside it
    (made if missing); returns the save's new path.

    Raises:
        LogError: ``"locked"``: the game is being played.
        FileExistsError: The archive holds a save of that name already.
        OSError: A file cannot be moved.
    """
    lock = _unused(path)
    try:
        folder = path.parent / ARCHIVE
        folder.mkdir(exist_ok=True)
        files = save_files(path)
        if clash := [f.name for f in files if (folder / f.name).exists()]:
            raise FileExistsError(f"{folder} holds {clash[0]} already")
        for f in files[1:] + files[:1]:  # the save last: a failure leaves it listed, with what is left
            f.rename(folder / f.name)
    finally:
        lock.release()
    return folder / path.name


def delete_save(path: Path) -> list[Path]:
    """Deletes the save *path* and its side files (:func:`save_files`); returns the files deleted.

    Raises:
        LogError: ``"locked"``: the game is being played.
        OSError: A file cannot be deleted.
    """
    lock = _unused(path)
    try:
        files = save_files(path)
        for f in files[1:] + files[:1]:
            f.unlink(missing_ok=True)
    finally:
        lock.release()
    return files


class ConfirmFileScreen(ModalScreen[bool]):
    """Asks whether to *verb* (``"Archive"`` or ``"Delete"``) the save *name*, saying what it means
    (*detail*): ``y`` or the verb's button does it, ``n``, Escape or Cancel (focused first, so a
    stray Enter keeps the save) does not."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]
    """y does it; n or Escape keeps the save."""

    def __init__(self, verb: str, name: str, detail: str) -> None:
        super().__init__()
        self.verb, self.name_of_save, self.detail = verb, name, detail

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-file"):
            yield Static(f"{self.verb} {self.name_of_save}?", id="question")
            yield Static(f"{self.detail}\ny: {self.verb.lower()}, n or Escape: keep it", id="detail")
            with Horizontal(id="buttons"):
                yield Button(self.verb, id="yes", variant="error" if self.verb == "Delete" else "primary")
                yield Button("Cancel", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


def _state(loaded: LoadedLog) -> tuple[bool, str, str]:
    """Whether a loaded game is over, its state cell and its players cell (names and scores)."""
    game = loaded.game
    over = game.phase is Phase.GAME_OVER
    # the turn in progress, numbered as the replay and the chart number turns (the table's draws and
    # handovers are moves but no turn)
    placed = sum(isinstance(m, PlaceTile) for m in game.moves)
    state = "finished" if over else f"turn {placed if game.phase is Phase.DEPLOY else placed + 1}"
    if loaded.damage is not None:
        state += " (damaged tail)"
    if loaded.header.signed:
        state += ", LAN"
    players = ", ".join(f"{s.name} {game.scores[i]}" for i, s in enumerate(loaded.header.seats))
    return over, state, players


class SavedGamesScreen(Screen[None]):
    """Saved games: *mode* ``"resume"`` lists unfinished games, ``"replay"`` finished ones (and
    ``a`` shows all). Enter opens the selected game."""


    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("a", "toggle_all", "All games"),
        Binding("e", "archive", "Archive",
                tooltip=f"Move the selected save into the {ARCHIVE}/ folder beside the saves, out of this list "
                "(asks first)"),
        Binding("d,delete", "delete", "Delete", key_display="d",
                tooltip="Delete the selected save and the files beside it, for good (asks first)"),
    ]
    """Escape back; a shows every saved game; e archives the selected save, d (or Delete) deletes it,
    each after a question."""

    def __init__(self, tables: TableMaker, mode: str) -> None:
        super().__init__()
        self.tables = tables
        self.mode = mode
        self.show_all = False
        self._paths: dict[str, Path] = {}
        self._pending: set[Path] = set()  # listed, not replayed yet

    def compose(self) -> ComposeResult:
        what = "Resume a saved game" if self.mode == "resume" else "Replay a finished game"
        yield Static(what, id="title")
        yield Static("", id="empty")
        yield DataTable(cursor_type="row", zebra_stripes=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self._fill()

    def _fill(self) -> None:
        """Lists every save from its header at once (date, moves, players, file); then
        :meth:`_check` replays them one by one in a thread, fills in state and scores, and drops the
        games this list is not for (finished ones when resuming, unfinished when replaying)."""
        folder = self.tables.data_dir
        table = self.query_one(DataTable)
        table.clear(columns=True)
        table.add_columns("Date", "State", "Players", "File")
        self._paths.clear()
        self._pending.clear()
        pending: list[Path] = []
        for path, summary in saved_games(folder):
            if isinstance(summary, str):
                if self.show_all:
                    table.add_row("?", "unreadable", summary[:60], path.name, key=str(path))
                    self._paths[str(path)] = path
                continue
            header = summary.header
            when = datetime.fromtimestamp(header.created, timezone.utc).astimezone().strftime("%Y-%m-%d %H:%M")
            state = f"{summary.records} moves, checking…" + (", LAN" if header.signed else "")
            players = ", ".join(s.name for s in header.seats)
            table.add_row(when, state, players, path.name, key=str(path))
            self._paths[str(path)] = path
            pending.append(path)
        self._pending.update(pending)
        self._tell()
        if self._paths:
            table.focus()
        self._check(pending, self.show_all)

    def _tell(self) -> None:
        """Says how many games are listed, and how many are still being checked."""
        folder = self.tables.data_dir
        empty = self.query_one("#empty", Static)
        checking = len(self._pending)
        if self._paths:
            more = f" Checking {checking} more…" if checking else ""
            empty.update(f"{len(self._paths)} game(s) in {folder}. Enter opens one, e archives it, d deletes it."
                         f"{more}")
        elif checking:
            empty.update(f"Checking the games saved in {folder}…")
        else:
            kind = "unfinished" if self.mode == "resume" else "finished"
            empty.update(f"No {kind} games saved in {folder}. Press a to list every game.")

    @work(thread=True, exclusive=True, group="saved")
    def _check(self, paths: list[Path], show_all: bool) -> None:
        """Replays each of *paths* (newest first) off the event loop and reports it to the list."""
        worker = get_current_worker()
        for path in paths:
            if worker.is_cancelled:
                return
            try:
                result: tuple[bool, str, str] | str = _state(load(path))
            except (LogError, OSError) as exc:
                result = str(exc)
            self.app.call_from_thread(self._checked, path, result, show_all)

    def _checked(self, path: Path, result: tuple[bool, str, str] | str, show_all: bool) -> None:
        key = str(path)
        if show_all != self.show_all or key not in self._paths:
            return
        self._pending.discard(path)
        table = self.query_one(DataTable)
        if isinstance(result, str):
            if show_all:
                table.update_cell(key, table.ordered_columns[1].key, "unreadable", update_width=True)
                table.update_cell(key, table.ordered_columns[2].key, result[:60], update_width=True)
                return
            over, keep = False, False
        else:
            over, state, players = result
            keep = show_all or over == (self.mode == "replay")
            if keep:
                table.update_cell(key, table.ordered_columns[1].key, state, update_width=True)
                table.update_cell(key, table.ordered_columns[2].key, players, update_width=True)
        if not keep:
            table.remove_row(key)
            del self._paths[key]
        self._tell()

    @on(DataTable.RowSelected)
    def _open(self, event: DataTable.RowSelected) -> None:
        path = self._paths.get(str(event.row_key.value))
        if path is None:
            return
        try:
            loaded = load(path)
        except (LogError, OSError) as exc:
            self.notify(str(exc), title="Cannot open", severity="error")
            return
        if loaded.game.phase is Phase.GAME_OVER or self.mode == "replay":
            from carcnet.tui.screens.replay import ReplayScreen

            self.app.switch_screen(ReplayScreen(loaded, glyphs=glyphs_named(self.tables.settings.glyphs)))
            return
        try:  # a network game goes back on the network with the seat keys kept beside it
            table = self.tables.resume(path)
        except (LanError, LogError, OSError, ValueError) as exc:
            self.notify(str(exc), title="Cannot resume", severity="error", timeout=10)
            return
        self.post_message(OpenTable(table))

    def _selected(self) -> Path | None:
        """The save of the row under the cursor, or ``None`` (no row)."""
        table = self.query_one(DataTable)
        if not self._paths or table.cursor_row < 0 or table.cursor_row >= table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        return self._paths.get(str(key.value))

    def action_archive(self) -> None:
        """Asks, then moves the selected save (and its side files) into :data:`ARCHIVE`."""
        path = self._selected()
        if path is None:
            self.notify("No save is selected.", severity="warning")
            return
        detail = (f"It moves into {path.parent / ARCHIVE}, with the files beside it, and leaves this list; "
                  "move it back to resume it.")

        def answered(yes: bool | None) -> None:
            if yes:
                self._change(path, "Archived", lambda: f"now in {archive_save(path).parent}")

        self.app.push_screen(ConfirmFileScreen("Archive", path.name, detail), answered)

    def action_delete(self) -> None:
        """Asks, then deletes the selected save and its side files."""
        path = self._selected()
        if path is None:
            self.notify("No save is selected.", severity="warning")
            return
        others = len(save_files(path)) - 1
        beside = f" and the {others} file(s) beside it" if others else ""
        detail = f"The save{beside} is deleted for good: the game cannot be resumed or replayed."

        def answered(yes: bool | None) -> None:
            if yes:
                self._change(path, "Deleted", lambda: f"{len(delete_save(path))} file(s) deleted")

        self.app.push_screen(ConfirmFileScreen("Delete", path.name, detail), answered)

    def _change(self, path: Path, done: str, act: Callable[[], str]) -> None:
        """Runs *act* (archive or delete *path*); says what it did, or why it could not; then lists
        the saves again."""
        try:
            said = act()
        except LogError as exc:  # "locked": the game is being played, here or elsewhere
            self.notify(str(exc), title=f"Not {done.lower()}", severity="error", timeout=10)
            return
        except OSError as exc:
            self.notify(f"{path.name}: {exc.strerror or exc}", title=f"Not {done.lower()}", severity="error",
                        timeout=10)
            return
        self.notify(f"{path.name}: {said}.", title=done)
        self._fill()

    def action_toggle_all(self) -> None:
        self.show_all = not self.show_all
        self._fill()

    def action_back(self) -> None:
        self.dismiss(None)
