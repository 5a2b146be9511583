"""A rating per player, from rated games only: logs that verify, whose seats this laptop can vouch for.

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
A game counts once (by its game id), and only a *rated game* (docs/club.md "What a rated game is"):
its log read whole by :func:`carcnet.log.store.load` with every signature checked, signed, its game
over, and this laptop able to say who held its seats:

- a network game this laptop played (:meth:`Ratings.rate_log`): the keys file beside the log (which
  only the laptop that played writes, and no report carries) holds one of its seats; or
- a table of an event this laptop took part in (:meth:`Ratings.rate_table`): the log checked against
  the signed charter, and its seats held by this laptop alone or by two laptops or more, each of which
  signed a status for this laptop during the event.

A person is rated under their key (their seat's signatures prove it); a bot this laptop ran under
its level (``bot:hard``); a bot of another laptop under its level and that laptop's identity key
(``bot:hard@<key>``, :func:`bot_id`): that its level played it is that laptop's word alone, so it
moves that laptop's bot, never the level's rating. Two seats of one bot are two entrants of one
rating, which moves by the mean of theirs. Anything else is reported, kept with its reason (:attr:`Ratings.unrated`),
and changes nothing.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import tempfile
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import NormalDist

from openskill.models import PlackettLuce

from carcnet.engine import Phase
from carcnet.i18n import N_, _, ngettext
from carcnet.log.errors import LogError
from carcnet.log.store import LoadedLog, load
from carcnet.table import Table
from carcnet.table.keys import LanError, keys_path, read_keys
from carcnet.table.netview import NetView

__all__ = ["ALREADY", "ELO_PER_MU", "RATINGS_FILE", "UPDATED", "Rating", "Ratings", "bot_id", "count_game",
           "count_when_over", "display", "players_of"]

#: The ratings file's name in the user data folder.
RATINGS_FILE = "ratings.json"

_MODEL = PlackettLuce()

#: Elo-like points per unit of *mu*: 400 / (Φ⁻¹(10/11) √2 β), β the model's performance spread (25/6):
#: about 50.8.
ELO_PER_MU = 400 / (NormalDist().inv_cdf(10 / 11) * math.sqrt(2) * _MODEL.beta)

#: The file format's version (a file of another is refused, not guessed at).
FORMAT = 1
#: Games not counted kept with their reason in the file (the newest), for ``carcnet ratings`` to show.
MAX_UNRATED = 64
#: Why a game counted already is not counted, and what :func:`count_game` says of a game counted: in
#: English (marked), shown through ``_()``; compare what was said with ``_(ALREADY)``, ``_(UPDATED)``.
ALREADY = N_("not counted again: this game is in the ratings already")
UPDATED = N_("Ratings updated")


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


def players_of(loaded: LoadedLog, runners: Mapping[int, bytes] | None = None) -> list[str]:
    """The player ids of a log's seats, in seat order: the seat's key in hex for a person; for a bot
    seat (the header's level, ``greedy`` when it names none) ``bot:<level>`` when this laptop ran it,
    ``bot:<level>@<identity key in hex>`` when the laptop of that key did (*runners*: seat → the
    identity key of the other laptop that ran it; a bot seat absent from it is this laptop's, or,
    when *runners* is ``None``, every bot seat is)."""
    header = loaded.header
    out = []
    for s, (seat, key) in enumerate(zip(header.seats, header.keys or (), strict=False)):
        if seat.player != "bot":
            out.append(key.hex())
        else:
            runner = (runners or {}).get(s)
            out.append(bot_id(seat.bot or "greedy", runner))
    return out


def bot_id(level: str, runner: bytes | None = None) -> str:
    """A bot's player id: ``bot:<level>`` for this laptop's bots (the level's rating), and
    ``bot:<level>@<runner's identity key in hex>`` for another laptop's: that its level played is that
    laptop's word alone, so its games rate that laptop's bot, never the level."""
    return f"bot:{level}" if runner is None else f"bot:{level}@{runner.hex()}"


@dataclass
class Ratings:
    """Every player's rating and the games they were computed from.

    Attributes:
        players: Player id → :class:`Rating` (players never rated are absent: :meth:`get`).
        games: The game ids already counted (a game counts once, whichever laptop's copy comes).
        unrated: Game id → why it was not counted (one sentence), the newest :data:`MAX_UNRATED`, in
            the order they came; a game counted since is taken out.
    """

    players: dict[str, Rating] = field(default_factory=dict)
    games: set[str] = field(default_factory=set)
    unrated: dict[str, str] = field(default_factory=dict)

    def get(self, player: str) -> Rating:
        """*player*'s rating, the model's start for a player never rated."""
        return self.players.get(player, Rating())

    def rate(self, game_id: str, players: Sequence[str], scores: Sequence[int]) -> bool:
        """Counts one finished game: *players* (ids, seat order) and their final *scores*. A bot
        (``bot:…``) may hold several seats: each is an entrant of its rating, which moves by the mean of
        their new *mu* and *sigma*. Returns ``False`` (nothing changes) when *game_id* was counted
        already.

        Raises:
            ValueError: Fewer than two seats, a person twice, or scores that do not match.
        """
        people = [p for p in players if not p.startswith("bot:")]
        if len(players) < 2 or len(set(people)) != len(people) or len(scores) != len(players):
            raise ValueError(f"a rated game has 2 or more seats, each person once, one score each: {players} {scores}")
        if game_id in self.games:
            return False
        before = [self.get(p) for p in players]
        teams = [[_MODEL.create_rating([r.mu, r.sigma], name=f"{p}#{s}")]
                 for s, (p, r) in enumerate(zip(players, before, strict=True))]
        after = _MODEL.rate(teams, scores=[float(s) for s in scores])
        moved: dict[str, list[tuple[float, float]]] = {}
        for p, (new,) in zip(players, after, strict=True):
            moved.setdefault(p, []).append((new.mu, new.sigma))
        for p, news in moved.items():
            self.players[p] = Rating(math.fsum(m for m, _s in news) / len(news),
                                     math.fsum(s for _m, s in news) / len(news), self.get(p).games + 1)
        self.games.add(game_id)
        self.unrated.pop(game_id, None)
        return True

    def rate_log(self, path: str | os.PathLike[str]) -> str | None:
        """Counts the network game of the log at *path* if it is a game this laptop played (the keys
        file beside it holds one of its seats: :func:`carcnet.table.keys.read_keys`) and its log
        verifies; returns why not (kept in :attr:`unrated`; nothing else changes) otherwise:
        unreadable or refused by :func:`~carcnet.log.store.load` (a signature, a move or a digest that
        does not check), unsigned, damaged at its end, not over, not played here, or counted already.
        The seats of the keys file are this laptop's; a bot seat of another laptop is rated as that
        laptop's (the keys file's runner of the seat, else the seat's key: :func:`bot_id`)."""
        loaded, why = _finished(path)
        if loaded is None:
            return self._unrated(None, why)
        try:
            saved = read_keys(keys_path(Path(path)), loaded.header)  # type: ignore[arg-type]
        except LanError:
            saved = None
        if saved is None or not saved.seats:
            return self._unrated(loaded.header.game, _("not counted: this laptop did not play in this game (no keys "
                                                       "of its seats beside the log): only games played here or an "
                                                       "event's tables count"))
        header = loaded.header
        runners = {s: saved.runners.get(s, header.keys[s]) for s in range(len(header.seats)) if s not in saved.seats}
        return self._count(loaded, runners)

    def rate_table(self, path: str | os.PathLike[str], holders: Sequence[bytes], me: bytes,
                   present: Collection[bytes]) -> str | None:
        """Counts the game of an event's table whose log at *path* this laptop checked against the
        charter (:func:`carcnet.club.results.check_log`). *holders*: the identity key of the laptop
        that held each seat, seat by seat (the charter's: a person's key, a bot's runner's); *me*: this
        laptop's; *present*: the laptops that signed a status for this laptop during the event.
        The game counts when every seat is this laptop's, or when two laptops or more held its seats,
        each of them *me* or in *present*; a bot seat of another laptop is rated as that laptop's
        (:func:`bot_id`). Returns why not (kept in :attr:`unrated`) otherwise, as :meth:`rate_log`."""
        loaded, why = _finished(path)
        if loaded is None:
            return self._unrated(None, why)
        if len(holders) != len(loaded.header.seats):
            return self._unrated(loaded.header.game, _("not counted: its seats are not the table's"))
        distinct = set(holders)
        if distinct != {me}:
            if len(distinct) < 2:
                return self._unrated(loaded.header.game, _("not counted: one laptop held every seat: a rated game of an "
                                                           "event has seats of two laptops or more (or only this laptop's)"))
            unseen = [k for k in distinct if k != me and k not in present]
            if unseen:
                # Translators: {n} is a number of laptops.
                return self._unrated(loaded.header.game, ngettext(
                    "not counted: {n} of the laptops that held its seats never answered this laptop during the event",
                    "not counted: {n} of the laptops that held its seats never answered this laptop during the event",
                    len(unseen)).format(n=len(unseen)))
        return self._count(loaded, {s: key for s, key in enumerate(holders) if key != me})

    def _count(self, loaded: LoadedLog, runners: Mapping[int, bytes]) -> str | None:
        players = players_of(loaded, runners)
        people = [p for p in players if not p.startswith("bot:")]
        if len(set(people)) != len(people):
            return self._unrated(loaded.header.game, _("not counted: one person holds two seats"))
        if not self.rate(loaded.header.game, players, loaded.game.scores):
            return _(ALREADY)
        return None

    def _unrated(self, game: str | None, why: str) -> str:
        """Keeps *why* for *game* (the newest :data:`MAX_UNRATED`) and returns it."""
        if game is not None and game not in self.games:
            self.unrated.pop(game, None)
            self.unrated[game] = why
            while len(self.unrated) > MAX_UNRATED:
                del self.unrated[next(iter(self.unrated))]
        return why

    # ------------------------------------------------------------------ the file

    def to_json(self) -> str:
        """The ratings as the text of a ratings file (sorted: the same ratings, the same bytes)."""
        data = {
            "format": FORMAT,
            "players": {p: [r.mu, r.sigma, r.games] for p, r in sorted(self.players.items())},
            "games": sorted(self.games),
            "unrated": [[g, why] for g, why in self.unrated.items()],
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
            # Translators: {reason} says where the file's JSON is wrong (in English).
            raise ValueError(_("not a ratings file: {reason}").format(reason=exc)) from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            # Translators: {format} is the number of the file format's version.
            raise ValueError(_("not a ratings file of format {format}").format(format=FORMAT))
        players, games = data.get("players"), data.get("games")
        if not isinstance(players, dict) or not isinstance(games, list) or not all(isinstance(g, str) for g in games):
            raise ValueError("a ratings file holds 'players' (a map) and 'games' (a list of ids)")
        unrated = data.get("unrated", [])
        if not isinstance(unrated, list) or not all(
                isinstance(u, list) and len(u) == 2 and all(isinstance(v, str) for v in u) for u in unrated):
            raise ValueError("'unrated' is a list of [game id, why]")
        out = cls(games=set(games), unrated={g: why[:300] for g, why in unrated[-MAX_UNRATED:]})
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


def _finished(path: str | os.PathLike[str]) -> tuple[LoadedLog | None, str]:
    """The log at *path* read whole with every signature checked, signed, undamaged and over; else
    ``None`` and why not."""
    try:
        loaded = load(path)
    except LogError as exc:
        # Translators: {reason} says why the log is refused.
        return None, _("not counted: {reason}").format(reason=exc)
    if not loaded.header.keys:
        return None, _("not counted: the log is not signed (a game at one terminal): nothing proves who played")
    if loaded.damage is not None:
        # Translators: {reason} says how the log is damaged.
        return None, _("not counted: {reason}").format(reason=loaded.damage.message)
    if loaded.game.phase is not Phase.GAME_OVER:
        return None, _("not counted: the game is not over")
    return loaded, ""


def count_game(data_dir: Path, log: Path) -> str:
    """Counts the finished game of *log* into the ratings kept in *data_dir* (:data:`RATINGS_FILE`)
    and saves them; returns one sentence for people: the new ratings of its players, or why it was
    not counted (nothing changes then). Never raises for a log or a ratings file it cannot use."""
    path = data_dir / RATINGS_FILE
    try:
        ratings = Ratings.read(path)
    except (OSError, ValueError) as exc:
        # Translators: {reason} says why the ratings file cannot be used.
        return _("Ratings not updated: {reason}").format(reason=exc)
    why = ratings.rate_log(log)
    if why is not None:
        with contextlib.suppress(OSError):
            ratings.write(path)  # the reason kept, for carcnet ratings to show
        # Translators: {why} says why the game was not counted: "not counted: the game is not over".
        return _("Ratings {why}").format(why=why)
    try:
        ratings.write(path)
    except OSError as exc:
        # Translators: {reason} says why the ratings file cannot be written.
        return _("Ratings not saved: {reason}").format(reason=exc)
    return _(UPDATED)


def count_when_over(table: Table, data_dir: Path, tell: Callable[[str], None]) -> None:
    """Counts *table*'s game into the ratings kept in *data_dir* once it is over (:func:`count_game`),
    whoever shows it (the interface's game screen, or a headless peer's lines), and tells the sentence
    :func:`count_game` says to *tell*, once. Listens to the table for that: at the first change that
    finds a network game over, its end committed (wire.md §5.9: a game finished apart from the others
    may yet be set aside), with its log on disk. A table at one terminal is never counted (its log
    is not signed: nothing proves who played)."""
    if not isinstance(table, NetView):
        return

    def changed(_change: str) -> None:
        path = table.path
        if table.status != "finished" or table.pending or path is None or not path.exists():
            return
        table.remove_listener(changed)
        tell(count_game(data_dir, path))

    table.add_listener(changed)
