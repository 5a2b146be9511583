"""Presence at real peers on loopback (wire.md §4.5, §5.6, §5.7), watched after every change of every
table: through slow turns, a handover and a handback, no peer ever lists as away a seat whose runner it
is connected to; a spectator connected to two players says nobody is gone."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from carcnet.engine import HandBack, Rules
from carcnet.table import NetTable, plan_from_text

from .loopback import FAST, LIMIT, takeover_taker, until

pytestmark = pytest.mark.asyncio

LOOP = ("127.0.0.1", 0)
#: Every bot takes longer over a turn than a draw value may be missing (a slow bot, wire.md §5.7).
SLOW = {"bot_delay": 0.6, "reveal_wait": 0.5, "takeover": 0.2}


async def _all(games: list[NetTable], predicate: Callable[[NetTable], bool], timeout: float = LIMIT * 3) -> None:
    await until([g.peer for g in games if g.peer is not None], lambda: all(predicate(g) for g in games), timeout)


def _watch(table: NetTable, live: list[NetTable], wrong: list[tuple[str, str, int]]) -> None:
    """After every change of *table*: a seat it lists away whose runner (by its own log: the running
    peer of *live* that holds the key of the seat that signs the seat's entries) it has an open link
    to is written into *wrong*, with the change."""

    def check(change: str) -> None:
        game = table.game
        if game is None or table.status != "playing":
            return
        open_keys = {link.key for link in table.session.connections.open_links()}
        for seat in table.away():
            signer = game.signer(seat)
            runner = next((r for r in live if signer in r.session.seats), None)
            if runner is not None and runner.session.identity.public in open_keys:
                wrong.append((table.session.name, change, seat))

    table.add_listener(check)


async def test_nobody_connected_is_ever_away_through_slow_turns_a_handover_and_a_handback(tmp_path: Path) -> None:
    """The host runs seat 0's bot and leaves; the player first in the tie order takes the seat over; the
    host comes back and gets it back. Every turn is slower than the draw values' wait. Bob, Cleo, the
    host back and Eve (a spectator watching through Bob) never list a seat away whose runner they are
    connected to: not at the entry before the taker's heartbeat, nor as a draw begins."""
    host = NetTable.host(
        name="Ann", game_name="Presence", rules=Rules(), plan=plan_from_text("greedy,open,open", me="Ann"),
        directory=tmp_path / "a", listen=LOOP, discovery=False, timing=FAST, **SLOW,  # type: ignore[arg-type]
    )
    wrong: list[tuple[str, str, int]] = []
    async with host:
        address = ("127.0.0.1", host.peer.port)  # type: ignore[union-attr]
        bob, cleo = (NetTable.join(host.game_id, name=n, bot="random", directory=tmp_path / n, listen=LOOP,
                                   dial=[address], discovery=False, timing=FAST, **SLOW)  # type: ignore[arg-type]
                     for n in ("Bob", "Cleo"))
        live = [host, bob, cleo]
        async with bob, cleo:
            await _all(live, lambda g: g.status == "playing")
            through = ("127.0.0.1", bob.peer.port)  # type: ignore[union-attr]
            eve = NetTable.spectate(host.game_id, name="Eve", directory=tmp_path / "e", dial=[through],
                                    discovery=False, timing=FAST)
            for table in (bob, cleo, eve):
                _watch(table, live, wrong)
            async with eve:
                await _all([eve, bob], lambda g: eve.session.have >= 8)
                live.remove(host)
                await host.aclose()  # the laptop that runs seat 0's bot goes: the seat is taken over
                taker = takeover_taker((bob, cleo), 0)
                await _all([bob, cleo, eve], lambda g: g.game is not None and g.game.signer(0) in taker.session.seats)
                assert host.path is not None
                mine = [("127.0.0.1", t.peer.port) for t in (bob, cleo)]  # type: ignore[union-attr]
                back = NetTable.resume(host.path, listen=LOOP, dial=mine, discovery=False, timing=FAST,
                                       **{**SLOW, "takeover": 1000})  # type: ignore[arg-type]
                _watch(back, live, wrong)
                live.append(back)
                async with back:
                    await _all([bob, cleo, back, eve], lambda g: g.game is not None and g.game.handovers[0] is None)
                    handback = next(i for i, m in enumerate(back.game.moves, 1) if isinstance(m, HandBack))  # type: ignore[union-attr]
                    await _all([bob, cleo, back, eve], lambda g: g.session.have >= handback + 8)
    assert wrong == [], wrong


async def test_a_spectator_connected_to_two_players_says_nobody_is_gone(tmp_path: Path) -> None:
    """A second link of a spectator while its first is open (it dialled two players, or a player came
    back) is no news: it said "Watching through Cleo now (Bob is gone)" with Bob still there."""
    host = NetTable.host(
        name="Ann", game_name="Two links", rules=Rules(), plan=plan_from_text("greedy,open,open", me="Ann"),
        directory=tmp_path / "a", listen=LOOP, discovery=False, timing=FAST,
    )
    async with host:
        address = ("127.0.0.1", host.peer.port)  # type: ignore[union-attr]
        bob, cleo = (NetTable.join(host.game_id, name=n, bot="random", directory=tmp_path / n, listen=LOOP,
                                   dial=[address], discovery=False, timing=FAST, bot_delay=0.01)
                     for n in ("Bob", "Cleo"))
        async with bob, cleo:
            await _all([host, bob, cleo], lambda g: g.status == "playing")
            players = [("127.0.0.1", t.peer.port) for t in (bob, cleo)]  # type: ignore[union-attr]
            eve = NetTable.spectate(host.game_id, name="Eve", directory=tmp_path / "e", dial=players,
                                    discovery=False, timing=FAST)
            async with eve:
                await _all([eve, bob, cleo], lambda g: len(eve.session.connections.open_links()) == 2
                           and eve.session.have >= 6)
                assert not [note for note in eve.notes if "is gone" in note], eve.notes
