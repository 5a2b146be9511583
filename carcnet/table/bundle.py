"""Provides bug reports: one zip file that holds what it takes to replay a game a player had trouble
with (``docs/bug-reports.md``), written by ``carcnet report`` and the interface's F12, read back by
``carcnet verify`` and the tests.

A report (:func:`write_bundle`) is ``carcnet-report-<game id 8>-<UTC YYYYmmdd-HHMMSS>.zip``, made with
the standard library's :mod:`zipfile` (deflated), holding:

==========================  ==============================================================================
``manifest.json``           what the report is (:data:`FORMAT`), the versions (carcnet, Python, platform,
                            textual, zeroconf, msgpack, cryptography, rich, platformdirs), the command
                            line, when (UTC), the game id, the person's note, the save's name, size,
                            SHA-256 and verdict when read, which members follow, and from a running table
                            what it held in memory (``table``: moves, digest, status, presence, notes, the
                            stop's evidence)
``save.carclog``            the save, byte for byte as on disk (``protocol/log.md``)
``save.aside``              the side file beside the save (``<save>.aside``), if any: entries a healed
                            split set aside, never part of the game (:mod:`carcnet.log.aside`)
``connections.jsonl``       a running network table's connection log in memory, one JSON line per event
                            (:func:`~carcnet.table.eventfile.event_map`)
``connections-saved.jsonl`` the connection log kept beside the save (:mod:`carcnet.table.eventfile`)
``settings.json``           the interface's settings, without any field named like key material
``program.log``             the newest 256 KiB of ``carcnet.log`` in the save's folder
``screen.svg``              from the interface: the screen as an SVG …
``screen.txt``              … and as plain text
==========================  ==============================================================================

Never in a report: the keys file beside the save (``<save>.keys``: the private seat and identity keys)
or anything read from it. A report is read back with :func:`read_bundle` (every member bounded in
size) and checked with :func:`check_bundle`: the save replayed through the engine as ``carcnet
verify`` does, the side file's runs checked on it, the table's digest compared with the save's, and the entry that
stopped a network game applied again to the save's game, so that a desync a player hit is replayed.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import re
import sys
import tempfile
import time
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from carcnet import __version__
from carcnet.engine import Game, Phase
from carcnet.i18n import _
from carcnet.log import (
    MAGIC,
    MARK,
    LoadedLog,
    LogEntry,
    LogError,
    LogFormatError,
    LogHeader,
    apply_entry,
    load,
    pack,
    summarize,
    unpack,
)
from carcnet.log.aside import AsideRun, aside_path, check_aside

from .eventfile import event_map, events_path

if TYPE_CHECKING:
    from carcnet.net.connections import NetEvent

    from .base import Table

__all__ = [
    "FORMAT",
    "MAX_MEMBER",
    "MAX_TOTAL",
    "REPORTS",
    "Bundle",
    "BundleCheck",
    "BundleError",
    "Screen",
    "StopCheck",
    "bundle_name",
    "check_bundle",
    "is_bundle",
    "latest_save",
    "read_bundle",
    "write_bundle",
]

#: The version of the report's layout (``manifest.json`` ``format``); a reader refuses a newer one.
FORMAT = 1

#: The folder reports are written to, in the saved-games folder (F12 in a game and ``carcnet report``).
REPORTS = "reports"
MANIFEST, SAVE, ASIDE = "manifest.json", "save.carclog", "save.aside"
CONNECTIONS, CONNECTIONS_SAVED = "connections.jsonl", "connections-saved.jsonl"
SETTINGS, PROGRAM_LOG, SCREEN_SVG, SCREEN_TEXT = "settings.json", "program.log", "screen.svg", "screen.txt"
#: The newest bytes of the program's log a report takes.
PROGRAM_LOG_BYTES = 256 * 1024
#: The most bytes a member may hold when a report is read back (a save of a whole game is far less).
MAX_MEMBER = 16 * 1024 * 1024
#: The most bytes the members a reader takes may hold together, uncompressed (whatever the zip says).
MAX_TOTAL = 32 * 1024 * 1024
#: The most files a report may list (it holds nine at most; the others are never read).
MAX_MEMBERS = 64
#: The most bytes ``manifest.json`` may hold.
MAX_MANIFEST = 1024 * 1024
#: The deepest nesting of JSON arrays and objects in ``manifest.json`` (a report's is 4 deep).
MAX_NESTING = 16
#: The most moves a report's table may say it held (a game of every expansion is far fewer).
MAX_MOVES = 100_000
#: The members a reader takes; any other file in a report is listed, never read.
KNOWN = (MANIFEST, SAVE, ASIDE, CONNECTIONS, CONNECTIONS_SAVED, SETTINGS, PROGRAM_LOG, SCREEN_SVG, SCREEN_TEXT)
#: The packages whose versions a report names.
PACKAGES = ("textual", "zeroconf", "msgpack", "cryptography", "rich", "platformdirs")
#: Settings fields left out of a report: anything named like key material.
_SECRET = re.compile(r"key|secret|seed|private|token|password", re.IGNORECASE)


class BundleError(Exception):
    """A file is not a bug report this carcnet reads, or a save cannot be put in one. The text says why."""


@dataclass(frozen=True, slots=True)
class Screen:
    """The screen when the report was asked for: an SVG (``App.export_screenshot``) and plain text."""

    svg: str
    text: str | None = None


# ---------------------------------------------------------------------------------------- writing


def bundle_name(game: str | None, when: float) -> str:
    """The report's file name: ``carcnet-report-<game id 8>-<UTC YYYYmmdd-HHMMSS>.zip`` (``unknown``
    for a save whose header cannot be read); *when* in seconds since the Unix epoch."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(when))
    return f"carcnet-report-{(game or 'unknown')[:8]}-{stamp}.zip"


