"""The Princess & the Dragon in the interface: the new-game form's tick box, and games at one terminal
with given draw orders, both seats played by people (Ann, seat 0; Bob, seat 1), played by keys and by
the mouse, each the rulebooks' example of ``tests/engine/test_princess_dragon.py``:

* P1: Ann places the volcano (the dragon flies there), Bob a thief east of it, Ann a dragon tile with a
  farmer: the dragon's movement; Ann's step by an arrow and Enter (Bob's thief eaten), Bob's by a click
  (Ann's farmer eaten); the movement ends where it cannot go on.
* P8: Ann's princess sends Bob's knight home (``x``, the knight's number).
* P4: Bob puts the fairy next to his thief (``m``, a click on the thief's tile); its point as his turn
  begins, its 3 when the thief's road is scored.

Then the same games in words: the log's lines, the tiles' marks in every zoom, the scoreboard's ``✦``,
the bag's held dragon tiles, the final table's Fairy column, the help's rows. Waits are bounded polls of
the pilot, never sleeps.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.geometry import Region
from textual.widget import Widget

from carcnet.cli.report import final_lines, transcript
from carcnet.engine import (
    DragonMoved,
    FairyScored,
    Figure,
    Game,
    GameSetup,
    MeepleReturned,
    Phase,
    PlaceTile,
    Position,
    Rules,
    parse_move,
    tile_kind,
)
from carcnet.engine.moves import MoveDragon, MoveFairy, RemoveKnight
from carcnet.engine.tiles import DRAGON_DESIGNS
from carcnet.log import GameRecorder, LogHeader, Seat, load
from carcnet.log.values import COLOURS
from carcnet.table import LocalTable
from carcnet.tui.app import CarcnetApp
from carcnet.tui.render import ASCII_GLYPHS, UNICODE_GLYPHS, Mode, Role, Zoom, board_text, compose_tile, tile_art
from carcnet.tui.screens.bag import bag_text
from carcnet.tui.screens.final import score_table
from carcnet.tui.screens.game import GameScreen
from carcnet.tui.screens.help import help_text, rules_help
from carcnet.tui.widgets.board import BoardView
from carcnet.tui.widgets.game_log import GameLog, LogContext, describe_event, log_context
from carcnet.tui.widgets.scoreboard import Scoreboard
from carcnet.tui.words import rules_words, score_words, tile_words

from .keyplay import new_local_game, place_by_keys, until

DRAGON = Rules(princess_dragon=True)
P = Position

P1_ORDER = ("PD3", "U", "PDH", "V", "V")
P1 = ["place PD3 1,0 0", "skip", "place U 2,0 90", "deploy 0", "place PDH 3,0 0", "deploy 1"]
P8_ORDER = ("U", "N", "PDB", "V")
P8 = ["place U -1,0 90", "skip", "place N 0,-1 180", "deploy 0", "place PDB 1,-1 270"]
P4_ORDER = ("U", "U", "B", "B", "W", "W", "V", "V")
P4 = ["place U 1,0 90", "skip", "place U -1,0 90", "deploy 0", "place B 0,1 0", "deploy 0",
      "place B 1,1 0", "fairy -1,0 0", "place W 2,0 0", "skip", "place W -2,0 0", "skip"]


@pytest.mark.asyncio
async def test_the_tick_box_plays_the_princess_and_the_dragon(tmp_path: Path) -> None:
    """The new-game form's "The Princess & the Dragon" gives the game ``Rules(princess_dragon=True)``."""
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await new_local_game(pilot, app, "princess-dragon")
        assert screen.table.game.setup.rules == DRAGON
        assert load(screen.table.path).header.options == DRAGON  # the saved header holds it


def _table(tmp_path: Path, order: tuple[str, ...]) -> LocalTable:
    """Ann and Bob at one terminal, *order*'s tiles."""
    seats = [Seat("Ann", COLOURS[0], "human"), Seat("Bob", COLOURS[1], "human")]
    header = LogHeader.new(seats, order=order, options=DRAGON)
    recorder = GameRecorder.create(header, tmp_path / "dragon.carc")
    return LocalTable(recorder, bot_delay=0)


