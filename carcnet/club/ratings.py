"""A rating per player, from signed game logs that verify and from nothing else (issue 34).

The model is OpenSkill's Plackett-Luce (the ``openskill`` package; Weng and Lin, "A Bayesian
Approximation Method for Online Ranking", JMLR 12, 2011): each player's skill is a normal
distribution (*mu*, *sigma*), 25 and 25/3 at first; a game of 2 to 6 seats, ranked by its final
scores (equal scores share a rank), moves each seat's *mu* by how much better or worse it did than
the others' ratings expected, and narrows its *sigma*. A well-kept library for multiplayer games,
as the issue asks: nothing of the model is carcnet's own.

Shown on an Elo-like scale (:func:`display`): 1500 at the model's start and :data:`ELO_PER_MU`
points per unit of *mu*, the factor at which the model's chance that one player beats another (the
library's ``predict_win`` for two players with a small *sigma*: Φ(Δmu / (√2 β))) equals Elo's for
400 points: 10 to 1.

A player is its identity key in hex (a person's seat key is its identity key, wire.md §3.1); a bot
seat is ``bot:<level>`` (``bot:hard``), so every bot of a level shares one rating, that of the level.
A game counts once (by its game id), and only from a log that :func:`carcnet.log.store.load` reads
whole with every signature checked, that is signed (a table's log: seat keys in its header), and
whose game is over; anything else is reported and changes nothing.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import NormalDist

from openskill.models import PlackettLuce

from carcnet.engine import Phase
from carcnet.log.errors import LogError
from carcnet.log.store import LoadedLog, load

__all__ = ["ELO_PER_MU", "RATINGS_FILE", "Rating", "Ratings", "count_game", "display", "players_of"]

#: The ratings file's name in the user data folder.
RATINGS_FILE = "ratings.json"

_MODEL = PlackettLuce()

#: Elo-like points per unit of *mu*: 400 / (Φ⁻¹(10/11) √2 β), β the model's performance spread (25/6):
#: about 50.8.
ELO_PER_MU = 400 / (NormalDist().inv_cdf(10 / 11) * math.sqrt(2) * _MODEL.beta)

#: The file format's version (a file of another is refused, not guessed at).
FORMAT = 1


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating.

    Attributes:
        mu: The skill's mean (the model's units; 25 at first).
        sigma: Its spread (25/3 at first): the rating is *mu* ± 2 *sigma* with 95 % confidence.
        games: The games it was updated from.
    """

    mu: float = _MODEL.mu
    sigma: float = _MODEL.sigma
    games: int = 0


def display(rating: Rating) -> tuple[int, int]:
    """``(rating, spread)`` on the Elo-like scale: 1500 + :data:`ELO_PER_MU` × (*mu* - 25), and 2
    *sigma* in the same points (a 95 % interval)."""
    return round(1500 + ELO_PER_MU * (rating.mu - _MODEL.mu)), round(2 * ELO_PER_MU * rating.sigma)


def players_of(loaded: LoadedLog) -> list[str]:
    """The player ids of a log's seats, in seat order: ``bot:<level>`` for a bot seat (the header's
    level, ``bot:greedy`` when it names none), else the seat's key in hex."""
    header = loaded.header
    out = []
    for seat, key in zip(header.seats, header.keys or (), strict=False):
        out.append(f"bot:{seat.bot or 'greedy'}" if seat.player == "bot" else key.hex())
    return out


