"""Provides the keys file of a network game: what lets this peer resume the game it played.

Beside the log ``<created>-<game id 8>.carclog``, a player keeps ``<same>.keys`` (JSON, mode 0600
from the moment it is created, written through a new ``<same>.keys.tmp`` that no link can stand for):
the game id, the name this peer plays under, its identity key and the seat keys it plays, as hex of
the 32 private bytes (wire.md §3.1), and the table's turn clock (§4.6) and each seat's bank left (§5.8)
when it plays with one. It is read back as any other input: checked against the game's header, refused
with a :class:`LanError` that says what is wrong.
"""

from __future__ import annotations

import json
import os
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from carcnet.i18n import _
from carcnet.log.values import name_problem
from carcnet.net.fields import MessageError
from carcnet.net.messages import Give, Seal, WireHeader
from carcnet.net.presence import PresenceRecords
from carcnet.net.signing import SeatKey
from carcnet.net.sync import SyncSession

from .clock import TurnClock

__all__ = ["MAX_KEYS_DEPTH", "MAX_KEYS_FILE", "LanError", "SavedKeys", "keys_path", "read_keys", "save_keys",
           "write_keys"]

#: Largest keys file read, in bytes: six seats' keys, owners and runners, a name and a game name take
#: about 2 KiB, so a longer file is damaged, refused before it is parsed.
MAX_KEYS_FILE = 64 << 10
#: Deepest nesting of maps and lists a keys file is parsed with (it holds 2: a map of maps and lists),
#: checked before it is parsed, so that a file of 100,000 brackets is refused with the reason rather
#: than with Python's recursion limit.
MAX_KEYS_DEPTH = 4


class LanError(Exception):
    """A network game cannot be opened as asked (a saved game that is not a network game, no seat
    key for it, …). The text says what to do."""


def keys_path(log_path: Path) -> Path:
    """Where the seat keys of the game logged at *log_path* are kept."""
    return log_path.with_suffix(".keys")


@dataclass(frozen=True, slots=True)
class SavedKeys:
    """A keys file as read back.

    Attributes:
        identity: This peer's identity key.
        seats: Seat → the seat key this peer plays it with.
        name: The peer's own name (its owner's), ``None`` in files written before it was kept.
        clock: The table's turn clock (wire.md §4.6), ``None`` without one.
        owners: Seat → the identity key (32 bytes) of the peer a seat handed over to this peer's bot
            belongs to: the peer it goes back to when it returns (wire.md §5.6), remembered across
            a restart of this peer. Empty in files written before it was kept.
        runners: Seat → the identity key of the peer whose heartbeat last said it plays the seat (wire.md
            §4.5), as this peer last heard: after a restart, a seat whose laptop is gone is away at
            once rather than taken for a bot not placed yet. Empty in files written before it was kept.
        game_name: The game's name as its opener gave it (what this peer advertises, discovery.md
            §2), ``None`` when not known or in files written before it was kept.
        banks: Each seat's bank left in milliseconds, seat by seat (not counting a turn that ran), as
            this peer last knew them (wire.md §5.8): what a resumed game's clocks start from. ``None``
            without a clock, in files written before they were kept, or when this peer did not know
            them (it came back without them and had not yet heard the table's).
        seal: The host's seal of the game's header (wire.md §4.2), passed on in this peer's welcomes so
            that spectators can check the header; ``None`` when this peer never held one that checks,
            or in files written before it was kept.
        gave: Whether this peer gave its seats' votes away when it left (wire.md §5.9 "Two seats, and
            leaving"): a laptop that did casts no vote again in the game, resumed or not.
        gives: The votes given that this peer holds (its own and others'), as taken: a resumed laptop
            still counts them. Checked again by the session as any received.
        left: The identity keys of the players that said ``bye`` ``quit`` or ``shutdown`` and had not
            connected again when this peer last wrote the file, and *gave_up*, those of them that gave
            their seats up (``quit`` in the game; wire.md §4.7): after a restart this peer still knows
            that they left on purpose (§5.6 rule 1), rather than waiting for them as for a crash.
    """

    identity: SeatKey
    seats: dict[int, SeatKey]
    name: str | None
    clock: TurnClock | None = None
    owners: dict[int, bytes] = field(default_factory=dict)
    runners: dict[int, bytes] = field(default_factory=dict)
    game_name: str | None = None
    banks: tuple[int, ...] | None = None
    seal: Seal | None = None
    gave: bool = False
    gives: tuple[Give, ...] = ()
    left: frozenset[bytes] = frozenset()
    gave_up: frozenset[bytes] = frozenset()


