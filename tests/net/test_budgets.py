"""The budgets of wire.md §2.1–2.2 against a live table on loopback (issue 13 item 5): a frame that
never completes, connections that never prove a key, frames of a million tiny items, and the
connection log that must not grow with every stranger. Each time the table plays on."""

from __future__ import annotations

import dataclasses
import struct
import time

import msgpack
import pytest

from carcnet.bots import make_bot
from carcnet.net import FramingError, decode_message, encode_message
from carcnet.net.framing import MAX_ARRAY, FrameDecoder, decode_body
from carcnet.net.messages import Entries
from carcnet.net.peer import MAX_HANDSHAKES_PER_ADDRESS
from carcnet.net.connections import MAX_EVENTS
from carcnet.net.sync import SyncSession

from .loopback import (
    FAST,
    GAME,
    LoopbackGame,
    RawClient,
    all_over,
    assert_identical,
    identity,
    make_header,
    until,
)

#: A frame deadline short enough for a test, still far above a loopback frame's trip.
TRICKLE = dataclasses.replace(FAST, frame=0.5, dead=30.0, heartbeat=10.0, handshake=30.0)


@pytest.mark.asyncio
async def test_a_frame_that_never_completes_is_cut_off_and_the_game_goes_on():
    async with LoopbackGame(make_header(2), timing=TRICKLE) as table:
        a = await table.player("Ann", [0])
        b = await table.player("Bob", [1], dial=[a], bots=False)  # Bob waits: the game is at his turn
        await until([a, b], lambda: a.session.to_play == 1 and b.session.have == a.session.have)
        for handshake in (False, True):  # before the hello, and on a proven connection
            raw = await RawClient.open(a.address)
            try:
                if handshake:
                    await raw.hello("Mallory", role="spectator")
                started = time.monotonic()
                await raw.send_raw(struct.pack(">I", 8 << 10) + b"\x81")  # 8 KiB announced, 1 byte sent
                assert await raw.closed(timeout=10)  # the deadline, not the 30 s of silence
                assert time.monotonic() - started < 10
            finally:
                await raw.aclose()
        timeouts = [e for e in a.session.connections.events if e.code == "timeout" and e.message.startswith("frame")]
        assert len(timeouts) == 2
        b.driver.set_bot(1, make_bot("random", 1))
        await all_over([a, b])
        assert_identical([a, b])


@pytest.mark.asyncio
async def test_unproven_connections_from_one_address_are_capped_and_proven_ones_are_not():
    async with LoopbackGame(make_header(2)) as table:
        a = await table.player("Ann", [0], bots=False)
        silent = [await RawClient.open(a.address) for _ in range(MAX_HANDSHAKES_PER_ADDRESS)]
        # each of them is accepted and waits for its hello; the next one is over the budget
        await until([a], lambda: sum(1 for lk in a.session.connections.links if not lk.conn.initiator) == len(silent))
        extra = await RawClient.open(a.address)
        try:
            assert await extra.next(timeout=5) is None  # closed before a byte was read
            assert a.refused_connections == 1
        finally:
            await extra.aclose()
        # the ones in the budget are real connections: each may still say hello and be welcomed
        for i, raw in enumerate(silent):
            await raw.hello(f"Watcher {i}", role="spectator")
        # proven connections do not count against the per-address budget: Bob gets in and plays
        b = await table.player("Bob", [1], dial=[a])
        a.driver.set_bot(0, make_bot("random", 0))
        await all_over([a, b])
        assert_identical([a, b])
        for raw in silent:
            await raw.aclose()


def test_a_frame_of_a_million_tiny_items_is_refused_before_it_is_built():
    body = msgpack.packb({"type": "entries", "from": 1, "entries": [0] * (1_000_000 - 40)})
    assert len(body) < 1 << 20
    with pytest.raises(FramingError, match="bad-frame|array"):
        decode_body(body)
    body = msgpack.packb({"type": "gossip", "x": [0] * (MAX_ARRAY + 1)})
    with pytest.raises(FramingError):
        decode_body(body)
    with pytest.raises(FramingError):  # a str longer than any text of the protocol
        decode_body(msgpack.packb({"type": "bye", "reason": "x" * 1025}))
    with pytest.raises(FramingError):  # a bin longer than a signature
        decode_body(msgpack.packb({"type": "proof", "sig": bytes(65)}))


