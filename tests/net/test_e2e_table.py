"""Issue 12 on separate network hosts: the table outlives any laptop. Each test runs ``carcnet``
processes in network namespaces of their own on one bridge (real multicast mDNS and TCP, made by
:mod:`tests.net.netns`), kills, cuts or restarts one of them mid-game, and checks what the others
show and that the game ends for them with one log. Needs root; skipped elsewhere with the reason.

The bots wait a little before each turn (``--bot-delay``) so that a test can act between two turns;
the away rule is shortened with ``--takeover``. Every wait is bounded by :data:`GAME_SECONDS`."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from carcnet.engine import HandBack, HandOver
from carcnet.log import load

from . import netns

#: The longest any one test may take, lobby to the last save.
GAME_SECONDS = 180.0


class Procs:
    """The ``carcnet`` processes of one test: started in their hosts, their stdout lines kept."""

    def __init__(self, lan: netns.Lan, tmp: Path) -> None:
        self.lan, self.tmp = lan, tmp
        self.procs: dict[str, asyncio.subprocess.Process] = {}
        self.out: dict[str, list[str]] = {}
        self.finished: dict[str, int] = {}

    async def start(self, name: str, host: netns.Host, *args: str) -> None:
        """Starts ``carcnet ARGS`` on *host* with its own data folder, mDNS on *host*'s address."""
        argv = [sys.executable, "-m", "carcnet", *args, "--data-dir", str(self.tmp / name),
                "--interface", host.address, "--timeout", str(GAME_SECONDS), "--takeover", "2", "--moves"]
        self.procs[name] = await self.lan.spawn(host, *argv)
        self.out.setdefault(name, [])

    async def until(self, name: str, prefix: str) -> str:
        """Reads *name*'s lines until one starts with *prefix*; fails if the process ends first."""
        line = await netns.read_lines(self.procs[name], self.out[name], prefix)
        assert line is not None, (name, prefix, self.out[name][-10:])
        return line

    async def until_any(self, name: str, test) -> str:
        """Reads *name*'s lines until ``test(line)`` holds; fails if the process ends first."""
        proc = self.procs[name]
        assert proc.stdout is not None
        while True:
            raw = await proc.stdout.readline()
            assert raw, (name, self.out[name][-10:])
            line = raw.decode(errors="replace").rstrip("\n")
            self.out[name].append(line)
            if test(line):
                return line

    async def finish(self, *names: str) -> dict[str, int]:
        """Reads the rest of *names*' output and waits for them to end; their exit codes."""
        await asyncio.gather(*(netns.read_lines(self.procs[n], self.out[n]) for n in names))
        return {n: await self.procs[n].wait() for n in names}

    def saved(self, name: str) -> Path:
        """The save *name* printed last."""
        line = [line for line in self.out[name] if line.startswith("saved to ")][-1]
        return Path(line.removeprefix("saved to "))

    async def report(self) -> None:
        await self.lan.stop_processes()
        for name, proc in self.procs.items():
            if proc.stderr is not None:
                err = (await asyncio.wait_for(proc.stderr.read(), 5)).decode(errors="replace")
                print(f"--- {name} stderr:\n{err[-3000:]}")
            lines = self.out[name]
            shown = [f"{i}: {line}" for i, line in enumerate(lines) if not line.startswith("move ") or i >= len(lines) - 6]
            print(f"--- {name} stdout (moves but the last cut):\n" + "\n".join(shown))


@pytest.fixture
def lan4():
    yield from netns.lan_for_test(4)


async def _table(procs: Procs, lan: netns.Lan, delay: str) -> str:
    """Ann opens a table on host 0 with a greedy seat; Bob and Cleo sit down with random bots on
    hosts 1 and 2 (found by mDNS); each laptop's bots wait *delay* seconds before each turn.
    Returns the game id."""
    ann, bob, cleo = lan.hosts[:3]
    await procs.start("ann", ann, "host", "--headless", "--seats", "greedy,open,open", "--name", "Ann",
                      "--listen", ann.address, "--bot-delay", delay)
    game = (await procs.until("ann", "game id ")).removeprefix("game id ")
    await procs.until("ann", "listening on port")
    for name, host in (("bob", bob), ("cleo", cleo)):
        await procs.start(name, host, "bot", "--join", "--name", name.capitalize(), "--bot", "random",
                          "--listen", host.address, "--wait", "30", "--bot-delay", delay)
    return game


