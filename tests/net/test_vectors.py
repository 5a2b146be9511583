"""The golden vectors of protocol/wire.md against the code, in both directions: encode(json) == bin and
decode(bin) == json, for every message; and the signing vectors (§5) byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from carcnet.engine.draws import chain, step
from carcnet.net import (
    SeatKey,
    decode_message,
    encode_frame,
    encode_message,
    entry_bytes,
    from_wire,
    to_wire,
    verify_commit,
    verify_entry,
)
from carcnet.net.messages import MESSAGE_TYPES
from carcnet.net.signing import chain_secret, commit_bytes, proof_bytes, verify_proof

from .vectors import VECTORS, dump, from_json, messages, signing_vector, to_json, vector

NAMES = sorted(messages())
SPEC = Path(__file__).parents[2] / "protocol" / "wire.md"


@pytest.mark.parametrize("name", NAMES)
def test_encoding_the_json_gives_the_bytes(name):
    vec, data = vector(name)
    wire = from_json(vec["message"])
    assert encode_message(from_wire(wire)) == data
    # the JSON lists the keys in the canonical order, so encoding the raw map gives the bytes too
    assert encode_frame(wire) == data
    assert len(data) == vec["size"]


@pytest.mark.parametrize("name", NAMES)
def test_decoding_the_bytes_gives_the_json(name):
    vec, data = vector(name)
    message = decode_message(data)
    assert to_json(to_wire(message)) == vec["message"]
    assert message == from_wire(from_json(vec["message"]))


def test_every_message_type_has_a_vector():
    kinds = {vector(name)[0]["message"]["type"] for name in NAMES}
    assert kinds == set(MESSAGE_TYPES)
    assert {p.stem for p in VECTORS.glob("*.bin")} == set(NAMES)


def test_vectors_are_what_the_generator_makes():
    for name, (_, message) in messages().items():
        assert encode_message(message) == vector(name)[1], name
    import json

    assert json.loads((VECTORS / "signing.json").read_text()) == signing_vector()


def test_signing_vectors_hold_byte_for_byte():
    import json

    vec = json.loads((VECTORS / "signing.json").read_text())
    game = vec["game"]
    publics = []
    for seat in vec["seats"]:
        key = SeatKey.from_seed(bytes.fromhex(seat["seed"]))
        assert key.public.hex() == seat["public"]
        publics.append(key)
    for item in vec["entries"]:
        signed = from_wire(
            {"type": "entries", "from": item["entry"]["seq"], "entries": [from_json(item["entry"])]}
        )
        entry = signed.entries[0].entry  # type: ignore[union-attr]
        assert entry_bytes(game, entry).hex() == item["signed"]
        key = publics[entry.seat]
        assert key.sign(bytes.fromhex(item["signed"])).hex() == item["sig"]
        assert verify_entry(key.public, game, entry, bytes.fromhex(item["sig"]))
    for item in vec["commits"]:
        seat, root = item["seat"], bytes.fromhex(item["hash"])
        secret = chain_secret(publics[seat], game, seat)
        assert secret.hex() == item["secret"]
        values = chain(game, seat, secret, item["length"])
        assert values[0] == root and [v.hex() for v in values[1:3]] == item["values"]
        assert step(game, seat, bytes.fromhex(item["values"][0])) == root
        assert commit_bytes(game, seat, root).hex() == item["signed"]
        assert verify_commit(publics[seat].public, game, seat, root, bytes.fromhex(item["sig"]))


def test_the_hex_dump_in_the_spec_matches_the_vector():
    assert dump(vector("hello")[1]) in SPEC.read_text()


def test_the_spec_has_a_table_for_every_message_and_code():
    from carcnet.net import CODES

    text = SPEC.read_text()
    for kind in MESSAGE_TYPES:
        assert f"`{kind}`" in text, kind
    for code in CODES:
        assert f"| `{code}` |" in text, code


def test_proof_vectors_hold_byte_for_byte():
    """wire.md §3.4: each side's proof over hello.bin and welcome-lobby.bin; proof.bin is Ann's."""
    import json

    vec = json.loads((VECTORS / "signing.json").read_text())
    hello, welcome = vector("hello")[1][4:], vector("welcome-lobby")[1][4:]
    seeds = {s["public"]: bytes.fromhex(s["seed"]) for s in vec["seats"]}
    assert {p["side"] for p in vec["proofs"]} == {"connector", "acceptor"}
    for item in vec["proofs"]:
        assert proof_bytes(item["side"], hello, welcome).hex() == item["signed"]
        key = SeatKey.from_seed(seeds[item["key"]])
        assert key.sign(bytes.fromhex(item["signed"])).hex() == item["sig"]
        assert verify_proof(key.public, item["side"], hello, welcome, bytes.fromhex(item["sig"]))
        other = "connector" if item["side"] == "acceptor" else "acceptor"
        assert not verify_proof(key.public, other, hello, welcome, bytes.fromhex(item["sig"]))
    acceptor = next(p for p in vec["proofs"] if p["side"] == "acceptor")
    assert decode_message(vector("proof")[1]).sig.hex() == acceptor["sig"]  # type: ignore[union-attr]


def test_the_seal_vector_holds_byte_for_byte():
    """wire.md §4.2 "The game id": the vectors' game id is SHA-256 of the domain, Ann's key and the
    nonce, cut to 16 bytes; her seal signs the header's fingerprint; start.bin and welcome.bin carry it,
    and it checks against their header (and not against another)."""
    import hashlib
    import json

    from carcnet.net.admission import check_seal
    from carcnet.net.framing import ProtocolError
    from carcnet.net.signing import GAME_DOMAIN, seal_bytes, sealed_game_id, verify_seal

    vec = json.loads((VECTORS / "signing.json").read_text())
    item = vec["seal"]
    key, nonce = bytes.fromhex(item["key"]), bytes.fromhex(item["nonce"])
    assert bytes.fromhex(item["hashed"]) == GAME_DOMAIN + key + nonce
    assert hashlib.sha256(bytes.fromhex(item["hashed"])).digest()[:16].hex() == item["game"] == vec["game"]
    assert sealed_game_id(key, nonce) == vec["game"] and vec["seats"][0]["public"] == item["key"]
    start = decode_message(vector("start")[1])
    welcome = decode_message(vector("welcome")[1])
    for message in (start, welcome):
        header, seal = message.header, message.seal  # type: ignore[union-attr]
        assert header.fingerprint.hex() == item["fingerprint"] and seal.sig.hex() == item["sig"]
        assert seal_bytes(header.fingerprint).hex() == item["signed"]
        assert verify_seal(key, nonce, vec["game"], header.fingerprint, seal.sig)
        check_seal(header, seal)
    with pytest.raises(ProtocolError, match="does not sign this header"):
        check_seal(welcome.header, type(start.seal)(key, nonce, bytes(64)))  # type: ignore[union-attr, call-arg, arg-type]


def test_the_spectator_chat_vector_holds_byte_for_byte():
    """wire.md §4.9a: Cleo's key comes from her seed; the signed bytes are the domain, the game id, her
    key, her name with its length, the id, the time and the text; spectator-chat.bin carries that line
    and its signature, which verifies under her key and under no other name."""
    import json

    from carcnet.net.signing import SPECTATOR_CHAT_DOMAIN, verify_spectator_chat

    vec = json.loads((VECTORS / "signing.json").read_text())
    item, game = vec["spectator-chat"], vec["game"]
    key = SeatKey.from_seed(bytes.fromhex(item["seed"]))
    assert key.public.hex() == item["key"]
    name = item["name"].encode()
    assert bytes.fromhex(item["signed"]) == (
        SPECTATOR_CHAT_DOMAIN + game.encode() + key.public + bytes([len(name)]) + name
        + bytes.fromhex(item["id"]) + item["time"].to_bytes(8, "big") + item["text"].encode())
    line = decode_message(vector("spectator-chat")[1])
    said = (line.key, line.name, line.id, line.time, line.text, line.sig)  # type: ignore[union-attr]
    assert said == (key.public, item["name"], bytes.fromhex(item["id"]), item["time"], item["text"],
                    bytes.fromhex(item["sig"]))
    assert verify_spectator_chat(key.public, game, *said[1:])
    assert not verify_spectator_chat(key.public, game, "Ann", *said[2:])
