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
  table: its group must be more than half of the seats, or half with the lowest key; three times in
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
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable

from carcnet.bots import make_bot
from carcnet.engine import HandBack, HandOver, IllegalMoveError, Move, Phase
from carcnet.net.quorum import lowest_seat
from carcnet.net.sync import SyncSession

from .loopback import GAME, MemoryWire, make_header, pump, seat_key
from .test_sync import session
from .test_table_draws import table_header

__all__ = ["run"]

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
        self.lowest = lowest_seat(header.keys)
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
        return 2 * len(group) > self.n or (2 * len(group) == self.n and self.lowest in group)

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
            lines.append(f"{p.name}: have {p.have}, commit {r.commit_index}, parting {r.parting}, phase "
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.net.commit_model", description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=300, help="schedules to run (default 300)")
    parser.add_argument("--first", type=int, default=1, help="the first seed (default 1)")
    parser.add_argument("--seed", type=int, help="run this seed only, and say what happens")
    parser.add_argument("--draws", action="store_true", help="a game with table draws (wire.md §5.7)")
    parser.add_argument("-v", "--verbose", action="store_true", help="with --seed: each split, handover, the end")
    args = parser.parse_args(argv)
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
