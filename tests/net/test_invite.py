"""Invite codes (wire.md §2.3) with magic-wormhole's real mailbox server and transit relay on loopback
(:mod:`tests.net.wormhole_servers`): a pairing carries bytes both ways on the direct path and on the
relay's; a wrong code, a used code and a code nobody holds are each refused in one line; a flood of
wrong guesses spends codes, never a seat; whole games are played by laptops that sat down by code,
with a spectator, their logs identical. Skipped, saying why, without the ``internet`` extra."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest
import pytest_asyncio

from carcnet.engine import Rules
from carcnet.log import load
from carcnet.net import invite
from carcnet.table import NetTable, plan_from_text

from . import wormhole_servers
from .loopback import FAST, LIMIT, until

pytestmark = pytest.mark.asyncio

LOOP = ("127.0.0.1", 0)


@pytest_asyncio.fixture
async def servers():
    wormhole_servers.need_internet()
    running = await wormhole_servers.start()
    yield running
    await running.stop()


async def _paired(settings: invite.Servers) -> tuple[invite.Pairing, invite.Pairing]:
    codes: asyncio.Queue[str] = asyncio.Queue()
    inviting = asyncio.create_task(invite.invite(settings, invite.About("ab" * 16, "Loopback"), on_code=codes.put_nowait))
    code = await asyncio.wait_for(codes.get(), LIMIT)
    joined = await invite.accept(settings, code, wait=LIMIT)
    return await asyncio.wait_for(inviting, LIMIT), joined


async def _echo_both_ways(host: invite.Pairing, guest: invite.Pairing) -> None:
    got: asyncio.Queue[bytes] = asyncio.Queue()

    async def on_stream(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        data = await reader.readexactly(5)
        await got.put(data)
        writer.write(data.upper() + b"x" * 300_000)  # more than a socket's buffer: the producers pause
        await writer.drain()
        writer.close()

    tasks: set[asyncio.Task[None]] = set()
    await host.serve(on_stream, lambda c: tasks.add(asyncio.create_task(c)))
    reader, writer = await asyncio.wait_for(guest.open(), LIMIT)
    writer.write(b"hello")
    await writer.drain()
    assert await asyncio.wait_for(got.get(), LIMIT) == b"hello"
    answer = await asyncio.wait_for(reader.readexactly(300_005), LIMIT)
    assert answer[:5] == b"HELLO" and len(answer) == 300_005
    assert await asyncio.wait_for(reader.read(), LIMIT) == b""  # the other side's close comes through
    writer.close()


def _inviting_host(tmp_path: Path, settings: invite.Servers) -> NetTable:
    """Ann's table of a greedy bot and two open seats, handing out codes on *settings*."""
    return NetTable.host(name="Ann", game_name="Across homes", rules=Rules(),
                         plan=plan_from_text("greedy,open,open", me="Ann"), directory=tmp_path / "ann", listen=LOOP,
                         discovery=False, timing=FAST, invite=settings, bot_delay=0.01)


@pytest.mark.parametrize("direct", [True, False], ids=["direct", "relay"])
async def test_a_code_pairs_two_laptops_and_carries_streams_both_ways(servers, direct: bool) -> None:
    host, guest = await _paired(servers.settings(direct=direct))
    try:
        assert guest.about == invite.About("ab" * 16, "Loopback") and guest.initiator and not host.initiator
        await _echo_both_ways(host, guest)
        assert host.path == guest.path == ("direct" if direct else "relay")
    finally:
        await guest.close()
        await host.close()


async def test_a_wrong_code_is_refused_in_one_line_and_spends_the_code(servers) -> None:
    settings = servers.settings()
    codes: asyncio.Queue[str] = asyncio.Queue()
    inviting = asyncio.create_task(invite.invite(settings, invite.About("ab" * 16), on_code=codes.put_nowait))
    code = await asyncio.wait_for(codes.get(), LIMIT)
    nameplate = code.split("-", 1)[0]
    with pytest.raises(invite.InviteError) as wrong:
        await invite.accept(settings, f"{nameplate}-wrong-guess", wait=LIMIT)
    assert wrong.value.reason == "wrong" and "\n" not in str(wrong.value) and "wrong" in str(wrong.value)
    with pytest.raises(invite.InviteError) as spent:
        await asyncio.wait_for(inviting, LIMIT)
    assert spent.value.reason == "wrong"


async def test_a_used_code_pairs_nobody_and_says_so(servers) -> None:
    host, guest = await _paired(servers.settings())
    try:
        with pytest.raises(invite.InviteError) as used:
            await invite.accept(servers.settings(), guest.code, wait=2.0)
        assert used.value.reason == "waiting" and "ask for a new one" in str(used.value)
    finally:
        await guest.close()
        await host.close()


