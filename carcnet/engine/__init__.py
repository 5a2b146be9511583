"""The rules engine: pure, deterministic Carcassonne (base game with farmers).

Standard library only: no I/O, no asyncio, no global randomness. Everything a game needs is here:

>>> from carcnet.engine import Game, GameSetup
>>> game = Game(GameSetup(players=2, seed=7))
>>> game.phase.value, game.tiles_left
('place', 70)

Public API: :class:`Game` (state, :meth:`Game.apply`, queries), :class:`GameSetup`, :class:`Rules`,
:func:`replay`, the moves (:class:`PlaceTile`, :class:`DeployMeeple`, :class:`SkipMeeple`,
:class:`ReturnAbbot`), the events, :class:`Position`, :class:`Side`, :class:`Rotation`, the tile data.
"""

from .board import PlacedTile, Placement
from .draws import TableDraws
from .errors import IllegalMoveError, SetupError
from .events import (
    BuilderTurn,
    Event,
    FeatureCompleted,
    FeatureInfo,
    GameEnded,
    GoodsScored,
    GoodsTaken,
    FlockScored,
    TokenDrawn,
    HeldFeature,
    MeepleDeployed,
    MeepleReturned,
    PointsScored,
    SeatHandedBack,
    SecondTileDeclined,
    SeatHandedOver,
    TileDrawn,
    TilePlaced,
    TileSetAside,
    TileHeld,
    DragonMoved,
    FairyScored,
)
from .geometry import HalfSide, Position, Rotation, Side
from .moves import (
    DeployMeeple,
    DrawTile,
    Figure,
    Flock,
    HandBack,
    HandOver,
    Move,
    MoveDragon,
    MoveFairy,
    PlaceTile,
    RemoveKnight,
    ReturnAbbot,
    SecondTile,
    SkipMeeple,
)
from .notation import parse_move
from .phase import Phase
from .rules import FARM_RULES, FARM_TEXT, RIVER_START_TEXT, RIVER_STARTS, RULES_VERSION, SUPPORTED_RULES, Rules
from .setup import GameSetup
from .game import Game, PlayerView, RandomSource, replay
from .state import CATEGORIES, MEEPLES_PER_PLAYER, GameCore
from .tiles import (
    BASE_DESIGNS,
    BASE_START,
    Segment,
    SegmentKind,
    Terrain,
    TileKind,
    TileVariant,
    base_tile_counts,
    tile_kind,
)

__all__ = [
    "BASE_DESIGNS",
    "BASE_START",
    "BuilderTurn",
    "CATEGORIES",
    "FARM_RULES",
    "FARM_TEXT",
    "MEEPLES_PER_PLAYER",
    "RIVER_STARTS",
    "RIVER_START_TEXT",
    "RULES_VERSION",
    "SUPPORTED_RULES",
    "DeployMeeple",
    "DrawTile",
    "Event",
    "FeatureCompleted",
    "FeatureInfo",
    "Figure",
    "Game",
    "GameCore",
    "GameEnded",
    "GoodsScored",
    "GoodsTaken",
    "FlockScored",
    "TokenDrawn",
    "GameSetup",
    "HalfSide",
    "HandBack",
    "HandOver",
    "HeldFeature",
    "IllegalMoveError",
    "MeepleDeployed",
    "MeepleReturned",
    "Move",
    "MoveDragon",
    "MoveFairy",
    "Phase",
    "PlaceTile",
    "RemoveKnight",
    "PlacedTile",
    "Placement",
    "PlayerView",
    "PointsScored",
    "Position",
    "RandomSource",
    "ReturnAbbot",
    "SecondTile",
    "Flock",
    "Rotation",
    "Rules",
    "SeatHandedBack",
    "SecondTileDeclined",
    "SeatHandedOver",
    "Segment",
    "SegmentKind",
    "SetupError",
    "Side",
    "SkipMeeple",
    "TableDraws",
    "Terrain",
    "TileDrawn",
    "TileKind",
    "TilePlaced",
    "TileSetAside",
    "TileHeld",
    "DragonMoved",
    "FairyScored",
    "TileVariant",
    "base_tile_counts",
    "parse_move",
    "replay",
    "tile_kind",
]
