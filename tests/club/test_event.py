"""A tournament's charter (carcnet.club.event, protocol/tournament.md): signed by its opener, read
strictly (a changed field, a forged signature, a wrong version refused with the reason), and the
rounds every laptop draws from it alike."""

from __future__ import annotations

import dataclasses
import random

import msgpack
import pytest

from carcnet.club.event import (
    Charter,
    Entrant,
    EventError,
    draw_round,
    host_order,
    laptops,
    table_game_id,
    table_nonce,
)
from carcnet.club.standings import GameResult
from carcnet.engine import RULES_VERSION, Rules
from carcnet.net.signing import SeatKey, sealed_game_id

OPENER = SeatKey.from_seed(bytes(range(32)))


def charter(players: int = 8, **changes) -> Charter:
    keys = [SeatKey.from_seed(bytes([i + 1]) * 32).public for i in range(players)]
    entrants = tuple(Entrant(f"Player {i}", keys[i]) if i % 2 else Entrant(f"Bot {i}", OPENER.public, "greedy")
                     for i in range(players))
    values = dict(event="0123456789abcdef" * 2, name="Club night", format="swiss", rounds=3, size=2, minimum=2,
                  options=Rules(abbot=True), rules=RULES_VERSION, created=1795256700, players=entrants,
                  opener=OPENER.public)
    values.update(changes)
    return Charter(**values).signed(OPENER)


def test_a_signed_charter_reads_back_the_same():
    c = charter()
    again = Charter.from_bytes(c.to_bytes())
    assert again == c and again.sig == c.sig and again.to_bytes() == c.to_bytes()
    assert c.ids == [str(i) for i in range(8)]


def test_a_changed_or_forged_charter_is_refused_with_the_reason():
    c = charter()
    m = msgpack.unpackb(c.to_bytes(), raw=False)
    m["rounds"] = 4  # changed after signing
    with pytest.raises(EventError, match="signature does not verify"):
        Charter.from_bytes(msgpack.packb(m, use_bin_type=True))
    other = SeatKey.from_seed(b"\x09" * 32)
    with pytest.raises(EventError, match="signed by the laptop that opens"):
        dataclasses.replace(c, sig=b"").signed(other)
    m = msgpack.unpackb(c.to_bytes(), raw=False)
    m["version"] = 2
    with pytest.raises(EventError, match="version 2"):
        Charter.from_bytes(msgpack.packb(m, use_bin_type=True))
    m = msgpack.unpackb(c.to_bytes(), raw=False)
    reordered = {"name": m.pop("name"), **m}
    with pytest.raises(EventError, match="canonical"):
        Charter.from_bytes(msgpack.packb(reordered, use_bin_type=True))
    for data in (b"", b"\x91", msgpack.packb({"type": "lobby"}), b"\x00" * 70000):
        with pytest.raises(EventError):
            Charter.from_bytes(data)


@pytest.mark.parametrize(("changes", "why"), [
    ({"event": "XYZ"}, "event"), ({"size": 7}, "size"), ({"minimum": 3}, "minimum"), ({"rounds": 0}, "rounds"),
    ({"format": "knockout"}, "format"), ({"rules": 1}, "rules"),
    ({"format": "round-robin", "rounds": 8}, "at most 7 rounds"),
])
def test_each_field_is_checked(changes, why):
    with pytest.raises(EventError, match=why):
        charter(**changes)


def test_names_are_distinct_and_a_person_enters_once():
    c = charter()
    twice = (*c.players, dataclasses.replace(c.players[1], name="Again"))
    with pytest.raises(EventError, match="enters once"):
        dataclasses.replace(c, players=twice).check()
    with pytest.raises(EventError, match="distinct"):
        dataclasses.replace(c, players=(*c.players, Entrant("Player 1", b"\x01" * 32))).check()


def test_every_laptop_draws_the_same_rounds_and_finds_the_same_tables():
    """Two laptops with the same charter and results draw the same tables round after round; the
    game ids differ by event, round, table and the laptop that opens it (whose key seals it)."""
    c = charter(9, size=3, minimum=2, rounds=4)
    rng = random.Random(1)  # the test's scores
    results: list[GameResult] = []
    for number in range(1, 5):
        mine, theirs = draw_round(c, number, results), draw_round(Charter.from_bytes(c.to_bytes()), number, list(results))
        assert mine == theirs and sorted(p for t in mine.tables for p in t) == c.ids
        results += [GameResult(t, tuple(rng.randrange(30, 120) for _ in t)) for t in mine.tables]
    host = c.players[0].key
    seats = ("0", "1", "2")
    ids = {table_game_id(c.event, r, t, seats, host) for r in (1, 2) for t in (0, 1, 2)}
    assert len(ids) == 6 and all(len(i) == 32 and int(i, 16) >= 0 for i in ids)
    assert table_game_id(c.event, 1, 0, seats, host) != table_game_id("f" * 32, 1, 0, seats, host)
    assert table_game_id(c.event, 1, 0, seats, host) != table_game_id(c.event, 1, 0, seats, c.players[1].key)
    # a laptop that drew the round otherwise finds another game at the same table number
    assert table_game_id(c.event, 1, 0, seats, host) != table_game_id(c.event, 1, 0, ("0", "2", "1"), host)
    # the table's game id is the game id its host's key seals with the table's nonce (wire.md §4.2)
    assert table_game_id(c.event, 2, 1, seats, host) == sealed_game_id(host, table_nonce(c.event, 2, 1, seats))
    with pytest.raises(EventError):
        draw_round(c, 5, results)


def test_a_table_is_opened_by_its_seats_laptops_first_then_the_others_in_charter_order():
    opener = SeatKey.from_seed(bytes(32))
    ann, bob, cleo = (SeatKey.from_seed(bytes([i]) * 32).public for i in (1, 2, 3))
    players = (Entrant("Ann", ann), Entrant("Bob", bob), Entrant("Bot 1", cleo, "greedy"), Entrant("Bot 2", cleo, "random"))
    c = Charter(event="a" * 32, name="Order", format="swiss", rounds=1, size=2, minimum=2, options=Rules(), rules=4,
                created=0, players=players, opener=opener.public).signed(opener)
    assert laptops(c) == [ann, bob, cleo, opener.public]  # each key once, the opener last when it enters nobody
    assert host_order(c, ("3", "1")) == [cleo, bob, ann, opener.public]
    assert host_order(c, ("2", "3")) == [cleo, ann, bob, opener.public]


def test_a_round_robin_of_two_seats_meets_everyone_once():
    c = charter(6, format="round-robin", rounds=5)
    seen = set()
    for number in range(1, 6):
        for a, b in draw_round(c, number, []).tables:
            seen.add(frozenset((a, b)))
    assert len(seen) == 15


def test_the_golden_vector_holds():
    """protocol/vectors/tournament.json: the charter's bytes and signature, every round's draw and
    table game ids from the scores it gives, the standings: what another implementation must match."""
    import json

    from .vectors import PATH, build

    recorded = json.loads(PATH.read_text(encoding="utf-8"))
    assert build() == recorded
    c = Charter.from_bytes(bytes.fromhex(recorded["charter"]))
    assert c.body().hex() == recorded["body"] and c.sig.hex() == recorded["sig"]
