"""The app in a real terminal: started in tmux, played with keys, read back from the screen.

Skipped where tmux is missing. Waits poll the screen for an expected text, bounded in time.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import uuid

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Tmux:
    def __init__(self, name: str) -> None:
        self.name = name

    def run(self, *args: str) -> str:
        out = subprocess.run(["tmux", *args], capture_output=True, text=True, timeout=20, check=True)
        return out.stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", self.name)

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", self.name, *keys)

    def wait_for(self, text: str, timeout: float = 20.0) -> str:
        """Polls the screen until *text* shows (or fails after *timeout* seconds)."""
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared; the screen was:\n{screen}")


@pytest.fixture
def tmux(tmp_path):
    name = f"carcnet-test-{uuid.uuid4().hex[:8]}"
    # exactly what the README's first command runs: `carcnet` with no arguments
    command = f"env CARCNET_DATA_DIR={tmp_path} {sys.executable} -m carcnet"
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", name, "-x", "100", "-y", "30", command],
        check=True,
        timeout=20,
        env={"TERM": "xterm-256color", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    yield Tmux(name)
    subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True, timeout=20)


def test_start_a_game_place_a_tile_and_deploy_in_a_real_terminal(tmux, tmp_path):
    tmux.wait_for("New local game")
    tmux.keys("n")
    tmux.wait_for("New local game: seat 1 plays first")
    tmux.keys("C-s")
    screen = tmux.wait_for("Tab next spot")
    assert "Red draws" in screen and "70 tiles left" in screen
    tmux.keys("Tab")
    tmux.keys("Enter")
    screen = tmux.wait_for("deploys a meeple")
    assert "Red placed" not in screen  # tried, not played: the turn waits for confirmation
    tmux.keys("1")
    screen = tmux.wait_for("Enter confirms")
    assert "Red placed" not in screen
    tmux.keys("Enter")
    screen = tmux.wait_for("Blue placed")  # the bot answered
    assert "Red deployed" in screen
    tmux.keys("q")
    tmux.wait_for("Resume a saved game")
    assert len(list((tmp_path / "games").glob("*.carclog"))) == 1
    tmux.keys("q")


@pytest.mark.parametrize("signum", ["TERM", "HUP"])
def test_the_interface_quits_cleanly_on_sigterm_and_sighup(tmp_path, signum):
    """issue 12 item 6: the signal quits as ``q`` does: the terminal is given back, one line says why,
    and the exit status is 128 + the signal."""
    import signal

    name = f"carcnet-test-{uuid.uuid4().hex[:8]}"
    command = f"env CARCNET_DATA_DIR={tmp_path} {sys.executable} -m carcnet; echo exit status $?; sleep 60"
    subprocess.run(["tmux", "new-session", "-d", "-s", name, "-x", "100", "-y", "30", command], check=True,
                   timeout=20, env={"TERM": "xterm-256color", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    tmux = Tmux(name)
    try:
        tmux.wait_for("New local game")
        shell = tmux.run("display-message", "-p", "-t", name, "#{pane_pid}").strip()
        children = subprocess.run(["pgrep", "-P", shell], capture_output=True, text=True, timeout=20, check=True)
        (pid,) = children.stdout.split()
        subprocess.run(["kill", f"-{signum}", pid], check=True, timeout=20)
        screen = tmux.wait_for("exit status")
        assert f"carcnet: stopped by SIG{signum}: left the interface; every game is saved" in screen
        assert f"exit status {128 + getattr(signal, f'SIG{signum}')}" in screen and "Traceback" not in screen
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True, timeout=20, check=False)
