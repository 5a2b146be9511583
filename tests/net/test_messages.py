"""Messages (protocol/wire.md §4): every field is checked on reading, with the code the peer is told."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carcnet.engine import RULES_VERSION, Rules
from carcnet.log import LogHeader, Seat
from carcnet.log import to_wire as log_to_wire
from carcnet.net import (
    MessageError,
    Start,
    WireHeader,
    closes,
    commitment,
    decode_message,
    derive_seed,
    encode_message,
    from_wire,
    to_wire,
)
from carcnet.net.messages import MAX_ENTRIES, MAX_PEERS, PROTO_VERSION, Entries, Error, Hello, Lobby, Welcome

from .vectors import (
    GAME,
    SEATS,
    _h,
    chains,
    from_json,
    messages,
    seat_keys,
    signed_entries,
    vector,
    wire_header,
)

#: A seed agreed by commit–reveal (protocol 1): format-2 headers of games saved then still hold it.
NONCES = (_h("carcnet vector nonce 0"), _h("carcnet vector nonce 1"))


def seeded_wire_header() -> WireHeader:
    """A format-2 header whose seed came from commit–reveal (a game saved under protocol 1)."""
    header = LogHeader.new(SEATS, seed=derive_seed(NONCES), created=0, game=GAME)
    return WireHeader(header, tuple(k.public for k in seat_keys()), tuple(map(commitment, NONCES)), NONCES)

NAMES = sorted(messages())


def wire(name: str) -> dict[str, Any]:
    return from_json(vector(name)[0]["message"])


def code_of(m: object) -> str:
    with pytest.raises(MessageError) as info:
        from_wire(m)
    return info.value.code


def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path (a tuple of keys and indices) to a value inside a map."""
    out = []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for k, v in items:
        out.append((*prefix, k))
        out += paths(v, (*prefix, k))
    return out


def edit(m: dict, path: tuple, value: Any = ..., *, delete: bool = False) -> dict:
    m = copy.deepcopy(m)
    target = m
    for k in path[:-1]:
        target = target[k]
    if delete:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return m


@pytest.mark.parametrize("name", NAMES)
def test_every_message_reads_back_what_it_writes(name):
    message = from_wire(wire(name))
    assert from_wire(to_wire(message)) == message
    assert list(to_wire(message)) == list(wire(name))  # the canonical key order


@pytest.mark.parametrize("name", NAMES)
def test_every_missing_or_unknown_field_is_refused(name):
    m = wire(name)
    for path in paths(m):
        parent = m
        for k in path[:-1]:
            parent = parent[k]
        if isinstance(parent, dict):
            if path[-1] == "by" and parent.get("type") == "handback":
                # the protocol's one optional key (log.md §6): without it, the runner's handback
                assert from_wire(edit(m, path, delete=True)) != from_wire(m), path
                continue
            code = code_of(edit(m, path, delete=True))
            expected = "unknown-message" if path == ("type",) else "bad-message"
            assert code == expected, path
        else:  # drop an item of an array: fine for some (peers, entries, table), refused for others
            try:
                from_wire(edit_list_drop(m, path))
            except MessageError as exc:
                assert exc.code in ("bad-message", "bad-header"), path
    for path in [()] + [p for p in paths(m) if _is_map(m, p)]:
        extended = copy.deepcopy(m)
        target = extended
        for k in path:
            target = target[k]
        target["extra"] = 1
        assert code_of(extended) == "bad-message", path


def _is_map(m: dict, path: tuple) -> bool:
    target: Any = m
    for k in path:
        target = target[k]
    return isinstance(target, dict)


def edit_list_drop(m: dict, path: tuple) -> dict:
    m = copy.deepcopy(m)
    target = m
    for k in path[:-1]:
        target = target[k]
    del target[path[-1]]
    return m


wire_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.text(max_size=40)
    | st.binary(max_size=70),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=300)
@given(st.sampled_from(NAMES), st.data(), wire_values)
def test_any_field_replaced_by_any_value_raises_only_message_error(name, data, value):
    m = wire(name)
    path = data.draw(st.sampled_from(paths(m)))
    try:
        message = from_wire(edit(m, path, value))
    except MessageError as exc:
        assert exc.code in ("unknown-message", "bad-message", "bad-version", "bad-header")
    else:
        assert from_wire(to_wire(message)) == message


# ---------------------------------------------------------------------- codes


