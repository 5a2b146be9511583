"""Provides one connection to an event service without I/O (protocol/tournament.md §6.0): the framing
of :mod:`carcnet.net.framing` and the proven-key handshake of protocol/wire.md §3.4, then requests.

Both sides of a connection, in the manner of :class:`carcnet.net.protocol.PeerConnection` (h11): feed
the bytes that arrive to :meth:`EventLink.receive_data`, write what :meth:`EventLink.data_to_send`
gives. The connector (the asker) sends ``hello`` with a fresh nonce; the acceptor (the service)
answers ``welcome`` with its own and ``proof``, its identity key's signature over the transcript; the
connector checks it and sends its own ``proof``; the acceptor checks that. Only then is the link
:attr:`~EventLink.open`: the asker's key is proven (``a key counts only after it answered a
challenge``) and its requests are taken, one reply each. The proofs are
:func:`carcnet.net.signing.sign_proof` over the two frame bodies exactly as sent, so an event
handshake's proof cannot pass for a table's (their hellos differ) nor one side's for the other's.

Anything out of turn, malformed or unproven raises :class:`~carcnet.net.framing.ProtocolError`
(its ``code`` and one line); the link is then :attr:`~EventLink.broken` and its user closes it.
"""

from __future__ import annotations

from typing import Any, Literal

from carcnet.log.values import is_game_id
from carcnet.net.framing import MAX_BIN, FrameDecoder, ProtocolError, encode_frame
from carcnet.net.signing import SeatKey, new_nonce, sign_proof, verify_proof

__all__ = ["EVENT_PROTO", "EventLink"]

#: The event service's version (tournament.md §6.0): 3 since an enrolment waits for the enrolling
#: laptop's status (``wait``, §6.1); 2 spoke net/'s handshake; 1 sent bare request frames.
EVENT_PROTO = 3
_HANDSHAKE = frozenset({"hello", "welcome", "proof"})


def _key(value: object, what: str) -> bytes:
    if not isinstance(value, bytes) or len(value) != 32:
        raise ProtocolError("bad-message", f"the {what} is a key of 32 bytes")
    return value


def _event(value: object) -> str:
    if not (value == "" or is_game_id(value)):
        raise ProtocolError("bad-message", "an event id is 32 hex digits, or empty when not known yet")
    assert isinstance(value, str)
    return value


def _exact(message: dict[str, Any], keys: tuple[str, ...]) -> None:
    if tuple(sorted(message)) != tuple(sorted(keys)):
        raise ProtocolError("bad-message", f"a {message['type']!r} has exactly the keys {', '.join(keys)}")


