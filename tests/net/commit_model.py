"""Provides a model check of the commit rule (protocol/wire.md §5.5–5.9) over whole sessions: seeded
random schedules of splits, moves and handovers played by 3 to 5 :class:`~carcnet.net.sync.SyncSession`
peers joined by in-memory wires (no sockets, no sleeps: the clock moves one second a heartbeat), then
a heal, after which the table must become one log and finish the game.

A schedule (:func:`run`, seeded) repeats, 10 to 80 times, one of:

- **split**: the peers fall into 1 to *n* groups; the links between groups close as a silent
  connection's do (``bye`` ``timeout`` that never arrives), and peers in one group dial each other.
- **act**: a random peer plays the seat to play if it plays it (a handback first, now and then, if it
  runs a seat handed over to it), or else hands that seat over to itself; while the table draws, it
  may hand over a seat whose value it lacks. Handovers follow §5.6 rules 2–3 as the proposer sees the
  table: its group must be more than half of the seats, or half with the tie seat; three times in
  ten the proposer judges by the split before the last one (a view that lags, as links that die
  slowly make it lag).
- **beat**: every peer sends its heartbeats (votes and draw values beside them) and makes the draws
  it can; bytes flow inside each group.

Then every link opens again and the peers play on (a missing draw value is taken over after 10
heartbeats without progress, as §5.7 "Withholding" does), for at most 600 heartbeats. The verdict
(:func:`run` returns ``None`` when it holds): no peer stopped the game; every peer ends with the same
log, the game over.

Run ``python -m tests.net.commit_model -n 300 [--draws]`` for a sweep (the seeds that fail and the
count), ``--seed S -v`` to replay one with each peer's log, votes and kept branches at the end.

**The exhaustive model** (:func:`explore`) explores instead, as a model checker such as TLC does,
every schedule of up to a bound of actions at two or three seats (:class:`World`, one peer a seat,
each a :class:`Laptop`: the session and what its table keeps beside it), breadth first, each distinct
state once (:func:`fingerprint`). The actions (:meth:`World.enabled`): a split into any partition of
the peers (the heal is the one group), a goodbye (``bye`` ``quit`` or ``shutdown``: the vote given,
then the bye), a crash (its links go silent, its save and keys file stay) and a restart from them, a
move of the seat to play by the peer that plays it, a handover of a seat by a peer whose table's rules
let it (:meth:`~carcnet.net.presence.PresenceSnapshot.handover_refusal`), the bytes in flight
arriving, and a heartbeat round (the clock five seconds on). A state is made again by playing its
schedule from scratch (stateless model checking: the sessions hold live objects; a deep copy took
longer than the replay). Checked at every state: no peer stopped, no commit index went down, no two
entries committed at one seq anywhere (:meth:`World.observe`); after every state, healed
(:meth:`World.play_on`): the table goes on without the laptops away where it promises to, then as one
log, every entry committed, no honest move pending. ``python -m tests.net.commit_model --exhaustive
--seats 2 --depth 7 [--draws] [--flip] [-v]``; ``--replay SCHEDULE`` plays one it printed.
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import pickle
import random
import secrets
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum
from types import FunctionType, MethodType
from typing import Any

from carcnet.bots import make_bot
from carcnet.engine import Game, HandBack, HandOver, IllegalMoveError, Move, Phase, Rules
from carcnet.log import COLOURS, LogHeader, Seat, signatures
from carcnet.log.signatures import verify as _plain_verify
from carcnet.net import signing
from carcnet.net.link import Bucket, Link
from carcnet.net.messages import Give, SignedEntry, Vote, WireHeader
from carcnet.net.presence import LEFT_ON_PURPOSE
from carcnet.net.routing import Router
from carcnet.net.signing import SeatKey, seat_chain
from carcnet.net.sync import MemoryLog, SyncSession
from carcnet.table.netview import NetView

from .loopback import GAME, HEADER_RULES, MemoryWire, make_header, pump, seat_key
from .test_sync import session
from .test_table_draws import table_header

__all__ = ["Found", "Report", "World", "check", "explore", "fingerprint", "parse_schedule", "run",
           "schedule_text"]

#: Heartbeats the table may take to heal and finish the game after the schedule.
HEAL_BEATS = 600

#: Heartbeats without a new entry anywhere after which a missing draw value is taken over.
STUCK_BEATS = 10


class Table:
    """The peers of one schedule, their wires and the groups the network is split into."""

    def __init__(self, seed: int, *, draws: bool) -> None:
        self.rng = random.Random(seed)
        self.n = n = self.rng.choice([3, 3, 4, 5])
        self.now = 1000.0
        clock: Callable[[], float] = lambda: self.now  # noqa: E731
        if draws:
            header = table_header(n)
            self.peers = [SyncSession(game=GAME, name=f"P{s}", identity=seat_key(s), header=header,
                                      seats={s: seat_key(s)}, clock=clock) for s in range(n)]
        else:
            header = make_header(n, seed=seed)
            self.peers = [session(f"P{s}", seats=(s,), header=header, clock=clock) for s in range(n)]
        self.draws = draws
        self.bots = [make_bot("greedy", s) for s in range(n)]
        self.wires: dict[tuple[int, int], MemoryWire] = {}
        self.groups: list[set[int]] = [set(range(n))]
        self.before: list[set[int]] = self.groups
        self.stuck = 0
        self.split(self.groups)

    # ------------------------------------------------------------------ the network

    def split(self, groups: list[set[int]]) -> None:
        """Links between *groups* go silent and close; peers of one group are linked again."""
        self.before, self.groups = self.groups, groups
        self.connect()

    def connect(self) -> None:
        side = {p: i for i, group in enumerate(self.groups) for p in group}
        for a in range(self.n):
            for b in range(a + 1, self.n):
                wire = self.wires.get((a, b))
                alive = wire is not None and not wire.a.closed and not wire.b.closed
                if side[a] == side[b] and not alive:
                    self.wires[(a, b)] = MemoryWire(self.peers[a], self.peers[b])  # (dialled again)
                elif side[a] != side[b] and alive:
                    assert wire is not None
                    self.peers[a].connections.time_out(wire.a, "dead")
                    self.peers[b].connections.time_out(wire.b, "dead")
                    wire.a.data_to_send(), wire.b.data_to_send()  # lost with the connection
                    del self.wires[(a, b)]

    def carry(self) -> None:
        for group in self.groups:
            pump(*(w for (a, b), w in self.wires.items() if a in group and b in group
                   and not w.a.closed and not w.b.closed))

    def beat(self) -> None:
        self.now += 1.0
        self.connect()
        for peer in self.peers:
            peer.connections.tell_all()
            if self.draws:
                peer._router.draw_step()  # (a table's tick does this)
        self.carry()

    # ------------------------------------------------------------------ the players

    def may_hand_over(self, p: int) -> bool:
        """wire.md §5.6 rules 2–3 as peer *p* sees the table (three times in ten, as it was a split ago)."""
        view = self.before if self.rng.random() < 0.3 else self.groups
        group = next(g for g in view if p in g)
        votes = self.peers[p].replica.votes
        tie = votes.tie if votes is not None else None  # (the tie seat: §5.9 "The tie order")
        return 2 * len(group) > self.n or (2 * len(group) == self.n and tie is not None and tie.order[0] in group)

    def offer(self, p: int, move: Move) -> bool:
        """Peer *p* submits a handover or handback; whether the engine took it (it refuses a seat
        handed over already, one that is not to play, one not handed over…)."""
        try:
            self.peers[p].submit(move)
        except IllegalMoveError:
            return False
        return True

    def act(self, p: int, *, calm: bool = False) -> str | None:
        """Peer *p* plays, hands a seat back or over (not when *calm*: after the heal); what it did."""
        s, rng = self.peers[p], self.rng
        game = s.game
        if s.stopped or game is None or s.over:
            return None
        if game.phase is Phase.DRAW:
            missing = [seat for seat in s.missing() if not s.plays(seat)]
            if missing and (not calm or self.stuck > STUCK_BEATS) and self.may_hand_over(p) and rng.random() < 0.3:
                seat = rng.choice(missing)
                if self.offer(p, HandOver(seat, "greedy", p)):
                    return f"hands seat {seat}, whose value it lacks, over to itself"
            return None
        seat = game.seat
        if s.plays(seat):
            if not calm and game.signer(seat) == p != seat and rng.random() < 0.15 and self.offer(p, HandBack(seat)):
                return f"hands seat {seat} back"
            s.submit(self.bots[seat].choose(game.view()))
            return "moves"
        if not calm and self.may_hand_over(p) and rng.random() < 0.3 and self.offer(p, HandOver(seat, "greedy", p)):
            return f"hands seat {seat} over to itself"
        return None

    # ------------------------------------------------------------------ the schedule

    def random_split(self) -> list[set[int]]:
        order = list(range(self.n))
        self.rng.shuffle(order)
        k = self.rng.randint(1, self.n)
        cuts = [0, *sorted(self.rng.sample(range(1, self.n), k - 1)), self.n]
        return [set(order[a:b]) for a, b in zip(cuts, cuts[1:], strict=False)]

    def verdict(self) -> str | None:
        if any(p.stopped for p in self.peers):
            stopped = next(p for p in self.peers if p.stopped)
            return f"stopped at {stopped.name}: {stopped.desync}"
        return None

    def describe(self) -> str:
        """Each peer's log, commit index, kept branches and votes (for ``-v``)."""
        lines = []
        for p in self.peers:
            r = p.replica
            kept = {k.hex()[:4]: (b[0].seq, b[-1].seq) for k, b in r.branches}
            lines.append(f"{p.name}: have {p.have}, commit {r.commit_index}, parting {sorted(r.partings)}, phase "
                         f"{p.game.phase.name if p.game else None}, missing {p.missing()}, branches {kept}, "
                         f"held back {[e.seq for e in r.held_back]}")
            lines += [f"   {e.seq} seat {e.entry.seat} {e.entry.move} {e.entry.digest.hex()[:8]}" for e in p.entries]
        return "\n".join(lines)


