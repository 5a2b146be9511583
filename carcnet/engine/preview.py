"""Provides placement previews: what placing the drawn tile would do, computed without placing it.

:func:`preview_placement` answers, for one ``(position, rotation)`` of the drawn tile, what every
segment of the turned tile would become part of once it is placed (HiG basic rules, "Place a tile"):
which existing features it joins, whether the merged feature would be complete, its open count, tiles,
pennants and figures, and whether the current seat could deploy on it (HiG "Deploy a follower");
also which neighbouring cloisters the placement completes. :meth:`PlacementPreview.turn_points` then
gives the points each seat would score this turn for a given deploy choice (HiG "Score completed
roads, cities or cloisters"), majorities included.

Everything is computed from the feature graph as it stands, by merging the data of the roots the new
tile would join: the game is neither copied nor changed (``FeatureGraph.find`` compresses paths,
which changes no feature). It is a bot's and a UI's "what if" query, about 16 µs per placement (median);
the per-feature parts are named tuples (immutable, and several times cheaper to make than frozen
dataclasses, which matters to the bots' playouts).

>>> from carcnet.engine import Game, GameSetup, Position
>>> game = Game(GameSetup(players=2, draw_order=("E", "V")))
>>> p = preview_placement(game, Position(0, -1), 2)  # E's city turned south, onto the start city
>>> city = p.segments[0]
>>> city.kind.label, city.complete, city.tiles, city.joins[0].anchor
('city', True, 2, (Position(x=0, y=0), 0))
>>> p.deploy_options(), p.turn_points(0), p.turn_points(None)
((0, 1), (4, 0), (0, 0))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from .board import PlacedTile
from .errors import IllegalMoveError
from .features import FeatureGraph, MarkedFeatureGraph
from .events import FeatureInfo
from .expansion import CompletedPoints, Value, base_value
from .geometry import RING_OFFSETS, Position, key_of, position_of
from .moves import DeployMeeple, Figure, PlaceTile
from .game import Game
from .phase import Phase
from .tiles import SegmentKind, TileKind, TileVariant

__all__ = [
    "AreaPreview",
    "Completion",
    "FeatureChange",
    "HeldJoin",
    "JoinedFeature",
    "PlacementPreview",
    "SegmentPreview",
    "feature_changes",
    "preview_placement",
]

_FIELD, _RIVER, _GARDEN = SegmentKind.FIELD, SegmentKind.RIVER, SegmentKind.GARDEN
_AREA = (SegmentKind.CLOISTER, _GARDEN)
_LARGE = Figure.LARGE
_PIG, _BUILDER = Figure.PIG, Figure.BUILDER

Anchor = tuple[Position, int]
"""``(position, segment)`` of a feature's first-placed segment, as in ``FeatureInfo.anchor``."""


class JoinedFeature(NamedTuple):
    """An existing feature that a segment of the new tile would join, as it is *before* the placement.

    Attributes:
        anchor: ``(position, segment)`` of its first-placed segment (``FeatureInfo.anchor``).
        kind: Road, city, field or river.
        open: Open sides (roads, cities, rivers); 0 for fields.
        tiles: Tiles it covers; ``None`` for fields (counting a field's tiles scans the board).
        pennants: Pennants (cities).
        figures: Figures on it, counted per seat (indexed by seat) as majorities count them (a large meeple is two).
        cities: For fields: completed cities bordering it (HiG "Scoring farms"); 0 otherwise.
        open_cities: For fields: incomplete cities bordering it; 0 otherwise.
    """

    anchor: Anchor
    kind: SegmentKind
    open: int
    tiles: int | None
    pennants: int
    figures: tuple[int, ...]
    cities: int = 0
    open_cities: int = 0


