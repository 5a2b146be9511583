"""The internet and homes behind masquerading routers, for tests: network namespaces on this machine.

Layout for ``Homes([2, 1])`` with the random tag ``cn-1a2b3c`` and the random X::

    cn-1a2b3c-sw   the switch: bridge cn-1a2b3c-br (the internet), cn-1a2b3c-br1 and -br2 (each
                   home's LAN), and every port (cn-1a2b3c-hI)
    cn-1a2b3c-n0   the server: 198.18.X.10 on the internet
    cn-1a2b3c-n1   home 1's router: 198.18.X.1 on the internet, 10.201.X.1 on its LAN, forwarding,
                   masquerading what leaves (nftables, set through netlink by pyroute2)
    cn-1a2b3c-n2…  home 1's laptops: 10.201.X.2, .3 …, default route via the router, multicast on
                   the LAN (mDNS finds the others of the home, and no one else)
    then home 2's router (198.18.X.2, 10.202.X.1) and laptops, and so on

A laptop reaches the server and the other homes' routers' public addresses; nothing reaches a
laptop from outside its home except the answers to connections it made (the router masquerades: a
home's private addresses are unknown outside it, and no port is forwarded). Nothing leaves this
machine: the internet bridge has no other port, and the namespace the tests run in no route to any of
these addresses. The names follow :mod:`tests.net.netns`'s scheme, its claims and its clean-up of a
killed run's leftovers.

Needs root, iproute2's ``ip`` and pyroute2 (the test extra); :func:`homes_for_test` skips, saying
why, where it cannot work.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import sys
from collections.abc import Iterator, Sequence

from . import netns
from .netns import Host, LanError, _ip

#: Run in a router's namespace: a table ``carcnethome`` with a ``nat`` chain at postrouting that
#: masquerades every connection the router forwards out (replies come back through conntrack).
_MASQUERADE = """
from pyroute2.nftables.expressions import masq
from pyroute2.nftables.main import NFTables
nft = NFTables(nfgen_family=2)
nft.table("add", name="carcnethome")
nft.chain("add", table="carcnethome", name="out", hook="postrouting", type="nat", priority=100)
nft.rule("add", table="carcnethome", chain="out", expressions=(masq(),))
"""


class Homes:
    """The internet (a server) and ``len(homes)`` homes of ``homes[k]`` laptops each.

    Attributes:
        server: The server's host on the internet.
        routers: Each home's router (its address: the public one).
        homes: Each home's laptops.
    """

    def __init__(self, homes: Sequence[int]) -> None:
        if not homes or any(not 1 <= n <= 8 for n in homes) or len(homes) > 8:
            raise ValueError("1 to 8 homes of 1 to 8 laptops each")
        self.tag, self._claim_fd = netns._claim()
        self.x = secrets.randbelow(256)
        self.switch = f"{self.tag}-sw"
        self.sizes = list(homes)
        self._made: list[str] = []
        self._ports: list[str] = []
        self._procs: list[asyncio.subprocess.Process] = []
        self._spaces = 0
        self.server: Host | None = None
        self.routers: list[Host] = []
        self.homes: list[list[Host]] = []

    def _namespace(self) -> str:
        name = f"{self.tag}-n{self._spaces}"
        self._spaces += 1
        _ip("netns", "add", name)
        self._made.append(name)
        _ip("-n", name, "link", "set", "lo", "up")
        return name

    def _plug(self, ns: str, bridge: str, address: str) -> str:
        """A new interface of *ns* on *bridge* with *address*/24; returns its name."""
        i = len(self._ports)
        port, veth = f"{self.tag}-h{i}", f"{self.tag}-v{i}"
        _ip("-n", self.switch, "link", "add", port, "type", "veth", "peer", "name", veth, "netns", ns)
        self._ports.append(port)
        _ip("-n", self.switch, "link", "set", port, "master", bridge)
        _ip("-n", self.switch, "link", "set", port, "up")
        _ip("-n", ns, "addr", "add", f"{address}/24", "dev", veth)
        _ip("-n", ns, "link", "set", veth, "up")
        return veth

    def _bridge(self, name: str) -> str:
        _ip("-n", self.switch, "link", "add", name, "type", "bridge", "stp_state", "0", "mcast_snooping", "0")
        _ip("-n", self.switch, "link", "set", name, "up")
        return name

    def create(self) -> None:
        """Makes the switch, the internet, the server, the routers and the laptops; LanError if a
        step fails (then call :meth:`destroy`)."""
        _ip("netns", "add", self.switch)
        self._made.append(self.switch)
        internet = self._bridge(f"{self.tag}-br")
        ns = self._namespace()
        self.server = Host(ns, self._plug(ns, internet, f"198.18.{self.x}.10"), f"198.18.{self.x}.10")
        for k, size in enumerate(self.sizes, start=1):
            lan = self._bridge(f"{self.tag}-br{k}")
            router = self._namespace()
            public, private = f"198.18.{self.x}.{k}", f"10.{200 + k}.{self.x}"
            self.routers.append(Host(router, self._plug(router, internet, public), public))
            self._plug(router, lan, f"{private}.1")
            _ip("netns", "exec", router, "sysctl", "-qw", "net.ipv4.ip_forward=1")
            done = _ip("netns", "exec", router, sys.executable, "-c", _MASQUERADE, check=False)
            if done.returncode != 0:
                raise LanError(f"cannot masquerade in {router}: {done.stderr.strip()[-300:]}")
            laptops = []
            for j in range(size):
                ns = self._namespace()
                address = f"{private}.{j + 2}"
                veth = self._plug(ns, lan, address)
                _ip("-n", ns, "route", "add", "default", "via", f"{private}.1")
                _ip("-n", ns, "route", "add", "224.0.0.0/4", "dev", veth)
                laptops.append(Host(ns, veth, address))
            self.homes.append(laptops)

    async def spawn(self, host: Host, *argv: str) -> asyncio.subprocess.Process:
        """Starts ``argv`` in *host*'s namespace, stdin, stdout and stderr piped; :meth:`destroy`
        kills it."""
        proc = await asyncio.create_subprocess_exec(
            "ip", "netns", "exec", host.ns, *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
        self._procs.append(proc)
        return proc

    def destroy(self) -> list[str]:
        """Kills the processes, deletes the links and namespaces; never raises. Returns what of it
        is still there (empty when all went)."""
        for proc in self._procs:
            if proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
        if self.switch in self._made:
            for port in self._ports:
                _ip("-n", self.switch, "link", "del", port, check=False)
        for name in reversed(self._made):
            _ip("netns", "del", name, check=False)
        self._made.clear()
        left = netns.leftovers(self.tag)
        if self._claim_fd is not None and not left:
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(netns.CLAIMS, self.tag))
            os.close(self._claim_fd)
            self._claim_fd = None
        return left


def homes_for_test(homes: Sequence[int]) -> Iterator[Homes]:
    """The body of a pytest fixture: :class:`Homes`, skipping the test (with the reason) where they
    cannot be made, and checking afterwards that nothing of them is left behind."""
    import pytest

    pytest.importorskip("pyroute2", reason="the routers masquerade through pyroute2 (the test extra)")
    yield from netns.built_for_test(lambda: Homes(homes))
