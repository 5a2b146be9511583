"""The commit rule (protocol/wire.md §5.9) as tables of cases, values in and values out: which sets of
seats are a quorum, which seq the votes held commit, and what a replica does with a batch that parts
from its log: it replaces its pending entries when the votes commit the batch (the entries replaced
are set aside, never lost), ignores it otherwise, and stops when two entries for one seq are both
committed (a seat broke the rule)."""

from __future__ import annotations

import itertools

import pytest

from carcnet.engine import HandOver, Phase
from carcnet.log import LogEntry
from carcnet.net import Ack, SignedEntry, Vote
from carcnet.net.quorum import Votes, is_quorum
from carcnet.net.signing import tie_order
from carcnet.net.replica import MemoryLog
from carcnet.net.signing import sign_ack

from .loopback import GAME, make_header, seat_key, sign
from .test_replica import extend, replay, replica

#: A three-seat game of 8 tiles dealt in this order, played with each first legal move: seat 2's own
#: moves from seq 5 on (what seat 2's laptop played while it was cut off from seats 0 and 1).
THREE = make_header(3, order=tuple("EUVKDLBJ"))
LOG = extend(THREE, [], count=100)
#: The branch of seats 0 and 1: at seq 5 they handed seat 2 over to seat 0's bot, which played on.
TAKEN = extend(THREE, LOG[:4], [HandOver(2, "greedy", 0)], count=4)
KEYS = THREE.keys


def vote(seat: int, log: list[SignedEntry], seq: int) -> Vote:
    """Seat *seat*'s signed vote for *log* up to *seq*."""
    digest = log[seq - 1].entry.digest
    return Vote(seat, seq, digest, sign_ack(seat_key(seat), GAME, seat, seq, digest))


# ---------------------------------------------------------------------- quorums


@pytest.mark.parametrize(
    ("seats", "players", "tie", "quorum"),
    [
        pytest.param({0, 1}, 3, 2, True, id="two of three: more than half"),
        pytest.param({2}, 3, 2, False, id="one of three, even the tie seat"),
        pytest.param({0, 1}, 4, 0, True, id="half of four with the tie seat"),
        pytest.param({2, 3}, 4, 0, False, id="the other half of four"),
        pytest.param({0, 1}, 4, None, False, id="half of four before the tie order is drawn"),
        pytest.param({1}, 2, 1, False, id="the tie seat of two alone"),
        pytest.param({0}, 2, 1, False, id="the other seat of two alone"),
        pytest.param({0, 1}, 2, None, True, id="both seats of two"),
        pytest.param({0, 1, 2}, 6, 5, False, id="three of six without the tie seat"),
        pytest.param({3, 4, 5}, 6, 5, True, id="three of six with the tie seat"),
        pytest.param({0, 1, 2}, 5, 4, True, id="three of five"),
        pytest.param({3, 4}, 5, 4, False, id="two of five"),
    ],
)
def test_quorums(seats, players, tie, quorum):
    assert is_quorum(seats, players=players, tie=tie) is quorum


def test_any_two_quorums_of_up_to_six_seats_share_a_seat():
    for players in range(2, 7):
        for tie in (None, *range(players)):
            sets = [{s for s in range(players) if mask >> s & 1} for mask in range(1 << players)]
            quorums = [q for q in sets if is_quorum(q, players=players, tie=tie)]
            assert all(a & b for a in quorums for b in quorums), (players, tie)


# ---------------------------------------------------------------------- the commit index


def digests(log: list[SignedEntry]) -> list[bytes]:
    return replay(THREE, log).digests


@pytest.mark.parametrize(
    ("votes", "committed"),
    [
        pytest.param([], 0, id="no votes: nothing committed"),
        pytest.param([(0, LOG, 6)], 0, id="one seat of three"),
        pytest.param([(0, LOG, 6), (1, LOG, 4)], 4, id="two seats: up to the shorter vote"),
        pytest.param([(0, LOG, 6), (1, LOG, 6), (2, LOG, 2)], 6, id="three seats: the second-highest"),
        pytest.param([(0, LOG, 6), (1, TAKEN, 7)], 0, id="a vote for another branch does not count"),
        pytest.param([(0, TAKEN, 6), (1, TAKEN, 7)], 0, id="two votes for another branch: none for ours"),
        pytest.param([(0, LOG, 4), (1, LOG, 4), (0, TAKEN, 6), (1, TAKEN, 7)], 4,
                     id="older votes for the common part still count"),
    ],
)
def test_the_commit_index_of_a_branch(votes, committed):
    held = Votes(GAME, KEYS)
    for seat, log, seq in votes:
        assert held.take(vote(seat, log, seq)) == "news"
    assert held.committed(digests(LOG)) == committed


