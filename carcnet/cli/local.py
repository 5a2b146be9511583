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
from carcnet.i18n import _, date_time, decimal, joined, ngettext, npgettext, pgettext
from carcnet.log import COLOURS
from carcnet.table.bundle import is_bundle
from carcnet.tui.words import rules_words

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

__all__ = ["add_commands", "colour_word", "speed_text"]


def colour_word(colour: str) -> str:
    """A seat colour (a key of ``carcnet.log.COLOURS``, ``red``) in the player's language, in
    lowercase as the command line writes it; another colour as it is."""
    words = {
        "red": pgettext("seat colour", "red"),
        "blue": pgettext("seat colour", "blue"),
        "yellow": pgettext("seat colour", "yellow"),
        "green": pgettext("seat colour", "green"),
        "black": pgettext("seat colour", "black"),
        "grey": pgettext("seat colour", "grey"),
    }
    return words.get(colour, colour)



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
            # Translators: {reason} is the system's error (a folder that cannot be written).
            return _fail(_("cannot save the game: {reason}").format(reason=exc))
        game = recorder.game
    tiles = game.tiles_left + 1
    # Translators: the bots of carcnet demo: {count} of them, {bot} their kind (random, greedy, easy…,
    # as typed).
    bots_text = ngettext("{count} {bot} bot", "{count} {bot} bots", args.players).format(
        count=args.players, bot=args.bot)
    # Translators: carcnet demo's first line: {bots} is "2 random bots", {seed} a number, {rules} the
    # rules in words, {tiles} "72 tiles to draw".
    print(_("carcnet demo: {bots}, seed {seed}, {rules}, {tiles}").format(
        bots=bots_text, seed=args.seed, rules=rules_words(game.setup.rules),
        tiles=ngettext("{count} tile to draw", "{count} tiles to draw", tiles).format(count=tiles)))
    while game.phase is not Phase.GAME_OVER:
        move = bots[game.seat].choose(game.view())
        if recorder is not None:
            recorder.submit(move)
        else:
            game.apply(move)
    for line in transcript(game.setup, game.moves, names):
        print(line)
    print()
    print(_("Final scores:"))
    for line in final_lines(game, names):
        print(line)
    # Translators: {digest} is the game's digest (64 hexadecimal digits).
    print(_("digest {digest}").format(digest=game.digest.hex()))
    if recorder is not None:
        recorder.close()
        print(_("saved to {path}").format(path=recorder.path))
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
        # Translators: {players} is the number given to --players, {count} the bots --bots names.
        return _fail(ngettext("--players {players} but --bots names {count} bot",
                              "--players {players} but --bots names {count} bots", len(bots)).format(
            players=args.players, count=len(bots)))
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
            # Translators: the progress bar's label while carcnet simulate plays its games.
            task = progress.add_task(pgettext("progress", "playing"), total=args.games)
            result = simulate(
                bots, args.games, args.seed, jobs=args.jobs, on_game=lambda __: progress.advance(task),
                rules=rules_of(args), first=args.first,
            )
    except ValueError as exc:
        return _fail(str(exc))
    # Translators: carcnet simulate's first line: {games} is "100 games", {players} "2 players",
    # {seed} a number, {rules} the rules in words.
    print(_("{games}, {players}, seed {seed}, {rules}, seats rotated every game").format(
        # Translators: {count} games played.
        games=npgettext("simulate summary", "{count} game", "{count} games", result.games).format(count=result.games),
        players=ngettext("{count} player", "{count} players", len(bots)).format(count=len(bots)),
        seed=args.seed, rules=rules_words(rules_of(args))))
    # Translators: the column headings of carcnet simulate's table (a bot a row): its name, games won,
    # their share, the share's 95 % confidence interval, games won with a shared top score, and the
    # mean, standard deviation, lowest and highest of its scores.
    bot = pgettext("simulate column", "bot")
    wins, share = pgettext("simulate column", "wins"), pgettext("simulate column", "win %")
    # Translators: {share} is "95%": the column of the 95 % confidence interval of the share of games won.
    interval = pgettext("simulate column", "{share} interval").format(share="95%")
    shared, mean = pgettext("simulate column", "shared"), pgettext("simulate column", "mean")
    stdev, lowest = pgettext("simulate column", "stdev"), pgettext("simulate column", "min")
    highest = pgettext("simulate column", "max")
    print(f"{'':3} {bot:<10} {wins:>6} {share:>7} {interval:>14} {shared:>7} {mean:>7} {stdev:>7} {lowest:>5} "
          f"{highest:>5}")
    for i, name in enumerate(bots):
        scores = result.scores(i)
        low, high = result.interval(i)
        print(
            f"{i + 1:<3} {name:<10} {result.wins(i):>6} {decimal(100 * result.wins(i) / result.games):>6}% "
            f"{f'{decimal(100 * low)}-{decimal(100 * high)}%':>14} "
            f"{result.shared(i):>7} {decimal(result.mean(i)):>7} {decimal(result.stdev(i)):>7} {min(scores):>5} "
            f"{max(scores):>5}"
        )
    speed = speed_text(result.games, result.seconds)
    if args.jobs:
        # Translators: {speed} is how fast the games ran ("4.3 games/s (46.75 s)"), {count} the worker
        # processes; the English leaves the plural open ("job(s)"): give your language's forms.
        print(ngettext("{speed} ({count} job(s))", "{speed} ({count} job(s))", args.jobs).format(
            speed=speed, count=args.jobs))
    else:
        # Translators: {speed} is how fast the games ran ("4.3 games/s (46.75 s)"): one worker process a
        # core.
        print(_("{speed} (all job(s))").format(speed=speed))
    return EXIT_OK


