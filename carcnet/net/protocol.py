"""Provides :class:`PeerConnection`, one connection's protocol state machine without I/O, and the checks
a peer makes before it takes a header or an entry (``protocol/wire.md`` §3, §5, §7).

In the manner of h11: bytes in, events out; messages in, bytes out; no sockets, no asyncio, no
clocks. The transport feeds :meth:`PeerConnection.receive_data` what it reads, writes what
:meth:`PeerConnection.data_to_send` and :meth:`PeerConnection.send` give it, and closes the socket once
:attr:`PeerConnection.state` is :attr:`State.CLOSED`. Bad input from the peer is answered by the
connection itself: it queues the ``error`` (or ``reject``) frame, reports a :class:`Refused` event,
and closes where ``wire.md`` §6 says so.

>>> from carcnet.net.messages import Hello, Welcome
>>> a = PeerConnection(game="0" * 32, initiator=True)
>>> b = PeerConnection(game="0" * 32, initiator=False)
>>> hello = Hello(game="0" * 32, role="player", name="Ann", key=bytes(32))
>>> [type(e).__name__ for e in b.receive_data(a.send(hello))], b.state.name
(['Hello'], 'SEND_WELCOME')
>>> welcome = Welcome(game="0" * 32, role="host", name="Bob", key=bytes([1]) * 32)
>>> [type(e).__name__ for e in a.receive_data(b.send(welcome))], a.state.name, b.state.name
(['Welcome'], 'OPEN', 'OPEN')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TypeAlias

from carcnet.engine import Event as EngineEvent
from carcnet.engine import Game
from carcnet.log import LogError
from carcnet.log.store import apply_entry

from .framing import MAX_FRAME, FrameDecoder, FramingError, ProtocolError
from .messages import (
    Bye,
    Claim,
    Commit,
    Entries,
    Error,
    Heartbeat,
    Hello,
    Lobby,
    Message,
    MessageError,
    Reject,
    Reveal,
    Role,
    SignedEntry,
    Start,
    Want,
    Welcome,
    WireHeader,
    closes,
    encode_message,
    from_wire,
)
from .signing import check_reveal, derive_seed, verify_commit

__all__ = [
    "Closed",
    "ConnectionEvent",
    "LocalProtocolError",
    "PeerConnection",
    "Refused",
    "SeedRound",
    "State",
    "admit_entry",
    "check_header",
    "compare_have",
]


class State(Enum):
    """The state of a connection (``wire.md`` §7)."""

    SEND_HELLO = "send-hello"
    """We connected: we must send ``hello`` first."""
    AWAIT_WELCOME = "await-welcome"
    """We sent ``hello``; we wait for ``welcome`` or ``reject``."""
    AWAIT_HELLO = "await-hello"
    """They connected: we wait for their ``hello``."""
    SEND_WELCOME = "send-welcome"
    """Their ``hello`` is in and passed the version and game checks: we must answer ``welcome`` or
    ``reject``."""
    OPEN = "open"
    """Handshake done: lobby and replication messages flow both ways, within each side's role."""
    CLOSED = "closed"
    """Nothing more is sent or read; the transport closes the socket."""


class LocalProtocolError(Exception):
    """This program tried to send something the protocol does not allow now (a bug on our side, never
    the peer's): the connection is unchanged."""


@dataclass(frozen=True, slots=True)
class Refused:
    """The peer sent bad input (``wire.md`` §6, §7). An ``error`` frame (a ``reject`` when the bad input
    was its ``hello``) is queued in :meth:`PeerConnection.data_to_send`; log this event in the peer's
    own log.

    Attributes:
        code: The code sent, e.g. ``"bad-frame"``, ``"forbidden"``, ``"bad-version"``.
        message: The text sent.
        seq: The seq concerned, or ``None``.
        closed: Whether the connection closed (a :class:`Closed` event follows).
    """

    code: str
    message: str
    seq: int | None
    closed: bool


@dataclass(frozen=True, slots=True)
class Closed:
    """The connection closed while reading: always the last event of a connection.

    Attributes:
        code: The peer's ``bye`` reason, its ``reject`` or closing ``error`` code, the code we refused
            its input with, or ``"eof"`` when the byte stream ended.
        message: Words for people.
        by_peer: ``True`` when the peer ended it (bye, reject, error, end of stream), ``False`` when we
            did because of its input.
    """

    code: str
    message: str
    by_peer: bool


