"""Replication on loopback (protocol/wire.md §5.4–5.5, issue 5 items 4, 6, 9): bot games across player
peers, spectators, late joiners, the opener leaving, every kind of bad input sent to a running peer, and
the desync stop. Plus the sans-I/O session wired in memory."""

from __future__ import annotations

import asyncio
import dataclasses
import struct

import pytest

from carcnet.bots import make_bot
from carcnet.engine import Game, IllegalMoveError, PlaceTile, Position
from carcnet.log import LogEntry, LogHeader
from carcnet.net import (
    PROTO_VERSION,
    Ack,
    Bye,
    Claim,
    Entries,
    Error,
    Heartbeat,
    Hello,
    PeerConnection,
    Proof,
    Reject,
    SignedEntry,
    Start,
    Want,
    Welcome,
    WireHeader,
    decode_message,
    encode_frame,
    encode_message,
    sign_proof,
)
from carcnet.net.signing import verify_ack
from carcnet.net.sync import MemoryLog, SyncError, SyncSession

from .loopback import (
    GAME,
    LoopbackGame,
    MemoryWire,
    RawClient,
    all_over,
    assert_identical,
    identity,
    make_header,
    refusals,
    seat_key,
    sign,
    until,
)

# ---------------------------------------------------------------------- whole games


@pytest.mark.asyncio
@pytest.mark.parametrize("players", [3, 5])
async def test_a_bot_game_across_player_peers_ends_identical_everywhere(players):
    async with LoopbackGame(make_header(players)) as table:
        peers = []
        for i in range(players):
            peers.append(await table.player(f"P{i}", [i], dial=peers))
        await all_over(peers)
        assert_identical(peers)
        assert peers[0].session.have > 100
        for peer in peers:  # a full mesh, and nobody refused anything
            assert len(peer.session.connections.open_links()) == players - 1
            assert refusals(peer) == []
            assert peer.session.replica.persistence.entries == peer.session.entries  # saved as it grew


@pytest.mark.asyncio
async def test_spectators_watch_from_the_start_and_from_halfway():
    async with LoopbackGame(make_header(3)) as table:
        a = await table.player("Ann", [0])
        b = await table.player("Bob", [1], dial=[a])
        c = await table.player("Cleo", [2], dial=[a, b])
        early = [await table.spectator(f"Early{i}", dial=[(a, b, c)[i]]) for i in range(3)]
        await until([a], lambda: a.session.have >= 60)
        late = await table.spectator("Late", dial=[b])  # no header yet: it comes with the welcome
        await until([late], lambda: late.session.have >= 60)
        await all_over([a, b, c, late, *early])
        assert_identical([a, b, c, late, *early])
        assert late.session.header == a.session.header
        # spectators authored nothing and relayed nothing; players never dialed them
        for s in [late, *early]:
            assert s.session.seats == {} and [lk.role for lk in s.session.connections.open_links()] == ["player"]
        assert not any(e.kind == "sent" for p in (a, b, c) for e in p.session.connections.events)


@pytest.mark.asyncio
async def test_a_late_player_catches_up_and_finds_the_others_through_the_welcome():
    async with LoopbackGame(make_header(3)) as table:
        a = await table.player("Ann", [0, 2])  # Ann plays seat 2 until Cleo arrives
        b = await table.player("Bob", [1], dial=[a])
        await until([a], lambda: a.session.have >= 40)
        a.driver.set_bot(2, None)
        a.session.drop_seat(2)
        await until([a, b], lambda: a.session.to_play == 2 and b.session.have == a.session.have)
        waiting = a.session.have
        c = await table.player("Cleo", [2], dial=[b])  # knows Bob only; Bob's welcome names Ann
        await until([c], lambda: c.session.have >= waiting)
        await all_over([a, b, c])
        assert_identical([a, b, c])
        assert {lk.name for lk in c.session.connections.open_links()} == {"Ann", "Bob"}
        assert c.session.entries[waiting].entry.seat == 2  # the first move after joining is Cleo's


