"""The keys file beside a network game's save (carcnet/table/keys.py), as a table of cases: what is
written reads back the same, the owners of the seats taken over included (wire.md §5.6: whose seat
goes back to whom survives a restart) and the turn clock's banks (§5.8: a resumed clock keeps its
bank), and a damaged file is refused with the reason."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from carcnet.table import TurnClock
from carcnet.table.keys import LanError, read_keys, write_keys

from ..net.loopback import identity, make_header, seat_key

HEADER = make_header(3)
OWNER = identity("Ann").public


RUNNERS = {0: OWNER, 1: identity("Bob").public, 2: identity("Cleo").public}


@pytest.mark.parametrize(
    ("clock", "owners", "runners"),
    [
        pytest.param(None, {}, {}, id="keys and name only"),
        pytest.param(TurnClock(60, 300), {}, {}, id="with the turn clock"),
        pytest.param(None, {}, RUNNERS, id="who runs each seat"),
        pytest.param(None, {0: OWNER}, RUNNERS, id="a seat taken over and whose it is"),
        pytest.param(TurnClock(30, 0), {0: OWNER, 2: identity("Cleo").public}, {}, id="two seats taken over"),
    ],
)
def test_what_is_written_reads_back(tmp_path: Path, clock: TurnClock | None, owners: dict[int, bytes],
                                    runners: dict[int, bytes]) -> None:
    path = tmp_path / "game.keys"
    write_keys(path, HEADER.game, identity("Bob"), {1: seat_key(1)}, "Bob", clock, owners, runners, "Friday game")
    saved = read_keys(path, HEADER)
    assert saved.game_name == "Friday game"
    assert saved.identity.public == identity("Bob").public and saved.name == "Bob"
    assert {s: k.public for s, k in saved.seats.items()} == {1: seat_key(1).public}
    assert saved.clock == clock and saved.owners == owners and saved.runners == runners
    assert path.stat().st_mode & 0o777 == 0o600


def test_a_file_written_before_owners_were_kept_reads_as_none_taken_over(tmp_path: Path) -> None:
    path = tmp_path / "game.keys"
    write_keys(path, HEADER.game, identity("Bob"), {1: seat_key(1)}, "Bob")
    assert "owners" not in json.loads(path.read_text()) and "runners" not in json.loads(path.read_text())
    saved = read_keys(path, HEADER)
    assert saved.owners == {} and saved.runners == {} and saved.game_name is None


def test_who_left_on_purpose_reads_back(tmp_path: Path) -> None:
    """wire.md §5.6 rule 1, §4.7: the players that said goodbye, and those of them that gave their seats
    up, are kept, so that a laptop back from a crash still knows that they left (the commit model's
    ``bye 0 quit, bye 1 quit, carry, crash 2``: the one left, back, waited for them as for a crash)."""
    path = tmp_path / "game.keys"
    left, gave_up = {identity("Ann").public, identity("Cleo").public}, {identity("Ann").public}
    write_keys(path, HEADER.game, identity("Bob"), {1: seat_key(1)}, "Bob", left=left, gave_up=gave_up)
    saved = read_keys(path, HEADER)
    assert saved.left == left and saved.gave_up == gave_up
    write_keys(path, HEADER.game, identity("Bob"), {1: seat_key(1)}, "Bob")
    assert "left" not in json.loads(path.read_text()) and read_keys(path, HEADER).left == frozenset()
    for bad, reason in ((["00" * 31], "not a key"), ("00" * 32, "not a list"), (["00" * 32] * 33, "at most 32"),
                        (["zz" * 32], "non-hexadecimal")):
        path.write_text(json.dumps({**json.loads(path.read_text()), "left": bad}))
        with pytest.raises(LanError, match="is damaged") as refused:
            read_keys(path, HEADER)
        assert reason in str(refused.value)


@pytest.mark.parametrize("name", ["", "x" * 33, "tab\there", 7])
def test_a_game_name_that_is_not_a_name_is_refused(tmp_path: Path, name: object) -> None:
    path = tmp_path / "game.keys"
    write_keys(path, HEADER.game, identity("Bob"), {1: seat_key(1)}, "Bob")
    path.write_text(json.dumps({**json.loads(path.read_text()), "game_name": name}))
    with pytest.raises(LanError, match="is damaged"):
        read_keys(path, HEADER)


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        pytest.param(["00" * 32], "'{field}' is not a map", id="a list"),
        pytest.param({"9": "00" * 32}, "no seat '9'", id="a seat the game does not have"),
        pytest.param({"zero": "00" * 32}, "no seat 'zero'", id="not a seat number"),
        pytest.param({"0": "00" * 31}, "the {who} of seat 0 is not 64 hex digits", id="too short"),
        pytest.param({"0": 7}, "the {who} of seat 0 is not 64 hex digits", id="not text"),
        pytest.param({"0": "zz" * 32}, "non-hexadecimal", id="not hex"),
    ],
)
@pytest.mark.parametrize(("field", "who"), [("owners", "owner"), ("runners", "runner")])
def test_damaged_seat_maps_are_refused_with_the_reason(tmp_path: Path, value: object, reason: str, field: str,
                                                       who: str) -> None:
    path = tmp_path / "game.keys"
    write_keys(path, HEADER.game, identity("Bob"), {1: seat_key(1)}, "Bob")
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, field: value}))
    with pytest.raises(LanError, match="is damaged") as refused:
        read_keys(path, HEADER)
    assert reason.format(field=field, who=who) in str(refused.value)


def test_the_banks_read_back_with_their_clock(tmp_path: Path) -> None:
    """wire.md §5.8 "Resuming": the seats' banks (milliseconds, seat by seat) are kept with the clock;
    a file without them (an older carcnet's) reads as none kept, and without a clock none are written."""
    path = tmp_path / "game.keys"
    write_keys(path, HEADER.game, identity("Bob"), {1: seat_key(1)}, "Bob", TurnClock(60, 300),
               banks=(287500, 300000, 0))
    assert read_keys(path, HEADER).banks == (287500, 300000, 0)
    write_keys(path, HEADER.game, identity("Bob"), {1: seat_key(1)}, "Bob", TurnClock(60, 300))
    assert read_keys(path, HEADER).banks is None
    write_keys(path, HEADER.game, identity("Bob"), {1: seat_key(1)}, "Bob", banks=(1, 2, 3))
    assert "banks" not in json.loads(path.read_text()) and read_keys(path, HEADER).banks is None


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        pytest.param({"0": 1000}, "'banks' is not a list of 3 banks", id="a map"),
        pytest.param([1000, 1000], "'banks' is not a list of 3 banks", id="a bank short"),
        pytest.param([1000] * 4, "'banks' is not a list of 3 banks", id="a bank too many"),
        pytest.param([1000, -1, 1000], "the bank of seat 1 is not 0 to 300000 milliseconds", id="negative"),
        pytest.param([1000, 1000, 300001], "the bank of seat 2 is not 0 to 300000", id="more than the clock's"),
        pytest.param([True, 1000, 1000], "the bank of seat 0 is not", id="a bool"),
        pytest.param([1000.5, 1000, 1000], "the bank of seat 0 is not", id="not whole milliseconds"),
        pytest.param(["1000", 1000, 1000], "the bank of seat 0 is not", id="text"),
    ],
)
def test_damaged_banks_are_refused_with_the_reason(tmp_path: Path, value: object, reason: str) -> None:
    path = tmp_path / "game.keys"
    write_keys(path, HEADER.game, identity("Bob"), {1: seat_key(1)}, "Bob", TurnClock(60, 300), banks=(0, 0, 0))
    path.write_text(json.dumps({**json.loads(path.read_text()), "banks": value}))
    with pytest.raises(LanError, match="is damaged") as refused:
        read_keys(path, HEADER)
    assert reason in str(refused.value)