class SegmentPreview(NamedTuple):
    """One segment of the turned tile and the feature it would be part of *after* the placement.

    Segments of the new tile that end up in the same feature (the two city segments of an H tile
    placed between two parts of one city) share all the feature fields; :attr:`feature` says which.

    Attributes:
        index: The segment's index in its design's table row.
        kind: What the segment is.
        feature: The lowest index of the new tile's segments in the same feature (``index`` itself
            when no lower segment shares it): equal values mean one feature.
        anchor: The merged feature's ``(position, segment)`` name, as ``FeatureInfo.anchor`` will
            give it after the placement.
        joins: The distinct existing features merged into it, in placement order of their anchors;
            empty for a cloister, and for a segment that touches no placed tile.
        open: Open sides after the placement (roads, cities, rivers: the sides of the joined features
            and of this tile's segments, less 2 for each side where they meet, HiG "A completed
            road/city"); empty surrounding positions (cloisters, gardens); 0 for fields.
        complete: ``open == 0`` for roads, cities and rivers; 8 neighbours for cloisters and gardens;
            never for fields.
        tiles: Tiles covered after the placement (the new tile once); for a cloister, itself and its
            placed neighbours; ``None`` for fields.
        pennants: Pennants in the merged city (HiG "Scoring summary"); 0 otherwise.
        figures: Figures on the merged feature, counted per seat (indexed by seat) as majorities count them (a large meeple is two).
        deployable: The current seat could deploy here (HiG "Deploy a follower"): no figure on the
            merged feature, not a river or garden, and a meeple in supply.
        cities: For fields: completed cities bordering the merged farm after the placement, a city
            this very placement completes included (HiG "Scoring farms"); 0 otherwise.
        open_cities: For fields: incomplete cities bordering the merged farm after the placement.
    """

    index: int  # type: ignore[assignment]  # the field shadows tuple.index, as a named tuple may
    kind: SegmentKind
    feature: int
    anchor: Anchor
    joins: tuple[JoinedFeature, ...]
    open: int
    complete: bool
    tiles: int | None
    pennants: int
    figures: tuple[int, ...]
    deployable: bool
    cities: int = 0
    open_cities: int = 0


class AreaPreview(NamedTuple):
    """A cloister (or garden) on a tile around the placement, as it would be after it.

    Attributes:
        anchor: ``(position, segment)`` of the cloister.
        kind: Cloister or garden.
        tiles: Its own tile and its placed neighbours after the placement, 2 to 9.
        complete: All 8 surrounding positions filled (HiG "A completed cloister").
        figures: Figures on it, counted per seat.
    """

    anchor: Anchor
    kind: SegmentKind
    tiles: int
    complete: bool
    figures: tuple[int, ...]


class Completion(NamedTuple):
    """A road, city, cloister (or river, garden) the placement completes, before any deploy.

    Attributes:
        kind: What it is.
        anchor: Its ``(position, segment)`` name after the placement.
        segment: The :attr:`SegmentPreview.feature` of the new tile's segment(s) in it, or ``None``
            for a neighbouring cloister.
        tiles: Tiles it covers (9 for a cloister).
        pennants: Pennants (cities).
        figures: Figures on it before the deploy choice, counted per seat.
        points: What each majority holder scores (HiG "Scoring summary": road 1 per tile, city 2 per
            tile and pennant, cloister 9); 0 for a river.
    """

    kind: SegmentKind
    anchor: Anchor
    segment: int | None
    tiles: int
    pennants: int
    figures: tuple[int, ...]
    points: int
    returns: tuple[int, ...] = ()
    """Figures per seat that come back when it is scored, each one (the large meeple, a builder
    too); ``figures`` counts them as majorities do. Empty: the same as ``figures``."""
    marked: tuple[int, ...] = ()
    """Followers per seat on tiles with the mark that breaks ties (an expansion's ``tie_mark``: Hills
    & Sheep's hills), before the deploy choice. Empty: no tie is broken."""


