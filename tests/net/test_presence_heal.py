"""After a split heals, the direct links come back within seconds, and the away lists clear with them
(wire.md §2.1 "Reconnect attempts", §4.2 "The address book"). Three ``carcnet`` processes on three
network hosts (:mod:`tests.net.netns`); Bob's host is split from Ann's and Cleo's, held apart past the
moment every link across has closed, then healed, several times, each for another while.

The peers run with the heartbeat and silence of wire.md §2.1 scaled down (a link across the split
closes within seconds, not 20 s) and with the protocol's own reconnection waits, the thing measured:
how long after the heal each pair's link opens again, read from the peers' own connection logs
(``<save>.events``, their ``wall`` times, and the wall time of the heal on this machine's one clock).
Needs root; skipped elsewhere with the reason."""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from . import netns

#: The longest the whole test may take, lobby to the last heal.
TEST_SECONDS = 240.0
#: The most a pair's link may take to come back after a heal, as wire.md §2.1 promises (the median).
LINKS_BACK = 5.0
#: How long each split is held once every link across it has closed (seconds): where the back-off that
#: waited up to 30 s between attempts was in its waits of 8 s and 16 s.
HOLDS = (9.5, 17.0, 22.0)

#: Runs ``carcnet ARGS`` with a heartbeat of 0.5 s and a link taken for dead after 2.5 s of silence
#: (the draw value's wait 1 s), every other clock of wire.md §2.1 its own.
PEER_MAIN = """\
import sys
import carcnet.table.lan as lan
from carcnet.net.transport import Timing
from carcnet.cli import main
clocks = Timing(heartbeat=0.5, dead=2.5, connect=2.0)
lan.Timing = lambda: clocks
lan.REVEAL_WAIT = 1.0
sys.exit(main(sys.argv[1:]))
"""


@pytest.fixture
def lan3():
    yield from netns.lan_for_test(3)


class Peers:
    """The processes of the test, their stdout lines kept, read by name."""

    def __init__(self, lan: netns.Lan, tmp: Path) -> None:
        self.lan, self.tmp = lan, tmp
        self.procs: dict[str, asyncio.subprocess.Process] = {}
        self.out: dict[str, list[str]] = {}

    async def start(self, name: str, host: netns.Host, *args: str) -> None:
        argv = [sys.executable, "-c", PEER_MAIN, *args, "--data-dir", str(self.tmp / name), "--interface",
                host.address, "--listen", host.address, "--timeout", str(TEST_SECONDS), "--takeover", "1000"]
        self.procs[name] = await self.lan.spawn(host, *argv)
        self.out[name] = []

    async def until(self, name: str, test) -> str:
        """Reads *name*'s lines until ``test(line)`` holds; fails if the process ends first."""
        proc = self.procs[name]
        assert proc.stdout is not None
        while True:
            raw = await proc.stdout.readline()
            assert raw, (name, self.out[name][-10:])
            line = raw.decode(errors="replace").rstrip("\n")
            self.out[name].append(line)
            if test(line):
                return line

    def events(self, name: str) -> list[dict[str, Any]]:
        """*name*'s connection log, beside its save."""
        line = next(line for line in self.out[name] if line.startswith("The game started; saving it to "))
        path = Path(line.removeprefix("The game started; saving it to ")).with_suffix(".events")
        return [json.loads(text) for text in path.read_text(encoding="utf-8").splitlines() if text]

    async def report(self) -> None:
        await self.lan.stop_processes()
        for name, proc in self.procs.items():
            if proc.stderr is not None:
                err = (await asyncio.wait_for(proc.stderr.read(), 5)).decode(errors="replace")
                print(f"--- {name} stderr:\n{err[-3000:]}")
            shown = [line for line in self.out[name] if not line.startswith("move ")]
            print(f"--- {name} stdout (but the moves):\n" + "\n".join(shown))


def _opened_after(events: list[dict[str, Any]], peer: str, since: float) -> float | None:
    """When the first link to *peer* opened at or after *since* (wall seconds), by this log."""
    walls = [e["wall"] for e in events if (e["kind"], e["code"], e["peer"]) == ("info", "open", peer)]
    return min((wall for wall in walls if wall >= since), default=None)


@pytest.mark.slow
@pytest.mark.asyncio
async def test_after_a_heal_the_links_come_back_within_seconds_and_the_away_list_clears(lan3, tmp_path: Path) -> None:
    """Bob's host is split from Ann's and Cleo's three times, each held a while after every link across
    closed; after each heal every laptop says nobody is away, and each of Bob's two links is back, by
    the peers' own logs, within 5 s of the heal (the median; with the back-off to 30 s it took 9 s)."""
    peers = Peers(lan3, tmp_path)
    ann_host, bob_host, cleo_host = lan3.hosts
    back: list[float] = []
    try:
        async with asyncio.timeout(TEST_SECONDS):
            await peers.start("ann", ann_host, "host", "--headless", "--seats", "greedy,open,open",
                              "--name", "Ann", "--bot-delay", "0.3")
            await peers.until("ann", lambda line: line.startswith("listening on port"))
            for name, host in (("bob", bob_host), ("cleo", cleo_host)):
                await peers.start(name, host, "bot", "--join", "--name", name.capitalize(), "--bot", "random",
                                  "--wait", "30", "--bot-delay", "0.3")
            playing = (peers.until(name, lambda line: line.startswith("move ")) for name in peers.procs)
            await asyncio.gather(*playing)
            for hold in HOLDS:
                lan3.split([[bob_host], [ann_host, cleo_host]])
                await asyncio.gather(
                    peers.until("bob", lambda line: line.startswith("You are cut off from the table")),
                    peers.until("ann", lambda line: line.startswith("Bob's laptop stopped answering")),
                    peers.until("cleo", lambda line: line.startswith("Bob's laptop stopped answering")),
                )
                await asyncio.sleep(hold)  # the split held: the fault's length, nothing waited for
                healed = time.time()
                lan3.unsplit()
                await asyncio.gather(
                    peers.until("bob", lambda line: line == "Nobody is away"),
                    peers.until("ann", lambda line: line == "Nobody is away"),
                    peers.until("cleo", lambda line: line == "Nobody is away"),
                )
                for name, other in (("bob", "Ann"), ("bob", "Cleo")):
                    theirs = "ann" if other == "Ann" else "cleo"
                    times = [t for t in (_opened_after(peers.events(name), other, healed),
                                         _opened_after(peers.events(theirs), "Bob", healed)) if t is not None]
                    assert times, (name, other)
                    back.append(max(times) - healed)  # the link is back once both ends hold it open
    finally:
        await peers.report()
        print("links back after the heals (s):", [round(t, 2) for t in back])
    assert len(back) == 2 * len(HOLDS)
    assert statistics.median(back) < LINKS_BACK, back
