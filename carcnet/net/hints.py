"""Provides :class:`Hints`: what a peer tells and takes about other peers, without I/O: where the
players listen (``peers``, ``protocol/wire.md`` §4.10) and a laptop elsewhere to pair with (``meet``,
§4.12). Each is a hint: an address is believed once its key proves itself there, an introduction is
a one-off code the table above meets with; both taken only from whom the protocol says, the first
few on a connection."""

from __future__ import annotations

import logging
from collections import deque

from .connections import Connections, takes_peers
from .link import MAX_MEETS_TAKEN, Link
from .messages import Meet, Peers, Role

__all__ = ["Hints"]

log = logging.getLogger("carcnet.net")


class Hints:
    """A peer's hints about the others.

    Attributes:
        meetings: The ``meet``s taken and not yet acted on, oldest first (at most
            :data:`~carcnet.net.link.MAX_MEETS_TAKEN`).
    """

    def __init__(self) -> None:
        self.meetings: deque[Meet] = deque(maxlen=MAX_MEETS_TAKEN)

    @staticmethod
    def tell(role: Role, connections: Connections) -> None:
        """wire.md §4.10: a player tells the spectators it serves and the players at the table where
        the players listen now (after its address book learned something), so that a spectator that
        came in before they sat down can fail over to them, and two players who sat down at once
        learn each other."""
        if role != "player":
            return
        for link in connections.open_links():
            if link.key is not None and (link.role == "spectator" or connections.at_table(link.key)):
                link.send(Peers(peers=connections.addresses.welcome_list(link.key)))

    @staticmethod
    def take_peers(link: Link, peers: Peers, *, role: Role, host: bytes | None, connections: Connections) -> None:
        """wire.md §4.10: where the sender says the players listen: hints for the address book, as a
        welcome's ``peers`` are. A spectator dials them only when it has lost its links; a player takes
        them only from a player proven at the table or *host*, the host it sat down with, the first
        few on a connection (:func:`~carcnet.net.connections.takes_peers`)."""
        if role != "spectator" and not takes_peers(connections, link, host):
            return
        for info in peers.peers:
            connections.add_known(info)

    def take_meet(self, link: Link, meet: Meet, *, role: Role, connections: Connections) -> bool:
        """wire.md §4.12: takes *meet*, which came on *link*, when this peer is a player and the sender
        a player proven at the table (:meth:`~carcnet.net.connections.Connections.at_table`), within
        the first :data:`~carcnet.net.link.MAX_MEETS_TAKEN` on the connection; returns whether it did.
        Anything else is dropped (logged): nothing is owed for it."""
        key = link.key
        if (role != "player" or key is None or link.role == "spectator" or not connections.at_table(key)
                or link.meets_taken >= MAX_MEETS_TAKEN):
            log.info("a meet from %s is not taken", link.name)
            return False
        link.meets_taken += 1
        self.meetings.append(meet)
        return True
