"""Provides the lobby of a LAN game, without I/O (``protocol/wire.md`` §4.6, §5.3): the host's
:class:`Hosting`, a player's :class:`Seating` and a spectator's :class:`Watching`.

A lobby plugs into a :class:`~carcnet.net.sync.SyncSession` that has no header yet
(``SyncSession(lobby=…)``), built like :class:`~carcnet.net.admission.CommitRound` and
:class:`~carcnet.net.protocol.PeerConnection`: values in, values out, no pointer back to its owner.
At :meth:`LobbyRole.attach` the session gives it a :class:`LobbyContext` (game id, this peer's name
and identity key); then it hands it the lobby messages (``lobby``, ``claim``, ``commit``, ``start``),
tells it when a connection opens or closes and when an ``error`` arrives (with the open connections
and the clock's *now* where the lobby needs them), and asks it whether a peer may connect
(:meth:`LobbyRole.admit`, declaring its role in handshakes: ``host`` for the table's holder). Every
such call returns the :data:`LobbyAction` values the session carries out in order
(:meth:`SyncSession.apply_lobby`): messages to send (:class:`Send`), input to refuse
(:class:`Refuse`), the game to begin with its header and seats (:class:`Begin`, after which the lobby
has nothing more to do), and news for the session's listeners (:class:`LobbyChanged`).

The exchange (wire.md §5.3): players ``claim`` seats; the host answers with the new ``lobby`` to
everyone; when every seat is taken the host locks the table, and every seat commits to the root of
its hash chain for the game's draws (``commit``, signed by the seat key; ``deck.md`` §5.1), the host
relaying each commitment to every seated player; with every commitment in, the host builds the
header (seat keys and chain roots; no seed: the table draws each tile, ``wire.md`` §5.7), seals it
with its identity key (the game id is made from that key, §4.2 "The game id") and sends ``start``.
Each player checks that its seat, key and commitment are in it before it plays; a spectator, that
plays no seat, takes no header whose seal does not show that the game id's host started it.

Randomness (the bots' keys) comes from the *random* function given (``os.urandom`` by default) so
that tests can fix it; a seat's chain comes from its key (:func:`~carcnet.net.signing.seat_chain`);
clocks likewise (*now* arguments).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

from carcnet.engine import Rules
from carcnet.i18n import _, ngettext
from carcnet.log import COLOURS, LogFormatError, LogHeader, Seat

from .admission import CommitRound, check_seal
from .framing import ProtocolError
from .link import Link
from .messages import Claim, Commit, Error, Lobby, LobbySeat, Message, Role, Seal, Start, WireHeader
from .signing import SeatKey, sealed_game_id, seat_chain, sign_commit, sign_seal

__all__ = [
    "COMMIT_TIMEOUT",
    "Begin",
    "Hosting",
    "LobbyAction",
    "LobbyChanged",
    "LobbyContext",
    "LobbyRole",
    "Refuse",
    "SeatPlan",
    "Seating",
    "Send",
    "Watching",
    "passed_start",
]

log = logging.getLogger("carcnet.net")

#: Seconds a host waits for the commitments of a locked table before it abandons the round (wire.md §5.3).
COMMIT_TIMEOUT = 60.0


# ---------------------------------------------------------------------- what goes in and out


@dataclass(frozen=True, slots=True)
class LobbyContext:
    """What a lobby knows of the session it is plugged into, given once at :meth:`LobbyRole.attach`.

    Attributes:
        game: The game id (the commitments and the header are made for it).
        name: This peer's name (for its log lines).
        identity: This peer's identity key (wire.md §3.1): the host's person plays its seat with it.
    """

    game: str
    name: str
    identity: SeatKey


@dataclass(frozen=True, slots=True)
class Send:
    """Queue *message* on *link* (a closed link drops it, :meth:`Link.send`)."""

    link: Link
    message: Message


@dataclass(frozen=True, slots=True)
class Refuse:
    """Answer bad input from *link* with ``error`` *code* (closing where wire.md §6 says), as
    :meth:`Connections.refuse` does.

    Attributes:
        link: The connection the input came on.
        code: The error code (wire.md §8), e.g. ``"seat-taken"``, ``"forbidden"``.
        message: The text (cut to 256 characters when sent).
        seq: The seq concerned, or ``None``.
    """

    link: Link
    code: str
    message: str
    seq: int | None = None

    @classmethod
    def of(cls, link: Link, exc: ProtocolError) -> Refuse:
        """The refusal of *exc*'s code, text and seq on *link*."""
        return cls(link, exc.code, exc.message, exc.seq)


