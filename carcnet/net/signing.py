"""Provides the wire's cryptography: seat keys, entry and commitment signatures, commit–reveal and the
seed (``protocol/wire.md`` §5).

Ed25519 (RFC 8032) from ``cryptography``; SHA-256 from ``hashlib``. Signatures are deterministic, so the
same key and bytes always give the same 64 bytes (the golden vectors rely on it).

>>> key = SeatKey.from_seed(bytes(32))
>>> key.public.hex()[:16]
'3b6a27bcceb6a42d'
>>> derive_seed([bytes(32), bytes(32)])
7223153380597135295
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import Sequence

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

from carcnet.log import LogEntry, pack

__all__ = [
    "COMMIT_DOMAIN",
    "ENTRY_DOMAIN",
    "KEY_SIZE",
    "NONCE_SIZE",
    "SEED_DOMAIN",
    "SIG_SIZE",
    "SeatKey",
    "check_reveal",
    "commit_bytes",
    "commitment",
    "derive_seed",
    "entry_bytes",
    "new_nonce",
    "sign_commit",
    "sign_entry",
    "verify",
    "verify_commit",
    "verify_entry",
]

#: Bytes of an Ed25519 public key and of a private seed.
KEY_SIZE = 32
#: Bytes of an Ed25519 signature.
SIG_SIZE = 64
#: Bytes of a commit–reveal nonce.
NONCE_SIZE = 32
#: Domain separation of the signed byte strings and of the seed (``wire.md`` §5).
ENTRY_DOMAIN = b"carcnet/entry/v1\x00"
COMMIT_DOMAIN = b"carcnet/commit/v1\x00"
SEED_DOMAIN = b"carcnet/seed/v1"
_U32 = struct.Struct(">I")
_U16 = struct.Struct(">H")


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


def verify(public: bytes, data: bytes, sig: bytes) -> bool:
    """Whether *sig* is a valid Ed25519 signature of *data* under the 32-byte *public* key.

    Never raises: a key or signature of the wrong size or not a valid point is simply ``False``.
    """
    if not isinstance(public, bytes) or len(public) != KEY_SIZE:
        return False
    if not isinstance(sig, bytes) or len(sig) != SIG_SIZE:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(sig, data)
    except (InvalidSignature, ValueError):
        return False
    return True


# ---------------------------------------------------------------------- entries


def entry_bytes(game_id: str, entry: LogEntry) -> bytes:
    """The canonical byte string an entry's signature covers (``wire.md`` §5.2)::

        "carcnet/entry/v1" 0x00 | game id (32 ASCII hex digits) | seq (u32 BE) | seat (u8)
        | length of the packed move (u16 BE) | packed move (canonical msgpack, log.md §4) | digest (32)

    The digest is the state digest after the move, which chains to every earlier move and to the setup
    (``digest.md`` §4), so the signature vouches for the whole game up to this entry.

    Raises:
        ValueError: *game_id* is not 32 lowercase hex digits.
    """
    game = _game_bytes(game_id)
    move = pack(entry.move)
    return (
        ENTRY_DOMAIN
        + game
        + _U32.pack(entry.seq)
        + bytes([entry.seat])
        + _U16.pack(len(move))
        + move
        + entry.digest
    )


def sign_entry(key: SeatKey, game_id: str, entry: LogEntry) -> bytes:
    """The 64-byte signature of *entry* by *key* (the key of ``entry.seat``), over
    :func:`entry_bytes`."""
    return key.sign(entry_bytes(game_id, entry))


def verify_entry(public_key: bytes, game_id: str, entry: LogEntry, sig: bytes) -> bool:
    """Whether *sig* signs *entry* of game *game_id* under *public_key* (``wire.md`` §5.2).

    The move is packed again canonically, so a receiver checks the entry it decoded, whatever
    encoding it came in. Never raises for a bad key or signature; a bad *game_id* is ``False`` too.
    """
    try:
        data = entry_bytes(game_id, entry)
    except ValueError:
        return False
    return verify(public_key, data, sig)


def _game_bytes(game_id: str) -> bytes:
    if (
        not isinstance(game_id, str)
        or len(game_id) != 32
        or any(c not in "0123456789abcdef" for c in game_id)
    ):
        raise ValueError(f"a game id is 32 lowercase hex digits, got {game_id!r}")
    return game_id.encode("ascii")


# ---------------------------------------------------------------------- commit–reveal


def new_nonce() -> bytes:
    """32 fresh random bytes from the operating system's CSPRNG, for one commit–reveal."""
    return secrets.token_bytes(NONCE_SIZE)


def commitment(nonce: bytes) -> bytes:
    """The commitment to a nonce: ``SHA-256(nonce)``, 32 bytes (``wire.md`` §5.3).

    Raises:
        ValueError: *nonce* is not 32 bytes.
    """
    if not isinstance(nonce, bytes) or len(nonce) != NONCE_SIZE:
        raise ValueError(f"a nonce is {NONCE_SIZE} bytes")
    return hashlib.sha256(nonce).digest()


def check_reveal(commit: bytes, nonce: bytes) -> bool:
    """Whether *nonce* (32 bytes) is the one *commit* commits to. Never raises."""
    if not isinstance(nonce, bytes) or len(nonce) != NONCE_SIZE:
        return False
    return secrets.compare_digest(commitment(nonce), commit) if isinstance(commit, bytes) else False


def derive_seed(nonces: Sequence[bytes]) -> int:
    """The deck seed from the revealed nonces in seat order (``wire.md`` §5.3): the first 8 bytes,
    big-endian, of ``SHA-256("carcnet/seed/v1" ‖ nonce₀ ‖ nonce₁ ‖ …)``; in ``[0, 2**64)``.

    Raises:
        ValueError: Fewer than one nonce, or one that is not 32 bytes.
    """
    if not nonces:
        raise ValueError("the seed needs the nonce of every seat")
    h = hashlib.sha256(SEED_DOMAIN)
    for nonce in nonces:
        if not isinstance(nonce, bytes) or len(nonce) != NONCE_SIZE:
            raise ValueError(f"a nonce is {NONCE_SIZE} bytes")
        h.update(nonce)
    return int.from_bytes(h.digest()[:8], "big")


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
