"""Provides table draws: each tile chosen, when it is drawn, by every seated player together.

Implements ``protocol/deck.md`` §5 ("table draws", deck version 2); golden vectors in
``protocol/vectors/draws.json``. A seeded shuffle (§1–4) lets anyone who knows the seed compute every
future tile. At a network table each seat instead commits, before the game, to the root of a hash
chain; for draw *k* every contributing seat reveals the *k*-th value of its chain, which anyone checks
against the seat's earlier values with one hash per step; the tile for draw *k* is chosen uniformly
among the tiles left from a hash of all the *k*-th values. Until the last of them is out nobody can
compute the tile; since every value is fixed by the commitment, nobody can choose among outcomes,
only withhold its value.

Shapes and units:

* a **game id** is the header's 32 lowercase hex digits, hashed as its 32 ASCII bytes;
* a **chain value** is 32 bytes; ``step(game, seat, v) = SHA-256("carcnet/chain/v1" 0x00 ‖ game ‖
  seat as 1 byte ‖ v)``;
* a seat's chain for a game of *n* draws: ``v[n]`` is its 32-byte secret, ``v[k-1] = step(v[k])``,
  its **root** (the commitment) is ``v[0]``; it reveals ``v[k]`` for draw *k* (1-based);
* the **draw value** of draw *k*: ``SHA-256("carcnet/draw/v1" 0x00 ‖ game ‖ k as 4 bytes ‖ for
  each contributing seat in seat order: seat as 1 byte ‖ v[k])``; its first 8 bytes, big-endian, seed
  the stream of deck.md §1, whose ``below(len(bag))`` picks the tile from the current group in
  canonical order (deck.md §4).

Pure: :mod:`hashlib` only, no randomness (the secret is given by the caller).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from .deck import DeckStream

__all__ = [
    "CHAIN_DOMAIN",
    "DRAW_DOMAIN",
    "MAX_CHAIN",
    "TableDraws",
    "chain",
    "chain_root",
    "check_reveal",
    "draw_index",
    "draw_value",
    "step",
]

CHAIN_DOMAIN = b"carcnet/chain/v1\x00"
DRAW_DOMAIN = b"carcnet/draw/v1\x00"
#: The longest chain a game may ask for: more than any game's draws (``Rules.table_draws``: 286
#: with every expansion, its pile of 143 and a token of the sheep bag a tile at most).
MAX_CHAIN = 512


def _game_bytes(game: str) -> bytes:
    if not isinstance(game, str) or len(game) != 32 or any(c not in "0123456789abcdef" for c in game):
        raise ValueError(f"a game id is 32 lowercase hex digits, got {game!r}")
    return game.encode("ascii")


def step(game: str, seat: int, value: bytes) -> bytes:
    """One step down seat *seat*'s chain: the value revealed one draw earlier (deck.md §5.1).

    Raises:
        ValueError: *game* is not a game id, *seat* not 0–255, *value* not 32 bytes.
    """
    if not isinstance(value, bytes) or len(value) != 32:
        raise ValueError("a chain value is 32 bytes")
    return hashlib.sha256(CHAIN_DOMAIN + _game_bytes(game) + bytes([seat]) + value).digest()


def chain(game: str, seat: int, secret: bytes, length: int) -> list[bytes]:
    """Seat *seat*'s whole chain ``[v0 (the root), v1, …, v_length (the secret)]``: ``length + 1``
    values; ``v[k]`` is revealed for draw *k*.

    Raises:
        ValueError: A bad game id, seat or secret (32 bytes), or *length* not 1 to :data:`MAX_CHAIN`.
    """
    if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= MAX_CHAIN:
        raise ValueError(f"a chain has 1 to {MAX_CHAIN} values, not {length!r}")
    if not 0 <= seat <= 255:
        raise ValueError(f"seat must be 0-255, got {seat!r}")
    prefix = CHAIN_DOMAIN + _game_bytes(game) + bytes([seat])
    if not isinstance(secret, bytes) or len(secret) != 32:
        raise ValueError("a chain secret is 32 bytes")
    values = [secret]
    sha = hashlib.sha256
    for _ in range(length):
        values.append(sha(prefix + values[-1]).digest())
    values.reverse()
    return values


def chain_root(game: str, seat: int, secret: bytes, length: int) -> bytes:
    """The commitment of a chain: its value 0 (:func:`chain`)."""
    return chain(game, seat, secret, length)[0]


def check_reveal(game: str, seat: int, value: bytes, draw: int, known: tuple[int, bytes]) -> bool:
    """Whether *value* is seat *seat*'s chain value for draw *draw*, given a value of the same chain
    already known, ``known = (its draw, its value)`` (the root is ``(0, root)``): hashing *value*
    ``draw - known[0]`` times must give ``known[1]``. Costs that many hashes; never raises for a bad
    *value* (it is just ``False``).
    """
    earlier, expected = known
    if not isinstance(value, bytes) or len(value) != 32 or not earlier < draw <= MAX_CHAIN:
        return False
    prefix = CHAIN_DOMAIN + _game_bytes(game) + bytes([seat])
    sha = hashlib.sha256
    for _ in range(draw - earlier):
        value = sha(prefix + value).digest()
    return value == expected


def draw_value(game: str, draw: int, values: Sequence[bytes | None]) -> bytes:
    """The 32-byte draw value of draw *draw* from the seats' chain values (one per seat in seat order,
    ``None`` for a seat that does not contribute), deck.md §5.2."""
    parts = [DRAW_DOMAIN, _game_bytes(game), draw.to_bytes(4, "big")]
    for seat, value in enumerate(values):
        if value is not None:
            parts.append(bytes([seat]))
            parts.append(value)
    return hashlib.sha256(b"".join(parts)).digest()


def draw_index(value: bytes, size: int) -> int:
    """The index in ``[0, size)`` a draw value picks (deck.md §5.2): ``below(size)`` of the stream
    of deck.md §1 seeded by the value's first 8 bytes, big-endian."""
    return DeckStream(int.from_bytes(value[:8], "big")).below(size)


@dataclass(frozen=True, slots=True)
class TableDraws:
    """The draw source of a network game: its id and each seat's chain root (deck.md §5).

    Attributes:
        game: The game id (the log header's ``game``): 32 lowercase hex digits.
        roots: One 32-byte chain root per seat, in seat order (the header's ``commits``).
    """

    game: str
    roots: tuple[bytes, ...]

    def problem(self, players: int) -> str | None:
        """Why these draws cannot serve a game of *players* seats, or ``None``."""
        try:
            _game_bytes(self.game)
        except ValueError as exc:
            return str(exc)
        if not isinstance(self.roots, tuple) or len(self.roots) != players:
            return f"one chain root per seat: {players} expected"
        if any(not isinstance(r, bytes) or len(r) != 32 for r in self.roots):
            return "a chain root is 32 bytes"
        if len(set(self.roots)) != len(self.roots):
            return "two seats have the same chain root"
        return None

    def text(self) -> str:
        """The source's line of the digest's setup text (digest.md §2)."""
        return f"table {self.game} " + " ".join(r.hex() for r in self.roots)
