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
* Per game: :meth:`Expansion.new_state` makes the state one game keeps for the expansion (in
  ``Game.ext`` at its slot, copied with the game: an object with ``copy()``).
* Its figures (``figures``): :meth:`Expansion.on_deploy` and :meth:`Expansion.on_return` hear where
  one goes and when it leaves; those that claim a feature as a meeple does (``figure_rules``,
  :class:`FigureRule`: how many a seat has, where they go, the refusals' words) are deployed, checked
  and counted in supply by the core (``Game.supplies``), and the state line (``protocol/digest.md`` §3)
  writes the supply of each that has a ``word``, in its owner's ``digest_order``.
* Its moves (``moves``, made in the deploy phase instead of a deploy): :meth:`Expansion.turn_actions`
  offers them, :meth:`Expansion.check_move` and :meth:`Expansion.apply_move` check and make them; in a
  game without the expansion the core refuses them with its ``off_reason``.
* :meth:`Expansion.value` and :meth:`Expansion.completed_points`: what a feature scores when it is
  completed, changed; composed in registry order over the core's value
  (:func:`~carcnet.engine.scoring.feature_value`, :func:`~carcnet.engine.scoring.completed_points`),
  so the table holds one function for each, the core's own in the base game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Protocol

from .events import Event, FeatureInfo, PointsScored
from .features import FeatureGraph
from .moves import DeployMeeple, Figure, Move
from .rules import Rules
from .scoring import completed_points, feature_value
from .tiles import MAX_SEGMENTS, SegmentKind

__all__ = ["BASE_FARM_CITY_POINTS", "HOOKS", "CompletedPoints", "Expansion", "FigureRule", "GameState", "Hooks", "Value",
           "base_completed_points", "base_value", "build_hooks"]

#: What a farm scores each completed city it supplies (HiG "Scoring farms": 3 points).
BASE_FARM_CITY_POINTS = 3


class GameState(Protocol):
    """What a hook may read of a game (:class:`~carcnet.engine.state.Game` is one), and the only ways
    it changes one besides its own state in :attr:`ext`: :meth:`award` and :meth:`return_figure`."""

    players: int
    seat: int
    graph: FeatureGraph
    ext: list[Any]
    supplies: Mapping[Figure, list[int]]

    def feature_info(self, root: int) -> FeatureInfo:
        """The feature whose root is *root*, described (tiles, pennants, cities, figures)."""
        ...  # pragma: no cover (a protocol)

    def expansion_slot(self, expansion: type[Expansion]) -> int | None:
        """The slot of *expansion*'s state in :attr:`ext`, or ``None`` when it is not in play."""
        ...  # pragma: no cover (a protocol)

    def award(self, seats: tuple[int, ...], points: int, info: FeatureInfo, events: list[Event]) -> None:
        """*points* to each of *seats* now, in *info*'s category (a ``PointsScored`` event)."""
        ...  # pragma: no cover (a protocol)

    def return_figure(self, node: int, events: list[Event]) -> None:
        """The figure on the graph node *node* goes back to its seat's supply (a ``MeepleReturned`` event)."""
        ...  # pragma: no cover (a protocol)


@dataclass(frozen=True, slots=True)
class FigureRule:
    """A figure of an expansion that claims a feature as a meeple does (alone, on a feature holding no
    figure), which the core deploys, checks and keeps in supply.

    Attributes:
        figure: The figure.
        per_seat: How many each seat has at the start.
        order: Its place among the deploys offered on one segment (the meeple's is 0).
        kinds: The segment kinds it may go on (less those an expansion in play closes: ``closed_kinds``,
            whose words then say why).
        wrong_kind: Why it may not go on another kind (``"bad-segment"``'s words; ``{label}`` is the kind's).
        none_left: Why it may not be deployed when none is in supply (``"no-supply"``'s words; ``{seat}``
            is the seat).
        word: Its supply's word in the state line (``protocol/digest.md`` §3: `` <word>=<n>,<n>,…``, in
            its owner's ``digest_order``), or ``""``.
        shut: Its kinds that an expansion in play closes (set by :func:`build_hooks`).
        among: :attr:`kinds` as a tuple, for the deploy loop (a kind is found in it by identity, where
            a set would hash the enum in Python: set by :func:`build_hooks`).
    """

    figure: Figure
    per_seat: int
    order: int
    kinds: frozenset[SegmentKind]
    wrong_kind: str
    none_left: str
    word: str = ""
    shut: frozenset[SegmentKind] = frozenset()
    among: tuple[SegmentKind, ...] = ()


#: The method hooks, by name: an expansion's class overrides any of them.
HOOKS = ("score_farms", "value", "completed_points", "new_state", "on_deploy", "on_return",
         "turn_actions", "check_move", "apply_move")

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
        digest_order: The place of its figures' supplies in the state line among the expansions'.
        figures: The figures it owns (their deploys and returns are told to it).
        figure_rules: Those of them the core deploys as it does a meeple (:class:`FigureRule`).
        moves: The moves it adds, made in the deploy phase instead of a deploy.
        off_reason: The reason code of its moves refused in a game without it.
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
    digest_order: ClassVar[int] = 0
    figures: ClassVar[tuple[Figure, ...]] = ()
    figure_rules: ClassVar[tuple[FigureRule, ...]] = ()
    moves: ClassVar[tuple[type[Move], ...]] = ()
    off_reason: ClassVar[str] = "bad-move"

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

    def new_state(self, players: int) -> Any:
        """The state one game of *players* seats keeps for this expansion (with a ``copy()``), or ``None``."""
        return None

    def on_deploy(self, game: GameState, seat: int, figure: Figure, node: int) -> None:
        """One of its *figures* of *seat* went onto the graph node *node*."""

    def on_return(self, game: GameState, seat: int, figure: Figure, node: int) -> None:
        """One of its *figures* of *seat* left the graph node *node* for the supply."""

    def turn_actions(self, game: GameState, out: list[Move]) -> None:
        """Appends to *out* its moves the seat to play may make now instead of deploying."""

    def check_move(self, game: GameState, move: Move) -> None:
        """Raises ``IllegalMoveError`` when *move* (one of its :attr:`moves`) is illegal now; changes nothing."""

    def apply_move(self, game: GameState, move: Move, events: list[Event]) -> None:
        """Makes *move* (checked by :meth:`check_move`), appending its events; the turn then ends."""

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
        slots: Each expansion in play's class → its slot (its state's place in ``Game.ext``).
        claimers: The expansions' claiming figures in deploy order, each with its deploy moves by segment.
        claim_rules: The same by figure.
        new_states: Per slot, what makes its game's state (``None``: it keeps none).
        worded: The claiming figures whose supply the state line writes, in digest order.
        words: Their words, in the same order.
        on_deploy: Figure → its owner's :meth:`Expansion.on_deploy`, for the owners that listen.
        on_return: Figure → its owner's :meth:`Expansion.on_return`, likewise.
        turn_actions: The expansions' :meth:`Expansion.turn_actions`, in registry order.
        moves: Each move type of the expansions in play → the expansion that makes it.
    """

    active: tuple[Expansion, ...]
    names: frozenset[str]
    farm_city_points: int
    exact_projection: bool
    closed_kinds: Mapping[SegmentKind, str]
    score_farms: Callable[[GameState, list[int], dict[int, set[int]]], list[PointsScored]] | None
    value: Value
    completed_points: CompletedPoints
    slots: Mapping[type[Expansion], int]
    claimers: tuple[tuple[FigureRule, tuple[DeployMeeple, ...]], ...]
    claim_rules: Mapping[Figure, FigureRule]
    new_states: tuple[Callable[[int], Any] | None, ...]
    worded: tuple[Figure, ...]
    words: tuple[str, ...]
    on_deploy: Mapping[Figure, Callable[[GameState, int, Figure, int], None]]
    on_return: Mapping[Figure, Callable[[GameState, int, Figure, int], None]]
    turn_actions: tuple[Callable[[GameState, list[Move]], None], ...]
    moves: Mapping[type[Move], Expansion]


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
    worded = sorted(((e.digest_order, rule.figure, rule.word) for e in active for rule in e.figure_rules if rule.word),
                    key=lambda item: item[0])
    closed = {kind: why for e in active for kind, why in e.closed_kinds.items()}
    claimers = sorted((replace(rule, kinds=rule.kinds - closed.keys(), shut=rule.kinds & closed.keys(),
                               among=tuple(sorted(rule.kinds - closed.keys(), key=lambda kind: kind.value)))
                       for e in active for rule in e.figure_rules),
                      key=lambda rule: rule.order)
    return Hooks(
        slots={type(e): e.slot for e in active},
        claimers=tuple((rule, tuple(DeployMeeple(i, rule.figure) for i in range(MAX_SEGMENTS))) for rule in claimers),
        claim_rules={rule.figure: rule for rule in claimers},
        new_states=tuple(e.new_state if _overrides(e, "new_state") else None for e in active),
        worded=tuple(figure for _, figure, _ in worded),
        words=tuple(word for _, _, word in worded),
        on_deploy={f: e.on_deploy for e in active if _overrides(e, "on_deploy") for f in e.figures},
        on_return={f: e.on_return for e in active if _overrides(e, "on_return") for f in e.figures},
        turn_actions=tuple(e.turn_actions for e in active if _overrides(e, "turn_actions")),
        moves={m: e for e in active for m in e.moves},
        value=_composed_value([e.value for e in active if _overrides(e, "value")]),
        completed_points=_composed_points([e.completed_points for e in active if _overrides(e, "completed_points")]),
        active=tuple(active),
        names=frozenset(e.name for e in active),
        farm_city_points=points[0] if points else BASE_FARM_CITY_POINTS,
        exact_projection=any(e.exact_projection for e in active),
        closed_kinds=closed,
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
