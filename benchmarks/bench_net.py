"""LAN replication latency on loopback: the time from a move being made to it being applied on every
other peer (issue 5: targets p99 < 5 ms with 5 player peers, < 50 ms with 1 player peer serving 50
spectators); and the time from a turn's last move being made to the next tile being known on every
peer (issue 14: with table draws at most 5 ms more at p99 than with the seeded order).

``--draws table`` plays games whose tiles the table draws (protocol 2, wire.md §5.7: every peer sends
its chain value once it has admitted the turn's last move, and each peer makes the draw once it holds
them all); ``--draws seed`` the seeded order of games saved under protocol 1, where the tile is known
as soon as the turn's last move arrives. By default the player runs are made both ways. "Next tile
known" is, for each move that ends a turn, the latest time over every peer at which it held the next
tile: with table draws when it appended the draw entry, with the seeded order when it applied the move
(the author knows at once).

Each player peer runs in its own OS process, as on a real LAN; the spectators run in a few worker
processes (``--workers``), each holding many spectator peers on one event loop. "Made" is when the
seat's bot has chosen the move, just before :meth:`SyncSession.submit` signs and sends it; "applied" is
when a peer has checked the entry (signature, turn, legality, digest) and saved it, i.e. when its
persistence hook returns. Both are read from ``time.monotonic_ns()`` (CLOCK_MONOTONIC, one clock for
every process of the machine). A move's latency is the latest "applied" over every other peer minus
"made". Per move, the benchmark's own work is one ``monotonic_ns()`` and one dict store per peer.

Where the peers save the log (``--save``) matters: ``memory`` keeps the entries in a dict, which
measures the network path alone; ``disk`` is what every peer of the app does (``carcnet.table.lan``): a
:class:`~carcnet.net.storage.RecorderLog` checks the entry again on its own copy of the game and writes
it with fsync, before the session relays it. By default both are run.

``--pace MS`` waits that long before each move (a person takes seconds; bots take none): with 0 the
author sends its place and deploy back to back and the second one queues behind the first.

Each line also gives what the figures depend on: ``cpu/move``, the CPU time every peer process spent
between the first move and the last, summed and divided by the moves (the work one move costs the
whole machine); and ``others``, the CPUs that processes outside the benchmark kept busy meanwhile (from
``/proc/stat``, kernel threads included, so the disk's journal too; a memory run with others above
~0.05 was disturbed). The ``floor`` run has no carcnet code in it: one process sends an 8-byte
timestamp to 4 processes waiting in ``select`` on loopback TCP, which is the least any move's trip can
cost on the machine.

    .venv/bin/python benchmarks/bench_net.py                 # the default runs, 3 games each
    .venv/bin/python benchmarks/bench_net.py --only players --pace 0 --save memory --repeat 5
    .venv/bin/python benchmarks/bench_net.py --only spectators --games 5 --workers 5 --pace 50
    .venv/bin/python benchmarks/bench_net.py --inprocess     # every peer on one event loop instead
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import hashlib
import multiprocessing as mp
import os
import selectors
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from carcnet.bots import make_bot
from carcnet.engine import PlaceTile, Rules
from carcnet.log import COLOURS, LogHeader, Seat
from carcnet.net import SeatKey, SignedEntry, WireHeader
from carcnet.net.peer import Peer
from carcnet.net.signing import seat_chain
from carcnet.net.storage import RecorderLog
from carcnet.net.sync import SyncSession
from carcnet.net.transport import Timing

GAME = "be9c4e7a0d3f4c2b8a1e6f5d4c3b2a10"
#: ``"table"`` (table draws, protocol 2) or ``"seed"``; set by :func:`run` before processes fork.
DRAWS = "table"
LIMIT = 120.0
#: A peer may dial one whose process is not listening yet: try again soon rather than after 1 s.
QUICK_RETRY = Timing(backoff=(0.02, 0.05, 0.1, 0.2, 0.5, 1.0))


def seat_key(seat: int) -> SeatKey:
    return SeatKey.from_seed(hashlib.sha256(f"bench seat {seat}".encode()).digest())


def header(players: int, seed: int) -> WireHeader:
    """A game of *players* bot seats: table draws from the seat keys' chains (:data:`DRAWS` ``"table"``,
    then *seed* names the game), or the seeded order."""
    seats = [Seat(f"Bot{i}", COLOURS[i], "bot", "random") for i in range(players)]
    keys = [seat_key(i) for i in range(players)]
    if DRAWS == "table":
        game = hashlib.sha256(f"bench game {seed}".encode()).hexdigest()[:32]
        roots = [seat_chain(k, game, i, Rules().pile_size())[0] for i, k in enumerate(keys)]
        h = LogHeader.new(seats, keys=[k.public for k in keys], commits=roots, created=0, game=game)
        return WireHeader.of(h)
    h = LogHeader.new(seats, seed=seed, created=0, game=GAME)
    return WireHeader(h, tuple(k.public for k in keys))


#: Where the peers save their logs (``--save disk``), or ``None`` (``--save memory``). Set by
#: :func:`main` before the peer processes are forked.
SAVE_TO: str | None = None


class Recorder:
    """Persistence hook that notes when each entry was applied: at once with ``--save memory``; with
    ``--save disk`` once the peer's :class:`RecorderLog` has written it, as every peer of the app does
    (``carcnet.table.lan``, log.md §9) before it passes the entry on: an entry the peer signed is
    fsynced before it is sent; a received one is fsynced by the peer in a worker thread just after."""

    def __init__(self, name: str, header: WireHeader | None = None) -> None:
        self.name = name
        self.applied: dict[int, int] = {}
        self.session: SyncSession | None = None
        self.header = header  # a player's, known before its session is (which may draw at once)
        self.log: RecorderLog | None = None

    def open(self, *_: object) -> None:
        """Creates the log file once the session holds the header, as the app does when a game starts
        (before the first move, so that creating the file is not counted in move 1)."""
        header = self.header or (self.session.header if self.session is not None else None)
        if SAVE_TO is not None and self.log is None and header is not None:
            path = os.path.join(SAVE_TO, f"{self.name}-{os.getpid()}-{id(self):x}.carclog")
            self.log = RecorderLog.create(header, path)

    def on_append(self, signed: SignedEntry) -> None:
        if SAVE_TO is not None:
            self.open()
            assert self.log is not None
            self.log.on_append(signed)
        self.applied[signed.seq] = time.monotonic_ns()

    def sync(self) -> None:
        if self.log is not None:
            self.log.sync()

    def close(self) -> None:
        if self.log is not None:
            self.log.close()


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
    pair=None,
) -> tuple[dict[int, int], dict[int, int], float, list[int]]:
    """Plays *seats* with random bots once *links* connections are open; returns (made, applied, the
    process's CPU seconds from the first move to the last, the seqs of the moves that ended a turn).
    With *pair* (``(role, (mailbox, transit, direct), codes)``), the connection is made by an invite
    code instead (wire.md §2.3): ``invite`` puts its code on the queue *codes*, ``accept`` takes it."""
    recorder = Recorder(name, wh)
    session = SyncSession(
        game=wh.game,
        name=name,
        identity=SeatKey.from_seed(hashlib.sha256(name.encode()).digest()),
        header=wh,
        seats={s: seat_key(s) for s in seats},
        persistence=recorder,
    )
    recorder.session = session
    recorder.open()
    made: dict[int, int] = {}
    ends: list[int] = []
    # Each peer dials the ones listed before it, which makes the whole mesh. Not dialing the addresses
    # welcomes name as well keeps the setup out of the measured moves: with it, a peer sometimes dials
    # one that is dialing it at that moment, and that duplicate (wire.md §2.1) is settled, and logged,
    # during the first moves.
    async with Peer(session, port=port, timing=QUICK_RETRY, dial_learned=False) as peer:
        for other in dial:
            peer.dial("127.0.0.1", other)
        pairing = await _pair(peer, wh, pair) if pair is not None else None
        await peer.wait_until(lambda: len(session.connections.open_links()) >= links, LIMIT)
        await _rendezvous(ready, go, sync_ready)
        cpu = time.process_time()
        bots = {s: make_bot("random", s) for s in seats}
        while not session.over:
            await peer.wait_until(lambda: session.over or session.to_play in bots, LIMIT)
            if session.over:
                break
            if pace:
                await asyncio.sleep(pace)
            game = session.game
            assert game is not None
            move = bots[game.seat].choose(game.view())
            made[session.have + 1] = time.monotonic_ns()
            if not isinstance(move, PlaceTile):
                ends.append(session.have + 1)
            session.submit(move)
            await asyncio.sleep(0)
        cpu = time.process_time() - cpu
        await _rendezvous(None, None, sync_ready)  # keep serving until everyone is done
    if pairing is not None:
        await pairing.close()
    recorder.close()
    return made, recorder.applied, cpu, ends


_STREAMS: set[asyncio.Task[None]] = set()


async def _pair(peer: Peer, wh: WireHeader, pair):
    """The pairing of :func:`run_player`'s *pair*, serving the table's connections (and dialing
    through it, for the side that typed the code)."""
    from carcnet.net import invite

    role, (mailbox, transit, direct), codes = pair
    servers = invite.Servers(mailbox, transit, direct)
    if role == "invite":
        pairing = await invite.invite(servers, invite.About(wh.game), on_code=codes.put)
    else:
        pairing = await invite.accept(servers, await asyncio.to_thread(codes.get, True, LIMIT))

    def spawn(stream) -> None:
        task = asyncio.ensure_future(stream)
        _STREAMS.add(task)
        task.add_done_callback(_STREAMS.discard)

    await pairing.serve(peer.take, spawn)
    if role != "invite":
        peer.dial_over("pairing", pairing.open)
    return pairing


async def run_spectators(
    names: Sequence[str], port: int, sync_ready=None, game: str = GAME
) -> tuple[list[dict[int, int]], float]:
    """Watches with one spectator peer per name until the game is over; returns each one's applied and
    the process's CPU seconds from the first move to the last."""
    recorders = [Recorder(name) for name in names]
    async with contextlib.AsyncExitStack() as stack:
        peers = []
        for name, recorder in zip(names, recorders, strict=True):
            session = SyncSession(
                game=game,
                name=name,
                role="spectator",
                identity=SeatKey.from_seed(hashlib.sha256(name.encode()).digest()),
                persistence=recorder,
            )
            recorder.session = session
            session.add_listener(recorder.open)  # creates the file when the welcome brings the header
            stack.callback(recorder.close)
            peer = await stack.enter_async_context(Peer(session, listen=False, timing=Timing()))
            peer.dial("127.0.0.1", port)
            peers.append(peer)
        for peer in peers:
            await peer.wait_until(lambda p=peer: bool(p.session.connections.open_links()), LIMIT)
        await _rendezvous(None, None, sync_ready)
        cpu = time.process_time()
        for peer in peers:
            await peer.wait_until(lambda p=peer: p.session.over, LIMIT)
        cpu = time.process_time() - cpu
        await _rendezvous(None, None, sync_ready)
    return [r.applied for r in recorders], cpu


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


def _spectator_process(names, port, barrier, game, queue) -> None:
    queue.put(asyncio.run(run_spectators(names, port, barrier, game)))


@dataclass
class Result:
    """What one run measured: a latency per move (ms), and the CPU the peers spent on them."""

    samples: list[float] = field(default_factory=list)
    cpu: float = 0.0  # seconds, every peer process, from the first move to the last
    moves: int = 0
    #: Per move that ended a turn: ms until every peer knew the next tile.
    tiles: list[float] = field(default_factory=list)

    def add(self, samples: list[float], cpu: float, tiles: Sequence[float] = ()) -> None:
        self.samples += samples
        self.cpu += cpu
        self.moves += len(samples)
        self.tiles += tiles


def _run_all(procs: list, queue) -> list:
    """Starts *procs*, and returns what each put on *queue* once all of them ended."""
    for p in procs:
        p.start()
    results = [queue.get(timeout=LIMIT) for _ in procs]
    for p in procs:
        p.join(LIMIT)
    return results


def game_in_processes(players: int, spectators: int, workers: int, seed: int, pace: float, result: Result):
    """Plays one game; adds its latencies (ms, one per move) and its CPU time to *result*."""
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
            ctx.Process(target=_spectator_process, args=([f"Spec{i}" for i in g], port, barrier, wh.game, queue))
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
    results = _run_all(procs, queue)
    made: dict[int, int] = {}
    applied: list = []
    ends: list[int] = []
    cpu = 0.0
    for got in results:
        if len(got) == 4:  # a player: (made, applied, cpu, ends)
            m, a, c, e = got
            made.update(m)
            applied.append((m, a))
            ends += e
        else:  # a spectator worker: (each one's applied, cpu)
            views, c = got
            applied.extend(({}, a) for a in views)
        cpu += c
    result.add(latencies(made, applied), cpu, tile_latencies(made, ends, applied))


# ---------------------------------------------------------------------- across homes (invite codes)

#: The paths of ``--only invite``, alternated game by game: plain TCP between the two player
#: processes, then a pairing made by an invite code with the direct path offered, then one with the
#: transit relay as the only path (wire.md §2.3).
INVITE_PATHS = ("tcp", "pairing, direct", "pairing, relay")


@contextlib.contextmanager
def wormhole_servers():
    """magic-wormhole's mailbox server and transit relay in a process of their own (the test suite's
    ``tests.net.wormhole_servers``); yields ``(mailbox_url, transit_endpoint)``."""
    import subprocess

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    proc = subprocess.Popen([sys.executable, "-m", "tests.net.wormhole_servers"], cwd=root,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        mailbox, transit = proc.stdout.readline().split()
        yield mailbox, transit
    finally:
        proc.kill()
        proc.wait()


def game_over_pairing(path: str, servers: tuple[str, str], seed: int, pace: float, result: Result) -> None:
    """One game of two player processes joined by *path* (:data:`INVITE_PATHS`); adds its latencies."""
    ctx = mp.get_context("fork")
    wh = header(2, seed)
    queue, codes = ctx.Queue(), ctx.Queue()
    barrier = ctx.Barrier(2)
    ports = free_ports(2)
    pairs = [None, None]
    if path != "tcp":
        where = (*servers, path.endswith("direct"))
        pairs = [("invite", where, codes), ("accept", where, codes)]
    dials = [[], [ports[0]] if path == "tcp" else []]
    procs = [
        ctx.Process(target=_player_process,
                    args=((f"P{i}", wh, [i], ports[i], dials[i], 1, pace / 1000, None, None, barrier, pairs[i]), queue))
        for i in range(2)
    ]
    results = _run_all(procs, queue)
    made: dict[int, int] = {}
    for m, _, _, _ in results:
        made.update(m)
    result.add(latencies(made, [(m, a) for m, a, _, _ in results]), sum(c for _, _, c, _ in results))


def relay_round_trips(transit: str, rounds: int) -> list[float]:
    """Round trips (ms) of 8 bytes through the transit relay alone: two sockets that it joins by one
    token (its own handshake, ``please relay TOKEN for side SIDE``), one echoing the other's bytes."""
    host, port = transit.split(":")[1:]
    token = os.urandom(32).hex()
    ends = [socket.create_connection((host, int(port))) for _ in range(2)]
    try:
        for end in ends:
            end.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            end.sendall(f"please relay {token} for side {os.urandom(8).hex()}\n".encode())
        for end in ends:
            assert end.recv(3) == b"ok\n"
        out = []
        for _ in range(rounds):
            t0 = time.perf_counter_ns()
            ends[0].sendall(b"x" * 8)
            got = b""
            while len(got) < 8:
                got += ends[1].recv(8 - len(got))
            ends[1].sendall(got)
            back = b""
            while len(back) < 8:
                back += ends[0].recv(8 - len(back))
            out.append((time.perf_counter_ns() - t0) / 1e6)
        return out
    finally:
        for end in ends:
            end.close()


def run_invite(args: argparse.Namespace, pace: float) -> str:
    """``--only invite``: the paths of :data:`INVITE_PATHS` alternated game by game, then the relay's
    own round trip, and the issue's bar: p99 over the relay within 2x direct TCP plus the relay's
    round trip."""
    global SAVE_TO, DRAWS
    SAVE_TO, DRAWS = None, "table"
    results = {path: Result() for path in INVITE_PATHS}
    with wormhole_servers() as servers:
        for game in range(args.games):
            for path in INVITE_PATHS:
                game_over_pairing(path, servers, 1000 + game, pace, results[path])
        rtt = relay_round_trips(servers[1], 1000)
    lines = [summary(f"2 player peers, {path}, memory, table, pace {pace:g} ms", r.samples)
             + f"  cpu/move {1e6 * r.cpu / max(r.moves, 1):5.0f} us" for path, r in results.items()]
    lines.append(summary("the transit relay alone: 8 bytes there and back", rtt))
    p99 = {path: _p99(r.samples) for path, r in results.items()}
    bar = 2 * p99["tcp"] + _p99(rtt)
    lines.append(f"p99 over the relay {p99['pairing, relay']:.2f} ms; the bar (2 x direct TCP + the relay's round trip) "
                 f"{bar:.2f} ms: {'within' if p99['pairing, relay'] <= bar else 'OVER'}")
    return "\n".join(lines)


def _p99(samples: list[float]) -> float:
    """The 99th percentile as :func:`summary` gives it."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def latencies(made: dict[int, int], peers: list) -> list[float]:
    out = []
    for seq, t0 in made.items():
        others = [a[seq] for m, a in peers if seq not in m]
        out.append((max(others) - t0) / 1e6)
    return out


def tile_latencies(made: dict[int, int], ends: Sequence[int], peers: list) -> list[float]:
    """For each move that ended a turn: ms until every peer held the next tile (see the module)."""
    out = []
    for seq in sorted(ends):
        if DRAWS == "table":
            times = [a.get(seq + 1) for _, a in peers]  # the draw entry, made by every peer itself
        else:
            times = [a.get(seq) for m, a in peers if seq not in m]
        if None in times or not times:
            continue  # the game's last move: no tile follows
        out.append((max(times) - made[seq]) / 1e6)  # type: ignore[type-var]
    return out


async def game_in_process(players: int, spectators: int, seed: int, pace: float) -> tuple[list[float], float]:
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
            run_spectators_inprocess([f"Spec{i}" for i in range(spectators)], port, readies[1], go, wh.game)
        )
        await asyncio.gather(*readies)
        go.set_result(None)
        cpu = time.process_time()
        (made, applied, _, _), views = await asyncio.gather(host, watch)
        return latencies(made, [(made, applied), *(({}, v) for v in views)]), time.process_time() - cpu
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
    cpu = time.process_time()
    results = await asyncio.gather(*tasks)
    cpu = time.process_time() - cpu
    made = {}
    for m, _, _, _ in results:
        made.update(m)
    return latencies(made, [(m, a) for m, a, _, _ in results]), cpu


async def run_spectators_inprocess(names, port, ready, go, game: str = GAME) -> list[dict[int, int]]:
    recorders = [Recorder(name) for name in names]
    async with contextlib.AsyncExitStack() as stack:
        peers = []
        for name, recorder in zip(names, recorders, strict=True):
            session = SyncSession(game=game, name=name, role="spectator", persistence=recorder)
            recorder.session = session
            session.add_listener(recorder.open)  # creates the file when the welcome brings the header
            stack.callback(recorder.close)
            peer = await stack.enter_async_context(Peer(session, listen=False))
            peer.dial("127.0.0.1", port)
            peers.append(peer)
        for peer in peers:
            await peer.wait_until(lambda p=peer: bool(p.session.connections.open_links()), LIMIT)
        ready.set_result(None)
        await go
        for peer in peers:
            await peer.wait_until(lambda p=peer: p.session.over, LIMIT)
    return [r.applied for r in recorders]


# ---------------------------------------------------------------------- the machine's floor


def _floor_receiver(port: int, rounds: int, queue) -> None:
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        selector = selectors.DefaultSelector()
        selector.register(sock, selectors.EVENT_READ)
        arrived: list[int] = []
        pending = b""
        while len(arrived) < rounds:
            selector.select()
            data = sock.recv(1 << 16)
            now = time.monotonic_ns()
            if not data:
                break
            pending += data
            while len(pending) >= 8:
                arrived.append(now - int.from_bytes(pending[:8], "big"))
                pending = pending[8:]
    queue.put(arrived)


def floor(receivers: int, rounds: int, pace: float, result: Result) -> None:
    """The machine's floor, without carcnet: one process sends an 8-byte timestamp to *receivers*
    processes waiting in ``select``, *rounds* times, *pace* seconds apart; a round's latency is the
    latest arrival."""
    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        procs = [ctx.Process(target=_floor_receiver, args=(port, rounds, queue)) for _ in range(receivers)]
        for proc in procs:
            proc.start()
        conns = [server.accept()[0] for _ in procs]
    try:
        for conn in conns:
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for _ in range(rounds):
            time.sleep(pace)
            stamp = time.monotonic_ns().to_bytes(8, "big")
            for conn in conns:
                conn.sendall(stamp)
        arrivals = [queue.get(timeout=LIMIT) for _ in procs]
    finally:
        for conn in conns:
            conn.close()
        for proc in procs:
            proc.join(LIMIT)
    result.add([max(each[r] for each in arrivals) / 1e6 for r in range(rounds)], 0.0)


# ---------------------------------------------------------------------- the report


def summary(label: str, samples: list[float]) -> str:
    ordered = sorted(samples)

    def rank(q: float) -> float:
        return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]

    return (
        f"{label:<52} moves {len(samples):4d}  median {statistics.median(samples):6.3f}  "
        f"p90 {rank(0.90):6.3f}  p99 {rank(0.99):6.3f}  max {ordered[-1]:6.3f} ms"
    )


def _busy_seconds() -> float | None:
    """CPU seconds the whole machine has spent in processes since boot, or given to other virtual
    machines (steal), on Linux; else ``None``. Interrupts are left out: loopback traffic is handled
    there, the benchmark's own included."""
    try:
        with open("/proc/stat") as stat:
            fields = stat.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    user, nice, system, _idle, _iowait, _irq, _softirq, steal = map(int, fields[1:9])
    return (user + nice + system + steal) / os.sysconf("SC_CLK_TCK")


def _own_seconds() -> float:
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


#: The default runs: (scenario, pace in ms, where the logs are saved). Bots flat out measure a burst (a
#: seat's place and deploy 0.1 ms apart, the next seat moving the moment its turn arrives); paced moves
#: measure one move's trip. "memory" measures the network path alone; "disk" is what the app does.
DEFAULT_RUNS = (
    ("players", 0.0, "memory"),
    ("players", 5.0, "memory"),
    ("spectators", 20.0, "memory"),
    ("players", 0.0, "disk"),
    ("players", 5.0, "disk"),
    ("spectators", 20.0, "disk"),
    ("floor", 5.0, "memory"),
)


def run(scenario: str, pace: float, save: str, directory: str, args: argparse.Namespace, draws: str = "table") -> str:
    """One run of *scenario* (``--games`` games) with *draws*, as lines of the report."""
    global SAVE_TO, DRAWS
    SAVE_TO = directory if save == "disk" else None  # before the peer processes are forked
    DRAWS = draws
    result = Result()
    spectators = args.spectators if scenario == "spectators" else 0
    busy, own, started = _busy_seconds(), _own_seconds(), time.perf_counter()
    if scenario == "floor":
        floor(args.players - 1, 142 * args.games, pace / 1000, result)
        label = f"floor: 8 bytes to {args.players - 1} processes"
    else:
        for game in range(args.games):
            if args.inprocess:
                # The games before this one left ~20,000 objects in reference cycles: collect them now,
                # or the full collection they bring about (~40 ms) lands on one of this game's moves.
                gc.collect()
                samples, cpu = asyncio.run(game_in_process(args.players, spectators, 1000 + game, pace))
                result.add(samples, cpu)
            else:
                game_in_processes(args.players, spectators, args.workers, 1000 + game, pace, result)
        if spectators:
            where = "" if args.inprocess else f" ({min(args.workers, spectators)} procs)"
            label = f"1 player, {spectators} spectators{where}"
        else:
            label = f"{args.players} player peers"
        label += f", {save}, {draws}"
    wall = time.perf_counter() - started
    line = summary(f"{label}, pace {pace:g} ms", result.samples)
    if result.cpu:
        line += f"  cpu/move {1e6 * result.cpu / result.moves:5.0f} us"
    if busy is not None:
        others = max(0.0, (_busy_seconds() or busy) - busy - (_own_seconds() - own))
        line += f"  others {others / wall:4.2f}"
    line += f"  ({wall:.1f} s)"
    if result.tiles:
        line += "\n" + summary("  ... turn's last move -> next tile known on every peer", result.tiles)
    return line


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games per run (default 3)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each scenario (default 1)")
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
        help="ms to wait before each move, for every run (default: players at 0 and at 5, spectators at "
        "20, floor at 5)",
    )
    parser.add_argument(
        "--save",
        choices=("memory", "disk"),
        default=None,
        help="where the peers save the log, for every run: memory, or disk as the app does (checked again "
        "by the log recorder and written with fsync, in a temporary directory); default: both",
    )
    parser.add_argument("--inprocess", action="store_true", help="every peer on one event loop")
    parser.add_argument(
        "--draws", choices=("table", "seed"), default=None,
        help="table draws (protocol 2) or the seeded order; default: player runs both ways, others table",
    )
    parser.add_argument("--only", choices=("players", "spectators", "floor", "invite"),
                        help="run one scenario (invite: across homes, by invite codes, with the internet extra; "
                        "not run by default)")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"carcnet LAN latency, move made -> applied on every other peer; {os.cpu_count()} CPUs "
        f"(load {load:.2f}), Python {sys.version.split()[0]}, "
        f"{'every peer in one process' if args.inprocess else 'one process per player peer'}"
    )
    if args.only == "invite":
        print(run_invite(args, args.pace if args.pace is not None else 5.0), flush=True)
        return 0
    runs = [run for run in DEFAULT_RUNS if args.only in (None, run[0])]
    if args.pace is not None:
        runs = [(scenario, args.pace, save) for scenario, _, save in runs]
    if args.save is not None:
        runs = [(scenario, pace, args.save) for scenario, pace, _ in runs]
    with tempfile.TemporaryDirectory(prefix="carcnet-bench-") as directory:
        for scenario, pace, save in dict.fromkeys(runs):
            ways = [args.draws] if args.draws else (["seed", "table"] if scenario == "players" else ["table"])
            for draws in ways:
                for _ in range(args.repeat):
                    print(run(scenario, pace, save, directory, args, draws), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
