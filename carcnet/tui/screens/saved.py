"""Provides the saved-games list: unfinished games to resume, finished ones to replay."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static
from textual.worker import get_current_worker

from carcnet.engine import Phase
from carcnet.log import LoadedLog, LogError, LogSummary, load, summarize
from carcnet.table import LanError
from carcnet.tui.messages import OpenTable
from carcnet.tui.screens.board_screen import glyphs_named
from carcnet.tui.tables import TableMaker

__all__ = ["SavedGamesScreen", "saved_games"]


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


def _state(loaded: LoadedLog) -> tuple[bool, str, str]:
    """Whether a loaded game is over, its state cell and its players cell (names and scores)."""
    game = loaded.game
    over = game.phase is Phase.GAME_OVER
    state = "finished" if over else f"turn {len(game.moves) // 2 + 1}"
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
    ]
    """Escape back; a shows every saved game."""

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
        yield Footer()

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
            empty.update(f"{len(self._paths)} game(s) in {folder}. Enter opens one.{more}")
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
                table.update_cell(key, table.ordered_columns[1].key, "unreadable")
                table.update_cell(key, table.ordered_columns[2].key, result[:60])
                return
            over, keep = False, False
        else:
            over, state, players = result
            keep = show_all or over == (self.mode == "replay")
            if keep:
                table.update_cell(key, table.ordered_columns[1].key, state)
                table.update_cell(key, table.ordered_columns[2].key, players)
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

    def action_toggle_all(self) -> None:
        self.show_all = not self.show_all
        self._fill()

    def action_back(self) -> None:
        self.dismiss(None)
