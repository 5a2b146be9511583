"""The greedy bot: strength against the random bot, reproducibility, its deploy plan, purity, the work of a
turn (its speed is benchmarks/bench_bots.py's)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from carcnet.bots import BOTS, GreedyBot, RandomBot, greedy_bot, make_bot
from carcnet.engine import DeployMeeple, Game, GameSetup, Phase, PlaceTile, Position, SkipMeeple, replay
from carcnet.engine.geometry import position_of
from carcnet.engine.preview import feature_changes

from .helpers import play

REPO = Path(__file__).resolve().parents[2]
WIN_RATE_SEEDS = 200


def test_greedy_beats_random_in_nine_of_ten_two_player_games():
    wins = 0
    for seed in range(WIN_RATE_SEEDS):
        greedy_seat = seed % 2  # alternate who sits first
        bots = [RandomBot(seed), RandomBot(seed)]
        bots[greedy_seat] = GreedyBot(seed)
        game = play(seed, bots)
        wins += game.scores[greedy_seat] > game.scores[1 - greedy_seat]
    rate = wins / WIN_RATE_SEEDS
    print(f"\ngreedy beats random in {wins}/{WIN_RATE_SEEDS} two-player games ({rate:.1%})")
    assert rate >= 0.9, f"greedy won only {wins}/{WIN_RATE_SEEDS} games ({rate:.1%}) against random"


def test_a_greedy_turn_previews_each_placement_once_and_replays_nothing(monkeypatch):
    """What a greedy turn costs, counted in work (its time per turn is benchmarks/bench_bots.py's):
    one preview per legal (position, rotation) of the drawn tile, and the deploy it planned with the
    placement, so no replay of the game to plan it again."""
    previews: list[tuple[Position, int]] = []
    replays: list[int] = []

    def preview(game, key, rotation, memo=None):
        previews.append((position_of(key), rotation))
        return feature_changes(game, key, rotation, memo)

    def replayed(setup, moves):
        replays.append(len(moves))
        return replay(setup, moves)

    monkeypatch.setattr(greedy_bot, "feature_changes", preview)
    monkeypatch.setattr(greedy_bot, "replay", replayed)
    turns = 0
    for seed in range(4):
        game = Game(GameSetup(players=2 + seed, seed=seed))
        bots = [GreedyBot(seed * 10 + s) for s in range(game.players)]
        while game.phase is not Phase.GAME_OVER:
            previews.clear()
            legal = [(p.position, r) for p in game.legal_placements() for r in p.rotations]
            move = bots[game.seat].choose(game.view())
            if isinstance(move, PlaceTile):
                turns += 1
                assert sorted(previews) == sorted(legal), (
                    f"turn {turns}: {len(previews)} previews, {len(legal)} placements"
                )
            else:
                assert previews == [], f"turn {turns}: its deploy previewed again"
            game.apply(move)
    assert turns > 4 * 60 and replays == []


@pytest.mark.parametrize("players", [2, 4])
def test_same_seed_same_game(players):
    first = play(77, [GreedyBot(3 + s) for s in range(players)])
    again = play(77, [GreedyBot(3 + s) for s in range(players)])
    assert first.moves == again.moves and first.digest == again.digest
    mixed = play(78, [GreedyBot(1), RandomBot(2)][:players] + [GreedyBot(9)] * (players - 2))
    mixed_again = play(78, [GreedyBot(1), RandomBot(2)][:players] + [GreedyBot(9)] * (players - 2))
    assert mixed.moves == mixed_again.moves


def test_greedy_games_do_not_depend_on_the_hash_seed():
    code = (
        "from carcnet.bots import GreedyBot\n"
        "from carcnet.engine import Game, GameSetup, Phase\n"
        "g = Game(GameSetup(players=3, seed=12))\n"
        "bots = [GreedyBot(s) for s in range(3)]\n"
        "while g.phase is not Phase.GAME_OVER:\n"
        "    g.apply(bots[g.seat].choose(g.view()))\n"
        "print(g.digest.hex())\n"
    )
    digests = set()
    for hash_seed in ("0", "1", "4242"):
        env = dict(os.environ)
        env["PYTHONHASHSEED"] = hash_seed
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
        out = subprocess.run(
            [sys.executable, "-c", code],
            check=False,
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert out.returncode == 0, out.stderr
        digests.add(out.stdout.strip())
    game = Game(GameSetup(players=3, seed=12))
    bots = [GreedyBot(s) for s in range(3)]
    while game.phase is not Phase.GAME_OVER:
        game.apply(bots[game.seat].choose(game.view()))
    assert digests == {game.digest.hex()}


def _at_deploy(seed: int = 4, moves: int = 31) -> Game:
    """A 2-player random game stopped in a deploy phase."""
    game = Game(GameSetup(players=2, seed=seed))
    bot = RandomBot(seed)
    while len(game.moves) < moves or game.phase is not Phase.DEPLOY:
        game.apply(bot.choose(game.view()))
    return game


def test_the_planned_deploy_is_played_without_searching_again(monkeypatch):
    game = Game(GameSetup(players=2, seed=8))
    bot = GreedyBot(1)
    for _ in range(30):  # 15 turns of self-play
        game.apply(bot.choose(game.view()))
    place = bot.choose(game.view())
    assert isinstance(place, PlaceTile)
    game.apply(place)

    def no_search(_game: Game) -> None:
        raise AssertionError("the bot searched again instead of using its plan")

    monkeypatch.setattr(bot, "_best_deploy", no_search)
    follow = bot.choose(game.view())
    assert follow in game.legal_moves()


def test_without_a_usable_plan_the_deploy_is_evaluated_afresh():
    game = _at_deploy()
    digest, placed = game.digest, game.placed
    fresh = GreedyBot(2).choose(game.view())  # never planned this placement
    assert fresh in game.legal_moves()
    assert (game.digest, game.placed) == (digest, placed)
    # a plan made for another placement is ignored
    other = Game(GameSetup(players=2, seed=4))
    stale = GreedyBot(2)
    stale.choose(other.view())  # plans a placement on another game
    assert stale.choose(game.view()) in game.legal_moves()


def test_greedy_closes_a_city_for_itself_and_not_for_its_opponent():
    game = Game(GameSetup(players=2, draw_order=("U", "E", "E", "V", "V")))
    game.apply(PlaceTile("U", Position(1, 0), 1))  # seat 0: a road east of the start tile
    game.apply(SkipMeeple())
    game.apply(PlaceTile("E", Position(1, -1), 0))  # seat 1: a city north of it, open to the north ...
    game.apply(DeployMeeple(0))  # ... with a knight
    bot = GreedyBot(0)
    place = bot.choose(game.view())  # seat 0 draws E: it could close seat 1's city (4 points for seat 1)
    assert place == PlaceTile("E", Position(0, -1), 2)  # it closes the start city instead ...
    game.apply(place)
    assert bot.choose(game.view()) == DeployMeeple(0)  # ... with its own knight
    game.apply(DeployMeeple(0))
    assert game.scores == [4, 0]


def test_choose_does_not_change_the_game():
    game = Game(GameSetup(players=3, seed=21))
    bots = [GreedyBot(s) for s in range(3)]
    for _ in range(40):
        game.apply(bots[game.seat].choose(game.view()))
    state = (game.digest, list(game.scores), list(game.supply), game.features(), game.legal_moves())
    GreedyBot(5).choose(game.view())
    assert (game.digest, list(game.scores), list(game.supply), game.features(), game.legal_moves()) == state


def test_make_bot_knows_random_and_greedy():
    assert list(BOTS)[:2] == ["random", "greedy"]  # then the search bot's levels
    assert isinstance(make_bot("random", 1), RandomBot) and make_bot("random", 1).name == "random"
    assert isinstance(make_bot("greedy", 1), GreedyBot) and make_bot("greedy", 1).name == "greedy"
    with pytest.raises(ValueError, match="known bots: random, greedy, easy, medium, hard, expert"):
        make_bot("mcts", 1)


def test_skip_and_deploy_moves_are_the_engine_types():
    game = _at_deploy()
    assert isinstance(GreedyBot(0).choose(game.view()), DeployMeeple | SkipMeeple)


def test_with_inns_and_cathedrals_greedy_values_a_completion_as_the_engine_scores_it():
    """Issue 33: what the greedy valuation says a completed feature is worth equals what the
    placement preview (and so the engine) scores for it, inns and cathedrals included, at every
    placement of positions along seeded games; and a feature with an inn or cathedral that stays
    open is valued below what completing it gives."""
    from carcnet.engine import Rules
    from carcnet.engine.preview import preview_placement
    from carcnet.engine.tiles import ROTATIONS_OF_BITS

    checked = marked = 0
    for seed in range(6):
        game = Game(GameSetup(players=2, seed=seed, rules=Rules(inns=True)))
        bots = [RandomBot(seed), RandomBot(seed + 1)]
        while game.phase is not Phase.GAME_OVER:
            if game.phase is Phase.PLACE_TILE:
                turn = greedy_bot._turn(game)
                for code in game.placement_codes():
                    for rotation in ROTATIONS_OF_BITS[code & 15]:
                        changes, _ = feature_changes(game, code >> 4, rotation)
                        done = {c.segment: c.points for c in
                                preview_placement(game, position_of(code >> 4), rotation).completions}
                        for fc in changes:
                            if fc.complete:
                                assert turn.after_value(fc) == done[fc.index], (fc, done)
                                checked += 1
                                marked += bool(fc.mark)
                            elif fc.mark and fc.tiles:
                                assert turn.after_value(fc) < 3 * (fc.tiles + fc.pennants)
            game.apply(bots[game.seat].choose(game.view()))
    assert checked > 100 and marked > 0  # completions with an inn or a cathedral were among them


def test_with_inns_and_cathedrals_greedy_deploys_its_large_meeple():
    """Greedy's turns include the large meeple (legal every time), and it plays it in a game."""
    from carcnet.engine import Figure, Rules

    game = Game(GameSetup(players=2, seed=3, rules=Rules(inns=True)))
    bots = [GreedyBot(1), GreedyBot(2)]
    large = 0
    while game.phase is not Phase.GAME_OVER:
        move = bots[game.seat].choose(game.view())
        assert move in game.legal_moves()
        large += isinstance(move, DeployMeeple) and move.figure is Figure.LARGE
        game.apply(move)
    assert large >= 1


def test_with_traders_and_builders_greedy_deploys_its_builder_and_pig_and_gets_second_tiles():
    """Issue 33: greedy's turns include the builder (beside its own follower) and the pig (beside its
    own farmer), legal every time; in a few games it plays both and gets second tiles."""
    from carcnet.engine import BuilderTurn, Figure, Rules

    used: set[Figure] = set()
    second = 0
    for seed in range(3):
        game = Game(GameSetup(players=2, seed=700 + seed, rules=Rules(traders=True)))
        bots = [GreedyBot(seed), GreedyBot(seed + 1)]
        while game.phase is not Phase.GAME_OVER:
            move = bots[game.seat].choose(game.view())
            assert move in game.legal_moves()
            if isinstance(move, DeployMeeple):
                used.add(move.figure)
            game.apply(move)
        second += sum(isinstance(e, BuilderTurn) for e in game.events)
    assert {Figure.BUILDER, Figure.PIG} <= used and second > 0


def test_with_traders_and_builders_greedy_values_goods_by_the_chance_of_the_bonus():
    """Issue 33: the goods of a city the placement completes are the placer's; greedy values them as
    the change in 10 × the chance of the most of each kind at the end: worth most to a seat level
    with the leader (a tie scores the bonus too), little to one far ahead or far behind, sharper
    as the bag empties; and the same amount is added to every follow-up of such a placement."""
    from carcnet.engine import Rules
    from carcnet.engine.tiles import ROTATIONS_OF_BITS, pack_goods

    game = Game(GameSetup(players=3, seed=5, rules=Rules(traders=True)))
    turn = greedy_bot._turn(game)
    assert isinstance(turn, greedy_bot._MarkedTurn) and turn.lead == (0, 0, 0)
    wine, two_cloth = pack_goods(("wine",)), pack_goods(("cloth", "cloth"))
    level = turn.goods_value(wine)
    assert 0 < level < 10 and turn.goods_value(two_cloth) > level
    assert turn.goods_value(wine | two_cloth) == pytest.approx(level + turn.goods_value(two_cloth))
    for far in (-9, 9):
        turn.lead = (far, 0, 0)
        assert 0 < turn.goods_value(wine) < level / 3
    turn.lead, turn.spread = (-1, 0, 0), 1.0  # one behind near the end: one token ties, and ties score
    assert turn.goods_value(wine) > 2 * level

    bonuses = 0
    for seed in range(4):
        game = Game(GameSetup(players=2, seed=740 + seed, rules=Rules(traders=True)))
        bots = [GreedyBot(seed), GreedyBot(seed + 1)]
        while game.phase is not Phase.GAME_OVER:
            if game.phase is Phase.PLACE_TILE and bonuses < 20:
                turn = greedy_bot._turn(game)
                for code in game.placement_codes():
                    for rotation in ROTATIONS_OF_BITS[code & 15]:
                        changes, areas = feature_changes(game, code >> 4, rotation)
                        goods = sum(fc.goods for fc in changes if fc.complete)
                        if not goods:
                            continue
                        valued = turn.evaluate(changes, areas)
                        lead, turn.lead = turn.lead, None
                        blind = turn.evaluate(changes, areas)
                        turn.lead = lead
                        assert [m for m, _ in valued] == [m for m, _ in blind]
                        for (_, v), (_, b) in zip(valued, blind, strict=True):
                            assert v - b == pytest.approx(turn.goods_value(goods)) and v > b
                        bonuses += 1
            game.apply(bots[game.seat].choose(game.view()))
    assert bonuses >= 20
