"""River benchmark (issue 16): is the whole river placed in every game, and what does keeping it
finishable cost?

Run: ``python benchmarks/bench_river.py [--games N] [--workers W]``. Figures go to docs/rules.md and
docs/performance.md.

Plays N random games with The River for each start-tile option (``after``, ``river``, ``omit``;
2 to 4 players, every other game with The Abbot) and prints, per option: games whose river was
finished (every river tile and the lake placed, none set aside), river tiles set aside, games with
the start tile among the river tiles set aside, and the engine's time per game. The random bot picks
uniformly among the legal moves, so every rotation and position the rules allow is tried somewhere.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from carcnet.bots import RandomBot
from carcnet.engine import Game, GameSetup, Phase, Rules, TilePlaced, tile_kind
from carcnet.engine.expansions.river import river_end

STARTS = ("after", "river", "omit")


def play(seed: int, start: str) -> tuple[bool, int, float]:
    """One random river game: (the whole river placed, river tiles set aside, seconds)."""
    began = time.perf_counter()
    rules = Rules(river=True, river_start=start, abbot=seed % 2 == 1)
    game = Game(GameSetup(players=2 + seed % 3, seed=seed, rules=rules))
    bot = RandomBot(seed)
    while game.phase is not Phase.GAME_OVER:
        game.apply(bot.choose(game.view()))
    took = time.perf_counter() - began
    river = [e.tile for e in game.events if isinstance(e, TilePlaced) and tile_kind(e.tile).has_river]
    aside = sum(1 for t in game.set_aside if tile_kind(t).has_river or (start == "river" and t == "D"))
    finished = river_end(game) is None and len(river) == 12 and river[-1] == "R2" and aside == 0
    return finished, aside, took


def batch(args: tuple[str, int, int]) -> tuple[int, int, float]:
    start, first, count = args
    finished = aside = 0
    seconds = 0.0
    for seed in range(first, first + count):
        done, lost, took = play(seed, start)
        finished += done
        aside += lost
        seconds += took
    return finished, aside, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per start-tile option (default 10000)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: cores)")
    args = parser.parse_args(argv)
    n, workers = args.games, max(1, args.workers)
    print(f"{n} random river games per start-tile option, {workers} processes, Python {sys.version.split()[0]}")
    print(f"{'start tile':<10} {'river finished':>16} {'river tiles set aside':>22} {'ms/game':>8}")
    all_finished = True
    for start in STARTS:
        step = -(-n // workers)
        jobs = [(start, first, min(step, n - first)) for first in range(0, n, step)]
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(batch, jobs))
        finished = sum(r[0] for r in results)
        aside = sum(r[1] for r in results)
        ms = 1000 * sum(r[2] for r in results) / n
        all_finished &= finished == n
        print(f"{start:<10} {finished:>9} of {n:<5} {aside:>22} {ms:>8.2f}")
    print("the river was finished in every game" if all_finished else "SOME RIVERS WERE NOT FINISHED")
    return 0 if all_finished else 1


if __name__ == "__main__":
    sys.exit(main())
