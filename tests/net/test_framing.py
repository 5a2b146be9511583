"""Framing (protocol/wire.md §2): frames survive any split of the byte stream; bad bytes only ever
raise FramingError with the right code."""

from __future__ import annotations

import struct

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carcnet.net.framing import (
    MAX_DEPTH,
    MAX_FRAME,
    MAX_ITEMS,
    FrameDecoder,
    FramingError,
    decode_frame,
    encode_frame,
)

SMALL = 256  # a small maximum keeps the fuzzing fast


def frame_of(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


def code_of(data: bytes, max_frame: int = MAX_FRAME) -> str:
    with pytest.raises(FramingError) as info:
        FrameDecoder(max_frame).decode(data)
    return info.value.code


# ---------------------------------------------------------------------- values

keys = st.text(max_size=6)
leaves = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.text(max_size=12)
    | st.binary(max_size=12)
)
values = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=12,
)
maps = st.dictionaries(keys, values, max_size=5)


def depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max((depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((depth(v) for v in value), default=0)
    return 0


@settings(max_examples=60)
@given(st.lists(maps, min_size=1, max_size=5), st.data())
def test_any_split_of_the_stream_decodes_the_same_frames(messages, data):
    messages = [m for m in messages if depth(m) <= MAX_DEPTH]
    stream = b"".join(encode_frame(m) for m in messages)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=8)))
    decoder = FrameDecoder()
    got = []
    start = 0
    for cut in [*cuts, len(stream)]:
        got += decoder.decode(stream[start:cut])
        start = cut
    assert got == messages
    assert decoder.buffered == 0


@settings(max_examples=200)
@given(st.binary(max_size=600), st.lists(st.integers(1, 64), max_size=10))
def test_garbage_raises_nothing_but_framing_error(garbage, sizes):
    decoder = FrameDecoder(SMALL)
    pos = 0
    try:
        for size in [*sizes, len(garbage)]:
            for frame in decoder.decode(garbage[pos : pos + size]):
                assert isinstance(frame, dict)
            pos += size
    except FramingError as exc:
        assert exc.code in ("bad-frame", "too-large")
        assert decoder.broken
        with pytest.raises(FramingError):
            decoder.next_frame()
    assert decoder.buffered <= 4 + SMALL or decoder.broken


@settings(max_examples=100)
@given(st.binary(min_size=1, max_size=200))
def test_garbage_bodies_in_a_valid_length_raise_only_bad_frame(body):
    try:
        frames = FrameDecoder().decode(frame_of(body))
    except FramingError as exc:
        assert exc.code == "bad-frame"
    else:
        assert len(frames) == 1 and isinstance(frames[0], dict)


# ---------------------------------------------------------------------- lengths


def test_a_too_large_length_is_refused_as_soon_as_it_arrives():
    decoder = FrameDecoder()
    decoder.feed(struct.pack(">I", MAX_FRAME + 1))
    with pytest.raises(FramingError) as info:
        decoder.next_frame()
    assert info.value.code == "too-large"
    assert decoder.buffered == 0  # nothing of the stream is kept after it


def _largest(extra: int = 0) -> dict:
    """A map of exactly MAX_FRAME + *extra* bytes packed, within the shape limits of wire.md §2.2:
    arrays of at most 256 strings of at most 1024 bytes."""
    target = MAX_FRAME + extra
    value: dict = {k: [] for k in "abcd"}
    for k in "abcd":
        while len(value[k]) < 255 and len(msgpack.packb(value)) + 1027 + 2 <= target:
            value[k].append("x" * 1024)
    last = value["d"]
    for n in range(1024, -1, -1):
        if len(msgpack.packb({**value, "d": [*last, "x" * n]})) == target:
            return {**value, "d": [*last, "x" * n]}
    raise AssertionError("no exact fit")


def test_the_largest_frame_is_accepted_and_one_more_byte_is_not():
    largest = _largest()
    body = msgpack.packb(largest, use_bin_type=True)
    assert len(body) == MAX_FRAME
    assert FrameDecoder().decode(frame_of(body)) == [largest]
    assert encode_frame(largest) == frame_of(body)
    with pytest.raises(FramingError) as info:
        encode_frame(_largest(1))
    assert info.value.code == "too-large"
    assert code_of(struct.pack(">I", MAX_FRAME + 1) + b"\x80" * 10) == "too-large"


def test_a_zero_length_is_a_bad_frame():
    assert code_of(b"\0\0\0\0") == "bad-frame"


def test_an_incomplete_frame_waits_and_the_buffer_is_bounded():
    frame = encode_frame({"type": "want", "from": 1})
    decoder = FrameDecoder()
    for byte in frame[:-1]:
        decoder.feed(bytes([byte]))
        assert decoder.next_frame() is None
    decoder.feed(frame[-1:])
    assert decoder.next_frame() == {"type": "want", "from": 1}
    decoder.feed(struct.pack(">I", 64) + b"\x81")
    assert decoder.next_frame() is None and decoder.buffered == 5


