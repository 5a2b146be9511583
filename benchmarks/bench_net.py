"""LAN replication latency on loopback: the time from a move being made to it being applied on every
other peer (issue 5: targets p99 < 5 ms with 5 player peers, < 50 ms with 1 player peer serving 50
spectators).

Each player peer runs in its own OS process, as on a real LAN; the spectators run in a few worker
processes (``--workers``), each holding many spectator peers on one event loop. "Made" is when the
seat's bot has chosen the move, just before :meth:`SyncSession.submit` signs and sends it; "applied" is
when a peer has checked the entry (signature, turn, legality, digest) and appended it, i.e. when its
persistence hook runs. Both are read from ``time.monotonic_ns()`` (CLOCK_MONOTONIC, one clock for every
process of the machine). A move's latency is the latest "applied" over every other peer minus "made".

``--pace MS`` waits that long before each move (a person takes seconds; bots take none): with 0 the
author sends its place and deploy back to back and the second one queues behind the first.

    .venv/bin/python benchmarks/bench_net.py                 # the three default runs, 3 games each
    .venv/bin/python benchmarks/bench_net.py --only spectators --games 5 --workers 5 --pace 50
    .venv/bin/python benchmarks/bench_net.py --inprocess     # every peer on one event loop instead
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import multiprocessing as mp
import os
import socket
import statistics
import sys
import time
from collections.abc import Sequence

from carcnet.bots import make_bot
from carcnet.log import COLOURS, LogHeader, Seat
from carcnet.net import SeatKey, SignedEntry, WireHeader
from carcnet.net.peer import Peer
from carcnet.net.sync import SyncSession
from carcnet.net.transport import Timing

GAME = "be9c4e7a0d3f4c2b8a1e6f5d4c3b2a10"
LIMIT = 120.0


def seat_key(seat: int) -> SeatKey:
    return SeatKey.from_seed(hashlib.sha256(f"bench seat {seat}".encode()).digest())


def header(players: int, seed: int) -> WireHeader:
    seats = [Seat(f"Bot{i}", COLOURS[i], "bot", "random") for i in range(players)]
    h = LogHeader.new(seats, seed=seed, created=0, game=GAME)
    return WireHeader(h, tuple(seat_key(i).public for i in range(players)))


class Recorder:
    """Persistence hook that notes when each entry was applied."""

    def __init__(self) -> None:
        self.applied: dict[int, int] = {}

    def on_append(self, signed: SignedEntry) -> None:
        self.applied[signed.seq] = time.monotonic_ns()


def free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


# ---------------------------------------------------------------------- one peer's part


async def run_player(
    name: str,
    wh: WireHeader,
    seats: Sequence[int],
    port: int,
    dial: Sequence[int],
    links: int,
    pace: float,
    ready: asyncio.Future[None] | None,
    go: asyncio.Future[None] | None,
    sync_ready=None,
) -> tuple[dict[int, int], dict[int, int]]:
    """Plays *seats* with random bots once *links* connections are open; returns (made, applied)."""
    recorder = Recorder()
    session = SyncSession(
        game=GAME,
        name=name,
        identity=SeatKey.from_seed(hashlib.sha256(name.encode()).digest()),
        header=wh,
        seats={s: seat_key(s) for s in seats},
        persistence=recorder,
    )
    made: dict[int, int] = {}
    async with Peer(session, port=port, timing=Timing()) as peer:
        for other in dial:
            peer.dial("127.0.0.1", other)
        await peer.wait_until(lambda: len(session.open_links()) >= links, LIMIT)
        await _rendezvous(ready, go, sync_ready)
        bots = {s: make_bot("random", s) for s in seats}
        while not session.over:
            await peer.wait_until(lambda: session.over or session.to_play in bots, LIMIT)
            if session.over:
                break
            if pace:
                await asyncio.sleep(pace)
            game = session.game
            assert game is not None
            move = bots[game.seat].choose(game)
            made[session.have + 1] = time.monotonic_ns()
            session.submit(move)
            await asyncio.sleep(0)
        await _rendezvous(None, None, sync_ready)  # keep serving until everyone is done
    return made, recorder.applied


async def run_spectators(names: Sequence[str], port: int, sync_ready=None) -> list[dict[int, int]]:
    """Watches with one spectator peer per name until the game is over; returns each one's applied."""
    recorders = [Recorder() for _ in names]
    async with contextlib.AsyncExitStack() as stack:
        peers = []
        for name, recorder in zip(names, recorders, strict=True):
            session = SyncSession(
                game=GAME,
                name=name,
                role="spectator",
                identity=SeatKey.from_seed(hashlib.sha256(name.encode()).digest()),
                persistence=recorder,
            )
            peer = await stack.enter_async_context(Peer(session, listen=False, timing=Timing()))
            peer.dial("127.0.0.1", port)
            peers.append(peer)
        for peer in peers:
            await peer.wait_until(lambda p=peer: bool(p.session.open_links()), LIMIT)
        await _rendezvous(None, None, sync_ready)
        for peer in peers:
            await peer.wait_until(lambda p=peer: p.session.over, LIMIT)
        await _rendezvous(None, None, sync_ready)
    return [r.applied for r in recorders]


