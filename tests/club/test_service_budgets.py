"""The event service's budgets by address and role (carcnet.club.service): one address holding its
connections, opening them again and again or flooding requests never starves another's requests, the
event's laptops keep places strangers cannot take, and a role is the proven key's, not the address's;
one laptop's flood or restart never changes another's standings.

On loopback: the flood comes from 127.0.0.2 (and further 127.0.0.x), the honest asker from
127.0.0.1. Nothing sleeps to synchronise; every wait is bounded by ``asyncio.wait_for``."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path
from typing import Any

import pytest

from carcnet.club.event import Charter, Entrant, draw_round
from carcnet.club.runner import EventRunner, _Laptop
from carcnet.club.service import (
    MAX_CONNECTIONS,
    MAX_NEW_PER_SECOND,
    MAX_PER_LAPTOP,
    MAX_PER_STRANGER,
    MAX_REQUESTS,
    MAX_STRANGERS,
    STRANGER_REPLIES,
    EventService,
    Status,
)
from carcnet.engine import RULES_VERSION, Rules
from carcnet.net.signing import SeatKey

from .askers import Asker, answered
from .test_tournament import BOTS, LIMIT, LOOP, Room, _rows

pytestmark = pytest.mark.asyncio


def key(name: str) -> SeatKey:
    return SeatKey.from_seed(hashlib.sha256(f"carcnet budget test {name}".encode()).digest())


def _pong(request: dict[str, Any], _asker: Any) -> dict[str, Any]:
    return {"type": "pong", "nonce": request.get("nonce")}


async def _hold(port: int, source: str, count: int) -> list[Any]:
    """*count* connections from *source*, each kept open without a byte sent."""
    held = []
    for _ in range(count):
        held.append(await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)))
    return held


def _close(held: list[Any]) -> None:
    for _reader, writer in held:
        writer.close()


def _service(**options: Any) -> EventService:
    return EventService(_pong, identity=key("service"), host="127.0.0.1", **options)


async def test_one_address_holding_its_connections_starves_no_other() -> None:
    async with _service() as service:
        held = await _hold(service.port, "127.0.0.2", MAX_CONNECTIONS)
        try:
            assert await answered(service.port, 15) == 15
            assert service.refused >= MAX_CONNECTIONS - MAX_PER_STRANGER
        finally:
            _close(held)


async def test_strangers_from_many_addresses_leave_the_laptops_their_places_and_keep_out_no_newcomer() -> None:
    laptop = key("laptop")
    async with _service(laptop=lambda k: k == laptop.public, known=lambda a: a == "127.0.0.1") as service:
        held = []
        try:
            for n in range(2, 2 + MAX_STRANGERS // MAX_PER_STRANGER):
                held += await _hold(service.port, f"127.0.0.{n}", MAX_PER_STRANGER)
            # the strangers' places are all taken: a stranger from another address is answered, the
            # address holding the most giving up its oldest (the first of 127.0.0.2's)
            assert await answered(service.port, 3, source="127.0.0.200") == 3
            assert service.evicted >= 1
            assert await asyncio.wait_for(held[0][0].read(), 5) == b""
            # more strangers from more addresses never hold more than their places...
            for n in range(20, 20 + MAX_STRANGERS // MAX_PER_STRANGER):
                held += await _hold(service.port, f"127.0.0.{n}", MAX_PER_STRANGER)
            assert sum(1 for h in service._open.values() if h.place == "stranger") <= MAX_STRANGERS
            # ...and a laptop of the event is answered, up to its own share at once (one place to
            # spare: the service may not have seen the end of the last probe before the next comes)
            mine = await _hold(service.port, "127.0.0.1", MAX_PER_LAPTOP - 2)
            try:
                assert await answered(service.port, 10, identity=laptop) == 10
            finally:
                _close(mine)
        finally:
            _close(held)


async def test_a_flood_of_requests_from_one_address_is_cut_at_its_budget_and_others_are_answered() -> None:
    now = [0.0]
    async with _service(clock=lambda: now[0]) as service:
        flooded = await answered(service.port, STRANGER_REPLIES + 12, source="127.0.0.2", per_connection=MAX_REQUESTS)
        assert flooded == STRANGER_REPLIES  # the budget, then the connection closed unanswered
        assert "127.0.0.2" in service.discouraged  # and its address takes one new connection a second
        assert await answered(service.port, 20, per_connection=10) == 20  # another address: its own budget
        now[0] += 60.0  # the window passed: the flooder's budget is whole again
        assert await answered(service.port, 5, source="127.0.0.2", per_connection=5) == 5


async def test_one_address_opening_connection_after_connection_is_taken_at_its_pace() -> None:
    """Each new connection costs the service a handshake (a signature, a verification): one
    stranger's address gets MAX_NEW_PER_SECOND a second (the clock stands still here), a laptop's
    address more, and another address its own."""
    now = [0.0]
    laptop = key("laptop")
    async with _service(clock=lambda: now[0], laptop=lambda k: k == laptop.public,
                        known=lambda a: a == "127.0.0.3") as service:
        assert await answered(service.port, MAX_NEW_PER_SECOND + 4, source="127.0.0.2") == MAX_NEW_PER_SECOND
        assert await answered(service.port, MAX_NEW_PER_SECOND + 4, source="127.0.0.3",
                              identity=laptop) == MAX_NEW_PER_SECOND + 4
        assert await answered(service.port, 4) == 4
        now[0] += 1.0
        assert await answered(service.port, 4, source="127.0.0.2") == 4


async def test_a_strangers_key_from_a_laptops_address_gets_a_strangers_places_and_budget() -> None:
    """The role is the proven key's, not the address's: connections from the address of a known
    laptop that prove another key hold a stranger's places (MAX_PER_STRANGER) and get a stranger's
    replies (STRANGER_REPLIES); the laptop's own key from that address is still answered."""
    now = [0.0]
    laptop = key("laptop")
    async with _service(clock=lambda: now[0], laptop=lambda k: k == laptop.public,
                        known=lambda a: a == "127.0.0.1") as service:
        strangers = [Asker(service.port, key(f"stranger {i}")) for i in range(MAX_PER_STRANGER + 1)]
        for s in strangers:
            await s.open()
        heard = [len(await s.ask({"type": "ping"})) for s in strangers]
        for s in strangers:
            s.close()
        assert heard == [1] * MAX_PER_STRANGER + [0]  # the last closed once its key proved a stranger's
        flooded = await answered(service.port, STRANGER_REPLIES + 12, identity=key("stranger"),
                                 per_connection=MAX_REQUESTS)
        assert flooded == STRANGER_REPLIES - MAX_PER_STRANGER  # the pings above came from that budget too
        assert await answered(service.port, 2 * MAX_REQUESTS, identity=laptop, per_connection=MAX_REQUESTS) == 2 * MAX_REQUESTS


