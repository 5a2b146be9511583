"""Provides the log's records as values: the :class:`LogHeader` (with its :class:`Seat` list) and one
:class:`LogEntry` per move (``protocol/log.md`` §5–6).

The values check themselves when built, so a :class:`LogHeader` or :class:`LogEntry` that exists is
well formed; :mod:`carcnet.log.codec` turns them into msgpack maps and back. Whether an entry fits the
game (its seat, its move, its digest) is checked by replaying it (:func:`carcnet.log.store.load`).
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field

from carcnet.engine import (
    DeployMeeple,
    Game,
    GameSetup,
    Move,
    PlaceTile,
    ReturnAbbot,
    Rules,
    SetupError,
    SkipMeeple,
)

from .errors import LogFormatError

__all__ = [
    "COLOURS",
    "DIGEST_SIZE",
    "FORMAT_VERSION",
    "MAX_NAME",
    "PLAYER_KINDS",
    "LogEntry",
    "LogHeader",
    "Seat",
]

#: Version of the log format this code reads and writes (``protocol/log.md`` §7).
FORMAT_VERSION = 1
#: Seat colours, in the order a new game hands them out (``protocol/log.md`` §5).
COLOURS = ("red", "blue", "yellow", "green", "black", "grey")
#: Who plays a seat.
PLAYER_KINDS = ("human", "bot")
#: Longest seat name or bot name, in characters.
MAX_NAME = 32
#: Bytes in a state digest (SHA-256, ``protocol/digest.md`` §4).
DIGEST_SIZE = 32
_GAME_ID = re.compile(r"[0-9a-f]{32}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_MOVE_TYPES = (PlaceTile, DeployMeeple, SkipMeeple, ReturnAbbot)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_text(what: str, value: object) -> None:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME or _CONTROL.search(value):
        raise LogFormatError(
            f"{what} must be 1 to {MAX_NAME} characters without control characters, got {value!r}"
        )


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat at the table, in seat order (seat 0 plays first).

    Attributes:
        name: What the table calls the player: 1 to 32 characters, no control characters.
        colour: One of :data:`COLOURS`; distinct across the seats of a game.
        player: ``"human"`` or ``"bot"``.
        bot: Which bot plays the seat (its ``name``, e.g. ``"random"``) when *player* is ``"bot"``;
            ``None`` for a human.

    Raises:
        LogFormatError: A field is out of its range.
    """

    name: str
    colour: str
    player: str = "human"
    bot: str | None = None

    def __post_init__(self) -> None:
        _check_text("seat name", self.name)
        if self.colour not in COLOURS:
            raise LogFormatError(f"seat colour must be one of {', '.join(COLOURS)}, got {self.colour!r}")
        if self.player not in PLAYER_KINDS:
            raise LogFormatError(f"seat player must be 'human' or 'bot', got {self.player!r}")
        if self.player == "bot":
            _check_text("the bot of a bot seat", self.bot)
        elif self.bot is not None:
            raise LogFormatError(f"a human seat has no bot, got bot={self.bot!r}")


