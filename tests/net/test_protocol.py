"""The connection state machine and the admission checks (protocol/wire.md §5.4–5.5, §6, §7): the
handshake order, the role rules, and every kind of bad input answered with its code."""

from __future__ import annotations

import dataclasses
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carcnet.engine import DrawTile, Game, PlaceTile, Position
from carcnet.log import LogEntry, LogError, LogHeader
from carcnet.log.store import apply_entry
from carcnet.net import (
    Bye,
    Closed,
    Commit,
    CommitRound,
    Error,
    Heartbeat,
    Hello,
    Lobby,
    LocalProtocolError,
    PeerConnection,
    Proof,
    ProtocolError,
    Proven,
    Refused,
    Reject,
    SeatKey,
    SignedEntry,
    State,
    Want,
    Welcome,
    WireHeader,
    admit_entry,
    check_header,
    compare_have,
    decode_message,
    encode_frame,
    encode_message,
    sign_commit,
    sign_entry,
    sign_proof,
    to_wire,
)
from carcnet.net.framing import FrameDecoder
from carcnet.net.messages import PROTO_VERSION, MessageError

from .vectors import (
    GAME,
    HELLO_NONCE,
    WELCOME_NONCE,
    chains,
    from_json,
    messages,
    seat_keys,
    signed_entries,
    vector,
    wire_header,
)

ANN, BOB = seat_keys()


def hello(role: str = "player", **kw) -> Hello:
    kw.setdefault("nonce", HELLO_NONCE)
    return Hello(game=GAME, role=role, name="Bob", key=BOB.public, **kw)  # type: ignore[arg-type]


def welcome(role: str = "host") -> Welcome:
    return Welcome(game=GAME, role=role, name="Ann", key=ANN.public, nonce=WELCOME_NONCE)  # type: ignore[arg-type]


def connector(game: str = GAME) -> PeerConnection:
    """Bob's side of a connection he dials."""
    return PeerConnection(game=game, initiator=True, identity=BOB)


def acceptor(game: str = GAME) -> PeerConnection:
    """Ann's side of a connection she accepts."""
    return PeerConnection(game=game, initiator=False, identity=ANN)


def pair(
    connector_role: str = "player", acceptor_role: str = "host"
) -> tuple[PeerConnection, PeerConnection]:
    """A connected pair after the handshake: (connector, acceptor)."""
    a, b = connector(), acceptor()
    assert b.receive_data(a.send(hello(connector_role))) == [hello(connector_role)]
    assert a.receive_data(b.send(welcome(acceptor_role))) == [Proven(ANN.public), welcome(acceptor_role)]
    assert b.receive_data(a.data_to_send()) == [Proven(BOB.public)]
    assert a.state is b.state is State.OPEN and a.proven and b.proven
    return a, b


def answers(conn: PeerConnection) -> list:
    """The messages the connection queued on its own."""
    return FrameDecoder().decode(conn.data_to_send())


def refused(
    conn: PeerConnection, data: bytes, code: str, *, reply: str = "error", closed: bool = True
) -> list:
    events = conn.receive_data(data)
    assert isinstance(events[-2 if closed else -1], Refused)
    r = next(e for e in events if isinstance(e, Refused))
    assert r.code == code and r.closed is closed
    sent = answers(conn)
    assert len(sent) == 1 and sent[0]["type"] == reply and sent[0]["code"] == code
    if closed:
        assert events[-1] == Closed(code, r.message, False)
        assert conn.state is State.CLOSED
    return events


# ---------------------------------------------------------------------- the handshake


