"""The table talk of one peer, as tables of cases (protocol/wire.md §4.9): a line is checked under its
seat's key before anything else (``bad-chat``), then dropped silently when seen already, more than
CHAT_AGE seconds off this peer's clock, or over its seat's budget of CHAT_RATE lines in CHAT_WINDOW
seconds; else kept. Values in, values out: clocks are numbers passed to the room, no session."""

from __future__ import annotations

import dataclasses

import pytest

from carcnet.net.chat import (
    CHAT_AGE,
    CHAT_RATE,
    CHAT_SEEN,
    CHAT_WINDOW,
    MAX_CHATS,
    SPECTATORS_RATE,
    ChatRoom,
    SeenLines,
)
from carcnet.net.messages import MAX_CHAT, Chat, SpectatorChat
from carcnet.net.signing import sign_chat, sign_spectator_chat, verify_chat, verify_spectator_chat

from .loopback import GAME, identity, seat_key

#: This peer's wall clock (seconds since 1970) in every case; the monotonic clock is each line's ``now``.
WALL = 1_800_000_000.0
#: The seat keys of a two-seat table.
KEYS = (seat_key(0).public, seat_key(1).public)


def test_the_budgets_are_those_of_the_spec():
    budgets = (CHAT_RATE, CHAT_WINDOW, CHAT_AGE, CHAT_SEEN, MAX_CHATS, MAX_CHAT, SPECTATORS_RATE)
    assert budgets == (5, 10.0, 600.0, 512, 200, 200, 10)


@dataclasses.dataclass(frozen=True)
class Line:
    """A ``chat`` as a test sends it: who speaks, the line's id (one byte, repeated), how many seconds
    before :data:`WALL` it was written, its text, the seat whose key signs it (its own by default), a
    text put in after signing, and the receiver's monotonic clock when it arrives."""

    seat: int = 0
    id: int = 1
    ago: float = 0.0
    text: str = "hi"
    signer: int | None = None
    forged_text: str | None = None
    now: float = 0.0

    def chat(self) -> Chat:
        time_ms = int((WALL - self.ago) * 1000)
        chat_id = bytes([self.id]) * 8
        signer = seat_key(self.seat if self.signer is None else self.signer)
        sig = sign_chat(signer, GAME, self.seat, chat_id, time_ms, self.text)
        text = self.text if self.forged_text is None else self.forged_text
        return Chat(seat=self.seat, id=chat_id, time=time_ms, text=text, sig=sig)


def flood(seat: int, count: int, now: float = 0.0, first_id: int = 100) -> list[tuple[Line, str]]:
    """*count* distinct lines of *seat* at *now*, each expected kept."""
    return [(Line(seat=seat, id=first_id + i, text=f"line {i}", now=now), "keep") for i in range(count)]


