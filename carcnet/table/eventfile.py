"""Provides the connection log a network table keeps beside its save: ``<save stem>.events``.

A peer's connections keep their own log of events in memory (:attr:`Connections.events`,
:class:`~carcnet.net.connections.NetEvent`: connections opened and closed, the ``error``,
``reject`` and ``bye`` sent and received; wire.md §4.8), the newest
:data:`~carcnet.net.connections.MAX_EVENTS`. Memory does not outlive a crash, so a network table
also appends each event to a file beside its save, once it has one, as one JSON line (UTF-8):

``{"wall": 1764212345.123, "time": 812.5, "kind": "received", "code": "desync", "message": "...",
"seq": 45, "peer": "Bob", "peer_key": "<64 hex digits>"}``

``wall`` is seconds since the Unix epoch, ``time`` the session's clock (seconds, monotonic), the
others :class:`NetEvent`'s fields (``peer_key`` a public identity key, never a private one). The
events of the lobby, before the save exists, are written when the game starts. The
file is bounded: past :data:`MAX_BYTES` it is cut to its newest lines (at most half of that), replaced
at once. ``carcnet report`` puts it in a bug report (:mod:`carcnet.table.bundle`). A write that fails
is said once in the program's log and the table goes on without the file.
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import time
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from carcnet.net.connections import NetEvent

if TYPE_CHECKING:
    from .netview import NetView

__all__ = ["EVENTS_SUFFIX", "MAX_BYTES", "FiledEvents", "event_map", "events_path", "keep_connection_log"]

log = logging.getLogger("carcnet.table")

#: The suffix of the connection log beside a save (``X.carclog`` → ``X.events``).
EVENTS_SUFFIX = ".events"
#: The most bytes the file holds before it is cut to its newest lines.
MAX_BYTES = 256 * 1024


def events_path(save: Path) -> Path:
    """Where the connection log of the game saved at *save* is kept."""
    return save.with_suffix(EVENTS_SUFFIX)


def event_map(event: NetEvent, wall: float) -> dict[str, object]:
    """One event as a JSON object (the module docstring's line); *wall*: when it happened, in seconds
    since the Unix epoch."""
    return {
        "wall": round(wall, 3),
        "time": round(event.time, 3),
        "kind": event.kind,
        "code": event.code,
        "message": event.message,
        "seq": event.seq,
        "peer": event.peer,
        "peer_key": event.peer_key.hex() if event.peer_key is not None else None,
    }


class FiledEvents(deque[NetEvent]):
    """A session's connection log: in memory as before (the newest *maxlen*), and each event appended
    to the file beside the save once *save()* names one.

    Args:
        iterable: The events so far (the session's log, taken over; written with the first flush).
        maxlen: How many events memory keeps.
        save: The table's save, ``None`` until it has one.
        clock: The session's clock, to date the events written after they happened.
    """

    def __init__(self, iterable: Iterable[NetEvent] = (), maxlen: int | None = None, *,
                 save: Callable[[], Path | None] = lambda: None, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(iterable, maxlen)
        self._save = save
        self._clock = clock
        self._path: Path | None = None
        self._failed = False
        self._unwritten = len(self)  # the newest events not in the file yet

    @property
    def path(self) -> Path | None:
        """The file written to, once the table has a save."""
        return self._path

    def append(self, event: NetEvent, /) -> None:
        super().append(event)
        self._unwritten += 1
        self.flush()

    def flush(self) -> None:
        """Writes the events not written yet, once the table has a save (each session change calls it:
        the lobby's events are written as soon as the game starts)."""
        if self._failed or not self._unwritten:
            return
        if self._path is None:
            save = self._save()
            if save is None:
                return
            self._path = events_path(save)
        waiting = list(itertools.islice(reversed(self), min(self._unwritten, len(self))))[::-1]
        now, wall = self._clock(), time.time()
        lines = "".join(json.dumps(event_map(e, wall - (now - e.time)), ensure_ascii=False) + "\n" for e in waiting)
        self._unwritten = 0
        try:
            with open(self._path, "a", encoding="utf-8") as file:
                file.write(lines)
                size = file.tell()
            if size > MAX_BYTES:
                _keep_newest(self._path, MAX_BYTES // 2)
        except OSError as exc:
            self._failed = True
            log.warning("cannot write the connection log %s: %s", self._path, exc)


def _keep_newest(path: Path, limit: int) -> None:
    """Cuts the file at *path* to its newest whole lines, *limit* bytes at most (replaced at once)."""
    data = path.read_bytes()
    tail = data[-limit:]
    start = tail.find(b"\n") + 1 if len(data) > limit else 0
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(tail[start:])
    os.replace(tmp, path)


def keep_connection_log(table: NetView) -> None:
    """Makes *table*'s session keep its connection log in the file beside the table's save as well
    (:class:`FiledEvents`), written on each change of the session once the save exists."""
    connections = table.session.connections
    events = FiledEvents(connections.events, connections.events.maxlen, save=lambda: table.path,
                         clock=table.session.clock)
    connections.events = events
    table.session.add_listener(lambda _change, _link: events.flush())
