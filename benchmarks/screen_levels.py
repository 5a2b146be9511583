"""Screens a change to a search level head to head (issue 32): the search bot at one level, its
settings changed, against another level, in 2-player games of ``carcnet simulate``'s seeds.

Run: ``python benchmarks/screen_levels.py A B [--games N] [--seed S] [--jobs J] [--river --abbot]``,
where A and B are a level of ``carcnet.bots.LEVELS`` (or ``greedy``), optionally with fields of
:class:`carcnet.bots.search_bot.Level` changed after a colon: ``medium:endgame=10,dead=1``,
``hard:iterations=800``.

Game *i* is ``carcnet simulate``'s game *i* (its deck seed, the bots' seeds, seats alternating), each
bot at its whole budget (no time cap). Every 10 games and at the end it prints A's wins (a shared top
score counts half), the mean margin of A over B with one standard error, and each side's CPU seconds
a game. The screens of docs/bots.md ("How the search was tuned") were run with it.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from carcnet.bots import LEVELS, GreedyBot, SearchBot
from carcnet.cli.simulate import game_seed
from carcnet.engine import Game, GameSetup, Move, Phase, PlayerView, Rules


def bot(spec: str, seed: int) -> GreedyBot | SearchBot:
    """The bot a spec names (module docstring), seeded *seed*.

    Raises:
        ValueError: An unknown level or field, or a value that is not a number.
    """
    name, _, changes = spec.partition(":")
    if name == "greedy" and not changes:
        return GreedyBot(seed)
    made = SearchBot(seed, name)
    fields = {f.name: f.type for f in dataclasses.fields(made.level)}
    updates: dict[str, object] = {}
    for change in filter(None, changes.split(",")):
        key, _, value = change.partition("=")
        if key not in fields or key == "name":
            raise ValueError(f"unknown field {key!r}; fields: {', '.join(f for f in fields if f != 'name')}")
        kind = {"int": int, "float": float, "bool": lambda v: bool(int(v))}[str(fields[key])]
        updates[key] = kind(value)
    made.level = dataclasses.replace(made.level, **updates)  # type: ignore[arg-type]
    return made


def play(args: tuple[str, str, int, int, Rules]) -> tuple[int, list[int], list[float]]:
    """Game *i*: ``(i, [A's score, B's score], [A's CPU seconds, B's])``."""
    a, b, seed, i, rules = args
    deck = game_seed(seed, i)
    entry = [(s + i) % 2 for s in range(2)]  # seat -> spec
    specs = (a, b)
    bots = [bot(specs[entry[s]], (deck + s + 1) % 2**64) for s in range(2)]
    game = Game(GameSetup(players=2, seed=deck, rules=rules))
    cpu = [0.0, 0.0]
    while game.phase is not Phase.GAME_OVER:
        seat = game.seat
        began = time.process_time()
        move: Move = bots[seat].choose(PlayerView.of(game))
        cpu[entry[seat]] += time.process_time() - began
        game.apply(move)
    scores = [0, 0]
    for seat, e in enumerate(entry):
        scores[e] = game.scores[seat]
    return i, scores, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="the level screened, e.g. medium:endgame=10")
    parser.add_argument("b", help="the level it plays against, e.g. medium")
    parser.add_argument("--games", type=int, default=200, help="games (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="carcnet simulate's seed (default 1)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--river", action="store_true", help="with The River")
    parser.add_argument("--abbot", action="store_true", help="with The Abbot")
    args = parser.parse_args()
    for spec in (args.a, args.b):
        bot(spec, 0)  # a bad spec fails here, before any game
    rules = Rules(river=args.river, abbot=args.abbot)
    margins: list[int] = []
    wins = 0.0
    cpu = [0.0, 0.0]
    work = [(args.a, args.b, args.seed, i, rules) for i in range(args.games)]
    with ProcessPoolExecutor(args.jobs) as pool:
        for n, (_i, scores, seconds) in enumerate(pool.map(play, work), 1):
            margins.append(scores[0] - scores[1])
            wins += 1.0 if scores[0] > scores[1] else 0.5 if scores[0] == scores[1] else 0.0
            cpu = [c + s for c, s in zip(cpu, seconds, strict=True)]
            if n % 10 == 0 or n == args.games:
                error = statistics.stdev(margins) / math.sqrt(n) if n > 1 else 0.0
                print(f"{n:4d} games: {args.a} won {wins:5.1f} ({100 * wins / n:4.1f} %), margin "
                      f"{statistics.fmean(margins):+5.2f} ± {error:4.2f}; CPU s a game "
                      f"{cpu[0] / n:5.1f} against {cpu[1] / n:5.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
