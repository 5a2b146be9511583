"""Provides the greedy bot: the best immediate gain over every placement and deploy choice.

For each legal ``(position, rotation)`` of the drawn tile and each follow-up (a deploy on a legal
segment, or a skip) the bot asks :func:`~carcnet.engine.preview.preview_placement` what the board
would look like, and values the change it makes to every feature that holds figures (or would hold
the meeple about to be deployed): points scored now, meeples returned now, and an estimate of what the
feature is eventually worth to its majority holders. The score of a choice is what it gains the bot
minus what it gains the best-placed opponent. No look-ahead: the heuristics and their constants are
described in ``docs/bots.md``.

The decision is made whole at the placement phase; the deploy is remembered and played in the
following deploy phase if it is still legal (otherwise the deploy options are re-evaluated).
"""

from __future__ import annotations

import math
import random
from typing import TypeVar

from carcnet.engine import (
    DeployMeeple,
    Figure,
    Flock,
    Game,
    Move,
    MoveDragon,
    MoveFairy,
    Phase,
    PlaceTile,
    RemoveKnight,
    PlayerView,
    ReturnAbbot,
    SecondTile,
    SegmentKind,
    SkipMeeple,
    replay,
)
from carcnet.engine.expansions import traders
from carcnet.engine.geometry import key_of, position_of
from carcnet.engine.preview import (
    AreaPreview,
    FeatureChange,
    HeldJoin,
    SegmentPreview,
    feature_changes,
)
from carcnet.engine.tiles import MARK_CATHEDRAL, MARK_INN, MAX_SEGMENTS, ROTATIONS_OF_BITS, unpack_goods

from .base import TurnPlan
from .parts import ANSWERS, instead_moves
from .parts.abbot import abbot_instead

__all__ = ["GreedyBot"]

_T = TypeVar("_T")
#: The moves of a seat's turns: what rebuilds a board (a draw or a handover moves no tile).
TURN_MOVES = (PlaceTile, DeployMeeple, SkipMeeple, ReturnAbbot, SecondTile, Flock, MoveDragon, RemoveKnight,
              MoveFairy)
_SKIP = SkipMeeple()

_ROAD, _CITY, _FIELD = SegmentKind.ROAD, SegmentKind.CITY, SegmentKind.FIELD
#: The follow-ups a valuation names, made once (moves are immutable values).
_SKIP = SkipMeeple()
_DEPLOY = tuple(DeployMeeple(i) for i in range(MAX_SEGMENTS))
_DEPLOY_LARGE = tuple(DeployMeeple(i, Figure.LARGE) for i in range(MAX_SEGMENTS))
_DEPLOY_BUILDER = tuple(DeployMeeple(i, Figure.BUILDER) for i in range(MAX_SEGMENTS))
_DEPLOY_PIG = tuple(DeployMeeple(i, Figure.PIG) for i in range(MAX_SEGMENTS))
_CLOISTER, _GARDEN = SegmentKind.CLOISTER, SegmentKind.GARDEN

# ---------------------------------------------------------------------------------------------------
# The constants of the heuristics (docs/bots.md explains each).

