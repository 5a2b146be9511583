"""Provides the terminal driver the command line runs the interface with: Textual's own, made to end
the app when the terminal goes away.

When a terminal closes, writes to it fail (``EIO``). Textual's output thread dies on the first
such failure, and the interface, which goes on queueing output for it, then blocks for ever once its
queue is full: the quit signal (SIGHUP) the closing terminal sent can no longer be handled, and the
process stays. :class:`GuardedDriver` drops what cannot be written instead, and sends this process
SIGHUP once, so the app quits as it does when the terminal closes (the game saved, its peers told).
"""

from __future__ import annotations

import os
import signal
import termios
import threading
from typing import IO, Any

from textual.drivers.linux_driver import LinuxDriver

__all__ = ["GuardedDriver", "GuardedOutput"]


class GuardedOutput:
    """A text stream over *stream* whose writes and flushes never raise ``OSError``: the first
    failure calls *gone* (once), and every later write is dropped."""

    def __init__(self, stream: IO[str], gone: Any) -> None:
        self._stream = stream
        self._gone = gone
        self._lock = threading.Lock()
        self.lost = False
        """Whether a write or flush failed: the terminal is gone."""

    def _lose(self) -> None:
        with self._lock:
            if self.lost:
                return
            self.lost = True
        self._gone()

    def write(self, text: str) -> int:
        """Writes *text*; returns its length, written or dropped."""
        if not self.lost:
            try:
                self._stream.write(text)
            except (OSError, ValueError):  # the terminal is gone (EIO, EPIPE) or the stream closed
                self._lose()
        return len(text)

    def flush(self) -> None:
        if not self.lost:
            try:
                self._stream.flush()
            except (OSError, ValueError):
                self._lose()

    def fileno(self) -> int:
        return self._stream.fileno()

    def isatty(self) -> bool:
        try:
            return self._stream.isatty()
        except (OSError, ValueError):
            return False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


#: Seconds between two looks at whether the terminal is still there.
WATCH_EVERY = 0.5


def _hang_up() -> None:
    """The terminal is gone: this process gets the signal a closing terminal sends (its handler
    quits the app cleanly; without one, the process ends)."""
    if hasattr(signal, "SIGHUP"):
        os.kill(os.getpid(), signal.SIGHUP)


class GuardedDriver(LinuxDriver):
    """Textual's terminal driver (POSIX) writing through a :class:`GuardedOutput`, and watching the
    terminal: when it is gone (a write fails, or its settings can no longer be read: a closed
    terminal reads as endless end-of-file, on which Textual's input thread spins), this process is
    sent SIGHUP, once."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._hung_up = threading.Event()
        self._stopped = threading.Event()
        if self._file is not None:
            self._file = GuardedOutput(self._file, self._gone)  # type: ignore[assignment]

    def _gone(self) -> None:
        if not self._hung_up.is_set():
            self._hung_up.set()
            _hang_up()

    def start_application_mode(self) -> None:
        super().start_application_mode()
        if os.isatty(self.fileno):
            threading.Thread(target=self._watch, name="carcnet-terminal", daemon=True).start()

    def stop_application_mode(self) -> None:
        self._stopped.set()
        super().stop_application_mode()

    def _watch(self) -> None:
        """Looks at the terminal every :data:`WATCH_EVERY` seconds until the driver stops or the
        terminal is gone."""
        while not self._stopped.wait(WATCH_EVERY) and not self._hung_up.is_set():
            try:
                termios.tcgetattr(self.fileno)
            except (termios.error, OSError):
                self._gone()
                return
