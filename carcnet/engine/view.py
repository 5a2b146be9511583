"""Provides :class:`PlayerView`: what one player at the table knows of a game, and nothing more.

A player sees the board, the figures, the scores and supplies, the tile just drawn, the tiles drawn
and set aside so far, and the **contents** of the bag (which designs are still face down, and how
many, in which group: the river tiles before the land tiles). A player never sees the **order** of
the tiles still face down: with a seeded deck the engine knows it (``Game.deck``), and with table
draws (``protocol/deck.md`` §5) nobody does. Bots get a view, never the game (issue 17), so a bot
cannot play on knowledge a person at the table does not have.

A view holds a :class:`~carcnet.engine.Game` of its own, :attr:`PlayerView.game`, in the same state
as the real one, whose face-down tiles are in canonical order (each group sorted by id): every
query works on it (``legal_moves``, ``preview_placement``, ``projected_final``, …), and nothing in
it is the real order, the seed or the table's chain roots. To look ahead, a bot asks for
:meth:`PlayerView.sample`: an independent game whose face-down tiles are shuffled by the bot's own
random source (a *determinisation*, as information-set search does).

Cost: a view shares the game's board and feature graph (it copies nothing but the list of the tiles
left, about 16 µs); :meth:`sample` is a :meth:`Game.copy` (about 43 µs on a full board).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .events import TileDrawn
from .state import Game, GameSetup
from .tiles import RIVER_LAKE, tile_kind

__all__ = ["PlayerView", "RandomSource"]


class RandomSource(Protocol):
    """What :meth:`PlayerView.sample` draws from: ``random.Random`` or anything with ``random()``
    returning a float in [0, 1). Only ``random()`` is used, whose sequence Python keeps stable across
    versions (``shuffle`` and ``randrange`` are not)."""

    def random(self) -> float: ...


@dataclass(frozen=True, slots=True, eq=False)
class PlayerView:
    """A player's view of a game (see the module docstring). Made by :meth:`Game.view`.

    Attributes:
        seat: The seat to play when the view was made (bots get the view of the seat they play).
        game: The game as a player sees it: the real state, the face-down tiles in canonical order.
            Read it; it shares the real game's board, so it must not be changed (try moves on
            :meth:`sample` or ``game.copy()``).
        groups: The face-down tiles still to come, group by group (river tiles, the lake, the start
            tile after the river, the land tiles), each group in canonical order: the bag's contents.
    """

    seat: int
    game: Game
    groups: tuple[tuple[str, ...], ...]

    @classmethod
    def of(cls, real: Game) -> PlayerView:
        """The view of *real* for the seat to play. *real* is neither changed nor referenced."""
        groups = _groups_left(real)
        if real.bag is None:
            drawn = real.deck[: real.deck_index]
        else:  # table draws: the tiles drawn so far are in the events
            drawn = tuple(e.tile for e in real.events if type(e) is TileDrawn)
        order = tuple([*drawn, *(t for group in groups for t in group)])  # a new tuple, never the real deck
        setup = GameSetup(players=real.players, draw_order=order, rules=real.setup.rules)
        game = Game.__new__(Game)
        game.__dict__.update(real.__dict__)  # the same state (shared: the view is read only) …
        game.setup = setup  # … but where the tiles come from
        game.deck = order
        game.deck_index = len(drawn)
        game.bag = None
        game.revealed = None
        game._digests = []
        return cls(real.seat, game, groups)

    def detached(self) -> PlayerView:
        """The same view with a game of its own (a :meth:`Game.copy`, about 40 µs): safe to search
        from another thread while the real game moves on."""
        return PlayerView(self.seat, self.game.copy(), self.groups)

    def remaining(self) -> dict[str, int]:
        """Id → count of the face-down tiles, in id order (``Game.remaining``)."""
        return self.game.remaining()

    def sample(self, rng: RandomSource) -> Game:
        """An independent game in the view's state whose face-down tiles are each group shuffled
        by *rng* (Fisher–Yates from the last tile down, each index ``int(rng.random() * (i + 1))``):
        one possible future, for a search to play on. Deterministic for a given *rng* state. Not
        the deck's own shuffle (``protocol/deck.md``): no peer needs to agree on a bot's futures."""
        game = self.game.copy()
        future: list[str] = []
        for group in self.groups:
            tiles = list(group)
            for i in range(len(tiles) - 1, 0, -1):
                j = int(rng.random() * (i + 1))
                tiles[i], tiles[j] = tiles[j], tiles[i]
            future.extend(tiles)
        game.deck = game.deck[: game.deck_index] + tuple(future)
        return game


#: Rules → the sizes of the deck's groups (``tileset``), filled on first use.
_GROUP_SIZES: dict[object, list[int]] = {}


def _groups_left(game: Game) -> tuple[tuple[str, ...], ...]:
    """The face-down tiles of *game*, group by group, each in canonical order."""
    if game.bag is not None:  # table draws: the bag is kept in groups, canonical order
        return tuple(tuple(group) for group in game.bag if group)
    left = game.deck[game.deck_index :]
    setup = game.setup
    if setup.seed is not None:
        sizes = _GROUP_SIZES.get(setup.rules)
        if sizes is None:
            sizes = _GROUP_SIZES[setup.rules] = [sum(group.values()) for group in setup.tiles()[1]]
    else:  # a given order: runs of river tiles, the lake, and the rest, as a seeded deck has them
        sizes = []
        last = None
        for tile in game.deck:
            kind = 0 if tile_kind(tile).has_river and tile != RIVER_LAKE else 1 if tile == RIVER_LAKE else 2
            if kind == last:
                sizes[-1] += 1
            else:
                sizes.append(1)
                last = kind
    out = []
    start = 0
    for size in sizes:
        end = start + size
        if end > game.deck_index:
            out.append(tuple(sorted(game.deck[max(start, game.deck_index) : end])))
        start = end
    assert sum(map(len, out)) == len(left)
    return tuple(out)

