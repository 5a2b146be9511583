"""Bots: programs that choose a legal move for a seat from what its player knows. May import the
engine only.

>>> make_bot("greedy", seed=3).name
'greedy'
>>> make_bot("hard", seed=3).name
'hard'
"""

from __future__ import annotations

from collections.abc import Callable

from carcnet.i18n import _, joined

from .base import Bot, Capped
from .greedy_bot import GreedyBot
from .random_bot import RandomBot, random_move
from .scripted import ScriptedBot
from .search_bot import LEVELS, Level, SearchBot, turn_seed

__all__ = [
    "BOTS", "LEVELS", "Bot", "Capped", "GreedyBot", "RandomBot", "ScriptedBot", "SearchBot",
    "is_slow", "level_cap", "make_bot", "random_move", "set_time_cap", "turn_seed",
]


def _level(name: str) -> Callable[[int], Bot]:
    return lambda seed: SearchBot(seed, name)


#: Bot name → a maker taking a seed, weakest first: the one-ply bots, then the search bot's levels.
BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    **{name: _level(name) for name in LEVELS},
}


def make_bot(name: str, seed: int, *, time_cap: float | None = None) -> Bot:
    """A new bot of the kind called *name* (``random``, ``greedy``, or a search level ``easy``,
    ``medium``, ``hard``, ``expert``), seeded with *seed*. *time_cap* caps a search bot's think time per turn
    in seconds (the interface's cap; the one-ply bots take about a millisecond and ignore it).

    Raises:
        ValueError: No bot has that name; the message lists the known names.
    """
    maker = BOTS.get(name)
    if maker is None:
        # Translators: {name} is what was given; {bots} lists the bots' names (typed as they are).
        raise ValueError(_("unknown bot {name}; known bots: {bots}").format(
            name=repr(name), bots=joined(BOTS)))
    if name in LEVELS:
        return SearchBot(seed, name, time_cap=time_cap)
    return maker(seed)


def is_slow(bot: Bot) -> bool:
    """Whether *bot* thinks long enough (a search) that a table runs it off its event loop."""
    return bool(getattr(bot, "slow", False))


def level_cap(bot: Bot) -> float | None:
    """The seconds *bot*'s level may think per turn at a table by default (``Level.cap``), or ``None``
    for a bot that takes about a millisecond (the one-ply bots)."""
    level = getattr(bot, "level", None)
    return level.cap if isinstance(level, Level) else None


def set_time_cap(bot: Bot, seconds: float | None, *, started: float | None = None) -> None:
    """Caps *bot*'s think time per turn at *seconds* (``None``: its own budget alone) if it is a bot
    that can be capped (:class:`Capped`: the search bot), counted from *started*
    (:func:`time.perf_counter`, when the table asked for the move) for its next turn when given; the
    one-ply bots need no cap."""
    if isinstance(bot, Capped):
        bot.time_cap = seconds
        bot.started = started
