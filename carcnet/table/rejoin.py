"""Provides :class:`Rejoin`: a laptop back from its save plays no seat by itself until it is in step
with the table (protocol/wire.md §5.6 "Coming back").

While a laptop was away (it left and kept its seat, gave it to a bot, crashed, or was cut off) the
others may have handed its seats over and played on. Back from its save, its log ends where it
stopped: a bot of its own, or its turn clock running out, would make the seat's next move at once,
before the table's entries come, and that move competes with the handover the others made at the
same seq (a seat's own move beats a handover of it, §5.9), so the one left's moves from there would be
set aside, or, where the others' branch is committed, its own would, after its bots played on alone
on a branch nobody else holds. So the bots and the clock of a resumed laptop wait until a player's
link is open and this log is neither behind it nor parted from it (it took what the table played),
or, with nobody there, :attr:`Rejoin.wait` seconds (the dead-connection clock of §2.1): then it plays
on alone, as the one left does; but not a laptop that gave its seats' votes away when it left (§5.9
"Two seats, and leaving"): it casts no vote again, so nothing it played alone could ever be
committed, and a table that finished without it would find its phantom game on its screen. A
person's own moves are the person's to make.
"""

from __future__ import annotations

from carcnet.net.sync import SyncSession

__all__ = ["Rejoin"]


class Rejoin:
    """Whether a laptop may make its seats' moves by itself: at once in a game it opened or joined;
    after resuming its save, once :meth:`ready`.

    Args:
        session: The table's session.
        wait: Seconds after :meth:`start` after which a resumed laptop that met no player plays on.
        resumed: Whether the table was resumed from a save (else :meth:`ready` is always true).
    """

    def __init__(self, session: SyncSession, wait: float, *, resumed: bool = False) -> None:
        self._session = session
        self.wait = wait
        self._since: float | None = None
        self._done = not resumed
        self._alone = True

    def start(self, now: float) -> None:
        """The table runs from *now* (the session's clock, seconds)."""
        self._since = now

    def hold(self, *, alone: bool = True) -> None:
        """The table was resumed from its save: hold its seats' moves until :meth:`ready`; *alone*:
        whether it may play on alone after :attr:`wait` seconds with nobody there (``False`` for a
        laptop that gave its votes away: only once in step with a player)."""
        self._done = False
        self._alone = alone

    def ready(self) -> bool:
        """Whether this laptop's bots and turn clock may move now; once true, true for good."""
        if self._done:
            return True
        session = self._session
        links = [link for link in session.connections.open_links() if link.role != "spectator"]
        if links and all(not link.parted and link.peer_have <= session.have for link in links):
            self._done = True
        elif self._alone and self._since is not None and session.clock() - self._since >= self.wait:
            self._done = True
        return self._done

