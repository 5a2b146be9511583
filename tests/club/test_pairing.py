"""Pairing (carcnet.club.pairing, issue 34): no repeat meeting while avoidable, byes to the lowest
without one, the seat order spread, the tables' sizes, round robins, the lots; the same draw from the
same inputs on every laptop."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carcnet.club.pairing import berger_round, lots, met, seat_order, swiss_round, table_sizes
from carcnet.club.standings import GameResult, standings


def _play(tables: tuple[tuple[str, ...], ...], rng: random.Random) -> list[GameResult]:
    return [GameResult(t, tuple(rng.randrange(40, 120) for _ in t)) for t in tables]


def _event(players: list[str], rounds: int, size: int, minimum: int, seed: int) -> list[tuple[object, list[GameResult]]]:
    """Plays *rounds* Swiss rounds with random scores: [(round, its results)]."""
    rng = random.Random(seed)  # the test's scores, not the pairing's: the pairing draws nothing
    drawn = lots("event", players)
    results: list[GameResult] = []
    out = []
    for number in range(rounds):
        order = (sorted(players, key=drawn.__getitem__) if number == 0
                 else [s.player for s in standings(players, results, drawn)])
        rnd = swiss_round(order, results, size, minimum)
        played = _play(rnd.tables, rng) + [GameResult((p,)) for p in rnd.byes]
        out.append((rnd, played))
        results += played
    return out


def _perfect_matching_exists(players: list[str], meetings: dict[tuple[str, str], int]) -> bool:
    if not players:
        return True
    first, rest = players[0], players[1:]
    for other in rest:
        if meetings.get(tuple(sorted((first, other))), 0) == 0:  # type: ignore[arg-type]
            if _perfect_matching_exists([p for p in rest if p != other], meetings):
                return True
    return False


@pytest.mark.parametrize("count", [4, 6, 8, 10])
@pytest.mark.parametrize("seed", range(5))
def test_two_player_swiss_repeats_no_meeting_while_one_can_be_avoided(count, seed):
    """Round after round, whenever a pairing of everyone without a repeat exists (searched here by
    brute force), the draw repeats no meeting; and every player plays exactly once a round."""
    players = [f"p{i}" for i in range(count)]
    history: list[GameResult] = []
    for rnd, played in _event(players, count - 1, 2, 2, seed):
        seated = [p for t in rnd.tables for p in t]
        assert sorted(seated) == sorted(players) and not rnd.byes
        if _perfect_matching_exists(sorted(players), met(history)):
            assert all(met(history).get(tuple(sorted(t)), 0) == 0 for t in rnd.tables), (rnd, history)
        history += played


def test_the_top_of_the_standings_meets_the_next_in_line():
    """The championship's "1 and 2, 3 and 4…" when nobody has met: the first round's tables are
    the lots' order taken two by two."""
    order = [f"p{i}" for i in range(8)]
    rnd = swiss_round(order, [])
    assert [sorted(t) for t in rnd.tables] == [sorted(order[i:i + 2]) for i in range(0, 8, 2)]


def test_an_odd_count_gives_the_bye_to_the_lowest_without_one():
    """Five players at tables of two, five rounds: a bye each round, each player exactly one
    (FIDE C.04.1: never a second while avoidable), always the lowest-ranked of those without one."""
    players = ["a", "b", "c", "d", "e"]
    results: list[GameResult] = []
    drawn = lots("byes", players)
    byes = []
    for number in range(5):
        order = (sorted(players, key=drawn.__getitem__) if number == 0
                 else [s.player for s in standings(players, results, drawn)])
        rnd = swiss_round(order, results)
        assert len(rnd.byes) == 1
        had = {r.players[0] for r in results if r.bye}
        assert rnd.byes[0] == [p for p in order if p not in had][-1]
        byes.append(rnd.byes[0])
        results += _play(rnd.tables, random.Random(number)) + [GameResult(rnd.byes)]
    assert sorted(byes) == players


