"""Whole LAN games through :class:`carcnet.table.NetTable` on loopback: a host opens a table, bot players
join by address, a spectator watches; the commitments, table draws, play to the end, logs on disk;
resume."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from carcnet.engine import RULES_VERSION, DrawTile, MeepleDeployed, Phase, PointsScored, Rules, SegmentKind
from carcnet.engine.expansions import traders
from carcnet.engine.tiles import tile_kind
from carcnet.log import load
from carcnet.table import NetTable, plan_from_text
from carcnet.table.lan import keys_path
from carcnet.engine.expansions.river import river_end

from .loopback import FAST, LIMIT, takeover_taker, until

pytestmark = pytest.mark.asyncio

LOOP = ("127.0.0.1", 0)


async def _all(games: list[NetTable], predicate, timeout: float = LIMIT * 3) -> None:
    """Waits until *predicate(game)* holds for every game at once, checked after every change of any
    of them (a predicate may compare games: one peer's last change can make another's true)."""
    await until([g.peer for g in games], lambda: all(predicate(g) for g in games), timeout)  # type: ignore[misc]


async def _play_table(tmp_path: Path, rules: Rules, seats: str = "greedy,open,open") -> list[NetTable]:
    host = NetTable.host(
        name="Ann", game_name="Loopback", rules=rules, plan=plan_from_text(seats, me="Ann"),
        directory=tmp_path / "host", listen=LOOP, discovery=False, timing=FAST,
    )
    async with host:
        address = ("127.0.0.1", host.peer.port)  # type: ignore[union-attr]
        joiners = [
            NetTable.join(host.game_id, name=n, bot="random", directory=tmp_path / n, listen=LOOP, dial=[address],
                         discovery=False, timing=FAST)
            for n in ("Bob", "Cleo")[: seats.split(",").count("open")]  # one a seat: one more would
        ]  # be refused or not by how fast the first claims (no-seat after, a seatless watcher before)
        watcher = NetTable.spectate(host.game_id, name="Eve", directory=tmp_path / "Eve", dial=[address],
                                   discovery=False, timing=FAST)
        games = [host, *joiners, watcher]
        async with contextlib.AsyncExitStack() as stack:
            for peer in [*joiners, watcher]:
                await stack.enter_async_context(peer)
            await _all(games, lambda g: g.status == "finished")
            await _all(games, lambda g: g.session.have == host.session.have)
        return games


async def test_a_table_fills_commits_draws_together_and_plays_to_the_end(tmp_path: Path) -> None:
    games = await _play_table(tmp_path, Rules())
    host = games[0]
    header = host.header
    assert header is not None and header.nonces is None and header.header.seed is None and len(header.keys) == 3
    assert header.header.draws is not None and header.header.format == 3  # wire.md §5.3: chain roots
    draws = [e for e in host.session.entries if isinstance(e.entry.move, DrawTile)]
    assert len(draws) == Rules().pile_size() and all(e.sig is None for e in draws)  # every tile, by the table
    assert all(None not in e.entry.move.values for e in draws)  # every seat contributed to every draw
    assert [s.player for s in header.header.seats] == ["bot", "bot", "bot"]
    paths = [g.path for g in games]
    assert all(p is not None and p.exists() for p in paths)
    data = {p.read_bytes() for p in paths}  # type: ignore[union-attr]
    assert len(data) == 1, "every peer saved the same bytes"
    loaded = load(paths[0])  # type: ignore[arg-type]
    assert loaded.damage is None and len(loaded.entries) == host.session.have
    assert loaded.game.digest == host.session.digest
    # Players keep their seat keys beside the log (to resume); the spectator has none.
    for g in games[:3]:
        assert keys_path(g.path).exists()  # type: ignore[arg-type]
    assert not keys_path(games[3].path).exists()  # type: ignore[arg-type]


async def test_the_river_and_the_abbot_over_the_network(tmp_path: Path) -> None:
    """Issue 6: the LAN game works with both expansions (options travel in the lobby and header)."""
    rules = Rules(river=True, abbot=True, river_start="omit")
    games = await _play_table(tmp_path, rules, "greedy,open,greedy")
    header = games[0].header
    assert header is not None and header.header.options == rules
    game = games[-1].game  # the spectator's copy
    assert game is not None and game.setup.rules == rules
    assert {g.session.digest for g in games} == {games[0].session.digest}
    tiles = [m.tile for m in game.moves if hasattr(m, "tile")]
    river = [i for i, t in enumerate(tiles) if tile_kind(t).has_river]
    assert river and river == list(range(len(river))), tiles[:14]  # the river first (a tile may be set aside)


async def test_inns_and_cathedrals_over_the_network(tmp_path: Path) -> None:
    """Issue 33: Inns & Cathedrals with The River and The Abbot at a network table: the option travels
    in the lobby and the header (rules 4), the table draws the expansion's tiles like any other, the
    joiner's random bot deploys its large meeple, every peer (the spectator too) ends on the same
    digest."""
    from carcnet.engine import DeployMeeple, Figure

    rules = Rules(river=True, abbot=True, inns=True)
    games, game = await _expansion_table(tmp_path, rules)
    draws = [e for e in games[0].session.entries if isinstance(e.entry.move, DrawTile)]
    assert len(draws) == rules.pile_size()  # the 18 tiles of the expansion among the table's draws
    from carcnet.engine.events import TileDrawn

    drawn = [e.tile for e in game.events if isinstance(e, TileDrawn)]
    assert sum(t.startswith("IC") for t in drawn) == 18  # every tile of the expansion was drawn
    assert any(isinstance(m, DeployMeeple) and m.figure is Figure.LARGE for m in game.moves)


async def _expansion_table(tmp_path: Path, rules: Rules):  # type: ignore[no-untyped-def]
    """A table of a greedy bot and two players with *rules*, and a spectator, played to the end: the
    option travels in the lobby and the header (rules 4), every peer ends on one digest; the peers
    and the spectator's game."""
    games = await _play_table(tmp_path, rules, "greedy,open,open")
    header = games[0].header
    assert header is not None and header.header.options == rules and header.header.rules == RULES_VERSION
    assert {g.session.digest for g in games} == {games[0].session.digest}
    game = games[-1].game  # the spectator's copy
    assert game is not None and game.setup.rules == rules and game.phase is Phase.GAME_OVER
    return games, game


