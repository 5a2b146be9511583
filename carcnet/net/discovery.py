"""Finding games on the LAN: DNS-SD over mDNS, as ``protocol/discovery.md`` (discovery 1) says.

The only module of carcnet that imports :mod:`zeroconf` (python-zeroconf, asyncio API). Three parts:

- :class:`GameAd`: what one service instance says (discovery.md §2), with :meth:`GameAd.to_txt` and
  :meth:`GameAd.from_txt` for the TXT record (RFC 6763 §6). Reading is strict about the carcnet keys
  and lenient about everything else (§3): a record that is not a carcnet record raises
  :class:`ValueError` from :meth:`~GameAd.from_txt`, and the :class:`Browser` ignores it.
- :class:`Advertiser`: registers one service instance per game this peer accepts connections for
  (discovery.md §1), re-announces it on :meth:`~Advertiser.update` (RFC 6762 §8.4) and says goodbye
  on :meth:`~Advertiser.stop` / :meth:`~Advertiser.close` (RFC 6762 §10.1).
- :class:`Browser`: an async context manager and async iterator of :class:`GameFound`,
  :class:`GameUpdated` and :class:`GameLost` events for ``_carcnet._tcp.local.`` (RFC 6763 §4),
  resolving each instance's SRV, TXT and A/AAAA records with a bounded wait.

And :func:`parse_host_port` for the address a person types where multicast does not get through.

Everything here is a hint (discovery.md §3): the TCP handshake of wire.md §4 decides. Every wait is
bounded (``timeout`` arguments, in seconds); every task this module starts is held and ended by
``close()``.

>>> ad = GameAd(game="3f2a9c1b" * 4, name="Friday game", phase="lobby", seats_taken=1,
...             seats_total=2, peer="Ann", role="host", key=bytes(32), port=7000)
>>> ad.to_txt()[:8]
b'\\x07proto=1'
>>> GameAd.from_txt(ad.to_txt(), port=7000) == ad
True
>>> ad.instance_label
'Ann (3f2a9c1b)'
>>> parse_host_port("[fe80::1%eth0]:7000")
HostPort(host='fe80::1%eth0', port=7000)
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import logging
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Literal, NamedTuple, Self, TypeAlias

import ifaddr  # a dependency of zeroconf: the machine's addresses, when no interface is pinned
from zeroconf import (
    BadTypeInNameException,
    InterfaceChoice,
    IPVersion,
    NonUniqueNameException,
    ServiceStateChange,
    Zeroconf,
)
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from carcnet.engine import RULES_VERSION

from .messages import PROTO_VERSION

__all__ = [
    "MAX_GAMES",
    "RESOLVE_TIMEOUT",
    "SERVICE_TYPE",
    "Advertiser",
    "Browser",
    "DiscoveryError",
    "DiscoveryEvent",
    "GameAd",
    "GameFound",
    "GameLost",
    "GameUpdated",
    "HostPort",
    "IpVersion",
    "Phase",
    "parse_host_port",
]

log = logging.getLogger(__name__)

#: The DNS-SD service type (discovery.md §1; RFC 6763 §7: ``_<service>._tcp``).
SERVICE_TYPE = "_carcnet._tcp.local."
#: TXT keys in the order they are written, ``proto`` first (discovery.md §2, RFC 6763 §6.7).
TXT_KEYS = ("proto", "rules", "game", "gname", "phase", "seats", "peer", "role", "key")
#: Phases a record may announce (discovery.md §2).
PHASES = ("lobby", "playing", "finished")
#: Roles a record may announce: spectators do not advertise (discovery.md §1).
AD_ROLES = ("host", "player")
#: Seats in a game: 2 to 6 (log.md §5, wire.md §4.6).
MIN_SEATS, MAX_SEATS = 2, 6
#: Longest instance label in bytes of UTF-8 (RFC 6763 §4.1.1; discovery.md §1).
MAX_LABEL_BYTES = 63
#: Seconds a :class:`Browser` waits for one instance's SRV, TXT and address records.
RESOLVE_TIMEOUT = 3.0
#: Seconds an :class:`Advertiser` operation may take: probing (RFC 6762 §8.1, about 1 s, more after
#: a rename) plus the three announcements (RFC 6762 §8.3).
OP_TIMEOUT = 10.0
#: Seconds ``close()`` may take: goodbyes (RFC 6762 §10.1) and closing the sockets.
CLOSE_TIMEOUT = 5.0
#: Most instances a :class:`Browser` tracks (and resolves at once); more are ignored.
MAX_GAMES = 256
#: Most events a :class:`Browser` queues for a reader that does not read; more are dropped (the
#: :attr:`Browser.games` snapshot stays right).
MAX_EVENTS = 1024

Phase: TypeAlias = Literal["lobby", "playing", "finished"]
AdRole: TypeAlias = Literal["host", "player"]
#: ``"v4"``, ``"v6"`` or ``"all"``; ``None`` is zeroconf's default (IPv4 only, unless the pinned
#: interfaces say otherwise).
IpVersion: TypeAlias = Literal["v4", "v6", "all"]

_NAME_MAX = 32
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_HEX32 = re.compile(r"[0-9a-f]{32}")
_HEX64 = re.compile(r"[0-9a-f]{64}")
_DECIMAL = re.compile(r"0|[1-9][0-9]{0,8}")
_SEATS = re.compile(r"(0|[1-9][0-9]{0,8})/(0|[1-9][0-9]{0,8})")
_IP_VERSIONS = {"v4": IPVersion.V4Only, "v6": IPVersion.V6Only, "all": IPVersion.All}


class DiscoveryError(Exception):
    """mDNS could not be started, an advertisement could not be registered, updated or withdrawn in
    time, or the object is closed. The message says which."""


# ---------------------------------------------------------------------- the advertisement


def _check_name(value: object, what: str) -> str:
    """log.md §5's rule for names: 1 to 32 characters, not only white space, no control characters."""
    if not isinstance(value, str) or not value.strip() or len(value) > _NAME_MAX or _CONTROL.search(value):
        raise ValueError(
            f"{what} must be 1 to {_NAME_MAX} characters without control characters, got {value!r}"
        )
    return value


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class GameAd:
    """One service instance's advertisement: a game and the peer that accepts connections for it.

    Built by the advertising peer (checked at once: :class:`ValueError` names the bad field) or read
    from the network by :meth:`from_txt`. Everything but ``port`` and ``addresses`` travels in the
    TXT record (discovery.md §2); those two come from the SRV and A/AAAA records.

    Attributes:
        game: The game id, 32 lowercase hex digits (TXT ``game``).
        name: The game's name, 1 to 32 characters (TXT ``gname``; the ``lobby`` message's ``name``).
        phase: ``"lobby"``, ``"playing"`` or ``"finished"`` (TXT ``phase``).
        seats_taken: Seats taken, 0 to ``seats_total`` (TXT ``seats``, before the ``/``).
        seats_total: Seats in all, 2 to 6 (TXT ``seats``, after the ``/``).
        peer: The advertising peer's name, 1 to 32 characters (TXT ``peer``).
        role: ``"host"`` (holds the lobby) or ``"player"`` (TXT ``role``).
        key: The advertising peer's identity key, 32 bytes (TXT ``key``, as 64 lowercase hex digits;
            wire.md §3.1).
        port: The peer's listening TCP port, 1 to 65535 (SRV).
        addresses: The peer's IP addresses as text (A/AAAA; IPv6 link-local ones read from the network
            carry their ``%scope``). Empty: the :class:`Advertiser` fills in the host's own.
        proto: The wire protocol version, 0 to 999 999 999 (TXT ``proto``; wire.md §8).
        rules: The engine's rules version, 0 to 999 999 999 (TXT ``rules``).
    """

    game: str
    name: str
    phase: Phase
    seats_taken: int
    seats_total: int
    peer: str
    role: AdRole
    key: bytes
    port: int
    addresses: tuple[str, ...] = ()
    proto: int = PROTO_VERSION
    rules: int = RULES_VERSION

    def __post_init__(self) -> None:
        if not isinstance(self.game, str) or not _HEX32.fullmatch(self.game):
            raise ValueError(f"game must be 32 lowercase hex digits, got {self.game!r}")
        _check_name(self.name, "name")
        _check_name(self.peer, "peer")
        if self.phase not in PHASES:
            raise ValueError(f"phase must be one of {', '.join(PHASES)}, got {self.phase!r}")
        if self.role not in AD_ROLES:
            raise ValueError(f"role must be one of {', '.join(AD_ROLES)}, got {self.role!r}")
        if not _is_int(self.seats_total) or not MIN_SEATS <= self.seats_total <= MAX_SEATS:
            raise ValueError(f"seats_total must be {MIN_SEATS} to {MAX_SEATS}, got {self.seats_total!r}")
        if not _is_int(self.seats_taken) or not 0 <= self.seats_taken <= self.seats_total:
            raise ValueError(
                f"seats_taken must be 0 to seats_total ({self.seats_total}), got {self.seats_taken!r}"
            )
        if not isinstance(self.key, bytes) or len(self.key) != 32:
            raise ValueError(f"key must be 32 bytes, got {self.key!r}")
        if not _is_int(self.port) or not 1 <= self.port <= 65535:
            raise ValueError(f"port must be 1 to 65535, got {self.port!r}")
        for version, what in ((self.proto, "proto"), (self.rules, "rules")):
            if not _is_int(version) or not 0 <= version <= 999_999_999:
                raise ValueError(f"{what} must be 0 to 999999999, got {version!r}")
        if not isinstance(self.addresses, tuple):
            raise ValueError(f"addresses must be a tuple of IP addresses, got {self.addresses!r}")  # noqa: TRY004
        for address in self.addresses:
            try:
                ipaddress.ip_address(address)
            except ValueError:
                raise ValueError(f"addresses must hold IP addresses, got {address!r}") from None

    # ------------------------------------------------------------------ derived

    @property
    def compatible(self) -> bool:
        """Whether this carcnet may connect: the same ``proto`` and ``rules`` (discovery.md §3)."""
        return self.proto == PROTO_VERSION and self.rules == RULES_VERSION

    @property
    def joinable(self) -> bool:
        """A host's lobby with a free seat and our versions: joinable as a player (discovery.md §3)."""
        return (
            self.compatible
            and self.role == "host"
            and self.phase == "lobby"
            and self.seats_taken < self.seats_total
        )

    @property
    def instance_label(self) -> str:
        """The service instance label: ``<peer> (<first 8 hex digits of game>)``, at most 63 bytes of
        UTF-8 cut at a character boundary (discovery.md §1, RFC 6763 §4.1.1).

        A ``.`` in the peer's name becomes ``\u2024`` (one dot leader): python-zeroconf writes names
        label by label without escaping dots, so a dot would split the label (RFC 6763 §4.3)."""
        return _cut_utf8(f"{self.peer.replace('.', chr(0x2024))} ({self.game[:8]})", MAX_LABEL_BYTES)

    # ------------------------------------------------------------------ TXT

    def to_txt(self) -> bytes:
        """The TXT record's RDATA (RFC 6763 §6.1): one length-prefixed ``key=value`` string per key of
        discovery.md §2, in its order (``proto`` first), values in UTF-8. At most 429 bytes (names of
        32 four-byte characters); at most 237 with ASCII names."""
        fields = (
            str(self.proto),
            str(self.rules),
            self.game,
            self.name,
            self.phase,
            f"{self.seats_taken}/{self.seats_total}",
            self.peer,
            self.role,
            self.key.hex(),
        )
        out = bytearray()
        for key, value in zip(TXT_KEYS, fields, strict=True):
            item = f"{key}={value}".encode()
            out.append(len(item))  # < 256: the longest value is 32 characters of 4 bytes
            out += item
        return bytes(out)

    @classmethod
    def from_txt(
        cls,
        txt: bytes | Mapping[str | bytes, str | bytes | None],
        *,
        port: int | None,
        addresses: Sequence[str] = (),
    ) -> GameAd:
        """Read a TXT record (discovery.md §2–3) into an advertisement.

        Args:
            txt: The RDATA as bytes (RFC 6763 §6.1: length-prefixed strings), or a mapping of keys to
                values as python-zeroconf's ``ServiceInfo.properties`` gives (``None``: a key without
                ``=``).
            port: The SRV port (``None`` when unknown: refused).
            addresses: The A/AAAA addresses as text.

        Keys are compared case-insensitively; the first of a repeated key counts and strings without a
        key are skipped (RFC 6763 §6.4); unknown keys are ignored. Records of another ``proto`` or
        ``rules`` are read (see :attr:`compatible`).

        Raises:
            ValueError: For anything that is not a carcnet record of discovery 1: truncated RDATA, a
                missing key, a key without a value, a value that is not UTF-8 or is out of range.
                Never another exception, whatever *txt* holds.
        """
        fields = _txt_fields(txt)
        missing = [key for key in TXT_KEYS if key not in fields]
        if missing:
            raise ValueError(f"TXT record lacks {', '.join(missing)}")
        text: dict[str, str] = {}
        for key in TXT_KEYS:
            raw = fields[key]
            if raw is None:
                raise ValueError(f"TXT key {key} has no value")
            try:
                text[key] = raw.decode("utf-8") if isinstance(raw, bytes) else str(raw)
            except UnicodeDecodeError:
                raise ValueError(f"TXT value of {key} is not UTF-8") from None
        for key in ("proto", "rules"):
            if not _DECIMAL.fullmatch(text[key]):
                raise ValueError(f"TXT {key} must be a decimal number, got {text[key]!r}")
        if not _HEX64.fullmatch(text["key"]):
            raise ValueError(f"TXT key must be 64 lowercase hex digits, got {text['key']!r}")
        seats = _SEATS.fullmatch(text["seats"])
        if seats is None:
            raise ValueError(f"TXT seats must be taken/total, got {text['seats']!r}")
        if port is None:
            raise ValueError("no SRV port")
        try:
            return cls(
                game=text["game"],
                name=text["gname"],
                phase=text["phase"],  # type: ignore[arg-type]  # checked by __post_init__
                seats_taken=int(seats[1]),
                seats_total=int(seats[2]),
                peer=text["peer"],
                role=text["role"],  # type: ignore[arg-type]
                key=bytes.fromhex(text["key"]),
                port=port,
                addresses=tuple(addresses),
                proto=int(text["proto"]),
                rules=int(text["rules"]),
            )
        except (TypeError, ValueError) as exc:  # TypeError: a port or address of a foreign type
            raise ValueError(f"TXT record refused: {exc}") from None