#: Chance that a city with this many open sides gets completed, with plenty of tiles left
#: (index = open sides; 6 and more use the last entry).
CITY_CLOSE = (1.0, 0.85, 0.6, 0.4, 0.25, 0.15, 0.1)
#: Tiles left at which the chance of closing a city starts to fall off (linearly to 0 at 0 tiles).
CITY_CLOSE_TILES = 12
#: Expected further tiles per open road end, with plenty of tiles left.
ROAD_GROWTH = 0.25
#: Tiles left at which road growth starts to fall off.
ROAD_GROWTH_TILES = 15
#: Largest share of a cloister's empty neighbours expected to fill by the end of the game.
CLOISTER_FILL = 0.85
#: Tiles left at which the cloister fill share starts to fall off.
CLOISTER_FILL_TILES = 40
#: Share of an incomplete bordering city expected to be completed by the end, with plenty of tiles.
FARM_CITY_LATER = 0.5
#: What a farm is worth per completed city it supplies, by ``Rules.farms``: 3 (HiG); 4 with
#: first-edition farms (each city once, to the most farmers around it); nothing without farmers.
FARM_CITY_POINTS = {"farm": 3.0, "city": 4.0, "off": 0.0}
#: Tiles left at which that share starts to fall off.
FARM_CITY_TILES = 40
#: Value of a meeple in supply for the rest of the game, at most (points).
MEEPLE_VALUE = 1.5
#: A seat's future turns at which a meeple keeps its full value (fewer: proportionally less).
MEEPLE_TURNS = 10
#: Supply at or below which every missing meeple makes the next one dearer ...
MEEPLE_COMFORT = 4
#: ... by this share of MEEPLE_VALUE per missing meeple.
MEEPLE_SCARCITY = 0.35
#: A farmer never comes back: its meeple costs this many times a returning one.
FARMER_TIE = 2.0
#: Inns & Cathedrals (hand-set, not fitted): chance that a road with an inn gets completed, with
#: plenty of tiles left (falling off like road growth); it scores 2 a tile then, nothing if not.
INN_CLOSE = 0.6
#: Share of a feature's worth that holding it with the large meeple adds (it counts as two, so an
#: opponent who joins needs two meeples to share it).
LARGE_HOLD = 0.15
#: The large meeple away from the supply costs this many times a meeple (there is one).
LARGE_COST = 1.5
#: Traders & Builders (hand-set, not fitted): what the builder beside one's own follower is worth,
#: with plenty of tiles left (the second tiles it may give).
BUILDER_VALUE = 3.0
#: Traders & Builders (hand-set, not fitted): the bonus of a kind of goods (10 points, ties all
#: score it) is valued as 10 × the chance of holding the most at the end, a logistic of the lead
#: (+ 0.5: a tie scores too) over a spread that narrows from ``GOODS_SPREAD`` tokens at the start to
#: 1 at the end (fewer cities left to change it).
GOODS_SPREAD = 3.0


