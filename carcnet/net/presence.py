"""Provides presence at a network table as values (protocol/wire.md §4.5, §5.6, §5.7): which peer runs
a seat, which seats are away or withhold their draw value, who may give a seat away, who takes an away
bot seat over, when, and what a peer gives back once a seat's own player is back.

Sans-I/O: no asyncio, no sockets, no clock of its own. A table takes a :class:`PresenceSnapshot` of
its session and links (what the heartbeats said, §4.5, and what :class:`PresenceRecords` remembers),
asks it, and carries the decisions out (a ``handover`` or ``handback`` entry, a bot set or stopped).
Times are seconds on the session's clock, given as an argument (*now*).

>>> me, ann, bob = bytes([1]) * 32, bytes([2]) * 32, bytes([3]) * 32
>>> snap = PresenceSnapshot(me=me, keys=(me, ann, bob), signers=(0, 1, 2), handovers=(None, None, None),
...                         plays=frozenset({0}), own=frozenset({0}))
>>> snap.away(now=0.0), snap.cut_off()
([1, 2], True)
>>> snap = PresenceSnapshot(me=me, keys=(me, ann, bob), signers=(0, 1, 2), handovers=(None, None, None),
...                         plays=frozenset({0}), own=frozenset({0}), links=(LinkView(ann, "player"),))
>>> snap.away(now=0.0), snap.cut_off(), snap.takeover_runner() == me
([2], False, True)
"""

from __future__ import annotations

import math
from collections.abc import Collection, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from carcnet.i18n import _

from .messages import Role

__all__ = [
    "LEFT_ON_PURPOSE", "HandBackStep", "LinkView", "PresenceRecords", "PresenceSnapshot", "TakeoverClock",
]

#: The ``bye`` reasons of a peer that left on purpose (wire.md §4.8): it does not come back by itself.
LEFT_ON_PURPOSE = ("quit", "shutdown")

#: A link closed for one of these reasons ended with the peer's word (wire.md §4.7): it did not vanish.
BYES = (*LEFT_ON_PURPOSE, "game-over", "duplicate")


@dataclass(frozen=True, slots=True)
class LinkView:
    """One open link as presence reads it.

    Attributes:
        key: The peer's identity key (wire.md §3.1), ``None`` before its handshake said it.
        role: ``"host"``, ``"player"`` or ``"spectator"`` (``None`` before the handshake).
        sees: The players the peer's last heartbeat said it is connected to (§4.5); empty before one.
        last_heartbeat: When its last heartbeat came (session clock seconds), ``None`` before one.
        last_heard: When anything last came from it (session clock seconds), ``None`` before.
        asks: The seats its last heartbeat asks the taker to hand over (§5.6 "Who makes the handover").
    """

    key: bytes | None
    role: Role | None
    sees: tuple[bytes, ...] = ()
    last_heartbeat: float | None = None
    last_heard: float | None = None
    asks: tuple[int, ...] = ()


