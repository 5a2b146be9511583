"""The address book of one peer, as a table of cases (protocol/wire.md §4.2 "The address book"): a hint
never replaces a confirmed address, the book holds at most MAX_BOOK keys (a hint finds no room when it
is full, a confirmed address takes the oldest hint's place), forgetting drops hints only, and welcomes
pass on confirmed addresses and the handshakes under way, never hints. Values in, values out: no
session, no sockets."""

from __future__ import annotations

import pytest

from carcnet.net import PeerInfo
from carcnet.net.book import MAX_BOOK, AddressBook
from carcnet.net.messages import MAX_PEERS

from .loopback import identity

OWN = "Own"
HOST = "192.168.1.10"


def key(name: str) -> bytes:
    return identity(name).public


def info(name: str, port: int = 40000, addr: str = HOST) -> PeerInfo:
    return PeerInfo(key(name), name, addr, port)


def book_of(*, sure: int = 0, hints: int = 0) -> AddressBook:
    """A book holding *sure* confirmed addresses (``Sure0``…) learned first, then *hints* hints
    (``Hint0``…), each at its own port."""
    book = AddressBook(key(OWN))
    for i in range(sure):
        assert book.add(info(f"Sure{i}", 41000 + i), confirmed=True)
    for i in range(hints):
        assert book.add(info(f"Hint{i}", 42000 + i))
    return book


def test_the_book_holds_as_many_addresses_as_a_welcome_lists():
    assert MAX_BOOK == MAX_PEERS == 32  # wire.md §4.2: "at most 32 addresses", "0 to 32 other peers"


# ---------------------------------------------------------------------- add: one key at a time

#: (steps: (name, port, confirmed, what add returns), name → port booked afterwards, names confirmed)
ADD = [
    pytest.param([(OWN, 1, False, False)], {}, set(), id="own key as a hint is never booked"),
    pytest.param([(OWN, 1, True, False)], {}, set(), id="own key confirmed is never booked"),
    pytest.param([("Ann", 1, False, True)], {"Ann": 1}, set(), id="a new hint is booked unconfirmed"),
    pytest.param([("Ann", 1, True, True)], {"Ann": 1}, {"Ann"},
                 id="a new confirmed address is booked confirmed"),
    pytest.param([("Ann", 1, False, True), ("Ann", 1, False, False)], {"Ann": 1}, set(),
                 id="the same hint twice says nothing new"),
    pytest.param([("Ann", 1, False, True), ("Ann", 2, False, True)], {"Ann": 2}, set(),
                 id="a hint moves a hint"),
    pytest.param([("Ann", 1, True, True), ("Ann", 2, False, False)], {"Ann": 1}, {"Ann"},
                 id="a hint never replaces a confirmed address"),
    pytest.param([("Ann", 1, True, True), ("Ann", 1, False, False)], {"Ann": 1}, {"Ann"},
                 id="a hint of the confirmed address leaves it confirmed"),
    pytest.param([("Ann", 1, False, True), ("Ann", 2, True, True)], {"Ann": 2}, {"Ann"},
                 id="a confirmed address replaces a hint"),
    pytest.param([("Ann", 1, False, True), ("Ann", 1, True, False)], {"Ann": 1}, {"Ann"},
                 id="confirming the hinted address confirms it and is nothing new"),
    pytest.param([("Ann", 1, True, True), ("Ann", 2, True, True)], {"Ann": 2}, {"Ann"},
                 id="a confirmed address moves where the key proved itself again"),
    pytest.param([("Ann", 1, True, True), ("Ann", 1, True, False)], {"Ann": 1}, {"Ann"},
                 id="the same confirmed address twice says nothing new"),
    pytest.param([("Ann", 1, True, True), ("Bob", 1, False, True)], {"Ann": 1, "Bob": 1}, {"Ann"},
                 id="another key's hint at a confirmed address is booked as a hint"),
]


@pytest.mark.parametrize(("steps", "booked", "confirmed"), ADD)
def test_add(steps, booked, confirmed):
    book = AddressBook(key(OWN))
    said = [book.add(info(name, port), confirmed=sure) for name, port, sure, _ in steps]
    assert said == [new for *_, new in steps]
    assert {k: i.port for k, i in book.entries.items()} == {key(n): p for n, p in booked.items()}
    assert book.confirmed == {key(n) for n in confirmed}


# ---------------------------------------------------------------------- add to a full book

