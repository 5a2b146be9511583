"""A game at this laptop, local or on the network, behind one interface (:class:`Table`).

Wraps the log (:mod:`carcnet.log`), the bots (:mod:`carcnet.bots`) and, for a network game, the LAN
layers (:mod:`carcnet.net`); exposes the game, its seats and who plays them, ``submit``, listeners,
and ``async with table:`` to run it. The interface and the command line hold a :class:`Table` and
change a game only through it.

- :mod:`.base`: :class:`Table`, :class:`TableError`, :class:`TalkLine`, :func:`bot_seed`,
  :func:`think_cap_of`.
- :mod:`.local`: :class:`LocalTable`: every seat at this terminal; the log is a file.
- :mod:`.lan`: :class:`NetTable`: the seats spread over peers; the log is replicated and signed.
- :mod:`.driver`: :class:`~carcnet.table.driver.BotDriver`: plays the bot seats of either table.
"""

from .base import Change, Kind, Status, Table, TableError, TalkLine, bot_seed, think_cap_of
from .clock import SeatClocks, TurnClock
from .lan import LanError, NetTable, SeatPlan, describe_table, plan_from_text
from .local import LocalTable

__all__ = [
    "Change",
    "Kind",
    "LanError",
    "LocalTable",
    "NetTable",
    "SeatClocks",
    "SeatPlan",
    "Status",
    "Table",
    "TableError",
    "TalkLine",
    "TurnClock",
    "bot_seed",
    "describe_table",
    "plan_from_text",
    "think_cap_of",
]
