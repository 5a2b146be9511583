"""Listing tables under an mDNS flood (discovery.md §4): the pacing of the probes that confirm records,
as a table of cases without I/O (:class:`carcnet.net.adverts.ProbePlan`), and ``carcnet lan`` on
separate network hosts with real multicast while a stranger floods the LAN with 300 forged lobbies
pointing at a tarpit and 60 records of the real game at the real host's address under wrong keys.
The namespace test needs root; it is skipped elsewhere with the reason."""

from __future__ import annotations

import asyncio
import heapq
import json
import secrets
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from carcnet.net.adverts import (
    MAX_RECORDS,
    PROBE_TIMEOUT,
    GameAd,
    Outcome,
    ProbePlan,
    ProbeTarget,
)
from carcnet.net.discovery import DiscoveryEvent, GameFound, GameLost
from carcnet.net.finder import find_tables

from . import netns

#: Forged lobbies at the tarpit (more than the browser's MAX_GAMES, 256) and records of the real game
#: at the real host's address under keys nobody there proves.
FORGED, TWINS = 300, 60
#: Seconds ``carcnet lan`` listens.
WAIT = 8.0
#: Seconds the whole test may take.
TEST_SECONDS = 90.0

#: The stranger: a tarpit (accepts connections and never says a word) and the records, all published
#: at once by one responder; prints "ready" and waits for its stdin to close.
FLOOD = r"""
import asyncio, secrets, sys
from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf
from carcnet.net.adverts import SERVICE_TYPE, GameAd

async def main(address, host, port, game, forged, twins):
    held = []
    tarpit = await asyncio.start_server(lambda r, w: held.append(w), address, 0, backlog=1024)
    pit = tarpit.sockets[0].getsockname()[1]
    zc = AsyncZeroconf(interfaces=[address], ip_version=IPVersion.V4Only)
    infos = []
    for i in range(forged):
        ad = GameAd(game=secrets.token_hex(16), name=f"Forged {i}", phase="lobby", seats_taken=1,
                    seats_total=2, peer=f"Forger {i}", role="host", key=secrets.token_bytes(32), port=pit)
        infos.append(AsyncServiceInfo(SERVICE_TYPE, f"Forger {i}.{SERVICE_TYPE}", port=pit, properties=ad.to_txt(),
                                      server="forger.local.", parsed_addresses=[address]))
    for i in range(twins):
        ad = GameAd(game=game, name="The real table", phase="lobby", seats_taken=1, seats_total=2, peer="Ann",
                    role="host", key=secrets.token_bytes(32), port=port)
        infos.append(AsyncServiceInfo(SERVICE_TYPE, f"Ann {i} ({game[:8]}).{SERVICE_TYPE}", port=port,
                                      properties=ad.to_txt(), server="twin.local.", parsed_addresses=[host]))
    tasks = await asyncio.gather(*(zc.async_register_service(info, cooperating_responders=True) for info in infos))
    await asyncio.gather(*tasks)
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    await zc.async_close()
    tarpit.close()

asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5]), int(sys.argv[6])))
"""


# ---------------------------------------------------------------------- the pacing, without I/O

HOST, TARPIT = "10.0.0.1", "10.0.0.66"  # the real host's address, the stranger's
PORT, PIT = 7000, 9999
REAL_GAME, REAL_KEY = "3f2a9c1b" * 4, bytes(range(32))


def ad(game: str, key: bytes, address: str, port: int, name: str = "The real table", proto: int | None = None) -> GameAd:
    extra = {} if proto is None else {"proto": proto}
    return GameAd(game=game, name=name, phase="lobby", seats_taken=1, seats_total=2, peer="Ann", role="host",
                  key=key, port=port, addresses=(address,), **extra)


REAL = ad(REAL_GAME, REAL_KEY, HOST, PORT)


def forged(n: int, address: str = TARPIT, port: int = PIT) -> list[tuple[str, GameAd]]:
    """*n* forged lobbies, each its own game and key, at *address*."""
    return [(f"forged {i}", ad(secrets.token_hex(16), secrets.token_bytes(32), address, port, f"Forged {i}"))
            for i in range(n)]


def twins(n: int) -> list[tuple[str, GameAd]]:
    """*n* records of the real game at the real host's address and port, under keys nobody proves there."""
    return [(f"twin {i}", ad(REAL_GAME, secrets.token_bytes(32), HOST, PORT)) for i in range(n)]


def other_games_at_the_host(n: int) -> list[tuple[str, GameAd]]:
    """*n* records at the real host's address and port naming games it does not hold."""
    return forged(n, HOST, PORT)


def silent_addresses(n: int) -> list[tuple[str, GameAd]]:
    """*n* records, each at an address of its own where nothing answers."""
    return [(f"gone {i}", ad(secrets.token_hex(16), secrets.token_bytes(32), f"10.0.{1 + i // 250}.{1 + i % 250}",
                             PIT, f"Gone {i}")) for i in range(n)]


