"""``meet`` (protocol/wire.md §4.12), between sessions joined in memory: a player takes an introduction
only from a player proven at the table, the first few on a connection; a spectator neither sends nor
takes one; a malformed one is refused by the reader; the vector reads back."""

from __future__ import annotations

import pytest

from carcnet.net.link import MAX_MEETS_TAKEN
from carcnet.net.messages import Meet, MessageError, from_wire, to_wire
from carcnet.net.protocol import LocalProtocolError
from carcnet.net.sync import SyncSession

from .loopback import MemoryWire, identity, make_header, seat_key

HEADER = make_header(2)
CODE = "123456789012-" + "0123456789abcdef" * 2 + "0123"


def meet(i: int = 0, dial: bool = False) -> Meet:
    return Meet(code=f"{i:012d}-" + CODE.split("-")[1], dial=dial, relay="ws://127.0.0.1:4000/v1",
                transit="tcp:127.0.0.1:4001")


def seated(name: str, seat: int) -> SyncSession:
    return SyncSession(game=HEADER.game, name=name, identity=seat_key(seat), header=HEADER, seats={seat: seat_key(seat)})


def heard(session: SyncSession) -> list[object]:
    changes: list[object] = []
    session.add_listener(lambda change, _link: changes.append(change) if change == "meet" else None)
    return changes


def test_a_player_takes_a_meet_from_a_player_at_the_table_the_first_few_on_a_connection() -> None:
    ann, bob = seated("Ann", 0), seated("Bob", 1)
    told = heard(bob)
    wire = MemoryWire(ann, bob)
    wire.pump()
    assert wire.a.is_open and wire.b.is_open
    for i in range(MAX_MEETS_TAKEN + 4):
        assert ann.introduce(wire.a, meet(i))
    wire.pump()
    assert len(told) == MAX_MEETS_TAKEN and [m.code[:12] for m in bob.meetings] == [f"{i:012d}" for i in range(MAX_MEETS_TAKEN)]
    assert wire.b.is_open  # nothing is owed for one past the budget: dropped, the connection stays


def test_a_stranger_and_a_spectator_introduce_nobody() -> None:
    bob = seated("Bob", 1)
    told = heard(bob)
    stranger = SyncSession(game=HEADER.game, name="Mallory", identity=identity("Mallory"), header=HEADER)
    wire = MemoryWire(stranger, bob)
    wire.pump()
    assert wire.b.is_open
    stranger.introduce(wire.a, meet())
    wire.pump()
    assert told == [] and list(bob.meetings) == []  # a player, but none at the table
    eve = SyncSession(game=HEADER.game, name="Eve", role="spectator", identity=identity("Eve"), header=HEADER)
    watching = MemoryWire(eve, bob)
    watching.pump()
    assert watching.a.is_open
    with pytest.raises(LocalProtocolError):  # a spectator's connection does not carry one
        eve.introduce(watching.a, meet())
    assert told == []


@pytest.mark.parametrize("field, value", [
    ("code", "7-crossover-clockwork"),  # a code read out, not a one-off one
    ("code", "123456789012-" + "ab" * 17),  # two hex digits short
    ("relay", "http://relay.example.org/v1"),
    ("relay", "ws://" + "a" * 300),
    ("transit", "tcp:relay.example.org:0"),
    ("transit", "relay.example.org:4001"),
    ("dial", 1),
])
def test_a_malformed_meet_is_refused_by_the_reader(field: str, value: object) -> None:
    wire = to_wire(meet())
    wire[field] = value
    with pytest.raises(MessageError) as refused:
        from_wire(wire)
    assert refused.value.code == "bad-message"
    assert from_wire(to_wire(meet())) == meet()