def test_a_handshake_from_the_vectors():
    a = connector()
    b = acceptor()
    h = decode_message(vector("hello")[1])
    w = decode_message(vector("welcome-lobby")[1])
    assert a.send(h) == vector("hello")[1]
    assert b.receive_data(vector("hello")[1]) == [h]
    assert b.state is State.SEND_WELCOME and b.peer == h and b.their_role == "player"
    assert b.send(w) == vector("welcome-lobby")[1] + vector("proof")[1]  # Ann's proof goes with it
    assert b.state is State.AWAIT_PROOF
    assert a.receive_data(vector("welcome-lobby")[1]) == []  # nothing counts before the proof
    assert a.state is State.AWAIT_PROOF and not a.proven
    assert a.receive_data(vector("proof")[1]) == [Proven(ANN.public), w]
    assert a.our_role == "player" and a.their_role == "host" and b.our_role == "host"
    assert b.receive_data(a.data_to_send()) == [Proven(BOB.public)]  # Bob's proof, queued on the welcome
    assert a.state is b.state is State.OPEN
    assert a.data_to_send() == b.data_to_send() == b""


def test_hello_comes_first():
    b = acceptor()
    refused(b, encode_message(Want(from_seq=1)), "unexpected-message")
    a = connector()
    with pytest.raises(LocalProtocolError):
        a.send(Want(from_seq=1))
    with pytest.raises(LocalProtocolError):
        a.send(welcome())
    a.send(hello())
    with pytest.raises(LocalProtocolError):
        a.send(hello())  # once
    refused(a, encode_message(Heartbeat(have=0, digest=None)), "unexpected-message")


def test_the_connector_waits_for_the_welcome_before_sending_more():
    a = connector()
    b = acceptor()
    data = a.send(hello()) + encode_message(Want(from_seq=1))
    events = b.receive_data(data)
    assert events[0] == hello() and isinstance(events[1], Refused) and events[1].code == "unexpected-message"


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"proto": PROTO_VERSION + 1, "features": ["river"]}, "bad-version"),
        ({"proto": 0}, "bad-version"),
        ({"rules": 1}, "bad-version"),
        ({"game": "0" * 32}, "wrong-game"),
        ({"name": ""}, "bad-message"),
        ({"role": "referee"}, "bad-message"),
        ({"key": None}, "bad-message"),
    ],
)
def test_a_bad_hello_is_rejected(change, code):
    b = acceptor()
    m = {**to_wire(hello()), **change}
    refused(b, encode_frame(m), code, reply="reject")
    assert b.peer is None


def test_a_reject_ends_the_connection_for_the_connector():
    a = connector()
    a.send(hello())
    events = a.receive_data(vector("reject")[1])
    assert isinstance(events[0], Reject) and events[1] == Closed("bad-version", events[0].message, True)
    assert a.state is State.CLOSED
    with pytest.raises(LocalProtocolError):
        a.send(Bye(reason="quit"))


def test_the_acceptor_may_reject_for_its_own_reasons():
    b = acceptor()
    b.receive_data(connector().send(hello()))
    with pytest.raises(LocalProtocolError):
        b.send(Want(from_seq=1))  # it must answer first
    data = b.send(Reject(code="no-seat", message="the table is full; join as a spectator"))
    assert decode_message(data) == Reject(code="no-seat", message="the table is full; join as a spectator")
    assert b.state is State.CLOSED


def test_a_welcome_for_another_game_or_version_is_refused():
    for change, code in (({"game": "0" * 32}, "wrong-game"), ({"proto": PROTO_VERSION + 1}, "bad-version")):
        a = connector()
        a.send(hello())
        refused(a, encode_frame({**to_wire(welcome()), **change}), code)


def test_our_own_messages_must_be_for_our_game():
    a = connector("0" * 32)
    with pytest.raises(LocalProtocolError):
        a.send(hello())
    assert a.state is State.SEND_HELLO


def test_a_second_hello_or_welcome_after_the_handshake_is_unexpected():
    a, b = pair()
    refused(b, encode_message(hello()), "unexpected-message")
    a, b = pair()
    refused(a, encode_message(welcome()), "unexpected-message")


# ---------------------------------------------------------------------- roles


