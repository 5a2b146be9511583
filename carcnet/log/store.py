"""Provides ``.carclog`` files: appending with fsync, loading by replay, where files live
(``protocol/log.md`` §2, §8–9).

:class:`LogWriter` only ever appends: it creates a file exclusively, writes the magic and the header,
then one record per :meth:`LogWriter.append`, each flushed and fsynced before the call returns (or,
for a LAN peer's received entries, written at once and fsynced by :meth:`LogWriter.sync`); it never
seeks back. :func:`load` reads a file, checks every record and replays every move through the
engine, so a :class:`LoadedLog` is always a game the engine agrees with. A torn or corrupt *last*
record is dropped and reported as :class:`Damage`; anything else wrong is refused with
:class:`~carcnet.log.errors.LogError`. In a signed game (a header with seat keys) every entry's
signature is verified too. :func:`apply_entry` is that check of one entry, shared with
:meth:`carcnet.log.recorder.GameRecorder.append_signed`.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Literal, Self

import platformdirs

from carcnet.engine import (
    RULES_VERSION,
    SUPPORTED_RULES,
    DrawTile,
    Event,
    Game,
    HandBack,
    HandOver,
    IllegalMoveError,
    Phase,
    PlaceTile,
)
from carcnet.i18n import _, listed, ngettext

from .codec import pack, unpack
from .entries import FORMAT_VERSION, READ_FORMATS, LogEntry, LogHeader
from .errors import LogError, LogFormatError, LogVersionError
from .lock import SaveLock
from .records import MAGIC, MARK, Record, encode_record, scan
from .signatures import verify_entry

__all__ = [
    "DATA_DIR_ENV",
    "SUFFIX",
    "Damage",
    "LoadedLog",
    "LogSummary",
    "LogWriter",
    "apply_entry",
    "default_dir",
    "fsync_directory",
    "load",
    "new_path",
    "summarize",
]

#: File name suffix of a log.
SUFFIX = ".carclog"
#: Environment variable that replaces the platform's user data directory (tests, portable installs).
DATA_DIR_ENV = "CARCNET_DATA_DIR"


def default_dir() -> Path:
    """Where logs go when no path is given: ``<data dir>/games``, where the data dir is
    ``$CARCNET_DATA_DIR`` if set, else ``platformdirs.user_data_dir("carcnet")``
    (``~/.local/share/carcnet`` on Linux, ``~/Library/Application Support/carcnet`` on macOS,
    ``%LOCALAPPDATA%\\carcnet`` on Windows). Not created here."""
    base = os.environ.get(DATA_DIR_ENV) or platformdirs.user_data_dir("carcnet", appauthor=False)
    return Path(base) / "games"


def new_path(header: LogHeader, directory: Path | None = None) -> Path:
    """A file name for a new game: ``<created, UTC, YYYYMMDD-HHMMSS>-<first 8 of game id>.carclog``
    in *directory* (default :func:`default_dir`), e.g. ``20261121-101500-3f2a9c1b.carclog``."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(header.created))
    return (directory if directory is not None else default_dir()) / f"{stamp}-{header.game[:8]}{SUFFIX}"


