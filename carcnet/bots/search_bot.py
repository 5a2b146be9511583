"""Provides the search bot: Monte Carlo search over what a player knows, at four levels.

How it decides a turn (``docs/bots.md``):

1. **Candidates.** The greedy bot ranks every turn (each legal placement of the drawn tile with
   each follow-up: a meeple's deploy or the skip, which with The Abbot is the greedy bot's abbot
   move) by its one-ply estimate; the search keeps the best turn of each placement, best first, up
   to the level's *candidates*. The estimate is the prior: the search only reorders turns the
   heuristic thinks reasonable, and spends its time on them.
2. **Determinisations.** The bot is given a :class:`~carcnet.engine.PlayerView`: the bag's contents,
   never its order. Each iteration draws one possible future from the view
   (:meth:`PlayerView.sample`, the face-down tiles shuffled by the bot's own seeded generator): an
   information-set search over determinisations, as in the Carcassonne literature (Cowling, Powley
   and Whitehouse 2012, "Information Set Monte Carlo Tree Search").
3. **Common futures, sequential halving.** In each round every surviving candidate is played out on
   the same sampled futures (so the luck of the tiles cancels out of their comparison), then the
   worse half is dropped; the budget is spread evenly over the rounds.
4. **Playout.** On the sampled game the candidate turn is played, then the next *horizon* turns
   (the opponents' replies and the bot's own next turns) by the greedy policy: a fair model of the
   opponents the bot meets, and far better than random moves at showing what a turn gives away.
   The expert plays its playouts to the end of the game once few tiles are left
   (:attr:`Level.endgame`), where the value is the real margin.
5. **Evaluation.** The position reached is scored by :mod:`carcnet.bots.evaluation`: each seat's
   score plus a linear function of its position (what it would score if the game ended now, its
   incomplete cities by how open they are, its cloisters' and farms' prospects, its meeples in
   supply), fitted to what greedy players went on to score from such positions; the expert's also
   counts the features that can never be completed (:attr:`Level.dead`). The value of the turn is
   the bot's value minus the best other seat's. At the end of the game, the real margin.
6. **Choice.** The survivor with the best total over the futures it was played on; ties go to the
   prior's order.

Deterministic for a given seed and level (the budget is counted in iterations; each turn's generator
is seeded from the seed and the position, :func:`turn_seed`); a *time_cap* (the interface's cap on
think time) stops the search early, which makes the move depend on the machine's speed, as a
person's clock does.

**Pondering** (:meth:`SearchBot.ponder`): while the seat before it plays, the bot searches the
positions it may face next (that seat's likeliest turns by the greedy policy, each with every design
that can be drawn; :mod:`carcnet.bots.ponder`) and keeps the turns found; when the real position is
one of them it is played at once, the very move a search at the turn would make.
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from carcnet.engine import Game, Move, Phase, PlaceTile, PlayerView

from .base import TurnPlan
from .evaluation import margin, weights_for
from .greedy_bot import TURN_MOVES, GreedyBot
from .ponder import positions_ahead

__all__ = ["LEVELS", "Level", "SearchBot", "turn_seed"]


@dataclass(frozen=True, slots=True)
class Level:
    """How hard a search bot tries.

    Attributes:
        name: ``easy``, ``medium``, ``hard`` or ``expert``.
        iterations: Determinisations played per turn (the budget; deterministic).
        candidates: Turns searched: the greedy estimate's best ones, each at a different place or
            turn of the tile (the best follow-up of each, by the estimate) while there are enough.
        horizon: Turns played by the greedy policy after the bot's turn before the evaluation.
        cap: The seconds a turn may take at a table unless its settings say otherwise (the table's
            cap on think time, wall clock; the whole budget takes less at 9 turns in 10 on a laptop
            doing other things, docs/bots.md).
        endgame: Tiles left in the bag at or below which a playout goes on to the end of the game
            instead of *horizon* turns, so that the value is the real final margin (0: never).
        dead: Whether the evaluation counts the features that can never be completed
            (``weights_for(rules, dead=True)``: the ``base+dead`` row, in the base game and with
            The River).
    """

    name: str
    iterations: int
    candidates: int
    horizon: int
    cap: float = 2.0
    endgame: int = 0
    dead: bool = False


#: The levels, weakest first. Budgets measured in docs/bots.md (time per move on this machine).
LEVELS: dict[str, Level] = {
    "easy": Level("easy", 16, 3, 1),
    "medium": Level("medium", 64, 6, 2),
    "hard": Level("hard", 400, 8, 3),
    "expert": Level("expert", 1200, 12, 3, cap=3.0, endgame=10, dead=True),
}


#: Positions searched at most while one seat plays (the likeliest; about 17 s of one core at hard in
#: the base game on a 2-core laptop of 2026): pondering is bounded, not a core kept busy for as long
#: as a person thinks.
PONDER_POSITIONS = 40

#: Positions kept from pondering at most (a table that never gives the bot its turn: cleared).
_PONDERED_MAX = 256


@dataclass(slots=True)
class Stats:
    """What the bot's last search did (for the interface and the tests).

    Attributes:
        iterations: Candidate turns played out on a sampled future (the budget spent).
        candidates: Turns searched (at most the level's *candidates*; 1: no search was needed).
        seconds: Wall time of the search.
        capped: Whether the time cap ended it before its budget.
        pondered: Whether the turn was searched ahead of time (:meth:`SearchBot.ponder`) and played
            at once (*iterations* and *candidates* are that search's; *seconds* the lookup's).
    """

    iterations: int = 0
    candidates: int = 0
    seconds: float = 0.0
    capped: bool = False
    pondered: bool = False


class SearchBot:
    """The search bot at one :class:`Level` (see the module docstring).

    Args:
        seed: Seeds the determinisations and the playouts' tie-breaks.
        level: A key of :data:`LEVELS` (its name is the bot's name).
        time_cap: Seconds a turn may take at most on *clock* (``None``: the iterations alone), from
            :attr:`started` when the table set it, else from the search's start. Anytime: when the
            cap comes the best turn found so far is played (the prior's best if no future was played
            out yet); the cap is checked before each playout, so a turn exceeds it by at most one.
        clock: The wall clock (seconds), :func:`time.perf_counter` unless a test injects one.

    Raises:
        ValueError: An unknown level, naming the known ones.
    """

    slow = True
    """Takes long enough that a table runs it off the event loop, with a "thinking" indicator."""

    def __init__(self, seed: int = 0, level: str = "hard", time_cap: float | None = None,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; known levels: {', '.join(LEVELS)}")
        self.level = LEVELS[level]
        self.name = level
        self.time_cap = time_cap
        #: The wall clock the cap is measured on (seconds; a test injects a slow one).
        self.clock = clock
        #: When the turn began on :attr:`clock` (the table asked for the move), for the next search
        #: only: the cap counts from then, not from when the search began (a worker thread may start
        #: late on a busy laptop); ``None``: from the search's start.
        self.started: float | None = None
        self.stats = Stats()
        self.seed = seed
        self._policy = GreedyBot(seed)
        self._plan = TurnPlan()
        #: turn_seed of a position searched ahead of time -> its turn, candidates and iterations
        self._pondered: dict[int, tuple[PlaceTile, Move, int, int]] = {}

    def choose(self, view: PlayerView) -> Move:
        """The move for the seat to play: the searched turn's placement, then its follow-up. A turn
        searched ahead of time for exactly this position (:meth:`ponder`) is played at once.

        Raises:
            ValueError: The game is over.
        """
        game = view.game
        if game.phase is Phase.PLACE_TILE:
            clock = self.clock
            began = clock()
            cap = self.time_cap
            stop_at = None if cap is None else (began if self.started is None else min(began, self.started)) + cap
            self.started = None
            key = turn_seed(self.seed, game)
            pondered = self._pondered.pop(key, None)
            self._pondered.clear()  # positions of turns gone by
            stats = self.stats = Stats()
            if pondered is not None:
                stats.candidates, stats.iterations, stats.pondered = pondered[2], pondered[3], True
                stats.seconds = clock() - began
                return self._plan.keep(game, pondered[0], pondered[1])
            turn = self._search(view, key, stats, stop_at, None)
            assert turn is not None  # only a stop ends a search without a turn
            stats.seconds = clock() - began
            return self._plan.keep(game, *turn)
        if game.phase is Phase.DEPLOY:
            follow = self._plan.take(game)
            if follow is None:
                return self._policy.choose(view)  # a seat taken over mid-turn
            return self._policy.follow_up(game, follow)
        if game.phase is Phase.STEP:
            return self._policy.answer(game)
        raise ValueError("no legal move: the game is over")

    def ponder(self, view: PlayerView, seat: int, stop: Callable[[], bool] = lambda: False) -> int:
        """Thinks about *seat*'s next turn while the seat before it plays (pondering): for each
        position :func:`~carcnet.bots.ponder.positions_ahead` predicts (that seat's likely turns as
        the greedy policy ranks them, each with every design that can be drawn, the likeliest
        first), up to :data:`PONDER_POSITIONS`, the turn :meth:`choose` would search there,
        searched now with the level's whole budget (no time cap) and kept for :meth:`choose`,
        which plays it at once if the real position is one of them. The same move as a search at
        the turn (:func:`turn_seed`), so a game plays the same with and without pondering unless the
        time cap would have cut the search at the turn.

        Reads only *view* (a player's view: never the order of the tiles face down). Not to be
        called while :meth:`choose` runs (a table ponders between the bot's turns, in one thread at
        a time).

        Args:
            view: The view of the game while another seat plays; read only (a detached view when
                the real game moves on meanwhile).
            seat: The seat this bot plays, the next to play.
            stop: Asked before every playout; when it says so the search under way is dropped and
                pondering ends (a table's signal that the game moved on).

        Returns:
            How many positions were searched to the end (kept ones included).
        """
        if len(self._pondered) > _PONDERED_MAX:
            self._pondered.clear()
        done = 0
        for _turn, _design, _copies, ahead in positions_ahead(view, seat, GreedyBot(self.seed)):
            if stop() or done >= PONDER_POSITIONS:
                break
            key = turn_seed(self.seed, ahead.game)
            if key not in self._pondered:
                stats = Stats()
                turn = self._search(ahead, key, stats, None, stop)
                if turn is None:
                    break
                self._pondered[key] = (*turn, stats.candidates, stats.iterations)
            done += 1
        return done

    # ------------------------------------------------------------------ search

    def _search(self, view: PlayerView, key: int, stats: Stats, stop_at: float | None,
                stop: Callable[[], bool] | None) -> tuple[PlaceTile, Move] | None:
        """Sequential halving over the candidates with common determinisations: in each round every
        surviving candidate is played out on the same sampled futures (so that tile luck cancels
        out of their comparison), then the worse half is dropped; the budget is spread evenly over
        the rounds. The generator is seeded with *key* (:func:`turn_seed`); *stop_at* is the cap on
        :attr:`clock` (anytime: the best so far when it comes); *stop* drops the search (``None``)."""
        clock = self.clock
        game = view.game
        seat = game.seat
        level = self.level
        candidates = _candidates(self._policy.ranked_turns(game), level.candidates)
        stats.candidates = len(candidates)
        if len(candidates) == 1:
            return candidates[0]
        if stop_at is not None and clock() >= stop_at:  # anytime: the prior's best when no time is left
            stats.capped = True
            return candidates[0]
        rng = random.Random(key)  # the same position, the same futures (pondering)
        policy = GreedyBot(int(rng.random() * 2**32))  # the playouts' tie-breaks, seeded per turn
        weights = weights_for(game.setup.rules, level.dead)
        # in the last tiles a playout is short: to the end of the game, where the value is exact
        horizon = game.tiles_left + 1 if game.tiles_left <= level.endgame else level.horizon
        totals = [0.0] * len(candidates)
        alive = list(range(len(candidates)))
        rounds = max(1, math.ceil(math.log2(len(candidates))))
        budget = level.iterations
        done = 0
        for r in range(rounds):
            share = budget // (rounds - r) if r < rounds - 1 else budget
            samples = max(1, share // len(alive))
            for _ in range(samples):
                future = view.sample(rng)
                values: list[float] = []
                for c in alive:
                    # the cap is checked before every playout (one playout is the most it can be
                    # exceeded by); a future not played out for every survivor counts for none of
                    # them, so that the survivors' totals stay comparable
                    if stop_at is not None and done and clock() >= stop_at:
                        stats.capped = True
                        break
                    if stop is not None and stop():
                        return None
                    played = future.copy()
                    place, follow = candidates[c]
                    played.apply(place)
                    played.apply(policy.follow_up(played, follow))
                    _play_out(played, policy, horizon)
                    values.append(margin(played, seat, weights))
                    done += 1
                    budget -= 1
                if stats.capped:
                    break
                for c, value in zip(alive, values, strict=True):
                    totals[c] += value
            if stats.capped or len(alive) == 1:
                break
            alive.sort(key=lambda c: (-totals[c], c))  # every survivor saw the same futures
            alive = sorted(alive[: max(1, (len(alive) + 1) // 2)])
        stats.iterations = done
        best = min(alive, key=lambda c: (-totals[c], c))
        return candidates[best]


#: The rules version line every turn seed's setup text holds (the version turn seeds were made with).
_SEED_RULES = "\nrules 2 "


def turn_seed(seed: int, game: Game) -> int:
    """The seed of a search bot's generator for the turn to play in *game* (a view's game): a
    64-bit integer from BLAKE2b over the bot's *seed*, the public setup (``GameSetup.canonical`` of
    the view: rules, players, the tiles drawn so far and the bag's contents in canonical order) and
    the turns played (placements, deploys, skips and abbot recalls; not the table's draws or
    handovers, which move no figure). The setup text says rules 2 whatever the game's rules version
    (:data:`_SEED_RULES`), so that a new rules version leaves the bots' games alike where it leaves the
    rules alike (rules 3 changed The River's placement rule only). So a turn's search depends on the seed and the position
    alone, not on the turns the bot searched before: a search made ahead of time (pondering, on a
    position the bot predicted) plays exactly the move a search made when the turn comes would."""
    moves = "\n".join(str(m) for m in game.moves if type(m) in TURN_MOVES)
    setup = game.setup.canonical().replace(f"\nrules {game.setup.rules_version} ", _SEED_RULES, 1)
    text = f"{seed}\n{setup}{moves}\n{game.seat} {game.drawn}"
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def _candidates(ranked: list[tuple[float, PlaceTile, Move]], count: int) -> list[tuple[PlaceTile, Move]]:
    """The *count* turns to search: the best turn of each placement, best first (a placement's
    other follow-ups would mostly spend the budget telling apart turns the playouts barely tell
    apart); when there are fewer placements, the next best turns after them, in the prior's order."""
    first: list[tuple[PlaceTile, Move]] = []
    rest: list[tuple[PlaceTile, Move]] = []
    seen: set[PlaceTile] = set()
    for _score, place, follow in ranked:
        if place in seen:
            if len(rest) < count:
                rest.append((place, follow))
        else:
            seen.add(place)
            first.append((place, follow))
            if len(first) == count:
                return first
    return first + rest[: count - len(first)]


def _play_out(game: Game, policy: GreedyBot, turns: int) -> None:
    """Plays *turns* whole turns of *game* by the greedy policy (fewer if it ends)."""
    for _ in range(turns):
        while game.phase is Phase.STEP:  # an expansion's question: the policy's answer
            game.apply(policy.answer(game))
        if game.phase is not Phase.PLACE_TILE:
            return
        place, follow = policy.best_turn(game)
        game.apply(place)
        game.apply(policy.follow_up(game, follow))