def test_unknown_and_missing_types_are_unknown_messages():
    assert code_of({"type": "ping"}) == "unknown-message"
    assert code_of({"from": 1}) == "unknown-message"
    assert code_of({"type": 1}) == "unknown-message"
    assert code_of([1, 2]) == "unknown-message"


@pytest.mark.parametrize("name", ["hello", "welcome"])
def test_another_version_is_refused_for_its_version_before_its_fields(name):
    newer = {**wire(name), "proto": PROTO_VERSION + 1, "capabilities": ["river"]}
    assert code_of(newer) == "bad-version"
    assert code_of({**wire(name), "rules": RULES_VERSION - 1}) == "bad-version"
    assert code_of({**wire(name), "rules": RULES_VERSION + 1}) == "bad-version"
    assert code_of({**wire(name), "proto": True}) == "bad-message"
    assert code_of({**wire(name), "proto": -1}) == "bad-message"


def test_a_header_of_another_log_format_is_a_version_error():
    m = wire("start")
    assert m["header"]["format"] == 3  # protocol 3 carries log formats 2 and 3 (wire.md §8)
    assert code_of(edit(m, ("header", "format"), 4)) == "bad-version"
    assert code_of(edit(m, ("header", "format"), 1)) == "bad-version"  # the log reads it; the wire does not
    assert code_of(edit(m, ("header", "format"), True)) == "bad-message"
    assert code_of(edit(m, ("header", "rules"), RULES_VERSION + 1)) == "bad-version"
    assert code_of(edit(m, ("header", "rules"), 1)) == "bad-version"
    # a game of rules 2, saved before the exact river rule, is still played, under its own rules
    assert from_wire(edit(m, ("header", "rules"), 2)).header.header.rules == 2  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("name", "path", "value"),
    [
        ("hello", ("game",), GAME.upper()),
        ("hello", ("game",), GAME[:-1]),
        ("hello", ("role",), "referee"),
        ("hello", ("name",), ""),
        ("hello", ("name",), "   "),
        ("hello", ("name",), "x" * 33),
        ("hello", ("name",), "a\x07b"),
        ("hello", ("key",), bytes(31)),
        ("hello", ("key",), "00" * 32),
        ("hello", ("have",), True),
        ("hello", ("have",), -1),
        ("hello", ("have",), 3),  # have 3 without a digest
        ("hello", ("digest",), bytes(31)),
        ("hello", ("port",), 0),
        ("hello", ("port",), 65536),
        ("hello", ("port",), True),
        ("hello", ("port",), "40123"),
        ("welcome-lobby", ("digest",), bytes(32)),  # a digest without a header
        ("welcome", ("digest",), None),
        ("welcome", ("have",), 0),  # at have 0 the digest must be the header's
        ("welcome", ("game",), "0" * 32),  # the header is another game's
        ("welcome", ("peers", 0, "addr"), "my-laptop.local"),
        ("welcome", ("peers", 0, "port"), 0),
        ("welcome", ("peers",), [wire("welcome")["peers"][0]] * (MAX_PEERS + 1)),
        ("entries", ("from",), 2),
        ("entries", ("from",), 0),
        ("entries", ("entries", 0, "sig"), bytes(63)),
        ("entries", ("entries", 0, "type"), "header"),
        ("entries", ("entries", 0, "move", "rot"), 4),
        ("entries", ("entries", 1, "seq"), 3),
        ("want", ("from",), 0),
        ("heartbeat", ("time",), -5),
        ("heartbeat", ("time",), 1.5),
        ("heartbeat", ("banks", 0), -1),
        ("heartbeat", ("banks", 0), 36_000_001),  # more than the lobby's largest bank, 36000 s
        ("heartbeat", ("banks", 0), True),
        ("heartbeat", ("banks", 0), 1.5),
        ("heartbeat", ("banks",), [0] * 7),
        ("heartbeat", ("banks",), None),
        ("heartbeat", ("banks",), 300000),
        ("heartbeat", ("asks",), [6]),  # no such seat (wire.md §5.6 "Who makes the handover")
        ("heartbeat", ("asks",), [1, 1]),
        ("heartbeat", ("asks",), [0, 1, 2, 3, 4, 5, 0]),
        ("heartbeat", ("asks",), None),
        ("bye", ("reason",), "bored"),
        ("error", ("code",), "Not-Your-Turn"),
        ("error", ("code",), ""),
        ("error", ("message",), "x" * 257),
        ("error", ("seq",), -1),
        ("reject", ("code",), 7),
        ("lobby", ("table",), [None]),
        ("lobby", ("table",), [None] * 7),
        ("lobby", ("options", "river"), 0),
        ("lobby", ("options",), {"river": False, "abbot": False, "river-start": "mix"}),  # without river
        ("lobby", ("options",), {"river": True, "abbot": False}),  # river without river-start
        ("lobby", ("options",), {"river": True, "abbot": False, "river-start": "early"}),
        ("lobby", ("options",), {"river": True, "abbot": False, "river-start": None}),
        ("lobby", ("options",), [False, False]),
        ("lobby", ("table", 0, "colour"), "pink"),
        ("lobby", ("table", 0, "player"), "bot"),  # a bot seat needs its bot's name
        ("lobby", ("locked",), 1),
        ("claim", ("seat",), 6),
        ("claim", ("colour",), "purple"),
        ("commit", ("hash",), bytes(33)),
        ("commit", ("sig",), bytes(32)),
        ("reveal", ("value",), bytes(16)),
        ("reveal", ("draw",), 0),
        ("reveal", ("draw",), 513),
        ("start", ("header",), None),
        ("start", ("header", "keys", 0), bytes(31)),
    ],
    ids=lambda v: "-".join(map(str, v)) if isinstance(v, tuple) else str(v)[:20],
)
def test_bad_fields_are_bad_messages(name, path, value):
    assert code_of(edit(wire(name), path, value)) == "bad-message"


