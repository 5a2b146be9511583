"""Bots: programs that choose a legal move for a seat. May import the engine only.

>>> make_bot("greedy", seed=3).name
'greedy'
"""

from .base import Bot
from .greedy_bot import GreedyBot
from .random_bot import RandomBot

__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "make_bot"]

#: Bot name → class, in the order help texts list them.
BOTS: dict[str, type[RandomBot] | type[GreedyBot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name: str, seed: int) -> Bot:
    """A new bot of the kind called *name* (``"random"`` or ``"greedy"``), seeded with *seed*.

    Raises:
        ValueError: No bot has that name; the message lists the known names.
    """
    cls = BOTS.get(name)
    if cls is None:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(BOTS)}")
    return cls(seed)
