"""Provides the tutorial's script: a first game on a fixed deck that teaches the base game a lesson at a
time (placing, turning, meeples, roads, cloisters, cities, farms, the final scoring), and the short
lessons of the expansions.

Everything here is data and pure functions of a game: which step the game is at (:func:`step_of`),
whether a move is the one the step asks for (:func:`accepts`), the moves that reach a lesson
(:func:`moves_before`). The screens (:mod:`carcnet.tui.screens.tutorial`) show it; the table plays
the opponent's side from :data:`SCRIPT`.

The wording follows the HiG basic rules (``shared/rules/hig-basic-rules-with-tile-list.txt``: thief,
knight, monk, farmer, cloister, pennant) and the order of the Z-Man 2014 rulebook's walk-through of a
first game (``zman-2014-rules-with-farmers-river-abbot.txt``: place a tile, place a meeple, score).
Every sentence a player reads is whole, with named fields, so that it can be translated as one: each
is marked here (:func:`~carcnet.i18n.N_`) and the screens show it in the language in use (``_(text)``,
then its fields).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from carcnet.engine import (
    DeployMeeple,
    Game,
    Move,
    Phase,
    PlaceTile,
    Position,
    SegmentKind,
    SkipMeeple,
)
from carcnet.engine.notation import parse_move
from carcnet.i18n import N_

__all__ = [
    "EXPANSIONS",
    "LESSONS",
    "ORDER",
    "PLAYER",
    "SCRIPT",
    "SOLUTION",
    "TURNS",
    "Claim",
    "ExpansionLesson",
    "Progress",
    "Step",
    "Target",
    "Turn",
    "accepts",
    "first_turn",
    "moves_before",
    "step_of",
]

#: The learner's seat (plays first) and the opponent's.
PLAYER, OPPONENT = 0, 1
#: The seats' names (the learner's when the settings have none) and colours, in English (the table
#: seats them in the language in use: the lessons call the opponent by its name).
# Translators: the tutorial's seats, named after their colours: the learner's (when the settings have
# no name) and the opponent's, whom the lessons call "Blue"
NAMES = (N_("Red"), N_("Blue"))
COLOURS = ("red", "blue")

#: The lessons of the first game, in order.
LESSONS: tuple[str, ...] = (
    N_("Placing a tile"),
    N_("Turning a tile"),
    N_("Meeples"),
    N_("Roads"),
    N_("Cloisters"),
    N_("Cities"),
    N_("Farms"),
    N_("Scoring at the end"),
)

#: The fixed deck: the tiles drawn after the start tile, the learner's first (even places).
ORDER: tuple[str, ...] = tuple("U E V N W U A V M E E U U V V".split())

#: Every move of the game, both seats, as the lessons want it played: four per round (the learner's
#: placement and deployment, then the opponent's).
SOLUTION: tuple[Move, ...] = tuple(parse_move(m) for m in (
    "place U 1,0 90", "skip", "place E 0,1 180", "deploy 0",
    "place V 2,0 0", "deploy 0", "place N 0,2 0", "skip",
    "place W 2,1 180", "skip", "place U 3,1 90", "skip",
    "place A -1,0 270", "deploy 0", "place V -1,1 0", "skip",
    "place M 0,-1 270", "deploy 0", "place E 1,-1 0", "deploy 0",
    "place E -1,-1 90", "skip", "place U 4,1 90", "skip",
    "place U -2,0 0", "deploy 1", "place V -2,1 180", "skip",
    "place V -2,-1 0", "deploy 0",
))

#: The opponent's moves by move number (what its :class:`~carcnet.bots.ScriptedBot` plays).
SCRIPT: dict[int, Move] = {i: move for i, move in enumerate(SOLUTION) if i % 4 >= 2}


@dataclass(frozen=True, slots=True)
class Target:
    """Where the drawn tile goes: *position*, turned *rotation* quarter turns clockwise. *shown*: the
    rotation the tile is shown in first (the turning lesson shows it the wrong way round)."""

    position: Position
    rotation: int
    shown: int | None = None


@dataclass(frozen=True, slots=True)
class Claim:
    """The deployment a step asks for: a meeple on a segment of kind *kind* whose feature reaches the
    tile at *at*; *kind* ``None``: no meeple."""

    kind: SegmentKind | None = None
    at: Position | None = None


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn of the learner: its placement (lesson, what to do and why, where, what to say when
    the tile goes elsewhere), then its deployment (the same)."""

    place_lesson: int
    place: str
    target: Target
    wrong_place: str
    deploy_lesson: int
    deploy: str
    claim: Claim
    wrong_deploy: str


