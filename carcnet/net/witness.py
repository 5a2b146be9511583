"""Provides :class:`Witness`: what one player saw of the other laptops, for judging what they sign
(``protocol/wire.md`` §5.6 "What the others check", §5.9 "A vote withheld"). Sans-I/O: values in,
values out, the clock an argument.

- **A handover of a seat played here** is a lie from a sender that was in touch with this laptop all
  through the turn it ends: the sender could not have seen the seat away. It is taken only when the
  link it came on opened after this log reached its end (this laptop came back, or the two lost each
  other meanwhile): :meth:`Witness.apart`.
- **A vote withheld**, at a table of two: the other seat's peer says in its heartbeats that it holds
  this log, and its votes do not cover it for :data:`VOTE_WITHHELD` seconds and
  :data:`WITHHELD_BEATS` heartbeats: :meth:`Witness.vote_withheld`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager

from carcnet.engine import DrawTile, Game, HandBack, HandOver, Phase

from .connections import Connections
from .draws import DrawValues, vouches
from .link import Link
from .messages import WireHeader
from .replica import Replica

__all__ = ["VOTE_WITHHELD", "WITHHELD_BEATS", "Witness"]

#: Seconds, and heartbeats, in which the peer of the other seat of two, holding this log, must vote for
#: it before its vote counts as withheld (wire.md §5.9 "A vote withheld"): honest peers vote within
#: 0.2 s of taking an entry, and pass their newest vote on with every heartbeat.
VOTE_WITHHELD = 10.0
WITHHELD_BEATS = 3


class Witness:
    """What this player saw: since when its log is at its end, and which link the entries being taken
    came on.

    Attributes:
        source: The link whose entries are being taken (set by the router around it), else ``None``.
    """

    def __init__(self) -> None:
        self._end: tuple[tuple[int, bytes | None], float] = ((0, None), -math.inf)
        self._restarted = False  # the log's end was loaded from the save, and no entry came since
        self.source: Link | None = None

    def loaded(self, have: int, digest: bytes | None) -> None:
        """The log was loaded from the save: its end was reached before this laptop ran (it was apart
        from everyone since)."""
        self._end = ((have, digest), -math.inf)
        self._restarted = True

    def log_end(self, replica: Replica, now: float) -> None:
        """The log of *replica* may have a new end at *now*: remembered with the moment it first was."""
        end = (replica.have, replica.game.digest if replica.game is not None else None)
        if end != self._end[0]:
            self._end = (end, now)
            self._restarted = False

    @contextmanager
    def taking(self, link: Link) -> Iterator[None]:
        """While the entries from *link* are taken: :attr:`source` is *link*."""
        self.source = link
        try:
            yield
        finally:
            self.source = None

    def restarted(self) -> bool:
        """Whether this log's end was reached before this program ran (it was loaded from the save, and
        no entry came since): this laptop stopped, a crash or a restart, since it reached it."""
        return self._restarted

    def apart(self) -> bool:
        """Whether the sender of the entries being taken was apart from this laptop at some moment since
        this log reached its end: the link they came on opened after it (wire.md §5.6 "What the others
        check": only then may the sender have seen a seat played here away). ``True`` with no link."""
        source = self.source
        return source is None or source.opened_at is None or source.opened_at > self._end[1]

    def vet(self, game: Game, move: HandOver | HandBack, draws: DrawValues, now: float,
            plays: Callable[[int], bool], connections: Connections, header: WireHeader | None,
            own: Collection[int] = ()) -> bool:
        """wire.md §5.6 "What the others check": whether what this player saw lets it take *move*, a
        ``handover`` that follows *game* (:func:`~carcnet.net.draws.vouches`): the seat's peer is in touch
        with this one when this peer holds an open link to the peer whose identity is the seat's key,
        or, for a seat it plays itself, when the sender was not :meth:`apart` from it. While the table
        draws, a seat played here is taken from it only when this laptop :meth:`restarted` since its
        log reached its end: it stopped, so its value never went out, and the others waited for it in
        vain (a crash); while its program ran, it gave its value to every link it had. A ``handback``
        a seat made of itself (wire.md §5.6 "Taking a seat back") is taken when the laptop that holds
        the key of the seat that signs its entries before it (*own*: the seats whose keys this peer
        holds) is not in touch with this peer: for this peer's own key, the sender was :meth:`apart`
        from it; else no open link to the peer whose identity is that key."""
        if isinstance(move, HandBack):
            if move.by is None or header is None:
                return False
            runner = game.signer(move.seat)
            if runner in own:
                return self.apart()
            return connections.link_to(header.keys[runner]) is None
        if game.phase is Phase.DRAW and plays(move.seat) and self.restarted():
            return True

        return vouches(game, move, draws, now,
                       in_touch=lambda seat: self._in_touch(seat, plays, connections, header))

    def _in_touch(self, seat: int, plays: Callable[[int], bool], connections: Connections,
                  header: WireHeader | None) -> bool:
        """Whether *seat*'s peer is in touch with this one (wire.md §5.6 "What the others check"): for a
        seat played here, the sender was not :meth:`apart` from it; else an open link to the peer whose
        identity is the seat's key."""
        if plays(seat):
            return not self.apart()
        return header is not None and connections.link_to(header.keys[seat]) is not None

    def vote_withheld(self, link: Link, replica: Replica, seats: Collection[int], now: float,
                      connections: Connections) -> bool:
        """wire.md §5.9 "A vote withheld", two seats only: *link*'s peer plays the other seat and its
        heartbeat (just taken) said it holds a prefix of this log. Returns whether its
        seat's votes have not covered what this log held when that began, for :data:`VOTE_WITHHELD`
        seconds and :data:`WITHHELD_BEATS` heartbeats, and its vote is counted as held by this peer's
        seat from now on (here only, :meth:`~carcnet.net.quorum.Votes.waive`; the connection log says so)."""
        header, votes, game = replica.header, replica.votes, replica.game
        if (header is None or votes is None or game is None or len(header.keys) != 2 or len(seats) != 1
                or replica.gave or link.role == "spectator"):
            return False
        (mine,) = seats
        other = 1 - mine
        if link.key != header.keys[other] and other not in link.seats:
            return False
        if votes.holder(other, None) != other or votes.holder(mine, None) != mine:
            return False  # given already, or caught before: nothing more to judge
        target = min(replica.vote_seq, link.heard_have)  # what it says it holds: it may not take the rest
        while target and isinstance(replica.entries[target - 1].entry.move, DrawTile):
            target -= 1  # (a table draw at the end is never voted for, §4.11)
        reach = votes.reach(game.digests).get(other, 0)
        if reach >= target:
            link.unvoted = None
            return False
        if link.unvoted is None or link.unvoted[0] > target or reach >= link.unvoted[0]:
            link.unvoted = (target, now, 1)
            return False
        seq, since, beats = link.unvoted
        link.unvoted = (seq, since, beats + 1)
        if beats + 1 < WITHHELD_BEATS or now - since < VOTE_WITHHELD or not votes.waive(other, mine, reach,
                                                                                         game.digests[reach]):
            return False
        connections.record("info", "vote-withheld", f"seat {other} holds this log up to seq {seq} and does not "
                           f"vote for it: its vote counts here as seat {mine}'s (wire.md §5.9 \"A vote withheld\")",
                           seq, link)
        replica.recount()
        return True
