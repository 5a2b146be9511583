"""Provides "continue from here": a saved or finished game continued from any of its moves
as a new game at one terminal, the original untouched.

The new game has a game id of its own, the same seats (a bot seat stays that bot, a person's stays a
person's, unless the caller gives others), the same rules and rules version, and replays the
original's first moves: its placements and follow-ups. What a game at one terminal has no use for is
left out: the table's draws, handovers and handbacks (the seat is played by whoever sits at it now).
The tiles come in the same order: a seeded game keeps its seed, a game with a given order keeps it,
and a game whose tiles the table drew (deck.md §5, no order known in advance) gets the tiles drawn
so far, in order, then the rest of the bag shuffled by the deck's algorithm (deck.md §3) with a seed
taken from the original's game id and the move it continues from: the same on every laptop, and
unknown to the players of the original (whose chains never drew those tiles).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from carcnet.engine import DrawTile, Game, HandBack, HandOver, Move, TileDrawn, TokenDrawn
from carcnet.engine.deck import shuffled_groups
from carcnet.i18n import _, ngettext

from .entries import LogHeader, Seat

__all__ = ["continue_from"]


def continue_from(header: LogHeader, moves: Sequence[Move], at: int, *, created: int | None = None,
                  seats: Sequence[Seat] | None = None) -> tuple[LogHeader, list[Move]]:
    """``(header, moves)`` of a new unsigned game that continues the game of *header* and *moves*
    after its first *at* moves (module docstring): a header for a game at one terminal, and the
    moves to replay on it, which leave it where the original stood (the same board, scores,
    figures and tile to play).

    Raises:
        ValueError: *at* not between 0 and ``len(moves)``, or *seats* not one per seat.
        IllegalMoveError: A move of the original the engine refuses (callers pass checked logs).
    """
    if not 0 <= at <= len(moves):
        # Translators: {last} and {at} are moves' numbers.
        raise ValueError(_("the game has moves 0 to {last}: cannot continue after move {at}").format(last=len(moves), at=at))
    seats = list(seats) if seats is not None else list(header.seats)
    if len(seats) != len(header.seats):
        # Translators: {seats} and {given} are numbers of seats.
        raise ValueError(ngettext("the game has {seats} seat, not {given}", "the game has {seats} seats, not {given}",
                                  len(header.seats)).format(seats=len(header.seats), given=len(seats)))
    game = Game(header.setup())
    drawn: list[str] = []
    tokens: list[str] = list(header.tokens or ())  # a given order's, then those the table drew
    for move in moves[:at]:
        for event in game.apply(move):
            if isinstance(event, TileDrawn):
                drawn.append(event.tile)
            elif isinstance(event, TokenDrawn) and header.draws is not None:
                tokens.append(event.token)
    kept = [m for m in moves[:at] if not isinstance(m, DrawTile | HandOver | HandBack)]
    options, version = header.options, header.rules
    if header.seed is not None:
        new = LogHeader.new(seats, seed=header.seed, options=options, created=created, rules=version)
    elif header.order is not None:
        new = LogHeader.new(seats, order=header.order, options=options, created=created, rules=version,
                            tokens=header.tokens)
    else:  # the table's draws: the tiles drawn so far, then the rest of the bag in a new order
        bag = game.bag or []
        seed = int.from_bytes(hashlib.sha256(f"carcnet/continue/v1\0{header.game}\0{at}".encode()).digest()[:8], "big")
        rest = [t for group in shuffled_groups(seed, [list(g) for g in bag]) for t in group]
        new = LogHeader.new(seats, order=(*drawn, *rest), options=options, created=created, rules=version,
                            tokens=tokens if tokens else None)
    return new, kept
