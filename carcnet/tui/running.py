"""Provides :class:`TableRun`: a :class:`~carcnet.table.Table` running in the app's asyncio loop, with
one screen at a time following it (the lobby, then the game screen).

Nothing here uses threads: the table's listeners are called in the app's own loop, and the screens
redraw after a ``call_later``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from carcnet.club.ratings import UPDATED, count_when_over
from carcnet.i18n import _
from carcnet.table import Table

__all__ = ["CLOSE_WAIT", "TableRun", "count_ratings"]

log = logging.getLogger("carcnet.tui")

#: Seconds the app waits for a table to say bye and close its sockets and log when leaving or quitting.
CLOSE_WAIT = 5.0


def count_ratings(table: Table, data_dir: Path, notify: Callable[..., Any]) -> None:
    """Counts *table*'s network game into the ratings kept in *data_dir* once it is over, and says so
    with *notify* (an app's or a screen's): "Ratings updated", or why not as a warning."""

    def tell(said: str) -> None:
        updated = said == _(UPDATED)
        notify(said, title=_("Ratings"), severity="information" if updated else "warning")

    count_when_over(table, data_dir, tell)


class TableRun:
    """A table running in the app's loop: ``async with table`` in a task of its own until :meth:`stop`.
    One screen at a time follows it (:meth:`watch`).

    Attributes:
        table: The game.
        error: Why it could not run (e.g. the port is taken), once it ended that way.
        stopping: Whether :meth:`stop` was called.
    """

    def __init__(self, table: Table) -> None:
        self.table = table
        self.error: BaseException | None = None
        self.stopping = False
        self._view: Callable[[str], None] | None = None
        self._stop = asyncio.Event()
        self._ended = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        table.add_listener(self._tell)

    @property
    def running(self) -> bool:
        """Whether the table is inside ``async with`` now."""
        return self.table.running

    @property
    def ended(self) -> bool:
        """Whether it ran and stopped (or failed to start)."""
        return self._ended.is_set()

    def start(self) -> None:
        """Starts the table's task (in the running loop)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name=f"carcnet table {self.table.kind}")

    async def _run(self) -> None:
        try:
            async with self.table:
                await self._stop.wait()
        except Exception as exc:  # noqa: BLE001 - shown by the screens; nothing else goes down with it
            log.info("the table ended: %r", exc)
            error: BaseException = exc
            while isinstance(error, BaseExceptionGroup) and error.exceptions:
                error = error.exceptions[0]  # the task group's first error says what went wrong
            self.error = error
        finally:
            self._ended.set()
            self._tell("ended")

    def watch(self, view: Callable[[str], None] | None) -> None:
        """Calls *view(change)* on every change of the table (:data:`carcnet.table.Change`) instead of
        the previous view; ``None``: nobody."""
        self._view = view

    def _tell(self, change: str) -> None:
        view = self._view
        if view is None:
            return
        try:
            view(change)
        except Exception:  # a screen must not raise into the table's code
            log.exception("a screen failed to take the change %r", change)

    def stop(self, reason: str = "quit") -> None:
        """Leaves the game now (a network table says ``bye`` *reason*: ``quit``, the person left; in a
        game going on, gave up the seat; ``shutdown``, the program stops, the person may resume: wire.md
        §4.7); the task closes the sockets and the log."""
        self.stopping = True
        self._view = None
        if self.table.running:
            self.table.close(reason)
        self._stop.set()

    async def aclose(self, timeout: float = CLOSE_WAIT) -> None:
        """:meth:`stop` as the program stops (``bye`` shutdown: a player keeps the seat and may
        resume), then waits (at most *timeout* seconds) until everything is closed."""
        self.stop("shutdown")
        if self._task is None:
            return
        try:
            await asyncio.wait_for(asyncio.shield(self._task), timeout)
        except (TimeoutError, asyncio.CancelledError):
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
