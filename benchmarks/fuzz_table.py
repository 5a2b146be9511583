"""Fuzzed connections against a real table mid-game: the command line's host and a bot on loopback.

``carcnet host --headless`` (a greedy bot seat and an open one) and ``carcnet bot --join`` play a game
with a bot delay long enough that it lasts the whole run; meanwhile this process opens connection
after connection to the host (and some to the bot), each spoiled one way of many:

- ``raw``: random bytes; ``vector``: a golden vector's frame (protocol/vectors/wire) with bytes
  flipped, cut, inserted or its length changed; ``map``: a map of a real ``type`` whose fields of
  real names hold anything;
- ``hello``: a hello with fields out of range or of another game; ``eclipse``: a hello naming the
  host's, the bot's or a seat's key, with a proof by another key;
- ``proven`` (the most): the handshake done with a throwaway key (role ``player`` or ``spectator``,
  a port or none), then 1 to 40 messages drawn from: heartbeats whose ``seats`` claim any seats and
  whose ``sees`` name the table's keys, its peers' keys or anyone (the host's bot seat, the bot's
  seat, seats that do not exist), their ``have``/``digest`` right, behind, ahead or made up; the
  frames of ``vector`` and ``map``; the entries it was sent, again as they were, encoded otherwise,
  from another seq, cut, with a flipped byte; ``want``, ``reveal``, ``ack``, ``chat`` (forged and
  replayed), lobby messages, ``peers``, ``error``, ``bye``; a frame longer than its budget; half a
  frame; a burst of heartbeats;
- ``flood``: 20 connections from one address at once (most refused before a byte is read).

Connections come from 64 addresses (127.0.4.1–64, each paced under the peer's 16 new ones a second).
What is checked, and printed: no internal error at either peer (no ``internal`` code, no ``ERROR``
line or traceback in their output), the game finished, both saves verify (``carcnet verify``) and
end at the same digest; with the count of connections made while the game was on, per target and
per kind, and the codes the peers answered with.

    .venv/bin/python benchmarks/fuzz_table.py --connections 20000 --bot-connections 2000

Nothing of the user's: the peers run with HOME and the XDG folders in a temporary folder.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import os
import random
import re
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import msgpack

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from carcnet.net import (
    Bye,
    Claim,
    Entries,
    Error,
    Heartbeat,
    Hello,
    PeerInfo,
    Peers,
    Proof,
    Reveal,
    SeatKey,
    Want,
    Welcome,
    encode_message,
)
from carcnet.net.fields import MessageError
from carcnet.net.framing import FrameDecoder, FramingError
from carcnet.net.messages import MESSAGE_TYPES, Chat, to_wire
from carcnet.net.protocol import PeerConnection, Proven, Refused, State
from carcnet.net.signing import sign_proof

PYTHON = sys.executable
VECTORS = sorted((ROOT / "protocol" / "vectors" / "wire").glob("*.bin"))
FIELDS = ["proto", "rules", "game", "role", "name", "key", "have", "digest", "port", "nonce", "header", "peers",
          "from", "entries", "sig", "seat", "seats", "sees", "draw", "value", "id", "time", "text", "code",
          "message", "seq", "reason", "votes", "x"]
SOURCES = [f"127.0.4.{i}" for i in range(1, 65)]
#: Seconds one connection may take, all of it (a bound, not a synchronisation).
CONNECTION_TIME = 4.0


class Table:
    """What the fuzzer knows of the table: the game, the keys, entries it was sent."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.keys: tuple[bytes, ...] = ()
        self.peers: list[bytes] = []
        self.entries: list = []
        self.have = 0
        self.digest: bytes | None = None


class Tally:
    def __init__(self) -> None:
        self.kinds: collections.Counter[str] = collections.Counter()
        self.codes: collections.Counter[str] = collections.Counter()
        self.targets: collections.Counter[str] = collections.Counter()
        self.mid_game = 0
        self.failed_connect = 0


# ---------------------------------------------------------------------------- hostile material


