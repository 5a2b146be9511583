"""Provides :class:`Rules`: a game's rule options (the expansions and the editions' variants) and the
rules versions the engine plays (``docs/rules.md``; ``protocol/digest.md`` §2 for their text in the
setup)."""

from __future__ import annotations

from dataclasses import dataclass

from .tiles import tileset

__all__ = ["EXPANSIONS_SINCE", "FARM_RULES", "FARM_TEXT", "RIVER_STARTS", "RIVER_START_TEXT", "RULES_VERSION",
           "SUPPORTED_RULES", "Rules"]

#: Version of the rules new games are played under (``GameSetup.rules_version``).
#: 2: the river tiles R6 and R7 corrected, the river kept finishable, the start tile's
#: options of HiG and Z-Man, and the small-city and farm variants.
#: 3: the river rule made exact: a placement is refused only when some order of the river tiles
#: left could strand the river (``docs/rules.md``, "The river is always finished").
#: 4: the expansions: Inns & Cathedrals (``Rules.inns``) and Traders & Builders (``Rules.traders``),
#: played only from this version on; a game without them plays as under rules 3.
RULES_VERSION = 4
#: The rules versions this engine plays, each game by its own version's rules: a saved game of an
#: older version still loads and replays as it was played (``protocol/log.md`` §7).
SUPPORTED_RULES = (2, 3, 4)
#: The first rules version that plays each expansion (``Rules`` field → version).
EXPANSIONS_SINCE = {"inns": 4, "traders": 4}
#: What becomes of the base start tile with The River (HA "THE RIVER"; Z14 "The River"):
#: ``"after"`` placed as soon as the river is complete (HiG), ``"river"`` shuffled into the river
#: tiles (HiG), ``"omit"`` left in the box (Z-Man). The first is the default (``docs/rules.md``).
RIVER_STARTS = ("after", "river", "omit")
#: How farms are scored: ``"farm"`` each farm scores 3 per completed city it supplies (HiG "Scoring
#: farms", the third-edition method); ``"city"`` each completed city scores 4 for the majority of the
#: farmers supplying it (first edition, HA FN 27-28); ``"off"`` no farmers at all.
FARM_RULES = ("farm", "city", "off")

@dataclass(frozen=True, slots=True)
class Rules:
    """Rule options: the expansions and the editions' scoring variants (``docs/rules.md``).

    Attributes:
        river: The River: the spring at (0, 0), the river tiles drawn first, the lake last
            (HA "THE RIVER"; Z14 "The River").
        abbot: The Abbot: one abbot per player and gardens on some tiles (Z14 "The Abbot").
        river_start: With The River, what becomes of the base start tile, one of
            :data:`RIVER_STARTS`: ``"after"`` (placed as soon as the river is complete, HiG; the
            default), ``"river"`` (shuffled into the river tiles, HiG) or ``"omit"`` (left out,
            Z-Man). Ignored without The River.
        small_city: The small-city rule of the RGG edition (HA FN 17): a completed city of two
            tiles scores 2 points, and each of its pennants 1.
        farms: How farms score, one of :data:`FARM_RULES`: ``"farm"`` (HiG, the default),
            ``"city"`` (first edition, HA FN 27-28) or ``"off"`` (no farmers).
        inns: Inns & Cathedrals: its 18 tiles among the land tiles; a road with an inn scores 2 a
            tile completed and nothing incomplete at the end, a city with a cathedral 3 a tile and
            pennant completed and nothing incomplete at the end, and a large meeple per player that
            counts as two for the majority (``docs/rules.md``). Rules version 4 on.
        traders: Traders & Builders: its 24 tiles among the land tiles; whoever completes a city
            takes its goods (wine, grain, cloth), and at the end the most of each kind score 10
            (``docs/rules.md``); a builder per player (on a road or city beside the player's own
            follower: extending that feature with the turn's first tile gives a second tile) and a
            pig (beside the player's own farmer: 1 more a city when that farm scores). Rules
            version 4 on.
    """

    river: bool = False
    abbot: bool = False
    river_start: str = "after"
    small_city: bool = False
    farms: str = "farm"
    inns: bool = False
    traders: bool = False

    def pile_size(self) -> int:
        """Tiles in the draw pile under these rules (start tile excluded): the number of draws a
        game makes, and the length of each seat's chain with table draws (``deck.md`` §4–5).

        >>> Rules().pile_size(), Rules(river=True).pile_size()
        (71, 83)
        """
        _start, groups = tileset(river=self.river, abbot=self.abbot, river_start=self.river_start, inns=self.inns,
                                 traders=self.traders)
        return sum(sum(group.values()) for group in groups)

    def problem(self) -> str | None:
        """Why these options cannot be played (a wrong type or value), or ``None``."""
        for name in ("river", "abbot", "small_city", "inns", "traders"):
            if not isinstance(getattr(self, name), bool):
                return f"{name} must be true or false, got {getattr(self, name)!r}"
        if self.river_start not in RIVER_STARTS:
            return f"river_start must be one of {', '.join(RIVER_STARTS)}, got {self.river_start!r}"
        if self.farms not in FARM_RULES:
            return f"farms must be one of {', '.join(FARM_RULES)}, got {self.farms!r}"
        return None

    def text(self) -> str:
        """Short English, e.g. ``"base game"`` or ``"The River (start tile after the river), The Abbot,
        small cities, first-edition farms"``."""
        parts = []
        if self.river:
            parts.append(f"The River (start tile {RIVER_START_TEXT[self.river_start]})")
        if self.abbot:
            parts.append("The Abbot")
        if self.inns:
            parts.append("Inns & Cathedrals")
        if self.traders:
            parts.append("Traders & Builders")
        parts.extend(self.variants())
        return ", ".join(parts) or "base game"

    def variants(self) -> list[str]:
        """The scoring variants in play, in short English: ``[]`` for the HiG scoring, else some of
        ``"small cities"`` and ``"first-edition farms"`` or ``"no farmers"``."""
        out = ["small cities"] if self.small_city else []
        if self.farms != "farm":
            out.append(FARM_TEXT[self.farms])
        return out


#: Plain words for each :data:`RIVER_STARTS` value, after "start tile".
RIVER_START_TEXT = {"after": "after the river", "river": "among the river tiles", "omit": "left out"}
#: Plain words for each :data:`FARM_RULES` value.
FARM_TEXT = {"farm": "farms scored per farm", "city": "first-edition farms", "off": "no farmers"}
