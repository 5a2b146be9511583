"""Two laptops at a table, each in a network namespace of its own (:mod:`tests.net.netns`): a laptop
runs ``carcnet`` headless (its output in a file) or in the interface (in a tmux pane of the test's
own tmux server, driven by keys and read back from the screen). Each is started by
:mod:`tests.net.keyed_peer`, which fixes its keys by a label (so that a test chooses which seat holds
the lower key) and writes every line its table says to people to a file of its own (what the
interface shows in its log pane and status line, and a headless peer prints).

Every wait polls a condition (a line said, a save grown, a text on the screen) and is bounded by a
deadline; none is a fixed sleep. :meth:`Laptops.close` ends every process the test started (by its
pid) and the tmux server, whatever happened.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from carcnet.engine import HandBack, HandOver, Phase
from carcnet.log import LoadedLog, LogError, LogFormatError, load
from carcnet.net.signing import SeatKey

from . import netns
from .nemesis import Save, read_aside, read_save

#: The program each laptop runs: carcnet's command line with fixed keys and its notes in a file.
LAUNCHER = Path(__file__).with_name("keyed_peer.py")
#: The TCP port every laptop listens on (each is a namespace of its own, so one port serves all, and a
#: laptop started again is found where it was).
PORT = 40000
#: The terminal the interface runs in.
COLUMNS, LINES = 120, 40
#: Seconds a seat's draw value may be missing before it counts as away (wire.md §5.7: 10 s; shorter
#: here so that a test does not wait 10 s at the first draw after a laptop went).
REVEAL = "2"
#: Seconds a bot seat is away at its turn before the table takes it over (``--takeover``).
TAKEOVER = "2"
#: Seconds one step of a test may take (a laptop starting, a game reaching a point).
STEP = 90.0
#: Seconds between two looks at a condition.
POLL = 0.1


def key_of(label: str, index: int = 0) -> bytes:
    """The public key of the *index*-th key a laptop started with ``CARCNET_TEST_KEYS=label`` makes:
    ``0`` its identity (a player's seat key is its identity, wire.md §3.1), ``2`` the key of the first bot
    seat of a table it opens (after the identity and the game id's nonce)."""
    return SeatKey.from_seed(hashlib.sha256(f"{label} {index}".encode()).digest()).public


def label_beside(keys: Sequence[bytes], *, lower: bool, stem: str = "Bob") -> str:
    """The first label ``STEM-n`` whose identity key is below every one of *keys* (*lower*) or above
    every one: a laptop's identity and seat keys both (a host whose seat is a bot's has two, and the
    rules of wire.md §5.6 compare identity keys where §5.9 compares seat keys)."""
    for n in range(1000):
        label = f"{stem}-{n}"
        if (key_of(label) < min(keys)) if lower else (key_of(label) > max(keys)):
            return label
    raise AssertionError("no label found")  # one in four labels or so fits: never reached


def _environment() -> dict[str, str]:
    """What every laptop gets: the test's HOME, XDG and carcnet folders (tests/conftest.py), a terminal
    type, and a PATH with the test's Python and ``ip``; nothing else of the user's."""
    keep = ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "CARCNET_CONFIG_DIR",
            "LANG", "LC_ALL")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env.update(TERM="xterm-256color",
               PATH=os.pathsep.join((str(Path(sys.executable).parent), "/usr/sbin", "/usr/bin", "/sbin", "/bin")))
    return env


def _alive(pid: int) -> bool:
    out = subprocess.run(["ps", "-o", "stat=", "-p", str(pid)], capture_output=True, text=True, timeout=10, check=False)
    return out.returncode == 0 and bool(out.stdout.strip()) and not out.stdout.strip().startswith("Z")


def wait(test: Callable[[], object], what: str, timeout: float = STEP, *,
         detail: Callable[[], str] = lambda: "", every: Callable[[], None] | None = None) -> object:
    """Polls *test()* until it is true (returned), at most *timeout* seconds; *every* is called at each
    look (a person reacting to the screen). Fails naming *what*, with *detail()*."""
    deadline = time.monotonic() + timeout
    while True:
        if every is not None:
            every()
        got = test()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout:g} s\n{detail()}")
        time.sleep(POLL)  # polling a condition: no event to wait on across processes


