"""Provides the commands for one laptop: ``play`` (the default: the Textual game), ``tutorial``, ``demo``,
``simulate``, ``replay``, ``verify`` and ``games`` (registered by :func:`add_commands`).

Exit statuses: :mod:`carcnet.cli.common`.
"""

from __future__ import annotations

import argparse
import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from carcnet.bots import make_bot
from carcnet.engine import Game, GameSetup, Phase, SetupError
from carcnet.log import COLOURS
from carcnet.table.bundle import is_bundle

from .bundle import print_aside, print_verdict, verify_bundle
from .common import (
    EXIT_OK,
    EXIT_REFUSED,
    EXIT_USAGE,
    add_rule_options,
    rules_of,
    run_interface,
)
from .common import fail as _fail
from .report import final_lines, result_dict, transcript

__all__ = ["add_commands"]


# ---------------------------------------------------------------------------------------- demo


def _demo(args: argparse.Namespace) -> int:
    try:
        game = Game(GameSetup(players=args.players, seed=args.seed, rules=rules_of(args)))
        bots = [make_bot(args.bot, args.seed * 31 + seat) for seat in range(args.players)]
    except (SetupError, ValueError) as exc:
        return _fail(str(exc))
    names = [c.capitalize() for c in COLOURS[: args.players]]
    recorder = None
    if args.save is not None:
        from carcnet.log import GameRecorder, LogHeader, Seat

        seats = [Seat(names[s], COLOURS[s], "bot", args.bot) for s in range(args.players)]
        header = LogHeader.new(seats, seed=args.seed, options=rules_of(args))
        try:
            recorder = GameRecorder.create(header, Path(args.save) if args.save else None)
        except OSError as exc:
            return _fail(f"cannot save the game: {exc}")
        game = recorder.game
    print(
        f"carcnet demo: {args.players} {args.bot} bots, seed {args.seed}, {game.setup.rules.text()}, "
        f"{game.tiles_left + 1} tiles to draw"
    )
    while game.phase is not Phase.GAME_OVER:
        move = bots[game.seat].choose(game.view())
        if recorder is not None:
            recorder.submit(move)
        else:
            game.apply(move)
    for line in transcript(game.setup, game.moves, names):
        print(line)
    print()
    print("Final scores:")
    for line in final_lines(game, names):
        print(line)
    print(f"digest {game.digest.hex()}")
    if recorder is not None:
        recorder.close()
        print(f"saved to {recorder.path}")
    return EXIT_OK


# ------------------------------------------------------------------------------------ simulate


