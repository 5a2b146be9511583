"""The tie-break's look at the entries competing at one seq (wire.md §5.9 "The tie-break",
carcnet.net.tiebreak.beaten): an entry that takes a seat from a peer another entry there shows
present loses."""

from __future__ import annotations

import pytest

from carcnet.engine import DrawTile, HandBack, HandOver, Move, PlaceTile, Position, SkipMeeple
from carcnet.log import LogEntry
from carcnet.net.messages import SignedEntry
from carcnet.net.tiebreak import beaten


def at(seat: int, move: Move, tag: int) -> tuple[bytes, SignedEntry]:
    """An entry at seq 9 named *seat* (the signatures are not the tie-break's to check), by digest."""
    digest = bytes([tag]) * 32
    return digest, SignedEntry(LogEntry(9, seat, move, digest), None if isinstance(move, DrawTile) else b"s" * 64)


PLACE = PlaceTile("E", Position(0, -1), 0)
VALUE = b"\x07" * 32


@pytest.mark.parametrize(
    ("case", "signers", "contenders", "lost"),
    [
        ("a handover against the seat's own move", (0, 1), [at(1, HandOver(0, "greedy", 1), 1), at(0, PLACE, 2)],
         {1}),
        ("a handover against a draw holding the seat's value", (0, 1),
         [at(1, HandOver(0, "greedy", 1), 1), at(0, DrawTile((VALUE, VALUE)), 2)], {1}),
        ("a handover against a draw without it", (0, 1),
         [at(1, HandOver(0, "greedy", 1), 1), at(0, DrawTile((None, VALUE)), 2)], set()),
        ("a seat's own handback against its runner's bot move", (1, 1), [at(0, HandBack(0, 0), 1), at(0, PLACE, 2)],
         {1}),
        ("a seat's own handback against its runner's handback", (1, 1), [at(0, HandBack(0, 0), 1), at(1, HandBack(0), 2)],
         {1}),
        ("a seat's own handback against a draw holding the runner's value", (1, 1),
         [at(0, HandBack(0, 0), 1), at(0, DrawTile((None, VALUE)), 2)], {1}),
        ("a seat's own handback against a third seat's handover of another", (1, 1, 2),
         [at(0, HandBack(0, 0), 1), at(2, HandOver(1, "greedy", 2), 2)], set()),
        ("a runner's handback against nothing that takes a seat", (1, 1), [at(1, HandBack(0), 1), at(0, PLACE, 2)],
         set()),
        ("two moves: neither takes a seat", (0, 1), [at(0, PLACE, 1), at(0, SkipMeeple(), 2)], set()),
    ],
)
def test_beaten(case: str, signers: tuple[int, ...], contenders: list[tuple[bytes, SignedEntry]],
                lost: set[int]) -> None:
    assert beaten(dict(contenders), lambda seat: signers[seat]) == {bytes([t]) * 32 for t in lost}, case
