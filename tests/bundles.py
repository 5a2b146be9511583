"""Test helper: a bug report (``carcnet report``, F12 in the interface; docs/bug-reports.md) replayed
through the engine, so that a desync a player hit becomes a test::

    game = replay_bundle("tests/data/carcnet-report-3f2a9c1b-20261127-043000.zip")

returns the save's game, or raises what the report proves: the save refused (``LogError``: the
entry and why), the running table's game differing from its save, or the entry that stopped a
network game refused again by the save's game (:class:`BundleDesync`).
"""

from __future__ import annotations

import os

from carcnet.engine import Game
from carcnet.table.bundle import BundleCheck, check_bundle

__all__ = ["BundleDesync", "replay_bundle"]


class BundleDesync(AssertionError):
    """A bug report replayed to the desync it recorded; :attr:`check` is the whole check."""

    def __init__(self, message: str, check: BundleCheck) -> None:
        super().__init__(message)
        self.check = check


def replay_bundle(path: str | os.PathLike[str]) -> Game:
    """The game of the save in the report at *path*, replayed through the engine (``carcnet.log.load``:
    every entry's signature, turn, legality and digest).

    Raises:
        BundleError: *path* is not a report.
        LogError: The save is refused (its ``reason`` and ``seq`` say where).
        BundleDesync: The table's game in memory differed from its save, or the entry that stopped
            the game is refused again by the save's game before its seq (or a second entry at one seq).
    """
    check = check_bundle(path)
    if check.refused is not None:
        raise check.refused
    assert check.loaded is not None
    if check.disagreement is not None:
        raise BundleDesync(check.disagreement, check)
    if check.stop is not None and check.stop.reproduced:
        raise BundleDesync(check.stop.text, check)
    return check.loaded.game
