"""Provides the seam between the game's core and its expansions (``docs/architecture.md``, "Expansions:
the hook and how to add one"; the plan in ``docs/expansion-hook-plan.md``).

An **expansion** is a class, one per rule set (an expansion of the publisher's, or an edition's
variant), that changes the game only through named **hooks**: methods of :class:`Expansion` that
change nothing unless overridden, and class attributes it declares. It holds no game's state: one
instance is made per (rules, rules version) and shared by every game played under them.

The **hook table** (:class:`Hooks`, made by :func:`build_hooks` once per rules and cached in
:func:`carcnet.engine.expansions.hooks_for`) holds, for each hook, only what the expansions in play
override: in the base game it calls nothing, so the base game runs the core's own statements. The
core reads the table (``Game._hooks``) and never names an expansion.

The hooks grow one expansion at a time, each with its first user (``docs/expansion-hook-plan.md`` §9):

* ``farm_city_points`` (data): what a farm scores each completed city it supplies (3 without a
  declaration, HiG "Scoring farms").
* ``exact_projection`` (data): the projected scores must run the whole final scoring, whose farm
  scoring the core's shortcut does not know.
* ``closed_kinds`` (data): the segment kinds no meeple may go on in its games, each with the
  refusal's words (``"bad-segment"``).
* :meth:`Expansion.score_farms`: the farm scoring of the final scoring, replaced (at most one
  expansion in play may).
* :meth:`Expansion.value` and :meth:`Expansion.completed_points`: what a feature scores when it is
  completed, changed; composed in registry order over the core's value
  (:func:`~carcnet.engine.scoring.feature_value`, :func:`~carcnet.engine.scoring.completed_points`),
  so the table holds one function for each, the core's own in the base game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol

from .events import FeatureInfo, PointsScored
from .features import FeatureGraph
from .rules import Rules
from .scoring import completed_points, feature_value
from .tiles import SegmentKind

__all__ = ["BASE_FARM_CITY_POINTS", "HOOKS", "CompletedPoints", "Expansion", "GameState", "Hooks", "Value",
           "base_completed_points", "base_value", "build_hooks"]

#: What a farm scores each completed city it supplies (HiG "Scoring farms": 3 points).
BASE_FARM_CITY_POINTS = 3


class GameState(Protocol):
    """What a hook may read of a game (:class:`~carcnet.engine.state.Game` is one). A hook changes a
    game only through what it returns to the core."""

    players: int
    graph: FeatureGraph

    def feature_info(self, root: int) -> FeatureInfo:
        """The feature whose root is *root*, described (tiles, pennants, cities, figures)."""
        ...  # pragma: no cover (a protocol)


#: The method hooks, by name: an expansion's class overrides any of them.
HOOKS = ("score_farms", "value", "completed_points")

#: What a completed feature scores, and a feature at the end (``final``): ``value(info, final)``.
Value = Callable[[FeatureInfo, bool], int]
#: What a completed feature scores from its counts: ``completed_points(kind, tiles, pennants, mark)``,
#: *mark* the feature's marks (:data:`~carcnet.engine.tiles.MARK_INN` and the like; 0 without).
CompletedPoints = Callable[[SegmentKind, int, int, int], int]


def base_value(info: FeatureInfo, final: bool) -> int:
    """The core's value of a feature (:func:`~carcnet.engine.scoring.feature_value`)."""
    return feature_value(info, final=final)


#: The core's points for a completed feature (:func:`~carcnet.engine.scoring.completed_points`).
base_completed_points: CompletedPoints = completed_points


