"""Provides the text forms of moves and a plain-text board picture for tests and debugging.

Move text (the form ``str(move)`` gives, see :mod:`carcnet.engine.moves`)::

    place <letter> <x>,<y> <degrees>     place V 1,-2 90
    deploy <segment> [FIGURE] [@<x>,<y>] deploy 3, deploy 3 large (abbot, large, builder, pig, shepherd),
                                         deploy 0 @2,-1 (through the magic portal, on the tile at 2,-1)
    skip
    return-abbot <x>,<y>
    handover <seat> <bot> by <seat>
    handback <seat> [by <seat>]
    draw <value|-> …                     one 64-hex-digit chain value or - per seat
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .geometry import Position
from .moves import (
    DeployMeeple,
    DrawTile,
    Figure,
    Flock,
    HandBack,
    HandOver,
    Move,
    MoveDragon,
    MoveFairy,
    PlaceTile,
    RemoveKnight,
    ReturnAbbot,
    SecondTile,
    SkipMeeple,
)

if TYPE_CHECKING:
    from .game import Game

__all__ = ["parse_move", "parse_position", "play_script", "script_moves"]


def parse_position(text: str) -> Position:
    """``"1,-2"`` → ``Position(1, -2)``. Raises ``ValueError`` on anything else."""
    parts = text.split(",")
    if len(parts) != 2:
        raise ValueError(f"not a position: {text!r} (expected x,y)")
    try:
        return Position(int(parts[0]), int(parts[1]))
    except ValueError:
        raise ValueError(f"not a position: {text!r} (expected x,y)") from None


def parse_move(text: str) -> Move:
    """Reads a move from its text form.

    >>> parse_move("place V 1,-2 90")
    PlaceTile(tile='V', position=Position(x=1, y=-2), rotation=1)
    >>> str(parse_move("deploy 3"))
    'deploy 3'

    Raises:
        ValueError: The text is not a move; the message says what was expected.
    """
    words = text.split()
    if not words:
        raise ValueError("empty move")
    verb, args = words[0], words[1:]
    if verb == "place" and len(args) == 3:
        degrees = args[2]
        if not degrees.isdigit() or int(degrees) % 90 or int(degrees) >= 360:
            raise ValueError(f"rotation must be 0, 90, 180 or 270 degrees, got {degrees!r}")
        return PlaceTile(args[0], parse_position(args[1]), int(degrees) // 90)
    if verb == "deploy" and 1 <= len(args) <= 3:
        at = parse_position(args.pop()[1:]) if len(args) > 1 and args[-1].startswith("@") else None
        if not args[0].isdigit():
            raise ValueError(f"segment must be a number, got {args[0]!r}")
        if len(args) > 2:
            raise ValueError(f"not a move: {text!r} (deploy N [FIGURE] [@X,Y])")
        figure = Figure(args[1]) if len(args) == 2 else Figure.MEEPLE
        return DeployMeeple(int(args[0]), figure, at)
    if verb == "skip" and not args:
        return SkipMeeple()
    if verb == "return-abbot" and len(args) == 1:
        return ReturnAbbot(parse_position(args[0]))
    if verb == "second-tile" and len(args) == 1 and args[0] in ("take", "decline"):
        return SecondTile(args[0] == "take")
    if verb == "flock" and len(args) == 1 and args[0] in ("grow", "score"):
        return Flock(args[0] == "grow")
    if verb == "dragon" and len(args) == 1:
        return MoveDragon(parse_position(args[0]))
    if verb == "princess" and len(args) == 2 and args[1].isdigit():
        return RemoveKnight(parse_position(args[0]), int(args[1]))
    if verb == "fairy" and len(args) == 2 and args[1].isdigit():
        return MoveFairy(parse_position(args[0]), int(args[1]))
    if verb == "handover" and len(args) == 4 and args[2] == "by" and args[0].isdigit() and args[3].isdigit():
        return HandOver(int(args[0]), args[1], int(args[3]))
    if verb == "handback" and len(args) == 1 and args[0].isdigit():
        return HandBack(int(args[0]))
    if verb == "handback" and len(args) == 3 and args[1] == "by" and args[0].isdigit() and args[2].isdigit():
        return HandBack(int(args[0]), int(args[2]))
    if verb == "draw" and 2 <= len(args) <= 6 and all(a == "-" or _is_value(a) for a in args):
        return DrawTile(tuple(None if a == "-" else bytes.fromhex(a) for a in args))
    raise ValueError(
        f"not a move: {text!r} (place L X,Y DEG | deploy N [abbot|large|builder|pig|shepherd] [@X,Y] | skip | "
        "return-abbot X,Y | second-tile take|decline | flock grow|score | dragon X,Y | princess X,Y N | fairy X,Y N | "
        "handover S BOT by S | handback S [by S] | draw V…)"
    )


def _is_value(word: str) -> bool:
    return len(word) == 64 and all(c in "0123456789abcdef" for c in word)


def script_moves(script: str) -> list[Move]:
    """Reads a turn script: one turn a line, ``place …`` then optionally ``; deploy …`` (else a skip).

    Blank lines and ``#`` comments are ignored.

    >>> [str(m) for m in script_moves("place E 0,-1 180; deploy 0")]
    ['place E 0,-1 180', 'deploy 0']
    """
    moves: list[Move] = []
    for raw in script.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = [p.strip() for p in line.split(";")]
        place = parse_move(parts[0])
        if not isinstance(place, PlaceTile) or len(parts) > 2:
            raise ValueError(f"a turn is 'place ...' then optionally '; deploy ...': {line!r}")
        moves.append(place)
        moves.append(parse_move(parts[1]) if len(parts) == 2 else SkipMeeple())
    return moves


def play_script(script: str, players: int = 2, then: tuple[str, ...] = ()) -> Game:
    """Plays a turn script (see :func:`script_moves`) from the start tile and returns the game.

    The draw order is the script's tiles in order, followed by *then*: with ``then`` empty the game
    ends after the last scripted turn and the final scoring runs; give spare tiles to stop before it.
    Raises ``IllegalMoveError`` (with the move's index) at the first illegal move.
    """
    from .game import replay
    from .setup import GameSetup

    moves = script_moves(script)
    order = tuple(m.tile for m in moves if isinstance(m, PlaceTile)) + tuple(then)
    return replay(GameSetup(players=players, draw_order=order), moves)
