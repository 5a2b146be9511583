"""Provides text and JSON accounts of a game: the move-by-move transcript and the final scores.

Used by ``carcnet demo``, ``carcnet replay`` and ``carcnet verify``. Pure functions of the engine's
results; they print nothing themselves.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from carcnet.engine import (
    CATEGORIES,
    DrawTile,
    Game,
    GameSetup,
    HandBack,
    HandOver,
    Move,
    Phase,
    PlaceTile,
    PointsScored,
    TileSetAside,
)
from carcnet.tui.render import with_article

__all__ = ["final_lines", "result_dict", "transcript"]


def transcript(setup: GameSetup, moves: Sequence[Move], names: Sequence[str]) -> Iterator[str]:
    """Replays *moves* and yields one line per turn, plus a line per scoring and set-aside tile.

    Raises ``IllegalMoveError`` at a bad move (callers replay only checked logs).
    """
    game = Game(setup)
    width = max(len(n) for n in names)
    turn = 0
    line = ""
    for move in moves:
        seat = game.seat
        events = game.apply(move)
        if isinstance(move, HandOver):
            yield f"     {names[move.seat]}'s seat goes to {with_article(move.bot + ' bot')}, run by {names[move.by]}"
            continue
        if isinstance(move, HandBack):
            yield f"     {names[move.seat]} is back and plays their seat again"
            continue
        if isinstance(move, DrawTile):  # the table's draw (deck.md §5): only a tile set aside is news
            for ev in events:
                if isinstance(ev, TileSetAside):
                    yield f"     tile {ev.tile} fits nowhere: set aside, {names[ev.seat]} draws again"
            continue
        if isinstance(move, PlaceTile):
            turn += 1
            line = f"{turn:3d}. {names[seat]:<{width}}  {move}"
            continue
        if str(move) != "skip":
            line += f", {move}"
        yield line
        for ev in events:
            if isinstance(ev, PointsScored):
                who = " and ".join(names[s] for s in ev.seats)
                label = "final" if ev.final else "score"
                yield f"     {label}: {who} {ev.describe()}"
            elif isinstance(ev, TileSetAside):
                yield f"     tile {ev.tile} fits nowhere: set aside, {names[ev.seat]} draws again"
    if line and game.phase is Phase.PLACE_TILE and isinstance(moves[-1], PlaceTile):
        yield line + " (deploy pending)"


def final_lines(game: Game, names: Sequence[str]) -> list[str]:
    """The score table: per seat, points by feature kind (in play + final) and the total."""
    shown = [c for c in CATEGORIES if any(sum(b[c]) for b in game.breakdown)] or ["road", "city"]
    width = max(len(n) for n in names)
    head = f"  {'':<{width}}  " + "".join(f"{c:>10}" for c in shown) + f"{'total':>8}"
    lines = [head]
    order = sorted(range(game.players), key=lambda s: (-game.scores[s], s))
    for seat in order:
        cells = "".join(
            f"{'%d+%d' % tuple(game.breakdown[seat][c]) if game.breakdown[seat][c][1] else game.breakdown[seat][c][0]:>10}"
            for c in shown
        )
        mark = "  winner" if seat in game.winners else ""
        lines.append(f"  {names[seat]:<{width}}  {cells}{game.scores[seat]:>8}{mark}")
    lines.append("  (a+b: a points during the game, b in the final scoring)")
    return lines


def result_dict(game: Game, names: Sequence[str]) -> dict[str, object]:
    """Machine-readable result: per seat the score and its breakdown by feature kind, and the digest."""
    return {
        "finished": game.phase is Phase.GAME_OVER,
        "moves": len(game.moves),
        "digest": game.digest.hex(),
        "seats": [
            {
                "seat": seat,
                "name": names[seat],
                "score": game.scores[seat],
                "winner": seat in game.winners,
                "breakdown": {c: {"game": a, "final": b} for c, (a, b) in game.breakdown[seat].items()},
            }
            for seat in range(game.players)
        ],
    }
