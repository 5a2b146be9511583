"""A cheater at a table of two, on loopback (wire.md §5.6, §5.7, §5.9; docs/security.md): one seat's
laptop is modified, the other honest. Its seat key is ground below the honest seat's (a laptop picks its
own key: trying keys until one is lower takes a few tries), so that no tie order that follows the keys
can favour the honest seat. Neither cheat decides the game:

- it hands the honest seat, present and playing, to a bot while the table draws: the honest laptop
  never takes it, and the game ends with every seat its own and one log at both laptops;
- it never sends a vote of its seat: every move of the honest laptop is committed by the end of the
  game all the same (at three seats too, where the two honest seats are most of the table anyway).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path

import pytest

from carcnet.engine import DrawTile, HandOver, Phase, Rules
from carcnet.net.link import Link
from carcnet.net.signing import SeatKey
from carcnet.table import NetTable, plan_from_text

from .loopback import FAST, LIMIT, counter_random, until

pytestmark = pytest.mark.asyncio

LOOP = ("127.0.0.1", 0)


def _ground(below: bytes) -> tuple[str, Callable[[int], bytes]]:
    """Grinds a laptop's random source until the seat key it makes (its first 32 bytes) is below
    *below*: the label tried and the source."""
    for n in range(4096):
        label = f"Mallory {n}"
        if SeatKey.from_seed(counter_random(label)(32)).public < below:
            return label, counter_random(label)
    raise AssertionError("no key found below it")  # about one try in two suffices for a random key


def _table(tmp_path: Path, players: int) -> tuple[NetTable, list[NetTable], NetTable]:
    """Ann opens a table of *players* seats (her random bot, the rest open); honest Bobs sit down
    with random bots at all seats but the last, and Mallory, whose key is ground below every other
    seat's, at the last."""
    host_random = counter_random("Ann")
    ann_seat_key = SeatKey.from_seed(counter_random("Ann")(32 * 3)[64:]).public  # her identity, the nonce, her bot
    host = NetTable.host(
        name="Ann", game_name="Cheat", rules=Rules(), plan=plan_from_text(",".join(["random"] + ["open"] * (players - 1)),
                                                                          me="Ann"),
        directory=tmp_path / "Ann", listen=LOOP, discovery=False, timing=FAST, random=host_random,
    )
    honest = [NetTable.join(host.game_id, name=f"Bob{i}", bot="random", bot_delay=0.005, directory=tmp_path / f"Bob{i}",
                            listen=LOOP, discovery=False, timing=FAST, random=counter_random(f"Bob{i}"))
              for i in range(players - 2)]
    honest_keys = [SeatKey.from_seed(counter_random(f"Bob{i}")(32)).public for i in range(players - 2)]
    _label, ground = _ground(min([ann_seat_key, *honest_keys]))
    mallory = NetTable.join(host.game_id, name="Mallory", bot="random", bot_delay=0.005, directory=tmp_path / "Mallory",
                            listen=LOOP, discovery=False, timing=FAST, random=ground)
    return host, honest, mallory


def _moves(table: NetTable) -> list[object]:
    return [e.entry.move for e in table.session.entries]


async def _all(games: list[NetTable], predicate, timeout: float = LIMIT * 3) -> None:
    await until([g.peer for g in games], lambda: all(predicate(g) for g in games), timeout)  # type: ignore[misc]


def _check_keys(host: NetTable, mallory: NetTable) -> None:
    """The test's premise: Mallory's seat key is the lowest of the table's."""
    header = host.session.header
    assert header is not None
    keys = header.keys
    (seat,) = mallory.my_seats
    assert keys[seat] == min(keys), "Mallory's key was ground below every other seat's"


