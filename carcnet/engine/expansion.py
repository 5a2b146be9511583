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
* :meth:`Expansion.farm_scoring`: the farm scoring of the final scoring, replaced (at most one
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

from .board import Board, PlacedTile
from .events import Event, FeatureInfo, PointsScored, Scoring
from .features import FeatureGraph
from .moves import DeployMeeple, DrawTile, Figure, Move, PlaceTile
from .rules import Rules
from .scoring import completed_points, feature_value
from .tiles import MAX_SEGMENTS, SegmentKind, TileKind

__all__ = ["BASE_FARM_CITY_POINTS", "HOOKS", "MEEPLE_KINDS", "CompletedPoints", "Expansion", "FigureRule", "GameState", "Hooks", "Step", "Value",
           "base_completed_points", "base_value", "build_hooks"]

#: What a farm scores each completed city it supplies (HiG "Scoring farms": 3 points).
BASE_FARM_CITY_POINTS = 3
#: Where a meeple may go (HA "Deploy a follower": on a road segment, "in a city segment", "in a
#: cloister" or "on a farm segment"), less the kinds an expansion in play closes.
MEEPLE_KINDS = (SegmentKind.FIELD, SegmentKind.ROAD, SegmentKind.CITY, SegmentKind.CLOISTER)  # the commonest first


class Step(Protocol):
    """A question an expansion puts to one seat inside a turn (``Phase.STEP``): pushed by a hook
    (:meth:`GameState.push_step`), answered by one of the expansion's :attr:`Expansion.step_moves`;
    the game waits in ``Phase.STEP`` until every pushed step is answered, then goes on with the turn
    (the next seat draws, or the same seat again). A step is an immutable value (a copy of the game
    shares it); its answer changes the expansion's state, never the step.
    """

    @property
    def seat(self) -> int:
        """Whose answer the game waits for (``Game.actor``)."""
        ...  # pragma: no cover (a protocol)

    @property
    def draws(self) -> bool:
        """Whether the table's draw answers it (a :class:`~carcnet.engine.moves.DrawTile`, the game in
        ``Phase.DRAW``: an expansion's draw at a table whose draws come from the players), not a seat's move."""
        ...  # pragma: no cover (a protocol)

    def words(self) -> str:
        """Its words in the state line after ``step`` (``protocol/digest.md`` §3), e.g. ``second-tile``."""
        ...  # pragma: no cover (a protocol)

    def legal_moves(self, game: GameState) -> list[Move]:
        """Its answers, in a fixed order."""
        ...  # pragma: no cover (a protocol)

    def apply(self, game: GameState, move: Move, events: list[Event]) -> bool:
        """Checks *move* (raising ``IllegalMoveError``, the game unchanged) and answers with it,
        appending its events. Returns whether the seat then plays another tile."""
        ...  # pragma: no cover (a protocol)


class SetupView(Protocol):
    """What a hook may read of a game's setup (:class:`~carcnet.engine.setup.GameSetup` is one)."""

    @property
    def seed(self) -> int | None:
        """The deck's seed, or ``None`` (a given order, or table draws)."""
        ...  # pragma: no cover (a protocol)

    @property
    def tokens(self) -> tuple[str, ...] | None:
        """A given order's tokens of an expansion's bag, or ``None``."""
        ...  # pragma: no cover (a protocol)


class GameState(Protocol):
    """What a hook may read of a game (:class:`~carcnet.engine.state.Game` is one), and the only ways
    it changes one besides its own state in :attr:`ext`: :meth:`award` and :meth:`return_figure`."""

    players: int
    seat: int
    board: Board
    graph: FeatureGraph
    ext: list[Any]
    hidden: int
    held: list[str]
    setup: SetupView
    bag: list[list[str]] | None

    @property
    def supplies(self) -> Mapping[Figure, list[int]]:
        """The expansions' figures in supply per seat, by figure (each list the game's own)."""
        ...  # pragma: no cover (a protocol)

    def feature_info(self, root: int) -> FeatureInfo:
        """The feature whose root is *root*, described (tiles, pennants, cities, figures)."""
        ...  # pragma: no cover (a protocol)

    def remaining(self) -> dict[str, int]:
        """Id → count of the tiles still face down, in id order."""
        ...  # pragma: no cover (a protocol)

    def expansion_slot(self, expansion: type[Expansion]) -> int | None:
        """The slot of *expansion*'s state in :attr:`ext`, or ``None`` when it is not in play."""
        ...  # pragma: no cover (a protocol)

    def figure_nodes(self) -> list[int]:
        """The feature-graph nodes of the figures on the board, in deployment order (the game's own list, to read)."""
        ...  # pragma: no cover (a protocol)

    def award(self, seats: tuple[int, ...], points: int, info: FeatureInfo, events: list[Event]) -> None:
        """*points* to each of *seats* now, in *info*'s category (a ``PointsScored`` event)."""
        ...  # pragma: no cover (a protocol)

    def return_figure(self, node: int, events: list[Event]) -> None:
        """The figure on the graph node *node* goes back to its seat's supply (a ``MeepleReturned`` event)."""
        ...  # pragma: no cover (a protocol)

    def push_step(self, step: Step) -> None:
        """Puts *step*'s question to its seat once the turn's end is reached (from :meth:`Expansion.turn_end`)."""
        ...  # pragma: no cover (a protocol)

    def add_score(self, event: Scoring, events: list[Event]) -> None:
        """*event*'s points to each of its seats now, in its category, *event* appended to *events*."""
        ...  # pragma: no cover (a protocol)

    def hide_tile(self) -> bool:
        """Takes a face-down tile out of the game unseen, when one is left; returns whether one was."""
        ...  # pragma: no cover (a protocol)

    def release_held(self) -> None:
        """The held tiles (:meth:`Expansion.holds`) go back into the pile (``protocol/deck.md`` §8)."""
        ...  # pragma: no cover (a protocol)

    def clear_tile(self, key: int, events: list[Event]) -> None:
        """Every figure on the tile at board key *key* goes back to its supply without points."""
        ...  # pragma: no cover (a protocol)

    def table_pick(self, move: DrawTile, n: int) -> int:
        """Checks the table's draw *move* (answering a step that :attr:`Step.draws`) and returns the
        index in ``[0, n)`` it picks (``protocol/deck.md`` §5.2)."""
        ...  # pragma: no cover (a protocol)

    def weight_of(self, figure: Figure) -> int:
        """How many followers *figure* counts as for a majority (0: it is no follower)."""
        ...  # pragma: no cover (a protocol)

    def majority(self, figures: Sequence[tuple[int, Figure, int]]) -> tuple[int, ...]:
        """The seats with the most followers among *figures* (``(seat, figure, node)``), each figure
        counted at its weight (:attr:`FigureRule.weight`)."""
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
        weight: How many followers it counts as for a feature's majority (the meeple 1; 0: none).
        joins: It goes not alone but beside a follower of its seat's (a figure of weight > 0) on a
            feature that already holds one, instead of claiming one that holds none.
        open_only: (A figure that joins) only on a feature not yet complete.
        wrong_place: (A figure that joins) why it may not go where no follower of its seat's is
            (``"bad-segment"``'s words).
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
    weight: int = 1
    joins: bool = False
    open_only: bool = False
    wrong_place: str = ""
    shut: frozenset[SegmentKind] = frozenset()
    among: tuple[SegmentKind, ...] = ()


#: The method hooks, by name: an expansion's class overrides any of them.
HOOKS = ("farm_scoring", "value", "completed_points", "new_state", "on_deploy", "on_return",
         "turn_actions", "check_move", "apply_move", "on_tile_placed", "turn_end", "on_completed", "farm_bonus",
         "final_scoring", "snapshot", "state_words", "restricts", "filter_placements", "check_placement", "holds",
         "before_scoring", "no_deploy", "clear_tile", "turn_start", "deploy_anywhere")

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
        step_moves: The moves that answer its steps (:class:`Step`), made in ``Phase.STEP`` only.
        off_reason: The reason code of its moves refused in a game without it.
        marked_graph: Its features carry the tiles' marks and goods as they merge (the feature graph
            keeps them: :class:`~carcnet.engine.features.MarkedFeatureGraph`).
        placed_figures: Its figures it deploys itself, with its own rules and in its own state (not on
            the feature graph: they claim nothing and count for no majority): the core hands their
            :class:`~carcnet.engine.moves.DeployMeeple` to its :meth:`check_move` and
            :meth:`apply_move` (Hills & Sheep's shepherd).
        tokens: The kinds of token its bag holds, which a given draw order's setup may list
            (``GameSetup.tokens``; Hills & Sheep's sheep and wolf).
        tie_mark: A tile mark (:attr:`~carcnet.engine.tiles.TileKind.marks`) that breaks ties: of the
            seats tied for the most followers on a feature, those with a follower on a tile with this
            mark score it alone (all of them when none has one); ``""``: none (at most one expansion
            in play has one).
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
    step_moves: ClassVar[tuple[type[Move], ...]] = ()
    off_reason: ClassVar[str] = "bad-move"
    marked_graph: ClassVar[bool] = False
    tie_mark: ClassVar[str] = ""
    placed_figures: ClassVar[tuple[Figure, ...]] = ()
    tokens: ClassVar[tuple[str, ...]] = ()

    def __init__(self, rules: Rules, version: int, slot: int) -> None:
        self.rules, self.version, self.slot = rules, version, slot

    @classmethod
    def active(cls, rules: Rules, version: int) -> bool:
        """Whether games under *rules* and rules *version* play it: its option on, from :attr:`since`."""
        return bool(getattr(rules, cls.option)) and version >= cls.since

    def farm_scoring(self, game: GameState, fields: list[int], field_tiles: dict[int, set[int]]) -> list[PointsScored]:
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

    def on_tile_placed(self, game: GameState, placed: PlacedTile, seat: int | None) -> None:
        """*seat* placed *placed* (its features joined, not yet scored); the start tile's *seat* is ``None``."""

    def restricts(self, game: GameState, kind: TileKind) -> bool:
        """Whether its placement rules apply to placing *kind* now (then the core asks
        :meth:`filter_placements` and :meth:`check_placement`; at most one expansion in play has any).
        Asked once, when *kind* is drawn: the answer holds until it is placed."""
        return False

    def filter_placements(self, game: GameState, kind: TileKind) -> list[tuple[int, tuple[int, ...]]]:
        """Where *kind* may go now, when :meth:`restricts`: ``(key, rotations)`` by key, the rotations
        distinct and fitting (a subset of ``game.board.placements(kind)``)."""
        return game.board.placements(kind)

    def check_placement(self, game: GameState, move: PlaceTile, kind: TileKind, key: int, rotation: int,
                        pattern: int) -> None:
        """Raises ``IllegalMoveError`` when *move* (*kind* turned *rotation* at board key *key*, whose
        neighbours' sides are the frontier *pattern*) breaks its placement rules, when
        :meth:`restricts`; the core checks the sides after it. Changes nothing."""

    def turn_start(self, game: GameState, events: list[Event]) -> None:
        """The seat to play begins its turn, its tile drawn (or the table's draw awaited); not a
        builder's second tile, which is the same turn. Appends its events."""

    def before_scoring(self, game: GameState, events: list[Event]) -> None:
        """The turn's deploy (or skip, or move instead) is made and its completed features are not
        scored yet: appends its events, and may put questions to seats first
        (:meth:`GameState.push_step`); the turn is scored once they are answered."""

    def no_deploy(self, game: GameState, key: int) -> str | None:
        """Why no figure may be deployed on the tile at board key *key* now (``"bad-segment"``'s words),
        or ``None``."""
        return None

    def deploy_anywhere(self, game: GameState) -> bool:
        """Whether this turn's follower may go on a feature of any placed tile instead of the tile just
        placed (:attr:`~carcnet.engine.moves.DeployMeeple.at`): on a feature no figure holds, not
        completed, on a tile :meth:`no_deploy` allows; other figures still only on the tile placed."""
        return False

    def clear_tile(self, game: GameState, key: int, events: list[Event]) -> None:
        """Its own placed figures (:attr:`placed_figures`) on the tile at board key *key* go back to
        their supplies without points (``GameState.clear_tile``)."""

    def holds(self, game: GameState, kind: TileKind) -> bool:
        """Whether a tile of *kind* drawn now waits instead of being played (``Game.held``; with table
        draws it is not drawn): at most one expansion in play holds tiles (``protocol/deck.md`` §8)."""
        return False

    def turn_end(self, game: GameState, events: list[Event]) -> bool:
        """The turn of the seat to play ends (its completed features scored); appends its events, and
        may put a question to a seat first (:meth:`GameState.push_step`). Returns whether the same
        seat plays another tile (once, whichever expansion says so; a step's answer may too)."""
        return False

    def on_completed(self, game: GameState, root: int, info: FeatureInfo, events: list[Event]) -> None:
        """The feature *info* (graph root *root*) was just completed, before it is scored; appends its events."""

    def farm_bonus(self, game: GameState, seats: tuple[int, ...], info: FeatureInfo,
                   figures: Sequence[tuple[int, Figure, int]]) -> list[PointsScored]:
        """Points beyond the core's for the farm *info* held by *figures* and scored to *seats* in the
        final scoring (a farm that supplies at least one completed city). Pure."""
        return []

    def final_scoring(self, game: GameState) -> list[Scoring]:
        """Its final scoring after the core's. Pure: the core adds the points."""
        return []

    def snapshot(self, game: GameState) -> Any:
        """What its words in the state line need, taken after each move (immutable)."""
        return None

    def state_words(self, part: Any) -> str:
        """Its words in the state line (``protocol/digest.md`` §3) from a :meth:`snapshot`, each
        after a space, in its ``digest_order`` after the figures' supplies."""
        return ""

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
        meeple_kinds: The segment kinds a meeple may go on (:data:`MEEPLE_KINDS` less :attr:`closed_kinds`).
        farm_scoring: The expansion's farm scoring that replaces the core's, or ``None``.
        value: What a feature scores (:data:`Value`): the core's, changed by each expansion in turn.
        completed_points: What a completed feature scores from its counts (:data:`CompletedPoints`).
        slots: Each expansion in play's class → its slot (its state's place in ``Game.ext``).
        claimers: The expansions' claiming figures in deploy order, each with its deploy moves by segment.
        claims_by_kind: Each segment kind one of :attr:`claimers` may go on → their indices in
            :attr:`claimers`, in deploy order (empty without them).
        rule_of: Each figure in play → its rule (those that claim and those that join).
        new_states: Per slot, what makes its game's state (``None``: it keeps none).
        worded: The claiming figures whose supply the state line writes, in digest order.
        words: Their words, in the same order.
        on_deploy: Figure → its owner's :meth:`Expansion.on_deploy`, for the owners that listen.
        on_return: Figure → its owner's :meth:`Expansion.on_return`, likewise.
        turn_actions: The expansions' :meth:`Expansion.turn_actions`, in registry order.
        moves: Each move type of the expansions in play → the expansion that makes it.
        marked: The feature graph keeps the tiles' marks and goods (an expansion's ``marked_graph``).
        weights: Each figure whose weight for a majority is not 1 → its weight; ``None`` when there is none.
        joiners: The expansions' figures that join a follower, in deploy order, each with its deploy
            moves by segment.
        stocked: Every figure of :attr:`claimers` and :attr:`joiners` (``Game.supplies``' keys).
        on_tile_placed: The overriders of :meth:`Expansion.on_tile_placed`, in registry order; likewise
            :attr:`turn_end`, :attr:`on_completed`, :attr:`farm_bonus` and :attr:`final_scoring`.
        restricts: The :meth:`Expansion.restricts` of the expansion in play with placement rules, or
            ``None``; :attr:`filter_placements` and :attr:`check_placement` its other two.
        snapshots: The overriders of :meth:`Expansion.snapshot`, in digest order, and
            :attr:`state_words` their :meth:`Expansion.state_words`, in the same order.
        tie_mark: The tile mark that breaks ties for a feature's majority (an expansion's ``tie_mark``), or ``""``.
        placers: Each figure an expansion in play deploys itself → the expansion (``placed_figures``).
        holds: The :meth:`Expansion.holds` of the expansion in play that holds tiles, or ``None``.
        before_scoring: The overriders of :meth:`Expansion.before_scoring`, in registry order; likewise
            :attr:`clear_tile` and :attr:`turn_start`.
        no_deploy: :meth:`Expansion.no_deploy` of the expansions in play, composed (the first reason),
            or ``None``.
        tokens: The kinds of token the bags of the expansions in play hold (``Expansion.tokens``).
        deploy_anywhere: The overriders of :meth:`Expansion.deploy_anywhere`, in registry order.
    """

    active: tuple[Expansion, ...]
    names: frozenset[str]
    farm_city_points: int
    exact_projection: bool
    closed_kinds: Mapping[SegmentKind, str]
    meeple_kinds: tuple[SegmentKind, ...]
    farm_scoring: Callable[[GameState, list[int], dict[int, set[int]]], list[PointsScored]] | None
    value: Value
    completed_points: CompletedPoints
    slots: Mapping[type[Expansion], int]
    claimers: tuple[tuple[FigureRule, tuple[DeployMeeple, ...]], ...]
    claims_by_kind: Mapping[SegmentKind, tuple[int, ...]]
    rule_of: Mapping[Figure, FigureRule]
    new_states: tuple[Callable[[int], Any] | None, ...]
    worded: tuple[Figure, ...]
    words: tuple[str, ...]
    on_deploy: Mapping[Figure, Callable[[GameState, int, Figure, int], None]]
    on_return: Mapping[Figure, Callable[[GameState, int, Figure, int], None]]
    turn_actions: tuple[Callable[[GameState, list[Move]], None], ...]
    moves: Mapping[type[Move], Expansion]
    marked: bool
    weights: Mapping[Figure, int] | None
    joiners: tuple[tuple[FigureRule, tuple[DeployMeeple, ...]], ...]
    stocked: tuple[FigureRule, ...]
    on_tile_placed: tuple[Callable[[GameState, PlacedTile, int | None], None], ...]
    restricts: Callable[[GameState, TileKind], bool] | None
    filter_placements: Callable[[GameState, TileKind], list[tuple[int, tuple[int, ...]]]] | None
    check_placement: Callable[[GameState, PlaceTile, TileKind, int, int, int], None] | None
    turn_end: tuple[Callable[[GameState, list[Event]], bool], ...]
    on_completed: tuple[Callable[[GameState, int, FeatureInfo, list[Event]], None], ...]
    farm_bonus: tuple[Callable[[GameState, tuple[int, ...], FeatureInfo, Sequence[tuple[int, Figure, int]]],
                               list[PointsScored]], ...]
    final_scoring: tuple[Callable[[GameState], list[Scoring]], ...]
    snapshots: tuple[Callable[[GameState], Any], ...]
    state_words: tuple[Callable[[Any], str], ...]
    tie_mark: str
    placers: Mapping[Figure, Expansion]
    holds: Callable[[GameState, TileKind], bool] | None
    before_scoring: tuple[Callable[[GameState, list[Event]], None], ...]
    no_deploy: Callable[[GameState, int], str | None] | None
    clear_tile: tuple[Callable[[GameState, int, list[Event]], None], ...]
    turn_start: tuple[Callable[[GameState, list[Event]], None], ...]
    tokens: tuple[str, ...]
    deploy_anywhere: tuple[Callable[[GameState], bool], ...]


def build_hooks(rules: Rules, version: int, registry: Sequence[type[Expansion]]) -> Hooks:
    """The hook table of *rules* under rules *version*: of the expansions of *registry* that these
    rules play, each hook's overriders, in registry order.

    Raises:
        ValueError: Two expansions in play replace one thing that only one may (the farm scoring, what
            a farm scores a city, where a tile may go, the tie break).
    """
    active: list[Expansion] = []
    for cls in registry:
        if cls.active(rules, version):
            active.append(cls(rules, version, len(active)))
    farm_rules = [e.farm_scoring for e in active if _overrides(e, "farm_scoring")]
    points = [e.farm_city_points for e in active if e.farm_city_points is not None]
    if len(farm_rules) > 1 or len(points) > 1:
        raise ValueError("two expansions in play replace the farm scoring: "
                         + ", ".join(e.title for e in active if _overrides(e, "farm_scoring") or e.farm_city_points))
    placing = [e for e in active if _overrides(e, "restricts")]
    if len(placing) > 1:
        raise ValueError("two expansions in play restrict where a tile goes: " + ", ".join(e.title for e in placing))
    holding = [e for e in active if _overrides(e, "holds")]
    if len(holding) > 1:
        raise ValueError("two expansions in play hold tiles back: " + ", ".join(e.title for e in holding))
    tie_marks = [e.tie_mark for e in active if e.tie_mark]
    if len(tie_marks) > 1:
        raise ValueError("two expansions in play break ties: " + ", ".join(e.title for e in active if e.tie_mark))
    worded = sorted(((e.digest_order, rule.figure, rule.word) for e in active for rule in e.figure_rules if rule.word),
                    key=lambda item: item[0])
    closed = {kind: why for e in active for kind, why in e.closed_kinds.items()}
    rules_in_play = sorted((replace(rule, kinds=rule.kinds - closed.keys(), shut=rule.kinds & closed.keys(),
                                    among=tuple(sorted(rule.kinds - closed.keys(), key=lambda kind: kind.value)))
                            for e in active for rule in e.figure_rules),
                           key=lambda rule: rule.order)
    claimers = [rule for rule in rules_in_play if not rule.joins]
    joiners = [rule for rule in rules_in_play if rule.joins]
    weights = {rule.figure: rule.weight for rule in rules_in_play if rule.weight != 1}
    words = sorted((e for e in active if _overrides(e, "snapshot")), key=lambda e: e.digest_order)
    return Hooks(
        slots={type(e): e.slot for e in active},
        claimers=tuple((rule, tuple(DeployMeeple(i, rule.figure) for i in range(MAX_SEGMENTS))) for rule in claimers),
        claims_by_kind={kind: takers for kind in SegmentKind
                        if (takers := tuple(j for j, rule in enumerate(claimers) if kind in rule.kinds))},
        rule_of={rule.figure: rule for rule in rules_in_play},
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
        meeple_kinds=tuple(kind for kind in MEEPLE_KINDS if kind not in closed),
        farm_scoring=farm_rules[0] if farm_rules else None,
        marked=any(e.marked_graph for e in active),
        weights=weights or None,
        joiners=tuple((rule, tuple(DeployMeeple(i, rule.figure) for i in range(MAX_SEGMENTS))) for rule in joiners),
        stocked=tuple(rules_in_play),
        on_tile_placed=tuple(e.on_tile_placed for e in active if _overrides(e, "on_tile_placed")),
        restricts=placing[0].restricts if placing else None,
        filter_placements=placing[0].filter_placements if placing else None,
        check_placement=placing[0].check_placement if placing else None,
        turn_end=tuple(e.turn_end for e in active if _overrides(e, "turn_end")),
        on_completed=tuple(e.on_completed for e in active if _overrides(e, "on_completed")),
        farm_bonus=tuple(e.farm_bonus for e in active if _overrides(e, "farm_bonus")),
        final_scoring=tuple(e.final_scoring for e in active if _overrides(e, "final_scoring")),
        snapshots=tuple(e.snapshot for e in words),
        state_words=tuple(e.state_words for e in words),
        tie_mark=tie_marks[0] if tie_marks else "",
        placers={figure: e for e in active for figure in e.placed_figures},
        holds=holding[0].holds if holding else None,
        before_scoring=tuple(e.before_scoring for e in active if _overrides(e, "before_scoring")),
        no_deploy=_composed_no_deploy([e.no_deploy for e in active if _overrides(e, "no_deploy")]),
        clear_tile=tuple(e.clear_tile for e in active if _overrides(e, "clear_tile")),
        turn_start=tuple(e.turn_start for e in active if _overrides(e, "turn_start")),
        tokens=tuple(token for e in active for token in e.tokens),
        deploy_anywhere=tuple(e.deploy_anywhere for e in active if _overrides(e, "deploy_anywhere")),
    )


def _composed_no_deploy(rules: list[Callable[[GameState, int], str | None]]
                        ) -> Callable[[GameState, int], str | None] | None:
    """The first reason of *rules*, or ``None`` when there is none; ``None`` without rules."""
    if not rules:
        return None
    if len(rules) == 1:
        return rules[0]

    def no_deploy(game: GameState, key: int) -> str | None:
        return next((why for rule in rules if (why := rule(game, key)) is not None), None)

    return no_deploy


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
