"""The scored examples of the HiG rulebooks, rebuilt as positions and checked point for point.

Sources (in ``shared/rules/`` beside the repository):

* ``HB`` = ``hig-basic-rules-with-tile-list.txt`` (HiG basic rules with the tile list A–X);
* ``HA`` = ``hig-annotated-rules-v4-with-faq-and-river.txt`` (annotated HiG rules v4, footnotes/FAQ = "FN n").

The pictures of the rulebooks are lost in the text extraction, so every position below is built to match
the *words* of its example (which features, how many tiles and pennants, who has how many followers,
what each player scores). Line numbers are those of the files as given by ``grep -n``.

Conventions: x grows east, y grows SOUTH; the start tile D lies at (0,0), city to the north, road east–west.
A script line is one turn: ``place <letter> <x>,<y> <degrees>`` then optionally ``; deploy <segment>``,
the segment being the index in the design's row of ``carcnet/engine/tiles.py``. Seat 0 plays first.
Colours are only names for seats: each test says which seat is which colour.

Tile rows used (index: segment), at rotation 0:

* A: 0 cloister, 1 road S, 2 field          * B: 0 cloister, 1 field
* C: 0 city N E S W pennant                 * D: 0 city N, 1 road E W, 2 field EL WR (strip), 3 field ER S WL
* E: 0 city N, 1 field                      * G: 0 city N S, 1 field E, 2 field W
* H: 0 city E, 1 city W, 2 field N S        * I: 0 city E, 1 city S, 2 field N W
* L: 0 city N, 1 road E, 2 road S, 3 road W, 4 field EL WR (strip), 5 field ER SL, 6 field SR WL
* M: 0 city N W pennant, 1 field            * N: 0 city N W, 1 field
* R: 0 city N E W, 1 field                  * S: 0 city N E W pennant, 1 road S, 2–3 fields
* U: 0 road N S, 1 field NR E SL, 2 field SR W NL (at 90°: 1 = south field, 2 = north field)
* V: 0 road S W, 1 outer field, 2 inner field SR WL
* W: 0 road E, 1 road S, 2 road W, 3 field N EL WR, 4 field ER SL, 5 field SR WL
* X: 0 road N, 1 road E, 2 road S, 3 road W, 4 field NR EL, 5 field ER SL, 6 field SR WL, 7 field WR NL
"""

from __future__ import annotations

import pytest

from carcnet.engine import (
    DeployMeeple,
    FeatureCompleted,
    Game,
    GameEnded,
    GameSetup,
    IllegalMoveError,
    MeepleDeployed,
    MeepleReturned,
    Phase,
    PlaceTile,
    PointsScored,
    Position,
    SegmentKind,
    SkipMeeple,
    TileDrawn,
    TileSetAside,
    replay,
)
from carcnet.engine.notation import play_script, script_moves

P = Position


# ---------------------------------------------------------------------------------------------- helpers


def _game_for(script: str, players: int, then: tuple[str, ...]) -> tuple[Game, list]:
    moves = script_moves(script)
    order = tuple(m.tile for m in moves if isinstance(m, PlaceTile)) + tuple(then)
    return Game(GameSetup(players=players, draw_order=order)), moves


def play_turns(script: str, players: int = 2, then: tuple[str, ...] = ()) -> tuple[Game, list[list]]:
    """Plays *script* turn by turn; returns the game and the events of each turn (final scoring included
    in the last turn's events when the deck runs out)."""
    game, moves = _game_for(script, players, then)
    per_turn = []
    for i in range(0, len(moves), 2):
        per_turn.append(game.apply(moves[i]) + game.apply(moves[i + 1]))
    return game, per_turn


def stop_before_last_follower_move(script: str, players: int = 2, then: tuple[str, ...] = ("B",)) -> Game:
    """Plays *script* but stops after the last line's ``place``: the game waits in the deploy phase."""
    game, moves = _game_for(script, players, then)
    for move in moves[:-1]:
        game.apply(move)
    assert game.phase is Phase.DEPLOY
    return game


def scored(events) -> list[tuple[str, tuple[int, ...], int, bool]]:
    """``(kind, seats, points, final)`` of every PointsScored, in event order."""
    return [(e.feature.kind.label, e.seats, e.points, e.final) for e in events if isinstance(e, PointsScored)]


def scoring_events(events) -> list[PointsScored]:
    return [e for e in events if isinstance(e, PointsScored)]


def final_scored(events) -> list[tuple[str, tuple[int, ...], int, bool]]:
    """Like :func:`scored`, sorted: the rules fix "incomplete features, then farms" (HB:205-213) but not
    the order among features of one kind. Checks that incomplete features come before farms."""
    got = scored(events)
    finals = [k for k, _, _, final in got if final]
    assert finals == sorted(finals, key=lambda k: k == "field"), "farms must be scored last"
    return sorted(got)


def feature_of(events, seats: tuple[int, ...]):
    """The feature of the one PointsScored in *events* whose seats are *seats*."""
    (ev,) = [e for e in scoring_events(events) if e.seats == seats]
    return ev.feature


def options(game: Game) -> list[int]:
    return [d.segment for d in game.deploy_options()]


def root(game: Game, x: int, y: int, seg: int):
    """A comparable name of the feature holding segment *seg* of the tile at (x, y)."""
    return game.feature_at(P(x, y), seg).anchor


# ---------------------------------------------------------------------------------------------- roads


