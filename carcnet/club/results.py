"""A round's results from the tables' signed logs, checked by every laptop itself
(protocol/tournament.md §5, §6.4): no laptop is trusted with a result, only logs that verify.

Pure over files: :func:`check_log` reads a log with :func:`carcnet.log.load` (every signature and
every move replayed) and judges it against the charter and the round's draw.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from carcnet.engine import Phase
from carcnet.i18n import _, ngettext
from carcnet.log import LogError, load

from .event import Charter, EventError, host_order, table_game_id
from .standings import GameResult

__all__ = ["Result", "check_log", "read_result", "result_name"]


@dataclass(frozen=True, slots=True)
class Result:
    """A table's game, checked.

    Attributes:
        round: The round (1-based). table: The table (0-based).
        game: The log's game id. host: The identity key of the laptop that opened (sealed) it.
        rank: The host's place in the table's :func:`~carcnet.club.event.host_order` (0: its first
            choice): of two finished logs of one table the lower rank counts.
        result: The players (ids, seat order) and their final scores.
    """

    round: int
    table: int
    game: str
    host: bytes
    rank: int
    result: GameResult


def check_log(charter: Charter, round_number: int, table: int, seats: tuple[str, ...],
              path: str | os.PathLike[str]) -> Result:
    """Judges the log at *path* as the game of table *table* of round *round_number*, whose seats
    the round's draw gives (*seats*: player ids in seat order), by protocol/tournament.md §5: the
    log reads whole under log.md §8 with every signature checked; it is signed (seat keys in its
    header), not damaged at its end, and its game is over; its game id is the table's, sealed by
    one of the event's laptops (:func:`~carcnet.club.event.table_game_id`); its rules, options and
    seats are the charter's and the draw's: each seat the player's name, a person's seat signed by
    the person's identity key, a bot's seat a bot of the player's level.

    Raises:
        EventError: The log does not count; the message says why (one sentence, naming the table).
    """
    where = table_words(round_number, table)
    try:
        loaded = load(path)
    except LogError as exc:
        # Translators: {where} names a table ("round 2 table 1"); {reason} says why the log is refused.
        raise EventError(_("{where}: the log is refused: {reason}").format(where=where, reason=exc)) from None
    header = loaded.header
    if loaded.damage is not None:
        # Translators: {where} names a table ("round 2 table 1"); {reason} says how the log is damaged.
        raise EventError(_("{where}: the log is damaged at its end: {reason}").format(
            where=where, reason=loaded.damage.message))
    if not header.keys:
        # Translators: {where} names a table ("round 2 table 1").
        raise EventError(_("{where}: the log is not signed").format(where=where))
    if loaded.game.phase is not Phase.GAME_OVER:
        # Translators: {where} names a table ("round 2 table 1").
        raise EventError(_("{where}: the game is not over").format(where=where))
    order = host_order(charter, seats)
    rank = next((i for i, key in enumerate(order)
                 if table_game_id(charter.event, round_number, table, seats, key) == header.game), None)
    if rank is None:
        # Translators: {where} names a table ("round 2 table 1"); {game} is the start of a game's id (hex digits).
        raise EventError(_("{where}: game {game} is not this table's (no laptop of the event sealed it for it)").format(
            where=where, game=header.game[:8]))
    if header.rules != charter.rules or header.options != charter.options:
        # Translators: {where} names a table ("round 2 table 1").
        raise EventError(_("{where}: the game's rules are not the event's").format(where=where))
    if len(header.seats) != len(seats):
        # Translators: {where} names a table ("round 2 table 1"); {seats} and {drawn} are numbers of seats.
        raise EventError(ngettext("{where}: {seats} seats, the draw has {drawn}", "{where}: {seats} seats, the draw has {drawn}",
                                  len(header.seats)).format(where=where, seats=len(header.seats), drawn=len(seats)))
    for s, (seat, player, key) in enumerate(zip(header.seats, seats, header.keys, strict=True)):
        entrant = charter.players[int(player)]
        if seat.name != entrant.name:
            # Translators: {where} names a table ("round 2 table 1"); {seat} is a seat's number; {name} and
            # {drawn} are players' names.
            raise EventError(_("{where}: seat {seat} is {name}, the draw has {drawn}").format(
                where=where, seat=s + 1, name=repr(seat.name), drawn=repr(entrant.name)))
        if entrant.bot is None and (seat.player != "human" or key != entrant.key):
            # Translators: {where} names a table ("round 2 table 1"); {seat} is a seat's number, {name} a player's name.
            raise EventError(_("{where}: seat {seat} ({name}) is not played under {name}'s key").format(
                where=where, seat=s + 1, name=entrant.name))
        if entrant.bot is not None and (seat.player != "bot" or seat.bot != entrant.bot):
            # Translators: {where} names a table ("round 2 table 1"); {seat} is a seat's number, {name} a player's
            # name, {bot} a bot's level (easy, hard).
            raise EventError(_("{where}: seat {seat} ({name}) is not the {bot} bot").format(
                where=where, seat=s + 1, name=entrant.name, bot=entrant.bot))
    return Result(round_number, table, header.game, order[rank], rank,
                  GameResult(seats, tuple(loaded.game.scores)))


def table_words(round_number: int, table: int) -> str:
    """A table of an event in the player's words: ``round 2 table 1`` (*table* 0-based)."""
    # Translators: {round} and {table} are numbers.
    return _("round {round} table {table}").format(round=round_number, table=table + 1)


def result_name(round_number: int, table: int) -> str:
    """The file a laptop keeps a table's counted log in, in its event folder's ``results``."""
    return f"r{round_number:02d}-t{table + 1:02d}.carclog"



def read_result(charter: Charter, round_number: int, table: int, seats: tuple[str, ...],
                folder: Path) -> Result | None:
    """The counted result of a table kept in *folder* (:func:`result_name`), checked again, or
    ``None`` when there is none or it no longer checks (a file changed on disk)."""
    path = folder / result_name(round_number, table)
    if not path.exists():
        return None
    try:
        return check_log(charter, round_number, table, seats, path)
    except EventError:
        return None