#: (the lines in the order they arrive, each with the verdict expected)
TAKE = [
    pytest.param([(Line(), "keep")], id="a line signed by its seat is kept"),
    pytest.param([(Line(seat=2), "bad-chat")], id="a seat the table does not have"),
    pytest.param([(Line(seat=1, signer=0), "bad-chat")], id="signed by another seat's key"),
    pytest.param([(Line(forged_text="I resign"), "bad-chat")], id="the text changed after signing"),
    pytest.param([(Line(), "keep"), (Line(), "drop")], id="the same seat and id again is dropped"),
    pytest.param([(Line(), "keep"), (Line(text="other words"), "drop")],
                 id="a seat and id seen is dropped whatever it says"),
    pytest.param([(Line(seat=0), "keep"), (Line(seat=1), "keep")],
                 id="the same id from another seat is another line"),
    pytest.param([(Line(), "keep"), (Line(seat=0, signer=1), "drop")],
                 id="a copy of a line seen is dropped before its signature is checked, forged or not"),
    pytest.param([(Line(ago=CHAT_AGE), "keep")], id="exactly CHAT_AGE old is kept"),
    pytest.param([(Line(ago=CHAT_AGE + 0.001), "drop")], id="older than CHAT_AGE is a replay"),
    pytest.param([(Line(ago=-CHAT_AGE), "keep")], id="exactly CHAT_AGE ahead is kept"),
    pytest.param([(Line(ago=-CHAT_AGE - 0.001), "drop")], id="further ahead than CHAT_AGE is dropped"),
    pytest.param([(Line(ago=CHAT_AGE + 1), "drop"), (Line(), "keep")],
                 id="a stale line is dropped unchecked, and a line of the same id and another time is another"),
    pytest.param([(Line(ago=CHAT_AGE + 1, signer=1), "drop")], id="a stale line is dropped before its signature"),
    pytest.param(flood(0, CHAT_RATE), id="CHAT_RATE lines at once are kept"),
    pytest.param([*flood(0, CHAT_RATE), (Line(id=1, now=CHAT_WINDOW - 0.001), "drop")],
                 id="one more within the window is dropped"),
    pytest.param([*flood(0, CHAT_RATE), (Line(id=1, now=CHAT_WINDOW), "keep")],
                 id="one more once the window has passed is kept"),
    pytest.param([*flood(0, CHAT_RATE), (Line(id=1, now=5.0), "drop"), (Line(id=2, now=CHAT_WINDOW), "keep")],
                 id="a line dropped for the budget does not extend it"),
    pytest.param([*[(Line(id=100 + i, now=float(i)), "keep") for i in range(CHAT_RATE)],
                  (Line(id=1, now=CHAT_WINDOW), "keep"),
                  (Line(id=2, now=CHAT_WINDOW + 0.5), "drop"),
                  (Line(id=3, now=CHAT_WINDOW + 1), "keep")],
                 id="the window slides line by line"),
    pytest.param([*flood(0, CHAT_RATE), *flood(1, CHAT_RATE, first_id=150), (Line(seat=1, id=1), "drop")],
                 id="each seat has its own budget"),
    pytest.param([(Line(id=1, ago=CHAT_AGE + 1), "drop"), *flood(0, CHAT_RATE)],
                 id="a stale line costs its seat nothing of its budget"),
    pytest.param([(Line(id=100), "keep"), (Line(id=100), "drop"), *flood(0, CHAT_RATE - 1, first_id=101)],
                 id="a repeat costs its seat nothing of its budget"),
    pytest.param([(Line(seat=1, signer=0, id=100), "bad-chat"), *flood(1, CHAT_RATE, first_id=100)],
                 id="a forged line costs the seat nothing and is not remembered"),
    pytest.param([*flood(0, CHAT_RATE), (Line(id=1, signer=1, now=1.0), "drop"), (Line(id=1, now=CHAT_WINDOW), "keep")],
                 id="over its seat's budget a line is dropped before its signature, and not remembered"),
]


def test_repeats_stale_lines_and_a_seat_over_its_budget_cost_no_signature_check(monkeypatch):
    """wire.md §4.9 budgets: one line sent again and again (245,900 times in the issue, each verified
    before it was found a repeat), and a seated player's flood of lines signed beforehand, cost one
    signature check per line taken, not one per line received."""
    import carcnet.net.chat as chat_module

    checks = []
    verify = chat_module.verify_chat
    monkeypatch.setattr(chat_module, "verify_chat", lambda *a: checks.append(a[1:3]) or verify(*a))
    room = ChatRoom()
    line = Line().chat()
    for _ in range(1000):  # a stranger resends a captured line
        room.take(line, KEYS, GAME, 0.0, WALL)
    stale = Line(id=2, ago=CHAT_AGE + 1).chat()
    for _ in range(1000):
        room.take(stale, KEYS, GAME, 0.0, WALL)
    own = [_signed(1, 100 + i, int(WALL * 1000), f"spam {i}") for i in range(1000)]  # the seated player's own
    verdicts = [room.take(chat, KEYS, GAME, 1.0, WALL) for chat in own]
    assert verdicts.count("keep") == CHAT_RATE and verdicts.count("drop") == 1000 - CHAT_RATE
    assert len(checks) == 1 + CHAT_RATE


