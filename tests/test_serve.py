"""``carcnet serve`` (issue 15): the game in a browser through textual-serve, on loopback.

No headless browser here (none is installed on the machines this runs on), so the test does what the
page does: loads it over HTTP, checks that every asset it names is served by this machine (nothing
from the internet), loads those assets, then opens the app's websocket and reads the game's home
screen from it, as the page's terminal would draw it. Bounded by time everywhere; the server is
stopped at the end whatever happens.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import subprocess
import sys

import pytest

from .ports import free_port

aiohttp = pytest.importorskip("aiohttp", reason="textual-serve's HTTP library is not installed")
pytest.importorskip("textual_serve", reason="textual-serve is not installed")

LIMIT = 60.0


@pytest.fixture
def serving(tmp_path):
    """Starts ``carcnet serve --port <free port>`` with more arguments: ``serving(*args)`` gives
    (port, process); every server is stopped at the end."""
    started = []

    def start(*args: str) -> tuple[int, subprocess.Popen]:
        port = free_port()
        env = dict(os.environ, CARCNET_DATA_DIR=str(tmp_path / "games"))
        proc = subprocess.Popen(
            [sys.executable, "-m", "carcnet", "serve", "--port", str(port), *args],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, start_new_session=True,
        )
        started.append(proc)
        return port, proc

    yield start
    for proc in started:
        with contextlib.suppress(ProcessLookupError):  # none left of the group: it stopped by itself
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


@pytest.fixture
def server(serving):
    return serving()


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


@pytest.mark.asyncio
async def test_serve_on_every_interface_names_addresses_that_open_and_the_page_follows_the_browser(serving):
    """``--host 0.0.0.0``: the user is told http://localhost:PORT (and this machine's addresses), not
    "http://0.0.0.0:PORT", and the page sends its browser to the address it was opened at."""
    port, proc = serving("--host", "0.0.0.0")
    await _until_listening(port, proc)
    said = proc.stdout.readline().decode()  # printed before the server listened
    assert f"open http://localhost:{port} " in said and "0.0.0.0:" not in said, said
    async with (aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=LIMIT)) as http,
                http.get(f"http://127.0.0.1:{port}/") as response):
        page = await response.text()
    assert f'data-session-websocket-url="ws://127.0.0.1:{port}/ws"' in page
    assert "0.0.0.0" not in page


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--host", "256.1.1.1"], "--host '256.1.1.1' is neither an address nor a name"),
        (["--host", "203.0.113.77"], "--host '203.0.113.77' is not an address of this machine"),
        (["--host", "h" * 5000], "'… (5000 characters) is neither an address nor a name"),
        (["--port", "70000"], "--port must be 1 to 65535"),
    ],
)
def test_serve_refuses_an_address_it_cannot_listen_on_in_one_line(args, words, capsys):
    from carcnet.cli import main

    assert main(["serve", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("carcnet: ") and words in err and err.count("\n") == 1 and len(err) < 300, err


def test_serve_on_a_port_in_use_says_so_in_one_line(capsys):
    from carcnet.cli import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err == f"carcnet: port {port} is in use on 127.0.0.1: choose another with --port\n"


def _alive(pid: str) -> bool:
    """Whether process *pid* runs (a zombie, ended and waiting for its parent, does not)."""
    out = subprocess.run(["ps", "-o", "stat=", "-p", pid], capture_output=True, text=True, timeout=LIMIT, check=False)
    return bool(out.stdout.strip()) and not out.stdout.strip().startswith("Z")


@pytest.mark.asyncio
async def test_serve_stops_on_sighup_with_every_game_it_started(server):
    """The terminal of ``carcnet serve`` closes (SIGHUP): the server stops as on SIGTERM, and the game
    process of each open page ends with it (none is left behind)."""
    port, proc = server
    await _until_listening(port, proc)
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=LIMIT)) as http:
        async with http.ws_connect(f"ws://127.0.0.1:{port}/ws?width=100&height=30") as ws:
            screen = b""
            loop = asyncio.get_running_loop()
            deadline = loop.time() + LIMIT
            while b"New local game" not in screen:
                assert loop.time() < deadline, f"no home screen from the app: {screen[-500:]!r}"
                message = await ws.receive(timeout=deadline - loop.time())
                assert message.type is aiohttp.WSMsgType.BINARY, message
                screen += message.data
            children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True,
                                      timeout=LIMIT, check=False).stdout.split()
            assert children  # the game of the page
            proc.send_signal(signal.SIGHUP)
            for _ in range(int(LIMIT / 0.05)):  # bounded; the page stays open, and answers the close
                if proc.poll() is not None:
                    break
                with contextlib.suppress(TimeoutError):
                    if (await ws.receive(timeout=0.05)).type is not aiohttp.WSMsgType.BINARY:
                        await asyncio.sleep(0.05)  # closed: polling for the process's end
            assert proc.poll() is not None, "carcnet serve is still running after SIGHUP"
    for _ in range(200):  # bounded: each look asks the system once
        alive = [pid for pid in children if _alive(pid)]
        if not alive:
            break
        await asyncio.sleep(0.05)  # polling: nothing tells this test that another process ended
    assert not alive, f"game processes left after serve stopped: {alive}"
