"""Who gets into an event (protocol/tournament.md §6.1): enrolments under the one name rule of
carcnet.log.values, counted only once their laptop answers, bounded per laptop and per address;
a laptop left out of an event (full, started, its names taken) is told so in one line and never
crashes, even where every laptop of a table is gone.

Nothing here sleeps to synchronise: the runners' loops run, bounded by ``asyncio.wait_for``; the
clock of the unit tests is a number the test moves."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path
from typing import Any

import pytest

from carcnet.club.event import Charter, Entrant, EventError, host_order, laptops, table_game_id
from carcnet.club.runner import MAX_PLAYERS, EventRunner, _Laptop
from carcnet.club.service import Asker, ServiceError, Status, ask, enrol_bytes
from carcnet.engine import RULES_VERSION, Rules
from carcnet.net.signing import SeatKey

from ..net.loopback import FAST

LOOP = {"listen": ("127.0.0.1", 0), "table_host": "127.0.0.1", "timing": FAST, "poll": 0.2, "gone": 3.0,
        "linger": 4.0}
#: The longest one of these events may take.
LIMIT = 120.0


def enrol_at(runner: EventRunner, request: dict, address: str) -> dict:
    """*runner*'s reply to *request* from a connection at *address* that proved the key it enrols."""
    key = request.get("key")
    return runner._answer(request, Asker(address, key if isinstance(key, bytes) else b"", False))


def key(name: str) -> SeatKey:
    return SeatKey.from_seed(hashlib.sha256(f"carcnet enrolment test {name}".encode()).digest())


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def enrolment(event: str, who: SeatKey, name: str, bot: str | None = "greedy", port: int = 9) -> dict[str, Any]:
    return {"type": "enrol", "event": event, "name": name, "key": who.public, "bot": bot, "port": port,
            "sig": who.sign(enrol_bytes(event, name, bot))}


def opener(tmp: Path, clock: Clock | None = None, **options: Any) -> EventRunner:
    return EventRunner.open(key("Ann"), event_name="Enrolment night", data_dir=tmp, name="Ann",
                            players=options.pop("players", [("Ann greedy", "greedy")]),
                            clock=clock or Clock(), **{**LOOP, **options})


@pytest.mark.parametrize("name", ["\u3164", "\u2800\u2800", "Ann\u202e", "a\u200bb", " ", "x" * 33])
def test_an_enrolment_is_under_the_name_rule_of_the_log(tmp_path: Path, name: str) -> None:
    ann = opener(tmp_path)
    assert ann._event_id is not None
    reply = enrol_at(ann, enrolment(ann._event_id, key("Mallory"), name), "10.0.0.9")
    assert reply["type"] == "error" and "characters" in reply["text"], reply
    assert [p.name for p in ann.roster] == ["Ann greedy"]


@pytest.mark.parametrize("name", ["\u3164", "\u2800\u2800", "Ann\u202e"])
def test_a_charter_with_a_name_the_log_refuses_is_refused(name: str) -> None:
    me = key("Ann")
    players = (Entrant("Ann greedy", me.public, "greedy"), Entrant(name, key("Mallory").public, "greedy"))
    unsigned = Charter(event="ab" * 16, name="Night", format="swiss", rounds=1, size=2, minimum=2, options=Rules(),
                       rules=RULES_VERSION, created=1, players=players, opener=me.public)
    with pytest.raises(EventError, match="name"):
        unsigned.signed(me)


def heard(runner: EventRunner, who: SeatKey, address: str, clock: Clock) -> None:
    """*who*'s laptop signed a status for *runner* from *address* just now (as ``_ask_status`` records)."""
    laptop = runner._laptops.setdefault(who.public, _Laptop())
    laptop.heard = clock.now
    laptop.addresses.insert(0, (address, 9))