def test_a_heartbeat_says_banks_only_with_a_header():
    """wire.md §4.5: ``banks`` (milliseconds, one per seat, repeats allowed, up to the lobby's 36000 s)
    travels with the header's digest; a sender without a header says none."""
    m = wire("heartbeat")
    for banks in ([], [36_000_000, 0, 0, 0, 0, 36_000_000], [300000, 300000]):
        message = from_wire({**m, "banks": banks})
        assert message.banks == tuple(banks) and to_wire(message)["banks"] == banks  # type: ignore[union-attr]
    assert code_of({**m, "have": 0, "digest": None}) == "bad-message"
    assert from_wire({**m, "have": 0, "digest": None, "banks": []}).banks == ()  # type: ignore[union-attr]


def test_a_lobby_takes_the_largest_bank():
    """The turn clock's bounds are inclusive (wire.md §4.6): 3600 s a turn, 36000 s of bank."""
    lobby = Lobby(name="x", options=Rules(), table=(None, None), clock=(3600, 36000))
    assert from_wire(to_wire(lobby)) == lobby
    assert code_of({**to_wire(lobby), "clock": [60, 36001]}) == "bad-message"


def test_a_lobby_refuses_two_seats_of_one_colour_or_one_key():
    m = wire("lobby")
    seat = m["table"][0]
    assert code_of(edit(m, ("table",), [seat, {**seat, "name": "Bob"}])) == "bad-message"
    assert code_of(edit(m, ("table",), [seat, {**seat, "colour": "blue"}])) == "bad-message"
    from_wire(edit(m, ("table",), [seat, {**seat, "colour": "blue", "key": bytes(32)}]))


def test_too_many_entries_are_refused():
    e = signed_entries(1)[0]
    with pytest.raises(MessageError):
        Entries(from_seq=1, entries=(e,) * (MAX_ENTRIES + 1))


# ---------------------------------------------------------------------- headers: keys and commit–reveal


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("keys", lambda wh: wh.keys[:1]),
        ("keys", lambda wh: (wh.keys[0], wh.keys[0])),
        ("commits", lambda wh: (wh.commits[0], wh.commits[0])),
        ("commits", lambda wh: wh.commits[:1]),
    ],
)
def test_inconsistent_headers_are_bad_headers(field, value):
    wh = wire_header()
    fields = {"header": wh.header, "keys": wh.keys, "commits": wh.commits, "nonces": wh.nonces}
    fields[field] = value(wh)
    with pytest.raises(MessageError) as info:
        WireHeader(**fields)
    assert info.value.code == "bad-header"
    m = wire("start")
    raw = fields[field]
    code = code_of(edit(m, ("header", field), list(raw) if raw is not None else None))
    assert code == "bad-header"


def test_a_header_without_its_draws_is_malformed():
    """Neither seed, order nor chain roots: the setup cannot start (wire.md §4.2)."""
    assert code_of(edit(wire("start"), ("header", "commits"), None)) == "bad-message"


