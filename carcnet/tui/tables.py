"""Provides :class:`TableMaker`: how the interface makes the tables it shows, from the app's settings
(where games are saved, how bots are paced, how the network is reached).

The screens that start a game (new game, saved games, host setup, games browser) hold the app's
maker, build a :class:`~carcnet.table.Table` with it, and hand it to the app with the
:class:`~carcnet.tui.messages.OpenTable` message; they never reach into the app itself.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from carcnet.engine import Move, Rules
from carcnet.i18n import _
from carcnet.log import LogHeader, Seat, load
from carcnet.table import LocalTable, NetTable, SeatPlan, Table, TurnClock
from carcnet.tui.settings import Settings

__all__ = ["TableMaker"]


@dataclass
class TableMaker:
    """The settings new tables are made with, and the constructors that use them.

    Attributes:
        data_dir: Folder of saved games.
        bot_delay: Seconds a bot waits before each move so people can follow; 0 in tests.
        seed: Deck seed for new local games (``None``: random), for tests and demos.
        player_name: The name to play network games under; a join updates it.
        net_options: Keyword arguments for every :class:`~carcnet.table.NetTable`, over the defaults
            (``directory`` = *data_dir*, ``listen=("0.0.0.0", 0)``, ``discovery=True``): e.g.
            ``listen``, ``discovery``, ``interfaces``, ``timing``. Tests listen on loopback without mDNS.
        random: The random source of this laptop's nonces at a network table (``random(n)`` gives *n*
            bytes; ``None``: the system's), as *seed* is for local games: tests fix it.
        settings: The player's settings (the app keeps them current): the new-game form's seats, the
            glyphs of the boards the screens open.
    """

    data_dir: Path
    bot_delay: float = 0.6
    seed: int | None = None
    player_name: str = "Player"
    net_options: Mapping[str, Any] = field(default_factory=dict)
    random: Callable[[int], bytes] | None = None
    settings: Settings = field(default_factory=Settings)

    @property
    def discovery(self) -> bool:
        """Whether network games are looked for and advertised by mDNS."""
        return bool(self.net_options.get("discovery", True))

    @property
    def interfaces(self) -> Sequence[str] | None:
        """The IP addresses mDNS uses (``None``: every interface)."""
        return self.net_options.get("interfaces")

    def net_kwargs(self, kind: Literal["host", "player", "spectator", "resume"]) -> dict[str, Any]:
        """The keyword arguments of a new :class:`~carcnet.table.NetTable` of *kind*: the defaults,
        then :attr:`net_options`. Spectators listen nowhere; a resumed game keeps its log's folder; a
        table opened here waits for its opener's word to start."""
        kwargs: dict[str, Any] = {
            "directory": self.data_dir, "listen": ("0.0.0.0", 0), "discovery": True, "bot_delay": self.bot_delay,
        }
        kwargs.update(self.net_options)
        if kind == "spectator":
            kwargs.pop("listen", None)
        if kind == "resume":
            kwargs.pop("directory", None)
        if kind == "host":
            kwargs["auto_start"] = False  # the person who opened the table starts the game (s in the lobby)
        return kwargs

    # ------------------------------------------------------------------ local

    def local(self, seats: Sequence[Seat], seed: int | None = None, rules: Rules | None = None) -> LocalTable:
        """A new local game recorded in :attr:`data_dir`.

        Raises:
            LogFormatError: A seat is invalid; ValueError: an unknown bot; OSError: no log.
        """
        chosen = seed if seed is not None else self.seed
        if chosen is None:
            chosen = int.from_bytes(os.urandom(8), "big")
        return LocalTable.new(seats, seed=chosen, rules=rules, directory=self.data_dir, bot_delay=self.bot_delay)

    # ------------------------------------------------------------------ the tutorial

    @property
    def tutorial_dir(self) -> Path:
        """Where the tutorial keeps its game and the lessons done (apart from the saved games)."""
        return self.data_dir / "tutorial"

    def tutorial(self, lesson: int = 0) -> LocalTable:
        """The tutorial's first game, new, from the first turn of *lesson* on (the turns before it
        played as the lessons play them): the fixed deck, the opponent following the script. It
        replaces the tutorial's earlier game.

        Raises:
            OSError: no log.
        """
        from carcnet.tui import tutorial

        # the seats named in the language in use, as the lessons call them
        seats = [Seat(self.settings.name or _(tutorial.NAMES[0]), tutorial.COLOURS[0]),
                 Seat(_(tutorial.NAMES[1]), tutorial.COLOURS[1], "bot", "random")]
        table = LocalTable.new(seats, order=tutorial.ORDER, script=tutorial.SCRIPT,
                               moves=tutorial.moves_before(lesson), directory=self.tutorial_dir,
                               bot_delay=self.bot_delay)
        for old in self.tutorial_dir.glob("*.carclog"):
            if old != table.path:
                old.unlink(missing_ok=True)
        return table

    def tutorial_save(self) -> Path | None:
        """The tutorial's game kept from last time, or ``None``."""
        saves = sorted(self.tutorial_dir.glob("*.carclog"), key=lambda p: p.stat().st_mtime) \
            if self.tutorial_dir.is_dir() else []
        return saves[-1] if saves else None

    def resume_tutorial(self, path: Path) -> LocalTable:
        """The tutorial's game at *path* again, where it was left.

        Raises:
            LogError: The log is refused. OSError: I/O.
        """
        from carcnet.tui import tutorial

        return LocalTable.resume(path, bot_delay=self.bot_delay, script=tutorial.SCRIPT)

    def branch(self, header: LogHeader, moves: Sequence[Move], at: int) -> LocalTable:
        """A new local game that continues a game after its first *at* moves, recorded in
        :attr:`data_dir` ("continue from here": :meth:`LocalTable.branch`; the original untouched).

        Raises:
            ValueError: *at* out of range. OSError: no log.
        """
        return LocalTable.branch(header, moves, at, directory=self.data_dir, bot_delay=self.bot_delay)

    def resume(self, path: Path, pairings: Sequence[Any] = ()) -> Table:
        """The saved game at *path* opened again: a network game back on the network with the seat
        keys kept beside its log (and through *pairings*, made by an invite code), a local one from
        its log.

        Raises:
            LogError: The log is refused. LanError: no seat keys for a network game. OSError: I/O.
        """
        if load(path).header.signed:
            return NetTable.resume(path, pairings=pairings, **self.net_kwargs("resume"))
        return LocalTable.resume(path, bot_delay=self.bot_delay)

    # ------------------------------------------------------------------ network

    def host(self, *, game_name: str, rules: Rules, plan: Sequence[SeatPlan], name: str | None = None,
             clock: TurnClock | None = None, invite: Any = None) -> NetTable:
        """A table opened here for players on the network, under *name* (default: :attr:`player_name`),
        with the turn clock *clock* (``None``: none), handing out invite codes from *invite* (a
        ``carcnet.net.invite.Servers``; ``None``: none).

        Raises:
            ValueError: A bad plan (size, colours, names) or an unknown bot.
        """
        name = name or self.player_name
        # Translators: a network game's name when its host gives none; {name}: the host's name (at most 32
        # characters in all are kept)
        default = _("{name}'s game").format(name=name)[:32]
        table = NetTable.host(name=name, game_name=game_name or default, rules=rules,
                              plan=list(plan), clock=clock, invite=invite, **self._random(), **self.net_kwargs("host"))
        self.player_name = name
        return table

    def join(self, game: str, address: tuple[str, int] | None, *, name: str, colour: str | None = None,
             bot: str | None = None, host_key: bytes | None = None, pairings: Sequence[Any] = (),
             invite: Any = None) -> NetTable:
        """A seat claimed at game *game*'s table, dialing *address* first if given, or through
        *pairings* (made by an invite code); *host_key*: the host identity its mDNS record named, the
        only one whose lobby counts; *invite*: where this laptop hands out invite codes too
        (``carcnet.net.invite.Servers``; ``None``: none).

        Raises:
            ValueError: An unknown bot, or a malformed game id.
        """
        table = NetTable.join(game, name=name, colour=colour, bot=bot, dial=[address] if address else [],
                              host_key=host_key, pairings=pairings, invite=invite, **self._random(),
                              **self.net_kwargs("player"))
        self.player_name = name
        return table

    def _random(self) -> dict[str, Any]:
        return {"random": self.random} if self.random is not None else {}

    def spectate(self, game: str, address: tuple[str, int] | None, host_key: bytes | None = None,
                 pairings: Sequence[Any] = ()) -> NetTable:
        """Game *game* watched from here, dialing *address* first if given (*host_key*, *pairings*: as
        for :meth:`join`).

        Raises:
            ValueError: A malformed game id.
        """
        return NetTable.spectate(game, name=self.player_name, dial=[address] if address else [],
                                 host_key=host_key, pairings=pairings, **self.net_kwargs("spectator"))
