"""Continue from here (carcnet.log.branch, issue 34): a game continued from any move as a new game at
one terminal stands where the original stood, with the same tiles to come (or, after the table's
draws, the rest of the bag in an order of its own), and plays on to the end."""

from __future__ import annotations

import pytest

from carcnet.bots import GreedyBot, RandomBot
from carcnet.engine import DrawTile, Figure, Game, Phase, Rules
from carcnet.engine.draws import chain, draw_index, draw_value
from carcnet.log import LogHeader, Seat
from carcnet.log.branch import continue_from

SEATS = [Seat("Ann", "red"), Seat("Bob", "blue"), Seat("Greedy", "yellow", "bot", "greedy")]


def _position(game: Game) -> tuple:
    return (sorted((k, t.kind.letter, t.rotation) for k, t in game.board.tiles.items()),
            game.scores, game.supply, game.supply_of(Figure.ABBOT), game.phase, game.seat, game.drawn, game.tiles_left,
            sorted(game.remaining().items()))


def _played(header: LogHeader, count: int, seed: int) -> list:
    game = Game(header.setup())
    bots = [RandomBot(seed + s) for s in range(3)]
    moves = []
    while game.phase is not Phase.GAME_OVER and len(moves) < count:
        move = bots[game.seat].choose(game.view())
        game.apply(move)
        moves.append(move)
    return moves


@pytest.mark.parametrize("rules", [Rules(), Rules(river=True, abbot=True), Rules(inns=True)])
def test_a_seeded_game_continues_where_it_stood_with_the_same_tiles_to_come(rules):
    header = LogHeader.new(SEATS, seed=77, options=rules, created=0)
    moves = _played(header, 400, 5)
    for at in (0, 1, 2, 17, 40, len(moves) - 1, len(moves)):
        new, kept = continue_from(header, moves, at, created=1)
        assert new.game != header.game and new.keys is None and new.options == rules and new.seed == 77
        original, branch = Game(header.setup()), Game(new.setup())
        for move in moves[:at]:
            original.apply(move)
        for move in kept:
            branch.apply(move)
        assert _position(branch) == _position(original), at
        assert branch.deck[branch.deck_index:] == original.deck[original.deck_index:]


def _table_game(count: int) -> tuple[LogHeader, list]:
    game_id = "ab" * 16
    secrets = [bytes([i + 1]) * 32 for i in range(3)]
    chains = [chain(game_id, i, secrets[i], 80) for i in range(3)]
    header = LogHeader.new(SEATS, keys=[bytes([i + 1]) * 32 for i in range(3)], commits=[c[0] for c in chains],
                           created=0, game=game_id)
    game = Game(header.setup())
    bots = [RandomBot(9 + s) for s in range(3)]
    moves = []
    draw = 0
    while game.phase is not Phase.GAME_OVER and len(moves) < count:
        if game.phase is Phase.DRAW:
            draw += 1
            move = DrawTile(tuple(c[draw] for c in chains))
        else:
            move = bots[game.seat].choose(game.view())
        game.apply(move)
        moves.append(move)
    return header, moves


def test_a_game_of_the_table_s_draws_continues_with_the_tiles_drawn_then_a_new_order():
    header, moves = _table_game(90)
    assert any(isinstance(m, DrawTile) for m in moves)
    for at in (0, 1, 3, 30, 61, len(moves)):
        new, kept = continue_from(header, moves, at, created=1)
        assert new.draws is None and new.order is not None and not any(isinstance(m, DrawTile) for m in kept)
        original, branch = Game(header.setup()), Game(new.setup())
        for move in moves[:at]:
            original.apply(move)
        for move in kept:
            branch.apply(move)
        if original.phase is Phase.DRAW:  # the original waits for the table's draw; the branch has drawn
            assert branch.phase is Phase.PLACE_TILE and branch.remaining().get(branch.drawn, 0) + 1 == \
                original.remaining().get(branch.drawn, 0)
        else:
            assert _position(branch) == _position(original), at
        assert continue_from(header, moves, at, created=1)[0].order == new.order  # the same on every laptop
        bots = [GreedyBot(s) for s in range(3)]
        while branch.phase is not Phase.GAME_OVER:
            branch.apply(bots[branch.seat].choose(branch.view()))


def test_continuing_out_of_range_or_with_other_seats_is_refused():
    header = LogHeader.new(SEATS, seed=1, created=0)
    moves = _played(header, 10, 1)
    with pytest.raises(ValueError):
        continue_from(header, moves, 11)
    with pytest.raises(ValueError):
        continue_from(header, moves, -1)
    with pytest.raises(ValueError):
        continue_from(header, moves, 3, seats=SEATS[:2])
    people = [Seat("Ann", "red"), Seat("Bob", "blue"), Seat("Cleo", "yellow")]
    new, _ = continue_from(header, moves, 3, seats=people)
    assert [s.player for s in new.seats] == ["human"] * 3
