"""Provides the wire's framing without I/O: frames to bytes and bytes to frames (``protocol/wire.md`` §2).

A frame is a 4-byte big-endian body length followed by the body, exactly one msgpack map::

    length (u32 BE, 1 .. MAX_FRAME) | body (length bytes: one msgpack map)

:func:`encode_frame` turns a plain map into a frame; :class:`FrameDecoder` is fed bytes as they
arrive, in pieces of any size, and hands out the maps of the complete frames. Anything that is not a
well-formed frame raises :class:`FramingError` with the code the peer is told (``bad-frame`` or
``too-large``); nothing else escapes, whatever the bytes.

>>> frame = encode_frame({"type": "want", "from": 3})
>>> frame.hex(" ")
'00 00 00 11 82 a4 74 79 70 65 a4 77 61 6e 74 a4 66 72 6f 6d 03'
>>> decoder = FrameDecoder()
>>> decoder.feed(frame[:5]); decoder.next_frame() is None
True
>>> decoder.feed(frame[5:]); decoder.next_frame()
{'type': 'want', 'from': 3}
"""

from __future__ import annotations

import struct
from collections.abc import Iterator, Mapping
from typing import Any

import msgpack  # type: ignore[import-untyped]  # msgpack ships no type hints

from carcnet.log.values import MAX_DEPTH, StrictError, kind_of, unpack_strict

__all__ = [
    "HEADER_SIZE",
    "MAX_DEPTH",
    "MAX_FRAME",
    "MAX_ITEMS",
    "SMALL_FRAME",
    "FrameDecoder",
    "FramingError",
    "ProtocolError",
    "decode_body",
    "decode_frame",
    "encode_frame",
]

#: Largest frame body in bytes: 1 MiB (``protocol/wire.md`` §2.1). The length prefix is not counted.
MAX_FRAME = 1 << 20
#: The largest array, map, str and bin any message of this version holds (``wire.md`` §2.2): 256
#: entries in an ``entries`` (a header's draw order has at most 84 letters), 16 keys in a map (32 to
#: spare), a text of 256 characters of at most 4 bytes, a signature of 64 bytes. The unpacker refuses
#: anything longer before it builds a Python object, so a frame of a million tiny items costs
#: microseconds, not seconds.
MAX_ARRAY, MAX_MAP, MAX_STR, MAX_BIN = 256, 32, 1024, 64
#: The most arrays, maps, array items and map pairs one frame body holds in all (``wire.md`` §2.2),
#: each array or map counting one plus its items or pairs: the largest message of this version (256
#: entries of 17 at most) holds about 4,400. Counted while the body is decoded and refused at the
#: first array or map past it, so that a frame of a million empty arrays costs a few milliseconds,
#: not a third of a second.
MAX_ITEMS = 8192
#: Largest frame body from a connection that may not need more (``wire.md`` §2.2 "Budgets by
#: role"): in its handshake, a spectator, or a player that plays no seat. The largest message such a
#: peer sends (a welcome with a header and 32 peers, a start, a heartbeat) is a few KiB.
SMALL_FRAME = 16 << 10
#: Bytes of the length prefix.
HEADER_SIZE = 4
_LENGTH = struct.Struct(">I")