def _txt_fields(txt: object) -> dict[str, bytes | str | None]:
    """The first value of each key, keys lowercased (RFC 6763 §6.4–6.5). ValueError if unreadable."""
    fields: dict[str, bytes | str | None] = {}
    if isinstance(txt, bytes | bytearray | memoryview):
        data = bytes(txt)
        pos = 0
        for _ in range(len(data)):  # each string takes at least one byte
            if pos >= len(data):
                break
            length = data[pos]
            item = data[pos + 1 : pos + 1 + length]
            if len(item) != length:
                raise ValueError(f"TXT RDATA truncated at byte {pos}")
            pos += 1 + length
            raw_key, sep, value = item.partition(b"=")
            if not raw_key:
                continue  # an empty string or one starting with '=' (§6.4, §6.1)
            try:
                key = raw_key.decode("ascii").lower()
            except UnicodeDecodeError:
                continue  # not a key of ours (§6.4: printable US-ASCII)
            fields.setdefault(key, value if sep else None)
        return fields
    if isinstance(txt, Mapping):
        for raw, value in txt.items():
            if isinstance(raw, bytes):
                try:
                    key = raw.decode("ascii").lower()
                except UnicodeDecodeError:
                    continue
            elif isinstance(raw, str):
                key = raw.lower()
            else:
                continue
            if value is not None and not isinstance(value, bytes | str):
                raise ValueError(f"TXT value of {key} is a {type(value).__name__}")
            fields.setdefault(key, value)
        return fields
    raise ValueError(f"a TXT record is bytes or a mapping, not {type(txt).__name__}")


