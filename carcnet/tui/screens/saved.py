"""Provides the saved-games list: unfinished games to resume, finished ones to replay."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from carcnet.engine import Phase
from carcnet.log import LoadedLog, LogError, load
from carcnet.table import LanError
from carcnet.tui.messages import OpenTable
from carcnet.tui.tables import TableMaker

__all__ = ["SavedGamesScreen", "saved_games"]


def saved_games(folder: Path) -> list[tuple[Path, LoadedLog | str]]:
    """Every ``.carclog`` in *folder*, newest first, each loaded (or the reason it cannot be)."""
    out: list[tuple[Path, LoadedLog | str]] = []
    files = sorted(folder.glob("*.carclog"), reverse=True) if folder.is_dir() else []
    for path in files:
        try:
            out.append((path, load(path)))
        except (LogError, OSError) as exc:
            out.append((path, str(exc)))
    return out


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

    def compose(self) -> ComposeResult:
        what = "Resume a saved game" if self.mode == "resume" else "Replay a finished game"
        yield Static(what, id="title")
        yield Static("", id="empty")
        yield DataTable(cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        self._fill()

    def _fill(self) -> None:
        folder = self.tables.data_dir
        table = self.query_one(DataTable)
        table.clear(columns=True)
        table.add_columns("Date", "State", "Players", "File")
        self._paths.clear()
        for path, loaded in saved_games(folder):
            if isinstance(loaded, str):
                if self.show_all:
                    table.add_row("?", "unreadable", loaded[:60], path.name, key=str(path))
                    self._paths[str(path)] = path
                continue
            game = loaded.game
            over = game.phase is Phase.GAME_OVER
            if not self.show_all and over != (self.mode == "replay"):
                continue
            when = datetime.fromtimestamp(loaded.header.created, timezone.utc).astimezone().strftime("%Y-%m-%d %H:%M")
            state = "finished" if over else f"turn {len(game.moves) // 2 + 1}"
            if loaded.damage is not None:
                state += " (damaged tail)"
            if loaded.header.signed:
                state += ", LAN"
            players = ", ".join(f"{s.name} {game.scores[i]}" for i, s in enumerate(loaded.header.seats))
            table.add_row(when, state, players, path.name, key=str(path))
            self._paths[str(path)] = path
        empty = self.query_one("#empty", Static)
        if self._paths:
            empty.update(f"{len(self._paths)} game(s) in {folder}. Enter opens one.")
            table.focus()
        else:
            kind = "unfinished" if self.mode == "resume" else "finished"
            empty.update(f"No {kind} games saved in {folder}. Press a to list every game.")

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

            self.app.switch_screen(ReplayScreen(loaded))
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
