"""Provides :class:`Timekeeper`: the turn clock at a network table (protocol/wire.md §5.8).

It starts and stops the seats' clocks (:class:`~carcnet.table.clock.SeatClocks`) as the turn passes,
plays the rest of a turn a person plays here when its time runs out, and keeps the banks the table's:
this laptop says the banks it knows in its heartbeats (§4.5), takes each seat's bank from the laptop
that plays the seat, and keeps them beside its save (the keys file), so that a resumed game's clocks go
on with the banks they had rather than full ones. A spectator shows them too: the clocks when it saw the
lobby's agreement, else (it came later: only the lobby says the turn's time) each seat's bank as the
players say it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence

from carcnet.bots import make_bot
from carcnet.engine import IllegalMoveError, Phase
from carcnet.i18n import _
from carcnet.net.sync import SyncError

from .base import Change, TableError, bot_seed
from .clock import MAX_BANK, MAX_TURN, SeatClocks, TurnClock
from .netview import NetView

__all__ = ["Timekeeper"]

log = logging.getLogger("carcnet.table")

#: The phases in which the seat to play thinks, its clock running.
_TURN_PHASES = (Phase.PLACE_TILE, Phase.DEPLOY, Phase.STEP)


class Timekeeper:
    """The turn clock of a network table: its :attr:`~carcnet.table.netview.NetView.clocks`, made once
    the game has started at a table that plays with a clock.

    Args:
        table: The table whose clock this is.
        note: Says a line to the table's people.
        changed: Tells the table's listeners of a change (here ``"clock"``).
        save: Writes the table's keys file (which keeps :meth:`kept`).
        closing: Whether the table is closing.
        ready: Whether a time run out may play the turn (a laptop back from its save: once it took what
            the table played meanwhile, :class:`~carcnet.table.rejoin.Rejoin`).
    """

    def __init__(self, table: NetView, *, note: Callable[[str], None], changed: Callable[[Change], None],
                 save: Callable[[], None], closing: Callable[[], bool],
                 ready: Callable[[], bool] = lambda: True) -> None:
        self.table = table
        self._note, self._changed, self._save, self._closing = note, changed, save, closing
        self._ready = ready
        self._resumed = False
        #: A resumed game's banks from its keys file (milliseconds, seat by seat), or ``None``.
        self._kept: tuple[int, ...] | None = None
        #: Whether this laptop knows the banks: not while it came back without them and has heard
        #: none of the table's yet; it says none meanwhile.
        self._known = True
        #: The seats of a resumed laptop that still take a smaller bank any player says, until their
        #: next turn ends (never more time than the table measured).
        self._learning: set[int] = set()
        #: The banks last written to the keys file.
        self._written: tuple[int, ...] | None = None
        #: A spectator that came after the lobby: its clocks are the banks the players say, no turn runs.
        self._banks_only = False

    def resumed(self, banks: Sequence[int] | None) -> None:
        """The game was resumed from its save: the clocks start from *banks* (milliseconds, seat by
        seat, as kept beside it), or from full banks for a save that kept none; either way this
        laptop's own seats then take a smaller bank a player says (wire.md §5.8 "Resuming")."""
        self._resumed = True
        self._kept = tuple(banks) if banks is not None else None
        self.update()

    def kept(self) -> tuple[int, ...] | None:
        """What the keys file keeps: the banks in milliseconds, seat by seat; ``None`` without a clock
        or while this laptop does not know them."""
        clocks = self.table.clocks
        if clocks is None:
            return self._kept
        return clocks.millis() if self._known else None

    def update(self) -> None:
        """Starts and stops the seats' clocks as the turn passes (the seat to move, not while the table
        draws), then says the banks (:meth:`_said`)."""
        table, session = self.table, self.table.session
        game = session.game
        if game is None:
            return
        clocks = table.clocks
        if clocks is None:
            clock = table.clock
            if clock is None:
                if table.kind == "spectator":
                    self._banks_heard(game.players)
                return
            kept = self._kept if self._kept is not None and len(self._kept) == game.players else None
            clocks = table.clocks = SeatClocks(clock, game.players, None if kept is None else [m / 1000 for m in kept])
            if self._resumed:
                self._learning = {seat for seat in range(game.players) if session.plays(seat)}
                self._known = kept is not None
            self._written = clocks.millis() if self._known else None
        playing = game.phase in _TURN_PHASES and not session.stopped and not self._banks_only
        ended = clocks.update(game.seat if playing else None, session.clock())
        if ended in self._learning:
            self._learning.discard(ended)  # its bank is this laptop's own measure from now on
            self._known = self._known or not self._learning
        self._said()

    def _banks_heard(self, players: int) -> None:
        """A spectator that came after the lobby knows no agreement (only the lobby says it, wire.md §4.6):
        once a player connected here says the banks at the seq it holds (§4.5), its clocks show each
        seat's bank as the players say it (:meth:`listen` keeps them up to date), never a turn's time."""
        session = self.table.session
        for link in session.connections.open_links():
            at, banks = link.banks
            if link.role != "spectator" and at == session.have and len(banks) == players:
                unknown = TurnClock(MAX_TURN, MAX_BANK)  # bounds only: nothing here runs a turn against it
                self.table.clocks = SeatClocks(unknown, players, [millis / 1000 for millis in banks])
                self._banks_only = True
                return

    def listen(self) -> bool:
        """Takes the banks the table says (wire.md §5.8) from the last heartbeat of each player
        connected here, when it was sent at the seq this laptop holds (the same turns ended): a seat's
        bank from the peer that plays the seat (its runner, as presence knows it), never for a seat this
        laptop plays; and, while a resumed laptop's seat learns, the smallest bank any player says of
        it. A spectator's claims, and a peer's for a seat it does not play, are ignored. Returns
        whether a bank changed."""
        table, session = self.table, self.table.session
        clocks = table.clocks
        if clocks is None:
            return False
        presence, changed = None, False
        for link in session.connections.open_links():
            at, banks = link.banks
            if at != session.have or len(banks) != len(clocks.banks) or link.role == "spectator" or link.key is None:
                continue
            if presence is None:
                presence = table.presence()
            for seat, millis in enumerate(banks):
                if seat in self._learning:
                    if millis < clocks.millis()[seat]:
                        changed = clocks.take(seat, millis) or changed
                elif not session.plays(seat) and presence.runner(seat) == link.key:
                    changed = clocks.take(seat, millis) or changed
            if not self._known:
                changed, self._known = True, True
        if changed:
            self._said()
        return changed

    def _said(self) -> None:
        """Puts the banks in this player's heartbeats (none while it does not know them, none from a
        spectator), and keeps them beside its save when they changed."""
        clocks, session = self.table.clocks, self.table.session
        if clocks is None or self.table.kind == "spectator":
            return
        banks = clocks.millis() if self._known else ()
        session.say_banks(session.have, banks)
        if banks and banks != self._written and session.seats:
            self._written = banks
            self._save()

    async def watch(self) -> None:
        """Takes the banks the table says (:meth:`listen`) four times a second and redraws the clocks
        once a second; when the turn of a seat a person plays here runs out (its turn and its bank used
        up), plays the rest of the turn with the greedy bot's choice and says so (wire.md §5.8)."""
        said: set[tuple[int, int]] = set()
        shown = -1
        table = self.table
        while not self._closing():
            await asyncio.sleep(0.25 if table.clocks is not None else 1.0)  # the clock's tick, not a synchronisation
            if table.clocks is None and table.kind == "spectator":
                self.update()  # a spectator that came late: the banks, once a player says them
                if table.clocks is not None:
                    self._changed("clock")
            if self.listen():
                self._changed("clock")
            clocks, game = table.clocks, table.session.game
            if clocks is None or game is None or clocks.running is None or not table.running:
                continue
            seat = clocks.running[0]
            second = int(table.session.clock())
            if second != shown:  # the times shown change once a second
                shown = second
                self._changed("clock")
            if seat not in table.human_seats or not clocks.expired(seat, table.session.clock()):
                continue
            if not self._ready():  # back from its save: the table's entries first
                continue
            turn = (seat, game.deck_index)
            if turn not in said:
                said.add(turn)
                # Translators: {name} is a player's name.
                self._note(_("{name}'s time ran out: the greedy bot plays the turn").format(name=table.names[seat]))
            self._play_out(seat)

    def _play_out(self, seat: int) -> None:
        """Plays the rest of *seat*'s turn (the placement, then the deployment) with the greedy bot's
        choice, signed as any move of the seat."""
        header = self.table.session.header
        bot = make_bot("greedy", bot_seed(header.header.digest, seat) if header is not None else 0)
        for __ in range(3):  # the placement, the deploy, and an expansion's question after them
            game = self.table.session.game
            if game is None or game.seat != seat or game.phase not in _TURN_PHASES:
                break
            try:
                self.table.submit(bot.choose(game.view()))
            except (TableError, IllegalMoveError, SyncError) as exc:
                log.info("the clock's move for seat %s was refused: %s", seat, exc)
                break
