"""Test harness for LAN play on loopback: the peers of one game (:class:`LoopbackGame`), a raw socket client that speaks frames by
hand, and an in-memory wire between sessions (no sockets). Shared by test_sync.py and
test_transport.py; nothing here sleeps to synchronise: waits are on the sessions' change
notifications, bounded by ``asyncio.wait_for``."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any, Self

from carcnet.bots import Bot, make_bot
from carcnet.engine import Game
from carcnet.log import COLOURS, LogEntry, LogHeader, Seat
from carcnet.net import (
    Entries,
    Error,
    FrameDecoder,
    Hello,
    Message,
    Proof,
    Reject,
    SeatKey,
    SignedEntry,
    Welcome,
    WireHeader,
    encode_message,
    from_wire,
    sign_entry,
    sign_proof,
    verify_proof,
)
from carcnet.net.link import Link
from carcnet.net.peer import Peer
from carcnet.net.sync import MemoryLog, SessionChange, SyncSession
from carcnet.net.transport import Timing
from carcnet.table.driver import BotDriver

GAME = "c4dcaf0e5e1d4b7a9a0c2f3e4d5b6a79"
#: Short clocks for tests; heartbeats flow during games, nothing is slow enough to be taken for dead.
FAST = Timing(handshake=2.0, heartbeat=0.5, dead=5.0, connect=2.0, close=1.0, backoff=(0.05, 0.1, 0.2))
#: Longest wait for anything in these tests.
LIMIT = 20.0


def seat_key(seat: int) -> SeatKey:
    return SeatKey.from_seed(hashlib.sha256(f"carcnet test seat {seat}".encode()).digest())


def identity(name: str) -> SeatKey:
    return SeatKey.from_seed(hashlib.sha256(f"carcnet test peer {name}".encode()).digest())


#: The rules version of the tests' headers: the scenarios scripted on them (who is the table's taker,
#: whose turn a step falls on) follow the tie order their header draws, and a header of another rules
#: version draws another; the engine plays every supported version alike over the network.
HEADER_RULES = 4


def make_header(players: int, *, seed: int = 2024, order: Sequence[str] | None = None,
                rules: int = HEADER_RULES) -> WireHeader:
    """A test game's header: fixed seed (or draw order), the seats' public keys, no commit–reveal,
    under rules version *rules*."""
    seats = [Seat(f"Seat{i}", COLOURS[i], "bot", "random") for i in range(players)]
    if order is not None:
        header = LogHeader.new(seats, order=order, created=0, game=GAME, rules=rules)
    else:
        header = LogHeader.new(seats, seed=seed, created=0, game=GAME, rules=rules)
    return WireHeader(header, tuple(seat_key(i).public for i in range(players)))


def sign(entry: LogEntry, key: SeatKey | None = None) -> SignedEntry:
    """*entry* signed by *key* (its seat's key by default)."""
    key = key or seat_key(entry.seat)
    return SignedEntry(entry, sign_entry(key, GAME, entry))


class BotPeer(Peer):
    """A peer with the bots of its seats, composed as a network table composes them: a
    :class:`~carcnet.table.driver.BotDriver` (:attr:`driver`) woken by the session's changes plays
    them until the peer closes. *bots*: seat → bot; the other arguments are :class:`Peer`'s."""

    def __init__(self, session: SyncSession, *, bots: Mapping[int, Bot], timing: Timing) -> None:
        super().__init__(session, timing=timing)
        self.driver = BotDriver(session, session.submit, bots=bots, name=session.name)
        self._driving: asyncio.Task[None] | None = None
        session.add_listener(self._wake)

    def _wake(self, change: SessionChange, link: Link | None) -> None:
        if change in ("entry", "header", "stop"):
            self.driver.wake()

    async def __aenter__(self) -> Self:
        await super().__aenter__()
        self._driving = asyncio.create_task(self.driver.run())
        return self

    def close(self, reason: str = "quit") -> None:
        if self._driving is not None:
            self._driving.cancel()
        super().close(reason)

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await super().__aexit__(kind, exc, tb)
        if self._driving is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._driving


class LoopbackGame:
    """Peers of one game on loopback, entered and left together.

    Lifecycle: ``async with LoopbackGame(header) as table:`` then :meth:`player` / :meth:`spectator`; leaving
    closes every peer (bye) and waits for every task.
    """

    def __init__(self, header: WireHeader, timing: Timing = FAST) -> None:
        self.header = header
        self.timing = timing
        self.peers: list[Peer] = []
        self._stack = contextlib.AsyncExitStack()

    async def __aenter__(self) -> Self:
        await self._stack.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> bool | None:
        for peer in self.peers:
            peer.close()
        return await self._stack.__aexit__(*exc)

    async def player(
        self,
        name: str,
        seats: Iterable[int],
        *,
        dial: Iterable[Peer] = (),
        bots: bool = True,
        entries: Sequence[SignedEntry] = (),
        store: MemoryLog | None = None,
        key: SeatKey | None = None,
    ) -> BotPeer:
        """A player peer named *name* playing *seats*, dialling *dial*; its identity key is *key* (a
        player's seat key, as at a real table, wire.md §3.1) or else one made from its name."""
        seats = list(seats)
        session = SyncSession(
            game=GAME,
            name=name,
            identity=key if key is not None else identity(name),
            header=self.header,
            seats={s: seat_key(s) for s in seats},
            entries=entries,
            persistence=store if store is not None else MemoryLog(entries),
        )
        robots = {s: make_bot("random", 100 + s) for s in seats} if bots else {}
        player = BotPeer(session, timing=self.timing, bots=robots)
        await self._add(player, dial)
        return player

    async def spectator(self, name: str, *, dial: Iterable[Peer] = (), header: bool = False) -> Peer:
        session = SyncSession(
            game=GAME,
            name=name,
            role="spectator",
            identity=identity(name),
            header=self.header if header else None,
        )
        return await self._add(Peer(session, timing=self.timing, listen=False), dial)

    async def _add(self, peer: Peer, dial: Iterable[Peer]) -> Peer:
        await self._stack.enter_async_context(peer)
        self.peers.append(peer)
        for other in dial:
            peer.dial(*other.address)
        return peer


async def until(peers: Sequence[Peer], predicate: Callable[[], bool], timeout: float = LIMIT) -> None:
    """Returns once *predicate()* holds, checked after every change of any of *peers*."""
    if predicate():
        return
    waits = [asyncio.ensure_future(peer.wait_until(predicate, None)) for peer in peers]
    try:
        done, _ = await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if not done:
            raise TimeoutError(f"not within {timeout} s")
        for task in done:
            task.result()
    finally:
        for task in waits:
            task.cancel()
        await asyncio.gather(*waits, return_exceptions=True)


async def session_until(session: SyncSession, predicate: Callable[[], bool], timeout: float = LIMIT) -> None:
    """Returns once *predicate()* holds, checked after every change of *session* (no Peer needed)."""
    if predicate():
        return
    future: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def check(change: object, link: object) -> None:
        if not future.done() and predicate():
            future.set_result(None)

    session.add_listener(check)
    await asyncio.wait_for(future, timeout)


async def all_over(peers: Sequence[Peer], timeout: float = LIMIT) -> None:
    """Returns once every peer holds the finished game, with the same number of entries."""
    await until(
        peers,
        lambda: all(p.session.over for p in peers) and len({p.session.have for p in peers}) == 1,
        timeout,
    )


def assert_identical(peers: Sequence[Peer]) -> None:
    """Every peer holds the same entries, digest and scores, and the scores are the engine's own."""
    first = peers[0].session
    assert first.game is not None
    replayed = Game(first.header.header.setup())  # type: ignore[union-attr]
    for signed in first.entries:
        replayed.apply(signed.entry.move)
    for peer in peers:
        s = peer.session
        assert s.game is not None
        assert s.entries == first.entries, s.name
        assert s.digest == first.digest == replayed.digest, s.name
        assert s.game.scores == replayed.scores, s.name
        assert not s.stopped, s.desync
        assert s.replica.persistence.entries == s.entries, s.name  # type: ignore[attr-defined]  # saved as it grew


def refusals(peer: Peer) -> list[tuple[str, str]]:
    """(kind, code) of every error or reject this peer sent or received, but a ``wrong-game`` it
    sent: a peer of another test, in another worker, may dial a loopback port it knew that a peer
    here was given since (no peer of one game names another game, so it is a stranger's)."""
    return [(e.kind, e.code) for e in peer.session.connections.events
            if e.kind in ("sent", "received") and (e.kind, e.code) != ("sent", "wrong-game")]


class RawClient:
    """A hand-driven connection: frames in and out, no session. For bad input and protocol checks."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.decoder = FrameDecoder()
        self.received: list[Message] = []

    @classmethod
    async def open(cls, address: tuple[str, int]) -> RawClient:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(*address), LIMIT)
        return cls(reader, writer)

    async def send(self, message: Message) -> None:
        await self.send_raw(encode_message(message))

    async def send_raw(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def hello(
        self, name: str, *, role: str = "player", have: int = 0, digest: bytes | None = None,
        prove: bool = True, key: SeatKey | None = None, **kw: Any,
    ) -> Welcome:
        """The handshake as *name* (its identity key from :func:`identity`, or *key*): hello, the
        welcome and its proof (checked), then this side's proof (wire.md §3.4) unless not *prove*."""
        kw.setdefault("key", identity(name).public)
        hello = Hello(game=GAME, role=role, name=name, have=have, digest=digest, **kw)  # type: ignore[arg-type]
        frame = encode_message(hello)
        await self.send_raw(frame)
        message = await self.next()
        assert isinstance(message, Welcome), message
        welcome_body = self.decoder.last_body
        proof = await self.next()
        assert isinstance(proof, Proof), proof
        assert verify_proof(message.key, "acceptor", frame[4:], welcome_body, proof.sig)
        if prove:
            signer = key if key is not None else identity(name)
            await self.send(Proof(sig=sign_proof(signer, "connector", frame[4:], welcome_body)))
        return message

    async def next(self, timeout: float = LIMIT) -> Message | None:
        """The next message, or ``None`` once the stream ended."""
        while True:
            frame = self.decoder.next_frame()
            if frame is not None:
                message = from_wire(frame)
                self.received.append(message)
                return message
            data = await asyncio.wait_for(self.reader.read(1 << 16), timeout)
            if not data:
                return None
            self.decoder.feed(data)

    async def refusal(self, timeout: float = LIMIT) -> Error | Reject:
        """Reads until an ``error`` or ``reject`` arrives (entries and heartbeats are skipped)."""
        while True:
            message = await self.next(timeout)
            assert message is not None, f"the stream ended without an error; got {self.received}"
            if isinstance(message, Error | Reject):
                return message

    async def closed(self, timeout: float = LIMIT) -> bool:
        """Whether the peer closes the stream (reads and drops messages until it does)."""
        while True:
            if await self.next(timeout) is None:
                return True

    async def entries(self, upto: int, timeout: float = LIMIT) -> list[SignedEntry]:
        """Reads ``entries`` until it holds seqs 1..*upto*."""
        held: dict[int, SignedEntry] = {}
        while len(held) < upto:
            message = await self.next(timeout)
            assert message is not None
            if isinstance(message, Entries):
                for signed in message.entries:
                    held[signed.seq] = signed
        return [held[i] for i in range(1, upto + 1)]

    async def aclose(self) -> None:
        self.writer.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.writer.wait_closed(), 2)


