"""The feature inspector and the deploy choice with points (issue 15).

A fixed position (a closed city, a road with a thief, a cloister with a monk and a farm beside the
city) shown on the board screen: the cursor and the mouse choose a tile, ``i`` the feature; the panel
names each feature with its tiles, open sides, holders and points, and the board outlines the chosen
one (a farm with the completed city it supplies). The deploy list is checked against the engine's
own description and :meth:`Game.worth` for every spot.
"""

from __future__ import annotations

import pytest
from textual.app import App

from carcnet.engine import Game, Position, SegmentKind
from carcnet.engine.notation import play_script
from carcnet.tui.app import STYLESHEET, CarcnetApp
from carcnet.tui.screens.board_screen import BoardScreen
from carcnet.tui.screens.game import GameScreen
from carcnet.tui.widgets.inspector import tile_features, worth_text

from .test_app import _new_game

NAMES = ["Ann", "Bob"]
COLOURS = ["red", "blue"]


def position() -> Game:
    """Ann closes the start tile's city with E; Bob puts a thief on U's road east of the start tile;
    Ann puts a monk on the cloister B south of it; Bob continues the road west with V and puts a
    farmer on the farm north of the road (it supplies the closed city); V is next, so the game is not
    over."""
    return play_script(
        """
        place E 0,-1 180
        place U 1,0 90; deploy 0
        place B 0,1 0; deploy 0
        place V -1,0 270; deploy 1
        """,
        then=("V",),
    )


class ScreenApp(App[None]):
    CSS_PATH = STYLESHEET

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game

    def on_mount(self) -> None:
        self.push_screen(BoardScreen(self.game, NAMES, COLOURS))


def _panel(screen: BoardScreen) -> str:
    return str(screen.inspector.render())


def test_worth_in_words():
    game = play_script("place C 0,-1 0", then=("V",))  # an open city of 2 tiles with a pennant
    city = game.feature_at(Position(0, -1), 0)
    assert worth_text(game, city) == "6 if closed; 3 now"
    done = play_script("place E 0,-1 180", then=("V",)).feature_at(Position(0, 0), 0)
    assert worth_text(play_script("place E 0,-1 180", then=("V",)), done) == "4, complete"


@pytest.mark.asyncio
async def test_the_inspector_names_each_feature_and_outlines_the_chosen_one():
    game = position()
    app = ScreenApp(game)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, BoardScreen)
        board = screen.board
        board.cursor = Position(0, 1)  # the cloister
        await pilot.pause()
        text = _panel(screen)
        assert "Just south of the start tile" in text and "0,1" not in text  # no coordinates
        cloister = game.feature_at(Position(0, 1), 0)
        assert cloister.kind is SegmentKind.CLOISTER and "▸ cloister" in text
        assert len(cloister.tiles) == 4 and "5 to place around" in text and "Ann 1" in text
        assert "9 if closed; 4 now" in text  # the cloister and its 3 neighbours
        assert board._outline == {Position(0, 1): frozenset({0})}

        board.cursor = Position(-1, 0)  # V: the road (Bob's thief on it, from U), then two farms
        await pilot.pause()
        text = _panel(screen)
        road = game.feature_at(Position(-1, 0), 0)
        assert road.kind is SegmentKind.ROAD and "▸ road, 3 tiles" in text and "Bob 1" in text
        assert game.open_sides(Position(-1, 0), 0) == 2 and "2 open sides" in text
        assert "· 3" in text  # a road scores 1 a tile, open or closed

        await pilot.press("i")  # the farm north of the road: outlined with the completed city it supplies
        text = _panel(screen)
        farm = game.feature_at(Position(-1, 0), 1)
        assert farm.kind is SegmentKind.FIELD and len(farm.cities) == 1
        assert "▸ field, 1 completed city" in text and "Bob 1 · 3" in text
        outline = board._outline
        assert outline[Position(0, -1)] == frozenset({0})  # E's city segment
        assert 0 in outline[Position(0, 0)]  # the start tile's city segment
        assert all(segment in outline.get(p, ()) for p, segment in game.feature_segments(Position(-1, 0), 1))
        await pilot.press("i", "i")  # the other farm, then round to the road
        assert "▸ road" in _panel(screen)

        board.cursor = Position(0, -1)  # E: the closed city
        await pilot.pause()
        text = _panel(screen)
        assert "▸ city, 2 tiles" in text and "complete · nobody" in text and "4, complete" in text

        board.cursor = Position(5, 5)  # no tile: the panel says how to use it, nothing outlined
        await pilot.pause()
        assert screen.inspector.empty and "Put the cursor" in _panel(screen) and board._outline == {}


