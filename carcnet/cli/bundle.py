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
from carcnet.log import LoadedLog, LogError, LogHeader, default_dir
from carcnet.log.aside import AsideRun, aside_path, check_aside
from carcnet.table.bundle import REPORTS, BundleError, check_bundle, latest_save, write_bundle

from .common import EXIT_DAMAGED, EXIT_OK, EXIT_REFUSED, fail

__all__ = ["add_commands", "aside_lines", "print_aside", "print_verdict", "verify_bundle"]


def print_verdict(loaded: LoadedLog) -> int:
    """Prints what ``carcnet verify`` says of a save that loaded: ``ok`` with its moves and digest, or
    the damage and the valid prefix; returns the exit status (0, or 3 for a damaged tail)."""
    game = loaded.game
    state = "finished" if game.phase is Phase.GAME_OVER else "unfinished"
    if loaded.damage is not None:
        print(f"damaged: {loaded.damage.message}")
        print(f"valid prefix: {len(game.moves)} moves ({state}), digest {game.digest.hex()}")
        return EXIT_DAMAGED
    print(f"ok: {len(game.moves)} moves ({state}), digest {game.digest.hex()}")
    return EXIT_OK


def aside_lines(runs: list[AsideRun], header: LogHeader) -> list[str]:
    """The lines that list a side file's entries (set aside when a split healed, not part of the game),
    run by run, with why a run does not check on the save, if it does not."""
    names = [seat.name for seat in header.seats]
    count = sum(len(run.entries) for run in runs)
    lines = [f"set aside (not part of the game): {count} entr{'y' if count == 1 else 'ies'}"]
    for run in runs:
        for entry in run.entries:
            who = names[entry.seat] if entry.seat < len(names) else f"seat {entry.seat}"
            lines.append(f"  seq {entry.seq}: {who}: {entry.move}")
        if run.problem is not None:
            lines.append(f"  (the run from seq {run.seq} does not check on the save: {run.problem})")
    return lines


def print_aside(save: Path, loaded: LoadedLog) -> None:
    """Prints the entries of the side file beside *save* (the save *loaded*), if there is one."""
    aside = aside_path(save)
    if not aside.is_file():
        return
    try:
        runs = check_aside(aside, loaded.header, loaded.entries)
    except LogError as exc:
        print(f"side file {aside.name}: {exc}")
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
    print(f"report {Path(path).name}: carcnet {manifest.get('carcnet')}, made {manifest.get('created')} "
          f"from the {manifest.get('origin')}")
    if manifest.get("note"):
        print(f"note: {manifest['note']}")
    for problem in check.bundle.problems:
        print(f"manifest.json: {problem} (left out)")
    if check.loaded is None:
        assert check.refused is not None
        return fail(str(check.refused), EXIT_REFUSED)
    status = print_verdict(check.loaded)
    if check.aside is not None:
        for line in aside_lines(check.aside, check.loaded.header):
            print(line)
    if check.aside_problem is not None:
        print(f"side file: {check.aside_problem}")
    if check.stop is not None:
        print(check.stop.text)
    if check.disagreement is not None:
        print(f"the table and its save disagree: {check.disagreement}")
        return EXIT_REFUSED
    return status


def _report(args: argparse.Namespace) -> int:
    folder = Path(args.dir) if args.dir else default_dir()
    if args.file is not None:
        save = Path(args.file)
        if not save.is_file():
            return fail(f"no save at {save}")
    else:
        found = latest_save(folder)
        if found is None:
            return fail(f"no saved games in {folder}: name the save to report on (carcnet report FILE)")
        save = found
    from carcnet.tui.settings import Settings

    try:
        target = Path(args.output_dir) if args.output_dir else folder / REPORTS  # where F12 writes too
        path = write_bundle(save, target, note=args.note,
                            settings=Settings.load().to_json())
    except BundleError as exc:
        return fail(str(exc))
    except OSError as exc:
        return fail(f"cannot write the report: {exc}")
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
    print(f"report on {save.name} written to {path}")
    print(f"it holds {', '.join(names)}; never the keys file")
    return EXIT_OK


def add_commands(sub: Any) -> None:
    """Adds ``report`` to ``carcnet``'s subparsers *sub*."""
    rep = sub.add_parser(
        "report",
        help="write a bug report of a saved game (one zip file)",
        description="Writes carcnet-report-<game>-<time>.zip: the save, its side file and connection log, "
        "the versions, the settings (never the keys file) and your note; 'carcnet verify' replays it. "
        "See docs/bug-reports.md.",
    )
    rep.add_argument("file", nargs="?", help="the save (default: the one written last in the saves folder)")
    rep.add_argument("--dir", help="the saves folder to take the last save from (default: the user data folder)")
    rep.add_argument("--note", default="", help="what happened, in your words")
    rep.add_argument("-o", "--output-dir",
                     help="where the report goes (default: the reports folder of the saves folder, where "
                     "F12 in a game writes its reports too)")
    rep.set_defaults(run=_report)
