"""A throwaway LAN for tests: network namespaces joined by a bridge, so that real multicast (mDNS)
travels between separate network hosts on this machine and nowhere else.

Layout for ``Lan(2)`` with the random tag ``cn-1a2b3c``::

    namespace cn-1a2b3c-sw:  bridge cn-1a2b3c-br  ── ports cn-1a2b3c-h1, cn-1a2b3c-h2
    namespace cn-1a2b3c-n1:  lo, cn-1a2b3c-v1 (10.213.X.1/24)  ── veth peer of cn-1a2b3c-h1
    namespace cn-1a2b3c-n2:  lo, cn-1a2b3c-v2 (10.213.X.2/24)  ── veth peer of cn-1a2b3c-h2

The bridge lives in a namespace of its own (the "switch"), so nothing is added to the namespace the
tests run in: no link, no address, no route. Traffic cannot leave: the switch has no other port, and
the root namespace no route to 10.213.X.0/24. Each host namespace gets ``lo`` up, its veth up with
one address, and the multicast route ``224.0.0.0/4 dev <veth>``.

:meth:`Lan.destroy` (also run by ``with Lan(...)`` on any exit) kills the processes started with
:meth:`Lan.spawn`, deletes the veths and the bridge, then the namespaces, and never raises.
:func:`remove_stale` deletes namespaces of this naming scheme left by a run that was killed.

Many Lans live at once (test workers side by side, and whole test runs side by side on one machine):
each claims its tag before it makes anything, by a file in :data:`CLAIMS` that it holds locked
(``flock``) for as long as it lives, naming its process and test. A tag already claimed is never
reused, and :func:`remove_stale` deletes only what no living process holds: the kernel drops the
lock of a killed run, so its namespaces go at the next run, and never a neighbour's however long it
runs.

Needs root and iproute2's ``ip``; :func:`unavailable_reason` says why not when it cannot work.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import re
import secrets
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol, Self, TypeVar

#: Every name made here starts with this, then 6 hex digits, then ``-``.
PREFIX = "cn-"
#: Names made by this helper (namespaces and links).
NAME_PATTERN = re.compile(r"cn-[0-9a-f]{6}-(?:sw|br[0-9]*|n[0-9]+|h[0-9]+|v[0-9]+)")
#: Seconds any one ``ip`` command may take.
IP_TIMEOUT = 10.0
#: Most hosts a Lan holds (addresses .1 to .N of its /24).
MAX_HOSTS = 16
#: The folder of the claims: ``<tag>``, locked while its Lan lives (in /run: gone at a reboot, with
#: the namespaces).
CLAIMS = "/run/carcnet-netns"


class LanError(RuntimeError):
    """A namespace, link or address could not be made; the message has the command and its stderr."""


def _ip(
    *args: str, check: bool = True, tool: str = "ip", stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    try:
        done = subprocess.run([tool, *args], capture_output=True, text=True, timeout=IP_TIMEOUT, check=False,
                              input=stdin)
    except subprocess.TimeoutExpired as exc:
        raise LanError(f"{tool} {' '.join(args)}: no answer in {IP_TIMEOUT} s") from exc
    except FileNotFoundError as exc:
        raise LanError(f"{tool}: not installed") from exc
    if check and done.returncode != 0:
        raise LanError(f"{tool} {' '.join(args)}: {done.stderr.strip() or done.returncode}")
    return done


def unavailable_reason() -> str | None:
    """Why namespaces cannot be made here (not root, no ``ip``, ``ip netns add`` refused), or None."""
    if not sys.platform.startswith("linux"):
        return "network namespaces need Linux"
    if os.geteuid() != 0:
        return "network namespaces need root (CI runs as root)"
    if shutil.which("ip") is None:
        return "the ip command (iproute2) is not installed"
    probe = f"{PREFIX}{secrets.token_hex(3)}-n0"
    try:
        _ip("netns", "add", probe)
    except LanError as exc:
        return f"cannot create a network namespace: {exc}"
    finally:
        _ip("netns", "del", probe, check=False)
    return None


def namespaces() -> list[str]:
    """Names of every network namespace (``ip netns list``)."""
    out = _ip("netns", "list", check=False).stdout
    return [line.split()[0] for line in out.splitlines() if line.strip()]


def links() -> list[str]:
    """Names of the links of the current namespace (``ip -o link``), without ``@peer``."""
    out = _ip("-o", "link", "show", check=False).stdout
    return [line.split(":")[1].strip().split("@")[0] for line in out.splitlines() if line.count(":") >= 2]


def leftovers(tag: str = "") -> list[str]:
    """Namespaces and links of this namespace named by this helper (only those of *tag* if given)."""
    names = namespaces() + links()
    return sorted(n for n in names if NAME_PATTERN.fullmatch(n) and n.startswith(tag))


def _held(tag: str) -> bool | None:
    """Whether a living process holds *tag*'s claim (True), nobody does (False: its run was killed),
    or *tag* has no claim (None: made by a helper that did not claim)."""
    try:
        fd = os.open(os.path.join(CLAIMS, tag), os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def _drop_claim(tag: str) -> None:
    """Deletes *tag*'s claim if nobody holds it (checked under its lock, on the file still there)."""
    path = os.path.join(CLAIMS, tag)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        if os.fstat(fd).st_ino == os.stat(path).st_ino:
            os.unlink(path)
    except (BlockingIOError, FileNotFoundError):
        pass
    finally:
        os.close(fd)


