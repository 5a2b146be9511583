"""Log format 2 (protocol/log.md §5–9): signed games saved, loaded and verified; forged, tampered and
missing signatures refused naming the seq; the header's keys, commitments and nonces checked; peers
that record one game each write the same file; format-1 files still load and stay format 1."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from carcnet.bots import RandomBot
from carcnet.engine import Phase, parse_move
from carcnet.log import (
    LogEntry,
    LogError,
    LogFormatError,
    LogHeader,
    LogKeysError,
    LogWriter,
    Seat,
    commitment,
    derive_seed,
    entry_bytes,
    from_wire,
    load,
    to_wire,
)
from carcnet.log.recorder import GameRecorder

from .util import craft, record_spans, short_log, wire_maps, write
from .vectors import SIGNED_NONCES, file_bytes, scripted_game, signed_game, signed_keys, vector

SEATS = [Seat("Ann", "red"), Seat("Bob", "blue"), Seat("Random", "yellow", "bot", "random")]


def keyed_header(**changes) -> LogHeader:
    header = LogHeader.new(
        SEATS, keys=[k.public for k in signed_keys()], nonces=SIGNED_NONCES, created=0, game="ab" * 16
    )
    return dataclasses.replace(header, **changes) if changes else header


def signed_maps() -> list[dict]:
    """The records of protocol/vectors/log2-signed.bin as maps (index 0 = header)."""
    return wire_maps(vector("log2-signed")[1])


def refusal(tmp_path: Path, maps: list[dict]) -> LogError:
    with pytest.raises(LogError) as info:
        load(write(tmp_path, craft(*maps)))
    return info.value


def resigned(m: dict, seat: int) -> bytes:
    """The signature of seat *seat*'s key over the entry map *m* (whatever seat the map names)."""
    entry = from_wire(m)
    assert isinstance(entry, LogEntry)
    return signed_keys()[seat].sign(entry_bytes(signed_maps()[0]["game"], entry))


# ---------------------------------------------------------------------- saved and loaded


def test_a_signed_game_saved_and_loaded_verifies(tmp_path: Path):
    header = keyed_header()
    keys = signed_keys()
    bots = [RandomBot(40 + seat) for seat in range(3)]
    path = tmp_path / "lan.carclog"
    with GameRecorder.create(header, path, signers=dict(enumerate(keys))) as recorder:
        while len(recorder.entries) < 30:
            recorder.submit(bots[recorder.game.seat].choose(recorder.game.view()))
        played = recorder.game.digests
    loaded = load(path)
    assert loaded.header == header and loaded.header.signed and loaded.header.format == 2
    assert loaded.header.seed == derive_seed(SIGNED_NONCES)
    assert loaded.game.digests == played
    for entry in loaded.entries:
        assert entry.sig == keys[entry.seat].sign(entry_bytes(header.game, entry))
    with GameRecorder.resume(path, signers=dict(enumerate(keys))) as again:
        while again.game.phase is not Phase.GAME_OVER:
            again.submit(bots[again.game.seat].choose(again.game.view()))
    assert load(path).game.phase is Phase.GAME_OVER


def test_peers_recording_one_game_write_the_same_file(tmp_path: Path):
    """Ann's peer holds seat 0's key, Bob's peer seats 1 and 2 (Bob and the bot he runs): each signs
    its own seats' moves and takes the other's entries with append_signed."""
    header = keyed_header()
    keys = signed_keys()
    bots = [RandomBot(7 + seat) for seat in range(3)]
    ann = GameRecorder.create(header, tmp_path / "ann.carclog", signers={0: keys[0]})
    bob = GameRecorder.create(header, tmp_path / "bob.carclog", signers={1: keys[1], 2: keys[2]})
    while len(ann.entries) < 40:
        seat = ann.game.seat
        author, other = (ann, bob) if seat == 0 else (bob, ann)
        author.submit(bots[seat].choose(author.game.view()))
        other.append_signed(author.entries[-1])
    ann.close()
    bob.close()
    assert (tmp_path / "ann.carclog").read_bytes() == (tmp_path / "bob.carclog").read_bytes()
    assert load(tmp_path / "bob.carclog").game.digests == ann.game.digests


