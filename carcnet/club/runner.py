"""One laptop's part in a tournament on the LAN (protocol/tournament.md §6): :class:`EventRunner`.

Every laptop of an event runs the same loop, and none decides for the others:

1. **The charter.** The opener collects the players (its own and those other laptops enrol, each
   enrolment signed by the player's key, §6.1), then signs the charter; the others ask it for the
   charter and check the signature.
2. **Who is there.** Every :attr:`~EventRunner.poll` seconds, this laptop asks every laptop of the
   event it knows an address of for its status, with a nonce of its own; a laptop is *present* while
   it signed such a status within the last :attr:`~EventRunner.gone` seconds (§6.2). Statuses also
   name the tables each laptop has open (with their ports), the counted logs it holds, and the
   addresses of the others it knows.
3. **A round.** Its draw follows from the charter and the results so far
   (:func:`~carcnet.club.event.draw_round`). A table is opened by the first present laptop of its
   :func:`~carcnet.club.event.host_order`, under the game id that laptop's key and the table seal
   (:func:`~carcnet.club.event.table_game_id`); that laptop plays its bots; a person's laptop joins
   its seat. A table whose laptops are all gone is opened again by the next present laptop in order
   (§6.3).
4. **Results.** A laptop counts a table's result only from a log it checked itself
   (:func:`~carcnet.club.results.check_log`), its own or fetched from a laptop that holds it; of
   two logs of one table the one sealed earlier in the host order counts, and a later one is
   taken only while no earlier laptop that runs the table is present (§6.4). A log that does not
   check is reported with its reason, and counts for nothing. When every table of the round is
   counted, the next round is drawn.
5. **The end.** The standings (:func:`~carcnet.club.standings.standings`) are written to the event
   folder; the laptop keeps answering until every present laptop has finished too, or
   :data:`LINGER` seconds.

Files (the event folder): ``charter.carcevent`` (the signed charter), ``results/`` (the counted
logs, one a table), ``games/`` (the logs and keys of the games played here), ``standings.json``.
A laptop that stops and starts again with :meth:`EventRunner.resume` goes on from them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from carcnet.bots import make_bot
from carcnet.engine import RULES_VERSION, Rules
from carcnet.i18n import _, decimal, ngettext, pgettext
from carcnet.log import COLOURS
from carcnet.log.signatures import verify
from carcnet.log.values import is_game_id, name_problem, strip_control
from carcnet.net.signing import SeatKey
from carcnet.net.transport import Timing
from carcnet.log import LogError
from carcnet.table import LanError, NetTable
from carcnet.net.adverts import GameAd, Phase
from carcnet.table.advert import advertise_and_browse
from carcnet.table.keys import keys_path
from carcnet.table.lan import NetOptions, SeatPlan

from .event import Charter, Entrant, EventError, draw_round, host_order, laptops, table_game_id, table_nonce
from .pairing import lots
from .ratings import Ratings
from .results import Result, check_log, read_result, result_name, table_words
from .service import Asker, EventService, Refused, ServiceError, Status, ask, enrol_bytes, read_status, sign_status
from .standings import GameResult, Standing, standings

__all__ = ["CHARTER_FILE", "GONE", "LINGER", "MAX_PER_ADDRESS", "MAX_PER_LAPTOP", "MAX_PLAYERS", "POLL", "EventRunner",
           "standings_json"]

log = logging.getLogger("carcnet.club")

#: Seconds between two rounds of status requests (§6.2).
POLL = 2.0
#: Seconds without a signed status after which a laptop counts as gone (§6.2): the 20 s in which a
#: silent connection is dead (wire.md §2.1).
GONE = 20.0
#: Seconds a finished laptop keeps answering the others at most (§6.5).
LINGER = 60.0
#: Askers' addresses kept to ask in turn between two polls at most, one port each (a flood of askers
#: costs no more).
MAX_HINTS = 64
#: Seconds within which a hint (an address and port) is asked once, unless it answered with a status
#: (§6.2): a flood of enrolments or status requests naming a port where nothing answers makes one
#: dial of it.
UNREACHABLE = 30.0
#: Hints asked and not answered remembered at most (the oldest forgotten first).
MAX_UNREACHABLE = 256
#: Laptops without a player in the event (keys that answered a hint) remembered at most before the
#: charter (the longest unheard forgotten first).
MAX_STRANGER_LAPTOPS = 256
#: Seconds between two polls at least when enrolments and askers wake the poll early.
POLL_GAP = 0.25
#: Seconds a table's closing may take before the event goes on without waiting for it.
CLOSE_WAIT = 10.0
#: Players an event holds (the charter's limit, protocol/tournament.md §2).
MAX_PLAYERS = 64
#: Players one laptop (one identity key) may enter in an event: its person and its bots.
MAX_PER_LAPTOP = 16
#: Players the enrolments from one IP address may enter, whatever keys sign them.
MAX_PER_ADDRESS = 16
#: The charter's file in the event folder.
CHARTER_FILE = "charter.carcevent"


def _seeded(*values: bytes) -> Callable[[int], bytes]:
    """A ``random(n)`` for :meth:`NetTable.host` and :meth:`NetTable.join` that gives *values* first,
    in order (the seat key seed: this laptop's identity; for a host, then the game nonce: the
    table's), then the system's bytes."""
    given = list(values)

    def random(n: int) -> bytes:
        if given:
            value = given.pop(0)
            assert len(value) == n, "NetTable.host takes its seat key seed, then its nonce; join its seed"
            return value
        return os.urandom(n)

    return random


@dataclass
class _Laptop:
    """What this laptop knows of another: its addresses (hints), its last signed status, when it
    came (*heard*) and when this laptop asked for it (*asked*: the status says how things stood
    then or later)."""

    addresses: list[tuple[str, int]] = field(default_factory=list)
    status: Status | None = None
    heard: float = float("-inf")
    asked: float = float("-inf")


class EventRunner:
    """This laptop in one event (see the module docstring).

    Args:
        identity: This laptop's identity key: its people's key and the runner key of its bots.
        name: This laptop's name at the tables it opens (1 to 32 characters).
        folder: The event folder (made if missing); with *by_event*, the folder of the events' folders
            (the event's is named by its id once the charter is known).
        charter: The signed charter, when known (the opener's, or a resumed event's).
        players: ``(name, bot level)`` of the players this laptop enters (``None``: a person).
        listen: ``(host, port)`` of the event service (port 0: any).
        dial: Addresses of other laptops of the event (the opener's, for a laptop that joins).
        timing: The network tables' clocks (wire.md §2.1); *poll*, *gone*, *linger*: :data:`POLL`,
            :data:`GONE`, :data:`LINGER` unless given.
        table_host: The address this laptop's tables listen on (tables' ports travel in statuses).
        bot_delay: Seconds the bots of the tables this laptop opens wait before each turn.
        discovery: Whether this laptop advertises the event by mDNS and finds the others so (a laptop
            that joins without an address takes the first event in its lobby it finds); *interfaces*:
            the IP addresses mDNS uses (``None``: every interface). Addresses found are hints.
        note: Called with each line of progress (a round drawn, a table opened or counted, a log
            refused and why, the standings).
        on_table: Called with ``(round, table, NetTable)`` when this laptop's person sits down at a
            table (one it opened or one it joined): the interface plays the person's seat there.

    Attributes:
        results: ``(round, table)`` → the counted :class:`~carcnet.club.results.Result`.
        reports: Every log refused, with its reason (one line each).
    """

    def __init__(self, identity: SeatKey, *, name: str, folder: Path, charter: Charter | None = None,
                 players: Sequence[tuple[str, str | None]] = (), listen: tuple[str, int] = ("0.0.0.0", 0),
                 dial: Sequence[tuple[str, int]] = (), timing: Timing | None = None, poll: float | None = None,
                 gone: float | None = None, linger: float | None = None, table_host: str = "0.0.0.0", bot_delay: float = 0.0,
                 by_event: bool = False, discovery: bool = False, interfaces: Sequence[str] | None = None,
                 note: Callable[[str], None] = lambda _line: None,
                 on_table: Callable[[int, int, NetTable], None] = lambda _r, _t, _table: None, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.identity = identity
        self.me = identity.public
        self.name = name
        self.folder = Path(folder)
        self.charter = charter
        self.players = list(players)
        self.listen = listen
        self.timing = timing
        self.poll = POLL if poll is None else poll
        self.gone = GONE if gone is None else gone
        self.linger = LINGER if linger is None else linger
        self.table_host = table_host
        self.bot_delay = bot_delay
        self.discovery = discovery
        self.interfaces = list(interfaces) if interfaces is not None else None
        self._ad_dirty = asyncio.Event()
        self._by_event = by_event
        self.note = note
        self.on_table = on_table
        self.clock = clock
        self.results: dict[tuple[int, int], Result] = {}
        self.reports: list[str] = []
        self.round = 0
        self.port: int | None = None
        self._dial = list(dial)
        self._laptops: dict[bytes, _Laptop] = {}
        self._tables: dict[tuple[int, int], NetTable] = {}
        self._stack = contextlib.AsyncExitStack()
        self._wake = asyncio.Event()
        self._poll_now = asyncio.Event()
        self._started = clock()
        #: IP address → (address, port) of an asker, to ask in turn (§6.2): one port an address
        self._hints: dict[str, tuple[str, int]] = {}
        #: identity key → (address, port) where an event laptop that proved that key on a status
        #: request says it answers: asked as that laptop at the next poll
        self._claimed: dict[bytes, tuple[str, int]] = {}
        #: (address, port) → when it was last asked as a hint, until it answers: not asked again for
        #: :data:`UNREACHABLE` seconds
        self._tried: dict[tuple[str, int], float] = {}
        self._service: EventService | None = None
        self._round_began = clock()
        self._tries: dict[tuple[int, int], int] = {}  # (round, table) → games of it opened here
        #: (round, table) → when a log of it sealed by a laptop later in the order first could count
        self._at_hand: dict[tuple[int, int], float] = {}
        #: (round, table) → the laptops that sent a log of it that did not check: passed over (§6.4)
        self._spoiled: dict[tuple[int, int], set[bytes]] = {}
        # the opener's enrolment, before the charter: the players entered so far
        self._roster: list[Entrant] = []
        #: name → (when it was entered, the asker's address) of each player other laptops entered
        self._entered: dict[str, tuple[float, str | None]] = {}
        self._event_id: str | None = charter.event if charter is not None else None
        self._opening: dict[str, Any] | None = None
        #: Whether this laptop has asked every laptop it knows for a status once since it started:
        #: before that it opens no table (a resumed laptop learns first what the others did meanwhile)
        self._polled = False

    # ------------------------------------------------------------------ construction

    @classmethod
    def open(cls, identity: SeatKey, *, event_name: str, format: str = "swiss", rounds: int = 3, size: int = 4,
             minimum: int = 2, options: Rules | None = None, data_dir: Path, event: str | None = None,
             **kwargs: Any) -> EventRunner:
        """Opens an event at this laptop: a new event id, this laptop's *players* entered; others
        enrol until :meth:`start` (the charter is signed then). *data_dir*: the folder holding the
        events' folders. *event*: the event id (32 lowercase hex digits; random by default: the lots
        follow from it, so nobody should choose it once the players are known). The charter's fields
        are checked early and when it is signed.

        Raises:
            EventError: A field out of its range (the charter's constraints, checked early).
        """
        event = event or os.urandom(16).hex()
        runner = cls(identity, folder=data_dir / event, **kwargs)
        runner._event_id = event
        runner._opening = {"event": event, "name": event_name, "format": format, "rounds": rounds, "size": size,
                           "minimum": minimum, "options": options or Rules(), "rules": RULES_VERSION}
        runner._roster = [Entrant(n, identity.public, b) for n, b in runner.players]
        runner._draft().check()  # its fields, early (the players may be fewer than two yet)
        return runner

    @classmethod
    def resume(cls, identity: SeatKey, folder: Path, **kwargs: Any) -> EventRunner:
        """Goes on with the event of *folder*: its charter and the results counted there.

        Raises:
            EventError: No charter there, or it does not check.
        """
        path = Path(folder) / CHARTER_FILE
        try:
            charter = Charter.from_bytes(path.read_bytes())
        except OSError as exc:
            # Translators: {folder} is a folder; {reason} says why it cannot be read (from the system).
            raise EventError(_("no event in {folder}: {reason}").format(folder=folder, reason=exc.strerror or exc)) from None
        return cls(identity, folder=Path(folder), charter=charter, **kwargs)

    def _draft(self) -> Charter:
        assert self._opening is not None
        roster = self._roster if len(self._roster) >= 2 else [*self._roster, Entrant("-", self.me, "greedy"),
                                                             Entrant("--", self.me, "greedy")][:2]
        return Charter(created=int(time.time()), players=tuple(roster), opener=self.me, **self._opening)

    @property
    def roster(self) -> list[Entrant]:
        """The players entered so far (the charter's, once signed), answering or not."""
        return list(self.charter.players) if self.charter is not None else list(self._roster)

    def answering(self, key: bytes) -> bool:
        """Whether the laptop of *key* counts for an enrolment: this laptop, or one that signed a
        status for this laptop's nonce within the last :attr:`gone` seconds (its key proven, and it
        answers: it can open its tables)."""
        laptop = self._laptops.get(key)
        return key == self.me or (laptop is not None and self.clock() - laptop.heard < self.gone)

    def entered(self) -> int:
        """The players entered so far whose laptops answer (:meth:`answering`): those a start takes
        (every player is entered answering; a laptop that stopped answering since gives its place up
        :attr:`gone` seconds after its last status)."""
        return sum(1 for p in self._roster if self.answering(p.key))

    def start(self) -> Charter:
        """The opener's word: signs the charter with the players entered so far whose laptops answer
        (:meth:`answering`); the others are left out, with a line saying so.

        Raises:
            EventError: Not the opener, started already, or a charter that does not check (fewer than
                two players…).
        """
        if self._opening is None or self.charter is not None:
            raise EventError(_("only the laptop that opened the event starts it, once"))
        players = tuple(p for p in self._roster if self.answering(p.key))
        left = len(self._roster) - len(players)
        self.charter = Charter(created=int(time.time()), players=players, opener=self.me,
                               **self._opening).signed(self.identity)
        self._save_charter()
        if left:
            self.note(_left_out(left))
        # Translators: {name} is the event's name; {players} is "8 players", {rounds} "3 rounds".
        self.note(_("Event {name} started: {players}, {rounds}").format(name=repr(self.charter.name),
                                                                        **_players_rounds(self.charter)))
        self._wake.set()
        return self.charter

    # ------------------------------------------------------------------ running

    async def run(self, *, start_when: int | None = None, start_after: float | None = None) -> list[Standing]:
        """Runs this laptop's part until the event is over; returns the final standings. The opener
        starts the event when *start_when* players are entered, or *start_after* seconds after it
        began with two or more (or when :meth:`start` is called).

        Raises:
            EventError: The charter could not be had, or this laptop cannot play its tables (rules).
        """
        async with self._stack:
            service = self._service = await self._stack.enter_async_context(EventService(
                self._answer, identity=self.identity, event=lambda: self._event_id or "", host=self.listen[0],
                port=self.listen[1], laptop=self._is_laptop, known=self._known_address))
            self.port = service.port
            poller = asyncio.create_task(self._poll_loop(), name="carcnet event status")
            adverts = asyncio.create_task(advertise_and_browse(
                interfaces=self.interfaces, dirty=self._ad_dirty, ad=self._ad, found=self._found,
                closing=lambda: False, note=self.note, events=True)) if self.discovery else None
            try:
                await self._charter_ready(start_when, start_after)
                assert self.charter is not None
                if self.charter.rules != RULES_VERSION:
                    # Translators: {event} and {here} are numbers of versions of the rules.
                    raise EventError(_("the event plays rules {event}; this laptop plays {here}").format(
                        event=self.charter.rules, here=RULES_VERSION))
                for number in range(1, self.charter.rounds + 1):
                    await self._play_round(number)
                self.round = self.charter.rounds + 1
                final = self.standings()
                (self.folder / "standings.json").write_text(standings_json(self.charter, final))
                self.note(_("Final standings:"))
                for line in standings_lines(self.charter, final):
                    self.note(line)
                await self._linger()
                return final
            finally:
                for task in (poller, adverts):
                    if task is not None:
                        task.cancel()
                        with contextlib.suppress(asyncio.CancelledError):
                            await task
                for table in list(self._tables.values()):
                    await self._close(table)
                self._tables.clear()

    async def _charter_ready(self, start_when: int | None, start_after: float | None) -> None:
        if self.charter is not None:
            self._save_charter()
            self._reload_results()
            return
        if self._opening is not None:
            # Translators: {name} is the event's name, {port} a port number.
            self.note(_("Event {name} open on port {port}: waiting for players").format(
                name=repr(self._opening["name"]), port=self.port))
            while self.charter is None:
                entered = self.entered()
                enough = entered >= 2
                if (start_when is not None and entered >= start_when) or (
                        start_after is not None and enough and self.clock() - self._started >= start_after):
                    self.start()
                    break
                await self._sleep()
            return
        in_event: set[str] = set()  # the names of this laptop's players the opener entered
        waiting: float | None = None  # when the opener first answered ``wait``
        while self.charter is None:
            for address in list(self._dial):
                with contextlib.suppress(ServiceError):
                    reply = await self._ask(address, {"type": "charter?"})
                    if reply["type"] == "charter" and isinstance(reply.get("charter"), bytes):
                        charter = Charter.from_bytes(reply["charter"])  # EventError: one line, why
                        if self._event_id not in (None, charter.event):
                            continue
                        if self.players and not any(p.key == self.me for p in charter.players):
                            # Translators: {name} is the event's name.
                            raise EventError(_("the event {name} has started without this laptop's players "
                                               "(it started before they were entered, or was full)").format(
                                                   name=repr(charter.name)))
                        self.charter = charter
                        self._learn(reply.get("peers"))
                        break
                    if (reply["type"] == "roster" and len(in_event) < len(self.players)
                            and is_game_id(reply.get("event"))):
                        self._event_id = str(reply["event"])
                        waiting = await self._enrol_at(address, str(reply.get("name")), in_event, waiting)
            if self.charter is None:
                await self._sleep()
        self._save_charter()
        # Translators: {name} is the event's name; {players} is "8 players", {rounds} "3 rounds".
        self.note(_("Event {name}: {players}, {rounds}").format(name=repr(self.charter.name),
                                                                **_players_rounds(self.charter)))

    async def _enrol_at(self, address: tuple[str, int], event_name: str, entered: set[str],
                        waiting: float | None) -> float | None:
        """Asks the opener at *address* to enter each of this laptop's players not in *entered* yet
        (§6.1), adding those it enters. The opener enters a laptop's players only once it has heard
        the laptop's status: until then it answers ``wait`` and this laptop asks again at its next
        turn, for at most :attr:`gone` × 3 seconds from *waiting* (when it first waited). Returns when
        it first waited, or ``None``.

        Raises:
            EventError: The opener refused a player (why, in one line), or never heard this laptop.
            ServiceError: The opener could not be asked (asked again at the next turn).
        """
        assert self._event_id is not None
        for name, bot in self.players:
            if name in entered:
                continue
            try:
                reply = await self._ask(address, {"type": "enrol", "event": self._event_id, "name": name,
                                                  "key": self.me, "bot": bot, "port": self.port,
                                                  "sig": self.identity.sign(enrol_bytes(self._event_id, name, bot))})
            except Refused as exc:
                # Translators: {name} is a player's name; {reason} is the opener's answer (in English).
                raise EventError(_("the event's opener did not enter {name}: {reason}").format(
                    name=repr(name), reason=strip_control(str(exc))[:120])) from None
            if reply["type"] == "wait":
                if waiting is None:
                    self.note(_("Waiting for the event's opener to hear this laptop"))
                    return self.clock()
                if self.clock() - waiting > 3 * self.gone:
                    # Translators: {port} is a port number.
                    raise EventError(_("the event's opener never heard this laptop: is its port {port} "
                                       "blocked by a firewall?").format(port=self.port))
                return waiting
            if reply["type"] != "enrolled":
                raise ServiceError(f"an answer of type {strip_control(str(reply['type']))[:32]!r} to an enrolment")
            entered.add(name)
            # Translators: {name} is a player's name, {event} the event's name.
            self.note(_("Entered {name} in event {event}").format(name=name, event=repr(strip_control(event_name)[:40])))
        return waiting

    def _save_charter(self) -> None:
        assert self.charter is not None
        if self._by_event:
            self.folder, self._by_event = self.folder / self.charter.event, False
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "results").mkdir(exist_ok=True)
        path = self.folder / CHARTER_FILE
        if not path.exists():
            path.write_bytes(self.charter.to_bytes())

    def _reload_results(self) -> None:
        """The results counted before a restart, checked again (§6.6)."""
        assert self.charter is not None
        gathered: list[GameResult] = []
        for number in range(1, self.charter.rounds + 1):
            drawn = draw_round(self.charter, number, gathered)
            held = [read_result(self.charter, number, t, seats, self.folder / "results")
                    for t, seats in enumerate(drawn.tables)]
            if any(h is None for h in held):
                return
            for h in held:
                assert h is not None
                self.results[(number, h.table)] = h
                gathered.append(h.result)
            gathered += [GameResult((p,)) for p in drawn.byes]

    def answered(self) -> set[bytes]:
        """The event's laptops that signed a status for this laptop since it started (the others'
        presence, as :meth:`~carcnet.club.ratings.Ratings.rate_table` takes it)."""
        return {k for k, laptop in self._laptops.items() if laptop.heard > float("-inf")}

    def rate(self, ratings: Ratings) -> list[tuple[str, str | None]]:
        """Counts every table counted here into *ratings* (:meth:`Ratings.rate_table`: the seats'
        laptops by the charter, their presence as :meth:`answered`); returns ``(table, why not)`` for
        each, ``None`` where it counted, round by round."""
        assert self.charter is not None
        present, out = self.answered(), []
        for (number, t), result in sorted(self.results.items()):
            holders = [self.charter.players[int(p)].key for p in result.result.players]
            why = ratings.rate_table(self.folder / "results" / result_name(number, t), holders, self.me, present)
            out.append((table_words(number, t), why))
        return out

    def results_before(self, number: int) -> list[GameResult]:
        """The results of rounds 1 to *number* − 1: each counted game and each bye."""
        assert self.charter is not None
        out: list[GameResult] = []
        for r in range(1, number):
            drawn = draw_round(self.charter, r, out)
            out += [self.results[(r, t)].result for t in range(len(drawn.tables))]
            out += [GameResult((p,)) for p in drawn.byes]
        return out

    def standings(self) -> list[Standing]:
        """The standings after every round counted so far."""
        assert self.charter is not None
        done = max((r for r, _t in self.results), default=0)
        complete = [r for r in range(1, done + 1)
                    if len(draw_round(self.charter, r, self.results_before(r)).tables)
                    == sum(1 for (rr, _t) in self.results if rr == r)]
        last = max(complete, default=0)
        return standings(self.charter.ids, self.results_before(last + 1), lots(self.charter.event, self.charter.ids))

    async def _play_round(self, number: int) -> None:
        assert self.charter is not None
        charter = self.charter
        self.round = number
        drawn = draw_round(charter, number, self.results_before(number))
        self._round_began = self.clock()
        if all((number, t) in self.results for t in range(len(drawn.tables))):
            return
        names = {p: charter.players[int(p)].name for p in charter.ids}
        comma = pgettext("list separator", ", ")
        # Translators: a table of a round: {table} is its number, {players} its players' names.
        tables = "; ".join(_("table {table}: {players}").format(table=t + 1, players=comma.join(names[p] for p in seats))
                           for t, seats in enumerate(drawn.tables))
        if drawn.byes:
            # Translators: {round} is a number; {tables} lists the round's tables ("table 1: Ann, Bob"); {byes}
            # the players who sit this round out.
            self.note(_("Round {round}: {tables}; bye: {byes}").format(round=number, tables=tables, byes=comma.join(
                names[p] for p in drawn.byes)))
        else:
            # Translators: {round} is a number; {tables} lists the round's tables ("table 1: Ann, Bob").
            self.note(_("Round {round}: {tables}").format(round=number, tables=tables))
        while True:
            for t, seats in enumerate(drawn.tables):
                if (number, t) not in self.results:
                    await self._collect(number, t, seats)
                if (number, t) not in self.results:
                    await self._open_if_mine(number, t, seats)
                if (number, t) not in self.results:
                    await self._join_if_mine(number, t, seats)
            if all((number, t) in self.results for t in range(len(drawn.tables))):
                break
            await self._sleep()
        for t in range(len(drawn.tables)):
            table = self._tables.pop((number, t), None)
            if table is not None:
                await self._close(table)

    # ------------------------------------------------------------------ tables (§6.3)

    def present(self, key: bytes) -> bool:
        """Whether the laptop of *key* signed a status within the last :attr:`gone` seconds (this
        laptop always is). A laptop never heard counts as present for :attr:`gone` seconds after
        this one started, so that a round's first tables wait for the laptops' first statuses."""
        if key == self.me:
            return True
        heard = self._laptops[key].heard if key in self._laptops else float("-inf")
        return self.clock() - max(heard, self._started) < self.gone

    def quorum(self) -> bool:
        """Whether this laptop is in touch with most of the event's laptops (itself included: each
        signed a status within :attr:`gone` seconds). Only then does it pass over a laptop that is
        gone (§6.3, §6.4): two sides of a split cannot both be most of the room."""
        assert self.charter is not None
        keys = laptops(self.charter)
        now = self.clock()
        heard = sum(1 for k in keys if k == self.me or (k in self._laptops and now - self._laptops[k].heard < self.gone))
        return 2 * heard > len(keys)

    def _passed_over(self, number: int, t: int, seats: tuple[str, ...]) -> set[bytes]:
        """The laptops passed over for opening table *t* of round *number* (§6.3): those that sent a
        log of it that failed §5, and those present that have not opened it (their statuses name its
        game neither open nor counted) within (*p* + 1) × :attr:`gone` seconds after this laptop drew
        the round, *p* their place in the table's host order: a laptop that drew the round otherwise
        (it counted other results) or holds its table up is no reason to wait for ever, and each
        laptop in the order has its turn before the next passes it over."""
        assert self.charter is not None
        passed = set(self._spoiled.get((number, t), ()))
        waited = self.clock() - self._round_began
        for place, key in enumerate(host_order(self.charter, seats)):
            laptop = self._laptops.get(key)
            if key == self.me or laptop is None or laptop.status is None or waited < (place + 1) * self.gone:
                continue
            if not self._runs(key, number, t, seats) and (number, t) not in laptop.status.held:
                passed.add(key)
        return passed

    def _runs(self, key: bytes, number: int, t: int, seats: tuple[str, ...]) -> bool:
        """Whether the laptop of *key* has table *t* of round *number* open now (as it last said),
        with the seats this laptop's draw gives it (its game id says so)."""
        if key == self.me:
            return (number, t) in self._tables
        assert self.charter is not None
        game = table_game_id(self.charter.event, number, t, seats, key)
        laptop = self._laptops.get(key)
        return laptop is not None and laptop.status is not None and any(
            g == game for _r, _t, g, _p in laptop.status.tables)

    async def _open_if_mine(self, number: int, t: int, seats: tuple[str, ...]) -> None:
        assert self.charter is not None
        if (number, t) in self._tables or not self._polled:
            return
        spoiled = self._spoiled.get((number, t), set())
        if any(self.present(k) and laptop.status is not None and (number, t) in laptop.status.held
               and k not in spoiled for k, laptop in self._laptops.items()):
            return  # counted by a laptop here: its log is fetched and checked (_collect), not played again
        passed = self._passed_over(number, t, seats)
        order = [k for k in host_order(self.charter, seats) if k not in passed]
        first = next((k for k in order if self.present(k)), None)  # this laptop, unless it is no player's
        if first != self.me or (order[0] != self.me and not self.quorum()):
            return
        later = order[order.index(self.me) + 1:]
        if any(self.present(k) and self._runs(k, number, t, seats) for k in later):
            # a laptop after this one in the order passed this one over (it was slow to say it
            # runs the table, or it started again) and plays the table: that game counts (§6.3)
            return
        # the laptops before this one in the order are gone; so are the table's game unless one of
        # its laptops is still there (it plays on, wire.md §5.6)
        plan: list[SeatPlan] = []
        for s, player in enumerate(seats):
            entrant = self.charter.players[int(player)]
            if entrant.bot is not None:
                plan.append(SeatPlan("bot", entrant.name, COLOURS[s], entrant.bot))
            elif entrant.key == self.me:
                plan.append(SeatPlan("host", entrant.name, COLOURS[s]))
            else:
                plan.append(SeatPlan("open"))
        game = table_game_id(self.charter.event, number, t, seats, self.me)
        games = self.folder / "games"
        options: NetOptions = {"directory": games, "listen": (self.table_host, 0), "discovery": False,
                               "timing": self.timing, "bot_delay": self.bot_delay}
        table: NetTable | None = None
        resumed = False
        # this laptop's game of the table, begun before it stopped: played on from its save (§6.6)
        for saved in sorted(games.glob(f"*-{game[:8]}.carclog"), reverse=True):
            if keys_path(saved).exists() and self._tries.get((number, t), 0) < 2:
                try:
                    table = NetTable.resume(saved, name=self.name, **options)
                    resumed = True
                except (LogError, LanError) as exc:
                    # Translators: {round} and {table} are numbers; {reason} says why the save is refused.
                    self.note(_("Round {round} table {table}: its save is refused ({reason}); opened anew").format(
                        round=number, table=t + 1, reason=exc))
                break
        if table is None:
            table = NetTable.host(
                name=self.name, game_name=f"{self.charter.name[:24]} R{number} T{t + 1}",
                rules=self.charter.options, plan=plan, random=_seeded(self.identity.seed, table_nonce(
                    self.charter.event, number, t, seats)), **options)
        if table.game_id != game:
            raise EventError("the table's game id is not the table seal's (NetTable.host changed)")
        self._tries[(number, t)] = self._tries.get((number, t), 0) + 1
        await table.__aenter__()
        table.add_listener(lambda *_args: self._wake.set())
        self._tables[(number, t)] = table
        # Translators: {round} and {table} are numbers; {game} is the start of a game's id (hex digits).
        again = (_("Round {round} table {table}: played on here (game {game})") if resumed
                 # Translators: {round} and {table} are numbers; {game} is the start of a game's id (hex digits).
                 else _("Round {round} table {table}: opened here (game {game})"))
        self.note(again.format(round=number, table=t + 1, game=table.game_id[:8]))
        if table.human_seats or any(p.kind == "host" for p in plan):
            self._tell_seated(number, t, table)  # this laptop's person plays here

    def _tell_seated(self, number: int, t: int, table: NetTable) -> None:
        try:
            self.on_table(number, t, table)
        except Exception:  # the interface's trouble must not stop the event
            log.exception("on_table failed for round %s table %s", number, t + 1)

    async def _close(self, table: NetTable) -> None:
        """Leaves a table whose game is counted (or stopped), waiting :data:`CLOSE_WAIT` s at most."""
        try:
            await asyncio.wait_for(table.aclose("game-over"), CLOSE_WAIT)
        except TimeoutError:
            log.warning("the table of game %s took more than %s s to close", table.game_id[:8], CLOSE_WAIT)

    async def _join_if_mine(self, number: int, t: int, seats: tuple[str, ...]) -> None:
        """Sits this laptop's person down at the table another laptop opened (§6.3): at the person's
        seat, under the person's key (this laptop's identity), dialling the port that laptop's status
        gives."""
        assert self.charter is not None
        if (number, t) in self._tables:
            return
        mine = [s for s, p in enumerate(seats) if self.charter.players[int(p)].bot is None
                and self.charter.players[int(p)].key == self.me]
        if not mine:
            return
        spoiled = self._spoiled.get((number, t), set())
        for key in host_order(self.charter, seats):
            laptop = self._laptops.get(key)
            if key == self.me or key in spoiled or laptop is None or laptop.status is None or not self.present(key):
                continue
            found = [(g, port) for r, tt, g, port in laptop.status.tables if (r, tt) == (number, t)]
            if not found or not laptop.addresses or found[0][0] != table_game_id(self.charter.event, number, t, seats, key):
                continue
            game, port = found[0]
            seat = mine[0]
            table = NetTable.join(
                game, name=self.charter.players[int(seats[seat])].name, seat=seat, colour=COLOURS[seat],
                random=_seeded(self.identity.seed), host_key=key, directory=self.folder / "games",
                listen=(self.table_host, 0), dial=[(laptop.addresses[0][0], port)], discovery=False,
                timing=self.timing)
            await table.__aenter__()
            table.add_listener(lambda *_args: self._wake.set())
            self._tables[(number, t)] = table
            # Translators: {round} and {table} are numbers; {laptop} names a laptop ("the laptop of Ann");
            # {game} is the start of a game's id (hex digits).
            self.note(_("Round {round} table {table}: seated at {laptop}'s table (game {game})").format(
                round=number, table=t + 1, laptop=self._who(key), game=game[:8]))
            self._tell_seated(number, t, table)
            return

    # ------------------------------------------------------------------ results (§6.4)

    async def _collect(self, number: int, t: int, seats: tuple[str, ...]) -> None:
        assert self.charter is not None
        candidates: list[tuple[Result, Path]] = []
        table = self._tables.get((number, t))
        if table is not None and table.status == "stopped":  # its save failed: opened again (§6.6)
            # Translators: {round} and {table} are numbers.
            self.note(_("Round {round} table {table}: the game here stopped; it is opened again").format(
                round=number, table=t + 1))
            del self._tables[(number, t)]
            await self._close(table)
            table = None
        if table is not None and table.status == "finished" and table.path is not None:
            with contextlib.suppress(EventError):
                candidates.append((check_log(self.charter, number, t, seats, table.path), table.path))
        for key, laptop in list(self._laptops.items()):
            if (laptop.status is None or (number, t) not in laptop.status.held or not self.present(key)
                    or key in self._spoiled.get((number, t), ())):
                continue
            if any(c.host == key for c, _p in candidates):
                continue
            path = await self._fetch(key, laptop, number, t, seats)
            if path is not None:
                with contextlib.suppress(EventError):
                    candidates.append((check_log(self.charter, number, t, seats, path), path))
        if not candidates:
            return
        best, path = min(candidates, key=lambda c: c[0].rank)
        order = host_order(self.charter, seats)
        if best.rank > 0 and not self.quorum():
            return  # a game played in place of an earlier laptop's counts only with most of the room
        # an earlier laptop in the order that runs the table and is here: its game counts first (§6.4)
        passed = self._passed_over(number, t, seats)
        if any(self.present(k) and self._runs(k, number, t, seats) and k not in passed for k in order[: best.rank]):
            return
        # and only on a status of each earlier laptop here asked since this log was at hand: an
        # older one may predate its opening the table (it was passed over, then came back)
        since = self._at_hand.setdefault((number, t), self.clock())
        if best.rank > 0 and any(self.present(k) and (k not in self._laptops or self._laptops[k].asked < since)
                                 for k in order[: best.rank] if k != self.me):
            return
        target = self.folder / "results" / result_name(number, t)
        if path != target:
            shutil.copyfile(path, target)
        self.results[(number, t)] = best
        names = [self.charter.players[int(p)].name for p in best.result.players]
        comma = pgettext("list separator", ", ")
        # Translators: a player's final score: {name} and {score}.
        scores = comma.join(_("{name} {score}").format(name=n, score=s) for n, s in zip(names, best.result.scores, strict=True))
        # Translators: {round} and {table} are numbers; {scores} lists each player's score ("Ann 42, Bob 37");
        # {game} is the start of a game's id (hex digits).
        self.note(_("Round {round} table {table} counted: {scores} (game {game})").format(
            round=number, table=t + 1, scores=scores, game=best.game[:8]))

    async def _fetch(self, key: bytes, laptop: _Laptop, number: int, t: int, seats: tuple[str, ...]) -> Path | None:
        """Asks *laptop* for the log it counted for the table; the file it is written to once it checks,
        else ``None`` (the reason reported once)."""
        assert self.charter is not None
        incoming = self.folder / "incoming"
        incoming.mkdir(parents=True, exist_ok=True)
        for address in laptop.addresses[:2]:
            try:
                reply = await self._ask(address, {"type": "log?", "event": self.charter.event, "round": number, "table": t},
                                  timeout=max(self.gone / 2, 5.0))
            except ServiceError:
                continue
            if reply["type"] != "log" or not isinstance(reply.get("log"), bytes):
                continue
            path = incoming / f"{key.hex()[:16]}-{result_name(number, t)}"
            path.write_bytes(reply["log"])
            try:
                check_log(self.charter, number, t, seats, path)
            except EventError as exc:
                # Translators: {reason} says why a log does not count; {laptop} names a laptop ("the laptop of Ann").
                why = _("{reason} (sent by {laptop})").format(reason=exc, laptop=self._who(key))
                self._spoiled.setdefault((number, t), set()).add(key)  # it opens the table no more, here
                self.reports.append(why)
                # Translators: {why} says why a log does not count, and who sent it.
                self.note(_("Not counted: {why}").format(why=why))
                return None
            return path
        return None

    def _who(self, key: bytes) -> str:
        assert self.charter is not None
        names = [p.name for p in self.charter.players if p.key == key]
        if not names:
            # Translators: {key} is the start of a laptop's identity key (hex digits).
            return _("laptop {key}").format(key=key.hex()[:8])
        if len(names) == 1:
            # Translators: {name} is a player's name.
            return _("the laptop of {name}").format(name=names[0])
        # Translators: {name} is a player's name; {n} how many more players that laptop entered.
        return ngettext("the laptop of {name} and {n} more", "the laptop of {name} and {n} more",
                        len(names) - 1).format(name=names[0], n=len(names) - 1)

    # ------------------------------------------------------------------ the others (§6.2)

    async def _ask(self, address: tuple[str, int], request: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """:func:`~carcnet.club.service.ask` as this laptop: its identity key proven, its event named."""
        return await ask(address, request, identity=self.identity, event=self._event_id or "", **kwargs)

    def _is_laptop(self, key: bytes) -> bool:
        """Whether a key proven on a connection to this laptop's service is an event laptop's: a
        laptop of the charter, or before it one whose players the opener entered (the event service's
        budgets for a laptop rather than a stranger)."""
        if self.charter is not None:
            return key in laptops(self.charter)
        return key == self.me or any(p.key == key for p in self._roster)

    def _known_address(self, address: str) -> bool:
        """Whether an event laptop that signed a status for this laptop answers at IP *address*
        (the event service's budgets for a laptop rather than a stranger)."""
        return any(laptop.heard > float("-inf") and any(a[0] == address for a in laptop.addresses)
                   and self._is_laptop(key) for key, laptop in self._laptops.items())

    def _known_keys(self) -> list[bytes]:
        return laptops(self.charter) if self.charter is not None else []

    async def _poll_loop(self) -> None:
        while True:
            self._poll_now.clear()
            began = self.clock()
            await self._poll_once()
            self._polled = True
            self._wake.set()
            with contextlib.suppress(TimeoutError):  # a new asker is asked at once, at most every POLL_GAP s
                await asyncio.wait_for(self._poll_now.wait(), self.poll)
                gap = min(POLL_GAP, self.poll) - (self.clock() - began)
                if gap > 0:
                    await asyncio.sleep(gap)  # a pace, not a synchronisation: enrolments come at any rate
            _raise_if_cancelled()

    async def _poll_once(self) -> None:
        known = {a for laptop in self._laptops.values() for a in laptop.addresses[:2]}
        hints, self._hints = set(self._hints.values()) - known, {}
        for hint in sorted(hints):
            self._tried.pop(hint, None)
            self._tried[hint] = self.clock()
        while len(self._tried) > MAX_UNREACHABLE:
            del self._tried[next(iter(self._tried))]
        targets: list[tuple[bytes | None, tuple[str, int]]] = [(None, a) for a in [*self._dial, *sorted(hints)]]
        claimed, self._claimed = self._claimed, {}
        for key, laptop in self._laptops.items():
            targets += [(key, a) for a in laptop.addresses[:2] if a not in self._dial]
        targets += [(key, a) for key, a in claimed.items()
                    if key not in self._laptops or a not in self._laptops[key].addresses[:2]]
        await asyncio.gather(*(self._ask_status(key, address) for key, address in targets[:128]))

    async def _ask_status(self, expected: bytes | None, address: tuple[str, int]) -> None:
        """Asks *address* for its status and records it for the key it is signed by (*expected*, or
        for a hint any key); a hint that does not answer with a status of this event slows its address
        (:meth:`_unreachable_now`)."""
        nonce = os.urandom(16)
        asked = self.clock()
        try:
            reply = await self._ask(address, {"type": "status?", "nonce": nonce, "port": self.port}, timeout=max(1.0, min(5.0, self.gone / 4)))
            status = read_status(reply, nonce)
        except ServiceError:
            if expected is None:
                self._unreachable_now(address)
            return
        if status.key == self.me or (expected is not None and status.key != expected):
            return
        if (self._event_id is not None and status.event != self._event_id) or (
                self.charter is not None and status.key not in laptops(self.charter)):
            if expected is None:
                self._unreachable_now(address)
            return
        self._tried.pop(address, None)
        laptop = self._laptops.setdefault(status.key, _Laptop())
        laptop.status = status
        laptop.heard = self.clock()
        laptop.asked = asked
        if address not in laptop.addresses:
            laptop.addresses.insert(0, address)
            del laptop.addresses[4:]
        self._learn(status.peers)
        if self.charter is None and status.key not in self._laptops_entered():
            self._forget_strangers()

    def _laptops_entered(self) -> set[bytes]:
        return {p.key for p in self._roster} | {self.me}

    def _forget_strangers(self) -> None:
        """Before the charter, forgets the longest unheard of the keys that answered a hint without
        a player entered, past :data:`MAX_STRANGER_LAPTOPS` of them."""
        entered = self._laptops_entered()
        strangers = sorted((laptop.heard, key) for key, laptop in self._laptops.items() if key not in entered)
        for _heard, key in strangers[:max(0, len(strangers) - MAX_STRANGER_LAPTOPS)]:
            del self._laptops[key]

    def _unreachable_now(self, hint: tuple[str, int]) -> None:
        """*hint* (an address and port) did not answer with a status of this event: new connections
        from its IP address to the service are slowed as a budget breaker's (unless an event laptop
        answers there)."""
        if self._service is not None and not self._known_address(hint[0]):
            self._service.discouraged.mark(hint[0])

    def _hint(self, address: str | None, port: object) -> bool:
        """Keeps ``(address, port)`` where an asker says its service answers, to be asked for a status
        at the next poll: one port an address, :data:`MAX_HINTS` addresses, none asked as a hint within
        the last :data:`UNREACHABLE` seconds that has not answered. Returns whether it is a new one."""
        if address is None or not isinstance(port, int) or not 0 < port < 65536:
            return False
        tried = self._tried.get((address, port))
        if tried is not None:
            if self.clock() - tried < UNREACHABLE:
                return False
            del self._tried[(address, port)]
        if self._hints.get(address) == (address, port) or (
                address not in self._hints and len(self._hints) >= MAX_HINTS):
            return False
        self._hints[address] = (address, port)
        return True

    def _learn(self, peers: object) -> None:
        """Keeps the addresses *peers* names (``(key, host, port)`` of the event's laptops: hints, asked
        in turn; anything else is dropped)."""
        if self.charter is None or not isinstance(peers, list | tuple):
            return
        keys = set(laptops(self.charter))
        for item in peers[:64]:
            try:
                key, host, port = bytes(item[0]), str(item[1]), int(item[2])
            except (TypeError, ValueError, IndexError):
                continue
            if key in keys and key != self.me and 0 < port < 65536:
                other = self._laptops.setdefault(key, _Laptop())
                if (host, port) not in other.addresses and len(other.addresses) < 4:
                    other.addresses.append((host, port))

    def _ad(self) -> GameAd | None:
        """This laptop's mDNS record of the event (discovery.md §2, role ``event``), once it knows the
        event and listens."""
        if self._event_id is None or self.port is None:
            return None
        charter = self.charter
        size = charter.size if charter is not None else int(self._opening["size"]) if self._opening else 2
        name = charter.name if charter is not None else str(self._opening["name"]) if self._opening else "event"
        phase: Phase = "lobby" if charter is None else "finished" if self.round > charter.rounds else "playing"
        return GameAd(game=self._event_id, name=name[:32], phase=phase, seats_taken=min(len(self.roster), size),
                      seats_total=size, peer=(self.name or "carcnet")[:32], role="event", key=self.me,
                      port=self.port)

    def _found(self, ad: GameAd) -> None:
        """An event's record found by mDNS: before this laptop knows its event, the first one in its
        lobby is the one it asks to enter; then only its own event's records, as hints."""
        if ad.key == self.me or not ad.addresses or ad.role != "event":
            return
        address = (next((a for a in ad.addresses if ":" not in a), ad.addresses[0]), ad.port)
        if self._event_id is None and not self._dial and ad.phase == "lobby":
            self._dial.append(address)
            # Translators: {name} is the event's name, {peer} a laptop's name; {host}:{port} its address.
            self.note(_("Found the event {name} opened by {peer} at {host}:{port}").format(
                name=repr(ad.name), peer=ad.peer, host=address[0], port=address[1]))
            self._wake.set()
        elif ad.game == self._event_id and address not in self._dial:
            self._hint(*address)

    def _answer(self, request: dict[str, Any], who: Asker) -> dict[str, Any] | None:
        kind, asker = request["type"], who.address
        if kind == "status?":
            nonce, port = request.get("nonce"), request.get("port")
            if not isinstance(nonce, bytes) or len(nonce) != 16:
                return {"type": "error", "text": "a status request carries a nonce of 16 bytes"}
            self._hint(asker, port)  # where the asker answers, to be asked in turn
            if who.laptop and who.key != self.me and asker is not None and isinstance(port, int) and 0 < port < 65536:
                # an event laptop's proven key: asked there as that laptop at the next poll, beside
                # the hints (one a laptop, the newest: a laptop started again answers at a new port)
                self._claimed[who.key] = (asker, port)
            return sign_status(self.identity, self._status(), nonce)
        if kind == "charter?":
            if self.charter is not None:
                return {"type": "charter", "charter": self.charter.to_bytes(), "peers": self._peers()}
            if self._opening is not None:
                return {"type": "roster", "event": self._opening["event"], "name": self._opening["name"],
                        "players": [[p.name, p.bot] for p in self._roster]}
            return {"type": "error", "text": "no charter here yet"}
        if kind == "log?":
            return self._answer_log(request)
        if kind == "enrol":
            return self._enrol(request, who)
        return {"type": "error", "text": f"unknown request {kind[:32]!r}"}

    def _status(self) -> Status:
        event = self._event_id or ""
        tables = tuple((r, t, table.game_id, table.peer.port) for (r, t), table in self._tables.items()
                       if table.peer is not None and table.peer.port)
        held = tuple(sorted(self.results))
        return Status(event, self.me, self.round, tables, held, tuple(self._peers()))

    def _peers(self) -> list[tuple[bytes, str, int]]:
        """``(key, host, port)`` of the laptops this one knows an address of (hints for the others)."""
        return [(k, a[0], a[1]) for k, laptop in self._laptops.items() for a in laptop.addresses[:1]][:64]

    def _answer_log(self, request: dict[str, Any]) -> dict[str, Any]:
        number, t = request.get("round"), request.get("table")
        if (self.charter is None or request.get("event") != self.charter.event
                or not isinstance(number, int) or not isinstance(t, int) or (number, t) not in self.results):
            return {"type": "none"}
        try:
            data = (self.folder / "results" / result_name(number, t)).read_bytes()
        except OSError:
            return {"type": "none"}
        return {"type": "log", "round": number, "table": t, "log": data}

    def _enrol(self, request: dict[str, Any], who: Asker) -> dict[str, Any]:
        """The opener's answer to an enrolment (§6.1): checked in full (the event, the name rule of
        :func:`~carcnet.log.values.name_problem`, the key's signature, the bot's level), then bounded:
        :data:`MAX_PER_LAPTOP` players a key, :data:`MAX_PER_ADDRESS` an asker's address,
        :data:`MAX_PLAYERS` in all. The key enrolled is the one the asker proved on its connection (a
        captured enrolment sent again by another laptop enters nobody), and it must answer first: a
        laptop that has not signed a status for this one (:meth:`answering`) is answered ``wait``, its
        ``port`` asked at once (:meth:`_hint`), so that a key that never answers takes no place. A
        player whose laptop stops answering gives its place up :attr:`gone` seconds later. The bounds
        are checked before the signature, so that enrolments past them cost no signature check. Each
        refusal is one sentence for people.

        Returns:
            ``{"type": "enrolled"}``, ``{"type": "wait", "text"}`` or ``{"type": "error", "text"}``.
        """
        asker = who.address
        if self._opening is None or self.charter is not None:
            return {"type": "error", "text": "the event has started, or this laptop did not open it"}
        name, key, bot, sig = request.get("name"), request.get("key"), request.get("bot"), request.get("sig")
        if request.get("event") != self._opening["event"]:
            return {"type": "error", "text": "another event"}
        if name_problem(name) is not None:
            return {"type": "error", "text": f"a player's name {name_problem(name)}"}
        assert isinstance(name, str)
        if not (isinstance(key, bytes) and len(key) == 32 and isinstance(sig, bytes) and len(sig) == 64):
            return {"type": "error", "text": "a key of 32 bytes and a signature of 64"}
        if key != who.key:
            return {"type": "error", "text": "a laptop enters players under its own key only"}
        if bot is not None:
            try:
                make_bot(str(bot), 0)
            except ValueError as exc:
                return {"type": "error", "text": str(exc)}
        if not self.answering(key):  # before the signature: a key that never answers costs a dial at most
            if self._hint(asker, request.get("port")) or asker in self._hints:
                self._poll_now.set()
            return {"type": "wait", "text": "the opener has not heard this laptop's status yet"}
        taken = any(p.name == name for p in self._roster)
        if not taken:  # the bounds first: a flood of enrolments past them costs no signature check
            self._give_up_places()
            if sum(1 for p in self._roster if p.key == key) >= MAX_PER_LAPTOP:
                return {"type": "error", "text": f"one laptop enters at most {MAX_PER_LAPTOP} players"}
            if asker is not None and sum(1 for _t, a in self._entered.values() if a == asker) >= MAX_PER_ADDRESS:
                return {"type": "error", "text": f"one address enters at most {MAX_PER_ADDRESS} players"}
            if len(self._roster) >= MAX_PLAYERS:
                return {"type": "error", "text": f"the event is full ({MAX_PLAYERS} players)"}
        if not verify(key, enrol_bytes(self._opening["event"], name, bot), sig):
            return {"type": "error", "text": "the enrolment's signature does not verify"}
        if taken:
            same = any(p.name == name and p.key == key and p.bot == bot for p in self._roster)
            return {"type": "enrolled"} if same else {
                "type": "error", "text": f"{name!r} is taken by another player: choose another name"}
        if bot is None and any(p.key == key and p.bot is None for p in self._roster):
            return {"type": "error", "text": "a person enters once"}
        self._roster.append(Entrant(name, key, bot))
        self._entered[name] = (self.clock(), asker)
        # Translators: {name} is a player's name; {bot} a bot's level (easy, hard).
        self.note(_("Entered: {name} ({bot} bot)").format(name=name, bot=bot) if bot
                  # Translators: {name} is a player's name.
                  else _("Entered: {name}").format(name=name))
        self._wake.set()
        return {"type": "enrolled"}

    def _give_up_places(self) -> None:
        """Drops the players of laptops that no longer answer (:meth:`answering`: no status for
        :attr:`gone` seconds), once entered for :attr:`gone` seconds."""
        now = self.clock()
        dropped = [p for p in self._roster if p.name in self._entered  # the clock first: it costs least
                   and now - self._entered[p.name][0] >= self.gone and not self.answering(p.key)]
        for p in dropped:
            self._roster.remove(p)
            del self._entered[p.name]
        if dropped:
            self.note(_left_out(len(dropped)))

    # ------------------------------------------------------------------ waiting

    async def _sleep(self) -> None:
        """Until something changed (a status heard, a table's game moved) or :attr:`poll` seconds.

        Raises:
            asyncio.CancelledError: This task was cancelled, here or since the last call: on Python
                3.11 ``asyncio.wait_for`` drops a cancellation that comes as its awaitable completes
                (a reply read, the wake-up set), and every loop of :meth:`run` comes through here.
        """
        _raise_if_cancelled()
        self._wake.clear()
        self._ad_dirty.set()  # the record is advertised again if it changed (phase, players)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), self.poll)
        _raise_if_cancelled()

    async def _linger(self) -> None:
        """Answers the others until every present laptop has finished (§6.5), at most :attr:`linger` s."""
        assert self.charter is not None
        end = self.clock() + self.linger
        while self.clock() < end:
            waiting = [k for k in laptops(self.charter) if k != self.me and self.present(k)
                       and (k not in self._laptops or self._laptops[k].status is None
                            or self._laptops[k].status.round <= self.charter.rounds)]  # type: ignore[union-attr]
            if not waiting:
                return
            await self._sleep()


def _raise_if_cancelled() -> None:
    """Raises :class:`asyncio.CancelledError` when the current task has a cancellation pending."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


def _left_out(count: int) -> str:
    """The line for *count* players left out of the event: their laptops stopped answering."""
    # Translators: {n} is a number of players.
    return ngettext("Left out: {n} player whose laptop stopped answering",
                    "Left out: {n} players whose laptop stopped answering", count).format(n=count)


def _players_rounds(charter: Charter) -> dict[str, str]:
    """``players`` and ``rounds`` of *charter* in words ("8 players", "3 rounds"), to format a line with."""
    players, rounds = len(charter.players), charter.rounds
    # Translators: a number of players, part of "Event 'Club night': 8 players, 3 rounds".
    players_text = ngettext("{n} player", "{n} players", players).format(n=players)
    # Translators: a number of rounds, part of "Event 'Club night': 8 players, 3 rounds".
    return {"players": players_text, "rounds": ngettext("{n} round", "{n} rounds", rounds).format(n=rounds)}


def standings_lines(charter: Charter, rows: Sequence[Standing]) -> list[str]:
    """The standings as lines of text: place, name, wins, score difference, Buchholz, games."""
    player, wins = pgettext("standings column", "player"), pgettext("standings column", "wins")
    # Translators: the columns of the standings: the difference of scores, the Buchholz score (the sum of the
    # opponents' wins), the games played; kept short (8 characters fit).
    diff, buchholz, games = (pgettext("standings column", "diff"), pgettext("standings column", "buchholz"),
                             pgettext("standings column", "games"))
    out = [f"{'#':>3}  {player:20} {wins:>6} {diff:>8} {buchholz:>8}  {games}"]
    for s in rows:
        # Translators: after a player's games in the standings: {n} rounds the player sat out (a bye counts as a win).
        byes = " " + ngettext("(+{n} bye)", "(+{n} byes)", s.byes).format(n=s.byes) if s.byes else ""
        out.append(f"{s.rank:>3}  {charter.players[int(s.player)].name:20} {decimal(float(s.wins)):>6} "
                   f"{_signed(float(s.difference)):>8} {decimal(float(s.buchholz)):>8}  {s.games}" + byes)
    return out


def _signed(value: float) -> str:
    """*value* with one decimal and its sign (``+3.0``, ``-1.5``), in the language's decimal mark."""
    return f"{value:+.1f}".replace(".", pgettext("decimal mark", "."))


def standings_json(charter: Charter, rows: Sequence[Standing]) -> str:
    """The standings as JSON (numbers as exact fractions in text, as protocol/tournament.md §7)."""
    return json.dumps({"event": charter.event, "name": charter.name, "standings": [
        {"rank": s.rank, "player": int(s.player), "name": charter.players[int(s.player)].name,
         "wins": str(s.wins), "difference": str(s.difference), "buchholz": str(s.buchholz), "games": s.games,
         "byes": s.byes} for s in rows]}, indent=1) + "\n"