@pytest.mark.asyncio
async def test_the_table_survives_the_opener_leaving_and_coming_back():
    async with LoopbackGame(make_header(3)) as table:
        store = MemoryLog()
        a = await table.player("Ann", [0], store=store)  # the opener: everyone dialed her
        b = await table.player("Bob", [1], dial=[a])
        c = await table.player("Cleo", [2], dial=[a, b])
        await until([a], lambda: a.session.have >= 30 and a.session.to_play == 1)
        left_at = a.session.have
        await a.aclose()
        assert a.session.connections.links == []
        # Bob and Cleo go on between themselves until it is Ann's turn again
        await until([b, c], lambda: b.session.to_play == 0 and c.session.have == b.session.have)
        assert b.session.have > left_at
        assert [lk.name for lk in b.session.connections.open_links()] == ["Cleo"]
        assert ("received", "quit") in [(e.kind, e.code) for e in b.session.connections.events]
        # Ann comes back with what she saved, dials Cleo only and learns Bob's address from Cleo
        back = await table.player("Ann", [0], dial=[c], entries=list(store.entries))
        await all_over([back, b, c])
        assert_identical([back, b, c])
        assert {lk.name for lk in back.session.connections.open_links()} == {"Bob", "Cleo"}


# ---------------------------------------------------------------------- bad input


async def refused_with(address, frames: list[bytes], *, hello: str | None = "Mallory", role: str = "player"):
    """Connects, optionally says hello, sends *frames*; returns the refusal and whether it closed."""
    raw = await RawClient.open(address)
    try:
        if hello is not None:
            await raw.hello(hello, role=role)
        for frame in frames:
            await raw.send_raw(frame)
        answer = await raw.refusal()
        return answer, await raw.closed()
    finally:
        await raw.aclose()


def entries_frame(*signed: SignedEntry) -> bytes:
    return encode_message(Entries(from_seq=signed[0].seq, entries=signed))


#: Input that is bad whatever the game's state: frames, and the code each is refused with.
STATELESS = [
    ([struct.pack(">I", (1 << 20) + 1)], "too-large"),
    ([struct.pack(">I", 1) + b"\xc1"], "bad-frame"),  # 0xc1 is never valid msgpack
    ([struct.pack(">I", 0)], "bad-frame"),
    ([encode_frame({"type": "gossip", "text": "hi"})], "unknown-message"),
    ([encode_frame({"text": "no type"})], "unknown-message"),
    ([encode_frame({"type": "want", "from": 0})], "bad-message"),
    ([encode_frame({"type": "hello"})], "bad-message"),
]


async def stateless_bad_input(address) -> None:
    for frames, code in STATELESS:
        answer, closed = await refused_with(address, frames)
        assert (type(answer), answer.code, closed) == (Error, code, True), frames
    # another protocol version: refused in the handshake
    old = Hello(proto=PROTO_VERSION - 1, game=GAME, role="player", name="Old", key=identity("Old").public)
    answer, closed = await refused_with(address, [encode_message(old)], hello=None)
    assert (type(answer), answer.code, closed) == (Reject, "bad-version", True)
    # another game: refused in the handshake
    other = Hello(game="0" * 32, role="player", name="Lost", key=identity("Lost").public)
    answer, closed = await refused_with(address, [encode_message(other)], hello=None)
    assert (type(answer), answer.code, closed) == (Reject, "wrong-game", True)


