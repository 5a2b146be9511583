"""Provides ``carcnet review`` (where a game was lost, by the search bot), ``carcnet ratings``
(every player's rating, counted from rated games only) and ``carcnet continue`` (a game
continued from one of its turns as a new one): docs/club.md."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from carcnet.i18n import _, listed, ngettext, npgettext, pgettext

from .common import EXIT_OK, EXIT_REFUSED, EXIT_USAGE, fail

__all__ = ["add_commands"]

def add_commands(sub: Any) -> None:
    """Adds ``review``, ``ratings`` and ``continue`` to ``carcnet``'s subparsers *sub*."""
    rev = sub.add_parser(
        "review", help=_("mark the turns of a saved game where the search bot would have scored clearly more"),
        description=_("For every turn, the search bot searches the position from that seat's view and, where "
                      "it would have played another turn, plays both out on the same sampled futures: the "
                      "points at stake (mean) and their spread. A turn is marked when the bot's is worth at "
                      "least 3 points more and more than twice the spread: an estimate, not a verdict "
                      "(docs/club.md)."),
    )
    rev.add_argument("file", metavar=pgettext("command line placeholder", "file"), help=_("a .carclog file"))
    rev.add_argument("--level", default="medium",
                     help=_("the search bot's level: easy, medium, hard, expert (default medium: seconds a "
                            "game; hard looks deeper and takes minutes)"))
    rev.add_argument("--seat", type=int, action="append",
                     help=_("this seat's turns, numbered from 1 as on the screen (repeatable; default: the "
                            "people's seats, or every seat of a game of bots)"))
    rev.add_argument("--every-seat", action="store_true", help=_("every seat's turns, the bots' too"))
    rev.add_argument("--all", action="store_true", help=_("list every turn, not only the marked ones"))
    rev.add_argument("--json", action="store_true", help=_("every turn as JSON"))
    rev.set_defaults(run=_review)

    rat = sub.add_parser(
        "ratings", help=_("list the players' ratings, or count finished games into them"),
        description=_("Ratings per player identity key and per bot level (OpenSkill's Plackett-Luce, on an "
                      "Elo-like scale: 1500 at the start), counted only from signed logs that verify and "
                      "whose game is over, each game once. Kept in ratings.json in the user data folder."),
    )
    rat.add_argument("count", nargs="*", metavar="LOG", help=_("finished games' .carclog files to count"))
    rat.add_argument("--data-dir", help=_("the folder of ratings.json (default: the user data folder)"))
    rat.add_argument("--json", action="store_true", help=_("print the ratings as JSON"))
    rat.set_defaults(run=_ratings)

    cont = sub.add_parser(
        "continue", help=_("continue a saved or finished game from one of its turns, as a new game"),
        description=_("Saves a new game that replays the saved game's first turns and goes on from there "
                      "(the same seats and tiles to come; a network game's further tiles in a new order), "
                      "and plays it at this terminal; the saved game is not changed. With --save-only it is "
                      "only saved: resume it with carcnet resume FILE or the menu's Resume."),
    )
    cont.add_argument("file", metavar=pgettext("command line placeholder", "file"), help=_("a .carclog file"))
    cont.add_argument("--turn", type=int, required=True, help=_("the turns to keep (placements with their follow-up)"))
    cont.add_argument("--data-dir", help=_("where to save the new game (default: the user data folder)"))
    cont.add_argument("--save-only", action="store_true", help=_("save the new game without playing it now"))
    cont.set_defaults(run=_continue)


