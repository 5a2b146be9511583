"""What the interface shows and says of one figure (:class:`FigureFace`): see :mod:`carcnet.tui.parts`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from carcnet.engine import Figure, SegmentKind

__all__ = ["FigureFace", "Words", "WordsOn"]

#: A message in the language in use, looked up when called.
Words = Callable[[], str]
#: A message for a figure on a feature of a kind, looked up when called.
WordsOn = Mapping[SegmentKind, Words]


@dataclass(frozen=True, slots=True)
class FigureFace:
    """What the interface shows and says of one figure: its letter on the board, its names, the
    deploy choice's lines, the turn told in words and the game log's line of its deploy. Every
    message is a function, called in the language in use.

    Attributes:
        figure: The engine's figure.
        letter: Its letter on the board and in the supply, or ``""`` for its role's (the meeple's
            knight, thief, monk, farmer; :data:`carcnet.tui.render.ROLE_LETTERS`).
        role: Its role wherever it stands (``"abbot"``), or ``""`` for the role of the feature's kind.
        follower: Whether it counts among the followers holding a feature (the builder and the pig
            do not: they only join one).
        name: Its name with its article ("the large meeple").
        label: The footer's name of the key that switches the deploy choice to it ("Large meeple").
        no_spot: The deploy choice's line when it has nowhere to go on the tile.
        spots: The deploy choice's line for the key that switches to it (``{key}`` placeholder).
        on_its: By kind: it deployed on the tile just placed, in a turn told in words.
        on_the: By kind: it deployed, in a turn waiting for its confirmation.
        deployed: By kind: the game log's line of its deploy (``{player}`` placeholder).
        in_log: Its words in the game log's line of a deploy on a kind :attr:`deployed` does not
            list, given its role's words ("a knight"), or ``None`` for those role words.
        holds_note: What the inspector adds after a seat holding a feature with it ("(abbot)"), or
            ``None``.
    """

    figure: Figure
    letter: str
    role: str
    follower: bool
    name: Words
    label: Words
    no_spot: Words
    spots: Words
    on_its: WordsOn = field(default_factory=dict)
    on_the: WordsOn = field(default_factory=dict)
    deployed: WordsOn = field(default_factory=dict)
    in_log: Callable[[str], str] | None = None
    holds_note: Words | None = None
