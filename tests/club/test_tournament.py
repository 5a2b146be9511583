"""Tournaments on loopback (issue 34, protocol/tournament.md §6): several laptops (event runners in one
process, each with its own service, tables and folder) run an event of bots; every laptop computes
the rounds and the standings itself from the charter and the logs it checked.

Nothing here sleeps to synchronise: the runners' own loops run to the end, bounded by
``asyncio.wait_for``."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path
from typing import Any

import pytest

from carcnet.club.event import Charter, draw_round
from carcnet.club.pairing import lots
from carcnet.club.ratings import Ratings
from carcnet.club.results import check_log, result_name
from carcnet.club.runner import CHARTER_FILE, EventRunner
from carcnet.log import load
from carcnet.net.signing import SeatKey

from ..net.loopback import FAST

pytestmark = pytest.mark.asyncio

LIMIT = 120.0
#: A laptop is gone after 10 s unheard: the tests run side by side, two a core, and a loop kept busy
#: by another test's bots can answer nothing for seconds; with 3 s, laptops that were there were
#: passed over, two games of a table were played side by side, and a busy room could count them
#: differently (protocol/tournament.md §6.7).
LOOP = {"listen": ("127.0.0.1", 0), "table_host": "127.0.0.1", "timing": FAST, "poll": 0.2, "gone": 10.0,
        "linger": 4.0}

BOTS = {
    "Ann": [("Ann greedy", "greedy"), ("Ann random", "random"), ("Ann greedy 2", "greedy")],
    "Bob": [("Bob greedy", "greedy"), ("Bob random", "random"), ("Bob greedy 2", "greedy")],
    "Cleo": [("Cleo greedy", "greedy"), ("Cleo random", "random")],
}


def key(name: str) -> SeatKey:
    return SeatKey.from_seed(hashlib.sha256(f"carcnet test laptop {name}".encode()).digest())


class Room:
    """The laptops of one event: Ann opens it, Bob and Cleo join; each keeps its lines of progress."""

    def __init__(self, tmp: Path, *, rounds: int = 2, size: int = 4, bot_delay: float = 0.0,
                 event: str | None = None) -> None:
        self.tmp = tmp
        self.lines: dict[str, list[str]] = {n: [] for n in BOTS}
        self.opener = EventRunner.open(key("Ann"), event_name="Loopback night", rounds=rounds, size=size,
                                       data_dir=tmp / "Ann", name="Ann", players=BOTS["Ann"], event=event,
                                       note=self.lines["Ann"].append, bot_delay=bot_delay, **LOOP)
        self.bot_delay = bot_delay
        self.runners: dict[str, EventRunner] = {"Ann": self.opener}
        self.tasks: dict[str, asyncio.Task[Any]] = {}

    async def start(self) -> None:
        self.tasks["Ann"] = asyncio.create_task(self.opener.run(start_when=8))
        await asyncio.wait_for(_until(lambda: self.opener.port is not None), LIMIT)
        for name in ("Bob", "Cleo"):
            self.add(name, dial=[("127.0.0.1", self.opener.port)])  # type: ignore[list-item]

    def add(self, name: str, runner: EventRunner | None = None, **options: Any) -> EventRunner:
        runner = runner or EventRunner(key(name), name=name, folder=self.tmp / name, by_event=True,
                                       players=BOTS[name], note=self.lines[name].append,
                                       bot_delay=self.bot_delay, **{**LOOP, **options})
        self.runners[name] = runner
        self.tasks[name] = asyncio.create_task(runner.run())
        return runner

    async def finish(self, *names: str) -> dict[str, Any]:
        tasks = [self.tasks[n] for n in names]
        _done, pending = await asyncio.wait(tasks, timeout=LIMIT)
        if pending:
            import sys
            for task in pending:
                task.print_stack(limit=12, file=sys.stdout)
            raise AssertionError("the event did not finish:\n" + self.story())
        return {n: t.result() for n, t in zip(names, tasks, strict=True)}

    def story(self) -> str:
        """Each laptop's lines of progress, to read when the laptops disagree."""
        return "\n".join(f"-- {n}\n" + "\n".join(lines) for n, lines in self.lines.items())

    async def close(self) -> None:
        for task in self.tasks.values():
            task.cancel()
        await asyncio.gather(*self.tasks.values(), return_exceptions=True)


