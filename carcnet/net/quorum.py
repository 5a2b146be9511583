"""Provides :class:`Votes`: the seats' votes a peer holds, and which entries of its log they make
committed (``protocol/wire.md`` §5.9, the commit rule). Sans-I/O: values in, values out.

The voters are the game's seats, each with one vote cast by its key in the header, fixed for the
whole game (a seat handed over keeps its key with its owner, log.md §6, so the taker gains no
vote). A **quorum** is a set of seats that is more than half of them, or exactly half and holding
the seat with the lowest key (compared as bytes). Any two quorums share a seat.

A :class:`~carcnet.net.messages.Vote` of seat *k* for (*seq*, *digest*) says that *k* holds the log
whose entry *seq* has that digest; the digest chains every earlier entry (``digest.md`` §4), so the
vote covers the whole prefix. An entry is **committed** once the seats whose votes cover it are a
quorum; the highest such seq is the **commit index**.

>>> is_quorum({0, 1}, players=4, lowest=0), is_quorum({2, 3}, players=4, lowest=0)
(True, False)
>>> is_quorum({1}, players=2, lowest=1), is_quorum({0, 1, 2}, players=5, lowest=4)
(True, True)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Literal

from .messages import Ack, Vote
from .signing import SeatKey, sign_ack, verify_ack

__all__ = ["FIRSTS_KEPT", "SPLIT_SEQS", "VOTES_KEPT", "Votes", "is_quorum", "lowest_seat"]

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


def is_quorum(seats: Collection[int], *, players: int, lowest: int) -> bool:
    """Whether *seats* (distinct seat numbers) are a quorum of a game of *players* seats whose lowest
    key is seat *lowest*'s: more than half, or exactly half with *lowest* (wire.md §5.9)."""
    count = len(seats)
    return 2 * count > players or (2 * count == players and lowest in seats)


def lowest_seat(keys: Sequence[bytes]) -> int:
    """The seat whose key is lowest, compared as bytes (the header's ``keys``, in seat order)."""
    return min(range(len(keys)), key=keys.__getitem__)


