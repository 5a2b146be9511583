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
from carcnet.i18n import N_, _, date_time, ngettext, pgettext
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
            # Translators: {folder} is the archive folder's path, {file} a file's name.
            raise FileExistsError(_("{folder} holds {file} already").format(folder=folder, file=clash[0]))
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
    """Asks whether to *act* on (``"archive"`` or ``"delete"``) the save *name*, saying what it means
    (*detail*): ``y`` or the action's button does it, ``n``, Escape or Cancel (focused first, so a
    stray Enter keeps the save) does not."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", N_("Yes")),
        Binding("n,escape", "answer(False)", N_("No")),
    ]
    """y does it; n or Escape keeps the save."""

    def __init__(self, act: str, name: str, detail: str) -> None:
        super().__init__()
        self.act, self.name_of_save, self.detail = act, name, detail

    def compose(self) -> ComposeResult:
        delete = self.act == "delete"
        if delete:
            # Translators: {save} is the save's file name.
            question = _("Delete {save}?")
        else:
            # Translators: {save} is the save's file name.
            question = _("Archive {save}?")
        keys = _("y: delete, n or Escape: keep it") if delete else _("y: archive, n or Escape: keep it")
        with Vertical(id="confirm-file"):
            yield Static(question.format(save=self.name_of_save), id="question")
            yield Static(f"{self.detail}\n{keys}", id="detail")
            with Horizontal(id="buttons"):
                yield Button(_("Delete") if delete else _("Archive"), id="yes",
                             variant="error" if delete else "primary")
                yield Button(_("Cancel"), id="no")

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
    if over:
        state = pgettext("game state", "finished")
    else:
        # Translators: the game's state in the saved-games list; {turn} is the turn in progress.
        state = pgettext("game state", "turn {turn}").format(turn=placed if game.phase is Phase.DEPLOY else placed + 1)
    damaged, lan = loaded.damage is not None, loaded.header.signed
    if damaged and lan:
        # Translators: {state} is "finished" or "turn 4"; the save's end was damaged; a network game.
        state = _("{state} (damaged tail), LAN").format(state=state)
    elif damaged:
        # Translators: {state} is "finished" or "turn 4"; the save's end was damaged.
        state = _("{state} (damaged tail)").format(state=state)
    elif lan:
        # Translators: {state} is "finished" or "turn 4"; a network game.
        state = _("{state}, LAN").format(state=state)
    players = ", ".join(f"{s.name} {game.scores[i]}" for i, s in enumerate(loaded.header.seats))
    return over, state, players


class SavedGamesScreen(Screen[None]):
    """Saved games: *mode* ``"resume"`` lists unfinished games, ``"replay"`` finished ones (and
    ``a`` shows all). Enter opens the selected game."""


    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", N_("Back")),
        Binding("a", "toggle_all", N_("All games")),
        Binding("e", "archive", N_("Archive"),  # the folder's name is ARCHIVE's
                tooltip=N_("Move the selected save into the archive/ folder beside the saves, out of this list "
                           "(asks first)")),
        Binding("d,delete", "delete", N_("Delete"), key_display="d",
                tooltip=N_("Delete the selected save and the files beside it, for good (asks first)")),
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
        what = _("Resume a saved game") if self.mode == "resume" else _("Replay a finished game")
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
        table.add_columns(_("Date"), _("State"), _("Players"), _("File"))
        self._paths.clear()
        self._pending.clear()
        pending: list[Path] = []
        for path, summary in saved_games(folder):
            if isinstance(summary, str):
                if self.show_all:
                    table.add_row("?", _("unreadable"), summary[:60], path.name, key=str(path))
                    self._paths[str(path)] = path
                continue
            header = summary.header
            when = date_time(datetime.fromtimestamp(header.created, timezone.utc).astimezone())
            n = summary.records
            if header.signed:
                # Translators: a network game's state while it is being checked; {n} moves are saved.
                state = ngettext("{n} move, checking…, LAN", "{n} moves, checking…, LAN", n).format(n=n)
            else:
                # Translators: a game's state while it is being checked; {n} moves are saved.
                state = ngettext("{n} move, checking…", "{n} moves, checking…", n).format(n=n)
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
            listed = len(self._paths)
            # Translators: {n} games are listed, saved in the folder {folder}.
            sentences = [ngettext("{n} game(s) in {folder}. Enter opens one, e archives it, d deletes it.",
                                  "{n} game(s) in {folder}. Enter opens one, e archives it, d deletes it.",
                                  listed).format(n=listed, folder=folder)]
            if checking:
                # Translators: {n} more games are being checked.
                sentences.append(ngettext("Checking {n} more…", "Checking {n} more…", checking).format(n=checking))
            empty.update(" ".join(sentences))
        elif checking:
            empty.update(_("Checking the games saved in {folder}…").format(folder=folder))
        elif self.mode == "resume":
            empty.update(_("No unfinished games saved in {folder}. Press a to list every game.").format(folder=folder))
        else:
            empty.update(_("No finished games saved in {folder}. Press a to list every game.").format(folder=folder))

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
                table.update_cell(key, table.ordered_columns[1].key, _("unreadable"), update_width=True)
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
            self.notify(str(exc), title=_("Cannot open"), severity="error")
            return
        if loaded.game.phase is Phase.GAME_OVER or self.mode == "replay":
            from carcnet.tui.screens.replay import ReplayScreen

            self.app.switch_screen(ReplayScreen(loaded, glyphs=glyphs_named(self.tables.settings.glyphs)))
            return
        try:  # a network game goes back on the network with the seat keys kept beside it
            table = self.tables.resume(path)
        except (LanError, LogError, OSError, ValueError) as exc:
            self.notify(str(exc), title=_("Cannot resume"), severity="error", timeout=10)
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
            self.notify(_("No save is selected."), severity="warning")
            return
        # Translators: {folder} is the archive folder's path.
        detail = _("It moves into {folder}, with the files beside it, and leaves this list; "
                   "move it back to resume it.").format(folder=path.parent / ARCHIVE)

        def archived() -> str:
            # Translators: {save} is the save's file name, {folder} the folder it moved into.
            return _("{save}: now in {folder}.").format(save=path.name, folder=archive_save(path).parent)

        def answered(yes: bool | None) -> None:
            if yes:
                self._change(path, _("Archived"), _("Not archived"), archived)

        self.app.push_screen(ConfirmFileScreen("archive", path.name, detail), answered)

    def action_delete(self) -> None:
        """Asks, then deletes the selected save and its side files."""
        path = self._selected()
        if path is None:
            self.notify(_("No save is selected."), severity="warning")
            return
        others = len(save_files(path)) - 1
        if others:
            # Translators: {n} files are kept beside the save (its keys, its connection log…).
            detail = ngettext("The save and the {n} file(s) beside it is deleted for good: the game cannot be "
                              "resumed or replayed.",
                              "The save and the {n} file(s) beside it is deleted for good: the game cannot be "
                              "resumed or replayed.", others).format(n=others)
        else:
            detail = _("The save is deleted for good: the game cannot be resumed or replayed.")

        def deleted() -> str:
            n = len(delete_save(path))
            # Translators: {save} is the save's file name; {n} files were deleted.
            return ngettext("{save}: {n} file(s) deleted.", "{save}: {n} file(s) deleted.", n).format(
                save=path.name, n=n)

        def answered(yes: bool | None) -> None:
            if yes:
                self._change(path, _("Deleted"), _("Not deleted"), deleted)

        self.app.push_screen(ConfirmFileScreen("delete", path.name, detail), answered)

    def _change(self, path: Path, done: str, not_done: str, act: Callable[[], str]) -> None:
        """Runs *act* (archive or delete *path*, saying what it did); notifies what it said under the
        title *done*, or why it could not under *not_done*; then lists the saves again."""
        try:
            said = act()
        except LogError as exc:  # "locked": the game is being played, here or elsewhere
            self.notify(str(exc), title=not_done, severity="error", timeout=10)
            return
        except OSError as exc:
            # Translators: {save} is the save's file name, {reason} why it could not be moved or deleted.
            self.notify(_("{save}: {reason}").format(save=path.name, reason=exc.strerror or exc), title=not_done,
                        severity="error", timeout=10)
            return
        self.notify(said, title=done)
        self._fill()

    def action_toggle_all(self) -> None:
        self.show_all = not self.show_all
        self._fill()

    def action_back(self) -> None:
        self.dismiss(None)
