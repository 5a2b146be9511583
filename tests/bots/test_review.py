"""The review of a game (carcnet.bots.review, issue 34): a turn that leaves a seat's city open when
the tile drawn closes it is marked, with the points at stake; a turn as the bot would play it is not."""

from __future__ import annotations

import pytest

from carcnet.bots.review import MARK_POINTS, review_game, review_turn, turns_of
from carcnet.engine import Game, GameSetup, parse_move

ORDER = ("U", "U", "U", "U", "E", "F", "E", "U", "U")
OPENING = [
    "place U 1,0 90", "skip", "place U 2,0 90", "skip", "place U 3,0 90", "skip", "place U -1,0 90", "skip",
    "place E 1,-1 90", "deploy 0",  # Red: a knight in a city begun above the road
    "place F 2,-1 0", "skip",  # Blue extends it (a pennant): three tiles and a pennant once closed
]
CLOSED = "place E 3,-1 270"  # Red's tile closes it: 8 points
MISSED = "place E 0,-1 180"  # Red closes the start city instead (nobody's) and leaves its own open


def _game(red: str) -> tuple[GameSetup, list]:
    setup = GameSetup(players=2, draw_order=ORDER)
    moves = [parse_move(m) for m in [*OPENING, red, "skip", "place U 4,0 90", "skip", "place U -2,0 90", "skip"]]
    game = Game(setup)
    for move in moves:
        game.apply(move)
    return setup, moves


def saved_missed_game(path):  # type: ignore[no-untyped-def]
    """The game where Red misses its city, saved at *path* as a game at one terminal; *path*."""
    from carcnet.log import GameRecorder, LogHeader, Seat

    setup, moves = _game(MISSED)
    header = LogHeader.new([Seat("Red", "red"), Seat("Blue", "blue")], order=setup.draw_order, created=0)
    with GameRecorder.create(header, path) as recorder:
        for move in moves:
            recorder.submit(parse_move(str(move)))
    return path


def test_a_turn_that_leaves_the_seat_s_city_open_is_marked_with_the_points_at_stake():
    """Red leaves its three-tile city with a pennant open: 8 points closed, 4 at the end open (the two
    tiles left cannot close it), and the farm beside a closed city is worth more: 4 points at stake
    at least, more than MARK_POINTS, and no more than the city and a farm's 3 points for it."""
    setup, moves = _game(MISSED)
    reviews = review_game(setup, moves, level="medium")
    assert [r.turn for r in reviews] == list(range(1, 10)) and [r.seat for r in reviews] == [0, 1] * 4 + [0]
    missed = reviews[6]
    assert missed.seat == 0 and str(missed.played[0]) == MISSED
    assert str(missed.best[0]) == CLOSED
    assert missed.marked and MARK_POINTS < 4 <= missed.stake <= 4 + 3 + 4 and missed.spread < missed.stake / 2


def test_the_turn_the_bot_would_play_is_not_marked():
    setup, moves = _game(MISSED)
    index, position, played = turns_of(setup, moves)[6]
    best = review_turn(position, played, level="medium").best
    review = review_turn(position, best, level="medium", index=index, number=7)
    assert review.best == review.played == best and review.stake == 0 and not review.marked
    assert (review.move, review.turn, review.seat) == (index, 7, 0)


def test_a_review_is_the_same_every_time_and_only_of_the_seats_asked():
    setup, moves = _game(MISSED)
    first = review_game(setup, moves, level="easy", seats=[1])
    assert first == review_game(setup, moves, level="easy", seats=[1])
    assert {r.seat for r in first} == {1} and len(first) == 4
    calls: list[tuple[int, int]] = []
    review_game(setup, moves[:4], level="easy", on_turn=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 2), (2, 2)]
    with pytest.raises(ValueError):
        review_game(setup, moves, level="grandmaster")