@dataclass(frozen=True, slots=True)
class Begin:
    """Start the game the lobby agreed on (:meth:`SyncSession.begin`, wire.md §5.3 step 4).

    Attributes:
        header: The game's header.
        seats: Seat → the key this peer plays it with (a spectator's: none).
        told: The connections that know the header already (the ``start`` went to or came from them).
        source: The connection whose message started the game: a header the session refuses (a
            :class:`~carcnet.net.framing.ProtocolError`) is answered there with ``error``. ``None``
            (the opener's own word, a table of the host's own seats): the error is raised to the caller.
        seal: The host's seal of *header* (wire.md §4.2), kept to pass on in welcomes; ``None``: none.
    """

    header: WireHeader
    seats: Mapping[int, SeatKey]
    told: tuple[Link, ...]
    source: Link | None = None
    seal: Seal | None = None


@dataclass(frozen=True, slots=True)
class LobbyChanged:
    """The lobby's table or state changed: the session tells its listeners (``"lobby"``)."""


#: One thing a lobby asks its session to do; a lobby call returns them in the order they are done.
LobbyAction: TypeAlias = Send | Refuse | Begin | LobbyChanged


# ---------------------------------------------------------------------- the roles


class LobbyRole:
    """What a session without a header asks of its lobby. The default takes no lobby message.

    Attributes:
        context: The session's game id, name and identity, from :meth:`attach`.
    """

    #: The role this peer declares in its handshakes while the lobby lasts (wire.md §3.2).
    wire_role: Role = "player"
    context: LobbyContext

    def attach(self, context: LobbyContext) -> None:
        """Plugs the lobby into the session *context* describes (once, before any other call).

        Raises:
            ValueError: The lobby cannot serve that session (see :class:`Hosting`).
        """
        self.context = context

    def admit(self, role: Role, key: bytes) -> tuple[str, str] | None:
        """Whether a peer with *role* and identity *key* may connect now: ``None``, or the reject's
        code and text."""
        return None

    def on_open(self, link: Link) -> list[LobbyAction]:
        """A connection's handshake is done."""
        return []

    def on_close(self, link: Link, *, links: Sequence[Link]) -> list[LobbyAction]:
        """A connection ended; *links* are the connections still open."""
        return []

    def on_message(self, link: Link, message: Message, *, links: Sequence[Link], now: float) -> list[LobbyAction]:
        """A ``lobby``, ``claim``, ``commit``, ``reveal`` or ``start`` arrived (the connection has
        checked that the peer's role may send it); *links* are the open connections, *now* the
        session's clock in seconds."""
        return [Refuse(link, "unexpected-message", f"{type(message).__name__.lower()}: no lobby here")]

    def on_error(self, link: Link, error: Error) -> list[LobbyAction]:
        """An ``error`` that leaves the connection open arrived."""
        return []

    def seated_keys(self) -> frozenset[bytes]:
        """The identity keys of the peers this lobby has seated (wire.md §4.2: only their addresses
        are confirmed before the start): the host's; nobody at anyone else's."""
        return frozenset()

    def judge_header(self, header: WireHeader, seal: Seal | None) -> None:
        """Whether this peer takes *header*, offered in a ``welcome`` with *seal*, as its game's
        (wire.md §5.4); the session has checked its game id and setup digest. A player judges it by its
        own seat when it sits down; by default every such header is taken.

        Raises:
            ProtocolError: The header is refused (its code: ``bad-header``).
        """


class _HostPin:
    """wire.md §4.6 "Whose table": a player or spectator in a lobby takes ``lobby``, ``commit``,
    ``reveal`` and ``start`` only over a connection it dialled itself (to the table it chose), and
    only from the host identity of the first of them it took (a ``lobby``, or a ``start`` when it came
    as the table locked); a peer that dialled it and claims to
    be a host, or another identity on a later connection, is refused ``forbidden``."""

    host_key: bytes | None = None

    def _check_host(self, link: Link, message: Message) -> None:
        kind = type(message).__name__.lower()
        if not link.conn.initiator:
            raise ProtocolError("forbidden", f"{kind} from a peer that dialled this one: only the table it joined counts")
        if self.host_key is None:  # the first lobby (or, to a late spectator, start) it takes
            self.host_key = link.key
        if link.key != self.host_key:
            raise ProtocolError("forbidden", f"{kind} from another host than the one this peer sat down with")


