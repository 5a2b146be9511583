"""Fits the search bot's evaluation (``carcnet.bots.evaluation.WEIGHTS``) and prints its table.

Run: ``python benchmarks/fit_evaluation.py [--games N] [--river --abbot] [--jobs J] [--seed S]``.

Plays *N* two-player games of the greedy bot against itself. At every turn it records, for the seat
to play, the difference between its counts and its opponent's (``evaluation.features``; each as it
is and times the share of the bag left), and the points the seat went on to gain on its opponent
from there to the end (final margin minus the margin now). A least-squares fit of the second on the
first (with a constant, and a whisker of ridge for the columns that move together) gives the
weights; it prints them as a row of ``WEIGHTS``, each weight, the fit's R² and its error.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor

from carcnet.bots import GreedyBot
from carcnet.bots.evaluation import FEATURES, TILES, features
from carcnet.engine import Game, GameSetup, Phase, Rules

Row = tuple[list[float], float]


def rows_of_game(seed: int, river: bool, abbot: bool) -> list[Row]:
    """One game's ``(counts, points to come)`` rows, one per turn (2 seats)."""
    game = Game(GameSetup(players=2, seed=seed, rules=Rules(river=river, abbot=abbot)))
    bots = [GreedyBot(seed), GreedyBot(seed + 7)]
    seen: list[tuple[int, list[float], int]] = []
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.PLACE_TILE:
            seat = game.seat
            f = features(game)
            diff = [a - b for a, b in zip(f[seat], f[1 - seat], strict=True)]
            share = game.tiles_left / TILES
            seen.append((seat, diff + [x * share for x in diff], game.scores[seat] - game.scores[1 - seat]))
        game.apply(bots[game.seat].choose(game.view()))
    final = game.scores
    return [(x, float(final[s] - final[1 - s] - now)) for s, x, now in seen]


def _batch(args: tuple[range, bool, bool]) -> list[Row]:
    seeds, river, abbot = args
    return [row for seed in seeds for row in rows_of_game(seed, river, abbot)]


def least_squares(rows: list[Row], ridge: float = 1e-6) -> list[float]:
    """Weights ``w`` (one per column, then the constant) minimising the squared error of
    ``x · w + c`` against the target, plus ``ridge × rows`` times the squared weights (normal
    equations, Gaussian elimination with partial pivoting).

    Raises:
        ValueError: No rows.
    """
    if not rows:
        raise ValueError("no rows to fit")
    k = len(rows[0][0]) + 1
    a = [[0.0] * k for _ in range(k)]
    b = [0.0] * k
    for x, t in rows:
        xs = [*x, 1.0]
        for i, xi in enumerate(xs):
            if xi:
                b[i] += xi * t
                ai = a[i]
                for j, xj in enumerate(xs):
                    ai[j] += xi * xj
    for i in range(k):
        a[i][i] += ridge * len(rows)
    m = [a[i] + [b[i]] for i in range(k)]
    for c in range(k):
        pivot = max(range(c, k), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(k):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                for j in range(c, k + 1):
                    m[r][j] -= f * m[c][j]
    return [m[i][k] / m[i][i] for i in range(k)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="greedy-vs-greedy games (default 1000)")
    parser.add_argument("--seed", type=int, default=900000, help="first game's seed (default 900000)")
    parser.add_argument("--river", action="store_true", help="with The River")
    parser.add_argument("--abbot", action="store_true", help="with The Abbot")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args()
    step = max(1, args.games // (4 * args.jobs))
    batches = [
        (range(s, min(s + step, args.seed + args.games)), args.river, args.abbot)
        for s in range(args.seed, args.seed + args.games, step)
    ]
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = [row for part in pool.map(_batch, batches) for row in part]
    w = least_squares(rows)
    predicted = [sum(xi * wi for xi, wi in zip(x, w, strict=False)) + w[-1] for x, _t in rows]
    targets = [t for _x, t in rows]
    mean = statistics.fmean(targets)
    total = sum((t - mean) ** 2 for t in targets)
    error = sum((t - p) ** 2 for t, p in zip(targets, predicted, strict=True))
    names = [*FEATURES, *(f"{n}*share" for n in FEATURES), "constant"]
    for name, weight in zip(names, w, strict=True):
        print(f"{name:14} {weight:+.3f}")
    print(f"{len(rows)} positions from {args.games} games: R² {1 - error / total:.3f}, rms error {(error / len(rows)) ** 0.5:.2f} points")
    print("row for WEIGHTS: (" + ", ".join(f"{x:.3f}" for x in w[:-1]) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
