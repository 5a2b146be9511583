"""The network commands as separate processes on loopback, without mDNS (a typed HOST:PORT and game
id, as where multicast is blocked): ``carcnet host --headless``, ``carcnet bot --join``,
``carcnet spectate --headless``; then ``carcnet resume`` refuses what it should."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from carcnet.log import load

SECONDS = 90.0


def _carcnet(*args: str) -> list[str]:
    return [sys.executable, "-m", "carcnet", *args]


async def _spawn(*args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        *_carcnet(*args), stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )


async def _read_until(proc: asyncio.subprocess.Process, prefix: str, seen: list[str]) -> str:
    assert proc.stdout is not None
    while True:
        line = (await proc.stdout.readline()).decode()
        assert line, f"the process ended before {prefix!r}: {seen}"
        seen.append(line.rstrip("\n"))
        if line.startswith(prefix):
            return line.rstrip("\n")


async def kill_all(procs: list[asyncio.subprocess.Process]) -> None:
    """Kills those of *procs* still running, and waits for each."""
    for p in procs:
        if p.returncode is None:
            p.kill()
            await p.wait()


@pytest.mark.asyncio
async def test_host_bot_and_spectator_processes_by_address(tmp_path: Path) -> None:
    common = ["--no-mdns", "--timeout", str(SECONDS)]
    procs: list[asyncio.subprocess.Process] = []
    try:
        async with asyncio.timeout(SECONDS + 10):
            host = await _spawn("host", "--headless", "--seats", "random,open", "--listen", "127.0.0.1",
                                "--data-dir", str(tmp_path / "a"), *common)
            procs.append(host)
            seen: list[str] = []
            game = (await _read_until(host, "game id ", seen)).removeprefix("game id ")
            port = (await _read_until(host, "listening on port ", seen)).removeprefix("listening on port ")
            address = f"127.0.0.1:{port}"
            procs.append(await _spawn("spectate", address, "--game", game, "--headless",
                                      "--data-dir", str(tmp_path / "s"), *common))
            procs.append(await _spawn("bot", "--join", address, "--game", game, "--bot", "random",
                                      "--listen", "127.0.0.1", "--data-dir", str(tmp_path / "b"), *common))
            results = [await p.communicate() for p in procs]
    finally:
        await kill_all(procs)
    outs = [seen_lines + out.decode().splitlines() if i == 0 else out.decode().splitlines()
            for i, ((out, _err), seen_lines) in enumerate(zip(results, [seen, [], []], strict=True))]
    assert [p.returncode for p in procs] == [0, 0, 0], [err.decode()[-2000:] for _out, err in results]
    paths = [Path(next(line for line in out if line.startswith("saved to ")).removeprefix("saved to ")) for out in outs]
    assert len({p.read_bytes() for p in paths}) == 1
    loaded = load(paths[0])
    assert loaded.header.game == game and loaded.game.tiles_left == 0
    # A headless player's game over counts into the ratings of its data folder, as the interface's does
    from carcnet.club.ratings import RATINGS_FILE, Ratings

    for out, folder in ((outs[0], "a"), (outs[2], "b")):
        assert "Ratings updated" in out
        assert Ratings.read(tmp_path / folder / RATINGS_FILE).games == {game}
    # The seat keys let each player resume; a saved game is refused by resume without its keys.
    assert paths[0].with_suffix(".keys").exists() and not paths[1].with_suffix(".keys").exists()
    refused = await asyncio.to_thread(
        subprocess.run, _carcnet("resume", str(paths[1]), "--headless", "--no-mdns"),
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert refused.returncode == 1 and "no seat keys" in refused.stderr


def test_join_without_mdns_or_address_says_what_to_do(tmp_path: Path) -> None:
    done = subprocess.run(_carcnet("bot", "--join", "--no-mdns", "--wait", "0.2", "--data-dir", str(tmp_path)),
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "HOST:PORT --game ID" in done.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["bot", "--join", "127.0.0.1:9", "--game", "nothex"], "--game must be a game id"),
        (["bot", "--join", "127.0.0.1:9", "--game", "0" * 32, "--name", "x" * 40], "--name must be 1 to 32"),
        (["host", "--headless", "--seats", "greedy,open", "--game-name", "y" * 40], "--game-name must be 1 to 32"),
        (["host", "--headless", "--seats", "me,open"], "nobody at the keyboard"),
    ],
)
def test_bad_arguments_are_refused_with_what_is_wrong(args: list[str], words: str) -> None:
    done = subprocess.run(_carcnet(*args, "--no-mdns"), capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr


@pytest.mark.asyncio
async def test_a_bot_refused_by_the_peer_it_reached_says_so_and_exits(tmp_path: Path) -> None:
    common = ["--no-mdns", "--timeout", str(SECONDS)]
    host = await _spawn("host", "--headless", "--seats", "random,open", "--listen", "127.0.0.1",
                        "--data-dir", str(tmp_path / "a"), *common)
    try:
        async with asyncio.timeout(SECONDS):
            seen: list[str] = []
            game = (await _read_until(host, "game id ", seen)).removeprefix("game id ")
            port = (await _read_until(host, "listening on port ", seen)).removeprefix("listening on port ")
            late = await _spawn("bot", "--join", f"127.0.0.1:{port}", "--game", "f" * 32,
                                "--data-dir", str(tmp_path / "b"), *common)
            _out, err = await late.communicate()
            assert late.returncode == 1 and "the laptop reached plays another game" in err.decode(), err.decode()[-500:]
            assert game != "f" * 32
    finally:
        if host.returncode is None:
            host.kill()
            await host.wait()


@pytest.mark.asyncio
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
async def test_a_headless_peer_quits_cleanly_on_sigterm_and_sighup(tmp_path: Path, signum: int) -> None:
    """issue 12 item 6: the signal is a clean quit: the others see ``bye`` ``quit`` (not a dropped
    link), the save is whole, one line on stderr and the exit status 128 + the signal."""
    from carcnet.table import NetTable

    from .loopback import FAST

    host = await _spawn("host", "--headless", "--seats", "random,open", "--name", "Host", "--listen", "127.0.0.1",
                        "--data-dir", str(tmp_path / "a"), "--no-mdns", "--timeout", str(SECONDS))
    try:
        async with asyncio.timeout(SECONDS):
            seen: list[str] = []
            game = (await _read_until(host, "game id ", seen)).removeprefix("game id ")
            port = int((await _read_until(host, "listening on port ", seen)).removeprefix("listening on port "))
            bob = NetTable.join(game, name="Bob", directory=tmp_path / "b", listen=("127.0.0.1", 0),
                                dial=[("127.0.0.1", port)], discovery=False, timing=FAST)  # a person who never moves
            async with bob:
                await bob.wait_until(lambda: bob.to_play == 1, SECONDS)  # the host's bot has moved
                host.send_signal(signum)
                try:
                    await bob.wait_until(lambda: any(n.startswith("Host left the game and gave up the seat") for n in bob.notes),
                                         SECONDS / 3)
                finally:
                    out, err = await host.communicate()
                    print("--- Bob's notes:", *bob.notes[-12:], "--- the host's stderr:", err.decode()[-3000:],
                          "--- Bob's connection log:", *map(str, list(bob.session.connections.events)[-15:]), sep="\n")
    finally:
        if host.returncode is None:
            host.kill()
            await host.wait()
    text = err.decode()
    assert host.returncode == 128 + signum, text[-2000:]
    assert f"stopped by {signal.Signals(signum).name}: left the game, saved to " in text and "Traceback" not in text
    path = Path(text.split("saved to ", 1)[1].strip())
    saved = load(path)
    assert saved.damage is None and [e.move for e in saved.entries] == [s.entry.move for s in bob.session.entries]


#: Runs the command with every UDP send refused as a firewall that blocks multicast refuses it
#: (EPERM): nothing leaves this machine.
_REFUSING = """
import errno, socket, sys
def refused(self, *args, **kwargs):
    raise PermissionError(errno.EPERM, "Operation not permitted")
