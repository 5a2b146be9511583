"""Provides :class:`PeerConnection`, one connection's protocol state machine without I/O (``protocol/wire.md``
§3, §7); the checks a peer makes before it takes a header or an entry are in :mod:`carcnet.net.admission`.

In the manner of h11: bytes in, events out; messages in, bytes out; no sockets, no asyncio, no
clocks. The transport feeds :meth:`PeerConnection.receive_data` what it reads, writes what
:meth:`PeerConnection.data_to_send` and :meth:`PeerConnection.send` give it, and closes the socket once
:attr:`PeerConnection.state` is :attr:`State.CLOSED`. Bad input from the peer is answered by the
connection itself: it queues the ``error`` (or ``reject``) frame, reports a :class:`Refused` event,
and closes where ``wire.md`` §6 says so.

Before anything the other side says counts, each side proves that it holds the identity key it
named: it signs the handshake's transcript, which holds the other side's fresh nonce (``wire.md``
§3.4). The connection does this itself: the acceptor's :meth:`PeerConnection.send` of its
``welcome`` adds its ``proof``; the connector queues its own on reading the ``welcome`` and reports
the ``welcome`` only once the acceptor's proof verifies.

>>> from carcnet.net.messages import Hello, Welcome
>>> from carcnet.net.signing import SeatKey
>>> ann, bob = SeatKey.from_seed(bytes(32)), SeatKey.from_seed(bytes([1]) * 32)
>>> a = PeerConnection(game="0" * 32, initiator=True, identity=ann)
>>> b = PeerConnection(game="0" * 32, initiator=False, identity=bob)
>>> hello = Hello(game="0" * 32, role="player", name="Ann", key=ann.public)
>>> [type(e).__name__ for e in b.receive_data(a.send(hello))], b.state.name
(['Hello'], 'SEND_WELCOME')
>>> welcome = Welcome(game="0" * 32, role="host", name="Bob", key=bob.public)
>>> [type(e).__name__ for e in a.receive_data(b.send(welcome))], a.state.name, b.state.name
(['Proven', 'Welcome'], 'OPEN', 'AWAIT_PROOF')
>>> [type(e).__name__ for e in b.receive_data(a.data_to_send())], a.state.name, b.state.name
(['Proven'], 'OPEN', 'OPEN')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Literal, TypeAlias

from .framing import SMALL_FRAME, FrameDecoder, FramingError, ProtocolError
from .messages import (
    Ack,
    Bye,
    Chat,
    Claim,
    Commit,
    Entries,
    Error,
    Heartbeat,
    Hello,
    Lobby,
    Meet,
    Message,
    MessageError,
    Peers,
    Proof,
    Reject,
    Reveal,
    Role,
    SpectatorChat,
    Start,
    Want,
    Welcome,
    closes,
    encode_message,
    from_wire,
)
from .signing import SeatKey, sign_proof, verify_proof

__all__ = [
    "Closed",
    "ConnectionEvent",
    "LocalProtocolError",
    "PeerConnection",
    "Proven",
    "Refused",
    "State",
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
    AWAIT_PROOF = "await-proof"
    """Hello and welcome are exchanged and our proof is sent: we wait for theirs (``wire.md`` §3.4)."""
    OPEN = "open"
    """Handshake done, the other side's identity proven: lobby and replication messages flow both
    ways, within each side's role."""
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
class Proven:
    """The other side proved that it holds the private half of the identity key it named
    (``wire.md`` §3.4); the connection is :attr:`State.OPEN` from here. On the connecting side the
    :class:`Welcome` event follows it at once.

    Attributes:
        key: The proven identity key (32 bytes).
    """

    key: bytes


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


ConnectionEvent: TypeAlias = Message | Proven | Refused | Closed

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
    Claim: (frozenset(("player",)), _PLAYING),  # a non-host answers lobby-locked (wire.md §3.3)
    Commit: (_PLAYING, _PLAYING),
    Reveal: (_PLAYING, _PLAYING),
    Chat: (_PLAYING, _ALL),  # spoken by a seat's player; passed on to spectators too (wire.md §4.9)
    SpectatorChat: (_ALL, _ALL),  # spoken by a spectator; passed on by everyone (wire.md §4.9a)
    Peers: (_PLAYING, _ALL),  # where the players listen: what a spectator fails over to (wire.md §4.10)
    Ack: (_PLAYING, _ALL),  # seats' votes: what is committed, which spectators show too (wire.md §5.9)
    Meet: (_PLAYING, _PLAYING),  # an introduction to a laptop elsewhere (wire.md §4.12)
}
#: wire.md §3.3: a player also passes the host's ``start`` on to a spectator that dialled it in the lobby (§4.6).
_PASSED_ON: frozenset[tuple[type, Role, Role]] = frozenset({(Start, "player", "spectator")})
_HANDSHAKE = (Hello, Welcome, Reject, Proof)

