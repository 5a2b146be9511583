"""Provides the ``carcnet`` command line (the composition root)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from carcnet.bots import RandomBot
from carcnet.engine import Game, GameSetup, Phase, PlaceTile, PointsScored, SetupError

COLOURS = ("Red", "Blue", "Yellow", "Green", "Black", "Grey")


def _demo(args: argparse.Namespace) -> int:
    try:
        game = Game(GameSetup(players=args.players, seed=args.seed))
    except SetupError as exc:
        print(f"carcnet: {exc}", file=sys.stderr)
        return 2
    bots = [RandomBot(args.seed * 31 + seat) for seat in range(args.players)]
    names = COLOURS[: args.players]
    print(f"carcnet demo: {args.players} random bots, seed {args.seed}, {game.tiles_left + 1} tiles to draw")
    turn = 0
    while game.phase is not Phase.GAME_OVER:
        seat = game.seat
        move = bots[seat].choose(game)
        events = game.apply(move)
        if isinstance(move, PlaceTile):
            turn += 1
            line = f"{turn:3d}. {names[seat]:<6} {move}"
            continue
        line += "" if str(move) == "skip" else f", {move}"
        print(line)
        for ev in events:
            if isinstance(ev, PointsScored):
                who = " and ".join(names[s] for s in ev.seats)
                when = "final" if ev.final else "scores"
                print(f"       {when}: {who} {ev.describe()}")
    print()
    print("Final scores:")
    for seat in sorted(range(game.players), key=lambda s: -game.scores[s]):
        parts = ", ".join(
            f"{cat} {sum(pts)}" for cat, pts in game.breakdown[seat].items() if sum(pts)
        )
        crown = "  winner" if seat in game.winners else ""
        print(f"  {names[seat]:<6} {game.scores[seat]:4d}   ({parts or 'nothing scored'}){crown}")
    print(f"digest {game.digest.hex()}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="carcnet", description="Carcassonne for the terminal.")
    sub = parser.add_subparsers(dest="command")
    demo = sub.add_parser("demo", help="watch a headless game between random bots")
    demo.add_argument("--players", type=int, default=2, help="2 to 6 (default 2)")
    demo.add_argument("--seed", type=int, default=1, help="deck and bot seed (default 1)")
    demo.set_defaults(run=_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``carcnet`` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["demo", *(argv or [])])
    try:
        return int(args.run(args))
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stderr.close()
        return 0
