"""Provides :class:`BotDriver`: plays the seats this laptop's bots hold, whenever it is their turn.

One driver serves both kinds of table. A local table gives it the game whose log it writes, a network
table its :class:`~carcnet.net.sync.SyncSession`; each says where a bot's move goes (*submit*: the
log, or the session that signs and sends it) and wakes the driver (:meth:`BotDriver.wake`) when the
game changes. The network layer knows nothing of bots: it only carries the moves they make.

At each turn of a seat it holds a bot for, the driver waits ``delay`` seconds once, before the tile is
placed (so that people can follow the game), then asks the bot. A search bot
(:func:`carcnet.bots.is_slow`) thinks in a worker thread on a detached view of the game, so that the
event loop (the interface, the connections) runs meanwhile, with the table's cap on its think time;
if the game moved on while it thought (a handover, a handback, a stop), its move is dropped and the
driver looks again. A bot that fails loses its seat here (logged), and the others play on.

While the seat before a search bot's plays (a person, another laptop), the bot thinks ahead in a
worker thread (pondering: :meth:`carcnet.bots.SearchBot.ponder`) on a detached view of the game, if
the table lets it (*ponder*); each time the game changes that pondering is stopped (within one
playout) and begun again from the new position, and it is stopped before any bot of this driver
thinks or plays. What it found is the bot's own; a failure there is logged and costs nothing else.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Protocol

from carcnet.bots import Bot, is_slow, level_cap, set_time_cap
from carcnet.engine import Game, Move, Phase

__all__ = ["BotDriver", "Turns"]

log = logging.getLogger("carcnet.table")


class Turns(Protocol):
    """What a :class:`BotDriver` reads of the game it plays in (a
    :class:`~carcnet.net.sync.SyncSession` is one as it is)."""

    @property
    def to_play(self) -> int | None:
        """The seat to move; ``None`` when nobody is (no game yet, over, stopped, the table draws)."""
        ...

    @property
    def game(self) -> Game | None:
        """The game as held now (read only); ``None`` before it has started."""
        ...

    @property
    def have(self) -> int:
        """How many moves (log entries) are held: it grows whenever the game moves on."""
        ...

    def plays(self, seat: int) -> bool:
        """Whether this laptop makes *seat*'s moves now (a seat handed over elsewhere: no)."""
        ...