@pytest.mark.asyncio
async def test_bad_input_to_a_running_peer_is_refused_and_the_game_goes_on():
    async with LoopbackGame(make_header(3)) as table:
        a = await table.player("Ann", [0])
        b = await table.player("Bob", [1], dial=[a])
        c = await table.player("Cleo", [2], dial=[a, b])
        peers = [a, b, c]
        # Cleo's seat becomes a human's that does not move: the game waits at seat 2's turn, so that
        # entries can be aimed at the exact next seq.
        await until([a], lambda: a.session.have >= 10)
        c.driver.set_bot(2, None)
        await until(peers, lambda: a.session.to_play == 2 and len({p.session.have for p in peers}) == 1)
        have, digest, game = a.session.have, a.session.digest, a.session.game

        await stateless_bad_input(a.address)
        # a spectator may not send entries, however good they are
        answer, closed = await refused_with(
            a.address, [entries_frame(*a.session.entries[:1])], hello="Peeker", role="spectator"
        )
        assert (answer.code, closed) == ("forbidden", True)
        # a spectator's false heartbeat stops nothing: it may hold another branch (wire.md §5.9), so it
        # is passed the votes that say which entries are committed, and asks nothing more
        raw = await RawClient.open(a.address)
        try:
            await raw.hello("Liar", role="spectator")
            await raw.send(Heartbeat(have=1, digest=bytes(32)))
            while not isinstance(message := await raw.next(), Ack):
                assert not isinstance(message, Error), message
            assert 0 in {vote.seat for vote in message.votes}  # Ann's own seat's at least (others' may be due)
            keys = a.session.header.keys
            assert all(verify_ack(keys[v.seat], GAME, v.seat, v.seq, v.digest, v.sig) and v.seq <= have
                       for v in message.votes)
        finally:
            await raw.aclose()
        # lobby messages once the game has started
        claim = encode_message(Claim(seat=0, name="Late", colour="red", key=identity("Late").public))
        answer, closed = await refused_with(a.address, [claim])
        assert answer.code == "lobby-locked"  # wire.md §3.3: no table is open here (issue 13 item 10)

        seq = have + 1
        legal = game.legal_moves()[0]
        after = Game(a.session.header.header.setup())
        for signed in a.session.entries:
            after.apply(signed.entry.move)
        after.apply(legal)
        good = LogEntry(seq, 2, legal, after.digest)
        illegal = PlaceTile(game.drawn or "A", Position(50, 50), 0)  # far away, or in the deploy phase
        bad_sig = bytearray(sign(good).sig)
        bad_sig[5] ^= 0xFF
        entry_cases = [
            (SignedEntry(good, bytes(bad_sig)), "bad-signature", True),
            (sign(good, seat_key(0)), "bad-signature", True),  # seat 2's entry signed by seat 0
            (sign(dataclasses.replace(good, seat=0)), "not-your-turn", True),  # seat 0, signed by seat 0
            (sign(dataclasses.replace(good, seat=5), seat_key(0)), "not-your-turn", True),  # no seat 5
            (sign(dataclasses.replace(good, move=illegal)), "illegal-move", True),
            (sign(dataclasses.replace(good, seq=seq + 3)), "bad-seq", False),  # a gap: the link stays
        ]
        for signed, code, closes in entry_cases:
            raw = await RawClient.open(a.address)
            try:
                await raw.hello("Mallory", have=have, digest=digest)
                await raw.send_raw(entries_frame(signed))
                answer = await raw.refusal()
                assert (answer.code, answer.seq) == (code, seq if code != "bad-seq" else have + 1), signed
                if closes:
                    assert await raw.closed()
                else:  # still open: it is answered
                    await raw.send(Want(from_seq=have))
                    while not isinstance(message := await raw.next(), Entries):
                        pass
                    assert [e.seq for e in message.entries] == [have]
            finally:
                await raw.aclose()
        # a different entry for a seq held, not signed by its seat: no votes commit it (wire.md §5.9), so
        # it is ignored and stops nothing
        old = a.session.entries[4]
        forged = SignedEntry(dataclasses.replace(old.entry, digest=bytes(32)), old.sig)
        raw = await RawClient.open(a.address)
        await raw.hello("Forger", have=have, digest=digest)
        await raw.send_raw(entries_frame(*a.session.entries[:4], forged))
        await raw.send(Bye(reason="quit"))
        assert await raw.closed()
        await raw.aclose()
        assert not [e for e in a.session.connections.events if e.peer == "Forger" and e.kind == "sent"]
        # the same entries again are ignored, not refused
        raw = await RawClient.open(a.address)
        await raw.hello("Echo", have=have, digest=digest)
        await raw.send_raw(entries_frame(*a.session.entries[:3]))
        await raw.send(Bye(reason="quit"))
        assert await raw.closed()
        await raw.aclose()
        assert not [e for e in a.session.connections.events if e.peer == "Echo" and e.kind == "sent"]

        # Nothing changed: same log, no stop, the mesh intact; every refusal in Ann's own log.
        assert (a.session.have, a.session.digest, a.session.stopped) == (have, digest, False)
        assert {lk.name for lk in a.session.connections.open_links()} == {"Bob", "Cleo"}
        sent = {e.code for e in a.session.connections.events if e.kind == "sent"}
        expected = {code for _, code in STATELESS} | {code for _, code, _ in entry_cases}
        assert expected | {"bad-version", "wrong-game", "forbidden"} <= sent
        mallory = [e for e in a.session.connections.events if e.peer == "Mallory" and e.kind == "sent"]
        assert mallory and all(e.peer_key == identity("Mallory").public for e in mallory)

        # The game goes on to its end, with more bad input thrown at Bob while it runs.
        c.driver.set_bot(2, make_bot("random", 7))
        await asyncio.gather(all_over(peers), stateless_bad_input(b.address))
        assert_identical(peers)


# ---------------------------------------------------------------------- desync


async def two_seat_table(table: LoopbackGame):
    """Ann plays seat 0 with a bot; seat 1 is the test's, played through a raw connection."""
    a = await table.player("Ann", [0])
    await until([a], lambda: a.session.to_play == 1)
    raw = await RawClient.open(a.address)
    await raw.hello("Rogue")
    await raw.entries(a.session.have)
    return a, raw