def _cut_utf8(text: str, limit: int) -> str:
    """*text* cut to at most *limit* bytes of UTF-8 at a character boundary."""
    data = text.encode()
    if len(data) <= limit:
        return text
    return data[:limit].decode("utf-8", errors="ignore")


# ---------------------------------------------------------------------- typed addresses


class HostPort(NamedTuple):
    """A parsed ``host:port``: ``host`` is an IPv4 address, an IPv6 address without brackets (a
    ``%scope`` kept), or a host name; ``port`` is 1 to 65535."""

    host: str
    port: int


_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
_EXAMPLES = "e.g. 192.168.1.20:7000, [fe80::1%eth0]:7000 or ann-laptop.local:7000"


def parse_host_port(text: str, *, default_port: int | None = None) -> HostPort:
    """Read the address a person types when discovery does not reach a peer.

    Forms: ``IPv4:port``, ``[IPv6]:port`` (the brackets of RFC 3986 §3.2.2; a zone such as ``%eth0``
    is kept), ``hostname:port`` (RFC 1123 labels: letters, digits, ``-``; at most 253 characters).
    Surrounding white space is ignored. With *default_port*, the ``:port`` may be left out.

    Returns:
        :class:`HostPort`; IP addresses in their canonical text (``str(ipaddress.ip_address(...))``).

    Raises:
        ValueError: With a message saying what is wrong and what is expected: empty text, no port,
            an IPv6 address without brackets, a port that is not 1 to 65535, a bad host name.
    """
    if not isinstance(text, str):
        raise ValueError(f"an address is text, not {type(text).__name__}")  # noqa: TRY004
    s = text.strip()
    if not s:
        raise ValueError(f"no address given; expected host:port, {_EXAMPLES}")
    if s.startswith("["):
        end = s.find("]")
        if end < 0:
            raise ValueError(f"{s!r}: '[' without ']'; an IPv6 address is written [address]:port")
        host_text, rest = s[1:end], s[end + 1 :]
        try:
            host = str(ipaddress.IPv6Address(host_text))
        except ValueError:
            raise ValueError(f"{s!r}: {host_text!r} is not an IPv6 address") from None
        if rest == "" and default_port is not None:
            return HostPort(host, _check_port(str(default_port), s))
        if not rest.startswith(":"):
            raise ValueError(f"{s!r}: expected :port after ']', {_EXAMPLES}")
        return HostPort(host, _check_port(rest[1:], s))
    if s.count(":") > 1:
        raise ValueError(f"{s!r}: an IPv6 address needs brackets: [address]:port, e.g. [fe80::1%eth0]:7000")
    host_text, sep, port_text = s.partition(":")
    if not sep:
        if default_port is None:
            raise ValueError(f"{s!r}: no port; expected host:port, {_EXAMPLES}")
        port_text = str(default_port)
    if not host_text:
        raise ValueError(f"{s!r}: no host before ':port', {_EXAMPLES}")
    port = _check_port(port_text, s)
    if re.fullmatch(r"[0-9.]+", host_text):
        try:
            return HostPort(str(ipaddress.IPv4Address(host_text)), port)
        except ValueError:
            raise ValueError(f"{s!r}: {host_text!r} is not an IPv4 address (four numbers 0-255)") from None
    name = host_text.removesuffix(".")
    if len(name) > 253 or not all(_LABEL.fullmatch(label) for label in name.split(".")):
        raise ValueError(
            f"{s!r}: {host_text!r} is not a host name (labels of letters, digits and '-', "
            "1 to 63 characters, separated by '.')"
        )
    return HostPort(host_text, port)


