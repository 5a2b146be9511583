"""Provides the wire messages as values and their msgpack maps (``protocol/wire.md`` §3–4, §6).

Every message is a frozen dataclass whose fields are declared once, as data: each field's Python
name, wire name and codec (its msgpack type, range or size, and how a part is read and written;
:mod:`carcnet.net.fields`). From the declarations come the message's own check when it is built (so
a message that exists is well formed), :func:`to_wire` (``type``, then the fields in declaration
order: the spec's tables and the canonical encoding) and :func:`from_wire`, which reads a map back
strictly: exactly the declared keys, each of its msgpack type and in its range, or
:class:`MessageError` with the code the peer is told. The checks across fields (a welcome's header
and digest, consecutive entries) are each message's ``_check_more``. The parts of messages (a
header, a signed entry, a lobby seat, a peer's address) and their maps are :mod:`carcnet.net.parts`;
they, the wire versions and :class:`MessageError` are importable from here as well.

>>> to_wire(Want(from_seq=3))
{'type': 'want', 'from': 3}
>>> from_wire({"type": "bye", "reason": "quit"})
Bye(reason='quit')
>>> decode_message(encode_message(Heartbeat(have=0, digest=None)))
Heartbeat(have=0, digest=None, time=None, sees=(), seats=(), banks=(), asks=())
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeAlias

from carcnet.engine import RULES_VERSION, Rules
from carcnet.engine.draws import MAX_CHAIN
from carcnet.log import COLOURS, LogFormatError, LogVersionError
from carcnet.log.values import DIGEST_SIZE, kind_of

from .fields import (
    PROTO_VERSION,
    Array,
    Bin,
    Bool,
    Code,
    Declared,
    GameId,
    Int,
    MessageError,
    Name,
    OneOf,
    Options,
    OrNil,
    Text,
    bad,
    check_have,
    check_keys,
    declare,
    declared,
)
from .framing import MAX_FRAME, decode_frame, encode_frame
from .parts import (
    LOG_FORMAT,
    WIRE_FORMATS,
    Header,
    LobbySeat,
    Part,
    Parts,
    PeerInfo,
    Seal,
    Give,
    SignedEntry,
    Vote,
    WireHeader,
)
from .signing import KEY_SIZE, NONCE_SIZE, SIG_SIZE, new_nonce

__all__ = [
    "BYE_REASONS",
    "CHAT_ID_SIZE",
    "CODES",
    "LOG_FORMAT",
    "MAX_BANK_MS",
    "MAX_CHAT",
    "MAX_ENTRIES",
    "MAX_PEERS",
    "MAX_SERVER",
    "MAX_TEXT",
    "MEET_CODE",
    "MESSAGE_TYPES",
    "PROTO_VERSION",
    "ROLES",
    "WIRE_FORMATS",
    "Ack",
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
    "Meet",
    "Message",
    "MessageError",
    "PeerInfo",
    "Peers",
    "Proof",
    "Reject",
    "Reveal",
    "Role",
    "Seal",
    "SignedEntry",
    "SpectatorChat",
    "Start",
    "Give",
    "Vote",
    "Want",
    "Welcome",
    "WireHeader",
    "closes",
    "decode_message",
    "encode_message",
    "from_wire",
    "to_wire",
]

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
#: The largest bank of the turn clock in a heartbeat, in milliseconds: the lobby's 36000 s (``wire.md`` §4.5).
MAX_BANK_MS = 36_000_000
#: Bytes of a chat line's id.
CHAT_ID_SIZE = 8


def closes(code: str) -> bool:
    """Whether an error or reject with *code* ends the connection (``wire.md`` §6); unknown codes do."""
    return CODES.get(code, True)


# ---------------------------------------------------------------------- declarations


class _Message(Declared):
    """What every message shares: its wire ``type`` and its declared fields, checked in order when
    it is built, then :meth:`_check_more` (:class:`~carcnet.net.fields.Declared`)."""

    __slots__ = ()


def _proto() -> Any:
    return declare(Int(0, 2**32), default=PROTO_VERSION)


def _rules() -> Any:
    return declare(Int(0, 2**32), default=RULES_VERSION)


def _have() -> Any:
    return declare(Int(0, 2**32), default=0)


def _digest() -> Any:
    return declare(OrNil(Bin(DIGEST_SIZE)), default=None)


def _seat() -> Any:
    return declare(Int(0, 6))


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
    game: str = declare(GameId())
    role: Role = declare(OneOf(ROLES))
    name: str = declare(Name())
    key: bytes = declare(Bin(KEY_SIZE))
    have: int = _have()
    digest: bytes | None = _digest()
    port: int | None = declare(OrNil(Int(1, 65536)), default=None)
    nonce: bytes = declare(Bin(NONCE_SIZE), factory=new_nonce)

    def _check_more(self) -> None:
        check_have(self.have, self.digest, "hello")


@dataclass(frozen=True, slots=True, kw_only=True)
class Welcome(_Message):
    """The accepting side's answer to an acceptable ``hello`` (``wire.md`` §4.2).

    Attributes:
        proto, rules, game, role, name, key, have, digest: As in :class:`Hello`, for the acceptor (a
            welcome has no *port*: the connector knows where it connected).
        header: The game's header once the game has started, ``None`` in the lobby.
        seal: The host's seal of *header* (``wire.md`` §4.2 "The game id"), ``None`` without a header
            or when the acceptor holds none (a spectator takes no header without it).
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
    game: str = declare(GameId())
    role: Role = declare(OneOf(ROLES))
    name: str = declare(Name())
    key: bytes = declare(Bin(KEY_SIZE))
    have: int = _have()
    digest: bytes | None = _digest()
    header: WireHeader | None = declare(OrNil(Header()), default=None)
    seal: Seal | None = declare(OrNil(Part(Seal)), default=None)
    peers: tuple[PeerInfo, ...] = declare(Parts(PeerInfo, MAX_PEERS), default=())
    nonce: bytes = declare(Bin(NONCE_SIZE), factory=new_nonce)

    def _check_more(self) -> None:
        check_have(self.have, self.digest, "welcome")
        if self.header is None:
            if self.digest is not None:
                raise bad("welcome.digest", "must be nil without a header")
            if self.seal is not None:
                raise bad("welcome.seal", "must be nil without a header")
            return
        if self.header.game != self.game:
            raise bad("welcome.header.game", "must be the welcome's game")
        if self.digest is None:
            raise bad("welcome.digest", "must be given with a header")
        if self.have == 0 and self.digest != self.header.header.digest:
            raise bad("welcome.digest", "at have 0 must be the header's setup digest")