async def test_traders_and_builders_over_the_network(tmp_path: Path) -> None:
    """Issue 33: Traders & Builders (with Inns & Cathedrals) at a network table: the option travels in
    the lobby and the header, the table draws every tile (a builder's second tile like any other),
    every peer and the spectator end on the same digest, the goods and scores alike."""
    rules = Rules(inns=True, traders=True)
    games, game = await _expansion_table(tmp_path, rules)
    draws = [e for e in games[0].session.entries if isinstance(e.entry.move, DrawTile)]
    assert len(draws) == rules.pile_size()
    # each seat holds the goods of the cities it completed, as the log's events say (a game whose
    # completed cities had none, random seats playing, holds none)
    from carcnet.engine.events import GoodsTaken

    taken = [[0, 0, 0] for __ in range(3)]
    for event in game.events:
        if isinstance(event, GoodsTaken):
            assert event.goods == event.feature.goods and any(event.goods)
            taken[event.seat] = [a + b for a, b in zip(taken[event.seat], event.goods, strict=True)]
    assert traders.goods(game) == taken


@pytest.mark.parametrize(
    "rules",
    [Rules(small_city=True, farms="city"), Rules(river=True, river_start="river", farms="off")],
    ids=["small-city-first-edition-farms", "start-among-the-river-no-farmers"],
)
async def test_the_editions_variants_over_the_network(tmp_path: Path, rules: Rules) -> None:
    """Issue 16: the variants travel in the lobby and the header, and every peer plays by them."""
    games = await _play_table(tmp_path, rules, "greedy,open,greedy")
    header = games[0].header
    assert header is not None and header.header.options == rules
    assert {g.session.digest for g in games} == {games[0].session.digest}
    game = games[-1].game  # the spectator's copy
    assert game is not None and game.setup.rules == rules and game.phase is Phase.GAME_OVER
    farmers = [e for e in game.events if isinstance(e, MeepleDeployed) and e.kind is SegmentKind.FIELD]
    farm_points = [e for e in game.events if isinstance(e, PointsScored) and e.category == "field"]
    if rules.farms == "off":
        assert not farmers and not farm_points
    else:
        assert farmers and all(e.farmers and e.points == 4 for e in farm_points)
    if rules.river:
        assert river_end(game) is None  # the whole river placed, the start tile among it


async def test_search_bots_play_a_network_game_off_the_event_loop(tmp_path: Path) -> None:
    """Issue 17: the host's search bot and a joiner's think in worker threads (the peers keep
    answering meanwhile) with the table's cap, say so through ``thinking``, and finish the game."""
    host = NetTable.host(
        name="Ann", game_name="Search", rules=Rules(river=True), plan=plan_from_text("easy,open", me="Ann"),
        directory=tmp_path / "host", listen=LOOP, discovery=False, timing=FAST,
    )
    seen: list[tuple[str, int | None]] = []
    host.add_listener(lambda change: seen.append(("Ann", host.thinking[0] if host.thinking else None))
                      if change == "thinking" else None)
    async with host:
        bob = NetTable.join(host.game_id, name="Bob", bot="easy", directory=tmp_path / "bob", listen=LOOP,
                            dial=[("127.0.0.1", host.peer.port)], discovery=False, timing=FAST)  # type: ignore[union-attr]
        bob.add_listener(lambda change: seen.append(("Bob", bob.thinking[0] if bob.thinking else None))
                         if change == "thinking" else None)
        async with bob:
            await _all([host, bob], lambda g: g.status == "finished")
            assert host.session.digest == bob.session.digest
    assert ("Ann", 0) in seen and ("Bob", 1) in seen and seen[-1][1] is None
    assert host.think_cap == bob.think_cap == NetTable.THINK_CAP and host.thinking is None


