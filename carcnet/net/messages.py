"""Provides the wire messages as values and their msgpack maps (``protocol/wire.md`` §3–4, §6).

Every message is a frozen dataclass whose fields are declared once, as data: each field's Python
name, wire name and codec (its msgpack type, range or size, and how a part is read and written). From
the declarations come the message's own check when it is built (so a message that exists is well
formed), :func:`to_wire` (``type``, then the fields in declaration order: the spec's tables and the
canonical encoding) and :func:`from_wire`, which reads a map back strictly: exactly the declared keys,
each of its msgpack type and in its range, or :class:`MessageError` with the code the peer is told.
The checks across fields (a welcome's header and digest, consecutive entries) are each message's
``_check_more``. The header and
entry maps inside messages are those of log format 2 (``protocol/log.md`` §5–6), read and written by
:mod:`carcnet.log.codec`: a header with its ``keys``, ``commits`` and ``nonces``, an entry with its
``sig``, exactly as a peer saves them (``wire.md`` §4.2–4.3). The wire only demands more of them:
a header has keys, an entry has its signature.

>>> to_wire(Want(from_seq=3))
{'type': 'want', 'from': 3}
>>> from_wire({"type": "bye", "reason": "quit"})
Bye(reason='quit')
>>> decode_message(encode_message(Heartbeat(have=0, digest=None)))
Heartbeat(have=0, digest=None, time=None, sees=(), seats=())
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import ipaddress
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeAlias

from carcnet.engine import RULES_VERSION, DrawTile, Rules
from carcnet.engine.draws import MAX_CHAIN
from carcnet.log import (
    COLOURS,
    READ_FORMATS,
    TABLE_FORMAT,
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
from .signing import KEY_SIZE, NONCE_SIZE, SIG_SIZE, new_nonce

__all__ = [
    "BYE_REASONS",
    "CHAT_ID_SIZE",
    "CODES",
    "MAX_CHAT",
    "MAX_ENTRIES",
    "MAX_PEERS",
    "MAX_TEXT",
    "MESSAGE_TYPES",
    "PROTO_VERSION",
    "ROLES",
    "Bye",
    "Chat",
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
    "Proof",
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
PROTO_VERSION = 4
#: The lowest log format of the header and entry maps the wire carries (``wire.md`` §8).
LOG_FORMAT = 2
#: The log formats of the headers the wire carries: 2 (a seeded game resumed from an older save)
#: and 3 (table draws, every new game). Entries of both have the same keys (``log.md`` §7).
WIRE_FORMATS = (2, 3)
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
    "bad-reveal": True,
    "bad-chat": True,
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
#: Characters of a chat line at most (``wire.md`` §4.9).
MAX_CHAT = 200
#: Bytes of a chat line's id.
CHAT_ID_SIZE = 8
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


def _check_have(have: object, digest: object, where: str) -> None:
    _check_int(have, f"{where}.have", 0, 2**32)
    if digest is not None:
        _check_bin(digest, f"{where}.digest", DIGEST_SIZE)
    if digest is None and have != 0:
        raise _bad(f"{where}.digest", "is nil only for a peer that holds no header (have 0)")


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
        header: The log header (format 2 or 3, rules 2), holding *keys*, *commits* and *nonces*.
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
                self.header, keys=self.keys, commits=self.commits, nonces=self.nonces,
                format=max(self.header.format, LOG_FORMAT),
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
            :func:`carcnet.net.signing.entry_bytes`; ``None`` for a table draw (``log.md`` §6),
            whose values prove themselves, and only for one.
    """

    entry: LogEntry
    sig: bytes | None

    def __post_init__(self) -> None:
        if not isinstance(self.entry, LogEntry):
            raise _bad("entry", "must be a LogEntry")
        if isinstance(self.entry.move, DrawTile):
            if self.sig is not None:
                raise _bad("entry.sig", "must be nil: a draw is not signed")
        else:
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


# ---------------------------------------------------------------------- field declarations


class _Field:
    """How one field of a message is checked, written and read (``wire.md`` §4's tables).

    A message declares each field once: its Python name, its wire name (``meta(..., wire="from")``)
    and one of these codecs. :func:`to_wire`, :func:`from_wire` and every message's check are derived
    from the declarations, in declaration order, which is the canonical key order.
    """

    def check(self, value: object, where: str) -> None:
        """Raises :class:`MessageError` unless *value* is a valid Python value of this field."""

    def write(self, value: Any) -> Any:
        """The field's plain wire value."""
        return value

    def read(self, raw: Any, where: str) -> Any:
        """The Python value of a wire value (checked when the message is built)."""
        return raw