def test_a_spectator_cannot_send_entries():
    a, b = pair(connector_role="spectator")
    entries = decode_message(vector("entries")[1])
    with pytest.raises(LocalProtocolError):
        a.send(entries)
    refused(b, vector("entries")[1], "forbidden")


def test_a_spectator_may_ask_and_receive():
    a, b = pair(connector_role="spectator")
    assert b.receive_data(a.send(Want(from_seq=1))) == [Want(from_seq=1)]
    entries = decode_message(vector("entries")[1])
    assert a.receive_data(b.send(entries)) == [entries]


@pytest.mark.parametrize(
    ("connector", "acceptor", "name", "sender"),
    [
        ("player", "player", "lobby", "acceptor"),  # only a host sends the table
        ("player", "player", "start", "acceptor"),
        ("spectator", "host", "claim", "connector"),  # claims come from players only
        ("spectator", "host", "commit", "connector"),
        ("spectator", "host", "reveal", "connector"),
        ("player", "host", "lobby", "connector"),
    ],
)
def test_lobby_messages_follow_the_roles(connector, acceptor, name, sender):
    a, b = pair(connector, acceptor)
    src, dst = (a, b) if sender == "connector" else (b, a)
    message = decode_message(vector(name)[1])
    with pytest.raises(LocalProtocolError):
        src.send(message)
    refused(dst, vector(name)[1], "forbidden")


def test_a_claim_may_reach_a_player_whose_session_answers_it():
    """wire.md §3.3: the connection lets a claim through to a player (e.g. the host after the start,
    which declares ``player``); the session then answers ``lobby-locked`` (issue 13 item 10)."""
    a, b = pair("player", "player")
    claim = decode_message(vector("claim")[1])
    assert b.receive_data(a.send(claim)) == [claim]


def test_a_lobby_round_trip_between_host_and_player():
    a, b = pair()
    for name, src, dst in (
        ("lobby", b, a),
        ("claim", a, b),
        ("commit", a, b),
        ("commit", b, a),
        ("start", b, a),
        ("reveal", a, b),  # during the game (wire.md §5.7)
    ):
        message = decode_message(vector(name)[1])
        assert dst.receive_data(src.send(message)) == [message], name
    assert isinstance(decode_message(vector("lobby")[1]), Lobby)


# ---------------------------------------------------------------------- closing and errors


def test_bye_closes_both_sides():
    a, b = pair()
    events = b.receive_data(a.send(Bye(reason="game-over")))
    assert events == [Bye(reason="game-over"), Closed("game-over", "the peer said bye (game-over)", True)]
    assert a.state is b.state is State.CLOSED
    assert b.receive_data(b"anything") == []


def test_closing_and_non_closing_errors():
    a, b = pair()
    taken = Error(code="seat-taken", message="blue is taken")
    assert a.receive_data(b.send(taken)) == [taken]
    assert a.state is b.state is State.OPEN
    data = b.refuse("bad-signature", "seq 3 is not seat 1's", 3)
    assert b.state is State.CLOSED
    events = a.receive_data(data)
    assert events[0] == Error(code="bad-signature", message="seq 3 is not seat 1's", seq=3)
    assert isinstance(events[1], Closed) and events[1].by_peer and a.state is State.CLOSED


def test_the_end_of_the_stream_closes():
    a, b = pair()
    assert b.receive_data(b"") == [Closed("eof", "the stream ended", True)]
    assert a.receive_data(encode_message(Want(from_seq=1))[:3]) == []
    [closed] = a.receive_data(b"")
    assert closed.code == "eof" and "inside a frame (3 bytes)" in closed.message


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (struct.pack(">I", (1 << 20) + 1), "too-large"),
        (b"\0\0\0\0", "bad-frame"),
        (b"\0\0\0\x02\x92\x01", "bad-frame"),
        (encode_frame({"type": "ping"}), "unknown-message"),
        (encode_frame({"kind": "want"}), "unknown-message"),
        (encode_frame({"type": "want", "from": 0}), "bad-message"),
        (encode_frame({"type": "want", "from": 1, "to": 9}), "bad-message"),
        (encode_frame({**to_wire(Bye(reason="quit")), "reason": "bored"}), "bad-message"),
    ],
)
def test_bad_input_after_the_handshake_is_answered_and_closes(data, code):
    _, b = pair()
    refused(b, data, code)


