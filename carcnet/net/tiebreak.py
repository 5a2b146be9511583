"""Provides what the tie-break of the commit rule looks at besides the votes (``protocol/wire.md`` §5.9
"The tie order", "The tie-break"): the table's tie order as a log holds it, and which of the entries
competing at one seq hand over a seat that another of them shows present. Sans-I/O, pure functions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from carcnet.engine import DrawTile, Game, HandBack, HandOver

from .messages import SignedEntry
from .signing import tie_order, tie_source

__all__ = ["Tie", "beaten", "tie_of"]


@dataclass(frozen=True, slots=True)
class Tie:
    """The table's tie order as a log holds it (wire.md §5.9 "The tie order"): drawn from the entry
    *seq* whose digest is *digest* (the first ``draw``; 0 and the setup digest in a game without table
    draws), so it holds for the entries after *seq* of every branch that holds that entry.

    Attributes:
        seq: The seq of the entry it is drawn from (0: the setup).
        digest: The 32-byte digest after that entry.
        order: Every seat, first place first.
    """

    seq: int
    digest: bytes
    order: tuple[int, ...]

    def at(self, digests: Sequence[bytes], seq: int) -> int | None:
        """The tie seat for entry *seq* of the branch *digests*, or ``None`` when the order is not
        drawn before *seq* on that branch."""
        if self.seq < seq and self.seq < len(digests) and digests[self.seq] == self.digest:
            return self.order[0]
        return None

    def rank(self, seat: int) -> int:
        """*seat*'s place in the order, 0 first."""
        return self.order.index(seat)


def tie_of(game_id: str, players: int, game: Game, entries: Sequence[SignedEntry], held: Tie | None) -> Tie | None:
    """The tie order of the log *entries* of game *game_id* (whose game is *game*): *held* while the log
    still holds the entry it was drawn from; else drawn from the log's first ``draw`` entry (from the
    setup digest in a game without table draws); ``None`` while there is none."""
    if held is not None and held.seq <= len(entries) and game.digests[held.seq] == held.digest:
        return held
    if game.setup.draws is None:
        return Tie(0, game.digests[0], tie_order(game_id, players, game.digests[0]))
    for signed in entries:
        move = signed.entry.move
        if isinstance(move, DrawTile):
            return Tie(signed.seq, signed.entry.digest, tie_order(game_id, players, tie_source(move.values)))
    return None


def beaten(contenders: Mapping[bytes, SignedEntry], signer: Callable[[int], int]) -> set[bytes]:
    """The digests of the *contenders* (entries competing at one seq, by digest) that take a seat from a
    peer which another of them shows present there (wire.md §5.9 "The tie-break"):

    - a ``handover`` of a seat, against an entry the seat signed with its own key (its move, or a
      ``handover`` or ``handback`` it made: ``signer(seat)`` is the seat itself before that seq) or a
      ``draw`` holding the seat's value;
    - a ``handback`` a seat made of itself (its ``by`` given: its bot's runner was gone), against an
      entry the runner signed (the seat's move by its bot, or an entry of the runner's own seat) or a
      ``draw`` holding the runner's value.

    *signer*: the seat whose key signs a seat's entries before that seq (``Game.signer``)."""
    out = set()
    for digest, signed in contenders.items():
        move = signed.entry.move
        if isinstance(move, HandOver):
            seat = move.seat
        elif isinstance(move, HandBack) and move.by is not None:
            seat = signer(move.seat)  # the runner, whom the seat's own player took for gone
        else:
            continue
        for other, shown in contenders.items():
            if other != digest and _shows(shown, seat, signer):
                out.add(digest)
                break
    return out


def _shows(shown: SignedEntry, seat: int, signer: Callable[[int], int]) -> bool:
    """Whether the entry *shown* proves *seat*'s peer present at its seq: *seat*'s key signed it, or it
    is a ``draw`` holding *seat*'s value."""
    there = shown.entry.move
    if isinstance(there, DrawTile):
        return seat < len(there.values) and there.values[seat] is not None
    if isinstance(there, HandOver | HandBack):
        return shown.entry.seat == seat  # signed by the seat that makes it
    return signer(shown.entry.seat) == seat
