"""The replay screen (Textual pilot): n / b step one player's move at a time, Home and End jump; a
game with table draws steps over its draws (they come with the move before them)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App

from carcnet.engine import DrawTile, Phase, PlaceTile
from carcnet.log import LoadedLog, load
from carcnet.tui.app import STYLESHEET
from carcnet.tui.screens.replay import ReplayScreen

VECTORS = Path(__file__).parents[2] / "protocol" / "vectors"

pytestmark = pytest.mark.asyncio


class _App(App[None]):
    CSS_PATH = STYLESHEET

    def __init__(self, screen: ReplayScreen) -> None:
        super().__init__()
        self._screen = screen

    def on_mount(self) -> None:
        self.push_screen(self._screen)


@pytest.mark.parametrize("name", ["log3-table", "log2-signed"])
async def test_replay_steps_over_the_tables_draws(name):
    loaded = load(VECTORS / f"{name}.bin")
    screen = ReplayScreen(loaded)
    played = [m for m in loaded.game.moves if not isinstance(m, DrawTile)]
    async with _App(screen).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert f"move {len(played)} of {len(played)}" in str(screen.status.render())
        seen = []
        for _ in range(len(played) + 2):  # back to the start, one move at a time
            await pilot.press("b")
            await pilot.pause()
            seen.append(screen.step)
            assert screen.game.phase is not Phase.DRAW  # never stopped in the middle of a draw
        assert seen[-1] == seen[-2] and "move 0 of" in str(screen.status.render())
        assert len(set(seen)) == len(played)  # one stop per player's move (and the start)
        await pilot.press("n")
        await pilot.pause()
        assert "move 1 of" in str(screen.status.render()) and screen.game.drawn is None


async def test_home_and_end_jump_to_the_start_and_the_end_and_N_B_go_twenty():
    """Issue 15 item 2: Home and End reached the focused board (which scrolled) instead of the
    replay; N and B were hidden."""
    loaded = load(VECTORS / "log2-signed.bin")
    screen = ReplayScreen(loaded)
    async with _App(screen).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        end = screen.step
        await pilot.press("home")
        await pilot.pause()
        assert screen.step == 0 and "move 0 of" in str(screen.status.render())
        await pilot.press("end")
        await pilot.pause()
        assert screen.step == end
        shown = {b.binding.key_display for b in screen.active_bindings.values() if b.binding.show}
        assert {"N", "B"} <= shown


def _finished_game(tmp_path: Path) -> LoadedLog:
    """A whole seeded game of three greedy bots, saved as any game is, and loaded."""
    from carcnet.bots import make_bot
    from carcnet.log import GameRecorder, LogHeader, Seat

    seats = [Seat(n, c, "bot", "greedy") for n, c in (("Ann", "red"), ("Bob", "blue"), ("Cem", "green"))]
    path = tmp_path / "game.carclog"
    with GameRecorder.create(LogHeader.new(seats, seed=21), path) as recorder:
        bots = [make_bot("greedy", 21 + s) for s in range(3)]
        while recorder.game.phase is not Phase.GAME_OVER:
            recorder.submit(bots[recorder.game.seat].choose(recorder.game.view()))
    return load(path)


async def test_go_to_a_move_play_pause_and_speed(tmp_path):
    loaded = _finished_game(tmp_path)
    screen = ReplayScreen(loaded)
    played = sum(not isinstance(m, DrawTile) for m in loaded.game.moves)
    async with _App(screen).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("g")
        await pilot.pause()
        await pilot.press("1", "2", "enter")  # turn 12: its placement and deployment, moves 23 and 24
        await pilot.pause()
        turns = sum(isinstance(m, PlaceTile) for m in loaded.game.moves)
        assert f"turn 12 of {turns}, move 24 of {played}" in str(screen.status.render())
        assert len(screen.game.moves) == screen.step and screen._move_number(screen.step) == 24
        await pilot.press("g", "9", "9", "9", "enter")  # past the end: refused, the dialog stays
        await pilot.pause()
        assert "A turn from 0 to" in str(pilot.app.screen.query_one("#error").render())
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is screen and screen._move_number(screen.step) == 24

        await pilot.press("greater_than_sign", "greater_than_sign")  # 2 -> 4 -> 8 moves a second
        assert screen.speed == 8.0
        await pilot.press("space")  # plays: the moves go on by themselves
        assert screen.playing and "Playing, 8 moves/s" in str(screen.status.render())
        # the timer moves it on by itself, a step a tick every 1/8 s: counted in ticks, not seconds
        assert screen._timer is not None and screen._timer._interval == pytest.approx(1 / 8)
        screen._timer.pause()  # the test ticks it: no race with the clock on a loaded machine
        before = screen.stops.index(screen.step)
        for _ in range(2):
            screen._tick()
        await pilot.pause()
        assert screen.stops.index(screen.step) == before + 2 and screen.playing
        screen._timer.resume()
        await pilot.press("space")  # pauses
        await pilot.pause()
        assert not screen.playing and screen._timer is None  # no timer left to move it on
        set_interval = screen.set_interval  # from here timers are made paused: the test ticks them
        screen.set_interval = lambda interval, callback: set_interval(interval, callback, pause=True)
        await pilot.press("end")
        await pilot.pause()
        assert screen.step == screen.stops[-1]
        await pilot.press("space")  # at the end, Space plays again from the start
        assert screen.playing and screen.step == screen.stops[0]
        screen._tick()
        assert screen.stops.index(screen.step) == 1
        await pilot.press("space")
        assert not screen.playing


async def test_the_score_chart_shows_every_seats_score_over_the_game_with_the_move_marked(tmp_path):
    from carcnet.tui.screens.replay import ChartScreen
    from carcnet.tui.widgets.chart import ScoreChart, score_history

    loaded = _finished_game(tmp_path)
    screen = ReplayScreen(loaded)
    async with _App(screen).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen.go_to_move(20)
        await pilot.press("s")
        await pilot.pause()
        chart_screen = pilot.app.screen
        assert isinstance(chart_screen, ChartScreen)
        chart = chart_screen.query_one(ScoreChart)
        history = chart.history
        assert history is not None and history.scores[0] == (0,) * loaded.game.players
        assert history.scores[-1] == tuple(loaded.game.scores)  # the end, final scoring included
        assert chart.marked == 10  # 20 moves: 10 turns of a placement and a deployment
        # every point is the score of a fresh replay of the game up to that turn
        from carcnet.engine import replay

        for point, moves in zip(history.scores, history.moves, strict=True):
            assert point == tuple(replay(loaded.header.setup(), loaded.game.moves[:moves]).scores)
        assert history == score_history(loaded.game)
        await pilot.press("escape")
        assert pilot.app.screen is screen


async def test_continue_from_here_plays_on_as_a_new_game_and_leaves_the_save_alone(tmp_path):
    """Issue 34: C in the replay at turn 10 opens a new game at this terminal from that move, saved in
    a file of its own with the same seats; the saved game's bytes do not change."""
    from carcnet.log.branch import continue_from
    from carcnet.tui.app import CarcnetApp
    from carcnet.tui.screens.game import GameScreen

    from .keyplay import until

    loaded = _finished_game(tmp_path / "saves")
    before = loaded.path.read_bytes()
    app = CarcnetApp(data_dir=tmp_path / "data", bot_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = ReplayScreen(loaded)
        await app.push_screen(screen)
        await pilot.pause()
        await pilot.press("g", "1", "0", "enter")
        await pilot.pause()
        step = screen.step
        await pilot.press("C")
        games = lambda: [s for s in app.screen_stack if isinstance(s, GameScreen)]  # noqa: E731
        await until(pilot, lambda: bool(games()), f"the new game, not {app.screen_stack}")
        table = games()[0].table
        assert table.path.parent == tmp_path / "data" and table.path != loaded.path
        header, kept = continue_from(loaded.header, loaded.game.moves, step)
        assert table.header.seats == loaded.header.seats and table.header.game != loaded.header.game
        assert list(table.game.moves[: len(kept)]) == kept
    assert loaded.path.read_bytes() == before


async def test_v_reviews_the_game_off_the_event_loop_and_lists_the_missed_city(tmp_path):
    """Issue 34: v in the replay reviews every turn with the hard bot in a worker thread (the status
    line counts the turns), then lists the marked turns with the points at stake and the chart with
    them marked; Enter goes to the position before the turn chosen."""
    from carcnet.tui.screens.replay import ReviewScreen

    from ..bots.test_review import CLOSED, MISSED, saved_missed_game
    from .keyplay import until

    screen = ReplayScreen(load(saved_missed_game(tmp_path / "missed.carclog")))
    async with _App(screen).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("v")
        await until(pilot, lambda: isinstance(pilot.app.screen, ReviewScreen), "the review", timeout=300)
        review = pilot.app.screen
        assert isinstance(review, ReviewScreen) and len(review.reviews) == 9
        await until(pilot, lambda: bool(review.query("#chart")), "the review's chart")
        missed = next(r for r in review.marked if r.turn == 7)
        assert str(missed.played[0]) == MISSED and str(missed.best[0]) == CLOSED and missed.stake >= 3
        assert (7, 0) in review.query_one("#chart").reviewed
        options = review.query_one("#turns")
        line = str(options.get_option(str(7)).prompt)  # in words, not moves and coordinates
        assert "Red: a tile with a city closing a city just north of the start tile, no meeple" in line, line
        assert "the bot: a tile with a city closing your city in the east" in line and "place" not in line, line
        options.highlighted = [r.turn for r in review.marked].index(7)
        await pilot.press("enter")
        await pilot.pause()
        assert pilot.app.screen is screen and screen.turn_number(screen.step) == 6
        await pilot.press("v")  # made once: shown again at once
        await pilot.pause()
        assert isinstance(pilot.app.screen, ReviewScreen)


async def test_v_on_the_final_scores_opens_the_replay_reviewing_the_game(tmp_path):
    """Issue 34: the review from the final scores: v there opens the replay of the finished game with
    the review under way (its progress on the status line); leaving stops it."""
    from carcnet.log import Seat
    from carcnet.table import LocalTable
    from carcnet.tui.app import CarcnetApp
    from carcnet.tui.screens.final import FinalScreen

    from .keyplay import until

    app = CarcnetApp(data_dir=tmp_path, bot_delay=0)
    seats = [Seat("Ann", "red", "bot", "greedy"), Seat("Bob", "blue", "bot", "greedy")]
    async with app.run_test(size=(120, 40)) as pilot:
        app.show_table(LocalTable.new(seats, seed=4, directory=tmp_path, bot_delay=0))
        await until(pilot, lambda: isinstance(app.screen, FinalScreen), "the final scores")
        await pilot.press("v")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        replay_screen = app.screen
        assert isinstance(replay_screen, ReplayScreen)
        await until(pilot, lambda: replay_screen.reviewing is not None and replay_screen.reviewing[0] >= 1,
                    "a turn reviewed")
        assert "Reviewing:" in str(replay_screen.status.render())
        await pilot.press("q")  # leaves the replay: the review stops with it
        await until(pilot, lambda: app.screen is not replay_screen, "the replay closed")


async def test_continue_from_here_during_a_review_asks_before_stopping_it(tmp_path):
    """C while the review is under way asks whether to stop it (it was dropped without a word): n
    keeps reviewing and stays in the replay; y stops the review, says so, and continues from here."""
    from textual.worker import WorkerState

    from carcnet.tui.app import CarcnetApp
    from carcnet.tui.screens.game import GameScreen
    from carcnet.tui.screens.question import QuestionScreen

    from .keyplay import until

    loaded = _finished_game(tmp_path / "saves")
    app = CarcnetApp(data_dir=tmp_path / "data", bot_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = ReplayScreen(loaded)
        await app.push_screen(screen)
        await pilot.pause()
        await pilot.press("g", "1", "0", "enter", "v")
        assert screen.reviewing is not None
        await pilot.press("C")
        await until(pilot, lambda: isinstance(app.screen, QuestionScreen), "the question")
        assert "review" in str(app.screen.query_one("#detail").render())
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is screen and screen.reviewing is not None  # still reviewing, still here
        await pilot.press("C")
        await until(pilot, lambda: isinstance(app.screen, QuestionScreen), "the question again")
        await pilot.press("y")
        await until(pilot, lambda: any(isinstance(s, GameScreen) for s in app.screen_stack), "the new game")
        assert screen.reviewing is None
        assert all(w.state in (WorkerState.CANCELLED, WorkerState.SUCCESS, WorkerState.ERROR)
                   or w.is_cancelled for w in app.workers if w.group == "review")
        assert any("review was stopped" in n.message for n in app._notifications), list(app._notifications)
