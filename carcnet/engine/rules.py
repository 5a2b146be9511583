"""Provides :class:`Rules`: a game's rule options (the expansions and the editions' variants) and the
rules versions the engine plays (``docs/rules.md``; ``protocol/digest.md`` §2 for their text in the
setup)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from .tiles import BASE_START, RIVER_SPRING, tileset

__all__ = ["FARM_RULES", "FARM_TEXT", "RIVER_STARTS", "RIVER_START_TEXT", "RULES_VERSION",
           "SUPPORTED_RULES", "Rules"]

#: Version of the rules new games are played under (``GameSetup.rules_version``).
#: 2: the river tiles R6 and R7 corrected, the river kept finishable, the start tile's
#: options of HiG and Z-Man, and the small-city and farm variants.
#: 3: the river rule made exact: a placement is refused only when some order of the river tiles
#: left could strand the river (``docs/rules.md``, "The river is always finished").
#: 4: the expansions: Inns & Cathedrals (``Rules.inns``) and Traders & Builders (``Rules.traders``),
#: played only from this version on; a game without them plays as under rules 3.
#: 5: Traders & Builders' second tile may be declined (the game asks before it is drawn); a game
#: without the expansion plays as under rules 4.
#: 6: Hills & Sheep (``Rules.hills_sheep``), played only from this version on; a game without it
#: plays as under rules 5.
RULES_VERSION = 6
#: The rules versions this engine plays, each game by its own version's rules: a saved game of an
#: older version still loads and replays as it was played (``protocol/log.md`` §7).
SUPPORTED_RULES = (2, 3, 4, 5, 6)
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
        hills_sheep: Hills & Sheep: its 18 tiles among the land tiles; a hill tile takes a face-down
            tile out of the game under it, and breaks ties for a feature's majority in favour of the
            tied players with a follower on a hill; a completed cloister scores 3 more for each
            vineyard around it (``docs/rules.md``). Rules version 6 on.
        princess_dragon: The Princess & the Dragon: its 30 tiles among the land tiles; the dragon,
            which a volcano brings and each dragon tile moves six tiles, every seat in turn, eating
            the figures on its way; the fairy, the princess and the magic portal (``docs/rules.md``).
            Rules version 6 on.
    """

    # Each field's metadata (:func:`dataclasses.fields`), which the checks, the setup's canonical text
    # and the draw order's check read: "word" its name in the setup's rules line (protocol/digest.md
    # §2), "written" when it is written there ("always"; "on": only when true, as "=1"; "with:<field>":
    # only when that field is true), "choices" the values a text option takes, "since" the first rules
    # version that plays it, "tiles" the tile list's expansion tag it brings (tiles.py).
    river: bool = field(default=False, metadata={"word": "river", "written": "always", "tiles": "river"})
    abbot: bool = field(default=False, metadata={"word": "abbot", "written": "always", "tiles": "abbot"})
    river_start: str = field(default="after", metadata={"word": "start", "written": "with:river", "choices": RIVER_STARTS})
    small_city: bool = field(default=False, metadata={"word": "small-city", "written": "always"})
    farms: str = field(default="farm", metadata={"word": "farms", "written": "always", "choices": FARM_RULES})
    inns: bool = field(default=False, metadata={"word": "inns", "written": "on", "since": 4, "tiles": "inns"})
    traders: bool = field(default=False, metadata={"word": "traders", "written": "on", "since": 4, "tiles": "traders"})
    hills_sheep: bool = field(default=False, metadata={"word": "hills-sheep", "written": "on", "since": 6,
                                                       "tiles": "hills"})
    princess_dragon: bool = field(default=False, metadata={"word": "princess-dragon", "written": "on", "since": 6,
                                                           "tiles": "dragon"})

    def words(self) -> str:
        """The options as the setup's rules line writes them after the version (``protocol/digest.md``
        §2), e.g. ``"river=0 abbot=0 small-city=0 farms=farm"``.

        >>> Rules(river=True, inns=True).words()
        'river=1 abbot=0 start=after small-city=0 farms=farm inns=1'
        """
        out = []
        for option in _FIELDS:
            meta, value = option.metadata, getattr(self, option.name)
            written = meta["written"]
            if written == "on" and not value:
                continue
            if written.startswith("with:") and not getattr(self, written[5:]):
                continue
            out.append(f"{meta['word']}={int(value) if isinstance(value, bool) else value}")
        return " ".join(out)

    def version_problem(self, version: int) -> str | None:
        """Why rules *version* cannot play these options (an expansion played from a later version on),
        or ``None``."""
        for option in _FIELDS:
            since = option.metadata.get("since")
            if since is not None and getattr(self, option.name) and version < since:
                return f"rules version {version} has no {option.name} (played from rules version {since} on)"
        return None

    def plays(self, tag: str) -> bool:
        """Whether a tile of the expansion tagged *tag* in the tile list (``TileKind.expansion``'s parts:
        ``"base"``, ``"river"``, ``"abbot"``, ``"inns"``, ``"traders"``, ``"hills"``, ``"dragon"``) belongs to a game under these options."""
        if tag == "base":
            return True
        return any(option.metadata.get("tiles") == tag and getattr(self, option.name) for option in _FIELDS)

    def pile_size(self) -> int:
        """Tiles in the draw pile under these rules (start tile excluded): the tiles a game draws
        (:meth:`table_draws`: what a table draws, tokens included).

        >>> Rules().pile_size(), Rules(river=True).pile_size()
        (71, 83)
        """
        _start, groups = self.tileset()
        return sum(sum(group.values()) for group in groups)

    def table_draws(self) -> int:
        """The most draws a game under these rules asks of the table (``deck.md`` §5, §7): the length
        of each seat's chain. The pile, and with Hills & Sheep as many again (a token of the sheep
        bag at most for each tile placed).

        >>> Rules().table_draws(), Rules(hills_sheep=True).table_draws()
        (71, 178)
        """
        pile = self.pile_size()
        return 2 * pile if self.hills_sheep else pile

    def tileset(self) -> tuple[str, list[dict[str, int]]]:
        """The start tile and the groups of the draw pile under these options
        (:func:`carcnet.engine.tiles.tileset`)."""
        return tileset(river=self.river, abbot=self.abbot, river_start=self.river_start, inns=self.inns,
                       traders=self.traders, hills=self.hills_sheep, dragon=self.princess_dragon)

    @property
    def start_tile(self) -> str:
        """The tile placed at (0, 0) before the first turn: D, or the spring with The River."""
        return RIVER_SPRING if self.river else BASE_START

    def problem(self) -> str | None:
        """Why these options cannot be played (a wrong type or value), or ``None``."""
        for option in _FIELDS:
            value, choices = getattr(self, option.name), option.metadata.get("choices")
            if choices is None and not isinstance(value, bool):
                return f"{option.name} must be true or false, got {value!r}"
        for option in _FIELDS:
            value, choices = getattr(self, option.name), option.metadata.get("choices")
            if choices is not None and value not in choices:
                return f"{option.name} must be one of {', '.join(choices)}, got {value!r}"
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
        if self.hills_sheep:
            parts.append("Hills & Sheep")
        if self.princess_dragon:
            parts.append("The Princess & the Dragon")
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


#: The options' fields, with their metadata, in order (read by the methods above; made once).
_FIELDS = fields(Rules)
