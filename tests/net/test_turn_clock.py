"""The turn clock (protocol/wire.md §4.6 ``clock``, §5.8): agreed in the lobby, measured by every
laptop, and when a seat's turn and bank are used up its own laptop plays the turn with the greedy bot's
choice. The banks are the table's: each seat's laptop says them in its heartbeats, the others take them,
and a resumed game keeps them.

The clocks' arithmetic is tested with a clock moved by hand; who is believed about a bank with sessions
joined in memory; the table with real peers on loopback and a one-second turn (the waits are on
conditions, bounded).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from carcnet.bots import make_bot
from carcnet.engine import DrawTile, Phase, Rules
from carcnet.net.lobby import Hosting, Seating, SeatPlan
from carcnet.net.messages import Lobby, MessageError
from carcnet.net.sync import SyncSession
from carcnet.table import NetTable, SeatClocks, TurnClock, plan_from_text
from carcnet.table.base import Change
from carcnet.table.clock import clock_text
from carcnet.table.keys import read_keys
from carcnet.table.lan import keys_path

from .loopback import FAST, GAME, LIMIT, MemoryWire, counter_random, identity, pump, until

LOOP = ("127.0.0.1", 0)


def test_a_turn_takes_its_seconds_first_then_the_bank():
    clocks = SeatClocks(TurnClock(30, 60), 2)
    clocks.update(0, 100.0)
    assert clocks.left(0, 110.0) == (20.0, 60.0) and clocks.describe(0, 110.0) == "0:20+1:00"
    assert clocks.left(0, 150.0) == (0.0, 40.0)  # 20 s over the turn: out of the bank
    assert not clocks.expired(0, 189.9) and clocks.expired(0, 190.0)
    clocks.update(1, 150.0)  # seat 0 moved at 150: its bank keeps 40 s
    assert clocks.banks == [40.0, 60.0] and clocks.describe(0, 160.0) == "+0:40"
    assert clocks.left(1, 160.0) == (20.0, 60.0)
    clocks.update(None, 170.0)  # the table draws: nobody's clock runs
    assert clocks.running is None and clocks.banks[1] == 60.0
    clocks.update(0, 200.0)
    assert clocks.expired(0, 270.0) and not clocks.expired(1, 270.0)


def test_the_agreement_and_its_bounds():
    assert TurnClock.parse("60+300") == TurnClock(60, 300) and TurnClock.parse("45") == TurnClock(45, 0)
    assert TurnClock(60, 300).describe() == "60 s a turn + 5:00 bank"
    for bad in ("0+10", "60+-1", "x", "60+40000", "4000"):
        with pytest.raises(ValueError):
            TurnClock.parse(bad)
    assert clock_text(0.2) == "0:01" and clock_text(-3) == "0:00" and clock_text(125) == "2:05"
    lobby = Lobby(name="x", options=Rules(), table=(None, None), clock=(60, 300))
    assert lobby.clock == (60, 300)
    with pytest.raises(MessageError):
        Lobby(name="x", options=Rules(), table=(None, None), clock=(0, 300))


@pytest.mark.asyncio
async def test_a_turn_that_runs_out_is_played_by_the_seats_own_laptop(tmp_path: Path) -> None:
    host = NetTable.host(
        name="Ann", game_name="Clock", rules=Rules(), plan=plan_from_text("me,open", me="Ann"),
        directory=tmp_path / "a", listen=LOOP, discovery=False, timing=FAST, clock=TurnClock(1, 1),
    )
    async with host:
        assert host.lobby is not None and host.lobby.clock == (1, 1)
        bob = NetTable.join(host.game_id, name="Bob", bot="greedy", directory=tmp_path / "b", listen=LOOP,
                            dial=[("127.0.0.1", host.peer.port)], discovery=False, timing=FAST)  # type: ignore[union-attr]
        async with bob:
            await until([host.peer, bob.peer], lambda: bob.lobby is not None and bob.lobby.clock == (1, 1))  # type: ignore[list-item]
            assert bob.clock == TurnClock(1, 1)  # the table's agreement, as the player sat down to it
            await until([host.peer, bob.peer], lambda: host.session.game is not None)  # type: ignore[list-item]
            # Ann (a person at the host) never moves: her turn (1 s) and her bank (1 s) run out, and her
            # own laptop plays the turn with the greedy bot's choice, signed with her seat key
            await until([host.peer, bob.peer],  # type: ignore[list-item]
                        lambda: sum(1 for e in bob.session.entries
                                    if e.entry.seat == 0 and not isinstance(e.entry.move, DrawTile)) >= 4,
                        timeout=LIMIT)
            assert any("Ann's time ran out" in note for note in host.notes)
            assert host.clocks is not None and host.clocks.banks[0] == 0.0  # the bank is spent
            assert bob.clocks is not None and bob.clocks.banks[0] < 1.0  # Bob's laptop measured it too
            assert bob.session.digest is not None
        saved = keys_path(host.path)  # type: ignore[arg-type]
        assert '"clock": [' in saved.read_text()


@pytest.mark.asyncio
async def test_without_a_clock_nothing_runs(tmp_path: Path) -> None:
    host = NetTable.host(
        name="Ann", game_name="No clock", rules=Rules(), plan=plan_from_text("greedy,greedy", me="Ann"),
        directory=tmp_path / "a", listen=LOOP, discovery=False, timing=FAST,
    )
    async with host:
        await until([host.peer], lambda: host.session.game is not None  # type: ignore[list-item]
                    and host.session.game.phase is Phase.GAME_OVER, timeout=LIMIT * 3)
        assert host.clock is None and host.clocks is None


# ---------------------------------------------------------------------- the banks are the table's


def test_the_banks_are_counted_to_the_millisecond_and_held_to_the_agreement():
    clocks = SeatClocks(TurnClock(30, 60), 3, banks=[12.3456, 70.0, -1.0])  # a resumed game's banks
    assert clocks.banks == [12.346, 60.0, 0.0] and clocks.millis() == (12346, 60000, 0)
    clocks.update(0, 100.0)
    assert clocks.update(1, 131.0004) == 0  # seat 0's turn ended, 1.0004 s over its 30 s
    assert clocks.millis()[0] == 11346 and clocks.update(1, 140.0) is None
    assert clocks.take(2, 45500) and clocks.banks[2] == 45.5 and not clocks.take(2, 45500)
    assert clocks.take(2, 99_000_000) and clocks.banks[2] == 60.0  # never more than the agreement
    with pytest.raises(ValueError, match="2 banks for 3 seats"):
        SeatClocks(TurnClock(30, 60), 3, banks=[1.0, 2.0])


def _three_at_a_clock() -> tuple[NetTable, dict[str, SyncSession], list[MemoryWire]]:
    """Ann's table with a turn clock (60 s + 5:00): Ann at seat 0, Bob and Cleo at seats 1 and 2, and
    Sue watching, each joined to Ann in memory; the game started, Ann's session wrapped by her table."""
    plan = [SeatPlan("host", "Ann", "red"), SeatPlan("open"), SeatPlan("open")]
    hosting = Hosting(name="Clock", options=Rules(), plan=plan, random=counter_random("clock host"), created=0,
                      auto_start=False, clock=(60, 300))
    ann = SyncSession(game=GAME, name="Ann", identity=identity("Ann"), lobby=hosting)
    others = {name: SyncSession(game=GAME, name=name, identity=identity(name),
                                lobby=Seating(name=name, key=identity(name), colour=colour))
              for name, colour in (("Bob", "blue"), ("Cleo", "green"))}
    wires = [MemoryWire(session, ann) for session in others.values()]
    pump(*wires)
    ann.apply_lobby(hosting.start(links=ann.connections.open_links(), now=ann.clock()))
    pump(*wires)
    sue = others["Sue"] = SyncSession(game=GAME, name="Sue", role="spectator", identity=identity("Sue"))
    wires.append(MemoryWire(sue, ann))
    pump(*wires)
    assert ann.game is not None and sue.game is not None and sorted(others["Cleo"].seats) == [2]
    table = NetTable(ann, kind="host", listen=None, discovery=False, game_name="Clock")
    table.timekeeper.update()
    return table, others, wires


