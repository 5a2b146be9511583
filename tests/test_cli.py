"""The ``carcnet`` command line: demo, simulate, replay, verify, games (issue 3)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from carcnet.cli import main
from carcnet.cli.common import EXIT_DAMAGED, EXIT_OK, EXIT_REFUSED, EXIT_USAGE
from carcnet.cli.local import speed_text
from carcnet.engine import Rules
from carcnet.log import load


@pytest.fixture
def data_dir(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("CARCNET_DATA_DIR", str(tmp_path))
    return tmp_path


@pytest.fixture
def saved(data_dir, capsys) -> Path:
    assert main(["demo", "--players", "3", "--bot", "greedy", "--seed", "5", "--save"]) == EXIT_OK
    out = capsys.readouterr().out
    path = Path(out.strip().splitlines()[-1].removeprefix("saved to "))
    assert path.is_file() and path.parent == data_dir / "games"
    return path


def test_verify_replay_and_games_agree_on_a_saved_game(saved, capsys):
    assert main(["verify", str(saved)]) == EXIT_OK
    verify = capsys.readouterr().out
    assert verify.startswith("ok: 142 moves (finished), digest ")
    digest = verify.split("digest ")[1].strip()

    assert main(["replay", "--json", str(saved)]) == EXIT_OK
    result = json.loads(capsys.readouterr().out)
    assert result["digest"] == digest and result["finished"] and result["moves"] == 142
    assert [s["name"] for s in result["seats"]] == ["Red", "Blue", "Yellow"]
    for seat in result["seats"]:
        assert sum(v["game"] + v["final"] for v in seat["breakdown"].values()) == seat["score"]
    assert sum(s["winner"] for s in result["seats"]) >= 1

    assert main(["replay", str(saved)]) == EXIT_OK
    text = capsys.readouterr().out
    assert "  1. Red" in text and "Final scores:" in text and digest in text

    assert main(["games"]) == EXIT_OK
    listing = capsys.readouterr().out
    # turns as the screens count them (142 moves are 71 turns), and whether the game is over
    assert saved.name in listing and "finished, 71 turns" in listing and "Red, Blue, Yellow" in listing


def test_verify_reports_a_torn_tail_and_keeps_the_prefix(saved, tmp_path, capsys):
    torn = tmp_path / "torn.carclog"
    torn.write_bytes(saved.read_bytes()[:-5])
    assert main(["verify", str(torn)]) == EXIT_DAMAGED
    out = capsys.readouterr().out
    assert out.startswith("damaged: ") and "torn" in out and "valid prefix: 141 moves" in out


def test_verify_refuses_a_flipped_byte_naming_the_entry(saved, tmp_path, capsys):
    data = bytearray(saved.read_bytes())
    data[len(data) // 2] ^= 0x01
    bad = tmp_path / "flipped.carclog"
    bad.write_bytes(bytes(data))
    assert main(["verify", str(bad)]) == EXIT_REFUSED
    err = capsys.readouterr().err
    assert "seq " in err and "refused" in err


def test_verify_and_replay_say_when_a_file_is_missing(tmp_path, capsys):
    assert main(["verify", str(tmp_path / "nope.carclog")]) == EXIT_USAGE
    assert "nope.carclog" in capsys.readouterr().err


def test_games_with_nothing_saved(data_dir, capsys):
    assert main(["games"]) == EXIT_OK
    assert "no saved games" in capsys.readouterr().out


def test_simulate_prints_wins_spread_and_speed(capsys):
    assert main(["simulate", "--players", "2", "--bots", "greedy,random", "--games", "6", "--seed", "7"]) == EXIT_OK
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("6 games, 2 players, seed 7")
    rows = [line.split() for line in lines[2:4]]
    assert [r[1] for r in rows] == ["greedy", "random"]
    assert int(rows[0][2]) + int(rows[1][2]) >= 6  # every game has a winner
    assert "games/s" in lines[-1]


def test_simulate_speed_reads_as_seconds_a_game_when_slow():
    # a hard table runs at 0.04 games/s: "0.0 games/s" told nothing
    assert speed_text(200, 46.75) == "4.3 games/s (46.75 s)"
    assert speed_text(200, 4653.4) == "23.3 s a game (4653.40 s, 77.6 min)"
    assert speed_text(0, 0.0) == "0.0 games/s (0.00 s)"


def test_simulate_is_reproducible_and_independent_of_jobs(capsys):
    args = ["simulate", "--bots", "random,random,greedy", "--games", "4", "--seed", "3"]
    assert main(args) == EXIT_OK
    one = capsys.readouterr().out.splitlines()[:5]
    assert main([*args, "--jobs", "2"]) == EXIT_OK
    two = capsys.readouterr().out.splitlines()[:5]
    assert one == two


def test_a_run_split_in_parts_plays_the_games_of_one_run():
    """``--first``: games 0–1 and 2–4 of a run are games 0–4 of it, seat rotation and seeds included."""
    from carcnet.cli.simulate import simulate

    def games(result):
        return [(o.index, o.scores, o.winners) for o in result.outcomes]  # (wall time aside)

    whole = games(simulate(["random", "greedy"], 5, 9))
    assert games(simulate(["random", "greedy"], 2, 9)) + games(simulate(["random", "greedy"], 3, 9, jobs=2, first=2)) == whole
    assert games(simulate(["random", "greedy"], 2, 9, first=3)) == whole[3:]
    with pytest.raises(ValueError, match="--first"):
        simulate(["random", "greedy"], 2, 9, first=-1)


@pytest.mark.parametrize(
    ("flags", "rules"),
    [
        (["--small-city", "--farms", "city"], Rules(small_city=True, farms="city")),
        (["--no-farmers", "--river", "--river-start", "river"], Rules(river=True, river_start="river", farms="off")),
        (["--river"], Rules(river=True, river_start="after")),
        (["--hills-sheep", "--abbot"], Rules(hills_sheep=True, abbot=True)),
        (["--princess-dragon"], Rules(princess_dragon=True)),
        (["--princess-dragon", "--hills-sheep", "--traders"],
         Rules(princess_dragon=True, hills_sheep=True, traders=True)),
    ],
)
def test_the_rule_options_on_the_command_line_reach_the_saved_header(flags, rules, data_dir, capsys):
    """Issue 16: the variants as flags; the saved game's header carries them and it verifies."""
    assert main(["demo", "--players", "2", "--bot", "greedy", "--seed", "3", "--save", *flags]) == EXIT_OK
    out = capsys.readouterr().out
    assert rules.text() in out.splitlines()[0]
    path = Path(out.strip().splitlines()[-1].removeprefix("saved to "))
    loaded = load(path)
    assert loaded.header.options == rules and loaded.game.setup.rules == rules
    assert main(["verify", str(path)]) == EXIT_OK


