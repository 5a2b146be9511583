"""Engine benchmark: prints games per second, placement enumeration time and replay time.

Run: ``python benchmarks/bench_engine.py [--games N]``. Figures go to docs/performance.md.

``--reference DIR`` compares this checkout's engine with the one in *DIR* (another checkout, for
example ``git worktree add /tmp/ref 9b08273``) instead: both play the same games in child processes,
alternated ``--rounds`` times in one run, measured in CPU time (the machine may be shared; each
child keeps its best of several repeats), and it prints each measure's median over the runs for
both and their ratio (this checkout over the reference; above 1 is faster here), and whether the
games were identical (their final scores hash the same).

Measures, on this machine:
1. random full 2-player games per second, farmers included (the random bot picks uniformly among
   all legal moves, deployments and skips alike), in one process and in one process per core;
2. legal-placement enumeration for the drawn tile, per turn: median and p90 over every turn of the
   games played (``Board.placements``, the frontier lookup behind ``Game.legal_placements``);
3. replaying a whole recorded game (71 turns, 142 moves) from its setup, median over games.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from carcnet.engine import Game, GameSetup, Phase, replay

try:
    from carcnet.bots import random_move
except ImportError:  # a reference checkout from before the bots' views: the same policy, as a bot
    from carcnet.bots import RandomBot

    def random_move(game: Game, rng: random.Random) -> object:  # type: ignore[misc]
        bot = RandomBot()
        bot._rng = rng
        return bot.choose(game)  # type: ignore[arg-type]

ROOT = Path(__file__).resolve().parent.parent


def play(seed: int) -> Game:
    game = Game(GameSetup(players=2, seed=seed))
    rng = random.Random(seed)  # the random bot's moves, on the game itself: the engine's speed, no view
    while game.phase is not Phase.GAME_OVER:
        game.apply(random_move(game, rng))  # type: ignore[arg-type]
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


def measure_cpu(games: int) -> dict[str, object]:
    """The child's side of ``--reference``: random games per CPU second (the best of 5 rounds of
    *games* / 5 games, seeds 1…), CPU medians of enumeration and replay (each the best of a few
    repeats), and a hash of the games' final scores."""
    cpu: Callable[[], float] = time.process_time
    play(0)
    per_round = max(1, games // 5)
    scores: list[list[int]] = []
    games_cpu = float("inf")
    for _ in range(5):  # the best of 5 rounds of the same games, as timeit does: the noise is others' work
        t0 = cpu()
        scores = [play(seed).scores for seed in range(1, per_round + 1)]
        games_cpu = min(games_cpu, cpu() - t0)
    clock = time.process_time_ns
    enum: list[float] = []
    for seed in range(100, 100 + max(10, games // 5)):
        game = Game(GameSetup(players=2, seed=seed))
        rng = random.Random(seed)
        while game.phase is not Phase.GAME_OVER:
            if game.phase is Phase.PLACE_TILE:
                kind = game._drawn
                t = clock()
                for _ in range(10):
                    game.board.placements(kind)  # type: ignore[arg-type]
                enum.append((clock() - t) / 10e3)
            game.apply(random_move(game, rng))  # type: ignore[arg-type]
    reps: list[float] = []
    for seed in range(500, 500 + max(10, games // 5)):
        game = play(seed)
        best = float("inf")
        for _ in range(3):
            t = clock()
            replay(game.setup, game.moves)
            best = min(best, (clock() - t) / 1e6)
        reps.append(best)
    digest = hashlib.sha256(repr([list(s) for s in scores]).encode()).hexdigest()[:16]
    return {"games_per_cpu_s": per_round / games_cpu, "enum_us": statistics.median(enum),
            "replay_ms": statistics.median(reps), "scores": digest}


def compare(reference: Path, games: int, rounds: int) -> int:
    """Alternates child runs of this checkout and *reference*, prints medians and ratios."""
    runs: dict[str, list[dict[str, object]]] = {"here": [], "reference": []}
    for r in range(rounds):
        order = [("here", ROOT), ("reference", reference)]
        for name, path in order if r % 2 == 0 else order[::-1]:
            env = {**os.environ, "PYTHONPATH": str(path), "PYTHONHASHSEED": "0"}
            out = subprocess.run([sys.executable, __file__, "--child", str(games)], env=env,
                                 check=True, capture_output=True, text=True).stdout
            runs[name].append(json.loads(out.splitlines()[-1]))
            print(f"  round {r + 1} {name:<9} {runs[name][-1]}", flush=True)
    same = {run["scores"] for both in runs.values() for run in both}
    print(f"python {sys.version.split()[0]}; {games} random 2-player games per run, {rounds} alternated runs "
          f"each, CPU time; reference {reference}")
    print(f"{'measure':<34} {'here':>10} {'reference':>10} {'ratio':>7}")
    for key, label, higher in (("games_per_cpu_s", "games per CPU second", True),
                               ("enum_us", "enumeration per turn, µs", False),
                               ("replay_ms", "replay of a whole game, ms", False)):
        here = statistics.median(float(run[key]) for run in runs["here"])  # type: ignore[arg-type]
        ref = statistics.median(float(run[key]) for run in runs["reference"])  # type: ignore[arg-type]
        ratio = here / ref if higher else ref / here
        print(f"{label:<34} {here:10.2f} {ref:10.2f} {ratio:6.2f}x")
    print("identical games: " + ("yes" if len(same) == 1 else f"NO ({sorted(same)})"))
    return 0 if len(same) == 1 else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per measurement (default 400)")
    parser.add_argument("--reference", type=Path, help="a checkout to compare with (CPU time, alternated)")
    parser.add_argument("--rounds", type=int, default=6, help="alternations with --reference (default 6)")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(measure_cpu(args.child)))
        return 0
    if args.reference is not None:
        return compare(args.reference.resolve(), args.games, args.rounds)
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
