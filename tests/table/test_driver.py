"""The bot driver of both tables (carcnet.table.driver): which seats it plays, its pause once per
turn, a search bot's move dropped when the game moved on while it thought, a failing bot losing its
seat, and the stop a local table asks for. Against a game held in memory (no table, no sockets);
nothing sleeps to synchronise: the tests wait on the driver looking at the game."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from carcnet.bots import Bot, GreedyBot, RandomBot, SearchBot
from carcnet.bots.search_bot import Level
from carcnet.engine import Game, Move, Phase, PlaceTile, PlayerView
from carcnet.log import COLOURS, LogHeader, Seat
from carcnet.table.driver import BotDriver

#: Longest wait for anything in these tests.
LIMIT = 20.0


class Turns:
    """A game this laptop plays some seats of, as the driver reads it, with the table's ``submit``
    (applies the move, then wakes the driver as a table's change listener does). Records every read
    of :attr:`to_play`, which is how the tests see what the driver looked at."""

    def __init__(self, players: int = 2, *, plays: Iterable[int] = (0, 1), limit: int | None = None) -> None:
        seats = [Seat(f"Seat{i}", COLOURS[i], "bot", "random") for i in range(players)]
        self._game = Game(LogHeader.new(seats, seed=2024, created=0).setup())
        self.playable = set(plays)
        self.limit = limit  # after this many moves nobody is to move (the game is cut short)
        self.stopped = False
        self.made: list[tuple[int, Move]] = []
        self.fail: Exception | None = None  # what the next submit raises, if anything
        self.driver: BotDriver | None = None
        self.looked = asyncio.Event()
        self.looked_at = -1  # len(made) when to_play was last read
        self.answer: int | None = None  # what to_play said then

    @property
    def to_play(self) -> int | None:
        cut_short = self.limit is not None and self.have >= self.limit
        seat = None if self.stopped or self._game.phase is Phase.GAME_OVER or cut_short else self._game.seat
        self.looked_at, self.answer = len(self.made), seat
        self.looked.set()
        return seat

    @property
    def game(self) -> Game:
        return self._game

    @property
    def have(self) -> int:
        return len(self._game.moves)

    def plays(self, seat: int) -> bool:
        return seat in self.playable

    def submit(self, move: Move) -> None:
        if self.fail is not None:
            raise self.fail
        seat = self._game.seat
        self._game.apply(move)
        self.made.append((seat, move))
        self.wake()

    def move_on(self, move: Move) -> None:
        """A move made elsewhere (a person here, another peer)."""
        self._game.apply(move)
        self.wake()

    def wake(self) -> None:
        assert self.driver is not None
        self.driver.wake()

    def idle(self) -> bool:
        """Whether the driver looked at the game since its last move and found nothing to play: then it
        makes no move until the game changes."""
        driver, seat = self.driver, self.answer
        assert driver is not None
        nothing = seat is None or seat not in driver.bots or not self.plays(seat)
        return self.looked_at == len(self.made) and nothing

    async def until(self, predicate: Callable[[], bool]) -> None:
        """Returns once *predicate()* holds, checked each time the driver looks at the game."""
        async with asyncio.timeout(LIMIT):
            while not predicate():
                self.looked.clear()
                await self.looked.wait()


def driver_for(turns: Turns, bots: dict[int, Bot], **kw: Any) -> BotDriver:
    turns.driver = BotDriver(turns, turns.submit, bots=bots, **kw)
    return turns.driver


async def running(driver: BotDriver) -> asyncio.Task[None]:
    return asyncio.create_task(driver.run())


async def stop(task: asyncio.Task[None]) -> None:
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


# ---------------------------------------------------------------------- which seats it plays


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("bots", "plays", "limit", "made_by", "waits_for"),
    [
        ({0, 1}, {0, 1}, 12, {0, 1}, None),  # every seat a bot's here: it plays until nobody is to move
        ({0}, {0, 1}, None, {0}, 1),  # a person's seat: it plays seat 0's turn, then waits for seat 1
        ({0, 1}, {1}, None, set(), 0),  # seat 0 handed over elsewhere: not this laptop's to play
        ({1}, {0, 1}, None, set(), 0),  # seat 0 is a person's: nothing to play
        (set(), {0, 1}, None, set(), 0),  # no bots here
    ],
)
async def test_the_driver_plays_only_the_seats_it_holds_bots_for_and_this_laptop_plays(
    bots, plays, limit, made_by, waits_for
):
    turns = Turns(plays=plays, limit=limit)
    assert turns.game.seat == 0
    driver = driver_for(turns, {seat: RandomBot(seat) for seat in bots})
    task = await running(driver)
    await turns.until(turns.idle)
    assert {seat for seat, _ in turns.made} == made_by
    assert turns.to_play == waits_for
    if limit is not None:
        assert len(turns.made) == limit
    assert turns.game.moves == [move for _, move in turns.made]
    await stop(task)


@pytest.mark.asyncio
async def test_set_bot_gives_a_seat_to_the_driver_and_takes_it_back():
    turns = Turns()
    driver = driver_for(turns, {0: RandomBot(0)})
    task = await running(driver)
    await turns.until(turns.idle)
    assert turns.answer == 1 and {seat for seat, _ in turns.made} == {0}
    driver.set_bot(1, RandomBot(1))  # a handover to this laptop's bot: it plays at once
    await turns.until(lambda: 1 in {seat for seat, _ in turns.made})
    driver.set_bot(0, None)  # a seat given back to its person: the driver leaves it alone
    await turns.until(turns.idle)
    assert turns.answer == 0 and dict(driver.bots).keys() == {1}
    await stop(task)


# ---------------------------------------------------------------------- pacing


@pytest.mark.asyncio
@pytest.mark.parametrize("woken_while_pausing", [False, True])
@pytest.mark.parametrize(("bots", "plays"), [({0, 1}, {0, 1}), ({0}, {0, 1})])
async def test_a_bot_pauses_once_per_turn_before_its_placement(monkeypatch, bots, plays, woken_while_pausing):
    """The pause is per turn: waking the driver during it (a heartbeat's change, a chat line) does not
    make a second one; nor does a deploy or a seat this laptop does not play."""
    turns = Turns(plays=plays, limit=12)
    driver = driver_for(turns, {seat: RandomBot(seat) for seat in bots}, delay=0.5)
    pauses: list[tuple[int, int, Phase]] = []
    real_sleep = asyncio.sleep

    async def sleep(delay: float) -> None:  # the pause, without waiting for it
        if delay > 0:
            pauses.append((turns.have, turns.game.seat, turns.game.phase))
            if woken_while_pausing:
                driver.wake()
        await real_sleep(0)

    monkeypatch.setattr(asyncio, "sleep", sleep)
    task = await running(driver)
    await turns.until(turns.idle)
    placements = [i for i, (_, move) in enumerate(turns.made) if isinstance(move, PlaceTile)]
    assert placements and pauses == [(i, turns.made[i][0], Phase.PLACE_TILE) for i in placements]
    await stop(task)


# ---------------------------------------------------------------------- search bots


class SlowBot:
    """A search bot stand-in: ``slow``, capped by ``time_cap``; its first choice waits until the test
    releases it (it is thinking meanwhile, in its worker thread), then every choice is a random bot's."""

    slow = True
    name = "slow"

    def __init__(self, seed: int) -> None:
        self.time_cap: float | None = None
        self.started: float | None = None
        self.caps: list[float | None] = []
        self.release = threading.Event()
        self.returned: list[Move] = []
        self.threads: list[str] = []
        self._inner = RandomBot(seed)

    def choose(self, view: PlayerView) -> Move:
        self.caps.append(self.time_cap)
        self.threads.append(threading.current_thread().name)
        if not self.returned:
            assert self.release.wait(LIMIT), "the test never released the bot"
        move = self._inner.choose(view)
        self.returned.append(move)
        return move


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("meanwhile", "submitted", "calls"),
    [
        (None, [0, 1], 2),  # the game waited for it: its placement is made, then its deploy
        ("move", [1], 2),  # a move was made meanwhile (its placement, elsewhere): dropped, asked again
        ("stop", [], 1),  # the game stopped meanwhile: dropped, nothing made
    ],
)
async def test_a_search_bot_thinks_off_the_loop_and_its_move_is_dropped_if_the_game_moved_on(
    meanwhile, submitted, calls
):
    turns = Turns(plays={0, 1})
    bot = SlowBot(7)
    seen: list[int | None] = []
    started = asyncio.Event()

    def on_thinking(seat: int | None) -> None:
        seen.append(seat)
        started.set()

    driver = driver_for(turns, {0: bot}, think_cap=lambda: 2.5, on_thinking=on_thinking)
    task = await running(driver)
    await asyncio.wait_for(started.wait(), LIMIT)
    assert seen == [0] and bot.caps == [2.5]
    if meanwhile == "move":
        turns.move_on(RandomBot(99).choose(turns.game.view()))  # the placement, made elsewhere
    elif meanwhile == "stop":
        turns.stopped = True
        turns.wake()
    bot.release.set()
    await turns.until(lambda: turns.idle() and seen[-1] is None)
    assert len(bot.returned) == calls and seen == [0, None] * calls
    assert turns.made == [(0, bot.returned[i]) for i in submitted]
    assert bot.caps == [2.5] * calls
    assert all(name != threading.current_thread().name for name in bot.threads)  # off the event loop
    await stop(task)


@pytest.mark.asyncio
@pytest.mark.parametrize(("table_cap", "expected"), [(2.5, 2.5), (None, 3.0)])
async def test_a_table_without_a_cap_of_its_own_gives_each_level_its_own(table_cap, expected):
    """The settings' default ("each level's own"): the table names no cap and the bot's level's
    ``cap`` applies (the expert's 3 s); a cap the table names applies to every level."""
    turns = Turns(plays={0, 1})
    bot = SlowBot(7)
    bot.level = Level("expert", 1200, 12, 3, cap=3.0)  # type: ignore[attr-defined]
    bot.release.set()
    driver = driver_for(turns, {0: bot}, think_cap=lambda: table_cap)
    task = await running(driver)
    await turns.until(lambda: len(bot.returned) >= 1)
    assert bot.caps[0] == expected
    await stop(task)


# ---------------------------------------------------------------------- failures


class BrokenBot:
    name = "broken"

    def choose(self, view: PlayerView) -> Move:
        raise RuntimeError("the bot is broken")


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("broken", "error", "stop_on", "left", "ends"),
    [
        ("bot", None, (), {1}, False),  # the bot raised: it loses its seat, the others play on
        ("submit", ValueError("refused"), (), {1}, False),  # its move was refused: the same
        ("submit", OSError("disk full"), (OSError,), {0, 1}, True),  # the log cannot be written: stop
    ],
)
async def test_a_failing_bot_loses_its_seat_and_a_stop_error_ends_the_driver(
    caplog, broken, error, stop_on, left, ends
):
    turns = Turns(plays={0, 1})
    bots: dict[int, Bot] = {0: BrokenBot() if broken == "bot" else RandomBot(0), 1: RandomBot(1)}
    turns.fail = error
    driver = driver_for(turns, bots, stop_on=stop_on, name="Ann")
    task = await running(driver)
    with caplog.at_level(logging.ERROR, logger="carcnet.table"):
        if ends:
            await asyncio.wait_for(task, LIMIT)  # run() returned: the game waits and can be resumed
        else:
            await turns.until(turns.idle)
    assert turns.made == [] and turns.answer == 0 and dict(driver.bots).keys() == left
    failed = [r for r in caplog.records if "the bot of seat 0 failed; it stops playing" in r.getMessage()]
    assert [r.getMessage().split(":")[0] for r in failed] == ([] if ends else ["Ann"])
    if not ends:
        await stop(task)