def latest_save(folder: Path) -> Path | None:
    """The save of *folder* written last (by modification time), ``None`` when it holds none."""
    saves = [p for p in folder.glob("*.carclog") if p.is_file()] if folder.is_dir() else []
    return max(saves, key=lambda p: (p.stat().st_mtime, p.name), default=None)


def write_bundle(
    save: Path,
    directory: Path,
    *,
    note: str = "",
    settings: Mapping[str, Any] | None = None,
    screen: Screen | None = None,
    table: Table | None = None,
    command: Sequence[str] | None = None,
    origin: str = "command line",
    now: float | None = None,
) -> Path:
    """Writes a bug report of the game saved at *save* into *directory* (made if needed); returns its path.

    Args:
        save: The save (read byte for byte; it may be damaged or refused: that is worth reporting).
        directory: Where the report goes.
        note: What the person says happened.
        settings: The interface's settings (``Settings.to_json()``); fields named like key material are
            left out.
        screen: The screen, from the interface.
        table: The running table the save belongs to: what it holds in memory goes in too.
        command: The command line (default ``sys.argv``).
        origin: ``"command line"`` or ``"interface"``.
        now: Seconds since the Unix epoch (default: now).

    Raises:
        BundleError: *save* cannot be read, or is not a carcnet save.
        OSError: The report cannot be written.
    """
    try:
        data = save.read_bytes()
    except OSError as exc:
        # Translators: {path} is a file, {reason} why it cannot be read (from the system).
        raise BundleError(_("cannot read {path}: {reason}").format(path=save, reason=exc.strerror or exc)) from None
    if not data.startswith(MAGIC):
        # Translators: {path} is a file; {mark} is "the word CARCLOG and a line break".
        raise BundleError(_("{path} is not a carcnet save: it does not begin as one does, with {mark}").format(
            path=save, mark=_(MARK)))
    now = time.time() if now is None else now
    header = _header_of(save)
    members: dict[str, bytes] = {SAVE: data}
    aside = aside_path(save)
    if aside.is_file():
        members[ASIDE] = _read(aside)
    if table is not None and (events := _live_events(table)) is not None:
        members[CONNECTIONS] = events
    saved_events = events_path(save)
    if saved_events.is_file():
        members[CONNECTIONS_SAVED] = _read(saved_events)
    if settings is not None:
        members[SETTINGS] = (json.dumps(_without_secrets(settings), indent=2) + "\n").encode()
    program_log = save.parent / "carcnet.log"
    if program_log.is_file():
        members[PROGRAM_LOG] = _read(program_log, PROGRAM_LOG_BYTES)
    if screen is not None:
        members[SCREEN_SVG] = screen.svg.encode()
        if screen.text is not None:
            members[SCREEN_TEXT] = screen.text.encode()
    manifest: dict[str, Any] = {
        "format": FORMAT,
        "what": "carcnet bug report",
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now)),
        "origin": origin,
        "note": note,
        "carcnet": __version__,
        "python": f"{platform.python_version()} ({platform.python_implementation()})",
        "platform": platform.platform(),
        "packages": {name: _version(name) for name in PACKAGES},
        "command": list(sys.argv if command is None else command),
        "game": header.game if header is not None else None,
        "save": {"name": save.name, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(),
                 "verdict": _verdict(save)},
        "members": sorted(members),
        "table": _table_state(table, header) if table is not None else None,
    }
    directory.mkdir(parents=True, exist_ok=True)
    return _write_zip(directory, bundle_name(manifest["game"], now), now, manifest, members)