class Laptop:
    """One laptop: a host of the Lan, a label for its keys, a data folder and the file of its notes.

    Attributes:
        name: Its player's name (and the tmux session's).
        runs: How many times a program was started on it.
    """

    def __init__(self, laptops: Laptops, name: str, host: netns.Host, label: str) -> None:
        self.laptops, self.name, self.host, self.label = laptops, name, host, label
        self.folder = laptops.tmp / name
        self.notes_file = laptops.tmp / f"{name}.notes"
        self.runs = 0
        #: ``CARCNET_TEST_CLOCKS`` (:mod:`tests.net.keyed_peer`): ``None`` for wire.md's own clocks.
        self.clocks: str | None = None

    # ------------------------------------------------------------------ starting

    def argv(self, *args: str) -> list[str]:
        """The command that runs ``carcnet ARGS`` on this laptop."""
        return ["ip", "netns", "exec", self.host.ns, sys.executable, str(LAUNCHER), *args]

    def env(self) -> dict[str, str]:
        env = {"CARCNET_TEST_KEYS": self.label, "CARCNET_TEST_NOTES": str(self.notes_file),
               "CARCNET_TEST_REVEAL": REVEAL, "CARCNET_DATA_DIR": str(self.folder)}
        if self.clocks is not None:
            env["CARCNET_TEST_CLOCKS"] = self.clocks
        return env

    def net(self) -> list[str]:
        """The options of a network command here: its folder, address, port and clocks."""
        return ["--data-dir", str(self.folder), "--interface", self.host.address, "--listen", self.host.address,
                "--port", str(PORT), "--takeover", TAKEOVER]

    # ------------------------------------------------------------------ reading

    def notes(self) -> list[str]:
        """Every line its tables said to people, every run, in order."""
        try:
            return self.notes_file.read_text(encoding="utf-8").splitlines()
        except OSError:
            return []

    def said(self, start: str) -> str | None:
        """Its first note starting with *start*, if any."""
        return next((line for line in self.notes() if line.startswith(start)), None)

    def saves(self) -> list[Path]:
        return sorted(self.folder.rglob("*.carclog"))

    def save(self) -> Path | None:
        """Its save of the game (one file: a resumed game goes on in it)."""
        saves = self.saves()
        assert len(saves) <= 1, f"{self.name} has {len(saves)} saves: {saves}"
        return saves[0] if saves else None

    def records(self) -> Save | None:
        path = self.save()
        return read_save(path) if path is not None else None

    def entries(self) -> int:
        """How many entries its save holds now."""
        records = self.records()
        return len(records.entries) if records is not None else 0

    def loaded(self) -> LoadedLog | None:
        """Its save read by carcnet's reader (``None`` while it cannot be)."""
        path = self.save()
        if path is None:
            return None
        try:
            return load(path)
        except (LogError, LogFormatError, OSError):
            return None

    def over(self) -> bool:
        """Whether its save ends the game."""
        loaded = self.loaded()
        return loaded is not None and loaded.game.phase is Phase.GAME_OVER

    def aside(self) -> set[bytes]:
        """The records of its side file (entries set aside, wire.md §5.9)."""
        path = self.save()
        if path is None:
            return set()
        return read_aside(path.with_name(path.name + ".aside")) | read_aside(path.with_suffix(".aside"))

    def describe(self) -> str:
        """What a failure shows of it: its last notes and its save's length."""
        notes = self.notes()
        return (f"--- {self.name} ({self.label}): {self.entries()} entries saved; last notes:\n  "
                + "\n  ".join(notes[-14:]))


class Terminal(Laptop):
    """A laptop running the interface, in a tmux session named after its player."""

    def start(self, *args: str) -> None:
        """Runs ``carcnet ARGS`` in a new session of the test's tmux server."""
        self.runs += 1
        env = " ".join(f"{k}={shlex.quote(v)}" for k, v in self.env().items())
        command = f"exec env {env} {shlex.join(self.argv(*args))}"
        self.laptops.tmux("new-session", "-d", "-s", self.name, "-x", str(COLUMNS), "-y", str(LINES), command)
        self.pid = int(self.laptops.tmux("display-message", "-p", "-t", self.name, "#{pane_pid}").strip())
        self.laptops.pids.append(self.pid)

    @property
    def running(self) -> bool:
        return self.runs > 0 and _alive(self.pid)

    def screen(self) -> str:
        """What the terminal shows now (empty once the program ended and its session with it)."""
        return self.laptops.tmux("capture-pane", "-p", "-t", self.name, check=False)

    def status(self) -> str:
        """The game screen's status line (one or two lines) and footer: the last three lines with text."""
        lines = [line.rstrip() for line in self.screen().splitlines() if line.strip()]
        return "\n".join(lines[-3:])

    def keys(self, *keys: str) -> None:
        self.laptops.tmux("send-keys", "-t", self.name, *keys)

    def type(self, text: str) -> None:
        self.laptops.tmux("send-keys", "-t", self.name, "-l", text)

    def click(self, text: str, *, row: Callable[[str], bool] = lambda line: True) -> None:
        """A click of the mouse on the first *text* shown on a line that *row* accepts (an SGR mouse
        press and release, as a terminal sends them): a person choosing in a list or pressing a button,
        where keys bound by a field and by the app around it may act out of order in a burst."""
        for y, line in enumerate(self.screen().splitlines()):
            if text in line and row(line):
                x = line.index(text) + 2  # 1-based, inside the text
                self.type(f"\x1b[<0;{x};{y + 1}M\x1b[<0;{x};{y + 1}m")
                return
        raise AssertionError(f"{text!r} is not on {self.name}'s screen:\n{self.screen()}")

    def shows(self, text: str, timeout: float = STEP) -> str:
        """Waits until the screen shows *text*; the screen."""
        return str(wait(lambda: (s := self.screen()) and text in s and s, f"{self.name}'s screen shows {text!r}",
                        timeout, detail=lambda: self.screen() + "\n" + self.describe()))

    def kill(self) -> None:
        """``kill -9``: no bye, no goodbye."""
        os.kill(self.pid, signal.SIGKILL)
        wait(lambda: not _alive(self.pid), f"{self.name}'s program ends on kill -9", 10)

    def ended(self, timeout: float = STEP) -> None:
        wait(lambda: not _alive(self.pid), f"{self.name}'s program ends", timeout, detail=self.describe)

    def describe(self) -> str:
        return super().describe() + "\n  status: " + self.status().replace("\n", "\n          ")


