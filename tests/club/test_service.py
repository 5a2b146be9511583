"""The event service's budgets and proofs (protocol/tournament.md §6): a stranger's bytes cost a
bounded amount and prove nothing they do not sign."""

from __future__ import annotations

import asyncio
import hashlib
import struct
from pathlib import Path

import msgpack
import pytest

from carcnet.club.runner import EventRunner, _Laptop
from carcnet.club.service import (
    REQUEST_BYTES,
    Asker,
    EventService,
    Refused,
    ServiceError,
    Status,
    ask,
    enrol_bytes,
    read_status,
    sign_status,
)
from carcnet.club.wire import EventLink
from carcnet.net.framing import FrameDecoder, encode_frame
from carcnet.net.signing import SeatKey, sign_proof

from .askers import Asker as Probe


def decode_all(data: bytes) -> list[dict]:
    decoder = FrameDecoder()
    decoder.feed(data)
    return list(decoder)

def enrol_at(runner: EventRunner, request: dict, address: str) -> dict:
    """*runner*'s reply to *request* from a connection at *address* that proved the key it enrols."""
    key = request.get("key")
    return runner._answer(request, Asker(address, key if isinstance(key, bytes) else b"", False))


def key(name: str) -> SeatKey:
    return SeatKey.from_seed(hashlib.sha256(name.encode()).digest())


def test_a_status_answers_one_nonce_and_one_key_only() -> None:
    status = Status("a" * 32, key("Ann").public, 2, ((2, 0, "b" * 32, 4000),), ((1, 0),), ())
    reply = sign_status(key("Ann"), status, b"n" * 16)
    assert read_status(reply, b"n" * 16) == status
    with pytest.raises(ServiceError, match="does not verify"):
        read_status(reply, b"m" * 16)  # replayed to another asker
    forged = {**reply, "body": [*reply["body"][:2], 3, *reply["body"][3:]]}  # another round claimed
    with pytest.raises(ServiceError, match="does not verify"):
        read_status(forged, b"n" * 16)
    with pytest.raises(ServiceError, match="malformed"):
        read_status({"type": "status", "body": [1, 2], "sig": b""}, b"n" * 16)


