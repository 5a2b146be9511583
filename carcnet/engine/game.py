"""Provides the game the interface, the bots and the log hold: :class:`Game`, the core of
``engine/state.py`` (:class:`~carcnet.engine.state.GameCore`: moves, turn flow, scoring, digests)
with the queries above it (the features and what they are worth, the tiles no tile fits, the
projected final scores, the figures' places), :func:`replay`, and :class:`PlayerView`, what one
player at the table knows of a game.

The queries read the core's state and change nothing; the core needs none of them, so an expansion,
which sees the game through :class:`~carcnet.engine.expansion.GameState`, never reaches them.

What a player knows (:class:`PlayerView`):


A player sees the board, the figures, the scores and supplies, the tile just drawn, the tiles drawn
and set aside so far, and the **contents** of the bag (which designs are still face down, and how
many, in which group: the river tiles before the land tiles). A player never sees the **order** of
the tiles still face down: with a seeded deck the engine knows it (``Game.deck``), and with table
draws (``protocol/deck.md`` §5) nobody does. Bots get a view, never the game, so a bot
cannot play on knowledge a person at the table does not have.

A view holds a :class:`~carcnet.engine.Game` of its own, :attr:`PlayerView.game`, in the same state
as the real one, whose face-down tiles are in canonical order (each group sorted by id): every
query works on it (``legal_moves``, ``preview_placement``, ``projected_final``, …), and nothing in
it is the real order, the seed or the table's chain roots. To look ahead, a bot asks for
:meth:`PlayerView.sample`: an independent game whose face-down tiles are shuffled by the bot's own
random source (a *determinisation*, as information-set search does).

Cost: a view shares the game's board and feature graph (it copies nothing but the list of the tiles
left, about 16 µs); :meth:`sample` is a :meth:`Game.copy` (about 43 µs on a full board).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from .board import PlacedTile
from .errors import IllegalMoveError
from .events import FeatureInfo, HeldFeature, Scoring, TileDrawn, TokenDrawn
from .expansion import base_value
from .geometry import SIDE_OFFSETS, Position, key_of, position_of
from .moves import Move
from .phase import Phase
from .scoring import majority
from .setup import GameSetup
from .state import GameCore
from .tiles import AREA_KINDS, SegmentKind, group_rank, tile_kind

__all__ = ["Game", "PlayerView", "RandomSource", "replay"]


_ROAD, _CITY, _FIELD = SegmentKind.ROAD, SegmentKind.CITY, SegmentKind.FIELD
_AREA = frozenset(AREA_KINDS)


class Game(GameCore):
    """A game in progress: :class:`~carcnet.engine.state.GameCore` (its lifecycle, :meth:`apply`,
    its digests) and the queries the interface and the bots ask of it.

    >>> from carcnet.engine import GameSetup, Position
    >>> g = Game(GameSetup(players=2, draw_order=("E", "U")))
    >>> [str(p.position) for p in g.legal_placements()][:2], g.dead_spots()
    (['0,-1', '0,1'], [])

    Warning:
        The object mutates in place. Read queries freely; change it only through :meth:`apply`.
    """

    __slots__ = ()

    def areas_around(self, key: int) -> tuple[tuple[int, int], ...]:
        """The cloisters and gardens next to the empty position of board key *key*
        (:func:`~carcnet.engine.geometry.key_of`), for the engine's own look-ahead (previews).

        Returns:
            ``(ring, node)`` for each, sorted: *ring* indexes ``RING_OFFSETS`` (the area's offset
            from the position), *node* is its feature-graph node. A tile placed there fills one of
            each one's 8 surrounding positions, and completed ones are scored in this order (HiG "A
            completed cloister"). Empty when there are none, or *key* is not an empty position.
        """
        return self._watch.get(key, ())

    def dead_spots(self) -> list[Position]:
        """The open positions (next to a placed tile) that no tile still to come fits in any
        rotation: neither a design left in the bag nor the drawn tile. Sorted by (x, y). A
        dead spot stays empty for the rest of the game, so a cloister or garden beside it can
        never be completed. What every player may know: it follows from the bag's contents alone.
        """
        letters = sorted({*self.remaining(), *((self._drawn.letter,) if self._drawn is not None else ())})
        fits = [tile_kind(letter)._fits for letter in letters]
        dead = [position_of(key) for key, pattern in self.board.frontier.items() if not any(f[pattern] for f in fits)]
        dead.sort()
        return dead

    def dead_held_features(self) -> list[HeldFeature]:
        """The features of :meth:`held_features` that can never be completed, in the same order:
        each road, city, cloister or garden with a figure on it that touches a dead spot
        (:meth:`dead_spots`: an open position no tile still to come fits), through one of its open
        sides or, for a cloister or garden, as one of its empty neighbours. Such a feature scores
        only at the end of the game (HiG "Final scoring") and its figures stay on it till then.
        Fields are never listed (a farm is never completed). What every player may know; pure.
        Cheap: each pattern of the frontier is checked against the tiles to come once."""
        if self.phase is Phase.GAME_OVER:
            return []
        drawn = self._drawn
        fits = [tile_kind(letter)._fits for letter in
                sorted({*self.remaining(), *((drawn.letter,) if drawn is not None else ())})]
        tiles = self.board.tiles
        g = self.graph
        find, watch = g.find, self._watch
        alive: dict[int, bool] = {}
        dead: set[int] = set()
        for key, pattern in self.board.frontier.items():
            ok = alive.get(pattern)
            if ok is None:
                ok = alive[pattern] = any(f[pattern] for f in fits)
            if ok:
                continue
            for side in range(4):
                nt = tiles.get(key + SIDE_OFFSETS[side])
                if nt is not None:
                    segment, _, _, second = nt.variant.edges[(side + 2) % 4]  # its side facing this spot
                    if segment >= 0:
                        dead.add(find(nt.base + segment))
                    if second >= 0:
                        dead.add(find(nt.base + second))
            for _ring, node in watch.get(key, ()):
                dead.add(find(node))
        if not dead:
            return []
        # held_features lists the held roots in this order (a dead root is never a field's)
        return [h for root, h in zip(self._held_roots(), self.held_features(), strict=True) if root in dead]

    def contributors(self) -> tuple[int, ...]:
        """The seats whose chain values the next table draw needs (deck.md §5.2): every seat not
        handed over to a bot, in seat order. Empty unless the draws come from the table."""
        if self.bag is None:
            return ()
        return tuple(s for s, given in enumerate(self.handovers) if given is None)

    @property
    def placed(self) -> Position | None:
        """Position of the tile placed this turn while deploying; ``None`` otherwise."""
        return self._placed.position if self._placed is not None and self.phase is Phase.DEPLOY else None

    def tile_at(self, position: Position) -> PlacedTile | None:
        """The tile at *position*, or ``None``."""
        return self.board.tiles.get(key_of(position.x, position.y))

    def feature_at(self, position: Position, segment: int) -> FeatureInfo:
        """The feature holding *segment* of the tile at *position*. Raises ``KeyError`` if none."""
        return self._info(self.graph.find(self._node(position, segment)))

    def feature_segments(self, position: Position, segment: int) -> list[tuple[Position, int]]:
        """Every ``(position, segment)`` of the feature holding that segment, in placement order.

        For highlighting a whole feature; scans the board (not for hot paths).
        """
        g = self.graph
        root = g.find(self._node(position, segment))
        return [(position_of(g.tile[n]), g.index[n]) for n in g.members(root)]

    def open_sides(self, position: Position, segment: int) -> int:
        """How far the feature holding that segment is from complete: for a road, city or river the
        tile sides through which it still leads to an empty position; for a cloister or garden the
        empty positions around it; 0 for a field (never complete). Raises ``KeyError`` if no tile."""
        g = self.graph
        root = g.find(self._node(position, segment))
        return 0 if g.kind[root] is _FIELD else g.open[root]

    def worth(self, feature: FeatureInfo) -> tuple[int, int | None]:
        """What *feature* is worth to whoever holds it: ``(now, if_completed)``.

        *now* is what it scores if the game ended now (HiG "Final scoring": an incomplete road 1 per
        tile, city 1 per tile and pennant, cloister or garden 1 plus 1 per neighbour; a farm 3 per
        completed city it supplies, or with first-edition farms 4 per city, which its holder gets
        only with the most farmers around that city), or for a completed feature what it scored on
        completion (a small city 1 per tile and pennant under the small-city rule).
        *if_completed* is what an incomplete road, city, cloister or garden would score once
        completed (HiG "Scoring summary": road 1 per tile, city 2 per tile and pennant, cloister or
        garden 9), counting only the tiles it has now; ``None`` for a field, a river, or a
        completed feature. Pure; for the interface and bots.
        """
        kind = feature.kind
        if kind is _FIELD:
            return self._hooks.farm_city_points * len(feature.cities), None
        if kind is not _ROAD and kind is not _CITY and kind not in _AREA:  # a kind nobody scores
            return 0, None
        if feature.complete:
            return self._hooks.value(feature, False), None
        now = self._hooks.value(feature, True)
        if kind in _AREA:
            return now, 9
        n = len(feature.tiles)
        return now, n if kind is _ROAD else 2 * (n + feature.pennants)

    def features(self) -> list[FeatureInfo]:
        """Every feature on the board, ordered by its first-placed segment."""
        g = self.graph
        return [self._info(n) for n in range(len(g)) if g.find(n) == n]

    def held_features(self) -> list[HeldFeature]:
        """Every feature with a figure on it, as counts (:class:`HeldFeature`), in the order of its
        first figure's deployment. Cheap (no positions, no sorting, no scan of the board): a bot's
        evaluation calls it on every position it reaches. Pure."""
        g = self.graph
        find, kinds, opens, pennants, meeples, tiles = g.find, g.kind, g.open, g.pennants, g.meeples, g.tiles
        n = self.players
        out: list[HeldFeature] = []
        for root in self._held_roots():
            counts = [0] * n
            for seat, _figure, _node in meeples[root] or ():
                counts[seat] += 1
            kind = kinds[root]
            if kind is _FIELD:
                cities: set[int] = set()
                for city in g.borders[root] or ():
                    cities.add(find(city))
                unfinished = sum(1 for c in cities if opens[c])
                out.append(HeldFeature(kind, 0, 0, unfinished, tuple(counts)))
            elif kind in _AREA:
                out.append(HeldFeature(kind, 9 - opens[root], 0, opens[root], tuple(counts)))
            else:
                covered = tiles[root]
                out.append(HeldFeature(kind, len(covered) if covered else 0, pennants[root], opens[root], tuple(counts)))
        return out

    def _held_roots(self) -> list[int]:
        """The root of every feature with a figure on it, once each, in the order of its first
        figure's deployment."""
        find = self.graph.find
        roots: list[int] = []
        seen: set[int] = set()
        for node in self._meeple_nodes:
            root = find(node)
            if root not in seen:
                seen.add(root)
                roots.append(root)
        return roots

    def projected_final(self) -> tuple[list[int], list[Scoring]]:
        """Scores if the game ended now, and the final-scoring events that would produce them.

        Pure: the game is unchanged. Completed features not yet scored this turn count as completed.
        Once the game is over this is the final result and no further events.
        """
        if self.phase is Phase.GAME_OVER:
            return list(self.scores), []
        events: list[Scoring] = [*self._final_scoring(), *self._expansions_final()]
        totals = list(self.scores)
        for ev in events:
            for s in ev.seats:
                totals[s] += ev.points
        return totals, events

    def projected_scores(self) -> list[int]:
        """The scores of :meth:`projected_final` without its events: what a bot's evaluation asks at
        every position its search reaches (no feature descriptions made). Pure."""
        if self.phase is Phase.GAME_OVER:
            return list(self.scores)
        if self._hooks.exact_projection:  # an expansion's final scoring
            return self.projected_final()[0]
        g = self.graph
        find, kinds, opens, meeples = g.find, g.kind, g.open, g.meeples
        farm_points = self._hooks.farm_city_points
        totals = list(self.scores)
        holders = self.majority if self._hooks.tie_mark else majority  # (an expansion's tie break)
        for root in self._held_roots():
            kind = kinds[root]
            if kind is _FIELD:  # 3 per completed city it supplies, each once
                points = farm_points * len({c for c in map(find, g.borders[root] or ()) if opens[c] == 0})
            elif kind in _AREA:  # its own tile and the placed tiles around
                points = 9 - opens[root]
                if not opens[root] and self._hooks.value is not base_value:  # completed, not yet scored
                    points = self._hooks.value(self._info(root), False)
            else:
                covered = g.tiles[root]
                assert covered is not None
                if kind is _CITY:  # as _final_scoring values it: 1 a tile and pennant, or complete as completed
                    n, pennants = len(covered), g.pennants[root]
                    points = n + pennants if opens[root] else self._hooks.completed_points(kind, n, pennants, 0)
                else:
                    points = len(covered)
            held = meeples[root]
            assert held
            for s in holders(held):
                totals[s] += points
        return totals

    def projected_breakdown(self) -> list[dict[str, list[int]]]:
        """Per seat, category → ``[points during the game, points in the final scoring]`` if the game
        ended now: :attr:`breakdown` plus the events of :meth:`projected_final`. Pure."""
        out = [{c: list(v) for c, v in seat.items()} for seat in self.breakdown]
        for ev in self.projected_final()[1]:
            for s in ev.seats:
                out[s][ev.category][1] += ev.points
        return out

    def view(self) -> PlayerView:
        """What the player of the seat to play knows of this game: a :class:`PlayerView`
        (board, figures, scores, supplies, the drawn tile, the bag's contents), never the order of
        the tiles face down. What bots get: no more than a player knows. About 16 µs; shares the board."""
        return PlayerView.of(self)