def test_completed_road_of_three_tiles_scores_3():
    """HB "3. Score completed roads, cities or cloisters" / "A completed road" (HB:99-104, caption
    "Red scores 3 points" HB:115); HA same section (HA:130-135, caption "RED scores 3 points"
    HA:164-165): a road is complete when both ends reach a crossing, a city segment or a cloister; the
    thief scores 1 point per tile.

    Red (seat 0) puts a thief on the east road of a crossing W west of the start tile; Blue (seat 1) closes
    the road in the east with a cloister A whose road points west. The road is W–D–A: 3 tiles, and Red
    scores 3 on Blue's turn.
    """
    game, turns = play_turns(
        """
        place W -1,0 0; deploy 0   # Red: crossing; thief on its east road (joins the start road)
        place A 1,0 90             # Blue: cloister with its road pointing west ends the road
        """,
        then=("B",),
    )
    assert scored(turns[0]) == []
    assert scored(turns[1]) == [("road", (0,), 3, False)]
    (ev,) = scoring_events(turns[1])
    assert ev.feature.tiles == (P(-1, 0), P(0, 0), P(1, 0))
    assert ev.feature.complete
    assert game.scores == [3, 0]
    assert game.supply == [7, 7]  # the thief came back


def test_completed_road_of_four_tiles_scores_4():
    """HB "A completed road" (HB:99-104, caption "Red scores 4 points" HB:115); HA:130-135 ("RED scores 4
    points" HA:140): a road running from a crossing to a city gate over 4 tiles scores 4 for the thief.
    """
    game, turns = play_turns(
        """
        place U 1,0 90; deploy 0   # Red: straight road east of the start tile, thief on it
        place W -1,0 0             # Blue: crossing ends the road in the west
        place S 2,0 90             # Red: the road ends at the gate of a city (S turned: city N E S, road W)
        """,
        then=("B",),
    )
    assert scored(turns[1]) == []
    assert scored(turns[2]) == [("road", (0,), 4, False)]
    (ev,) = scoring_events(turns[2])
    assert ev.feature.tiles == (P(-1, 0), P(0, 0), P(1, 0), P(2, 0))
    assert game.scores == [4, 0]


def test_road_closed_into_a_loop_is_complete_and_closed_farm_without_city_scores_0():
    """HB "A completed road" (HB:99-101): "...or when the road forms a closed circle"; HA:130-132.
    HA FN 26 (HA:482-486): a farm "completely closed off by roads" with no adjacent city is scored like any
    other farm: "that makes a total of zero points".

    Four curves V make a closed loop south of the start tile. Red (seat 0) has the thief, Blue (seat 1) a
    farmer on the inner field. The loop is 4 tiles: Red scores 4 when it closes. At the end Blue's closed
    farm borders no city: 0 points.
    """
    game, turns = play_turns(
        """
        place V 0,1 270; deploy 0   # Red: curve E-S, thief
        place V 1,1 0; deploy 2     # Blue: curve W-S, farmer on the inner field
        place V 0,2 180             # Red: curve N-E
        place V 1,2 90              # Blue: curve N-W closes the loop
        """
    )
    assert scored(turns[2]) == []
    completed = [e.feature for e in turns[3] if isinstance(e, FeatureCompleted)]
    assert [f.kind for f in completed] == [SegmentKind.ROAD]
    assert completed[0].tiles == (P(0, 1), P(0, 2), P(1, 1), P(1, 2))
    assert scored(turns[3]) == [("road", (0,), 4, False), ("field", (1,), 0, True)]
    farm = scoring_events(turns[3])[1].feature
    assert farm.cities == ()
    assert farm.tiles == (P(0, 1), P(0, 2), P(1, 1), P(1, 2))
    assert game.scores == [4, 0]


def test_crossings_end_roads_and_each_arm_is_its_own_road():
    """HB "A completed road" (HB:99-101): a road ends in a crossing; HA FN 13 (HA:409-413) and FN 14
    (HA:416-419): "Every crossing (or junction) ends a road, irrespective of which direction they reach the
    junction from ... every thief is on its own road."

    Red (seat 0) has a thief on the start road. Blue (seat 1) places a crossing X east of it: X's west arm
    joins Red's road (so it cannot take a thief) but its other three arms are separate roads; Blue takes
    the north arm. Red then ends the road in the west with L (crossing with a city): 4 tiles, Red 4. Blue
    ends the north arm with a W crossing: 2 tiles, Blue 2.
    """
    script = """
        place U -1,0 90; deploy 0   # Red: thief on the start road
        place X 1,0 0; deploy 0     # Blue: crossing; thief on its north arm
        place L -2,0 0              # Red: crossing with a city ends the road in the west
        place W 1,-1 0              # Blue: crossing ends the north arm
    """
    game = stop_before_last_follower_move(
        """
        place U -1,0 90; deploy 0
        place X 1,0 0
        """
    )
    # the west arm (3) is on Red's road; arms N, E, S and all four quarter fields are free
    assert options(game) == [0, 1, 2, 4, 5, 6, 7]
    arms = {root(game, 1, 0, s) for s in range(4)}
    assert len(arms) == 4
    assert root(game, 1, 0, 3) == root(game, 0, 0, 1)
    assert game.feature_at(P(1, 0), 1).tiles == (P(1, 0),)

    game, turns = play_turns(script, then=("B",))
    assert scored(turns[2]) == [("road", (0,), 4, False)]
    assert scoring_events(turns[2])[0].feature.tiles == (P(-2, 0), P(-1, 0), P(0, 0), P(1, 0))
    assert scored(turns[3]) == [("road", (1,), 2, False)]
    assert scoring_events(turns[3])[0].feature.tiles == (P(1, -1), P(1, 0))
    assert game.scores == [4, 2]
    # X's east and south arms are still single-tile roads of their own
    assert game.feature_at(P(1, 0), 1).tiles == (P(1, 0),)
    assert game.feature_at(P(1, 0), 2).tiles == (P(1, 0),)


