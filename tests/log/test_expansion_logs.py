"""Saved games with The River and The Abbot resume and replay like any other (issue 6)."""

from __future__ import annotations

from carcnet.bots import make_bot
from carcnet.engine import Phase, Rules
from carcnet.log import GameRecorder, LogHeader, Seat, load


def test_expansion_game_saved_resumed_and_replayed(tmp_path):
    rules = Rules(river=True, abbot=True, river_start="omit")
    header = LogHeader.new(
        [Seat("Ann", "red", "bot", "greedy"), Seat("Bob", "blue", "bot", "random")], seed=77, options=rules
    )
    path = tmp_path / "game.carclog"
    bots = [make_bot("greedy", 1), make_bot("random", 2)]
    with GameRecorder.create(header, path) as recorder:
        for _ in range(60):  # stop mid-game, past the river
            recorder.submit(bots[recorder.game.seat].choose(recorder.game))
    with GameRecorder.resume(path) as recorder:
        assert recorder.header.options == rules and len(recorder.entries) == 60
        while recorder.game.phase is not Phase.GAME_OVER:
            recorder.submit(bots[recorder.game.seat].choose(recorder.game))
        final = recorder.game
    loaded = load(path)
    assert loaded.header.options == rules
    assert loaded.game.digests == final.digests and loaded.game.scores == final.scores
    assert any(t.kind.letter == "R2" for t in loaded.game.board.tiles.values())
