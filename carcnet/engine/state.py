"""Provides the game's core: setup, turn flow, move validation, scoring and the state digest.

The game the interface, the bots and the log hold is :class:`~carcnet.engine.game.Game`: this
module's :class:`GameCore` with the queries above it (``engine/game.py``; what a player knows,
``engine/view.py``). A game is its :class:`GameSetup` plus the moves applied to it, in order; everything else is
derived. Turn flow (HiG basic rules, "Playing the game"): the seat whose turn it is has a drawn tile
(a tile that fits nowhere is set aside and another drawn, HiG "Place a tile"); it places the tile
(:class:`~carcnet.engine.moves.PlaceTile`), then deploys a figure or not (HiG "Deploy a follower");
then completed roads, cities and cloisters are scored (HiG "Score completed roads, cities or
cloisters") and their figures return. The game ends after the turn in which the last tile is placed,
followed by the final scoring (HiG "The end of the game", "Final scoring").

Applying a move first validates it completely, then changes the state, so an illegal move raises
:class:`~carcnet.engine.errors.IllegalMoveError` and leaves the game exactly as it was.

The state digest after every move is defined in ``protocol/digest.md``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Sequence
from typing import Any, Self

from . import deck as _deck
from .board import Board, PlacedTile, Placement
from .draws import check_reveal, draw_index, draw_value
from .errors import IllegalMoveError
from .expansion import FigureRule, Step
from .events import (
    CATEGORIES,
    Event,
    FeatureCompleted,
    FeatureInfo,
    GameEnded,
    MeepleDeployed,
    MeepleReturned,
    PointsScored,
    Scoring,
    SeatHandedBack,
    SeatHandedOver,
    TileDrawn,
    TilePlaced,
    TileHeld,
    TileSetAside,
)
from .expansions import FIGURES as _EXPANSION_FIGURES
from .expansions import MOVES as _EXPANSION_MOVES
from .expansions import STEP_MOVES as _STEP_MOVES
from .features import FeatureGraph, MarkedFeatureGraph
from .geometry import KEY_LIMIT, KEY_STRIDE, RING_OFFSETS, Position, key_of, position_of
from .moves import (
    DeployMeeple,
    DrawTile,
    Figure,
    HandBack,
    HandOver,
    Move,
    PlaceTile,
    SkipMeeple,
)
from .phase import Phase
from .rules import RULES_VERSION, Rules
from .scoring import majority
from .setup import GameSetup
from .tiles import (
    AREA_KINDS,
    MAX_SEGMENTS,
    PATTERN_MASKS,
    ROTATIONS_OF_BITS,
    SegmentKind,
    TileKind,
    tile_kind,
)

__all__ = [
    "CATEGORIES",
    "MEEPLES_PER_PLAYER",
    "RULES_VERSION",
    "GameCore",
    "GameSetup",
    "Phase",
    "Rules",
]

#: Followers each player has in supply at the start (HiG "Preparation": 8 less the scoring marker).
MEEPLES_PER_PLAYER = 7
_BOT_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")

_ROAD, _CITY, _FIELD = SegmentKind.ROAD, SegmentKind.CITY, SegmentKind.FIELD
_CLOISTER = SegmentKind.CLOISTER
_AREA = frozenset(AREA_KINDS)
_MEEPLE = Figure.MEEPLE


_PLACE = Phase.PLACE_TILE
_STEP = Phase.STEP
#: What a state line needs (``protocol/digest.md`` §3), taken after each move: phase, seat, drawn
#: design, tiles drawn, tiles set aside, scores, supplies, the expansions' figures' supplies with their words
#: (:attr:`~carcnet.engine.expansion.Hooks.words`; ``None`` without), the expansions' other parts
#: (:attr:`~carcnet.engine.expansion.Hooks.snapshots`; ``None`` without), the words of the step the
#: game waits for (``None`` outside ``Phase.STEP``).
_Snapshot = tuple[
    Phase, int, TileKind | None, int, int, tuple[int, ...], tuple[int, ...],
    tuple[tuple[str, ...], tuple[tuple[int, ...], ...]] | None, tuple[Any, ...] | None, str | None,
]
#: The deploy moves of segments 0 to MAX_SEGMENTS - 1 (moves are immutable: made once, not per turn).
_MEEPLE_ON = tuple(DeployMeeple(i) for i in range(MAX_SEGMENTS))
_SKIP = SkipMeeple()
#: The weights of a game whose figures all count as one follower (:attr:`Hooks.weights` ``None``).
_NO_WEIGHTS: dict[Figure, int] = {}


class GameCore:
    """A game in progress: the one mutable object of the engine, as the rules see it (its moves, its
    state, its digests; the queries the interface and the bots ask are
    :class:`~carcnet.engine.game.Game`'s, a subclass).

    Lifecycle: ``GameCore(setup)`` places the start tile and draws the first tile for seat 0; then
    :meth:`apply` is called with each move until :attr:`phase` is ``Phase.GAME_OVER``.

    >>> g = GameCore(GameSetup(players=2, draw_order=("E",)))
    >>> g.phase, g.seat, g.drawn
    (<Phase.PLACE_TILE: 'place'>, 0, 'E')
    >>> _ = g.apply(PlaceTile("E", Position(0, -1), 2))
    >>> [str(m) for m in g.deploy_options()]
    ['deploy 0', 'deploy 1']
    >>> events = g.apply(DeployMeeple(0))
    >>> g.scores, g.phase
    ([4, 0], <Phase.GAME_OVER: 'over'>)

    Warning:
        The object mutates in place. Read queries freely; change it only through :meth:`apply`.
    """

    def __init__(self, setup: GameSetup) -> None:
        self.setup = setup
        deck = setup.deck()
        #: What the core calls of the expansions in play (:class:`~carcnet.engine.expansion.Hooks`).
        self._hooks = setup.hooks()
        n = setup.players
        self.players = n
        self.board = Board()
        self.graph = MarkedFeatureGraph() if self._hooks.marked else FeatureGraph()
        self.scores = [0] * n
        self.supply = [MEEPLES_PER_PLAYER] * n
        #: The expansions' figures in supply per seat, by figure (:attr:`Hooks.stocked`: those that
        #: claim a feature as a meeple does and those that join a follower; none in the base game).
        self.supplies: dict[Figure, list[int]] = {rule.figure: [rule.per_seat] * n for rule in self._hooks.stocked}
        #: The same lists in the order of :attr:`Hooks.claimers` (the deploy loop reads them without hashing a figure).
        self._claiming = [self.supplies[rule.figure] for rule, _ in self._hooks.claimers]
        #: The supplies the state line writes, in digest order (:attr:`Hooks.worded`).
        self._worded = [self.supplies[figure] for figure in self._hooks.worded]
        #: Their words and counts as the state line takes them, until one of them changes (``None``: to take).
        self._worded_part: tuple[tuple[str, ...], tuple[tuple[int, ...], ...]] | None = None
        #: Per expansion in play (its slot, :attr:`Hooks.slots`): the state this game keeps for it.
        self.ext: list[Any] = [make(n) if make is not None else None for make in self._hooks.new_states]
        #: Per seat: category → [points during the game, points in the final scoring].
        self.breakdown: list[dict[str, list[int]]] = [{c: [0, 0] for c in CATEGORIES} for _ in range(n)]
        #: The draw order (seed or explicit order); empty with table draws (see :attr:`bag`).
        self.deck = deck
        #: Tiles drawn so far (set-aside ones included).
        self.deck_index = 0
        #: The table's draws made so far (deck.md §5), tiles and an expansion's (Hills & Sheep's tokens):
        #: the next is number ``draw_count + 1`` (:attr:`next_draw`). ``deck_index`` in a game without.
        self.draw_count = 0
        #: The last :meth:`remaining` of a seeded or given order: the order, the draws made, the counts then.
        self._left: tuple[Sequence[str], int, dict[str, int]] | None = None
        table = setup.draws
        #: Table draws (deck.md §5): the tiles left, per group in order, each in canonical order; the
        #: last value each seat revealed, ``(draw, value)``, starting from ``(0, root)``. ``None``
        #: otherwise: a seeded or given order draws from :attr:`deck` at no cost.
        self.bag: list[list[str]] | None = None
        self.revealed: list[tuple[int, bytes]] | None = None
        if table is not None:
            self.bag = [_deck.canonical_group(group) for group in setup.tiles()[1]]
            self.revealed = [(0, root) for root in table.roots]
        self.set_aside: list[str] = []
        #: Tiles taken out of the game face down, unseen, never to be drawn (an expansion's: the tile
        #: under a hill): the last ``hidden`` tiles of the pile are never drawn (``protocol/deck.md`` §6).
        self.hidden = 0
        #: Tiles drawn that may not be played yet (an expansion's: a dragon tile before the dragon),
        #: in the order drawn: out of a seeded or given order until :meth:`release_held` puts them
        #: back (``protocol/deck.md`` §8). Empty with table draws, whose bag keeps them undrawable.
        self.held: list[str] = []
        self.seat = 0
        self.phase = Phase.PLACE_TILE
        self._drawn: TileKind | None = None
        #: The drawn tile's legal placements this turn as :meth:`placement_codes`, once asked for.
        self._placements: list[int] | None = None
        #: Whether an expansion's placement rules apply to the drawn tile (its ``restricts``, asked
        #: once, when the tile is drawn; then :attr:`_placements` holds the placements they allow).
        self._restricted = False
        self._placed: PlacedTile | None = None
        self._pending: list[int] = []
        # empty position's key -> (ring index, node) of each cloister or garden around it, sorted,
        # the ring index being that of the area's offset from the position in RING_OFFSETS: a tile
        # placed there takes one from each, in ring order (the order completions are scored in)
        self._watch: dict[int, tuple[tuple[int, int], ...]] = {}
        self._meeple_nodes: list[int] = []
        self.last_placed: list[Position | None] = [None] * n
        self.moves: list[Move] = []
        self.events: list[Event] = []
        self.winners: tuple[int, ...] = ()
        #: Seat → the :class:`HandOver` that gave it to a bot, or ``None`` (its own player).
        self.handovers: list[HandOver | None] = [None] * setup.players
        #: The questions an expansion put to a seat inside this turn, first the one the game waits
        #: for (``Phase.STEP``); empty otherwise.
        self.steps: list[Step] = []
        #: Whether the seat whose turn ends plays another tile, as the turn's end said before its steps.
        self._again = False
        #: Whether the turn's scoring waits for the steps an expansion asked before it.
        self._scoring_waits = False
        rules = setup.rules
        events: list[Event] = []
        start = tile_kind(setup.start_tile)
        self._place_tile(start, 0, 0, None, events)
        self._placed = None
        self._draw(events)
        self.events.extend(events)
        self._trail: list[_Snapshot] = []
        self._trail.append(self._snapshot())
        self._digests: list[bytes] = []

    # ------------------------------------------------------------------ queries

    @property
    def drawn(self) -> str | None:
        """Letter of the tile the current seat must place, or ``None`` outside ``Phase.PLACE_TILE``."""
        return self._drawn.letter if self._drawn is not None and self.phase is Phase.PLACE_TILE else None

    @property
    def drawn_kind(self) -> TileKind | None:
        """The design of the tile drawn this turn (:attr:`drawn` is its letter while it waits): the
        tile to place in ``Phase.PLACE_TILE``, the tile just placed in ``Phase.DEPLOY``; ``None``
        while the table draws (``Phase.DRAW``) and once the game is over."""
        return self._drawn


    @property
    def digest(self) -> bytes:
        """The 32-byte state digest after the last move (``protocol/digest.md``)."""
        digests = self._digests
        if len(digests) < len(self._trail):  # moves applied since the last digest asked for
            return self.digests[-1]
        return digests[-1]  # without copying every digest, as the list :attr:`digests` gives

    @property
    def digests(self) -> list[bytes]:
        """The state digest after the setup and after each move: ``len(moves) + 1`` digests.

        Computed on first use from snapshots taken as moves are applied (so bot games that never
        ask pay almost nothing), then cached. Defined in ``protocol/digest.md`` §4.
        """
        digests = self._digests
        trail = self._trail
        if len(digests) < len(trail):
            if not digests:
                first = self.setup.canonical() + _state_line(trail[0], self._hooks.state_words)
                digests.append(hashlib.sha256(first.encode()).digest())
            for i in range(len(digests), len(trail)):
                text = f"{self.moves[i - 1]}\n{_state_line(trail[i], self._hooks.state_words)}"
                digests.append(hashlib.sha256(digests[-1] + text.encode()).digest())
        return list(digests)

    def state_line(self, index: int = -1) -> str:
        """The state line (``protocol/digest.md`` §3, its newline included) after the setup (*index* 0)
        or after move *index* (1 on; by default the last move), as the digests hash it.

        Raises:
            IndexError: No such move."""
        return _state_line(self._trail[index], self._hooks.state_words)

    @property
    def tiles_left(self) -> int:
        """Tiles still to be drawn (the drawn tile not included, nor the :attr:`hidden` ones)."""
        if self.bag is not None:
            return sum(map(len, self.bag)) - self.hidden
        return len(self.deck) - self.deck_index + len(self.held) - self.hidden

    def remaining(self) -> dict[str, int]:
        """Letter → count of the tiles still face down, in letter order (the drawn tile not included).

        What every player may know: the bag's contents, never its order (tiles held back included). A
        new dict on every call; with a seeded or given order, counted once and then kept up to date as
        the tiles are drawn."""
        if self.bag is not None:
            left: Sequence[str] = [t for group in self.bag for t in group]
        else:
            deck, index = self.deck, self.deck_index
            kept = self._left
            if kept is not None and kept[0] is deck and kept[1] <= index:
                counts = kept[2]
                for letter in deck[kept[1] : index]:  # the tiles drawn since: one or two
                    if counts[letter] > 1:
                        counts[letter] -= 1
                    else:
                        del counts[letter]
                self._left = (deck, index, counts)
                return self._with_held(counts)
            left = deck[index:]
        counts = {}
        for letter in sorted(left):
            counts[letter] = counts.get(letter, 0) + 1
        if self.bag is None:
            self._left = (self.deck, self.deck_index, counts)
            return self._with_held(counts)
        return counts

    def _with_held(self, counts: dict[str, int]) -> dict[str, int]:
        """A new dict of *counts* and the tiles held back, in letter order."""
        if not self.held:
            return dict(counts)
        out = dict(counts)
        for letter in self.held:
            out[letter] = out.get(letter, 0) + 1
        return dict(sorted(out.items()))


    def legal_placements(self) -> list[Placement]:
        """Where the drawn tile fits: positions sorted by (x, y), each with its distinct legal rotations.

        Empty outside ``Phase.PLACE_TILE``. Rotations that give the same tile (a straight road turned
        twice) are listed once, smallest first; :meth:`apply` accepts any that fits.
        """
        made = _PLACEMENTS.get  # each Placement is immutable: one object per code serves every game
        return [made(code) or _placement(code) for code in self.placement_codes()]

    def placement_codes(self) -> list[int]:
        """:meth:`legal_placements` packed, one int per position: ``key << 4 | rotation bits``, where
        *key* is the position's board key (:func:`~carcnet.engine.geometry.key_of`, so the list is
        sorted by (x, y)) and bit *r* is set when the distinct rotation *r* fits. For bots and
        playouts that pick among placements without making each one. A new list on every call
        (computed once per turn). Empty outside ``Phase.PLACE_TILE``."""
        if self.phase is not Phase.PLACE_TILE or self._drawn is None:
            return []
        codes = self._placements
        if codes is None:  # once per turn, on first request
            kind = self._drawn
            if self._restricted:  # an expansion's placement rules
                codes = self._filtered_codes(kind)
            else:  # the base game's path: one pass over the frontier (Board.placements, inlined)
                bits = kind._fit_bits
                codes = [key << 4 | b for key, p in self.board.frontier.items() if (b := bits[p])]
                codes.sort()  # by key: (x, y)
            self._placements = codes
        return codes[:]

    def deploy_options(self) -> list[DeployMeeple]:
        """Legal deployments on the tile just placed, by segment index (empty outside ``Phase.DEPLOY``).

        A segment qualifies when its whole feature (after the placement) holds no figure of any
        colour and the seat has a figure in supply (HiG "Deploy a follower"). Rivers take none. On a
        turn whose tile lets a follower go anywhere (an expansion's ``deploy_anywhere``: the magic
        portal), the followers' deployments on the other tiles follow (:meth:`_deploy_elsewhere`).
        """
        placed = self._placed
        if self.phase is not Phase.DEPLOY or placed is None:
            return []
        if self._hooks.no_deploy is not None and self._hooks.no_deploy(self, placed.key) is not None:
            return self._deploy_elsewhere(placed) if self._hooks.deploy_anywhere else []
        out: list[DeployMeeple] = []
        seat = self.seat
        hooks = self._hooks
        meeple = self.supply[seat] > 0
        claims = hooks.claims_by_kind  # an expansion's figures that claim, by the kinds they may go on
        claiming = self._claiming
        others = False  # one of them in supply
        if claims:
            for supply in claiming:
                if supply[seat]:
                    others = True
                    break
        joiners = hooks.joiners  # an expansion's figures beside a follower of the seat's (_join_spots, inlined)
        joining = False  # one of them in supply
        supplies = self.supplies
        if joiners:
            for rule, _on in joiners:
                if supplies[rule.figure][seat]:
                    joining = True
                    break
        variant = placed.variant
        if meeple or joining or (others and not claims.keys().isdisjoint(variant.node_kinds)):
            g = self.graph
            parent = g.parent
            meeples = g.meeples
            base = placed.base
            meeple_kinds = hooks.meeple_kinds
            claimers = hooks.claimers
            weights = hooks.weights or _NO_WEIGHTS
            mine: list[tuple[int, SegmentKind, int]] = []  # (segment, kind, root) of the features holding a follower of the seat's
            for i, kind in enumerate(variant.node_kinds):
                root = base + i
                while parent[root] != root:  # FeatureGraph.find, inlined
                    parent[root] = root = parent[parent[root]]
                held = meeples[root]
                if held is not None:
                    if joining:
                        for s, f, _n in held:
                            if s == seat and weights.get(f, 1):
                                mine.append((i, kind, root))
                                break
                    continue
                if meeple and kind in meeple_kinds:
                    out.append(_MEEPLE_ON[i])
                if others and kind in claims:  # an expansion's figure, where it may go
                    for j in claims[kind]:
                        if claiming[j][seat]:
                            out.append(claimers[j][1][i])
            if mine:
                open_ = g.open
                for rule, on in joiners:
                    if not supplies[rule.figure][seat]:
                        continue
                    among, open_only = rule.among, rule.open_only
                    for i, kind, root in mine:
                        if kind in among and (open_[root] or not open_only):
                            out.append(on[i])
        if hooks.deploy_anywhere:
            out += self._deploy_elsewhere(placed)
        return out

    def _deploy_elsewhere(self, placed: PlacedTile) -> list[DeployMeeple]:
        """The follower's deployments on the tiles other than *placed* when an expansion in play lets
        it go anywhere this turn (PD15, HIG-PD: "on any land tile you want, except on finished streets,
        castles and so on"): by tile in board-key order, then segment, then figure (the meeple, then
        the expansions' claiming followers in deploy order); on a feature no figure holds, not
        completed (a field never is), of a tile no expansion forbids (:meth:`Expansion.no_deploy`).
        Figures that join a follower or that their expansion places go only on the tile placed."""
        hooks = self._hooks
        for anywhere in hooks.deploy_anywhere:
            if anywhere(self):
                break
        else:
            return []
        seat = self.seat
        weights = hooks.weights or _NO_WEIGHTS
        figures: list[tuple[Figure, Collection[SegmentKind]]] = []
        if self.supply[seat] > 0:
            figures.append((_MEEPLE, hooks.meeple_kinds))
        for rule, _moves in hooks.claimers:
            if self.supplies[rule.figure][seat] and weights.get(rule.figure, 1):
                figures.append((rule.figure, rule.kinds))
        if not figures:
            return []
        g = self.graph
        parent, meeples, open_ = g.parent, g.meeples, g.open
        no_deploy = hooks.no_deploy
        tiles = self.board.tiles
        made = [(_ELSEWHERE.setdefault(figure, {}), figure, kinds) for figure, kinds in figures]
        out: list[DeployMeeple] = []
        for key in sorted(tiles):
            if key == placed.key or (no_deploy is not None and no_deploy(self, key) is not None):
                continue
            tile = tiles[key]
            base = tile.base
            for i, kind in enumerate(tile.variant.node_kinds):
                root = base + i
                while parent[root] != root:  # FeatureGraph.find, inlined
                    parent[root] = root = parent[parent[root]]
                if meeples[root] is not None or (kind is not _FIELD and open_[root] == 0):
                    continue
                for moves, figure, kinds in made:
                    if kind in kinds:
                        code = key << 5 | i
                        out.append(moves.get(code) or _elsewhere(moves, code, figure))
        return out

    def _join_spots(self, rule: FigureRule) -> list[int]:
        """Segments of the tile just placed where the seat's figure of *rule* (one that joins) may go:
        those of its kinds whose feature holds a follower of the seat's (a figure of weight > 0), and is
        incomplete if it must be."""
        placed = self._placed
        if placed is None:
            return []
        g, seat = self.graph, self.seat
        find, meeples, open_ = g.find, g.meeples, g.open
        weights = self._hooks.weights or {}
        among, open_only = rule.among, rule.open_only
        out: list[int] = []
        for i, seg in enumerate(placed.variant.segments):
            if seg.kind not in among:
                continue
            root = find(placed.base + i)
            held = meeples[root]
            if held and (open_[root] or not open_only) and any(
                    s == seat and weights.get(f, 1) for s, f, _ in held):
                out.append(i)
        return out

    def supply_of(self, figure: Figure) -> list[int]:
        """*figure*'s supply per seat: :attr:`supply` for the meeple, :attr:`supplies` for an
        expansion's figure, 0 each for a figure not in this game (a new list then: the others are the
        game's own, to read)."""
        if figure is _MEEPLE:
            return self.supply
        return self.supplies.get(figure) or [0] * self.players

    def expansion_slot(self, expansion: type[Any]) -> int | None:
        """The slot of *expansion*'s state in :attr:`ext`, or ``None`` when it is not in play."""
        return self._hooks.slots.get(expansion)

    def legal_moves(self) -> list[Move]:
        """Every legal move, in a fixed order: placements by (x, y) then rotation; deployments by
        segment (a meeple before the abbot), then :class:`ReturnAbbot` when the seat's abbot is on
        the board, then :class:`SkipMeeple`. Empty when the game is over."""
        if self.phase is Phase.PLACE_TILE:
            letter = self.drawn
            assert letter is not None
            return [PlaceTile(letter, p.position, r) for p in self.legal_placements() for r in p.rotations]
        if self.phase is Phase.DEPLOY:
            options: list[Move] = self.deploy_options()  # type: ignore[assignment]
            for actions in self._hooks.turn_actions:  # an expansion's moves instead of a deploy
                actions(self, options)
            no_deploy = self._hooks.no_deploy
            if no_deploy is not None and self._placed is not None and no_deploy(self, self._placed.key) is not None:
                options = [move for move in options if type(move) is not DeployMeeple or move.at is not None]
            options.append(_SKIP)
            return options
        if self.phase is Phase.STEP:
            return self.steps[0].legal_moves(self)
        return []


    def figure_nodes(self) -> list[int]:
        """The feature-graph nodes of the figures on the board, in deployment order (the game's own
        list, to read: a figure's node once for each figure on it)."""
        return self._meeple_nodes

    def figures(self) -> list[tuple[int, Figure, Position, int]]:
        """Figures on the board as ``(seat, figure, position, segment)``, in deployment order."""
        g = self.graph
        out = []
        for node in self._meeple_nodes:
            for seat, figure, n in g.meeples[g.find(node)] or ():
                if n == node:
                    out.append((seat, figure, position_of(g.tile[n]), g.index[n]))
        return out


    # ------------------------------------------------------------------ moves


    def copy(self) -> Self:
        """An independent copy of the game as it is now: moves applied to either leave the other as
        it was, and the copy's state, digests, events and legal moves are those of a fresh
        :func:`replay` of the same setup and moves. For trying a move and dropping it (a turn not
        confirmed yet, a search). Costs a copy of the board and the feature graph: linear in the
        tiles placed (about 0.04 ms for a whole game's board).
        """
        cls = type(self)
        other = cls.__new__(cls)
        other.setup = self.setup
        other._hooks = self._hooks
        other.players = self.players
        other.board = self.board.copy()
        other.graph = self.graph.copy()
        other.scores = self.scores[:]
        other.supply = self.supply[:]
        if self._hooks.active:  # the expansions' states and figures (nothing to copy in the base game)
            other.ext = [state.copy() if state is not None else None for state in self.ext]
            other.supplies = {figure: supply[:] for figure, supply in self.supplies.items()}
            other._claiming = [other.supplies[rule.figure] for rule, _ in self._hooks.claimers]
            other._worded = [other.supplies[figure] for figure in self._hooks.worded]
        else:
            other.ext, other.supplies, other._claiming, other._worded = [], {}, [], []
        other._worded_part = self._worded_part  # immutable
        other.breakdown = [{c: v[:] for c, v in seat.items()} for seat in self.breakdown]
        other.deck = self.deck
        other.deck_index = self.deck_index
        other.draw_count = self.draw_count
        other.bag = None if self.bag is None else [group[:] for group in self.bag]
        other.revealed = None if self.revealed is None else self.revealed[:]
        other.set_aside = self.set_aside[:]
        other.hidden = self.hidden
        other.held = self.held[:]
        other.seat = self.seat
        other.phase = self.phase
        other._drawn = self._drawn
        other._placements = None if self._placements is None else self._placements[:]
        other._restricted = self._restricted
        other._placed = self._placed
        other._pending = self._pending[:]
        other._watch = dict(self._watch)
        other._meeple_nodes = self._meeple_nodes[:]
        other.last_placed = self.last_placed[:]
        other.moves = self.moves[:]
        other.events = self.events[:]
        other.winners = self.winners
        other.handovers = self.handovers[:]
        other.steps = self.steps[:]  # steps are values: immutable
        other._again = self._again
        other._scoring_waits = self._scoring_waits
        other._trail = self._trail[:]
        other._digests = self._digests[:]
        other._left = None  # its counts change in place: counted again
        return other

    def apply(self, move: Move) -> list[Event]:
        """Validates *move* for the current seat and applies it; returns the events it caused.

        Raises:
            IllegalMoveError: The move breaks a rule here; its ``reason`` and message say which.
                The game is unchanged.
        """
        phase = self.phase
        events: list[Event] = []
        kind = type(move)
        if phase is Phase.GAME_OVER:
            raise IllegalMoveError("game-over", f"the game is over; {move} is not possible")
        if phase is _STEP and kind is not HandOver and kind is not HandBack:
            self._answer(move, events)
        elif kind is PlaceTile:
            assert isinstance(move, PlaceTile)
            key, rotation = self.check_placement(move)
            assert self._drawn is not None
            self._place_tile(self._drawn, key, rotation, self.seat, events)
            self.phase = Phase.DEPLOY
        elif kind is DeployMeeple or kind is SkipMeeple or kind in _EXPANSION_MOVES:
            if phase is not Phase.DEPLOY:
                if phase is Phase.DRAW:
                    raise IllegalMoveError("wrong-phase", f"{move}: the tile is not drawn yet")
                raise IllegalMoveError("wrong-phase", f"{move}: place the drawn tile {self.drawn} first")
            if kind is DeployMeeple:
                assert isinstance(move, DeployMeeple)
                target = self._placed if move.at is None else self._check_elsewhere(move)
                no_deploy = self._hooks.no_deploy
                if no_deploy is not None and target is not None:
                    why = no_deploy(self, target.key)
                    if why is not None:
                        raise IllegalMoveError("bad-segment", f"{move}: {why}")
                placer = None if move.figure is _MEEPLE else self._hooks.placers.get(move.figure)
                if placer is None:
                    self._check_deploy(move)
                    self._deploy(move, events)
                else:  # a figure its expansion deploys itself
                    placer.check_move(self, move)
                    placer.apply_move(self, move, events)
            elif kind is not SkipMeeple:  # an expansion's move instead of a deploy
                maker = self._hooks.moves.get(kind)
                if maker is None:
                    owner = _EXPANSION_MOVES[kind]
                    raise IllegalMoveError(owner.off_reason, f"{move}: this game is played without {owner.title}")
                maker.check_move(self, move)
                maker.apply_move(self, move, events)
            self._end_turn(events)
        elif kind is HandOver:
            assert isinstance(move, HandOver)
            self._check_handover(move)
            self.handovers[move.seat] = move
            events.append(SeatHandedOver(move.seat, move.bot, move.by))
        elif kind is HandBack:
            assert isinstance(move, HandBack)
            given = self._check_handback(move)
            self.handovers[move.seat] = None
            events.append(SeatHandedBack(move.seat, given.by))
        elif kind in _STEP_MOVES:  # an answer when nothing is asked
            owner = _STEP_MOVES[kind]
            if self._hooks.slots.get(owner) is None:
                raise IllegalMoveError(owner.off_reason, f"{move}: this game is played without {owner.title}")
            raise IllegalMoveError("wrong-phase", f"{move}: nothing is asked now")
        elif kind is DrawTile:
            assert isinstance(move, DrawTile)
            if self.steps and phase is Phase.DRAW:  # an expansion's draw, the turn's step
                self._answer(move, events)
            else:
                values = self._check_draw(move)
                self._table_draw(values, events)
        else:
            raise IllegalMoveError("bad-move", f"not a move: {move!r}")
        self.moves.append(move)
        self.events.extend(events)
        self._trail.append(self._snapshot())
        return events

    def check_placement(self, move: PlaceTile) -> tuple[int, int]:
        """Checks the placement *move* as :meth:`apply` does, without placing the tile (HiG "Place a
        tile"; HA "THE RIVER" for river tiles and the tiles placed while the river is open).

        Returns:
            ``(key, rotation)``: the board key of ``move.position``
            (:func:`~carcnet.engine.geometry.key_of`) and the rotation, 0–3.

        Raises:
            IllegalMoveError: The reason :meth:`apply` would give: ``"game-over"``,
                ``"wrong-phase"``, ``"wrong-tile"``, ``"bad-rotation"``, ``"not-adjacent"``,
                ``"occupied"``, ``"river"`` or ``"side-mismatch"``. The game is unchanged.
        """
        phase = self.phase
        if phase is not _PLACE:
            if phase is Phase.GAME_OVER:
                raise IllegalMoveError("game-over", f"the game is over; {move} is not possible")
            if phase is Phase.DRAW:
                raise IllegalMoveError("wrong-phase", f"{move}: the tile is not drawn yet")
            raise IllegalMoveError("wrong-phase", f"{move}: the tile is placed; deploy or skip first")
        drawn = self._drawn
        assert drawn is not None
        if move.tile != drawn.letter:
            raise IllegalMoveError("wrong-tile", f"{move}: the drawn tile is {drawn.letter}, not {move.tile}")
        rotation = move.rotation
        if isinstance(rotation, bool) or not isinstance(rotation, int) or not 0 <= rotation <= 3:
            raise IllegalMoveError("bad-rotation", f"{move}: rotation must be 0-3 quarter turns, got {rotation!r}")
        try:
            key = _key(move.position)
        except (ValueError, TypeError):
            raise IllegalMoveError("not-adjacent", f"{move}: {move.position!r} is not a board position") from None
        pattern = self.board.frontier.get(key)
        if pattern is None:
            pos = position_of(key)
            if key in self.board.tiles:
                raise IllegalMoveError("occupied", f"{move}: there is already a tile at {pos}")
            raise IllegalMoveError("not-adjacent", f"{move}: {pos} touches no placed tile along a side")
        if self._restricted and not self._listed(key, rotation):
            checked = self._hooks.check_placement  # an expansion's placement rules, unless this turn's enumeration did
            assert checked is not None
            checked(self, move, drawn, key, rotation, pattern)
        if drawn._variants[rotation].signature & PATTERN_MASKS[pattern] != pattern:  # TileKind.fits, inlined
            pos = position_of(key)
            bad = self.board.mismatch(key, drawn.variant(rotation))
            assert bad is not None
            side, ours, theirs = bad
            raise IllegalMoveError(
                "side-mismatch",
                f"{move}: its {side.name} side is {ours.name.lower()} but the tile at "
                f"{pos.neighbour(side)} shows {theirs.name.lower()} there",
            )
        return key, rotation

    def _listed(self, key: int, rotation: int) -> bool:
        """Whether this turn's legal placements, if already enumerated (:meth:`placement_codes`, with
        every river rule), list *rotation* at *key*."""
        codes = self._placements
        return codes is not None and any(code >> 4 == key and code >> rotation & 1 for code in codes)

    def _check_elsewhere(self, move: DeployMeeple) -> PlacedTile:
        """The tile a deploy with a position (:attr:`DeployMeeple.at`) goes on, once this turn lets a
        follower go anywhere and the tile may take it (PD15; see :meth:`_deploy_elsewhere`).

        Raises:
            IllegalMoveError: ``bad-position`` (no such tile, the tile just placed, or no expansion lets
                a figure leave it this turn), ``wrong-figure`` (not a follower), ``feature-complete``.
        """
        at, placed, hooks = move.at, self._placed, self._hooks
        assert at is not None and placed is not None
        if not isinstance(at, Position) or not all(type(v) is int and -KEY_LIMIT <= v <= KEY_LIMIT for v in at):
            raise IllegalMoveError("bad-position", f"{move}: not a board position: {at!r}")
        if at == placed.position:
            raise IllegalMoveError("bad-position", f"{move}: a figure on the tile just placed takes no position")
        if not any(anywhere(self) for anywhere in hooks.deploy_anywhere):
            raise IllegalMoveError("bad-position", f"{move}: a figure goes on the tile just placed this turn")
        target = self.board.tiles.get(_key(at))
        if target is None:
            raise IllegalMoveError("bad-position", f"{move}: no tile at {at.x},{at.y}")
        figure = move.figure
        if figure is not _MEEPLE:
            rule = hooks.rule_of.get(figure)
            if rule is None or rule.joins or not (hooks.weights or _NO_WEIGHTS).get(figure, 1):
                raise IllegalMoveError("wrong-figure", f"{move}: only a follower may go on another tile")
        segments = target.variant.segments
        i = move.segment
        if isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(segments):
            root = self.graph.find(target.base + i)
            if segments[i].kind is not _FIELD and self.graph.open[root] == 0 and self.graph.meeples[root] is None:
                raise IllegalMoveError("feature-complete",
                                       f"{move}: that {segments[i].kind.label} is complete; only the tile just placed "
                                       "may take a figure on a completed feature")
        return target

    def _check_deploy(self, move: DeployMeeple) -> None:
        placed = self._placed if move.at is None else self.board.tiles[_key(move.at)]
        assert placed is not None
        segments = placed.variant.segments
        i = move.segment
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(segments):
            raise IllegalMoveError(
                "bad-segment", f"{move}: tile {placed.kind.letter} has segments 0-{len(segments) - 1}"
            )
        seg = segments[i]
        rule = None if move.figure is _MEEPLE else self._hooks.rule_of.get(move.figure)
        if rule is not None and rule.joins:  # an expansion's figure beside a follower of the seat's
            if self.supplies[move.figure][self.seat] == 0:
                raise IllegalMoveError("no-supply", f"{move}: {rule.none_left.format(seat=self.seat)}")
            if seg.kind not in rule.kinds:
                why = self._hooks.closed_kinds[seg.kind] if seg.kind in rule.shut else rule.wrong_kind
                raise IllegalMoveError("bad-segment", f"{move}: {why.format(label=seg.kind.label)}")
            if i not in self._join_spots(rule):
                raise IllegalMoveError("bad-segment", f"{move}: {rule.wrong_place}")
            return
        if rule is not None:  # an expansion's figure that claims as a meeple does
            if seg.kind not in rule.kinds:
                why = self._hooks.closed_kinds[seg.kind] if seg.kind in rule.shut else rule.wrong_kind
                raise IllegalMoveError("bad-segment", f"{move}: {why.format(label=seg.kind.label)}")
            if self.supplies[move.figure][self.seat] == 0:
                raise IllegalMoveError("no-supply", f"{move}: {rule.none_left.format(seat=self.seat)}")
        elif move.figure is not _MEEPLE and move.figure in _EXPANSION_FIGURES:
            raise IllegalMoveError("wrong-figure",
                                   f"{move}: this game is played without {_EXPANSION_FIGURES[move.figure].title}")
        elif move.figure is _MEEPLE:
            if seg.kind not in self._hooks.meeple_kinds:
                why = self._hooks.closed_kinds.get(seg.kind) or "a meeple cannot go on a {label}"
                raise IllegalMoveError("bad-segment", f"{move}: {why.format(label=seg.kind.label)}")
            if self.supply[self.seat] == 0:
                raise IllegalMoveError("no-supply", f"{move}: seat {self.seat} has no meeple in supply")
        else:
            raise IllegalMoveError("wrong-figure", f"{move}: unknown figure {move.figure!r}")
        root = self.graph.find(placed.base + i)
        if self.graph.meeples[root] is not None:
            raise IllegalMoveError(
                "feature-occupied", f"{move}: that {seg.kind.label} already holds a figure elsewhere"
            )

    def signer(self, seat: int) -> int:
        """The seat whose player acts for *seat*: *seat* itself, or after a :class:`HandOver` the seat
        that runs its bot (whose key signs its entries in a network game, ``protocol/log.md`` §6)."""
        handover = self.handovers[seat]
        return seat if handover is None else handover.by

    def author(self, move: Move) -> tuple[int, int]:
        """Who makes *move* now: ``(seat, signer)``, the seat its log entry names and the seat whose
        key signs it in a network game (``protocol/log.md`` §6). The seat to play and its
        :meth:`signer` for a turn's move; a :class:`HandOver`'s ``by`` (which signs for itself); for a
        :class:`HandBack`, the seat that ran the bot (the handover's ``by``), or the seat itself when
        it takes itself back (its ``by`` is given). Does not check that *move* is legal (a
        :class:`HandBack` of a seat not handed over names the seat to play)."""
        kind = type(move)
        if kind is HandOver:
            assert isinstance(move, HandOver)
            return move.by, move.by
        if kind is HandBack:
            assert isinstance(move, HandBack)
            seat = move.seat
            if move.by is not None and move.by == seat:
                return seat, seat
            handover = self.handovers[seat] if isinstance(seat, int) and 0 <= seat < len(self.handovers) else None
            if handover is not None:
                return handover.by, handover.by
        actor = self.actor
        return actor, self.signer(actor)

    @property
    def actor(self) -> int:
        """The seat whose move the game waits for: the seat to play, or in ``Phase.STEP`` the seat
        the step asks (the same for every step so far)."""
        return self.steps[0].seat if self.steps else self.seat

    def _check_handback(self, move: HandBack) -> HandOver:
        seat = move.seat
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.setup.players:
            raise IllegalMoveError("bad-handback", f"{move}: seat must be a seat 0-{self.setup.players - 1}")
        if move.by is not None and move.by != seat:
            raise IllegalMoveError("bad-handback", f"{move}: only the seat itself takes it back (by {seat})")
        handover = self.handovers[seat]
        if handover is None:
            raise IllegalMoveError("bad-handback", f"{move}: seat {seat} is played by its own player")
        own = move.by is not None  # the seat takes itself back: its runner is gone, mid-turn too
        if self.phase is Phase.GAME_OVER or (self.phase is not Phase.DRAW and (
                seat != self.seat or (self.phase is not Phase.PLACE_TILE and not own))):
            raise IllegalMoveError(
                "bad-handback", f"{move}: a seat is given back at its turn, before it places (taken back by "
                "itself: at any point of its turn), or while the table draws")
        return handover

    def _check_handover(self, move: HandOver) -> None:
        n = self.setup.players
        seat, by, bot = move.seat, move.by, move.bot
        for value, what in ((seat, "seat"), (by, "by")):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
                raise IllegalMoveError("bad-handover", f"{move}: {what} must be a seat 0-{n - 1}")
        if not isinstance(bot, str) or not 1 <= len(bot) <= 32 or not all(c in _BOT_CHARS for c in bot):
            raise IllegalMoveError("bad-handover", f"{move}: the bot's name must be 1-32 of a-z, 0-9, -")
        if seat != self.actor and self.phase is not Phase.DRAW:
            raise IllegalMoveError(
                "bad-handover", f"{move}: only the seat to play ({self.actor}), or any seat while the table draws, "
                "can be handed over"
            )
        if self.handovers[seat] is not None:
            raise IllegalMoveError("bad-handover", f"{move}: seat {seat} is played by a bot already")
        if by == seat or self.handovers[by] is not None:
            raise IllegalMoveError("bad-handover", f"{move}: seat {by} cannot take over seat {seat}")

    def _check_draw(self, move: DrawTile) -> list[bytes | None]:
        """deck.md §5: a value from each contributing seat, none from the others, each the next
        value of its seat's chain."""
        table = self.setup.draws
        if table is None or self.revealed is None:
            raise IllegalMoveError("no-table-draws", f"{move}: this game's tiles are not drawn by the table")
        if self.phase is not Phase.DRAW:
            raise IllegalMoveError("wrong-phase", f"{move}: the table draws only before a tile is placed")
        values = move.values
        n = self.players
        if not isinstance(values, tuple) or len(values) != n:
            raise IllegalMoveError("bad-draw", f"draw: one value or - per seat ({n}) expected")
        draw = self.draw_count + 1
        out: list[bytes | None] = []
        for seat, value in enumerate(values):
            contributes = self.handovers[seat] is None
            if value is None:
                if contributes:
                    raise IllegalMoveError("bad-draw", f"draw {draw}: seat {seat}'s value is missing")
            elif not contributes:
                raise IllegalMoveError("bad-draw", f"draw {draw}: seat {seat} is played by a bot and reveals nothing")
            elif not check_reveal(table.game, seat, value, draw, self.revealed[seat]):
                raise IllegalMoveError(
                    "bad-reveal", f"draw {draw}: seat {seat}'s value does not match its chain (deck.md §5.1)"
                )
            out.append(value)
        return out

    # ------------------------------------------------------------------ transitions

    def _place_tile(
        self, kind: TileKind, key: int, rotation: int, seat: int | None, events: list[Event]
    ) -> None:
        board = self.board
        tiles = board.tiles
        g = self.graph
        variant = kind._variants[rotation]
        base = len(g.parent)
        position = position_of(key)
        placed = PlacedTile(kind, variant, key, position, rotation, base, seat)
        board.place(placed)
        # one node per segment; cloisters and gardens start with their empty neighbours open
        g.add_tile(key, variant)
        watch = self._watch
        if variant.area_segments:  # a cloister or garden: it watches its empty neighbours
            area_nodes = [base + i for i in variant.area_segments]
            empty = 0
            for o in RING_OFFSETS:
                k = key + o
                if k not in tiles:
                    empty += 1
                    mine = tuple((_RING_INDEX[-o], n) for n in area_nodes)
                    watch[k] = tuple(sorted(watch[k] + mine)) if k in watch else mine
            for n in area_nodes:
                g.open[n] = empty
        # join across each touching side, in side order
        join, join_fields = g.join, g.join_fields
        for offset, o, ss, ha, hb, sx in variant.links:
            nt = tiles.get(key + offset)
            if nt is None:
                continue
            nb = nt.base
            ts, ta, tb, tx = nt.variant.edges[o]
            if ss >= 0:
                join(base + ss, nb + ts, 2)
                if sx >= 0 or tx >= 0:  # a shared side (two cities reach it): a city met there joins both
                    if sx >= 0:
                        join(base + sx, nb + ts, 1)
                    if tx >= 0:
                        join(base + ss, nb + tx, 1)
            if ha >= 0:
                join_fields(base + ha, nb + tb, 0)
            if hb >= 0:
                join_fields(base + hb, nb + ta, 0)
        # completions: this tile's features in row order, then neighbouring cloisters/gardens
        completed: list[int] = []
        parent = g.parent
        open_ = g.open
        for i in variant.closable:
            r = base + i
            while parent[r] != r:  # FeatureGraph.find without its path halving (the joins just did it)
                r = parent[r]
            if open_[r] == 0 and r not in completed:
                completed.append(r)
        around = watch.pop(key, None)  # the cloisters and gardens this tile neighbours
        if around:
            for _ring, n in around:
                open_[n] -= 1
                if open_[n] == 0:
                    completed.append(n)
        if seat is not None:
            self.last_placed[seat] = position
        for placed_hook in self._hooks.on_tile_placed:
            placed_hook(self, placed, seat)
        self._placed = placed
        self._pending = completed
        events.append(TilePlaced(seat, kind.letter, position, rotation))

    def _deploy(self, move: DeployMeeple, events: list[Event]) -> None:
        placed = self._placed if move.at is None else self.board.tiles[_key(move.at)]
        assert placed is not None
        node = placed.base + move.segment
        g = self.graph
        root = g.find(node)
        seat = self.seat
        figure = move.figure
        if figure is not _MEEPLE and self._hooks.rule_of[figure].joins:  # beside a follower of the seat's
            held = g.meeples[root]
            assert held
            held.append((seat, figure, node))
            self._meeple_nodes.append(node)
            self.supplies[figure][seat] -= 1
            self._worded_part = None
            told = self._hooks.on_deploy.get(figure)
            if told is not None:
                told(self, seat, figure, node)
            events.append(MeepleDeployed(seat, placed.position, move.segment, figure, g.kind[node]))
            return
        g.meeples[root] = [(seat, move.figure, node)]
        self._meeple_nodes.append(node)
        if move.figure is _MEEPLE:
            self.supply[seat] -= 1
        else:  # an expansion's figure (its supply, and its owner told)
            self.supplies[move.figure][seat] -= 1
            self._worded_part = None
            told = self._hooks.on_deploy.get(move.figure)
            if told is not None:
                told(self, seat, move.figure, node)
        events.append(MeepleDeployed(seat, placed.position, move.segment, move.figure, g.kind[node], move.at is not None))

    def _end_turn(self, events: list[Event]) -> None:
        before = self._hooks.before_scoring
        if before:  # an expansion's part of the turn before its scoring (the dragon's movement)
            for hook in before:
                hook(self, events)
            if self.steps:
                self._scoring_waits = True
                self.phase = Phase.DRAW if self.steps[0].draws else _STEP
                return
        self._score_turn(events)

    def _score_turn(self, events: list[Event]) -> None:
        """The turn's scoring and end (its completed features, the expansions' ``turn_end``), then the
        next seat's draw, or the turn's steps."""
        for root in self._pending:
            self._score_completed(root, events)
        self._pending = []
        self._placed = None
        again = False  # an expansion gives the same seat another tile
        for end in self._hooks.turn_end:
            again = end(self, events) or again
        if self.steps:  # an expansion's question first
            self._again = again
            self._drawn = None
            self.phase = Phase.DRAW if self.steps[0].draws else _STEP
            return
        if not again:  # as _next_turn, inlined: every turn ends here
            self.seat = (self.seat + 1) % self.players
        if not self._draw(events):
            self._final(events)
        elif not again and self._hooks.turn_start:
            for start in self._hooks.turn_start:
                start(self, events)

    def _next_turn(self, again: bool, events: list[Event]) -> None:
        """The turn's end, after its steps: the next seat (or the same one *again*) draws, or the
        game ends; a new seat's turn begins (the expansions' ``turn_start``)."""
        if not again:
            self.seat = (self.seat + 1) % self.players
        if not self._draw(events):
            self._final(events)
        elif not again:
            for start in self._hooks.turn_start:
                start(self, events)

    def _answer(self, move: Move, events: list[Event]) -> None:
        """*move* answers the step the game waits for (``Phase.STEP``, or ``Phase.DRAW`` for a step the
        table's draw answers); the turn goes on after the last."""
        again = self.steps[0].apply(self, move, events)
        self.steps.pop(0)
        again = again or self._again
        if self.steps:
            self._again = again
            self.phase = Phase.DRAW if self.steps[0].draws else _STEP
        elif self._scoring_waits:  # the steps before the scoring answered: the turn is scored
            self._scoring_waits = False
            self._score_turn(events)
        else:
            self._again = False
            self._next_turn(again, events)

    def push_step(self, step: Step) -> None:
        """Puts *step*'s question to its seat at the turn's end (an expansion's :meth:`Expansion.turn_end`:
        :class:`~carcnet.engine.expansion.GameState`)."""
        self.steps.append(step)

    def _table_draw(self, values: list[bytes | None], events: list[Event]) -> None:
        """Applies a checked :class:`DrawTile` (deck.md §5.2): the tile it picks leaves the bag; one
        that fits nowhere is set aside and the table draws again, or the game ends."""
        bag = self.bag
        assert bag is not None
        group = next(g for g in bag if g)
        holds = self._hooks.holds
        if holds is None:
            letter = group.pop(self._pick(values, len(group)))
        else:  # the tiles that may not be played yet are not drawn (deck.md §8)
            free = [i for i, tile in enumerate(group) if not holds(self, tile_kind(tile))]
            letter = group.pop(free[self._pick(values, len(free))])
        self.deck_index += 1
        kind = tile_kind(letter)
        events.append(_DRAWN.get((self.seat, letter)) or _drawn(self.seat, letter))
        if self._fits_somewhere(kind):
            self._drawn = kind
            self.phase = Phase.PLACE_TILE
            return
        self.set_aside.append(letter)
        events.append(TileSetAside(self.seat, letter))
        if sum(map(len, bag)) <= self.hidden or not self._drawable():
            self._drawn = None
            self._final(events)

    def _drawable(self) -> bool:
        """With table draws: whether the first group with tiles has one that may be drawn now (an
        expansion may hold some, deck.md §8)."""
        holds = self._hooks.holds
        if holds is None:
            return True
        assert self.bag is not None
        group = next((g for g in self.bag if g), [])
        return any(not holds(self, tile_kind(tile)) for tile in group)

    def release_held(self) -> None:
        """The held tiles go back into the pile (an expansion's: the first volcano;
        :class:`~carcnet.engine.expansion.GameState`): with a seed, the tiles not yet drawn and the
        held ones are shuffled together by the stream of ``protocol/deck.md`` §8; with a given order,
        the held ones follow the rest in the order held. Nothing to do with table draws."""
        if not self.held:
            return
        rest = [*self.deck[self.deck_index :], *self.held]
        seed = self.setup.seed
        if seed is not None:
            rest = sorted(rest)  # canonical, then shuffled (deck.md §8)
            _deck.DeckStream(seed, _HELD_DOMAIN).shuffle(rest)
        self.deck = (*self.deck[: self.deck_index], *rest)
        self.held = []

    def _pick(self, values: list[bytes | None], n: int) -> int:
        """The index in ``[0, n)`` that the table's next draw, made of the checked *values*, picks
        (deck.md §5.2); the draw is made (:attr:`draw_count`) and each value revealed kept."""
        revealed, table = self.revealed, self.setup.draws
        assert revealed is not None and table is not None
        draw = self.draw_count + 1
        for seat, value in enumerate(values):
            if value is not None:
                revealed[seat] = (draw, value)
        self.draw_count = draw
        return draw_index(draw_value(table.game, draw, values), n)

    def table_pick(self, move: DrawTile, n: int) -> int:
        """Checks *move*, the table's draw the game waits for in ``Phase.DRAW`` for an expansion's
        step, and returns the index in ``[0, n)`` it picks (deck.md §5.2: ``below(n)`` on the draw's
        value, as a tile draw picks a tile): an expansion's draw from the table
        (:class:`~carcnet.engine.expansion.GameState`).

        Raises:
            IllegalMoveError: As for a tile's draw (``"no-table-draws"``, ``"bad-draw"``, ``"bad-reveal"``).
        """
        return self._pick(self._check_draw(move), n)

    @property
    def next_draw(self) -> int:
        """The number of the table's next draw (deck.md §5.2, 1 for the first): the draws made so
        far, of tiles and an expansion's, plus one. The draw the game waits for in ``Phase.DRAW``."""
        return self.draw_count + 1

    def _fits_somewhere(self, kind: TileKind) -> bool:
        """Whether the tile just drawn can be placed; sets :attr:`_placements` when that took the
        whole enumeration (an expansion's placement rules), else clears it for :meth:`legal_placements`;
        and :attr:`_restricted`."""
        restricts = self._hooks.restricts
        if restricts is not None and restricts(self, kind):
            self._restricted = True
            self._placements = self._filtered_codes(kind)
            return bool(self._placements)
        self._restricted = False
        self._placements = None
        return self.board.fits_somewhere(kind)

    def _filtered_codes(self, kind: TileKind) -> list[int]:
        """Where *kind* may go under the placement rules of the expansion in play that restricts it
        now, as :meth:`placement_codes` packs them."""
        filtered = self._hooks.filter_placements
        assert filtered is not None
        return [key << 4 | sum(1 << r for r in rotations) for key, rotations in filtered(self, kind)]

    def _draw(self, events: list[Event]) -> bool:
        """Draws for the current seat until a tile fits; False when the deck runs out first. With
        table draws, only waits for the table (``Phase.DRAW``) while tiles are left."""
        if self.bag is not None:
            self._drawn = None
            self._placements = None
            if sum(map(len, self.bag)) > self.hidden and self._drawable():
                self.phase = Phase.DRAW
                return True
            return False
        restricts = self._hooks.restricts
        holds = self._hooks.holds
        while self.deck_index < len(self.deck) and len(self.deck) - self.deck_index + len(self.held) > self.hidden:
            letter = self.deck[self.deck_index]
            kind = tile_kind(letter)
            if holds is not None and holds(self, kind):  # it waits: out of the order, the next one drawn
                self.deck = self.deck[: self.deck_index] + self.deck[self.deck_index + 1 :]
                self.held.append(letter)
                events.append(TileHeld(self.seat, letter))
                continue
            self.deck_index += 1
            events.append(_DRAWN.get((self.seat, letter)) or _drawn(self.seat, letter))
            if restricts is not None and restricts(self, kind):
                self._restricted = True
                codes = self._placements = self._filtered_codes(kind)
                fits = bool(codes)
            else:  # the base game's path: no placement rule of an expansion's
                self._restricted = False
                self._placements = None
                fits = self.board.fits_somewhere(kind)
            if fits:
                self._drawn = kind
                self.phase = Phase.PLACE_TILE
                return True
            self.set_aside.append(letter)
            events.append(TileSetAside(self.seat, letter))
        self._drawn = None
        self._placements = None
        return False

    def _score_completed(self, root: int, events: list[Event]) -> None:
        g = self.graph
        info = self._info(root)
        events.append(FeatureCompleted(info))
        for completed in self._hooks.on_completed:
            completed(self, root, info, events)
        meeples = g.meeples[root]
        if not meeples:
            return
        seats = self.majority(meeples)
        points = self._hooks.value(info, False)
        category = info.kind.label
        for s in seats:
            self.scores[s] += points
            self.breakdown[s][category][0] += points
        events.append(PointsScored(seats, points, info, False))
        for seat, figure, node in meeples:
            self._to_supply(seat, figure, node)
            self._meeple_nodes.remove(node)
            events.append(MeepleReturned(seat, position_of(g.tile[node]), g.index[node], figure))
        g.meeples[root] = None

    def _to_supply(self, seat: int, figure: Figure, node: int) -> None:
        if figure is _MEEPLE:
            self.supply[seat] += 1
            return
        told = self._hooks.on_return.get(figure)
        if told is not None:
            told(self, seat, figure, node)
        self.supplies[figure][seat] += 1  # an expansion's figure
        self._worded_part = None

    def award(self, seats: tuple[int, ...], points: int, info: FeatureInfo, events: list[Event]) -> None:
        """*points* to each of *seats* now, during the game, in *info*'s category (an expansion's
        scoring: :class:`~carcnet.engine.expansion.GameState`)."""
        category = info.kind.label
        for seat in seats:
            self.scores[seat] += points
            self.breakdown[seat][category][0] += points
        events.append(PointsScored(seats, points, info, False))

    def add_score(self, event: Scoring, events: list[Event]) -> None:
        """*event*'s points to each of its seats now, during the game, in its category (an expansion's
        scoring that names no feature's majority: :class:`~carcnet.engine.expansion.GameState`)."""
        category = event.category
        for seat in event.seats:
            self.scores[seat] += event.points
            self.breakdown[seat][category][0] += event.points
        events.append(event)

    def weight_of(self, figure: Figure) -> int:
        """How many followers *figure* counts as for a majority (the meeple 1; an expansion's figure
        its :attr:`FigureRule.weight`; 0: it is no follower)."""
        weights = self._hooks.weights
        return 1 if weights is None else weights.get(figure, 1)

    def majority(self, figures: Sequence[tuple[int, Figure, int]]) -> tuple[int, ...]:
        """The seats with the most followers among *figures* (``(seat, figure, node)``, at least one a
        follower), in seat order, each figure counted at its weight (HiG: ties all score; an
        expansion's figure at its :attr:`FigureRule.weight`), a tie then broken by the tile mark of an
        expansion in play (:attr:`Hooks.tie_mark`). Pure."""
        hooks = self._hooks
        seats = majority(figures, hooks.weights)
        if hooks.tie_mark and len(seats) > 1:
            seats = self._tie_break(seats, figures, hooks.tie_mark)
        return seats

    def _tie_break(self, seats: tuple[int, ...], figures: Sequence[tuple[int, Figure, int]], mark: str
                   ) -> tuple[int, ...]:
        """Of the tied *seats*, those with a follower (a figure of weight > 0) among *figures* on a tile
        marked *mark* (:attr:`Hooks.tie_mark`), or all of them when none has one."""
        tiles, tile_of, weights = self.board.tiles, self.graph.tile, self._hooks.weights
        high = {seat for seat, figure, node in figures
                if seat in seats and (weights is None or weights.get(figure, 1) > 0)
                and mark in tiles[tile_of[node]].kind.marks}
        return tuple(sorted(high)) if high else seats

    def hide_tile(self) -> bool:
        """Takes a face-down tile out of the game unseen, when one is left to draw (an expansion's:
        :class:`~carcnet.engine.expansion.GameState`): no tile is chosen, the pile is one shorter
        (:attr:`hidden`). Returns whether one was."""
        if self.tiles_left <= 0:
            return False
        self.hidden += 1
        return True

    def return_figure(self, node: int, events: list[Event]) -> None:
        """The figure on the graph node *node* leaves the board for its seat's supply (an expansion's
        move: :class:`~carcnet.engine.expansion.GameState`)."""
        g = self.graph
        root = g.find(node)
        figures = g.meeples[root] or []
        for seat, figure, n in figures:
            if n == node:
                self._to_supply(seat, figure, node)
                self._meeple_nodes.remove(node)
                g.meeples[root] = [m for m in figures if m[2] != node] or None
                events.append(MeepleReturned(seat, position_of(g.tile[n]), g.index[n], figure))
                if self._hooks.joiners:  # a figure that joined this seat's followers, left alone, goes too
                    weights = self._hooks.weights or {}
                    left = g.meeples[root] or []
                    if not any(s == seat and weights.get(f, 1) for s, f, _ in left):
                        for s, f, other in left:
                            if s == seat and self._hooks.rule_of[f].joins:
                                self.return_figure(other, events)
                                break
                return
        raise ValueError(f"no figure on node {node}")

    def clear_tile(self, key: int, events: list[Event]) -> None:
        """Every figure on the tile at board key *key* goes back to its seat's supply without points
        (an expansion's: the dragon eats them; :class:`~carcnet.engine.expansion.GameState`): those on
        the feature graph, in deployment order, then those the expansions place themselves
        (:meth:`Expansion.clear_tile`)."""
        tile_of = self.graph.tile
        for node in [n for n in self._meeple_nodes if tile_of[n] == key]:
            if node in self._meeple_nodes:  # (a lonely joiner may have gone with its follower)
                self.return_figure(node, events)
        for clear in self._hooks.clear_tile:
            clear(self, key, events)

    def _final_scoring(self) -> list[PointsScored]:
        """Final-scoring events for the current board (pure): incomplete features by first meeple,
        then farms (HiG "Final scoring"; farm-centred scoring of the current HiG rules)."""
        g = self.graph
        find = g.find
        roots: list[int] = []
        for node in self._meeple_nodes:
            r = find(node)
            if r not in roots:
                roots.append(r)
        events: list[PointsScored] = []
        fields: list[int] = []
        for r in roots:
            if g.kind[r] is _FIELD:
                fields.append(r)
                continue
            meeples = g.meeples[r]
            assert meeples
            info = self._info(r)
            events.append(PointsScored(self.majority(meeples), self._hooks.value(info, True), info, True))
        field_tiles: dict[int, set[int]] = {r: set() for r in fields}
        if fields:  # one pass over the graph for the tiles of every farm with farmers
            tile_of = g.tile
            for n, kind in enumerate(g.kind):
                if kind is _FIELD:
                    tiles = field_tiles.get(find(n))
                    if tiles is not None:
                        tiles.add(tile_of[n])
        farm_scoring = self._hooks.farm_scoring
        if farm_scoring is not None:
            events.extend(farm_scoring(self, fields, field_tiles))
            return events
        for r in fields:
            meeples = g.meeples[r]
            assert meeples
            info = self._info(r, field_tiles[r])
            seats = self.majority(meeples)
            events.append(PointsScored(seats, self._hooks.farm_city_points * len(info.cities), info, True))
            for bonus in self._hooks.farm_bonus:
                events.extend(bonus(self, seats, info, meeples))
        return events

    def _expansions_final(self) -> list[Scoring]:
        """The expansions' final scoring after the core's (pure): their events in registry order."""
        return [event for final in self._hooks.final_scoring for event in final(self)]

    def _final(self, events: list[Event]) -> None:
        for ev in [*self._final_scoring(), *self._expansions_final()]:
            category = ev.category
            for s in ev.seats:
                self.scores[s] += ev.points
                self.breakdown[s][category][1] += ev.points
            events.append(ev)
        # HB "Final scoring": "As soon as the feature in question has been scored, the followers
        # involved are removed. Only the farmers and their farms are left": farmers stay on the board.
        g = self.graph
        kept: list[int] = []
        for node in self._meeple_nodes:
            if g.kind[node] is _FIELD:
                kept.append(node)
                continue
            root = g.find(node)
            figures = g.meeples[root] or []
            for seat, figure, n in figures:
                if n == node:
                    self._to_supply(seat, figure, node)
                    events.append(MeepleReturned(seat, position_of(g.tile[n]), g.index[n], figure))
            remaining = [m for m in figures if m[2] != node]
            g.meeples[root] = remaining or None
        self._meeple_nodes = kept
        best = max(self.scores)
        self.winners = tuple(s for s in range(self.players) if self.scores[s] == best)
        self.phase = Phase.GAME_OVER
        events.append(GameEnded(tuple(self.scores), self.winners))

    # ------------------------------------------------------------------ helpers

    def _node(self, position: Position, segment: int) -> int:
        tile = self.board.tiles.get(_key(position))
        if tile is None:
            raise KeyError(f"no tile at {position}")
        if not 0 <= segment < len(tile.variant.segments):
            raise KeyError(f"tile {tile.kind.letter} at {position} has no segment {segment}")
        return tile.base + segment

    def feature_info(self, root: int) -> FeatureInfo:
        """The feature whose root (:meth:`FeatureGraph.find`) is *root*, described: kind, tiles,
        pennants, completion, figures and, for a farm, the completed cities it supplies. Pure."""
        return self._info(root)

    def _info(self, root: int, tiles_set: set[int] | None = None) -> FeatureInfo:
        """Snapshot of the feature at *root*; *tiles_set* gives a field's tiles if already known."""
        g = self.graph
        kind = g.kind[root]
        if tiles_set is None:
            tiles_set = g.tiles[root]
        around: tuple[str, ...] = ()
        if kind in _AREA:
            key = g.tile[root]
            placed = self.board.tiles
            keys = [key] + [key + o for o in RING_OFFSETS if key + o in placed]
            around = tuple(sorted(mark for k in keys[1:] for mark in placed[k].kind.marks))
        elif tiles_set is None:
            keys = list({g.tile[n] for n in g.members(root)})
        else:
            keys = list(tiles_set)
        keys.sort()
        first = g.first[root]
        cities: tuple[tuple[Position, ...], ...] = ()
        if kind is _FIELD:
            seen: list[int] = []
            for c in g.borders[root] or ():
                cr = g.find(c)
                if g.open[cr] == 0 and cr not in seen:
                    seen.append(cr)
            cities = tuple(tuple(map(position_of, sorted(g.tiles[c] or ()))) for c in seen)
        meeples = tuple((s, f) for s, f, _ in g.meeples[root] or ())
        return FeatureInfo(
            kind,
            (position_of(g.tile[first]), g.index[first]),
            tuple(map(position_of, keys)),
            kind is not _FIELD and g.open[root] == 0,
            g.pennants[root],
            cities,
            meeples,
            *g.printed(root),
            around,
        )

    def _snapshot(self) -> _Snapshot:
        """What the state line of ``protocol/digest.md`` §3 needs, taken after each move. With an
        expansion's words, its scores, supply and expansions' parts are the previous move's own
        objects when equal: a game keeps fewer objects for the cyclic collector to count."""
        snaps = self._hooks.snapshots
        if not snaps:
            return (
                self.phase, self.seat, self._drawn, self.deck_index, len(self.set_aside),
                tuple(self.scores), tuple(self.supply),
                (self._worded_part or self._worded_supplies()) if self._worded else None,
                None,
                self.steps[0].words() if self.steps else None,
            )
        scores, supply = tuple(self.scores), tuple(self.supply)
        trail = self._trail
        last = trail[-1] if trail else None
        if len(snaps) == 1:
            part = snaps[0](self)
            before = None if last is None else last[8]
            parts = before if before is not None and before[0] == part else (part,)
        else:
            parts = tuple([snap(self) for snap in snaps])
            if last is not None and last[8] == parts:
                parts = last[8]
        if last is not None:
            if last[5] == scores:
                scores = last[5]
            if last[6] == supply:
                supply = last[6]
        return (
            self.phase, self.seat, self._drawn, self.deck_index, len(self.set_aside), scores, supply,
            (self._worded_part or self._worded_supplies()) if self._worded else None,
            parts,
            self.steps[0].words() if self.steps else None,
        )

    def _worded_supplies(self) -> tuple[tuple[str, ...], tuple[tuple[int, ...], ...]]:
        """The supplies of the expansions' figures the state line writes, with their words, kept
        (:attr:`_worded_part`) until a figure of theirs is deployed or returns."""
        part = self._worded_part = (self._hooks.words, tuple(map(tuple, self._worded)))
        return part


def _state_line(snapshot: _Snapshot, writers: tuple[Callable[[Any], str], ...]) -> str:
    """The state line of ``protocol/digest.md`` §3; *writers*: the expansions' words of their parts
    (:attr:`~carcnet.engine.expansion.Hooks.state_words`)."""
    phase, seat, kind, drawn_count, aside, scores, supply, worded, parts, step = snapshot
    drawn = kind.letter if kind is not None and phase is _PLACE else "-"
    line = (
        f"{phase.value if step is None else f'{phase.value} {step}'} seat={seat} drawn={drawn} next={drawn_count} aside={aside} "
        f"scores={','.join(map(str, scores))} supply={','.join(map(str, supply))}"
    )
    if worded is not None:  # the expansions' figures' supplies, only with them: base-game digests are unchanged
        for word, supplies in zip(*worded):
            line += f" {word}={','.join(map(str, supplies))}"
    if parts is not None:  # the expansions' other words, only with them
        for write, part in zip(writers, parts, strict=True):
            line += write(part)
    return line + "\n"


_RING_INDEX = {o: i for i, o in enumerate(RING_OFFSETS)}
#: The stream that shuffles the held tiles back into a seeded pile (``protocol/deck.md`` §8).
_HELD_DOMAIN = b"carcnet/held/v1"

#: The Placement of each ``key << 4 | rotation bits`` met so far (immutable values, shared by every
#: game; at most one per open position and set of rotations, a few thousand in practice).
_PLACEMENTS: dict[int, Placement] = {}


#: The :class:`TileDrawn` of each (seat, design) met so far (immutable values, shared by every game,
#: as :data:`_PLACEMENTS`: a game keeps one object less a tile, and makes none a draw).
_DRAWN: dict[tuple[int, str], TileDrawn] = {}


def _drawn(seat: int, letter: str) -> TileDrawn:
    """Makes and remembers the :class:`TileDrawn` of *seat* and the design *letter*."""
    event = _DRAWN[seat, letter] = TileDrawn(seat, letter)
    return event


#: Per figure, the :class:`DeployMeeple` of each ``key << 5 | segment`` met so far on a tile other than
#: the one just placed (immutable values, shared by every game, as :data:`_PLACEMENTS`).
_ELSEWHERE: dict[Figure, dict[int, DeployMeeple]] = {}


def _elsewhere(moves: dict[int, DeployMeeple], code: int, figure: Figure) -> DeployMeeple:
    """Makes and remembers in *moves* the deploy of *figure* on ``key << 5 | segment``."""
    move = moves[code] = DeployMeeple(code & 31, figure, position_of(code >> 5))
    return move


def _placement(code: int) -> Placement:
    """Makes and remembers the :class:`Placement` of ``key << 4 | rotation bits``."""
    placement = _PLACEMENTS[code] = Placement(position_of(code >> 4), ROTATIONS_OF_BITS[code & 15])
    return placement


def _key(position: Position) -> int:
    x, y = position
    if type(x) is int and type(y) is int and -KEY_LIMIT <= x <= KEY_LIMIT and -KEY_LIMIT <= y <= KEY_LIMIT:
        return x * KEY_STRIDE + y  # key_of without the call (bool is not int here: it takes the checks below)
    if isinstance(x, bool) or isinstance(y, bool) or not isinstance(x, int) or not isinstance(y, int):
        raise TypeError(f"position coordinates must be integers, got {position!r}")
    return key_of(x, y)