def replay(setup: GameSetup, moves: Iterable[Move]) -> Game:
    """Rebuilds a game from its setup and moves. Raises ``IllegalMoveError`` at the first bad move,
    with the move's index prepended to the message."""
    game = Game(setup)
    for i, move in enumerate(moves):
        try:
            game.apply(move)
        except IllegalMoveError as exc:
            raise IllegalMoveError(exc.reason, f"move {i}: {exc}") from None
    return game


class RandomSource(Protocol):
    """What :meth:`PlayerView.sample` draws from: ``random.Random`` or anything with ``random()``
    returning a float in [0, 1). Only ``random()`` is used, whose sequence Python keeps stable across
    versions (``shuffle`` and ``randrange`` are not)."""

    def random(self) -> float: ...


@dataclass(frozen=True, slots=True, eq=False)
class PlayerView:
    """A player's view of a game (see the module docstring). Made by :meth:`Game.view`.

    Attributes:
        seat: The seat to play when the view was made (bots get the view of the seat they play).
        game: The game as a player sees it: the real state, the face-down tiles in canonical order.
            Read it; it shares the real game's board, so it must not be changed (try moves on
            :meth:`sample` or ``game.copy()``).
        groups: The face-down tiles still to come, group by group (river tiles, the lake, the start
            tile after the river, the land tiles), each group in canonical order: the bag's contents.
    """

    seat: int
    game: Game
    groups: tuple[tuple[str, ...], ...]

    @classmethod
    def of(cls, real: Game, groups: tuple[tuple[str, ...], ...] | None = None) -> PlayerView:
        """The view of *real* for the seat to play. *real* is neither changed nor referenced.

        *groups*: the face-down tiles group by group, each sorted, when the caller knows them better
        than *real*'s order tells (a position a bot predicted on a game of a given order, whose runs
        of tiles do not show the start tile after the river as a group of its own); by default they
        are read from *real*. They must hold exactly *real*'s face-down tiles (not checked)."""
        if groups is None:
            groups = _groups_left(real)
        if real.bag is None:
            drawn = real.deck[: real.deck_index]
        else:  # table draws: the tiles drawn so far are in the events
            drawn = tuple(e.tile for e in real.events if type(e) is TileDrawn)
        order = tuple([*drawn, *(t for group in groups for t in group)])  # a new tuple, never the real deck
        tokens = None
        if real._hooks.tokens:  # an expansion's bag: the tokens drawn so far (public), none of those to come
            tokens = tuple(e.token for e in real.events if type(e) is TokenDrawn) or None
        setup = GameSetup(players=real.players, draw_order=order, rules=real.setup.rules,
                          rules_version=real.setup.rules_version, tokens=tokens)
        game = Game.__new__(Game)
        game.__dict__.update(real.__dict__)  # the same state (shared: the view is read only) …
        game.setup = setup  # … but where the tiles come from
        game.deck = order
        game.deck_index = len(drawn)
        game.held = []  # (in the order: a view's game holds them again as it draws them)
        game.bag = None
        game.revealed = None
        game._digests = []
        game._left = None  # the real game's count holds its order
        return cls(real.seat, game, groups)

    def detached(self) -> PlayerView:
        """The same view with a game of its own (a :meth:`Game.copy`, about 40 µs): safe to search
        from another thread while the real game moves on."""
        return PlayerView(self.seat, self.game.copy(), self.groups)

    def remaining(self) -> dict[str, int]:
        """Id → count of the face-down tiles, in id order (``Game.remaining``)."""
        return self.game.remaining()

    def sample(self, rng: RandomSource) -> Game:
        """An independent game in the view's state whose face-down tiles are each group shuffled
        by *rng* (Fisher–Yates from the last tile down, each index ``int(rng.random() * (i + 1))``):
        one possible future, for a search to play on. Deterministic for a given *rng* state. Not
        the deck's own shuffle (``protocol/deck.md``): no peer needs to agree on a bot's futures."""
        game = self.game.copy()
        future: list[str] = []
        for group in self.groups:
            tiles = list(group)
            for i in range(len(tiles) - 1, 0, -1):
                j = int(rng.random() * (i + 1))
                tiles[i], tiles[j] = tiles[j], tiles[i]
            future.extend(tiles)
        game.deck = game.deck[: game.deck_index] + tuple(future)
        return game