def _review(args: argparse.Namespace) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from carcnet.bots.review import review_game
    from carcnet.bots.search_bot import LEVELS
    from carcnet.log import LogError, load

    if args.level not in LEVELS:
        # Translators: {level} is the level typed (quoted), {levels} lists the levels (typed as they are).
        return fail(_("unknown level {level}; known levels: {levels}").format(level=repr(args.level),
                                                                           levels=", ".join(LEVELS)))
    try:
        loaded = load(Path(args.file))
    except LogError as exc:
        return fail(str(exc), EXIT_USAGE if exc.reason == "unreadable" else EXIT_REFUSED)
    game, names = loaded.game, [seat.name for seat in loaded.header.seats]
    if args.seat and not all(1 <= s <= len(names) for s in args.seat):
        # Translators: {last} is the game's last seat, counted from 1.
        return fail(_("--seat: the game has seats 1 to {last}").format(last=len(names)))
    people = [i for i, seat in enumerate(loaded.header.seats) if seat.player == "human"]
    if args.seat:
        seats = sorted({s - 1 for s in args.seat})
    elif args.every_seat or not people:
        seats = list(range(len(names)))
    else:
        seats = people
    quiet = args.json or not sys.stderr.isatty()
    # Translators: the progress bar's label while carcnet review looks at a game's turns.
    with Progress(TextColumn(pgettext("progress", "reviewing")), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  transient=True, disable=quiet) as progress:
        task = progress.add_task("turns", total=None)
        reviews = review_game(game.setup, game.moves, level=args.level, seats=seats,
                              on_turn=lambda done, total: progress.update(task, completed=done, total=total))
    if args.json:
        print(json.dumps([{
            "turn": r.turn, "move": r.move, "seat": r.seat, "player": names[r.seat],
            "played": [str(m) for m in r.played], "best": [str(m) for m in r.best],
            "stake": round(r.stake, 2), "spread": round(r.spread, 2), "marked": r.marked,
        } for r in reviews], indent=2))
        return EXIT_OK
    for line in review_lines(reviews, game, names, level=args.level, seats=seats, every=args.all):
        print(line)
    return EXIT_OK


def review_lines(reviews: list[Any], game: Any, names: list[str], *, level: str, seats: list[int],
                 every: bool = False) -> list[str]:
    """The review in words: a line saying whose turns were reviewed and how many are marked, then each
    marked turn (every turn with *every*): its number and player, the turn played, and under it the
    bot's with the points at stake."""
    from carcnet.tui.words import positions_before, turn_words

    whose = listed([names[s] for s in seats])
    marked = sum(r.marked for r in reviews)
    # Translators: how many turns the review looked at ({count}), in "The medium bot reviewed {turns} of …".
    turns = npgettext("review", "{count} turn", "{count} turns", len(reviews)).format(count=len(reviews))
    # Translators: how many of those turns are marked, in "…: {marked}, where its own turn is worth…".
    marked_text = npgettext("turns", "{count} marked", "{count} marked", marked).format(count=marked)
    # Translators: {level} is the search bot's level as typed (easy, medium, hard, expert), {turns} "12
    # turns", {players} lists the players whose turns were reviewed, {marked} "3 marked".
    lines = [_("The {level} bot reviewed {turns} of {players}: {marked}, where its own turn is worth at "
               "least 3 points more, beyond twice the spread (an estimate, not a verdict).").format(
        level=level, turns=turns, players=whose, marked=marked_text)]
    shown = [r for r in reviews if r.marked or every]
    before = positions_before(game, [r.move for r in shown])
    mark_decimal = pgettext("decimal mark", ".")
    for r in shown:
        mark = "!" if r.marked else " "
        position = before[r.move]
        played = turn_words(position, r.played, names)
        if r.best == r.played:
            # Translators: a turn reviewed: {player} is the player's name, {turn} the turn played in words.
            lines.append(f"{mark}{r.turn:3d}. " + _("{player}: {turn}; the bot would have played the same.").format(
                player=names[r.seat], turn=played))
            continue
        best = turn_words(position, r.best, names, other=r.played)
        lines.append(f"{mark}{r.turn:3d}. {names[r.seat]}: {played}")
        # Translators: the search bot's turn, under the turn played: {turn} is the bot's turn in words,
        # {stake} the points it is worth more (+3.5), {spread} their spread (numbers with a decimal).
        lines.append("      " + _("the bot: {turn}: {stake} ± {spread} points").format(
            turn=best, stake=f"{r.stake:+.1f}".replace(".", mark_decimal),
            spread=f"{r.spread:.1f}".replace(".", mark_decimal)))
    return lines