@pytest.mark.parametrize(
    "nonces",
    [lambda wh: (wh.nonces[1], wh.nonces[0]), lambda wh: None],  # not the commitments' nonces; commits alone
)
def test_a_seeded_header_needs_nonces_that_match_its_commitments(nonces):
    """A format-2 header (a game saved under protocol 1): its nonces give its commitments and seed."""
    wh = seeded_wire_header()
    with pytest.raises(MessageError) as info:
        WireHeader(wh.header, wh.keys, wh.commits, nonces(wh))
    assert info.value.code == "bad-header"


def test_a_seed_that_is_not_the_nonces_seed_is_a_bad_header():
    wh = seeded_wire_header()
    other = LogHeader.new(wh.header.seats, seed=derive_seed(NONCES) ^ 1, created=0, game=GAME)
    with pytest.raises(MessageError) as info:
        WireHeader(other, wh.keys, wh.commits, wh.nonces)
    assert info.value.code == "bad-header"


def test_a_seeded_header_still_travels_but_cannot_start_a_game():
    """wire.md §8: protocol 2 carries format-2 headers (resumed games) in welcomes; a start has table draws."""
    wh = seeded_wire_header()
    assert wh.header.format == 2
    keys = seat_keys()
    welcome = Welcome(game=GAME, role="player", name="Ann", key=keys[0].public, digest=wh.header.digest, header=wh)
    assert from_wire(to_wire(welcome)) == welcome
    with pytest.raises(MessageError) as info:
        Start(header=wh)
    assert info.value.code == "bad-header"


def test_a_header_without_commit_reveal_is_fine_but_cannot_start_a_game():
    keys = seat_keys()
    header = LogHeader.new([Seat("Ann", "red"), Seat("Bob", "blue")], order=("E",), created=0, game=GAME)
    wh = WireHeader(header, tuple(k.public for k in keys))
    assert wh.commits is None
    with pytest.raises(MessageError) as info:
        Start(header=wh)
    assert info.value.code == "bad-header"
    last = Welcome(game=GAME, role="host", name="Ann", key=keys[0].public, digest=header.digest, header=wh)
    assert from_wire(to_wire(last)) == last


def test_fingerprints_tell_headers_apart():
    wh = wire_header()
    assert wh.fingerprint == wire_header().fingerprint
    other = WireHeader(wh.header, (wh.keys[1], wh.keys[0]), wh.commits, wh.nonces)
    assert other.fingerprint != wh.fingerprint


# ---------------------------------------------------------------------- errors


def test_error_codes_from_newer_peers_are_read_and_close():
    e = from_wire({"type": "error", "code": "tea-time", "message": "", "seq": None})
    assert isinstance(e, Error) and closes(e.code)
    assert not closes("seat-taken") and not closes("bad-seq") and closes("bad-signature")


def test_hello_defaults_are_this_version():
    h = Hello(game=GAME, role="spectator", name="Cleo", key=bytes(32))
    assert to_wire(h)["proto"] == PROTO_VERSION == 11 and to_wire(h)["rules"] == RULES_VERSION == 6
    assert commitment(NONCES[0]) != commitment(NONCES[1])


# ---------------------------------------------------------------------- hello.port (wire.md §4.1)


def test_hello_ends_with_the_listening_port_or_nil_then_its_nonce():
    m = wire("hello")
    assert list(m)[-3:] == ["digest", "port", "nonce"] and m["port"] == 40123
    assert from_wire(m).port == 40123  # type: ignore[union-attr]
    spectator = Hello(game=GAME, role="spectator", name="Cleo", key=bytes(32))
    assert spectator.port is None and list(to_wire(spectator))[-2:] == ["port", "nonce"]
    again = Hello(game=GAME, role="spectator", name="Cleo", key=bytes(32))
    assert len(spectator.nonce) == 32 and again.nonce != spectator.nonce  # fresh for every hello
    assert from_wire(to_wire(spectator)) == spectator
    assert from_wire(edit(m, ("port",), 1)).port == 1  # type: ignore[union-attr]
    assert from_wire(edit(m, ("port",), 65535)).port == 65535  # type: ignore[union-attr]
    with pytest.raises(MessageError):
        Hello(game=GAME, role="player", name="Bob", key=bytes(32), port=70000)


def test_a_welcome_has_no_port():
    """The first nine keys of a welcome are the hello's without port: the connector knows where it dialled."""
    for name in ("welcome", "welcome-lobby"):
        m = wire(name)
        assert "port" not in m and list(m)[:9] == list(wire("hello"))[:9]
        assert code_of({**m, "port": 40123}) == "bad-message"


# ---------------------------------------------------------------------- lobby.options (wire.md §4.6)


RIVER_OMIT = Rules(river=True, abbot=True, river_start="omit")