async def test_a_code_nobody_gave_and_a_malformed_one_are_refused() -> None:
    wormhole_servers.need_internet()
    running = await wormhole_servers.start()
    try:
        with pytest.raises(invite.InviteError) as nobody:
            await invite.accept(running.settings(), "4-purple-sausages", wait=1.0)
        assert nobody.value.reason == "waiting"
        with pytest.raises(invite.InviteError) as malformed:
            await invite.accept(running.settings(), "192.168.1.2:4000")
        assert malformed.value.reason == "refused" and "not an invite code" in str(malformed.value)
    finally:
        await running.stop()


async def test_without_a_mailbox_server_the_code_says_it_cannot_reach_it() -> None:
    wormhole_servers.need_internet()
    from tests.ports import free_port

    unused = invite.Servers(mailbox=f"ws://127.0.0.1:{free_port()}/v1", transit="tcp:127.0.0.1:9")
    with pytest.raises(invite.InviteError) as unreachable:
        await invite.accept(unused, "4-purple-sausages", wait=5.0)
    assert unreachable.value.reason in ("unreachable", "waiting")


async def _code_of(table: NetTable, other_than: tuple[str, ...] = ()) -> str:
    """The code *table* shows, once it shows one not in *other_than* (waited for by the table's
    changes)."""
    shown = asyncio.Event()

    def listener(_change: str) -> None:
        if table.invites is not None and table.invites.code not in (None, *other_than):
            shown.set()

    table.add_listener(listener)
    try:
        listener("")
        await asyncio.wait_for(shown.wait(), LIMIT)
    finally:
        table.remove_listener(listener)
    assert table.invites is not None and table.invites.code is not None
    return table.invites.code


@pytest.mark.parametrize("direct", [True, False], ids=["direct", "relay"])
async def test_laptops_that_sat_down_by_code_play_a_whole_game_with_a_spectator(servers, tmp_path: Path,
                                                                                   direct: bool) -> None:
    settings = servers.settings(direct=direct)
    host = NetTable.host(name="Ann", game_name="Across homes", rules=Rules(),
                         plan=plan_from_text("greedy,open,open", me="Ann"), directory=tmp_path / "ann",
                         listen=LOOP, discovery=False, timing=FAST, invite=settings)
    games: list[NetTable] = [host]
    pairings: list[invite.Pairing] = []
    async with contextlib.AsyncExitStack() as stack:
        await stack.enter_async_context(host)
        for name, kind in (("Bob", "player"), ("Cleo", "player"), ("Eve", "spectator")):
            code = await _code_of(host)
            pairing = await invite.accept(settings, code, wait=LIMIT)
            pairings.append(pairing)
            assert pairing.about is not None and pairing.about.game == host.game_id
            if kind == "player":
                game = NetTable.join(pairing.about.game, name=name, bot="random", directory=tmp_path / name,
                                     listen=None, discovery=False, timing=FAST, pairings=[pairing])
            else:
                game = NetTable.spectate(pairing.about.game, name=name, directory=tmp_path / name,
                                         discovery=False, timing=FAST, pairings=[pairing])
            games.append(await stack.enter_async_context(game))
        peers = [g.peer for g in games]
        await until(peers, lambda: all(g.status == "finished" for g in games), LIMIT * 6)
        await until(peers, lambda: all(g.session.have == host.session.have for g in games), LIMIT)
        assert any("Invite code:" in note for note in host.notes)
        assert {p.path for p in pairings} == {"direct" if direct else "relay"}
    logs = [load(g.path) for g in games]  # type: ignore[arg-type]
    assert all(log.damage is None and len(log.entries) == host.session.have for log in logs)
    assert len({log.game.digest for log in logs}) == 1 and logs[0].game.digest == host.session.digest
    assert [seat.player for seat in host.header.header.seats] == ["bot", "bot", "bot"]  # type: ignore[union-attr]


