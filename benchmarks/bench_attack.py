"""The table under attack (issue 13): a paced game between three honest player peers, each in its own
process on loopback, while an attacker process spoils one of them (P0) the ways issue 13 found.
Prints, per attack beside the no-attack baseline: the honest move latency (made -> applied on every
other peer, median and p99, as ``bench_net.py`` measures it), the attacked peer's peak RSS growth
over the game, and the attacker's bytes in and out (amplification: what P0 sent it / what it sent).

Targets (issue 13): p99 under attack at most 2x the baseline, peak RSS at most +50 MB, bytes out at
most 2x bytes in.

    .venv/bin/python benchmarks/bench_attack.py                  # every attack, 1 game each
    .venv/bin/python benchmarks/bench_attack.py --only want-flood --games 3
    .venv/bin/python benchmarks/bench_attack.py --only heartbeat-churn --games 3 --paired  # a shared machine

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

Issue 35 (round two), each from connections that prove a key of their own:

- ``heartbeat-churn``: 8 player connections whose heartbeats alternate their ``seats`` and ``sees``
  claims, each connection sending more than the peer's whole budget of them at once and opening the
  next as soon as the peer closes it (item 2: each change was a presence judgement).
- ``chat-replay``: one captured chat line (seat 1's) sent again and again (item 2).
- ``seat-chat``: seat 1's own lines, each new and signed beforehand, as fast as possible from a
  connection proven under seat 1's key (item 2: a seated player's flood).
- ``entries-replay``: the entries the peer sent it, encoded otherwise each time so that the frames
  seen do not catch them, sent back again and again, reconnecting when closed (item 2).
- ``claimed-costly``: ``costly-frames`` from a connection whose heartbeat claims every seat (item 4).
- ``claimed-slowloris``: 60 such connections, each announcing a 1 MiB frame and sending 64 KiB of it
  (item 4: memory held).
- ``fill-64``: 72 claimed connections from 8 addresses (127.0.1.1-8) asking for the peer's 64 places
  and kept, taken back as soon as they are given up; then 6 spectators from another address
  (127.0.0.2) come in one by one (item 4: eviction by proven role; the row says how many got a
  welcome).

Issue 44 (round three), against an event P0's process runs beside its table (an opener waiting for
players, as on club night: its event service on another port, the same event loop as the table):

- ``event-enrol``: 16 connections at a time from 200 addresses (127.0.3.1-200), each proving a
  throwaway key and sending well-signed enrolments under fresh names, as fast as they are answered.
- ``event-flood``: 64 connections at a time from one address (127.0.0.2), each proving a throwaway
  key, asking a status and held, opened again as soon as the service closes or refuses it.
- ``event-idle``: the event and no attacker (the baseline of these two with ``--paired``).

Beside each, an honest laptop's status request from 127.0.0.1 every 100 ms: the row's note says how
many were answered, and why the others were not.

The attacked peer P0 judges heartbeat claims as a table does (``NetView.heard`` and a presence
snapshot after each change the session tells of, as ``NetTable`` reacts), so that what a claim costs
at a real table is measured.

Not here: the lobby hijack (item 3: a lobby, no game to pace; see tests/net/test_lobby.py) and mDNS
floods (item 6: needs multicast between hosts; see tests/net/test_e2e_flood.py).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import hashlib
import logging
import multiprocessing as mp
import os
import statistics
import struct
import sys
import time
from pathlib import Path

import msgpack

sys.path.insert(0, str(Path(__file__).parent))
import bench_net  # noqa: E402  (the honest peers are bench_net's)

from carcnet.club.runner import EventRunner  # noqa: E402  (imported before the fork: P0's RSS is its own)
from carcnet.club.service import enrol_bytes  # noqa: E402
from carcnet.club.wire import EventLink  # noqa: E402
from carcnet.net import Hello, Proof, SeatKey, Want  # noqa: E402
from carcnet.net.framing import ProtocolError  # noqa: E402
from carcnet.net.link import QUIET_BURST  # noqa: E402
from carcnet.net.messages import Chat, Entries, Heartbeat, encode_message, to_wire  # noqa: E402
from carcnet.net.protocol import PeerConnection, Proven, State  # noqa: E402
from carcnet.net.signing import sign_chat, sign_proof  # noqa: E402

ATTACKS = ("baseline", "want-flood", "eclipse", "hello-ports", "slow-frames", "costly-frames",
           "heartbeat-churn", "chat-replay", "seat-chat", "entries-replay", "claimed-costly",
           "claimed-slowloris", "fill-64", "bad-seq", "vote-replay", "unproven-hellos",
           "event-idle", "event-enrol", "event-flood")
#: The attacks on the event P0's process runs (their port is the event service's, not the table's).
EVENT_ATTACKS = ("event-idle", "event-enrol", "event-flood")
PACE_MS = 20
#: Seconds the attacker waits before it starts, so that the honest peers have met (a benchmark's
#: setup, not a synchronisation of anything measured).
ATTACK_DELAY = 0.3


class Counter:
    def __init__(self) -> None:
        self.sent = 0
        self.received = 0
        self.note = ""


async def _open(port: int, counter: Counter, source: str | None = None):
    local = (source, 0) if source is not None else None
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=local)

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


async def _proven(port: int, counter: Counter, role: str = "spectator", hello_port: int | None = None,
                  key: SeatKey | None = None, source: str | None = None, events: list | None = None,
                  conns: list | None = None):
    """A connection to *port* that proves a throwaway key (or *key*), from *source* (an address of
    this machine): (reader, writer, send). The messages of the handshake's replies are added to
    *events* when given, and the connection's state machine to *conns* (to read on with it)."""
    me = key or SeatKey.generate()
    conn = PeerConnection(game=bench_net.GAME, initiator=True, identity=me)
    reader, writer, send = await _open(port, counter, source)
    send(conn.send(Hello(game=bench_net.GAME, role=role, name="Mallory", key=me.public, port=hello_port)))
    if conns is not None:
        conns.append(conn)
    while conn.state not in (State.OPEN, State.CLOSED):
        data = await _read_some(reader, counter)
        got = conn.receive_data(data)
        if events is not None:
            events += got
        send(conn.data_to_send())
        if not data or any(isinstance(e, Proven) for e in got):
            break
    return reader, writer, send


