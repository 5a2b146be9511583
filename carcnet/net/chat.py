"""Provides :class:`ChatRoom`: the table talk of one peer, without I/O (``protocol/wire.md`` §4.9).

Values in, values out: :meth:`ChatRoom.write` makes this peer's signed ``chat`` message and the line
it keeps; :meth:`ChatRoom.take` judges a ``chat`` that arrived and says what to do with it
(:data:`ChatVerdict`). The room keeps the last :data:`MAX_CHATS` lines for the interface and what
it needs for its budgets (the ids seen, each seat's recent times); the session sends what it is told
to send. Chat is never part of the game's log.
"""

from __future__ import annotations

import heapq
import secrets
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from carcnet.log.values import name_problem

from .messages import CHAT_ID_SIZE, MAX_CHAT, Chat
from .signing import SeatKey, sign_chat, verify_chat

__all__ = ["CHAT_AGE", "CHAT_RATE", "CHAT_SEEN", "CHAT_WINDOW", "MAX_CHATS", "ChatLine", "ChatRoom", "ChatVerdict",
           "SeenLines"]

#: wire.md §4.9 budgets: chat lines kept (for the interface), lines of each seat remembered to pass
#: each on once (:class:`SeenLines`), lines taken per seat in :data:`CHAT_WINDOW` seconds (more are
#: dropped, not passed on), and how far off this peer's clock a line's time may be (an older one is a
#: replay: dropped).
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


class SeenLines:
    """The lines of one seat a peer has seen, remembered so that it passes each on once (wire.md §4.9).

    It keeps the :data:`CHAT_SEEN` lines with the latest ``time`` and the ``time`` of the latest line
    it forgot (:attr:`floor`): a line no later than that may be one it forgot, so it counts as seen.
    Newer lines, even future-dated ones, cannot push a line out and make it new again; and the lines
    of one seat push out only that seat's.

    Attributes:
        floor: The latest ``time`` (milliseconds) of a line forgotten; -1 before any.
    """

    __slots__ = ("_by_time", "_ids", "floor")

    def __init__(self) -> None:
        self._ids: set[bytes] = set()
        self._by_time: list[tuple[int, bytes]] = []  # a heap: the earliest time first
        self.floor = -1

    def __len__(self) -> int:
        return len(self._ids)

    def seen(self, chat_id: bytes, time_ms: int) -> bool:
        """Whether the line *chat_id* of *time_ms* (milliseconds since 1970) counts as seen."""
        return time_ms <= self.floor or chat_id in self._ids

    def add(self, chat_id: bytes, time_ms: int) -> None:
        """Remembers a line not :meth:`seen`; past :data:`CHAT_SEEN`, forgets the earliest."""
        heapq.heappush(self._by_time, (time_ms, chat_id))
        self._ids.add(chat_id)
        if len(self._by_time) > CHAT_SEEN:
            earliest, forgotten = heapq.heappop(self._by_time)
            self._ids.discard(forgotten)
            self.floor = max(self.floor, earliest)


class ChatRoom:
    """One peer's table talk: the lines kept and the budgets of wire.md §4.9.

    Attributes:
        lines: The last :data:`MAX_CHATS` lines, oldest first.
        made: How many lines were ever kept (:attr:`lines` holds the last :data:`MAX_CHATS`).
    """

    def __init__(self) -> None:
        self.lines: deque[ChatLine] = deque(maxlen=MAX_CHATS)
        self.made = 0
        self._seen: dict[int, SeenLines] = {}
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
        self._seen.setdefault(seat, SeenLines()).add(chat_id, time_ms)
        line = ChatLine(seat, text, time_ms / 1000, mine=True)
        self._keep(line)
        return message, line

    def take(self, chat: Chat, keys: Sequence[bytes], game: str, now: float, wall_now: float) -> ChatVerdict:
        """Judges *chat* from a peer (its writer or a relay) at a table whose seat keys are *keys*
        (wire.md §4.9): dropped if seen already (:class:`SeenLines`), more than :data:`CHAT_AGE`
        seconds off *wall_now*, or over its seat's budget (:data:`CHAT_RATE` lines in
        :data:`CHAT_WINDOW` seconds of *now*, this peer's monotonic clock), all before its signature is
        checked, so that a line sent again and again, or a seat's flood of lines signed beforehand,
        costs no signature check; then ``bad-chat`` unless signed by its seat's key (a seat the game
        does not have included); else kept, and counted against its seat's budget."""
        seat = chat.seat
        if seat >= len(keys):
            return "bad-chat"
        seen = self._seen.setdefault(seat, SeenLines())
        if seen.seen(chat.id, chat.time) or abs(chat.time / 1000 - wall_now) > CHAT_AGE:
            return "drop"
        times = self._times.setdefault(seat, deque(maxlen=CHAT_RATE))
        if len(times) == CHAT_RATE and now - times[0] < CHAT_WINDOW:
            return "drop"
        if not verify_chat(keys[seat], game, seat, chat.id, chat.time, chat.text, chat.sig):
            return "bad-chat"
        seen.add(chat.id, chat.time)
        times.append(now)
        self._keep(ChatLine(seat, chat.text, chat.time / 1000))
        return "keep"

    def _keep(self, line: ChatLine) -> None:
        self.lines.append(line)
        self.made += 1
