"""The invite codes of the ``carcnet`` command, each laptop a process of its own, and magic-wormhole's
real mailbox server and transit relay in another (``python -m tests.net.wormhole_servers``), all on
loopback without mDNS: ``carcnet host --headless --invite`` prints a code, ``carcnet bot --join CODE``
and ``carcnet spectate --headless CODE`` sit down with the codes it prints in turn, the game is
played to the end with one log; a wrong code is refused in one line. Skipped, saying why, without
the ``internet`` extra."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from . import wormhole_servers
from .test_cli_lan import _read_until, _spawn, kill_all

pytestmark = pytest.mark.asyncio

SECONDS = 90.0


@contextlib.asynccontextmanager
async def _servers() -> AsyncIterator[list[str]]:
    """The servers' process; yields ``["--relay", URL, "--transit", ENDPOINT]``."""
    wormhole_servers.need_internet()
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.net.wormhole_servers", stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, cwd=Path(__file__).parents[2])
    try:
        assert proc.stdout is not None
        mailbox, transit = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode().split()
        yield ["--relay", mailbox, "--transit", transit]
    finally:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()


async def test_a_host_hands_out_codes_and_a_bot_and_a_spectator_sit_down_with_them(tmp_path: Path) -> None:
    common = ["--no-mdns", "--timeout", str(SECONDS), "--listen", "127.0.0.1"]
    procs: list[asyncio.subprocess.Process] = []
    async with _servers() as servers:
        try:
            async with asyncio.timeout(SECONDS + 10):
                # three seats: the game starts once the second bot sat down, after the spectator
                host = await _spawn("host", "--headless", "--invite", "--seats", "random,open,open",
                                    "--data-dir", str(tmp_path / "a"), *servers, *common)
                procs.append(host)
                seen: list[str] = []
                codes: list[str] = []
                for name, args in (("b", ["bot", "--join"]), ("s", ["spectate", "--headless"]),
                                   ("c", ["bot", "--join"])):
                    codes.append((await _read_until(host, "Invite code: ", seen)).split()[2])
                    listen = common if name != "s" else common[:-2]
                    procs.append(await _spawn(*args, codes[-1], "--data-dir", str(tmp_path / name), *servers, *listen))
                assert len(set(codes)) == 3
                results = [await p.communicate() for p in procs]
        finally:
            await kill_all(procs)
    assert [p.returncode for p in procs] == [0, 0, 0, 0], [err.decode()[-2000:] for _out, err in results]
    outs = [out.decode().splitlines() for out, _err in results]
    outs[0] = seen + outs[0]
    paths = [Path(next(line for line in out if line.startswith("saved to ")).removeprefix("saved to ")) for out in outs]
    assert len({p.read_bytes() for p in paths}) == 1


async def test_a_wrong_code_is_refused_in_one_line(tmp_path: Path) -> None:
    async with _servers() as servers:
        host = await _spawn("host", "--headless", "--invite", "--seats", "random,open", "--no-mdns",
                            "--listen", "127.0.0.1", "--timeout", "30", "--data-dir", str(tmp_path / "a"), *servers)
        try:
            async with asyncio.timeout(60):
                seen: list[str] = []
                code = (await _read_until(host, "Invite code: ", seen)).split()[2]
                wrong = code.split("-")[0] + "-wrong-guess"
                bot = await _spawn("bot", "--join", wrong, "--no-mdns", "--data-dir", str(tmp_path / "b"), *servers)
                out, err = await bot.communicate()
                assert bot.returncode != 0
                lines = [line for line in err.decode().splitlines() if line.strip()]
                assert len(lines) == 1 and "is wrong" in lines[0] and "Traceback" not in err.decode(), err.decode()
                again = (await _read_until(host, "Invite code: ", seen)).split()[2]
                assert again != code and any("wrong invite code" in line for line in seen)
        finally:
            host.kill()
            await host.wait()


_WITHOUT_EXTRA = ("import sys; sys.modules['wormhole'] = None  # as if the internet extra were not installed\n"
                  "from carcnet.cli import main; sys.exit(main(sys.argv[1:]))")


@pytest.mark.parametrize("args", [["host", "--headless", "--invite"], ["bot", "--join", "7-crossover-clockwork"],
                                  ["spectate", "--headless", "7-crossover-clockwork"]])
async def test_without_the_internet_extra_a_code_says_how_to_get_it_in_one_line(tmp_path: Path, args: list[str]) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _WITHOUT_EXTRA, *args, "--no-mdns", "--data-dir", str(tmp_path),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    _out, err = await asyncio.wait_for(proc.communicate(), 60)
    lines = [line for line in err.decode().splitlines() if line.strip()]
    assert proc.returncode != 0 and len(lines) == 1, err.decode()
    assert "pip install 'carcnet[internet]'" in lines[0]
