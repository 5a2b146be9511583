"""Finding games on the LAN: DNS-SD over mDNS, as ``protocol/discovery.md`` (discovery 1) says.

The only module of carcnet that imports :mod:`zeroconf` (python-zeroconf, asyncio API). What a
record says (:class:`~carcnet.net.adverts.GameAd` and its TXT record) is :mod:`carcnet.net.adverts`,
without I/O; a record that is not a carcnet record is ignored by the :class:`Browser`. Two parts here:

- :class:`Advertiser`: registers one service instance per game this peer accepts connections for
  (discovery.md §1), re-announces it on :meth:`~Advertiser.update` (RFC 6762 §8.4) and says goodbye
  on :meth:`~Advertiser.stop` / :meth:`~Advertiser.close` (RFC 6762 §10.1).
- :class:`Browser`: an async context manager and async iterator of :class:`GameFound`,
  :class:`GameUpdated` and :class:`GameLost` events for ``_carcnet._tcp.local.`` (RFC 6763 §4),
  resolving each instance's SRV, TXT and A/AAAA records with a bounded wait, tried again a bounded
  number of times when it fails (mDNS not running yet, records not all in time).

Everything here is a hint (discovery.md §3): the TCP handshake of wire.md §4 decides. Every wait is
bounded (``timeout`` arguments, in seconds); every task this module starts is held and ended by
``close()``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import logging
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Literal, Self, TypeAlias

import ifaddr  # a dependency of zeroconf: the machine's addresses, when no interface is pinned
from zeroconf import (
    BadTypeInNameException,
    InterfaceChoice,
    IPVersion,
    NonUniqueNameException,
    NotRunningException,
    ServiceStateChange,
    Zeroconf,
)
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from carcnet.i18n import _

from .adverts import (
    MAX_LABEL_BYTES,
    SERVICE_TYPE,
    GameAd,
    cut_utf8,
)

__all__ = [
    "MAX_GAMES",
    "RESOLVE_ATTEMPTS",
    "RESOLVE_RETRY_DELAY",
    "RESOLVE_TIMEOUT",
    "Advertiser",
    "Browser",
    "DiscoveryError",
    "DiscoveryEvent",
    "GameFound",
    "GameLost",
    "GameUpdated",
    "IpVersion",
    "clear_socket_trouble",
    "socket_trouble",
]

log = logging.getLogger(__name__)

#: Seconds a :class:`Browser` waits for one instance's SRV, TXT and address records.
RESOLVE_TIMEOUT = 3.0
#: Most attempts a :class:`Browser` makes to resolve one report of an instance (the first included)
#: when mDNS is not running yet, a socket fails or the records do not all come in time. After the last
#: the instance waits for its records to change (zeroconf reports it again) to be resolved again.
RESOLVE_ATTEMPTS = 4
#: Seconds a :class:`Browser` waits before its second attempt to resolve an instance, doubled before
#: each later one: 1, 2 and 4 s, at most 7 s of waiting in all. A retry takes a free resolution slot
#: only when no newly reported instance waits for one, so that retries cost a flood no more slots.
RESOLVE_RETRY_DELAY = 1.0
#: Seconds zeroconf's engine may take to run (its sockets open, in the event loop) before a
#: :class:`Browser` resolves or an :class:`Advertiser` registers: milliseconds, seconds on a loaded
#: machine; a request made before it runs fails (``NotRunningException``).
START_TIMEOUT = 8.0
#: Seconds an :class:`Advertiser` operation may take: probing (RFC 6762 §8.1, about 1 s, more after
#: a rename) plus the three announcements (RFC 6762 §8.3).
OP_TIMEOUT = 10.0
#: Seconds ``close()`` may take: goodbyes (RFC 6762 §10.1) and closing the sockets.
CLOSE_TIMEOUT = 5.0
#: Most instances a :class:`Browser` tracks (and resolves at once); more are ignored.
MAX_GAMES = 256
#: Most instances waiting for a resolution slot (a flood beyond it drops the oldest waiting).
MAX_WAITING = 4096
#: Most events a :class:`Browser` queues for a reader that does not read; more are dropped (the
#: :attr:`Browser.games` snapshot stays right).
MAX_EVENTS = 1024

#: ``"v4"``, ``"v6"`` or ``"all"``; ``None`` is zeroconf's default (IPv4 only, unless the pinned
#: interfaces say otherwise).
IpVersion: TypeAlias = Literal["v4", "v6", "all"]

_IP_VERSIONS = {"v4": IPVersion.V4Only, "v6": IPVersion.V6Only, "all": IPVersion.All}


class _SocketTrouble(logging.Filter):
    """Keeps zeroconf's socket errors (a firewall that refuses multicast, a network that is gone) off
    the console: they come as library WARNINGs with a Python traceback; this takes them out of the log
    and keeps the last one, said in one line by :func:`socket_trouble`. Installed once, on the
    ``zeroconf`` logger, when this module is imported."""

    def __init__(self) -> None:
        super().__init__()
        self.last: str | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, OSError):
            self.last = f"{type(exc).__name__}: {exc.strerror or exc}"
            log.info("mDNS socket trouble: %s", self.last)
            return False
        return record.levelno >= logging.ERROR  # zeroconf's warnings are the program's to word


_TROUBLE = _SocketTrouble()
logging.getLogger("zeroconf").addFilter(_TROUBLE)


def socket_trouble() -> str | None:
    """The last error mDNS met on a socket (e.g. ``"PermissionError: Operation not permitted"`` where
    a firewall refuses multicast), or ``None``; :func:`clear_socket_trouble` forgets it."""
    return _TROUBLE.last


def clear_socket_trouble() -> None:
    """Forgets the last socket error (a new search starts)."""
    _TROUBLE.last = None


class DiscoveryError(Exception):
    """mDNS could not be started, an advertisement could not be registered, updated or withdrawn in
    time, or the object is closed. The message says which."""


# ---------------------------------------------------------------------- zeroconf plumbing


def _interfaces(interfaces: Sequence[str] | None) -> InterfaceChoice | list[str]:
    if interfaces is None:
        return InterfaceChoice.All
    if isinstance(interfaces, str) or not interfaces:
        raise ValueError("interfaces is None (all) or a non-empty list of IP addresses")
    chosen = []
    for address in interfaces:
        try:
            chosen.append(str(ipaddress.ip_address(address)))
        except ValueError:
            raise ValueError(f"interfaces holds IP addresses of this host, got {address!r}") from None
    return chosen


def _ip_version(version: IpVersion | None) -> IPVersion | None:
    if version is None:
        return None
    try:
        return _IP_VERSIONS[version]
    except KeyError:
        raise ValueError(f"ip_version is one of v4, v6, all, got {version!r}") from None


def _open_zeroconf(interfaces: Sequence[str] | None, ip_version: IpVersion | None) -> AsyncZeroconf:
    """An AsyncZeroconf bound to the running loop; DiscoveryError if its sockets cannot be opened."""
    chosen, version = _interfaces(interfaces), _ip_version(ip_version)
    try:
        return AsyncZeroconf(interfaces=chosen, ip_version=version)
    except (OSError, RuntimeError, ValueError) as exc:
        where = str(interfaces) if interfaces else _("all interfaces")
        # Translators: {where} lists IP addresses, or is "all interfaces"; {reason} says why (from the system).
        raise DiscoveryError(_("cannot start mDNS on {where}: {reason}").format(where=where, reason=exc)) from exc


async def _wait_running(aiozc: AsyncZeroconf, timeout: float) -> bool:
    """Whether zeroconf's engine runs, waiting at most *timeout* seconds for it to start; ``False`` if
    it did not start in time, failed to, or is closed."""
    zc = aiozc.zeroconf
    if zc.started:
        return True
    try:
        async with asyncio.timeout(timeout + 1.0):
            await zc.async_wait_for_start(timeout=timeout)
    except (NotRunningException, TimeoutError):
        return False
    return bool(zc.started)


async def _close_zeroconf(aiozc: AsyncZeroconf, timeout: float) -> None:
    try:
        async with asyncio.timeout(timeout):
            await aiozc.async_close()
    except (TimeoutError, OSError, RuntimeError) as exc:
        log.warning("closing mDNS: %s", exc or type(exc).__name__)


def _host_addresses(ip_version: IpVersion | None) -> list[str]:
    """This host's addresses to advertise: every non-loopback one of the IP version (IPv4 by default),
    IPv6 ones without their scope; loopback only if there is nothing else."""
    want_v4 = ip_version in (None, "v4", "all")
    want_v6 = ip_version in ("v6", "all")
    found: list[str] = []
    loopback: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str):
                if not want_v4:
                    continue
                text = ip.ip
            else:
                if not want_v6:
                    continue
                text = ip.ip[0].split("%")[0]
            try:
                address = ipaddress.ip_address(text)
            except ValueError:
                continue
            (loopback if address.is_loopback else found).append(str(address))
    return sorted(set(found or loopback))


# ---------------------------------------------------------------------- advertising


class Advertiser:
    """Advertises this peer's games: one DNS-SD service instance per game (discovery.md §1).

    Use as ``async with Advertiser() as adv: await adv.start(ad) ...`` or call :meth:`close`. One
    zeroconf responder serves every game of the peer. Instances are named by
    :attr:`GameAd.instance_label`; if another responder already holds the name, zeroconf renames it
    (RFC 6762 §9: python-zeroconf appends ``-2``, ``-3``…), so :meth:`start` returns the name used.
    The SRV target is a host name of this advertiser's own (``carcnet-<8 hex>.local.``), so that
    peers on machines with the same host name do not claim each other's A records.

    Args:
        interfaces: IP addresses of this host to answer on and advertise; ``None``: every interface,
            advertising every non-loopback address of *ip_version*.
        ip_version: ``"v4"``, ``"v6"``, ``"all"`` or ``None`` (zeroconf's default, see
            :data:`IpVersion`).
        timeout: Seconds each operation may take (:data:`OP_TIMEOUT`).
    """

    def __init__(
        self,
        *,
        interfaces: Sequence[str] | None = None,
        ip_version: IpVersion | None = None,
        timeout: float = OP_TIMEOUT,
    ) -> None:
        _interfaces(interfaces)  # refuse bad arguments at once
        _ip_version(ip_version)
        self._interface_list = list(interfaces) if interfaces is not None else None
        self._ip_version = ip_version
        self._timeout = timeout
        self._server = f"carcnet-{secrets.token_hex(4)}.local."
        self._aiozc: AsyncZeroconf | None = None
        self._infos: dict[str, AsyncServiceInfo] = {}  # game id -> registered instance
        self._lock = asyncio.Lock()
        self._closed = False

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def start(self, ad: GameAd) -> str:
        """Register *ad*'s game: probe for the name, then announce (RFC 6762 §8.1, §8.3). The first call
        opens the responder and waits (at most :data:`START_TIMEOUT`, before ``timeout`` starts) for it
        to run, so that a slow start on a loaded machine does not eat the probing's time.

        Returns:
            The full instance name, e.g. ``"Ann (3f2a9c1b)._carcnet._tcp.local."``.

        Raises:
            ValueError: This advertiser already advertises that game (use :meth:`update`).
            DiscoveryError: Closed, the sockets cannot be opened, mDNS is not running, or it took more
                than ``timeout``.
        """
        await self._open()
        try:
            async with asyncio.timeout(self._timeout):
                async with self._lock:
                    if self._closed:
                        raise DiscoveryError(_("the advertiser is closed"))
                    if ad.game in self._infos:
                        raise ValueError(f"game {ad.game} is advertised already; use update()")
                    if self._aiozc is None:
                        self._aiozc = _open_zeroconf(self._interface_list, self._ip_version)
                    name = self._free_name(ad.instance_label)
                    info = self._info(name, ad)
                    try:
                        announced = await self._aiozc.async_register_service(info, allow_name_change=True)
                        await announced
                    except (BadTypeInNameException, NonUniqueNameException, NotRunningException,
                            OSError) as exc:
                        reason = "mDNS is not running" if isinstance(exc, NotRunningException) else str(exc)
                        log.debug("registering %r: %s", name, reason)
                        # Translators: {name} is the game's mDNS name; {reason} says why (from the system).
                        raise DiscoveryError(_("cannot register {name}: {reason}").format(
                            name=repr(name), reason=reason)) from exc
                    self._infos[ad.game] = info
                    log.debug("advertising %s", info.name)
                    return info.name
        except TimeoutError:
            # Translators: {game} is a game's id (hex digits), {seconds} a number of seconds.
            raise DiscoveryError(_("registering game {game} took more than {seconds} s").format(
                game=ad.game, seconds=self._timeout)) from None

    async def update(self, ad: GameAd) -> None:
        """Replace the advertisement of *ad*'s game (same ``game``) and re-announce it (RFC 6762 §8.4),
        e.g. when ``phase`` or ``seats`` changes (discovery.md §2). The instance name stays.

        Raises:
            KeyError: The game is not advertised (use :meth:`start`).
            DiscoveryError: Closed, or it took more than ``timeout``.
        """
        try:
            async with asyncio.timeout(self._timeout):
                async with self._lock:
                    if self._closed or self._aiozc is None:
                        raise DiscoveryError(
                            _("the advertiser is closed") if self._closed else _("nothing advertised")
                        )
                    old = self._infos.get(ad.game)
                    if old is None:
                        raise KeyError(f"game {ad.game} is not advertised; use start()")
                    info = self._info(old.name, ad)
                    try:
                        announced = await self._aiozc.async_update_service(info)
                        await announced
                    except OSError as exc:
                        # Translators: {name} is the game's mDNS name; {reason} says why (from the system).
                        raise DiscoveryError(_("cannot update {name}: {reason}").format(name=repr(info.name), reason=exc)) from exc
                    self._infos[ad.game] = info
        except TimeoutError:
            # Translators: {game} is a game's id (hex digits), {seconds} a number of seconds.
            raise DiscoveryError(_("updating game {game} took more than {seconds} s").format(
                game=ad.game, seconds=self._timeout)) from None

    async def stop(self, game: str) -> None:
        """Withdraw the advertisement of *game* with goodbyes (RFC 6762 §10.1); nothing if it is not
        advertised. Raises DiscoveryError if it took more than ``timeout``."""
        try:
            async with asyncio.timeout(self._timeout):
                async with self._lock:
                    info = self._infos.pop(game, None)
                    if info is not None and self._aiozc is not None and not self._closed:
                        await self._goodbye(self._aiozc, info)
        except TimeoutError:
            # Translators: {game} is a game's id (hex digits), {seconds} a number of seconds.
            raise DiscoveryError(_("withdrawing game {game} took more than {seconds} s").format(
                game=game, seconds=self._timeout)) from None

    async def close(self) -> None:
        """Withdraw every advertisement (goodbyes) and close the sockets. Idempotent; never raises for a
        network failure (it is logged); takes at most about ``CLOSE_TIMEOUT`` seconds."""
        if self._closed:
            return
        self._closed = True
        aiozc, self._aiozc = self._aiozc, None
        infos = list(self._infos.values())
        self._infos.clear()
        if aiozc is None:
            return
        try:
            async with asyncio.timeout(CLOSE_TIMEOUT):
                await asyncio.gather(*(self._goodbye(aiozc, info) for info in infos))
        except (TimeoutError, OSError) as exc:
            log.warning("goodbyes not all sent: %s", exc or type(exc).__name__)
        await _close_zeroconf(aiozc, CLOSE_TIMEOUT)

    async def _open(self) -> None:
        """Opens the responder if it is not open, and waits at most :data:`START_TIMEOUT` for it to run
        (zeroconf's registration then waits for it again, within ``timeout``). Nothing if closed."""
        if self._closed:
            return
        if self._aiozc is None:
            self._aiozc = _open_zeroconf(self._interface_list, self._ip_version)
        if not await _wait_running(self._aiozc, START_TIMEOUT):
            log.debug("mDNS responder not running after %.1f s", START_TIMEOUT)

    def _free_name(self, label: str) -> str:
        """``label.SERVICE_TYPE``, or ``label (n)`` if another game of this advertiser holds it (two game
        ids with the same first 8 hex digits): zeroconf refuses a name registered twice."""
        taken = {info.name.lower() for info in self._infos.values()}
        for n in range(1, len(taken) + 2):  # len(taken) + 1 candidates: one is free
            suffix = "" if n == 1 else f" ({n})"
            name = f"{cut_utf8(label, MAX_LABEL_BYTES - len(suffix))}{suffix}.{SERVICE_TYPE}"
            if name.lower() not in taken:
                return name
        raise AssertionError("unreachable")  # pragma: no cover

    @staticmethod
    async def _goodbye(aiozc: AsyncZeroconf, info: AsyncServiceInfo) -> None:
        sent = await aiozc.async_unregister_service(info)
        await sent

    def _info(self, name: str, ad: GameAd) -> AsyncServiceInfo:
        addresses = list(ad.addresses) or self._interface_list or _host_addresses(self._ip_version)
        addresses = [a.split("%")[0] for a in addresses]  # A/AAAA records carry no zone
        return AsyncServiceInfo(
            SERVICE_TYPE,
            name,
            port=ad.port,
            properties=ad.to_txt(),
            server=self._server,
            parsed_addresses=list(addresses),
        )


# ---------------------------------------------------------------------- browsing


@dataclass(frozen=True, slots=True)
class GameFound:
    """A carcnet instance appeared: *ad* as read, *instance* its full service instance name."""

    ad: GameAd
    instance: str


@dataclass(frozen=True, slots=True)
class GameUpdated:
    """A known instance's advertisement changed (phase, seats, addresses…): *ad* is the new one."""

    ad: GameAd
    instance: str


@dataclass(frozen=True, slots=True)
class GameLost:
    """An instance said goodbye, expired (RFC 6762 §10.1), or now says something that is not a carcnet
    record. *instance* is the name of an earlier :class:`GameFound`. *evicted*: not gone, but dropped
    by the browser to make room for a newer record (discovery.md §4); a reader that keeps its own
    bounded list (:class:`~carcnet.net.adverts.ProbePlan`) keeps it, and its goodbye is still reported."""

    instance: str
    evicted: bool = False


DiscoveryEvent: TypeAlias = GameFound | GameUpdated | GameLost


class Browser:
    """Watches ``_carcnet._tcp.local.`` (RFC 6763 §4) and reports carcnet games as events.

    Usage::

        async with Browser() as browser:
            async for event in browser:          # ends when the browser is closed
                ...
            # or: event = await browser.next_event(timeout=5.0)  (TimeoutError if none came)

    For each instance zeroconf reports added or updated, the browser resolves its SRV, TXT and
    A/AAAA records (:class:`~zeroconf.asyncio.AsyncServiceInfo`, at most *resolve_timeout* seconds)
    and reads them with :meth:`GameAd.from_txt`. It sends :class:`GameFound` the first time an
    instance reads well, :class:`GameUpdated` when what it reads changes, and :class:`GameLost` when
    a found instance goes (goodbye or expiry) or stops reading as a carcnet record. Records that never
    read well are ignored (discovery.md §3). A resolution that fails (mDNS not running yet, a socket
    error, records not all in time) is tried again, at most :data:`RESOLVE_ATTEMPTS` times in all,
    *retry_delay* seconds later, then twice that…; a retry waits for a free slot behind every newly
    reported instance. An instance that still did not resolve keeps its last state and is resolved
    again when zeroconf reports its records changed. The browser also sees this process's own
    advertisements (multicast loopback): filter on ``key``.

    Args:
        interfaces: IP addresses of this host to listen on; ``None``: every interface.
        ip_version: As for :class:`Advertiser`.
        resolve_timeout: Seconds to wait for one instance's records.
        max_games: Most instances tracked and resolved at once: when full, a newly resolved one takes
            the place of the oldest (reported lost, ``evicted``); resolutions beyond it wait their turn.
        events: Report tournaments' records (role ``event``) instead of tables' (discovery.md §2).
        retry_delay: Seconds before the second attempt to resolve an instance, doubled before each
            later one (:data:`RESOLVE_RETRY_DELAY`).
    """

    def __init__(
        self,
        *,
        interfaces: Sequence[str] | None = None,
        ip_version: IpVersion | None = None,
        resolve_timeout: float = RESOLVE_TIMEOUT,
        max_games: int = MAX_GAMES,
        events: bool = False,
        retry_delay: float = RESOLVE_RETRY_DELAY,
    ) -> None:
        _interfaces(interfaces)
        self._events_only = events  # tournaments' records (role event) instead of tables' (§2)
        _ip_version(ip_version)
        self._interface_list = list(interfaces) if interfaces is not None else None
        self._ip_version = ip_version
        self._resolve_timeout = resolve_timeout
        self._retry_delay = retry_delay
        self._max_games = max_games
        self._aiozc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._games: dict[str, GameAd] = {}
        self._resolving: dict[str, asyncio.Task[bool]] = {}  # instance -> its current resolution
        self._waiting: dict[str, None] = {}  # instances waiting for a free resolution slot, oldest first
        self._backoff: dict[str, asyncio.TimerHandle] = {}  # instances to try again later, oldest first
        self._retrying: dict[str, int] = {}  # instance -> next attempt, due: waits for a slot after _waiting
        self._evicted: dict[str, None] = {}  # instances dropped to make room, whose goodbye is still told
        self._tasks: set[asyncio.Task[bool]] = set()  # every resolution not finished, cancelled or not
        self._events: asyncio.Queue[DiscoveryEvent | None] = asyncio.Queue(MAX_EVENTS + 1)
        self._closed = False
        self.dropped_events = 0
        """Events dropped because the queue was full (the reader fell behind by :data:`MAX_EVENTS`)."""
        self.evicted = 0
        """Records dropped to make room for newer ones (more than *max_games* at once)."""

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> DiscoveryEvent:
        event = await self._events.get()
        if event is None:
            self._events.put_nowait(None)  # for any other reader
            raise StopAsyncIteration
        return event

    @property
    def games(self) -> Mapping[str, GameAd]:
        """Instance name → advertisement of every instance found and not lost (a copy)."""
        return dict(self._games)

    async def start(self) -> None:
        """Open the sockets, wait (at most :data:`START_TIMEOUT`) for mDNS to run, and start browsing
        (RFC 6762 §5.2 continuous querying); still not running, it browses all the same (resolutions
        are tried again). Called by ``async with``. Raises DiscoveryError if mDNS cannot start or the
        browser is closed."""
        if self._closed:
            raise DiscoveryError(_("the browser is closed"))
        if self._aiozc is not None:
            return
        aiozc = self._aiozc = _open_zeroconf(self._interface_list, self._ip_version)
        if not await _wait_running(aiozc, START_TIMEOUT):
            log.debug("discovery: mDNS not running after %.1f s; browsing all the same", START_TIMEOUT)
        if self._closed:  # closed while it waited
            raise DiscoveryError(_("the browser is closed"))
        self._browser = AsyncServiceBrowser(aiozc.zeroconf, SERVICE_TYPE, handlers=[self._on_change])

    async def next_event(self, timeout: float) -> DiscoveryEvent | None:
        """The next event, waiting at most *timeout* seconds; ``None`` once the browser is closed and
        every event was read. Raises TimeoutError if none came."""
        async with asyncio.timeout(timeout):
            try:
                return await self.__anext__()
            except StopAsyncIteration:
                return None

    async def close(self) -> None:
        """Stop browsing, end the resolving tasks and the retries waiting, and close the sockets;
        iteration then ends after the events already queued. Idempotent; takes at most about
        ``2 * CLOSE_TIMEOUT`` seconds."""
        if self._closed:
            return
        self._closed = True
        browser, self._browser = self._browser, None
        aiozc, self._aiozc = self._aiozc, None
        if browser is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(browser.async_cancel(), CLOSE_TIMEOUT)
        tasks = list(self._tasks)
        self._resolving.clear()
        self._waiting.clear()
        for handle in self._backoff.values():
            handle.cancel()
        self._backoff.clear()
        self._retrying.clear()
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=CLOSE_TIMEOUT)
        if aiozc is not None:
            await _close_zeroconf(aiozc, CLOSE_TIMEOUT)
        if self._events.full():  # room for the end marker: drop the oldest event
            self._events.get_nowait()
            self.dropped_events += 1
        self._events.put_nowait(None)

    # ------------------------------------------------------------------ inside the event loop

    def _on_change(
        self, zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        """zeroconf's handler (called in the event loop, keyword arguments): never raises."""
        if self._closed:
            return
        try:
            self._forget_retry(name)  # gone, or new records: tried afresh
            if state_change is ServiceStateChange.Removed:
                task = self._resolving.pop(name, None)
                if task is not None:
                    task.cancel()
                self._waiting.pop(name, None)
                evicted = name in self._evicted
                self._evicted.pop(name, None)
                if self._games.pop(name, None) is not None or evicted:  # a goodbye is told even when evicted
                    self._emit(GameLost(name))
                return
            old = self._resolving.pop(name, None)
            if old is not None:
                old.cancel()  # resolve again: the records changed meanwhile
            elif len(self._tasks) >= self._max_games:
                # discovery.md §4: wait for a free slot rather than ignore it, so that a flood of
                # records cannot keep a real table from being resolved; the oldest waiting one goes
                self._waiting.pop(name, None)
                self._waiting[name] = None
                if len(self._waiting) > MAX_WAITING:
                    del self._waiting[next(iter(self._waiting))]
                return
            self._start_resolving(name, 1)
        except Exception:  # a bug here must not reach zeroconf's record handling
            log.exception("discovery: handling %s of %r", state_change, name)

    def _start_resolving(self, name: str, attempt: int) -> None:
        task = asyncio.get_running_loop().create_task(self._resolve(name), name=f"carcnet resolve {name}")
        self._resolving[name] = task
        self._tasks.add(task)
        task.add_done_callback(functools.partial(self._resolved, name, attempt))

    def _resolved(self, name: str, attempt: int, task: asyncio.Task[bool]) -> None:
        self._tasks.discard(task)
        current = self._resolving.get(name) is task  # not cancelled for a newer report, nor dropped
        if current:
            del self._resolving[name]
        if not task.cancelled():
            failed = task.exception()
            if failed is not None:
                log.error("discovery: resolving %r failed", name, exc_info=failed)
            if current and not self._closed and (failed is not None or task.result()):
                self._retry_later(name, attempt)
        self._fill_slots()

    def _fill_slots(self) -> None:
        """Starts the resolutions waiting for a slot while there are free ones: newly reported instances
        first (discovery.md §4), then the retries that are due, oldest first."""
        while not self._closed and len(self._tasks) < self._max_games:
            if self._waiting:
                name, attempt = next(iter(self._waiting)), 1
                del self._waiting[name]
            elif self._retrying:
                name = next(iter(self._retrying))
                attempt = self._retrying.pop(name)
            else:
                return
            if name not in self._resolving:
                self._start_resolving(name, attempt)

    def _retry_later(self, name: str, attempt: int) -> None:
        """After failed attempt number *attempt* to resolve *name*: tries again after the backoff, or
        gives up after :data:`RESOLVE_ATTEMPTS` (until zeroconf reports the instance again)."""
        if attempt >= RESOLVE_ATTEMPTS:
            log.debug("discovery: %r not resolved in %d attempts; tried again when it changes", name, attempt)
            return
        delay = self._retry_delay * 2 ** (attempt - 1)
        log.debug("discovery: trying %r again in %.1f s (attempt %d of %d)", name, delay, attempt + 1,
                  RESOLVE_ATTEMPTS)
        self._forget_retry(name)
        self._backoff[name] = asyncio.get_running_loop().call_later(delay, self._retry_due, name, attempt + 1)
        if len(self._backoff) > MAX_WAITING:  # a flood of names that never resolve: the oldest retry goes
            self._backoff.pop(next(iter(self._backoff))).cancel()

    def _retry_due(self, name: str, attempt: int) -> None:
        """The backoff of *name* is over: attempt number *attempt* waits for a slot (behind _waiting)."""
        self._backoff.pop(name, None)
        if self._closed:
            return
        self._retrying.pop(name, None)
        self._retrying[name] = attempt
        if len(self._retrying) > MAX_WAITING:
            del self._retrying[next(iter(self._retrying))]
        self._fill_slots()

    def _forget_retry(self, name: str) -> None:
        handle = self._backoff.pop(name, None)
        if handle is not None:
            handle.cancel()
        self._retrying.pop(name, None)

    async def _resolve(self, name: str) -> bool:
        """One attempt to resolve *name*, reporting what it reads; ``True`` if it should be tried again:
        mDNS was not running (within :data:`START_TIMEOUT`), a socket failed, or the records did not
        all come within *resolve_timeout*."""
        aiozc = self._aiozc
        if aiozc is None:
            return False
        if not await _wait_running(aiozc, START_TIMEOUT):
            log.debug("discovery: %r not resolved: mDNS not running after %.1f s", name, START_TIMEOUT)
            return True
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        try:
            async with asyncio.timeout(self._resolve_timeout + 1.0):
                complete = await info.async_request(aiozc.zeroconf, self._resolve_timeout * 1000)
        except TimeoutError:
            complete = False
        except (NotRunningException, OSError) as exc:
            log.debug("discovery: %r not resolved: %s", name, exc or type(exc).__name__)
            return True
        if not complete or info.port is None:
            log.debug("discovery: %r did not resolve in %.1f s", name, self._resolve_timeout)
            return True
        try:
            ad = GameAd.from_txt(
                info.text or b"", port=info.port, addresses=sorted(set(info.parsed_scoped_addresses()))
            )
        except ValueError as exc:
            log.debug("discovery: ignoring %r: %s", name, exc)
            if self._games.pop(name, None) is not None:
                self._emit(GameLost(name))
            return False
        if (ad.role == "event") != self._events_only:
            return False  # a table browser never sees an event's record, nor an event browser a table's
        old = self._games.get(name)
        if old == ad:
            return False
        if old is None and len(self._games) >= self._max_games:
            # discovery.md §4: full, the oldest record makes room, so that a flood of forged records
            # cannot keep a real table from being seen (joining confirms a table by its key anyway)
            oldest = next(iter(self._games))
            del self._games[oldest]
            self._evicted[oldest] = None
            if len(self._evicted) > MAX_WAITING:
                del self._evicted[next(iter(self._evicted))]
            self._emit(GameLost(oldest, evicted=True))
            self.evicted += 1
        self._evicted.pop(name, None)
        self._games[name] = ad
        self._emit(GameFound(ad, name) if old is None else GameUpdated(ad, name))
        return False

    def _emit(self, event: DiscoveryEvent) -> None:
        if self._events.qsize() >= MAX_EVENTS:
            self.dropped_events += 1
            log.warning("discovery: event queue full, dropping %s", type(event).__name__)
            return
        self._events.put_nowait(event)