class PresenceRecords:
    """What this peer remembers of the table's peers, beyond the links open now: fed by the table from
    the session's changes (a heartbeat, a link opened or closed) and by its own handovers.

    Attributes:
        runners: Seat → the identity key of the peer whose believed heartbeat last said it plays the seat
            as its own (not handed over: who runs a seat handed over is the log's, wire.md §4.5).
        owners: Seat → the identity key of the peer that played it while it was its own (not handed
            over): the peer that gets it back when it returns (wire.md §5.6).
        withheld: Seat → the identity key of the peer it was taken from while it withheld its draw
            value and was in touch with this peer (wire.md §5.7 "The price of a veto"): never given
            back (its owner is recorded as this peer in :attr:`owners`, so that a restart keeps it).
        handed: Seat → when this peer handed it over (the session's clock): its owner is back once it is
            heard from after that, not while a link to it that went silent then is still open.
        left: Keys of peers that said bye (quit, shutdown) and did not come back.
        gave_up: Those of them that said bye ``quit`` once the game had started: their person left the
            game for good, and the table gives their seats to bots (wire.md §4.7, §5.6).
        vanished: Keys of players whose last link closed without their ``bye`` (a dead connection, a
            crash, an error) and who did not come back: a laptop still there may be the only one to give
            them what they missed (a headless player lingers for them when its game is over).
        seen: Keys of the players a link has carried (a bot seat's key counts as its runner's once seen).
        host: The identity key of the peer that opened the table, once known: the first link that said
            role ``host``, or the first peer believed to play a seat under a key that is no peer's
            identity (:meth:`PresenceSnapshot.table_host`).
        dropped: How many seats of heartbeats' claims were not believed (:meth:`PresenceSnapshot.judge`).
        view: What the table last said of its presence (:meth:`PresenceSnapshot.table_view`): the
            identity keys of the players at the table this peer heard on its links then, and of those
            their heartbeats said they see; ``None`` before any. It stands while no player at the table
            is heard (a spectator whose player is gone, before the next one's heartbeat: wire.md §4.5).
        since: When this peer began to follow the table (the session's clock), ``None`` when not said:
            its arrival, from which nobody is away until the table is heard (:meth:`PresenceSnapshot.away`).
        heard_at: When this peer first heard the table's view (the session's clock), ``None`` before.
    """

    def __init__(self, since: float | None = None) -> None:
        self.runners: dict[int, bytes] = {}
        self.owners: dict[int, bytes] = {}
        self.withheld: dict[int, bytes] = {}
        self.handed: dict[int, float] = {}
        self.left: set[bytes] = set()
        self.gave_up: set[bytes] = set()
        self.vanished: set[bytes] = set()
        self.seen: set[bytes] = set()
        self.host: bytes | None = None
        self.dropped = 0
        self.view: frozenset[bytes] | None = None
        self.since = since
        self.heard_at: float | None = None

    def heard_table(self, snapshot: PresenceSnapshot, now: float) -> None:
        """Keeps what the table says of its presence at *now* (:meth:`PresenceSnapshot.table_view`), when
        a player at the table that this peer is connected to has said it (wire.md §4.5): the last view
        heard (:attr:`view`) and when the first was (:attr:`heard_at`). Nothing is forgotten when no
        such player is heard: the view stands until one says otherwise."""
        view = snapshot.table_view()
        if view is None:
            return
        self.view = view
        if self.heard_at is None:
            self.heard_at = now

    def heard(self, key: bytes, seats: Iterable[int], own: Container[int]) -> None:
        """The heartbeat of peer *key* says it plays *seats* (wire.md §4.5), believed already
        (:meth:`PresenceSnapshot.judge`); those of them in *own* (seats of the game not handed over to a
        bot) are recorded as its own: it runs them, and gets them back when it returns (§5.6). A seat
        handed over is not recorded: its runner is the runner of the seat that took it over, which the
        log says at once, while a heartbeat comes only after the entry."""
        for seat in seats:
            if seat in own:
                self.runners[seat] = key
                self.owners[seat] = key

    def take_claim(self, snapshot: PresenceSnapshot, key: bytes, seats: Iterable[int]) -> list[int]:
        """The heartbeat of the player *key* says it plays *seats* (wire.md §4.5): what *snapshot* (this
        peer's presence now) believes of it is :meth:`heard`, the rest is dropped and counted
        (:attr:`dropped`). A believed seat under a key that is not *key*'s own makes *key* the table's
        host when none was known (:meth:`PresenceSnapshot.table_host`). Returns the dropped seats."""
        believed, dropped = snapshot.judge(key, seats)
        self.dropped += len(dropped)
        own = [seat for seat in believed if snapshot.signers[seat] == seat]
        if self.host is None and any(snapshot.keys[seat] != key for seat in own):
            self.host = key
        self.heard(key, believed, own)
        return dropped

    def opened(self, key: bytes) -> None:
        """A link to player *key* opened: seen, and back if it had left."""
        self.seen.add(key)
        self.left.discard(key)
        self.gave_up.discard(key)
        self.vanished.discard(key)

    def closed(self, key: bytes, reason: str | None, *, still_connected: bool, started: bool = False) -> None:
        """A link to player *key* closed for *reason*; it left on purpose when it said ``bye`` quit or
        shutdown and no other link to it is open, and gave its seats up when that was ``quit`` in a
        game that had *started* (wire.md §4.7)."""
        self.seen.add(key)
        if not still_connected and reason not in BYES:
            self.vanished.add(key)
        if reason in LEFT_ON_PURPOSE and not still_connected:
            self.left.add(key)
            if reason == "quit" and started:
                self.gave_up.add(key)


