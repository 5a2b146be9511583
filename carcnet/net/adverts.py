"""Provides what a carcnet service instance says on the LAN, without I/O (``protocol/discovery.md``):
:class:`GameAd` with its TXT record both ways (discovery.md §2, RFC 6763 §6), :class:`ProbePlan`
(which records to confirm by a handshake, when, and how to list them under a flood, discovery.md §4),
and :func:`parse_host_port` for the address a person types where multicast does not get through.

Reading a TXT record is strict about the carcnet keys and lenient about everything else (§3): a
record that is not a carcnet record raises :class:`ValueError` from :meth:`GameAd.from_txt`. The
mDNS side (advertising and browsing with zeroconf) is :mod:`carcnet.net.discovery`.

>>> ad = GameAd(game="3f2a9c1b" * 4, name="Friday game", phase="lobby", seats_taken=1,
...             seats_total=2, peer="Ann", role="host", key=bytes(32), port=7000)
>>> ad.to_txt()[:9]
b'\\x08proto=11'
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
from collections import Counter, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple, TypeAlias

from carcnet.engine import RULES_VERSION
from carcnet.i18n import _
from carcnet.log.values import is_game_id, name_problem

from .messages import PROTO_VERSION

__all__ = [
    "AD_ROLES",
    "MAX_LABEL_BYTES",
    "MAX_RECORDS",
    "PHASES",
    "PROBES_AT_ONCE",
    "PROBES_PER_ADDRESS",
    "PROBES_PER_SILENT_ADDRESS",
    "PROBE_TIMEOUT",
    "RETRY_AFTER",
    "SERVICE_TYPE",
    "STARTS_PER_SECOND",
    "TXT_KEYS",
    "AdRole",
    "GameAd",
    "HostPort",
    "Outcome",
    "Phase",
    "ProbePlan",
    "ProbeTarget",
    "RecordStatus",
    "cut_utf8",
    "parse_host_port",
]

#: The DNS-SD service type (discovery.md §1; RFC 6763 §7: ``_<service>._tcp``).
SERVICE_TYPE = "_carcnet._tcp.local."
#: TXT keys in the order they are written, ``proto`` first (discovery.md §2, RFC 6763 §6.7).
TXT_KEYS = ("proto", "rules", "game", "gname", "phase", "seats", "peer", "role", "key")
#: Phases a record may announce (discovery.md §2).
PHASES = ("lobby", "playing", "finished")
#: Roles a record may announce: spectators do not advertise (discovery.md §1); ``event``: a laptop of
#: a tournament (discovery.md §2, protocol/tournament.md §6), not a table.
AD_ROLES = ("host", "player", "event")
#: Seats in a game: 2 to 6 (log.md §5, wire.md §4.6).
MIN_SEATS, MAX_SEATS = 2, 6
#: Longest instance label in bytes of UTF-8 (RFC 6763 §4.1.1; discovery.md §1).
MAX_LABEL_BYTES = 63

Phase: TypeAlias = Literal["lobby", "playing", "finished"]
AdRole: TypeAlias = Literal["host", "player", "event"]

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
        role: ``"host"`` (holds the lobby) or ``"player"`` (TXT ``role``); ``"event"``: a laptop of the
            tournament *game* names (its event id), *port* its event service, *seats_total* the
            event's table size and *seats_taken* its players up to it (protocol/tournament.md §6).
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
        for __ in range(len(data)):  # each string takes at least one byte
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


# ---------------------------------------------------------------------- confirming records


#: Probes a program runs at once, to every address together (discovery.md §4).
PROBES_AT_ONCE = 16
#: Probes at once to one IP address: half the 8 connections a peer takes from one address before they
#: prove their key (wire.md §2.1), so that probes never meet that budget, even with another program of
#: this machine dialling the same peer.
PROBES_PER_ADDRESS = 4
#: Probes at once to an address where a probe went unanswered (a tarpit, or a host that is gone).
PROBES_PER_SILENT_ADDRESS = 1
#: Probes begun to one IP address within a second: half the 16 new connections a second a peer takes
#: from one address (wire.md §2.1).
STARTS_PER_SECOND = 8
#: Seconds one probe may take; a probe that has heard nothing by then is silent.
PROBE_TIMEOUT = 3.0
#: Seconds after which a probe that proved nothing is run again, when a record needing it is read again.
RETRY_AFTER = 30.0
#: Records a plan holds that are not confirmed; it holds as many confirmed ones besides.
MAX_RECORDS = 256
#: IPv4 addresses of one record that are probed (its first ones).
ADDRESSES_PER_RECORD = 2
#: Addresses whose history (probes begun, silences) a plan remembers beyond those it has work for.
MAX_ADDRESSES = 4096

#: What a probe found: the identity key that proved itself there for the game (32 bytes), ``"refused"``
#: (no proof: the connection refused or closed, another game, bad bytes) or ``"silent"`` (nothing by
#: :data:`PROBE_TIMEOUT`, or the address cannot be reached).
Outcome: TypeAlias = bytes | Literal["refused", "silent"]
#: Where a record stands: ``"confirmed"`` (a probe proved its key for its game), ``"checking"``
#: (probes to come or under way), ``"unchecked"`` (not to be probed: another version), ``"failed"``
#: (every probe of it done, none proved its key).
RecordStatus: TypeAlias = Literal["confirmed", "checking", "unchecked", "failed"]

_RANK: dict[RecordStatus, int] = {"confirmed": 0, "checking": 1, "unchecked": 2, "failed": 3}


class ProbeTarget(NamedTuple):
    """One probe: dial *address* (IPv4) and *port*, and say ``hello`` as a spectator of *game*. Every
    record naming these three is settled by this one probe, whatever key it claims: the key that
    proves itself there is compared with each."""

    address: str
    port: int
    game: str


def _targets_of(ad: GameAd) -> tuple[ProbeTarget, ...]:
    v4 = [a.split("%")[0] for a in ad.addresses if ":" not in a]
    return tuple(dict.fromkeys(ProbeTarget(a, ad.port, ad.game) for a in v4[:ADDRESSES_PER_RECORD]))


@dataclass(slots=True)
class _Record:
    ad: GameAd
    targets: tuple[ProbeTarget, ...]
    probe: bool


class ProbePlan:
    """Which records to confirm by a handshake, when, and in what order to list them (discovery.md §4),
    without I/O and without a clock of its own.

    The caller reads records in (:meth:`seen`, :meth:`lost`), begins the probes :meth:`next_probes`
    gives (each at most :data:`PROBE_TIMEOUT` seconds), reports what each found (:meth:`done`), and
    waits for the first of a probe ending and :meth:`wake_at`. Times are seconds on one monotonic clock.

    Pacing: at most *at_once* probes under way; to one IP address at most *per_address* at once (one,
    once a probe there went silent, until a key proves itself there) and *per_second* begun within a
    second, below the handshake budgets a peer keeps per address (wire.md §2.1). The next probe is the
    one whose address went silent the fewest times, then was probed the fewest times, then whose
    record came first: records crowded at one address take turns with every other address, and those
    at a tarpit wait behind them. Records that name the same address, port and game share one probe.

    Bounds: at most *max_records* records not confirmed, and as many confirmed. When a record finds
    no room, a failed record goes (the oldest); else, of the records not confirmed, the address that
    holds the most gives up its newest (a flood's tail, whose probes would come last). Only a
    confirmed record makes a confirmed one go (the oldest): no number of forged records pushes out a
    confirmed table. Dropped records are reported by :meth:`take_dropped`.
    """

    def __init__(
        self,
        *,
        at_once: int = PROBES_AT_ONCE,
        per_address: int = PROBES_PER_ADDRESS,
        per_second: int = STARTS_PER_SECOND,
        max_records: int = MAX_RECORDS,
        retry_after: float = RETRY_AFTER,
    ) -> None:
        self.at_once, self.per_address, self.per_second = at_once, per_address, per_second
        self.max_records, self.retry_after = max_records, retry_after
        self._records: dict[str, _Record] = {}  # instance -> record, oldest first
        self._users: dict[ProbeTarget, set[str]] = {}  # target -> instances of the records naming it
        self._outcomes: dict[ProbeTarget, tuple[Outcome, float]] = {}  # target -> what it found, when
        self._queues: dict[str, dict[ProbeTarget, int]] = {}  # address -> targets to probe -> arrival
        self._arrivals = 0
        self._flying: set[ProbeTarget] = set()
        self._flying_at: Counter[str] = Counter()
        self._begun: dict[str, deque[float]] = {}  # address -> when its probes of the last second began
        self._probed: Counter[str] = Counter()  # address -> probes begun there
        self._silences: Counter[str] = Counter()  # address -> probes there that heard nothing
        self._dropped: list[str] = []

    # ------------------------------------------------------------------ records

    @property
    def records(self) -> dict[str, GameAd]:
        """Instance → advertisement of every record held, oldest first (a copy)."""
        return {name: record.ad for name, record in self._records.items()}

    @property
    def pending(self) -> int:
        """Probes waiting to begin."""
        return sum(len(queue) for queue in self._queues.values())

    @property
    def under_way(self) -> int:
        """Probes begun and not reported :meth:`done`."""
        return len(self._flying)

    def seen(self, instance: str, ad: GameAd, now: float, *, probe: bool = True) -> None:
        """Holds *ad* as what *instance* says now (read for the first time or again); *probe*: confirm
        it (a record of this version that the caller may use). Its probes are planned unless already
        planned, under way, or done (a failure older than *retry_after* is planned again)."""
        old = self._records.get(instance)
        targets = _targets_of(ad) if probe else ()
        self._records[instance] = _Record(ad, targets, probe)  # an update keeps the record's place
        for target in targets:
            self._users.setdefault(target, set()).add(instance)
            self._plan(target, now)
        if old is not None:
            self._release(instance, [t for t in old.targets if t not in targets])
        self._make_room()

    def lost(self, instance: str) -> bool:
        """Forgets *instance* (its goodbye, or it no longer fits what the caller looks for); its
        probes not begun are dropped unless another record needs them. Whether it was held."""
        record = self._records.pop(instance, None)
        if record is None:
            return False
        self._release(instance, record.targets)
        return True

    def take_dropped(self) -> list[str]:
        """The instances dropped to make room since the last call (then forgotten here)."""
        dropped, self._dropped = self._dropped, []
        return dropped

    def get(self, instance: str) -> GameAd | None:
        """The advertisement of *instance* held, or ``None``."""
        record = self._records.get(instance)
        return record.ad if record is not None else None

    def status(self, instance: str) -> RecordStatus | None:
        """Where the record of *instance* stands (:data:`RecordStatus`); ``None`` if not held."""
        record = self._records.get(instance)
        if record is None:
            return None
        if not record.probe:
            return "unchecked"
        open_ = False
        for target in record.targets:
            known = self._outcomes.get(target)
            if known is None:
                open_ = True
            elif known[0] == record.ad.key:
                return "confirmed"
        return "checking" if open_ else "failed"

    def where(self, instance: str) -> tuple[str, int] | None:
        """The address and port where the key of *instance*'s record proved itself, or ``None``."""
        record = self._records.get(instance)
        if record is None:
            return None
        for target in record.targets:
            known = self._outcomes.get(target)
            if known is not None and known[0] == record.ad.key:
                return target.address, target.port
        return None

    def listing(self) -> list[tuple[str, GameAd, RecordStatus]]:
        """Every record held as (instance, advertisement, status): the confirmed first, then those
        being checked, those not checked, and the failed; each by game name, game id, peer name."""
        rows = [(name, record.ad, self.status(name) or "failed") for name, record in self._records.items()]
        rows.sort(key=lambda row: (_RANK[row[2]], row[1].name, row[1].game, row[1].peer, row[0]))
        return rows

    # ------------------------------------------------------------------ probes

    def next_probes(self, now: float) -> list[ProbeTarget]:
        """The probes to begin now (each then counts as under way until :meth:`done`), within the
        budgets of the class; an empty list when none may begin yet."""
        begun: list[ProbeTarget] = []
        while len(self._flying) < self.at_once:
            best: str | None = None
            best_rank: tuple[int, int, int] | None = None
            for address, queue in self._queues.items():
                if self._may_begin(address, now):
                    rank = (self._silences[address], self._probed[address], next(iter(queue.values())))
                    if best_rank is None or rank < best_rank:
                        best, best_rank = address, rank
            if best is None:
                break
            queue = self._queues[best]
            target = next(iter(queue))
            del queue[target]
            if not queue:
                del self._queues[best]
            self._flying.add(target)
            self._flying_at[best] += 1
            self._probed[best] += 1
            self._begun.setdefault(best, deque()).append(now)
            begun.append(target)
        self._forget_addresses()
        return begun

    def wake_at(self, now: float) -> float | None:
        """When a probe held back by the per-second budget may begin, or ``None`` (none is: the next
        one waits for a probe to end, or nothing waits)."""
        if len(self._flying) >= self.at_once:
            return None
        times = []
        for address in self._queues:
            recent = self._begun.get(address)
            if self._flying_at[address] < self._cap(address) and recent and len(recent) >= self.per_second:
                times.append(max(now, recent[0] + 1.0))
        return min(times, default=None)

    def done(self, target: ProbeTarget, outcome: Outcome, now: float) -> list[str]:
        """Reports what the probe of *target* found. Returns the instances it settled (now confirmed or
        failed), oldest first."""
        if target in self._flying:
            self._flying.discard(target)
            self._flying_at[target.address] -= 1
            if self._flying_at[target.address] <= 0:
                del self._flying_at[target.address]
        if outcome == "silent":
            self._silences[target.address] += 1
        elif isinstance(outcome, bytes):
            self._silences.pop(target.address, None)  # a peer answers there: not a tarpit (any more)
        users = self._users.get(target)
        if not users:
            return []
        self._outcomes[target] = (outcome, now)
        settled = [name for name in self._records if name in users and self.status(name) in ("confirmed", "failed")]
        self._make_room()
        return [name for name in settled if name in self._records]

    # ------------------------------------------------------------------ inside

    def _plan(self, target: ProbeTarget, now: float) -> None:
        if target in self._flying or target in self._queues.get(target.address, ()):
            return
        known = self._outcomes.get(target)
        if known is not None:
            if isinstance(known[0], bytes) or now - known[1] < self.retry_after:
                return
            del self._outcomes[target]
        self._arrivals += 1
        self._queues.setdefault(target.address, {})[target] = self._arrivals

    def _release(self, instance: str, targets: Sequence[ProbeTarget]) -> None:
        for target in targets:
            users = self._users.get(target)
            if users is None:
                continue
            users.discard(instance)
            if users:
                continue
            del self._users[target]
            self._outcomes.pop(target, None)
            queue = self._queues.get(target.address)
            if queue is not None:
                queue.pop(target, None)
                if not queue:
                    del self._queues[target.address]

    def _cap(self, address: str) -> int:
        return PROBES_PER_SILENT_ADDRESS if self._silences[address] else self.per_address

    def _may_begin(self, address: str, now: float) -> bool:
        if self._flying_at[address] >= self._cap(address):
            return False
        recent = self._begun.get(address)
        if recent:
            while recent and recent[0] + 1.0 <= now:  # the very sum wake_at gives
                recent.popleft()
            if len(recent) >= self.per_second:
                return False
        return True

    def _home(self, record: _Record) -> str:
        """The address a record counts against when room is made: its first probed one, or its first."""
        if record.targets:
            return record.targets[0].address
        return record.ad.addresses[0] if record.ad.addresses else ""

    def _make_room(self) -> None:
        """Drops records beyond the bounds of the class, as its docstring says."""
        for __ in range(len(self._records)):
            if len(self._records) <= self.max_records:
                return
            statuses = {name: self.status(name) for name in self._records}
            waiting = [name for name, status in statuses.items() if status != "confirmed"]
            if len(waiting) > self.max_records:
                victim = self._victim(waiting, statuses)
            elif len(self._records) - len(waiting) > self.max_records:
                victim = next(name for name, status in statuses.items() if status == "confirmed")
            else:
                return
            self.lost(victim)
            self._dropped.append(victim)

    def _victim(self, waiting: list[str], statuses: Mapping[str, RecordStatus | None]) -> str:
        """Of the records not confirmed (oldest first), the one to drop: the oldest failed one, else
        the newest of the address that holds the most."""
        failed = [name for name in waiting if statuses[name] == "failed"]
        if failed:
            return failed[0]
        homes = {name: self._home(self._records[name]) for name in waiting}
        crowd = Counter(homes.values())
        most = max(crowd.values())
        return next(name for name in reversed(waiting) if crowd[homes[name]] == most)

    def _forget_addresses(self) -> None:
        """Keeps the history of at most MAX_ADDRESSES addresses beyond those with work."""
        if len(self._probed) <= MAX_ADDRESSES:
            return
        busy = set(self._queues) | set(self._flying_at)
        for address in [a for a in self._probed if a not in busy][: len(self._probed) - MAX_ADDRESSES]:
            del self._probed[address]
            self._silences.pop(address, None)
            self._begun.pop(address, None)


# ---------------------------------------------------------------------- typed addresses


class HostPort(NamedTuple):
    """A parsed ``host:port``: ``host`` is an IPv4 address, an IPv6 address without brackets (a
    ``%scope`` kept), or a host name; ``port`` is 1 to 65535."""

    host: str
    port: int


_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")


def _examples() -> str:
    """Example addresses, for the errors of :func:`parse_host_port`."""
    # Translators: three example addresses (kept as they are).
    return _("e.g. {ipv4}, {ipv6} or {name}").format(ipv4="192.168.1.20:7000", ipv6="[fe80::1%eth0]:7000",
                                                   name="ann-laptop.local:7000")


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
        # Translators: host:port is kept as it is; {examples} gives example addresses ("e.g. …").
        raise ValueError(_("no address given; expected host:port, {examples}").format(examples=_examples()))
    if s.startswith("["):
        end = s.find("]")
        if end < 0:
            # Translators: {typed} is the address typed; [address]:port is kept as it is.
            raise ValueError(_("{typed}: '[' without ']'; an IPv6 address is written [address]:port").format(typed=repr(s)))
        host_text, rest = s[1:end], s[end + 1 :]
        try:
            host = str(ipaddress.IPv6Address(host_text))
        except ValueError:
            # Translators: {typed} is the address typed, {host} its host part.
            raise ValueError(_("{typed}: {host} is not an IPv6 address").format(typed=repr(s), host=repr(host_text))) from None
        if rest == "" and default_port is not None:
            return HostPort(host, _check_port(str(default_port), s))
        if not rest.startswith(":"):
            # Translators: {typed} is the address typed; {examples} gives example addresses ("e.g. …").
            raise ValueError(_("{typed}: expected :port after ']', {examples}").format(typed=repr(s), examples=_examples()))
        return HostPort(host, _check_port(rest[1:], s))
    if s.count(":") > 1:
        # Translators: {typed} is the address typed; [address]:port and {example} are kept as they are.
        raise ValueError(_("{typed}: an IPv6 address needs brackets: [address]:port, e.g. {example}").format(
            typed=repr(s), example="[fe80::1%eth0]:7000"))
    host_text, sep, port_text = s.partition(":")
    if not sep:
        if default_port is None:
            # Translators: {typed} is the address typed; {examples} gives example addresses ("e.g. …").
            raise ValueError(_("{typed}: no port; expected host:port, {examples}").format(typed=repr(s), examples=_examples()))
        port_text = str(default_port)
    if not host_text:
        # Translators: {typed} is the address typed; {examples} gives example addresses ("e.g. …").
        raise ValueError(_("{typed}: no host before ':port', {examples}").format(typed=repr(s), examples=_examples()))
    port = _check_port(port_text, s)
    if re.fullmatch(r"[0-9.]+", host_text):
        try:
            return HostPort(str(ipaddress.IPv4Address(host_text)), port)
        except ValueError:
            # Translators: {typed} is the address typed, {host} its host part.
            raise ValueError(_("{typed}: {host} is not an IPv4 address (four numbers 0-255)").format(
                typed=repr(s), host=repr(host_text))) from None
    name = host_text.removesuffix(".")
    if len(name) > 253 or not all(_LABEL.fullmatch(label) for label in name.split(".")):
        # Translators: {typed} is the address typed, {host} its host part.
        raise ValueError(_(
            "{typed}: {host} is not a host name (labels of letters, digits and '-', "
            "1 to 63 characters, separated by '.')"
        ).format(typed=repr(s), host=repr(host_text)))
    return HostPort(host_text, port)


def _check_port(port_text: str, whole: str) -> int:
    if not port_text:
        # Translators: {typed} is the address typed.
        raise ValueError(_("{typed}: empty port; expected a number from 1 to 65535").format(typed=repr(whole)))
    if (
        not port_text.isascii()
        or not port_text.isdigit()
        or len(port_text) > 5
        or not 1 <= int(port_text) <= 65535
    ):
        # Translators: {typed} is the address typed, {port} its port part.
        raise ValueError(_("{typed}: port {port} is not a number from 1 to 65535").format(
            typed=repr(whole), port=repr(port_text)))
    return int(port_text)
