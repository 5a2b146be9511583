"""Provides the parts of wire messages as values, and their maps (``protocol/wire.md`` §4.2–4.3, §4.6):
a game's header (:class:`WireHeader`), a signed log entry (:class:`SignedEntry`), a taken seat of a
lobby (:class:`LobbySeat`), where another peer listens (:class:`PeerInfo`), a seat's vote for a
prefix of the log (:class:`Vote`, ``wire.md`` §5.9) and the host's seal of a header (:class:`Seal`,
``wire.md`` §4.2); with the field codecs that carry them in a message (:class:`Header`,
:class:`Parts`, :class:`Part`). Sans-I/O.

The header and entry maps are those of log format 2 (``protocol/log.md`` §5–6), read and written by
:mod:`carcnet.log.codec`: a header with its ``keys``, ``commits`` and ``nonces``, an entry with its
``sig``, exactly as a peer saves them (``wire.md`` §4.2–4.3). The wire only demands more of them: a
header has keys, an entry has its signature.

>>> PeerInfo(bytes(32), "Ann", "10.0.0.2", 7000).port
7000
>>> PeerInfo(bytes(32), "Ann", "10.0.0.x", 7000)
Traceback (most recent call last):
...
carcnet.net.fields.MessageError: peer.addr must be an IP address, got '10.0.0.x'
"""

from __future__ import annotations

import dataclasses
import hashlib
import ipaddress
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from carcnet.engine import DrawTile
from carcnet.log import READ_FORMATS, TABLE_FORMAT, LogEntry, LogFormatError, LogHeader, LogKeysError, Seat
from carcnet.log import from_wire as log_from_wire
from carcnet.log import to_wire as log_to_wire

from .fields import (
    PROTO_VERSION,
    Field,
    MessageError,
    bad,
    check_bin,
    check_int,
    check_keys,
    check_text,
    read_list,
    read_map,
    read_str,
)
from .framing import encode_frame
from .signing import KEY_SIZE, NONCE_SIZE, SIG_SIZE

__all__ = [
    "LOG_FORMAT",
    "WIRE_FORMATS",
    "Header",
    "LobbySeat",
    "Part",
    "Parts",
    "PeerInfo",
    "Seal",
    "SignedEntry",
    "Give",
    "Vote",
    "WireHeader",
]

#: The lowest log format of the header and entry maps the wire carries (``wire.md`` §8).
LOG_FORMAT = 2
#: The log formats of the headers the wire carries: 2 (a seeded game resumed from an older save)
#: and 3 (table draws, every new game). Entries of both have the same keys (``log.md`` §7).
WIRE_FORMATS = (2, 3)


