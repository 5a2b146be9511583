"""The line a network table says when a peer is gone (carcnet.table.farewell; wire.md §4.7, §5.6)."""

from __future__ import annotations

import pytest

from carcnet.table.farewell import farewell


@pytest.mark.parametrize(
    ("reason", "role", "started", "line"),
    [
        ("quit", "spectator", True, "Eve stopped watching"),
        ("quit", "player", True, "Eve left (quit): gave up the seat, a bot of the table plays it from Eve's next turn"),
        ("shutdown", "host", True,
         "Eve left (shutdown): keeps the seat and can come back (resume); b at their turn gives it to a bot"),
        ("quit", None, True, "Eve left (quit)"),  # a connection not proven to sit at the table gives up no seat
        ("quit", "player", False, "Eve left (quit)"),  # in the lobby, or after the game
        ("timeout", "player", True, "Eve left (timeout)"),
    ],
)
def test_farewell(reason: str, role: str | None, started: bool, line: str) -> None:
    assert farewell("Eve", reason, role=role, started=started) == line
