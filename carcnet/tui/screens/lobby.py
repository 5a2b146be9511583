"""Provides :class:`LobbyScreen`: a LAN table filling up, for its host, the players who joined and the
spectators: the game's name and options, the seats as they are taken, what is going on, and (for the
host) the address others can type. Once every seat is taken the host presses s and the game starts
(commit–reveal of the seed, then the game screen); a table opened from the command line with
``--headless`` starts by itself."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.markup import escape
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from carcnet.i18n import N_, _, ngettext, pgettext
from carcnet.club.ratings import RATINGS_FILE, Ratings, display
from carcnet.table import NetTable
from carcnet.table.words import stop_reason
from carcnet.tui.addresses import join_command, reachable_hosts
from carcnet.tui.running import TableRun
from carcnet.tui.settings import Settings
from carcnet.tui.widgets.footer import KeyFooter
from carcnet.tui.widgets.palette import colour_name, seat_style
from carcnet.tui.words import rules_words

__all__ = ["LobbyScreen", "lobby_status"]


def lobby_status(run: TableRun) -> str:
    """One line for people: what the table is waiting for."""
    lan = run.table
    assert isinstance(lan, NetTable), "a lobby belongs to a network table"
    if run.error is not None:
        return _("[b red]Stopped[/]: {reason}").format(reason=escape(str(run.error)))
    status = lan.status
    if status == "stopped":
        desync = lan.session.desync
        return _("[b red]The game stopped[/]: {reason}").format(
            reason=escape(stop_reason(desync) if desync is not None else ""))
    if status in ("playing", "finished"):
        return _("The game has started.")
    lobby = lan.lobby
    if lobby is None:
        if run.ended:
            return _("Not connected.")
        return _("Connecting to the table…") if lan.kind != "host" else _("Opening the table…")
    problem = lan.lobby_problem
    if lobby.locked:
        return _("Every seat is taken: the players' laptops get ready to draw the tiles together; "
                 "the game starts in a moment…")
    open_seats = sum(s is None for s in lobby.table)
    if problem and lan.kind == "player" and not lan.lobby_seats():
        # Translators: {reason} says why (the host's words, without a full stop).
        return _("[b]No seat for you[/]: {reason}. Escape leaves; you can watch the game instead.").format(
            reason=escape(problem))
    table = lan.hosting
    manual = table is not None and not table.auto_start
    if open_seats == 0:
        if manual:
            return _("[b]Every seat is taken[/]: press [b]s[/] to start the game.")
        return _("Every seat is taken: waiting for the host to start the game.")
    if manual:
        text = ngettext("Waiting for {n} more player. You start the game (s) when every seat is taken.",
                        "Waiting for {n} more players. You start the game (s) when every seat is taken.",
                        open_seats)
    elif lan.kind == "host":
        text = ngettext("Waiting for {n} more player. The game starts by itself when every seat is taken.",
                        "Waiting for {n} more players. The game starts by itself when every seat is taken.",
                        open_seats)
    else:
        text = ngettext("Waiting for {n} more player. The host starts the game when every seat is taken.",
                        "Waiting for {n} more players. The host starts the game when every seat is taken.",
                        open_seats)
    return text.format(n=open_seats)


def bot_words(level: str) -> str:
    """Who plays a bot's seat, in words: ``greedy bot`` (a level this carcnet does not know: its name
    and "bot")."""
    words = {"random": N_("random bot"), "greedy": N_("greedy bot"), "easy": N_("easy bot"),
             "medium": N_("medium bot"), "hard": N_("hard bot"), "expert": N_("expert bot")}
    if level in words:
        return _(words[level])
    # Translators: who plays a seat; {level} is a bot's level this carcnet has no words for.
    return _("{level} bot").format(level=level)


class LobbyScreen(Screen[None]):
    """The table before the game: it redraws on every change of the :class:`TableRun` and opens the
    game screen as soon as the game starts. Escape or q leaves (a ``bye`` to the others).

    Args:
        run: The network table, running.
        settings: The player's settings.
        data_dir: The data folder whose ratings are shown beside the seats; ``None``: none
            shown (every seat "new").
    """


    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "leave", N_("Leave")),
        Binding("s", "start", N_("Start the game"), tooltip=N_("Every seat is taken: agree on the seed and play")),
    ]
    """Escape or q leaves the table; s starts the game (the host, once every seat is taken)."""

    def __init__(self, run: TableRun, settings: Settings | None = None, *, data_dir: Path | None = None) -> None:
        super().__init__()
        self.run = run
        self.settings = settings if settings is not None else Settings()
        self.data_dir = data_dir
        self._pending = False
        self._started = False
        #: The ratings of the data folder, read at the first redraw.
        self._rated: Ratings | None = None

    @property
    def table(self) -> NetTable:
        """The network table (a lobby is only shown for one)."""
        table = self.run.table
        assert isinstance(table, NetTable), "a lobby belongs to a network table"
        return table

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static("", id="title")
            yield Static("", id="options")
            yield Static("", id="seats")
            yield Static("", id="status")
            yield Static("", id="address")
            yield Static("", id="notes")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.run.watch(self._changed)
        self.redraw()

    def on_unmount(self) -> None:
        if not self._started:
            self.run.watch(None)

    def _changed(self, change: str) -> None:
        if not self._pending:
            self._pending = True
            self.call_later(self.redraw)

    def redraw(self) -> None:
        """Redraws from the game's state; opens the game screen once the game has started."""
        self._pending = False
        if not self.is_attached or self._started:
            return
        lan = self.table
        if lan.header is not None and self.run.error is None and not self.run.stopping:
            self._started = True
            from .game import GameScreen

            self.app.switch_screen(GameScreen(self.run, settings=self.settings, data_dir=self.data_dir))
            return
        lobby = lan.lobby
        name = lobby.name if lobby is not None else (lan.game_name or _("LAN game"))
        if lan.kind == "host":
            # Translators: the lobby's title at the host's laptop; {game} is the game's name.
            title = _("{game}  (you host it)")
        elif lan.kind == "player":
            # Translators: the lobby's title at a player's laptop; {game} is the game's name.
            title = _("{game}  (you joined)")
        else:
            # Translators: the lobby's title at a spectator's laptop; {game} is the game's name.
            title = _("{game}  (you watch)")
        self.query_one("#title", Static).update(Text(title.format(game=name)))
        options = rules_words(lobby.options) if lobby is not None else "…"
        clock = lan.clock
        if clock is not None:
            # Translators: {rules} are the game's rule options, {clock} its turn clock, {game} its id.
            line = _("Rules: {rules}.  Turn clock: {clock}.  Game id: {game}").format(
                rules=options, clock=clock.describe(), game=lan.game_id)
        else:
            # Translators: {rules} are the game's rule options, {game} its id.
            line = _("Rules: {rules}.  Game id: {game}").format(rules=options, game=lan.game_id)
        self.query_one("#options", Static).update(line)
        self.query_one("#seats", Static).update(self._seat_table())
        self.query_one("#status", Static).update(lobby_status(self.run))
        self.refresh_bindings()
        self.query_one("#address", Static).update(self._address_text())
        notes = lan.notes[-8:]
        self.query_one("#notes", Static).update(Text("\n".join(notes)))

    def _seat_table(self) -> Table | Text:
        lobby = self.table.lobby
        if lobby is None:
            return Text(_("(the table shows once the host answers)"), style="dim")
        mine = self.table.lobby_seats()
        table = Table(expand=False, header_style="bold", pad_edge=False, box=None, padding=(0, 2))
        table.add_column(_("Seat"), justify="right")
        table.add_column(_("Player"))
        table.add_column(_("Colour"))
        table.add_column(_("Played by"))
        table.add_column(_("Rating"), justify="right")
        ratings = self._ratings()
        for i, sat in enumerate(lobby.table):
            if sat is None:
                table.add_row(str(i + 1), Text(pgettext("seat", "open"), style="italic dim"), "",
                              Text(_("waiting for a player"), style="dim"), "")
                continue
            seat = sat.seat
            who = Text(seat.name, style=seat_style(seat.colour))
            if i in mine:
                who.append(" " + (_("(you)") if seat.bot is None else _("(your bot)")), style="dim")
            plays = bot_words(seat.bot) if seat.bot else _("a person")
            player = f"bot:{seat.bot}" if seat.bot else sat.key.hex()
            rated = ratings.players.get(player) if ratings is not None else None
            rating = (Text(f"{display(rated)[0]}", style="bold") if rated is not None
                      else Text(pgettext("rating", "new"), style="dim"))
            table.add_row(str(i + 1), who, Text(colour_name(seat.colour), style=seat_style(seat.colour)), plays, rating)
        return table

    def _ratings(self) -> Ratings | None:
        """The ratings in the data folder, read once; ``None`` when they cannot be read."""
        if self._rated is None:
            data_dir = self.data_dir
            try:
                self._rated = Ratings.read(data_dir / RATINGS_FILE) if data_dir is not None else Ratings()
            except (OSError, ValueError):
                self._rated = Ratings()
        return self._rated

    def _address_text(self) -> str:
        lan = self.table
        peer = lan.peer
        invites = lan.invites
        code = [] if invites is None or invites.servers is None else [
            _("Friends elsewhere sit down with the invite code [b]{code}[/b] (it works once; "
              "the next one shows here)").format(code=escape(invites.code))
            if invites.code else _("Asking the invite server for a code…"), ""]
        if lan.kind == "spectator" or peer is None or not peer.listen:
            return "\n".join(code[:1])  # a laptop that listens on no address may still hand out codes
        hosts = reachable_hosts(lan.listen_at)
        if lan.kind == "host":
            lines = [*code, _("Where the game does not show up by itself (multicast blocked), others type:")]
            lines += [f"  [b]{escape(join_command(h, peer.port, lan.game_id))}[/b]" for h in hosts]
        else:
            lines = [*code, _("Spectators can also watch through this computer:")]
            lines += [f"  {escape(join_command(h, peer.port, lan.game_id, 'spectate'))}" for h in hosts[:1]]
        return "\n".join(lines)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "start":
            table = self.table.hosting
            return table is not None and table.full and not table.locked and table.started is None
        return True

    def action_start(self) -> None:
        try:
            self.table.start()
        except ValueError as exc:
            self.notify(str(exc), title=_("Not yet"), severity="warning")
        self.redraw()

    def action_leave(self) -> None:
        self._started = True  # nothing more to show
        self.run.stop()
        self.dismiss(None)
