"""Provides features: roads, cities, cloisters, fields (farms), rivers and gardens as unions of segments.

Every segment of every placed tile is a *node*, numbered in placement order (a tile's nodes are
consecutive, in the order of its table row). Nodes that join across tile edges are merged with
union–find (path halving, union by size), and each root carries its feature's data:

* ``open``: for roads, cities and rivers the number of tile sides through which the feature still
  leads to an empty position; for cloisters and gardens the number of empty surrounding positions.
  A feature is complete when it reaches 0 (HiG "A completed road / city / cloister").
* ``tiles``: the keys of the tiles it covers, so a city with two segments on one tile counts the
  tile once (HiG "When both city segments on a tile are in a single city, they only count as one").
* ``pennants``: the number of pennants (cities).
* ``meeples``: the figures on it, as ``(seat, figure, node)`` in deployment order.
* ``borders``: for fields, the city nodes its segments border (farm scoring).

The graph only grows; nothing is ever split. Iteration orders are by node number, never by hash.
"""

from __future__ import annotations

from .moves import Figure
from .tiles import MARK_CATHEDRAL, MARK_INN, SegmentKind, TileVariant, unpack_goods

__all__ = ["FeatureGraph", "MarkedFeatureGraph"]

_ROAD = SegmentKind.ROAD
_CITY = SegmentKind.CITY
_FIELD = SegmentKind.FIELD


class FeatureGraph:
    """Union–find over segment nodes with per-feature data; see the module docstring.

    Attributes (lists indexed by node; the per-feature ones are meaningful at roots only):
        parent, size: The union–find forest.
        first: The feature's lowest node: its first-placed segment, a stable name for it.
        kind: ``SegmentKind`` of each node.
        tile: Board key of the tile holding each node.
        index: Segment index of each node within its tile's table row.
        open: Open sides (edge features) or empty neighbours (area features).
        tiles: Set of tile keys, or ``None`` for fields (computed on demand, see :meth:`members`).
        pennants: Pennant count.
        meeples: List of ``(seat, figure, node)`` or ``None`` when empty.
        borders: For fields, list of bordering city nodes; ``None`` otherwise.
    """

    __slots__ = (
        "borders",
        "first",
        "index",
        "kind",
        "meeples",
        "open",
        "parent",
        "pennants",
        "size",
        "tile",
        "tiles",
    )

    def __init__(self) -> None:
        self.parent: list[int] = []
        self.size: list[int] = []
        self.first: list[int] = []
        self.kind: list[SegmentKind] = []
        self.tile: list[int] = []
        self.index: list[int] = []
        self.open: list[int] = []
        self.tiles: list[set[int] | None] = []
        self.pennants: list[int] = []
        self.meeples: list[list[tuple[int, Figure, int]] | None] = []
        self.borders: list[list[int] | None] = []

    def __len__(self) -> int:
        return len(self.parent)

    def copy(self) -> FeatureGraph:
        """An independent copy: changing either graph leaves the other as it was (for search and for
        trying a move, :meth:`carcnet.engine.Game.copy`)."""
        other = FeatureGraph.__new__(FeatureGraph)
        other.parent = self.parent[:]
        other.size = self.size[:]
        other.first = self.first[:]
        other.kind = self.kind[:]
        other.tile = self.tile[:]
        other.index = self.index[:]
        other.open = self.open[:]
        other.tiles = [None if t is None else set(t) for t in self.tiles]
        other.pennants = self.pennants[:]
        other.meeples = [None if m is None else m[:] for m in self.meeples]
        other.borders = [None if b is None else b[:] for b in self.borders]
        return other

    def add_tile(self, key: int, variant: TileVariant) -> int:
        """Adds every segment of *variant* placed at *key*, each as its own feature; returns the node
        of segment 0 (segment ``i`` is that plus ``i``). Cloisters and gardens start with 8 open."""
        base = len(self.parent)
        count = len(variant.node_ones)
        nodes = range(base, base + count)
        self.parent += nodes
        self.first += nodes
        self.size += variant.node_ones
        self.kind += variant.node_kinds
        self.tile += [key] * count
        self.index += variant.node_indices
        self.open += variant.node_open
        self.tiles += [None if k is _FIELD else {key} for k in variant.node_kinds]
        self.pennants += variant.node_pennants
        self.meeples += variant.node_nones
        self.borders += [None if b is None else [base + i for i in b] for b in variant.node_borders]
        return base

    def find(self, n: int) -> int:
        """The root node of *n*'s feature."""
        parent = self.parent
        while parent[n] != n:
            parent[n] = n = parent[parent[n]]
        return n

    def join(self, a: int, b: int, closed_sides: int) -> int:
        """Merges the features of nodes *a* and *b* across an edge; returns the new root.

        *closed_sides* is subtracted from the merged open count: 2 when two road, city or river
        sides meet (each closes the other), 0 for fields.
        """
        parent = self.parent
        while parent[a] != a:  # find(a) and find(b), inlined: two joins a tile on average
            parent[a] = a = parent[parent[a]]
        while parent[b] != b:
            parent[b] = b = parent[parent[b]]
        ra, rb = a, b
        if ra == rb:
            self.open[ra] -= closed_sides
            return ra
        size = self.size
        if size[ra] < size[rb]:
            ra, rb = rb, ra
        parent[rb] = ra
        size[ra] += size[rb]
        self.first[ra] = min(self.first[ra], self.first[rb])
        self.open[ra] += self.open[rb] - closed_sides
        tiles_b = self.tiles[rb]
        if tiles_b is not None:
            tiles_a = self.tiles[ra]
            assert tiles_a is not None
            tiles_a |= tiles_b
            self.tiles[rb] = None
        self.pennants[ra] += self.pennants[rb]
        mb = self.meeples[rb]
        if mb is not None:
            ma = self.meeples[ra]
            if ma is None:
                self.meeples[ra] = mb
            else:
                ma.extend(mb)
                ma.sort(key=_node_of)
            self.meeples[rb] = None
        bb = self.borders[rb]
        if bb is not None:
            ba = self.borders[ra]
            assert ba is not None
            ba.extend(bb)
            self.borders[rb] = None
        return ra

    #: :meth:`join` for two fields' nodes (a half-side joined across an edge, no side closed), which
    #: the place of a tile calls for its field half-sides.
    join_fields = join

    def members(self, root: int) -> list[int]:
        """All nodes of the feature rooted at *root*, in node order. Scans the graph: for queries."""
        parent = self.parent
        out: list[int] = []
        for n in range(len(parent)):
            r = n
            while parent[r] != r:  # find, inlined
                parent[r] = r = parent[parent[r]]
            if r == root:
                out.append(n)
        return out

    def tile_count(self, root: int) -> int:
        """Number of distinct tiles the feature covers."""
        tiles = self.tiles[root]
        if tiles is not None:
            return len(tiles)
        return len({self.tile[n] for n in self.members(root)})

    def printed(self, root: int) -> tuple[bool, bool, tuple[int, int, int]]:
        """What the tiles print on the feature rooted at *root* beyond its kind and pennants, as
        :class:`~carcnet.engine.events.FeatureInfo`'s ``inn``, ``cathedral`` and ``goods``: none here
        (a :class:`MarkedFeatureGraph` keeps them)."""
        return _UNMARKED


