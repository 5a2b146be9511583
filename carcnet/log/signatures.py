"""Provides what a reader needs to check an entry's signature (``protocol/log.md`` §6,
``protocol/wire.md`` §5.2): the exact bytes a seat signs and the Ed25519 verification.

A log of format 2 from a LAN game holds each seat's public key in its header and each entry's
signature, so that a peer can serve the entries to others and anyone who loads the file can check
who made every move. The check belongs to the format, so it lives here and :func:`carcnet.log.load`
makes it on its own; :mod:`carcnet.net.signing` re-exports these functions. Private keys and signing
are not the log's: a :class:`~carcnet.log.recorder.GameRecorder` is handed objects that sign.

Ed25519 (RFC 8032) from ``cryptography``. Verification never raises: a key or a signature that is
not valid is a failed verification.

>>> from carcnet.engine import SkipMeeple
>>> from carcnet.log import LogEntry
>>> data = entry_bytes("0" * 32, LogEntry(1, 0, SkipMeeple(), bytes(32)))
>>> len(data), data[:17]
(99, b'carcnet/entry/v1\\x00')
>>> verify(bytes(32), data, bytes(64))
False
"""

from __future__ import annotations

import struct
from typing import Protocol

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from .codec import pack
from .entries import KEY_SIZE, SIG_SIZE, LogEntry

__all__ = [
    "ENTRY_DOMAIN",
    "KEY_SIZE",
    "SIG_SIZE",
    "Signer",
    "entry_bytes",
    "game_bytes",
    "verify",
    "verify_entry",
]

#: Domain separation of the bytes an entry's signature covers (``wire.md`` §5.2).
ENTRY_DOMAIN = b"carcnet/entry/v1\x00"
_U32 = struct.Struct(">I")
_U16 = struct.Struct(">H")


class Signer(Protocol):
    """What signs a seat's entries: anything with Ed25519 ``sign`` (``carcnet.net.SeatKey``)."""

    def sign(self, data: bytes, /) -> bytes:
        """The 64-byte Ed25519 signature of *data*."""
        ...


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


def game_bytes(game_id: str) -> bytes:
    """The game id as the 32 ASCII bytes the signed byte strings hold.

    Raises:
        ValueError: *game_id* is not 32 lowercase hex digits.
    """
    if (
        not isinstance(game_id, str)
        or len(game_id) != 32
        or any(c not in "0123456789abcdef" for c in game_id)
    ):
        raise ValueError(f"a game id is 32 lowercase hex digits, got {game_id!r}")
    return game_id.encode("ascii")


def entry_bytes(game_id: str, entry: LogEntry) -> bytes:
    """The canonical byte string an entry's signature covers (``wire.md`` §5.2)::

        "carcnet/entry/v1" 0x00 | game id (32 ASCII hex digits) | seq (u32 BE) | seat (u8)
        | length of the packed move (u16 BE) | packed move (canonical msgpack, log.md §4) | digest (32)

    The digest is the state digest after the move, which chains to every earlier move and to the setup
    (``digest.md`` §4), so the signature vouches for the whole game up to this entry. The entry's own
    ``sig`` is not part of it.

    Raises:
        ValueError: *game_id* is not 32 lowercase hex digits.
    """
    game = game_bytes(game_id)
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


def verify_entry(public_key: bytes, game_id: str, entry: LogEntry, sig: bytes | None) -> bool:
    """Whether *sig* signs *entry* of game *game_id* under *public_key* (``wire.md`` §5.2).

    The move is packed again canonically, so a receiver checks the entry it decoded, whatever
    encoding it came in. Never raises: a bad key, a bad or missing signature, a bad *game_id* are
    ``False``.
    """
    if sig is None:
        return False
    try:
        data = entry_bytes(game_id, entry)
    except ValueError:
        return False
    return verify(public_key, data, sig)
