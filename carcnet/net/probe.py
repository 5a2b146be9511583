"""Provides :func:`confirm_table`: whether the peer an mDNS record points to is really the table it
says (``protocol/discovery.md`` §4, ``protocol/wire.md`` §3.4), and :func:`proven_key`: which identity
proves itself at an address for a game (one probe settles every record naming that address and game).

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
import errno

from .adverts import PROBE_TIMEOUT, PROBES_AT_ONCE, GameAd, Outcome
from .framing import ProtocolError
from .messages import Bye, Hello, Welcome
from .protocol import PeerConnection, Proven, State
from .signing import SeatKey
from .transport import READ_SIZE, connect

__all__ = ["MAX_PROBES", "confirm_ad", "confirm_table", "proven_key"]

MAX_PROBES = PROBES_AT_ONCE
"""Probes a program runs at once (discovery.md §4): a flood of forged records costs short probes, in
turn, and cannot make us open more connections than this."""


#: Errors of a dial that went unanswered rather than refused: the address is as costly as a tarpit.
_UNANSWERED = {errno.EHOSTUNREACH, errno.ENETUNREACH, errno.ETIMEDOUT, errno.EHOSTDOWN}


async def proven_key(address: tuple[str, int], game: str, *, timeout: float = PROBE_TIMEOUT) -> Outcome:
    """The identity key (32 bytes) that proves itself at *address* for *game* within *timeout* seconds
    (wire.md §3.4), ``"silent"`` if nothing did by then or the address cannot be reached, ``"refused"``
    for anything else (a refusal, another game, bad bytes, a close). Never raises for anything the
    network does."""
    try:
        async with asyncio.timeout(timeout):
            return await _probe(address, game, timeout)
    except TimeoutError:
        return "silent"
    except OSError as exc:
        return "silent" if exc.errno in _UNANSWERED else "refused"
    except (ProtocolError, ValueError):
        return "refused"


async def confirm_table(address: tuple[str, int], game: str, key: bytes, *, timeout: float = 3.0) -> bool:
    """Whether the peer at *address* proves identity *key* for *game* within *timeout* seconds.

    Never raises for anything the network does: an unreachable address, a refusal, another game,
    another key, bad bytes or silence are all ``False``.
    """
    return await proven_key(address, game, timeout=timeout) == key


async def confirm_ad(ad: GameAd, *, timeout: float = 3.0) -> tuple[str, int] | None:
    """The first IPv4 address of *ad* (of at most two tried) where the key it advertises proves itself
    for its game (:func:`confirm_table`), or ``None``. Never raises for anything the network does."""
    for addr in [a.split("%")[0] for a in ad.addresses if ":" not in a][:2]:
        if await confirm_table((addr, ad.port), ad.game, ad.key, timeout=timeout):
            return addr, ad.port
    return None


async def _probe(address: tuple[str, int], game: str, timeout: float) -> Outcome:
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
                    writer.write(conn.send(Bye(reason="quit")))
                    return event.key if isinstance(welcome, Welcome) and welcome.game == game else "refused"
            if not data:
                return "refused"
        return "refused"
    finally:
        with contextlib.suppress(Exception):
            await writer.drain()
        writer.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer.wait_closed(), 1.0)
