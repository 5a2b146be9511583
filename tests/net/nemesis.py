"""Provides the nemesis of a network table, in the spirit of Jepsen: seeded schedules of faults played
against real ``carcnet`` processes in network namespaces (:mod:`tests.net.netns`), and a checker of
what every peer saved.

A **schedule** (:class:`Schedule`) is a table of 2 to 5 headless bot players (and maybe a spectator),
each on a host of its own, and a list of timed faults (:class:`Fault`), each set off when the table
reaches an entry (the highest ``seq`` any peer has printed) and held for some seconds:

- ``partition``: the hosts split into sides (3 | 2, 2 | 2 | 1, 2 | 1, ...) by blackhole routes in
  their namespaces: connections go silent, new ones fail.
- ``race``: the case of wire.md §5.9: a partition set off right after the table drew a tile
  for a seat of the small side, before its bot plays, and held past the away rule.
- ``flap``: one host's link goes down and up again several times.
- ``loss``: a host's link drops packets both ways (``tc netem`` where the kernel has it, else a
  ``tbf`` link so slow that what overflows its small queue is dropped: :meth:`netns.Lan.impair`).
- ``kill``: ``kill -9`` of a peer, started again after the hold with ``carcnet resume SAVE HOST:PORT``
  (a player: it goes on from its save, dialling a player still running) or its own command (a
  spectator).
- ``goodbye``: SIGTERM to a player (it leaves on purpose: ``bye`` to every peer, its save closed),
  started again after the hold with ``carcnet resume SAVE HOST:PORT``.
- ``pause``: SIGSTOP of a peer, then SIGCONT (a laptop's lid closed a moment).
- ``slow``: some peers' bots wait longer before each turn (``--bot-delay``) for the whole game.

:func:`generate` gives tables of 2 to 5 players; :func:`two_seat_schedule` tables of two (and maybe
a spectator) whose faults are the ways the smallest table loses a laptop: a crash, a goodbye, a 1 | 1
split, a flapping link.

Every schedule ends in a **heal** (every route and link back, no loss, every peer running) and then
waits, bounded, for the game to finish. :func:`check` then gives a :class:`Verdict`: every peer's
final save holds one log (else ``fork``, naming the seq and the digests); every entry any peer saved at
any point (its save is read every :data:`SNAPSHOT_EVERY` s and right after a kill) is in that log,
or in that peer's side file ``<save>.aside`` (else ``lost entry``), and a peer whose own move was set
aside said so in a line starting ``Set aside:`` (else ``unannounced``); no peer stopped the game
(``stopped``); while a player was down (a crash or a goodbye) for :data:`GO_ON_HOLD` seconds or more at a
table of two, the other, running all along, played its seat with a bot (``stuck`` otherwise: the one
left must go on); the game finished everywhere (``not finished``).

The peers run with short clocks (:data:`SHORT_CLOCKS`: wire.md §2.1's heartbeat, silence and
reconnection, and the draw value's wait of §5.7, scaled down together) so that a schedule takes
seconds, not minutes: ``carcnet``'s command line has no option for them, so each peer is started by
:data:`PEER_MAIN`, which sets them and runs ``carcnet``'s ``main``.

Run ``python -m tests.net.nemesis`` (as root) for 200 schedules and 40 of two seats with a progress line
and the counts; ``--seed S`` replays one, ``--two-seat S`` one of two seats; ``--race`` runs the fixed race
schedule (:func:`race_schedule`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from carcnet.engine.state import Phase
from carcnet.log import MAGIC, TABLE_FORMAT, LogEntry, LogError, LogFormatError, LogHeader, load, scan, unpack
from carcnet.log.signatures import verify_entry

from . import netns

# ---------------------------------------------------------------------- clocks and peers


@dataclass(frozen=True)
class Clocks:
    """The clocks a peer runs with, in seconds (wire.md §2.1 and §5.7): ``heartbeat`` after this long
    without sending, a connection ``dead`` after this long without receiving, ``connect`` the longest
    wait for a TCP connection, ``backoff`` the waits between reconnections, ``reveal_wait`` how long a
    draw value may be missing before its seat counts as away."""

    heartbeat: float
    dead: float
    connect: float
    backoff: tuple[float, ...]
    reveal_wait: float


#: wire.md's clocks scaled down together (heartbeat 5 s → 0.5 s, silence 20 s → 2.5 s, reconnection
#: 1–30 s → 0.25–2 s, a draw value's wait 10 s → 1 s), each still in the order the spec needs.
SHORT_CLOCKS = Clocks(heartbeat=0.5, dead=2.5, connect=2.0, backoff=(0.25, 0.5, 1.0, 2.0), reveal_wait=1.0)

#: wire.md's own clocks (§2.1, §5.7), which ``python -m carcnet`` runs with.
REAL_CLOCKS = Clocks(heartbeat=5.0, dead=20.0, connect=10.0, backoff=(1.0, 2.0, 4.0, 8.0, 16.0, 30.0), reveal_wait=10.0)

#: Runs ``carcnet ARGS`` with the clocks given as its first argument (``Clocks`` fields, comma
#: separated, the backoff joined by ``/``). It fails loudly if ``carcnet.table.lan`` no longer has the
#: two names it replaces.
PEER_MAIN = """\
import sys
import carcnet.table.lan as lan
from carcnet.net.transport import Timing
from carcnet.cli import main
hb, dead, connect, backoff, reveal = sys.argv[1].split(",")
clocks = Timing(heartbeat=float(hb), dead=float(dead), connect=float(connect),
                backoff=tuple(float(b) for b in backoff.split("/")))
