"""Provides the messages screens send to the app (they bubble up from the screen to the app)."""

from __future__ import annotations

from textual.message import Message

from carcnet.table import Table

__all__ = ["ChangeSettings", "OpenTable"]


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


class ChangeSettings(Message):
    """Change and save the player's settings (:meth:`carcnet.tui.settings.Settings.changed`): the app
    applies them (the theme at once) and keeps them for the next start.

    Attributes:
        values: Setting name → new value.
    """

    def __init__(self, **values: object) -> None:
        super().__init__()
        self.values = values
