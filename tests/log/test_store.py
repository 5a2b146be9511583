"""Loading (protocol/log.md §8): torn and corrupt tails are dropped and reported, damage in the
middle is refused with its seq, versions and forgeries are refused with clear messages, and no
content makes load raise anything but LogError."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carcnet.engine import RULES_VERSION, Game
from carcnet.log import (
    FORMAT_VERSION,
    MAGIC,
    LogEntry,
    LogError,
    LogWriter,
    default_dir,
    encode_record,
    load,
    new_path,
    pack,
)
from carcnet.log.store import DATA_DIR_ENV

from .util import craft, record_spans, short_log, wire_maps, write
from .vectors import scripted_game


def test_intact_short_log_loads(tmp_path: Path):
    path, _ = short_log(tmp_path)
    loaded = load(path)
    header, entries = scripted_game()
    assert loaded.header == header and list(loaded.entries) == entries
    assert loaded.damage is None
    assert loaded.game.digests[1:] == [e.digest for e in entries]


def test_cut_at_every_byte_inside_the_last_record_keeps_the_prefix(tmp_path: Path):
    path, data = short_log(tmp_path)
    start, end = record_spans(data)[-1]
    for cut in range(start + 1, end):
        path = write(tmp_path, data[:cut])
        loaded = load(path)
        assert [e.seq for e in loaded.entries] == [1, 2, 3, 4, 5], cut
        assert loaded.damage is not None
        assert (loaded.damage.kind, loaded.damage.seq) == ("torn", 6)
        assert (loaded.damage.offset, loaded.damage.dropped_bytes) == (start, cut - start)
        assert loaded.valid_size == start
        assert "seq 6" in loaded.damage.message and "torn" in loaded.damage.message
        assert path.read_bytes() == data[:cut]  # loading never changes the file


def test_cut_at_every_record_boundary_is_a_clean_shorter_log(tmp_path: Path):
    path, data = short_log(tmp_path)
    for k, (_, end) in enumerate(record_spans(data)):
        path = write(tmp_path, data[:end])
        loaded = load(path)
        assert loaded.damage is None and len(loaded.entries) == k


def test_cut_inside_the_header_record_is_refused(tmp_path: Path):
    path, data = short_log(tmp_path)
    start, end = record_spans(data)[0]
    for cut in range(start, end):  # from the bare magic to one byte short of the header
        path = write(tmp_path, data[:cut])
        with pytest.raises(LogError) as info:
            load(path)
        assert info.value.reason == "torn-header" and info.value.seq == 0, cut
        assert "header" in str(info.value)


def test_flipped_byte_in_any_earlier_record_is_refused_with_its_seq(tmp_path: Path):
    path, data = short_log(tmp_path)
    spans = record_spans(data)
    for index, (start, end) in enumerate(spans[:-1]):
        for at in range(start, end):
            damaged = bytearray(data)
            damaged[at] ^= 0xFF
            path = write(tmp_path, bytes(damaged))
            with pytest.raises(LogError) as info:
                load(path)
            err = info.value
            assert err.seq == index, (index, at)
            if index == 0:
                assert err.reason == "corrupt-header" and "header" in str(err)
            else:
                assert err.reason == "corrupt-record" and f"seq {index}" in str(err)


def test_flipped_byte_in_the_last_record_is_a_corrupt_tail(tmp_path: Path):
    path, data = short_log(tmp_path)
    start, end = record_spans(data)[-1]
    for at in range(start, end):
        damaged = bytearray(data)
        damaged[at] ^= 0x01
        path = write(tmp_path, bytes(damaged))
        loaded = load(path)
        assert loaded.damage is not None and loaded.damage.kind == "corrupt-last", at
        assert loaded.damage.seq == 6 and len(loaded.entries) == 5


def test_zeros_after_the_last_record_are_a_corrupt_tail(tmp_path: Path):
    # what some file systems leave after a crash: the size grew, the data never came
    path, data = short_log(tmp_path)
    path = write(tmp_path, data + bytes(40))
    loaded = load(path)
    assert loaded.damage is not None and loaded.damage.kind == "corrupt-last"
    assert len(loaded.entries) == 6 and loaded.damage.dropped_bytes == 40


def test_two_damaged_records_at_the_end_are_refused(tmp_path: Path):
    path, data = short_log(tmp_path)
    (s5, _), (s6, _) = record_spans(data)[-2:]
    damaged = bytearray(data[: s6 + 10])  # the last record torn ...
    damaged[s5 + 20] ^= 0xFF  # ... and the one before corrupt
    path = write(tmp_path, bytes(damaged))
    with pytest.raises(LogError) as info:
        load(path)
    assert (info.value.reason, info.value.seq) == ("corrupt-record", 5)


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "empty"),
        (MAGIC[:5], "torn-header"),
        (b"CARCLOG\r\n", "bad-magic"),
        (b"PK\x03\x04 not a log at all", "bad-magic"),
        (b"\x89PNG\r\n\x1a\n", "bad-magic"),
    ],
)
def test_not_a_log(tmp_path: Path, content: bytes, reason: str):
    with pytest.raises(LogError) as info:
        load(write(tmp_path, content))
    assert info.value.reason == reason and info.value.seq is None


def test_missing_file_is_a_log_error(tmp_path: Path):
    with pytest.raises(LogError, match="cannot read") as info:
        load(tmp_path / "nope.carclog")
    assert info.value.reason == "unreadable"


def _maps(tmp_path: Path) -> list[dict]:
    return wire_maps(short_log(tmp_path)[1])


def test_newer_format_header_is_refused_naming_both_versions(tmp_path: Path):
    maps = _maps(tmp_path)
    maps[0]["format"] = FORMAT_VERSION + 1
    maps[0]["future_field"] = [1, 2, 3]
    with pytest.raises(LogError) as info:
        load(write(tmp_path, craft(*maps)))
    assert info.value.reason == "format-version" and info.value.seq == 0
    assert f"format version {FORMAT_VERSION + 1}" in str(info.value)
    assert f"format version {FORMAT_VERSION})" in str(info.value)


def test_newer_format_is_refused_even_with_a_damaged_tail_or_middle(tmp_path: Path):
    maps = _maps(tmp_path)
    maps[0]["format"] = FORMAT_VERSION + 1
    data = bytearray(craft(*maps))
    data[record_spans(bytes(data))[2][0] + 9] ^= 0xFF
    with pytest.raises(LogError) as info:
        load(write(tmp_path, bytes(data)))
    assert info.value.reason == "format-version"


def test_other_rules_version_is_refused_naming_both(tmp_path: Path):
    maps = _maps(tmp_path)
    maps[0]["rules"] = RULES_VERSION + 1
    with pytest.raises(LogError) as info:
        load(write(tmp_path, craft(*maps)))
    assert info.value.reason == "rules-version"
    message = str(info.value)
    assert f"rules version {RULES_VERSION + 1}" in message and f"rules versions 2, 3, 4, 5 and {RULES_VERSION};" in message
    assert "not replayed under other rules" in message


def test_forged_seat_is_refused(tmp_path: Path):
    maps = _maps(tmp_path)
    maps[3]["seat"] = 0  # seq 3 was Bob's placement (seat 1)
    with pytest.raises(LogError) as info:
        load(write(tmp_path, craft(*maps)))
    assert (info.value.reason, info.value.seq) == ("forged-seat", 3)
    assert "seat 1's turn" in str(info.value)


def test_illegal_move_is_refused_with_the_engine_reason(tmp_path: Path):
    maps = _maps(tmp_path)
    maps[3]["move"]["pos"] = [5, 5]
    with pytest.raises(LogError) as info:
        load(write(tmp_path, craft(*maps)))
    assert (info.value.reason, info.value.seq) == ("illegal-move", 3)
    assert "not-adjacent" in str(info.value)


def test_move_after_the_end_is_refused(tmp_path: Path):
    maps = _maps(tmp_path)
    extra = dict(maps[-1], seq=7, seat=1)
    with pytest.raises(LogError) as info:
        load(write(tmp_path, craft(*maps, extra)))
    assert (info.value.reason, info.value.seq) == ("illegal-move", 7)
    assert "game-over" in str(info.value)


def test_wrong_digest_breaks_the_chain_at_its_seq(tmp_path: Path):
    maps = _maps(tmp_path)
    maps[4]["digest"] = bytes(32)
    with pytest.raises(LogError) as info:
        load(write(tmp_path, craft(*maps)))
    assert (info.value.reason, info.value.seq) == ("chain-broken", 4)


def test_swapped_moves_break_the_chain(tmp_path: Path):
    # both legal, same seat: only the digest chain notices that the order changed
    from carcnet.engine import parse_move
    from carcnet.log import LogHeader, Seat, to_wire

    header = LogHeader.new([Seat("A", "red"), Seat("B", "blue")], order=("E", "E"), created=0, game="0" * 32)
    game = Game(header.setup())
    recorded = []
    for seq, text in enumerate(["place E 0,-1 180", "skip", "place E 0,1 90", "skip"], 1):
        seat = game.seat
        game.apply(parse_move(text))
        recorded.append(to_wire(LogEntry(seq, seat, parse_move(text), game.digest)))
    recorded[1]["digest"], recorded[3]["digest"] = recorded[3]["digest"], recorded[1]["digest"]
    with pytest.raises(LogError) as info:
        load(write(tmp_path, craft(to_wire(header), *recorded)))
    assert (info.value.reason, info.value.seq) == ("chain-broken", 2)


def test_header_digest_must_match_the_engine(tmp_path: Path):
    maps = _maps(tmp_path)
    maps[0]["digest"] = bytes(32)
    with pytest.raises(LogError) as info:
        load(write(tmp_path, craft(*maps)))
    assert (info.value.reason, info.value.seq) == ("chain-broken", 0)


def test_out_of_sequence_is_refused(tmp_path: Path):
    maps = _maps(tmp_path)
    maps[2]["seq"] = 3
    with pytest.raises(LogError) as info:
        load(write(tmp_path, craft(*maps)))
    assert (info.value.reason, info.value.seq) == ("out-of-sequence", 2)


@pytest.mark.parametrize("where", [0, 2, 6])
def test_unknown_field_is_refused_even_in_the_last_record(tmp_path: Path, where: int):
    # an intact record with bad content is no crash artefact: it is refused, never dropped
    maps = _maps(tmp_path)
    maps[where]["comment"] = "hello"
    with pytest.raises(LogError, match="unknown field 'comment'") as info:
        load(write(tmp_path, craft(*maps)))
    assert info.value.seq == where
    assert info.value.reason == ("bad-header" if where == 0 else "bad-record")


def test_entry_where_the_header_belongs_and_header_where_an_entry_belongs(tmp_path: Path):
    maps = _maps(tmp_path)
    with pytest.raises(LogError, match="not a header") as info:
        load(write(tmp_path, craft(*maps[1:])))
    assert info.value.seq == 0
    with pytest.raises(LogError, match="not an entry") as info:
        load(write(tmp_path, craft(maps[0], maps[1], maps[0])))
    assert info.value.seq == 2


def test_oversized_length_is_damage_not_an_allocation(tmp_path: Path):
    _, data = short_log(tmp_path)
    start, _ = record_spans(data)[-1]
    huge = (2**32 - 1).to_bytes(4, "big")
    import zlib

    forged = data[:start] + huge + zlib.crc32(huge).to_bytes(4, "big") + b"x" * 10
    loaded = load(write(tmp_path, forged))
    assert loaded.damage is not None and loaded.damage.kind == "corrupt-last"


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_no_damage_makes_load_raise_anything_but_log_error(tmp_path: Path, data: st.DataObject):
    _, good = short_log(tmp_path)
    damaged = bytearray(good)
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(damaged) - 1))
        damaged[at] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(damaged)))
    path = write(tmp_path, bytes(damaged[:cut]))
    try:
        loaded = load(path)
    except LogError as exc:
        assert str(exc) and exc.reason
    else:
        assert loaded.game.digests[1:] == [e.digest for e in loaded.entries]


# ---------------------------------------------------------------------- writer and paths


def test_writer_never_overwrites(tmp_path: Path):
    path, data = short_log(tmp_path)
    header, _ = scripted_game()
    with pytest.raises(LogError) as info:
        LogWriter.create(path, header)
    assert info.value.reason == "exists"
    assert path.read_bytes() == data


def test_writer_checks_the_sequence(tmp_path: Path):
    header, entries = scripted_game()
    with LogWriter.create(tmp_path / "a" / "b.carclog", header) as writer:
        with pytest.raises(ValueError, match="seq 1, not 2"):
            writer.append(entries[1])
        writer.append(entries[0])
        assert writer.next_seq == 2


def test_append_to_continues_and_refuses_a_changed_file(tmp_path: Path):
    path, data = short_log(tmp_path)
    start, _ = record_spans(data)[-1]
    path = write(tmp_path, data[:start])
    loaded = load(path)
    _, entries = scripted_game()
    with LogWriter.append_to(loaded) as writer:
        writer.append(entries[-1])
    assert path.read_bytes() == data
    with pytest.raises(LogError) as info:
        LogWriter.append_to(loaded)  # the file grew since
    assert info.value.reason == "changed"
    path = write(tmp_path, data[: start + 3])
    with pytest.raises(LogError, match="damaged"):
        LogWriter.append_to(load(path))


def test_appended_records_are_fsynced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd)))
    header, entries = scripted_game()
    with LogWriter.create(tmp_path / "s.carclog", header) as writer:
        created = len(synced)
        assert created >= 1  # the file (and its directory, where possible)
        for i, entry in enumerate(entries, 1):
            writer.append(entry)
            assert len(synced) == created + i


def test_default_dir_and_new_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))
    assert default_dir() == tmp_path / "games"
    header, _ = scripted_game()
    assert new_path(header) == tmp_path / "games" / "20261121-101500-3f2a9c1b.carclog"
    monkeypatch.delenv(DATA_DIR_ENV)
    assert default_dir().name == "games" and "carcnet" in str(default_dir())


def test_encode_record_bounds():
    with pytest.raises(ValueError):
        encode_record(b"")
    with pytest.raises(ValueError):
        encode_record(b"x" * 65537)
    header, _ = scripted_game()
    assert len(encode_record(pack(header))) == len(pack(header)) + 12


def test_unsynced_appends_are_written_at_once_and_fsynced_by_sync_or_close(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """log.md §9 "Received entries": written to the file before the call returns (a reader sees them
    at once), fsynced by one ``sync`` for all of them, and by ``close`` when nobody synced them."""
    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd)))
    header, entries = scripted_game()
    path = tmp_path / "r.carclog"
    writer = LogWriter.create(path, header)
    created = len(synced)
    writer.append(entries[0], sync=False)
    writer.append(entries[1], sync=False)
    assert len(synced) == created and writer.unsynced == 2
    assert [e.seq for e in load(path).entries] == [1, 2]  # in the file, not only in a buffer
    writer.sync()
    writer.sync()  # nothing new: no second fsync
    assert len(synced) == created + 1 and writer.unsynced == 0
    writer.append(entries[2], sync=False)
    writer.append(entries[3])  # an own entry: one fsync covers both
    assert len(synced) == created + 2 and writer.unsynced == 0
    writer.append(entries[4], sync=False)
    writer.close()
    assert len(synced) == created + 3
    assert [e.seq for e in load(path).entries] == [1, 2, 3, 4, 5]


def test_sync_from_another_thread_while_appending_loses_nothing(tmp_path: Path):
    """The LAN peer fsyncs received entries in a worker thread while its event loop appends more:
    every record ends up in the file, in order, and close waits for a sync in progress."""
    import threading

    header, entries = scripted_game()
    path = tmp_path / "t.carclog"
    writer = LogWriter.create(path, header)
    stop = threading.Event()
    syncs = 0

    def syncing() -> None:
        nonlocal syncs
        while not stop.is_set():
            writer.sync()
            syncs += 1

    worker = threading.Thread(target=syncing)
    worker.start()
    try:
        for entry in entries:
            writer.append(entry, sync=False)
    finally:
        stop.set()
        worker.join(10)
    writer.close()
    assert syncs >= 1 and not worker.is_alive()
    assert [e.seq for e in load(path).entries] == [e.seq for e in entries]
