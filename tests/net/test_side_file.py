"""The side file of a LAN save (protocol/log.md §12, wire.md §5.9): entries a healed split set aside are
written there (fsynced) before the save is rewritten without them; the save then loads as the
committed log, and each run of the side file checks on the save's entries before it."""

from __future__ import annotations

from pathlib import Path

import pytest

from carcnet.log import LogError, load
from carcnet.log.aside import append_aside, aside_path, check_aside, read_aside
from carcnet.net.storage import RecorderLog

from .test_commit_rule import LOG, TAKEN, THREE


def saved(path: Path, entries) -> RecorderLog:
    log = RecorderLog.create(THREE, path)
    for signed in entries:
        log.on_append(signed)
    log.sync()
    return log


def test_entries_set_aside_leave_the_save_for_the_side_file(tmp_path: Path):
    path = tmp_path / "game.carclog"
    log = saved(path, LOG[:8])
    where = log.on_set_aside(5)
    assert where == str(aside_path(path)) and Path(where).name == "game.carclog.aside"
    for signed in TAKEN[4:9]:  # the committed branch goes on in the same file
        log.on_append(signed)
    log.sync()
    log.close()
    loaded = load(path)
    assert [e for e in loaded.entries] == [s.entry for s in TAKEN]
    header, runs = read_aside(where)
    assert header == THREE.header and runs == [[s.entry for s in LOG[4:8]]]
    (run,) = check_aside(where, loaded.header, loaded.entries)
    assert (run.seq, run.problem, len(run.entries)) == (5, None, 4)


def test_two_heals_make_two_runs(tmp_path: Path):
    path = tmp_path / "game.carclog"
    append_aside(path, THREE.header, [s.entry for s in LOG[4:6]])
    append_aside(path, THREE.header, [s.entry for s in LOG[5:8]])  # a later heal from seq 6
    _header, runs = read_aside(aside_path(path))
    assert [[e.seq for e in run] for run in runs] == [[5, 6], [6, 7, 8]]


def test_a_run_that_does_not_check_is_reported(tmp_path: Path):
    path = tmp_path / "game.carclog"
    saved(path, TAKEN).close()
    append_aside(path, THREE.header, [s.entry for s in LOG[5:8]])  # parts at 6, but seq 5 differs here
    loaded = load(path)
    (run,) = check_aside(aside_path(path), loaded.header, loaded.entries)
    assert run.problem is not None and run.problem.startswith("seq 6")


def test_a_damaged_side_file_is_refused_with_the_reason(tmp_path: Path):
    path = tmp_path / "game.carclog"
    append_aside(path, THREE.header, [s.entry for s in LOG[4:6]])
    side = aside_path(path)
    data = bytearray(side.read_bytes())
    data[-3] ^= 0xFF
    side.write_bytes(bytes(data))
    with pytest.raises(LogError, match="damaged"):
        read_aside(side)
    side.write_bytes(b"not a log")
    with pytest.raises(LogError, match="not a side file"):
        read_aside(side)


def test_a_run_is_consecutive_seqs(tmp_path: Path):
    with pytest.raises(ValueError):
        append_aside(tmp_path / "g.carclog", THREE.header, [LOG[4].entry, LOG[6].entry])
