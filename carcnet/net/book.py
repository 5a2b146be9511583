"""Provides :class:`AddressBook`: where the player peers of a game listen, as one peer knows it,
without I/O (``protocol/wire.md`` §4.2 "The address book").

An address is *confirmed* when its key proved itself there to this peer (wire.md §3.4: it dialled
the address and the key answered, or the key dialled this peer from that address and said on which
port it listens); anything else (mDNS, another peer's ``welcome``) is a *hint*. A hint never
replaces a confirmed address; the book holds at most :data:`MAX_BOOK` keys (a hint finds no room
when full; a confirmed address takes a hint's place); only confirmed addresses are passed on in
this peer's welcomes.
"""

from __future__ import annotations


from .messages import MAX_PEERS, PeerInfo

__all__ = ["MAX_BOOK", "AddressBook"]

#: Addresses a book holds at most (wire.md §4.2): as many as a welcome lists.
MAX_BOOK = MAX_PEERS


class AddressBook:
    """Identity key → where that player peer listens, and which of those addresses are confirmed.

    Args:
        own_key: This peer's identity key (never booked).

    Attributes:
        entries: Identity key → :class:`~carcnet.net.messages.PeerInfo`, in the order learned.
        confirmed: The keys of :attr:`entries` whose address is confirmed.
    """

    def __init__(self, own_key: bytes) -> None:
        self.own_key = own_key
        self.entries: dict[bytes, PeerInfo] = {}
        self.confirmed: set[bytes] = set()

    def add(self, info: PeerInfo, *, confirmed: bool = False) -> bool:
        """Records where *info*'s key listens, *confirmed* or as a hint (rules above). Returns
        whether the book says something new about the key (a new key or a new address)."""
        key = info.key
        if key == self.own_key:
            return False
        if not confirmed and key in self.confirmed:
            return False
        if key not in self.entries and len(self.entries) >= MAX_BOOK:
            hints = [k for k in self.entries if k not in self.confirmed]
            if not confirmed or not hints:
                return False
            del self.entries[hints[0]]
        new = self.entries.get(key) != info
        self.entries[key] = info
        if confirmed:
            self.confirmed.add(key)
        return new

    def forget(self, address: tuple[str, int]) -> None:
        """Drops the hints at *address* (``(host, port)``): it never answered, or another key answered
        there. They are neither dialled nor passed on any more."""
        for key, info in list(self.entries.items()):
            if (info.addr, info.port) == address and key not in self.confirmed:
                del self.entries[key]

    def is_confirmed(self, address: tuple[str, int]) -> bool:
        """Whether some key's confirmed address is *address*."""
        return any((info.addr, info.port) == address and key in self.confirmed for key, info in self.entries.items())

    def welcome_list(self, exclude: bytes) -> tuple[PeerInfo, ...]:
        """The ``peers`` of a welcome to the peer of key *exclude* (wire.md §4.2): the confirmed
        addresses, at most :data:`~carcnet.net.messages.MAX_PEERS`. A dialler checks the key it reaches
        (§3.4), so a listed address proves nothing by itself."""
        infos = [info for key, info in self.entries.items() if key != exclude and key in self.confirmed]
        return tuple(infos[:MAX_PEERS])