def _claim(seats=(0, 1, 2), sees=()) -> bytes:
    """A heartbeat that claims *seats* and sees *sees* (what the attacker says it is)."""
    return encode_message(Heartbeat(have=0, digest=None, sees=tuple(sees), seats=tuple(seats)))


async def _drain(reader, counter: Counter, stop: asyncio.Event) -> None:
    """Reads and drops what the peer sends until the stream ends or *stop* is set."""
    while not stop.is_set():
        try:
            data = await reader.read(1 << 16)
        except (ConnectionError, OSError):
            return
        if not data:
            return
        counter.received += len(data)


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


async def heartbeat_churn(port: int, counter: Counter, stop: asyncio.Event) -> None:
    one, other = _claim(seats=(0,)), _claim(seats=(), sees=(bench_net.seat_key(2).public,))
    # all the peer will read on one connection, and more (wire.md §2.1: it closes the connection
    # after its budget): each of these heartbeats is decoded and each change of claims judged up to the
    # budgets, and writing on into a connection the peer has closed would only spend the attacker's
    # share of the machine's cores, not the peer's
    burst = (one + other) * (QUIET_BURST // 2 + 4)

    async def churn() -> None:
        while not stop.is_set():
            with contextlib.suppress(OSError):
                reader, writer, send = await _proven(port, counter, role="player")
                send(burst)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(_drain(reader, counter, stop), 2.0)  # until the peer closes it
                await _close(writer)
            await asyncio.sleep(0.01)  # then again, on a new connection

    await asyncio.gather(*(churn() for _ in range(8)))


def _chat_line(number: int) -> bytes:
    """Seat 1's chat line *number*, signed with seat 1's key (what a captured line, or a seated
    player's own, is)."""
    chat_id = number.to_bytes(8, "big")
    time_ms = int(time.time() * 1000)
    text = f"line {number}"
    sig = sign_chat(bench_net.seat_key(1), bench_net.GAME, 1, chat_id, time_ms, text)
    return encode_message(Chat(seat=1, id=chat_id, time=time_ms, text=text, sig=sig))


async def chat_replay(port: int, counter: Counter, stop: asyncio.Event) -> None:
    burst = _chat_line(1) * 200
    while not stop.is_set():
        with contextlib.suppress(OSError):
            reader, writer, send = await _proven(port, counter, role="player")
            drain = asyncio.create_task(_drain(reader, counter, stop))
            while not stop.is_set() and not writer.is_closing() and not drain.done():
                send(burst)
                await writer.drain()
                await asyncio.sleep(0.001)  # lets a close be seen: no writing into a dead socket
            drain.cancel()
            await _close(writer)
        await asyncio.sleep(0.01)  # then again, on a new connection


async def seat_chat(port: int, counter: Counter, stop: asyncio.Event) -> None:
    lines = [_chat_line(1000 + i) for i in range(20000)]  # signed beforehand, each new
    n = 0
    while not stop.is_set():
        with contextlib.suppress(OSError):
            reader, writer, send = await _proven(port, counter, role="player", key=bench_net.seat_key(1))
            drain = asyncio.create_task(_drain(reader, counter, stop))
            while not stop.is_set() and not writer.is_closing() and not drain.done():
                send(b"".join(lines[(n + i) % len(lines)] for i in range(100)))
                n += 100
                await writer.drain()
                await asyncio.sleep(0.001)  # lets a close be seen: no writing into a dead socket
            drain.cancel()
            await _close(writer)
        await asyncio.sleep(0.01)  # then again, on a new connection


def _turned(value, turn: int):
    """*value* (a message's wire map) with the keys of every map turned by *turn* places: the same
    message, other bytes."""
    if isinstance(value, dict):
        keys = list(value)
        shift = turn % len(keys)
        return {k: _turned(value[k], turn) for k in keys[shift:] + keys[:shift]}
    if isinstance(value, list | tuple):
        return [_turned(v, turn) for v in value]
    return value


async def entries_replay(port: int, counter: Counter, stop: asyncio.Event) -> None:
    captured: list = []
    turn = 0
    while not stop.is_set():
        with contextlib.suppress(OSError):
            events: list = []
            conns: list = []
            reader, writer, send = await _proven(port, counter, role="player", events=events, conns=conns)
            if not captured:  # what the peer sends a newcomer: the log so far
                for _ in range(20):
                    data = await _read_some(reader, counter, 0.5)
                    if not data:
                        break
                    events += conns[0].receive_data(data)
                captured = [to_wire(e) for e in events if isinstance(e, Entries) and e.entries]
            drain = asyncio.create_task(_drain(reader, counter, stop))
            while captured and not stop.is_set() and not writer.is_closing() and not drain.done():
                turn += 1
                for frame in captured:
                    body = msgpack.packb(_turned(frame, turn), use_bin_type=True)
                    send(struct.pack(">I", len(body)) + body)
                await writer.drain()
                await asyncio.sleep(0.001)
            drain.cancel()
            await _close(writer)
        await asyncio.sleep(0.01 if captured else 0.1)  # then again, on a new connection


async def claimed_costly(port: int, counter: Counter, stop: asyncio.Event) -> None:
    body = msgpack.packb({"type": "heartbeat", "x": [[[0] * 15] * 256] * 250})
    frame = struct.pack(">I", len(body)) + body
    while not stop.is_set():
        with contextlib.suppress(OSError):
            reader, writer, send = await _proven(port, counter, role="player")
            send(_claim())
            await asyncio.sleep(0.01)  # the claim is taken first
            send(frame)
            await _read_some(reader, counter, 1.0)
            await _close(writer)


async def claimed_slowloris(port: int, counter: Counter, stop: asyncio.Event) -> None:
    part = struct.pack(">I", 1 << 20) + b"\x80" * (64 << 10)
    writers: list = []
    while not stop.is_set():
        writers = [w for w in writers if not w.is_closing()]
        while len(writers) < 60 and not stop.is_set():
            try:
                _reader, writer, send = await _proven(port, counter, role="player")
            except OSError:
                break
            send(_claim())
            await asyncio.sleep(0.01)
            send(part)
            writers.append(writer)
        await asyncio.sleep(0.05)
    for writer in writers:
        await _close(writer)


async def fill_64(port: int, counter: Counter, stop: asyncio.Event) -> None:
    held: dict[str, list] = {}
    tried = welcomed = 0

    async def fill(source: str) -> None:  # 9 claimed connections from *source*, kept
        mine = held.setdefault(source, [])
        while not stop.is_set():
            mine[:] = [w for w in mine if not w.is_closing()]
            if len(mine) >= 9:
                return
            try:
                _reader, writer, send = await _proven(port, counter, role="player", source=source)
            except OSError:
                await asyncio.sleep(0.1)
                continue
            send(_claim())
            mine.append(writer)
            await asyncio.sleep(1 / 16)  # the per-address budget of new connections (wire.md §2.1)

    sources = [f"127.0.1.{i}" for i in range(1, 9)]  # 72 places asked for from 8 addresses at once
    await asyncio.gather(*(fill(source) for source in sources))
    while not stop.is_set():
        if tried < 6:  # a spectator from yet another address, when the places are full
            tried += 1
            events: list = []
            with contextlib.suppress(OSError):
                _r, writer, _s = await _proven(port, counter, role="spectator", source="127.0.0.2", events=events)
                welcomed += any(type(e).__name__ == "Welcome" for e in events) and not writer.is_closing()
                held.setdefault("127.0.0.2", []).append(writer)
            counter.note = f"{welcomed} of {tried} spectators welcomed"
        await asyncio.gather(*(fill(source) for source in sources))  # take the places back
        await asyncio.sleep(0.1)
    for writers in held.values():
        for writer in writers:
            await _close(writer)


async def _burst_on(port: int, counter: Counter, stop: asyncio.Event, burst: bytes, role: str = "player") -> None:
    """Sends *burst* as fast as the peer reads it, on a proven connection, and on a new one whenever
    the peer closes it."""
    while not stop.is_set():
        with contextlib.suppress(OSError):
            reader, writer, send = await _proven(port, counter, role=role)
            drain = asyncio.create_task(_drain(reader, counter, stop))
            while not stop.is_set() and not writer.is_closing() and not drain.done():
                send(burst)
                await writer.drain()
                await asyncio.sleep(0.001)
            drain.cancel()
            await _close(writer)
        await asyncio.sleep(0.01)


async def bad_seq(port: int, counter: Counter, stop: asyncio.Event) -> None:
    """``error bad-seq`` with seq 1, again and again: each asked for the whole log back."""
    from carcnet.net.messages import Error

    await _burst_on(port, counter, stop, encode_message(Error(code="bad-seq", message="again", seq=1)) * 50)


async def vote_replay(port: int, counter: Counter, stop: asyncio.Event) -> None:
    """Watches the game as a spectator for a while, keeps the ``ack``s it is sent, then sends them
    back again and again (each was checked once more before, the connection kept)."""
    from carcnet.net.framing import FrameDecoder
    from carcnet.net.messages import Ack, from_wire

    acks: list[bytes] = []
    with contextlib.suppress(OSError):
        reader, writer, _send = await _proven(port, counter)
        decoder = FrameDecoder()
        for _ in range(40):
            data = await _read_some(reader, counter, timeout=0.1)
            decoder.feed(data)
            while (frame := decoder.next_frame()) is not None:
                with contextlib.suppress(Exception):
                    ack = from_wire(frame)
                    if isinstance(ack, Ack):
                        acks.append(encode_message(ack))
            if len(acks) >= 8:
                break
        await _close(writer)
    counter.note = f"{len(acks)} acks captured"
    if acks:
        await _burst_on(port, counter, stop, b"".join(acks) * 20)


async def unproven_hellos(port: int, counter: Counter, stop: asyncio.Event) -> None:
    """Hellos of players that say where they listen and never send their proof."""
    writers = []
    for i in range(30):
        with contextlib.suppress(OSError):
            me = SeatKey.generate()
            _reader, writer, send = await _open(port, counter)
            send(encode_message(Hello(game=bench_net.GAME, role="player", name=f"Junk{i}", key=me.public,
                                      port=41000 + i)))
            writers.append(writer)
    await stop.wait()
    for writer in writers:
        await _close(writer)


async def _event_open(port: int, counter: Counter, source: str, me: SeatKey | None = None, event: str = ""):
    """A connection to the event service at *port* from *source* that proves *me* (or a throwaway
    key): (reader, writer, send, link)."""
    reader, writer, send = await _open(port, counter, source)
    link = EventLink("connector", me or SeatKey.generate(), event=event, max_frame=1 << 20, max_bin=1 << 20)
    send(link.data_to_send())
    while not link.open:
        data = await _read_some(reader, counter)
        if not data:
            await _close(writer)
            raise OSError("closed in the handshake")
        link.receive_data(data)
    send(link.data_to_send())  # our proof
    return reader, writer, send, link


async def _event_ask(reader, send, link: EventLink, counter: Counter, request: dict):
    """*request*'s reply on an open event connection, ``None`` when the service closed it first."""
    link.send(request)
    send(link.data_to_send())
    while (reply := link.next_message()) is None:
        data = await _read_some(reader, counter)
        if not data:
            return None
        link.receive_data(data)
    return reply


async def _honest_probes(port: int, stop: asyncio.Event, tally: list) -> None:
    """An honest laptop's status request from 127.0.0.1 every 100 ms: *tally* = [asked, answered,
    then the reason of each not answered]."""
    me = SeatKey.generate()
    quiet = Counter()
    while not stop.is_set():
        tally[0] += 1
        try:
            reader, writer, send, link = await _event_open(port, quiet, "127.0.0.1", me)
            reply = await _event_ask(reader, send, link, quiet, {"type": "status?", "nonce": os.urandom(16), "port": 0})
            tally[1] += reply is not None and reply.get("type") == "status"
            if reply is None:
                tally.append("no reply")
            await _close(writer)
        except (OSError, ProtocolError, TimeoutError) as exc:
            tally.append(str(exc)[:40])
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.1)  # the honest laptop's pace