def _simulate(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from .simulate import check_simulation, simulate

    bots = [b.strip() for b in args.bots.split(",")] if args.bots else ["greedy"]
    if len(bots) == 1:  # one name plays every seat
        bots = bots * (args.players or 2)
    if args.players is not None and len(bots) != args.players:
        return _fail(f"--players {args.players} but --bots names {len(bots)} bots")
    try:
        check_simulation(bots, args.games, args.first)  # before the progress bar, which leaves a line
    except ValueError as exc:
        return _fail(str(exc))
    err = Console(stderr=True)
    try:
        with Progress(
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=err,
            transient=True,
        ) as progress:
            task = progress.add_task("playing", total=args.games)
            result = simulate(
                bots, args.games, args.seed, jobs=args.jobs, on_game=lambda _: progress.advance(task),
                rules=rules_of(args), first=args.first,
            )
    except ValueError as exc:
        return _fail(str(exc))
    print(
        f"{result.games} games, {len(bots)} players, seed {args.seed}, {rules_of(args).text()}, "
        "seats rotated every game"
    )
    print(f"{'':3} {'bot':<10} {'wins':>6} {'win %':>7} {'95% interval':>14} {'shared':>7} {'mean':>7} {'stdev':>7} "
          f"{'min':>5} {'max':>5}")
    for i, name in enumerate(bots):
        scores = result.scores(i)
        low, high = result.interval(i)
        print(
            f"{i + 1:<3} {name:<10} {result.wins(i):>6} {100 * result.wins(i) / result.games:>6.1f}% "
            f"{f'{100 * low:.1f}-{100 * high:.1f}%':>14} "
            f"{result.shared(i):>7} {result.mean(i):>7.1f} {result.stdev(i):>7.1f} {min(scores):>5} {max(scores):>5}"
        )
    print(f"{speed_text(result.games, result.seconds)} ({args.jobs or 'all'} job(s))")
    return EXIT_OK


def speed_text(games: int, seconds: float) -> str:
    """How fast a table ran, for people: games a second, or seconds a game when that is under one.

    *seconds* is the table's wall time. ``speed_text(200, 46.75)`` is ``"4.3 games/s (46.75 s)"``;
    ``speed_text(200, 4653.4)`` is ``"23.3 s a game (4653.40 s, 77.6 min)"``.
    """
    rate = games / seconds if seconds > 0 else 0.0
    head = f"{rate:.1f} games/s" if rate >= 1 or games == 0 else f"{seconds / games:.1f} s a game"
    wall = f"{seconds:.2f} s" + (f", {seconds / 60:.1f} min" if seconds >= 120 else "")
    return f"{head} ({wall})"


# --------------------------------------------------------------------------- replay / verify / games


def _load(path: str):  # -> LoadedLog | int
    from carcnet.log import LogError, load

    try:
        return load(Path(path))
    except LogError as exc:  # the message names the file
        return _fail(str(exc), EXIT_USAGE if exc.reason == "unreadable" else EXIT_REFUSED)


def _names(header) -> list[str]:
    return [seat.name for seat in header.seats]


def _replay(args: argparse.Namespace) -> int:
    loaded = _load(args.file)
    if isinstance(loaded, int):
        return loaded
    header, game = loaded.header, loaded.game
    names = _names(header)
    if args.json:
        out = result_dict(game, names)
        out["game"] = header.game
        out["damage"] = None if loaded.damage is None else loaded.damage.message
        print(json.dumps(out, indent=2))
        return EXIT_OK
    created = datetime.fromtimestamp(header.created, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    seats = ", ".join(
        f"{s.name} ({s.bot + ' bot' if s.player == 'bot' else 'human'}, {s.colour})" for s in header.seats
    )
    print(f"game {header.game}, created {created}")
    print(f"seats: {seats}")
    if loaded.damage is not None:
        print(f"warning: {loaded.damage.message}")
    for line in transcript(game.setup, game.moves, names):
        print(line)
    print()
    if game.phase is Phase.GAME_OVER:
        print("Final scores:")
        for line in final_lines(game, names):
            print(line)
    else:
        print(f"Unfinished: {game.tiles_left + 1} tiles still to play. Scores so far:")
        for line in final_lines(game, names):
            print(line)
    print(f"digest {game.digest.hex()}")
    return EXIT_OK


def _verify(args: argparse.Namespace) -> int:
    if is_bundle(args.file):  # a bug report (carcnet report): the save inside, replayed
        return verify_bundle(args.file)
    loaded = _load(args.file)
    if isinstance(loaded, int):
        return loaded
    status = print_verdict(loaded)
    print_aside(Path(args.file), loaded)  # the side file beside it: set aside, not part of the game
    return status


def _games(args: argparse.Namespace) -> int:
    """Lists the saves of a folder from their headers (``log.summarize``): no move is replayed, so the
    list comes at once whatever the files hold; ``carcnet verify`` and ``replay`` check a game whole."""
    from carcnet.log import LogError, default_dir, summarize

    folder = Path(args.dir) if args.dir else default_dir()
    files = sorted(folder.glob("*.carclog")) if folder.is_dir() else []
    if not files:
        print(f"no saved games in {folder}")
        return EXIT_OK
    print(f"saved games in {folder}:")
    for path in files:
        try:
            summary = summarize(path)
        except (LogError, OSError) as exc:
            print(f"  {path.name}: unreadable: {exc}")
            continue
        header = summary.header
        when = datetime.fromtimestamp(header.created, timezone.utc).strftime("%Y-%m-%d %H:%M")
        # turns as the screens count them, and whether the game is over or at which turn it stands
        if summary.finished:
            state = f"finished, {summary.turns} turn{'s' if summary.turns != 1 else ''}"
        else:
            now = summary.turns + (not summary.deploying)  # the turn in play, as the Resume list says
            state = f"turn {now} of {summary.tiles}" if summary.tiles else f"turn {now}"
        players = ", ".join(s.name for s in header.seats)
        note = " (damaged)" if summary.damaged else ""
        print(f"  {when}  {state:<19} {players}  {path.name}{note}")
    return EXIT_OK


# ---------------------------------------------------------------------------------------- play


def _play(args: argparse.Namespace) -> int:
    from carcnet.tui.app import CarcnetApp

    app = CarcnetApp(data_dir=Path(args.data_dir) if args.data_dir else None, bot_delay=args.bot_delay)
    return run_interface(app, args.data_dir)


def _tutorial(args: argparse.Namespace) -> int:
    from carcnet.tui.app import CarcnetApp

    app = CarcnetApp(data_dir=Path(args.data_dir) if args.data_dir else None, bot_delay=args.bot_delay,
                     start="tutorial")
    return run_interface(app, args.data_dir)


# ---------------------------------------------------------------------------------------- parser


def add_commands(sub: Any) -> None:
    """Adds ``play``, ``tutorial``, ``demo``, ``simulate``, ``replay``, ``verify`` and ``games`` to ``carcnet``'s
    subparsers *sub*."""
    play = sub.add_parser("play", help="the game in the terminal (the default)")
    play.add_argument("--bot-delay", type=float, default=0.6, help="seconds a bot waits before moving (default 0.6)")
    play.add_argument("--data-dir", help="folder of saved games (default: the user data folder)")
    play.set_defaults(run=_play)

    tut = sub.add_parser(
        "tutorial", help="learn to play: a first game that teaches a lesson at a time",
        description="Opens the lessons: a first game against a gentle bot on a fixed deck, a lesson at a time "
        "(placing, turning, meeples, roads, cloisters, cities, farms, the final scoring), kept when you leave; "
        "and a short lesson for each expansion.",
    )
    tut.add_argument("--bot-delay", type=float, default=0.6, help="seconds the bot waits before moving (default 0.6)")
    tut.add_argument("--data-dir", help="folder of saved games (default: the user data folder)")
    tut.set_defaults(run=_tutorial)

    demo = sub.add_parser("demo", help="watch a headless game between bots")
    demo.add_argument("--players", type=int, default=2, help="2 to 6 (default 2)")
    demo.add_argument("--seed", type=int, default=1, help="deck and bot seed (default 1)")
    demo.add_argument("--bot", default="random", help="bot for every seat: random, greedy, easy, medium, hard or expert (default random)")
    demo.add_argument(
        "--save", nargs="?", const="", metavar="FILE",
        help="record the game as a .carclog (default: in the user data folder)",
    )
    add_rule_options(demo)
    demo.set_defaults(run=_demo)

    sim = sub.add_parser(
        "simulate",
        help="play many headless bot games and compare the bots",
        description="Plays bot games with seats rotated every game; prints wins, mean and spread of "
        "scores per bot, and games per second.",
    )
    sim.add_argument("--players", type=int, help="number of seats (default: the number of --bots, or 2)")
    sim.add_argument("--bots", help="comma-separated bot per seat, e.g. hard,greedy: random, greedy, or the search bot's "
                     "levels easy, medium, hard, expert (default: greedy for all)")
    sim.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    sim.add_argument("--seed", type=int, default=1, help="run seed: the same seed plays the same games (default 1)")
    sim.add_argument("--first", type=int, default=0, metavar="N",
                     help="play the run's games from game N on (default 0): runs split in parts play the games of one run")
    sim.add_argument("--jobs", type=int, default=1, help="worker processes; 0 = one per core (default 1)")
    add_rule_options(sim)
    sim.set_defaults(run=_simulate)

    rep = sub.add_parser("replay", help="show a saved game move by move, then the final scores")
    rep.add_argument("file", help="a .carclog file")
    rep.add_argument("--json", action="store_true", help="print the final scores, breakdown and digest as JSON")
    rep.set_defaults(run=_replay)

    ver = sub.add_parser(
        "verify",
        help="replay a saved game and check every entry",
        description="Replays the log and checks its chain and digests. Prints 'ok' with the move count "
        "and digest, or names the first bad entry and why. Exit status 0 ok, 1 refused, 3 damaged tail.",
    )
    ver.add_argument("file", help="a .carclog file, or a bug report .zip (carcnet report): the save inside")
    ver.set_defaults(run=_verify)

    games = sub.add_parser("games", help="list saved games, finished or not")
    games.add_argument("--dir", help="folder to list (default: the user data folder)")
    games.set_defaults(run=_games)
