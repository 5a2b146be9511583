"""The table talk of one peer, as tables of cases (protocol/wire.md §4.9): a line is checked under its
seat's key before anything else (``bad-chat``), then dropped silently when seen already, more than
CHAT_AGE seconds off this peer's clock, or over its seat's budget of CHAT_RATE lines in CHAT_WINDOW
seconds; else kept. Values in, values out: clocks are numbers passed to the room, no session."""

from __future__ import annotations

import dataclasses

import pytest

from carcnet.net.chat import CHAT_AGE, CHAT_RATE, CHAT_SEEN, CHAT_WINDOW, MAX_CHATS, ChatRoom
from carcnet.net.messages import MAX_CHAT, Chat
from carcnet.net.signing import sign_chat, verify_chat

from .loopback import GAME, seat_key

#: This peer's wall clock (seconds since 1970) in every case; the monotonic clock is each line's ``now``.
WALL = 1_800_000_000.0
#: The seat keys of a two-seat table.
KEYS = (seat_key(0).public, seat_key(1).public)


def test_the_budgets_are_those_of_the_spec():
    budgets = (CHAT_RATE, CHAT_WINDOW, CHAT_AGE, CHAT_SEEN, MAX_CHATS, MAX_CHAT)
    assert budgets == (5, 10.0, 600.0, 512, 200, 200)


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
    pytest.param([(Line(), "keep"), (Line(seat=0, signer=1), "bad-chat")],
                 id="a forged copy of a line seen is refused, not dropped: the signature comes first"),
    pytest.param([(Line(ago=CHAT_AGE), "keep")], id="exactly CHAT_AGE old is kept"),
    pytest.param([(Line(ago=CHAT_AGE + 0.001), "drop")], id="older than CHAT_AGE is a replay"),
    pytest.param([(Line(ago=-CHAT_AGE), "keep")], id="exactly CHAT_AGE ahead is kept"),
    pytest.param([(Line(ago=-CHAT_AGE - 0.001), "drop")], id="further ahead than CHAT_AGE is dropped"),
    pytest.param([(Line(ago=CHAT_AGE + 1), "drop"), (Line(), "drop")],
                 id="a stale line is remembered as seen"),
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
]


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


#: (distinct lines of seat 1 seen after seat 0's first line, the verdict on that first line again)
SEEN = [
    pytest.param(CHAT_SEEN - 1, "drop", id="a line among the last CHAT_SEEN seen is a repeat"),
    pytest.param(CHAT_SEEN, "keep", id="a line seen before the last CHAT_SEEN is taken again"),
]


@pytest.mark.parametrize(("others", "again"), SEEN)
def test_the_room_remembers_the_last_chat_seen_lines(others, again):
    room = ChatRoom()
    first = Line(seat=0, id=0)
    assert room.take(first.chat(), KEYS, GAME, 0.0, WALL) == "keep"
    key = seat_key(1)
    for i in range(others):  # stale lines: remembered as seen, not kept, no budget spent
        chat_id, time_ms = i.to_bytes(8, "big"), int((WALL - CHAT_AGE - 1) * 1000)
        sig = sign_chat(key, GAME, 1, chat_id, time_ms, "old")
        chat = Chat(seat=1, id=chat_id, time=time_ms, text="old", sig=sig)
        assert room.take(chat, KEYS, GAME, 0.0, WALL) == "drop"
    assert room.take(first.chat(), KEYS, GAME, CHAT_WINDOW, WALL) == again
