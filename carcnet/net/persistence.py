"""Provides where a replica saves its log as it grows (``protocol/log.md`` §9): the
:class:`Persistence` protocol the app's log recorder follows, and :class:`MemoryLog`, the one in
memory that tests and the commit model use. Sans-I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from .messages import SignedEntry

__all__ = ["MemoryLog", "Persistence"]


class Persistence(Protocol):
    """Where a replica saves its log as it grows (``log.md`` §9: on disk before it counts).

    The app plugs the log recorder in; tests use :class:`MemoryLog`.
    """

    def on_append(self, signed: SignedEntry) -> None:
        """Saves *signed*, the next entry of the log, where a crash of this program cannot lose it
        (written to the operating system); :meth:`sync` makes it durable. Called before the entry is
        passed on to peers. An exception propagates to the caller of :meth:`Replica.author` or, for
        a received entry, ends that connection with ``internal``."""
        ...

    def on_take_back(self, seq: int) -> None:
        """Removes the last entry saved, *seq*: a table draw that a signed ``handover`` for the same
        seq beat (wire.md §5.7 "A draw racing a handover"), the one entry a peer ever takes back."""
        ...

    def on_set_aside(self, seq: int) -> str | None:
        """Moves the entries from *seq* on out of the log into its side file (wire.md §5.9: the table
        committed other entries there): they are kept, never replayed into the game. Returns where
        they are kept, for people (``None``: in memory only).

        Raises:
            OSError: The side file or the log could not be written (the log is then unchanged).
        """
        ...

    def sync(self) -> None:
        """Makes every entry saved so far durable (fsync: a power loss cannot lose it). The replica
        calls it before an entry this peer signed is sent (``log.md`` §9); the peer calls it in a
        worker thread after received entries, so it must be safe beside :meth:`on_append`."""
        ...


class MemoryLog:
    """:class:`Persistence` in memory: the saved entries, in order."""

    def __init__(self, entries: Iterable[SignedEntry] = ()) -> None:
        self.entries: list[SignedEntry] = list(entries)
        #: Entries set aside (:meth:`on_set_aside`), in the order they were.
        self.aside: list[SignedEntry] = []

    def on_append(self, signed: SignedEntry) -> None:
        self.entries.append(signed)

    def on_take_back(self, seq: int) -> None:
        assert self.entries and self.entries[-1].seq == seq
        self.entries.pop()

    def on_set_aside(self, seq: int) -> str | None:
        self.aside.extend(self.entries[seq - 1 :])
        del self.entries[seq - 1 :]
        return None

    def sync(self) -> None:
        """Nothing to do: memory is all there is."""
