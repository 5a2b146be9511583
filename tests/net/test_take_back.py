"""A seat taken back at real peers on loopback (wire.md §5.6 "Taking a seat back"): the laptop that ran
the bot of a seat handed over leaves before it could give the seat back, and the seat's own laptop,
back, takes the seat back itself and plays on with the table."""

from __future__ import annotations

from pathlib import Path

import pytest

from carcnet.engine import HandBack, HandOver, Rules
from carcnet.table import NetTable, plan_from_text

from .loopback import FAST, LIMIT, takeover_taker, until

pytestmark = pytest.mark.asyncio

LOOP = ("127.0.0.1", 0)
QUICK = {"bot_delay": 0.05, "reveal_wait": 0.5, "takeover": 0.2}


async def test_a_laptop_back_takes_its_seat_back_from_a_runner_that_left(tmp_path: Path) -> None:
    """Ann's laptop runs seat 0's bot and leaves; the player first in the tie order takes the seat over,
    plays it, and leaves too (``bye`` quit) before Ann is back. Nobody else may give seat 0 back, so the
    table would wait at its turn for ever: Ann, back, takes it back herself (``handback 0 by 0``, signed
    with seat 0's key), and she and the one left finish on one log."""
    host = NetTable.host(
        name="Ann", game_name="Take back", rules=Rules(), plan=plan_from_text("greedy,open,open", me="Ann"),
        directory=tmp_path / "a", listen=LOOP, discovery=False, timing=FAST, **QUICK,  # type: ignore[arg-type]
    )
    async with host:
        address = ("127.0.0.1", host.peer.port)  # type: ignore[union-attr]
        bob, cleo = (NetTable.join(host.game_id, name=n, bot="random", directory=tmp_path / n, listen=LOOP,
                                   dial=[address], discovery=False, timing=FAST, **QUICK)  # type: ignore[arg-type]
                     for n in ("Bob", "Cleo"))
        async with bob, cleo:
            players = [host, bob, cleo]
            await until([t.peer for t in players], lambda: all(t.session.have >= 6 for t in players),  # type: ignore[misc]
                        LIMIT * 3)
            await host.aclose("shutdown")  # keeps her seat: her laptop is away, the table takes it over
            taker = takeover_taker((bob, cleo), 0)
            other = cleo if taker is bob else bob
            peers = [bob.peer, cleo.peer]

            def run_by_taker() -> bool:
                game = other.game
                return game is not None and game.signer(0) in taker.session.seats and other.session.have >= (
                    next(i for i, m in enumerate(game.moves, 1) if isinstance(m, HandOver)) + 3)

            await until(peers, run_by_taker, LIMIT * 3)  # type: ignore[arg-type]
            await taker.aclose("quit")  # the runner leaves for good, the seat still its bot's
            assert host.path is not None
            back = NetTable.resume(host.path, listen=LOOP, dial=[("127.0.0.1", other.peer.port)],  # type: ignore[union-attr]
                                   discovery=False, timing=FAST, **QUICK)  # type: ignore[arg-type]
            async with back:
                here = [back.peer, other.peer]

                def taken_back() -> int | None:
                    game = back.game
                    if game is None:
                        return None
                    return next((i for i, m in enumerate(game.moves, 1) if m == HandBack(0, 0)), None)

                await until(here, lambda: taken_back() is not None, LIMIT * 3)  # type: ignore[arg-type]
                seq = taken_back()
                assert seq is not None
                signed = back.session.entries[seq - 1]
                assert signed.entry.seat == 0  # made by the seat itself, signed with its key
                try:
                    await until(here, lambda: all(t.session.have >= seq + 8 and t.session.replica.commit_index >= seq
                                                  for t in (back, other)), LIMIT * 3)  # type: ignore[arg-type]
                except TimeoutError:
                    for t in (back, other):
                        g = t.game
                        print(t.session.name, t.session.have, t.session.replica.commit_index, g.phase, g.seat,
                              g.handovers, t.session.seats, t.notes[-8:], t.away(), t.blocking())
                    raise
                top = min(back.session.have, other.session.have)
                assert back.session.entries[:top] == other.session.entries[:top]
                assert back.game is not None and back.game.signer(0) == 0
                name = back.session.header.header.seats[0].name  # type: ignore[union-attr]
                assert any(f"laptop is gone: {name}'s seat is played from this laptop again" in n for n in back.notes)