def test_a_seats_bank_is_taken_only_from_the_laptop_that_plays_it():
    """wire.md §5.8: Bob's and Cleo's heartbeats say every seat's bank; Ann takes seat 1's from Bob and
    seat 2's from Cleo, neither's word on another seat nor on her own, nothing from Sue, who watches,
    and nothing said at another seq than the one she holds."""
    table, others, wires = _three_at_a_clock()
    assert table.clocks is not None and table.clocks.millis() == (300000, 300000, 300000)
    said = {"Bob": (1000, 2000, 3000), "Cleo": (4000, 5000, 6000), "Sue": (7000, 7000, 7000)}
    for name, banks in said.items():
        others[name].say_banks(others[name].have, banks)
        others[name].connections.tell_all()
    pump(*wires)
    assert table.timekeeper.listen()
    assert table.clocks.millis() == (300000, 2000, 6000)
    assert not table.timekeeper.listen()  # heard already: nothing changes
    # Bob's banks as of another seq than Ann's are not carried; one heard at another seq is not taken
    others["Bob"].say_banks(others["Bob"].have - 1, (1, 1, 1))
    others["Bob"].connections.tell_all()
    pump(*wires)
    bob_link = wires[0].b
    assert bob_link.banks == (table.session.have, ())
    bob_link.banks = (table.session.have - 1, (1, 1, 1))
    assert not table.timekeeper.listen() and table.clocks.millis() == (300000, 2000, 6000)