async def event_idle(port: int, counter: Counter, stop: asyncio.Event) -> None:
    """No attack: the honest probes alone."""
    await stop.wait()


async def event_enrol(port: int, counter: Counter, stop: asyncio.Event) -> None:
    """Well-signed enrolments under fresh names by throwaway keys from 200 addresses, 16 connections
    at a time, four enrolments each (issue 44 item 3)."""
    reader, writer, send, link = await _event_open(port, counter, "127.0.0.2")
    roster = await _event_ask(reader, send, link, counter, {"type": "charter?"})
    await _close(writer)
    event = str(roster["event"]) if roster else ""
    tally = {"enrolled": 0, "error": 0, "closed": 0}

    async def one(worker: int) -> None:
        i = 0
        while not stop.is_set():
            i += 1
            me = SeatKey.generate()
            try:
                reader, writer, send, link = await _event_open(port, counter, f"127.0.3.{(worker * 13 + i) % 200 + 1}",
                                                               me, event)
            except (OSError, ProtocolError, TimeoutError):
                tally["closed"] += 1
                await asyncio.sleep(0.001)  # the attacker's pace once refused
                continue
            for k in range(4):
                name = f"Junk {worker}.{i}.{k}"
                with contextlib.suppress(OSError, ProtocolError, TimeoutError):
                    reply = await _event_ask(reader, send, link, counter, {
                        "type": "enrol", "event": event, "name": name, "key": me.public, "bot": "greedy", "port": 9,
                        "sig": me.sign(enrol_bytes(event, name, "greedy"))})
                    tally["closed" if reply is None else "enrolled" if reply["type"] == "enrolled" else "error"] += 1
                    if reply is None:
                        break
            await _close(writer)

    await asyncio.gather(*(one(w) for w in range(16)))
    counter.note = f"enrolments: {tally['enrolled']} taken, {tally['error']} refused, {tally['closed']} connections closed"


