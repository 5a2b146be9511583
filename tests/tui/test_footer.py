"""The footer shows whole keys, apart from each other, at every width and after a resize; the keys
it leaves out are listed by ``?`` (Textual pilot)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from carcnet.log import load
from carcnet.tui.app import CarcnetApp
from carcnet.tui.screens.help import HelpScreen
from carcnet.tui.screens.replay import ReplayScreen

VECTORS = Path(__file__).parents[2] / "protocol" / "vectors"


def footer_line(app: App) -> str:
    """The footer's row as the terminal shows it."""
    footer = app.screen.query_one(Footer)
    strips = app.screen._compositor.render_strips()
    return "".join(s.text for s in strips[footer.region.y])


def check_whole_and_apart(app: App) -> None:
    """Every entry of the footer (a key, a group's label) inside the screen, its text whole on the
    line, and a blank after it ("↑↓←→ Movetab Next" ran a group into the next key)."""
    footer = app.screen.query_one(Footer)
    line = footer_line(app)
    width = app.screen.size.width
    entries = [w for w in footer.query("FooterKey, FooterLabel") if w.display and w.region.width
               and not w.has_class("-grouped")]  # the keys of a group stand together before its label
    assert entries
    for entry in entries:
        region = entry.region
        assert 0 <= region.x and region.right <= width, (entry, region, line)
        if isinstance(entry, FooterKey) and entry.description:
            text = f"{entry.key_display} {entry.description}"
            assert text in line[region.x:region.right], (text, line)
        ends_at = max(i for i in range(region.x, region.right) if line[i] != " ") + 1
        assert ends_at >= len(line.rstrip()) or line[ends_at] == " ", (entry, line)


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(120, 40), (80, 24), (60, 18)])
async def test_the_game_footer_at_every_width_and_after_a_resize(tmp_path, size):
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.resize_terminal(*size)  # after a resize the footer ended "o S", "p If it ended"
        await pilot.pause()
        await pilot.pause()
        check_whole_and_apart(app)
        assert footer_line(app).startswith(("? Help", " ? Help"))


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(120, 40), (80, 24), (60, 18)])
async def test_the_replay_footer_leaves_out_whole_keys_and_question_mark_lists_them(tmp_path, size):
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await app.push_screen(ReplayScreen(load(VECTORS / "log2-signed.bin")))
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        check_whole_and_apart(app)
        from carcnet.tui.widgets.footer import KeyFooter

        footer = app.screen.query_one(KeyFooter)
        assert bool(footer.left_out) == (footer.shown[-1] == KeyFooter.MORE)
        if footer.left_out:
            assert footer_line(app).rstrip().endswith("? Keys")
        if size[0] <= 60:
            assert footer.left_out
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        shown = app.screen.query_one("Markdown").source
        for item in footer.left_out + footer.shown[:-1]:
            assert item.display in shown and (item.tooltip or item.description) in shown, item


@pytest.mark.asyncio
async def test_the_home_footer_at_60_columns_and_its_menu_whole(tmp_path):
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0)
    async with app.run_test(size=(60, 18)) as pilot:
        await pilot.pause()
        check_whole_and_apart(app)
        menu = app.screen.query_one("#menu")
        screen = app.screen.region
        assert screen.contains_region(menu.region), (menu.region, screen)  # its border too
        assert menu.max_scroll_y == 0  # every entry shown, none scrolled away


def test_fit_items_keeps_help_and_whole_entries():
    from carcnet.tui.widgets.footer import FooterItem, KeyFooter, fit_items

    def item(key: str, desc: str) -> FooterItem:
        return FooterItem(key, "?" if key == "question_mark" else key, desc, key)

    items = [item("question_mark", "Help"), item("q", "Menu"), item("p", "If it ended now"), item("z", "Zoom")]
    assert fit_items(items, 200, compact=True, more=KeyFooter.MORE) == items
    fitted = fit_items(items, 24, compact=True, more=KeyFooter.MORE)
    assert fitted == [items[0], items[1]]  # "p If it ended now" left out whole, and what comes after it
    assert sum(i.width(True) for i in fitted) <= 24
    no_help = items[1:]
    fitted = fit_items(no_help, 20, compact=True, more=KeyFooter.MORE)
    assert fitted[-1] == KeyFooter.MORE and sum(i.width(True) for i in fitted) <= 20


