"""Provides :class:`Table`: a game at this laptop as the interface and the command line hold it,
whether every seat is here (:class:`~carcnet.table.local.LocalTable`) or the seats are spread over the
peers of a network (:class:`~carcnet.table.lan.NetTable`).

A table is read through :attr:`Table.game` and the seat queries, changed only through
:meth:`Table.submit` (a person's move) and, at a network table, :meth:`Table.hand_over` and
:meth:`Table.start`; whoever shows it learns of changes through :meth:`Table.add_listener`. The bots of
the seats played here move by themselves while the table runs (``async with table:``), paced by
``bot_delay`` so that people can follow. Nothing here touches textual.
"""

from __future__ import annotations

import hashlib
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple, Self

from carcnet.bots import LEVELS
from carcnet.engine import Game, Move
from carcnet.i18n import _

if TYPE_CHECKING:
    from carcnet.log import Recovery, Seat
    from carcnet.net.replica import Desync

__all__ = ["Change", "Kind", "Status", "Table", "TableError", "TalkLine", "bot_seed", "think_cap_of"]

log = logging.getLogger("carcnet.table")

#: What this laptop is at the table: every seat here (``local``), the peer that opened a network
#: table (``host``), a peer that sat down at one (``player``), or one that watches (``spectator``).
Kind = Literal["local", "host", "player", "spectator"]
#: Where the game is: finding its table, seats being taken, being played, over, or stopped for good
#: (a network desync, or a local log that can no longer be written).
Status = Literal["connecting", "lobby", "playing", "finished", "stopped"]
#: What changed, as told to listeners: ``"entry"`` (a move was made, here or elsewhere),
#: ``"header"`` (a network game started), ``"lobby"``, ``"open"`` / ``"close"`` / ``"peer"``
#: (connections), ``"stop"``, ``"note"`` (a line for people), ``"running"`` / ``"ended"`` (the table
#: was entered or left).
Change = str


class TalkLine(NamedTuple):
    """A line of table talk (protocol/wire.md §4.9, §4.9a), as :meth:`Table.chats` gives it.

    Attributes:
        seat: The seat whose player said it (its name is the seat's), or ``None`` for a spectator.
        text: What was said, plain text.
        mine: Whether this laptop said it.
        spectator: The name of the spectator that said it, or ``None`` for a seat's player.
    """

    seat: int | None
    text: str
    mine: bool
    spectator: str | None = None


class TableError(Exception):
    """The table cannot do what was asked: not a seat a person plays here, not its turn, no game yet,
    the game over or stopped. The text says why; nothing changed."""


def think_cap_of(table: Table, seat: int) -> float | None:
    """The seconds the search bot at *seat* of *table* thinks at most per turn on this laptop: the
    table's ``think_cap``, or when it names none the bot's level's own (``Level.cap``); ``None`` when
    the seat is not a search bot's."""
    if table.think_cap is not None:
        return table.think_cap
    level = LEVELS.get(table.seats[seat].bot or "") if seat < len(table.seats) else None
    return level.cap if level is not None else None


def bot_seed(setup_digest: bytes, seat: int) -> int:
    """A bot's seed: from the game's setup digest and its seat, so the same setup plays the same."""
    return int.from_bytes(hashlib.sha256(setup_digest + f"carcnet/bot {seat}".encode()).digest()[:8], "big")