async def test_a_relay_that_dies_mid_game_loses_nothing_and_the_game_goes_on_when_it_is_back(
        servers, tmp_path: Path) -> None:
    settings = servers.settings(direct=False)  # the relay is the only path
    host = NetTable.host(name="Ann", game_name="Across homes", rules=Rules(), plan=plan_from_text("greedy,open", me="Ann"),
                         directory=tmp_path / "ann", listen=LOOP, discovery=False, timing=FAST, invite=settings,
                         bot_delay=0.02)
    async with host:
        pairing = await invite.accept(settings, await _code_of(host), wait=LIMIT)
        bob = NetTable.join(host.game_id, name="Bob", bot="random", directory=tmp_path / "bob", listen=None,
                            discovery=False, timing=FAST, pairings=[pairing], bot_delay=0.02)
        async with bob:
            peers = [host.peer, bob.peer]
            await until(peers, lambda: host.session.have >= 20 and bob.session.have >= 20, LIMIT)
            await servers.stop_relay()
            # the link between them breaks (heartbeats stop), each one's log as it was
            await until(peers, lambda: not host.session.connections.open_links(), LIMIT)
            cut = host.session.have
            await servers.start_relay()
            await until(peers, lambda: host.status == bob.status == "finished", LIMIT * 6)
            await until(peers, lambda: host.session.have == bob.session.have, LIMIT)
            assert host.session.have > cut
            assert "The connection to a laptop elsewhere is back" in host.notes
            assert not any("played by" in note for note in host.notes + bob.notes)  # no seat was taken over
    logs = [load(g.path) for g in (host, bob)]  # type: ignore[arg-type]
    assert logs[0].game.digest == logs[1].game.digest and logs[0].damage is None and logs[1].damage is None


async def test_a_flood_of_wrong_guesses_spends_codes_never_a_seat_and_a_friend_still_sits_down(
        servers, tmp_path: Path, monkeypatch) -> None:
    from carcnet.table import invites

    monkeypatch.setattr(invites, "REOPEN_GAP", 0.05)  # the host's pace between spent codes, shortened
    monkeypatch.setattr(invites, "CODE_LIFETIME", 3.0)  # and a code's life
    settings = servers.settings()
    host = NetTable.host(name="Ann", game_name="Across homes", rules=Rules(), plan=plan_from_text("greedy,open", me="Ann"),
                         directory=tmp_path / "ann", listen=LOOP, discovery=False, timing=FAST, invite=settings)
    async with host:
        seen: list[str] = []
        for _ in range(8):  # one after another, each at the code open now
            code = await _code_of(host, tuple(seen))
            seen.append(code)
            with pytest.raises(invite.InviteError) as wrong:
                await invite.accept(settings, code.split("-")[0] + "-guessed-wrong", wait=LIMIT)
            assert wrong.value.reason == "wrong"
        code = await _code_of(host, tuple(seen))
        nameplate = code.split("-")[0]
        burst = await asyncio.gather(*(invite.accept(settings, f"{nameplate}-burst-{'abcdefgh'[i] * 3}", wait=2.0) for i in range(8)),
                                     return_exceptions=True)
        # each one is refused (a crowd at one number pairs nobody: the mailbox server's doing); the
        # host's code is spent, or jammed until its life ends, never given to a guesser
        assert all(isinstance(r, invite.InviteError) and r.reason in ("wrong", "waiting") for r in burst), burst
        fresh = await _code_of(host, (*seen, code))
        assert sum(1 for note in host.notes if "wrong invite code" in note) >= 8
        assert not any("No invite code for now" in note for note in host.notes)  # no back-off for guesses
        lobby = host.lobby
        assert lobby is not None and sum(sat is None for sat in lobby.table) == 1  # the open seat is still open
        pairing = await invite.accept(settings, fresh, wait=LIMIT)
        bob = NetTable.join(host.game_id, name="Bob", bot="random", directory=tmp_path / "bob", listen=None,
                            discovery=False, timing=FAST, pairings=[pairing])
        async with bob:
            await until([host.peer, bob.peer], lambda: host.status == bob.status == "finished", LIMIT * 3)


async def test_a_code_nobody_used_expires_and_is_refused_after(servers, tmp_path: Path, monkeypatch) -> None:
    from carcnet.table import invites

    monkeypatch.setattr(invites, "CODE_LIFETIME", 0.5)
    host = NetTable.host(name="Ann", game_name="Across homes", rules=Rules(), plan=plan_from_text("greedy,open", me="Ann"),
                         directory=tmp_path / "ann", listen=LOOP, discovery=False, timing=FAST,
                         invite=servers.settings())
    async with host:
        old = await _code_of(host)
        new = await _code_of(host, (old,))
        assert "The invite code expired unused; here is a new one" in host.notes
        with pytest.raises(invite.InviteError) as expired:
            await invite.accept(servers.settings(), old, wait=1.0)
        # nobody waits with it; or its number was handed out again with other words: a wrong code
        assert expired.value.reason in ("waiting", "wrong") and new != old


