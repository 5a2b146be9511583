"""LAN play without a server: the wire protocol of ``protocol/wire.md``.

May import the log, the engine, msgpack, cryptography and asyncio (zeroconf in :mod:`.discovery`
only); never bots, tables or an interface (the contracts in ``pyproject.toml``). Two kinds of module:

- the sans-I/O core, which reads and writes no socket and starts no task (this package's exports):
  :mod:`.framing` (frames ↔ maps), :mod:`.messages` (the messages as values; their fields' codecs in
  :mod:`.fields`, their parts — header, signed entry, lobby seat, peer — in :mod:`.parts`),
  :mod:`.signing` (seat keys, signatures, commit–reveal, the seed), :mod:`.protocol` (one
  connection's state machine) and
  :mod:`.admission` (the checks before a header, an entry or a seed is taken);
- the rooms of a game at one peer, sans-I/O too, imported by name: :mod:`.sync` (``SyncSession``, the
  face the table holds), :mod:`.routing` (what to do with each message: a dispatch table),
  :mod:`.replica` (the log), :mod:`.connections` (the links, the address book of :mod:`.book`, the
  event log), :mod:`.link` (one connection), :mod:`.draws` (this peer's part in the table's draws),
  :mod:`.chat`, :mod:`.lobby` (the seats before the start) and :mod:`.presence` (who is away, who runs
  a seat);
- the adapters, imported by name: :mod:`.transport` (asyncio streams and clocks), :mod:`.peer`
  (listening, dialing, fail-over), :mod:`.storage` (the log on disk) and :mod:`.discovery` (mDNS).

Public API: :class:`PeerConnection`, :class:`State`, the events :class:`Proven`, :class:`Refused` and :class:`Closed`,
:class:`LocalProtocolError`; :class:`CommitRound` (the commitments of a locked table); :func:`check_header`, :func:`admit_entry`, :func:`compare_have`; the
messages (:class:`Hello`, :class:`Welcome`, :class:`Reject`, :class:`Proof`, :class:`Entries`, :class:`Want`,
:class:`Heartbeat`, :class:`Bye`, :class:`Error`, :class:`Lobby`, :class:`Claim`, :class:`Commit`,
:class:`Reveal`, :class:`Start`, :class:`Chat`, :class:`SpectatorChat`, :class:`Peers`, :class:`Ack`, :class:`Meet`) and
their parts (:class:`WireHeader`,
:class:`SignedEntry`, :class:`LobbySeat`, :class:`PeerInfo`, :class:`Vote`, :class:`Give`); :func:`to_wire`, :func:`from_wire`, :func:`encode_message`,
:func:`decode_message`; :func:`encode_frame`, :class:`FrameDecoder`; :class:`SeatKey`,
:func:`sign_entry`, :func:`verify_entry`, :func:`commitment`, :func:`opens_commitment`,
:func:`derive_seed`; the errors :class:`ProtocolError`, :class:`FramingError`, :class:`MessageError`.
"""

from .admission import CommitRound, admit_entry, check_header, compare_have
from .framing import MAX_FRAME, FrameDecoder, FramingError, ProtocolError, encode_frame
from .messages import (
    CODES,
    PROTO_VERSION,
    Ack,
    Bye,
    Claim,
    Commit,
    Entries,
    Error,
    Heartbeat,
    Hello,
    Lobby,
    LobbySeat,
    Meet,
    Message,
    MessageError,
    PeerInfo,
    Peers,
    Proof,
    Reject,
    Reveal,
    SignedEntry,
    Start,
    Give,
    Vote,
    Want,
    Welcome,
    WireHeader,
    closes,
    decode_message,
    encode_message,
    from_wire,
    to_wire,
)
from .protocol import Closed, ConnectionEvent, LocalProtocolError, PeerConnection, Proven, Refused, State
from .signing import (
    SeatKey,
    commitment,
    derive_seed,
    entry_bytes,
    new_nonce,
    opens_commitment,
    sign_commit,
    sign_entry,
    sign_proof,
    verify_commit,
    verify_entry,
    verify_proof,
)

__all__ = [
    "CODES",
    "MAX_FRAME",
    "PROTO_VERSION",
    "Ack",
    "Bye",
    "Claim",
    "Closed",
    "Commit",
    "CommitRound",
    "ConnectionEvent",
    "Entries",
    "Error",
    "FrameDecoder",
    "FramingError",
    "Heartbeat",
    "Hello",
    "Lobby",
    "LobbySeat",
    "LocalProtocolError",
    "Meet",
    "Message",
    "MessageError",
    "PeerConnection",
    "PeerInfo",
    "Peers",
    "Proof",
    "ProtocolError",
    "Proven",
    "Refused",
    "Reject",
    "Reveal",
    "SeatKey",
    "SignedEntry",
    "Start",
    "State",
    "Give",
    "Vote",
    "Want",
    "Welcome",
    "WireHeader",
    "admit_entry",
    "check_header",
    "closes",
    "commitment",
    "compare_have",
    "decode_message",
    "derive_seed",
    "encode_frame",
    "encode_message",
    "entry_bytes",
    "from_wire",
    "new_nonce",
    "opens_commitment",
    "sign_commit",
    "sign_entry",
    "sign_proof",
    "to_wire",
    "verify_commit",
    "verify_entry",
    "verify_proof",
]
