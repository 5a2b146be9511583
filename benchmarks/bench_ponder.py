"""Pondering benchmark (issue 32): how often a search bot that thinks on the others' turns finds its
turn already searched, and how much thinking that takes.

Run: ``python benchmarks/bench_ponder.py [--games N] [--level hard] [--opponents greedy,medium,random]``.
Figures go to docs/bots.md.

A bot that ponders (:meth:`carcnet.bots.SearchBot.ponder`) searches the positions
:func:`carcnet.bots.ponder.positions_ahead` lists, in that order, until the game moves on. So whether
its turn comes searched depends on one thing: where the real position stands in that list, against
how many positions the bot could search while the other seat played. This benchmark plays 2-player
games of the bot (seat 1) against an opponent (seat 0; seats not rotated: the bot always follows the
opponent) and, at each of the bot's turns, finds the real position's rank in the list made while the
opponent was to place (a person who confirms the whole turn at once, the worst case) and once the
opponent's tile was placed (a person who plays without confirmation). It prints, per opponent, the
share of the bot's turns found within the first 10, 20, 40 positions and anywhere in the list; and
the seconds a position's search takes at that level on this machine (the median of a few searches
from the view, no cap), so that "20 positions" reads as seconds of the other seat's think time. A
turn found is played at once (a lookup of about 0.1 ms).

And what pondering costs the program around it: the event loop (the interface, the connections) runs
beside the pondering thread, so it waits for Python's global interpreter lock. The benchmark measures
the loop's lag (how late a 10 ms timer fires) with the bot pondering in a worker thread, as a table
runs it, and without, and prints the median, the 99th percentile and the worst.

Nothing here is searched for the ranks (the list is made, not searched), so the ranks do not depend
on the machine's speed or load; only the seconds per position do.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import threading
import time

from carcnet.bots import GreedyBot, SearchBot, make_bot, turn_seed
from carcnet.bots.ponder import positions_ahead
from carcnet.engine import Game, GameSetup, Phase, Rules

#: The numbers of positions pondered at which the share of turns found is printed.
DEPTHS = (10, 20, 40)


def ranks(opponent: str, games: int, rules: Rules) -> tuple[list[int | None], list[int | None], int]:
    """For every turn of the bot: the rank of its real position in the pondering list made at the
    opponent's placement phase and at its deploy phase (``None``: not in the list), and the list's
    mean length."""
    at_place: list[int | None] = []
    at_deploy: list[int | None] = []
    lengths: list[int] = []
    for g in range(games):
        game = Game(GameSetup(players=2, seed=500 + g, rules=rules))
        other = make_bot(opponent, 900 + g)
        me = SearchBot(g, "easy")  # plays the bot's seat: its moves only shape the games
        lists: dict[str, list[int]] = {}
        while game.phase is not Phase.GAME_OVER:
            if game.seat == 0:
                phase = "place" if game.phase is Phase.PLACE_TILE else "deploy"
                if phase == "place":
                    lists.clear()
                keys = [turn_seed(0, view.game) for _t, _d, _c, view in positions_ahead(game.view(), 1, GreedyBot(0))]
                lists[phase] = keys
                if phase == "place":
                    lengths.append(len(keys))
                game.apply(other.choose(game.view()))
                continue
            if game.phase is Phase.PLACE_TILE and lists:
                key = turn_seed(0, game.view().game)
                for phase, out in (("place", at_place), ("deploy", at_deploy)):
                    keys = lists.get(phase, [])
                    out.append(keys.index(key) if key in keys else None)
                lists.clear()
            game.apply(me.choose(game.view()))
    return at_place, at_deploy, round(statistics.mean(lengths)) if lengths else 0


def seconds_per_position(level: str, rules: Rules, count: int = 5) -> float:
    """The median wall time of a whole search at *level* (no cap) at *count* positions of a greedy game."""
    game = Game(GameSetup(players=2, seed=77, rules=rules))
    bot = GreedyBot(1)
    times: list[float] = []
    while game.phase is not Phase.GAME_OVER and len(times) < count:
        if game.phase is Phase.PLACE_TILE and len(game.moves) % 14 == 6:
            searcher = SearchBot(3, level)
            began = time.perf_counter()
            searcher.choose(game.view())
            times.append(time.perf_counter() - began)
        game.apply(bot.choose(game.view()))
    return statistics.median(times)


async def _lags(samples: int) -> list[float]:
    loop = asyncio.get_running_loop()
    out: list[float] = []
    for _ in range(samples):
        began = loop.time()
        await asyncio.sleep(0.010)  # a timer, as the interface's refresh is: how late does it fire?
        out.append((loop.time() - began - 0.010) * 1000)
    return out


def loop_lag(level: str, rules: Rules, pondering: bool, samples: int = 300) -> list[float]:
    """The event loop's lag in ms (how late each of *samples* 10 ms timers fires), with a *level* bot
    pondering in a worker thread meanwhile or not."""
    game = Game(GameSetup(players=2, seed=31, rules=rules))
    bot = GreedyBot(2)
    for _ in range(30):
        game.apply(bot.choose(game.view()))

    async def run() -> list[float]:
        stop = threading.Event()
        worker = None
        if pondering:
            searcher = SearchBot(4, level)
            view = game.view().detached()
            worker = asyncio.ensure_future(asyncio.to_thread(searcher.ponder, view, (game.seat + 1) % 2, stop.is_set))
        try:
            return await _lags(samples)
        finally:
            stop.set()
            if worker is not None:
                await worker

    return asyncio.run(run())


def share(found: list[int | None], depth: int | None) -> str:
    hits = sum(1 for r in found if r is not None and (depth is None or r < depth))
    return f"{100 * hits / max(1, len(found)):5.1f} %"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per opponent and rules (default 6)")
    parser.add_argument("--level", default="hard", help="the pondering bot's level, for the seconds (default hard)")
    parser.add_argument("--opponents", default="greedy,medium,hard,random", help="the other seat's bots")
    args = parser.parse_args(argv)
    print(f"share of the bot's turns found pondered within the first {', '.join(map(str, DEPTHS))} positions and in all")
    print(f"{'rules':22} {'opponent':9} {'when':7} " + " ".join(f"{d:>7}" for d in DEPTHS) + "     all  list  turns")
    for name, rules in (("base game", Rules()), ("The River, The Abbot", Rules(river=True, abbot=True))):
        for opponent in args.opponents.split(","):
            at_place, at_deploy, length = ranks(opponent, args.games, rules)
            for when, found in (("place", at_place), ("deploy", at_deploy)):
                cells = " ".join(f"{share(found, d):>7}" for d in DEPTHS)
                print(f"{name:22} {opponent:9} {when:7} {cells} {share(found, None):>7} {length:5} {len(found):6}", flush=True)
        per = seconds_per_position(args.level, rules)
        print(f"{name}: a {args.level} search takes {per:.2f} s a position here (median of 5): "
              + ", ".join(f"{d} positions {d * per:.0f} s" for d in DEPTHS))
        for pondering in (False, True):
            lag = sorted(loop_lag(args.level, rules, pondering))
            print(f"{name}: event loop lag, 10 ms timers, {args.level} {'pondering' if pondering else 'not pondering'}: "
                  f"median {statistics.median(lag):.2f} ms, p99 {lag[int(0.99 * len(lag))]:.2f} ms, worst {lag[-1]:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