def test_only_laptops_that_answered_enter_players_and_the_charter(tmp_path: Path) -> None:
    clock = Clock()
    ann = opener(tmp_path, clock)
    event = ann._event_id
    assert event is not None
    for i in range(2):  # junk: self-signed keys that never answer a status
        reply = enrol_at(ann, enrolment(event, key(f"junk {i}"), f"Junk {i}"), "10.0.0.66")
        assert reply["type"] == "wait", reply
    reply = enrol_at(ann, enrolment(event, key("Bob"), "Bob greedy", port=4000), "10.0.0.2")
    assert reply["type"] == "wait" and ann._hints["10.0.0.2"] == ("10.0.0.2", 4000)  # asked at the next poll
    assert ann._poll_now.is_set()
    assert [p.name for p in ann.roster] == ["Ann greedy"]
    heard(ann, key("Bob"), "10.0.0.2", clock)
    assert enrol_at(ann, enrolment(event, key("Bob"), "Bob greedy"), "10.0.0.2")["type"] == "enrolled"
    assert ann.entered() == 2
    charter = ann.start()
    assert [p.name for p in charter.players] == ["Ann greedy", "Bob greedy"]
    assert laptops(charter) == [key("Ann").public, key("Bob").public]


def test_an_asker_hints_one_port_an_address_a_poll_asks_each_hint_once_and_no_more_than_its_bound(
        tmp_path: Path) -> None:
    """Where enrolling laptops say they answer (hints, §6.2): one port an address (the newest),
    at most MAX_HINTS addresses between two polls, and a hint asked and not answered is not taken
    again for UNREACHABLE seconds: a flood of enrolments naming dead ports costs one dial each."""
    from carcnet.club.runner import MAX_HINTS, UNREACHABLE

    clock = Clock()
    ann = opener(tmp_path, clock)
    event = ann._event_id
    assert event is not None
    for port in (4000, 4001):
        assert enrol_at(ann, enrolment(event, key("Bob"), "Bob", port=port), "10.0.0.2")["type"] == "wait"
    assert ann._hints == {"10.0.0.2": ("10.0.0.2", 4001)}
    for i in range(2 * MAX_HINTS):
        enrol_at(ann, enrolment(event, key(f"junk {i}"), f"J {i}", port=9), f"10.0.5.{i}")
    assert len(ann._hints) == MAX_HINTS
    asked: list[tuple[str, int]] = []

    async def unanswered(_expected: bytes | None, address: tuple[str, int]) -> None:
        asked.append(address)  # as a dial refused: the hint stays tried

    ann._ask_status = unanswered  # type: ignore[method-assign]
    asyncio.run(ann._poll_once())
    assert len(asked) == MAX_HINTS and ann._hints == {}
    for i in range(2 * MAX_HINTS):  # the same junk again: the ones asked are not taken again
        enrol_at(ann, enrolment(event, key(f"junk {i}"), f"J {i}", port=9), f"10.0.5.{i}")
    again = set(ann._hints.values())
    assert again and not again & set(asked)
    asyncio.run(ann._poll_once())  # the others asked in turn
    clock.now += UNREACHABLE + 1  # their time is over: asked again once
    enrol_at(ann, enrolment(event, key("junk 0"), "J 0", port=9), "10.0.5.0")
    assert ann._hints.get("10.0.5.0") == ("10.0.5.0", 9)


@pytest.mark.asyncio
async def test_a_laptop_the_opener_never_hears_is_told_in_one_line(tmp_path: Path) -> None:
    ann = opener(tmp_path / "Ann", players=[("Ann greedy", "greedy"), ("Ann random", "random")], clock=None)

    async def deaf(_expected: bytes | None, _address: tuple[str, int]) -> None:
        return None  # as if a firewall dropped every status request the opener makes

    ann._ask_status = deaf  # type: ignore[method-assign]
    task = asyncio.create_task(ann.run(start_when=100))
    try:
        await asyncio.wait_for(_until(lambda: ann.port is not None), 30.0)
        lines: list[str] = []
        bob = EventRunner(key("Bob"), name="Bob", folder=tmp_path / "Bob", by_event=True,
                          players=[("Bob greedy", "greedy")], dial=[("127.0.0.1", ann.port)], note=lines.append,
                          **{**LOOP, "gone": 1.0})
        text = await _refused(bob)
        assert "never heard this laptop" in text and str(bob.port) in text, text
        assert "Waiting for the event's opener to hear this laptop" in lines
        assert [p.name for p in ann.roster] == ["Ann greedy", "Ann random"]
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