# ---------------------------------------------------------------------- refused on loading


@pytest.mark.parametrize("seq", [1, 3, 6])
def test_a_tampered_signature_is_refused_naming_its_seq(tmp_path: Path, seq: int):
    maps = signed_maps()
    sig = bytearray(maps[seq]["sig"])
    sig[17] ^= 0x04
    maps[seq]["sig"] = bytes(sig)
    err = refusal(tmp_path, maps)
    assert (err.reason, err.seq) == ("bad-signature", seq)
    assert f"seq {seq}: the signature is not seat {maps[seq]['seat']}'s" in str(err)


def test_a_missing_signature_is_refused(tmp_path: Path):
    maps = signed_maps()
    maps[4]["sig"] = None
    err = refusal(tmp_path, maps)
    assert (err.reason, err.seq) == ("bad-signature", 4)
    assert "seq 4 has no signature, but every entry of this game is signed" in str(err)


def test_a_signature_by_another_seats_key_is_refused(tmp_path: Path):
    maps = signed_maps()
    assert maps[3]["seat"] == 1
    maps[3]["sig"] = resigned(maps[3], seat=0)  # Ann signs Bob's move
    err = refusal(tmp_path, maps)
    assert (err.reason, err.seq) == ("bad-signature", 3)


def test_a_changed_entry_no_longer_matches_its_signature(tmp_path: Path):
    # whatever is changed (the move, the digest), the signature gives it away before the replay does
    for change in ({"digest": bytes(32)}, {"move": {"type": "skip"}}):
        maps = signed_maps()
        maps[2].update(change)
        err = refusal(tmp_path, maps)
        assert (err.reason, err.seq) == ("bad-signature", 2)


def test_a_forged_author_signing_with_its_own_key_is_a_forged_seat(tmp_path: Path):
    maps = signed_maps()
    maps[3]["seat"] = 0  # seat 0 claims seat 1's move and signs it properly
    maps[3]["sig"] = resigned(maps[3], seat=0)
    err = refusal(tmp_path, maps)
    assert (err.reason, err.seq) == ("forged-seat", 3)
    maps[3]["seat"] = 5  # a seat the game does not have
    assert refusal(tmp_path, maps).reason == "forged-seat"


def test_an_unsigned_game_has_no_signatures(tmp_path: Path):
    maps = wire_maps(vector("log2")[1])
    maps[2]["sig"] = bytes(64)
    err = refusal(tmp_path, maps)
    assert (err.reason, err.seq) == ("bad-signature", 2)
    assert "no seat keys" in str(err)


def test_a_damaged_signed_tail_is_still_only_damage(tmp_path: Path):
    _, data = vector("log2-signed")
    start, end = record_spans(data)[-1]
    loaded = load(write(tmp_path, data[: end - 10]))
    assert loaded.damage is not None and loaded.damage.offset == start and len(loaded.entries) == 5


# ---------------------------------------------------------------------- the header's keys and seed


def _header_fields(**changes) -> dict:
    h = keyed_header()
    fields = {f.name: getattr(h, f.name) for f in dataclasses.fields(h)}
    fields.update(changes)
    return fields


KEYS = tuple(k.public for k in signed_keys())
COMMITS = tuple(commitment(n) for n in SIGNED_NONCES)


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"keys": KEYS[:2]}, "3 seats but 2 keys"),
        ({"keys": (KEYS[0], KEYS[0], KEYS[1])}, "same key"),
        ({"commits": COMMITS[:2], "nonces": SIGNED_NONCES[:2]}, "3 seats but 2 commits"),
        ({"commits": (COMMITS[1], COMMITS[0], COMMITS[2])}, "nonce of seat 0 does not match"),
        ({"nonces": (SIGNED_NONCES[0],) * 3, "commits": (COMMITS[0],) * 3}, "same commitment"),
        ({"nonces": None}, "both nil or both given"),
        ({"commits": None}, "both nil or both given"),
        ({"keys": None}, "come with the seat keys"),
        ({"seed": 12345}, "is not the nonces' seed"),
    ],
)
def test_keys_commitments_nonces_and_seed_must_agree(changes, words):
    with pytest.raises(LogKeysError, match=words):
        LogHeader(**_header_fields(**changes))


