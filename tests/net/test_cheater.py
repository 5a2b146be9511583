"""A seated player who cheats, at real tables on loopback (wire.md §2.1, §5.6, §5.7; docs/security.md):
it cannot take a present player's seat while the table draws; a withholder is judged by its draw value,
whatever it keeps sending (stale reveals, no heartbeat), and is taken over within the away rule; a
seat taken for withholding stays the table's; stale messages never keep a dead connection alive."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest

from carcnet.engine import DrawTile, HandBack, HandOver, Phase, Rules
from carcnet.log import load
from carcnet.net import Bye, Reveal
from carcnet.net.link import Link
from carcnet.net.signing import seat_chain
from carcnet.net.transport import Timing
from carcnet.table import NetTable, plan_from_text

from .loopback import FAST, GAME, LIMIT, LoopbackGame, RawClient, seat_key, until
from .test_table_draws import table_header

pytestmark = pytest.mark.asyncio

LOOP = ("127.0.0.1", 0)


async def _all(games: list[NetTable], predicate, timeout: float = LIMIT * 3) -> None:
    """Waits until *predicate(game)* holds for every game at once (checked after every change)."""
    await until([g.peer for g in games], lambda: all(predicate(g) for g in games), timeout)  # type: ignore[misc]


def _table(tmp_path: Path, **options) -> tuple[NetTable, NetTable, NetTable]:
    """Ann opens a table of three (her random bot, two open seats); Bob and Cleo sit down with bots."""
    host = NetTable.host(
        name="Ann", game_name="Cheat", rules=Rules(), plan=plan_from_text("random,open,open", me="Ann"),
        directory=tmp_path / "a", listen=LOOP, discovery=False, timing=FAST, **options,
    )
    bob, cleo = (
        NetTable.join(host.game_id, name=n, bot="random", bot_delay=0.005, directory=tmp_path / n, listen=LOOP,
                      discovery=False, timing=FAST, **options)
        for n in ("Bob", "Cleo")
    )
    return host, bob, cleo


def _moves(table: NetTable) -> list[object]:
    return [e.entry.move for e in table.session.entries]


async def test_a_seated_cheater_cannot_take_a_present_seat_while_the_table_draws(tmp_path: Path) -> None:
    """Issue 35 item 7: Cleo's laptop, modified, hands over another seat at each of the next draws the
    moment it begins (before anyone could have waited for a value), the host's bot seat and Bob's in
    turn, while their laptops stay connected; on the code before, the others took both handovers and
    Cleo then drew alone. Now nobody who saw those seats' values come takes them: the game ends with
    every seat its own, every draw made from every seat's value, and one log everywhere (Cleo's laptop
    set its handovers aside when the table's votes committed the other branch, wire.md §5.9)."""
    host, bob, cleo = _table(tmp_path)
    tries: list[int] = []

    def cheat() -> None:
        game, session = cleo.session.game, cleo.session
        if game is None or game.phase is not Phase.DRAW or len(tries) >= 4:
            return
        mine = next(iter(session.seats))
        victim = [s for s in range(game.players) if s != mine and game.handovers[s] is None][len(tries) % 2 - 1]
        tries.append(victim)
        with contextlib.suppress(Exception):  # a handover its own log cannot take any more
            session.submit(HandOver(victim, "greedy", mine))

    def on_change(change: str, _link: Link | None) -> None:
        game = cleo.session.game
        if change == "entry" and game is not None and game.phase is Phase.DRAW and cleo.session.have >= 6:
            asyncio.get_running_loop().call_soon(cheat)

    async with host:
        address = ("127.0.0.1", host.peer.port)  # type: ignore[union-attr]
        bob.dial(*address)
        cleo.dial(*address)
        async with bob, cleo:
            await _all([host, bob, cleo], lambda g: g.session.have >= 4)
            cleo.session.add_listener(on_change)
            await _all([host, bob], lambda g: g.status == "finished", timeout=LIMIT * 6)
            await _all([host, bob, cleo], lambda g: g.session.have == host.session.have, timeout=LIMIT * 3)
    assert len(tries) >= 2 and len(set(tries)) == 2, tries  # it tried both other seats
    for table in (host, bob):
        assert not [m for m in _moves(table) if isinstance(m, HandOver)], table.session.name
        draws = [m for m in _moves(table) if isinstance(m, DrawTile)]
        assert draws and all(None not in m.values for m in draws), table.session.name
    assert host.session.digest == bob.session.digest == cleo.session.digest
    assert cleo.session.replica.aside, "Cleo's laptop made the handovers and set them aside"
    assert host.path.read_bytes() == bob.path.read_bytes()  # type: ignore[union-attr]


def _withhold(table: NetTable, *, heartbeats: bool) -> asyncio.Task[None]:
    """*table*'s laptop stops revealing its seat's draw values; without *heartbeats* it also stops
    sending heartbeats and instead sends, every 0.2 s on every link, a stale ``reveal`` (its value for
    the first draw, made long ago: ignored, and on the code before, enough to keep its links alive)."""
    session = table.session
    seat = next(iter(session.seats))
    header = session.header
    assert header is not None
    stale = Reveal(seat=seat, draw=1, value=seat_chain(session.seats[seat], header.game, seat,
                                                       header.header.options.pile_size())[1])
    session.draws.chain = lambda header, seat, key: None  # type: ignore[method-assign]
    if heartbeats:
        return asyncio.create_task(asyncio.sleep(0))
    session.connections.send_heartbeat = lambda link: None  # type: ignore[method-assign]

    async def keep_sending() -> None:
        for _ in range(int(LIMIT * 6 / 0.2)):
            for link in session.connections.open_links():
                link.send(stale)
            await asyncio.sleep(0.2)  # the withholder's pace, not a synchronisation

    return asyncio.create_task(keep_sending())