async def _until(predicate: Any) -> None:
    while not predicate():
        await asyncio.sleep(0.01)  # polling a flag another task sets; the bound is the caller's wait_for


def _rows(standings: Any) -> list[tuple[str, str, str, str]]:
    return [(s.player, str(s.wins), str(s.difference), str(s.buchholz)) for s in standings]


async def test_eight_bots_two_rounds_at_two_tables_on_three_laptops(tmp_path: Path) -> None:
    room = Room(tmp_path)
    await room.start()
    try:
        final = await room.finish("Ann", "Bob", "Cleo")
    finally:
        await room.close()
    rows = {n: _rows(s) for n, s in final.items()}
    assert rows["Ann"] == rows["Bob"] == rows["Cleo"], "every laptop computes the same standings"
    assert len(rows["Ann"]) == 8
    charter = room.opener.charter
    assert charter is not None and len(charter.players) == 8 and charter.rounds == 2
    # each round two tables of four at once, every one counted from a log that checks, on every laptop
    for name, runner in room.runners.items():
        assert sorted(runner.results) == [(1, 0), (1, 1), (2, 0), (2, 1)], name
        assert runner.reports == []
        folder = runner.folder
        assert Charter.from_bytes((folder / CHARTER_FILE).read_bytes()) == charter
        assert (folder / "standings.json").read_text() == (room.opener.folder / "standings.json").read_text()
    results: list[Any] = []
    for number in (1, 2):
        drawn = draw_round(charter, number, results)
        assert len(drawn.tables) == 2 and all(len(t) == 4 for t in drawn.tables)
        for t, seats in enumerate(drawn.tables):
            path = room.runners["Cleo"].folder / "results" / result_name(number, t)
            checked = check_log(charter, number, t, seats, path)
            assert checked.result == room.opener.results[(number, t)].result
            results.append(checked.result)
    # as few repeat meetings in round 2 as can be: two tables of four after two tables of four must
    # repeat two pairs at each (two players from each first-round table), no more
    met = [{frozenset((a, b)) for t in draw_round(charter, r, results[:2] if r == 2 else []).tables
            for a in t for b in t if a < b} for r in (1, 2)]
    assert len(met[0] & met[1]) == 4
    # the tables were opened by more than one laptop (each by the laptop of its first seat)
    opened = {n for n, lines in room.lines.items() if any("opened here" in line for line in lines)}
    assert len(opened) >= 2, room.lines
    # every table is a rated game on every laptop (two bots of one level at a table included); a
    # laptop's own bots move their level's rating, another's move that laptop's bot's
    for name, runner in room.runners.items():
        ratings = Ratings()
        assert [why for _t, why in runner.rate(ratings)] == [None] * 4, name
        own_greedy = sum(any(charter.players[int(p)].key == runner.me and charter.players[int(p)].bot == "greedy"
                             for p in result.result.players) for result in runner.results.values())
        assert ratings.get("bot:greedy").games == own_greedy
        assert all(p.startswith("bot:") for p in ratings.players)


