"""Property tests for the rules engine: random full games between seeded random bots, checked after
every move.

Hypothesis draws the deck seed and the number of players; a :class:`~carcnet.bots.RandomBot` seeded
with the same number plays every seat, so each example is one reproducible full game. The checks are
written against the public API and, where the property is about the rules themselves (matching sides,
legal placements, who may deploy, what a feature is worth), recomputed here from the printed tile
designs rather than read back from the engine's own tables.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from carcnet.bots import RandomBot
from carcnet.engine import (
    BASE_DESIGNS,
    MEEPLES_PER_PLAYER,
    DeployMeeple,
    Event,
    FeatureCompleted,
    FeatureInfo,
    Figure,
    Game,
    GameEnded,
    GameSetup,
    IllegalMoveError,
    MeepleDeployed,
    MeepleReturned,
    Move,
    Phase,
    PlaceTile,
    PointsScored,
    Position,
    ReturnAbbot,
    SegmentKind,
    SkipMeeple,
    Terrain,
    TileDrawn,
    TilePlaced,
    TileSetAside,
    base_tile_counts,
    parse_move,
    replay,
    tile_kind,
)
from carcnet.engine.notation import play_script

REPO = Path(__file__).resolve().parents[2]
SEEDS = st.integers(0, 2**64 - 1)
PLAYERS = st.integers(2, 6)

TOTAL_TILES = sum(base_tile_counts().values())  # 72, the start tile included
MAX_MOVES = 2 * (TOTAL_TILES - 1)  # place + deploy/skip for every tile after the start tile

#: x, y steps across N, E, S, W (x grows east, y grows south).
STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))
#: The eight cells around a tile.
RING = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0))
_EDGE_TERRAIN = {
    SegmentKind.ROAD: Terrain.ROAD,
    SegmentKind.CITY: Terrain.CITY,
    SegmentKind.RIVER: Terrain.RIVER,
}


def _printed_terrain(letter: str, rotation: int) -> tuple[Terrain, ...]:
    """Terrain of the N, E, S, W sides of design *letter* turned *rotation* clockwise quarter turns.

    Derived from the printed (rotation 0) segments with our own arithmetic: after r clockwise quarter
    turns, side s shows what printed side (s - r) mod 4 showed. Independent of the engine's variants.
    """
    out = []
    for side in range(4):
        printed = (side - rotation) % 4
        terrain = Terrain.FIELD
        for seg in tile_kind(letter).segments:
            if printed in [int(s) for s in seg.sides]:
                terrain = _EDGE_TERRAIN[seg.kind]
        out.append(terrain)
    return tuple(out)


TERRAIN = {(k.letter, r): _printed_terrain(k.letter, r) for k in BASE_DESIGNS for r in range(4)}


def step(p: Position, side: int) -> Position:
    dx, dy = STEPS[side]
    return Position(p.x + dx, p.y + dy)


def majority(meeples: tuple[tuple[int, Figure], ...]) -> tuple[int, ...]:
    counts = Counter(seat for seat, _ in meeples)
    best = max(counts.values())
    return tuple(sorted(s for s, c in counts.items() if c == best))


def completed_value(info: FeatureInfo) -> int:
    """Points for a feature completed in play (HiG scoring summary)."""
    if info.kind is SegmentKind.ROAD:
        return len(info.tiles)
    if info.kind is SegmentKind.CITY:
        return 2 * (len(info.tiles) + info.pennants)
    if info.kind is SegmentKind.CLOISTER:
        assert len(info.tiles) == 9, f"completed cloister covers {len(info.tiles)} tiles: {info}"
        return 9
    raise AssertionError(f"a {info.kind.label} cannot be completed: {info}")


def final_value(info: FeatureInfo) -> int:
    """Points for a feature with figures in the final scoring (HiG scoring summary)."""
    if info.kind is SegmentKind.ROAD:
        return len(info.tiles)
    if info.kind is SegmentKind.CITY:
        assert not info.complete, f"a completed city kept its figures to the final scoring: {info}"
        return len(info.tiles) + info.pennants
    if info.kind is SegmentKind.CLOISTER:
        return len(info.tiles)
    if info.kind is SegmentKind.FIELD:
        return 3 * len(info.cities)
    raise AssertionError(f"unexpected feature in final scoring: {info}")


def positions(game: Game) -> dict[Position, object]:
    out: dict[Position, object] = {}
    for t in game.board.tiles.values():
        assert t.position not in out, f"two tiles at {t.position}"
        out[t.position] = t
    return out


def brute_force_fits(game: Game, letter: str) -> tuple[set, list[tuple[Position, int]], list[Position]]:
    """Scans every empty position touching the board and every rotation of *letter*.

    Returns the fitting placements as ``(position, rotated segments)`` (identical turns collapse), the
    non-fitting ``(position, rotation)`` pairs, and the empty positions touching the board.
    """
    board = positions(game)
    empty = sorted({step(p, s) for p in board for s in range(4)} - board.keys())
    kind = tile_kind(letter)
    fits: set = set()
    misfits: list[tuple[Position, int]] = []
    for p in empty:
        for r in range(4):
            mine = TERRAIN[letter, r]
            ok = True
            for s in range(4):
                nb = board.get(step(p, s))
                if nb is not None and TERRAIN[nb.kind.letter, nb.rotation][(s + 2) % 4] != mine[s]:
                    ok = False
            if ok:
                fits.add((p, frozenset(kind.variant(r).segments)))
            else:
                misfits.append((p, r))
    return fits, misfits, empty


def drive(
    seed: int,
    players: int,
    before: Callable[[Game, Move], None] | None = None,
    after: Callable[[Game, Move, list[Event]], None] | None = None,
) -> Game:
    """Plays one full game with a RandomBot seeded by *seed*, calling the hooks around every move."""
    game = Game(GameSetup(players=players, seed=seed))
    bot = RandomBot(seed)
    while game.phase is not Phase.GAME_OVER:
        assert len(game.moves) < MAX_MOVES, "the game did not end after every tile was placed"
        move = bot.choose(game.view())
        if before is not None:
            before(game, move)
        events = game.apply(move)
        if after is not None:
            after(game, move, events)
    return game


# ---------------------------------------------------------------------------------------------------
# per-move invariants


def check_board_sides(game: Game) -> None:
    """Every pair of touching sides shows the same terrain; the board is one connected group."""
    board = positions(game)
    for p, t in board.items():
        mine = TERRAIN[t.kind.letter, t.rotation]
        assert tuple(t.variant.terrain) == mine, f"tile {t.kind.letter} at {p} rot {t.rotation}: wrong sides"
        for s in range(4):
            nb = board.get(step(p, s))
            if nb is not None:
                theirs = TERRAIN[nb.kind.letter, nb.rotation][(s + 2) % 4]
                assert mine[s] == theirs, (
                    f"{t.kind.letter}@{p} r{t.rotation} side {'NESW'[s]} is {mine[s].name} but "
                    f"{nb.kind.letter}@{nb.position} r{nb.rotation} shows {theirs.name}"
                )
    seen = {Position(0, 0)}
    todo = [Position(0, 0)]
    while todo:
        p = todo.pop()
        for s in range(4):
            q = step(p, s)
            if q in board and q not in seen:
                seen.add(q)
                todo.append(q)
    assert seen == board.keys(), f"tiles not connected to the start tile: {sorted(board.keys() - seen)}"


class Invariants:
    """Checks meeples, scores, board, deployment and feature scoring around every move of one game."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.completed: set[tuple[Position, int]] = set()
        self.points = [0] * players  # sum of PointsScored per seat
        self.snapshot: tuple | None = None

    def before(self, game: Game, move: Move) -> None:
        self.snapshot = (list(game.scores), len(game.board.tiles), game.seat, game.placed)
        if game.phase is Phase.DEPLOY:
            self.check_deploy_options(game)
            if isinstance(move, DeployMeeple):
                info = game.feature_at(game.placed, move.segment)
                assert info.meeples == (), f"{move} on {info.kind.label} already holding {info.meeples}"

    def check_deploy_options(self, game: Game) -> None:
        """The deployments offered are exactly the segments whose whole feature holds no figure."""
        placed = game.placed
        assert placed is not None
        tile = game.tile_at(placed)
        held = {(pos, seg) for _, _, pos, seg in game.figures()}
        expected: list[Move] = []
        for i, seg in enumerate(tile.variant.segments):
            members = game.feature_segments(placed, i)
            assert (placed, i) in members
            occupied = any(m in held for m in members)
            info = game.feature_at(placed, i)
            assert occupied == bool(info.meeples), f"figures() and features disagree on {info}"
            takes_figures = seg.kind not in (SegmentKind.RIVER, SegmentKind.GARDEN)
            if game.supply[game.seat] > 0 and not occupied and takes_figures:
                expected.append(DeployMeeple(i))
        assert game.legal_moves() == [*expected, SkipMeeple()]

    def after(self, game: Game, move: Move, events: list[Event]) -> None:
        old_scores, old_tiles, seat, placed = self.snapshot
        n = self.players
        # meeples conserved
        on_board = Counter(s for s, _, _, _ in game.figures())
        for s in range(n):
            assert game.supply[s] >= 0
            assert game.supply[s] + on_board[s] == MEEPLES_PER_PLAYER, (
                f"seat {s}: supply {game.supply[s]} + {on_board[s]} on board != {MEEPLES_PER_PLAYER}"
            )
        features = game.features()
        in_features = Counter(s for f in features for s, _ in f.meeples)
        assert in_features == on_board, "figures() and features() disagree about the figures on the board"
        # scores never go down, and move only by the points the events announce
        gained = [0] * n
        for ev in events:
            if isinstance(ev, PointsScored):
                assert ev.points >= 0 and ev.seats
                for s in ev.seats:
                    gained[s] += ev.points
        for s in range(n):
            assert game.scores[s] >= old_scores[s], f"seat {s} score went down: {old_scores} -> {game.scores}"
            assert game.scores[s] - old_scores[s] == gained[s], f"seat {s}: score moved without PointsScored"
            self.points[s] += gained[s]
        # tiles and board
        if isinstance(move, PlaceTile):
            assert len(game.board.tiles) == old_tiles + 1
            assert events == [TilePlaced(seat, move.tile, move.position, move.rotation)]
            t = game.tile_at(move.position)
            assert (t.kind.letter, t.rotation, t.seat) == (move.tile, move.rotation, seat)
            assert any(step(move.position, s) in positions(game) for s in range(4))
            check_board_sides(game)
        else:
            assert len(game.board.tiles) == old_tiles
        assert len(game.digests) == len(game.moves) + 1
        # deployments
        deployed = [ev for ev in events if isinstance(ev, MeepleDeployed)]
        if isinstance(move, DeployMeeple):
            tile = game.tile_at(placed)
            assert len(deployed) == 1
            assert deployed[0] == MeepleDeployed(
                seat, tile.position, move.segment, Figure.MEEPLE, tile.variant.segments[move.segment].kind
            )
        else:
            assert not deployed
        self.check_scoring(game, events, features)
        # TileDrawn / TileSetAside: set-aside tiles really fit nowhere; the drawn tile is the last drawn
        for ev in events:
            if isinstance(ev, TileSetAside):
                fits, _, _ = brute_force_fits(game, ev.tile)
                assert not fits, f"{ev.tile} was set aside but fits at {sorted(p for p, _ in fits)[:3]}"
        if game.phase is Phase.PLACE_TILE:
            draws = [ev for ev in events if isinstance(ev, TileDrawn)]
            assert draws and draws[-1] == TileDrawn(game.seat, game.drawn)

    def check_scoring(self, game: Game, events: list[Event], features: list[FeatureInfo]) -> None:
        cut = final_cut(events)
        returned = 0
        expected_returns = 0
        completed_now = set()
        for i, ev in enumerate(events[:cut]):
            if isinstance(ev, FeatureCompleted):
                info = ev.feature
                assert info.complete
                assert info.anchor not in self.completed, f"feature {info.anchor} completed twice: {info}"
                self.completed.add(info.anchor)
                completed_now.add(info.anchor)
                scored = [
                    e for e in events[i + 1 :]
                    if isinstance(e, PointsScored) and e.feature.anchor == info.anchor
                ]
                if info.meeples:
                    assert len(scored) == 1, f"completed {info} with figures scored {len(scored)} times"
                    assert not scored[0].final
                    assert scored[0].seats == majority(info.meeples), f"{scored[0]} for {info.meeples}"
                    assert scored[0].points == completed_value(info), f"{scored[0]}"
                    expected_returns += len(info.meeples)
                else:
                    assert not scored, f"{info} scored without figures"
            elif isinstance(ev, MeepleReturned):
                returned += 1
            elif isinstance(ev, PointsScored):
                assert not ev.final
                assert ev.feature.anchor in completed_now, f"scored a feature not completed this move: {ev}"
            elif isinstance(ev, GameEnded):
                raise AssertionError("GameEnded before the final scoring")
        assert returned == expected_returns, f"{returned} figures returned, {expected_returns} expected"
        for ev in events[cut:]:  # the final scoring: nothing completes, nothing is placed or drawn
            assert isinstance(ev, (PointsScored, MeepleReturned, GameEnded)), f"{ev} in the final scoring"
            assert not isinstance(ev, PointsScored) or ev.final
        assert (cut < len(events)) == (game.phase is Phase.GAME_OVER)
        complete = {f.anchor for f in features if f.complete}
        assert self.completed <= complete, f"completed features now incomplete: {self.completed - complete}"
        if game.phase is not Phase.DEPLOY:
            # the turn is over: every completed feature was announced once and holds no figure
            assert complete == self.completed, f"completed, never announced: {complete - self.completed}"
            for f in features:
                assert not (f.complete and f.meeples), f"completed feature still holds figures: {f}"


