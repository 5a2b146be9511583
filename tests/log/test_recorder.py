"""GameRecorder (protocol/log.md §9): a bot game saved, loaded and replayed gives the same digest
after every move and the same scores; resuming sets a damaged tail aside; a failed write leaves the
game as it was."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from carcnet.bots import RandomBot
from carcnet.engine import GameSetup, IllegalMoveError, Phase, parse_move, replay
from carcnet.log import GameRecorder, LogError, LogHeader, Seat, load
from carcnet.log.store import DATA_DIR_ENV

from .util import record_spans, short_log, write

SEATS = [
    Seat("Ann", "red"),
    Seat("Random 1", "blue", "bot", "random"),
    Seat("Random 2", "green", "bot", "random"),
]


def _bots(seed: int) -> list[RandomBot]:
    return [RandomBot(seed * 31 + seat) for seat in range(len(SEATS))]


def _play(recorder: GameRecorder, bots: list[RandomBot], stop: int | None = None) -> None:
    while recorder.game.phase is not Phase.GAME_OVER and (stop is None or len(recorder.entries) < stop):
        recorder.submit(bots[recorder.game.seat].choose(recorder.game.view()))


def test_bot_game_saved_loaded_and_replayed_agrees_after_every_move(tmp_path: Path):
    header = LogHeader.new(SEATS, seed=20261121)
    with GameRecorder.create(header, tmp_path / "game.carclog") as recorder:
        _play(recorder, _bots(5))
        played = recorder.game
    loaded = load(tmp_path / "game.carclog")
    assert loaded.damage is None and loaded.header == header
    assert len(loaded.entries) == len(played.moves) > 100
    assert [e.digest for e in loaded.entries] == played.digests[1:]
    assert loaded.game.digests == played.digests
    assert [e.seat for e in loaded.entries] == [e.seat for e in recorder.entries]
    # an independent replay of the stored moves, through the engine alone
    again = replay(GameSetup(players=3, seed=20261121), [e.move for e in loaded.entries])
    assert again.digests == played.digests
    assert loaded.game.scores == again.scores == played.scores
    assert loaded.game.phase is Phase.GAME_OVER


def test_bot_game_cut_anywhere_in_its_last_record(tmp_path: Path):
    header = LogHeader.new(SEATS[:2], seed=99)
    with GameRecorder.create(header, tmp_path / "g.carclog") as recorder:
        _play(recorder, _bots(9))
        digests = recorder.game.digests
    data = (tmp_path / "g.carclog").read_bytes()
    start, end = record_spans(data)[-1]
    for cut in range(start + 1, end):
        path = write(tmp_path, data[:cut])
        loaded = load(path)
        assert loaded.damage is not None and loaded.damage.kind == "torn"
        assert loaded.game.digests == digests[:-1]


def test_resume_in_the_middle_continues_the_same_game(tmp_path: Path):
    header = LogHeader.new(SEATS, seed=3, created=0, game="a" * 32)
    with GameRecorder.create(header, tmp_path / "whole.carclog") as whole:
        _play(whole, _bots(3))
    bots = _bots(3)
    with GameRecorder.create(header, tmp_path / "halves.carclog") as first:
        _play(first, bots, stop=51)
    with GameRecorder.resume(tmp_path / "halves.carclog") as second:
        assert second.recovery is None and len(second.entries) == 51
        _play(second, bots)
        assert second.game.digests == whole.game.digests
    assert (tmp_path / "halves.carclog").read_bytes() == (tmp_path / "whole.carclog").read_bytes()


def test_resume_of_a_torn_file_keeps_the_damaged_copy_and_continues(tmp_path: Path):
    path, data = short_log(tmp_path)
    start, _ = record_spans(data)[-1]
    torn = data[: start + 17]
    path.write_bytes(torn)
    (tmp_path / "short.carclog.damaged-1").write_bytes(b"an older one")  # the name is taken
    with GameRecorder.resume(path) as recorder:
        recovery = recorder.recovery
        assert recovery is not None
        assert recovery.damage.kind == "torn" and recovery.damage.seq == 6
        assert recovery.damaged_copy == tmp_path / "short.carclog.damaged-2"
        assert recovery.damaged_copy.read_bytes() == torn
        assert "damaged-2" in recovery.message and "seq 6" in recovery.message
        assert path.read_bytes() == data[:start]
        recorder.submit(parse_move("skip"))  # the move that was being written
    assert path.read_bytes() == data
    assert (tmp_path / "short.carclog.damaged-1").read_bytes() == b"an older one"
    assert load(path).game.phase is Phase.GAME_OVER
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_resume_of_a_corrupt_tail_without_hard_links(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path, data = short_log(tmp_path)
    damaged = bytearray(data)
    damaged[-3] ^= 0xFF
    path.write_bytes(bytes(damaged))

    def no_links(src, dst):
        raise OSError(errno.EPERM, "no hard links here")

    monkeypatch.setattr(os, "link", no_links)
    with GameRecorder.resume(path) as recorder:
        assert recorder.recovery is not None and recorder.recovery.damage.kind == "corrupt-last"
        assert recorder.recovery.damaged_copy.read_bytes() == bytes(damaged)
        assert len(recorder.entries) == 5


def test_resume_refuses_damage_in_the_middle(tmp_path: Path):
    path, data = short_log(tmp_path)
    damaged = bytearray(data)
    damaged[record_spans(data)[2][0] + 20] ^= 0xFF
    path = write(tmp_path, bytes(damaged))
    with pytest.raises(LogError) as info:
        GameRecorder.resume(path)
    assert info.value.seq == 2
    assert path.read_bytes() == bytes(damaged)
    assert not [p for p in tmp_path.iterdir() if "damaged" in p.name or p.name.endswith(".tmp")]


def test_illegal_move_writes_nothing(tmp_path: Path):
    header = LogHeader.new(SEATS[:2], order=("E", "U"))
    with GameRecorder.create(header, tmp_path / "i.carclog") as recorder:
        size = recorder.path.stat().st_size
        with pytest.raises(IllegalMoveError):
            recorder.submit(parse_move("place E 5,5 0"))
        assert recorder.path.stat().st_size == size and recorder.entries == []


class _FailingFile:
    """Wraps the writer's file: writes *keep* bytes of the next record, then raises ENOSPC."""

    def __init__(self, inner, keep: int) -> None:
        self.inner = inner
        self.keep = keep

    def write(self, data: bytes) -> int:
        self.inner.write(data[: self.keep])
        self.inner.flush()
        raise OSError(errno.ENOSPC, "No space left on device")

    def __getattr__(self, name: str):
        return getattr(self.inner, name)


