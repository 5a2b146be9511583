"""One connection as a replica sees it, as tables of cases (protocol/wire.md §2.2, §5.5): the byte stream
cut into whole frames handed on one by one, a byte-for-byte repeat of an ``entries`` frame whose
entries the owner holds skipped without being decoded (from a player, once the connection is open), a
bad length handing the rest on for the connection to refuse, nothing read after a frame that closed the
connection. Values in, values out: connections opened by hand in memory, an owner that notes what it
is handed, no sockets."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from carcnet.engine import Game
from carcnet.log import LogEntry
from carcnet.net import (
    Bye,
    Entries,
    Heartbeat,
    Hello,
    PeerConnection,
    SignedEntry,
    State,
    Welcome,
    encode_message,
)
from carcnet.net.framing import SMALL_FRAME
from carcnet.net.link import Link, SeenFrames
from carcnet.net.messages import Role

from .loopback import GAME, identity, make_header, sign

HEADER = make_header(2, order=tuple("EUVK"))


def first_entries(count: int) -> tuple[SignedEntry, ...]:
    game = Game(HEADER.header.setup())
    out = []
    for _ in range(count):
        seat, _signer = game.author(move := game.legal_moves()[0])
        game.apply(move)
        out.append(sign(LogEntry(len(game.moves), seat, move, game.digest)))
    return tuple(out)


ENTRIES = first_entries(2)
#: An ``entries`` frame of seq 1, one of seqs 1–2, a heartbeat, a bye.
E1 = encode_message(Entries(from_seq=1, entries=ENTRIES[:1]))
E12 = encode_message(Entries(from_seq=1, entries=ENTRIES))
HB = encode_message(Heartbeat(have=0, digest=HEADER.header.digest))
BYE = encode_message(Bye(reason="quit"))
#: A frame length of 0 (``bad-frame``) and one beyond the limit before a seated player is proven
#: (``too-large``).
ZERO = bytes(4)
HUGE = (SMALL_FRAME + 1).to_bytes(4, "big")


class Owner:
    """A :class:`~carcnet.net.link.LinkOwner` that notes what it is handed. *held*: frames whose entries
    it takes, with the last seq each carries (it tells the link, as the session does); *closing*: frames
    it gives the connection to read (a ``bye`` closes it)."""

    def __init__(self, held: Mapping[bytes, int] = {}, closing: tuple[bytes, ...] = ()) -> None:
        self.held = dict(held)
        self.closing = closing
        self.received: list[bytes] = []
        self.beats: list[Link] = []
        self.timeouts: list[tuple[Link, str]] = []

    def receive(self, link: Link, data: bytes) -> None:
        self.received.append(data)
        if data in self.held:
            link.held_upto(self.held[data])
        if data in self.closing:
            link.conn.receive_data(data)

    def send_heartbeat(self, link: Link) -> None:
        self.beats.append(link)

    def time_out(self, link: Link, what: str) -> None:
        self.timeouts.append((link, what))


def connections(role: Role = "player", *, proven: bool = True) -> tuple[PeerConnection, PeerConnection]:
    """Ann (the peer, of *role*) dials Bob (this side); the handshake done, or waiting for Ann's proof
    unless *proven*. Returns (Ann's connection, Bob's)."""
    ann, bob = identity("Ann"), identity("Bob")
    theirs = PeerConnection(game=GAME, initiator=True, identity=ann)
    ours = PeerConnection(game=GAME, initiator=False, identity=bob)
    ours.receive_data(theirs.send(Hello(game=GAME, role=role, name="Ann", key=ann.public)))
    theirs.receive_data(ours.send(Welcome(game=GAME, role="player", name="Bob", key=bob.public)))
    if proven:
        ours.receive_data(theirs.data_to_send())
        assert ours.state is State.OPEN
    else:
        assert ours.state is State.AWAIT_PROOF
    return theirs, ours


def link(owner: Owner, role: Role = "player", *, proven: bool = True, seen: SeenFrames | None = None) -> Link:
    _, ours = connections(role, proven=proven)
    seen = seen if seen is not None else SeenFrames()
    return Link(owner, ours, None, seen=seen, own_key=identity("Bob").public)


# ---------------------------------------------------------------------- receive_data

#: (reads, in order; frames the owner holds → last seq; the peer's role; whether the handshake is done;
#:  what the owner is handed, in order; the peer's have as the link knows it)
RECEIVE = [
    pytest.param([E1], {}, "player", True, [E1], 0, id="a whole frame is handed on"),
    pytest.param([E1[:3], E1[3:9], E1[9:]], {}, "player", True, [E1], 0,
                 id="a frame in pieces is handed on once whole"),
    pytest.param([E1 + HB], {}, "player", True, [E1, HB], 0, id="two frames in one read, one by one"),
    pytest.param([E1 + HB[:5], HB[5:]], {}, "player", True, [E1, HB], 0,
                 id="a frame and the start of the next"),
    pytest.param([E1, E1], {E1: 1}, "player", True, [E1], 1, id="a repeat of a frame held is skipped"),
    pytest.param([E1, E1[:7], E1[7:]], {E1: 1}, "player", True, [E1], 1, id="a repeat in pieces is skipped"),
    pytest.param([E1, HB + E1 + HB], {E1: 1}, "player", True, [E1, HB, HB], 1,
                 id="a repeat between other frames is skipped"),
    pytest.param([E12, E1], {E12: 2}, "player", True, [E12, E1], 0,
                 id="other bytes for the same entries are decoded"),
    pytest.param([E1, E1], {}, "player", True, [E1, E1], 0,
                 id="a repeat of a frame not held is handed on again"),
    pytest.param([HB, HB], {}, "player", True, [HB, HB], 0, id="a repeated heartbeat is handed on"),
    pytest.param([E1, E1], {E1: 1}, "spectator", True, [E1, E1], 0,
                 id="a spectator's repeat is handed on to be refused"),
    pytest.param([E1, E1], {E1: 1}, "player", False, [E1, E1], 0, id="nothing is skipped before the proof"),
    pytest.param([E1 + ZERO + HB, HB], {}, "player", True, [E1, ZERO + HB, HB], 0,
                 id="a length of 0 hands on the rest, and all that follows"),
    pytest.param([HUGE + b"\x81", HB], {}, "player", True, [HUGE + b"\x81", HB], 0,
                 id="a length beyond the limit hands on the rest, and all that follows"),
    pytest.param([ZERO[:2], ZERO[2:], E1], {E1: 1}, "player", True, [ZERO, E1], 0,
                 id="a bad length in pieces, then nothing is cut or skipped"),
    pytest.param([E1[:5], b""], {}, "player", True, [E1[:5], b""], 0,
                 id="the end of the stream hands on what is pending, then the end"),
    pytest.param([b""], {}, "player", True, [b""], 0, id="the end of the stream alone"),
    pytest.param([BYE + E1], {}, "player", True, [BYE], 0,
                 id="nothing is handed on after a frame that closed"),
]


@pytest.mark.parametrize(("reads", "held", "role", "proven", "handed", "peer_have"), RECEIVE)
def test_receive_data(reads, held, role, proven, handed, peer_have):
    owner = Owner(held, closing=(BYE,))
    lk = link(owner, role, proven=proven)
    for data in reads:
        lk.receive_data(data)
    assert owner.received == handed
    assert lk.peer_have == peer_have
    assert lk.buffered == 0  # nothing is left waiting in the link


#: (reads, bytes left waiting for the rest of a frame)
BUFFERED = [
    pytest.param([E1[:3]], 3, id="a piece of the length"),
    pytest.param([E1[:9]], 9, id="the length and a piece of the body"),
    pytest.param([E1 + HB[:5]], 5, id="a whole frame and a piece of the next"),
    pytest.param([E1], 0, id="whole frames only"),
]


@pytest.mark.parametrize(("reads", "waiting"), BUFFERED)
def test_buffered(reads, waiting):
    owner = Owner()
    lk = link(owner)
    for data in reads:
        lk.receive_data(data)
    assert lk.buffered == waiting


def test_a_frame_held_through_one_link_is_skipped_on_another():
    """In a mesh every entry arrives from its author and again from each relay: the same bytes (frames
    are canonical, wire.md §2.2), skipped on every link that shares the session's SeenFrames."""
    seen = SeenFrames()
    owner = Owner({E12: 2})
    author, relay = link(owner, seen=seen), link(owner, seen=seen)
    author.receive_data(E12)
    relay.receive_data(E12)
    assert owner.received == [E12] and relay.peer_have == 2 and author.peer_have == 0
    relay.peer_holds(5)  # the relay is ahead: a repeat never lowers what it holds
    relay.receive_data(E12)
    assert relay.peer_have == 5 and owner.received == [E12]