_SKIP_HINT = N_("No meeple this time: press 0.")

#: The learner's turns, one per round.
TURNS: tuple[Turn, ...] = (
    Turn(
        0,
        N_("Press Enter to place your tile, a straight road, east of the start tile. A tile goes beside the tiles on "
           "the table, every side it touches matching: road to road, city to city, field to field."),
        Target(Position(1, 0), 1),
        N_("Place the road east of the start tile, where the cursor showed it, so that it goes on with the road: "
           "press Enter there."),
        0,
        N_("Press 0 to play no meeple this time. Once your tile is down you may put one meeple on it; meeples come "
           "in lesson 3."),
        Claim(),
        _SKIP_HINT,
    ),
    Turn(
        1,
        N_("Press r to turn your curve until the road bends south (down the screen), then Enter. It fits at the end "
           "of your road two ways round. Blue put a knight in its city below the start tile."),
        Target(Position(2, 0), 0, shown=1),
        N_("Turn the curve with r until the road comes in from the west and bends south, then press Enter."),
        2,
        # Translators: {spot}: the key of the spot (a digit, as the board numbers the spots)
        N_("Press {spot} to put your thief on the road. A meeple on a road is a thief and claims the whole road: when "
           "both ends are closed it scores 1 point a tile and the thief comes back to you."),
        Claim(SegmentKind.ROAD, Position(0, 0)),
        # Translators: {spot}: the key of the spot (a digit, as the board numbers the spots)
        N_("Put your thief on the road that runs through the start tile: press {spot}."),
    ),
    Turn(
        3,
        N_("Press Enter to close the south end of your road with this crossroads. A road is finished when both its "
           "ends are closed: by a crossroads, a city, a cloister, or by meeting itself."),
        Target(Position(2, 1), 2),
        N_("Place the crossroads below the curve, where the cursor showed it, with its roads going west, north and "
           "east: press Enter there."),
        3,
        N_("Press 0 to keep your meeples. You have seven, and one comes back only when its road, city or cloister "
           "is scored."),
        Claim(),
        _SKIP_HINT,
    ),
    Turn(
        3,
        N_("Press Enter to place this cloister west of the start tile. Its road ends at the cloister, so it closes "
           "the other end of your road: five tiles long."),
        Target(Position(-1, 0), 3),
        N_("Place the cloister west of the start tile, its road going east into your road: press Enter there."),
        4,
        # Translators: {spot}: the key of the spot (a digit, as the board numbers the spots)
        N_("Press {spot} to put a monk on the cloister. It scores 9 once all eight places around it hold a tile. "
           "Your road scores when this turn ends."),
        Claim(SegmentKind.CLOISTER, Position(-1, 0)),
        # Translators: {spot}: the key of the spot (a digit, as the board numbers the spots)
        N_("Put your monk on the cloister: press {spot}."),
    ),
    Turn(
        5,
        N_("Press Enter to place this city north of the start tile, its walls going on with the start tile's city. "
           "Your road scored 5 points, one a tile, and your thief came back."),
        Target(Position(0, -1), 3),
        N_("Place the city piece north of the start tile, its city joining the start tile's: press Enter there."),
        5,
        # Translators: {spot}: the key of the spot (a digit, as the board numbers the spots)
        N_("Press {spot} to put a knight in the city. A finished city scores 2 points a tile and 2 more for each "
           "pennant, like the flag on this tile."),
        Claim(SegmentKind.CITY, Position(0, 0)),
        # Translators: {spot}: the key of the spot (a digit, as the board numbers the spots)
        N_("Put your knight in the city: press {spot}."),
    ),
    Turn(
        5,
        N_("Press Enter to close your city with this piece, west of the last one. A city is finished when its walls "
           "close all round."),
        Target(Position(-1, -1), 1),
        N_("Place the piece west of your city, its wall closing the city: press Enter there."),
        5,
        N_("Press 0: your knight holds this city, and a road, city, cloister or field that holds a meeple takes no "
           "other. The city scores when the turn ends."),
        Claim(),
        N_("A city that holds your knight takes no other meeple: press 0."),
    ),
    Turn(
        6,
        N_("Press Enter to place this road west of the cloister. The fields are farms, and its east side is part of "
           "the big farm around your city, which scored 8: three tiles and a pennant."),
        Target(Position(-2, 0), 0),
        N_("Place the road west of the cloister, running north to south: press Enter there."),
        6,
        # Translators: {spot}: the key of the spot (a digit, as the board numbers the spots)
        N_("Press {spot} to put a farmer in the field east of the road. A farmer lies down and stays until the end, "
           "then scores 3 points for each finished city its farm touches."),
        Claim(SegmentKind.FIELD, Position(-1, 0)),
        # Translators: {spot}: the key of the spot (a digit, as the board numbers the spots)
        N_("Put your farmer in the field east of the road, the one that reaches your city: press {spot}."),
    ),
    Turn(
        7,
        N_("Press Enter to place the last tile north-west of your cloister. It fills the eighth place around it, so "
           "the cloister scores 9."),
        Target(Position(-2, -1), 0),
        N_("Place the curve north-west of the cloister, its road going on south into the road below: press Enter "
           "there."),
        7,
        # Translators: {spot}: the key of the spot (a digit, as the board numbers the spots)
        N_("Press {spot} to put a thief on this road. After the last tile, unfinished roads and cities score 1 a "
           "tile, cloisters 1 for each tile around them and their own, farms 3 for each finished city."),
        Claim(SegmentKind.ROAD, Position(-2, 0)),
        # Translators: {spot}: the key of the spot (a digit, as the board numbers the spots)
        N_("Put a thief on this road: press {spot}."),
    ),
)