def replica(session: SyncSession) -> Game:
    game = Game(session.header.header.setup())
    for signed in session.entries:
        game.apply(signed.entry.move)
    return game


@pytest.mark.asyncio
async def test_a_signed_entry_with_another_digest_stops_the_game_with_a_report():
    async with LoopbackGame(make_header(2, order=tuple("EUVKDLB"))) as table:
        a, raw = await two_seat_table(table)
        have, digest = a.session.have, a.session.digest
        move = replica(a.session).legal_moves()[0]
        bad = sign(LogEntry(have + 1, 1, move, bytes(32)))
        # alone, it may build on another branch (wire.md §5.9): the entries from our last are asked for
        await raw.send_raw(entries_frame(bad))
        while not isinstance(message := await raw.next(), Want):
            pass
        assert message.from_seq == have and not a.session.stopped
        # after the entry it builds on, it is proof that our engines part: the game stops
        await raw.send_raw(entries_frame(a.session.entries[-1], bad))
        answer = await raw.refusal()
        assert (answer.code, answer.seq) == ("desync", have + 1)
        await until([a], lambda: a.session.stopped)
        report = a.session.desync
        assert (report.code, report.seq, report.seat, report.peer, report.local) == (
            "desync",
            have + 1,
            1,
            "Rogue",
            "Ann",
        )
        assert report.peer_key == identity("Rogue").public and "Rogue" in str(report)
        # the log and the game are as before the bad entry; no more moves are taken or made
        assert (a.session.have, a.session.digest) == (have, digest)
        with pytest.raises(SyncError):
            a.session.submit(move)
        await raw.aclose()


@pytest.mark.asyncio
async def test_two_signed_entries_for_one_seq_stop_the_game_as_a_conflict():
    async with LoopbackGame(make_header(2, order=tuple("EUVKDLB"))) as table:
        a, raw = await two_seat_table(table)
        have = a.session.have
        game = replica(a.session)
        first, second = game.legal_moves()[:2]
        game.apply(first)
        entry = sign(LogEntry(have + 1, 1, first, game.digest))
        await raw.send_raw(entries_frame(entry))
        await until([a], lambda: a.session.have == have + 1)
        other = Game(a.session.header.header.setup())
        for signed in a.session.entries[:have]:
            other.apply(signed.entry.move)
        other.apply(second)
        await raw.send_raw(entries_frame(sign(LogEntry(have + 1, 1, second, other.digest))))
        answer = await raw.refusal()
        assert (answer.code, answer.seq) == ("conflict", have + 1)
        await until([a], lambda: a.session.stopped)
        report = a.session.desync
        assert (report.code, report.seq, report.seat, report.peer) == ("conflict", have + 1, 1, "Rogue")
        assert report.ours == entry and report.theirs.entry.move == second
        assert a.session.entries[-1] == entry  # the first one appended is kept
        await raw.aclose()


# ---------------------------------------------------------------------- sans-I/O: sessions in memory


SHORT = make_header(2, order=tuple("EUVKDLBJ"))


def session(name: str, seats=(), entries=(), header=SHORT, role="player", **clocks) -> SyncSession:
    """A session of game GAME named *name* (its identity from the name) holding *seats*; *clocks*:
    ``clock`` and ``wall_clock`` when the test sets the time."""
    return SyncSession(
        game=GAME,
        name=name,
        role=role,
        identity=identity(name),
        header=header,
        seats={s: seat_key(s) for s in seats},
        entries=entries,
        **clocks,
    )


def play(s: SyncSession, moves: int) -> None:
    """Plays *moves* moves of the random bots for both seats on *s* (which must hold both)."""
    bots = {seat: make_bot("random", seat) for seat in s.seats}
    for _ in range(moves):
        assert s.game is not None
        s.submit(bots[s.game.seat].choose(s.game.view()))


def test_a_newcomer_takes_the_longest_log_of_the_peers_it_meets():
    full = session("Full", seats=(0, 1))
    play(full, 9)
    short = session("Short", entries=full.entries[:4])
    newcomer = session("New")
    first = MemoryWire(newcomer, short)
    first.pump()
    assert newcomer.have == 4
    MemoryWire(newcomer, full).pump()
    assert newcomer.entries == full.entries
    assert newcomer.digest == full.digest
    # and the newcomer passes them on to the short peer it met first
    first.pump()
    assert short.entries == full.entries