@dataclass(frozen=True, slots=True)
class HandBackStep:
    """One thing to do at a seat handed over to a bot (wire.md §5.6 "Coming back"), in seat order.

    Attributes:
        seat: The seat.
        action: ``"arm"``: this peer's bot *bot* plays the seat (again); ``"release"``: this peer's bot
            leaves the seat alone; ``"hand-back"``: make the seat's ``handback`` entry now.
        bot: The bot's name for ``"arm"``, else ``None``.
    """

    seat: int
    action: Literal["arm", "release", "hand-back"]
    bot: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PresenceSnapshot:
    """What one peer knows of the table's presence at one moment. Seat-indexed tuples are empty before
    the game started (every answer is then empty or ``False``).

    Attributes:
        me: This peer's identity key (wire.md §3.1).
        keys: The header's seat keys, in seat order.
        bot_seats: The seats the header gives to a bot.
        signers: Per seat, the seat whose key signs its entries (itself, or after a ``handover`` the
            seat that runs its bot; ``Game.signer``).
        handovers: Per seat, the bot it was handed over to, ``None`` while it is its own.
        plays: The seats whose moves this peer makes now.
        own: The seats whose keys this peer holds (not those handed over to it).
        links: The open links, in the session's order.
        host: The identity key of the peer that opened the table, when known (:meth:`table_host`).
        runners, owners, withheld, handed, left, gave_up, seen: :class:`PresenceRecords`' records.
        contributors: The seats whose values the table draws need (deck.md §5.2); ``None`` in a game
            without table draws or once it is over.
        drawing: The draw the game waits for now (1-based), ``None`` when it waits for none.
        waiting: The draw this peer last began waiting for (1-based) and since when (seconds), else
            ``None``: a withholding clock, which counts only while it is :attr:`drawing`'s.
        missing: The seats whose value the draw the game waits for still lacks.
        reveal_wait: Seconds a seat's value may be missing before the seat counts as away (§5.7).
        fresh: Seconds in which a peer that is there is heard from: 1.5 × the heartbeat of §2.1 (a
            peer sends something at least every 5 s). A seat is judged withholding only while this
            peer heard from most of the table within them (:meth:`withholding`).
        to_play: The seat to move (``None``: nobody, e.g. while the table draws).
        placing: Whether the game waits for a tile's placement (not mid-turn).
        turn: The seat whose turn it is while its tile is not placed yet (the place phase, or the
            table's draw before it): when a ``handback`` of it is legal; else ``None``.
        tie: The table's tie order of the seats (wire.md §5.9 "The tie order"), first place first;
            ``None`` until the log holds it. Exactly half of the seated peers may give seats away when
            they hold the peer of the first seat in it (§5.6 rule 3).
        view, since, heard_at: :class:`PresenceRecords`' memory of the table's view and of this peer's
            arrival (:meth:`away`); without *since* presence is judged on the links alone.
    """

    me: bytes
    keys: tuple[bytes, ...] = ()
    bot_seats: frozenset[int] = frozenset()
    signers: tuple[int, ...] = ()
    handovers: tuple[str | None, ...] = ()
    plays: frozenset[int] = frozenset()
    own: frozenset[int] = frozenset()
    links: tuple[LinkView, ...] = ()
    host: bytes | None = None
    runners: Mapping[int, bytes] = field(default_factory=dict)
    owners: Mapping[int, bytes] = field(default_factory=dict)
    withheld: Mapping[int, bytes] = field(default_factory=dict)
    handed: Mapping[int, float] = field(default_factory=dict)
    left: frozenset[bytes] = frozenset()
    gave_up: frozenset[bytes] = frozenset()
    seen: frozenset[bytes] = frozenset()
    contributors: tuple[int, ...] | None = None
    drawing: int | None = None
    waiting: tuple[int, float] | None = None
    missing: tuple[int, ...] = ()
    reveal_wait: float = 10.0
    fresh: float = 7.5
    to_play: int | None = None
    placing: bool = False
    turn: int | None = None
    tie: tuple[int, ...] | None = None
    view: frozenset[bytes] | None = None
    since: float | None = None
    heard_at: float | None = None

    # ------------------------------------------------------------------ who is where

    def runner(self, seat: int) -> bytes | None:
        """The identity key of the peer that plays *seat*: the peer that plays the seat that signs its
        entries (the seat itself, or after a ``handover`` the seat that took it over: the log says so
        at once, with no heartbeat to wait for, wire.md §4.5). That seat's peer is this peer for a seat
        it plays; else the one whose believed heartbeat said it plays it (:meth:`judge`); else the
        seat's key when a connection carried it or it is no bot seat (a player's seat key is its
        identity), else ``None`` (a bot of the host's not placed yet)."""
        if seat in self.plays:
            return self.me
        signer = self.signers[seat]
        runner = self.runners.get(signer)
        if runner is not None:
            return runner
        key = self.keys[signer]
        if signer in self.bot_seats and key not in self.seen:
            return None
        return key

    def table_host(self) -> bytes | None:
        """The identity key of the peer that opened the table, the one peer that plays seats under keys
        that are no peer's identity (its bots, wire.md §4.6): :attr:`host` when known; else this peer
        when it holds such a key; else the peer believed to play such a seat; else ``None``."""
        if self.host is not None:
            return self.host
        if any(self.keys[seat] != self.me for seat in self.own if seat < len(self.keys)):
            return self.me
        for seat in sorted(self.bot_seats):
            runner = self.runners.get(seat)
            if runner is not None and runner != self.keys[seat]:
                return runner
        return None

    def judge(self, key: bytes, seats: Iterable[int]) -> tuple[list[int], list[int]]:
        """The seats of a heartbeat's ``seats`` claim from the player *key* (wire.md §4.5 "Checking
        claims"), split into those it can play (believed) and the rest (dropped): a seat whose signer's
        key is *key* (a player's seat key is its identity, §3.1); a seat handed over to a seat it can
        play (the handover's ``by``); a bot seat whose signer's key no connection carried (a bot the
        host runs under a key of its own), when *key* is :meth:`table_host` or no host is known yet.
        Before the game (no header) nothing can be judged and nothing is believed."""
        believed: list[int] = []
        dropped: list[int] = []
        for seat in seats:
            ok = 0 <= seat < len(self.keys) and self._may_run(key, self.signers[seat])
            (believed if ok else dropped).append(seat)
        return believed, dropped

    def _may_run(self, key: bytes, signer: int) -> bool:
        """Whether the peer *key* can hold the key of seat *signer*, a seat not handed over."""
        if self.keys[signer] == key:
            return True
        if signer not in self.bot_seats or self.keys[signer] in self.seen:
            return False
        host = self.table_host()
        return host is None or host == key

    def alive(self) -> set[bytes]:
        """The identity keys of the players this peer is in touch with (wire.md §4.5 "Checking
        claims"): itself and the players it is connected to; and a runner of a seat that more than half
        of the other seated peers (this one among them, the runner not counted) are connected to this
        peer and say they see (:meth:`seen_by_most`): a heartbeat's ``sees`` is a claim about links this
        peer cannot check, so it counts only as a majority's word, which one seated liar cannot make. A
        spectator decides nothing and usually watches through one peer: it also counts those that the
        players at the table it is connected to (a seat's key, a seat's runner, the host) say they are
        connected to (:meth:`table_view`), and while it hears none of them, what they said last
        (:attr:`view`). A spectator's claims count for nothing anywhere, nor do those of a peer that is
        no player of the game."""
        alive = {self.me}
        alive.update(link.key for link in self.links if link.role != "spectator" and link.key is not None)
        if not self.own:  # a spectator's view (it holds no seat key): what the table says, or said last
            view = self.table_view()
            alive.update((self.view or ()) if view is None else view)
        else:
            alive.update(self.seen_by_most(alive))
        return alive

    def table_view(self) -> frozenset[bytes] | None:
        """What the players at the table this peer is connected to say of its presence now (wire.md
        §4.5): the identity keys of each of them (a seat's key, a seat's runner, the host) whose link has
        carried a heartbeat, and of the players its last heartbeat said it sees. ``None`` while no such
        link has: this peer has not heard the table yet, or lost every player it heard (then
        :attr:`view`, the last one heard, stands for a spectator)."""
        if not self.keys:
            return None
        table = {self.runner(seat) for seat in range(len(self.keys))} | set(self.keys) | {self.table_host()}
        # a link has said its view once a heartbeat came on it (its sees come with one only)
        heard = [link.key for link in self.links if link.role != "spectator" and link.key is not None
                 and link.key in table and (link.last_heartbeat is not None or link.sees)]
        if not heard:
            return None
        return frozenset(heard).union(*(link.sees for link in self.links if link.key in heard))

    def arriving(self, now: float) -> bool:
        """Whether this peer is still arriving at *now*: it began to follow the table (:attr:`since`)
        less than :attr:`fresh` seconds ago and has not heard the table's view yet (:meth:`table_view`,
        :attr:`view`). A player at the table says its view as soon as a link to it opens (wire.md §4.5),
        so until then nothing tells this peer who is away: its own links are still being made."""
        return (self.since is not None and now - self.since < self.fresh and self.view is None
                and self.table_view() is None)

    def settling(self, now: float) -> bool:
        """Whether this player's peer heard the table's view for the first time (:attr:`heard_at`, or
        now) less than :attr:`fresh` seconds before *now*, since it began to follow the table
        (:attr:`since`): its links to the players the table says are there are still being made (a
        welcome names them, wire.md §4.2), and their absence here is no news yet."""
        first = self.heard_at
        if first is None and self.table_view() is not None:
            first = now  # heard just now (the records are told after this question)
        return self.since is not None and first is not None and now - first < self.fresh

    def seen_by_most(self, connected: set[bytes]) -> list[bytes]:
        """The runners of seats, not in *connected* (this peer and those it is connected to), that more
        than half of the other seated peers say they see: each peer that runs a seat, other than the
        runner in question, counts once, this one among them (it does not see it); only those
        connected here speak, in their last believed ``sees`` (wire.md §4.5 "Checking claims")."""
        seated = {runner for seat in range(len(self.keys)) if (runner := self.runner(seat)) is not None}
        seated.add(self.me)
        speakers = [link for link in self.links if link.role != "spectator" and link.key in seated]
        out = []
        for runner in sorted(seated - connected):
            seeing = sum(1 for link in speakers if link.key != runner and runner in link.sees)
            if 2 * seeing > len(seated - {runner}):
                out.append(runner)
        return out

    def link_to(self, key: bytes) -> LinkView | None:
        """The open link to the peer with identity *key*, if any."""
        return next((link for link in self.links if link.key == key), None)

    def withholding(self, now: float) -> list[int]:
        """The seats whose value for the draw the table waits for has been missing for :attr:`reveal_wait`
        seconds or more at *now* (wire.md §5.7 "Withholding"), whatever their links say: a seat is
        judged by its value, the one thing the draw needs, not by heartbeats or stale messages its peer
        may keep sending. The table treats them as away. The wait counts from when this peer began
        waiting for this very draw (:attr:`waiting` of :attr:`drawing`): the moment a draw begins its
        values are on their way, and the clock of the draw before is no measure of them. Never a seat
        played here; and none while this peer has not heard from most of the table since it began
        waiting (:meth:`heard_most_since`): the values missing then say that this laptop is cut off,
        whose links look open until the dead-connection clock closes them, not that the others
        withhold (a laptop cut at a draw took every other seat over and played a game of its own).
        Nor while it has not heard from most of the table within the last :attr:`fresh` seconds: the
        messages in flight when its network went arrive after the draw began, and say nothing of the
        others being there at the end of the wait (a laptop cut right after its turn took a seat over
        on a link that had been silent for 10 s, CI). A seat whose peer said ``bye`` (it left on
        purpose and has not connected again, §4.7) is judged all the same: no value comes from it, and
        at three seats the one left of three after two goodbyes would wait for the draw for ever."""
        waiting = self.waiting
        if waiting is None or waiting[0] != self.drawing or now - waiting[1] < self.reveal_wait:
            return []  # the clock of another draw: this one's values may be on their way
        missing = [seat for seat in self.missing if seat not in self.plays]
        if not self.heard_most_since(max(waiting[1], now - self.fresh)):
            return [seat for seat in missing if self.runner(self.signers[seat]) in self.left]
        return missing

    def heard_most_since(self, since: float) -> bool:
        """Whether this peer and the seated peers it heard from at *since* or later (on a link open
        now: any message, wire.md §5.7) are most of the seated peers by :meth:`sees_most`'s rule (more
        than half, or exactly half with the tie seat's peer). Always at a table of two seats: a laptop
        alone there may be the one cut off, or the one left, and goes on either way (§5.9 "Two seats,
        and leaving")."""
        if self.two_seats:
            return True
        peers = self.seated_peers()
        heard = {link.key for link in self.links if link.role != "spectator" and link.key is not None
                 and max(link.last_heard or -math.inf, link.last_heartbeat or -math.inf) >= since}
        return self._most([self.me, *(key for key in peers if key in heard)], [self.me, *peers])

    def withheld_by(self, seat: int, now: float) -> bytes | None:
        """The identity key of the peer that withholds *seat*'s value at *now* while there (wire.md §5.7
        "The price of a veto"): the seat withholds (:meth:`withholding`), and its peer was heard from on
        its link to this one since this peer began waiting for the draw (any message, a stale one
        too). ``None`` otherwise: nothing tells this peer that the laptop did not crash, or lose its
        network before the draw began, and those get their seat back when they return."""
        waiting = self.waiting
        if waiting is None or seat not in self.withholding(now):
            return None
        runner = self.runner(self.signers[seat])
        link = self.link_to(runner) if runner is not None else None
        heard = link is not None and link.last_heard is not None and link.last_heard > waiting[1]
        return runner if heard else None

    def away(self, now: float) -> list[int]:
        """The seats whose player no peer at the table is in touch with now: the table's presence, not
        one connection's (wire.md §4.5); and the seats that withhold their draw value at *now*
        (:meth:`withholding`). A seat's runner is :meth:`runner`'s (after a handover, the runner of the
        seat that took it over, at once); it is present when it is this peer, is connected to this
        peer, or is seen by a player at the table this peer is connected to (:meth:`alive`: never on a
        spectator's word). A bot of the host's that no heartbeat has placed yet counts as present while
        any player is connected (at a spectator, while the table's last view stands). Seats played
        here, and seats whose key this peer holds (its own, also while a bot elsewhere plays them),
        are never away.

        Arriving (:meth:`arriving`), nobody is away: this peer has not heard the table yet. A player
        that first heard it less than :attr:`fresh` seconds ago (:meth:`settling`) also takes the word
        of the players at the table it is connected to, as a spectator does, for the peers no link has
        carried yet (:attr:`seen`): its own links to them are being made. One it was connected to and
        lost is judged by the majority's word at once."""
        if not self.keys or self.arriving(now):
            return []
        alive = self.alive()
        if self.own and self.settling(now):  # the word of one seated peer, only for peers not met yet
            alive.update(key for key in (self.table_view() or ()) if key not in self.seen)
        # a spectator that hears no player shows the table's last word, in which the bot was placed or not yet
        players = (any(link.role != "spectator" for link in self.links)
                   or (not self.own and self.view is not None))
        out = []
        for seat in range(len(self.keys)):
            if seat in self.plays or seat in self.own:
                continue
            runner = self.runner(seat)
            if runner is None:
                if players:
                    continue  # a bot whose peer never connected under its key (the host's): not placed yet
                runner = self.keys[self.signers[seat]]
            if runner not in alive:
                out.append(seat)
        return sorted((set(out) | set(self.withholding(now))) - self.own)

    def draws_known_to(self) -> tuple[bytes, int] | None:
        """The identity key of the one peer that plays every seat still contributing to the draws (so
        knows every value of every future draw: deck.md §5.3), with the first such seat; ``None`` when
        two or more peers contribute, or in a game without table draws. A seat's peer is
        :meth:`runner`'s; a bot of the host's not placed yet counts as the host's."""
        if self.contributors is None:
            return None
        host = self.table_host()
        runners = {self.runner(seat) or host for seat in self.contributors}
        if len(runners) != 1 or None in runners:
            return None
        (runner,) = runners
        assert runner is not None
        seat = next(s for s in self.contributors if (self.runner(s) or host) == runner)
        return runner, seat

    # ------------------------------------------------------------------ giving seats away (wire.md §5.6)

    def seated_peers(self, *, owners: bool = True) -> dict[bytes, bool]:
        """The other seated peers of the game, by identity key, and whether this peer is connected to
        each now. A seat's peer is the one that plays its signer's seat (wire.md §5.6): the peer whose
        heartbeat lists that seat, else the one whose identity is the seat's key once a connection has
        carried it (a player's seat key is its identity, §3.1). The peer a seat was handed over from
        (:attr:`owners`, else the seat's key) counts too, unless it said ``bye``: it may be on the
        other side of a split, playing on with the peers this one cannot reach, and a laptop that
        took a seat over while its own links were dying must not count itself most of a smaller
        table (a laptop cut right after its turn took one seat, then every other, CI); not with
        *owners* false (:meth:`cut_off`: the peers that run a seat now). A seat whose
        peer is not known yet (a bot of the host's before the host's first heartbeat) is not
        counted; nor are seats played here."""
        open_keys = {link.key for link in self.links if link.role != "spectator"}
        out: dict[bytes, bool] = {}
        for seat in range(len(self.keys)):
            runner = self.runner(self.signers[seat])
            if runner is not None and runner != self.me:
                out[runner] = runner in open_keys
            if owners and self.handovers[seat] is not None:
                owner = self.owners.get(seat)
                if owner is None and (seat not in self.bot_seats or self.keys[seat] in self.seen):
                    owner = self.keys[seat]
                if owner is not None and owner != self.me and owner not in self.left:
                    out[owner] = owner in open_keys
        return out

    def cut_off(self) -> bool:
        """Whether this player's laptop has lost the table: none of the other seated peers that did not
        say ``bye`` is connected to it (wire.md §5.6); the peers of seats handed over count only while
        they run a seat (a laptop that took the only other laptop's seat over is not cut off: it plays
        on alone by the rules). Never at a table of two seats: a laptop left alone there is cut off
        from nobody still playing, and goes on (§5.9 "Two seats, and leaving"). The table asks only
        while the game goes on and this peer plays."""
        if self.two_seats:
            return False
        peers = {key: connected for key, connected in self.seated_peers(owners=False).items() if key not in self.left}
        return bool(peers) and not any(peers.values())  # those who said bye left; the others are unreachable

    @property
    def two_seats(self) -> bool:
        """Whether the game has two seats (wire.md §5.9 "Two seats, and leaving": no seat alone is a
        quorum there, so either side of a split may go on, and the heal keeps one branch)."""
        return len(self.keys) == 2

    def may_hand_over(self, seat: int) -> bool:
        """Whether wire.md §5.6 lets this peer hand *seat* over: its peer said ``bye`` (it left on
        purpose); or this peer and the seated peers it is connected to are more than half of the seated
        peers; or exactly half, holding the peer of the table's tie seat (:attr:`tie`); or the game has
        two seats (:attr:`two_seats`: neither side commits alone, and the heal keeps one branch). At
        three seats and more, two sides of a split can never both pass, so they never hand each other's
        seats to bots."""
        if not self.keys:
            return False
        key = self.runner(self.signers[seat])
        if key is not None and key in self.left:
            return True
        return self.sees_most()

    def sees_most(self) -> bool:
        """Whether this peer and the seated peers it is connected to are more than half of the seated
        peers, or exactly half holding the peer of the tie seat (wire.md §5.6 rules 2 and 3): the side
        of a split that may give seats away; always at two seats (rule 4). At three seats and more only one
        side of any split passes."""
        if not self.keys:
            return False
        if self.two_seats:
            return True  # (rule 4: either side of two may go on; the heal keeps one branch)
        peers = self.seated_peers()
        return self._most([self.me, *(k for k, connected in peers.items() if connected)], [self.me, *peers])

    def _most(self, side: Sequence[bytes], everyone: Sequence[bytes]) -> bool:
        """Whether the identity keys *side* are most of *everyone* (wire.md §5.6 rules 2 and 3): more
        than half, or exactly half holding the peer whose seat comes first in the tie order (a seated
        peer's identity is its seat's key, §3.1; none before the order is drawn)."""
        if 2 * len(side) > len(everyone):
            return True
        if 2 * len(side) != len(everyone) or self.tie is None:
            return False
        rank = {self.keys[seat]: place for place, seat in enumerate(self.tie) if seat < len(self.keys)}
        first = min(everyone, key=lambda key: (rank.get(key, len(rank)), key))
        return first in side

    def handover_refusal(self, seat: int, now: float) -> str | None:
        """Why this peer may not hand *seat* over at *now* (wire.md §5.6 "Which seats"), or ``None`` when
        it may: a seat the game waits for whose player is away: at its turn, no peer at the table in
        touch with it (:meth:`away`); while the table draws, its value missing for :attr:`reveal_wait`
        seconds (:meth:`withholding`), whatever its links say; and §5.6's split rule
        (:meth:`may_hand_over`). Never a present seat, a seat played here, or one handed over already.
        The reason is in people's words, the rule behind it the caller's to log."""
        if not self.keys or not 0 <= seat < len(self.keys):
            return _("no such seat in the game")
        if seat in self.plays:
            return _("this laptop plays that seat")
        if self.handovers[seat] is not None:
            return _("a bot plays that seat already")
        if self.drawing is not None:
            if seat not in self.missing:
                return _("their part of the draw has come")
            if seat not in self.withholding(now):
                waiting = self.waiting
                if (waiting is not None and now - waiting[1] >= self.reveal_wait
                        and not self.heard_most_since(max(waiting[1], now - self.fresh))):
                    return _("this laptop has heard from too few of the other players lately: it may be the one "
                             "cut off")
                # Translators: {wait} is a number of seconds.
                return _("their part of the draw has been missing for less than {wait} s").format(wait=f"{self.reveal_wait:g}")
        elif seat != self.to_play:
            return _("only the player to move, or one whose part of the draw does not come, can be given to a "
                     "bot")
        elif seat not in self.away(now):
            return _("their laptop is still in touch with the table")
        if not self.may_hand_over(seat):
            return _("this laptop is in touch with too few of the other players to give a seat away; wait until "
                     "they are back")
        return None

    def takeover_runner(self, now: float | None = None) -> bytes | None:
        """Who takes an away bot seat over (wire.md §5.6): among the players in touch with the table that
        play a seat of their own (not one handed over to them), the one whose seat comes first in the
        table's tie order (:attr:`tie`, drawn from the first draw: no peer chooses it; the lowest
        identity key before it is drawn), but for the peers of the seats that withhold their draw value
        at *now* (:meth:`withholding`, when *now* is given): a withholder is the one the table waits
        for, not the one to act."""
        alive = self.alive()
        withholding = self.withholding(now) if now is not None else []
        rank = {seat: place for place, seat in enumerate(self.tie)} if self.tie is not None else {}
        places: dict[bytes, int] = {}
        waited_for: set[bytes] = set()
        for seat in range(len(self.keys)):
            if self.handovers[seat] is not None:
                continue
            runner = self.runner(seat)
            if runner is None or runner not in alive:
                continue
            if seat in withholding:
                waited_for.add(runner)
            places[runner] = min(places.get(runner, len(self.keys)), rank.get(seat, len(self.keys)))
        keys = [key for key in places if key not in waited_for]
        return min(keys, key=lambda key: (places[key], key)) if keys else None

    def asked(self) -> list[int]:
        """The seats that a player this peer is connected to asks the table's taker to hand over
        (wire.md §5.6 "Who makes the handover": its person let a bot play them), from the last
        heartbeats of the links to peers that play a seat (a seat's key, or a runner a heartbeat was
        believed of); a spectator's or a stranger's ask counts for nothing. Seat order."""
        players = set(self.keys) | set(self.runners.values())
        return sorted({seat for link in self.links if link.role != "spectator" and link.key in players
                       for seat in link.asks if 0 <= seat < len(self.keys)})

    def takeover_candidates(self, now: float) -> list[int]:
        """The away seats at *now* (:meth:`away`) not handed over yet that a bot plays by the header, or
        whose peer gave them up (``bye`` quit in the game, :attr:`gave_up`): those the table may take
        over once away long enough (:class:`TakeoverClock`, wire.md §5.6)."""
        return [s for s in self.away(now) if self.handovers[s] is None
                and (self.signers[s] in self.bot_seats or self.runner(s) in self.gave_up)]

    def hand_back(self, bot_names: Mapping[int, str], armed: Collection[int]) -> list[HandBackStep]:
        """wire.md §5.6 "Coming back", as steps in seat order. *bot_names*: seat → the bot this peer
        plays it with; *armed*: the seats a bot of this peer holds now.

        A seat handed over to a bot here goes back to its own peer when that peer is connected to this
        one again, and heard from since the seat was handed over here (:attr:`handed`: a link that went
        silent before is still open until the dead-connection clock closes it, wire.md §2.1): from then on this peer's bot leaves the seat alone (``release``), and at the seat's
        next turn, before its tile is placed, this peer (the only one that may make the seat's entries
        then) makes the ``handback``; mid-turn the bot finishes the turn first. While the owner is not
        connected, this peer's bot plays on (``arm`` it if none holds the seat). A seat taken from a
        laptop that withheld its draw value while in touch is never given back (wire.md §5.7 "The price
        of a veto"). On the owner's side, a seat of its own with a bot of its own is played by that bot
        again (``arm``)."""
        steps: list[HandBackStep] = []
        for seat, bot in enumerate(self.handovers):
            if bot is None:
                if seat in self.own and seat in bot_names and seat not in armed:
                    steps.append(HandBackStep(seat, "arm", bot_names[seat]))
                continue
            if seat in self.own or seat not in self.plays or seat in self.withheld:
                continue  # not run here, or taken from a laptop that withheld its value: the veto's price
            if not self._back(seat):
                if seat not in armed:
                    steps.append(HandBackStep(seat, "arm", bot_names.get(seat, bot)))
                continue
            if self.to_play == seat and not self.placing:
                continue  # mid-turn: the bot finishes it, the seat goes back at its next turn
            if seat in armed:
                steps.append(HandBackStep(seat, "release"))
            if self.to_play == seat:
                steps.append(HandBackStep(seat, "hand-back"))
        return steps


    def take_back(self, now: float) -> list[int]:
        """wire.md §5.6 "Taking a seat back": the seats of this peer's own that a bot of another laptop
        plays (handed over while this one was away) and whose runner is gone, at their turn (:attr:`turn`
        before the tile is placed, :attr:`to_play` after: a runner that placed it and left signs no
        deploy), or while the table draws (the runner's own value may be the one
        missing: the draw would wait for it for ever): this peer makes the seat's ``handback`` itself,
        signed with the seat's key. The runner is the laptop that holds the key the seat's entries are signed with: the
        peer that plays that seat (:meth:`runner`), or, when that seat was handed over in turn, the one
        whose identity is its key (the laptop it was taken from: the bot playing it signs with another
        key, not with this one). It is gone when this peer is not in touch with it (:meth:`alive`;
        nobody while :meth:`arriving`) and it said ``bye``, or the split rule lets this peer give seats
        away (:meth:`sees_most`: always at two seats). Nothing else gives such a seat back: only the
        runner may, and it is gone (a crash right after it took the seat at a table of two, a goodbye)."""
        if not self.keys or self.arriving(now):
            return []
        out = []
        for seat in sorted(self.own):
            if seat >= len(self.keys) or self.handovers[seat] is None or seat in self.plays:
                continue
            if seat not in (self.turn, self.to_play) and self.drawing is None:
                continue  # (mid-turn too: a runner that placed the seat's tile and left signs no deploy)
            signer = self.signers[seat]
            runner = self.keys[signer] if self.handovers[signer] is not None else self.runner(seat)
            if runner is None or runner == self.me or runner in self.alive():
                continue
            if runner in self.left or self.sees_most():
                out.append(seat)
        return out

    def _back(self, seat: int) -> bool:
        """Whether the peer *seat* was taken from is back (:meth:`hand_back`): a player link to it is
        open, and something came on it after this peer handed the seat over (when it did, this run)."""
        owner = self.owners.get(seat, self.keys[seat])
        link = next((link for link in self.links if link.key == owner and link.role != "spectator"), None)
        handed = self.handed.get(seat)
        return link is not None and (handed is None or (link.last_heard is not None and link.last_heard > handed))