def final_cut(events: list[Event]) -> int:
    """Index where the final scoring starts in a move's events (the first final PointsScored, else
    GameEnded); ``len(events)`` when the move did not end the game."""
    for i, ev in enumerate(events):
        if (isinstance(ev, PointsScored) and ev.final) or isinstance(ev, GameEnded):
            return i
    return len(events)


@given(seed=SEEDS, players=PLAYERS)
@example(seed=145, players=3)  # sets a tile aside: the brute-force check of set-aside tiles runs
def test_invariants_hold_after_every_move(seed: int, players: int) -> None:
    """Meeples conserved, sides match, scores only rise, each completed feature is scored exactly once,
    and no deployment lands on an occupied feature, after every move of a random game."""
    inv = Invariants(players)
    game = drive(seed, players, inv.before, inv.after)
    assert inv.points == game.scores


# ---------------------------------------------------------------------------------------------------
# legal placements against a brute-force scan


def check_legal_placements(game: Game) -> None:
    letter = game.drawn
    kind = tile_kind(letter)
    placements = game.legal_placements()
    where = [pl.position for pl in placements]
    assert where == sorted(where) and len(set(where)) == len(where), "positions unsorted or repeated"
    listed = set()
    for pl in placements:
        assert pl.rotations and list(pl.rotations) == sorted(set(pl.rotations)), pl
        for r in pl.rotations:
            shape = frozenset(kind.variant(r).segments)
            smallest = min(q for q in range(4) if frozenset(kind.variant(q).segments) == shape)
            assert r == smallest, f"{letter}@{pl.position}: rotation {r} listed, {smallest} is the same"
            assert (pl.position, shape) not in listed, f"{letter} at {pl.position}: same tile listed twice"
            listed.add((pl.position, shape))
    fits, _, _ = brute_force_fits(game, letter)
    missing = sorted((p, r) for p, r in ((p, _rot(kind, s)) for p, s in fits - listed))
    extra = sorted((p, r) for p, r in ((p, _rot(kind, s)) for p, s in listed - fits))
    assert not missing and not extra, f"{letter}: legal but not listed {missing}; listed but illegal {extra}"
    moves = game.legal_moves()
    assert len(moves) == len(listed)
    assert {(m.position, frozenset(kind.variant(m.rotation).segments)) for m in moves} == listed
    assert all(isinstance(m, PlaceTile) and m.tile == letter for m in moves)


