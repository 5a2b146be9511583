"""Regenerates the golden vectors from the engine: ``python protocol/vectors/make_vectors.py``.

Only for a deliberate, versioned change (see protocol/CHANGELOG.md): the tests compare the engine
with these files, so regenerating them after an accidental change would hide it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from carcnet.bots import RandomBot
from carcnet.engine import (
    DrawTile,
    Game,
    GameSetup,
    Phase,
    Rules,
    TableDraws,
    TileDrawn,
    base_tile_counts,
    deck,
    draws,
)

HERE = Path(__file__).parent
U64_MAX = 2**64 - 1
#: A seed where the random bot of the rules-5 Traders & Builders vector both takes and declines a second tile.
RULES5_SEED = 2044
#: The seed of The Princess & the Dragon's vector: the random bot moves the dragon, sends a knight
#: home with the princess, moves the fairy and deploys through a magic portal.
DRAGON_SEED = 2034
#: The seed of the Hills & Sheep vector (the random bot places its hills, each hiding a tile).
HILLS_SEED = 2026


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
    for seed, rules in (
        (3, Rules(river=True)),
        (3, Rules(river=True, abbot=True, river_start="omit")),
        (3, Rules(river=True, river_start="river")),
    ):
        vec["expansion_deck"].append({
            "seed": str(seed), "river": rules.river, "abbot": rules.abbot, "river_start": rules.river_start,
            "order": list(GameSetup(players=2, seed=seed, rules=rules).deck()),
        })
    return vec


def digest_vector(rules: Rules | None = None, seed: int = 2026, version: int = 4) -> dict:
    setup = GameSetup(players=2, seed=seed, rules=rules or Rules(), rules_version=version)
    game = Game(setup)
    bot = RandomBot(2026)
    while game.phase is not Phase.GAME_OVER:
        game.apply(bot.choose(game.view()))
    return {
        "description": "carcnet state digest v1 golden vector (protocol/digest.md): a seeded 2-player game. "
        "digests[0] is after the setup, digests[i] after moves[i-1].",
        "setup": {
            "players": 2, "seed": str(seed), "rules": version, "river": setup.rules.river,
            "abbot": setup.rules.abbot, "river_start": setup.rules.river_start,
            "small_city": setup.rules.small_city, "farms": setup.rules.farms, "inns": setup.rules.inns,
            "traders": setup.rules.traders,
            **({"hills_sheep": True} if setup.rules.hills_sheep else {}),
            **({"princess_dragon": True} if setup.rules.princess_dragon else {}),
        },
        "setup_text": setup.canonical(),
        "final_scores": game.scores,
        "moves": [str(m) for m in game.moves],
        "digests": [d.hex() for d in game.digests],
    }


def _secret(seat: int) -> bytes:
    return hashlib.sha256(f"carcnet vector chain {seat}".encode()).digest()


def draws_vectors() -> dict:
    """deck.md §5: chains, draw values and indices, a table game's draw order, and a whole table game."""
    game_id = "3f2a9c1b5d6e4f708192a3b4c5d6e7f8"
    vec: dict = {
        "description": "carcnet table draws (deck version 2) golden vectors (protocol/deck.md §5). Bytes are "
        "lowercase hex; secrets are SHA-256 of 'carcnet vector chain <seat>'.",
        "game": game_id,
        "chains": [],
        "draw_values": [],
        "draw_index": [],
    }
    for seat in (0, 1, 5):
        values = draws.chain(game_id, seat, _secret(seat), 4)
        vec["chains"].append({"seat": seat, "secret": _secret(seat).hex(), "length": 4,
                              "values": [v.hex() for v in values]})
    chains3 = [draws.chain(game_id, seat, _secret(seat), 4) for seat in range(3)]
    for k, present in ((1, (0, 1, 2)), (2, (0, 2)), (4, (1,))):
        values = [chains3[s][k] if s in present else None for s in range(3)]
        vec["draw_values"].append({
            "draw": k, "values": [v.hex() if v else None for v in values],
            "value": draws.draw_value(game_id, k, values).hex(),
        })
    for entry in vec["draw_values"]:
        value = bytes.fromhex(entry["value"])
        vec["draw_index"].append({"value": entry["value"], "size": [1, 2, 71, 12],
                                  "index": [draws.draw_index(value, n) for n in (1, 2, 71, 12)]})
    for players, rules in ((3, Rules()), (2, Rules(river=True, abbot=True))):
        setup, chains = _table_setup(game_id, players, rules)
        game = Game(setup)
        bot = RandomBot(2026)
        while game.phase is not Phase.GAME_OVER:
            if game.phase is Phase.DRAW:
                k = game.next_draw
                game.apply(DrawTile(tuple(chains[s][k] for s in range(players))))
            else:
                game.apply(bot.choose(game.view()))
        key = "table_deck" if players == 3 else "table_deck_expansions"
        vec[key] = {"players": players, "river": rules.river, "abbot": rules.abbot, "roots": [
            c[0].hex() for c in chains], "order": [e.tile for e in game.events if isinstance(e, TileDrawn)]}
    return vec