async def event_flood(port: int, counter: Counter, stop: asyncio.Event) -> None:
    """64 connections at a time from one address, each proving a throwaway key, asking a status and
    held; opened again as soon as the service closes or refuses it (issue 44 item 4)."""
    tally = {"answered": 0, "refused": 0}

    async def one() -> None:
        while not stop.is_set():
            try:
                reader, writer, send, link = await _event_open(port, counter, "127.0.0.2")
                reply = await _event_ask(reader, send, link, counter,
                                         {"type": "status?", "nonce": os.urandom(16), "port": 0})
                tally["answered"] += reply is not None
                while not stop.is_set() and await _read_some(reader, counter, timeout=0.5):
                    pass
                await _close(writer)
            except (OSError, ProtocolError, TimeoutError):
                tally["refused"] += 1
                await asyncio.sleep(0.001)  # the attacker's pace once refused

    await asyncio.gather(*(one() for _ in range(64)))
    counter.note = f"flood: {tally['answered']} statuses answered, {tally['refused']} connections refused or closed"


async def _attack(kind: str, port: int, stop_flag, queue) -> None:
    counter = Counter()
    stop = asyncio.Event()
    await asyncio.sleep(ATTACK_DELAY)
    task = asyncio.create_task(globals()[kind.replace("-", "_")](port, counter, stop))
    tally = [0, 0]
    probes = asyncio.create_task(_honest_probes(port, stop, tally)) if kind in EVENT_ATTACKS else None
    while not stop_flag.is_set():
        await asyncio.sleep(0.05)
    stop.set()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(task, 5)
    if probes is not None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(probes, 5)
        why = ", ".join(f"{n} {reason}" for reason, n in collections.Counter(tally[2:]).most_common())
        counter.note = "; ".join(n for n in (counter.note, f"honest statuses answered {tally[1]}/{tally[0]}"
                                             + (f" (not: {why})" if why else "")) if n)
    queue.put((counter.sent, counter.received, counter.note))


