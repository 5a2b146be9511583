"""Provides ``carcnet tournament``: a Swiss or round-robin event across the room's laptops, headless
(protocol/tournament.md, docs/club.md). ``open`` opens one here, ``join`` enters this laptop's bots
in one another laptop opened, ``resume`` goes on with one after a restart. Each laptop computes the
rounds and the standings itself from the signed charter and the logs it checked."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import signal
import sys
from pathlib import Path
from typing import Any

from carcnet.i18n import _, ngettext, pgettext

from .common import EXIT_OK, EXIT_REFUSED, EXIT_USAGE, add_rule_options, fail, rules_of, say

__all__ = ["add_commands"]


def add_commands(sub: Any) -> None:
    """Adds ``tournament`` (``open``, ``join``, ``resume``) to ``carcnet``'s subparsers *sub*."""
    top = sub.add_parser(
        "tournament", help=_("a Swiss or round-robin event of several tables at once across the room's laptops"),
        description=_("An event of several rounds, each round several tables at once on the room's laptops, "
                      "with no server: every laptop computes the tables and the standings (wins, then score "
                      "difference, then Buchholz Cut 1, then lots) from the opener's signed charter and the "
                      "games' signed logs, which it checks itself; a log that does not check is reported and "
                      "not counted (docs/club.md)."),
    )
    verbs = top.add_subparsers(dest="verb", required=True, metavar="open|join|resume")

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--bots", default="", help=_("bots this laptop enters, comma-separated levels "
                                                    "(random, greedy, easy, medium, hard, expert)"))
        p.add_argument("--name", default="", help=_("this laptop's name at the tables it opens (default: your user name)"))
        p.add_argument("--port", type=int, default=0, help=_("the event service's TCP port (default: any free one)"))
        p.add_argument("--listen", default="0.0.0.0", help=_("the address to listen on (default: every interface)"))
        p.add_argument("--data-dir", help=_("the folder of identity.key, events/ and ratings.json "
                                            "(default: the user data folder)"))
        p.add_argument("--bot-delay", type=float, default=0.0, help=_("seconds the bots wait before each turn"))
        p.add_argument("--no-mdns", action="store_true", help=_("neither advertise the event nor look for it by mDNS"))
        p.add_argument("--interface", action="append", metavar="ADDRESS",
                       help=_("an IP address of this machine for mDNS (repeatable; default: every interface)"))
        p.add_argument("--json", action="store_true", help=_("print the final standings as JSON on stdout "
                                                             "(the lines of progress go to stderr)"))

    op = verbs.add_parser("open", help=_("open an event here and wait for the players"),
                          description=_("Opens an event at this laptop: enters its --bots, takes the "
                                        "enrolments of other laptops (carcnet tournament join HOST:PORT), "
                                        "then starts with --start-when players or after --start-after "
                                        "seconds."))
    # Translators: the placeholder of the event's name in the command line's usage (carcnet tournament open event).
    op.add_argument("event", metavar=pgettext("command line placeholder", "event"), help=_("the event's name (1 to 40 characters)"))
    op.add_argument("--format", choices=("swiss", "round-robin"), default="swiss")
    op.add_argument("--rounds", type=int, default=3, help=_("rounds (default 3)"))
    op.add_argument("--size", type=int, default=4, help=_("seats a table, 2 to 6 (default 4)"))
    op.add_argument("--minimum", type=int, default=2, help=_("the fewest seats a table may have (default 2)"))
    op.add_argument("--start-when", type=int, help=_("start as soon as this many players are entered"))
    op.add_argument("--start-after", type=float, help=_("start this many seconds after opening (two players or more)"))
    add_rule_options(op)
    common(op)
    op.set_defaults(run=_open)

    jn = verbs.add_parser("join", help=_("enter this laptop's bots in an event another laptop opened"),
                          description=_("Asks the opener at HOST:PORT for the event, enters --bots, then "
                                        "plays this laptop's part: opening the tables it comes first for, "
                                        "checking every table's log, computing the rounds and the "
                                        "standings."))
    jn.add_argument("address", metavar="HOST:PORT", nargs="?",
                    help=_("the opener's event service (it prints it); without it, the first event found by mDNS"))
    common(jn)
    jn.set_defaults(run=_join)

    rs = verbs.add_parser("resume", help=_("go on with an event after this laptop stopped"),
                          description=_("Goes on with the event in FOLDER (its charter and the results "
                                        "counted there), asking the laptops at --dial (and those they know) "
                                        "for the rest."))
    rs.add_argument("folder", metavar=pgettext("command line placeholder", "folder"), help=_("the event's folder (events/<id> in the data folder)"))
    rs.add_argument("--dial", action="append", default=[], metavar="HOST:PORT", help=_("another laptop of the event"))
    common(rs)
    rs.set_defaults(run=_resume)


def _base(args: argparse.Namespace) -> Path:
    from carcnet.log import default_dir

    return Path(args.data_dir) if args.data_dir else default_dir().parent


def _laptop_name(args: argparse.Namespace) -> str:
    if args.name:
        return str(args.name)[:32]
    try:
        return getpass.getuser()[:32] or "carcnet"
    except (KeyError, OSError, ImportError):
        return "carcnet"


