"""Provides what every ``carcnet`` command shares: exit statuses, error and progress lines, the rule
options (``--river``, ``--river-start``, ``--abbot``), and the log file the interface writes to.

Exit status (every command): :data:`EXIT_OK` 0 success or a game left normally; :data:`EXIT_REFUSED` 1
the game, log or table refused us; :data:`EXIT_USAGE` 2 usage error or unreadable input;
:data:`EXIT_DAMAGED` 3 (``verify``) the log is valid up to a damaged last record; 128 + the signal's
number when a signal stopped the command (130 Ctrl+C, 129 SIGHUP, 143 SIGTERM), after a clean quit:
the game saved, ``bye`` (``quit``) said to every peer, one line on stderr.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
from pathlib import Path
from typing import Any

from carcnet.engine import Rules
from carcnet.i18n import _, ngettext, pgettext
from carcnet.table.signals import QUIT_SIGNALS, on_quit_signals

__all__ = [
    "EXIT_DAMAGED",
    "EXIT_OK",
    "EXIT_REFUSED",
    "EXIT_USAGE",
    "QUIT_SIGNALS",
    "add_rule_options",
    "fail",
    "log_to_file",
    "number",
    "on_quit_signals",
    "rules_of",
    "run_interface",
    "say",
    "shown",
    "stopped_by",
]

EXIT_OK, EXIT_REFUSED, EXIT_USAGE, EXIT_DAMAGED = 0, 1, 2, 3


def fail(message: str, status: int = EXIT_USAGE) -> int:
    """Prints ``carcnet: message`` on stderr and returns *status* (for ``return fail(...)``); a
    terminal that is gone (the command was stopped by its closing) takes nothing, silently. The
    caller words *message* in the player's language (``_``); ``carcnet:`` is the program's name."""
    try:
        print(f"carcnet: {message}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass
    return status


def shown(text: str, limit: int = 40) -> str:
    """*text* quoted for an error line, cut to *limit* characters (then ``…`` and its length), so
    that a line names what was typed without echoing pages of it."""
    if len(text) <= limit:
        return repr(text)
    # Translators: what was typed, quoted and cut ({start}), then its whole length ({count}).
    return ngettext("{start}… ({count} character)", "{start}… ({count} characters)", len(text)).format(
        start=repr(text[:limit]), count=len(text))


def number(value: float) -> str:
    """*value* as ``:g`` writes it (``10``, ``2.5``: seconds in a line), with the language's decimal
    mark."""
    return f"{value:g}".replace(".", pgettext("decimal mark", "."))


def say(text: str) -> None:
    """Prints a line of progress on stdout at once (headless peers are read line by line)."""
    print(text, flush=True)


def stopped_by(signum: int, what: str) -> int:
    """Prints that signal *signum* stopped the command after *what* (e.g. "left the game, saved to
    …"), and returns the exit status 128 + *signum*."""
    name = signal.Signals(signum).name
    # Translators: {signal} is the signal's name (SIGTERM, SIGHUP), {what} what was done before stopping
    # ("left the game, saved to …").
    return fail(_("stopped by {signal}: {what}").format(signal=name, what=what), 128 + signum)


def add_rule_options(parser: argparse.ArgumentParser) -> None:
    """Adds the rule options (read back with :func:`rules_of`): ``--river``, ``--river-start``,
    ``--abbot``, ``--inns``, ``--traders``, ``--hills-sheep``, ``--princess-dragon``, ``--small-city``,
    ``--farms`` and its short form ``--no-farmers``."""
    from carcnet.engine import FARM_RULES, RIVER_STARTS

    # Translators: the heading of the rule options in a command's help (--river, --abbot...).
    group = parser.add_argument_group(pgettext("command line heading", "rules"),
                                      _("the expansions and the editions' variants (docs/rules.md)"))
    group.add_argument("--river", action="store_true", help=_("play with The River"))
    group.add_argument(
        "--river-start", choices=RIVER_STARTS, default="after",
        # Translators: after, river and omit are the values typed (not translated); HiG and Z-Man are
        # publishers.
        help=_("with The River, the base game's start tile: placed right after the river (after, HiG, "
               "default), shuffled into the river tiles (river, HiG) or left out (omit, Z-Man)"),
    )
    group.add_argument("--abbot", action="store_true", help=_("play with The Abbot (gardens and one abbot each)"))
    group.add_argument(
        "--inns", action="store_true",
        help=_("play with Inns & Cathedrals (18 tiles: inns, cathedrals; one large meeple each)"),
    )
    group.add_argument(
        "--traders", action="store_true",
        help=_("play with Traders & Builders (24 tiles: goods, 10 points per kind to the most; a builder and "
               "a pig each)"),
    )
    group.add_argument(
        "--hills-sheep", action="store_true",
        help=_("play with Hills & Sheep (18 tiles: hills that break ties, vineyards worth 3 more to a cloister; "
               "a shepherd each, whose flock of sheep you grow or score)"),
    )
    group.add_argument(
        "--princess-dragon", action="store_true",
        help=_("play with The Princess & the Dragon (30 tiles: volcanoes, the dragon that eats the figures on "
               "its way, princesses that send a knight home, magic portals; the fairy)"),
    )
    group.add_argument(
        "--small-city", action="store_true",
        # Translators: RGG is a publisher.
        help=_("a completed city of two tiles scores 2, its pennants 1 each (RGG edition)"),
    )
    group.add_argument(
        "--farms", choices=FARM_RULES, default="farm",
        # Translators: farm, city and off are the values typed (not translated); HiG is a publisher.
        help=_("farm scoring: per farm, 3 a city (farm, HiG, default), per city, 4 to the most farmers "
               "around it (city, first edition), or no farmers (off)"),
    )
    group.add_argument(
        "--no-farmers", dest="farms", action="store_const", const="off", help=_("the same as --farms off")
    )


def rules_of(args: argparse.Namespace) -> Rules:
    """The rule options given by :func:`add_rule_options`' flags."""
    return Rules(
        river=args.river, abbot=args.abbot, river_start=args.river_start, small_city=args.small_city, farms=args.farms,
        inns=args.inns, traders=args.traders, hills_sheep=args.hills_sheep,
        princess_dragon=args.princess_dragon,
    )


class _LazyFileHandler(logging.FileHandler):
    """A log file made, with its folder, at the first record only (none for a session that logs
    nothing); one that cannot be made drops the records (they are never written over the screen)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, encoding="utf-8", delay=True)

    def _open(self) -> Any:
        try:
            Path(self.baseFilename).parent.mkdir(parents=True, exist_ok=True)
            return super()._open()
        except OSError:
            return None


def log_to_file(data_dir: str | None) -> Path:
    """Sends ``carcnet`` log records (the network's refusals, connections, stops) to ``carcnet.log`` in
    the saved-games folder while the interface owns the terminal, and returns that path. The file
    (and the folder) is made at the first record; none is made if it cannot be (the records are then
    dropped rather than written over the screen)."""
    from carcnet.log import default_dir

    path = (Path(data_dir) if data_dir else default_dir()) / "carcnet.log"
    logger = logging.getLogger("carcnet")
    logger.propagate = False
    handler = _LazyFileHandler(path)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    return path


def run_interface(app: Any, data_dir: str | None) -> int:
    """Runs the Textual *app* (a ``CarcnetApp``) in this terminal, its log records going to
    :func:`log_to_file`; returns the exit status: 0, or 128 + the signal that made it quit (SIGTERM,
    or SIGHUP: the terminal closed). Where Textual drives a POSIX terminal, it does so with
    ``carcnet.tui.terminal.GuardedDriver``, so that a terminal that goes away ends the app."""
    try:
        from textual.drivers.linux_driver import LinuxDriver

        from carcnet.tui.terminal import GuardedDriver
    except ImportError:  # no POSIX terminal here (Windows): Textual's own driver
        pass
    else:
        if app.driver_class is LinuxDriver:
            app.driver_class = GuardedDriver
    log_to_file(data_dir)
    app.run()
    status = EXIT_OK
    if app.stopped_by is not None:
        status = stopped_by(app.stopped_by, _("left the interface; every game is saved"))
    _drop_dead_streams()
    return status


def _drop_dead_streams() -> None:
    """Points ``sys.stdout`` and ``sys.stderr`` at the null device where the terminal behind them is
    gone (their flush fails): Python would otherwise fail flushing them at exit and end with status
    120 instead of the command's."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115 - open until exit
