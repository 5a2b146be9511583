"""The interface's list of LAN games under an mDNS flood (discovery.md §4): 300 forged lobbies at a
tarpit reported before the real table do not delay its confirmation, and the confirmed table is
listed first, with ✓, in a bounded list. The mDNS browser is stood in for by the records it would
report; the tarpit and the real table are real listeners on loopback, the probes real handshakes."""

from __future__ import annotations

import asyncio
import secrets
from typing import Self

import pytest
from textual.widgets import OptionList

from carcnet.net.adverts import MAX_RECORDS, GameAd
from carcnet.net.discovery import DiscoveryEvent, GameFound
from carcnet.tui.app import CarcnetApp
from carcnet.tui.screens.browse import BrowserScreen

from ..net.loopback import LoopbackGame, identity, make_header
from .test_lan import LAN, _until

FORGED = 300
#: Seconds the real table may take to be confirmed: one probe's bound, with room for a slow machine
#: (unpaced, the 300 records before it took 300 / 16 × 3 s).
CONFIRMED_WITHIN = 10.0
TARPIT = "127.0.0.2"  # another loopback address than the real table's, as a stranger's host would be


def _lobby(game: str, name: str, key: bytes, address: str, port: int, peer: str = "Ann") -> GameAd:
    return GameAd(game=game, name=name, phase="lobby", seats_taken=1, seats_total=2, peer=peer, role="host",
                  key=key, port=port, addresses=(address,))


@pytest.mark.asyncio
async def test_the_real_table_is_confirmed_and_listed_first_behind_300_forged_lobbies_at_a_tarpit(
    tmp_path, monkeypatch
) -> None:
    from carcnet.net import discovery

    held: list[asyncio.StreamWriter] = []
    tarpit = await asyncio.start_server(lambda _r, w: held.append(w), TARPIT, 0, backlog=512)
    pit = tarpit.sockets[0].getsockname()[1]
    header = make_header(2)
    async with tarpit, LoopbackGame(header) as table:
        ann = await table.player("Ann", [0], bots=False)
        real = _lobby(header.game, "The real table", identity("Ann").public, *ann.address)
        events: list[DiscoveryEvent] = [
            GameFound(_lobby(secrets.token_hex(16), f"A forged table {i}", secrets.token_bytes(32), TARPIT, pit,
                             peer=f"Forger {i}"), f"forged {i}")
            for i in range(FORGED)
        ] + [GameFound(real, "real")]

        class FakeBrowser:
            def __init__(self, **_kw: object) -> None:
                pass

            async def __aenter__(self) -> Self:
                return self

            async def __aexit__(self, *exc: object) -> None:
                return None

            async def next_event(self, timeout: float) -> DiscoveryEvent | None:
                return events.pop(0) if events else None

        monkeypatch.setattr(discovery, "Browser", FakeBrowser)
        app = CarcnetApp(data_dir=tmp_path / "tui", bot_delay=0, player_name="Bob",
                         lan_options={**LAN, "discovery": True})
        try:
            async with app.run_test(size=(140, 30)) as pilot:
                await pilot.press("j")  # join a game
                await _until(pilot, lambda: isinstance(app.screen, BrowserScreen), "the browser")
                browser = app.screen
                assert isinstance(browser, BrowserScreen)
                await _until(pilot, lambda: not events, "every record read")
                await _until(pilot, lambda: browser.checks.get((header.game, real.key, real.port)) is True,
                             "the real table confirmed", timeout=CONFIRMED_WITHIN)
                listing = browser.query_one("#games", OptionList)
                first = listing.options[0]
                assert first.id == header.game and "✓" in str(first.prompt) and not first.disabled
                assert len(browser.ads) <= MAX_RECORDS + 1  # bounded, and the confirmed one kept
        finally:
            for writer in held:  # the tarpit lets go, so that its server can close
                writer.close()