async def _cut_bob_after_his_turn(procs: Procs, lan: netns.Lan) -> None:
    """The table of :func:`_table` with bots waiting 0.5 s a turn; once Bob's turn has ended (his move
    after his placement) and someone else's has begun, Bob's network goes, and he says he is cut off."""
    await _table(procs, lan, "0.5")
    await procs.until_any(
        "bob", lambda line: line.startswith("move ") and " Bob: " in line
        and int(line.split()[1]) >= 10 and " Bob: place " not in line
    )
    lan.cut(lan.hosts[1])
    await procs.until("bob", "You are cut off from the table")


def _handovers(path: Path) -> list[HandOver]:
    return [e.move for e in load(path).entries if isinstance(e.move, HandOver)]


@pytest.mark.asyncio
async def test_a_spectator_watching_through_a_killed_player_sees_the_table_and_the_end(lan4, tmp_path: Path) -> None:
    """Items 2 and 3: Eve watches through Bob alone (by address, no mDNS). While everyone plays she
    shows nobody away, though she has no link to Ann or Cleo (presence is the table's); when Bob is
    killed (-9) she says she watches through another player now, shows Bob away until the table
    gives his seat to a bot, and saves the whole game, equal to the others' saves."""
    procs = Procs(lan4, tmp_path)
    bob, eve = lan4.hosts[1], lan4.hosts[3]
    try:
        async with asyncio.timeout(GAME_SECONDS):
            game = await _table(procs, lan4, "0.1")
            port = (await procs.until("bob", "listening on port ")).removeprefix("listening on port ")
            await procs.start("eve", eve, "spectate", "--headless", "--name", "Eve", "--no-mdns",
                              f"{bob.address}:{port}", "--game", game)
            await procs.until("eve", "move 24 ")
            before = list(procs.out["eve"])
            procs.procs["bob"].kill()
            await procs.procs["bob"].wait()
            codes = await procs.finish("ann", "cleo", "eve")
    finally:
        await procs.report()
    assert codes == {"ann": 0, "cleo": 0, "eve": 0}, codes
    assert not [line for line in before if line.startswith("Away: ")], "nobody was away while all played"
    eve_out = procs.out["eve"]
    assert any(line.startswith("Watching through ") and "(Bob is gone)" in line for line in eve_out), eve_out
    assert "Away: Bob" in eve_out, eve_out
    # the table's last word stands while Eve hears no player: never Ann's bot or Cleo, who play on
    assert {line for line in eve_out if line.startswith("Away: ")} == {"Away: Bob"}, eve_out
    saves = {name: procs.saved(name).read_bytes() for name in ("ann", "cleo", "eve")}
    assert len(set(saves.values())) == 1, "Ann, Cleo and Eve saved the same log"
    loaded = load(procs.saved("eve"))
    assert loaded.damage is None and loaded.game.tiles_left == 0
    bob_seat = [s.name for s in loaded.header.seats].index("Bob")
    assert [(h.seat, h.bot) for h in _handovers(procs.saved("eve"))] == [(bob_seat, "random")]


