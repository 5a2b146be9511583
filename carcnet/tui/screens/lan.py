"""Provides what the LAN screens share: :class:`LanRun` (a :class:`~carcnet.lan.LanGame` running in the
app's asyncio loop, with one screen at a time listening to it) and small helpers for people (names,
addresses to type, typed ``host:port`` and game ids).

The screens themselves: :mod:`.lan_setup` (host a table, the join form), :mod:`.lan_browse` (games
found on the LAN, or typed), :mod:`.lan_lobby` (the table filling up) and :mod:`.lan_game` (the board
of a network game, for players and spectators).

Nothing here uses threads: the LanGame's listeners are called in the app's own loop, and the screens
redraw after a ``call_later``.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import ipaddress
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from carcnet.lan import LanGame
    from carcnet.net.discovery import GameAd

__all__ = [
    "LanRun",
    "Target",
    "check_name",
    "default_name",
    "join_command",
    "local_ipv4",
    "parse_target",
    "reachable_hosts",
]

log = logging.getLogger("carcnet.tui")

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_HEX32 = re.compile(r"[0-9a-fA-F]{32}")

#: Seconds the app waits for a LAN game to say bye and close its sockets when leaving or quitting.
CLOSE_WAIT = 5.0


class LanRun:
    """A :class:`LanGame` running in the app's loop: ``async with lan`` in a task of its own until
    :meth:`stop`. One screen at a time follows it (:meth:`watch`): the lobby, then the game screen.

    Attributes:
        lan: The game.
        error: Why it could not run (e.g. the port is taken), once it ended that way.
        running: Whether it is inside ``async with`` now.
        stopping: Whether :meth:`stop` was called.
    """

    def __init__(self, lan: LanGame) -> None:
        self.lan = lan
        self.error: BaseException | None = None
        self.running = False
        self.stopping = False
        self._view: Callable[[str], None] | None = None
        self._stop = asyncio.Event()
        self._ended = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        lan.add_listener(self._changed)

    @property
    def ended(self) -> bool:
        """Whether it ran and stopped (or failed to start)."""
        return self._ended.is_set()

    def start(self) -> None:
        """Starts the game's task (in the running loop)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name=f"carcnet lan {self.lan.game_id[:8]}")

    async def _run(self) -> None:
        try:
            async with self.lan:
                self.running = True
                self._tell("running")
                await self._stop.wait()
        except Exception as exc:  # noqa: BLE001 - shown by the screens; nothing else goes down with it
            log.info("the LAN game %s ended: %r", self.lan.game_id, exc)
            error: BaseException = exc
            while isinstance(error, BaseExceptionGroup) and error.exceptions:
                error = error.exceptions[0]  # the task group's first error says what went wrong
            self.error = error
        finally:
            self.running = False
            self._ended.set()
            self._tell("ended")

    def watch(self, view: Callable[[str], None] | None) -> None:
        """Calls *view(change)* on every change of the game (a :data:`carcnet.net.sync.Change`, or
        ``"running"`` / ``"ended"`` for the task), instead of the previous view; ``None``: nobody."""
        self._view = view

    def _changed(self, change: str) -> None:
        self._tell(change)

    def _tell(self, change: str) -> None:
        view = self._view
        if view is None:
            return
        try:
            view(change)
        except Exception:  # a listener must not raise into the network code
            log.exception("a screen failed to take the change %r", change)

    def stop(self) -> None:
        """Leaves the game: ``bye`` to every peer now; the task closes the sockets and the log."""
        self.stopping = True
        self._view = None
        if self.running:
            self.lan.close()
        self._stop.set()

    async def aclose(self, timeout: float = CLOSE_WAIT) -> None:
        """:meth:`stop`, then waits (at most *timeout* seconds) until everything is closed."""
        self.stop()
        if self._task is None:
            return
        try:
            await asyncio.wait_for(asyncio.shield(self._task), timeout)
        except (TimeoutError, asyncio.CancelledError):
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task


# ---------------------------------------------------------------------- people's words


