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
    where = f"round {round_number} table {table + 1}"
    try:
        loaded = load(path)
    except LogError as exc:
        raise EventError(f"{where}: the log is refused: {exc}") from None
    header = loaded.header
    if loaded.damage is not None:
        raise EventError(f"{where}: the log is damaged at its end: {loaded.damage.message}")
    if not header.keys:
        raise EventError(f"{where}: the log is not signed")
    if loaded.game.phase is not Phase.GAME_OVER:
        raise EventError(f"{where}: the game is not over")
    order = host_order(charter, seats)
    rank = next((i for i, key in enumerate(order)
                 if table_game_id(charter.event, round_number, table, seats, key) == header.game), None)
    if rank is None:
        raise EventError(f"{where}: game {header.game[:8]} is not this table's (no laptop of the event sealed it for it)")
    if header.rules != charter.rules or header.options != charter.options:
        raise EventError(f"{where}: the game's rules are not the event's")
    if len(header.seats) != len(seats):
        raise EventError(f"{where}: {len(header.seats)} seats, the draw has {len(seats)}")
    for s, (seat, player, key) in enumerate(zip(header.seats, seats, header.keys, strict=True)):
        entrant = charter.players[int(player)]
        if seat.name != entrant.name:
            raise EventError(f"{where}: seat {s + 1} is {seat.name!r}, the draw has {entrant.name!r}")
        if entrant.bot is None and (seat.player != "human" or key != entrant.key):
            raise EventError(f"{where}: seat {s + 1} ({entrant.name}) is not played under {entrant.name}'s key")
        if entrant.bot is not None and (seat.player != "bot" or seat.bot != entrant.bot):
            raise EventError(f"{where}: seat {s + 1} ({entrant.name}) is not the {entrant.bot} bot")
    return Result(round_number, table, header.game, order[rank], rank,
                  GameResult(seats, tuple(loaded.game.scores)))


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

