"""Resolving a record again when an attempt fails (discovery.md §4): python-zeroconf refuses a request
while its engine is not running yet (``NotRunningException``, a loaded machine), and a record whose
resolution failed must not be forgotten. Real mDNS on loopback within one process, the failures made
by patching :meth:`AsyncServiceInfo.async_request`; and the retries' place in the browser's budgets,
without sockets."""

from __future__ import annotations

import asyncio
import secrets
from collections import Counter
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest
from zeroconf import NotRunningException, ServiceStateChange
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from carcnet.net.adverts import SERVICE_TYPE, GameAd
from carcnet.net.discovery import RESOLVE_ATTEMPTS, Advertiser, Browser, DiscoveryError, GameFound

#: mDNS on loopback only: the records never leave this host.
LOOP = ["127.0.0.1"]
#: Seconds a test waits for what mDNS should bring (it takes well under a second, plus the backoff).
WAIT = 20.0


def table() -> GameAd:
    """A lobby of a game of its own, with a peer name of its own (so its instance name is new)."""
    return GameAd(game=secrets.token_hex(16), name="Friday game", phase="lobby", seats_taken=1, seats_total=2,
                  peer=f"Retry {secrets.token_hex(4)}", role="host", key=secrets.token_bytes(32), port=7000)


class FailFirst:
    """Takes the place of :meth:`AsyncServiceInfo.async_request` (:meth:`install`): the first *failures*
    requests for *label*'s instance raise ``NotRunningException`` (as when zeroconf's engine has not
    started yet), the rest (and every other instance's) are zeroconf's own."""

    def __init__(self, label: str, failures: int) -> None:
        self.label, self.failures = label, failures
        self.calls: list[str] = []
        self.failed = asyncio.Event()  # set when the last failure is raised
        self.last_failed: asyncio.Task[Any] | None = None  # the resolution that met it
        self.real = AsyncServiceInfo.async_request

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        async def async_request(info: AsyncServiceInfo, *args: Any, **kw: Any) -> bool:
            return await self.request(info, *args, **kw)

        monkeypatch.setattr(AsyncServiceInfo, "async_request", async_request)

    async def request(self, info: AsyncServiceInfo, zc: Any, timeout: float, *args: Any, **kw: Any) -> bool:
        if not info.name.startswith(self.label):
            return bool(await self.real(info, zc, timeout, *args, **kw))
        self.calls.append(info.name)
        if len(self.calls) <= self.failures:
            if len(self.calls) == self.failures:
                self.last_failed = asyncio.current_task()
                self.failed.set()
            raise NotRunningException
        return bool(await self.real(info, zc, timeout, *args, **kw))


async def found(browser: Browser, game: str) -> GameFound:
    """The browser's first GameFound of *game* (other tables on this host are passed over)."""
    async with asyncio.timeout(WAIT):
        while True:
            event = await browser.next_event(timeout=WAIT)
            assert event is not None, "the browser closed"
            if isinstance(event, GameFound) and event.ad.game == game:
                return event


@pytest.mark.asyncio
async def test_a_table_is_found_when_the_first_resolutions_meet_mdns_not_running(monkeypatch):
    ad = table()
    fake = FailFirst(ad.instance_label, failures=2)
    fake.install(monkeypatch)
    async with Browser(interfaces=LOOP) as browser, Advertiser(interfaces=LOOP) as adv:
        instance = await adv.start(ad)
        event = await found(browser, ad.game)
        assert event == GameFound(replace(ad, addresses=("127.0.0.1",)), instance)
        assert browser.games[instance] == event.ad
    assert fake.calls[:3] == [instance] * 3  # two refused, tried again after 1 s and 2 s: resolved