class Votes:
    """The votes a peer holds: up to :data:`VOTES_KEPT` per seat, each checked against the seat's key
    once, when first taken.

    Args:
        game: The game id (votes are bound to it).
        keys: The header's seat keys, in seat order.

    Attributes:
        version: Grows by one whenever a vote is taken (what a peer passes on changed).
    """

    def __init__(self, game: str, keys: Sequence[bytes]) -> None:
        self.game_id = game
        self.keys = tuple(keys)
        self.players = len(self.keys)
        self.lowest = lowest_seat(self.keys)
        self._held: dict[int, list[Vote]] = {}
        #: Per seat, its first :data:`FIRSTS_KEPT` votes taken at each of the lowest :data:`SPLIT_SEQS`
        #: seqs above :attr:`floor`, oldest first (wire.md §5.9 "The tie-break": what the seat held
        #: first there, after each prefix it held).
        self._first: dict[int, dict[int, list[Vote]]] = {}
        self.floor = 0
        self.version = 0

    def take(self, vote: Vote) -> Literal["news", "held", "bad"]:
        """Takes *vote* from a peer: ``"held"`` when it is among the seat's newest kept (checked before,
        not again; one pushed out since that is a first vote kept is kept again unchecked, ``"news"``
        without changing :attr:`version`: peers pass on only what changed, and 4 votes a seat can push
        each other out for ever),
        ``"bad"`` when its seat is not the game's or its signature does not verify under the seat's
        key (the sender is refused ``bad-signature``), else ``"news"`` (kept)."""
        if vote.seat >= self.players:
            return "bad"
        if vote in self._held.get(vote.seat, ()):
            return "held"
        if vote in self._first.get(vote.seat, {}).get(vote.seq, ()):
            self._keep(vote, again=True)  # checked once, pushed out since: nothing new to pass on
            return "news"
        if not verify_ack(self.keys[vote.seat], self.game_id, vote.seat, vote.seq, vote.digest, vote.sig):
            return "bad"
        self._keep(vote)
        return "news"

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
            for seq in sorted(first)[SPLIT_SEQS:]:
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

    def winner(self, seq: int, live: Collection[bytes] | None = None) -> bytes | None:
        """wire.md §5.9 "The tie-break": when this peer holds a first vote at exactly *seq* of every
        seat and the seats voting for no one digest there are a quorum, the digest (so the entry) every
        seat takes at *seq*: the one with the most votes, and of those, the one whose voters hold the
        lowest key. ``None`` otherwise (a seat's vote is missing, or an entry has a quorum: the commit
        rule decides). *live*: the digests of the entries at *seq* known to follow this peer's log
        before it; a seat's vote counts only for one of them, its oldest such (``None``: every vote,
        the seat's oldest): a vote for an entry after a prefix set aside since is no choice at *seq*."""
        if seq <= self.floor:
            return None
        by_digest: dict[bytes, list[int]] = {}
        for seat in range(self.players):
            vote = next((v for v in self._first.get(seat, {}).get(seq, ()) if live is None or v.digest in live), None)
            if vote is None:
                return None
            by_digest.setdefault(vote.digest, []).append(seat)
        if any(is_quorum(voters, players=self.players, lowest=self.lowest) for voters in by_digest.values()):
            return None
        return min(by_digest, key=lambda d: (-len(by_digest[d]), min(self.keys[s] for s in by_digest[d])))

    def decides(self, digests: Sequence[bytes], seq: int, live: Collection[bytes] | None = None) -> bool:
        """Whether the votes held make entry *seq* of the branch *digests* the table's: committed
        (:meth:`committed`), or chosen by the tie-break (:meth:`winner`, counting the votes for *live*
        digests only)."""
        if self.committed(digests) >= seq:
            return True
        winner = self.winner(seq, live)
        return winner is not None and seq < len(digests) and digests[seq] == winner

    def newest(self) -> Ack | None:
        """The newest vote taken of every seat, to pass on (``None``: none yet)."""
        votes = tuple(held[-1] for _, held in sorted(self._held.items()) if held)
        return Ack(votes=votes) if votes else None

    def reach(self, digests: Sequence[bytes]) -> dict[int, int]:
        """Seat → the highest seq of the branch *digests* (``digests[s]`` the digest after entry *s*,
        ``digests[0]`` the setup's) that one of the seat's votes covers; seats with none left out."""
        reach: dict[int, int] = {}
        length = len(digests)
        for seat, held in self._held.items():
            best = max((v.seq for v in held if v.seq < length and digests[v.seq] == v.digest), default=0)
            if best:
                reach[seat] = best
        return reach

    def committed(self, digests: Sequence[bytes]) -> int:
        """The commit index of the branch *digests*: the highest seq whose entry the votes of a quorum
        of seats cover (0: none)."""
        chosen: set[int] = set()
        for seat, seq in sorted(self.reach(digests).items(), key=lambda item: (-item[1], item[0])):
            chosen.add(seat)
            if is_quorum(chosen, players=self.players, lowest=self.lowest):
                return seq
        return 0

    def elsewhere(self, digests: Sequence[bytes], start: int) -> bool:
        """Whether the seats holding a vote for another branch than *digests* at seq *start* or later
        could be a quorum: only then may a branch that parts from this one at *start* be committed,
        and is it worth replaying."""
        length = len(digests)
        seats = {
            seat for seat, held in self._held.items()
            if any(v.seq >= start and (v.seq >= length or digests[v.seq] != v.digest) for v in held)
        }
        return is_quorum(seats, players=self.players, lowest=self.lowest)

    def certificate(self, digests: Sequence[bytes], seq: int) -> Ack | None:
        """The votes held that cover entry *seq* of the branch *digests* (``digests[s]`` the digest
        after entry *s*): for each seat whose votes cover it, the one for the longest prefix of the
        branch, in seat order; ``None`` when none does. When they are a quorum they are the entry's
        certificate (wire.md §5.9), which a peer passes on so that a peer on another branch can check
        alone that this one is committed, however the seats' newest votes have moved on since."""
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
