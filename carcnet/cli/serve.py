"""Provides ``carcnet serve``: the game in a web browser, served with textual-serve.

Every browser tab that opens the page starts its own ``carcnet play`` process, whose screen is
streamed to the page over a websocket. The server listens on 127.0.0.1 unless ``--host`` says
otherwise (anyone who can reach the port plays as this computer's user, with its saved games: share
it on a network only on purpose). The page's every asset (script, style sheet, font) comes from this
machine: textual-serve's own static folder, and carcnet's copy of its page template that takes the
font from there instead of from Google Fonts.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any

from .common import EXIT_OK, EXIT_USAGE, fail

__all__ = ["TEMPLATES", "add_commands", "play_command"]

#: carcnet's page template for textual-serve (no asset from outside the machine).
TEMPLATES = Path(__file__).with_name("serve_templates")


def play_command(data_dir: str | None = None, bot_delay: float | None = None) -> str:
    """The shell command each browser session runs: this Python's ``carcnet play``."""
    parts = [sys.executable, "-m", "carcnet", "play"]
    if data_dir:
        parts += ["--data-dir", data_dir]
    if bot_delay is not None:
        parts += ["--bot-delay", str(bot_delay)]
    return shlex.join(parts)


def _serve(args: argparse.Namespace) -> int:
    try:
        from textual_serve.server import Server
    except ImportError:  # pragma: no cover - a dependency of the package
        return fail("carcnet serve needs textual-serve: pip install textual-serve", EXIT_USAGE)
    if not 1 <= args.port <= 65535:
        return fail(f"--port must be 1 to 65535, not {args.port}", EXIT_USAGE)
    server = Server(
        play_command(args.data_dir, args.bot_delay),
        host=args.host,
        port=args.port,
        title="carcnet",
        templates_path=TEMPLATES,
    )
    where = f"[{args.host}]" if ":" in args.host else args.host
    print(f"carcnet in a browser: http://{where}:{args.port} (Ctrl+C stops)", flush=True)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"listening on {args.host}: anyone who reaches this port plays with your saved games", flush=True)
    server.serve()
    return EXIT_OK


def add_commands(sub: Any) -> None:
    """Adds ``serve`` to ``carcnet``'s subparsers *sub*."""
    serve = sub.add_parser(
        "serve",
        help="play in a web browser (textual-serve), on this computer by default",
        description="Serves the game to a web browser: each page opened starts its own game interface. "
        "Listens on 127.0.0.1 unless --host says otherwise.",
    )
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this computer only; 0.0.0.0 shares it)")
    serve.add_argument("--port", type=int, default=8000, help="TCP port (default 8000)")
    serve.add_argument("--data-dir", help="folder of saved games (default: the user data folder)")
    serve.add_argument("--bot-delay", type=float, default=None, help="seconds a bot waits before moving")
    serve.set_defaults(run=_serve)