@dataclass
class Network:
    """The LAN as the probes meet it, on a simulated clock: the real host answers in 10 ms with its key
    for its game (refusing other games) and keeps wire.md §2.1's per-address budgets (8 connections in
    their handshake, 16 new a second: one more is refused); the tarpit says nothing, ever; any other
    address is silent too."""

    started: list[tuple[float, ProbeTarget]] = field(default_factory=list)
    open_at_host: list[float] = field(default_factory=list)  # when each probe under way at the host ends
    over_budget: int = 0

    def answer(self, target: ProbeTarget, now: float) -> tuple[float, Outcome]:
        self.started.append((now, target))
        if target.address != HOST:
            return PROBE_TIMEOUT, "silent"
        self.open_at_host = [t for t in self.open_at_host if t > now]
        recent = sum(1 for t, s in self.started if s.address == HOST and t + 1.0 > now)
        if len(self.open_at_host) >= 8 or recent > 16:
            self.over_budget += 1
            return 0.001, "refused"  # closed before a byte is read
        self.open_at_host.append(now + 0.01)
        if target.port != PORT or target.game != REAL_GAME:
            return 0.01, "refused"
        return 0.01, REAL_KEY


def simulate(arrivals: list[tuple[str, GameAd]], until: float = 60.0, plan: ProbePlan | None = None,
             net: Network | None = None) -> tuple[ProbePlan, Network, dict[str, float]]:
    """Reads *arrivals* into a plan 1 ms apart and runs its probes against :class:`Network` until
    simulated time *until* or nothing is left to do. Returns the plan, the network, and when each
    record was settled."""
    plan = plan or ProbePlan()
    net = net or Network()
    settled: dict[str, float] = {}
    ends: list[tuple[float, int, ProbeTarget, Outcome]] = []
    now, count = 0.0, 0
    queue = list(arrivals)
    for _ in range(100_000):
        while queue and queue[0] is not None and len(arrivals) - len(queue) <= now * 1000:
            name, record = queue.pop(0)
            plan.seen(name, record, now, probe=record.compatible)
            if plan.status(name) in ("confirmed", "failed"):  # settled at once by a probe it shares
                settled.setdefault(name, now)
        while ends and ends[0][0] <= now:
            _, _, target, outcome = heapq.heappop(ends)
            for name in plan.done(target, outcome, now):
                settled.setdefault(name, now)
        for target in plan.next_probes(now):
            took, outcome = net.answer(target, now)
            count += 1
            heapq.heappush(ends, (now + took, count, target, outcome))
        times = [t for t in (ends[0][0] if ends else None, plan.wake_at(now),
                             now + 0.001 if queue else None) if t is not None]
        if not times or now >= until:
            break
        now = max(now, min(times))
    return plan, net, settled