class TakeoverClock:
    """The away clock of wire.md §5.6's takeover: how long each seat the game waits for has been away.

    Values in, decisions out: the table ticks it with the seats the game waits for, the candidates
    among them (:meth:`PresenceSnapshot.takeover_candidates`) and the time; it answers the seats away
    for *takeover* seconds or more. A seat first seen away is never due on that tick.
    """

    def __init__(self, takeover: float) -> None:
        self.takeover = takeover
        self._since: dict[int, float] = {}
        self._refused: tuple[int, int] | None = None

    def reset(self) -> None:
        """Nothing is waited for (no game, the game waits for nobody, or this peer plays no seat)."""
        self._since.clear()

    def due(self, blocking: Sequence[int], away: Collection[int], now: float) -> list[int]:
        """The seats of *blocking* (those the game waits for, in order) that have been in *away* (the
        candidates) since *takeover* seconds before *now* or longer. A seat that stops blocking, or is
        no candidate, starts again from zero."""
        for gone in [s for s in self._since if s not in blocking]:
            del self._since[gone]
        due = []
        for seat in blocking:
            if seat not in away:
                self._since.pop(seat, None)
                continue
            since = self._since.get(seat)
            if since is None:
                self._since[seat] = now
            elif now - since >= self.takeover:
                due.append(seat)
        return due

    def done(self, seat: int) -> None:
        """*seat* was taken over (or tried to be): its clock starts again."""
        self._since.pop(seat, None)

    def refusal_is_news(self, seat: int, moves: int) -> bool:
        """Whether refusing to take *seat* over at move count *moves* is news (said once per seat and
        move count)."""
        if self._refused == (seat, moves):
            return False
        self._refused = (seat, moves)
        return True
