"""Provides invite codes: a table reached from another home by a short code read out over the phone.

One code pairs two laptops (``protocol/wire.md`` §2.3). It is a magic-wormhole code
(``7-crossover-clockwork``): the laptop that invites allocates it on a rendezvous server (the
mailbox), the other types it; the two derive a shared key from it by a PAKE (SPAKE2), so a wrong or
guessed code fails for both sides and teaches nothing; once paired, the nameplate is released, so a
code works once. The pair then *dilates* the wormhole: a durable, encrypted (Noise) connection
that tries the direct path first (each side's addresses) and the transit relay at once beside it,
and comes back by either after a break, subchannels and all. Each table connection over the pair
is one subchannel, seen by the table as an ordinary ``(reader, writer)`` stream
(:class:`~carcnet.net.reactor.StreamBridge`), on which the table's own handshake proves the seat
keys as on the LAN: the code authenticates the first contact, the table's signatures everything
after.

Each side tells the other what the table needs before any stream: the laptop that invites, the
game's id and name (:class:`About`); the one that joins, nothing but its protocol version. Messages
over the wormhole are a JSON object of at most :data:`MAX_ABOUT` bytes; anything else ends the
pairing with :class:`InviteError`.

The servers are the public ones magic-wormhole's community runs (:data:`DEFAULT_MAILBOX`,
:data:`DEFAULT_TRANSIT`), or self-hosted ones (:class:`Servers`). They see the code exchange
(nameplates, encrypted messages) and encrypted bytes, never a move in the clear.

Needs the optional extra ``pip install 'carcnet[internet]'``: :func:`missing` says whether it is
there, in one line for a person.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import re
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from carcnet.i18n import N_, _

from .reactor import StreamBridge, call, reactor

__all__ = ["About", "DEFAULT_MAILBOX", "DEFAULT_TRANSIT", "InviteError", "Pairing", "Servers", "accept",
           "introduction_code", "invite", "is_code", "meet", "missing", "servers"]

log = logging.getLogger("carcnet.net")

#: The application id: codes of carcnet tables live in their own namespace on a mailbox server.
APPID = "carcnet/table/v1"
#: The version of what two laptops say over a pairing (wire.md §2.3).
INVITE_VERSION = 1
#: magic-wormhole's public mailbox (rendezvous) server and transit relay (its ``public_relay``).
DEFAULT_MAILBOX = "ws://relay.magic-wormhole.io:4000/v1"
DEFAULT_TRANSIT = "tcp:transit.magic-wormhole.io:4001"
#: The subchannel name of a table connection, and of an introduction (:meth:`Pairing.introduce`):
#: the only ones a pairing accepts.
SUBPROTOCOL = "carcnet-table"
INTRO = "carcnet-intro"
#: Bytes of the largest message a pairing reads (wire.md §2.3).
MAX_ABOUT = 4096
#: Seconds a joining laptop waits for the laptop that invited before it says the code is not
#: (or no longer) waiting: a code is released once used, and one nobody holds pairs with nobody.
JOIN_WAIT = 60.0
#: Seconds between a pairing's pings (magic-wormhole's own default is 30): a connection that broke,
#: or a relay that was down when it was made again, is tried again within two (wire.md §2.3).
PING = 5.0
#: Seconds a pairing's connection may stay broken before both laptops make the pairing anew: three
#: pings, time for the dilation's own reconnection by any path that is up.
REMAKE = 15.0
#: Seconds a laptop introduced to another waits for it on the mailbox server.
MEET_WAIT = 120.0
#: Seconds to reach the mailbox server at all.
MAILBOX_WAIT = 30.0

_CODE = re.compile(r"[0-9]{1,6}(-[a-z]{2,16}){2,4}")
#: A one-off code made by laptops, never read out: a pairing made anew, or an introduction.
_ONE_OFF = re.compile(r"[0-9]{12}-[0-9a-f]{36}")
# Translators: the command after the colon is typed as it is.
_INSTALL = N_("invite codes need carcnet's internet extra: pip install 'carcnet[internet]'")


def missing() -> str | None:
    """``None`` when invite codes can be used here, else one line saying how to get them."""
    try:
        # dilation's encryption: magic-wormhole's "dilate" extra
        import noise.connection  # type: ignore[import-untyped, import-not-found, unused-ignore]  # noqa: F401
        import twisted.internet  # noqa: F401
        import wormhole  # type: ignore[import-untyped, import-not-found, unused-ignore]  # noqa: F401
    except ImportError:
        return _(_INSTALL)
    return None


def is_code(text: str) -> bool:
    """Whether *text* has the shape of an invite code (a number and two or more words, dashed).

    >>> is_code("7-crossover-clockwork"), is_code("192.168.1.2:4000"), is_code("7-Crossover")
    (True, False, False)
    """
    return _CODE.fullmatch(text) is not None


class InviteError(Exception):
    """A code that pairs nothing, in a person's words.

    Attributes:
        reason: ``wrong`` (the other side has another code: a typo or a guess), ``waiting`` (nobody
            holds this code: used, expired or never given), ``unreachable`` (the mailbox server),
            ``refused`` (the other side spoke another protocol, or too much), ``expired`` (a code
            handed out that nobody paired with in its lifetime), ``closed``.
    """

    def __init__(self, reason: str, text: str) -> None:
        super().__init__(text)
        self.reason = reason


@dataclass(frozen=True)
class Servers:
    """Where codes are exchanged and bytes relayed.

    Args:
        mailbox: The mailbox server's WebSocket URL (``ws://HOST:PORT/v1``).
        transit: The transit relay as a Twisted endpoint (``tcp:HOST:PORT``).
        direct: Whether to offer this laptop's own addresses for a direct connection (else the
            relay only; tests use it to take the relay's path).
        ping: Seconds between the pairing's pings (0: :data:`PING`): a connection silent for two
            is taken for broken and made again, by either path.
        remake: Seconds a pairing's connection may stay broken before the pairing is made anew
            (0: :data:`REMAKE`; :meth:`Pairing.remake`).
    """

    mailbox: str = DEFAULT_MAILBOX
    transit: str = DEFAULT_TRANSIT
    direct: bool = True
    ping: float = 0.0
    remake: float = 0.0


def servers(relay: str | None = None, transit: str | None = None, *, direct: bool = True) -> Servers:
    """:class:`Servers` from what a person typed: *relay* a mailbox server's ``ws://`` or ``wss://``
    URL, *transit* a transit relay's ``tcp:HOST:PORT`` (either empty or ``None``: the public one).

    >>> servers("ws://example.org:4000/v1", "tcp:example.org:4001").transit
    'tcp:example.org:4001'

    Raises:
        ValueError: Either is malformed (the message says which and what is expected).
    """
    relay, transit = relay or DEFAULT_MAILBOX, transit or DEFAULT_TRANSIT
    if re.fullmatch(r"wss?://[^\s/]+(/\S*)?", relay) is None:
        # Translators: {example} is an address, {typed} what was typed.
        raise ValueError(_("the invite server must be a ws:// or wss:// address (e.g. {example}), got {typed}").format(
            example=DEFAULT_MAILBOX, typed=repr(relay[:80])))
    if re.fullmatch(r"tcp:[^\s:]+:[0-9]{1,5}", transit) is None or not 0 < int(transit.rsplit(":", 1)[1]) < 65536:
        # Translators: tcp:HOST:PORT is typed as it is; {example} is an address, {typed} what was typed.
        raise ValueError(_("the relay must be tcp:HOST:PORT (e.g. {example}), got {typed}").format(
            example=DEFAULT_TRANSIT, typed=repr(transit[:80])))
    return Servers(relay, transit, direct)


@dataclass(frozen=True)
class About:
    """What the laptop that invites tells the one that joins (wire.md §2.3).

    Args:
        game: The game id (32 lowercase hex digits).
        name: The game's name as the table shows it.
    """

    game: str
    name: str = ""

    def encode(self) -> bytes:
        return json.dumps({"carcnet": INVITE_VERSION, "game": self.game, "name": self.name}).encode()

    @classmethod
    def decode(cls, data: bytes) -> About:
        """Raises InviteError (``refused``) for anything but a version-1 message naming a game."""
        fields = _message(data)
        game, name = fields.get("game"), fields.get("name", "")
        if not isinstance(game, str) or re.fullmatch(r"[0-9a-f]{32}", game) is None or not isinstance(name, str):
            raise InviteError("refused", _("the laptop behind this code did not name a game"))
        return cls(game, name[:64])


def _message(data: bytes) -> dict[str, Any]:
    if len(data) > MAX_ABOUT:
        raise InviteError("refused", _("the other laptop said too much for an invite"))
    try:
        fields = json.loads(data)
    except ValueError:
        fields = None
    if not isinstance(fields, dict) or fields.get("carcnet") != INVITE_VERSION:
        raise InviteError("refused", _("the other laptop speaks another version of carcnet's invites"))
    return fields


class Pairing:
    """Two laptops joined by one code: table connections both ways, as asyncio streams.

    Built by :func:`invite` and :func:`accept`. :meth:`open` opens a connection to the other laptop;
    :meth:`serve` takes the ones it opens. :meth:`close` ends the pairing (the wormhole, its
    connection and its mailbox). A pairing whose connection stays broken (:attr:`stuck_for`: the
    dilation tries each path once after a break, so a relay that was down then is not tried again)
    is made anew by :meth:`remake`, with no person and no new code.

    Attributes:
        code: The code that made it.
        about: What the laptop that invited said (for the one that joined; ``None`` for it).
        initiator: Whether this laptop typed the code.
        closed: Whether :meth:`close` was called.
    """

    def __init__(self, wormhole: Any, dilated: Any, code: str, about: About | None, initiator: bool,
                 path: _Path | None = None, servers: Servers | None = None, generation: int = 0) -> None:
        self._wormhole = wormhole
        self._path = path or _Path()
        self.servers = servers or Servers()
        #: How many times this pairing was made anew (:meth:`remake`).
        self.generation = generation
        #: Whether a third laptop introduced the two (:func:`meet`), rather than a code read out.
        self.introduced = False
        self._remade_code: str | None = None
        self._dilated = dilated
        self.code = code
        self.about = about
        self.initiator = initiator
        self._serving = False
        self.closed = False

    @property
    def path(self) -> str:
        """The path its connection takes now: ``connecting``, ``direct``, ``relay``,
        ``reconnecting`` (after a break, by either path) or ``stopped``."""
        return self._path.now

    @property
    def stuck_for(self) -> float:
        """Seconds since its connection broke and has not come back (0 while it is up); a pairing
        that stopped (the other laptop closed its wormhole) is stuck for ever (``inf``)."""
        if self._path.now == "stopped":
            return math.inf
        if self._path.now in ("direct", "relay"):
            return 0.0
        return time.monotonic() - self._path.since

    async def remake(self) -> Pairing:
        """This pairing made anew with the same laptop (wire.md §2.3 "Made anew"): both laptops
        derive the same one-off code from the pairing's key (:func:`remade_code`), close this
        pairing, and meet with that code on the mailbox server, waiting for each other without end
        (cancel to give up). The new pairing keeps this one's code, role and ``about``.

        Raises:
            InviteError: The mailbox server cannot be reached, or the other side's key differs.
        """
        if self._remade_code is None:  # derived once: the wormhole it comes from is closed next
            self._remade_code = await call(remade_code, self._wormhole, self.generation + 1)
        code = self._remade_code
        await self.close()
        w, dilated, path, _about = await _claim(self.servers, code, None, "")
        fresh = Pairing(w, dilated, self.code, self.about, self.initiator, path, self.servers, self.generation + 1)
        fresh.introduced = self.introduced
        return fresh

    async def introduce(self, code: str, *, dial: bool) -> None:
        """Tells the other laptop to meet a third one with the one-off *code* (wire.md §2.3
        "Introductions"): one subchannel ``carcnet-intro`` carrying ``{"carcnet": 1, "meet": code,
        "dial": dial}``, *dial* saying whether it opens the table connections (the newcomer does: a
        player takes the lobby only from the table it dialled). Does not wait for the other laptop
        to act on it; never raises."""
        line = json.dumps({"carcnet": INVITE_VERSION, "meet": code, "dial": dial}).encode() + b"\n"

        def send() -> None:
            from twisted.internet.protocol import Factory, Protocol

            class _Say(Protocol):
                def connectionMade(self) -> None:  # noqa: N802 (Twisted's name)
                    transport: Any = self.transport
                    transport.write(line)
                    transport.loseConnection()

            connecting = self._dilated.connector_for(INTRO).connect(Factory.forProtocol(_Say))
            connecting.addErrback(lambda failure: log.info("an introduction was not sent: %s", failure.value))

        with contextlib.suppress(Exception):
            await call(send)

    async def serve_intros(self, on_code: Callable[[str, bool], None]) -> None:
        """Takes the introductions the other laptop sends: ``on_code(code, dial)`` on this event
        loop for each well-formed one (a subchannel of at most :data:`MAX_ABOUT` bytes holding one
        JSON line naming a one-off code, and whether to dial); anything else is dropped."""
        loop = asyncio.get_running_loop()

        def heard(data: bytes) -> None:
            try:
                fields = _message(data.split(b"\n", 1)[0])
            except InviteError:
                return
            code, dial = fields.get("meet"), fields.get("dial")
            if isinstance(code, str) and _ONE_OFF.fullmatch(code) and isinstance(dial, bool):
                loop.call_soon_threadsafe(lambda: None if loop.is_closed() else on_code(code, dial))

        def listen() -> None:
            from twisted.internet.protocol import Factory, Protocol

            class _Hear(Protocol):
                def __init__(self) -> None:
                    self.data = b""

                def dataReceived(self, data: bytes) -> None:  # noqa: N802
                    self.data += data
                    if len(self.data) > MAX_ABOUT or b"\n" in self.data:
                        transport: Any = self.transport
                        transport.loseConnection()

                def connectionLost(self, reason: Any = None) -> None:  # noqa: N802
                    if len(self.data) <= MAX_ABOUT + 1:
                        heard(self.data[: MAX_ABOUT + 1])

            listening = self._dilated.listener_for(INTRO).listen(Factory.forProtocol(_Hear))
            listening.addErrback(lambda failure: log.info("a pairing stopped hearing introductions: %s", failure.value))

        await call(listen)

    async def open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """A new table connection to the other laptop (a subchannel). Waits while the pairing
        reconnects.

        Raises:
            OSError: The pairing is closed, or the connection was refused.
        """
        if self.closed:
            raise ConnectionError("the pairing is closed")
        try:
            sock = await call(self._connect)
        except Exception as exc:  # Twisted's errors: one kind for the dialer
            raise ConnectionError(f"no connection over the pairing: {exc}") from None
        return await asyncio.open_connection(sock=sock)

    def _connect(self) -> Any:
        from twisted.internet.defer import Deferred
        from twisted.internet.protocol import Factory

        made: Deferred[socket.socket] = Deferred()
        bridge = StreamBridge(made.callback)
        connecting = self._dilated.connector_for(SUBPROTOCOL).connect(Factory.forProtocol(bridge.protocol))
        def failed(failure: Any) -> None:
            if not made.called:
                made.errback(failure)

        connecting.addErrback(failed)
        return made

    async def serve(self, on_stream: Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]],
                    spawn: Callable[[Coroutine[Any, Any, None]], object]) -> None:
        """Takes every connection the other laptop opens: ``spawn(on_stream(reader, writer))`` on
        this event loop for each (*spawn* holds the task, a task group's ``create_task``)."""
        if self._serving:
            return
        self._serving = True
        loop = asyncio.get_running_loop()

        async def opened(sock: socket.socket) -> None:
            try:
                reader, writer = await asyncio.open_connection(sock=sock)
            except OSError:
                sock.close()
                return
            await on_stream(reader, writer)

        def deliver(sock: socket.socket) -> None:  # on the reactor thread
            loop.call_soon_threadsafe(lambda: None if loop.is_closed() else spawn(opened(sock)))

        def listen() -> None:
            from twisted.internet.protocol import Factory

            # the listening is set now; its Deferred fires once the pairing is connected, which may
            # be much later (a relay down): not waited for
            listening = self._dilated.listener_for(SUBPROTOCOL).listen(Factory.forProtocol(StreamBridge(deliver).protocol))
            listening.addErrback(lambda failure: log.info("a pairing stopped listening: %s", failure.value))

        await call(listen)

    async def close(self) -> None:
        """Ends the pairing; idempotent. Never raises."""
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(Exception):
            await asyncio.wait_for(call(self._wormhole.close), 5.0)


def _create(servers: Servers) -> Any:
    import wormhole  # type: ignore[import-untyped, import-not-found, unused-ignore]

    return wormhole.create(APPID, servers.mailbox, reactor(), dilation=True, versions={"carcnet": INVITE_VERSION})


def remade_code(wormhole: Any, generation: int) -> str:
    """The code two paired laptops meet with to make their pairing anew (its *generation*-th time):
    a 12-digit nameplate and 36 hex digits, derived from the pairing's key, so that only those two
    laptops know it (wire.md §2.3 "Made anew"). Runs on the reactor thread."""
    key: bytes = wormhole.derive_key(f"carcnet/remake/{generation}", 24)
    nameplate = 10**11 + int.from_bytes(key[:6], "big") % (9 * 10**11)
    return f"{nameplate}-{key[6:].hex()}"


def introduction_code() -> str:
    """A fresh one-off code for an introduction: a 12-digit nameplate and 36 hex digits, random
    (wire.md §2.3 "Introductions")."""
    nameplate = 10**11 + secrets.randbelow(9 * 10**11)
    return f"{nameplate}-{secrets.token_hex(18)}"


class _Path:
    """Which path a pairing's connection takes now, from the dilation's status (on the reactor
    thread; read from any): ``connecting``, ``direct``, ``relay``, ``reconnecting`` or ``stopped``;
    and since when (``time.monotonic()``)."""

    def __init__(self) -> None:
        self.now = "connecting"
        self.since = time.monotonic()

    def _set(self, now: str) -> None:
        if now != self.now:
            self.now, self.since = now, time.monotonic()

    def update(self, status: Any) -> None:
        from wormhole._status import ConnectedPeer, ReconnectingPeer, StoppedPeer  # type: ignore[import-untyped, import-not-found, unused-ignore]

        peer = getattr(status, "peer_connection", None)
        if isinstance(peer, ConnectedPeer):
            self._set("relay" if "relay" in peer.hint_description else "direct")
        elif isinstance(peer, ReconnectingPeer):
            self._set("reconnecting")
        elif isinstance(peer, StoppedPeer):
            self._set("stopped")


def _dilate(w: Any, servers: Servers, path: _Path) -> Any:
    return w.dilate(transit_relay_location=servers.transit, no_listen=not servers.direct,
                    expected_subprotocols=[SUBPROTOCOL, INTRO], on_status_update=path.update,
                    ping_interval=servers.ping or PING)


def _explain(exc: BaseException, code: str) -> InviteError:
    """An error of magic-wormhole's, in a person's words."""
    from wormhole.errors import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
        LonelyError,
        ServerConnectionError,
        ServerError,
        WormholeClosed,
        WrongPasswordError,
    )

    if isinstance(exc, InviteError):
        return exc
    if isinstance(exc, WrongPasswordError):
        # Translators: {code} is an invite code.
        return InviteError("wrong", _("the code {code} is wrong: check it with the one who gave it (they have a new one now)").format(
            code=code))
    if isinstance(exc, ServerConnectionError):
        log.info("the invite server is out of reach: %s", exc)
        return InviteError("unreachable", _("cannot reach the invite server: is this laptop online?"))
    if isinstance(exc, ServerError) and "crowded" in str(exc):
        # Translators: {code} is an invite code.
        return InviteError("waiting", _("the code {code} was used already: ask for a new one").format(code=code))
    if isinstance(exc, (LonelyError, WormholeClosed)):
        return InviteError("closed", _("the pairing closed before it was made"))
    # Translators: {code} is an invite code; {reason} says why (from the invite server, in English).
    return InviteError("refused", _("the code {code} did not pair: {reason}").format(code=code, reason=exc))