def test_a_vote_is_checked_once_and_a_forged_one_is_bad():
    held = Votes(GAME, KEYS)
    good = vote(0, LOG, 3)
    assert (held.take(good), held.take(good)) == ("news", "held")
    forged = Vote(1, 3, good.digest, good.sig)  # seat 0's signature in seat 1's name
    assert held.take(forged) == "bad"
    assert held.take(Vote(5, 3, good.digest, good.sig)) == "bad"  # a seat the game does not have


def test_two_laptops_leaving_at_once_one_giving_to_the_other_leave_both_votes_with_the_third():
    """Seat 0 gives its vote to seat 1 while seat 1, not having heard it, gives its own to seat 2 (wire.md
    §5.9 "Two seats, and leaving"): seat 1 gave with its own every vote it holds, so from the later of
    the two gives on, seat 0's vote is seat 2's too; seat 2 alone is then a quorum of three. A peer that
    heard only seat 0's give counts seat 0's vote with seat 1, which votes no more: fewer votes, never
    more."""
    at, digest = 4, LOG[3].entry.digest
    gave0 = Votes(GAME, KEYS).give({0: seat_key(0)}, [0], 1, at - 1, LOG[2].entry.digest)
    gave1 = Votes(GAME, KEYS).give({1: seat_key(1)}, [1], 2, at, digest)
    third = Votes(GAME, KEYS)
    assert third.take_give(gave0[0]) == "news"
    assert third.holder(0, digests(LOG)) == 1
    assert third.take_give(gave1[0]) == "news"
    assert third.chain(0, digests(LOG)) == [(0, 0), (at - 1, 1), (at, 2)]
    assert third.holder(0, digests(LOG)) == third.holder(1, digests(LOG)) == 2
    assert third.holder(0, digests(LOG), at) == 1  # before seat 1's give, seat 0's vote was seat 1's
    third.cast({2: seat_key(2)}, 6, LOG[5].entry.digest)
    assert third.committed(digests(LOG)) == 6
    # on a branch where seat 1's give does not hold, seat 0's vote stays with seat 1
    other = [*digests(LOG)[:at], b"\x01" * 32]
    assert third.holder(0, other) == 1


def test_cast_votes_once_per_end_of_the_log():
    held = Votes(GAME, KEYS)
    keys = {0: seat_key(0), 2: seat_key(2)}
    first = held.cast(keys, 4, LOG[3].entry.digest)
    assert isinstance(first, Ack) and [v.seat for v in first.votes] == [0, 2]
    assert held.cast(keys, 4, LOG[3].entry.digest) is None  # nothing new to say
    assert held.committed(digests(LOG)) == 4  # its own votes count: two seats of three


# ---------------------------------------------------------------------- healing a split


def holding_own(votes: list[tuple[int, list[SignedEntry], int]]):
    """Seat 2's replica: :data:`LOG` up to seq 8, with the votes of seats 0 and 1 for seq 4 (before the
    split) and *votes* taken."""
    copy = replica(THREE, LOG[:8])
    before = [(0, LOG, 4), (1, LOG, 4)]
    _news, bad = copy.take_votes([vote(seat, log, seq) for seat, log, seq in before + votes])
    assert not bad
    return copy


def test_a_committed_branch_replaces_pending_entries_which_are_set_aside():
    copy = holding_own([(0, TAKEN, 9), (1, TAKEN, 9)])
    assert copy.commit_index == 4  # the common part only: seat 2's own moves from seq 5 are pending
    taken = copy.take(TAKEN[4:9], 5)
    assert taken.set_aside is not None and taken.stop is None and taken.refusal is None
    assert copy.entries == TAKEN and copy.game.digest == replay(THREE, TAKEN).digest
    aside = taken.set_aside
    assert (aside.seq, aside.entries, aside.instead, aside.voters) == (5, tuple(LOG[4:8]), TAKEN[4], (0, 1))
    assert copy.persistence.entries == TAKEN and copy.persistence.aside == LOG[4:8]
    assert copy.commit_index == 9 and copy.aside == [aside]


@pytest.mark.parametrize(
    "votes",
    [
        pytest.param([], id="no votes"),
        pytest.param([(0, TAKEN, 9)], id="one seat of three"),
        pytest.param([(0, TAKEN, 9), (1, LOG, 8)], id="seat 0 for the other branch, seat 1 for ours"),
    ],
)
def test_a_branch_the_votes_do_not_commit_is_ignored(votes):
    copy = holding_own(votes)
    taken = copy.take(TAKEN[:9], 1)
    assert (taken.set_aside, taken.stop, taken.refusal, taken.appended) == (None, None, None, 0)
    assert copy.entries == LOG[:8] and copy.persistence.entries == LOG[:8]


