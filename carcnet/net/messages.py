"""Provides the wire messages as values and their msgpack maps (``protocol/wire.md`` §3–4, §6).

Every message is a frozen dataclass that checks itself when built, so a message that exists is well
formed; :func:`to_wire` gives its plain map (keys in the order of the spec's tables, which is the
canonical encoding) and :func:`from_wire` reads one back strictly: exactly the listed keys, each of its
msgpack type and in its range, or :class:`MessageError` with the code the peer is told. The header and
entry maps inside messages are those of log format 2 (``protocol/log.md`` §5–6), read and written by
:mod:`carcnet.log.codec`: a header with its ``keys``, ``commits`` and ``nonces``, an entry with its
``sig``, exactly as a peer saves them (``wire.md`` §4.2–4.3). The wire only demands more of them:
a header has keys, an entry has its signature.

>>> to_wire(Want(from_seq=3))
{'type': 'want', 'from': 3}
>>> from_wire({"type": "bye", "reason": "quit"})
Bye(reason='quit')
>>> decode_message(encode_message(Heartbeat(have=0, digest=None)))
Heartbeat(have=0, digest=None, time=None)
"""

from __future__ import annotations

import dataclasses
import hashlib
import ipaddress
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from carcnet.engine import RULES_VERSION, Rules
from carcnet.log import (
    COLOURS,
    READ_FORMATS,
    LogEntry,
    LogFormatError,
    LogHeader,
    LogKeysError,
    LogVersionError,
    Seat,
)
from carcnet.log import from_wire as log_from_wire
from carcnet.log import to_wire as log_to_wire
from carcnet.log.codec import options_from_wire, options_to_wire
from carcnet.log.values import (
    DIGEST_SIZE,
    MAX_NAME,
    StrictError,
    check_fields,
    is_game_id,
    kind_of,
    name_problem,
)

from .framing import MAX_FRAME, ProtocolError, decode_frame, encode_frame
from .signing import KEY_SIZE, NONCE_SIZE, SIG_SIZE

__all__ = [
    "BYE_REASONS",
    "CODES",
    "MAX_ENTRIES",
    "MAX_PEERS",
    "MAX_TEXT",
    "PROTO_VERSION",
    "ROLES",
    "Bye",
    "Claim",
    "Commit",
    "Entries",
    "Error",
    "Heartbeat",
    "Hello",
    "Lobby",
    "LobbySeat",
    "Message",
    "MessageError",
    "PeerInfo",
    "Reject",
    "Reveal",
    "Role",
    "SignedEntry",
    "Start",
    "Want",
    "Welcome",
    "WireHeader",
    "closes",
    "decode_message",
    "encode_message",
    "from_wire",
    "to_wire",
]

#: The wire protocol version this code speaks (``wire.md`` §8).
PROTO_VERSION = 1
#: The log format of the header and entry maps the wire carries (``wire.md`` §8).
LOG_FORMAT = 2
#: What a peer is to a game: the host holds the lobby (``wire.md`` §3.3).
ROLES = ("host", "player", "spectator")
Role: TypeAlias = Literal["host", "player", "spectator"]
#: Reasons a ``bye`` may give (``wire.md`` §4.7).
BYE_REASONS = ("quit", "game-over", "duplicate", "timeout", "shutdown")
#: Error and reject codes of this version → whether the connection closes after them (``wire.md`` §6).
#: A code not listed (from a newer peer) is read as closing.
CODES: dict[str, bool] = {
    "bad-frame": True,
    "too-large": True,
    "unknown-message": True,
    "bad-message": True,
    "unexpected-message": True,
    "forbidden": True,
    "bad-version": True,
    "wrong-game": True,
    "duplicate": True,
    "no-seat": True,
    "seat-taken": False,
    "lobby-locked": False,
    "bad-commit": True,
    "bad-header": True,
    "bad-signature": True,
    "not-your-turn": True,
    "illegal-move": True,
    "bad-seq": False,
    "desync": True,
    "conflict": True,
    "internal": True,
}
#: Most entries in one ``entries`` message.
MAX_ENTRIES = 256
#: Most peers listed in a ``welcome``.
MAX_PEERS = 32
#: Longest ``message`` text of a ``reject`` or ``error``, in characters.
MAX_TEXT = 256
_CODE = re.compile(r"[a-z][a-z0-9-]{0,31}")


class MessageError(ProtocolError):
    """A frame whose map is not a message of ``protocol/wire.md`` §4. ``code`` is
    ``"unknown-message"`` (no or an unknown ``type``), ``"bad-version"`` (a ``hello`` or ``welcome``
    of another protocol or rules version, or a header of another log format), ``"bad-header"`` (a
    header whose keys, commitments, nonces and seed disagree) or ``"bad-message"`` (anything else:
    a field missing, unknown, mistyped or out of range). The message names the field."""