@pytest.mark.parametrize("keep", [0, 5, 30])
def test_write_failure_restores_the_game_and_resume_recovers(tmp_path: Path, keep: int):
    header = LogHeader.new(SEATS[:2], seed=11)
    bots = _bots(11)
    path = tmp_path / "w.carclog"
    recorder = GameRecorder.create(header, path)
    _play(recorder, bots, stop=10)
    before = recorder.game.digests
    move = bots[recorder.game.seat].choose(recorder.game.view())
    recorder.writer._file = _FailingFile(recorder.writer._file, keep)  # type: ignore[assignment]
    with pytest.raises(OSError, match="No space"):
        recorder.submit(move)
    assert recorder.game.digests == before and len(recorder.entries) == 10
    assert recorder.writer.broken
    with pytest.raises(LogError) as info:
        recorder.submit(move)
    assert info.value.reason == "writer-broken"
    assert recorder.game.digests == before
    recorder.close()
    with GameRecorder.resume(path) as again:
        assert (again.recovery is not None) == (keep > 0)
        assert again.game.digests == before
        again.submit(move)
        assert len(again.entries) == 11


def test_fsync_failure_does_not_count_the_move(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    header = LogHeader.new(SEATS[:2], seed=12)
    recorder = GameRecorder.create(header, tmp_path / "f.carclog")
    before = recorder.game.digests
    move = recorder.game.legal_moves()[0]

    def failing_fsync(fd: int) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(OSError, match="Input/output"):
        recorder.submit(move)
    assert recorder.game.digests == before and recorder.entries == []
    recorder.close()


def test_create_without_a_path_uses_the_data_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "data"))
    header = LogHeader.new(SEATS[:2], seed=1, created=1795256100, game="3f2a9c1b" + "0" * 24)
    with GameRecorder.create(header) as recorder:
        assert recorder.path == tmp_path / "data" / "games" / "20261121-101500-3f2a9c1b.carclog"
    assert load(recorder.path).header == header


def test_a_save_has_one_writer(tmp_path: Path):
    """issue 13 item 7: while one recorder appends to a save, a second is refused at once with a
    sentence naming the file and the process; once the first closes, the save resumes whole."""
    header = LogHeader.new([Seat("A", "red", "bot", "random"), Seat("B", "blue", "bot", "random")], seed=3)
    path = tmp_path / "one.carclog"
    with GameRecorder.create(header, path) as first:
        _play(first, _bots(3), stop=10)
        with pytest.raises(LogError, match=rf"one.carclog is being written by another carcnet \(process {os.getpid()}\)") as info:
            GameRecorder.resume(path)
        assert info.value.reason == "locked"
        _play(first, _bots(3), stop=20)  # the first writer goes on, untroubled
    with GameRecorder.resume(path) as again:
        assert len(again.entries) == 20
    assert load(path).damage is None and len(load(path).entries) == 20