def run(seed: int, *, draws: bool = False, say: Callable[[str], None] | None = None) -> str | None:
    """Plays schedule *seed* (with table draws when *draws*); ``None`` when the table healed into one
    finished log with no peer stopped, else what went wrong. *say* hears each split and handover."""
    table = Table(seed, draws=draws)
    rng = table.rng
    for _ in range(rng.randint(10, 80)):
        r = rng.random()
        if r < 0.12:
            table.split(table.random_split())
            if say:
                say(f"split {table.groups}")
        elif r < 0.7:
            p = rng.randrange(table.n)
            what = table.act(p)
            if say and what and what != "moves":
                say(f"P{p} {what} at seq {table.peers[p].have}")
            if rng.random() < 0.5:
                table.carry()
        else:
            table.beat()
        if (problem := table.verdict()) is not None:
            return problem
    table.split([set(range(table.n))])
    last = -1
    for _ in range(HEAL_BEATS):
        table.beat()
        top = max(p.have for p in table.peers)
        table.stuck, last = (0 if top != last else table.stuck + 1), top
        if all(p.over for p in table.peers) and len({tuple(p.entries) for p in table.peers}) == 1:
            return table.verdict()
        for p in rng.sample(range(table.n), table.n):
            if rng.random() < 0.5:
                table.act(p, calm=True)
        if (problem := table.verdict()) is not None:
            return problem
    ends = ", ".join(f"{p.name} at {p.have} (commit {p.replica.commit_index})" for p in table.peers)
    if say:
        say(table.describe())
    return f"no heal in {HEAL_BEATS} heartbeats: {ends}"



# ====================================================================== the exhaustive model
#
# The same peers, explored breadth-first over every schedule of actions up to a bound, as a model
# checker such as TLC explores a specification: each distinct state (by :func:`fingerprint`) once.

#: Seconds a heartbeat round moves the clock: a peer sends one every 5 s at the latest (wire.md §2.1).
STEP = 5.0

#: Seconds a seat's value for a draw may be missing before it counts as away (wire.md §5.7; carcnet's).
REVEAL_WAIT = 10.0

#: Heartbeat rounds each stage of :meth:`World.play_on` may take, after a schedule, to go on.
END_BEATS = 40

#: Entries the peers up must add after a schedule while the laptops away stay away (:meth:`World.play_on`).
ALONE = 4

#: Moves and handovers the peers may make between two heartbeats after a schedule (each peer acts in
#: turn, the bytes arrive, again, until none can act): more than a short game holds.
MAX_PLAYS = 64

#: Entries the table must add after the heal, all of them committed, when the game is too long to finish
#: (table draws: the whole pile): the game went on.
GO_ON = 8

#: The draw order of a seeded game in the exhaustive model: 8 tiles, so that it ends after the heal.
SHORT_ORDER = tuple("EUVKDLBJ")

#: An action of a schedule: ``("split", groups)`` (``groups`` a tuple of tuples of peers; one group is
#: the heal), ``("bye", p, reason)`` (``session.close(reason)``: a departure on purpose),
#: ``("crash", p)``, ``("resume", p)`` (a new session from the crashed peer's save), ``("move", p)``
#: (its bot's move for the seat to play), ``("hand", p, seat)`` (a handover of *seat* to a bot run by
#: *p*), ``("take", p, seat)`` (*p* takes its own *seat* back from a runner that is gone: its
#: ``handback``, wire.md §5.6 "Taking a seat back"), ``("carry",)`` (the bytes in flight arrive), ``("beat",)`` (a heartbeat round).
Action = tuple


def say_action(action: Action) -> str:
    """*action* in words, for schedules printed."""
    kind = action[0]
    if kind == "split":
        groups = action[1]
        if len(groups) == 1:
            return "heal"
        return "split " + " | ".join("".join(f"P{p}" for p in g) for g in groups)
    if kind == "bye":
        return f"P{action[1]} says bye {action[2]}"
    if kind == "hand":
        return f"P{action[1]} hands seat {action[2]} over"
    if kind == "take":
        return f"P{action[1]} takes seat {action[2]} back"
    if kind in ("crash", "resume", "move"):
        return f"P{action[1]} {kind}{'es' if kind == 'crash' else 's'}"
    return kind