# ---------------------------------------------------------------------------------------------- cities


def test_completed_city_of_three_tiles_and_one_pennant_scores_8():
    """HB "A completed city" (HB:118-124, caption "Red scores 8 points (three city segments and one
    pennant)" HB:166-170); HA:142-152: 2 points per tile + 2 per pennant.

    Red (seat 0) extends the start city with M (pennant), knight on it; Blue (seat 1) closes it with E.
    """
    game, turns = play_turns(
        """
        place M 0,-1 180; deploy 0   # Red: city S+E with pennant, joins the start city; knight
        place E 1,-1 270             # Blue: closes the city from the east
        """,
        then=("B",),
    )
    assert scored(turns[1]) == [("city", (0,), 8, False)]
    city = scoring_events(turns[1])[0].feature
    assert city.tiles == (P(0, -1), P(0, 0), P(1, -1))
    assert city.pennants == 1
    assert city.complete
    assert game.scores == [8, 0]


def test_city_with_two_segments_on_one_tile_counts_that_tile_once():
    """HB "A completed city", caption "Red scores 8 points (four city segments, no pennants) When both city
    segments on a tile are in a single city, they only count as one segment" and "The new tile joins the
    previously unconnected city segments, forming a single completed city" (HB:173-183; HA:166-176).

    I (two separate city segments, east and south) lies south of the start tile; Red (seat 0) has a knight
    on its east segment. Three N tiles (two-sided city corners) make a ring: the last one joins I's two
    segments into one completed city on 4 tiles, I counted once: 8 points (not 10).
    """
    script = """
        place I 0,1 0; deploy 0      # Red: knight on I's east segment
        place N 1,1 270              # Blue: city W+S, continues I's east segment
        place N 0,2 90               # Red: city N+E, continues I's south segment
        place N 1,2 0                # Blue: city N+W joins both and closes the city
    """
    before_last_tile = script.strip().rsplit("\n", 1)[0]
    game = stop_before_last_follower_move(before_last_tile)
    assert root(game, 0, 1, 0) != root(game, 0, 1, 1)  # before Blue's last tile: two cities

    game, turns = play_turns(script, then=("B",))
    assert all(scored(t) == [] for t in turns[:3])
    assert scored(turns[3]) == [("city", (0,), 8, False)]
    city = scoring_events(turns[3])[0].feature
    assert city.tiles == (P(0, 1), P(0, 2), P(1, 1), P(1, 2))
    assert city.pennants == 0
    assert root(game, 0, 1, 0) == root(game, 0, 1, 1)
    assert game.scores == [8, 0]


def test_tied_knights_in_a_city_both_score_the_full_10():
    """HB "What happens if there are several followers on a completed road or in a completed city?"
    (HB:131-136): "In the case of a draw, all players involved score the full number of points"; caption
    "Blue and Red both score the full 10 points, as they both have one knight in the city - a draw!"
    (HB:187-188); HA:153-162, 190-191.

    Red (seat 0) has a knight in the start city + M (pennant), Blue (seat 1) a knight in a separate city
    (D east of the start, city to the north). Red's N joins them into one completed city of 4 tiles and 1
    pennant: 10 points for both.
    """
    game = stop_before_last_follower_move(
        """
        place M 0,-1 180; deploy 0   # Red knight
        place D 1,0 0                # Blue: its city is a separate one
        """
    )
    assert 0 in options(game)  # Blue may put a knight there: not connected to Red's city
    assert root(game, 1, 0, 0) != root(game, 0, -1, 0)

    game, turns = play_turns(
        """
        place M 0,-1 180; deploy 0
        place D 1,0 0; deploy 0      # Blue knight
        place N 1,-1 270             # Red joins the two cities and completes the result
        """,
        then=("B",),
    )
    assert scored(turns[2]) == [("city", (0, 1), 10, False)]
    city = scoring_events(turns[2])[0].feature
    assert city.tiles == (P(0, -1), P(0, 0), P(1, -1), P(1, 0))
    assert city.pennants == 1
    assert game.scores == [10, 10]
    assert game.supply == [7, 7]
    returned = sorted(e.seat for e in turns[2] if isinstance(e, MeepleReturned))
    assert returned == [0, 1]


def test_majority_of_knights_takes_a_completed_city_the_minority_scores_nothing():
    """HB (HB:131-135) / HA (HA:153-162): "The points are then scored by the player with the most thieves
    or knights"; HA FN 18 (HA:438-443): two knights do not double the points.

    Three city parts: Red (seat 0) knight on the start city + M (pennant), Blue (seat 1) knight on D's
    city, Red second knight on E's city. Blue's R joins all three: 5 tiles + 1 pennant = 12 for Red only.
    Every knight returns.
    """
    game, turns = play_turns(
        """
        place M 0,-1 180; deploy 0   # Red knight (part 1)
        place D 1,0 0; deploy 0      # Blue knight (part 2)
        place U 2,0 90               # Red
        place U -1,0 90              # Blue
        place E 2,-1 270; deploy 0   # Red knight (part 3)
        place R 1,-1 180             # Blue joins the three parts (city W, S, E) and completes the city
        """,
        then=("B",),
    )
    assert scored(turns[5]) == [("city", (0,), 12, False)]
    city = scoring_events(turns[5])[0].feature
    assert city.tiles == (P(0, -1), P(0, 0), P(1, -1), P(1, 0), P(2, -1))
    assert city.pennants == 1
    assert sorted(s for s, _ in city.meeples) == [0, 0, 1]
    assert game.scores == [12, 0]
    assert game.supply == [7, 7]