async def test_a_tampered_log_is_reported_not_counted_and_the_table_played_again(tmp_path: Path) -> None:
    """Ann sends every other laptop a copy of her tables' logs with one byte changed: Bob and Cleo
    refuse it with the reason, pass Ann over for that table, play it again, and agree."""
    # an event id whose lots put one of Ann's players (ids 0 to 2: she enters first) first in round 1:
    # Ann opens that table
    event = next(e for e in (hashlib.sha256(bytes([i])).hexdigest()[:32] for i in range(64))
                 if min(lots(e, [str(i) for i in range(8)]).items(), key=lambda kv: kv[1])[0] in "012")
    room = Room(tmp_path, event=event)
    answer = room.opener._answer_log

    def tampered(request: dict[str, Any]) -> dict[str, Any]:
        reply = answer(request)
        if reply.get("type") == "log":
            data = bytearray(reply["log"])
            data[len(data) // 2] ^= 0x01  # inside an entry mid-game: its signature, move or digest
            reply = {**reply, "log": bytes(data)}
        return reply

    room.opener._answer_log = tampered  # type: ignore[method-assign]
    await room.start()
    try:
        # Ann counts her own log, so her later rounds are drawn otherwise: she is left waiting for
        # tables nobody else has; the others pass her over where she opens nothing (§6.3)
        final = await room.finish("Bob", "Cleo")
    finally:
        await room.close()
    bob, cleo = room.runners["Bob"], room.runners["Cleo"]
    assert _rows(final["Bob"]) == _rows(final["Cleo"])
    # round 1's draw is the same everywhere (round 2's follows from results Ann counts otherwise)
    ann_hosted = [rt for rt, r in room.opener.results.items() if r.host == key("Ann").public and rt[0] == 1]
    assert ann_hosted, "Ann opened a table of round 1"
    for runner in (bob, cleo):
        assert runner.reports, "the tampered log is reported"
        assert all(r.startswith("round ") and "the log is refused: " in r and "(sent by the laptop of Ann" in r
                   for r in runner.reports), runner.reports
        for rt in ann_hosted:  # counted from a game another laptop played again
            assert runner.results[rt].host != key("Ann").public and runner.results[rt].rank > 0
    assert any("Not counted: round" in line for line in room.lines["Bob"])


async def test_a_laptop_stopped_after_round_one_resumes_from_its_files(tmp_path: Path) -> None:
    room = Room(tmp_path, bot_delay=0.01)
    await room.start()
    try:
        bob = room.runners["Bob"]
        await asyncio.wait_for(_until(lambda: (1, 0) in bob.results and (1, 1) in bob.results), LIMIT)
        room.tasks["Bob"].cancel()
        await asyncio.gather(room.tasks["Bob"], return_exceptions=True)
        folder = bob.folder
        assert (folder / CHARTER_FILE).exists() and (folder / "results" / result_name(1, 1)).exists()
        again = EventRunner.resume(key("Bob"), folder, name="Bob", dial=[("127.0.0.1", room.opener.port)],
                                   note=room.lines["Bob"].append, **LOOP)  # type: ignore[arg-type]
        room.add("Bob", again)
        final = await room.finish("Ann", "Bob", "Cleo")
    finally:
        await room.close()
    assert _rows(final["Bob"]) == _rows(final["Ann"]) == _rows(final["Cleo"]), room.story()
    assert sorted(again.results) == [(1, 0), (1, 1), (2, 0), (2, 1)]
    for rt, result in again.results.items():
        loaded = load(again.folder / "results" / result_name(*rt))
        assert list(loaded.game.scores) == list(result.result.scores)


async def test_a_person_sits_down_at_the_tables_of_other_laptops_under_their_own_key(tmp_path: Path) -> None:
    """Cleo enters herself (a person) and a bot: at each round her laptop sits her down at her seat,
    at the table the laptop first in its order opened (or opens it), under her identity key; a
    greedy bot stands in for her hands here, submitting her moves as the interface would. Her
    games count, with her seat a person's under her key."""
    from carcnet.bots import GreedyBot

    room = Room(tmp_path, bot_delay=0.0)
    await room.start()
    seated: list[tuple[int, int, Any]] = []
    hands = GreedyBot(7)

    def on_table(number: int, t: int, table: Any) -> None:
        seated.append((number, t, table))

        def step() -> None:
            if table.my_turn and table.game is not None:
                table.submit(hands.choose(table.game.view()))

        # after the change is taken, as a key press would come (not from inside the listener); and
        # at once: the game may have begun with her turn
        table.add_listener(lambda _change: asyncio.get_running_loop().call_soon(step))
        asyncio.get_running_loop().call_soon(step)

    cleo = room.runners["Cleo"]
    cleo.players = [("Cleo", None), ("Cleo greedy", "greedy")]
    cleo.on_table = on_table
    try:
        final = await room.finish("Ann", "Bob", "Cleo")
    finally:
        await room.close()
    assert _rows(final["Ann"]) == _rows(final["Bob"]) == _rows(final["Cleo"])
    charter = cleo.charter
    assert charter is not None
    person = next(i for i, p in enumerate(charter.players) if p.name == "Cleo")
    assert charter.players[person].bot is None and charter.players[person].key == key("Cleo").public
    assert sorted((r, t) for r, t, _ in seated) == sorted(
        rt for rt, result in cleo.results.items() if str(person) in result.result.players)
    assert len(seated) == 2  # one table a round
    for (number, t), result in cleo.results.items():
        header = load(cleo.folder / "results" / result_name(number, t)).header
        for seat, player in enumerate(result.result.players):
            if player == str(person):
                assert header.seats[seat].player == "human" and header.keys[seat] == key("Cleo").public  # type: ignore[index]