@dataclass(frozen=True, slots=True)
class WireHeader:
    """The header of a LAN game as the wire carries it (``wire.md`` §4.2): a log header of format 2
    (``log.md`` §5) that has its seat keys, and may have the commit–reveal that chose the seed.

    The keys, commitments and nonces are the header's own fields (:class:`~carcnet.log.LogHeader`
    checks them); the ones given here are put into :attr:`header`, so that ``wh.header`` is exactly
    the header a peer saves in its log (``GameRecorder.create(wh.header, …)``).

    Attributes:
        header: The log header (format 2 or 3, rules 2 or 3), holding *keys*, *commits* and *nonces*.
        keys: The 32-byte Ed25519 public key of each seat, in seat order; pairwise distinct.
        commits: Each seat's commitment ``SHA-256(nonce)``, in seat order; ``None`` for a game whose
            seed was not agreed by commit–reveal (a local game shown to spectators, a test game).
        nonces: Each seat's revealed 32-byte nonce; ``None`` exactly when *commits* is.

    Raises:
        MessageError: ``"bad-message"`` for a malformed field, ``"bad-header"`` when there are no
            keys, the lists do not have one item per seat, keys repeat, commitments repeat, a nonce
            does not hash to its commitment, or the seed is not the one the nonces give.
    """

    header: LogHeader
    keys: tuple[bytes, ...]
    commits: tuple[bytes, ...] | None = None
    nonces: tuple[bytes, ...] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.header, LogHeader):
            raise bad("header", "must be a LogHeader")
        if self.keys is None:
            raise MessageError("bad-header", "a header on the wire holds the seat keys")
        try:
            header = dataclasses.replace(
                self.header, keys=self.keys, commits=self.commits, nonces=self.nonces,
                format=max(self.header.format, LOG_FORMAT),
            )
        except LogKeysError as exc:
            raise MessageError("bad-header", f"header: {exc}"[:300]) from None
        except LogFormatError as exc:
            raise bad("header", str(exc)) from None
        object.__setattr__(self, "header", header)

    @classmethod
    def of(cls, header: LogHeader) -> WireHeader:
        """The wire header of a log header that has its keys (and perhaps commits and nonces).

        Raises:
            MessageError: As for the constructor (``"bad-header"`` when *header* has no keys).
        """
        return cls(
            header, header.keys, header.commits, header.nonces,  # type: ignore[arg-type]  # keys None: refused
        )

    @property
    def game(self) -> str:
        """The game id."""
        return self.header.game

    @property
    def fingerprint(self) -> bytes:
        """SHA-256 of the header's canonical map (its map in a message, packed as a frame body): two
        peers hold the same header exactly when the fingerprints are equal."""
        return hashlib.sha256(encode_frame(header_out(self))[4:]).digest()


@dataclass(frozen=True, slots=True)
class SignedEntry:
    """A log entry (``log.md`` §6) with its author's signature (``wire.md`` §4.3, §5.2).

    The signature is the entry's own ``sig`` (log format 2): the one given here is put into
    :attr:`entry`, so that ``signed.entry`` is exactly the entry a peer saves in its log
    (``GameRecorder.append_signed(signed.entry)``).

    Attributes:
        entry: The entry, its ``sig`` = *sig*.
        sig: The 64-byte Ed25519 signature of the entry's seat key over
            :func:`carcnet.net.signing.entry_bytes`; ``None`` for a table draw (``log.md`` §6),
            whose values prove themselves, and only for one.
    """

    entry: LogEntry
    sig: bytes | None

    def __post_init__(self) -> None:
        if not isinstance(self.entry, LogEntry):
            raise bad("entry", "must be a LogEntry")
        if isinstance(self.entry.move, DrawTile):
            if self.sig is not None:
                raise bad("entry.sig", "must be nil: a draw is not signed")
        else:
            check_bin(self.sig, "entry.sig", SIG_SIZE)
        if self.entry.sig != self.sig:
            object.__setattr__(self, "entry", dataclasses.replace(self.entry, sig=self.sig))

    @classmethod
    def of(cls, entry: LogEntry) -> SignedEntry:
        """The signed entry of a log entry that has its signature.

        Raises:
            MessageError: ``"bad-message"``: *entry* has no signature.
        """
        return cls(entry, entry.sig)

    @property
    def seq(self) -> int:
        """The entry's sequence number."""
        return self.entry.seq


@dataclass(frozen=True, slots=True)
class LobbySeat:
    """A taken seat in a ``lobby`` table: who sits there and the seat's public key.

    Attributes:
        seat: Name, colour, human or bot (``log.md`` §5).
        key: The seat's 32-byte Ed25519 public key.
    """

    seat: Seat
    key: bytes

    def __post_init__(self) -> None:
        if not isinstance(self.seat, Seat):
            raise bad("seat", "must be a Seat")
        check_bin(self.key, "seat.key", KEY_SIZE)


