"""Provides :class:`NetGameScreen`: a LAN game at this terminal, for its players and its spectators.

The same board, scoreboard and log as a local game (:class:`~carcnet.tui.screens.table.TableScreen`),
fed by a :class:`~carcnet.lan.LanGame`: it redraws after every change the game reports (moves made here
or arriving from the network, peers coming and going). The person at this terminal moves only on the
seats this peer plays (through :meth:`LanGame.submit`); spectators only watch. Seats whose player is not
connected are marked *away*; a desync stop shows its report; the final scores close the game as in a
local one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from rich.markup import escape
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from carcnet.engine import (
    DeployMeeple,
    Game,
    IllegalMoveError,
    Phase,
    PlaceTile,
    SkipMeeple,
)
from carcnet.log import LogError
from carcnet.net.sync import SyncError
from carcnet.tui.screens.final import FinalScreen
from carcnet.tui.screens.table import TableScreen
from carcnet.tui.widgets.board import BoardView
from carcnet.tui.widgets.palette import seat_style
from carcnet.tui.widgets.scoreboard import Scoreboard

from .lan import LanRun

if TYPE_CHECKING:
    from carcnet.lan import LanGame

__all__ = ["DesyncScreen", "NetFinalScreen", "NetGameScreen", "NetScoreboard"]


class NetScoreboard(Scoreboard):
    """The scoreboard of a network game: as a local game's, with a mark after each name from
    :attr:`marks` (``you``, ``bot``, ``away``…)."""

    def __init__(self, names: list[str], colours: list[str], *, id: str | None = None) -> None:
        super().__init__(names, colours, id=id)
        self.marks: Mapping[int, str] = {}

    def who(self, seat: int, name: str, style: str, local: set[int] | None) -> Text:
        """The name cell: the name, then this seat's mark (``you``, ``bot``, ``away``…)."""
        who = Text(name, style=style)
        mark = self.marks.get(seat)
        if mark:
            who.append(f" ({mark})", style="bold red" if "away" in mark else "dim")
        return who


class NetFinalScreen(FinalScreen):
    """The final scores of a network game; the menu key leaves the game as ``q`` does."""

    def action_menu(self) -> None:
        self.dismiss(None)
        screen = self.app.screen
        if isinstance(screen, NetGameScreen):
            screen.action_leave()