#: Rules → the sizes of the deck's groups (``tileset``), filled on first use.
_GROUP_SIZES: dict[object, list[int]] = {}


def _groups_left(game: Game) -> tuple[tuple[str, ...], ...]:
    """The face-down tiles of *game*, group by group, each in canonical order."""
    if game.bag is not None:  # table draws: the bag is kept in groups, canonical order
        return tuple(tuple(group) for group in game.bag if group)
    left = game.deck[game.deck_index :]
    groups = _groups_of(game, left)
    if game.held:  # the held tiles come back with the land tiles, the last group (deck.md §8)
        last = groups[-1] if groups else ()
        groups = (*groups[:-1], tuple(sorted([*last, *game.held])))
    return groups


def _groups_of(game: Game, left: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """The tiles *left* of *game*'s order (no table draws), group by group, each in canonical order."""
    setup = game.setup
    if setup.seed is not None:
        sizes = _GROUP_SIZES.get(setup.rules)
        if sizes is None:
            sizes = _GROUP_SIZES[setup.rules] = [sum(group.values()) for group in setup.tiles()[1]]
    else:  # a given order: runs of river tiles, the lake, and the rest, as a seeded deck has them
        sizes = []
        last = None
        for tile in game.deck:
            kind = group_rank(tile)
            if kind == last:
                sizes[-1] += 1
            else:
                sizes.append(1)
                last = kind
    out = []
    start = 0
    for size in sizes:
        end = start + size
        if end > game.deck_index:
            out.append(tuple(sorted(game.deck[max(start, game.deck_index) : end])))
        start = end
    assert sum(map(len, out)) == len(left)
    return tuple(out)
