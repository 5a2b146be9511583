"""Golden vectors of the log format (protocol/vectors/log*.json, log*.bin): the games they hold and
their JSON form, shared by the tests and by ``python -m tests.log.make_vectors``.

Four vectors: ``log`` and ``log-seeded`` are format 1 (kept so that format-1 files are known to still
load); ``log2`` is the game of ``log`` in format 2 (an unsigned local game), ``log2-signed`` a LAN
game of three seats in format 2 with seat keys, commit–reveal and a signature on every entry.

JSON form of a record = its wire map (``carcnet.log.to_wire``) with ``bin`` values (digests, keys,
commitments, nonces, signatures) as hex strings and the seed as a decimal string (JSON numbers lose
precision above 2**53), as in protocol/README.md.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from typing import Any

from carcnet.engine import DrawTile, Game, Move, parse_move
from carcnet.engine.draws import chain
from carcnet.log import (
    DEFAULT_FORMAT,
    MAGIC,
    LogEntry,
    LogHeader,
    Seat,
    encode_record,
    entry_bytes,
    from_wire,
    pack,
    to_wire,
)
from carcnet.net import SeatKey
from tests.jsonform import from_json as _json_in
from tests.jsonform import to_json as _json_out

VECTORS = Path(__file__).parents[2] / "protocol" / "vectors"
#: Vector name → its log format.
NAMES = {"log": 1, "log-seeded": 1, "log2": 2, "log2-signed": 2, "log3-table": 3}

#: The first six moves of log-seeded.json (once chosen by a RandomBot; fixed here so that the vector
#: does not depend on the bot).
SEEDED_MOVES = (
    "place L -1,0 180",
    "deploy 4",
    "place K -1,-1 270",
    "deploy 3",
    "place L 0,-1 180",
    "deploy 0",
)
#: The scripted game of log.json and log2.json: 2 humans, draw order E U V; it ends after three turns.
SCRIPT = ("place E 0,-1 180", "deploy 0", "place U 1,0 90", "deploy 2", "place V -1,0 270", "skip")
#: The first six moves of log2-signed.json: each seat's first turn (once the engine's first legal
#: moves; fixed here so that the vector does not depend on the order of legal moves).
SIGNED_MOVES = (
    "place R 0,-1 90",
    "deploy 0",
    "place V -1,-1 0",
    "deploy 0",
    "place U -2,-1 90",
    "deploy 1",
)
SIGNED_GAME = "5e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b"


def _h(label: str) -> bytes:
    return hashlib.sha256(label.encode()).digest()


#: Private seeds of log2-signed's seat keys and its nonces: SHA-256 of labels, so anyone can rebuild
#: them (and the signatures: Ed25519 is deterministic).
SIGNED_SEEDS = tuple(_h(f"carcnet log vector seat {i}") for i in range(3))
SIGNED_NONCES = tuple(_h(f"carcnet log vector nonce {i}") for i in range(3))


def signed_keys() -> tuple[SeatKey, ...]:
    return tuple(SeatKey.from_seed(s) for s in SIGNED_SEEDS)


def scripted_game(format: int = DEFAULT_FORMAT) -> tuple[LogHeader, list[LogEntry]]:
    """log.json (format 1) and log2.json (format 2): a finished 2-player game from an explicit draw
    order."""
    header = LogHeader.new(
        [Seat("Ann", "red"), Seat("Bob", "blue")],
        order=("E", "U", "V"),
        created=1795256100,  # 2026-11-21 10:15:00 UTC
        rules=2,  # the stored vectors are files of rules 2, which a reader of rules 3 still replays
        game="3f2a9c1b5d6e4f708192a3b4c5d6e7f8",
    )
    header = dataclasses.replace(header, format=format)
    return header, _play(header, [parse_move(m) for m in SCRIPT])


def seeded_game(format: int = 1) -> tuple[LogHeader, list[LogEntry]]:
    """log-seeded.json: a game in progress, 3 seats (two of them bots), the largest seed."""
    header = LogHeader.new(
        [
            Seat("Cleo", "yellow"),
            Seat("Random 1", "green", "bot", "random"),
            Seat("Random 2", "black", "bot", "random"),
        ],
        seed=2**64 - 1,
        created=1795256160,
        rules=2,
        game="00112233445566778899aabbccddeeff",
    )
    header = dataclasses.replace(header, format=format)
    return header, _play(header, [parse_move(m) for m in SEEDED_MOVES])


def signed_game() -> tuple[LogHeader, list[LogEntry]]:
    """log2-signed.json: a LAN game in progress, three seats (the third a bot its host runs), the seed
    agreed by commit–reveal, every entry signed by its seat's key."""
    keys = signed_keys()
    header = LogHeader.new(
        [Seat("Ann", "red"), Seat("Bob", "blue"), Seat("Random", "yellow", "bot", "random")],
        keys=[k.public for k in keys],
        nonces=SIGNED_NONCES,
        created=1795256400,  # 2026-11-21 10:20:00 UTC
        rules=2,
        game=SIGNED_GAME,
    )
    return header, _play(header, [parse_move(m) for m in SIGNED_MOVES], keys)


