"""Engine benchmark: prints games per second, placement enumeration time and replay time.

Run: ``python benchmarks/bench_engine.py [--games N] [--seconds S]``. Figures go to docs/performance.md.

Measures, on this machine:
1. random full 2-player games per second, farmers included (the random bot picks uniformly among
   all legal moves, deployments and skips alike), in one process and in one process per core;
2. legal-placement enumeration for the drawn tile, per turn: median and p90 over every turn of the
   games played (``Board.placements``, the frontier lookup behind ``Game.legal_placements``);
3. replaying a whole recorded game (71 turns, 142 moves) from its setup, median over games.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from carcnet.bots import random_move
from carcnet.engine import Game, GameSetup, Phase, replay


def play(seed: int) -> Game:
    game = Game(GameSetup(players=2, seed=seed))
    rng = random.Random(seed)  # the random bot's moves, on the game itself: the engine's speed, no view
    while game.phase is not Phase.GAME_OVER:
        game.apply(random_move(game, rng))
    return game


def games_per_second(first_seed: int, count: int) -> float:
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + count):
        play(seed)
    return count / (time.perf_counter() - start)


def enumeration_times(seeds: range) -> list[float]:
    """Seconds per enumeration of the drawn tile's placements, one sample per turn."""
    samples: list[float] = []
    clock = time.perf_counter_ns
    for seed in seeds:
        game = Game(GameSetup(players=2, seed=seed))
        rng = random.Random(seed)
        while game.phase is not Phase.GAME_OVER:
            if game.phase is Phase.PLACE_TILE:
                kind = game._drawn  # the drawn TileKind
                assert kind is not None
                t0 = clock()
                game.board.placements(kind)
                samples.append((clock() - t0) / 1e9)
            game.apply(random_move(game, rng))
    return samples


def replay_times(seeds: range, repeats: int = 3) -> tuple[list[float], int]:
    """Per game, the best of *repeats* replays (as timeit does: the minimum filters out noise from
    other processes; the median across games is then reported)."""
    samples = []
    moves = 0
    for seed in seeds:
        game = play(seed)
        moves = len(game.moves)
        best = float("inf")
        for _ in range(repeats):
            t0 = time.perf_counter()
            replay(game.setup, game.moves)
            best = min(best, time.perf_counter() - t0)
        samples.append(best)
    return samples, moves


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per measurement (default 400)")
    args = parser.parse_args()
    n = args.games
    print(f"python {sys.version.split()[0]} on {os.cpu_count()} cores")
    play(0)  # warm the per-design lookup tables
    rounds = [games_per_second(1 + i * n, n // 5 or 1) for i in range(5)]
    print(
        f"random 2-player games, farmers included, 1 process:   {statistics.median(rounds):7.1f} games/s "
        f"(median of 5 rounds; best {max(rounds):.1f})"
    )
    workers = os.cpu_count() or 1
    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(games_per_second, [10_000 * (i + 1) for i in range(workers)], [5] * workers))
        t0 = time.perf_counter()
        list(pool.map(games_per_second, [20_000 * (i + 1) for i in range(workers)], [n] * workers))
        multi = workers * n / (time.perf_counter() - t0)
    print(f"random 2-player games, farmers included, {workers} processes: {multi:7.1f} games/s "
          f"({multi / workers:.1f} per core)")
    enum = sorted(enumeration_times(range(100, 100 + max(20, n // 10))))
    p90 = enum[int(0.9 * (len(enum) - 1))]
    print(
        f"legal-placement enumeration per turn: median {statistics.median(enum) * 1e6:.1f} µs, "
        f"p90 {p90 * 1e6:.1f} µs ({len(enum)} turns)"
    )
    rep, moves = replay_times(range(500, 500 + max(20, n // 10)))
    print(f"replay of a whole game ({moves} moves, 71 turns): median {statistics.median(rep) * 1e3:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
