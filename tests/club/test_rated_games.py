"""What a rated game is (docs/club.md): a game counts only where this laptop can say who held its
seats (a game it played, its keys beside the log; or a table of an event it took part in, its seats'
laptops present), a bot of another laptop never moves its level's rating, two bots of one level are
two entrants of one rating, and ``carcnet ratings`` says why a game did not count."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from carcnet.bots import RandomBot
from carcnet.cli import main
from carcnet.club.ratings import Rating, Ratings
from carcnet.engine import Phase
from carcnet.log import LogHeader, Seat
from carcnet.log.recorder import GameRecorder
from carcnet.net.signing import SeatKey
from carcnet.table.keys import keys_path, write_keys


def key(name: str) -> SeatKey:
    return SeatKey.from_seed(hashlib.sha256(f"carcnet rated game {name}".encode()).digest())


def game(path: Path, seats: list[Seat], *, signer: str = "forger", here: dict[int, SeatKey] | None = None,
         seed: int = 0) -> Path:
    """A finished game of *seats* whose every seat key is one of *signer*'s; with *here*, the keys
    file of the laptop that played those seats beside it."""
    keys = [key(f"{signer} {seed} {s}") for s in range(len(seats))]
    nonces = [hashlib.sha256(f"nonce {seed} {s}".encode()).digest() for s in range(len(seats))]
    header = LogHeader.new(seats, keys=[k.public for k in keys], nonces=nonces, created=0,
                           game=hashlib.sha256(f"{path} {seed}".encode()).hexdigest()[:32])
    bots = [RandomBot(seed * 10 + s) for s in range(len(seats))]
    with GameRecorder.create(header, path, signers=dict(enumerate(keys))) as recorder:
        while recorder.game.phase is not Phase.GAME_OVER:
            recorder.submit(bots[recorder.game.seat].choose(recorder.game.view()))
    if here is not None:
        write_keys(keys_path(path), header.game, keys[min(here)], {s: keys[s] for s in here}, "Here")
    return path


FORGED = [Seat("Forger", "red"), Seat("Hard", "blue", "bot", "hard")]


def test_ten_self_made_games_count_for_nothing_and_say_why(tmp_path: Path) -> None:
    """Ten games signed only by a forger's keys, a seat labelled the hard bot (played by the random
    one): none counts here; bot:hard and the forger keep their ratings."""
    ratings = Ratings()
    whys = [ratings.rate_log(game(tmp_path / f"forged-{i}.carclog", FORGED, seed=i)) for i in range(10)]
    assert all(w is not None and "did not play in this game" in w for w in whys), whys
    assert ratings.players == {} and ratings.games == set()
    assert len(ratings.unrated) == 10


def test_a_bot_of_another_laptop_is_rated_as_that_laptops_never_as_its_level(tmp_path: Path) -> None:
    """This laptop played seat 0 (a person); the hard bot was another laptop's: the person's rating
    moves, and that laptop's hard bot's, never bot:hard's."""
    path = game(tmp_path / "played.carclog", [Seat("Me", "red"), Seat("Hard", "blue", "bot", "hard")],
                here={0: key("x")})
    ratings = Ratings()
    assert ratings.rate_log(path) is None
    assert "bot:hard" not in ratings.players and len(ratings.players) == 2
    assert any(p.startswith("bot:hard@") for p in ratings.players)


def test_an_events_table_counts_with_two_laptops_present_or_this_laptop_alone(tmp_path: Path) -> None:
    me, other, stranger = key("me").public, key("other").public, key("stranger").public
    seats = [Seat("G1", "red", "bot", "greedy"), Seat("G2", "blue", "bot", "greedy"), Seat("R", "yellow", "bot", "random")]
    path = game(tmp_path / "table.carclog", seats)
    # one other laptop held every seat: its own game, nothing to vouch for it here
    ratings = Ratings()
    assert "one laptop held every seat" in (ratings.rate_table(path, [other] * 3, me, {other}) or "")
    # a laptop that never answered this one during the event
    assert "never answered" in (ratings.rate_table(path, [me, me, stranger], me, {other}) or "")
    assert ratings.players == {}
    # two laptops, both present: two greedy bots of this laptop, one entrant each of bot:greedy; the
    # other laptop's random bot is rated as that laptop's
    assert ratings.rate_table(path, [me, me, other], me, {other}) is None
    assert set(ratings.players) == {"bot:greedy", f"bot:random@{other.hex()}"}
    assert ratings.players["bot:greedy"].games == 1 and ratings.players["bot:greedy"] != Rating()
    # this laptop alone (a tournament of one laptop's bots): every seat vouched for
    alone = Ratings()
    assert alone.rate_table(path, [me, me, me], me, set()) is None
    assert set(alone.players) == {"bot:greedy", "bot:random"}


def test_two_bots_of_one_level_move_by_the_mean_of_their_seats() -> None:
    ratings = Ratings()
    assert ratings.rate("g", ["bot:greedy", "bot:greedy", "bot:random"], [30, 10, 20])
    mean = ratings.players["bot:greedy"]
    apart = Ratings()
    apart.rate("g", ["bot:greedy", "bot:greedy 2", "bot:random"], [30, 10, 20])
    expected = (apart.players["bot:greedy"].mu + apart.players["bot:greedy 2"].mu) / 2
    assert abs(mean.mu - expected) < 1e-9 and mean.games == 1


def test_ratings_lists_the_games_not_counted_and_why(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data"
    forged = game(tmp_path / "forged.carclog", FORGED)
    assert main(["ratings", "--data-dir", str(data), str(forged)]) == 1
    capsys.readouterr()
    assert main(["ratings", "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert "No ratings yet" in out and "Not counted (1 game," in out and "did not play in this game" in out


@pytest.mark.asyncio
async def test_a_network_game_over_counts_into_the_ratings_whoever_shows_it(tmp_path: Path) -> None:
    """The ratings were counted by the interface's game screen, as it showed the final scores: a game
    played by a headless peer (no screen) never counted. Now the table is counted once it is over,
    whoever shows it: here nobody does; one sentence says so, once."""
    from carcnet.club.ratings import RATINGS_FILE, count_when_over
    from carcnet.engine import Rules
    from carcnet.table import NetTable, plan_from_text

    from ..net.loopback import FAST

    loop = ("127.0.0.1", 0)
    host = NetTable.host(name="Ann", game_name="Friday", rules=Rules(), plan=plan_from_text("random,open", me="Ann"),
                         directory=tmp_path / "Ann", listen=loop, discovery=False, timing=FAST, auto_start=True,
                         bot_delay=0)
    said: list[str] = []
    count_when_over(host, tmp_path / "Ann", said.append)
    async with host:
        bob = NetTable.join(host.game_id, name="Bob", bot="random", directory=tmp_path / "Bob", listen=loop,
                            dial=[("127.0.0.1", host.peer.port)], discovery=False, timing=FAST, bot_delay=0)
        async with bob:
            # counted once the end is committed (Bob's vote for it come): a game finished apart may be set aside
            await host.wait_until(lambda: host.status == "finished" and not host.pending, 60)
            await bob.wait_until(lambda: bob.status == "finished", 60)
    assert said == ["Ratings updated"]
    ratings = Ratings.read(tmp_path / "Ann" / RATINGS_FILE)
    assert ratings.games == {host.game_id} and len(ratings.players) == 2
