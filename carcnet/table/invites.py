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
was down when the connection was tried again is not tried by the pairing itself a second time),
or given up after :data:`GIVE_UP` seconds. The laptops that sat down with this laptop's codes are
introduced to each other (a pairing of their own each, by a one-off code), and so are the players
connected to this laptop directly (on the LAN) to each of them (a ``meet``, wire.md §4.12), so that
the table goes on among them all when this laptop leaves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine, Sequence
from typing import TYPE_CHECKING, Any

from carcnet.i18n import N_, _, ngettext
from carcnet.net.invite import REMAKE, About, InviteError, Pairing, Servers, introduction_code, invite, meet
from carcnet.net.messages import Meet

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
#: Seconds a broken pairing is tried again before it is given up: a laptop elsewhere that crashed
#: and came back sits down with a new code (its pairings' keys died with it), so this only bounds
#: the wait for a network that broke between two laptops still running.
GIVE_UP = 600.0
#: What a player is told of the path a pairing's connection takes, once known and when it changes.
PATHS = {"direct": N_("A laptop elsewhere is connected directly"),
         "relay": N_("A laptop elsewhere is connected through the relay")}
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
                 note: Callable[[str], None], changed: Callable[[], None], peer: Peer | None = None) -> None:
        self.servers = servers
        self.about = about
        self.pairings: list[Pairing] = list(pairings)
        self.code: str | None = None
        self._note = note
        self._changed = changed
        self._peer: Peer | None = peer
        #: (key, pairing index) of the players on direct connections introduced to a pairing's laptop
        self._introduced: set[tuple[bytes, int]] = set()
        self._given_up: set[int] = set()  # the pairings no longer kept (:data:`GIVE_UP`), by index
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
        direct = asyncio.get_running_loop().create_task(self._introduce_direct(self.servers))
        self._streams.add(direct)
        wait = REOPEN_GAP
        while len(self.pairings) < MAX_PAIRINGS:
            try:
                pairing = await invite(self.servers, self.about, on_code=self._show, lifetime=CODE_LIFETIME)
            except InviteError as exc:
                self._set_code(None)
                if exc.reason == "expired":
                    self._note(_("The invite code expired unused; here is a new one"))
                    continue
                if exc.reason != "unreachable":  # the code is spent (a wrong guess, a crowd at it)
                    self._note(_("Someone typed a wrong invite code; here is a new one"))
                    wait = REOPEN_GAP
                else:
                    # Translators: {reason} says why (from the invite servers), {seconds} is a number of seconds.
                    self._note(_("No invite code for now: {reason} (trying again in {seconds} s)").format(
                        reason=exc, seconds=f"{wait:g}"))
                    wait = min(wait * 2, REOPEN_LONGEST)
                await asyncio.sleep(wait)
                continue
            wait = REOPEN_GAP
            self._set_code(None)
            self.pairings.append(pairing)
            self._note(_("Someone sat down with the invite code; here is a new one for the next"))
            await self._use(pairing)
            await self._introduce(pairing)
        # Translators: {count} is a number of laptops.
        self._note(ngettext("No more invite codes: {count} laptop joined by one already",
                            "No more invite codes: {count} laptops joined by one already", MAX_PAIRINGS).format(count=MAX_PAIRINGS))

    def _show(self, code: str) -> None:
        self._set_code(code)
        # Translators: {code} is the invite code (digits and words, kept as it is).
        self._note(_("Invite code: {code} (read it out to a friend; it works once)").format(code=code))

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

    async def _introduce_direct(self, servers: Servers) -> None:
        """Introduces every player at the table connected to this laptop directly (found on the LAN,
        or by address) to every laptop this one is paired with, each pair once, with a one-off code:
        a ``meet`` on the direct connection names it and these servers (wire.md §4.12), the pairing's
        ``carcnet-intro`` the same code; the laptop elsewhere dials. Looks every :data:`CHECK` s."""
        peer = self._peer
        assert peer is not None
        while True:
            await asyncio.sleep(CHECK)
            for key, link in peer.session.direct_players():
                for index, pairing in enumerate(self.pairings):
                    if pairing.closed or (key, index) in self._introduced:
                        continue
                    self._introduced.add((key, index))
                    code = introduction_code()
                    await pairing.introduce(code, dial=True)
                    peer.session.introduce(link, Meet(code=code, dial=False, relay=servers.mailbox,
                                                      transit=servers.transit))
                    log.info("introduced %s to the laptop of pairing %s", link.name, pairing.code)

    def _on_intro(self, code: str, dial: bool) -> None:
        """A paired laptop introduces this one to a third (over their pairing): :meth:`meet`."""
        self.meet(code, dial)

    def meet(self, code: str, dial: bool, servers: Servers | None = None) -> None:
        """Meets a laptop elsewhere that a third introduced this one to, with the one-off *code* on
        *servers* (``None``: this laptop's own, else its first pairing's), dialling it if *dial*:
        each code once, within the budget of pairings (:data:`MAX_PAIRINGS`); the pairing made is used
        as any other. Returns at once."""
        if code in self._met or len(self.pairings) + len(self._meeting) >= MAX_PAIRINGS:
            return
        self._met.add(code)
        task = asyncio.get_running_loop().create_task(self._meet(code, dial, servers))
        self._meeting.add(task)
        task.add_done_callback(self._meeting.discard)

    async def _meet(self, code: str, dial: bool, given: Servers | None = None) -> None:
        servers = given or self.servers or (self.pairings[0].servers if self.pairings else Servers())
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
            peer.dial_over(f"pairing {pairing.code}", lambda: self._open(index))
        if index not in self._keepers:
            self._keepers[index] = asyncio.get_running_loop().create_task(self._keep(index))

    async def _open(self, index: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        """A table connection through the pairing at *index* (made anew or not); ``None`` once it was
        given up (the dialling through it ends)."""
        if index in self._given_up:
            return None
        return await self.pairings[index].open()

    async def _keep(self, index: int) -> None:
        """Makes the pairing at *index* anew each time its connection stays broken longer than
        its servers' ``remake`` seconds (wire.md §2.3 "Made anew"); says once that it broke, and
        once that it is back; and which path it takes (:data:`PATHS`). A pairing not made anew within
        :data:`GIVE_UP` seconds of its break (the laptop elsewhere stopped, or left for good) is
        closed and no longer kept, said once: that laptop sits down again with a new code."""
        wait = REOPEN_GAP
        broken: float | None = None  # when the break was first seen (time.monotonic())
        said = ""  # the path last told
        while True:
            pairing = self.pairings[index]
            limit = pairing.servers.remake or REMAKE
            await asyncio.sleep(min(CHECK, limit / 4))
            if broken is not None and pairing.stuck_for == 0:
                broken, wait = None, REOPEN_GAP
                self._note(_("The connection to a laptop elsewhere is back"))
            if pairing.path in PATHS and pairing.path != said:
                said = pairing.path
                self._note(_(PATHS[said]))
            if pairing.stuck_for < limit:
                continue
            if broken is None:
                broken = time.monotonic()
                self._note(_("The connection to a laptop elsewhere broke; making it again"))
            left = GIVE_UP - (time.monotonic() - broken)
            try:
                if left <= 0:
                    raise TimeoutError
                fresh = await asyncio.wait_for(pairing.remake(), left)
            except TimeoutError:
                minutes = GIVE_UP / 60
                # Translators: {minutes} is a number of minutes.
                self._note(ngettext("A laptop elsewhere has not come back for {minutes} minute; its connection "
                                    "is no longer kept (it can sit down again with a new invite code)",
                                    "A laptop elsewhere has not come back for {minutes} minutes; its connection "
                                    "is no longer kept (it can sit down again with a new invite code)",
                                    round(minutes)).format(minutes=f"{minutes:g}"))
                self._given_up.add(index)
                with contextlib.suppress(Exception):
                    await pairing.close()
                return
            except Exception as exc:  # noqa: BLE001 (an unforeseen one is logged whole; the pairing is tried again)
                if not isinstance(exc, InviteError):
                    log.exception("making a pairing anew failed")
                if wait == REOPEN_GAP:  # said once a break; the tries after go to the connection log
                    # Translators: {reason} says why (from the invite servers or the network).
                    self._note(_("Cannot make the connection to a laptop elsewhere again yet: {reason} (still trying)").format(
                        reason=exc))
                log.info("making pairing %s anew failed: %s (again in %g s)", pairing.code, exc, wait)
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
