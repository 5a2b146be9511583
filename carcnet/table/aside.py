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
from carcnet.i18n import N_, _, listed, ngettext, pgettext
from carcnet.net.replica import SetAside

__all__ = ["aside_detail", "aside_note"]

#: A move in a player's words, by its kind (the seat's name where it names one).
_MOVES = {
    PlaceTile: N_("a tile placed"),
    DeployMeeple: N_("a figure deployed"),
    SkipMeeple: N_("no figure deployed"),
    ReturnAbbot: N_("the abbot called back"),
    DrawTile: N_("a tile drawn"),
    # Translators: a move set aside; {name} is a player's name, {bot} a bot's kind (greedy, random).
    HandOver: N_("{name}'s seat given to a {bot} bot"),
    # Translators: a move set aside; {name} is a player's name.
    HandBack: N_("{name}'s seat given back"),
}


def _move_words(move: Move, names: Sequence[str]) -> str:
    """*move* in a player's words: ``a tile placed``, ``Bob's seat given to a greedy bot``; never a
    tile id, a coordinate or a draw's values (those are in :func:`aside_detail`)."""
    seat = getattr(move, "seat", None)
    name = names[seat] if isinstance(seat, int) and seat < len(names) else _("a player")
    return _(_MOVES.get(type(move), N_("a move"))).format(name=name, bot=getattr(move, "bot", ""))


def _voter_names(record: SetAside, names: Sequence[str]) -> list[str]:
    # Translators: who played on, where a seat has no name; {seat} is its number.
    return [names[seat] if seat < len(names) else _("seat {seat}").format(seat=seat) for seat in record.voters]


def _voters(record: SetAside, names: Sequence[str]) -> str:
    """The voters' names for the connection log (English)."""
    voters = [names[seat] if seat < len(names) else f"seat {seat}" for seat in record.voters]
    return " and ".join([", ".join(voters[:-1]), voters[-1]] if len(voters) > 1 else voters)


def _what(own: int, count: int, seq: int, moves: str) -> str:
    """The first sentence of a line, by what was set aside: only the player's own *own* moves (named
    in *moves*), the player's among *count* from move *seq* on, or none of the player's."""
    if own == count:
        # Translators: {moves} lists the player's moves set aside, each "45 (a tile placed)".
        return ngettext("Set aside: your move {moves}.", "Set aside: your moves {moves}.", own).format(moves=moves)
    if own == 1:
        # Translators: {count} moves set aside from move {seq} on; {moves} names the player's one, "45 (a tile placed)".
        return ngettext("Set aside: {count} moves from move {seq} on, your move {moves} among them.",
                        "Set aside: {count} moves from move {seq} on, your move {moves} among them.",
                        count).format(count=count, seq=seq, moves=moves)
    if own:
        # Translators: {count} moves set aside from move {seq} on; {moves} lists the player's, each "45 (a tile placed)".
        return ngettext("Set aside: {count} moves from move {seq} on, your moves {moves} among them.",
                        "Set aside: {count} moves from move {seq} on, your moves {moves} among them.",
                        count).format(count=count, seq=seq, moves=moves)
    # Translators: {count} moves set aside from move {seq} on, none of them the player's.
    return ngettext("Set aside: {count} moves from move {seq} on, none of them yours.",
                    "Set aside: {count} moves from move {seq} on, none of them yours.",
                    count).format(count=count, seq=seq)


def aside_note(record: SetAside, names: Sequence[str], mine: Collection[int]) -> str:
    """The line for people about *record*: the moves of the seats in *mine* (the seats this laptop
    plays) named as "your move(s)", the others counted; the players whose laptops went on without this
    one (*names*: the seats' names in seat order) and the move that took the place of the first; where
    the moves are kept. Starts with ``Set aside:``."""
    own = [signed for signed in record.entries if signed.entry.seat in mine and signed.sig is not None]
    comma = pgettext("list separator", ", ")
    # Translators: a move of the player's set aside: {seq} its number, {move} what it was ("a tile placed").
    moves = comma.join(_("{seq} ({move})").format(seq=signed.seq, move=_move_words(signed.entry.move, names))
                       for signed in own)
    first = _what(len(own), len(record.entries), record.seq, moves)
    voters = _voter_names(record, names)
    # Translators: {voters} lists the players who went on; {seq} is a move's number, {instead} the move
    # that took its place ("Bob's seat given to a greedy bot").
    why = ngettext("While this laptop was apart from the others, {voters} played on without it (move {seq}: {instead}).",
                   "While this laptop was apart from the others, {voters} played on without it (move {seq}: {instead}).",
                   len(voters)).format(voters=listed(voters), seq=record.instead.seq,
                                       instead=_move_words(record.instead.entry.move, names))
    # Translators: {where} is the file the moves set aside are kept in.
    where = (_("Kept in {where}").format(where=record.where) if record.where is not None
             else _("Kept in this laptop's memory only (it saves no file)"))
    # Translators: three sentences: what was set aside, why, and where it is kept.
    return _("{what} {why} {where}").format(what=first, why=why, where=where)


def aside_detail(record: SetAside, names: Sequence[str]) -> str:
    """*record* in the protocol's terms, for the connection log: the seqs set aside and their seats, the
    committed entry that took the first one's place, and the seats whose votes committed it."""
    entries = ", ".join(f"seq {signed.seq} ({signed.entry.move}) by seat {signed.entry.seat}"
                        for signed in record.entries)
    return (f"set aside from seq {record.seq}: {entries}; committed instead: {record.instead.entry.move} at seq "
            f"{record.instead.seq}, by the votes of {_voters(record, names)} (wire.md §5.9)")
