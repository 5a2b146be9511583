"""Issue 13 item 6 on separate network hosts: a stranger floods the LAN with forged mDNS records of
open tables (more than the browser tracks at once), all pointing at a machine where nothing answers
with their keys. A bot that joins by mDNS, given no address, still finds the real table (each record
is confirmed by a handshake, discovery.md §4), sits down, and the game ends with one log. Needs root
for the network namespaces; skipped elsewhere with the reason."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest

from . import netns

GAME_SECONDS = 120.0
FORGED = 300  # more than the browser's MAX_GAMES (256)

#: The stranger: registers FORGED services of open lobbies, each with a fresh game id and key,
#: pointing at its own address and a port where nothing listens; prints "ready" and waits.
FLOOD = r"""
import asyncio, secrets, sys
from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf
from carcnet.net.adverts import GameAd
from carcnet.net.discovery import SERVICE_TYPE

async def main(address, count):
    zc = AsyncZeroconf(interfaces=[address], ip_version=IPVersion.V4Only)
    infos = []
    for i in range(count):
        ad = GameAd(game=secrets.token_hex(16), name=f"Forged {i}", phase="lobby", seats_taken=1,
                    seats_total=2, peer=f"Forger {i}", role="host", key=secrets.token_bytes(32), port=9)
        infos.append(AsyncServiceInfo(SERVICE_TYPE, f"Forger {i}.{SERVICE_TYPE}", port=9,
                                      properties=ad.to_txt(), server="forger.local.", parsed_addresses=[address]))
    tasks = await asyncio.gather(*(zc.async_register_service(info, cooperating_responders=True) for info in infos))
    await asyncio.gather(*tasks)
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    await zc.async_close()

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


@pytest.fixture
def lan3():
    yield from netns.lan_for_test(3)


@pytest.mark.asyncio
async def test_a_flood_of_forged_tables_does_not_keep_a_bot_from_the_real_one(lan3, tmp_path: Path) -> None:
    host_ns, bob_ns, mallory_ns = lan3.hosts
    started = time.monotonic()

    def argv(host: netns.Host, *args: str) -> list[str]:
        return [sys.executable, "-m", "carcnet", *args, "--data-dir", str(tmp_path / host.ns),
                "--interface", host.address, "--timeout", str(GAME_SECONDS)]

    outputs: dict[str, list[str]] = {"host": [], "bob": [], "flood": []}
    procs: dict[str, asyncio.subprocess.Process] = {}
    try:
        async with asyncio.timeout(GAME_SECONDS + 30):
            procs["flood"] = await lan3.spawn(mallory_ns, sys.executable, "-c", FLOOD, mallory_ns.address,
                                              str(FORGED))
            assert await netns.read_lines(procs["flood"], outputs["flood"], until="ready") == "ready"
            procs["host"] = await lan3.spawn(
                host_ns, *argv(host_ns, "host", "--headless", "--seats", "greedy,open", "--name", "Ann",
                               "--game-name", "The real table", "--listen", host_ns.address)
            )
            await netns.read_lines(procs["host"], outputs["host"], until="listening on port")
            procs["bob"] = await lan3.spawn(
                bob_ns, *argv(bob_ns, "bot", "--join", "--name", "Bob", "--bot", "random",
                              "--listen", bob_ns.address, "--wait", "60")
            )
            readers = [asyncio.ensure_future(netns.read_lines(procs[n], outputs[n])) for n in ("host", "bob")]
            await asyncio.gather(*readers)
            codes = {n: await procs[n].wait() for n in ("host", "bob")}
    finally:
        await lan3.stop_processes()
        for name, proc in procs.items():
            if proc.stderr is not None and name != "flood":
                err = (await asyncio.wait_for(proc.stderr.read(), 5)).decode(errors="replace")
                print(f"--- {name} stderr:\n{err[-3000:]}")
            print(f"--- {name} stdout:\n" + "\n".join(outputs[name][:15] + ["…"] + outputs[name][-5:]))
    print(f"the flood test took {time.monotonic() - started:.1f} s")
    assert codes == {"host": 0, "bob": 0}, codes
    assert any(line.startswith("Found 'The real table'") for line in outputs["bob"]), outputs["bob"][:10]
    saved = [next(line.removeprefix("saved to ") for line in outputs[n] if line.startswith("saved to "))
             for n in ("host", "bob")]
    assert Path(saved[0]).read_bytes() == Path(saved[1]).read_bytes()
