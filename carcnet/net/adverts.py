"""Provides what a carcnet service instance says on the LAN, without I/O (``protocol/discovery.md``):
:class:`GameAd` with its TXT record both ways (discovery.md §2, RFC 6763 §6), and
:func:`parse_host_port` for the address a person types where multicast does not get through.

Reading a TXT record is strict about the carcnet keys and lenient about everything else (§3): a
record that is not a carcnet record raises :class:`ValueError` from :meth:`GameAd.from_txt`. The
mDNS side (advertising and browsing with zeroconf) is :mod:`carcnet.net.discovery`.

>>> ad = GameAd(game="3f2a9c1b" * 4, name="Friday game", phase="lobby", seats_taken=1,
...             seats_total=2, peer="Ann", role="host", key=bytes(32), port=7000)
>>> ad.to_txt()[:8]
b'\\x07proto=5'
>>> GameAd.from_txt(ad.to_txt(), port=7000) == ad
True
>>> ad.instance_label
'Ann (3f2a9c1b)'
>>> parse_host_port("[fe80::1%eth0]:7000")
HostPort(host='fe80::1%eth0', port=7000)
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple, TypeAlias

from carcnet.engine import RULES_VERSION
from carcnet.log.values import is_game_id, name_problem

from .messages import PROTO_VERSION

__all__ = [
    "AD_ROLES",
    "MAX_LABEL_BYTES",
    "PHASES",
    "SERVICE_TYPE",
    "TXT_KEYS",
    "AdRole",
    "GameAd",
    "HostPort",
    "Phase",
    "cut_utf8",
    "parse_host_port",
]

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

Phase: TypeAlias = Literal["lobby", "playing", "finished"]
AdRole: TypeAlias = Literal["host", "player"]

_HEX64 = re.compile(r"[0-9a-f]{64}")
_DECIMAL = re.compile(r"0|[1-9][0-9]{0,8}")
_SEATS = re.compile(r"(0|[1-9][0-9]{0,8})/(0|[1-9][0-9]{0,8})")


# ---------------------------------------------------------------------- the advertisement


def _check_name(value: object, what: str) -> str:
    """log.md §5's rule for names (``carcnet.log.values.name_problem``)."""
    problem = name_problem(value)
    if problem:
        raise ValueError(f"{what} {problem}, got {value!r}")
    assert isinstance(value, str)  # name_problem finds no problem only in a str
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
        if not is_game_id(self.game):
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
        return cut_utf8(f"{self.peer.replace('.', chr(0x2024))} ({self.game[:8]})", MAX_LABEL_BYTES)

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
                role=text["role"],  # type: ignore[arg-type]  # checked by __post_init__
                key=bytes.fromhex(text["key"]),
                port=port,
                addresses=tuple(addresses),
                proto=int(text["proto"]),
                rules=int(text["rules"]),
            )
        except (TypeError, ValueError) as exc:  # TypeError: a port or address of a foreign type
            raise ValueError(f"TXT record refused: {exc}") from None


def _txt_fields(txt: bytes | Mapping[str | bytes, str | bytes | None]) -> dict[str, bytes | str | None]:
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
            raw_key, sep, raw_value = item.partition(b"=")
            if not raw_key:
                continue  # an empty string or one starting with '=' (§6.4, §6.1)
            try:
                key = raw_key.decode("ascii").lower()
            except UnicodeDecodeError:
                continue  # not a key of ours (§6.4: printable US-ASCII)
            fields.setdefault(key, raw_value if sep else None)
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


def cut_utf8(text: str, limit: int) -> str:
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