class MemoryWire:
    """Two sessions' links joined in memory: :meth:`pump` carries bytes both ways until both are quiet."""

    def __init__(
        self, connector: SyncSession, acceptor: SyncSession, address: tuple[str, int] = ("127.0.0.1", 1)
    ) -> None:
        self.connector, self.acceptor = connector, acceptor
        self.a = connector.connect_link(address)
        self.b = acceptor.connections.accept_link()

    def pump(self, rounds: int = 1000) -> None:
        for _ in range(rounds):
            moved = False
            for src, dst in ((self.a, self.b), (self.b, self.a)):
                data = src.data_to_send()
                if data:
                    moved = True
                    dst.receive_data(data)
            if not moved:
                return
        raise AssertionError("the links kept talking")


def counter_random(label: str):
    """Deterministic random bytes for a test: SHA-256 of *label* and a counter."""
    counter = itertools.count()

    def random(n: int) -> bytes:
        out = b""
        while len(out) < n:
            out += hashlib.sha256(f"{label} {next(counter)}".encode()).digest()
        return out[:n]

    return random


def pump(*wires: MemoryWire, rounds: int = 200) -> None:
    """Carries bytes on every wire until all are quiet."""
    for _ in range(rounds):
        moved = False
        for wire in wires:
            for src, dst in ((wire.a, wire.b), (wire.b, wire.a)):
                data = src.data_to_send()
                if data:
                    moved = True
                    dst.receive_data(data)
        if not moved:
            return
    raise AssertionError("the wires kept talking")


def takeover_taker(tables: Sequence[Any], gone: int) -> Any:
    """Of *tables* (``NetTable``s still at the table), the one that takes seat *gone* over when its
    laptop is gone (wire.md §5.6): the one whose own seat comes first in the table's tie order."""
    votes = tables[0].session.replica.votes
    assert votes is not None and votes.tie is not None, "the tie order is drawn"
    order = votes.tie.order
    return min(tables, key=lambda t: min(order.index(s) for s in t.session.seats if s != gone))
