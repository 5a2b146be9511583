"""The board widget driven by Textual's Pilot: cursor, camera, cycling, rotation, choices, zoom, mouse."""

from __future__ import annotations

import pytest

pytest.importorskip("textual")

from textual import events

from carcnet.engine import Figure, PlaceTile, Position
from carcnet.tui.render import Zoom, tile_art
from carcnet.tui.widgets.board import BoardView

from .board_app import BoardApp, abbot_game, deploying_game, placing_game, seeded_game

pytestmark = pytest.mark.asyncio

SIZES = [(80, 24), (160, 48)]


def placements(app: BoardApp) -> list[BoardView.PlacementChosen]:
    return [m for m in app.chosen if isinstance(m, BoardView.PlacementChosen)]


def deployments(app: BoardApp) -> list[BoardView.DeployChosen]:
    return [m for m in app.chosen if isinstance(m, BoardView.DeployChosen)]


def in_view(board: BoardView, position: Position) -> bool:
    region = board.tile_region(position)
    return (
        region.x >= 0
        and region.y >= 0
        and region.right <= board.size.width
        and region.bottom <= board.size.height
    )


@pytest.mark.parametrize("size", SIZES)
async def test_arrows_and_hjkl_move_the_cursor_and_the_view_follows(size):
    app = BoardApp(seeded_game(11, 40))
    async with app.run_test(size=size) as pilot:
        board = app.query_one(BoardView)
        assert board.has_focus and board.cursor == Position(0, 0) and in_view(board, board.cursor)
        await pilot.press("right", "right", "down")
        assert board.cursor == Position(2, 1)
        await pilot.press("h", "k", "k", "l")
        assert board.cursor == Position(2, -1)
        min_x, min_y, _, _ = board._view.bounds
        for key in ["left"] * 30 + ["up"] * 30:
            await pilot.press(key)
            assert in_view(board, board.cursor)
        assert board.cursor == Position(min_x, min_y)  # the cursor stops one position beyond the tiles


async def test_cursor_move_redraws_only_the_two_tiles():
    """A move inside the view re-renders the rows of the old and new positions, from cached pieces."""
    app = BoardApp(seeded_game(11, 40))
    async with app.run_test(size=(120, 40)) as pilot:
        board = app.query_one(BoardView)
        await pilot.press("right")  # warm the caches
        built: list[int] = []
        drawn: list[tuple] = []
        painter = board.painter
        build, draw = painter._build_line, painter._draw
        painter._build_line = (  # type: ignore[method-assign]
            lambda vy, *rest: built.append(vy) or build(vy, *rest))
        painter._draw = lambda look: drawn.append(look) or draw(look)  # type: ignore[method-assign]
        before = board.scroll_offset
        await pilot.press("left")
        await pilot.pause()
        assert board.scroll_offset == before
        th = Zoom.DETAILED.size[1]
        assert 0 < len(set(built)) <= th  # both positions share their rows
        assert len(drawn) <= 2


async def test_tab_cycles_open_positions_nearest_first():
    app = BoardApp(placing_game())
    async with app.run_test() as pilot:
        board = app.query_one(BoardView)
        open_ = board.open_positions
        assert set(open_) == {Position(-1, 0), Position(1, 0), Position(0, 1)}
        start = board.cursor
        seen = []
        for _ in open_:
            await pilot.press("tab")
            seen.append(board.cursor)
        assert set(seen) == set(open_)
        distances = [(p.x - start.x) ** 2 + (p.y - start.y) ** 2 for p in seen]
        assert distances == sorted(distances)
        await pilot.press("tab")
        assert board.cursor == seen[0]  # round again
        await pilot.press("shift+tab")
        assert board.cursor == seen[-1]


async def test_tab_order_starts_from_the_cursor():
    app = BoardApp(seeded_game(11, 40))
    async with app.run_test(size=(100, 30)) as pilot:
        board = app.query_one(BoardView)
        await pilot.press(*["right"] * 3)
        origin = board.cursor
        expected = sorted(board.open_positions, key=lambda p: (p.x - origin.x) ** 2 + (p.y - origin.y) ** 2)
        await pilot.press("tab")
        first = board.cursor
        d = (first.x - origin.x) ** 2 + (first.y - origin.y) ** 2
        assert d == (expected[0].x - origin.x) ** 2 + (expected[0].y - origin.y) ** 2
        assert in_view(board, first)