#: (confirmed addresses held, hints held, the newcomer: (name, port, confirmed), what add returns,
#:  whether the newcomer is booked, the name dropped to make room or None)
FULL = [
    pytest.param(0, MAX_BOOK - 1, ("New", 1, False), True, True, None, id="the last room takes a hint"),
    pytest.param(0, MAX_BOOK, ("New", 1, False), False, False, None, id="a full book has no room for a hint"),
    pytest.param(MAX_BOOK, 0, ("New", 1, False), False, False, None,
                 id="a book full of confirmed addresses has no room for a hint"),
    pytest.param(0, MAX_BOOK, ("New", 1, True), True, True, "Hint0",
                 id="a confirmed address takes the oldest hint's place"),
    pytest.param(3, MAX_BOOK - 3, ("New", 1, True), True, True, "Hint0",
                 id="the hint dropped is the oldest hint, not the oldest entry"),
    pytest.param(MAX_BOOK, 0, ("New", 1, True), False, False, None,
                 id="a confirmed address never takes another confirmed address's place"),
    pytest.param(0, MAX_BOOK, ("Hint5", 7, False), True, True, None,
                 id="a booked hint may move in a full book"),
    pytest.param(0, MAX_BOOK, ("Hint5", 7, True), True, True, None,
                 id="a booked hint may be confirmed in a full book"),
    pytest.param(MAX_BOOK, 0, ("Sure5", 7, True), True, True, None,
                 id="a confirmed address may move in a full book"),
]


@pytest.mark.parametrize(("sure", "hints", "newcomer", "said", "booked", "dropped"), FULL)
def test_add_to_a_full_book(sure, hints, newcomer, said, booked, dropped):
    book = book_of(sure=sure, hints=hints)
    before = set(book.entries)
    name, port, confirmed = newcomer
    assert book.add(info(name, port), confirmed=confirmed) is said
    assert len(book.entries) <= MAX_BOOK
    assert (book.entries.get(key(name)) == info(name, port)) is booked
    was_confirmed = name.startswith("Sure")
    assert (key(name) in book.confirmed) is (booked and confirmed or was_confirmed)
    gone = before - set(book.entries)
    assert gone == ({key(dropped)} if dropped else set())
    assert not gone & book.confirmed


# ---------------------------------------------------------------------- forget, is_confirmed

A, B = "192.168.1.10", "192.168.1.20"


def mixed_book() -> AddressBook:
    """Ann (hint) and Bob (confirmed) at A:1, Cleo (hint) at A:2, Dan (hint) at B:1, Eve (confirmed) at
    B:2."""
    book = AddressBook(key(OWN))
    book.add(info("Ann", 1, A))
    book.add(info("Bob", 1, A), confirmed=True)
    book.add(info("Cleo", 2, A))
    book.add(info("Dan", 1, B))
    book.add(info("Eve", 2, B), confirmed=True)
    return book


#: (address forgotten, names still booked)
FORGET = [
    pytest.param((A, 1), ["Bob", "Cleo", "Dan", "Eve"],
                 id="the hint goes and the confirmed address there stays"),
    pytest.param((A, 2), ["Ann", "Bob", "Dan", "Eve"], id="only the hints at that port go"),
    pytest.param((B, 1), ["Ann", "Bob", "Cleo", "Eve"], id="only the hints at that host go"),
    pytest.param((B, 2), ["Ann", "Bob", "Cleo", "Dan", "Eve"], id="a confirmed address is never forgotten"),
    pytest.param(("10.0.0.1", 1), ["Ann", "Bob", "Cleo", "Dan", "Eve"], id="an address nobody holds"),
]


@pytest.mark.parametrize(("address", "left"), FORGET)
def test_forget(address, left):
    book = mixed_book()
    book.forget(address)
    assert list(book.entries) == [key(n) for n in left]
    assert book.confirmed == {key("Bob"), key("Eve")}


#: (address, whether some key's confirmed address is there)
CONFIRMED = [
    pytest.param((A, 1), True, id="a confirmed key shares the address with a hint"),
    pytest.param((A, 2), False, id="a hint's address"),
    pytest.param((B, 2), True, id="a confirmed address alone"),
    pytest.param((B, 3), False, id="the right host at another port"),
    pytest.param(("10.0.0.1", 2), False, id="the right port at another host"),
]


@pytest.mark.parametrize(("address", "confirmed"), CONFIRMED)
def test_is_confirmed(address, confirmed):
    assert mixed_book().is_confirmed(address) is confirmed


# ---------------------------------------------------------------------- welcome_list

#: (peer welcomed, names listed in order)
WELCOME = [
    pytest.param("Zed", ["Bob", "Eve"], id="confirmed addresses only, never hints"),
    pytest.param("Bob", ["Eve"], id="never the peer welcomed itself"),
]


@pytest.mark.parametrize(("exclude", "listed"), WELCOME)
def test_welcome_list(exclude, listed):
    book = mixed_book()
    assert [p.key for p in book.welcome_list(key(exclude))] == [key(n) for n in listed]


@pytest.mark.parametrize(("sure", "exclude", "count"), [(MAX_BOOK, "Zed", MAX_PEERS), (MAX_BOOK, "Sure0", MAX_PEERS - 1)])
def test_welcome_list_is_bounded(sure, exclude, count):
    book = book_of(sure=sure)
    listed = book.welcome_list(key(exclude))
    assert len(listed) == min(count, MAX_PEERS)
    sure_keys = [k for k in book.entries if k != key(exclude)]
    assert [p.key for p in listed] == sure_keys[:count]
