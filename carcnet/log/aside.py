"""The side file of a LAN game's save: entries this peer held that the table did not commit
(``protocol/log.md`` §12, ``protocol/wire.md`` §5.9 "Healing"). Kept, never replayed into the game.

The side file sits next to the save, named ``<save>.aside`` (``20261121-101500-3f2a9c1b.carclog.aside``).
It is written like a log (``log.md`` §2–§6: the magic, the header record of the save, then entry
records), except that its entries come in **runs**: each run is the entries set aside at one heal, in
seq order, and a run starts wherever an entry's seq does not follow the one before it. Each run
parts from the save at its first seq: replayed on the save's entries before that seq, every entry of
the run checks as a log entry does (signature, author, move, digest).

>>> aside_path("games/20261121-101500-3f2a9c1b.carclog").name
'20261121-101500-3f2a9c1b.carclog.aside'
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from carcnet.engine import Game, replay
from carcnet.i18n import _

from .codec import pack, unpack
from .entries import LogEntry, LogHeader
from .errors import LogError, LogFormatError, LogVersionError
from .records import MAGIC, encode_record, scan
from .store import apply_entry, fsync_directory, read_marked

__all__ = ["SUFFIX", "AsideRun", "append_aside", "aside_path", "check_aside", "read_aside"]

#: What the side file's name adds to the save's.
SUFFIX = ".aside"


def aside_path(save: str | os.PathLike[str]) -> Path:
    """The side file of the save *save*."""
    save = Path(save)
    return save.with_name(save.name + SUFFIX)


def append_aside(save: str | os.PathLike[str], header: LogHeader, entries: Sequence[LogEntry]) -> Path:
    """Adds *entries* (one run: consecutive seqs) to the side file of *save*, creating it with
    *header* first; fsynced (with its directory when created) before it returns. Returns its path.

    Raises:
        ValueError: *entries* is empty or its seqs do not follow each other.
        OSError: The file cannot be written.
    """
    if not entries or any(b.seq != a.seq + 1 for a, b in itertools.pairwise(entries)):
        raise ValueError("a run of entries set aside is one or more consecutive seqs")
    path = aside_path(save)
    created = not path.exists()
    body = b"".join(encode_record(pack(entry, format=header.format)) for entry in entries)
    with open(path, "ab") as file:
        if created or file.tell() == 0:
            body = MAGIC + encode_record(pack(header)) + body
        file.write(body)
        file.flush()
        os.fsync(file.fileno())
    if created:
        fsync_directory(path.parent)
    return path


def read_aside(path: str | os.PathLike[str]) -> tuple[LogHeader, list[list[LogEntry]]]:
    """The header and the runs of a side file (not checked against a save: :func:`check_aside`).

    Raises:
        LogError: The file cannot be read, is not a side file, or holds a damaged record
            (``"unreadable"``, ``"bad-magic"``, ``"bad-header"``, ``"bad-record"``, ``"corrupt-record"``).
    """
    path = Path(path)
    records, tail = scan(read_marked(path, "a side file"))
    if tail is not None:
        # Translators: {name} is a file's name, {offset} a position in bytes; {detail} says how the record is damaged.
        raise LogError("corrupt-record", _("{name}: a record at byte {offset} is damaged ({detail})").format(
            name=path.name, offset=tail.offset, detail=tail.detail), tail.index)
    if not records:
        # Translators: {name} is a file's name.
        raise LogError("bad-header", _("{name} holds no header").format(name=path.name))
    try:
        header = unpack(records[0].body)
    except (LogFormatError, LogVersionError) as exc:
        # Translators: {name} is a file's name; {problem} says what is wrong (in the file format's terms, English).
        raise LogError("bad-header", _("{name}: the header is malformed: {problem}").format(name=path.name, problem=exc), 0) from None
    if not isinstance(header, LogHeader):
        # Translators: {name} is a file's name.
        raise LogError("bad-header", _("{name}: the first record is not a header").format(name=path.name), 0)
    runs: list[list[LogEntry]] = []
    for record in records[1:]:
        try:
            entry = unpack(record.body, format=header.format)
        except (LogFormatError, LogVersionError) as exc:
            # Translators: {name} is a file's name, {index} a record's number; {problem} says what is wrong (in the
            # file format's terms, English).
            raise LogError("bad-record", _("{name}: record {index} is malformed: {problem}").format(
                name=path.name, index=record.index, problem=exc)) from None
        if not isinstance(entry, LogEntry):
            # Translators: {name} is a file's name, {index} a record's number.
            raise LogError("bad-record", _("{name}: record {index} is not an entry").format(name=path.name, index=record.index))
        if runs and entry.seq == runs[-1][-1].seq + 1:
            runs[-1].append(entry)
        else:
            runs.append([entry])
    return header, runs


@dataclass(frozen=True, slots=True)
class AsideRun:
    """One run of a side file, checked against the save (:func:`check_aside`).

    Attributes:
        entries: The run's entries, in seq order.
        problem: Why an entry of it does not check (``None``: every one does), with its seq.
    """

    entries: tuple[LogEntry, ...]
    problem: str | None

    @property
    def seq(self) -> int:
        """The run's first seq: where it parts from the save."""
        return self.entries[0].seq


def check_aside(path: str | os.PathLike[str], header: LogHeader, saved: Sequence[LogEntry]) -> list[AsideRun]:
    """Reads the side file *path* of the save whose header and entries are given, and checks each run
    on the save's entries before it (signatures, authors, moves, digests: :func:`apply_entry`).

    Raises:
        LogError: As :func:`read_aside`; ``"wrong-game"`` when its header is not the save's.
    """
    aside_header, runs = read_aside(path)
    if aside_header != header:
        # Translators: {name} is a file's name.
        raise LogError("wrong-game", _("{name} is the side file of another game").format(name=Path(path).name))
    checked = []
    for run in runs:
        problem = None
        first = run[0].seq
        if first > len(saved) + 1:
            problem = f"seq {first}: it parts from the save after its end (seq {len(saved)})"
        else:
            game: Game = replay(header.setup(), [entry.move for entry in saved[: first - 1]])
            for entry in run:
                try:
                    apply_entry(game, header, entry)
                except LogError as exc:
                    problem = f"seq {entry.seq}: {exc.reason}: {exc}"
                    break
        checked.append(AsideRun(tuple(run), problem))
    return checked
