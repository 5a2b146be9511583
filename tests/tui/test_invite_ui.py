"""Invite codes in the interface, driven by the Textual pilot, with magic-wormhole's real mailbox server
and transit relay on loopback (:mod:`tests.net.wormhole_servers`): the Host form's "Invite from
anywhere" opens a lobby that shows the code, and a bot that sat down with it plays the game to the
final scores; a spectator's interface opened with a pairing (``carcnet spectate CODE``) follows a game
to the end; without the internet extra the form says how to get it. Skipped, saying why, without the
extra and the servers."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Select

from carcnet.engine import Rules
from carcnet.net import invite
from carcnet.table import NetTable, plan_from_text
from carcnet.tui.app import CarcnetApp, Launch
from carcnet.tui.screens.final import FinalScreen
from carcnet.tui.screens.game import GameScreen
from carcnet.tui.screens.host_setup import HostSetupScreen
from carcnet.tui.screens.lobby import LobbyScreen
from carcnet.tui.settings import Settings

from ..net import wormhole_servers
from ..net.loopback import FAST
from .keyplay import until
from .test_lan import LAN, _shows, _start_when_full, _text

pytestmark = pytest.mark.asyncio

LIMIT = 20.0


async def _host_form(pilot, app: CarcnetApp) -> HostSetupScreen:
    await pilot.press("h")
    await pilot.pause()
    setup = app.screen
    assert isinstance(setup, HostSetupScreen)
    for row, kind in zip(setup.rows(), ("greedy", "open"), strict=True):
        row.query_one(".kind", Select).value = kind
    setup.query_one("#invite").value = True
    await pilot.pause()
    return setup


def _inviting_host(tmp_path: Path, servers: wormhole_servers.Servers, seats: str) -> NetTable:
    """Ann's table of *seats*, handing out codes on *servers*."""
    return NetTable.host(name="Ann", game_name="Across homes", rules=Rules(), plan=plan_from_text(seats, me="Ann"),
                         directory=tmp_path / "ann", listen=("127.0.0.1", 0), discovery=False, timing=FAST,
                         invite=servers.settings())


async def _code_of(host: NetTable) -> str:
    """The code *host* shows, once it shows one (waited for by the table's changes)."""
    shown = asyncio.Event()
    host.add_listener(lambda _c: shown.set() if host.invites and host.invites.code else None)
    if not (host.invites and host.invites.code):
        await asyncio.wait_for(shown.wait(), LIMIT)
    return host.invites.code  # type: ignore[union-attr,return-value]


async def _type_in_join_screen(pilot, app: CarcnetApp, text: str) -> None:  # type: ignore[no-untyped-def]
    """From the home screen: ``j``, *text* typed in the Join screen's address field, Enter."""
    from carcnet.tui.screens.browse import BrowserScreen
    from textual.widgets import Input

    await pilot.press("j")
    await until(pilot, lambda: isinstance(app.screen, BrowserScreen), "the join screen")
    app.screen.query_one("#address", Input).value = text
    await pilot.press("enter")


async def test_the_host_form_invites_from_anywhere_and_a_bot_sits_down_with_the_code(tmp_path: Path) -> None:
    wormhole_servers.need_internet()
    servers = await wormhole_servers.start()
    settings = Settings(relay=servers.mailbox, transit=servers.transit)
    app = CarcnetApp(data_dir=tmp_path / "tui", bot_delay=0, lan_options=LAN, player_name="Ann", settings=settings)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await _host_form(pilot, app)
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.run.running, "the lobby")
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            lan = lobby.table
            await until(pilot, lambda: lan.invites is not None and lan.invites.code is not None, "a code")
            code = lan.invites.code
            await _shows(pilot, lobby, "#address", "invite code", code)
            pairing = await invite.accept(servers.settings(), code, wait=LIMIT)
            bob = NetTable.join(lan.game_id, name="Bob", bot="random", directory=tmp_path / "bob", listen=None,
                                discovery=False, timing=FAST, pairings=[pairing])
            async with bob:
                await _start_when_full(pilot, lobby)
                await until(pilot, lambda: isinstance(app.screen, FinalScreen), "the final scores")
                await bob.wait_until(lambda: bob.status == "finished" and bob.session.have == lan.session.have, LIMIT)
            assert lan.session.digest == bob.session.digest
    finally:
        await servers.stop()


