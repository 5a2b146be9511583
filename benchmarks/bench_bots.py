"""Bot benchmark (issue 17): what a turn costs each bot, at positions of real games.

Run: ``python benchmarks/bench_bots.py [--positions N] [--cap SECONDS] [--load K] [--bots A,B]``. Figures go to
docs/bots.md and docs/performance.md.

``--cap`` gives the search bots the interface's cap on think time (wall clock, from when the turn is
asked for) and counts the turns over the cap plus 0.1 s; ``--load`` starts K CPU-bound processes beside
the benchmark for its whole run (a laptop doing other things, issue 32), stopped at its end.

For each bot (``random``, ``greedy``, and the search bot's levels) it times whole turns (the
placement, then the deploy planned with it) from the player's view, at N positions taken along
seeded 2-player games played by the greedy bot (early, middle and late game alike), base game and
The River with The Abbot, and prints the median, the 90th percentile and the worst, in milliseconds,
and whether the greedy bot's mean turn keeps within :data:`GREEDY_BUDGET_MS` (exit status 1 if not).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from carcnet.bots import BOTS, make_bot, set_time_cap
from carcnet.engine import Game, GameSetup, Phase, Rules

#: The greedy bot's budget for a whole turn (placement + deploy), its mean over the positions, in
#: milliseconds: a speed figure, so this benchmark checks it (the tests count a turn's work instead).
GREEDY_BUDGET_MS = 20.0


def positions(count: int, rules: Rules) -> list[Game]:
    """*count* games in ``Phase.PLACE_TILE``, spread over the turns of greedy games."""
    out: list[Game] = []
    seed = 0
    while len(out) < count:
        game = Game(GameSetup(players=2, seed=1000 + seed, rules=rules))
        bot = make_bot("greedy", seed)
        every = max(1, 70 // max(1, count // 4))
        turn = 0
        while game.phase is not Phase.GAME_OVER and len(out) < count:
            if game.phase is Phase.PLACE_TILE:
                if turn % every == seed % every:
                    out.append(game.copy())
                turn += 1
            game.apply(bot.choose(game.view()))
        seed += 1
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=24, help="positions per bot and rules (default 24)")
    parser.add_argument("--cap", type=float, default=None, help="the search bots' cap on think time, seconds")
    parser.add_argument("--load", type=int, default=0, help="CPU-bound processes to run beside it (default 0)")
    parser.add_argument("--bots", default=",".join(BOTS), help="the bots to time, comma-separated (default: all)")
    args = parser.parse_args(argv)
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.load)]
    try:
        return _run(args)
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


def _run(args: argparse.Namespace) -> int:
    cap = f", cap {args.cap:g} s" if args.cap is not None else ""
    print(f"python {sys.version.split()[0]}; ms per whole turn at {args.positions} positions of 2-player games"
          f"{cap}; {args.load} CPU-bound processes beside it")
    print(f"{'bot':<8} {'rules':<22} {'median':>8} {'p90':>8} {'worst':>8}" + ("  over cap+0.1 s" if cap else ""))
    missed = []
    for rules, label in ((Rules(), "base game"), (Rules(river=True, abbot=True), "The River, The Abbot")):
        games = positions(args.positions, rules)
        for name in args.bots.split(","):
            times = []
            for i, game in enumerate(games):
                bot = make_bot(name, i, time_cap=args.cap)
                played = game.copy()
                began = time.perf_counter()
                for _ in range(2):  # the placement, then the deploy it planned
                    if played.phase is Phase.GAME_OVER:
                        break
                    set_time_cap(bot, args.cap, started=time.perf_counter())
                    played.apply(bot.choose(played.view()))
                times.append(1000 * (time.perf_counter() - began))
            times.sort()
            p90 = times[int(0.9 * (len(times) - 1))]
            over = f"  {sum(t > 1000 * (args.cap + 0.1) for t in times):>4}" if args.cap is not None else ""
            print(f"{name:<8} {label:<22} {statistics.median(times):8.1f} {p90:8.1f} {times[-1]:8.1f}{over}")
            if name == "greedy" and statistics.fmean(times) >= GREEDY_BUDGET_MS:
                missed.append(f"{label}: {statistics.fmean(times):.1f} ms")
    if "greedy" not in args.bots.split(","):
        return 0
    budget = f"greedy budget {GREEDY_BUDGET_MS:.0f} ms a turn (mean)"
    print(f"{budget}: missed ({', '.join(missed)})" if missed else f"{budget}: met")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
