"""What a player is told when a healed split sets entries aside (``protocol/wire.md`` §5.9 "Healing"):
one line per set, naming each move of a seat this laptop plays, why, and where it is kept.

>>> from carcnet.engine import HandOver, SkipMeeple
>>> from carcnet.log import LogEntry
>>> from carcnet.net import SignedEntry
>>> from carcnet.net.replica import SetAside
>>> mine = SignedEntry(LogEntry(45, 1, SkipMeeple(), bytes(32), None), bytes(64))
>>> instead = SignedEntry(LogEntry(45, 0, HandOver(1, "greedy", 0), bytes(32), None), bytes(64))
>>> aside_note(SetAside(45, (mine,), instead, "g.carclog.aside", (0, 2)), ["Ann", "Bob", "Cleo"], {1})
'Set aside: your move at seq 45 (skip) — the table committed handover 1 greedy by 0 at seq 45 (held by Ann and Cleo) while this laptop was apart from it; kept in g.carclog.aside'
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from carcnet.net.replica import SetAside

__all__ = ["aside_note"]


def aside_note(record: SetAside, names: Sequence[str], mine: Collection[int]) -> str:
    """The line for *record*: the entries of the seats in *mine* (the seats this laptop plays) as
    "your move(s)", the others counted; the committed entry that took their place and the seats whose
    votes committed it (*names*: the seats' names in seat order); where they are kept."""
    own = [signed for signed in record.entries if signed.entry.seat in mine and signed.sig is not None]
    others = len(record.entries) - len(own)
    parts = []
    if own:
        moves = ", ".join(f"seq {signed.seq} ({signed.entry.move})" for signed in own)
        parts.append(f"your move{'s' if len(own) > 1 else ''} at {moves}")
    if others:
        parts.append(f"{others} other entr{'ies' if others > 1 else 'y'} from seq {record.seq}")
    voters = [names[seat] if seat < len(names) else f"seat {seat}" for seat in record.voters]
    held = " and ".join([", ".join(voters[:-1]), voters[-1]] if len(voters) > 1 else voters)
    where = record.where if record.where is not None else "memory (this laptop saves no file)"
    return (f"Set aside: {' and '.join(parts)} — the table committed {record.instead.entry.move} at seq "
            f"{record.instead.seq} (held by {held}) while this laptop was apart from it; kept in {where}")
