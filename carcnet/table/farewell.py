"""Provides :func:`farewell`: the line a network table says when a peer's last connection to it
closes, in people's words (with its account for the connection log, as the lines of
:mod:`carcnet.table.words`): a spectator that stops watching, a player that left the game and gave up
the seat (``bye`` quit: the table's bot plays it, protocol/wire.md §4.7, §5.6), one that left meaning
to come back (``bye`` shutdown: resume), a laptop that stopped answering, and any other going. The
reason itself (a ``bye`` reason or an error code) is the connection log's, never the line's."""

from __future__ import annotations

from carcnet.i18n import N_, _

__all__ = ["farewell"]

#: Why a player's connection ended → what the table's people read while the game goes on.
_IN_GAME = {
    # Translators: {name} is a player's name; "b" is the key that lets a bot play the seat.
    "quit": N_("{name} left the game and gave up the seat: a bot plays it from {name}'s next turn"),
    # Translators: {name} is a player's name; "b" is the key that lets a bot play the seat.
    "shutdown": N_("{name} left for now and keeps the seat: {name} can come back; b at their turn lets a bot play it"),
}
#: Why any connection ended → what the table's people read (in the lobby, after the game, a spectator).
_GONE = {
    # Translators: {name} is a player's (or a spectator's) name.
    "quit": N_("{name} left"),
    # Translators: {name} is a player's (or a spectator's) name.
    "shutdown": N_("{name} left"),
    # Translators: {name} is a player's (or a spectator's) name.
    "game-over": N_("{name} left: the game is over"),
    # Translators: {name} is a player's (or a spectator's) name.
    "timeout": N_("{name}'s laptop stopped answering"),
    # Translators: {name} is a player's (or a spectator's) name.
    "closed": N_("{name}'s connection was lost"),
    None: N_("{name}'s connection was lost"),
}
#: Any other reason: an error code (wire.md §6), which the connection log names.
# Translators: {name} is a player's (or a spectator's) name.
_ERROR = N_("{name}'s connection was closed after an error")


def farewell(name: str, reason: str | None, *, role: str | None, started: bool) -> tuple[str, str]:
    """What the table's people read when peer *name* is gone.

    Args:
        name: The peer's name.
        reason: Why its connection closed: a ``bye`` reason or an error code (wire.md §4.7, §6);
            ``None`` when it just went silent.
        role: The role it declared (``host``, ``player`` or ``spectator``, wire.md §3.2); ``None`` if
            unknown, or a player not proven to sit at the table (a stranger gives up no seat).
        started: Whether the game is going on here (started, not over).

    Returns:
        The line without the protocol's terms, e.g. ``"Bob left the game and gave up the seat: a bot
        plays it from Bob's next turn"``, and its account for the connection log (the reason and the
        role: ``"closed: quit (role player; wire.md §4.7, §6)"``).
    """
    account = f"closed: {reason} (role {role}; wire.md §4.7, §6)"
    if role == "spectator" and reason in ("quit", "shutdown", "game-over"):
        # Translators: {name} is a spectator's name.
        return _("{name} stopped watching").format(name=name), account
    if started and role in ("host", "player") and reason in _IN_GAME:
        return _(_IN_GAME[reason]).format(name=name), account
    return _(_GONE.get(reason, _ERROR)).format(name=name), account