def _rot(kind, shape) -> int:
    return min(r for r in range(4) if frozenset(kind.variant(r).segments) == shape)


@given(seed=SEEDS, players=PLAYERS)
def test_legal_placements_are_exactly_the_fitting_ones(seed: int, players: int) -> None:
    """At every tile placement, legal_placements() equals a brute-force scan of every empty position
    next to the board and every rotation, identical turns counted once."""
    turns = []

    def before(game: Game, move: Move) -> None:
        if game.phase is Phase.PLACE_TILE:
            check_legal_placements(game)
            turns.append(1)

    drive(seed, players, before)
    assert turns


# ---------------------------------------------------------------------------------------------------
# illegal moves


def state_of(game: Game) -> tuple:
    return (
        game.digest,
        len(game.digests),
        list(game.scores),
        list(game.supply),
        game.phase,
        len(game.board.tiles),
        game.seat,
        game.drawn,
        game.placed,
        game.tiles_left,
        len(game.moves),
        len(game.events),
        game.figures(),
        game.legal_moves(),
    )


def expect_illegal(game: Game, move: object, reason: str) -> None:
    before = state_of(game)
    with pytest.raises(IllegalMoveError) as caught:
        game.apply(move)  # type: ignore[arg-type]
    got = caught.value.reason
    assert got == reason, f"{move!r}: expected {reason!r}, got {got!r}: {caught.value}"
    assert str(caught.value)
    assert state_of(game) == before, f"{move!r} ({reason}) changed the game"


