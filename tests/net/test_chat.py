"""Table talk (protocol/wire.md §4.9, §4.9a): a ``chat`` line signed with a seat key, or a spectator's
``spectator-chat`` signed with its identity key, passed on by every peer once, kept out of the game's
log; forged, replayed, flooding and malformed lines.

Sessions joined in memory (no sockets), as in test_sync.py; the end-to-end test with two real peers
and the interface is tests/tui/test_chat_ui.py.
"""

from __future__ import annotations

import dataclasses

import pytest

from carcnet.net import SeatKey
from carcnet.net.messages import Chat, MessageError, SpectatorChat, decode_message, encode_message
from carcnet.net.signing import (
    chat_bytes,
    sign_chat,
    sign_spectator_chat,
    spectator_chat_bytes,
    verify_chat,
    verify_spectator_chat,
)
from carcnet.net.chat import CHAT_AGE, CHAT_RATE, CHAT_WINDOW
from carcnet.net.sync import SyncError

from .loopback import GAME, MemoryWire, identity, seat_key
from .test_sync import session


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_a_line_reaches_every_peer_through_relays_and_spectators_see_it():
    a, b, c = session("A", seats=(0,)), session("B", seats=(1,)), session("C", role="spectator")
    ab, bc = MemoryWire(b, a), MemoryWire(c, b)  # a line: A – B – C
    ab.pump()
    bc.pump()
    line = a.say("good luck, everyone")
    ab.pump()
    bc.pump()
    assert [(x.seat, x.text) for x in b.chat.lines] == [(0, "good luck, everyone")]
    assert [(x.seat, x.text, x.mine) for x in c.chat.lines] == [(0, "good luck, everyone", False)]
    assert line.mine and a.chat.lines[-1] is line
    b.say("thanks")
    ab.pump()
    bc.pump()
    assert [x.text for x in a.chat.lines] == ["good luck, everyone", "thanks"]
    assert [x.text for x in c.chat.lines] == ["good luck, everyone", "thanks"]
    # passed on once: B does not send A's line back to A, nor twice to C
    assert len(a.chat.lines) == len(b.chat.lines) == len(c.chat.lines) == 2
    # table talk is not the game: nothing entered any log
    assert a.have == b.have == c.have == 0


def test_a_spectator_speaks_as_itself_and_its_line_reaches_every_peer_marked_as_a_spectator_s():
    """Eve watches through Bob (A – B – E): her line, signed with her identity key under her name,
    reaches Bob and, passed on by him, Ann, each holding it as a spectator's (no seat); a line sent
    back to her is a repeat, and nothing enters a log."""
    a, b, e = session("A", seats=(0,)), session("B", seats=(1,)), session("Eve", role="spectator")
    ab, be = MemoryWire(b, a), MemoryWire(e, b)
    ab.pump()
    be.pump()
    line = e.say("nice road, Ann")
    be.pump()
    ab.pump()
    assert (line.seat, line.spectator, line.mine) == (None, "Eve", True)
    for peer in (a, b):
        said = [(x.seat, x.spectator, x.text, x.mine) for x in peer.chat.lines]
        assert said == [(None, "Eve", "nice road, Ann", False)]
    assert len(e.chat.lines) == 1  # passed on once: not back to Eve
    a.say("thanks, Eve")
    ab.pump()
    be.pump()
    assert [(x.seat, x.text) for x in e.chat.lines] == [(None, "nice road, Ann"), (0, "thanks, Eve")]
    assert a.have == b.have == e.have == 0
    assert not any(ev.code in ("forbidden", "bad-chat") for s in (a, b, e) for ev in s.connections.events)


def test_a_player_speaks_only_for_its_seats_and_a_line_must_be_a_line():
    watcher = session("W", role="spectator")
    with pytest.raises(SyncError):
        watcher.say("as Ann", seat=0)
    a = session("A", seats=(0,))
    with pytest.raises(SyncError):
        a.say("as Bob", seat=1)
    for bad in ("", " ", "x" * 201, "bell\x07", "right\u202eto left"):
        for speaker in (a, watcher):
            with pytest.raises(ValueError):
                speaker.say(bad)


def _spectator_line(name: str, text: str, *, signer: str | None = None, chat_id: bytes = b"\1" * 8,
                    time_ms: int = 1_800_000_000_000) -> SpectatorChat:
    key = identity(name)
    sig = sign_spectator_chat(identity(signer or name), GAME, name, chat_id, time_ms, text)
    return SpectatorChat(key=key.public, name=name, id=chat_id, time=time_ms, text=text, sig=sig)


def test_a_spectator_s_line_signed_by_another_key_than_the_one_it_names_closes_the_connection():
    clock = Clock()
    b = session("B", seats=(1,), wall_clock=clock)
    mallory = session("M", role="spectator")
    forged = _spectator_line("Eve", "Ann cheats", signer="M", time_ms=int(clock.now * 1000))
    wire = _feed(b, mallory, forged)
    assert not b.chat.lines
    assert any(e.code == "bad-chat" for e in b.connections.events)
    assert wire.b.closed