def _table_setup(game_id: str, players: int, rules: Rules, version: int = 4) -> tuple[GameSetup, list[list[bytes]]]:
    length = rules.table_draws()
    chains = [draws.chain(game_id, s, _secret(s), length) for s in range(players)]
    table = TableDraws(game_id, tuple(c[0] for c in chains))
    return GameSetup(players=players, draws=table, rules=rules, rules_version=version), chains


def table_digest_vector(rules: Rules | None = None, bot_seed: int = 2026, version: int = 4) -> dict:
    """digest.md with table draws: a 2-player game whose draws come from the vector chains (with
    Traders & Builders, the builder's second tiles drawn by the table too; with Hills & Sheep, the
    bag's last tiles left under the hills)."""
    setup, chains = _table_setup("3f2a9c1b5d6e4f708192a3b4c5d6e7f8", 2, rules or Rules(), version)
    game = Game(setup)
    bot = RandomBot(bot_seed)
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.DRAW:
            game.apply(DrawTile(tuple(c[game.next_draw] for c in chains)))
        else:
            game.apply(bot.choose(game.view()))
    return {
        "description": "carcnet state digest v1 with table draws (protocol/digest.md, deck.md §5): a 2-player "
        "game, chain secrets SHA-256('carcnet vector chain <seat>'). digests[0] is after the setup.",
        "setup_text": setup.canonical(),
        "final_scores": game.scores,
        "moves": [str(m) for m in game.moves],
        "digests": [d.hex() for d in game.digests],
    }


def main() -> None:
    for name, vec, indent in (
        ("deck.json", deck_vectors(), 2),
        ("draws.json", draws_vectors(), 1),
        ("digest-table.json", table_digest_vector(), 1),
        ("digest.json", digest_vector(), 1),
        ("digest-expansions.json", digest_vector(Rules(river=True, abbot=True)), 1),
        ("digest-variants.json", digest_vector(Rules(small_city=True, farms="city")), 1),
        ("digest-inns.json", digest_vector(Rules(river=True, abbot=True, inns=True)), 1),
        # seeds where the random bot gets a builder's second tile
        ("digest-traders.json", digest_vector(Rules(traders=True), seed=2032), 1),
        ("digest-table-traders.json", table_digest_vector(Rules(traders=True), bot_seed=2029), 1),
        # rules 5: the builder's second tile taken and declined (a seed where the random bot does both)
        ("digest-traders-rules5.json", digest_vector(Rules(traders=True), seed=RULES5_SEED, version=5), 1),
        # rules 6: Hills & Sheep's hills (the tiles under them) and vineyards, seeded and by the table
        ("digest-hills.json", digest_vector(Rules(hills_sheep=True, abbot=True), seed=HILLS_SEED, version=6), 1),
        ("digest-table-hills.json", table_digest_vector(Rules(hills_sheep=True), version=6), 1),
        # rules 6: The Princess & the Dragon (the dragon's steps, the princess, the fairy, the magic portal)
        ("digest-dragon.json", digest_vector(Rules(princess_dragon=True), seed=DRAGON_SEED, version=6), 1),
    ):
        (HERE / name).write_text(json.dumps(vec, indent=indent) + "\n")
        print(f"wrote {HERE / name}")


if __name__ == "__main__":
    main()