def _value(rng: random.Random, depth: int = 0):
    pick = rng.randrange(9 if depth < 3 else 6)
    if pick == 0:
        return None
    if pick == 1:
        return rng.random() < 0.5
    if pick == 2:
        return rng.choice([0, 1, -1, 255, 256, 2**31, 2**63 - 1, -(2**63), 2**64 - 1, rng.randrange(-1000, 1000)])
    if pick == 3:
        return "".join(chr(rng.choice([0x41, 0x61, 0x20, 0x0, 0x202E, 0x3164, 0x2800, 0x1F600, 0x7F]))
                       for _ in range(rng.randrange(0, 40)))
    if pick == 4:
        return rng.randbytes(rng.choice([0, 8, 16, 32, 64, rng.randrange(0, 80)]))
    if pick == 5:
        return rng.random() * 1e6
    if pick in (6, 7):
        return [_value(rng, depth + 1) for _ in range(rng.randrange(0, 6))]
    return {rng.choice(FIELDS): _value(rng, depth + 1) for _ in range(rng.randrange(0, 6))}


def _frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


def hostile_map(rng: random.Random) -> bytes:
    fields = {rng.choice(FIELDS): _value(rng) for _ in range(rng.randrange(0, 10))}
    return _frame(msgpack.packb({"type": rng.choice(MESSAGE_TYPES), **fields}, use_bin_type=True))


def mutated_vector(rng: random.Random) -> bytes:
    data = bytearray(rng.choice(VECTORS).read_bytes())
    for _ in range(rng.randrange(1, 5)):
        kind = rng.choice(["flip", "cut", "insert", "length"])
        at = rng.randrange(0, max(len(data), 1))
        if kind == "flip" and data:
            data[at] ^= rng.randrange(1, 256)
        elif kind == "cut":
            del data[at:]
        elif kind == "insert":
            data[at:at] = rng.randbytes(rng.randrange(1, 9))
        elif len(data) >= 4:
            data[:4] = struct.pack(">I", rng.choice([0, 1, len(data), 16 << 10, (16 << 10) + 1, 1 << 20, 2**32 - 1,
                                                     rng.randrange(0, 2**32)]))
    return bytes(data)


def _turned(value, turn: int):
    """*value* with the keys of every map turned by *turn* places: other bytes, the same meaning."""
    if isinstance(value, dict):
        keys = list(value)
        shift = turn % len(keys) if keys else 0
        return {k: _turned(value[k], turn) for k in keys[shift:] + keys[:shift]}
    if isinstance(value, list | tuple):
        return [_turned(v, turn) for v in value]
    return value


def claim(rng: random.Random, table: Table) -> bytes:
    """A heartbeat that claims seats and sees keys (the table's, its peers', anyone's)."""
    seats = tuple(sorted(rng.sample(range(6), rng.randrange(0, 4))))
    known = [*table.keys, *table.peers, rng.randbytes(32)]
    sees = tuple(dict.fromkeys(rng.sample(known, rng.randrange(0, min(len(known), 4) + 1))))
    have, digest = table.have, table.digest
    pick = rng.randrange(4)
    if pick == 1 and have > 0:
        have, digest = 0, None
    elif pick == 2:
        have, digest = have + rng.randrange(1, 50), rng.randbytes(32)
    elif pick == 3:
        digest = rng.randbytes(32) if digest is not None else None
    try:
        return encode_message(Heartbeat(have=have, digest=digest, sees=sees, seats=seats))
    except MessageError:  # a shape the message refuses to make: send the map as it is
        return _frame(msgpack.packb({"type": "heartbeat", "have": have, "digest": digest, "sees": list(sees),
                                     "seats": list(seats)}, use_bin_type=True))