async def _start(pilot, app: CarcnetApp, table: LocalTable) -> GameScreen:  # type: ignore[no-untyped-def]
    app.show_table(table)
    await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.my_turn(), "Ann's turn")
    screen = app.screen
    assert isinstance(screen, GameScreen)
    return screen


async def _confirm(pilot, screen: GameScreen, *keys: str) -> None:  # type: ignore[no-untyped-def]
    """*keys* (the deployment; none when nothing could be deployed), then Enter confirms the turn."""
    moves = len(screen.table.game.moves)
    if keys:
        await pilot.press(*keys)
    await until(pilot, lambda: screen.confirming, "the turn to confirm")
    await pilot.press("enter")
    await until(pilot, lambda: len(screen.table.game.moves) >= moves + 2, "the turn played")


async def _click(pilot, board: BoardView, position: Position, col: int = 1, row: int = 1) -> None:  # type: ignore[no-untyped-def]
    """A click on cell *col*, *row* of the tile at *position*, brought into view first."""
    board.centre_on(position)
    await pilot.pause()
    region = board.tile_region(position)
    await pilot.click(BoardView, offset=(region.x + col, region.y + row))


def _lines(widget: Widget) -> list[str]:
    width, height = widget.outer_size
    return [strip.text for strip in widget.render_lines(Region(0, 0, width, height))]


def _status(screen: GameScreen) -> str:
    return " ".join(str(screen.status.render()).split())


def _log(screen: GameScreen) -> str:
    """The log panel's text, its lines (wrapped to the panel) joined by spaces."""
    return " ".join(" ".join(strip.text for strip in screen.log_panel.lines).split())


def _footer(screen: GameScreen) -> dict[str, str]:
    """The footer's enabled keys and what they say."""
    return {b.binding.key: b.binding.description for b in screen.active_bindings.values() if b.enabled}


def _shown(app: CarcnetApp) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


@pytest.mark.asyncio
async def test_the_dragon_is_moved_by_an_arrow_and_enter_then_by_a_click(tmp_path: Path) -> None:
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _start(pilot, app, _table(tmp_path, P1_ORDER))
        board = screen.board
        # Ann: the volcano (nothing may be deployed on it: the turn is whole), the dragon flies there
        await place_by_keys(pilot, screen, "place PD3 1,0 0")
        await _confirm(pilot, screen)
        assert board._view.dragon == P(1, 0)
        assert "The dragon flies to the volcano just east of the start tile" in _log(screen)
        # Bob: a thief on the road east of the volcano
        await place_by_keys(pilot, screen, "place U 2,0 90")
        await _confirm(pilot, screen, "1")
        # Ann: a dragon tile, a farmer on its north field
        await place_by_keys(pilot, screen, "place PDH 3,0 0")
        await _confirm(pilot, screen, str(board.spots.index(1) + 1))
        await until(pilot, lambda: screen.table.game.phase is Phase.STEP and board.interactive,
                    "the dragon's first step")
        await pilot.pause()
        assert set(board.targets) == {P(2, 0), P(0, 0)}
        assert board.cursor == P(1, 0)  # on the dragon: an arrow goes to the tile beside
        status = _status(screen)
        assert "Ann: move the dragon: step 1 of 6. 2 tiles it may go to" in status, status
        assert _footer(screen).get("enter") == "Move the dragon"
        assert not {"y", "n", "g", "s", "x", "m"} & set(_footer(screen))
        # the tiles it may go to are tinted amber, the dragon's own tile (its path's start) red
        assert board._look(P(2, 0))[12] == Mode.TARGET and board._look(P(1, 0))[12] == Mode.PATH
        assert board._look(P(1, 0))[13] is True  # the dragon drawn there
        await pilot.press("left")  # the start tile: a tile it may go to, not the one chosen here
        await pilot.press("right", "right")
        assert board.cursor == P(2, 0)
        moves = len(screen.table.game.moves)
        await pilot.press("enter")
        await until(pilot, lambda: len(screen.table.game.moves) > moves, "Ann's step")
        game = screen.table.game
        assert game.moves[-1] == MoveDragon(P(2, 0)) and game.actor == 1
        log = _log(screen)
        assert "Ann moves the dragon east" in log and "The dragon eats one of Bob's meeples" in log, log
        # Bob's step: only (3,0); Enter on a tile it may not go to says so and moves nothing
        await until(pilot, lambda: board.targets == (P(3, 0),), "Bob's step")
        await pilot.pause()
        assert "Bob: move the dragon: step 2 of 6. 1 tile it may go to" in _status(screen), _status(screen)
        assert board._look(P(1, 0))[12] == board._look(P(2, 0))[12] == Mode.PATH
        board.cursor = P(0, 0)
        await pilot.press("enter")
        assert len(screen.table.game.moves) == moves + 1
        await _click(pilot, board, P(3, 0), 2, 3)
        await until(pilot, lambda: screen.table.game.phase is Phase.PLACE_TILE, "the movement over")
        game = screen.table.game
        assert game.moves[-1] == MoveDragon(P(3, 0)) and game.seat == 1
        assert "Bob moves the dragon east" in _log(screen) and "The dragon eats one of Ann's meeples" in _log(screen)
        assert board._view.dragon == P(3, 0) and not board._view.path and not board.targets
        await pilot.pause()
        assert "D" in _shown(app)
        # the saved game holds the steps of each seat
        loaded = load(screen.table.path)
        steps = [(e.seat, e.move) for e in loaded.entries if isinstance(e.move, MoveDragon)]
        assert steps == [(0, MoveDragon(P(2, 0))), (1, MoveDragon(P(3, 0)))]
        assert loaded.game.digest == game.digest


