"""The msgpack codec (protocol/log.md §4–7): round trips, strictness, refusals with clear messages."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from carcnet.engine import RULES_VERSION, SUPPORTED_RULES, DeployMeeple, Figure, PlaceTile, Position, ReturnAbbot, SkipMeeple
from carcnet.log import (
    COLOURS,
    FORMAT_VERSION,
    LogEntry,
    LogFormatError,
    LogHeader,
    LogVersionError,
    Seat,
    commitment,
    derive_seed,
    from_wire,
    pack,
    to_wire,
    unpack,
)
from carcnet.log.values import name_problem

from .vectors import scripted_game

coords = st.integers(-(2**31) + 1, 2**31 - 1)
positions = st.builds(Position, coords, coords)
letters = st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWX")
moves = st.one_of(
    st.builds(PlaceTile, letters, positions, st.integers(0, 3)),
    st.builds(DeployMeeple, st.integers(0, 2**31 - 1), st.sampled_from(Figure)),
    st.just(SkipMeeple()),
    st.builds(ReturnAbbot, positions),
)
digests = st.binary(min_size=32, max_size=32)
sigs = st.none() | st.binary(min_size=64, max_size=64)
entries = st.builds(LogEntry, st.integers(1, 2**32 - 1), st.integers(0, 5), moves, digests, sigs)
names = st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=32).filter(
    lambda name: name_problem(name) is None  # valid names (the rule has its own tests: tests/test_names.py)
)


@st.composite
def headers(draw: st.DrawFn) -> LogHeader:
    n = draw(st.integers(2, 6))
    colours = draw(st.permutations(COLOURS))[:n]
    seats = []
    for colour in colours:
        if draw(st.booleans()):
            seats.append(Seat(draw(names), colour, "bot", draw(names)))
        else:
            seats.append(Seat(draw(names), colour))
    source: dict = {}
    fmt = draw(st.sampled_from([1, 2]))
    if fmt == 2 and draw(st.booleans()):  # a LAN game: seat keys, perhaps a seed by commit–reveal
        unique = st.lists(digests, min_size=n, max_size=n, unique=True)
        source["keys"] = tuple(draw(unique))
        if draw(st.booleans()):
            nonces = tuple(draw(unique))
            source.update(
                nonces=nonces, commits=tuple(commitment(x) for x in nonces), seed=derive_seed(nonces)
            )
    if "seed" not in source and draw(st.booleans()):
        source["seed"] = draw(st.integers(0, 2**64 - 1))
    elif "seed" not in source:
        source["order"] = tuple(draw(st.lists(letters, max_size=80)))
    return LogHeader(
        format=fmt,
        game=draw(st.text("0123456789abcdef", min_size=32, max_size=32)),
        created=draw(st.integers(0, 2**63 - 1)),
        seats=tuple(seats),
        digest=draw(digests),
        **source,
    )


@given(moves)
def test_move_round_trip(move):
    assert from_wire(to_wire(move)) == move
    assert unpack(pack(move)) == move


@given(entries)
def test_entry_round_trip(entry):
    assert unpack(pack(entry)) == entry
    if entry.sig is None:  # format 1 has no sig
        assert unpack(pack(entry, format=1), format=1) == entry
        assert "sig" not in to_wire(entry, format=1) and to_wire(entry)["sig"] is None


@given(headers())
def test_header_round_trip(header):
    assert unpack(pack(header)) == header
    keys = list(to_wire(header))
    assert keys[-1] == ("nonces" if header.format == 2 else "digest")


@given(st.binary(max_size=300))
def test_arbitrary_bytes_are_refused_only_with_log_format_error(body):
    try:
        unpack(body)
    except LogFormatError:
        pass


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text() | st.binary() | st.floats(),
        lambda kids: st.lists(kids) | st.dictionaries(st.text(), kids),
        max_leaves=20,
    )
)
def test_arbitrary_values_are_refused_only_with_log_format_error(value):
    try:
        from_wire(value)
    except LogFormatError:
        pass


def _entry_map() -> dict:
    _, entries = scripted_game()
    return to_wire(entries[0])


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda m: m.update(extra=1), "unknown field 'extra'"),
        (lambda m: m.pop("digest"), "lacks field 'digest'"),
        (lambda m: m.update(seq=0), "entry.seq"),
        (lambda m: m.update(seq=True), "entry.seq"),
        (lambda m: m.update(seq=1.0), "entry.seq"),
        (lambda m: m.update(seat="0"), "entry.seat"),
        (lambda m: m.update(seat=6), "entry.seat"),
        (lambda m: m.update(digest=b"\0" * 31), "32 bytes"),
        (lambda m: m.update(digest="00" * 32), "entry.digest must be bin"),
        (lambda m: m["move"].update(type="teleport"), "entry.move.type must be one of"),
        (lambda m: m["move"].update(rot=4), "entry.move.rot"),
        (lambda m: m["move"].update(rot=90), "entry.move.rot"),
        (lambda m: m["move"].update(pos=[0]), "entry.move.pos"),
        (lambda m: m["move"].update(pos=[0, 1.5]), "entry.move.pos"),
        (lambda m: m["move"].update(pos=(0, True)), "entry.move.pos"),
        (lambda m: m["move"].update(tile=5), "entry.move.tile"),
        (lambda m: m["move"].update(figure="meeple"), "unknown field 'figure'"),
        (lambda m: m.update(move="place E 0,-1 180"), "entry.move must be a map"),
        (lambda m: m.update(type="Entry"), "record type must be"),
    ],
)
def test_strict_entry_decoding(change, words):
    m = _entry_map()
    change(m)
    with pytest.raises(LogFormatError, match=words.replace("(", r"\(").replace(".", r"\.")):
        from_wire(m)


def test_deploy_needs_a_known_figure():
    with pytest.raises(LogFormatError, match="figure"):
        from_wire({"type": "deploy", "segment": 0, "figure": "knight"})
    with pytest.raises(LogFormatError, match="lacks field 'figure'"):
        from_wire({"type": "deploy", "segment": 0})


def test_msgpack_level_refusals():
    good = pack(SkipMeeple())
    with pytest.raises(LogFormatError, match="not one msgpack value"):
        unpack(good + b"\xc0")  # trailing bytes
    with pytest.raises(LogFormatError, match="not one msgpack value"):
        unpack(b"\x81\x01\xa1x")  # int key (strict_map_key)
    with pytest.raises(LogFormatError, match="not one msgpack value"):
        unpack(b"\xd4\x05\x00")  # extension type
    with pytest.raises(LogFormatError, match="must be a map"):
        unpack(msgpack.packb([1, 2]))
    with pytest.raises(LogFormatError, match="not one msgpack value"):
        unpack(b"\x81\xa4type\xa4sk")  # cut short


def _header_map(**changes) -> dict:
    header, _ = scripted_game()
    m = to_wire(header)
    m.update(changes)
    return m


def test_newer_format_is_refused_for_its_version_before_its_fields():
    m = _header_map(format=FORMAT_VERSION + 1, something_new={"x": 1})
    with pytest.raises(
        LogVersionError, match=f"format version {FORMAT_VERSION + 1}.*format version {FORMAT_VERSION}"
    ) as info:
        from_wire(m)
    assert (info.value.field, info.value.found, info.value.supported) == (
        "format",
        FORMAT_VERSION + 1,
        FORMAT_VERSION,
    )


def test_a_rules_version_this_engine_does_not_play_is_refused_naming_both():
    plays = "2, 3, 4, 5 and 6"
    assert SUPPORTED_RULES == (2, 3, 4, 5, 6)
    for other in (RULES_VERSION + 1, min(SUPPORTED_RULES) - 1):
        with pytest.raises(LogVersionError, match=f"rules version {other}.*rules versions {plays}") as info:
            from_wire(_header_map(rules=other))
        assert info.value.field == "rules"


def test_a_header_of_an_older_rules_version_is_read_with_it():
    """Saved games of rules 2 (before the exact river rule), 3 (before the expansions), 4 (before
    the builder's second tile was asked) and 5 (before Hills & Sheep) still load, and go on under
    their own rules."""
    assert SUPPORTED_RULES == (2, 3, 4, 5, 6)
    for old in (2, 3, 4, 5):
        header = from_wire(_header_map(rules=old))
        assert isinstance(header, LogHeader) and header.rules == old and header.setup().rules_version == old
        assert to_wire(header)["rules"] == old
    assert from_wire(_header_map(rules=6)).rules == RULES_VERSION == 6


_BASE = {"river": False, "abbot": False, "small-city": False, "farms": "farm"}


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"format": 0}, "format version 0 does not exist"),
        ({"format": "1"}, "header.format must be an integer"),
        ({"game": "3F2A9C1B5D6E4F708192A3B4C5D6E7F8"}, "game id"),
        ({"created": -1}, "header.created"),
        ({"seats": []}, "2 to 6 players"),
        ({"seed": 7}, "exactly one of seed, draw_order and table"),
        ({"seed": 2**64 - 1, "order": None, "extra": 0}, "unknown field 'extra'"),
        ({"order": ["E", "Z"]}, "draw_order\\[1\\] = 'Z' is not a tile design"),
        ({"options": {**_BASE, "river": True}}, "lacks field 'river-start'"),
        ({"options": {**_BASE, "river": True, "river-start": "mix"}}, "must be one of after, river, omit"),
        ({"options": {**_BASE, "river-start": "after"}}, "unknown field 'river-start'"),
        ({"options": {**_BASE, "river": 0}}, "header.options.river must be bool"),
        ({"options": {"river": False, "abbot": False}}, "lacks field 'small-city'"),
        ({"options": {**_BASE, "small-city": 1}}, "header.options.small-city must be bool"),
        ({"options": {**_BASE, "farms": "none"}}, "farms must be one of farm, city, off"),
        ({"options": {**_BASE, "farms": True}}, "header.options.farms must be str"),
        ({"digest": b"\0" * 16}, "32 bytes"),
    ],
)
def test_strict_header_decoding(changes, words):
    with pytest.raises(LogFormatError, match=words):
        from_wire(_header_map(**changes))


@pytest.mark.parametrize(
    ("seat", "words"),
    [
        ({"name": "", "colour": "red", "player": "human", "bot": None}, "seat name"),
        ({"name": "a\x1b[2J", "colour": "red", "player": "human", "bot": None}, "control characters"),
        ({"name": "x" * 33, "colour": "red", "player": "human", "bot": None}, "seat name"),
        ({"name": "Ann", "colour": "purple", "player": "human", "bot": None}, "seat colour"),
        ({"name": "Ann", "colour": "red", "player": "robot", "bot": None}, "'human' or 'bot'"),
        ({"name": "Ann", "colour": "red", "player": "bot", "bot": None}, "bot of a bot seat"),
        ({"name": "Ann", "colour": "red", "player": "human", "bot": "random"}, "human seat has no bot"),
        ({"name": "Ann", "colour": "red", "player": "human"}, "lacks field 'bot'"),
    ],
)
def test_seat_checks(seat, words):
    m = _header_map()
    m["seats"][0] = seat
    with pytest.raises(LogFormatError, match=words.replace("[", r"\[")):
        from_wire(m)


def test_colours_are_distinct():
    m = _header_map()
    m["seats"][1]["colour"] = "red"
    with pytest.raises(LogFormatError, match="same colour"):
        from_wire(m)


def test_to_wire_refuses_what_could_not_be_read():
    with pytest.raises(LogFormatError):
        to_wire(PlaceTile("E", Position(0, 2**40), 0))
    with pytest.raises(LogFormatError):
        to_wire("skip")  # type: ignore[arg-type]


def test_a_header_of_a_rules_version_before_the_expansions_cannot_name_one():
    """Rules 4 brought Inns & Cathedrals: a header of rules 2 or 3 naming ``inns`` is malformed (a
    reader of that version would not know the option), one of rules 4 plays it."""
    for version in (2, 3):
        m = _header_map(rules=version)
        m["options"] = {**m["options"], "inns": True}
        with pytest.raises(LogFormatError, match=f"rules version {version} has no inns"):
            from_wire(m)
    m = _header_map(rules=4)
    m["options"] = {**m["options"], "inns": True}
    header = from_wire(m)  # rules 4 reads it (its digest is checked where the game is replayed)
    assert isinstance(header, LogHeader) and header.options.inns and header.setup().rules.inns
