"""Table draws over the wire (wire.md §5.7, deck.md §5; issue 14): sessions joined by in-memory wires
play whole games whose every tile is drawn from every seat's chain value; no peer or spectator ever
holds, before the last value of a draw is sent, the messages it would need to compute that draw; a
forged value is refused and the game goes on; a missing value stops the table until the seat is
handed over, after which draws go on without it; a resumed seat has its chain again; a handover made
while the table draws is taken only by peers that lacked the seat's value too (wire.md §5.6–5.7)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carcnet.bots import make_bot
from carcnet.engine import DrawTile, HandOver, Phase, Rules
from carcnet.log import COLOURS, LogHeader, Seat
from carcnet.net import Message, Reveal, WireHeader, encode_message
from carcnet.net import routing
from carcnet.net.draws import VOUCH_WAIT
from carcnet.net.signing import seat_chain
from carcnet.net.link import Link
from carcnet.net.sync import SyncSession

from .loopback import GAME, MemoryWire, identity, pump, seat_key


def table_header(players: int, rules: Rules = Rules()) -> WireHeader:
    """A network game with table draws: seat *i*'s key is ``seat_key(i)``, its root that key's chain."""
    seats = [Seat(f"Seat{i}", COLOURS[i], "bot", "random") for i in range(players)]
    keys = [seat_key(i) for i in range(players)]
    roots = [seat_chain(k, GAME, i, rules.pile_size())[0] for i, k in enumerate(keys)]
    return WireHeader.of(LogHeader.new(seats, keys=[k.public for k in keys], commits=roots, options=rules,
                                       created=0, game=GAME))


def chains(players: int, rules: Rules = Rules()) -> list[list[bytes]]:
    return [seat_chain(seat_key(i), GAME, i, rules.pile_size()) for i in range(players)]


class Clock:
    """The sessions' clock in these tests (seconds): it moves only when a test moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def table(players: int, spectators: int = 1, rules: Rules = Rules(),
          clock: Clock | None = None) -> tuple[list[SyncSession], list[MemoryWire]]:
    """One player session per seat and *spectators* watchers, every player connected to every other,
    each spectator to player 0 only; the players' clock is *clock* (a fresh one by default)."""
    header = table_header(players, rules)
    clock = clock or Clock()
    sessions = [
        SyncSession(game=GAME, name=f"P{i}", identity=seat_key(i), header=header, seats={i: seat_key(i)},
                    clock=clock)
        for i in range(players)
    ]
    watchers = [SyncSession(game=GAME, name=f"S{j}", role="spectator", identity=identity(f"S{j}"), header=header)
                for j in range(spectators)]
    wires = [MemoryWire(a, b) for a, b in itertools.combinations(sessions, 2)]
    wires += [MemoryWire(w, sessions[0]) for w in watchers]
    return [*sessions, *watchers], wires


def play_out(sessions: Sequence[SyncSession], wires: Sequence[MemoryWire], seed: int = 1, limit: int = 2000) -> None:
    """Pumps the wires and lets each seat's owner play with a random bot until the game is over."""
    bots = {s.name: make_bot("random", seed + i) for i, s in enumerate(sessions)}
    for _ in range(limit):
        pump(*wires)
        first = sessions[0]
        if first.over:
            return
        seat = first.to_play
        assert seat is not None, f"the table waits: missing {first.missing()}"
        owner = next(s for s in sessions if s.role == "player" and s.plays(seat))
        owner.submit(bots[owner.name].choose(owner.game.view()))  # type: ignore[arg-type]
    raise AssertionError("the game did not end")


# ---------------------------------------------------------------- whole games


@settings(max_examples=4, deadline=None)
@given(st.integers(2, 5), st.integers(0, 2**16), st.booleans())
def test_whole_games_draw_every_tile_from_every_seat_and_end_identical(players, seed, river):
    rules = Rules(river=river, abbot=river)
    sessions, wires = table(players, rules=rules)
    play_out(sessions, wires, seed)
    first = sessions[0]
    assert {s.digest for s in sessions} == {first.digest} and {s.have for s in sessions} == {first.have}
    draws = [e.entry for e in first.entries if isinstance(e.entry.move, DrawTile)]
    assert len(draws) == rules.pile_size() and all(d.sig is None for d in draws)
    own = chains(players, rules)
    for k, entry in enumerate(draws, 1):
        assert entry.move.values == tuple(c[k] for c in own)  # type: ignore[union-attr]


