"""Provides the ``carcnet`` command line: the composition root, the one package that may import every
layer (``docs/architecture.md``).

Modules: :mod:`.common` (exit statuses, error lines, rule options), :mod:`.local` (``play``, ``demo``,
``simulate``, ``replay``, ``verify``, ``games``), :mod:`.network` (``lan``, ``host``, ``join``,
``spectate``, ``bot``, ``resume``), :mod:`.club` (``review``, ``ratings``, ``continue``), :mod:`.tournament` (``tournament``), :mod:`.serve` (``serve``: the game in a browser), :mod:`.simulate` (many bot games), :mod:`.report`
(transcripts and score tables) and :mod:`.bundle` (``report``: a bug report; what ``verify`` prints). Each command has ``--help``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from carcnet import __version__

from . import bundle, club, local, network, serve, tournament
from .common import EXIT_OK, fail

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The parser of every ``carcnet`` command."""
    parser = argparse.ArgumentParser(
        prog="carcnet",
        description="Carcassonne for the terminal. Without a command: the game (carcnet play).",
        epilog="Exit status: 0 ok, 1 refused, 2 usage or unreadable input, 3 damaged log tail (verify).",
    )
    parser.add_argument("--version", action="version", version=f"carcnet {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    local.add_commands(sub)
    network.add_commands(sub)
    serve.add_commands(sub)
    bundle.add_commands(sub)
    club.add_commands(sub)
    tournament.add_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``carcnet`` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["play"])
    network.fill_defaults(args)
    try:
        return int(args.run(args))
    except BrokenPipeError:  # output piped into `head` and the like
        import sys

        sys.stderr.close()
        return EXIT_OK
    except KeyboardInterrupt:
        return fail("interrupted", 130)
