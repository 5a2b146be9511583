"""Invite codes across real NATs: homes in network namespaces behind masquerading routers, with no
route between them (:mod:`tests.net.homes`), and magic-wormhole's mailbox server and transit relay on
a server on the "internet" between them. One process a laptop: the host in home 1 hands out codes; in
home 2 a bot, a person (the interface, played by keys through Textual's pilot: :mod:`tests.net.person`)
and a spectator sit down with them (no direct path reaches home 2 from outside: their pairings go
through the relay); a bot at the host's home finds the table by mDNS and is introduced to those
elsewhere (one table mixes both). The game is played to the end with one log everywhere. Then the
relay dies mid-game and comes back: the pairings are made anew, nothing is lost. Needs root (CI);
skipped elsewhere, saying why, and without the internet extra."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from carcnet.log import load

from . import homes as homes_module
from . import netns, wormhole_servers

pytestmark = pytest.mark.asyncio

#: The longest a test's game may take, the codes included.
GAME_SECONDS = 180.0


@pytest.fixture
def homes():
    wormhole_servers.need_internet()
    yield from homes_module.homes_for_test([3, 3])


async def test_a_person_bots_and_a_spectator_behind_two_nats_sit_down_by_code_and_play_a_whole_game(
        homes: homes_module.Homes, tmp_path: Path) -> None:
    assert homes.server is not None
    out: dict[str, list[str]] = {}
    procs: dict[str, asyncio.subprocess.Process] = {}
    try:
        async with asyncio.timeout(GAME_SECONDS + 60):
            _, mailbox, transit = await _servers(homes, procs)
            (ann, dan, _), (bob, cleo, eve) = homes.homes
            where = ["--relay", mailbox, "--transit", transit]

            async def start(name: str, host: netns.Host, *args: str, module: str = "carcnet") -> None:
                procs[name] = await homes.spawn(host, sys.executable, "-m", module, *args, "--name", name,
                                                "--data-dir", str(tmp_path / name), "--interface", host.address, *where)
                out[name] = []

            async def code() -> str:
                return (await netns.read_lines(procs["Ann"], out["Ann"], "Invite code: ") or "").split()[2]

            await start("Ann", ann, "host", "--headless", "--invite", "--seats", "greedy,open,open,open",
                        "--listen", ann.address, "--timeout", str(GAME_SECONDS))
            await start("Bob", bob, "bot", "--join", await code(), "--bot", "random", "--listen", bob.address,
                        "--timeout", str(GAME_SECONDS))
            await start("Cleo", cleo, await code(), module="tests.net.person")  # a person, by keys
            await start("Eve", eve, "spectate", "--headless", await code(), "--timeout", str(GAME_SECONDS))
            # at Ann's home, found by mDNS: Ann introduces Dan to the laptops elsewhere (a meet)
            await start("Dan", dan, "bot", "--join", "--bot", "random", "--listen", dan.address, "--wait", "30",
                        "--timeout", str(GAME_SECONDS))
            laptops = [n for n in procs if n != "servers"]
            await asyncio.gather(*(netns.read_lines(procs[n], out[n]) for n in laptops))
            codes = {n: await procs[n].wait() for n in laptops}
    finally:
        await _end(procs, out)
    assert codes == {"Ann": 0, "Bob": 0, "Cleo": 0, "Eve": 0, "Dan": 0}
    logs = _logs(out)
    assert logs["Ann"].game.tiles_left == 0
    seats = logs["Ann"].header.seats
    assert [seat.player for seat in seats if seat.name == "Cleo"] == ["human"]
    # home 2 is behind its router: the pairings with Ann go through the relay; Dan, at Ann's home,
    # was introduced to the laptops elsewhere and paired with them (the direct path between homes
    # is closed: through the relay too)
    assert sum("connected through the relay" in line for line in out["Ann"]) >= 3
    assert any("connected through the relay" in line for line in out["Bob"])
    assert any("A laptop elsewhere is connected" in line for line in out["Dan"])


async def test_a_relay_that_dies_mid_game_between_two_nats_loses_nothing(
        homes: homes_module.Homes, tmp_path: Path) -> None:
    """The relay is the only path between the homes: it stops mid-game (every connection through it
    dropped) and comes back on its port; both laptops make their pairing anew, and the game ends with
    one log, no seat taken over."""
    assert homes.server is not None
    out: dict[str, list[str]] = {}
    procs: dict[str, asyncio.subprocess.Process] = {}
    try:
        async with asyncio.timeout(GAME_SECONDS + 60):
            servers, mailbox, transit = await _servers(homes, procs)
            (ann, *_), (bob, *_) = homes.homes
            where = ["--relay", mailbox, "--transit", transit, "--timeout", str(GAME_SECONDS)]
            procs["Ann"] = await homes.spawn(ann, sys.executable, "-m", "carcnet", "host", "--headless", "--invite",
                                             "--seats", "greedy,open", "--moves", "--bot-delay", "0.2", "--name", "Ann",
                                             "--data-dir", str(tmp_path / "Ann"), "--listen", ann.address,
                                             "--interface", ann.address, *where)
            out["Ann"] = []
            code = (await netns.read_lines(procs["Ann"], out["Ann"], "Invite code: ") or "").split()[2]
            procs["Bob"] = await homes.spawn(bob, sys.executable, "-m", "carcnet", "bot", "--join", code, "--bot",
                                             "random", "--bot-delay", "0.2", "--name", "Bob",
                                             "--data-dir", str(tmp_path / "Bob"), "--interface", bob.address, *where)
            out["Bob"] = []
            bob_lines = asyncio.ensure_future(netns.read_lines(procs["Bob"], out["Bob"]))
            # the 20th event or later that is a move ("move N" or "draw N": which kind a seq is depends on
            # the events before the first turn)
            assert await netns.read_lines(procs["Ann"], out["Ann"], _a_move_from(20))
            assert servers.stdin is not None
            servers.stdin.write(b"stop-relay\n")
            await servers.stdin.drain()
            assert await netns.read_lines(procs["Ann"], out["Ann"], "The connection to a laptop elsewhere broke")
            servers.stdin.write(b"start-relay\n")
            await servers.stdin.drain()
            await netns.read_lines(procs["Ann"], out["Ann"])
            await bob_lines
            codes = {n: await procs[n].wait() for n in ("Ann", "Bob")}
    finally:
        await _end(procs, out)
    assert codes == {"Ann": 0, "Bob": 0}
    logs = _logs(out)
    assert logs["Ann"].game.tiles_left == 0
    assert any("The connection to a laptop elsewhere is back" in line for line in out["Ann"])
    assert not any("played by a" in line for line in out["Ann"] + out["Bob"])  # no seat taken over


def _a_move_from(seq: int) -> Callable[[str], bool]:
    """A predicate on a ``--moves`` line: a move at *seq* or later."""
    def holds(line: str) -> bool:
        words = line.split()
        return len(words) > 1 and words[0] == "move" and words[1].isdigit() and int(words[1]) >= seq
    return holds


async def _servers(homes: homes_module.Homes,
                   procs: dict[str, asyncio.subprocess.Process]) -> tuple[asyncio.subprocess.Process, str, str]:
    """The mailbox server and the relay in a process on the internet's server (``procs["servers"]``):
    the process (its stdin stops and starts the relay), the mailbox's URL and the relay's address."""
    assert homes.server is not None
    servers = procs["servers"] = await homes.spawn(homes.server, sys.executable, "-m", "tests.net.wormhole_servers",
                                                   homes.server.address)
    assert servers.stdout is not None and servers.stdin is not None
    mailbox, transit = (await servers.stdout.readline()).decode().split()
    return servers, mailbox, transit


async def _end(procs: dict[str, asyncio.subprocess.Process], out: dict[str, list[str]]) -> None:
    """Ends what still runs; prints each laptop's stderr and its last lines (for a failure)."""
    for name, proc in procs.items():
        if proc.returncode is None:
            proc.kill()
        await proc.wait()
        if proc.stderr is not None and name != "servers":
            err = (await proc.stderr.read()).decode(errors="replace")
            print(f"--- {name} stderr:\n{err[-2000:]}\n--- {name} stdout:\n" + "\n".join(out.get(name, [])[-30:]))


def _logs(out: dict[str, list[str]]) -> dict[str, Any]:
    """Each laptop's save (the ``saved to`` line it printed), read back; one game, undamaged."""
    saves = {n: Path(next(line for line in lines if line.startswith("saved to ")).removeprefix("saved to "))
             for n, lines in out.items()}
    logs = {n: load(path) for n, path in saves.items()}
    assert len({log.game.digest for log in logs.values()}) == 1 and all(log.damage is None for log in logs.values())
    return logs