def fsync_directory(directory: Path) -> None:
    """Makes a file created, renamed or replaced in *directory* durable (POSIX; a no-op where a
    directory cannot be opened, as on Windows)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# ---------------------------------------------------------------------- loading


@dataclass(frozen=True, slots=True)
class Damage:
    """A damaged last record that :func:`load` dropped (``protocol/log.md`` §8).

    Attributes:
        kind: ``"torn"``: the file ends inside the record (a write cut short); ``"corrupt-last"``:
            the record is complete but fails its checksum.
        seq: Sequence number the dropped record would have had (the move that was being written).
        offset: Byte offset where the dropped record starts; also the size of the valid prefix.
        dropped_bytes: Bytes from *offset* to the end of the file, all ignored.
        message: One sentence for people.
    """

    kind: Literal["torn", "corrupt-last"]
    seq: int
    offset: int
    dropped_bytes: int
    message: str


@dataclass(frozen=True, slots=True)
class LoadedLog:
    """A log read by :func:`load`: header, entries, the replayed game and any damage at the end.

    Attributes:
        path: The file.
        header: Its header.
        entries: Its valid entries, ``seq`` 1, 2, … in order.
        game: The engine's game after replaying every entry; its ``digests[i]`` equals
            ``entries[i - 1].digest``.
        damage: The dropped last record, or ``None`` when the file ends cleanly.
        valid_size: Bytes of the file that hold the magic, the header and the valid entries.
    """

    path: Path
    header: LogHeader
    entries: tuple[LogEntry, ...]
    game: Game
    damage: Damage | None
    valid_size: int


def load(path: str | os.PathLike[str]) -> LoadedLog:
    """Reads a log, checks every record and replays it (``protocol/log.md`` §8).

    In order: the magic; the header record and its versions (refused before anything else is
    judged); the framing of every record; then each entry is decoded in the header's format, its
    ``seq`` must be the next one, its signature must verify under its seat's key when the header
    has keys (:func:`apply_entry`), its ``seat`` must be the seat whose turn it is, its move legal
    for the engine, and its digest equal to the engine's digest after the move. A damaged last
    record is dropped and reported in :attr:`LoadedLog.damage`; the file is never changed.

    Raises:
        LogError: The file is refused; ``reason`` and ``seq`` say where and why (see
            :class:`~carcnet.log.errors.LogError`). No other exception escapes for any file content.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise LogError("unreadable", _unreadable(path, exc)) from None
    name = path.name
    if not data:
        # Translators: {name} is a file's name; {magic} the bytes a log starts with (kept as they are).
        raise LogError("empty", _("{name} is empty: a carcnet log starts with {magic} and a header").format(
            name=name, magic=repr(MAGIC)))
    if len(data) < len(MAGIC) and MAGIC.startswith(data):
        # Translators: {name} is a file's name; {size} a number of bytes.
        raise LogError("torn-header", ngettext(
            "{name} ends after {size} byte, inside its magic: no game was written",
            "{name} ends after {size} bytes, inside its magic: no game was written", len(data)).format(
                name=name, size=len(data)))
    if not data.startswith(MAGIC):
        raise LogError("bad-magic", _not_marked(name, "a carcnet saved game"))
    records, tail = scan(data)
    if not records:
        if tail is None:
            # Translators: {name} is a file's name.
            raise LogError("torn-header", _("{name} holds only its magic: the header was never written").format(
                name=name), 0)
        if tail.kind == "torn":
            # Translators: {name} is a file's name; {detail} says where the file is cut.
            raise LogError("torn-header", _("{name}: the header record is incomplete ({detail}): no game was written").format(
                name=name, detail=tail.detail), 0)
        # Translators: {name} is a file's name; {detail} says how the record is damaged.
        raise LogError("corrupt-header", _("{name}: the header record is damaged ({detail})").format(
            name=name, detail=tail.detail), 0)
    header = _decode_header(records[0], name)
    if tail is not None and not tail.last:
        # Translators: {name} is a file's name; {seq} a move's number, {offset} a position in bytes;
        # {detail} says how the record is damaged.
        raise LogError("corrupt-record", _(
            "{name}: the record of seq {seq} at byte {offset} is damaged ({detail}) "
            "and intact records follow it: this is not a torn write, so the log is refused").format(
                name=name, seq=tail.index, offset=tail.offset, detail=tail.detail), tail.index)
    game = Game(header.setup())
    if game.digests[0] != header.digest:
        # Translators: {name} is a file's name; {saved} and {engine} are the starts of digests (hex digits).
        raise LogError("chain-broken", _(
            "{name}: the header's setup digest {saved}… differs from this engine's {engine}…: the chain breaks at seq 0"
        ).format(name=name, saved=header.digest.hex()[:16], engine=game.digests[0].hex()[:16]), 0)
    entries = tuple(_replay_entry(game, header, record, name) for record in records[1:])
    damage = None
    valid_size = len(data)
    if tail is not None:
        valid_size = tail.offset
        kind: Literal["torn", "corrupt-last"] = "torn" if tail.kind == "torn" else "corrupt-last"
        damage = Damage(kind, tail.index, tail.offset, tail.size, _damage_text(kind, tail.index, tail.offset,
                                                                               tail.detail, tail.size, len(entries)))
    return LoadedLog(path, header, entries, game, damage, valid_size)


