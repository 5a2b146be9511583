"""Provides :func:`farewell`: the line a network table says when a peer's last connection to it
closes, for people: a spectator that stops watching, a player that left the game and gave up the
seat (``bye`` quit: the table's bot plays it, protocol/wire.md §4.7, §5.6), one that left meaning to
come back (``bye`` shutdown: resume), and any other going with its reason."""

from __future__ import annotations

__all__ = ["farewell"]


def farewell(name: str, reason: str | None, *, role: str | None, started: bool) -> str:
    """What the table's people read when peer *name* is gone.

    Args:
        name: The peer's name.
        reason: Why its connection closed: a ``bye`` reason or an error code (wire.md §4.7, §6);
            ``None`` when it just went silent.
        role: The role it declared (``host``, ``player`` or ``spectator``, wire.md §3.2); ``None`` if
            unknown, or a player not proven to sit at the table (a stranger gives up no seat).
        started: Whether the game is going on here (started, not over).

    Returns:
        One line, e.g. ``"Bob left (quit): gave up the seat, a bot of the table plays it from Bob's next
        turn"``.
    """
    if role == "spectator" and reason in ("quit", "shutdown", "game-over"):
        return f"{name} stopped watching"
    if started and role in ("host", "player"):
        if reason == "quit":
            return f"{name} left (quit): gave up the seat, a bot of the table plays it from {name}'s next turn"
        if reason == "shutdown":
            return f"{name} left (shutdown): keeps the seat and can come back (resume); b at their turn gives it to a bot"
    return f"{name} left ({reason})"