def _clock_text(clock: tuple[int, ...] | None) -> str:
    """A lobby's turn clock as people write it: ``60+300`` (seconds a turn + seconds of bank), or ``no clock``."""
    return "no clock" if clock is None else f"{clock[0]}+{clock[1]}"


def _table_text(table: Sequence[LobbySeat | None]) -> str:
    return ", ".join(f"{i}:{s.seat.name}" if s else f"{i}:open" for i, s in enumerate(table))


# ---------------------------------------------------------------------- the host


@dataclass(frozen=True, slots=True)
class SeatPlan:
    """One seat of a table the host opens.

    Attributes:
        kind: ``"open"`` (a player on the network claims it), ``"host"`` (the host's person plays it)
            or ``"bot"`` (a bot the host runs).
        name: The seat's name for ``host`` and ``bot`` seats (ignored for open seats).
        colour: The seat's colour for ``host`` and ``bot`` seats, one of ``COLOURS``.
        bot: Which bot plays a ``bot`` seat (``carcnet.bots`` name, e.g. ``"greedy"``).
    """

    kind: Literal["open", "host", "bot"]
    name: str = ""
    colour: str = ""
    bot: str | None = None


class Hosting(LobbyRole):
    """The table of the peer that opened the game (wire.md §4.6, §5.3).

    Args:
        name: The game's name (1 to 32 characters; the ``lobby`` name and mDNS ``gname``).
        options: The rule options.
        plan: One :class:`SeatPlan` per seat, 2 to 6. A ``host`` seat is played with the session's
            identity key; each ``bot`` seat gets a fresh key.
        random: ``random(n)`` gives *n* random bytes (bot keys); ``os.urandom`` by default.
        created: The header's creation time in seconds since 1970 (``None``: when the game starts).
        auto_start: Lock the table (and so start the game) as soon as every seat is taken; when
            ``False`` the full table waits for :meth:`start` (the opener's word).
        clock: The turn clock, ``(seconds a turn, seconds of bank)``, or ``None`` (wire.md §4.6): the
            table's for good (:attr:`clock` cannot be changed; a player sits down under it).
        nonce: The 32 random bytes the game id was made from with the session's identity key
            (:func:`~carcnet.net.signing.sealed_game_id`): the host seals the header with that key, so
            that spectators can check it (wire.md §4.2 "The game id"). ``None`` (a game id chosen
            otherwise, a scripted test): the ``start`` carries no seal, and spectators refuse it.

    Attributes:
        table: Seat → who sits there (``None``: open).
        owners: Seat → the connection of the player that claimed it (not the host's own seats).
        seal: The header's seal once the game has started (``None`` without a *nonce*).
        own: Seat → the key the host plays it with (its person's seat and its bots).
        bots: Seat → the bot name, for the bot seats the host runs.
        locked: Whether the table is locked for the commitments.
        started: The header once the game has started.

    Raises:
        ValueError: A plan of the wrong size, repeated colours or a *nonce* that does not make the
            session's game id (at :meth:`attach`), or a bad name.
    """

    wire_role: Role = "host"

    def __init__(
        self,
        *,
        name: str,
        options: Rules,
        plan: Sequence[SeatPlan],
        random: Callable[[int], bytes] = os.urandom,
        created: int | None = None,
        auto_start: bool = True,
        clock: tuple[int, int] | None = None,
        nonce: bytes | None = None,
    ) -> None:
        if not 2 <= len(plan) <= 6:
            raise ValueError(f"a table has 2 to 6 seats, not {len(plan)}")
        self.name = name
        self.options = options
        self.random = random
        self.created = created
        self.auto_start = auto_start
        self.plan = tuple(plan)
        self.table: list[LobbySeat | None] = [None] * len(plan)
        self.owners: dict[int, Link] = {}
        self.own: dict[int, SeatKey] = {}
        self.bots: dict[int, str] = {}
        self.locked = False
        self.started: WireHeader | None = None
        self.round: CommitRound | None = None
        self.locked_at: float | None = None
        self._clock = clock
        self.nonce = nonce
        self.seal: Seal | None = None
        Lobby(name=name, options=options, table=tuple(self.table), clock=clock)  # checks the name, options, clock

    def attach(self, context: LobbyContext) -> None:
        """Seats the host's own seats: its person's with *context*'s identity key, each bot with a
        fresh key.

        Raises:
            ValueError: Two seats of the plan have the same colour, a bad seat name or colour, or a
                nonce that does not make *context*'s game id with its identity key.
        """
        if self.nonce is not None and sealed_game_id(context.identity.public, self.nonce) != context.game:
            raise ValueError(f"game {context.game} is not the one this host's key and nonce make")
        super().attach(context)
        colours = [p.colour for p in self.plan if p.kind != "open"]
        if len(set(colours)) != len(colours):
            raise ValueError(f"two seats have the same colour: {', '.join(colours)}")
        for seat, p in enumerate(self.plan):
            if p.kind == "open":
                continue
            try:
                kind = "bot" if p.kind == "bot" else "human"
                sat = Seat(p.name, p.colour, kind, p.bot if p.kind == "bot" else None)
            except LogFormatError as exc:
                raise ValueError(f"seat {seat}: {exc}") from None
            key = context.identity if p.kind == "host" else SeatKey.from_seed(self.random(32))
            self.own[seat] = key
            if p.kind == "bot":
                self.bots[seat] = p.bot or "greedy"
            self.table[seat] = LobbySeat(sat, key.public)

    # ------------------------------------------------------------------ state

    @property
    def clock(self) -> tuple[int, int] | None:
        """The turn clock, ``(seconds a turn, seconds of bank)``, or ``None``: fixed when the table is
        opened, since a player agrees to it by sitting down (wire.md §4.6)."""
        return self._clock

    @property
    def lobby(self) -> Lobby:
        """The table as the ``lobby`` message carries it."""
        return Lobby(name=self.name, options=self.options, table=tuple(self.table), locked=self.locked,
                     clock=self.clock)

    @property
    def seats_taken(self) -> int:
        return sum(s is not None for s in self.table)

    def seated_keys(self) -> frozenset[bytes]:
        """The identity keys of the peers whose claim seated them at this table (wire.md §4.2)."""
        return frozenset(link.key for link in self.owners.values() if link.key is not None)

    @property
    def full(self) -> bool:
        return all(s is not None for s in self.table)

    # ------------------------------------------------------------------ the session's calls

    def admit(self, role: Role, key: bytes) -> tuple[str, str] | None:
        if role != "player" or self.started is not None:
            return None
        if any(s is not None and s.key == key for s in self.table):
            return None  # a seated player connecting again
        if self.locked or self.full:
            return ("no-seat", "the table is full; come back as a spectator")
        return None

    def on_open(self, link: Link) -> list[LobbyAction]:
        """A player or spectator connected: it is sent the table."""
        return [Send(link, self.lobby)] if link.role in ("player", "spectator") else []

    def on_close(self, link: Link, *, links: Sequence[Link]) -> list[LobbyAction]:
        """The seat of a player that left is open again; everyone still connected hears of it."""
        out: list[LobbyAction] = []
        for seat, owner in list(self.owners.items()):
            if owner is link:
                self._free(seat, f"{link.name} left", links, out)
        return out

    def on_message(self, link: Link, message: Message, *, links: Sequence[Link], now: float) -> list[LobbyAction]:
        """A ``claim`` (a seat for the player, then the table to everyone; the lock when that filled
        it and the table starts by itself, *now* being the lock's time) or a ``commit`` (relayed to
        the other seated players; the start with the last one). Bad ones are refused with their code
        (``seat-taken``, ``lobby-locked``, ``bad-commit``…), the connection staying open."""
        out: list[LobbyAction] = []
        try:
            if isinstance(message, Claim):
                self._claim(link, message, links, now, out)
            elif isinstance(message, Commit):
                self._commit(link, message, links, out)
            else:
                out.append(Refuse(link, "unexpected-message", f"{type(message).__name__.lower()} to the host"))
        except ProtocolError as exc:
            out.append(Refuse.of(link, exc))
        return out

    def tick(self, now: float, *, links: Sequence[Link]) -> list[LobbyAction]:
        """Abandons a round that waited more than :data:`COMMIT_TIMEOUT` seconds (time from *now*,
        the clock :meth:`lock` was given): the seats that did not commit or reveal are freed, and
        the table, open again, goes to every connection of *links*."""
        out: list[LobbyAction] = []
        if self.round is None or self.locked_at is None or now - self.locked_at < COMMIT_TIMEOUT:
            return out
        late = [seat for seat in self.owners if not self._has_done(seat)]
        log.warning("%s: the commitments timed out; freeing seats %s", self.context.name, late)
        for seat in late:
            self._free(seat, "no commitment in time", links, out, broadcast=False)
        self._unlock(links, out)
        return out

    # ------------------------------------------------------------------ claims

    def _claim(self, link: Link, claim: Claim, links: Sequence[Link], now: float, out: list[LobbyAction]) -> None:
        if self.locked or self.started is not None:
            raise ProtocolError("lobby-locked", "the table is locked" if self.locked else "the game has started")
        seat = claim.seat
        if seat >= len(self.table):
            raise ProtocolError("seat-taken", f"the table has {len(self.table)} seats; there is no seat {seat}")
        mine = [s for s, owner in self.owners.items() if owner is link]
        for other, held in enumerate(self.table):
            if held is None or other in mine:
                continue
            if other == seat:
                raise ProtocolError("seat-taken", f"seat {seat} is taken by {held.seat.name}")
            if held.seat.colour == claim.colour:
                raise ProtocolError("seat-taken", f"{claim.colour} is taken by {held.seat.name}")
            if held.key == claim.key:
                raise ProtocolError("seat-taken", "that key holds another seat")
        try:
            kind = "bot" if claim.bot is not None else "human"
            sat = Seat(claim.name, claim.colour, kind, claim.bot)
        except LogFormatError as exc:
            raise ProtocolError("bad-message", f"claim: {exc}") from None
        for old in mine:
            self.table[old] = None
            del self.owners[old]
        self.table[seat] = LobbySeat(sat, claim.key)
        self.owners[seat] = link
        log.info("%s: %s sits at seat %d (%s)", self.context.name, claim.name, seat, _table_text(self.table))
        if self.full and self.auto_start:
            self._lock(links, now, out, source=link)
        else:
            self._broadcast(links, out)

    def start(self, *, links: Sequence[Link], now: float) -> list[LobbyAction]:
        """The opener starts the game: locks the full table for the commitments (wire.md §5.3), as
        :meth:`lock` does with *links* and *now*.

        Raises:
            ValueError: A seat is still open, or the table is locked or started already.
        """
        if self.started is not None or self.locked:
            raise ValueError(_("the game is starting or has started"))
        if not self.full:
            open_seats = sum(s is None for s in self.table)  # Translators: {n} is a number of seats
            raise ValueError(ngettext("{n} seat is still open", "{n} seats are still open", open_seats).format(n=open_seats))
        return self.lock(links=links, now=now)

    def _free(self, seat: int, why: str, links: Sequence[Link], out: list[LobbyAction], *,
              broadcast: bool = True) -> None:
        if self.started is not None or seat not in self.owners:
            return
        del self.owners[seat]
        self.table[seat] = None
        log.info("%s: seat %d is open again (%s)", self.context.name, seat, why)
        if self.locked:
            self._unlock(links, out)
        elif broadcast:
            self._broadcast(links, out)

    def _broadcast(self, links: Sequence[Link], out: list[LobbyAction]) -> None:
        lobby = self.lobby
        out.extend(Send(link, lobby) for link in links if link.role in ("player", "spectator"))
        out.append(LobbyChanged())

    # ------------------------------------------------------------------ the commitments

    def lock(self, *, links: Sequence[Link], now: float) -> list[LobbyAction]:
        """Locks the full table and opens the round of commitments at time *now* (seconds, the clock
        :meth:`tick` is given): tells everyone on *links*, then commits the chain roots of the host's
        own seats (wire.md §5.3 steps 1–2), and starts the game at once when those were all the seats.
        A header the session then refuses is raised by :meth:`SyncSession.apply_lobby`."""
        out: list[LobbyAction] = []
        self._lock(links, now, out, source=None)
        return out

    def _lock(self, links: Sequence[Link], now: float, out: list[LobbyAction], *, source: Link | None) -> None:
        assert self.full
        self.locked = True
        self.locked_at = now
        game = self.context.game
        keys = [s.key for s in self.table if s is not None]
        self.round = CommitRound(game, keys)
        self._broadcast(links, out)
        length = self.options.table_draws()
        for seat, key in self.own.items():
            root = seat_chain(key, game, seat, length)[0]
            commit = Commit(seat=seat, hash=root, sig=sign_commit(key, game, seat, root))
            self.round.commit(commit)
            self._to_seated(commit, None, out)
        self._after_commit(links, out, source)

    def _has_done(self, seat: int) -> bool:
        r = self.round
        return r is None or r.has_committed(seat)

    def _unlock(self, links: Sequence[Link], out: list[LobbyAction]) -> None:
        self.locked = False
        self.round = None
        self.locked_at = None
        self._broadcast(links, out)

    def _to_seated(self, message: Message, source: Link | None, out: list[LobbyAction]) -> None:
        out.extend(Send(link, message) for link in set(self.owners.values()) if link is not source and link.is_open)

    def _commit(self, link: Link, commit: Commit, links: Sequence[Link], out: list[LobbyAction]) -> None:
        if self.round is None:
            raise ProtocolError("unexpected-message", "commit while the table is not locked")
        if self.owners.get(commit.seat) is not link:
            raise ProtocolError("unexpected-message", f"seat {commit.seat} is not this peer's")
        if self.round.commit(commit):
            self._to_seated(commit, link, out)
            self._after_commit(links, out, link)

    def _after_commit(self, links: Sequence[Link], out: list[LobbyAction], source: Link | None) -> None:
        """wire.md §5.3 step 4: with every seat's chain root in, the host builds the header (format 3:
        table draws, no seed) and starts the game."""
        r = self.round
        if r is None or not r.committed:
            return
        seats = [s.seat for s in self.table if s is not None]
        keys = [s.key for s in self.table if s is not None]
        header = WireHeader.of(
            LogHeader.new(
                seats,
                commits=r.commits,
                options=self.options,
                game=self.context.game,
                keys=keys,
                created=self.created,
            )
        )
        self.started = header
        self.round = None
        if self.nonce is not None:  # wire.md §4.2: the game id's host vouches for the header
            identity = self.context.identity
            self.seal = Seal(identity.public, self.nonce, sign_seal(identity, header.fingerprint))
        start = Start(header=header, seal=self.seal)
        log.info("%s: the game starts (table draws)", self.context.name)
        told = tuple(link for link in links if link.role in ("player", "spectator"))
        out.extend(Send(link, start) for link in told)
        out.append(Begin(header, dict(self.own), told, source, self.seal))


