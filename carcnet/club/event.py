"""A tournament's charter, signed by the laptop that opens it, and what every laptop derives from it
(protocol/tournament.md): the players, the format, and each round's tables as games with ids of
their own.

Pure values: msgpack in and out, Ed25519 by :mod:`carcnet.log.signatures`; no clock, no network.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import msgpack

from carcnet.engine import RULES_VERSION, SUPPORTED_RULES, Rules
from carcnet.i18n import _, ngettext
from carcnet.log.codec import options_from_wire, options_to_wire
from carcnet.log.signatures import verify
from carcnet.log.values import MAX_NAME, name_problem
from carcnet.net.signing import SeatKey, sealed_game_id

from .pairing import MAX_SEATS, Round, berger_round, lots, swiss_round
from .standings import GameResult, standings

__all__ = ["DOMAIN", "Charter", "Entrant", "EventError", "draw_round", "host_order", "laptops", "table_game_id",
           "table_nonce"]

#: The signature's domain (protocol/tournament.md §2): what the opener's key signs is this, then the
#: charter's canonical bytes, so that a charter's signature is never another message's.
DOMAIN = b"carcnet/event/v1\0"

#: The charter format this code writes and reads.
VERSION = 1

#: Largest charter read, in bytes (64 players of 40-character names fit in a tenth of it).
MAX_BYTES = 65536

_HEX32 = re.compile(r"[0-9a-f]{32}")
Format = Literal["swiss", "round-robin"]


class EventError(ValueError):
    """A charter refused (protocol/tournament.md §2): what is wrong, in one sentence."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """One player of the event.

    Attributes:
        name: What the tables call it: a name by the log's rule (:func:`carcnet.log.values.name_problem`:
            1 to 32 characters, none invisible or a control, not only blank).
        key: 32 bytes: a person's identity key (wire.md §3.1); for a bot, the identity key of the
            laptop that runs it.
        bot: The bot's level (``"greedy"``, ``"hard"``…) for a bot, ``None`` for a person.
    """

    name: str
    key: bytes
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class Charter:
    """A tournament (protocol/tournament.md §2).

    Attributes:
        event: The event id: 32 lowercase hex digits.
        name: The event's name, 1 to 40 characters by the same rule.
        format: ``"swiss"`` or ``"round-robin"``.
        rounds: Rounds to play, 1 to 20 (a round robin at tables of two: at most its own count).
        size: Seats a table, 2 to 6; *minimum*: the fewest a table may have, 2 to *size*.
        options: The rules every table plays; *rules*: their version (the engine's, by default).
        created: Seconds since 1970-01-01 UTC.
        players: The entrants, 2 to 64, in the order the opener listed them.
        opener: The identity key of the laptop that opened the event (it signs the charter).
        sig: The opener's Ed25519 signature over :data:`DOMAIN` and :meth:`body`, 64 bytes.
    """

    event: str
    name: str
    format: Format
    rounds: int
    size: int
    minimum: int
    options: Rules
    rules: int
    created: int
    players: tuple[Entrant, ...]
    opener: bytes
    sig: bytes = field(default=b"", compare=False)

    # ------------------------------------------------------------------ the bytes

    def _map(self) -> dict[str, Any]:
        return {
            "type": "event", "version": VERSION, "event": self.event, "name": self.name, "format": self.format,
            "rounds": self.rounds, "size": self.size, "minimum": self.minimum, "rules": self.rules,
            "options": options_to_wire(self.options), "created": self.created,
            "players": [{"name": p.name, "key": p.key, "bot": p.bot} for p in self.players],
            "opener": self.opener,
        }

    def body(self) -> bytes:
        """The canonical bytes the signature covers: the map of protocol/tournament.md §2 without
        ``sig``, its keys in that order, msgpack as log.md §4 writes maps."""
        return msgpack.packb(self._map(), use_bin_type=True)

    def signed(self, key: SeatKey) -> Charter:
        """This charter, checked (:meth:`check`), signed by *key* (which must be :attr:`opener`'s).

        Raises:
            EventError: A field breaks its constraints, or *key* is not the opener's.
        """
        self.check()
        if key.public != self.opener:
            raise EventError(_("the charter is signed by the laptop that opens the event"))
        return dataclasses.replace(self, sig=key.sign(DOMAIN + self.body()))

    def to_bytes(self) -> bytes:
        """The charter as it travels and is saved: the map with ``sig`` last."""
        return msgpack.packb({**self._map(), "sig": self.sig}, use_bin_type=True)

    @classmethod
    def from_bytes(cls, data: bytes) -> Charter:
        """Reads and checks a charter: its shape, every field's constraints and its signature.

        Raises:
            EventError: Refused; the message says why.
        """
        if len(data) > MAX_BYTES:
            raise EventError(f"a charter is at most {MAX_BYTES} bytes, not {len(data)}")
        try:
            m = msgpack.unpackb(data, raw=False, strict_map_key=True)
        except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError) as exc:
            raise EventError(f"not a charter: {exc}") from None
        if not isinstance(m, dict) or m.get("type") != "event":
            raise EventError("not a charter: no map of type 'event'")
        if m.get("version") != VERSION:
            # Translators: {version} and {read} are numbers of the event file format's versions.
            raise EventError(_("a charter of version {version}: this laptop reads version {read}").format(
                version=repr(m.get("version")), read=VERSION))
        expected = {"type", "version", "event", "name", "format", "rounds", "size", "minimum", "rules", "options",
                    "created", "players", "opener", "sig"}
        if set(m) != expected:
            raise EventError(f"a charter has exactly the fields {sorted(expected)}")
        try:
            options = options_from_wire(m["options"])
        except (ValueError, TypeError) as exc:
            raise EventError(f"options: {exc}") from None
        raw = m["players"]
        if not isinstance(raw, list) or not all(isinstance(p, dict) and set(p) == {"name", "key", "bot"} for p in raw):
            raise EventError("players: a list of maps of name, key and bot")
        charter = cls(
            event=m["event"], name=m["name"], format=m["format"], rounds=m["rounds"], size=m["size"],
            minimum=m["minimum"], options=options, rules=m["rules"], created=m["created"],
            players=tuple(Entrant(p["name"], p["key"], p["bot"]) for p in raw), opener=m["opener"], sig=m["sig"],
        )
        charter.check()
        if charter.body() != msgpack.packb({k: v for k, v in m.items() if k != "sig"}, use_bin_type=True):
            raise EventError(_("the charter's fields are not in their canonical order or form"))
        if not isinstance(charter.sig, bytes) or len(charter.sig) != 64 or not verify(
                charter.opener, DOMAIN + charter.body(), charter.sig):
            raise EventError(_("the opener's signature does not verify: the charter was changed or forged"))
        return charter

    def check(self) -> None:
        """Checks every field's constraints (protocol/tournament.md §2).

        Raises:
            EventError: The first constraint broken.
        """
        def need(ok: bool, why: str) -> None:
            if not ok:
                raise EventError(why)

        need(isinstance(self.event, str) and bool(_HEX32.fullmatch(self.event)), "event: 32 lowercase hex digits")
        # Translators: "name" is the event's name; {limit} is the most characters it may have.
        need(name_problem(self.name, 40) is None, ngettext(
            "name: must be 1 to {limit} character without control characters or invisible formatting characters",
            "name: must be 1 to {limit} characters without control characters or invisible formatting characters",
            40).format(limit=40))
        need(self.format in ("swiss", "round-robin"), "format: 'swiss' or 'round-robin'")
        # Translators: the seats of an event's tables; {most} is the most seats a table has.
        need(isinstance(self.size, int) and 2 <= self.size <= MAX_SEATS, _("size: 2 to {most} seats").format(most=MAX_SEATS))
        # Translators: the fewest seats of an event's table.
        need(isinstance(self.minimum, int) and 2 <= self.minimum <= self.size, _("minimum: 2 to the size"))
        need(isinstance(self.rounds, int) and 1 <= self.rounds <= 20, _("rounds: 1 to 20"))
        need(isinstance(self.rules, int) and self.rules in SUPPORTED_RULES, f"rules: one of {SUPPORTED_RULES}")
        need(isinstance(self.created, int) and 0 <= self.created < 2**40, "created: seconds since 1970")
        need(isinstance(self.opener, bytes) and len(self.opener) == 32, "opener: a 32-byte identity key")
        need(2 <= len(self.players) <= 64, _("players: 2 to 64"))
        for p in self.players:
            # Translators: {limit} is the most characters a name may have.
            need(name_problem(p.name) is None, ngettext(
                "a player's name must be 1 to {limit} character without control characters or invisible formatting characters",
                "a player's name must be 1 to {limit} characters without control characters or invisible formatting characters",
                MAX_NAME).format(limit=MAX_NAME))
            need(isinstance(p.key, bytes) and len(p.key) == 32, "a player's key: 32 bytes")
            need(p.bot is None or (isinstance(p.bot, str) and 1 <= len(p.bot) <= 16), "a player's bot: a level or nil")
        names = [p.name for p in self.players]
        need(len(set(names)) == len(names), _("players' names are distinct"))
        people = [p.key for p in self.players if p.bot is None]
        need(len(set(people)) == len(people), _("a person enters once (one identity key, one player)"))
        if self.format == "round-robin" and self.size == 2:
            count = len(self.players) + len(self.players) % 2
            # Translators: {players} is a number of players, {most} a number of rounds.
            need(self.rounds <= count - 1, ngettext("a round robin of {players} has at most {most} round",
                                                    "a round robin of {players} has at most {most} rounds",
                                                    count - 1).format(players=len(self.players), most=count - 1))

    # ------------------------------------------------------------------ what every laptop derives

    @property
    def ids(self) -> list[str]:
        """The players' ids for pairing and standings: their index in :attr:`players`, as text."""
        return [str(i) for i in range(len(self.players))]


def table_nonce(event: str, round_number: int, table: int, seats: Sequence[str]) -> bytes:
    """The 32-byte nonce of table *table* (0-based) of round *round_number* (1-based) whose seats
    the draw gives (*seats*: player ids in seat order): ``SHA-256("carcnet/event-game/v1" 0 event 0
    round 0 table 0 seats)`` (numbers in decimal ASCII, the seats' ids joined by commas),
    protocol/tournament.md §4 "The table's game". A laptop that drew the round otherwise (it counted
    another result) finds another game, not this one."""
    text = f"carcnet/event-game/v1\0{event}\0{round_number}\0{table}\0{','.join(seats)}"
    return hashlib.sha256(text.encode()).digest()


def table_game_id(event: str, round_number: int, table: int, seats: Sequence[str], host: bytes) -> str:
    """The game id of a round's table opened by the laptop of identity key *host*: the sealed game id
    (wire.md §4.2, :func:`~carcnet.net.signing.sealed_game_id`) of *host* and :func:`table_nonce`.
    Every laptop computes it for the table's host (:func:`host_order`), and a log whose id it is
    was sealed by that laptop for that table and no other (protocol/tournament.md §4).

    Raises:
        ValueError: *host* is not 32 bytes.
    """
    return sealed_game_id(host, table_nonce(event, round_number, table, seats))


def laptops(charter: Charter) -> list[bytes]:
    """The event's laptops' identity keys: every player's key (a person's, a bot's runner's) in the
    charter's order, each once, then the opener's if no player has it (protocol/tournament.md §6)."""
    keys = list(dict.fromkeys(p.key for p in charter.players))
    return keys if charter.opener in keys else [*keys, charter.opener]


def host_order(charter: Charter, seats: Sequence[str]) -> list[bytes]:
    """Who opens a table, first choice first (protocol/tournament.md §6.3): the laptops of the
    table's seats (*seats*: player ids in seat order) in seat order, each once, then the event's
    other laptops (:func:`laptops`). The first of them that is present opens it; a log sealed by an
    earlier one counts before a later one's."""
    mine = [charter.players[int(p)].key for p in seats]
    return list(dict.fromkeys([*mine, *laptops(charter)]))


def draw_round(charter: Charter, round_number: int, results: Sequence[GameResult]) -> Round:
    """Round *round_number*'s draw (1-based) from the charter and the results of the rounds before
    it (only those: protocol/tournament.md §4): Swiss by the standings (the first round by the
    lots), or round robin (tables of two: the circle method; larger: the Swiss seating in the
    lots' order). Player ids are :attr:`Charter.ids`.

    Raises:
        EventError: *round_number* not between 1 and the charter's rounds.
    """
    if not 1 <= round_number <= charter.rounds:
        raise EventError(f"the event has rounds 1 to {charter.rounds}, not {round_number}")
    ids = charter.ids
    drawn = lots(charter.event, ids)
    by_lot = sorted(ids, key=lambda p: (drawn[p], p))
    if charter.format == "round-robin":
        if charter.size == 2:
            return berger_round(by_lot, round_number - 1, results)
        return swiss_round(by_lot, results, charter.size, charter.minimum)
    if round_number == 1:
        return swiss_round(by_lot, [], charter.size, charter.minimum)
    order = [s.player for s in standings(ids, results, drawn)]
    return swiss_round(order, results, charter.size, charter.minimum)
