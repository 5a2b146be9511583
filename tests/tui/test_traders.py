"""A person plays Traders & Builders with Inns & Cathedrals by keys (issue 33): a whole game at one
terminal, chosen on the new-game form's checkboxes, in which the person puts a thief or knight out,
then the builder beside it, then places a tile that extends the builder's feature and so gets a second
tile in the same turn, puts the pig beside a farmer and the large meeple out; the log on disk holds
those moves, made by the person's seat.

Placement is by keys: Tab through the positions where the tile fits (nearest first) and ``r`` through
its rotations there, to a placement the test picks from the rules (the one that extends the builder's
feature when there is one, else the first); Enter places it. Waits are bounded polls of the pilot.
"""

from __future__ import annotations

import pytest

from carcnet.engine import BuilderTurn, DeployMeeple, Figure, Game, PlaceTile, SecondTile, SegmentKind
from carcnet.engine.expansions import traders
from carcnet.log import load
from carcnet.tui.app import CarcnetApp
from carcnet.tui.screens.final import FinalScreen
from carcnet.tui.screens.game import GameScreen

from .keyplay import new_local_game, play_to_the_end

pytestmark = pytest.mark.asyncio

LIMIT = 60.0


def _wanted(game: Game) -> PlaceTile:
    """The placement the person makes: one that extends its builder's feature when the builder is
    out, else one where the pig could join a farmer, else the first legal one."""
    moves = game.legal_moves()
    pig = None
    for move in moves:
        trial = game.copy()
        trial.apply(move)
        if trial.ext[trial.expansion_slot(traders.TradersBuilders)].bonus:
            return move  # type: ignore[return-value]
        if pig is None and trial.supplies[Figure.PIG][trial.seat] and any(m.figure is Figure.PIG for m in trial.deploy_options()):
            pig = move
    return pig or moves[0]  # type: ignore[return-value]


async def _place(pilot, screen: GameScreen, move: PlaceTile) -> None:
    """Tab to the move's position (bounded), r to its rotation, Enter."""
    board = screen.board
    for _ in range(400):
        await pilot.press("tab")
        if board.cursor == move.position:
            break
    assert board.cursor == move.position, (board.cursor, move)
    for _ in range(4):
        if board.rotation == move.rotation:
            break
        await pilot.press("r")
    assert board.rotation == move.rotation
    await pilot.press("enter")


def _deploy_keys(screen: GameScreen, done: list[str]) -> list[str]:
    """The deploy: the pig beside a farmer, the builder beside a follower, a knight or thief (a
    farmer when the pig is still to go); else nothing."""
    game = screen.shown_game
    board = screen.board
    options = game.deploy_options()
    tile = game.tile_at(game.placed)

    def switch_to(figure: Figure) -> list[str]:
        keys = []
        order = board.figures_to_deploy()
        at = order.index(board.figure) if board.figure in order else 0
        while order[(at + len(keys)) % len(order)] is not figure:
            keys.append("a")
        return keys

    for figure, name in ((Figure.PIG, "pig"), (Figure.BUILDER, "builder"), (Figure.LARGE, "large")):
        spots = [m.segment for m in options if m.figure is figure]
        if name not in done and spots and (figure is not Figure.LARGE or "farmer" in done):
            done.append(name)
            return [*switch_to(figure), "1"]
    meeples = [m.segment for m in options if m.figure is Figure.MEEPLE]
    want = (SegmentKind.ROAD, SegmentKind.CITY) if "pig" in done or "farmer" in done else (SegmentKind.FIELD,)
    for number, segment in enumerate(meeples, start=1):
        seg = tile.variant.segments[segment]
        # a farmer on a farm that touches a side (one that tiles to come can join, for the pig)
        if seg.kind in want and number <= 9 and (seg.kind is not SegmentKind.FIELD or seg.halves):
            done.append("farmer" if want == (SegmentKind.FIELD,) else "follower")
            return [*switch_to(Figure.MEEPLE), str(number)]
    return ["0"]


class TradersPlan:
    """The deployments of :func:`_deploy_keys`; *done* says what was done, in order."""

    def __init__(self) -> None:
        self.done: list[str] = []

    def keys(self, screen: GameScreen) -> list[str]:
        return _deploy_keys(screen, self.done)


@pytest.mark.slow
async def test_a_person_plays_both_expansions_with_a_builder_turn_the_pig_and_the_large_meeple_by_keys(tmp_path):
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=21)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await new_local_game(pilot, app, "traders", "inns")
        assert screen.table.game.setup.rules.traders and screen.table.game.setup.rules.inns
        plan = TradersPlan()

        seconds: list[str] = []

        async def place(screen: GameScreen) -> None:
            if traders.second_tile(screen.table.game):  # the double turn, shown plainly
                seconds.append(str(screen.status.render()))
            await _place(pilot, screen, _wanted(screen.table.game))

        asked: list[str] = []

        def answer(screen: GameScreen) -> str:  # the first second tile taken, any later one left
            asked.append(str(screen.status.render()))
            return "y" if len(asked) == 1 else "n"

        await play_to_the_end(pilot, app, screen, plan, place=place, turns=300, answer=answer)
        assert isinstance(app.screen, FinalScreen)
        final = screen.table.game
        loaded = load(screen.table.path)
        assert loaded.header.options.traders and loaded.header.options.inns and loaded.game.digest == final.digest
        mine = [e.move for e in loaded.entries if e.seat == 0]
        figures = {m.figure for m in mine if isinstance(m, DeployMeeple)}
        assert {Figure.BUILDER, Figure.PIG, Figure.LARGE} <= figures, (figures, plan.done)
        turns = [e for e in final.events if isinstance(e, BuilderTurn) and e.seat == 0]
        assert turns, "the person got no second tile"
        assert seconds and all("your builder's second tile: place" in s for s in seconds), seconds
        # rules 5: each second tile asked first, by its keys; the answers are the person's moves
        assert asked and all("y take it, n leave it" in s for s in asked), asked
        answers = [str(m) for m in mine if isinstance(m, SecondTile)]
        assert answers == ["second-tile take"] + ["second-tile decline"] * (len(asked) - 1)