#: What the lesson band says while the opponent plays, on the turn not yet confirmed, and at the end.
# Translators: "Blue": the opponent's name, as in the lessons
WAITING = N_("Blue is playing its turn. Yours comes next.")
CONFIRM = N_("Press Enter to play your turn as shown, or Backspace to take a step back. The settings can switch "
             "this confirmation off.")
# Translators: {you}: the learner's final score, {blue}: the opponent's
FINISHED = N_("Press q for the menu: you finished your first game, {you} points to {blue}, and f shows what each "
              "feature gave. The expansions have lessons of their own on the new-game form.")
AWAY = N_("This game left the lessons' course: play it on as you like.")


@dataclass(frozen=True, slots=True)
class Step:
    """Where the tutorial stands in a game: the learner's *turn* (an index in :data:`TURNS`) and its
    *part*: ``"place"``, ``"deploy"``, ``"confirm"`` (both chosen, not yet played), ``"wait"`` (the
    opponent plays), ``"end"`` (the game is over) or ``"away"`` (the game no longer follows the
    script: its moves differ from :data:`SOLUTION`)."""

    turn: int
    part: str

    @property
    def lesson(self) -> int:
        """The lesson this step belongs to."""
        if self.part == "end" or self.part == "away":
            return len(LESSONS) - 1
        turn = TURNS[min(self.turn, len(TURNS) - 1)]
        return turn.place_lesson if self.part == "place" else turn.deploy_lesson