async def test_a_laptop_that_joined_by_code_resumes_its_save_with_a_new_code(servers, tmp_path: Path) -> None:
    settings = servers.settings()
    host = NetTable.host(name="Ann", game_name="Across homes", rules=Rules(),
                         plan=plan_from_text("random,open,open", me="Ann"), directory=tmp_path / "ann", listen=LOOP,
                         discovery=False, timing=FAST, invite=settings)
    async with host:
        codes: list[str] = []

        async def pair() -> invite.Pairing:
            codes.append(await _code_of(host, tuple(codes)))
            return await invite.accept(settings, codes[-1], wait=LIMIT)

        bob = NetTable.join(host.game_id, name="Bob", bot="random", directory=tmp_path / "bob", listen=None,
                            discovery=False, timing=FAST, pairings=[await pair()])
        cleo = NetTable.join(host.game_id, name="Cleo", bot="random", directory=tmp_path / "cleo", listen=None,
                             discovery=False, timing=FAST, pairings=[await pair()])
        async with cleo:
            async with bob:
                await until([host.peer, bob.peer, cleo.peer], lambda: min(g.session.have for g in (host, bob, cleo)) >= 12)
                seat = bob.my_seats[0]
            # Bob's laptop is gone; it comes back from its save, through a pairing made by the next code
            # (as Ann sees it: her code brought Bob)
            await until([host.peer], lambda: seat in host.away())
            assert bob.path is not None
            back = NetTable.resume(bob.path, listen=None, discovery=False, timing=FAST, pairings=[await pair()])
            async with back:
                assert back.my_seats == [seat]
                games = [host, cleo, back]
                await until([g.peer for g in games], lambda: all(g.status == "finished" for g in games), LIMIT * 3)
                await until([g.peer for g in games], lambda: len({g.session.have for g in games}) == 1)
    assert host.path.read_bytes() == cleo.path.read_bytes() == back.path.read_bytes()  # type: ignore[union-attr]


async def _hostile_inviter(servers, message: bytes, codes: asyncio.Queue[str]) -> None:
    """A laptop that allocates a code and, once paired, says *message* instead of naming a game."""
    from carcnet.net.reactor import call

    w = await call(invite._create, servers.settings())
    try:
        await call(w.allocate_code)
        await codes.put(await call(w.get_code))
        await call(w.get_verifier)
        await call(w.get_message)
        await call(w.send_message, message)
        await asyncio.Event().wait()  # held open until the test cancels it
    finally:
        await call(w.close)


@pytest.mark.parametrize("message", [b"not json", b'{"carcnet": 2, "game": "' + b"ab" * 16 + b'"}',
                                     b'{"carcnet": 1, "game": "not a game id"}',
                                     b'{"carcnet": 1, "game": "' + b"ab" * 16 + b'", "name": "' + b"x" * 5000 + b'"}'],
                         ids=["junk", "another-version", "no-game", "too-long"])
async def test_what_the_other_laptop_says_is_checked_and_anything_else_refused_in_one_line(servers, message) -> None:
    codes: asyncio.Queue[str] = asyncio.Queue()
    hostile = asyncio.create_task(_hostile_inviter(servers, message, codes))
    try:
        code = await asyncio.wait_for(codes.get(), LIMIT)
        with pytest.raises(invite.InviteError) as refused:
            await invite.accept(servers.settings(), code, wait=LIMIT)
        assert refused.value.reason == "refused" and "\n" not in str(refused.value)
    finally:
        hostile.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await hostile


async def test_laptops_that_sat_down_by_code_are_introduced_and_go_on_when_the_host_leaves(
        servers, tmp_path: Path) -> None:
    settings = servers.settings()
    host = _inviting_host(tmp_path, settings)
    async with host:
        codes: list[str] = []
        players = []
        for name in ("Bob", "Cleo"):
            codes.append(await _code_of(host, tuple(codes)))
            pairing = await invite.accept(settings, codes[-1], wait=LIMIT)
            players.append(NetTable.join(host.game_id, name=name, bot="random", directory=tmp_path / name,
                                         listen=None, discovery=False, timing=FAST, pairings=[pairing], bot_delay=0.01))
        bob, cleo = players
        async with bob, cleo:
            peers = [host.peer, bob.peer, cleo.peer]
            # Ann introduced them: each holds a link to the other, not through her
            await until(peers, lambda: bob.session.connections.link_to(cleo.session.identity.public) is not None, LIMIT)
            await until(peers, lambda: min(g.session.have for g in (host, bob, cleo)) >= 20, LIMIT)
            await host.aclose()  # Ann leaves: her seat is given up and played by a bot of one of theirs
            await until([bob.peer, cleo.peer], lambda: bob.status == cleo.status == "finished", LIMIT * 4)
            await until([bob.peer, cleo.peer], lambda: bob.session.have == cleo.session.have, LIMIT)
            assert bob.session.digest == cleo.session.digest