async def test_a_ground_key_cannot_hand_the_present_honest_seat_to_a_bot(tmp_path: Path) -> None:
    """At two seats Mallory hands Ann's seat, whose laptop is connected and plays, to a bot at each
    of the next draws the moment it begins. Ann's laptop never takes it: her log holds no handover,
    every draw is made with both seats' values, every move of hers is committed by the end, and the
    game ends at both laptops with one log (Mallory's laptop sets its handovers aside)."""
    host, _honest, mallory = _table(tmp_path, 2)
    tries: list[int] = []

    def cheat() -> None:
        game, session = mallory.session.game, mallory.session
        if game is None or game.phase is not Phase.DRAW or len(tries) >= 4:
            return
        mine = next(iter(session.seats))
        victim = 1 - mine
        if game.handovers[victim] is not None:
            return
        tries.append(victim)
        with contextlib.suppress(Exception):  # a handover its own log cannot take any more
            session.submit(HandOver(victim, "greedy", mine))

    def on_change(change: str, _link: Link | None) -> None:
        game = mallory.session.game
        if change == "entry" and game is not None and game.phase is Phase.DRAW and mallory.session.have >= 6:
            asyncio.get_running_loop().call_soon(cheat)

    async with host:
        mallory.dial("127.0.0.1", host.peer.port)  # type: ignore[union-attr]
        async with mallory:
            await _all([host, mallory], lambda g: g.session.have >= 4)
            _check_keys(host, mallory)
            mallory.session.add_listener(on_change)
            try:
                await _all([host], lambda g: g.status == "finished", timeout=LIMIT * 6)
            except TimeoutError:
                raise AssertionError(f"Ann's game does not end: {_state(host, mallory)}") from None
            with contextlib.suppress(TimeoutError):  # judged below, with what each laptop holds
                await _all([host, mallory], lambda g: g.pending == 0 and g.status == "finished"
                           and g.session.digest == host.session.digest, timeout=LIMIT * 3)
            state = _state(host, mallory)
            pending, same = host.pending, mallory.session.digest == host.session.digest
    assert tries, "Mallory tried"
    assert not pending, f"Ann ends the game with {pending} of her moves pending\n{state}"
    assert same, f"Mallory's laptop does not end with Ann's log\n{state}"
    handovers = [m for m in _moves(host) if isinstance(m, HandOver)]
    assert not handovers, f"Ann's present seat was handed over: {handovers}"
    draws = [m for m in _moves(host) if isinstance(m, DrawTile)]
    assert draws and all(None not in m.values for m in draws), "every draw made with both seats' values"
    assert host.session.digest == mallory.session.digest
    assert host.path.read_bytes() == mallory.path.read_bytes()  # type: ignore[union-attr]


def _state(*tables: NetTable) -> str:
    """What a failure shows of *tables*: each one's entries, status, moves pending and last notes."""
    return "\n".join(f"{t.session.name}: {t.session.have} entries, {t.status}, {t.pending} pending, "
                     f"digest {t.session.digest.hex()[:12]}; notes {t.notes[-6:]}" for t in tables)


def _never_vote(table: NetTable) -> None:
    """*table*'s laptop casts no vote of its seat from now on (it still plays and passes on the others')."""
    replica = table.session.replica
    replica.vote = lambda keys: []  # type: ignore[method-assign]


@pytest.mark.parametrize("players", [2, 3])
async def test_a_seat_that_never_votes_leaves_no_honest_move_pending(tmp_path: Path, players: int) -> None:
    """Mallory's laptop, its key ground below Ann's seat's, plays its seat and never sends a vote of
    it. By the end of the game every move of the honest laptops is committed: none of them ends with
    moves pending (on the code before, at two seats, all of Ann's stayed so to the end)."""
    host, honest, mallory = _table(tmp_path, players)
    async with host:
        for table in (*honest, mallory):
            table.dial("127.0.0.1", host.peer.port)  # type: ignore[union-attr]
        async with contextlib.AsyncExitStack() as stack:
            for table in (*honest, mallory):
                await stack.enter_async_context(table)
            everyone = [host, *honest, mallory]
            await _all(everyone, lambda g: g.session.header is not None and g.session.replica.votes is not None)
            _check_keys(host, mallory)
            _never_vote(mallory)
            await _all([host, *honest], lambda g: g.status == "finished", timeout=LIMIT * 6)
            try:
                await _all([host, *honest], lambda g: g.pending == 0, timeout=LIMIT * 2)
            except TimeoutError:
                pass
            pending = {t.session.name: t.pending for t in (host, *honest)}
    assert not any(pending.values()), f"moves left pending at the end of the game: {pending}"
