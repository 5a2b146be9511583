"""The turn clock (issue 15; protocol/wire.md §4.6 ``clock``, §5.8): agreed in the lobby, measured by
every laptop, and when a seat's turn and bank are used up its own laptop plays the turn with the
greedy bot's choice.

The clocks' arithmetic is tested with a clock moved by hand; the table with real peers on loopback and
a one-second turn (the waits are on conditions, bounded).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from carcnet.engine import DrawTile, Phase, Rules
from carcnet.net.messages import Lobby, MessageError
from carcnet.table import NetTable, SeatClocks, TurnClock, plan_from_text
from carcnet.table.clock import clock_text
from carcnet.table.lan import keys_path

from .loopback import FAST, LIMIT, until

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