# ---------------------------------------------------------------------- bodies


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(msgpack.packb([1, 2]), id="array"),
        pytest.param(msgpack.packb(7), id="int"),
        pytest.param(msgpack.packb({"a": 1}) + b"\xc0", id="trailing"),
        pytest.param(b"\x82\xa1a\x01", id="truncated-map"),
        pytest.param(b"\x81\xa1a\xc1", id="reserved-byte"),
        pytest.param(b"\x82\xa1a\x01\xa1a\x02", id="duplicate-key"),
        pytest.param(b"\x81\x01\x01", id="int-key"),
        pytest.param(b"\x81\xc4\x01a\x01", id="bin-key"),
        pytest.param(b"\x81\xa2\xff\xfe\x01", id="bad-utf8"),
        pytest.param(msgpack.packb({"a": 1.5}), id="float"),
        pytest.param(b"\x81\xa1a\xd4\x01\x00", id="ext"),
        pytest.param(b"\x81\xa1a\xd6\xff\x00\x00\x00\x00", id="timestamp"),
        pytest.param(msgpack.packb({"a": [[[[[[[[1]]]]]]]]}), id="too-deep"),
        pytest.param(b"\x81\xa1a" + b"\x91" * 5000 + b"\x90", id="very-deep"),
        pytest.param(b"\x81\xa1a\xdd\xff\xff\xff\xff", id="huge-array"),
    ],
)
def test_bad_bodies_are_bad_frames(body):
    assert code_of(frame_of(body)) == "bad-frame"


def test_nesting_up_to_the_limit_is_fine():
    value: object = 1
    for _ in range(MAX_DEPTH - 1):
        value = [value]
    assert FrameDecoder().decode(encode_frame({"a": value})) == [{"a": value}]
    with pytest.raises(FramingError):
        encode_frame({"a": [value]})


# The object's id without its address: every worker of a parallel run must name the cases alike.
@pytest.mark.parametrize("value", [1.5, {1: 2}, {b"k": 1}, {1, 2}, 2**64, -(2**63) - 1, object()],
                         ids=lambda value: "object()" if type(value) is object else repr(value))
def test_encoding_refuses_what_is_not_a_wire_value(value):
    with pytest.raises(FramingError) as info:
        encode_frame({"v": value})
    assert info.value.code == "bad-frame"


def test_encoding_refuses_a_non_map():
    with pytest.raises(FramingError):
        encode_frame([1, 2])  # type: ignore[arg-type]


def test_decode_frame_wants_exactly_one_frame():
    frame = encode_frame({"a": 1})
    assert decode_frame(frame) == {"a": 1}
    for bad in (frame[:-1], frame + b"\0", frame + frame):
        with pytest.raises(FramingError):
            decode_frame(bad)


def test_tuples_are_arrays_and_the_encoding_is_the_shortest():
    assert encode_frame({"pos": (1, -1)}) == encode_frame({"pos": [1, -1]})
    assert encode_frame({"a": 0}).hex() == "0000000481a16100"


# ---------------------------------------------------------------------- the budget of values


def items(value: object) -> int:
    """The arrays and maps of *value* with their items and pairs (wire.md §2.2)."""
    if isinstance(value, dict):
        return 1 + len(value) + sum(items(v) for v in value.values())
    if isinstance(value, list):
        return 1 + len(value) + sum(items(v) for v in value)
    return 0


def _holding(n: int) -> dict:
    """A map of exactly *n* arrays, maps and items, within every other limit of wire.md §2.2: arrays
    of at most 255 empty arrays, the last item perhaps an int."""
    outer: list[list] = []
    value = {"a": outer}
    while items(value) < n - 1:
        if not outer or len(outer[-1]) == 255:
            outer.append([])
        else:
            outer[-1].append([])
    if items(value) < n:
        outer[-1].append(1)
    assert items(value) == n
    return value


def test_a_body_holds_at_most_max_items_arrays_maps_and_items():
    """wire.md §2.2: a frame that keeps every size limit but holds more values in all than any
    message needs is refused while it is decoded; one of exactly the budget is taken."""
    largest = _holding(MAX_ITEMS)
    assert FrameDecoder().decode(encode_frame(largest)) == [largest]
    with pytest.raises(FramingError, match=f"more than {MAX_ITEMS} arrays, maps and items") as info:
        FrameDecoder().decode(encode_frame(_holding(MAX_ITEMS + 1)))
    assert info.value.code == "bad-frame"


def test_a_megabyte_of_empty_arrays_is_refused_not_built():
    """A seated player's 1 MiB frame of nested empty arrays (a million values, every array and the
    depth within their limits) is refused by the budget, before its million arrays are built."""
    row = [[] for _ in range(255)]
    body = msgpack.packb({"type": "entries", "a": [[row] * 255] * 15}, use_bin_type=True)
    assert MAX_FRAME - 2**16 < len(body) <= MAX_FRAME
    with pytest.raises(FramingError, match=f"more than {MAX_ITEMS} arrays, maps and items") as info:
        decode_frame(frame_of(body))
    assert info.value.code == "bad-frame"


def test_the_largest_honest_message_is_within_the_budget():
    """256 draw entries of six values each, the largest message of this version, hold about 4,400."""
    entry = {"type": "entry", "seq": 1, "seat": 0, "move": {"type": "draw", "values": [bytes(32)] * 6},
             "digest": bytes(32), "sig": None}
    message = {"type": "entries", "from": 1, "entries": [entry] * 256}
    assert 4000 < items(message) < MAX_ITEMS
    assert FrameDecoder().decode(encode_frame(message)) == [message]
