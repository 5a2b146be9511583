"""Provides :class:`DrawValues`: one peer's part in the table's draws, without I/O (``protocol/wire.md``
§5.7, ``protocol/deck.md`` §5).

In a game whose draws come from the table, every tile is drawn by every contributing seat together:
each seat reveals the next value of its hash chain (``reveal``), and once every contributing seat's
value is held, each peer makes the same ``draw`` entry (:class:`~carcnet.engine.DrawTile`) from them.
This room holds what that needs, as values in and values out:

- :meth:`DrawValues.step`: the draw the game waits for; this peer's own values for it (the
  ``reveal`` messages to send, each once) and, when every value is in, the draw's move;
- :meth:`DrawValues.take`: a ``reveal`` that arrived, checked once against the seat's chain
  (:func:`carcnet.engine.draws.check_reveal`), and what to do with it (:data:`RevealVerdict`);
- :meth:`DrawValues.missing`: the seats whose value the draw still lacks;
- :meth:`DrawValues.values_held`: this peer's values for the current draw, for a link that just opened;
- :meth:`DrawValues.vouch`: what this peer saw of a seat whose ``handover`` arrives while the table
  draws (wire.md §5.6 "What the others check"): whether its value was missing here too;
- :func:`draw_race`: for a draw and a handover made for the same seq, which one counts.

The session applies the move and sends the messages; the room keeps the values of the current draw
and the next, since when each is held, the draw waited for and since when (the clock is an argument),
and the chains of the seats whose keys this peer holds.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from carcnet.engine import DrawTile, Game, HandOver, Phase
from carcnet.engine.draws import check_reveal

from .messages import Reveal, SignedEntry, WireHeader
from .signing import SeatKey, seat_chain

__all__ = ["VOUCH_WAIT", "DrawStep", "DrawValues", "RevealVerdict", "Vouch", "draw_race", "vouches"]

log = logging.getLogger("carcnet.net")

#: What to do with a ``reveal`` that arrived (:meth:`DrawValues.take`): ``"held"`` (a new value, kept:
#: the draw may be complete), ``"ignore"`` (a draw made already or far ahead, a seat handed over, or a
#: repeat), ``"no-header"`` / ``"seeded"`` (no game here yet, or a game whose draws are seeded:
#: ``unexpected-message``), ``"bad-reveal"`` (not the seat's chain value, or a second, different one:
#: closes).
RevealVerdict = Literal["held", "ignore", "no-header", "seeded", "bad-reveal"]

#: What this peer saw of a seat named by a ``handover`` made while the table draws (:meth:`DrawValues.vouch`,
#: wire.md §5.6 "What the others check"): ``"withheld"`` (its value has been missing here
#: for :attr:`DrawValues.wait` seconds since this peer began waiting for the draw, or came only after
#: that: this peer takes the handover), ``"present"`` (its value was here within that wait: the seat did
#: not withhold it), ``"early"`` (this peer has waited less than that: nobody may judge the seat yet),
#: ``"unwitnessed"`` (this peer was not waiting for that draw: it cannot tell).
Vouch = Literal["withheld", "present", "early", "unwitnessed"]

#: Seconds a seat's value must have been missing at a peer, counted from when it began waiting for the
#: draw, before that peer takes a ``handover`` of the seat made while the table draws (wire.md §5.7):
#: half of carcnet's reveal wait (10 s), room for two laptops beginning to wait at different moments.
VOUCH_WAIT = 5.0


@dataclass(frozen=True, slots=True)
class DrawStep:
    """What one look at the draw the game waits for gives (:meth:`DrawValues.step`).

    Attributes:
        reveals: This peer's values for the draw not sent yet, in seat order: send each to every
            player link (spectators get the draw's entry instead).
        move: The draw, once every contributing seat's value is held; else ``None``.
    """

    reveals: tuple[Reveal, ...]
    move: DrawTile | None


def draw_race(held: SignedEntry, other: SignedEntry) -> Literal["theirs", "ours"] | None:
    """wire.md §5.7 "A draw racing a handover": for two different entries of one seq, which counts:
    ``"theirs"`` (this peer holds the draw, *other* is the handover: the handover wins), ``"ours"``
    (the reverse), or ``None`` when they are not a draw and a handover."""
    mine, theirs = type(held.entry.move), type(other.entry.move)
    if mine is DrawTile and theirs is HandOver:
        return "theirs"
    if mine is HandOver and theirs is DrawTile:
        return "ours"
    return None


def vouches(game: Game, move: HandOver, draws: DrawValues, now: float, *, in_touch: Callable[[int], bool]) -> bool:
    """wire.md §5.6 "What the others check": whether what this player saw lets it take *move*, a
    ``handover`` that follows *game* (the state before it), at *now*. While the table draws: only when
    the seat's value was missing here too, for :attr:`DrawValues.wait` seconds since this peer began
    waiting for the draw (:meth:`DrawValues.vouch` says ``"withheld"``). At the seat's turn: only when
    the seat's peer is not *in_touch* with this one (``in_touch(seat)``: this peer plays the seat, or
    holds an open link to the peer whose identity is the seat's key). A ``handover`` no peer vouches for
    is still taken once the table commits it (:meth:`~carcnet.net.replica.Replica.vouched`)."""
    if game.phase is Phase.DRAW:
        return draws.vouch(game, move.seat, now) == "withheld"
    return not in_touch(move.seat)


class DrawValues:
    """The values of the table's draws one peer holds (wire.md §5.7).

    Attributes:
        reveals: Draw → seat → chain value, received (checked) or made here, for the current draw
            and the next only.
        held_since: Draw → seat → when this peer first looked at the draw with the seat's value held
            (the clock given to :meth:`step`; a value held before the draw began counts from its
            beginning), for the same draws as :attr:`reveals`.
        waiting: The draw the game waits for (1-based, ``Game.next_draw``) and since when (the
            clock given to :meth:`step`), or ``None`` before the first.
        wait: Seconds a seat's value must have been missing here before a ``handover`` of the seat
            made while the table draws is taken (:meth:`vouch`; :data:`VOUCH_WAIT`).
    """

    def __init__(self) -> None:
        self.reveals: dict[int, dict[int, bytes]] = {}
        self.held_since: dict[int, dict[int, float]] = {}
        self.waiting: tuple[int, float] | None = None
        self.wait = VOUCH_WAIT
        self._chains: dict[int, list[bytes] | None] = {}

    def chain(self, header: WireHeader, seat: int, key: SeatKey) -> list[bytes] | None:
        """*seat*'s whole chain (values 0 to the pile's size, deck.md §5.1) from its *key*, if the
        game draws at the table and the chain gives the header's root for the seat; made once."""
        if seat not in self._chains:
            values = None
            if header.header.draws is not None:
                values = seat_chain(key, header.game, seat, header.header.options.table_draws())
                if header.commits is None or values[0] != header.commits[seat]:
                    log.warning("seat %d's key does not give the header's chain root", seat)
                    values = None
            self._chains[seat] = values
        return self._chains[seat]

    def step(self, game: Game, header: WireHeader, keys: Mapping[int, SeatKey], now: float) -> DrawStep:
        """Looks at the draw *game* waits for (its phase must be :attr:`Phase.DRAW`): notes since when
        it waits (*now*), forgets older draws' values, makes this peer's values for it from the
        chains of the seats whose *keys* it holds, and gives the draw once every contributing seat's
        value is held."""
        draw = game.next_draw
        if self.waiting is None or self.waiting[0] != draw:
            self.waiting = (draw, now)
        held = self.reveals.setdefault(draw, {})
        for old in [d for d in self.reveals if d < draw]:
            del self.reveals[old]
            self.held_since.pop(old, None)
        contributors = game.contributors()
        reveals = []
        for seat in contributors:
            key = keys.get(seat)
            values = self.chain(header, seat, key) if key is not None else None
            if values is not None and seat not in held:
                held[seat] = values[draw]
                reveals.append(Reveal(seat=seat, draw=draw, value=values[draw]))
        since = self.held_since.setdefault(draw, {})
        for seat in held:
            since.setdefault(seat, now)
        if any(seat not in held for seat in contributors):
            return DrawStep(tuple(reveals), None)
        values_in = tuple(held.get(s) if s in contributors else None for s in range(game.players))
        return DrawStep(tuple(reveals), DrawTile(values_in))

    def restart(self, now: float) -> None:
        """This peer is back in touch with most of the table (wire.md §5.7 "Withholding"): the values
        it could not receive while apart are on their way, so the wait for the draw it waits for counts
        again from *now*, for judging a seat (the automatic takeover, ``b``) and for checking another's
        ``handover`` (:meth:`vouch`) alike. Nothing when it waits for no draw."""
        if self.waiting is not None:
            self.waiting = (self.waiting[0], now)

    def missing(self, game: Game | None) -> list[int]:
        """The seats whose value the draw *game* waits for still lacks, in seat order; empty when it
        does not wait for a draw."""
        if game is None or game.phase is not Phase.DRAW:
            return []
        held = self.reveals.get(game.next_draw, {})
        return [seat for seat in game.contributors() if seat not in held]

    def values_held(self, game: Game | None, own: Mapping[int, SeatKey]) -> list[Reveal]:
        """This peer's values (of the seats in *own*) for the draw *game* waits for, in seat order:
        what a player link that just opened is sent."""
        if game is None or game.phase is not Phase.DRAW:
            return []
        draw = game.next_draw
        return [Reveal(seat=seat, draw=draw, value=value)
                for seat, value in sorted(self.reveals.get(draw, {}).items()) if seat in own]

    def vouch(self, game: Game, seat: int, now: float) -> Vouch:
        """What this peer saw of *seat*, named at *now* by a ``handover`` made while *game* (the state
        before it) waits for a draw (wire.md §5.6 "What the others check"; :data:`Vouch`).
        The session looks at the draw after every value it takes, so a value held counts from the
        moment it came (or from the draw's beginning, when it came before)."""
        draw = game.next_draw
        if self.waiting is None or self.waiting[0] != draw:
            return "unwitnessed"
        began = self.waiting[1]
        came = self.held_since.get(draw, {}).get(seat, now if seat in self.reveals.get(draw, {}) else None)
        if came is not None and came - began < self.wait:
            return "present"
        if now - began < self.wait:
            return "early"
        return "withheld"

    def take(self, reveal: Reveal, game: Game | None, header: WireHeader | None) -> RevealVerdict:
        """Judges a ``reveal`` that arrived (wire.md §5.7): a value for the current draw or the next,
        from a seat that contributes, is checked against the seat's chain at once and held; a value
        for a draw made already or far ahead, or for a seat handed over, is ignored."""
        if game is None or header is None:
            return "no-header"
        if header.header.draws is None:
            return "seeded"
        current = game.next_draw  # the draw the game waits for, or the next one
        draw, seat = reveal.draw, reveal.seat
        if not current <= draw <= current + 1 or seat >= game.players or game.handovers[seat] is not None:
            return "ignore"
        held = self.reveals.setdefault(draw, {})
        if held.get(seat) == reveal.value:
            return "ignore"
        known = game.revealed[seat] if game.revealed is not None else (0, b"")
        if seat in held or not check_reveal(header.game, seat, reveal.value, draw, known):
            return "bad-reveal"
        held[seat] = reveal.value
        return "held"