async def _rendezvous(ready, go, barrier) -> None:
    if barrier is not None:
        await asyncio.to_thread(barrier.wait, LIMIT)
    if ready is not None and not ready.done():
        ready.set_result(None)
    if go is not None:
        await go


# ---------------------------------------------------------------------- processes


def _player_process(args, queue) -> None:
    queue.put(asyncio.run(run_player(*args)))


def _spectator_process(names, port, barrier, queue) -> None:
    queue.put(asyncio.run(run_spectators(names, port, barrier)))


def game_in_processes(players: int, spectators: int, workers: int, seed: int, pace: float):
    """One game; returns the latencies in ms, one per move."""
    ctx = mp.get_context("fork")
    wh = header(2 if spectators else players, seed)
    queue = ctx.Queue()
    if spectators:
        port = free_ports(1)[0]
        groups = [list(range(i, spectators, workers)) for i in range(min(workers, spectators))]
        barrier = ctx.Barrier(1 + len(groups))
        procs = [
            ctx.Process(
                target=_player_process,
                args=(("Host", wh, [0, 1], port, [], spectators, pace / 1000, None, None, barrier), queue),
            )
        ]
        procs += [
            ctx.Process(target=_spectator_process, args=([f"Spec{i}" for i in g], port, barrier, queue))
            for g in groups
        ]
    else:
        ports = free_ports(players)
        barrier = ctx.Barrier(players)
        procs = [
            ctx.Process(
                target=_player_process,
                args=(
                    (f"P{i}", wh, [i], ports[i], ports[:i], players - 1, pace / 1000, None, None, barrier),
                    queue,
                ),
            )
            for i in range(players)
        ]
    for p in procs:
        p.start()
    results = [queue.get(timeout=LIMIT) for _ in procs]
    for p in procs:
        p.join(LIMIT)
    made: dict[int, int] = {}
    applied: list[dict[int, int]] = []
    for result in results:
        if isinstance(result, tuple):
            m, a = result
            made.update(m)
            applied.append((m, a))  # type: ignore[arg-type]
        else:
            applied.extend(({}, a) for a in result)  # type: ignore[misc]
    return latencies(made, applied)


def latencies(made: dict[int, int], peers: list) -> list[float]:
    out = []
    for seq, t0 in made.items():
        others = [a[seq] for m, a in peers if seq not in m]
        out.append((max(others) - t0) / 1e6)
    return out