async def test_a_game_resumes_on_the_network_after_every_peer_stopped(tmp_path: Path) -> None:
    host = NetTable.host(
        name="Ann", game_name="Resume", rules=Rules(), plan=plan_from_text("greedy,open", me="Ann"),
        directory=tmp_path / "a", listen=LOOP, discovery=False, timing=FAST,
    )
    async with host:
        address = ("127.0.0.1", host.peer.port)  # type: ignore[union-attr]
        bob = NetTable.join(host.game_id, name="Bob", bot="greedy", directory=tmp_path / "b", listen=LOOP,
                           dial=[address], discovery=False, timing=FAST)
        async with bob:
            await _all([host, bob], lambda g: g.session.have >= 20)
    cut = [host.session.have, bob.session.have]
    assert host.path is not None and bob.path is not None
    # Both stopped mid-game; both come back from their files, Bob dialing Ann's new port.
    again = NetTable.resume(host.path, listen=LOOP, discovery=False, timing=FAST)
    async with again:
        assert again.session.have == cut[0] and again.my_seats == [0]
        assert again.session.name == "Ann" and again.seats[0].name == "Greedy 1"  # issue 12 item 8: the owner's name
        address = ("127.0.0.1", again.peer.port)  # type: ignore[union-attr]
        bob2 = NetTable.resume(bob.path, listen=LOOP, dial=[address], discovery=False, timing=FAST)
        async with bob2:
            await _all([again, bob2], lambda g: g.status == "finished")
            await _all([again, bob2], lambda g: g.session.have == again.session.have)
    assert again.path.read_bytes() == bob2.path.read_bytes()  # type: ignore[union-attr]
    assert load(again.path).game.digest == again.session.digest  # type: ignore[arg-type]


async def _three(tmp_path: Path, reveal_wait: float | None = None) -> tuple[NetTable, NetTable, NetTable,
                                                                         tuple[str, int]]:
    host = NetTable.host(
        name="Ann", game_name="Away", rules=Rules(), plan=plan_from_text("random,open,open", me="Ann"),
        directory=tmp_path / "a", listen=LOOP, discovery=False, timing=FAST, reveal_wait=reveal_wait,
    )
    return host, *(
        NetTable.join(host.game_id, name=n, bot="random", directory=tmp_path / n, listen=LOOP, discovery=False,
                     timing=FAST, reveal_wait=reveal_wait)
        for n in ("Bob", "Cleo")
    ), LOOP  # type: ignore[return-value]


async def test_a_player_who_drops_is_away_the_game_waits_and_they_rejoin_by_their_seat_key(tmp_path: Path) -> None:
    host, bob, cleo, _ = await _three(tmp_path)
    async with host:
        address = ("127.0.0.1", host.peer.port)  # type: ignore[union-attr]
        bob.dial(*address)
        cleo.dial(*address)
        async with cleo:
            async with bob:
                await _all([host, bob, cleo], lambda g: g.session.have >= 12)
                bob_seat = bob.my_seats[0]
            # Bob's peer is gone: everyone shows him away, and play stops at the next draw, which
            # needs his value, or at his turn (wire.md §5.7).
            await _all([host, cleo], lambda g: bob_seat in g.away() and bob_seat in g.blocking())
            held = host.session.have
            assert cleo.session.have == held and cleo.away() == [bob_seat]
            assert bob.path is not None
            back = NetTable.resume(bob.path, listen=LOOP, dial=[address], discovery=False, timing=FAST)
            async with back:
                assert back.my_seats == [bob_seat] and back.session.have <= held
                await _all([host, cleo, back], lambda g: g.status == "finished")
                await _all([host, cleo, back], lambda g: g.session.have == host.session.have)
                assert host.away() == [] or bob_seat not in host.away()
    assert host.path.read_bytes() == cleo.path.read_bytes() == back.path.read_bytes()  # type: ignore[union-attr]


async def test_the_table_hands_a_seat_whose_player_is_gone_to_a_bot(tmp_path: Path) -> None:
    from carcnet.engine import HandOver

    host, bob, cleo, _ = await _three(tmp_path, reveal_wait=0.2)
    async with host:
        address = ("127.0.0.1", host.peer.port)  # type: ignore[union-attr]
        bob.dial(*address)
        cleo.dial(*address)
        async with cleo:
            async with bob:
                await _all([host, bob, cleo], lambda g: g.session.have >= 8)
                bob_seat = bob.my_seats[0]
            await _all([host, cleo], lambda g: bob_seat in g.blocking() and bob_seat in g.away())
            # at a draw, his value has to be missing for the wait first (wire.md §5.6 "Which seats")
            await _all([cleo], lambda g: g.seat_to_hand_over() == bob_seat)
            # made by the table's taker: Cleo, or the host she asks (wire.md §5.6 "Who makes the handover")
            taker = cleo if cleo.hand_over(bob_seat, "greedy") is None else host
            await _all([host, cleo], lambda g: g.game is not None and g.game.handovers[bob_seat] is not None)
            assert taker.my_seats == sorted([*taker.session.seats, bob_seat])
            await _all([host, cleo], lambda g: g.status == "finished")
            await _all([host, cleo], lambda g: g.session.have == host.session.have)
    log = load(host.path)  # type: ignore[arg-type]
    handovers = [e for e in log.entries if isinstance(e.move, HandOver)]
    assert len(handovers) == 1 and handovers[0].move.seat == bob_seat and handovers[0].seat == handovers[0].move.by
    later = [e for e in log.entries if e.seq > handovers[0].seq and e.seat == bob_seat]
    assert later, "the bot played Bob's seat after the handover"
    assert log.game.handovers[bob_seat] is not None and log.game.tiles_left == 0
    assert host.path.read_bytes() == cleo.path.read_bytes()  # type: ignore[union-attr]
    # A resumed peer of the taker plays the handed-over seat again with its bot.
    again = NetTable.resume(taker.path, listen=LOOP, discovery=False, timing=FAST)  # type: ignore[arg-type]
    # (the bot Cleo chose, or the one the header names for his seat when the host made it on her ask)
    assert bob_seat in again.my_seats and again.bot_names[bob_seat] == handovers[0].move.bot
    again.recorder.close()  # type: ignore[union-attr]