def test_the_same_disagreements_refuse_a_file(tmp_path: Path):
    maps = signed_maps()
    maps[0]["nonces"] = [maps[0]["nonces"][1], maps[0]["nonces"][0], maps[0]["nonces"][2]]
    err = refusal(tmp_path, maps)
    assert (err.reason, err.seq) == ("bad-header", 0)
    assert "does not match its commitment" in str(err)
    maps = signed_maps()
    maps[0]["seed"] += 1
    with pytest.raises(LogKeysError):
        from_wire(maps[0])  # the codec keeps the kind: a peer answers bad-header, not bad-message


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"keys": [bytes(31)] * 3}, "header.keys\\[0\\] must be bin of 32 bytes"),
        ({"keys": b"\x00" * 96}, "header.keys must be nil or an array"),
        ({"keys": [bytes(32)] * 7}, "at most 6"),
        ({"commits": ["00" * 32] * 3}, "header.commits\\[0\\] must be bin"),
        ({"format": 1}, "unknown field 'keys'"),
    ],
)
def test_malformed_keys_are_format_errors(changes, words):
    m = signed_maps()[0]
    m.update(changes)
    with pytest.raises(LogFormatError, match=words) as info:
        from_wire(m)
    assert not isinstance(info.value, LogKeysError)


def test_format_1_has_no_keys_and_no_signatures():
    with pytest.raises(LogFormatError, match="format 1 has no seat keys"):
        keyed_header(format=1)
    _, entries = signed_game()
    with pytest.raises(LogFormatError, match="log format 1 has no signatures"):
        to_wire(entries[0], format=1)
    with pytest.raises(LogFormatError, match="unknown field 'sig'"):
        from_wire(to_wire(entries[0]), format=1)
    with pytest.raises(LogFormatError, match="lacks field 'sig'"):
        from_wire({k: v for k, v in to_wire(entries[0]).items() if k != "sig"})  # format 2 needs it


def test_new_nonces_give_the_seed_and_the_commitments():
    h = keyed_header()
    assert h.commits == COMMITS and h.seed == derive_seed(SIGNED_NONCES) and h.order is None
    with pytest.raises(LogFormatError, match="nonces"):
        LogHeader.new(SEATS, keys=KEYS, nonces=[bytes(31)] * 3)


# ---------------------------------------------------------------------- recorders with keys


def test_signers_must_fit_the_header(tmp_path: Path):
    keys = signed_keys()
    unsigned = LogHeader.new(SEATS, seed=1)
    with pytest.raises(ValueError, match="takes no signers"):
        GameRecorder.create(unsigned, tmp_path / "a.carclog", signers={0: keys[0]})
    with pytest.raises(ValueError, match="does not sign with seat 1's key"):
        GameRecorder.create(keyed_header(), tmp_path / "b.carclog", signers={1: keys[0]})
    with pytest.raises(ValueError, match="no seat 3"):
        GameRecorder.create(keyed_header(), tmp_path / "c.carclog", signers={3: keys[0]})
    assert not list(tmp_path.iterdir())  # refused before any file is created


def test_a_recorder_without_the_key_of_the_seat_to_play_writes_nothing(tmp_path: Path):
    with GameRecorder.create(keyed_header(), tmp_path / "k.carclog", signers={1: signed_keys()[1]}) as rec:
        size = rec.path.stat().st_size
        with pytest.raises(LogError) as info:
            rec.submit(rec.game.legal_moves()[0])
        assert (info.value.reason, info.value.seq) == ("no-key", 1)
        assert rec.path.stat().st_size == size and rec.entries == [] and rec.game.moves == []


