"""Player peers saving their logs as they grow: identical, verifiable files; resume after every peer
stopped (issue 5, items 4 and 7)."""

from __future__ import annotations

import pytest

from carcnet.log import LogError, load
from carcnet.net.storage import RecorderLog

from .loopback import LoopbackGame, all_over, assert_identical, make_header, until


@pytest.mark.asyncio
async def test_every_player_peer_saves_the_same_signed_log(tmp_path):
    header = make_header(3)
    stores = [RecorderLog.create(header, tmp_path / f"p{i}.carclog") for i in range(3)]
    async with LoopbackGame(header) as table:
        peers = []
        for i in range(3):
            peers.append(await table.player(f"P{i}", [i], dial=peers, store=stores[i]))  # type: ignore[arg-type]
        await all_over(peers)
        assert_identical(peers)
    for store in stores:
        store.close()
    files = [(tmp_path / f"p{i}.carclog").read_bytes() for i in range(3)]
    assert files[0] == files[1] == files[2]
    saved = load(tmp_path / "p0.carclog")  # a reader checks every signature and digest
    assert saved.header.signed and saved.game.digest == peers[0].session.digest
    assert all(e.sig is not None for e in saved.entries)


@pytest.mark.asyncio
async def test_a_game_resumes_after_every_peer_stopped(tmp_path):
    header = make_header(3)
    paths = [tmp_path / f"p{i}.carclog" for i in range(3)]
    stores = [RecorderLog.create(header, p) for p in paths]
    async with LoopbackGame(header) as table:
        peers = []
        for i in range(3):
            peers.append(await table.player(f"P{i}", [i], dial=peers, store=stores[i]))  # type: ignore[arg-type]
        await until(peers, lambda: peers[0].session.have >= 40)
    for store in stores:
        store.close()
    # every peer stopped; each re-opens its own file and play continues to the end
    reopened = [RecorderLog.resume(p) for p in paths]
    assert all(len(entries) >= 40 for _, _, entries in reopened)
    async with LoopbackGame(header) as table:
        peers = []
        for i, (store, wire_header, entries) in enumerate(reopened):
            assert wire_header == header
            peers.append(
                await table.player(f"P{i}", [i], dial=peers, entries=entries, store=store)  # type: ignore[arg-type]
            )
        await all_over(peers)
        assert_identical(peers)
    for store, _, _ in reopened:
        store.close()
    assert paths[0].read_bytes() == paths[1].read_bytes() == paths[2].read_bytes()


def test_resume_refuses_a_local_game(tmp_path):
    from carcnet.log import GameRecorder, LogHeader, Seat

    header = LogHeader.new([Seat("Ann", "red"), Seat("Bob", "blue")], seed=1)
    GameRecorder.create(header, tmp_path / "local.carclog").close()
    with pytest.raises(LogError, match="not a network game"):
        RecorderLog.resume(tmp_path / "local.carclog")
