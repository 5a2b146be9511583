"""Pinned games and tile sets: the safety net of the expansion-hook migration
(``docs/expansion-hook-plan.md`` §9, step 0).

For every combination of rule options the engine played when the pins were recorded (every rules
version 2 to 4, and every ``Rules`` value that ``Rules.problem()`` and ``GameSetup.validate()``
accept under it), :data:`GAMES` seeded games are played to the end and hashed move by move
(:func:`game_hash`). ``pins.json`` holds one SHA-256 hex digest per game, and one per tile set
(:func:`tileset_hash`). A refactor of the engine must leave every one of them unchanged.

The combinations: ``river_start`` is only varied with The River (without it the option is ignored:
the setup's canonical text and the tile set leave it out), so a version has
4 (no river, or the river with each start) × 2 (abbot) × 2 (small cities) × 3 (farms) = 48
combinations, times 4 (inns, traders) under rules 4, where the two expansions are played:
48 + 48 + 192 = 288.

Recording::

    .venv/bin/python -m tests.engine.test_pins --record

rewrites ``pins.json`` from the code as it is. Run it ONLY on the code before a refactor (the pins
were recorded from the engine of ``1f1bf21``), NEVER during or after one to make this test pass:
a pin that changes is a behaviour that changed. Add pins (a new combination, a new rules version)
in a step of their own, on a commit whose existing pins still pass.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from carcnet.bots import make_bot
from carcnet.engine import Figure, Game, GameSetup, Phase, PlayerView, Rules
from carcnet.engine.expansions import traders
from carcnet.engine.errors import SetupError
from carcnet.engine.tiles import tileset

PINS = Path(__file__).with_name("pins.json")

#: The option values pinned, written out (not read from the engine, which may move them): the rules
#: versions, the river's start options and the farm rules of the engine at 1f1bf21.
VERSIONS = (2, 3, 4)
RIVER_STARTS = ("after", "river", "omit")
FARMS = ("farm", "city", "off")

#: The games played for each combination, as (bot, seed base, players base, tiles): the combination's
#: i-th game has seed ``seed base + i`` and ``2 + (players base + i) % 5`` players (so every player count
#: plays every expansion somewhere), seat j's bot is seeded ``seed * 10 + j``. A full game draws the
#: seed's whole pile; ``tiles`` set plays only the first that many tiles of the seed's draw order
#: (``GameSetup.draw_order``), to keep the greedy bot's games (about 2 ms a turn) inside the time
#: budget while still reaching the final scoring of a board full of open features. Random bots reach
#: every kind of move (farmers, recalls, pigs, builders); greedy plays like a player (completes features).
GAMES = (("random", 1000, 0, None), ("greedy", 2000, 2, 30))
#: Every how many moves the queries of a position (held features, projected final scoring) are hashed
#: too, besides after the last move.
QUERY_EVERY = 8


class Combination(NamedTuple):
    """A rules version and the rule options played under it."""

    version: int
    rules: Rules

    @property
    def name(self) -> str:
        """Readable and unique, e.g. ``rules4 river=after abbot small-city farms=city inns traders``."""
        r = self.rules
        parts = [f"rules{self.version}"]
        parts.append(f"river={r.river_start}" if r.river else "no-river")
        parts += [word for word, on in (("abbot", r.abbot), ("small-city", r.small_city)) if on]
        parts.append(f"farms={r.farms}")
        parts += [word for word, on in (("inns", r.inns), ("traders", r.traders)) if on]
        return " ".join(parts)


def combinations() -> Iterator[Combination]:
    """Every combination pinned, in a fixed order; only those the engine accepts."""
    rivers = [(False, "after")] + [(True, start) for start in RIVER_STARTS]
    for version, (river, start), abbot, small_city, farms, inns, traders in itertools.product(
        VERSIONS, rivers, (False, True), (False, True), FARMS, (False, True), (False, True)
    ):
        rules = Rules(river=river, river_start=start, abbot=abbot, small_city=small_city, farms=farms, inns=inns,
                      traders=traders)
        if rules.problem() is not None:
            continue
        try:
            GameSetup(players=2, seed=0, rules=rules, rules_version=version).validate()
        except SetupError:
            continue
        yield Combination(version, rules)


def supplies(game: Game) -> tuple[Any, ...]:
    """Every figure's supply per seat, and the goods, as the pins were recorded: meeples, abbots,
    large meeples, pigs, builders (0 each for a figure not in play), then the goods or ``None``."""
    none = [0] * game.players
    figures = (Figure.ABBOT, Figure.LARGE, Figure.PIG, Figure.BUILDER)
    return game.supply, *(game.supplies.get(figure) or none for figure in figures), traders.goods(game)


def _queries(game: Game) -> str:
    return f"held {game.held_features()!r}\nfinal {game.projected_final()!r}\n"


class PinnedGame(NamedTuple):
    """One pinned game: a combination, the bot every seat plays, the seed, the players, and the
    tiles drawn (``None``: the seed's whole pile)."""

    combination: Combination
    bot: str
    seed: int
    players: int
    tiles: int | None

    @property
    def name(self) -> str:
        """The key in ``pins.json``, e.g. ``rules4 no-river farms=farm inns | random seed=1003 players=5``."""
        cut = f" tiles={self.tiles}" if self.tiles is not None else ""
        return f"{self.combination.name} | {self.bot} seed={self.seed} players={self.players}{cut}"

    def setup(self) -> GameSetup:
        c = self.combination
        setup = GameSetup(players=self.players, seed=self.seed, rules=c.rules, rules_version=c.version)
        if self.tiles is None:
            return setup
        return GameSetup(players=self.players, draw_order=setup.deck()[: self.tiles], rules=c.rules,
                         rules_version=c.version)


def pinned_games() -> Iterator[PinnedGame]:
    """Every pinned game, combination by combination, in a fixed order."""
    for i, combination in enumerate(combinations()):
        for bot, seed, players, tiles in GAMES:
            yield PinnedGame(combination, bot, seed + i, 2 + (players + i) % 5, tiles)


def game_hash(pin: PinnedGame) -> str:
    """Plays one seeded game to its end; the SHA-256 hex digest of, after every move: the move, the
    events it produced, the legal moves then (sorted, as text), the scores, every figure's supply and
    the state digest; every :data:`QUERY_EVERY` moves and at the end the held features and the
    projected final scoring."""
    setup = pin.setup()
    game = Game(setup)
    bots = [make_bot(pin.bot, pin.seed * 10 + i) for i in range(pin.players)]
    h = hashlib.sha256()
    h.update(f"{setup.canonical()}{sorted(map(str, game.legal_moves()))}\n{game.digest.hex()}\n".encode())
    count = 0
    while game.phase is not Phase.GAME_OVER:
        move = bots[game.seat].choose(PlayerView.of(game))
        events = game.apply(move)
        count += 1
        text = (f"{move}\n{events!r}\n{sorted(map(str, game.legal_moves()))}\n{game.scores}\n{supplies(game)}\n"
                f"{game.digest.hex()}\n")
        if count % QUERY_EVERY == 0:
            text += _queries(game)
        h.update(text.encode())
    h.update(f"end {count}\n{_queries(game)}".encode())
    return h.hexdigest()


def all_game_hashes() -> dict[str, str]:
    return {pin.name: game_hash(pin) for pin in pinned_games()}


def tileset_combinations() -> Iterator[tuple[str, dict[str, Any]]]:
    """Every combination of ``tileset``'s options (river_start varied with and without the river)."""
    for river, start, abbot, inns, traders in itertools.product(
        (False, True), RIVER_STARTS, (False, True), (False, True), (False, True)
    ):
        options = {"river": river, "river_start": start, "abbot": abbot, "inns": inns, "traders": traders}
        yield " ".join(f"{k}={v}" for k, v in options.items()), options


def tileset_hash(options: dict[str, Any]) -> str:
    """The tile set as canonical text (start tile, then each group's ids and counts, sorted by id),
    hashed."""
    start, groups = tileset(**options)
    text = f"start {start}\n" + "".join(
        "group " + " ".join(f"{letter}:{count}" for letter, count in sorted(group.items())) + "\n" for group in groups
    )
    return hashlib.sha256(text.encode()).hexdigest()


def all_tileset_hashes() -> dict[str, str]:
    return {name: tileset_hash(options) for name, options in tileset_combinations()}


def _load() -> dict[str, Any]:
    return json.loads(PINS.read_text())


def _first_difference(pinned: dict[str, str], now: dict[str, str]) -> str | None:
    """A message naming the first entry (in pinned order) that differs, and how many do; ``None``
    when all are equal."""
    missing = [k for k in pinned if k not in now]
    extra = [k for k in now if k not in pinned]
    differ = [k for k in pinned if k in now and pinned[k] != now[k]]
    if not (missing or extra or differ):
        return None
    lines = []
    if differ:
        lines.append(f"{len(differ)} of {len(pinned)} pins differ; the first: {differ[0]!r}")
        lines += [f"  also: {k!r}" for k in differ[1:6]] + (["  ..."] if len(differ) > 6 else [])
    if missing:
        lines.append(f"{len(missing)} pinned entries no longer played; the first: {missing[0]!r}")
    if extra:
        lines.append(f"{len(extra)} entries not pinned; the first: {extra[0]!r}")
    return "\n".join(lines)


def test_combinations_cover_what_the_engine_plays() -> None:
    """288 combinations; none refused by the engine (the pins would not be recorded)."""
    combos = list(combinations())
    assert len(combos) == 48 + 48 + 192
    assert len({c.name for c in combos}) == len(combos)


def test_game_pins() -> None:
    """Every pinned game plays the same, move by move. A failure names the first combination that
    differs: the behaviour changed there (do not re-record: see the module's docstring)."""
    problem = _first_difference(_load()["games"], all_game_hashes())
    assert problem is None, problem


def test_tileset_pins() -> None:
    """``tileset`` gives the same tiles for every combination of its options."""
    problem = _first_difference(_load()["tilesets"], all_tileset_hashes())
    assert problem is None, problem


# The pins can fail: a change the hash must see, made by patching (the engine is not edited).


def test_a_changed_move_is_detected(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot that plays differently once changes the game's hash, and the message names it."""
    pin = next(p for p in pinned_games() if p.combination.version == 4 and p.combination.rules.traders
               and p.combination.rules.abbot and p.bot == "random")
    name = pin.name
    before = game_hash(pin)
    assert _load()["games"][name] == before
    from carcnet.bots import random_bot

    real = random_bot.random_move
    calls = [0]

    def once_different(game: Game, rng: Any) -> Any:
        calls[0] += 1
        if calls[0] >= 40 and game.phase is Phase.DEPLOY and calls[0] < 10**6:
            calls[0] = 10**6  # once: a skip at the first deploy from the 40th move on, the rng not advanced
            return game.legal_moves()[-1]
        return real(game, rng)

    monkeypatch.setattr(random_bot, "random_move", once_different)
    after = game_hash(pin)
    assert after != before
    problem = _first_difference({"a": "0", name: before}, {"a": "0", name: after})
    assert problem is not None and repr(name) in problem


def test_a_changed_supply_or_query_is_detected(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the moves and the digest alone would not show is hashed too: every figure's supply, the
    held features, the projected final scoring."""
    pin = next(pinned_games())
    before = game_hash(pin)
    monkeypatch.setattr(sys.modules[__name__], "supplies", lambda game: (game.supply, game.supply_of(Figure.ABBOT)))
    assert game_hash(pin) != before
    monkeypatch.undo()
    monkeypatch.setattr(Game, "held_features", lambda self: [])
    assert game_hash(pin) != before
    monkeypatch.undo()
    monkeypatch.setattr(Game, "projected_final", lambda self: (list(self.scores), []))
    assert game_hash(pin) != before


def test_a_changed_tileset_is_detected(monkeypatch: pytest.MonkeyPatch) -> None:
    from carcnet.engine import tiles

    real = tiles.base_tile_counts

    def one_more() -> dict[str, int]:
        counts = real()
        counts["A"] += 1
        return counts

    monkeypatch.setattr(tiles, "base_tile_counts", one_more)
    problem = _first_difference(_load()["tilesets"], all_tileset_hashes())
    assert problem is not None and problem.startswith("48 of 48 pins differ; the first: 'river=False")


def _record() -> None:
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                cwd=PINS.parent, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    data = {
        "comment": "Recorded by `python -m tests.engine.test_pins --record` on the code before the expansion-hook "
                   "refactor; never re-record during it (tests/engine/test_pins.py).",
        "recorded_at": commit,
        "games": all_game_hashes(),
        "tilesets": all_tileset_hashes(),
    }
    PINS.write_text(json.dumps(data, indent=1) + "\n")
    print(f"recorded {len(data['games'])} games and {len(data['tilesets'])} tile sets in {PINS} (at {commit})")


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python -m tests.engine.test_pins --record   (only on the code BEFORE a refactor)")
    _record()
