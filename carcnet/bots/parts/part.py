"""What the bots know of one expansion (:class:`BotPart`): see :mod:`carcnet.bots.parts`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from carcnet.engine import Game, Move

__all__ = ["Answer", "BotPart", "Instead"]

#: A move instead of a skip, or ``None`` when this part has none to play (*game* in ``Phase.DEPLOY``).
Instead = Callable[[Game], Move | None]
#: An answer to an expansion's question: *game* in ``Phase.STEP`` and its legal moves → the one played.
Answer = Callable[[Game, list[Move]], Move]


@dataclass(frozen=True, slots=True)
class BotPart:
    """What the bots know of one expansion.

    Attributes:
        expansion: The engine's ``Expansion.name`` of the expansion it plays.
        answers: The move type of each question the expansion asks (``Phase.STEP``) → the answer.
        instead: ``(order, instead)`` pairs: moves tried in place of a skip, the lowest order first
            across every part in play.
    """

    expansion: str
    answers: Mapping[type[Move], Answer] = field(default_factory=dict)
    instead: tuple[tuple[int, Instead], ...] = ()