def write_keys(path: Path, game: str, identity: SeatKey, seats: dict[int, SeatKey], name: str,
               clock: TurnClock | None = None, owners: dict[int, bytes] | None = None,
               runners: dict[int, bytes] | None = None, game_name: str | None = None,
               banks: Sequence[int] | None = None, seal: Seal | None = None, gave: bool = False,
               gives: Sequence[Give] = (), left: Collection[bytes] = (), gave_up: Collection[bytes] = ()) -> None:
    """Writes the keys file *path* of game *game* (mode 0600, replaced at once: a crash leaves the old
    file or the new one); *owners*, *runners*, *game_name*, *banks* (kept only with a *clock*), *left*
    and *gave_up*: see :class:`SavedKeys`.

    The keys go into ``<path>.tmp``, made anew (``O_EXCL``: whatever was at that name, a file a crash
    left, a symbolic link or a hard link to another file, is removed, never opened) with mode 0600 from
    its creation, so that no other user can read them at any moment; it then replaces *path*.

    Raises:
        OSError: The file cannot be written.
    """
    data: dict[str, object] = {
        "game": game,
        "name": name,
        "identity": identity.seed.hex(),
        "seats": {str(seat): key.seed.hex() for seat, key in sorted(seats.items())},
    }
    if clock is not None:
        data["clock"] = [clock.turn, clock.bank]
    if owners:
        data["owners"] = {str(seat): key.hex() for seat, key in sorted(owners.items())}
    if runners:
        data["runners"] = {str(seat): key.hex() for seat, key in sorted(runners.items())}
    if game_name is not None:
        data["game_name"] = game_name
    if clock is not None and banks is not None:
        data["banks"] = list(banks)
    if seal is not None:
        data["seal"] = {"key": seal.key.hex(), "nonce": seal.nonce.hex(), "sig": seal.sig.hex()}
    if gave:
        data["gave"] = True
    if gives:
        data["gives"] = [[g.seat, g.by, g.to, g.seq, g.digest.hex(), g.sig.hex()] for g in gives]
    if left:
        data["left"] = sorted(key.hex() for key in left)
    if gave_up:
        data["gave_up"] = sorted(key.hex() for key in gave_up)
    tmp = path.with_name(path.name + ".tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(tmp, flags, 0o600)
    except FileExistsError:  # left by a crash, or put there: the name goes, whatever it named
        os.unlink(tmp)
        fd = os.open(tmp, flags, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump(data, f, indent=1)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def save_keys(log_path: Path, session: SyncSession, records: PresenceRecords, clock: TurnClock | None,
              game_name: str | None = None, banks: Sequence[int] | None = None) -> None:
    """Writes the keys file of the network game *session* logged at *log_path*: its keys, its name,
    the turn clock and the seats' *banks* (milliseconds, seat by seat: a resumed game's clocks keep
    them, wire.md §5.8), who runs each seat as last heard (*records*), whose each seat it took over is
    (so that a restart of this laptop still gives the seat back, §5.6), and the game's name (so that it
    still advertises the game under it, discovery.md §2). Raises OSError."""
    header, game = session.header, session.game
    if header is None or game is None:
        return
    owners = {seat: key for seat, key in records.owners.items()
              if game.handovers[seat] is not None and seat not in session.seats and session.plays(seat)}
    votes = session.replica.votes
    write_keys(keys_path(log_path), header.game, session.identity, session.seats, session.name, clock, owners,
               dict(records.runners), game_name, banks, session.replica.seal, session.replica.gave,
               votes.gives() if votes is not None else (), records.left, records.gave_up)


def read_keys(path: Path, header: WireHeader) -> SavedKeys:
    """The keys file of the game *header* starts, checked as any other input: a map with the game id,
    this peer's identity key and name, and seat → key for seats of this game whose public keys are the
    header's (wire.md §3.1).

    Raises:
        LanError: No file, or a damaged one (the text says what is wrong; never a traceback): longer than
            :data:`MAX_KEYS_FILE` bytes, nested deeper than :data:`MAX_KEYS_DEPTH`, not JSON, or not
            the keys of this game.
    """
    game = header.game
    try:
        data = json.loads(_keys_text(path))
        if not isinstance(data, dict):
            raise TypeError("it is not a map")
        if data.get("game") != game:
            # Translators: {name} is a file's name; {other} and {game} are games' ids (hex digits).
            raise LanError(_("{name} holds the keys of game {other}, not {game}").format(
                name=path.name, other=repr(data.get("game")), game=game))
        identity = SeatKey.from_seed(_seed(data.get("identity"), "identity"))
        raw = data.get("seats")
        if not isinstance(raw, dict):
            raise TypeError("'seats' is not a map of seat to key")
        seats: dict[int, SeatKey] = {}
        for text, value in raw.items():
            if not (isinstance(text, str) and text.isdigit() and int(text) < len(header.keys)):
                raise ValueError(f"this game has no seat {text!r}")
            key = SeatKey.from_seed(_seed(value, f"seat {text}"))
            if key.public != header.keys[int(text)]:
                raise ValueError(f"the key of seat {text} is not the one the game's header names")
            seats[int(text)] = key
        name = data.get("name")
        if name is not None and name_problem(name) is not None:
            raise ValueError(f"the name {name!r} is not a name")
        raw_clock = data.get("clock")
        clock = None
        if raw_clock is not None:
            if not (isinstance(raw_clock, list) and len(raw_clock) == 2):
                raise ValueError("'clock' is not [turn seconds, bank seconds]")
            clock = TurnClock(*raw_clock)
        owners = _seat_keys(data.get("owners", {}), len(header.keys), "owners", "the owner")
        runners = _seat_keys(data.get("runners", {}), len(header.keys), "runners", "the runner")
        game_name = data.get("game_name")
        if game_name is not None and name_problem(game_name) is not None:
            raise ValueError(f"the game's name {game_name!r} is not a name")
        banks = _banks(data.get("banks"), len(header.keys), clock)
        seal = _seal(data.get("seal"))
        gave = data.get("gave", False)
        if not isinstance(gave, bool):
            raise ValueError("'gave' is not true or false")
        gives = _gives(data.get("gives", []))
        left = _keys(data.get("left", []), "left")
        gave_up = _keys(data.get("gave_up", []), "gave_up")
    except FileNotFoundError:
        # Translators: {name} is a file's name.
        raise LanError(_(
            "no seat keys for this game ({name}): only the peer that played it can resume it; "
            "others can watch it"
        ).format(name=path.name)) from None
    except (ValueError, TypeError, OSError) as exc:
        # Translators: {name} is a file's name; {problem} says what is wrong in the file's terms.
        raise LanError(_("{name} is damaged: {problem}").format(name=path.name, problem=exc)) from None
    return SavedKeys(identity, seats, name, clock, owners, runners, game_name, banks, seal, gave, gives, left, gave_up)


def _keys(raw: object, what: str) -> frozenset[bytes]:
    """A list of at most 32 identity keys as hex (``left``, ``gave_up``)."""
    if not isinstance(raw, list) or len(raw) > 32:
        raise ValueError(f"'{what}' is not a list of at most 32 keys")
    keys = set()
    for item in raw:
        if not isinstance(item, str) or len(item) != 64:
            raise ValueError(f"'{what}' holds {item!r}, not a key as 64 hex digits")
        keys.add(bytes.fromhex(item))
    return frozenset(keys)


def _gives(raw: object) -> tuple[Give, ...]:
    """The ``gives`` of a keys file: a list of [seat, by, to, seq, digest hex, sig hex], at most 36."""
    if not isinstance(raw, list) or len(raw) > 36:
        raise ValueError("'gives' is not a list of at most 36 votes given")
    out = []
    for item in raw:
        if not (isinstance(item, list) and len(item) == 6 and all(isinstance(v, int) and not isinstance(v, bool)
                                                                   for v in item[:4])
                and all(isinstance(v, str) for v in item[4:])):
            raise ValueError("a vote given is not [seat, by, to, seq, digest, sig]")
        try:
            out.append(Give(item[0], item[1], item[2], item[3], bytes.fromhex(item[4]), bytes.fromhex(item[5])))
        except (ValueError, MessageError) as exc:
            raise ValueError(f"a vote given is damaged: {exc}") from None
    return tuple(out)


def _seal(raw: object) -> Seal | None:
    """The ``seal`` of a keys file: absent, or the host's key, nonce and signature in hex (whether it
    seals the header is the session's to check, wire.md §4.2)."""
    if raw is None:
        return None
    if not (isinstance(raw, dict) and set(raw) == {"key", "nonce", "sig"} and all(isinstance(v, str) for v in raw.values())):
        raise ValueError("'seal' is not a map of key, nonce and sig in hex")
    return Seal(bytes.fromhex(raw["key"]), bytes.fromhex(raw["nonce"]), bytes.fromhex(raw["sig"]))


def _keys_text(path: Path) -> str:
    """The text of the keys file *path*, checked before it is parsed: at most :data:`MAX_KEYS_FILE`
    bytes, UTF-8, maps and lists nested at most :data:`MAX_KEYS_DEPTH` deep. Raises ValueError, OSError."""
    with path.open("rb") as file:
        raw = file.read(MAX_KEYS_FILE + 1)
    if len(raw) > MAX_KEYS_FILE:
        raise ValueError(f"it is longer than {MAX_KEYS_FILE} bytes")
    text = raw.decode()
    depth, in_string, escaped = 0, False, False
    for char in text:  # JSON's brackets outside its strings
        if in_string:
            escaped, in_string = (False, in_string) if escaped else (char == "\\", char != '"')
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_KEYS_DEPTH:
                raise ValueError(f"it nests maps and lists deeper than {MAX_KEYS_DEPTH}")
        elif char in "]}":
            depth -= 1
    return text


def _banks(raw: object, players: int, clock: TurnClock | None) -> tuple[int, ...] | None:
    """The ``banks`` of a keys file: absent, or one whole number of milliseconds per seat, each 0 to
    the clock's bank (wire.md §5.8), in a file that keeps the clock."""
    if raw is None:
        return None
    if clock is None:
        raise ValueError("'banks' without the 'clock' they belong to")
    if not (isinstance(raw, list) and len(raw) == players):
        raise ValueError(f"'banks' is not a list of {players} banks in milliseconds, one per seat")
    for seat, millis in enumerate(raw):
        if isinstance(millis, bool) or not isinstance(millis, int) or not 0 <= millis <= clock.bank * 1000:
            raise ValueError(f"the bank of seat {seat} is not 0 to {clock.bank * 1000} milliseconds: {millis!r}")
    return tuple(raw)


def _seat_keys(raw: object, players: int, field_name: str, what: str) -> dict[int, bytes]:
    """A map of a keys file from seat (as text) to an identity key (64 hex digits): ``owners`` or
    ``runners``."""
    if not isinstance(raw, dict):
        raise TypeError(f"'{field_name}' is not a map of seat to identity key")
    keys = {}
    for text, value in raw.items():
        if not (isinstance(text, str) and text.isdigit() and int(text) < players):
            raise ValueError(f"this game has no seat {text!r}")
        keys[int(text)] = _seed(value, f"{what} of seat {text}")
    return keys


def _seed(value: object, what: str) -> bytes:
    """32 bytes (a private seed, or an owner's public key) written as 64 hex digits in a keys file."""
    if not isinstance(value, str) or len(value) != 64:
        raise ValueError(f"{what} is not 64 hex digits")
    return bytes.fromhex(value)
