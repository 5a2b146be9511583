"""Saved games with The River, The Abbot and the editions' variants resume and replay like any other
(issues 6 and 16)."""

from __future__ import annotations

import pytest

from carcnet.bots import make_bot
from carcnet.engine import RULES_VERSION, Figure, MeepleDeployed, Phase, PointsScored, Rules, SegmentKind
from carcnet.log import GameRecorder, LogHeader, Seat, load


@pytest.mark.parametrize(
    "rules",
    [
        Rules(river=True, abbot=True, river_start="omit"),
        Rules(river=True, river_start="river", small_city=True),
        Rules(river=True, abbot=True, farms="city"),
        Rules(river=True, farms="off"),
    ],
    ids=["omit-abbot", "river-small-city", "after-first-edition-farms", "after-no-farmers"],
)
def test_expansion_game_saved_resumed_and_replayed(tmp_path, rules):
    header = LogHeader.new(
        [Seat("Ann", "red", "bot", "greedy"), Seat("Bob", "blue", "bot", "random")], seed=77, options=rules
    )
    path = tmp_path / "game.carclog"
    bots = [make_bot("greedy", 1), make_bot("random", 2)]
    with GameRecorder.create(header, path) as recorder:
        for _ in range(60):  # stop mid-game, past the river
            recorder.submit(bots[recorder.game.seat].choose(recorder.game.view()))
    with GameRecorder.resume(path) as recorder:
        assert recorder.header.options == rules and len(recorder.entries) == 60
        while recorder.game.phase is not Phase.GAME_OVER:
            recorder.submit(bots[recorder.game.seat].choose(recorder.game.view()))
        final = recorder.game
    loaded = load(path)
    assert loaded.header.options == rules
    assert loaded.game.digests == final.digests and loaded.game.scores == final.scores
    assert any(t.kind.letter == "R2" for t in loaded.game.board.tiles.values())
    events = loaded.game.events
    farmers = [e for e in events if isinstance(e, MeepleDeployed) and e.kind is SegmentKind.FIELD]
    assert bool(farmers) == (rules.farms != "off")  # the greedy bot deploys farmers when it may
    farm_points = [e for e in events if isinstance(e, PointsScored) and e.category == "field"]
    assert all(e.farmers == (rules.farms == "city") for e in farm_points)


@pytest.mark.parametrize(
    "rules", [Rules(inns=True), Rules(river=True, abbot=True, inns=True)], ids=["inns", "river-abbot-inns"]
)
def test_an_inns_and_cathedrals_game_saved_resumed_and_replayed(tmp_path, rules):
    """Issue 33: a game with Inns & Cathedrals saved mid-game (a large meeple on the board), resumed
    from its file and finished, then loaded: the same digests and scores, its tiles placed, the
    header naming the expansion."""
    from carcnet.engine import DeployMeeple, Figure

    header = LogHeader.new(
        [Seat("Ann", "red", "bot", "random"), Seat("Bob", "blue", "bot", "random")], seed=78, options=rules
    )
    path = tmp_path / "game.carclog"
    bots = [make_bot("random", 3), make_bot("random", 4)]
    with GameRecorder.create(header, path) as recorder:
        for _ in range(400):  # bounded: until a large meeple is on the board, past the first turns
            game = recorder.game
            if len(game.moves) >= 30 and game.supply_of(Figure.LARGE) != [1, 1]:
                break
            recorder.submit(bots[game.seat].choose(game.view()))
        assert recorder.game.supply_of(Figure.LARGE) != [1, 1], "no large meeple deployed in 400 moves"
        stopped = len(recorder.entries)
    with GameRecorder.resume(path) as recorder:
        assert recorder.header.options == rules and len(recorder.entries) == stopped
        assert recorder.game.supply_of(Figure.LARGE) != [1, 1]  # the large meeple is where it was
        while recorder.game.phase is not Phase.GAME_OVER:
            recorder.submit(bots[recorder.game.seat].choose(recorder.game.view()))
        final = recorder.game
    loaded = load(path)
    assert loaded.header.options == rules and loaded.header.rules == RULES_VERSION
    assert loaded.game.digests == final.digests and loaded.game.scores == final.scores
    letters = {t.kind.letter for t in loaded.game.board.tiles.values()}
    assert {"ICK", "ICB"} & letters  # the expansion's tiles were played
    assert any(isinstance(m, DeployMeeple) and m.figure is Figure.LARGE for m in loaded.game.moves)


def test_a_traders_and_builders_game_saved_resumed_and_replayed(tmp_path):
    """Issue 33: a game with Traders & Builders (and every other option) saved mid-game, resumed and
    finished, then loaded: the same digests and scores; builder turns, the pig and goods in it."""
    from carcnet.engine import BuilderTurn, DeployMeeple, Figure, GoodsTaken

    rules = Rules(river=True, abbot=True, inns=True, traders=True)
    for seed in range(78, 88):  # bounded: a seed whose random game has a builder's second tile
        header = LogHeader.new(
            [Seat("Ann", "red", "bot", "random"), Seat("Bob", "blue", "bot", "random")], seed=seed, options=rules
        )
        path = tmp_path / f"game{seed}.carclog"
        bots = [make_bot("random", seed), make_bot("random", seed + 1)]
        with GameRecorder.create(header, path) as recorder:
            for _ in range(90):
                recorder.submit(bots[recorder.game.seat].choose(recorder.game.view()))
        with GameRecorder.resume(path) as recorder:
            assert recorder.header.options == rules and len(recorder.entries) == 90
            while recorder.game.phase is not Phase.GAME_OVER:
                recorder.submit(bots[recorder.game.seat].choose(recorder.game.view()))
            final = recorder.game
        loaded = load(path)
        assert loaded.game.digests == final.digests and loaded.game.scores == final.scores
        if any(isinstance(e, BuilderTurn) for e in loaded.game.events):
            break
    else:
        raise AssertionError("no builder turn in ten random games")
    events = loaded.game.events
    assert any(isinstance(e, GoodsTaken) for e in events)
    assert any(isinstance(m, DeployMeeple) and m.figure is Figure.PIG for m in loaded.game.moves)
