"""Provides this table's mDNS record and what a found record gives it (protocol/discovery.md).

:func:`table_ad` builds the record a peer advertises for its game from plain values (pure: tests give
tables of cases); :func:`found_peer` turns another peer's record into the peer to connect to, or
nothing; :func:`advertise_and_browse` is the loop that keeps the record current and reports the
records found, as long as the table runs.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from carcnet.i18n import _
from carcnet.log import Seat
from carcnet.net.adverts import AdRole, GameAd, Phase
from carcnet.net.framing import ProtocolError
from carcnet.net.messages import Lobby, PeerInfo

__all__ = ["advertise_and_browse", "found_peer", "table_ad"]

#: The table's status → the phase its record announces (discovery.md §2); other statuses: no record.
_PHASES: dict[str, Phase] = {"lobby": "lobby", "playing": "playing", "finished": "finished"}


def table_ad(
    *,
    game: str,
    peer: str,
    key: bytes,
    port: int | None,
    spectator: bool,
    status: str,
    opener: bool,
    seats: Sequence[Seat] | None,
    lobby: Lobby | None,
    game_name: str | None,
) -> GameAd | None:
    """The record this peer advertises for game *game* (discovery.md §2), or ``None`` when it has
    none to advertise: it does not listen (*port* ``None``), only watches (*spectator*), knows neither
    the game's seats nor its lobby, or the game is in no phase a record names (*status*: the table's,
    ``"lobby"``, ``"playing"`` or ``"finished"``).

    Args:
        game: The game id. peer: this peer's name. key: its identity key (wire.md §3.1).
        port: The TCP port it listens on, ``None`` when it does not.
        opener: Whether this peer holds the table's lobby (it opened the table).
        seats: The header's seats once the game started, else ``None``.
        lobby: The lobby as last known (its name and seats taken), if any.
        game_name: The game's name as this peer knows it (the opener's), if any.

    Raises:
        ValueError: A value a record cannot carry (see :class:`GameAd`).
    """
    if port is None or spectator:
        return None
    if seats is not None:
        taken = total = len(seats)
        name = game_name or (lobby.name if lobby else " & ".join(s.name for s in seats)[:32])
    elif lobby is not None:
        total = len(lobby.table)
        taken = sum(s is not None for s in lobby.table)
        name = lobby.name
    else:
        return None
    phase = _PHASES.get(status)
    if phase is None:
        return None
    role: AdRole = "host" if opener and seats is None else "player"
    return GameAd(game=game, name=name, phase=phase, seats_taken=taken, seats_total=total, peer=peer,
                  role=role, key=key, port=port)


def found_peer(ad: GameAd, *, game: str, me: bytes) -> PeerInfo | None:
    """The peer of game *game* that record *ad* announces, to connect to: at its first IPv4 address
    (else its first address, scope dropped); ``None`` for another game's record, this peer's own
    (identity *me*), a record without addresses, or one whose address a peer could not be listed with."""
    if ad.game != game or ad.key == me or not ad.addresses:
        return None
    address = next((a for a in ad.addresses if "%" not in a and ":" not in a), ad.addresses[0])
    try:
        return PeerInfo(ad.key, ad.peer, address.split("%")[0], ad.port)
    except ProtocolError:  # not an address a peer could be listed with
        return None


async def advertise_and_browse(
    *,
    interfaces: Sequence[str] | None,
    dirty: asyncio.Event,
    ad: Callable[[], GameAd | None],
    found: Callable[[GameAd], None],
    closing: Callable[[], bool],
    note: Callable[[str], None],
    events: bool = False,
) -> None:
    """Advertises *ad()* (again whenever *dirty* is set: the record may have changed) and reports each
    game record found or updated on the LAN to *found*, until *closing()* or the browser ends. Where
    mDNS is not available, says so with *note* and returns (peers then connect with host:port).

    Args:
        interfaces: IP addresses for mDNS (``None``: every interface).
        events: Report tournaments' records instead of tables' (a tournament's laptop, discovery.md §2).
    """
    from carcnet.net.discovery import Advertiser, Browser, DiscoveryError, GameFound, GameUpdated

    try:
        async with Browser(interfaces=interfaces, events=events) as browser, Advertiser(interfaces=interfaces) as adv:
            advertised: GameAd | None = None
            dirty.set()
            while not closing():
                if dirty.is_set():
                    dirty.clear()
                    record = ad()
                    if record != advertised:
                        if record is not None and advertised is None:
                            await adv.start(record)
                        elif record is not None:
                            await adv.update(record)
                        advertised = record
                try:
                    async with asyncio.timeout(0.25):
                        event = await browser.next_event(timeout=0.25)
                except TimeoutError:
                    continue
                if event is None:
                    return
                if isinstance(event, GameFound | GameUpdated):
                    found(event.ad)
    except DiscoveryError as exc:
        # Translators: {reason} says why (from the system); mDNS and host:port are kept as they are.
        note(_("mDNS is not available ({reason}); connect with host:port").format(reason=exc))
