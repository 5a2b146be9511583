"""Askers of an event service for the tests: a connection from a chosen loopback address that proves
a key (or fails to), then asks, each step bounded by ``asyncio.wait_for`` (nothing sleeps)."""

from __future__ import annotations

import asyncio
from typing import Any

from carcnet.club.service import REPLY_BYTES
from carcnet.club.wire import EventLink
from carcnet.net.framing import ProtocolError
from carcnet.net.signing import SeatKey

#: Seconds any one step may take before the test gives up on it (a bound, not a synchronisation).
STEP = 5.0


class Asker:
    """One connection to the service at 127.0.0.1:*port* from *source*, as *identity*.

    Lifecycle: :meth:`open` dials and does the handshake (``False``: the service closed or refused
    it); :meth:`ask` sends requests and reads their replies; :meth:`close`.
    """

    def __init__(self, port: int, identity: SeatKey, source: str = "127.0.0.1", event: str = "") -> None:
        self.port, self.source = port, source
        self.link = EventLink("connector", identity, event=event, max_frame=REPLY_BYTES, max_bin=REPLY_BYTES)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        #: The service's refusal, when it sent one (its text).
        self.refusal = ""

    async def _pump(self, until: Any) -> bool:
        assert self.reader is not None and self.writer is not None
        while not until():
            out = self.link.data_to_send()
            if out:
                self.writer.write(out)
            data = await asyncio.wait_for(self.reader.read(1 << 16), STEP)
            if not data:
                return False
            try:
                self.link.receive_data(data)
            except ProtocolError as exc:
                self.refusal = exc.message
                return False
        out = self.link.data_to_send()
        if out:
            self.writer.write(out)
        return True

    async def open(self) -> bool:
        try:
            self.reader, self.writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", self.port, local_addr=(self.source, 0)), STEP)
            return await self._pump(lambda: self.link.open)
        except (OSError, TimeoutError):
            return False

    async def ask(self, *requests: dict[str, Any]) -> list[dict[str, Any]]:
        """Sends *requests* at once and returns the replies read before the service closed."""
        replies: list[dict[str, Any]] = []
        try:
            for request in requests:
                self.link.send(request)
            got = lambda: (m := self.link.next_message()) is not None and (replies.append(m) or True)
            for _ in requests:
                if not await self._pump(got):
                    break
        except (OSError, TimeoutError, ProtocolError):
            pass
        return replies

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def answered(port: int, probes: int, source: str = "127.0.0.1", identity: SeatKey | None = None,
                   per_connection: int = 1) -> int:
    """*probes* ``ping`` requests from *source*, *per_connection* on each connection, one connection
    after another: how many are answered."""
    done = 0
    sent = 0
    while sent < probes:
        asker = Asker(port, identity or SeatKey.generate(), source)
        count = min(per_connection, probes - sent)
        sent += count
        if await asker.open():
            replies = await asker.ask(*({"type": "ping", "nonce": sent - count + i} for i in range(count)))
            done += sum(1 for i, r in enumerate(replies) if r.get("nonce") == sent - count + i)
        asker.close()
    return done