# ---------------------------------------------------------------------------------------------- cloisters


def test_completed_cloister_scores_9():
    """HB "A completed cloister" (HB:126-129, caption "Red scores 9 points" HB:188; HA:178-183, 188): a
    cloister surrounded by eight tiles scores 9 for its monk at once.
    """
    game, turns = play_turns(
        """
        place B 0,1 0; deploy 0      # Red: cloister south of the start tile, monk
        place U -1,0 90
        place U 1,0 90
        place E -1,1 270
        place E 1,1 90
        place E -1,2 180
        place E 0,2 180
        place E 1,2 180              # Blue: the eighth neighbour
        """,
        then=("B",),
    )
    for t in turns[:7]:
        assert scored(t) == []
    assert scored(turns[7]) == [("cloister", (0,), 9, False)]
    assert len(scoring_events(turns[7])[0].feature.tiles) == 9
    assert game.scores == [9, 0]
    assert game.supply == [7, 7]


# ---------------------------------------------------------------------------------------------- final scoring


def test_final_scoring_incomplete_road_3_and_incomplete_cloister_5():
    """HB "Final Scoring" / "Scoring incomplete roads, cities and cloisters" (HB:205-210, caption "Red scores
    3 points for the incomplete road. Yellow scores 5 points for the incomplete cloister." HB:231-235);
    HA:244-256.

    Red (seat 0): thief on a road of 3 tiles open at both ends. Yellow (seat 1): monk on a cloister with 4
    neighbours. The game ends after the last scripted tile.
    """
    game, turns = play_turns(
        """
        place U 1,0 90; deploy 0     # Red thief
        place B 0,1 0; deploy 0      # Yellow monk
        place U -1,0 90              # Red: road now 3 tiles, open at both ends
        place E 0,2 180              # Yellow: 4th neighbour of the cloister
        """
    )
    assert game.phase is Phase.GAME_OVER
    assert final_scored(turns[3]) == [("cloister", (1,), 5, True), ("road", (0,), 3, True)]
    road, cloister = feature_of(turns[3], (0,)), feature_of(turns[3], (1,))
    assert not road.complete and road.tiles == (P(-1, 0), P(0, 0), P(1, 0))
    assert not cloister.complete
    assert game.scores == [3, 5]
    assert isinstance(game.events[-1], GameEnded)
    assert game.events[-1].scores == (3, 5)
    assert game.breakdown[0]["road"] == [0, 3]
    assert game.breakdown[1]["cloister"] == [0, 5]


def test_final_scoring_incomplete_cloister_with_five_neighbours_6_and_incomplete_road_4():
    """HA FN 23 (HA:464-469): "During the final scoring roads earn exactly as much as during the game ... In
    the example shown, blue earns four points at the end of the game ... The cloister earns 1 point for the
    cloister itself and 1 point for every neighbouring tile. When there are five tiles surrounding the
    cloister it earns 6 in total."

    Blue (seat 0): thief on a road of 4 tiles. Red (seat 1): monk on a cloister with 5 neighbours.
    """
    game, turns = play_turns(
        """
        place U 1,0 90; deploy 0     # Blue thief
        place B 0,1 0; deploy 0      # Red monk
        place U -1,0 90
        place E 0,2 180
        place U 2,0 90               # road: 4 tiles
        place E 1,1 90               # cloister: 5 neighbours
        """
    )
    assert final_scored(turns[5]) == [("cloister", (1,), 6, True), ("road", (0,), 4, True)]
    assert game.scores == [4, 6]


def test_followers_scored_in_the_final_scoring_are_removed():
    """HB "Scoring incomplete roads, cities and cloisters" (HB:208-209; HA:249-250): "As soon as the feature
    in question has been scored, the followers involved are removed." Once the final scoring is done,
    nothing is left to score: asking the finished game for its projected final scores must give the final
    scores, not score every follower a second time.
    """
    game = play_script(
        """
        place U 1,0 90; deploy 0     # seat 0: thief, 2-tile road
        place B 0,1 0; deploy 0      # seat 1: monk, cloister with 2 neighbours
        """
    )
    assert game.phase is Phase.GAME_OVER
    assert final_scored(game.events) == [("cloister", (1,), 3, True), ("road", (0,), 2, True)]
    assert game.scores == [2, 3]
    totals, events = game.projected_final()
    assert (totals, events) == ([2, 3], [])