async def test_a_table_of_the_hosts_own_seats_starts_at_once_and_spectators_watch(tmp_path: Path) -> None:
    host = NetTable.host(
        name="Ann", game_name="Bots only", rules=Rules(), plan=plan_from_text("random,greedy", me="Ann"),
        directory=str(tmp_path / "a"), listen=LOOP, discovery=False, timing=FAST,
    )
    async with host:
        assert host.header is not None and host.header.header.draws is not None  # chain roots of its own seats
        watcher = NetTable.spectate(host.game_id, name="Eve", directory=tmp_path / "e",
                                   dial=[("127.0.0.1", host.peer.port)], discovery=False, timing=FAST)  # type: ignore[union-attr]
        async with watcher:
            await _all([host, watcher], lambda g: g.session.have >= 1 and bool(g.session.connections.open_links()))
            if host.status == "playing":  # wire.md §5.7: every draw is the host's laptop's to compute
                assert host.draws_known_to() == "you" and watcher.draws_known_to() in ("Ann", None)
            await _all([host, watcher], lambda g: g.status == "finished" and g.session.have == host.session.have)
    assert host.path.read_bytes() == watcher.path.read_bytes()  # type: ignore[union-attr]


async def test_paced_bots_still_play_every_turn(tmp_path: Path) -> None:
    """A bot delay (so people can follow) pauses each bot turn once; the game still ends identical."""
    host = NetTable.host(
        name="Ann", game_name="Paced", rules=Rules(), plan=plan_from_text("random,open", me="Ann"),
        directory=tmp_path / "a", listen=LOOP, discovery=False, timing=FAST, bot_delay=0.001,
    )
    async with host:
        bob = NetTable.join(host.game_id, name="Bob", bot="random", directory=tmp_path / "b", listen=LOOP,
                           dial=[("127.0.0.1", host.peer.port)], discovery=False, timing=FAST, bot_delay=0.001)  # type: ignore[union-attr]
        async with bob:
            await _all([host, bob], lambda g: g.status == "finished" and g.session.have == host.session.have)
    assert host.path.read_bytes() == bob.path.read_bytes()  # type: ignore[union-attr]


async def test_players_learn_that_the_host_closed_the_table_before_the_start(tmp_path: Path) -> None:
    host = NetTable.host(
        name="Ann", game_name="Short", rules=Rules(), plan=plan_from_text("greedy,open,open", me="Ann"),
        directory=tmp_path / "a", listen=LOOP, discovery=False, timing=FAST,
    )
    async with host:
        bob = NetTable.join(host.game_id, name="Bob", bot="random", directory=tmp_path / "b", listen=LOOP,
                           dial=[("127.0.0.1", host.peer.port)], discovery=False, timing=FAST)  # type: ignore[union-attr]
        await bob.__aenter__()
        try:
            await bob.wait_until(lambda: bob.lobby is not None and bob.my_seats == [] and bob.status == "lobby", LIMIT)
            await bob.wait_until(lambda: any(s is not None and s.seat.name == "Bob" for s in bob.lobby.table), LIMIT)  # type: ignore[union-attr]
            host.close()
            await bob.wait_until(lambda: bob.failure is not None, LIMIT)
            assert "closed the table" in bob.failure and bob.header is None  # type: ignore[operator]
        finally:
            await bob.aclose()


