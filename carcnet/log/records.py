"""Provides the byte framing of a ``.carclog`` file, without I/O (``protocol/log.md`` §2–3, §8).

A file is :data:`MAGIC` followed by records; a record is::

    length (u32 BE) | crc32(length bytes) (u32 BE) | body (length bytes: one msgpack map) | crc32(body) (u32 BE)

:func:`encode_record` frames a body; :func:`scan` splits a whole file into records and describes the
first damaged one, if any, deciding whether it is the *last* record (a write cut short by a crash,
which a reader may drop) or lies in the middle (which it must refuse).
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from typing import Literal

from carcnet.i18n import N_, _, ngettext

from .codec import MAX_BODY

__all__ = ["MAGIC", "MARK", "RECORD_OVERHEAD", "Record", "Tail", "encode_record", "scan"]

#: The first 8 bytes of every log file.
MAGIC = b"CARCLOG\n"
#: The first bytes of a log as a person reads them in a message (not a bytes literal).
MARK = N_("the word CARCLOG and a line break")
#: Bytes a record adds around its body: length, length check, body check.
RECORD_OVERHEAD = 12
_U32 = struct.Struct(">I")
_HEAD = struct.Struct(">II")


def encode_record(body: bytes) -> bytes:
    """The framed record of one msgpack *body* (``protocol/log.md`` §3).

    >>> encode_record(b"\\x80").hex(" ")
    '00 00 00 01 56 43 ef 8a 80 3f ba 6c ad'

    Raises:
        ValueError: *body* is empty or longer than ``MAX_BODY`` (64 KiB).
    """
    if not 1 <= len(body) <= MAX_BODY:
        raise ValueError(f"a record body is 1 to {MAX_BODY} bytes, got {len(body)}")
    length = _U32.pack(len(body))
    return length + _U32.pack(zlib.crc32(length)) + body + _U32.pack(zlib.crc32(body))


@dataclass(frozen=True, slots=True)
class Record:
    """One intact record: its index (0 for the header, then the entry's ``seq``), the byte offset
    where it starts in the file, and its body."""

    index: int
    offset: int
    body: bytes


@dataclass(frozen=True, slots=True)
class Tail:
    """The first damaged record of a file; everything before it is intact.

    Attributes:
        kind: ``"torn"``: the file ends inside the record (its length field is intact, or fewer than
            8 bytes of it are there); ``"corrupt"``: the record is complete but its length check or
            its body check fails.
        index: Index the record would have (0 = header, else the entry ``seq``).
        offset: Byte offset where it starts (the valid prefix is ``data[:offset]``).
        size: Bytes from *offset* to the end of the file.
        last: Whether nothing intact follows: a torn record always; a corrupt one when it ends exactly
            at the end of the file, or (when its length cannot be trusted) when no intact record can
            be found after it.
        detail: What failed, in words.
    """

    kind: Literal["torn", "corrupt"]
    index: int
    offset: int
    size: int
    last: bool
    detail: str


def _intact_at(data: bytes, pos: int) -> bool:
    """Whether an intact record starts at *pos*."""
    if pos + RECORD_OVERHEAD > len(data):
        return False
    length, check = _HEAD.unpack_from(data, pos)
    if not 1 <= length <= MAX_BODY or zlib.crc32(data[pos : pos + 4]) != check:
        return False
    stop = pos + 8 + length
    if stop + 4 > len(data):
        return False
    stored: int = _U32.unpack_from(data, stop)[0]
    return zlib.crc32(data[pos + 8 : stop]) == stored


def scan(data: bytes, start: int = len(MAGIC)) -> tuple[list[Record], Tail | None]:
    """Splits *data* (a whole file, magic already checked) into its intact records from *start*.

    Stops at the first damaged record and describes it (``protocol/log.md`` §8). When its length
    field fails its check, the length cannot be trusted, so the rest of the file is searched for an
    intact record: finding one means the damage is in the middle. That search looks at each later
    byte offset once; a false find needs two CRC-32 matches by chance.

    Returns:
        The intact records in order, and the damaged one or ``None`` when the file ends cleanly.
    """
    records: list[Record] = []
    pos = start
    end = len(data)
    index = 0
    while pos < end:
        size = end - pos
        if size < 8:
            # Translators: {size} is a number of bytes.
            return records, Tail("torn", index, pos, size, True, ngettext(
                "the file ends {size} byte into the record", "the file ends {size} bytes into the record", size,
            ).format(size=size))
        length, check = _HEAD.unpack_from(data, pos)
        if zlib.crc32(data[pos : pos + 4]) != check or not 1 <= length <= MAX_BODY:
            last = not any(_intact_at(data, p) for p in range(pos + 1, end - RECORD_OVERHEAD + 1))
            return records, Tail("corrupt", index, pos, size, last, _("its length field fails its check"))
        stop = pos + 8 + length + 4
        if stop > end:
            # Translators: {size} and {length} are numbers of bytes.
            detail = ngettext("the file ends {size} byte into a record of {length} bytes",
                              "the file ends {size} bytes into a record of {length} bytes", size,
                              ).format(size=size, length=length + RECORD_OVERHEAD)
            return records, Tail("torn", index, pos, size, True, detail)
        body = data[pos + 8 : stop - 4]
        if zlib.crc32(body) != _U32.unpack_from(data, stop - 4)[0]:
            return records, Tail("corrupt", index, pos, size, stop == end, _("its body fails its checksum"))
        records.append(Record(index, pos, body))
        pos = stop
        index += 1
    return records, None
