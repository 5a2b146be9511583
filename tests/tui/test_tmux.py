"""The app in a real terminal: started in tmux, played with keys, read back from the screen.

Each test has a tmux server of its own (``tmux -S <socket in a new temporary folder> -f /dev/null``): started with the
test's environment (its own HOME and XDG folders, tests/conftest.py), so a tmux server the user
already runs, and the user's settings, play no part. The server is killed at the end whatever
happens, and every process it ran must then be gone (bounded). Skipped where tmux is missing. Waits
poll the screen for an expected text, bounded.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

#: Seconds a wait polls the screen, or waits for processes to end, before the test fails.
LIMIT = 20.0


def _environment() -> dict[str, str]:
    """What the server and every command in it get: the test's HOME, XDG and carcnet folders
    (tests/conftest.py), a terminal type and PATH; nothing else of the user's."""
    keep = ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "CARCNET_CONFIG_DIR",
            "CARCNET_DATA_DIR", "LANG", "LC_ALL")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env.update(TERM="xterm-256color", PATH=os.pathsep.join((str(Path(sys.executable).parent), "/usr/bin", "/bin")))
    return env


def _alive(pid: int) -> bool:
    """Whether process *pid* still runs (a zombie waiting for its parent does not)."""
    out = subprocess.run(["ps", "-o", "stat=", "-p", str(pid)], capture_output=True, text=True, timeout=LIMIT,
                         check=False)
    return out.returncode == 0 and bool(out.stdout.strip()) and not out.stdout.strip().startswith("Z")


class Tmux:
    """One tmux server of the test's own, listening on a socket in the new folder *folder*, and its
    session *name* (one window, one pane)."""

    def __init__(self, folder: str, name: str) -> None:
        self.folder = folder
        self.socket = os.path.join(folder, "s")
        self.name = name

    def run(self, *args: str, check: bool = True) -> str:
        out = subprocess.run(["tmux", "-S", self.socket, "-f", os.devnull, *args], capture_output=True, text=True,
                             timeout=LIMIT, check=False, env=_environment())
        if check and out.returncode != 0:  # e.g. "no server running": the app ended, and its session with it
            raise AssertionError(f"tmux {' '.join(args)}: {out.stderr.strip()} (status {out.returncode})")
        return out.stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", self.name)

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", self.name, *keys)

    def wait_for(self, text: str, timeout: float = LIMIT) -> str:
        """Polls the screen until *text* shows (or fails after *timeout* seconds)."""
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.1)  # polling the screen: tmux has no event to wait on
        raise AssertionError(f"{text!r} never appeared; the screen was:\n{screen}")

    def wait_until(self, what: str, seen: Callable[[str], bool], timeout: float = LIMIT) -> str:
        """Polls the screen until *seen* of it is true (or fails after *timeout* seconds, naming *what*)."""
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if seen(screen):
                return screen
            time.sleep(0.1)  # polling the screen: tmux has no event to wait on
        raise AssertionError(f"{what} never showed; the screen was:\n{screen}")

    def processes(self) -> list[int]:
        """Every process of the panes' sessions (the shell or the app, and what they started)."""
        pids: set[int] = set()
        for line in self.run("list-panes", "-a", "-F", "#{pane_pid}", check=False).split():
            pids.add(int(line))
            out = subprocess.run(["pgrep", "-s", line], capture_output=True, text=True, timeout=LIMIT, check=False)
            pids.update(int(p) for p in out.stdout.split())
        return sorted(pids)

    def kill_server(self) -> list[int]:
        """Kills the server (its panes get SIGHUP, as when a terminal closes) and waits, bounded, for
        every process it ran to end; returns those still running (then killed)."""
        pids = self.processes()
        self.run("kill-server", check=False)
        shutil.rmtree(self.folder, ignore_errors=True)  # the socket with it
        deadline = time.monotonic() + LIMIT
        left = [pid for pid in pids if _alive(pid)]
        while left and time.monotonic() < deadline:
            time.sleep(0.1)  # polling: no event tells that an unrelated process ended
            left = [pid for pid in left if _alive(pid)]
        for pid in left:  # processes this test started: do not leave them to the machine
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        return left

    def pane_pid(self) -> int:
        return int(self.run("display-message", "-p", "-t", self.name, "#{pane_pid}").strip())


def _tiles_left(screen: str) -> int:
    """The count the side panel shows ("N tiles left"), or a large number while none shows."""
    found = re.search(r"(\d+) tiles? left", screen)
    return int(found.group(1)) if found else 10**6


def _last_line(screen: str) -> str:
    """The footer: the last line with anything on it."""
    return [line for line in screen.splitlines() if line.strip()][-1]


def _start(command: str, width: int, height: int) -> Tmux:
    """A new tmux server of its own running *command* in a *width* x *height* session."""
    # a short path: a socket's path has at most about 100 bytes
    tmux = Tmux(tempfile.mkdtemp(prefix="carcnet-tmux-"), f"test-{uuid.uuid4().hex[:8]}")
    tmux.run("new-session", "-d", "-s", tmux.name, "-x", str(width), "-y", str(height), command)
    return tmux


