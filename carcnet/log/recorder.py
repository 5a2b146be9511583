"""Provides :class:`GameRecorder`: a game whose every move is on disk before it counts
(``protocol/log.md`` §9).

A recorder holds a :class:`~carcnet.engine.Game` and the :class:`~carcnet.log.store.LogWriter` of its
file. :meth:`GameRecorder.submit` validates a move by applying it, appends the entry with fsync, and
only then returns: a crash loses at most the move being written. :meth:`GameRecorder.resume` continues
a saved game; a damaged tail is set aside, never rewritten in place.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Self

from carcnet.engine import Event, Game, Move, replay

from .entries import LogEntry, LogHeader
from .store import Damage, LoadedLog, LogWriter, fsync_directory, load, new_path

__all__ = ["GameRecorder", "Recovery"]


@dataclass(frozen=True, slots=True)
class Recovery:
    """What :meth:`GameRecorder.resume` did with a log whose last record was damaged.

    Attributes:
        damage: The dropped record, as :func:`~carcnet.log.store.load` reported it.
        damaged_copy: Where the damaged file now lives, byte for byte as it was
            (``<name>.damaged-<n>`` beside it).
        message: One sentence for people.
    """

    damage: Damage
    damaged_copy: Path
    message: str


class GameRecorder:
    """A game being played and recorded: each move is applied, then appended and fsynced.

    Lifecycle: :meth:`create` (new game) or :meth:`resume` (saved game); :meth:`submit` once per
    move; :meth:`close`. Read the game through :attr:`game`; change it only through :meth:`submit`.

    Attributes:
        header: The log's header.
        entries: The entries on disk, ``seq`` 1, 2, … in order.
        game: The game after those entries. Replaced by a fresh replay when a write fails, so read it
            from the recorder rather than keeping it.
        writer: The file's writer.
        recovery: What :meth:`resume` did with a damaged tail, or ``None``.
    """

    def __init__(self, header: LogHeader, writer: LogWriter, game: Game, entries: list[LogEntry]) -> None:
        self.header = header
        self.writer = writer
        self.game = game
        self.entries = entries
        self.recovery: Recovery | None = None

    @property
    def path(self) -> Path:
        """The log file."""
        return self.writer.path

    @classmethod
    def create(cls, header: LogHeader, path: str | os.PathLike[str] | None = None) -> GameRecorder:
        """Starts recording a new game at *path* (default: :func:`~carcnet.log.store.new_path` in the
        user data directory).

        Raises:
            LogError: ``"exists"``: a file is already at *path*.
            OSError: The file cannot be created.
        """
        target = Path(path) if path is not None else new_path(header)
        writer = LogWriter.create(target, header)
        return cls(header, writer, Game(header.setup()), [])

    @classmethod
    def resume(cls, path: str | os.PathLike[str]) -> GameRecorder:
        """Continues a saved game: loads and replays it, then opens it for appending.

        When the last record is damaged, the damaged file is kept untouched as ``<name>.damaged-<n>``
        (a hard link, or a copy where links are impossible) and the valid prefix replaces it at
        *path* through a new file (written, fsynced, then atomically renamed over it), so no file is
        ever rewritten in place; :attr:`recovery` says what was done.

        Raises:
            LogError: The log is refused (see :func:`~carcnet.log.store.load`).
            OSError: A file cannot be read, linked or written.
        """
        loaded = load(path)
        recovery = None
        if loaded.damage is not None:
            recovery = _set_damage_aside(loaded, loaded.damage)
            loaded = load(loaded.path)
        recorder = cls(loaded.header, LogWriter.append_to(loaded), loaded.game, list(loaded.entries))
        recorder.recovery = recovery
        return recorder

    def submit(self, move: Move) -> list[Event]:
        """Plays *move* for the seat whose turn it is and records it; returns the engine's events.

        The move counts only once its entry is fsynced. If writing fails, :attr:`game` is rebuilt
        from the entries on disk (as if the move had not been made) and the error is raised.

        Raises:
            IllegalMoveError: The engine refuses the move; nothing is written.
            OSError: The write failed (the writer is then broken: resume the log to continue).
            LogError: ``"writer-broken"``: an earlier write failed.
        """
        game = self.game
        seat = game.seat
        events = game.apply(move)
        entry = LogEntry(len(self.entries) + 1, seat, move, game.digest)
        try:
            self.writer.append(entry)
        except BaseException:
            self.game = replay(self.header.setup(), [e.move for e in self.entries])
            raise
        self.entries.append(entry)
        return events

    def close(self) -> None:
        """Closes the log file."""
        self.writer.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _set_damage_aside(loaded: LoadedLog, damage: Damage) -> Recovery:
    """Keeps the damaged file as ``<name>.damaged-<n>`` and puts its valid prefix at its path."""
    path = loaded.path
    directory = path.parent
    n = 1
    while True:
        aside = path.with_name(f"{path.name}.damaged-{n}")
        try:
            os.link(path, aside)  # the same bytes under a second name; fails if the name is taken
            break
        except FileExistsError:
            n += 1
        except OSError:  # no hard links here: copy instead, refusing to overwrite
            if aside.exists():
                n += 1
                continue
            shutil.copy2(path, aside)
            break
    with open(path, "rb") as src:
        prefix = src.read(loaded.valid_size)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(prefix)
            out.flush()
            os.fsync(out.fileno())
        shutil.copymode(path, tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    fsync_directory(directory)
    message = (
        f"{path.name}: {damage.message}. The damaged file is kept as {aside.name}; "
        f"the game continues from seq {damage.seq}"
    )
    return Recovery(damage, aside, message)
