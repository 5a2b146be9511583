"""The table under attack (issue 13): a paced game between three honest player peers, each in its own
process on loopback, while an attacker process spoils one of them (P0) the ways issue 13 found.
Prints, per attack beside the no-attack baseline: the honest move latency (made -> applied on every
other peer, median and p99, as ``bench_net.py`` measures it), the attacked peer's peak RSS growth
over the game, and the attacker's bytes in and out (amplification: what P0 sent it / what it sent).

Targets (issue 13): p99 under attack at most 2x the baseline, peak RSS at most +50 MB, bytes out at
most 2x bytes in.

    .venv/bin/python benchmarks/bench_attack.py                  # every attack, 1 game each
    .venv/bin/python benchmarks/bench_attack.py --only want-flood --games 3

Attacks (each on P0's port, from 127.0.0.1):

- ``want-flood``: 40 spectator connections that prove a throwaway key, then pipeline ``want {from:
  1}`` and never read (item 1).
- ``eclipse``: connection after connection whose hello names P1's identity key, with a proof by
  another key (item 2).
- ``hello-ports``: thousands of proven hellos as players with a listening port each (item 4: the
  address book and the dials it leads to).
- ``slow-frames``: 200 connections each announcing a 1 MiB frame and sending 64 KiB of it, then
  nothing (item 5: memory held by incomplete frames).
- ``costly-frames``: proven connections sending 1 MiB frames of nested short arrays, each refused
  (item 5: CPU per frame).

Not here: the lobby hijack (item 3: a lobby, no game to pace; see tests/net/test_lobby.py) and mDNS
floods (item 6: needs multicast between hosts; see tests/net/test_e2e_flood.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import logging
import multiprocessing as mp
import os
import statistics
import struct
import sys
from pathlib import Path

import msgpack

sys.path.insert(0, str(Path(__file__).parent))
import bench_net  # noqa: E402  (the honest peers are bench_net's)

from carcnet.net import Hello, Proof, SeatKey, Want  # noqa: E402
from carcnet.net.messages import encode_message  # noqa: E402
from carcnet.net.protocol import PeerConnection, Proven, State  # noqa: E402
from carcnet.net.signing import sign_proof  # noqa: E402

ATTACKS = ("baseline", "want-flood", "eclipse", "hello-ports", "slow-frames", "costly-frames")
PACE_MS = 20
#: Seconds the attacker waits before it starts, so that the honest peers have met (a benchmark's
#: setup, not a synchronisation of anything measured).
ATTACK_DELAY = 0.3


class Counter:
    def __init__(self) -> None:
        self.sent = 0
        self.received = 0


async def _open(port: int, counter: Counter):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)

    def send(data: bytes) -> None:
        counter.sent += len(data)
        writer.write(data)

    return reader, writer, send


async def _read_some(reader, counter: Counter, timeout: float = 2.0) -> bytes:
    try:
        data = await asyncio.wait_for(reader.read(1 << 16), timeout)
    except (TimeoutError, ConnectionError):
        return b""
    counter.received += len(data)
    return data


async def _proven(port: int, counter: Counter, role: str = "spectator", hello_port: int | None = None):
    """A connection to *port* that proves a throwaway key: (reader, writer, send)."""
    me = SeatKey.generate()
    conn = PeerConnection(game=bench_net.GAME, initiator=True, identity=me)
    reader, writer, send = await _open(port, counter)
    send(conn.send(Hello(game=bench_net.GAME, role=role, name="Mallory", key=me.public, port=hello_port)))
    while conn.state not in (State.OPEN, State.CLOSED):
        data = await _read_some(reader, counter)
        events = conn.receive_data(data)
        send(conn.data_to_send())
        if not data or any(isinstance(e, Proven) for e in events):
            break
    return reader, writer, send


async def _close(writer) -> None:
    with contextlib.suppress(Exception):
        writer.transport.abort()


async def want_flood(port: int, counter: Counter, stop: asyncio.Event) -> None:
    links = []
    for _ in range(40):
        with contextlib.suppress(OSError):
            links.append(await _proven(port, counter))
    want = encode_message(Want(from_seq=1))
    while not stop.is_set():
        for _reader, writer, send in links:
            if not writer.is_closing():
                send(want * 50)
        await asyncio.sleep(0.01)
    for _, writer, _ in links:
        await _close(writer)


async def eclipse(port: int, counter: Counter, stop: asyncio.Event) -> None:
    victim = SeatKey.from_seed(hashlib.sha256(b"P1").digest()).public
    while not stop.is_set():
        with contextlib.suppress(OSError):
            reader, writer, send = await _open(port, counter)
            hello = Hello(game=bench_net.GAME, role="player", name="P1", key=victim, port=40000)
            frame = encode_message(hello)
            send(frame)
            data = await _read_some(reader, counter)
            mallory = SeatKey.generate()
            send(encode_message(Proof(sig=sign_proof(mallory, "connector", frame[4:], data[4:]))))
            await _read_some(reader, counter, 0.5)
            await _close(writer)


async def hello_ports(port: int, counter: Counter, stop: asyncio.Event) -> None:
    n = 0
    while not stop.is_set():
        with contextlib.suppress(OSError):
            _, writer, _ = await _proven(port, counter, role="player", hello_port=1024 + n % 60000)
            await _close(writer)
        n += 1


async def slow_frames(port: int, counter: Counter, stop: asyncio.Event) -> None:
    writers = []
    part = struct.pack(">I", 1 << 20) + b"\x80" * (64 << 10)
    while not stop.is_set():
        writers = [w for w in writers if not w.is_closing()]
        while len(writers) < 200 and not stop.is_set():
            try:
                _, writer, send = await _open(port, counter)
            except OSError:
                break
            send(part)
            writers.append(writer)
        await asyncio.sleep(0.05)
    for writer in writers:
        await _close(writer)


async def costly_frames(port: int, counter: Counter, stop: asyncio.Event) -> None:
    body = msgpack.packb({"type": "heartbeat", "x": [[[0] * 15] * 256] * 250})
    frame = struct.pack(">I", len(body)) + body
    while not stop.is_set():
        with contextlib.suppress(OSError):
            reader, writer, send = await _proven(port, counter)
            send(frame)
            await _read_some(reader, counter, 1.0)
            await _close(writer)


async def _attack(kind: str, port: int, stop_flag, queue) -> None:
    counter = Counter()
    stop = asyncio.Event()
    await asyncio.sleep(ATTACK_DELAY)
    task = asyncio.create_task(globals()[kind.replace("-", "_")](port, counter, stop))
    while not stop_flag.is_set():
        await asyncio.sleep(0.05)
    stop.set()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(task, 5)
    queue.put((counter.sent, counter.received))


def _attacker_process(kind, port, stop_flag, queue) -> None:
    asyncio.run(_attack(kind, port, stop_flag, queue))


def _rss_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def _player_process(args, queue) -> None:
    start = _rss_kb("VmRSS")
    result = asyncio.run(bench_net.run_player(*args))
    queue.put((args[0], result, _rss_kb("VmHWM") - start))


def one_game(kind: str, seed: int) -> tuple[list[float], float, int, int]:
    """Latencies (ms), P0's peak RSS growth (MB), attacker bytes out and in."""
    ctx = mp.get_context("fork")
    players = 3
    wh = bench_net.header(players, seed)
    ports = bench_net.free_ports(players)
    barrier = ctx.Barrier(players)
    queue, attack_queue = ctx.Queue(), ctx.Queue()
    stop_flag = ctx.Event()
    procs = [
        ctx.Process(target=_player_process, args=((f"P{i}", wh, [i], ports[i], ports[:i], players - 1,
                                                   PACE_MS / 1000, None, None, barrier), queue))
        for i in range(players)
    ]
    attacker = None
    if kind != "baseline":
        attacker = ctx.Process(target=_attacker_process, args=(kind, ports[0], stop_flag, attack_queue))
    for p in procs:
        p.start()
    if attacker is not None:
        attacker.start()
    results = [queue.get(timeout=600) for _ in procs]
    stop_flag.set()
    out = attack_queue.get(timeout=60) if attacker is not None else (0, 0)
    for p in procs:
        p.join(60)
    if attacker is not None:
        attacker.join(60)
    made: dict[int, int] = {}
    applied = []
    rss = 0
    for name, (m, a, *_rest), grown in results:  # made, applied, CPU seconds, turn ends
        made.update(m)
        applied.append((m, a))
        if name == "P0":
            rss = grown
    return bench_net.latencies(made, applied), rss / 1024, out[0], out[1]