_UNMARKED = (False, False, (0, 0, 0))


def _node_of(meeple: tuple[int, Figure, int]) -> int:
    return meeple[2]


class MarkedFeatureGraph(FeatureGraph):
    """A :class:`FeatureGraph` that also keeps, per feature root, the inns and cathedrals on it
    (``marks``: :data:`~carcnet.engine.tiles.MARK_INN` | :data:`~carcnet.engine.tiles.MARK_CATHEDRAL`
    bits, or-ed as features merge) and the goods in it (``goods``: counts packed by
    :func:`~carcnet.engine.tiles.pack_goods`, added as features merge). Used only when Inns &
    Cathedrals or Traders & Builders is played, so that a game without them pays nothing for them."""

    __slots__ = ("goods", "marks")

    def __init__(self) -> None:
        super().__init__()
        self.marks: list[int] = []
        self.goods: list[int] = []

    def copy(self) -> MarkedFeatureGraph:
        """An independent copy (see :meth:`FeatureGraph.copy`)."""
        other = MarkedFeatureGraph.__new__(MarkedFeatureGraph)
        for name in ("parent", "size", "first", "kind", "tile", "index", "open", "pennants", "marks", "goods"):
            setattr(other, name, getattr(self, name)[:])
        other.tiles = [None if t is None else set(t) for t in self.tiles]
        other.meeples = [None if m is None else m[:] for m in self.meeples]
        other.borders = [None if b is None else b[:] for b in self.borders]
        return other

    def add_tile(self, key: int, variant: TileVariant) -> int:
        """Adds the tile's segments (:meth:`FeatureGraph.add_tile`) with their inns, cathedrals and
        goods."""
        self.marks += variant.node_marks
        self.goods += variant.node_goods
        return FeatureGraph.add_tile(self, key, variant)

    def printed(self, root: int) -> tuple[bool, bool, tuple[int, int, int]]:
        """``(inn, cathedral, goods)`` of the feature rooted at *root*: whether it has an inn, a
        cathedral, and its ``(wine, grain, cloth)`` goods."""
        mark, goods = self.marks[root], self.goods[root]
        if not mark and not goods:
            return _UNMARKED
        return bool(mark & MARK_INN), bool(mark & MARK_CATHEDRAL), unpack_goods(goods) if goods else (0, 0, 0)

    #: Fields have no inn, cathedral nor goods (the tile list puts them on roads and cities only):
    #: their joins are the plain graph's, with no marks to merge.
    join_fields = FeatureGraph.join

    def join(self, a: int, b: int, closed_sides: int) -> int:
        """Merges two features (:meth:`FeatureGraph.join`); the merged one has the inns,
        cathedrals and goods of both."""
        parent = self.parent
        while parent[a] != a:  # find(a) and find(b), inlined as FeatureGraph.join has them
            parent[a] = a = parent[parent[a]]
        while parent[b] != b:
            parent[b] = b = parent[parent[b]]
        if a == b:
            return FeatureGraph.join(self, a, b, closed_sides)
        marks, goods = self.marks, self.goods
        mark, total = marks[a] | marks[b], goods[a] + goods[b]
        root = FeatureGraph.join(self, a, b, closed_sides)  # given the two roots
        marks[root] = mark
        goods[root] = total
        return root