assert lan.Timing is Timing and isinstance(lan.REVEAL_WAIT, float), "tests/net/nemesis.py: update PEER_MAIN"
lan.Timing = lambda: clocks
lan.REVEAL_WAIT = float(reveal)
sys.exit(main(sys.argv[2:]))
"""

#: The TCP port every player listens on (each host is a namespace of its own, so one port serves all,
#: and a restarted player is found where it was).
PORT = 40000
#: Names of the peers: the host's (its seat is its bot, ``Greedy 1``), then the players who join.
NAMES = ("Ann", "Bob", "Cleo", "Dan", "Eve")
#: The spectator's name.
SPECTATOR = "Sue"
#: Seconds between two reads of every peer's save.
SNAPSHOT_EVERY = 0.25
#: Seconds without a new entry anywhere, after the heal, after which the game is taken as stuck (at
#: least: with long clocks, twice the longest reconnection wait and the silence rule).
STALL = 10.0
#: The longest one schedule may take, lobby to the last save.
RUN_SECONDS = 240.0

FAULT_KINDS = ("partition", "race", "flap", "loss", "kill", "goodbye", "pause", "slow")
#: The faults of a table of two (:func:`two_seat_schedule`): a crash, a goodbye, a 1 | 1 split, a
#: flapping link.
TWO_SEAT_KINDS = ("kill", "goodbye", "partition", "flap")
#: Seconds a player of a table of two is down (crashed or gone with a goodbye) from which the other must
#: have given its seat to a bot before it is back: the away rule (``--takeover``, 1.5 s here), a missing
#: draw value's wait (1 s) and a few turns of slow bots, with room for a busy machine.
GO_ON_HOLD = 8.0


def _carcnet(clocks: Clocks | None) -> list[str]:
    if clocks is None:
        return [sys.executable, "-m", "carcnet"]
    text = ",".join(
        [str(clocks.heartbeat), str(clocks.dead), str(clocks.connect), "/".join(map(str, clocks.backoff)),
         str(clocks.reveal_wait)]
    )
    return [sys.executable, "-c", PEER_MAIN, text]


# ---------------------------------------------------------------------- schedules


@dataclass(frozen=True)
class Fault:
    """One fault of a schedule.

    Attributes:
        kind: One of :data:`FAULT_KINDS` (not ``slow``, which is the schedule's ``delays``).
        at: The entry that sets it off: the highest seq any peer has printed reaches it.
        hold: Seconds it lasts (``kill``: until the restart; ``flap``: the whole flapping).
        peers: The peers it hits (indices into the schedule's peers; the spectator is the last).
        sides: ``partition`` and ``race``: the sides, each a tuple of peer indices (every host is in one).
        cycles: ``flap``: (seconds down, seconds up) of each time the link goes.
    """

    kind: str
    at: int
    hold: float
    peers: tuple[int, ...] = ()
    sides: tuple[tuple[int, ...], ...] = ()
    cycles: tuple[tuple[float, float], ...] = ()

    def describe(self) -> str:
        """The fault in words, e.g. ``partition 0,1,2|3,4 at seq 40 for 6.0 s``."""
        what = self.kind
        if self.sides:
            what += " " + "|".join(",".join(map(str, side)) for side in self.sides)
        elif self.peers:
            what += " " + ",".join(map(str, self.peers))
        if self.cycles:
            what += f" x{len(self.cycles)}"
        return f"{what} at seq {self.at} for {self.hold:.1f} s"


@dataclass(frozen=True)
class Schedule:
    """A table and its faults: *players* bot players (peer 0 hosts), a spectator if *spectator* (the
    last peer), *delays* each player's ``--bot-delay``, *takeover* the away rule's seconds
    (``--takeover``), *faults* in the order they are set off."""

    name: str
    seed: int | None
    players: int
    spectator: bool
    delays: tuple[float, ...]
    takeover: float
    faults: tuple[Fault, ...]
    clocks: Clocks | None = SHORT_CLOCKS

    @property
    def peers(self) -> int:
        """How many peers (hosts) the schedule has."""
        return self.players + int(self.spectator)

    def kinds(self) -> set[str]:
        """The fault kinds it holds (``slow`` when a bot waits much longer than the others)."""
        kinds = {f.kind for f in self.faults}
        if max(self.delays) >= 2 * min(self.delays) + 0.3:
            kinds.add("slow")
        return kinds

    def describe(self) -> str:
        """The schedule in one line."""
        table = f"{self.players} players{' + spectator' if self.spectator else ''}"
        delays = "/".join(f"{d:g}" for d in self.delays)
        faults = "; ".join(f.describe() for f in self.faults) or "no faults"
        return f"{self.name}: {table}, bot delays {delays} s, takeover {self.takeover:g} s: {faults}"


#: Base bot delay (s): paces the game (about 15 s without faults) so that every fault, set off by
#: seq 90 of the about 210 entries of a game, is over while the table still plays: a peer cut off or
#: killed when the others end the game and leave cannot learn its end.
BASE_DELAY = 0.2
#: Faults are set off from this seq to :data:`LAST_TRIGGER`; one that could not start (another held
#: the network) by :data:`TOO_LATE` is left out.
FIRST_TRIGGER, LAST_TRIGGER, TOO_LATE = 4, 90, 130


def _sides(rng: random.Random, peers: int, count: int) -> tuple[tuple[int, ...], ...]:
    order = list(range(peers))
    rng.shuffle(order)
    cuts = sorted(rng.sample(range(1, peers), count - 1))
    sides = [order[a:b] for a, b in zip([0, *cuts], [*cuts, peers], strict=True)]
    return tuple(tuple(sorted(side)) for side in sorted(sides, key=len, reverse=True))


def generate(seed: int) -> Schedule:
    """The random schedule of *seed*: 2 to 5 players, a spectator one time in three, one or two slow
    bots one time in two, and 2 to 4 faults set off between seq :data:`FIRST_TRIGGER` and
    :data:`LAST_TRIGGER` (a game has about 210 entries). The same seed gives the same schedule."""
    rng = random.Random(seed)
    players = rng.choice((2, 3, 3, 4, 4, 5, 5))
    spectator = rng.random() < 1 / 3
    peers = players + int(spectator)
    delays = [BASE_DELAY] * players
    if rng.random() < 0.5:
        for p in rng.sample(range(players), rng.randint(1, min(2, players))):
            delays[p] = round(rng.uniform(0.6, 1.2), 2)
    kinds = ["partition", "partition", "race", "flap", "loss", "kill", "kill", "pause"]
    faults = []
    for at in sorted(rng.sample(range(FIRST_TRIGGER, LAST_TRIGGER + 1), rng.randint(2, 4))):
        kind = rng.choice(kinds)
        if kind in ("partition", "race"):
            count = 3 if peers >= 5 and kind == "partition" and rng.random() < 0.4 else 2
            sides = _sides(rng, peers, count)
            hold = round(rng.uniform(5.0, 9.0) if kind == "race" else rng.uniform(0.5, 8.0), 1)
            faults.append(Fault(kind, at, hold, sides=sides))
        elif kind == "flap":
            cycles = tuple((round(rng.uniform(0.2, 3.0), 1), round(rng.uniform(0.2, 1.5), 1))
                           for _ in range(rng.randint(2, 4)))
            faults.append(Fault(kind, at, round(sum(a + b for a, b in cycles), 1),
                                peers=(rng.randrange(peers),), cycles=cycles))
        elif kind == "loss":
            hit = tuple(sorted(rng.sample(range(peers), rng.randint(1, min(2, peers)))))
            faults.append(Fault(kind, at, round(rng.uniform(2.0, 8.0), 1), peers=hit))
        else:  # kill, pause
            hold = round(rng.uniform(0.2, 3.0 if kind == "kill" else 4.0), 1)
            faults.append(Fault(kind, at, hold, peers=(rng.randrange(peers),)))
    return Schedule(f"seed {seed}", seed, players, spectator, tuple(delays), 1.5, tuple(faults))


def two_seat_schedule(seed: int) -> Schedule:
    """The two-seat schedule of *seed*: two players, a spectator one time in three, one slow bot one
    time in two, and 2 or 3 faults of :data:`TWO_SEAT_KINDS`, the first of them the kind *seed* names
    (seeds 1 to 4 each begin with another kind, a crash or a goodbye long in seeds 1 to 4, 9 to 12, …).
    A crash or a goodbye is short (under 3 s) or long (:data:`GO_ON_HOLD` to 11 s: the other player
    must play its seat with a bot meanwhile); a split is
    1 | 1 (the spectator on either side), held up to 9 s, well past the away rule. The same seed gives
    the same schedule."""
    rng = random.Random(f"two seats {seed}")
    spectator = rng.random() < 1 / 3
    peers = 2 + int(spectator)
    delays = [BASE_DELAY] * 2
    if rng.random() < 0.5:
        delays[rng.randrange(2)] = round(rng.uniform(0.6, 1.2), 2)
    count = rng.randint(2, 3)
    kinds = [TWO_SEAT_KINDS[seed % len(TWO_SEAT_KINDS)], *(rng.choice(TWO_SEAT_KINDS) for _ in range(count - 1))]
    faults = []
    for i, (at, kind) in enumerate(zip(sorted(rng.sample(range(FIRST_TRIGGER, LAST_TRIGGER + 1), count)), kinds,
                                       strict=True)):
        if kind == "partition":
            sides = [[0], [1]]
            if spectator:
                sides[rng.randrange(2)].append(2)
            faults.append(Fault(kind, at, round(rng.uniform(0.5, 9.0), 1), sides=tuple(tuple(side) for side in sides)))
        elif kind == "flap":
            cycles = tuple((round(rng.uniform(0.2, 3.0), 1), round(rng.uniform(0.2, 1.5), 1))
                           for _ in range(rng.randint(2, 4)))
            faults.append(Fault(kind, at, round(sum(a + b for a, b in cycles), 1), peers=(rng.randrange(peers),),
                                cycles=cycles))
        else:  # kill, goodbye: a player
            long = rng.random() < 0.5 if i else (seed - 1) // len(TWO_SEAT_KINDS) % 2 == 0
            hold = round(rng.uniform(GO_ON_HOLD, GO_ON_HOLD + 3.0) if long else rng.uniform(0.3, 3.0), 1)
            faults.append(Fault(kind, at, hold, peers=(rng.randrange(2),)))
    return Schedule(f"two seats {seed}", seed, 2, spectator, tuple(delays), 1.5, tuple(faults))


def race_schedule(clocks: Clocks | None = SHORT_CLOCKS) -> Schedule:
    """The race of wire.md §5.9: five bot players split 3 | 2 right after the table drew a tile
    for a seat of the small side (Dan's or Eve's, from seq 30 on), held well past the away rule so
    that the large side hands that seat over while the small side's bot plays it, then healed. The
    small side's bots wait 1 s before each turn, so that the split comes between the draw and the move.
    *clocks* ``None``: wire.md's own clocks and away rule (a minute a run)."""
    dead = (clocks or REAL_CLOCKS).dead
    takeover = 1.5 if clocks is not None else 30.0
    hold = round(dead + takeover + 5.0, 1)
    return Schedule("race", None, 5, False, (BASE_DELAY, BASE_DELAY, BASE_DELAY, 1.0, 1.0), takeover,
                    (Fault("race", 30, hold, sides=((0, 1, 2), (3, 4))),), clocks)


# ---------------------------------------------------------------------- reading saves


@dataclass(frozen=True)
class Save:
    """What one ``.carclog`` held when read: its header's body and its entries' bodies, seq 1 first
    (the intact records only: a record torn by a kill is left out, as a reader does)."""

    header: bytes
    entries: tuple[bytes, ...]


def read_save(path: Path) -> Save | None:
    """The records of the save at *path* (``None`` if it is missing, not a log, or has no header)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if not data.startswith(MAGIC):
        return None
    records, _tail = scan(data)
    if not records or records[0].index != 0:
        return None
    return Save(records[0].body, tuple(r.body for r in records[1:]))


def read_aside(path: Path) -> set[bytes]:
    """The record bodies of a side file (the save's record format, with or without the magic)."""
    try:
        data = path.read_bytes()
    except OSError:
        return set()
    records, _tail = scan(data, len(MAGIC) if data.startswith(MAGIC) else 0)
    return {r.body for r in records}


def aside_paths(save: Path) -> list[Path]:
    """Where the side file of *save* may be: ``<save>.aside`` (``x.carclog.aside``) or ``x.aside``."""
    return [save.with_name(save.name + ".aside"), save.with_suffix(".aside")]


def _entry(body: bytes, format: int = TABLE_FORMAT) -> LogEntry | None:
    try:
        item = unpack(body, format=format)
    except (LogError, LogFormatError):
        return None
    return item if isinstance(item, LogEntry) else None


def _header(body: bytes) -> LogHeader | None:
    try:
        item = unpack(body)
    except (LogError, LogFormatError):
        return None
    return item if isinstance(item, LogHeader) else None


# ---------------------------------------------------------------------- the checker


@dataclass
class PeerRecord:
    """What the checker knows of one peer after a run.

    Attributes:
        name: The peer's name (:data:`NAMES`, :data:`SPECTATOR`).
        seat_name: The name of the seat it plays (``Greedy 1`` for the host), ``None`` for a spectator.
        final: Its save at the end (the one it wrote last), if any.
        save_path: Where that save is.
        seen: Every entry its saves held at any read: seq → bodies.
        aside: The bodies of its side file(s).
        lines: Its stdout and stderr lines, every run of it, in order.
        finished: Whether its last run printed the final scores and exited 0.
    """

    name: str
    seat_name: str | None
    final: Save | None = None
    save_path: Path | None = None
    seen: dict[int, set[bytes]] = field(default_factory=dict)
    aside: set[bytes] = field(default_factory=set)
    lines: list[str] = field(default_factory=list)
    finished: bool = False


#: Verdict kinds, worst first: a schedule's verdict is the worst problem found.
VERDICTS = ("harness", "fork", "lost entry", "unannounced", "stopped", "stuck", "not finished", "ok")


@dataclass
class Verdict:
    """The checker's answer: *kind* (one of :data:`VERDICTS`), every problem found, in words, and what
    the table's log holds (entries, handovers, handbacks)."""

    kind: str
    problems: list[str] = field(default_factory=list)
    summary: str = ""

    @property
    def ok(self) -> bool:
        """Whether nothing was found wrong."""
        return self.kind == "ok"

    def describe(self) -> str:
        """The verdict and its problems, one per line."""
        head = f"{self.kind} ({self.summary})" if self.summary else self.kind
        return "\n".join([head, *(f"  - {p}" for p in self.problems)])


def _short(digest: bytes) -> str:
    return digest.hex()[:12]


def _fork(peers: Sequence[PeerRecord]) -> tuple[int, dict[str, bytes]] | None:
    """The first seq at which two final saves hold different entries, with each peer's entry there."""
    logs = [(p.name, p.final.entries) for p in peers if p.final is not None]
    for i in range(max((len(entries) for _, entries in logs), default=0)):
        here = {name: entries[i] for name, entries in logs if i < len(entries)}
        if len(set(here.values())) > 1:
            return i + 1, here
    return None


def _reference(peers: Sequence[PeerRecord]) -> tuple[bytes, ...]:
    """The table's log: the final entries most peers hold (the longest among equals)."""
    counts = Counter(p.final.entries for p in peers if p.final is not None)
    if not counts:
        return ()
    return max(counts, key=lambda entries: (counts[entries], len(entries)))


def _signer(entry: LogEntry | None, header: LogHeader | None) -> int | None:
    """The seat whose key signed *entry* (the seat itself, or the taker of a seat handed over), if
    any: ``None`` for a table draw, which nobody signs, or an entry that cannot be read."""
    if entry is None or header is None or header.keys is None or entry.sig is None:
        return None
    return next((seat for seat, key in enumerate(header.keys)
                 if verify_entry(key, header.game, entry, entry.sig)), None)


def check(peers: Sequence[PeerRecord], *, over: bool | None = None, stuck: Sequence[str] = ()) -> Verdict:
    """Judges a run from what its peers saved and printed (see the module's docstring).

    Args:
        peers: Every peer, players and spectators.
        over: Whether the table's log ends the game (``None``: replay the reference save to know).
        stuck: The run's own findings that a player left alone did not go on (in words).
    """
    problems: dict[str, list[str]] = {kind: [] for kind in VERDICTS}
    problems["stuck"].extend(stuck)
    header = next((_header(p.final.header) for p in peers if p.final is not None), None)
    seats = [s.name for s in header.seats] if header is not None else []
    fmt = header.format if header is not None else TABLE_FORMAT
    forked = _fork(peers)
    if forked is not None:
        seq, here = forked
        entries = {name: _entry(body, fmt) for name, body in here.items()}
        parts = [f"{name} {_short(e.digest) if e else '?'} ({e.move if e else 'unreadable'})"
                 for name, e in entries.items()]
        problems["fork"].append(f"fork at seq {seq}: " + ", ".join(parts))
    reference = _reference(peers)
    players = {seats.index(p.seat_name): p for p in peers if p.seat_name in seats}
    all_aside = set().union(*(p.aside for p in players.values()))
    taken_back: dict[bytes, tuple[int, list[PeerRecord]]] = {}  # body: its seq, the peers that held it
    for p in peers:
        for seq in sorted(p.seen):
            for body in p.seen[seq]:
                if seq <= len(reference) and reference[seq - 1] == body:
                    continue
                if seq > len(reference) and forked is None:
                    continue  # beyond the end of the table's log: counted as not finished below
                taken_back.setdefault(body, (seq, []))[1].append(p)
    draws = 0
    for body, (seq, holders) in taken_back.items():
        entry = _entry(body, fmt)
        if entry is not None and entry.sig is None:
            draws += 1  # a table draw, nobody's move: drawn again on the table's log (wire.md §5.7)
            continue
        what = f"seq {seq} " + (f"{entry.move} ({_short(entry.digest)})" if entry else "(unreadable)")
        owner = players.get(signer) if (signer := _signer(entry, header)) is not None else None
        for p in holders:
            elsewhere = owner.aside if owner is not None else all_aside if p.seat_name is None else set()
            if body not in p.aside and body not in elsewhere:
                problems["lost entry"].append(f"{p.name} saved {what}: in neither the table's log nor a side file")
        if owner is not None and body in owner.aside and not any(
            line.startswith("Set aside:") for line in owner.lines
        ):
            problems["unannounced"].append(f"{owner.name}'s own {what} was set aside without a 'Set aside:' line")
    for p in peers:
        stops = [line for line in p.lines if "the game stopped" in line]
        if stops:
            problems["stopped"].append(f"{p.name}: {stops[0]}")
    summary = ""
    if over is None:
        over, summary = _table_log(next((p.save_path for p in peers if p.final is not None
                                         and p.final.entries == reference and p.save_path is not None), None))
    if draws:
        summary += f"{', ' if summary else ''}{draws} table draws taken back"
    if not over:
        problems["not finished"].append(f"the table's log ends at seq {len(reference)} before the game's end")
    for p in peers:
        if p.final is None:
            problems["not finished"].append(f"{p.name} has no save")
        elif forked is None and p.final.entries != reference:
            problems["not finished"].append(f"{p.name} holds {len(p.final.entries)} entries, the table {len(reference)}")
        if not p.finished:
            last = next((line for line in reversed(p.lines) if line.strip()), "(nothing)")
            problems["not finished"].append(f"{p.name} did not end with the final scores (last line: {last})")
    kind = next((k for k in VERDICTS if problems[k]), "ok")
    return Verdict(kind, [msg for k in VERDICTS for msg in problems[k]], summary)


def _table_log(path: Path | None) -> tuple[bool, str]:
    """Whether the save at *path* (read and replayed by carcnet's reader) ends the game, and what it
    holds in words."""
    if path is None:
        return False, "no save"
    try:
        loaded = load(path)
    except (LogError, LogFormatError, OSError) as exc:
        return False, f"{path.name} refused: {exc}"
    kinds = Counter(type(e.move).__name__ for e in loaded.entries)
    summary = (f"{len(loaded.entries)} entries, {kinds['HandOver']} handovers, {kinds['HandBack']} handbacks"
               + (f", damaged end ({loaded.damage})" if loaded.damage is not None else ""))
    return loaded.game.phase is Phase.GAME_OVER, summary


# ---------------------------------------------------------------------- running a schedule


_PROGRESS = re.compile(r"(?:move|draw) (\d+) ")
_DRAW = re.compile(r"draw (\d+) for (.+?): ")


class Peer:
    """One peer of a run: its host, its command, the processes it ran (a restart is a new one) and
    everything they printed.

    Lifecycle: :meth:`start` runs its command; :meth:`kill` ends it with SIGKILL; :meth:`restart`
    runs it again (a player resumes its save); :meth:`wait` waits for the running one to end.
    """

    def __init__(self, run: Run, index: int, name: str, argv: list[str], *, spectator: bool) -> None:
        self.run, self.index, self.name, self.argv, self.spectator = run, index, name, argv, spectator
        self.host = run.lan.hosts[index]
        self.proc: asyncio.subprocess.Process | None = None
        self.ended: asyncio.Future[None] | None = None  # the last process ended and was read
        self.lines: list[str] = []
        self.seq = 0
        self.save: Path | None = None
        self.saw_final = False
        self.codes: list[int] = []
        self.seen: dict[int, set[bytes]] = {}
        self.lock = asyncio.Lock()  # one process fault at a time

    @property
    def seat_name(self) -> str | None:
        """The name of its seat at the table (the host's seat is its bot's)."""
        if self.spectator:
            return None
        return "Greedy 1" if self.index == 0 else self.name

    @property
    def running(self) -> bool:
        """Whether its process runs."""
        return self.proc is not None and self.proc.returncode is None

    async def start(self, argv: list[str] | None = None) -> None:
        """Starts its command (or *argv*) in its host."""
        self.saw_final = False
        proc = self.proc = await self.run.lan.spawn(self.host, *(argv or self.argv))
        readers = [self._read(proc.stdout), self._read(proc.stderr)]
        self.ended = asyncio.ensure_future(self._ended(proc, readers))

    async def _ended(self, proc: asyncio.subprocess.Process, readers: Sequence[Awaitable[None]]) -> None:
        await asyncio.gather(*readers)
        self.codes.append(await proc.wait())

    async def _read(self, stream: asyncio.StreamReader | None) -> None:
        assert stream is not None
        while line := await stream.readline():
            text = line.decode(errors="replace").rstrip("\n")
            self.lines.append(text)
            self._heard(text)

    def _heard(self, text: str) -> None:
        if m := _PROGRESS.match(text):
            self.seq = max(self.seq, int(m.group(1)))
            self.run.progress(self, text)
        elif text.startswith("The game started; saving it to "):
            self.save = Path(text.removeprefix("The game started; saving it to "))
        elif text.startswith("Back at the game; its save goes on in "):
            self.save = Path(text.removeprefix("Back at the game; its save goes on in ").rsplit(" from move ", 1)[0])
        elif text.startswith("saved to "):
            self.save = Path(text.removeprefix("saved to "))
        elif text == "Final scores:":
            self.saw_final = True

    async def wait(self, seconds: float) -> bool:
        """Waits at most *seconds* for the last process to end (and its output); whether it did."""
        if self.ended is None:
            return True
        try:
            await asyncio.wait_for(asyncio.shield(self.ended), seconds)
        except TimeoutError:
            return False
        return True

    async def kill(self) -> None:
        """SIGKILL, then reads the save as the kill left it."""
        self.signal(signal.SIGKILL)
        await self.wait(10)
        self.snapshot()

    async def goodbye(self) -> None:
        """SIGTERM (the peer says ``bye`` and closes its save), then reads the save; SIGKILL if it is
        still running 10 s later."""
        self.signal(signal.SIGTERM)
        if not await self.wait(10):
            self.signal(signal.SIGKILL)
            await self.wait(10)
        self.snapshot()

    async def restart(self) -> None:
        """Runs the peer again: a player resumes its save, dialling a player still running (as a person
        types a table's address: mDNS is not what is tested here, and a laptop back after a long hold
        may find the table near its end, with seconds to meet it before the others leave), a spectator
        runs its own command again."""
        if self.spectator or self.save is None:
            await self.start()
            return
        args = self.run.peer_options(self)
        running = [p for p in self.run.peers if p is not self and not p.spectator and p.running]
        where = [f"{running[0].host.address}:{PORT}"] if running else []
        await self.start([*_carcnet(self.run.schedule.clocks), "resume", str(self.save), *where, "--headless", *args])

    def signal(self, signum: int) -> None:
        """Sends *signum* to the running process, if any."""
        if self.running:
            assert self.proc is not None
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.proc.pid, signum)

    def saves(self) -> list[Path]:
        """Every save in its data folder."""
        return sorted(self.run.tmp.joinpath(self.name).rglob("*.carclog"))

    def snapshot(self) -> None:
        """Reads every save in its data folder and keeps every entry seen."""
        for path in self.saves():
            save = read_save(path)
            if save is None:
                continue
            for seq, body in enumerate(save.entries, start=1):
                self.seen.setdefault(seq, set()).add(body)

    def record(self) -> PeerRecord:
        """What the checker needs of it."""
        self.snapshot()
        path = self.save if self.save is not None and self.save.exists() else next(iter(self.saves()[-1:]), None)
        final = read_save(path) if path is not None else None
        aside: set[bytes] = set()
        for save in self.saves():
            for candidate in aside_paths(save):
                aside |= read_aside(candidate)
        finished = self.saw_final and bool(self.codes) and self.codes[-1] == 0
        return PeerRecord(self.name, self.seat_name, final, path, self.seen, aside, list(self.lines), finished)


@dataclass
class Outcome:
    """What one schedule gave: its verdict, the faults set off (and how, in words), seconds taken, and
    what of its Lan could not be removed (namespaces, links)."""

    schedule: Schedule
    verdict: Verdict
    applied: list[str]
    seconds: float
    left_behind: list[str] = field(default_factory=list)

    def describe(self) -> str:
        """The schedule, what was done and the verdict."""
        return "\n".join([self.schedule.describe(), *(f"  * {a}" for a in self.applied), self.verdict.describe()])


class Run:
    """One schedule on one Lan: starts the table, sets off the faults, heals, waits for the end and
    checks. Use :func:`run_schedule`."""

    def __init__(self, schedule: Schedule, lan: netns.Lan, tmp: Path) -> None:
        self.schedule, self.lan, self.tmp = schedule, lan, tmp
        self.peers: list[Peer] = []
        self.applied: list[str] = []
        self.changed = asyncio.Event()  # some peer printed a new entry
        self.last_progress = time.monotonic()
        self.game = ""
        self._draw_watch: Callable[[Peer, str], None] | None = None
        self._net = asyncio.Lock()  # partitions, races and flaps one at a time
        self._impaired: set[int] = set()
        self._paused: set[int] = set()
        #: Players left alone at a table of two who did not go on while the other was down (``stuck``).
        self.stuck: list[str] = []

    def progress(self, peer: Peer, line: str) -> None:
        """A peer printed an entry."""
        self.last_progress = time.monotonic()
        self.changed.set()
        if self._draw_watch is not None:
            self._draw_watch(peer, line)

    @property
    def seq(self) -> int:
        """The highest seq any peer has printed."""
        return max((p.seq for p in self.peers), default=0)

    def peer_options(self, peer: Peer) -> list[str]:
        """The options every command of *peer* gets (data folder, addresses, clocks of the table)."""
        s = self.schedule
        options = ["--data-dir", str(self.tmp / peer.name), "--interface", peer.host.address,
                   "--timeout", str(RUN_SECONDS), "--takeover", str(s.takeover), "--moves"]
        if not peer.spectator:
            options += ["--listen", peer.host.address, "--port", str(PORT), "--bot-delay", str(s.delays[peer.index])]
        return options

    async def _until(self, test: Callable[[], bool], seconds: float) -> bool:
        """Waits until *test()* holds (checked on each new entry and every 0.2 s), at most *seconds*."""
        deadline = time.monotonic() + seconds
        while not test():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.2))
        return True

    def _playing(self) -> bool:
        return any(p.running for p in self.peers if not p.spectator)

    async def start_table(self) -> None:
        """Starts the host; then the players, who sit down at the host's address (mDNS is not what
        is tested here), and the spectator; waits until every player has the game's header.

        Raises:
            HarnessError: The table did not open, or the game did not start, within 60 s.
        """
        s = self.schedule
        exe = _carcnet(s.clocks)
        seats = ",".join(["greedy"] + ["open"] * (s.players - 1))
        host = Peer(self, 0, NAMES[0], [*exe, "host", "--headless", "--seats", seats, "--name", NAMES[0]],
                    spectator=False)
        host.argv += self.peer_options(host)
        self.peers.append(host)
        await host.start()
        if not await self._until(lambda: any(line.startswith("listening on port") for line in host.lines), 60):
            raise HarnessError(f"the host did not open its table: {host.lines[-5:]}")
        game = next(line for line in host.lines if line.startswith("game id ")).removeprefix("game id ")  # printed first
        where = [f"{host.host.address}:{PORT}", "--game", game]
        for i in range(1, s.peers):
            spectator = s.spectator and i == s.players
            name = SPECTATOR if spectator else NAMES[i]
            peer = Peer(self, i, name, [], spectator=spectator)
            options = self.peer_options(peer)
            if spectator:  # by address first; started again, by mDNS (the host may be the one gone)
                peer.argv = [*exe, "spectate", "--headless", "--name", name, "--wait", "30", *options]
                await peer.start([*peer.argv, *where])
            else:
                peer.argv = [*exe, "bot", "--join", *where, "--name", name, "--bot", "greedy", *options]
                await peer.start()
            self.peers.append(peer)
        players = [p for p in self.peers if not p.spectator]
        if not await self._until(lambda: all(p.save is not None or not p.running for p in players), 60):
            late = [f"{p.name}: {p.lines[-3:]}" for p in players if p.save is None]
            raise HarnessError(f"the game did not start within 60 s: {'; '.join(late)}")

    async def _snapshots(self) -> None:
        while True:
            for peer in self.peers:
                peer.snapshot()
            await asyncio.sleep(SNAPSHOT_EVERY)

    # ------------------------------------------------------------------ faults

    async def _fault(self, fault: Fault) -> None:
        if not await self._until(lambda: self.seq >= fault.at or not self._playing(), RUN_SECONDS):
            self.applied.append(f"{fault.describe()}: not set off (the table stayed at seq {self.seq})")
            return
        if not self._playing():
            self.applied.append(f"{fault.describe()}: not set off (the game ended at seq {self.seq})")
            return
        act: dict[str, Callable[[Fault], Awaitable[str]]] = {
            "partition": self._partition, "race": self._race, "flap": self._flap, "loss": self._loss,
            "kill": self._kill, "goodbye": self._goodbye, "pause": self._pause,
        }
        done = await act[fault.kind](fault)
        if not done:
            done = f"not set off (it could not start before seq {TOO_LATE})"
        self.applied.append(f"{fault.describe()}: {done}")

    def _hosts(self, side: Iterable[int]) -> list[netns.Host]:
        return [self.lan.hosts[i] for i in side]

    async def _partition(self, fault: Fault) -> str:
        async with self._net:
            if self.seq >= TOO_LATE:
                return ""
            at = self.seq
            self.lan.split([self._hosts(side) for side in fault.sides])
            await asyncio.sleep(fault.hold)
            self.lan.unsplit()
            return f"split at seq {at}, healed at seq {self.seq}"

    async def _race(self, fault: Fault) -> str:
        small = fault.sides[-1]
        names = {n for i in small if (n := self.peers[i].seat_name) is not None}
        fired = asyncio.Event()
        where: list[str] = []

        def watch(peer: Peer, line: str) -> None:
            m = _DRAW.match(line)
            if not fired.is_set() and m and int(m.group(1)) >= fault.at and m.group(2) in names:
                self.lan.split([self._hosts(side) for side in fault.sides])  # at once: before the bot plays
                where.append(f"seq {m.group(1)} (a draw for {m.group(2)}, seen by {peer.name})")
                fired.set()

        async with self._net:
            if self.seq >= TOO_LATE:
                return ""
            if not names:
                return "not set off (no seat on the small side)"
            self._draw_watch = watch
            try:
                ok = await self._until(lambda: fired.is_set() or not self._playing(), 60)
            finally:
                self._draw_watch = None
            if not ok or not fired.is_set():
                return f"not set off (no draw for {', '.join(sorted(names))} came)"
            await asyncio.sleep(fault.hold)
            self.lan.unsplit()
            return f"split right after {where[0]}, healed at seq {self.seq}"

    async def _flap(self, fault: Fault) -> str:
        host = self.lan.hosts[fault.peers[0]]
        async with self._net:
            if self.seq >= TOO_LATE:
                return ""
            for down, up in fault.cycles:
                self.lan.cut(host)
                await asyncio.sleep(down)
                self.lan.mend(host)
                await asyncio.sleep(up)
        return f"flapped {len(fault.cycles)} times, ended at seq {self.seq}"

    async def _loss(self, fault: Fault) -> str:
        hit = [i for i in fault.peers if i not in self._impaired]
        how = ""
        for i in hit:
            self._impaired.add(i)
            try:
                how = self.lan.impair(self.lan.hosts[i])
            except netns.LanError as exc:  # no tc here, or neither queue: the kind is left out
                with contextlib.suppress(netns.LanError):
                    self.lan.repair(self.lan.hosts[i])
                self._impaired.discard(i)
                return f"not set off: {exc}"
        await asyncio.sleep(fault.hold)
        for i in hit:
            self.lan.repair(self.lan.hosts[i])
            self._impaired.discard(i)
        return f"{how} on {','.join(map(str, hit))}" if hit else "nobody hit: already lossy"

    async def _kill(self, fault: Fault) -> str:
        return await self._down(fault, "killed")

    async def _goodbye(self, fault: Fault) -> str:
        return await self._down(fault, "said goodbye")

    async def _down(self, fault: Fault, how: str) -> str:
        """``kill -9`` (*how* ``killed``) or SIGTERM (a goodbye) of a peer, held, then its restart; at a
        table of two, during a long hold (:data:`GO_ON_HOLD`) the other player must go on: its laptop plays
        the seat with a bot (it prints the seat's moves, or a handover), unless the game ended."""
        peer = self.peers[fault.peers[0]]
        async with peer.lock:
            if not peer.running:
                return f"{peer.name} was not running"
            if not peer.spectator and peer.save is None:
                return f"{peer.name} not {how}: it has no save yet to resume"
            at = self.seq
            # the one left: the other players running as this one goes down (one down itself then, by a
            # fault of its own, is no one left: it may come back too late in the hold to take a seat over)
            others = [p for p in self.peers if p is not peer and not p.spectator and p.running]
            heard = {p.name: len(p.lines) for p in others}
            since = {p.name: p.seq for p in others}  # what each had printed: a later move is its going on
            if how == "killed":
                await peer.kill()
            else:
                await peer.goodbye()
            await asyncio.sleep(fault.hold)
            seat = peer.seat_name
            if (self.schedule.players == 2 and seat is not None and fault.hold >= GO_ON_HOLD
                    and others and all(p.running for p in others)):
                lines = [line for p in others for line in p.lines[heard[p.name]:]]
                # the seat's moves went on (played by a bot from the other laptop), or the game ended
                played = [line for p in others for line in p.lines[heard[p.name]:]
                          if (m := _PROGRESS.match(line)) and line.startswith("move ")
                          and int(m.group(1)) > since[p.name] and (f" {seat}: " in line or " handover " in line)]
                if not played and "Final scores:" not in lines:
                    said = [line for p in others for line in p.lines[heard[p.name]:]
                            if not line.startswith(("move ", "draw "))]
                    self.stuck.append(f"{', '.join(p.name for p in others)} did not give {seat}'s seat to a bot in the "
                                      f"{fault.hold:g} s {peer.name} was down from seq {at}; said: {said[-3:]}")
            await peer.restart()
            return f"{how} {peer.name} at seq {at} (it held {peer.seq}), restarted at seq {self.seq}"

    async def _pause(self, fault: Fault) -> str:
        peer = self.peers[fault.peers[0]]
        async with peer.lock:
            if not peer.running:
                return f"{peer.name} was not running"
            peer.signal(signal.SIGSTOP)
            self._paused.add(peer.index)
            await asyncio.sleep(fault.hold)
            peer.signal(signal.SIGCONT)
            self._paused.discard(peer.index)
            return f"paused {peer.name}"

    def heal(self) -> None:
        """Every route and link back, no loss, no paused process."""
        self.lan.unsplit()
        for i, host in enumerate(self.lan.hosts):
            self.lan.mend(host)
            if i in self._impaired:
                self.lan.repair(host)
        self._impaired.clear()
        for peer in self.peers:
            peer.signal(signal.SIGCONT)

    # ------------------------------------------------------------------ the end

    async def finish(self) -> None:
        """Waits for every peer to end, while entries keep coming (at most :data:`STALL` s without
        one, more with long clocks); then asks the rest to quit (SIGTERM: their saves are closed whole), then kills them."""
        self.last_progress = time.monotonic()
        clocks = self.schedule.clocks or REAL_CLOCKS
        stall = max(STALL, 2 * max(clocks.backoff) + clocks.dead)

        def done_or_stuck() -> bool:
            return not any(p.running for p in self.peers) or time.monotonic() - self.last_progress > stall

        await self._until(done_or_stuck, RUN_SECONDS)
        for peer in self.peers:
            peer.signal(signal.SIGTERM)
        for peer in self.peers:
            if not await peer.wait(10):
                await peer.kill()

    async def reap(self) -> None:
        """Waits (a bounded while) for the output of every process, once they are killed."""
        for peer in self.peers:
            await peer.wait(5)

    async def play(self) -> Verdict:
        """The whole schedule: table, faults, heal, end, check."""
        snapshots = asyncio.ensure_future(self._snapshots())
        try:
            await self.start_table()
            await asyncio.gather(*(self._fault(f) for f in self.schedule.faults))
            self.heal()
            await self.finish()
        finally:
            snapshots.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await snapshots
        return check([p.record() for p in self.peers], stuck=self.stuck)