def test_frames_before_the_bad_one_are_delivered():
    a, b = pair()
    data = (
        a.send(Want(from_seq=1))
        + a.send(Heartbeat(have=0, digest=None))
        + b"\0\0\0\0"
        + a.send(Want(from_seq=2))
    )
    events = b.receive_data(data)
    assert events[:2] == [Want(from_seq=1), Heartbeat(have=0, digest=None)]
    assert isinstance(events[2], Refused) and events[2].code == "bad-frame"
    assert len(events) == 4


@settings(max_examples=40)
@given(st.data())
def test_any_split_of_a_conversation_gives_the_same_events(data):
    names = ["lobby", "commit", "start", "entries", "heartbeat", "bye"]
    frames = [vector(n)[1] for n in names]
    frames.insert(-1, encode_message(Error(code="seat-taken", message="blue is taken")))  # does not close
    a, b = connector(), acceptor()
    b.receive_data(a.send(hello()))
    stream = b.send(welcome()) + b"".join(frames)  # the welcome, Ann's proof, then the rest
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    events = []
    start = 0
    for cut in [*cuts, len(stream)]:
        if cut > start:  # b"" would mean the end of the stream
            events += a.receive_data(stream[start:cut])
        start = cut
    expected = [Proven(ANN.public), welcome(), *(decode_message(f) for f in frames)]
    assert events == [*expected, Closed("quit", "the peer said bye (quit)", True)]


# ---------------------------------------------------------------------- admitting headers and entries


def game_at_start() -> tuple[Game, WireHeader]:
    wh = wire_header()
    return check_header(wh, game=GAME), wh


def test_good_entries_are_admitted_in_order():
    game, wh = game_at_start()
    for signed in signed_entries(4):
        admit_entry(game, wh, signed)
    assert len(game.moves) == 4


def resign(entry: LogEntry, seat: int | None = None) -> SignedEntry:
    return SignedEntry(entry, sign_entry(seat_keys()[entry.seat if seat is None else seat], GAME, entry))


def admit_code(signed: SignedEntry, before: int = 0) -> tuple[str, int | None, Game]:
    game, wh = game_at_start()
    for s in signed_entries(before):
        admit_entry(game, wh, s)
    moves = list(game.moves)
    with pytest.raises(ProtocolError) as info:
        admit_entry(game, wh, signed)
    if info.value.code != "desync":
        assert game.moves == moves  # refused before anything changed
    return info.value.code, info.value.seq, game


def test_an_entry_out_of_sequence_is_a_bad_seq():
    second = signed_entries(2)[1]
    assert admit_code(second)[:2] == ("bad-seq", 1)


#: The vectors' first signed entry is seq 2 (Ann's place), after the first draw (seq 1, unsigned).
FIRST = 1


def test_a_forged_signature_is_a_bad_signature():
    first = signed_entries(2)[FIRST]
    assert admit_code(resign(first.entry, seat=1), before=1)[:2] == ("bad-signature", 2)
    sig = bytearray(first.sig)
    sig[0] ^= 1
    assert admit_code(SignedEntry(first.entry, bytes(sig)), before=1)[0] == "bad-signature"


def test_a_seat_that_is_not_to_play_is_refused():
    first = signed_entries(2)[FIRST].entry
    out_of_turn = dataclasses.replace(first, seat=1)
    assert admit_code(resign(out_of_turn), before=1)[:2] == ("not-your-turn", 2)
    assert admit_code(resign(dataclasses.replace(first, seat=5), seat=0), before=1)[0] == "not-your-turn"


