"""Provides the tutorial's screens: the lessons' menu ("Learn to play"), the first game with its lesson
band, and the expansions' single-screen lessons.

The first game is an ordinary local game (:class:`~carcnet.table.LocalTable`, recorded, so that leaving
keeps it) on the tutorial's fixed deck, its opponent following the script
(:mod:`carcnet.tui.tutorial`). :class:`TutorialScreen` is the game screen with a band under the board
that says what to do now and why; it puts the cursor where the tile should go and refuses, with a
hint, a move the lesson does not ask for, before anything reaches the table.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.markup import escape
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from carcnet.engine import DeployMeeple, Game, GameSetup, Move, PlaceTile, Position, Rules
from carcnet.engine.notation import parse_move
from carcnet.i18n import N_, _
from carcnet.log import LogError, load
from carcnet.tui import tutorial
from carcnet.tui.messages import OpenTable
from carcnet.tui.running import TableRun
from carcnet.tui.screens.game import GameScreen
from carcnet.tui.settings import Settings
from carcnet.tui.tables import TableMaker
from carcnet.tui.tutorial import EXPANSIONS, LESSONS, TURNS, ExpansionLesson, Progress, Step
from carcnet.tui.widgets.board import BoardView
from carcnet.tui.widgets.footer import KeyFooter

__all__ = ["ExpansionLessonScreen", "ExpansionLessonsScreen", "TutorialMenuScreen", "TutorialScreen"]

#: The menu's lines (each a whole sentence or title, with named fields), in English (marked: shown with
#: ``_()``).
MENU_TITLE = N_("Learn to play")
MENU_INTRO = N_("A first game against a gentle bot teaches the game a lesson at a time. You can leave with q at "
                "any moment and come back here to go on.")
# Translators: {number} of {count}: the lesson the first game stands at; {title} the lesson's title
CONTINUE = N_("Continue your first game: lesson {number} of {count}, {title}")
START = N_("Start the first game")
START_AGAIN = N_("Start the first game again")
# Translators: {number} is the lesson's number, {title} its title ("Placing a tile")
LESSON = N_("Lesson {number}: {title}")
# Translators: {number} is the lesson's number, {title} its title ("Placing a tile")
LESSON_DONE = N_("Lesson {number}: {title} (done)")
# Translators: {title} is an expansion's name ("Inns & Cathedrals")
EXPANSION = N_("The expansions: {title}")
# Translators: {title} is an expansion's name ("Inns & Cathedrals")
EXPANSION_DONE = N_("The expansions: {title} (read)")
# Translators: the lesson band's title: {number} of {count}, the lesson; {title} its title
BAND_TITLE = N_("Lesson {number} of {count}: {title}")
NOT_QUITE = N_("Not quite")


def _saved_step(path: Path | None) -> Step | None:
    """The step the tutorial's game kept at *path* stands at, or ``None`` when there is none (or it
    cannot be read)."""
    if path is None:
        return None
    try:
        game = load(path).game
    except (OSError, LogError):
        return None
    return tutorial.step_of(game)


class TutorialMenuScreen(Screen[None]):
    """"Learn to play": go on with the first game, start it (again, or at a lesson), or read an
    expansion's lesson. Marks the lessons done.

    Args:
        tables: The app's table maker (where the tutorial's game is kept, how the bot is paced).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "back", N_("Back"), tooltip=N_("Back to the menu; your first game is kept")),
        Binding("question_mark", "help", N_("Help"), key_display="?"),
    ]
    """Escape or q goes back; ? the help."""

    def __init__(self, tables: TableMaker) -> None:
        super().__init__()
        self.tables = tables
        self.progress = Progress(tables.tutorial_dir)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"[b]{_(MENU_TITLE)}[/b]", id="title")
            yield Static(_(MENU_INTRO), id="intro")
            yield OptionList(*self._options(), id="lessons")
        yield KeyFooter()

    def _options(self) -> list[Option | None]:
        progress = self.progress
        step = _saved_step(self.tables.tutorial_save())
        options: list[Option | None] = []
        if step is not None and step.part not in ("end", "away"):
            options.append(Option(_(CONTINUE).format(number=step.lesson + 1, count=len(LESSONS),
                                                     title=_(LESSONS[step.lesson])), id="continue"))
        options.append(Option(_(START_AGAIN if step is not None else START), id="start"))
        options.append(None)
        for number, title in enumerate(LESSONS):
            text = LESSON_DONE if number in progress.lessons else LESSON
            options.append(Option(_(text).format(number=number + 1, title=_(title)), id=f"lesson-{number}"))
        options.append(None)
        for lesson in EXPANSIONS:
            text = EXPANSION_DONE if lesson.key in progress.expansions else EXPANSION
            options.append(Option(_(text).format(title=_(lesson.title)), id=f"expansion-{lesson.key}"))
        return options

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_screen_resume(self) -> None:
        """Back from a lesson: what is done is marked, and the game to continue named."""
        self.progress = Progress(self.tables.tutorial_dir)
        menu = self.query_one(OptionList)
        highlighted = menu.highlighted
        menu.clear_options()
        menu.add_options(self._options())
        menu.highlighted = min(highlighted or 0, menu.option_count - 1)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.open(event.option.id)

    def open(self, entry: str) -> None:
        """Opens *entry*: ``continue``, ``start``, ``lesson-N`` (the first game from lesson N) or
        ``expansion-KEY``."""
        if entry.startswith("expansion-"):
            key = entry.removeprefix("expansion-")
            self.app.push_screen(ExpansionLessonScreen(next(e for e in EXPANSIONS if e.key == key), self.progress))
            return
        try:
            if entry == "continue":
                path = self.tables.tutorial_save()
                table = self.tables.resume_tutorial(path) if path is not None else self.tables.tutorial()
            else:
                lesson = int(entry.removeprefix("lesson-")) if entry.startswith("lesson-") else 0
                table = self.tables.tutorial(lesson)
        except (OSError, LogError, ValueError) as exc:
            self.notify(str(exc), title=_("Cannot open the lesson"), severity="error", timeout=10)
            return
        self.post_message(OpenTable(table, replace=False, tutorial=True))

    def action_back(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        from carcnet.tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())