def test_final_scoring_incomplete_cities_one_point_per_tile_and_pennant_majority_decides():
    """HB "Scoring incomplete roads, cities and cloisters" (HB:205-210): "For every incomplete road, city and
    cloister the owner scores 1 point for every segment. Pennants also now score only 1 point"; caption
    "Blue scores 3 points for the incomplete city on the bottom right. Green scores 8 points for the large
    incomplete city. Black scores nothing, since Green has more knights in the city." (HB:237-240;
    HA:266-269).

    Seats: Green 0, Black 1, Blue 2. The large city (6 tiles, pennants on M and C, open to the east at
    (1,-2)) holds 2 Green knights and 1 Black knight: 8 for Green. Blue's city (E + M, 1 pennant, open to
    the west) scores 3.
    """
    game, turns = play_turns(
        """
        place M 0,-1 180; deploy 0   # Green knight (start city + M, pennant)
        place D 1,0 0; deploy 0      # Black knight (D's city, open north)
        place E 0,1 180; deploy 0    # Blue knight (city opening south)
        place U 2,0 90               # Green
        place M 0,2 0                # Black: Blue's city gets a pennant, still open to the west
        place U -1,0 90              # Blue
        place E 2,-1 270; deploy 0   # Green: second knight (city open west)
        place C 1,-1 0               # Black: C joins the three parts; open to the north
        place N 1,-2 180             # Blue: the large city goes on, open to the east
        """,
        players=3,
    )
    assert game.phase is Phase.GAME_OVER
    # nothing was completed during the game
    assert all(scored(t) == [] for t in turns[:-1])
    assert final_scored(turns[-1]) == [("city", (0,), 8, True), ("city", (2,), 3, True)]
    large, small = feature_of(turns[-1], (0,)), feature_of(turns[-1], (2,))
    assert large.tiles == (P(0, -1), P(0, 0), P(1, -2), P(1, -1), P(1, 0), P(2, -1))
    assert large.pennants == 2 and not large.complete
    assert small.tiles == (P(0, 1), P(0, 2)) and small.pennants == 1
    assert game.scores == [8, 0, 3]


# ---------------------------------------------------------------------------------------------- farms

# The farm layout used by the two "large farm / small farm" examples (HB:242-254, HA:283-293):
#
#   city A = start city + G (0,-1) + E (0,-2)                 (3 tiles, completed)
#   city B = E (1,-1) + E (2,-1)                               (2 tiles, completed)
#   small farm = G's west field + the field of E (-1,-1)      borders A (and an unfinished city)
#   large farm = G's east field + fields of (1,-1), (2,-1), (2,-2), (0,-2) ... joined by B at (1,-2)
#               borders A and B (and unfinished cities)


def test_farm_majority_red_owns_the_large_farm_blue_the_small_one():
    """HB "Final Scoring" / "Scoring farms" (HB:212-221): the player with the most farmers owns the farm
    and scores 3 per completed city bordering it; caption "Having the majority of farmers, Red owns the
    large farm, and scores 6 points: 3 each for the cities A and B. Blue owns the small farm, scoring 3
    points for city A." (HB:242-246; HA:283-287). Also HB:192-199 / HA:215-227 ("Be careful: The player who
    placed the new tile may not deploy a farmer, since the (now connected) farm is already occupied") and
    HA FN 11 (HA:397-400: a city may be closed without a knight and a farmer deployed).

    Red (seat 0): 2 farmers on two parts of the large farm; Blue (seat 1): 1 farmer on a third part of it
    and 1 on the small farm. The cloister B joins the three parts.
    """
    script = """
        place G 0,-1 0; deploy 1      # Red: farmer east of the city band (large farm, part 1)
        place E 0,-2 180; deploy 1    # Blue: closes city A without a knight; farmer north of it (part 3)
        place E 1,-1 90               # Red: city B begins; its field joins part 1
        place E -1,-1 270; deploy 1   # Blue: farmer on the small farm (west of city A)
        place E 2,-1 270; deploy 1    # Red: closes city B; farmer east of it (part 2)
        place E 2,-2 0                # Blue
        place B 1,-2 0                # Red: the cloister joins parts 1, 2 and 3
    """
    before = stop_before_last_follower_move(script)
    assert options(before) == [0]  # only the monk: the joined farm holds farmers
    with pytest.raises(IllegalMoveError):
        before.apply(DeployMeeple(1))

    game, turns = play_turns(script)
    completed = [e.feature.tiles for t in turns for e in t if isinstance(e, FeatureCompleted)]
    assert completed == [(P(0, -2), P(0, -1), P(0, 0)), (P(1, -1), P(2, -1))]
    assert all(scored(t) == [] for t in turns[:-1])  # farms are only scored at the end
    assert final_scored(turns[-1]) == [("field", (0,), 6, True), ("field", (1,), 3, True)]
    large, small = feature_of(turns[-1], (0,)), feature_of(turns[-1], (1,))
    assert sorted(s for s, _ in large.meeples) == [0, 0, 1]
    assert sorted(large.cities) == [(P(0, -2), P(0, -1), P(0, 0)), (P(1, -1), P(2, -1))]
    assert small.cities == ((P(0, -2), P(0, -1), P(0, 0)),)
    assert game.scores == [6, 3]
    assert game.supply == [5, 5]  # farmers never come back


