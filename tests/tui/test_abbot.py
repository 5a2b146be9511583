"""A person plays The Abbot by keys (issue 15 item 0): whole games, at one terminal and at a network
table, in which the person deploys the abbot on a cloister and on a garden and recalls it in between;
the log on disk holds those moves, made by the person's seat.

The person places each tile with Tab + Enter; at each deployment it follows :class:`AbbotPlan`. Waits
are bounded polls of the pilot, never fixed sleeps.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Checkbox, Select

from carcnet.engine import DeployMeeple, Figure, ReturnAbbot, SegmentKind
from carcnet.log import load
from carcnet.table import NetTable
from carcnet.tui.app import CarcnetApp
from carcnet.tui.screens.game import GameScreen
from carcnet.tui.screens.host_setup import HostSetupScreen
from carcnet.tui.screens.lobby import LobbyScreen

from ..net.loopback import FAST, counter_random
from .keyplay import new_local_game, play_to_the_end, until

pytestmark = pytest.mark.asyncio

LIMIT = 60.0
LOOP = ("127.0.0.1", 0)
LAN = {"listen": LOOP, "discovery": False, "timing": FAST}


class AbbotPlan:
    """What the person does while deploying: the abbot on the first cloister or garden it may go on,
    then taken back at the next deployment, then on the other kind; else no figure (0).

    Attributes:
        done: What was done, in order: ``"cloister"``, ``"garden"``, ``"recall"``.
    """

    def __init__(self) -> None:
        self.done: list[str] = []

    @property
    def complete(self) -> bool:
        return {"cloister", "garden", "recall"} <= set(self.done)

    def keys(self, screen: GameScreen) -> list[str]:
        """The keys for this deployment, read off the board the person sees."""
        game = screen.shown_game
        board = screen.board
        wanted = [k for k in ("cloister", "garden") if k not in self.done]
        status = str(screen.status.render())
        if board.recall_at is not None:
            where = board.recall_at
            assert f"A: recall the abbot from {where.x},{where.y}" in status, status
        if board.recall_at is not None and self.done and self.done[-1] != "recall":
            self.done.append("recall")
            return ["A"]
        if board.recall_at is None and wanted:
            tile = game.tile_at(game.placed)
            abbot = [m.segment for m in game.deploy_options() if m.figure is Figure.ABBOT]
            for number, segment in enumerate(abbot, start=1):
                kind = tile.variant.segments[segment].kind
                name = "cloister" if kind is SegmentKind.CLOISTER else "garden"
                if name in wanted:
                    self.done.append(name)
                    switch = [] if board.figure is Figure.ABBOT else ["a"]
                    assert not switch or "a: the abbot instead" in status, status
                    return [*switch, str(number)]
        return ["0"]


def _abbot_moves(path: Path, seat: int) -> list[str]:
    """What *seat* did with its abbot, read back from the saved log: the kinds deployed on, and recalls."""
    loaded = load(path)
    game = loaded.game
    replay_of = loaded.header.setup()
    from carcnet.engine import Game

    replayed = Game(replay_of)
    out = []
    for entry in loaded.entries:
        move = entry.move
        if entry.seat == seat and isinstance(move, DeployMeeple) and move.figure is Figure.ABBOT:
            kind = replayed.tile_at(replayed.placed).variant.segments[move.segment].kind
            out.append("cloister" if kind is SegmentKind.CLOISTER else "garden")
        elif entry.seat == seat and isinstance(move, ReturnAbbot):
            out.append("recall")
        replayed.apply(move)
    assert replayed.digest == game.digest
    return out


@pytest.mark.slow
async def test_a_person_deploys_and_recalls_the_abbot_at_one_terminal(tmp_path):
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await new_local_game(pilot, app, "abbot")
        assert screen.table.game.setup.rules.abbot
        plan = AbbotPlan()
        await play_to_the_end(pilot, app, screen, plan)
        assert plan.complete, plan.done
        done = _abbot_moves(screen.table.path, 0)
        assert done == plan.done and {"cloister", "garden", "recall"} <= set(done)


@pytest.mark.slow
async def test_a_person_deploys_and_recalls_the_abbot_at_a_network_table(tmp_path):
    app = CarcnetApp(data_dir=tmp_path / "ann", bot_delay=0, lan_options=LAN, player_name="Ann",
                     random=counter_random("Ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, HostSetupScreen)
        setup.rows()[1].query_one(".kind", Select).value = "open"
        setup.query_one("#abbot", Checkbox).value = True
        await pilot.pause()
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.run.running, "the lobby")
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        host = lobby.table
        bob = NetTable.join(host.game_id, name="Bob", bot="greedy", directory=tmp_path / "bob", listen=LOOP,
                            dial=[("127.0.0.1", host.peer.port)], discovery=False, timing=FAST,
                            random=counter_random("Bob"))
        async with bob:
            await until(pilot, lambda: lobby.check_action("start", ()), "every seat taken")
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
            screen = app.screen
            assert isinstance(screen, GameScreen) and screen.table.game.setup.rules.abbot
            plan = AbbotPlan()
            await play_to_the_end(pilot, app, screen, plan)
            await bob.wait_until(lambda: bob.session.have == host.session.have, LIMIT)
        assert plan.complete, plan.done
        assert bob.session.digest == host.session.digest
        done = _abbot_moves(host.path, 0)
        assert done == plan.done and {"cloister", "garden", "recall"} <= set(done)
