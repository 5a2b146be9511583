"""Provides the turn clock of a network table (protocol/wire.md §4.6 ``clock``, §5.8):
seconds for each turn and a bank per seat, agreed in the lobby.

A seat's turn runs from the moment this laptop sees it is the seat's turn to place its tile (its tile
drawn) until the seat's last move of the turn; drawing does not count. A turn may take *turn* seconds
for free; what it takes beyond that comes out of the seat's bank. When both are used up the turn has
run out: the laptop that plays the seat plays the rest of the turn with the greedy bot's choice
(:meth:`carcnet.table.NetTable` does), and the seat goes on with an empty bank (only *turn* seconds
a turn from then on). Every laptop measures the turns with its own clock, so the times shown at two
laptops may differ by the time a move takes to arrive; only the seat's own laptop acts on them. The
banks are the table's: a seat's laptop says its banks in its heartbeats and the others take them
(:meth:`SeatClocks.take`), and a player keeps them beside its save (wire.md §5.8).

Pure: the time is always given (seconds of a monotonic clock).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from carcnet.i18n import _

__all__ = ["MAX_BANK", "MAX_TURN", "SeatClocks", "TurnClock", "clock_text"]

#: Bounds of the agreement (wire.md §4.6): seconds a turn, seconds of bank.
MAX_TURN = 3600
MAX_BANK = 36000


def clock_text(seconds: float) -> str:
    """``m:ss`` of a time left, rounded up to the second (``0:00`` once it is used up)."""
    whole = max(0, int(-(-seconds // 1)))
    return f"{whole // 60}:{whole % 60:02d}"


@dataclass(frozen=True, slots=True)
class TurnClock:
    """The clock a table agreed on.

    Attributes:
        turn: Seconds each turn may take before the bank is used, 1 to :data:`MAX_TURN`.
        bank: Seconds of bank per seat for the whole game, 0 to :data:`MAX_BANK`.

    Raises:
        ValueError: A value out of its bounds.
    """

    turn: int
    bank: int

    def __post_init__(self) -> None:
        for name, value, low, high in (("turn", self.turn, 1, MAX_TURN), ("bank", self.bank, 0, MAX_BANK)):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                # Translators: {low} and {high} are numbers of seconds, {value} the number given.
                text = (_("the clock's turn is {low} to {high} seconds, not {value}") if name == "turn"
                        # Translators: {low} and {high} are numbers of seconds, {value} the number given.
                        else _("the clock's bank is {low} to {high} seconds, not {value}"))
                raise ValueError(text.format(low=low, high=high, value=repr(value)))

    @classmethod
    def parse(cls, text: str) -> TurnClock:
        """``"60+300"`` (60 s a turn, a 300 s bank), or ``"60"`` (no bank).

        Raises:
            ValueError: Not that form, or out of bounds.
        """
        turn, __, bank = text.partition("+")
        try:
            return cls(int(turn), int(bank) if bank else 0)
        except ValueError as exc:
            # Translators: TURN+BANK and 60+300 are typed as they are; {reason} says what is wrong.
            raise ValueError(_("a turn clock is TURN+BANK in seconds, e.g. 60+300: {reason}").format(reason=exc)) from None

    def describe(self) -> str:
        """In words: ``60 s a turn + 5:00 bank``."""
        if self.bank:
            # Translators: {turn} is a number of seconds, {bank} a time as m:ss.
            return _("{turn} s a turn + {bank} bank").format(turn=self.turn, bank=clock_text(self.bank))
        # Translators: {turn} is a number of seconds.
        return _("{turn} s a turn, no bank").format(turn=self.turn)


class SeatClocks:
    """Each seat's clock at this laptop (see the module docstring).

    Args:
        clock: The agreement.
        players: The number of seats.
        banks: Each seat's bank left in seconds, seat by seat (a resumed game's, wire.md §5.8); full
            banks by default. Each is held to 0 to the agreement's bank.

    Raises:
        ValueError: *banks* does not give one bank per seat.
    """

    def __init__(self, clock: TurnClock, players: int, banks: Sequence[float] | None = None) -> None:
        self.clock = clock
        if banks is not None and len(banks) != players:
            raise ValueError(f"{len(banks)} banks for {players} seats")
        #: Seconds of bank left per seat, counted to the millisecond, not counting a turn that runs.
        self.banks = [float(clock.bank)] * players if banks is None else [self._held(b) for b in banks]
        #: The seat whose turn runs and since when, or ``None`` (drawing, the game over).
        self.running: tuple[int, float] | None = None

    def _held(self, seconds: float) -> float:
        """*seconds* of bank, held to 0 to the agreement's bank and counted to the millisecond."""
        return min(float(self.clock.bank), max(0.0, round(seconds, 3)))

    def update(self, seat: int | None, now: float) -> int | None:
        """The seat whose turn it is now (``None`` while the table draws or after the game): ends the
        turn that ran if it is another seat's (its overtime comes out of its bank) and starts *seat*'s.
        Returns the seat whose turn ended, or ``None``."""
        running, ended = self.running, None
        if running is not None and running[0] != seat:
            ended, since = running
            self.banks[ended] = self._held(self.banks[ended] - max(0.0, now - since - self.clock.turn))
            running = self.running = None
        if running is None and seat is not None:
            self.running = (seat, now)
        return ended

    def take(self, seat: int, millis: int) -> bool:
        """Sets *seat*'s bank (not counting a turn that runs) to *millis* milliseconds, held to the
        agreement's bank: the bank the table says (wire.md §5.8). Returns whether it changed."""
        before = self.banks[seat]
        self.banks[seat] = self._held(millis / 1000)
        return self.banks[seat] != before

    def millis(self) -> tuple[int, ...]:
        """Each seat's bank left in whole milliseconds, seat by seat, not counting a turn that runs:
        what this laptop says in its heartbeats and keeps beside its save (wire.md §4.5, §5.8)."""
        return tuple(round(bank * 1000) for bank in self.banks)

    def left(self, seat: int, now: float) -> tuple[float, float]:
        """``(seconds left of the turn, seconds of bank left)`` for *seat* at *now*; the turn's part
        is the whole turn for a seat whose turn it is not."""
        bank = self.banks[seat]
        running = self.running
        if running is None or running[0] != seat:
            return float(self.clock.turn), bank
        used = now - running[1]
        over = max(0.0, used - self.clock.turn)
        return max(0.0, self.clock.turn - used), max(0.0, bank - over)

    def expired(self, seat: int, now: float) -> bool:
        """Whether *seat*'s turn runs and has used up its time and its bank."""
        running = self.running
        return running is not None and running[0] == seat and sum(self.left(seat, now)) <= 0

    def describe(self, seat: int, now: float) -> str:
        """What the scoreboard shows: ``0:42+5:00`` while the seat's turn runs, else ``+5:00``
        (the bank)."""
        turn, bank = self.left(seat, now)
        running = self.running is not None and self.running[0] == seat
        return f"{clock_text(turn)}+{clock_text(bank)}" if running else f"+{clock_text(bank)}"