def test_no_peer_or_spectator_receives_a_draw_before_its_last_value_is_sent(monkeypatch: pytest.MonkeyPatch):
    """Issue 14 must-show: every frame each peer and spectator receives is recorded with a global
    clock, as is every value a peer sends. For every draw k and every receiver, the frames it received
    before the last value of draw k was sent do not hold every contributing value of draw k: the
    draw depends on a value not among them. (The peer whose value comes last computes the draw a
    moment before the others from its own chain: deck.md §5.3.)"""
    players = 4
    sessions, wires = table(players, spectators=2)
    clock = itertools.count()
    received: dict[str, list[tuple[int, bytes]]] = {s.name: [] for s in sessions}
    sent: dict[tuple[int, int], int] = {}  # (draw, seat) → when its value was first sent
    original = routing.send_once

    def send(message: Message, links: Iterable[Link]) -> None:
        if isinstance(message, Reveal):  # every value a peer sends goes out here
            sent.setdefault((message.draw, message.seat), next(clock))
        original(message, links)

    monkeypatch.setattr(routing, "send_once", send)
    for session in sessions:
        for link in session.connections.links:
            receive = link.receive_data

            def record(data: bytes, _receive=receive, _name=session.name) -> None:
                received[_name].append((next(clock), data))
                _receive(data)

            link.receive_data = record  # type: ignore[method-assign]
    play_out(sessions, wires, 7)
    values = chains(players)
    draws = Rules().pile_size()
    assert {k for k, _ in sent} == set(range(1, draws + 1))
    checked = 0
    for k in range(1, draws + 1):
        last = max(sent[(k, seat)] for seat in range(players))
        for name, frames in received.items():
            before = b"".join(data for at, data in frames if at < last)
            held = [values[seat][k] in before for seat in range(players)]
            assert not all(held), f"{name} held every value of draw {k} before the last was sent"
            checked += 1
    assert checked == draws * len(sessions)


# ---------------------------------------------------------------- bad values, missing values


def test_a_forged_value_is_refused_and_the_game_goes_on():
    sessions, wires = table(3, spectators=0)
    pump(*wires)
    p0, p1 = sessions[0], sessions[1]
    assert p0.have == 1 and p0.game.phase is Phase.PLACE_TILE  # type: ignore[union-attr]
    link = next(link for link in p0.connections.links if link.key == p1.identity.public)
    # p1 sends a value for draw 2 that is not its chain's (after Ann's turn the table waits for it)
    p0.submit(make_bot("random", 1).choose(p0.game.view()))  # type: ignore[arg-type]
    p0.submit(make_bot("random", 1).choose(p0.game.view()))  # type: ignore[arg-type]
    forged = Reveal(seat=1, draw=2, value=bytes(32))
    wire = next(w for w in wires if {w.a, w.b} & {link})
    peer_side = wire.a if wire.b is link else wire.b
    peer_side.send(forged)
    pump(*wires)
    assert ("sent", "bad-reveal") in [(e.kind, e.code) for e in p0.connections.events]
    assert link.closed
    # the others go on: p0 still gets p1's true value through... nobody (no relays of reveals), so
    # the draw comes from p2, which holds every value, as an entry
    assert {s.have for s in sessions} == {4} and {s.digest for s in sessions} == {p0.digest}


def test_a_missing_value_stops_the_table_until_the_seat_is_handed_over():
    """wire.md §5.7 "Withholding": seat 2's peer is gone; the table waits at the next draw for its
    value; seat 0 hands it over while the table draws (not its turn) and the draw is made without it;
    later draws need only the seats not handed over."""
    clock = Clock()
    sessions, wires = table(3, spectators=1, clock=clock)
    p0, p1, p2, watcher = sessions
    live = [w for w in wires if w.a not in p2.connections.links and w.b not in p2.connections.links]
    pump(*wires)
    p0.submit(make_bot("random", 1).choose(p0.game.view()))  # type: ignore[arg-type]
    p0.submit(make_bot("random", 1).choose(p0.game.view()))  # type: ignore[arg-type]
    pump(*live)  # p2 is unreachable: its value for draw 2 never comes
    assert p0.to_play is None and p0.missing() == [2] and p1.missing() == [2]
    assert watcher.missing() == []  # sent no values, it cannot tell whose is missing: it names no seat
    held = p0.have
    clock.now += VOUCH_WAIT  # P1 too has lacked seat 2's value for the wait: it takes the handover
    p0.submit(HandOver(2, "greedy", 0))  # seat 2 is not the seat to play: legal while the table draws
    pump(*live)
    game = p0.game
    assert game is not None and game.handovers[2] is not None and game.phase is Phase.PLACE_TILE
    draw = p0.entries[held + 1].entry.move
    assert isinstance(draw, DrawTile) and draw.values[2] is None and None not in draw.values[:2]
    assert {p0.digest, p1.digest, watcher.digest} == {p0.digest} and p1.have == watcher.have == held + 2
    # the rest of the game is drawn by seats 0 and 1, seat 2 played by p0's bot
    remaining = [p0, p1, watcher]
    play_out(remaining, live, 3)
    assert p0.over and {s.digest for s in remaining} == {p0.digest}
    later = [e.entry.move for e in p0.entries[held + 1:] if isinstance(e.entry.move, DrawTile)]
    assert later and all(m.values[2] is None for m in later)


