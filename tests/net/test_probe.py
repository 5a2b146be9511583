"""Confirming a table an mDNS record points to (discovery.md §4): the key that proves itself at the
address must be the record's, for the record's game; anything else is False, never an exception."""

from __future__ import annotations

import asyncio
import socket

import pytest

from carcnet.net.probe import confirm_table, proven_key

from .loopback import LIMIT, LoopbackGame, identity, make_header

pytestmark = pytest.mark.asyncio


async def test_a_real_table_confirms_and_a_forged_record_of_it_does_not():
    header = make_header(2)
    async with LoopbackGame(header) as table:
        a = await table.player("Ann", [0], bots=False)
        ann = identity("Ann").public
        assert await confirm_table(a.address, header.game, ann)
        assert not await confirm_table(a.address, header.game, identity("Mallory").public)  # another key
        assert not await confirm_table(a.address, "0" * 32, ann)  # another game: refused wrong-game
        # the probe left nothing behind: no link, and Ann's game is as it was
        await a.wait_until(lambda: not a.session.connections.links, 5)
        assert a.session.have == 0


async def test_nothing_listening_or_a_silent_listener_is_false_within_the_timeout():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert not await confirm_table(("127.0.0.1", port), "0" * 32, bytes(32), timeout=2)
    silent = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    async with silent:
        address = silent.sockets[0].getsockname()[:2]
        # its own timeout ends the probe: a bound far above it only keeps a broken one from hanging
        assert await asyncio.wait_for(proven_key(address, "0" * 32, timeout=0.5), LIMIT) == "silent"
        assert not await asyncio.wait_for(confirm_table(address, "0" * 32, bytes(32), timeout=0.5), LIMIT)