async def test_a_player_who_sat_down_by_code_hands_out_codes_too_and_introduces_the_newcomer(
        servers, tmp_path: Path) -> None:
    settings = servers.settings()
    host = _inviting_host(tmp_path, settings)
    async with host:
        bob = NetTable.join(host.game_id, name="Bob", bot="random", directory=tmp_path / "bob", listen=None,
                            discovery=False, timing=FAST, bot_delay=0.01, invite=settings,
                            pairings=[await invite.accept(settings, await _code_of(host), wait=LIMIT)])
        async with bob:
            # Cleo sits down with Bob's code; Bob introduces her to Ann
            cleo = NetTable.join(host.game_id, name="Cleo", bot="random", directory=tmp_path / "cleo", listen=None,
                                 discovery=False, timing=FAST, bot_delay=0.01,
                                 pairings=[await invite.accept(settings, await _code_of(bob), wait=LIMIT)])
            async with cleo:
                games = [host, bob, cleo]
                peers = [g.peer for g in games]
                await until(peers, lambda: cleo.session.connections.link_to(host.session.identity.public) is not None,
                            LIMIT)
                await until(peers, lambda: all(g.status == "finished" for g in games), LIMIT * 4)
                await until(peers, lambda: len({g.session.have for g in games}) == 1)
    assert host.path.read_bytes() == bob.path.read_bytes() == cleo.path.read_bytes()  # type: ignore[union-attr]


async def test_an_introduction_must_name_a_one_off_code_and_whether_to_dial(servers) -> None:
    host, guest = await _paired(servers.settings())
    heard: asyncio.Queue[tuple[str, bool]] = asyncio.Queue()
    try:
        await host.serve_intros(lambda code, dial: heard.put_nowait((code, dial)))
        await guest.introduce("7-crossover-clockwork", dial=True)  # a code read out: not a one-off one
        await guest.introduce("123456789012-" + "ab" * 17, dial=True)  # too short by two hex digits
        good = invite.introduction_code()
        await guest.introduce(good, dial=False)
        assert await asyncio.wait_for(heard.get(), LIMIT) == (good, False)  # only the well-formed one
        assert heard.empty()
    finally:
        await guest.close()
        await host.close()


async def test_a_player_on_the_lan_and_one_elsewhere_are_introduced_and_go_on_when_the_host_leaves(
        servers, tmp_path: Path) -> None:
    """Bob found the table on the LAN (here: by its address), Cleo sat down with Ann's code: Ann
    introduces them with a ``meet`` over her direct connection to Bob (wire.md §4.12) and the same
    one-off code over her pairing with Cleo; when Ann leaves mid-game, the two finish the game
    together, over their own pairing."""
    settings = servers.settings()
    host = _inviting_host(tmp_path, settings)
    async with host:
        # Bob dials Ann and listens nowhere (here every address is reachable from every laptop:
        # between homes, Cleo could not reach Bob's LAN address either)
        bob = NetTable.join(host.game_id, name="Bob", bot="random", directory=tmp_path / "bob", listen=None,
                            dial=[("127.0.0.1", host.peer.port)], discovery=False, timing=FAST,  # type: ignore[union-attr]
                            bot_delay=0.01)
        cleo = NetTable.join(host.game_id, name="Cleo", bot="random", directory=tmp_path / "cleo", listen=None,
                             discovery=False, timing=FAST, bot_delay=0.01,
                             pairings=[await invite.accept(settings, await _code_of(host), wait=LIMIT)])
        async with bob, cleo:
            peers = [host.peer, bob.peer, cleo.peer]

            def linked() -> bool:
                link = bob.session.connections.link_to(cleo.session.identity.public)
                return link is not None and link.remote is None  # over a pairing: neither listens

            await until(peers, linked, LIMIT)
            assert bob.invites is not None and bob.invites.servers is None  # Bob hands out no code
            await until(peers, lambda: min(g.session.have for g in (host, bob, cleo)) >= 20, LIMIT)
            await host.aclose()
            await until([bob.peer, cleo.peer], lambda: bob.status == cleo.status == "finished", LIMIT * 4)
            await until([bob.peer, cleo.peer], lambda: bob.session.have == cleo.session.have, LIMIT)
            assert bob.session.digest == cleo.session.digest
