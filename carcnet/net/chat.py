"""Provides :class:`ChatRoom`: the table talk of one peer, without I/O (``protocol/wire.md`` §4.9).

Values in, values out: :meth:`ChatRoom.write` makes this peer's signed ``chat`` message and the line
it keeps; :meth:`ChatRoom.take` judges a ``chat`` that arrived and says what to do with it
(:data:`ChatVerdict`). The room keeps the last :data:`MAX_CHATS` lines for the interface and what
it needs for its budgets (the ids seen, each seat's recent times); the session sends what it is told
to send. Chat is never part of the game's log.
"""

from __future__ import annotations

import secrets
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from carcnet.log.values import name_problem

from .messages import CHAT_ID_SIZE, MAX_CHAT, Chat
from .signing import SeatKey, sign_chat, verify_chat

__all__ = ["CHAT_AGE", "CHAT_RATE", "CHAT_SEEN", "CHAT_WINDOW", "MAX_CHATS", "ChatLine", "ChatRoom", "ChatVerdict"]

#: wire.md §4.9 budgets: chat lines kept (for the interface), lines remembered to pass each on once,
#: lines taken per seat in :data:`CHAT_WINDOW` seconds (more are dropped, not passed on), and how far
#: off this peer's clock a line's time may be (an older one is a replay: dropped).
MAX_CHATS = 200
CHAT_SEEN = 512
CHAT_RATE = 5
CHAT_WINDOW = 10.0
CHAT_AGE = 600.0

#: What to do with a ``chat`` that arrived (:meth:`ChatRoom.take`): ``"keep"`` it (shown, and passed
#: on to every other link), ``"drop"`` it silently (seen already, too old or too far ahead, or its
#: seat over its budget), or refuse it ``"bad-chat"`` (not signed by its seat's key: closes).
ChatVerdict = Literal["keep", "drop", "bad-chat"]


@dataclass(frozen=True, slots=True)
class ChatLine:
    """A line of table talk, checked (wire.md §4.9).

    Attributes:
        seat: The seat that spoke (its name is the header's).
        text: What it said.
        time: When it was written, by the writer's clock (seconds since 1970-01-01 UTC).
        mine: Whether this peer wrote it.
    """

    seat: int
    text: str
    time: float
    mine: bool = False


class ChatRoom:
    """One peer's table talk: the lines kept and the budgets of wire.md §4.9.

    Attributes:
        lines: The last :data:`MAX_CHATS` lines, oldest first.
        made: How many lines were ever kept (:attr:`lines` holds the last :data:`MAX_CHATS`).
    """

    def __init__(self) -> None:
        self.lines: deque[ChatLine] = deque(maxlen=MAX_CHATS)
        self.made = 0
        self._seen: deque[tuple[int, bytes]] = deque(maxlen=CHAT_SEEN)
        self._times: dict[int, deque[float]] = {}

    def write(self, key: SeatKey, game: str, seat: int, text: str, wall_now: float) -> tuple[Chat, ChatLine]:
        """This peer's line *text* as *seat* (whose key is *key*) at *wall_now* (seconds since
        1970-01-01 UTC): the signed message to send to every link, and the line kept.

        Raises:
            ValueError: *text* is not 1 to :data:`MAX_CHAT` characters under the rule of names.
        """
        problem = name_problem(text, MAX_CHAT)
        if problem is not None:
            raise ValueError(f"a chat line {problem}")
        chat_id = secrets.token_bytes(CHAT_ID_SIZE)
        time_ms = int(wall_now * 1000)
        message = Chat(seat=seat, id=chat_id, time=time_ms, text=text,
                       sig=sign_chat(key, game, seat, chat_id, time_ms, text))
        self._seen.append((seat, chat_id))
        line = ChatLine(seat, text, time_ms / 1000, mine=True)
        self._keep(line)
        return message, line

    def take(self, chat: Chat, keys: Sequence[bytes], game: str, now: float, wall_now: float) -> ChatVerdict:
        """Judges *chat* from a peer (its writer or a relay) at a table whose seat keys are *keys*:
        checked under its seat's key first, then dropped if seen already, more than
        :data:`CHAT_AGE` seconds off *wall_now*, or over its seat's budget (:data:`CHAT_RATE` lines
        in :data:`CHAT_WINDOW` seconds of *now*, this peer's monotonic clock); else kept."""
        seat = chat.seat
        if seat >= len(keys) or not verify_chat(keys[seat], game, seat, chat.id, chat.time, chat.text, chat.sig):
            return "bad-chat"
        if (seat, chat.id) in self._seen:
            return "drop"
        self._seen.append((seat, chat.id))
        if abs(chat.time / 1000 - wall_now) > CHAT_AGE:
            return "drop"
        times = self._times.setdefault(seat, deque(maxlen=CHAT_RATE))
        if len(times) == CHAT_RATE and now - times[0] < CHAT_WINDOW:
            return "drop"
        times.append(now)
        self._keep(ChatLine(seat, chat.text, chat.time / 1000))
        return "keep"

    def _keep(self, line: ChatLine) -> None:
        self.lines.append(line)
        self.made += 1
