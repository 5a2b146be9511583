"""Fuzzed connections against the event services of a tournament under way, on loopback.

Three laptops (event runners in this process, each with its own service, tables and folder) play an
event of eight bots over two Swiss rounds at tables of four, their bots slowed so that the event lasts
the run (``--bot-delay``); meanwhile this process opens connection after connection to the three services, each spoiled
one way of many:

- before any handshake: ``raw``: random bytes; ``length``: a frame whose length is 0, over the request
  budget, or longer than what follows; ``hello``: a hello whose fields hold anything; ``proof``: a
  good hello, then a proof that is not the key's;
- after the handshake (a throwaway key proven, as every laptop does, protocol/tournament.md §6.0):
  ``cut``: a real request's frame cut short; ``flip``: a real request with bytes flipped; ``map``: a
  map of a real ``type`` (``status?``, ``charter?``, ``log?``, ``enrol``) whose fields hold anything
  (wrong kinds, huge or negative numbers, long strings, deep nesting, names under and against the
  name rule); ``enrol``: a well-signed enrolment by the proven key (the event has started: refused);
  ``many``: 1 to 20 requests on one connection; ``hold``: a connection held without a request.

Connections come from 200 loopback addresses (127.0.5.1–200), round-robin. What is checked, and
printed: no internal error at any laptop (no ``the answer … failed`` record, no exception left in a
runner), the event finished on every laptop with identical standings, every table counted from the
same game everywhere, and each table opened once; with the connections made per target and per
kind, the replies by type and the service budgets' refusals.

    .venv/bin/python benchmarks/fuzz_event.py --connections 10000
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import hashlib
import logging
import os
import random
import struct
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import msgpack

from carcnet.club.runner import EventRunner
from carcnet.club.service import enrol_bytes
from carcnet.club.wire import EVENT_PROTO, EventLink
from carcnet.net.framing import ProtocolError, encode_frame
from carcnet.net.signing import SeatKey
from carcnet.net.transport import Timing

FAST = Timing(handshake=2.0, heartbeat=0.5, dead=5.0, connect=2.0, close=1.0, backoff=(0.05, 0.1, 0.2))
LOOP = {"listen": ("127.0.0.1", 0), "table_host": "127.0.0.1", "timing": FAST, "poll": 0.3, "gone": 4.0,
        "linger": 5.0}
BOTS = {
    "Ann": [("Ann greedy", "greedy"), ("Ann random", "random"), ("Ann greedy 2", "greedy")],
    "Bob": [("Bob greedy", "greedy"), ("Bob random", "random"), ("Bob greedy 2", "greedy")],
    "Cleo": [("Cleo greedy", "greedy"), ("Cleo random", "random")],
}
KINDS = ("raw", "length", "hello", "proof", "cut", "flip", "map", "enrol", "many", "hold")
WEIGHTS = (1, 1, 1, 1, 1, 2, 4, 1, 2, 1)


def pack(message: dict[str, Any]) -> bytes:
    """A frame of *message*, whatever it holds (net/'s encoder refuses what the fuzz sends)."""
    body = msgpack.packb(message, use_bin_type=True)
    return struct.pack(">I", len(body)) + body


class Errors(logging.Handler):
    """Counts the records of internal errors (an answer that raised, any ERROR line)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(self.format(record))


def key(name: str) -> SeatKey:
    return SeatKey.from_seed(hashlib.sha256(f"carcnet fuzz laptop {name}".encode()).digest())


def _anything(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.randrange(12 if depth < 3 else 9)
    if pick == 9:
        return [_anything(rng, depth + 1) for _ in range(rng.randrange(4))]
    if pick == 10:
        return {str(i): _anything(rng, depth + 1) for i in range(rng.randrange(4))}
    if pick == 11:
        return [[[[[[[[[[1]]]]]]]]]]
    return (None, True, -1, 2**63 - 1, -(2**63), rng.randbytes(rng.choice((0, 16, 32, 64, 3000))), "\u3164",
            "x" * rng.choice((1, 33, 5000)), "Ann greedy")[pick]


def _request(rng: random.Random, event: str) -> dict[str, Any]:
    kind = rng.choice(("status?", "charter?", "log?", "enrol", "nothing"))
    base: dict[str, Any] = {"type": kind}
    if kind == "status?":
        base.update(nonce=rng.randbytes(16), port=rng.randrange(1, 65536))
    elif kind == "log?":
        base.update(event=event, round=rng.randrange(-2, 4), table=rng.randrange(-2, 4))
    elif kind == "enrol":
        who = SeatKey.from_seed(rng.randbytes(32))
        name = rng.choice(("Zed", "\u3164", "Ann greedy", "x" * 40))
        base.update(event=event, name=name, key=who.public, bot=rng.choice((None, "greedy", "superbot")), port=9,
                    sig=who.sign(enrol_bytes(event, name, None)))
    for field in rng.sample(("nonce", "port", "event", "round", "table", "name", "key", "bot", "sig"), rng.randrange(3)):
        base[field] = _anything(rng)
    return base


def _frame(rng: random.Random, kind: str, event: str) -> bytes:
    if kind == "raw":
        return rng.randbytes(rng.randrange(1, 600))
    if kind == "length":
        body = msgpack.packb({"type": "status?"})
        return struct.pack(">I", rng.choice((0, 4097, 1 << 31, len(body) + 50))) + body
    frame = pack(_request(rng, event))
    if kind == "cut":
        return frame[: rng.randrange(1, len(frame))]
    if kind == "flip":
        data = bytearray(frame)
        for _ in range(rng.randrange(1, 4)):
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
        return bytes(data)
    return frame


async def _pump(link: EventLink, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, until: Any) -> bool:
    """Writes what *link* queued and reads until ``until()``; ``False`` when the service closed first."""
    while True:
        out = link.data_to_send()
        if out:
            writer.write(out)
        if until():
            return True
        data = await asyncio.wait_for(reader.read(1 << 16), 2.0)
        if not data:
            return False
        try:
            link.receive_data(data)
        except ProtocolError:
            return False


async def fuzz_one(rng: random.Random, port: int, source: str, kind: str, event: str,
                   replies: collections.Counter[str]) -> None:
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), 5)
    except (OSError, TimeoutError):
        replies["unreachable"] += 1
        return
    me = SeatKey.from_seed(rng.randbytes(32))
    link = EventLink("connector", me, event=event, max_frame=2 << 20, max_bin=2 << 20)
    try:
        if kind in ("raw", "length", "hello", "proof"):
            if kind == "hello":
                hello = {"type": "hello", "proto": EVENT_PROTO, "event": event, "key": me.public, "nonce": rng.randbytes(32)}
                for field in rng.sample(sorted(hello), rng.randrange(1, 4)):
                    hello[field] = _anything(rng)
                data = pack(hello)
            elif kind == "proof":
                data = link.data_to_send() + encode_frame({"type": "proof", "sig": rng.randbytes(64)})
            else:
                data = _frame(rng, kind, event)
            writer.write(data)
            while await asyncio.wait_for(reader.read(1 << 16), 2.0):
                pass
            replies["closed"] += 1
            return
        if not await _pump(link, reader, writer, lambda: link.open):
            replies["closed"] += 1
            return
        if kind == "hold":
            await asyncio.wait_for(reader.read(1), 0.5)
            return
        if kind == "enrol":
            frames = [pack({"type": "enrol", "event": event, "name": "Zed", "key": me.public, "bot": None,
                            "port": 9, "sig": me.sign(enrol_bytes(event, "Zed", None))})]
        elif kind == "many":
            frames = [pack(_request(rng, event)) for _ in range(rng.randrange(1, 21))]
        else:
            frames = [_frame(rng, kind, event)]
        for frame in frames:
            writer.write(frame)
            got: list[dict[str, Any]] = []

            def replied(got: list[dict[str, Any]] = got) -> bool:
                message = link.next_message()
                if message is not None:
                    got.append(message)
                return bool(got)

            if not await _pump(link, reader, writer, replied):
                replies["closed"] += 1
                return
            replies[str(got[0].get("type"))[:16]] += 1
    except (OSError, TimeoutError):
        replies["broken"] += 1
    finally:
        writer.close()


async def run(connections: int, seed: int, concurrency: int, bot_delay: float) -> int:
    errors = Errors()
    logging.getLogger("carcnet").addHandler(errors)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="carcnet-fuzz-event-") as tmp:
        folder = Path(tmp)
        lines: dict[str, list[str]] = {n: [] for n in BOTS}
        runners = {"Ann": EventRunner.open(key("Ann"), event_name="Fuzz night", rounds=2, size=4, data_dir=folder / "Ann",
                                           name="Ann", players=BOTS["Ann"], note=lines["Ann"].append, bot_delay=bot_delay,
                                           **LOOP)}
        tasks = {"Ann": asyncio.create_task(runners["Ann"].run(start_when=8))}
        while runners["Ann"].port is None:
            await asyncio.sleep(0.01)  # polling a flag the runner sets; bounded by the event's own end
        for name in ("Bob", "Cleo"):
            runners[name] = EventRunner(key(name), name=name, folder=folder / name, by_event=True, players=BOTS[name],
                                        note=lines[name].append, bot_delay=bot_delay,
                                        dial=[("127.0.0.1", runners["Ann"].port)], **LOOP)
            tasks[name] = asyncio.create_task(runners[name].run())
        while any(r.port is None for r in runners.values()) or runners["Ann"]._event_id is None:
            await asyncio.sleep(0.01)  # as above
        event = runners["Ann"]._event_id
        made: collections.Counter[tuple[str, str]] = collections.Counter()
        replies: collections.Counter[str] = collections.Counter()
        started = time.monotonic()
        sem = asyncio.Semaphore(concurrency)

        async def one(i: int) -> None:
            async with sem:
                target = rng.choice(list(runners))
                kind = rng.choices(KINDS, WEIGHTS)[0]
                made[(target, kind)] += 1
                port = runners[target].port
                assert port is not None
                await fuzz_one(random.Random(seed * 1_000_003 + i), port, f"127.0.5.{i % 200 + 1}", kind, event, replies)

        fuzz = asyncio.gather(*(one(i) for i in range(connections)))
        done, pending = await asyncio.wait(tasks.values(), timeout=900)
        fuzz_done = fuzz.done()
        await fuzz
        elapsed = time.monotonic() - started
        failed = [n for n, t in tasks.items() if t in pending or t.exception() is not None]
        for t in pending:
            t.cancel()
        await asyncio.gather(*tasks.values(), return_exceptions=True)
        print(f"{sum(made.values())} fuzzed connections in {elapsed:.1f} s "
              f"({'all while the event was on' if fuzz_done else 'some after the event ended'})")
        for target in runners:
            print(f"  {target}: " + ", ".join(f"{k} {made[(target, k)]}" for k in KINDS))
        print("  replies: " + ", ".join(f"{k} {v}" for k, v in replies.most_common()))
        if failed:
            print(f"FAILED: the event did not finish, or raised, at {failed}")
            for n in failed:
                print("\n".join(lines[n][-10:]))
            return 1
        rows = {n: [(s.player, str(s.wins), str(s.difference)) for s in t.result()] for n, t in tasks.items()}
        games = {n: {rt: r.game for rt, r in runners[n].results.items()} for n in runners}
        opened = sum("opened here" in line for ls in lines.values() for line in ls)
        same = rows["Ann"] == rows["Bob"] == rows["Cleo"] and games["Ann"] == games["Bob"] == games["Cleo"]
        print(f"  standings identical on the three laptops: {same}; tables counted from the same games: "
              f"{games['Ann'] == games['Bob'] == games['Cleo']}; tables opened: {opened} (4 drawn)")
        print(f"  internal errors: {len(errors.records)}")
        for record in errors.records[:5]:
            print("   ", record.splitlines()[0])
        return 0 if same and not errors.records and opened == 4 else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=128, help="fuzzed connections open at once")
    parser.add_argument("--bot-delay", type=float, default=1.0, help="seconds each bot waits before a turn")
    args = parser.parse_args(argv)
    return asyncio.run(run(args.connections, args.seed, args.concurrency, args.bot_delay))


if __name__ == "__main__":
    sys.exit(main())