@pytest.mark.parametrize(
    "args, words",
    [
        (["simulate", "--bots", "greedy,nobot"], "unknown bot 'nobot'"),
        (["simulate", "--players", "3", "--bots", "greedy,random"], "--players 3 but --bots names 2"),
        (["simulate", "--bots", "random", "--players", "7"], "2 to 6 players"),
        (["demo", "--players", "9"], "2 to 6 players"),
    ],
)
def test_bad_arguments_get_a_clear_error(args, words, capsys):
    assert main(args) == EXIT_USAGE
    assert words in capsys.readouterr().err


@pytest.mark.parametrize(
    "args, words",
    [
        (["demo", "--farms", "none"], "invalid choice: 'none' (choose from 'farm', 'city', 'off')"),
        (["simulate", "--river-start", "mix"], "invalid choice: 'mix' (choose from 'after', 'river', 'omit')"),
    ],
)
def test_a_rule_option_that_does_not_exist_names_those_that_do(args, words, capsys):
    with pytest.raises(SystemExit) as info:
        main(args)
    assert info.value.code == EXIT_USAGE and words in capsys.readouterr().err


@pytest.mark.parametrize("command", ["demo", "simulate", "replay", "verify", "games"])
def test_every_subcommand_has_help(command, capsys):
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0
    assert f"usage: carcnet {command}" in capsys.readouterr().out


def test_python_dash_m_runs_the_cli():
    out = subprocess.run(
        [sys.executable, "-m", "carcnet", "--version"], capture_output=True, text=True, timeout=60, check=True
    )
    assert out.stdout.startswith("carcnet ")


def test_games_lists_a_folder_at_once_without_replaying_a_crafted_save(saved, data_dir, capsys, monkeypatch):
    """Issue 13 item 9: ``carcnet games`` reads headers and entries; no move of a save is replayed
    (but for a game a few tiles from its end, to tell whether tiles set aside ended it)."""
    import carcnet.log.store as store

    monkeypatch.setattr(store, "apply_entry", lambda *a, **k: (_ for _ in ()).throw(AssertionError("replayed")))
    junk = data_dir / "games" / "junk.carclog"
    junk.write_bytes(b"not a log at all" * 1000)
    assert main(["games"]) == EXIT_OK
    out = capsys.readouterr().out
    assert saved.name in out and "junk.carclog: unreadable" in out


@pytest.mark.parametrize(
    "args, words",
    [
        (["host", "--clock", "abc"], "carcnet: --clock 'abc': give TURN+BANK in whole seconds, e.g. 60+300"),
        (["host", "--clock", "99999+1"], "carcnet: --clock '99999+1': the clock's turn is 1 to 3600 seconds"),
        (["host", "--headless", "--name", "x" * 5000],
         "carcnet: --name must be 1 to 32 characters; got 'xxxxxxxxxxxxxxxxxxxx'… (5000 characters)"),
        (["host", "--game-name", "g" * 5000], "carcnet: --game-name must be 1 to 32 characters; got 'gggggggg"),
        (["join", "--game", "f" * 5000, "127.0.0.1:9"], "carcnet: --game must be a game id"),
        (["resume", "/nope/nothing.carclog"], "carcnet: /nope/nothing.carclog: cannot read it"),
        (["resume", "--headless", "/nope/nothing.carclog"], "carcnet: /nope/nothing.carclog: cannot read it"),
        (["simulate", "--games", "-3"], "carcnet: --games must be at least 1"),  # no empty line before it
        (["simulate", "--first", "-1"], "carcnet: --first must be 0 or more"),
    ],
)
def test_a_bad_command_line_is_one_short_line_and_status_2(args, words, capsys):
    """No traceback, nothing typed echoed whole, the file named once; usage errors exit 2 as replay's
    and verify's do."""
    assert main(args) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith(words) and err.count("\n") == 1 and len(err) < 200, err
    assert "Traceback" not in err and err.count("nothing.carclog") <= 1