def test_an_illegal_move_is_refused_with_the_engines_reason():
    first = signed_entries(2)[FIRST].entry
    far = PlaceTile(first.move.tile, Position(40, 40), 0)  # type: ignore[union-attr]
    code, seq, _ = admit_code(resign(dataclasses.replace(first, move=far)), before=1)
    assert (code, seq) == ("illegal-move", 2)


def test_a_wrong_digest_is_a_desync():
    first = signed_entries(2)[FIRST].entry
    code, seq, game = admit_code(resign(dataclasses.replace(first, digest=bytes(32))), before=1)
    assert (code, seq) == ("desync", 2)
    assert len(game.moves) == 2  # applied: the warning of admit_entry


def test_a_draw_proves_itself_and_carries_no_signature():
    """wire.md §5.4, §5.7: a draw's values are checked against the chains (a changed one is an illegal
    move with the engine's reason); a draw is never signed."""
    draw = signed_entries(1)[0].entry
    values = list(draw.move.values)  # type: ignore[union-attr]
    values[1] = bytes(32)
    forged = dataclasses.replace(draw, move=DrawTile(tuple(values)))
    code, seq, _ = admit_code(SignedEntry(forged, None))
    assert (code, seq) == ("illegal-move", 1)
    with pytest.raises(MessageError):
        SignedEntry(draw, bytes(64))
    game, wh = game_at_start()
    with pytest.raises(LogError) as info:  # a signed draw, as a hand-made save could hold one
        apply_entry(game, wh.header, dataclasses.replace(draw, sig=bytes(64)))
    assert info.value.reason == "bad-signature" and not game.moves


def test_headers_are_checked_against_the_game_and_the_engine():
    wh = wire_header()
    with pytest.raises(ProtocolError) as info:
        check_header(wh, game="0" * 32)
    assert info.value.code == "wrong-game"
    h = wh.header
    forged = LogHeader(game=h.game, created=h.created, seats=h.seats, digest=bytes(32), keys=h.keys,
                       commits=h.commits, format=h.format)
    with pytest.raises(ProtocolError) as info:
        check_header(WireHeader(forged, wh.keys, wh.commits, wh.nonces), game=GAME)
    assert info.value.code == "bad-header"


def test_comparing_what_peers_hold():
    game, wh = game_at_start()
    for s in signed_entries(3):
        admit_entry(game, wh, s)
    digests = game.digests
    assert compare_have(digests, 1, digests[1]) == 2
    assert compare_have(digests, 3, digests[3]) == 0
    assert compare_have(digests, 5, bytes(32)) == -2
    assert compare_have(digests, 0, None) == 3
    with pytest.raises(ProtocolError) as info:
        compare_have(digests, 2, digests[1])
    assert (info.value.code, info.value.seq) == ("desync", 2)


def test_vectors_module_is_consistent():
    assert set(messages()) >= {"hello", "welcome", "entries"}
    assert from_json({"seed": "5"}) == {"seed": 5}


# ---------------------------------------------------------------------- the commitments (wire.md §5.3)


def commit_round() -> CommitRound:
    return CommitRound(GAME, [k.public for k in seat_keys()])


def commit_of(seat: int, root: bytes, key=None) -> Commit:
    return Commit(seat=seat, hash=root, sig=sign_commit(key or seat_keys()[seat], GAME, seat, root))


def round_code(action) -> str:
    with pytest.raises(ProtocolError) as info:
        action()
    return info.value.code


def test_a_commit_round_gives_the_headers_chain_roots():
    roots = [c[0] for c in chains()]
    r = commit_round()
    assert r.commit(commit_of(1, roots[1])) and not r.commit(commit_of(1, roots[1]))
    assert not r.committed
    with pytest.raises(ValueError):
        r.commits  # noqa: B018
    assert r.commit(commit_of(0, roots[0])) and r.committed
    assert r.commits == wire_header().commits and r.commit_of(1) == roots[1]


