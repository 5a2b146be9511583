"""``carcnet review`` as a person uses it: the person's own seats by default (not the bots'), at a
level that answers in seconds, ``--seat`` counted from 1 as every screen counts seats, and each turn
in words (what the tile shows, what it joins, where on the board), never a tile id or coordinates."""

from __future__ import annotations

import json
import re
from pathlib import Path

from carcnet.cli import main
from carcnet.engine import parse_move
from carcnet.log import GameRecorder, LogHeader, Seat

from .bots.test_review import MISSED, _game


def _saved(path: Path, blue: Seat, red: Seat = Seat("Red", "red")) -> Path:
    """The game where Red misses its city (tests/bots/test_review.py), Red a person, Blue *blue*."""
    setup, moves = _game(MISSED)
    header = LogHeader.new([red, blue], order=setup.draw_order, created=0)
    with GameRecorder.create(header, path) as recorder:
        for move in moves:
            recorder.submit(parse_move(str(move)))
    return path


def test_review_looks_at_the_person_s_turns_at_the_medium_level_by_default(tmp_path: Path, capsys):
    path = _saved(tmp_path / "game.carclog", Seat("Blue", "blue", "bot", "greedy"))
    assert main(["review", str(path), "--json"]) == 0
    turns = json.loads(capsys.readouterr().out)
    assert turns and {t["player"] for t in turns} == {"Red"}  # not the bot's seat
    assert main(["review", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("The medium bot reviewed 5 turns of Red:"), out
    assert main(["review", str(path), "--every-seat", "--json"]) == 0
    assert {t["player"] for t in json.loads(capsys.readouterr().out)} == {"Red", "Blue"}


def test_review_of_a_game_of_bots_looks_at_every_seat(tmp_path: Path, capsys):
    path = _saved(tmp_path / "game.carclog", Seat("Blue", "blue", "bot", "greedy"))
    bots = _saved(tmp_path / "bots.carclog", Seat("Blue", "blue", "bot", "greedy"), Seat("Red", "red", "bot", "random"))
    assert main(["review", str(path), "--seat", "2", "--json"]) == 0  # seats count from 1: Blue is 2
    assert {t["player"] for t in json.loads(capsys.readouterr().out)} == {"Blue"}
    assert main(["review", str(path), "--seat", "0"]) == 2
    assert "seats 1 to 2" in capsys.readouterr().err
    assert main(["review", str(bots), "--json"]) == 0
    assert {t["player"] for t in json.loads(capsys.readouterr().out)} == {"Red", "Blue"}


def test_review_lines_read_in_words(tmp_path: Path, capsys):
    """Red's turn 7 closes the start tile's city instead of its own: said as a tile with a city
    closing a city just north of the start tile; the bot's, closing Red's own city in the east."""
    path = _saved(tmp_path / "game.carclog", Seat("Blue", "blue", "bot", "greedy"))
    assert main(["review", str(path), "--all"]) == 0
    out = capsys.readouterr().out
    assert not re.search(r"-?\d+,-?\d+", out) and "place " not in out and "skip" not in out, out
    seven = out[out.index("  7. Red:"):]
    assert seven.startswith("  7. Red: a tile with a city closing a city just north of the start tile, no meeple"), out
    assert "the bot: a tile with a city closing your city in the east" in seven, out
