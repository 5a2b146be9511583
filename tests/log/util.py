"""Helpers for the log tests: short games on disk, hand-made records, byte surgery."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import msgpack

from carcnet.log import MAGIC, encode_record, scan

from .vectors import file_bytes, scripted_game


def short_log(tmp_path: Path, name: str = "short.carclog", format: int = 2) -> tuple[Path, bytes]:
    """The 6-entry game of protocol/vectors/log2.json (format 2; log.json with *format* 1) written to
    *tmp_path*; returns path and bytes."""
    header, entries = scripted_game(format)
    data = file_bytes(header, entries)
    path = tmp_path / name
    path.write_bytes(data)
    return path, data


def record_spans(data: bytes) -> list[tuple[int, int]]:
    """``(start, end)`` byte offsets of each record of an intact file (index 0 = header)."""
    records, tail = scan(data)
    assert tail is None
    return [(r.offset, r.offset + len(r.body) + 12) for r in records]


def craft(*maps: dict[str, Any]) -> bytes:
    """A file of records holding the given maps verbatim (msgpack, correct framing)."""
    return MAGIC + b"".join(encode_record(msgpack.packb(m, use_bin_type=True)) for m in maps)


def wire_maps(data: bytes) -> list[dict[str, Any]]:
    """The maps of an intact file, for editing before :func:`craft`."""
    records, tail = scan(data)
    assert tail is None
    return [msgpack.unpackb(r.body, raw=False) for r in records]


def write(tmp_path: Path, data: bytes, name: str | None = None) -> Path:
    """Writes *data* to a new file (a fresh name unless given: truncating a file over and over is
    slow on some file systems) and returns its path."""
    path = tmp_path / (name or f"case-{next(_names)}.carclog")
    path.write_bytes(data)
    return path


_names = itertools.count()
