"""The state digest (protocol/digest.md) against its golden vector, and its definition from the spec."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from carcnet.engine import Game, GameSetup, parse_move, replay

VECTOR = json.loads((Path(__file__).parents[2] / "protocol" / "vectors" / "digest.json").read_text())


def _setup() -> GameSetup:
    s = VECTOR["setup"]
    return GameSetup(players=s["players"], seed=int(s["seed"]), rules_version=s["rules"])


def test_golden_game_replays_to_the_recorded_digests():
    game = replay(_setup(), [parse_move(m) for m in VECTOR["moves"]])
    assert [d.hex() for d in game.digests] == VECTOR["digests"]
    assert game.scores == VECTOR["final_scores"]


def test_first_digest_follows_the_spec_text():
    game = Game(_setup())
    assert _setup().canonical() == VECTOR["setup_text"]
    line = f"place seat=0 drawn={game.drawn} next=1 aside=0 scores=0,0 supply=7,7\n"
    assert game.digest == hashlib.sha256((VECTOR["setup_text"] + line).encode()).digest()


def test_each_digest_chains_the_previous_with_move_and_state_line():
    game = Game(GameSetup(players=2, draw_order=("E", "U")))
    d0 = game.digest
    game.apply(parse_move("place E 0,-1 180"))
    line = "deploy seat=0 drawn=- next=1 aside=0 scores=0,0 supply=7,7\n"
    assert game.digest == hashlib.sha256(d0 + f"place E 0,-1 180\n{line}".encode()).digest()
    d1 = game.digest
    game.apply(parse_move("deploy 0"))  # completes the 2-tile city: 4 points, meeple back
    line = "place seat=1 drawn=U next=2 aside=0 scores=4,0 supply=7,7\n"
    assert game.digest == hashlib.sha256(d1 + f"deploy 0\n{line}".encode()).digest()


def test_digest_distinguishes_setups_and_moves():
    a = Game(GameSetup(players=2, seed=1))
    b = Game(GameSetup(players=3, seed=1))
    c = Game(GameSetup(players=2, seed=2))
    assert len({a.digest, b.digest, c.digest}) == 3
    g1 = Game(GameSetup(players=2, draw_order=("E", "U")))
    g2 = Game(GameSetup(players=2, draw_order=("E", "U")))
    g1.apply(parse_move("place E 0,-1 180"))
    g2.apply(parse_move("place E 0,-1 180"))
    g1.apply(parse_move("deploy 0"))
    g2.apply(parse_move("skip"))
    assert g1.digest != g2.digest


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("digest-expansions.json", " start=after small-city=0 farms=farm"),
        ("digest-variants.json", " small-city=1 farms=city"),
        ("digest-inns.json", "rules 4 river=1 abbot=1 start=after small-city=0 farms=farm inns=1"),
        ("digest-traders.json", "rules 4 river=0 abbot=0 small-city=0 farms=farm traders=1"),
        # rules 5: the builder's second tile asked before the draw, taken and declined
        ("digest-traders-rules5.json", "rules 5 river=0 abbot=0 small-city=0 farms=farm traders=1"),
        # rules 6: Hills & Sheep (its hills' hidden tiles in the state line)
        ("digest-hills.json", "rules 6 river=0 abbot=1 small-city=0 farms=farm hills-sheep=1"),
        # rules 6: The Princess & the Dragon (the dragon, the princess, the fairy, the magic portal)
        ("digest-dragon.json", "rules 6 river=0 abbot=0 small-city=0 farms=farm princess-dragon=1"),
        # a game of rules 3 (before the expansions): the same game, its setup text saying rules 3
        ("digest-expansions-rules3.json", "rules 3 river=1 abbot=1 start=after"),
        # a game of rules 2 (before the exact river rule): replayed under its own version's rules
        ("digest-expansions-rules2.json", "rules 2 river=1 abbot=1 start=after"),
    ],
)
def test_games_under_rule_options_replay_to_their_recorded_digests(name, words):
    from carcnet.engine import Rules

    vector = json.loads((Path(__file__).parents[2] / "protocol" / "vectors" / name).read_text())
    s = vector["setup"]
    rules = Rules(
        river=s["river"], abbot=s["abbot"], river_start=s["river_start"], small_city=s["small_city"], farms=s["farms"],
        inns=s.get("inns", False), traders=s.get("traders", False), hills_sheep=s.get("hills_sheep", False),
        princess_dragon=s.get("princess_dragon", False),
    )
    setup = GameSetup(players=s["players"], seed=int(s["seed"]), rules=rules, rules_version=s["rules"])
    assert setup.canonical() == vector["setup_text"] and words in vector["setup_text"]
    game = replay(setup, [parse_move(m) for m in vector["moves"]])
    assert [d.hex() for d in game.digests] == vector["digests"]
    assert game.scores == vector["final_scores"]
    if s.get("inns"):  # the vector plays what the expansion adds: the large meeple
        assert any(m.endswith(" large") for m in vector["moves"])
    if s.get("hills_sheep"):  # the vector plays what the expansion adds: tiles hidden under hills
        assert game.hidden > 0 and f" hidden={game.hidden} " in game.state_line()
        assert any(m.endswith(" shepherd") for m in vector["moves"])
        assert {"flock grow", "flock score"} <= set(vector["moves"])
    if s.get("princess_dragon"):  # the vector plays what the expansion adds
        for verb in ("dragon ", "princess ", "fairy "):
            assert any(m.startswith(verb) for m in vector["moves"]), verb
        assert any(m.startswith("deploy ") and " @" in m for m in vector["moves"])  # the magic portal
    if s["rules"] >= 5 and s.get("traders"):  # the second tile's question, answered both ways
        assert {"second-tile take", "second-tile decline"} <= set(vector["moves"])


def test_an_expansion_is_played_only_from_the_rules_version_that_has_it():
    from carcnet.engine import Rules, SetupError

    GameSetup(players=2, seed=1, rules=Rules(inns=True), rules_version=4).validate()
    for version in (2, 3):
        with pytest.raises(SetupError, match=f"rules version {version} has no inns"):
            GameSetup(players=2, seed=1, rules=Rules(inns=True), rules_version=version).validate()
        GameSetup(players=2, seed=1, rules=Rules(), rules_version=version).validate()