async def test_r_turns_the_ghost_through_the_legal_rotations_only():
    app = BoardApp(placing_game())
    async with app.run_test() as pilot:
        board = app.query_one(BoardView)
        await pilot.press("tab")
        legal = board.open_positions[board.cursor]
        assert len(legal) == 2
        assert board.rotation in legal
        turns = []
        for _ in range(4):
            await pilot.press("r")
            turns.append(board.rotation)
        assert set(turns) == set(legal) and all(r in legal for r in turns)
        assert turns[0] != turns[1]


async def test_enter_posts_the_placement_shown():
    game = placing_game()
    app = BoardApp(game)
    async with app.run_test() as pilot:
        board = app.query_one(BoardView)
        await pilot.press("enter")  # on the start tile: nothing fits there
        assert placements(app) == []
        await pilot.press("tab", "r", "enter")
        (chosen,) = placements(app)
        assert (chosen.position, chosen.rotation) == (board.cursor, board.rotation)
        assert chosen.control is board
        assert PlaceTile("V", chosen.position, chosen.rotation) in game.legal_moves()
        assert game.phase.value == "place" and len(game.moves) == 0  # the board never plays the move


@pytest.mark.parametrize("size", SIZES)
async def test_click_on_a_shaded_position_posts_it(size):
    app = BoardApp(placing_game())
    async with app.run_test(size=size) as pilot:
        board = app.query_one(BoardView)
        target = Position(0, 1)
        region = board.tile_region(target)
        await pilot.click(BoardView, offset=(region.x + 1, region.y + 1))
        (chosen,) = placements(app)
        assert chosen.position == target and chosen.rotation in board.open_positions[target]
        assert board.cursor == target
        region = board.tile_region(Position(1, 1))  # not shaded: the cursor goes there, nothing is posted
        await pilot.click(BoardView, offset=(region.x + 4, region.y + 2))
        assert board.cursor == Position(1, 1) and len(placements(app)) == 1


async def test_digits_deploy_and_zero_or_space_skip():
    app = BoardApp(deploying_game())
    async with app.run_test() as pilot:
        board = app.query_one(BoardView)
        assert board.cursor == Position(1, 0)  # the placed tile
        spots = board.spots
        assert spots == (0, 1, 2)  # the road, then the two fields of V
        await pilot.press("2")
        await pilot.press("0", "space", "9")
        assert [m.segment for m in deployments(app)] == [1, None, None]  # 9: no such spot
        await pilot.press("enter")
        assert deployments(app)[-1].segment == spots[board.spot]


async def test_the_abbot_has_spots_of_its_own_and_a_switches_to_them():
    """The Abbot (issue 15 item 0): B's cloister takes a meeple or the abbot; ``a`` numbers the abbot's
    spots instead of the meeple's, and a digit deploys the figure chosen."""
    app = BoardApp(abbot_game(1))
    async with app.run_test() as pilot:
        board = app.query_one(BoardView)
        assert board.figure is Figure.MEEPLE and board.spots == (0, 1)  # the cloister, the field
        assert board.check_action("switch_figure", ()) and not board.check_action("recall", ())
        await pilot.press("a")
        assert board.figure is Figure.ABBOT and board.spots == (0,) and board._highlight == {}  # none chosen
        await pilot.press("tab")
        assert board._highlight == {Position(0, 1): frozenset({0})}
        await pilot.press("1")
        assert (deployments(app)[-1].segment, deployments(app)[-1].figure) == (0, Figure.ABBOT)
        await pilot.press("a", "2")
        assert (deployments(app)[-1].segment, deployments(app)[-1].figure) == (1, Figure.MEEPLE)