@pytest.mark.asyncio
async def test_a_player_cut_off_longer_than_the_away_rule_refuses_handovers_then_converges(lan4, tmp_path: Path) -> None:
    """Item 4: Bob's network goes right after his turn, for longer than the away rule. He says he is
    cut off and does not take the others' seats over; Ann and Cleo, most of the table, give Bob's
    seat to a bot at his turn. When Bob's network is back his log catches up with the table's, and
    his seat comes back to him at its next turn: every save ends the same, with exactly that one
    handover and one handback."""
    procs = Procs(lan4, tmp_path)
    bob = lan4.hosts[1]
    try:
        async with asyncio.timeout(GAME_SECONDS):
            await _cut_bob_after_his_turn(procs, lan4)
            refused = await procs.until("bob", "Not taking ")
            handover = await procs.until_any("ann", lambda line: " handover " in line)
            lan4.mend(bob)
            await procs.until("bob", "Back in touch with the table")
            codes = await procs.finish("ann", "bob", "cleo")
    finally:
        await procs.report()
    assert codes == {"ann": 0, "bob": 0, "cleo": 0}, codes
    assert "cut off from the table" in refused, refused
    saves = {name: procs.saved(name).read_bytes() for name in ("ann", "bob", "cleo")}
    assert len(set(saves.values())) == 1, "Bob's log converged with the table's"
    loaded = load(procs.saved("bob"))
    seat = [s.name for s in loaded.header.seats].index("Bob")
    moves = _handovers(procs.saved("bob"))
    assert [(h.seat, h.bot) for h in moves] == [(seat, "random")] and moves[0].by != seat, (moves, handover)
    # Bob's laptop is back: the bot's runner gave his seat back at his next turn, and Bob played on.
    backs = [e for e in loaded.entries if isinstance(e.move, HandBack)]
    assert [(e.move.seat, e.seat) for e in backs] == [(seat, moves[0].by)], backs
    after = loaded.entries[backs[0].seq:]
    assert after and after[0].seat == seat and loaded.game.signer(seat) == seat
    assert any(line == "Bob is back and plays their seat again" for name in ("ann", "cleo") for line in procs.out[name])


@pytest.mark.asyncio
async def test_a_player_cut_off_until_the_others_finish_gets_the_end_when_back(lan4, tmp_path: Path) -> None:
    """Issue 30 (nemesis seed 312): Bob's network goes mid-game and stays away until Ann and Cleo have
    played the game to its end. They do not leave as soon as their own peers hold the end: Bob's votes
    do not cover it, so they say they wait for him (bounded), and when his network is back he gets the
    end from them: every save ends the same, and every process ends with status 0."""
    procs = Procs(lan4, tmp_path)
    bob = lan4.hosts[1]
    try:
        async with asyncio.timeout(GAME_SECONDS):
            await _cut_bob_after_his_turn(procs, lan4)
            waits = [await procs.until(name, "The game is over; waiting up to ") for name in ("ann", "cleo")]
            lan4.mend(bob)
            codes = await procs.finish("ann", "bob", "cleo")
    finally:
        await procs.report()
    assert codes == {"ann": 0, "bob": 0, "cleo": 0}, codes
    assert all(" for Bob to get the end " in line for line in waits), waits
    saves = {name: procs.saved(name).read_bytes() for name in ("ann", "bob", "cleo")}
    assert len(set(saves.values())) == 1, "Bob got the end of the game from Ann and Cleo"
    assert load(procs.saved("bob")).game.tiles_left == 0


@pytest.mark.asyncio
async def test_a_spectator_killed_and_restarted_keeps_one_complete_save(lan4, tmp_path: Path) -> None:
    """Item 5: Eve's spectator is killed (-9) mid-game and started again on the same laptop with the
    same folder: it catches up and goes on with its own save; at the end her folder holds one save,
    the whole game, equal to the players'."""
    procs = Procs(lan4, tmp_path)
    eve = lan4.hosts[3]
    spectate = ("spectate", "--headless", "--name", "Eve", "--wait", "30")
    try:
        async with asyncio.timeout(GAME_SECONDS):
            await _table(procs, lan4, "0.1")
            await procs.start("eve", eve, *spectate)
            await procs.until("eve", "move 30 ")
            first = procs.procs.pop("eve")
            first.kill()
            await first.wait()
            killed_at = list(procs.out["eve"])
            procs.out["eve"] = []
            await procs.start("eve", eve, *spectate)
            codes = await procs.finish("ann", "bob", "cleo", "eve")
    finally:
        await procs.report()
    assert codes == {"ann": 0, "bob": 0, "cleo": 0, "eve": 0}, codes
    assert any(line.startswith("The game started; saving it to ") for line in killed_at), killed_at
    assert any(line.startswith("Back at the game; its save goes on in ") for line in procs.out["eve"]), procs.out["eve"]
    saves = sorted((tmp_path / "eve").rglob("*.carclog"))
    assert len(saves) == 1, saves
    assert saves[0] == procs.saved("eve")
    assert saves[0].read_bytes() == procs.saved("ann").read_bytes()
    assert load(saves[0]).game.tiles_left == 0
