"""Turn confirmation and undo (issue 15): the placement and the deployment stay provisional until the
player confirms the turn; undo takes back the deployment, then the placement; at a network table
nothing is signed, saved or sent before the confirmation; an option turns it off.

Driven by keys through the Textual pilot; the network test runs a real second peer on loopback.
"""

from __future__ import annotations

import pytest

from carcnet.engine import DeployMeeple, DrawTile, Phase, PlaceTile, SkipMeeple
from carcnet.log import load
from carcnet.tui.app import CarcnetApp
from carcnet.tui.screens.game import GameScreen
from carcnet.tui.settings import Settings
from carcnet.tui.words import tile_words, where_words

from .test_app import _new_game
from .test_lan import _app, _open_table, _shows, _start_when_full, _until


def _status(screen: GameScreen) -> str:
    return str(screen.status.render())


async def _place_otherwise(pilot, screen: GameScreen, tried: PlaceTile) -> None:
    """Places the drawn tile by keys (Tab to a position, r to a rotation, Enter) other than *tried*."""
    board = screen.board
    options = [(p, r) for p, rs in board.open_positions.items() for r in rs if (p, r) != (tried.position, tried.rotation)]
    assert options, "the tile fits only where it was tried"
    position, rotation = options[0]
    for _ in range(len(board.open_positions) + 1):
        if board.cursor == position:
            break
        await pilot.press("tab")
    for _ in range(4):
        if board.rotation == rotation:
            break
        await pilot.press("r")
    assert (board.cursor, board.rotation) == (position, rotation)
    await pilot.press("enter")
    await pilot.pause()


@pytest.mark.asyncio
async def test_a_turn_is_tried_undone_and_played_only_when_confirmed(tmp_path):
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await _new_game(pilot, app)
        table = screen.table
        game = table.game
        drawn, path = game.drawn, table.path
        saved = path.read_bytes()
        assert not screen.check_action("confirm", ()) and not screen.check_action("undo", ())

        await pilot.press("tab", "enter")  # place: shown on the board, not played
        await pilot.pause()
        first = screen.shown_game.moves[-1]
        assert isinstance(first, PlaceTile) and screen.shown_game.phase is Phase.DEPLOY
        assert table.game.moves == [] and path.read_bytes() == saved
        assert screen.board.game is screen.shown_game and screen.board.interactive
        assert screen.check_action("undo", ()) and not screen.check_action("confirm", ())
        assert "Backspace takes the tile back" in _status(screen)

        await pilot.press("backspace")  # the placement taken back: the same tile to place again
        await pilot.pause()
        assert screen.shown_game is table.game and table.game.drawn == drawn and table.game.phase is Phase.PLACE_TILE
        assert not screen.check_action("undo", ())

        await pilot.press("tab", "tab", "enter")  # placed somewhere else this time
        await pilot.pause()
        second = screen.shown_game.moves[-1]
        assert isinstance(second, PlaceTile)
        options = screen.shown_game.deploy_options()
        assert options, "the test needs a tile with a spot"
        await pilot.press("1")  # deploy: the whole turn is shown, waiting for Enter
        await pilot.pause()
        assert screen.confirming and not screen.board.interactive
        assert isinstance(screen.shown_game.moves[-1], DeployMeeple)
        assert table.game.moves == [] and path.read_bytes() == saved
        status = _status(screen)
        assert "Enter confirms" in status and f"{tile_words(second.tile)} {where_words(second.position)}" in status
        assert "a meeple on the" in status and "Backspace undoes" in status
        assert screen.check_action("confirm", ()) and screen.check_action("undo", ())

        await pilot.press("u")  # the deployment taken back; the tile stays
        await pilot.pause()
        assert not screen.confirming and screen.shown_game.phase is Phase.DEPLOY
        assert screen.shown_game.moves[-1] == second

        await pilot.press("0", "enter")  # no meeple this time; confirmed
        await _until(pilot, lambda: len(table.game.moves) >= 2, "the turn played")
        assert table.game.moves[:2] == [second, SkipMeeple()]
        assert [e.move for e in load(path).entries][:2] == [second, SkipMeeple()]  # on disk
        assert not screen._provisional


@pytest.mark.asyncio
async def test_confirmation_off_plays_each_choice_at_once(tmp_path):
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5, settings=Settings(confirm=False))
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await _new_game(pilot, app)
        assert not screen.confirm
        await pilot.press("tab", "enter")
        await pilot.pause()
        assert isinstance(screen.table.game.moves[0], PlaceTile) and screen.shown_game is screen.table.game
        assert not screen.check_action("undo", ())
        await pilot.press("0")
        await _until(pilot, lambda: len(screen.table.game.moves) >= 2, "the skip played")
        assert screen.table.game.moves[1] == SkipMeeple()