async def test_a_garden_is_a_spot_of_the_abbot_only():
    app = BoardApp(abbot_game(3))  # seat 1 placed VG: three meeple spots, the garden the abbot's
    async with app.run_test() as pilot:
        board = app.query_one(BoardView)
        assert board.figure is Figure.MEEPLE and board.spots == (0, 1, 2)
        await pilot.press("a")
        assert board.spots == (3,)
        await pilot.press("tab", "enter")
        assert (deployments(app)[-1].segment, deployments(app)[-1].figure) == (3, Figure.ABBOT)


async def test_A_recalls_the_abbot_instead_of_deploying():
    app = BoardApp(abbot_game(5))  # seat 0 placed A; its abbot stands on B's cloister at 0,1
    async with app.run_test() as pilot:
        board = app.query_one(BoardView)
        assert board.recall_at == Position(0, 1) and board.check_action("recall", ())
        assert not board.check_action("switch_figure", ())  # the abbot is not in the supply
        await pilot.press("a")  # nothing to switch to
        assert board.figure is Figure.MEEPLE and not deployments(app)
        await pilot.press("A")
        recalls = [m for m in app.chosen if isinstance(m, BoardView.RecallChosen)]
        assert [m.position for m in recalls] == [Position(0, 1)]


async def test_tab_selects_a_spot_and_highlights_its_whole_feature():
    app = BoardApp(deploying_game())
    async with app.run_test() as pilot:
        board = app.query_one(BoardView)
        assert board.spot == 0 and board._highlight == {}  # Enter deploys nowhere yet: nothing highlighted
        await pilot.press("tab")  # the first Tab chooses spot 1, the road (issue 15 item 1)
        assert board.spot == 0 and board.spot_chosen
        assert board._highlight == {
            Position(0, 0): frozenset({1}),
            Position(1, 0): frozenset({0}),
        }  # the road
        await pilot.press("tab")
        assert board.spot == 1
        assert Position(1, 0) in board._highlight and board._highlight[Position(1, 0)] == frozenset({1})
        await pilot.press("enter")
        assert deployments(app)[-1].segment == 1


async def test_click_on_a_spot_deploys_there():
    app = BoardApp(deploying_game())
    async with app.run_test() as pilot:
        board = app.query_one(BoardView)
        region = board.tile_region(Position(1, 0))
        col, row = tile_art(board._view.tiles[Position(1, 0)].kind, 0, board.zoom).anchors[2]
        await pilot.click(BoardView, offset=(region.x + col, region.y + row))
        assert deployments(app)[-1].segment == 2


async def test_zoom_keys():
    app = BoardApp(seeded_game(11, 40))
    async with app.run_test() as pilot:
        board = app.query_one(BoardView)
        await pilot.press("right")
        assert board.zoom is Zoom.DETAILED
        await pilot.press("z")
        assert board.zoom is Zoom.OVERVIEW and board.camera == board.cursor
        await pilot.press("minus")
        assert board.zoom is Zoom.OVERVIEW
        await pilot.press("plus")
        assert board.zoom is Zoom.DETAILED and in_view(board, board.cursor)


async def test_c_centres_on_the_cursor_then_on_the_start_tile():
    app = BoardApp(seeded_game(11, 40))
    async with app.run_test() as pilot:
        board = app.query_one(BoardView)
        await pilot.press("right", "right", "down", "down")
        await pilot.press("c")
        assert board.camera == board.cursor == Position(2, 2)
        await pilot.press("c")
        assert board.cursor == Position(0, 0) and board.camera == Position(0, 0)


async def test_mouse_drag_pans_the_view_and_is_not_a_click():
    app = BoardApp(placing_game())
    async with app.run_test() as pilot:
        board = app.query_one(BoardView)
        before = board.scroll_offset
        cursor = board.cursor
        region = board.tile_region(Position(0, 1))
        start = (region.x + 1, region.y + 1)  # on a shaded position
        await pilot.mouse_down(BoardView, offset=start)
        screen_x, screen_y = board.region.x + start[0], board.region.y + start[1]
        for step in range(1, 4):
            x, y = screen_x - 3 * step, screen_y - step
            move = events.MouseMove(None, x, y, -3, -1, 1, False, False, False, screen_x=x, screen_y=y)
            app.screen._forward_event(move)
            await pilot.pause()
        await pilot.mouse_up(BoardView, offset=(start[0] - 9, start[1] - 3))
        click = events.Click(
            None,
            screen_x - 9,
            screen_y - 3,
            0,
            0,
            1,
            False,
            False,
            False,
            screen_x=screen_x - 9,
            screen_y=screen_y - 3,
        )
        app.screen._forward_event(click)
        await pilot.pause()
        assert board.scroll_offset == (before.x + 9, before.y + 3)
        assert board.cursor == cursor and placements(app) == []


