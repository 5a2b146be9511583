"""Regenerates the log format's golden vectors: ``python -m tests.log.make_vectors [--dump]``.

Writes protocol/vectors/log.json, log.bin, log-seeded.json and log-seeded.bin; ``--dump`` prints the
annotated hex dump of log.bin used in protocol/log.md §10. Only for a deliberate, versioned change
(protocol/CHANGELOG.md): the tests compare the code with these files.
"""

from __future__ import annotations

import json
import struct
import sys

from carcnet.engine import Game
from carcnet.log import MAGIC, scan

from .vectors import VECTORS, file_bytes, scripted_game, seeded_game, to_json

DESCRIPTIONS = {
    "log": "carcnet log format 1 golden vector (protocol/log.md): a finished 2-player game from an "
    "explicit draw order. log.bin holds the exact file bytes; 'records' gives each record's byte "
    "offset and length. digests and bin values are hex; seeds are decimal strings.",
    "log-seeded": "carcnet log format 1 golden vector (protocol/log.md): a 3-player game in progress "
    "with two bot seats and the largest seed (2**64 - 1). log-seeded.bin holds the exact file bytes.",
}


def build(name: str, header, entries) -> tuple[dict, bytes]:
    data = file_bytes(header, entries)
    records, tail = scan(data)
    assert tail is None
    game = Game(header.setup())
    for e in entries:
        game.apply(e.move)
    vec = {
        "description": DESCRIPTIONS[name],
        "header": to_json(header),
        "entries": [to_json(e) for e in entries],
        "moves": [str(e.move) for e in entries],
        "scores": game.scores,
        "phase": game.phase.value,
        "records": [{"seq": r.index, "offset": r.offset, "size": len(r.body) + 12} for r in records],
        "size": len(data),
    }
    return vec, data


def dump(data: bytes) -> str:
    """An annotated hex dump: the magic, then per record its framing fields and body."""
    lines = [f"{0:04x}  {data[:8].hex(' '):<47}  magic {MAGIC!r}"]
    records, _ = scan(data)
    for r in records:
        pos = r.offset
        length, check = struct.unpack_from(">II", data, pos)
        what = "header" if r.index == 0 else f"entry seq {r.index}"
        lines.append(
            f"{pos:04x}  {data[pos : pos + 8].hex(' '):<47}  {what}: length {length}, length check {check:08x}"
        )
        body_at = pos + 8
        for i in range(0, len(r.body), 16):
            chunk = r.body[i : i + 16]
            text = "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)
            lines.append(f"{body_at + i:04x}  {chunk.hex(' '):<47}  |{text}|")
        end = body_at + len(r.body)
        lines.append(f"{end:04x}  {data[end : end + 4].hex(' '):<47}  body check")
    return "\n".join(lines)


def main() -> None:
    for name, (header, entries) in (("log", scripted_game()), ("log-seeded", seeded_game())):
        vec, data = build(name, header, entries)
        (VECTORS / f"{name}.json").write_text(json.dumps(vec, indent=1, ensure_ascii=False) + "\n")
        (VECTORS / f"{name}.bin").write_bytes(data)
        print(f"wrote {VECTORS / name}.json and .bin ({len(data)} bytes)")
    if "--dump" in sys.argv[1:]:
        print(dump((VECTORS / "log.bin").read_bytes()))


if __name__ == "__main__":
    main()