# ---------------------------------------------------------------------- pondering


def _greedy_turn(game: Game) -> list[Move]:
    """The turn the search bot's model of its opponents ranks first (what pondering looks at first)."""
    from carcnet.bots.ponder import predicted_turns

    return predicted_turns(game.view(), GreedyBot(0), 1)[0]


@pytest.mark.asyncio
@pytest.mark.parametrize("ponder", [True, False])
async def test_a_search_bot_ponders_while_the_seat_before_plays_and_answers_from_it(ponder):
    """Seat 0 is a person here, seat 1 an easy search bot. While the person thinks, the bot thinks
    ahead (if the table lets it); the person plays the turn it expected, and the bot's answer is the
    one it found then, the same move it makes without pondering (the same seed, the same game)."""
    turns = Turns(plays={0, 1})
    bot = SearchBot(5, "easy")
    driver = driver_for(turns, {1: bot}, ponder=lambda: ponder)
    task = await running(driver)
    await turns.until(turns.idle)
    pondering = driver.pondering
    if ponder:
        assert pondering is not None
        assert await asyncio.wait_for(pondering, LIMIT) > 0  # the positions it searched to the end
    else:
        assert pondering is None
    fresh_view = None
    for move in _greedy_turn(turns.game):
        turns.move_on(move)  # the person's placement, then the follow-up
    fresh_view = turns.game.view()
    expected = SearchBot(5, "easy").choose(fresh_view)
    await turns.until(lambda: len(turns.made) >= 1)
    assert turns.made[0] == (1, expected)
    assert bot.stats.pondered is ponder
    await stop(task)