def test_banks_without_their_clock_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.keys"
    write_keys(path, HEADER.game, identity("Bob"), {1: seat_key(1)}, "Bob")
    path.write_text(json.dumps({**json.loads(path.read_text()), "banks": [0, 0, 0]}))
    with pytest.raises(LanError, match="'banks' without the 'clock'"):
        read_keys(path, HEADER)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        pytest.param(b"[" * 100_000 + b"]" * 100_000, "longer than 65536 bytes", id="100,000 lists deep"),
        pytest.param(b"[" * 30_000 + b"]" * 30_000, "nests maps and lists deeper than 4", id="30,000 lists deep"),
        pytest.param(b'{"game": ' * 5_000 + b"1" + b"}" * 5_000, "nests maps and lists deeper than 4",
                     id="5,000 maps deep"),
        pytest.param(b'{"seats": {"0": [[["00"]]]}}', "nests maps and lists deeper than 4", id="5 deep"),
        pytest.param(b'{"name": "' + b"x" * (64 << 10) + b'"}', "longer than 65536 bytes", id="longer than 64 KiB"),
        pytest.param(b'{"game": "\xff"}', "can't decode", id="not UTF-8"),
        pytest.param(b'{"game": 1', "Expecting", id="not JSON"),
    ],
)
def test_a_pathological_keys_file_is_refused_with_the_reason(tmp_path: Path, data: bytes, reason: str) -> None:
    """A 100,000-deep keys file once gave a RecursionError traceback: a keys file is bounded in size
    and depth before it is parsed, and refused with a LanError that says so."""
    path = tmp_path / "game.keys"
    path.write_bytes(data)
    with pytest.raises(LanError, match="is damaged") as refused:
        read_keys(path, HEADER)
    assert reason in str(refused.value)