def test_commitments_must_be_signed_by_the_seat_and_not_copied():
    roots = [c[0] for c in chains()]
    r = commit_round()
    assert round_code(lambda: r.commit(commit_of(1, roots[1], key=seat_keys()[0]))) == "bad-signature"
    r.commit(commit_of(0, roots[0]))
    copied = roots[0]
    assert (
        round_code(lambda: r.commit(Commit(seat=1, hash=copied, sig=sign_commit(BOB, GAME, 1, copied))))
        == "bad-commit"
    )
    assert round_code(lambda: r.commit(commit_of(0, roots[1]))) == "unexpected-message"
    assert round_code(lambda: r.commit(Commit(seat=2, hash=bytes(32), sig=bytes(64)))) == "unexpected-message"


# ---------------------------------------------------------------------- proofs of identity (wire.md §3.4)


def test_a_hello_with_someone_elses_key_never_opens():
    """The eclipse of issue 13 item 2: Mallory names Bob's key (read from a welcome) but holds only her
    own private key: Ann answers, then refuses the proof, and the connection never counts."""
    mallory = SeatKey.from_seed(bytes([7]) * 32)
    b = acceptor()
    forged = Hello(game=GAME, role="player", name="Bob", key=BOB.public, nonce=HELLO_NONCE)
    hello_body = encode_message(forged)[4:]
    assert b.receive_data(encode_message(forged)) == [forged]
    b.send(welcome())
    assert b.state is State.AWAIT_PROOF and not b.proven
    # the best she can do: her own key's signature over exactly this transcript
    own = encode_message(Proof(sig=sign_proof(mallory, "connector", hello_body, b._welcome)))

    refused(b, own, "bad-signature")
    assert not b.proven


def test_a_proof_from_another_handshake_does_not_verify():
    """A proof signs both fresh nonces: Bob's proof of one connection is worthless on another."""
    a1, b1 = connector(), acceptor()
    b1.receive_data(a1.send(hello()))
    a1.receive_data(b1.send(welcome()))
    bobs_proof = a1.data_to_send()
    a2, b2 = connector(), acceptor()
    b2.receive_data(a2.send(hello(nonce=bytes(32))))  # another hello nonce: another transcript
    b2.send(welcome())
    refused(b2, bobs_proof, "bad-signature")


def test_the_connector_reports_no_welcome_until_the_acceptors_proof_verifies():
    a, b = connector(), acceptor()
    b.receive_data(a.send(hello()))
    data = b.send(welcome())
    frame_end = 4 + int.from_bytes(data[:4], "big")
    assert a.receive_data(data[:frame_end]) == []  # the welcome alone: nothing yet
    assert a.state is State.AWAIT_PROOF
    assert [f["type"] for f in answers(a)] == ["proof"]  # Bob's own proof went out at once
    forged = encode_message(Proof(sig=bytes(64)))
    events = refused(a, forged, "bad-signature")
    assert not any(isinstance(e, Welcome | Proven) for e in events)


def test_only_the_proof_is_taken_while_waiting_for_it():
    a, b = connector(), acceptor()
    b.receive_data(a.send(hello()))
    b.send(welcome())
    refused(b, encode_message(Heartbeat(have=0, digest=None)), "unexpected-message")
    a, b = pair()
    refused(b, encode_message(Proof(sig=bytes(64))), "unexpected-message")  # a second proof


def test_the_application_neither_sends_a_proof_nor_names_a_key_it_does_not_hold():
    a = connector()
    with pytest.raises(LocalProtocolError, match="its proof itself"):
        a.send(Proof(sig=bytes(64)))
    with pytest.raises(LocalProtocolError, match="identity key"):
        a.send(Hello(game=GAME, role="player", name="Ann", key=ANN.public))
    assert a.state is State.SEND_HELLO