def test_entries_are_relayed_and_submitted_moves_reach_everyone_in_memory():
    a, b, c = session("A", seats=(0,)), session("B", seats=(1,)), session("C")
    ab, bc = MemoryWire(b, a), MemoryWire(c, b)  # a line: A – B – C
    bot = make_bot("random", 3)
    for _ in range(6):
        s = a if a.to_play == 0 else b
        s.submit(bot.choose(s.game.view()))
        ab.pump()
        bc.pump()
    assert a.entries == b.entries == c.entries and a.have == 6


def test_a_gap_is_answered_bad_seq_and_filled_from_there():
    full = session("Full", seats=(0, 1))
    play(full, 6)
    behind = session("Behind", entries=full.entries[:2])
    wire = MemoryWire(behind, full)
    wire.pump()
    assert behind.have == 6
    # entries from too far on are answered bad-seq (the link stays), and the sender starts again there
    fresh = session("Fresh", entries=full.entries[:1])
    wire = MemoryWire(full, fresh)
    wire.b.receive_data(wire.a.data_to_send())  # Full's hello
    wire.a.receive_data(wire.b.data_to_send())  # Fresh's welcome and proof: Full sends its proof, 2..6 …
    data = wire.a.data_to_send()
    proof_end = 4 + int.from_bytes(data[:4], "big")
    assert decode_message(data[:proof_end]).TYPE == "proof"
    wire.b.receive_data(data[:proof_end])  # … the proof arrives, the entries are lost
    wire.a.peer_holds(3, "exactly")  # and Full believes Fresh holds 3
    full.submit(make_bot("random", 1).choose(full.game.view()))  # Full's next move goes out as 4..7
    wire.b.receive_data(wire.a.data_to_send())
    assert fresh.have == 1
    assert [(e.code, e.seq) for e in fresh.connections.events if e.kind == "sent"] == [("bad-seq", 2)]
    assert wire.b.is_open
    wire.pump()
    assert fresh.entries == full.entries and fresh.have == 7


def test_a_spectator_never_authors_and_a_player_submits_only_its_seats():
    s = session("Watcher", role="spectator", header=make_header(2, order=tuple("EUVK")))
    with pytest.raises(ValueError):
        s.add_seat(0, seat_key(0))
    with pytest.raises(SyncError):
        s.submit(s.game.legal_moves()[0])
    p = session("P", seats=(1,))
    with pytest.raises(SyncError):
        p.submit(p.game.legal_moves()[0])  # seat 0 is to play
    q = session("Q", seats=(0,))
    with pytest.raises(IllegalMoveError):
        q.submit(PlaceTile("E", Position(9, 9), 0))
    assert q.have == 0
    with pytest.raises(ValueError):
        session("Thief", seats=()).add_seat(0, seat_key(1))  # not seat 0's key


def test_saved_entries_are_checked_again_when_a_session_starts():
    full = session("Full", seats=(0, 1))
    play(full, 3)
    forged = SignedEntry(dataclasses.replace(full.entries[1].entry, digest=bytes(32)), full.entries[1].sig)
    with pytest.raises(ValueError, match="saved entry 2"):
        session("Again", entries=[full.entries[0], forged])


def test_a_repeated_entries_frame_is_skipped_for_players_and_refused_for_spectators():
    author = session("Author", seats=(0, 1))
    relay = session("Relay")
    watcher = session("Watcher", role="spectator")
    to_relay = MemoryWire(relay, author)
    to_relay.pump()
    to_watcher = MemoryWire(watcher, relay)
    to_watcher.pump()
    author.submit(author.game.legal_moves()[0])
    sent = to_relay.b.data_to_send()  # the author's frame for seq 1, then its seats' votes
    frame = sent[: 4 + int.from_bytes(sent[:4], "big")]
    decoded = []
    original = to_relay.a.conn.receive_data
    to_relay.a.conn.receive_data = lambda data: decoded.append(data) or original(data)
    to_relay.a.receive_data(frame)
    to_relay.a.receive_data(frame[:7])  # the same frame again, in two pieces (a relay's copy)
    to_relay.a.receive_data(frame[7:])
    assert relay.have == 1 and decoded == [frame]  # decoded once; the repeat was known by its bytes
    assert to_relay.a.peer_have == 1 and not [e for e in relay.connections.events if e.kind == "sent"]
    # the spectator received it from the relay; the same bytes from a spectator are refused all the same
    to_watcher.pump()
    assert watcher.have == 1
    to_watcher.b.receive_data(frame)
    assert [e.code for e in relay.connections.events if e.kind == "sent"] == ["forbidden"]
    assert to_watcher.b.closed and relay.have == 1


