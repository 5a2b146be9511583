"""``Game.copy``: a copy is an independent game whose state is that of a fresh replay.

Random games (any rules, any number of players) are copied at a random move; both the copy and the
original then play on differently, and each is compared with a fresh :func:`replay` of its own moves:
digests, scores, supplies, features, figures, legal moves and events. This is what a turn not yet
confirmed in the interface, and a search bot, rely on.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from carcnet.bots import RandomBot
from carcnet.engine import Figure, Game, GameSetup, Phase, Rules, replay

from .test_draws import draw_now, play_out, table_game


def _state(game: Game) -> tuple[object, ...]:
    """Everything a player or a bot can ask of *game*, in comparable form."""
    return (
        game.digests,
        game.phase,
        game.seat,
        game.drawn,
        game.scores,
        game.supply,
        game.supply_of(Figure.ABBOT),
        game.breakdown,
        game.tiles_left,
        game.remaining(),
        game.set_aside,
        game.last_placed,
        game.winners,
        [str(m) for m in game.legal_moves()] if game.phase is not Phase.GAME_OVER else [],
        game.figures(),
        game.features(),
        game.events,
        sorted((p, t.kind.letter, t.rotation) for p, t in ((t.position, t) for t in game.board.tiles.values())),
    )


def _play(game: Game, bot: RandomBot, moves: int) -> None:
    for _ in range(moves):
        if game.phase is Phase.GAME_OVER:
            return
        game.apply(bot.choose(game.view()))


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 5),
    river=st.booleans(),
    abbot=st.booleans(),
    at=st.integers(0, 160),
)
def test_a_copy_plays_on_alone_and_equals_a_fresh_replay(
    seed: int, players: int, river: bool, abbot: bool, at: int
) -> None:
    setup = GameSetup(players=players, seed=seed, rules=Rules(river=river, abbot=abbot))
    game = Game(setup)
    _play(game, RandomBot(seed), at)
    before = _state(game)
    copy = game.copy()
    assert _state(copy) == before

    _play(copy, RandomBot(seed + 1), 400)  # the copy plays to the end its own way
    assert _state(game) == before, "playing the copy changed the original"
    assert _state(copy) == _state(replay(setup, copy.moves))

    _play(game, RandomBot(seed + 2), 400)  # and the original its own way
    assert _state(game) == _state(replay(setup, game.moves))


def test_a_copy_of_a_table_draws_game_draws_alone() -> None:
    """A table-draws game's bag and revealed values are copied, not shared."""
    game, chains = table_game(2)
    draw_now(game, chains)
    copy = game.copy()
    bot = RandomBot(3)
    copy.apply(bot.choose(copy.view()))
    copy.apply(bot.choose(copy.view()))
    draw_now(copy, chains)
    assert game.tiles_left == copy.tiles_left + 1
    assert game.revealed != copy.revealed
    assert _state(copy) == _state(replay(game.setup, copy.moves))
    play_out(game, chains)
    assert _state(game) == _state(replay(game.setup, game.moves))