FLOODS = {
    "300 forged lobbies at a tarpit, then the real table": forged(300) + [("real", REAL)],
    "the real table, then 300 forged lobbies at a tarpit": [("real", REAL), *forged(300)],
    "60 records of the real game at its host under wrong keys, then the real one": twins(60) + [("real", REAL)],
    "both floods of the issue, the real table last": forged(300) + twins(60) + [("real", REAL)],
    "both floods, the real table in the middle": forged(150) + [("real", REAL)] + twins(60) + forged(150),
    "60 other games at the real host's address, then the real one": other_games_at_the_host(60) + [("real", REAL)],
    "100 records each at a silent address of its own, then the real one": silent_addresses(100) + [("real", REAL)],
}
#: Simulated seconds by which the real table is confirmed under each flood: at once where the flood
#: sits at one address (round-robin between addresses, records sharing a probe); 8 probes a second
#: at the host for other games there; 3 s per 16 silent addresses (the documented limit).
CONFIRMED_BY = dict.fromkeys(FLOODS, 0.5) | {
    "60 other games at the real host's address, then the real one": 61 / 8 + 0.5,
    "100 records each at a silent address of its own, then the real one": (100 // 16 + 1) * PROBE_TIMEOUT + 0.5,
}


@pytest.mark.parametrize("flood", list(FLOODS))
def test_the_real_table_is_confirmed_in_time_and_listed_first_under_a_flood(flood: str) -> None:
    plan, net, settled = simulate(FLOODS[flood])
    assert plan.status("real") == "confirmed" and plan.where("real") == (HOST, PORT)
    assert settled["real"] <= CONFIRMED_BY[flood], settled["real"]
    listing = plan.listing()
    assert listing[0][0] == "real" and all(status != "confirmed" for _, _, status in listing[1:])
    assert sum(status != "confirmed" for _, _, status in listing) <= MAX_RECORDS
    # the host's per-address budgets were never met, and each probe to it began once
    assert net.over_budget == 0
    at_host = [t for t, target in net.started if target.address == HOST]
    assert max(sum(1 for u in at_host if t <= u < t + 1.0) for t in at_host) <= 8
    assert len(at_host) == len({target for _, target in net.started if target.address == HOST})


def test_records_sharing_an_address_port_and_game_share_one_probe() -> None:
    plan, net, _ = simulate(twins(60) + [("real", REAL)])
    assert [target for _, target in net.started] == [ProbeTarget(HOST, PORT, REAL_GAME)]
    assert plan.status("real") == "confirmed"
    assert {plan.status(f"twin {i}") for i in range(60)} == {"failed"}


def test_a_tarpit_holds_one_probe_once_silent_and_waits_behind_other_addresses() -> None:
    plan = ProbePlan()
    for name, record in forged(40):
        plan.seen(name, record, 0.0)
    first = plan.next_probes(0.0)
    assert [t.address for t in first] == [TARPIT] * 4  # 4 at once to one address
    assert plan.next_probes(0.0) == []
    for target in first:
        plan.done(target, "silent", 3.0)
    plan.seen("real", REAL, 3.0)
    again = plan.next_probes(3.0)
    assert [t.address for t in again] == [HOST, TARPIT]  # the other address first; then 1 at the tarpit


@pytest.mark.parametrize(
    ("ends", "begun"),
    [
        ("none", [4, 0]),  # 4 at once: nothing more until one ends
        ("at once", [4, 4, 0]),  # then 8 a second: the ninth waits for the second to pass
    ],
)
def test_probes_to_one_address_are_paced_below_its_handshake_budget(ends: str, begun: list[int]) -> None:
    plan = ProbePlan()
    for name, record in other_games_at_the_host(20):
        plan.seen(name, record, 0.0)
    counts = []
    for _ in begun:
        batch = plan.next_probes(0.0)
        counts.append(len(batch))
        if ends == "at once":
            for target in batch:
                plan.done(target, "refused", 0.0)
    assert counts == begun
    if ends == "at once":
        assert plan.wake_at(0.0) == 1.0
        assert len(plan.next_probes(1.0)) == 4


def test_at_most_16_probes_at_once_over_every_address() -> None:
    plan = ProbePlan()
    for name, record in silent_addresses(40):
        plan.seen(name, record, 0.0)
    assert len(plan.next_probes(0.0)) == 16 and plan.next_probes(0.0) == []
    assert plan.wake_at(0.0) is None  # the next one waits for a probe to end


ROOM_CASES = {
    # (records in arrival order, outcomes of probes, who must be held afterwards, who must be gone)
    "a confirmed table stays whatever the flood": (
        [("real", REAL)], [("real", REAL_KEY)], forged(400), ["real"], []),
    "the crowded address gives up its newest": (
        [("real", REAL)], [], forged(300), ["real", "forged 0"], ["forged 299"]),
    "a failed record goes first": (
        [("twin", ad(REAL_GAME, bytes(32), HOST, PORT))], [("twin", REAL_KEY)], forged(256), ["forged 255"], ["twin"]),
}


@pytest.mark.parametrize("case", list(ROOM_CASES))
def test_making_room_never_pushes_a_confirmed_table_out(case: str) -> None:
    first, outcomes, flood, held, gone = ROOM_CASES[case]
    plan = ProbePlan()
    for name, record in first:
        plan.seen(name, record, 0.0)
    probes = plan.next_probes(0.0)
    for name, key in outcomes:
        target = next(t for t in probes if t.game == plan.records[name].game)
        plan.done(target, key, 0.01)
    for name, record in flood:
        plan.seen(name, record, 0.02)
    assert set(held) <= set(plan.records) and not set(gone) & set(plan.records)
    assert sum(plan.status(n) != "confirmed" for n in plan.records) <= MAX_RECORDS
    assert set(plan.take_dropped()) >= set(gone)


def test_records_of_another_version_are_listed_unchecked_and_never_probed() -> None:
    plan = ProbePlan()
    plan.seen("future", ad("a" * 32, bytes(32), HOST, PORT, "Future", proto=99), 0.0, probe=False)
    assert plan.status("future") == "unchecked" and plan.next_probes(0.0) == []


def test_a_failed_probe_is_run_again_only_after_a_while_and_a_lost_record_drops_its_probe() -> None:
    plan = ProbePlan(retry_after=30.0)
    plan.seen("real", REAL, 0.0)
    (target,) = plan.next_probes(0.0)
    assert plan.done(target, "refused", 0.1) == ["real"] and plan.status("real") == "failed"
    plan.seen("real", REAL, 10.0)  # read again soon: nothing to do
    assert plan.status("real") == "failed" and plan.pending == 0
    plan.seen("real", REAL, 31.0)  # read again later: probed again
    assert plan.status("real") == "checking" and plan.pending == 1
    assert plan.lost("real") and plan.pending == 0 and plan.status("real") is None


@pytest.mark.asyncio
async def test_find_tables_keeps_what_the_browser_evicts_and_stops_when_told() -> None:
    """The driver: a record the browser drops only to make room stays in the plan and is confirmed;
    a goodbye forgets it; ``on_settled`` returning true ends the search at once."""
    events: list[DiscoveryEvent] = [GameFound(REAL, "real"), GameLost("real", evicted=True), *(
        GameFound(record, name) for name, record in forged(3))]

    class Source:
        async def next_event(self, timeout: float) -> DiscoveryEvent | None:
            return events.pop(0) if events else None

    dialled: list[tuple[str, int]] = []

    async def prove(address: tuple[str, int], game: str) -> Outcome:
        dialled.append(address)
        return REAL_KEY if game == REAL_GAME else "refused"

    plan = ProbePlan()
    seen: list[tuple[str, bool]] = []

    def note(name: str, _ad: GameAd, confirmed: bool) -> bool:
        seen.append((name, confirmed))
        return False

    await find_tables(Source(), plan, seconds=10.0, prove=prove, on_settled=note)
    assert plan.status("real") == "confirmed" and ("real", True) in seen
    assert plan.listing()[0][0] == "real" and len(dialled) == 4
    assert Counter(status for _, _, status in plan.listing()) == Counter({"confirmed": 1, "failed": 3})

    events[:] = [GameFound(REAL, "again"), GameLost("real"), *(GameFound(r, n) for n, r in forged(3, HOST, PORT))]
    await find_tables(Source(), plan, seconds=10.0, prove=prove, on_settled=lambda *_: True)
    assert plan.status("again") == "confirmed"  # at once: the probe it shares was done; and that ended it
    assert len(dialled) == 4 and len(events) == 4 and plan.status("real") == "confirmed"
    await find_tables(Source(), plan, seconds=10.0, prove=prove)
    assert plan.status("real") is None  # its goodbye
    assert plan.status("again") == "confirmed" and len(dialled) == 7

@pytest.fixture
def lan3():
    yield from netns.lan_for_test(3)


@pytest.mark.asyncio
async def test_lan_lists_the_real_table_confirmed_and_first_in_a_flood(lan3, tmp_path: Path) -> None:
    host_ns, lister_ns, mallory_ns = lan3.hosts
    started = time.monotonic()
    outputs: dict[str, list[str]] = {"host": [], "flood": []}
    procs: dict[str, asyncio.subprocess.Process] = {}
    try:
        async with asyncio.timeout(TEST_SECONDS):
            procs["host"] = await lan3.spawn(
                host_ns, sys.executable, "-m", "carcnet", "host", "--headless", "--seats", "greedy,open",
                "--name", "Ann", "--game-name", "The real table", "--listen", host_ns.address,
                "--interface", host_ns.address, "--data-dir", str(tmp_path / "host"), "--timeout", str(TEST_SECONDS),
            )
            game = await netns.read_lines(procs["host"], outputs["host"], until="game id ")
            port = await netns.read_lines(procs["host"], outputs["host"], until="listening on port ")
            assert game is not None and port is not None, outputs["host"]
            game, port = game.removeprefix("game id "), port.removeprefix("listening on port ")
            procs["flood"] = await lan3.spawn(mallory_ns, sys.executable, "-c", FLOOD, mallory_ns.address,
                                              host_ns.address, port, game, str(FORGED), str(TWINS))
            assert await netns.read_lines(procs["flood"], outputs["flood"], until="ready") == "ready"
            procs["lan"] = await lan3.spawn(lister_ns, sys.executable, "-m", "carcnet", "lan", "--json",
                                            "--wait", str(WAIT), "--interface", lister_ns.address)
            out, err = await procs["lan"].communicate()
    finally:
        await lan3.stop_processes()
    print(f"the flood test took {time.monotonic() - started:.1f} s")
    assert procs["lan"].returncode == 0, err.decode(errors="replace")[-3000:]
    listed = json.loads(out)
    confirmed = [t for t in listed if t["confirmed"]]
    print(f"{len(listed)} listed, {len(confirmed)} confirmed")
    assert [(t["game"], t["name"], t["peer"], t["port"]) for t in confirmed] == [(game, "The real table", "Ann", int(port))]
    assert listed[0]["confirmed"], "the real table is listed first"
    assert listed[0]["addresses"] == [host_ns.address]
    assert all(not t["confirmed"] for t in listed[1:])
    assert sum(t["game"] != game for t in listed) <= 256  # bounded, whatever the flood