def _write_zip(directory: Path, name: str, now: float, manifest: dict[str, Any], members: dict[str, bytes]) -> Path:
    """Creates the zip exclusively (never over another file: ``-2``, ``-3``, … when the name is taken)."""
    stem = name.removesuffix(".zip")
    for n in range(1, 101):
        path = directory / (name if n == 1 else f"{stem}-{n}.zip")
        try:
            archive = zipfile.ZipFile(path, "x", compression=zipfile.ZIP_DEFLATED)
        except FileExistsError:
            continue
        try:
            with archive:
                stamp = time.gmtime(now)[:6]
                archive.writestr(zipfile.ZipInfo(MANIFEST, stamp), json.dumps(manifest, indent=2) + "\n",
                                 compress_type=zipfile.ZIP_DEFLATED)
                for member, body in sorted(members.items()):
                    archive.writestr(zipfile.ZipInfo(member, stamp), body, compress_type=zipfile.ZIP_DEFLATED)
        except BaseException:
            path.unlink(missing_ok=True)
            raise
        return path
    # Translators: {directory} is a folder, {name} a report's file name.
    raise OSError(_("{directory} holds 100 reports named {name} already").format(directory=directory, name=name))


def _read(path: Path, limit: int | None = None) -> bytes:
    """The bytes of *path* (its newest *limit* bytes, from a line's start, when given); empty when it
    cannot be read (a report is still worth writing without it)."""
    try:
        with open(path, "rb") as file:
            if limit is not None and file.seek(0, os.SEEK_END) > limit:
                file.seek(-limit, os.SEEK_END)
                data = file.read()
                return data[data.find(b"\n") + 1 :]
            file.seek(0)
            return file.read()
    except OSError:
        return b""


def _header_of(save: Path) -> LogHeader | None:
    try:
        return summarize(save).header
    except (LogError, OSError):
        return None


def _verdict(save: Path) -> str:
    """What ``carcnet verify`` would say of *save*, in a line."""
    try:
        loaded = load(save)
    except LogError as exc:
        return f"refused: {exc}"
    if loaded.damage is not None:
        return f"damaged: {loaded.damage.message}"
    return f"ok: {_summary(loaded.game)}"


