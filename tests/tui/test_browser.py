"""``carcnet serve`` in a real browser: the keys reach the game without a click first.

A headless Chromium (Debian's ``chromium`` or ``chromium-headless-shell``), driven over the DevTools
protocol with aiohttp (no other dependency), opens the served page and types as a person would,
without clicking: Tab, ``n`` (new game), Ctrl+S (start). The game then starts, which the save it
writes shows. Before the page focused its terminal the keys went to the page's body and nothing
happened. Skipped, with the reason, where no Chromium is installed; the page's script is checked
without a browser as well.

Everything runs on loopback, in folders of the test's own (HOME, XDG folders, carcnet's data and
configuration); every wait is bounded, and the server and the browser are stopped at the end.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from carcnet.cli.serve import TEMPLATES

from ..ports import free_port

LIMIT = 60.0
BROWSERS = ("chromium", "chromium-headless-shell", "chromium-browser", "google-chrome", "headless_shell")


def _browser() -> str | None:
    return next((path for name in BROWSERS if (path := shutil.which(name)) is not None), None)


def _isolated_env(root: Path) -> dict[str, str]:
    """The environment of a process the test starts: every folder of the user's under *root*."""
    env = dict(os.environ)
    for name, sub in (("HOME", "home"), ("XDG_CONFIG_HOME", "xdg-config"), ("XDG_DATA_HOME", "xdg-data"),
                      ("XDG_CACHE_HOME", "xdg-cache"), ("XDG_STATE_HOME", "xdg-state"),
                      ("CARCNET_CONFIG_DIR", "config"), ("CARCNET_DATA_DIR", "games")):
        (root / sub).mkdir(parents=True, exist_ok=True)
        env[name] = str(root / sub)
    return env


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)


def test_the_page_focuses_the_terminal_and_keeps_tab_on_it():
    """The served page's own script (no browser needed): it focuses the terminal's input on load
    and when the page gets the focus back, and a Tab pressed elsewhere does not move the focus."""
    page = (TEMPLATES / "app_index.html").read_text(encoding="utf-8")
    scripts = "\n".join(re.findall(r"<script>(.*?)</script>", page, re.DOTALL))
    assert ".xterm-helper-textarea" in scripts
    assert re.search(r"\.focus\(", scripts)
    assert 'addEventListener("load"' in scripts and 'addEventListener("focus"' in scripts
    assert re.search(r'event\.key === "Tab"[^}]*preventDefault', scripts, re.DOTALL)
    assert "window.onload" not in scripts  # textual.js's own load handler (it makes the terminal) stays


class _DevTools:
    """Just enough of the DevTools protocol: commands on one page, in order."""

    def __init__(self, ws: object) -> None:
        self.ws = ws
        self.ids = itertools.count(1)

    async def call(self, method: str, **params: object) -> dict:
        number = next(self.ids)
        await self.ws.send_str(json.dumps({"id": number, "method": method, "params": params}))  # type: ignore[attr-defined]
        for _ in range(10_000):  # events may come before the answer
            message = json.loads(await self.ws.receive_str(timeout=LIMIT))  # type: ignore[attr-defined]
            if message.get("id") == number:
                assert "error" not in message, message
                return message.get("result", {})
        raise AssertionError(f"no answer to {method}")

    async def evaluate(self, expression: str) -> object:
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    async def key(self, key: str, code: str, vk: int, *, text: str = "", modifiers: int = 0) -> None:
        """One key pressed and released, as the keyboard sends it to the focused element."""
        down = "keyDown" if text else "rawKeyDown"
        await self.call("Input.dispatchKeyEvent", type=down, key=key, code=code, windowsVirtualKeyCode=vk,
                        text=text, unmodifiedText=text, modifiers=modifiers)
        await self.call("Input.dispatchKeyEvent", type="keyUp", key=key, code=code, windowsVirtualKeyCode=vk,
                        modifiers=modifiers)


async def _until(condition, what: str, *, tries: int = 600) -> None:
    """Polls *condition* (an async callable) until it is true, *tries* times at most (a page's state
    has no event to wait on from here)."""
    for _ in range(tries):
        if await condition():
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"gave up waiting: {what}")


@pytest.fixture
def chromium(tmp_path):
    """A headless Chromium on loopback: its DevTools port (skips where none is installed)."""
    browser = _browser()
    if browser is None:
        pytest.skip("no Chromium installed (apt-get install chromium-headless-shell runs this test)")
    chrome = subprocess.Popen(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--remote-debugging-port=0",
         f"--user-data-dir={tmp_path / 'browser'}", "--window-size=1200,800", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_isolated_env(tmp_path / "chromium"),
        start_new_session=True,
    )
    try:
        devtools_port = None
        assert chrome.stderr is not None
        for _ in range(200):  # Chromium names its DevTools address on a line of its own
            line = chrome.stderr.readline().decode(errors="replace")
            if not line:
                break
            found = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
            if found:
                devtools_port = int(found.group(1))
                break
        assert devtools_port is not None, "Chromium did not open its DevTools port"
        yield devtools_port
    finally:
        _stop(chrome)


@pytest.fixture
def served(tmp_path):
    """``carcnet serve`` on loopback, every folder of its own: its port and its games folder."""
    env = _isolated_env(tmp_path / "served")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "carcnet", "serve", "--port", str(port), "--bot-delay", "0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, start_new_session=True,
    )
    try:
        yield port, Path(env["CARCNET_DATA_DIR"]), server
    finally:
        _stop(server)


@pytest.mark.asyncio
async def test_keys_reach_the_game_without_a_click_even_after_a_tab(chromium, served):
    aiohttp = pytest.importorskip("aiohttp", reason="textual-serve's HTTP library is not installed")
    pytest.importorskip("textual_serve", reason="textual-serve is not installed")
    devtools_port = chromium
    port, games, server = served
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=LIMIT)) as http:

        async def listening() -> bool:
            assert server.poll() is None, "carcnet serve exited"
            try:
                async with http.get(f"http://127.0.0.1:{port}/") as response:
                    return response.status == 200
            except aiohttp.ClientError:
                return False

        await _until(listening, "carcnet serve to listen")
        async with http.get(f"http://127.0.0.1:{devtools_port}/json/list") as response:
            targets = await response.json()
        page = next(t for t in targets if t.get("type") == "page")
        async with http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0) as ws:
            tools = _DevTools(ws)
            await tools.call("Page.navigate", url=f"http://127.0.0.1:{port}/")

            async def drawn() -> bool:
                return bool(await tools.evaluate("document.body.classList.contains('-first-byte')"))

            await _until(drawn, "the game's first screen in the page")

            async def focused() -> bool:
                return bool(await tools.evaluate(
                    "!!document.activeElement && document.activeElement.classList.contains('xterm-helper-textarea')"
                ))

            await _until(focused, "the terminal to have the focus, with no click", tries=100)
            await tools.key("Tab", "Tab", 9)
            assert await focused(), "a Tab took the focus off the game"
            await tools.key("n", "KeyN", 78, text="n")

            async def started() -> bool:
                if any(games.rglob("*.carclog")):
                    return True
                await tools.key("s", "KeyS", 83, modifiers=2)  # Ctrl+S, again until the form is up
                return False

            await _until(started, "a game started by n then Ctrl+S (its save)", tries=100)
