"""Hills & Sheep in the interface: the new-game form's tick box, and a game at one terminal with a
given draw order and given sheep tokens (``GameSetup.tokens``: 3, then 2) in which Ann deploys her
shepherd by keys (``a`` to the shepherd, its spot's digit, Enter), the board shows it with its sheep
(none before the turn is played: the token is not shown before), the flock's question comes with its
keys (``g`` grows the flock, ``s`` scores it), and the log, the scoreboard and the saved game follow.

The rulebooks' example H6 of ``tests/engine/test_hills_sheep.py``, played by keys: Ann puts her
shepherd on the field north of the road (a token: 3 sheep), Bob a farmer in the same field, Ann extends
it and grows the flock (2 sheep: 5), Bob extends it (nothing asked of Bob), Ann extends it again and
scores the flock: 5 points, the shepherd back in her supply. Waits are bounded polls of the pilot.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.geometry import Region
from textual.widget import Widget

from carcnet.engine import (
    DeployMeeple,
    Figure,
    Flock,
    FlockScored,
    Phase,
    PlaceTile,
    Position,
    Rules,
    TokenDrawn,
    parse_move,
)
from carcnet.log import GameRecorder, LogHeader, Seat, load
from carcnet.log.values import COLOURS
from carcnet.table import LocalTable
from carcnet.tui.app import CarcnetApp
from carcnet.tui.render import UNICODE_GLYPHS
from carcnet.tui.screens.game import GameScreen

from .keyplay import new_local_game, until

pytestmark = pytest.mark.asyncio

ORDER = ("U", "U", "U", "U", "U", "V")
TOKENS = ("3", "2")
HILLS = Rules(hills_sheep=True)


async def test_the_tick_box_plays_hills_and_sheep(tmp_path: Path) -> None:
    """The new-game form's "Hills & Sheep" gives the game ``Rules(hills_sheep=True)``; the scoreboard
    shows each seat's shepherd in its supply (``S``)."""
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await new_local_game(pilot, app, "hills-sheep")
        game = screen.table.game
        assert game.setup.rules == HILLS
        await until(pilot, lambda: screen.my_turn() and screen.board.interactive, "the person's turn")
        await pilot.pause()
        rows = [line for line in _lines(screen.scoreboard) if "●" in line]
        assert len(rows) == 2, _lines(screen.scoreboard)
        assert all(line.rstrip().endswith("●●●●●●● S") for line in rows), rows


def _table(tmp_path: Path) -> LocalTable:
    """Ann and Bob at one terminal, H6's tiles and tokens."""
    seats = [Seat("Ann", COLOURS[0], "human"), Seat("Bob", COLOURS[1], "human")]
    header = LogHeader.new(seats, order=ORDER, options=HILLS, tokens=TOKENS)
    recorder = GameRecorder.create(header, tmp_path / "hills.carc")
    return LocalTable(recorder, bot_delay=0)


async def _place(pilot, screen: GameScreen, move: str) -> None:  # type: ignore[no-untyped-def]
    """The placement *move* by keys: Tab to its position (bounded), r to its rotation, Enter."""
    wanted = parse_move(move)
    assert isinstance(wanted, PlaceTile)
    board = screen.board
    await until(pilot, lambda: screen.my_turn() and board.interactive and bool(board.open_positions),
                "a tile to place")
    for _ in range(40):
        if board.cursor == wanted.position:
            break
        await pilot.press("tab")
    assert board.cursor == wanted.position, (board.cursor, move)
    for _ in range(4):
        if board.rotation == wanted.rotation:
            break
        await pilot.press("r")
    assert board.rotation == wanted.rotation
    await pilot.press("enter")
    await until(pilot, lambda: board.deploying, "the tile placed")


async def _skip_and_confirm(pilot, screen: GameScreen) -> None:  # type: ignore[no-untyped-def]
    moves = len(screen.table.game.moves)
    await pilot.press("0")
    await until(pilot, lambda: screen.confirming, "the turn to confirm")
    await pilot.press("enter")
    await until(pilot, lambda: len(screen.table.game.moves) >= moves + 2, "the turn played")


def _lines(widget: Widget) -> list[str]:
    """The widget's lines as drawn."""
    width, height = widget.outer_size
    return [strip.text for strip in widget.render_lines(Region(0, 0, width, height))]


def _status(screen: GameScreen) -> str:
    return " ".join(str(screen.status.render()).split())


def _log(screen: GameScreen) -> str:
    return "\n".join(strip.text for strip in screen.log_panel.lines)


def _footer_keys(screen: GameScreen) -> set[str]:
    return {binding.binding.key for binding in screen.active_bindings.values() if binding.enabled}


