"""Fits the search bot's evaluation (``carcnet.bots.evaluation.WEIGHTS``) and prints its table.

Run: ``python benchmarks/fit_evaluation.py [--games N] [--river --abbot --inns --traders] [--jobs J] [--seed S]
[--held-out M]``.

Plays *N* two-player games of the greedy bot against itself. At every turn it records, for the seat
to play, the difference between its counts and its opponent's (``evaluation.features``; each as it
is and times the share of the bag left), and the points the seat went on to gain on its opponent
from there to the end (final margin minus the margin now). A least-squares fit of the second on the
first (with a constant, and a whisker of ridge for the columns that move together) gives the
weights; it prints them as a row of ``WEIGHTS``, each weight, the fit's R² and its error. With
``--held-out M`` it also plays *M* games of seeds of their own and prints, on their positions, the
R² of the new weights and of each row of ``WEIGHTS`` today: whether a refit predicts better than
the row the rule set uses now (out of sample, so a fit with more columns than signal does not win
by overfitting).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor

from carcnet.bots import GreedyBot
from carcnet.bots.evaluation import DEAD_FEATURES, FEATURES, TILES, WEIGHTS, features, weights_for
from carcnet.engine import Game, GameSetup, Phase, Rules

Row = tuple[list[float], float]


def rows_of_game(seed: int, rules: Rules, dead: bool = False) -> list[Row]:
    """One game's ``(counts, points to come)`` rows, one per turn (2 seats); with *dead* the counts
    of ``DEAD_FEATURES`` too."""
    game = Game(GameSetup(players=2, seed=seed, rules=rules))
    bots = [GreedyBot(seed), GreedyBot(seed + 7)]
    seen: list[tuple[int, list[float], int]] = []
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.PLACE_TILE:
            seat = game.seat
            f = features(game, dead)
            diff = [a - b for a, b in zip(f[seat], f[1 - seat], strict=True)]
            share = game.tiles_left / TILES
            seen.append((seat, diff + [x * share for x in diff], game.scores[seat] - game.scores[1 - seat]))
        game.apply(bots[game.seat].choose(game.view()))
    final = game.scores
    return [(x, float(final[s] - final[1 - s] - now)) for s, x, now in seen]


def _batch(args: tuple[range, Rules, bool]) -> list[Row]:
    seeds, rules, dead = args
    return [row for seed in seeds for row in rows_of_game(seed, rules, dead)]


def _rows(first: int, games: int, rules: Rules, jobs: int, dead: bool = False) -> list[Row]:
    step = max(1, games // (4 * jobs))
    batches = [(range(s, min(s + step, first + games)), rules, dead) for s in range(first, first + games, step)]
    with ProcessPoolExecutor(jobs) as pool:
        return [row for part in pool.map(_batch, batches) for row in part]


def r_squared(rows: list[Row], w: tuple[float, ...] | list[float], constant: float) -> tuple[float, float]:
    """``(R², rms error)`` of ``x · w + constant`` against the rows' targets."""
    targets = [t for _x, t in rows]
    mean = statistics.fmean(targets)
    total = sum((t - mean) ** 2 for t in targets)
    error = sum((t - (sum(xi * wi for xi, wi in zip(x, w, strict=True)) + constant)) ** 2 for x, t in rows)
    return 1 - error / total, (error / len(rows)) ** 0.5


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
    parser.add_argument("--inns", action="store_true", help="with Inns & Cathedrals")
    parser.add_argument("--traders", action="store_true", help="with Traders & Builders")
    parser.add_argument("--dead", action="store_true",
                        help="count the features that can never be completed too (a row of 20 weights)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--held-out", type=int, default=0, metavar="M",
                        help="games of seeds of their own to compare the fit with today's rows on (default 0: none)")
    args = parser.parse_args()
    rules = Rules(river=args.river, abbot=args.abbot, inns=args.inns, traders=args.traders)
    rows = _rows(args.seed, args.games, rules, args.jobs, args.dead)
    w = least_squares(rows)
    fit, rms = r_squared(rows, w[:-1], w[-1])
    counts = [*FEATURES, *DEAD_FEATURES] if args.dead else list(FEATURES)
    names = [*counts, *(f"{n}*share" for n in counts), "constant"]
    for name, weight in zip(names, w, strict=True):
        print(f"{name:14} {weight:+.3f}")
    print(f"{len(rows)} positions from {args.games} games: R² {fit:.3f}, rms error {rms:.2f} points")
    print("row for WEIGHTS: (" + ", ".join(f"{x:.3f}" for x in w[:-1]) + ")")
    if args.held_out:
        held = _rows(args.seed + args.games + 1_000_000, args.held_out, rules, args.jobs, args.dead)
        used = next(name for name, row in WEIGHTS.items() if row == weights_for(rules, args.dead))
        print(f"held out: {len(held)} positions from {args.held_out} games of seeds of their own; the rule set uses {used!r}")
        print(f"  the new fit            R² {r_squared(held, w[:-1], w[-1])[0]:.4f}")
        for name, row in WEIGHTS.items():
            if len(row) > len(held[0][0]):
                continue  # a row with counts these positions lack
            # a row of 16 weights on positions with the dead counts: their columns left out
            k, m = len(row) // 2, len(held[0][0]) // 2
            seen = [([*x[:k], *x[m : m + k]], t) for x, t in held]
            # today's rows have no constant (a position's value is its score plus the counts'):
            # the held-out target is a margin, so each is scored with its best constant
            c = statistics.fmean(t - sum(xi * wi for xi, wi in zip(x, row, strict=True)) for x, t in seen)
            print(f"  WEIGHTS[{name!r}]{' ' * (9 - len(name))} R² {r_squared(seen, row, c)[0]:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