def main(argv: list[str] | None = None) -> int:
    logging.getLogger("carcnet").setLevel(logging.CRITICAL)  # the refusals are the point, not news
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=ATTACKS, action="append", help="run only these (repeatable)")
    parser.add_argument("--games", type=int, default=1, help="games per attack (default 1)")
    args = parser.parse_args(argv)
    kinds = args.only or list(ATTACKS)
    if "baseline" not in kinds:
        kinds = ["baseline", *kinds]
    print(f"carcnet under attack: 3 player peers, moves {PACE_MS} ms apart, {os.cpu_count()} CPUs, "
          f"Python {sys.version.split()[0]}; P0 attacked from another process")
    base_p99 = None
    for kind in kinds:
        samples: list[float] = []
        rss = 0.0
        sent = received = 0
        for g in range(args.games):
            lat, grown, s, r = one_game(kind, 11 + g)
            samples += lat
            rss = max(rss, grown)
            sent += s
            received += r
        ordered = sorted(samples)
        p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
        if kind == "baseline":
            base_p99 = p99
        ratio = f"{p99 / base_p99:4.1f}x" if base_p99 else "  - "
        amp = f"{received / sent:5.2f}" if sent else "   - "
        print(f"{kind:<14} moves {len(samples):4d}  median {statistics.median(samples):6.2f}  p99 {p99:7.2f} ms "
              f"({ratio} baseline)  P0 peak RSS +{rss:5.1f} MB  attacker sent {sent / 1e6:8.2f} MB, "
              f"got {received / 1e6:8.2f} MB (out/in {amp})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