async def test_a_person_deploys_the_shepherd_and_answers_the_flock_s_question_by_keys(tmp_path: Path) -> None:
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(120, 40)) as pilot:
        app.show_table(_table(tmp_path))
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.my_turn(), "Ann's turn")
        screen = app.screen
        assert isinstance(screen, GameScreen)
        board = screen.board
        assert "g" not in _footer_keys(screen) and "s" not in _footer_keys(screen)  # asked only when asked

        # Ann: the tile east of the start tile; the shepherd on its north field, by "a" and its digit
        await _place(pilot, screen, "place U 1,0 90")
        assert Figure.SHEPHERD in board.figures_to_deploy()
        for _ in range(len(board.figures_to_deploy())):
            if board.figure is Figure.SHEPHERD:
                break
            await pilot.press("a")
        assert board.figure is Figure.SHEPHERD
        assert "deploys the shepherd on that spot" in _status(screen), _status(screen)
        assert "a token from the sheep bag" in "\n".join(_lines(screen.inspector))
        await pilot.press(str(board.spots.index(2) + 1))
        await until(pilot, lambda: screen.confirming, "the turn to confirm")
        assert "the shepherd on the field" in _status(screen), _status(screen)
        # the trial drew its token, 3: not shown before the turn is played
        assert board._view.figures[Position(1, 0)] == ((2, 0, "S"),)
        assert board._view.flocks[Position(1, 0)] == ((2, 0, 0),)
        assert "s3" not in "\n".join(_lines(screen.scoreboard))
        await pilot.press("enter")
        await until(pilot, lambda: screen.table.game.seat == 1 and board.interactive, "Bob's turn")
        game = screen.table.game
        assert [e.token for e in game.events if isinstance(e, TokenDrawn)] == ["3"]
        assert board._view.flocks[Position(1, 0)] == ((2, 0, 3),)
        await pilot.pause()
        shown = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
        assert "S1" + UNICODE_GLYPHS.flock[1][3] in shown  # Ann's shepherd with its 3 sheep, on the board
        assert "Ann deployed the shepherd on the field" in _log(screen)
        assert "Ann's shepherd finds 3 sheep" in _log(screen)
        assert "s3" in "\n".join(_lines(screen.scoreboard))

        # Bob: a farmer would be allowed; he skips
        await _place(pilot, screen, "place U -1,0 90")
        await _skip_and_confirm(pilot, screen)

        # Ann extends her shepherd's field: the flock's question, g grows it (2 more: 5)
        await _place(pilot, screen, "place U 2,0 90")
        await _skip_and_confirm(pilot, screen)
        await until(pilot, lambda: screen.table.game.phase is Phase.STEP, "the flock's question")
        await pilot.pause()
        asked = "your tile extends your shepherd's field (3 sheep): g grow the flock, s score it"
        assert asked in _status(screen), _status(screen)
        assert {"g", "s"} <= _footer_keys(screen)
        assert not {"y", "n"} & _footer_keys(screen)  # the builder's keys are not this question's
        moves = len(screen.table.game.moves)
        await pilot.press("g")
        await until(pilot, lambda: len(screen.table.game.moves) > moves, "the flock grown")
        assert str(screen.table.game.moves[-1]) == "flock grow"
        assert "Ann's shepherd finds 2 sheep" in _log(screen)
        await until(pilot, lambda: board._view.flocks.get(Position(1, 0)) == ((2, 0, 5),), "5 sheep shown")
        assert "g" not in _footer_keys(screen)

        # Bob extends it: nothing is asked of him
        await _place(pilot, screen, "place U -2,0 90")
        await _skip_and_confirm(pilot, screen)
        assert screen.table.game.phase is Phase.PLACE_TILE and screen.table.game.seat == 0

        # Ann again: s scores the flock, 5 points, the shepherd back in her supply
        await _place(pilot, screen, "place U 3,0 90")
        await _skip_and_confirm(pilot, screen)
        await until(pilot, lambda: screen.table.game.phase is Phase.STEP, "the flock's question again")
        assert "(5 sheep)" in _status(screen), _status(screen)
        moves = len(screen.table.game.moves)
        await pilot.press("s")
        await until(pilot, lambda: len(screen.table.game.moves) > moves, "the flock scored")
        game = screen.table.game
        assert [(e.seats, e.points) for e in game.events if isinstance(e, FlockScored)] == [((0,), 5)]
        assert game.scores[0] == 5 and game.breakdown[0]["sheep"] == [5, 0]
        await pilot.pause()
        log = _log(screen)
        assert "Ann +5: a flock of 5 sheep" in log and "Ann's shepherd goes back to their supply" in log, log
        assert Position(1, 0) not in board._view.flocks
        assert "s5" not in "\n".join(_lines(screen.scoreboard))

        # the saved game holds the person's moves
        loaded = load(screen.table.path)
        mine = [e.move for e in loaded.entries if e.seat == 0]
        assert DeployMeeple(2, Figure.SHEPHERD) in mine
        assert [m for m in mine if isinstance(m, Flock)] == [Flock(True), Flock(False)]
        assert loaded.game.digest == game.digest