async def _raw(port: int, data: bytes, source: str) -> bytes:
    """Sends *data* on a new connection from *source* and returns all the service sends back before it
    closes."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    try:
        writer.write(data)
        await writer.drain()
        return await asyncio.wait_for(reader.read(), 5)
    finally:
        writer.close()


def _recorder() -> tuple[list[Asker], object]:
    askers: list[Asker] = []

    def answer(request: dict, asker: Asker) -> dict:
        askers.append(asker)
        return {"type": "pong"}

    return askers, answer


@pytest.mark.asyncio
async def test_nothing_is_answered_before_the_askers_key_is_proven() -> None:
    """The event service speaks the table's handshake (wire.md §3.4) before any request: a request
    sent first, a hello whose proof is another key's, and a hello for another event are each refused
    in one line and closed, never answered; the address of the first two is discouraged."""
    askers, answer = _recorder()
    async with EventService(answer, identity=key("Ann"), event=lambda: "ab" * 16, host="127.0.0.1") as service:
        port = service.port
        replies = decode_all(await _raw(port, encode_frame({"type": "status?", "nonce": b"n" * 16, "port": 1}),
                                        "127.0.0.2"))
        assert [r["type"] for r in replies] == ["error"]
        # a hello naming Bob's key, its proof by Mallory's
        link = EventLink("connector", key("Bob"), max_frame=REQUEST_BYTES)
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.3", 0))
        try:
            writer.write(link.data_to_send())
            decoder = FrameDecoder()
            welcome = proof = None
            while proof is None:
                data = await asyncio.wait_for(reader.read(4096), 5)
                assert data, "the service answers a hello"
                decoder.feed(data)
                for frame in decoder:
                    if frame["type"] == "welcome":
                        welcome = decoder.last_body
                    else:
                        proof = frame
            assert welcome is not None
            forged = sign_proof(key("Mallory"), "connector", link._hello, welcome)
            writer.write(encode_frame({"type": "proof", "sig": forged}) + encode_frame({"type": "ping"}))
            rest = decode_all(await asyncio.wait_for(reader.read(), 5))
            assert [r["type"] for r in rest] == ["error"] and "proof" in rest[0]["text"]
        finally:
            writer.close()
        assert "127.0.0.2" in service.discouraged and "127.0.0.3" in service.discouraged
        with pytest.raises(Refused, match="another event"):
            await ask(("127.0.0.1", port), {"type": "ping"}, identity=key("Bob"), event="cd" * 16)
        assert askers == []
        # the same ask for this event (or one not known yet) is answered, its key proven
        assert (await ask(("127.0.0.1", port), {"type": "ping"}, identity=key("Bob"), event="ab" * 16))["type"] == "pong"
        assert [a.key for a in askers] == [key("Bob").public]


@pytest.mark.asyncio
async def test_requests_are_frames_of_the_tables_framing_and_a_bad_one_is_closed() -> None:
    """After the handshake: a frame over the request budget is refused before its body is read; a
    map holding a float, or nested deeper than the wire allows, is no frame (net/'s strict
    decoder); each closes the connection, and the service goes on."""
    askers, answer = _recorder()
    async with EventService(answer, identity=key("Ann"), host="127.0.0.1") as service:
        floated = msgpack.packb({"type": 0.5})
        deep = msgpack.packb({"type": "ping", "x": [[[[[[[[[1]]]]]]]]]})
        bads = (struct.pack(">I", REQUEST_BYTES + 1) + b"x" * 64, struct.pack(">I", len(floated)) + floated,
                struct.pack(">I", len(deep)) + deep)
        for n, bad in enumerate(bads):
            asker = Probe(service.port, key("Bob"), source=f"127.0.0.{n + 2}")  # each address discouraged after
            assert await asker.open()
            before = service.refused
            asker.writer.write(bad)
            await asyncio.wait_for(asker.reader.read(), 5)  # until the service closes the connection
            asker.close()
            assert service.refused == before + 1
        assert askers == []
        assert (await ask(("127.0.0.1", service.port), {"type": "ping"}, identity=key("Cleo")))["type"] == "pong"


def test_the_opener_refuses_an_enrolment_not_signed_by_its_key(tmp_path: Path) -> None:
    opener = EventRunner.open(key("Ann"), event_name="Budget night", data_dir=tmp_path, name="Ann",
                              players=[("Ann bot", "greedy")], listen=("127.0.0.1", 0), poll=0.2, gone=2.0)
    event = opener._event_id
    assert event is not None
    good = {"type": "enrol", "event": event, "name": "Bob", "key": key("Bob").public, "bot": None, "port": 1,
            "sig": key("Bob").sign(enrol_bytes(event, "Bob", None))}
    forged = {**good, "name": "Mallory", "sig": key("Mallory").sign(enrol_bytes(event, "Mallory", None))}
    assert enrol_at(opener, good, "127.0.0.1")["type"] == "wait"  # Bob's laptop has not answered a status yet
    opener._laptops.setdefault(key("Bob").public, _Laptop()).heard = opener.clock()  # now it has
    assert enrol_at(opener, forged, "127.0.0.1")["text"] == "the enrolment's signature does not verify"
    assert enrol_at(opener, {**good, "bot": "superbot"}, "127.0.0.1")["type"] == "error"
    assert enrol_at(opener, good, "127.0.0.1") == {"type": "enrolled"}
    again = {**good, "name": "Bob 2", "sig": key("Bob").sign(enrol_bytes(event, "Bob 2", None))}
    assert enrol_at(opener, again, "127.0.0.1")["text"] == "a person enters once"
    assert [p.name for p in opener.roster] == ["Ann bot", "Bob"]
    charter = opener.start()
    assert enrol_at(opener, again, "127.0.0.1")["type"] == "error"  # no enrolment once the charter is signed
    assert [p.key for p in charter.players] == [key("Ann").public, key("Bob").public]


def test_a_captured_enrolment_sent_again_by_another_laptop_enters_nobody(tmp_path: Path) -> None:
    """An enrolment is signed once, with no nonce: whoever saw it could send it again. The opener
    takes it only from a connection that proved the key it enrols."""
    opener = EventRunner.open(key("Ann"), event_name="Replay night", data_dir=tmp_path, name="Ann",
                              players=[("Ann bot", "greedy")], listen=("127.0.0.1", 0), poll=0.2, gone=2.0)
    event = opener._event_id
    assert event is not None
    bobs = {"type": "enrol", "event": event, "name": "Bob", "key": key("Bob").public, "bot": None, "port": 1,
            "sig": key("Bob").sign(enrol_bytes(event, "Bob", None))}
    replayed = opener._answer(bobs, Asker("127.0.0.9", key("Mallory").public, False))
    assert replayed == {"type": "error", "text": "a laptop enters players under its own key only"}
    assert [p.name for p in opener.roster] == ["Ann bot"]
    opener._laptops.setdefault(key("Bob").public, _Laptop()).heard = opener.clock()  # Bob's laptop answered
    assert opener._answer(bobs, Asker("127.0.0.2", key("Bob").public, False)) == {"type": "enrolled"}


def test_the_event_service_vector_is_what_the_code_sends_and_takes() -> None:
    """protocol/vectors/event-service.json (tournament.md §6.0): the hello, the welcome and both
    proofs byte for byte, and each proof verifies under its side's key over the two bodies."""
    import json

    from carcnet.net.signing import verify_proof

    from .vectors import SERVICE_PATH, build_service

    vector = json.loads(SERVICE_PATH.read_text(encoding="utf-8"))
    assert build_service() == vector
    hello, welcome = bytes.fromhex(vector["hello"])[4:], bytes.fromhex(vector["welcome"])[4:]
    for side, key_hex, frame in (("acceptor", "service_key", "service_proof"), ("connector", "asker_key", "asker_proof")):
        proof = decode_all(bytes.fromhex(vector[frame]))[0]
        assert verify_proof(bytes.fromhex(vector[key_hex]), side, hello, welcome, proof["sig"])
    assert decode_all(bytes.fromhex(vector["request"])) == [{"type": "charter?"}]
