"""``carcnet serve`` (issue 15): the game in a browser through textual-serve, on loopback.

No headless browser here (none is installed on the machines this runs on), so the test does what the
page does: loads it over HTTP, checks that every asset it names is served by this machine (nothing
from the internet), loads those assets, then opens the app's websocket and reads the game's home
screen from it, as the page's terminal would draw it. Bounded by time everywhere; the server is
stopped at the end whatever happens.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys

import pytest

aiohttp = pytest.importorskip("aiohttp", reason="textual-serve's HTTP library is not installed")
pytest.importorskip("textual_serve", reason="textual-serve is not installed")

LIMIT = 60.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(tmp_path):
    port = _free_port()
    env = dict(os.environ, CARCNET_DATA_DIR=str(tmp_path / "games"), CARCNET_CONFIG_DIR=str(tmp_path / "config"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "carcnet", "serve", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, start_new_session=True,
    )
    try:
        yield port, proc
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


async def _until_listening(port: int, proc: subprocess.Popen) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + LIMIT
    while True:
        assert proc.poll() is None, proc.stdout.read().decode(errors="replace") if proc.stdout else "exited"
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            if loop.time() > deadline:
                raise AssertionError("carcnet serve did not listen") from None
            await asyncio.sleep(0.05)  # polling a port that is not open yet: no event to wait on
            continue
        writer.close()
        return


@pytest.mark.asyncio
async def test_serve_loads_the_page_from_this_machine_only_and_streams_the_game(server):
    port, proc = server
    await _until_listening(port, proc)
    base = f"http://127.0.0.1:{port}"
    timeout = aiohttp.ClientTimeout(total=LIMIT)
    async with aiohttp.ClientSession(timeout=timeout) as http:
        async with http.get(base + "/") as response:
            assert response.status == 200
            page = await response.text()
        assert "textual.js" in page and "<title>carcnet</title>" in page.replace("\n", "")
        # every asset the page loads comes from this server
        assets = re.findall(r'(?:src|href)="([^"]+)"', page) + re.findall(r'url\("([^"]+)"\)', page)
        assert assets
        for url in assets:
            assert not url.startswith(("http://", "https://", "//")) or url.startswith(base), url
            async with http.get(url if url.startswith("http") else base + url) as response:
                assert response.status == 200, url
        websocket_url = re.search(r'data-session-websocket-url="([^"]+)"', page)
        ws_url = websocket_url.group(1) if websocket_url else f"ws://127.0.0.1:{port}/ws"
        async with http.ws_connect(ws_url + "?width=100&height=30") as ws:
            screen = b""
            loop = asyncio.get_running_loop()
            deadline = loop.time() + LIMIT
            while b"New local game" not in screen:
                assert loop.time() < deadline, f"no home screen from the app: {screen[-500:]!r}"
                message = await ws.receive(timeout=deadline - loop.time())
                if message.type is aiohttp.WSMsgType.BINARY:
                    screen += message.data
                elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                    raise AssertionError(f"the app's websocket closed: {screen[-500:]!r}")
            assert b"Resume a saved game" in screen


def test_serve_listens_on_loopback_unless_told():
    from carcnet.cli import build_parser

    args = build_parser().parse_args(["serve"])
    assert args.host == "127.0.0.1" and args.port == 8000
    assert build_parser().parse_args(["serve", "--host", "0.0.0.0"]).host == "0.0.0.0"