def entries_again(rng: random.Random, table: Table) -> bytes:
    if not table.entries:
        return encode_message(Entries(from_seq=1, entries=()))
    start = rng.randrange(len(table.entries))
    chosen = tuple(table.entries[start : start + rng.randrange(1, 33)])
    message = Entries(from_seq=chosen[0].seq, entries=chosen)
    pick = rng.randrange(5)
    if pick == 0:
        return encode_message(message)  # as it was sent
    wire = to_wire(message)
    if pick == 1:
        return _frame(msgpack.packb(_turned(wire, rng.randrange(1, 5)), use_bin_type=True))
    if pick == 2:
        wire["from"] = max(1, wire["from"] + rng.choice([-3, -1, 1, 2, 100]))
    elif pick == 3:
        wire["entries"] = wire["entries"][: rng.randrange(0, len(wire["entries"]) + 1)]
    body = bytearray(msgpack.packb(wire, use_bin_type=True))
    if pick == 4 and body:
        body[rng.randrange(len(body))] ^= rng.randrange(1, 256)
    return _frame(bytes(body))


def some_message(rng: random.Random, table: Table, chat_seen: list[bytes]) -> bytes:
    """One message of a proven connection, hostile or not."""
    pick = rng.randrange(100)
    if pick < 30:
        return claim(rng, table)
    if pick < 40:
        return mutated_vector(rng)
    if pick < 50:
        return hostile_map(rng)
    if pick < 60:
        return entries_again(rng, table)
    if pick < 64:
        return encode_message(Want(from_seq=rng.choice([1, table.have, table.have + 1, table.have + 50])))
    if pick < 68:
        return encode_message(Reveal(seat=rng.randrange(2), draw=rng.randrange(1, 80), value=rng.randbytes(32)))
    if pick < 72:
        if chat_seen and rng.random() < 0.5:
            return rng.choice(chat_seen)  # a line sent again
        line = encode_message(Chat(seat=rng.randrange(2), id=rng.randbytes(8), time=int(time.time() * 1000),
                                   text="gg", sig=rng.randbytes(64)))
        chat_seen.append(line)
        return line
    if pick < 75:
        return _frame(msgpack.packb({"type": "ack", "votes": [_value(rng) for _ in range(rng.randrange(3))]},
                                    use_bin_type=True))
    if pick < 78:
        return encode_message(Claim(seat=rng.randrange(6), name="Mallory", colour="red", key=rng.randbytes(32)))
    if pick < 81:
        info = PeerInfo(rng.randbytes(32), "Mallory", f"127.0.{rng.randrange(256)}.{rng.randrange(1, 255)}",
                        rng.randrange(1, 65536))
        return encode_message(Peers(peers=(info,)))
    if pick < 84:
        return encode_message(Error(code=rng.choice(["bad-seq", "bad-frame", "internal", "forbidden"]),
                                    message="x", seq=rng.choice([None, 1, table.have, table.have + 9])))
    if pick < 87:
        return claim(rng, table) * rng.randrange(10, 60)  # a burst
    if pick < 90:
        return struct.pack(">I", rng.choice([(16 << 10) + 1, 1 << 20])) + rng.randbytes(rng.randrange(0, 4096))
    if pick < 93:
        frame = claim(rng, table)
        return frame[: rng.randrange(1, len(frame))]  # half a frame, then whatever comes
    if pick < 96:
        return _frame(msgpack.packb({"type": "ack", "votes": []}, use_bin_type=True))
    return encode_message(Bye(reason=rng.choice(["quit", "timeout", "shutdown"])))


# ---------------------------------------------------------------------------- one connection


class Client:
    def __init__(self, reader, writer, tally: Tally) -> None:
        self.reader, self.writer, self.tally = reader, writer, tally
        self.decoder = FrameDecoder()

    @classmethod
    async def open(cls, port: int, source: str, tally: Tally) -> Client:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        return cls(reader, writer, tally)

    def send(self, data: bytes) -> None:
        if not self.writer.is_closing():
            self.writer.write(data)

    async def read(self, timeout: float) -> bytes:
        try:
            data = await asyncio.wait_for(self.reader.read(1 << 16), timeout)
        except (TimeoutError, ConnectionError, OSError):
            return b""
        return data

    def note(self, data: bytes) -> None:
        """Tallies the codes of the ``error``/``reject``/``bye`` frames in *data* (raw reading)."""
        try:
            self.decoder.feed(data)
            while (frame := self.decoder.next_frame()) is not None:
                kind = frame.get("type")
                if kind in ("error", "reject"):
                    self.tally.codes[f"{kind} {frame.get('code')}"] += 1
                elif kind == "bye":
                    self.tally.codes[f"bye {frame.get('reason')}"] += 1
        except FramingError:  # the fuzzer's own reading of what it spoiled: not the peer's fault
            self.decoder = FrameDecoder()

    async def drain(self, timeout: float) -> None:
        end = time.monotonic() + timeout
        while (left := end - time.monotonic()) > 0:
            data = await self.read(left)
            if not data:
                return
            self.note(data)

    def abort(self) -> None:
        with contextlib.suppress(Exception):
            self.writer.transport.abort()


