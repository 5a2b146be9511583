"""Provides :class:`CarcnetApp`: the Textual application (home, new game, game, replay, help, LAN play).

Screens make tables (:class:`~carcnet.table.Table`, local or on the network) with the app's
:class:`~carcnet.tui.tables.TableMaker` and hand them over with the
:class:`~carcnet.tui.messages.OpenTable` message; the app runs each in its own asyncio loop
(:class:`~carcnet.tui.running.TableRun`) and shows its lobby or game screen. The app never changes a
game itself. The command line opens the app on a network screen with :class:`Launch`.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal

from textual import on
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.theme import Theme

from carcnet.engine import Rules
from carcnet.i18n import N_, _, set_language
from carcnet.log import LogError, default_dir
from carcnet.table import LanError, Table, TurnClock
from carcnet.table.signals import on_quit_signals
from carcnet.tui.addresses import default_name
from carcnet.tui.messages import ChangeSettings, ContinueGame, OpenTable
from carcnet.tui.running import TableRun, count_ratings
from carcnet.tui.screens.game import GameScreen
from carcnet.tui.screens.home import HomeScreen
from carcnet.tui.settings import Settings
from carcnet.tui.tables import TableMaker
from carcnet.tui.widgets.palette import use_palette

__all__ = ["STYLESHEET", "CarcnetApp", "Launch"]

#: The screens' stylesheet (reusable widgets keep their own ``DEFAULT_CSS``).
STYLESHEET = Path(__file__).with_name("carcnet.tcss")


@dataclass(frozen=True, slots=True)
class Launch:
    """Where the app opens (for ``carcnet host``, ``join``, ``spectate``, ``resume``); the home screen is
    always below it, so leaving goes home.

    Attributes:
        screen: ``"home"``; ``"tutorial"``: the lessons ("Learn to play"); ``"host"``: the table setup, or with *plan* the table opened at once (its
            lobby); ``"join"`` / ``"spectate"``: the games on the LAN, going straight on to the game
            *game* (at *address* if given) once it is known: watching it, or for a join the form asking
            name and colour (no questions when *name* was given too); ``"resume"``: the saved game at
            *path* (a LAN game back on the network, else a local one).
        game: The game id, 32 hex digits.
        address: A peer of the game, typed where multicast is blocked: ``(host, port)`` or the text
            ``host:port``.
        path: The saved game to resume.
        name: The name to play under (else the app's :attr:`CarcnetApp.player_name`).
        colour: The colour a joining player would like.
        game_name: The name of a hosted game.
        plan: The seats of a hosted game (:class:`carcnet.table.SeatPlan`).
        rules: The rule options of a hosted game.
        clock: The turn clock of a hosted game (``None``: none).
        invite: Where a hosted game (or, with *pairing*, a joined one) hands out invite codes
            (``carcnet.net.invite.Servers``; ``None``: none).
        pairing: For ``"join"`` / ``"spectate"``: the pairing an invite code made
            (``carcnet.net.invite.Pairing``), whose ``about`` names the game: opened at once; for
            ``"resume"``: a pairing to the game's table, used beside the network.
    """

    screen: Literal["home", "host", "join", "spectate", "resume"] = "home"
    game: str | None = None
    address: tuple[str, int] | str | None = None
    path: Path | None = None
    name: str | None = None
    colour: str | None = None
    game_name: str | None = None
    plan: Sequence[Any] | None = None
    rules: Rules | None = None
    clock: TurnClock | None = None
    invite: Any = None
    pairing: Any = None

    @classmethod
    def of(cls, start: Launch | str | tuple[str, Mapping[str, Any]] | None) -> Launch:
        """*start* as a Launch: a Launch, a screen name, or ``(screen, {field: value})`` (the command
        line's form; unknown keys are left out)."""
        if start is None:
            return cls()
        if isinstance(start, Launch):
            return start
        if isinstance(start, str):
            return cls(start)  # type: ignore[arg-type]
        screen, params = start
        fields = {k: v for k, v in dict(params).items() if k in cls.__dataclass_fields__ and k != "screen"}
        if fields.get("path") is not None:
            fields["path"] = Path(fields["path"])
        return cls(screen, **fields)  # type: ignore[arg-type]

    @property
    def typed(self) -> str:
        """The address and game id as a person would type them in the games list."""
        address = self.address
        if isinstance(address, tuple):
            host, port = address
            address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        parts = [address] if address else []
        if self.game:
            parts.append(f"--game {self.game}")
        return " ".join(parts)


class CarcnetApp(App[None]):
    """carcnet's terminal interface.

    Args:
        data_dir: Folder of saved games (default: the user data folder, ``CARCNET_DATA_DIR``).
        bot_delay: Seconds a bot waits before each move so people can follow; 0 in tests.
        seed: Deck seed for new games (default: random), for tests and demos.
        start: Where to open: a :class:`Launch`, its screen name, or ``(screen, {field: value})``;
            the home screen by default.
        lan_options: Keyword arguments for every :class:`~carcnet.table.NetTable` the app makes, over
            the defaults (:attr:`TableMaker.net_options`). Tests listen on loopback without mDNS.
        player_name: The name to play LAN games under (default: the login name).
        random: The random source of this laptop's nonces at network tables (default: the system's),
            for tests, as *seed* is for local games.
        settings: The player's settings (default: read from the configuration folder,
            :func:`carcnet.tui.settings.config_dir`); changes are saved where they were read.

    Attributes:
        tables: How new tables are made (the settings above).
        runs: The tables run by the app, newest last.
        stopped_by: The signal (SIGTERM or SIGHUP) that made the app quit, or ``None``: it quits as
            ``q`` does, every table left cleanly (``bye``, the save closed).
    """

    TITLE = "carcnet"
    SUB_TITLE = N_("Carcassonne for the terminal")
    ENABLE_COMMAND_PALETTE = True
    CSS_PATH = STYLESHEET
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "show_help", N_("Keys"), key_display="?", show=False,
                tooltip=N_("Every key of this screen, then how to play")),
    ]
    """``?`` on every screen: the help, with the keys a narrow footer leaves out (screens that have
    their own ``?`` take it first)."""

    def __init__(
        self,
        *,
        data_dir: Path | None = None,
        bot_delay: float = 0.6,
        seed: int | None = None,
        start: Launch | str | tuple[str, Mapping[str, Any]] | None = None,
        lan_options: Mapping[str, Any] | None = None,
        player_name: str | None = None,
        random: Callable[[int], bytes] | None = None,
        settings: Settings | None = None,
    ) -> None:
        super().__init__()
        self.launch = Launch.of(start)
        self.settings = settings if settings is not None else Settings.load()
        set_language(self.settings.language)
        self.sub_title = _(self.SUB_TITLE)
        self.tables = TableMaker(
            data_dir=Path(data_dir) if data_dir is not None else default_dir(),
            bot_delay=bot_delay,
            seed=seed,
            player_name=player_name or self.launch.name or self.settings.name or default_name(),
            net_options=dict(lan_options or {}),
            random=random,
            settings=self.settings,
        )
        self.runs: list[TableRun] = []
        self.stopped_by: int | None = None
        self._undo_signals: Callable[[], None] | None = None

    @property
    def data_dir(self) -> Path:
        """Folder of saved games."""
        return self.tables.data_dir

    def deliver_screenshot(
        self, filename: str | None = None, path: str | None = None, time_format: str | None = None
    ) -> str | None:
        """Saves an SVG of the screen (the palette's Screenshot) to *path*, by default the user's
        Downloads folder, or where there is none (a server, a fresh account) a ``screenshots`` folder
        beside the saved games, created as needed; its text runs placed so that every viewer keeps
        their spaces (:func:`carcnet.tui.svg.spaces_placed`). Textual says where once the file is
        written (a note of its own here said it a second time)."""
        import platformdirs

        if path is None:
            downloads = Path(platformdirs.user_downloads_dir())
            target = downloads if downloads.is_dir() else self.data_dir.parent / "screenshots"
            target.mkdir(parents=True, exist_ok=True)
            path = str(target)
        import io

        from textual.app import generate_datetime_filename

        from carcnet.tui.svg import spaces_placed

        name = filename or generate_datetime_filename(self.title, ".svg", time_format)
        return self.deliver_text(io.StringIO(spaces_placed(self.export_screenshot())), save_directory=path,
                                 save_filename=name, open_method="browser", mime_type="image/svg+xml",
                                 name="screenshot")

    @property
    def player_name(self) -> str:
        """The name network games are played under (a join updates it)."""
        return self.tables.player_name

    def change_settings(self, **values: Any) -> Settings:
        """Changes and saves the settings (:meth:`Settings.changed`), and applies them: the theme and
        the language at once (:meth:`relabel`), the others from the next screen they matter on. A
        failed save is said, and the settings hold for this run anyway.

        Raises:
            ValueError: A value that is not one of its setting's.
        """
        settings = self.settings.changed(**values)
        try:
            settings = settings.save()
        except OSError as exc:
            self.notify(_("Settings not saved: {reason}").format(reason=exc), severity="error", timeout=10)
        self.settings = self.tables.settings = settings
        if "name" in values and values["name"]:
            self.tables.player_name = values["name"]
        if "theme" in values and self.theme != settings.theme:
            self.theme = settings.theme
        if "palette" in values:
            use_palette(settings.palette)
        if "language" in values:
            set_language(settings.language)
            self.relabel()
        return settings

    def relabel(self) -> None:
        """Shows the screens in the language just chosen: a screen whose class sets
        ``RELABEL_BY_COMPOSING`` (its state is its own, not its widgets') is composed again; every
        other one is repainted, and its texts made as they change (a game's turn line, its log)
        follow from the next change. The footers and the title follow at once."""
        self.sub_title = _(self.SUB_TITLE)
        for screen in self.screen_stack:
            if getattr(screen, "RELABEL_BY_COMPOSING", False):
                screen.refresh(recompose=True)
            else:
                screen.refresh(layout=True)
        self.refresh_bindings()

    def _theme_chosen(self, theme: Theme) -> None:
        """The theme changed (the palette's Theme command, the settings screen): it is kept."""
        if theme.name != self.settings.theme:
            self.change_settings(theme=theme.name)

    def on_mount(self) -> None:
        if self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        use_palette(self.settings.palette)
        self.theme_changed_signal.subscribe(self, self._theme_chosen)
        if self.settings.problem is not None:
            self.notify(self.settings.problem, title=_("Settings"), severity="warning", timeout=10)
        self._undo_signals = on_quit_signals(asyncio.get_running_loop(), self._quit_signal)
        self.push_screen(HomeScreen(self.tables))
        gc.freeze()  # long-lived start-up objects out of the collector's way (docs/performance.md)
        if self.launch.screen != "home":
            self.call_after_refresh(self.open_start, self.launch)

    async def on_unmount(self) -> None:
        """Leaves every table still running (``bye`` to its peers), waiting a few seconds at most."""
        if self._undo_signals is not None:
            self._undo_signals()
        for run in list(self.runs):
            await run.aclose()

    def _quit_signal(self, signum: int) -> None:
        """SIGTERM or SIGHUP: quit as ``q`` does (the tables are left in :meth:`on_unmount`)."""
        self.stopped_by = signum
        self.exit()

    def open_start(self, start: Launch) -> None:
        """Opens the screen *start* names, over the home screen."""
        from carcnet.tui.screens.host_setup import HostSetupScreen

        if start.screen == "tutorial":
            from carcnet.tui.screens.tutorial import TutorialMenuScreen

            self.push_screen(TutorialMenuScreen(self.tables))
        elif start.screen == "host":
            if start.plan:
                try:
                    table = self.tables.host(game_name=start.game_name or "", rules=start.rules or Rules(),
                                             clock=start.clock, invite=start.invite,
                                             plan=list(start.plan))
                except ValueError as exc:
                    self.notify(_("Cannot open the table: {reason}").format(reason=exc), severity="error", timeout=10)
                else:
                    self.show_table(table, replace=False)
                    return
            self.push_screen(HostSetupScreen(self.tables, start.game_name or ""))
        elif start.screen in ("join", "spectate") and start.pairing is not None:
            game = start.pairing.about.game
            if start.screen == "join":
                table = self.tables.join(game, None, name=start.name or self.tables.player_name, colour=start.colour,
                                         pairings=[start.pairing], invite=start.invite)
            else:
                table = self.tables.spectate(game, None, pairings=[start.pairing])
            self.show_table(table, replace=False)
        elif start.screen in ("join", "spectate"):
            from carcnet.tui.screens.browse import BrowserScreen
            from carcnet.tui.screens.host_setup import JoinChoice

            choice = None
            if start.screen == "join" and start.name is not None and (start.game or start.address):
                choice = JoinChoice(start.name, start.colour, None)
            self.push_screen(BrowserScreen(self.tables, start.screen, start.typed, want=start.game, choice=choice))
        elif start.screen == "resume" and start.path is not None:
            self.open_saved(Path(start.path), pairings=[start.pairing] if start.pairing is not None else [])

    def open_saved(self, path: Path, pairings: Sequence[Any] = ()) -> None:
        """Opens the saved game at *path* again over the home screen: a network game back on the
        network (through *pairings* too: made by an invite code), a local one from its log."""
        try:
            table = self.tables.resume(path, pairings=pairings)
        except (LanError, LogError, OSError, ValueError) as exc:
            self.notify(str(exc), title=_("Cannot resume"), severity="error", timeout=10)
            return
        self.show_table(table, replace=False)

    # ------------------------------------------------------------------ tables

    @on(ContinueGame)
    def _continue_game(self, message: ContinueGame) -> None:
        """The replay's "continue from here": the new game, saved apart, over the replay."""
        try:
            table = self.tables.branch(message.header, message.moves, message.step)
        except (OSError, ValueError) as exc:
            self.notify(str(exc), title=_("Cannot continue from here"), severity="error", timeout=10)
            return
        self.notify(_("A new game from turn {turn}, saved apart; the original is unchanged.").format(turn=message.turn),
                    title=_("Continue from here"))
        self.show_table(table, replace=False)

    @on(ChangeSettings)
    def _change_settings(self, message: ChangeSettings) -> None:
        try:
            self.change_settings(**message.values)
        except ValueError as exc:
            self.notify(str(exc), title=_("Settings"), severity="error")

    async def action_quit(self) -> None:
        """Ctrl+Q or the palette's Quit: a player of a network game going on is asked first, as ``q``
        asks (:meth:`GameScreen.action_leave_network`); the app quits once they chose to leave."""
        screen = self.screen
        if isinstance(screen, GameScreen) and screen.asks_before_leaving:
            screen.action_leave_network(then_quit=True)
            return
        await super().action_quit()

    def action_settings(self) -> None:
        """Opens the settings screen."""
        from carcnet.tui.screens.settings_screen import SettingsScreen

        self.push_screen(SettingsScreen(self.settings, list(self.available_themes), default_name(),
                                        self.change_settings))

    @on(OpenTable)
    def _open_table(self, message: OpenTable) -> None:
        self.show_table(message.table, replace=message.replace and not isinstance(self.screen, HomeScreen),
                        tutorial=message.tutorial)

    def show_table(self, table: Table, *, replace: bool = True, tutorial: bool = False) -> TableRun:
        """Runs *table* in the app's loop and shows it: its lobby while a network game has not
        started, else its game screen (replacing the current screen, or pushed over it); the
        tutorial's game with its lessons."""
        for old in [r for r in self.runs if r.ended]:
            self.runs.remove(old)
        run = TableRun(table)
        self.runs.append(run)
        count_ratings(table, self.data_dir, self.notify)  # a network game, once over
        run.start()
        screen: Screen[None]
        if tutorial:
            from carcnet.tui.screens.tutorial import TutorialScreen
            from carcnet.tui.tutorial import Progress

            screen = TutorialScreen(run, settings=self.settings, progress=Progress(self.tables.tutorial_dir),
                                    data_dir=self.data_dir)
        elif table.game is not None:
            screen = GameScreen(run, settings=self.settings, data_dir=self.data_dir)
        else:
            from carcnet.tui.screens.lobby import LobbyScreen

            screen = LobbyScreen(run, self.settings, data_dir=self.data_dir)
        self.switch_screen(screen) if replace else self.push_screen(screen)
        return run

    # ------------------------------------------------------------------ command palette

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        if isinstance(screen, GameScreen):
            yield SystemCommand(_("Projected scores"), _("The scores if the game ended now"), screen.action_projection)
            yield SystemCommand(_("Zoom"), _("The next zoom: large, detailed, overview"), screen.board.action_toggle_zoom)
            yield SystemCommand(_("Recentre"), _("Centre the board on the cursor, then the start tile"), screen.board.action_centre)
            yield SystemCommand(_("Bug report (F12)"), _("One file with the save, versions and the screen"), screen.action_bug_report)
            if screen.table.kind == "local":
                yield SystemCommand(_("Back to the menu"), _("The game is saved and can be resumed"), screen.action_leave)
            else:
                yield SystemCommand(_("Leave the game"), _("Say bye to the others; a player can resume it"), screen.action_leave)
        yield SystemCommand(_("Settings"), _("Name, theme, turn confirmation, glyphs, colours, bell"), self.action_settings)
        yield SystemCommand(_("Help"), _("How to play and every key"), self.action_show_help)

    def action_show_help(self) -> None:
        from carcnet.tui.screens.help import HelpScreen

        self.push_screen(HelpScreen())
