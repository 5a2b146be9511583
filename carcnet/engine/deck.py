"""Provides the deterministic deck: the draw order as a pure function of a 64-bit seed.

Implements ``protocol/deck.md`` ("carcnet deck shuffle, version 1"). Python's ``random.shuffle`` and
``randrange`` may change between Python versions, so the shuffle is written out here and pinned by
the golden vectors in ``protocol/vectors/deck.json``:

* a stream of 64-bit numbers: block ``i`` is ``SHA-256(b"carcnet/deck/v1" + seed.to_bytes(8, "big")
  + i.to_bytes(4, "big"))``, read as four big-endian 64-bit numbers in order;
* ``below(n)``: take the next number ``u``; reject it while ``u >= 2**64 - (2**64 % n)``; return
  ``u % n`` (no modulo bias);
* Fisher–Yates: for ``i`` from ``len - 1`` down to ``1``: swap items ``i`` and ``below(i + 1)``;
* the deck is made of groups shuffled one after another from one stream (the base game has one
  group; The River puts its river tiles in a group before it). Each group starts in canonical order:
  tile ids sorted, each repeated by its count.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable, Sequence

__all__ = ["SEED_LIMIT", "DeckStream", "canonical_group", "shuffled_groups"]

#: Seeds are integers in ``[0, SEED_LIMIT)``: unsigned 64-bit, so msgpack and JSON carry them exactly.
SEED_LIMIT = 2**64
_DOMAIN = b"carcnet/deck/v1"
_FOUR_U64 = struct.Struct(">4Q")  # a SHA-256 block as four big-endian 64-bit numbers


class DeckStream:
    """The seeded stream of 64-bit numbers behind the shuffle (``protocol/deck.md`` §1–2); *domain*,
    another stream of the same seed (§8: the held tiles' return).

    Raises ``ValueError`` when the seed is not an integer in ``[0, 2**64)``.
    """

    __slots__ = ("_block", "_buffer", "_prefix")

    def __init__(self, seed: int, domain: bytes = _DOMAIN) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
            raise ValueError(f"seed must be an integer in [0, 2**64), got {seed!r}")
        self._prefix = domain + seed.to_bytes(8, "big")
        self._block = 0
        self._buffer: list[int] = []

    def next_u64(self) -> int:
        """The next 64-bit number of the stream."""
        if not self._buffer:
            digest = hashlib.sha256(self._prefix + self._block.to_bytes(4, "big")).digest()
            self._block += 1
            self._buffer = [int.from_bytes(digest[i : i + 8], "big") for i in (24, 16, 8, 0)]
        return self._buffer.pop()

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection sampling; ``n`` must be at least 1."""
        if n < 1:
            raise ValueError("below() needs n >= 1")
        limit = SEED_LIMIT - SEED_LIMIT % n
        while True:
            u = self.next_u64()
            if u < limit:
                return u % n

    def shuffle(self, items: list[str]) -> None:
        """Fisher–Yates in place, from the last index down (``protocol/deck.md`` §3): ``j =
        below(i + 1)``, with :meth:`below` and :meth:`next_u64` written out in the loop (every
        game's setup runs it; the same numbers, as the golden vectors check)."""
        prefix, block, buffer = self._prefix, self._block, self._buffer
        sha256, unpack = hashlib.sha256, _FOUR_U64.unpack
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = SEED_LIMIT - SEED_LIMIT % n
            while True:
                if not buffer:
                    buffer = list(unpack(sha256(prefix + block.to_bytes(4, "big")).digest()))
                    buffer.reverse()  # popped from the end: the block's first number first
                    block += 1
                u = buffer.pop()
                if u < limit:
                    break
            j = u % n
            items[i], items[j] = items[j], items[i]
        self._block, self._buffer = block, buffer


def canonical_group(counts: dict[str, int]) -> list[str]:
    """A group in canonical order: ids sorted by code point, each repeated by its count."""
    return [tile for tile in sorted(counts) for _ in range(counts[tile])]


def shuffled_groups(seed: int, groups: Iterable[Sequence[str]]) -> list[list[str]]:
    """Shuffles each group in turn from one stream seeded by *seed*; returns the shuffled groups.

    >>> shuffled_groups(7, [["A", "B", "C"]]) == shuffled_groups(7, [["A", "B", "C"]])
    True
    """
    stream = DeckStream(seed)
    out = []
    for group in groups:
        items = list(group)
        stream.shuffle(items)
        out.append(items)
    return out