class GreedyBot:
    """Chooses the placement and deploy with the best immediate heuristic gain (see the module).

    Deterministic given *seed*: ties are broken with ``random.Random(seed).random()`` only, whose
    sequence Python keeps stable across versions. Reads the game; never changes it.

    Lifecycle: one instance may play any number of seats and games; between its placement and its
    deploy it holds the planned deploy, checked against the game before it is used.
    """

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)
        self._plan = TurnPlan()

    def choose(self, view: PlayerView) -> Move:
        """The best move for the seat to play: a :class:`PlaceTile` in the placement phase (the
        deploy is planned with it), the planned or best :class:`DeployMeeple` or :class:`SkipMeeple`
        after. Reads only what the player sees (the bag's contents matter to it, never their order).

        Raises:
            ValueError: The game is over.
        """
        game = view.game
        if game.phase is Phase.PLACE_TILE:
            return self._plan.keep(game, *self._best_turn(game))
        if game.phase is Phase.DEPLOY:
            follow = self._plan.take(game)
            if follow is None:
                follow = self._best_deploy(game)
            return self.follow_up(game, follow)
        if game.phase is Phase.STEP:
            return self.answer(game)
        raise ValueError("no legal move: the game is over")

    @staticmethod
    def answer(game: Game) -> Move:
        """This bot's answer to an expansion's question (*game* in ``Phase.STEP``): the answer of the
        bot part of the expansion that asks (:data:`carcnet.bots.parts.ANSWERS`: the flock's, the
        dragon's step); else the first the question lists, its best in nearly every position (the
        builder's second tile: taken, one more placement and deploy)."""
        moves = game.legal_moves()
        answer = ANSWERS.get(type(moves[0]))
        return moves[0] if answer is None else answer(game, moves)

    def follow_up(self, game: Game, planned: Move) -> Move:
        """*planned*, a turn's follow-up, as this bot plays it in *game*'s deploy phase: a skip becomes
        the first move the expansions in play would make instead (each expansion's bot part,
        :func:`carcnet.bots.parts.instead_moves`: the abbot, the princess, a follower through the magic
        portal, the shepherd, the fairy), or stays a skip. A planned deploy the placement made illegal
        (no figure on the dragon's tile: a volcano just placed) is a skip."""
        if type(planned) is DeployMeeple:
            if planned in game.deploy_options():
                return planned
        elif type(planned) is not SkipMeeple:
            return planned
        setup = game.setup
        for instead in instead_moves(setup.rules, setup.rules_version):
            move = instead(game)
            if move is not None:
                return move
        return _SKIP

    def abbot_instead(self, game: Game) -> Move:
        """The follow-up this bot plays for a planned skip with The Abbot (*game* in ``Phase.DEPLOY``):
        :func:`carcnet.bots.parts.abbot.abbot_instead`, or the skip. The search bot plays it too, in
        its turns and its playouts."""
        return abbot_instead(game) or _SKIP

    # ------------------------------------------------------------------ search

    def _best_turn(self, game: Game) -> tuple[PlaceTile, Move]:
        turn = _turn(game)
        letter = game.drawn
        assert letter is not None
        best = -1e18
        tied: list[tuple[int, int, Move]] = []
        for code in game.placement_codes():  # the order of legal_placements(), then rotations
            key = code >> 4
            for rotation in ROTATIONS_OF_BITS[code & 15]:
                for follow, score in turn.evaluate(*feature_changes(game, key, rotation, turn.farms)):
                    if score > best + 1e-9:
                        best = score
                        tied = [(key, rotation, follow)]
                    elif score > best - 1e-9:
                        tied.append((key, rotation, follow))
        key, rotation, follow = self._pick(tied)
        return PlaceTile(letter, position_of(key), rotation), follow

    def ranked_turns(self, game: Game) -> list[tuple[float, PlaceTile, Move]]:
        """Every turn of the seat to play (each legal placement with each follow-up: a meeple's
        deploy, or the skip, which with The Abbot stands for :meth:`abbot_instead`) with this bot's
        heuristic value, best first (ties in the order of the legal placements). *game* is in
        ``Phase.PLACE_TILE``; it is read only. The search bot's candidates and prior."""
        turn = _turn(game)
        letter = game.drawn
        assert letter is not None
        out: list[tuple[float, PlaceTile, Move]] = []
        for code in game.placement_codes():
            key = code >> 4
            for rotation in ROTATIONS_OF_BITS[code & 15]:
                place = PlaceTile(letter, position_of(key), rotation)
                out.extend((score, place, follow) for follow, score in turn.evaluate(*feature_changes(game, key, rotation, turn.farms)))
        out.sort(key=lambda t: -t[0])  # stable: ties keep the legal order
        return out

    def best_turn(self, game: Game) -> tuple[PlaceTile, Move]:
        """The turn this bot plays in *game* (``Phase.PLACE_TILE``): its placement and planned
        follow-up. On a game, not a view: for a search playing on its own determinisations."""
        return self._best_turn(game)

    def _best_deploy(self, game: Game) -> Move:
        """Deploy phase without a usable plan: the best follow-up still legal (:meth:`ranked_follow_ups`),
        ties broken by the seeded generator."""
        ranked = self.ranked_follow_ups(game)
        if not ranked:  # cannot happen (the skip is always legal); kept for safety
            return SkipMeeple()
        best = ranked[0][0]
        return self._pick([follow for score, follow in ranked if score > best - 1e-9])

    def ranked_follow_ups(self, game: Game) -> list[tuple[float, Move]]:
        """The legal follow-ups of the placement just made (*game* in ``Phase.DEPLOY``: a deploy on
        a segment, or the skip) with this bot's heuristic value, best first (ties: the skip, then by
        segment). Previews the placement again on a replay of the game before it; read only."""
        # The tile was placed by the last PlaceTile (a handover may have come after it, mid-turn).
        at = max(i for i, move in enumerate(game.moves) if isinstance(move, PlaceTile))
        place = game.moves[at]
        assert isinstance(place, PlaceTile)
        # the turns alone: a view's game draws from its own order, so the table's draws and the
        # handovers (which move no tile) are left out of the replay
        before = replay(game.setup, [m for m in game.moves[:at] if type(m) in TURN_MOVES])
        changes = feature_changes(before, key_of(*place.position), place.rotation)
        legal: list[Move] = [*game.deploy_options(), SkipMeeple()]
        ranked = [(score, follow) for follow, score in _turn(before).evaluate(*changes) if follow in legal]
        ranked.sort(key=lambda t: -t[0])  # stable: ties keep the skip-then-segments order
        return ranked

    def _pick(self, tied: list[_T]) -> _T:
        """The only choice, or one of the tied choices by one draw of the seeded generator."""
        if len(tied) == 1:
            return tied[0]
        return tied[int(self._rng.random() * len(tied))]