def schedule_text(schedule: Sequence[Action]) -> str:
    """*schedule* as :func:`parse_schedule` reads it: ``"split 0|1, move 0, carry, heal, bye 1 quit"``."""
    out = []
    for action in schedule:
        if action[0] == "split":
            groups = action[1]
            parts = "|".join("".join(map(str, g)) for g in groups)
            out.append("heal" if len(groups) == 1 else f"split {parts}")
        else:
            out.append(" ".join(map(str, action)))
    return ", ".join(out)


def parse_schedule(text: str) -> tuple[Action, ...]:
    """The schedule :func:`schedule_text` writes (``--replay``).

    Raises:
        ValueError: Not one.
    """
    out: list[Action] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        words = part.split()
        kind = words[0]
        if kind == "heal" and len(words) == 1:
            out.append(("split", ()))  # (the number of peers is the world's: made whole in replay)
        elif kind == "split" and len(words) == 2:
            groups = (tuple(sorted(int(c) for c in g)) for g in words[1].split("|"))
            out.append(("split", tuple(sorted(groups))))
        elif kind == "bye" and len(words) == 3 and words[2] in LEFT_ON_PURPOSE:
            out.append(("bye", int(words[1]), words[2]))
        elif kind in ("hand", "take") and len(words) == 3:
            out.append((kind, int(words[1]), int(words[2])))
        elif kind in ("crash", "resume", "move") and len(words) == 2:
            out.append((kind, int(words[1])))
        elif kind in ("carry", "beat") and len(words) == 1:
            out.append((kind,))
        else:
            raise ValueError(f"not an action: {part!r}")
    return tuple(out)


class Nonces:
    """The handshakes' nonces of the exhaustive model (:func:`deterministic`): the *count*-th since the
    world was made, so that a schedule played again makes the same bytes."""

    count = 0
    compare_digest = staticmethod(secrets.compare_digest)

    @classmethod
    def token_bytes(cls, n: int) -> bytes:
        cls.count += 1
        return hashlib.sha256(f"carcnet model nonce {cls.count}".encode()).digest()[:n]


_verified: dict[tuple[bytes, bytes, bytes], bool] = {}


def _verify(public: bytes, data: bytes, sig: bytes) -> bool:
    """``carcnet.log.signatures.verify``, remembered: a schedule played again checks the same
    signatures (a pure function of its arguments)."""
    key = (public, data, sig)
    ok = _verified.get(key)
    if ok is None:
        ok = _verified[key] = _plain_verify(public, data, sig)
    return ok


@contextmanager
def deterministic() -> Iterator[None]:
    """While it lasts, a schedule played again does the same: a connection's nonce
    (``carcnet.net.signing.new_nonce``) is :class:`Nonces`'; and signature checks are remembered
    (:func:`_verify`), for speed."""
    was = signing.secrets
    signing.secrets = Nonces  # type: ignore[assignment]
    signing.verify = signatures.verify = _verify
    try:
        yield
    finally:
        signing.secrets = was
        signing.verify = signatures.verify = _plain_verify
        _verified.clear()


#: Where the model's clock starts: far above any value in a session that is not a time, so that the
#: fingerprint tells the times (:func:`_canon`).
EPOCH = 1e6


class Clock:
    """The peers' clock: it moves only by a heartbeat round (:data:`STEP`)."""

    def __init__(self) -> None:
        self.now = EPOCH

    def __call__(self) -> float:
        return self.now


class Violation(Exception):
    """An invariant broke: what, in words."""


def model_header(n: int, keys: list[SeatKey], *, draws: bool) -> WireHeader:
    """A game of *n* seats under *keys*: with table draws (the whole pile), or the draw order
    :data:`SHORT_ORDER`; under the rules of the loopback's headers (the schedules found follow the tie
    order that header draws)."""
    seats = [Seat(f"Seat{i}", COLOURS[i], "human", None) for i in range(n)]
    if draws:
        roots = [seat_chain(k, GAME, i, Rules().pile_size())[0] for i, k in enumerate(keys)]
        header = LogHeader.new(seats, keys=[k.public for k in keys], commits=roots, created=0, game=GAME,
                               rules=HEADER_RULES)
        return WireHeader.of(header)
    return WireHeader(LogHeader.new(seats, order=SHORT_ORDER, created=0, game=GAME, rules=HEADER_RULES),
                      tuple(k.public for k in keys))


class View(NetView):
    """A table's view of its session (presence, who may hand a seat over), with nothing to open or close."""

    async def __aenter__(self) -> View:
        return self

    async def aclose(self) -> None:
        return None

    def close(self) -> None:
        return None


@dataclass(frozen=True)
class Kept:
    """What a laptop keeps beside its save (the keys file, :func:`carcnet.table.keys.save_keys`), as it
    last wrote it: who ran each seat, the seats taken over here and whose they were (wire.md §5.6),
    whether it gave its votes away and the votes given it holds (§5.9)."""

    runners: tuple[tuple[int, bytes], ...] = ()
    owners: tuple[tuple[int, bytes], ...] = ()
    gave: bool = False
    gives: tuple[Give, ...] = ()
    left: frozenset[bytes] = frozenset()
    gave_up: frozenset[bytes] = frozenset()


