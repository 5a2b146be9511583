"""Provides the game screen: the board, the scoreboard with the drawn tile, and the log, for any
:class:`~carcnet.table.Table`: a local game (people taking turns at this terminal, and bots) or a
network game (its players and its spectators).

The screen follows its :class:`~carcnet.tui.running.TableRun`: it redraws after every change the table
reports (moves made here, by a bot or on another laptop; peers coming and going). A person moves only
on the seats played at this terminal, through :meth:`Table.submit`; spectators only watch. At a network
table, seats whose player is not connected are marked *away* and ``b`` gives the away seat to play to
a bot; a desync stop shows its report. Every move is on disk before the screen shows it.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import ClassVar, cast

from rich.markup import escape
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from carcnet.engine import (
    DeployMeeple,
    FairyScored,
    Figure,
    Flock,
    FlockScored,
    Game,
    IllegalMoveError,
    Move,
    Phase,
    PlaceTile,
    PointsScored,
    ReturnAbbot,
    SecondTile,
    SegmentKind,
    SkipMeeple,
    TokenDrawn,
)
from carcnet.engine.expansions import dragon, hills, traders
from carcnet.engine.moves import MoveDragon, MoveFairy, RemoveKnight
from carcnet.i18n import N_, _, decimal, joined, listed, ngettext
from carcnet.log import LogError
from carcnet.table import Table, TableError, think_cap_of
from carcnet.table.netview import NetView
from carcnet.table.words import unconfirmed
from carcnet.tui.render import FIGURE_NAMES, dragon_view, field_sheep, figure_role, role_name
from carcnet.tui.running import TableRun
from carcnet.tui.screens.board_screen import BoardScreen, glyphs_named, number_words
from carcnet.tui.screens.final import FinalScreen, final_position
from carcnet.tui.settings import Settings
from carcnet.tui.widgets.board import BoardView
from carcnet.tui.widgets.footer import KeyFooter
from carcnet.tui.widgets.palette import seat_style
from carcnet.tui.widgets.text_input import TextInput
from carcnet.tui.words import score_words, tile_words, where_words, why_illegal

#: Entries pending (wire.md §5.9) from which the status line says so: one or two are votes on their way.
PENDING_SHOWN = 3

#: What the status line adds when one laptop alone contributes to the table draws (it can compute the
#: tiles before they are drawn): this one, or another player's (in English: shown with ``_()``).
DRAWS_KNOWN_HERE = N_("only your laptop draws the tiles now, so it can know them before they are drawn")
# Translators: {name} is a player's name
DRAWS_KNOWN_TO = N_("only {name}'s laptop draws the tiles now, so it can know them before they are drawn")

__all__ = ["ChatScreen", "DesyncScreen", "GameScreen", "unconfirmed_words"]

#: A figure deployed on a feature, in the status line of a turn to confirm, by the feature's kind (in
#: English, marked: shown with ``_()``); ``{figure}`` is the figure, with its article (``a meeple``).
_DEPLOYED = {
    # Translators: a figure deployed, in the turn to confirm; {figure} is the figure with its article ("a meeple")
    SegmentKind.ROAD: N_("{figure} on the road"),
    # Translators: a figure deployed, in the turn to confirm; {figure} is the figure with its article ("a meeple")
    SegmentKind.CITY: N_("{figure} on the city"),
    # Translators: a figure deployed, in the turn to confirm; {figure} is the figure with its article ("a meeple")
    SegmentKind.FIELD: N_("{figure} on the field"),
    # Translators: a figure deployed, in the turn to confirm; {figure} is the figure with its article ("a meeple")
    SegmentKind.CLOISTER: N_("{figure} on the cloister"),
    # Translators: a figure deployed, in the turn to confirm; {figure} is the figure with its article ("a meeple")
    SegmentKind.RIVER: N_("{figure} on the river"),
    # Translators: a figure deployed, in the turn to confirm; {figure} is the figure with its article ("a meeple")
    SegmentKind.GARDEN: N_("{figure} on the garden"),
}


def unconfirmed_words(whose: str, count: int, names: str) -> str:
    """What the status line adds while moves are pending, by whose they are (*whose*: ``one``, one of
    this laptop's; ``yours``, several of this laptop's; ``moves``, others' only), *count* of them, and
    the players whose laptops have not confirmed them (*names*, in words; ``""``: not known)."""
    if names:
        if whose == "one":
            # Translators: {names} lists the players whose laptops have not confirmed the move
            return _("your last move is not confirmed by {names} yet").format(names=names)
        if whose == "yours":
            # Translators: {count} moves of this laptop; {names} lists the players whose laptops have not
            # confirmed them
            return ngettext("your last {count} moves are not confirmed by {names} yet",
                            "your last {count} moves are not confirmed by {names} yet", count).format(
                count=count, names=names)
        # Translators: {count} moves; {names} lists the players whose laptops have not confirmed them
        return ngettext("the last {count} moves are not confirmed by {names} yet",
                        "the last {count} moves are not confirmed by {names} yet", count).format(
            count=count, names=names)
    if whose == "one":
        return _("your last move is not confirmed by the table yet")
    if whose == "yours":
        # Translators: {count} moves of this laptop
        return ngettext("your last {count} moves are not confirmed by the table yet",
                        "your last {count} moves are not confirmed by the table yet", count).format(count=count)
    # Translators: {count} moves
    return ngettext("the last {count} moves are not confirmed by the table yet",
                    "the last {count} moves are not confirmed by the table yet", count).format(count=count)


class DesyncScreen(ModalScreen[None]):
    """Why a network game stopped here: two peers' logs parted (the :class:`~carcnet.net.sync.Desync`
    report, for the people to compare and for a bug report)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,d", "close", N_("Close")),
        Binding("f12", "bug_report", N_("Bug report"), tooltip=N_("Write one file with the save and this report")),
    ]
    """Escape, Enter or d closes; F12 writes a bug report (the game screen's)."""

    def __init__(self, report: object, path: object = None) -> None:
        super().__init__()
        self.report = report
        self.path = path

    def compose(self) -> ComposeResult:
        r = self.report
        lines = [
            _("[b]The game stopped: the laptops no longer agree on it[/b]"),
            "",
            escape(str(getattr(r, "message", r))),
            "",
        ]
        report = (
            # Translators: a line of the report of a stop; {value}: the protocol's code of what went wrong
            # ("desync", "conflict")
            (N_("What: {value}"), "code"),
            # Translators: a line of the report of a stop; {value}: the move's number in the log
            (N_("Move (seq): {value}"), "seq"),
            # Translators: a line of the report of a stop; {value}: the number of the seat that signed the move
            (N_("Seat: {value}"), "seat"),
            # Translators: a line of the report of a stop; {value}: the name of the peer the move came from
            (N_("From peer: {value}"), "peer"),
            # Translators: a line of the report of a stop; {value}: the name of this peer, which refused the move
            (N_("Refused by: {value}"), "local"),
        )
        for line, attr in report:
            value = getattr(r, attr, None)
            if value is not None:
                lines.append(_(line).format(value=escape(str(value))))
        key = getattr(r, "peer_key", None)
        if key:
            # Translators: {key} is the peer's public key (hex digits)
            lines.append(_("Peer key: {key}").format(key=key.hex()))
        if self.path is not None:
            # Translators: {path} is a file's path
            lines.append(_("Log kept in: {path}").format(path=escape(str(self.path))))
        lines += ["", _("Nothing more is played here. Compare the logs, then leave with q.")]
        with VerticalScroll():
            yield Static("\n".join(lines))
        yield KeyFooter()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_bug_report(self) -> None:
        below = self.app.screen_stack[-2] if len(self.app.screen_stack) > 1 else None
        if isinstance(below, GameScreen):
            below.action_bug_report()