def _summary(game: Game) -> str:
    state = "finished" if game.phase is Phase.GAME_OVER else "unfinished"
    return f"{len(game.moves)} moves ({state}), digest {game.digest.hex()}"


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def _without_secrets(value: Any) -> Any:
    """*value* (JSON data) without any map field whose name looks like key material, at any depth."""
    if isinstance(value, Mapping):
        return {str(k): _without_secrets(v) for k, v in value.items() if not _SECRET.search(str(k))}
    if isinstance(value, (list, tuple)):
        return [_without_secrets(v) for v in value]
    return value


def _live_events(table: Table) -> bytes | None:
    """A network table's connection log in memory as JSON lines; ``None`` for a local table."""
    from .netview import NetView

    if not isinstance(table, NetView):
        return None
    session = table.session
    now, wall = session.clock(), time.time()
    events: Iterable[NetEvent] = list(session.connections.events)
    return "".join(json.dumps(event_map(e, wall - (now - e.time)), ensure_ascii=False) + "\n"
                   for e in events).encode()


def _table_state(table: Table, header: LogHeader | None) -> dict[str, Any]:
    """What *table* holds in memory: its game (moves and digest), status, presence, notes, its stop."""
    game = table.game
    desync = table.desync
    form = header.format if header is not None else None
    stop = None
    if desync is not None:
        stop = {
            "code": desync.code, "seq": desync.seq, "seat": desync.seat, "peer": desync.peer,
            "peer_key": desync.peer_key.hex(), "local": desync.local, "message": desync.message,
            "ours": _entry_hex(desync.ours.entry if desync.ours is not None else None, form),
            "theirs": _entry_hex(desync.theirs.entry, form),
        }
    return {
        "kind": table.kind,
        "status": table.status,
        "moves": len(game.moves) if game is not None else None,
        "digest": game.digest.hex() if game is not None else None,
        "away": table.away() if game is not None else [],
        "cut_off": table.cut_off,
        "failure": table.failure,
        "notes": list(table.notes),
        "stop": stop,
    }


def _entry_hex(entry: LogEntry | None, form: int | None) -> str | None:
    """An entry as the hex of its log record's body (``protocol/log.md`` §6) in the save's format."""
    if entry is None or form is None:
        return None
    return pack(entry, format=form).hex()


# ---------------------------------------------------------------------------------------- reading


@dataclass(frozen=True, slots=True)
class Bundle:
    """A bug report read back: its manifest and its members' bytes, by name.

    Attributes:
        path: The zip file.
        manifest: ``manifest.json``, every field a reader uses in its shape (one that is not is
            dropped: ``None``, and named in :attr:`problems`).
        members: The members a reader takes (:data:`KNOWN`), by name.
        problems: One line for each field of the manifest dropped for its shape or range.
    """

    path: Path
    manifest: dict[str, Any]
    members: dict[str, bytes]
    problems: tuple[str, ...] = ()


def is_bundle(path: str | os.PathLike[str]) -> bool:
    """Whether *path* is a zip file (a bug report, or meant to be one), not a save (a save starts with
    the log's magic, whatever bytes its records hold)."""
    try:
        with open(path, "rb") as file:
            if file.read(len(MAGIC)) == MAGIC:
                return False
        return zipfile.is_zipfile(path)
    except OSError:
        return False


