"""Provides headless bot-versus-bot games in bulk: what ``carcnet simulate`` runs.

Game ``i`` of a run with seed ``S`` uses the deck seed ``game_seed(S, i)`` (the first 8 bytes of
SHA-256 of ``"carcnet/simulate/v1 S i"``) and seats the bots rotated by ``i``: seat ``s`` is played by
bot entry ``(s + i) mod players``, so every entry plays every seat equally often. Bot ``s`` of game
``i`` is seeded with ``game_seed(S, i) + s + 1`` (mod 2**64). Results do not depend on ``jobs``.
"""

from __future__ import annotations

import hashlib
import math
import os
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from carcnet.bots import make_bot
from carcnet.engine import Game, GameSetup, Phase, Rules
from carcnet.i18n import _, ngettext

__all__ = ["GameOutcome", "SimulationResult", "check_simulation", "game_seed", "play_bot_game", "simulate"]


def game_seed(seed: int, index: int) -> int:
    """The deck seed of game *index* of a run seeded *seed* (see the module docstring)."""
    digest = hashlib.sha256(f"carcnet/simulate/v1 {seed} {index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One finished game. *scores* and *winners* are by bot entry (not seat); *seconds* is wall time."""

    index: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    seconds: float


def play_bot_game(bots: Sequence[str], seed: int, index: int, rules: Rules | None = None) -> GameOutcome:
    """Plays game *index* of a run to the end. Raises ``ValueError`` for an unknown bot name."""
    players = len(bots)
    deck_seed = game_seed(seed, index)
    entry_of_seat = [(s + index) % players for s in range(players)]
    seat_bots = [make_bot(bots[entry_of_seat[s]], (deck_seed + s + 1) % 2**64) for s in range(players)]
    start = time.perf_counter()
    game = Game(GameSetup(players=players, seed=deck_seed, rules=rules or Rules()))
    while game.phase is not Phase.GAME_OVER:
        game.apply(seat_bots[game.actor].choose(game.view()))
    scores = [0] * players
    for seat, entry in enumerate(entry_of_seat):
        scores[entry] = game.scores[seat]
    winners = tuple(sorted(entry_of_seat[s] for s in game.winners))
    return GameOutcome(index, tuple(scores), winners, time.perf_counter() - start)


def _play_chunk(
    bots: Sequence[str], seed: int, indices: Sequence[int], rules: Rules | None = None
) -> list[GameOutcome]:
    return [play_bot_game(bots, seed, i, rules) for i in indices]


@dataclass
class SimulationResult:
    """Results of a run, by bot entry (the order of ``bots``).

    Attributes:
        bots: Bot names, one entry per seat.
        outcomes: Every game, in game order.
        seconds: Wall time of the whole run.
    """

    bots: tuple[str, ...]
    outcomes: list[GameOutcome] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def games(self) -> int:
        return len(self.outcomes)

    def wins(self, entry: int) -> int:
        """Games the entry won outright or shared the top score."""
        return sum(entry in o.winners for o in self.outcomes)

    def shared(self, entry: int) -> int:
        """Of those, games where the top score was shared."""
        return sum(entry in o.winners and len(o.winners) > 1 for o in self.outcomes)

    def interval(self, entry: int) -> tuple[float, float]:
        """The 95 % Wilson score interval of the entry's share of games won (a shared top score
        counts as won), as fractions: ``(low, high)``; ``(0, 1)`` before any game."""
        n = self.games
        if n == 0:
            return 0.0, 1.0
        z = 1.959963984540054
        p = self.wins(entry) / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    def scores(self, entry: int) -> list[int]:
        return [o.scores[entry] for o in self.outcomes]

    def mean(self, entry: int) -> float:
        return statistics.fmean(self.scores(entry)) if self.outcomes else 0.0

    def stdev(self, entry: int) -> float:
        s = self.scores(entry)
        return statistics.stdev(s) if len(s) > 1 else 0.0


def check_simulation(bots: Sequence[str], games: int, first: int = 0) -> None:
    """Checks what :func:`simulate` is asked, before anything is shown or played.

    Raises:
        ValueError: Unknown bot name, bad player count, a non-positive number of games or a negative
            *first*; the message says what is wrong (in the player's language).
    """
    if not 2 <= len(bots) <= 6:
        # Translators: {count} is the number of bots named.
        raise ValueError(ngettext("a game has 2 to 6 players, got {count} bot", "a game has 2 to 6 players, got {count} bots",
                                  len(bots)).format(count=len(bots)))
    if games < 1:
        raise ValueError(_("--games must be at least 1"))
    if first < 0:
        raise ValueError(_("--first must be 0 or more"))
    for name in set(bots):
        make_bot(name, 0)  # fails early with the list of known bots


def simulate(
    bots: Sequence[str],
    games: int,
    seed: int,
    jobs: int = 1,
    on_game: Callable[[GameOutcome], None] | None = None,
    rules: Rules | None = None,
    first: int = 0,
) -> SimulationResult:
    """Plays *games* bot games (2–6 bots), games *first* to *first* + *games* − 1 of the run *seed*
    (a run split in parts plays the games one whole run would), and returns the results; *on_game*
    is called as each game (or chunk of games, with several jobs) finishes, in game order.
    ``jobs=0`` uses every core.

    Raises:
        ValueError: Unknown bot name, bad player count, a non-positive number of games or a negative
            *first*.
    """
    bots = tuple(bots)
    check_simulation(bots, games, first)
    result = SimulationResult(bots)
    start = time.perf_counter()
    jobs = jobs or os.cpu_count() or 1
    if jobs == 1:
        for i in range(first, first + games):
            outcome = play_bot_game(bots, seed, i, rules)
            result.outcomes.append(outcome)
            if on_game:
                on_game(outcome)
    else:
        chunk = max(1, min(20, games // (jobs * 4) or 1))
        end = first + games
        starts = range(first, end, chunk)
        with ProcessPoolExecutor(jobs) as pool:
            futures = [pool.submit(_play_chunk, bots, seed, range(s, min(s + chunk, end)), rules) for s in starts]
            for fut in futures:
                for outcome in fut.result():
                    result.outcomes.append(outcome)
                    if on_game:
                        on_game(outcome)
    result.seconds = time.perf_counter() - start
    return result