def _attacker_process(kind, port, game, stop_flag, queue, event_port=None) -> None:
    bench_net.GAME = game  # the attacked game's id (a table-draws game's is made from its seed)
    if event_port is not None:
        while not event_port.value and not stop_flag.is_set():
            time.sleep(0.01)  # until P0's event listens (a benchmark's setup)
        port = event_port.value
    asyncio.run(_attack(kind, port, stop_flag, queue))


def _as_table(session) -> None:
    """Makes *session* judge heartbeat claims as a network table does: on every change it tells, a
    ``peer`` change is judged (``NetView.heard``) and the table looks at its presence (what
    ``NetTable`` does: seats to give back, cut off or not)."""
    from carcnet.table.netview import NetView

    class View(NetView):  # the session's table without its sockets (bench_net runs those)
        async def __aenter__(self):
            return self

        async def aclose(self) -> None:
            pass

        def close(self) -> None:
            pass

    view = View(session, "player", bot_delay=0.0, bot_names=None, reveal_wait=10.0)

    def react(change, link) -> None:
        if change == "peer":
            view.heard(link)
        if change in ("entry", "open", "close", "peer") and session.game is not None:
            view.presence().hand_back({}, ())
            _ = view.cut_off

    session.add_listener(react)


class _TableSession(bench_net.SyncSession):
    """A session that judges claims as a network table does (:func:`_as_table`)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        _as_table(self)


def _rss_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


async def _with_event(args, event_port) -> tuple:
    """P0's game with an event open beside it in the same process (an opener waiting for players, its
    service on 127.0.0.1), its port published in *event_port*."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="carcnet-bench-event-") as tmp:
        runner = EventRunner.open(SeatKey.generate(), event_name="Bench night", data_dir=Path(tmp), name="P0",
                                  players=[("P0 greedy", "greedy")], listen=("127.0.0.1", 0), table_host="127.0.0.1")
        event = asyncio.create_task(runner.run(start_when=10**6))
        while runner.port is None and not event.done():
            await asyncio.sleep(0.01)  # until the service listens (a benchmark's setup)
        event_port.value = runner.port or 0
        try:
            return await bench_net.run_player(*args)
        finally:
            event.cancel()
            await asyncio.gather(event, return_exceptions=True)