async def test_a_withholder_that_sends_stale_reveals_and_no_heartbeat_is_taken_over(tmp_path: Path) -> None:
    """Issue 35 item 3: Bob's laptop keeps its value for the draw, sends no heartbeat and a stale
    ``reveal`` every 0.2 s (on the code before: ignored silently, yet it kept his links alive, and
    withholding counted only a peer heard from by heartbeat since the draw began, so the table waited
    for ever). His seat is judged by its value: it counts as away once the value has been missing for
    the wait, and the table takes his bot seat over (wire.md §5.6–5.7); the game ends without him."""
    host, bob, cleo = _table(tmp_path, reveal_wait=0.3, takeover=0.5)
    async with host:
        address = ("127.0.0.1", host.peer.port)  # type: ignore[union-attr]
        bob.dial(*address)
        cleo.dial(*address)
        async with bob, cleo:
            await _all([host, bob, cleo], lambda g: g.session.have >= 9)
            bob_seat = bob.my_seats[0]
            sending = _withhold(bob, heartbeats=False)
            try:
                await _all([host, cleo], lambda g: g.game is not None and g.game.handovers[bob_seat] is not None,
                           timeout=LIMIT * 2)
                await _all([host, cleo], lambda g: g.status == "finished", timeout=LIMIT * 3)
            finally:
                sending.cancel()
    handover = next(m for m in _moves(host) if isinstance(m, HandOver))
    assert handover.seat == bob_seat  # type: ignore[attr-defined]
    later = [m for m in _moves(host)[_moves(host).index(handover):] if isinstance(m, DrawTile)]
    assert later and all(m.values[bob_seat] is None for m in later)


async def test_a_seat_taken_for_withholding_is_not_given_back_when_its_laptop_leaves_and_returns(
    tmp_path: Path,
) -> None:
    """Issue 35 item 3, the price of a veto (wire.md §5.7): Bob's laptop, heard from all along, keeps
    its value; the table takes his seat over. On the code before, Bob quitting and resuming his save
    was enough to have it handed back at his next turn: a veto that cost nothing. Now the seat stays
    the table's bot to the end, whatever he does."""
    host, bob, cleo = _table(tmp_path, reveal_wait=0.3, takeover=0.5)
    async with host:
        address = ("127.0.0.1", host.peer.port)  # type: ignore[union-attr]
        bob.dial(*address)
        cleo.dial(*address)
        async with cleo:
            async with bob:
                await _all([host, bob, cleo], lambda g: g.session.have >= 9)
                bob_seat = bob.my_seats[0]
                _withhold(bob, heartbeats=True)
                await _all([host, cleo], lambda g: g.game is not None and g.game.handovers[bob_seat] is not None,
                           timeout=LIMIT * 2)
            assert bob.path is not None
            back = NetTable.resume(bob.path, listen=LOOP, dial=[address], discovery=False, timing=FAST,
                                   reveal_wait=0.3, takeover=0.5)
            async with back:
                await _all([host, cleo, back], lambda g: g.status == "finished", timeout=LIMIT * 6)
                await _all([host, cleo, back], lambda g: g.session.have == host.session.have)
    log = load(host.path)  # type: ignore[arg-type]
    assert [e.move.seat for e in log.entries if isinstance(e.move, HandOver)] == [bob_seat]  # type: ignore[attr-defined]
    assert not [e for e in log.entries if isinstance(e.move, HandBack)]
    assert log.game.handovers[bob_seat] is not None


async def test_stale_messages_never_keep_a_connection_alive() -> None:
    """wire.md §2.1: only heartbeats keep a connection alive. A player connection that sends the same
    stale ``reveal`` again and again (taken once, then ignored) and no heartbeat is dead after
    :attr:`Timing.dead` all the same: ``bye`` ``timeout``. On the code before, any frame put it off."""
    timing = Timing(handshake=2, heartbeat=0.1, dead=0.6, connect=2, close=1, backoff=(0.05,))
    header = table_header(2)
    async with LoopbackGame(header, timing) as table:
        ann = await table.player("Ann", [0], bots=False)
        raw = await RawClient.open(ann.address)
        await raw.hello("Bob", role="player")
        value = seat_chain(seat_key(1), GAME, 1, Rules().pile_size())[1]

        async def stale() -> None:
            for _ in range(int(3 * LIMIT / 0.05)):  # longer than the test waits
                await raw.send(Reveal(seat=1, draw=1, value=value))
                await asyncio.sleep(0.05)  # the peer's pace, not a synchronisation

        sending = asyncio.create_task(stale())
        try:
            assert await asyncio.wait_for(raw.closed(LIMIT), LIMIT)
        finally:
            sending.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionError, OSError):
                await sending
        assert Bye(reason="timeout") in raw.received
        assert ("sent", "timeout") in [(e.kind, e.code) for e in ann.session.connections.events]
        await raw.aclose()
