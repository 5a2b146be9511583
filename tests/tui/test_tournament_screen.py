"""The tournament screen (issue 34), driven by the Textual pilot on loopback: ``t`` from the menu, the
form, an event opened here with this laptop's person and a bot, Start; the round seats the person at
a table this laptop opens, whose game screen comes up over the event; playing it by the game's own
keys is tests/tui/test_lan.py's business: here a bot stands in for the person's hands through the
table, as the game screen's keys would submit. Then the final standings, on the screen and in the
event folder. And a second laptop (an event runner) joins the event opened on the screen.

No mDNS (``discovery=False``); waits are on conditions, bounded (``keyplay.until``)."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path

import pytest
from textual.widgets import Checkbox, DataTable, Input

from carcnet.bots import GreedyBot
from carcnet.club.runner import EventRunner
from carcnet.net.signing import SeatKey
from carcnet.tui.app import CarcnetApp
from carcnet.tui.screens.game import GameScreen
from carcnet.tui.screens.tournament import TournamentScreen

from ..net.loopback import FAST
from .keyplay import until

pytestmark = pytest.mark.asyncio

LAN = {"listen": ("127.0.0.1", 0), "discovery": False, "timing": FAST}
LIMIT = 60.0


def _app(tmp_path: Path) -> CarcnetApp:
    return CarcnetApp(data_dir=tmp_path / "tui" / "games", bot_delay=0, lan_options=LAN, player_name="Ann")


@pytest.mark.slow
async def test_an_event_opened_on_the_screen_seats_the_person_and_ends_with_the_standings(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, TournamentScreen), "the tournament screen")
        screen = app.screen
        assert isinstance(screen, TournamentScreen)
        screen.query_one("#event-name", Input).value = "Screen night"
        screen.query_one("#rounds", Input).value = "1"
        screen.query_one("#size", Input).value = "3"
        screen.query_one("#bots", Input).value = "greedy,random"
        assert screen.query_one("#play", Checkbox).value  # the person plays, by default
        await pilot.press("ctrl+o")
        await until(pilot, lambda: screen.runner is not None and screen.runner.port is not None, "the event open")
        runner = screen.runner
        assert runner is not None and [p.name for p in runner.roster] == ["Ann", "Greedy 1 (Ann)", "Random 2 (Ann)"]
        # a second laptop joins the event opened on the screen with a bot of its own
        bob = EventRunner(SeatKey.from_seed(hashlib.sha256(b"carcnet test Bob").digest()), name="Bob",
                          folder=tmp_path / "bob", by_event=True, players=[("Bob easy", "easy")],
                          dial=[("127.0.0.1", runner.port)], listen=("127.0.0.1", 0), table_host="127.0.0.1",
                          timing=FAST, poll=0.2, gone=3.0, linger=3.0)
        bob_task = asyncio.create_task(bob.run())
        await until(pilot, lambda: runner.entered() == 4, "Bob's bot entered, his laptop answering", LIMIT)
        await pilot.press("ctrl+s")
        # two tables of two (four players, tables of three, minimum two): Ann's table comes up
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "Ann's game over the event", LIMIT)
        game_screen = app.screen
        assert isinstance(game_screen, GameScreen)
        table = game_screen.table
        hands = GreedyBot(3)
        for _ in range(400):
            await until(pilot, lambda: table.status == "finished" or table.my_turn, "Ann's turn", LIMIT)
            if table.status == "finished":
                break
            assert table.game is not None
            table.submit(hands.choose(table.game.view()))  # what the game screen's keys submit
            await pilot.pause()
        await until(pilot, lambda: runner.round > runner.charter.rounds, "the event's end", LIMIT)  # type: ignore[union-attr]
        while not isinstance(app.screen, TournamentScreen):
            app.pop_screen()
            await pilot.pause()
        await until(pilot, lambda: screen.query_one("#standings", DataTable).row_count == 4, "the standings", LIMIT)
        await asyncio.wait_for(bob_task, LIMIT)
        rows = screen.query_one("#standings", DataTable)

        def rated() -> bool:  # four players of different kinds: each game counts into the ratings
            return all(str(rows.get_row_at(i)[6]) != "new" for i in range(rows.row_count))

        try:
            await until(pilot, rated, "the ratings counted from the event's games", LIMIT)
        except AssertionError as exc:  # which player, and what the ratings file kept
            shown = [(str(rows.get_row_at(i)[1]), str(rows.get_row_at(i)[6])) for i in range(rows.row_count)]
            kept = (tmp_path / "tui" / "games" / "ratings.json")
            raise AssertionError(f"{exc}: {shown}; {kept.read_text() if kept.exists() else 'no ratings file'}") from None
    assert (runner.folder / "standings.json").read_text() == (bob.folder / "standings.json").read_text()
    assert [s.player for s in runner.standings()] == [s.player for s in bob.standings()]


async def test_the_standings_write_a_score_difference_as_points(tmp_path: Path) -> None:
    """Whole points as they are, "+15", "-3", "0" (they read "+15.0"), a fraction of a point (a
    table of three: a mean of the opponents' scores) to one place."""
    from fractions import Fraction
    from types import SimpleNamespace

    from carcnet.club.standings import Standing

    app = _app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, TournamentScreen), "the tournament screen")
        screen = app.screen
        players = [SimpleNamespace(name=n, bot="greedy", key=b"") for n in ("Ann", "Bob", "Cem", "Dee")]
        rows = [Standing(i + 1, str(i), Fraction(w), Fraction(d), Fraction(0), 2, 0)
                for i, (w, d) in enumerate([(2, 15), (1, Fraction(5, 2)), (1, 0), (0, -3)])]
        screen.runner = SimpleNamespace(charter=SimpleNamespace(players=players), standings=lambda: rows,  # type: ignore[assignment]
                                        me=b"me")
        screen._show_standings()
        await pilot.pause()
        table = screen.query_one("#standings", DataTable)
        assert [str(table.get_row_at(i)[3]) for i in range(4)] == ["+15", "+2.5", "0", "-3"]


async def test_the_tournament_form_s_box_looks_ticked_or_not_by_its_mark(tmp_path: Path) -> None:
    """"I play" ticked and unticked looked alike (an X in both, told apart by a shade some themes
    make the same): the mark itself differs, in every theme."""
    from textual.geometry import Region

    app = _app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, TournamentScreen), "the tournament screen")
        box = app.screen.query_one("#play", Checkbox)

        def row() -> str:
            return box.render_lines(Region(0, 0, *box.outer_size))[1].text

        for theme in sorted(app.available_themes):
            app.theme = theme
            box.value = True
            await pilot.pause()
            ticked = row()
            box.value = False
            await pilot.pause()
            assert ticked != row(), (theme, ticked, row())
