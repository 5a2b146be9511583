"""Two laptops in different languages play one table, a spectator in a third watches it: each reads
its own language, the wire and the saves hold none, and the three logs are the same bytes.

Separate processes on loopback without mDNS (``carcnet host --headless``, ``carcnet bot --join``,
``carcnet spectate --headless``), each with its own ``LANGUAGE``, as on three laptops.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from carcnet.i18n import LANGUAGES, _, set_language
from carcnet.log import load

SECONDS = 90.0
HOST, PLAYER, SPECTATOR = "de", "fr", "pl"

pytestmark = pytest.mark.skipif(not {HOST, PLAYER, SPECTATOR} <= set(LANGUAGES),
                                reason="German, French and Polish are not all offered yet")


def said(code: str, message: str) -> tuple[str, str]:
    """What a laptop in *code* prints for *message* (one ``{placeholder}``): the text before the
    placeholder and after it."""
    set_language(code)
    try:
        before, __, after = _(message).partition("{")
        return before, after.partition("}")[2]
    finally:
        set_language("en")


async def _spawn(code: str, *args: str) -> asyncio.subprocess.Process:
    env = dict(os.environ, LANGUAGE=code)
    return await asyncio.create_subprocess_exec(sys.executable, "-m", "carcnet", *args, env=env,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)


async def _read_until(proc: asyncio.subprocess.Process, shape: tuple[str, str], seen: list[str]) -> str:
    """The value of the first line of *proc* of *shape* (see :func:`said`)."""
    assert proc.stdout is not None
    while True:
        line = (await proc.stdout.readline()).decode()
        assert line, f"the process ended before {shape!r}: {seen}"
        seen.append(line.rstrip("\n"))
        try:
            return _value(seen[-1:], shape)
        except StopIteration:
            continue


def _value(lines: list[str], shape: tuple[str, str]) -> str:
    before, after = shape
    line = next(line for line in lines if line.startswith(before) and line.endswith(after))
    return line[len(before):len(line) - len(after)]


@pytest.mark.asyncio
async def test_a_german_host_a_french_player_and_a_polish_spectator_play_one_game(tmp_path: Path) -> None:
    common = ["--no-mdns", "--timeout", str(SECONDS)]
    procs: list[asyncio.subprocess.Process] = []
    try:
        async with asyncio.timeout(SECONDS + 10):
            host = await _spawn(HOST, "host", "--headless", "--seats", "random,open", "--listen", "127.0.0.1",
                                "--data-dir", str(tmp_path / "de"), *common)
            procs.append(host)
            seen: list[str] = []
            game = await _read_until(host, said(HOST, "game id {game}"), seen)
            port = await _read_until(host, said(HOST, "listening on port {port}"), seen)
            address = f"127.0.0.1:{port}"
            procs.append(await _spawn(SPECTATOR, "spectate", address, "--game", game, "--headless",
                                      "--data-dir", str(tmp_path / "pl"), *common))
            procs.append(await _spawn(PLAYER, "bot", "--join", address, "--game", game, "--bot", "random",
                                      "--listen", "127.0.0.1", "--data-dir", str(tmp_path / "fr"), *common))
            results = [await p.communicate() for p in procs]
    finally:
        for p in procs:
            if p.returncode is None:
                p.kill()
                await p.wait()
    assert [p.returncode for p in procs] == [0, 0, 0], [err.decode()[-2000:] for _out, err in results]
    outs = [out.decode().splitlines() for out, _err in results]
    outs[0] = seen + outs[0]
    # each laptop said where it saved the game in its own language
    paths = [Path(_value(out, said(code, "saved to {path}")))
             for out, code in zip(outs, (HOST, SPECTATOR, PLAYER), strict=True)]
    assert len({said(code, "saved to {path}") for code in (HOST, SPECTATOR, PLAYER, "en")}) == 4
    assert len({path.read_bytes() for path in paths}) == 1
    loaded = load(paths[0])
    assert loaded.header.game == game and loaded.game.tiles_left == 0
