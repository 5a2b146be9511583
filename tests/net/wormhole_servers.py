"""The real rendezvous (mailbox) server and transit relay of magic-wormhole, on loopback, for tests.

Both are the servers' own packages (``magic-wormhole-mailbox-server``, ``magic-wormhole-transit-relay``,
in the ``test`` extra), run in this process on the Twisted reactor thread that the invite codes use
(:mod:`carcnet.net.reactor`), each listening on a free loopback port of its own. :meth:`Servers.stop_relay`
closes the relay's port and drops every connection through it, as a relay that dies would.
Tests that use them skip, saying why, when the packages are not installed.
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass, field
from typing import Any

import pytest

from carcnet.net import invite
from carcnet.net.reactor import call


def need_internet() -> None:
    """Skips the test, with the reason, when the ``internet`` extra or the servers are missing."""
    if (why := invite.missing()) is not None:
        pytest.skip(why)
    pytest.importorskip("wormhole_mailbox_server", reason="the mailbox server is in the test extra")
    pytest.importorskip("wormhole_transit_relay", reason="the transit relay is in the test extra")


@dataclass
class Servers:
    mailbox: str
    transit: str
    _ports: list[Any] = field(default_factory=list)
    _relay: Any = None

    def settings(self, *, direct: bool = True, ping: float = 1.0, remake: float = 2.0) -> invite.Servers:
        return invite.Servers(mailbox=self.mailbox, transit=self.transit, direct=direct, ping=ping, remake=remake)

    async def stop_relay(self) -> None:
        """The relay stops listening and drops every connection it relays."""
        await call(self._stop_relay)

    def _stop_relay(self) -> Any:
        port = self._ports[1]
        stopped = port.stopListening()
        for connection in list(self._relay.connections):
            connection.transport.abortConnection()
        return stopped

    async def start_relay(self) -> None:
        """The relay listens again, on its port of before (after :meth:`stop_relay`)."""

        async def listen() -> None:
            from twisted.internet import endpoints
            from twisted.internet import reactor as twisted_reactor

            _tcp, interface, port = self.transit.split(":")
            endpoint = endpoints.TCP4ServerEndpoint(twisted_reactor, int(port), interface=interface)
            self._ports[1] = await endpoint.listen(self._relay)

        await call(listen)

    async def stop(self) -> None:
        for port in self._ports:
            await call(port.stopListening)


async def start(interface: str = "127.0.0.1") -> Servers:
    """Starts a mailbox server and a transit relay on *interface* (loopback by default), on free
    ports."""

    async def go() -> Servers:
        from twisted.internet import endpoints, protocol
        from twisted.internet import reactor as twisted_reactor
        from wormhole_mailbox_server.database import create_channel_db, create_usage_db
        from wormhole_mailbox_server.server import make_server
        from wormhole_mailbox_server.web import make_web_server
        from wormhole_transit_relay.transit_server import Transit, TransitConnection
        from wormhole_transit_relay.usage import create_usage_tracker

        rendezvous = make_server(create_channel_db(":memory:"), usage_db=create_usage_db(":memory:"))
        site = make_web_server(rendezvous, log_requests=False)
        mailbox = await endpoints.TCP4ServerEndpoint(twisted_reactor, 0, interface=interface).listen(site)

        connections: set[Any] = set()

        class Relayed(TransitConnection):  # type: ignore[misc]
            def connectionMade(self) -> None:  # noqa: N802
                connections.add(self)
                super().connectionMade()

            def connectionLost(self, reason: Any = None) -> None:  # noqa: N802
                connections.discard(self)
                super().connectionLost(reason)

        relay = protocol.ServerFactory()
        relay.protocol = Relayed
        relay.log_requests = False
        relay.transit = Transit(create_usage_tracker(blur_usage=None, log_file=None, usage_db=None),
                                twisted_reactor.seconds)
        relay.connections = connections
        transit = await endpoints.TCP4ServerEndpoint(twisted_reactor, 0, interface=interface).listen(relay)
        return Servers(f"ws://{interface}:{mailbox.getHost().port}/v1", f"tcp:{interface}:{transit.getHost().port}",
                       [mailbox, transit], relay)

    return await call(go)


async def _serve_until_stdin_closes(interface: str) -> None:
    running = await start(interface)
    print(running.mailbox, running.transit, flush=True)
    loop = asyncio.get_running_loop()
    while line := await loop.run_in_executor(None, sys.stdin.readline):  # "" once the test closes it
        if line.strip() == "stop-relay":
            await running.stop_relay()
            print("relay stopped", flush=True)
        elif line.strip() == "start-relay":
            await running.start_relay()
            print("relay started", flush=True)


if __name__ == "__main__":
    # ``python -m tests.net.wormhole_servers [ADDRESS]``: the servers in a process of their own, for
    # tests of the ``carcnet`` command, on ADDRESS (default loopback); prints "MAILBOX_URL TRANSIT"
    # and serves until its stdin closes; a line "stop-relay" or "start-relay" on it stops or starts
    # the relay again on its port (answered "relay stopped", "relay started").
    asyncio.run(_serve_until_stdin_closes(sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1"))
