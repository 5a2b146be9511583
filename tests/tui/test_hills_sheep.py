"""Hills & Sheep in the interface: the new-game form's tick box, and a game at one terminal with a
given draw order and given sheep tokens (``GameSetup.tokens``: 3, then 2) in which Ann deploys her
shepherd by keys (``a`` to the shepherd, its spot's digit, Enter), the board shows it with its sheep
(none before the turn is played: the token is not shown before), the flock's question comes with its
keys (``g`` grows the flock, ``s`` scores it), and the log, the scoreboard and the saved game follow.

The rulebooks' example H6 of ``tests/engine/test_hills_sheep.py``, played by keys: Ann puts her
shepherd on the field north of the road (a token: 3 sheep), Bob a farmer in the same field, Ann extends
it and grows the flock (2 sheep: 5), Bob extends it (nothing asked of Bob), Ann extends it again and
scores the flock: 5 points, the shepherd back in her supply. Waits are bounded polls of the pilot.

Then the same game in words: the log's lines, the tiles' marks, the scoreboard's ``S`` and ``s5``, the
bag screen's sheep bag and tiles under hills, the final table's Sheep column and the command line's
transcript.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.geometry import Region
from textual.widget import Widget

from carcnet.cli.report import final_lines, transcript
from carcnet.engine import (
    DeployMeeple,
    Figure,
    Flock,
    FlockScored,
    Game,
    GameSetup,
    Phase,
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
from carcnet.tui.screens.bag import bag_text
from carcnet.tui.screens.final import score_table
from carcnet.tui.screens.game import GameScreen
from carcnet.tui.screens.help import help_text, rules_help
from carcnet.tui.widgets.game_log import describe_event
from carcnet.tui.widgets.scoreboard import Scoreboard
from carcnet.tui.words import rules_words, score_words, tile_words

from .keyplay import new_local_game, place_by_keys, until

ORDER = ("U", "U", "U", "U", "U", "V")
TOKENS = ("3", "2")
HILLS = Rules(hills_sheep=True)


@pytest.mark.asyncio
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


@pytest.mark.asyncio
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
        await place_by_keys(pilot, screen, "place U 1,0 90")
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
        await place_by_keys(pilot, screen, "place U -1,0 90")
        await _skip_and_confirm(pilot, screen)

        # Ann extends her shepherd's field: the flock's question, g grows it (2 more: 5)
        await place_by_keys(pilot, screen, "place U 2,0 90")
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
        await place_by_keys(pilot, screen, "place U -2,0 90")
        await _skip_and_confirm(pilot, screen)
        assert screen.table.game.phase is Phase.PLACE_TILE and screen.table.game.seat == 0

        # Ann again: s scores the flock, 5 points, the shepherd back in her supply
        await place_by_keys(pilot, screen, "place U 3,0 90")
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


# ------------------------------------------------------------------------------------ in words


def _h6(tokens: tuple[str, ...], moves: int) -> Game:
    """H6 of the engine's tests, its first *moves* moves, with *tokens*."""
    game = Game(GameSetup(players=2, draw_order=ORDER, rules=HILLS, tokens=tokens))
    for move in H6[:moves]:
        game.apply(parse_move(move))
    return game


H6 = ["place U 1,0 90", "deploy 2 shepherd", "place U -1,0 90", "deploy 2", "place U 2,0 90", "skip", "flock grow",
      "place U -2,0 90", "skip", "place U 3,0 90", "skip", "flock score"]


def _logged(game: Game) -> list[str]:
    return [line.plain for e in game.events if (line := describe_event(e, ["Ann", "Bob"], ["red", "blue"]))]


def test_the_log_tells_the_shepherd_its_tokens_the_wolf_and_the_flock_scored():
    log = _logged(_h6(TOKENS, len(H6)))
    assert log[2:4] == ["Ann deployed the shepherd on the field", "Ann's shepherd finds 3 sheep"]
    assert "Ann's shepherd finds 2 sheep" in log
    at = log.index("Ann +5: a flock of 5 sheep")
    assert log[at + 1] == "Ann's shepherd goes back to their supply"
    wolf = _logged(_h6(("3", "W"), 7))
    assert wolf[-2:] == ["A wolf! Ann's flock scatters", "Ann's shepherd goes back to their supply"]


def test_tiles_scores_and_rules_in_words():
    assert tile_words("HSC") == "a tile with a city and a hill"
    assert tile_words("HSA") == "a tile with a city and a vineyard"
    game = _h6(TOKENS, len(H6))
    (scored,) = [e for e in game.events if isinstance(e, FlockScored)]
    assert score_words(scored) == "+5: a flock of 5 sheep" == scored.describe()
    assert rules_words(HILLS) == HILLS.text() == "Hills & Sheep"
    assert "**Hills & Sheep**" in rules_help(HILLS) and "Hills & Sheep" not in rules_help(Rules())
    assert "Hills & Sheep" in help_text() and "g, s" in help_text()


def test_the_scoreboard_shows_the_shepherd_in_supply_and_its_sheep_on_the_board():
    assert Scoreboard._supply(_h6(TOKENS, 0), 0, counted=True).endswith("S")
    game = _h6(TOKENS, 7)  # Ann's flock: 3 + 2
    assert Scoreboard._supply(game, 0, counted=True).endswith("s5")
    assert Scoreboard._supply(game, 1, counted=False).endswith(" S")
    assert not Scoreboard._supply(Game(GameSetup(players=2, draw_order=ORDER)), 0, counted=True).endswith("S")


def test_the_bag_shows_the_sheep_bag_and_the_tiles_under_hills():
    game = Game(GameSetup(players=2, draw_order=("HSC", "U", "HSA", "U"), rules=HILLS, tokens=TOKENS))
    game.apply(parse_move("place HSC 0,-1 180"))
    assert game.hidden == 1
    text = bag_text(game).plain
    assert "3 tiles left in the bag" in text and "1 of them lies face down under a hill" in text, text
    assert "1 with a vineyard" in text and "with a hill" not in text  # the hill is placed
    assert "Sheep bag: 18 tokens (4 × 1 sheep, 5 × 2 sheep, 5 × 3 sheep, 2 × 4 sheep, 2 wolves)" in text
    assert "Sheep bag" not in bag_text(Game(GameSetup(players=2, draw_order=ORDER))).plain


def test_the_final_table_has_a_sheep_column_and_the_transcript_tells_the_flocks():
    game = _h6(TOKENS, len(H6))
    game.apply(parse_move("place V 4,0 0"))
    game.apply(parse_move("skip"))
    table = score_table(["Ann", "Bob"], ["red", "blue"], game.breakdown, game.scores, game.winners)
    assert "Sheep" in [str(column.header) for column in table.columns]
    lines = list(transcript(game.setup, game.moves, ["Ann", "Bob"]))
    assert "  3. Ann  place U 2,0 90, flock grow" in lines and "     Ann's shepherd finds 2 sheep" in lines
    assert "     score: Ann +5: a flock of 5 sheep" in lines
    assert sum(line.startswith("  3.") for line in lines) == 1  # the turn once, after its question
    assert "sheep" in final_lines(game, ["Ann", "Bob"])[0]