# ---------------------------------------------------------------------- standings


def _charter(me: SeatKey, other: SeatKey) -> Charter:
    players = (Entrant("A1", me.public, "greedy"), Entrant("B1", other.public, "greedy"),
               Entrant("A2", me.public, "random"), Entrant("B2", other.public, "random"))
    return Charter(event="ef" * 16, name="Night", format="swiss", rounds=2, size=2, minimum=2, options=Rules(),
                   rules=RULES_VERSION, created=1, players=players, opener=me.public).signed(me)


async def test_a_laptop_opens_no_table_before_it_heard_the_others_nor_one_a_laptop_here_counted(tmp_path: Path) -> None:
    """A laptop started again (resumed) opens nothing before its first round of status requests;
    then not a table another laptop here holds the counted log of (it fetches and checks that log)."""
    me, other = key("A"), key("B")
    charter = _charter(me, other)
    runner = EventRunner(me, name="A", folder=tmp_path, charter=charter, **LOOP)
    drawn = draw_round(charter, 1, [])
    mine = next(t for t, seats in enumerate(drawn.tables) if charter.players[int(seats[0])].key == me.public)
    seats = drawn.tables[mine]
    try:
        await runner._open_if_mine(1, mine, seats)
        assert runner._tables == {}, "no table before the first status round"
        runner._polled = True
        laptop = runner._laptops.setdefault(other.public, _Laptop())
        laptop.status = Status(charter.event, other.public, 1, (), ((1, mine),), ())
        laptop.heard = runner.clock()
        await runner._open_if_mine(1, mine, seats)
        assert runner._tables == {}, "the table another laptop here counted is not played again"
        laptop.status = Status(charter.event, other.public, 1, (), (), ())
        await runner._open_if_mine(1, mine, seats)
        assert list(runner._tables) == [(1, mine)]
    finally:
        for table in runner._tables.values():
            await runner._close(table)