class _Int(_Field):
    def __init__(self, low: int, high: int) -> None:
        self.low, self.high = low, high

    def check(self, value: object, where: str) -> None:
        _check_int(value, where, self.low, self.high)


class _Bin(_Field):
    def __init__(self, size: int) -> None:
        self.size = size

    def check(self, value: object, where: str) -> None:
        _check_bin(value, where, self.size)


class _Name(_Field):
    def check(self, value: object, where: str) -> None:
        _check_text(value, where)


class _GameId(_Field):
    def check(self, value: object, where: str) -> None:
        _check_game(value, where)


class _OneOf(_Field):
    def __init__(self, values: tuple[str, ...]) -> None:
        self.values = values

    def check(self, value: object, where: str) -> None:
        if value not in self.values:
            raise _bad(where, f"must be one of {', '.join(self.values)}, got {value!r}")


class _Code(_Field):
    def check(self, value: object, where: str) -> None:
        _check_code(value, where)


class _Text(_Field):
    def check(self, value: object, where: str) -> None:
        _check_message_text(value, where)


class _ChatText(_Field):
    def check(self, value: object, where: str) -> None:
        _check_text(value, where, MAX_CHAT)


class _Bool(_Field):
    def check(self, value: object, where: str) -> None:
        if not isinstance(value, bool):
            raise _bad(where, "must be a bool")


class _Optional(_Field):
    """``nil`` or the inner field."""

    def __init__(self, inner: _Field) -> None:
        self.inner = inner

    def check(self, value: object, where: str) -> None:
        if value is not None:
            self.inner.check(value, where)

    def write(self, value: Any) -> Any:
        return None if value is None else self.inner.write(value)

    def read(self, raw: Any, where: str) -> Any:
        return None if raw is None else self.inner.read(raw, where)


class _Array(_Field):
    """An array of at most *limit* items of one field, read into a tuple; distinct unless *repeats*."""

    def __init__(self, item: _Field, limit: int, *, repeats: bool = False) -> None:
        self.item, self.limit, self.repeats = item, limit, repeats

    def check(self, value: object, where: str) -> None:
        if not isinstance(value, tuple):
            raise _bad(where, "must be a tuple")
        if len(value) > self.limit:
            raise _bad(where, f"holds at most {self.limit} items")
        for i, item in enumerate(value):
            self.item.check(item, f"{where}[{i}]")
        if not self.repeats and len(set(value)) != len(value):
            raise _bad(where, "holds an item twice")

    def write(self, value: tuple[Any, ...]) -> Any:
        return [self.item.write(v) for v in value]

    def read(self, raw: Any, where: str) -> Any:
        return tuple(self.item.read(v, f"{where}[{i}]") for i, v in enumerate(_list(raw, where, self.limit)))


class _Header(_Field):
    """A :class:`WireHeader`: the log format 2 header map (``wire.md`` §4.2)."""

    def check(self, value: object, where: str) -> None:
        if not isinstance(value, WireHeader):
            raise _bad(where, "must be a WireHeader")

    def write(self, value: WireHeader) -> Any:
        return _header_out(value)

    def read(self, raw: Any, where: str) -> Any:
        return _header_in(raw, where)


class _Options(_Field):
    """The rule options as the header's ``options`` map (``log.md`` §5)."""

    def check(self, value: object, where: str) -> None:
        if not isinstance(value, Rules):
            raise _bad(where, "must be Rules")
        try:
            options_to_wire(value, where)
        except LogFormatError as exc:
            raise MessageError("bad-message", str(exc)[:300]) from None

    def write(self, value: Rules) -> Any:
        return options_to_wire(value)

    def read(self, raw: Any, where: str) -> Any:
        try:
            return options_from_wire(raw, where)
        except LogFormatError as exc:
            raise MessageError("bad-message", str(exc)[:300]) from None


