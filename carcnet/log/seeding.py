"""Provides the commit–reveal arithmetic of the seed that a header records (``protocol/log.md`` §5,
``protocol/wire.md`` §5.3): a nonce's commitment and the seed the nonces give.

Pure functions of public values (``hashlib`` only). Drawing the nonces and the exchange that reveals
them belong to the network layer (:mod:`carcnet.net.signing`, which re-exports these); the log only
checks what a header holds.

>>> derive_seed([bytes(32), bytes(32)])
7223153380597135295
>>> commitment(bytes(32)).hex()[:16]
'66687aadf862bd77'
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

__all__ = ["NONCE_SIZE", "SEED_DOMAIN", "commitment", "derive_seed"]

#: Bytes of a commit–reveal nonce (and of its commitment).
NONCE_SIZE = 32
#: Domain separation of the seed (``wire.md`` §5.3): 15 ASCII bytes, no terminator.
SEED_DOMAIN = b"carcnet/seed/v1"


def commitment(nonce: bytes) -> bytes:
    """The commitment to a nonce: ``SHA-256(nonce)``, 32 bytes (``wire.md`` §5.3).

    Raises:
        ValueError: *nonce* is not 32 bytes.
    """
    if not isinstance(nonce, bytes) or len(nonce) != NONCE_SIZE:
        raise ValueError(f"a nonce is {NONCE_SIZE} bytes")
    return hashlib.sha256(nonce).digest()


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