class HarnessError(RuntimeError):
    """The run could not be made (no table, no namespace): not the table's fault."""


async def run_schedule(schedule: Schedule, tmp: Path | None = None) -> Outcome:
    """Plays *schedule* on a Lan of its own (made and removed here) and judges it. A harness failure
    (namespaces, a table that never opened) is the verdict ``harness``."""
    began = time.monotonic()
    made = tmp is None
    where = Path(tempfile.mkdtemp(prefix="nemesis-")) if tmp is None else tmp
    lan = netns.Lan(schedule.peers)
    run: Run | None = None
    left: list[str] = []
    try:
        lan.create()
        run = Run(schedule, lan, where)
        verdict = await asyncio.wait_for(run.play(), RUN_SECONDS + 60)
    except (netns.LanError, HarnessError, TimeoutError, OSError) as exc:
        verdict = Verdict("harness", [f"{type(exc).__name__}: {exc}"])
    finally:
        await lan.stop_processes()
        left = lan.destroy()
        if run is not None:
            await run.reap()
            for peer in run.peers if not made else ():
                (where / f"{peer.name}.out").write_text("\n".join(peer.lines) + "\n")
        if made:
            shutil.rmtree(where, ignore_errors=True)
    return Outcome(schedule, verdict, run.applied if run else [], time.monotonic() - began, left)