async def test_a_spectator_opened_with_a_pairing_follows_the_game_to_the_end(tmp_path: Path) -> None:
    wormhole_servers.need_internet()
    servers = await wormhole_servers.start()
    settings = servers.settings()
    host = NetTable.host(name="Ann", game_name="Across homes", rules=Rules(), plan=plan_from_text("greedy,open", me="Ann"),
                         directory=tmp_path / "ann", listen=("127.0.0.1", 0), discovery=False, timing=FAST,
                         invite=settings, bot_delay=0.01)
    try:
        async with host:
            codes: list[str] = []

            async def next_code() -> str:
                """The host's next code: one not given out yet (waited for by the table's changes)."""
                shown = asyncio.Event()

                def listener(_change: str) -> None:
                    if host.invites is not None and host.invites.code not in (None, *codes):
                        shown.set()

                host.add_listener(listener)
                try:
                    listener("")
                    await asyncio.wait_for(shown.wait(), LIMIT)
                finally:
                    host.remove_listener(listener)
                codes.append(host.invites.code)  # type: ignore[union-attr,arg-type]
                return codes[-1]

            watching = await invite.accept(settings, await next_code(), wait=LIMIT)
            app = CarcnetApp(data_dir=tmp_path / "tui", bot_delay=0, lan_options=LAN, player_name="Eve",
                             start=Launch("spectate", pairing=watching))
            async with app.run_test(size=(120, 40)) as pilot:
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the spectator's lobby")
                playing = await invite.accept(settings, await next_code(), wait=LIMIT)
                bob = NetTable.join(host.game_id, name="Bob", bot="random", directory=tmp_path / "bob", listen=None,
                                    discovery=False, timing=FAST, pairings=[playing])
                async with bob:
                    await until(pilot, lambda: isinstance(app.screen, FinalScreen), "the final scores", timeout=60)
                run = app.runs[0]
                assert run.table.session.digest == host.session.digest  # type: ignore[attr-defined]
    finally:
        await servers.stop()


async def test_without_the_internet_extra_the_form_says_how_to_get_it(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(invite, "missing", lambda: "invite codes need carcnet's internet extra: pip install "
                                                   "'carcnet[internet]'")
    app = CarcnetApp(data_dir=tmp_path / "tui", bot_delay=0, lan_options=LAN, player_name="Ann")
    async with app.run_test(size=(120, 40)) as pilot:
        setup = await _host_form(pilot, app)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "carcnet[internet]" in _text(setup, "#error"), "the error line")
        assert app.screen is setup


@contextlib.asynccontextmanager
async def _at_the_join_form(tmp_path: Path, seats: str, typed: str = "{code}") -> AsyncIterator[tuple[Any, ...]]:
    """Ann's table of *seats* handing out codes on servers on loopback, and Bob's interface at the Join
    form after typing her code (as *typed* writes it) in the Join screen: ``(servers, host, app,
    pilot, code)``."""
    from carcnet.tui.screens.host_setup import JoinFormScreen

    wormhole_servers.need_internet()
    servers = await wormhole_servers.start()
    host = _inviting_host(tmp_path, servers, seats)
    settings = Settings(relay=servers.mailbox, transit=servers.transit)
    try:
        async with host:
            code = await _code_of(host)
            app = CarcnetApp(data_dir=tmp_path / "tui", bot_delay=0, lan_options=LAN, player_name="Bob", settings=settings)
            async with app.run_test(size=(120, 40)) as pilot:
                await _type_in_join_screen(pilot, app, typed.format(code=code))
                await until(pilot, lambda: isinstance(app.screen, JoinFormScreen) and app.screen.is_mounted, "the join form")
                await pilot.pause()
                yield servers, host, app, pilot, code
    finally:
        await servers.stop()


async def test_a_code_typed_in_the_join_screen_sits_the_player_down(tmp_path: Path) -> None:
    async with _at_the_join_form(tmp_path, "greedy,open", "  {code} ") as (_servers, host, app, pilot, _code):
        await pilot.press("ctrl+s")  # join as Bob, in the colour offered
        # the table was full with Bob: the game starts at once, and the app shows it
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        await host.wait_until(lambda: host.header is not None, LIMIT)
        assert [seat.name for seat in host.seats] == ["Greedy 1", "Bob"]


async def test_the_join_form_hands_out_codes_too_and_a_friend_sits_down_with_one(tmp_path: Path) -> None:
    """The Join form's "Invite from anywhere": the joining laptop's lobby shows a code of its own,
    and a third laptop that sits down with it (introduced to the host through the joiner) fills
    the table: the game starts and both laptops follow it."""
    async with _at_the_join_form(tmp_path, "greedy,open,open") as (servers, host, app, pilot, code):
        form = app.screen
        form.query_one("#player", Select).value = "random"
        form.query_one("#invite").value = True
        await pilot.pause()
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "Bob's lobby")
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        bob = lobby.table
        await until(pilot, lambda: bob.invites is not None and bob.invites.code is not None, "Bob's code")
        theirs = bob.invites.code
        assert theirs != code
        await _shows(pilot, lobby, "#address", "invite code", theirs)
        pairing = await invite.accept(servers.settings(), theirs, wait=LIMIT)
        cleo = NetTable.join(host.game_id, name="Cleo", bot="random", directory=tmp_path / "cleo",
                             listen=None, discovery=False, timing=FAST, pairings=[pairing])
        async with cleo:
            await until(pilot, lambda: isinstance(app.screen, FinalScreen), "the final scores", timeout=90)
        assert [seat.name for seat in host.seats][1:] in (["Bob", "Cleo"], ["Cleo", "Bob"])
        assert bob.session.digest == host.session.digest