def test_two_committed_entries_for_one_seq_stop_the_game():
    copy = holding_own([(0, TAKEN, 9), (1, TAKEN, 9)])
    copy.commit_index = 8  # as if this peer had seen its own branch committed (a seat broke the rule)
    taken = copy.take(TAKEN[4:9], 5)
    assert taken.stop is not None and taken.stop.code == "conflict" and taken.set_aside is None
    assert copy.entries == LOG[:8]


def test_after_the_heal_the_pending_side_votes_for_the_committed_branch():
    copy = holding_own([(0, TAKEN, 9), (1, TAKEN, 9)])
    copy.take(TAKEN[4:9], 5)
    [ack] = copy.vote({2: seat_key(2)})
    assert ack.votes == (vote(2, TAKEN, 9),)


def test_an_entry_of_another_branch_alone_asks_for_the_entries_from_the_commit_index():
    copy = holding_own([(0, TAKEN, 9), (1, TAKEN, 9)])
    taken = copy.take([TAKEN[8]], 9)  # built on TAKEN's seq 8, which this replica holds otherwise
    assert (taken.want, taken.stop, taken.refusal, taken.appended) == (5, None, None, 0)


def test_a_draw_at_the_end_is_not_voted_for():
    from .test_replica import TABLE

    log = extend(TABLE, [], count=1)  # the first entry of a table-draw game is a draw
    copy = replica(TABLE, log)
    assert copy.vote_seq == 0 and copy.vote({0: seat_key(0)}) == []
    more = extend(TABLE, log, count=1)
    copy.take(more[1:], 2)
    assert copy.vote_seq == 2


def test_a_memory_log_keeps_what_is_set_aside():
    log = MemoryLog(LOG[:6])
    assert log.on_set_aside(5) is None and log.entries == LOG[:4] and log.aside == LOG[4:6]


def test_a_handover_and_the_seats_own_move_at_one_seq_are_no_proof_of_cheating():
    # different signers (the taker's key, the seat's own): a split, not a seat that signed twice
    copy = holding_own([])
    taken = copy.take(TAKEN[4:9], 5)
    assert taken.stop is None and taken.refusal is None
    entry: LogEntry = LOG[4].entry
    assert sign(entry, seat_key(entry.seat)) == LOG[4]


# ---------------------------------------------------------------------- three sessions, split and healed


def test_a_split_heals_into_one_log_and_the_small_side_sets_its_move_aside():
    """The race of a handover with the seat's own move (wire.md §5.6, §5.9): Ann and Bob hand Cleo's
    seat over while Cleo, cut off from them, plays it; when the links carry bytes again every peer holds
    one log, the handover's, and Cleo's move is set aside. Before the commit rule every link was
    refused ``conflict`` for ever and the two logs stayed apart."""
    from .loopback import MemoryWire, pump
    from .test_sync import session

    ticks = itertools.count()  # a clock a second further at every look: each change of the log is voted for

    def clock() -> float:
        return float(next(ticks))

    ann, bob, cleo = (session(name, seats=(seat,), header=THREE, clock=clock)
                      for seat, name in enumerate(("Ann", "Bob", "Cleo")))
    ab, ac, bc = MemoryWire(ann, bob), MemoryWire(ann, cleo), MemoryWire(bob, cleo)
    peers = {0: ann, 1: bob, 2: cleo}
    pump(ab, ac, bc)
    while ann.have < 4:
        mover = peers[ann.game.seat]
        mover.submit(mover.game.legal_moves()[0])
        pump(ab, ac, bc)
    assert ann.replica.commit_index == bob.replica.commit_index == cleo.replica.commit_index == 4
    # the split: only Ann and Bob's wire carries bytes
    own = cleo.submit(cleo.game.legal_moves()[0])
    ann.submit(HandOver(2, "greedy", 0))
    pump(ab)
    ann.submit(ann.game.legal_moves()[0])  # Ann's bot plays seat 2's tile
    pump(ab)
    assert ann.replica.commit_index == bob.replica.commit_index == 6  # two seats of three
    assert cleo.replica.commit_index == 4 and cleo.have == 5  # Cleo's move is pending
    # the heal
    pump(ab, ac, bc)
    assert ann.entries == bob.entries == cleo.entries and len(ann.entries) == 6
    assert not (ann.stopped or bob.stopped or cleo.stopped)
    assert [record.entries for record in cleo.replica.aside] == [(own,)]
    assert ann.replica.aside == bob.replica.aside == []
    assert cleo.replica.commit_index == 6 and isinstance(cleo.entries[4].entry.move, HandOver)
    # the table goes on: Ann's bot plays seat 2's deploy, and it commits everywhere
    ann.submit(ann.game.legal_moves()[0])
    pump(ab, ac, bc)
    assert ann.entries == cleo.entries and cleo.replica.commit_index == 7


