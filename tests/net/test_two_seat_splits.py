"""A table split in halves, on separate network hosts (:mod:`tests.net.twoseats`, headless laptops with
the nemesis's short clocks): two laptops split 1 | 1, each way round (the seat keys fixed so that either
laptop holds the lower key), and four split 2 | 2. What each laptop says during the split matches what
it then does: a laptop that says it waits for the links to come back (it is cut off, or it will not take
a seat over) takes no seat over while apart, and a laptop that neither takes the other half's seats over
nor says why is stuck. After the heal the game goes on to its end with one log at every laptop, and a
move of a laptop's own that the table set aside is named to it (``Set aside:``).
Needs root; skipped elsewhere with the reason."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from carcnet.engine import HandOver

from . import netns
from .twoseats import PORT, Headless, Laptops, key_of, label_beside, wait

pytestmark = pytest.mark.slow

#: The clocks of every laptop (``CARCNET_TEST_CLOCKS``): the nemesis's short ones, so that a silent
#: connection is dead in 2.5 s rather than 20.
CLOCKS = "0.5,2.5,2.0,0.25/0.5/1.0/2.0"
#: Entries played before the split.
BEFORE = 10
#: Seconds a half may take to take the other half's seats over or say it waits (the silence rule, the
#: away rule, a draw value's wait and a few turns); and the whole game.
SPLIT, GAME = 60.0, 240.0

#: Notes that say a laptop waits for the links to come back (it takes nothing over meanwhile).
WAITS = ("You are cut off", "Not taking ", "the game goes on when the links come back")
#: The note of a handover this laptop made.
TOOK = re.compile(r"^(.+)'s seat is played by a \w+ bot from this (?:peer|laptop) now$")


@pytest.fixture
def lan2():
    yield from netns.lan_for_test(2)


@pytest.fixture
def lan4():
    yield from netns.lan_for_test(4)


def _table(laptops: Laptops, lan: netns.Lan, labels: list[str]) -> list[Headless]:
    """Ann opens a table on host 1 (her greedy bot's seat, the others open); Bob, Cleo and Dan sit
    down with greedy bots on the next hosts; every laptop's keys come from its label."""
    names = ["Ann", "Bob", "Cleo", "Dan"][: len(labels)]
    table = [laptops.headless(name, host, label) for name, host, label in zip(names, lan.hosts, labels, strict=False)]
    ann = table[0]
    common = ("--bot-delay", "0.3", "--moves", "--linger", "5", "--timeout", str(GAME))
    for laptop in table:
        laptop.clocks = CLOCKS
    ann.start("host", "--headless", "--seats", ",".join(["greedy"] + ["open"] * (len(table) - 1)), "--name", "Ann",
              *common, *ann.net())
    game = ann.printed("game id ").removeprefix("game id ")
    ann.printed("listening on port ")
    for laptop in table[1:]:
        laptop.start("bot", "--join", f"{lan.hosts[0].address}:{PORT}", "--game", game, "--name", laptop.name,
                     "--bot", "greedy", "--no-mdns", *common, *laptop.net())
    wait(lambda: all(laptop.entries() >= BEFORE for laptop in table), f"every save holds {BEFORE} entries",
         detail=laptops.describe)
    return table


def _said_and_did(laptop: Headless, since: int) -> list[tuple[str, str]]:
    """What *laptop* said since its note *since*: ``("waits", line)`` and ``("took", line)`` in order
    (``"back"`` when it said it is in touch again)."""
    out = []
    for line in laptop.notes()[since:]:
        if line.startswith(WAITS) or any(w in line for w in WAITS[2:]):
            out.append(("waits", line))
        elif TOOK.match(line):
            out.append(("took", line))
        elif line.startswith("Back in touch"):
            out.append(("back", line))
    return out


def _mismatch(laptop: Headless, since: int) -> str | None:
    """A handover *laptop* made after saying it waits (and before saying it is back), if any."""
    waiting = None
    for kind, line in _said_and_did(laptop, since):
        if kind == "waits":
            waiting = line
        elif kind == "back":
            waiting = None
        elif waiting is not None:
            return f"{laptop.name} said {waiting!r}, then {line!r}"
    return None


def _split_and_heal(lan: netns.Lan, laptops: Laptops, table: list[Headless], sides: list[list[int]]) -> None:
    """Splits the table into *sides* (indices into *table*) until each laptop took a seat of the other
    side over or said it waits; checks that what each said matches what it did; heals; waits for the
    end."""
    since = {laptop.name: len(laptop.notes()) for laptop in table}
    lan.split([[lan.hosts[i] for i in side] for side in sides])
    try:
        def decided(side: list[int]) -> bool:
            """A laptop of *side* took a seat of the other side over, or said it will not (at that
            seat's turn: being cut off alone is said before the away rule decides anything)."""
            said = [(kind, line) for i in side for kind, line in _said_and_did(table[i], since[table[i].name])]
            return any(kind == "took" or line.startswith("Not taking ") for kind, line in said)

        wait(lambda: all(decided(side) for side in sides),
             "each half takes the other half's seats over or says it will not", SPLIT, detail=laptops.describe)
        # what it said then holds while apart: a bounded look until each half has played on or the
        # seats it took were played (a handover's first moves) — the moves of its own log
        start = {laptop.name: laptop.entries() for laptop in table}
        wait(lambda: all(laptop.entries() > start[laptop.name] or not _took(laptop, since[laptop.name])
                         for laptop in table), "a half that took seats over plays them", SPLIT, detail=laptops.describe)
    finally:
        lan.unsplit()
    said = {laptop.name: _said_and_did(laptop, since[laptop.name]) for laptop in table}
    mismatches = [m for laptop in table if (m := _mismatch(laptop, since[laptop.name])) is not None]
    codes = {laptop.name: laptop.ended(GAME) for laptop in table}
    assert not mismatches, f"{mismatches}\n{said}\n{laptops.describe()}"
    assert codes == {laptop.name: 0 for laptop in table}, f"{codes}\n{laptops.describe()}"
    saves = {laptop.name: laptop.save().read_bytes() for laptop in table}  # type: ignore[union-attr]
    assert len(set(saves.values())) == 1, f"one log after the heal\n{laptops.describe()}"
    for laptop in table:
        if laptop.aside():
            assert laptop.said("Set aside:"), f"{laptop.name} kept moves aside without naming them"
    loaded = table[0].loaded()
    assert loaded is not None and loaded.game.tiles_left == 0
    for laptop in table:  # a half whose handovers the table kept says so by its moves in the log
        took = _took(laptop, since[laptop.name])
        if took and not laptop.aside():
            names = [s.name for s in loaded.header.seats]
            kept = {names[m.seat] for m in (e.move for e in loaded.entries) if isinstance(m, HandOver)}
            assert set(took) <= kept, (laptop.name, took, kept)


def _took(laptop: Headless, since: int) -> list[str]:
    """The names of the seats *laptop* took over since its note *since*."""
    return [m.group(1) for kind, line in _said_and_did(laptop, since) if kind == "took" and (m := TOOK.match(line))]


@pytest.mark.parametrize("ann_lower", [True, False], ids=["host-lower-key", "host-higher-key"])
def test_a_one_one_split_says_what_each_side_then_does_and_heals_into_one_log(lan2, tmp_path: Path,
                                                                              ann_lower: bool) -> None:
    """Ann and Bob split 1 | 1 for longer than the away rule, Ann's keys (her identity, her bot's seat)
    below Bob's or above it."""
    with Laptops(lan2, tmp_path) as laptops:
        bob = label_beside([key_of("Ann"), key_of("Ann", 2)], lower=not ann_lower)
        table = _table(laptops, lan2, ["Ann", bob])
        keys = table[0].loaded().header.keys  # type: ignore[union-attr]
        assert (keys[0] < keys[1]) == ann_lower == (key_of("Ann") < keys[1]), "the keys are fixed as the test meant"
        _split_and_heal(lan2, laptops, table, [[0], [1]])


def test_a_two_two_split_says_what_each_side_then_does_and_heals_into_one_log(lan4, tmp_path: Path) -> None:
    """Ann and Bob | Cleo and Dan, split for longer than the away rule: exactly half the seats on each
    side."""
    with Laptops(lan4, tmp_path) as laptops:
        table = _table(laptops, lan4, ["Ann", "Bob", "Cleo", "Dan"])
        _split_and_heal(lan4, laptops, table, [[0, 1], [2, 3]])