@pytest.fixture
def terminal(tmp_path, monkeypatch):
    """Starts the app in a tmux server of its own, with a session of a given size: ``terminal(width,
    height)``; at the end kills the servers and fails if a process they ran is left."""
    monkeypatch.setenv("CARCNET_DATA_DIR", str(tmp_path))
    started: list[Tmux] = []

    def start(width: int = 100, height: int = 30) -> Tmux:
        # exactly what the README's first command runs: `carcnet` with no arguments
        tmux = _start(f"{sys.executable} -m carcnet", width, height)
        started.append(tmux)
        return tmux

    yield start
    left = [pid for tmux in started for pid in tmux.kill_server()]
    assert not left, f"processes left running after their terminal closed: {left}"


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
    assert "? Help" in footer and "q Menu" in footer and "Place" in footer and "70 tiles left" in screen
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
    # the bot answered: two tiles fewer than at Red's turn, or more when a drawn tile fits nowhere and is
    # set aside (at 80 columns the log's "Blue placed …" line wraps, and scrolls out of sight once the
    # bot's deploy and score lines follow it)
    tmux.wait_until("68 tiles left or fewer", lambda screen: _tiles_left(screen) <= 68)
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
def test_the_interface_quits_cleanly_on_sigterm_and_sighup(tmp_path, monkeypatch, signum):
    """The signal quits as ``q`` does: the terminal is given back, one line says why, and the exit
    status is 128 + the signal."""
    monkeypatch.setenv("CARCNET_DATA_DIR", str(tmp_path))
    # the shell stays (reading the terminal) to show the status; the server's end sends it SIGHUP
    tmux = _start(f"sh -c '{sys.executable} -m carcnet; echo exit status $?; exec cat'", 100, 30)
    try:
        tmux.wait_for("New local game")
        children = subprocess.run(["pgrep", "-P", str(tmux.pane_pid())], capture_output=True, text=True,
                                  timeout=LIMIT, check=True)
        (pid,) = children.stdout.split()
        os.kill(int(pid), getattr(signal, f"SIG{signum}"))
        screen = tmux.wait_for("exit status")
        assert f"carcnet: stopped by SIG{signum}: left the interface; every game is saved" in screen
        assert f"exit status {128 + getattr(signal, f'SIG{signum}')}" in screen and "Traceback" not in screen
    finally:
        left = tmux.kill_server()
    assert not left


@pytest.mark.parametrize("moment", ["home", "game", "quitting"])
def test_closing_the_terminal_ends_the_app(tmp_path, monkeypatch, moment):
    """The terminal closes (the tmux server ends: SIGHUP, and the terminal is gone) on the home
    screen, during a game against a bot, or just as ``q`` leaves the game: the app saves, leaves
    and ends, with every process it started; the game is saved."""
    monkeypatch.setenv("CARCNET_DATA_DIR", str(tmp_path))
    tmux = _start(f"{sys.executable} -m carcnet", 100, 30)
    try:
        tmux.wait_for("New local game")
        pids = tmux.processes()
        assert pids
        if moment != "home":
            tmux.keys("n")
            tmux.wait_for("New local game: seat 1 plays first")
            tmux.keys("C-s")
            tmux.wait_for("Tab next spot")
        if moment == "quitting":
            tmux.keys("q")
    finally:
        left = tmux.kill_server()
    assert not left, f"still running after the terminal closed: {left}"
    assert not any(_alive(pid) for pid in pids)
    if moment != "home":
        assert len(list((tmp_path / "games").glob("*.carclog"))) == 1


def test_a_users_tmux_server_and_settings_do_not_reach_the_tests(tmp_path):
    """The README's test command, run by a user whose settings turn confirmation off and who has a
    tmux server running (started with that HOME): the tmux test of a turn still passes, because its
    app reads the test's folders, not the user's."""
    home = tmp_path / "user"
    config = home / ".config" / "carcnet"
    config.mkdir(parents=True)
    (config / "settings.json").write_text(json.dumps({"confirm": False, "name": "Zed"}))
    sockets = tmp_path / "sockets"
    sockets.mkdir()
    user = {"HOME": str(home), "PATH": os.environ["PATH"], "TERM": "xterm-256color", "TMUX_TMPDIR": str(sockets)}
    # the user's own tmux server, on the default socket, with the user's HOME
    subprocess.run(["tmux", "-f", os.devnull, "new-session", "-d", "-s", "users", "sleep 600"], env=user,
                   check=True, timeout=LIMIT)
    try:
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
             f"{__file__}::test_start_a_game_place_a_tile_and_deploy_in_a_real_terminal"],
            env=user, capture_output=True, text=True, timeout=300, cwd=Path(__file__).parents[2], check=False,
        )
    finally:
        subprocess.run(["tmux", "kill-server"], env=user, capture_output=True, timeout=LIMIT, check=False)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "1 passed" in run.stdout
    assert not (home / ".local").exists()  # nothing of the test's was written in the user's folders


def test_a_terminal_that_goes_away_without_a_signal_ends_the_app(tmp_path, monkeypatch):
    """A terminal closed under the app without SIGHUP (here a pseudo-terminal that is not the app's
    controlling one): it reads as endless end-of-file and takes no write; the app notices, quits as
    on SIGHUP (129) and the process ends, instead of spinning on the closed terminal for ever."""
    pty = pytest.importorskip("pty")
    import fcntl
    import select
    import struct
    import termios

    monkeypatch.setenv("CARCNET_DATA_DIR", str(tmp_path))
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    env = dict(os.environ, TERM="xterm-256color")
    app = subprocess.Popen([sys.executable, "-m", "carcnet"], stdin=slave, stdout=slave, stderr=slave, env=env,
                           start_new_session=True)
    os.close(slave)
    try:
        seen = b""
        deadline = time.monotonic() + LIMIT
        while b"New local game" not in seen and time.monotonic() < deadline and app.poll() is None:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                seen += os.read(master, 65536)
        assert b"New local game" in seen, seen[-500:]
        os.close(master)
        master = -1
        status = app.wait(LIMIT)
    finally:
        if master >= 0:
            os.close(master)
        if app.poll() is None:
            app.kill()
            app.wait(LIMIT)
    assert status == 128 + signal.SIGHUP
