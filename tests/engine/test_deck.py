"""The deterministic deck: protocol/deck.md, checked against its golden vectors in both directions."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest

from carcnet.engine import Game, GameSetup, SetupError, base_tile_counts
from carcnet.engine.deck import DeckStream, canonical_group, shuffled_groups

VECTORS = json.loads((Path(__file__).parents[2] / "protocol" / "vectors" / "deck.json").read_text())


class SpecStream:
    """An independent reading of protocol/deck.md §1–3, written from the text, not the engine."""

    def __init__(self, seed: int) -> None:
        self.seed, self.block, self.queue = seed, 0, []

    def next(self) -> int:
        if not self.queue:
            raw = hashlib.sha256(b"carcnet/deck/v1" + self.seed.to_bytes(8, "big") + self.block.to_bytes(4, "big"))
            d = raw.digest()
            self.queue = [int.from_bytes(d[i * 8 : i * 8 + 8], "big") for i in range(4)]
            self.block += 1
        return self.queue.pop(0)

    def below(self, n: int) -> int:
        limit = 2**64 - 2**64 % n
        u = self.next()
        while u >= limit:
            u = self.next()
        return u % n


@pytest.mark.parametrize("case", VECTORS["stream"], ids=lambda c: c["seed"])
def test_stream_matches_golden_vector(case):
    seed = int(case["seed"])
    expected = [int(x) for x in case["first_u64"]]
    engine = DeckStream(seed)
    spec = SpecStream(seed)
    assert [engine.next_u64() for _ in expected] == expected
    assert [spec.next() for _ in expected] == expected


@pytest.mark.parametrize("case", VECTORS["below"], ids=lambda c: c["seed"])
def test_below_matches_golden_vector_including_rejections(case):
    ns = [int(n) for n in case["n"]]
    expected = [int(r) for r in case["result"]]
    engine = DeckStream(int(case["seed"]))
    spec = SpecStream(int(case["seed"]))
    assert [engine.below(n) for n in ns] == expected
    assert [spec.below(n) for n in ns] == expected


def test_canonical_base_group():
    counts = base_tile_counts()
    counts["D"] -= 1
    assert "".join(canonical_group(counts)) == VECTORS["base_group"]
    assert len(VECTORS["base_group"]) == 71


@pytest.mark.parametrize("case", VECTORS["base_deck"], ids=lambda c: c["seed"])
def test_seeded_deck_matches_golden_vector(case):
    seed = int(case["seed"])
    assert "".join(GameSetup(players=2, seed=seed).deck()) == case["order"]
    items = list(VECTORS["base_group"])
    spec = SpecStream(seed)
    for i in range(len(items) - 1, 0, -1):
        j = spec.below(i + 1)
        items[i], items[j] = items[j], items[i]
    assert "".join(items) == case["order"]


def test_seeded_deck_holds_the_71_tiles_after_the_start_tile():
    order = GameSetup(players=3, seed=99).deck()
    expected = Counter(base_tile_counts())
    expected["D"] -= 1
    assert Counter(order) == expected and len(order) == 71
    game = Game(GameSetup(players=3, seed=99))
    assert game.tiles_left == 70 and game.drawn == order[0]


def test_different_seeds_give_different_orders():
    orders = {GameSetup(players=2, seed=s).deck() for s in range(20)}
    assert len(orders) == 20


def test_groups_continue_one_stream():
    a, b = shuffled_groups(5, [list("ABCDEFG"), list("HIJKLMN")])
    alone = shuffled_groups(5, [list("HIJKLMN")])[0]
    assert sorted(a) == list("ABCDEFG") and sorted(b) == list("HIJKLMN")
    assert b != alone  # the second group does not restart the stream


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "7", True])
def test_bad_seeds_are_refused(seed):
    with pytest.raises(SetupError, match="seed"):
        GameSetup(players=2, seed=seed).deck()


def test_explicit_draw_order_is_used_as_is():
    game = Game(GameSetup(players=2, draw_order=("X", "B", "B")))
    assert game.drawn == "X" and game.remaining() == {"B": 2}


@pytest.mark.parametrize(
    "setup, words",
    [
        (GameSetup(players=1, seed=1), "2 to 6 players"),
        (GameSetup(players=7, seed=1), "2 to 6 players"),
        (GameSetup(players=2), "exactly one of seed, draw_order and table"),
        (GameSetup(players=2, seed=1, draw_order=("A",)), "exactly one"),
        (GameSetup(players=2, draw_order=("A", "Z")), "draw_order\\[1\\] = 'Z'"),
    ],
)
def test_bad_setups_name_the_problem(setup, words):
    with pytest.raises(SetupError, match=words):
        Game(setup)


@pytest.mark.parametrize("case", VECTORS["expansion_deck"], ids=lambda c: f"{c['river_start']}-{c['abbot']}")
def test_expansion_decks_match_golden_vectors(case):
    from carcnet.engine import Rules

    rules = Rules(river=case["river"], abbot=case["abbot"], river_start=case["river_start"])
    assert list(GameSetup(players=2, seed=int(case["seed"]), rules=rules).deck()) == case["order"]