ConnectionEvent: TypeAlias = Message | Refused | Closed

_ALL: frozenset[Role] = frozenset(("host", "player", "spectator"))
_PLAYING: frozenset[Role] = frozenset(("host", "player"))
#: wire.md §3.3: message type → the roles that may send it and the roles that may receive it.
_PERMITTED: dict[type, tuple[frozenset[Role], frozenset[Role]]] = {
    Entries: (_PLAYING, _ALL),
    Want: (_ALL, _ALL),
    Heartbeat: (_ALL, _ALL),
    Bye: (_ALL, _ALL),
    Error: (_ALL, _ALL),
    Lobby: (frozenset(("host",)), frozenset(("player", "spectator"))),
    Start: (frozenset(("host",)), frozenset(("player", "spectator"))),
    Claim: (frozenset(("player",)), frozenset(("host",))),
    Commit: (_PLAYING, _PLAYING),
    Reveal: (_PLAYING, _PLAYING),
}
_HANDSHAKE = (Hello, Welcome, Reject)


class PeerConnection:
    """One connection to one peer: the handshake order, role rules and bad-input handling of
    ``wire.md`` §7, over :class:`~carcnet.net.framing.FrameDecoder` and
    :mod:`~carcnet.net.messages`.

    Lifecycle: the connecting side starts in :attr:`State.SEND_HELLO` and sends :class:`Hello`; the
    accepting side starts in :attr:`State.AWAIT_HELLO`, receives it, and answers :class:`Welcome` or
    :class:`Reject`. The connection checks the hello's protocol and rules versions and game id itself
    and rejects a mismatch; anything else (a full lobby, a duplicate peer) is the application's call.
    Then :attr:`State.OPEN` until a ``bye``, a ``reject``, a closing ``error`` either way, or the end
    of the stream: :attr:`State.CLOSED`.

    Args:
        game: The game id this side plays or hosts.
        initiator: ``True`` for the side that connected.
        max_frame: Largest frame body accepted (the protocol's 1 MiB by default).

    Attributes:
        game: The game id.
        state: The current :class:`State`.
        our_role: The role we declared in our hello or welcome (``None`` before).
        their_role: The role they declared (``None`` before).
        peer: Their :class:`Hello` or :class:`Welcome` (``None`` before): name, key, have, digest.
    """

    def __init__(self, *, game: str, initiator: bool, max_frame: int = MAX_FRAME) -> None:
        self.game = game
        self.initiator = initiator
        self.state = State.SEND_HELLO if initiator else State.AWAIT_HELLO
        self.our_role: Role | None = None
        self.their_role: Role | None = None
        self.peer: Hello | Welcome | None = None
        self._decoder = FrameDecoder(max_frame)
        self._outbox = bytearray()

    # ------------------------------------------------------------------ sending

    def send(self, message: Message) -> bytes:
        """The frame of *message*, to write to the peer, after checking that we may send it now.

        Sending ``hello`` or ``welcome`` fixes our role; ``welcome`` opens the connection; ``bye``,
        ``reject`` and a closing ``error`` close it.

        Raises:
            LocalProtocolError: Not allowed in this state or for our role or theirs (``wire.md`` §3.3,
                §7), or a ``hello``/``welcome`` for another game. Nothing changes.
        """
        state = self.state
        kind = type(message)
        if state is State.CLOSED:
            raise LocalProtocolError(f"the connection is closed; cannot send {kind.__name__}")
        if isinstance(message, Bye | Error):
            data = encode_message(message)
            if isinstance(message, Bye) or closes(message.code):
                self.state = State.CLOSED
            return data
        if isinstance(message, Hello):
            if state is not State.SEND_HELLO:
                raise LocalProtocolError(
                    f"hello is sent once, by the connecting side, first (state {state.name})"
                )
            self._check_game(message.game)
            data = encode_message(message)
            self.our_role = message.role
            self.state = State.AWAIT_WELCOME
            return data
        if isinstance(message, Welcome | Reject):
            if state is not State.SEND_WELCOME:
                raise LocalProtocolError(f"{kind.__name__.lower()} answers a hello (state {state.name})")
            data = encode_message(message)
            if isinstance(message, Welcome):
                self._check_game(message.game)
                self.our_role = message.role
                self.state = State.OPEN
            else:
                self.state = State.CLOSED
            return data
        if state is not State.OPEN:
            raise LocalProtocolError(f"{kind.__name__} only after the handshake (state {state.name})")
        senders, receivers = _PERMITTED[kind]
        if self.our_role not in senders or self.their_role not in receivers:
            raise LocalProtocolError(
                f"a {self.our_role} does not send {kind.__name__} to a {self.their_role} (wire.md §3.3)"
            )
        return encode_message(message)

    def refuse(self, code: str, message: str = "", seq: int | None = None) -> bytes:
        """The ``error`` frame for bad input the application found (a bad signature, an illegal
        move…): ``send(Error(code=code, message=message, seq=seq))``, closing where the code closes."""
        return self.send(Error(code=code, message=message[:256], seq=seq))

    def data_to_send(self) -> bytes:
        """The frames the connection queued on its own (answers to bad input), emptying the queue."""
        data = bytes(self._outbox)
        self._outbox.clear()
        return data

    def _check_game(self, game: str) -> None:
        if game != self.game:
            raise LocalProtocolError(f"this connection is for game {self.game}, not {game}")

    # ------------------------------------------------------------------ receiving

    def receive_data(self, data: bytes) -> list[ConnectionEvent]:
        """Takes bytes read from the peer; ``b""`` means the stream ended. Returns the events, in order.

        Each complete frame becomes its message, checked against the state and both roles. The first
        bad input stops reading: the answer is queued (see :meth:`data_to_send`), a :class:`Refused`
        event reports it, and a :class:`Closed` event follows when it closes the connection. After
        :attr:`State.CLOSED`, bytes are ignored.
        """
        if self.state is State.CLOSED:
            return []
        if not data:
            self.state = State.CLOSED
            partial = self._decoder.buffered
            text = f"the stream ended inside a frame ({partial} bytes)" if partial else "the stream ended"
            return [Closed("eof", text, True)]
        events: list[ConnectionEvent] = []
        self._decoder.feed(data)
        while self.state is not State.CLOSED:
            try:
                frame = self._decoder.next_frame()
            except FramingError as exc:
                events += self._violation(exc)
                break
            if frame is None:
                break
            try:
                message = from_wire(frame)
            except MessageError as exc:
                events += self._violation(
                    exc, reject=self.state is State.AWAIT_HELLO and frame.get("type") == "hello"
                )
                break
            events += self._receive(message)
        return events

    def _receive(self, message: Message) -> list[ConnectionEvent]:
        state = self.state
        if isinstance(message, Bye):
            self.state = State.CLOSED
            return [message, Closed(message.reason, f"the peer said bye ({message.reason})", True)]
        if isinstance(message, Error):
            if closes(message.code):
                self.state = State.CLOSED
                return [message, Closed(message.code, message.message, True)]
            return [message]
        if state is State.AWAIT_HELLO and isinstance(message, Hello):
            if message.game != self.game:
                return self._violation(
                    ProtocolError("wrong-game", f"this peer plays game {self.game}, not {message.game}"),
                    reject=True,
                )
            self.peer = message
            self.their_role = message.role
            self.state = State.SEND_WELCOME
            return [message]
        if state is State.AWAIT_WELCOME and isinstance(message, Welcome | Reject):
            if isinstance(message, Reject):
                self.state = State.CLOSED
                return [message, Closed(message.code, message.message, True)]
            if message.game != self.game:
                return self._violation(
                    ProtocolError("wrong-game", f"we asked for game {self.game}, not {message.game}")
                )
            self.peer = message
            self.their_role = message.role
            self.state = State.OPEN
            return [message]
        if state is not State.OPEN or isinstance(message, _HANDSHAKE):
            return self._violation(
                ProtocolError(
                    "unexpected-message",
                    f"{type(message).__name__.lower()} is not expected now ({state.value})",
                )
            )
        senders, receivers = _PERMITTED[type(message)]
        if self.their_role not in senders or self.our_role not in receivers:
            return self._violation(
                ProtocolError(
                    "forbidden",
                    f"a {self.their_role} may not send {type(message).__name__.lower()} to a {self.our_role}",
                )
            )
        return [message]

    def _violation(self, exc: ProtocolError, *, reject: bool = False) -> list[ConnectionEvent]:
        """Queues the answer to bad input; closes where the code closes (every code found here does)."""
        text = exc.message[:256]
        reply: Message = (
            Reject(code=exc.code, message=text) if reject else Error(code=exc.code, message=text, seq=exc.seq)
        )
        self._outbox += encode_message(reply)
        closing = reject or closes(exc.code)
        events: list[ConnectionEvent] = [Refused(exc.code, text, exc.seq, closing)]
        if closing:
            self.state = State.CLOSED
            events.append(Closed(exc.code, text, False))
        return events