def test_a_start_brings_the_header_to_a_watcher_and_a_second_start_is_refused():
    """wire.md §3.3, §4.6: a second start of the header the watcher holds is skipped (the host and a player
    may both pass it on); one of another header is refused ``unexpected-message``."""
    keys = tuple(seat_key(i).public for i in range(2))
    roots = (b"\x01" * 32, b"\x02" * 32)  # chain roots (wire.md §5.3)
    agreed = WireHeader.of(LogHeader.new(SHORT.header.seats, keys=keys, commits=roots, created=0, game=GAME))
    watcher = SyncSession(game=GAME, name="Watcher", role="spectator", identity=identity("Watcher"))
    link = watcher.connect_link()
    host = PeerConnection(game=GAME, initiator=False, identity=identity("Host"))  # a host played by hand
    host.receive_data(link.data_to_send())
    link.receive_data(host.send(Welcome(game=GAME, role="host", name="Host", key=identity("Host").public)))
    host.receive_data(link.data_to_send())  # the watcher's proof
    assert watcher.header is None and link.is_open and host.state.name == "OPEN"
    link.receive_data(host.send(Start(header=agreed)))
    assert watcher.header == agreed and watcher.game is not None and watcher.have == 0
    link.receive_data(host.send(Start(header=agreed)))
    assert [e.code for e in watcher.connections.events if e.kind == "sent"] == [] and link.is_open
    other = WireHeader.of(LogHeader.new(SHORT.header.seats, keys=keys, commits=roots[::-1], created=0, game=GAME))
    link.receive_data(host.send(Start(header=other)))
    assert [e.code for e in watcher.connections.events if e.kind == "sent"] == ["unexpected-message"] and link.closed


# ---------------------------------------------------------------------- hello.port (wire.md §4.1)


def test_an_acceptor_lists_a_player_that_dialled_it_where_its_hello_says_it_listens():
    from carcnet.net import PeerInfo

    host, cleo = session("Host", seats=(0,)), session("Cleo")
    bob = SyncSession(game=GAME, name="Bob", identity=seat_key(1), header=SHORT, seats={1: seat_key(1)})  # sits
    bob.connections.listen_port = 40123
    to_host = MemoryWire(bob, host)
    to_host.b.remote = "192.168.1.7"  # what the transport reads from the socket
    to_host.pump()
    assert to_host.b.is_open and to_host.b.peer.port == 40123  # type: ignore[union-attr]
    bob_key = seat_key(1).public
    assert host.connections.addresses.entries == {bob_key: PeerInfo(bob_key, "Bob", "192.168.1.7", 40123)}
    # the next peer to arrive learns from the welcome where Bob listens (and dials him, with a Peer)
    MemoryWire(cleo, host).pump()
    assert cleo.connections.addresses.entries[bob_key] == PeerInfo(bob_key, "Bob", "192.168.1.7", 40123)
    assert cleo.connections.listen_port is None  # Cleo said she listens nowhere: nobody lists her
    assert identity("Cleo").public not in host.connections.addresses.entries


@pytest.mark.parametrize(
    ("role", "port", "remote", "listed"),
    [
        ("spectator", 40123, "192.168.1.8", None),  # spectators are never listed
        ("player", None, "192.168.1.8", None),  # a player that does not listen
        ("player", 40123, None, None),  # the transport did not say where the connection came from
        ("player", 40123, "fe80::1%eth0", "fe80::1"),  # a link-local address (the scope may stay)
    ],
)
def test_an_acceptor_lists_only_players_that_listen(role, port, remote, listed):
    host = session("Host", seats=(0,))
    dan_key = seat_key(1)  # Dan sits in seat 1, under his identity key (wire.md §3.1)
    hello = Hello(game=GAME, role=role, name="Dan", key=dan_key.public, port=port)
    dan = PeerConnection(game=GAME, initiator=True, identity=dan_key)
    link = host.connections.accept_link()
    link.remote = remote
    link.receive_data(dan.send(hello))
    dan.receive_data(link.data_to_send())  # the welcome and the host's proof
    assert host.connections.addresses.entries.get(dan_key.public) is None  # nothing counts before Dan's proof
    link.receive_data(dan.data_to_send())
    assert link.is_open
    info = host.connections.addresses.entries.get(dan_key.public)
    if listed is None:
        assert info is None
    else:
        assert info is not None and info.addr.split("%")[0] == listed and info.port == port