def test_a_burst_of_entries_is_voted_for_once_and_the_vote_due_goes_out_with_the_heartbeat():
    """wire.md §5.9: at most one vote every VOTE_EVERY seconds; the vote a burst leaves due is sent with
    the next heartbeat, so the last entry is committed all the same."""
    from carcnet.net.routing import VOTE_EVERY

    from .loopback import MemoryWire, pump
    from .test_sync import session

    now = [0.0]
    ann, bob = (session(name, seats=(seat,), header=THREE, clock=lambda: now[0])
                for seat, name in enumerate(("Ann", "Bob", "Cleo")) if seat < 2)
    cleo = session("Cleo", seats=(2,), header=THREE, clock=lambda: now[0])
    wires = MemoryWire(ann, bob), MemoryWire(ann, cleo), MemoryWire(bob, cleo)
    peers = {0: ann, 1: bob, 2: cleo}
    pump(*wires)
    while ann.have < 6:  # six entries in no time: each peer votes once, for its first entry
        mover = peers[ann.game.seat]
        mover.submit(mover.game.legal_moves()[0])
        pump(*wires)
    assert ann.replica.commit_index < 6
    now[0] += VOTE_EVERY
    for session_ in (ann, bob, cleo):
        session_.connections.tell_all()  # each peer's heartbeat, with its vote due
    pump(*wires)
    assert ann.replica.commit_index == bob.replica.commit_index == cleo.replica.commit_index == 6


def test_a_want_that_reaches_further_back_is_answered_once_more_at_the_same_have():
    """wire.md §4.4: one answer per entry held, and one more for a want that starts before the last
    one answered (a peer that has just seen where its pending entries part from the committed branch)."""
    from carcnet.net import Want

    from .loopback import MemoryWire
    from .test_sync import play, session

    full = session("Full", seats=(0, 1))
    asker = session("Asker")
    wire = MemoryWire(asker, full)
    wire.pump()
    play(full, 6)
    wire.pump()
    assert asker.have == full.have == 6
    served: list[int] = []
    original = full._router.send_from
    full._router.send_from = lambda start, *links: served.append(start) or original(start, *links)
    for start in (6, 2, 1, 1):
        wire.a.send(Want(from_seq=start))
        wire.pump()
    assert served == [6, 2]  # the catch-up, one reach back; the rest ignored at this have
    assert wire.b.wants_ignored == 2


def test_a_branch_ignored_for_want_of_votes_is_taken_when_they_come():
    """wire.md §5.9: the sender may have nothing new to send once its votes arrive, so the batch of
    another branch ignored for want of them is looked at again."""
    copy = holding_own([])
    assert copy.take(TAKEN[4:9], 5).set_aside is None and copy.entries == LOG[:8]
    assert copy.retry_branch() is None  # still no votes
    copy.take_votes([vote(0, TAKEN, 9), vote(1, TAKEN, 9)])
    taken = copy.retry_branch()
    assert taken is not None and taken.set_aside is not None and copy.entries == TAKEN
    assert copy.retry_branch() is None  # taken once


def test_the_certificate_of_the_commit_index_commits_a_branch_the_newest_votes_do_not():
    """wire.md §4.11, §5.9 (a three-way heal in the nemesis stayed two logs for ever): Ann holds the
    table's branch, committed by her vote and Bob's; Bob has moved on past what Ann holds and voted
    four times since, so Ann's newest vote of his covers nothing Ann or Cleo can place. Cleo, left on
    her own branch and in touch with Ann only, learns nothing from the newest votes; the certificate
    Ann kept when her commit index grew commits Ann's branch at Cleo, who takes it."""
    ann = replica(THREE, TAKEN)
    ann.take_votes([vote(0, TAKEN, 9), vote(1, TAKEN, 9)])
    assert ann.commit_index == 9
    ahead = extend(THREE, TAKEN, count=6)  # Bob's log, ahead of Ann's
    ann.take_votes([vote(1, ahead, seq) for seq in range(12, 16)])
    newest = ann.votes.newest()
    assert newest is not None and [(v.seat, v.seq) for v in newest.votes] == [(0, 9), (1, 15)]
    assert ann.certificate is not None and [(v.seat, v.seq) for v in ann.certificate.votes] == [(0, 9), (1, 9)]
    cleo = holding_own([])
    cleo.take_votes(newest.votes)
    assert cleo.take(TAKEN[4:9], 5).set_aside is None and cleo.entries == LOG[:8]  # not committed here
    cleo.take_votes(ann.certificate.votes)
    taken = cleo.retry_branch()
    assert taken is not None and taken.set_aside is not None and cleo.entries == TAKEN
    assert cleo.commit_index == 9 and cleo.certificate == ann.certificate