# ---------------------------------------------------------------------- what a peer checks


def check_header(header: WireHeader, *, game: str) -> Game:
    """Checks a header received in a ``welcome`` or ``start`` (``wire.md`` §5.4) and returns the game
    at its setup. The message checks (one key per seat, nonces matching commitments, the seed from the
    nonces) were made when it was decoded; this adds the game id and the engine's setup digest.

    Raises:
        ProtocolError: ``"wrong-game"``: another game id; ``"bad-header"``: this engine computes
            another setup digest (another deck or start state).
    """
    if header.game != game:
        raise ProtocolError("wrong-game", f"the header is of game {header.game}, not {game}")
    state = Game(header.header.setup())
    if state.digests[0] != header.header.digest:
        raise ProtocolError(
            "bad-header",
            f"the header's setup digest {header.header.digest.hex()[:16]}… differs from this engine's "
            f"{state.digests[0].hex()[:16]}…",
            0,
        )
    return state


def admit_entry(game: Game, header: WireHeader, signed: SignedEntry) -> list[EngineEvent]:
    """Checks the next entry of *game* and applies it (``wire.md`` §5.4): in order its seq, its
    signature under the header's key for its seat, its author, the engine's legality, the digest.

    Returns the engine's events for the move.

    Raises:
        ProtocolError: ``"bad-seq"`` (``seq`` = the one expected), ``"not-your-turn"`` (a seat that is
            not to play, or no such seat), ``"bad-signature"``, ``"illegal-move"`` (the engine's reason
            in the message): *game* is unchanged. ``"desync"``: the move was applied but the digest
            differs from the entry's.

    Warning:
        After ``"desync"`` the game holds a move its log does not: rebuild it from the log.
    """
    try:
        return apply_entry(game, header.header, signed.entry)
    except LogError as exc:  # the log's reasons, in the same order (log.md §8 = wire.md §5.4)
        code = _WIRE_CODE_OF.get(exc.reason, "bad-message")
        raise ProtocolError(code, str(exc), exc.seq) from None