#: How the game's log names a spectator who spoke at the table (protocol/wire.md §4.9a), on every screen
#: (in English: shown with ``_()``).
# Translators: {name} is the name of a spectator who says something at the table
SPECTATOR_SPEAKS = N_("{name} (watching)")


class ChatScreen(ModalScreen["str | None"]):
    """Asks for a line to say at the table; dismissed with it (Enter) or ``None`` (Escape). Every key
    typed goes into its line: nothing reaches the board below.

    Args:
        watching: The person at this laptop watches the game (a spectator): told that the others
            see the line as a spectator's.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, *, watching: bool = False) -> None:
        super().__init__()
        self.watching = watching

    def compose(self) -> ComposeResult:
        with Vertical():
            if self.watching:
                yield Static(_("Say to the table as someone watching: the players and the others watching see "
                               "your line with \"(watching)\" after your name. Enter sends, Escape cancels."))
            else:
                yield Static(_("Say to the table (Enter sends, Escape cancels):"))
            yield TextInput(placeholder=_("a line for everyone at the table"), max_length=200, id="line")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _send(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class _TokensUnseen:
    """*game* (a turn tried, waiting for confirmation, that drew a token from the sheep bag: Hills &
    Sheep) as a board reads it: the shepherds and their sheep of *before* (the game before the
    deployment *deploy*), with the shepherd *deploy* put out standing without a token; anything else
    is *game*'s own (:meth:`GameScreen._tokens_unseen`)."""

    __slots__ = ("_ext", "_game")

    def __init__(self, game: Game, before: Game, deploy: Move) -> None:
        self._game = game
        self._ext = list(game.ext)
        slot = game.expansion_slot(hills.HillsSheep)
        if slot is not None:
            state = before.ext[slot].copy()
            placed = before.tile_at(before.placed) if before.placed is not None else None
            if isinstance(deploy, DeployMeeple) and deploy.figure is Figure.SHEPHERD and placed is not None:
                state.shepherds[before.seat] = placed.base + deploy.segment
                state.flocks[before.seat] = []
            self._ext[slot] = state

    @property
    def ext(self) -> list[object]:
        return self._ext

    def __getattr__(self, name: str) -> object:
        return getattr(self._game, name)


