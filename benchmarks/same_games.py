"""Checks that an engine change leaves every game the same: prints one hash over many games.

Run: ``python benchmarks/same_games.py [--games N]`` before and after a change (or with
``PYTHONPATH`` set to another checkout) and compare the hashes. For each of three rule sets (the
base game; The River with The Abbot; the first-edition variants: small cities, first-edition farms)
it plays N seeded 2-player games by the random bot and N by the greedy bot, and hashes, after every
move, the events it caused, the legal moves, the scores, supplies and the digest (``protocol/digest.md``),
and at the end the final scores and the held features.
"""

from __future__ import annotations

import argparse
import hashlib
import random

from carcnet.bots import GreedyBot, random_move
from carcnet.engine import Game, GameSetup, Phase, Rules

RULE_SETS = {
    "base game": Rules(),
    "The River, The Abbot": Rules(river=True, abbot=True),
    "first-edition variants": Rules(small_city=True, farms="city"),
}


def game_hash(setup: GameSetup, policy: str, seed: int) -> bytes:
    """The hash of one game played by *policy* (``random`` or ``greedy``) from *setup*."""
    h = hashlib.sha256()
    game = Game(setup)
    rng = random.Random(seed)
    bot = GreedyBot(seed)
    while game.phase is not Phase.GAME_OVER:
        move = random_move(game, rng) if policy == "random" else bot.choose(game.view())
        events = game.apply(move)
        h.update(repr((move, events, game.legal_moves(), game.scores, game.supply)).encode())
        h.update(game.digest)
    h.update(repr((game.scores, game.held_features())).encode())
    return h.digest()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=75, help="games per rule set and bot (default 75)")
    args = parser.parse_args()
    total = hashlib.sha256()
    for label, rules in RULE_SETS.items():
        part = hashlib.sha256()
        for policy in ("random", "greedy"):
            for seed in range(args.games):
                part.update(game_hash(GameSetup(players=2 + seed % 3, seed=seed, rules=rules), policy, seed))
        print(f"{label:<24} {part.hexdigest()[:16]}")
        total.update(part.digest())
    print(f"{'all':<24} {total.hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
