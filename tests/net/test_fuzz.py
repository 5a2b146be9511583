"""Fuzzing frame and message decoding (issue 13): thousands of hostile inputs, raw, mutated from the
golden vectors, and built as msgpack maps of any shape, fed to a connection waiting for a hello and
to an open one. Every input ends as messages, or as a refusal with a code of wire.md §6 and the
connection closed; none escapes as an exception, and none costs the reader more than a budget of
steps (Python calls) linear in its bytes: the old reader walked every item of a frame of a million
items (1.7 s); today's refuses the costliest shapes the limits leave in about 65 calls.

The budget is counted, so it holds on a loaded machine: speed is in benchmarks/."""

from __future__ import annotations

import struct
import sys
from collections.abc import Callable
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carcnet.net import CODES, Closed, Proven, Refused, State
from carcnet.net.messages import MESSAGE_TYPES, _Message

from .test_protocol import acceptor, pair
from .vectors import messages, vector

#: Python calls (functions and builtins) any one input may cost the reader: a fixed part (a hostile
#: hello or welcome of under 1 KiB takes at most about 800), and one per 16 bytes.
STEPS_FIXED, BYTES_A_STEP = 2000, 16
VECTORS = [vector(name)[1] for name in sorted(messages())]

_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**63), 2**64 - 1), st.text(max_size=40), st.binary(max_size=70),
    st.floats(allow_nan=False),
)
_value = st.recursive(
    _leaf,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner, max_size=6),
    max_leaves=30,
)
_field_names = st.sampled_from(
    ["proto", "rules", "game", "role", "name", "key", "have", "digest", "port", "nonce", "header", "peers",
     "from", "entries", "sig", "seat", "hash", "code", "message", "seq", "reason", "table", "locked", "x"]
)


@st.composite
def hostile_maps(draw) -> bytes:
    """A frame of a map with a real ``type`` and fields of the real names holding anything."""
    fields = draw(st.dictionaries(_field_names, _value, max_size=10))
    body = msgpack.packb({"type": draw(st.sampled_from(MESSAGE_TYPES)), **fields}, use_bin_type=True)
    return struct.pack(">I", len(body)) + body


@st.composite
def mutated_vectors(draw) -> bytes:
    """A golden vector's frame with bytes flipped, cut, inserted or its length prefix changed."""
    data = bytearray(draw(st.sampled_from(VECTORS)))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "cut", "insert", "length"]))
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "flip" and data:
            data[at] ^= draw(st.integers(1, 255))
        elif kind == "cut":
            del data[at:]
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif len(data) >= 4:
            data[:4] = struct.pack(">I", draw(st.integers(0, 2**32 - 1)))
    return bytes(data)


hostile = st.one_of(st.binary(max_size=300), mutated_vectors(), hostile_maps())


def _counted(work: Callable[[], Any]) -> tuple[Any, int]:
    """What *work()* returns, and the Python calls (functions and builtins) it made."""
    steps = 0

    def count(frame: Any, event: str, arg: Any) -> None:
        nonlocal steps
        if event in ("call", "c_call"):
            steps += 1

    before = sys.getprofile()
    sys.setprofile(count)
    try:
        result = work()
    finally:
        sys.setprofile(before)
    return result, steps


def _judge(conn, data: bytes) -> None:
    events, steps = _counted(lambda: conn.receive_data(data))
    budget = STEPS_FIXED + len(data) // BYTES_A_STEP
    assert steps <= budget, f"{steps} steps for {len(data)} bytes (budget {budget})"
    for event in events:
        assert isinstance(event, _Message | Proven | Refused | Closed), event
    refusals = [e for e in events if isinstance(e, Refused)]
    if refusals:
        assert len(refusals) == 1 and refusals[0].code in CODES
        if refusals[0].closed:
            assert isinstance(events[-1], Closed) and conn.state is State.CLOSED
    if conn.state is State.CLOSED:
        assert isinstance(events[-1], Closed) or not events


@pytest.mark.slow
@settings(max_examples=2500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=hostile)
def test_a_connection_waiting_for_a_hello_refuses_or_takes_anything(data: bytes) -> None:
    _judge(acceptor(), data)


@pytest.mark.slow
@settings(max_examples=2500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=hostile)
def test_an_open_connection_refuses_or_takes_anything(data: bytes) -> None:
    _, b = pair()
    _judge(b, data)


def test_the_costliest_shapes_a_frame_may_take_stay_within_the_bound() -> None:
    """What the shape limits leave (wire.md §2.2): nested arrays of at most 256 items, 1 MiB."""
    nested = {"type": "heartbeat", "x": [[[0] * 15] * 256] * 250}
    flat = {"type": "heartbeat", "x": [0] * (1_000_000 - 30)}  # refused at the array's length
    for value in (nested, flat):
        body = msgpack.packb(value)
        assert len(body) <= 1 << 20
        for build in (pair, lambda: (None, acceptor())):
            _, conn = build()
            _judge(conn, struct.pack(">I", len(body)) + body)