@dataclass(frozen=True, slots=True)
class PlacementPreview:
    """What placing the drawn tile at :attr:`position` turned :attr:`rotation` would do.

    Attributes:
        tile: Letter of the drawn design.
        position: Where it would go.
        rotation: Clockwise quarter turns, 0–3.
        seat: The seat whose turn it is.
        supply: That seat's meeples in supply.
        segments: One :class:`SegmentPreview` per segment of the design, by index.
        areas: The cloisters and gardens on the eight surrounding tiles, after the placement, in the
            engine's order (west column, middle column, east column; north to south).
        completions: The features this placement completes, in the order the engine scores them:
            the new tile's features by lowest segment index, then the neighbouring cloisters.
        farmers: Whether meeples may go on fields (no expansion in play closes them: no farmers).
    """

    tile: str
    position: Position
    rotation: int
    seat: int
    supply: int
    segments: tuple[SegmentPreview, ...]
    areas: tuple[AreaPreview, ...]
    completions: tuple[Completion, ...]
    farmers: bool = True

    def deploy_options(self) -> tuple[int, ...]:
        """Segments the seat could deploy on after this placement; ``Game.deploy_options`` to be."""
        return tuple(s.index for s in self.segments if s.deployable)

    def check_deploy(self, deploy: int | None) -> None:
        """Raises ``IllegalMoveError`` with the reason ``Game.apply`` would give if deploying on
        segment *deploy* after this placement were illegal (``None`` is the skip: always legal)."""
        if deploy is None:
            return
        move = DeployMeeple(deploy)
        segments = self.segments
        if isinstance(deploy, bool) or not isinstance(deploy, int) or not 0 <= deploy < len(segments):
            raise IllegalMoveError(
                "bad-segment", f"{move}: tile {self.tile} has segments 0-{len(segments) - 1}"
            )
        seg = segments[deploy]
        if seg.kind is _RIVER or seg.kind is _GARDEN:
            raise IllegalMoveError("bad-segment", f"{move}: a meeple cannot go on a {seg.kind.label}")
        if seg.kind is _FIELD and not self.farmers:
            raise IllegalMoveError("bad-segment", f"{move}: this game is played without farmers")
        if self.supply == 0:
            raise IllegalMoveError("no-supply", f"{move}: seat {self.seat} has no meeple in supply")
        if any(seg.figures):
            raise IllegalMoveError(
                "feature-occupied", f"{move}: that {seg.kind.label} already holds a figure elsewhere"
            )

    def turn_points(self, deploy: int | None = None) -> tuple[int, ...]:
        """Points each seat scores this turn if the seat deploys on segment *deploy* (``None``: skips).

        Every completion is scored for the seats with the most figures on it, the deployed meeple
        included (HiG "Score completed roads, cities or cloisters", "several followers").

        Raises:
            IllegalMoveError: The deploy would be illegal (same reasons as ``Game.apply``).
        """
        return self._turn(deploy)[0]

    def turn_returns(self, deploy: int | None = None) -> tuple[int, ...]:
        """Meeples each seat gets back this turn if the seat deploys on *deploy* (``None``: skips):
        every figure on a completed feature, the deployed meeple included (HiG "Returning followers").

        Raises:
            IllegalMoveError: The deploy would be illegal (same reasons as ``Game.apply``).
        """
        return self._turn(deploy)[1]

    def _turn(self, deploy: int | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
        self.check_deploy(deploy)
        feature = None if deploy is None else self.segments[deploy].feature
        n = len(self.segments[0].figures)
        points = [0] * n
        returns = [0] * n
        for c in self.completions:
            counts = c.figures
            back = c.returns or counts
            if feature is not None and c.segment == feature:
                counts = tuple(v + (s == self.seat) for s, v in enumerate(counts))
                back = tuple(v + (s == self.seat) for s, v in enumerate(back))
            best = max(counts)
            if best:
                winners = [s for s, v in enumerate(counts) if v == best]
                if len(winners) > 1 and c.marked:  # a tie: broken by the tile mark, as Game.majority does
                    # (a follower deployed now is alone on its feature: it never ties)
                    winners = [s for s in winners if c.marked[s]] or winners
                for s in winners:
                    points[s] += c.points
                for s, v in enumerate(back):
                    returns[s] += v
        return tuple(points), tuple(returns)


def preview_placement(game: Game, position: Position, rotation: int) -> PlacementPreview:
    """What placing the drawn tile at *position*, turned *rotation* clockwise quarter turns, would do.

    Pure: the game is not changed (see the module docstring). Reads the feature graph, as a part of
    the engine may.

    Warning:
        A preview describes the game as it was when it was made; after the next move it is stale.

    Raises:
        IllegalMoveError: ``Game.apply(PlaceTile(game.drawn, position, rotation))`` would raise, with
            the same reason: ``"game-over"``, ``"wrong-phase"``, ``"bad-rotation"``,
            ``"not-adjacent"``, ``"occupied"``, ``"river"`` or ``"side-mismatch"``.
    """
    kind = game.drawn_kind
    move = PlaceTile(kind.letter if kind is not None else "-", position, rotation)
    if game.phase is Phase.GAME_OVER:
        raise IllegalMoveError("game-over", f"the game is over; {move} is not possible")
    if game.phase is not Phase.PLACE_TILE:
        raise IllegalMoveError("wrong-phase", f"{move}: the tile is placed; deploy or skip first")
    assert kind is not None
    key, rotation = game.check_placement(move)

    g = game.graph
    board = game.board.tiles
    seat = game.seat
    supply = game.supply[seat]
    rules = game.setup.rules
    variant = kind.variant(rotation)
    here = position_of(key)
    zero = (0,) * game.players
    comp, owner, closed = _join_tile(g, board, key, variant)
    # per component (keyed by its lowest segment): its segments, and the roots it joins in order
    members: dict[int, list[int]] = {}
    for i, c in enumerate(comp):
        members.setdefault(c, []).append(i)
    comp_roots: dict[int, list[int]] = {}
    for root, i in owner.items():
        comp_roots.setdefault(comp[i], []).append(root)
    first = g.first
    for roots in comp_roots.values():
        roots.sort(key=first.__getitem__)
    ring = sum(1 for o in RING_OFFSETS if key + o in board) if variant.area_segments else 0
    field_cities = _field_cities(g, owner)
    data = _merged_features(g, variant, here, members, comp_roots, closed, field_cities, ring, zero)
    farmers = _FIELD not in game.setup.hooks().closed_kinds
    barred = _NO_MEEPLE if farmers else _NO_FARMERS
    out = _segment_previews(
        g, variant, comp, members, comp_roots, owner, field_cities, data, supply > 0, barred, zero
    )
    around = game.areas_around(key)
    areas = _areas(g, around, zero) if around else ()
    marks = _marks(g, variant, members, comp_roots) if type(g) is MarkedFeatureGraph else None
    hooks = game.setup.hooks()
    completions = _completions(variant, members, data, areas, hooks.completed_points, marks)
    if hooks.value is not base_value and any(c.kind in _AREA for c in completions):
        completions = _area_values(game, key, kind, completions, hooks.value)
    if rules.inns or rules.traders:  # figures that count other than one for a majority
        completions = _with_returns(g, completions, comp_roots, around, zero)
    tie_mark = hooks.tie_mark
    if tie_mark and completions:
        completions = _with_marked(game, completions, comp_roots, tie_mark, hooks.weights)
    return PlacementPreview(
        kind.letter, here, rotation, seat, supply, out, areas, completions, farmers
    )


def _join_tile(
    g: FeatureGraph, board: dict[int, PlacedTile], key: int, variant: TileVariant
) -> tuple[list[int], dict[int, int], list[int]]:
    """How the turned tile's segments join the placed features around *key* (HiG "Place a tile").

    A tiny union-find over the tile's segments: two of them are one feature when they join the same
    existing root.

    Returns:
        ``(comp, owner, closed)``: per segment, the lowest segment of its component; each joined root
        → the first segment that joined it; per segment, the sides it closes (2 per touching side,
        as ``Game`` joins them).
    """
    find = g.find
    k = len(variant.segments)
    lp = list(range(k))
    owner: dict[int, int] = {}
    closed = [0] * k
    for offset, o, ss, ha, hb, sx in variant.links:  # as Game joins them, side by side
        nt = board.get(key + offset)
        if nt is None:
            continue
        nb = nt.base
        ts, ta, tb, tx = nt.variant.edges[o]
        if ss >= 0:  # road, city or river side: both sides close (engine: join(..., 2))
            _link(lp, owner, ss, find(nb + ts))
            closed[ss] += 2
            if sx >= 0:  # a shared side: its second city joins too, closing one side more
                _link(lp, owner, sx, find(nb + ts))
                closed[sx] += 1
            if tx >= 0:  # the neighbour's shared side: its second city joins this one
                _link(lp, owner, ss, find(nb + tx))
                closed[ss] += 1
        if ha >= 0:
            _link(lp, owner, ha, find(nb + tb))
        if hb >= 0:
            _link(lp, owner, hb, find(nb + ta))
    comp = []
    for i in range(k):
        top = i
        while lp[top] != top:
            top = lp[top]
        comp.append(top)
    return comp, owner, closed


def _link(lp: list[int], owner: dict[int, int], i: int, root: int) -> None:
    """Segment *i* joins *root*: one component with the segment that joined *root* first, if any
    (the lower of the two becomes the component's root)."""
    j = owner.get(root)
    if j is None:
        owner[root] = i
        return
    while lp[i] != i:
        i = lp[i]
    while lp[j] != j:
        j = lp[j]
    if i < j:
        lp[j] = i
    elif j < i:
        lp[i] = j


def _field_cities(
    g: FeatureGraph, owner: dict[int, int], memo: dict[int, set[int]] | None = None
) -> dict[int, set[int]]:
    """Joined field root → the distinct cities (roots) bordering it, found once (and kept in *memo*,
    if given, for the other placements of the turn)."""
    kinds, borders, find = g.kind, g.borders, g.find
    if memo is None:
        return {r: {find(cn) for cn in borders[r] or ()} for r in owner if kinds[r] is _FIELD}
    out = {}
    for r in owner:
        if kinds[r] is _FIELD:
            cities = memo.get(r)
            if cities is None:
                cities = memo[r] = {find(cn) for cn in borders[r] or ()}
            out[r] = cities
    return out


#: A merged feature: ``(anchor, joins, open, complete, tiles, pennants, figures)``.
_Merged = tuple[Anchor, tuple[JoinedFeature, ...], int, bool, int | None, int, tuple[int, ...]]


def _merged_features(
    g: FeatureGraph,
    variant: TileVariant,
    here: Position | None,
    members: dict[int, list[int]],
    comp_roots: dict[int, list[int]],
    closed: list[int],
    field_cities: dict[int, set[int]] | None,
    ring: int,
    zero: tuple[int, ...],
) -> dict[int, _Merged]:
    """Component → the feature it is after the placement: the tile's own segments (less the sides
    they close) plus the roots they join; a cloister or garden with its *ring* placed neighbours.
    With *here* ``None`` (:func:`feature_changes`) the counts alone: no anchor, no joins described
    (*field_cities* is then not read)."""
    node_kinds, node_open, node_pennants = variant.node_kinds, variant.node_open, variant.node_pennants
    g_open, g_pennants, g_tiles, g_meeples = g.open, g.pennants, g.tiles, g.meeples
    data: dict[int, _Merged] = {}
    for c, mine in members.items():
        skind = node_kinds[c]
        anchor = None if here is None else (here, c)
        if skind in _AREA:
            data[c] = (anchor, (), 8 - ring, ring == 8, 1 + ring, 0, zero)  # type: ignore[assignment]
            continue
        if len(mine) == 1:  # most features take one segment of the tile
            i = mine[0]
            open_, pennants = node_open[i] - closed[i], node_pennants[i]
        else:
            open_ = sum(node_open[i] - closed[i] for i in mine)
            pennants = sum(node_pennants[i] for i in mine)
        field = skind is _FIELD
        roots = comp_roots.get(c)
        if not roots:
            data[c] = (anchor, (), open_, not field and open_ == 0, None if field else 1, pennants, zero)  # type: ignore[assignment]
            continue
        figures = zero
        tile_sets: list[set[int]] = []
        for r in roots:
            rt = g_tiles[r]
            if rt is not None:
                tile_sets.append(rt)
            fig = _counts(g_meeples[r], zero)
            if fig is not zero:
                figures = fig if figures is zero else tuple(a + b for a, b in zip(figures, fig, strict=True))
            open_ += g_open[r]
            pennants += g_pennants[r]
        joins: tuple[JoinedFeature, ...] = ()
        if here is not None:
            assert field_cities is not None
            joins = _joined(g, roots, skind, field_cities, zero)
            anchor = joins[0].anchor
        if field:
            tiles: int | None = None
        elif len(tile_sets) == 1:
            tiles = len(tile_sets[0]) + 1
        else:
            tiles = len(set().union(*tile_sets)) + 1
        data[c] = (anchor, joins, open_, not field and open_ == 0, tiles, pennants, figures)  # type: ignore[assignment]
    return data


def _farm_counts(cities: set[int], g_open: list[int]) -> tuple[int, int]:
    """``(completed, incomplete)`` among the city roots a farm borders."""
    done = sum(1 for cr in cities if g_open[cr] == 0)
    return done, len(cities) - done


def _joined(
    g: FeatureGraph,
    roots: list[int],
    skind: SegmentKind,
    field_cities: dict[int, set[int]],
    zero: tuple[int, ...],
) -> tuple[JoinedFeature, ...]:
    """The existing features *roots* (in placement order) as they are before the placement, a
    :class:`JoinedFeature` each."""
    g_open, g_tiles, g_pennants, g_meeples, first = g.open, g.tiles, g.pennants, g.meeples, g.first
    joins: list[JoinedFeature] = []
    for r in roots:
        rt = g_tiles[r]
        done, undone = _farm_counts(field_cities[r], g_open) if skind is _FIELD else (0, 0)
        f = first[r]
        joins.append(
            JoinedFeature(
                (position_of(g.tile[f]), g.index[f]),
                skind,
                g_open[r],
                None if rt is None else len(rt),
                g_pennants[r],
                _counts(g_meeples[r], zero),
                done,
                undone,
            )
        )
    return tuple(joins)


def _counts(meeples: list[tuple[int, Figure, int]] | None, zero: tuple[int, ...]) -> tuple[int, ...]:
    """Figures per seat, as majorities count them (*zero* itself when there are none): Inns &
    Cathedrals' large meeple as two, Traders & Builders' builder and pig as none."""
    if not meeples:
        return zero
    c = [0] * len(zero)
    for st, figure, _ in meeples:
        if figure is _LARGE:
            c[st] += 2
        elif figure is not _PIG and figure is not _BUILDER:
            c[st] += 1
    return tuple(c)


def _segment_previews(
    g: FeatureGraph,
    variant: TileVariant,
    comp: list[int],
    members: dict[int, list[int]],
    comp_roots: dict[int, list[int]],
    owner: dict[int, int],
    field_cities: dict[int, set[int]],
    data: dict[int, _Merged],
    has_meeple: bool,
    barred: frozenset[SegmentKind],
    zero: tuple[int, ...],
) -> tuple[SegmentPreview, ...]:
    """One :class:`SegmentPreview` per segment of the turned tile, from its component's data."""
    out: list[SegmentPreview] = []
    for i, seg in enumerate(variant.segments):
        c = comp[i]
        anchor, joins, open_, complete, tiles, pennants, figures = data[c]
        skind = seg.kind
        deployable = has_meeple and skind not in barred and figures is zero
        done = undone = 0
        if skind is _FIELD:
            if c == i:
                done, undone = _farm_cities(
                    g, variant, comp, members[c], comp_roots.get(c, ()), owner, field_cities, data
                )
            else:
                done, undone = out[c].cities, out[c].open_cities
        out.append(
            SegmentPreview(
                i, skind, c, anchor, joins, open_, complete, tiles, pennants, figures, deployable, done,
                undone,
            )
        )
    return tuple(out)


def _farm_cities(
    g: FeatureGraph,
    variant: TileVariant,
    comp: list[int],
    mine: list[int],
    roots: Iterable[int],
    owner: dict[int, int],
    field_cities: dict[int, set[int]],
    data: dict[int, _Merged],
) -> tuple[int, int]:
    """``(completed, incomplete)`` cities bordering a merged farm after the placement (HiG "Scoring
    farms"): those its segments *mine* border on the tile and those its joined *roots* border, a
    city the tile joins counted once, as its component."""
    g_open = g.open
    node_borders = variant.node_borders
    seen: dict[int, bool] = {}
    for j in mine:
        for b in node_borders[j] or ():
            seen[-1 - comp[b]] = data[comp[b]][3]
    for r in roots:
        for cr in field_cities[r]:
            oi = owner.get(cr)
            if oi is None:
                seen[cr] = g_open[cr] == 0
            else:
                seen[-1 - comp[oi]] = data[comp[oi]][3]
    done = sum(seen.values())
    return done, len(seen) - done


def _areas(
    g: FeatureGraph, around: tuple[tuple[int, int], ...], zero: tuple[int, ...]
) -> tuple[AreaPreview, ...]:
    """The cloisters and gardens *around* the placement (``Game.areas_around``) as they would be
    after it, in ring order."""
    g_open, g_tile, g_index, g_kind, g_meeples = g.open, g.tile, g.index, g.kind, g.meeples
    areas = []
    for _ring, node in around:
        left = g_open[node] - 1
        areas.append(
            AreaPreview(
                (position_of(g_tile[node]), g_index[node]),
                g_kind[node],
                9 - left,
                left == 0,
                _counts(g_meeples[node], zero),
            )
        )
    return tuple(areas)


def _marks(
    g: MarkedFeatureGraph, variant: TileVariant, members: dict[int, list[int]], comp_roots: dict[int, list[int]]
) -> dict[int, int]:
    """Component → the inn and cathedral bits of the feature it is after the placement: its own
    segments' and those of the features it joins (Inns & Cathedrals)."""
    node_marks, g_marks = variant.node_marks, g.marks
    out: dict[int, int] = {}
    for c, mine in members.items():
        mark = 0
        for i in mine:
            mark |= node_marks[i]
        for r in comp_roots.get(c) or ():
            mark |= g_marks[r]
        out[c] = mark
    return out


def _goods(
    g: MarkedFeatureGraph, variant: TileVariant, members: dict[int, list[int]], comp_roots: dict[int, list[int]]
) -> dict[int, int]:
    """Component → the goods of the feature it is after the placement, packed (:func:`pack_goods`
    counts add up): its own segments' and those of the features it joins (Traders & Builders)."""
    node_goods, g_goods = variant.node_goods, g.goods
    return {c: sum(node_goods[i] for i in mine) + sum(g_goods[r] for r in comp_roots.get(c) or ())
            for c, mine in members.items()}


def _completions(
    variant: TileVariant,
    members: dict[int, list[int]],
    data: dict[int, _Merged],
    areas: tuple[AreaPreview, ...],
    points_of: CompletedPoints,
    marks: dict[int, int] | None = None,
) -> tuple[Completion, ...]:
    """What the placement completes, in the order the engine scores it: the tile's features by
    lowest segment, then the cloisters and gardens around. *points_of*: the game's hook table's
    ``completed_points``; *marks*: component → its inn and cathedral bits after the placement (Inns &
    Cathedrals), ``None`` without them."""
    completions: list[Completion] = []
    segs = variant.segments
    for c in members:  # components by lowest segment: each first appears at its own index
        anchor, _, _, complete, tiles, pennants, figures = data[c]
        if complete:
            skind = segs[c].kind
            assert tiles is not None
            mark = 0 if marks is None else marks[c]
            points = points_of(skind, tiles, pennants, mark)
            completions.append(Completion(skind, anchor, c, tiles, pennants, figures, points))
    for a in areas:
        if a.complete:
            completions.append(Completion(a.kind, a.anchor, None, 9, 0, a.figures, 9))
    return tuple(completions)


def _area_values(game: Game, key: int, kind: TileKind, completions: tuple[Completion, ...], value: Value
                 ) -> tuple[Completion, ...]:
    """*completions* with each completed cloister's or garden's points as the game's value gives them
    (an expansion's: Hills & Sheep's vineyards around it), the tile *kind* placed at *key*."""
    board = game.board.tiles
    out = []
    for c in completions:
        if c.kind in _AREA:
            area = key_of(c.anchor[0].x, c.anchor[0].y)
            ring = [area + o for o in RING_OFFSETS]
            around = sorted(mark for k in ring
                            for mark in (kind.marks if k == key else board[k].kind.marks))
            info = FeatureInfo(c.kind, c.anchor, tuple(map(position_of, sorted([area, *ring]))), True,
                               around=tuple(around))
            c = c._replace(points=value(info, False))
        out.append(c)
    return tuple(out)


def _with_marked(game: Game, completions: tuple[Completion, ...], comp_roots: dict[int, list[int]], mark: str,
                 weights: Mapping[Figure, int] | None) -> tuple[Completion, ...]:
    """*completions* with :attr:`Completion.marked`: the followers per seat on tiles marked *mark*
    (the figures of weight 0 are no followers). A neighbouring cloister keeps none (one follower)."""
    g = game.graph
    tiles, tile_of = game.board.tiles, g.tile
    zero = (0,) * game.players
    out = []
    for c in completions:
        if c.segment is not None:
            counts = list(zero)
            for root in comp_roots.get(c.segment) or ():
                for seat, figure, node in g.meeples[root] or ():
                    if (weights is None or weights.get(figure, 1) > 0) and mark in tiles[tile_of[node]].kind.marks:
                        counts[seat] += 1
            c = c._replace(marked=tuple(counts))
        out.append(c)
    return tuple(out)


def _with_returns(
    g: FeatureGraph, completions: tuple[Completion, ...], comp_roots: dict[int, list[int]],
    around: tuple[tuple[int, int], ...], zero: tuple[int, ...],
) -> tuple[Completion, ...]:
    """*completions* with :attr:`Completion.returns`: each figure on them one (Inns & Cathedrals'
    large meeple counts two for a majority, Traders & Builders' builder none, yet each comes back)."""
    area_nodes = {(position_of(g.tile[n]), g.index[n]): n for _ring, n in around}
    out = []
    for c in completions:
        nodes = comp_roots.get(c.segment) or () if c.segment is not None else (area_nodes[c.anchor],)
        counts = [0] * len(zero)
        for n in nodes:
            for seat, _figure, _node in g.meeples[n] or ():
                counts[seat] += 1
        out.append(c._replace(returns=tuple(counts)))
    return tuple(out)


class HeldJoin(NamedTuple):
    """A feature holding figures that a placement would join, as it is *before* the placement: the
    lean form of a :class:`JoinedFeature` (:func:`feature_changes`).

    Attributes:
        anchor: Its root node in the feature graph: names the feature while the board does not
            change (for a cache of values within one turn), nothing more.
        kind, open, tiles, pennants, figures, cities, open_cities: As in :class:`JoinedFeature`.
        mark: Its inn and cathedral bits (:data:`~carcnet.engine.tiles.MARK_INN`,
            :data:`~carcnet.engine.tiles.MARK_CATHEDRAL`; Inns & Cathedrals), 0 without them.
    """

    anchor: int
    kind: SegmentKind
    open: int
    tiles: int | None
    pennants: int
    figures: tuple[int, ...]
    cities: int
    open_cities: int
    mark: int


class FeatureChange(NamedTuple):
    """A feature of the turned tile after the placement, one that holds figures or could take the
    seat's meeple: the lean form of a :class:`SegmentPreview` (:func:`feature_changes`).

    Attributes:
        index: The lowest segment of the tile in it (its :attr:`SegmentPreview.feature`), the
            segment a deploy on it names.
        kind, open, complete, tiles, pennants, figures, deployable, cities, open_cities: As in
            :class:`SegmentPreview`.
        held: The features it joins that hold figures (those without figures left out), in the
            order of :attr:`SegmentPreview.joins`.
        mark: The inn and cathedral bits of the feature after the placement (as
            :attr:`HeldJoin.mark`), 0 without Inns & Cathedrals.
        large: Whether the seat may deploy its large meeple on it (Inns & Cathedrals; a deploy is
            then legal with the large meeple even when *deployable* is false for want of meeples).
        goods: The goods in the feature after the placement, packed as
            :func:`~carcnet.engine.tiles.pack_goods` (a count per kind), 0 without Traders & Builders:
            a city's go to the seat that completes it.
    """

    index: int  # type: ignore[assignment]  # the field shadows tuple.index, as a named tuple may
    kind: SegmentKind
    open: int
    complete: bool
    tiles: int | None
    pennants: int
    figures: tuple[int, ...]
    deployable: bool
    cities: int
    open_cities: int
    held: tuple[HeldJoin, ...]
    mark: int
    large: bool
    goods: int


_make = tuple.__new__  # a named tuple from a tuple of its fields, at C speed (its __new__ is Python)


def feature_changes(
    game: Game, key: int, rotation: int, memo: dict[int, set[int]] | None = None
) -> tuple[tuple[FeatureChange, ...], tuple[AreaPreview, ...]]:
    """What a bot's valuation reads of :func:`preview_placement`, in about half its time: the
    features of the turned tile that hold figures or could take the seat's meeple, by lowest
    segment, and the cloisters and gardens around that hold figures, in the engine's order. Every
    number is the one :func:`preview_placement` gives (``tests/engine/test_preview.py``).

    No legality check: *key* (a board key, :func:`~carcnet.engine.geometry.key_of`) and *rotation*
    must be a legal placement of the drawn tile, one of :meth:`Game.placement_codes`; anything else
    gives a meaningless answer. Pure, like :func:`preview_placement`. *memo*, a dict the caller
    keeps while the board does not change (the placements of one turn), remembers what several
    placements ask of the same farms.
    """
    g = game.graph
    kind = game._drawn
    assert kind is not None
    variant = kind._variants[rotation]
    zero = (0,) * game.players
    comp, owner, closed = _join_tile(g, game.board.tiles, key, variant)
    members: dict[int, list[int]] = {}
    for i, c in enumerate(comp):
        if c == i:
            members[i] = [i]
        else:
            members[c].append(i)
    comp_roots: dict[int, list[int]] = {}
    for root, i in owner.items():
        c = comp[i]
        roots = comp_roots.get(c)
        if roots is None:
            comp_roots[c] = [root]
        else:
            roots.append(root)
            roots.sort(key=g.first.__getitem__)
    board = game.board.tiles
    ring = sum(1 for o in RING_OFFSETS if key + o in board) if variant.area_segments else 0
    data = _merged_features(g, variant, None, members, comp_roots, closed, None, ring, zero)
    has_meeple = game.supply[game.seat] > 0
    barred = _NO_MEEPLE if _FIELD not in game.setup.hooks().closed_kinds else _NO_FARMERS
    marks = goods = None
    has_large = False
    if type(g) is MarkedFeatureGraph:  # the expansions only: a game without them pays nothing here
        marks = _marks(g, variant, members, comp_roots)
        has_large = game.supply_of(Figure.LARGE)[game.seat] > 0
        if game.setup.rules.traders:
            goods = _goods(g, variant, members, comp_roots)
    node_kinds = variant.node_kinds
    field_cities: dict[int, set[int]] | None = None
    out: list[FeatureChange] = []
    for c in members:  # by lowest segment: each first appears at its own index
        _, _, open_, complete, tiles, pennants, figures = data[c]
        skind = node_kinds[c]
        occupied = figures is not zero
        deployable = has_meeple and skind not in barred and not occupied
        large = has_large and skind not in barred and not occupied
        if not occupied and not deployable and not large:
            continue
        roots = comp_roots.get(c) or []
        done = undone = 0
        if skind is _FIELD:  # a farm joins farms only
            if field_cities is None:
                field_cities = _field_cities(g, owner, memo)
            done, undone = _farm_cities(g, variant, comp, members[c], roots, owner, field_cities, data)
        held = _held(g, roots, skind, field_cities, zero) if occupied else ()
        mark = 0 if marks is None else marks[c]
        out.append(_make(FeatureChange, (c, skind, open_, complete, tiles, pennants, figures, deployable, done, undone,
                                         held, mark, large, 0 if goods is None else goods[c])))
    around = game._watch.get(key)  # Game.areas_around without the call
    if around:
        g_meeples = g.meeples
        around = tuple(entry for entry in around if g_meeples[entry[1]])  # only those with figures
    areas = _areas(g, around, zero) if around else ()
    return tuple(out), areas


def _held(
    g: FeatureGraph, roots: Iterable[int], skind: SegmentKind, field_cities: dict[int, set[int]] | None,
    zero: tuple[int, ...],
) -> tuple[HeldJoin, ...]:
    """The joined *roots* that hold figures, as :class:`HeldJoin`, in order."""
    g_open, g_tiles, g_meeples = g.open, g.tiles, g.meeples
    marks = g.marks if type(g) is MarkedFeatureGraph else None
    out = []
    for r in roots:
        fig = _counts(g_meeples[r], zero)
        if fig is zero:
            continue
        done = undone = 0
        if skind is _FIELD:
            assert field_cities is not None
            done, undone = _farm_counts(field_cities[r], g_open)
        rt = g_tiles[r]
        out.append(_make(HeldJoin, (r, skind, g_open[r], None if rt is None else len(rt), g.pennants[r], fig, done, undone,
                                    0 if marks is None else marks[r])))
    return tuple(out)


#: Segment kinds a meeple never goes on; and with farmers off.
_NO_MEEPLE = frozenset({_RIVER, _GARDEN})
_NO_FARMERS = frozenset({_RIVER, _GARDEN, _FIELD})
