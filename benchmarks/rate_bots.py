"""Rates the bots on the ratings' scale from simulated games (issue 34) and prints the table.

Run: ``python benchmarks/rate_bots.py [--bots random,greedy,easy,medium,hard] [--games N] [--seats 2]
[--jobs J] [--seed S] [--json FILE]``.

Plays *N* games among the bots, *seats* a table, every combination of bots in turn (seats rotated
as ``carcnet simulate`` rotates them), and counts each into a :class:`~carcnet.club.ratings.Ratings`
as ``bot:<level>`` (the id the ratings give a bot seat in a network game), in game order (the
ratings do not depend on which process played a game). Prints each bot's rating (Elo-like scale,
1500 at the model's start), its 95 % spread and its games; ``--json`` writes the ratings file too.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from carcnet.cli.simulate import play_bot_game
from carcnet.club.ratings import Ratings, display


def _play(args: tuple[tuple[str, ...], int, int]) -> tuple[int, tuple[str, ...], tuple[int, ...]]:
    bots, seed, index = args
    outcome = play_bot_game(bots, seed, index)
    return index, bots, outcome.scores


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="random,greedy,easy,medium,hard", help="comma-separated levels")
    parser.add_argument("--games", type=int, default=200, help="games in all (default 200)")
    parser.add_argument("--seats", type=int, default=2, help="seats a game, 2 to 6 (default 2)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--seed", type=int, default=34, help="run seed (default 34)")
    parser.add_argument("--json", type=Path, help="write the ratings file here too")
    args = parser.parse_args()
    bots = args.bots.split(",")
    if not 2 <= args.seats <= min(6, len(bots)):
        parser.error(f"--seats: 2 to {min(6, len(bots))} for {len(bots)} bots")
    tables = list(itertools.combinations(bots, args.seats))
    work = [(tables[i % len(tables)], args.seed, i) for i in range(args.games)]
    with ProcessPoolExecutor(args.jobs) as pool:
        played = sorted(pool.map(_play, work, chunksize=max(1, len(work) // (8 * args.jobs))))
    ratings = Ratings()
    for index, table, scores in played:
        ratings.rate(f"simulated-{args.seed}-{index}", [f"bot:{b}" for b in table], scores)
    print(f"{args.games} games of {args.seats} seats among {', '.join(bots)} (seed {args.seed})")
    for player, rating in sorted(ratings.players.items(), key=lambda item: -item[1].mu):
        value, spread = display(rating)
        print(f"  {player:12} {value:5d} ± {spread:<4d} {rating.games:5d} games   mu {rating.mu:6.2f}  sigma {rating.sigma:4.2f}")
    if args.json is not None:
        ratings.write(args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
