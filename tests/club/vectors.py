"""Golden vector of protocol/tournament.md: ``python -m tests.club.vectors`` writes
protocol/vectors/tournament.json; tests/club/test_event.py checks the code against it.

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


if __name__ == "__main__":
    PATH.write_text(json.dumps(build(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {PATH}")