def test_a_resumed_seat_reveals_from_its_key_and_the_game_goes_on():
    """A player that stopped while the table waited for a draw comes back with its saved entries and
    its seat key: its chain is its key's, so it reveals and the table draws."""
    sessions, wires = table(2, spectators=0)
    p0, p1 = sessions
    pump(*wires)
    p0.submit(make_bot("random", 1).choose(p0.game.view()))  # type: ignore[arg-type]
    p0.submit(make_bot("random", 1).choose(p0.game.view()))  # type: ignore[arg-type]
    # p1 is gone before it hears of the turn: the table waits for its value of draw 2
    assert p0.missing() == [1]
    saved = list(p1.entries)
    p1.close()
    pump(*wires)
    assert not p0.connections.open_links() and p0.missing() == [1]
    back = SyncSession(game=GAME, name="P1", identity=seat_key(1), header=p1.header, seats={1: seat_key(1)},
                       entries=saved)
    wire = MemoryWire(back, p0)
    pump(wire)
    assert back.have == p0.have == 4 and back.digest == p0.digest and p0.to_play == 1


def test_a_handover_beats_a_draw_made_at_the_same_seq_and_the_draw_is_taken_back(tmp_path):
    """wire.md §5.7 "A draw racing a handover": seat 2's late value reaches P1, which draws, while P0,
    which never got it, hands seat 2 over at the same seq. When they meet, P1 takes its draw back (from
    its log and its file too), appends the handover and draws again without seat 2; P0 ignores the
    draw. Everyone ends with one log."""
    from carcnet.log import load
    from carcnet.net.storage import RecorderLog

    header = table_header(3)
    clock = Clock()
    recorder = RecorderLog.create(header, tmp_path / "p1.carclog")
    p0 = SyncSession(game=GAME, name="P0", identity=seat_key(0), header=header, seats={0: seat_key(0)}, clock=clock)
    p1 = SyncSession(game=GAME, name="P1", identity=seat_key(1), header=header, seats={1: seat_key(1)},
                     persistence=recorder, clock=clock)
    p2 = SyncSession(game=GAME, name="P2", identity=seat_key(2), header=header, seats={2: seat_key(2)}, clock=clock)
    a, b, c = MemoryWire(p0, p1), MemoryWire(p0, p2), MemoryWire(p1, p2)
    pump(a, b, c)
    p0.submit(make_bot("random", 1).choose(p0.game.view()))  # type: ignore[arg-type]
    p0.submit(make_bot("random", 1).choose(p0.game.view()))  # type: ignore[arg-type]
    pump(a)  # P1 knows the turn; P2 does not yet
    seq = p0.have + 1
    assert p0.missing() == [2] and p1.missing() == [2]
    clock.now += VOUCH_WAIT  # the value is late: missing at P1 too for the wait
    p0.submit(HandOver(2, "greedy", 0))  # P0 gives up on seat 2 ...
    pump(c)  # ... while P2's turn and its value reach P1 only, which draws
    assert p1.have == seq and isinstance(p1.entries[-1].entry.move, DrawTile)
    assert isinstance(p0.entries[seq - 1].entry.move, HandOver)  # and P0 drew without seat 2 at once
    assert p0.have == seq + 1 and p0.entries[seq].entry.move.values[2] is None  # type: ignore[union-attr]
    pump(a)  # they meet
    assert isinstance(p1.entries[seq - 1].entry.move, HandOver) and isinstance(p0.entries[seq - 1].entry.move, HandOver)
    assert p0.have == p1.have == seq + 1 and p0.digest == p1.digest
    redraw = p1.entries[seq].entry.move
    assert isinstance(redraw, DrawTile) and redraw.values[2] is None
    assert not [e for e in p1.connections.events if e.code == "conflict"] and not [e for e in p0.connections.events if e.code == "conflict"]
    recorder.sync()
    saved = load(tmp_path / "p1.carclog")
    assert [e.entry for e in p1.entries] == list(saved.entries) and saved.game.digest == p1.digest
    recorder.close()