@pytest.mark.parametrize("lines", TAKE)
def test_take(lines):
    room = ChatRoom()
    verdicts = [room.take(line.chat(), KEYS, GAME, line.now, WALL) for line, _ in lines]
    assert verdicts == [verdict for _, verdict in lines]
    kept = [line for line, verdict in lines if verdict == "keep"]
    assert [(x.seat, x.text, x.time, x.mine) for x in room.lines] == [
        (line.seat, line.text, int((WALL - line.ago) * 1000) / 1000, False) for line in kept
    ]
    assert room.made == len(kept)


#: (text, what the line keeps or None for ValueError)
WRITE = [
    pytest.param("good luck!", "good luck!", id="a line"),
    pytest.param("x" * MAX_CHAT, "x" * MAX_CHAT, id="MAX_CHAT characters"),
    pytest.param("x" * (MAX_CHAT + 1), None, id="one character too many"),
    pytest.param("", None, id="nothing"),
    pytest.param("   ", None, id="only white space"),
    pytest.param("bell\x07", None, id="a control character"),
    pytest.param("right\u202eto left", None, id="an invisible formatting character"),
    pytest.param("\u3164\u3164", None, id="Hangul fillers (letters that look blank)"),
    pytest.param("\u2800 \u2800", None, id="Braille blanks"),
    pytest.param("gg \u2764\ufe0f", "gg \u2764\ufe0f", id="an emoji with its variation selector"),
]


@pytest.mark.parametrize(("text", "kept"), WRITE)
def test_write(text, kept):
    room = ChatRoom()
    if kept is None:
        with pytest.raises(ValueError):
            room.write(seat_key(1), GAME, 1, text, WALL + 0.0019)
        assert not room.lines and room.made == 0
        return
    message, line = room.write(seat_key(1), GAME, 1, text, WALL + 0.0019)
    assert (message.seat, message.text, message.time) == (1, kept, int(WALL * 1000) + 1)  # milliseconds, cut
    assert verify_chat(KEYS[1], GAME, 1, message.id, message.time, message.text, message.sig)
    assert (line.seat, line.text, line.time, line.mine) == (1, kept, message.time / 1000, True)
    assert list(room.lines) == [line] and room.made == 1
    # the line coming back through a relay is a repeat, not a second line
    assert room.take(message, KEYS, GAME, 0.0, WALL) == "drop"
    assert list(room.lines) == [line]


def test_each_line_written_has_a_new_id_and_costs_no_budget():
    room = ChatRoom()
    ids = {room.write(seat_key(0), GAME, 0, f"line {i}", WALL)[0].id for i in range(CHAT_RATE + 3)}
    assert len(ids) == CHAT_RATE + 3 and room.made == CHAT_RATE + 3
    verdicts = [room.take(line.chat(), KEYS, GAME, 0.0, WALL) for line, _ in flood(0, CHAT_RATE)]
    assert verdicts == ["keep"] * CHAT_RATE


#: (lines kept, how many the room holds, the first text it holds)
KEEP = [
    pytest.param(MAX_CHATS, MAX_CHATS, "line 0", id="MAX_CHATS lines are all held"),
    pytest.param(MAX_CHATS + 1, MAX_CHATS, "line 1", id="one more pushes the oldest out"),
]


@pytest.mark.parametrize(("count", "held", "first"), KEEP)
def test_the_room_holds_the_last_max_chats_lines(count, held, first):
    room = ChatRoom()
    for i in range(count):  # one line per window: no budget in the way
        line = Line(id=i, text=f"line {i}", now=i * CHAT_WINDOW)
        assert room.take(line.chat(), KEYS, GAME, line.now, WALL) == "keep"
    assert len(room.lines) == held and room.lines[0].text == first and room.made == count