def read_bundle(path: str | os.PathLike[str]) -> Bundle:
    """Reads a bug report within fixed bounds, whatever the zip holds or says of itself: at most
    :data:`MAX_MEMBERS` files listed, only the :data:`KNOWN` ones read, each at most :data:`MAX_MEMBER`
    bytes uncompressed and all together :data:`MAX_TOTAL` (counted as they are inflated, not as the zip
    declares), ``manifest.json`` at most :data:`MAX_MANIFEST` bytes and :data:`MAX_NESTING` deep; the
    manifest's fields a reader uses checked for their shape and range (:attr:`Bundle.problems`).

    Raises:
        BundleError: Not a zip, a bound broken, no manifest or a manifest that is not one, a newer
            :data:`FORMAT`, or no save inside. The text is one line.
    """
    path = Path(path)
    members: dict[str, bytes] = {}
    left = MAX_TOTAL
    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
            if len(infos) > MAX_MEMBERS:
                raise BundleError(f"{path.name} holds {len(infos)} files: not a carcnet bug report")
            for info in infos:
                if info.filename not in KNOWN:
                    continue  # never read: a report holds only the known members
                if info.filename in members:
                    raise BundleError(f"{path.name} holds {info.filename} twice: not a carcnet bug report")
                limit = min(MAX_MANIFEST if info.filename == MANIFEST else MAX_MEMBER, left)
                if info.file_size > limit:
                    raise BundleError(_too_large(path, info.filename, limit, left))
                with archive.open(info) as member:
                    body = member.read(limit + 1)
                if len(body) > limit:
                    raise BundleError(_too_large(path, info.filename, limit, left))
                left -= len(body)
                members[info.filename] = body
    except (OSError, EOFError, zipfile.BadZipFile, zipfile.LargeZipFile, RuntimeError, NotImplementedError,
            ValueError) as exc:
        raise BundleError(f"cannot read {path.name} as a zip file: {exc}"[:300]) from None
    try:
        raw = members.pop(MANIFEST)
    except KeyError:
        raise BundleError(f"{path.name} has no {MANIFEST}: not a carcnet bug report") from None
    depth = _nesting(raw)
    if depth > MAX_NESTING:
        raise BundleError(f"{path.name}: {MANIFEST} nests {depth} deep (at most {MAX_NESTING}): not a carcnet bug report")
    try:
        manifest = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise BundleError(f"{path.name}: {MANIFEST} is not JSON ({str(exc)[:120]})") from None
    if not isinstance(manifest, dict) or type(manifest.get("format")) is not int:
        raise BundleError(f"{path.name}: {MANIFEST} does not say its format: not a carcnet bug report")
    if manifest["format"] > FORMAT or manifest["format"] < 1:
        raise BundleError(f"{path.name} is a report of format {manifest['format']}"[:120] + f"; this carcnet reads {FORMAT}")
    if SAVE not in members:
        raise BundleError(f"{path.name} holds no save ({SAVE})")
    manifest, problems = _checked_manifest(manifest)
    return Bundle(path, manifest, members, tuple(problems))


def _too_large(path: Path, member: str, limit: int, left: int) -> str:
    if limit < left or left == MAX_TOTAL:
        return f"{path.name}: {member} is larger than {limit} bytes"
    return f"{path.name}: its files hold more than {MAX_TOTAL} bytes together"


