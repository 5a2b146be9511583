"""Saves of games whose draws the table makes (log format 3, protocol/log.md §5–6, deck.md §5): they
replay offline, every chain value is checked against its root, and an edited value, a signed draw,
or a draw in an older format is refused with the reason (issue 14)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from carcnet.cli import main
from carcnet.cli.common import EXIT_OK, EXIT_REFUSED
from carcnet.engine import DrawTile, Phase
from carcnet.log import LogError, LogFormatError, LogHeader, LogKeysError, Seat, load, pack

from .util import craft, wire_maps, write
from .vectors import TABLE_GAME, VECTORS, table_game


def test_a_table_game_replays_offline_from_its_save(tmp_path: Path):
    loaded = load(VECTORS / "log3-table.bin")
    header = loaded.header
    assert header.format == 3 and header.seed is None and header.nonces is None
    assert header.draws is not None and header.draws.roots == header.commits
    draws = [e for e in loaded.entries if isinstance(e.move, DrawTile)]
    assert [e.seq for e in draws] == [1, 4, 7] and all(e.sig is None for e in draws)
    assert all(e.sig is not None for e in loaded.entries if not isinstance(e.move, DrawTile))
    assert loaded.game.phase is Phase.DRAW and loaded.game.deck_index == 3  # waits for draw 4
    assert main(["verify", str(VECTORS / "log3-table.bin")]) == EXIT_OK


def _edited(seq: int, **changes) -> bytes:
    maps = wire_maps((VECTORS / "log3-table.bin").read_bytes())
    maps[seq].update(changes)
    return craft(*maps)


def test_an_edited_chain_value_is_refused_with_the_seat_and_the_draw(tmp_path: Path, capsys):
    maps = wire_maps((VECTORS / "log3-table.bin").read_bytes())
    values = list(maps[4]["move"]["values"])
    values[1] = bytes([values[1][0] ^ 1]) + values[1][1:]
    maps[4]["move"] = {"type": "draw", "values": values}
    path = write(tmp_path, craft(*maps))
    with pytest.raises(LogError) as info:
        load(path)
    assert info.value.reason == "illegal-move" and info.value.seq == 4
    assert "draw 2: seat 1's value does not match its chain" in str(info.value)
    assert main(["verify", str(path)]) == EXIT_REFUSED
    assert "seat 1's value does not match its chain" in capsys.readouterr().err


def test_a_value_moved_to_another_draw_or_seat_is_refused(tmp_path: Path):
    maps = wire_maps((VECTORS / "log3-table.bin").read_bytes())
    first, second = maps[1]["move"]["values"], maps[4]["move"]["values"]
    for values in ([second[0], first[1], first[2]], [first[1], first[0], first[2]]):
        edited = [dict(m) for m in maps]
        edited[1] = {**maps[1], "move": {"type": "draw", "values": values}}
        with pytest.raises(LogError, match="does not match its chain"):
            load(write(tmp_path, craft(*edited)))


def test_a_draw_is_never_signed_and_every_other_entry_is(tmp_path: Path):
    with pytest.raises(LogError) as info:
        load(write(tmp_path, _edited(1, sig=bytes(64))))
    assert info.value.reason == "bad-signature" and "carries no signature" in str(info.value)
    with pytest.raises(LogError) as info:
        load(write(tmp_path, _edited(2, sig=None)))
    assert info.value.reason == "bad-signature"


def test_a_draw_entry_needs_format_3_and_chain_roots_need_it_too(tmp_path: Path):
    header, entries = table_game()
    with pytest.raises(LogFormatError, match="needs log format 3"):
        pack(entries[0], format=2)
    maps = wire_maps((VECTORS / "log3-table.bin").read_bytes())
    maps[0]["format"] = 2  # a format-2 reader's view of a table game: refused for what it is
    with pytest.raises(LogError) as info:
        load(write(tmp_path, craft(*maps)))
    assert "commits and nonces are both nil or both given" in str(info.value)
    with pytest.raises(LogKeysError, match="neither seed nor order"):
        dataclasses.replace(header, seed=5)


def test_a_table_game_needs_its_game_id_and_distinct_roots():
    seats = [Seat("Ann", "red"), Seat("Bob", "blue")]
    keys = [bytes([1]) * 32, bytes([2]) * 32]
    with pytest.raises(LogFormatError, match="game id"):
        LogHeader.new(seats, keys=keys, commits=[bytes([3]) * 32, bytes([4]) * 32])
    with pytest.raises(LogFormatError, match="same commitment|same chain root"):
        LogHeader.new(seats, keys=keys, commits=[bytes([3]) * 32] * 2, game=TABLE_GAME)
    header = LogHeader.new(seats, keys=keys, commits=[bytes([3]) * 32, bytes([4]) * 32], game=TABLE_GAME)
    assert header.format == 3 and header.setup().draws is not None


def test_the_replay_transcript_shows_turns_not_draw_values(capsys):
    """`carcnet replay` of a table game: one line per turn, as for a seeded game; the draws' values
    are the log's business, not the reader's."""
    assert main(["replay", str(VECTORS / "log3-table.bin")]) == EXIT_OK
    out = capsys.readouterr().out
    turns = [line for line in out.splitlines() if line[:4].strip().rstrip(".").isdigit()]
    assert [t.split()[1] for t in turns] == ["Ann", "Bob", "Random"] and "draw" not in out