def test_a_full_event_is_full_of_laptops_that_answer_and_one_laptop_or_address_cannot_fill_it(tmp_path: Path) -> None:
    clock = Clock()
    ann = opener(tmp_path, clock)
    event = ann._event_id
    assert event is not None
    # one key enters at most its share, whatever address it comes from
    heard(ann, key("Mallory"), "10.0.1.0", clock)
    replies = [enrol_at(ann, enrolment(event, key("Mallory"), f"M {i}"), f"10.0.1.{i}") for i in range(20)]
    refused = [r for r in replies if r["type"] == "error"]
    assert refused and all("at most" in r["text"] for r in refused), refused
    # one address enters at most its share, whatever keys it signs with
    for i in range(40):
        heard(ann, key(f"sybil {i}"), "10.0.0.66", clock)
    replies = [enrol_at(ann, enrolment(event, key(f"sybil {i}"), f"S {i}"), "10.0.0.66") for i in range(40)]
    assert any(r["type"] == "error" and "at most" in r["text"] for r in replies)
    # fill the rest from many addresses and keys that answer: the event is full, and says so
    n = 0
    while len(ann.roster) < 64:
        heard(ann, key(f"fill {n}"), f"10.0.2.{n}", clock)
        assert enrol_at(ann, enrolment(event, key(f"fill {n}"), f"F {n}"), f"10.0.2.{n}")["type"] == "enrolled"
        n += 1
    heard(ann, key("Bob"), "10.0.0.2", clock)
    full = enrol_at(ann, enrolment(event, key("Bob"), "Bob greedy"), "10.0.0.2")
    assert full["type"] == "error" and "full" in full["text"]
    # the fillers stop answering: once they have been silent for the time a laptop is gone, Bob,
    # who still answers, takes a place
    clock.now += ann.gone + 1
    heard(ann, key("Bob"), "10.0.0.2", clock)
    assert enrol_at(ann, enrolment(event, key("Bob"), "Bob greedy"), "10.0.0.2")["type"] == "enrolled"
    assert "Bob greedy" in [p.name for p in ann.roster]


def test_a_laptop_outside_the_charter_whose_table_has_nobody_left_does_not_crash(tmp_path: Path) -> None:
    """The laptops of a table's host order all gone (junk keys that never answer), and this laptop
    not in the charter at all: it opens nothing, and says nothing wrong."""
    me, junk = key("Observer"), [key(f"junk {i}") for i in range(2)]
    opener_key = key("Ann")
    players = (Entrant("Junk 0", junk[0].public, "greedy"), Entrant("Junk 1", junk[1].public, "greedy"))
    charter = Charter(event="cd" * 16, name="Night", format="swiss", rounds=1, size=2, minimum=2, options=Rules(),
                      rules=RULES_VERSION, created=1, players=players, opener=opener_key.public).signed(opener_key)
    clock = Clock()
    runner = EventRunner(me, name="Observer", folder=tmp_path, charter=charter, clock=clock, **LOOP)
    clock.now += 10 * runner.gone  # nobody was ever heard: every laptop of the table is gone
    asyncio.run(runner._open_if_mine(1, 0, ("0", "1")))
    assert runner._tables == {}


def _night(*names: str) -> Charter:
    """A signed charter of one round at tables of two: a greedy bot of each named laptop."""
    players = tuple(Entrant(f"{n} greedy", key(n).public, "greedy") for n in names)
    return Charter(event="ab" * 16, name="Night", format="swiss", rounds=1, size=2, minimum=2, options=Rules(),
                   rules=RULES_VERSION, created=1, players=players, opener=key(names[0]).public).signed(key(names[0]))


