"""Provides ``carcnet report`` (a bug report of a saved game: one zip file, ``docs/bug-reports.md``)
and what ``carcnet verify`` says of a save or of a report (:func:`print_verdict`, :func:`verify_bundle`).

Exit statuses: :mod:`carcnet.cli.common`.
"""

from __future__ import annotations

import argparse
import zipfile
from pathlib import Path
from typing import Any

from carcnet.engine import Phase
from carcnet.i18n import _, joined, ngettext, pgettext
from carcnet.log import LoadedLog, LogError, LogHeader, default_dir
from carcnet.log.aside import AsideRun, aside_path, check_aside
from carcnet.table.bundle import REPORTS, BundleError, check_bundle, latest_save, write_bundle

from .common import EXIT_DAMAGED, EXIT_OK, EXIT_REFUSED, fail

__all__ = ["add_commands", "aside_lines", "print_aside", "print_verdict", "verify_bundle"]


def print_verdict(loaded: LoadedLog) -> int:
    """Prints what ``carcnet verify`` says of a save that loaded: ``ok`` with its moves and digest, or
    the damage and the valid prefix; returns the exit status (0, or 3 for a damaged tail)."""
    game = loaded.game
    # Translators: a saved game's state, in "ok: 142 moves ({state}), digest …"
    state = pgettext("a saved game", "finished") if game.phase is Phase.GAME_OVER else pgettext("a saved game", "unfinished")
    count, digest = len(game.moves), game.digest.hex()
    if loaded.damage is not None:
        # Translators: {problem} says what is damaged in the saved game.
        print(_("damaged: {problem}").format(problem=loaded.damage.message))
        # Translators: the moves of a damaged save that check: {count} moves, {state} "finished" or
        # "unfinished", {digest} the game's digest there (64 hexadecimal digits).
        print(ngettext("valid prefix: {count} move ({state}), digest {digest}",
                       "valid prefix: {count} moves ({state}), digest {digest}", count).format(
            count=count, state=state, digest=digest))
        return EXIT_DAMAGED
    # Translators: a save that checks: {count} moves, {state} "finished" or "unfinished", {digest} the
    # game's digest (64 hexadecimal digits).
    print(ngettext("ok: {count} move ({state}), digest {digest}", "ok: {count} moves ({state}), digest {digest}",
                   count).format(count=count, state=state, digest=digest))
    return EXIT_OK


def aside_lines(runs: list[AsideRun], header: LogHeader) -> list[str]:
    """The lines that list a side file's entries (set aside when a split healed, not part of the game),
    run by run, with why a run does not check on the save, if it does not."""
    names = [seat.name for seat in header.seats]
    count = sum(len(run.entries) for run in runs)
    lines = [ngettext("set aside (not part of the game): {count} entry", "set aside (not part of the game): {count} entries",
                      count).format(count=count)]
    for run in runs:
        for entry in run.entries:
            # Translators: a seat with no player's name: {seat} is its number.
            who = names[entry.seat] if entry.seat < len(names) else _("seat {seat}").format(seat=entry.seat)
            # Translators: an entry set aside: {seq} is its number in the log, {player} whose it is, {move}
            # the move in the log's notation.
            lines.append("  " + _("seq {seq}: {player}: {move}").format(seq=entry.seq, player=who, move=entry.move))
        if run.problem is not None:
            # Translators: {seq} is the number of the run's first entry, {problem} why it does not check.
            lines.append("  " + _("(the run from seq {seq} does not check on the save: {problem})").format(
                seq=run.seq, problem=run.problem))
    return lines


def print_aside(save: Path, loaded: LoadedLog) -> None:
    """Prints the entries of the side file beside *save* (the save *loaded*), if there is one."""
    aside = aside_path(save)
    if not aside.is_file():
        return
    try:
        runs = check_aside(aside, loaded.header, loaded.entries)
    except LogError as exc:
        # Translators: {file} is the side file's name, {reason} why it cannot be read.
        print(_("side file {file}: {reason}").format(file=aside.name, reason=exc))
        return
    for line in aside_lines(runs, loaded.header):
        print(line)