#: The turns of log3-table.json after each draw (fixed, so that the vector does not depend on the
#: order of legal moves); a ``draw`` entry comes before each turn.
TABLE_MOVES = (("place V -1,0 180", "deploy 0"), ("place V -2,0 0", "skip"), ("place S -3,0 270", "deploy 2"))
TABLE_GAME = "7a1c3e5f7092b4d6f8a0c2e4a6b8d0f2"
#: The chain secrets of log3-table's seats: SHA-256 of labels, as the seat keys' seeds are.
TABLE_SECRETS = tuple(_h(f"carcnet log vector chain {i}") for i in range(3))


def table_game() -> tuple[LogHeader, list[LogEntry]]:
    """log3-table.json (format 3): a LAN game in progress whose draws the table makes (deck.md §5):
    the seats' chain roots in ``commits`` (no nonces, no seed), a ``draw`` entry (unsigned: its values
    prove themselves) before each turn, every other entry signed by its seat's key."""
    keys = signed_keys()
    length = 71
    chains = [chain(TABLE_GAME, i, TABLE_SECRETS[i], length) for i in range(3)]
    header = LogHeader.new(
        [Seat("Ann", "red"), Seat("Bob", "blue"), Seat("Random", "yellow", "bot", "random")],
        keys=[k.public for k in keys],
        commits=[c[0] for c in chains],
        created=1795256700,  # 2026-11-21 10:25:00 UTC
        rules=2,
        game=TABLE_GAME,
    )
    moves: list[Move] = []
    for k, turn in enumerate(TABLE_MOVES, 1):
        moves.append(DrawTile(tuple(c[k] for c in chains)))
        moves.extend(parse_move(m) for m in turn)
    return header, _play(header, moves, keys)


def _play(header: LogHeader, moves: list[Move], keys: tuple[SeatKey, ...] | None = None) -> list[LogEntry]:
    game = Game(header.setup())
    entries = []
    for seq, move in enumerate(moves, 1):
        seat = game.seat
        game.apply(move)
        entry = LogEntry(seq, seat, move, game.digest)
        if keys is not None and not isinstance(move, DrawTile):
            entry = dataclasses.replace(entry, sig=keys[seat].sign(entry_bytes(header.game, entry)))
        entries.append(entry)
    return entries


def games() -> dict[str, tuple[LogHeader, list[LogEntry]]]:
    """Vector name → the header and entries it holds."""
    return {
        "log": scripted_game(1),
        "log-seeded": seeded_game(1),
        "log2": scripted_game(2),
        "log2-signed": signed_game(),
        "log3-table": table_game(),
    }


def file_bytes(header: LogHeader, entries: list[LogEntry]) -> bytes:
    """The exact bytes of the log file of *header* and *entries* (in the header's format)."""
    return MAGIC + b"".join(encode_record(pack(item, format=header.format)) for item in [header, *entries])


def to_json(item: LogHeader | LogEntry, format: int = DEFAULT_FORMAT) -> dict[str, Any]:
    """The JSON form of a header or entry (an entry in *format*)."""
    return _json_out(to_wire(item, format=format))


def from_json(data: dict[str, Any], format: int = DEFAULT_FORMAT) -> LogHeader | LogEntry:
    """The header or entry of a JSON form (an entry in *format*)."""
    item = from_wire(_json_in(data), format=format)
    assert isinstance(item, LogHeader | LogEntry)
    return item


def vector(name: str) -> tuple[dict[str, Any], bytes]:
    """The JSON and the bytes of vector *name* (one of :data:`NAMES`)."""
    return json.loads((VECTORS / f"{name}.json").read_text()), (VECTORS / f"{name}.bin").read_bytes()