def test_farm_tie_both_owners_score_in_full():
    """HB "Scoring farms" (HB:213-216): "In the case of a draw, all the players with the most farmers are
    considered to be owners"; caption "On the large farm Red and Yellow both have two farmers, and so both
    score 6 points: 3 each for the cities A and B. Blue owns the small farm, scoring 3 points for city A."
    (HB:248-253; HA:289-293).

    Seats: Red 0, Yellow 1, Blue 2. Same layout as the majority example plus a fourth part north of the
    joining cloister; Red and Yellow have two farmers each on the large farm.
    """
    game, turns = play_turns(
        """
        place G 0,-1 0; deploy 1      # Red farmer (part 1)
        place E 0,-2 180; deploy 1    # Yellow closes city A; farmer (part 3)
        place E -1,-1 270; deploy 1   # Blue farmer on the small farm
        place E 1,-1 90               # Red
        place E 2,-1 270              # Yellow closes city B
        place B 0,1 0                 # Blue, elsewhere
        place E 2,-2 0; deploy 1      # Red farmer east of city B (part 2)
        place N 2,-3 180; deploy 1    # Yellow farmer (part 4; its city stays open)
        place B 1,-3 0                # Blue
        place B 1,-2 0                # Red: the cloister joins the four parts
        """,
        players=3,
    )
    assert final_scored(turns[-1]) == [("field", (0, 1), 6, True), ("field", (2,), 3, True)]
    large = feature_of(turns[-1], (0, 1))
    assert sorted(s for s, _ in large.meeples) == [0, 0, 1, 1]
    assert len(large.cities) == 2
    assert game.scores == [6, 6, 3]


def test_farm_bordering_three_completed_cities_scores_9():
    """HB "Scoring farms" (HB:216-217), caption "Blue scores 9 points." (HB:265; HA:281) and HB:333-334
    ("For each completed city Blue scores 3 points (irrespective of their size)").

    Blue (seat 0) closes city A and puts a farmer north of it; cities B (north) and C (west) are completed
    around the same farm.
    """
    game, turns = play_turns(
        """
        place E 0,-1 180; deploy 1    # Blue: closes city A, farmer
        place E 0,-2 0                # Red
        place E 0,-3 180              # Blue closes city B
        place E -1,-1 270             # Red
        place E -2,-1 90              # Blue closes city C
        """
    )
    assert scored(turns[-1]) == [("field", (0,), 9, True)]
    farm = scoring_events(turns[-1])[0].feature
    assert sorted(farm.cities) == [
        (P(-2, -1), P(-1, -1)),
        (P(0, -3), P(0, -2)),
        (P(0, -1), P(0, 0)),
    ]
    assert game.scores == [9, 0]


def test_city_bordering_two_farms_scores_for_each_farm():
    """HB "Scoring farms" (HB:217-218): "If a city borders more than one farm, the owner(s) of each farm
    score 3 points for the city."; HA:266-267 and FN 28 (HA:496-505: "both farmers earn points").

    City A (start + E) lies between two farms: Red (seat 0) farms north of it, Blue (seat 1) the strip
    between city A and the road (extended by the crossing W). Each scores 3.
    """
    game, turns = play_turns(
        """
        place E 0,-1 180; deploy 1    # Red: closes city A, farmer north of it
        place W 1,0 0; deploy 3       # Blue: crossing; farmer on its north field = the strip south of A
        """
    )
    assert root(game, 0, -1, 1) != root(game, 0, 0, 2)
    assert final_scored(turns[-1]) == [("field", (0,), 3, True), ("field", (1,), 3, True)]
    a = (P(0, -1), P(0, 0))
    assert feature_of(turns[-1], (0,)).cities == (a,)
    assert feature_of(turns[-1], (1,)).cities == (a,)
    assert game.scores == [3, 3]


def test_incomplete_city_gives_farms_nothing():
    """HB "Scoring farms" (HB:216-217: "every completed city"), caption "Blue scores 6 points. Red scores 3
    points. The incomplete city generates no points." (HB:261-263; HA:278-279); HA FN 25 (HA:476-478: "the
    cities ... do indeed have to be complete").

    Red (seat 0) farms west of the city band G: borders completed city A and an unfinished city (-1,-1).
    Blue (seat 1) farms east of it: borders A, completed city B and an unfinished city (1,-2).
    """
    game, turns = play_turns(
        """
        place G 0,-1 0; deploy 2      # Red: farmer on G's west field
        place E 0,-2 180              # Blue: closes city A
        place E -1,-1 270             # Red: a city opens to the west (never completed)
        place E 1,-1 90; deploy 1     # Blue: farmer east of city A (city B begins)
        place E 2,-1 270              # Red: closes city B
        place E 1,-2 0                # Blue: a city opens to the north (never completed)
        """
    )
    assert final_scored(turns[-1]) == [("field", (0,), 3, True), ("field", (1,), 6, True)]
    red, blue = feature_of(turns[-1], (0,)), feature_of(turns[-1], (1,))
    a = (P(0, -2), P(0, -1), P(0, 0))
    assert red.cities == (a,)
    assert sorted(blue.cities) == [a, (P(1, -1), P(2, -1))]
    assert game.scores == [3, 6]


def test_farm_split_by_a_road_and_deploying_on_the_small_farm_segment():
    """HB "2. Deploy a follower" (HB:70-71, 95-96): "Blue can deploy the follower as a knight or a thief, or
    as a farmer on the small farm segment: the large farm is already occupied." (HA:120-121); "Farms are
    separated from each other by roads, cities and the edge of the playing field" (HB:155-156, HA:212).

    Red (seat 0) has a farmer south of the road. Blue (seat 1) places D further east: its city, its road
    and its small field (north of the road) are free, its large field joins Red's farm. At the end city A
    is completed; only the farm north of the road borders it: Blue 3, Red 0.
    """
    game = stop_before_last_follower_move(
        """
        place U 1,0 90; deploy 1     # Red: farmer south of the road (joins the start tile's large field)
        place D 2,0 0                # Blue
        """
    )
    assert options(game) == [0, 1, 2]
    with pytest.raises(IllegalMoveError) as exc:
        game.apply(DeployMeeple(3))
    assert exc.value.reason == "feature-occupied"

    game, turns = play_turns(
        """
        place U 1,0 90; deploy 1
        place D 2,0 0; deploy 2      # Blue: farmer on the small field north of the road
        place E 0,-1 180             # Red: completes city A
        """
    )
    assert root(game, 0, 0, 2) != root(game, 0, 0, 3)
    assert final_scored(turns[-1]) == [("field", (0,), 0, True), ("field", (1,), 3, True)]
    assert game.scores == [0, 3]