def test_replay_verify_and_resume_say_a_missing_file_alike(capsys):
    said = []
    for command in ("replay", "verify", "resume", "ratings"):  # ratings named it twice and exited 1
        assert main([command, "/nope/gone.carclog"]) == EXIT_USAGE
        said.append(capsys.readouterr().err)
    assert len(set(said)) == 1 and said[0].count("/nope/gone.carclog") == 1, said


def test_help_creates_no_file_or_folder(tmp_path):
    """``carcnet --help`` (and every command's) writes nothing: no log, no data or settings folder."""
    import os

    home = Path(os.environ["HOME"])
    before = sorted(p.relative_to(home) for p in home.rglob("*"))
    commands = [[], ["play"], ["host"], ["join"], ["spectate"], ["resume"], ["serve"], ["demo"], ["games"]]
    for command in commands:
        out = subprocess.run([sys.executable, "-m", "carcnet", *command, "--help"], capture_output=True, text=True,
                             timeout=60, check=True)
        assert "usage: carcnet" in out.stdout
    assert sorted(p.relative_to(home) for p in home.rglob("*")) == before
    assert not list(home.rglob("carcnet.log"))


def test_the_interface_log_is_made_at_its_first_record_only(tmp_path):
    import logging

    from carcnet.cli.common import log_to_file

    logger = logging.getLogger("carcnet")
    handlers, level, propagate = list(logger.handlers), logger.level, logger.propagate
    try:
        path = log_to_file(str(tmp_path / "games"))
        assert path == tmp_path / "games" / "carcnet.log" and not (tmp_path / "games").exists()
        logger.info("a peer connected")
        assert "a peer connected" in path.read_text()
    finally:
        for handler in logger.handlers:
            if handler not in handlers:
                handler.close()
        logger.handlers[:] = handlers
        logger.setLevel(level)
        logger.propagate = propagate


def test_host_help_and_the_lan_guide_name_every_bot_a_seat_can_have(capsys):
    from carcnet.bots import BOTS

    with pytest.raises(SystemExit):
        main(["host", "--help"])
    description = " ".join(capsys.readouterr().out.split("options:")[0].split())
    assert all(name in description for name in BOTS), description
    guide = (Path(__file__).parents[1] / "docs" / "lan-play.md").read_text()
    (row,) = [line for line in guide.splitlines() if "a bot that your carcnet runs" in line]
    assert all(f"`{name}`" in row for name in BOTS), row


@pytest.mark.parametrize("command", ["verify", "replay", "report"])
def test_a_file_that_is_no_save_is_said_in_words_not_a_bytes_literal(command, tmp_path, capsys):
    """ "it does not start with b'CARCLOG\\n'" read as Python, not as a sentence."""
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    assert main([command, str(notes), *(["-o", str(tmp_path)] if command == "report" else [])]) != EXIT_OK
    err = capsys.readouterr().err
    assert "notes.txt is not a carcnet" in err and "it does not begin as one does, with the word CARCLOG" in err, err
    assert "b'" not in err and "\\n" not in err, err


def test_games_counts_turns_as_the_screens_do_and_says_which_games_are_finished(data_dir, capsys):
    """A finished game of 142 moves is "finished, 71 turns" (it said "142 moves" where the screens
    say 71 turns, and not whether it was over); one stopped after 10 turns is at "turn 11 of 71", one
    stopped after a placement at that turn still."""
    from carcnet.bots import make_bot
    from carcnet.engine import Phase
    from carcnet.log import GameRecorder, LogHeader, Seat

    seats = [Seat("Ann", "red", "bot", "greedy"), Seat("Bob", "blue", "bot", "greedy")]
    folder = data_dir / "games"
    folder.mkdir(parents=True, exist_ok=True)
    for name, stop in (("a-finished", None), ("b-ten", 20), ("c-placed", 21)):
        with GameRecorder.create(LogHeader.new(seats, seed=3, created=0), folder / f"{name}.carclog") as recorder:
            bots = [make_bot("greedy", 1), make_bot("greedy", 2)]
            while recorder.game.phase is not Phase.GAME_OVER and (stop is None or len(recorder.game.moves) < stop):
                recorder.submit(bots[recorder.game.seat].choose(recorder.game.view()))
    assert main(["games"]) == EXIT_OK
    lines = capsys.readouterr().out.splitlines()
    assert "finished, 71 turns" in lines[1] and "a-finished" in lines[1], lines
    assert "turn 11 of 71" in lines[2] and "b-ten" in lines[2], lines
    assert "turn 11 of 71" in lines[3] and "c-placed" in lines[3], lines
    assert not any("moves" in line for line in lines), lines