# ---------------------------------------------------------------------- the tie-break (wire.md §5.9)

FIVE = make_header(5, order=tuple("EUVKDLBJ"))
#: The tie-break's first place where no tie order applies (votes counted without a log): seat 0.
FIRST5 = 0
#: The other seats of five, in seat order: the first seat's first partner is OTHERS[0].
OTHERS = [seat for seat in range(5) if seat != FIRST5]
#: The tie seat of a replica of FIVE (a game without table draws: its order is drawn from the setup).
TIE5 = tie_order(GAME, 5, replay(FIVE, []).digests[0])[0]
TIE_OTHERS = [seat for seat in range(5) if seat != TIE5]


def first(seat: int, seq: int, digest: bytes) -> Vote:
    return Vote(seat, seq, digest, sign_ack(seat_key(seat), GAME, seat, seq, digest))


def tally(groups: list[list[int]], seq: int = 5, held: Votes | None = None) -> Votes:
    """Votes of a five-seat game where the seats of ``groups[i]`` voted first at *seq* for digest *i*."""
    votes = held or Votes(GAME, FIVE.keys)
    for index, seats in enumerate(groups):
        for seat in seats:
            assert votes.take(first(seat, seq, bytes([index]) * 32)) == "news"
    return votes


@pytest.mark.parametrize(
    ("groups", "winner"),
    [
        pytest.param([[FIRST5, OTHERS[0]], OTHERS[1:3], OTHERS[3:]], 0,
                     id="2|2|1: the pair with the first seat"),
        pytest.param([OTHERS[1:3], [FIRST5, OTHERS[0]], OTHERS[3:]], 1,
                     id="2|2|1: the pair with the first seat, listed second"),
        pytest.param([[FIRST5], OTHERS[0:2], [OTHERS[2]], [OTHERS[3]]], 1,
                     id="2|1|1|1: the most votes before the first seat"),
        pytest.param([[FIRST5, *OTHERS[:2]], OTHERS[2:]], None, id="3|2: a quorum, the commit rule decides"),
        pytest.param([[FIRST5, OTHERS[0]], OTHERS[1:3]], None, id="a seat has not voted there: wait"),
    ],
)
def test_the_tie_break_when_the_first_votes_leave_no_quorum_possible(groups, winner):
    """wire.md §5.9 "The tie-break": only with every seat's first vote at the seq, and no quorum among
    them, does a peer choose, and every peer that holds those votes chooses the same entry."""
    votes = tally(groups)
    assert votes.winner(5) == (None if winner is None else bytes([winner]) * 32)
    assert votes.winner(6) is None  # nobody voted there


def test_the_tie_break_keeps_each_seats_first_vote_and_a_switch_only_adds_to_the_winner():
    """A seat that switched to the winner votes for it at the seq again: a peer that held its first vote
    keeps it, and a peer that took the second one first chooses the same entry (it only gains a vote)."""
    groups = [[FIRST5, OTHERS[0]], OTHERS[1:3], OTHERS[3:]]
    seen_first = tally(groups)
    assert seen_first.winner(5) == bytes([0]) * 32
    switched = first(OTHERS[1], 5, bytes([0]) * 32)  # seat OTHERS[1] follows the tie-break
    assert seen_first.take(switched) == "news" and seen_first.winner(5) == bytes([0]) * 32
    seen_switch = Votes(GAME, FIVE.keys)
    assert seen_switch.take(switched) == "news"
    tally([[FIRST5, OTHERS[0]], [OTHERS[2]], OTHERS[3:]], held=seen_switch)
    on = {i: [b""] * 5 + [bytes([i]) * 32] for i in range(3)}  # a branch whose entry 5 has digest i
    assert seen_switch.winner(5) is None  # three votes for the winner: a quorum, committed
    assert seen_switch.decides(on[0], 5) and not seen_switch.decides(on[1], 5)
    assert seen_first.decides(on[0], 5) and not seen_first.decides(on[1], 5) and not seen_first.decides(on[2], 5)
    seen_first.raise_floor(5)  # committed here: nothing left to choose
    assert seen_first.winner(5) is None