@pytest.mark.asyncio
async def test_pondering_stops_when_the_game_moves_on_and_begins_again_from_there():
    turns = Turns(plays={0, 1})
    driver = driver_for(turns, {1: SearchBot(5, "hard")}, ponder=lambda: True)
    task = await running(driver)
    await turns.until(turns.idle)
    first = driver.pondering
    assert first is not None and not first.done()  # hard: about a second per position, 60 positions
    place, _follow = _greedy_turn(turns.game)
    turns.move_on(place)
    await asyncio.wait_for(first, LIMIT)  # stopped within one playout (it had a minute's work left)
    turns.wake()  # the driver looks again once it has begun anew
    await turns.until(lambda: driver.pondering not in (None, first))
    second = driver.pondering
    assert second is not None and not second.done()
    await stop(task)
    assert driver.pondering is None  # the driver's end stops it too
    await asyncio.wait_for(second, LIMIT)


class FailingPonder(SearchBot):
    def ponder(self, view, seat, stop=lambda: False):  # type: ignore[no-untyped-def]
        raise RuntimeError("pondering broke")


@pytest.mark.asyncio
async def test_a_failing_pondering_is_logged_and_the_bot_plays_on(caplog):
    turns = Turns(plays={0, 1})
    driver = driver_for(turns, {1: FailingPonder(5, "easy")}, ponder=lambda: True)
    task = await running(driver)
    await turns.until(turns.idle)
    pondering = driver.pondering
    assert pondering is not None
    with caplog.at_level(logging.ERROR, logger="carcnet.table"):
        with pytest.raises(RuntimeError):
            await asyncio.wait_for(pondering, LIMIT)
        await asyncio.sleep(0)  # the done callback runs on the next pass of the loop, not a wait for time
    assert "pondering failed" in caplog.text
    for move in _greedy_turn(turns.game):
        turns.move_on(move)
    await turns.until(lambda: len(turns.made) >= 1)
    assert turns.made[0][0] == 1
    await stop(task)