class _Turn:
    """The valuation context of one turn: who plays, how far the game is, each seat's meeple value,
    and a cache of the values of existing features (the same for every placement of the turn)."""

    __slots__ = (
        "cache", "close", "farm", "farms", "fill", "grow", "later", "meeple", "n", "points_of", "seat", "tiles_left",
    )

    def __init__(self, game: Game) -> None:
        n = game.players
        left = game.tiles_left
        self.n = n
        self.seat = game.seat
        self.tiles_left = left
        self.close = min(1.0, left / CITY_CLOSE_TILES)
        self.grow = min(1.0, left / ROAD_GROWTH_TILES)
        self.fill = CLOISTER_FILL * min(1.0, left / CLOISTER_FILL_TILES)
        self.later = FARM_CITY_LATER * min(1.0, left / FARM_CITY_TILES)
        rules = game.setup.rules
        self.farm = FARM_CITY_POINTS[rules.farms]
        #: What a completed feature scores under the game's rules (the hook table's, variants included).
        self.points_of = game.setup.hooks().completed_points
        turns = left / n  # each seat's future turns, roughly
        base = MEEPLE_VALUE * min(1.0, turns / MEEPLE_TURNS)
        self.meeple = [
            base * (1.0 + MEEPLE_SCARCITY * max(0, MEEPLE_COMFORT - game.supply[s])) for s in range(n)
        ]
        self.cache: dict[int, float] = {}
        #: The preview's memo of the farms' cities, for every placement of the turn.
        self.farms: dict[int, set[int]] = {}

    # ------------------------------------------------------------------ feature values

    def estimate(
        self, kind: SegmentKind, open_: int, tiles: int, pennants: int, cities: int, open_cities: int
    ) -> float:
        """Expected final worth of an incomplete feature to its majority holders."""
        if kind is _CITY:
            q = CITY_CLOSE[min(open_, len(CITY_CLOSE) - 1)] * self.close
            return (tiles + pennants) * (1.0 + q)
        if kind is _ROAD:
            return tiles + ROAD_GROWTH * open_ * self.grow
        if kind is _FIELD:
            return self.farm * (cities + self.later * open_cities)
        if kind is _CLOISTER or kind is _GARDEN:
            return tiles + (9 - tiles) * self.fill
        return 0.0

    def joined_value(self, j: HeldJoin) -> float:
        """Estimated worth of an existing feature before the placement (cached for the turn)."""
        v = self.cache.get(j.anchor)
        if v is None:
            v = self.estimate(j.kind, j.open, j.tiles or 0, j.pennants, j.cities, j.open_cities)
            self.cache[j.anchor] = v
        return v

    def after_value(self, sp: SegmentPreview | FeatureChange) -> float:
        """Worth of the merged feature after the placement: its points if complete, else estimated."""
        tiles = sp.tiles or 0
        if sp.complete:
            return float(self.points_of(sp.kind, tiles, sp.pennants, 0))
        return self.estimate(sp.kind, sp.open, tiles, sp.pennants, sp.cities, sp.open_cities)

    # ------------------------------------------------------------------ one placement

    def evaluate(self, changes: tuple[FeatureChange, ...], areas: tuple[AreaPreview, ...]) -> list[tuple[Move, float]]:
        """``(follow-up, score)`` for the skip and every deploy option after a placement, from what
        :func:`~carcnet.engine.preview.feature_changes` says of it."""
        n = self.n
        me = self.seat
        meeple = self.meeple
        delta = [0.0] * n  # change of each seat's expected worth, without any deploy
        deploys: list[tuple[int, float]] = []
        for sp in changes:  # one per feature, by lowest segment: those held, or open to a deploy
            figures = sp.figures
            occupied = any(figures)
            after = self.after_value(sp)
            if occupied:
                for j in sp.held:  # the joined features that hold figures, in the preview's order
                    jf = j.figures
                    top = max(jf)
                    v = self.joined_value(j)
                    for s in range(n):
                        if jf[s] == top:
                            delta[s] -= v
                top = max(figures)
                for s in range(n):
                    if figures[s] == top:
                        delta[s] += after
                    if sp.complete and figures[s]:
                        delta[s] += figures[s] * meeple[s]  # meeples back in supply
            else:
                # deploying makes the bot the only holder; a completed feature returns it at once
                if sp.complete:
                    gain = after
                else:
                    gain = after - meeple[me] * (FARMER_TIE if sp.kind is _FIELD else 1.0)
                deploys.append((sp.index, gain))
        for a in areas:  # those holding figures
            af = a.figures
            top = max(af)
            if top:
                before = self.estimate(a.kind, 0, a.tiles - 1, 0, 0, 0)
                after = 9.0 if a.complete else self.estimate(a.kind, 0, a.tiles, 0, 0, 0)
                for s in range(n):
                    if af[s] == top:
                        delta[s] += after - before
                    if a.complete and af[s]:
                        delta[s] += af[s] * meeple[s]
        base = delta[me]
        others = max(delta[s] for s in range(n) if s != me)
        out: list[tuple[Move, float]] = [(_SKIP, base - others)]
        for index, gain in deploys:
            out.append((_DEPLOY[index], base + gain - others))
        return out