@dataclass(frozen=True, slots=True)
class PeerInfo:
    """Where another peer of the game listens, for networks where mDNS does not reach (``wire.md`` §4.2).

    Attributes:
        key: The peer's 32-byte public key (from its ``hello``).
        name: Its name, 1 to 32 characters.
        addr: Its IP address as text (IPv4 dotted or IPv6), as seen by the sender.
        port: Its listening TCP port, 1 to 65535.
    """

    key: bytes
    name: str
    addr: str
    port: int

    def __post_init__(self) -> None:
        check_bin(self.key, "peer.key", KEY_SIZE)
        check_text(self.name, "peer.name")
        try:
            ipaddress.ip_address(self.addr)
        except ValueError:
            raise bad("peer.addr", f"must be an IP address, got {self.addr!r}"[:100]) from None
        check_int(self.port, "peer.port", 1, 65536)


@dataclass(frozen=True, slots=True)
class Vote:
    """A seat's vote for the log that ends at *seq* with *digest* (``wire.md`` §5.9): the seat holds
    that prefix and no other. Votes of seats that are a quorum make the prefix's entries committed.

    Attributes:
        seat: The voting seat, 0 to 5 (its key in the header signs).
        seq: The last seq of the prefix, 1 or more.
        digest: The 32-byte state digest after entry *seq* (``digest.md`` §4): it names the prefix.
        sig: The seat key's 64-byte signature over :func:`carcnet.net.signing.ack_bytes`.
    """

    seat: int
    seq: int
    digest: bytes
    sig: bytes

    def __post_init__(self) -> None:
        check_int(self.seat, "vote.seat", 0, 6)
        check_int(self.seq, "vote.seq", 1, 2**32)
        check_bin(self.digest, "vote.digest", 32)
        check_bin(self.sig, "vote.sig", SIG_SIZE)


@dataclass(frozen=True, slots=True)
class Give:
    """A seat's vote given to another seat by its laptop leaving on purpose (``wire.md`` §5.9 "Two
    seats, and leaving"): from entry *seq* + 1 on, on every branch of the log whose entry *seq* has
    *digest*, seat *to*'s votes count for *seat* as well. It is also *by*'s vote for (*seq*, *digest*).

    Attributes:
        seat: The seat whose vote is given, 0 to 5.
        by: The seat that holds the vote and gives it (signs): *seat* itself, or the seat it was given
            to before, 0 to 5.
        to: The seat that holds it from now on, 0 to 5, not *by*.
        seq: The last seq of the prefix the giver holds, 0 or more (0: the setup, before any entry).
        digest: The 32-byte state digest after entry *seq* (``digest.md`` §4).
        sig: *by*'s seat key's 64-byte signature over :func:`carcnet.net.signing.give_bytes`.
    """

    seat: int
    by: int
    to: int
    seq: int
    digest: bytes
    sig: bytes

    def __post_init__(self) -> None:
        check_int(self.seat, "give.seat", 0, 6)
        check_int(self.by, "give.by", 0, 6)
        check_int(self.to, "give.to", 0, 6)
        if self.to == self.by:
            raise bad("give.to", "is another seat than give.by")
        check_int(self.seq, "give.seq", 0, 2**32)
        check_bin(self.digest, "give.digest", 32)
        check_bin(self.sig, "give.sig", SIG_SIZE)


@dataclass(frozen=True, slots=True)
class Seal:
    """The host's seal of a header (``wire.md`` §4.2 "The game id"): the game id is made from *key*
    and *nonce* (:func:`~carcnet.net.signing.sealed_game_id`), and *sig* is *key*'s signature over the
    header's fingerprint (:func:`~carcnet.net.signing.seal_bytes`), so that whoever knows the game id
    can check that a header is the one its host started, whoever serves it.

    Attributes:
        key: The host's 32-byte identity key.
        nonce: The 32 random bytes the host drew when it opened the table.
        sig: The host key's 64-byte signature over the header's fingerprint.
    """

    key: bytes
    nonce: bytes
    sig: bytes

    def __post_init__(self) -> None:
        check_bin(self.key, "seal.key", KEY_SIZE)
        check_bin(self.nonce, "seal.nonce", NONCE_SIZE)
        check_bin(self.sig, "seal.sig", SIG_SIZE)


