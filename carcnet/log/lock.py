"""Provides :class:`SaveLock`: a save has one writer (``protocol/log.md`` §9).

A ``.carclog`` is appended by one program at a time: whoever writes it holds an exclusive
``fcntl.flock`` on **the save file itself** (on its own descriptor of it, read-only), so the lock
dies with its process, even on ``kill -9``, and belongs to the file, not to a name: a hard link or a
symbolic link to the save, or the save reached through another directory, is the same file and the
same lock. A second writer is refused at once, named by its process id where the system says it
(``/proc/locks`` on Linux). No other file is made: nothing beside the save can be a symbolic link
that the lock would follow, or a file it would truncate.

Where ``fcntl`` does not exist (Windows) there is no lock: Windows' own locks (``msvcrt.locking``)
are mandatory byte ranges that would also stop the atomic rename of a repair (log.md §9), so there a
save must not be written by two programs at once.
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path

from carcnet.i18n import _

from .errors import LogError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]  # None stands for the missing module

__all__ = ["SaveLock"]

#: Times :meth:`SaveLock.acquire` opens the save again when it was replaced between the open and the
#: lock (a repair's rename by the writer that held it): more means another program keeps replacing it.
_ATTEMPTS = 5
#: Lines of ``/proc/locks`` read to name the holder: a bound on a busy system's list.
_LOCK_LINES = 100_000


class SaveLock:
    """The exclusive right to append to one save, held until :meth:`release` (or the process ends).

    Attributes:
        path: The save, as this writer named it.
    """

    def __init__(self, fd: int | None, path: Path) -> None:
        self._fd = fd
        self.path = path

    @classmethod
    def acquire(cls, save: str | os.PathLike[str]) -> SaveLock:
        """Takes the lock of the existing file *save* (through any link to it: the lock is the file's).

        Raises:
            LogError: ``"locked"``: another writer holds the file now (the message names its process
                where the system tells), or it keeps being replaced under this one.
            OSError: The save cannot be opened (``FileNotFoundError``: there is none).
        """
        save = Path(save)
        if fcntl is None:  # pragma: no cover - not POSIX: no lock (see the module)
            return cls(None, save)
        for __ in range(_ATTEMPTS):
            fd = os.open(save, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
            try:
                _lock(fd, save)
                same = _same_file(os.fstat(fd), save)
            except BaseException:
                os.close(fd)
                raise
            if same:
                return cls(fd, save)
            os.close(fd)  # the save was replaced between the open and the lock: lock the file there now
        # Translators: {name} is a save's file name.
        raise LogError("locked", _("{name} keeps being replaced by another program: a save has one writer").format(
            name=save.name))

    @classmethod
    def hold(cls, fd: int, save: str | os.PathLike[str]) -> SaveLock:
        """Takes the lock of the save open as *fd* (a file this process has just created at *save*);
        the lock keeps its own descriptor, so closing *fd* does not end it.

        Raises:
            LogError: ``"locked"``: another writer took the new file first.
        """
        save = Path(save)
        if fcntl is None:  # pragma: no cover - not POSIX
            return cls(None, save)
        own = os.dup(fd)
        try:
            _lock(own, save)
        except BaseException:
            os.close(own)
            raise
        return cls(own, save)

    def covers(self, fd: int) -> bool:
        """Whether the file open as *fd* is the one locked (always, where there is no lock)."""
        if self._fd is None:
            return True
        mine, theirs = os.fstat(self._fd), os.fstat(fd)
        return (mine.st_dev, mine.st_ino) == (theirs.st_dev, theirs.st_ino)

    def move_to(self, fd: int) -> None:
        """Locks the file open as *fd* (a new file this process wrote, about to be renamed over the
        save: log.md §9, resuming a damaged log), then lets the old one go, so that whatever file the
        save's name holds, this writer holds its lock.

        Raises:
            LogError: ``"locked"``: another writer holds the new file (the old lock is kept).
        """
        if self._fd is None:
            return
        own = os.dup(fd)
        try:
            _lock(own, self.path)
        except BaseException:
            os.close(own)
            raise
        old, self._fd = self._fd, own
        os.close(old)

    def release(self) -> None:
        """Lets another writer have the save (idempotent)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _lock(fd: int, save: Path) -> None:
    """An exclusive ``flock`` on *fd*, at once or ``LogError`` ``"locked"``."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _holder(os.fstat(fd))
        # Translators: {name} is a save's file name, {holder} a process's number.
        text = (_("{name} is being written by another carcnet (process {holder}): a save has one writer; close the other "
                  "one first") if holder
                # Translators: {name} is a save's file name.
                else _("{name} is being written by another carcnet: a save has one writer; close the other one first"))
        raise LogError("locked", text.format(name=save.name, holder=holder)) from None


def _same_file(opened: os.stat_result, save: Path) -> bool:
    """Whether *save* still names the file whose status is *opened*."""
    try:
        now = os.stat(save)
    except FileNotFoundError:
        return False
    return (now.st_dev, now.st_ino) == (opened.st_dev, opened.st_ino)


def _holder(locked: os.stat_result) -> str | None:
    """The process id holding a ``flock`` on the file *locked*, from ``/proc/locks`` (Linux; lines
    like ``1: FLOCK  ADVISORY  WRITE 1234 fe:00:2441783 0 EOF``), or ``None`` where it cannot tell."""
    wanted = f"{os.major(locked.st_dev):02x}:{os.minor(locked.st_dev):02x}:{locked.st_ino}"
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as locks:
            for line in itertools.islice(locks, _LOCK_LINES):
                fields = line.split()
                if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == wanted:
                    return fields[4]
    except OSError:
        return None
    return None
