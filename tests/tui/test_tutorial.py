"""The tutorial ("Learn to play", ``carcnet tutorial``): its script, the first game played by keys from
the home screen's first key to the final scores at 80 × 24 and 60 × 18 (a wrong move refused with a
hint, leaving and coming back where it was left), and a snapshot of each lesson's screen.

The pilots press what the lesson band tells them to press, and wait on the app's state (bounded
polls of :func:`~tests.tui.keyplay.until`), never on fixed sleeps. Snapshots: regenerate with
``--snapshot-update`` after a deliberate change to the look, and look at the report first.
"""

from __future__ import annotations

import re

import pytest

from carcnet.engine import Game, GameSetup, Phase
from carcnet.tui import tutorial
from carcnet.tui.app import CarcnetApp
from carcnet.tui.screens.final import FinalScreen
from carcnet.tui.screens.home import HomeScreen
from carcnet.tui.screens.setup import NewGameScreen
from carcnet.tui.screens.tutorial import (
    ExpansionLessonScreen,
    ExpansionLessonsScreen,
    TutorialMenuScreen,
    TutorialScreen,
    lesson_game,
)
from carcnet.tui.settings import Settings
from carcnet.tui.tutorial import EXPANSIONS, LESSONS, ORDER, SOLUTION, TURNS, Progress, accepts, step_of

from .keyplay import until

SIZES = [(80, 24), (60, 18)]


def _setup() -> GameSetup:
    return GameSetup(players=2, draw_order=ORDER)


# ------------------------------------------------------------------------------------ the script


def test_the_script_is_a_whole_legal_game_whose_steps_follow_the_lessons():
    """Every move of the solution is legal where it comes and accepted by its step; the game ends with
    the last one; the steps go through every lesson in order; the final scores are the ones the last
    lesson explains."""
    game = Game(_setup())
    lessons = []
    for move in SOLUTION:
        assert move in game.legal_moves(), move
        step = step_of(game)
        if step.part in ("place", "deploy"):
            assert accepts(game, move)
            lessons.append(step.lesson)
        else:
            assert step.part == "wait"
        game.apply(move)
    assert game.phase is Phase.GAME_OVER and step_of(game).part == "end"
    assert lessons == sorted(lessons) and set(lessons) == set(range(len(LESSONS)))
    assert list(game.scores) == [29, 3]
    assert len(TURNS) * 4 - 2 == len(SOLUTION) and len(ORDER) == 2 * len(TURNS) - 1


def test_a_move_the_step_does_not_ask_for_is_refused_and_a_game_off_the_script_is_left_alone():
    game = Game(_setup())
    wrong = next(m for m in game.legal_moves() if m != SOLUTION[0])
    assert not accepts(game, wrong)
    game.apply(wrong)
    assert step_of(game).part == "deploy"  # the move just made is judged when it is made, not after
    game.apply(game.legal_moves()[-1])
    assert step_of(game).part == "away" and accepts(game, game.legal_moves()[0])


def test_each_lesson_starts_at_a_step_of_its_own():
    for lesson in range(len(LESSONS)):
        game = Game(_setup())
        for move in tutorial.moves_before(lesson):
            game.apply(move)
        step = step_of(game)
        assert step.lesson == lesson and step.part in ("place", "deploy")


@pytest.mark.parametrize("lesson", EXPANSIONS, ids=lambda e: e.key)
def test_each_expansion_lesson_shows_a_game_of_that_expansion(lesson):
    game = lesson_game(lesson)
    assert game.phase is Phase.PLACE_TILE and getattr(game.setup.rules, lesson.key)
    placed = sum(move.startswith("place ") for move in lesson.moves)
    assert len(game.board.tiles) == 1 + placed and game.figures()


