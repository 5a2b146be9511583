"""Provides :class:`GameRecorder`: a game whose every move is on disk before it counts
(``protocol/log.md`` §9).

A recorder holds a :class:`~carcnet.engine.Game` and the :class:`~carcnet.log.store.LogWriter` of its
file. :meth:`GameRecorder.submit` validates a move by applying it, appends the entry with fsync, and
only then returns: a crash loses at most the move being written. :meth:`GameRecorder.resume` continues
a saved game; a damaged tail is set aside, never rewritten in place.

In a signed game (a LAN game: the header has seat keys) the recorder signs the entries of the seats
it holds a key for (its *signers*), and takes the entries of the other seats, signed by their peers,
through :meth:`GameRecorder.append_signed`, which checks them as a reader would.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Self

from carcnet.engine import DrawTile, Event, Game, Move, replay
from carcnet.i18n import _

from .aside import append_aside
from .entries import LogEntry, LogHeader
from .errors import LogError
from .lock import SaveLock
from .signatures import Signer, entry_bytes, verify, verify_entry
from .store import Damage, LoadedLog, LogWriter, apply_entry, fsync_directory, load, new_path

__all__ = ["GameRecorder", "Recovery"]


@dataclass(frozen=True, slots=True)
class Recovery:
    """What :meth:`GameRecorder.resume` did with a log whose last record was damaged.

    Attributes:
        damage: The dropped record, as :func:`~carcnet.log.store.load` reported it.
        damaged_copy: Where the damaged file now lives, byte for byte as it was
            (``<name>.damaged-<n>`` beside it).
        message: One sentence for people.
    """

    damage: Damage
    damaged_copy: Path
    message: str


class GameRecorder:
    """A game being played and recorded: each move is applied, then appended and fsynced.

    Lifecycle: :meth:`create` (new game) or :meth:`resume` (saved game); :meth:`submit` once per
    move made here, :meth:`append_signed` once per entry made by another peer (or
    :meth:`append_admitted` for one the caller has just checked the same way); :meth:`close`. Read
    the game through :attr:`game`; change it only through those methods.

    Attributes:
        header: The log's header.
        entries: The entries on disk, ``seq`` 1, 2, … in order.
        game: The game after those entries. Replaced by a fresh replay when a write fails, so read it
            from the recorder rather than keeping it.
        writer: The file's writer.
        recovery: What :meth:`resume` did with a damaged tail, or ``None``.
        signers: Seat → what signs that seat's entries, in a signed game: the seats this recorder
            may :meth:`submit` for. Empty in a game without keys.
    """

    def __init__(
        self,
        header: LogHeader,
        writer: LogWriter,
        game: Game,
        entries: list[LogEntry],
        signers: Mapping[int, Signer] | None = None,
    ) -> None:
        self.header = header
        self.writer = writer
        self._game = game
        self._stale = False
        self.entries = entries
        self.recovery: Recovery | None = None
        self.signers: dict[int, Signer] = dict(signers or {})
        _check_signers(header, self.signers)

    @property
    def path(self) -> Path:
        """The log file."""
        return self.writer.path

    @property
    def game(self) -> Game:
        """The game after the entries on disk (replayed first if :meth:`append_admitted` left it behind)."""
        if self._stale:
            self._game = replay(self.header.setup(), [e.move for e in self.entries])
            self._stale = False
        return self._game

    @game.setter
    def game(self, game: Game) -> None:
        self._game = game
        self._stale = False

    @classmethod
    def create(
        cls,
        header: LogHeader,
        path: str | os.PathLike[str] | None = None,
        *,
        signers: Mapping[int, Signer] | None = None,
    ) -> GameRecorder:
        """Starts recording a new game at *path* (default: :func:`~carcnet.log.store.new_path` in the
        user data directory). In a signed game, *signers* maps each seat this recorder plays to what
        signs its entries (a ``carcnet.net.SeatKey``).

        Raises:
            ValueError: *signers* for a game without keys, for a seat the game does not have, or one
                that does not sign with its seat's key in the header (nothing is created).
            LogError: ``"exists"``: a file is already at *path*.
            OSError: The file cannot be created.
        """
        _check_signers(header, dict(signers or {}))
        target = Path(path) if path is not None else new_path(header)
        writer = LogWriter.create(target, header)
        return cls(header, writer, Game(header.setup()), [], signers)

    @classmethod
    def resume(
        cls, path: str | os.PathLike[str], *, signers: Mapping[int, Signer] | None = None
    ) -> GameRecorder:
        """Continues a saved game: loads and replays it, then opens it for appending.

        When the last record is damaged, the damaged file is kept untouched as ``<name>.damaged-<n>``
        (a hard link, or a copy where links are impossible) and the valid prefix replaces it at
        *path* through a new file (written, fsynced, then atomically renamed over it), so no file is
        ever rewritten in place; :attr:`recovery` says what was done. A file keeps its log format:
        a format-1 game goes on in format 1. *signers* as for :meth:`create`.

        Raises:
            LogError: The log is refused (see :func:`~carcnet.log.store.load`).
            ValueError: Bad *signers*, as for :meth:`create` (checked before anything is repaired).
            OSError: A file cannot be read, linked or written.
        """
        lock = SaveLock.acquire(path)  # before reading: nobody else writes between load and append
        try:
            loaded = load(path)
            _check_signers(loaded.header, dict(signers or {}))
            recovery = None
            if loaded.damage is not None:
                recovery = _set_damage_aside(loaded, loaded.damage, lock)
                loaded = load(loaded.path)
            writer = LogWriter.append_to(loaded, lock)
        except BaseException:
            lock.release()
            raise
        recorder = cls(loaded.header, writer, loaded.game, list(loaded.entries), signers)
        recorder.recovery = recovery
        return recorder

    def submit(self, move: Move) -> list[Event]:
        """Plays *move* for the seat whose turn it is and records it; returns the engine's events.
        In a signed game the entry is signed with that seat's signer.

        The move counts only once its entry is fsynced. If writing fails, :attr:`game` is rebuilt
        from the entries on disk (as if the move had not been made) and the error is raised.

        Raises:
            IllegalMoveError: The engine refuses the move; nothing is written.
            LogError: ``"no-key"``: a signed game and no signer for the seat to play (its entries
                come from its own peer, through :meth:`append_signed`); nothing is written.
                ``"bad-signature"``: the signer's signature does not verify (nothing is written).
                ``"writer-broken"``: an earlier write failed.
            OSError: The write failed (the writer is then broken: resume the log to continue).
        """
        game = self.game
        seat, signing_seat = game.author(move)
        signer = None
        if self.header.keys is not None and not isinstance(move, DrawTile):  # a draw is never signed
            signer = self.signers.get(signing_seat)
            if signer is None:
                raise LogError(
                    "no-key",
                    f"seat {seat} is to play, but this recorder holds no key for seat {seat}: "
                    "its entries come signed from its own peer",
                    len(self.entries) + 1,
                )
        events = game.apply(move)
        entry = LogEntry(len(self.entries) + 1, seat, move, game.digest)
        try:
            if signer is not None:
                entry = replace(entry, sig=signer.sign(entry_bytes(self.header.game, entry)))
                self._check_own(entry, signing_seat)
            self.writer.append(entry)
        except BaseException:
            self.game = replay(self.header.setup(), [e.move for e in self.entries])
            raise
        self.entries.append(entry)
        return events

    def append_signed(self, entry: LogEntry) -> list[Event]:
        """Records an entry made elsewhere (by another seat's peer) after checking it as a reader
        would (:func:`~carcnet.log.store.apply_entry`): the next seq, the signature under its seat's
        key (in a game without keys: no signature), the seat to play, the engine's legality, the
        digest. Returns the engine's events. The entry's signature is kept in the log, so that this
        peer can serve the entry to others.

        Raises:
            LogError: ``"out-of-sequence"``, ``"bad-signature"``, ``"forged-seat"``,
                ``"illegal-move"``, ``"chain-broken"`` (``seq`` = the entry's): nothing is written
                and :attr:`game` is as it was; ``"writer-broken"``: an earlier write failed.
            OSError: The write failed (as for :meth:`submit`).
        """
        try:
            events = apply_entry(self.game, self.header, entry)
            self.writer.append(entry)
        except LogError as exc:
            if exc.reason in ("chain-broken", "writer-broken"):
                self.game = replay(self.header.setup(), [e.move for e in self.entries])
            raise
        except BaseException:
            self.game = replay(self.header.setup(), [e.move for e in self.entries])
            raise
        self.entries.append(entry)
        return events

    def append_admitted(self, entry: LogEntry, *, sync: bool = True) -> None:
        """Records an entry the caller has just checked with :func:`~carcnet.log.store.apply_entry` on
        its own replica of this game (a LAN session does, ``carcnet.net.protocol.admit_entry``, or made
        and signed itself), without checking it a second time: the caller's check is the reader's
        check. Only its place is checked here. The recorder's :attr:`game` is replayed when next read.
        With ``sync=False`` the entry is written but not fsynced (:meth:`LogWriter.append`); :meth:`sync`
        makes it durable.

        Raises:
            LogError: ``"out-of-sequence"``: not the next seq (nothing is written); ``"writer-broken"``.
            OSError: The write failed (as for :meth:`submit`).
        """
        expected = len(self.entries) + 1
        if entry.seq != expected:
            raise LogError("out-of-sequence", f"the next entry is seq {expected}, not {entry.seq}", expected)
        signed = self.header.keys is not None and not isinstance(entry.move, DrawTile)  # log.md §6
        if signed != (entry.sig is not None):
            raise LogError(
                "bad-signature", f"seq {entry.seq}: signed exactly when the game has keys and it is no draw", entry.seq
            )
        self.writer.append(entry, sync=sync)
        self.entries.append(entry)
        self._stale = True

    def take_back(self, seq: int) -> None:
        """Removes the last entry, *seq*, from the file and from :attr:`entries` (:meth:`LogWriter.take_back`:
        a table draw a signed handover beat, ``protocol/wire.md`` §5.7).

        Raises:
            ValueError: *seq* is not the last entry.
            OSError: The file could not be truncated.
        """
        if not self.entries or self.entries[-1].seq != seq:
            raise ValueError(f"seq {seq} is not the last entry")
        self.writer.take_back(seq)
        self.entries.pop()
        self._stale = True

    def set_aside(self, seq: int) -> tuple[list[LogEntry], Path]:
        """Moves the entries from *seq* on out of the log into its side file
        (:func:`carcnet.log.aside.append_aside`, written and fsynced first, so that a crash between
        the two loses nothing), then rewrites the log without them (:meth:`LogWriter.rewrite`): a LAN
        peer's pending entries the table replaced by committed ones (``protocol/wire.md`` §5.9).
        Returns the entries and the side file.

        Raises:
            ValueError: *seq* is not a seq of the log.
            OSError: A file could not be written.
        """
        if not 1 <= seq <= len(self.entries):
            raise ValueError(f"seq {seq} is not in the log (1 to {len(self.entries)})")
        aside = self.entries[seq - 1 :]
        path = append_aside(self.path, self.header, aside)
        self.writer.rewrite(self.header, self.entries[: seq - 1])
        del self.entries[seq - 1 :]
        self._stale = True
        return aside, path

    def sync(self) -> None:
        """Makes every entry written so far durable (:meth:`LogWriter.sync`; may run in a worker thread).

        Raises:
            OSError: The fsync failed; the writer is then broken.
        """
        self.writer.sync()

    @property
    def unsynced(self) -> int:
        """Entries written but not yet fsynced (``append_admitted(…, sync=False)``)."""
        return self.writer.unsynced

    def _check_own(self, entry: LogEntry, signer: int) -> None:
        """Never writes what a reader would refuse: the signature by seat *signer*'s key must verify."""
        assert self.header.keys is not None
        if not verify_entry(self.header.keys[signer], self.header.game, entry, entry.sig):
            raise LogError(
                "bad-signature",
                f"seq {entry.seq}: the signer of seat {entry.seat} does not sign with its key in the header",
                entry.seq,
            )

    def close(self) -> None:
        """Closes the log file."""
        self.writer.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: What a signer is asked to sign when it is handed over, to check that it holds the seat's key.
_PROBE = b"carcnet/log/signer-probe"


def _check_signers(header: LogHeader, signers: dict[int, Signer]) -> None:
    if not signers:
        return
    if header.keys is None:
        raise ValueError("a game without seat keys is not signed: it takes no signers")
    for seat, signer in signers.items():
        if not isinstance(seat, int) or not 0 <= seat < len(header.keys):
            raise ValueError(f"the game has no seat {seat!r} to sign for")
        if not verify(header.keys[seat], _PROBE, signer.sign(_PROBE)):
            raise ValueError(f"the signer for seat {seat} does not sign with seat {seat}'s key in the header")


def _set_damage_aside(loaded: LoadedLog, damage: Damage, lock: SaveLock) -> Recovery:
    """Keeps the damaged file as ``<name>.damaged-<n>`` and puts its valid prefix at its path, *lock*
    moving to the new file before it takes the path (so the path's file is always this writer's)."""
    path = loaded.path
    directory = path.parent
    n = 1
    while True:
        aside = path.with_name(f"{path.name}.damaged-{n}")
        try:
            os.link(path, aside)  # the same bytes under a second name; fails if the name is taken
            break
        except FileExistsError:
            n += 1
        except OSError:  # no hard links here: copy instead, refusing to overwrite
            if aside.exists():
                n += 1
                continue
            shutil.copy2(path, aside)
            break
    with open(path, "rb") as src:
        prefix = src.read(loaded.valid_size)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(prefix)
            out.flush()
            os.fsync(out.fileno())
            lock.move_to(out.fileno())
        shutil.copymode(path, tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    fsync_directory(directory)
    # Translators: {name} and {aside} are files' names; {damage} says what was damaged (a sentence without its
    # full stop); {seq} is a move's number.
    message = _("{name}: {damage}. The damaged file is kept as {aside}; the game continues from seq {seq}").format(
        name=path.name, damage=damage.message, aside=aside.name, seq=damage.seq)
    return Recovery(damage, aside, message)
