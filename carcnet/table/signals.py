"""Provides the quit signals every command and the interface answer alike: SIGTERM and SIGHUP mean
"leave cleanly" (``bye`` with reason ``quit`` to every peer, the save closed), as Ctrl+C does."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable

__all__ = ["QUIT_SIGNALS", "on_quit_signals"]

#: The signals that mean "quit cleanly" to every command (SIGINT is Python's KeyboardInterrupt).
QUIT_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


def on_quit_signals(loop: asyncio.AbstractEventLoop, quit: Callable[[int], None]) -> Callable[[], None]:
    """Calls *quit(signum)* in *loop* when SIGTERM or SIGHUP arrives; returns the undo. Where the
    loop cannot take signals (not the main thread, or a platform without them) nothing is installed."""
    installed = []
    for sig in QUIT_SIGNALS:
        try:
            loop.add_signal_handler(sig, quit, int(sig))
        except (NotImplementedError, RuntimeError, ValueError):
            continue
        installed.append(sig)

    def undo() -> None:
        for sig in installed:
            loop.remove_signal_handler(sig)

    return undo
