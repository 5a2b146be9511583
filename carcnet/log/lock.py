"""Provides :class:`SaveLock`: a save has one writer (``protocol/log.md`` §9).

A ``.carclog`` is appended by one program at a time: whoever writes it holds an exclusive lock on
``<save>.lock`` beside it (``fcntl.flock``, so the lock dies with its process, even on ``kill -9``), and
writes its process id there for the refusal's sentence. A second writer is refused at once. Where
``fcntl`` does not exist (Windows) there is no lock.
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import LogError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]  # None stands for the missing module

__all__ = ["SaveLock"]


class SaveLock:
    """The exclusive right to append to one save, held until :meth:`release` (or the process ends).

    Attributes:
        path: The lock file, ``<save>.lock``.
    """

    def __init__(self, fd: int, path: Path) -> None:
        self._fd: int | None = fd
        self.path = path

    @classmethod
    def acquire(cls, save: str | os.PathLike[str]) -> SaveLock:
        """Takes the lock of *save* (its directory must exist).

        Raises:
            LogError: ``"locked"``: another process writes *save* now (the message names it).
            OSError: The lock file cannot be opened.
        """
        save = Path(save)
        path = save.with_name(save.name + ".lock")
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = os.read(fd, 32).decode(errors="replace").strip() or "?"
                os.close(fd)
                raise LogError(
                    "locked",
                    f"{save.name} is being written by another carcnet (process {holder}): a save has one "
                    "writer; close the other one first",
                ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        return cls(fd, path)

    def release(self) -> None:
        """Lets another writer have the save (idempotent)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
