"""Provides :class:`ChatRoom`: the table talk of one peer, without I/O (``protocol/wire.md`` §4.9,
§4.9a).

Values in, values out: :meth:`ChatRoom.write` makes this peer's signed ``chat`` message (a seat's
player's) and the line it keeps, :meth:`ChatRoom.write_spectator` a spectator's ``spectator-chat``;
:meth:`ChatRoom.take` judges either that arrived and says what to do with it (:data:`ChatVerdict`).
The room keeps the last :data:`MAX_CHATS` lines for the interface and what
it needs for its budgets (the ids seen, each seat's recent times); the session sends what it is told
to send. Chat is never part of the game's log.
"""

from __future__ import annotations

import heapq
import secrets
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

from carcnet.i18n import ngettext
from carcnet.log.values import name_problem

from .messages import CHAT_ID_SIZE, MAX_CHAT, Chat, SpectatorChat
from .signing import SeatKey, sign_chat, sign_spectator_chat, verify_chat, verify_spectator_chat

__all__ = ["CHAT_AGE", "CHAT_RATE", "CHAT_SEEN", "CHAT_TYPES", "CHAT_WINDOW", "MAX_CHATS", "SPECTATORS_RATE",
           "ChatLine", "ChatMessage", "ChatRoom", "ChatVerdict", "SeenLines", "unsigned_words"]

#: wire.md §4.9 budgets: chat lines kept (for the interface), lines of each seat remembered to pass
#: each on once (:class:`SeenLines`), lines taken per seat in :data:`CHAT_WINDOW` seconds (more are
#: dropped, not passed on), and how far off this peer's clock a line's time may be (an older one is a
#: replay: dropped).
MAX_CHATS = 200
CHAT_SEEN = 512
CHAT_RATE = 5
CHAT_WINDOW = 10.0
CHAT_AGE = 600.0
#: wire.md §4.9a: the lines of every spectator together taken in :data:`CHAT_WINDOW` seconds, at most
#: (each spectator's key has :data:`CHAT_RATE` of them besides): a key costs nothing to make, so a
#: budget per key alone would bound nothing.
SPECTATORS_RATE = 10

#: What to do with a ``chat`` that arrived (:meth:`ChatRoom.take`): ``"keep"`` it (shown, and passed
#: on to every other link), ``"drop"`` it silently (seen already, too old or too far ahead, or its
#: seat over its budget), or refuse it ``"bad-chat"`` (not signed by its seat's key: closes).
ChatVerdict = Literal["keep", "drop", "bad-chat"]
#: A line of table talk on the wire: a seat's player's (``chat``, wire.md §4.9) or a spectator's
#: (``spectator-chat``, §4.9a); :data:`CHAT_TYPES` are their classes.
ChatMessage: TypeAlias = Chat | SpectatorChat
CHAT_TYPES: tuple[type[Chat], type[SpectatorChat]] = (Chat, SpectatorChat)


def unsigned_words(chat: ChatMessage) -> str:
    """What the connection log says of *chat* refused ``bad-chat``: whose line it claimed to be."""
    if isinstance(chat, Chat):
        return f"a chat line for seat {chat.seat} not signed by the seat's key"
    return f"a spectator's chat line not signed by the key it names ({chat.key.hex()[:16]}…)"