async def _until(tables: Sequence[NetTable], predicate: Callable[[], bool], timeout: float = LIMIT) -> None:
    """Returns once *predicate()* holds, checked after every change any of *tables* tells its listeners
    of (moves, links, and the clocks: once a second while a turn runs, and when a bank is taken)."""
    if predicate():
        return
    future: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def check(change: Change) -> None:
        if not future.done() and predicate():
            future.set_result(None)

    for table in tables:
        table.add_listener(check)
    try:
        await asyncio.wait_for(future, timeout)
    finally:
        for table in tables:
            table.remove_listener(check)


def _play_the_turn(table: NetTable, seat: int) -> None:
    """A person's move at *table*: the greedy bot's placement and deployment for *seat*."""
    bot = make_bot("greedy", seat)
    for _ in range(2):
        game = table.session.game
        assert game is not None
        if game.seat != seat or game.phase not in (Phase.PLACE_TILE, Phase.DEPLOY):
            return
        table.submit(bot.choose(game.view()))


def _bank(table: NetTable, seat: int) -> int:
    """*seat*'s bank at *table* in milliseconds, not counting a turn that runs."""
    assert table.clocks is not None
    return table.clocks.millis()[seat]


def _agreed(a: NetTable, b: NetTable, seat: int) -> Callable[[], bool]:
    """At the same seq, with *seat* to move, *a* and *b* hold the same bank for it."""
    return lambda: (a.session.have == b.session.have and a.to_play == b.to_play == seat
                    and a.clocks is not None and b.clocks is not None and _bank(a, seat) == _bank(b, seat))


@pytest.mark.asyncio
@pytest.mark.parametrize("kept", [True, False], ids=["its keys file kept the banks", "an older keys file"])
async def test_a_resumed_clock_keeps_its_bank(tmp_path: Path, kept: bool) -> None:
    """wire.md §5.8: Bob (a person) uses some of his bank, quits in the middle of his next turn and
    resumes his save. His bank is what it was, not full, at his laptop and at Ann's: from his keys file,
    or, from an older keys file without banks, the smallest the table says (and Ann never takes full
    banks from him). When his turn ends, Ann, who measured it from its draw (Bob away meanwhile), takes
    the bank Bob's laptop says."""
    full = 30000
    host = NetTable.host(
        name="Ann", game_name="Clock", rules=Rules(), plan=plan_from_text("greedy,open", me="Ann"),
        directory=tmp_path / "a", listen=LOOP, discovery=False, timing=FAST, clock=TurnClock(1, 30),
    )
    async with host:
        assert host.peer is not None
        address = ("127.0.0.1", host.peer.port)
        bob = NetTable.join(host.game_id, name="Bob", directory=tmp_path / "b", listen=LOOP, dial=[address],
                            discovery=False, timing=FAST)
        async with bob:
            # Bob's turn takes its second and some of his bank before he moves
            await _until([host, bob], lambda: bob.to_play == 1 and bob.clocks is not None
                         and bob.clocks.left(1, bob.session.clock())[1] <= 28.5)
            _play_the_turn(bob, 1)
            played = bob.session.have
            assert _bank(bob, 1) < full
            # his next turn: Ann holds the bank his laptop says
            await _until([host, bob], lambda: bob.session.have > played and _agreed(host, bob, 1)())
            before = _bank(bob, 1)
            assert before <= 28500
        # Bob quits in the middle of that turn
        keys = keys_path(bob.path)  # type: ignore[arg-type]
        assert host.session.header is not None
        assert read_keys(keys, host.session.header).banks == (_bank(bob, 0), before)
        if not kept:
            data = json.loads(keys.read_text())
            del data["banks"]
            keys.write_text(json.dumps(data))
        again = NetTable.resume(bob.path, listen=LOOP, dial=[address], discovery=False,  # type: ignore[arg-type]
                                timing=FAST)
        assert _bank(again, 1) == (before if kept else full)
        async with again:
            await _until([host, again], _agreed(host, again, 1))
            assert _bank(again, 1) == _bank(host, 1) == before < full
            assert clock_text(again.clocks.banks[1]) == clock_text(host.clocks.banks[1])  # type: ignore[union-attr]
            # his turn ends after he came back: at Ann's it ran since its draw, at his since his return
            _play_the_turn(again, 1)
            played = again.session.have
            await _until([host, again], lambda: again.session.have > played and _agreed(host, again, 1)())
            assert _bank(host, 1) == _bank(again, 1) <= before
