"""Provides the log's records as values: the :class:`LogHeader` (with its :class:`Seat` list) and one
:class:`LogEntry` per move (``protocol/log.md`` §5–6).

A header of format 2 may also hold the seat keys of a LAN game and the commit–reveal that chose its
seed; an entry of format 2 may hold its seat's signature. Whether a signature verifies is checked on
replay, like the rest of what depends on the game.

The values check themselves when built, so a :class:`LogHeader` or :class:`LogEntry` that exists is
well formed; :mod:`carcnet.log.codec` turns them into msgpack maps and back. Whether an entry fits the
game (its seat, its move, its digest) is checked by replaying it (:func:`carcnet.log.store.load`).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field

from carcnet.engine import (
    DeployMeeple,
    DrawTile,
    Flock,
    Game,
    GameSetup,
    HandBack,
    HandOver,
    Move,
    MoveDragon,
    MoveFairy,
    PlaceTile,
    RemoveKnight,
    ReturnAbbot,
    SecondTile,
    RULES_VERSION,
    SUPPORTED_RULES,
    Rules,
    SetupError,
    SkipMeeple,
    TableDraws,
)

from .errors import LogFormatError, LogKeysError
from .seeding import NONCE_SIZE, commitment, derive_seed
from .values import COLOURS, DIGEST_SIZE, KEY_SIZE, MAX_NAME, SIG_SIZE, is_game_id, name_problem

__all__ = [
    "COLOURS",
    "DEFAULT_FORMAT",
    "DIGEST_SIZE",
    "FORMAT_VERSION",
    "KEY_SIZE",
    "MAX_NAME",
    "PLAYER_KINDS",
    "READ_FORMATS",
    "SIG_SIZE",
    "TABLE_FORMAT",
    "LogEntry",
    "LogHeader",
    "Seat",
]

#: The newest log format this code reads and writes (``protocol/log.md`` §7). A new file is written
#: in the lowest format that holds its game: 3 for table draws (:data:`TABLE_FORMAT`), else 2.
FORMAT_VERSION = 3
#: The format a new game is written in unless its draws come from the table.
DEFAULT_FORMAT = 2
#: The format that adds table draws (``protocol/deck.md`` §5): chain roots in ``commits`` without
#: ``nonces``, and ``draw`` entries.
TABLE_FORMAT = 3
#: The log formats this code reads, each by its own rules; it appends to a file in the file's format.
READ_FORMATS = (1, 2, 3)
#: Who plays a seat.
PLAYER_KINDS = ("human", "bot")
_MOVE_TYPES = (PlaceTile, DeployMeeple, SkipMeeple, ReturnAbbot, SecondTile, Flock, MoveDragon, RemoveKnight,
               MoveFairy, HandOver, HandBack, DrawTile)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_bins(what: str, values: object, size: int) -> None:
    if not isinstance(values, tuple) or not all(isinstance(v, bytes) and len(v) == size for v in values):
        raise LogFormatError(f"{what} must be a tuple of {size}-byte values")


def _check_text(what: str, value: object) -> None:
    problem = name_problem(value)
    if problem:
        raise LogFormatError(f"{what} {problem}, got {value!r}")


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat at the table, in seat order (seat 0 plays first).

    Attributes:
        name: What the table calls the player: 1 to 32 characters, no control or invisible format
            characters (``carcnet.log.values.name_problem``).
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

    A header belongs to one of :data:`READ_FORMATS` (its *format*; new headers are
    :data:`FORMAT_VERSION`) and to one of the rules versions the engine plays (its *rules*,
    ``SUPPORTED_RULES``; new headers are the engine's ``RULES_VERSION``): a header of another version
    is refused while decoding, never built.

    A LAN game's header (format 2) records the seat keys that sign its entries and, when the seed
    was agreed by commit–reveal, each seat's commitment and nonce (``protocol/wire.md`` §4.2, §5.3).
    A LAN game whose draws come from the table (format 3, ``protocol/deck.md`` §5) has neither seed
    nor order: its ``commits`` are the seats' chain roots, without nonces (:attr:`draws`). A local
    game has none of them.

    Attributes:
        game: Game id, 32 lowercase hex digits (a UUID4 without dashes).
        created: When the game was created, whole seconds since 1970-01-01 UTC.
        seats: 2 to 6 seats in seat order; the number of players is their number.
        digest: The engine's state digest after the setup (``Game(setup).digests[0]``, 32 bytes):
            a reader whose engine computes another one refuses the log.
        options: Rule options.
        seed: The deck seed in ``[0, 2**64)`` (``protocol/deck.md``), or ``None`` with *order* or
            table draws.
        order: An explicit draw order (start tile excluded) as design letters, or ``None``.
        keys: Each seat's 32-byte Ed25519 public key, in seat order, pairwise distinct; every entry
            is then signed by its seat's key. ``None`` for an unsigned (local) game.
        commits: Each seat's commitment in seat order, pairwise distinct, only with *keys*: with
            *nonces*, ``SHA-256(nonce)`` of the seed's commit–reveal; without them (format 3), the
            root of the seat's hash chain for table draws; ``None`` otherwise.
        nonces: Each seat's revealed 32-byte nonce, or ``None``. With them, *seed* is the seed the
            nonces give (:func:`~carcnet.log.seeding.derive_seed`).
        format: The log format the header (and its file) is written in: 1 (no keys, no
            signatures), 2, or 3 (table draws).
        rules: The rules version the game is played under (``protocol/log.md`` §7): the engine's
            ``RULES_VERSION`` for a new game, an older one of ``SUPPORTED_RULES`` for a game saved
            by an older carcnet, which is replayed and goes on under its own rules.

    Raises:
        LogFormatError: A field is out of range or the setup cannot start (the engine's
            ``SetupError`` message is kept).
        LogKeysError: The keys, commitments, nonces and seed disagree (a :class:`LogFormatError`).
    """

    game: str
    created: int
    seats: tuple[Seat, ...]
    digest: bytes
    options: Rules = field(default_factory=Rules)
    seed: int | None = None
    order: tuple[str, ...] | None = None
    keys: tuple[bytes, ...] | None = None
    commits: tuple[bytes, ...] | None = None
    nonces: tuple[bytes, ...] | None = None
    format: int = DEFAULT_FORMAT
    rules: int = RULES_VERSION
    tokens: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if not _is_int(self.format) or self.format not in READ_FORMATS:
            raise LogFormatError(f"format must be one of {READ_FORMATS}, got {self.format!r}")
        if not _is_int(self.rules) or self.rules not in SUPPORTED_RULES:
            raise LogFormatError(f"rules must be one of {SUPPORTED_RULES}, got {self.rules!r}")
        if not is_game_id(self.game):
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
        if self.tokens is not None and not isinstance(self.tokens, tuple):
            raise LogFormatError("tokens must be a tuple of sheep bag tokens")
        self._check_keys()  # first: keys, commitments and nonces that disagree are LogKeysError
        try:
            self.setup().validate()
        except SetupError as exc:
            raise LogFormatError(f"the header's setup cannot start: {exc}") from None

    def _check_keys(self) -> None:
        """``protocol/log.md`` §5: keys, commits and nonces, one per seat, and the seed they give."""
        if self.keys is None and self.commits is None and self.nonces is None:
            return
        if self.format < 2:
            raise LogFormatError("log format 1 has no seat keys, commitments or nonces: they need format 2")
        n = len(self.seats)
        for name, values in (("keys", self.keys), ("commits", self.commits), ("nonces", self.nonces)):
            if values is None:
                continue
            _check_bins(f"the header's {name}", values, KEY_SIZE if name == "keys" else NONCE_SIZE)
            if len(values) != n:
                raise LogKeysError(f"the header has {n} seats but {len(values)} {name}")
        if self.keys is None:
            raise LogKeysError("commitments and nonces come with the seat keys that committed them")
        if len(set(self.keys)) != n:
            raise LogKeysError("two seats have the same key")
        if self.nonces is not None and self.commits is None:
            raise LogKeysError("commits and nonces are both nil or both given")
        if self.commits is None:
            return
        if len(set(self.commits)) != n:
            raise LogKeysError("two seats have the same commitment")
        if self.nonces is None:
            if self.format < TABLE_FORMAT:
                raise LogKeysError(f"commits and nonces are both nil or both given (log format {self.format})")
            if self.seed is not None or self.order is not None:
                raise LogKeysError("a game with table draws (chain roots, no nonces) has neither seed nor order")
            return
        for i, (commit, nonce) in enumerate(zip(self.commits, self.nonces, strict=True)):
            if commitment(nonce) != commit:
                raise LogKeysError(f"the nonce of seat {i} does not match its commitment")
        seed = derive_seed(self.nonces)
        if self.seed != seed:
            raise LogKeysError(f"the header's seed {self.seed} is not the nonces' seed {seed}")

    @property
    def draws(self) -> TableDraws | None:
        """The table draws of this game (``protocol/deck.md`` §5): its id and the seats' chain roots
        (the ``commits`` of a header without nonces), or ``None`` for a seeded or ordered game."""
        if self.commits is None or self.nonces is not None or self.seed is not None or self.order is not None:
            return None
        return TableDraws(self.game, self.commits)

    @property
    def signed(self) -> bool:
        """Whether the game's entries are signed (the header has seat keys)."""
        return self.keys is not None

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
        keys: Sequence[bytes] | None = None,
        nonces: Sequence[bytes] | None = None,
        commits: Sequence[bytes] | None = None,
        rules: int = RULES_VERSION,
        tokens: Sequence[str] | None = None,
    ) -> LogHeader:
        """A header for a new game, in :data:`FORMAT_VERSION`: a fresh game id and the current time
        unless given, and the setup digest computed by the engine. Give exactly one of *seed* and
        *order*, or *nonces* instead of both (the seed is then the nonces' seed, and *commits*
        default to the nonces' commitments), or *commits* alone with *keys*: the seats' chain roots
        of table draws (``protocol/deck.md`` §5; then *game* is needed, the chains being bound to
        it, and the header is in :data:`TABLE_FORMAT`). Otherwise the format is
        :data:`DEFAULT_FORMAT`. *rules*: the rules version to play under, the engine's
        ``RULES_VERSION`` unless an older one of ``SUPPORTED_RULES`` is asked for (a test's file of
        an older carcnet).

        >>> h = LogHeader.new([Seat("Ann", "red"), Seat("Bot", "blue", "bot", "random")], order=("E",))
        >>> h.setup().players, len(h.game), len(h.digest), h.format, h.signed
        (2, 32, 32, 2, False)

        Raises:
            LogFormatError: As for the constructor.
        """
        version = rules
        rules = options if options is not None else Rules()
        draw = tuple(order) if order is not None else None
        revealed = tuple(nonces) if nonces is not None else None
        if revealed is not None:
            try:
                if seed is None and draw is None:
                    seed = derive_seed(revealed)
                if commits is None:
                    commits = tuple(commitment(n) for n in revealed)
            except ValueError as exc:
                raise LogFormatError(f"the header's nonces: {exc}") from None
        table = None
        game_id = game if game is not None else uuid.uuid4().hex
        if commits is not None and revealed is None and seed is None and draw is None:
            if game is None:
                raise LogFormatError("table draws are bound to their game id: give it")
            table = TableDraws(game_id, tuple(commits))
        given = tuple(tokens) if tokens is not None else None
        setup = GameSetup(players=len(seats), seed=seed, draw_order=draw, rules=rules, draws=table, rules_version=version,
                          tokens=given)
        try:
            digest = Game(setup).digests[0]
        except SetupError as exc:
            raise LogFormatError(f"the header's setup cannot start: {exc}") from None
        return cls(
            game=game_id,
            created=created if created is not None else int(time.time()),
            seats=tuple(seats),
            digest=digest,
            options=rules,
            seed=seed,
            order=draw,
            keys=tuple(keys) if keys is not None else None,
            commits=tuple(commits) if commits is not None else None,
            nonces=revealed,
            format=TABLE_FORMAT if table is not None else DEFAULT_FORMAT,
            rules=version,
            tokens=given,
        )

    def setup(self) -> GameSetup:
        """The engine setup this header describes (players = number of seats)."""
        return GameSetup(
            players=len(self.seats), seed=self.seed, draw_order=self.order, rules=self.options, draws=self.draws,
            rules_version=self.rules, tokens=self.tokens,
        )


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
        sig: The 64-byte Ed25519 signature of the seat's key over
            :func:`~carcnet.log.signatures.entry_bytes` in a game whose header has keys; ``None`` in
            an unsigned game (and always in log format 1).

    Raises:
        LogFormatError: A field is out of range.
    """

    seq: int
    seat: int
    move: Move
    digest: bytes
    sig: bytes | None = None

    def __post_init__(self) -> None:
        if not _is_int(self.seq) or not 1 <= self.seq < 2**32:
            raise LogFormatError(f"entry seq must be an integer from 1, got {self.seq!r}")
        if not _is_int(self.seat) or not 0 <= self.seat < 6:
            raise LogFormatError(f"entry seat must be an integer 0 to 5, got {self.seat!r}")
        if not isinstance(self.move, _MOVE_TYPES):
            raise LogFormatError(f"entry move must be a move, got {self.move!r}")
        if not isinstance(self.digest, bytes) or len(self.digest) != DIGEST_SIZE:
            raise LogFormatError(f"entry digest must be {DIGEST_SIZE} bytes")
        if self.sig is not None and (not isinstance(self.sig, bytes) or len(self.sig) != SIG_SIZE):
            raise LogFormatError(f"entry sig must be {SIG_SIZE} bytes or None")
