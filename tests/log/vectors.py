"""Golden vectors of the log format (protocol/vectors/log*.json, log*.bin): the games they hold and
their JSON form, shared by the tests and by ``python -m tests.log.make_vectors``.

JSON form of a record = its wire map (``carcnet.log.to_wire``) with ``bin`` values (digests) as hex
strings and the seed as a decimal string (JSON numbers lose precision above 2**53), as in
protocol/README.md.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from carcnet.engine import Game, Move, parse_move
from carcnet.log import MAGIC, LogEntry, LogHeader, Seat, encode_record, from_wire, pack, to_wire

VECTORS = Path(__file__).parents[2] / "protocol" / "vectors"

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
#: The scripted game of log.json: 2 humans, draw order E U V; it ends after three turns.
SCRIPT = ("place E 0,-1 180", "deploy 0", "place U 1,0 90", "deploy 2", "place V -1,0 270", "skip")


def scripted_game() -> tuple[LogHeader, list[LogEntry]]:
    """log.json: a finished 2-player game from an explicit draw order."""
    header = LogHeader.new(
        [Seat("Ann", "red"), Seat("Bob", "blue")],
        order=("E", "U", "V"),
        created=1795256100,  # 2026-11-21 10:15:00 UTC
        game="3f2a9c1b5d6e4f708192a3b4c5d6e7f8",
    )
    return header, _play(header, [parse_move(m) for m in SCRIPT])


def seeded_game() -> tuple[LogHeader, list[LogEntry]]:
    """log-seeded.json: a game in progress, 3 seats (two of them bots), the largest seed."""
    header = LogHeader.new(
        [
            Seat("Cleo", "yellow"),
            Seat("Random 1", "green", "bot", "random"),
            Seat("Random 2", "black", "bot", "random"),
        ],
        seed=2**64 - 1,
        created=1795256160,
        game="00112233445566778899aabbccddeeff",
    )
    return header, _play(header, [parse_move(m) for m in SEEDED_MOVES])


def _play(header: LogHeader, moves: list[Move]) -> list[LogEntry]:
    game = Game(header.setup())
    entries = []
    for seq, move in enumerate(moves, 1):
        seat = game.seat
        game.apply(move)
        entries.append(LogEntry(seq, seat, move, game.digest))
    return entries


def file_bytes(header: LogHeader, entries: list[LogEntry]) -> bytes:
    """The exact bytes of the log file of *header* and *entries*."""
    return MAGIC + b"".join(encode_record(pack(item)) for item in [header, *entries])


def to_json(item: LogHeader | LogEntry) -> dict[str, Any]:
    """The JSON form of a header or entry."""
    out = to_wire(item)
    out["digest"] = out["digest"].hex()
    if out.get("seed") is not None:
        out["seed"] = str(out["seed"])
    return out


def from_json(data: dict[str, Any]) -> LogHeader | LogEntry:
    """The header or entry of a JSON form."""
    wire = dict(data)
    wire["digest"] = bytes.fromhex(wire["digest"])
    if wire.get("seed") is not None:
        wire["seed"] = int(wire["seed"])
    item = from_wire(wire)
    assert isinstance(item, LogHeader | LogEntry)
    return item


def vector(name: str) -> tuple[dict[str, Any], bytes]:
    """The JSON and the bytes of vector *name* (``"log"`` or ``"log-seeded"``)."""
    return json.loads((VECTORS / f"{name}.json").read_text()), (VECTORS / f"{name}.bin").read_bytes()