def closes(code: str) -> bool:
    """Whether an error or reject with *code* ends the connection (``wire.md`` §6); unknown codes do."""
    return CODES.get(code, True)


# ---------------------------------------------------------------------- value checks


def _bad(where: str, what: str) -> MessageError:
    return MessageError("bad-message", f"{where} {what}"[:300])


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_int(value: object, where: str, low: int, high: int) -> None:
    if not _is_int(value) or not low <= value < high:  # type: ignore[operator]
        raise _bad(where, f"must be an integer in [{low}, {high}), got {value!r}")


def _check_bin(value: object, where: str, size: int) -> None:
    if not isinstance(value, bytes) or len(value) != size:
        raise _bad(where, f"must be bin of {size} bytes, got {kind_of(value)}")


def _check_text(value: object, where: str, limit: int = MAX_NAME) -> None:
    """log.md §5's rule for names (``carcnet.log.values.name_problem``)."""
    problem = name_problem(value, limit)
    if problem:
        raise _bad(where, f"{problem}, got {value!r}")


def _check_game(value: object, where: str) -> None:
    if not is_game_id(value):
        raise _bad(where, f"must be 32 lowercase hex digits, got {value!r}")


def _check_digest(value: object, where: str) -> None:
    if value is not None:
        _check_bin(value, where, DIGEST_SIZE)


def _check_have(have: object, digest: object, where: str) -> None:
    _check_int(have, f"{where}.have", 0, 2**32)
    _check_digest(digest, f"{where}.digest")
    if digest is None and have != 0:
        raise _bad(f"{where}.digest", "is nil only for a peer that holds no header (have 0)")


def _check_role(value: object, where: str) -> None:
    if value not in ROLES:
        raise _bad(where, f"must be one of {', '.join(ROLES)}, got {value!r}")


def _check_code(value: object, where: str) -> None:
    if not isinstance(value, str) or not _CODE.fullmatch(value):
        raise _bad(where, f"must be a code (lowercase letters, digits, '-'; up to 32), got {value!r}")


def _check_message_text(value: object, where: str) -> None:
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise _bad(where, f"must be a str of at most {MAX_TEXT} characters")


# ---------------------------------------------------------------------- parts of messages