@dataclass(frozen=True, slots=True)
class LogSummary:
    """What :func:`summarize` tells of a log without replaying it: enough to list saves.

    Attributes:
        path: The file.
        header: Its header (checked as :func:`load` checks it: versions, fields).
        records: Entry records after the header whose framing and checksum are intact (each may
            still be refused on replay: only :func:`load` says the game is valid).
        damaged: Whether the file ends in a damaged record or holds one in the middle.
        turns: Tiles placed (a turn is a placement and its follow-up, as the screens count them),
            read from the entries without playing them.
        tiles: The tiles the game's deck has to place.
        finished: Whether the game is over: every tile of the deck placed and the last one followed
            up; near the end (tiles set aside where they fit nowhere end a game early) the game is
            replayed to tell.
        deploying: Whether the last entry is a placement (its turn in play: the follow-up to come).
    """

    path: Path
    header: LogHeader
    records: int
    damaged: bool
    turns: int = 0
    tiles: int = 0
    finished: bool = False
    deploying: bool = False


def _damage_text(kind: str, seq: int, offset: int, detail: str, size: int, moves: int) -> str:
    """What a damaged last record did to a log (:attr:`Damage.message`), in the player's words."""
    # Translators: {seq} is a move's number, {offset} a position in bytes; {detail} says how the record is
    # damaged.
    what = (_("the last record (seq {seq}, at byte {offset}) is torn (cut short): {detail}") if kind == "torn"
            # Translators: {seq} is a move's number, {offset} a position in bytes; {detail} says how the record
            # is damaged.
            else _("the last record (seq {seq}, at byte {offset}) is corrupt: {detail}"))
    # Translators: {size} is a number of bytes.
    ignored = ngettext("its {size} byte was ignored", "its {size} bytes were ignored", size).format(size=size)
    # Translators: {moves} is a number of moves.
    kept = ngettext("the {moves} move before it kept", "the {moves} moves before it kept", moves).format(moves=moves)
    # Translators: {what} says which record is damaged and how; {ignored} "its 20 bytes were ignored";
    # {kept} "the 12 moves before it kept".
    return _("{what}; {ignored} and {kept}").format(what=what.format(seq=seq, offset=offset, detail=detail),
                                                    ignored=ignored, kept=kept)


def _version_text(name: str, exc: LogVersionError) -> str:
    """Why a log of another format or rules version is refused (the words of the codec's message,
    which stays English for the wire), in the player's words."""
    if exc.field == "format" and exc.found > exc.supported:
        # Translators: {name} is a file's name; {found} and {supported} are numbers of versions.
        return _("{name}: this log is in log format version {found}, newer than this carcnet reads (format version "
                 "{supported}): open it with a newer carcnet").format(name=name, found=exc.found, supported=exc.supported)
    if exc.field == "format":
        # Translators: {name} is a file's name; {found} is a number of a version, {versions} lists numbers.
        return _("{name}: log format version {found} does not exist (this carcnet reads format versions "
                 "{versions})").format(name=name, found=exc.found, versions=", ".join(map(str, READ_FORMATS)))
    plays = listed([str(rules) for rules in SUPPORTED_RULES])
    if exc.found > RULES_VERSION:
        # Translators: {name} is a file's name; {found} is a number of a version, {versions} lists numbers.
        text = _("{name}: this game was played under rules version {found}, but this carcnet plays rules versions "
                 "{versions}; it is not replayed under other rules: open it with a newer carcnet")
    else:
        # Translators: {name} is a file's name; {found} is a number of a version, {versions} lists numbers.
        text = _("{name}: this game was played under rules version {found}, but this carcnet plays rules versions "
                 "{versions}; it is not replayed under other rules: open it with a carcnet that plays rules version "
                 "{found}")
    return text.format(name=name, found=exc.found, versions=plays)


def _unreadable(path: Path, exc: OSError) -> str:
    # Translators: {path} is a file; {reason} says why it cannot be read (from the system).
    return _("{path}: cannot read it: {reason}").format(path=path, reason=exc.strerror or exc)


def _not_marked(name: str, kind: str) -> str:
    """Why the file *name* is not *kind* (``"a carcnet saved game"`` or ``"a side file"``), in the player's words."""
    if kind == "a side file":
        # Translators: {name} is a file's name; {mark} is "the word CARCLOG and a line break".
        text = _("{name} is not a side file: it does not begin as one does, with {mark}")
    else:
        # Translators: {name} is a file's name; {mark} is "the word CARCLOG and a line break".
        text = _("{name} is not a carcnet saved game: it does not begin as one does, with {mark}")
    return text.format(name=name, mark=_(MARK))