def river_lobby() -> dict[str, Any]:
    return edit(wire("lobby"), ("options",), RIVER_OMIT_MAP)


RIVER_OMIT_MAP = {"river": True, "abbot": True, "small-city": False, "farms": "farm", "river-start": "omit"}


def test_a_lobby_carries_the_headers_options_river_start_included():
    lobby = from_wire(river_lobby())
    assert isinstance(lobby, Lobby) and lobby.options == RIVER_OMIT
    assert to_wire(lobby)["options"] == RIVER_OMIT_MAP
    assert from_wire(to_wire(lobby)) == lobby
    again = decode_message(encode_message(Lobby(name="River", options=RIVER_OMIT, table=lobby.table)))
    assert isinstance(again, Lobby) and again.options == RIVER_OMIT
    # exactly the map a header of the same game carries (log.md §5)
    header = LogHeader.new(
        [Seat("Ann", "red"), Seat("Bob", "blue")], seed=1, created=0, game=GAME, options=RIVER_OMIT
    )
    assert to_wire(lobby)["options"] == log_to_wire(header)["options"]
    among = edit(edit(river_lobby(), ("options", "river-start"), "river"), ("options", "farms"), "city")
    assert from_wire(among).options == Rules(river=True, abbot=True, river_start="river", farms="city")  # type: ignore[union-attr]
    assert from_wire(wire("lobby")).options == Rules()  # type: ignore[union-attr]


def test_a_river_lobby_is_read_as_strictly_as_a_header():
    m = river_lobby()
    for key in ("river", "abbot", "small-city", "farms", "river-start"):
        assert code_of(edit(m, ("options", key), delete=True)) == "bad-message", key
    assert code_of(edit(m, ("options", "river-start"), "mix")) == "bad-message"  # rules 1's value
    assert code_of(edit(m, ("options", "farms"), "none")) == "bad-message"
    assert code_of(edit(m, ("options", "extra"), 1)) == "bad-message"
    assert code_of(edit(m, ("options", "river"), False)) == "bad-message"  # river-start without river


def test_a_lobby_refuses_options_it_could_not_write():
    taken = from_wire(wire("lobby")).table  # type: ignore[union-attr]
    for options in (Rules(river=True, river_start="sideways"), Rules(river=1), Rules(farms="fields"), "river"):  # type: ignore[arg-type]
        with pytest.raises(MessageError) as info:
            Lobby(name="Odd", options=options, table=taken)  # type: ignore[arg-type]
        assert info.value.code == "bad-message"


# ---------------------------------------------------------------------- what a peer saves (log format 2)


def test_the_wire_carries_what_a_peer_saves(tmp_path):
    """The header of a start and the entries of an entries message are log format 3 values: a peer
    records them as they are, signatures included (none on a draw), and its file loads and verifies
    them, every draw's values against the chain roots."""
    from carcnet.log import GameRecorder, load

    start = from_wire(wire("start"))
    header = start.header.header  # type: ignore[union-attr]
    assert header.format == 3 and header.keys == start.header.keys and header.nonces is None  # type: ignore[union-attr]
    assert header.commits == tuple(c[0] for c in chains()) and header.seed is None
    entries = from_wire(wire("entries")).entries  # type: ignore[union-attr]
    assert all(e.entry.sig == e.sig for e in entries) and entries[0].sig is None
    bob = seat_keys()[1]
    with GameRecorder.create(header, tmp_path / "bob.carclog", signers={1: bob}) as recorder:
        for signed in [*entries, signed_entries(4)[3]]:  # then the second draw, for Bob's turn
            recorder.append_signed(signed.entry)
        later = signed_entries(5)[4]
        recorder.submit(later.entry.move)  # Bob's own move: the same signed entry as the vectors'
        assert recorder.entries[-1] == later.entry
    loaded = load(tmp_path / "bob.carclog")
    assert [e.sig for e in loaded.entries] == [e.sig for e in signed_entries(5)]


def test_keys_and_signatures_are_required_on_the_wire():
    m = wire("start")
    assert code_of(edit(m, ("header", "keys"), None)) == "bad-header"
    with pytest.raises(MessageError) as info:
        WireHeader.of(LogHeader.new([Seat("Ann", "red"), Seat("Bob", "blue")], seed=1))
    assert info.value.code == "bad-header"
    assert code_of(edit(wire("entries"), ("entries", 1, "sig"), None)) == "bad-message"
    assert code_of(edit(wire("entries"), ("entries", 0, "sig"), bytes(64))) == "bad-message"  # a draw is not signed
