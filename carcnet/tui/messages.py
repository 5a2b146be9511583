"""Provides the messages screens send to the app (they bubble up from the screen to the app)."""

from __future__ import annotations

from collections.abc import Sequence

from textual.message import Message

from carcnet.engine import Move
from carcnet.log import LogHeader
from carcnet.table import Table

__all__ = ["ChangeSettings", "ContinueGame", "OpenTable"]


class OpenTable(Message):
    """Show *table*: the app runs it and opens its lobby (a network table not yet started) or its game
    screen, over the home screen (replacing the sender's screen unless *replace* is false).

    Attributes:
        table: A table made with the app's :class:`~carcnet.tui.tables.TableMaker`, not yet running.
        replace: Whether the new screen replaces the current one (else it is pushed over it).
        tutorial: Whether it is the tutorial's game, shown with its lessons.
    """

    def __init__(self, table: Table, *, replace: bool = True, tutorial: bool = False) -> None:
        super().__init__()
        self.table = table
        self.replace = replace
        self.tutorial = tutorial


class ContinueGame(Message):
    """Continue a saved game from a move as a new game at this terminal (the replay's "continue from
    here"): the app branches it (:meth:`~carcnet.tui.tables.TableMaker.branch`, saved apart, the
    original unchanged) and shows it over the sender's screen, or says why it cannot.

    Attributes:
        header: The saved game's header.
        moves: Its moves.
        step: How many of them the new game keeps.
        turn: The turn shown, in players' count (for the line that says where the new game starts).
    """

    def __init__(self, header: LogHeader, moves: Sequence[Move], step: int, turn: int) -> None:
        super().__init__()
        self.header = header
        self.moves = moves
        self.step = step
        self.turn = turn


class ChangeSettings(Message):
    """Change and save the player's settings (:meth:`carcnet.tui.settings.Settings.changed`): the app
    applies them (the theme at once) and keeps them for the next start.

    Attributes:
        values: Setting name → new value.
    """

    def __init__(self, **values: object) -> None:
        super().__init__()
        self.values = values