def _player_process(args, queue, event_port=None) -> None:
    if args[0] == "P0":  # the attacked peer judges claims as a table does
        bench_net.SyncSession = _TableSession
    start = _rss_kb("VmRSS")
    if args[0] == "P0" and event_port is not None:
        result = asyncio.run(_with_event(args, event_port))
    else:
        result = asyncio.run(bench_net.run_player(*args))
    queue.put((args[0], result, _rss_kb("VmHWM") - start))


def one_game(kind: str, seed: int) -> tuple[list[float], float, int, int, str, float]:
    """Latencies (ms), P0's peak RSS growth (MB), attacker bytes out and in, the attack's note, P0's CPU
    seconds from the first move to the last (what the attack cost the attacked peer itself, whatever
    else runs on the machine)."""
    ctx = mp.get_context("fork")
    players = 3
    wh = bench_net.header(players, seed)
    ports = bench_net.free_ports(players)
    barrier = ctx.Barrier(players)
    queue, attack_queue = ctx.Queue(), ctx.Queue()
    stop_flag = ctx.Event()
    event_port = ctx.Value("i", 0) if kind in EVENT_ATTACKS else None
    procs = [
        ctx.Process(target=_player_process, args=((f"P{i}", wh, [i], ports[i], ports[:i], players - 1,
                                                   PACE_MS / 1000, None, None, barrier), queue, event_port))
        for i in range(players)
    ]
    attacker = None
    if kind != "baseline":
        attacker = ctx.Process(target=_attacker_process, args=(kind, ports[0], wh.game, stop_flag, attack_queue,
                                                               event_port))
    for p in procs:
        p.start()
    if attacker is not None:
        attacker.start()
    results = [queue.get(timeout=600) for _ in procs]
    stop_flag.set()
    out = attack_queue.get(timeout=60) if attacker is not None else (0, 0, "")
    for p in procs:
        p.join(60)
    if attacker is not None:
        attacker.join(60)
    made: dict[int, int] = {}
    applied = []
    rss = 0
    cpu = 0.0
    for name, (m, a, spent, *_rest), grown in results:  # made, applied, CPU seconds, turn ends
        made.update(m)
        applied.append((m, a))
        if name == "P0":
            rss, cpu = grown, spent
    return bench_net.latencies(made, applied), rss / 1024, out[0], out[1], out[2], cpu