@pytest.mark.asyncio
async def test_the_princess_sends_a_knight_home_by_x_and_its_number(tmp_path: Path) -> None:
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _start(pilot, app, _table(tmp_path, P8_ORDER))
        board = screen.board
        await place_by_keys(pilot, screen, "place U -1,0 90")
        await _confirm(pilot, screen, "0")
        assert "x" not in _footer(screen)
        await place_by_keys(pilot, screen, "place N 0,-1 180")
        await _confirm(pilot, screen, "1")  # Bob's knight
        await place_by_keys(pilot, screen, "place PDB 1,-1 270")  # Ann: the princess joins Bob's city
        await pilot.pause()
        assert _footer(screen).get("x") == "Princess" and "m" not in _footer(screen)
        assert "x: the princess sends a knight home" in _status(screen), _status(screen)
        await pilot.press("x")
        assert board.picks == ((P(0, -1), 0),)
        status = _status(screen)
        assert "the princess sends a knight home: 1: Bob's knight at 0,-1." in status, status
        assert board._look(P(0, -1))[8] == ((0, "1"),)  # the knight numbered on its tile
        await pilot.press("escape")  # back to deploying: the meeple's spots again
        assert not board.picks and board.spots
        await pilot.press("x")
        moves = len(screen.table.game.moves)
        await pilot.press("1")
        await until(pilot, lambda: screen.confirming, "the turn to confirm")
        assert "the princess sends the knight at 0,-1 home" in _status(screen), _status(screen)
        await pilot.press("enter")
        await until(pilot, lambda: len(screen.table.game.moves) >= moves + 2, "the turn played")
        game = screen.table.game
        assert game.moves[-1] == RemoveKnight(P(0, -1), 0)
        assert "The princess sends Bob's knight home" in _log(screen), _log(screen)
        assert not game.figures()