@dataclass(frozen=True, slots=True)
class LogHeader:
    """The first record of a log: everything the game starts from (``protocol/log.md`` §5).

    A header always belongs to :data:`FORMAT_VERSION` and the engine's ``RULES_VERSION``: a header
    from another version is refused while decoding, never built.

    Attributes:
        game: Game id, 32 lowercase hex digits (a UUID4 without dashes).
        created: When the game was created, whole seconds since 1970-01-01 UTC.
        seats: 2 to 6 seats in seat order; the number of players is their number.
        digest: The engine's state digest after the setup (``Game(setup).digests[0]``, 32 bytes):
            a reader whose engine computes another one refuses the log.
        options: Rule options.
        seed: The deck seed in ``[0, 2**64)`` (``protocol/deck.md``), or ``None`` with *order*.
        order: An explicit draw order (start tile excluded) as design letters, or ``None`` with *seed*.

    Raises:
        LogFormatError: A field is out of range or the setup cannot start (the engine's
            ``SetupError`` message is kept).
    """

    game: str
    created: int
    seats: tuple[Seat, ...]
    digest: bytes
    options: Rules = field(default_factory=Rules)
    seed: int | None = None
    order: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.game, str) or not _GAME_ID.fullmatch(self.game):
            raise LogFormatError(f"game id must be 32 lowercase hex digits, got {self.game!r}")
        if not _is_int(self.created) or not 0 <= self.created < 2**63:
            raise LogFormatError(f"created must be whole seconds since 1970 (>= 0), got {self.created!r}")
        if not isinstance(self.seats, tuple) or not all(isinstance(s, Seat) for s in self.seats):
            raise LogFormatError("seats must be a tuple of Seat")
        colours = [s.colour for s in self.seats]
        if len(set(colours)) != len(colours):
            raise LogFormatError(f"two seats have the same colour: {', '.join(colours)}")
        if not isinstance(self.digest, bytes) or len(self.digest) != DIGEST_SIZE:
            raise LogFormatError(f"the header digest must be {DIGEST_SIZE} bytes")
        if not isinstance(self.options, Rules):
            raise LogFormatError("options must be Rules")
        if self.order is not None and not isinstance(self.order, tuple):
            raise LogFormatError("order must be a tuple of tile letters")
        try:
            self.setup().validate()
        except SetupError as exc:
            raise LogFormatError(f"the header's setup cannot start: {exc}") from None

    @classmethod
    def new(
        cls,
        seats: Sequence[Seat],
        *,
        seed: int | None = None,
        order: Sequence[str] | None = None,
        options: Rules | None = None,
        created: int | None = None,
        game: str | None = None,
    ) -> LogHeader:
        """A header for a new game: a fresh game id and the current time unless given, and the setup
        digest computed by the engine. Give exactly one of *seed* and *order*.

        >>> h = LogHeader.new([Seat("Ann", "red"), Seat("Bot", "blue", "bot", "random")], order=("E",))
        >>> h.setup().players, len(h.game), len(h.digest)
        (2, 32, 32)

        Raises:
            LogFormatError: As for the constructor.
        """
        rules = options if options is not None else Rules()
        draw = tuple(order) if order is not None else None
        setup = GameSetup(players=len(seats), seed=seed, draw_order=draw, rules=rules)
        try:
            digest = Game(setup).digests[0]
        except SetupError as exc:
            raise LogFormatError(f"the header's setup cannot start: {exc}") from None
        return cls(
            game=game if game is not None else uuid.uuid4().hex,
            created=created if created is not None else int(time.time()),
            seats=tuple(seats),
            digest=digest,
            options=rules,
            seed=seed,
            order=draw,
        )

    def setup(self) -> GameSetup:
        """The engine setup this header describes (players = number of seats)."""
        return GameSetup(players=len(self.seats), seed=self.seed, draw_order=self.order, rules=self.options)


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One move of the game, with its author and the state digest after it (``protocol/log.md`` §6).

    Attributes:
        seq: Sequence number: 1 for the first move, then one more per entry. It is also the entry's
            index in ``Game.moves`` plus one and in ``Game.digests``.
        seat: The seat that made the move (0-based); on replay it must be the seat whose turn it is.
        move: The move, exactly as the engine takes it.
        digest: ``Game.digests[seq]`` after the move (32 bytes). Each digest hashes the previous one,
            so it chains the entry to the setup and to every earlier move (``protocol/digest.md`` §4).

    Raises:
        LogFormatError: A field is out of range.
    """

    seq: int
    seat: int
    move: Move
    digest: bytes

    def __post_init__(self) -> None:
        if not _is_int(self.seq) or not 1 <= self.seq < 2**32:
            raise LogFormatError(f"entry seq must be an integer from 1, got {self.seq!r}")
        if not _is_int(self.seat) or not 0 <= self.seat < 6:
            raise LogFormatError(f"entry seat must be an integer 0 to 5, got {self.seat!r}")
        if not isinstance(self.move, _MOVE_TYPES):
            raise LogFormatError(f"entry move must be a move, got {self.move!r}")
        if not isinstance(self.digest, bytes) or len(self.digest) != DIGEST_SIZE:
            raise LogFormatError(f"entry digest must be {DIGEST_SIZE} bytes")