def test_reveals_out_of_place_are_ignored_or_refused_and_cost_nothing_held():
    """wire.md §5.7 budgets: a peer holds values for the draw its game waits for and the next only; a
    value for a draw made already, one far ahead, or for a seat handed over is ignored (the link
    stays); a spectator may not send one; the same value twice is taken once."""
    sessions, wires = table(3, spectators=1)
    p0, p1, _p2, watcher = sessions
    pump(*wires)
    values = chains(3)
    link = next(link for link in p0.connections.links if link.key == p1.identity.public)
    peer_side = next(w.a if w.b is link else w.b for w in wires if link in (w.a, w.b))
    for reveal in (Reveal(seat=1, draw=1, value=values[1][1]),  # draw 1 is made already
                   Reveal(seat=1, draw=40, value=values[1][40]),  # far ahead
                   Reveal(seat=1, draw=2, value=values[1][2]),  # the next draw: held
                   Reveal(seat=1, draw=2, value=values[1][2])):  # the same again
        peer_side.send(reveal)
        pump(*wires)
    assert link.is_open and set(p0.draws.reveals) <= {1, 2, 3} and p0.draws.reveals.get(2, {}).get(1) == values[1][2]
    assert all(len(held) <= 3 for held in p0.draws.reveals.values())
    # a spectator's reveal closes its connection: spectators contribute nothing (wire.md §3.3)
    host_side = next(w.b for w in wires if w.a in watcher.connections.links)
    host_side.receive_data(encode_message(Reveal(seat=0, draw=2, value=values[0][2])))
    assert host_side.closed and ("sent", "forbidden") in [(e.kind, e.code) for e in p0.connections.events]
    assert 0 not in p0.draws.reveals.get(2, {})  # not taken: p0 makes its own value when draw 2 comes


# ---------------------------------------------------------------- who may be handed over while the table draws


def _end_turn(session: SyncSession, seed: int = 1) -> None:
    """*session* plays its seat's whole turn (tile, then meeple): the table waits for the next draw."""
    bot = make_bot("random", seed)
    session.submit(bot.choose(session.game.view()))  # type: ignore[arg-type]
    session.submit(bot.choose(session.game.view()))  # type: ignore[arg-type]


def _play_on(sessions: Sequence[SyncSession], wires: Sequence[MemoryWire], reference: SyncSession, clock: Clock,
             limit: int = 2000) -> None:
    """Like :func:`play_out`, judged on *reference*'s game (another peer may be on a branch of its own
    for a while); *clock* moves on a second a move, so that the seats vote as they play (wire.md §5.9)."""
    bots = {s.name: make_bot("random", i) for i, s in enumerate(sessions)}
    for _ in range(limit):
        clock.now += 1.0
        pump(*wires)
        if reference.over:
            return
        seat = reference.to_play
        assert seat is not None, f"the table waits: missing {reference.missing()}"
        owner = next(s for s in sessions if s.role == "player" and s.plays(seat) and s.digest == reference.digest)
        owner.submit(bots[owner.name].choose(owner.game.view()))  # type: ignore[arg-type]
    raise AssertionError("the game did not end")


def test_a_cheater_cannot_take_a_present_seat_while_the_table_draws():
    """Issue 35 item 7, in memory: P0's laptop, modified, hands seat 1 over the moment its own turn
    ends, in the same breath as its last move, while the table draws (the engine allows any seat not
    handed over then). Bob (seat 1) and Cleo (seat 2) are both there and reveal at once: neither had
    lacked Bob's value for the wait, so neither takes the handover; they draw with every value. Their
    votes commit their branch, and P0 (carcnet code after all) sets its handover aside and follows. Bob
    plays his own seat to the end, and every draw has every seat's value."""
    clock = Clock()
    sessions, wires = table(3, spectators=0, clock=clock)
    p0, p1, p2 = sessions
    pump(*wires)
    _end_turn(p0)
    seq = p0.have + 1
    p0.submit(HandOver(1, "greedy", 0))  # no wait at all: Bob's value is on its way
    pump(*wires)
    for peer in (p1, p2):
        assert isinstance(peer.entries[seq - 1].entry.move, DrawTile), peer.name
        assert peer.game.handovers[1] is None, peer.name  # type: ignore[union-attr]
    _play_on(sessions, wires, p1, clock)
    assert {s.digest for s in sessions} == {p1.digest} and {s.have for s in sessions} == {p1.have}
    assert not [e for e in p1.entries if isinstance(e.entry.move, HandOver)]
    draws = [e.entry.move for e in p1.entries if isinstance(e.entry.move, DrawTile)]
    assert draws and all(None not in m.values for m in draws)  # type: ignore[union-attr]
    assert p0.replica.aside and isinstance(p0.replica.aside[0].entries[0].entry.move, HandOver)


