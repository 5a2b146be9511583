"""``carcnet review``, ``carcnet ratings`` and ``carcnet continue`` (issue 34): headless, JSON where they list, the ratings
file in the folder given (never the user's own)."""

from __future__ import annotations

import json
from pathlib import Path

from carcnet.cli import main

from ..bots.test_review import MISSED, saved_missed_game
from .test_ratings import _signed_game


def test_review_marks_the_missed_city_as_json(tmp_path: Path, capsys):
    path = saved_missed_game(tmp_path / "missed.carclog")
    assert main(["review", str(path), "--level", "medium", "--json"]) == 0
    turns = json.loads(capsys.readouterr().out)
    marked = [t for t in turns if t["marked"]]
    assert (7, "Red", MISSED, "place E 3,-1 270") in [(t["turn"], t["player"], t["played"][0], t["best"][0])
                                                      for t in marked]
    assert all(t["stake"] >= 3 for t in marked)
    assert main(["review", str(path), "--level", "medium", "--seat", "2"]) == 0  # Blue: seats count from 1
    assert "Red" not in capsys.readouterr().out.split("marked", 1)[1]
    assert main(["review", str(path), "--level", "nobody"]) == 2


def test_ratings_counts_a_signed_game_once_and_lists_it(tmp_path: Path, capsys):
    log = _signed_game(tmp_path / "game.carclog")
    data = tmp_path / "data"
    assert main(["ratings", "--data-dir", str(data), str(log)]) == 0
    assert "counted" in capsys.readouterr().out
    assert main(["ratings", "--data-dir", str(data), str(log)]) == 1  # counted already: refused
    capsys.readouterr()
    assert main(["ratings", "--data-dir", str(data), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 3 and all(r["games"] == 1 for r in rows) and "bot:random" in {r["player"] for r in rows}
    assert rows == sorted(rows, key=lambda r: -r["mu"])
    assert (data / "ratings.json").exists()
    assert main(["ratings", "--data-dir", str(data)]) == 0
    assert "   1 game  " in capsys.readouterr().out  # each player's one game, in the English singular


def test_continue_writes_a_new_game_from_a_turn_and_leaves_the_save_alone(tmp_path: Path, capsys):
    from carcnet.engine import PlaceTile
    from carcnet.log import load

    log = _signed_game(tmp_path / "game.carclog")
    before = log.read_bytes()
    data = tmp_path / "data"
    assert main(["continue", str(log), "--turn", "4", "--data-dir", str(data), "--save-only"]) == 0
    path = Path(capsys.readouterr().out.split(":", 1)[0])
    assert path.parent == data and log.read_bytes() == before
    new = load(path)
    assert not new.header.signed and new.header.seats == load(log).header.seats
    assert sum(isinstance(m, PlaceTile) for m in new.game.moves) == 4
    assert main(["continue", str(log), "--turn", "999", "--data-dir", str(data)]) == 2


def test_a_tournament_of_one_laptop_prints_its_standings_as_json_and_rates_its_games(tmp_path: Path, capsys):
    data = tmp_path / "data"
    assert main(["tournament", "open", "Alone", "--rounds", "1", "--size", "2", "--bots", "greedy,random",
                 "--start-when", "2", "--listen", "127.0.0.1", "--name", "Ann", "--data-dir", str(data),
                 "--json", "--no-mdns"]) == 0
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert result["name"] == "Alone" and [r["name"] for r in result["standings"]] == ["Greedy 1 (Ann)", "Random 2 (Ann)"]
    assert result["standings"][0]["wins"] == "1" and result["standings"][0]["games"] == 1
    assert "Final standings:" in err and "Ratings: 1 of 1 game counted" in err
    assert (data / "identity.key").stat().st_mode & 0o777 == 0o600
    folder = data / "events" / result["event"]
    assert json.loads((folder / "standings.json").read_text()) == result
    assert main(["tournament", "open", "Bad", "--bots", "superbot", "--data-dir", str(data),
                 "--start-when", "2", "--no-mdns"]) == 2
    assert main(["tournament", "join", "--no-mdns", "--data-dir", str(data)]) == 2  # nowhere to look