@dataclass(frozen=True, slots=True, kw_only=True)
class Reject(_Message):
    """The accepting side's refusal of a ``hello``; the connection then closes (``wire.md`` §4.2).

    Attributes:
        code: Why (``wire.md`` §6), e.g. ``"bad-version"``, ``"wrong-game"``, ``"no-seat"``.
        message: Words for people, at most 256 characters (may be empty).
    """

    TYPE: ClassVar[str] = "reject"
    code: str = declare(Code())
    message: str = declare(Text(MAX_TEXT), default="")


@dataclass(frozen=True, slots=True, kw_only=True)
class Proof(_Message):
    """Each side's proof that it holds the identity key it named: its signature over the handshake's
    transcript (``wire.md`` §3.4, :func:`carcnet.net.signing.proof_bytes`). The acceptor sends it
    right after its ``welcome``, the connector as soon as it has the ``welcome``.

    Attributes:
        sig: The identity key's signature, 64 bytes.
    """

    TYPE: ClassVar[str] = "proof"
    sig: bytes = declare(Bin(SIG_SIZE))


@dataclass(frozen=True, slots=True, kw_only=True)
class Entries(_Message):
    """Signed entries with consecutive seqs from *from_seq* (``wire.md`` §4.3).

    Attributes:
        from_seq: Seq of the first entry (wire key ``from``), ≥ 1; with no entries, where the sender's
            answer to a ``want`` starts (it has nothing from there).
        entries: 0 to :data:`MAX_ENTRIES` entries; ``entries[i].seq == from_seq + i``.
    """

    TYPE: ClassVar[str] = "entries"
    from_seq: int = declare(Int(1, 2**32), wire="from")
    entries: tuple[SignedEntry, ...] = declare(Parts(SignedEntry, MAX_ENTRIES))

    def _check_more(self) -> None:
        for i, e in enumerate(self.entries):
            if e.seq != self.from_seq + i:
                raise bad(f"entries.entries[{i}].seq", f"must be {self.from_seq + i}, got {e.seq}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Want(_Message):
    """A request for every entry from seq *from_seq* on (``wire.md`` §4.4).

    Attributes:
        from_seq: The first seq wanted (wire key ``from``), ≥ 1.
    """

    TYPE: ClassVar[str] = "want"
    from_seq: int = declare(Int(1, 2**32), wire="from")


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
        banks: Each seat's bank of the turn clock left at *have*, not counting a turn that runs, in
            milliseconds (0 to :data:`MAX_BANK_MS`), seat by seat, as the sender knows them (wire.md
            §5.8); empty at a table without a clock and from a sender that does not know them. Only
            with a header (*digest* not ``None``).
        asks: The seats whose player the sender's person lets a bot play, asking the table's taker to
            hand them over (wire.md §5.6 "Who makes the handover"), each once; empty mostly.
    """

    TYPE: ClassVar[str] = "heartbeat"
    have: int = declare(Int(0, 2**32))
    digest: bytes | None = declare(OrNil(Bin(DIGEST_SIZE)))
    time: int | None = declare(OrNil(Int(0, 2**63)), default=None)
    sees: tuple[bytes, ...] = declare(Array(Bin(KEY_SIZE), MAX_PEERS), default=())
    seats: tuple[int, ...] = declare(Array(Int(0, 6), 6), default=())
    banks: tuple[int, ...] = declare(Array(Int(0, MAX_BANK_MS + 1), 6, repeats=True), default=())
    asks: tuple[int, ...] = declare(Array(Int(0, 6), 6), default=())

    def _check_more(self) -> None:
        check_have(self.have, self.digest, "heartbeat")
        if self.banks and self.digest is None:
            raise bad("heartbeat.banks", "must be empty while the sender holds no header (digest nil)")


@dataclass(frozen=True, slots=True, kw_only=True)
class Bye(_Message):
    """The sender closes the connection (``wire.md`` §4.7).

    Attributes:
        reason: One of :data:`BYE_REASONS`.
    """

    TYPE: ClassVar[str] = "bye"
    reason: str = declare(OneOf(BYE_REASONS))


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
    code: str = declare(Code())
    message: str = declare(Text(MAX_TEXT), default="")
    seq: int | None = declare(OrNil(Int(0, 2**32)), default=None)


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
    name: str = declare(Name())
    options: Rules = declare(Options())
    table: tuple[LobbySeat | None, ...] = declare(Parts(LobbySeat, 6, optional=True))
    locked: bool = declare(Bool(), default=False)
    clock: tuple[int, ...] | None = declare(OrNil(Array(Int(0, 36001), 2, repeats=True)), default=None)

    def _check_more(self) -> None:
        if self.clock is not None and (len(self.clock) != 2 or not 1 <= self.clock[0] <= 3600):
            raise bad("lobby.clock", "is [turn seconds 1 to 3600, bank seconds 0 to 36000] or nil")
        if len(self.table) < 2:
            raise bad("lobby.table", "must be a tuple of 2 to 6 seats")
        taken = [s for s in self.table if s is not None]
        if len({s.seat.colour for s in taken}) != len(taken):
            raise bad("lobby.table", "two seats have the same colour")
        if len({s.key for s in taken}) != len(taken):
            raise bad("lobby.table", "two seats have the same key")


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
    name: str = declare(Name())
    colour: str = declare(OneOf(COLOURS))
    key: bytes = declare(Bin(KEY_SIZE))
    bot: str | None = declare(OrNil(Name()), default=None)


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
    hash: bytes = declare(Bin(32))
    sig: bytes = declare(Bin(SIG_SIZE))


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
    draw: int = declare(Int(1, MAX_CHAIN + 1))
    value: bytes = declare(Bin(32))


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
    id: bytes = declare(Bin(CHAT_ID_SIZE))
    time: int = declare(Int(0, 2**63))
    text: str = declare(Name(MAX_CHAT))
    sig: bytes = declare(Bin(SIG_SIZE))


@dataclass(frozen=True, slots=True, kw_only=True)
class SpectatorChat(_Message):
    """A line of table talk from a spectator, signed with its identity key and passed on by every
    peer to the others once, as a ``chat`` is (``wire.md`` §4.9a). Every screen shows it as a
    spectator's. Not part of the game: never in the log.

    Attributes:
        key: The spectator's 32-byte identity key (the one its handshake proved, §3.4): it signs.
        name: The spectator's name, 1 to 32 characters (its ``hello``'s): shown as a spectator's.
        id: 8 random bytes naming the line, with *key*, to pass it on once.
        time: The writer's clock, milliseconds since 1970-01-01 UTC, as a ``chat``'s.
        text: 1 to :data:`MAX_CHAT` characters under the rule of names, as a ``chat``'s.
        sig: The identity key's signature over :func:`carcnet.net.signing.spectator_chat_bytes`, 64 bytes.
    """

    TYPE: ClassVar[str] = "spectator-chat"
    key: bytes = declare(Bin(KEY_SIZE))
    name: str = declare(Name())
    id: bytes = declare(Bin(CHAT_ID_SIZE))
    time: int = declare(Int(0, 2**63))
    text: str = declare(Name(MAX_CHAT))
    sig: bytes = declare(Bin(SIG_SIZE))


@dataclass(frozen=True, slots=True, kw_only=True)
class Start(_Message):
    """The host starts the game with the agreed header (``wire.md`` §4.6).

    Attributes:
        header: The header; its commitments are the seats' chain roots (table draws).
        seal: The host's seal of *header* (``wire.md`` §4.2 "The game id"), ``None`` from a host whose
            game id is not made from its key (a spectator takes no header without a seal).
    """

    TYPE: ClassVar[str] = "start"
    header: WireHeader = declare(Header())
    seal: Seal | None = declare(OrNil(Part(Seal)), default=None)

    def _check_more(self) -> None:
        if self.header.header.draws is None:
            raise MessageError("bad-header", "the header of a start holds the seats' chain roots (table draws)")


@dataclass(frozen=True, slots=True, kw_only=True)
class Peers(_Message):
    """Where the player peers of the game listen, as the sender's address book has them now
    (``wire.md`` §4.10): a player sends it to the spectators it serves whenever its book learns a
    confirmed address, so that a spectator that came in before the players sat down (its welcome
    listed nobody) can fail over. Hints, as a welcome's ``peers`` are.

    Attributes:
        peers: The confirmed addresses, at most :data:`MAX_PEERS`.
    """

    TYPE: ClassVar[str] = "peers"
    peers: tuple[PeerInfo, ...] = declare(Parts(PeerInfo, MAX_PEERS))


#: A one-off code of an introduction (``wire.md`` §2.3 "Introductions"): a 12-digit nameplate and 36
#: hex digits.
MEET_CODE = re.compile(r"[0-9]{12}-[0-9a-f]{36}")
#: An invite server's address: a mailbox server's ``ws://`` or ``wss://`` URL, a transit relay's
#: ``tcp:HOST:PORT``; at most :data:`MAX_SERVER` characters each.
MEET_RELAY = re.compile(r"wss?://[^\s/]+(/\S*)?")
MEET_TRANSIT = re.compile(r"tcp:[^\s:]+:[0-9]{1,5}")
MAX_SERVER = 256


@dataclass(frozen=True, slots=True, kw_only=True)
class Meet(_Message):
    """An introduction over a direct connection (``wire.md`` §4.12): a laptop that hands out invite
    codes tells a player at its table, connected to it on the LAN, to meet a laptop elsewhere with
    a one-off code on the named invite servers (the table then goes on between the two when the
    introducer leaves). Taken only from a player proven at the table.

    Attributes:
        code: The one-off code (:data:`MEET_CODE`).
        dial: Whether the receiver opens the table connections through the pairing it makes.
        relay: The mailbox server's URL (:data:`MEET_RELAY`).
        transit: The transit relay (:data:`MEET_TRANSIT`).
    """

    TYPE: ClassVar[str] = "meet"
    code: str = declare(Text(49))
    dial: bool = declare(Bool())
    relay: str = declare(Text(MAX_SERVER))
    transit: str = declare(Text(MAX_SERVER))

    def _check_more(self) -> None:
        if not MEET_CODE.fullmatch(self.code):
            raise bad("meet.code", "must be 12 digits, '-' and 36 lowercase hex digits")
        if not MEET_RELAY.fullmatch(self.relay):
            raise bad("meet.relay", "must be a ws:// or wss:// URL")
        if not MEET_TRANSIT.fullmatch(self.transit) or not 0 < int(self.transit.rsplit(":", 1)[1]) < 65536:
            raise bad("meet.transit", "must be tcp:HOST:PORT")


@dataclass(frozen=True, slots=True, kw_only=True)
class Ack(_Message):
    """Seats' votes for prefixes of the log (``wire.md`` §5.9): a peer sends the votes of the seats it
    holds the keys of whenever its log's end changes, and passes on the newest vote of every seat it
    holds, so that every peer learns which entries are committed (held by seats that are a quorum).

    Attributes:
        votes: 0 to 6 votes, at most one per seat.
        gives: 0 to 36 votes given (§5.9 "Two seats, and leaving"), at most one per seat and giver;
            an ``ack`` holds at least one vote or give.
    """

    TYPE: ClassVar[str] = "ack"
    votes: tuple[Vote, ...] = declare(Parts(Vote, 6))
    gives: tuple[Give, ...] = declare(Parts(Give, 36), default=())

    def _check_more(self) -> None:
        seats = [vote.seat for vote in self.votes]
        if not seats and not self.gives:
            raise bad("ack.votes", "holds at least one vote or give")
        if len(set(seats)) != len(seats):
            raise bad("ack.votes", "holds at most one vote per seat")
        givers = [(give.seat, give.by) for give in self.gives]
        if len(set(givers)) != len(givers):
            raise bad("ack.gives", "holds at most one give per seat and giver")


Message: TypeAlias = (
    Hello | Welcome | Reject | Proof | Entries | Want | Heartbeat | Bye | Error | Lobby | Claim | Commit | Reveal
    | Start | Chat | SpectatorChat | Peers | Ack | Meet
)

#: Every message class by its wire ``type`` (``wire.md`` §4).
_BY_TYPE: dict[str, type[Message]] = {
    cls.TYPE: cls for cls in (Hello, Welcome, Reject, Proof, Entries, Want, Heartbeat, Bye, Error, Lobby, Claim,
                              Commit, Reveal, Start, Chat, SpectatorChat, Peers, Ack, Meet)
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
    for attr, codec, name, _ in declared(type(message)):
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
            raise bad("message", f"has a key that is not a str: {key!r}")
    kind = m.get("type")
    cls = _BY_TYPE.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise MessageError(
            "unknown-message", f"unknown message type {kind!r}" if "type" in m else "the map has no 'type'"
        )
    try:
        if cls in _VERSIONED:
            _versions(m, cls.TYPE)
        fields = declared(cls)
        check_keys(m, _wire_keys(cls), cls.TYPE)
        values = {attr: codec.read(m[name], where) for attr, codec, name, where in fields}
        return cls(**values)
    except LogVersionError as exc:
        raise MessageError("bad-version", f"{kind}: {exc}"[:300]) from None
    except LogFormatError as exc:
        raise bad(f"{kind}:", str(exc)) from None


_WIRE_KEYS: dict[type[_Message], tuple[str, ...]] = {}


def _wire_keys(cls: type[_Message]) -> tuple[str, ...]:
    """The keys of a message class's map, in order: ``type``, then its declared fields."""
    keys = _WIRE_KEYS.get(cls)
    if keys is None:
        keys = _WIRE_KEYS[cls] = ("type", *(name for _, _, name, _ in declared(cls)))
    return keys


def _versions(m: dict[str, Any], kind: str) -> None:
    """wire.md §8: ``proto``, then ``rules``, before any other field."""
    proto = m.get("proto")
    if not isinstance(proto, int) or isinstance(proto, bool) or proto < 0:
        raise bad(f"{kind}.proto", f"must be a non-negative integer, got {proto!r}")
    if proto != PROTO_VERSION:
        raise MessageError(
            "bad-version",
            f"the peer speaks carcnet protocol version {proto}; this carcnet speaks version {PROTO_VERSION}",
        )
    rules = m.get("rules")
    if not isinstance(rules, int) or isinstance(rules, bool) or rules < 0:
        raise bad(f"{kind}.rules", f"must be a non-negative integer, got {rules!r}")
    if rules != RULES_VERSION:
        raise MessageError(
            "bad-version",
            f"the peer plays rules version {rules}; this carcnet plays rules version {RULES_VERSION}",
        )

