"""Provides the events: what follows from a move, derived by the engine and never stored in the log.

Every peer recomputes them from the moves (JCloisterZone's message/event split). Each scoring event
explains itself: who, how many points, which feature and what it is made of, so a UI can say
"Red +8: city, 3 tiles, 1 pennant" (HiG basic rules, "Score completed roads, cities or cloisters"
and "Final scoring").
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from types import FunctionType
from typing import NamedTuple, TypeVar

from .geometry import Position
from .moves import Figure
from .tiles import SegmentKind

__all__ = [
    "CATEGORIES",
    "BuilderTurn",
    "Event",
    "FeatureCompleted",
    "FeatureInfo",
    "GameEnded",
    "GoodsScored",
    "GoodsTaken",
    "FlockScored",
    "TokenDrawn",
    "TileHeld",
    "DragonMoved",
    "FairyScored",
    "HeldFeature",
    "MeepleDeployed",
    "MeepleReturned",
    "PointsScored",
    "Scoring",
    "SecondTileDeclined",
    "SeatHandedBack",
    "SeatHandedOver",
    "TileDrawn",
    "TilePlaced",
    "TileSetAside",
]

#: Score categories, in the order breakdowns list them: the scoring events' ``category``.
CATEGORIES = ("road", "city", "cloister", "garden", "field", "goods", "sheep", "fairy")

_T = TypeVar("_T")


def _quick_init(cls: type[_T]) -> type[_T]:
    """Gives a frozen, slotted dataclass an ``__init__`` that fills its slots through their
    descriptors instead of ``object.__setattr__``: the same signature, defaults and frozenness,
    made about 40 % faster (the engine makes three or four events a turn). Applied on top of
    ``@dataclass``; the class must have no ``__post_init__`` nor default factories."""
    names: list[str] = []
    defaults: dict[str, object] = {}
    for f in fields(cls):  # type: ignore[arg-type]  # a dataclass by contract, which type[_T] cannot say
        names.append(f.name)
        if f.default is not MISSING:
            defaults[f.name] = f.default
    namespace: dict[str, object] = {f"_set_{n}": getattr(cls, n).__set__ for n in names}
    namespace.update({f"_default_{n}": v for n, v in defaults.items()})
    params = ", ".join(f"{n}=_default_{n}" if n in defaults else n for n in names)
    body = "".join(f"    _set_{n}(self, {n})\n" for n in names)
    exec(f"def __init__(self, {params}):\n{body}", namespace)  # as dataclasses makes its __init__
    init = namespace["__init__"]
    assert isinstance(init, FunctionType)
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[method-assign]  # on purpose: replaces the dataclass __init__
    return cls


class HeldFeature(NamedTuple):
    """A feature with figures on it, in counts only: what a bot's evaluation reads of it
    (:meth:`carcnet.engine.Game.held_features`; a named tuple, as dozens are made a turn).

    Attributes:
        kind: Road, city, cloister, garden or field.
        tiles: Distinct tiles it covers; for a cloister or garden its own tile and the placed
            tiles around it; 0 for a field (its size scores nothing).
        pennants: Pennants in a city; 0 otherwise.
        open: How far it is from complete: open sides of a road or city, empty positions around a
            cloister or garden; for a field, the incomplete cities it borders (which may yet
            score for it).
        figures: Figures on it per seat (meeples and abbots), indexed by seat.
    """

    kind: SegmentKind
    tiles: int
    pennants: int
    open: int
    figures: tuple[int, ...]


@_quick_init
@dataclass(frozen=True, slots=True)
class FeatureInfo:
    """A snapshot of one feature.

    Attributes:
        kind: Road, city, cloister, field, river or garden.
        anchor: ``(position, segment)`` of the feature's first-placed segment: a stable name for it.
        tiles: Positions of the tiles it covers, sorted by (x, y); each tile once. For a cloister or
            garden: its own tile and the placed tiles around it.
        complete: Whether it is complete (fields never are).
        pennants: Pennants in a city; 0 otherwise.
        cities: For a field: the completed cities it borders, each as its sorted tile positions.
        meeples: Figures on it as ``(seat, figure)``, in deployment order.
        inn: A road with an inn on it (Inns & Cathedrals).
        cathedral: A city with a cathedral in it (Inns & Cathedrals).
        goods: A city's goods symbols, ``(wine, grain, cloth)`` (Traders & Builders).
        around: For a cloister or garden, the marks of the placed tiles around it
            (:attr:`~carcnet.engine.tiles.TileKind.marks`), sorted: what an expansion's value may read
            (Hills & Sheep's vineyards).
    """

    kind: SegmentKind
    anchor: tuple[Position, int]
    tiles: tuple[Position, ...]
    complete: bool
    pennants: int = 0
    cities: tuple[tuple[Position, ...], ...] = ()
    meeples: tuple[tuple[int, Figure], ...] = ()
    inn: bool = False
    cathedral: bool = False
    goods: tuple[int, int, int] = (0, 0, 0)
    around: tuple[str, ...] = field(default=(), repr=False)  # derived from the board: its repr as before

    def describe(self) -> str:
        """A short English make-up, e.g. ``"city, 3 tiles, 1 pennant"``, ``"road, 2 tiles, an inn"``
        or ``"field, 2 cities"``."""
        if self.kind == SegmentKind.FIELD:
            n = len(self.cities)
            return f"field, {n} completed {'city' if n == 1 else 'cities'}"
        n = len(self.tiles)
        text = f"{self.kind.label}, {n} {'tile' if n == 1 else 'tiles'}"
        if self.kind == SegmentKind.CITY and self.pennants:
            text += f", {self.pennants} {'pennant' if self.pennants == 1 else 'pennants'}"
        if self.inn:
            text += ", an inn"
        if self.cathedral:
            text += ", a cathedral"
        if any(self.goods):
            text += "".join(f", {n} {kind}" for n, kind in zip(self.goods, ("wine", "grain", "cloth"), strict=True) if n)
        if self.kind in (SegmentKind.CLOISTER, SegmentKind.GARDEN) and not self.complete:
            text = f"{self.kind.label}, {n - 1} of 8 neighbours"
        return text


@_quick_init
@dataclass(frozen=True, slots=True)
class TileDrawn:
    """*seat* drew a tile of design *tile*."""

    seat: int
    tile: str


@_quick_init
@dataclass(frozen=True, slots=True)
class TileSetAside:
    """The tile *seat* drew fits nowhere; it leaves the game and *seat* draws again (HiG "Place a tile")."""

    seat: int
    tile: str


@_quick_init
@dataclass(frozen=True, slots=True)
class FairyScored:
    """The Princess & the Dragon: the fairy's points to the owner of the follower it stands next to:
    1 at the start of that seat's turn (PD11), 3 when that follower's feature is scored, during the
    game or at the end (*final*; PD12)."""

    seats: tuple[int, ...]
    points: int
    final: bool = False

    @property
    def category(self) -> str:
        """The score category: ``"fairy"``."""
        return "fairy"

    def describe(self) -> str:
        """``"+3: the fairy"``."""
        return f"+{self.points}: the fairy"


@_quick_init
@dataclass(frozen=True, slots=True)
class DragonMoved:
    """The Princess & the Dragon: the dragon went to the tile at *position*: moved one tile by *seat*
    (it eats every figure there), or flew to a volcano just placed (*seat* ``None``)."""

    seat: int | None
    position: Position


@_quick_init
@dataclass(frozen=True, slots=True)
class TileHeld:
    """The tile *seat* drew may not be played yet (an expansion's: a dragon tile while no dragon is on
    the board); it waits beside the pile and *seat* draws again (``protocol/deck.md`` §8)."""

    seat: int
    tile: str


@_quick_init
@dataclass(frozen=True, slots=True)
class TilePlaced:
    """A tile went on the board; *seat* is ``None`` for the start tile."""

    seat: int | None
    tile: str
    position: Position
    rotation: int


@_quick_init
@dataclass(frozen=True, slots=True)
class MeepleDeployed:
    """*seat* deployed *figure* on *segment* of the tile at *position*, a segment of kind *kind*;
    *elsewhere* when that is not the tile just placed (a follower through the magic portal, The
    Princess & the Dragon)."""

    seat: int
    position: Position
    segment: int
    figure: Figure
    kind: SegmentKind
    elsewhere: bool = field(default=False, repr=False)  # (its repr as before the magic portal)


@_quick_init
@dataclass(frozen=True, slots=True)
class FeatureCompleted:
    """A road, city, cloister or garden became complete this turn (scored or not)."""

    feature: FeatureInfo


@_quick_init
@dataclass(frozen=True, slots=True)
class PointsScored:
    """Each seat in *seats* scores *points* for *feature*.

    Attributes:
        seats: The majority holders, in seat order (all tied seats score in full).
        points: Points each of them scores.
        feature: The feature and its make-up.
        final: True in the final scoring; False for a completion (or an abbot taken back) in play.
    """

    seats: tuple[int, ...]
    points: int
    feature: FeatureInfo
    final: bool
    farmers: bool = False
    """True when the points are the farmers' for the completed city *feature*: first-edition farm
    scoring (``Rules.farms == "city"``, HA FN 28), where *seats* hold the most farmers in the farms
    that supply it. They count as farm points."""
    pig: bool = False
    """True when the points are Traders & Builders' pig's: 1 a completed city of the farm *feature*
    to its owner, who scores the farm (4 a city instead of 3). They count as farm points."""

    @property
    def category(self) -> str:
        """The score category the points go to: ``"field"`` for farmers, else the feature's kind."""
        return "field" if self.farmers or self.pig else self.feature.kind.label

    def describe(self) -> str:
        """``"+8: city, 3 tiles, 1 pennant"``; ``"+4: farmers supplying a city, 3 tiles"``."""
        if self.farmers:
            return f"+{self.points}: farmers supplying a {self.feature.describe()}"
        if self.pig:
            return f"+{self.points}: the pig in a {self.feature.describe()}"
        return f"+{self.points}: {self.feature.describe()}"


@_quick_init
@dataclass(frozen=True, slots=True)
class GoodsTaken:
    """Traders & Builders: *seat*, who completed the city *feature* by placing its last tile, takes
    its goods, *goods* = ``(wine, grain, cloth)`` tokens, whoever holds the city (ZM-TB "Scoring a
    city with Goods symbols", docs/rules.md)."""

    seat: int
    goods: tuple[int, int, int]
    feature: FeatureInfo


@_quick_init
@dataclass(frozen=True, slots=True)
class BuilderTurn:
    """Traders & Builders: *seat*'s tile extended the road or city holding its builder, so it draws
    and places a second tile this turn (ZM-TB "Placing a Land tile and getting a double turn")."""

    seat: int


@_quick_init
@dataclass(frozen=True, slots=True)
class SecondTileDeclined:
    """Traders & Builders (rules 5 on): *seat* leaves the second tile its builder gave it; the next
    seat's turn begins (ZM-TB: "you *may* immediately draw and place another Land tile")."""

    seat: int


@_quick_init
@dataclass(frozen=True, slots=True)
class GoodsScored:
    """Traders & Builders' final scoring: each seat in *seats* holds the most tokens of the goods
    *kind* (``"wine"``, ``"grain"`` or ``"cloth"``; at least one) and scores *points* (10; ties all
    score, ZM-TB "Final scoring").

    Attributes:
        kind: The goods.
        seats: The seats with the most of them, in seat order.
        points: Points each scores (10).
        count: How many tokens each of them holds.
    """

    kind: str
    seats: tuple[int, ...]
    points: int
    count: int
    final: bool = True

    @property
    def category(self) -> str:
        """The score category: ``"goods"``."""
        return "goods"

    def describe(self) -> str:
        """``"+10: the most wine (3 tokens)"``."""
        return f"+{self.points}: the most {self.kind} ({self.count} token{'s' if self.count != 1 else ''})"


@_quick_init
@dataclass(frozen=True, slots=True)
class TokenDrawn:
    """Hills & Sheep: a token drawn from the sheep bag for *seat*'s flock (HS6, HS7): ``"1"`` to
    ``"4"`` sheep join it, ``"W"`` a wolf scatters every flock of its field (the shepherds return
    without points, their sheep to the bag)."""

    seat: int
    token: str


@_quick_init
@dataclass(frozen=True, slots=True)
class FlockScored:
    """Hills & Sheep: a field's flock herded into the stable (HS8): each seat in *seats* (a shepherd
    of its there) scores *points*, 1 a sheep in the field; the shepherds return, the sheep go back
    to the bag.

    Attributes:
        seats: The seats with a shepherd in the field, in seat order.
        points: What each scores: the sheep shown on the field's tokens.
        field: The field (kind field): its anchor names it.
    """

    seats: tuple[int, ...]
    points: int
    field: FeatureInfo
    final: bool = False

    @property
    def category(self) -> str:
        """The score category: ``"sheep"``."""
        return "sheep"

    def describe(self) -> str:
        """``"+7: a flock of 7 sheep"``."""
        return f"+{self.points}: a flock of {self.points} sheep"


@_quick_init
@dataclass(frozen=True, slots=True)
class MeepleReturned:
    """A figure went back to *seat*'s supply from *segment* of the tile at *position*."""

    seat: int
    position: Position
    segment: int
    figure: Figure


@_quick_init
@dataclass(frozen=True, slots=True)
class SeatHandedOver:
    """*bot* plays *seat* from now on, run by the player of seat *by* (a :class:`~carcnet.engine.moves.HandOver`)."""

    seat: int
    bot: str
    by: int


@_quick_init
@dataclass(frozen=True, slots=True)
class SeatHandedBack:
    """*seat*'s own player plays it again; the bot run by the player of seat *by* stops (a
    :class:`~carcnet.engine.moves.HandBack`)."""

    seat: int
    by: int


@_quick_init
@dataclass(frozen=True, slots=True)
class GameEnded:
    """The final scoring is done. *scores* is indexed by seat; *winners* holds every top seat."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


Event = (
    TileDrawn
    | TileSetAside
    | TilePlaced
    | MeepleDeployed
    | FeatureCompleted
    | PointsScored
    | GoodsTaken
    | GoodsScored
    | BuilderTurn
    | SecondTileDeclined
    | MeepleReturned
    | SeatHandedOver
    | SeatHandedBack
    | GameEnded
)

#: A scoring event of the final scoring: ``seats``, ``points`` each and a ``category``.
Scoring = PointsScored | GoodsScored | FlockScored | FairyScored