async def proven(client: Client, table: Table, rng: random.Random,
                 collect: float = 0.0) -> tuple[PeerConnection, list] | None:
    """The handshake with a throwaway key: the connection's state machine and what it received (and
    for *collect* seconds more: the log's catch-up)."""
    me = SeatKey.generate()
    conn = PeerConnection(game=table.game, initiator=True, identity=me)
    role = rng.choice(["player", "player", "spectator"])
    port = rng.choice([None, rng.randrange(1024, 65536)]) if role == "player" else None
    client.send(conn.send(Hello(game=table.game, role=role, name=rng.choice(["Mallory", "Eve", "Trudy"]),
                                key=me.public, port=port)))
    events: list = []
    for _ in range(40):
        data = await client.read(2.0)
        if not data:
            return None
        got = conn.receive_data(data)
        events += got
        client.send(conn.data_to_send())
        for event in got:
            if isinstance(event, Refused):
                client.tally.codes[f"refused-us {event.code}"] += 1
        if any(isinstance(e, Proven) for e in got):
            break
        if conn.state is State.CLOSED:
            return None
    end = time.monotonic() + collect
    while (left := end - time.monotonic()) > 0 and conn.state is not State.CLOSED:
        data = await client.read(left)
        if not data:
            break
        events += conn.receive_data(data)
    for event in events:
        if isinstance(event, Entries):
            for signed in event.entries:
                if signed.seq > len(table.entries):
                    table.entries.append(signed)
        if isinstance(event, Welcome):
            if event.header is not None:
                table.keys = event.header.keys
            if event.key not in table.peers:
                table.peers.append(event.key)
            table.have, table.digest = event.have, event.digest
    return conn, events


async def one_connection(port: int, source: str, table: Table, rng: random.Random, tally: Tally) -> str:
    """Opens one connection from *source* and spoils it; returns its kind."""
    pick = rng.randrange(100)
    kind = ("raw" if pick < 8 else "vector" if pick < 18 else "map" if pick < 28 else "hello" if pick < 34
            else "eclipse" if pick < 40 else "proven")
    client = await Client.open(port, source, tally)
    try:
        if kind == "raw":
            client.send(rng.randbytes(rng.randrange(1, 300)))
        elif kind == "vector":
            client.send(b"".join(mutated_vector(rng) for _ in range(rng.randrange(1, 4))))
        elif kind == "map":
            client.send(hostile_map(rng))
        elif kind == "hello":
            wire = to_wire(Hello(game=table.game, role="player", name="Mallory", key=rng.randbytes(32), port=4000))
            for _ in range(rng.randrange(1, 3)):
                wire[rng.choice(list(wire))] = _value(rng)
            client.send(_frame(msgpack.packb(wire, use_bin_type=True)))
        elif kind == "eclipse":
            victim = rng.choice([*table.keys, *table.peers]) if table.keys else rng.randbytes(32)
            hello = encode_message(Hello(game=table.game, role=rng.choice(["player", "spectator"]), name="Host",
                                         key=victim, port=rng.choice([None, 4000])))
            client.send(hello)
            data = await client.read(2.0)
            client.note(data)
            if data:
                sig = sign_proof(SeatKey.generate(), "connector", hello[4:], data[4:])
                client.send(encode_message(Proof(sig=sig)))
        else:
            got = await proven(client, table, rng)
            if got is not None:
                chat_seen: list[bytes] = []
                for _ in range(rng.randrange(1, 41)):
                    client.send(some_message(rng, table, chat_seen))
                    if client.writer.is_closing():
                        break
                    if rng.random() < 0.3:
                        await client.writer.drain()
                        data = await client.read(0.02)
                        if data:
                            client.note(data)
        await client.drain(rng.choice([0.05, 0.2, 0.5]))
    except (ConnectionError, OSError):
        pass
    finally:
        client.abort()
    return kind