def test_a_laptop_started_again_at_a_new_port_is_asked_there_as_itself(tmp_path: Path) -> None:
    """Laptops behind one address (one machine, or loopback): a laptop that proved an event
    laptop's key on a status request is asked at the port it named as that laptop at the next poll,
    however many others name ports from that address between two polls (one hint an address would
    keep only the newest, and a laptop started again at a new port was never heard again)."""
    charter = _night("Ann", "Bob", "Cleo")
    ann = EventRunner(key("Ann"), name="Ann", folder=tmp_path, charter=charter, clock=Clock(), **LOOP)
    ann._laptops[key("Bob").public] = _Laptop(addresses=[("127.0.0.1", 4000)])  # where Bob answered before
    for who, port in (("Bob", 5001), ("Cleo", 5002), ("Cleo", 5002)):
        reply = ann._answer({"type": "status?", "nonce": bytes(16), "port": port},
                            Asker("127.0.0.1", key(who).public, True))
        assert reply is not None and reply["type"] == "status"
    asked: list[tuple[bytes | None, tuple[str, int]]] = []

    async def record(expected: bytes | None, address: tuple[str, int]) -> None:
        asked.append((expected, address))

    ann._ask_status = record  # type: ignore[method-assign]
    asyncio.run(ann._poll_once())
    assert (key("Bob").public, ("127.0.0.1", 5001)) in asked
    assert (key("Cleo").public, ("127.0.0.1", 5002)) in asked
    assert (key("Bob").public, ("127.0.0.1", 4000)) in asked  # the old one too, until the new one answers
    asked.clear()
    asyncio.run(ann._poll_once())  # asked once a claim: the next poll asks what answered
    assert [a for _k, a in asked if a[1] in (5001, 5002)] == []


def test_a_laptop_first_in_the_order_leaves_a_table_to_the_later_laptop_that_plays_it(tmp_path: Path) -> None:
    """The laptop first in a table's host order finds (started again, or slow to say it runs the
    table) that a laptop later in the order passed it over and plays the table: it opens no second
    game of it, whose count could differ from the room's (§6.3); once that laptop is gone, it does."""
    charter = _night("Ann", "Bob")
    seats = ("0", "1")
    first, later = host_order(charter, seats)
    names = {key(n).public: n for n in ("Ann", "Bob")}
    me, other = key(names[first]), key(names[later])
    assert (me.public, other.public) == (first, later)
    clock = Clock()
    runner = EventRunner(me, name="First", folder=tmp_path, charter=charter, clock=clock, **LOOP)
    runner._polled = True
    game = table_game_id(charter.event, 1, 0, seats, other.public)
    runner._laptops[other.public] = _Laptop(
        addresses=[("127.0.0.1", 9)], heard=clock.now, asked=clock.now,
        status=Status(charter.event, other.public, 1, ((1, 0, game, 9),), (), ()))
    opened: list[Any] = []

    class NoTable:
        @staticmethod
        def host(**_options: Any) -> Any:
            opened.append(_options)
            raise EventError("opened")  # as far as this test goes

    import carcnet.club.runner as runner_module
    real = runner_module.NetTable
    runner_module.NetTable = NoTable  # type: ignore[assignment,misc]
    try:
        asyncio.run(runner._open_if_mine(1, 0, seats))
        assert opened == []  # the later laptop's game counts
        clock.now += runner.gone + 1  # that laptop is gone: the table is this laptop's to open
        with pytest.raises(EventError, match="opened"):
            asyncio.run(runner._open_if_mine(1, 0, seats))
        assert len(opened) == 1
    finally:
        runner_module.NetTable = real  # type: ignore[misc]


# ---------------------------------------------------------------------- told in one line


async def _refused(runner: EventRunner) -> str:
    with pytest.raises(EventError) as caught:
        await asyncio.wait_for(runner.run(), 30.0)
    text = str(caught.value)
    assert "\n" not in text
    return text


@pytest.mark.asyncio
async def test_a_laptop_joining_a_started_event_is_told(tmp_path: Path) -> None:
    ann = opener(tmp_path / "Ann", players=[("Ann greedy", "greedy"), ("Ann random", "random")], clock=None)
    task = asyncio.create_task(ann.run(start_when=2))
    try:
        await asyncio.wait_for(_until(lambda: ann.charter is not None and ann.port is not None), 30.0)
        bob = EventRunner(key("Bob"), name="Bob", folder=tmp_path / "Bob", by_event=True,
                          players=[("Bob greedy", "greedy")], dial=[("127.0.0.1", ann.port)], **LOOP)
        text = await _refused(bob)
        assert "started" in text and "Enrolment night" in text, text
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