# ---------------------------------------------------------------------- maps


def header_in(value: object, where: str) -> WireHeader:
    """The wire header of a ``header`` map (log format 2 or 3, with its keys).

    Raises:
        MessageError: ``"bad-version"`` (a log format the wire does not carry), ``"bad-header"`` or
            ``"bad-message"``.
        LogVersionError, LogFormatError: As :func:`carcnet.log.from_wire` (the caller names them).
    """
    m = read_map(value, where)
    if m.get("type") != "header":
        raise bad(f"{where}.type", "must be 'header'")
    # log.md §7: the format and rules versions are judged first (codec.from_wire does); a header of
    # log format 1, which the log still reads, is not one the wire carries (wire.md §8).
    fmt = m.get("format")
    if fmt in READ_FORMATS and fmt not in WIRE_FORMATS and not isinstance(fmt, bool):
        raise MessageError(
            "bad-version",
            f"{where} is in log format {fmt}; protocol {PROTO_VERSION} carries log formats "
            f"{' and '.join(map(str, WIRE_FORMATS))}",
        )
    try:
        header = log_from_wire(m)
    except LogKeysError as exc:
        raise MessageError("bad-header", f"{where}: {exc}"[:300]) from None
    assert isinstance(header, LogHeader)
    return WireHeader.of(header)


def header_out(h: WireHeader) -> dict[str, Any]:
    """The ``header`` map of a wire header: log format 2 or 3, keys, commits and nonces last
    (``wire.md`` §4.2)."""
    return log_to_wire(h.header)


def _entry_in(value: object, where: str) -> SignedEntry:
    e = read_map(value, where)
    if e.get("type") != "entry":
        raise bad(f"{where}.type", "must be 'entry'")
    entry = log_from_wire(e, format=TABLE_FORMAT)  # entries of formats 2 and 3 have the same keys
    assert isinstance(entry, LogEntry)
    draw = isinstance(entry.move, DrawTile)
    if (entry.sig is None) != draw:
        raise bad(f"{where}.sig", "must be bin of 64 bytes: every entry on the wire but a draw is signed"
                  if not draw else "must be nil: a draw is not signed")
    return SignedEntry.of(entry)


def _peer_in(value: object, where: str) -> PeerInfo:
    p = read_map(value, where)
    check_keys(p, _PEER_KEYS, where)
    return PeerInfo(p["key"], p["name"], read_str(p["addr"], f"{where}.addr"), p["port"])


def _vote_in(value: object, where: str) -> Vote:
    v = read_map(value, where)
    check_keys(v, _VOTE_KEYS, where)
    return Vote(v["seat"], v["seq"], v["digest"], v["sig"])


def _give_in(value: object, where: str) -> Give:
    g = read_map(value, where)
    check_keys(g, _GIVE_KEYS, where)
    return Give(g["seat"], g["by"], g["to"], g["seq"], g["digest"], g["sig"])


def _seal_in(value: object, where: str) -> Seal:
    m = read_map(value, where)
    check_keys(m, _SEAL_KEYS, where)
    return Seal(m["key"], m["nonce"], m["sig"])


def _lobby_seat_in(value: object, where: str) -> LobbySeat:
    s = read_map(value, where)
    check_keys(s, _LOBBY_SEAT_KEYS, where)
    for key in ("name", "colour", "player"):
        read_str(s[key], f"{where}.{key}")
    if s["bot"] is not None:
        read_str(s["bot"], f"{where}.bot")
    return LobbySeat(Seat(s["name"], s["colour"], s["player"], s["bot"]), s["key"])


def _entry_out(e: SignedEntry) -> dict[str, Any]:
    return log_to_wire(e.entry, format=TABLE_FORMAT)  # format 2: sig comes last (wire.md §4.3)


def _peer_out(p: PeerInfo) -> dict[str, Any]:
    return {"key": p.key, "name": p.name, "addr": p.addr, "port": p.port}


