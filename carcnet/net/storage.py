"""Provides :class:`RecorderLog`: a LAN peer's log on disk, growing as entries arrive.

It is the :class:`~carcnet.net.sync.Persistence` a player peer uses outside tests: every signed
entry, made here or received, is checked by the session as a reader would check it (``admit_entry``
is the log's ``apply_entry``) and written to a log format 2 file before the session passes it on;
an entry this peer signed is fsynced before it is sent, a received one by :meth:`RecorderLog.sync`
soon after, in a worker thread (``protocol/log.md`` §9, ``protocol/wire.md`` §5.4). The recorder
does not check an entry a second time. A game stopped by every peer resumes from these files, and loading them checks every
entry again.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Self

from carcnet.i18n import _
from carcnet.log import GameRecorder

from .messages import SignedEntry, WireHeader

__all__ = ["RecorderLog"]


class RecorderLog:
    """Saves a session's signed entries in a ``.carclog`` (log format 2, with keys and signatures).

    Lifecycle: :meth:`create` (a new game's header) or :meth:`resume` (a saved game); the session
    calls :meth:`on_append` for each entry; :meth:`close`.

    Attributes:
        recorder: The log file's recorder (its ``game`` is this peer's copy of the game as saved).
    """

    def __init__(self, recorder: GameRecorder) -> None:
        self.recorder = recorder
        #: How many entries were in the file when it was continued (:meth:`continue_or_create`):
        #: the session's entries up to there are compared with them, not written again.
        self.held = len(recorder.entries)

    @classmethod
    def create(cls, header: WireHeader, path: str | os.PathLike[str] | None = None) -> Self:
        """Starts the log of a new game at *path* (default: the user data folder).

        Raises:
            LogError: ``"exists"``: a file is already at *path*.
            OSError: The file cannot be created.
        """
        return cls(GameRecorder.create(header.header, path))

    @classmethod
    def continue_or_create(cls, header: WireHeader, path: str | os.PathLike[str]) -> Self:
        """The log of *header*'s game at *path*: a new file, or this peer's own earlier save of the
        same game (a peer that restarted and joined again), continued where it stops: the entries the
        session admits up to there must be the saved ones (:meth:`on_append` compares them), and the
        file grows from there. A log is never overwritten or forked.

        Raises:
            LogError: ``"exists"``: the file at *path* holds another header (another game, or the same
                game id with other keys or seed): it is left untouched; or the file is refused.
            OSError: The file cannot be read, created or written.
        """
        from carcnet.log import LogError

        if not Path(path).exists():
            return cls.create(header, path)
        recorder, saved, _entries = cls.resume(path)
        if saved.fingerprint != header.fingerprint:
            recorder.close()
            # Translators: {name} is a save's file name.
            raise LogError("exists", _("{name} holds another game's log: it is left untouched").format(name=Path(path).name))
        return recorder

    @classmethod
    def resume(cls, path: str | os.PathLike[str]) -> tuple[Self, WireHeader, list[SignedEntry]]:
        """Re-opens a saved network game: the log, its wire header and its signed entries (for the
        session's ``header`` and ``entries``). A damaged last record is set aside as
        :meth:`GameRecorder.resume` does.

        Raises:
            LogError: The log is refused, or it is not a signed (network) game (``"no-key"``).
            OSError: The file cannot be read or written.
        """
        from carcnet.log import LogError

        recorder = GameRecorder.resume(path)
        if not recorder.header.signed:
            recorder.close()
            # Translators: {name} is a save's file name.
            raise LogError("no-key", _("{name}: not a network game (its header has no seat keys)").format(name=Path(path).name))
        entries = [SignedEntry.of(e) for e in recorder.entries]
        return cls(recorder), WireHeader.of(recorder.header), entries

    @property
    def path(self) -> Path:
        return self.recorder.path

    @property
    def entries(self) -> list[SignedEntry]:
        """The signed entries saved so far, seq 1, 2, … (read from the recorder's memory)."""
        return [SignedEntry.of(e) for e in self.recorder.entries]

    def on_append(self, signed: SignedEntry) -> None:
        """Appends *signed*, which the session has just checked as a reader would (``admit_entry``
        is the log's ``apply_entry``) or made itself (``GameRecorder.append_admitted``: checked once,
        not twice); raises ``LogError`` or ``OSError`` when it cannot, and then nothing is written.
        An entry the continued file holds already is compared, not written: ``LogError``
        ``"conflict"`` when it differs (the file is not a prefix of the table's log)."""
        seq = signed.entry.seq
        if seq <= self.held:
            from carcnet.log import LogError

            if self.recorder.entries[seq - 1] != signed.entry:
                # Translators: {seq} is a move's number, {name} a save's file name.
                raise LogError("conflict", _("entry {seq} of {name} is not the table's").format(seq=seq, name=self.path.name), seq)
            return
        self.recorder.append_admitted(signed.entry, sync=False)

    def on_take_back(self, seq: int) -> None:
        """Removes the last entry, *seq* (a table draw a signed handover beat, wire.md §5.7).

        Raises:
            ValueError: *seq* is not the last entry, or one the continued file held already.
            OSError: The file could not be truncated.
        """
        if seq <= self.held:
            raise ValueError(f"entry {seq} was in {self.path.name} before: it is not taken back")
        self.recorder.take_back(seq)

    def on_set_aside(self, seq: int) -> str | None:
        """Moves the entries from *seq* on into the side file ``<save>.aside`` and out of the log
        (:meth:`GameRecorder.set_aside`, wire.md §5.9); returns the side file's path.

        Raises:
            ValueError: *seq* is not in the log.
            OSError: A file could not be written.
        """
        _aside, path = self.recorder.set_aside(seq)
        self.held = min(self.held, seq - 1)
        return str(path)

    def sync(self) -> None:
        """Makes every entry written so far durable (one fsync; may run in a worker thread).

        Raises:
            OSError: The fsync failed; later appends are refused (``"writer-broken"``).
        """
        self.recorder.sync()

    def close(self) -> None:
        self.recorder.close()
