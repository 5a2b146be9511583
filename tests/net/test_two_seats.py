"""Two laptops at a table, on separate network hosts, and one of them leaves: the one left finishes
the game. Ann opens a table of two seats and Bob sits down, each laptop in a network namespace of its
own (:mod:`tests.net.twoseats`); Bob's laptop runs the interface (in tmux) and leaves by its keys:
``q`` then ``l`` (leave and keep the seat), ``q`` then ``g`` (give the seat to a bot and leave),
``q`` ``q`` then ``q`` at the home screen (keep the seat, then quit the program), or is killed
(``kill -9``: no word at all). Ann is a person in the interface (she presses ``b`` when her screen
offers to let a bot play Bob's seat; a turn clock of one second plays her own turns, as it plays a
person's turn that runs out) or a headless laptop whose bot plays her seat (Bob then sits down with a
bot, which her table takes over by itself). In each case Ann's table goes on without Bob: his seat is
played by a bot and the game goes on; Bob then comes back (Resume in the menu, or ``carcnet resume``)
and both saves end the same, byte for byte (a move of Bob's that the table set aside is named to him).

Each case runs twice: the leaving laptop's seat key below Ann's, and above it (keys are fixed by
:mod:`tests.net.keyed_peer`). Needs root and tmux; skipped elsewhere with the reason.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from carcnet.engine import HandOver
from carcnet.log import load

from . import netns
from .twoseats import (
    PORT,
    Headless,
    Laptop,
    Laptops,
    Terminal,
    first_difference,
    handbacks,
    handovers,
    key_of,
    label_beside,
    wait,
)

pytestmark = [pytest.mark.slow, pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")]

#: How Bob leaves: ``q`` ``l``; ``q`` ``g``; ``q`` ``q`` ``q`` (the last at the home screen); kill -9.
LEAVES = ("l", "g", "home", "kill")
#: Entries played before Bob leaves (a few turns of each seat), and by the one left after his seat
#: went to a bot, before he comes back.
BEFORE, AFTER = 12, 8
#: Seconds the one left may take to give Bob's seat to a bot and play on (the away rule, the wait for a
#: draw value and a few turns), and to finish the game (a person's turns take a second each).
GO_ON, GAME = 60.0, 240.0


@pytest.fixture
def lan2():
    yield from netns.lan_for_test(2)


class Table:
    """Ann (seat 1, hosting) and Bob (seat 2) on the two hosts of *lan*; *left* says how Ann plays
    (``"interface"`` or ``"headless"``); Bob's seat key is below Ann's when *bob_lower*."""

    def __init__(self, laptops: Laptops, lan: netns.Lan, *, left: str, bob_lower: bool) -> None:
        ann_host, bob_host = lan.hosts
        self.left, self.bob_lower = left, bob_lower
        self.ann: Laptop
        if left == "interface":
            self.ann = laptops.terminal("Ann", ann_host, "Ann")
            ann_keys = [key_of("Ann")]  # her seat is her own: her identity key
        else:
            self.ann = laptops.headless("Ann", ann_host, "Ann")
            ann_keys = [key_of("Ann"), key_of("Ann", 2)]  # her identity, and her bot's seat key
        self.bob = laptops.terminal("Bob", bob_host, label_beside(ann_keys, lower=bob_lower))
        self.address = f"{ann_host.address}:{PORT}"

    def detail(self) -> str:
        return self.ann.describe() + "\n" + self.bob.describe()

    def open(self) -> None:
        """Ann opens the table; Bob sits down (a person, or a greedy bot when Ann is headless); the
        game starts."""
        ann, bob = self.ann, self.bob
        if isinstance(ann, Terminal):
            ann.start("host", "--seats", "me,open", "--clock", "1+0", "--name", "Ann", "--bot-delay", "0", *ann.net())
            line = next(line for line in ann.shows("carcnet join ").splitlines() if "carcnet join " in line)
            game = line.split("--game ")[1].split()[0]
            # by address, without mDNS: with both, the interface may open the table twice (the typed
            # address at once, and the game again when mDNS finds it)
            bob.start("join", self.address, "--game", game, "--name", "Bob", "--bot-delay", "0", "--no-mdns",
                      *bob.net())
            ann.shows("press s")
            ann.keys("s")
        else:
            assert isinstance(ann, Headless)
            # her bot paced so that Bob is back before the end, and a while after the end for him to get it
            ann.start("host", "--headless", "--seats", "greedy,open", "--name", "Ann", "--bot-delay", "0.5",
                      "--moves", "--linger", "60", "--timeout", str(GAME * 2), *ann.net())
            game = ann.printed("game id ").removeprefix("game id ")
            ann.printed("listening on port ")
            # Bob sits down with a bot from the menu: Join, the address, the form (Played by: Greedy bot)
            bob.start("play", "--data-dir", str(bob.folder), "--bot-delay", "0.25")
            bob.shows("Resume")
            bob.keys("j")
            bob.shows("type the address")
            bob.type(f"{self.address} --game {game}")
            bob.keys("Enter")
            bob.shows("Played by")
            _fill_join_form(bob, "Bob", "Greedy bot")
        wait(lambda: ann.entries() >= BEFORE and bob.entries() >= BEFORE, f"both saves hold {BEFORE} entries",
             detail=self.detail)
        loaded = ann.loaded()
        assert loaded is not None
        keys = loaded.header.keys
        assert keys is not None and loaded.header.seats[1].name == "Bob"
        assert (keys[1] < keys[0]) == self.bob_lower and (keys[1] < key_of("Ann")) == self.bob_lower, \
            "the keys are fixed as the test meant"

    def leave(self, how: str) -> None:
        """Bob leaves *how* (:data:`LEAVES`)."""
        bob = self.bob
        assert isinstance(bob, Terminal)
        if how == "kill":
            bob.kill()
            return
        bob.keys("q")
        bob.shows("Leave and keep the seat")
        if how == "home":
            bob.keys("q")  # a second q: leave and keep the seat
            bob.shows("Resume a saved game")
            bob.keys("q")  # the home screen's q: quit the program
            bob.ended()
            return
        bob.keys(how)
        bob.shows("Resume a saved game")

    def come_back(self, how: str) -> None:
        """Bob comes back: Resume in the menu of the program he left the game in, or ``carcnet resume``
        once that program ended."""
        bob = self.bob
        assert isinstance(bob, Terminal)
        if how in ("l", "g"):
            bob.keys("r")
            bob.shows(", LAN ")
            bob.keys("Enter")
            return
        save = bob.save()
        assert save is not None
        # found by mDNS, as a person's laptop finds the table again (the interface's resume dials no
        # address of the command line)
        bob.start("resume", str(save), "--bot-delay", "0", *bob.net())


def _field(screen: str, label: str) -> str:
    """What the form's field labelled *label* shows (its line's text after the label, frame cut)."""
    line = next((line for line in screen.splitlines() if f"{label}  " in line), "")
    return line.split(label, 1)[-1].replace("▊", " ").replace("▎", " ").replace("█", " ").replace("▼", " ").strip()


def _fill_join_form(bob: Terminal, name: str, player: str) -> None:
    """Fills the join form as a person does, looking at the screen after each step: types the name,
    clicks "Played by", clicks *player* in its list, then the Join button."""
    tried = [0.0]

    def again() -> bool:
        """Whether the last try had time to show (a key pressed again too soon may act twice)."""
        if time.monotonic() - tried[0] < 2.0:
            return False
        tried[0] = time.monotonic()
        return True

    def named() -> bool:
        if _field(bob.screen(), "Your name") == name:
            return True
        if again():
            bob.keys("End", "C-u")
            bob.type(name)
        return False

    wait(named, f"Bob's name in the join form is {name}", 20, detail=bob.screen)
    bob.click("Me, at this terminal", row=lambda line: "Played by" in line)
    bob.shows("Expert bot")  # the list is open
    bob.click(player, row=lambda line: "Played by" not in line)
    wait(lambda: _field(bob.screen(), "Played by") == player, f"Bob's form says Played by {player}", 20,
         detail=bob.screen)
    bob.click("Join", row=lambda line: line.replace("█", " ").strip(" ▊▎") == "Join")
    wait(lambda: "Played by" not in bob.screen(), "Bob joins", 20, detail=bob.screen)


def _hand_over_when_offered(ann: Laptop):
    """A person at Ann's screen: presses ``b`` whenever the game screen offers to let a bot play the
    seat to play (its footer shows ``b Seat to a bot``)."""

    def look() -> None:
        if isinstance(ann, Terminal) and "b Seat to a bot" in ann.screen():
            ann.keys("b")

    return look


@pytest.mark.parametrize("bob_lower", [True, False], ids=["leaver-lower-key", "leaver-higher-key"])
@pytest.mark.parametrize("left", ["interface", "headless"])
@pytest.mark.parametrize("how", LEAVES)
def test_the_one_left_at_a_table_of_two_finishes_the_game(lan2, tmp_path: Path, how: str, left: str,
                                                         bob_lower: bool) -> None:
    with Laptops(lan2, tmp_path) as laptops:
        table = Table(laptops, lan2, left=left, bob_lower=bob_lower)
        ann, bob = table.ann, table.bob
        try:
            table.open()
            table.leave(how)
            held = bob.records()
            left_at = ann.entries()
            # a person at Ann's screen lets a bot play a seat its player kept; a seat given up (g), or a
            # bot seat (Ann headless), her table gives to a bot by itself
            press = _hand_over_when_offered(ann) if left == "interface" and how != "g" else None

            def went_on() -> bool:
                loaded = ann.loaded()
                if loaded is None or not handovers(loaded):
                    return False
                at = next(i for i, e in enumerate(loaded.entries, 1) if isinstance(e.move, HandOver))
                return len(loaded.entries) >= at + AFTER or loaded.game.tiles_left == 0

            wait(went_on, "Ann's table gives Bob's seat to a bot and goes on", GO_ON, detail=table.detail,
                 every=press)
            assert ann.entries() > left_at
            before = ann.records()  # Ann's branch, before Bob is back
            table.come_back(how)
            same = lambda: ann.over() and bob.over() and ann.save().read_bytes() == bob.save().read_bytes()  # noqa: E731
            wait(same, "the game ends with one log at both laptops", GAME, detail=table.detail, every=press)
        finally:
            print(table.detail())
    loaded = load(ann.save())
    final = bob.records()
    assert held is not None and final is not None and before is not None
    set_aside = ann.said("Set aside:")
    if set_aside is not None:
        # Only a move of Bob's that the network never carried beats the handover of his seat: killed in
        # the instant after his laptop saved it, before it went out (or while it was in flight), it is
        # his own move at his turn, as after a split, and the heal keeps it (wire.md §5.9, "Two seats,
        # and leaving"); Ann's moves from there are set aside and named to her.
        assert how == "kill", f"the one left lost her moves: {set_aside}"
        unsent = [body for body in held.entries if body in final.entries and body not in before.entries]
        assert unsent, f"the one left lost her moves to no move of Bob's made before the kill: {set_aside}"
        assert "your moves" in set_aside, set_aside
    else:
        (handover,) = handovers(loaded)
        assert handover.seat == 1 and handover.by == 0, handover
        assert [h.seat for h in handbacks(loaded)] in ([1], []), "Bob's seat went back to him, or he came at the end"
    stuck = [line for line in ann.notes() if line.startswith(("Not taking ", "You are cut off"))]
    assert not stuck, stuck
    # every move Bob's save held when he left is in the log, or set aside and named to him
    final = bob.records()
    assert held is not None and final is not None
    lost = [body for body in held.entries if body not in final.entries]
    if lost:
        assert all(body in bob.aside() for body in lost), first_difference(held.entries, final.entries)
        assert bob.said("Set aside:"), bob.notes()[-10:]