@dataclass
class Ratings:
    """Every player's rating and the games they were computed from.

    Attributes:
        players: Player id → :class:`Rating` (players never rated are absent: :meth:`get`).
        games: The game ids already counted (a game counts once, whichever laptop's copy comes).
    """

    players: dict[str, Rating] = field(default_factory=dict)
    games: set[str] = field(default_factory=set)

    def get(self, player: str) -> Rating:
        """*player*'s rating, the model's start for a player never rated."""
        return self.players.get(player, Rating())

    def rate(self, game_id: str, players: Sequence[str], scores: Sequence[int]) -> bool:
        """Counts one finished game: *players* (ids, seat order) and their final *scores*. Returns
        ``False`` (nothing changes) when *game_id* was counted already.

        Raises:
            ValueError: Fewer than two seats, a player twice, or scores that do not match.
        """
        if len(players) < 2 or len(set(players)) != len(players) or len(scores) != len(players):
            raise ValueError(f"a rated game has 2 or more different players, one score each: {players} {scores}")
        if game_id in self.games:
            return False
        before = [self.get(p) for p in players]
        teams = [[_MODEL.create_rating([r.mu, r.sigma], name=p)] for p, r in zip(players, before, strict=True)]
        after = _MODEL.rate(teams, scores=[float(s) for s in scores])
        for p, r, (new,) in zip(players, before, after, strict=True):
            self.players[p] = Rating(new.mu, new.sigma, r.games + 1)
        self.games.add(game_id)
        return True

    def rate_log(self, path: str | os.PathLike[str]) -> str | None:
        """Counts the game of the log at *path* if it verifies; returns why not (and changes
        nothing) otherwise: unreadable or refused by :func:`~carcnet.log.store.load` (a signature,
        a move or a digest that does not check), unsigned, damaged at its end, not over, or
        counted already."""
        try:
            loaded = load(path)
        except LogError as exc:
            return f"not counted: {exc}"
        if not loaded.header.keys:
            return "not counted: the log is not signed (a game at one terminal): nothing proves who played"
        if loaded.damage is not None:
            return f"not counted: {loaded.damage.message}"
        if loaded.game.phase is not Phase.GAME_OVER:
            return "not counted: the game is not over"
        players = players_of(loaded)
        if len(set(players)) != len(players):
            return "not counted: one player holds two seats (two bots of one level, or one key twice)"
        if not self.rate(loaded.header.game, players, loaded.game.scores):
            return "not counted again: this game is in the ratings already"
        return None

    # ------------------------------------------------------------------ the file

    def to_json(self) -> str:
        """The ratings as the text of a ratings file (sorted: the same ratings, the same bytes)."""
        data = {
            "format": FORMAT,
            "players": {p: [r.mu, r.sigma, r.games] for p, r in sorted(self.players.items())},
            "games": sorted(self.games),
        }
        return json.dumps(data, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Ratings:
        """Reads a ratings file's text.

        Raises:
            ValueError: Not a ratings file of this format (what is wrong, in one sentence).
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"not a ratings file: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a ratings file of format {FORMAT}")
        players, games = data.get("players"), data.get("games")
        if not isinstance(players, dict) or not isinstance(games, list) or not all(isinstance(g, str) for g in games):
            raise ValueError("a ratings file holds 'players' (a map) and 'games' (a list of ids)")
        out = cls(games=set(games))
        for p, value in players.items():
            if (not isinstance(value, list) or len(value) != 3 or not all(isinstance(v, int | float) for v in value)
                    or not isinstance(value[2], int) or not value[1] > 0):
                raise ValueError(f"player {p!r}: a rating is [mu, sigma > 0, games]")
            out.players[p] = Rating(float(value[0]), float(value[1]), value[2])
        return out

    @classmethod
    def read(cls, path: Path) -> Ratings:
        """The ratings in the file at *path*; none when it does not exist.

        Raises:
            ValueError: As :meth:`from_json`, with the file's name.
            OSError: It cannot be read.
        """
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls()
        try:
            return cls.from_json(text)
        except ValueError as exc:
            raise ValueError(f"{path}: {exc}") from None

    def write(self, path: Path) -> None:
        """Saves to *path* whole or not at all (a temporary file beside it, then renamed).

        Raises:
            OSError: It cannot be written.
        """
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".ratings-", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(self.to_json())
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def count_game(data_dir: Path, log: Path) -> str:
    """Counts the finished game of *log* into the ratings kept in *data_dir* (:data:`RATINGS_FILE`)
    and saves them; returns one sentence for people: the new ratings of its players, or why it was
    not counted (nothing changes then). Never raises for a log or a ratings file it cannot use."""
    path = data_dir / RATINGS_FILE
    try:
        ratings = Ratings.read(path)
    except (OSError, ValueError) as exc:
        return f"Ratings not updated: {exc}"
    why = ratings.rate_log(log)
    if why is not None:
        return f"Ratings {why}"
    try:
        ratings.write(path)
    except OSError as exc:
        return f"Ratings not saved: {exc}"
    return "Ratings updated"