def verify_bundle(path: str) -> int:
    """``carcnet verify REPORT.zip``: the save inside checked as a save is, then the side file's entries,
    whether the table's game agreed with the save, and the stop replayed. Exit status: the save's (0,
    1 refused, 3 damaged tail), 1 when the table and the save disagree, 2 when it is not a report."""
    try:
        check = check_bundle(path)
    except BundleError as exc:
        return fail(str(exc))
    manifest = check.bundle.manifest
    about = {"file": Path(path).name, "version": manifest.get("carcnet"), "created": manifest.get("created"),
             "origin": manifest.get("origin")}
    if about["origin"] == "command line":
        # Translators: a bug report: {file} is its name, {version} carcnet's version, {created} when it was made.
        print(_("report {file}: carcnet {version}, made {created} from the command line").format(**about))
    elif about["origin"] == "interface":
        # Translators: a bug report: {file} is its name, {version} carcnet's version, {created} when it was made.
        print(_("report {file}: carcnet {version}, made {created} from the interface").format(**about))
    else:
        # Translators: a bug report: {file} is its name, {version} carcnet's version, {created} when it was
        # made, {origin} where, as the report says it (in English).
        print(_("report {file}: carcnet {version}, made {created} from the {origin}").format(**about))
    if manifest.get("note"):
        # Translators: the note a player wrote in the bug report.
        print(_("note: {note}").format(note=manifest["note"]))
    for problem in check.bundle.problems:
        # Translators: {problem} is what is wrong with a value of the report's manifest.json.
        print(_("manifest.json: {problem} (left out)").format(problem=problem))
    if check.loaded is None:
        assert check.refused is not None
        return fail(str(check.refused), EXIT_REFUSED)
    status = print_verdict(check.loaded)
    if check.aside is not None:
        for line in aside_lines(check.aside, check.loaded.header):
            print(line)
    if check.aside_problem is not None:
        # Translators: {problem} says why the side file cannot be read.
        print(_("side file: {problem}").format(problem=check.aside_problem))
    if check.stop is not None:
        print(check.stop.text)
    if check.disagreement is not None:
        # Translators: {difference} says where the table's game and the save part.
        print(_("the table and its save disagree: {difference}").format(difference=check.disagreement))
        return EXIT_REFUSED
    return status


def _report(args: argparse.Namespace) -> int:
    folder = Path(args.dir) if args.dir else default_dir()
    if args.file is not None:
        save = Path(args.file)
        if not save.is_file():
            return fail(_("no save at {path}").format(path=save))
    else:
        found = latest_save(folder)
        if found is None:
            return fail(_("no saved games in {folder}: name the save to report on (carcnet report FILE)").format(
                folder=folder))
        save = found
    from carcnet.tui.settings import Settings

    try:
        target = Path(args.output_dir) if args.output_dir else folder / REPORTS  # where F12 writes too
        path = write_bundle(save, target, note=args.note,
                            settings=Settings.load().to_json())
    except BundleError as exc:
        return fail(str(exc))
    except OSError as exc:
        # Translators: {reason} is the system's error.
        return fail(_("cannot write the report: {reason}").format(reason=exc))
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
    # Translators: {save} is the save's name, {path} the report's file.
    print(_("report on {save} written to {path}").format(save=save.name, path=path))
    # Translators: {files} lists the files in the report.
    print(_("it holds {files}; never the keys file").format(files=joined(names)))
    return EXIT_OK


def add_commands(sub: Any) -> None:
    """Adds ``report`` to ``carcnet``'s subparsers *sub*."""
    rep = sub.add_parser(
        "report",
        help=_("write a bug report of a saved game (one zip file)"),
        description=_("Writes carcnet-report-<game>-<time>.zip: the save, its side file and connection log, "
                      "the versions, the settings (never the keys file) and your note; 'carcnet verify' "
                      "replays it. See docs/bug-reports.md."),
    )
    rep.add_argument("file", nargs="?", metavar=pgettext("command line placeholder", "file"), help=_("the save (default: the one written last in the saves folder)"))
    rep.add_argument("--dir", help=_("the saves folder to take the last save from (default: the user data folder)"))
    rep.add_argument("--note", default="", help=_("what happened, in your words"))
    rep.add_argument("-o", "--output-dir",
                     help=_("where the report goes (default: the reports folder of the saves folder, where "
                            "F12 in a game writes its reports too)"))
    rep.set_defaults(run=_report)
