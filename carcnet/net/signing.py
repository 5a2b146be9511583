"""Provides the wire's cryptography: seat keys, entry and commitment signatures, commit–reveal and the
seed (``protocol/wire.md`` §5).

Ed25519 (RFC 8032) from ``cryptography``; SHA-256 from ``hashlib``. Signatures are deterministic, so the
same key and bytes always give the same 64 bytes (the golden vectors rely on it).

What a reader of a saved game needs as well (the bytes an entry's signature covers, verifying, a
nonce's commitment and the seed) lives in the log layer, :mod:`carcnet.log.signatures` and
:mod:`carcnet.log.seeding`, and is re-exported here; private keys and the lobby's messages are this
module's own.

>>> key = SeatKey.from_seed(bytes(32))
>>> key.public.hex()[:16]
'3b6a27bcceb6a42d'
>>> derive_seed([bytes(32), bytes(32)])
7223153380597135295
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from typing import Literal

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

from carcnet.engine.draws import chain
from carcnet.log import LogEntry
from carcnet.log.seeding import NONCE_SIZE, SEED_DOMAIN, commitment, derive_seed
from carcnet.log.signatures import ENTRY_DOMAIN, KEY_SIZE, SIG_SIZE, entry_bytes, verify, verify_entry
from carcnet.log.signatures import game_bytes as _game_bytes

__all__ = [
    "ACK_DOMAIN",
    "GIVE_DOMAIN",
    "TIE_DOMAIN",
    "CHAIN_SECRET_DOMAIN",
    "CHAT_DOMAIN",
    "COMMIT_DOMAIN",
    "ENTRY_DOMAIN",
    "GAME_DOMAIN",
    "KEY_SIZE",
    "NONCE_SIZE",
    "PROOF_DOMAIN",
    "SEAL_DOMAIN",
    "SEED_DOMAIN",
    "SIG_SIZE",
    "SPECTATOR_CHAT_DOMAIN",
    "SeatKey",
    "ack_bytes",
    "give_bytes",
    "chain_secret",
    "chat_bytes",
    "commit_bytes",
    "commitment",
    "derive_seed",
    "entry_bytes",
    "new_nonce",
    "opens_commitment",
    "proof_bytes",
    "seal_bytes",
    "sealed_game_id",
    "seat_chain",
    "sign_ack",
    "sign_give",
    "sign_chat",
    "sign_commit",
    "sign_entry",
    "sign_proof",
    "sign_seal",
    "sign_spectator_chat",
    "spectator_chat_bytes",
    "verify",
    "verify_ack",
    "verify_give",
    "tie_order",
    "tie_source",
    "verify_chat",
    "verify_commit",
    "verify_entry",
    "verify_proof",
    "verify_seal",
    "verify_spectator_chat",
]

#: Domain separation of a commitment's signed bytes (``wire.md`` §5.3).
COMMIT_DOMAIN = b"carcnet/commit/v1\x00"
#: Domain separation of a chat line's signed bytes (``wire.md`` §4.9).
CHAT_DOMAIN = b"carcnet/chat/v1\x00"
#: Domain separation of a spectator's chat line's signed bytes (``wire.md`` §4.9a).
SPECTATOR_CHAT_DOMAIN = b"carcnet/spectator-chat/v1\x00"
#: Domain separation of a handshake proof's signed bytes (``wire.md`` §3.4).
PROOF_DOMAIN = b"carcnet/proof/v1\x00"
#: Domain separation of a seat's vote for a prefix of the log (``wire.md`` §5.9).
ACK_DOMAIN = b"carcnet/ack/v1\x00"
#: The domain of a vote given (wire.md §5.9 "Two seats, and leaving").
GIVE_DOMAIN = b"carcnet/give/v1\x00"
#: The domain of the table's tie order (wire.md §5.9 "The tie order").
TIE_DOMAIN = b"carcnet/tie/v1\x00"
#: Domain separation of a game id made from its host's key (``wire.md`` §4.2 "The game id").
GAME_DOMAIN = b"carcnet/game/v1\x00"
#: Domain separation of a header's seal, the host's signature over its fingerprint (``wire.md`` §4.2).
SEAL_DOMAIN = b"carcnet/seal/v1\x00"


class SeatKey:
    """An Ed25519 private key: the key of a seat, or a peer's identity key (``wire.md`` §5.1).

    Built from 32 private bytes (RFC 8032's "seed"); keep them secret and store them with the game
    if the seat is to be played again after a restart.

    Attributes:
        seed: The 32 private bytes.
        public: The 32-byte public key, as recorded in the header and sent in ``hello``.
    """

    __slots__ = ("_private", "public", "seed")

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        self.seed: bytes = private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
        self.public: bytes = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    @classmethod
    def generate(cls) -> SeatKey:
        """A new random key (from the operating system's CSPRNG)."""
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_seed(cls, seed: bytes) -> SeatKey:
        """The key of 32 private bytes.

        Raises:
            ValueError: *seed* is not 32 bytes.
        """
        if not isinstance(seed, bytes) or len(seed) != KEY_SIZE:
            raise ValueError(f"a private key seed is {KEY_SIZE} bytes")
        return cls(Ed25519PrivateKey.from_private_bytes(seed))

    def sign(self, data: bytes) -> bytes:
        """The 64-byte Ed25519 signature of *data*."""
        return self._private.sign(data)

    def __repr__(self) -> str:  # never show the private bytes
        return f"SeatKey(public={self.public.hex()[:16]}…)"


# ---------------------------------------------------------------------- entries


def sign_entry(key: SeatKey, game_id: str, entry: LogEntry) -> bytes:
    """The 64-byte signature of *entry* by *key* (the key of ``entry.seat``), over
    :func:`entry_bytes`."""
    return key.sign(entry_bytes(game_id, entry))


# ---------------------------------------------------------------------- table draws

#: Domain of a seat's chain secret (``deck.md`` §5.1, wire.md §5.3): 25 ASCII bytes and a zero byte.
CHAIN_SECRET_DOMAIN = b"carcnet/chain-secret/v1\x00"


def chain_secret(key: SeatKey, game_id: str, seat: int) -> bytes:
    """The 32-byte secret at the end of *seat*'s hash chain in game *game_id* (``deck.md`` §5.1):
    ``SHA-256("carcnet/chain-secret/v1" 0x00 ‖ the seat key's private seed ‖ game id ‖ seat)``.

    Derived from the seat key's private bytes, it is as secret as they are and needs no storage of
    its own: a player who resumes a game with its seat keys (kept 0600) has its chain again, and a
    peer that took a seat over (without its key) cannot compute it.
    """
    return hashlib.sha256(CHAIN_SECRET_DOMAIN + key.seed + game_id.encode("ascii") + bytes([seat])).digest()


def seat_chain(key: SeatKey, game_id: str, seat: int, length: int) -> list[bytes]:
    """*seat*'s whole chain for a game of *length* draws: value 0 (the root, its commitment) to
    value *length* (:func:`chain_secret`), ``carcnet.engine.draws.chain``."""
    return chain(game_id, seat, chain_secret(key, game_id, seat), length)


# ---------------------------------------------------------------------- commit–reveal


def new_nonce() -> bytes:
    """32 fresh random bytes from the operating system's CSPRNG, for one commit–reveal."""
    return secrets.token_bytes(NONCE_SIZE)


def opens_commitment(commit: bytes, nonce: bytes) -> bool:
    """Whether *nonce* (32 bytes) is the one *commit* (32 bytes) commits to: the reveal of a seed's
    commit–reveal (``wire.md`` §5.3). Never raises."""
    if not isinstance(nonce, bytes) or len(nonce) != NONCE_SIZE:
        return False
    return secrets.compare_digest(commitment(nonce), commit) if isinstance(commit, bytes) else False


def commit_bytes(game_id: str, seat: int, commit: bytes) -> bytes:
    """The canonical byte string a ``commit`` message's signature covers (``wire.md`` §5.3)::

        "carcnet/commit/v1" 0x00 | game id (32 ASCII hex digits) | seat (u8) | commitment (32)

    Raises:
        ValueError: A bad game id, a seat outside 0–5, a commitment that is not 32 bytes.
    """
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 6:
        raise ValueError(f"a seat is 0 to 5, got {seat!r}")
    if not isinstance(commit, bytes) or len(commit) != 32:
        raise ValueError("a commitment is 32 bytes")
    return COMMIT_DOMAIN + _game_bytes(game_id) + bytes([seat]) + commit


def sign_commit(key: SeatKey, game_id: str, seat: int, commit: bytes) -> bytes:
    """The seat key's signature of its commitment, over :func:`commit_bytes`. It proves that the
    claimant holds the seat key and stops a relaying host from forging another seat's commitment."""
    return key.sign(commit_bytes(game_id, seat, commit))


def verify_commit(public_key: bytes, game_id: str, seat: int, commit: bytes, sig: bytes) -> bool:
    """Whether *sig* signs *commit* for *seat* of game *game_id* under *public_key*. Never raises."""
    try:
        data = commit_bytes(game_id, seat, commit)
    except ValueError:
        return False
    return verify(public_key, data, sig)


def chat_bytes(game_id: str, seat: int, chat_id: bytes, time_ms: int, text: str) -> bytes:
    """The canonical byte string a ``chat`` message's signature covers (``wire.md`` §4.9)::

        "carcnet/chat/v1" 0x00 | game id (32 ASCII hex digits) | seat (u8) | id (8)
        | time (u64, big-endian) | text (UTF-8)

    Raises:
        ValueError: A bad game id, a seat outside 0–5, an id that is not 8 bytes, a time outside
            0 to 2**63 - 1.
    """
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 6:
        raise ValueError(f"a seat is 0 to 5, got {seat!r}")
    if not isinstance(chat_id, bytes) or len(chat_id) != 8:
        raise ValueError("a chat id is 8 bytes")
    if not isinstance(time_ms, int) or not 0 <= time_ms < 2**63:
        raise ValueError("a chat time is 0 to 2**63 - 1 milliseconds")
    return CHAT_DOMAIN + _game_bytes(game_id) + bytes([seat]) + chat_id + time_ms.to_bytes(8, "big") + text.encode()


def sign_chat(key: SeatKey, game_id: str, seat: int, chat_id: bytes, time_ms: int, text: str) -> bytes:
    """The seat key's signature of a chat line, over :func:`chat_bytes`: only the holder of the seat
    key speaks under the seat's name, and no peer passing the line on can change it."""
    return key.sign(chat_bytes(game_id, seat, chat_id, time_ms, text))


def verify_chat(public_key: bytes, game_id: str, seat: int, chat_id: bytes, time_ms: int, text: str,
                sig: bytes) -> bool:
    """Whether *sig* signs that chat line under *public_key*. Never raises."""
    try:
        data = chat_bytes(game_id, seat, chat_id, time_ms, text)
    except (ValueError, UnicodeEncodeError):
        return False
    return verify(public_key, data, sig)


def spectator_chat_bytes(game_id: str, key: bytes, name: str, chat_id: bytes, time_ms: int,
                         text: str) -> bytes:
    """The canonical byte string a ``spectator-chat`` message's signature covers (``wire.md`` §4.9a)::

        "carcnet/spectator-chat/v1" 0x00 | game id (32 ASCII hex digits) | key (32) | name's length in
        bytes (u8) | name (UTF-8) | id (8) | time (u64, big-endian) | text (UTF-8)

    Raises:
        ValueError: A bad game id, a key that is not 32 bytes, a name longer than 255 bytes, an id
            that is not 8 bytes, a time outside 0 to 2**63 - 1.
    """
    if not isinstance(key, bytes) or len(key) != KEY_SIZE:
        raise ValueError(f"a key is {KEY_SIZE} bytes")
    named = name.encode()
    if len(named) > 255:
        raise ValueError("a name is at most 255 bytes")
    if not isinstance(chat_id, bytes) or len(chat_id) != 8:
        raise ValueError("a chat id is 8 bytes")
    if not isinstance(time_ms, int) or not 0 <= time_ms < 2**63:
        raise ValueError("a chat time is 0 to 2**63 - 1 milliseconds")
    return (SPECTATOR_CHAT_DOMAIN + _game_bytes(game_id) + key + bytes([len(named)]) + named + chat_id
            + time_ms.to_bytes(8, "big") + text.encode())


def sign_spectator_chat(key: SeatKey, game_id: str, name: str, chat_id: bytes, time_ms: int,
                        text: str) -> bytes:
    """A spectator's identity key's signature of its chat line, over :func:`spectator_chat_bytes`:
    nobody speaks under that key, and no peer passing the line on can change it or its name."""
    return key.sign(spectator_chat_bytes(game_id, key.public, name, chat_id, time_ms, text))


def verify_spectator_chat(key: bytes, game_id: str, name: str, chat_id: bytes, time_ms: int, text: str,
                          sig: bytes) -> bool:
    """Whether *sig* signs that spectator's line under its identity key *key*. Never raises."""
    try:
        data = spectator_chat_bytes(game_id, key, name, chat_id, time_ms, text)
    except (ValueError, UnicodeEncodeError):
        return False
    return verify(key, data, sig)


def ack_bytes(game_id: str, seat: int, seq: int, digest: bytes) -> bytes:
    """The canonical byte string a vote of an ``ack`` covers (``wire.md`` §5.9)::

        "carcnet/ack/v1" 0x00 | game id (32 ASCII hex digits) | seat (u8) | seq (u32, big-endian)
        | digest (32)

    The digest chains every entry up to *seq* (``digest.md`` §4), so one vote vouches for the whole
    prefix of the log it ends.

    Raises:
        ValueError: A bad game id, a seat outside 0–5, a seq outside 1 to 2**32 - 1, a digest that is
            not 32 bytes.
    """
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 6:
        raise ValueError(f"a seat is 0 to 5, got {seat!r}")
    if not isinstance(seq, int) or isinstance(seq, bool) or not 0 < seq < 2**32:
        raise ValueError(f"a seq is 1 to 2**32 - 1, got {seq!r}")
    if not isinstance(digest, bytes) or len(digest) != 32:
        raise ValueError("a digest is 32 bytes")
    return ACK_DOMAIN + _game_bytes(game_id) + bytes([seat]) + seq.to_bytes(4, "big") + digest


def sign_ack(key: SeatKey, game_id: str, seat: int, seq: int, digest: bytes) -> bytes:
    """The seat key's vote for the log that ends at *seq* with *digest*, over :func:`ack_bytes`."""
    return key.sign(ack_bytes(game_id, seat, seq, digest))


def verify_ack(public_key: bytes, game_id: str, seat: int, seq: int, digest: bytes, sig: bytes) -> bool:
    """Whether *sig* is *seat*'s vote for (*seq*, *digest*) of game *game_id* under *public_key*.
    Never raises."""
    try:
        data = ack_bytes(game_id, seat, seq, digest)
    except ValueError:
        return False
    return verify(public_key, data, sig)


def give_bytes(game_id: str, seat: int, by: int, to: int, seq: int, digest: bytes) -> bytes:
    """The canonical byte string a vote given covers (``wire.md`` §5.9 "Two seats, and leaving")::

        "carcnet/give/v1" 0x00 | game id (32 ASCII hex digits) | seat (u8) | by (u8) | to (u8)
        | seq (u32, big-endian) | digest (32)

    Raises:
        ValueError: A bad game id, a seat outside 0–5, a seq outside 0 to 2**32 - 1, a digest that is
            not 32 bytes.
    """
    for value in (seat, by, to):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 6:
            raise ValueError(f"a seat is 0 to 5, got {value!r}")
    if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq < 2**32:
        raise ValueError(f"a seq is 0 to 2**32 - 1, got {seq!r}")
    if not isinstance(digest, bytes) or len(digest) != 32:
        raise ValueError("a digest is 32 bytes")
    return GIVE_DOMAIN + _game_bytes(game_id) + bytes([seat, by, to]) + seq.to_bytes(4, "big") + digest


def sign_give(key: SeatKey, game_id: str, seat: int, by: int, to: int, seq: int, digest: bytes) -> bytes:
    """Seat *by*'s key gives *seat*'s vote to seat *to* from (*seq*, *digest*) on, over :func:`give_bytes`."""
    return key.sign(give_bytes(game_id, seat, by, to, seq, digest))


def verify_give(public_key: bytes, game_id: str, seat: int, by: int, to: int, seq: int, digest: bytes,
                sig: bytes) -> bool:
    """Whether *sig* gives *seat*'s vote from *by* to *to* at (*seq*, *digest*) of game *game_id*
    under *public_key* (seat *by*'s key). Never raises."""
    try:
        data = give_bytes(game_id, seat, by, to, seq, digest)
    except ValueError:
        return False
    return verify(public_key, data, sig)


def tie_source(values: Sequence[bytes | None]) -> bytes:
    """What the tie order is drawn from in a game with table draws (``wire.md`` §5.9 "The tie order"):
    the values of its first ``draw`` entry in seat order, each 32 bytes, 32 zero bytes for a seat
    that did not contribute."""
    return b"".join(bytes(32) if value is None else value for value in values)


def tie_order(game_id: str, players: int, source: bytes) -> tuple[int, ...]:
    """The table's tie order (``wire.md`` §5.9 "The tie order"): the seats 0 to *players* - 1 sorted
    by ``SHA-256(TIE_DOMAIN | game id | seat (u8) | source)``, lowest first (ties, which SHA-256 does
    not make, by seat). *source*: :func:`tie_source` of the first draw, or the setup digest of a game
    without table draws. Nobody chooses it: the first draw's values were committed to before anyone
    saw another's (§5.3).

    Raises:
        ValueError: A bad game id, or *players* outside 1–6.
    """
    if not 1 <= players <= 6:
        raise ValueError(f"a table has 1 to 6 seats, got {players!r}")
    game = _game_bytes(game_id)
    rank = {seat: hashlib.sha256(TIE_DOMAIN + game + bytes([seat]) + source).digest() for seat in range(players)}
    return tuple(sorted(range(players), key=lambda seat: (rank[seat], seat)))


# ---------------------------------------------------------------------- proofs of identity


def proof_bytes(side: Literal["connector", "acceptor"], hello: bytes, welcome: bytes) -> bytes:
    """The canonical byte string a ``proof`` signs (``wire.md`` §3.4)::

        "carcnet/proof/v1" 0x00 | "c" or "a" (whose proof) | SHA-256(hello body) | SHA-256(welcome body)

    *hello* and *welcome* are the two frame bodies exactly as sent (no length prefix): the
    connection's transcript, with both sides' fresh nonces, keys, roles and the game id in it.
    """
    mark = b"c" if side == "connector" else b"a"
    return PROOF_DOMAIN + mark + hashlib.sha256(hello).digest() + hashlib.sha256(welcome).digest()


def sign_proof(key: SeatKey, side: Literal["connector", "acceptor"], hello: bytes, welcome: bytes) -> bytes:
    """The identity key's 64-byte signature over :func:`proof_bytes`: proof that the signer holds the
    private half of the key it named in this very handshake."""
    return key.sign(proof_bytes(side, hello, welcome))


def verify_proof(
    public_key: bytes, side: Literal["connector", "acceptor"], hello: bytes, welcome: bytes, sig: bytes
) -> bool:
    """Whether *sig* is *side*'s proof for the transcript (*hello*, *welcome*) under *public_key*.
    Never raises."""
    return verify(public_key, proof_bytes(side, hello, welcome), sig)


# ---------------------------------------------------------------------- the game id and the seal


def sealed_game_id(host_key: bytes, nonce: bytes) -> str:
    """The game id of a game opened by the host of identity key *host_key* with the 32 random bytes
    *nonce* (``wire.md`` §4.2 "The game id"): the first 16 bytes, as 32 lowercase hex digits, of::

        SHA-256("carcnet/game/v1" 0x00 | host key (32) | nonce (32))

    The id commits to the host's key before any seat or header exists; the host's seal of the header
    (:func:`seal_bytes`) then binds the header to it, so no other peer can serve another header under
    the id.

    Raises:
        ValueError: A key or nonce that is not 32 bytes.
    """
    if not isinstance(host_key, bytes) or len(host_key) != KEY_SIZE:
        raise ValueError(f"a host key is {KEY_SIZE} bytes")
    if not isinstance(nonce, bytes) or len(nonce) != NONCE_SIZE:
        raise ValueError(f"a game nonce is {NONCE_SIZE} bytes")
    return hashlib.sha256(GAME_DOMAIN + host_key + nonce).digest()[:16].hex()


def seal_bytes(fingerprint: bytes) -> bytes:
    """The canonical byte string a header's seal signs (``wire.md`` §4.2)::

        "carcnet/seal/v1" 0x00 | the header's fingerprint (32: SHA-256 of its canonical map)

    The fingerprint covers the whole header, its game id included.

    Raises:
        ValueError: A fingerprint that is not 32 bytes.
    """
    if not isinstance(fingerprint, bytes) or len(fingerprint) != 32:
        raise ValueError("a header's fingerprint is 32 bytes")
    return SEAL_DOMAIN + fingerprint


def sign_seal(key: SeatKey, fingerprint: bytes) -> bytes:
    """The host identity key's 64-byte seal of the header of *fingerprint*, over :func:`seal_bytes`."""
    return key.sign(seal_bytes(fingerprint))


def verify_seal(host_key: bytes, nonce: bytes, game_id: str, fingerprint: bytes, sig: bytes) -> bool:
    """Whether (*host_key*, *nonce*, *sig*) seals the header of *fingerprint* in game *game_id*: the
    key and nonce give the game id (:func:`sealed_game_id`) and *sig* verifies over
    :func:`seal_bytes` under the key. Never raises."""
    try:
        if not secrets.compare_digest(sealed_game_id(host_key, nonce), game_id):
            return False
        data = seal_bytes(fingerprint)
    except (ValueError, TypeError):
        return False
    return verify(host_key, data, sig)
