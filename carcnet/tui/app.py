"""Provides :class:`CarcnetApp`: the Textual application (home, new game, game, replay, help, LAN play).

The app builds :class:`~carcnet.session.GameSession` objects and hands them to the game screen; it
never changes a game itself. Saved games live in :attr:`CarcnetApp.data_dir`. LAN games
(:class:`~carcnet.lan.LanGame`) run in the app's own asyncio loop (:meth:`CarcnetApp.run_lan`); the
command line opens the app on a LAN screen with :class:`Launch`.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from textual.app import App, SystemCommand
from textual.screen import Screen

from carcnet.engine import Rules
from carcnet.log import LogError, default_dir
from carcnet.session import GameSession, SeatPlan
from carcnet.tui.screens.game import GameScreen
from carcnet.tui.screens.home import HomeScreen

if TYPE_CHECKING:
    from carcnet.lan import LanGame
    from carcnet.tui.screens.lan import LanRun
    from carcnet.tui.screens.lan_setup import JoinChoice

__all__ = ["CarcnetApp", "Launch"]


@dataclass(frozen=True, slots=True)
class Launch:
    """Where the app opens (for ``carcnet host``, ``join``, ``spectate``, ``resume``); the home screen is
    always below it, so leaving goes home.

    Attributes:
        screen: ``"home"``; ``"host"``: the table setup, or with *plan* the table opened at once (its
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
        plan: The seats of a hosted game (:class:`carcnet.lan.SeatPlan`).
        rules: The rule options of a hosted game.
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
        lan_options: Keyword arguments for every :class:`~carcnet.lan.LanGame` the app makes, over the
            defaults (``directory`` = *data_dir*, ``listen=("0.0.0.0", 0)``, ``discovery=True``):
            e.g. ``listen``, ``discovery``, ``interfaces``, ``timing``. Tests listen on loopback without
            mDNS.
        player_name: The name to play LAN games under (default: the login name).
    """

    TITLE = "carcnet"
    SUB_TITLE = "Carcassonne for the terminal"
    ENABLE_COMMAND_PALETTE = True

    def __init__(
        self,
        *,
        data_dir: Path | None = None,
        bot_delay: float = 0.6,
        seed: int | None = None,
        start: Launch | str | tuple[str, Mapping[str, Any]] | None = None,
        lan_options: Mapping[str, Any] | None = None,
        player_name: str | None = None,
    ) -> None:
        super().__init__()
        self.data_dir = Path(data_dir) if data_dir is not None else default_dir()
        self.bot_delay = bot_delay
        self.seed = seed
        self.launch = Launch.of(start)
        self.lan_options = dict(lan_options or {})
        if player_name is None:
            player_name = self.launch.name
        if player_name is None:
            from carcnet.tui.screens.lan import default_name

            player_name = default_name()
        self.player_name = player_name
        self.lan_runs: list[LanRun] = []

    def on_mount(self) -> None:
        self.push_screen(HomeScreen())
        gc.freeze()  # long-lived start-up objects out of the collector's way (docs/performance.md)
        if self.launch.screen != "home":
            self.call_after_refresh(self.open_start, self.launch)

    async def on_unmount(self) -> None:
        """Leaves every LAN game still running (``bye`` to its peers), waiting a few seconds at most."""
        for run in list(self.lan_runs):
            await run.aclose()

    def open_start(self, start: Launch) -> None:
        """Opens the screen *start* names, over the home screen."""
        if start.screen == "host":
            if start.plan:
                self._host_now(start)
                return
            from carcnet.tui.screens.lan_setup import HostSetupScreen

            self.push_screen(HostSetupScreen(self.player_name, start.game_name or ""))
        elif start.screen in ("join", "spectate"):
            from carcnet.tui.screens.lan_browse import BrowserScreen

            choice = None
            if start.screen == "join" and start.name is not None and (start.game or start.address):
                from carcnet.tui.screens.lan_setup import JoinChoice

                choice = JoinChoice(start.name, start.colour, None)
            self.push_screen(BrowserScreen(start.screen, start.typed, want=start.game, choice=choice))
        elif start.screen == "resume" and start.path is not None:
            self.open_saved(Path(start.path))

    def _host_now(self, start: Launch) -> None:
        """Opens the table *start* describes and shows its lobby (the setup screen if it cannot)."""
        from carcnet.lan import LanGame
        from carcnet.tui.screens.lan_lobby import LobbyScreen
        from carcnet.tui.screens.lan_setup import HostSetupScreen

        name = self.player_name
        try:
            lan = LanGame.host(name=name, game_name=start.game_name or f"{name}'s game"[:32],
                               rules=start.rules or Rules(), plan=list(start.plan or ()), **self.lan_kwargs("host"))
        except ValueError as exc:
            self.notify(f"Cannot open the table: {exc}", severity="error", timeout=10)
            self.push_screen(HostSetupScreen(name, start.game_name or ""))
            return
        self.push_screen(LobbyScreen(self.run_lan(lan)))

    # ------------------------------------------------------------------ sessions

    def new_session(
        self, seats: Sequence[SeatPlan], seed: int | None = None, rules: Rules | None = None
    ) -> GameSession:
        """Starts and records a new local game in :attr:`data_dir` with the rule options *rules*."""
        from carcnet.log import LogHeader, Seat, new_path

        chosen = seed if seed is not None else self.seed
        if chosen is None:
            chosen = int.from_bytes(os.urandom(8), "big")
        header = LogHeader.new(
            [Seat(s.name, s.colour, "bot" if s.bot else "human", s.bot) for s in seats],
            seed=chosen,
            options=rules,
        )
        self.data_dir.mkdir(parents=True, exist_ok=True)
        from carcnet.log import GameRecorder

        return GameSession(GameRecorder.create(header, new_path(header, self.data_dir)))

    def resume_session(self, path: Path) -> GameSession:
        """Continues the saved game at *path*."""
        return GameSession.resume(path)

    def game_screen(self, session: GameSession) -> GameScreen:
        return GameScreen(session, bot_delay=self.bot_delay)

    def open_saved(self, path: Path) -> None:
        """Continues the saved game at *path* over the current screen (replacing it unless it is the
        home screen): a LAN game goes back on the network, a local one opens its session."""
        from carcnet.log import load

        replace = not isinstance(self.screen, HomeScreen)
        try:
            signed = load(path).header.signed
        except (LogError, OSError) as exc:
            self.notify(str(exc), title="Cannot open", severity="error")
            return
        if signed:
            self.resume_lan(path, replace=replace)
            return
        try:
            session = self.resume_session(path)
        except (LogError, OSError) as exc:
            self.notify(str(exc), title="Cannot resume", severity="error")
            return
        screen = self.game_screen(session)
        self.switch_screen(screen) if replace else self.push_screen(screen)

    # ------------------------------------------------------------------ LAN games

    def lan_kwargs(self, kind: Literal["host", "player", "spectator", "resume"]) -> dict[str, Any]:
        """The keyword arguments of a new :class:`~carcnet.lan.LanGame` of *kind*: the defaults, then
        :attr:`lan_options`. Spectators listen nowhere; a resumed game keeps its log's folder."""
        kwargs: dict[str, Any] = {
            "directory": self.data_dir, "listen": ("0.0.0.0", 0), "discovery": True, "bot_delay": self.bot_delay,
        }
        kwargs.update(self.lan_options)
        if kind == "spectator":
            kwargs.pop("listen", None)
        if kind == "resume":
            kwargs.pop("directory", None)
        if kind == "host":
            kwargs["auto_start"] = False  # the person who opened the table starts the game (s in the lobby)
        return kwargs

    def run_lan(self, lan: LanGame) -> LanRun:
        """Runs *lan* in the app's loop until it is stopped (or the app ends)."""
        from carcnet.tui.screens.lan import LanRun

        for old in [r for r in self.lan_runs if r.ended]:
            self.lan_runs.remove(old)
        run = LanRun(lan)
        self.lan_runs.append(run)
        run.start()
        return run

    def open_lan(
        self,
        kind: Literal["join", "spectate"],
        *,
        game: str,
        address: tuple[str, int] | None,
        choice: JoinChoice | None = None,
    ) -> LanRun | None:
        """Joins (as *choice* says) or watches game *game*, dialing *address*, and shows its lobby
        over the current screen (replacing it unless it is the home screen)."""
        from carcnet.lan import LanGame

        dial = [address] if address is not None else []
        try:
            if kind == "join":
                assert choice is not None
                lan = LanGame.join(game, name=choice.name, colour=choice.colour, bot=choice.bot, dial=dial,
                                   **self.lan_kwargs("player"))
                self.player_name = choice.name
            else:
                lan = LanGame.spectate(game, name=self.player_name, dial=dial, **self.lan_kwargs("spectator"))
        except ValueError as exc:
            self.notify(str(exc), title="Cannot connect", severity="error")
            return None
        return self._show_lan(self.run_lan(lan), replace=not isinstance(self.screen, HomeScreen))

    def resume_lan(self, path: Path, *, replace: bool = True) -> LanRun | None:
        """Puts the saved LAN game at *path* back on the network and shows it."""
        from carcnet.lan import LanError, LanGame

        try:
            lan = LanGame.resume(path, **self.lan_kwargs("resume"))
        except (LanError, LogError, OSError, ValueError) as exc:
            self.notify(str(exc), title="Cannot resume", severity="error", timeout=10)
            return None
        return self._show_lan(self.run_lan(lan), replace=replace)

    def _show_lan(self, run: LanRun, *, replace: bool) -> LanRun:
        if run.lan.header is not None:
            from carcnet.tui.screens.lan_game import NetGameScreen

            screen: Screen[None] = NetGameScreen(run)
        else:
            from carcnet.tui.screens.lan_lobby import LobbyScreen

            screen = LobbyScreen(run)
        self.switch_screen(screen) if replace else self.push_screen(screen)
        return run

    # ------------------------------------------------------------------ command palette

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        from carcnet.tui.screens.lan_game import NetGameScreen

        if isinstance(screen, GameScreen | NetGameScreen):
            yield SystemCommand("Projected scores", "The scores if the game ended now", screen.action_projection)
            yield SystemCommand("Zoom", "Switch the board between detailed and overview", screen.board.action_toggle_zoom)
            yield SystemCommand("Recentre", "Centre the board on the cursor, then the start tile", screen.board.action_centre)
            if isinstance(screen, GameScreen):
                yield SystemCommand("Back to the menu", "The game is saved and can be resumed", screen.action_leave)
            else:
                yield SystemCommand("Leave the game", "Say bye to the others; a player can resume it", screen.action_leave)
        yield SystemCommand("Help", "How to play and every key", self.action_show_help)

    def action_show_help(self) -> None:
        from carcnet.tui.screens.help import HelpScreen

        self.push_screen(HelpScreen())