async def test_a_spectator_that_comes_back_keeps_one_complete_save(tmp_path: Path) -> None:
    """issue 12 item 5: a spectator stopped mid-game and started again on the same laptop continues its
    own save of the game (a valid prefix of the table's log) instead of refusing to save."""
    host = NetTable.host(
        name="Ann", game_name="Back", rules=Rules(), plan=plan_from_text("greedy,open", me="Ann"),
        directory=tmp_path / "a", listen=LOOP, discovery=False, timing=FAST, bot_delay=0.005,
    )
    async with host:
        address = ("127.0.0.1", host.peer.port)  # type: ignore[union-attr]
        bob = NetTable.join(host.game_id, name="Bob", bot="greedy", directory=tmp_path / "b", listen=LOOP,
                            dial=[address], discovery=False, timing=FAST, bot_delay=0.005)
        async with bob:
            first = NetTable.spectate(host.game_id, name="Eve", directory=tmp_path / "e", dial=[address],
                                      discovery=False, timing=FAST)
            async with first:
                await _all([host, first], lambda g: g.session.have >= 20)
            cut = first.session.have
            assert cut < 142 and len(load(first.path).entries) == cut  # type: ignore[arg-type]
            again = NetTable.spectate(host.game_id, name="Eve", directory=tmp_path / "e", dial=[address],
                                      discovery=False, timing=FAST)
            async with again:
                await _all([host, again], lambda g: g.status == "finished")
                await _all([host, again], lambda g: g.session.have == host.session.have)
    assert again.path == first.path and len(list((tmp_path / "e").glob("*.carclog"))) == 1
    assert any("its save goes on" in note for note in again.notes), again.notes
    assert again.path.read_bytes() == host.path.read_bytes()  # type: ignore[union-attr]
    saved = load(again.path)  # type: ignore[arg-type]
    assert saved.damage is None and saved.game.tiles_left == 0


async def test_a_spectator_that_came_in_by_address_in_the_lobby_fails_over(tmp_path: Path) -> None:
    """wire.md §4.10: Eve dials the host by address while the table is still empty, so its welcome
    lists nobody; as Bob and Cleo sit down the host tells her where they listen (``peers``), and when
    the host's laptop goes she follows the game through one of them, to the end."""
    host = NetTable.host(
        name="Ann", game_name="Early", rules=Rules(), plan=plan_from_text("open,open", me="Ann"),
        directory=tmp_path / "a", listen=LOOP, discovery=False, timing=FAST,
    )
    async with host:
        address = ("127.0.0.1", host.peer.port)  # type: ignore[union-attr]
        eve = NetTable.spectate(host.game_id, name="Eve", directory=tmp_path / "e", dial=[address],
                                discovery=False, timing=FAST)
        async with eve:
            await _all([host, eve], lambda g: eve.session.connections.open_links() != [])
            book = eve.session.connections.addresses.entries
            assert set(book) == {host.session.identity.public}  # the one she dialled: the welcome listed nobody
            players = [
                NetTable.join(host.game_id, name=n, bot="greedy", directory=tmp_path / n, listen=LOOP,
                              dial=[address], discovery=False, timing=FAST, bot_delay=0.005)
                for n in ("Bob", "Cleo")
            ]
            async with players[0], players[1]:
                keys = {p.session.identity.public for p in players}
                await _all([eve, *players], lambda g: eve.session.have >= 6 and keys <= set(book))
                assert {link.name for link in eve.session.connections.open_links()} == {"Ann"}
                await host.aclose()  # the host's laptop goes: Eve's only link ends
                await _all([eve, *players], lambda g: g.status == "finished")
                await _all([eve, *players], lambda g: g.session.have == players[0].session.have)
    assert eve.session.digest == players[0].session.digest
    assert any(note.startswith("Watching through ") for note in eve.notes), eve.notes


async def test_a_spectator_fails_over_to_another_player_when_its_peer_goes(tmp_path: Path) -> None:
    """issue 12 item 2: a spectator that dialed only the host keeps the players the host's welcome
    listed, and follows the game through one of them once the host is gone, to the end."""
    host = NetTable.host(
        name="Ann", game_name="Failover", rules=Rules(), plan=plan_from_text("open,open", me="Ann"),
        directory=tmp_path / "a", listen=LOOP, discovery=False, timing=FAST,
    )
    async with host:
        address = ("127.0.0.1", host.peer.port)  # type: ignore[union-attr]
        players = [
            NetTable.join(host.game_id, name=n, bot="greedy", directory=tmp_path / n, listen=LOOP, dial=[address],
                          discovery=False, timing=FAST, bot_delay=0.005)
            for n in ("Bob", "Cleo")
        ]
        async with players[0], players[1]:
            await _all([host, *players], lambda g: g.status == "playing")
            eve = NetTable.spectate(host.game_id, name="Eve", directory=tmp_path / "e", dial=[address],
                                    discovery=False, timing=FAST)
            async with eve:
                await _all([eve, *players], lambda g: eve.session.have >= 10 and len(eve.session.connections.addresses.entries) >= 2)
                assert {link.name for link in eve.session.connections.open_links()} == {"Ann"}
                await host.aclose()  # the host's laptop goes: Eve's only link ends
                await _all([eve, *players], lambda g: g.status == "finished")
                await _all([eve, *players], lambda g: g.session.have == players[0].session.have)
                assert any(note.startswith("Watching through ") for note in eve.notes), eve.notes
    assert eve.session.digest == players[0].session.digest == players[1].session.digest