class Table(ABC):
    """A game at this laptop: its moves, its seats and who plays them, and what happens to it.

    Lifecycle: built by a subclass's constructors; ``async with table:`` runs it (bots play; a network
    table connects, advertises and replicates) until the block is left or :meth:`close` is called.

    Attributes:
        kind: What this laptop is at the table (:data:`Kind`).
        bot_delay: Seconds this laptop's bots wait before each turn, so people can follow (0: none).
        notes: Lines for people, in their words (a player connected, the game was saved to …),
            newest last, at most 200; each new one is a change ``"note"`` to the listeners. What a
            line means in the protocol's terms goes to the program's log and :attr:`details` (at a
            network table, its connection log).
        failure: Why this table cannot go on here (refused by the network, the log cannot be
            written), or ``None``.
        recovery: What opening a saved game did with a damaged last record, if anything.
        running: Whether the table is inside ``async with`` now.
        thinking: The seat whose search bot is thinking here now (off the event loop), and since
            when (``time.monotonic()``); ``None`` otherwise. Each change is a change ``"thinking"``.
        think_cap: Seconds a search bot of this laptop may think per turn (the interface's cap), or
            ``None``: each bot's level's own (``Level.cap``: 2 s, the expert 3 s).
        ponder: Whether the search bots of this laptop think on the others' turns (pondering,
            ``docs/bots.md``), read each time the game changes.
    """

    #: The default cap on a search bot's think time (the settings' default, see
    #: ``carcnet.tui.settings.THINK_CAPS``): each level's own.
    THINK_CAP: float | None = None

    def __init__(self, kind: Kind, *, bot_delay: float = 0.0) -> None:
        self.kind: Kind = kind
        self.bot_delay = bot_delay
        self.notes: list[str] = []
        #: How many notes were ever made (``notes`` keeps the last 200): new ones since a count *n* are
        #: ``notes[len(notes) - (notes_made - n):]``.
        self.notes_made = 0
        self.failure: str | None = None
        self.recovery: Recovery | None = None
        self.running = False
        self.thinking: tuple[int, float] | None = None
        self.think_cap: float | None = self.THINK_CAP
        self.ponder = True
        self._listeners: list[Callable[[Change], None]] = []
        #: Who this table is in the program's log records (a network table: the peer's name).
        self.log_name: str = kind
        #: Where the protocol's account of a line told to people goes besides the program's log, as
        #: ``details(line, account)``: a network table's connection log; nowhere more at a local table.
        self.details: Callable[[str, str], None] = lambda _line, _account: None

    # ------------------------------------------------------------------ reading

    @property
    @abstractmethod
    def game(self) -> Game | None:
        """The game after every move held here; ``None`` until a network game has started. Read only."""

    @property
    @abstractmethod
    def seats(self) -> tuple[Seat, ...]:
        """The game's seats in seat order (empty until a network game has started)."""

    @property
    def names(self) -> list[str]:
        """The seats' names, in seat order."""
        return [s.name for s in self.seats]

    @property
    def colours(self) -> list[str]:
        """The seats' colours, in seat order."""
        return [s.colour for s in self.seats]

    @property
    def bot_seats(self) -> set[int]:
        """The seats the game's header gives to a bot (wherever that bot runs)."""
        return {i for i, s in enumerate(self.seats) if s.player == "bot"}

    @property
    @abstractmethod
    def path(self) -> Path | None:
        """The game's log on disk, once there is one."""

    @property
    @abstractmethod
    def status(self) -> Status:
        """Where the game is (:data:`Status`)."""

    @property
    @abstractmethod
    def to_play(self) -> int | None:
        """The seat to move, or ``None`` when nobody is (no game yet, over, stopped)."""

    @property
    @abstractmethod
    def my_seats(self) -> list[int]:
        """The seats played at this laptop (by its people and its bots), ascending."""

    @property
    @abstractmethod
    def human_seats(self) -> list[int]:
        """The seats played by a person at this laptop, ascending."""

    @property
    def spectating(self) -> bool:
        """Whether this laptop only watches (it plays no seat)."""
        return self.kind == "spectator" or (self.game is not None and not self.my_seats)

    @property
    def desync(self) -> Desync | None:
        """Why a network game stopped (a report naming the move, seat and peers), else ``None``."""
        return None

    def my_turn(self) -> bool:
        """Whether a person at this laptop is to move now."""
        seat = self.to_play
        return seat is not None and seat in self.human_seats and self.running

    def away(self) -> list[int]:
        """The seats whose player is not reachable from here now (never a seat played here)."""
        return []

    def draw_waits_for(self) -> list[int]:
        """While the table draws (``Phase.DRAW``, protocol/deck.md §5), the seats whose value the draw
        still lacks; empty otherwise (a local table never waits for one)."""
        return []

    def draws_known_to(self) -> str | None:
        """Who can compute the draws before they are made, when that is one laptop: the name of the
        only peer still contributing to them (protocol/wire.md §5.7), else ``None``."""
        return None

    @property
    def cut_off(self) -> bool:
        """Whether this laptop has lost the rest of the table (a network table: no other seated peer
        is connected to it); it then gives no seat away."""
        return False

    def seat_to_hand_over(self) -> int | None:
        """The seat to move if its player is away and this laptop may give it to a bot, else ``None``."""
        seat = self.to_play
        if seat is None or self.spectating or seat in self.my_seats or seat not in self.away():
            return None
        return seat

    # ------------------------------------------------------------------ acting

    @abstractmethod
    def submit(self, move: Move) -> None:
        """Plays *move* for the seat to move, which a person at this laptop plays.

        Raises:
            TableError: Not a seat a person plays here, no game yet, or the game is over or stopped.
            IllegalMoveError: The engine refuses the move; nothing changed.
            OSError, LogError: A local table could not record it; the game is as before.
        """

    def hand_over(self, seat: int, bot: str = "greedy") -> str | None:
        """Gives *seat*, whose player is gone for good, to *bot*, run at this laptop from now on
        (``None``), or at the laptop of the player whose name it returns (a network table's taker).

        Raises:
            TableError: This table has nobody to hand over to (a local table: every seat is here).
        """
        raise TableError(_("every seat of this game is played here"))

    def seat_clock(self, seat: int) -> str | None:
        """What the turn clock shows for *seat* (``0:42+5:00`` while its turn runs, else its bank
        ``+5:00``), or ``None`` at a table without a clock (protocol/wire.md §5.8)."""
        return None

    @property
    def can_chat(self) -> bool:
        """Whether a person here can talk to the others at this table (a network table's player or
        spectator, once the game has started)."""
        return False

    def chats(self) -> list[TalkLine]:
        """The table talk so far (protocol/wire.md §4.9, §4.9a), the last 200 lines, oldest first; a
        ``"chat"`` change says a line came. Empty at a local table."""
        return []

    @property
    def chats_made(self) -> int:
        """How many lines of table talk there ever were here (:meth:`chats` keeps the last 200)."""
        return 0

    def say(self, text: str) -> None:
        """Says *text* to the others at the table, as this laptop's (first) seat, or a spectator as
        itself.

        Raises:
            TableError: Nobody to talk to (a local table, no game yet).
            ValueError: *text* is empty, too long (200 characters) or holds control characters.
        """
        raise TableError(_("everyone at this table is at this terminal"))

    # ------------------------------------------------------------------ listening

    def add_listener(self, listener: Callable[[Change], None]) -> None:
        """Calls *listener(change)* after every change (:data:`Change`), in the running loop."""
        self._listeners.append(listener)

    def remove_listener(self, listener: Callable[[Change], None]) -> None:
        """Stops calling *listener* (nothing happens if it was not added)."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _changed(self, change: Change) -> None:
        for listener in list(self._listeners):
            try:
                listener(change)
            except Exception:  # a listener must not break the table (nor the network code under it)
                log.exception("a listener failed to take the change %r", change)

    def _note(self, text: str, detail: str | None = None) -> None:
        """Tells the table's people *text* (a line in their words: no protocol terms) and keeps
        *detail*, if any (the same in the protocol's terms: codes, seqs, sections of wire.md), in the
        program's log and :attr:`details`, never for the people."""
        if detail is None:
            log.info("%s: %s", self.log_name, text)
        else:
            log.info("%s: %s [%s]", self.log_name, text, detail)
            self.details(text, detail)
        self.notes.append(text)
        del self.notes[:-200]
        self.notes_made += 1
        self._changed("note")

    def _thinking(self, seat: int | None) -> None:
        """A search bot of this laptop started thinking for *seat* (``None``: it is done): sets
        :attr:`thinking` and tells the listeners (``"thinking"``)."""
        self.thinking = None if seat is None else (seat, time.monotonic())
        self._changed("thinking")

    # ------------------------------------------------------------------ running

    @abstractmethod
    async def __aenter__(self) -> Self:
        """Starts the table: its bots play; a network table connects."""

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    @abstractmethod
    def close(self, reason: str = "quit") -> None:
        """Leaves the table now (a network table says ``bye``); :meth:`aclose` waits for the rest."""

    @abstractmethod
    async def aclose(self, reason: str = "quit") -> None:
        """:meth:`close`, then waits until every task has ended and the log is closed."""