async def _finish_under(room: Room, flooders: list[asyncio.Task[None]], stop: asyncio.Event) -> dict[str, Any]:
    """The final standings of Ann, Bob and Cleo; the flood (*flooders*, which end once *stop* is set)
    and the room stopped whatever happens."""
    try:
        return await room.finish("Ann", "Bob", "Cleo")
    finally:
        stop.set()
        for task in flooders:
            task.cancel()
        await asyncio.gather(*flooders, return_exceptions=True)
        await room.close()


async def test_a_flood_of_the_openers_service_changes_nobodys_standings(tmp_path: Path) -> None:
    """Through the whole event, one address holds every connection the opener's service takes (each
    opened again as soon as it is closed, without a request): every laptop still hears the opener,
    no table is played twice, and the three laptops end with the same standings from the same games."""
    room = Room(tmp_path)
    stop = asyncio.Event()

    async def hold() -> None:
        while not stop.is_set():
            port = room.opener.port
            if port is None:
                await asyncio.sleep(0.05)  # the attacker's pace while the service is not listening yet
                continue
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.2", 0))
            except OSError:
                await asyncio.sleep(0.05)  # the attacker's pace
                continue
            try:
                if not await reader.read(1):  # held until the service closes it
                    await asyncio.sleep(0.05)  # the attacker's pace
            except OSError:
                pass
            finally:
                writer.close()

    flooders = [asyncio.create_task(hold()) for _ in range(MAX_CONNECTIONS + 8)]
    await room.start()
    final = await _finish_under(room, flooders, stop)
    assert _rows(final["Ann"]) == _rows(final["Bob"]) == _rows(final["Cleo"])
    games = {name: {rt: r.game for rt, r in runner.results.items()} for name, runner in room.runners.items()}
    assert games["Ann"] == games["Bob"] == games["Cleo"], "every table counted from the same game everywhere"
    assert all(r.rank == 0 for runner in room.runners.values() for r in runner.results.values())
    played = [line for lines in room.lines.values() for line in lines if "opened here" in line]
    assert len(played) == 4, played  # two rounds of two tables, each opened once