def test_farms_are_not_connected_over_corners():
    """HB "How Can There Be More Than 1 Farmer On a Farm?" (HB:344-361): "Turn 1: Blue deploys a farmer to
    the farm. Turn 2: Red places the above-right tile and places a farmer on the farm. That is permitted,
    as the farms are not connected at this point. Turn 3: Now the two farms are connected ... The farms are
    not connected over the corners!" (also HA FN 8, HA:364-366).

    Seats: Blue 0, Red 1. Blue's U west of the start tile and Red's E above-right of it touch only at a
    corner; Blue's E at (-1,-1) connects them. Both own the farm (1 farmer each): 3 each for city A.
    """
    game = stop_before_last_follower_move(
        """
        place U -1,0 90; deploy 2    # Blue: farmer north of the road
        place E 0,-1 180             # Red: above-right; closes city A
        """
    )
    assert 1 in options(game)  # permitted: the farms touch only at a corner
    assert root(game, -1, 0, 2) != root(game, 0, -1, 1)

    script = """
        place U -1,0 90; deploy 2
        place E 0,-1 180; deploy 1   # Red: farmer on the field above city A
        place E -1,-1 0              # Blue: fills the gap, the two farms become one
    """
    game = stop_before_last_follower_move(script)
    assert options(game) == [0]  # the joined farm is occupied: only the new city is free
    assert root(game, -1, 0, 2) == root(game, 0, -1, 1)

    game, turns = play_turns(script)
    assert scored(turns[-1]) == [("field", (0, 1), 3, True)]
    assert scoring_events(turns[-1])[0].feature.cities == ((P(0, -1), P(0, 0)),)
    assert game.scores == [3, 3]


# ---------------------------------------------------------------------------------------------- deployment


def test_cannot_deploy_in_a_city_that_already_holds_a_knight():
    """HB "2. Deploy a follower" (HB:70-71): "There must be no other follower (not even one belonging to the
    same player) on the road, city or farm segments connected to the tile just placed. It does not matter
    how far away the follower is."; caption "Blue can only deploy a farmer: there is already a knight in the
    connecting city." (HB:91-93; HA:113-118).
    """
    game = stop_before_last_follower_move(
        """
        place N 0,-1 180; deploy 0   # Red: knight, city open to the east
        place N 1,-1 270             # Blue continues the city (still open)
        """
    )
    assert options(game) == [1]
    with pytest.raises(IllegalMoveError) as exc:
        game.apply(DeployMeeple(0))
    assert exc.value.reason == "feature-occupied"
    game.apply(DeployMeeple(1))  # the farmer is fine
    assert game.supply == [6, 6]


def test_cannot_deploy_on_a_road_holding_ones_own_thief():
    """HB "2. Deploy a follower" (HB:70-71): "not even one belonging to the same player"; HA:113-114."""
    game = stop_before_last_follower_move(
        """
        place U 1,0 90; deploy 0     # Red: thief
        place B 0,1 0                # Blue
        place U 2,0 90               # Red extends his own road
        """
    )
    assert game.seat == 0
    assert options(game) == [1, 2]
    with pytest.raises(IllegalMoveError) as exc:
        game.apply(DeployMeeple(0))
    assert exc.value.reason == "feature-occupied"


def test_seat_without_followers_in_supply_gets_no_deploy_options():
    """HB "2. Deploy a follower" (HB:53-56, 85-86): "The follower must come from the player's supply ... If a
    player runs out of followers during the course of play, he or she may only place tiles." (HA:82, 123)
    Seven followers each (HB "Preparation", HB:32-34; HA:53-54). Adjacent cloisters are separate
    features (HA FN 9, HA:369-373).

    Red (seat 0) puts a monk on each of 7 cloisters in a column; on Red's 8th turn nothing can be deployed.
    """
    lines = []
    for k in range(1, 16):
        red = k % 2 == 1
        lines.append(f"place B 0,{k} 0" + ("; deploy 0" if red and k <= 13 else ""))
    game = stop_before_last_follower_move("\n".join(lines))
    assert game.seat == 0
    assert game.supply == [0, 7]
    assert game.deploy_options() == []
    assert game.legal_moves() == [SkipMeeple()]
    with pytest.raises(IllegalMoveError) as exc:
        game.apply(DeployMeeple(0))
    assert exc.value.reason == "no-supply"
    assert len({root(game, 0, k, 0) for k in range(1, 16)}) == 15


