"""Standings (carcnet.club.standings, issue 34): wins, score difference, Buchholz Cut 1 and lots, on
worked examples computed by hand in the docstrings; byes; tables of more than two."""

from __future__ import annotations

from fractions import Fraction

import pytest

from carcnet.club.standings import GameResult, standings


def g(*pairs: tuple[str, int]) -> GameResult:
    return GameResult(tuple(p for p, _ in pairs), tuple(s for _, s in pairs))


def test_a_worked_example_of_three_rounds_at_tables_of_two():
    """Six players, three rounds (hand-computed):

    R1: A 90–80 B, C 70–70 D (a tie: 0.5 each), E 100–60 F
    R2: A 85–95 E, B 75–65 C, D 88–80 F
    R3: A 70–60 D, E 77–80 B, C 90–50 F

    wins: A 2, B 2, E 2, C 1.5, D 1.5, F 0; differences: A +10, B +3, C +30, D −2, E +47, F −88;
    Buchholz Cut 1 (opponents' wins less the weakest): A 2+2+1.5−1.5 = 4, B 2+1.5+2−1.5 = 4,
    C 1.5+2+0−0 = 3.5, D 1.5+0+2−0 = 3.5, E 0+2+2−0 = 4, F 2+1.5+1.5−1.5 = 3.5.
    Order: E, A, B (2 wins, by difference), C, D (1.5), F."""
    results = [
        g(("A", 90), ("B", 80)), g(("C", 70), ("D", 70)), g(("E", 100), ("F", 60)),
        g(("A", 85), ("E", 95)), g(("B", 75), ("C", 65)), g(("D", 88), ("F", 80)),
        g(("A", 70), ("D", 60)), g(("E", 77), ("B", 80)), g(("C", 90), ("F", 50)),
    ]
    table = standings("ABCDEF", results)
    assert [s.player for s in table] == ["E", "A", "B", "C", "D", "F"]
    line = {s.player: (s.wins, s.difference, s.buchholz, s.games) for s in table}
    half = Fraction(1, 2)
    assert line == {
        "A": (2, 10, 4, 3), "B": (2, 3, 4, 3), "C": (1 + half, 30, 3 + half, 3),
        "D": (1 + half, -2, 3 + half, 3), "E": (2, 47, 4, 3), "F": (0, -88, 3 + half, 3),
    }
    assert [s.rank for s in table] == [1, 2, 3, 4, 5, 6]


def test_the_buchholz_breaks_a_tie_of_wins_and_difference_and_the_lots_what_is_left():
    """R1: A 60–50 B, C 60–50 D, E 60–50 F; R2: A 50–60 C, B 60–50 E, D 60–50 F.
    A, B, D, E: 1 win and a difference of 0 each; Buchholz Cut 1: A (B 1, C 2) 2, D (C 2, F 0) 2,
    B (A 1, E 1) 1, E (F 0, B 1) 1; C (D 1, A 1) 1, F (E 1, D 1) 1. So C, then A and D, then B and E (each pair by lots), then F."""
    results = [
        g(("A", 60), ("B", 50)), g(("C", 60), ("D", 50)), g(("E", 60), ("F", 50)),
        g(("A", 50), ("C", 60)), g(("B", 60), ("E", 50)), g(("D", 60), ("F", 50)),
    ]
    first = standings("ABCDEF", results, lots={"A": b"2", "B": b"1", "C": b"0", "D": b"1", "E": b"2", "F": b"0"})
    assert [s.player for s in first] == ["C", "D", "A", "B", "E", "F"]
    assert {s.player: s.buchholz for s in first} == {"A": 2, "B": 1, "C": 1, "D": 2, "E": 1, "F": 1}
    other = standings("ABCDEF", results, lots={"A": b"0", "B": b"2", "C": b"0", "D": b"1", "E": b"0", "F": b"0"})
    assert [s.player for s in other] == ["C", "A", "D", "E", "B", "F"]


def test_a_table_of_three_shares_a_tied_win_and_measures_against_the_mean():
    """Ann 80, Bob 80, Cleo 50: Ann and Bob win half each; differences: Ann 80 − (80+50)/2 = 15,
    Bob 15, Cleo 50 − 80 = −30. A bye: a win, no difference, no opponent."""
    result = g(("Ann", 80), ("Bob", 80), ("Cleo", 50))
    assert result.wins() == {"Ann": Fraction(1, 2), "Bob": Fraction(1, 2), "Cleo": 0}
    assert result.differences() == {"Ann": 15, "Bob": 15, "Cleo": -30}
    table = standings(["Ann", "Bob", "Cleo", "Dan"], [result, GameResult(("Dan",))])
    assert [(s.player, s.wins, s.byes, s.games) for s in table][0] == ("Dan", 1, 1, 0)
    assert sum(s.wins for s in table) == 2  # one win a game, one a bye


@pytest.mark.parametrize("bad", [
    lambda: GameResult(()), lambda: GameResult(("A", "A"), (1, 2)), lambda: GameResult(("A", "B"), (1,)),
    lambda: GameResult(("A",), (3,)),
])
def test_a_malformed_result_is_refused(bad):
    with pytest.raises(ValueError):
        bad()


def test_a_result_of_a_player_not_in_the_event_is_refused():
    with pytest.raises(ValueError, match="not in the event"):
        standings(["A", "B"], [g(("A", 1), ("Z", 2))])