def _check_port(port_text: str, whole: str) -> int:
    if not port_text:
        raise ValueError(f"{whole!r}: empty port; expected a number from 1 to 65535")
    if (
        not port_text.isascii()
        or not port_text.isdigit()
        or len(port_text) > 5
        or not 1 <= int(port_text) <= 65535
    ):
        raise ValueError(f"{whole!r}: port {port_text!r} is not a number from 1 to 65535")
    return int(port_text)


# ---------------------------------------------------------------------- zeroconf plumbing


def _interfaces(interfaces: Sequence[str] | None) -> InterfaceChoice | list[str]:
    if interfaces is None:
        return InterfaceChoice.All
    if isinstance(interfaces, str) or not interfaces:
        raise ValueError("interfaces is None (all) or a non-empty list of IP addresses")
    chosen = []
    for address in interfaces:
        try:
            chosen.append(str(ipaddress.ip_address(address)))
        except ValueError:
            raise ValueError(f"interfaces holds IP addresses of this host, got {address!r}") from None
    return chosen


def _ip_version(version: IpVersion | None) -> IPVersion | None:
    if version is None:
        return None
    try:
        return _IP_VERSIONS[version]
    except KeyError:
        raise ValueError(f"ip_version is one of v4, v6, all, got {version!r}") from None


