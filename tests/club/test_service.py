"""The event service's budgets and proofs (protocol/tournament.md §6): a stranger's bytes cost a
bounded amount and prove nothing they do not sign."""

from __future__ import annotations

import asyncio
import hashlib
import struct
from pathlib import Path

import msgpack
import pytest

from carcnet.club.runner import EventRunner
from carcnet.club.service import (
    MAX_CONNECTIONS,
    REQUEST_BYTES,
    EventService,
    ServiceError,
    Status,
    ask,
    enrol_bytes,
    read_status,
    sign_status,
)
from carcnet.net.signing import SeatKey

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


@pytest.mark.asyncio
async def test_oversized_malformed_and_too_many_connections_are_closed_and_the_service_goes_on() -> None:
    asked: list[str] = []

    def answer(request: dict, _asker: str | None) -> dict:
        asked.append(request["type"])
        return {"type": "pong"}

    async with EventService(answer, host="127.0.0.1") as service:
        address = ("127.0.0.1", service.port)
        # a frame over the request budget: closed before its body is read
        reader, writer = await asyncio.open_connection(*address)
        writer.write(struct.pack(">I", REQUEST_BYTES + 1) + b"x" * 64)
        await writer.drain()
        assert await asyncio.wait_for(reader.read(), 5) == b""
        writer.close()
        # a frame that is not a map with a type
        reader, writer = await asyncio.open_connection(*address)
        body = msgpack.packb([1, 2, 3])
        writer.write(struct.pack(">I", len(body)) + body)
        await writer.drain()
        assert await asyncio.wait_for(reader.read(), 5) == b""
        writer.close()
        # connections beyond the budget are closed at once; the ones held are still answered
        held = [await asyncio.open_connection(*address) for _ in range(MAX_CONNECTIONS)]
        extra_reader, extra_writer = await asyncio.open_connection(*address)
        assert await asyncio.wait_for(extra_reader.read(), 5) == b""
        extra_writer.close()
        for _reader, writer in held:
            writer.close()
        assert service.refused >= 3
        assert (await ask(address, {"type": "ping"}))["type"] == "pong"
    assert asked == ["ping"]


def test_the_opener_refuses_an_enrolment_not_signed_by_its_key(tmp_path: Path) -> None:
    opener = EventRunner.open(key("Ann"), event_name="Budget night", data_dir=tmp_path, name="Ann",
                              players=[("Ann bot", "greedy")], listen=("127.0.0.1", 0), poll=0.2, gone=2.0)
    event = opener._event_id
    assert event is not None
    good = {"type": "enrol", "event": event, "name": "Bob", "key": key("Bob").public, "bot": None, "port": 1,
            "sig": key("Bob").sign(enrol_bytes(event, "Bob", None))}
    forged = {**good, "name": "Mallory", "sig": key("Mallory").sign(enrol_bytes(event, "Mallory", None))}
    assert opener._answer(forged, "127.0.0.1")["text"] == "the enrolment's signature does not verify"
    assert opener._answer({**good, "bot": "superbot"}, "127.0.0.1")["type"] == "error"
    assert opener._answer(good, "127.0.0.1") == {"type": "enrolled"}
    again = {**good, "name": "Bob 2", "sig": key("Bob").sign(enrol_bytes(event, "Bob 2", None))}
    assert opener._answer(again, "127.0.0.1")["text"] == "a person enters once"
    assert [p.name for p in opener.roster] == ["Ann bot", "Bob"]
    opener._laptops[key("Bob").public].heard = opener.clock()  # Bob's laptop answered a status: it counts
    charter = opener.start()
    assert opener._answer(again, "127.0.0.1")["type"] == "error"  # no enrolment once the charter is signed
    assert [p.key for p in charter.players] == [key("Ann").public, key("Bob").public]
