"""Provides what a player passes on to a connection beside its heartbeats (``protocol/wire.md``
§4.5): the seats' votes it holds (§4.11, §5.9) and its seats' values of the draw the table waits for
(§5.7). Values in, messages out; the router sends them.

Both are sent again, not only when they change, where a peer may have lost them: votes to a peer on
another branch (the votes of its branch may have pushed out the ones that commit this one, 4 kept a
seat), values while the table waits for a draw (a peer that set entries aside, or was on another
branch further on, forgot the values of a draw it now waits for again).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .draws import DrawValues
from .link import Link
from .messages import Ack, Give, Reveal, Vote
from .replica import Replica
from .signing import SeatKey

__all__ = ["draw_values", "took_our_branch", "votes_to_pass"]


def votes_to_pass(replica: Replica, link: Link, *, again: bool = False) -> tuple[Ack, ...]:
    """The votes a player passes on to *link* (wire.md §4.11, :meth:`Replica.votes_to_pass`), when they
    changed since it last did there, or *again* while its peer holds another branch (§5.9 "Healing")."""
    version = replica.votes_version
    if version is None or (link.votes_sent == version and not (again and link.parted)):
        return ()
    link.votes_sent = version
    return replica.votes_to_pass()


def draw_values(draws: DrawValues, replica: Replica, seats: Mapping[int, SeatKey], link: Link) -> tuple[Reveal, ...]:
    """The values of the draw the game waits for of the *seats* this player holds, for a player's
    *link* (wire.md §5.7 "Revealing": sent again with each heartbeat while the table waits)."""
    if link.role == "spectator" or replica.stopped:
        return ()
    return tuple(draws.values_held(replica.game, seats))


def took_our_branch(replica: Replica, link: Link, votes: tuple[Vote, ...], news: Sequence[Vote | Give]) -> bool:
    """Whether the peer of *link*, which showed another branch (:attr:`Link.parted`), took this peer's
    since (wire.md §5.9 "Healing, the budgets"): one of *votes* is for one of our entries past where they
    parted, and is news here or its seat is the peer's own (held already, or below the commit
    index and dropped unchecked: a peer's own vote for our entry shows what it holds)."""
    game, header = replica.game, replica.header
    if not link.parted or game is None or header is None:
        return False
    return any(link.parted <= vote.seq < len(game.digests) and game.digests[vote.seq] == vote.digest
               and (vote in news or vote.seat in link.seats or link.key == header.keys[vote.seat]) for vote in votes)