def stale(name: str, now: float, max_age: float = 120.0) -> bool:
    """Whether namespace *name* (of this naming scheme) is a killed run's: nobody holds its claim,
    or, made without a claim (by an older helper), it is older than *max_age* seconds at *now*."""
    held = _held(name.rsplit("-", 1)[0])
    if held is not None:
        return not held
    try:
        return now - os.stat(f"/run/netns/{name}").st_mtime > max_age
    except OSError:
        return True


def remove_stale(max_age: float = 120.0) -> list[str]:
    """Delete this helper's namespaces that are :func:`stale` (a killed run's: see :data:`CLAIMS`),
    and its links in this namespace whatever their age. Returns what was deleted. A Lan of a run in
    progress, in this process or another, is never touched, however long it has lived."""
    removed = []
    for name in namespaces():  # each checked right before it is deleted: a claim may end meanwhile
        if NAME_PATTERN.fullmatch(name) and stale(name, time.time(), max_age):
            if _ip("netns", "del", name, check=False).returncode == 0:
                removed.append(name)
    for name in links():
        if NAME_PATTERN.fullmatch(name) and _ip("link", "del", name, check=False).returncode == 0:
            removed.append(name)
    try:
        claims = [tag for tag in os.listdir(CLAIMS) if re.fullmatch(r"cn-[0-9a-f]{6}", tag)]
    except OSError:
        claims = []
    left = namespaces()
    for tag in claims:
        if not any(name.startswith(tag + "-") for name in left):
            _drop_claim(tag)
    return removed