@dataclass(frozen=True, slots=True)
class ChatLine:
    """A line of table talk, checked (wire.md §4.9).

    Attributes:
        seat: The seat that spoke (its name is the header's), or ``None`` for a spectator.
        text: What it said.
        time: When it was written, by the writer's clock (seconds since 1970-01-01 UTC).
        mine: Whether this peer wrote it.
        spectator: The name of the spectator that spoke (a ``spectator-chat``, wire.md §4.9a), or
            ``None`` for a seat's line.
    """

    seat: int | None
    text: str
    time: float
    mine: bool = False
    spectator: str | None = None


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
    """One peer's table talk: the lines kept and the budgets of wire.md §4.9 and §4.9a.

    The lines of each seat are remembered apart (:class:`SeenLines`), and those of every spectator
    together, each named by its key and id; a seat's budget is counted by seat, a spectator's by key,
    and every spectator's together (:data:`SPECTATORS_RATE`).

    Attributes:
        lines: The last :data:`MAX_CHATS` lines, oldest first.
        made: How many lines were ever kept (:attr:`lines` holds the last :data:`MAX_CHATS`).
    """

    def __init__(self) -> None:
        self.lines: deque[ChatLine] = deque(maxlen=MAX_CHATS)
        self.made = 0
        self._seen: dict[int | None, SeenLines] = {}  # by seat; None: every spectator's lines
        self._times: dict[int | bytes, deque[float]] = {}  # by seat, or by a spectator's key
        self._spectators: deque[float] = deque(maxlen=SPECTATORS_RATE)

    def write(self, key: SeatKey, game: str, seat: int, text: str, wall_now: float) -> tuple[Chat, ChatLine]:
        """This peer's line *text* as *seat* (whose key is *key*) at *wall_now* (seconds since
        1970-01-01 UTC): the signed message to send to every link, and the line kept.

        Raises:
            ValueError: *text* is not 1 to :data:`MAX_CHAT` characters under the rule of names.
        """
        chat_id, time_ms = self._new_line(text, wall_now)
        message = Chat(seat=seat, id=chat_id, time=time_ms, text=text,
                       sig=sign_chat(key, game, seat, chat_id, time_ms, text))
        self._seen.setdefault(seat, SeenLines()).add(chat_id, time_ms)
        line = ChatLine(seat, text, time_ms / 1000, mine=True)
        self._keep(line)
        return message, line

    def write_spectator(self, identity: SeatKey, game: str, name: str, text: str,
                        wall_now: float) -> tuple[SpectatorChat, ChatLine]:
        """This spectator's line *text* under its identity key *identity* and *name* at *wall_now*
        (wire.md §4.9a): the signed message to send to every link, and the line kept.

        Raises:
            ValueError: *text* is not 1 to :data:`MAX_CHAT` characters under the rule of names.
        """
        chat_id, time_ms = self._new_line(text, wall_now)
        message = SpectatorChat(key=identity.public, name=name, id=chat_id, time=time_ms, text=text,
                                sig=sign_spectator_chat(identity, game, name, chat_id, time_ms, text))
        self._seen.setdefault(None, SeenLines()).add(identity.public + chat_id, time_ms)
        line = ChatLine(None, text, time_ms / 1000, mine=True, spectator=name)
        self._keep(line)
        return message, line

    def take(self, chat: ChatMessage, keys: Sequence[bytes], game: str, now: float,
             wall_now: float) -> ChatVerdict:
        """Judges *chat* from a peer (its writer or a relay) at a table whose seat keys are *keys*
        (wire.md §4.9, §4.9a): dropped if seen already (:class:`SeenLines`), more than :data:`CHAT_AGE`
        seconds off *wall_now*, or over its speaker's budget (:data:`CHAT_RATE` lines in
        :data:`CHAT_WINDOW` seconds of *now*, this peer's monotonic clock, per seat or spectator's key;
        :data:`SPECTATORS_RATE` for every spectator together), all before its signature is checked,
        so that a line sent again and again, or a flood of lines signed beforehand, costs no signature
        check; then ``bad-chat`` unless signed by its seat's key (a seat the game does not have
        included), or a spectator's by the key it names; else kept, and counted against its budgets."""
        if isinstance(chat, SpectatorChat):
            speaker: int | bytes = chat.key
            room: int | None = None  # every spectator's lines are remembered together
            line_id = chat.key + chat.id
        elif chat.seat < len(keys):
            speaker = room = chat.seat
            line_id = chat.id
        else:
            return "bad-chat"
        seen = self._seen.setdefault(room, SeenLines())
        if seen.seen(line_id, chat.time) or abs(chat.time / 1000 - wall_now) > CHAT_AGE:
            return "drop"
        if self._over_budget(speaker, now):
            return "drop"
        line = _checked(chat, keys, game)
        if line is None:
            return "bad-chat"
        seen.add(line_id, chat.time)
        self._times.setdefault(speaker, deque(maxlen=CHAT_RATE)).append(now)
        if room is None:
            self._spectators.append(now)
        self._keep(line)
        return "keep"

    def _over_budget(self, speaker: int | bytes, now: float) -> bool:
        """Whether *speaker* (a seat, or a spectator's key) has had :data:`CHAT_RATE` lines taken in the
        last :data:`CHAT_WINDOW` seconds, or, for a spectator, every spectator together
        :data:`SPECTATORS_RATE`. The times of spectators' keys quiet for a window are forgotten first,
        so that no more keys are held than lines were taken in a window."""
        if isinstance(speaker, bytes):
            quiet = [k for k, times in self._times.items()
                     if isinstance(k, bytes) and now - times[-1] >= CHAT_WINDOW]
            for key in quiet:
                del self._times[key]
            everyone = self._spectators
            if len(everyone) == SPECTATORS_RATE and now - everyone[0] < CHAT_WINDOW:
                return True
        times = self._times.get(speaker)
        return times is not None and len(times) == CHAT_RATE and now - times[0] < CHAT_WINDOW

    @staticmethod
    def _new_line(text: str, wall_now: float) -> tuple[bytes, int]:
        """A new line's id and time (milliseconds) at *wall_now*.

        Raises:
            ValueError: *text* is not 1 to :data:`MAX_CHAT` characters under the rule of names.
        """
        problem = name_problem(text, MAX_CHAT)
        if problem is not None:
            # Translators: {limit} is the most characters a line may have.
            raise ValueError(ngettext(
                "a chat line must be 1 to {limit} character without control characters or invisible formatting characters",
                "a chat line must be 1 to {limit} characters without control characters or invisible formatting characters",
                MAX_CHAT).format(limit=MAX_CHAT))
        return secrets.token_bytes(CHAT_ID_SIZE), int(wall_now * 1000)

    def _keep(self, line: ChatLine) -> None:
        self.lines.append(line)
        self.made += 1


def _checked(chat: ChatMessage, keys: Sequence[bytes], game: str) -> ChatLine | None:
    """The line *chat* says if it is signed by its seat's key in *keys*, or a spectator's by the key it
    names; else ``None``."""
    if isinstance(chat, SpectatorChat):
        if not verify_spectator_chat(chat.key, game, chat.name, chat.id, chat.time, chat.text, chat.sig):
            return None
        return ChatLine(None, chat.text, chat.time / 1000, spectator=chat.name)
    if not verify_chat(keys[chat.seat], game, chat.seat, chat.id, chat.time, chat.text, chat.sig):
        return None
    return ChatLine(chat.seat, chat.text, chat.time / 1000)