def _line(seat: int, text: str, key: SeatKey, *, chat_id: bytes = b"\1" * 8, time_ms: int = 1_800_000_000_000) -> Chat:
    return Chat(seat=seat, id=chat_id, time=time_ms, text=text, sig=sign_chat(key, GAME, seat, chat_id, time_ms, text))


def _feed(receiver, sender, *messages: Chat) -> MemoryWire:
    """Joins *sender* to *receiver* and sends *messages* from the sender's side, as raw frames."""
    wire = MemoryWire(sender, receiver)
    wire.pump()
    for message in messages:
        wire.b.receive_data(wire.a.conn.send(message))
    return wire


def test_a_line_signed_by_another_key_than_its_seats_closes_the_connection():
    clock = Clock()
    b = session("B", seats=(1,), wall_clock=clock)
    mallory = session("M", seats=(0,))
    forged = _line(1, "I resign", seat_key(0))  # seat 1's name, seat 0's key
    wire = _feed(b, mallory, forged)
    assert not b.chat.lines
    assert any(e.code == "bad-chat" for e in b.connections.events)
    assert wire.b.closed


def test_replays_stale_lines_and_floods_are_dropped_without_closing():
    clock = Clock()
    now = [0.0]  # the rate window's clock: every line in the same instant
    b = session("B", seats=(1,), wall_clock=clock, clock=lambda: now[0])
    a = session("A", seats=(0,))
    now_ms = int(clock.now * 1000)
    first = _line(0, "hi", seat_key(0), time_ms=now_ms)
    stale = _line(0, "old news", seat_key(0), chat_id=b"\2" * 8, time_ms=now_ms - int(CHAT_AGE * 1000) - 1)
    flood = [_line(0, f"spam {i}", seat_key(0), chat_id=bytes([10 + i]) * 8, time_ms=now_ms) for i in range(10)]
    wire = _feed(b, a, first, first, stale, *flood)
    texts = [x.text for x in b.chat.lines]
    assert texts[0] == "hi" and "old news" not in texts
    assert texts.count("hi") == 1  # the same line twice is kept once
    assert len(texts) == CHAT_RATE  # the seat's budget: CHAT_RATE lines per CHAT_WINDOW seconds
    assert not wire.b.closed
    now[0] = CHAT_WINDOW + 1  # later, the seat speaks again
    wire.b.receive_data(wire.a.conn.send(_line(0, "sorry", seat_key(0), chat_id=b"\x7f" * 8, time_ms=now_ms)))
    assert b.chat.lines[-1].text == "sorry"


def test_a_malformed_line_is_refused():
    good = _line(0, "hello", seat_key(0))
    assert decode_message(encode_message(good)) == good
    for field, value in (("text", "x" * 201), ("text", "tab\there"), ("text", ""), ("id", b"\0" * 7),
                         ("seat", 6), ("sig", b"\0" * 63)):
        with pytest.raises(MessageError):
            dataclasses.replace(good, **{field: value})


def test_the_signed_bytes_are_those_of_the_spec():
    data = chat_bytes(GAME, 1, b"\xab" * 8, 1_800_000_000_000, "gg")
    assert data == (b"carcnet/chat/v1\0" + GAME.encode() + b"\x01" + b"\xab" * 8
                    + (1_800_000_000_000).to_bytes(8, "big") + b"gg")
    key = seat_key(1)
    sig = sign_chat(key, GAME, 1, b"\xab" * 8, 1_800_000_000_000, "gg")
    assert verify_chat(key.public, GAME, 1, b"\xab" * 8, 1_800_000_000_000, "gg", sig)
    assert not verify_chat(key.public, GAME, 1, b"\xab" * 8, 1_800_000_000_000, "GG", sig)


def test_a_spectator_s_malformed_line_is_refused_and_its_signed_bytes_are_those_of_the_spec():
    good = _spectator_line("Eve", "hello")
    assert decode_message(encode_message(good)) == good
    for field, value in (("text", "x" * 201), ("text", "bell\x07"), ("name", ""), ("name", "x" * 33),
                         ("key", b"\0" * 31), ("id", b"\0" * 7), ("sig", b"\0" * 63)):
        with pytest.raises(MessageError):
            dataclasses.replace(good, **{field: value})
    key = identity("Eve")
    data = spectator_chat_bytes(GAME, key.public, "Eve", b"\xab" * 8, 1_800_000_000_000, "gg")
    assert data == (b"carcnet/spectator-chat/v1\0" + GAME.encode() + key.public + b"\x03Eve" + b"\xab" * 8
                    + (1_800_000_000_000).to_bytes(8, "big") + b"gg")
    sig = sign_spectator_chat(key, GAME, "Eve", b"\xab" * 8, 1_800_000_000_000, "gg")
    assert verify_spectator_chat(key.public, GAME, "Eve", b"\xab" * 8, 1_800_000_000_000, "gg", sig)
    assert not verify_spectator_chat(key.public, GAME, "Ann", b"\xab" * 8, 1_800_000_000_000, "gg", sig)