@pytest.mark.asyncio
async def test_the_fairy_goes_by_a_follower_by_m_and_a_click(tmp_path: Path) -> None:
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _start(pilot, app, _table(tmp_path, P4_ORDER))
        board = screen.board
        await place_by_keys(pilot, screen, "place U 1,0 90")
        assert "m" not in _footer(screen)  # no follower of Ann's on the board
        await _confirm(pilot, screen, "0")
        await place_by_keys(pilot, screen, "place U -1,0 90")
        await _confirm(pilot, screen, "1")  # Bob's thief
        await place_by_keys(pilot, screen, "place B 0,1 0")
        await _confirm(pilot, screen, "1")  # Ann's monk
        await place_by_keys(pilot, screen, "place B 1,1 0")  # Bob: the fairy by his thief, by the mouse
        await pilot.pause()
        assert _footer(screen).get("m") == "Fairy"
        await pilot.press("m")
        assert board.picks == ((P(-1, 0), 0),) and board.pick_index == 0  # the only one: chosen
        assert "the fairy goes next to: 1: a thief at -1,0." in _status(screen), _status(screen)
        moves = len(screen.table.game.moves)
        await _click(pilot, board, P(-1, 0), 4, 2)
        await until(pilot, lambda: screen.confirming, "the turn to confirm")
        assert "the fairy next to your follower at -1,0" in _status(screen), _status(screen)
        await pilot.press("enter")
        await until(pilot, lambda: len(screen.table.game.moves) >= moves + 2, "the turn played")
        game = screen.table.game
        assert game.moves[-1] == MoveFairy(P(-1, 0), 0)
        assert board._view.fairy == (P(-1, 0), 0) and board._look(P(-1, 0))[14] == 0
        await pilot.pause()
        assert "T2" + UNICODE_GLYPHS.fairy in _shown(app)  # the fairy right after Bob's thief
        assert Scoreboard._supply(game, 1, counted=True).endswith("✦")
        await place_by_keys(pilot, screen, "place W 2,0 0")
        await _confirm(pilot, screen, "0")
        await place_by_keys(pilot, screen, "place W -2,0 0")  # Bob's turn began: +1; the road scored: the fairy's 3
        await _confirm(pilot, screen, "0")
        log = _log(screen)
        assert "Bob +1: the fairy" in log and "Bob +3: the fairy" in log, log
        assert screen.table.game.breakdown[1]["fairy"] == [4, 0]


P9_ORDER = ("U", "PDW", "V", "V")


@pytest.mark.asyncio
async def test_a_follower_goes_through_the_portal_by_o_and_a_digit_then_by_a_click(tmp_path: Path) -> None:
    """P9 (PD15): Ann's thief on the road through the start tile; Bob places a magic portal: ``o``
    offers every free, unfinished spot of the other tiles (never the thief's road), numbered; a digit
    chooses one, the turn to confirm and the log say where it went; a click chooses too."""
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _start(pilot, app, _table(tmp_path, P9_ORDER))
        board = screen.board
        await place_by_keys(pilot, screen, "place U 1,0 90")
        assert "o" not in _footer(screen)  # no portal on this tile
        await _confirm(pilot, screen, "1")  # Ann's thief on the road
        await place_by_keys(pilot, screen, "place PDW -1,0 0")  # Bob: a magic portal
        await pilot.pause()
        assert _footer(screen).get("o") == "Portal"
        assert "o: a follower through the portal" in _status(screen), _status(screen)
        assert all(board._view.tiles[board._view.placed].variant.segments[s] for s in board.spots)
        await pilot.press("o")
        game = screen.shown_game  # the turn not confirmed yet: the placement tried on a copy
        expected = [(m.at, m.segment) for m in game.deploy_options() if m.at is not None]
        assert list(board.picks) == expected and (P(0, 0), 0) in expected  # the start tile's city
        assert not any(p == P(0, 0) and seg == 1 or p == P(1, 0) and seg == 0 for p, seg in board.picks)  # the road
        assert "a follower through the portal: 5 spots on other tiles" in _status(screen), _status(screen)
        city = board.picks.index((P(0, 0), 0)) + 1
        assert board._look(P(0, 0))[8][0] == (0, str(city))  # numbered on its tile
        moves = len(screen.table.game.moves)
        await pilot.press(str(city))
        await until(pilot, lambda: screen.confirming, "the turn to confirm")
        assert "a meeple on the city through the portal" in _status(screen), _status(screen)
        await pilot.press("backspace")  # not this one: the deployment taken back
        await until(pilot, lambda: not screen.confirming, "the choice again")
        if not board.pick:  # (the choice kept through the undo)
            await pilot.press("o")
        assert board.pick == "portal", board.pick
        await _click(pilot, board, P(0, 0), 4, 1)  # the city's cells at the top of the start tile
        await until(pilot, lambda: screen.confirming, "the turn to confirm")
        await pilot.press("enter")
        await until(pilot, lambda: len(screen.table.game.moves) >= moves + 2, "the turn played")
        game = screen.table.game
        assert str(game.moves[-1]) == "deploy 0 @0,0"
        assert (1, Figure.MEEPLE, P(0, 0), 0) in game.figures()
        assert "Bob deployed a knight on the city through the magic portal, at 0,0" in _log(screen), _log(screen)


