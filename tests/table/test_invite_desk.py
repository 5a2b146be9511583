"""The invite desk's keeper of a pairing (``carcnet.table.invites``), against pairings that stand
in for magic-wormhole's: a pairing whose laptop does not come back is given up, said once, and
nothing dials it again; one that breaks and is made anew is used again."""

from __future__ import annotations

import asyncio
import math
from typing import Any

import pytest

from carcnet.net.invite import About, InviteError, Servers
from carcnet.table import invites
from carcnet.table.invites import InviteDesk

pytestmark = pytest.mark.asyncio


class Pairing:
    """A pairing whose connection broke (stuck for ever) and whose remaking fails *failures* times,
    then waits for the other laptop (*comes_back*: it does, with a fresh pairing)."""

    def __init__(self, failures: int = 0, comes_back: bool = False) -> None:
        self.servers = Servers(remake=0.04)
        self.code = "7-test-pairing"
        self.initiator = True
        self.generation = 0
        self.path = "reconnecting"
        self.stuck_for = math.inf
        self.closed = False
        self.tries = 0
        self.failures = failures
        self.comes_back = comes_back

    async def remake(self) -> Any:
        self.tries += 1
        if self.tries <= self.failures:
            raise InviteError("unreachable", "the invite server cannot be reached")
        if not self.comes_back:
            await asyncio.Event().wait()  # the other laptop never claims the code
        fresh = Pairing()
        fresh.path, fresh.stuck_for = "relay", 0.0
        return fresh

    async def close(self) -> None:
        self.closed = True

    async def serve(self, *_args: Any) -> None:
        pass

    async def serve_intros(self, *_args: Any) -> None:
        pass


class Peer:
    async def take(self, *_streams: Any) -> None:
        pass


def _desk(pairing: Pairing, notes: list[str]) -> InviteDesk:
    desk = InviteDesk(None, About("ab" * 16, "Ann"), [pairing], note=notes.append, changed=lambda: None)  # type: ignore[list-item]
    desk._peer = Peer()  # type: ignore[assignment]
    return desk


async def test_a_pairing_whose_laptop_never_comes_back_is_given_up_once_and_not_dialled_again(monkeypatch) -> None:
    monkeypatch.setattr(invites, "GIVE_UP", 0.3)
    monkeypatch.setattr(invites, "REOPEN_GAP", 0.02)
    notes: list[str] = []
    pairing = Pairing(failures=3)
    desk = _desk(pairing, notes)
    await asyncio.wait_for(desk._keep(0), 10)  # returns: no keeping without end
    assert pairing.closed and pairing.tries == 4
    assert await desk._open(0) is None  # the laptop's dialling through it ends
    assert sum("broke" in n for n in notes) == 1
    assert sum("Cannot make the connection" in n for n in notes) == 1  # once a break, not once a try
    assert sum("no longer kept" in n for n in notes) == 1 and "sit down again" in notes[-1]


async def test_a_pairing_made_anew_takes_its_place_and_its_return_is_told(monkeypatch) -> None:
    monkeypatch.setattr(invites, "REOPEN_GAP", 0.02)
    notes: list[str] = []
    back = asyncio.Event()

    def note(line: str) -> None:
        notes.append(line)
        if "is back" in line:
            back.set()

    pairing = Pairing(failures=1, comes_back=True)
    desk = InviteDesk(None, About("ab" * 16, "Ann"), [pairing], note=note, changed=lambda: None)  # type: ignore[list-item]
    desk._peer = Peer()  # type: ignore[assignment]
    keeper = asyncio.get_running_loop().create_task(desk._keep(0))
    try:
        await asyncio.wait_for(back.wait(), 10)
    finally:
        keeper.cancel()
        await asyncio.gather(keeper, return_exceptions=True)
    assert desk.pairings[0] is not pairing and pairing.tries == 2
    assert notes[0] == "The connection to a laptop elsewhere broke; making it again"
    assert "The connection to a laptop elsewhere is back" in notes
    assert not any("no longer kept" in n for n in notes)