def test_the_largest_honest_frames_still_decode():
    """A whole game's entries in one frame, and 256 maps in an array (wire.md §4.3), are within
    every bound."""
    from .vectors import signed_entries

    entries = tuple(signed_entries(100))
    frame = encode_message(Entries(from_seq=1, entries=entries))
    assert decode_message(frame) == Entries(from_seq=1, entries=entries)
    body = msgpack.packb({"type": "entries", "from": 1, "entries": [{"seq": i} for i in range(MAX_ARRAY)]})
    assert len(decode_body(body)["entries"]) == MAX_ARRAY
    assert FrameDecoder().decode(struct.pack(">I", len(body)) + body)[0]["from"] == 1


def test_the_connection_log_is_bounded():
    session = SyncSession(game=GAME, name="Ann", identity=identity("Ann"))
    for i in range(MAX_EVENTS + 250):
        session.connections.refuse(session.connections.accept_link(), "bad-frame", f"stranger {i}")
    assert len(session.connections.events) == MAX_EVENTS
    messages = [e.message for e in session.connections.events]
    assert f"stranger {MAX_EVENTS + 249}" in messages and "stranger 0" not in messages  # the newest kept
    assert session.connections.links == []  # nothing else is kept of a closed connection


@pytest.mark.asyncio
async def test_a_big_frame_is_taken_only_from_a_player_at_the_table():
    """wire.md §2.2 "Budgets by role": 1 MiB is announced; from a stranger in its handshake, a
    spectator, or a proven key that plays no seat, it is refused at its length (no byte of its body
    is read); a seated player's big catch-up is taken (a resumed peer gets the whole log at once)."""
    async with LoopbackGame(make_header(2)) as table:
        a = await table.player("Ann", [0])
        b = await table.player("Bob", [1], dial=[a])
        await until([a, b], lambda: a.session.have >= 40)
        announce = struct.pack(">I", 1 << 20)
        for how in ("handshake", "spectator", "player"):
            raw = await RawClient.open(a.address)
            try:
                if how != "handshake":
                    await raw.hello("Mallory", role=how)
                await raw.send_raw(announce)
                answer = await raw.refusal()
                assert (answer.code, await raw.closed()) == ("too-large", True), how
            finally:
                await raw.aclose()
        await all_over([a, b])
        assert_identical([a, b])
        # Cleo comes late to watch and is sent the whole log in big frames by seated Ann: taken
        late = await table.spectator("Cleo", dial=[a])
        await until([late], lambda: late.session.have == a.session.have)


@pytest.mark.asyncio
async def test_a_player_comes_back_to_a_peer_full_of_strangers(monkeypatch):
    """wire.md §2.1: when the accepted connections are at the cap, the address holding the most that
    play no seat gives up its oldest: a flood of proven spectators cannot keep Bob out."""
    import carcnet.net.peer as peer_module

    monkeypatch.setattr(peer_module, "MAX_ACCEPTED", 4)
    monkeypatch.setattr(peer_module, "MAX_NEW_PER_ADDRESS_PER_SECOND", 100)
    async with LoopbackGame(make_header(2)) as table:
        a = await table.player("Ann", [0])
        strangers = []
        for i in range(4):
            raw = await RawClient.open(a.address)
            await raw.hello(f"Stranger {i}", role="spectator")
            strangers.append(raw)
        await until([a], lambda: len(a.session.connections.open_links()) == 4)
        b = await table.player("Bob", [1], dial=[a])  # the fifth: the oldest stranger makes room
        assert await strangers[0].closed(timeout=5)
        await all_over([a, b])
        assert_identical([a, b])
        for raw in strangers:
            await raw.aclose()