def _continue(args: argparse.Namespace) -> int:
    from carcnet.engine import DrawTile, PlaceTile
    from carcnet.log import LogError, default_dir, load
    from carcnet.table import LocalTable

    try:
        loaded = load(Path(args.file))
    except LogError as exc:
        return fail(str(exc), EXIT_USAGE if exc.reason == "unreadable" else EXIT_REFUSED)
    moves = list(loaded.game.moves)
    starts = [i for i, m in enumerate(moves) if isinstance(m, PlaceTile)]
    if not 0 <= args.turn <= len(starts):
        # Translators: {last} is the number of turns of the game.
        return fail(_("--turn: the game has turns 0 to {last}").format(last=len(starts)))
    at = starts[args.turn] if args.turn < len(starts) else len(moves)
    while at > 0 and isinstance(moves[at - 1], DrawTile):
        at -= 1  # the table's draw before the next turn goes with it
    directory = Path(args.data_dir) if args.data_dir else default_dir()
    try:
        table = LocalTable.branch(loaded.header, moves, at, directory=directory)
    except (OSError, ValueError) as exc:
        # Translators: {reason} says why (the system's error, or the game's).
        return fail(_("cannot continue the game: {reason}").format(reason=exc))
    path = table.path
    table.recorder.close()
    if args.save_only:
        # Translators: {path} is the new save, {turn} the number of turns kept.
        print(_("{path}: the game after turn {turn}, saved as a new game; play it with carcnet resume {path}").format(
            path=path, turn=args.turn))
        return EXIT_OK
    from carcnet.tui.app import CarcnetApp

    from . import common

    app = CarcnetApp(data_dir=Path(args.data_dir) if args.data_dir else None,
                     start=("resume", {"path": path}))
    return common.run_interface(app, args.data_dir)


def _ratings(args: argparse.Namespace) -> int:
    from carcnet.club.ratings import RATINGS_FILE, Ratings, display
    from carcnet.log import default_dir

    path = (Path(args.data_dir) if args.data_dir else default_dir()) / RATINGS_FILE
    try:
        ratings = Ratings.read(path)
    except (OSError, ValueError) as exc:
        # Translators: {reason} is the system's error, or what is wrong with the file.
        return fail(_("cannot read the ratings: {reason}").format(reason=exc))
    for log in args.count:  # a file that is not there is a mistake on the command line, said as replay says it
        try:
            Path(log).open("rb").close()
        except OSError as exc:
            # Translators: {file} is the file named, {reason} the system's error.
            return fail(_("{file}: cannot read it: {reason}").format(file=log, reason=exc.strerror or exc), EXIT_USAGE)
    refused = 0
    if args.count:
        for log in args.count:
            why = ratings.rate_log(log)
            if why is not None:
                refused += 1
            # Translators: a game counted into the ratings: {file} is its save.
            line = f"{log}: {why}" if why else _("{file}: counted").format(file=log)
            print(line, file=sys.stderr if args.json else sys.stdout)
        try:
            ratings.write(path)
        except OSError as exc:
            # Translators: {path} is the ratings' file, {reason} the system's error.
            return fail(_("cannot save the ratings to {path}: {reason}").format(path=path, reason=exc))
    rows = sorted(ratings.players.items(), key=lambda item: (-item[1].mu, item[0]))
    if args.json:
        print(json.dumps([{"player": p, "rating": display(r)[0], "spread": display(r)[1], "mu": r.mu,
                           "sigma": r.sigma, "games": r.games} for p, r in rows], indent=2))
    elif not args.count:
        if not rows:
            # Translators: {path} is the ratings' file; LOG… is a placeholder of the command.
            print(_("No ratings yet ({path}): a game counts once over, played here or at an event this "
                    "laptop took part in (carcnet ratings LOG… counts saved ones)").format(path=path))
        for p, r in rows:
            value, spread = display(r)
            name = (p if "@" not in p else p[: p.index("@") + 9] + "…") if p.startswith("bot:") else p[:16] + "…"
            # Translators: a player's games counted, in the ratings' table; {count} comes padded to 4 characters.
            games = npgettext("ratings table", "{count} game", "{count} games", r.games).format(count=f"{r.games:4d}")
            print(f"{value:5d} ± {spread:<4d} {games}  {name}")
        if ratings.unrated:
            count = len(ratings.unrated)
            # Translators: {count} games were not counted into the ratings.
            print(ngettext("Not counted ({count} game, the newest last):", "Not counted ({count} games, the newest last):",
                           count).format(count=count))
            for game, why in ratings.unrated.items():
                # Translators: a game not counted into the ratings: {game} is the start of its id (8 hexadecimal
                # digits), {why} the reason.
                print("  " + _("game {game}: {why}").format(game=game[:8], why=why.removeprefix("not counted: ")))
    return EXIT_REFUSED if refused and refused == len(args.count) else EXIT_OK
