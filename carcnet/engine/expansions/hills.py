"""Provides Hills & Sheep as an expansion (Hans im Glück 2014, second edition 2018; ``docs/rules.md``,
"Hills & Sheep"; the rules gathered with their sources in ``docs/rules-next.md`` §2): its tiles' hills
and vineyards.

* **The tile under a hill** (HS2): a placed hill tile takes a face-down tile out of the game unseen
  (``GameState.hide_tile``: no tile is chosen, the pile is one shorter; none when the pile is empty),
  so the game has one turn fewer (JCloisterZone's ``hiddenUnderHills``, ``protocol/deck.md`` §6).
* **Hills break ties** (HS4): of the players tied for the most followers on a road, city or farm,
  those with at least one follower on a hill tile of that feature score it alone; when none of them
  has one, they all score, as always (JCloisterZone's default, ``at-least-one-follower``).
* **Vineyards** (HS5): a completed cloister scores 3 more for each vineyard tile among its eight
  neighbours; an incomplete one at the end nothing more.

Its words in the state line (``protocol/digest.md`` §3): `` hidden=<n>``, the tiles under hills.
"""

from __future__ import annotations

from ..board import PlacedTile
from ..events import FeatureInfo
from ..expansion import Expansion, GameState
from ..tiles import SegmentKind

__all__ = ["HILL", "VINEYARD", "VINEYARD_POINTS", "HillsSheep"]

#: The tile marks (:attr:`~carcnet.engine.tiles.TileKind.marks`) of Hills & Sheep.
HILL, VINEYARD = "hill", "vineyard"
#: What a completed cloister scores more for each vineyard around it (W-HS2: "3 additional points for
#: each vineyard on one of the 8 surrounding tiles").
VINEYARD_POINTS = 3
_CLOISTER = SegmentKind.CLOISTER


class HillsSheep(Expansion):
    """Hills & Sheep: the tile under a hill, the hills' tie break, the vineyards."""

    name = "hills-sheep"
    title = "Hills & Sheep"
    option = "hills_sheep"
    since = 6
    words = ("hill", "hills", "vineyard", "vineyards", "sheep", "shepherd", "shepherds", "flock")
    digest_order = 50  # " hidden=…" after Traders & Builders' words (digest.md §3)
    exact_projection = True  # the projected scores break ties as the scoring does
    tie_mark = HILL  # HS4: a tie goes to the tied players with a follower on a hill tile

    def on_tile_placed(self, game: GameState, placed: PlacedTile, seat: int | None) -> None:
        """HS2: a hill tile goes on a face-down tile, out of the game."""
        if HILL in placed.kind.marks and seat is not None:
            game.hide_tile()

    def value(self, info: FeatureInfo, final: bool, points: int) -> int:
        """HS5: a completed cloister, 3 more a vineyard around it."""
        if info.kind is _CLOISTER and info.complete and info.around:
            return points + VINEYARD_POINTS * info.around.count(VINEYARD)
        return points

    def snapshot(self, game: GameState) -> int:
        return game.hidden

    def state_words(self, part: int) -> str:
        return f" hidden={part}"