class Laptop:
    """One peer as a network table runs it (:class:`~carcnet.table.lan.NetTable`'s network half): its
    session, what it remembers of the table's peers (:class:`~carcnet.table.netview.NetView`'s
    records, fed as the table feeds them), its keys file written when the table writes it
    (:class:`Kept`), and the wait for a draw counted again once it sees most of the table again
    (wire.md §5.7). Who may hand a seat over is the table's own rule
    (:meth:`PresenceSnapshot.handover_refusal`)."""

    def __init__(self, world: World, p: int, epoch: int, kept: Kept | None) -> None:
        self.world, self.p, self.epoch = world, p, epoch
        save = world.saves[p]
        kept = kept or Kept()  # a resumed laptop reads its keys file (NetTable.resume)
        self.session = SyncSession(game=GAME, name=f"P{p}", identity=world.keys[p], header=world.header,
                                   seats={p: world.keys[p]}, entries=list(save.entries), persistence=save,
                                   clock=world.clock, wall_clock=world.clock, gave=kept.gave,
                                   gives=kept.gives)
        self.view = View(self.session, "player", bot_delay=0.0, bot_names={}, reveal_wait=REVEAL_WAIT)
        self.view.records.runners.update(kept.runners)
        self.view.records.owners.update(kept.owners)
        self.view.records.left.update(kept.left)
        self.view.records.gave_up.update(kept.gave_up)
        self.kept = kept
        self.saw_most = True
        self.session.add_listener(self.changed)
        self.save_keys()  # (the table writes it once the game's seats are known)

    def save_keys(self) -> None:
        """Writes the keys file (:class:`Kept`), as :func:`carcnet.table.keys.save_keys` does."""
        s, records = self.session, self.view.records
        game = s.game
        assert game is not None
        owners = {seat: key for seat, key in records.owners.items()
                  if game.handovers[seat] is not None and seat not in s.seats and s.plays(seat)}
        votes = s.replica.votes
        gives = tuple(votes.gives()) if votes is not None else ()
        self.kept = Kept(tuple(sorted(records.runners.items())), tuple(sorted(owners.items())), s.replica.gave, gives,
                         frozenset(records.left), frozenset(records.gave_up))

    def changed(self, change: str, link: Link | None) -> None:
        session, records = self.session, self.view.records
        if change == "peer":
            if self.view.heard(link):
                self.save_keys()  # who runs which seat (NetTable._heard)
        elif change == "gives":
            self.save_keys()  # votes given came, or this laptop gave its own (NetTable: kept beside the save)
        elif (change in ("open", "close") and link is not None and link.key is not None and link.role != "spectator"
              and link.opened):  # (NetTable._link_closed: a link whose key was never proven says nothing)
            left = (frozenset(records.left), frozenset(records.gave_up))
            if change == "open":
                records.opened(link.key)
            else:
                reason = None if link.closed_here else link.closed_by
                still = session.connections.link_to(link.key) is not None
                records.closed(link.key, reason, still_connected=still,
                               started=session.header is not None and not session.over)
                if reason in LEFT_ON_PURPOSE and link.key in self.world.keys_public:
                    self.world.heard_bye.add(self.world.keys_public.index(link.key))
            if left != (records.left, records.gave_up) and session.game is not None:
                self.save_keys()  # who left on purpose (NetTable._link_closed, _link_opened)
            sees_most = session.over or self.view.presence().sees_most()
            if sees_most and not self.saw_most:
                session.draws.restart(session.clock())
            self.saw_most = sees_most

    def hand_over(self, seat: int) -> SignedEntry | None:
        """Gives *seat* to a greedy bot run here when this laptop is the table's taker, else asks the
        taker in its heartbeats (NetTable.hand_over, once its rules let it; wire.md §5.6 "Who makes the
        handover"): the entry, or ``None`` when asked."""
        presence, now = self.view.presence(), self.session.clock()
        taker = presence.takeover_runner(now)
        if presence.withheld_by(seat, now) is None and taker is not None and taker != self.session.identity.public:
            self.session.ask([*self.session.asks, seat])
            return None
        signed = self.session.submit(HandOver(seat, "greedy", self.p))
        self.view.records.handed[seat] = now
        self.save_keys()
        return signed

    def answer_asks(self) -> SignedEntry | None:
        """On the table's tick (NetTable._answer_asks): drops the asks done, and, as the taker, hands
        over the first seat the game waits for that a player asks for, if its rules let it."""
        s = self.session
        game = s.game
        if s.stopped or s.over or game is None:
            return None
        blocking = self.view.blocking()
        s.ask([seat for seat in s.asks if seat in blocking and game.handovers[seat] is None])
        if game.handovers[self.p] is not None:
            return None
        presence, now = self.view.presence(), s.clock()
        asked = set(presence.asked()) | set(s.asks)
        seats = [seat for seat in blocking if seat in asked and presence.handover_refusal(seat, now) is None]
        if not seats or presence.takeover_runner(now) != s.identity.public:
            return None
        return self.hand_over(seats[0])

    def leave(self, reason: str) -> None:
        """Says bye *reason* (NetTable.close): a player leaving gives its votes first (kept beside its save)."""
        self.session.close(reason)

    def seats_to_hand(self) -> list[int]:
        """The seats this laptop may give to a bot now (wire.md §5.6 "Which seats", rules 1–4), as
        NetTable.hand_over: only with a seat of its own."""
        s = self.session
        if s.stopped or s.over or s.game is None or s.game.handovers[self.p] is not None:
            return []
        presence, now = self.view.presence(), s.clock()
        return [seat for seat in self.view.blocking()
                if seat not in s.asks and presence.handover_refusal(seat, now) is None]

    def seats_to_take_back(self) -> list[int]:
        """The seats of this laptop's own that it takes back now, their runner gone (wire.md §5.6
        "Taking a seat back"), as NetTable does on its tick."""
        s = self.session
        if s.stopped or s.over or s.game is None:
            return []
        return self.view.presence().take_back(s.clock())

    def take_back(self, seat: int) -> SignedEntry:
        """Makes *seat*'s ``handback`` itself (NetTable._take_back)."""
        signed = self.session.submit(HandBack(seat, seat))
        self.view.records.handed.pop(seat, None)
        self.save_keys()
        return signed