def test_brackets_inside_strings_are_not_nesting(tmp_path: Path) -> None:
    path = tmp_path / "game.keys"
    write_keys(path, HEADER.game, identity("Bob"), {1: seat_key(1)}, "[[[[[{{{{{\\\"", game_name="]]]]]]}}}}")
    saved = read_keys(path, HEADER)
    assert saved.name == "[[[[[{{{{{\\\"" and saved.game_name == "]]]]]]}}}}"


def test_the_keys_are_never_readable_by_others(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The keys file is made 0600 from its creation, even over a temporary file a crash left 0644: no
    moment when another user could read the private keys (checked as they are written)."""
    path = tmp_path / "game.keys"
    left = tmp_path / "game.keys.tmp"
    left.write_text("half a file")
    left.chmod(0o644)
    modes = []
    real_dump = json.dump

    def dump(data, file, **kw):
        modes.append(os.fstat(file.fileno()).st_mode & 0o777)
        real_dump(data, file, **kw)
        modes.append(os.fstat(file.fileno()).st_mode & 0o777)

    monkeypatch.setattr(json, "dump", dump)
    write_keys(path, HEADER.game, identity("Bob"), {1: seat_key(1)}, "Bob")
    assert modes == [0o600, 0o600]
    assert path.stat().st_mode & 0o777 == 0o600 and not left.exists()


@pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt", reason="POSIX links")
@pytest.mark.parametrize("link", [os.symlink, os.link], ids=["a symbolic link", "a hard link"])
def test_a_link_at_the_temporary_name_is_not_followed(tmp_path: Path, link) -> None:
    """``<keys>.tmp`` put there as a link to another file once had that file truncated and the private
    keys written into it (with its mode, 0644): the link is removed, the file it named left alone."""
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me\n")
    victim.chmod(0o644)
    link(victim, tmp_path / "game.keys.tmp")
    path = tmp_path / "game.keys"
    write_keys(path, HEADER.game, identity("Bob"), {1: seat_key(1)}, "Bob")
    assert victim.read_text() == "keep me\n" and victim.stat().st_mode & 0o777 == 0o644
    assert not path.is_symlink() and path.stat().st_mode & 0o777 == 0o600
    assert read_keys(path, HEADER).name == "Bob"
