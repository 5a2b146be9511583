"""Regenerates the log format's golden vectors: ``python -m tests.log.make_vectors [--dump]``.

Writes protocol/vectors/<name>.json and <name>.bin for log and log-seeded (format 1), log2 and
log2-signed (format 2), log3-table (format 3); ``--dump`` prints the annotated hex dump of log2.bin used in protocol/log.md
§10. Only for a deliberate, versioned change (protocol/CHANGELOG.md): the tests compare the code with
these files. The format-1 vectors are never to change: they prove that old files still load.
"""

from __future__ import annotations

import json
import struct
import sys

from carcnet.engine import Game
from carcnet.log import MAGIC, scan

from .vectors import SIGNED_SEEDS, VECTORS, file_bytes, games, to_json

DESCRIPTIONS = {
    "log": "carcnet log format 1 golden vector (protocol/log.md): a finished 2-player game from an "
    "explicit draw order. log.bin holds the exact file bytes; 'records' gives each record's byte "
    "offset and length. digests and bin values are hex; seeds are decimal strings.",
    "log-seeded": "carcnet log format 1 golden vector (protocol/log.md): a 3-player game in progress "
    "with two bot seats and the largest seed (2**64 - 1). log-seeded.bin holds the exact file bytes.",
    "log2": "carcnet log format 2 golden vector (protocol/log.md): the game of log.json as a local, "
    "unsigned game in format 2 (keys, commits, nonces and every sig nil). log2.bin holds the exact "
    "file bytes; 'records' gives each record's byte offset and length. bin values are hex.",
    "log2-signed": "carcnet log format 2 golden vector (protocol/log.md): a 3-seat LAN game in progress "
    "(the third seat a bot), the seed agreed by commit-reveal (seed = the nonces' seed, protocol/wire.md "
    "§5.3), every entry signed with its seat's Ed25519 key over the bytes of wire.md §5.2. "
    "'seat_key_seeds' are the seats' private seeds (SHA-256 of 'carcnet log vector seat <i>'; the "
    "nonces are SHA-256 of 'carcnet log vector nonce <i>'), so the signatures can be rebuilt. "
    "log2-signed.bin holds the exact file bytes. bin values are hex; the seed a decimal string.",
    "log3-table": "carcnet log format 3 golden vector (protocol/log.md): a 3-seat LAN game in progress "
    "whose draws the table makes (protocol/deck.md §5): the header's commits are the seats' chain roots "
    "(chain secrets SHA-256 of 'carcnet log vector chain <i>'), with neither nonces nor seed; a draw "
    "entry, unsigned, holds every seat's chain value before each turn; the other entries are signed as "
    "in log2-signed. log3-table.bin holds the exact file bytes. bin values are hex.",
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
        "entries": [to_json(e, header.format) for e in entries],
        "moves": [str(e.move) for e in entries],
        "scores": game.scores,
        "phase": game.phase.value,
        "records": [{"seq": r.index, "offset": r.offset, "size": len(r.body) + 12} for r in records],
        "size": len(data),
    }
    if header.keys is not None:
        vec["seat_key_seeds"] = [s.hex() for s in SIGNED_SEEDS]
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
    for name, (header, entries) in games().items():
        vec, data = build(name, header, entries)
        (VECTORS / f"{name}.json").write_text(json.dumps(vec, indent=1, ensure_ascii=False) + "\n")
        (VECTORS / f"{name}.bin").write_bytes(data)
        print(f"wrote {VECTORS / name}.json and .bin ({len(data)} bytes)")
    if "--dump" in sys.argv[1:]:
        print(dump((VECTORS / "log2.bin").read_bytes()))


if __name__ == "__main__":
    main()