def step_of(game: Game, confirming: bool = False) -> Step:
    """The step of *game* (the one shown: with a turn tried and not yet played, *confirming*)."""
    moves = game.moves
    if tuple(moves) != SOLUTION[:len(moves)]:
        played = len(moves)
        if not (played % 4 in (1, 2) and tuple(moves[:-1]) == SOLUTION[:played - 1]):
            return Step(played // 4, "away")
    turn, part = divmod(len(moves), 4)
    if confirming:
        return Step(turn if part else turn - 1, "confirm")
    if game.phase is Phase.GAME_OVER:
        return Step(len(TURNS), "end")
    return Step(turn, ("place", "deploy", "wait", "wait")[part])


def accepts(game: Game, move: Move) -> bool:
    """Whether *move*, about to be made in *game*, is the one its step asks for."""
    step = step_of(game)
    if step.part not in ("place", "deploy") or step.turn >= len(TURNS):
        return True
    turn = TURNS[step.turn]
    if step.part == "place":
        target = turn.target
        return isinstance(move, PlaceTile) and move.position == target.position and move.rotation == target.rotation
    return claims(game, move, turn.claim)


def claims(game: Game, move: Move, claim: Claim) -> bool:
    """Whether *move* (a deployment in *game*) is what *claim* asks for."""
    if claim.kind is None:
        return isinstance(move, SkipMeeple)
    placed = game.placed
    if not isinstance(move, DeployMeeple) or placed is None:
        return False
    tile = game.tile_at(placed)
    if tile is None or tile.variant.segments[move.segment].kind != claim.kind:
        return False
    return claim.at is None or any(p == claim.at for p, _ in game.feature_segments(placed, move.segment))


def first_turn(lesson: int) -> int:
    """The learner's first turn of *lesson*."""
    return next(i for i, t in enumerate(TURNS) if lesson in (t.place_lesson, t.deploy_lesson))


def moves_before(lesson: int) -> tuple[Move, ...]:
    """The moves of the game before the first step of *lesson*: the turns before its first turn, and
    that turn's placement too when the lesson begins with the deployment."""
    turn = first_turn(lesson)
    return SOLUTION[:4 * turn + (TURNS[turn].place_lesson != lesson)]


# ------------------------------------------------------------------------------------ expansions


@dataclass(frozen=True, slots=True)
class ExpansionLesson:
    """The single-screen lesson of an expansion: its *title*, the rule option it is about, the text
    (sentences, one paragraph each), and a small board showing it: the draw *order* and the *moves*
    played on it (:class:`~carcnet.engine.Rules` with the option *key* on), one tile of the order
    left to draw so that the figures stay on the board."""

    key: str
    title: str
    paragraphs: tuple[str, ...]
    order: tuple[str, ...]
    moves: tuple[str, ...]


#: The expansions' lessons (HiG Inns & Cathedrals and Traders & Builders; the Z-Man 2014 rulebook's
#: The River and The Abbot; Hills & Sheep's wikicarpedia C2 text; The Princess & the Dragon's HiG and
#: wikicarpedia texts: the dragon stopped by the fairy by Blue's monk, after it ate Red's).
EXPANSIONS: tuple[ExpansionLesson, ...] = (
    ExpansionLesson(
        "inns", N_("Inns & Cathedrals"),
        (
            N_("An inn by a road makes the road worth 2 points a tile when it is finished, and nothing if it is "
               "still open at the end."),
            N_("A cathedral in a city makes it worth 3 points a tile and pennant when finished, and nothing if it "
               "is open at the end."),
            N_("Each player also has a large meeple: press a while deploying to switch to it. It goes anywhere a "
               "meeple goes and counts as two meeples for the majority."),
        ),
        ("ICL", "ICK", "U"),
        ("place ICL 1,0 90", "deploy 1 large", "place ICK 0,-1 0", "skip"),
    ),
    ExpansionLesson(
        "traders", N_("Traders & Builders"),
        (
            N_("Some city pieces show goods: wine, grain or cloth. Whoever finishes a city takes its goods, even "
               "without a knight in it; at the end the most of each kind scores 10 points."),
            N_("The builder goes on a road or city that holds your meeple. Each time you extend that road or city "
               "you play a second tile in the same turn."),
            N_("The pig goes in a field that holds your farmer: that farm scores 4 points for each finished city "
               "instead of 3. Press a while deploying to choose the builder or the pig."),
        ),
        ("TBG", "TBB", "U"),
        ("place TBG 0,-1 270", "deploy 0", "place TBB 1,0 0", "skip"),
    ),
    ExpansionLesson(
        "river", N_("The River"),
        (
            N_("The game begins with the river: its spring first, then its tiles, and its lake last. Each river "
               "tile goes on with the river where it ends."),
            N_("The river may not turn back on itself in a U. Meeples may go on the river tiles' roads, cities and "
               "fields, never on the water, which splits the fields on its banks."),
        ),
        ("R3", "R4", "R2"),
        ("place R3 0,1 0", "deploy 1", "place R4 0,2 90", "skip"),
    ),
    ExpansionLesson(
        "abbot", N_("The Abbot"),
        (
            N_("Each player has an abbot. It goes on a cloister or on a garden (the green tile centres) of the "
               "tile you just placed: press a while deploying to switch to it."),
            N_("A garden scores like a cloister: 9 once surrounded, and 1 for each tile around it and its own at "
               "the end. Instead of deploying you may take your abbot back with A: its cloister or garden scores "
               "what it is worth now."),
        ),
        ("EG", "B", "U"),
        ("place EG 0,-1 180", "deploy 2 abbot", "place B 1,-1 0", "skip"),
    ),
    ExpansionLesson(
        "hills_sheep", N_("Hills & Sheep"),
        (
            N_("A tile with a hill (▲) goes on another tile, face down: the game has one tile less. When players "
               "tie for a road, city or farm, those with a meeple on a hill score it alone."),
            N_("A finished cloister scores 3 more points for each vineyard (∵) around it."),
            N_("Your shepherd goes on a field instead of a meeple (press a while deploying) and draws a token from "
               "the bag: sheep join it, a wolf sends it home. When your tile extends its field, grow the flock "
               "with g or score 1 point a sheep with s."),
        ),
        ("U", "HSM", "V", "V"),
        ("place U 1,0 90", "deploy 2 shepherd", "place HSM -1,0 90", "deploy 0"),
    ),
    ExpansionLesson(
        "princess_dragon", N_("The Princess & the Dragon"),
        (
            N_("The first volcano (◬) brings the dragon (D) onto the board; a dragon tile (§) drawn before that "
               "waits beside the pile. Nothing may be deployed on the dragon's tile."),
            N_("After a dragon tile the dragon moves six tiles, one a step, the players in turn: on your step, "
               "the arrows or Tab, then Enter (or a click on a tinted tile) move it. It never goes back onto a "
               "tile of this movement, and it eats every figure where it goes."),
            N_("A princess (♛) in the city your tile joins: instead of deploying, press x to send one of that "
               "city's knights home."),
            N_("Instead of deploying, press m to put the fairy (✦) next to one of your followers: 1 point as each "
               "of your turns begins, 3 when that follower's feature scores, and the dragon may not enter its "
               "tile."),
        ),
        ("PD3", "B", "B", "PDH", "V"),
        ("place PD3 1,0 0", "skip", "place B 1,1 0", "deploy 0", "place B 0,1 0", "deploy 0",
         "place PDH 2,0 0", "fairy 1,1 0", "dragon 0,0", "dragon 0,1"),
    ),
)


# -------------------------------------------------------------------------------------- progress


class Progress:
    """What the learner has done, kept in ``tutorial/progress.json`` in the data folder: the lessons
    finished (by number) and the expansions' lessons read (by key). A file that cannot be read counts
    as nothing done; one that cannot be written is not kept (the lessons go on)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.lessons: set[int] = set()
        self.expansions: set[str] = set()
        try:
            data = json.loads((folder / "progress.json").read_text("utf-8"))
            self.lessons = {int(n) for n in data.get("lessons", []) if 0 <= int(n) < len(LESSONS)}
            self.expansions = {str(k) for k in data.get("expansions", [])}
        except (OSError, ValueError, TypeError, AttributeError):
            pass

    def finish(self, lesson: int | None = None, expansion: str | None = None) -> None:
        """Notes *lesson* finished, or *expansion*'s lesson read, and saves."""
        before = (len(self.lessons), len(self.expansions))
        if lesson is not None:
            self.lessons.add(lesson)
        if expansion is not None:
            self.expansions.add(expansion)
        if (len(self.lessons), len(self.expansions)) == before:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            data = {"lessons": sorted(self.lessons), "expansions": sorted(self.expansions)}
            (self.folder / "progress.json").write_text(json.dumps(data), "utf-8")
        except OSError:
            pass