class TutorialScreen(GameScreen):
    """The tutorial's first game: the game screen with the lesson band under the board.

    Each step of the learner's turns (:func:`carcnet.tui.tutorial.step_of`) says what to do and why;
    the cursor waits where the tile goes; a move the step does not ask for is refused with a hint
    (:func:`~carcnet.tui.tutorial.accepts`) and never reaches the table. Every lesson the learner
    goes through here is noted done in *progress*.

    Args:
        run: The running tutorial table.
        settings: The player's settings (turn confirmation, glyphs…), as for any game.
        progress: The lessons done, kept in the tutorial's folder.
    """

    def __init__(self, run: TableRun, *, settings: Settings | None = None, progress: Progress,
                 data_dir: Path | None = None) -> None:
        super().__init__(run, settings=settings, data_dir=data_dir)
        self.progress = progress
        self.lesson_text = Static("", id="lesson-text")
        self.lesson_box = VerticalScroll(self.lesson_text, id="lesson")
        #: The step shown last, and the learner's turn whose tile the cursor was put on.
        self.step: Step | None = None
        self._aimed: int | None = None

    def on_mount(self) -> None:
        self.mount(self.lesson_box, before=self.status)
        super().on_mount()

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        self.set_class(event.size.height < 22, "-tiny")

    def redraw(self) -> None:
        super().redraw()
        if self.is_attached and not self._left:
            self.show_lesson()

    def show_lesson(self) -> None:
        """Brings the lesson band up to date with the game shown; on a new placement, puts the cursor
        where the tile goes, turned as the lesson shows it first."""
        step = tutorial.step_of(self.shown_game, self.confirming)
        before, self.step = self.step, step
        if before is not None and before.part not in ("away", "end") and step.lesson > before.lesson:
            self.progress.finish(lesson=before.lesson)
        if step.part == "end":
            self.progress.finish(lesson=len(LESSONS) - 1)
        self.lesson_box.border_title = _(BAND_TITLE).format(number=step.lesson + 1, count=len(LESSONS),
                                                            title=_(LESSONS[step.lesson]))
        self.lesson_text.update(escape(self._text(step)))
        if step.part == "place" and self._aimed != step.turn and self.board.interactive:
            self._aimed = step.turn
            self._aim(TURNS[step.turn].target.shown)

    def _text(self, step: Step) -> str:
        """The lesson band's text for *step*, in the language in use (the lessons' texts are
        :mod:`carcnet.tui.tutorial`'s, in English)."""
        if step.part == "away":
            return _(tutorial.AWAY)
        if step.part == "end":
            scores = self.shown_game.scores
            return _(tutorial.FINISHED).format(you=scores[tutorial.PLAYER], blue=scores[tutorial.OPPONENT])
        if step.part == "wait":
            return _(tutorial.WAITING)
        if step.part == "confirm":
            return _(tutorial.CONFIRM)
        turn = TURNS[step.turn]
        if step.part == "place":
            return _(turn.place)
        return _(turn.deploy).format(spot=self._spot(turn))

    def _spot(self, turn: tutorial.Turn) -> str:
        """The key of the spot the deployment asks for (as the board numbers them)."""
        game = self.shown_game
        for number, segment in enumerate(self.board.spots, 1):
            move = DeployMeeple(segment)
            if tutorial.claims(game, move, turn.claim):
                return str(number)
        return "0"

    def _aim(self, rotation: int | None = None) -> None:
        """The cursor on where this turn's tile goes, turned *rotation* (default: as it should go)."""
        step = self.step
        if step is None or step.part != "place":
            return
        target = TURNS[step.turn].target
        board = self.board
        board.cursor = target.position
        board.rotation = target.rotation if rotation is None else rotation
        self.call_after_refresh(board.centre_on, target.position)

    def _choose(self, move: Move) -> None:
        """Plays *move* as any game does if the lesson asks for it; else says what it asks for."""
        game = self.shown_game
        if tutorial.accepts(game, move):
            self.app.clear_notifications()  # a hint said what to do: done
            super()._choose(move)
            return
        step = tutorial.step_of(game)
        turn = TURNS[step.turn]
        if step.part == "place":
            self.notify(_(turn.wrong_place), title=_(NOT_QUITE), severity="warning", timeout=5)
            if isinstance(move, PlaceTile) and move.position != turn.target.position:
                self.call_after_refresh(self._aim, turn.target.shown)  # back where the tile goes
        else:
            self.notify(_(turn.wrong_deploy).format(spot=self._spot(turn)), title=_(NOT_QUITE), severity="warning",
                        timeout=5)


