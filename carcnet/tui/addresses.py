"""Provides the network screens' words for people: the name to play under, this machine's addresses,
the command others type to join, and the reading of a typed ``host:port`` and game id.

The screens that use them: :mod:`.screens.host_setup` (host a table, the join form),
:mod:`.screens.browse` (games found on the LAN, or typed) and :mod:`.screens.lobby` (the table
filling up).
"""

from __future__ import annotations

import getpass
import ipaddress
import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from carcnet.i18n import _, ngettext
from carcnet.log.values import MAX_NAME, name_problem, strip_control

if TYPE_CHECKING:
    from carcnet.net.adverts import GameAd

__all__ = [
    "Target",
    "check_name",
    "default_name",
    "join_command",
    "local_ipv4",
    "parse_target",
    "reachable_hosts",
]

log = logging.getLogger("carcnet.tui")


_HEX32 = re.compile(r"[0-9a-fA-F]{32}")


# ---------------------------------------------------------------------- people's words


def check_name(text: str, what: str | None = None) -> str | None:
    """Why *text* is not a valid seat, peer or game name for people to read (the rule of
    ``carcnet.log.values.name_problem``), or ``None`` if it is. *what*: the name checked, as the
    sentence's subject in the language in use (``_("Your name")``; default ``A name``)."""
    what = what if what is not None else _("A name")
    if not text.strip():
        # Translators: {what}: the name checked, e.g. "Your name", "The game name", "A name"
        return _("{what} cannot be empty.").format(what=what)
    if len(text) > MAX_NAME:
        # Translators: {what}: the name checked, e.g. "Your name"; {count}: the most characters (32)
        return ngettext("{what} has at most {count} character.", "{what} has at most {count} characters.",
                        MAX_NAME).format(what=what, count=MAX_NAME)
    if name_problem(text) is not None:
        # Translators: {what}: the name checked, e.g. "Your name", "The game name", "A name"
        return _("{what} cannot hold control or invisible formatting characters.").format(what=what)
    return None


def default_name() -> str:
    """This computer user's login name, capitalised, as a name to play under (``Player`` if unknown)."""
    try:
        name = getpass.getuser()
    except Exception:  # noqa: BLE001 - no user name in this environment
        name = ""
    name = strip_control(name).strip()[:MAX_NAME]
    # Translators: the name to play under when this computer's user name is unknown
    return name.capitalize() if name else _("Player")


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
    from carcnet.net.adverts import parse_host_port

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
            # Translators: what was typed to reach a game; {token}: the part typed after an address, quoted
            raise ValueError(_("{token}: one address only (host:port), then the game id").format(token=repr(token)))
        address = parse_host_port(token)
    if address is None:
        raise ValueError(_("type the address as host:port, e.g. 192.168.1.20:7000, and the game id"))
    return Target(address.host, address.port, game)


def ad_address(ad: GameAd) -> tuple[str, int] | None:
    """Where to connect to the peer of advertisement *ad*: an IPv4 address if it has one."""
    if not ad.addresses:
        return None
    v4 = [a for a in ad.addresses if ":" not in a]
    return (v4[0] if v4 else ad.addresses[0]), ad.port


def incompatibility(ad: GameAd) -> str | None:
    """Why this carcnet cannot play the advertised game, in a player's words (its host's carcnet speaks
    another protocol or plays other rules: discovery.md §2, wire.md §8), or ``None``. The versions go
    to the connection log."""
    from carcnet.engine import RULES_VERSION
    from carcnet.net.messages import PROTO_VERSION

    theirs, ours = (ad.proto, ad.rules), (PROTO_VERSION, RULES_VERSION)
    if theirs == ours:
        return None
    log.debug("game %s: protocol %s, rules %s; here protocol %s, rules %s", ad.game[:8], *theirs, *ours)
    if theirs > ours:
        # Translators: why a game found on the network cannot be joined
        return _("hosted with a newer carcnet: update carcnet to join it")
    # Translators: why a game found on the network cannot be joined
    return _("hosted with an older carcnet: its host needs to update carcnet")