socket.socket.sendto = refused
from carcnet.cli import main
raise SystemExit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize(("command", "status"), [(["bot", "--join"], 2), (["lan"], 1)])
def test_multicast_refused_is_one_sentence_with_the_fallback(tmp_path: Path, command: list[str], status: int) -> None:
    """issue 12 item 7: no traceback and no library warning on stderr; one line saying multicast is
    refused here and how to join by address."""
    done = subprocess.run([sys.executable, "-c", _REFUSING, *command, "--wait", "1.5"],
                          capture_output=True, text=True, timeout=60, check=False,
                          env={"HOME": str(tmp_path), "CARCNET_DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert done.returncode == status, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "WARNING" not in done.stderr, done.stderr[-2000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "multicast is refused here" in lines[0] and "HOST:PORT --game ID" in lines[0], lines


@pytest.mark.asyncio
async def test_two_resume_processes_on_one_save_the_second_is_refused(tmp_path: Path) -> None:
    """issue 13 item 7: a second ``carcnet resume`` of a save another one is writing exits at once with
    the reason; the first goes on, and the save loads whole."""
    from carcnet.engine import Rules
    from carcnet.table import NetTable, plan_from_text

    from .loopback import FAST

    host = NetTable.host(name="Ann", game_name="Twice", rules=Rules(), plan=plan_from_text("greedy,open", me="Ann"),
                         directory=tmp_path / "a", listen=("127.0.0.1", 0), discovery=False, timing=FAST)
    async with host:
        bob = NetTable.join(host.game_id, name="Bob", directory=tmp_path / "b", listen=("127.0.0.1", 0),
                            dial=[("127.0.0.1", host.peer.port)], discovery=False, timing=FAST)  # never moves
        async with bob:
            await host.wait_until(lambda: host.to_play == 1, SECONDS)
    save = str(host.path)
    first = await _spawn("resume", save, "--headless", "--no-mdns", "--listen", "127.0.0.1", "--timeout", str(SECONDS))
    try:
        async with asyncio.timeout(SECONDS):
            await _read_until(first, "game id ", [])
            second = await _spawn("resume", save, "--headless", "--no-mdns", "--listen", "127.0.0.1")
            _out, err = await second.communicate()
            text = err.decode()
            assert second.returncode == 1, text[-2000:]
            assert "is being written by another carcnet (process " in text and "Traceback" not in text
            assert first.returncode is None  # the first goes on
            first.send_signal(signal.SIGTERM)
            await first.communicate()
    finally:
        if first.returncode is None:
            first.kill()
            await first.wait()
    assert first.returncode == 128 + signal.SIGTERM
    assert load(Path(save)).damage is None


@pytest.mark.asyncio
async def test_a_tampered_keys_file_is_refused_with_the_reason(tmp_path: Path) -> None:
    """issue 13 item 8: a ``.keys`` file is input like any other: a seat the game does not have, seats
    as a list, a key that is not the header's, or no JSON at all: ``resume`` says so, no traceback."""
    import json

    from carcnet.engine import Rules
    from carcnet.table import NetTable, plan_from_text
    from carcnet.table.lan import keys_path

    from .loopback import FAST

    host = NetTable.host(name="Ann", game_name="Keys", rules=Rules(), plan=plan_from_text("greedy,open", me="Ann"),
                         directory=tmp_path / "a", listen=("127.0.0.1", 0), discovery=False, timing=FAST)
    async with host:
        bob = NetTable.join(host.game_id, name="Bob", directory=tmp_path / "b", listen=("127.0.0.1", 0),
                            dial=[("127.0.0.1", host.peer.port)], discovery=False, timing=FAST)
        async with bob:
            await host.wait_until(lambda: host.to_play == 1, SECONDS)
    keys = keys_path(host.path)
    good = json.loads(keys.read_text())
    (seat, key), = good["seats"].items()
    tampered = {
        "seat 99": {**good, "seats": {"99": key}},
        "seats as a list": {**good, "seats": [key]},
        "another key": {**good, "seats": {seat: "ab" * 32}},
        "not json": None,
    }
    for what, data in tampered.items():
        keys.write_text("{not json" if data is None else json.dumps(data))
        done = await asyncio.to_thread(
            subprocess.run, _carcnet("resume", str(host.path), "--headless", "--no-mdns"),
            capture_output=True, text=True, timeout=60, check=False,
        )
        assert done.returncode == 1 and "is damaged" in done.stderr, (what, done.stderr[-1500:])
        assert "Traceback" not in done.stderr, (what, done.stderr[-1500:])
