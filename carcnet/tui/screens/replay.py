"""Provides the replay screen: a saved game move by move on the board, with the log and scores:
start, end, one or twenty moves on or back, a jump to any turn, play and pause at a chosen speed,
the chart of every seat's score over the game, the review of the game by the search bot (the turns
where it would have scored clearly more, marked on the chart) and "continue from here"."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from carcnet.engine import DrawTile, Game, Phase, PlaceTile, replay
from carcnet.club.review import MARK_POINTS, TurnReview, review_log
from carcnet.i18n import NP_, N_, _, ngettext
from carcnet.log import LoadedLog
from carcnet.tui.messages import ContinueGame
from carcnet.tui.render import UNICODE_GLYPHS, Glyphs
from carcnet.tui.screens.board_screen import BoardScreen, number_words
from carcnet.tui.screens.final import final_position
from carcnet.tui.screens.question import QuestionScreen
from carcnet.tui.widgets.chart import ScoreChart, ScoreHistory, score_history
from carcnet.tui.widgets.footer import KeyFooter
from carcnet.tui.widgets.text_input import TextInput
from carcnet.tui.words import positions_before, turn_words

__all__ = ["SPEEDS", "ChartScreen", "JumpScreen", "ReplayScreen", "ReviewScreen"]

#: The search bot's level a review is made at (the review's texts name it: "the hard bot").
REVIEW_LEVEL = "hard"

#: Play speeds, moves a second (``>`` and ``<`` step through them).
SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0)


class JumpScreen(ModalScreen["int | None"]):
    """Asks for a turn number (0 to *last*); dismissed with it, or ``None`` (Escape)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, last: int, now: int) -> None:
        super().__init__()
        self.last = last
        self.now = now

    def compose(self) -> ComposeResult:
        with Vertical():
            # Translators: {last} is the number of the game's last turn
            yield Static(_("Go to turn (0 to {last}):").format(last=self.last))
            yield TextInput(str(self.now), restrict=r"[0-9]*", max_length=4, id="turn")
            yield Static("", id="error")
        yield KeyFooter()

    def on_mount(self) -> None:
        field = self.query_one(Input)
        field.focus()
        field.select_all()

    @on(Input.Submitted)
    def _go(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text or int(text) > self.last:
            # Translators: {last} is the number of the game's last turn
            self.query_one("#error", Static).update(_("A turn from 0 to {last}.").format(last=self.last))
            return
        self.dismiss(int(text))

    def action_cancel(self) -> None:
        self.dismiss(None)


class ChartScreen(ModalScreen[None]):
    """Every seat's score over the game, the turn shown marked."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,s,q", "close", N_("Close"))]

    def __init__(self, history: ScoreHistory, names: list[str], colours: list[str], marked: int | None,
                 reviewed: list[tuple[int, int]] | None = None) -> None:
        super().__init__()
        self.history = history
        self.names = names
        self.colours = colours
        self.marked = marked
        #: ``(turn, seat)`` of a review's marked turns, drawn ``x`` on the chart.
        self.reviewed = reviewed or []

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(_("Scores over the game, turn by turn (the line: the turn shown)"))
            chart = ScoreChart(self.names, self.colours, history=self.history, marked=self.marked, id="chart")
            chart.reviewed = list(self.reviewed)
            yield chart
        yield KeyFooter()

    def action_close(self) -> None:
        self.dismiss(None)


class ReviewScreen(ModalScreen["int | None"]):
    """The review's marked turns (the search bot's turn worth clearly more), each with the points at
    stake, and the score chart with those turns marked ``x``; Enter goes to the position before the
    turn chosen (dismissed with its turn number), Escape closes (``None``)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,v", "close", N_("Close"))]

    def __init__(self, reviews: list[TurnReview], history: ScoreHistory, names: list[str], colours: list[str],
                 game: Game) -> None:
        super().__init__()
        self.reviews = reviews
        self.marked = [r for r in reviews if r.marked]
        self.history = history
        self.names = names
        self.colours = colours
        #: The position before each marked turn (the game reviewed, replayed once), to say the turns in words.
        self._before = positions_before(game, [r.move for r in self.marked])

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self._summary())
            yield OptionList(*[Option(self._line(r), id=str(r.turn)) for r in self.marked], id="turns")
            chart = ScoreChart(self.names, self.colours, history=self.history, id="chart")
            chart.reviewed = [(r.turn, r.seat) for r in self.marked]
            yield chart
        yield KeyFooter()

    def _summary(self) -> str:
        """What the review found: how many turns it looked at, how many it marks."""
        count = len(self.marked)
        # Translators: {n} turns of the game, a part of "The hard bot looked at {turns}: ..."
        turns = ngettext("{n} turn", "{n} turns", len(self.reviews)).format(n=len(self.reviews))
        points = number_words(MARK_POINTS)
        if count:
            # Translators: {turns} is "12 turns" (those the bot looked at); {count} how many of them it
            # marks; {points} a number of points (MARK_POINTS, 3)
            return ngettext("The hard bot looked at {turns}: {count} where its own turn is worth at least {points} "
                            "points more (mean ± spread over sampled futures; an estimate, not a verdict). Enter: "
                            "the position before it.",
                            "The hard bot looked at {turns}: {count} where its own turn is worth at least {points} "
                            "points more (mean ± spread over sampled futures; an estimate, not a verdict). Enter: "
                            "the position before it.", count).format(turns=turns, count=count, points=points)
        # Translators: {turns} is "12 turns" (those the bot looked at); {points} a number of points (3)
        return _("The hard bot looked at {turns} and found none where its own turn is clearly worth {points} "
                 "points more.").format(turns=turns, points=points)

    def _line(self, r: TurnReview) -> str:
        """A marked turn in words: its number and player, the turn played, then the bot's with the
        points at stake."""
        before = self._before[r.move]
        played = turn_words(before, r.played, self.names)
        best = turn_words(before, r.best, self.names, other=r.played)
        # Translators: {turn} is the turn's number, {player} its player's name, {played} the turn played in
        # words ("a tile with a city next to your city in the north-west, a knight on its city"), {best}
        # the bot's turn in the same words; {stake} ± {spread}: the points more the bot's turn is worth
        return _("{turn}. {player}: {played}\n     the bot: {best}: {stake} ± {spread} points").format(
            turn=f"{r.turn:3d}", player=self.names[r.seat], played=played, best=best,
            stake=number_words(r.stake, "+.1f"), spread=number_words(r.spread, ".1f"))

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        assert event.option.id is not None
        self.dismiss(int(event.option.id))

    def action_close(self) -> None:
        self.dismiss(None)


