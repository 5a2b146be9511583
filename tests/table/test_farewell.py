"""The line a network table says when a peer is gone (carcnet.table.farewell; wire.md §4.7, §5.6)."""

from __future__ import annotations

import pytest

from carcnet.table.farewell import farewell


@pytest.mark.parametrize(
    ("reason", "role", "started", "line"),
    [
        ("quit", "spectator", True, "Eve stopped watching"),
        ("quit", "player", True, "Eve left the game and gave up the seat: a bot plays it from Eve's next turn"),
        ("shutdown", "host", True,
         "Eve left for now and keeps the seat: Eve can come back; b at their turn lets a bot play it"),
        ("quit", None, True, "Eve left"),  # a connection not proven to sit at the table gives up no seat
        ("quit", "player", False, "Eve left"),  # in the lobby, or after the game
        ("timeout", "player", True, "Eve's laptop stopped answering"),
        (None, "player", True, "Eve's connection was lost"),
        ("game-over", "player", False, "Eve left: the game is over"),
        ("forbidden", "player", True, "Eve's connection was closed after an error"),  # the code: the connection log's
    ],
)
def test_farewell(reason: str, role: str | None, started: bool, line: str) -> None:
    said, account = farewell("Eve", reason, role=role, started=started)
    assert said == line and f"closed: {reason}" in account