def test_a_replica_on_a_losing_branch_takes_the_branch_the_tie_break_chooses():
    """Three entries for seq 5 of a five-seat game: two handovers of the seat to play, by different
    peers, and the seat's own move, voted 2|2|1. No quorum can ever form; the replica of a seat on a
    losing branch, once it holds every seat's first vote there and the entries voted for (each from
    its own sender: it keeps a batch per peer), sets its entries aside and takes the winner's branch,
    as it takes a committed one: the seat's own move, which shows the seat present where the two
    handovers say it was away."""
    base = extend(FIVE, [], count=4)
    seat = replay(FIVE, base).seat
    takers = [s for s in range(5) if s != seat]
    own = extend(FIVE, base, count=3)  # the seat's own move at 5, and on
    by = [extend(FIVE, base, [HandOver(seat, "greedy", taker)], count=2) for taker in takers[:2]]
    branches = [by[0], by[1], own]
    digests_at = [branch[4].entry.digest for branch in branches]
    voters = [[TIE5, TIE_OTHERS[0]], TIE_OTHERS[1:3], TIE_OTHERS[3:]]
    winner, loser = 0, 1  # the pair holding the tie seat wins
    copy = replica(FIVE, branches[loser])
    copy.note_parting(5)
    assert copy.partings == {5}
    before = copy.entries[:]
    assert copy.take(branches[winner][4:], 5, source=b"winner").set_aside is None and copy.entries == before
    copy.take_votes([first(s, 5, digests_at[i]) for i, group in enumerate(voters) for s in group[:1]])
    assert copy.retry_branch() is None  # some seats' first votes are missing still
    copy.take_votes([first(s, 5, digests_at[i]) for i, group in enumerate(voters) for s in group[1:]])
    assert copy.retry_branch() is None  # a seat voted for an entry not seen here: it may be stale
    copy.take_votes([first(s, 5, digests_at[2]) for s in voters[2]])
    taken = copy.take(branches[2][4:], 5, source=b"own")  # the third branch, from its peer
    # the seat's own move shows it present at seq 5: both handovers of it are passed over, and the
    # one entry left wins, whatever the count of votes
    assert taken.set_aside is not None and copy.entries == branches[2]
    assert taken.set_aside.entries == tuple(before[4:])


def test_a_three_way_split_heals_into_one_log_by_the_tie_break():
    """Five peers split 2 | 2 | 1 at the turn of the lone seat: each pair hands that seat over to a bot
    of its own while the lone seat plays its move; three entries for one seq, voted 2 | 2 | 1, of which
    the commit rule alone can never commit one (the table stalled for ever: the nemesis, seed 6). After
    the heal the seats vote where the branches part, every peer chooses the same entry, and the five
    logs become one: the lone seat's own move, which shows it was there (a handover of a seat present
    never wins the tie-break)."""
    from carcnet.engine import Phase

    from .loopback import MemoryWire, pump
    from .test_sync import session

    now = [0.0]
    peers = [session(f"P{seat}", seats=(seat,), header=FIVE, clock=lambda: now[0]) for seat in range(5)]
    wires = {(a, b): MemoryWire(peers[a], peers[b]) for a in range(5) for b in range(a + 1, 5)}

    def carry(group: set[int]) -> None:
        pump(*(w for (a, b), w in wires.items() if a in group and b in group))

    def beat(group: set[int]) -> None:
        now[0] += 1.0
        for seat in group:
            peers[seat].connections.tell_all()
        carry(group)

    everyone = set(range(5))
    carry(everyone)
    while peers[0].have < 4 or peers[0].game.phase is not Phase.PLACE_TILE:
        mover = peers[peers[0].game.seat]
        mover.submit(mover.game.legal_moves()[0])
        beat(everyone)
    lone = peers[0].game.seat
    rest = [seat for seat in range(5) if seat != lone]
    pair_of_tie = [TIE5, next(s for s in rest if s != TIE5)] if TIE5 != lone else rest[:2]
    other_pair = [s for s in rest if s not in pair_of_tie][:2]
    groups = [set(pair_of_tie), set(other_pair), {lone}]
    seq = peers[0].have + 1
    for group in groups[:2]:
        taker = min(group)
        peers[taker].submit(HandOver(lone, "greedy", taker))
    peers[lone].submit(peers[lone].game.legal_moves()[0])
    for _ in range(3):
        for group in groups:
            beat(group)
    assert len({peers[s].entries[seq - 1] for s in range(5)}) == 3  # three entries for one seq
    for _ in range(30):  # the heal, heartbeat by heartbeat
        beat(everyone)
        if len({tuple(p.entries) for p in peers}) == 1:
            break
    assert len({tuple(p.entries) for p in peers}) == 1 and not any(p.stopped for p in peers)
    chosen = peers[0].entries[seq - 1].entry.move
    assert not isinstance(chosen, HandOver) and peers[0].entries[seq - 1].entry.seat == lone
    assert all(p.replica.commit_index >= seq for p in peers)


