"""Provides the search bot's evaluation: what a position is worth, fitted to games.

A position is worth, to each seat, its score plus a linear function of a few counts of the seat's
position, with weights fitted by least squares to the points the seat went on to score, more or
less than its opponent, in games of the greedy bot against itself (``benchmarks/fit_evaluation.py``
makes the games and prints the table below; docs/bots.md says how it was chosen and measured).

The counts (:func:`features`), per seat, each taken twice: as they are, and times the share of
the tiles still in the bag (``tiles_left / 72``), so that a weight can change as the game runs out:

====== ==================================================================================
proj   Points the seat would get if the game ended now (``Game.projected_scores``), over its
       score: its incomplete roads, cities, cloisters and gardens and its farms.
city1  Size (tiles and pennants) of the incomplete cities it holds with 1 open side or none.
city2  The same, 2 open sides.
city3  The same, 3 or more open sides.
area   Empty positions around the cloisters and gardens it holds.
farm   Incomplete cities bordering the farms it holds (each may yet score for the farm).
supply Meeples in its supply.
placed Its figures on the board (meeples and abbot).
====== ==================================================================================

A row of :data:`WEIGHTS` may add two counts (``base+dead``, the expert's), from
``Game.dead_held_features``: the features that can never be completed (they touch an open position
no tile still to come fits):

====== ==================================================================================
dead   Its figures on such features (stuck there till the end of the game).
deadw  Size (tiles and pennants; a cloister's tiles) of those of them it holds.
====== ==================================================================================

"Holds" is HiG's majority: the seat has the most figures on the feature, ties included.
"""

from __future__ import annotations

from carcnet.engine import Game, Phase, Rules, SegmentKind

__all__ = ["DEAD_FEATURES", "FEATURES", "WEIGHTS", "features", "margin", "values", "weights_for"]

_CITY = SegmentKind.CITY
_FIELD = SegmentKind.FIELD
_AREA = (SegmentKind.CLOISTER, SegmentKind.GARDEN)

#: The counts of :func:`features`, in order (module docstring).
FEATURES = ("proj", "city1", "city2", "city3", "area", "farm", "supply", "placed")

#: The counts a row of :data:`WEIGHTS` with 20 weights adds after :data:`FEATURES` (module docstring).
DEAD_FEATURES = ("dead", "deadw")

#: The tiles of a base game (the share of the bag left is ``tiles_left / TILES``).
TILES = 72

#: Fitted weights per rule set: for each count of :data:`FEATURES`, its weight as it is, then its
#: weight times the share of the bag left. ``base``: without The Abbot (the River changes little of
#: the middle game); ``abbot``: with it (a figure more, and gardens). Made by
#: ``python benchmarks/fit_evaluation.py --games 4000`` (and ``--river --abbot``): 2 seats,
#: 284,000 and 332,000 positions, R² 0.23 and 0.21 (most of what is to come is the tiles' luck).
#: ``inns`` and ``traders``: with Inns & Cathedrals, with Traders & Builders, by
#: ``--games 2000 --inns --held-out 1000`` (and ``--traders``): 177,662 and 189,859 positions, R²
#: 0.133 and 0.163; on the 1,000 held-out games each predicts better than the ``base`` row did
#: there (R² 0.123 against 0.117; 0.159 against 0.148).
#: ``base+dead``: the base game with :data:`DEAD_FEATURES` (the expert's row), by
#: ``--games 3000 --dead --held-out 1000``: 212,796 positions, R² 0.253; on the 1,000 held-out games
#: 0.255 against the ``base`` row's 0.218.
WEIGHTS: dict[str, tuple[float, ...]] = {
    "base": (
        0.972, 0.141, 0.082, 0.022, -0.060, 0.110, 2.281, -2.281,
        -0.194, 1.159, 0.641, 0.183, 0.389, 0.625, -1.758, 1.758,
    ),
    "base+dead": (
        1.009, 0.178, 0.116, 0.068, -0.060, -0.140, 2.024, -2.024, 0.040, -0.115,
        -0.252, 1.151, 0.648, 0.261, 0.491, 0.941, -1.573, 1.573, -11.738, 0.422,
    ),
    "abbot": (
        1.002, 0.130, -0.010, 0.037, -0.044, 0.013, 3.039, -1.215,
        -0.238, 1.260, 0.970, 0.111, 0.355, 1.204, -1.956, 0.198,
    ),
    "inns": (
        0.975, 0.330, -0.029, -0.126, 0.094, 0.318, 1.221, -3.450,
        -0.674, 1.344, 1.151, -0.231, 0.004, 0.245, 1.900, 6.256,
    ),
    "traders": (
        1.029, 0.324, 0.040, -0.036, -0.065, 0.260, 5.241, -0.869,
        -0.450, 1.629, 1.562, 0.943, 0.382, -0.532, -1.129, 2.403,
    ),
}  # fmt: skip


