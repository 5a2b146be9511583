"""Tournaments between ``carcnet tournament`` processes (issue 34): the laptop that opened the event
killed (SIGKILL) while its table's game is under way, and the others finish the event; and one round
across separate network hosts (namespaces on a bridge the test makes; root only, skipped elsewhere
with the reason).

Each process runs ``carcnet``'s own ``main`` with short clocks (:data:`MAIN`: the tables' heartbeat,
the event's status polls and the time after which a silent laptop counts as gone), as
tests/net/nemesis.py does for tables. Waits are on the processes' lines, bounded by ``asyncio.timeout``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import sys
from pathlib import Path

import pytest

from carcnet.club.event import Charter, draw_round
from carcnet.club.pairing import lots
from carcnet.club.results import check_log, result_name
from carcnet.club.runner import CHARTER_FILE

from ..net import netns

pytestmark = pytest.mark.asyncio

#: The longest a whole event here may take.
LIMIT = 150.0

MAIN = """\
import sys
import carcnet.club.runner as runner
import carcnet.table.lan as lan
from carcnet.net.transport import Timing
from carcnet.cli import main
clocks = Timing(handshake=2.0, heartbeat=0.5, dead=5.0, connect=2.0, close=1.0, backoff=(0.05, 0.1, 0.2))
assert lan.Timing is Timing, "tests/club/test_tournament_hosts.py: update MAIN"
lan.Timing = lambda: clocks
runner.POLL, runner.GONE, runner.LINGER = 0.3, 3.0, 10.0
event = sys.argv[1]
if event:
    opened = runner.EventRunner.open.__func__
    runner.EventRunner.open = classmethod(lambda cls, *a, **k: opened(cls, *a, **{**k, "event": event}))
sys.exit(main(sys.argv[2:]))
"""


def _event_opened_by_ann() -> str:
    """An event id whose lots put one of Ann's three players (ids 0 to 2: she enters first) first in
    round 1, so that Ann's laptop opens a table of round 1."""
    return next(e for e in (hashlib.sha256(bytes([i])).hexdigest()[:32] for i in range(64))
                if min(lots(e, [str(i) for i in range(8)]).items(), key=lambda kv: kv[1])[0] in "012")


class Laptop:
    """One ``carcnet tournament`` process and the lines it printed."""

    def __init__(self, name: str, tmp: Path) -> None:
        self.name = name
        self.data = tmp / name
        self.lines: list[str] = []
        self.proc: asyncio.subprocess.Process | None = None
        self._seen = asyncio.Event()

    async def start(self, *args: str, event: str = "", spawn=None) -> None:  # type: ignore[no-untyped-def]
        argv = [sys.executable, "-c", MAIN, event, "tournament", *args, "--name", self.name,
                "--data-dir", str(self.data)]
        if spawn is None:
            argv.append("--no-mdns")  # on this machine's own interfaces: no multicast leaves the test
        if spawn is None:
            self.proc = await asyncio.create_subprocess_exec(*argv, stdout=asyncio.subprocess.PIPE,
                                                             stderr=asyncio.subprocess.STDOUT)
        else:
            self.proc = await spawn(*argv)
        asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            self.lines.append(line.decode(errors="replace").rstrip("\n"))
            self._seen.set()

    async def line(self, pattern: str) -> re.Match[str]:
        """The first line matching *pattern* (waits for it while the process prints)."""
        while True:
            for text in self.lines:
                if m := re.search(pattern, text):
                    return m
            assert self.proc is not None
            if self.proc.returncode is not None and not self._seen.is_set():
                raise AssertionError(f"{self.name} ended without {pattern!r}:\n" + "\n".join(self.lines[-30:]))
            self._seen.clear()
            await self._seen.wait()

    async def wait(self) -> int:
        assert self.proc is not None
        code = await self.proc.wait()
        await asyncio.sleep(0)  # the reader's last lines
        return code

    def folder(self) -> Path:
        return Path(next(t for t in self.lines if t.startswith("Event folder: ")).removeprefix("Event folder: "))


def _standings(laptop: Laptop) -> list[tuple[int, str, str]]:
    rows = json.loads((laptop.folder() / "standings.json").read_text())["standings"]
    return [(r["player"], r["wins"], r["difference"]) for r in rows]


