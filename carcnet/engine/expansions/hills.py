"""Provides Hills & Sheep as an expansion (Hans im Glück 2014, second edition 2018; ``docs/rules.md``,
"Hills & Sheep"; the rules gathered with their sources in ``docs/rules-next.md`` §2): its tiles' hills
and vineyards, the shepherds and the sheep bag.

* **The tile under a hill** (HS2): a placed hill tile takes a face-down tile out of the game unseen
  (``GameState.hide_tile``: no tile is chosen, the pile is one shorter; none when the pile is empty),
  so the game has one turn fewer (JCloisterZone's ``hiddenUnderHills``, ``protocol/deck.md`` §6).
* **Hills break ties** (HS4): of the players tied for the most followers on a road, city or farm,
  those with at least one follower on a hill tile of that feature score it alone; when none of them
  has one, they all score, as always (JCloisterZone's default, ``at-least-one-follower``).
* **Vineyards** (HS5): a completed cloister scores 3 more for each vineyard tile among its eight
  neighbours; an incomplete one at the end nothing more.

* **The shepherd** (HS6–HS13): one a seat, deployed instead of a meeple on a field of the tile just
  placed that holds no shepherd (:data:`~carcnet.engine.moves.Figure.SHEPHERD`; the expansion keeps
  where each stands, off the feature graph: it claims nothing and counts for no majority). A token is
  drawn at once. Later, a seat whose tile extends its own shepherd's field must tend the flock
  (:class:`~carcnet.engine.moves.Flock`): grow it (a token drawn) or score it (every shepherd in the
  field scores 1 a sheep there, and returns). A wolf scatters the field's flocks without points. A
  field with shepherds closed by any tile is scored at once. At the end shepherds score nothing.
* **The sheep bag** (``protocol/deck.md`` §7): 18 tokens less those in fields, in canonical order
  (``1 2 3 4 W``); a draw is ``bag[below(len(bag))]``, from the table's draws at a network table (a
  step the table's :class:`~carcnet.engine.moves.DrawTile` answers), else from a stream of the
  game's seed.

Its words in the state line (``protocol/digest.md`` §3): `` hidden=<n>`` (the tiles under hills),
`` shepherds=<a,b,…>`` (the shepherds in supply) and `` flocks=<f,…>`` (each seat's shepherd's tokens,
``-`` without).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import ClassVar

from ..board import PlacedTile
from ..draws import draw_index
from ..errors import IllegalMoveError
from ..events import Event, FeatureInfo, FlockScored, MeepleDeployed, MeepleReturned, TokenDrawn
from ..expansion import Expansion, GameState
from ..geometry import SIDE_OFFSETS, position_of
from ..moves import DeployMeeple, DrawTile, Figure, Flock, Move
from ..tiles import MAX_SEGMENTS, SegmentKind, TileKind

__all__ = ["BAG", "HILL", "SHEPHERDS_PER_PLAYER", "VINEYARD", "VINEYARD_POINTS", "FlockChoice", "HillsSheep",
           "HillsState", "TokenDraw", "bag", "flocks", "shepherd_at"]

#: The tile marks (:attr:`~carcnet.engine.tiles.TileKind.marks`) of Hills & Sheep.
HILL, VINEYARD = "hill", "vineyard"
#: What a completed cloister scores more for each vineyard around it (W-HS2: "3 additional points for
#: each vineyard on one of the 8 surrounding tiles").
VINEYARD_POINTS = 3
#: Shepherds each player has (ZM-HS: "6 shepherds in 6 colors").
SHEPHERDS_PER_PLAYER = 1
#: The sheep bag full, in canonical order (code points): 4 × 1 sheep, 5 × 2, 5 × 3, 2 × 4, 2 wolves
#: (W-HS2 "Contents"; ZM-HS).
BAG = ("1",) * 4 + ("2",) * 5 + ("3",) * 5 + ("4",) * 2 + ("W",) * 2
#: The wolf's token.
WOLF = "W"
#: The domain of a seeded game's token draws (``protocol/deck.md`` §7).
_SHEEP_DOMAIN = b"carcnet/sheep/v1\x00"
_CLOISTER = SegmentKind.CLOISTER
_FIELD = SegmentKind.FIELD
_SHEPHERD = Figure.SHEPHERD
_GROW, _SCORE = Flock(True), Flock(False)
#: The shepherd's deploy moves on segments 0 to MAX_SEGMENTS - 1 (immutable: made once).
_SHEPHERD_ON = tuple(DeployMeeple(i, _SHEPHERD) for i in range(MAX_SEGMENTS))


class HillsState:
    """One game's shepherds and flocks.

    Attributes:
        shepherds: Per seat, the feature-graph node its shepherd stands on (a field segment), or ``None``.
        flocks: Per seat, its shepherd's tokens (``"1"`` to ``"4"``), in the order drawn.
        drawn: Tokens drawn so far (a seeded game's stream position, ``protocol/deck.md`` §7).
        tile: The tile placed last by a seat (``None`` before the first turn).
        deployed: Whether the seat to play deployed its shepherd this turn (its token is drawn at
            the turn's end).
        part: The state line's part (:meth:`HillsSheep.snapshot`), kept until a shepherd, a flock
            or the tiles under hills change (``None``: to make again).
    """

    __slots__ = ("deployed", "drawn", "flocks", "part", "shepherds", "tile")

    def __init__(self, players: int) -> None:
        self.shepherds: list[int | None] = [None] * players
        self.flocks: list[list[str]] = [[] for _ in range(players)]
        self.drawn = 0
        self.tile: PlacedTile | None = None
        self.deployed = False
        self.part: tuple[int, tuple[int, ...], tuple[str, ...]] | None = None

    def copy(self) -> HillsState:
        """An independent copy (:meth:`Game.copy`)."""
        other = HillsState.__new__(HillsState)
        other.shepherds = self.shepherds[:]
        other.flocks = [f[:] for f in self.flocks]
        other.drawn, other.tile, other.deployed = self.drawn, self.tile, self.deployed
        other.part = None
        return other

    def bag(self) -> list[str]:
        """The tokens in the bag, in canonical order: :data:`BAG` less those in the fields."""
        out = list(BAG)
        for flock in self.flocks:
            for token in flock:
                out.remove(token)
        return out


@dataclass(frozen=True, slots=True)
class FlockChoice:
    """The flock's question (HS7): *seat*, whose tile extended its shepherd's field, grows it or
    scores it (a :class:`~carcnet.engine.expansion.Step`)."""

    seat: int
    owner: HillsSheep
    draws: ClassVar[bool] = False

    def words(self) -> str:
        return "flock"

    def legal_moves(self, game: GameState) -> list[Move]:
        return [_GROW, _SCORE]

    def apply(self, game: GameState, move: Move, events: list[Event]) -> bool:
        """ZM-HS: "Grow the flock (draw another token from the bag) OR Gather the flock (score points)"."""
        if type(move) is not Flock:
            raise IllegalMoveError("wrong-phase", f"{move}: grow the flock or score it first")
        assert isinstance(move, Flock)
        if not isinstance(move.grow, bool):
            raise IllegalMoveError("bad-move", f"{move}: grow must be true or false")
        owner, state = self.owner, game.ext[self.owner.slot]
        if move.grow:
            owner._draw_for(game, state, self.seat, events)
        else:
            node = state.shepherds[self.seat]
            assert node is not None
            owner._score_flock(game, state, game.graph.find(node), events)
            owner._score_closed(game, state, events)
        return False


@dataclass(frozen=True, slots=True)
class TokenDraw:
    """A token to draw for *seat*'s flock at a table whose draws come from the players: the table's
    next draw answers it (a :class:`~carcnet.engine.expansion.Step` that :attr:`draws`)."""

    seat: int
    owner: HillsSheep
    draws: ClassVar[bool] = True

    def words(self) -> str:
        return "token"

    def legal_moves(self, game: GameState) -> list[Move]:
        return []  # the table draws

    def apply(self, game: GameState, move: Move, events: list[Event]) -> bool:
        """``protocol/deck.md`` §7: ``bag[below(len(bag))]`` on the table's draw."""
        if type(move) is not DrawTile:
            raise IllegalMoveError("wrong-phase", f"{move}: the table draws a token from the sheep bag first")
        assert isinstance(move, DrawTile)
        owner, state = self.owner, game.ext[self.owner.slot]
        tokens = state.bag()
        token = tokens[game.table_pick(move, len(tokens))]
        state.drawn += 1
        owner._take_token(game, state, self.seat, token, events)
        owner._score_closed(game, state, events)
        return False


class HillsSheep(Expansion):
    """Hills & Sheep: the tile under a hill, the hills' tie break, the vineyards."""

    name = "hills-sheep"
    title = "Hills & Sheep"
    option = "hills_sheep"
    since = 6
    words = ("hill", "hills", "vineyard", "vineyards", "sheep", "shepherd", "shepherds", "flock")
    digest_order = 50  # " hidden=…" after Traders & Builders' words (digest.md §3)
    tie_mark = HILL  # HS4: a tie goes to the tied players with a follower on a hill tile
    figures = (_SHEPHERD,)
    placed_figures = (_SHEPHERD,)
    tokens = ("1", "2", "3", "4", WOLF)
    step_moves = (Flock,)
    off_reason = "no-shepherd"

    def new_state(self, players: int) -> HillsState:
        return HillsState(players)

    def _state(self, game: GameState) -> HillsState:
        """This game's :class:`HillsState`."""
        state = game.ext[self.slot]
        assert isinstance(state, HillsState)
        return state

    def on_tile_placed(self, game: GameState, placed: PlacedTile, seat: int | None) -> None:
        """HS2: a hill tile goes on a face-down tile, out of the game."""
        if seat is None:
            return
        game.ext[self.slot].tile = placed
        if HILL in placed.kind.marks:
            game.hide_tile()

    # ---------------------------------------------------------------- the shepherd's deploy

    def turn_actions(self, game: GameState, out: list[Move]) -> None:
        """HS6: the shepherd, in supply, on each field of the tile just placed that holds no shepherd."""
        state = game.ext[self.slot]
        tile = state.tile
        if tile is None or state.shepherds[game.seat] is not None:
            return
        parent = game.graph.parent
        taken: list[int] = []  # the fields with shepherds (_fields_held, inlined)
        for node in state.shepherds:
            if node is not None:
                while parent[node] != node:  # FeatureGraph.find, inlined
                    parent[node] = node = parent[parent[node]]
                taken.append(node)
        base = tile.base
        for i in _FIELDS.get(tile.kind.letter) or _fields_of(tile.kind):
            root = base + i
            while parent[root] != root:
                parent[root] = root = parent[parent[root]]
            if root not in taken:
                out.append(_SHEPHERD_ON[i])

    def check_move(self, game: GameState, move: Move) -> None:
        assert isinstance(move, DeployMeeple) and move.figure is _SHEPHERD
        state = game.ext[self.slot]
        tile = state.tile
        assert tile is not None  # (the deploy phase: a tile was placed)
        segments = tile.variant.segments
        i = move.segment
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(segments):
            raise IllegalMoveError("bad-segment", f"{move}: tile {tile.kind.letter} has segments 0-{len(segments) - 1}")
        if state.shepherds[game.seat] is not None:
            raise IllegalMoveError("no-supply", f"{move}: seat {game.seat}'s shepherd is on the board")
        if segments[i].kind is not _FIELD:
            raise IllegalMoveError("bad-segment", f"{move}: the shepherd goes on a field only")
        if game.graph.find(tile.base + i) in self._fields_held(game, state):
            raise IllegalMoveError("feature-occupied", f"{move}: that field already holds a shepherd")

    def apply_move(self, game: GameState, move: Move, events: list[Event]) -> None:
        """HS6: the shepherd goes on the field; its token is drawn as the turn ends."""
        assert isinstance(move, DeployMeeple)
        state = game.ext[self.slot]
        tile = state.tile
        assert tile is not None
        state.shepherds[game.seat] = tile.base + move.segment
        state.part = None
        state.deployed = True
        events.append(MeepleDeployed(game.seat, tile.position, move.segment, _SHEPHERD, _FIELD))

    # ---------------------------------------------------------------- the turn's end: the flock

    def before_scoring(self, game: GameState, events: list[Event]) -> None:
        """HS6: a shepherd deployed this turn draws its token; HS7: else a tile that extended the
        seat's own shepherd's field asks it to tend the flock; HS10: then the fields with shepherds
        this tile closed are scored. Before the turn's scoring (WICA-OP step 5c; JCloisterZone's
        ``ShepherdPhase`` before its ``ScoringPhase``), and before The Princess & the Dragon's dragon."""
        state: HillsState = game.ext[self.slot]
        seat = game.seat
        if state.deployed:
            state.deployed = False
            self._draw_for(game, state, seat, events)
            return
        shepherds = state.shepherds
        if shepherds.count(None) == len(shepherds):
            return  # no shepherd on the board: no flock to tend nor to score
        touched = self._touched(game, state)
        if not touched:
            return  # the tile has no field: it extended no flock's field, nor closed one
        parent = game.graph.parent
        roots: list[int] = []  # the touched fields with shepherds, in the order of their first shepherd's seat
        mine = -1  # the seat's own shepherd's field
        for other, node in enumerate(shepherds):
            if node is not None:
                root = node
                while parent[root] != root:  # FeatureGraph.find, inlined
                    parent[root] = root = parent[parent[root]]
                if other == seat:
                    mine = root
                if root in touched and root not in roots:
                    roots.append(root)
        if mine in roots:
            game.push_step(FlockChoice(seat, self))
            return
        for root in roots:  # (_score_closed, inlined)
            if _closed(game, root):
                self._score_flock(game, state, root, events)

    def clear_tile(self, game: GameState, key: int, events: list[Event]) -> None:
        """A shepherd on the tile goes back, its tokens to the bag (The Princess & the Dragon's dragon
        eats "shepherd, sheep token": CAR via JCloisterZone #189)."""
        state = game.ext[self.slot]
        tile_of = game.graph.tile
        for seat, node in enumerate(state.shepherds):
            if node is not None and tile_of[node] == key:
                self._return(game, state, seat, events)

    def _draw_for(self, game: GameState, state: HillsState, seat: int, events: list[Event]) -> None:
        """A token for *seat*'s flock: now from the seed's stream, or at a network table the table's
        next draw (a :class:`TokenDraw` step); then the closed fields are scored (HS10)."""
        if game.bag is not None:
            game.push_step(TokenDraw(seat, self))
            return
        self._take_token(game, state, seat, self._seeded_token(game, state), events)
        self._score_closed(game, state, events)

    def _seeded_token(self, game: GameState, state: HillsState) -> str:
        """``protocol/deck.md`` §7: the *t*-th token of a game of seed *s* (of a given order: its
        ``tokens``, then seed 0) is ``bag[below(len(bag))]`` with ``below`` on the stream seeded by the
        first 8 bytes of SHA-256("carcnet/sheep/v1" 0x00 ‖ s ‖ t), as a table draw's value."""
        tokens = state.bag()
        state.drawn += 1
        t = state.drawn
        given = game.setup.tokens
        if given is not None and t <= len(given):
            if given[t - 1] not in tokens:
                raise ValueError(f"token {t} given, {given[t - 1]!r}, is not in the bag ({''.join(tokens)})")
            return given[t - 1]
        seed = game.setup.seed or 0
        value = hashlib.sha256(_SHEEP_DOMAIN + seed.to_bytes(8, "big") + t.to_bytes(4, "big")).digest()
        return tokens[draw_index(value, len(tokens))]

    def _take_token(self, game: GameState, state: HillsState, seat: int, token: str, events: list[Event]) -> None:
        """HS6, HS7, HS9: a sheep joins *seat*'s flock; a wolf scatters every flock of its field."""
        events.append(TokenDrawn(seat, token))
        node = state.shepherds[seat]
        assert node is not None
        if token != WOLF:
            state.flocks[seat].append(token)
            state.part = None
            return
        root = game.graph.find(node)
        for other in self._in_field(game, state, root):
            self._return(game, state, other, events)

    def _score_flock(self, game: GameState, state: HillsState, root: int, events: list[Event]) -> None:
        """HS8: every seat with a shepherd in the field *root* scores the sheep there; they return."""
        seats = self._in_field(game, state, root)
        sheep = sum(int(token) for seat in seats for token in state.flocks[seat])
        game.add_score(FlockScored(tuple(seats), sheep, game.feature_info(root)), events)
        for seat in seats:
            self._return(game, state, seat, events)

    def _score_closed(self, game: GameState, state: HillsState, events: list[Event],
                      touched: list[int] | None = None) -> None:
        """HS10: each field with shepherds that the last tile closed is scored at once; *touched*:
        :meth:`_touched`, if known."""
        shepherds = state.shepherds
        if shepherds.count(None) == len(shepherds):
            return
        if touched is None:
            touched = self._touched(game, state)
        parent = game.graph.parent
        roots: list[int] = []  # the touched fields with shepherds, in the order of their first shepherd's seat
        for node in shepherds:
            if node is not None:
                root = node
                while parent[root] != root:  # FeatureGraph.find, inlined
                    parent[root] = root = parent[parent[root]]
                if root in touched and root not in roots:
                    roots.append(root)
        for root in roots:
            if _closed(game, root):
                self._score_flock(game, state, root, events)

    # ---------------------------------------------------------------- helpers

    def _return(self, game: GameState, state: HillsState, seat: int, events: list[Event]) -> None:
        node = state.shepherds[seat]
        assert node is not None
        state.shepherds[seat] = None
        state.flocks[seat] = []
        state.part = None
        graph = game.graph
        events.append(MeepleReturned(seat, position_of(graph.tile[node]), graph.index[node], _SHEPHERD))

    @staticmethod
    def _fields_held(game: GameState, state: HillsState) -> set[int]:
        find = game.graph.find
        return {find(node) for node in state.shepherds if node is not None}

    @staticmethod
    def _in_field(game: GameState, state: HillsState, root: int) -> list[int]:
        """The seats with a shepherd in the field *root*, in seat order."""
        find = game.graph.find
        return [seat for seat, node in enumerate(state.shepherds) if node is not None and find(node) == root]

    @staticmethod
    def _touches(game: GameState, state: HillsState, root: int) -> bool:
        """Whether the last tile placed has a segment in the field *root* (it extended it)."""
        return root in HillsSheep._touched(game, state)

    @staticmethod
    def _touched(game: GameState, state: HillsState) -> list[int]:
        """The roots of the fields the last tile placed has a segment in (none before the first)."""
        tile = state.tile
        if tile is None:
            return []
        parent, base = game.graph.parent, tile.base
        out: list[int] = []
        for i in _FIELDS.get(tile.kind.letter) or _fields_of(tile.kind):
            root = base + i
            while parent[root] != root:  # FeatureGraph.find, inlined
                parent[root] = root = parent[parent[root]]
            out.append(root)
        return out

    def value(self, info: FeatureInfo, final: bool, points: int) -> int:
        """HS5: a completed cloister, 3 more a vineyard around it."""
        if info.kind is _CLOISTER and info.complete and info.around:
            return points + VINEYARD_POINTS * info.around.count(VINEYARD)
        return points

    def snapshot(self, game: GameState) -> tuple[int, tuple[int, ...], tuple[str, ...]]:
        """``(hidden, shepherds in supply, flocks)``: the tiles under hills; per seat 1 when its
        shepherd is in supply, and its flock's tokens (``"-"`` without). The same object while they
        do not change."""
        state: HillsState = game.ext[self.slot]
        part = state.part
        hidden = game.hidden
        if part is None or part[0] != hidden:
            part = state.part = (hidden, tuple([int(node is None) for node in state.shepherds]),
                                 tuple(["".join(flock) or "-" for flock in state.flocks]))
        return part

    def state_words(self, part: tuple[int, tuple[int, ...], tuple[str, ...]]) -> str:
        hidden, supply, flocks = part
        return f" hidden={hidden} shepherds={','.join(map(str, supply))} flocks={','.join(flocks)}"


#: The field segments of each design met so far, by id (the same at every rotation; ``()`` without).
_FIELDS: dict[str, tuple[int, ...]] = {}


def _fields_of(kind: TileKind) -> tuple[int, ...]:
    """The indices of *kind*'s field segments (remembered in :data:`_FIELDS`)."""
    found = _FIELDS[kind.letter] = tuple(i for i, seg in enumerate(kind.segments) if seg.kind is _FIELD)
    return found


def _closed(game: GameState, root: int) -> bool:
    """Whether the field *root* can grow no more (HS10): every half-side of its segments meets a
    placed tile. Scans the graph from its last node (the tile just placed, where a field is open
    most often): for the few fields with shepherds."""
    graph = game.graph
    tiles = game.board.tiles
    parent, kinds, tile_of, index = graph.parent, graph.kind, graph.tile, graph.index
    for node in range(len(parent) - 1, -1, -1):
        if kinds[node] is _FIELD:
            r = node
            while parent[r] != r:  # FeatureGraph.find, inlined
                parent[r] = r = parent[parent[r]]
            if r == root:
                placed = tiles[tile_of[node]]
                for half in placed.variant.segments[index[node]].halves:
                    if placed.key + SIDE_OFFSETS[half // 2] not in tiles:
                        return False
    return True


def bag(game: GameState) -> list[str]:
    """The sheep bag's tokens in canonical order, or ``[]`` in a game without Hills & Sheep."""
    slot = game.expansion_slot(HillsSheep)
    if slot is None:
        return []
    state = game.ext[slot]
    assert isinstance(state, HillsState)
    return state.bag()


def flocks(game: GameState) -> list[tuple[int, int, list[str]]]:
    """The shepherds on the board: ``(seat, node, tokens)`` each, in seat order (``[]`` without Hills & Sheep)."""
    slot = game.expansion_slot(HillsSheep)
    if slot is None:
        return []
    state = game.ext[slot]
    assert isinstance(state, HillsState)
    return [(seat, node, state.flocks[seat][:]) for seat, node in enumerate(state.shepherds) if node is not None]


def shepherd_at(game: GameState, seat: int) -> tuple[int, int] | None:
    """Where *seat*'s shepherd stands as ``(board key, segment)``, or ``None`` (in supply, or a game
    without Hills & Sheep)."""
    for other, node, _tokens in flocks(game):
        if other == seat:
            return game.graph.tile[node], game.graph.index[node]
    return None