@pytest.mark.asyncio
async def test_players_who_dialled_only_the_opener_meet_and_outlive_it():
    """docs/lan-notes.md point 1: with host:port typed by hand (no mDNS), the opener's welcomes name
    the players that dialled it, so they form a mesh and go on when the opener leaves."""
    async with LoopbackGame(make_header(3)) as table:  # each seat key is its player's identity (§3.1)
        a = await table.player("Ann", [0], key=seat_key(0))
        b = await table.player("Bob", [1], dial=[a], key=seat_key(1))
        assert b.session.connections.listen_port == b.port and a.session.connections.listen_port == a.port
        await until([a], lambda: seat_key(1).public in a.session.connections.addresses.entries)
        info = a.session.connections.addresses.entries[seat_key(1).public]
        assert (info.addr, info.port) == b.address
        c = await table.player("Cleo", [2], dial=[a], key=seat_key(2))  # knows Ann's address only

        def mesh() -> bool:
            return all(len(p.session.connections.open_links()) == 2 for p in (a, b, c))

        await until([a, b, c], mesh)
        assert {lk.name for lk in c.session.connections.open_links()} == {"Ann", "Bob"}
        await until([a], lambda: a.session.have >= 20 and a.session.to_play == 1)
        left_at = a.session.have
        await a.aclose()
        await until([b, c], lambda: b.session.to_play == 0 and c.session.have == b.session.have)
        assert b.session.have > left_at
        assert [lk.name for lk in b.session.connections.open_links()] == ["Cleo"]


def test_after_a_handover_a_seats_second_signed_entry_is_still_proof_of_a_conflict():
    """wire.md §5.5 "What stops a game": after seat 1 was handed to seat 0's bot, two different entries
    for seat 1 signed by seat 0's key are proof; the same signed by seat 1's old key are not."""
    from carcnet.engine import HandOver

    header = make_header(3, order=tuple("EUVKDLBJ"))
    game = Game(header.header.setup())
    entries = []

    def add(move, seat):
        game.apply(move)
        entries.append(sign(LogEntry(len(game.moves), seat, move, game.digest), seat_key(0) if seat != 2 else None))

    add(game.legal_moves()[0], 0)
    add(game.legal_moves()[-1], 0)
    add(HandOver(1, "greedy", 0), 0)  # seat 1 gone: seat 0's peer runs a bot for it
    add(game.legal_moves()[0], 1)  # signed by seat 0's key from now on
    session = SyncSession(game="c4dcaf0e5e1d4b7a9a0c2f3e4d5b6a79", name="Ann", identity=identity("Ann"),
                          header=header, entries=entries)
    signer_at = session.replica.signer_at
    assert signer_at(4, 1) == 0 and signer_at(2, 1) == 1 and signer_at(4, 0) == 0
    other = Game(header.header.setup())
    for signed in entries[:3]:
        other.apply(signed.entry.move)
    move = other.legal_moves()[1]
    other.apply(move)
    rival = LogEntry(4, 1, move, other.digest)
    wire = MemoryWire(SyncSession(game=session.game_id, name="Rogue", identity=identity("Rogue"),
                                  header=header, entries=entries[:3]), session)
    wire.pump()
    stale = sign(rival, seat_key(1))  # the old key of seat 1: junk, not proof
    session._router._on_entries(wire.b, Entries(from_seq=4, entries=(stale,)))
    assert not session.stopped
    wire = MemoryWire(SyncSession(game=session.game_id, name="Rogue2", identity=identity("Rogue2"),
                                  header=header, entries=entries[:3]), session)
    wire.pump()
    session._router._on_entries(wire.b, Entries(from_seq=4, entries=(sign(rival, seat_key(0)),)))
    assert session.stopped and session.desync.code == "conflict" and session.desync.seq == 4


@pytest.mark.asyncio
async def test_pipelined_wants_are_answered_once_and_then_the_connection_is_closed():
    """issue 13 item 1: a spectator connection that pipelines ``want {from: 1}`` and does not read gets
    one answer per ``have`` (wire.md §4.4), then ``forbidden``; the peer does not send the log again
    and again, and the game goes on."""
    async with LoopbackGame(make_header(2)) as table:
        a = await table.player("Ann", [0])
        b = await table.player("Bob", [1], dial=[a])
        await until([a, b], lambda: a.session.have >= 20)
        b.driver.set_bot(1, None)  # the game waits at Bob's turn: Ann's have stays put while the wants come
        await until([a, b], lambda: a.session.to_play == 1 and a.session.have == b.session.have)
        raw = await RawClient.open(a.address)
        try:
            await raw.hello("Pipe", role="spectator")
            await raw.send_raw(encode_message(Want(from_seq=1)) * 1000)  # 20 kB in
            answers, refusal = 0, None
            while (message := await raw.next()) is not None:
                if isinstance(message, Entries):
                    answers += sum(1 for _ in message.entries)
                elif isinstance(message, Error):
                    refusal = message
            assert refusal is not None and refusal.code == "forbidden", raw.received[-3:]
            assert answers == a.session.have  # the log once, not a thousand times
        finally:
            await raw.aclose()
        b.driver.set_bot(1, make_bot("random", 7))
        await until([a, b], lambda: a.session.have > 25)  # the game went on