def probe_illegal(game: Game, rng: random.Random, seen: Counter) -> None:
    """Tries illegal moves of every kind that applies in the current state; each must be refused."""

    def bad(move: object, reason: str) -> None:
        expect_illegal(game, move, reason)
        seen[reason] += 1

    board = positions(game)
    if game.phase is not Phase.GAME_OVER:
        bad("skip", "bad-move")
        bad(None, "bad-move")
    if game.phase is Phase.PLACE_TILE:
        letter = game.drawn
        pl = rng.choice(game.legal_placements())
        other = rng.choice([k.letter for k in BASE_DESIGNS if k.letter != letter])
        bad(PlaceTile(other, pl.position, pl.rotations[0]), "wrong-tile")
        bad(PlaceTile("Z", pl.position, pl.rotations[0]), "wrong-tile")
        bad(PlaceTile(letter, pl.position, rng.choice([4, -1, 5])), "bad-rotation")
        bad(PlaceTile(letter, rng.choice(sorted(board)), rng.randrange(4)), "occupied")
        far = Position(max(p.x for p in board) + 2, rng.choice([p.y for p in board]))
        bad(PlaceTile(letter, far, rng.randrange(4)), "not-adjacent")
        bad(PlaceTile(letter, Position(10**6, 0), 0), "not-adjacent")
        corners = sorted(
            {Position(p.x + dx, p.y + dy) for p in board for dx, dy in RING}
            - board.keys()
            - {step(p, s) for p in board for s in range(4)}
        )
        if corners:  # touches the board only at a corner
            bad(PlaceTile(letter, rng.choice(corners), rng.randrange(4)), "not-adjacent")
        _, misfits, _ = brute_force_fits(game, letter)
        if misfits:
            p, r = rng.choice(misfits)
            bad(PlaceTile(letter, p, r), "side-mismatch")
        bad(DeployMeeple(0), "wrong-phase")
        bad(SkipMeeple(), "wrong-phase")
        bad(ReturnAbbot(Position(0, 0)), "wrong-phase")
    elif game.phase is Phase.DEPLOY:
        placed = game.placed
        tile = game.tile_at(placed)
        segments = tile.variant.segments
        empty = sorted({step(p, s) for p in board for s in range(4)} - board.keys())
        bad(PlaceTile(tile.kind.letter, rng.choice(empty), 0), "wrong-phase")
        bad(DeployMeeple(len(segments) + rng.randrange(3)), "bad-segment")
        bad(DeployMeeple(-1 - rng.randrange(3)), "bad-segment")
        bad(DeployMeeple(rng.randrange(len(segments)), Figure.ABBOT), "wrong-figure")
        bad(ReturnAbbot(placed), "no-abbot")
        for i in range(len(segments)):
            if game.supply[game.seat] == 0:
                bad(DeployMeeple(i), "no-supply")
            elif game.feature_at(placed, i).meeples:
                bad(DeployMeeple(i), "feature-occupied")
    else:
        bad(SkipMeeple(), "game-over")
        bad(DeployMeeple(0), "game-over")
        bad("skip", "game-over")
        empty = sorted({step(p, s) for p in board for s in range(4)} - board.keys())
        bad(PlaceTile("D", empty[0], 0), "game-over")