async def flood(port: int, source: str, tally: Tally) -> None:
    """20 connections from one address at once, each sending a byte."""
    clients = []
    for _ in range(20):
        with contextlib.suppress(OSError):
            clients.append(await Client.open(port, source, tally))
    for client in clients:
        client.send(b"\x00")
    await asyncio.sleep(0.05)  # then let them go (the peer refused most before reading)
    for client in clients:
        client.abort()


# ---------------------------------------------------------------------------- the run


def _spawn(args: list[str], env: dict[str, str], out: Path) -> subprocess.Popen:
    return subprocess.Popen([PYTHON, "-m", "carcnet", *args], env=env, stdout=out.open("w"),
                            stderr=subprocess.STDOUT, cwd=ROOT)


def _wait_for(path: Path, pattern: str, timeout: float) -> re.Match | None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = re.search(pattern, path.read_text(errors="replace"))
        if found:
            return found
        time.sleep(0.1)  # polling a child's output file, bounded
    return None


async def fuzz(targets: list[tuple[str, int, int]], table: Table, seed: int, workers: int, rate: float,
               host_out: Path, tally: Tally) -> None:
    """Opens the connections of *targets* (name, port, count), at most *rate* a second in all."""
    plan = [(name, port) for name, port, count in targets for _ in range(count)]
    random.Random(seed).shuffle(plan)
    next_index = 0
    started = time.monotonic()
    per_source: dict[str, collections.deque[float]] = {s: collections.deque() for s in SOURCES}

    def game_on() -> bool:
        return "Final scores" not in host_out.read_text(errors="replace")

    async def worker(w: int) -> None:
        nonlocal next_index
        while next_index < len(plan):
            i = next_index
            next_index += 1
            wait = started + i / rate - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)  # the pace of the run
            name, port = plan[i]
            source = SOURCES[i % len(SOURCES)]
            times = per_source[source]
            while times and times[0] < time.monotonic() - 1.0:
                times.popleft()
            if len(times) >= 12:  # under the peer's 16 new connections a second per address
                await asyncio.sleep(1.0 - (time.monotonic() - times[0]))
            times.append(time.monotonic())
            rng = random.Random(seed * 1_000_003 + i)
            on = game_on() if i % 50 == 0 or i == len(plan) - 1 else True
            try:
                if rng.random() < 0.005:
                    await flood(port, source, tally)
                    kind = "flood"
                else:
                    kind = await asyncio.wait_for(one_connection(port, source, table, rng, tally), CONNECTION_TIME)
            except (TimeoutError, OSError):
                tally.failed_connect += 1
                continue
            tally.kinds[kind] += 1
            tally.targets[name] += 1
            if on:
                tally.mid_game += 1
            if i % 2000 == 0:
                print(f"  {i} connections, {time.monotonic() - started:.0f} s", flush=True)

    await asyncio.gather(*(worker(w) for w in range(workers)))