def _nesting(raw: bytes) -> int:
    """The deepest nesting of arrays and objects in JSON text *raw* (brackets outside strings),
    counted without parsing, in one pass."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_NESTING:
                    return deepest
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


_HEX_DIGEST = re.compile(r"[0-9a-f]{64}")



def _sub_map(parent: dict[str, Any], key: str, label: str, problems: list[str]) -> dict[str, Any] | None:
    """*parent*'s map at *key* as a copy put back in its place, or ``None`` when it is absent or no map
    (then one line of *problems* names it as *label*, and the field is ``None``)."""
    value = parent.get(key)
    if value is None:
        return None
    if not isinstance(value, dict):
        problems.append(f"{label}: a map, not {type(value).__name__}")
        parent[key] = None
        return None
    copy: dict[str, Any] = dict(value)
    parent[key] = copy
    return copy

def _checked_manifest(manifest: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """*manifest* with each field a reader uses in its shape and range, and one line for each that is
    not (dropped: ``None``). Text fields are cut and rid of control characters, so that printing them
    cannot drive the terminal."""
    from carcnet.log.values import strip_control

    problems: list[str] = []
    out = dict(manifest)

    def text(where: dict[str, Any], field: str, name: str, limit: int) -> None:
        value = where.get(field)
        if value is None:
            return
        if not isinstance(value, str):
            problems.append(f"{name}: text, not {type(value).__name__}")
            where[field] = None
        elif len(value) > limit or strip_control(value) != value:
            problems.append(f"{name}: cut to {limit} characters, control characters left out")
            where[field] = strip_control(value)[:limit]

    for field, limit in (("what", 80), ("created", 40), ("origin", 40), ("note", 2000), ("carcnet", 40),
                         ("python", 80), ("platform", 200), ("game", 64)):
        text(out, field, field, limit)
    save = out.get("save")
    if save is not None and not isinstance(save, dict):
        problems.append(f"save: a map, not {type(save).__name__}")
        out["save"] = None
    table = _sub_map(out, "table", "table", problems)
    if table is None:
        return out, problems
    moves = table.get("moves")
    if moves is not None and not (type(moves) is int and 0 <= moves <= MAX_MOVES):
        problems.append(f"table.moves: a count from 0 to {MAX_MOVES}, not {_shown(moves)}")
        table["moves"] = None
    digest = table.get("digest")
    if digest is not None and not (isinstance(digest, str) and _HEX_DIGEST.fullmatch(digest)):
        problems.append(f"table.digest: 64 lowercase hex digits, not {_shown(digest)}")
        table["digest"] = None
    stop = _sub_map(table, "stop", "table.stop", problems)
    if stop is None:
        return out, problems
    code, seq, theirs = stop.get("code"), stop.get("seq"), stop.get("theirs")
    if not (isinstance(code, str) and re.fullmatch(r"[a-z-]{1,32}", code)):
        problems.append(f"table.stop.code: a word, not {_shown(code)}")
        table["stop"] = None
    if not (type(seq) is int and 1 <= seq <= MAX_MOVES + 1):
        problems.append(f"table.stop.seq: a seq from 1 to {MAX_MOVES + 1}, not {_shown(seq)}")
        table["stop"] = None
    if not (isinstance(theirs, str) and len(theirs) <= 2 * 65536 and re.fullmatch(r"(?:[0-9a-f]{2})*", theirs)):
        problems.append(f"table.stop.theirs: an entry in hex (at most 64 KiB), not {_shown(theirs)}")
        table["stop"] = None
    return out, problems


def _shown(value: object) -> str:
    """*value* for an error line: its JSON, cut to 40 characters."""
    text = json.dumps(value)
    return text if len(text) <= 40 else f"{text[:40]}… ({len(text)} characters)"


@dataclass(frozen=True, slots=True)
class StopCheck:
    """The entry that stopped a network game, applied again to the save's game.

    Attributes:
        code: The stop's code (``"desync"``, ``"conflict"``).
        seq: Its seq.
        error: Why the save's game refuses the entry (the stop replayed), or ``None`` when it takes it.
        text: One line for people.
    """

    code: str
    seq: int
    error: LogError | None
    text: str

    @property
    def reproduced(self) -> bool:
        """Whether replaying the report gives the stop again: the entry refused, or for a
        ``conflict`` two different entries at one seq."""
        return self.error is not None or self.code == "conflict"


@dataclass(frozen=True, slots=True)
class BundleCheck:
    """A bug report checked (:func:`check_bundle`).

    Attributes:
        bundle: The report.
        loaded: The save replayed through the engine, or ``None`` when it was refused.
        refused: Why the save was refused, else ``None``.
        aside: The side file's runs, each checked on the save (``carcnet.log.aside.check_aside``);
            ``None`` without a side file or a save that loaded.
        aside_problem: Why the side file cannot be read, else ``None``.
        disagreement: How the running table's game differed from the save's, else ``None``.
        stop: The stop of a network game, replayed; ``None`` when the table had not stopped.
    """

    bundle: Bundle
    loaded: LoadedLog | None
    refused: LogError | None
    aside: list[AsideRun] | None
    aside_problem: str | None = None
    disagreement: str | None = None
    stop: StopCheck | None = None


def check_bundle(path: str | os.PathLike[str]) -> BundleCheck:
    """Reads a bug report and replays it: the save through the engine (``carcnet.log.load``), the
    side file's entries listed, the table's digest compared with the save's at the same move, and the
    entry that stopped the game applied to the save's game before its seq.

    Raises:
        BundleError: The file is not a report (:func:`read_bundle`).
    """
    bundle = read_bundle(path)
    name = _save_name(bundle.manifest)
    aside: list[AsideRun] | None = None
    aside_problem = None
    with tempfile.TemporaryDirectory(prefix="carcnet-report-") as folder:
        copy = Path(folder) / name
        copy.write_bytes(bundle.members[SAVE])
        try:
            loaded: LoadedLog | None = load(copy)
            refused = None
        except LogError as exc:
            loaded, refused = None, exc
        if loaded is not None and ASIDE in bundle.members:
            aside_path(copy).write_bytes(bundle.members[ASIDE])
            try:
                aside = check_aside(aside_path(copy), loaded.header, loaded.entries)
            except LogError as exc:
                aside_problem = str(exc)
    table = bundle.manifest.get("table")
    disagreement = stop = None
    if loaded is not None and isinstance(table, dict):
        disagreement = _compare(loaded, table)
        if isinstance(table.get("stop"), dict):
            stop = _replay_stop(loaded, table["stop"])
    return BundleCheck(bundle, loaded, refused, aside, aside_problem, disagreement, stop)


def _save_name(manifest: dict[str, Any]) -> str:
    """The save's file name as the manifest gives it (a bare name ending ``.carclog``), else ``save.carclog``."""
    save = manifest.get("save")
    name = save.get("name") if isinstance(save, dict) else None
    if isinstance(name, str) and re.fullmatch(r"[\w.-]{1,100}\.carclog", name) and not name.startswith("."):
        return name
    return SAVE