def test_a_vote_after_a_prefix_set_aside_is_no_choice_at_the_tie_break():
    """The commit model's seed 219: seats had voted at seq 5 for an entry after a prefix they set
    aside since (digest 9, which no peer holds any more); counted, it won the tie-break and the table
    waited for ever. A vote counts only for an entry known to follow this peer's log (*live*): each
    seat's oldest such vote, so a seat that voted again on this prefix counts for what it holds now."""
    stale = bytes([9]) * 32
    held = Votes(GAME, FIVE.keys)
    for seat in (FIRST5, OTHERS[1]):
        assert held.take(first(seat, 5, stale)) == "news"  # their votes on the old prefix, first
    tally([[FIRST5, OTHERS[0]], OTHERS[1:3], [OTHERS[3]]], held=held)  # then everyone's on this one
    digest = [bytes([i]) * 32 for i in range(3)]
    assert held.winner(5) == stale  # every seat's oldest vote: the entry nobody holds wins
    assert held.winner(5, set(digest)) == digest[0]  # 2 | 2 | 1: the pair with the first seat
    assert held.winner(5, {digest[0], digest[2]}) is None  # a seat's entry not seen here: wait
    assert [len(ack.votes) for ack in held.firsts(5)] == [5, 2]  # passed on: each seat's first, then second


def test_a_first_vote_pushed_out_and_taken_again_is_no_news_to_pass_on():
    """wire.md §4.11: a peer keeps 4 votes a seat; a fifth pushes the oldest out, and the peers that
    pass votes on sent it back as news, for ever (the commit model, seed 376). Taken again, a first
    vote kept is held again (it counts for the commit index) without changing what is passed on."""
    held = Votes(GAME, KEYS)
    votes = [vote(0, LOG, seq) for seq in range(1, 6)]
    for v in votes:
        assert held.take(v) == "news"
    version = held.version
    assert held.take(votes[0]) == "news" and held.version == version  # pushed out by the fifth
    assert held.take(votes[0]) == "held"


def test_a_batch_that_begins_with_entries_taken_since_is_no_second_committed_entry():
    """The commit model's seed 144: a peer kept a batch of another branch from one sender, then took a
    committed branch from another that shares the batch's first entries; the first sender's next batch
    made the kept one look like a second committed entry at its first seq, and the game stopped. It
    parts where it differs, and is judged there."""
    longer = extend(THREE, TAKEN, count=12)
    k = next(k for k in range(6, len(longer)) if replay(THREE, longer[:k]).seat == 1
             and replay(THREE, longer[:k]).phase is Phase.PLACE_TILE)
    other = extend(THREE, longer[:k], [HandOver(1, "greedy", 0)], count=2)  # parts at k + 1, signed by seat 0
    copy = holding_own([])
    assert copy.take(longer[4:k + 1], 5, source=b"x").set_aside is None  # kept: no votes for it
    copy.take_votes([vote(0, other, k + 2), vote(1, other, k + 2)])
    taken = copy.take(other[4:], 5, source=b"y")
    assert taken.set_aside is not None and copy.entries == other and copy.commit_index == k + 2
    taken = copy.take(longer[k + 1 : k + 3], k + 2, source=b"x")  # x's next batch: parts from ours at k + 1
    assert taken.stop is None and taken.refusal is None and copy.entries == other


def test_a_handover_passed_over_is_taken_once_the_votes_commit_it_without_coming_again():
    """The commit model's seed 168: a peer passed over a handover of its own seat; the others took it
    and voted, and believing this peer held it, never sent it again. The handover held back is taken
    when the votes that commit it come."""
    copy = replica(THREE, TAKEN[:4])
    copy.vet = lambda game, move: False  # it plays the seat, or was in touch with its player
    assert copy.take(TAKEN[4:6], 5).appended == 0 and copy.have == 4  # held back
    assert copy.retry_branch() is None
    copy.take_votes([vote(0, TAKEN, 6), vote(1, TAKEN, 6)])
    taken = copy.retry_branch()
    assert taken is not None and taken.appended == 2 and copy.entries == TAKEN[:6]


def _parting_at(log: list[SignedEntry], start: int) -> tuple[int, list[SignedEntry]]:
    """The first seq *k* + 1 > *start* where seat 1 is to place a tile in *log*'s game, and a branch that
    parts from *log* there: seat 1's seat handed over to seat 0's bot."""
    k = next(k for k in range(start, len(log)) if replay(THREE, log[:k]).seat == 1
             and replay(THREE, log[:k]).phase is Phase.PLACE_TILE)
    return k + 1, extend(THREE, log[:k], [HandOver(1, "greedy", 0)], count=2)