async def _close_quietly(w: Any) -> None:
    """Closes a wormhole that failed or was given up, within 5 s, whatever happens."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(asyncio.shield(call(w.close)), 5.0)


async def _claim(servers: Servers, code: str, wait: float | None, waiting: str,
                 exchange: Callable[[Any], Awaitable[About | None]] | None = None) -> tuple[Any, Any, _Path, About | None]:
    """Meets the other side of *code* on the mailbox server: a wormhole with *code* set, its key
    confirmed within *wait* seconds (``None``: without end), *exchange* run on it (the first
    messages: its ``About``, if any), then dilated. Returns ``(wormhole, dilated, path, about)``.

    Raises:
        InviteError: Nobody came within *wait* (``waiting``, saying *waiting*), or what
            :func:`_explain` says of magic-wormhole's error; the wormhole is closed first.
    """
    w = await call(_create, servers)
    try:
        await call(w.set_code, code)
        try:
            await asyncio.wait_for(call(w.get_verifier), wait)
        except TimeoutError:
            raise InviteError("waiting", waiting) from None
        about = await exchange(w) if exchange is not None else None
        path = _Path()
        dilated = await call(_dilate, w, servers, path)
    except BaseException as exc:
        await _close_quietly(w)
        if isinstance(exc, Exception):
            raise _explain(exc, code) from None
        raise
    return w, dilated, path, about


async def invite(servers: Servers, about: About, *, on_code: Callable[[str], None],
                 lifetime: float | None = None) -> Pairing:
    """Allocates a code, tells it (``on_code(code)``), and waits for the laptop that types it.

    Waits for that laptop at most *lifetime* seconds (``None``: without end; cancel the task to give
    the code up: the code is then released). Returns the dilated :class:`Pairing`, this side
    listening for the other's connections once :meth:`Pairing.serve` is called.

    Raises:
        InviteError: The mailbox server is unreachable (``unreachable``), the other side typed
            another code (``wrong``: this code is spent), nobody paired within *lifetime*
            (``expired``), or the other side spoke another protocol (``refused``).
    """
    w = await call(_create, servers)
    try:
        await call(w.allocate_code)
        code = await asyncio.wait_for(call(w.get_code), MAILBOX_WAIT)
        on_code(code)
        try:
            await asyncio.wait_for(call(w.get_verifier), lifetime)
        except TimeoutError:
            # Translators: {code} is an invite code, {seconds} a number of seconds.
            raise InviteError("expired", _("nobody paired with the code {code} within {seconds} s").format(
                code=code, seconds=f"{lifetime:g}")) from None
        _message(await call(w.get_message))  # the joining side's version
        await call(w.send_message, about.encode())
        path = _Path()
        dilated = await call(_dilate, w, servers, path)
    except BaseException as exc:
        await _close_quietly(w)
        if isinstance(exc, TimeoutError):
            raise InviteError("unreachable", _("the invite server did not answer: is this laptop online?")) from None
        if isinstance(exc, Exception):
            raise _explain(exc, "") from None
        raise
    return Pairing(w, dilated, code, None, initiator=False, path=path, servers=servers)


async def meet(servers: Servers, code: str, *, dial: bool, wait: float = MEET_WAIT) -> Pairing:
    """Pairs with the laptop that was given the same one-off *code* by a third laptop that is paired
    with both (wire.md §2.3 "Introductions"); with *dial*, this side opens the table connections
    through it (the pairing's ``initiator``).

    Raises:
        InviteError: The code is not a one-off code, the other laptop did not come within *wait*
            seconds, or the mailbox server is unreachable.
    """
    if not _ONE_OFF.fullmatch(code):
        raise InviteError("refused", "not a one-off code")
    w, dilated, path, _about = await _claim(servers, code, wait, "the laptop to meet did not come")
    pairing = Pairing(w, dilated, code, None, initiator=dial, path=path, servers=servers)
    pairing.introduced = True
    return pairing


async def accept(servers: Servers, code: str, *, wait: float = JOIN_WAIT) -> Pairing:
    """Pairs with the laptop that gave *code*; the :class:`Pairing`'s ``about`` says its game.

    Raises:
        InviteError: The code is malformed or wrong, nobody waits with it within *wait* seconds
            (used, expired, never given: ``waiting``), the mailbox server is unreachable, or the
            other laptop spoke another protocol.
    """
    if not is_code(code):
        # Translators: {code} is what was typed; 7-crossover-clockwork is an example code, kept as it is.
        raise InviteError("refused", _("{code} is not an invite code: a number and words, e.g. 7-crossover-clockwork").format(
            code=repr(code)))

    async def exchange(w: Any) -> About:
        await call(w.send_message, json.dumps({"carcnet": INVITE_VERSION}).encode())
        return About.decode(await call(w.get_message))

    # Translators: {code} is an invite code.
    waiting = _("nobody is waiting with the code {code} (a code works once, while the one who gave "
                "it waits): ask for a new one").format(code=code)
    w, dilated, path, about = await _claim(servers, code, wait, waiting, exchange)
    return Pairing(w, dilated, code, about, initiator=True, path=path, servers=servers)