# ------------------------------------------------------------------------------------ in words


def _game(order: tuple[str, ...], moves: list[str]) -> Game:
    game = Game(GameSetup(players=2, draw_order=order, rules=DRAGON))
    for move in moves:
        game.apply(parse_move(move))
    return game


def _logged(game: Game) -> list[str]:
    out, context = [], LogContext()
    for event in game.events:
        line = describe_event(event, ["Ann", "Bob"], ["red", "blue"], context)
        context = log_context(context, event)
        if line is not None:
            out.append(line.plain)
    return out


def test_the_log_tells_the_dragon_what_it_eats_the_princess_and_the_fairy():
    log = _logged(_game(P1_ORDER, [*P1, "dragon 2,0", "dragon 3,0"]))
    at = log.index("The dragon flies to the volcano just east of the start tile")
    assert log[at + 1:] == ["Bob placed a tile in the east", "Bob deployed a thief on the road",
                            "Ann placed a tile in the east", "Ann deployed a farmer on the field",
                            "Ann moves the dragon east", "The dragon eats one of Bob's meeples",
                            "Bob moves the dragon east", "The dragon eats one of Ann's meeples"]
    princess = _logged(_game(P8_ORDER, [*P8, "princess 0,-1 0"]))
    assert princess[-1] == "The princess sends Bob's knight home"
    fairy = _logged(_game(P4_ORDER, P4))
    assert "Bob +1: the fairy" in fairy and "Bob +3: the fairy" in fairy
    assert "Bob's knight" not in " ".join(_logged(_game(P4_ORDER, P4)))  # a road scored: no princess there
    held = Game(GameSetup(players=2, draw_order=("PDH", "U", "V"), rules=DRAGON))
    assert "Ann drew a dragon tile: it waits beside the pile until a volcano is placed; Ann draws again" in (
        _logged(held))


def test_the_log_panel_keeps_what_it_saw_between_moves():
    """The panel gets a move's events at a time: a figure eaten is told as eaten after the step."""
    game = _game(P1_ORDER, P1)
    panel = GameLog(["Ann", "Bob"], ["red", "blue"])
    written: list[str] = []
    panel.write = lambda line, *a, **k: written.append(line.plain)  # type: ignore[method-assign]
    panel.add(game.events)
    first = len(game.events)
    game.apply(parse_move("dragon 2,0"))
    panel.add(game.events[first:])
    assert written[-2:] == ["Ann moves the dragon east", "The dragon eats one of Bob's meeples"]


def test_tiles_scores_and_rules_in_words():
    assert tile_words("PDX") == "a tile with a road and a volcano"
    assert tile_words("PDH") == "a tile with a road and the dragon"
    assert tile_words("PDB") == "a tile with a city and a princess"
    assert tile_words("PDR") == "a tile with three roads and a magic portal"
    game = _game(P4_ORDER, P4)
    scored = [e for e in game.events if isinstance(e, FairyScored)]
    assert [score_words(e) for e in scored] == ["+1: the fairy", "+3: the fairy"] == [e.describe() for e in scored]
    assert rules_words(DRAGON) == DRAGON.text() == "The Princess & the Dragon"
    assert "**The Princess & the Dragon**" in rules_help(DRAGON)
    assert "The Princess & the Dragon" not in rules_help(Rules())
    assert "Moving the dragon" in help_text() and "x, m" in help_text()