def test_progress_is_kept_and_a_damaged_file_counts_as_nothing_done(tmp_path):
    progress = Progress(tmp_path / "tutorial")
    progress.finish(lesson=2)
    progress.finish(expansion="river")
    again = Progress(tmp_path / "tutorial")
    assert again.lessons == {2} and again.expansions == {"river"}
    (tmp_path / "tutorial" / "progress.json").write_text("[not json")
    assert Progress(tmp_path / "tutorial").lessons == set()


# ------------------------------------------------------------------------------------ the pilots


def _band(screen: TutorialScreen) -> str:
    return str(screen.lesson_text.render())


def _key(text: str) -> str:
    """The key the lesson band says to press first."""
    found = re.search(r"Press (\w+)", text)
    assert found, text
    return {"Enter": "enter"}.get(found.group(1), found.group(1))


async def _to_menu(pilot, app: CarcnetApp) -> TutorialMenuScreen:  # type: ignore[no-untyped-def]
    await until(pilot, lambda: isinstance(app.screen, TutorialMenuScreen), "the lessons' menu")
    menu = app.screen
    assert isinstance(menu, TutorialMenuScreen)
    return menu


async def _to_game(pilot, app: CarcnetApp) -> TutorialScreen:  # type: ignore[no-untyped-def]
    await until(pilot, lambda: isinstance(app.screen, TutorialScreen) and app.screen.step is not None,
                "the tutorial's game")
    screen = app.screen
    assert isinstance(screen, TutorialScreen)
    return screen


def _ready(screen: TutorialScreen) -> bool:
    """Whether the learner has something to do now (or the game is over)."""
    step = screen.step
    if step is None or step.part in ("wait", "away"):
        return False
    return step.part == "end" or screen.confirming or screen.board.interactive


@pytest.mark.asyncio
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_first_game_from_the_first_key_to_the_final_scores(tmp_path, size):
    """l on the home screen, Enter on "Start the first game", then what each lesson says, at 80 × 24
    and 60 × 18. A wrong spot is refused with a hint and changes nothing; q in lesson 4 goes back to
    the menu, which offers to continue there, and Enter does. The game ends with the final scores the
    last lesson explains, every lesson is marked done, and the menu offers no game to continue."""
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, settings=Settings())
    async with app.run_test(size=size) as pilot:
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("l")
        await _to_menu(pilot, app)
        await pilot.press("enter")  # "Start the first game", the first entry
        screen = await _to_game(pilot, app)
        left_once = refused_once = False
        for _ in range(100):  # bounded: 8 turns of at most 3 keys, and the two detours
            await until(pilot, lambda: _ready(screen) or isinstance(app.screen, FinalScreen), "the learner's move")
            if isinstance(app.screen, FinalScreen):
                break
            step = screen.step
            assert step is not None
            text = _band(screen)
            assert screen.lesson_box.border_title.startswith(f"Lesson {step.lesson + 1} of 8:")
            if step.part == "deploy" and not refused_once:
                refused_once = True
                moves = len(screen.shown_game.moves)
                wrong = "0" if _key(text) != "0" else "1"
                await pilot.press(wrong)
                await until(pilot, lambda: bool(app._notifications), "the hint")
                assert len(screen.shown_game.moves) == moves and screen.step == step
                assert any(n.title == "Not quite" for n in app._notifications)
            if step.lesson == 3 and step.part == "place" and not left_once:
                left_once = True
                await pilot.press("q")
                menu = await _to_menu(pilot, app)
                first = menu.query_one("#lessons").get_option_at_index(0)
                assert first.id == "continue" and "lesson 4 of 8, Roads" in str(first.prompt)
                await pilot.press("enter")
                screen = await _to_game(pilot, app)
                assert screen.step == step and _band(screen) == text
                continue
            key = _key(text)
            if key == "r":  # turn the tile until it is as the lesson wants it, then place it
                target = TURNS[step.turn].target
                for _ in range(4):
                    if screen.board.rotation == target.rotation:
                        break
                    await pilot.press("r")
                key = "enter"
            before = (len(screen.shown_game.moves), screen.confirming)
            await pilot.press(key)
            await until(pilot, lambda: (len(screen.shown_game.moves), screen.confirming) != before
                        or isinstance(app.screen, FinalScreen), "the key's effect")
        assert isinstance(app.screen, FinalScreen) and left_once and refused_once
        game = screen.table.game
        assert game.phase is Phase.GAME_OVER and list(game.moves) == list(SOLUTION)
        assert list(game.scores) == [29, 3]
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen and screen.step.part == "end", "the last lesson's end")
        assert "29 points to 3" in _band(screen)
        assert Progress(tmp_path / "tutorial").lessons == set(range(len(LESSONS)))
        await pilot.press("q")
        menu = await _to_menu(pilot, app)
        options = menu.query_one("#lessons")
        assert options.get_option_at_index(0).id == "start"
        assert "(done)" in str(options.get_option(f"lesson-{len(LESSONS) - 1}").prompt)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, HomeScreen), "the home screen")