class GameScreen(BoardScreen):
    """A game: the board, scoreboard and log, kept up to date from *run*'s table.

    Turn confirmation: with the settings' ``confirm`` on, the placement and the deployment chosen on the
    board are tried on a copy of the game (:meth:`carcnet.engine.Game.copy`) and shown, but nothing
    is submitted (so at a network table nothing is signed or sent) until the player confirms the
    turn; before that, undo takes back the deployment, then the placement. A change of the game
    meanwhile (a handover of the seat, a desync) drops the turn not confirmed.

    Args:
        run: The running table (a network table's game has started).
        settings: The player's settings: ``confirm`` (off, every choice on the board is submitted at
            once), ``glyphs``, ``bell``.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "confirm", N_("Confirm turn"), tooltip=N_("Play the tile and the deployment as shown")),
        Binding("backspace,u", "undo", N_("Undo"), key_display="⌫",
                tooltip=N_("Take back the deployment, then the placement (before the turn is confirmed)")),
        Binding("y", "second_tile(1)", N_("Take it"), tooltip=N_("Draw and place the second tile your builder gives you")),
        Binding("n", "second_tile(0)", N_("Leave it"), tooltip=N_("Decline the builder's second tile: the next player's turn")),
        Binding("g", "flock(1)", N_("Grow the flock"),
                tooltip=N_("Draw another token from the sheep bag for your shepherd's flock (a wolf scatters it)")),
        Binding("s", "flock(0)", N_("Score the flock"),
                tooltip=N_("Herd the flock into the stable: every shepherd in the field scores 1 a sheep and "
                           "comes back")),
        Binding("p", "projection", N_("If it ended now"), tooltip=N_("Projected final scores with their breakdown")),
        Binding("f", "final", N_("Final scores"), tooltip=N_("The final score table again")),
        Binding("t", "bag", N_("Bag"), show=False, tooltip=N_("The tiles left in the bag: designs and counts")),
        Binding("slash", "chat", N_("Chat"), key_display="/", tooltip=N_("Say something to the others at the table")),
        Binding("d", "report", N_("Stop report"), tooltip=N_("Why the game stopped")),
        Binding("b", "hand_over", N_("Seat to a bot"),
                tooltip=N_("The player to move is gone for good: a greedy bot run here plays their seat")),
        Binding("left_square_bracket", "live_replay", N_("Replay"), key_display="[",
                tooltip=N_("Step back through the game so far while it goes on; Esc comes back to the present")),
        Binding("question_mark", "help", N_("Help"), key_display="?"),
        Binding("f12", "bug_report", N_("Bug report"), show=False,
                tooltip=N_("Write one file with the save, versions, settings and the screen (docs/bug-reports.md)")),
        Binding("q", "leave", N_("Menu"), tooltip=N_("Back to the menu; the game is saved and can be resumed")),
        Binding("q", "leave_network", N_("Leave"),
                tooltip=N_("Leave the game (a player is asked: stay, keep the seat to resume it, or give it to a bot)")),
        Binding("ctrl+c", "leave_network", N_("Leave"), show=False,
                tooltip=N_("As q: a player is asked first")),
    ]
    """Enter confirms the turn shown, Backspace or ``u`` takes back its last step (with
    confirmation on); ``y`` and ``n`` answer the builder's second tile (Traders & Builders), ``g`` and
    ``s`` the flock's question (Hills & Sheep: grow it or score it), each only while asked (the
    board's keys move the dragon when its step is asked, and choose the princess's knight or the
    fairy's follower: The Princess & the Dragon); ``p``
    projected scores; ``d`` the stop report (after a desync); ``b`` hands the seat of an away
    player to a bot (a ``handover`` entry); ``[`` the game so far in a replay over the live table (Escape
    comes back); ``?`` help; F12 a bug report; ``q`` back to the menu (a network game: leave
    it: a player of a game going on is asked first, :class:`~carcnet.tui.screens.leave.LeaveScreen`, as on
    Ctrl+C and on quitting the app)."""

    #: The answers to an expansion's question come first too: shown only while asked, never cut.
    FOOTER_FIRST = (*BoardScreen.FOOTER_FIRST, "second_tile(1)", "second_tile(0)", "flock(1)", "flock(0)",
                    "dragon", "pick('princess')", "pick('fairy')", "pick('portal')", "pick_selected", "pick('')")

    def __init__(self, run: TableRun, *, settings: Settings | None = None, data_dir: Path | None = None) -> None:
        table = run.table
        game = table.game
        assert game is not None, "the game has not started"
        settings = settings if settings is not None else Settings()
        super().__init__(game, table.names, table.colours, glyphs=glyphs_named(settings.glyphs))
        self.settings = settings
        #: The data folder: F12's bug reports go in its ``reports`` (``None``: beside the save).
        self.data_dir = data_dir
        self.run = run
        self._game: Game | None = None
        self._logged = 0
        self._last_note: str | None = table.notes[-1] if table.notes else None
        self._rotation: int | None = None
        self._pending = False
        self._final_shown = False
        self._final_position: tuple[Game, Game] | None = None
        self._report_shown = False
        self._left = False
        self._offered: tuple[bool, ...] = ()
        #: Whether a turn waits for confirmation (the settings' ``confirm``).
        self.confirm = settings.confirm
        # the search bots this laptop runs (the settings): each level's own cap, or the one chosen
        table.think_cap = None if settings.think_cap == "level" else float(settings.think_cap)
        table.ponder = settings.ponder
        #: The moves of this turn not confirmed yet, and the game after each (copies of the table's).
        self._provisional: list[Move] = []
        self._trials: list[Game] = []
        self._trial_base: tuple[Game, int] | None = None
        self._was_mine = False
        self._chats_seen = 0

    @property
    def table(self) -> Table:
        """The game this screen shows."""
        return self.run.table

    @property
    def local_seats(self) -> set[int]:
        """The seats played by people at this terminal."""
        return set(self.table.human_seats)

    def on_mount(self) -> None:
        self.run.watch(self._changed)
        self.set_interval(0.25, self._thinking_tick)  # the search bot's clock on the status line
        if self.table.recovery is not None:
            self.notify(self.table.recovery.message, title=_("Saved game repaired"), severity="warning", timeout=10)
        self.board.focus()
        self.redraw()

    def on_screen_resume(self) -> None:
        """Back on top (a replay, the help, a dialog closed): what came meanwhile, the final scores
        included, is shown now."""
        if not self._left and self._game is not None:
            self._changed("resume")

    def _thinking_tick(self) -> None:
        if self.table.thinking is not None and self.is_attached and not self._left:
            self._show_status()

    def on_unmount(self) -> None:
        self.run.watch(None)

    # ----------------------------------------------------------------------- following the game

    def _changed(self, change: str) -> None:
        if change == "clock":  # only the clocks' figures moved: the scoreboard, not the board
            self.call_later(self._show_scores)
            return
        if change == "note" and self._game is not None:
            self._log_new()  # now: the note follows the moves made before it, not those made right after
        if not self._pending:
            self._pending = True
            self.call_later(self.redraw)

    def my_turn(self) -> bool:
        """Whether a person at this terminal is to move now."""
        return self.table.my_turn()

    def redraw(self) -> None:
        """Brings every panel up to date with the game, and does what follows from it."""
        self._pending = False
        if not self.is_attached or self._left:
            return
        table = self.table
        game = table.game
        if game is None:
            return
        self._log_new()
        mine = self.my_turn()
        if mine and not self._was_mine and table.kind != "local" and self.settings.bell:
            self.app.bell()  # the turn comes to this laptop at a network table (the settings' bell)
        self._was_mine = mine
        if self._provisional and (self._trial_base != (game, len(game.moves)) or not mine
                                  or table.desync is not None):
            if not (mine and table.desync is None and self._try_again(game)):
                self._drop_turn()
                self.notify(_("The game changed before you confirmed: your turn is back to its start."),
                            title=_("Turn not played"), severity="warning")
        shown = self.shown_game
        confirming = self.confirming
        self.board.interactive = mine and not confirming
        self.board.letter_keys = not table.spectating  # a spectator's letters are typing, not moves
        self.board.refresh_game(self._drawn_position(self._tokens_unseen(shown)))
        self._show_scores()
        self._show_status()
        offered = (table.desync is not None, table.seat_to_hand_over() is not None, game.phase is Phase.GAME_OVER,
                   bool(self._provisional), confirming, bool(game.moves))
        if offered != self._offered:  # the footer is redrawn only when what it offers changes
            self._offered = offered
            self.refresh_bindings()
        if table.desync is not None and not self._report_shown:
            self._report_shown = True
            self.action_report()
        if game.phase is Phase.GAME_OVER:
            self._show_final()
        elif mine and game.phase is Phase.DEPLOY and not self._provisional and game.legal_moves() == [SkipMeeple()]:
            self._submit(SkipMeeple())  # nothing to choose: no figure left or no free segment, no abbot to recall

    @property
    def shown_game(self) -> Game:
        """The game on the board: the table's, or with the turn not confirmed yet tried on it."""
        if self._trials:
            return self._trials[-1]
        game = self.table.game
        assert game is not None
        return game

    def _tokens_unseen(self, shown: Game) -> Game:
        """*shown* as the board draws it while a turn waits for confirmation after it drew a token
        from the sheep bag (Hills & Sheep: a shepherd deployed): the shepherds and their sheep as
        before the deployment, the shepherd just deployed standing with none. The token is the table's
        to show once the turn is played: seen before, it could be undone and another turn chosen
        knowing the bag's next token (as the next tile is never shown before the turn is played)."""
        game = self.table.game
        if not self.confirming or game is None or not any(
                isinstance(e, TokenDrawn) for e in shown.events[len(game.events):]):
            return shown
        before = self._trials[-2] if len(self._trials) > 1 else game
        return cast(Game, _TokensUnseen(shown, before, self._provisional[-1]))

    def _drawn_position(self, game: Game) -> Game:
        """What the board draws of *game*: at the end, the final position with every figure that stood
        on the board before the final scoring (:func:`~carcnet.tui.screens.final.final_position`),
        made once."""
        if game.phase is not Phase.GAME_OVER:
            return game
        if self._final_position is None or self._final_position[0] is not game:
            self._final_position = (game, final_position(game))
        return self._final_position[1]

    def _show_scores(self) -> None:
        if not self.is_attached or self._left or self.table.game is None:
            return
        note = _("Enter confirms the turn") if self.confirming else None
        table = self.table
        clocks = {seat: text for seat in range(len(self.names)) if (text := table.seat_clock(seat)) is not None}
        self.scoreboard.show(self._scored_game(), self._rotation if self.my_turn() else None, self.marks(), note,
                             clocks or None)

    def _scored_game(self) -> Game:
        """The game the scoreboard shows: the board's, except that a whole turn waiting for
        confirmation is shown before its deployment (after it, the next tile would be drawn)."""
        if self.confirming:
            return self._trials[-2] if len(self._trials) > 1 else self.table.game  # type: ignore[return-value]
        return self.shown_game

    @property
    def confirming(self) -> bool:
        """Whether the whole turn is chosen and waits for the player's confirmation."""
        return bool(self._provisional) and not isinstance(self._provisional[-1], PlaceTile)

    def _log_new(self) -> None:
        """Writes what came since the last time into the log panel, in order: the game's events, then
        the table's notes and chats."""
        game = self.table.game
        if game is None or not self.is_attached or self._left:
            return
        if game is not self._game:  # first time, or a network session rebuilt its game after a mismatch
            if self._game is None:
                self.log_panel.add(game.events)
            self._game = game
            self._logged = len(game.events)
        elif len(game.events) > self._logged:
            self.log_panel.add(game.events[self._logged :])
            self._logged = len(game.events)
        self._log_notes()
        self._log_chats()

    def _log_notes(self) -> None:
        """Writes the table's notes for people (peers connecting, leaving…) that came since the last time."""
        notes = self.table.notes
        new: list[str] = []
        for note in reversed(notes):
            if note is self._last_note:
                break
            new.append(note)
        for note in reversed(new):
            self.log_panel.write(Text(note, style="dim italic"))
        if notes:
            self._last_note = notes[-1]

    def _log_chats(self) -> None:
        """Writes the table talk that came since the last time into the log panel: ``Bob: text``."""
        table = self.table
        made = table.chats_made
        if made == self._chats_seen:
            return
        lines = table.chats()
        for talk in lines[max(0, len(lines) - (made - self._chats_seen)):]:
            if talk.seat is None:  # a spectator's line: marked so on every screen (wire.md §4.9a)
                line = Text(_(SPECTATOR_SPEAKS).format(name=talk.spectator), style="dim")
            else:
                line = Text(self.names[talk.seat], style=seat_style(self.colours[talk.seat]))
            line.append(": ")
            line.append(talk.text, style="italic")
            self.log_panel.write(line)
        self._chats_seen = made

    def action_chat(self) -> None:
        """Asks for a line and says it to the table (protocol/wire.md §4.9; a spectator's, §4.9a)."""
        def said(text: str | None) -> None:
            if not text:
                return
            try:
                self.table.say(text)
            except (TableError, ValueError) as exc:
                self.notify(str(exc), title=_("Not sent"), severity="error")

        self.app.push_screen(ChatScreen(watching=self.table.spectating), said)

    def marks(self) -> dict[int, str]:
        """Seat → what the scoreboard says after its name: ``bot`` at a local table; ``you``, ``bot``,
        ``your bot`` and ``away`` at a network table."""
        table = self.table
        if table.kind == "local":
            # Translators: after a seat's name on the scoreboard: a bot plays it
            return {seat: _("bot") for seat in table.bot_seats}
        away = set(table.away())
        mine = set(table.my_seats)
        out = {}
        for seat in range(len(self.names)):
            parts = []
            if seat in table.bot_seats:
                # Translators: after a seat's name on the scoreboard: a bot of this laptop plays it
                parts.append(_("your bot") if seat in mine
                             # Translators: after a seat's name on the scoreboard: a bot plays it
                             else _("bot"))
            elif seat in mine:
                # Translators: after a seat's name on the scoreboard: the person at this laptop plays it
                parts.append(_("you"))
            if seat in away:
                # Translators: after a seat's name on the scoreboard: its laptop is not connected (the
                # scoreboard shows it in red when its text holds this word)
                parts.append(_("away"))
            if parts:
                out[seat] = joined(parts)
        return out

    def _show_status(self) -> None:
        table = self.table
        game = table.game
        run = self.run
        if game is None:
            return
        if table.desync is not None:
            self.status.update(_("[b red]The game stopped[/]: the laptops no longer agree on it (d: the report, "
                                 "q: leave)"))
            return
        if game.phase is Phase.GAME_OVER:
            self.status.update(_("Game over: f shows the final scores, q for the menu") if table.kind == "local"
                               else _("Game over: f shows the final scores, q to leave"))
            return
        if table.failure is not None and table.kind == "local":
            # Translators: {reason} says why the game cannot go on (a saving error, a bot's failure)
            self.status.update(_("[b red]Paused[/]: {reason}").format(reason=escape(table.failure)))
            return
        if not run.running and not run.stopping:
            if run.error is not None:
                # Translators: {reason} says why the table stopped (a network error)
                self.status.update(_("[b red]Disconnected[/]: {reason}. q leaves; the game can be resumed from the "
                                     "menu.").format(reason=escape(str(run.error))))
            else:
                self.status.update(_("[b red]Disconnected[/]. q leaves; the game can be resumed from the menu."))
            return
        if table.cut_off:
            self.status.update(_("[b red]You are cut off from the table[/]: no other player is connected to this "
                                 "laptop; the game goes on when they are back"))
            return
        seat = game.actor if game.phase is Phase.STEP else game.seat  # a step may ask another seat
        who = f"[{seat_style(self.colours[seat])}]{escape(self.names[seat])}[/]"
        suffix = self._status_notices()
        moving = game.phase is Phase.STEP and isinstance(game.steps[0], dragon.DragonMove)
        if game.phase is Phase.DRAW:
            self.status.update(self._watching(self._draw_status(who)) + suffix)
            return
        if self.my_turn() and self._provisional:
            text = self._player_prompt(who, self._turn_prompt())
        elif self.my_turn():
            if game.phase is Phase.PLACE_TILE:
                # Translators: the keys that place a tile: Tab, r, Enter, the arrows and z are keys
                keys = _("Tab next spot, r rotate, Enter place, arrows move, z zoom")
                # Translators: {player} is the name of the player to move; {keys} the keys that place the tile
                text = (_("{player}: your builder's second tile: place it: {keys}") if traders.second_tile(game)
                        # Translators: {player} is the name of the player to move; {keys} the keys that place
                        # the tile
                        else _("{player} to place: {keys}")).format(player=who, keys=keys)
            elif game.phase is Phase.STEP and isinstance(game.steps[0], hills.FlockChoice):
                text = self._flock_prompt(game, who)
            elif moving:
                text = self._dragon_prompt(game, who)
            elif game.phase is Phase.STEP and isinstance(game.steps[0], traders.SecondTileChoice):
                # Translators: {player} is the name of the player to move; y and n are the keys that answer
                text = _("{player}: your builder gives you a second tile: y take it, n leave it").format(player=who)
            else:
                text = self._player_prompt(who, self._deploy_prompt())
        elif seat in table.away():
            if table.seat_to_hand_over() == seat:
                # Translators: {player} is the name of the player whose laptop is gone (twice); \\[b] shows
                # the key b
                gone = _("{player}'s laptop is gone. Wait, or let a bot play for {player} \\[b]")
                text = self._watching(gone.format(player=who))
            else:
                # Translators: {player} is the name of the player whose laptop is gone
                text = self._watching(_("{player}'s laptop is gone: the game goes on when it is back").format(
                    player=who))
        elif seat in table.bot_seats:
            # Translators: {player} is the name of the seat a bot plays
            text = (self._watching(_("{player} (bot) is thinking…").format(player=who)) if table.kind != "local"
                    # Translators: {player} is the name of the seat a bot plays
                    else _("{player} is thinking…").format(player=who))
            thinking = table.thinking
            if thinking is not None and thinking[0] == seat:  # a search bot here, off the event loop
                level = table.seats[seat].bot or "search"
                cap = think_cap_of(table, seat)
                seconds = decimal(time.monotonic() - thinking[1], 1)
                if cap:
                    # Translators: {player} is the seat's name, {level} the bot's level (greedy, hard: the
                    # name of the bot, as the command line names it), {seconds} how long it has thought, {cap}
                    # the most it may
                    thought = _("{player} ({level} bot) is thinking… {seconds} s (at most {cap} s)").format(
                        player=who, level=level, seconds=seconds, cap=number_words(cap))
                else:
                    # Translators: {player} is the seat's name, {level} the bot's level (greedy, hard: the
                    # name of the bot, as the command line names it), {seconds} how long it has thought
                    thought = _("{player} ({level} bot) is thinking… {seconds} s").format(
                        player=who, level=level, seconds=seconds)
                text = self._watching(thought)
        elif moving:
            step, steps = self._dragon_step(game)
            # Translators: the status line while another player moves the dragon (The Princess & the Dragon);
            # {player} is that player's name, {step} the step (1 to 6) of {steps} (6)
            text = self._watching(_("waiting for {player} to move the dragon: step {step} of {steps}…").format(
                player=who, step=step, steps=steps))
        else:
            # Translators: {player} is the name of the player to move
            text = self._watching(_("waiting for {player}…").format(player=who))
        self.status.update(text + suffix)

    @staticmethod
    def _dragon_step(game: Game) -> tuple[int, int]:
        """The step of the dragon's movement asked now (from 1) and the steps of a movement (6)."""
        return max(1, len(dragon_view(game).path)), dragon.DRAGON_STEPS

    def _dragon_prompt(self, game: Game, who: str) -> str:
        """The dragon's step asked of a person here (The Princess & the Dragon): which step, and the keys."""
        step, steps = self._dragon_step(game)
        # Translators: the status line when the player moves the dragon (The Princess & the Dragon): {player}
        # is the player's name, {step} the step (1 to 6) of {steps} (6), {count} the tiles it may go to
        # (tinted on the board); Tab, the arrows and Enter are keys
        said = ngettext("{player}: move the dragon: step {step} of {steps}. {count} tile it may go to, tinted: "
                        "Tab or the arrows, then Enter (or a click)",
                        "{player}: move the dragon: step {step} of {steps}. {count} tiles it may go to, tinted: "
                        "Tab or the arrows, then Enter (or a click)", len(self.board.targets))
        return said.format(player=who, step=step, steps=steps, count=len(self.board.targets))

    @staticmethod
    def _flock_prompt(game: Game, who: str) -> str:
        """The flock's question (Hills & Sheep) on the status line: the flock's sheep, and the keys."""
        sheep = field_sheep(game, game.actor)
        # Translators: the flock's question (Hills & Sheep): {player} is the name of the player to move,
        # {count} the sheep in that field, which scoring the flock gives (digits); g and s are the keys
        # that answer
        said = ngettext("{player}: your tile extends your shepherd's field ({count} sheep): g grow the flock, "
                        "s score it", "{player}: your tile extends your shepherd's field ({count} sheep): g grow the "
                        "flock, s score it", sheep)
        return said.format(player=who, count=sheep)

    def _watching(self, text: str) -> str:
        """*text* (what the game waits for) on the status line, marked as watched by a spectator."""
        if not self.table.spectating:
            return text
        # Translators: the status line of a spectator: {status} is what the game waits for ("waiting for Ann…")
        return _("Watching: {status}").format(status=text)

    @staticmethod
    def _player_prompt(who: str, prompt: str) -> str:
        """The status line of a player to move at this terminal: *who* (the name), *prompt*."""
        # Translators: {player} is the name of the player to move; {prompt} what they may do now
        return _("{player}: {prompt}").format(player=who, prompt=prompt)

    def _status_notices(self) -> str:
        """What the status line adds after what the game waits for, each after a ``·``: that one laptop
        alone draws the tiles now (it can know them first); that moves are not confirmed yet by the
        players named (wire.md §5.9: pending, from :data:`PENDING_SHOWN` on, as one or two are votes on
        their way)."""
        table = self.table
        notices = []
        known = table.draws_known_to()
        if known == "you":
            notices.append(_(DRAWS_KNOWN_HERE))
        elif known is not None:
            notices.append(_(DRAWS_KNOWN_TO).format(name=escape(known)))
        if isinstance(table, NetView) and table.pending >= PENDING_SHOWN:
            pending = unconfirmed(table)
            mine = set(table.my_seats)  # their votes are this laptop's own, on their way
            names = joined(
                escape(self.names[s]) for s in pending.by if s not in mine and s < len(self.names))
            whose = "one" if pending.own == 1 else "yours" if pending.own else "moves"
            notices.append(unconfirmed_words(whose, pending.own or pending.pending, names))
        return "".join(f" · [b]{notice}[/]" for notice in notices)

    def _turn_prompt(self) -> str:
        """What the status line says while a turn waits for confirmation: what it plays and scores."""
        if not self.confirming:
            # Translators: {prompt} is what the player may do while deploying ("a digit … deploys a meeple …")
            return _("{prompt}; Backspace takes the tile back").format(prompt=self._deploy_prompt())
        moves = self._provisional
        done = []
        for move in moves:
            if isinstance(move, PlaceTile):
                # Translators: a tile placed: {tile} is the tile in words ("a tile with a city and a road"),
                # {where} where it goes ("just north of the start tile")
                done.append(_("{tile} {where}").format(tile=tile_words(move.tile),
                                                       where=where_words(move.position)))
            elif isinstance(move, DeployMeeple):
                trial = self._scored_game()
                assert trial.placed is not None
                info = trial.feature_at(move.at or trial.placed, move.segment)
                deployed = _(_DEPLOYED[info.kind]).format(figure=FIGURE_NAMES[move.figure])
                if move.at is not None:
                    # Translators: a follower deployed through the magic portal, in the turn to confirm;
                    # {deployed}: "a meeple on the city", {where}: where that tile is ("in the north-west")
                    deployed = _("{deployed} through the portal, {where}").format(
                        deployed=deployed, where=where_words(move.at))
                done.append(deployed)
            elif isinstance(move, ReturnAbbot):
                done.append(_("the abbot taken back"))
            elif isinstance(move, RemoveKnight):
                # Translators: a turn to confirm (The Princess & the Dragon): the princess sends a knight home;
                # {x},{y}: the knight's tile
                done.append(_("the princess sends the knight at {x},{y} home").format(
                    x=move.position.x, y=move.position.y))
            elif isinstance(move, MoveFairy):
                # Translators: a turn to confirm (The Princess & the Dragon): the fairy goes next to a follower;
                # {x},{y}: the follower's tile
                done.append(_("the fairy next to your follower at {x},{y}").format(
                    x=move.position.x, y=move.position.y))
            else:
                done.append(_("no meeple"))
        game = self.table.game
        assert game is not None
        first = len(game.events)
        trial = self._trials[-1]
        # what the turn itself scores; the final scoring of a last turn is the final scores' to show
        new = trial.events[first:]
        # a flock scored after a token drawn for this turn would tell the token: said once played
        drawn = any(isinstance(e, TokenDrawn) for e in new)
        points = [e for e in new if (isinstance(e, PointsScored | FairyScored)
                                     or (isinstance(e, FlockScored) and not drawn)) and not e.final]
        # Translators: what a turn scores: {players} lists who score, {points} the points and the feature
        # ("+8: city, 3 tiles, 1 pennant")
        scored = "; ".join(_("{players} {points}").format(players=listed([escape(self.names[s]) for s in e.seats]),
                                                          points=escape(score_words(e)))
                           for e in points)
        turn = escape(joined(done))
        if scored:
            # Translators: {turn} is the turn in words (the tile, where, the meeple); {scores} what it scores
            turn = _("{turn} ({scores})").format(turn=turn, scores=scored)
        if trial.phase is Phase.GAME_OVER:
            # Translators: {turn} is the turn in words (the tile, where, the meeple, what it scores)
            turn = _("{turn}; it is the last tile: the game ends and the final scoring shows next").format(
                turn=turn)
        # Translators: {turn} is the turn to confirm in words (the tile, where, the meeple, what it scores);
        # Enter and Backspace are keys
        return _("[b]Enter confirms[/]: {turn}; Backspace undoes").format(turn=turn)

    def _draw_status(self, who: str) -> str:
        """What the status line says while the table draws (protocol/wire.md §5.7): a moment, unless
        a seat's value does not come."""
        table = self.table
        missing = table.draw_waits_for()
        game = table.game
        if game is not None and game.steps and isinstance(game.steps[0], hills.TokenDraw):
            return self._token_draw_status(who, missing)
        if not missing:
            # Translators: {player} is the name of the player whose tile is drawn
            return _("drawing {player}'s tile…").format(player=who)
        away = set(table.away())
        names = joined(
            f"[{seat_style(self.colours[s])}]{escape(self.names[s])}[/]" for s in missing)
        if not away & set(missing):
            # Translators: {player} is the name of the player whose tile is drawn; {names} lists the players
            # whose laptops' parts of the draw have not come
            return _("drawing {player}'s tile: waiting for {names}'s part of the draw…").format(
                player=who, names=names)
        seat = table.seat_to_hand_over()
        if seat in missing:
            name = f"[{seat_style(self.colours[seat])}]{escape(self.names[seat])}[/]"
            # Translators: {player} is the name of the player whose tile is drawn; {names} lists the players
            # whose laptops' parts of the draw have not come; {name} the player a bot may play for; \\[b]
            # shows the key b
            return _("drawing {player}'s tile: {names}'s part of the draw has not come. Wait, or let a bot play for "
                     "{name} \\[b]").format(player=who, names=names, name=name)
        # Translators: {player} is the name of the player whose tile is drawn; {names} lists the players
        # whose laptops' parts of the draw have not come
        return _("drawing {player}'s tile: waiting for {names}'s part of the draw, which has not come").format(
            player=who, names=names)

    def _token_draw_status(self, who: str, missing: list[int]) -> str:
        """What the status line says while the table draws a token from the sheep bag (Hills & Sheep,
        ``protocol/deck.md`` §7): a moment, unless a seat's value does not come."""
        if not missing:
            # Translators: the table draws a token from the sheep bag (Hills & Sheep); {player} is the name of
            # the player whose shepherd's flock it goes to
            return _("drawing a token from the sheep bag for {player}'s flock…").format(player=who)
        names = joined(f"[{seat_style(self.colours[s])}]{escape(self.names[s])}[/]" for s in missing)
        seat = self.table.seat_to_hand_over()
        if seat in missing:
            name = f"[{seat_style(self.colours[seat])}]{escape(self.names[seat])}[/]"
            # Translators: {player} is the name of the player whose flock the token goes to (Hills & Sheep);
            # {names} lists the players whose laptops' parts of the draw have not come; {name} the player a
            # bot may play for; \\[b] shows the key b
            return _("drawing a token from the sheep bag for {player}'s flock: {names}'s part of the draw has "
                     "not come. Wait, or let a bot play for {name} \\[b]").format(
                player=who, names=names, name=name)
        # Translators: {player} is the name of the player whose flock the token goes to (Hills & Sheep);
        # {names} lists the players whose laptops' parts of the draw have not come
        return _("drawing a token from the sheep bag for {player}'s flock: waiting for {names}'s part of the "
                 "draw…").format(player=who, names=names)

    def _deploy_prompt(self) -> str:
        """What the person to move may do while deploying: the figure the numbers are for, the abbot's
        choices (The Abbot), the princess and the fairy (The Princess & the Dragon), skipping."""
        board = self.board
        if board.picks:
            return self._pick_prompt()
        figure = FIGURE_NAMES[board.figure]
        # Translators: {figure} is the figure the digits deploy, with its article ("a meeple", "the abbot")
        parts = [_("a digit (or Tab, Enter) deploys {figure} on that spot").format(figure=figure) if board.spots
                 # Translators: {figure} is the figure to deploy, with its article ("a meeple", "the abbot")
                 else _("no spot for {figure}").format(figure=figure)]
        nxt = board.next_figure()
        if nxt is not None:
            # Translators: {figure} is the figure the key a switches to, with its article ("the abbot")
            parts.append(_("a: {figure} instead").format(figure=FIGURE_NAMES[nxt]))
        where = board.recall_at
        if where is not None:
            # Translators: {x},{y}: where the abbot stands on the board
            parts.append(_("A: recall the abbot from {x},{y}").format(x=where.x, y=where.y))
        if board.can_pick("princess"):
            # Translators: a key while deploying (The Princess & the Dragon); x is the key
            parts.append(_("x: the princess sends a knight home"))
        if board.can_pick("fairy"):
            # Translators: a key while deploying (The Princess & the Dragon); m is the key
            parts.append(_("m: move the fairy"))
        if board.can_pick("portal"):
            # Translators: a key while deploying (The Princess & the Dragon's magic portal); o is the key
            parts.append(_("o: a follower through the portal"))
        # Translators: the last of the keys while deploying (0 and Space are keys)
        parts.append(_("0 or Space skips"))
        return joined(parts)

    def _pick_prompt(self) -> str:
        """While choosing the princess's knight or the fairy's follower: the figures by number."""
        board = self.board
        game = self.shown_game
        listed_figures = []
        if board.pick == "portal":
            count = len(board.picks)
            # Translators: choosing where a follower goes through the magic portal (The Princess & the
            # Dragon); {count}: the spots on other tiles (digits); Tab, Enter and Escape are keys
            return ngettext("a follower through the portal: {count} spot on other tiles, 1 to 9 numbered. A digit, "
                            "or Tab then Enter, or a click; Escape goes back",
                            "a follower through the portal: {count} spots on other tiles, 1 to 9 numbered. A digit, "
                            "or Tab then Enter, or a click; Escape goes back", count).format(count=count)
        for number, (position, segment) in enumerate(board.picks, 1):
            if board.pick == "princess":
                owner = next((s for s, _f, p, seg in game.figures() if p == position and seg == segment), game.seat)
                # Translators: a knight the princess may send home, by its number: {number} (a digit), {player}
                # its owner's name, {x},{y} its tile
                listed_figures.append(_("{number}: {player}'s knight at {x},{y}").format(
                    number=number, player=escape(self.names[owner]), x=position.x, y=position.y))
                continue
            tile = game.tile_at(position)
            kind = tile.variant.segments[segment].kind if tile is not None else SegmentKind.CITY
            # Translators: a follower of the player's the fairy may go next to, by its number: {number} (a
            # digit), {role} its role with its article ("a thief"), {x},{y} its tile
            listed_figures.append(_("{number}: {role} at {x},{y}").format(
                number=number, role=role_name(figure_role(kind)), x=position.x, y=position.y))
        figures = joined(listed_figures)
        if board.pick == "princess":
            # Translators: choosing the knight the princess sends home (The Princess & the Dragon); {figures}
            # lists them by number; Tab, Enter and Escape are keys
            return _("the princess sends a knight home: {figures}. A digit, or Tab then Enter, or a click; "
                     "Escape goes back").format(figures=figures)
        # Translators: choosing the follower the fairy goes next to (The Princess & the Dragon); {figures}
        # lists them by number; Tab, Enter and Escape are keys
        return _("the fairy goes next to: {figures}. A digit, or Tab then Enter, or a click; Escape goes "
                 "back").format(figures=figures)

    def _show_final(self) -> None:
        game = self.table.game
        if self._final_shown or game is None or self.app.screen is not self:
            return  # once this screen is on top again (a replay, the help or the chat over it)
        self._final_shown = True
        self.action_final()

    # ----------------------------------------------------------------------- moving

    def _submit(self, move: Move) -> bool:
        """Submits *move* to the table; says why not and returns False when it is refused."""
        try:
            self.table.submit(move)
        except IllegalMoveError as exc:
            self.notify(why_illegal(exc.reason), title=_("Not allowed"), severity="error")
            return False
        except TableError as exc:
            self.notify(str(exc), title=_("Not your move"), severity="warning")
            return False
        except (OSError, LogError) as exc:
            # Translators: {reason} is the system's or the log's error
            self.notify(_("Could not save the move: {reason}").format(reason=exc), severity="error", timeout=15)
            return False
        return True

    def _choose(self, move: Move) -> None:
        """A choice made on the board: submitted at once, or with confirmation on tried on a copy of
        the game and shown until the turn is confirmed or undone."""
        if not self.confirm:
            self._submit(move)
            return
        game = self.table.game
        assert game is not None
        trial = self.shown_game.copy()
        try:
            trial.apply(move)
        except IllegalMoveError as exc:
            self.notify(why_illegal(exc.reason), title=_("Not allowed"), severity="error")
            return
        if not self._provisional:
            self._trial_base = (game, len(game.moves))
        self._provisional.append(move)
        self._trials.append(trial)
        if trial.phase is Phase.DEPLOY and trial.legal_moves() == [SkipMeeple()]:
            self._choose(SkipMeeple())  # nothing to deploy: the turn is whole, to confirm
            return
        self.redraw()

    def _try_again(self, game: Game) -> bool:
        """The tried turn on the game as it is now (something else was appended meanwhile, e.g. a
        handover of another seat): kept if every step of it is still legal there."""
        trials = []
        current = game
        for move in self._provisional:
            current = current.copy()
            try:
                current.apply(move)
            except IllegalMoveError:
                return False
            trials.append(current)
        self._trials = trials
        self._trial_base = (game, len(game.moves))
        return True

    def _drop_turn(self) -> None:
        self._provisional.clear()
        self._trials.clear()
        self._trial_base = None

    def action_confirm(self) -> None:
        """Plays the turn shown: its moves are submitted (signed and sent at a network table) in order."""
        if not self.confirming:
            return
        moves = list(self._provisional)
        self._drop_turn()
        for move in moves:
            if not self._submit(move):
                break
        self.redraw()

    def action_second_tile(self, take: int) -> None:
        """Answers the builder's second tile (Traders & Builders, rules 5 on): take it or leave it."""
        if self.check_action("second_tile", ()):
            self._submit(SecondTile(bool(take)))

    def action_flock(self, grow: int) -> None:
        """Answers the flock's question (Hills & Sheep): grow the flock (a token drawn) or score it."""
        if self._asks_flock():
            self._submit(Flock(bool(grow)))

    def _asks_flock(self) -> bool:
        """Whether the flock's question is asked of a person here now (Hills & Sheep)."""
        game = self.table.game
        return (game is not None and game.phase is Phase.STEP and isinstance(game.steps[0], hills.FlockChoice)
                and self.my_turn() and not self._provisional)

    def action_undo(self) -> None:
        """Takes back the last step of the turn not confirmed: the deployment, then the placement
        (a deployment that offered nothing to choose goes back with its placement)."""
        if not self._provisional:
            return
        self._provisional.pop()
        self._trials.pop()
        while self._trials and self._trials[-1].legal_moves() == [SkipMeeple()] and self._provisional:
            self._provisional.pop()  # the placement of a tile that offered no deployment
            self._trials.pop()
        if not self._provisional:
            self._trial_base = None
        self.redraw()

    @on(BoardView.PlacementChosen)
    def _placement(self, message: BoardView.PlacementChosen) -> None:
        game = self.shown_game
        if game.phase is not Phase.PLACE_TILE or not self.my_turn() or game.drawn is None or self.confirming:
            return
        self._choose(PlaceTile(game.drawn, message.position, message.rotation))

    @on(BoardView.DeployChosen)
    def _deploy(self, message: BoardView.DeployChosen) -> None:
        game = self.shown_game
        if game.phase is not Phase.DEPLOY or not self.my_turn() or self.confirming:
            return
        self._choose(SkipMeeple() if message.segment is None else DeployMeeple(message.segment, message.figure))

    @on(BoardView.DragonChosen)
    def _dragon(self, message: BoardView.DragonChosen) -> None:
        game = self.table.game
        if (game is None or game.phase is not Phase.STEP or not isinstance(game.steps[0], dragon.DragonMove)
                or not self.my_turn() or self._provisional):
            return
        self._submit(MoveDragon(message.position))

    @on(BoardView.FigurePicked)
    def _picked(self, message: BoardView.FigurePicked) -> None:
        game = self.shown_game
        if game.phase is not Phase.DEPLOY or not self.my_turn() or self.confirming:
            return
        if message.kind == "portal":  # the meeple, else the follower the seat has for that spot
            spot = [m for m in game.legal_moves() if isinstance(m, DeployMeeple) and m.at == message.position
                    and m.segment == message.segment]
            if spot:
                self._choose(next((m for m in spot if m.figure is Figure.MEEPLE), spot[0]))
            return
        chosen = RemoveKnight if message.kind == "princess" else MoveFairy
        self._choose(chosen(message.position, message.segment))

    @on(BoardView.FigureSwitched)
    def _figure(self, message: BoardView.FigureSwitched) -> None:
        self._show_status()
        self.refresh_inspector()

    @on(BoardView.RecallChosen)
    def _recall(self, message: BoardView.RecallChosen) -> None:
        game = self.shown_game
        if game.phase is not Phase.DEPLOY or not self.my_turn() or self.confirming:
            return
        self._choose(ReturnAbbot(message.position))

    @on(BoardView.CursorMoved)
    def _cursor(self, message: BoardView.CursorMoved) -> None:
        if message.rotation != self._rotation:
            self._rotation = message.rotation
            if self.table.game is not None:
                self._show_scores()

    # ----------------------------------------------------------------------- actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "confirm":
            return self.confirming
        if action == "second_tile":
            game = self.table.game
            return (game is not None and game.phase is Phase.STEP and self.my_turn() and not self._provisional
                    and isinstance(game.steps[0], traders.SecondTileChoice))
        if action == "flock":
            return self._asks_flock()
        if action == "undo":
            return bool(self._provisional)
        if action in ("leave", "leave_network"):
            return (action == "leave") == (self.table.kind == "local")
        if action == "report":
            return self.table.desync is not None
        if action == "chat":
            return self.table.can_chat
        if action == "hand_over":
            return self.table.seat_to_hand_over() is not None
        if action == "live_replay":
            game = self.table.game
            return game is not None and bool(game.moves)
        if action in ("projection", "final"):  # before the end: what if it ended now; after: the scores
            game = self.table.game
            return (game is not None and game.phase is Phase.GAME_OVER) == (action == "final")
        return True

    def action_hand_over(self) -> None:
        """Gives the away seat to play to a greedy bot (a ``handover`` entry in the log), run here or
        by the network table's taker."""
        seat = self.table.seat_to_hand_over()
        if seat is None:
            return
        try:
            runner = self.table.hand_over(seat, "greedy")
        except (TableError, IllegalMoveError, ValueError) as exc:
            said = why_illegal(exc.reason) if isinstance(exc, IllegalMoveError) else str(exc)
            self.notify(said, title=_("Cannot hand the seat over"), severity="error")
            return
        if runner is None:
            # Translators: {name} is the name of the seat handed over
            self.notify(_("{name}'s seat is played by a greedy bot from this terminal now.").format(
                name=self.names[seat]))
        elif runner:  # the table's taker runs it (a network table)
            # Translators: {name} is the name of the seat handed over, {runner} the player whose laptop runs the bot
            self.notify(_("A bot will play for {name} from {runner}'s laptop.").format(name=self.names[seat],
                                                                                      runner=runner))
        else:
            # Translators: {name} is the name of the seat handed over
            self.notify(_("A bot will play for {name} from another laptop at the table.").format(
                name=self.names[seat]))

    def action_live_replay(self) -> None:
        """The game so far, move by move (:class:`~carcnet.tui.screens.live_replay.LiveReplayScreen`),
        over the live table, which goes on meanwhile; Escape comes back to the present."""
        from carcnet.tui.screens.live_replay import LiveReplayScreen

        if self.table.game is not None and self.table.game.moves:
            self.app.push_screen(LiveReplayScreen(self.table, glyphs=glyphs_named(self.settings.glyphs)))

    def action_bag(self) -> None:
        """Shows the tiles left in the bag (designs and counts, never their order)."""
        from carcnet.tui.screens.bag import BagScreen

        game = self.table.game
        if game is not None:
            self.app.push_screen(BagScreen(game))

    def action_final(self) -> None:
        """Shows the final score table again (after the game)."""
        game = self.table.game
        if game is None or game.phase is not Phase.GAME_OVER:
            return

        def closed(choice: str | None) -> None:
            if choice == "menu":
                self.action_leave()
            elif choice == "review":
                self._review()

        self.app.push_screen(FinalScreen(game, self.names, self.colours), closed)

    def _review(self) -> None:
        """The replay of the finished game, reviewing it at once (``v`` on the final scores)."""
        from carcnet.log import load
        from carcnet.tui.screens.replay import ReplayScreen

        path = self.table.path
        try:
            if path is None:
                raise OSError(_("this game is not saved"))
            loaded = load(path)
        except (OSError, LogError) as exc:
            self.notify(str(exc), title=_("Cannot review the game"), severity="error", timeout=10)
            return
        self.app.push_screen(ReplayScreen(loaded, review=True))

    def action_projection(self) -> None:
        from carcnet.tui.screens.final import ProjectionScreen

        game = self.table.game
        if game is not None:
            self.app.push_screen(ProjectionScreen(game, self.names, self.colours))

    def action_report(self) -> None:
        desync = self.table.desync
        if desync is not None:
            self.app.push_screen(DesyncScreen(desync, self.table.path))

    def action_bug_report(self) -> None:
        """Writes a bug report of this game: the screen as it is, a note, one zip file (docs/bug-reports.md)."""
        from carcnet.tui.screens.bug_report import REPORTS, report_bug

        folder = self.data_dir / REPORTS if self.data_dir is not None else None
        report_bug(self.app, self.table, folder=folder, settings=self.settings)

    def action_help(self) -> None:
        from carcnet.tui.screens.help import HelpScreen

        game = self.table.game
        self.app.push_screen(HelpScreen(game.setup.rules if game is not None else None))

    def action_leave(self, reason: str = "quit") -> None:
        """Back to the menu: a local game is saved already; a network game says ``bye`` *reason* to the
        others (wire.md §4.7: ``shutdown`` keeps the seat, ``quit`` in a game going on gives it up to
        the table's bot) and stays on disk (a player can resume it)."""
        if self._left:
            return
        self._left = True
        table = self.table
        playing = table.kind != "local" and not table.spectating and table.status == "playing"
        self.run.stop(reason)
        if playing and table.path is not None:
            if reason == "quit":
                # Translators: {file} is the save's file name
                left = _("Left the game, saved in {file}: the others' table plays your seat with a bot; resuming it "
                         "from the menu gets it back.")
            else:
                # Translators: {file} is the save's file name
                left = _("Left the game, saved in {file}: you can resume it from the menu.")
            self.notify(left.format(file=table.path.name), timeout=6)
        self.dismiss(None)

    @property
    def asks_before_leaving(self) -> bool:
        """Whether leaving asks first: a player of a network game going on here (not a spectator, not
        after the end, a stop or a lost table), whose going the others' game feels."""
        table = self.table
        return (table.kind != "local" and not table.spectating and table.status == "playing"
                and table.desync is None and self.run.running and not self._left)

    def action_leave_network(self, then_quit: bool = False) -> None:
        """Leaves a network game; a player of a game going on is asked first (stay, leave and keep the
        seat, give the seat to a bot and leave: :class:`~carcnet.tui.screens.leave.LeaveScreen`). With
        *then_quit*, the app quits once left."""
        from carcnet.tui.screens.leave import GIVE, STAY, LeaveScreen

        def chosen(choice: str | None) -> None:
            if choice in (None, STAY):
                return
            self.action_leave("quit" if choice == GIVE else "shutdown")
            if then_quit:
                self.app.exit()

        if not self.asks_before_leaving:
            self.action_leave()
            if then_quit:
                self.app.exit()
            return
        table = self.table
        seats = joined(self.names[s] for s in sorted(table.human_seats)) or None
        name = getattr(table, "game_name", None) or None  # None: "this game"
        self.app.push_screen(LeaveScreen(name, seats), chosen)