async def test_presence_is_the_tables_not_one_connections(tmp_path: Path) -> None:
    """issue 12 item 3: a spectator connected only to the host sees Bob present, because the host's
    heartbeats say it is connected to him (wire.md §4.5); and it sees him away once nobody is."""
    host = NetTable.host(
        name="Ann", game_name="Presence", rules=Rules(), plan=plan_from_text("greedy,open", me="Ann"),
        directory=tmp_path / "a", listen=LOOP, discovery=False, timing=FAST,
    )
    async with host:
        address = ("127.0.0.1", host.peer.port)  # type: ignore[union-attr]
        bob = NetTable.join(host.game_id, name="Bob", directory=tmp_path / "b", listen=LOOP, dial=[address],
                            discovery=False, timing=FAST)  # a person, who never moves
        async with bob:
            await _all([host, bob], lambda g: g.to_play == 1)
            eve = NetTable.spectate(host.game_id, name="Eve", directory=tmp_path / "e", dial=[address],
                                    discovery=False, timing=FAST)
            async with eve:
                await _all([eve, host], lambda g: eve.to_play == 1 and any(link.sees for link in eve.session.connections.open_links()))
                assert {link.name for link in eve.session.connections.open_links()} == {"Ann"}
                assert eve.away() == [] and host.away() == []
                await bob.aclose()
                await _all([eve, host], lambda g: eve.away() == [1])
                assert host.away() == [1]


async def test_a_bot_seat_whose_laptop_is_gone_is_away(tmp_path: Path) -> None:
    """issue 12 item 1 (its first part): the host's bot seat is marked away once the host's laptop is
    gone, as a person's would be (its heartbeats said it plays that seat)."""
    host = NetTable.host(
        name="Ann", game_name="Bots", rules=Rules(), plan=plan_from_text("greedy,open,open", me="Ann"),
        directory=tmp_path / "a", listen=LOOP, discovery=False, timing=FAST,
    )
    async with host:
        address = ("127.0.0.1", host.peer.port)  # type: ignore[union-attr]
        people = [NetTable.join(host.game_id, name=n, directory=tmp_path / n, listen=LOOP, dial=[address],
                                discovery=False, timing=FAST) for n in ("Bob", "Cleo")]
        async with people[0], people[1]:
            await _all([host, *people], lambda g: g.to_play == 1 and g.away() == [])
            await _all(people, lambda g: any(0 in link.seats for link in g.session.connections.open_links()))
            await host.aclose()
            await _all(people, lambda g: g.away() == [0])


@pytest.mark.slow
async def test_a_bot_seat_whose_laptop_is_gone_is_taken_over_and_the_game_ends(tmp_path: Path) -> None:
    """The host runs a bot seat and its laptop goes mid-game; once that seat has been away at its turn
    for the away rule, the remaining player whose seat comes first in the table's tie order hands it to
    a bot (wire.md §5.6) and the game finishes for everyone else with nobody acting."""
    from carcnet.engine import HandOver

    host = NetTable.host(
        name="Ann", game_name="Takeover", rules=Rules(), plan=plan_from_text("greedy,open,open", me="Ann"),
        directory=tmp_path / "a", listen=LOOP, discovery=False, timing=FAST, takeover=0.2,
    )
    async with host:
        address = ("127.0.0.1", host.peer.port)  # type: ignore[union-attr]
        players = [NetTable.join(host.game_id, name=n, bot="random", directory=tmp_path / n, listen=LOOP,
                                 dial=[address], discovery=False, timing=FAST, takeover=0.2, bot_delay=0.002)
                   for n in ("Bob", "Cleo")]
        async with players[0], players[1]:
            await _all([host, *players], lambda g: g.session.have >= 6)
            await host.aclose()  # the laptop that runs seat 0's bot is gone
            await _all(players, lambda g: g.status == "finished", timeout=LIMIT * 6)
            await _all(players, lambda g: g.session.have == players[0].session.have)
            taker = takeover_taker(players, 0)
    assert players[0].session.digest == players[1].session.digest
    handovers = [e.move for e in load(taker.path).entries if isinstance(e.move, HandOver)]  # type: ignore[arg-type]
    assert handovers == [HandOver(0, "greedy", next(s for s in taker.my_seats if s != 0))]
    assert 0 in taker.my_seats and any("seat is played by a greedy bot" in n for n in taker.notes)


def _bot_host(tmp_path: Path, game_name: str) -> NetTable:
    """Ann's table whose seat 0 her bot plays, seats 1 and 2 open; the away rule at 0.2 s."""
    return NetTable.host(
        name="Ann", game_name=game_name, rules=Rules(), plan=plan_from_text("greedy,open,open", me="Ann"),
        directory=tmp_path / "a", listen=LOOP, discovery=False, timing=FAST, takeover=0.2,
    )


def _bots_joining(host: NetTable, tmp_path: Path) -> tuple[NetTable, NetTable]:
    """Bob and Cleo, random bots, sitting down at *host*'s table (running); the away rule at 0.2 s."""
    address = ("127.0.0.1", host.peer.port)  # type: ignore[union-attr]
    bob, cleo = (NetTable.join(host.game_id, name=n, bot="random", directory=tmp_path / n, listen=LOOP,
                               dial=[address], discovery=False, timing=FAST, takeover=0.2, bot_delay=0.002)
                 for n in ("Bob", "Cleo"))
    return bob, cleo


