"""Provides :class:`SeatHands`: a network table's seats changing hands (``protocol/wire.md`` §5.6).

The part of :class:`~carcnet.table.lan.NetTable` that carries out what presence decides about seats
(:mod:`carcnet.net.presence`: values in, decisions out): a bot seat whose laptop is gone taken over by
the table after the away rule's wait; a seat handed over at a player's word (``b``: by this laptop when
it is the table's taker, else asked of the taker, "Who makes the handover"); a seat given back
when its laptop returns ("Coming back"); and this laptop's own seat taken back when the laptop that
ran it is gone ("Taking a seat back"). Each is an entry this peer makes through the session; nothing
here touches textual.
"""

from __future__ import annotations

import asyncio

from carcnet.bots import make_bot
from carcnet.engine import HandBack, HandOver, IllegalMoveError
from carcnet.i18n import _
from carcnet.net.presence import TakeoverClock
from carcnet.net.sync import SyncError

from .base import TableError, bot_seed
from .driver import BotDriver
from .netview import NetView
from .rejoin import Rejoin
from .words import (
    asked_for_bot,
    handed_over,
    not_handed_over,
    not_taken_over,
    seat_change_failed,
    taken_back,
    told,
)

__all__ = ["SeatHands"]


class SeatHands(NetView):
    """Seats changing hands at a network table (wire.md §5.6); :class:`~carcnet.table.lan.NetTable`
    is one. The table sets the attributes below and runs :meth:`_take_over_bot_seats` as a task.

    Attributes:
        takeover: Seconds a bot seat must be away at its turn before the table takes it over.
        driver: Plays this peer's bot seats once running, ``None`` before.
        rejoin: Whether this laptop, back from its save, is in step with the table (it then acts).
    """

    takeover: float
    driver: BotDriver | None
    rejoin: Rejoin
    _closing: bool
    _hand_back_soon: bool

    def _save_keys(self) -> None:
        """Writes this peer's keys file beside its save (the table's)."""
        raise NotImplementedError

    async def _take_over_bot_seats(self) -> None:
        """Gives a bot seat whose laptop is gone to a bot run by the table, by the deterministic rule of
        wire.md §5.6: once it has been away at its turn for :attr:`takeover` seconds, the peer that
        :meth:`~carcnet.net.presence.PresenceSnapshot.takeover_runner` names (if it may hand over)
        makes the ``handover``; the bot is the one the header names. Before that, on each tick, this
        laptop's own seat played by a bot of a laptop that is gone is taken back (:meth:`_take_back`),
        once that laptop has been gone at the seat's turn for as long (right after a heal the links come
        back within seconds, and a seat taken back while its runner plays on is set aside). A laptop
        back from its save hands nothing over until it may move (:class:`~carcnet.table.rejoin.Rejoin`):
        its handover, as its own moves, would compete with what the table played meanwhile."""
        loop = asyncio.get_running_loop()
        tick = max(0.05, min(1.0, self.takeover / 4))
        clock = TakeoverClock(self.takeover)
        back_clock = TakeoverClock(self.takeover)  # the same away rule, for this laptop's own seats
        saw_most = True
        while not self._closing:
            await asyncio.sleep(tick)  # the clock of the away rule, not a synchronisation
            header, game = self.session.header, self.session.game
            if header is not None and game is not None and self.status == "playing" and self.rejoin.ready():
                presence = self.presence()
                due = back_clock.due(sorted(presence.own), presence.take_back(self.session.clock()), loop.time())
                if due:
                    self._take_back(due[0])  # (this laptop's own seat, played by a laptop that is gone)
                    back_clock.done(due[0])
                    clock.reset()
                    continue
            else:
                back_clock.reset()
            blocking = self.blocking()
            self._drop_asks(blocking)
            if (header is None or game is None or not blocking or self.status != "playing" or not self.my_seats
                    or not self.rejoin.ready()):  # back from its save: in step with the table first
                clock.reset()
                continue
            presence, now = self.presence(), self.session.clock()
            if self._answer_asks(blocking):
                clock.reset()
                continue
            if presence.sees_most() and not saw_most:
                clock.reset()  # back in touch with most of the table: the others' links are opening again
            saw_most = presence.sees_most()
            due = clock.due(blocking, presence.takeover_candidates(now), loop.time())
            # while the table draws, a seat only once its value has been missing for the wait (§5.7); a
            # laptop that does not see most of the table says that it takes none over, draw or not
            judged = [s for s in due if presence.drawing is None or s in presence.withholding(now)]
            if not judged and (not due or presence.sees_most()):
                continue
            seat = (judged or due)[0]
            bot = header.header.seats[game.signer(seat)].bot
            name = header.header.seats[seat].name
            if not judged or not presence.may_hand_over(seat):
                if clock.refusal_is_news(seat, len(game.moves)):
                    self._note(*not_taken_over(name, seat, cut_off=self.cut_off))
                continue
            if presence.takeover_runner(now) != self.session.identity.public:
                continue
            try:
                self.hand_over(seat, bot or "greedy")
            except (TableError, IllegalMoveError, ValueError) as exc:
                self._note(*seat_change_failed("take-over", name, seat, exc))
            clock.done(seat)

    def _drop_asks(self, blocking: list[int]) -> None:
        """The seats this laptop asked the taker to hand over (wire.md §5.6 "Who makes the handover")
        are asked until handed over, or until the game no longer waits for them (*blocking*)."""
        game = self.session.game
        if self.session.asks:
            self.session.ask([s for s in self.session.asks if s in blocking and game is not None
                              and game.handovers[s] is None])

    def _answer_asks(self, blocking: list[int]) -> bool:
        """wire.md §5.6 "Who makes the handover": when this laptop is the table's taker, hands over the
        first seat the game waits for that a player in touch with it asks for (its person let a bot play
        it), or that this laptop asked for itself while another was the taker, if the rules let it
        (else nothing: the asker's own view was not this one's). Returns whether it made a handover."""
        presence, now = self.presence(), self.session.clock()
        asked = set(presence.asked()) | set(self.session.asks)
        seats = [s for s in blocking if s in asked and presence.handover_refusal(s, now) is None]
        if not seats or presence.takeover_runner(now) != self.session.identity.public:
            return False
        header, game = self.session.header, self.session.game
        assert header is not None and game is not None
        seat = seats[0]
        name = header.header.seats[seat].name
        try:
            self.hand_over(seat, header.header.seats[game.signer(seat)].bot or "greedy")
        except (TableError, IllegalMoveError, ValueError) as exc:
            self._note(*seat_change_failed("take-over", name, seat, exc))
            return False
        return True

    def hand_over(self, seat: int, bot: str = "greedy") -> str | None:
        """Gives *seat*, whose player is away, to *bot*: a ``handover`` entry in the log (``protocol/
        log.md`` §6), made by this peer's own seat when this laptop is the table's taker (wire.md §5.6
        "Who makes the handover": the same peer as for a bot seat whose laptop is gone), the bot run
        here from now on; else asked of the taker in this laptop's heartbeats, which makes it (so that
        two players who press ``b`` at once make one entry, not two that split the votes). Which seats,
        wire.md §5.6 "Which seats": at its turn, the seat to play when no peer at the table is in touch
        with its player; while the table draws, a seat whose value has been missing for the reveal
        wait; never a present seat (:meth:`~carcnet.net.presence.PresenceSnapshot.handover_refusal`).
        A seat taken while it withheld its value, its laptop heard from since the draw began, is never
        given back (§5.7 "The price of a veto"), and this laptop takes it itself; any other goes back
        when its laptop returns.

        Returns:
            ``None`` when the bot runs here; else the name of the player whose laptop is asked to run it.

        Raises:
            TableError: Not a seat this peer may hand over now (why), this peer plays no seat of its
                own, or the game is not going on.
            IllegalMoveError: The engine refuses it (an unknown bot).
            ValueError: An unknown bot name.
        """
        make_bot(bot, 0)
        game, header = self.session.game, self.session.header
        if game is None or header is None:
            raise TableError(_("no game yet"))
        presence, now = self.presence(), self.session.clock()
        refusal = presence.handover_refusal(seat, now)
        if refusal is not None:
            raise TableError(told(self.details, not_handed_over(header.header.seats[seat].name, seat, refusal, presence, now)))
        own = [s for s in sorted(self.session.seats) if game.handovers[s] is None]
        if not own:
            raise TableError(_("only a player with a seat of their own can take a seat over"))
        by = next((s for s in own if s not in self.bot_names), own[0])
        withheld = presence.withheld_by(seat, now)
        taker = presence.takeover_runner(now)
        if withheld is None and taker is not None and taker != self.session.identity.public:
            self.session.ask([*self.session.asks, seat])  # the taker makes it (wire.md §5.6)
            seats = header.header.seats
            runner = next((seats[s].name for s, key in enumerate(header.keys) if key == taker), None)
            self._note(*asked_for_bot(seats[seat].name, seat, runner))
            return runner or ""
        try:
            self.session.submit(HandOver(seat, bot, by))
        except SyncError as exc:
            raise TableError(str(exc)) from None
        self.records.handed[seat] = now  # its owner is back once heard from after this (wire.md §5.6)
        if withheld is not None:
            # the price of a veto (wire.md §5.7): the seat is this peer's to run for the rest of the
            # game, after a restart too (the owner recorded beside the save is this peer)
            self.records.withheld[seat] = withheld
            self.records.owners[seat] = self.session.identity.public
        self.bot_names[seat] = bot
        self._save_keys()  # whose seat it is, should this laptop restart before it goes back
        self._note(*handed_over(header.header.seats[seat].name, seat, bot, by, withheld=withheld is not None))
        if self.driver is not None:
            self.driver.set_bot(seat, make_bot(bot, bot_seed(header.header.digest, seat)))
        return None

    def _take_back(self, seat: int) -> None:
        """wire.md §5.6 "Taking a seat back": *seat*, this laptop's own, is played by a bot of a laptop
        that is gone (:meth:`~carcnet.net.presence.PresenceSnapshot.take_back`): this laptop makes its
        ``handback`` itself; the seat is played here again (its bot, if it has one, is armed again at
        once)."""
        header, game = self.session.header, self.session.game
        assert header is not None and game is not None
        seats = header.header.seats
        runner = seats[game.signer(seat)].name
        try:
            self.session.submit(HandBack(seat, seat))
        except (SyncError, IllegalMoveError) as exc:
            self._note(*seat_change_failed("take-back", seats[seat].name, seat, exc))
            return
        self.records.handed.pop(seat, None)
        self._note(*taken_back(seats[seat].name, seat, runner))
        self._hand_back()

    def _hand_back(self) -> None:
        """wire.md §5.6 "Coming back": a seat handed over to a bot here goes back to its own peer when
        that peer is connected to this one again. From then on this peer's bot leaves the seat alone,
        and at the seat's next turn, before its tile is placed, this peer (the only one that may make
        the seat's entries then) makes the ``handback``; if the owner goes again first, the bot plays
        on. On the owner's side, a seat given back to a bot of its own is played by that bot again. The
        steps are :meth:`~carcnet.net.presence.PresenceSnapshot.hand_back`'s; this carries them out."""
        self._hand_back_soon = False
        header, game, driver = self.session.header, self.session.game, self.driver
        if header is None or game is None or driver is None or self.status != "playing" or self._closing:
            return
        for step in self.presence().hand_back(self.bot_names, driver.bots):
            seat, name = step.seat, header.header.seats[step.seat].name
            if step.action == "arm":
                assert step.bot is not None
                self.bot_names[seat] = step.bot
                driver.set_bot(seat, make_bot(step.bot, bot_seed(header.header.digest, seat)))
            elif step.action == "release":
                driver.set_bot(seat, None)
            else:
                try:
                    self.session.submit(HandBack(seat))
                except (SyncError, IllegalMoveError) as exc:
                    self._note(*seat_change_failed("give-back", name, seat, exc))
                    continue
                self.bot_names.pop(seat, None)
                # Translators: {name} is a player's name.
                self._note(_("{name} is back and plays their seat again").format(name=name))