def _open_zeroconf(interfaces: Sequence[str] | None, ip_version: IpVersion | None) -> AsyncZeroconf:
    """An AsyncZeroconf bound to the running loop; DiscoveryError if its sockets cannot be opened."""
    chosen, version = _interfaces(interfaces), _ip_version(ip_version)
    try:
        return AsyncZeroconf(interfaces=chosen, ip_version=version)
    except (OSError, RuntimeError, ValueError) as exc:
        raise DiscoveryError(f"cannot start mDNS on {interfaces or 'all interfaces'}: {exc}") from exc


async def _close_zeroconf(aiozc: AsyncZeroconf, timeout: float) -> None:
    try:
        async with asyncio.timeout(timeout):
            await aiozc.async_close()
    except (TimeoutError, OSError, RuntimeError) as exc:
        log.warning("closing mDNS: %s", exc or type(exc).__name__)


def _host_addresses(ip_version: IpVersion | None) -> list[str]:
    """This host's addresses to advertise: every non-loopback one of the IP version (IPv4 by default),
    IPv6 ones without their scope; loopback only if there is nothing else."""
    want_v4 = ip_version in (None, "v4", "all")
    want_v6 = ip_version in ("v6", "all")
    found: list[str] = []
    loopback: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str):
                if not want_v4:
                    continue
                text = ip.ip
            else:
                if not want_v6:
                    continue
                text = ip.ip[0].split("%")[0]
            try:
                address = ipaddress.ip_address(text)
            except ValueError:
                continue
            (loopback if address.is_loopback else found).append(str(address))
    return sorted(set(found or loopback))


# ---------------------------------------------------------------------- advertising