@pytest.mark.slow
async def test_the_opener_killed_mid_round_and_the_event_finished(tmp_path: Path) -> None:
    ann, bob, cleo = (Laptop(n, tmp_path) for n in ("Ann", "Bob", "Cleo"))
    try:
        async with asyncio.timeout(LIMIT):
            await ann.start("open", "Kill night", "--rounds", "2", "--size", "4", "--bots", "greedy,random,greedy",
                            "--start-when", "8", "--listen", "127.0.0.1", "--bot-delay", "0.02",
                            event=_event_opened_by_ann())
            port = (await ann.line(r"open on port (\d+)"))[1]
            await bob.start("join", f"127.0.0.1:{port}", "--bots", "greedy,random,greedy", "--listen", "127.0.0.1",
                            "--bot-delay", "0.02")
            await cleo.start("join", f"127.0.0.1:{port}", "--bots", "greedy,random", "--listen", "127.0.0.1",
                             "--bot-delay", "0.02")
            opened = await ann.line(r"Round 1 table (\d+): opened here")
            await bob.line(r"^Round 1: ")
            await cleo.line(r"^Round 1: ")
            assert not any("Round 1 table" in t and "counted" in t for t in ann.lines)  # its game is under way
            assert ann.proc is not None
            ann.proc.kill()
            assert await ann.wait() == -9
            assert await bob.wait() == 0, "\n".join(bob.lines)
            assert await cleo.wait() == 0, "\n".join(cleo.lines)
    finally:
        for laptop in (ann, bob, cleo):
            if laptop.proc is not None and laptop.proc.returncode is None:
                laptop.proc.kill()
                await laptop.proc.wait()
    assert _standings(bob) == _standings(cleo), "\n".join(["-- Bob", *bob.lines, "-- Cleo", *cleo.lines, "-- Ann", *ann.lines])
    charter = Charter.from_bytes((bob.folder() / CHARTER_FILE).read_bytes())
    table = int(opened[1]) - 1
    seats = draw_round(charter, 1, []).tables[table]
    played = check_log(charter, 1, table, seats, bob.folder() / "results" / result_name(1, table))
    assert played.rank > 0, "the table Ann had opened was played again by the next laptop in its order"
    assert played.host != charter.opener
    assert played.result == check_log(charter, 1, table, seats, cleo.folder() / "results" / result_name(1, table)).result
    assert len(list((bob.folder() / "results").glob("*.carclog"))) == 4  # two rounds of two tables


@pytest.fixture
def lan3():
    yield from netns.lan_for_test(3)


async def test_one_round_across_three_network_hosts(lan3, tmp_path: Path) -> None:
    """Three laptops in namespaces of their own on one bridge: Ann opens, Bob and Cleo find the event by
    real multicast mDNS (no address given) and join it; the tables listen on each host's own address
    and are found through the event's statuses."""
    hosts = dict(zip(("Ann", "Bob", "Cleo"), lan3.hosts, strict=True))
    laptops = {n: Laptop(n, tmp_path) for n in hosts}

    def spawn(name: str):  # type: ignore[no-untyped-def]
        return lambda *argv: lan3.spawn(hosts[name], *argv)

    try:
        async with asyncio.timeout(LIMIT):
            await laptops["Ann"].start("open", "Three hosts", "--rounds", "1", "--size", "4", "--bots",
                                       "greedy,random,greedy", "--start-when", "8", "--listen",
                                       hosts["Ann"].address, "--interface", hosts["Ann"].address, spawn=spawn("Ann"))
            await laptops["Ann"].line(r"open on port (\d+)")
            # Bob and Cleo are given no address: they find the event by multicast mDNS on the bridge
            for name, bots in (("Bob", "greedy,random,greedy"), ("Cleo", "greedy,random")):
                await laptops[name].start("join", "--bots", bots, "--listen", hosts[name].address,
                                          "--interface", hosts[name].address, spawn=spawn(name))
            codes = [await laptop.wait() for laptop in laptops.values()]
    finally:
        await lan3.stop_processes()
    assert codes == [0, 0, 0], {n: laptop.lines[-12:] for n, laptop in laptops.items()}
    assert _standings(laptops["Ann"]) == _standings(laptops["Bob"]) == _standings(laptops["Cleo"])
    opened = {n for n, laptop in laptops.items() if any("opened here" in t for t in laptop.lines)}
    assert opened, "a table was opened"
    assert all(len(list((laptop.folder() / "results").glob("*.carclog"))) == 2 for laptop in laptops.values())
