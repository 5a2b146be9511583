"""Provides the review of a game: where did a seat lose it?

For every turn of every seat (each tile placed, with its follow-up: a deploy, a skip, the abbot's
move), the search bot at a level (hard by default) searches the position as it would have at the
table, from that seat's view (the bag is known, the order is not), and, when it would have played
another turn, both turns are played out on the same sampled futures (the level's horizon of greedy
turns, then its fitted evaluation, :mod:`carcnet.bots.evaluation`): the mean of the differences of
the seat's margin is the **points at stake**, with its standard error as the **spread**. Futures
of their own (not those the search chose on), so that the bot's turn is not favoured by the luck
that made the search pick it. A turn is **marked** when the bot's turn is worth at least
:data:`MARK_POINTS` more and more than twice the spread: an estimate, not a verdict.

Pure and deterministic: the generators are seeded from the position (:func:`turn_seed`).
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from carcnet.engine import Game, GameSetup, Move, Phase, PlaceTile

from .evaluation import margin, weights_for
from .greedy_bot import GreedyBot
from .search_bot import LEVELS, SearchBot, Stats, _play_out, turn_seed

__all__ = ["MARK_POINTS", "FUTURES", "TurnReview", "review_game", "review_turn", "turns_of"]

#: Points the bot's turn must be worth more, at least, for a turn to be marked.
MARK_POINTS = 3.0

#: Sampled futures each of the two turns is played out on.
FUTURES = 48


@dataclass(frozen=True, slots=True)
class TurnReview:
    """The review of one turn.

    Attributes:
        move: The index in the game's moves of the turn's placement (0-based).
        turn: The turn's number among the game's placements (1-based), as the replay numbers them.
        seat: The seat that played it.
        played: The turn as played: its placement and its follow-up (a deploy, a skip…).
        best: The bot's turn there, placement and follow-up; equal to *played* when it agrees.
        stake: Points the bot's turn is worth more than the one played (mean over the futures of
            the seat's margin after each; 0 when they agree; negative when the played one did better).
        spread: The standard error of *stake* (points).
        marked: Whether *stake* is at least :data:`MARK_POINTS` and more than twice *spread*.
    """

    move: int
    turn: int
    seat: int
    played: tuple[Move, Move]
    best: tuple[Move, Move]
    stake: float
    spread: float
    marked: bool


def turns_of(setup: GameSetup, moves: Sequence[Move]) -> list[tuple[int, Game, tuple[Move, Move]]]:
    """``(index, position, turn)`` for every placement in *moves*: the index of the placement, a
    copy of the game just before it, and the placement with the follow-up the same seat made.

    Raises:
        IllegalMoveError: A move the engine refuses (callers replay checked logs).
    """
    game = Game(setup)
    out = []
    for i, move in enumerate(moves):
        if isinstance(move, PlaceTile) and i + 1 < len(moves):
            out.append((i, game.copy(), (move, moves[i + 1])))
        game.apply(move)
    return out


def _played_out(game: Game, turn: tuple[Move, Move], policy: GreedyBot, horizon: int, seat: int,
                weights: tuple[float, ...]) -> float:
    game.apply(turn[0])
    if game.phase is Phase.DEPLOY:
        game.apply(turn[1])
    _play_out(game, policy, horizon)
    return margin(game, seat, weights)


def review_turn(position: Game, played: tuple[Move, Move], *, level: str = "hard", seed: int = 0,
                index: int = 0, number: int = 0, futures: int = FUTURES) -> TurnReview:
    """Reviews the turn *played* from *position* (a game waiting for that placement): the module
    docstring. *index* and *number* are passed through to the result.

    Raises:
        ValueError: *position* does not wait for a placement, or *level* is unknown.
    """
    if position.phase is not Phase.PLACE_TILE:
        raise ValueError("a turn is reviewed from the position before its placement")
    seat = position.seat
    view = position.view()
    bot = SearchBot(seed, level)
    key = turn_seed(seed, position)
    found = bot._search(view, key, Stats(), None, None)
    assert found is not None  # no stop was given
    place, follow = found
    after = position.copy()
    after.apply(place)
    best: tuple[Move, Move] = (place, bot._policy.follow_up(after, follow))
    if best == played:
        return TurnReview(index, number, seat, played, best, 0.0, 0.0, False)
    rng = random.Random(key ^ 0x5EED_0F_5EA5)  # futures of their own, not the search's
    policy = GreedyBot(int(rng.random() * 2**32))
    weights = weights_for(position.setup.rules)
    horizon = LEVELS[level].horizon
    diffs = []
    for _ in range(futures):
        future = view.sample(rng)
        diffs.append(_played_out(future.copy(), best, policy, horizon, seat, weights)
                     - _played_out(future, played, policy, horizon, seat, weights))
    stake = statistics.fmean(diffs)
    spread = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    return TurnReview(index, number, seat, played, best, stake, spread, stake >= MARK_POINTS and stake > 2 * spread)


def review_game(setup: GameSetup, moves: Sequence[Move], *, level: str = "hard", seed: int = 0,
                seats: Sequence[int] | None = None, futures: int = FUTURES,
                on_turn: Callable[[int, int], None] | None = None,
                stop: Callable[[], bool] | None = None) -> list[TurnReview]:
    """Reviews every turn of *moves* (of the seats in *seats*, every seat by default), in order.
    *on_turn* (done, total) is called after each, for a progress bar; *stop*, asked before each,
    ends the review early (the turns reviewed so far are returned).

    Raises:
        IllegalMoveError: A move the engine refuses.
        ValueError: An unknown level.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; known levels: {', '.join(LEVELS)}")
    turns = [(n, t) for n, t in enumerate(turns_of(setup, moves), start=1) if seats is None or t[1].seat in seats]
    out = []
    for done, (number, (index, position, played)) in enumerate(turns, start=1):
        if stop is not None and stop():
            break
        out.append(review_turn(position, played, level=level, seed=seed, index=index, number=number, futures=futures))
        if on_turn is not None:
            on_turn(done, len(turns))
    return out