def passed_start(links: Sequence[Link], header: WireHeader, seal: Seal | None) -> list[Send]:
    """wire.md §4.6: the sealed ``start`` for each spectator of *links* that dialled this player, header-less."""
    return [Send(link, Start(header=header, seal=seal)) for link in links if seal is not None
            and link.role == "spectator" and not link.peer_has_header and not link.conn.initiator]


# ---------------------------------------------------------------------- a player


class Seating(_HostPin, LobbyRole):
    """A player looking for a seat at a host's table, then committing to its chain.

    On every ``lobby`` it claims a seat if it has none (the wanted seat if open, else the first open
    one; its colour if free, else the first free one); when the table locks it commits to the root of
    its seat's hash chain (``deck.md`` §5.1); on ``start`` it checks that the header has its seat, key
    and commitment, and the other commitments it saw relayed, and begins playing.

    Args:
        name: The name to sit under.
        key: The seat key (a human's is normally the session's identity key, wire.md §3.1).
        colour: The colour wanted (``None``: any).
        seat: The seat wanted (``None``: any).
        bot: The bot that will play the seat (``None``: a person).
        host_key: The identity key of the host to sit with, when known (an mDNS record's ``key``):
            lobby messages from any other identity are refused (wire.md §4.6 "Whose table").

    Attributes:
        lobby: The host's last ``lobby`` (``None`` before the first).
        seat: This player's seat in it, or ``None``.
        problem: Why no seat could be had (``"the table is full"``…), or why this player left the
            table (the host changed the turn clock after it sat down), for the interface.
    """

    wire_role: Role = "player"

    def __init__(
        self,
        *,
        name: str,
        key: SeatKey,
        colour: str | None = None,
        seat: int | None = None,
        bot: str | None = None,
        host_key: bytes | None = None,
    ) -> None:
        self.host_key = host_key
        self.name = name
        self.key = key
        self.colour = colour
        self.want_seat = seat
        self.bot = bot
        self.lobby: Lobby | None = None
        self.host: Link | None = None
        self.seat: int | None = None
        self.problem: str | None = None
        self.round: CommitRound | None = None
        self._root: bytes | None = None
        self._claimed = False
        self._refused = 0
        self._agreed: tuple[tuple[int, ...] | None] | None = None  # (the clock sat down under,) once claimed

    def on_message(self, link: Link, message: Message, *, links: Sequence[Link], now: float) -> list[LobbyAction]:
        """The host's ``lobby`` (a claim when seatless, a commitment when the table locked), a relayed
        ``commit`` (kept to check the header), or ``start`` (checked, then :class:`Begin`); each only
        from the pinned host over a connection this peer dialled (``forbidden`` otherwise). A ``claim``
        is refused ``lobby-locked``: only the host seats anyone (wire.md §3.3)."""
        out: list[LobbyAction] = []
        try:
            if not isinstance(message, Claim):
                self._check_host(link, message)
            if isinstance(message, Lobby):
                self._lobby(link, message, out)
            elif isinstance(message, Commit):
                self._commit(link, message)
            elif isinstance(message, Start):
                self._start(link, message, out)
            elif isinstance(message, Claim):  # wire.md §3.3: only the host seats anyone
                out.append(Refuse(link, "lobby-locked", "this peer does not hold the table: ask the host"))
            else:
                out.append(Refuse(link, "unexpected-message", f"{type(message).__name__.lower()} to a player"))
        except ProtocolError as exc:
            out.append(Refuse.of(link, exc))
        return out

    def on_error(self, link: Link, error: Error) -> list[LobbyAction]:
        """The host refused this player's claim (``seat-taken``, ``lobby-locked``): it claims again
        with the next ``lobby``."""
        if link is self.host and error.code in ("seat-taken", "lobby-locked"):
            self._claimed = False
            self._refused += 1
            self.problem = error.message
            return [LobbyChanged()]
        return []

    def on_close(self, link: Link, *, links: Sequence[Link]) -> list[LobbyAction]:
        """The connection to the host ended: the round this player committed in is void."""
        if link is self.host:
            self.host = None
            self.round = None
            self._root = None
            return [LobbyChanged()]
        return []

    def _lobby(self, link: Link, lobby: Lobby, out: list[LobbyAction]) -> None:
        if self._agreed is not None and lobby.clock != self._agreed[0]:
            change = f"{_clock_text(self._agreed[0])} → {_clock_text(lobby.clock)}"  # Translators: {change}: 60+300 → 30+0
            self.problem = _("the host changed the turn clock after you sat down ({change}): you left the table").format(change=change)
            raise ProtocolError("forbidden", f"the turn clock changed after this player sat down ({change})")
        self.host = link
        was_locked = self.lobby is not None and self.lobby.locked
        self.lobby = lobby
        self._claimed = False
        self.seat = next(
            (i for i, s in enumerate(lobby.table) if s is not None and s.key == self.key.public), None
        )
        if was_locked and not lobby.locked:
            self.round = None  # wire.md §4.6: every commitment made so far is void
            self._root = None
        if self.seat is not None and self._agreed is None:
            self._agreed = (lobby.clock,)  # seated already (a connection again): the clock it sat under
        if self.seat is None and not lobby.locked:
            self._claim(link, lobby, out)
        elif self.seat is None:
            self.problem = _("the table is full")
        else:
            self.problem = None
        if lobby.locked and self.seat is not None and self.round is None:
            game = self.context.game
            keys = [s.key for s in lobby.table if s is not None]
            self.round = CommitRound(game, keys)
            self._root = root = seat_chain(self.key, game, self.seat, lobby.options.table_draws())[0]
            commit = Commit(seat=self.seat, hash=root, sig=sign_commit(self.key, game, self.seat, root))
            self.round.commit(commit)
            out.append(Send(link, commit))
        out.append(LobbyChanged())

    def _claim(self, link: Link, lobby: Lobby, out: list[LobbyAction]) -> None:
        open_seats = [i for i, s in enumerate(lobby.table) if s is None]
        if not open_seats:
            self.problem = _("the table is full")
            return
        if self._refused > 2 * len(lobby.table):
            self.problem = _("the host keeps refusing our claims")
            return
        seat = self.want_seat if self.want_seat in open_seats else open_seats[0]
        taken = {s.seat.colour for s in lobby.table if s is not None}
        free = [c for c in COLOURS if c not in taken]
        colour = self.colour if self.colour in free else free[0]
        name = self.name
        if any(s is not None and s.seat.name == name for s in lobby.table):
            name = f"{name[:29]} {seat + 1}"  # two "Greedy bot"s would be hard to tell apart
        out.append(Send(link, Claim(seat=seat, name=name, colour=colour, key=self.key.public, bot=self.bot)))
        self._claimed = True
        self._agreed = (lobby.clock,)  # wire.md §4.6: a player agrees to the clock by sitting down

    def _commit(self, link: Link, commit: Commit) -> None:
        if self.round is None:
            raise ProtocolError("unexpected-message", "commit before this player committed")
        self.round.commit(commit)

    def _start(self, link: Link, start: Start, out: list[LobbyAction]) -> None:
        header = start.header
        seats = {}
        if self.seat is not None:
            if self.seat >= len(header.keys) or header.keys[self.seat] != self.key.public:
                raise ProtocolError("bad-header", f"the header does not give seat {self.seat} this player's key")
            r = self.round
            commits = header.commits or ()
            if r is None or self.seat >= len(commits) or commits[self.seat] != self._root:
                raise ProtocolError("bad-header", "the header does not hold this player's chain root")
            for seat in range(len(commits)):  # those relayed before the start must be the header's
                if r.has_committed(seat) and r.commit_of(seat) != commits[seat]:
                    raise ProtocolError("bad-header", "the header's commitments are not the ones relayed")
            seats[self.seat] = self.key
        out.append(Begin(header, seats, (link,), link, start.seal))