class _Tuple(_Field):
    """An array of at most *limit* items of one part, read into a tuple."""

    def __init__(self, part: type, limit: int, *, optional: bool = False) -> None:
        self.part, self.limit, self.optional = part, limit, optional

    def check(self, value: object, where: str) -> None:
        ok = (lambda v: v is None or isinstance(v, self.part)) if self.optional else (lambda v: isinstance(v, self.part))
        if not isinstance(value, tuple) or not all(ok(v) for v in value):
            raise _bad(where, f"must be a tuple of {self.part.__name__}")
        if len(value) > self.limit:
            raise _bad(where, f"holds at most {self.limit} items")

    def write(self, value: tuple[Any, ...]) -> Any:
        return [None if v is None else _PART_OUT[self.part](v) for v in value]

    def read(self, raw: Any, where: str) -> Any:
        items = _list(raw, where, self.limit)
        reader = _PART_IN[self.part]
        return tuple(None if v is None and self.optional else reader(v, f"{where}[{i}]") for i, v in enumerate(items))


def _wire(
    codec: _Field, *, wire: str | None = None, default: Any = dataclasses.MISSING,
    factory: Callable[[], Any] | None = None,
) -> Any:
    """A message field: its codec and its wire name (the Python name unless given); its default, or
    a *factory* that makes a fresh one for each message."""
    metadata = {"codec": codec, "wire": wire}
    if factory is not None:
        return dataclasses.field(default_factory=factory, metadata=metadata)
    if default is dataclasses.MISSING:
        return dataclasses.field(metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


class _Message:
    """What every message shares: built, it checks each declared field in order, then
    :meth:`_check_more` (the checks across fields); a message that exists is well formed."""

    __slots__ = ()
    #: The ``type`` of the message on the wire.
    TYPE: ClassVar[str]

    def __post_init__(self) -> None:
        for attr, codec, _, where in _declared(type(self)):
            codec.check(getattr(self, attr), where)
        self._check_more()

    def _check_more(self) -> None:
        """The checks across fields (none by default)."""


def _wire_name(f: dataclasses.Field[Any]) -> str:
    return f.metadata.get("wire") or f.name


@functools.cache
def _declared(cls: type) -> tuple[tuple[str, _Field, str, str], ...]:
    """The declared fields of a message class, in order: (attribute, codec, wire name, where it is
    named in errors: ``"<type>.<wire name>"``)."""
    out = []
    for f in dataclasses.fields(cls):
        name = _wire_name(f)
        out.append((f.name, f.metadata["codec"], name, f"{cls.TYPE}.{name}"))  # type: ignore[attr-defined]
    return tuple(out)


def _proto() -> Any:
    return _wire(_Int(0, 2**32), default=PROTO_VERSION)


def _rules() -> Any:
    return _wire(_Int(0, 2**32), default=RULES_VERSION)


def _have() -> Any:
    return _wire(_Int(0, 2**32), default=0)


def _digest() -> Any:
    return _wire(_Optional(_Bin(DIGEST_SIZE)), default=None)


def _seat() -> Any:
    return _wire(_Int(0, 6))


# ---------------------------------------------------------------------- messages


@dataclass(frozen=True, slots=True, kw_only=True)
class Hello(_Message):
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
        nonce: 32 fresh random bytes, new for every connection (a fresh one by default): the
            acceptor's ``proof`` signs them (``wire.md`` §3.4).
    """

    TYPE: ClassVar[str] = "hello"
    proto: int = _proto()
    rules: int = _rules()
    game: str = _wire(_GameId())
    role: Role = _wire(_OneOf(ROLES))
    name: str = _wire(_Name())
    key: bytes = _wire(_Bin(KEY_SIZE))
    have: int = _have()
    digest: bytes | None = _digest()
    port: int | None = _wire(_Optional(_Int(1, 65536)), default=None)
    nonce: bytes = _wire(_Bin(NONCE_SIZE), factory=new_nonce)

    def _check_more(self) -> None:
        _check_have(self.have, self.digest, "hello")


@dataclass(frozen=True, slots=True, kw_only=True)
class Welcome(_Message):
    """The accepting side's answer to an acceptable ``hello`` (``wire.md`` §4.2).

    Attributes:
        proto, rules, game, role, name, key, have, digest: As in :class:`Hello`, for the acceptor (a
            welcome has no *port*: the connector knows where it connected).
        header: The game's header once the game has started, ``None`` in the lobby.
        peers: Other peers of the game the acceptor knows (may be empty), at most :data:`MAX_PEERS`.
        nonce: 32 fresh random bytes, new for every connection (a fresh one by default): the
            connector's ``proof`` signs them (``wire.md`` §3.4).

    Raises:
        MessageError: ``"bad-message"``: a field out of range, or *header*, *have* and *digest*
            disagree (no header: have 0, digest nil; a header: its game id, digest given, and at
            have 0 the digest is the header's).
    """

    TYPE: ClassVar[str] = "welcome"
    proto: int = _proto()
    rules: int = _rules()
    game: str = _wire(_GameId())
    role: Role = _wire(_OneOf(ROLES))
    name: str = _wire(_Name())
    key: bytes = _wire(_Bin(KEY_SIZE))
    have: int = _have()
    digest: bytes | None = _digest()
    header: WireHeader | None = _wire(_Optional(_Header()), default=None)
    peers: tuple[PeerInfo, ...] = _wire(_Tuple(PeerInfo, MAX_PEERS), default=())
    nonce: bytes = _wire(_Bin(NONCE_SIZE), factory=new_nonce)

    def _check_more(self) -> None:
        _check_have(self.have, self.digest, "welcome")
        if self.header is None:
            if self.digest is not None:
                raise _bad("welcome.digest", "must be nil without a header")
            return
        if self.header.game != self.game:
            raise _bad("welcome.header.game", "must be the welcome's game")
        if self.digest is None:
            raise _bad("welcome.digest", "must be given with a header")
        if self.have == 0 and self.digest != self.header.header.digest:
            raise _bad("welcome.digest", "at have 0 must be the header's setup digest")


@dataclass(frozen=True, slots=True, kw_only=True)
class Reject(_Message):
    """The accepting side's refusal of a ``hello``; the connection then closes (``wire.md`` §4.2).

    Attributes:
        code: Why (``wire.md`` §6), e.g. ``"bad-version"``, ``"wrong-game"``, ``"no-seat"``.
        message: Words for people, at most 256 characters (may be empty).
    """

    TYPE: ClassVar[str] = "reject"
    code: str = _wire(_Code())
    message: str = _wire(_Text(), default="")


@dataclass(frozen=True, slots=True, kw_only=True)
class Proof(_Message):
    """Each side's proof that it holds the identity key it named: its signature over the handshake's
    transcript (``wire.md`` §3.4, :func:`carcnet.net.signing.proof_bytes`). The acceptor sends it
    right after its ``welcome``, the connector as soon as it has the ``welcome``.

    Attributes:
        sig: The identity key's signature, 64 bytes.
    """

    TYPE: ClassVar[str] = "proof"
    sig: bytes = _wire(_Bin(SIG_SIZE))


@dataclass(frozen=True, slots=True, kw_only=True)
class Entries(_Message):
    """Signed entries with consecutive seqs from *from_seq* (``wire.md`` §4.3).

    Attributes:
        from_seq: Seq of the first entry (wire key ``from``), ≥ 1; with no entries, where the sender's
            answer to a ``want`` starts (it has nothing from there).
        entries: 0 to :data:`MAX_ENTRIES` entries; ``entries[i].seq == from_seq + i``.
    """

    TYPE: ClassVar[str] = "entries"
    from_seq: int = _wire(_Int(1, 2**32), wire="from")
    entries: tuple[SignedEntry, ...] = _wire(_Tuple(SignedEntry, MAX_ENTRIES))

    def _check_more(self) -> None:
        for i, e in enumerate(self.entries):
            if e.seq != self.from_seq + i:
                raise _bad(f"entries.entries[{i}].seq", f"must be {self.from_seq + i}, got {e.seq}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Want(_Message):
    """A request for every entry from seq *from_seq* on (``wire.md`` §4.4).

    Attributes:
        from_seq: The first seq wanted (wire key ``from``), ≥ 1.
    """

    TYPE: ClassVar[str] = "want"
    from_seq: int = _wire(_Int(1, 2**32), wire="from")


@dataclass(frozen=True, slots=True, kw_only=True)
class Heartbeat(_Message):
    """What the sender holds and whom it is in touch with, sent at least every 5 s of silence and when
    its connections change (``wire.md`` §4.5).

    Attributes:
        have: Seq of the sender's last entry (0: none).
        digest: The state digest at *have*, or ``None`` when the sender holds no header.
        time: The sender's clock, milliseconds since 1970-01-01 UTC, or ``None``; informative only.
        sees: The identity keys of the players (host and players, not spectators) the sender has an
            open connection to now, at most :data:`MAX_PEERS`, each once: the table's presence.
        seats: The seats the sender plays now (signs the entries of: its own, its bots', those handed
            over to its bots), each once.
    """

    TYPE: ClassVar[str] = "heartbeat"
    have: int = _wire(_Int(0, 2**32))
    digest: bytes | None = _wire(_Optional(_Bin(DIGEST_SIZE)))
    time: int | None = _wire(_Optional(_Int(0, 2**63)), default=None)
    sees: tuple[bytes, ...] = _wire(_Array(_Bin(KEY_SIZE), MAX_PEERS), default=())
    seats: tuple[int, ...] = _wire(_Array(_Int(0, 6), 6), default=())

    def _check_more(self) -> None:
        _check_have(self.have, self.digest, "heartbeat")


@dataclass(frozen=True, slots=True, kw_only=True)
class Bye(_Message):
    """The sender closes the connection (``wire.md`` §4.7).

    Attributes:
        reason: One of :data:`BYE_REASONS`.
    """

    TYPE: ClassVar[str] = "bye"
    reason: str = _wire(_OneOf(BYE_REASONS))


@dataclass(frozen=True, slots=True, kw_only=True)
class Error(_Message):
    """Bad input was received; if :func:`closes` for *code*, the sender closes (``wire.md`` §4.8, §6).

    Attributes:
        code: What was wrong (``wire.md`` §6).
        message: Words for people, at most 256 characters (may be empty).
        seq: The seq the error concerns (the offending entry; for ``bad-seq`` the seq expected), or
            ``None``.
    """

    TYPE: ClassVar[str] = "error"
    code: str = _wire(_Code())
    message: str = _wire(_Text(), default="")
    seq: int | None = _wire(_Optional(_Int(0, 2**32)), default=None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Lobby(_Message):
    """The host's table of seats before the game starts (``wire.md`` §4.6).

    Attributes:
        name: The game's name, 1 to 32 characters.
        options: The rule options, carried as the header's ``options`` map (``log.md`` §5, with
            ``river-start`` when ``river``).
        table: One item per seat, 2 to 6: ``None`` for an open seat, else a :class:`LobbySeat`.
            Taken seats have distinct colours and keys.
        locked: ``True`` once the table is full and closed for commit–reveal: no more claims.
        clock: The turn clock the table plays with, ``(seconds a turn, seconds of bank a seat)``, or
            ``None`` for none (``wire.md`` §4.6, §5.8).
    """

    TYPE: ClassVar[str] = "lobby"
    name: str = _wire(_Name())
    options: Rules = _wire(_Options())
    table: tuple[LobbySeat | None, ...] = _wire(_Tuple(LobbySeat, 6, optional=True))
    locked: bool = _wire(_Bool(), default=False)
    clock: tuple[int, ...] | None = _wire(_Optional(_Array(_Int(0, 36000), 2, repeats=True)), default=None)

    def _check_more(self) -> None:
        if self.clock is not None and (len(self.clock) != 2 or not 1 <= self.clock[0] <= 3600):
            raise _bad("lobby.clock", "is [turn seconds 1 to 3600, bank seconds 0 to 36000] or nil")
        if len(self.table) < 2:
            raise _bad("lobby.table", "must be a tuple of 2 to 6 seats")
        taken = [s for s in self.table if s is not None]
        if len({s.seat.colour for s in taken}) != len(taken):
            raise _bad("lobby.table", "two seats have the same colour")
        if len({s.key for s in taken}) != len(taken):
            raise _bad("lobby.table", "two seats have the same key")


@dataclass(frozen=True, slots=True, kw_only=True)
class Claim(_Message):
    """A player asks the host for a seat (``wire.md`` §4.6).

    Attributes:
        seat: The seat index wanted, 0 to 5.
        name: The name to sit under, 1 to 32 characters.
        colour: One of ``carcnet.log.COLOURS``.
        key: The seat key's 32-byte public key: it signs the seat's commitment and entries.
        bot: Which bot plays the seat (a ``carcnet.bots`` name), or ``None`` for a person
            (the header's seat ``player`` and ``bot``, ``log.md`` §5).
    """

    TYPE: ClassVar[str] = "claim"
    seat: int = _seat()
    name: str = _wire(_Name())
    colour: str = _wire(_OneOf(COLOURS))
    key: bytes = _wire(_Bin(KEY_SIZE))
    bot: str | None = _wire(_Optional(_Name()), default=None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Commit(_Message):
    """A seat's commitment to its nonce, signed with the seat key (``wire.md`` §4.6, §5.3).

    Attributes:
        seat: The seat, 0 to 5.
        hash: ``SHA-256(nonce)``, 32 bytes.
        sig: The seat key's signature over :func:`carcnet.net.signing.commit_bytes`, 64 bytes.
    """

    TYPE: ClassVar[str] = "commit"
    seat: int = _seat()
    hash: bytes = _wire(_Bin(32))
    sig: bytes = _wire(_Bin(SIG_SIZE))


@dataclass(frozen=True, slots=True, kw_only=True)
class Reveal(_Message):
    """A seat's chain value for one draw of a game with table draws (``wire.md`` §5.7,
    ``deck.md`` §5): sent by the peer that plays the seat once it has admitted every entry before the
    draw. It proves itself: hashed down the seat's chain it gives a value already known.

    Attributes:
        seat: The seat, 0 to 5.
        draw: The draw it is for: 1 for the game's first, ≤ :data:`~carcnet.engine.draws.MAX_CHAIN`.
        value: The seat's 32-byte chain value for that draw.
    """

    TYPE: ClassVar[str] = "reveal"
    seat: int = _seat()
    draw: int = _wire(_Int(1, MAX_CHAIN + 1))
    value: bytes = _wire(_Bin(32))


@dataclass(frozen=True, slots=True, kw_only=True)
class Chat(_Message):
    """A line of table talk from a seat's player, signed with the seat key and passed on by every
    peer to the others once (``wire.md`` §4.9). Not part of the game: never in the log.

    Attributes:
        seat: The seat that speaks, 0 to 5: its name in the header is the speaker's.
        id: 8 random bytes naming the line, with *seat*, to pass it on once.
        time: The writer's clock, milliseconds since 1970-01-01 UTC: a line more than
            :data:`~carcnet.net.sync.CHAT_AGE` seconds off a receiver's clock is dropped (a replay).
        text: 1 to :data:`MAX_CHAT` characters under the rule of names (log.md §5): no control or
            invisible formatting characters.
        sig: The seat key's signature over :func:`carcnet.net.signing.chat_bytes`, 64 bytes.
    """

    TYPE: ClassVar[str] = "chat"
    seat: int = _seat()
    id: bytes = _wire(_Bin(CHAT_ID_SIZE))
    time: int = _wire(_Int(0, 2**63))
    text: str = _wire(_ChatText())
    sig: bytes = _wire(_Bin(SIG_SIZE))


@dataclass(frozen=True, slots=True, kw_only=True)
class Start(_Message):
    """The host starts the game with the agreed header (``wire.md`` §4.6).

    Attributes:
        header: The header; its commitments and nonces are given (the seed came from them).
    """

    TYPE: ClassVar[str] = "start"
    header: WireHeader = _wire(_Header())

    def _check_more(self) -> None:
        if self.header.header.table is None:
            raise MessageError("bad-header", "the header of a start holds the seats' chain roots (table draws)")


Message: TypeAlias = (
    Hello | Welcome | Reject | Proof | Entries | Want | Heartbeat | Bye | Error | Lobby | Claim | Commit | Reveal
    | Start | Chat
)

#: Every message class by its wire ``type`` (``wire.md`` §4).
_BY_TYPE: dict[str, type[_Message]] = {
    cls.TYPE: cls for cls in (Hello, Welcome, Reject, Proof, Entries, Want, Heartbeat, Bye, Error, Lobby, Claim,
                              Commit, Reveal, Start, Chat)
}
#: The wire ``type`` of every message of this version, in the order of ``wire.md`` §4.
MESSAGE_TYPES = tuple(_BY_TYPE)
#: The messages whose ``proto`` and ``rules`` are judged before any other field (``wire.md`` §8).
_VERSIONED = (Hello, Welcome)


# ---------------------------------------------------------------------- encoding


def to_wire(message: Message) -> dict[str, Any]:
    """The plain map of a message: ``type``, then the declared fields in order (``wire.md`` §4; the
    canonical encoding).

    Raises:
        TypeError: *message* is not a message.
    """
    if not isinstance(message, _Message):
        raise TypeError(f"not a wire message: {message!r}")
    out: dict[str, Any] = {"type": message.TYPE}
    for attr, codec, name, _ in _declared(type(message)):
        out[name] = codec.write(getattr(message, attr))
    return out


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

    Reading is strict: exactly the keys declared for the type, each of its msgpack type (an int is not
    a bool, a str is not a bin) and within its range. In a ``hello`` or ``welcome`` the ``proto`` and
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
    cls = _BY_TYPE.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise MessageError(
            "unknown-message", f"unknown message type {kind!r}" if "type" in m else "the map has no 'type'"
        )
    try:
        if cls in _VERSIONED:
            _versions(m, cls.TYPE)
        declared = _declared(cls)
        _keys(m, _wire_keys(cls), cls.TYPE)
        values = {attr: codec.read(m[name], where) for attr, codec, name, where in declared}
        return cls(**values)  # type: ignore[return-value]
    except LogVersionError as exc:
        raise MessageError("bad-version", f"{kind}: {exc}"[:300]) from None
    except LogFormatError as exc:
        raise _bad(f"{kind}:", str(exc)) from None


@functools.cache
def _wire_keys(cls: type) -> tuple[str, ...]:
    """The keys of a message class's map, in order: ``type``, then its declared fields."""
    return ("type", *(name for _, _, name, _ in _declared(cls)))


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


def _header_in(value: object, where: str) -> WireHeader:
    m = _map(value, where)
    if m.get("type") != "header":
        raise _bad(f"{where}.type", "must be 'header'")
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


def _entry_in(value: object, where: str) -> SignedEntry:
    e = _map(value, where)
    if e.get("type") != "entry":
        raise _bad(f"{where}.type", "must be 'entry'")
    entry = log_from_wire(e, format=TABLE_FORMAT)  # entries of formats 2 and 3 have the same keys
    assert isinstance(entry, LogEntry)
    draw = isinstance(entry.move, DrawTile)
    if (entry.sig is None) != draw:
        raise _bad(f"{where}.sig", "must be bin of 64 bytes: every entry on the wire but a draw is signed"
                   if not draw else "must be nil: a draw is not signed")
    return SignedEntry.of(entry)


def _peer_in(value: object, where: str) -> PeerInfo:
    p = _map(value, where)
    _keys(p, _PEER_KEYS, where)
    return PeerInfo(p["key"], p["name"], _str(p["addr"], f"{where}.addr"), p["port"])


def _lobby_seat_in(value: object, where: str) -> LobbySeat:
    s = _map(value, where)
    _keys(s, _LOBBY_SEAT_KEYS, where)
    for key in ("name", "colour", "player"):
        _str(s[key], f"{where}.{key}")
    if s["bot"] is not None:
        _str(s["bot"], f"{where}.bot")
    return LobbySeat(Seat(s["name"], s["colour"], s["player"], s["bot"]), s["key"])


def _header_out(h: WireHeader) -> dict[str, Any]:
    return log_to_wire(h.header)  # format 2: keys, commits and nonces come last (wire.md §4.2)


_PEER_KEYS = ("key", "name", "addr", "port")
_LOBBY_SEAT_KEYS = ("name", "colour", "player", "bot", "key")
#: How each part of a message is written (maps in the order of wire.md §4) and read.
_PART_OUT: dict[type, Callable[[Any], Any]] = {
    SignedEntry: lambda e: log_to_wire(e.entry, format=TABLE_FORMAT),  # format 2: sig comes last (wire.md §4.3)
    PeerInfo: lambda p: {"key": p.key, "name": p.name, "addr": p.addr, "port": p.port},
    LobbySeat: lambda s: {"name": s.seat.name, "colour": s.seat.colour, "player": s.seat.player, "bot": s.seat.bot,
                          "key": s.key},
}
_PART_IN: dict[type, Callable[[Any, str], Any]] = {
    SignedEntry: _entry_in,
    PeerInfo: _peer_in,
    LobbySeat: _lobby_seat_in,
}