def test_the_player_who_started_fewer_games_starts():
    """The championship: "the starting player is the player that has started fewer times"; at a
    table of four each seat goes to who sat there least (ties: standings order)."""
    history = [GameResult(("a", "b"), (1, 2)), GameResult(("a", "c"), (1, 2))]
    assert seat_order(("a", "b"), history) == ("b", "a")
    assert seat_order(("b", "c"), history) == ("b", "c")  # both started none: the better placed
    four = [GameResult(("a", "b", "c", "d"), (1, 2, 3, 4)), GameResult(("b", "a", "d", "c"), (1, 2, 3, 4))]
    assert seat_order(("a", "b", "c", "d"), four) == ("c", "d", "a", "b")


@pytest.mark.parametrize(("count", "size", "minimum"), [(12, 4, 3), (10, 3, 2), (9, 5, 4), (14, 6, 3)])
def test_swiss_rounds_at_larger_tables_seat_everyone_and_spread_the_seats(count, size, minimum):
    """Tables of 3 to 6: every player once a round (at a table or a bye); the tables' sizes as
    table_sizes says; few repeat meetings (none in the first round); across six rounds nobody
    starts more than twice as often as another who played as many games, plus one."""
    players = [f"p{i:02}" for i in range(count)]
    sizes, byes = table_sizes(count, size, minimum)
    starts = dict.fromkeys(players, 0)
    history: list[GameResult] = []
    for number, (rnd, played) in enumerate(_event(players, 6, size, minimum, count)):
        assert sorted(len(t) for t in rnd.tables) == sorted(sizes) and len(rnd.byes) == byes
        assert sorted([p for t in rnd.tables for p in t] + list(rnd.byes)) == players
        if number == 0:
            assert not any(met(history))
        for t in rnd.tables:
            starts[t[0]] += 1
        history += played
    assert max(starts.values()) <= 2 * min(starts.values()) + 1, starts


@given(st.integers(0, 40), st.integers(2, 6), st.data())
@settings(max_examples=200, deadline=None)
def test_table_sizes_seat_the_most_players_at_allowed_tables(players, size, data):
    minimum = data.draw(st.integers(2, size))
    sizes, byes = table_sizes(players, size, minimum)
    assert sum(sizes) + byes == players
    assert all(minimum <= s <= size for s in sizes)
    assert sizes == sorted(sizes, reverse=True)
    # no fewer byes could do: no partition of players - byes + 1 … into allowed tables
    for fewer in range(byes):
        seated = players - fewer
        assert not any(sum(c) == seated for k in range(seated // minimum + 1)
                       for c in itertools.combinations_with_replacement(range(minimum, size + 1), k)), (players, fewer)


@pytest.mark.parametrize("count", [2, 3, 6, 7, 10])
def test_a_round_robin_at_tables_of_two_meets_every_pair_once(count):
    players = [f"p{i}" for i in range(count)]
    rounds = count - 1 if count % 2 == 0 else count
    history: list[GameResult] = []
    byes = []
    for index in range(rounds):
        rnd = berger_round(players, index, history)
        assert sorted([p for t in rnd.tables for p in t] + list(rnd.byes)) == players
        byes += rnd.byes
        history += [GameResult(t, (1, 0)) for t in rnd.tables]
    assert all(v == 1 for v in met(history).values()) and len(met(history)) == count * (count - 1) // 2
    assert sorted(byes) == (players if count % 2 else [])
    with pytest.raises(ValueError):
        berger_round(players, rounds)


def test_the_draw_is_the_same_from_the_same_inputs_and_the_lots_depend_on_the_event():
    players = [f"p{i}" for i in range(9)]
    assert _event(players, 4, 3, 2, 1) == _event(players, 4, 3, 2, 1)
    a, b = lots("one", players), lots("two", players)
    assert a == lots("one", list(reversed(players))) and a != b and len(set(a.values())) == 9
    with pytest.raises(ValueError):
        table_sizes(5, 7)
    with pytest.raises(ValueError):
        swiss_round(["a", "a"], [])