#: wire.md §7, the handshake as a table (h11's style): (state, message we send) → the next state.
#: A proof is never sent by the application: the connection sends its own (wire.md §3.4).
_SENT: dict[tuple[State, type], State] = {
    (State.SEND_HELLO, Hello): State.AWAIT_WELCOME,
    (State.SEND_WELCOME, Welcome): State.AWAIT_PROOF,
    (State.SEND_WELCOME, Reject): State.CLOSED,
}
#: wire.md §7: (state, message received) → the next state, once the message passed its checks.
_RECEIVED: dict[tuple[State, type], State] = {
    (State.AWAIT_HELLO, Hello): State.SEND_WELCOME,
    (State.AWAIT_WELCOME, Welcome): State.AWAIT_PROOF,
    (State.AWAIT_WELCOME, Reject): State.CLOSED,
    (State.AWAIT_PROOF, Proof): State.OPEN,
}


class PeerConnection:
    """One connection to one peer: the handshake order, role rules and bad-input handling of
    ``wire.md`` §7, over :class:`~carcnet.net.framing.FrameDecoder` and
    :mod:`~carcnet.net.messages`.

    Lifecycle: the connecting side starts in :attr:`State.SEND_HELLO` and sends :class:`Hello`; the
    accepting side starts in :attr:`State.AWAIT_HELLO`, receives it, and answers :class:`Welcome` or
    :class:`Reject`. The connection checks the hello's protocol and rules versions and game id itself
    and rejects a mismatch; anything else (a full lobby) is the application's call, made on claims
    nobody has proven yet, so it may only refuse. Then each side proves its identity key
    (:attr:`State.AWAIT_PROOF`, ``wire.md`` §3.4; the connection signs and checks the proofs itself):
    :attr:`State.OPEN`, announced by a :class:`Proven` event, until a ``bye``, a ``reject``, a
    closing ``error`` either way, or the end of the stream: :attr:`State.CLOSED`.

    Args:
        game: The game id this side plays or hosts.
        initiator: ``True`` for the side that connected.
        identity: This side's identity key: the ``key`` of the hello or welcome it sends, and the key
            that signs its proof.
        max_frame: Largest frame body accepted at first (16 KiB: what a handshake needs, wire.md
            §2.2); the application raises it with :attr:`max_frame` for a seated player.

    Attributes:
        game: The game id.
        state: The current :class:`State`.
        our_role: The role we declared in our hello or welcome (``None`` before).
        their_role: The role they declared (``None`` before).
        peer: Their :class:`Hello` or :class:`Welcome` (``None`` before): name, key, have, digest.
            Claims only until :attr:`proven`.
        proven: Whether the other side proved its key (then the state is :attr:`State.OPEN` or
            :attr:`State.CLOSED`).
    """

    def __init__(self, *, game: str, initiator: bool, identity: SeatKey, max_frame: int = SMALL_FRAME) -> None:
        self.game = game
        self.initiator = initiator
        self.identity = identity
        self.state = State.SEND_HELLO if initiator else State.AWAIT_HELLO
        self.our_role: Role | None = None
        self.their_role: Role | None = None
        self.peer: Hello | Welcome | None = None
        self.proven = False
        self._decoder = FrameDecoder(max_frame)
        self._outbox = bytearray()
        self._hello = b""  # the transcript: the hello's and the welcome's bodies as sent (wire.md §3.4)
        self._welcome = b""
        self._welcomed: Welcome | None = None  # the connector's welcome, reported once proven

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
        if isinstance(message, _HANDSHAKE):
            after = _SENT.get((state, kind))
            if after is None:
                what = ("hello is sent once, by the connecting side, first" if kind is Hello
                        else "the connection sends its proof itself" if kind is Proof
                        else f"{kind.__name__.lower()} answers a hello")
                raise LocalProtocolError(f"{what} (state {state.name})")
            if isinstance(message, Hello | Welcome):
                self._check_game(message.game)
                if message.key != self.identity.public:
                    raise LocalProtocolError("the key of a hello or welcome is this side's identity key")
                self.our_role = message.role
            data = encode_message(message)
            self.state = after
            if isinstance(message, Hello):
                self._hello = data[4:]
            elif isinstance(message, Welcome):
                self._welcome = data[4:]
                data += self._proof("acceptor")
            return data
        if state is not State.OPEN:
            raise LocalProtocolError(f"{kind.__name__} only after the handshake (state {state.name})")
        senders, receivers = _PERMITTED[kind]
        if (self.our_role not in senders or self.their_role not in receivers) and \
                (kind, self.our_role, self.their_role) not in _PASSED_ON:
            raise LocalProtocolError(
                f"a {self.our_role} does not send {kind.__name__} to a {self.their_role} (wire.md §3.3)"
            )
        return encode_message(message)

    def refuse(self, code: str, message: str = "", seq: int | None = None) -> bytes:
        """The ``error`` frame for bad input the application found (a bad signature, an illegal
        move…): ``send(Error(code=code, message=message, seq=seq))``, closing where the code closes."""
        return self.send(Error(code=code, message=message[:256], seq=seq))

    @property
    def max_frame(self) -> int:
        """Largest frame body this connection accepts now (a larger one is ``too-large``, refused as
        soon as its length is read)."""
        return self._decoder.max_frame

    @max_frame.setter
    def max_frame(self, size: int) -> None:
        self._decoder.max_frame = size

    @property
    def buffered(self) -> int:
        """Bytes received that do not make a whole frame yet."""
        return self._decoder.buffered

    def data_to_send(self) -> bytes:
        """The frames the connection queued on its own (answers to bad input, its proof), emptying
        the queue."""
        data = bytes(self._outbox)
        self._outbox.clear()
        return data

    def _proof(self, side: Literal["connector", "acceptor"]) -> bytes:
        return encode_message(Proof(sig=sign_proof(self.identity, side, self._hello, self._welcome)))

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
        state = self.state  # a local: mypy would hold self.state narrowed through the loop below
        if state is State.CLOSED:
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
        after = _RECEIVED.get((state, type(message)))
        if after is not None:
            if isinstance(message, Reject):
                self.state = after
                return [message, Closed(message.code, message.message, True)]
            if isinstance(message, Proof):
                return self._check_proof(message)
            assert isinstance(message, Hello | Welcome)
            if message.game != self.game:
                text = (f"this peer plays game {self.game}, not {message.game}" if isinstance(message, Hello)
                        else f"we asked for game {self.game}, not {message.game}")
                return self._violation(ProtocolError("wrong-game", text), reject=isinstance(message, Hello))
            self.peer = message
            self.their_role = message.role
            self.state = after
            if isinstance(message, Hello):
                self._hello = self._decoder.last_body
                return [message]
            self._welcome = self._decoder.last_body
            self._welcomed = message
            self._outbox += self._proof("connector")  # ours goes out at once; theirs is due next
            return []
        if state is not State.OPEN or isinstance(message, _HANDSHAKE):
            return self._violation(
                ProtocolError(
                    "unexpected-message",
                    f"{type(message).__name__.lower()} is not expected now ({state.value})",
                )
            )
        senders, receivers = _PERMITTED[type(message)]
        if (self.their_role not in senders or self.our_role not in receivers) and \
                (type(message), self.their_role, self.our_role) not in _PASSED_ON:
            return self._violation(
                ProtocolError(
                    "forbidden",
                    f"a {self.their_role} may not send {type(message).__name__.lower()} to a {self.our_role}",
                )
            )
        return [message]

    def _check_proof(self, proof: Proof) -> list[ConnectionEvent]:
        """wire.md §3.4: their signature over the transcript, under the key they named."""
        assert self.peer is not None
        side: Literal["connector", "acceptor"] = "acceptor" if self.initiator else "connector"
        if not verify_proof(self.peer.key, side, self._hello, self._welcome, proof.sig):
            return self._violation(
                ProtocolError("bad-signature", "the proof does not verify under the key this peer named")
            )
        self.state = State.OPEN
        self.proven = True
        events: list[ConnectionEvent] = [Proven(self.peer.key)]
        if self._welcomed is not None:
            events.append(self._welcomed)
            self._welcomed = None
        return events

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