def test_follower_deployed_scores_and_returns_in_the_same_turn():
    """HB "Returning followers to their owners" (HB:142-150; HA:195-202): "It is possible to deploy a
    follower, score immediately, and have the follower returned, all in the same turn" in the order:
    complete, deploy, score, return.

    Red (seat 0) closes the start city with E and puts a knight in it: 4 points, knight back at once.
    """
    game, _ = _game_for("place E 0,-1 180; deploy 0", 2, ("B",))
    game.apply(PlaceTile("E", P(0, -1), 2))
    assert 0 in options(game)
    events = game.apply(DeployMeeple(0))
    kinds = [type(e) for e in events]
    i_dep, i_done, i_pts, i_ret = (
        kinds.index(MeepleDeployed),
        kinds.index(FeatureCompleted),
        kinds.index(PointsScored),
        kinds.index(MeepleReturned),
    )
    assert i_dep < i_done < i_pts < i_ret
    assert scored(events) == [("city", (0,), 4, False)]
    assert events[i_ret] == MeepleReturned(0, P(0, -1), 0, events[i_dep].figure)
    assert game.scores == [4, 0]
    assert game.supply == [7, 7]
    assert game.figures() == []


def test_faq_small_city_completed_deploying_on_it_returns_the_follower():
    """HA FN 10 (HA:376-384): "If the player does not yet occupy this city, he or she can decide which of
    the two city segments to deploy a follower to. If the follower is deployed to the small city, it will be
    returned immediately and the player will earn four points".

    Red (seat 0) places H north of the start tile: its south segment completes the start city (2 tiles).
    """
    game = stop_before_last_follower_move("place H 0,-1 90")
    assert options(game) == [0, 1, 2]
    events = game.apply(DeployMeeple(0))
    assert scored(events) == [("city", (0,), 4, False)]
    assert game.supply == [7, 7]
    assert game.scores == [4, 0]


def test_faq_small_city_completed_while_deploying_on_the_other_segment_of_the_tile():
    """HA FN 10 (HA:376-382): "If the player already occupies the small, now-completed city, he or she may
    deploy a second follower to the other city segment immediately after placing the tile. The small city
    will then be scored and the follower involved returned to the player."

    Red (seat 0) has a knight on D's city east of the start tile. Red's H then completes that small city
    with its south segment; Red deploys on H's north segment. Red scores 4, gets the first knight back and
    keeps the new one on the board.
    """
    game = stop_before_last_follower_move(
        """
        place D 1,0 0; deploy 0      # Red: knight on a city open to the north
        place B 0,1 0                # Blue
        place H 1,-1 90              # Red: H's south segment closes the small city
        """
    )
    assert options(game) == [1, 2]  # not the small city: Red's own knight is in it
    events = game.apply(DeployMeeple(1))
    assert scored(events) == [("city", (0,), 4, False)]
    city = scoring_events(events)[0].feature
    assert city.tiles == (P(1, -1), P(1, 0))
    assert [e for e in events if isinstance(e, MeepleReturned)] == [
        MeepleReturned(0, P(1, 0), 0, city.meeples[0][1])
    ]
    assert game.supply == [6, 7]
    assert [(s, pos, seg) for s, _, pos, seg in game.figures()] == [(0, P(1, -1), 1)]
    assert game.scores == [4, 0]


# ------------------------------------------------------------------------------------ set aside / end


def test_tile_that_fits_nowhere_is_set_aside_and_the_same_seat_draws_again():
    """HB "1. Place a tile" (HB:50-51; HA:70): "In the rare case that a tile cannot be placed anywhere, it
    is removed from the game, and the player draws another." HB "The End of the Game" (HB:202-204;
    HA:240-241): the game ends after the turn in which the last tile is placed, then the final scoring.

    Once E closes the start city, every open position needs a field or road side: C (all city) fits nowhere.
    """
    setup = GameSetup(players=2, draw_order=("E", "C", "B", "C"))
    game = Game(setup)
    game.apply(PlaceTile("E", P(0, -1), 2))
    events = game.apply(SkipMeeple())
    assert [e for e in events if isinstance(e, (TileDrawn, TileSetAside))] == [
        TileDrawn(1, "C"),
        TileSetAside(1, "C"),
        TileDrawn(1, "B"),
    ]
    assert game.seat == 1 and game.drawn == "B"
    game.apply(PlaceTile("B", P(0, 1), 0))
    events = game.apply(DeployMeeple(0))
    # the last tile (C) is set aside as well: the game is over and the final scoring ran
    assert TileSetAside(0, "C") in events
    assert game.phase is Phase.GAME_OVER
    assert game.set_aside == ["C", "C"]
    assert scored(events) == [("cloister", (1,), 2, True)]
    assert events[-1] == GameEnded((0, 2), (1,))

    same = replay(setup, game.moves)
    assert same.scores == [0, 2] and same.digest == game.digest


def test_play_script_runs_the_final_scoring_after_the_last_tile():
    """HB "The End of the Game" (HB:202-204): roads, cities and cloisters completed in the last turn are
    scored as usual, then the final scoring follows (HB:205-210).

    Red (seat 0) closes the start city with the last tile, knight on it (4, in play) and Blue's thief on
    the incomplete start road (3 tiles) scores 3 at the end.
    """
    game = play_script(
        """
        place U 1,0 90; skip         # Red
        place U -1,0 90; deploy 0    # Blue: thief on the 3-tile road
        place E 0,-1 180; deploy 0   # Red: last tile, completes the city
        """
    )
    assert scored(game.events) == [("city", (0,), 4, False), ("road", (1,), 3, True)]
    assert game.scores == [4, 3]
    assert isinstance(game.events[-1], GameEnded) and game.events[-1].winners == (0,)