@pytest.mark.slow
async def test_a_runner_restarted_mid_game_still_hands_the_seat_back(tmp_path: Path) -> None:
    """wire.md §5.6 "Coming back", across a restart: the host runs seat 0's bot and leaves; a player
    takes the seat over and then restarts (its laptop rebooted: the game resumed from its save). When
    the host comes back, the restarted runner still knows whose seat it holds and hands it back at its
    next turn; the host's bot plays it to the end."""
    from carcnet.engine import HandBack, HandOver

    host = _bot_host(tmp_path, "Restart")
    async with host:
        bob, cleo = _bots_joining(host, tmp_path)
        async with bob, cleo:
            await _all([host, bob, cleo], lambda g: g.session.have >= 6)
            await host.aclose()  # the host's laptop is gone: the player first in the tie order takes seat 0
            taker = takeover_taker((bob, cleo), 0)
            other = cleo if taker is bob else bob
            await _all([taker, other], lambda g: 0 in taker.my_seats)
            await taker.aclose()  # the runner's laptop restarts: its game is resumed from its save
            there = ("127.0.0.1", other.peer.port)  # type: ignore[union-attr]
            assert host.path is not None and taker.path is not None
            again = NetTable.resume(taker.path, listen=LOOP, dial=[there], discovery=False, timing=FAST,
                                    takeover=0.2, bot_delay=0.02)
            async with again:
                mine = ("127.0.0.1", again.peer.port)  # type: ignore[union-attr]
                back = NetTable.resume(host.path, listen=LOOP, dial=[there, mine], discovery=False, timing=FAST,
                                       takeover=1000, bot_delay=0.02)
                async with back:
                    await _all([again, other, back], lambda g: g.status == "finished", timeout=LIMIT * 6)
                    await _all([again, other, back], lambda g: g.session.have == other.session.have)
    moves = [e.move for e in load(other.path).entries]  # type: ignore[arg-type]
    over = [i for i, m in enumerate(moves) if isinstance(m, HandOver) and m.seat == 0]
    backs = [i for i, m in enumerate(moves) if isinstance(m, HandBack) and m.seat == 0]
    assert len(over) == 1 and len(backs) == 1 and over[0] < backs[0], (over, backs)
    assert 0 in back.my_seats and 0 not in again.my_seats


@pytest.mark.slow
async def test_after_a_restart_of_every_laptop_a_gone_bot_seat_is_still_taken_over(tmp_path: Path) -> None:
    """wire.md §5.6 across a restart: the table stops (every laptop closes: a power cut), and only Bob
    and Cleo resume their saves. The host, which ran seat 0's bot, never comes back: the resumed
    players remember that the host ran it (not a bot of the host's not placed yet), so at its turn
    the seat is away, taken over, and the game ends."""
    from carcnet.engine import HandOver

    host = _bot_host(tmp_path, "Power cut")
    async with host:
        bob, cleo = _bots_joining(host, tmp_path)
        async with bob, cleo:
            await _all([host, bob, cleo], lambda g: g.session.have >= 6)
    assert bob.path is not None and cleo.path is not None
    bob = NetTable.resume(bob.path, listen=LOOP, discovery=False, timing=FAST, takeover=0.2, bot_delay=0.002)
    async with bob:
        there = ("127.0.0.1", bob.peer.port)  # type: ignore[union-attr]
        cleo = NetTable.resume(cleo.path, listen=LOOP, dial=[there], discovery=False, timing=FAST, takeover=0.2,
                               bot_delay=0.002)
        async with cleo:
            await _all([bob, cleo], lambda g: g.status == "finished", timeout=LIMIT * 6)
            await _all([bob, cleo], lambda g: g.session.have == bob.session.have)
    handovers = [e.move for e in load(bob.path).entries if isinstance(e.move, HandOver)]  # type: ignore[arg-type]
    assert [h.seat for h in handovers] == [0], handovers


async def test_a_resumed_player_advertises_the_game_under_its_name(tmp_path: Path) -> None:
    """discovery.md §2: the record names the game as its opener did, whoever advertises it; a player
    that resumes its save (no lobby any more) still does, rather than its seats' names."""
    host = NetTable.host(
        name="Ann", game_name="Friday game", rules=Rules(), plan=plan_from_text("greedy,open", me="Ann"),
        directory=tmp_path / "a", listen=LOOP, discovery=False, timing=FAST,
    )
    async with host:
        address = ("127.0.0.1", host.peer.port)  # type: ignore[union-attr]
        bob = NetTable.join(host.game_id, name="Bob", bot="random", directory=tmp_path / "b", listen=LOOP,
                            dial=[address], discovery=False, timing=FAST, bot_delay=0.002)
        async with bob:
            await _all([host, bob], lambda g: g.session.have >= 4)
    assert bob.path is not None
    again = NetTable.resume(bob.path, listen=LOOP, discovery=False, timing=FAST)
    async with again:
        ad = again._ad()
        assert ad is not None and ad.name == "Friday game", ad