async def game_in_process(players: int, spectators: int, seed: int, pace: float) -> list[float]:
    wh = header(2 if spectators else players, seed)
    loop = asyncio.get_running_loop()
    if spectators:
        readies = [loop.create_future() for _ in range(2)]
        go = loop.create_future()
        port = free_ports(1)[0]
        host = asyncio.ensure_future(
            run_player("Host", wh, [0, 1], port, [], spectators, pace / 1000, readies[0], go)
        )
        watch = asyncio.ensure_future(
            run_spectators_inprocess([f"Spec{i}" for i in range(spectators)], port, readies[1], go)
        )
        await asyncio.gather(*readies)
        go.set_result(None)
        (made, applied), views = await asyncio.gather(host, watch)
        return latencies(made, [(made, applied), *(({}, v) for v in views)])
    ports = free_ports(players)
    readies = [loop.create_future() for _ in range(players)]
    go = loop.create_future()
    tasks = [
        asyncio.ensure_future(
            run_player(f"P{i}", wh, [i], ports[i], ports[:i], players - 1, pace / 1000, readies[i], go)
        )
        for i in range(players)
    ]
    await asyncio.gather(*readies)
    go.set_result(None)
    results = await asyncio.gather(*tasks)
    made = {}
    for m, _ in results:
        made.update(m)
    return latencies(made, list(results))


async def run_spectators_inprocess(names, port, ready, go) -> list[dict[int, int]]:
    recorders = [Recorder() for _ in names]
    async with contextlib.AsyncExitStack() as stack:
        peers = []
        for name, recorder in zip(names, recorders, strict=True):
            session = SyncSession(game=GAME, name=name, role="spectator", persistence=recorder)
            peer = await stack.enter_async_context(Peer(session, listen=False))
            peer.dial("127.0.0.1", port)
            peers.append(peer)
        for peer in peers:
            await peer.wait_until(lambda p=peer: bool(p.session.open_links()), LIMIT)
        ready.set_result(None)
        await go
        for peer in peers:
            await peer.wait_until(lambda p=peer: p.session.over, LIMIT)
    return [r.applied for r in recorders]


def summary(label: str, samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return (
        f"{label:<52} moves {len(samples):4d}  median {statistics.median(samples):7.3f} ms  "
        f"p99 {p99:7.3f} ms  max {ordered[-1]:7.3f} ms"
    )


#: The default runs: (scenario, pace in ms). Bots flat out measure a burst (a seat's place and deploy
#: 0.1 ms apart, the next seat moving the moment its turn arrives); paced moves measure one move's trip.
DEFAULT_RUNS = (("players", 0.0), ("players", 5.0), ("spectators", 20.0))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games per run (default 3)")
    parser.add_argument(
        "--players", type=int, default=5, help="player peers of the first scenario (default 5)"
    )
    parser.add_argument(
        "--spectators", type=int, default=50, help="spectators of the second scenario (default 50)"
    )
    parser.add_argument("--workers", type=int, default=5, help="processes the spectators run in (default 5)")
    parser.add_argument(
        "--pace",
        type=float,
        default=None,
        help="ms to wait before each move, for every run (default: players at 0 and at 5, spectators at 20)",
    )
    parser.add_argument("--inprocess", action="store_true", help="every peer on one event loop")
    parser.add_argument("--only", choices=("players", "spectators"), help="run one scenario")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"carcnet LAN latency, move made -> applied on every other peer; {os.cpu_count()} CPUs "
        f"(load {load:.2f}), Python {sys.version.split()[0]}, "
        f"{'every peer in one process' if args.inprocess else 'one process per player peer'}"
    )
    runs = [(scenario, pace) for scenario, pace in DEFAULT_RUNS if args.only in (None, scenario)]
    if args.pace is not None:
        runs = list(dict.fromkeys((scenario, args.pace) for scenario, _ in runs))
    for scenario, pace in runs:
        spectators = args.spectators if scenario == "spectators" else 0
        samples: list[float] = []
        started = time.perf_counter()
        for game in range(args.games):
            if args.inprocess:
                samples += asyncio.run(game_in_process(args.players, spectators, 1000 + game, pace))
            else:
                samples += game_in_processes(args.players, spectators, args.workers, 1000 + game, pace)
        if spectators:
            where = "" if args.inprocess else f" in {min(args.workers, spectators)} procs"
            label = f"1 player peer, {spectators} spectators{where}"
        else:
            label = f"{args.players} player peers"
        print(summary(f"{label}, pace {pace:g} ms", samples) + f"  ({time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
