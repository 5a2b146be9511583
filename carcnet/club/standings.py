"""Standings of a tournament from the results of its games, the same on every laptop.

Sources. The Carcassonne World Championship's tournament rules (carcassonne-meisterschaft.de,
"Tournament Rules of the Final", 2019; the same text since the 5th championship in 2010), for its
two-player Swiss rounds: "the number of victories will be counted (in the case of a tie, here each
player gets 0,5 victories)"; "We will use the Buchholz (Solkoff) method to resolve ties. This means
that for every player the number of victories of his opponents will be summed up. For this the
result of the weakest opponent will be discarded. If there are still ties, then the difference of
victory points over all [...] games will be summed up and used as tie-breaker." The FIDE Handbook
(C.02, tie-break rules) names that cut "Buchholz Cut 1".

carcnet orders by **wins**, then the **score difference**, then the **Buchholz Cut 1**, then the
lots: the order the issue asks for (a club night's games are few, and the points say more of a
game than an opponent's other results), where the championship puts the Buchholz before the score
difference; both are computed and shown. Extended to tables of 3 to 6 seats:

- a game's **win** is 1 to the seat with the highest score, shared equally by seats tied there
  (two tied at a table of two get 0.5 each, as the championship says; three tied at the top get 1/3);
- a game's **score difference** is the seat's score less the mean of its opponents' scores at that
  table (at a table of two, the difference of the two scores);
- the **Buchholz** sums, over every opponent at every table the player sat at, that opponent's wins
  in the whole event, less the smallest of those terms when there are two or more (Cut 1);
- a **bye** (a round without a table) is a win with a score difference of 0, and no opponent (FIDE
  C.04.1: a pairing-allocated bye scores as a win).

Numbers are :class:`~fractions.Fraction`: exact, so that every laptop ranks alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["GameResult", "Standing", "standings"]


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game of a round, or a bye.

    Attributes:
        players: The player ids in seat order (seat 0 began); one id alone is a bye.
        scores: Their final scores, in the same order; empty for a bye.

    Raises:
        ValueError: No player, a player twice, or scores that do not match the players.
    """

    players: tuple[str, ...]
    scores: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.players:
            raise ValueError("a game has at least one player (one alone is a bye)")
        if len(set(self.players)) != len(self.players):
            raise ValueError(f"a player sits twice at one table: {self.players}")
        if self.bye and self.scores:
            raise ValueError("a bye has no scores")
        if not self.bye and len(self.scores) != len(self.players):
            raise ValueError(f"{len(self.players)} players but {len(self.scores)} scores")

    @property
    def bye(self) -> bool:
        """Whether this is a bye: one player, no table."""
        return len(self.players) == 1

    def wins(self) -> dict[str, Fraction]:
        """Player → the win this game gives (module docstring): 1 shared by the top scores, 1 for a bye."""
        if self.bye:
            return {self.players[0]: Fraction(1)}
        top = max(self.scores)
        tied = sum(1 for s in self.scores if s == top)
        return {p: Fraction(1, tied) if s == top else Fraction(0) for p, s in zip(self.players, self.scores, strict=True)}

    def differences(self) -> dict[str, Fraction]:
        """Player → its score less the mean of its opponents' at this table; 0 for a bye."""
        if self.bye:
            return {self.players[0]: Fraction(0)}
        total, others = sum(self.scores), len(self.scores) - 1
        return {p: s - Fraction(total - s, others) for p, s in zip(self.players, self.scores, strict=True)}


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line of the standings.

    Attributes:
        rank: 1 for the first; every player has a rank of its own (the lots break what is left).
        player: The player id.
        wins: Wins over the event (module docstring).
        difference: The sum of its games' score differences.
        buchholz: Its opponents' wins, less the smallest term (Buchholz Cut 1).
        games: Games played (byes not counted).
        byes: Byes received.
    """

    rank: int
    player: str
    wins: Fraction
    difference: Fraction
    buchholz: Fraction
    games: int
    byes: int


def standings(players: Sequence[str], results: Sequence[GameResult],
              lots: Mapping[str, bytes] | None = None) -> list[Standing]:
    """The standings of *players* after *results* (every round's games and byes, any order), best
    first: by wins, score difference, Buchholz Cut 1 (each higher first), then the lots (*lots*:
    player → bytes, lower first; by default the player ids).

    Raises:
        ValueError: A result names a player who is not among *players*.
    """
    known = set(players)
    wins = {p: Fraction(0) for p in players}
    difference = {p: Fraction(0) for p in players}
    games = dict.fromkeys(players, 0)
    byes = dict.fromkeys(players, 0)
    for result in results:
        stranger = [p for p in result.players if p not in known]
        if stranger:
            raise ValueError(f"{stranger[0]!r} played but is not in the event")
        for p, w in result.wins().items():
            wins[p] += w
        for p, d in result.differences().items():
            difference[p] += d
        for p in result.players:
            if result.bye:
                byes[p] += 1
            else:
                games[p] += 1
    terms: dict[str, list[Fraction]] = {p: [] for p in players}
    for result in results:
        if result.bye:
            continue
        for p in result.players:
            terms[p].extend(wins[o] for o in result.players if o != p)
    buchholz = {p: sum(t, Fraction(0)) - (min(t) if len(t) >= 2 else 0) for p, t in terms.items()}
    lot = lots or {p: p.encode() for p in players}
    order = sorted(players, key=lambda p: (-wins[p], -difference[p], -buchholz[p], lot[p], p))
    return [Standing(i + 1, p, wins[p], difference[p], buchholz[p], games[p], byes[p]) for i, p in enumerate(order)]