class World:
    """The peers of the exhaustive model, their saves, wires and the groups the network is split into.

    Args:
        n: Seats, one peer each (peer *p* plays seat *p*, its identity key the seat's key).
        draws: Table draws (the whole pile) instead of the seeded :data:`SHORT_ORDER`.
        flip: The seats' keys in the other byte order (which seat has the lowest key).
    """

    def __init__(self, n: int, *, draws: bool, flip: bool = False) -> None:
        self.n, self.draws = n, draws
        Nonces.count = 0
        self.clock = Clock()
        keys = [seat_key(s) for s in range(n)]
        self.keys = keys[::-1] if flip else keys
        self.keys_public = [k.public for k in self.keys]
        self.header = model_header(n, self.keys, draws=draws)
        self.saves = [MemoryLog() for _ in range(n)]
        self.epochs = 0
        self.laptops: list[Laptop | None] = [self.boot(p, None) for p in range(n)]
        self.status = ["up"] * n  # "up", "crashed" (its save kept) or "gone" (it said bye)
        self.kept: list[Kept | None] = [None] * n  # a laptop's keys file once it crashed or left
        self.heard_bye: set[int] = set()  # peers whose bye quit / shutdown some peer received
        self.groups: tuple[tuple[int, ...], ...] = (tuple(range(n)),)
        self.wires: dict[tuple[int, int], MemoryWire] = {}
        self.authored: list[list[SignedEntry]] = [[] for _ in range(n)]
        #: The digests of the longest prefix committed anywhere so far (seq 1 first).
        self.committed: list[bytes] = []
        #: Per peer: its laptop's epoch, its commit index and the digest there, after the last action;
        #: a crashed peer's are kept, with its save, as what it last held.
        self.last: list[tuple[int, int, bytes | None]] = [(0, 0, None)] * n
        self.connect()
        self.carry()  # the table sat down together: every link open before the first action
        self.observe()

    def boot(self, p: int, kept: Kept | None) -> Laptop:
        self.epochs += 1
        return Laptop(self, p, self.epochs, kept)

    def up(self) -> list[int]:
        return [p for p in range(self.n) if self.status[p] == "up"]

    def session(self, p: int) -> SyncSession:
        laptop = self.laptops[p]
        assert laptop is not None
        return laptop.session

    # ------------------------------------------------------------------ the network

    def side(self, p: int) -> int:
        return next(i for i, group in enumerate(self.groups) if p in group)

    def connect(self) -> None:
        """Links between groups, or to a crashed peer, go silent and are closed (each end that is up
        times out; what was in flight is lost); peers up in one group dial each other where they have
        no link. A gone peer's link stays until what it sent last (its bye) has arrived."""
        for (a, b), wire in list(self.wires.items()):
            if self.side(a) != self.side(b) or "crashed" in (self.status[a], self.status[b]):
                for p, link in ((a, wire.a), (b, wire.b)):
                    if self.status[p] == "up" and not link.closed:
                        self.session(p).connections.time_out(link, "dead")
                wire.a.data_to_send(), wire.b.data_to_send()  # lost with the connection
                del self.wires[(a, b)]
        for a in range(self.n):
            for b in range(a + 1, self.n):
                linked = self.status[a] == self.status[b] == "up" and self.side(a) == self.side(b)
                if (a, b) not in self.wires and linked:
                    self.wires[(a, b)] = MemoryWire(self.session(a), self.session(b))

    def in_flight(self) -> bool:
        return any(_pending(w.a) or _pending(w.b)
                   for (a, b), w in self.wires.items() if self.side(a) == self.side(b))

    def carry(self) -> None:
        """The bytes in flight on every link inside a group arrive, and the answers, until all are
        quiet; a link closed at one end (a bye, a refusal) then ends at the other too (the stream
        ends), and is forgotten."""
        wires = [w for (a, b), w in self.wires.items() if self.side(a) == self.side(b)]
        pump(*wires)
        for wire in wires:
            for here, there in ((wire.a, wire.b), (wire.b, wire.a)):
                if here.closed and not there.closed and not _pending(here):
                    there.receive_data(b"")  # (the other end took what came before)
        pump(*wires)
        for key, wire in list(self.wires.items()):
            if wire.a.closed and wire.b.closed:
                del self.wires[key]

    def beat(self) -> None:
        """A heartbeat round: the clock moves on, every peer up sends its heartbeat (votes and draw
        values beside it) and makes the draws it can; the bytes arrive."""
        self.clock.now += STEP
        self.connect()
        for p in self.up():
            session = self.session(p)
            session.connections.tell_all()
            session._router.draw_step()  # (a table's tick does this)
        self.carry()
        answered = False
        for p in self.up():  # the taker makes the handovers asked of it (a table's tick does this)
            signed = self.laptops[p].answer_asks()  # type: ignore[union-attr]
            if signed is not None:
                self.authored[p].append(signed)
                answered = True
        if answered:
            self.carry()

    # ------------------------------------------------------------------ the actions

    def enabled(self) -> list[Action]:
        """Every action that can be taken now, in a fixed order."""
        out: list[Action] = []
        for groups in partitions(self.n):
            if groups != self.groups:
                out.append(("split", groups))
        up = self.up()
        for p in up:
            session = self.session(p)
            if session.stopped:
                continue
            to_play = session.to_play
            if to_play is not None and session.plays(to_play):
                out.append(("move", p))
            out += [("hand", p, seat) for seat in self.laptops[p].seats_to_hand()]  # type: ignore[union-attr]
            out += [("take", p, seat) for seat in self.laptops[p].seats_to_take_back()]  # type: ignore[union-attr]
        for p in up:
            out += [("bye", p, "quit"), ("bye", p, "shutdown"), ("crash", p)]
        out += [("resume", p) for p in range(self.n) if self.status[p] == "crashed"]
        if self.in_flight():
            out.append(("carry",))
        out.append(("beat",))
        return out

    def do(self, action: Action) -> None:
        """Takes *action* (one of :meth:`enabled`'s), then checks safety (:meth:`observe`).

        Raises:
            Violation: Safety broke.
        """
        kind = action[0]
        if kind == "split":
            self.groups = action[1]
            self.connect()
        elif kind == "move":
            p = action[1]
            session = self.session(p)
            game = session.game
            assert game is not None
            self.authored[p].append(session.submit(bot_move(game)))
        elif kind == "hand":
            p, seat = action[1], action[2]
            made = self.laptops[p].hand_over(seat)  # type: ignore[union-attr]
            if made is not None:
                self.authored[p].append(made)
        elif kind == "take":
            p, seat = action[1], action[2]
            self.authored[p].append(self.laptops[p].take_back(seat))  # type: ignore[union-attr]
        elif kind == "bye":
            p = action[1]
            self.laptops[p].leave(action[2])  # type: ignore[union-attr]
            self.kept[p] = self.laptops[p].kept  # type: ignore[union-attr]
            self.status[p] = "gone"
            self.last[p] = self.summary(p)
            self.laptops[p] = None
        elif kind == "crash":
            p = action[1]
            self.last[p] = self.summary(p)
            self.kept[p] = self.laptops[p].kept  # type: ignore[union-attr]
            self.status[p] = "crashed"
            self.laptops[p] = None
            self.connect()
        elif kind == "resume":
            p = action[1]
            self.status[p] = "up"
            self.laptops[p] = self.boot(p, self.kept[p])
            self.connect()
        elif kind == "carry":
            self.carry()
        elif kind == "beat":
            self.beat()
        else:
            raise ValueError(f"no such action: {action!r}")
        self.observe()

    # ------------------------------------------------------------------ safety

    def summary(self, p: int) -> tuple[int, int, bytes | None]:
        laptop = self.laptops[p]
        assert laptop is not None
        replica = laptop.session.replica
        game = replica.game
        assert game is not None
        return laptop.epoch, replica.commit_index, game.digests[replica.commit_index]

    def observe(self) -> None:
        """Safety after every action: no peer stopped; no commit index went down, nor a committed entry
        changed; every committed prefix, at every peer (a crashed peer's as it last held it), is a prefix
        of one chain: no two different entries are ever committed at one seq.

        Raises:
            Violation: What broke.
        """
        for p in self.up():
            session = self.session(p)
            if session.stopped:
                raise Violation(f"P{p} stopped the game: {session.desync}")
            epoch, index, digest = self.summary(p)
            was_epoch, was_index, was_digest = self.last[p]
            game = session.game
            assert game is not None
            if epoch == was_epoch and (index < was_index or game.digests[was_index] != was_digest):
                raise Violation(f"P{p}'s commit index went from {was_index} to {index}, "
                                "or its entry there changed")
            self.last[p] = (epoch, index, digest)
            chain = self.committed
            top = min(index, len(chain))
            if top and game.digests[top] != chain[top - 1]:
                raise Violation(f"two entries committed at seq {top} or before: P{p} committed another")
            if index > len(chain):
                chain.extend(game.digests[len(chain) + 1 : index + 1])

    # ------------------------------------------------------------------ after the schedule

    def play_on(self, verdicts: dict[bytes, str | None] | None = None) -> None:
        """Heals everything and lets the table play on: each peer up plays the seat to play when it
        plays it and hands a seat over as soon as the table's rules let it (the person pressing ``b``).
        First without the laptops that are away (crashed, or gone with a bye nobody heard): where the
        table promises to go on without them (at two seats, or when the peers up are most of the
        seats), the peers up must take their log :data:`ALONE` entries further than the longest of
        theirs (or end the game). Then they come back (a
        crashed peer restarts from its save and keys file; a person whose bye was lost comes back), and
        the table must become one log, every entry of it committed at every peer, the game over (with
        table draws, whose pile is too long for that, :data:`GO_ON` entries further on than the longest
        save), and every entry an honest peer authored committed or set aside in its side file. Each
        stage has :data:`END_BEATS` heartbeat rounds.

        *verdicts*: what came of the states right after the heal met before (by :func:`fingerprint`),
        for states that heal into one met before.

        Raises:
            Violation: Safety broke, or the table did not go on (what each peer holds).
        """
        self.groups = (tuple(range(self.n)),)
        self.connect()
        self.observe()
        if verdicts is None:
            self._play_on()
            return
        key = fingerprint(self)
        if key in verdicts:
            problem = verdicts[key]
            if problem is not None:
                raise Violation(problem)
            return
        try:
            self._play_on()
        except Violation as exc:
            verdicts[key] = str(exc)
            raise
        verdicts[key] = None

    def _play_on(self) -> None:
        away = [p for p in range(self.n)
                if self.status[p] == "crashed" or (self.status[p] == "gone" and p not in self.heard_bye)]
        up = self.up()
        if away and up and (self.n == 2 or 2 * len(up) > self.n):
            alone = max(self.session(p).have for p in up) + ALONE
            if not self.play(lambda s: s.over or s.have >= alone):
                names = ", ".join(f"P{p}" for p in away)
                raise Violation(f"the table did not go on without {names} in {END_BEATS} heartbeats: "
                                + self.ends())
        for p in away:
            self.status[p] = "up"
            self.laptops[p] = self.boot(p, self.kept[p])
        self.connect()
        self.observe()
        goal = max(len(save.entries) for save in self.saves) + GO_ON
        if not self.play(lambda s: s.over or (self.draws and s.have >= goal), settled=goal):
            raise Violation(f"the table did not go on in {END_BEATS} heartbeats: " + self.ends())
        self.honest()

    def play(self, enough: Callable[[SyncSession], bool], settled: int | None = None) -> bool:
        """Heartbeat rounds, and between them the peers up play as fast as they can, until every peer up
        has done *enough* (and, given *settled*, the table is :meth:`settled`); whether it came to that
        in :data:`END_BEATS` rounds."""
        for _ in range(END_BEATS):
            self.beat()
            self.observe()
            if all(enough(self.session(p)) for p in self.up()) and (settled is None or self.settled(settled)):
                return True
            for _ in range(MAX_PLAYS):  # the moves flow, as fast as they are made, until each waits
                acted = False
                for p in self.up():
                    session = self.session(p)
                    if session.stopped or enough(session):
                        continue
                    to_play = session.to_play
                    if to_play is not None and session.plays(to_play):
                        self.do(("move", p))
                    elif seats := self.laptops[p].seats_to_take_back():  # type: ignore[union-attr]
                        self.do(("take", p, seats[0]))
                    elif seats := self.laptops[p].seats_to_hand():  # type: ignore[union-attr]
                        self.do(("hand", p, seats[0]))
                    else:
                        continue
                    acted = True
                    self.do(("carry",))
                if not acted:
                    break
        return False

    def settled(self, goal: int) -> bool:
        """Whether the peers up hold one log, every entry of it committed (a draw at its end is voted
        for with the entry after it), the game over or, with table draws, *goal* entries long."""
        up = [self.session(p) for p in self.up()]
        if len({tuple(s.entries) for s in up}) != 1:
            return False
        if any(s.replica.commit_index < s.replica.vote_seq for s in up):
            return False
        return all(s.over or (self.draws and s.have >= goal) for s in up)

    def honest(self) -> None:
        """Every entry a peer up at the end authored is in the log (committed) or set aside in its
        save's side file. Not those of a peer that left on purpose and stays away: nobody is there to
        be told of them, and what it sent before its bye is in the log."""
        final = self.session(self.up()[0]).entries
        for p in self.up():
            for signed in self.authored[p]:
                if signed.seq <= len(final) and final[signed.seq - 1] == signed:
                    continue
                if signed in self.saves[p].aside:
                    continue
                raise Violation(f"P{p}'s entry {signed.seq} ({signed.entry.move}) is neither committed nor set "
                                "aside: " + self.ends())

    def ends(self) -> str:
        out = []
        for p in range(self.n):
            if self.status[p] != "up":
                out.append(f"P{p} {self.status[p]} with {len(self.saves[p].entries)} entries saved")
                continue
            r = self.session(p).replica
            out.append(f"P{p} at {r.have} (commit {r.commit_index}, {'over' if r.over else 'playing'})")
        return "; ".join(out)

    def describe(self) -> str:
        """Each peer's log, commit index, votes and kept branches (a counterexample's end)."""
        lines = []
        for p in range(self.n):
            if self.status[p] != "up":
                lines.append(f"P{p}: {self.status[p]}; saved {len(self.saves[p].entries)} entries, "
                             f"aside {[e.seq for e in self.saves[p].aside]}")
                entries = self.saves[p].entries
            else:
                s = self.session(p)
                r = s.replica
                kept = {k.hex()[:4]: (b[0].seq, b[-1].seq) for k, b in r.branches}
                votes = r.votes
                held = ({seat: [(v.seq, v.digest.hex()[:6]) for v in vs] for seat, vs in votes._held.items()}
                        if votes else {})
                lines.append(f"P{p}: have {s.have}, commit {r.commit_index}, parting {sorted(r.partings)}, phase "
                             f"{s.game.phase.name if s.game else None}, missing {s.missing()}, branches {kept}, "
                             f"held back {[e.seq for e in r.held_back]}, votes {held}, "
                             f"aside {[(a.seq, len(a.entries)) for a in r.aside]}, gave {r.gave}, gives "
                             f"{[(g.seat, g.by, g.to, g.seq) for g in votes.gives()] if votes else []}, "
                             f"links {[l.name for l in s.connections.open_links()]}")
                entries = s.entries
            lines += [f"   {e.seq} seat {e.entry.seat} {e.entry.move} {e.entry.digest.hex()[:8]}"[:120]
                      for e in entries]
        return "\n".join(lines)


