"""Provides :class:`Votes`: the seats' votes a peer holds, and which entries of its log they make
committed (``protocol/wire.md`` §5.9, the commit rule). Sans-I/O: values in, values out.

The voters are the game's seats, each with one vote cast by its key in the header (a seat handed
over keeps its key with its owner, log.md §6, so the taker gains no vote), until its laptop leaves on
purpose and **gives** the vote to another seat (:class:`~carcnet.net.parts.Give`): from the give on,
the holder's votes count for it too. A **quorum** is a set of seats that is more than half of them,
or, at four or six seats, exactly half and holding the **tie seat**: the first of the table's **tie
order**, drawn from the first table draw (:func:`tie_order`), which no peer chooses. At two seats no
seat alone is a quorum. Any two quorums share a seat.

A :class:`~carcnet.net.messages.Vote` of seat *k* for (*seq*, *digest*) says that *k* holds the log
whose entry *seq* has that digest; the digest chains every earlier entry (``digest.md`` §4), so the
vote covers the whole prefix. An entry is **committed** once the seats whose votes cover it are a
quorum; the highest such seq is the **commit index**.

>>> is_quorum({0, 1}, players=4, tie=0), is_quorum({2, 3}, players=4, tie=0)
(True, False)
>>> is_quorum({1}, players=2, tie=1), is_quorum({0, 1, 2}, players=5, tie=4)
(False, True)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence, Set as AbstractSet
from typing import Literal

from carcnet.engine import Game

from .messages import Ack, SignedEntry, Vote
from .parts import Give
from .signing import SeatKey, sign_ack, sign_give, verify_ack, verify_give
from .tiebreak import Tie, tie_of

__all__ = ["FIRSTS_KEPT", "SPLIT_SEQS", "VOTES_KEPT", "Votes", "is_quorum"]

#: Votes kept per seat (the newest taken): a seat that switched to a committed entry votes for a
#: shorter prefix of another branch, which must count beside its older, longer vote (wire.md §5.9).
VOTES_KEPT = 4

#: Seqs above the commit index at which the first votes of each seat are kept (wire.md §5.9 "The
#: tie-break"): the lowest ones, where the branches of a split part.
SPLIT_SEQS = 8

#: The first votes kept of each seat at each of those seqs (wire.md §5.9 "The tie-break"): a seat that
#: set entries aside for another prefix votes again where its new log parts from another branch, and
#: its older votes there (for entries after a prefix no longer anyone's) must not hide that one.
FIRSTS_KEPT = 4


def is_quorum(seats: Collection[int], *, players: int, tie: int | None) -> bool:
    """Whether *seats* (distinct seat numbers) are a quorum of a game of *players* seats whose tie seat
    is *tie* (``None``: no tie order yet): more than half, or, at four or six seats, exactly half with
    *tie* (wire.md §5.9). At two seats no seat alone is a quorum."""
    count = len(seats)
    return 2 * count > players or (players > 2 and 2 * count == players and tie is not None and tie in seats)


class Votes:
    """The votes a peer holds: up to :data:`VOTES_KEPT` per seat, each checked against the seat's key
    once, when first taken; the votes given (:class:`~carcnet.net.parts.Give`), each checked once; and
    the table's tie order once the log holds it.

    Args:
        game: The game id (votes are bound to it).
        keys: The header's seat keys, in seat order.
        partings: The seqs where the owner knows another branch parts from its log (its replica's own
            set, read here, never changed): the first votes there are kept whatever the votes at others.

    Attributes:
        version: Grows by one whenever a vote or a give is taken (what a peer passes on changed).
        tie: The tie order (:class:`Tie`), set by the replica from its log; ``None`` until drawn.
    """

    def __init__(self, game: str, keys: Sequence[bytes], partings: AbstractSet[int] = frozenset()) -> None:
        self.game_id = game
        self.keys = tuple(keys)
        self.players = len(self.keys)
        self.tie: Tie | None = None
        self._held: dict[int, list[Vote]] = {}
        #: Per seat, its first :data:`FIRSTS_KEPT` votes taken at each of the lowest :data:`SPLIT_SEQS`
        #: seqs above :attr:`floor`, oldest first (wire.md §5.9 "The tie-break": what the seat held
        #: first there, after each prefix it held).
        self._first: dict[int, dict[int, list[Vote]]] = {}
        #: Per seat whose vote was given, per giving seat, the first give taken (wire.md §5.9 "Two
        #: seats, and leaving": a seat gives each vote it holds once, so at most one per seat and giver).
        self._gives: dict[int, dict[int, Give]] = {}
        #: Seats this peer counts as having given their vote to one of its own, without a signature:
        #: seat → (holder, seq, digest) (wire.md §5.9 "A vote withheld", two seats only; never passed on).
        self._waived: dict[int, tuple[int, int, bytes]] = {}
        self.floor = 0
        self.version = 0
        #: (wire.md §5.9 "The tie-break": a log that runs on while the commit index lags fills the lowest
        #: seqs with votes where nothing parts, and a seat's first vote at a later parting had no room.)
        self.partings = partings

    def follow(self, game: Game, entries: Sequence[SignedEntry]) -> None:
        """Keeps :attr:`tie` in step with the log *entries* whose game is *game* (wire.md §5.9 "The tie
        order", :func:`~carcnet.net.tiebreak.tie_of`)."""
        self.tie = tie_of(self.game_id, self.players, game, entries, self.tie)

    def quorum(self, seats: Collection[int], digests: Sequence[bytes], seq: int) -> bool:
        """Whether *seats* are a quorum for entry *seq* of the branch *digests* (the tie seat counts
        only where the tie order is drawn before *seq* on that branch)."""
        tie = self.tie.at(digests, seq) if self.tie is not None else None
        return is_quorum(seats, players=self.players, tie=tie)

    def take(self, vote: Vote) -> Literal["news", "held", "bad"]:
        """Takes *vote* from a peer: ``"held"`` when it is among the seat's newest kept (checked before,
        not again), or for a seq below :attr:`floor` (committed here: a replay of old votes costs no
        check; one pushed out since that is a first vote kept is kept again unchecked, ``"news"``
        without changing :attr:`version`: peers pass on only what changed, and 4 votes a seat can push
        each other out for ever),
        ``"bad"`` when its seat is not the game's or its signature does not verify under the seat's
        key (the sender is refused ``bad-signature``), else ``"news"`` (kept)."""
        if vote.seat >= self.players:
            return "bad"
        if vote in self._held.get(vote.seat, ()) or vote.seq < self.floor:
            return "held"  # (one below the commit index changes nothing: dropped unchecked)
        if vote in self._first.get(vote.seat, {}).get(vote.seq, ()):
            self._keep(vote, again=True)  # checked once, pushed out since: nothing new to pass on
            return "news"
        if not verify_ack(self.keys[vote.seat], self.game_id, vote.seat, vote.seq, vote.digest, vote.sig):
            return "bad"
        self._keep(vote)
        return "news"

    def take_give(self, give: Give) -> Literal["news", "held", "bad"]:
        """Takes a vote given (wire.md §5.9 "Two seats, and leaving"): ``"held"`` when this peer holds a
        give of that seat by that giver already (the first one counts: a giver gives once), ``"bad"``
        when a seat is not the game's or the signature does not verify under the giver's key, else
        ``"news"`` (kept). At most one per seat and giver: 36 at six seats."""
        if max(give.seat, give.by, give.to) >= self.players:
            return "bad"
        kept = self._gives.get(give.seat, {}).get(give.by)
        if kept is not None:
            return "held"
        if not verify_give(self.keys[give.by], self.game_id, give.seat, give.by, give.to, give.seq, give.digest,
                           give.sig):
            return "bad"
        self._gives.setdefault(give.seat, {})[give.by] = give
        self.version += 1
        return "news"

    def give(self, seats: Mapping[int, SeatKey], held: Collection[int], to: int, seq: int,
             digest: bytes) -> tuple[Give, ...]:
        """Gives the votes of the seats *held* (whose votes this peer's seats hold: its own, and those
        given to them) to seat *to* at (*seq*, *digest*), each signed by its holder's key in *seats*;
        kept here too. Raises KeyError when a holder's key is not in *seats*."""
        out = []
        for seat in sorted(held):
            holder = self.holder(seat, None)
            if holder == to:
                continue
            give = Give(seat, holder, to, seq, digest,
                        sign_give(seats[holder], self.game_id, seat, holder, to, seq, digest))
            self._gives.setdefault(seat, {}).setdefault(holder, give)
            out.append(give)
        if out:
            self.version += 1
        return tuple(out)

    def waive(self, seat: int, holder: int, seq: int, digest: bytes) -> bool:
        """Counts *seat*'s vote as held by *holder* from (*seq*, *digest*) on, here only (wire.md §5.9
        "A vote withheld"); returns whether it is new."""
        if seat in self._waived or self.holder(seat, None) != seat:
            return False
        self._waived[seat] = (holder, seq, digest)
        return True

    def gives(self) -> tuple[Give, ...]:
        """Every vote given held here, to pass on (seat order, then giver)."""
        return tuple(give for _, by in sorted(self._gives.items()) for _, give in sorted(by.items()))

    def _given_by(self, giver: int) -> list[Give]:
        """The gives *giver* made (each its vote for its prefix)."""
        return [by[giver] for by in self._gives.values() if giver in by]

    def holding(self, digests: Sequence[bytes], seq: int | None = None) -> set[int]:
        """The seats whose votes count for some seat at entry *seq* (``None``: past every give) of the
        branch *digests* (its holders): a seat that gave its vote at a seq, and holds no other, votes
        no more on that branch after it, and still does at that seq and before (wire.md §5.9)."""
        return {self.holder(seat, digests, seq) for seat in range(self.players)}

    def holder(self, seat: int, digests: Sequence[bytes] | None, seq: int | None = None) -> int:
        """The seat whose votes count for *seat* at entry *seq* (``None``: past every give) of the branch
        *digests* (``None``: whatever branch the gives were made on): *seat* itself, or the last seat its
        vote was given to before *seq* on that branch."""
        return self.chain(seat, digests, seq)[-1][1]

    def chain(self, seat: int, digests: Sequence[bytes] | None,
              seq: int | None = None) -> list[tuple[int, int]]:
        """(from seq, holder) pairs of *seat*'s vote on the branch *digests* (``None``: any), oldest
        first, starting with (0, *seat*): each holder's votes count for *seat* after its from seq; only
        gives made before *seq* (``None``: all). A holder that gave its own seat's vote gave with it
        every vote it holds, also one given to it that it had not heard of (two laptops leaving at
        once, one giving to the other): from the later of the two gives on, that vote is with the
        same heir (wire.md §5.9 "Two seats, and leaving")."""
        chain = [(0, seat)]
        gives = self._gives.get(seat, {})
        while True:
            lo, current = chain[-1]
            give = gives.get(current)
            step: tuple[int, int, bytes] | None = None
            start = None  # the seq from which the next holder counts, when not the give's own
            if give is not None:
                step = (give.to, give.seq, give.digest)
            elif current == seat and seat in self._waived:
                step = self._waived[seat]
            elif current != seat and (own := self._gives.get(current, {}).get(current)) is not None:
                step = (own.to, own.seq, own.digest)
                start = max(lo, own.seq)
            if step is None:
                return chain
            to, at, digest = step
            if (start is None and at < lo) or (seq is not None and at >= seq) or any(h == to for _, h in chain):
                return chain
            if digests is not None and (at >= len(digests) or digests[at] != digest):
                return chain
            chain.append((at if start is None else start, to))

    def _keep(self, vote: Vote, *, again: bool = False) -> None:
        held = self._held.setdefault(vote.seat, [])
        held.append(vote)
        del held[:-VOTES_KEPT]
        if again:
            return  # (its first-vote record is kept already; :attr:`version` unchanged: no vote ping-pong)
        if vote.seq > self.floor:
            first = self._first.setdefault(vote.seat, {})
            kept = first.setdefault(vote.seq, [])
            if vote not in kept:
                kept.append(vote)
                del kept[:-FIRSTS_KEPT]
            for seq in [seq for seq in sorted(first) if seq not in self.partings][SPLIT_SEQS:]:
                del first[seq]
        self.version += 1

    def raise_floor(self, seq: int) -> None:
        """Entries up to *seq* are committed here: the first votes at those seqs are no longer needed."""
        if seq <= self.floor:
            return
        self.floor = seq
        for first in self._first.values():
            for old in [s for s in first if s <= seq]:
                del first[old]

    def cast(self, seats: Mapping[int, SeatKey], seq: int, digest: bytes) -> Ack | None:
        """The votes of the seats whose keys are in *seats* (seat → key) for the log ending at *seq*
        with *digest*, kept here too; ``None`` when there is nothing new to say (no seat, or each has
        voted for exactly that already)."""
        votes = []
        for seat in sorted(seats):
            held = self._held.get(seat)
            if held and held[-1].seq == seq and held[-1].digest == digest:
                continue
            vote = Vote(seat, seq, digest, sign_ack(seats[seat], self.game_id, seat, seq, digest))
            self._keep(vote)
            votes.append(vote)
        return Ack(votes=tuple(votes)) if votes else None

    def cast_at(self, seats: Mapping[int, SeatKey], seq: int, digest: bytes) -> Ack | None:
        """The votes of the seats whose keys are in *seats* for the prefix ending at *seq* with
        *digest* (wire.md §5.9 "The tie-break": a seat's vote at the seq where another branch parts from
        its log), for each seat that has not voted for exactly that yet; ``None`` when none is new."""
        votes = []
        for seat in sorted(seats):
            if seq <= self.floor or any(v.digest == digest for v in self._first.get(seat, {}).get(seq, ())):
                continue
            vote = Vote(seat, seq, digest, sign_ack(seats[seat], self.game_id, seat, seq, digest))
            self._keep(vote)
            votes.append(vote)
        return Ack(votes=tuple(votes)) if votes else None

    def firsts(self, seq: int) -> tuple[Ack, ...]:
        """The first votes taken of every seat at exactly *seq* (to pass on: wire.md §5.9 "The
        tie-break"): the first of each seat in one ``ack``, the second in the next, and so on; none
        when there is none."""
        layers = [[first[seq][i] for _, first in sorted(self._first.items()) if len(first.get(seq, ())) > i]
                  for i in range(FIRSTS_KEPT)]
        return tuple(Ack(votes=tuple(layer)) for layer in layers if layer)

    def winner(self, seq: int, live: Collection[bytes] | None = None, digests: Sequence[bytes] | None = None,
               beaten: Collection[bytes] = ()) -> bytes | None:
        """wire.md §5.9 "The tie-break": when this peer holds a first vote at exactly *seq* for every
        seat (cast by the seat's holder there, :meth:`holder`, on the branch *digests* before *seq*) and
        the seats voting for no one digest there are a quorum, the digest (so the entry) every seat takes
        at *seq*: of the entries not *beaten* (a handover of a seat another entry there shows present;
        all of them when every one is), the one with the most votes, and of those, the one whose voters
        hold the first place in the tie order (the lowest seat before it is drawn). ``None`` otherwise (a
        seat's vote is missing, or an entry has a quorum: the commit rule decides). *live*: the digests
        of the entries at *seq* known to follow this peer's log before it; a seat's vote counts only for
        one of them, its oldest such (``None``: every vote, the seat's oldest): a vote for an entry after
        a prefix set aside since is no choice at *seq*."""
        if seq <= self.floor:
            return None
        by_digest: dict[bytes, list[int]] = {}
        for seat in range(self.players):
            voter = self.holder(seat, digests, seq) if digests is not None else seat
            chosen = next((v.digest for v in self._first.get(voter, {}).get(seq, ()) if live is None or v.digest in live),
                          None)
            if chosen is None:  # a give made at *seq* is its giver's vote there
                chosen = next((g.digest for g in self._given_by(voter) if g.seq == seq
                               and (live is None or g.digest in live)), None)
            if chosen is None:
                return None
            by_digest.setdefault(chosen, []).append(seat)
        tie = self.tie.at(digests, seq) if self.tie is not None and digests is not None else None
        if any(is_quorum(voters, players=self.players, tie=tie) for voters in by_digest.values()):
            return None
        rank = self.tie.rank if tie is not None and self.tie is not None else (lambda seat: seat)
        candidates = [d for d in by_digest if d not in beaten] or list(by_digest)
        return min(candidates, key=lambda d: (-len(by_digest[d]), min(rank(s) for s in by_digest[d])))

    def decides(self, digests: Sequence[bytes], seq: int, live: Collection[bytes] | None = None,
                beaten: Collection[bytes] = ()) -> bool:
        """Whether the votes held make entry *seq* of the branch *digests* the table's: committed
        (:meth:`committed`), or chosen by the tie-break (:meth:`winner`, counting the votes for *live*
        digests only, *beaten* ones passed over)."""
        if self.committed(digests) >= seq:
            return True
        winner = self.winner(seq, live, digests, beaten)
        return winner is not None and seq < len(digests) and digests[seq] == winner

    def newest(self) -> Ack | None:
        """The newest vote taken of every seat, to pass on (``None``: none yet)."""
        votes = tuple(held[-1] for _, held in sorted(self._held.items()) if held)
        return Ack(votes=votes) if votes else None

    def _own_reach(self, digests: Sequence[bytes]) -> dict[int, int]:
        """Seat → the highest seq of the branch *digests* that one of the seat's own votes covers."""
        reach: dict[int, int] = {}
        length = len(digests)
        for seat, held in self._held.items():
            best = max((v.seq for v in held if v.seq < length and digests[v.seq] == v.digest), default=0)
            if best:
                reach[seat] = best
        return reach

    def reach(self, digests: Sequence[bytes]) -> dict[int, int]:
        """Seat → the highest seq of the branch *digests* (``digests[s]`` the digest after entry *s*,
        ``digests[0]`` the setup's) that the seat's votes cover: its own, or, past a give on that
        branch, its holder's (the give itself covers its seq); seats with none left out."""
        own = self._own_reach(digests)
        reach: dict[int, int] = {}
        for seat in range(self.players):
            chain = self.chain(seat, digests)
            if len(chain) == 1:
                best = own.get(seat, 0)
            else:
                lo, holder = chain[-1]
                best = max(lo, own.get(holder, 0))
            if best:
                reach[seat] = best
        return reach

    def committed(self, digests: Sequence[bytes]) -> int:
        """The commit index of the branch *digests*: the highest seq whose entry the votes of a quorum
        of seats cover (0: none)."""
        chosen: set[int] = set()
        for seat, seq in sorted(self.reach(digests).items(), key=lambda item: (-item[1], item[0])):
            chosen.add(seat)
            if self.quorum(chosen, digests, seq):
                return seq
        return 0

    def elsewhere(self, digests: Sequence[bytes], start: int) -> bool:
        """Whether the seats holding a vote for another branch than *digests* at seq *start* or later
        are half the seats or more (the seats whose votes they hold counted with them): only then may a
        branch that parts from this one at *start* be committed or chosen by the tie-break, and is it
        worth replaying."""
        length = len(digests)
        voters = {
            seat for seat, held in self._held.items()
            if any(v.seq >= start and (v.seq >= length or digests[v.seq] != v.digest) for v in held)
        } | {give.by for by in self._gives.values() for give in by.values()
             if give.seq >= start and (give.seq >= length or digests[give.seq] != give.digest)}
        seats = {seat for seat in range(self.players)
                 if seat in voters or any(give.to in voters for give in self._gives.get(seat, {}).values())}
        return 2 * len(seats) >= self.players

    def certificate(self, digests: Sequence[bytes], seq: int) -> Ack | None:
        """The votes held that cover entry *seq* of the branch *digests* (``digests[s]`` the digest
        after entry *s*): for each seat whose votes cover it, the one for the longest prefix of the
        branch, in seat order; ``None`` when none does. With the gives held (:meth:`gives`), when they
        are a quorum they are the entry's certificate (wire.md §5.9), which a peer passes on so that a
        peer on another branch can check alone that this one is committed, however the seats' newest
        votes have moved on since."""
        length = len(digests)
        votes = []
        for seat, held in sorted(self._held.items()):
            covering = [v for v in held if seq <= v.seq < length and digests[v.seq] == v.digest]
            if covering:
                votes.append(max(covering, key=lambda v: v.seq))
        return Ack(votes=tuple(votes)) if votes else None

    def voters(self, digests: Sequence[bytes], seq: int) -> list[int]:
        """The seats whose votes cover entry *seq* of the branch *digests*, in seat order."""
        return sorted(seat for seat, reach in self.reach(digests).items() if reach >= seq)
