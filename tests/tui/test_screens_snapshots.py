"""Snapshots of the app's screens (pytest-textual-snapshot): the final-scoring screen.

A fixed finished game (seeded bots), fixed terminal size; regenerate with ``--snapshot-update``
after a deliberate change, and look at the report first.
"""

from __future__ import annotations

import pytest

pytest.importorskip("pytest_textual_snapshot")

from textual.app import App

from carcnet.bots import make_bot
from carcnet.engine import Game, GameSetup, Phase
from carcnet.tui.app import STYLESHEET
from carcnet.tui.screens.final import FinalScreen, ProjectionScreen

NAMES = ["Ann", "Bob", "Cem"]
COLOURS = ["red", "blue", "green"]


def finished_game(seed: int = 21) -> Game:
    game = Game(GameSetup(players=3, seed=seed))
    bots = [make_bot("greedy", seed + s) for s in range(3)]
    while game.phase is not Phase.GAME_OVER:
        game.apply(bots[game.seat].choose(game.view()))
    return game


class ScreenApp(App[None]):
    CSS_PATH = STYLESHEET

    def __init__(self, screen_factory) -> None:
        super().__init__()
        self._factory = screen_factory

    def on_mount(self) -> None:
        self.push_screen(self._factory())


def test_final_scoring_screen(snap_compare):
    """Three greedy bots, seed 21: every seat's points by feature kind, during the game + in the
    final scoring, the total, and the winner."""
    game = finished_game()
    assert snap_compare(ScreenApp(lambda: FinalScreen(game, NAMES, COLOURS)), terminal_size=(80, 24))


def test_projection_screen_mid_game(snap_compare):
    """The same game after 60 moves: scores if the game ended now."""
    game = finished_game()
    from carcnet.engine import replay

    mid = replay(game.setup, game.moves[:60])
    assert snap_compare(ScreenApp(lambda: ProjectionScreen(mid, NAMES, COLOURS)), terminal_size=(80, 24))


def test_score_chart_screen(snap_compare):
    """The replay's chart of the same game: one line per seat in its colour, the turn shown marked."""
    from carcnet.tui.screens.replay import ChartScreen
    from carcnet.tui.widgets.chart import score_history

    game = finished_game()
    history = score_history(game)
    assert snap_compare(ScreenApp(lambda: ChartScreen(history, NAMES, COLOURS, 30)), terminal_size=(100, 30))


def test_bag_screen(snap_compare):
    """The bag of the same game after 60 moves: every design left as a picture with its count, the
    count per feature kind, and the dead spots."""
    from carcnet.engine import replay
    from carcnet.tui.screens.bag import BagScreen

    game = finished_game()
    mid = replay(game.setup, game.moves[:60])
    assert snap_compare(ScreenApp(lambda: BagScreen(mid)), terminal_size=(100, 40))
