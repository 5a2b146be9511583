"""Provides :class:`InviteDesk`: a table's invite codes and the pairings they made (``protocol/wire.md``
§2.3, docs/lan-play.md "Playing across homes").

A laptop that invites keeps one code open at a time and shows it (:attr:`InviteDesk.code`); once
someone pairs with it, the pairing becomes a path to that laptop and the next code is opened. A code
that a wrong guess spent is replaced by a new one at most every :data:`REOPEN_GAP` seconds, so a
flood of guesses costs this laptop one code exchange each, at a pace it sets; one nobody paired with
is replaced after :data:`CODE_LIFETIME` seconds. Every pairing, whoever
typed the code, takes the table connections the other laptop opens; the laptop that typed it also
dials through it, and again after a break (:meth:`~carcnet.net.peer.Peer.dial_over`). A pairing
whose connection stays broken is made anew (:meth:`~carcnet.net.invite.Pairing.remake`: a relay that
was down when the connection was tried again is not tried by the pairing itself a second time).
The laptops that sat down with this laptop's codes are introduced to each other (a pairing of their
own each, by a one-off code), so that the table goes on among them when this laptop leaves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine, Sequence
from typing import TYPE_CHECKING, Any

from carcnet.net.invite import REMAKE, About, InviteError, Pairing, Servers, introduction_code, invite, meet

if TYPE_CHECKING:
    from carcnet.net.peer import Peer

__all__ = ["InviteDesk", "REOPEN_GAP"]

log = logging.getLogger("carcnet.table")

#: Seconds between two codes opened after the last one was spent by a wrong guess, or the mailbox
#: server could not be reached (the longest wait when it stays out of reach: :data:`REOPEN_LONGEST`).
REOPEN_GAP = 2.0
REOPEN_LONGEST = 60.0
#: Seconds between two looks at a pairing's connection (one broken for its ``remake`` seconds is
#: made anew within this much more).
CHECK = 1.0
#: Seconds a code handed out waits for someone to pair with it before a new one replaces it: time to
#: read it out and type it, and the longest a crowd of guessers that jammed a code's number (the
#: mailbox server then pairs nobody with it) keeps this laptop from being joined.
CODE_LIFETIME = 300.0
#: What a player is told of the path a pairing's connection takes, once known and when it changes.
PATHS = {"direct": "A laptop elsewhere is connected directly",
         "relay": "A laptop elsewhere is connected through the relay"}
#: Pairings a laptop keeps at once: a table's players and some spectators (wire.md §2.1's budget
#: of connections held is the finer one).
MAX_PAIRINGS = 32


class InviteDesk:
    """A table's codes and pairings.

    Args:
        servers: The mailbox and relay; ``None``: this laptop hands out no code (it may still hold
            *pairings* made before, by the code it typed).
        about: What a laptop that pairs is told (the game).
        pairings: Pairings already made (the one a joining laptop made with its code).
        note: Tells the table's people a line (``NetTable._note``).
        changed: Tells the table's listeners that :attr:`code` changed.

    Attributes:
        code: The code open now, to show (``None``: none yet, or not inviting).
        pairings: Every pairing made, in order.
    """

    def __init__(self, servers: Servers | None, about: About, pairings: Sequence[Pairing], *,
                 note: Callable[[str], None], changed: Callable[[], None]) -> None:
        self.servers = servers
        self.about = about
        self.pairings: list[Pairing] = list(pairings)
        self.code: str | None = None
        self._note = note
        self._changed = changed
        self._peer: Peer | None = None
        self._streams: set[asyncio.Task[None]] = set()  # the connections the pairings brought in
        self._keepers: dict[int, asyncio.Task[None]] = {}  # per pairing: makes it anew when it broke
        self._met: set[str] = set()  # the one-off codes of the introductions taken
        self._meeting: set[asyncio.Task[None]] = set()  # introductions under way

    async def run(self, peer: Peer) -> None:
        """Uses every pairing as a path to its laptop, then (when inviting) hands out codes until
        cancelled."""
        self._peer = peer
        for pairing in self.pairings:
            await self._use(pairing)
        if self.servers is None:
            return
        wait = REOPEN_GAP
        while len(self.pairings) < MAX_PAIRINGS:
            try:
                pairing = await invite(self.servers, self.about, on_code=self._show, lifetime=CODE_LIFETIME)
            except InviteError as exc:
                self._set_code(None)
                if exc.reason == "expired":
                    self._note("The invite code expired unused; here is a new one")
                    continue
                if exc.reason != "unreachable":  # the code is spent (a wrong guess, a crowd at it)
                    self._note("Someone typed a wrong invite code; here is a new one")
                    wait = REOPEN_GAP
                else:
                    self._note(f"No invite code for now: {exc} (trying again in {wait:g} s)")
                    wait = min(wait * 2, REOPEN_LONGEST)
                await asyncio.sleep(wait)
                continue
            wait = REOPEN_GAP
            self._set_code(None)
            self.pairings.append(pairing)
            self._note("Someone sat down with the invite code; here is a new one for the next")
            await self._use(pairing)
            await self._introduce(pairing)
        self._note(f"No more invite codes: {MAX_PAIRINGS} laptops joined by one already")

    def _show(self, code: str) -> None:
        self._set_code(code)
        self._note(f"Invite code: {code} (read it out to a friend; it works once)")

    def _set_code(self, code: str | None) -> None:
        if code != self.code:
            self.code = code
            self._changed()

    def _spawn(self, stream: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(stream)
        self._streams.add(task)
        task.add_done_callback(self._streams.discard)

    async def _introduce(self, pairing: Pairing) -> None:
        """Introduces the laptop that just sat down with this laptop's code to every other laptop
        this one is paired with (by its codes, the code it typed, or an introduction), each pair with
        a one-off code (wire.md §2.3 "Introductions"): the table then goes on among them when this
        laptop leaves."""
        for other in self.pairings:
            if other is pairing or other.closed:
                continue
            code = introduction_code()
            await pairing.introduce(code, dial=True)  # the newcomer dials: it may still need the lobby
            await other.introduce(code, dial=False)
            log.info("introduced the laptops of pairings %s and %s", pairing.code, other.code)

    def _on_intro(self, code: str, dial: bool) -> None:
        """A paired laptop introduces this one to a third: meet it, dialling it if told to (one
        code once; within the budget of pairings)."""
        if code in self._met or len(self.pairings) + len(self._meeting) >= MAX_PAIRINGS:
            return
        self._met.add(code)
        task = asyncio.get_running_loop().create_task(self._meet(code, dial))
        self._meeting.add(task)
        task.add_done_callback(self._meeting.discard)

    async def _meet(self, code: str, dial: bool) -> None:
        servers = self.servers or (self.pairings[0].servers if self.pairings else Servers())
        try:
            pairing = await meet(servers, code, dial=dial)
        except InviteError as exc:
            log.info("an introduction came to nothing: %s", exc)
            return
        self.pairings.append(pairing)
        await self._use(pairing)

    async def _use(self, pairing: Pairing) -> None:
        peer = self._peer
        assert peer is not None
        await pairing.serve(peer.take, self._spawn)
        await pairing.serve_intros(self._on_intro)
        index = self.pairings.index(pairing)
        if pairing.initiator:  # through whichever pairing holds its place now (made anew or not)
            peer.dial_over(f"pairing {pairing.code}", lambda: self.pairings[index].open())
        if index not in self._keepers:
            self._keepers[index] = asyncio.get_running_loop().create_task(self._keep(index))

    async def _keep(self, index: int) -> None:
        """Makes the pairing at *index* anew each time its connection stays broken longer than
        its servers' ``remake`` seconds (wire.md §2.3 "Made anew"), until cancelled; says once that
        it broke, and once that it is back; and which path it takes (:data:`PATHS`)."""
        wait = REOPEN_GAP
        broken = False
        said = ""  # the path last told
        while True:
            pairing = self.pairings[index]
            limit = pairing.servers.remake or REMAKE
            await asyncio.sleep(min(CHECK, limit / 4))
            if broken and pairing.stuck_for == 0:
                broken = False
                self._note("The connection to a laptop elsewhere is back")
            if pairing.path in PATHS and pairing.path != said:
                said = pairing.path
                self._note(PATHS[said])
            if pairing.stuck_for < limit:
                continue
            if not broken:
                broken = True
                self._note("The connection to a laptop elsewhere broke; making it again")
            try:
                fresh = await pairing.remake()
            except Exception as exc:  # noqa: BLE001 (an unforeseen one is logged whole; the pairing is tried again)
                if not isinstance(exc, InviteError):
                    log.exception("making a pairing anew failed")
                self._note(f"Cannot make the connection to a laptop elsewhere again: {exc} (trying again in {wait:g} s)")
                await asyncio.sleep(wait)
                wait = min(wait * 2, REOPEN_LONGEST)
                continue
            wait = REOPEN_GAP
            self.pairings[index] = fresh
            log.info("pairing %s made anew (generation %d)", fresh.code, fresh.generation)
            peer = self._peer
            assert peer is not None
            await fresh.serve(peer.take, self._spawn)
            await fresh.serve_intros(self._on_intro)

    async def aclose(self) -> None:
        """Ends every pairing (their wormholes and connections). Never raises."""
        for task in [*self._streams, *self._keepers.values(), *self._meeting]:
            task.cancel()
        for pairing in self.pairings:
            with contextlib.suppress(Exception):
                await pairing.close()