def _compare(loaded: LoadedLog, table: dict[str, Any]) -> str | None:
    """How the table's game (moves and digest in memory) differs from the save's, else ``None``."""
    moves, digest = table.get("moves"), table.get("digest")
    if type(moves) is not int or moves < 0 or not isinstance(digest, str):
        return None
    held = len(loaded.entries)
    if moves > held:
        return f"the table held {moves} moves, the save only {held}"
    ours = loaded.game.digests[moves].hex()
    if ours != digest:
        return f"at move {moves} the table's digest {digest[:16]}… differs from the save's {ours[:16]}…"
    return None


def _replay_stop(loaded: LoadedLog, stop: dict[str, Any]) -> StopCheck:
    """Applies the entry that stopped the game (``stop["theirs"]``) to the save's game before its seq."""
    code, seq = str(stop.get("code")), stop.get("seq")
    header = loaded.header
    try:
        theirs = unpack(bytes.fromhex(str(stop.get("theirs"))), format=header.format)
    except (ValueError, LogFormatError) as exc:
        return StopCheck(code, -1, None, f"the stop's entry cannot be read: {exc}")
    if not isinstance(theirs, LogEntry) or type(seq) is not int or seq < 1:
        return StopCheck(code, -1, None, "the stop's entry is not an entry")
    if seq - 1 > len(loaded.entries):
        return StopCheck(code, seq, None, f"{code} at seq {seq}: the save holds only {len(loaded.entries)} moves")
    game = Game(header.setup())
    for entry in loaded.entries[: seq - 1]:
        game.apply(entry.move)
    try:
        apply_entry(game, header, theirs)
    except LogError as exc:
        return StopCheck(code, seq, exc, f"{code} at seq {seq} replayed: the save's game refuses the entry "
                                         f"({exc.reason}): {exc}")
    if code == "conflict":
        return StopCheck(code, seq, None, f"conflict at seq {seq} replayed: two different entries signed "
                                          f"by seat {theirs.seat}, each legal there")
    return StopCheck(code, seq, None, f"{code} at seq {seq} not replayed: the save's game takes the entry")
