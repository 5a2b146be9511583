"""One peer's part in the table's draws, as tables of cases (protocol/wire.md §5.7, deck.md §5): the
values it reveals (each once), the draw it makes only once every contributing seat's value is in, the
``reveal``s it holds, ignores or refuses (a value that is not the seat's chain value is
``bad-reveal``), and which of a draw and a handover for one seq counts. Values in, values out: games
are engine games, clocks are numbers, no session."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from carcnet.engine import DrawTile, Game, HandOver, Phase, PlaceTile, Position
from carcnet.log import LogEntry
from carcnet.net import Reveal, SignedEntry
from carcnet.net.draws import DrawStep, DrawValues, draw_race

from .loopback import make_header, seat_key
from .test_table_draws import chains, table_header

PLAYERS = 3
HEADER = table_header(PLAYERS)
SEEDED = make_header(PLAYERS)
#: Each seat's chain: ``VALUES[seat][k]`` is its value for draw k.
VALUES = chains(PLAYERS)


def game_at(draw: int, handed: Iterable[int] = ()) -> Game:
    """The table game waiting for draw *draw* (1-based), every earlier draw made from every seat's
    value and every turn the first legal move; then the seats *handed* handed over to seat 0's bot
    (legal while the table draws)."""
    game = Game(HEADER.header.setup())
    while not (game.phase is Phase.DRAW and game.deck_index + 1 == draw):
        if game.phase is Phase.DRAW:
            k = game.deck_index + 1
            game.apply(draw_of(k, game.contributors()))
        else:
            game.apply(game.legal_moves()[0])
    for seat in handed:
        game.apply(HandOver(seat, "greedy", 0))
    return game


def reveal(seat: int, draw: int, value: bytes | None = None) -> Reveal:
    """Seat *seat*'s value for *draw*: its chain's (default) or *value*."""
    return Reveal(seat=seat, draw=draw, value=VALUES[seat][draw] if value is None else value)


def draw_of(draw: int, seats: Iterable[int]) -> DrawTile:
    """The draw made from the values of *seats* (``None`` for the others)."""
    seats = set(seats)
    return DrawTile(tuple(VALUES[s][draw] if s in seats else None for s in range(PLAYERS)))


# ---------------------------------------------------------------------- step

#: (seats handed over, seats whose keys this peer holds: seat → the seat whose key it really is,
#:  seats whose values arrived first, seats revealed by this step, seats the draw is made from or None)
STEP = [
    pytest.param((), {}, (), (), None, id="no key and no value: nothing to send, no draw"),
    pytest.param((), {0: 0}, (), (0,), None, id="one seat of three: its value goes out, no draw yet"),
    pytest.param((), {0: 0, 1: 1}, (), (0, 1), None, id="two seats of three: no draw before the third value"),
    pytest.param((), {0: 0, 1: 1, 2: 2}, (), (0, 1, 2), (0, 1, 2),
                 id="every seat held: values out and the draw"),
    pytest.param((), {0: 0}, (1, 2), (0,), (0, 1, 2), id="this peer's value completes the draw"),
    pytest.param((), {}, (0, 1, 2), (), (0, 1, 2), id="every value from peers: the draw"),
    pytest.param((), {}, (0, 2), (), None, id="a value still missing from peers: no draw"),
    pytest.param((2,), {0: 0, 1: 1}, (), (0, 1), (0, 1), id="a seat handed over does not contribute"),
    pytest.param((2,), {0: 0, 1: 1, 2: 2}, (), (0, 1), (0, 1),
                 id="a key held for a seat handed over reveals nothing"),
    pytest.param((1,), {0: 0}, (2,), (0,), (0, 2), id="the draw names nil for the seat handed over"),
    pytest.param((), {0: 0, 1: 0}, (2,), (0,), None,
                 id="a key that does not give the seat's root reveals nothing"),
]


@pytest.mark.parametrize("draw", [pytest.param(1, id="first draw"), pytest.param(4, id="fourth draw")])
@pytest.mark.parametrize(("handed", "keys", "arrived", "revealed", "made"), STEP)
def test_step(draw, handed, keys, arrived, revealed, made):
    game = game_at(draw, handed)
    room = DrawValues()
    for seat in arrived:
        assert room.take(reveal(seat, draw), game, HEADER) == "held"
    step = room.step(game, HEADER, {seat: seat_key(owner) for seat, owner in keys.items()}, now=12.5)
    move = None if made is None else draw_of(draw, made)
    assert step == DrawStep(tuple(reveal(s, draw) for s in revealed), move)
    assert room.waiting == (draw, 12.5)
    contributors = [s for s in range(PLAYERS) if s not in handed]
    assert room.missing(game) == [s for s in contributors if s not in {*revealed, *arrived}]
    if step.move is not None:  # the draw is one the engine takes
        game.apply(step.move)
        assert game.deck_index == draw
        assert game.revealed is not None and all(game.revealed[s] == (draw, VALUES[s][draw]) for s in made)


#: (seats whose keys this peer holds, seats whose values arrive between the two looks, what the second
#:  look gives: seats revealed, seats the draw is made from or None)
STEP_AGAIN = [
    pytest.param((0,), (), (), None, id="a value is sent once"),
    pytest.param((0,), (1,), (), None, id="a value arriving later does not send ours again"),
    pytest.param((0,), (1, 2), (), (0, 1, 2), id="the last value arriving makes the draw"),
    pytest.param((0, 1, 2), (), (), (0, 1, 2), id="a draw made is made the same again"),
]


@pytest.mark.parametrize(("keys", "arrived", "revealed", "made"), STEP_AGAIN)
def test_step_again(keys, arrived, revealed, made):
    game = game_at(2)
    room = DrawValues()
    held = {seat: seat_key(seat) for seat in keys}
    room.step(game, HEADER, held, now=1.0)
    for seat in arrived:
        assert room.take(reveal(seat, 2), game, HEADER) == "held"
    step = room.step(game, HEADER, held, now=7.0)
    assert step == DrawStep(tuple(reveal(s, 2) for s in revealed), None if made is None else draw_of(2, made))
    assert room.waiting == (2, 1.0)  # waiting since the first look at this draw


def test_step_at_the_next_draw_forgets_the_last_and_keeps_the_next():
    room = DrawValues()
    first = game_at(1)
    assert room.take(reveal(1, 2), first, HEADER) == "held"  # a peer ahead: the next draw's value
    assert room.step(first, HEADER, {0: seat_key(0)}, now=1.0).move is None
    assert set(room.reveals) == {1, 2}
    second = game_at(2)
    step = room.step(second, HEADER, {0: seat_key(0)}, now=5.0)
    assert step == DrawStep((reveal(0, 2),), None)
    assert room.reveals == {2: {1: VALUES[1][2], 0: VALUES[0][2]}}
    assert room.waiting == (2, 5.0) and room.missing(second) == [2]


# ---------------------------------------------------------------------- take

#: The draw the game waits for in the take cases.
NOW = 3

#: (the reveals in the order they arrive, each with the verdict expected; seats handed over)
TAKE = [
    pytest.param([(reveal(1, NOW), "held")], (), id="the seat's value for the draw waited for"),
    pytest.param([(reveal(1, NOW + 1), "held")], (), id="the seat's value for the next draw"),
    pytest.param([(reveal(1, NOW - 1), "ignore")], (), id="a draw made already"),
    pytest.param([(reveal(1, NOW + 2), "ignore")], (), id="more than one draw ahead"),
    pytest.param([(Reveal(seat=PLAYERS, draw=NOW, value=bytes(32)), "ignore")], (),
                 id="a seat the table does not have"),
    pytest.param([(reveal(2, NOW), "ignore")], (2,), id="a seat handed over"),
    pytest.param([(reveal(1, NOW), "held"), (reveal(1, NOW), "ignore")], (),
                 id="the same value twice is taken once"),
    pytest.param([(reveal(1, NOW, bytes(32)), "bad-reveal")], (), id="not a chain value"),
    pytest.param([(reveal(1, NOW, VALUES[0][NOW]), "bad-reveal")], (), id="another seat's value"),
    pytest.param([(reveal(1, NOW, VALUES[1][NOW + 1]), "bad-reveal")], (),
                 id="the next draw's value for the draw waited for"),
    pytest.param([(reveal(1, NOW, VALUES[1][NOW - 1]), "bad-reveal")], (),
                 id="the seat's value revealed already"),
    pytest.param([(reveal(1, NOW + 1, VALUES[1][NOW]), "bad-reveal")], (),
                 id="the value of the draw waited for, for the next"),
    pytest.param([(reveal(1, NOW), "held"), (reveal(1, NOW, bytes(32)), "bad-reveal")], (),
                 id="a second, different value after the right one"),
    pytest.param([(reveal(1, NOW, bytes(32)), "bad-reveal"), (reveal(1, NOW), "held")], (),
                 id="a refused value leaves room for the right one"),
]


@pytest.mark.parametrize(("reveals", "handed"), TAKE)
def test_take(reveals, handed):
    game = game_at(NOW, handed)
    room = DrawValues()
    assert [room.take(r, game, HEADER) for r, _ in reveals] == [verdict for _, verdict in reveals]
    held = {(r.draw, r.seat): r.value for r, verdict in reveals if verdict == "held"}
    assert {(d, s): v for d, values in room.reveals.items() for s, v in values.items()} == held
    assert set(room.reveals) <= {NOW, NOW + 1}  # nothing kept beyond the draw waited for and the next


#: (the game, the header, the verdict)
TAKE_OUT_OF_PLACE = [
    pytest.param(None, None, "no-header", id="no game yet"),
    pytest.param(game_at(1), None, "no-header", id="a game but no header"),
    pytest.param(Game(SEEDED.header.setup()), SEEDED, "seeded", id="a seeded game draws no values"),
]


@pytest.mark.parametrize(("game", "header", "verdict"), TAKE_OUT_OF_PLACE)
def test_take_out_of_place(game, header, verdict):
    room = DrawValues()
    assert room.take(reveal(1, 1), game, header) == verdict
    assert room.reveals == {}


# ---------------------------------------------------------------------- missing, values_held


def placing() -> Game:
    game = game_at(1)
    game.apply(draw_of(1, range(PLAYERS)))
    assert game.phase is Phase.PLACE_TILE
    return game


#: (the game, seats handed over, values that arrived: (seat, draw), the seats missing)
MISSING = [
    pytest.param(None, (), (), [], id="no game"),
    pytest.param(Game(SEEDED.header.setup()), (), (), [], id="a seeded game waits for no value"),
    pytest.param(placing(), (), (), [], id="a game waiting for a placement"),
    pytest.param(game_at(2), (), (), [0, 1, 2], id="every contributing seat"),
    pytest.param(game_at(2), (), [(1, 2)], [0, 2], id="a value in"),
    pytest.param(game_at(2), (), [(1, 3)], [0, 1, 2], id="a value for the next draw does not count"),
    pytest.param(game_at(2, handed=(1,)), (1,), [], [0, 2], id="a seat handed over is not waited for"),
    pytest.param(game_at(2), (), [(0, 2), (1, 2), (2, 2)], [], id="every value in"),
]


@pytest.mark.parametrize(("game", "handed", "arrived", "missing"), MISSING)
def test_missing(game, handed, arrived, missing):
    room = DrawValues()
    for seat, draw in arrived:
        assert room.take(reveal(seat, draw), game, HEADER) == "held"
    assert room.missing(game) == missing


#: (seats whose keys this peer holds, seats whose values arrived from peers, seats asked for, seats listed)
VALUES_HELD = [
    pytest.param((0, 2), (), (0, 2), (0, 2), id="this peer's values, in seat order"),
    pytest.param((0, 2), (), (2,), (2,), id="only the seats asked for"),
    pytest.param((0,), (1,), (0, 1), (0, 1), id="a value that arrived is listed for a seat asked for"),
    pytest.param((0,), (1,), (0,), (0,), id="a peer's value is not passed on as this peer's"),
    pytest.param((), (), (0, 1, 2), (), id="nothing held"),
]


@pytest.mark.parametrize(("keys", "arrived", "own", "listed"), VALUES_HELD)
def test_values_held(keys, arrived, own, listed):
    game = game_at(2)
    room = DrawValues()
    for seat in arrived:
        assert room.take(reveal(seat, 2), game, HEADER) == "held"
    room.step(game, HEADER, {s: seat_key(s) for s in keys}, now=0.0)
    assert room.values_held(game, {s: seat_key(s) for s in own}) == [reveal(s, 2) for s in listed]


@pytest.mark.parametrize("game", [pytest.param(None,
                                               id="no game"), pytest.param(placing(), id="not drawing")])
def test_values_held_outside_a_draw(game):
    room = DrawValues()
    room.step(game_at(1), HEADER, {0: seat_key(0)}, now=0.0)
    assert room.values_held(game, {0: seat_key(0)}) == []


# ---------------------------------------------------------------------- chain

#: (the header, the seat, the seat whose key is given, whether the chain is made)
CHAIN = [
    pytest.param(HEADER, 0, 0, True, id="the seat's own key"),
    pytest.param(HEADER, 2, 2, True, id="another seat's own key"),
    pytest.param(HEADER, 1, 0, False, id="a key that does not give the header's root"),
    pytest.param(SEEDED, 0, 0, False, id="a seeded game has no chains"),
]


@pytest.mark.parametrize(("header", "seat", "owner", "made"), CHAIN)
def test_chain(header, seat, owner, made):
    room = DrawValues()
    values = room.chain(header, seat, seat_key(owner))
    assert values == (VALUES[seat] if made else None)
    if made:
        assert len(values) == header.header.options.pile_size() + 1 and values[0] == header.commits[seat]
        assert room.chain(header, seat, seat_key(owner)) is values  # made once


# ---------------------------------------------------------------------- draw_race


def entry(move) -> SignedEntry:
    """An entry of seq 5 holding *move* (signed unless it is a draw: the race looks at moves only)."""
    signed = LogEntry(5, 0, move, bytes(32))
    return SignedEntry(signed, None if isinstance(move, DrawTile) else seat_key(0).sign(b"any"))


DRAW = draw_of(2, range(PLAYERS))
OTHER_DRAW = draw_of(2, (0, 1))
HANDOVER = HandOver(2, "greedy", 0)
PLACE = PlaceTile("E", Position(0, 1), 0)

#: (the move held, the move received, which counts)
RACE = [
    pytest.param(DRAW, HANDOVER, "theirs", id="a draw held, a handover received: the handover wins"),
    pytest.param(HANDOVER, DRAW, "ours", id="a handover held, a draw received: ours wins"),
    pytest.param(DRAW, OTHER_DRAW, None, id="two draws"),
    pytest.param(HANDOVER, HandOver(1, "greedy", 0), None, id="two handovers"),
    pytest.param(PLACE, HANDOVER, None, id="a placement and a handover"),
    pytest.param(DRAW, PLACE, None, id="a draw and a placement"),
]


@pytest.mark.parametrize(("held", "received", "counts"), RACE)
def test_draw_race(held, received, counts):
    assert draw_race(entry(held), entry(received)) == counts


def test_a_peer_back_in_touch_with_the_table_waits_again_before_judging_a_value_withheld():
    """wire.md §5.7 "Withholding": a peer that was apart from most of the table while the draw began
    could not receive the others' values; once back in touch (``restart``) the wait counts again, so it
    neither vouches for a ``handover`` of a seat whose value is still on its way, nor (through
    ``waiting``, which the presence reads) judges the seat withholding. Before, each side of a healed
    split handed the other's seats over at once, and the table forked."""
    game = game_at(1)
    values = DrawValues()
    values.wait = 5.0
    values.step(game, HEADER, {0: seat_key(0)}, 100.0)
    assert values.vouch(game, 1, 120.0) == "withheld"  # missing for 20 s
    values.restart(120.0)
    assert values.waiting == (1, 120.0)
    assert values.vouch(game, 1, 121.0) == "early"
    values.take(reveal(1, 1), game, HEADER)
    values.step(game, HEADER, {0: seat_key(0)}, 121.0)
    assert values.vouch(game, 1, 130.0) == "present"  # it came a second after the heal
    assert values.vouch(game, 2, 130.0) == "withheld"  # seat 2's did not come in the wait