def _signed(seat: int, number: int, time_ms: int, text: str = "more") -> Chat:
    chat_id = number.to_bytes(8, "big")
    return Chat(seat=seat, id=chat_id, time=time_ms, text=text,
                sig=sign_chat(seat_key(seat), GAME, seat, chat_id, time_ms, text))


#: (the seat whose distinct lines arrive after seat 0's first line, how many, how many seconds after
#: WALL they are dated)
SEEN = [
    pytest.param(0, CHAT_SEEN - 1, 1.0, id="its seat's CHAT_SEEN - 1 newer lines"),
    pytest.param(0, CHAT_SEEN, CHAT_AGE / 2, id="its seat's CHAT_SEEN future-dated lines push it out"),
    pytest.param(0, CHAT_SEEN * 2, 1.0, id="its seat's 2 CHAT_SEEN newer lines push it out"),
    pytest.param(0, CHAT_SEEN, -CHAT_AGE - 1, id="its seat's CHAT_SEEN stale lines"),
    pytest.param(1, CHAT_SEEN * 2, CHAT_AGE / 2, id="another seat's 2 CHAT_SEEN future-dated lines"),
]


@pytest.mark.parametrize(("seat", "count", "ahead"), SEEN)
def test_a_line_passed_on_is_never_new_again(seat: int, count: int, ahead: float):
    """wire.md §4.9: each seat's latest CHAT_SEEN lines are remembered, and a line no later than one
    forgotten counts as seen, so no number of newer lines, even future-dated ones, makes a line
    passed on new again; another seat's lines push out nothing of this seat's. A line later than
    every one forgotten is still new."""
    room = ChatRoom()
    first = Line(seat=0, id=0)
    assert room.take(first.chat(), KEYS, GAME, 0.0, WALL) == "keep"
    time_ms = int((WALL + ahead) * 1000)
    for i in range(count):  # one line per window: no budget in the way
        assert room.take(_signed(seat, 1000 + i, time_ms + i), KEYS, GAME, (i + 1) * CHAT_WINDOW, WALL) != "bad-chat"
    later = (count + 1) * CHAT_WINDOW
    assert room.take(first.chat(), KEYS, GAME, later, WALL) == "drop"
    newer = _signed(0, 7, max(time_ms + count, int(WALL * 1000)) + 1, "news")
    assert room.take(newer, KEYS, GAME, later + CHAT_WINDOW, WALL) == "keep"


def test_seen_lines_keep_the_latest_by_time_and_the_time_of_the_latest_forgotten():
    seen = SeenLines()
    for i in range(CHAT_SEEN):
        seen.add(bytes([1]) + i.to_bytes(7, "big"), 5_000 - i)  # arriving latest first
    assert len(seen) == CHAT_SEEN and seen.floor == -1
    seen.add(b"\x02" * 8, 9_000)
    assert len(seen) == CHAT_SEEN and seen.floor == 5_000 - CHAT_SEEN + 1  # the earliest went
    assert seen.seen(b"\x03" * 8, 5_000 - CHAT_SEEN + 1) and not seen.seen(b"\x03" * 8, 5_000 - CHAT_SEEN + 2)
    assert seen.seen(b"\x02" * 8, 9_000)


@dataclasses.dataclass(frozen=True)
class Said:
    """A ``spectator-chat`` as a test sends it (wire.md §4.9a): the spectator's name (its key is made
    from it), the line's id (one byte, repeated), the name whose key signs it (its own by default),
    the receiver's monotonic clock when it arrives, and how many seconds before :data:`WALL` it was
    written."""

    name: str = "Eve"
    id: int = 1
    signer: str | None = None
    now: float = 0.0
    ago: float = 0.0
    text: str = "nice road"

    def chat(self) -> SpectatorChat:
        time_ms = int((WALL - self.ago) * 1000)
        chat_id = bytes([self.id]) * 8
        signer = identity(self.signer or self.name)
        sig = sign_spectator_chat(signer, GAME, self.name, chat_id, time_ms, self.text)
        return SpectatorChat(key=identity(self.name).public, name=self.name, id=chat_id, time=time_ms,
                             text=self.text, sig=sig)


