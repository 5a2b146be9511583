"""What a player is told when a healed split sets entries aside (``protocol/wire.md`` §5.9 "Healing"):
one line per set, in the player's words, naming each move of a seat this laptop plays, who went on
without it, and where the moves are kept (:func:`aside_note`); and the same in the protocol's terms,
for the connection log (:func:`aside_detail`).

>>> from carcnet.engine import HandOver, SkipMeeple
>>> from carcnet.log import LogEntry
>>> from carcnet.net import SignedEntry
>>> from carcnet.net.replica import SetAside
>>> mine = SignedEntry(LogEntry(45, 1, SkipMeeple(), bytes(32), None), bytes(64))
>>> instead = SignedEntry(LogEntry(45, 0, HandOver(1, "greedy", 0), bytes(32), None), bytes(64))
>>> record = SetAside(45, (mine,), instead, "g.carclog.aside", (0, 2))
>>> aside_note(record, ["Ann", "Bob", "Cleo"], {1})
"Set aside: your move 45 (no figure deployed). While this laptop was apart from the others, Ann and Cleo played on without it (move 45: Bob's seat given to a greedy bot). Kept in g.carclog.aside"
>>> aside_detail(record, ["Ann", "Bob", "Cleo"])
'set aside from seq 45: seq 45 (skip) by seat 1; committed instead: handover 1 greedy by 0 at seq 45, by the votes of Ann and Cleo (wire.md §5.9)'
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from carcnet.engine import DeployMeeple, DrawTile, HandBack, HandOver, Move, PlaceTile, ReturnAbbot, SkipMeeple
from carcnet.net.replica import SetAside

__all__ = ["aside_detail", "aside_note"]

#: The first sentence of a line, by what was set aside: only the player's own moves (one, several),
#: the player's (one, several) among others, or none of the player's.
_WHAT = {
    "one of mine": "Set aside: your move {moves}.",
    "mine": "Set aside: your moves {moves}.",
    "one of mine among others": "Set aside: {count} moves from move {seq} on, your move {moves} among them.",
    "mine among others": "Set aside: {count} moves from move {seq} on, your moves {moves} among them.",
    "others": "Set aside: {count} moves from move {seq} on, none of them yours.",
}
_WHY = "While this laptop was apart from the others, {voters} played on without it (move {seq}: {instead})."
_WHERE = "Kept in {where}"
_IN_MEMORY = "Kept in this laptop's memory only (it saves no file)"


#: A move in a player's words, by its kind (the seat's name where it names one).
_MOVES = {
    PlaceTile: "a tile placed",
    DeployMeeple: "a figure deployed",
    SkipMeeple: "no figure deployed",
    ReturnAbbot: "the abbot called back",
    DrawTile: "a tile drawn",
    HandOver: "{name}'s seat given to a {bot} bot",
    HandBack: "{name}'s seat given back",
}


def _move_words(move: Move, names: Sequence[str]) -> str:
    """*move* in a player's words: ``a tile placed``, ``Bob's seat given to a greedy bot``; never a
    tile id, a coordinate or a draw's values (those are in :func:`aside_detail`)."""
    seat = getattr(move, "seat", None)
    name = names[seat] if isinstance(seat, int) and seat < len(names) else "a player"
    return _MOVES.get(type(move), "a move").format(name=name, bot=getattr(move, "bot", ""))


def _voters(record: SetAside, names: Sequence[str]) -> str:
    voters = [names[seat] if seat < len(names) else f"seat {seat}" for seat in record.voters]
    return " and ".join([", ".join(voters[:-1]), voters[-1]] if len(voters) > 1 else voters)


def aside_note(record: SetAside, names: Sequence[str], mine: Collection[int]) -> str:
    """The line for people about *record*: the moves of the seats in *mine* (the seats this laptop
    plays) named as "your move(s)", the others counted; the players whose laptops went on without this
    one (*names*: the seats' names in seat order) and the move that took the place of the first; where
    the moves are kept. Starts with ``Set aside:``."""
    own = [signed for signed in record.entries if signed.entry.seat in mine and signed.sig is not None]
    moves = ", ".join(f"{signed.seq} ({_move_words(signed.entry.move, names)})" for signed in own)
    one = "one of mine" if len(own) == 1 else "mine"
    if not own:
        what = "others"
    else:
        what = one if len(own) == len(record.entries) else f"{one} among others"
    first = _WHAT[what].format(moves=moves, count=len(record.entries), seq=record.seq)
    why = _WHY.format(voters=_voters(record, names), seq=record.instead.seq,
                      instead=_move_words(record.instead.entry.move, names))
    where = _WHERE.format(where=record.where) if record.where is not None else _IN_MEMORY
    return f"{first} {why} {where}"


def aside_detail(record: SetAside, names: Sequence[str]) -> str:
    """*record* in the protocol's terms, for the connection log: the seqs set aside and their seats, the
    committed entry that took the first one's place, and the seats whose votes committed it."""
    entries = ", ".join(f"seq {signed.seq} ({signed.entry.move}) by seat {signed.entry.seat}"
                        for signed in record.entries)
    return (f"set aside from seq {record.seq}: {entries}; committed instead: {record.instead.entry.move} at seq "
            f"{record.instead.seq}, by the votes of {_voters(record, names)} (wire.md §5.9)")
