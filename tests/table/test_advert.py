"""A network table's mDNS record (carcnet.table.advert; protocol/discovery.md §2): what a peer
advertises for its game at each stage, and what a record found on the LAN gives it."""

from __future__ import annotations

from typing import Any

import pytest

from carcnet.engine import Rules
from carcnet.log import Seat
from carcnet.net.adverts import GameAd
from carcnet.net.messages import Lobby, LobbySeat, PeerInfo
from carcnet.table.advert import found_peer, table_ad

GAME = "3f2a9c1b" * 4
ME, ANN = bytes([1]) * 32, bytes([2]) * 32
SEATS = (Seat("Ann", "red"), Seat("Bob", "blue"), Seat("Cy", "green"))
LOBBY = Lobby(name="Friday game", options=Rules(), table=(LobbySeat(Seat("Ann", "red"), ANN), None, None))


def ad(**kw: Any) -> GameAd | None:
    """:func:`table_ad` for a host listening on port 7000 in the lobby, unless *kw* says otherwise."""
    values: dict[str, Any] = {
        "game": GAME, "peer": "Ann", "key": ME, "port": 7000, "spectator": False, "status": "lobby",
        "opener": True, "seats": None, "lobby": LOBBY, "game_name": None,
    }
    values.update(kw)
    return table_ad(**values)


def record(**kw: Any) -> GameAd:
    values: dict[str, Any] = {
        "game": GAME, "name": "Friday game", "phase": "lobby", "seats_taken": 1, "seats_total": 3, "peer": "Ann",
        "role": "host", "key": ME, "port": 7000,
    }
    values.update(kw)
    return GameAd(**values)


@pytest.mark.parametrize(
    ("case", "got", "expected"),
    [
        ("the opener in its lobby", ad(), record()),
        ("a player in the lobby", ad(opener=False), record(role="player")),
        ("the game started: every seat taken, a player's", ad(status="playing", seats=SEATS),
         record(phase="playing", seats_taken=3, role="player")),
        ("the opener's name for its game", ad(status="playing", seats=SEATS, game_name="Ann's game"),
         record(name="Ann's game", phase="playing", seats_taken=3, role="player")),
        ("no lobby known: the seats' names", ad(status="finished", seats=SEATS, lobby=None, opener=False),
         record(name="Ann & Bob & Cy", phase="finished", seats_taken=3, role="player")),
        ("not listening", ad(port=None), None),
        ("a spectator", ad(spectator=True), None),
        ("neither seats nor lobby known", ad(lobby=None), None),
        ("connecting", ad(status="connecting"), None),
        ("stopped", ad(status="stopped", seats=SEATS), None),
    ],
)
def test_table_ad(case: str, got: GameAd | None, expected: GameAd | None) -> None:
    assert got == expected, case


def test_a_long_name_made_of_the_seats_is_cut_to_32_characters() -> None:
    seats = tuple(Seat(name, colour) for name, colour in (("Annabelle", "red"), ("Bartholomew", "blue"),
                                                          ("Cyrillus", "green")))
    made = ad(status="playing", seats=seats, lobby=None)
    assert made is not None and made.name == "Annabelle & Bartholomew & Cyrill"


@pytest.mark.parametrize(
    ("case", "found", "peer"),
    [
        ("the first IPv4 address", record(key=ANN, addresses=("fe80::1%eth0", "192.168.1.7", "10.0.0.2")),
         PeerInfo(ANN, "Ann", "192.168.1.7", 7000)),
        ("only IPv6: the first, scope dropped", record(key=ANN, addresses=("fe80::1%eth0", "fd00::2")),
         PeerInfo(ANN, "Ann", "fe80::1", 7000)),
        ("another game", record(key=ANN, game="0" * 32, addresses=("192.168.1.7",)), None),
        ("this peer's own record", record(addresses=("192.168.1.7",)), None),
        ("no address", record(key=ANN), None),
    ],
)
def test_found_peer(case: str, found: GameAd, peer: PeerInfo | None) -> None:
    assert found_peer(found, game=GAME, me=ME) == peer, case