def speed_text(games: int, seconds: float) -> str:
    """How fast a table ran, for people: games a second, or seconds a game when that is under one.

    *seconds* is the table's wall time. ``speed_text(200, 46.75)`` is ``"4.3 games/s (46.75 s)"``;
    ``speed_text(200, 4653.4)`` is ``"23.3 s a game (4653.40 s, 77.6 min)"``.
    """
    rate = games / seconds if seconds > 0 else 0.0
    values = {"rate": decimal(rate), "each": decimal(seconds / games) if games else "",
              "seconds": decimal(seconds, 2), "minutes": decimal(seconds / 60)}
    # Translators: {rate} is the games played a second, {each} the seconds a game takes, {seconds} the
    # whole run's seconds, {minutes} the same in minutes (numbers with decimals).
    if rate >= 1 or games == 0:
        if seconds >= 120:
            return _("{rate} games/s ({seconds} s, {minutes} min)").format(**values)
        return _("{rate} games/s ({seconds} s)").format(**values)
    if seconds >= 120:
        return _("{each} s a game ({seconds} s, {minutes} min)").format(**values)
    return _("{each} s a game ({seconds} s)").format(**values)


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
    created = date_time(datetime.fromtimestamp(header.created, timezone.utc))
    seats = []
    for s in header.seats:
        if s.player == "bot":
            # Translators: a seat of a saved game: {name} is the player's, {bot} the bot's kind (random,
            # greedy, easy…, as typed), {colour} the seat's colour.
            seats.append(_("{name} ({bot} bot, {colour})").format(name=s.name, bot=s.bot, colour=colour_word(s.colour)))
        else:
            # Translators: a seat of a saved game played by a person: {name} is the player's, {colour}
            # the seat's colour.
            seats.append(_("{name} (human, {colour})").format(name=s.name, colour=colour_word(s.colour)))
    # Translators: {game} is the game's id (32 hexadecimal digits), {time} the date and time it was made.
    print(_("game {game}, created {time} UTC").format(game=header.game, time=created))
    print(_("seats: {seats}").format(seats=joined(seats)))
    if loaded.damage is not None:
        # Translators: {problem} says what is damaged in the saved game.
        print(_("warning: {problem}").format(problem=loaded.damage.message))
    for line in transcript(game.setup, game.moves, names):
        print(line)
    print()
    if game.phase is Phase.GAME_OVER:
        print(_("Final scores:"))
        for line in final_lines(game, names):
            print(line)
    else:
        tiles = game.tiles_left + 1
        # Translators: {count} is the number of tiles still to play.
        print(ngettext("Unfinished: {count} tile still to play. Scores so far:",
                       "Unfinished: {count} tiles still to play. Scores so far:", tiles).format(count=tiles))
        for line in final_lines(game, names):
            print(line)
    # Translators: {digest} is the game's digest (64 hexadecimal digits).
    print(_("digest {digest}").format(digest=game.digest.hex()))
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
        print(_("no saved games in {folder}").format(folder=folder))
        return EXIT_OK
    print(_("saved games in {folder}:").format(folder=folder))
    for path in files:
        try:
            summary = summarize(path)
        except (LogError, OSError) as exc:
            # Translators: a save that cannot be read: {file} is its name, {reason} why.
            print("  " + _("{file}: unreadable: {reason}").format(file=path.name, reason=exc))
            continue
        header = summary.header
        when = date_time(datetime.fromtimestamp(header.created, timezone.utc))
        # turns as the screens count them, and whether the game is over or at which turn it stands
        if summary.finished:
            state = ngettext("finished, {count} turn", "finished, {count} turns", summary.turns).format(
                count=summary.turns)
        else:
            now = summary.turns + (not summary.deploying)  # the turn in play, as the Resume list says
            # Translators: where an unfinished game stands: {turn} is the turn in play, {tiles} the game's
            # turns in all.
            state = (_("turn {turn} of {tiles}").format(turn=now, tiles=summary.tiles) if summary.tiles
                     else _("turn {turn}").format(turn=now))
        players = joined([s.name for s in header.seats])
        # Translators: a save whose end is damaged: {file} is its name.
        name = _("{file} (damaged)").format(file=path.name) if summary.damaged else path.name
        print(f"  {when}  {state:<19} {players}  {name}")
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
    play = sub.add_parser("play", help=_("the game in the terminal (the default)"))
    play.add_argument("--bot-delay", type=float, default=0.6, help=_("seconds a bot waits before moving (default 0.6)"))
    play.add_argument("--data-dir", help=_("folder of saved games (default: the user data folder)"))
    play.set_defaults(run=_play)

    tut = sub.add_parser(
        "tutorial", help=_("learn to play: a first game that teaches a lesson at a time"),
        description=_("Opens the lessons: a first game against a gentle bot on a fixed deck, a lesson at a "
                      "time (placing, turning, meeples, roads, cloisters, cities, farms, the final scoring), "
                      "kept when you leave; and a short lesson for each expansion."),
    )
    tut.add_argument("--bot-delay", type=float, default=0.6, help=_("seconds the bot waits before moving (default 0.6)"))
    tut.add_argument("--data-dir", help=_("folder of saved games (default: the user data folder)"))
    tut.set_defaults(run=_tutorial)

    demo = sub.add_parser("demo", help=_("watch a headless game between bots"))
    demo.add_argument("--players", type=int, default=2, help=_("2 to 6 (default 2)"))
    demo.add_argument("--seed", type=int, default=1, help=_("deck and bot seed (default 1)"))
    demo.add_argument("--bot", default="random", help=_("bot for every seat: random, greedy, easy, medium, hard or expert (default random)"))
    demo.add_argument(
        "--save", nargs="?", const="", metavar="FILE",
        help=_("record the game as a .carclog (default: in the user data folder)"),
    )
    add_rule_options(demo)
    demo.set_defaults(run=_demo)

    sim = sub.add_parser(
        "simulate",
        help=_("play many headless bot games and compare the bots"),
        description=_("Plays bot games with seats rotated every game; prints wins, mean and spread of "
                      "scores per bot, and games per second."),
    )
    sim.add_argument("--players", type=int, help=_("number of seats (default: the number of --bots, or 2)"))
    sim.add_argument("--bots", help=_("comma-separated bot per seat, e.g. hard,greedy: random, greedy, or "
                                      "the search bot's levels easy, medium, hard, expert (default: greedy "
                                      "for all)"))
    sim.add_argument("--games", type=int, default=100, help=_("number of games (default 100)"))
    sim.add_argument("--seed", type=int, default=1, help=_("run seed: the same seed plays the same games (default 1)"))
    sim.add_argument("--first", type=int, default=0, metavar="N",
                     help=_("play the run's games from game N on (default 0): runs split in parts play the games of one run"))
    sim.add_argument("--jobs", type=int, default=1, help=_("worker processes; 0 = one per core (default 1)"))
    add_rule_options(sim)
    sim.set_defaults(run=_simulate)

    rep = sub.add_parser("replay", help=_("show a saved game move by move, then the final scores"))
    # Translators: the placeholder of a file named on the command line, in a command's usage (carcnet replay file).
    rep.add_argument("file", metavar=pgettext("command line placeholder", "file"), help=_("a .carclog file"))
    rep.add_argument("--json", action="store_true", help=_("print the final scores, breakdown and digest as JSON"))
    rep.set_defaults(run=_replay)

    ver = sub.add_parser(
        "verify",
        help=_("replay a saved game and check every entry"),
        description=_("Replays the log and checks its chain and digests. Prints 'ok' with the move count and "
                      "digest, or names the first bad entry and why. Exit status 0 ok, 1 refused, 3 damaged "
                      "tail."),
    )
    ver.add_argument("file", metavar=pgettext("command line placeholder", "file"),
                     help=_("a .carclog file, or a bug report .zip (carcnet report): the save inside"))
    ver.set_defaults(run=_verify)

    games = sub.add_parser("games", help=_("list saved games, finished or not"))
    games.add_argument("--dir", help=_("folder to list (default: the user data folder)"))
    games.set_defaults(run=_games)