def test_a_seat_votes_at_each_seq_where_another_branch_parts_while_an_earlier_one_is_pending():
    """A cheater hands over a present seat again and again: each time its branch parts from this log
    at a later seq while the first parting is still pending here. The tie-break needs every seat's
    first vote at each of those seqs, so this peer's seats vote at each, not only at the lowest (the
    table otherwise waited for ever at the second: its own seat's first vote there never came)."""
    longer = extend(THREE, LOG[:4], count=20)
    copy = replica(THREE, longer[:20])
    copy.take_votes([vote(0, longer, 4), vote(1, longer, 4)])
    first, early = 5, extend(THREE, longer[:4], [HandOver(2, "greedy", 0)], count=2)
    assert copy.take(early[4:], first, source=b"x").parted == first
    second, late = _parting_at(longer, 8)
    assert copy.take(late[second - 1:], second, source=b"y").parted == second
    assert copy.partings == {first, second}
    acks = copy.vote({2: seat_key(2)})
    voted = {(v.seq, v.digest) for ack in acks for v in ack.votes}
    assert (first, longer[first - 1].entry.digest) in voted and (second, longer[second - 1].entry.digest) in voted
    assert {ack for ack in copy.votes_to_pass()} >= set(copy.votes.firsts(second))


def test_entries_of_this_log_after_a_kept_batch_of_their_sender_are_taken_not_kept_with_it():
    """A sender whose batch of another branch is kept here takes this log's branch and sends its next
    entries from a seq this log holds already: they follow this log, not the kept batch (their digests
    chain this log's prefix), and the new ones are taken (they were joined to the kept batch, and the
    honest peer's table waited for entries it had been sent)."""
    longer = extend(THREE, LOG[:4], count=16)
    copy = replica(THREE, longer[:10])
    copy.take_votes([vote(0, longer, 4), vote(1, longer, 4)])
    other = extend(THREE, longer[:4], [HandOver(2, "greedy", 0)], count=3)
    assert copy.take(other[4:8], 5, source=b"x").parted == 5  # kept, seqs 5 to 8
    taken = copy.take(longer[8:14], 9, source=b"x")  # the sender is on this branch now
    assert taken.refusal is None and taken.appended == 4 and copy.entries == longer[:14]


def test_batches_and_a_handover_held_back_that_part_where_the_log_is_committed_are_forgotten():
    """What parts from this log at a seq its commit index covers can never be taken: kept, it was
    looked at again at every vote, and joined to its sender's next entries."""
    copy = replica(THREE, LOG[:8])
    copy.take_votes([vote(0, LOG, 4), vote(1, LOG, 4)])
    assert copy.take(TAKEN[4:9], 5, source=b"x").parted == 5
    assert list(copy.branches)
    copy.take_votes([vote(0, LOG, 8), vote(1, LOG, 8)])
    assert copy.commit_index == 8 and not list(copy.branches) and not copy.partings


def test_the_first_votes_where_a_branch_parts_are_kept_whatever_the_votes_at_other_seqs():
    """A log that runs on while the commit index lags (a laptop alone at a table of two) holds a vote of
    its seat at every seq: those filled the 8 seqs above the commit index where first votes are kept,
    and a first vote where a branch parts later had no room (the tie-break there waited for ever)."""
    header = make_header(3)
    longer = extend(header, [], count=30)
    for partings, kept in ((frozenset(), False), (frozenset({25}), True)):
        votes = Votes(GAME, header.keys, partings=partings)
        for seq in range(5, 25):
            votes.take(vote(2, longer, seq))
        votes.take(vote(2, longer, 25))
        assert bool(votes.firsts(25)) is kept
        assert len([ack for seq in range(5, 25) for ack in votes.firsts(seq)]) == 8  # the others: 8 seqs


def test_a_new_parting_finds_room_among_partings_where_nothing_parts_any_more():
    """Nine peers' branches part from this log at nine seqs: the batches of the five kept last are
    kept (wire.md §5.9 "Healing, the budgets"), and the partings of those no longer kept make room for
    the newest, which was dropped for being the highest of nine."""
    header = make_header(3)
    longer = extend(header, [], count=120)
    points = [k for k in range(8, 110) if replay(header, longer[:k]).phase is Phase.PLACE_TILE][:9]
    assert len(points) == 9
    copy = replica(header, longer[:115])
    for i, k in enumerate(points):
        seat = replay(header, longer[:k]).seat
        branch = extend(header, longer[:k], [HandOver(seat, "greedy", (seat + 1) % 3)], count=1)
        assert copy.take(branch[k:], k + 1, source=bytes([i])).parted == k + 1
    assert points[-1] + 1 in copy.partings
    assert copy.partings == {k + 1 for k in points[-5:]}
