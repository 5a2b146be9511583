"""Golden vectors of protocol/tournament.md: ``python -m tests.club.vectors`` writes
protocol/vectors/tournament.json, checked by tests/club/test_event.py, and
protocol/vectors/event-service.json (§6.0: a handshake and a request, frame by frame), checked by
tests/club/test_service.py.

A charter of nine players (six people under keys seeded from labels, three greedy bots run by the
opener) for a Swiss event of four rounds at tables of three, signed; its canonical bytes and
signature; then, round by round, the draw (tables in seat order, byes), each table's nonce, the key
of the laptop first in its host order and the game id that key seals with the nonce, and
the scores the vector gives its games (SHA-256 of labels: every implementation can rebuild them),
which feed the next round; the final standings."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from carcnet.club.event import Charter, Entrant, draw_round, host_order, table_game_id, table_nonce
from carcnet.club.pairing import lots
from carcnet.club.standings import GameResult, standings
from carcnet.engine import Rules
from carcnet.net.signing import SeatKey

PATH = Path(__file__).parents[2] / "protocol" / "vectors" / "tournament.json"
SERVICE_PATH = PATH.with_name("event-service.json")


def _h(label: str) -> bytes:
    return hashlib.sha256(label.encode()).digest()


def build() -> dict[str, Any]:
    opener = SeatKey.from_seed(_h("carcnet event vector opener"))
    people = [SeatKey.from_seed(_h(f"carcnet event vector player {i}")) for i in range(6)]
    players = [Entrant(f"Player {i}", k.public) for i, k in enumerate(people)]
    players += [Entrant(f"Greedy {i}", opener.public, "greedy") for i in range(1, 4)]
    charter = Charter(event=_h("carcnet event vector id").hex()[:32], name="Club night", format="swiss", rounds=4,
                      size=3, minimum=2, options=Rules(), rules=4, created=1795256700, players=tuple(players),
                      opener=opener.public).signed(opener)
    rounds = []
    results: list[GameResult] = []
    for number in range(1, charter.rounds + 1):
        drawn = draw_round(charter, number, results)
        tables = []
        for t, seats in enumerate(drawn.tables):
            scores = [_h(f"carcnet event vector score {number} {t} {s}")[0] % 100 + 20 for s in range(len(seats))]
            host = host_order(charter, seats)[0]
            tables.append({"nonce": table_nonce(charter.event, number, t, seats).hex(), "host": host.hex(),
                           "game": table_game_id(charter.event, number, t, seats, host), "seats": [int(p) for p in seats],
                           "scores": scores})
            results.append(GameResult(seats, tuple(scores)))
        results += [GameResult((p,)) for p in drawn.byes]
        rounds.append({"round": number, "tables": tables, "byes": [int(p) for p in drawn.byes]})
    final = [{"player": int(s.player), "wins": str(s.wins), "difference": str(s.difference),
              "buchholz": str(s.buchholz)} for s in standings(charter.ids, results)]
    return {
        "description": "carcnet tournament golden vector (protocol/tournament.md): a signed charter, its "
                       "rounds drawn from the scores given, and the final standings; tests/club/vectors.py "
                       "rebuilds it (keys: Ed25519 seeds SHA-256 of 'carcnet event vector player <i>' and "
                       "'carcnet event vector opener'; scores: SHA-256('carcnet event vector score <round> "
                       "<table> <seat>')[0] % 100 + 20). Numbers as fractions in text.",
        "charter": charter.to_bytes().hex(),
        "body": charter.body().hex(),
        "sig": charter.sig.hex(),
        "rounds": rounds,
        "standings": final,
        "lots": {p: v.hex() for p, v in lots(charter.event, charter.ids).items()},
    }


def build_service() -> dict[str, Any]:
    """An asker's handshake with an event service and one request (tournament.md §6.0), each frame
    as its bytes in hex: the keys and nonces from labels, so every implementation can rebuild them
    (Ed25519 signatures are deterministic)."""
    from carcnet.club.wire import EventLink

    asker, service = SeatKey.from_seed(_h("carcnet event vector asker")), SeatKey.from_seed(_h("carcnet event vector opener"))
    event = _h("carcnet event vector id").hex()[:32]
    connector = EventLink("connector", asker, event=event, max_frame=1 << 20, nonce=_h("carcnet event vector hello nonce"))
    acceptor = EventLink("acceptor", service, event=event, max_frame=4096, nonce=_h("carcnet event vector welcome nonce"))
    hello = connector.data_to_send()
    acceptor.receive_data(hello)
    welcome_and_proof = acceptor.data_to_send()
    connector.receive_data(welcome_and_proof)
    connector.send({"type": "charter?"})
    proof_and_request = connector.data_to_send()
    acceptor.receive_data(proof_and_request)
    assert acceptor.peer_key == asker.public and acceptor.next_message() == {"type": "charter?"}
    split = 4 + int.from_bytes(welcome_and_proof[:4], "big")
    split_c = 4 + int.from_bytes(proof_and_request[:4], "big")
    return {
        "description": "carcnet event service golden vector (protocol/tournament.md §6.0): an asker's hello, the "
                       "service's welcome and proof, the asker's proof, then a request, each frame in hex (a 4-byte "
                       "big-endian length, then the msgpack body); keys: Ed25519 seeds SHA-256('carcnet event vector "
                       "asker') and SHA-256('carcnet event vector opener'); nonces: SHA-256('carcnet event vector "
                       "hello nonce') and SHA-256('carcnet event vector welcome nonce'); event: the first 32 hex digits "
                       "of SHA-256('carcnet event vector id').",
        "event": event,
        "asker_key": asker.public.hex(),
        "service_key": service.public.hex(),
        "hello": hello.hex(),
        "welcome": welcome_and_proof[:split].hex(),
        "service_proof": welcome_and_proof[split:].hex(),
        "asker_proof": proof_and_request[:split_c].hex(),
        "request": proof_and_request[split_c:].hex(),
    }


if __name__ == "__main__":
    PATH.write_text(json.dumps(build(), indent=1) + "\n", encoding="utf-8")
    SERVICE_PATH.write_text(json.dumps(build_service(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {PATH} and {SERVICE_PATH}")
