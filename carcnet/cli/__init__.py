"""Provides the ``carcnet`` command line: the composition root, the one package that may import every
layer (``docs/architecture.md``).

Modules: :mod:`.common` (exit statuses, error lines, rule options), :mod:`.local` (``play``, ``demo``,
``simulate``, ``replay``, ``verify``, ``games``), :mod:`.network` (``lan``, ``host``, ``join``,
``spectate``, ``bot``, ``resume``), :mod:`.club` (``review``, ``ratings``, ``continue``), :mod:`.tournament` (``tournament``), :mod:`.serve` (``serve``: the game in a browser), :mod:`.simulate` (many bot games), :mod:`.report`
(transcripts and score tables), :mod:`.bundle` (``report``: a bug report; what ``verify`` prints) and
:mod:`.parsing` (argparse's own words in the player's language). Each command has ``--help``.

The command line speaks the player's language (:mod:`carcnet.i18n`): the settings' Language, else the
environment's (``LANGUAGE``, ``LC_ALL``, ``LANG``), chosen before the parsers are built, since their
help is worded as they are built.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from carcnet import __version__
from carcnet.i18n import _, set_language

from . import bundle, club, local, network, serve, tournament
from .common import EXIT_OK, fail
from .parsing import speak_argparse

__all__ = ["build_parser", "choose_language", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The parser of every ``carcnet`` command, worded in the language in use (:func:`choose_language`)."""
    speak_argparse()
    parser = argparse.ArgumentParser(
        prog="carcnet",
        description=_("Carcassonne for the terminal. Without a command: the game (carcnet play)."),
        epilog=_("Exit status: 0 ok, 1 refused, 2 usage or unreadable input, 3 damaged log tail (verify)."),
    )
    parser.add_argument("--version", action="version", version=f"carcnet {__version__}",
                        help=_("show program's version number and exit"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    local.add_commands(sub)
    network.add_commands(sub)
    serve.add_commands(sub)
    bundle.add_commands(sub)
    club.add_commands(sub)
    tournament.add_commands(sub)
    return parser


def choose_language() -> str:
    """Sets the command line's language, before anything is worded: the environment's
    (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), unless the player's settings choose
    another than ``auto``; returns its code."""
    from carcnet.tui.settings import Settings

    code = set_language("auto")
    chosen = Settings.load().language  # never raises: a bad file gives the defaults ("auto")
    if chosen != "auto":
        code = set_language(chosen)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``carcnet`` console script; returns the exit status."""
    choose_language()
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
        return fail(_("interrupted"), 130)