class ProtocolError(ValueError):
    """Bad input from a peer, with the code it is told (``protocol/wire.md`` §6).

    Attributes:
        code: The error code, e.g. ``"bad-frame"``, ``"bad-signature"`` (the table of ``wire.md`` §6).
        seq: The sequence number the error concerns, or ``None``.
    """

    def __init__(self, code: str, message: str, seq: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.seq = seq

    @property
    def message(self) -> str:
        """The human-readable text (the ``message`` field of the error frame)."""
        return str(self.args[0]) if self.args else ""


class FramingError(ProtocolError):
    """Bytes that are not a frame of ``protocol/wire.md`` §2: ``code`` is ``"too-large"`` (the
    length prefix exceeds the maximum) or ``"bad-frame"`` (a zero length, or a body that is not exactly
    one msgpack map of the allowed types). Either way the connection cannot continue."""


# ---------------------------------------------------------------------- encoding


def encode_frame(message: Mapping[str, Any], *, max_frame: int = MAX_FRAME) -> bytes:
    """The frame of one plain map: length prefix and canonical msgpack body (``wire.md`` §2).

    Keys are written in the map's iteration order; ints, strs, bins, arrays and maps in their shortest
    msgpack forms (msgpack-python's ``packb(m, use_bin_type=True)``). Values may be ``None``,
    ``bool``, ``int`` (``-2**63 .. 2**64 - 1``), ``str``, ``bytes``, ``list``/``tuple`` and
    ``dict`` with ``str`` keys, nested at most :data:`MAX_DEPTH` deep.

    Raises:
        FramingError: ``"bad-frame"``: *message* is not a map, or holds a value of another type
            (float, set, …), a non-str key or an int out of range; ``"too-large"``: the body would
            exceed *max_frame* bytes.
    """
    if not isinstance(message, Mapping):
        raise FramingError("bad-frame", f"a frame holds one map, not {type(message).__name__}")
    _check_out(message, 1)
    try:
        body: bytes = msgpack.packb(message, use_bin_type=True)
    except (OverflowError, TypeError, ValueError) as exc:
        raise FramingError("bad-frame", f"cannot encode the map: {exc}") from None
    if len(body) > max_frame:
        raise FramingError("too-large", f"the body would be {len(body)} bytes; at most {max_frame}")
    return _LENGTH.pack(len(body)) + body


def _check_out(value: object, depth: int) -> None:
    if depth > MAX_DEPTH and isinstance(value, list | tuple | dict):
        raise FramingError("bad-frame", f"maps and arrays nest at most {MAX_DEPTH} deep")
    if value is None or isinstance(value, bool | str | bytes):
        return
    if isinstance(value, int):
        if not -(2**63) <= value < 2**64:
            raise FramingError("bad-frame", f"integer out of the msgpack range: {value}")
        return
    if isinstance(value, list | tuple):
        for item in value:
            _check_out(item, depth + 1)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise FramingError("bad-frame", f"map keys are str, got {key!r}")
            _check_out(item, depth + 1)
        return
    raise FramingError(
        "bad-frame", f"{type(value).__name__} is not a wire type (int, str, bin, bool, nil, array, map)"
    )


# ---------------------------------------------------------------------- decoding


def decode_body(body: bytes, *, max_bin: int = MAX_BIN) -> dict[str, Any]:
    """The map of one frame body (``wire.md`` §2.2): exactly one msgpack map, nothing after it.

    Strict: keys are str and unique in every map; values are int, str (valid UTF-8), bin, bool, nil,
    array or map, nested at most :data:`MAX_DEPTH` deep, no longer than :data:`MAX_ARRAY`,
    :data:`MAX_MAP`, :data:`MAX_STR`, :data:`MAX_BIN`, with at most :data:`MAX_ITEMS` arrays, maps
    and items in all (refused as soon as decoding passes it); no float, no ext (timestamps included).
    Arrays come back as ``list``. *max_bin* lifts the bin limit for a use that carries a file as
    one bin (the event service's logs and charters, protocol/tournament.md §6.0); the table's frames
    keep :data:`MAX_BIN`.

    Raises:
        FramingError: ``"bad-frame"``, with what is wrong.
    """
    if not body:
        raise FramingError("bad-frame", "an empty body is not a msgpack map")
    try:
        value = unpack_strict(
            body, limit=len(body), max_array=MAX_ARRAY, max_map=MAX_MAP, max_str=MAX_STR, max_bin=max_bin,
            max_items=MAX_ITEMS,
        )
    except StrictError as exc:
        raise FramingError("bad-frame", f"the body is not one msgpack map ({exc})"[:200]) from None
    if not isinstance(value, dict):
        raise FramingError("bad-frame", f"the body is a msgpack {kind_of(value)}, not a map")
    return value


def decode_frame(frame: bytes, *, max_frame: int = MAX_FRAME) -> dict[str, Any]:
    """The map of exactly one complete frame (length prefix and body, nothing before or after).

    Raises:
        FramingError: ``"too-large"``, or ``"bad-frame"`` (also for missing or extra bytes).
    """
    decoder = FrameDecoder(max_frame)
    decoder.feed(frame)
    value = decoder.next_frame()
    if value is None or decoder.buffered:
        raise FramingError("bad-frame", f"{len(frame)} bytes are not exactly one frame")
    return value


class FrameDecoder:
    """Splits a byte stream into frames and decodes their bodies, without I/O (``wire.md`` §2).

    Feed it bytes as they arrive (:meth:`feed`), in pieces of any size, then take the frames out with
    :meth:`next_frame` (or iterate) until it returns ``None``. The buffer holds at most one incomplete
    frame (``4 + max_frame`` bytes) plus whatever was fed since the frames were last taken out.

    Lifecycle: once a frame is bad, the decoder is broken: every later :meth:`next_frame` and
    :meth:`feed` raises the same :class:`FramingError`, since the stream cannot be trusted after it.

    Args:
        max_frame: Largest body accepted, in bytes (the protocol's is :data:`MAX_FRAME`).
        max_bin: Largest bin accepted (:func:`decode_body`).
    """

    def __init__(self, max_frame: int = MAX_FRAME, *, max_bin: int = MAX_BIN) -> None:
        self.max_frame = max_frame
        self.max_bin = max_bin
        self._buffer = bytearray()
        self._error: FramingError | None = None
        #: The body (bytes, no length prefix) of the frame :meth:`next_frame` returned last: what a
        #: handshake proof hashes (``wire.md`` §3.4).
        self.last_body = b""

    def feed(self, data: bytes | bytearray | memoryview) -> None:
        """Appends received bytes.

        Raises:
            FramingError: The decoder is broken by an earlier bad frame.
        """
        if self._error is not None:
            raise self._error
        self._buffer += data

    def next_frame(self) -> dict[str, Any] | None:
        """The map of the next complete frame, or ``None`` when more bytes are needed.

        A too-large length is refused as soon as its 4 bytes are in, before the body arrives.

        Raises:
            FramingError: ``"too-large"`` or ``"bad-frame"``; the decoder is broken from then on.
        """
        if self._error is not None:
            raise self._error
        buffer = self._buffer
        if len(buffer) < HEADER_SIZE:
            return None
        (length,) = _LENGTH.unpack_from(buffer)
        try:
            if length == 0:
                raise FramingError("bad-frame", "a frame length of 0: a frame holds one map")
            if length > self.max_frame:
                raise FramingError(
                    "too-large", f"a frame of {length} bytes announced; at most {self.max_frame} are accepted"
                )
            end = HEADER_SIZE + length
            if len(buffer) < end:
                return None
            body = bytes(buffer[HEADER_SIZE:end])
            del buffer[:end]
            self.last_body = body
            return decode_body(body, max_bin=self.max_bin)
        except FramingError as exc:
            self._error = exc
            self._buffer = bytearray()
            raise

    def __iter__(self) -> Iterator[dict[str, Any]]:
        """The complete frames buffered so far (see :meth:`next_frame`; raises as it does)."""
        while (frame := self.next_frame()) is not None:
            yield frame

    def decode(self, data: bytes | bytearray | memoryview) -> list[dict[str, Any]]:
        """:meth:`feed` then every complete frame, in order.

        Raises:
            FramingError: As :meth:`next_frame`; frames before the bad one in *data* are lost, so use
                :meth:`feed` and :meth:`next_frame` where they matter.
        """
        self.feed(data)
        return list(self)

    @property
    def buffered(self) -> int:
        """Bytes received but not yet part of a frame handed out."""
        return len(self._buffer)

    @property
    def broken(self) -> bool:
        """Whether a bad frame was seen (the decoder raises from then on)."""
        return self._error is not None