def read_marked(path: Path, kind: str) -> bytes:
    """The bytes of the file *path*, which begins with the log's magic (``protocol/log.md`` §3): a
    save, or its side file (§12); *kind* names it in the error (``"a carcnet saved game"`` or ``"a side
    file"``).

    Raises:
        LogError: ``"unreadable"`` (an OS error), ``"bad-magic"`` (it does not begin with the magic).
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise LogError("unreadable", _unreadable(path, exc)) from None
    if not data.startswith(MAGIC):
        raise LogError("bad-magic", _not_marked(path.name, kind))
    return data


def summarize(path: str | os.PathLike[str]) -> LogSummary:
    """The header and the number of intact records of a log, read without replaying any move or
    checking any signature (``protocol/log.md`` §3, §5): its cost is one read of the file and a
    checksum per record, so a folder of saves lists in milliseconds whatever they hold.

    Raises:
        LogError: The file cannot be read, is not a log, or its header is refused (as :func:`load`).
    """
    path = Path(path)
    records, tail = scan(read_marked(path, "a carcnet saved game"))
    if not records:
        # Translators: {name} is a file's name.
        raise LogError("torn-header", _("{name}: the header record is missing or damaged").format(name=path.name), 0)
    header = _decode_header(records[0], path.name)
    moves = []
    for record in records[1:]:  # read, not played
        try:
            entry = unpack(record.body, format=header.format)
        except LogFormatError:
            break
        if not isinstance(entry, LogEntry):
            break
        moves.append(entry.move)
    turns = sum(isinstance(m, PlaceTile) for m in moves)
    deploying = bool(moves) and isinstance(moves[-1], PlaceTile)
    try:
        start = Game(header.setup())
    except (ValueError, IllegalMoveError):
        return LogSummary(path, header, len(records) - 1, tail is not None, turns, deploying=deploying)
    tiles = start.tiles_left + (start.drawn is not None)
    finished = turns >= tiles and bool(moves) and not deploying
    # a game of a usual length, not a crafted file of moves without end, whose replay would be slow
    if not finished and tiles - NEAR_THE_END <= turns < tiles and len(moves) <= 4 * tiles + 64:
        try:  # tiles set aside may have ended it early: only playing it tells
            finished = load(path).game.phase is Phase.GAME_OVER
        except LogError:
            finished = False
    return LogSummary(path, header, len(records) - 1, tail is not None, turns, tiles, finished, deploying)


#: How many tiles before its deck's end :func:`summarize` replays a game to tell whether it is over.
NEAR_THE_END = 3


def _decode_header(record: Record, name: str) -> LogHeader:
    try:
        header = unpack(record.body)
    except LogVersionError as exc:
        raise LogError(f"{exc.field}-version", _version_text(name, exc), 0) from None
    except LogFormatError as exc:
        # Translators: {name} is a file's name; {problem} says what is wrong (in the file format's terms, English).
        raise LogError("bad-header", _("{name}: the header is malformed: {problem}").format(name=name, problem=exc), 0) from None
    if not isinstance(header, LogHeader):
        # Translators: {name} is a file's name.
        raise LogError("bad-header", _("{name}: the first record is not a header").format(name=name), 0)
    return header


def _replay_entry(game: Game, header: LogHeader, record: Record, name: str) -> LogEntry:
    seq = record.index
    try:
        entry = unpack(record.body, format=header.format)
    except LogFormatError as exc:
        # Translators: {name} is a file's name, {seq} a move's number; {problem} says what is wrong (in the file
        # format's terms, English).
        raise LogError("bad-record", _("{name}: the record of seq {seq} is malformed: {problem}").format(
            name=name, seq=seq, problem=exc), seq) from None
    if not isinstance(entry, LogEntry):
        # Translators: {name} is a file's name, {seq} a move's number.
        raise LogError("bad-record", _("{name}: the record of seq {seq} is not an entry").format(name=name, seq=seq), seq)
    if entry.seq != seq:
        # Translators: {name} is a file's name; {seq} and {other} are moves' numbers.
        raise LogError("out-of-sequence", _("{name}: record {seq} carries seq {other}").format(
            name=name, seq=seq, other=entry.seq), seq)
    try:
        apply_entry(game, header, entry)
    except LogError as exc:
        raise LogError(exc.reason, f"{name}: {exc}", exc.seq) from None
    return entry


def apply_entry(game: Game, header: LogHeader, entry: LogEntry) -> list[Event]:
    """Checks *entry* as the next entry of *game* (the game of *header*) and applies it
    (``protocol/log.md`` §8 step 6); returns the engine's events.

    In order: its ``seq`` is the next one; its signature (in a game whose header has keys, the
    entry's ``sig`` must verify under its seat's key over
    :func:`~carcnet.log.signatures.entry_bytes`; in a game without keys it has none; a table draw
    has none, its values being checked against the seats' chains by the engine); its ``seat``
    is the seat whose turn it is; the engine accepts the move; the engine's digest after it is the
    entry's. This is the order of ``protocol/wire.md`` §5.4, so a peer and a reader agree on why an
    entry is refused.

    Raises:
        LogError: ``"out-of-sequence"``, ``"bad-signature"``, ``"forged-seat"``, ``"illegal-move"``
            (the engine's reason in the message): *game* is unchanged. ``"chain-broken"``: the move
            was applied but the digest differs from the entry's. ``seq`` is the entry's.

    Warning:
        After ``"chain-broken"`` the game holds a move its log does not: rebuild it from the log.
    """
    seq = entry.seq
    expected = len(game.moves) + 1
    if seq != expected:
        raise LogError("out-of-sequence", f"the next entry is seq {expected}, not {seq}", expected)
    move = entry.move
    author, signer = game.author(move)  # log.md §6: the seat to play, or a handover's or handback's maker
    if type(move) is DrawTile:  # log.md §6: a draw's values prove themselves against the chains
        if entry.sig is not None:
            raise LogError("bad-signature", f"seq {seq} is a table draw: it carries no signature", seq)
    elif entry.seat < len(header.seats):  # a seat the game does not have is a forged seat, below
        _check_signature(header, entry, signer if entry.seat == author else game.signer(entry.seat))
    if entry.seat != author:
        why = {HandOver: f"it names seat {author}", HandBack: f"seat {author} runs its bot"}.get(
            type(move), f"it was seat {author}'s turn"
        )
        raise LogError("forged-seat", f"seq {seq} claims seat {entry.seat} made {move}, but {why}", seq)
    try:
        events = game.apply(entry.move)
    except IllegalMoveError as exc:
        raise LogError("illegal-move", f"seq {seq}: illegal move ({exc.reason}): {exc}", seq) from None
    digest = game.digest
    if digest != entry.digest:
        raise LogError(
            "chain-broken",
            f"the chain breaks at seq {seq} ({entry.move}): the stored digest "
            f"{entry.digest.hex()[:16]}… differs from the replayed {digest.hex()[:16]}…",
            seq,
        )
    return events


def _check_signature(header: LogHeader, entry: LogEntry, signer: int) -> None:
    """``protocol/log.md`` §6: ``sig`` is given exactly in a signed game, and verifies under the key
    of *signer* (the entry's seat, or the seat that took it over with a ``handover``; for a ``handover``
    or a ``handback``, the seat that makes it)."""
    seq = entry.seq
    if header.keys is None:
        if entry.sig is not None:
            raise LogError(
                "bad-signature",
                f"seq {seq} carries a signature, but the game has no seat keys to check it with",
                seq,
            )
        return
    if entry.sig is None:
        raise LogError(
            "bad-signature", f"seq {seq} has no signature, but every entry of this game is signed", seq
        )
    if not verify_entry(header.keys[signer], header.game, entry, entry.sig):
        whose = f"seat {entry.seat}'s" if signer == entry.seat else f"seat {signer}'s (for seat {entry.seat})"
        raise LogError(
            "bad-signature",
            f"seq {seq}: the signature is not {whose} over this entry ({entry.move})",
            seq,
        )


# ---------------------------------------------------------------------- writing


class LogWriter:
    """Appends the records of one game to its ``.carclog`` file (``protocol/log.md`` §9).

    Lifecycle: :meth:`create` (new file: magic and header, fsynced with its directory) or
    :meth:`append_to` (a loaded, undamaged file); then :meth:`append` once per move; then
    :meth:`close` (or use it as a context manager). The file is opened for appending only. Entries
    are written in the format of the file's header, so a format-1 file stays format 1.

    Warning:
        After an :meth:`append` fails, part of the record may be on disk: the writer refuses further
        appends (``LogError`` ``"writer-broken"``). Load the file again to learn what it holds.

    Attributes:
        path: The file.
        next_seq: The ``seq`` the next entry must carry.
        format: The log format of the file (its header's): entries are packed in it.
    """

    def __init__(self, file: BinaryIO, path: Path, next_seq: int, format: int = FORMAT_VERSION,
                 lock: SaveLock | None = None) -> None:
        self._file = file
        self.path = path
        self.next_seq = next_seq
        self.format = format
        self._broken = False
        self._lock = lock
        self._taken_back_from: int | None = None  # the file's size before the last record (take_back)
        self._written = 0  # records written since the file was opened …
        self._synced = 0  # … and how many of them an fsync has made durable
        self._sync_lock = threading.Lock()  # :meth:`sync` may run in a worker thread; close waits for it

    @classmethod
    def create(cls, path: str | os.PathLike[str], header: LogHeader) -> LogWriter:
        """Creates *path* (and its parent directories), writes the magic and the header record,
        fsyncs the file and its directory.

        Raises:
            LogError: ``"exists"``: there is already a file at *path*, or a symbolic link (a log is
                never overwritten, nor made through a link); ``"locked"``: another process took the new
                file first (:class:`~carcnet.log.lock.SaveLock`).
            OSError: The file cannot be created or written.
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            file = open(path, "xb")  # noqa: SIM115 - the writer owns the file until close(); O_EXCL: no link followed
        except FileExistsError:
            # Translators: {path} is a file.
            raise LogError("exists", _("{path} exists already: a log is never overwritten").format(path=path)) from None
        try:
            lock = SaveLock.hold(file.fileno(), path)  # the lock is the file's, whatever names it later
        except BaseException:
            file.close()
            raise
        try:
            file.write(MAGIC + encode_record(pack(header)))
            file.flush()
            os.fsync(file.fileno())
        except BaseException:
            file.close()
            lock.release()
            raise
        fsync_directory(path.parent)
        return cls(file, path, 1, header.format, lock)

    @classmethod
    def append_to(cls, loaded: LoadedLog, lock: SaveLock | None = None) -> LogWriter:
        """Opens the file of *loaded* to append its next entries, holding its *lock* (taken here when
        not given: take it before loading, so that nobody writes between the two).

        Raises:
            LogError: ``"changed"``: the log had damage (see :mod:`carcnet.log.recorder` for
                repairing it), the file's size differs from what was loaded, or its path names
                another file than the one *lock* holds; ``"locked"``: another process writes it
                (through this path or any other link to the file).
            OSError: The file cannot be opened.
        """
        if loaded.damage is not None:
            # Translators: {name} is a file's name.
            raise LogError("changed", _("{name} ends in a damaged record: repair it before appending").format(
                name=loaded.path.name))
        lock = lock if lock is not None else SaveLock.acquire(loaded.path)
        try:
            file = open(loaded.path, "ab")  # noqa: SIM115
        except BaseException:
            lock.release()
            raise
        if os.fstat(file.fileno()).st_size != loaded.valid_size or not lock.covers(file.fileno()):
            file.close()
            lock.release()
            # Translators: {name} is a file's name.
            raise LogError("changed", _("{name} changed since it was loaded: load it again").format(name=loaded.path.name))
        return cls(file, loaded.path, len(loaded.entries) + 1, loaded.header.format, lock)

    def append(self, entry: LogEntry, *, sync: bool = True) -> None:
        """Writes one entry record, flushes and fsyncs it; returns once it is on disk.

        With ``sync=False`` the record is written to the operating system (a crash of this program
        cannot lose it) but not fsynced: a power loss can, until :meth:`sync` (or :meth:`close`)
        returns. A LAN peer writes the entries it receives this way (``protocol/log.md`` §9).

        Raises:
            ValueError: ``entry.seq`` is not :attr:`next_seq`.
            LogFormatError: A signed entry for a format-1 file (nothing is written).
            LogError: ``"writer-broken"``: an earlier append failed.
            OSError: The write or the fsync failed; the writer is then broken.
        """
        if self._broken:
            # Translators: {name} is a file's name.
            raise LogError("writer-broken", _("{name}: an earlier write failed; load the log again to continue").format(
                name=self.path.name))
        if entry.seq != self.next_seq:
            raise ValueError(f"the next entry is seq {self.next_seq}, not {entry.seq}")
        record = encode_record(pack(entry, format=self.format))
        try:
            self._file.flush()
            size = os.fstat(self._file.fileno()).st_size
            self._file.write(record)
            self._file.flush()
            self._taken_back_from = size
        except BaseException:
            self._broken = True
            raise
        self._written += 1
        self.next_seq += 1
        if sync:
            self.sync()

    def sync(self) -> None:
        """Makes every record written so far durable (one fsync, none when they are already). Safe to
        call from a worker thread while this thread appends: what was written before the call is
        covered.

        Raises:
            OSError: The fsync failed; the writer is then broken.
        """
        with self._sync_lock:
            written = self._written
            if self._synced >= written or self._file.closed:
                return
            try:
                os.fsync(self._file.fileno())
            except BaseException:
                self._broken = True
                raise
            self._synced = written

    def take_back(self, seq: int) -> None:
        """Removes the last entry written, *seq*, from the file (truncated to its size before it, and
        fsynced): only a table draw that a signed ``handover`` for the same seq beat (wire.md §5.7 "A
        draw racing a handover"), the one case where a peer's last entry is not final.

        Raises:
            ValueError: *seq* is not the last entry this writer wrote.
            OSError: The truncation failed; the writer is then broken.
        """
        if seq != self.next_seq - 1 or self._taken_back_from is None or self._broken:
            raise ValueError(f"seq {seq} is not the last entry written here")
        with self._sync_lock:
            try:
                self._file.flush()
                os.ftruncate(self._file.fileno(), self._taken_back_from)
                self._file.seek(self._taken_back_from)  # a file not opened to append writes where it is
                os.fsync(self._file.fileno())
            except BaseException:
                self._broken = True
                raise
            self._written -= 1
            self._synced = min(self._synced, self._written)
        self.next_seq -= 1
        self._taken_back_from = None

    def rewrite(self, header: LogHeader, entries: Sequence[LogEntry]) -> None:
        """Replaces the file by one holding *header* and *entries* (the first entries of the log, as
        they are), written beside it, fsynced and renamed over it, then goes on appending after them:
        a LAN peer whose pending entries the table replaced by committed ones (``protocol/wire.md``
        §5.9; they were saved in the side file first). A crash leaves either file whole.

        Raises:
            ValueError: An entry out of sequence.
            OSError: The file could not be written; the writer is then broken.
        """
        if any(entry.seq != seq for seq, entry in enumerate(entries, 1)):
            raise ValueError("the entries kept are seq 1, 2, … in order")
        data = MAGIC + encode_record(pack(header)) + b"".join(
            encode_record(pack(entry, format=self.format)) for entry in entries
        )
        temporary = self.path.with_name(self.path.name + ".rewrite")
        with self._sync_lock:
            try:
                with open(temporary, "wb") as file:
                    file.write(data)
                    file.flush()
                    os.fsync(file.fileno())
                self._file.close()
                os.replace(temporary, self.path)
                fsync_directory(self.path.parent)
                self._file = open(self.path, "ab")  # noqa: SIM115 - the writer owns the file until close()
            except BaseException:
                self._broken = True
                raise
            self._written = self._synced = 0
        self.next_seq = len(entries) + 1
        self._taken_back_from = None

    @property
    def unsynced(self) -> int:
        """How many records are written but not yet made durable by :meth:`sync`."""
        return self._written - self._synced

    @property
    def broken(self) -> bool:
        """Whether an append failed (no more appends are accepted)."""
        return self._broken

    def close(self) -> None:
        """Makes every appended record durable, closes the file and lets another writer have it.

        Raises:
            OSError: The last fsync failed (the file is closed all the same).
        """
        try:
            if not self._broken:
                self.sync()
        finally:
            with self._sync_lock:
                self._file.close()
            if self._lock is not None:
                self._lock.release()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