class Expansion:
    """One rule set: override what it changes; the defaults change nothing.

    Attributes:
        name: Its key in the registry, and the interface's, the bots' and the log's (lowercase words
            joined by ``-``).
        title: In English, for errors and descriptions (``"first-edition farms"``).
        option: The :class:`~carcnet.engine.rules.Rules` field that turns it on.
        since: The first rules version that plays it.
        words: The words the core must never contain on its behalf (``tests/engine/test_core_names.py``).
        farm_city_points: What a farm scores each completed city it supplies, if it changes that.
        exact_projection: Whether the projected scores must run the whole final scoring.
        closed_kinds: The segment kinds no meeple may go on, each with why (``"bad-segment"``'s words).
        rules: The rules of the games it serves.
        version: Their rules version.
        slot: Its place among the expansions in play (registry order).
    """

    name: ClassVar[str]
    title: ClassVar[str]
    option: ClassVar[str]
    since: ClassVar[int] = 2
    words: ClassVar[tuple[str, ...]] = ()
    farm_city_points: ClassVar[int | None] = None
    exact_projection: ClassVar[bool] = False
    closed_kinds: ClassVar[Mapping[SegmentKind, str]] = {}

    def __init__(self, rules: Rules, version: int, slot: int) -> None:
        self.rules, self.version, self.slot = rules, version, slot

    @classmethod
    def active(cls, rules: Rules, version: int) -> bool:
        """Whether games under *rules* and rules *version* play it: its option on, from :attr:`since`."""
        return bool(getattr(rules, cls.option)) and version >= cls.since

    def score_farms(self, game: GameState, fields: list[int], field_tiles: dict[int, set[int]]) -> list[PointsScored]:
        """The final scoring of the farms, instead of the core's (HiG "Scoring farms": each farm 3 a
        completed city it supplies, to the most farmers on it). *fields*: the roots of the farms with
        farmers, in the order of their first farmer; *field_tiles*: each one's tiles (keys). Pure:
        returns the events, the core adds the points."""
        raise NotImplementedError

    def value(self, info: FeatureInfo, final: bool, points: int) -> int:
        """What *info*'s feature scores, given what it scores before this expansion (*points*):
        completed (during the game, or projected), or at the end (*final*, incomplete). Pure."""
        return points

    def completed_points(self, kind: SegmentKind, tiles: int, pennants: int, mark: int, points: int) -> int:
        """What a completed feature of *kind*, *tiles* tiles and *pennants* pennants (*mark*: its inn
        and cathedral bits) scores, given *points* before this expansion: the same rule as
        :meth:`value`, from counts (a placement's preview, a bot's look ahead). Pure."""
        return points


def _overrides(expansion: Expansion, name: str) -> bool:
    return getattr(type(expansion), name) is not getattr(Expansion, name)


@dataclass(frozen=True, slots=True)
class Hooks:
    """What the core calls of the expansions in play, made once per (rules, rules version). In the
    base game: no expansion, every hook ``None`` or empty, every declaration the base game's.

    Attributes:
        active: The expansions in play, in registry order (their slots).
        names: Their names.
        farm_city_points: What a farm scores each completed city it supplies.
        exact_projection: Whether the projected scores must run the whole final scoring.
        closed_kinds: The segment kinds no meeple may go on, each with why (every expansion's).
        score_farms: The expansion's farm scoring that replaces the core's, or ``None``.
        value: What a feature scores (:data:`Value`): the core's, changed by each expansion in turn.
        completed_points: What a completed feature scores from its counts (:data:`CompletedPoints`).
    """

    active: tuple[Expansion, ...]
    names: frozenset[str]
    farm_city_points: int
    exact_projection: bool
    closed_kinds: Mapping[SegmentKind, str]
    score_farms: Callable[[GameState, list[int], dict[int, set[int]]], list[PointsScored]] | None
    value: Value
    completed_points: CompletedPoints


def build_hooks(rules: Rules, version: int, registry: Sequence[type[Expansion]]) -> Hooks:
    """The hook table of *rules* under rules *version*: of the expansions of *registry* that these
    rules play, each hook's overriders, in registry order.

    Raises:
        ValueError: Two expansions in play replace one thing that only one may (the farm scoring, what
            a farm scores a city).
    """
    active: list[Expansion] = []
    for cls in registry:
        if cls.active(rules, version):
            active.append(cls(rules, version, len(active)))
    farms = [e.score_farms for e in active if _overrides(e, "score_farms")]
    points = [e.farm_city_points for e in active if e.farm_city_points is not None]
    if len(farms) > 1 or len(points) > 1:
        raise ValueError("two expansions in play replace the farm scoring: "
                         + ", ".join(e.title for e in active if _overrides(e, "score_farms") or e.farm_city_points))
    return Hooks(
        value=_composed_value([e.value for e in active if _overrides(e, "value")]),
        completed_points=_composed_points([e.completed_points for e in active if _overrides(e, "completed_points")]),
        active=tuple(active),
        names=frozenset(e.name for e in active),
        farm_city_points=points[0] if points else BASE_FARM_CITY_POINTS,
        exact_projection=any(e.exact_projection for e in active),
        closed_kinds={kind: why for e in active for kind, why in e.closed_kinds.items()},
        score_farms=farms[0] if farms else None,
    )


def _composed_value(rules: list[Callable[[FeatureInfo, bool, int], int]]) -> Value:
    """The core's value, then each of *rules* in turn; the core's own function when there is none."""
    if not rules:
        return base_value

    def value(info: FeatureInfo, final: bool) -> int:
        points = feature_value(info, final=final)
        for rule in rules:
            points = rule(info, final, points)
        return points

    return value


def _composed_points(rules: list[Callable[[SegmentKind, int, int, int, int], int]]) -> CompletedPoints:
    """The core's completed points, then each of *rules* in turn; the core's own when there is none."""
    if not rules:
        return base_completed_points

    def points_of(kind: SegmentKind, tiles: int, pennants: int, mark: int) -> int:
        points = base_completed_points(kind, tiles, pennants, mark)
        for rule in rules:
            points = rule(kind, tiles, pennants, mark, points)
        return points

    return points_of