async def watch(port: int, table: Table, moves: int, timeout: float) -> bool:
    """A spectator's handshake with the host until it has sent *moves* entries: the game is on."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        tally = Tally()
        with contextlib.suppress(OSError):
            client = await Client.open(port, "127.0.0.1", tally)
            try:
                await proven(client, table, random.Random(1), collect=0.5)
            finally:
                client.abort()
        if len(table.entries) >= moves:
            return True
        await asyncio.sleep(0.5)  # polling the table's progress, bounded by *timeout*
    return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=20000, help="connections to the host")
    parser.add_argument("--bot-connections", type=int, default=2000, help="connections to the bot")
    parser.add_argument("--rate", type=float, default=150.0, help="connections a second, in all")
    parser.add_argument("--bot-delay", type=float, default=2.0, help="seconds each bot waits before its turn")
    parser.add_argument("--workers", type=int, default=24)
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--keep", help="a folder to keep the saves and outputs in (default: a temporary one)")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="carcnet-fuzz-") as tmp:
        base = Path(args.keep or tmp)
        base.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "HOME": str(base), "XDG_DATA_HOME": str(base / "xdg"),
               "XDG_CONFIG_HOME": str(base / "xdg"), "XDG_CACHE_HOME": str(base / "xdg")}
        host_out, bot_out = base / "host.out", base / "bot.out"
        ports = []
        for _ in range(2):
            import socket

            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                ports.append(s.getsockname()[1])
        host_port, bot_port = ports
        delay = str(args.bot_delay)
        common = ["--no-mdns", "--listen", "127.0.0.1", "--timeout", "1200", "--linger", "3", "--bot-delay", delay]
        host = _spawn(["host", "--headless", "--seats", "greedy,open", "--name", "Host", "--port", str(host_port),
                       "--data-dir", str(base / "host"), *common], env, host_out)
        bot = None
        try:
            found = _wait_for(host_out, r"game id ([0-9a-f]{32})", 60)
            assert found, host_out.read_text()
            game = found.group(1)
            bot = _spawn(["bot", "--join", f"127.0.0.1:{host_port}", "--game", game, "--name", "Bot", "--bot",
                          "random", "--port", str(bot_port), "--data-dir", str(base / "bot"), *common], env, bot_out)
            table = Table(game)
            assert asyncio.run(watch(host_port, table, 3, 60)), "the game did not start"
            print(f"fuzzing game {game}: host on {host_port}, bot on {bot_port}, {len(table.entries)} entries so far",
                  flush=True)
            tally = Tally()
            began = time.monotonic()
            asyncio.run(fuzz([("host", host_port, args.connections), ("bot", bot_port, args.bot_connections)],
                             table, args.seed, args.workers, args.rate, host_out, tally))
            spent = time.monotonic() - began
            host.wait(1200)
            bot.wait(120)
        finally:
            for proc in (host, bot):
                if proc is not None and proc.poll() is None:
                    proc.kill()
        results = {}
        for name, out in (("host", host_out), ("bot", bot_out)):
            text = out.read_text(errors="replace")
            saved = re.search(r"saved to (\S+\.carclog)", text)
            verify = subprocess.run([PYTHON, "-m", "carcnet", "verify", saved.group(1)] if saved else ["false"],
                                    env=env, capture_output=True, text=True, cwd=base / name, check=False)
            results[name] = {
                "internal": len(re.findall(r": internal \(", text)),
                "errors": len(re.findall(r"^(ERROR|CRITICAL)|Traceback", text, re.MULTILINE)),
                "refusals": len(re.findall(r"refuses|refused", text)),
                "verify": verify.stdout.strip() or verify.stderr.strip(),
                "verified": verify.returncode == 0,
            }
        digests = {re.search(r"digest ([0-9a-f]{64})", r["verify"]).group(1) if "digest" in r["verify"] else None
                   for r in results.values()}
        print(f"{sum(tally.targets.values())} connections in {spent:.0f} s ({dict(tally.targets)}), "
              f"{tally.mid_game} while the game was on; {tally.failed_connect} not opened or over time")
        print("kinds:", dict(tally.kinds.most_common()))
        print("answers:", dict(tally.codes.most_common(16)))
        for name, r in results.items():
            print(f"{name}: {r['internal']} internal, {r['errors']} error lines, {r['refusals']} refusals logged; "
                  f"verify: {r['verify']}")
        same = len(digests) == 1 and None not in digests
        print("logs identical and verified" if same and all(r["verified"] for r in results.values())
              else "LOGS DIFFER OR DO NOT VERIFY")
        ok = same and all(r["verified"] and not r["internal"] and not r["errors"] for r in results.values())
        return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