@pytest.mark.asyncio
async def test_the_expansions_lessons_from_the_new_game_form(tmp_path):
    """Ctrl+L on the new-game form lists the four lessons; Enter opens one, Escape closes it, and the
    lessons' menu marks it read."""
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen), "the new-game form")
        await pilot.press("ctrl+l")
        await until(pilot, lambda: isinstance(app.screen, ExpansionLessonsScreen), "the expansions' lessons")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ExpansionLessonScreen), "a lesson")
        assert app.screen.lesson is EXPANSIONS[0]
        await pilot.press("escape", "escape", "escape")
        await until(pilot, lambda: isinstance(app.screen, HomeScreen), "the home screen")
        await pilot.press("l")
        menu = await _to_menu(pilot, app)
        assert "(read)" in str(menu.query_one("#lessons").get_option(f"expansion-{EXPANSIONS[0].key}").prompt)


# ------------------------------------------------------------------------------------ snapshots


def _lesson_app(tmp_path, lesson: int) -> tuple[CarcnetApp, object]:
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, settings=Settings())

    async def before(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("l")
        menu = await _to_menu(pilot, app)
        menu.open(f"lesson-{lesson}")
        screen = await _to_game(pilot, app)
        await until(pilot, lambda: _ready(screen), "the lesson's first move")
        for _ in range(3):
            await pilot.pause()

    return app, before


@pytest.mark.parametrize("lesson", range(len(LESSONS)), ids=lambda n: f"{n + 1}-{LESSONS[n].split()[0].lower()}")
def test_snapshot_of_each_lesson(lesson, tmp_path, snap_compare):
    """Each lesson of the first game at its first step, 80 × 24, as the lessons' menu opens it: the
    board with the tile where the lesson wants it (the turning lesson: the wrong way round) or the
    tile placed and its spots numbered, the band under it saying what to do and why, titled with the
    lesson."""
    app, before = _lesson_app(tmp_path, lesson)
    assert snap_compare(app, terminal_size=(80, 24), run_before=before)


def test_snapshot_of_a_lesson_at_60x18(tmp_path, snap_compare):
    """Lesson 2 (turning a tile) at 60 × 18: the band's four lines whole above the status line."""
    app, before = _lesson_app(tmp_path, 1)
    assert snap_compare(app, terminal_size=(60, 18), run_before=before)


def test_snapshot_of_the_lessons_menu(tmp_path, snap_compare):
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0, settings=Settings())
    assert snap_compare(app, terminal_size=(80, 24), press=["l"])


@pytest.mark.parametrize("lesson", EXPANSIONS, ids=lambda e: e.key)
def test_snapshot_of_each_expansion_lesson(lesson, snap_compare):
    """Each expansion's lesson at 80 × 24: its rules beside a small board that shows them."""
    from textual.app import App

    from carcnet.tui.app import STYLESHEET

    class LessonApp(App[None]):
        CSS_PATH = STYLESHEET

        def on_mount(self) -> None:
            self.push_screen(ExpansionLessonScreen(lesson))

    assert snap_compare(LessonApp(), terminal_size=(80, 24))