class BotDriver:
    """Plays the seats it holds bots for, whenever it is their turn and this laptop plays them.

    Lifecycle: build it, then run :meth:`run` as a task; it plays until that task is cancelled (the
    table's ``close``). :meth:`set_bot` and :meth:`wake` may be called at any time, from the event
    loop's thread.

    Args:
        turns: The game to watch (:class:`Turns`).
        submit: Makes a bot's move for the seat to play (``submit(move)``): records it, or signs and
            sends it. May raise: an exception of *stop_on* stops the driver; any other loses the bot
            its seat.
        bots: Seat → the bot that plays it here.
        delay: Seconds a bot waits once per turn, before its placement (0: none).
        think_cap: Gives the seconds a search bot may think per turn, read as each search starts;
            what it gives may be ``None``: the bot's level's own cap (``Level.cap``). ``None`` here:
            no cap, the bot's own budget alone.
        on_thinking: Called with the seat whose search bot starts thinking, then with ``None`` when it
            is done.
        stop_on: Exceptions after which the driver stops for good (a local log that cannot be
            written: the game is paused and can be resumed).
        name: Who this laptop is in the log records.
        ponder: Whether the search bots may think on the others' turns, read each time the game
            changes (``None``: never).
        ready: Whether this laptop may make its seats' moves by itself now, read at each look
            (``None``: always; a laptop back from its save waits to be in step with the table,
            :class:`~carcnet.table.rejoin.Rejoin`).
    """

    def __init__(
        self,
        turns: Turns,
        submit: Callable[[Move], object],
        *,
        bots: Mapping[int, Bot] | None = None,
        delay: float = 0.0,
        think_cap: Callable[[], float | None] | None = None,
        on_thinking: Callable[[int | None], None] | None = None,
        stop_on: tuple[type[Exception], ...] = (),
        name: str = "bots",
        ponder: Callable[[], bool] | None = None,
        ready: Callable[[], bool] | None = None,
    ) -> None:
        self._turns = turns
        self._ready = ready
        self._submit = submit
        self._bots: dict[int, Bot] = dict(bots or {})
        self.delay = delay
        self._think_cap = think_cap
        self._on_thinking = on_thinking
        self._stop_on = stop_on
        self._name = name
        self._ponder = ponder
        #: The pondering under way: its thread's future, the signal that stops it, the move count
        #: and seat it ponders for.
        self._pondering: tuple[asyncio.Future[int], threading.Event, int, int] | None = None
        #: Positions pondered to the end (kept for the bots' next turns), for the status and tests.
        self.pondered = 0
        self._turn = asyncio.Event()
        self._turn.set()  # look once when started: it may be a bot's turn already

    @property
    def bots(self) -> Mapping[int, Bot]:
        """Seat → bot, for the seats this driver plays (read only: change it with :meth:`set_bot`)."""
        return MappingProxyType(self._bots)

    @property
    def pondering(self) -> asyncio.Future[int] | None:
        """The pondering under way (the future of its thread: how many positions it searched to the
        end), ``None`` when none is; for the status and tests."""
        return None if self._pondering is None else self._pondering[0]

    def set_bot(self, seat: int, bot: Bot | None) -> None:
        """Lets *bot* play *seat* from now on (``None``: nobody here plays it automatically)."""
        if bot is None:
            self._bots.pop(seat, None)
        else:
            self._bots[seat] = bot
        self._turn.set()

    def wake(self) -> None:
        """The game changed (a move, the start, a stop): look whether a bot is to move."""
        self._turn.set()

    async def run(self) -> None:
        """Plays the bots' moves whenever one of them is to move; returns only after an exception of
        *stop_on* (cancel the task to stop it otherwise)."""
        try:
            await self._run()
        finally:
            if self._pondering is not None:  # the thread ends within one playout
                self._pondering[1].set()
                self._pondering = None

    async def _run(self) -> None:
        turns = self._turns
        paused_at = -1  # the move count at which a bot last paused (once per turn, before placing)
        while True:
            await self._turn.wait()
            self._turn.clear()
            while (seat := turns.to_play) is not None and seat in self._bots and self._plays(seat):
                await self._stop_pondering()  # the bot thinks alone, and finds what it pondered
                game = turns.game
                assert game is not None
                if self.delay > 0 and game.phase is Phase.PLACE_TILE and paused_at != turns.have:
                    paused_at = turns.have
                    await asyncio.sleep(self.delay)  # pacing for people watching, not synchronisation
                    continue  # look again: the game may have moved on (a handover, a stop)
                try:
                    have = turns.have
                    move = await self._choose(seat, self._bots[seat], game)
                    if turns.have != have or turns.to_play != seat:
                        continue  # the game moved on while the bot thought: look again
                    self._submit(move)
                except self._stop_on:
                    return  # the table said why; the game waits here and can be resumed
                except Exception:  # a broken bot loses its seat here, not the table
                    log.exception("%s: the bot of seat %d failed; it stops playing", self._name, seat)
                    self._bots.pop(seat, None)
                await asyncio.sleep(0)  # let the interface and the connections run between two moves
            await self._ponder_ahead()

    def _plays(self, seat: int) -> bool:
        """Whether this laptop makes *seat*'s moves now: it plays the seat, and it is ready."""
        return self._turns.plays(seat) and (self._ready is None or self._ready())

    async def _ponder_ahead(self) -> None:
        """Lets the search bot of the seat after the one to play think ahead (see the module
        docstring), unless it already does for this very position; stops any other pondering."""
        turns = self._turns
        seat, game = turns.to_play, turns.game
        pondering = self._pondering
        if pondering is not None and not pondering[0].done() and pondering[2] == turns.have and pondering[3] == seat:
            return  # nothing changed: let it go on
        await self._stop_pondering()
        if seat is None or game is None or self._ponder is None or not self._ponder():
            return
        after = (seat + 1) % game.players
        bot = self._bots.get(after)
        ponder = getattr(bot, "ponder", None)
        if ponder is None or not self._plays(after) or (seat in self._bots and self._plays(seat)):
            return
        view = game.view().detached()
        stop = threading.Event()
        future = asyncio.ensure_future(asyncio.to_thread(ponder, view, after, stop.is_set))
        future.add_done_callback(self._pondered)
        self._pondering = (future, stop, turns.have, seat)

    def _pondered(self, future: asyncio.Future[int]) -> None:
        if future.cancelled():
            return
        error = future.exception()
        if error is not None:
            log.error("%s: a bot's pondering failed (it plays on without): %r", self._name, error)
        else:
            self.pondered += future.result()

    async def _stop_pondering(self) -> None:
        """Stops the pondering under way, if any, and waits for its thread (at most one playout)."""
        pondering, self._pondering = self._pondering, None
        if pondering is not None:
            pondering[1].set()
            await asyncio.wait([pondering[0]])

    async def _choose(self, seat: int, bot: Bot, game: Game) -> Move:
        """*bot*'s move for *seat* in *game*: at once for a one-ply bot; for a search bot in a worker
        thread, on a detached view (the live game may change or be read meanwhile), with its cap on
        think time applied and *on_thinking* told when it starts and ends."""
        view = game.view()
        if not is_slow(bot):
            return bot.choose(view)
        asked = time.perf_counter()  # the cap counts from here, however late the worker thread starts
        detached = view.detached()
        cap = None
        if self._think_cap is not None:  # the table's cap, or the bot's level's own when it names none
            cap = self._think_cap()
            cap = level_cap(bot) if cap is None else cap
        set_time_cap(bot, cap, started=asked)
        if self._on_thinking is not None:
            self._on_thinking(seat)
        try:
            return await asyncio.to_thread(bot.choose, detached)
        finally:
            if self._on_thinking is not None:
                self._on_thinking(None)