@pytest.mark.asyncio
async def test_at_a_network_table_nothing_is_signed_or_sent_before_the_confirmation(tmp_path):
    from carcnet.table import NetTable

    from ..net.loopback import FAST, counter_random

    app = _app(tmp_path, random=counter_random("Ann"))  # fixed keys, so fixed tiles: the first fits two ways
    async with app.run_test(size=(120, 40)) as pilot:
        lobby = await _open_table(pilot, app, "host", "open")
        lan = lobby.table
        bob = NetTable.join(lan.game_id, name="Bob", bot="greedy", directory=tmp_path / "Bob",
                            listen=("127.0.0.1", 0), dial=[("127.0.0.1", lan.peer.port)], discovery=False,
                            timing=FAST, random=counter_random("Bob"))
        async with bob:
            await _start_when_full(pilot, lobby)
            await _until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.my_turn(), "Ann's turn")
            screen = app.screen
            await bob.wait_until(lambda: bob.session.have == lan.session.have, 15)
            have, saved = lan.session.have, lan.path.read_bytes()

            await pilot.press("tab", "enter", "1")  # a whole turn tried: the tile and a meeple
            await _until(pilot, lambda: screen.confirming, "the turn to confirm")
            tried = list(screen._provisional)
            assert isinstance(tried[1], DeployMeeple)
            await pilot.press("backspace", "backspace")  # both steps taken back
            await pilot.pause()
            assert not screen._provisional
            if len(screen.board.open_positions) > 1 or len(next(iter(screen.board.open_positions.values()))) > 1:
                await _place_otherwise(pilot, screen, tried[0])
            else:  # the tile fits one way only (these fixed keys draw B first): the same place
                await pilot.press("tab", "enter")
            await pilot.press("0")  # no meeple this time
            await _until(pilot, lambda: screen.confirming, "the turn to confirm")
            chosen = list(screen._provisional)
            assert chosen != tried and chosen[1] == SkipMeeple()
            # nothing of it is in Ann's log or session, so nothing can have been signed or sent
            assert lan.session.have == have and lan.path.read_bytes() == saved
            assert bob.session.have == have

            await pilot.press("enter")
            await bob.wait_until(lambda: bob.session.have >= have + 2, 15)
            moves = [e.entry.move for e in bob.session.entries if not isinstance(e.entry.move, DrawTile)]
            assert moves[:2] == chosen != tried  # the meeple tried was never played
            await _shows(pilot, screen, "#log", "Ann placed")


def test_snapshot_a_turn_waiting_for_confirmation(snap_compare, tmp_path):
    """The board shows the tile and the meeple tried; the status line says what Enter plays and
    that Backspace undoes; the footer offers both; the scoreboard still shows the turn's tile."""

    async def try_a_turn(pilot) -> None:
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("tab", "enter", "1")
        await pilot.pause()
        assert isinstance(pilot.app.screen, GameScreen) and pilot.app.screen.confirming

    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    assert snap_compare(app, terminal_size=(100, 30), run_before=try_a_turn)


@pytest.mark.asyncio
async def test_a_tried_turn_survives_a_game_rebuilt_the_same_and_is_dropped_when_it_no_longer_fits(tmp_path):
    """When the table's game changes under a tried turn (a network session rebuilds its game, another
    seat is handed over), the turn is tried again on the new game and kept if it is still legal there;
    otherwise it is dropped and the player told."""
    from carcnet.engine import replay

    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await _new_game(pilot, app)
        table = screen.table
        await pilot.press("tab", "enter", "1")
        await pilot.pause()
        assert screen.confirming
        tried = list(screen._provisional)
        recorder = table.recorder
        recorder.game = replay(table.game.setup, table.game.moves)  # the same game, a new object
        screen.redraw()
        assert screen._provisional == tried and screen.confirming
        assert screen._trials[0].moves[-1] == tried[0]
        other = replay(table.game.setup, [])  # a game where the tried placement is someone else's
        other.apply(tried[0])
        recorder.game = other
        screen.redraw()
        assert not screen._provisional


@pytest.mark.asyncio
async def test_the_last_turn_s_confirmation_says_the_game_ends_without_listing_the_final_scoring(tmp_path):
    """The last tile, tried with confirmation on at 80x24: the status line says what Enter plays and
    that the game then ends and is scored, whole on its three rows, with Backspace after it; the
    final scoring (a road, a city, a cloister, a farm) is left to the final scores, not listed there
    (it ran over three rows and cut the line mid-list)."""
    from carcnet.engine import parse_move
    from carcnet.log import Seat
    from carcnet.table import LocalTable
    from carcnet.tui.screens.final import FinalScreen

    script = ["place U 1,0 90", "deploy 0", "place B 0,1 0", "deploy 0", "place C 0,-1 0", "deploy 0",
              "place V -1,0 270", "deploy 1"]
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        table = LocalTable.new([Seat("Ann", "red", "human"), Seat("Bob", "blue", "bot", "greedy")],
                               order=("U", "B", "C", "V", "E"), moves=[parse_move(m) for m in script],
                               directory=tmp_path, bot_delay=0)
        app.show_table(table)
        await _until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.my_turn(), "Ann's last turn")
        screen = app.screen
        assert table.game.tiles_left == 0
        await pilot.press("tab", "enter", "0")
        await _until(pilot, lambda: screen.confirming, "the turn to confirm")
        await pilot.pause()
        assert screen._trials[-1].phase is Phase.GAME_OVER
        status = screen.status
        rows = [strip.text for strip in app.screen._compositor.render_strips()][status.region.y:status.region.bottom]
        shown = " ".join(" ".join(rows).split())
        assert "the game ends" in shown and "Backspace undoes" in shown, rows
        assert "final" in shown and "cloister" not in shown and "farmers" not in shown, rows
        await pilot.press("enter")
        await _until(pilot, lambda: isinstance(app.screen, FinalScreen), "the final scores")
