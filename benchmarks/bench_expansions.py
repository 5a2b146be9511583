"""Expansions benchmark (issue 33): random games with Inns & Cathedrals and with Traders & Builders,
each alone and with the other options: every game finished, every figure accounted for after every
move, and the engine's time.

Run: ``python benchmarks/bench_expansions.py [--games N]``. Figures go to docs/performance.md.

``--against-base`` measures instead each expansion's speed against the base game's in one run: random
2-player games (the random bot built once per game's seed, no checks), the rule sets alternated round
by round over the same seeds, CPU time; per rule set the games and the tiles placed (or set aside) per
CPU second, and their ratios to the base game's of the same round (median, lowest and highest of the
rounds). A game with Traders & Builders holds 96 tiles to the base game's 72, so at the same cost a
tile it plays 0.75x as many games: the tiles per CPU second compare the engine's work.

For each rule set it plays N seeded random games of 2 to 5 players (the random bot: uniform over the
legal moves, the large meeple included) and prints how many ended, whether after every move each
seat's meeples, large meeple, abbot, builder and pig were in its supply or on the board, whether scores ever fell,
the tiles placed or set aside against the pile, and the engine's milliseconds a game (checks
included, so an upper bound).
"""

from __future__ import annotations

import argparse
import random
import time

from carcnet.bots import random_move
from carcnet.engine import Figure, Game, GameSetup, Phase, Rules

RULE_SETS = (
    ("Inns & Cathedrals", Rules(inns=True)),
    ("I&C, The River, The Abbot", Rules(inns=True, river=True, abbot=True)),
    ("Traders & Builders", Rules(traders=True)),
    ("both, The River, The Abbot", Rules(inns=True, traders=True, river=True, abbot=True)),
)


def play(seed: int, rules: Rules) -> tuple[bool, bool, bool]:
    """One random game: (it ended, figures conserved after every move, scores never fell)."""
    players = 2 + seed % 4
    game = Game(GameSetup(players=players, seed=seed, rules=rules))
    rng = random.Random(seed)
    conserved = rising = True
    before = list(game.scores)
    # every figure's supply and the seat's figures on the board add up to what the seat started with
    start = {Figure.MEEPLE: 7, **{rule.figure: rule.per_seat for rule in game.setup.hooks().stocked}}
    stocks = {Figure.MEEPLE: game.supply, **game.supplies}
    for _ in range(1000):
        if game.phase is Phase.GAME_OVER:
            break
        game.apply(random_move(game, rng))
        rising = rising and all(a >= b for a, b in zip(game.scores, before, strict=True))
        before = list(game.scores)
        on = {(s, f): 0 for s in range(players) for f in Figure}
        for s, f, _p, _i in game.figures():
            on[s, f] += 1
        if any(stocks[f][s] + on[s, f] != n for f, n in start.items() for s in range(players)) or any(
                on[s, f] for s, f in on if f not in start):
            conserved = False
    tiles = len(game.board.tiles) + len(game.set_aside)
    whole = tiles == rules.pile_size() + 1  # the start tile (or the spring) too
    return game.phase is Phase.GAME_OVER and whole, conserved, rising


#: The rule sets ``--against-base`` measures, the base game first: each expansion alone, and all of them.
SPEED_SETS = (
    ("base game", Rules()),
    ("The River", Rules(river=True)),
    ("The Abbot", Rules(abbot=True)),
    ("Inns & Cathedrals", Rules(inns=True)),
    ("Traders & Builders", Rules(traders=True)),
    ("small cities, first-edition farms", Rules(small_city=True, farms="city")),
    ("no farmers", Rules(farms="off")),
    ("Hills & Sheep", Rules(hills_sheep=True)),
    ("The Princess & the Dragon", Rules(princess_dragon=True)),
    ("all four expansions", Rules(river=True, abbot=True, inns=True, traders=True)),
    ("all six expansions", Rules(river=True, abbot=True, inns=True, traders=True, hills_sheep=True,
                                 princess_dragon=True)),
)


def timed(rules: Rules, seeds: range) -> tuple[float, int]:
    """CPU seconds to play the random 2-player games of *seeds* under *rules*, and the tiles placed or
    set aside in them (the start tile not counted)."""
    tiles = 0
    spent = 0.0
    for seed in seeds:
        rng = random.Random(seed)
        began = time.process_time()
        game = Game(GameSetup(players=2, seed=seed, rules=rules))
        while game.phase is not Phase.GAME_OVER:
            game.apply(random_move(game, rng))
        spent += time.process_time() - began
        tiles += len(game.board.tiles) - 1 + len(game.set_aside)
    return spent, tiles


def against_base(games: int, rounds: int) -> None:
    """Prints each rule set's games and tiles per CPU second, and their ratios to the base game's."""
    seeds = range(1, games + 1)
    ratios: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in SPEED_SETS}
    rates: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in SPEED_SETS}
    for r in range(rounds):
        order = SPEED_SETS if r % 2 == 0 else (SPEED_SETS[0], *reversed(SPEED_SETS[1:]))
        base = (0.0, 0.0)
        for name, rules in order:
            spent, tiles = timed(rules, seeds)
            rate = (games / spent, tiles / spent)
            rates[name].append(rate)
            if name == "base game":
                base = rate
            ratios[name].append((rate[0] / base[0], rate[1] / base[1]))
        print(f"  round {r + 1}: " + ", ".join(f"{n} {rates[n][-1][0]:.0f}" for n, _ in SPEED_SETS), flush=True)

    def spread(values: list[float]) -> str:
        values = sorted(values)
        return f"{values[len(values) // 2]:.2f}x ({values[0]:.2f}-{values[-1]:.2f})"

    print(f"{games} random 2-player games a rule set and round, {rounds} rounds alternated, CPU time")
    print(f"{'rules':36}{'games/CPU s':>12}{'tiles/CPU s':>12}   {'games, to base':<22}{'tiles, to base':<22}")
    for name, _ in SPEED_SETS:
        g = sorted(x[0] for x in rates[name])[rounds // 2]
        t = sorted(x[1] for x in rates[name])[rounds // 2]
        print(f"{name:36}{g:12.1f}{t:12.0f}   {spread([x[0] for x in ratios[name]]):<22}"
              f"{spread([x[1] for x in ratios[name]]):<22}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None,
                        help="games per rule set (default 10000; with --against-base, 100 a round)")
    parser.add_argument("--against-base", action="store_true",
                        help="each expansion's games and tiles per CPU second against the base game's")
    parser.add_argument("--rounds", type=int, default=5, help="--against-base: rounds (default 5)")
    args = parser.parse_args(argv)
    if args.against_base:
        against_base(args.games or 100, args.rounds)
        return 0
    args.games = args.games or 10_000
    failed = False
    print(f"{args.games} random games per rule set, 2 to 5 players")
    for name, rules in RULE_SETS:
        began = time.process_time()
        ended = conserved = rising = 0
        for seed in range(args.games):
            e, c, r = play(seed, rules)
            ended += e
            conserved += c
            rising += r
        ms = (time.process_time() - began) * 1000 / args.games
        print(f"{name:30} ended with every tile placed or set aside {ended}/{args.games}, figures conserved "
              f"{conserved}/{args.games}, scores never fell {rising}/{args.games}; {ms:.1f} CPU ms a game")
        failed = failed or min(ended, conserved, rising) < args.games
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