async def test_an_enrolment_flood_from_many_addresses_enters_nobody_and_changes_nobodys_standings(
        tmp_path: Path) -> None:
    """Through the whole event, throwaway keys from 40 addresses (127.0.3.x) prove themselves and
    send well-signed enrolments under fresh names, naming a port where nothing answers, four
    connections at a time: none enters (their laptops never answer), so the event, opened to start
    at eight players, starts with the honest eight; each junk address and port is asked for its
    status once within :data:`UNREACHABLE` seconds, and the three laptops end with the same
    standings from the same games."""
    from carcnet.club.runner import UNREACHABLE
    from carcnet.club.service import enrol_bytes

    room = Room(tmp_path)
    stop = asyncio.Event()
    tally = {"wait": 0, "enrolled": 0, "other": 0}
    asked: list[tuple[str, int]] = []
    real_ask = room.opener._ask

    async def counting(address: tuple[str, int], request: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        if address[0].startswith("127.0.3."):
            asked.append(address)
        return await real_ask(address, request, **kwargs)

    room.opener._ask = counting  # type: ignore[method-assign]

    async def flood(worker: int) -> None:
        n = 0
        while not stop.is_set():
            n += 1
            port, event = room.opener.port, room.opener._event_id
            assert port is not None and event is not None
            me = SeatKey.generate()
            asker = Asker(port, me, f"127.0.3.{(worker * 7 + n) % 40 + 1}", event)
            if await asker.open():
                names = [f"Junk {worker}.{n}.{k}" for k in range(4)]
                for reply in await asker.ask(*({"type": "enrol", "event": event, "name": name, "key": me.public,
                                                "bot": "greedy", "port": 9,
                                                "sig": me.sign(enrol_bytes(event, name, "greedy"))}
                                               for name in names)):
                    tally[reply["type"] if reply["type"] in tally else "other"] += 1
            else:
                await asyncio.sleep(0.01)  # the attacker's pace once refused
            asker.close()

    await room.start()
    flooders = [asyncio.create_task(flood(w)) for w in range(4)]
    began = room.opener.clock()
    final = await _finish_under(room, flooders, stop)
    took = room.opener.clock() - began
    charter = room.opener.charter
    assert charter is not None
    assert sorted(p.name for p in charter.players) == sorted(n for bots in BOTS.values() for n, _ in bots)
    assert tally["wait"] > 0 and tally["enrolled"] == 0, tally
    assert _rows(final["Ann"]) == _rows(final["Bob"]) == _rows(final["Cleo"])
    games = {name: {rt: r.game for rt, r in runner.results.items()} for name, runner in room.runners.items()}
    assert games["Ann"] == games["Bob"] == games["Cleo"]
    per_hint = {hint: asked.count(hint) for hint in set(asked)}
    assert per_hint and max(per_hint.values()) <= 1 + took // UNREACHABLE, per_hint


async def test_an_opener_stopped_mid_game_and_resumed_after_the_others_counted_its_table_agrees(tmp_path: Path) -> None:
    """Ann stops while her table of round 1 is under way; Bob and Cleo pass her over, play her table
    again and count it; Ann resumes from her folder: she counts what they counted (their log, fetched
    and checked) rather than play her saved game on, and the three end with the same standings from
    the same games."""
    import hashlib as _h

    from carcnet.club.pairing import lots
    from carcnet.club.runner import CHARTER_FILE

    from .test_tournament import _until
    from .test_tournament import key as laptop_key

    event = next(e for e in (_h.sha256(bytes([i])).hexdigest()[:32] for i in range(64))
                 if min(lots(e, [str(i) for i in range(8)]).items(), key=lambda kv: kv[1])[0] in "012")
    room = Room(tmp_path, event=event, bot_delay=0.02)
    ann = room.opener
    await room.start()
    try:
        bob, cleo = room.runners["Bob"], room.runners["Cleo"]

        def seen_by_all() -> bool:  # Ann's table of round 1 open, and Bob and Cleo heard her say so
            heard = [r._laptops.get(ann.me) for r in (bob, cleo)]
            return any(r == 1 for r, _t in ann._tables) and bob.charter is not None and cleo.charter is not None and all(
                h is not None and h.status is not None and any(t[0] == 1 for t in h.status.tables) for h in heard)

        await asyncio.wait_for(_until(seen_by_all), LIMIT)
        mine = next(rt for rt in ann._tables if rt[0] == 1)
        room.tasks["Ann"].cancel()
        await asyncio.gather(room.tasks["Ann"], return_exceptions=True)
        try:
            await asyncio.wait_for(_until(lambda: mine in bob.results and mine in cleo.results), LIMIT)
        except TimeoutError:
            raise AssertionError(room.lines) from None
        assert bob.results[mine].rank > 0, "Bob and Cleo played Ann's table again"
        before = len(room.lines["Ann"])
        again = EventRunner.resume(laptop_key("Ann"), ann.folder, name="Ann", dial=[("127.0.0.1", bob.port)],
                                   note=room.lines["Ann"].append, **LOOP)  # type: ignore[arg-type]
        assert (ann.folder / CHARTER_FILE).exists()
        room.add("Ann", again)
        final = await room.finish("Ann", "Bob", "Cleo")
    finally:
        await room.close()
    assert _rows(final["Ann"]) == _rows(final["Bob"]) == _rows(final["Cleo"])
    assert again.results[mine].game == bob.results[mine].game == cleo.results[mine].game
    resumed_lines = room.lines["Ann"][before:]
    assert not any(f"Round 1 table {mine[1] + 1}: played on" in line or f"Round 1 table {mine[1] + 1}: opened" in line
                   for line in resumed_lines), resumed_lines