def lesson_game(lesson: ExpansionLesson) -> Game:
    """The small board of an expansion's lesson: its moves played on its deck."""
    game = Game(GameSetup(players=2, draw_order=lesson.order, rules=Rules(**{lesson.key: True})))
    for text in lesson.moves:
        game.apply(parse_move(text))
    return game


class ExpansionLessonScreen(ModalScreen[None]):
    """An expansion's lesson on one screen: its rules in a few sentences beside a small board that
    shows them. Noted read in *progress*.

    Args:
        lesson: The lesson.
        progress: The lessons done (``None``: not noted).
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,enter", "close", N_("Close"))]
    """Escape, q or Enter closes."""

    def __init__(self, lesson: ExpansionLesson, progress: Progress | None = None) -> None:
        super().__init__()
        self.lesson = lesson
        self.progress = progress

    def compose(self) -> ComposeResult:
        lesson = self.lesson
        with Vertical(id="frame"):
            yield Static(f"[b]{escape(_(lesson.title))}[/b]", id="title")
            with Horizontal():
                yield BoardView(lesson_game(lesson), list(tutorial.COLOURS), interactive=False, id="example")
                with VerticalScroll(id="rules"):
                    yield Static("\n\n".join(escape(_(p)) for p in lesson.paragraphs))
        yield KeyFooter()

    def on_mount(self) -> None:
        if self.progress is not None:
            self.progress.finish(expansion=self.lesson.key)
        self.call_after_refresh(self._centre)

    def _centre(self) -> None:
        board = self.query_one(BoardView)
        tiles = [t.position for t in board.game.board.tiles.values()]
        xs, ys = [p.x for p in tiles], [p.y for p in tiles]
        board.centre_on(Position((min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2))

    def action_close(self) -> None:
        self.dismiss(None)


class ExpansionLessonsScreen(ModalScreen[None]):
    """The expansions' lessons to choose from (the new-game form's Lessons)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", N_("Close"))]

    def __init__(self, progress: Progress | None = None) -> None:
        super().__init__()
        self.progress = progress

    def compose(self) -> ComposeResult:
        with Vertical(id="frame"):
            yield Static(_("[b]The expansions' rules, a lesson each[/b]"), id="title")
            yield OptionList(*(Option(_(e.title), id=e.key) for e in EXPANSIONS), id="expansions")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        lesson = next(e for e in EXPANSIONS if e.key == event.option.id)
        self.app.push_screen(ExpansionLessonScreen(lesson, self.progress))

    def action_close(self) -> None:
        self.dismiss(None)