@dataclass(frozen=True, slots=True)
class WireHeader:
    """The header of a LAN game as the wire carries it (``wire.md`` §4.2): a log header of format 2
    (``log.md`` §5) that has its seat keys, and may have the commit–reveal that chose the seed.

    The keys, commitments and nonces are the header's own fields (:class:`~carcnet.log.LogHeader`
    checks them); the ones given here are put into :attr:`header`, so that ``wh.header`` is exactly
    the header a peer saves in its log (``GameRecorder.create(wh.header, …)``).

    Attributes:
        header: The log header (format 2, rules 1), holding *keys*, *commits* and *nonces*.
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
            raise _bad("header", "must be a LogHeader")
        if self.keys is None:
            raise MessageError("bad-header", "a header on the wire holds the seat keys")
        try:
            header = dataclasses.replace(
                self.header, keys=self.keys, commits=self.commits, nonces=self.nonces, format=LOG_FORMAT
            )
        except LogKeysError as exc:
            raise MessageError("bad-header", f"header: {exc}"[:300]) from None
        except LogFormatError as exc:
            raise _bad("header", str(exc)) from None
        object.__setattr__(self, "header", header)

    @classmethod
    def of(cls, header: LogHeader) -> WireHeader:
        """The wire header of a log header that has its keys (and perhaps commits and nonces).

        Raises:
            MessageError: As for the constructor (``"bad-header"`` when *header* has no keys).
        """
        return cls(header, header.keys, header.commits, header.nonces)  # type: ignore[arg-type]

    @property
    def game(self) -> str:
        """The game id."""
        return self.header.game

    @property
    def fingerprint(self) -> bytes:
        """SHA-256 of the header's canonical map (:func:`to_wire` of it packed as a frame body): two
        peers hold the same header exactly when the fingerprints are equal."""
        return hashlib.sha256(encode_frame(_header_out(self))[4:]).digest()


@dataclass(frozen=True, slots=True)
class SignedEntry:
    """A log entry (``log.md`` §6) with its author's signature (``wire.md`` §4.3, §5.2).

    The signature is the entry's own ``sig`` (log format 2): the one given here is put into
    :attr:`entry`, so that ``signed.entry`` is exactly the entry a peer saves in its log
    (``GameRecorder.append_signed(signed.entry)``).

    Attributes:
        entry: The entry, its ``sig`` = *sig*.
        sig: The 64-byte Ed25519 signature of the entry's seat key over
            :func:`carcnet.net.signing.entry_bytes`.
    """

    entry: LogEntry
    sig: bytes

    def __post_init__(self) -> None:
        if not isinstance(self.entry, LogEntry):
            raise _bad("entry", "must be a LogEntry")
        _check_bin(self.sig, "entry.sig", SIG_SIZE)
        if self.entry.sig != self.sig:
            object.__setattr__(self, "entry", dataclasses.replace(self.entry, sig=self.sig))

    @classmethod
    def of(cls, entry: LogEntry) -> SignedEntry:
        """The signed entry of a log entry that has its signature.

        Raises:
            MessageError: ``"bad-message"``: *entry* has no signature.
        """
        return cls(entry, entry.sig)  # type: ignore[arg-type]

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
            raise _bad("seat", "must be a Seat")
        _check_bin(self.key, "seat.key", KEY_SIZE)


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
        _check_bin(self.key, "peer.key", KEY_SIZE)
        _check_text(self.name, "peer.name")
        try:
            ipaddress.ip_address(self.addr)
        except ValueError:
            raise _bad("peer.addr", f"must be an IP address, got {self.addr!r}"[:100]) from None
        _check_int(self.port, "peer.port", 1, 65536)


# ---------------------------------------------------------------------- messages


@dataclass(frozen=True, slots=True, kw_only=True)
class Hello:
    """The first message of a connection, from the side that connected (``wire.md`` §4.1).

    Attributes:
        proto: The sender's protocol version (:data:`PROTO_VERSION`).
        rules: The sender's engine rules version (``RULES_VERSION``).
        game: The game id the sender wants to join or sync.
        role: ``"player"`` (seated or wishing to sit), ``"spectator"`` (never authors), ``"host"``.
        name: The sender's name, 1 to 32 characters.
        key: The sender's 32-byte Ed25519 identity key (a player's seat key when it holds one seat).
        have: Seq of the last entry the sender holds (0: none; also 0 without a header).
        digest: The state digest at *have* (32 bytes), or ``None`` when the sender holds no header.
        port: The TCP port the sender listens on, 1 to 65535, or ``None`` when it does not listen (a
            spectator): with the address it connected from, where the acceptor and the peers it
            tells (``welcome.peers``) can reach it.
    """

    proto: int = PROTO_VERSION
    rules: int = RULES_VERSION
    game: str
    role: Role
    name: str
    key: bytes
    have: int = 0
    digest: bytes | None = None
    port: int | None = None

    def __post_init__(self) -> None:
        _check_int(self.proto, "hello.proto", 0, 2**32)
        _check_int(self.rules, "hello.rules", 0, 2**32)
        _check_game(self.game, "hello.game")
        _check_role(self.role, "hello.role")
        _check_text(self.name, "hello.name")
        _check_bin(self.key, "hello.key", KEY_SIZE)
        _check_have(self.have, self.digest, "hello")
        if self.port is not None:
            _check_int(self.port, "hello.port", 1, 65536)


@dataclass(frozen=True, slots=True, kw_only=True)
class Welcome:
    """The accepting side's answer to an acceptable ``hello`` (``wire.md`` §4.2).

    Attributes:
        proto, rules, game, role, name, key, have, digest: As in :class:`Hello`, for the acceptor (a
            welcome has no *port*: the connector knows where it connected).
        header: The game's header once the game has started, ``None`` in the lobby.
        peers: Other peers of the game the acceptor knows (may be empty).

    Raises:
        MessageError: ``"bad-message"``: a field out of range, or *header*, *have* and *digest*
            disagree (no header: have 0, digest nil; a header: its game id, digest given, and at
            have 0 the digest is the header's).
    """

    proto: int = PROTO_VERSION
    rules: int = RULES_VERSION
    game: str
    role: Role
    name: str
    key: bytes
    have: int = 0
    digest: bytes | None = None
    header: WireHeader | None = None
    peers: tuple[PeerInfo, ...] = ()

    def __post_init__(self) -> None:
        _check_int(self.proto, "welcome.proto", 0, 2**32)
        _check_int(self.rules, "welcome.rules", 0, 2**32)
        _check_game(self.game, "welcome.game")
        _check_role(self.role, "welcome.role")
        _check_text(self.name, "welcome.name")
        _check_bin(self.key, "welcome.key", KEY_SIZE)
        _check_have(self.have, self.digest, "welcome")
        if self.header is None:
            if self.digest is not None:
                raise _bad("welcome.digest", "must be nil without a header")
        else:
            if not isinstance(self.header, WireHeader):
                raise _bad("welcome.header", "must be a WireHeader or nil")
            if self.header.game != self.game:
                raise _bad("welcome.header.game", "must be the welcome's game")
            if self.digest is None:
                raise _bad("welcome.digest", "must be given with a header")
            if self.have == 0 and self.digest != self.header.header.digest:
                raise _bad("welcome.digest", "at have 0 must be the header's setup digest")
        if not isinstance(self.peers, tuple) or not all(isinstance(p, PeerInfo) for p in self.peers):
            raise _bad("welcome.peers", "must be a tuple of PeerInfo")
        if len(self.peers) > MAX_PEERS:
            raise _bad("welcome.peers", f"holds at most {MAX_PEERS} peers")


@dataclass(frozen=True, slots=True, kw_only=True)
class Reject:
    """The accepting side's refusal of a ``hello``; the connection then closes (``wire.md`` §4.2).

    Attributes:
        code: Why (``wire.md`` §6), e.g. ``"bad-version"``, ``"wrong-game"``, ``"no-seat"``.
        message: Words for people, at most 256 characters (may be empty).
    """

    code: str
    message: str = ""

    def __post_init__(self) -> None:
        _check_code(self.code, "reject.code")
        _check_message_text(self.message, "reject.message")


@dataclass(frozen=True, slots=True, kw_only=True)
class Entries:
    """Signed entries with consecutive seqs from *from_seq* (``wire.md`` §4.3).

    Attributes:
        from_seq: Seq of the first entry (wire key ``from``), ≥ 1; with no entries, where the sender's
            answer to a ``want`` starts (it has nothing from there).
        entries: 0 to :data:`MAX_ENTRIES` entries; ``entries[i].seq == from_seq + i``.
    """

    from_seq: int
    entries: tuple[SignedEntry, ...]

    def __post_init__(self) -> None:
        _check_int(self.from_seq, "entries.from", 1, 2**32)
        if not isinstance(self.entries, tuple) or not all(isinstance(e, SignedEntry) for e in self.entries):
            raise _bad("entries.entries", "must be a tuple of SignedEntry")
        if len(self.entries) > MAX_ENTRIES:
            raise _bad("entries.entries", f"holds at most {MAX_ENTRIES} entries")
        for i, e in enumerate(self.entries):
            if e.seq != self.from_seq + i:
                raise _bad(f"entries.entries[{i}].seq", f"must be {self.from_seq + i}, got {e.seq}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Want:
    """A request for every entry from seq *from_seq* on (``wire.md`` §4.4).

    Attributes:
        from_seq: The first seq wanted (wire key ``from``), ≥ 1.
    """

    from_seq: int

    def __post_init__(self) -> None:
        _check_int(self.from_seq, "want.from", 1, 2**32)


@dataclass(frozen=True, slots=True, kw_only=True)
class Heartbeat:
    """What the sender holds, sent at least every 5 s of silence (``wire.md`` §4.5).

    Attributes:
        have: Seq of the sender's last entry (0: none).
        digest: The state digest at *have*, or ``None`` when the sender holds no header.
        time: The sender's clock, milliseconds since 1970-01-01 UTC, or ``None``; informative only.
    """

    have: int
    digest: bytes | None
    time: int | None = None

    def __post_init__(self) -> None:
        _check_have(self.have, self.digest, "heartbeat")
        if self.time is not None:
            _check_int(self.time, "heartbeat.time", 0, 2**63)


@dataclass(frozen=True, slots=True, kw_only=True)
class Bye:
    """The sender closes the connection (``wire.md`` §4.7).

    Attributes:
        reason: One of :data:`BYE_REASONS`.
    """

    reason: str

    def __post_init__(self) -> None:
        if self.reason not in BYE_REASONS:
            raise _bad("bye.reason", f"must be one of {', '.join(BYE_REASONS)}, got {self.reason!r}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Error:
    """Bad input was received; if :func:`closes` for *code*, the sender closes (``wire.md`` §4.8, §6).

    Attributes:
        code: What was wrong (``wire.md`` §6).
        message: Words for people, at most 256 characters (may be empty).
        seq: The seq the error concerns (the offending entry; for ``bad-seq`` the seq expected), or
            ``None``.
    """

    code: str
    message: str = ""
    seq: int | None = None

    def __post_init__(self) -> None:
        _check_code(self.code, "error.code")
        _check_message_text(self.message, "error.message")
        if self.seq is not None:
            _check_int(self.seq, "error.seq", 0, 2**32)


@dataclass(frozen=True, slots=True, kw_only=True)
class Lobby:
    """The host's table of seats before the game starts (``wire.md`` §4.6).

    Attributes:
        name: The game's name, 1 to 32 characters.
        options: The rule options, carried as the header's ``options`` map (``log.md`` §5, with
            ``river-start`` when ``river``).
        table: One item per seat, 2 to 6: ``None`` for an open seat, else a :class:`LobbySeat`.
            Taken seats have distinct colours and keys.
        locked: ``True`` once the table is full and closed for commit–reveal: no more claims.
    """

    name: str
    options: Rules
    table: tuple[LobbySeat | None, ...]
    locked: bool = False

    def __post_init__(self) -> None:
        _check_text(self.name, "lobby.name")
        if not isinstance(self.options, Rules):
            raise _bad("lobby.options", "must be Rules")
        try:
            options_to_wire(self.options, "lobby.options")
        except LogFormatError as exc:
            raise MessageError("bad-message", str(exc)[:300]) from None
        if not isinstance(self.table, tuple) or not 2 <= len(self.table) <= 6:
            raise _bad("lobby.table", "must be a tuple of 2 to 6 seats")
        taken = [s for s in self.table if s is not None]
        if not all(isinstance(s, LobbySeat) for s in taken):
            raise _bad("lobby.table", "holds LobbySeat or None")
        if len({s.seat.colour for s in taken}) != len(taken):
            raise _bad("lobby.table", "two seats have the same colour")
        if len({s.key for s in taken}) != len(taken):
            raise _bad("lobby.table", "two seats have the same key")
        if not isinstance(self.locked, bool):
            raise _bad("lobby.locked", "must be a bool")


@dataclass(frozen=True, slots=True, kw_only=True)
class Claim:
    """A player asks the host for a seat (``wire.md`` §4.6).

    Attributes:
        seat: The seat index wanted, 0 to 5.
        name: The name to sit under, 1 to 32 characters.
        colour: One of ``carcnet.log.COLOURS``.
        key: The seat key's 32-byte public key: it signs the seat's commitment and entries.
        bot: Which bot plays the seat (a ``carcnet.bots`` name), or ``None`` for a person
            (the header's seat ``player`` and ``bot``, ``log.md`` §5).
    """

    seat: int
    name: str
    colour: str
    key: bytes
    bot: str | None = None

    def __post_init__(self) -> None:
        _check_int(self.seat, "claim.seat", 0, 6)
        _check_text(self.name, "claim.name")
        if self.colour not in COLOURS:
            raise _bad("claim.colour", f"must be one of {', '.join(COLOURS)}, got {self.colour!r}")
        _check_bin(self.key, "claim.key", KEY_SIZE)
        if self.bot is not None:
            _check_text(self.bot, "claim.bot")


@dataclass(frozen=True, slots=True, kw_only=True)
class Commit:
    """A seat's commitment to its nonce, signed with the seat key (``wire.md`` §4.6, §5.3).

    Attributes:
        seat: The seat, 0 to 5.
        hash: ``SHA-256(nonce)``, 32 bytes.
        sig: The seat key's signature over :func:`carcnet.net.signing.commit_bytes`, 64 bytes.
    """

    seat: int
    hash: bytes
    sig: bytes

    def __post_init__(self) -> None:
        _check_int(self.seat, "commit.seat", 0, 6)
        _check_bin(self.hash, "commit.hash", 32)
        _check_bin(self.sig, "commit.sig", SIG_SIZE)


@dataclass(frozen=True, slots=True, kw_only=True)
class Reveal:
    """A seat's nonce, sent once every seat's commitment is known (``wire.md`` §4.6, §5.3).

    Attributes:
        seat: The seat, 0 to 5.
        nonce: The 32 random bytes committed to.
    """

    seat: int
    nonce: bytes

    def __post_init__(self) -> None:
        _check_int(self.seat, "reveal.seat", 0, 6)
        _check_bin(self.nonce, "reveal.nonce", NONCE_SIZE)


@dataclass(frozen=True, slots=True, kw_only=True)
class Start:
    """The host starts the game with the agreed header (``wire.md`` §4.6).

    Attributes:
        header: The header; its commitments and nonces are given (the seed came from them).
    """

    header: WireHeader

    def __post_init__(self) -> None:
        if not isinstance(self.header, WireHeader):
            raise _bad("start.header", "must be a WireHeader")
        if self.header.commits is None:
            raise MessageError("bad-header", "the header of a start holds the commitments and nonces")


Message: TypeAlias = (
    Hello
    | Welcome
    | Reject
    | Entries
    | Want
    | Heartbeat
    | Bye
    | Error
    | Lobby
    | Claim
    | Commit
    | Reveal
    | Start
)

_TYPES: dict[type, str] = {
    Hello: "hello",
    Welcome: "welcome",
    Reject: "reject",
    Entries: "entries",
    Want: "want",
    Heartbeat: "heartbeat",
    Bye: "bye",
    Error: "error",
    Lobby: "lobby",
    Claim: "claim",
    Commit: "commit",
    Reveal: "reveal",
    Start: "start",
}


# ---------------------------------------------------------------------- encoding


def to_wire(message: Message) -> dict[str, Any]:
    """The plain map of a message, keys in the order of ``wire.md`` §4 (the canonical encoding).

    Raises:
        TypeError: *message* is not a message.
    """
    if isinstance(message, Hello | Welcome):
        out: dict[str, Any] = {
            "type": _TYPES[type(message)],
            "proto": message.proto,
            "rules": message.rules,
            "game": message.game,
            "role": message.role,
            "name": message.name,
            "key": message.key,
            "have": message.have,
            "digest": message.digest,
        }
        if isinstance(message, Hello):
            out["port"] = message.port
        else:
            out["header"] = _header_out(message.header) if message.header is not None else None
            out["peers"] = [
                {"key": p.key, "name": p.name, "addr": p.addr, "port": p.port} for p in message.peers
            ]
        return out
    if isinstance(message, Reject):
        return {"type": "reject", "code": message.code, "message": message.message}
    if isinstance(message, Entries):
        return {
            "type": "entries",
            "from": message.from_seq,
            "entries": [_entry_out(e) for e in message.entries],
        }
    if isinstance(message, Want):
        return {"type": "want", "from": message.from_seq}
    if isinstance(message, Heartbeat):
        return {"type": "heartbeat", "have": message.have, "digest": message.digest, "time": message.time}
    if isinstance(message, Bye):
        return {"type": "bye", "reason": message.reason}
    if isinstance(message, Error):
        return {"type": "error", "code": message.code, "message": message.message, "seq": message.seq}
    if isinstance(message, Lobby):
        return {
            "type": "lobby",
            "name": message.name,
            "options": options_to_wire(message.options, "lobby.options"),
            "table": [_lobby_seat_out(s) if s is not None else None for s in message.table],
            "locked": message.locked,
        }
    if isinstance(message, Claim):
        return {
            "type": "claim",
            "seat": message.seat,
            "name": message.name,
            "colour": message.colour,
            "key": message.key,
            "bot": message.bot,
        }
    if isinstance(message, Commit):
        return {"type": "commit", "seat": message.seat, "hash": message.hash, "sig": message.sig}
    if isinstance(message, Reveal):
        return {"type": "reveal", "seat": message.seat, "nonce": message.nonce}
    if isinstance(message, Start):
        return {"type": "start", "header": _header_out(message.header)}
    raise TypeError(f"not a wire message: {message!r}")


def _header_out(h: WireHeader) -> dict[str, Any]:
    return log_to_wire(h.header)  # format 2: keys, commits and nonces come last (wire.md §4.2)


def _entry_out(e: SignedEntry) -> dict[str, Any]:
    return log_to_wire(e.entry, format=LOG_FORMAT)  # format 2: sig comes last (wire.md §4.3)


def _lobby_seat_out(s: LobbySeat) -> dict[str, Any]:
    return {
        "name": s.seat.name,
        "colour": s.seat.colour,
        "player": s.seat.player,
        "bot": s.seat.bot,
        "key": s.key,
    }


def encode_message(message: Message) -> bytes:
    """The frame of a message (``wire.md`` §2): length prefix and canonical msgpack body.

    Raises:
        FramingError: ``"too-large"``: more than 1 MiB (not possible within :data:`MAX_ENTRIES`).
    """
    return encode_frame(to_wire(message), max_frame=MAX_FRAME)


# ---------------------------------------------------------------------- decoding


def decode_message(frame: bytes) -> Message:
    """The message of exactly one frame (the inverse of :func:`encode_message`):
    :func:`carcnet.net.framing.decode_frame`, then :func:`from_wire`.

    Raises:
        FramingError: The bytes are not exactly one frame of one msgpack map.
        MessageError: The map is not a message.
    """
    return from_wire(decode_frame(frame))


def from_wire(data: object) -> Message:
    """The message a plain map describes, chosen by its ``type`` (``wire.md`` §4).

    Reading is strict: exactly the keys listed for the type, each of its msgpack type (an int is not a
    bool, a str is not a bin) and within its range. In a ``hello`` or ``welcome`` the ``proto`` and
    ``rules`` versions are checked before anything else, so a peer of another version is refused for
    its version and not for a field this version does not know (``wire.md`` §8).

    Raises:
        MessageError: ``"unknown-message"``, ``"bad-version"``, ``"bad-header"`` or ``"bad-message"``.
    """
    if not isinstance(data, Mapping):
        raise MessageError("unknown-message", f"a message is a map, got {kind_of(data)}")
    m = dict(data)
    for key in m:
        if not isinstance(key, str):
            raise _bad("message", f"has a key that is not a str: {key!r}")
    kind = m.get("type")
    reader = _READERS.get(kind) if isinstance(kind, str) else None
    if reader is None:
        raise MessageError(
            "unknown-message", f"unknown message type {kind!r}" if "type" in m else "the map has no 'type'"
        )
    try:
        return reader(m)
    except LogVersionError as exc:
        raise MessageError("bad-version", f"{kind}: {exc}"[:300]) from None
    except LogFormatError as exc:
        raise _bad(f"{kind}:", str(exc)) from None


def _keys(m: dict[str, Any], expected: tuple[str, ...], where: str) -> None:
    try:
        check_fields(m, expected, where)
    except StrictError as exc:
        raise MessageError("bad-message", str(exc)[:300]) from None


def _map(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _bad(where, f"must be a map, got {kind_of(value)}")
    return value


def _list(value: object, where: str, limit: int) -> list[Any]:
    if not isinstance(value, list):
        raise _bad(where, f"must be an array, got {kind_of(value)}")
    if len(value) > limit:
        raise _bad(where, f"holds at most {limit} items")
    return value


def _str(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise _bad(where, f"must be a str, got {kind_of(value)}")
    return value


def _versions(m: dict[str, Any], kind: str) -> None:
    """wire.md §8: ``proto``, then ``rules``, before any other field."""
    proto = m.get("proto")
    if not isinstance(proto, int) or isinstance(proto, bool) or proto < 0:
        raise _bad(f"{kind}.proto", f"must be a non-negative integer, got {proto!r}")
    if proto != PROTO_VERSION:
        raise MessageError(
            "bad-version",
            f"the peer speaks carcnet protocol version {proto}; this carcnet speaks version {PROTO_VERSION}",
        )
    rules = m.get("rules")
    if not isinstance(rules, int) or isinstance(rules, bool) or rules < 0:
        raise _bad(f"{kind}.rules", f"must be a non-negative integer, got {rules!r}")
    if rules != RULES_VERSION:
        raise MessageError(
            "bad-version",
            f"the peer plays rules version {rules}; this carcnet plays rules version {RULES_VERSION}",
        )


#: The keys a ``hello`` and a ``welcome`` share, in order (wire.md §4.1–4.2).
_HELLO_KEYS = ("type", "proto", "rules", "game", "role", "name", "key", "have", "digest")


def _read_hello(m: dict[str, Any]) -> Hello:
    _versions(m, "hello")
    _keys(m, (*_HELLO_KEYS, "port"), "hello")
    _check_role(m["role"], "hello.role")
    return Hello(
        proto=m["proto"],
        rules=m["rules"],
        game=m["game"],
        role=m["role"],
        name=m["name"],
        key=m["key"],
        have=m["have"],
        digest=m["digest"],
        port=m["port"],
    )


def _read_welcome(m: dict[str, Any]) -> Welcome:
    _versions(m, "welcome")
    _keys(m, (*_HELLO_KEYS, "header", "peers"), "welcome")
    _check_role(m["role"], "welcome.role")
    header = _header_in(m["header"], "welcome.header") if m["header"] is not None else None
    peers = []
    for i, raw in enumerate(_list(m["peers"], "welcome.peers", MAX_PEERS)):
        where = f"welcome.peers[{i}]"
        p = _map(raw, where)
        _keys(p, ("key", "name", "addr", "port"), where)
        peers.append(PeerInfo(p["key"], p["name"], _str(p["addr"], f"{where}.addr"), p["port"]))
    return Welcome(
        proto=m["proto"],
        rules=m["rules"],
        game=m["game"],
        role=m["role"],
        name=m["name"],
        key=m["key"],
        have=m["have"],
        digest=m["digest"],
        header=header,
        peers=tuple(peers),
    )


def _header_in(value: object, where: str) -> WireHeader:
    m = _map(value, where)
    if m.get("type") != "header":
        raise _bad(f"{where}.type", "must be 'header'")
    # log.md §7: the format and rules versions are judged first (codec.from_wire does); a header of
    # log format 1, which the log still reads, is not one the wire carries (wire.md §8).
    fmt = m.get("format")
    if fmt in READ_FORMATS and fmt != LOG_FORMAT and not isinstance(fmt, bool):
        raise MessageError(
            "bad-version",
            f"{where} is in log format {fmt}; protocol {PROTO_VERSION} carries log format {LOG_FORMAT}",
        )
    try:
        header = log_from_wire(m)
    except LogKeysError as exc:
        raise MessageError("bad-header", f"{where}: {exc}"[:300]) from None
    assert isinstance(header, LogHeader)
    return WireHeader.of(header)


def _read_reject(m: dict[str, Any]) -> Reject:
    _keys(m, ("type", "code", "message"), "reject")
    return Reject(code=m["code"], message=m["message"])


def _read_entries(m: dict[str, Any]) -> Entries:
    _keys(m, ("type", "from", "entries"), "entries")
    entries = []
    for i, raw in enumerate(_list(m["entries"], "entries.entries", MAX_ENTRIES)):
        where = f"entries.entries[{i}]"
        e = _map(raw, where)
        if e.get("type") != "entry":
            raise _bad(f"{where}.type", "must be 'entry'")
        entry = log_from_wire(e, format=LOG_FORMAT)
        assert isinstance(entry, LogEntry)
        if entry.sig is None:
            raise _bad(f"{where}.sig", "must be bin of 64 bytes: every entry on the wire is signed")
        entries.append(SignedEntry.of(entry))
    return Entries(from_seq=m["from"], entries=tuple(entries))


def _read_want(m: dict[str, Any]) -> Want:
    _keys(m, ("type", "from"), "want")
    return Want(from_seq=m["from"])


def _read_heartbeat(m: dict[str, Any]) -> Heartbeat:
    _keys(m, ("type", "have", "digest", "time"), "heartbeat")
    return Heartbeat(have=m["have"], digest=m["digest"], time=m["time"])


def _read_bye(m: dict[str, Any]) -> Bye:
    _keys(m, ("type", "reason"), "bye")
    return Bye(reason=m["reason"])


def _read_error(m: dict[str, Any]) -> Error:
    _keys(m, ("type", "code", "message", "seq"), "error")
    return Error(code=m["code"], message=m["message"], seq=m["seq"])


def _read_lobby(m: dict[str, Any]) -> Lobby:
    _keys(m, ("type", "name", "options", "table", "locked"), "lobby")
    try:
        options = options_from_wire(m["options"], "lobby.options")  # the header's options (log.md §5)
    except LogFormatError as exc:
        raise MessageError("bad-message", str(exc)[:300]) from None
    table: list[LobbySeat | None] = []
    for i, raw in enumerate(_list(m["table"], "lobby.table", 6)):
        if raw is None:
            table.append(None)
            continue
        where = f"lobby.table[{i}]"
        s = _map(raw, where)
        _keys(s, ("name", "colour", "player", "bot", "key"), where)
        for key in ("name", "colour", "player"):
            _str(s[key], f"{where}.{key}")
        if s["bot"] is not None:
            _str(s["bot"], f"{where}.bot")
        table.append(LobbySeat(Seat(s["name"], s["colour"], s["player"], s["bot"]), s["key"]))
    return Lobby(
        name=m["name"],
        options=options,
        table=tuple(table),
        locked=m["locked"],
    )


def _read_claim(m: dict[str, Any]) -> Claim:
    _keys(m, ("type", "seat", "name", "colour", "key", "bot"), "claim")
    if m["bot"] is not None:
        _str(m["bot"], "claim.bot")
    return Claim(seat=m["seat"], name=m["name"], colour=m["colour"], key=m["key"], bot=m["bot"])


def _read_commit(m: dict[str, Any]) -> Commit:
    _keys(m, ("type", "seat", "hash", "sig"), "commit")
    return Commit(seat=m["seat"], hash=m["hash"], sig=m["sig"])


def _read_reveal(m: dict[str, Any]) -> Reveal:
    _keys(m, ("type", "seat", "nonce"), "reveal")
    return Reveal(seat=m["seat"], nonce=m["nonce"])


def _read_start(m: dict[str, Any]) -> Start:
    _keys(m, ("type", "header"), "start")
    return Start(header=_header_in(m["header"], "start.header"))


_READERS: dict[str, Any] = {
    "hello": _read_hello,
    "welcome": _read_welcome,
    "reject": _read_reject,
    "entries": _read_entries,
    "want": _read_want,
    "heartbeat": _read_heartbeat,
    "bye": _read_bye,
    "error": _read_error,
    "lobby": _read_lobby,
    "claim": _read_claim,
    "commit": _read_commit,
    "reveal": _read_reveal,
    "start": _read_start,
}