# ---------------------------------------------------------------------- SeenFrames

#: (size, frames added in order with their last seq, frame asked for, what get gives)
SEEN = [
    pytest.param(2, [(E1, 1)], E1, 1, id="a frame added"),
    pytest.param(2, [(E1, 1)], E12, None, id="a frame never added"),
    pytest.param(2, [(E1, 1), (E12, 2)], E1, 1, id="as many frames as the size"),
    pytest.param(2, [(E1, 1), (E12, 2), (HB, 3)], E1, None, id="the oldest is forgotten beyond the size"),
    pytest.param(2, [(E1, 1), (E12, 2), (HB, 3)], HB, 3, id="the newest is kept"),
    pytest.param(2, [(E1, 1), (E1, 4)], E1, 4, id="a frame added again says the later seq"),
]


@pytest.mark.parametrize(("size", "added", "asked", "upto"), SEEN)
def test_seen_frames(size, added, asked, upto):
    seen = SeenFrames(size)
    for frame, seq in added:
        seen.add(frame, seq)
    assert seen.get(asked) == upto


def test_seen_frames_remember_512_frames_by_default():
    seen = SeenFrames()
    for seq in range(513):
        seen.add(seq.to_bytes(4, "big"), seq)
    assert seen.get((0).to_bytes(4, "big")) is None and seen.get((1).to_bytes(4, "big")) == 1