@pytest.mark.slow
async def test_a_player_who_withholds_its_draw_value_is_away_and_its_seat_is_handed_over(tmp_path: Path) -> None:
    """Issue 14: a withheld value makes the table wait and mark the seat away exactly like a player who
    left (wire.md §5.7): Bob stays connected but stops revealing; after the wait his seat shows away
    on every other laptop, Cleo hands it to a bot while the table draws, and the game ends without
    his values."""
    from carcnet.engine import DrawTile, HandOver

    host = NetTable.host(
        name="Ann", game_name="Withhold", rules=Rules(), plan=plan_from_text("random,open,open", me="Ann"),
        directory=tmp_path / "a", listen=LOOP, discovery=False, timing=FAST, reveal_wait=0.3,
    )
    async with host:
        address = ("127.0.0.1", host.peer.port)  # type: ignore[union-attr]
        bob, cleo = (
            NetTable.join(host.game_id, name=n, bot="random", bot_delay=0.01, directory=tmp_path / n, listen=LOOP,
                          dial=[address], discovery=False, timing=FAST, reveal_wait=0.3)
            for n in ("Bob", "Cleo")
        )
        async with bob, cleo:
            await _all([host, bob, cleo], lambda g: g.session.have >= 9)
            bob_seat = bob.my_seats[0]
            # a lying laptop: it keeps its chain to itself (no reveal, and so no draw of its own to relay)
            bob.session.draws.chain = lambda header, seat, key: None  # type: ignore[method-assign]
            await _all([host, cleo], lambda g: bob_seat in g.session.missing() and bob_seat in g.away(),
                       timeout=LIMIT)
            assert bob.session.connections.open_links(), "Bob is still connected: he withholds, he did not leave"
            assert cleo.seat_to_hand_over() == bob_seat
            cleo.hand_over(bob_seat, "greedy")
            await _all([host, cleo], lambda g: g.status == "finished")
            await _all([host, cleo], lambda g: g.session.have == host.session.have)
    assert host.session.digest == cleo.session.digest
    moves = [e.entry.move for e in host.session.entries]
    handover = next(i for i, m in enumerate(moves) if isinstance(m, HandOver))
    assert moves[handover].seat == bob_seat  # type: ignore[union-attr]
    later = [m for m in moves[handover:] if isinstance(m, DrawTile)]
    assert later and all(m.values[bob_seat] is None for m in later)


async def test_hills_and_sheep_over_the_network(tmp_path: Path) -> None:
    """Hills & Sheep at a network table: the option travels in the lobby and the header (rules 6);
    the table draws the sheep bag's tokens as it draws the tiles (deck.md §7: draws numbered with
    the tiles', each asked once the shepherd's deploy or the flock's growth is in the log), so the
    seats' chains are twice the pile; the tiles under hills are never drawn; every peer and the
    spectator end on one digest, shepherds, flocks and scores alike."""
    from carcnet.engine import Figure, TokenDrawn
    from carcnet.engine.events import TileDrawn

    rules = Rules(hills_sheep=True)
    games, game = await _expansion_table(tmp_path, rules)
    draws = [e for e in games[0].session.entries if isinstance(e.entry.move, DrawTile)]
    tiles = [e for e in game.events if isinstance(e, TileDrawn)]
    tokens = [e for e in game.events if isinstance(e, TokenDrawn)]
    assert len(draws) == len(tiles) + len(tokens) <= rules.table_draws()
    assert len(tiles) == rules.pile_size() - game.hidden and game.hidden > 0  # the tiles under hills
    assert tokens and any(isinstance(m, MeepleDeployed) and m.figure is Figure.SHEPHERD for m in game.events)
    assert {g.game.state_line() for g in games if g.game is not None} == {game.state_line()}


async def test_the_princess_and_the_dragon_over_the_network(tmp_path: Path) -> None:
    """The Princess & the Dragon at a network table: the option travels in the lobby and the header
    (rules 6); the dragon's steps are asked of each seat in turn and answered from its own laptop (a
    bot's or a player's), inside the turn of another; the dragon tiles drawn before the first volcano
    wait beside the pile (deck.md §8) and the bag draws every tile once; every peer and the spectator
    end on one digest, the dragon's place, the fairy and the scores alike."""
    from carcnet.engine import DragonMoved
    from carcnet.engine.events import TileDrawn

    rules = Rules(princess_dragon=True)
    games, game = await _expansion_table(tmp_path, rules)
    draws = [e for e in games[0].session.entries if isinstance(e.entry.move, DrawTile)]
    tiles = [e for e in game.events if isinstance(e, TileDrawn)]
    assert len(draws) == len(tiles) <= rules.table_draws()
    assert len(game.board.tiles) - 1 + len(game.set_aside) + len(game.held) == rules.pile_size()
    steps = [e for e in game.events if isinstance(e, DragonMoved) and e.seat is not None]
    assert len({e.seat for e in steps}) >= 2  # seats answered steps of turns not theirs
    authors = {e.entry.seat for e in games[0].session.entries if type(e.entry.move).__name__ == "MoveDragon"}
    assert authors == {e.seat for e in steps}
    assert {g.game.state_line() for g in games if g.game is not None} == {game.state_line()}