async def test_refresh_game_shows_the_move_and_goes_to_the_spots():
    game = placing_game()
    app = BoardApp(game)
    async with app.run_test() as pilot:
        board = app.query_one(BoardView)
        await pilot.press("tab", "enter")
        (chosen,) = placements(app)
        game.apply(PlaceTile("V", chosen.position, chosen.rotation))
        board.refresh_game()
        await pilot.pause()
        assert board.cursor == chosen.position and board.spots and board.open_positions == {}
        assert board._view.tiles[chosen.position].kind.letter == "V"
        await pilot.press("space")
        assert deployments(app)[-1].segment is None


async def test_a_board_that_is_not_interactive_only_shows():
    app = BoardApp(deploying_game(), interactive=False)
    async with app.run_test() as pilot:
        board = app.query_one(BoardView)
        assert board.spots == () and board._highlight == {}
        await pilot.press("1", "enter", "space", "tab")
        assert app.chosen == []
        board.interactive = True
        await pilot.pause()
        assert board.spots == (0, 1, 2)
        await pilot.press("1")
        assert deployments(app)[-1].segment == 0


async def test_the_board_never_changes_the_game():
    game = seeded_game(13, 15)  # seat 1 deploying
    digest = game.digest
    app = BoardApp(game)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("tab", "tab", "1", "enter", "space", "z", "left", "r", "c")
        await pilot.click(BoardView, offset=(10, 5))
    assert game.digest == digest and len(game.moves) == 15


async def test_enter_deploys_only_a_chosen_spot_so_a_second_enter_spends_nothing():
    """Issue 15 item 1: Tab, Enter (placed), Enter: the second Enter used to deploy on spot 1, which
    was selected without being chosen. Now it says how to choose; a Tab then Enter deploys."""
    app = BoardApp(deploying_game())
    async with app.run_test() as pilot:
        board = app.query_one(BoardView)
        assert board.spots and not board.spot_chosen
        await pilot.press("enter")
        await pilot.pause()
        assert not deployments(app)
        assert any("Choose a spot first" in n.message for n in app._notifications)
        await pilot.press("tab", "enter")
        assert [m.segment for m in deployments(app)] == [board.spots[0]]


async def test_enter_where_the_tile_cannot_go_says_why():
    """Issue 15 item 4: Enter on a square where the drawn tile does not fit used to do nothing."""
    app = BoardApp(seeded_game(11, 40))
    async with app.run_test() as pilot:
        board = app.query_one(BoardView)
        occupied = Position(0, 0)
        far = Position(30, 30)
        for where, words in ((occupied, "There is a tile there already"), (far, "touches no tile")):
            board.cursor = where
            await pilot.press("enter")
            await pilot.pause()
            assert not placements(app)
            assert any(words in n.message for n in app._notifications), words
        from carcnet.engine.geometry import position_of

        frontier = sorted(position_of(k) for k in board._game.board.frontier)
        misfit = next(p for p in frontier if p not in board.open_positions)  # next to tiles, no match
        board.cursor = misfit
        await pilot.press("enter")
        await pilot.pause()
        assert not placements(app)
        assert any("in no rotation" in n.message for n in app._notifications)