@pytest.mark.asyncio
@pytest.mark.parametrize(("option", "first", "then"), [("inns", "a Large meeple", "a Meeple"),
                                                        ("abbot", "a Abbot", "a Meeple")])
async def test_a_is_labelled_with_the_figure_it_switches_to(tmp_path, option, first, then):
    """While deploying, the footer's ``a`` names the figure it switches to: the large meeple in a game
    of Inns & Cathedrals without The Abbot (it said "Abbot" there), the abbot with The Abbot; once
    switched, the meeple."""
    from carcnet.engine import Figure, Rules

    from .keyplay import new_local_game, until

    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await new_local_game(pilot, app, option)
        assert screen.table.game.setup.rules == (Rules(inns=True) if option == "inns" else Rules(abbot=True))
        board = screen.board
        for _ in range(30):  # the person's turns until one offers a second figure (a cloister, for the abbot)
            await until(pilot, lambda: screen.my_turn() and board.interactive, "the person's turn")
            await pilot.press("tab", "enter")
            await until(pilot, lambda: board.deploying or screen.confirming, "the tile placed")
            if board.next_figure() is not None:
                break
            await pilot.press("0")
            if screen.confirming:
                await pilot.press("enter")
        assert board.next_figure() is not None and board.figure is Figure.MEEPLE
        await pilot.pause()
        line = footer_line(app)
        assert first in line and ("Abbot" in line) == (option == "abbot"), line
        await pilot.press("a")
        await pilot.pause()
        await pilot.pause()
        assert then in footer_line(app), footer_line(app)


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(120, 40), (80, 24), (60, 18)])
async def test_every_home_key_shows_on_the_screen_at_every_width(tmp_path, size):
    """At 60 columns the footer has room for the keys up to Join (it stopped at "s Watch" before
    Learn to play came): each menu entry now shows its key at its right, so every key of the home
    screen shows, whatever the footer leaves out."""
    from textual.geometry import Region

    app = CarcnetApp(data_dir=tmp_path, bot_delay=0)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        menu = app.screen.query_one("#menu")
        rows = [strip.text.rstrip(" ▎") for strip in menu.render_lines(Region(0, 0, *menu.outer_size))]
        for binding in app.screen.BINDINGS:
            key = binding.key_display or binding.key  # type: ignore[union-attr]
            assert any(row.endswith(f" {key}") for row in rows), (key, rows)


@pytest.mark.asyncio
async def test_the_deploy_list_at_60_columns_shows_every_spot_s_points(tmp_path):
    """At 60x18 the deploy list wrapped each spot's make-up over two or three lines, its points out of
    sight: each spot now takes a line, its feature and points ("1 city: 3 (6 closed)")."""
    from carcnet.tui.screens.game import GameScreen
    from carcnet.tui.widgets.inspector import short_worth

    from .keyplay import until

    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, seed=5)
    async with app.run_test(size=(60, 18)) as pilot:
        await pilot.press("n")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        screen = app.screen
        await pilot.press("tab", "enter")
        await until(pilot, lambda: screen.board.deploying, "the deploy choice")
        await pilot.pause()
        box = screen.box
        shown = [strip.text for strip in app.screen._compositor.render_strips()][box.region.y:box.region.bottom]
        game = screen.shown_game
        assert 2 <= len(screen.board.spots) <= len(shown), shown
        for number, segment in enumerate(screen.board.spots, start=1):
            info = game.feature_at(game.placed, segment)
            want = f"{number} {info.kind.label}: {short_worth(game, info)}"
            assert any(want in row for row in shown), (want, shown)
