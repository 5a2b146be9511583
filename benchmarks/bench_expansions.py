"""Expansions benchmark (issue 33): random games with Inns & Cathedrals and with Traders & Builders,
each alone and with the other options: every game finished, every figure accounted for after every
move, and the engine's time.

Run: ``python benchmarks/bench_expansions.py [--games N]``. Figures go to docs/performance.md.

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
    abbots = 1 if rules.abbot else 0
    large = 1 if rules.inns else 0
    extras = 1 if rules.traders else 0  # a builder and a pig each
    for _ in range(1000):
        if game.phase is Phase.GAME_OVER:
            break
        game.apply(random_move(game, rng))
        rising = rising and all(a >= b for a, b in zip(game.scores, before, strict=True))
        before = list(game.scores)
        on = {(s, f): 0 for s in range(players) for f in Figure}
        for s, f, _p, _i in game.figures():
            on[s, f] += 1
        for s in range(players):
            if (game.supply[s] + on[s, Figure.MEEPLE] != 7 or game.large[s] + on[s, Figure.LARGE] != large
                    or game.abbots[s] + on[s, Figure.ABBOT] != abbots
                    or game.builders[s] + on[s, Figure.BUILDER] != extras or game.pigs[s] + on[s, Figure.PIG] != extras):
                conserved = False
    tiles = len(game.board.tiles) + len(game.set_aside)
    whole = tiles == rules.pile_size() + 1  # the start tile (or the spring) too
    return game.phase is Phase.GAME_OVER and whole, conserved, rising


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per rule set (default 10000)")
    args = parser.parse_args(argv)
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
