"""A discovery probe at a table (discovery.md §4): the browser proves a record's key by saying hello as
a throwaway spectator and leaving at once. It is nobody: the host's lobby used to say "carcnet probe
connected" and "carcnet probe left" each time a laptop browsed the network; a real spectator is still
said."""

from __future__ import annotations

import pytest

from carcnet.engine import Rules
from carcnet.net.probe import proven_key
from carcnet.table import NetTable, plan_from_text

from .loopback import FAST, LIMIT

pytestmark = pytest.mark.asyncio


async def test_a_probe_is_not_announced_in_the_lobby_and_a_spectator_is(tmp_path):
    loop = ("127.0.0.1", 0)
    host = NetTable.host(name="Ann", game_name="Friday", rules=Rules(), plan=plan_from_text("me,open", me="Ann"),
                         directory=tmp_path / "a", listen=loop, discovery=False, timing=FAST, auto_start=False)
    async with host:
        address = ("127.0.0.1", host.peer.port)
        for _ in range(3):  # three laptops browsing
            assert isinstance(await proven_key(address, host.game_id), bytes)
        await host.wait_until(lambda: not host.session.connections.links, LIMIT)
        eve = NetTable.spectate(host.game_id, name="Eve", directory=tmp_path / "e", dial=[address],
                                discovery=False, timing=FAST)
        async with eve:
            await host.wait_until(lambda: any("Eve" in note for note in host.notes), LIMIT)
    assert not [note for note in host.notes if "probe" in note], host.notes