@given(seed=SEEDS, players=PLAYERS)
def test_illegal_moves_are_refused_and_change_nothing(seed: int, players: int) -> None:
    """Before every move (and after the last), illegal moves of each kind raise IllegalMoveError with
    the specific reason and leave the game untouched; the game then goes on to its normal end."""
    rng = random.Random(seed ^ 0x5EED)
    seen: Counter = Counter()
    reference = drive(seed, players)
    game = drive(seed, players, lambda g, m: probe_illegal(g, rng, seen))
    probe_illegal(game, rng, seen)
    # probing changed nothing: the probed game is the same game as the unprobed one
    assert game.digests == reference.digests and game.scores == reference.scores
    for reason in ("bad-move", "wrong-tile", "bad-rotation", "occupied", "not-adjacent", "wrong-phase",
                   "bad-segment", "wrong-figure", "no-abbot", "game-over"):
        assert seen[reason], f"never probed {reason}"


# ---------------------------------------------------------------------------------------------------
# the end of the game


@given(seed=SEEDS, players=PLAYERS)
def test_game_ends_with_consistent_final_scoring(seed: int, players: int) -> None:
    game = drive(seed, players)
    assert game.phase is Phase.GAME_OVER
    assert game.legal_moves() == [] and game.drawn is None and game.tiles_left == 0
    assert isinstance(game.events[-1], GameEnded)
    assert sum(isinstance(ev, GameEnded) for ev in game.events) == 1
    ended = game.events[-1]
    assert ended.scores == tuple(game.scores)
    assert ended.winners == tuple(s for s in range(players) if game.scores[s] == max(game.scores))
    # the breakdown adds up, and matches the PointsScored events
    in_game = [0] * players
    final = [0] * players
    for ev in game.events:
        if isinstance(ev, PointsScored):
            for s in ev.seats:
                (final if ev.final else in_game)[s] += ev.points
    for s in range(players):
        cats = game.breakdown[s]
        assert sum(a + b for a, b in cats.values()) == game.scores[s], f"seat {s}: {cats} vs {game.scores[s]}"
        assert sum(a for a, _ in cats.values()) == in_game[s]
        assert sum(b for _, b in cats.values()) == final[s]
        assert in_game[s] + final[s] == game.scores[s]
    # final scoring: once per feature holding figures after the last turn, right before GameEnded.
    # Figures on the board then = those still there now + those the final scoring sent home.
    last_move_events = game.events[len(replay_events_before_last(game)) :]
    cut = final_cut(last_move_events)
    tail = last_move_events[cut:]
    assert isinstance(tail[-1], GameEnded)
    finals = [ev for ev in tail if isinstance(ev, PointsScored)]
    assert finals == [ev for ev in game.events if isinstance(ev, PointsScored) and ev.final]
    before_final = [(seat, pos, seg) for seat, _, pos, seg in game.figures()]
    before_final += [(ev.seat, ev.position, ev.segment) for ev in tail if isinstance(ev, MeepleReturned)]
    by_feature: dict[tuple[Position, int], list[int]] = {}
    for seat, pos, seg in before_final:
        by_feature.setdefault(game.feature_at(pos, seg).anchor, []).append(seat)
    scored = [ev.feature.anchor for ev in finals]
    assert sorted(scored) == sorted(by_feature), "final scoring missed or repeated a feature with figures"
    for ev in finals:
        f = ev.feature
        assert Counter(s for s, _ in f.meeples) == Counter(by_feature[f.anchor]), f"{ev}"
        assert ev.seats == majority(f.meeples)
        assert ev.points == final_value(f), f"{ev}"
    for f in game.features():
        assert not (f.complete and f.meeples), f"completed feature holds figures after the game: {f}"
    on_board = Counter(s for s, _, _, _ in game.figures())
    for s in range(players):
        assert game.supply[s] + on_board[s] == MEEPLES_PER_PLAYER


