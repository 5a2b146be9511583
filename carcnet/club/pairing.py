"""Who plays whom in a tournament's round, at which tables and in which seat order.

Sources: the Carcassonne World Championship's rules for its two-player Swiss rounds
(carcassonne-meisterschaft.de, "Tournament Rules of the Final", 2019): "The schedule for the first
round will be determined by drawing lots. After that the schedule will be determined by the current
ranking, where the players ranked 1 and 2, 3 and 4, 5 and 6 and so on will compete against each
other. In addition to that we will take care that players do not have to play against each other
twice (if possible). Then the next suitable player in the ranking will be determined." "In every
game the starting player is the player that has started fewer times. In case of ties the player
placed at position one in a game by the software is the starting player." Byes as the FIDE Handbook
(C.04.1) gives them: to a player of the lowest score group, never a second time while avoidable.
Round robin at tables of two: the Berger tables (FIDE Handbook C.05, Annex 1).

carcnet extends these to tables of 2 to 6 seats:

- **Tables.** As many tables of the event's size as the players fill, the rest spread so that
  every table has at least the event's minimum (10 players at tables of 4, minimum 3: 4, 3, 3);
  only players who cannot be seated that way get a bye (an odd count at tables of two).
- **Swiss.** The players in standings order (the first round: by lots drawn from the event's id,
  :func:`lots`); the first unseated player's table is filled with the next ones in that order,
  preferring players it and the others at the table have not met; a bounded search then keeps the
  seating with the fewest repeat meetings (ties: the one nearest the standings order).
- **Round robin.** At tables of two, the circle method of the Berger tables (every pair meets once
  in *n* - 1 rounds, or *n* with a bye each round for an odd count); at larger tables, the Swiss
  seating with the lots' order and no standings: the fewest repeat meetings each round.
- **Seat order** at a table: the player who has started fewest games starts (seat 0); the others
  follow by the fewest games at seat 1, then seat 2…, then by the standings order. So starting,
  and every seat, is spread across the rounds.

Everything here is a pure function of its arguments, the same on every laptop.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from .standings import GameResult

__all__ = ["MAX_SEATS", "Round", "berger_round", "lots", "met", "seat_order", "swiss_round", "table_sizes"]

#: The most seats a table has (the engine's 6 colours).
MAX_SEATS = 6

#: Seatings the Swiss search tries before it keeps the best found (bounds its time).
SEARCH_BUDGET = 4000

#: The most choices of companions the search weighs for one table (:func:`_window`).
CHOICES = 300


@dataclass(frozen=True, slots=True)
class Round:
    """One round's draw.

    Attributes:
        tables: Each table's player ids in seat order (seat 0 starts), the top of the standings first.
        byes: The players without a table this round.
    """

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()


def lots(event: str, players: Sequence[str]) -> dict[str, bytes]:
    """Player → its lot for the event *event* (its id): ``SHA-256("carcnet/lots/v1" 0 event 0
    player)``, the first round's order and the standings' last tie-break (lower first). Every
    laptop draws the same; nobody can choose a lot without choosing the event id before the players
    are known."""
    return {p: hashlib.sha256(b"carcnet/lots/v1\0" + event.encode() + b"\0" + p.encode()).digest() for p in players}


def table_sizes(players: int, size: int, minimum: int = 2) -> tuple[list[int], int]:
    """``(sizes, byes)``: the tables' sizes (largest first) for *players* at tables of *size* seats
    and at least *minimum*, and how many players get a bye: the fewest byes that let every table
    have *minimum* seats or more.

    >>> table_sizes(10, 4, 3), table_sizes(9, 2), table_sizes(5, 4, 4)
    (([4, 3, 3], 0), ([2, 2, 2, 2], 1), ([4], 1))

    Raises:
        ValueError: *size* not 2 to :data:`MAX_SEATS`, or *minimum* not 2 to *size*.
    """
    if not 2 <= size <= MAX_SEATS:
        raise ValueError(f"tables have 2 to {MAX_SEATS} seats, not {size}")
    if not 2 <= minimum <= size:
        raise ValueError(f"the smallest table has 2 to {size} seats, not {minimum}")
    for byes in range(players + 1):
        seated = players - byes
        if seated == 0:
            return [], players
        tables = math.ceil(seated / size)
        small, extra = divmod(seated, tables)
        if small >= minimum:
            return [small + 1] * extra + [small] * (tables - extra), byes
    return [], players


def met(results: Sequence[GameResult]) -> dict[tuple[str, str], int]:
    """``(a, b)`` (``a < b``) → how many games the two players sat at together."""
    out: dict[tuple[str, str], int] = {}
    for result in results:
        for a, b in combinations(sorted(result.players), 2):
            out[a, b] = out.get((a, b), 0) + 1
    return out


def _repeats(table: Sequence[str], meetings: Mapping[tuple[str, str], int]) -> int:
    return sum(meetings.get((a, b), 0) for a, b in combinations(sorted(table), 2))


def seat_order(table: Sequence[str], results: Sequence[GameResult]) -> tuple[str, ...]:
    """*table*'s players (in standings order) in seat order: seat by seat, the player who has sat
    there fewest times among those left (seat 0: who started fewest games), ties by *table*'s order
    (the championship's "position one by the software")."""
    counts: dict[str, list[int]] = {p: [0] * MAX_SEATS for p in table}
    for result in results:
        if result.bye:
            continue
        for seat, p in enumerate(result.players):
            if p in counts:
                counts[p][seat] += 1
    left = list(table)
    out: list[str] = []
    for seat in range(len(table)):
        pick = min(left, key=lambda p: (counts[p][seat], table.index(p)))
        out.append(pick)
        left.remove(pick)
    return tuple(out)


def _byes_to(order: Sequence[str], count: int, results: Sequence[GameResult]) -> list[str]:
    """The *count* players that get a bye: from the bottom of *order*, those with the fewest byes."""
    had = {p: 0 for p in order}
    for result in results:
        if result.bye and result.players[0] in had:
            had[result.players[0]] += 1
    bottom_first = list(reversed(order))
    return sorted(bottom_first, key=lambda p: (had[p], bottom_first.index(p)))[:count]


def _window(pool: int, companions: int) -> int:
    """How many of the next unseated players a table's first player may be seated with: all of
    them at tables of two, else the most whose choices of *companions* number at most
    :data:`CHOICES` (so that a table of six looks at the next 10, a table of three at the next 25)."""
    width = companions
    while width < pool and math.comb(width + 1, companions) <= CHOICES:
        width += 1
    return width if companions > 1 else pool


def _seat(order: list[str], sizes: list[int], meetings: Mapping[tuple[str, str], int]) -> list[tuple[str, ...]]:
    """Tables of *sizes* from *order* (best first) with the fewest repeat meetings: a depth-first
    search, each table the first unseated player's, companions (among the next :func:`_window`)
    tried by the repeats they add, then by their places in *order*; at most :data:`SEARCH_BUDGET`
    tables tried, the best kept."""
    position = {p: i for i, p in enumerate(order)}
    best: list[tuple[str, ...]] | None = None
    best_cost = math.inf
    tried = 0

    def search(left: list[str], sizes_left: list[int], tables: list[tuple[str, ...]], cost: int) -> None:
        nonlocal best, best_cost, tried
        if cost >= best_cost:
            return
        if not sizes_left:
            best, best_cost = list(tables), cost
            return
        first, pool, size = left[0], left[1:], sizes_left[0]
        window = pool[: _window(len(pool), size - 1)]
        options = []
        for companions in combinations(window, size - 1):
            table = (first, *companions)
            options.append((_repeats(table, meetings), sum(position[p] for p in companions), table))
        options.sort(key=lambda o: (o[0], o[1]))
        for added, _near, table in options:
            if tried >= SEARCH_BUDGET or best_cost == 0:
                return
            tried += 1
            rest = [p for p in left if p not in table]
            search(rest, sizes_left[1:], [*tables, table], cost + added)

    search(list(order), sorted(sizes, reverse=True), [], 0)
    assert best is not None  # the first path always seats everyone: every option is a table
    return best


def swiss_round(order: Sequence[str], results: Sequence[GameResult], size: int = 2,
                minimum: int = 2) -> Round:
    """The next Swiss round for the players in *order* (the standings' order, or the lots' for the
    first round) after *results* (module docstring).

    Raises:
        ValueError: As :func:`table_sizes`; a player twice in *order*.
    """
    if len(set(order)) != len(order):
        raise ValueError("a player is listed twice")
    sizes, bye_count = table_sizes(len(order), size, minimum)
    byes = _byes_to(order, bye_count, results)
    seated = [p for p in order if p not in byes]
    tables = _seat(seated, sizes, met(results)) if seated else []
    return Round(tuple(seat_order(t, results) for t in tables), tuple(p for p in order if p in byes))


def berger_round(players: Sequence[str], index: int, results: Sequence[GameResult] = ()) -> Round:
    """Round *index* (0-based) of a round robin at tables of two, by the circle method of the
    Berger tables (FIDE C.05 Annex 1: one player fixed, the others turning one place a round): with
    an odd count a bye takes the place of the missing player. Over ``n - 1`` rounds (*n* the count,
    rounded up to even) every pair meets once. Seat order by :func:`seat_order` after *results*.

    Raises:
        ValueError: Fewer than two players, or *index* not below the number of rounds.
    """
    ids: list[str | None] = list(players)
    if len(ids) < 2:
        raise ValueError("a round robin needs two players or more")
    if len(ids) % 2:
        ids.append(None)
    n = len(ids)
    if not 0 <= index < n - 1:
        raise ValueError(f"a round robin of {len(players)} has rounds 0 to {n - 2}, not {index}")
    fixed, ring = ids[-1], ids[:-1]
    ring = ring[index:] + ring[:index]
    pairs = [(fixed, ring[0])] + [(ring[i], ring[-i]) for i in range(1, n // 2)]
    tables: list[tuple[str, ...]] = []
    byes: list[str] = []
    for a, b in pairs:
        if a is None or b is None:
            byes.extend(p for p in (a, b) if p is not None)
        else:
            tables.append(seat_order((a, b), results))
    return Round(tuple(tables), tuple(byes))