_moves: dict[bytes, Move] = {}


def _pending(link: Link) -> bool:
    """Whether *link* has bytes to send (:meth:`Link.data_to_send` would give some)."""
    return bool(link._out or link.conn._outbox)


def bot_move(game: Game) -> Move:
    """The greedy bot's move for the seat to play, a function of the game's state (its digest)."""
    move = _moves.get(game.digest)
    if move is None:
        move = _moves[game.digest] = make_bot("greedy", game.seat).choose(game.view())
    return move


def partitions(n: int) -> list[tuple[tuple[int, ...], ...]]:
    """Every partition of peers 0..*n*-1 into groups, each group and the groups in order."""
    out: list[list[list[int]]] = [[]]
    for p in range(n):
        out = [[*groups[:i], [*g, p], *groups[i + 1 :]] for groups in out for i, g in enumerate(groups)] + \
              [[*groups, [p]] for groups in out]
    return sorted(tuple(sorted(tuple(g) for g in groups)) for groups in out)


# ---------------------------------------------------------------------- the fingerprint

#: Attributes left out of a state's fingerprint, by class: records of what happened that nothing reads
#: back to decide (the event log, a link's number, its count of heartbeats), functions (listeners, clocks, the handover check:
#: code, not state), caches of values that follow from the state (encoded frames, the seats' hash
#: chains, a decoder's last frame kept for a handshake's transcript), the handshakes' nonces (fresh for
#: each connection, their proof checked once) and the vote counter, which only
#: says whether a link was passed the votes held now (kept as that, :func:`_canon_link`); and when the
#: seats last voted, which only says whether :data:`~carcnet.net.routing.VOTE_EVERY` has passed (kept
#: as that). A budget (:class:`~carcnet.net.link.Bucket`) is what it holds now.
SKIPPED = {
    "Connections": {"events", "_frames", "_owner"},
    "Link": {"id", "_wake", "_owner", "votes_sent", "heartbeats"},
    "Router": {"listeners", "_voted_at"},
    "SyncSession": {"_listeners"},
    "DrawValues": {"_chains"},
    "Votes": {"version"},
    "FrameDecoder": {"last_body"},
    "PeerConnection": {"_hello", "_welcome"},  # (the transcript, for the proof: nonces)
    "Hello": {"nonce"},
    "Welcome": {"nonce"},
}


