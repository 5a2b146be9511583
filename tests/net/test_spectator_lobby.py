"""A spectator that came to the lobby through a player, not the host (the browser lists every peer's
record of a game): it used to see nothing until the start ("Connecting to the table…"), then refused the
player's first ``ack`` (``unexpected-message``: "Eve left (unexpected-message)" in the players' logs) and
showed no turn clock. Now the player passes the host's sealed ``start`` on to it (wire.md §3.3, §4.6), so
it holds the header before any vote comes; a spectator told the start by both the host and a player
takes it once; and a spectator in the lobby dials the host its player's welcome names (§5.10).

Driven by the in-memory wire (no sockets, no sleeps): every step is pumped until quiet.
"""

from __future__ import annotations

import pytest

from carcnet.bots import make_bot
from carcnet.engine import Rules
from carcnet.net.lobby import Hosting, SeatPlan, Watching
from carcnet.net.sync import SyncSession
from carcnet.table import NetTable, plan_from_text
from carcnet.table.clock import TurnClock

from .loopback import FAST, LIMIT, MemoryWire, counter_random, identity, pump
from .test_lobby import ANN_NONCE, SEALED, player_session

PLAN = [SeatPlan("host", "Ann", "red"), SeatPlan("open")]


def _refusals(*sessions: SyncSession) -> list[tuple[str, str, str]]:
    """Every error or bye any of *sessions* sent: (who, code, text)."""
    return [(s.name, e.code, e.message) for s in sessions for e in s.connections.events if e.kind == "sent"]


def _play(host: SyncSession, bob: SyncSession, wires: list[MemoryWire], moves: int) -> None:
    bots = {seat: make_bot("greedy", seat) for seat in range(2)}
    for _ in range(moves):
        game = host.game
        assert game is not None
        (host if game.seat == 0 else bob).submit(bots[game.seat].choose(game.view()))
        pump(*wires)


@pytest.mark.parametrize("to_host", [False, True], ids=["through-bob-only", "through-bob-and-ann"])
def test_a_spectator_that_dialled_a_player_in_the_lobby_gets_the_start_and_no_refusal(to_host: bool) -> None:
    table = Hosting(name="Friday game", options=Rules(), plan=PLAN, random=counter_random("host"), created=0,
                    nonce=ANN_NONCE, auto_start=False)
    host = SyncSession(game=SEALED, name="Ann", identity=identity("Ann"), lobby=table)
    bob = player_session("Bob", SEALED, colour="blue")
    eve = SyncSession(game=SEALED, name="Eve", role="spectator", identity=identity("Eve"), lobby=Watching())
    wires = [MemoryWire(bob, host)]
    pump(*wires)
    wires.append(MemoryWire(eve, bob, ("127.0.0.1", 2)))  # Eve dialled Bob, a player
    if to_host:
        wires.append(MemoryWire(eve, host, ("127.0.0.1", 3)))
    pump(*wires)
    assert eve.header is None
    host.apply_lobby(table.start(links=host.connections.open_links(), now=host.clock()))
    pump(*wires)
    _play(host, bob, wires, 6)
    assert eve.header is not None and eve.header == host.header and eve.replica.seal == host.replica.seal
    assert eve.have == host.have == bob.have and eve.digest == host.digest
    assert _refusals(host, bob, eve) == []
    assert all(w.a.is_open and w.b.is_open for w in wires)  # nobody closed on anybody


@pytest.mark.asyncio
async def test_a_spectator_in_the_lobby_dials_the_host_a_player_names_and_shows_the_table_and_clock(tmp_path):
    loop = ("127.0.0.1", 0)
    host = NetTable.host(name="Ann", game_name="Friday", rules=Rules(), plan=plan_from_text("me,open,open", me="Ann"),
                         directory=tmp_path / "a", listen=loop, discovery=False, timing=FAST,
                         clock=TurnClock(60, 300), auto_start=False)
    async with host:
        bob = NetTable.join(host.game_id, name="Bob", bot="greedy", directory=tmp_path / "b", listen=loop,
                            dial=[("127.0.0.1", host.peer.port)], discovery=False, timing=FAST)
        async with bob:
            await bob.wait_until(lambda: bool(bob.lobby_seats()), LIMIT)
            eve = NetTable.spectate(host.game_id, name="Eve", directory=tmp_path / "e",
                                    dial=[("127.0.0.1", bob.peer.port)], discovery=False, timing=FAST)
            async with eve:
                await eve.wait_until(lambda: eve.lobby is not None, LIMIT)
                assert [s.seat.name if s else None for s in eve.lobby.table] == ["Ann", "Bob", None]
                assert eve.clock == TurnClock(60, 300)  # the lobby's clock: the spectator shows the turns' clocks
                assert any(link.role == "host" for link in eve.session.connections.open_links())


@pytest.mark.asyncio
async def test_a_spectator_that_came_after_the_lobby_shows_the_banks_the_players_say(tmp_path):
    loop = ("127.0.0.1", 0)
    host = NetTable.host(name="Ann", game_name="Friday", rules=Rules(), plan=plan_from_text("me,open", me="Ann"),
                         directory=tmp_path / "a", listen=loop, discovery=False, timing=FAST,
                         clock=TurnClock(60, 300), auto_start=True)
    async with host:
        bob = NetTable.join(host.game_id, name="Bob", bot="greedy", directory=tmp_path / "b", listen=loop,
                            dial=[("127.0.0.1", host.peer.port)], discovery=False, timing=FAST)
        async with bob:
            await host.wait_until(lambda: host.game is not None and host.to_play == 0, LIMIT)  # Ann, a person
            eve = NetTable.spectate(host.game_id, name="Eve", directory=tmp_path / "e",
                                    dial=[("127.0.0.1", host.peer.port)], discovery=False, timing=FAST)
            async with eve:
                await eve.wait_until(lambda: eve.game is not None, LIMIT)
                assert eve.clock is None  # only the lobby says the turn's time
                await eve.wait_until(lambda: eve.seat_clock(1) is not None, LIMIT)
                assert eve.seat_clock(0) == eve.seat_clock(1) == "+5:00"  # the banks, as the players say them