@pytest.mark.asyncio
@pytest.mark.parametrize("case", ["full", "taken"])
async def test_a_laptop_refused_by_the_opener_is_told_why(tmp_path: Path, case: str) -> None:
    own = [(f"Ann bot {i}", "random") for i in range(64)] if case == "full" else [("Greedy 1 (bob)", "greedy")]
    ann = opener(tmp_path / "Ann", players=own, clock=None)
    task = asyncio.create_task(ann.run(start_when=100))
    try:
        await asyncio.wait_for(_until(lambda: ann.port is not None), 30.0)
        bob = EventRunner(key("Bob"), name="bob", folder=tmp_path / "Bob", by_event=True,
                          players=[("Greedy 1 (bob)", "greedy")], dial=[("127.0.0.1", ann.port)], **LOOP)
        text = await _refused(bob)
        assert ("full" if case == "full" else "taken") in text, text
        assert "Greedy 1 (bob)" in text
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def _until(predicate: Any) -> None:
    while not predicate():
        await asyncio.sleep(0.01)  # polling a flag another task sets; the bound is the caller's wait_for


@pytest.mark.asyncio
async def test_junk_enrolments_neither_start_an_event_nor_hold_its_tables(tmp_path: Path) -> None:
    """Two self-signed enrolments whose keys never answer (one under a name of Hangul fillers,
    refused; one under a good name) before an honest laptop joins an event opened to start at four
    players: the event starts with the four players whose laptops answer, and both laptops finish
    it with the same standings."""
    lines: dict[str, list[str]] = {"Ann": [], "Bob": []}
    ann = EventRunner.open(key("Ann"), event_name="Junk night", rounds=1, size=2, data_dir=tmp_path / "Ann",
                           name="Ann", players=[("Ann greedy", "greedy"), ("Ann random", "random")],
                           note=lines["Ann"].append, **LOOP)
    event = ann._event_id
    assert event is not None
    tasks = {"Ann": asyncio.create_task(ann.run(start_when=4))}
    try:
        await asyncio.wait_for(_until(lambda: ann.port is not None), 30.0)
        address = ("127.0.0.1", ann.port)
        with pytest.raises(ServiceError, match="characters"):
            await ask(address, enrolment(event, key("junk 0"), "\u3164", port=1), identity=key("junk 0"))
        assert (await ask(address, enrolment(event, key("junk 1"), "Junk", port=1), identity=key("junk 1"))
                )["type"] == "wait"
        assert ann.charter is None
        bob = EventRunner(key("Bob"), name="Bob", folder=tmp_path / "Bob", by_event=True,
                          players=[("Bob greedy", "greedy"), ("Bob random", "random")], dial=[address],
                          note=lines["Bob"].append, **LOOP)
        tasks["Bob"] = asyncio.create_task(bob.run())
        done, pending = await asyncio.wait(tasks.values(), timeout=LIMIT)
        assert not pending, lines
        final = {n: [(s.player, s.wins, s.difference) for s in t.result()] for n, t in tasks.items()}
    finally:
        for task in tasks.values():
            task.cancel()
        await asyncio.gather(*tasks.values(), return_exceptions=True)
    charter = ann.charter
    assert charter is not None
    assert [p.name for p in charter.players] == ["Ann greedy", "Ann random", "Bob greedy", "Bob random"]
    assert final["Ann"] == final["Bob"]
    assert sorted(ann.results) == sorted(bob.results) == [(1, 0), (1, 1)]


