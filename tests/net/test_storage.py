"""Player peers saving their logs as they grow: identical, verifiable files; resume after every peer
stopped (issue 5, items 4 and 7)."""

from __future__ import annotations

import asyncio

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


class _Watched(RecorderLog):
    """A peer's real log, noting in one shared list when it saves, syncs and sends."""

    def __init__(self, recorder, events: list, name: str) -> None:
        super().__init__(recorder)
        self.events, self.name = events, name
        self.durable = asyncio.Event()
        self.loop = asyncio.get_running_loop()

    def on_append(self, signed) -> None:
        super().on_append(signed)
        self.events.append((self.name, "append", signed.seq))
        self.durable.clear()

    def sync(self) -> None:  # on the loop (own entries) or in a worker thread (received ones)
        super().sync()
        if self.recorder.unsynced == 0:
            self.loop.call_soon_threadsafe(self.durable.set)
        self.events.append((self.name, "sync", len(self.recorder.entries)))


@pytest.mark.asyncio
async def test_own_entries_are_on_disk_before_they_are_sent_and_received_ones_soon_after(tmp_path, monkeypatch):
    """log.md §9: an entry a peer signs is fsynced before any frame carrying it is queued; an entry it
    receives is written before it counts and fsynced in the background, so every save ends durable."""
    from carcnet.net.link import Link

    events: list = []
    header = make_header(3)
    stores = [_Watched(RecorderLog.create(header, tmp_path / f"p{i}.carclog").recorder, events, f"P{i}")
              for i in range(3)]
    sending = Link.queue

    saved = {store.name: store for store in stores}

    def queue(link, frame):
        name = link._owner.name  # the peer whose connections queue it
        events.append((name, "send", len(saved[name].recorder.entries)))
        sending(link, frame)

    monkeypatch.setattr(Link, "queue", queue)
    async with LoopbackGame(header) as table:
        peers = []
        for i in range(3):
            peers.append(await table.player(f"P{i}", [i], dial=peers, store=stores[i]))  # type: ignore[arg-type]
        await all_over(peers)
        for store in stores:
            await asyncio.wait_for(store.durable.wait(), 10)
    own = {(p.session.name, s.seq) for p in peers for s in p.session.entries if s.entry.seat in p.session.seats}
    assert own
    for name, seq in own:
        mine = [e for e in events if e[0] == name]
        at = mine.index((name, "append", seq))
        after = [e for e in mine[at + 1:] if e[1] in ("sync", "send")]
        assert after[0][1] == "sync" and after[0][2] >= seq, (name, seq, after[:2])
    received = len(peers[0].session.entries) - sum(1 for n, _ in own if n == "P0")
    syncs = sum(1 for e in events if e[:2] == ("P0", "sync"))
    assert syncs < len(peers[0].session.entries), "received entries are fsynced together, not one by one"
    assert received > 0
    for store in stores:
        assert store.recorder.unsynced == 0
        store.close()
    assert len(load(tmp_path / "p1.carclog").entries) == len(peers[0].session.entries)
