"""A tiny app hosting the board, and the fixed games the board tests and snapshots use."""

from __future__ import annotations

import pytest

pytest.importorskip("textual")

from textual.app import App, ComposeResult
from textual.widgets import Footer

from carcnet.bots import RandomBot
from carcnet.engine import Game, GameSetup, Phase, PlaceTile, Position
from carcnet.tui.widgets.board import BoardView


class BoardApp(App[None]):
    """The board over a fixed game, with a footer; records the board's choices."""

    ENABLE_COMMAND_PALETTE = False

    def __init__(self, game: Game, **board_options: object) -> None:
        super().__init__()
        self.game = game
        self.board_options = board_options
        self.chosen: list[BoardView.PlacementChosen | BoardView.DeployChosen | BoardView.RecallChosen] = []

    def compose(self) -> ComposeResult:
        yield BoardView(self.game, ["red", "blue"], id="board", **self.board_options)  # type: ignore[arg-type]
        yield Footer()

    def on_board_view_placement_chosen(self, message: BoardView.PlacementChosen) -> None:
        self.chosen.append(message)

    def on_board_view_deploy_chosen(self, message: BoardView.DeployChosen) -> None:
        self.chosen.append(message)

    def on_board_view_recall_chosen(self, message: BoardView.RecallChosen) -> None:
        self.chosen.append(message)


def placing_game() -> Game:
    """The start tile, with V drawn: it fits W, E and S of the start tile, two ways each."""
    return Game(GameSetup(players=2, draw_order=("V", "E", "U")))


def deploying_game() -> Game:
    """V placed east of the start tile, its road joining the start tile's road: seat 0 deploys."""
    game = Game(GameSetup(players=2, draw_order=("V", "E", "U")))
    game.apply(PlaceTile("V", Position(1, 0), 0))
    return game


def seeded_game(seed: int, moves: int) -> Game:
    """A random 2-player game (RandomBot, reproducible), stopped after *moves* moves."""
    game = Game(GameSetup(players=2, seed=seed))
    bot = RandomBot(seed)
    while len(game.moves) < moves and game.phase is not Phase.GAME_OVER:
        game.apply(bot.choose(game.view()))
    return game


def abbot_game(moves: int) -> Game:
    """The Abbot: B (a cloister) placed south of the start tile, then VG (a garden) west of it, then
    A (a cloister with a road): the game after the first *moves* of these five, each deploying:
    seat 0 puts its abbot on B's cloister; seat 1 skips on VG; seat 0 deploys on A."""
    from carcnet.engine import DeployMeeple, Figure, Rules, SkipMeeple

    game = Game(GameSetup(players=2, draw_order=("B", "VG", "A", "E"), rules=Rules(abbot=True)))
    script = [
        PlaceTile("B", Position(0, 1), 0),
        DeployMeeple(0, Figure.ABBOT),
        PlaceTile("VG", Position(-1, 0), 2),
        SkipMeeple(),
        PlaceTile("A", Position(-1, 1), 0),
    ]
    for move in script[:moves]:
        game.apply(move)
    return game


def inns_game() -> Game:
    """Inns & Cathedrals: ICB (a straight road with an inn) east of the start tile with seat 0's large
    meeple on its road, then ICK (a four-sided city with a cathedral) north of the start tile with
    seat 1's meeple in the city, then ICL (a city corner with a pennant and a road bend with an inn)
    to place."""
    from carcnet.engine import DeployMeeple, Figure, Rules

    game = Game(GameSetup(players=2, draw_order=("ICB", "ICK", "ICL", "E"), rules=Rules(inns=True)))
    for move in (PlaceTile("ICB", Position(1, 0), 0), DeployMeeple(0, Figure.LARGE),
                 PlaceTile("ICK", Position(0, -1), 0), DeployMeeple(0)):
        game.apply(move)
    return game