#: The log's refusal reasons (``carcnet.log.store.apply_entry``) as wire codes (``wire.md`` §8).
_WIRE_CODE_OF = {
    "out-of-sequence": "bad-seq",
    "bad-signature": "bad-signature",
    "forged-seat": "not-your-turn",
    "illegal-move": "illegal-move",
    "chain-broken": "desync",
}


def compare_have(digests: Sequence[bytes], have: int, digest: bytes | None) -> int:
    """Compares what a peer says it holds (``have`` and ``digest`` of its hello, welcome or heartbeat)
    with our digests (``Game.digests``: the setup's, then one per entry), ``wire.md`` §5.5.

    Returns how many of our entries the peer lacks: ``> 0`` we are ahead (send it entries from
    ``have + 1``); ``0`` level; ``< 0`` it is ahead (send ``want`` from our last seq + 1). A peer that
    holds no header (``digest`` ``None``) lacks all our entries (and the header: send a ``welcome`` or
    ``start`` first).

    Raises:
        ProtocolError: ``"desync"`` (``seq`` = *have*): at a seq both hold, the digests differ.
    """
    ours = len(digests) - 1
    if digest is None:
        return ours
    if have <= ours and digests[have] != digest:
        raise ProtocolError(
            "desync", f"at seq {have} the peer's digest {digest.hex()[:16]}… differs from ours", have
        )
    return ours - have


