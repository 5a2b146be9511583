"""A person plays Inns & Cathedrals by keys (issue 33): a whole game at one terminal, chosen on the
new-game form's checkbox, in which the person deploys the large meeple (``a`` switches to it) and a
meeple on a road with an inn; the log on disk holds those moves, made by the person's seat.

The person places each tile with Tab + Enter; at each deployment it follows :class:`LargePlan`. Waits
are bounded polls of the pilot, never fixed sleeps.
"""

from __future__ import annotations

import pytest

from carcnet.engine import DeployMeeple, Figure, Game, SegmentKind
from carcnet.log import load
from carcnet.tui.app import CarcnetApp
from carcnet.tui.screens.final import FinalScreen
from carcnet.tui.screens.game import GameScreen

from .keyplay import new_local_game, play_to_the_end

pytestmark = pytest.mark.asyncio



class LargePlan:
    """What the person does while deploying: the large meeple on the first spot it may go on (``a``
    then the spot's digit), a meeple on the first road with an inn it may go on; else no figure.

    Attributes:
        done: What was done, in order: ``"large"``, ``"inn"``.
    """

    def __init__(self) -> None:
        self.done: list[str] = []

    @property
    def complete(self) -> bool:
        return {"large", "inn"} <= set(self.done)

    def keys(self, screen: GameScreen) -> list[str]:
        """The keys for this deployment, read off the board and the status line the person sees."""
        game = screen.shown_game
        board = screen.board
        status = str(screen.status.render())
        options = game.deploy_options()
        if "large" not in self.done and any(m.figure is Figure.LARGE for m in options):
            self.done.append("large")
            switch = [] if board.figure is Figure.LARGE else ["a"]
            assert not switch or "a: the large meeple instead" in status, status
            return [*switch, "1"]
        if "inn" not in self.done and board.figure is Figure.MEEPLE:
            tile = game.tile_at(game.placed)
            meeple = [m.segment for m in options if m.figure is Figure.MEEPLE]
            for number, segment in enumerate(meeple, start=1):
                seg = tile.variant.segments[segment]
                if seg.kind is SegmentKind.ROAD and seg.inn and number <= 9:
                    self.done.append("inn")
                    return [str(number)]
        return ["0"]


@pytest.mark.slow
async def test_a_person_plays_inns_and_cathedrals_with_the_large_meeple_by_keys(tmp_path):
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=11)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await new_local_game(pilot, app, "inns")
        assert screen.table.game.setup.rules.inns
        plan = LargePlan()
        await play_to_the_end(pilot, app, screen, plan)
        assert isinstance(app.screen, FinalScreen)
        assert plan.complete, plan.done
        final = screen.table.game
        # the board and the scores show what the expansion added; the saved log holds the person's moves
        loaded = load(screen.table.path)
        assert loaded.header.options.inns and loaded.game.digest == final.digest
        replayed = Game(loaded.header.setup())
        done = []
        for entry in loaded.entries:
            move = entry.move
            if entry.seat == 0 and isinstance(move, DeployMeeple):
                seg = replayed.tile_at(replayed.placed).variant.segments[move.segment]
                if move.figure is Figure.LARGE:
                    done.append("large")
                elif seg.kind is SegmentKind.ROAD and seg.inn:
                    done.append("inn")
            replayed.apply(move)
        assert done[:2] == plan.done[:2] and {"large", "inn"} <= set(done)