def _vote_out(v: Vote) -> dict[str, Any]:
    return {"seat": v.seat, "seq": v.seq, "digest": v.digest, "sig": v.sig}


def _give_out(g: Give) -> dict[str, Any]:
    return {"seat": g.seat, "by": g.by, "to": g.to, "seq": g.seq, "digest": g.digest, "sig": g.sig}


def _seal_out(s: Seal) -> dict[str, Any]:
    return {"key": s.key, "nonce": s.nonce, "sig": s.sig}


def _lobby_seat_out(s: LobbySeat) -> dict[str, Any]:
    seat = s.seat
    return {"name": seat.name, "colour": seat.colour, "player": seat.player, "bot": seat.bot, "key": s.key}


_PEER_KEYS = ("key", "name", "addr", "port")
_LOBBY_SEAT_KEYS = ("name", "colour", "player", "bot", "key")
_VOTE_KEYS = ("seat", "seq", "digest", "sig")
_GIVE_KEYS = ("seat", "by", "to", "seq", "digest", "sig")
_SEAL_KEYS = ("key", "nonce", "sig")
#: A part of a message.
_Part = SignedEntry | PeerInfo | LobbySeat | Vote | Give | Seal
#: How each part of a message is written (maps in the order of wire.md §4) and read.
_PART_OUT: dict[type[_Part], Callable[[Any], dict[str, Any]]] = {
    SignedEntry: _entry_out,
    PeerInfo: _peer_out,
    LobbySeat: _lobby_seat_out,
    Vote: _vote_out,
    Give: _give_out,
    Seal: _seal_out,
}
_PART_IN: dict[type[_Part], Callable[[object, str], _Part]] = {
    SignedEntry: _entry_in,
    PeerInfo: _peer_in,
    LobbySeat: _lobby_seat_in,
    Vote: _vote_in,
    Give: _give_in,
    Seal: _seal_in,
}


# ---------------------------------------------------------------------- codecs


class Header(Field):
    """A :class:`WireHeader`: the log format 2 header map (``wire.md`` §4.2)."""

    def check(self, value: object, where: str) -> None:
        if not isinstance(value, WireHeader):
            raise bad(where, "must be a WireHeader")

    def write(self, value: WireHeader) -> Any:
        return header_out(value)

    def read(self, raw: Any, where: str) -> Any:
        return header_in(raw, where)


class Parts(Field):
    """An array of at most *limit* items of one part (:class:`SignedEntry`, :class:`PeerInfo`,
    :class:`LobbySeat` or :class:`Vote`), read into a tuple; with ``nil`` for an item where *optional*."""

    def __init__(self, part: type[_Part], limit: int, *, optional: bool = False) -> None:
        self.part, self.limit, self.optional = part, limit, optional

    def check(self, value: object, where: str) -> None:
        if not isinstance(value, tuple) or not all(
            isinstance(v, self.part) or (v is None and self.optional) for v in value
        ):
            raise bad(where, f"must be a tuple of {self.part.__name__}")
        if len(value) > self.limit:
            raise bad(where, f"holds at most {self.limit} items")

    def write(self, value: tuple[Any, ...]) -> Any:
        return [None if v is None else _PART_OUT[self.part](v) for v in value]

    def read(self, raw: Any, where: str) -> Any:
        items = read_list(raw, where, self.limit)
        reader = _PART_IN[self.part]
        return tuple(
            None if v is None and self.optional else reader(v, f"{where}[{i}]") for i, v in enumerate(items)
        )


class Part(Field):
    """One part (a :class:`Seal`) as a map of its own."""

    def __init__(self, part: type[_Part]) -> None:
        self.part = part

    def check(self, value: object, where: str) -> None:
        if not isinstance(value, self.part):
            raise bad(where, f"must be a {self.part.__name__}")

    def write(self, value: Any) -> Any:
        return _PART_OUT[self.part](value)

    def read(self, raw: Any, where: str) -> Any:
        return _PART_IN[self.part](raw, where)