class SeedRound:
    """The commit–reveal of one locked table (``wire.md`` §5.3), without I/O: collects each seat's
    signed commitment, then each nonce, and gives the seed and the header's ``commits`` and ``nonces``.

    Lifecycle: built when the table locks, with the seat keys in seat order; :meth:`commit` for each
    ``commit`` received (or made) until :attr:`committed`; only then :meth:`reveal` for each
    ``reveal`` until :attr:`done`; then :attr:`seed`. A failure means the round is abandoned (the
    table unlocks and a new round starts from scratch).

    Args:
        game: The game id.
        keys: Each seat's 32-byte public key, in seat order.
    """

    def __init__(self, game: str, keys: Sequence[bytes]) -> None:
        self.game = game
        self.keys = tuple(keys)
        self._commits: list[bytes | None] = [None] * len(self.keys)
        self._nonces: list[bytes | None] = [None] * len(self.keys)

    def commit(self, message: Commit) -> bool:
        """Takes a seat's commitment; returns ``False`` for the same one again (relays may repeat it).

        Raises:
            ProtocolError: ``"unexpected-message"``: a seat the table does not have, or a different
                commitment for a seat that made one; ``"bad-signature"``: not signed by the seat's key;
                ``"bad-commit"``: equal to another seat's commitment.
        """
        seat = message.seat
        if seat >= len(self.keys):
            raise ProtocolError("unexpected-message", f"the table has no seat {seat}")
        held = self._commits[seat]
        if held == message.hash:
            return False
        if held is not None:
            raise ProtocolError("unexpected-message", f"seat {seat} has committed already")
        if not verify_commit(self.keys[seat], self.game, seat, message.hash, message.sig):
            raise ProtocolError("bad-signature", f"the commitment of seat {seat} is not signed by its key")
        if message.hash in self._commits:
            raise ProtocolError("bad-commit", f"seat {seat} copied another seat's commitment")
        self._commits[seat] = message.hash
        return True

    def reveal(self, message: Reveal) -> bool:
        """Takes a seat's nonce; returns ``False`` for the same one again.

        Raises:
            ProtocolError: ``"unexpected-message"``: a seat the table does not have, a reveal before
                every seat has committed, or a different nonce for a seat that revealed;
                ``"bad-commit"``: the nonce does not hash to the seat's commitment.
        """
        seat = message.seat
        if seat >= len(self.keys):
            raise ProtocolError("unexpected-message", f"the table has no seat {seat}")
        if not self.committed:
            raise ProtocolError("unexpected-message", f"seat {seat} revealed before every seat committed")
        held = self._nonces[seat]
        if held == message.nonce:
            return False
        if held is not None:
            raise ProtocolError("unexpected-message", f"seat {seat} has revealed already")
        commit = self._commits[seat]
        assert commit is not None
        if not check_reveal(commit, message.nonce):
            raise ProtocolError("bad-commit", f"the nonce of seat {seat} does not match its commitment")
        self._nonces[seat] = message.nonce
        return True

    def has_committed(self, seat: int) -> bool:
        """Whether *seat* has committed."""
        return self._commits[seat] is not None

    def has_revealed(self, seat: int) -> bool:
        """Whether *seat* has revealed its nonce."""
        return self._nonces[seat] is not None

    @property
    def committed(self) -> bool:
        """Whether every seat has committed (players may reveal from now on)."""
        return all(c is not None for c in self._commits)

    @property
    def done(self) -> bool:
        """Whether every seat has revealed."""
        return all(n is not None for n in self._nonces)

    @property
    def commits(self) -> tuple[bytes, ...]:
        """The commitments in seat order (the header's ``commits``); only once :attr:`committed`."""
        if not self.committed:
            raise ValueError("not every seat has committed")
        return tuple(c for c in self._commits if c is not None)

    @property
    def nonces(self) -> tuple[bytes, ...]:
        """The nonces in seat order (the header's ``nonces``); only once :attr:`done`."""
        if not self.done:
            raise ValueError("not every seat has revealed")
        return tuple(n for n in self._nonces if n is not None)

    @property
    def seed(self) -> int:
        """The deck seed from the nonces (``wire.md`` §5.3); only once :attr:`done`."""
        return derive_seed(self.nonces)