@pytest.mark.asyncio
async def test_a_record_not_resolved_in_every_attempt_is_resolved_again_when_it_changes(monkeypatch):
    ad = table()
    fake = FailFirst(ad.instance_label, failures=RESOLVE_ATTEMPTS)
    fake.install(monkeypatch)
    async with Browser(interfaces=LOOP, retry_delay=0.01) as browser, Advertiser(interfaces=LOOP) as adv:
        instance = await adv.start(ad)
        await asyncio.wait_for(fake.failed.wait(), WAIT)
        assert fake.last_failed is not None
        await asyncio.wait([fake.last_failed], timeout=WAIT)  # its end is handled before this wakes
        assert fake.calls == [instance] * RESOLVE_ATTEMPTS
        pending = (browser._resolving, browser._waiting, browser._backoff, browser._retrying)
        assert all(instance not in names for names in pending), "given up, with nothing left to try"
        assert instance not in browser.games

        playing = replace(ad, phase="playing", seats_taken=2)
        await adv.update(playing)  # a new TXT record: zeroconf reports the instance updated
        event = await found(browser, ad.game)
        assert event == GameFound(replace(playing, addresses=("127.0.0.1",)), instance)
    assert len(fake.calls) > RESOLVE_ATTEMPTS and set(fake.calls) == {instance}


class Unstarted(SimpleNamespace):
    """A stand-in for the browser's AsyncZeroconf (no sockets): its engine runs, its close does nothing."""

    def __init__(self) -> None:
        super().__init__(zeroconf=SimpleNamespace(started=True))

    async def async_close(self) -> None:
        pass


@pytest.mark.asyncio
async def test_retries_wait_behind_newly_reported_records_and_end_after_the_last_attempt(monkeypatch):
    held = {"a": asyncio.Event(), "b": asyncio.Event()}  # c's requests end at once
    called = {name: asyncio.Event() for name in "abc"}
    calls: list[str] = []
    in_flight = [0, 0]  # now, most at once
    every_attempt = asyncio.Event()

    async def request(info: AsyncServiceInfo, zc: Any, timeout: float, *args: Any, **kwargs: Any) -> bool:
        name = info.name.split(".")[0]
        calls.append(name)
        called[name].set()
        in_flight[0] += 1
        in_flight[1] = max(in_flight)
        try:
            if name in held:
                await held[name].wait()
            if name == "a":
                raise NotRunningException
            return False  # b and c: the records did not all come in time
        finally:
            in_flight[0] -= 1
            if len(calls) == 3 * RESOLVE_ATTEMPTS:
                every_attempt.set()

    monkeypatch.setattr(AsyncServiceInfo, "async_request", request)
    browser = Browser(max_games=1, retry_delay=0.0)
    browser._aiozc = Unstarted()  # type: ignore[assignment]
    retry_due = browser._retry_due
    due = asyncio.Event()

    def note_due(name: str, attempt: int) -> None:
        retry_due(name, attempt)
        due.set()

    monkeypatch.setattr(browser, "_retry_due", note_due)

    def report(name: str) -> None:  # as zeroconf reports a new instance
        zc: Any = None
        browser._on_change(zc, SERVICE_TYPE, f"{name}.{SERVICE_TYPE}", ServiceStateChange.Added)

    try:
        report("a")  # takes the one slot
        report("b")  # waits for it
        await asyncio.wait_for(called["a"].wait(), WAIT)
        held["a"].set()  # a is refused: b takes the slot, a is tried again once it is free
        await asyncio.wait_for(called["b"].wait(), WAIT)
        await asyncio.wait_for(due.wait(), WAIT)
        assert list(browser._retrying) == [f"a.{SERVICE_TYPE}"]
        report("c")  # reported while a's retry waits: c goes first
        held["b"].set()
        await asyncio.wait_for(every_attempt.wait(), WAIT)
        if browser._tasks:
            await asyncio.wait(set(browser._tasks), timeout=WAIT)
        assert calls[:4] == ["a", "b", "c", "a"]
        assert Counter(calls) == dict.fromkeys("abc", RESOLVE_ATTEMPTS)
        assert in_flight[1] == 1  # never more resolutions at once than max_games
        pending = (browser._tasks, browser._resolving, browser._waiting, browser._backoff, browser._retrying)
        assert not any(pending), "nothing left to try"
    finally:
        await browser.close()


@pytest.mark.asyncio
async def test_registering_while_mdns_is_not_running_is_a_discovery_error(monkeypatch):
    async def not_running(self: AsyncZeroconf, *args: Any, **kwargs: Any) -> Any:
        raise NotRunningException

    monkeypatch.setattr(AsyncZeroconf, "async_register_service", not_running)
    async with Advertiser(interfaces=LOOP) as adv:
        with pytest.raises(DiscoveryError, match="mDNS is not running"):
            await adv.start(table())