@pytest.mark.asyncio
async def test_the_mouse_chooses_the_feature_under_it():
    game = position()
    app = ScreenApp(game)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        board = screen.board
        board.centre_on(Position(1, 0))
        await pilot.pause()
        region = board.tile_region(Position(1, 0))
        from carcnet.tui.render import tile_art

        tile = game.tile_at(Position(1, 0))
        art = tile_art(tile.kind, tile.rotation, board.zoom, board._glyphs)
        col, row = art.segment_cells(1)[0]  # a cell of U's first field
        await pilot.hover(board, offset=(region.x + col, region.y + row))
        await pilot.pause()
        assert "▸ field" in _panel(screen)
        assert board._outline == {p: frozenset({s}) for p, s in game.feature_segments(Position(1, 0), 1)} or all(
            s in board._outline[p] for p, s in game.feature_segments(Position(1, 0), 1))


@pytest.mark.asyncio
async def test_the_deploy_choice_names_each_spot_with_its_feature_and_points(tmp_path):
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(120, 44)) as pilot:
        screen = await _new_game(pilot, app)
        assert isinstance(screen, GameScreen)
        await pilot.press("tab", "enter")
        await pilot.pause()
        game = screen.shown_game
        spots = screen.board.spots
        assert spots and game.placed is not None
        text = " ".join(_panel(screen).split())  # a row may take two lines of the panel
        for number, segment in enumerate(spots, start=1):
            info = game.feature_at(game.placed, segment)
            want = f"{number} {info.describe()}: {worth_text(game, info)}"
            assert want in text, (want, text)


def test_snapshot_the_inspector_on_a_farm(snap_compare):
    """The farm beside the closed city chosen: the panel lists B's features, the farm marked; the
    board outlines the farm and the city it supplies."""

    async def choose_the_farm(pilot) -> None:
        pilot.app.screen.board.cursor = Position(-1, 0)
        await pilot.pause()
        await pilot.press("i")
        await pilot.pause()

    assert snap_compare(ScreenApp(position()), terminal_size=(100, 30), run_before=choose_the_farm)


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", [SegmentKind.GARDEN, SegmentKind.RIVER])
async def test_the_inspector_on_a_garden_and_on_the_river(kind):
    """The other feature kinds (The Abbot's gardens, The River): named, a garden with its neighbours
    and points, the river as not scored."""
    from carcnet.bots import RandomBot
    from carcnet.engine import GameSetup, Phase, Rules

    rules = Rules(abbot=True) if kind is SegmentKind.GARDEN else Rules(river=True)
    game, where = None, None
    for seed in range(40):  # a random game until a tile with such a segment is on the board
        game = Game(GameSetup(players=2, seed=seed, rules=rules))
        bot = RandomBot(seed)
        while game.phase is not Phase.GAME_OVER and len(game.moves) < 40:
            game.apply(bot.choose(game.view()))
        where = next((t.position for t in game.board.tiles.values()
                      if any(s.kind is kind for s in t.variant.segments)), None)
        if where is not None:
            break
    assert game is not None and where is not None
    app = ScreenApp(game)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        screen.board.cursor = where
        await pilot.pause()
        tile = game.tile_at(where)
        features = [info for _, info in tile_features(game, where).features]
        index = next(i for i, info in enumerate(features) if info.kind is kind)
        for _ in range(index):
            await pilot.press("i")
        text = _panel(screen)
        info = features[index]
        assert f"▸ {info.describe()}" in text
        if kind is SegmentKind.GARDEN:
            assert "to place around" in text and worth_text(game, info) in text
        else:
            assert "not scored" in text
        segment = next(s for s, seg in enumerate(tile.variant.segments) if seg.kind is kind)
        assert all(s in screen.board._outline.get(p, ()) for p, s in game.feature_segments(where, segment))


def builder_game() -> Game:
    """Inns & Cathedrals with Traders & Builders: Ann puts her large meeple on the city of C north of
    the start tile, Bob places V east of it, Ann extends the city with another C and puts her builder
    on it; Bob is to place V."""
    from carcnet.engine import GameSetup, Rules, parse_move

    game = Game(GameSetup(players=2, draw_order=("C", "V", "C", "V", "E"), rules=Rules(inns=True, traders=True)))
    for move in ("place C 0,-1 0", "deploy 0 large", "place V 1,0 90", "skip", "place C 0,-2 0", "deploy 0 builder"):
        game.apply(parse_move(move))
    return game


@pytest.mark.asyncio
async def test_the_builder_is_drawn_as_a_builder_and_counted_apart_from_the_knights():
    """The builder shows ``B`` with its seat (not the knight's ``K`` of the city it stands on), and
    the inspector counts one follower on the city, the large meeple, and names the builder apart (it
    counts for no majority)."""
    from textual.geometry import Region

    game = builder_game()
    app = ScreenApp(game)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        board = screen.board
        board.cursor = Position(0, -2)
        await pilot.pause()
        region = board.tile_region(Position(0, -2))
        rows = [line.text for line in board.render_lines(Region(0, region.y, board.size.width, region.height))]
        art = "\n".join(row[region.x:region.right] for row in rows)
        assert "B1" in art and "K1" not in art, art
        text = " ".join(_panel(screen).split())
        assert "▸ city, 3 tiles" in text, text
        assert "Ann 1 (large meeple) and the builder" in text, text
