"""Invite codes across real NATs: homes in network namespaces behind masquerading routers, with no
route between them (:mod:`tests.net.homes`), and magic-wormhole's mailbox server and transit relay on
a server on the "internet" between them. ``carcnet`` processes, one per laptop: the host in home 1
hands out codes; two bots in home 2 sit down with them (no direct path reaches home 2 from outside:
their pairings go through the relay), and one in home 1; a
spectator in home 1 finds the table by mDNS (one table mixes both). The game is played to the end with one log everywhere. Needs root (CI); skipped elsewhere,
saying why, and without the internet extra."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from carcnet.log import load

from . import homes as homes_module
from . import netns, wormhole_servers

pytestmark = pytest.mark.asyncio

#: The longest the test's game may take, the codes included.
GAME_SECONDS = 120.0


@pytest.fixture
def homes():
    wormhole_servers.need_internet()
    yield from homes_module.homes_for_test([3, 2])


async def test_friends_behind_two_nats_sit_down_by_code_and_play_a_whole_game_with_a_spectator(
        homes: homes_module.Homes, tmp_path: Path) -> None:
    assert homes.server is not None
    out: dict[str, list[str]] = {}
    procs: dict[str, asyncio.subprocess.Process] = {}
    try:
        async with asyncio.timeout(GAME_SECONDS + 30):
            servers = procs["servers"] = await homes.spawn(homes.server, sys.executable, "-m",
                                                           "tests.net.wormhole_servers", homes.server.address)
            assert servers.stdout is not None
            mailbox, transit = (await servers.stdout.readline()).decode().split()
            (ann, eve, dan), (bob, cleo) = homes.homes

            async def start(name: str, host: netns.Host, *args: str) -> None:
                procs[name] = await homes.spawn(
                    host, sys.executable, "-m", "carcnet", *args, "--name", name, "--data-dir", str(tmp_path / name),
                    "--interface", host.address, "--relay", mailbox, "--transit", transit,
                    "--timeout", str(GAME_SECONDS))
                out[name] = []

            await start("Ann", ann, "host", "--headless", "--invite", "--seats", "greedy,open,open,open",
                        "--listen", ann.address)
            await start("Eve", eve, "spectate", "--headless", "--wait", "30")  # by mDNS, at home
            code = (await netns.read_lines(procs["Ann"], out["Ann"], "Invite code: ") or "").split()[2]
            await start("Bob", bob, "bot", "--join", code, "--bot", "random", "--listen", bob.address)
            second = (await netns.read_lines(procs["Ann"], out["Ann"], "Invite code: ") or "").split()[2]
            assert second != code
            await start("Cleo", cleo, "bot", "--join", second, "--bot", "random", "--listen", cleo.address)
            third = (await netns.read_lines(procs["Ann"], out["Ann"], "Invite code: ") or "").split()[2]
            # at Ann's home, with a code too: the pairing finds the direct path there
            await start("Dan", dan, "bot", "--join", third, "--bot", "random", "--listen", dan.address)
            laptops = [n for n in procs if n != "servers"]
            await asyncio.gather(*(netns.read_lines(procs[n], out[n]) for n in laptops))
            codes = {n: await procs[n].wait() for n in laptops}
    finally:
        for name, proc in procs.items():
            if proc.returncode is None:
                proc.kill()
            await proc.wait()
            if proc.stderr is not None and name != "servers":
                err = (await proc.stderr.read()).decode(errors="replace")
                print(f"--- {name} stderr:\n{err[-2000:]}\n--- {name} stdout:\n" + "\n".join(out.get(name, [])[-30:]))
    assert codes == {"Ann": 0, "Eve": 0, "Bob": 0, "Cleo": 0, "Dan": 0}
    saves = {n: Path(next(line for line in lines if line.startswith("saved to ")).removeprefix("saved to "))
             for n, lines in out.items()}
    logs = {n: load(path) for n, path in saves.items()}
    assert len({log.game.digest for log in logs.values()}) == 1 and all(log.damage is None for log in logs.values())
    assert logs["Ann"].game.tiles_left == 0
    # home 2 is behind its router: the bots' pairings with Ann go through the relay (Dan's, at her
    # home, may take either: the direct path is tried first, the relay 2 s later, and the first made
    # wins; the direct one is asserted on loopback, tests/net/test_invite.py). Ann also introduces
    # the three to each other (Bob and Cleo, at one home, may then pair directly).
    assert sum("connected through the relay" in line for line in out["Ann"]) >= 2
    assert all(any("connected through the relay" in line for line in out[n]) for n in ("Bob", "Cleo"))