class _MarkedTurn(_Turn):
    """:class:`_Turn` with the expansions. Inns & Cathedrals: roads with an inn and cities with a
    cathedral score only completed (their estimate is what they score then times the chance), and
    the large meeple is a deploy of its own. Traders & Builders: the builder beside the seat's own
    follower on an incomplete road or city, the pig beside its own farmer on a farm it leads. A game
    without them uses :class:`_Turn` and pays nothing."""

    __slots__ = ("builder", "large", "lead", "pig", "spread")

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        seat = game.seat
        #: Whether the seat has its large meeple, builder, pig to deploy.
        self.large = game.supply_of(Figure.LARGE)[seat] > 0
        builders, pigs = game.supplies.get(Figure.BUILDER), game.supplies.get(Figure.PIG)
        self.builder = bool(builders and builders[seat])
        self.pig = bool(pigs and pigs[seat])
        #: Per kind of goods, the seat's tokens less the most any other seat holds (Traders & Builders).
        goods = traders.goods(game)
        self.lead = (tuple(goods[seat][k] - max(g[k] for i, g in enumerate(goods) if i != seat) for k in range(3))
                     if goods is not None and game.players > 1 else None)
        self.spread = 1.0 + (GOODS_SPREAD - 1.0) * min(1.0, self.tiles_left / 71)

    def marked_estimate(
        self, kind: SegmentKind, open_: int, tiles: int, pennants: int, cities: int, open_cities: int, mark: int
    ) -> float:
        """:meth:`estimate` knowing the feature's inn and cathedral bits (*mark*)."""
        if kind is _CITY and mark & MARK_CATHEDRAL:
            return 3.0 * (tiles + pennants) * CITY_CLOSE[min(open_, len(CITY_CLOSE) - 1)] * self.close
        if kind is _ROAD and mark & MARK_INN:
            return 2.0 * (tiles + ROAD_GROWTH * open_ * self.grow) * INN_CLOSE * self.grow
        return self.estimate(kind, open_, tiles, pennants, cities, open_cities)

    def joined_value(self, j: HeldJoin) -> float:
        v = self.cache.get(j.anchor)
        if v is None:
            v = self.marked_estimate(j.kind, j.open, j.tiles or 0, j.pennants, j.cities, j.open_cities, j.mark)
            self.cache[j.anchor] = v
        return v

    def after_value(self, sp: SegmentPreview | FeatureChange) -> float:
        tiles = sp.tiles or 0
        mark = getattr(sp, "mark", 0)
        if sp.complete:
            return float(self.points_of(sp.kind, tiles, sp.pennants, mark))
        return self.marked_estimate(sp.kind, sp.open, tiles, sp.pennants, sp.cities, sp.open_cities, mark)

    def evaluate(self, changes: tuple[FeatureChange, ...], areas: tuple[AreaPreview, ...]) -> list[tuple[Move, float]]:
        """:meth:`_Turn.evaluate`, then the large meeple's deploys: on an incomplete feature free of
        figures, its worth × (1 + ``LARGE_HOLD``) less ``LARGE_COST`` meeple values. A feature listed
        for the large meeple alone (no meeple left) gets no meeple's deploy."""
        out = super().evaluate(changes, areas)
        skip = out[0][1]
        meeple = self.meeple[self.seat]
        no_meeple = {_DEPLOY[sp.index] for sp in changes if not sp.deployable and not any(sp.figures)}
        if no_meeple:
            out = [(move, value) for move, value in out if move not in no_meeple]
        for sp in changes:
            if any(sp.figures):
                continue
            if self.large and sp.large and not sp.complete:
                tie = FARMER_TIE if sp.kind is _FIELD else 1.0
                gain = self.after_value(sp) * (1.0 + LARGE_HOLD) - meeple * tie * LARGE_COST
                out.append((_DEPLOY_LARGE[sp.index], skip + gain))
        if self.builder or self.pig:
            out.extend(self._traders(changes, skip))
        if self.lead is not None:
            bonus = sum(self.goods_value(sp.goods) for sp in changes if sp.complete and sp.goods)
            if bonus:  # the tokens of a city the placement completes are the placer's, whoever holds it
                out = [(move, value + bonus) for move, value in out]
        return out

    def goods_value(self, packed: int) -> float:
        """What the goods *packed* (:func:`~carcnet.engine.tiles.pack_goods`) are worth to the seat:
        per kind, the change in 10 × the chance of holding the most at the end (``GOODS_SPREAD``)."""
        lead = self.lead
        assert lead is not None
        spread = self.spread
        value = 0.0
        for k, n in enumerate(unpack_goods(packed)):
            if n:
                d = lead[k] + 0.5
                value += 10.0 * (1.0 / (1.0 + math.exp(-(d + n) / spread)) - 1.0 / (1.0 + math.exp(-d / spread)))
        return value

    def _traders(self, changes: tuple[FeatureChange, ...], skip: float) -> list[tuple[Move, float]]:
        """Traders & Builders' deploys after a placement, valued (hand-set, not fitted): the builder
        beside the seat's own follower on an incomplete road or city, worth ``BUILDER_VALUE`` points
        while tiles are plenty (a second tile when the feature grows); the pig beside its own farmer
        on a farm it leads, worth 1 a city it supplies (and half that for each open city)."""
        me = self.seat
        out: list[tuple[Move, float]] = []
        for sp in changes:
            figures = sp.figures
            if not figures[me]:
                continue
            if self.builder and (sp.kind is _ROAD or sp.kind is _CITY) and not sp.complete:
                out.append((_DEPLOY_BUILDER[sp.index], skip + BUILDER_VALUE * self.grow))
            elif self.pig and sp.kind is _FIELD and figures[me] == max(figures):
                out.append((_DEPLOY_PIG[sp.index], skip + sp.cities + self.later * sp.open_cities))
        return out


def _turn(game: Game) -> _Turn:
    """The valuation context of *game*'s turn: :class:`_MarkedTurn` with the expansions."""
    rules = game.setup.rules
    return _MarkedTurn(game) if rules.inns or rules.traders else _Turn(game)