def test_after_the_wait_a_cheater_still_cannot_name_a_present_seat_instead_of_the_missing_one():
    """Cleo's laptop (seat 2) is gone at a draw; after the wait P0 hands over Bob's seat (1), whose value
    came at once, instead of Cleo's. Bob does not take it, and neither would anyone who holds his value:
    "present"; a handover of Cleo's seat, whose value Bob lacked too, he would take ("withheld": the
    honest case, test_a_missing_value_stops_the_table_until_the_seat_is_handed_over)."""
    clock = Clock()
    sessions, wires = table(3, spectators=0, clock=clock)
    p0, p1, p2 = sessions
    live = [w for w in wires if w.a not in p2.connections.links and w.b not in p2.connections.links]
    pump(*wires)
    _end_turn(p0)
    pump(*live)
    assert p1.missing() == [2] and p0.missing() == [2]
    clock.now += VOUCH_WAIT
    held = p1.have
    p0.submit(HandOver(1, "greedy", 0))
    pump(*live)
    assert p1.have == held and p1.game.handovers[1] is None and p1.missing() == [2]  # type: ignore[union-attr]
    assert p1.draws.vouch(p1.game, 1, clock.now) == "present"  # type: ignore[arg-type]
    assert p1.draws.vouch(p1.game, 2, clock.now) == "withheld"  # type: ignore[arg-type]


def test_a_peer_that_lacked_the_draw_takes_a_handover_the_table_committed():
    """A peer coming back after a handover it never saw made (it was away) cannot vouch for it from
    what it saw, so it takes it once the seats' votes commit it (wire.md §5.6 "What the others check"):
    Cleo's laptop, gone while the table drew, resumes its save and catches up."""
    clock = Clock()
    sessions, wires = table(3, spectators=0, clock=clock)
    p0, p1, p2 = sessions
    live = [w for w in wires if w.a not in p2.connections.links and w.b not in p2.connections.links]
    pump(*wires)
    _end_turn(p0)
    pump(*live)
    saved = list(p2.entries)
    p2.close()
    pump(*wires)
    clock.now += VOUCH_WAIT
    p0.submit(HandOver(2, "greedy", 0))
    pump(*live)
    for _ in range(6):  # a few turns more: the votes of seats 0 and 1 commit the handover
        seat = p1.to_play
        assert seat is not None
        owner = p0 if p0.plays(seat) else p1
        owner.submit(make_bot("random", 3).choose(owner.game.view()))  # type: ignore[arg-type]
        pump(*live)
    assert p0.replica.commit_index > len(saved)
    back = SyncSession(game=GAME, name="P2", identity=seat_key(2), header=p2.header, seats={2: seat_key(2)},
                       entries=saved, clock=clock)
    pump(MemoryWire(back, p0))
    assert back.have == p0.have and back.digest == p0.digest and back.game.handovers[2] is not None  # type: ignore[union-attr]


def test_a_builder_s_second_tile_is_drawn_by_the_table_like_every_tile():
    """Issue 33: with Traders & Builders, a seat whose tile extends its builder's road or city draws a
    second tile in the same turn; at a table with table draws that tile is drawn as every tile is:
    every seat's chain value for that draw, the same seat to place it, every peer and the spectator
    on the same digest. Seeded: the random bots get such turns in these games (asserted)."""
    from carcnet.engine.events import BuilderTurn

    rules = Rules(traders=True)
    turns = 0
    for seed in range(1, 4):  # bounded: three whole games
        sessions, wires = table(3, rules=rules)
        play_out(sessions, wires, seed)
        first = sessions[0]
        assert {s.digest for s in sessions} == {first.digest}
        game = first.game
        assert game is not None
        draws = [e.entry for e in first.entries if isinstance(e.entry.move, DrawTile)]
        assert len(draws) == rules.pile_size()  # one draw per tile, second tiles included
        own = chains(3, rules)
        assert all(d.move.values == tuple(c[k] for c in own) for k, d in enumerate(draws, 1))  # type: ignore[union-attr]
        builder_turns = sum(isinstance(e, BuilderTurn) for e in game.events)
        turns += builder_turns
        # a builder turn is two placements in a row by one seat, in the log every peer holds
        seats = [e.entry.seat for e in first.entries if type(e.entry.move).__name__ == "PlaceTile"]
        assert sum(a == b for a, b in itertools.pairwise(seats)) == builder_turns
    assert turns > 0
