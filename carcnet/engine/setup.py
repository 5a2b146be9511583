"""Provides :class:`GameSetup`: everything a game starts from (seats, where the tiles come from, the
rules and their version), its checks, its draw order and its canonical text, the first input of the
state digest (``protocol/digest.md`` §2); and the hook table of its rules
(:meth:`GameSetup.hooks`, ``docs/architecture.md`` "Expansions")."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import deck as _deck
from .draws import TableDraws
from .errors import SetupError
from .expansion import Hooks
from .expansions import hooks_for
from .rules import RULES_VERSION, SUPPORTED_RULES, Rules
from .tiles import tile_kind

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "GameSetup"]

MIN_PLAYERS = 2
MAX_PLAYERS = 6


@dataclass(frozen=True, slots=True)
class GameSetup:
    """Everything a game starts from. Give exactly one of *seed*, *draw_order* and *table*: where
    the tiles come from.

    Attributes:
        players: Number of seats, 2 to 6. Seat 0 plays first, then clockwise (seat order).
        seed: Integer in ``[0, 2**64)``; the draw order is shuffled from it (``protocol/deck.md`` §1–4).
        draw_order: The tiles after the start tile, in drawing order, as design letters: for tests,
            tutorials and reproducing a real game. Any known designs, in any number.
        draws: The draws are made one at a time by the players together, from their hash chains
            (``protocol/deck.md`` §5): no order exists before each draw. The game waits in
            ``Phase.DRAW`` for a :class:`~carcnet.engine.moves.DrawTile` before each tile.
        rules: Rule options.
        rules_version: The rules version the game is played under, one of :data:`SUPPORTED_RULES`
            (:data:`RULES_VERSION` for a new game; a saved game's own). In the digest's setup text.
        tokens: With Hills & Sheep and a given *draw_order* only: the tokens the sheep bag gives, in
            order (``"1"`` to ``"4"`` sheep, ``"W"`` a wolf), for tests and lessons; past them, or
            without them, the bag is drawn as in a game of seed 0 (``protocol/deck.md`` §7). In the
            digest's setup text; a saved game cannot hold them.
    """

    players: int
    seed: int | None = None
    draw_order: tuple[str, ...] | None = None
    rules: Rules = field(default_factory=Rules)
    draws: TableDraws | None = None
    rules_version: int = RULES_VERSION
    tokens: tuple[str, ...] | None = None

    def deck(self) -> tuple[str, ...]:
        """The draw order this setup gives (start tile excluded); empty for table draws, whose
        order does not exist before the draws. Raises ``SetupError`` when invalid."""
        self.validate()
        if self.draw_order is not None:
            return tuple(self.draw_order)
        if self.draws is not None:
            return ()
        assert self.seed is not None
        _start, groups = self.tiles()
        shuffled = _deck.shuffled_groups(self.seed, [_deck.canonical_group(g) for g in groups])
        return tuple(tile for group in shuffled for tile in group)

    def tiles(self) -> tuple[str, list[dict[str, int]]]:
        """The start tile and the groups of the draw pile (:func:`carcnet.engine.tiles.tileset`)."""
        return self.rules.tileset()

    @property
    def start_tile(self) -> str:
        """The tile placed at (0, 0) before the first turn: D, or the spring with The River."""
        return self.rules.start_tile

    def validate(self) -> None:
        """Raises ``SetupError`` naming the problem when the setup cannot start."""
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise SetupError(f"players must be an integer, got {self.players!r}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise SetupError(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {self.players}")
        if not isinstance(self.rules, Rules):
            raise SetupError("rules must be a Rules")
        if type(self.rules_version) is not int or self.rules_version not in SUPPORTED_RULES:
            raise SetupError(f"rules version {self.rules_version!r} is not one this engine plays {SUPPORTED_RULES}")
        problem = self.rules.problem()
        if problem is not None:
            raise SetupError(problem)
        problem = self.rules.version_problem(self.rules_version)
        if problem is not None:
            raise SetupError(problem)
        if (self.seed is not None) + (self.draw_order is not None) + (self.draws is not None) != 1:
            raise SetupError("give exactly one of seed, draw_order and table")
        if self.draws is not None:
            problem = self.draws.problem(self.players) if isinstance(self.draws, TableDraws) else "not TableDraws"
            if problem is not None:
                raise SetupError(f"table draws: {problem}")
        if self.seed is not None:
            if isinstance(self.seed, bool) or not isinstance(self.seed, int) or not 0 <= self.seed < _deck.SEED_LIMIT:
                raise SetupError(f"seed must be an integer in [0, 2**64), got {self.seed!r}")
        if self.tokens is not None:
            kinds = set(self.hooks().tokens)
            if self.draw_order is None or not kinds:
                raise SetupError("tokens go with a given draw order of a game with an expansion's bag of tokens")
            if not isinstance(self.tokens, tuple) or not all(t in kinds for t in self.tokens):
                raise SetupError(f"tokens must be a tuple of {', '.join(sorted(kinds))}, got {self.tokens!r}"[:200])
        if self.draw_order is not None:
            for i, letter in enumerate(self.draw_order):
                try:
                    kind = tile_kind(letter)
                except (KeyError, TypeError):
                    raise SetupError(f"draw_order[{i}] = {letter!r} is not a tile design") from None
                for expansion in kind.expansion.split("+"):
                    if not self.rules.plays(expansion):
                        raise SetupError(f"draw_order[{i}] = {letter!r} needs {expansion}, which is off")

    def canonical(self) -> str:
        """The setup as canonical text, the first input of the state digest (``protocol/digest.md``)."""
        if self.draws is not None:
            source = self.draws.text()
        elif self.seed is not None:
            source = f"seed {self.seed}"
        else:
            source = "order " + " ".join(self.draw_order or ())
            if self.tokens is not None:
                source += "\ntokens " + " ".join(self.tokens)
        return f"carcnet/state/v1\nrules {self.rules_version} {self.rules.words()}\nplayers {self.players}\n{source}\n"

    def hooks(self) -> Hooks:
        """The hook table of this setup's rules and rules version: what the game calls of the
        expansions in play (:func:`~carcnet.engine.expansions.hooks_for`, made once per rules)."""
        return hooks_for(self.rules, self.rules_version)