class Headless(Laptop):
    """A laptop running ``carcnet … --headless`` (or ``carcnet bot``), its stdout and stderr in a file."""

    def start(self, *args: str) -> None:
        self.runs += 1
        self.out = self.laptops.tmp / f"{self.name}.{self.runs}.out"
        with open(self.out, "wb") as out:
            self.proc = subprocess.Popen(self.argv(*args), stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                         env={**_environment(), **self.env()})
        self.laptops.pids.append(self.proc.pid)

    @property
    def running(self) -> bool:
        return self.runs > 0 and self.proc.poll() is None

    def lines(self) -> list[str]:
        """What its last run printed so far."""
        try:
            return self.out.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return []

    def printed(self, start: str, timeout: float = STEP) -> str:
        """Waits until its last run prints a line starting with *start*; the line."""
        return str(wait(lambda: next((line for line in self.lines() if line.startswith(start)), None),
                        f"{self.name} prints {start!r}", timeout, detail=self.describe))

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(10)

    def ended(self, timeout: float = STEP) -> int:
        """Waits for its program to end; its exit status."""
        wait(lambda: self.proc.poll() is not None, f"{self.name}'s program ends", timeout, detail=self.describe)
        return self.proc.returncode

    def describe(self) -> str:
        lines = [line for line in self.lines() if not line.startswith(("move ", "draw "))]
        return super().describe() + "\n  output (moves cut):\n  " + "\n  ".join(lines[-12:])


class Laptops:
    """The laptops of one test on *lan*, and the tmux server their interfaces run in (made on first
    use). Use ``with Laptops(lan, tmp) as laptops:``; leaving the block ends every process started."""

    def __init__(self, lan: netns.Lan, tmp: Path) -> None:
        self.lan, self.tmp = lan, tmp
        self.pids: list[int] = []
        self.folder: str | None = None
        self.laptops: list[Laptop] = []

    def __enter__(self) -> Laptops:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def terminal(self, name: str, host: netns.Host, label: str) -> Terminal:
        laptop = Terminal(self, name, host, label)
        self.laptops.append(laptop)
        return laptop

    def headless(self, name: str, host: netns.Host, label: str) -> Headless:
        laptop = Headless(self, name, host, label)
        self.laptops.append(laptop)
        return laptop

    def tmux(self, *args: str, check: bool = True) -> str:
        if self.folder is None:  # a short path: a socket's path has at most about 100 bytes
            self.folder = tempfile.mkdtemp(prefix="carcnet-tmux-")
        socket = os.path.join(self.folder, "s")
        out = subprocess.run(["tmux", "-S", socket, "-f", os.devnull, *args], capture_output=True, text=True,
                             timeout=20, check=False, env=_environment())
        if check and out.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)}: {out.stderr.strip()} (status {out.returncode})")
        return out.stdout

    def describe(self) -> str:
        return "\n".join(laptop.describe() for laptop in self.laptops)

    def close(self) -> None:
        """Ends every program the test started (SIGKILL, by its pid) and the tmux server, then waits a
        bounded while for them to be gone."""
        running = [pid for pid in self.pids if _alive(pid)]
        for pid in running:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for laptop in self.laptops:
            if isinstance(laptop, Headless) and laptop.runs:
                try:
                    laptop.proc.wait(10)
                except subprocess.TimeoutExpired:
                    pass
        if self.folder is not None:
            self.tmux("kill-server", check=False)
            shutil.rmtree(self.folder, ignore_errors=True)
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in running) and time.monotonic() < deadline:
            time.sleep(POLL)  # polling: no event tells that an unrelated process ended


# ---------------------------------------------------------------------- what a log holds


def handovers(loaded: LoadedLog) -> list[HandOver]:
    return [e.move for e in loaded.entries if isinstance(e.move, HandOver)]


def handbacks(loaded: LoadedLog) -> list[HandBack]:
    return [e.move for e in loaded.entries if isinstance(e.move, HandBack)]


def first_difference(a: Sequence[bytes], b: Sequence[bytes]) -> int | None:
    """The first seq (1-based) at which two logs' entries differ, or ``None``."""
    for i in range(max(len(a), len(b))):
        if i >= len(a) or i >= len(b) or a[i] != b[i]:
            return i + 1
    return None