async def run_many(
    schedules: Sequence[Schedule], jobs: int, on_done: Callable[[Outcome], None] | None = None,
    keep: Path | None = None,
) -> list[Outcome]:
    """Plays *schedules*, at most *jobs* at once, each on its own Lan; calls *on_done* as each ends.
    With *keep*, each schedule's peers' folders (saves, side files) and output (``NAME.out``) are
    kept in a folder of it named after the schedule."""
    slots = asyncio.Semaphore(jobs)
    outcomes: list[Outcome] = []

    async def one(schedule: Schedule) -> None:
        async with slots:
            where = keep / schedule.name.replace(" ", "-") if keep is not None else None
            if where is not None:
                where.mkdir(parents=True, exist_ok=True)
            outcome = await run_schedule(schedule, where)
        outcomes.append(outcome)
        if on_done is not None:
            on_done(outcome)

    async with asyncio.TaskGroup() as group:  # cancelled, it waits for every Lan to be removed
        for schedule in schedules:
            group.create_task(one(schedule))
    order = {id(s): i for i, s in enumerate(schedules)}
    return sorted(outcomes, key=lambda o: order[id(o.schedule)])


# ---------------------------------------------------------------------- the script


def counts(outcomes: Sequence[Outcome]) -> str:
    """The counts per verdict and per fault kind, and the seeds that failed."""
    lines = [f"{len(outcomes)} schedules"]
    verdicts = Counter(o.verdict.kind for o in outcomes)
    lines.append("verdicts: " + ", ".join(f"{k} {verdicts[k]}" for k in VERDICTS if verdicts[k]))
    lines.append("fault kind: schedules with it (of them not ok)")
    for kind in FAULT_KINDS:
        having = [o for o in outcomes if kind in o.schedule.kinds()]
        bad = sum(not o.verdict.ok for o in having)
        lines.append(f"  {kind:<10} {len(having):>4} ({bad} not ok)")
    failed = [o for o in outcomes if not o.verdict.ok]
    if failed:
        lines.append("not ok: " + ", ".join(f"{o.schedule.name} ({o.verdict.kind})" for o in failed))
    seconds = [o.seconds for o in outcomes]
    if seconds:
        lines.append(f"seconds a schedule: median {sorted(seconds)[len(seconds) // 2]:.0f}, max {max(seconds):.0f}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tests.net.nemesis``: runs schedules and prints the counts; 0 when all are ok."""
    parser = argparse.ArgumentParser(prog="python -m tests.net.nemesis", description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=200, help="random schedules to run (default 200)")
    parser.add_argument("--first", type=int, default=1, help="the first seed (default 1)")
    parser.add_argument("--seed", type=int, action="append", help="run this seed only (repeatable)")
    parser.add_argument("--two-seats", type=int, default=40, metavar="N",
                        help="two-seat schedules to run (default 40), seeds 1 to N")
    parser.add_argument("--two-seat", type=int, action="append", metavar="S",
                        help="run this two-seat seed only (repeatable)")
    parser.add_argument("--race", action="store_true", help="run the fixed race schedule too")
    parser.add_argument("--real-clocks", action="store_true",
                        help="the race with wire.md's own clocks and away rule (30 s), not the short ones")
    parser.add_argument("--jobs", type=int, default=6, help="schedules at once (default 6)")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="keep every peer's folder under DIR")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every schedule's faults and verdict")
    args = parser.parse_args(argv)
    reason = netns.unavailable_reason()
    if reason:
        print(f"nemesis: {reason}", file=sys.stderr)
        return 2
    netns.remove_stale()
    replay = args.seed or args.two_seat
    seeds = args.seed or ([] if replay else list(range(args.first, args.first + args.n)))
    two_seats = args.two_seat or ([] if replay else list(range(1, args.two_seats + 1)))
    race = race_schedule(None if args.real_clocks else SHORT_CLOCKS)
    schedules = (([race] if args.race else []) + [generate(s) for s in seeds]
                 + [two_seat_schedule(s) for s in two_seats])
    done: list[Outcome] = []
    began = time.monotonic()

    def progress(outcome: Outcome) -> None:
        done.append(outcome)
        bad = sum(not o.verdict.ok for o in done)
        print(f"[{len(done)}/{len(schedules)} {time.monotonic() - began:.0f} s, {bad} not ok] "
              f"{outcome.schedule.name}: {outcome.verdict.kind} ({outcome.seconds:.0f} s)", flush=True)
        if args.verbose or not outcome.verdict.ok:
            print(outcome.describe(), flush=True)

    outcomes = asyncio.run(run_many(schedules, args.jobs, progress, args.keep))
    print(counts(outcomes))
    print(f"{time.monotonic() - began:.0f} s in all")
    return 0 if all(o.verdict.ok for o in outcomes) else 1


if __name__ == "__main__":
    raise SystemExit(main())
