"""A laptop back from its save (``carcnet.table.rejoin``, protocol/wire.md §5.6 "Coming back"): with
nobody there it plays on alone after the dead-connection clock, unless it gave its votes away when it
left (§5.9): then only once in step with a player."""

from __future__ import annotations

from carcnet.net.sync import SyncSession
from carcnet.table.rejoin import Rejoin

from ..net.loopback import identity, make_header, seat_key


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _alone(clock: Clock) -> SyncSession:
    header = make_header(2)
    return SyncSession(game=header.game, name="Bob", identity=identity("Bob"), header=header,
                       seats={1: seat_key(1)}, clock=clock)


def test_a_laptop_back_alone_plays_on_after_the_clock_unless_it_gave_its_votes_away() -> None:
    clock = Clock()
    session = _alone(clock)
    kept, gave = Rejoin(session, 2.5), Rejoin(session, 2.5)
    kept.hold()
    gave.hold(alone=False)
    for rejoin in (kept, gave):
        rejoin.start(clock())
    assert not kept.ready() and not gave.ready()
    clock.now += 2.4
    assert not kept.ready() and not gave.ready()
    clock.now += 0.2  # the dead-connection clock: nobody came
    assert kept.ready()
    assert not gave.ready()  # nothing it played alone could be committed: it waits for a player
    clock.now += 3600
    assert not gave.ready()