def _p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def _games(kind: str, games: int, paired: bool) -> dict:
    """*games* games under *kind*, and with *paired* as many baseline games, each just before its
    attacked game (so that both see the same load of a shared machine)."""
    out: dict = {"samples": [], "base": [], "rss": 0.0, "base_rss": 0.0, "sent": 0, "received": 0, "notes": [],
                 "cpu": 0.0, "base_cpu": 0.0}
    for g in range(games):
        if paired:  # an attack on the event is compared to the same event unattacked
            lat, grown, *_, cpu = one_game("event-idle" if kind in EVENT_ATTACKS else "baseline", 11 + g)
            out["base"] += lat
            out["base_rss"] = max(out["base_rss"], grown)
            out["base_cpu"] += cpu
        lat, grown, s, r, note, cpu = one_game(kind, 11 + g)
        out["cpu"] += cpu
        out["samples"] += lat
        out["rss"] = max(out["rss"], grown)
        out["sent"] += s
        out["received"] += r
        if note:
            out["notes"].append(note)
    return out


def main(argv: list[str] | None = None) -> int:
    logging.getLogger("carcnet").setLevel(logging.CRITICAL)  # the refusals are the point, not news
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)  # an attacker writing to sockets the peer closed
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=ATTACKS, action="append", help="run only these (repeatable)")
    parser.add_argument("--games", type=int, default=1, help="games per attack (default 1)")
    parser.add_argument("--paired", action="store_true",
                        help="each attacked game just after a baseline game of its own, the row compared to those "
                             "(on a shared machine whose load changes during the run)")
    args = parser.parse_args(argv)
    kinds = args.only or list(ATTACKS)
    if "baseline" not in kinds and not args.paired:
        kinds = ["baseline", *kinds]
    print(f"carcnet under attack: 3 player peers, moves {PACE_MS} ms apart, {os.cpu_count()} CPUs, "
          f"Python {sys.version.split()[0]}; P0 attacked from another process"
          + ("; each row against its own baseline games, played in turn with its games" if args.paired else ""))
    base_p99 = None
    for kind in kinds:
        run = _games(kind, args.games, args.paired and kind != "baseline")
        samples = run["samples"]
        p99 = _p99(samples)
        if kind == "baseline":
            base_p99 = p99
        elif args.paired:
            base_p99 = _p99(run["base"])
        ratio = f"{p99 / base_p99:4.1f}x" if base_p99 else "  - "
        sent, received, notes = run["sent"], run["received"], run["notes"]
        amp = f"{received / sent:5.2f}" if sent else "   - "
        paired = (f"  (its baseline: median {statistics.median(run['base']):.2f}, p99 {base_p99:.2f} ms, "
                  f"RSS +{run['base_rss']:.1f} MB, P0 CPU {run['base_cpu']:.2f} s)"
                  if args.paired and kind != "baseline" else "")
        print(f"{kind:<14} moves {len(samples):4d}  median {statistics.median(samples):6.2f}  p99 {p99:7.2f} ms "
              f"({ratio} baseline)  P0 peak RSS +{run['rss']:5.1f} MB, CPU {run['cpu']:5.2f} s  attacker sent {sent / 1e6:8.2f} MB, "
              f"got {received / 1e6:8.2f} MB (out/in {amp})" + (f"  [{'; '.join(notes)}]" if notes else "") + paired,
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