class EventLink:
    """One side of one event-service connection, without I/O (see the module docstring).

    Lifecycle: built by the connector (``side="connector"``, which queues its ``hello`` at once) or
    the acceptor; :meth:`receive_data` until :attr:`open` (the other side's key proven), then
    requests (:meth:`send`, :meth:`next_message`). Once a :class:`ProtocolError` was raised the link
    is :attr:`broken` and raises it again.

    Args:
        side: ``"connector"`` (it dials and asks) or ``"acceptor"`` (the service).
        identity: This laptop's identity key: what it proves.
        event: The event id this side runs or asks for (``""``: not known yet).
        max_frame: Largest frame body taken from the other side (the service's requests are small,
            its replies up to a log).
        max_bin: Largest bin in a frame taken (a log or a charter travels as one bin).
        nonce: This side's nonce (its hello's or welcome's); 32 fresh random bytes by default. Only
            the vectors give one.
    """

    def __init__(self, side: Literal["connector", "acceptor"], identity: SeatKey, *, event: str = "",
                 max_frame: int, max_bin: int = MAX_BIN, nonce: bytes | None = None) -> None:
        self.side = side
        self.identity = identity
        self.event = event
        self._decoder = FrameDecoder(max_frame, max_bin=max_bin)
        self._out = bytearray()
        self._hello = b""
        self._welcome = b""
        self._error: ProtocolError | None = None
        self._ready: list[dict[str, Any]] = []
        #: The other side's identity key, once its proof verified (``None`` before).
        self.peer_key: bytes | None = None
        #: The event id the other side named in its hello or welcome (``""``: none).
        self.peer_event = ""
        self._named: bytes | None = None  # the key the other side named, not yet proven
        self._awaiting = "welcome" if side == "connector" else "hello"
        self._nonce = nonce or new_nonce()
        if side == "connector":
            self._hello = self._queue({"type": "hello", "proto": EVENT_PROTO, "event": event,
                                       "key": identity.public, "nonce": self._nonce})

    @property
    def open(self) -> bool:
        """Whether the other side's key is proven (requests and replies may flow)."""
        return self.peer_key is not None

    @property
    def broken(self) -> bool:
        """Whether a bad frame or handshake ended the link."""
        return self._error is not None

    def _queue(self, message: dict[str, Any]) -> bytes:
        frame = encode_frame(message)
        self._out += frame
        return frame[4:]

    def send(self, message: dict[str, Any]) -> None:
        """Queues a request (connector) or a reply (acceptor), once :attr:`open`.

        Raises:
            ProtocolError: ``"bad-frame"`` or ``"too-large"``: not a frame of net/'s framing.
        """
        if not self.open:
            raise ProtocolError("unexpected-message", "nothing is sent before the handshake is done")
        self._queue(message)

    def data_to_send(self) -> bytes:
        """The bytes to write now (and forget)."""
        out, self._out = bytes(self._out), bytearray()
        return out

    def receive_data(self, data: bytes) -> None:
        """Bytes read from the socket: takes the handshake's frames, keeps the others for
        :meth:`next_message`.

        Raises:
            ProtocolError: A bad frame (net/'s framing: ``"bad-frame"``, ``"too-large"``), a message out
                of turn (``"unexpected-message"``), a malformed one (``"bad-message"``), a proof that
                does not verify (``"bad-signature"``), another version (``"bad-version"``) or event
                (``"wrong-game"``).
        """
        if self._error is not None:
            raise self._error
        try:
            self._decoder.feed(data)
            while (frame := self._decoder.next_frame()) is not None:
                if self.open:
                    if frame.get("type") in _HANDSHAKE or not isinstance(frame.get("type"), str):
                        raise ProtocolError("unexpected-message", "a handshake message after the handshake")
                    self._ready.append(frame)
                else:
                    self._handshake(frame, self._decoder.last_body)
        except ProtocolError as exc:
            self._error = exc
            raise

    def next_message(self) -> dict[str, Any] | None:
        """The next request (acceptor) or reply (connector) received, ``None`` when none is waiting."""
        return self._ready.pop(0) if self._ready else None

    def _handshake(self, frame: dict[str, Any], body: bytes) -> None:
        kind = frame.get("type")
        if kind == "error" and self.side == "connector":  # the service refused us, in one line
            raise ProtocolError("refused", str(frame.get("text", "refused"))[:200])
        if kind != self._awaiting:
            raise ProtocolError("unexpected-message", f"a {str(kind)[:32]!r} where a {self._awaiting!r} was due")
        if kind == "hello":
            _exact(frame, ("type", "proto", "event", "key", "nonce"))
            if frame["proto"] != EVENT_PROTO:
                raise ProtocolError("bad-version", f"event service version {EVENT_PROTO} here")
            self._named = _key(frame["key"], "hello's key")
            self.peer_event = _event(frame["event"])
            if not isinstance(frame["nonce"], bytes) or len(frame["nonce"]) != 32:
                raise ProtocolError("bad-message", "a hello's nonce is 32 bytes")
            if self.event and self.peer_event and self.peer_event != self.event:
                raise ProtocolError("wrong-game", "this laptop runs another event")
            self._hello = body
            self._welcome = self._queue({"type": "welcome", "proto": EVENT_PROTO, "event": self.event,
                                         "key": self.identity.public, "nonce": self._nonce})
            self._queue({"type": "proof", "sig": sign_proof(self.identity, "acceptor", self._hello, self._welcome)})
            self._awaiting = "proof"
        elif kind == "welcome":
            _exact(frame, ("type", "proto", "event", "key", "nonce"))
            if frame["proto"] != EVENT_PROTO:
                raise ProtocolError("bad-version", f"event service version {EVENT_PROTO} here")
            self._named = _key(frame["key"], "welcome's key")
            self.peer_event = _event(frame["event"])
            if not isinstance(frame["nonce"], bytes) or len(frame["nonce"]) != 32:
                raise ProtocolError("bad-message", "a welcome's nonce is 32 bytes")
            self._welcome = body
            self._awaiting = "proof"
        else:
            _exact(frame, ("type", "sig"))
            sig = frame["sig"]
            other: Literal["connector", "acceptor"] = "acceptor" if self.side == "connector" else "connector"
            assert self._named is not None
            if not isinstance(sig, bytes) or not verify_proof(self._named, other, self._hello, self._welcome, sig):
                raise ProtocolError("bad-signature", "the proof does not verify under the key it named")
            self.peer_key = self._named
            self._awaiting = ""
            if self.side == "connector":
                self._queue({"type": "proof", "sig": sign_proof(self.identity, "connector", self._hello, self._welcome)})
