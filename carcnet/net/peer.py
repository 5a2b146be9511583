"""Provides :class:`Peer`: a :class:`~carcnet.net.sync.SyncSession` on the network.

The composition of the LAN layers (as pynvim's ``session()`` stacks its own): one listening socket
(:func:`~carcnet.net.transport.serve`), one :class:`~carcnet.net.transport.Channel` per connection, and a
dialer per known address that reconnects with the back-off of ``protocol/wire.md`` §2.1; this peer's
own moves come in through :meth:`SyncSession.submit`, from whoever plays its seats. Player peers form a
mesh: a peer dials every player peer it learns of (given with :meth:`Peer.dial`, from discovery via
:meth:`Connections.add_known`, or from the ``peers`` of a ``welcome``), and duplicate connections are
resolved as wire.md §2.1 says. Spectators dial only what they are told and listen nowhere; when their
last connection ends they fail over to the other players they know of (the ``peers`` of a ``welcome``,
wire.md §4.2), one connection being enough, with the dials bounded as a hint's are; and they keep a
connection only while it makes progress, asking another player when the game seems to stand still
(wire.md §5.10).

Every task is held by the peer's :class:`asyncio.TaskGroup`, entered and left with ``async with``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Self

from .connections import DISCOURAGED_PER_SECOND, Pace, at_table_address
from .link import Link
from .sync import SessionChange, SyncSession
from .transport import Channel, Listener, Timing, connect, serve

__all__ = ["Peer"]

log = logging.getLogger("carcnet.net")

#: Opens one stream to a peer by another way than an address (an invite's pairing, wire.md §2.3).
#: Opens a stream to one peer another way than TCP (an invite's pairing); ``None``: nothing to open
#: any more (the dialling through it ends).
Opener = Callable[[], Awaitable[tuple[asyncio.StreamReader, asyncio.StreamWriter] | None]]

#: Ways a connection may end after which its dialer tries again (wire.md §2.1): the stream broke or
#: went quiet. After ``bye`` quit/shutdown/game-over/duplicate, a reject or an error, it does not.
_RETRY = frozenset({"eof", "timeout"})
#: wire.md §2.1 budgets: connections a peer has accepted and not closed, in all; and of those still
#: in their handshake (not proven), from one IP address. A table has at most 6 players and some
#: spectators; more is someone spending our memory (each connection may hold an incomplete frame of
#: up to 1 MiB for Timing.frame seconds, an unproven one for Timing.handshake seconds).
MAX_ACCEPTED = 64
MAX_HANDSHAKES_PER_ADDRESS = 8
#: New connections a peer accepts from one IP address within one second (wire.md §2.1): a table needs
#: a handful; a stranger opening connection after connection makes us do a handshake (a signature,
#: a verification, a welcome) for each.
MAX_NEW_PER_ADDRESS_PER_SECOND = 16
#: Attempts in a row after which a learned address whose key is not confirmed is given up and
#: forgotten (wire.md §4.2): about a minute with the back-off of §2.1. A spectator's fail-over dials
#: give up after as many, confirmed addresses too (§5.10).
MAX_HINT_FAILURES = 6
#: Seconds from a received entry to the fsync that makes it durable, with every entry received
#: meanwhile (protocol/log.md §9: a received entry is written at once, durable soon after).
SYNC_DELAY = 0.05


class Peer:
    """A running LAN peer: the session's sockets, reconnection, fail-over and durable saves.

    Lifecycle: ``async with Peer(session, …) as peer:`` starts listening (when *listen*); :meth:`dial`
    adds peers to connect to; leaving the block (or :meth:`aclose`) says ``bye`` on every connection,
    stops listening and ends every task.

    Args:
        session: The game's session.
        host: Where to listen.
        port: The port to listen on (0: any free port, see :attr:`port`).
        listen: Whether to accept connections (spectators need not).
        timing: The clocks of wire.md §2.1.
        dial_learned: Whether to dial the player peers that welcomes name (players: yes).

    Attributes:
        session: The session.
    """

    def __init__(
        self,
        session: SyncSession,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        listen: bool = True,
        timing: Timing | None = None,
        dial_learned: bool | None = None,
    ) -> None:
        self.session = session
        self.host = host
        self.port = port
        self.listen = listen
        self.timing = timing or Timing()
        self.dial_learned = session.role == "player" if dial_learned is None else dial_learned
        self._tasks: asyncio.TaskGroup | None = None
        self._server: Listener | None = None
        self._dialers: dict[tuple[str, int], asyncio.Task[None]] = {}
        self._failover: set[tuple[str, int]] = set()  # addresses a spectator dials since it lost its link
        #: A spectator's following (wire.md §5.10): since when each open link (by id) has said it holds
        #: more than this peer, or less than another link gave, when any entry last came, the addresses
        #: it left for that (dialled only when no other is left), and the one it asks while the game
        #: seems to stand still.
        self._lagging: dict[int, float] = {}
        self._last_entry = 0.0
        self._left: set[tuple[str, int]] = set()
        self._probing: tuple[str, int] | None = None
        self._probe_turn = 0
        self._follower: asyncio.Task[None] | None = None
        self._waiters: list[tuple[Callable[[], bool], asyncio.Future[None]]] = []
        self._closing = False
        self._channels: set[asyncio.Task[object]] = set()
        #: Connections refused at once by the budgets of wire.md §2.1 (for tests and the log).
        self.refused_connections = 0
        self._accepts = Pace(4 * MAX_ACCEPTED)  # remote IP → accept times in the last second
        self._syncing = False  # an fsync of received entries is due or running (in a worker thread)
        self._sync_timer: asyncio.TimerHandle | None = None
        self._sync_again = False
        #: Address → failed connection attempts in a row (for the interface: "cannot reach …").
        self.unreachable: dict[tuple[str, int], int] = {}
        session.add_listener(self._on_change)

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> Self:
        self._tasks = asyncio.TaskGroup()
        await self._tasks.__aenter__()
        try:
            if self.listen:
                self._server = await serve(self.host, self.port, self._accepted, self._tasks, admit=self._admit,
                                           screen=self._screen)
                self.port = self._server.sockets[0].getsockname()[1]
                self.session.connections.set_listen_port(self.port)  # told in every hello (wire.md §4.1)
            else:
                self.session.connections.set_listen_port(None)
        except BaseException as exc:
            await self._tasks.__aexit__(type(exc), exc, exc.__traceback__)
            raise
        if not self.dial_learned:
            self._last_entry = asyncio.get_running_loop().time()
            self._follower = self._tasks.create_task(self._follow())
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
        assert self._tasks is not None
        await self._tasks.__aexit__(kind, exc, tb)

    def close(self, reason: str = "quit") -> None:
        """Leaves: ``bye`` *reason* on every connection, no more listening or dialing. The
        tasks end on their own; leaving the ``async with`` block waits for them.

        A player leaving a game going on on purpose (``quit`` or ``shutdown``) gives its votes first
        (wire.md §5.9 "Two seats, and leaving"); while a link to a player is open and the table does
        not hold what it gave (the give's seq committed here), its ``bye`` waits, at most
        ``timing.leave`` seconds, answering as ever: a peer that lacks its last entries (a flap, a
        heal just made) gets them, and with them the vote given, rather than a give it cannot use."""
        if self._closing:
            return
        self._closing = True
        held = self._given_seq(reason)
        if held is not None and self._tasks is not None:
            self._tasks.create_task(self._bye_once_held(reason, held))
        else:
            self._leave(reason)
        for _, future in self._waiters:
            if not future.done():
                future.cancel()
        if self._sync_timer is not None:  # the entries received last are made durable now
            self._sync_timer.cancel()
            self._sync_timer = None
            self._sync_now()

    def _leave(self, reason: str) -> None:
        """``bye`` *reason* on every connection, then no more listening or dialing (a server closed
        first would cut the connections it accepted without a word)."""
        self.session.close(reason)
        if self._server is not None:
            self._server.close()
        for task in [*self._dialers.values(), *([self._follower] if self._follower else [])]:
            task.cancel()

    def _given_seq(self, reason: str) -> int | None:
        """Gives this player's votes as it leaves (``quit``, ``shutdown``): the seq of the give when the
        table does not hold it yet and a link to a player is open to deliver it, else ``None``."""
        if reason not in ("quit", "shutdown"):
            return None
        given = self.session.give_votes()
        if given is None or not given.gives or self._handed_off(given.gives[0].seq):
            return None
        return given.gives[0].seq

    def _handed_off(self, seq: int) -> bool:
        """Whether a leaving player may say ``bye``: its give's *seq* is committed here, or no link to
        a player is open (nobody to deliver to)."""
        session = self.session
        return session.replica.commit_index >= seq or not any(
            link.role != "spectator" for link in session.connections.open_links())

    async def _bye_once_held(self, reason: str, seq: int) -> None:
        try:
            await self.wait_until(lambda: self._handed_off(seq), self.timing.leave)
        except TimeoutError:
            log.info("left before the table held the votes given at seq %s", seq)
        finally:
            self._leave(reason)

    async def aclose(self, reason: str = "quit") -> None:
        """:meth:`close`, then waits until every connection's socket is closed (each channel bounds
        its own wait by ``timing.close``)."""
        self.close(reason)
        if self._channels:
            await asyncio.wait(set(self._channels))

    @property
    def address(self) -> tuple[str, int]:
        """Where this peer listens."""
        return self.host, self.port

    # ------------------------------------------------------------------ connections

    def dial(self, host: str, port: int, *, learned: bool = False, attempts: int | None = None) -> None:
        """Connects to the peer at *host*:*port*, and again after the connection breaks (back-off of
        wire.md §2.1), until it ends for another reason or this peer closes. Idempotent per address.
        A *learned* address (from the book, not from the user) whose key is not confirmed is given up
        after :data:`MAX_HINT_FAILURES` attempts in a row that did not open, and forgotten (§4.2).
        With *attempts*, any address is given up after that many attempts in a row that did not open
        (a spectator's fail-over and its asking another, §5.10)."""
        address = (host, port)
        if self._closing or self._tasks is None:
            return
        task = self._dialers.get(address)
        if task is not None and not task.done():
            return
        self._dialers[address] = self._tasks.create_task(self._dial(address, learned, attempts))

    def dial_over(self, label: str, opener: Opener) -> None:
        """Connects through *opener* (each call opens a new stream to one peer: an invite's pairing,
        wire.md §2.3), and again after the connection breaks, as :meth:`dial` does an address's, until
        *opener* returns ``None``. The link has no address: nothing of it goes into the book.
        Idempotent per *label*."""
        key = (label, 0)
        if self._closing or self._tasks is None:
            return
        task = self._dialers.get(key)
        if task is not None and not task.done():
            return
        self._dialers[key] = self._tasks.create_task(self._dial(key, opener=opener))

    async def take(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Runs a connection that came another way than the listening socket (an invite's pairing,
        wire.md §2.3) as an accepted one, once the connections held admit it (§2.1); returns when
        it ends."""
        if not self._admit(writer):
            writer.close()
            return
        await self._accepted(reader, writer)

    async def _dial(self, address: tuple[str, int], learned: bool = False, attempts: int | None = None,
                    opener: Opener | None = None) -> None:
        attempt = 0
        while not self._closing:
            try:
                if opener is not None:
                    streams = await asyncio.wait_for(opener(), self.timing.connect)
                    if streams is None:
                        return
                    reader, writer = streams
                else:
                    reader, writer = await connect(*address, timeout=self.timing.connect)
            except OSError as exc:
                log.info("%s: cannot reach %s:%s (%s)", self.session.name, *address, exc)
                if opener is None:
                    self.unreachable[address] = self.unreachable.get(address, 0) + 1
                self._check_waiters()
            else:
                self.unreachable.pop(address, None)
                link = self.session.connect_link(None if opener is not None else address)
                await self._run_channel(reader, writer, link)
                if link.opened:
                    attempt = 0
                if link.closed_by not in _RETRY or (link.key and self.session.connections.link_to(link.key)):
                    if learned and not link.opened:
                        self.session.connections.forget(address)  # it refused us, or no key proved itself there
                    return
                if address in self._left:  # a spectator left it for making no progress (§5.10)
                    return
            if self._closing:
                return
            if learned and attempt + 1 >= MAX_HINT_FAILURES and not self._confirmed(address):
                self.session.connections.forget(address)
                self._check_waiters()
                return
            if attempts is not None and attempt + 1 >= attempts:
                self._check_waiters()
                return
            # wire.md §2.1: a player proven at the table is dialled again at least every table_retry
            # seconds, so that the links of a healed split come back within seconds (§4.2)
            # (a pairing joins one peer of the table: dialled at that pace too)
            table = opener is not None or (self.dial_learned and at_table_address(self.session.connections, address))
            await asyncio.sleep(self.timing.retry_delay(attempt, table=table))
            attempt += 1

    def _confirmed(self, address: tuple[str, int]) -> bool:
        session = self.session
        return session.connections.addresses.is_confirmed(address)

    def _screen(self, ip: str) -> bool:
        """Whether to take one more connection from IP address *ip* (wire.md §2.1: its handshakes
        under way, its pace, 1 a second while it is discouraged), decided as it is accepted, before
        any transport, task or byte: a refused one costs the accept and a reset."""
        if self._closing:
            return False
        handshaking = sum(1 for link in self.session.connections.links
                          if not link.conn.initiator and not link.closed and link.remote == ip and not link.is_open)
        per_second = DISCOURAGED_PER_SECOND if ip in self.session.connections.discouraged else MAX_NEW_PER_ADDRESS_PER_SECOND
        if handshaking >= MAX_HANDSHAKES_PER_ADDRESS or not self._accepts.take(
                ip, per_second, asyncio.get_running_loop().time()):
            self._refused(ip)
            return False
        return True

    def _admit(self, writer: asyncio.StreamWriter) -> bool:
        """Whether to take a connection that passed :meth:`_screen` (wire.md §2.1: the connections
        held), decided before any byte of it is read."""
        if self._closing:
            return False
        accepted = [link for link in self.session.connections.links if not link.conn.initiator and not link.closed]
        if len(accepted) >= MAX_ACCEPTED:
            # wire.md §2.1: full of connections that play no seat: the address that holds the most of
            # them gives up its oldest, so strangers cannot keep a player from coming back
            victim = self._crowding(accepted)
            if victim is None:
                peername = writer.get_extra_info("peername")
                self._refused(str(peername[0]) if isinstance(peername, tuple) and peername else "?")
                return False
            self.session.connections.close_link(victim, "timeout")
        return True

    def _refused(self, ip: str) -> None:
        # wire.md §2.1: closed before a byte is read; nothing is kept of it
        self.refused_connections += 1
        if self.refused_connections in (1, 10, 100, 1000) or self.refused_connections % 10000 == 0:
            log.warning("%s: refused %d connections over the budget (last from %s)", self.session.name,
                        self.refused_connections, ip)

    async def _accepted(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await self._run_channel(reader, writer, self.session.connections.accept_link())

    def _crowding(self, accepted: list[Link]) -> Link | None:
        """The accepted connection to close to make room: the oldest of those that play no seat, from
        the IP address that holds the most of them; ``None`` when every one plays a seat."""
        session = self.session
        idle = [link for link in accepted if not session.connections.seated(link)]
        if not idle:
            return None
        counts: dict[str | None, int] = {}
        for link in idle:
            counts[link.remote] = counts.get(link.remote, 0) + 1
        worst = max(counts, key=lambda address: counts[address])
        return next(link for link in idle if link.remote == worst)

    async def _run_channel(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, link: Link
    ) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._channels.add(task)
        peername = writer.get_extra_info("peername")
        if isinstance(peername, tuple) and peername and isinstance(peername[0], str):
            link.remote = peername[0]  # IP address as text; with a hello's port, where the peer listens
        try:
            await Channel(reader, writer, link, self.timing).run()
        except Exception:  # one broken connection must not end the peer
            log.exception("%s: connection to %s failed", self.session.name, link.name)
            if not link.closed:
                link.receive_data(b"")
        finally:
            self._channels.discard(task)

    def _dial_learned(self) -> None:
        """Dials every address of the book whose key has no open link and no dial under way (wire.md
        §4.2): after the book changed, and after a link closed (the dial of its address may have ended
        while a second link to the same peer was open, and that one is gone now)."""
        session = self.session
        dialing = {address for address, task in self._dialers.items() if not task.done()}
        for key, info in list(session.connections.addresses.entries.items()):
            address = (info.addr, info.port)
            if address in dialing or session.connections.link_to(key) is not None:
                continue
            self.dial(*address, learned=True)

    # ------------------------------------------------------------------ waiting

    async def wait_until(self, predicate: Callable[[], bool], timeout: float | None) -> None:
        """Returns once *predicate()* is true, checked now and after every change of the session.

        Raises:
            TimeoutError: Not within *timeout* seconds (``None``: no limit).
        """
        if predicate():
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (predicate, future)
        self._waiters.append(entry)
        try:
            await asyncio.wait_for(future, timeout)
        finally:
            with contextlib.suppress(ValueError):
                self._waiters.remove(entry)

    def _on_change(self, change: SessionChange, link: Link | None) -> None:
        if change == "entry" and link is not None:
            self._sync_soon()
        if change in ("peer", "close") and self.dial_learned and not self._closing:
            self._dial_learned()
        if not self.dial_learned and not self._closing:
            self._following(change, link)
        self._check_waiters()

    def _sync_soon(self) -> None:
        """Makes the entries just received durable (``Persistence.sync``) in a worker thread, off the
        event loop, :data:`SYNC_DELAY` seconds after the first of them: one fsync for every entry
        received meanwhile, and one fsync at a time (``protocol/log.md`` §9)."""
        if self._syncing:
            self._sync_again = True
            return
        self._syncing, self._sync_again = True, False
        self._sync_timer = asyncio.get_running_loop().call_later(SYNC_DELAY, self._start_sync)

    def _start_sync(self) -> None:
        self._sync_timer = None
        try:
            syncing = asyncio.get_running_loop().run_in_executor(None, self.session.replica.persistence.sync)
        except RuntimeError:  # the loop is shutting down and has no worker threads any more
            self._sync_now()
            return
        syncing.add_done_callback(self._synced)

    def _sync_now(self) -> None:
        self._syncing = False
        try:
            self.session.replica.persistence.sync()
        except OSError as exc:
            log.error("%s: cannot make the saved game durable: %s", self.session.name, exc)

    def _synced(self, future: asyncio.Future[None]) -> None:
        self._syncing = False
        if not future.cancelled() and (exc := future.exception()) is not None:
            # The writer is broken now: the next entry's save fails and says so (Persistence.on_append).
            log.error("%s: cannot make the saved game durable: %s", self.session.name, exc)
            return
        if self._sync_again:
            self._sync_soon()

    # ------------------------------------------------------------------ a spectator's following (§5.10)

    def _following(self, change: SessionChange, link: Link | None) -> None:
        """What a spectator notes of a change: when an entry came, a link that opened (a fail-over
        done, or the player it asked, closed at once when level), a followed link lost (fail over)."""
        connections = self.session.connections
        if change == "entry":
            self._last_entry = asyncio.get_running_loop().time()
        elif change == "close" and link is not None:
            self._lagging.pop(link.id, None)
            if link.opened and not connections.open_links() and not self.session.over:
                self._fail_over(link)
        elif change == "open" and link is not None:
            self._failed_over(link)
            session = self.session
            if session.header is None and session.lobby is not None and getattr(session.lobby, "lobby", None) is None \
                    and not any(other.role == "host" for other in connections.open_links()):
                self._fail_over(None)  # wire.md §5.10: in the lobby, a player's welcome names the host to watch
            if link.address is not None and link.address == self._probing:
                self._probing = None
                if link.peer_have <= self.session.have and len(connections.open_links()) > 1:
                    connections.close_link(link, "quit")  # level: nobody it follows keeps anything back

    def _candidates(self, *, skip: tuple[str, int] | None) -> list[tuple[str, int]]:
        """The addresses of the book a spectator may dial (§5.10): those it is not connected to, the
        confirmed ones first, then those of the header's seat keys, then the other hints; those it
        left for making no progress only when there is no other."""
        session = self.session
        book, keys = session.connections.addresses, set(session.header.keys) if session.header else set()
        linked = {link.address for link in session.connections.links if not link.closed}
        ranked = sorted(book.entries.items(), key=lambda item: (item[0] not in book.confirmed, item[0] not in keys))
        addresses = [(info.addr, info.port) for key, info in ranked if session.connections.link_to(key) is None]
        fresh = [a for a in addresses if a != skip and a not in linked and a not in self._left]
        return fresh or [a for a in addresses if a != skip and a not in linked]

    def _fail_over(self, lost: Link | None) -> None:
        """A spectator lost its last connection: it dials the other players it knows of (wire.md
        §4.2 ``peers``), each given up after :data:`MAX_HINT_FAILURES` attempts in a row that did not
        open and a hint then forgotten (§5.10); the first to answer is kept (:meth:`_failed_over`)."""
        for address in self._candidates(skip=lost.address if lost is not None else None):
            self._failover.add(address)
            self.dial(*address, learned=True, attempts=MAX_HINT_FAILURES)

    def _failed_over(self, link: Link) -> None:
        """A spectator's connection opened: the other fail-over dials that have not connected stop."""
        for address in list(self._failover):
            if address == link.address:
                continue
            task = self._dialers.get(address)
            if task is not None and not task.done() and not any(
                other.address == address for other in self.session.connections.open_links()
            ):
                task.cancel()
        self._failover.clear()

    async def _follow(self) -> None:
        """A spectator's clock of progress (wire.md §5.10), every quarter of the shorter wait: a link
        whose peer has said for :attr:`Timing.stall` seconds in a row that it holds more than this peer
        (an honest one sends it at once), or less than this peer took from another link, is left for
        the next; after :attr:`Timing.quiet` seconds without an entry one more player is asked."""
        timing = self.timing
        loop = asyncio.get_running_loop()
        while not self._closing:
            await asyncio.sleep(max(0.02, min(timing.stall, timing.quiet) / 4))  # a clock, not a synchronisation
            session = self.session
            if session.header is None or session.over or session.replica.stopped:
                continue  # no progress to be had: in the lobby, at the end, or a game stopped here (§5.5)
            now, have = loop.time(), session.have
            links = session.connections.open_links()
            for link in links:
                withholds = link.peer_have > have
                if not (withholds or (link.peer_have < have and len(links) > 1)):
                    self._lagging.pop(link.id, None)
                elif now - self._lagging.setdefault(link.id, now) >= timing.stall:
                    log.warning("%s: leaving %s: for %.0f s it has said it holds %d, this peer %d", session.name,
                                link.name, timing.stall, link.peer_have, have)
                    if link.address is not None:
                        self._left.add(link.address)
                    session.connections.close_link(link, "timeout")
            if len(session.connections.open_links()) == 1 and now - self._last_entry >= timing.quiet:
                self._ask_another(now)

    def _ask_another(self, now: float) -> None:
        """A spectator that has taken no entry for a while dials one more player of its book (in
        turn), once, keeping the link it follows: if that player holds more, its entries come and the
        link that kept them back falls behind (:meth:`_follow`); if not, it is closed at once."""
        self._last_entry = now  # the next ask after another quiet while
        candidates = self._candidates(skip=None)
        if not candidates:
            return
        address = candidates[self._probe_turn % len(candidates)]
        self._probe_turn += 1
        self._probing = address
        self.dial(*address, attempts=1)

    def _check_waiters(self) -> None:
        for predicate, future in list(self._waiters):
            if not future.done() and predicate():
                future.set_result(None)