def replay_events_before_last(game: Game) -> list[Event]:
    """The events of *game* up to (not including) its last move, from a replay of all moves but it."""
    return replay(game.setup, game.moves[:-1]).events


@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("seed", [145, 319, 2**64 - 1])
def test_full_game_places_every_tile_not_set_aside(seed: int, players: int) -> None:
    """Every tile is placed except those set aside (seeds 145 and 319 set tiles aside at the time of
    writing, so the "minus set-aside" part is exercised, not only the plain 71)."""
    game = drive(seed, players)
    assert game.phase is Phase.GAME_OVER
    aside = [ev.tile for ev in game.events if isinstance(ev, TileSetAside)]
    assert aside == game.set_aside
    placed_by_players = [ev for ev in game.events if isinstance(ev, TilePlaced) and ev.seat is not None]
    assert len(placed_by_players) == TOTAL_TILES - 1 - len(aside)
    assert len(game.board.tiles) == TOTAL_TILES - len(aside)
    assert len(game.moves) == 2 * len(placed_by_players)
    drawn = Counter(ev.tile for ev in game.events if isinstance(ev, TileDrawn))
    expected = Counter(base_tile_counts())
    expected["D"] -= 1  # the start tile is not drawn
    assert drawn == expected
    on_board = Counter(t.kind.letter for t in game.board.tiles.values()) + Counter(aside)
    assert on_board == Counter(base_tile_counts())