def test_the_marks_show_in_every_zoom_on_their_cells():
    """The volcano, the dragon's symbol and the portal once each on a field cell, the princess once on a
    city cell of her segment, in every zoom where the tile has room (the detailed and large zooms
    always), both glyph sets."""
    marks = {"volcano": Role.VOLCANO, "dragon": Role.DRAGON_MARK, "portal": Role.PORTAL}
    for kind in DRAGON_DESIGNS:
        for zoom in Zoom:
            for rotation in range(4):
                for glyphs in (UNICODE_GLYPHS, ASCII_GLYPHS):
                    art = tile_art(kind, rotation, zoom, glyphs)
                    cells = [cell for row in art.cells for cell in row]
                    segments = kind.variant(rotation).segments
                    for mark, role in marks.items():
                        glyph = {"volcano": glyphs.volcano, "dragon": glyphs.dragon_mark, "portal": glyphs.portal}[mark]
                        found = [c for c in cells if c.role is role]
                        if mark in kind.marks:
                            assert len(found) == 1 or (zoom is Zoom.OVERVIEW and not found), (kind.letter, zoom)
                            if found:
                                assert found[0].char == glyph and segments[found[0].segment].kind.label == "field"
                        else:
                            assert not found
                    princess = [c for c in cells if c.role is Role.PRINCESS]
                    if "princess" in kind.marks and zoom is not Zoom.OVERVIEW:
                        (cell,) = princess
                        assert cell.char == glyphs.princess and segments[cell.segment].princess, kind.letter
                    elif "princess" not in kind.marks:
                        assert not princess


def test_the_board_draws_the_dragon_its_path_and_the_fairy():
    game = _game(P4_ORDER[:5] + ("PDH", "PD3", "V"), P4[:8])
    text = board_text(game, Zoom.DETAILED, ASCII_GLYPHS)
    assert "T2f" in text and "D" not in text  # the fairy after Bob's thief; no dragon yet
    game = _game(("PD3", "U", "B", "B", "PDH", "V", "V"),
                 ["place PD3 1,0 0", "skip", "place U -1,0 90", "deploy 0", "place B 0,1 0", "deploy 0",
                  "place B 1,1 0", "fairy -1,0 0", "place PDH 2,0 0", "skip", "dragon 0,0"])
    for zoom in Zoom:
        text = board_text(game, zoom, ASCII_GLYPHS)
        assert text.count("D") == 1 and text.count(ASCII_GLYPHS.fairy) == 1, text
    art = tile_art(tile_kind("D"), 0, Zoom.DETAILED, UNICODE_GLYPHS)
    grid = compose_tile(art, dragon=True, tint=Mode.PATH)
    assert grid[2][4][0] == "D" and grid[2][4][1].layer == "dragon"
    assert {paint.mode for row in grid for _ch, paint in row} == {Mode.PATH}
    # the fairy next to nobody (its follower left): on a free cell near the tile's middle
    grid = compose_tile(art, fairy=-1, glyphs=ASCII_GLYPHS)
    assert sum(ch == "f" for row in grid for ch, _p in row) == 1


def test_the_scoreboard_bag_final_table_and_transcript():
    game = _game(P4_ORDER, P4)
    assert Scoreboard._supply(game, 1, counted=False).endswith(" ✦") is False  # the thief went home
    assert not Scoreboard._supply(game, 0, counted=True).endswith("✦")
    by = _game(P4_ORDER, P4[:8])
    assert Scoreboard._supply(by, 1, counted=False).endswith(" ✦")
    held = Game(GameSetup(players=2, draw_order=("PDH", "U", "PDX", "V"), rules=DRAGON))
    assert held.held == ["PDH"]
    text = bag_text(held).plain
    assert "1 of them, a dragon tile drawn before any volcano, waits beside the pile" in text, text
    assert "1 with a volcano" in text and "1 with the dragon" in text
    while game.phase is not Phase.GAME_OVER:  # the last tiles, nothing deployed
        spot = game.legal_placements()[0]
        game.apply(PlaceTile(game.drawn, spot.position, spot.rotations[0]))
        game.apply(parse_move("skip"))
    table = score_table(["Ann", "Bob"], ["red", "blue"], game.breakdown, game.scores, game.winners)
    assert "Fairy" in [str(column.header) for column in table.columns]
    lines = list(transcript(game.setup, game.moves, ["Ann", "Bob"]))
    assert "  4. Bob  place B 1,1 0, fairy -1,0 0" in lines
    assert "     score: Bob +1: the fairy" in lines and "     score: Bob +3: the fairy" in lines
    assert "fairy" in final_lines(game, ["Ann", "Bob"])[0]
    assert [e for e in game.events if isinstance(e, DragonMoved | MeepleReturned)]
