"""Ratings (carcnet.club.ratings, issue 34): OpenSkill's Plackett-Luce update as the library computes
it, from signed logs that verify and only from them; a game counts once; the file round-trips."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from carcnet.bots import RandomBot
from carcnet.club.ratings import ELO_PER_MU, Rating, Ratings, display
from carcnet.engine import Phase
from carcnet.log import LogHeader, Seat
from carcnet.log.recorder import GameRecorder
from carcnet.table.keys import keys_path, write_keys

from ..log.util import craft, wire_maps, write
from ..log.vectors import SIGNED_NONCES, signed_keys

SEATS = [Seat("Ann", "red"), Seat("Bob", "blue"), Seat("Random", "yellow", "bot", "random")]


def test_a_game_of_three_moves_ratings_as_the_library_does():
    """The library's own numbers (openskill 6.2.0, PlackettLuce defaults) for three new players
    scoring 30, 20 and 20: the winner 27.869, the two tied 23.565 each, sigmas narrowed."""
    ratings = Ratings()
    assert ratings.rate("g1", ["a", "b", "c"], [30, 20, 20])
    a, b, c = (ratings.get(p) for p in "abc")
    assert a.mu == pytest.approx(27.869048680749426) and a.sigma == pytest.approx(8.205243377397993)
    assert b == c and b.mu == pytest.approx(23.565475659625285) and b.sigma == pytest.approx(8.058224222802378)
    assert a.games == b.games == 1


def test_any_prior_ratings_move_as_the_library_moves_them():
    model = PlackettLuce()
    ratings = Ratings(players={"x": Rating(31.0, 3.0, 12), "y": Rating(22.0, 6.5, 3)})
    ratings.rate("g", ["y", "x", "z"], [88, 70, 95])
    expected = model.rate([[model.create_rating([22.0, 6.5])], [model.create_rating([31.0, 3.0])],
                           [model.create_rating([25.0, 25 / 3])]], scores=[88.0, 70.0, 95.0])
    for p, (want,) in zip("yxz", expected, strict=True):
        assert (ratings.get(p).mu, ratings.get(p).sigma) == pytest.approx((want.mu, want.sigma))
    assert ratings.get("x").games == 13


def test_a_game_counts_once_and_the_file_round_trips(tmp_path: Path):
    ratings = Ratings()
    assert ratings.rate("g", ["a", "b"], [10, 5]) and not ratings.rate("g", ["a", "b"], [10, 5])
    path = tmp_path / "ratings.json"
    ratings.write(path)
    again = Ratings.read(path)
    assert again == ratings and again.to_json() == ratings.to_json()
    assert Ratings.read(tmp_path / "none.json") == Ratings()
    path.write_text('{"format": 1, "players": {"a": [25, -1, 0]}, "games": []}')
    with pytest.raises(ValueError, match="sigma > 0"):
        Ratings.read(path)
    with pytest.raises(ValueError):
        ratings.rate("h", ["a", "a"], [1, 2])


def test_the_scale_is_elo_like():
    """1500 at the start; 400 points where the model gives one player 10 to 1 over another."""
    assert display(Rating()) == (1500, round(2 * ELO_PER_MU * 25 / 3))
    model = PlackettLuce()
    strong, weak = model.create_rating([25 + 400 / ELO_PER_MU, 1e-3]), model.create_rating([25.0, 1e-3])
    win, _ = model.predict_win([[strong], [weak]])
    assert win == pytest.approx(10 / 11, abs=1e-3)


def _signed_game(path: Path, finish: bool = True) -> Path:
    header = LogHeader.new(SEATS, keys=[k.public for k in signed_keys()], nonces=SIGNED_NONCES, created=0,
                           game="cd" * 16)
    bots = [RandomBot(40 + seat) for seat in range(3)]
    with GameRecorder.create(header, path, signers=dict(enumerate(signed_keys()))) as recorder:
        while recorder.game.phase is not Phase.GAME_OVER and (finish or len(recorder.entries) < 10):
            recorder.submit(bots[recorder.game.seat].choose(recorder.game.view()))
    # the laptop that played it: Ann's seat and the random bot it ran (Bob's seat another laptop's)
    keys = signed_keys()
    write_keys(keys_path(path), header.game, keys[0], {0: keys[0], 2: keys[2]}, "Ann")
    return path


def test_a_signed_finished_log_counts_and_one_that_does_not_verify_changes_nothing(tmp_path: Path):
    good = _signed_game(tmp_path / "good.carclog")
    ratings = Ratings()
    assert ratings.rate_log(good) is None
    keys = [k.public.hex() for k in signed_keys()[:2]]
    assert set(ratings.players) == {*keys, "bot:random"} and ratings.games == {"cd" * 16}
    assert ratings.rate_log(good) == "not counted again: this game is in the ratings already"

    data = bytearray(good.read_bytes())
    data[-40] ^= 0x01  # a byte of the last entry: its checksum, signature or digest no longer holds
    tampered = tmp_path / "tampered.carclog"
    tampered.write_bytes(bytes(data))
    fresh = Ratings()
    why = fresh.rate_log(tampered)
    assert why is not None and why.startswith("not counted:") and fresh == Ratings()

    maps = wire_maps(good.read_bytes())  # a forged move: Bob's entry signed by Ann's key, framed well
    entry = next(m for m in maps[1:] if m["seat"] == 1)
    entry["sig"] = signed_keys()[0].sign(b"not this entry")
    forged = write(tmp_path, craft(*maps), "forged.carclog")
    why = fresh.rate_log(forged)
    assert why is not None and "signature" in why and fresh == Ratings()

    unfinished = _signed_game(tmp_path / "unfinished.carclog", finish=False)
    assert fresh.rate_log(unfinished) == "not counted: the game is not over" and fresh == Ratings()
    assert fresh.rate_log(tmp_path / "missing.carclog").startswith("not counted:")


def test_an_unsigned_log_counts_for_nothing(tmp_path: Path):
    header = dataclasses.replace(LogHeader.new(SEATS, seed=5, created=0), game="ef" * 16)
    bots = [RandomBot(seat) for seat in range(3)]
    with GameRecorder.create(header, tmp_path / "local.carclog") as recorder:
        while recorder.game.phase is not Phase.GAME_OVER:
            recorder.submit(bots[recorder.game.seat].choose(recorder.game.view()))
    ratings = Ratings()
    assert "not signed" in (ratings.rate_log(tmp_path / "local.carclog") or "") and ratings == Ratings()