# ---------------------------------------------------------------------- sending, and what the link passes on


def test_the_connections_own_proof_goes_before_a_message_sent_and_wakes_the_transport():
    ann, bob = identity("Ann"), identity("Bob")
    ours = PeerConnection(game=GAME, initiator=True, identity=ann)
    theirs = PeerConnection(game=GAME, initiator=False, identity=bob)
    theirs.receive_data(ours.send(Hello(game=GAME, role="player", name="Ann", key=ann.public)))
    ours.receive_data(theirs.send(Welcome(game=GAME, role="player", name="Bob", key=bob.public)))
    lk = Link(Owner(), ours, ("192.168.1.20", 40123), seen=SeenFrames(), own_key=ann.public)
    woken = []
    lk.set_waker(lambda: woken.append(True))
    assert lk.send(Heartbeat(have=0, digest=HEADER.header.digest))
    data = lk.data_to_send()
    proof_end = 4 + int.from_bytes(data[:4], "big")
    assert data[proof_end:] == HB and woken == [True]
    theirs.receive_data(data[:proof_end])
    assert theirs.state is State.OPEN  # the first bytes were the proof
    assert lk.data_to_send() == b""
    assert lk.connector_key == ann.public  # this side dialled


#: (what is done to the link, what the owner is asked for)
PASSED_ON = [
    pytest.param("heartbeat", ("beat", None), id="nothing sent for a while: a heartbeat"),
    pytest.param("time_out", ("timeout", "frame"), id="a timer ran out"),
]


@pytest.mark.parametrize(("action", "asked"), PASSED_ON)
def test_timers_are_passed_to_the_owner(action, asked):
    owner = Owner()
    lk = link(owner)
    if action == "heartbeat":
        lk.heartbeat()
    else:
        lk.time_out("frame")
    kind, what = asked
    assert owner.beats == ([lk] if kind == "beat" else [])
    assert owner.timeouts == ([(lk, what)] if kind == "timeout" else [])


def test_nothing_is_sent_on_a_closed_link():
    owner = Owner(closing=(BYE,))
    lk = link(owner)
    lk.receive_data(BYE)
    assert lk.closed and lk.send(Heartbeat(have=0, digest=HEADER.header.digest)) is False
    assert lk.data_to_send() == b""
    assert lk.connector_key == identity("Ann").public  # the peer dialled this side


# ---------------------------------------------------------------------- what the peer holds

#: (what this side learns of the peer's log, in order, as peer_holds' arguments; then what the link says
#:  the peer holds: peer_have, peer_has_header, parted)
HOLDS = [
    pytest.param([((5,), {})], (5, False, 0), id="entries either way: at least"),
    pytest.param([((5,), {}), ((3,), {})], (5, False, 0), id="a late word never lowers it"),
    pytest.param([((5,), {}), ((3, "exactly"), {})], (3, False, 0), id="its want from 4: exactly, lower"),
    pytest.param([((3,), {}), ((7, "exactly"), {})], (7, False, 0), id="its handshake: exactly, higher"),
    pytest.param([((5,), {}), ((2, "at-most"), {})], (2, False, 0), id="a draw taken back after 2: at most"),
    pytest.param([((1,), {}), ((4, "at-most"), {})], (1, False, 0), id="entries set aside after 4: never raises"),
    pytest.param([((), {"header": True}), ((), {"header": False})], (0, True, 0), id="a header once held stays"),
    pytest.param([((4, "exactly"), {"header": True, "parted": 5})], (4, True, 5), id="its digest differs at 5"),
    pytest.param([((), {"parted": 5}), ((6,), {}), ((), {"parted": 0})], (6, False, 0), id="it took our branch"),
]


@pytest.mark.parametrize(("learned", "holds"), HOLDS)
def test_what_the_peer_holds_changes_by_one_rule(learned, holds):
    """wire.md §5.5 "Relaying" rests on what a link's peer holds: it changes only through
    :meth:`Link.peer_holds`, whose *held* says how a seq bounds it."""
    lk = link(Owner())
    for args, kwargs in learned:
        lk.peer_holds(*args, **kwargs)
    assert (lk.peer_have, lk.peer_has_header, lk.parted) == holds


@pytest.mark.parametrize("name", ["peer_have", "peer_has_header", "parted"])
def test_what_the_peer_holds_has_one_owner(name):
    """Nothing sets what the peer holds but :meth:`Link.peer_holds` (it was raised or lowered in place
    across the router, the connections and the link, each place with a rule of its own)."""
    lk = link(Owner())
    with pytest.raises(AttributeError):
        setattr(lk, name, 1)
