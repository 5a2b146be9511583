"""A person at a laptop, for the tests between homes: ``python -m tests.net.person CODE --relay URL
--transit tcp:HOST:PORT --data-dir DIR --name NAME --interface ADDR``.

It sits down with the invite code as ``carcnet join CODE`` does (the pairing first, then the
interface opened at the table, :mod:`carcnet.cli.network`), and plays the person's seat by keys in
the interface, driven by Textual's pilot as a person's fingers would (:func:`tests.tui.keyplay.
play_to_the_end`: the tile at the nearest legal place, a meeple on the first spot offered, Enter).
Prints ``saved to PATH`` once the final scores show, and exits 0; 1 with the reason otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from carcnet.net import invite
from carcnet.tui.app import CarcnetApp
from carcnet.tui.screens.game import GameScreen
from carcnet.tui.settings import Settings

from ..tui.keyplay import LIMIT, play_to_the_end, until


class FirstSpot:
    """A meeple on the first spot the board offers, else none."""

    def keys(self, screen: GameScreen) -> list[str]:
        return ["1"] if screen.shown_game.deploy_options() else ["0"]


async def main(args: argparse.Namespace) -> int:
    settings = Settings(relay=args.relay, transit=args.transit, name=args.name)
    try:
        pairing = await invite.accept(invite.servers(args.relay, args.transit), args.code)
    except invite.InviteError as exc:
        print(f"cannot sit down: {exc}", flush=True)
        return 1
    app = CarcnetApp(data_dir=Path(args.data_dir), bot_delay=0, player_name=args.name, settings=settings,
                     lan_options={"listen": (args.interface, 0), "interfaces": [args.interface]},
                     start=("join", {"pairing": pairing, "name": args.name}))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game", timeout=LIMIT * 2)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        print("at the table", flush=True)
        await play_to_the_end(pilot, app, screen, FirstSpot())
        table = screen.table
        print(f"saved to {table.path}", flush=True)  # type: ignore[attr-defined]
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m tests.net.person")
    parser.add_argument("code")
    for option in ("--relay", "--transit", "--data-dir", "--name", "--interface"):
        parser.add_argument(option, required=True)
    sys.exit(asyncio.run(main(parser.parse_args())))