def fingerprint(world: World) -> bytes:
    """The state of *world* as 16 bytes: equal for two states that behave alike from now on, so that
    each is explored once. Everything the peers hold goes in, walked generically (new state in the
    sessions is fingerprinted without a change here), but for :data:`SKIPPED`; a time is how long ago
    it was (the sessions act on differences of their clock's readings only, and the heartbeats' wall
    time, the same clock, is informative: a state and the same state a heartbeat later, every time in
    it a heartbeat later too, are one); a game is its digest
    (it replays from its log), an entry its seq, seat, digest and signature, a key its public half; the
    world's own: the clock, the groups, who is up, crashed or gone (and whether its bye was heard),
    each save and side file, the bytes in flight, the entries each peer authored, the longest prefix
    committed anywhere, each peer's commit index as the safety check last saw it. Not the steps left:
    the search is breadth-first, so a state is first met with the most steps left."""
    memo: dict[int, Any] = {-1: world.clock.now}
    saves = tuple((tuple(map(_entry, s.entries)), tuple(map(_entry, s.aside))) for s in world.saves)
    wires = tuple((a, b, bytes(w.a._out) + bytes(w.a.conn._outbox), bytes(w.b._out) + bytes(w.b.conn._outbox),
                   w.a.closed, w.b.closed) for (a, b), w in sorted(world.wires.items()))
    laptops = tuple(None if lt is None else (_canon(lt.session, memo), _canon(lt.view.records, memo),
                                             lt.saw_most, _canon(lt.kept, memo)) for lt in world.laptops)
    state = (world.groups, tuple(world.status), tuple(sorted(world.heard_bye)), saves, wires,
             tuple(tuple(map(_entry, a)) for a in world.authored), len(world.committed),
             world.committed[-1] if world.committed else None, tuple(last[1:] for last in world.last),
             tuple(None if k is None else _canon(k, memo) for k in world.kept), laptops)
    return hashlib.blake2b(pickle.dumps(state, protocol=5), digest_size=16).digest()


def _entry(signed: SignedEntry) -> tuple:
    return (signed.seq, signed.entry.seat, signed.entry.digest, signed.sig)


def _canon(obj: object, memo: dict[int, Any]) -> object:
    """*obj* as nested tuples of plain values (:func:`fingerprint`); a mutable object met again is a
    reference to its first place in the walk; a time, how long before now (``memo[-1]``)."""
    if isinstance(obj, float) and obj >= EPOCH:
        return ("t", memo[-1] - obj)  # a time: how long ago
    if obj is None or isinstance(obj, bool | int | float | str | bytes):
        return obj
    if isinstance(obj, Enum):
        return obj.name
    if isinstance(obj, SignedEntry):
        return _entry(obj)
    if isinstance(obj, Vote):
        return ("V", obj.seat, obj.seq, obj.digest)
    if isinstance(obj, Game):
        return ("G", obj.digest, len(obj.moves))
    if isinstance(obj, SeatKey):
        return ("K", obj.public)
    if isinstance(obj, WireHeader | LogHeader):
        return "H"
    if isinstance(obj, FunctionType | MethodType) or (callable(obj) and not hasattr(obj, "__dict__")
                                                      and not isinstance(obj, type)):
        return "f"  # code, not state (a listener, a clock, the handover check)
    if isinstance(obj, tuple | frozenset):
        if isinstance(obj, frozenset):
            return ("s", *sorted((_canon(x, memo) for x in obj), key=repr))
        return tuple(_canon(x, memo) for x in obj)
    key = id(obj)
    if key in memo:
        return ("@", memo[key])
    memo[key] = len(memo) - 1
    if isinstance(obj, bytearray):
        return ("b", bytes(obj))
    if isinstance(obj, list | deque):
        return ("l", *(_canon(x, memo) for x in obj))
    if isinstance(obj, dict):
        return ("d", *((_canon(k, memo), _canon(v, memo)) for k, v in obj.items()))
    if isinstance(obj, set):
        return ("s", *sorted((_canon(x, memo) for x in obj), key=repr))
    if isinstance(obj, Bucket):
        return _canon_bucket(obj, memo[-1])
    cls = type(obj)
    skipped = SKIPPED.get(cls.__name__, ())
    fields = [(name, value) for name, value in _fields(obj) if name not in skipped]
    out = [cls.__name__, *((name, _canon(value, memo)) for name, value in fields)]
    if isinstance(obj, Link):
        out.append(_canon_link(obj))
    elif isinstance(obj, Router):
        out.append(min(memo[-1] - obj._voted_at, 1.0))  # (it only says whether VOTE_EVERY has passed)
    return tuple(out)


def _fields(obj: object) -> list[tuple[str, object]]:
    out = list(vars(obj).items()) if hasattr(obj, "__dict__") else []
    for klass in type(obj).__mro__:
        for name in getattr(klass, "__slots__", ()):
            if name != "__dict__" and hasattr(obj, name):
                out.append((name, getattr(obj, name)))
    return out


def _canon_bucket(bucket: Bucket, now: float) -> tuple:
    """*bucket* as what it holds at *now*: from then on it behaves as one that holds as much."""
    tokens = bucket._tokens
    if bucket._at is not None:
        tokens = min(float(bucket.burst), tokens + (now - bucket._at) / bucket.every)
    return ("B", bucket.burst, bucket.every, tokens, getattr(bucket, "pending", None))


def _canon_link(link: Link) -> bool:
    """Whether *link*'s peer was passed the votes held now (its ``votes_sent`` is the version now)."""
    router = link._owner._owner  # type: ignore[attr-defined]
    return link.votes_sent == router.replica.votes_version


# ---------------------------------------------------------------------- the search


@dataclass
class Found:
    """A schedule after which an invariant broke."""

    schedule: tuple[Action, ...]
    kind: str  # "safety" (at a state of the schedule) or "after" (the heal and the play after it)
    problem: str
    picture: str  # each peer's log, commit index, votes… where it broke

    def __str__(self) -> str:
        steps = ", ".join(say_action(a) for a in self.schedule) or "(none)"
        replay = schedule_text(self.schedule)
        return f"{self.kind}: {self.problem}\n  schedule: {steps}\n  --replay '{replay}'"

    def kind_of(self) -> str:
        """What broke, and which kinds of fault the schedule holds: the class it is counted in."""
        faults = sorted({a[0] for a in self.schedule} - {"carry", "beat", "move"})
        return f"{self.kind}: {self.problem.split(':')[0]} [{' '.join(faults) or 'no fault'}]"


