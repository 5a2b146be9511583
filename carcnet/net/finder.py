"""Provides :func:`find_tables`: reads a discovery browser's records into a
:class:`~carcnet.net.adverts.ProbePlan` and runs the probes it paces (``protocol/discovery.md`` §4),
so that ``carcnet lan``, ``join``/``spectate``/``bot`` and the interface's list confirm tables the
same way: at most 16 probes at once, at most 4 at once and 8 a second to one address, a tarpit's
records behind every other address, and every confirmed table kept whatever the number of forged
records.

The probes are :func:`carcnet.net.probe.proven_key` (a handshake as a throwaway spectator, at most
:data:`~carcnet.net.adverts.PROBE_TIMEOUT` seconds each); every task started here is ended before
:func:`find_tables` returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from .adverts import PROBE_TIMEOUT, GameAd, Outcome, ProbePlan, ProbeTarget
from .discovery import DiscoveryEvent, GameLost
from .probe import proven_key

__all__ = ["EventSource", "find_tables"]

log = logging.getLogger(__name__)

#: Seconds one wait for a record lasts before it is asked again (a browser's ``next_event``).
LISTEN_STEP = 5.0
#: Seconds given, after the probes' own bound, for the last probes to be reported.
GRACE = 0.5

Prove = Callable[[tuple[str, int], str], Awaitable[Outcome]]


class EventSource(Protocol):
    """What :func:`find_tables` reads: a :class:`~carcnet.net.discovery.Browser`, or a stand-in."""

    async def next_event(self, timeout: float) -> DiscoveryEvent | None:
        """The next event within *timeout* seconds (TimeoutError if none), ``None`` once closed."""


def _compatible(ad: GameAd) -> bool:
    return ad.compatible


def _anything(ad: GameAd) -> bool:
    return True


async def _prove(address: tuple[str, int], game: str) -> Outcome:
    return await proven_key(address, game, timeout=PROBE_TIMEOUT)


async def find_tables(
    source: EventSource,
    plan: ProbePlan,
    *,
    seconds: float | None = None,
    keep: Callable[[GameAd], bool] = _anything,
    wanted: Callable[[GameAd], bool] = _compatible,
    on_record: Callable[[str, GameAd | None], object] | None = None,
    on_settled: Callable[[str, GameAd, bool], bool] | None = None,
    prove: Prove = _prove,
) -> None:
    """Reads *source*'s records into *plan* and runs the probes it gives, as discovery.md §4 says.

    Args:
        source: The records (:class:`EventSource`). A :class:`~carcnet.net.discovery.GameLost` made
            only to make room (``evicted``) is not a goodbye: *plan* keeps its own bounded list.
        plan: Where the records, the probes and their outcomes are held; read it for the listing.
        seconds: Listen and begin probes for this many seconds, then wait for the probes under way
            (at most :data:`~carcnet.net.adverts.PROBE_TIMEOUT` more); ``None``: until *source* ends
            and every probe planned has ended.
        keep: Which records to hold at all (others are forgotten as if lost).
        wanted: Which records held to confirm (default: this version's; others are listed unchecked).
        on_record: Called with (instance, advertisement) when a record is held or changes, and with
            (instance, ``None``) when it goes (its goodbye, or dropped to make room).
        on_settled: Called with (instance, advertisement, confirmed) when a record is settled (by a
            probe, or on arrival when a probe it shares was done); a true result ends the search.
        prove: The probe (address, game) → :data:`~carcnet.net.adverts.Outcome` (tests stand in).

    Returns when the search is over; never raises for what the network does (a DiscoveryError of
    *source* propagates). Cancelling it ends its probes.
    """
    search = _Search(source, plan, keep, wanted, on_record, on_settled, prove)
    try:
        await search.run(seconds)
    finally:
        await search.close()


class _Search:
    """One :func:`find_tables`: the task waiting for the next record and the probes under way."""

    def __init__(
        self,
        source: EventSource,
        plan: ProbePlan,
        keep: Callable[[GameAd], bool],
        wanted: Callable[[GameAd], bool],
        on_record: Callable[[str, GameAd | None], object] | None,
        on_settled: Callable[[str, GameAd, bool], bool] | None,
        prove: Prove,
    ) -> None:
        self.source, self.plan, self.keep, self.wanted, self.prove = source, plan, keep, wanted, prove
        self.on_record, self.on_settled = on_record, on_settled
        self.listening: asyncio.Future[Any] | None = asyncio.ensure_future(source.next_event(LISTEN_STEP))
        self.flying: dict[asyncio.Future[Any], ProbeTarget] = {}

    async def run(self, seconds: float | None) -> None:
        loop = asyncio.get_running_loop()
        end = None if seconds is None else loop.time() + seconds
        while True:
            now = loop.time()
            over = end is not None and now >= end
            if over and self.listening is not None:
                self.listening.cancel()
                self.listening = None
            if not over:
                self._begin(now)
            if not self.flying and self.listening is None and (over or not self.plan.pending):
                return
            timeout = self._timeout(now, end, over)
            if over and timeout == 0.0:
                return
            waiting = {*self.flying, *([self.listening] if self.listening is not None else [])}
            if not waiting:  # only probes held back by the per-second budget: wait for it
                if timeout is None:
                    return
                await asyncio.sleep(timeout)
                continue
            done, _ = await asyncio.wait(waiting, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            now = loop.time()
            for task in done:
                if self._take(task, now):
                    return

    def _begin(self, now: float) -> None:
        """Begins the probes the plan gives now."""
        for target in self.plan.next_probes(now):
            self.flying[asyncio.ensure_future(self.prove((target.address, target.port), target.game))] = target

    def _timeout(self, now: float, end: float | None, over: bool) -> float | None:
        """Seconds to wait for an event or a probe: until the end of listening (then of the probes'
        time), or until the per-second budget lets a probe begin; ``None``: no bound."""
        limits = []
        if end is not None:
            limits.append((end if not over else end + PROBE_TIMEOUT + GRACE) - now)
        wake = None if over else self.plan.wake_at(now)
        if wake is not None:
            limits.append(wake - now)
        return max(0.0, min(limits)) if limits else None

    def _take(self, task: asyncio.Future[Any], now: float) -> bool:
        """Takes what *task* (the listening one, or a probe) finished with; whether the search is over."""
        if task is self.listening:
            self.listening = None
            try:
                event = task.result()
            except TimeoutError:  # nothing within LISTEN_STEP: ask again
                event = None
                self.listening = asyncio.ensure_future(self.source.next_event(LISTEN_STEP))
            else:
                if event is not None:  # None: the source ended, no more records
                    self.listening = asyncio.ensure_future(self.source.next_event(LISTEN_STEP))
            return event is not None and self._read(event, now)
        target = self.flying.pop(task)
        try:
            outcome: Outcome = task.result()
        except Exception:  # a probe never raises for the network; a bug must not end the search
            log.exception("discovery: probing %s:%d", target.address, target.port)
            outcome = "refused"
        for name in self.plan.done(target, outcome, now):
            ad = self.plan.get(name)
            if ad is not None and self._settled(name, ad):
                return True
        self._dropped()
        return False

    def _read(self, event: DiscoveryEvent, now: float) -> bool:
        """Takes one record event; whether the search is over (a record settled at once, by a probe it
        shares that was done)."""
        if isinstance(event, GameLost):
            if not event.evicted:
                self._forget(event.instance)
        elif not self.keep(event.ad):
            self._forget(event.instance)
        else:
            self.plan.seen(event.instance, event.ad, now, probe=self.wanted(event.ad))
            if self.on_record is not None:
                self.on_record(event.instance, event.ad)
            if self._settled(event.instance, event.ad):
                return True
        self._dropped()
        return False

    def _settled(self, name: str, ad: GameAd) -> bool:
        status = self.plan.status(name)
        if self.on_settled is None or status not in ("confirmed", "failed"):
            return False
        self._dropped()
        return self.on_settled(name, ad, status == "confirmed")

    def _forget(self, name: str) -> None:
        if self.plan.lost(name) and self.on_record is not None:
            self.on_record(name, None)

    def _dropped(self) -> None:
        for name in self.plan.take_dropped():
            if self.on_record is not None:
                self.on_record(name, None)

    async def close(self) -> None:
        """Ends the task waiting for a record and the probes under way."""
        pending = [*self.flying, *([self.listening] if self.listening is not None else [])]
        for task in pending:
            task.cancel()
        if pending:
            with contextlib.suppress(Exception):
                await asyncio.wait(pending, timeout=PROBE_TIMEOUT)
