"""End to end on separate network hosts (issue 5): a host, two bot players and a spectator, each a
``carcnet`` process in its own network namespace on one bridge, find each other by real multicast
mDNS (nobody is given an address), sit down, agree on the seed, play a whole game, and end with
byte-identical logs. The namespaces are made by the test (:mod:`tests.net.netns`) with unique names
and removed afterwards, also when the test fails. Needs root; skipped elsewhere with the reason."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

import pytest

from carcnet.log import load

from . import netns

#: The whole game may take this long (a game between bots takes a few seconds; discovery some more).
GAME_SECONDS = 120.0


@pytest.fixture
def lan4():
    yield from netns.lan_for_test(4)


async def _lines(proc: asyncio.subprocess.Process, name: str, out: list[str], until: str | None = None) -> None:
    """Reads *proc*'s stdout into *out* until the line starting with *until* (or the end)."""
    await netns.read_lines(proc, out, until)


@pytest.mark.asyncio
async def test_three_players_and_a_spectator_on_four_hosts_play_a_whole_game(lan4, tmp_path: Path) -> None:
    host_ns, bob_ns, cleo_ns, eve_ns = lan4.hosts
    started = time.monotonic()

    def argv(host: netns.Host, *args: str) -> list[str]:
        return [sys.executable, "-m", "carcnet", *args, "--data-dir", str(tmp_path / host.ns),
                "--interface", host.address, "--timeout", str(GAME_SECONDS)]

    outputs: dict[str, list[str]] = {name: [] for name in ("host", "bob", "cleo", "eve")}
    procs: dict[str, asyncio.subprocess.Process] = {}
    try:
        async with asyncio.timeout(GAME_SECONDS + 30):
            procs["host"] = await lan4.spawn(
                host_ns, *argv(host_ns, "host", "--headless", "--seats", "greedy,open,open", "--name", "Ann",
                               "--game-name", "Four hosts", "--river", "--abbot", "--listen", host_ns.address)
            )
            await _lines(procs["host"], "host", outputs["host"], until="listening on port")
            # `carcnet lan` on another host lists the table (found by multicast, in the lobby).
            listing = await lan4.spawn(eve_ns, sys.executable, "-m", "carcnet", "lan", "--json", "--wait", "4",
                                       "--interface", eve_ns.address)
            out, err = await listing.communicate()
            assert listing.returncode == 0, err.decode()[-2000:]
            games = json.loads(out)
            assert [(g["name"], g["phase"], g["seats"], g["peer"], g["addresses"]) for g in games] == [
                ("Four hosts", "lobby", [1, 3], "Ann", [host_ns.address])
            ], games
            for name, ns in (("bob", bob_ns), ("cleo", cleo_ns)):
                procs[name] = await lan4.spawn(
                    ns, *argv(ns, "bot", "--join", "--name", name.capitalize(), "--bot", "random",
                              "--listen", ns.address, "--wait", "30")
                )
            procs["eve"] = await lan4.spawn(
                eve_ns, *argv(eve_ns, "spectate", "--headless", "--name", "Eve", "--wait", "30")
            )
            readers = [asyncio.ensure_future(_lines(p, n, outputs[n])) for n, p in procs.items()]
            await asyncio.gather(*readers)
            codes = {n: await p.wait() for n, p in procs.items()}
    finally:
        await lan4.stop_processes()
        for name, proc in procs.items():
            if proc.stderr is not None:
                err = (await asyncio.wait_for(proc.stderr.read(), 5)).decode(errors="replace")
                print(f"--- {name} stderr:\n{err[-3000:]}")
            print(f"--- {name} stdout:\n" + "\n".join(outputs[name][:12] + ["…"] + outputs[name][-10:]))
    print(f"the game on four hosts took {time.monotonic() - started:.1f} s")
    assert codes == {"host": 0, "bob": 0, "cleo": 0, "eve": 0}, codes
    saved = {}
    for name, out in outputs.items():
        paths = [line.removeprefix("saved to ") for line in out if line.startswith("saved to ")]
        assert len(paths) == 1, (name, out[-5:])
        saved[name] = Path(paths[0])
    data = {name: path.read_bytes() for name, path in saved.items()}
    assert len(set(data.values())) == 1, "every host saved the same log, byte for byte"
    loaded = load(saved["eve"])
    assert loaded.damage is None and loaded.header.signed and loaded.header.draws is not None  # table draws (wire.md §5.7)
    assert loaded.game.tiles_left == 0 and len(loaded.header.seats) == 3
    assert loaded.header.options.river and loaded.header.options.abbot
    digests = {line for out in outputs.values() for line in out if line.startswith("digest ")}
    assert digests == {f"digest {loaded.game.digest.hex()}"}
    # The players found each other by mDNS: nobody was given an address, yet Bob and Cleo met directly.
    assert any(line == "Cleo connected" for line in outputs["bob"]) or any(
        line == "Bob connected" for line in outputs["cleo"]
    ), outputs["bob"]