def test_append_signed_checks_like_a_reader_and_changes_nothing_when_it_refuses(tmp_path: Path):
    header, entries = signed_game()
    with GameRecorder.create(header, tmp_path / "p.carclog", signers={1: signed_keys()[1]}) as rec:
        rec.append_signed(entries[0])
        before, size = rec.game.digests, rec.path.stat().st_size
        second = entries[1]
        other_seat = dataclasses.replace(second, sig=resigned(to_wire(second), seat=1))
        forged = dataclasses.replace(second, seat=1)
        forged = dataclasses.replace(forged, sig=signed_keys()[1].sign(entry_bytes(header.game, forged)))
        illegal = dataclasses.replace(second, move=parse_move("deploy 9"))
        illegal = dataclasses.replace(illegal, sig=signed_keys()[0].sign(entry_bytes(header.game, illegal)))
        chain = dataclasses.replace(second, digest=bytes(32))
        chain = dataclasses.replace(chain, sig=signed_keys()[0].sign(entry_bytes(header.game, chain)))
        cases = [
            (entries[2], "out-of-sequence"),
            (dataclasses.replace(second, sig=None), "bad-signature"),
            (other_seat, "bad-signature"),
            (forged, "forged-seat"),
            (illegal, "illegal-move"),
            (chain, "chain-broken"),
        ]
        for entry, reason in cases:
            with pytest.raises(LogError) as info:
                rec.append_signed(entry)
            assert info.value.reason == reason, reason
            assert rec.game.digests == before and rec.path.stat().st_size == size and len(rec.entries) == 1
        rec.append_signed(second)
        rec.submit(entries[2].move)  # Bob's turn: signed by his key, as in the vector
        assert rec.entries[-1] == entries[2]
    assert load(tmp_path / "p.carclog").entries == tuple(entries[:3])


# ---------------------------------------------------------------------- format 1 goes on in format 1


def test_a_format_1_log_loads_and_is_resumed_in_format_1(tmp_path: Path):
    path, data = short_log(tmp_path, format=1)
    assert data == vector("log")[1]
    loaded = load(path)
    assert loaded.header.format == 1 and not loaded.header.signed
    assert all(e.sig is None for e in loaded.entries)
    start, _ = record_spans(data)[-1]
    path = write(tmp_path, data[:start])
    with GameRecorder.resume(path) as recorder:
        assert recorder.writer.format == 1
        recorder.submit(parse_move("skip"))
    assert path.read_bytes() == data  # the same bytes: format 1, no sig


def test_a_format_1_writer_refuses_a_signed_entry(tmp_path: Path):
    header, entries = scripted_game(1)
    with LogWriter.create(tmp_path / "f1.carclog", header) as writer:
        size = writer.path.stat().st_size
        with pytest.raises(LogFormatError, match="no signatures"):
            writer.append(dataclasses.replace(entries[0], sig=bytes(64)))
        assert writer.path.stat().st_size == size and not writer.broken
        writer.append(entries[0])
    assert file_bytes(header, entries[:1]) == (tmp_path / "f1.carclog").read_bytes()


def test_append_admitted_writes_what_the_caller_checked_and_replays_when_read(tmp_path: Path):
    """A LAN session checks each entry itself; the recorder then writes it without a second check,
    refuses one out of place, and its game catches up when read."""
    header = keyed_header()
    keys = signed_keys()
    bots = [RandomBot(3 + seat) for seat in range(3)]
    author = GameRecorder.create(header, tmp_path / "a.carclog", signers=dict(enumerate(keys)))
    copy = GameRecorder.create(header, tmp_path / "b.carclog")
    for _ in range(12):
        author.submit(bots[author.game.seat].choose(author.game.view()))
        copy.append_admitted(author.entries[-1])
    with pytest.raises(LogError) as refused:
        copy.append_admitted(author.entries[3])
    assert refused.value.reason == "out-of-sequence" and len(copy.entries) == 12
    assert copy.game.digests == author.game.digests  # replayed on reading
    author.close()
    copy.close()
    assert (tmp_path / "a.carclog").read_bytes() == (tmp_path / "b.carclog").read_bytes()
