"""Signing (protocol/wire.md §5): seat keys, entry and commitment signatures, commit–reveal, the seed."""

from __future__ import annotations

import dataclasses

import pytest

from carcnet.engine import SkipMeeple
from carcnet.log import LogEntry
from carcnet.net import (
    FramingError,
    MessageError,
    SeatKey,
    commitment,
    decode_message,
    derive_seed,
    entry_bytes,
    new_nonce,
    opens_commitment,
    sign_commit,
    sign_entry,
    verify_commit,
    verify_entry,
)
from carcnet.net.messages import Entries
from carcnet.net.signing import verify

from .vectors import GAME, _h, seat_keys, signed_entries, vector

#: Nonces of a seed agreed by commit–reveal (protocol 1; format-2 headers still hold them).
NONCES = (_h("carcnet vector nonce 0"), _h("carcnet vector nonce 1"))


def test_a_key_is_its_seed():
    key = SeatKey.generate()
    again = SeatKey.from_seed(key.seed)
    assert again.public == key.public and len(key.public) == 32 and len(key.seed) == 32
    assert SeatKey.generate().public != key.public
    assert key.seed.hex() not in repr(key)
    for bad in (bytes(31), bytes(33), "00" * 32):
        with pytest.raises(ValueError):
            SeatKey.from_seed(bad)  # type: ignore[arg-type]


def test_signatures_are_deterministic_and_verify():
    key = seat_keys()[0]
    entry = signed_entries(2)[1].entry
    sig = sign_entry(key, GAME, entry)
    assert sig == sign_entry(key, GAME, entry) and len(sig) == 64
    assert verify_entry(key.public, GAME, entry, sig)
    assert not verify_entry(seat_keys()[1].public, GAME, entry, sig)


def test_flipping_any_byte_of_the_signed_bytes_or_the_signature_fails():
    key = seat_keys()[0]
    signed = signed_entries(2)[1]  # seq 2, the first signed entry (seq 1 is a draw)
    data = entry_bytes(GAME, signed.entry)
    assert verify(key.public, data, signed.sig)
    for i in range(len(data)):
        tampered = bytearray(data)
        tampered[i] ^= 0x01
        assert not verify(key.public, bytes(tampered), signed.sig), i
    for i in range(len(signed.sig)):
        tampered = bytearray(signed.sig)
        tampered[i] ^= 0x80
        assert not verify(key.public, data, bytes(tampered)), i
    for i in range(len(key.public)):
        tampered = bytearray(key.public)
        tampered[i] ^= 0x01
        assert not verify(bytes(tampered), data, signed.sig), i


def test_changing_any_field_of_the_entry_fails():
    key = seat_keys()[0]
    signed = signed_entries(2)[1]  # seq 2, the first signed entry (seq 1 is a draw)
    entry = signed.entry
    changed = [
        dataclasses.replace(entry, seq=3),
        dataclasses.replace(entry, seat=1),
        dataclasses.replace(entry, digest=bytes(32)),
        dataclasses.replace(entry, move=SkipMeeple()),
        dataclasses.replace(
            entry, move=dataclasses.replace(entry.move, rotation=(entry.move.rotation + 1) % 4)
        ),  # type: ignore[arg-type]
    ]
    for other in changed:
        assert not verify_entry(key.public, GAME, other, signed.sig), other
    assert not verify_entry(key.public, "0" * 32, entry, signed.sig)  # another game
    assert not verify_entry(key.public, "not a game", entry, signed.sig)


def test_flipping_any_byte_of_an_entries_frame_never_yields_a_valid_forgery():
    """Every single-byte change of the vector's frame is refused when read, or decodes to entries whose
    signatures fail, or (when the change does not alter the content) to the same entries."""
    _, frame = vector("entries")
    original = decode_message(frame)
    keys = seat_keys()
    for i in range(len(frame)):
        for mask in (0x01, 0x80):
            tampered = bytearray(frame)
            tampered[i] ^= mask
            try:
                message = decode_message(bytes(tampered))
            except (FramingError, MessageError):
                continue
            assert isinstance(message, Entries)
            if message == original:
                continue
            assert not all(
                verify_entry(keys[e.entry.seat].public, GAME, e.entry, e.sig) for e in message.entries
            ), (i, mask)


def test_bad_keys_and_signatures_verify_false_without_raising():
    entry = LogEntry(1, 0, SkipMeeple(), bytes(32))
    assert not verify_entry(bytes(31), GAME, entry, bytes(64))
    assert not verify_entry(bytes(32), GAME, entry, bytes(63))
    assert not verify_entry(b"\xff" * 32, GAME, entry, bytes(64))  # not a point on the curve
    assert not verify_entry("k" * 32, GAME, entry, bytes(64))  # type: ignore[arg-type]


# ---------------------------------------------------------------------- commit–reveal


def test_a_nonce_must_open_its_commitment():
    nonce = new_nonce()
    c = commitment(nonce)
    assert len(nonce) == 32 and len(c) == 32 and c != commitment(new_nonce())
    assert opens_commitment(c, nonce)
    for i in range(32):
        other = bytearray(nonce)
        other[i] ^= 1
        assert not opens_commitment(c, bytes(other))
    assert not opens_commitment(c, nonce[:31])
    assert not opens_commitment(c[:31], nonce)
    with pytest.raises(ValueError):
        commitment(nonce[:16])


def test_the_seed_depends_on_every_nonce_and_their_order():
    seed = derive_seed(NONCES)
    assert 0 <= seed < 2**64
    assert derive_seed(NONCES[::-1]) != seed
    assert derive_seed([NONCES[0], bytes(32)]) != seed
    assert derive_seed([*NONCES, bytes(32)]) != seed
    for bad in ([], [bytes(31)]):
        with pytest.raises(ValueError):
            derive_seed(bad)


def test_commitment_signatures_bind_game_seat_and_hash():
    key = seat_keys()[1]
    c = commitment(NONCES[1])
    sig = sign_commit(key, GAME, 1, c)
    assert verify_commit(key.public, GAME, 1, c, sig)
    assert not verify_commit(key.public, GAME, 0, c, sig)
    assert not verify_commit(key.public, "0" * 32, 1, c, sig)
    assert not verify_commit(key.public, GAME, 1, commitment(NONCES[0]), sig)
    assert not verify_commit(seat_keys()[0].public, GAME, 1, c, sig)
    assert not verify_commit(key.public, GAME, 9, c, sig)
    with pytest.raises(ValueError):
        sign_commit(key, GAME, 1, c[:5])


# ---------------------------------------------------------------------- chains (wire.md §5.3, deck.md §5.1)


def test_a_seats_chain_comes_from_its_key_and_differs_for_every_seat_game_and_key():
    from carcnet.engine.draws import check_reveal as chain_check
    from carcnet.net.signing import chain_secret, seat_chain

    ann, bob = seat_keys()
    secrets_seen = {
        chain_secret(key, game, seat) for key in (ann, bob) for game in (GAME, "0" * 32) for seat in (0, 1)
    }
    assert len(secrets_seen) == 8 and all(len(x) == 32 for x in secrets_seen)
    values = seat_chain(bob, GAME, 1, 71)
    assert len(values) == 72 and values[-1] == chain_secret(bob, GAME, 1)
    assert values == seat_chain(bob, GAME, 1, 71)  # the same key gives the same chain: a resumed seat has it
    assert chain_check(GAME, 1, values[5], 5, (0, values[0]))
    assert not chain_check(GAME, 1, seat_chain(ann, GAME, 1, 71)[5], 5, (0, values[0]))