def _claim() -> tuple[str, int]:
    """A new tag and the descriptor that holds its claim locked (:data:`CLAIMS`). The claim file is
    made and locked under a private name, then linked to the tag's name, which fails if the tag is
    taken: no other process ever sees it unlocked, and no two Lans share a tag."""
    os.makedirs(CLAIMS, exist_ok=True)
    owner = (f"pid {os.getpid()} worker {os.environ.get('PYTEST_XDIST_WORKER', '-')} "
             f"test {os.environ.get('PYTEST_CURRENT_TEST', '-')}\n")
    for _ in range(64):
        tag = f"{PREFIX}{secrets.token_hex(3)}"
        private = os.path.join(CLAIMS, f".{tag}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(private, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            os.write(fd, owner.encode())
            os.link(private, os.path.join(CLAIMS, tag))
        except FileExistsError:
            os.close(fd)
            continue
        except BaseException:
            os.close(fd)
            raise
        finally:
            os.unlink(private)
        if not any(n.startswith(tag + "-") for n in namespaces()):  # not a name left by an older helper
            return tag, fd
        os.unlink(os.path.join(CLAIMS, tag))
        os.close(fd)
    raise LanError(f"no free tag in {CLAIMS}")


class _Buildable(Protocol):
    def create(self) -> None: ...

    def destroy(self) -> list[str]: ...


Built = TypeVar("Built", bound=_Buildable)


@dataclass(frozen=True)
class Host:
    """One host of a Lan: its namespace, its interface there and that interface's IPv4 address."""

    ns: str
    veth: str
    address: str


class Lan:
    """*n* hosts on one bridged /24 (``10.213.X.0/24``, X random), made by :meth:`create`.

    Use ``with Lan(2) as lan:``; ``lan.hosts[i]`` are the hosts, :meth:`spawn` runs a program in one.
    """

    def __init__(self, n: int) -> None:
        if not 1 <= n <= MAX_HOSTS:
            raise ValueError(f"a Lan has 1 to {MAX_HOSTS} hosts, not {n}")
        self.tag, self._claim_fd = _claim()
        self.subnet = f"10.213.{secrets.randbelow(256)}"
        self.switch = f"{self.tag}-sw"
        self.bridge = f"{self.tag}-br"
        self.hosts = [
            Host(f"{self.tag}-n{i}", f"{self.tag}-v{i}", f"{self.subnet}.{i}") for i in range(1, n + 1)
        ]
        self._made: list[str] = []  # namespaces made, in order
        self._procs: list[asyncio.subprocess.Process] = []

    def __enter__(self) -> Self:
        try:
            self.create()
        except BaseException:
            self.destroy()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.destroy()

    def create(self) -> None:
        """Make the switch, the bridge and the hosts; LanError if any step fails (then call destroy)."""
        _ip("netns", "add", self.switch)
        self._made.append(self.switch)
        sw = ("-n", self.switch)
        _ip(*sw, "link", "set", "lo", "up")
        _ip(*sw, "link", "add", self.bridge, "type", "bridge", "stp_state", "0", "mcast_snooping", "0")
        _ip(*sw, "link", "set", self.bridge, "up")
        for i, host in enumerate(self.hosts, start=1):
            _ip("netns", "add", host.ns)
            self._made.append(host.ns)
            port = f"{self.tag}-h{i}"
            _ip(*sw, "link", "add", port, "type", "veth", "peer", "name", host.veth, "netns", host.ns)
            _ip(*sw, "link", "set", port, "master", self.bridge)
            _ip(*sw, "link", "set", port, "up")
            ns = ("-n", host.ns)
            _ip(*ns, "link", "set", "lo", "up")
            _ip(*ns, "addr", "add", f"{host.address}/24", "dev", host.veth)
            _ip(*ns, "link", "set", host.veth, "up")
            _ip(*ns, "route", "add", "224.0.0.0/4", "dev", host.veth)
        deadline = time.monotonic() + 5.0
        for host in self.hosts:  # carrier comes up at once on veths; wait a bounded while if not
            while "LOWER_UP" not in _ip("-n", host.ns, "link", "show", host.veth).stdout:
                if time.monotonic() > deadline:
                    raise LanError(f"{host.veth} in {host.ns} did not come up within 5 s")
                time.sleep(0.05)

    async def spawn(self, host: Host, *argv: str) -> asyncio.subprocess.Process:
        """Start ``argv`` in *host*'s namespace (``ip netns exec``; ``ip`` execs the program, so the
        process is the program) with stdin, stdout and stderr piped. :meth:`destroy` kills it."""
        proc = await asyncio.create_subprocess_exec(
            "ip",
            "netns",
            "exec",
            host.ns,
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        self._procs.append(proc)
        return proc

    def cut(self, host: Host) -> None:
        """Unplugs *host*: its port on the bridge goes down, so nothing passes either way (as when a
        laptop's network goes), while the host keeps its interface, address and routes."""
        i = self.hosts.index(host) + 1
        _ip("-n", self.switch, "link", "set", f"{self.tag}-h{i}", "down")

    def mend(self, host: Host) -> None:
        """Plugs *host* back in (undoes :meth:`cut`)."""
        i = self.hosts.index(host) + 1
        _ip("-n", self.switch, "link", "set", f"{self.tag}-h{i}", "up")

    def split(self, sides: Sequence[Sequence[Host]]) -> None:
        """Splits the hosts into *sides* that cannot reach each other, as a network split does: in each
        host's namespace a blackhole route to every host of the other sides, so that a connection
        between sides goes silent and a new one fails at once (multicast still passes). Replaces an
        earlier split; :meth:`unsplit` undoes it."""
        self.unsplit()
        for side in sides:
            others = [h for h in self.hosts if h not in side]
            for host in side:
                if others:
                    _ip("-n", host.ns, "-batch", "-",
                        stdin="".join(f"route add blackhole {o.address}/32\n" for o in others))

    def unsplit(self) -> None:
        """Removes the routes of :meth:`split`: every host reaches every other again."""
        for host in self.hosts:
            _ip("-n", host.ns, "route", "flush", "type", "blackhole", check=False)

    def impair(self, host: Host) -> str:
        """Makes *host*'s link lose packets both ways (its interface and its port on the bridge):
        ``netem`` loss of 20 % where the kernel has it, else a ``tbf`` link of 64 kbit/s whose 4 KiB
        queue drops whatever overflows it. Returns which; LanError without ``tc``. :meth:`repair`
        undoes it."""
        i = self.hosts.index(host) + 1
        ends = (("-n", host.ns, "qdisc", "replace", "dev", host.veth, "root"),
                ("-n", self.switch, "qdisc", "replace", "dev", f"{self.tag}-h{i}", "root"))
        for how in (("netem", "loss", "20%"), ("tbf", "rate", "64kbit", "burst", "4kb", "limit", "4kb")):
            if _ip(*ends[0], *how, tool="tc", check=False).returncode == 0:
                _ip(*ends[1], *how, tool="tc")
                return " ".join(how)
        _ip(*ends[0], "tbf", tool="tc")  # raises LanError with tc's reason
        return "none"

    def repair(self, host: Host) -> None:
        """Undoes :meth:`impair`: both ends of *host*'s link back to the default queue."""
        i = self.hosts.index(host) + 1
        _ip("-n", host.ns, "qdisc", "del", "dev", host.veth, "root", tool="tc", check=False)
        _ip("-n", self.switch, "qdisc", "del", "dev", f"{self.tag}-h{i}", "root", tool="tc", check=False)

    async def stop_processes(self, timeout: float = 5.0) -> None:
        """Kill the spawned processes still running and wait for them, at most *timeout* seconds."""
        for proc in self._procs:
            if proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
        waits = [asyncio.ensure_future(proc.wait()) for proc in self._procs]
        if waits:
            _done, pending = await asyncio.wait(waits, timeout=timeout)
            for task in pending:
                task.cancel()

    def destroy(self) -> list[str]:
        """Kill the spawned processes still running (their event loop reaps them), delete the links
        and the namespaces. Idempotent, never raises. Returns what of this Lan is still there (empty
        when all went)."""
        for proc in self._procs:
            if proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
        made = set(self._made)
        for i in range(1, len(self.hosts) + 1):
            if self.switch in made:
                _ip("-n", self.switch, "link", "del", f"{self.tag}-h{i}", check=False)
        if self.switch in made:
            _ip("-n", self.switch, "link", "del", self.bridge, check=False)
        for name in reversed(self._made):
            _ip("netns", "del", name, check=False)
        self._made.clear()
        left = leftovers(self.tag)
        # While anything of it is left the claim stays held: remove_stale deletes it after this process.
        if self._claim_fd is not None and not left:
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(CLAIMS, self.tag))
            os.close(self._claim_fd)
            self._claim_fd = None
        return left


async def read_lines(proc: asyncio.subprocess.Process, out: list[str],
                     until: str | Callable[[str], bool] | None = None) -> str | None:
    """Reads *proc*'s stdout into *out* until a line that starts with *until* (or, *until* a
    predicate, a line it holds for), returned; or the end (``None``). Bounded by the process: it
    returns when the process closes its stdout."""
    assert proc.stdout is not None
    while True:
        line = await proc.stdout.readline()
        if not line:
            return None
        text = line.decode(errors="replace").rstrip("\n")
        out.append(text)
        if until is not None and (text.startswith(until) if isinstance(until, str) else until(text)):
            return text


def lan_for_test(n: int) -> Iterator[Lan]:
    """The body of a pytest fixture: a Lan of *n* hosts, skipping the test (with the reason) where
    namespaces cannot be made, and checking afterwards that nothing of it is left behind."""
    yield from built_for_test(lambda: Lan(n))


def built_for_test(make: Callable[[], Built]) -> Iterator[Built]:
    """The body of a pytest fixture for what *make* gives (a :class:`Lan`, or anything with
    ``create()`` and ``destroy()``): made, yielded, destroyed, and checked that nothing of it is left
    behind; the test skipped with the reason where namespaces cannot be made."""
    import pytest

    reason = unavailable_reason()
    if reason:
        pytest.skip(reason)
    remove_stale()
    made = make()
    try:
        made.create()
    except LanError as exc:
        made.destroy()
        pytest.skip(f"cannot build the test LAN: {exc}")
    try:
        yield made
    finally:
        left = made.destroy()
        assert left == [], f"left behind: {left}"