def check_name(text: str, what: str = "A name") -> str | None:
    """Why *text* is not a valid seat, peer or game name (1 to 32 characters, no control characters),
    or ``None`` if it is."""
    if not text.strip():
        return f"{what} cannot be empty."
    if len(text) > 32:
        return f"{what} has at most 32 characters."
    if _CONTROL.search(text):
        return f"{what} cannot hold control characters."
    return None


def default_name() -> str:
    """This computer user's login name, capitalised, as a name to play under (``Player`` if unknown)."""
    try:
        name = getpass.getuser()
    except Exception:  # noqa: BLE001 - no user name in this environment
        name = ""
    name = _CONTROL.sub("", name).strip()[:32]
    return name.capitalize() if name else "Player"


def local_ipv4() -> list[str]:
    """This machine's IPv4 addresses that other machines may reach: not loopback, not link-local."""
    import ifaddr

    out: set[str] = set()
    try:
        adapters = ifaddr.get_adapters()
    except Exception:  # noqa: BLE001 - no interface list here: nothing to show
        return []
    for adapter in adapters:
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):
                continue
            try:
                address = ipaddress.IPv4Address(ip.ip)
            except ValueError:
                continue
            if not (address.is_loopback or address.is_link_local or address.is_unspecified):
                out.add(str(address))
    return sorted(out, key=lambda a: ipaddress.IPv4Address(a))


def reachable_hosts(listen: tuple[str, int] | None) -> list[str]:
    """The addresses others can type to reach a peer listening at *listen*: the machine's IPv4
    addresses when it listens on every interface, else the address it listens on."""
    if listen is None:
        return []
    host = listen[0]
    if host in ("", "0.0.0.0", "::"):
        return local_ipv4() or ["127.0.0.1"]
    return [host]


def join_command(host: str, port: int, game: str, verb: str = "join") -> str:
    """The command line that joins (or, with *verb* ``spectate``, watches) this game from elsewhere."""
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return f"carcnet {verb} {where} --game {game}"


@dataclass(frozen=True, slots=True)
class Target:
    """A game typed by hand: where to connect, and the game id if it was given."""

    host: str
    port: int
    game: str | None


def parse_target(text: str) -> Target:
    """Reads what a person typed to reach a game where multicast does not get through: ``host:port``
    and the game id, in any order; a pasted ``carcnet join 192.168.1.20:7000 --game <id>`` works too.

    Raises:
        ValueError: No address, or a bad one (the message says what is expected).
    """
    from carcnet.net.discovery import parse_host_port

    address = None
    game = None
    for token in text.replace(",", " ").split():
        if token.lower() in ("carcnet", "join", "spectate", "watch", "--game", "-g"):
            continue
        if token.startswith("--game="):
            token = token.removeprefix("--game=")
        if _HEX32.fullmatch(token):
            game = token.lower()
            continue
        if address is not None:
            raise ValueError(f"{token!r}: one address only (host:port), then the game id")
        address = parse_host_port(token)
    if address is None:
        raise ValueError("type the address as host:port, e.g. 192.168.1.20:7000, and the game id")
    return Target(address.host, address.port, game)


def ad_address(ad: GameAd) -> tuple[str, int] | None:
    """Where to connect to the peer of advertisement *ad*: an IPv4 address if it has one."""
    if not ad.addresses:
        return None
    v4 = [a for a in ad.addresses if ":" not in a]
    return (v4[0] if v4 else ad.addresses[0]), ad.port


def incompatibility(ad: GameAd) -> str | None:
    """Why this carcnet cannot play the advertised game (another protocol or rules version), or ``None``."""
    from carcnet.engine import RULES_VERSION
    from carcnet.net.messages import PROTO_VERSION

    if ad.proto != PROTO_VERSION:
        return f"another carcnet: protocol {ad.proto}, this one speaks {PROTO_VERSION}"
    if ad.rules != RULES_VERSION:
        return f"another carcnet: rules {ad.rules}, this one plays rules {RULES_VERSION}"
    return None