def chorus(count: int, now: float = 0.0, first_id: int = 100) -> list[tuple[Said, str]]:
    """*count* spectators' first lines at *now*, each from a key of its own, each expected kept."""
    return [(Said(name=f"Watcher {i}", id=first_id + i, now=now), "keep") for i in range(count)]


#: (the spectators' lines in the order they arrive, each with the verdict expected)
TAKE_SPECTATORS = [
    pytest.param([(Said(), "keep")], id="a spectator's line signed by the key it names is kept"),
    pytest.param([(Said(signer="Mallory"), "bad-chat")], id="signed by another key"),
    pytest.param([(Said(), "keep"), (Said(), "drop")], id="the same key and id again is dropped"),
    pytest.param([(Said(), "keep"), (Said(name="Cleo"), "keep")],
                 id="the same id from another key is another line"),
    pytest.param([(Said(ago=CHAT_AGE + 1), "drop")], id="a stale line is dropped"),
    pytest.param([*[(Said(id=100 + i), "keep") for i in range(CHAT_RATE)], (Said(id=1), "drop")],
                 id="each key has a seat's budget"),
    pytest.param([*[(Said(id=100 + i), "keep") for i in range(CHAT_RATE)],
                  (Said(id=1, now=CHAT_WINDOW), "keep")],
                 id="a key's window passes as a seat's"),
    pytest.param([*chorus(SPECTATORS_RATE), (Said(name="Zoe"), "drop")],
                 id="every spectator together has SPECTATORS_RATE lines a window: keys cost nothing"),
    pytest.param([*chorus(SPECTATORS_RATE), (Said(name="Zoe", signer="Mallory"), "drop")],
                 id="over the spectators' budget a line is dropped before its signature"),
    pytest.param([*chorus(SPECTATORS_RATE), (Said(name="Zoe", now=CHAT_WINDOW), "keep")],
                 id="the spectators' window passes"),
    pytest.param([(Said(signer="Mallory"), "bad-chat"), *chorus(SPECTATORS_RATE)],
                 id="a forged line costs the spectators nothing of their budget"),
]


@pytest.mark.parametrize("lines", TAKE_SPECTATORS)
def test_take_spectators(lines):
    room = ChatRoom()
    verdicts = [room.take(line.chat(), KEYS, GAME, line.now, WALL) for line, _ in lines]
    assert verdicts == [verdict for _, verdict in lines]
    kept = [line for line, verdict in lines if verdict == "keep"]
    assert [(x.seat, x.spectator, x.text, x.mine) for x in room.lines] == [
        (None, line.name, line.text, False) for line in kept]


def test_the_spectators_budget_leaves_the_players_theirs():
    """A flood of spectators, each under a key of its own, uses up the spectators' budget, never a
    seat's: the players still speak."""
    room = ChatRoom()
    crowd = [room.take(said.chat(), KEYS, GAME, 0.0, WALL) for said, _ in chorus(SPECTATORS_RATE + 5)]
    assert crowd.count("keep") == SPECTATORS_RATE
    players = [room.take(line.chat(), KEYS, GAME, 0.0, WALL) for line, _ in flood(0, CHAT_RATE)]
    assert players == ["keep"] * CHAT_RATE


def test_a_spectator_s_line_written_is_signed_by_its_identity_key_and_not_taken_again():
    room = ChatRoom()
    eve = identity("Eve")
    message, line = room.write_spectator(eve, GAME, "Eve", "nice road", WALL)
    assert (message.key, message.name, message.text) == (eve.public, "Eve", "nice road")
    assert verify_spectator_chat(eve.public, GAME, "Eve", message.id, message.time, message.text, message.sig)
    assert (line.seat, line.spectator, line.mine) == (None, "Eve", True)
    assert room.take(message, KEYS, GAME, 0.0, WALL) == "drop"  # back through a relay: a repeat
    with pytest.raises(ValueError):
        room.write_spectator(eve, GAME, "Eve", "bell\x07", WALL)