class ReplayScreen(BoardScreen):
    """Steps through a saved game. The board can be panned and zoomed as in play; nothing changes
    the saved game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,right_square_bracket", "step(1)", N_("Next move"), key_display="n"),
        Binding("b,left_square_bracket", "step(-1)", N_("Back"), key_display="b"),
        Binding("N", "step(20)", N_("+20 moves"), key_display="N"),
        Binding("B", "step(-20)", N_("-20 moves"), key_display="B"),
        # priority: the focused board scrolls on Home and End otherwise
        Binding("home", "goto(0)", NP_("replay: the first turn", "Start"), priority=True),
        Binding("end", "goto(-1)", N_("End"), priority=True),
        Binding("space", "play", N_("Play/pause")),
        Binding("greater_than_sign", "speed(1)", N_("Faster"), key_display=">"),
        Binding("less_than_sign", "speed(-1)", N_("Slower"), key_display="<", show=False),
        Binding("g", "jump", N_("Go to turn")),
        Binding("s", "chart", N_("Chart")),
        Binding("f", "final", N_("Scores")),
        Binding("v", "review", N_("Review")),
        Binding("C", "continue", N_("Continue from here"), key_display="C"),
        Binding("escape,q", "back", N_("Menu")),
    ]
    """n / b one move on or back (N / B twenty); Home / End the start or the end; Space plays or
    pauses, > and < change the speed; g goes to a turn; s the score chart; f the score table; v the
    review by the search bot (worked out once, off the event loop, with its progress shown); C
    continues the game from the move shown as a new game at this terminal (the saved game is not
    changed)."""

    def __init__(self, loaded: LoadedLog, *, glyphs: Glyphs = UNICODE_GLYPHS, review: bool = False) -> None:
        seats = loaded.header.seats
        super().__init__(loaded.game, [s.name for s in seats], [s.colour for s in seats], glyphs=glyphs)
        self.loaded = loaded
        self.moves = list(loaded.game.moves)
        #: The positions replay stops at: a number of moves after which the next is no table draw
        #: (deck.md §5: a draw is the table's, shown with the move before it), and the end.
        self.stops = [p for p in range(len(self.moves) + 1)
                      if p == len(self.moves) or not isinstance(self.moves[p], DrawTile)]
        self.step = len(self.moves)
        self.game: Game = loaded.game
        #: Play speed, moves a second; the timer while playing.
        self.speed = 2.0
        self._timer: Timer | None = None
        self._history: ScoreHistory | None = None
        #: The review once made (``v``), and its progress while it is made: (done, total).
        self.reviews: list[TurnReview] | None = None
        self.reviewing: tuple[int, int] | None = None
        #: Whether to start the review once shown (the final scores' ``v``).
        self._review_at_once = review

    def on_mount(self) -> None:
        self.board.focus()
        if self.loaded.damage is not None:
            self.notify(self.loaded.damage.message, title=_("Damaged tail ignored"), severity="warning")
        self._show()
        if self._review_at_once:
            self.action_review()

    def _show(self) -> None:
        self.game = replay(self.loaded.header.setup(), self.moves[: self.step])
        self.board.refresh_game(final_position(self.game))  # at the end, every figure that stood there
        self.scoreboard.show(self.game)
        self.log_panel.clear()
        self.log_panel.add(self.game.events)
        numbers = {"turn": self.turn_number(self.step), "turns": self.turn_number(len(self.moves)),
                   "move": self._move_number(self.step), "moves": self._move_number(len(self.moves))}
        if self.game.phase is Phase.GAME_OVER:
            # Translators: the replay's status line: the turn and the move shown, of how many; at the end
            parts = [_("Replay: turn {turn} of {turns}, move {move} of {moves} (end).").format(**numbers)]
        else:
            # Translators: the replay's status line: the turn and the move shown, of how many
            parts = [_("Replay: turn {turn} of {turns}, move {move} of {moves}.").format(**numbers)]
        if self.playing:
            # Translators: {speed} moves a second (0.5, 2); Space, > and < are keys
            parts.append(_("Playing, {speed} moves/s (Space pauses, > < speed).").format(
                speed=number_words(self.speed)))
        if self.reviewing is not None:
            done, total = self.reviewing
            if total:
                # Translators: the review's progress: {done} turns reviewed of {total}
                parts.append(ngettext("Reviewing: {done} of {total} turns.", "Reviewing: {done} of {total} turns.",
                                      total).format(done=done, total=total))
            else:
                # Translators: the review's progress, before it knows how many turns it reviews
                parts.append(_("Reviewing: {done} of … turns.").format(done=done))
        # Translators: the replay's keys: n/b one move on or back, N/B twenty, Home/End, g, Space, s, v, C
        parts.append(_("n/b ±1, N/B ±20, Home/End, g go to, Space play, s chart, v review, C continue from here"))
        self.status.update(" ".join(parts))

    def turn_number(self, step: int) -> int:
        """The turn people see after *step* log moves: turns are numbered from 1 as the score chart,
        the final scores and ``carcnet replay`` number them, a turn being a placement and the
        deployment (or skip, or recall) after it (two moves); 0 before the first placement."""
        return sum(isinstance(m, PlaceTile) for m in self.moves[:step])

    def _move_number(self, step: int) -> int:
        """The move number people see after *step* log moves: the table's draws are not counted."""
        return sum(not isinstance(m, DrawTile) for m in self.moves[:step])

    @property
    def playing(self) -> bool:
        """Whether the replay plays by itself."""
        return self._timer is not None

    def action_step(self, delta: int) -> None:
        at = self.stops.index(self.step) if self.step in self.stops else len(self.stops) - 1
        self.step = self.stops[max(0, min(len(self.stops) - 1, at + delta))]
        self._show()

    def action_goto(self, step: int) -> None:
        self.step = self.stops[-1] if step < 0 else self.stops[0] if step == 0 else step
        self._show()

    def go_to_move(self, number: int) -> None:
        """Shows the game after move *number* (as the status line counts them; past the end: the end)."""
        self.step = next((p for p in self.stops if self._move_number(p) >= number), self.stops[-1])
        self._show()

    def go_to_turn(self, number: int) -> None:
        """Shows the game after turn *number* (its deployment played; past the end: the end)."""
        self.step = next((p for p in self.stops if self.history.turn_at(p) >= number), self.stops[-1])
        self._show()

    def action_jump(self) -> None:
        """Asks for a turn number and goes there."""
        def chosen(number: int | None) -> None:
            if number is not None:
                self.go_to_turn(number)

        self.app.push_screen(JumpScreen(self.turn_number(len(self.moves)), self.turn_number(self.step)), chosen)

    def action_review(self) -> None:
        """The review by the search bot (:mod:`carcnet.club.review`): shown when made; else made in a
        worker thread (seconds a turn), its progress on the status line, then shown."""
        if self.reviews is not None:
            self._show_review()
            return
        if self.reviewing is not None:
            self.notify(_("The review is under way: its progress is on the status line."), title=_("Review"))
            return
        self.reviewing = (0, 0)
        self._show()
        self.run_worker(self._review, thread=True, exclusive=True, group="review")

    def _review(self) -> None:
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if not worker.is_cancelled:
                self.app.call_from_thread(self._reviewed, done, total)

        reviews = review_log(self.loaded, level=REVIEW_LEVEL, on_turn=progress, stop=lambda: worker.is_cancelled)
        if not worker.is_cancelled:
            self.app.call_from_thread(self._review_done, reviews)

    def _reviewed(self, done: int, total: int) -> None:
        if self.reviewing is None:  # stopped meanwhile
            return
        self.reviewing = (done, total)
        self._show()

    def _review_done(self, reviews: list[TurnReview]) -> None:
        self.reviews, self.reviewing = reviews, None
        self._show()
        if self.app.screen is self:
            self._show_review()

    def _show_review(self) -> None:
        assert self.reviews is not None

        def chosen(turn: int | None) -> None:
            if turn is not None:
                self.go_to_turn(turn - 1)  # the position the turn was played from

        self.app.push_screen(ReviewScreen(self.reviews, self.history, self.names, self.colours, self.loaded.game),
                             chosen)

    def action_continue(self) -> None:
        """Continue from here: a new game at this terminal from the move shown, with the same seats
        (bots stay bots), recorded in a file of its own; the saved game is not changed. While a review
        is under way, asks first whether to stop it (it was dropped without a word)."""
        if self._timer is not None:
            self.action_play()  # pause
        if self.reviewing is None:
            self._continue()
            return
        done, total = self.reviewing
        # Translators: the review's progress, {done} turns reviewed of {total}
        progress = (ngettext("{done} of {total} turns", "{done} of {total} turns", total).format(
            done=done, total=total) if total else _("just begun"))

        def answered(stop: bool | None) -> None:
            if not stop:
                return
            self.workers.cancel_group(self, "review")
            self.reviewing = None
            self._show()
            self.notify(_("The review was stopped; v in the replay starts it again."), title=_("Review"))
            self._continue()

        self.app.push_screen(QuestionScreen(
            _("Stop the review to continue from here?"),
            # Translators: {progress} is "3 of 40 turns" or "just begun"
            _("The hard bot is reviewing this game ({progress}). Continuing from here as a new game stops "
              "it.").format(progress=progress),
            yes=_("Stop it and continue"), no=_("Keep reviewing")), answered)

    def _continue(self) -> None:
        """Asks the app to continue the game from the move shown (it makes and shows the new game)."""
        self.post_message(ContinueGame(self.loaded.header, self.moves, self.step, self.turn_number(self.step)))

    def action_play(self) -> None:
        """Plays from here at :attr:`speed` (from the start when at the end), or pauses."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        else:
            if self.step == self.stops[-1]:
                self.step = self.stops[0]
                self._show()
            self._timer = self.set_interval(1 / self.speed, self._tick)
        self._show()

    def _tick(self) -> None:
        if self.step == self.stops[-1]:
            self.action_play()  # the end: pause
            return
        self.action_step(1)

    def action_speed(self, delta: int) -> None:
        """The next speed up (*delta* 1) or down (-1) of :data:`SPEEDS`."""
        i = SPEEDS.index(self.speed) if self.speed in SPEEDS else 2
        self.speed = SPEEDS[max(0, min(len(SPEEDS) - 1, i + delta))]
        if self._timer is not None:
            self._timer.stop()
            self._timer = self.set_interval(1 / self.speed, self._tick)
        self._show()

    @property
    def history(self) -> ScoreHistory:
        """Every seat's score after each turn of the whole game (computed once)."""
        if self._history is None:
            self._history = score_history(self.loaded.game, self.moves)
        return self._history

    def action_chart(self) -> None:
        """The chart of every seat's score over the game, the move shown marked."""
        marked = self.history.turn_at(self.step)
        reviewed = [(r.turn, r.seat) for r in self.reviews or () if r.marked]
        self.app.push_screen(ChartScreen(self.history, self.names, self.colours, marked, reviewed))

    def action_final(self) -> None:
        from carcnet.tui.screens.final import ProjectionScreen

        self.app.push_screen(ProjectionScreen(self.game, self.names, self.colours))

    def action_back(self) -> None:
        self.dismiss(None)