@dataclass
class Report:
    """What :func:`explore` explored and found."""

    seats: int
    depth: int
    draws: bool
    flip: bool
    states: int = 0  # distinct states (by fingerprint)
    schedules: int = 0  # schedules played: every action of every state explored, duplicates too
    per_depth: list[int] = field(default_factory=list)  # new states at each depth
    found: list[Found] = field(default_factory=list)  # the first of each class, and the first few
    kinds: Counter[str] = field(default_factory=Counter)  # failed states by class (Found.kind_of)
    failed_states: int = 0
    seconds: float = 0.0

    def __str__(self) -> str:
        lines = [f"{self.seats} seats, {'table draws' if self.draws else 'seeded draws'}"
                 f"{', keys flipped' if self.flip else ''}, depth {self.depth}: {self.states} distinct states "
                 f"({' + '.join(map(str, self.per_depth))} by depth), {self.schedules} schedules played, "
                 f"{self.seconds:.1f} s; {self.failed_states} states fail"]
        lines += [f"  {count} {kind}" for kind, count in self.kinds.most_common()]
        return "\n".join(lines)


def replay(n: int, schedule: Sequence[Action], *, draws: bool, flip: bool) -> World:
    """A new world after *schedule*, from scratch (stateless model checking).

    Raises:
        Violation: Safety broke on the way.
    """
    world = World(n, draws=draws, flip=flip)
    for action in schedule:
        world.do(("split", (tuple(range(n)),)) if action == ("split", ()) else action)
    return world


def check(n: int, schedule: Sequence[Action], *, draws: bool = False, flip: bool = False) -> str | None:
    """Plays *schedule* (safety checked after every action), then the heal and the play after it
    (:meth:`World.play_on`): ``None`` when every invariant held, else what broke."""
    with deterministic():
        try:
            world = replay(n, schedule, draws=draws, flip=flip)
            world.play_on()
        except Violation as exc:
            return str(exc)
    return None


def explore(n: int, depth: int, *, draws: bool = False, flip: bool = False, keep: int = 3,
            say: Callable[[str], None] | None = None) -> Report:
    """Explores breadth-first every schedule of at most *depth* actions (:meth:`World.enabled`) at a
    table of *n* seats, each distinct state once (:func:`fingerprint`); after each new state, the heal
    and the play after it (:meth:`World.play_on`). A state where an invariant broke is not explored
    further; the first *keep* of them are kept (the shortest schedules, breadth first)."""
    with deterministic():
        return _explore(n, depth, draws=draws, flip=flip, keep=keep, say=say)


def _explore(n: int, depth: int, *, draws: bool, flip: bool, keep: int,
             say: Callable[[str], None] | None) -> Report:
    report = Report(n, depth, draws, flip)
    started = time.process_time()
    root = World(n, draws=draws, flip=flip)
    seen = {fingerprint(root)}
    report.per_depth.append(1)

    def fail(schedule: tuple[Action, ...], kind: str, problem: str, world: World) -> None:
        report.failed_states += 1
        found = Found(schedule, kind, problem, world.describe())
        first = found.kind_of() not in report.kinds
        report.kinds[found.kind_of()] += 1
        if first or len(report.found) < keep:
            report.found.append(found)
            if say:
                say(str(found))

    verdicts: dict[bytes, str | None] = {}

    def after(schedule: tuple[Action, ...], world: World) -> bool:
        try:
            world.play_on(verdicts)
        except Violation as exc:
            fail(schedule, "after", str(exc), world)
            return False
        return True

    frontier = [((), root.enabled())]
    after((), root)
    for d in range(depth):
        grown: list[tuple[tuple[Action, ...], list[Action]]] = []
        for schedule, actions in frontier:
            for action in actions:
                report.schedules += 1
                child = (*schedule, action)
                world = replay(n, schedule, draws=draws, flip=flip)
                try:
                    world.do(action)
                except Violation as exc:
                    fail(child, "safety", str(exc), world)
                    continue
                key = fingerprint(world)
                if key in seen:
                    continue
                seen.add(key)
                grown.append((child, world.enabled() if d + 1 < depth else []))  # (explored further, whatever
                after(child, world)  # comes after it: safety first)
        report.per_depth.append(len(grown))
        frontier = grown
        if say:
            say(f"depth {d + 1}: {len(grown)} new states, {len(seen)} in all, {report.schedules} schedules, "
                f"{time.process_time() - started:.0f} s")
    report.states = len(seen)
    report.seconds = time.process_time() - started
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.net.commit_model", description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=300, help="schedules to run (default 300)")
    parser.add_argument("--first", type=int, default=1, help="the first seed (default 1)")
    parser.add_argument("--seed", type=int, help="run this seed only, and say what happens")
    parser.add_argument("--draws", action="store_true", help="a game with table draws (wire.md §5.7)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="with --seed: each split, handover, the end; exhaustive: each depth, each peer's log")
    parser.add_argument("--exhaustive", action="store_true",
                        help="explore every schedule up to --depth actions (breadth first, each state once)")
    parser.add_argument("--seats", type=int, default=2, choices=(2, 3), help="exhaustive: seats (default 2)")
    parser.add_argument("--depth", type=int, default=5, help="exhaustive: actions a schedule (default 5)")
    parser.add_argument("--flip", action="store_true", help="exhaustive: the seats' keys in the other order")
    parser.add_argument("--keep", type=int, default=3, help="exhaustive: failing schedules to print (default 3)")
    parser.add_argument("--replay", metavar="SCHEDULE",
                        help="play one schedule of the exhaustive model (as it prints them), the heal after it, and "
                             "say each peer's log at the end")
    args = parser.parse_args(argv)
    if args.exhaustive or args.replay is not None:
        logging.getLogger("carcnet").setLevel(logging.ERROR)  # (sets aside and refusals by the thousand)
    if args.replay is not None:
        schedule = parse_schedule(args.replay)
        with deterministic():
            world = World(args.seats, draws=args.draws, flip=args.flip)
            try:
                for action in schedule:
                    world.do(("split", (tuple(range(args.seats)),)) if action == ("split", ()) else action)
                world.play_on()
                problem = None
            except Violation as exc:
                problem = str(exc)
        print(world.describe())
        print(problem or "every invariant held")
        return 1 if problem else 0
    if args.exhaustive:
        report = explore(args.seats, args.depth, draws=args.draws, flip=args.flip, keep=args.keep,
                         say=print if args.verbose else None)
        for found in report.found:
            print(found)
            if args.verbose:
                print(found.picture)
        print(report)
        return 1 if report.failed_states else 0
    seeds = [args.seed] if args.seed is not None else list(range(args.first, args.first + args.n))
    bad = 0
    for seed in seeds:
        problem = run(seed, draws=args.draws, say=print if args.verbose else None)
        if problem is not None:
            bad += 1
            print(f"seed {seed}: {problem}", flush=True)
    print(f"{len(seeds) - bad} of {len(seeds)} schedules healed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