def test_loop_closed_by_one_tile_completes_once() -> None:
    """A road loop whose two ends are segments of the same tile is completed and scored once.

    Random games almost never close such a loop, so it is built here: a crossroads X placed last at
    1,0 joins its E and S roads through three curves into one road (and its W road to the start tile).
    """
    script = """
        place B 0,1 0
        place V 1,1 180
        place V 2,1 90
        place V 2,0 0
        place X 1,0 0; deploy 1
    """
    game = play_script(script, players=2)
    last = game.events[len(replay_events_before_last(game)) :]
    completed = [ev.feature for ev in last if isinstance(ev, FeatureCompleted)]
    assert [(f.kind, f.anchor) for f in completed] == [(SegmentKind.ROAD, (Position(1, 1), 0))]
    assert completed[0].tiles == (Position(1, 0), Position(1, 1), Position(2, 0), Position(2, 1))
    scored = [ev for ev in last if isinstance(ev, PointsScored) and not ev.final]
    assert [(ev.seats, ev.points, ev.feature.anchor) for ev in scored] == [((0,), 4, (Position(1, 1), 0))]
    assert game.feature_at(Position(1, 0), 1) == game.feature_at(Position(1, 0), 2)
    assert game.supply == [MEEPLES_PER_PLAYER, MEEPLES_PER_PLAYER]
    assert game.scores == [4, 0]