class Advertiser:
    """Advertises this peer's games: one DNS-SD service instance per game (discovery.md §1).

    Use as ``async with Advertiser() as adv: await adv.start(ad) ...`` or call :meth:`close`. One
    zeroconf responder serves every game of the peer. Instances are named by
    :attr:`GameAd.instance_label`; if another responder already holds the name, zeroconf renames it
    (RFC 6762 §9: python-zeroconf appends ``-2``, ``-3``…), so :meth:`start` returns the name used.
    The SRV target is a host name of this advertiser's own (``carcnet-<8 hex>.local.``), so that
    peers on machines with the same host name do not claim each other's A records.

    Args:
        interfaces: IP addresses of this host to answer on and advertise; ``None``: every interface,
            advertising every non-loopback address of *ip_version*.
        ip_version: ``"v4"``, ``"v6"``, ``"all"`` or ``None`` (zeroconf's default, see
            :data:`IpVersion`).
        timeout: Seconds each operation may take (:data:`OP_TIMEOUT`).
    """

    def __init__(
        self,
        *,
        interfaces: Sequence[str] | None = None,
        ip_version: IpVersion | None = None,
        timeout: float = OP_TIMEOUT,
    ) -> None:
        _interfaces(interfaces)  # refuse bad arguments at once
        _ip_version(ip_version)
        self._interface_list = list(interfaces) if interfaces is not None else None
        self._ip_version = ip_version
        self._timeout = timeout
        self._server = f"carcnet-{secrets.token_hex(4)}.local."
        self._aiozc: AsyncZeroconf | None = None
        self._infos: dict[str, AsyncServiceInfo] = {}  # game id -> registered instance
        self._lock = asyncio.Lock()
        self._closed = False

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    @property
    def instances(self) -> Mapping[str, str]:
        """Game id → the full service instance name advertised for it (a copy)."""
        return {game: info.name for game, info in self._infos.items()}

    async def start(self, ad: GameAd) -> str:
        """Register *ad*'s game: probe for the name, then announce (RFC 6762 §8.1, §8.3).

        Returns:
            The full instance name, e.g. ``"Ann (3f2a9c1b)._carcnet._tcp.local."``.

        Raises:
            ValueError: This advertiser already advertises that game (use :meth:`update`).
            DiscoveryError: Closed, the sockets cannot be opened, or it took more than ``timeout``.
        """
        try:
            async with asyncio.timeout(self._timeout):
                async with self._lock:
                    if self._closed:
                        raise DiscoveryError("the advertiser is closed")
                    if ad.game in self._infos:
                        raise ValueError(f"game {ad.game} is advertised already; use update()")
                    if self._aiozc is None:
                        self._aiozc = _open_zeroconf(self._interface_list, self._ip_version)
                    name = self._free_name(ad.instance_label)
                    info = self._info(name, ad)
                    try:
                        announced = await self._aiozc.async_register_service(info, allow_name_change=True)
                        await announced
                    except (BadTypeInNameException, NonUniqueNameException, OSError) as exc:
                        raise DiscoveryError(f"cannot register {name!r}: {exc}") from exc
                    self._infos[ad.game] = info
                    log.debug("advertising %s", info.name)
                    return info.name
        except TimeoutError:
            raise DiscoveryError(f"registering game {ad.game} took more than {self._timeout} s") from None

    async def update(self, ad: GameAd) -> None:
        """Replace the advertisement of *ad*'s game (same ``game``) and re-announce it (RFC 6762 §8.4),
        e.g. when ``phase`` or ``seats`` changes (discovery.md §2). The instance name stays.

        Raises:
            KeyError: The game is not advertised (use :meth:`start`).
            DiscoveryError: Closed, or it took more than ``timeout``.
        """
        try:
            async with asyncio.timeout(self._timeout):
                async with self._lock:
                    if self._closed or self._aiozc is None:
                        raise DiscoveryError(
                            "the advertiser is closed" if self._closed else "nothing advertised"
                        )
                    old = self._infos.get(ad.game)
                    if old is None:
                        raise KeyError(f"game {ad.game} is not advertised; use start()")
                    info = self._info(old.name, ad)
                    try:
                        announced = await self._aiozc.async_update_service(info)
                        await announced
                    except OSError as exc:
                        raise DiscoveryError(f"cannot update {info.name!r}: {exc}") from exc
                    self._infos[ad.game] = info
        except TimeoutError:
            raise DiscoveryError(f"updating game {ad.game} took more than {self._timeout} s") from None

    async def stop(self, game: str) -> None:
        """Withdraw the advertisement of *game* with goodbyes (RFC 6762 §10.1); nothing if it is not
        advertised. Raises DiscoveryError if it took more than ``timeout``."""
        try:
            async with asyncio.timeout(self._timeout):
                async with self._lock:
                    info = self._infos.pop(game, None)
                    if info is not None and self._aiozc is not None and not self._closed:
                        await self._goodbye(self._aiozc, info)
        except TimeoutError:
            raise DiscoveryError(f"withdrawing game {game} took more than {self._timeout} s") from None

    async def close(self) -> None:
        """Withdraw every advertisement (goodbyes) and close the sockets. Idempotent; never raises for a
        network failure (it is logged); takes at most about ``CLOSE_TIMEOUT`` seconds."""
        if self._closed:
            return
        self._closed = True
        aiozc, self._aiozc = self._aiozc, None
        infos = list(self._infos.values())
        self._infos.clear()
        if aiozc is None:
            return
        try:
            async with asyncio.timeout(CLOSE_TIMEOUT):
                await asyncio.gather(*(self._goodbye(aiozc, info) for info in infos))
        except (TimeoutError, OSError) as exc:
            log.warning("goodbyes not all sent: %s", exc or type(exc).__name__)
        await _close_zeroconf(aiozc, CLOSE_TIMEOUT)

    def _free_name(self, label: str) -> str:
        """``label.SERVICE_TYPE``, or ``label (n)`` if another game of this advertiser holds it (two game
        ids with the same first 8 hex digits): zeroconf refuses a name registered twice."""
        taken = {info.name.lower() for info in self._infos.values()}
        for n in range(1, len(taken) + 2):  # len(taken) + 1 candidates: one is free
            suffix = "" if n == 1 else f" ({n})"
            name = f"{_cut_utf8(label, MAX_LABEL_BYTES - len(suffix))}{suffix}.{SERVICE_TYPE}"
            if name.lower() not in taken:
                return name
        raise AssertionError("unreachable")  # pragma: no cover

    @staticmethod
    async def _goodbye(aiozc: AsyncZeroconf, info: AsyncServiceInfo) -> None:
        sent = await aiozc.async_unregister_service(info)
        await sent

    def _info(self, name: str, ad: GameAd) -> AsyncServiceInfo:
        addresses = list(ad.addresses) or self._interface_list or _host_addresses(self._ip_version)
        addresses = [a.split("%")[0] for a in addresses]  # A/AAAA records carry no zone
        return AsyncServiceInfo(
            SERVICE_TYPE,
            name,
            port=ad.port,
            properties=ad.to_txt(),
            server=self._server,
            parsed_addresses=list(addresses),
        )