def test_an_unproven_hello_puts_no_address_in_the_book():
    """Issue 13 item 4: a hello naming someone else's key, with a port, teaches the peer nothing."""
    host = session("Host", seats=(0,))
    link = host.connections.accept_link()
    link.remote = "192.168.1.66"
    hello = Hello(game=GAME, role="player", name="Dan", key=identity("Dan").public, port=40123)
    link.receive_data(encode_message(hello))
    assert not link.is_open and host.connections.addresses.entries == {}
    # Mallory cannot sign for the key she named; her own key's signature does not do either
    welcome_body = link.conn._welcome  # the transcript as the host holds it
    sig = sign_proof(identity("Mallory"), "connector", encode_message(hello)[4:], welcome_body)
    link.receive_data(encode_message(Proof(sig=sig)))
    assert link.closed and host.connections.addresses.entries == {}
    assert [e.code for e in host.connections.events if e.kind == "sent"] == ["bad-signature"]


@pytest.mark.asyncio
async def test_a_hello_with_a_players_key_neither_closes_its_real_link_nor_stops_the_game():
    """Issue 13 item 2, the eclipse: Mallory dials Bob naming Ann's key (anyone can read it). Bob
    welcomes her, she cannot prove the key, and Bob keeps his real link to Ann: the game goes on."""
    async with LoopbackGame(make_header(3)) as table:
        a = await table.player("Ann", [0])
        b = await table.player("Bob", [1], dial=[a])
        c = await table.player("Cleo", [2], dial=[a, b])
        peers = [a, b, c]
        await until(peers, lambda: a.session.have >= 6)
        real = b.session.connections.link_to(identity("Ann").public)
        assert real is not None
        # a proof signed with her own key; then no proof at all, but a heartbeat
        for how, frames, code in (
            ("signs", [], "bad-signature"),
            ("skips", [encode_message(Heartbeat(have=0, digest=None))], "unexpected-message"),
        ):
            raw = await RawClient.open(b.address)
            try:
                await raw.hello("Ann", key=identity("Mallory"), prove=how == "signs")
                for frame in frames:
                    await raw.send_raw(frame)
                answer = await raw.refusal()
                assert (answer.code, await raw.closed()) == (code, True), how
            finally:
                await raw.aclose()
            assert b.session.connections.link_to(identity("Ann").public) is real and real.is_open
        await all_over(peers)
        assert_identical(peers)
        assert not any(e.code == "duplicate" for p in peers for e in p.session.connections.events)


def test_peers_are_hints_for_a_spectator_forbidden_from_one_and_ignored_by_a_player():
    """wire.md §4.10: a player's ``peers`` adds hints to a spectator's book (never confirmed
    addresses); a ``peers`` sent by a spectator is refused ``forbidden`` (§3.3) and teaches nothing; a
    player ignores a player's ``peers``."""
    from carcnet.net import PeerInfo, Peers

    host, watcher = session("Ann", seats=(0,)), session("Eve", role="spectator")
    wire = MemoryWire(watcher, host)
    wire.pump()
    bob = PeerInfo(identity("Bob").public, "Bob", "192.168.1.7", 40123)
    wire.a.receive_data(wire.b.conn.send(Peers(peers=(bob,))))
    book = watcher.connections.addresses
    assert book.entries[bob.key] == bob and bob.key not in book.confirmed
    rogue = session("Rogue", role="spectator")
    to_host = MemoryWire(rogue, host)
    to_host.pump()
    to_host.b.receive_data(encode_message(Peers(peers=(bob,))))
    assert to_host.b.closed and ("sent", "forbidden") in [(e.kind, e.code) for e in host.connections.events]
    assert bob.key not in host.connections.addresses.entries
    # a player takes no addresses from another player's peers: nothing it would dial on a stranger's word
    cleo = session("Cleo", seats=(1,))
    to_cleo = MemoryWire(cleo, host)
    to_cleo.pump()
    changes = []
    host.add_listener(lambda change, link: changes.append(change))
    to_cleo.b.receive_data(to_cleo.a.conn.send(Peers(peers=(bob,))))
    assert bob.key not in host.connections.addresses.entries and "peer" not in changes and not to_cleo.b.closed
