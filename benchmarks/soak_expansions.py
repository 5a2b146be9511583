"""Random games under every combination of the six expansions: every game ends with every tile
accounted for, every figure in its supply or on the board after every move, no score falls, a replay
of the moves gives the same digests, and the digests do not depend on the hash seed.

For each of the 64 combinations of The River, The Abbot, Inns & Cathedrals, Traders & Builders, Hills
& Sheep and The Princess & the Dragon it plays ``--games`` seeded games of 2 to 6 players (the random
bot: uniform over the legal moves, the magic portal's and the dragon's included). The digests of every
game are folded into one SHA-256 per combination; the run is made twice, in two processes with
``PYTHONHASHSEED`` 0 and 4242, and the folds must be equal.

Run: ``python benchmarks/soak_expansions.py [--games N]`` (default 40 a combination: 2,560 games a
process). Figures go to docs/rules.md ("How the expansions are checked").
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter

from carcnet.bots import random_move
from carcnet.engine import MEEPLES_PER_PLAYER, Figure, Game, GameSetup, Phase, PointsScored, Rules, replay

NAMES = ("river", "abbot", "inns", "traders", "hills_sheep", "princess_dragon")


def combinations() -> list[Rules]:
    """Every combination of the six expansions, the base game first."""
    return [Rules(**dict(zip(NAMES, flags, strict=True))) for flags in itertools.product((False, True), repeat=6)]


def check_game(rules: Rules, seed: int) -> tuple[bytes, list[str]]:
    """One random game under *rules*: its last digest, and what went wrong (empty when nothing)."""
    players = 2 + seed % 5
    game = Game(GameSetup(players=players, seed=seed, rules=rules))
    rng = random.Random(seed)
    stock = {Figure.MEEPLE: MEEPLES_PER_PLAYER, **{r.figure: r.per_seat for r in game.setup.hooks().stocked}}
    wrong: list[str] = []
    for _ in range(5000):
        if game.phase is Phase.GAME_OVER:
            break
        game.apply(random_move(game, rng))
        on = Counter((s, f) for s, f, _p, _i in game.figures())
        supplies = {Figure.MEEPLE: game.supply, **game.supplies}
        if any(supplies[f][s] + on[s, f] != n for f, n in stock.items() for s in range(players)):
            wrong.append(f"figures not conserved after move {len(game.moves)}")
            break
    if game.phase is not Phase.GAME_OVER:
        wrong.append("the game did not end")
    placed = len(game.board.tiles) - 1
    if placed + len(game.set_aside) + game.hidden + len(game.held) != rules.pile_size():
        wrong.append("tiles not accounted for")
    if any(isinstance(e, PointsScored) and e.points < 0 for e in game.events):
        wrong.append("a score fell")
    if replay(game.setup, game.moves).digests != game.digests:
        wrong.append("the replay's digests differ")
    return game.digest, wrong


def run(games: int) -> dict[str, object]:
    """Plays every combination's games; their folds, counts and failures."""
    folds: dict[str, str] = {}
    failures: list[str] = []
    played = 0
    began = time.process_time()
    for rules in combinations():
        fold = hashlib.sha256()
        for seed in range(1, games + 1):
            digest, wrong = check_game(rules, seed)
            fold.update(digest)
            played += 1
            failures.extend(f"{rules.words() or 'base game'} seed {seed}: {w}" for w in wrong)
        folds[rules.words() or "base game"] = fold.hexdigest()
    return {"games": played, "failures": failures, "folds": folds, "cpu": time.process_time() - began}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games a combination (default 40)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(run(args.games)))
        return 0
    results = []
    for hash_seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, __file__, "--child", "--games", str(args.games)], env=env,
                             capture_output=True, text=True, check=True)
        result = json.loads(out.stdout)
        results.append(result)
        print(f"PYTHONHASHSEED={hash_seed}: {result['games']} games, {len(result['failures'])} failures, "
              f"{result['cpu']:.0f} CPU s", flush=True)
        for failure in result["failures"][:20]:
            print("  ", failure)
    same = results[0]["folds"] == results[1]["folds"]
    print(f"{len(results[0]['folds'])} combinations; digests equal across hash seeds: {same}")
    return 0 if same and not any(r["failures"] for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