@pytest.mark.asyncio
@pytest.mark.parametrize("reply", [
    {"type": "charter", "charter": [300, 1]},
    {"type": "charter"},
    {"type": "roster", "event": ["x"], "name": "x", "players": []},
    {"type": "roster"},
])
async def test_a_malformed_reply_to_a_joining_laptop_raises_nothing(tmp_path: Path, reply: dict[str, Any]) -> None:
    """An 'opener' that answers the charter request with a reply out of shape: the joining laptop
    keeps asking (its lines say nothing of it), and stops cleanly when cancelled."""
    from carcnet.club.service import EventService

    asked: list[str] = []
    again = asyncio.Event()

    def answer(request: dict[str, Any], _asker: Any) -> dict[str, Any]:
        asked.append(request["type"])
        if asked.count("charter?") >= 2:
            again.set()  # the first reply was taken, and the laptop asks on
        return reply

    async with EventService(answer, identity=key("fake"), host="127.0.0.1") as fake:
        bob = EventRunner(key("Bob"), name="Bob", folder=tmp_path, by_event=True, players=[("Bob greedy", "greedy")],
                          dial=[("127.0.0.1", fake.port)], **LOOP)
        task = asyncio.create_task(bob.run())
        waiting = asyncio.create_task(again.wait())
        done, _pending = await asyncio.wait({task, waiting}, timeout=30.0, return_when=asyncio.FIRST_COMPLETED)
        assert waiting in done and task not in done, task.exception() if task.done() else "never asked again"
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


@pytest.mark.parametrize(("opener", "joiner", "said"), [
    (["--bots", "greedy,random", "--start-when", "2", "--rounds", "3", "--bot-delay", "0.5"], ["--bots", "greedy"],
     "has started without this laptop's players"),
    (["--bots", "greedy", "--start-when", "5"], ["--bots", "greedy"], "is taken by another player"),
])
def test_carcnet_tournament_join_says_why_in_one_line(tmp_path: Path, capsys, opener: list[str], joiner: list[str],
                                                       said: str) -> None:
    """The command line: ``carcnet tournament join`` to an event that started, or where its bots'
    names are taken (both laptops named bob), ends with one line saying so, exit status 1."""
    import subprocess
    import sys

    from carcnet.cli import main

    process = subprocess.Popen(
        [sys.executable, "-m", "carcnet", "tournament", "open", "Started night", "--listen", "127.0.0.1", "--no-mdns",
         "--name", "bob", "--data-dir", str(tmp_path / "opener"), *opener],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert process.stdout is not None
        port = None
        for _ in range(50):  # its first lines: the event open on its port
            line = process.stdout.readline()
            if " open on port " in line:
                port = int(line.split(" open on port ")[1].split(":")[0])
                break
        assert port is not None, "the opener said where it listens"
        capsys.readouterr()
        status = main(["tournament", "join", f"127.0.0.1:{port}", "--listen", "127.0.0.1", "--no-mdns", "--name", "bob",
                       "--data-dir", str(tmp_path / "joiner"), *joiner])
        err = capsys.readouterr().err
    finally:
        process.kill()
        process.wait(30)
    assert status == 1
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and said in lines[0] and "Traceback" not in err, err


def test_enrolments_past_the_bounds_cost_no_signature_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once the event is full, a flood of well-signed enrolments from many addresses is refused
    before any signature is checked (each check costs about 0.2 ms: 6,000 of them a game's worth of
    CPU, bench_attack.py event-enrol)."""
    import carcnet.club.runner as runner_module

    ann = opener(tmp_path)
    event = ann._event_id
    assert event is not None
    clock = ann.clock
    assert isinstance(clock, Clock)
    for n in range(MAX_PLAYERS - 1):
        heard(ann, key(f"fill {n}"), f"10.0.3.{n}", clock)
        assert enrol_at(ann, enrolment(event, key(f"fill {n}"), f"F {n}"), f"10.0.3.{n}")["type"] == "enrolled"
    for n in range(50):
        heard(ann, key(f"late {n}"), f"10.0.4.{n}", clock)
    checks: list[bytes] = []
    real = runner_module.verify

    def counting(public: bytes, data: bytes, sig: bytes) -> bool:
        checks.append(public)
        return real(public, data, sig)

    monkeypatch.setattr(runner_module, "verify", counting)
    replies = [enrol_at(ann, enrolment(event, key(f"late {n}"), f"L {n}"), f"10.0.4.{n}") for n in range(50)]
    assert {r["text"] for r in replies} == {f"the event is full ({MAX_PLAYERS} players)"}
    assert checks == []
