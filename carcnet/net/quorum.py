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

__all__ = ["VOTES_KEPT", "Votes", "is_quorum", "lowest_seat"]

#: Votes kept per seat (the newest taken): a seat that switched to a committed entry votes for a
#: shorter prefix of another branch, which must count beside its older, longer vote (wire.md §5.9).
VOTES_KEPT = 4


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
        self.version = 0

    def take(self, vote: Vote) -> Literal["news", "held", "bad"]:
        """Takes *vote* from a peer: ``"held"`` when it is held already (checked before, not again),
        ``"bad"`` when its seat is not the game's or its signature does not verify under the seat's
        key (the sender is refused ``bad-signature``), else ``"news"`` (kept)."""
        if vote.seat >= self.players:
            return "bad"
        held = self._held.get(vote.seat, [])
        if vote in held:
            return "held"
        if not verify_ack(self.keys[vote.seat], self.game_id, vote.seat, vote.seq, vote.digest, vote.sig):
            return "bad"
        self._keep(vote)
        return "news"

    def _keep(self, vote: Vote) -> None:
        held = self._held.setdefault(vote.seat, [])
        held.append(vote)
        del held[:-VOTES_KEPT]
        self.version += 1

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

    def voters(self, digests: Sequence[bytes], seq: int) -> list[int]:
        """The seats whose votes cover entry *seq* of the branch *digests*, in seat order."""
        return sorted(seat for seat, reach in self.reach(digests).items() if reach >= seq)