def weights_for(rules: Rules, dead: bool = False) -> tuple[float, ...]:
    """The row of :data:`WEIGHTS` for a game played under *rules*: an expansion's when it is played
    (Traders & Builders' before Inns & Cathedrals' when both are: the tile mix and the figures
    change more than The Abbot's one figure does), else The Abbot's, else the base game's
    (``base+dead`` if *dead*: the features that can never be completed counted too; as ``base``,
    used with The River too)."""
    if dead and not (rules.abbot or rules.inns or rules.traders):
        return WEIGHTS["base+dead"]
    if rules.traders:
        return WEIGHTS["traders"]
    if rules.inns:
        return WEIGHTS["inns"]
    return WEIGHTS["abbot" if rules.abbot else "base"]


def features(game: Game, dead: bool = False) -> list[list[float]]:
    """Per seat (indexed by seat), the counts of :data:`FEATURES` in that order, then if *dead*
    those of :data:`DEAD_FEATURES`. Pure."""
    n = game.players
    totals = game.projected_scores()
    scores = game.scores
    supply = game.supply
    out = [[float(totals[s] - scores[s]), 0.0, 0.0, 0.0, 0.0, 0.0, float(supply[s]), 0.0] for s in range(n)]
    for held in game.held_features():
        figures = held.figures
        most = max(figures)
        kind = held.kind
        if kind is _CITY:
            slot = 1 if held.open <= 1 else 2 if held.open == 2 else 3
            worth = held.tiles + held.pennants
        elif kind is _FIELD:
            slot, worth = 5, held.open
        elif kind in _AREA:
            slot, worth = 4, held.open
        else:
            slot, worth = 0, 0
        for s in range(n):
            c = figures[s]
            if c:
                out[s][7] += c
                if c == most and slot:
                    out[s][slot] += worth
    if dead:
        for row in out:
            row += (0.0, 0.0)
        for held in game.dead_held_features():
            figures = held.figures
            most = max(figures)
            worth = held.tiles + held.pennants
            for s in range(n):
                c = figures[s]
                if c:
                    out[s][8] += c
                    if c == most:
                        out[s][9] += worth
    return out


def values(game: Game, weights: tuple[float, ...] | None = None) -> list[float]:
    """Per seat, what the position is worth in points: the score plus the weighted counts (the
    real final scores once the game is over). *weights*: a row of :data:`WEIGHTS` (default: the
    one for the game's rules; one of 20 weights counts :data:`DEAD_FEATURES` too)."""
    if game.phase is Phase.GAME_OVER:
        return [float(s) for s in game.scores]
    w = weights_for(game.setup.rules) if weights is None else weights
    share = game.tiles_left / TILES
    k = len(w) // 2  # 8 counts, or 10 with DEAD_FEATURES
    out = []
    for score, counts in zip(game.scores, features(game, k > len(FEATURES)), strict=True):
        v = float(score)
        for i, x in enumerate(counts):
            if x:
                v += x * (w[i] + w[k + i] * share)
        out.append(v)
    return out


def margin(game: Game, seat: int, weights: tuple[float, ...] | None = None) -> float:
    """What the position is worth to *seat*, in points: its value (:func:`values`) minus the best
    other seat's. At the end of the game, the real margin."""
    v = values(game, weights)
    return v[seat] - max(x for s, x in enumerate(v) if s != seat)
