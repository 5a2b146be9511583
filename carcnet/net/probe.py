"""Provides :func:`confirm_table`: whether the peer an mDNS record points to is really the table it
says (``protocol/discovery.md`` §4, ``protocol/wire.md`` §3.4).

An mDNS record is a claim anyone on the network can make: a flood of forged records could hide a real
table, or send a joining bot to a forged one. Before a program joins or lists a table first, it dials
the advertised address as a spectator and runs the handshake up to the acceptor's proof: the table is
confirmed when the key that proves itself there is the record's key and the game is the record's
game. Then it says ``bye`` and closes. One probe costs one TCP connection, two frames each way and
one Ed25519 verification, and is bounded by *timeout*.
"""

from __future__ import annotations

import asyncio
import contextlib

from .adverts import GameAd
from .framing import ProtocolError
from .messages import Bye, Hello, Welcome
from .protocol import PeerConnection, Proven, State
from .signing import SeatKey
from .transport import READ_SIZE, connect

__all__ = ["MAX_PROBES", "confirm_ad", "confirm_table"]

MAX_PROBES = 16
"""Probes a program runs at once (discovery.md §4): a flood of forged records costs short probes, in
turn, and cannot make us open more connections than this."""


async def confirm_table(address: tuple[str, int], game: str, key: bytes, *, timeout: float = 3.0) -> bool:
    """Whether the peer at *address* proves identity *key* for *game* within *timeout* seconds.

    Never raises for anything the network does: an unreachable address, a refusal, another game,
    another key, bad bytes or silence are all ``False``.
    """
    try:
        async with asyncio.timeout(timeout):
            return await _probe(address, game, key, timeout)
    except (TimeoutError, OSError, ProtocolError, ValueError):
        return False


async def confirm_ad(ad: GameAd, *, timeout: float = 3.0) -> tuple[str, int] | None:
    """The first IPv4 address of *ad* (of at most two tried) where the key it advertises proves itself
    for its game (:func:`confirm_table`), or ``None``. Never raises for anything the network does."""
    for addr in [a.split("%")[0] for a in ad.addresses if ":" not in a][:2]:
        if await confirm_table((addr, ad.port), ad.game, ad.key, timeout=timeout):
            return addr, ad.port
    return None


async def _probe(address: tuple[str, int], game: str, key: bytes, timeout: float) -> bool:
    reader, writer = await connect(*address, timeout=timeout)
    me = SeatKey.generate()  # a throwaway identity: the probe is nobody at the table
    conn = PeerConnection(game=game, initiator=True, identity=me)
    try:
        writer.write(conn.send(Hello(game=game, role="spectator", name="carcnet probe", key=me.public)))
        while conn.state is not State.CLOSED:
            data = await reader.read(READ_SIZE)
            events = conn.receive_data(data)
            writer.write(conn.data_to_send())
            for event in events:
                if isinstance(event, Proven):
                    welcome = conn.peer
                    ok = event.key == key and isinstance(welcome, Welcome) and welcome.game == game
                    writer.write(conn.send(Bye(reason="quit")))
                    return ok
            if not data:
                return False
        return False
    finally:
        with contextlib.suppress(Exception):
            await writer.drain()
        writer.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer.wait_closed(), 1.0)