def test_final_scoring_keeps_every_figure_of_a_shared_feature() -> None:
    """Meeples are conserved through the final scoring when two figures share an incomplete road
    (the smallest case of what the random games above hit; found by them, kept as a regression test).

    Seat 0 deploys on the start road extended east, seat 1 on a separate curve; two more curves join
    them into one open road of 5 tiles that both seats share at the end.
    """
    script = """
        place U 1,0 90; deploy 0
        place V 1,1 270; deploy 0
        place V 2,0 0
        place V 2,1 90
    """
    game = play_script(script, players=2)
    final = [ev for ev in game.events if isinstance(ev, PointsScored) and ev.final]
    assert [(ev.seats, ev.points, len(ev.feature.meeples)) for ev in final] == [((0, 1), 5, 2)]
    on_board = Counter(s for s, _, _, _ in game.figures())
    assert [game.supply[s] + on_board[s] for s in range(2)] == [MEEPLES_PER_PLAYER] * 2, (
        f"supply {game.supply}, on board {game.figures()}"
    )


# ---------------------------------------------------------------------------------------------------
# replay and determinism


@given(seed=SEEDS, players=PLAYERS)
def test_replay_reproduces_every_digest(seed: int, players: int) -> None:
    game = drive(seed, players)
    setup = GameSetup(players=players, seed=seed)
    again = replay(setup, game.moves)
    assert len(again.digests) == len(game.moves) + 1
    assert again.digests == game.digests
    assert again.scores == game.scores and again.phase is Phase.GAME_OVER
    assert again.events == game.events
    # the text form round-trips, and replaying it gives the same game
    parsed = [parse_move(str(m)) for m in game.moves]
    assert parsed == game.moves
    assert replay(setup, parsed).digest == game.digest
    # the digest tells games apart: another legal move at some point gives another digest
    rng = random.Random(seed)
    k = rng.randrange(len(game.moves))
    branch = replay(setup, game.moves[:k])
    assert branch.digest == game.digests[k]
    others = [m for m in branch.legal_moves() if m != game.moves[k]]
    if others:
        branch.apply(rng.choice(others))
        assert branch.digest != game.digests[k + 1]


@given(seed=SEEDS, players=PLAYERS)
def test_same_seed_same_game(seed: int, players: int) -> None:
    a = drive(seed, players)
    b = drive(seed, players)
    assert a.moves == b.moves
    assert a.digests == b.digests
    assert a.scores == b.scores
    assert a.events == b.events


_HASHSEED_SCRIPT = """
import hashlib, json, sys
from carcnet.bots import RandomBot
from carcnet.engine import Game, GameSetup, Phase
out = []
for seed, players in json.loads(sys.argv[1]):
    game = Game(GameSetup(players=players, seed=seed))
    bot = RandomBot(seed)
    while game.phase is not Phase.GAME_OVER:
        game.apply(bot.choose(game.view()))
    out.append([game.digest.hex(), game.scores, hashlib.sha256(repr(game.events).encode()).hexdigest()])
print(json.dumps(out))
"""

_HASHSEED_GAMES = [[7, 2], [2**63 + 12345, 4], [987654321, 6]]


def test_games_do_not_depend_on_the_hash_seed() -> None:
    """The same seeded bot games give the same digests, scores and events under different
    PYTHONHASHSEED values (string hashing, set and dict orders must not leak into the game)."""
    procs = {}
    arg = json.dumps(_HASHSEED_GAMES)
    for hash_seed in ("0", "1", "12345", "random"):
        env = dict(os.environ)
        env["PYTHONHASHSEED"] = hash_seed
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
        procs[hash_seed] = subprocess.Popen(
            [sys.executable, "-c", _HASHSEED_SCRIPT, arg],
            cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
    results = {}
    try:
        for hash_seed, proc in procs.items():
            out, err = proc.communicate(timeout=60)
            assert proc.returncode == 0, f"PYTHONHASHSEED={hash_seed}: exit {proc.returncode}\n{err}"
            results[hash_seed] = json.loads(out)
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    here = []
    for seed, players in _HASHSEED_GAMES:
        game = drive(seed, players)
        here.append([game.digest.hex(), game.scores, hashlib.sha256(repr(game.events).encode()).hexdigest()])
    for hash_seed, result in results.items():
        assert result == here, f"PYTHONHASHSEED={hash_seed} gives another game"