class Watching(_HostPin, LobbyRole):
    """A spectator in the lobby: it keeps the host's last ``lobby`` to show and takes the header
    ``start`` brings; then, and in every ``welcome`` until it holds a header, only a header sealed by
    the host the game id was made from (wire.md §4.2 "The game id", §5.4): it plays no seat, so no
    key of its own in the header tells it the header is the game's, and any peer it dials could
    serve another one under the same id.

    Attributes:
        lobby: The host's last ``lobby`` (``None`` before the first).
    """

    wire_role: Role = "spectator"

    def __init__(self, host_key: bytes | None = None) -> None:
        self.host_key = host_key  # as for Seating: the host to follow, when known
        self.lobby: Lobby | None = None

    def on_message(self, link: Link, message: Message, *, links: Sequence[Link], now: float) -> list[LobbyAction]:
        """The host's ``lobby`` (kept, :class:`LobbyChanged`), only from the pinned host over a
        connection this peer dialled (``forbidden`` otherwise); a ``start`` (:class:`Begin` with no
        seat) over any connection it dialled, the host's or a player's passing it on, when the host's
        seal shows it is the game's (wire.md §4.6); anything else is refused ``unexpected-message``."""
        if isinstance(message, Lobby) or (isinstance(message, Start) and not link.conn.initiator):
            try:
                self._check_host(link, message)
            except ProtocolError as exc:
                return [Refuse.of(link, exc)]
        if isinstance(message, Lobby):
            self.lobby = message
            return [LobbyChanged()]
        if isinstance(message, Start):
            try:
                self.judge_header(message.header, message.seal)
            except ProtocolError as exc:
                return [Refuse.of(link, exc)]
            return [Begin(message.header, {}, (link,), link, message.seal)]
        return [Refuse(link, "unexpected-message", f"{type(message).__name__.lower()} to a spectator")]

    def judge_header(self, header: WireHeader, seal: Seal | None) -> None:
        """Takes only a header its game's host sealed (:func:`~carcnet.net.admission.check_seal`).

        Raises:
            ProtocolError: ``bad-header``: no seal, another host's, or not this header's.
        """
        check_seal(header, seal)