class DesyncScreen(ModalScreen[None]):
    """Why a network game stopped here: two peers' logs parted (the :class:`~carcnet.net.sync.Desync`
    report, for the people to compare and for a bug report)."""

    DEFAULT_CSS = """
    DesyncScreen { align: center middle; }
    DesyncScreen > VerticalScroll { width: 90; max-width: 100%; height: auto; max-height: 90%; padding: 1 2;
                                    border: thick $error; background: $surface; }
    DesyncScreen Static { height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,d", "close", "Close")]
    """Escape, Enter or d closes."""

    def __init__(self, report: object, path: object = None) -> None:
        super().__init__()
        self.report = report
        self.path = path

    def compose(self) -> ComposeResult:
        r = self.report
        lines = [
            "[b]The game stopped: the peers no longer agree on it[/b]",
            "",
            escape(str(getattr(r, "message", r))),
            "",
        ]
        for label, attr in (("What", "code"), ("Move (seq)", "seq"), ("Seat", "seat"), ("From peer", "peer"),
                            ("Refused by", "local")):
            value = getattr(r, attr, None)
            if value is not None:
                lines.append(f"{label}: {escape(str(value))}")
        key = getattr(r, "peer_key", None)
        if key:
            lines.append(f"Peer key: {key.hex()}")
        if self.path is not None:
            lines.append(f"Log kept in: {escape(str(self.path))}")
        lines += ["", "Nothing more is played here. Compare the logs, then leave with q."]
        with VerticalScroll():
            yield Static("\n".join(lines))
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)


class NetGameScreen(TableScreen):
    """A LAN game: the board, scoreboard and log, kept up to date from *run*'s game.

    Args:
        run: The running :class:`~carcnet.lan.LanGame` (its header known).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "projection", "If it ended now", tooltip="Projected final scores with their breakdown"),
        Binding("d", "report", "Stop report", tooltip="Why the game stopped"),
        Binding("b", "hand_over", "Seat to a bot",
                tooltip="The player to move is gone for good: a greedy bot run here plays their seat"),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("q", "leave", "Leave", tooltip="Leave the game; a player can resume it from the menu"),
    ]
    """``p`` projected scores; ``d`` the stop report (after a desync); ``b`` hands the seat of an away
    player to a bot (a ``handover`` entry); ``?`` help; ``q`` leave."""

    def __init__(self, run: LanRun) -> None:
        lan = run.lan
        header, game = lan.header, lan.game
        assert header is not None and game is not None, "the game has not started"
        seats = header.header.seats
        names = [s.name for s in seats]
        colours = [s.colour for s in seats]
        super().__init__(game, names, colours)
        self.net_scoreboard = NetScoreboard(names, colours, id="scoreboard")
        self.scoreboard = self.net_scoreboard  # the table's scoreboard, with the marks
        self.run = run
        self.bot_seats = {i for i, s in enumerate(seats) if s.player == "bot"}
        self._game: Game | None = None
        self._logged = 0
        self._last_note: str | None = lan.notes[-1] if lan.notes else None
        self._rotation: int | None = None
        self._pending = False
        self._final_shown = False
        self._report_shown = False
        self._left = False

    @property
    def lan(self) -> LanGame:
        return self.run.lan

    @property
    def spectating(self) -> bool:
        return self.lan.kind == "spectator" or not self.lan.my_seats

    @property
    def local_seats(self) -> set[int]:
        """The seats played by the person at this terminal."""
        return {s for s in self.lan.human_seats if s not in self.bot_seats}

    def on_mount(self) -> None:
        self.run.watch(self._changed)
        self.board.focus()
        self.redraw()

    def on_unmount(self) -> None:
        self.run.watch(None)

    # ----------------------------------------------------------------------- following the game

    def _changed(self, change: str) -> None:
        if not self._pending:
            self._pending = True
            self.call_later(self.redraw)

    def my_turn(self) -> bool:
        """Whether the person at this terminal is to move now."""
        seat = self.lan.session.to_play
        return seat is not None and seat in self.local_seats and self.run.running

    def redraw(self) -> None:
        """Brings every panel up to date with the game, and does what follows from it."""
        self._pending = False
        if not self.is_attached or self._left:
            return
        lan = self.lan
        game = lan.game
        if game is None:
            return
        if game is not self._game:  # first time, or the session rebuilt its game after a mismatch
            if self._game is None:
                self.log_panel.add(game.events)
            self._game = game
            self._logged = len(game.events)
        elif len(game.events) > self._logged:
            self.log_panel.add(game.events[self._logged :])
            self._logged = len(game.events)
        self._log_notes()
        mine = self.my_turn()
        self.board.interactive = mine
        self.board.refresh_game(game)
        self.net_scoreboard.marks = self.marks()
        self.scoreboard.show(game, self._rotation if mine else None)
        self._show_status()
        self.refresh_bindings()
        if lan.session.desync is not None and not self._report_shown:
            self._report_shown = True
            self.action_report()
        if game.phase is Phase.GAME_OVER:
            self._show_final()
        elif mine and game.phase is Phase.DEPLOY and not game.deploy_options():
            self._submit(SkipMeeple())  # nothing to choose: no meeple left or no free segment

    def _log_notes(self) -> None:
        """Writes the game's notes for people (peers connecting, leaving…) that came since the last time."""
        notes = self.lan.notes
        new: list[str] = []
        for note in reversed(notes):
            if note is self._last_note:
                break
            new.append(note)
        for note in reversed(new):
            self.log_panel.write(Text(note, style="dim italic"))
        if notes:
            self._last_note = notes[-1]

    def marks(self) -> dict[int, str]:
        """Seat → what the scoreboard says after its name."""
        lan = self.lan
        away = set(lan.away())
        mine = set(lan.my_seats)
        out = {}
        for seat in range(len(self.names)):
            parts = []
            if seat in self.bot_seats:
                parts.append("your bot" if seat in mine else "bot")
            elif seat in mine:
                parts.append("you")
            if seat in away:
                parts.append("away")
            if parts:
                out[seat] = ", ".join(parts)
        return out

    def _show_status(self) -> None:
        lan = self.lan
        game = lan.game
        run = self.run
        if game is None:
            return
        if lan.session.desync is not None:
            self.status.update("[b red]The game stopped[/]: the peers no longer agree (d: the report, q: leave)")
            return
        if game.phase is Phase.GAME_OVER:
            self.status.update("Game over: press Escape on the scores to look at the board, q to leave")
            return
        if not run.running and not run.stopping:
            why = f": {escape(str(run.error))}" if run.error is not None else ""
            self.status.update(f"[b red]Disconnected[/]{why}. q leaves; the game can be resumed from the menu.")
            return
        seat = game.seat
        name = escape(self.names[seat])
        style = seat_style(self.colours[seat])
        who = f"[{style}]{name}[/]"
        prefix = "Watching: " if self.spectating else ""
        if self.my_turn():
            if game.phase is Phase.PLACE_TILE:
                text = (f"{who}: place {game.drawn}: Tab next spot, r rotate, Enter place, arrows move, z zoom")
            else:
                text = f"{who}: a digit deploys a meeple on that spot, 0 or Space skips"
        elif seat in lan.away():
            text = f"{prefix}waiting for {who} (away: not connected); the game goes on when they are back"
            if not self.spectating:
                text += ", or press b to give their seat to a bot"
        elif seat in self.bot_seats:
            text = f"{prefix}{who} (bot) is thinking…"
        else:
            text = f"{prefix}waiting for {who}…"
        self.status.update(text)

    def _show_final(self) -> None:
        game = self.lan.game
        if self._final_shown or game is None:
            return
        self._final_shown = True
        self.app.push_screen(NetFinalScreen(game, self.names, self.colours))

    # ----------------------------------------------------------------------- moving

    def _submit(self, move: PlaceTile | DeployMeeple | SkipMeeple) -> None:
        try:
            self.lan.submit(move)
        except IllegalMoveError as exc:
            self.notify(str(exc), title="Not allowed", severity="error")
            return
        except SyncError as exc:
            self.notify(str(exc), title="Not your move", severity="warning")
            return
        except (OSError, LogError) as exc:
            self.notify(f"Could not save the move: {exc}", severity="error", timeout=15)
            return
        self.redraw()

    @on(BoardView.PlacementChosen)
    def _placement(self, message: BoardView.PlacementChosen) -> None:
        game = self.lan.game
        if game is None or game.phase is not Phase.PLACE_TILE or not self.my_turn() or game.drawn is None:
            return
        self._submit(PlaceTile(game.drawn, message.position, message.rotation))

    @on(BoardView.DeployChosen)
    def _deploy(self, message: BoardView.DeployChosen) -> None:
        game = self.lan.game
        if game is None or game.phase is not Phase.DEPLOY or not self.my_turn():
            return
        self._submit(SkipMeeple() if message.segment is None else DeployMeeple(message.segment))

    @on(BoardView.CursorMoved)
    def _cursor(self, message: BoardView.CursorMoved) -> None:
        if message.rotation != self._rotation:
            self._rotation = message.rotation
            if self.lan.game is not None:
                self.scoreboard.show(self.lan.game, self._rotation if self.my_turn() else None)

    # ----------------------------------------------------------------------- actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "report":
            return self.lan.session.desync is not None
        if action == "hand_over":
            return self._away_to_play() is not None
        return True

    def _away_to_play(self) -> int | None:
        """The seat to play if its player is away and this terminal may take it over, else ``None``."""
        lan = self.lan
        seat = lan.session.to_play
        if seat is None or self.spectating or lan.session.plays(seat) or seat not in lan.away():
            return None
        return seat

    def action_hand_over(self) -> None:
        """Gives the away seat to play to a greedy bot run here (a ``handover`` entry in the log)."""
        seat = self._away_to_play()
        if seat is None:
            return
        try:
            self.lan.hand_over(seat, "greedy")
        except (SyncError, IllegalMoveError, ValueError) as exc:
            self.notify(str(exc), title="Cannot hand the seat over", severity="error")
            return
        self.notify(f"{self.names[seat]}'s seat is played by a greedy bot from this terminal now.")
        self.refresh_bindings()
        self.redraw()

    def action_projection(self) -> None:
        from carcnet.tui.screens.final import ProjectionScreen

        if self.lan.game is not None:
            self.app.push_screen(ProjectionScreen(self.lan.game, self.names, self.colours))

    def action_report(self) -> None:
        desync = self.lan.session.desync
        if desync is not None:
            self.app.push_screen(DesyncScreen(desync, self.lan.path))

    def action_help(self) -> None:
        from carcnet.tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())

    def action_leave(self) -> None:
        """Leaves the game: ``bye`` to the others; the log stays on disk (a player can resume it)."""
        if self._left:
            return
        self._left = True
        self.run.stop()
        if self.lan.path is not None and not self.spectating and self.lan.status == "playing":
            self.notify(f"Left the game; it is saved in {self.lan.path.name} and can be resumed from the menu.",
                        timeout=6)
        self.dismiss(None)