def _players(args: argparse.Namespace) -> list[tuple[str, str | None]]:
    from carcnet.bots import make_bot

    levels = [b.strip() for b in args.bots.split(",") if b.strip()]
    for level in levels:
        make_bot(level, 0)  # ValueError: an unknown level
    me = _laptop_name(args)
    return [(f"{level.title()} {i} ({me})"[:32], level) for i, level in enumerate(levels, 1)]


def _address(text: str) -> tuple[str, int]:
    from carcnet.net.adverts import parse_host_port

    hp = parse_host_port(text)
    return hp.host, hp.port


def _open(args: argparse.Namespace) -> int:
    from carcnet.club.event import EventError
    from carcnet.club.identity import load_identity
    from carcnet.club.runner import EventRunner

    try:
        players = _players(args)
        identity = load_identity(_base(args))
        runner = EventRunner.open(identity, event_name=args.event, format=args.format, rounds=args.rounds,
                                  size=args.size, minimum=args.minimum, options=rules_of(args),
                                  data_dir=_base(args) / "events", **_options(args, players))
    except (ValueError, OSError) as exc:
        return fail(str(exc))
    if args.start_when is None and args.start_after is None:
        return fail(_("say when to start: --start-when PLAYERS or --start-after SECONDS"))
    return _run(runner, args, start_when=args.start_when, start_after=args.start_after, error=EventError)


def _join(args: argparse.Namespace) -> int:
    from carcnet.club.event import EventError
    from carcnet.club.identity import load_identity
    from carcnet.club.runner import EventRunner

    try:
        dial = [_address(args.address)] if args.address else []
        if not dial and args.no_mdns:
            return fail(_("without mDNS (--no-mdns) give the opener's address: carcnet tournament join HOST:PORT"))
        players = _players(args)
        identity = load_identity(_base(args))
    except (ValueError, OSError) as exc:
        return fail(str(exc))
    runner = EventRunner(identity, folder=_base(args) / "events", by_event=True, dial=dial, **_options(args, players))
    return _run(runner, args, error=EventError)


def _resume(args: argparse.Namespace) -> int:
    from carcnet.club.event import EventError
    from carcnet.club.identity import load_identity
    from carcnet.club.runner import EventRunner

    try:
        dial = [_address(a) for a in args.dial]
        identity = load_identity(_base(args))
        runner = EventRunner.resume(identity, Path(args.folder), dial=dial, **_options(args, []))
    except (ValueError, OSError) as exc:
        return fail(str(exc))
    return _run(runner, args, error=EventError)


def _options(args: argparse.Namespace, players: list[tuple[str, str | None]]) -> dict[str, Any]:
    return {"name": _laptop_name(args), "players": players, "listen": (args.listen, args.port),
            "table_host": args.listen, "bot_delay": args.bot_delay, "note": _progress if args.json else say,
            "discovery": not args.no_mdns, "interfaces": args.interface}


def _progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _run(runner: Any, args: argparse.Namespace, *, error: type[Exception], start_when: int | None = None,
         start_after: float | None = None) -> int:
    from carcnet.club.ratings import ALREADY, RATINGS_FILE, Ratings
    from carcnet.log import LogError, default_dir
    from carcnet.table import LanError

    async def main() -> Any:
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, task.cancel)
        return await runner.run(start_when=start_when, start_after=start_after)

    note = _progress if args.json else say
    try:
        final = asyncio.run(main())
    except error as exc:
        return fail(str(exc), EXIT_REFUSED)
    except OSError as exc:  # the service's port taken, a folder that cannot be written
        # Translators: {reason} says why (the system's error, or a table's).
        return fail(_("the event stopped: {reason}").format(reason=exc.strerror or exc), EXIT_REFUSED)
    except (LanError, LogError) as exc:  # a table that could not be opened or saved
        # Translators: {reason} says why (the system's error, or a table's).
        return fail(_("the event stopped: {reason}").format(reason=exc), EXIT_REFUSED)
    except (asyncio.CancelledError, KeyboardInterrupt):
        if runner.charter is None:
            return fail(_("stopped"), EXIT_USAGE)
        # Translators: {folder} is the event's folder.
        return fail(_("stopped; go on with: carcnet tournament resume {folder}").format(folder=runner.folder),
                    EXIT_USAGE)
    note(_("Event folder: {folder}").format(folder=runner.folder))
    path = (Path(args.data_dir) if args.data_dir else default_dir()) / RATINGS_FILE
    try:
        ratings = Ratings.read(path)
        rated = runner.rate(ratings)
        ratings.write(path)
        counted = sum(why is None for _t, why in rated)
        # Translators: {counted} of the event's {count} games were counted into the ratings, kept in the
        # file {path}.
        note(ngettext("Ratings: {counted} of {count} game counted ({path})",
                      "Ratings: {counted} of {count} games counted ({path})", len(rated)).format(
            counted=counted, count=len(rated), path=path))
        for table, why in rated:
            if why is not None and why != _(ALREADY):  # counted before: nothing to say
                note(f"  {table}: {why}")
    except (OSError, ValueError) as exc:
        # Translators: {reason} is the system's error, or what is wrong with the ratings' file.
        note(_("Ratings not updated: {reason}").format(reason=exc))
    if args.json:
        from carcnet.club.runner import standings_json

        print(standings_json(runner.charter, final), end="", flush=True)
    return EXIT_OK
