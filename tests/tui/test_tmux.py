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


def _last_line(screen: str) -> str:
    """The footer: the last line with anything on it."""
    return [line for line in screen.splitlines() if line.strip()][-1]


@pytest.fixture
def terminal(tmp_path):
    """Starts the app in a new tmux session of a given size: ``terminal(width, height)``."""
    names = []

    def start(width: int = 100, height: int = 30) -> Tmux:
        name = f"carcnet-test-{uuid.uuid4().hex[:8]}"
        names.append(name)
        # exactly what the README's first command runs: `carcnet` with no arguments
        command = f"env CARCNET_DATA_DIR={tmp_path} {sys.executable} -m carcnet"
        subprocess.run(
            ["tmux", "new-session", "-d", "-s", name, "-x", str(width), "-y", str(height), command],
            check=True,
            timeout=20,
            env={"TERM": "xterm-256color", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
        )
        return Tmux(name)

    yield start
    for name in names:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True, timeout=20)


@pytest.fixture
def tmux(terminal):
    return terminal(100, 30)


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


def test_at_80x24_a_turn_is_played_and_every_key_is_in_the_footer(terminal, tmp_path):
    """Issue 15 item 7: at 80 columns the footer dropped ? Help and q Menu."""
    tmux = terminal(80, 24)
    tmux.wait_for("New local game")
    home = _last_line(tmux.wait_for("o Settings"))  # the menu's every key fits too
    assert "? Help" in home and "q Quit" in home
    tmux.keys("n")
    tmux.wait_for("New local game: seat 1 plays first")
    tmux.keys("C-s")
    tmux.wait_for("Tab next spot")
    screen = tmux.wait_for("q Menu")
    footer = _last_line(screen)
    assert "? Help" in footer and "q Menu" in footer and "Place" in footer
    tmux.keys("Tab")
    tmux.keys("Enter")
    tmux.wait_for("deploys a meeple")
    screen = tmux.wait_for("Undo")
    footer = _last_line(screen)
    assert "? Help" in footer and "q Menu" in footer and "Undo" in footer
    tmux.keys("0")
    tmux.wait_for("Enter confirms")
    assert "Confirm" in _last_line(tmux.wait_for("Confirm turn"))
    tmux.keys("Enter")
    tmux.wait_for("Blue placed")
    tmux.keys("q")
    tmux.wait_for("Resume a saved game")
    tmux.keys("q")


def test_at_60x18_the_side_panel_narrows_and_the_cursor_tile_shows_whole(terminal):
    """Issue 15 item 7: at 60x18 the side panel kept 34 columns and the cursor tile was cut off."""
    tmux = terminal(60, 18)
    tmux.wait_for("New local game")
    tmux.keys("n")
    tmux.wait_for("New local game")
    tmux.keys("C-s")
    tmux.wait_for("tiles left")
    screen = tmux.wait_for("7●")  # the supplies drawn as counts: the narrow layout is in place
    lines = screen.splitlines()
    bar = [line.index("│") for line in lines[:10] if "│" in line]
    assert bar and min(bar) >= 60 - 25, (bar, screen)  # the side panel is at most 24 columns + its border
    assert "Red" in screen and " 0 7●" in screen  # the scores and supplies still show
    tmux.keys("Tab")
    screen = tmux.wait_for("? Help")
    board = [line[: min(bar)] for line in screen.splitlines()[:-2]]
    top = [i for i, line in enumerate(board) if "┏" in line]
    bottom = [i for i, line in enumerate(board) if "┛" in line]
    assert top and bottom and bottom[0] - top[0] == 4, screen  # the cursor's 5 rows, top and bottom corners
    assert "┓" in board[top[0]] and "┗" in board[bottom[0]]
    assert "? Help" in _last_line(screen)
    tmux.keys("q")
    tmux.wait_for("Resume a saved game")
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