@pytest.mark.asyncio
async def test_kill_9_of_the_host_running_a_bot_seat_and_the_others_finish(lan4, tmp_path: Path) -> None:
    """On separate hosts: the host, which runs seat 0's bot, is killed (SIGKILL) mid-game; its seat is
    shown away and taken over by the remaining player whose seat comes first in the tie order
    (``--takeover 2``: 2 s away at its turn), the spectator follows through another player if it
    watched through the host, and everyone else ends the game with the same log, nobody acting."""
    from carcnet.engine import HandOver

    host_ns, bob_ns, cleo_ns, eve_ns = lan4.hosts

    def argv(host: netns.Host, *args: str) -> list[str]:
        return [sys.executable, "-m", "carcnet", *args, "--data-dir", str(tmp_path / host.ns),
                "--interface", host.address, "--timeout", str(GAME_SECONDS), "--takeover", "2"]

    outputs: dict[str, list[str]] = {name: [] for name in ("host", "bob", "cleo", "eve")}
    procs: dict[str, asyncio.subprocess.Process] = {}
    try:
        async with asyncio.timeout(GAME_SECONDS + 30):
            procs["host"] = await lan4.spawn(
                host_ns, *argv(host_ns, "host", "--headless", "--seats", "greedy,open,open", "--name", "Ann",
                               "--listen", host_ns.address)
            )
            await _lines(procs["host"], "host", outputs["host"], until="listening on port")
            for name, ns in (("bob", bob_ns), ("cleo", cleo_ns)):
                procs[name] = await lan4.spawn(
                    ns, *argv(ns, "bot", "--join", "--name", name.capitalize(), "--bot", "random",
                              "--listen", ns.address, "--wait", "30")
                )
            procs["eve"] = await lan4.spawn(eve_ns, *argv(eve_ns, "spectate", "--headless", "--name", "Eve",
                                                          "--wait", "30"))
            await _lines(procs["host"], "host", outputs["host"], until="move 20:")
            procs["host"].kill()  # kill -9: no bye, no goodbye
            await procs["host"].wait()
            others = {n: p for n, p in procs.items() if n != "host"}
            await asyncio.gather(*(_lines(p, n, outputs[n]) for n, p in others.items()))
            codes = {n: await p.wait() for n, p in others.items()}
    finally:
        await lan4.stop_processes()
        for name, proc in procs.items():
            if proc.stderr is not None:
                err = (await asyncio.wait_for(proc.stderr.read(), 5)).decode(errors="replace")
                print(f"--- {name} stderr:\n{err[-3000:]}")
            print(f"--- {name} stdout:\n" + "\n".join(outputs[name][-14:]))
    assert codes == {"bob": 0, "cleo": 0, "eve": 0}, codes
    saved = {name: Path(next(line for line in outputs[name] if line.startswith("saved to ")).removeprefix("saved to "))
             for name in ("bob", "cleo", "eve")}
    assert len({path.read_bytes() for path in saved.values()}) == 1, "the others saved the same log"
    loaded = load(saved["eve"])
    assert loaded.damage is None and loaded.game.tiles_left == 0
    handovers = [e.move for e in loaded.entries if isinstance(e.move, HandOver)]
    assert len(handovers) == 1 and handovers[0].seat == 0 and handovers[0].bot == "greedy"