# ---------------------------------------------------------------------- browsing


@dataclass(frozen=True, slots=True)
class GameFound:
    """A carcnet instance appeared: *ad* as read, *instance* its full service instance name."""

    ad: GameAd
    instance: str


@dataclass(frozen=True, slots=True)
class GameUpdated:
    """A known instance's advertisement changed (phase, seats, addresses…): *ad* is the new one."""

    ad: GameAd
    instance: str


@dataclass(frozen=True, slots=True)
class GameLost:
    """An instance said goodbye, expired (RFC 6762 §10.1), or now says something that is not a carcnet
    record. *instance* is the name of an earlier :class:`GameFound`."""

    instance: str


DiscoveryEvent: TypeAlias = GameFound | GameUpdated | GameLost


class Browser:
    """Watches ``_carcnet._tcp.local.`` (RFC 6763 §4) and reports carcnet games as events.

    Usage::

        async with Browser() as browser:
            async for event in browser:          # ends when the browser is closed
                ...
            # or: event = await browser.next_event(timeout=5.0)  (TimeoutError if none came)

    For each instance zeroconf reports added or updated, the browser resolves its SRV, TXT and
    A/AAAA records (:class:`~zeroconf.asyncio.AsyncServiceInfo`, at most *resolve_timeout* seconds)
    and reads them with :meth:`GameAd.from_txt`. It sends :class:`GameFound` the first time an
    instance reads well, :class:`GameUpdated` when what it reads changes, and :class:`GameLost` when
    a found instance goes (goodbye or expiry) or stops reading as a carcnet record. Records that never
    read well are ignored (discovery.md §3); one that fails to resolve in time keeps its last state.
    The browser also sees this process's own advertisements (multicast loopback): filter on ``key``.

    Args:
        interfaces: IP addresses of this host to listen on; ``None``: every interface.
        ip_version: As for :class:`Advertiser`.
        resolve_timeout: Seconds to wait for one instance's records.
        max_games: Most instances tracked and resolved at once; further ones are ignored (logged).
    """

    def __init__(
        self,
        *,
        interfaces: Sequence[str] | None = None,
        ip_version: IpVersion | None = None,
        resolve_timeout: float = RESOLVE_TIMEOUT,
        max_games: int = MAX_GAMES,
    ) -> None:
        _interfaces(interfaces)
        _ip_version(ip_version)
        self._interface_list = list(interfaces) if interfaces is not None else None
        self._ip_version = ip_version
        self._resolve_timeout = resolve_timeout
        self._max_games = max_games
        self._aiozc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._games: dict[str, GameAd] = {}
        self._resolving: dict[str, asyncio.Task[None]] = {}  # instance -> its current resolution
        self._tasks: set[asyncio.Task[None]] = set()  # every resolution not finished, cancelled or not
        self._events: asyncio.Queue[DiscoveryEvent | None] = asyncio.Queue(MAX_EVENTS + 1)
        self._closed = False
        self.dropped_events = 0
        """Events dropped because the queue was full (the reader fell behind by :data:`MAX_EVENTS`)."""

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> DiscoveryEvent:
        event = await self._events.get()
        if event is None:
            self._events.put_nowait(None)  # for any other reader
            raise StopAsyncIteration
        return event

    @property
    def games(self) -> Mapping[str, GameAd]:
        """Instance name → advertisement of every instance found and not lost (a copy)."""
        return dict(self._games)

    async def start(self) -> None:
        """Open the sockets and start browsing (RFC 6762 §5.2 continuous querying). Called by
        ``async with``. Raises DiscoveryError if mDNS cannot start or the browser is closed."""
        if self._closed:
            raise DiscoveryError("the browser is closed")
        if self._aiozc is not None:
            return
        self._aiozc = _open_zeroconf(self._interface_list, self._ip_version)
        self._browser = AsyncServiceBrowser(self._aiozc.zeroconf, SERVICE_TYPE, handlers=[self._on_change])

    async def next_event(self, timeout: float) -> DiscoveryEvent | None:
        """The next event, waiting at most *timeout* seconds; ``None`` once the browser is closed and
        every event was read. Raises TimeoutError if none came."""
        async with asyncio.timeout(timeout):
            try:
                return await self.__anext__()
            except StopAsyncIteration:
                return None

    async def close(self) -> None:
        """Stop browsing, end the resolving tasks and close the sockets; iteration then ends after the
        events already queued. Idempotent; takes at most about ``2 * CLOSE_TIMEOUT`` seconds."""
        if self._closed:
            return
        self._closed = True
        browser, self._browser = self._browser, None
        aiozc, self._aiozc = self._aiozc, None
        if browser is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(browser.async_cancel(), CLOSE_TIMEOUT)
        tasks = list(self._tasks)
        self._resolving.clear()
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=CLOSE_TIMEOUT)
        if aiozc is not None:
            await _close_zeroconf(aiozc, CLOSE_TIMEOUT)
        if self._events.full():  # room for the end marker: drop the oldest event
            self._events.get_nowait()
            self.dropped_events += 1
        self._events.put_nowait(None)

    # ------------------------------------------------------------------ inside the event loop

    def _on_change(
        self, zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        """zeroconf's handler (called in the event loop, keyword arguments): never raises."""
        if self._closed:
            return
        try:
            if state_change is ServiceStateChange.Removed:
                task = self._resolving.pop(name, None)
                if task is not None:
                    task.cancel()
                if self._games.pop(name, None) is not None:
                    self._emit(GameLost(name))
                return
            if name not in self._games and len(self._games) >= self._max_games:
                log.warning("ignoring %r: %d games tracked already", name, self._max_games)
                return
            old = self._resolving.pop(name, None)
            if old is not None:
                old.cancel()  # resolve again: the records changed meanwhile
            elif len(self._tasks) >= self._max_games:
                log.warning("ignoring %r: %d resolutions under way", name, self._max_games)
                return
            task = asyncio.get_running_loop().create_task(self._resolve(name), name=f"carcnet resolve {name}")
            self._resolving[name] = task
            self._tasks.add(task)
            task.add_done_callback(functools.partial(self._resolved, name))
        except Exception:  # a bug here must not reach zeroconf's record handling
            log.exception("discovery: handling %s of %r", state_change, name)

    def _resolved(self, name: str, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if self._resolving.get(name) is task:
            del self._resolving[name]
        if not task.cancelled() and task.exception() is not None:
            log.error("discovery: resolving %r failed", name, exc_info=task.exception())

    async def _resolve(self, name: str) -> None:
        aiozc = self._aiozc
        if aiozc is None:
            return
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        try:
            async with asyncio.timeout(self._resolve_timeout + 1.0):
                complete = await info.async_request(aiozc.zeroconf, self._resolve_timeout * 1000)
        except TimeoutError:
            complete = False
        if not complete or info.port is None:
            log.debug("discovery: %r did not resolve in %.1f s", name, self._resolve_timeout)
            return
        try:
            ad = GameAd.from_txt(
                info.text or b"", port=info.port, addresses=sorted(set(info.parsed_scoped_addresses()))
            )
        except ValueError as exc:
            log.debug("discovery: ignoring %r: %s", name, exc)
            if self._games.pop(name, None) is not None:
                self._emit(GameLost(name))
            return
        old = self._games.get(name)
        if old == ad:
            return
        if old is None and len(self._games) >= self._max_games:
            return
        self._games[name] = ad
        self._emit(GameFound(ad, name) if old is None else GameUpdated(ad, name))

    def _emit(self, event: DiscoveryEvent) -> None:
        if self._events.qsize() >= MAX_EVENTS:
            self.dropped_events += 1
            log.warning("discovery: event queue full, dropping %s", type(event).__name__)
            return
        self._events.put_nowait(event)
