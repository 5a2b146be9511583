"""One writer per save, whatever the path (protocol/log.md §9, carcnet/log/lock.py): the lock is the
save file's own, so a hard link, a symbolic link or a repair's new file is the same lock; and nothing
beside the save is made or followed, so a symbolic link put there truncates nothing."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from carcnet.bots import RandomBot
from carcnet.engine import Phase, parse_move
from carcnet.log import GameRecorder, LogError, LogHeader, LogWriter, Seat, load
from carcnet.log import lock as lock_module
from carcnet.log.lock import SaveLock

from .util import record_spans, short_log

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="no save lock on Windows (carcnet/log/lock.py)")

SEATS = [Seat("A", "red", "bot", "random"), Seat("B", "blue", "bot", "random")]


def _play(recorder: GameRecorder, stop: int) -> None:
    bots = [RandomBot(7), RandomBot(8)]
    while recorder.game.phase is not Phase.GAME_OVER and len(recorder.entries) < stop:
        recorder.submit(bots[recorder.game.seat].choose(recorder.game.view()))


def _save(tmp_path: Path) -> Path:
    path = tmp_path / "one.carclog"
    with GameRecorder.create(LogHeader.new(SEATS, seed=3), path) as first:
        _play(first, 10)
    return path


@pytest.mark.parametrize("link", [os.link, os.symlink], ids=["a hard link", "a symbolic link"])
def test_a_second_writer_through_another_link_is_refused(tmp_path: Path, link) -> None:
    """Two writers through two names of one save both appended, and the save was refused for good
    (``record 102 carries seq 101``): the second is now refused at once, and the first goes on."""
    path = _save(tmp_path)
    other = tmp_path / "elsewhere" / "two.carclog"
    other.parent.mkdir()
    link(path, other)
    with GameRecorder.resume(path) as first:
        with pytest.raises(LogError, match=rf"two.carclog is being written by another carcnet \(process {os.getpid()}\)") as info:
            GameRecorder.resume(other)
        assert info.value.reason == "locked"
        _play(first, 20)
    with GameRecorder.resume(other) as again:  # once the first is closed, through either name
        assert len(again.entries) == 20
    assert load(path).damage is None and len(load(path).entries) == 20


def test_a_writer_creating_a_save_holds_it_from_the_first_byte(tmp_path: Path) -> None:
    path = tmp_path / "new.carclog"
    with GameRecorder.create(LogHeader.new(SEATS, seed=3), path) as first:
        os.link(path, tmp_path / "link.carclog")
        with pytest.raises(LogError, match="being written by another carcnet") as info:
            GameRecorder.resume(tmp_path / "link.carclog")
        assert info.value.reason == "locked"
        _play(first, 4)
    assert len(load(path).entries) == 4


@pytest.mark.parametrize("resume", [False, True], ids=["creating", "resuming"])
def test_a_symbolic_link_beside_the_save_is_not_followed(tmp_path: Path, resume: bool) -> None:
    """A ``<save>.lock`` that is a symbolic link to another file once had that file truncated to a
    process id: no file is made or opened beside the save any more."""
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me\n")
    victim.chmod(0o644)
    path = _save(tmp_path) if resume else tmp_path / "one.carclog"
    (tmp_path / "one.carclog.lock").unlink(missing_ok=True)  # what an older carcnet left
    (tmp_path / "one.carclog.lock").symlink_to(victim)
    recorder = GameRecorder.resume(path) if resume else GameRecorder.create(LogHeader.new(SEATS, seed=3), path)
    with recorder:
        _play(recorder, 12)
    assert victim.read_text() == "keep me\n"
    assert (tmp_path / "one.carclog.lock").is_symlink()  # left as it was


def test_a_symbolic_link_at_the_save_is_never_made_a_save(tmp_path: Path) -> None:
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me\n")
    (tmp_path / "one.carclog").symlink_to(victim)
    with pytest.raises(LogError) as info:
        LogWriter.create(tmp_path / "one.carclog", LogHeader.new(SEATS, seed=3))
    assert info.value.reason == "exists" and victim.read_text() == "keep me\n"


def test_a_repaired_save_stays_locked_through_its_new_file(tmp_path: Path) -> None:
    """Resuming a damaged save renames a new file over it (log.md §9): the lock moves to the new file
    before the rename, so the save's name never holds a file nobody locks."""
    path, data = short_log(tmp_path)
    start, _ = record_spans(data)[-1]
    path.write_bytes(data[: start + 17])
    before = path.stat().st_ino
    with GameRecorder.resume(path) as recorder:
        assert recorder.recovery is not None and path.stat().st_ino != before
        with pytest.raises(LogError) as info:
            GameRecorder.resume(path)
        assert info.value.reason == "locked"
        recorder.submit(parse_move("skip"))
    assert path.read_bytes() == data


def test_a_save_replaced_while_it_is_being_locked_is_locked_again(tmp_path: Path, monkeypatch) -> None:
    """A writer whose save was renamed over between its open and its lock (another writer's repair)
    locks the file the name holds now, not the one it opened."""
    path = _save(tmp_path)
    replacement = tmp_path / "replacement"
    replacement.write_bytes(path.read_bytes())
    real_lock, calls = lock_module._lock, []

    def lock_then_replace(fd: int, save: Path) -> None:
        real_lock(fd, save)
        calls.append(os.fstat(fd).st_ino)
        if len(calls) == 1:
            os.replace(replacement, path)

    monkeypatch.setattr(lock_module, "_lock", lock_then_replace)
    lock = SaveLock.acquire(path)
    try:
        assert len(calls) == 2 and calls[1] == path.stat().st_ino != calls[0]
        with open(path, "rb") as now:
            assert lock.covers(now.fileno())
    finally:
        lock.release()


def test_a_writer_refuses_a_save_whose_name_now_holds_another_file(tmp_path: Path) -> None:
    path = _save(tmp_path)
    lock = SaveLock.acquire(path)
    loaded = load(path)
    copy = tmp_path / "copy"
    copy.write_bytes(path.read_bytes())
    os.replace(copy, path)  # same bytes, another file: not the one locked
    with pytest.raises(LogError) as info:
        LogWriter.append_to(loaded, lock)
    assert info.value.reason == "changed"
