"""Regenerates the golden vectors from the engine: ``python protocol/vectors/make_vectors.py``.

Only for a deliberate, versioned change (see protocol/CHANGELOG.md): the tests compare the engine
with these files, so regenerating them after an accidental change would hide it.
"""

from __future__ import annotations

import json
from pathlib import Path

from carcnet.bots import RandomBot
from carcnet.engine import Game, GameSetup, Phase, Rules, base_tile_counts, deck

HERE = Path(__file__).parent
U64_MAX = 2**64 - 1


def deck_vectors() -> dict:
    vec: dict = {
        "description": "carcnet deck shuffle v1 golden vectors (protocol/deck.md). 64-bit values are "
        "decimal strings: JSON numbers lose precision above 2**53.",
        "stream": [],
        "below": [],
        "base_deck": [],
    }
    for seed in (0, 1, 7, U64_MAX):
        s = deck.DeckStream(seed)
        vec["stream"].append({"seed": str(seed), "first_u64": [str(s.next_u64()) for _ in range(6)]})
    for seed, ns in ((0, [1, 2, 3, 71, 1000, 2**63 + 1, 2**63 + 1, 2**63 + 1]), (42, [5, 5, 5, 5])):
        s = deck.DeckStream(seed)
        vec["below"].append({"seed": str(seed), "n": [str(n) for n in ns], "result": [str(s.below(n)) for n in ns]})
    counts = base_tile_counts()
    counts["D"] -= 1
    vec["base_group"] = "".join(deck.canonical_group(counts))
    for seed in (0, 1, 7, U64_MAX):
        vec["base_deck"].append({"seed": str(seed), "order": "".join(GameSetup(players=2, seed=seed).deck())})
    vec["expansion_deck"] = []
    for seed, rules in ((3, Rules(river=True)), (3, Rules(river=True, abbot=True, river_start="omit"))):
        vec["expansion_deck"].append({
            "seed": str(seed), "river": rules.river, "abbot": rules.abbot, "river_start": rules.river_start,
            "order": list(GameSetup(players=2, seed=seed, rules=rules).deck()),
        })
    return vec


def digest_vector(rules: Rules | None = None) -> dict:
    setup = GameSetup(players=2, seed=2026, rules=rules or Rules())
    game = Game(setup)
    bot = RandomBot(2026)
    while game.phase is not Phase.GAME_OVER:
        game.apply(bot.choose(game))
    return {
        "description": "carcnet state digest v1 golden vector (protocol/digest.md): a seeded 2-player game. "
        "digests[0] is after the setup, digests[i] after moves[i-1].",
        "setup": {
            "players": 2, "seed": "2026", "rules": 1, "river": setup.rules.river, "abbot": setup.rules.abbot,
            "river_start": setup.rules.river_start,
        },
        "setup_text": setup.canonical(),
        "final_scores": game.scores,
        "moves": [str(m) for m in game.moves],
        "digests": [d.hex() for d in game.digests],
    }


def main() -> None:
    for name, vec, indent in (
        ("deck.json", deck_vectors(), 2),
        ("digest.json", digest_vector(), 1),
        ("digest-expansions.json", digest_vector(Rules(river=True, abbot=True)), 1),
    ):
        (HERE / name).write_text(json.dumps(vec, indent=indent) + "\n")
        print(f"wrote {HERE / name}")


if __name__ == "__main__":
    main()