async def test_pennants_and_cloisters_are_in_no_seats_colour():
    """Issue 15 item 5: pennants were always blue and cloisters always red, whoever held them, and read
    as those seats' figures. Their colours must stay far from every seat colour."""
    from carcnet.log import COLOURS
    from carcnet.tui.render import Role
    from carcnet.tui.widgets.board import TERRAIN
    from carcnet.tui.widgets.palette import PALETTE_NAMES

    def rgb(text: str) -> tuple[int, int, int]:
        return int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16)

    seats = [rgb(shades[c]) for shades, _ in PALETTE_NAMES.values() for c in COLOURS]  # in either palette
    for role in (Role.PENNANT, Role.CLOISTER):
        for colour in TERRAIN[role]:
            nearest = min(sum((a - b) ** 2 for a, b in zip(rgb(colour), seat, strict=True)) ** 0.5 for seat in seats)
            assert nearest > 80, (role, colour, nearest)


async def test_neighbouring_tiles_differ_enough_to_count_them():
    """Issue 15 item 6 (second half): tile edges did not show between tiles: the two backgrounds of
    each terrain (the board alternates them like a chessboard) were almost the same shade."""
    from carcnet.tui.widgets.board import TERRAIN

    def rgb(text: str) -> tuple[int, int, int]:
        return int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16)

    for role, (_, even, odd) in TERRAIN.items():
        distance = sum((a - b) ** 2 for a, b in zip(rgb(even), rgb(odd), strict=True)) ** 0.5
        assert distance >= 20, (role, even, odd, distance)


async def test_the_overview_tells_a_figures_seat_and_the_highlight_without_colour():
    """Issue 15 item 8: in the overview zoom a meeple's seat (a letter on the seat's colour) and the
    feature highlight (a gold tint) were told by colour alone."""
    from carcnet.engine import tile_kind
    from carcnet.tui.render import Mode, Paint, compose_tile

    art = tile_art(tile_kind("D"), 0, (3, 3))  # a tile too narrow for two cells a figure
    grid = compose_tile(art, figures=[(0, 2, "K")], highlight=[1])
    c, r = art.anchors[0]
    assert grid[r][c][0] == "3"  # seat 3's knight: its number, in one cell
    overview = tile_art(tile_kind("D"), 0, Zoom.OVERVIEW)
    grid = compose_tile(overview, figures=[(0, 2, "K")])
    c, r = overview.anchors[0]
    assert (grid[r][c][0], grid[r][c + 1][0]) == ("K", "3")  # the overview has room for both
    detailed = tile_art(tile_kind("D"), 0, Zoom.DETAILED)
    grid = compose_tile(detailed, figures=[(0, 2, "K")])
    c, r = detailed.anchors[0]
    assert (grid[r][c][0], grid[r][c + 1][0]) == ("K", "3")  # room for both: the role and the seat
    board = BoardView(seeded_game(3, 20), ["red", "blue"])
    for role in (1, 2, 3):
        assert board.painter._make_style(Paint("tile", role, Mode.HIGHLIGHT, 0)).underline
        assert not board.painter._make_style(Paint("tile", role, Mode.NORMAL, 0)).underline


async def test_the_large_meeple_has_its_turn_in_the_figures_a_switches_through():
    """Inns & Cathedrals (issue 33, in progress): with The Abbot too, B's cloister takes a meeple, the
    large meeple or the abbot; ``a`` goes meeple → large meeple → abbot → meeple, and a digit deploys
    the figure chosen."""
    from carcnet.engine import Game, GameSetup, Rules

    game = Game(GameSetup(players=2, draw_order=("B", "E"), rules=Rules(abbot=True, inns=True)))
    game.apply(PlaceTile("B", Position(0, 1), 0))
    app = BoardApp(game)
    async with app.run_test() as pilot:
        board = app.query_one(BoardView)
        assert board.figures_to_deploy() == (Figure.MEEPLE, Figure.LARGE, Figure.ABBOT)
        assert board.figure is Figure.MEEPLE and board.next_figure() is Figure.LARGE
        await pilot.press("a")
        assert board.figure is Figure.LARGE and board.spots == (0, 1)  # the cloister, the field
        await pilot.press("2")
        assert (deployments(app)[-1].segment, deployments(app)[-1].figure) == (1, Figure.LARGE)
        await pilot.press("a")
        assert board.figure is Figure.ABBOT and board.spots == (0,)
        await pilot.press("a")
        assert board.figure is Figure.MEEPLE
