"""Discovery (protocol/discovery.md): the TXT record both ways, typed addresses, and real mDNS between
two network hosts (namespaces made by :mod:`tests.net.netns`; skipped where they cannot be made)."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from carcnet.engine import RULES_VERSION
from carcnet.log.values import name_problem
from carcnet.net.adverts import SERVICE_TYPE, TXT_KEYS, GameAd, HostPort, parse_host_port
from carcnet.net.discovery import Advertiser, Browser, DiscoveryError
from carcnet.net.messages import PROTO_VERSION

from . import netns

GAME = "3f2a9c1b5d6e4f708192a3b4c5d6e7f8"
KEY = bytes.fromhex("89f17e53" * 8)
AD = GameAd(
    game=GAME,
    name="Friday game",
    phase="lobby",
    seats_taken=1,
    seats_total=2,
    peer="Ann",
    role="host",
    key=KEY,
    port=7000,
)


def txt(*items: bytes) -> bytes:
    """TXT RDATA from strings (RFC 6763 §6.1)."""
    return b"".join(bytes([len(item)]) + item for item in items)


def items(ad: GameAd) -> list[bytes]:
    """The strings of an ad's TXT record, in order."""
    data, out, pos = ad.to_txt(), [], 0
    while pos < len(data):
        out.append(data[pos + 1 : pos + 1 + data[pos]])
        pos += 1 + data[pos]
    return out


# ---------------------------------------------------------------------- the TXT record

names = st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=32).filter(
    lambda name: name_problem(name) is None  # valid names (the rule has its own tests: tests/test_names.py)
)
ads = st.builds(
    lambda game, name, phase, total, taken, peer, role, key, port, proto, rules: GameAd(
        game=game,
        name=name,
        phase=phase,
        seats_taken=min(taken, total),
        seats_total=total,
        peer=peer,
        role=role,
        key=key,
        port=port,
        proto=proto,
        rules=rules,
    ),
    st.from_regex(r"[0-9a-f]{32}", fullmatch=True),
    names,
    st.sampled_from(["lobby", "playing", "finished"]),
    st.integers(2, 6),
    st.integers(0, 6),
    names,
    st.sampled_from(["host", "player"]),
    st.binary(min_size=32, max_size=32),
    st.integers(1, 65535),
    st.integers(0, 999_999_999),
    st.integers(0, 999_999_999),
)


def test_txt_is_the_spec_example():
    assert items(AD) == [
        b"proto=11",
        b"rules=6",
        b"game=" + GAME.encode(),
        b"gname=Friday game",
        b"phase=lobby",
        b"seats=1/2",
        b"peer=Ann",
        b"role=host",
        b"key=" + KEY.hex().encode(),
    ]
    assert (AD.proto, AD.rules) == (PROTO_VERSION, RULES_VERSION)
    assert AD.compatible and AD.joinable


@given(ads)
def test_txt_round_trip(ad):
    data = ad.to_txt()
    assert [item.split(b"=")[0].decode() for item in items(ad)] == list(TXT_KEYS)
    assert all(len(item) < 256 for item in items(ad)) and len(data) <= 429
    assert GameAd.from_txt(data, port=ad.port) == ad
    addressed = replace(ad, addresses=("10.0.0.7", "fe80::1%eth0"))
    assert GameAd.from_txt(data, port=ad.port, addresses=addressed.addresses) == addressed


@given(ads)
def test_txt_round_trip_through_zeroconf(ad):
    from zeroconf import ServiceInfo  # only to see what a resolved record's properties look like

    info = ServiceInfo(SERVICE_TYPE, f"x.{SERVICE_TYPE}", port=ad.port, properties=ad.to_txt())
    assert info.text == ad.to_txt()
    assert GameAd.from_txt(info.properties, port=ad.port) == ad
    assert GameAd.from_txt(info.decoded_properties, port=ad.port) == ad


def test_reading_is_lenient_where_rfc_6763_says_so():
    base = items(AD)
    upper = [item.split(b"=")[0].upper() + b"=" + item.split(b"=", 1)[1] for item in base]
    assert GameAd.from_txt(txt(*upper), port=7000) == AD  # keys compare case-insensitively (§6.4)
    assert GameAd.from_txt(txt(b"color=red", *base, b"new=1", b"flag"), port=7000) == AD  # unknown keys
    assert GameAd.from_txt(txt(b"", b"=x", *base), port=7000) == AD  # empty strings, no key (§6.4)
    assert GameAd.from_txt(txt(*base, b"phase=bogus"), port=7000) == AD  # the first of a key counts
    with pytest.raises(ValueError, match="phase"):
        GameAd.from_txt(txt(b"phase=bogus", *base), port=7000)
    newer = PROTO_VERSION + 1
    other = GameAd.from_txt(txt(b"proto=%d" % newer, *base[1:]), port=7000)  # shown, not connected to (§3)
    assert other.proto == newer and not other.compatible and not other.joinable
    assert not replace(AD, seats_taken=2).joinable and not replace(AD, role="player").joinable


BAD_VALUES = {
    "proto": [b"", b"x", b"-1", b"01", b"1.0", b" 1", b"1234567890", "١".encode()],
    "rules": [b"", b"one", b"+1"],
    "game": [b"", GAME.upper().encode(), GAME[:31].encode(), (GAME + "0").encode(), b"g" * 32],
    "gname": [b"", b"   ", b"x" * 33, b"a\x00b", b"tab\there", b"\xff\xfe"],
    "phase": [b"", b"Lobby", b"over", b"lobby "],
    "seats": [b"", b"1", b"1/", b"/2", b"3/2", b"1/7", b"0/1", b"1/02", b"a/b", b"1 / 2"],
    "peer": [b"", b" ", b"y" * 33, b"\x1b[31m"],
    "role": [b"", b"spectator", b"HOST"],
    "key": [b"", KEY.hex().upper().encode(), KEY.hex()[:62].encode(), b"z" * 64],
}


@pytest.mark.parametrize(("key", "value"), [(k, v) for k, vs in BAD_VALUES.items() for v in vs])
def test_malformed_value_is_refused(key, value):
    strings = [
        item if item.split(b"=")[0] != key.encode() else key.encode() + b"=" + value for item in items(AD)
    ]
    with pytest.raises(ValueError):
        GameAd.from_txt(txt(*strings), port=7000)


@pytest.mark.parametrize("key", TXT_KEYS)
def test_missing_or_valueless_key_is_refused(key):
    kept = [item for item in items(AD) if item.split(b"=")[0] != key.encode()]
    with pytest.raises(ValueError, match=key):
        GameAd.from_txt(txt(*kept), port=7000)
    with pytest.raises(ValueError, match=key):
        GameAd.from_txt(txt(*kept, key.encode()), port=7000)  # a boolean attribute: no value


def test_unreadable_records_are_refused():
    data = AD.to_txt()
    for bad in (data[:-1], data + b"\x05ab", b"", b"\x00", bytes([200]) + b"x"):
        with pytest.raises(ValueError):
            GameAd.from_txt(bad, port=7000)
    for port in (None, 0, 65536, "7000", True):
        with pytest.raises(ValueError):
            GameAd.from_txt(data, port=port)  # type: ignore[arg-type]
    for thing in (None, 7, "proto=1", ["proto=1"], {"proto": 1}, {b"proto": object()}):
        with pytest.raises(ValueError):
            GameAd.from_txt(thing, port=7000)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="addresses"):
        GameAd.from_txt(data, port=7000, addresses=["not-an-ip"])


@given(st.binary(max_size=600))
def test_any_bytes_read_or_raise_value_error(data):
    try:
        ad = GameAd.from_txt(data, port=7000)
    except ValueError:
        return
    assert GameAd.from_txt(ad.to_txt(), port=7000) == ad


@given(ads, st.data())
def test_any_edit_of_a_record_reads_or_raises_value_error(ad, data):
    strings = items(ad)
    i = data.draw(st.integers(0, len(strings) - 1))
    strings[i] = data.draw(st.one_of(st.binary(max_size=40), st.just(strings[i].split(b"=")[0] + b"=")))
    if data.draw(st.booleans()):
        strings.insert(data.draw(st.integers(0, len(strings))), data.draw(st.binary(max_size=40)))
    try:
        GameAd.from_txt(txt(*strings), port=ad.port)
    except ValueError:
        pass


@given(
    st.dictionaries(
        st.one_of(st.text(max_size=8), st.binary(max_size=8)),
        st.one_of(st.none(), st.text(max_size=8), st.binary(max_size=8)),
        max_size=12,
    )
)
def test_any_mapping_reads_or_raises_value_error(mapping):
    try:
        GameAd.from_txt(mapping, port=7000)
    except ValueError:
        pass


def test_writing_refuses_what_readers_would_refuse():
    for change in (
        {"game": GAME.upper()},
        {"name": ""},
        {"name": "x" * 33},
        {"peer": "a\nb"},
        {"phase": "over"},
        {"role": "spectator"},
        {"seats_total": 7},
        {"seats_total": 1, "seats_taken": 1},
        {"seats_taken": 3},
        {"seats_taken": True},
        {"key": bytes(31)},
        {"port": 0},
        {"proto": -1},
        {"addresses": ["10.0.0.1"]},
        {"addresses": ("10.0.0.256",)},
    ):
        with pytest.raises(ValueError):
            replace(AD, **change)


def test_instance_label():
    assert AD.instance_label == "Ann (3f2a9c1b)"
    assert replace(AD, peer="A.nn").instance_label == "A\u2024nn (3f2a9c1b)"  # no dot: one label
    long = replace(AD, peer="\U0001f600" * 32).instance_label  # 128 bytes of name
    assert len(long.encode()) <= 63 and long == "\U0001f600" * 15
    assert len(replace(AD, peer="é" * 32).instance_label.encode()) <= 63


@pytest.mark.asyncio
async def test_two_games_of_one_peer_get_two_names():
    from zeroconf.asyncio import AsyncServiceInfo

    adv = Advertiser()  # no socket: _free_name only looks at what this advertiser registered
    assert adv._free_name(AD.instance_label) == f"Ann (3f2a9c1b).{SERVICE_TYPE}"
    adv._infos[GAME] = AsyncServiceInfo(SERVICE_TYPE, f"ann (3F2A9C1B).{SERVICE_TYPE}")
    assert adv._free_name(AD.instance_label) == f"Ann (3f2a9c1b) (2).{SERVICE_TYPE}"
    long = replace(AD, peer="x" * 32, name="y").instance_label
    adv._infos["0" * 32] = AsyncServiceInfo(SERVICE_TYPE, f"{long}.{SERVICE_TYPE}")
    assert len(adv._free_name(long).split("._carcnet")[0].encode()) <= 63
    adv._infos.clear()
    await adv.close()


# ---------------------------------------------------------------------- typed addresses


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("192.168.1.20:7000", ("192.168.1.20", 7000)),
        ("  10.0.0.1:1 ", ("10.0.0.1", 1)),
        ("[::1]:65535", ("::1", 65535)),
        ("[FE80::0001%eth0]:7000", ("fe80::1%eth0", 7000)),
        ("[2001:db8::1]:7000", ("2001:db8::1", 7000)),
        ("ann-laptop.local:7000", ("ann-laptop.local", 7000)),
        ("localhost:80", ("localhost", 80)),
        ("Host.Example.:8080", ("Host.Example.", 8080)),
    ],
)
def test_parse_host_port(text, expected):
    assert parse_host_port(text) == HostPort(*expected)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no address"),
        ("   ", "no address"),
        ("10.0.0.1", "no port"),
        ("ann-laptop", "no port"),
        ("10.0.0.1:", "empty port"),
        (":7000", "no host"),
        ("10.0.0.1:0", "1 to 65535"),
        ("10.0.0.1:65536", "1 to 65535"),
        ("10.0.0.1:-1", "1 to 65535"),
        ("10.0.0.1:7e3", "1 to 65535"),
        ("10.0.0.1:٧٠٠٠", "1 to 65535"),
        ("10.0.0.1:000007000", "1 to 65535"),
        ("256.1.1.1:7000", "not an IPv4 address"),
        ("10.0.1:7000", "not an IPv4 address"),
        ("fe80::1:7000", "needs brackets"),
        ("::1", "needs brackets"),
        ("[::1", "without ']'"),
        ("[::1]", "expected :port"),
        ("[::1]7000", "expected :port"),
        ("[10.0.0.1]:7000", "not an IPv6 address"),
        ("[nope]:7000", "not an IPv6 address"),
        ("bad_name:7000", "not a host name"),
        ("-lead.example:7000", "not a host name"),
        ("a..b:7000", "not a host name"),
        ("ann laptop:7000", "not a host name"),
        ("x" * 64 + ".local:7000", "not a host name"),
    ],
)
def test_parse_host_port_refuses(text, message):
    with pytest.raises(ValueError, match=message):
        parse_host_port(text)


def test_parse_host_port_default_port():
    assert parse_host_port("10.0.0.1", default_port=7000) == ("10.0.0.1", 7000)
    assert parse_host_port("[::1]", default_port=7000) == ("::1", 7000)
    assert parse_host_port("ann:7001", default_port=7000) == ("ann", 7001)
    with pytest.raises(ValueError):
        parse_host_port(None)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- objects without sockets


@pytest.mark.asyncio
async def test_arguments_are_checked_before_any_socket_opens():
    for bad in (
        {"interfaces": "10.0.0.1"},
        {"interfaces": []},
        {"interfaces": ["eth0"]},
        {"ip_version": "4"},
    ):
        with pytest.raises(ValueError):
            Advertiser(**bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            Browser(**bad)  # type: ignore[arg-type]


@pytest.mark.asyncio
async def test_closed_objects():
    browser = Browser()
    await browser.close()
    await browser.close()
    assert await browser.next_event(timeout=1) is None
    assert [event async for event in browser] == []
    with pytest.raises(DiscoveryError):
        await browser.start()
    adv = Advertiser()
    await adv.close()
    with pytest.raises(DiscoveryError):
        await adv.start(AD)
    await adv.stop(GAME)  # nothing advertised: nothing to do


# ---------------------------------------------------------------------- real mDNS between two hosts

#: Runs in a namespace: ``advertise ADDR SECONDS`` (commands on stdin, answers on stdout) or
#: ``browse ADDR SECONDS`` (events on stdout until stdin closes). One JSON object a line.
PEER = r"""
import asyncio, json, sys
from carcnet.net.adverts import SERVICE_TYPE, GameAd
from carcnet.net.discovery import Advertiser, Browser, GameFound, GameLost

def say(**message):
    print(json.dumps(message), flush=True)

def read_ad(d):
    return GameAd(**{**d, "key": bytes.fromhex(d["key"]), "addresses": tuple(d["addresses"])})

def show(ad):
    return {f: getattr(ad, f) for f in ad.__dataclass_fields__} | {"key": ad.key.hex(), "addresses": list(ad.addresses)}

async def stdin():
    reader = asyncio.StreamReader()
    loop = asyncio.get_running_loop()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    return reader

async def foreign(addr):
    # records a carcnet browser must ignore: not carcnet TXT, though of its service type
    from zeroconf import ServiceInfo
    from zeroconf.asyncio import AsyncZeroconf
    zc = AsyncZeroconf(interfaces=[addr])
    bad = [b"\x07proto=1", b"\x07proto=x\x09game=zzzz", b"\x0bphase=lobby" * 3, b"\xff\xff"]
    announced = []
    for i, text in enumerate(bad):
        info = ServiceInfo(SERVICE_TYPE, f"foreign {i}.{SERVICE_TYPE}", port=9, properties=text,
                           server="foreign.local.", parsed_addresses=[addr])
        announced.append(await zc.async_register_service(info, cooperating_responders=True))
    await asyncio.wait_for(asyncio.gather(*announced), 5)
    return zc

async def advertise(addr):
    lines = await stdin()
    extra = None
    async with Advertiser(interfaces=[addr]) as adv:
        say(ready=True)
        for _ in range(20):
            line = await lines.readline()
            if not line:
                break
            command = json.loads(line)
            try:
                if command["op"] == "foreign":
                    extra = await foreign(addr)
                    say(ok=True)
                elif command["op"] == "start":
                    say(ok=await adv.start(read_ad(command["ad"])))
                elif command["op"] == "update":
                    await adv.update(read_ad(command["ad"]))
                    say(ok=True)
                elif command["op"] == "close":
                    await adv.close()
                    say(ok=True)
                    break
            except Exception as exc:
                say(error=repr(exc))
    if extra is not None:
        await extra.async_close()

async def browse(addr):
    lines = await stdin()
    async with Browser(interfaces=[addr]) as browser:
        async def pump():
            async for event in browser:
                kind = type(event).__name__
                ad = None if isinstance(event, GameLost) else show(event.ad)
                say(event=kind, instance=event.instance, ad=ad)
        task = asyncio.create_task(pump())
        say(ready=True)
        await lines.readline()
    await asyncio.wait_for(task, 5)
    say(closed=True)

async def main(mode, addr, seconds):
    async with asyncio.timeout(seconds):
        await (advertise if mode == "advertise" else browse)(addr)

mode, addr, seconds = sys.argv[1:]
assert mode in ("advertise", "browse"), mode
asyncio.run(main(mode, addr, float(seconds)))
"""

#: Seconds the whole exchange may take; each peer process quits by itself after PEER_SECONDS.
EXCHANGE_SECONDS = 30.0
PEER_SECONDS = 40.0


@pytest.fixture
def lan():
    yield from netns.lan_for_test(2)


class Peer:
    """A peer process in a namespace, spoken to in JSON lines."""

    def __init__(self, proc: asyncio.subprocess.Process, name: str) -> None:
        self.proc, self.name = proc, name
        self.seen: list[dict[str, Any]] = []

    async def send(self, **command: Any) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(command).encode() + b"\n")
        await asyncio.wait_for(self.proc.stdin.drain(), 5)

    async def read(self, timeout: float) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), timeout)
        if not line:
            assert self.proc.stderr is not None
            err = await asyncio.wait_for(self.proc.stderr.read(), 5)
            rc = await asyncio.wait_for(self.proc.wait(), 5)
            raise AssertionError(f"{self.name} ended ({rc}): {err.decode(errors='replace')[-2000:]}")
        message = json.loads(line)
        self.seen.append(message)
        return message

    async def expect(self, timeout: float, **fields: Any) -> dict[str, Any]:
        """Read until a message has *fields*; fail on an ``error`` or after *timeout* seconds."""
        deadline = time.monotonic() + timeout
        for _ in range(1000):
            try:
                message = await self.read(max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                raise AssertionError(
                    f"{self.name}: no message with {fields} within {timeout} s; it said {self.seen}"
                ) from None
            assert "error" not in message, f"{self.name}: {message}"
            if all(message.get(k) == v for k, v in fields.items()):
                return message
        raise AssertionError(f"{self.name}: too many messages")


async def start_peer(lan: netns.Lan, host: netns.Host, mode: str) -> Peer:
    proc = await lan.spawn(host, sys.executable, "-c", PEER, mode, host.address, str(PEER_SECONDS))
    peer = Peer(proc, f"{mode} peer in {host.ns}")
    await peer.expect(15, ready=True)
    return peer


def ad_json(ad: GameAd) -> dict[str, Any]:
    return {f: getattr(ad, f) for f in ad.__dataclass_fields__} | {"key": ad.key.hex(), "addresses": []}


@pytest.mark.asyncio
async def test_a_game_is_found_updated_and_lost_across_the_lan(lan):
    host_a, host_b = lan.hosts
    started = time.monotonic()
    try:
        async with asyncio.timeout(EXCHANGE_SECONDS):
            b, a = await asyncio.gather(
                start_peer(lan, host_b, "browse"), start_peer(lan, host_a, "advertise")
            )
            await a.send(op="foreign")
            await a.expect(10, ok=True)
            await a.send(op="start", ad=ad_json(AD))
            instance = (await a.expect(10))["ok"]
            assert instance == f"Ann (3f2a9c1b).{SERVICE_TYPE}"

            found = await b.expect(10, event="GameFound")
            expected = ad_json(AD) | {"addresses": [host_a.address]}
            assert found == {"event": "GameFound", "instance": instance, "ad": expected}

            playing = replace(AD, phase="playing", seats_taken=2)
            await a.send(op="update", ad=ad_json(playing))
            await a.expect(10, ok=True)
            updated = await b.expect(10, event="GameUpdated")
            assert updated == {
                "event": "GameUpdated",
                "instance": instance,
                "ad": ad_json(playing) | {"addresses": [host_a.address]},
            }

            await a.send(op="close")
            await a.expect(10, ok=True)
            assert (await b.expect(10, event="GameLost")) == {
                "event": "GameLost",
                "instance": instance,
                "ad": None,
            }

            assert b.proc.stdin is not None
            b.proc.stdin.close()
            await b.expect(10, closed=True)
            assert await asyncio.wait_for(b.proc.wait(), 10) == 0
            assert await asyncio.wait_for(a.proc.wait(), 10) == 0
            for peer in (a, b):
                assert peer.proc.stderr is not None
                err = (await asyncio.wait_for(peer.proc.stderr.read(), 5)).decode(errors="replace")
                print(f"--- {peer.name} stderr:\n{err}")
                assert "Traceback" not in err, err
            events = [m for m in b.seen if "event" in m]
            assert [m["event"] for m in events] == ["GameFound", "GameUpdated", "GameLost"], events
            assert all(m["instance"] == instance for m in events)  # the foreign records were ignored
    finally:
        await lan.stop_processes()
    print(f"mDNS exchange took {time.monotonic() - started:.2f} s")


def test_lan_is_removed_even_when_a_test_fails():
    reason = netns.unavailable_reason()
    if reason:
        pytest.skip(reason)
    with pytest.raises(RuntimeError, match="deliberate"), netns.Lan(3) as made:
        assert {made.tag + s for s in ("-sw", "-n1", "-n2", "-n3")} <= set(netns.namespaces())
        raise RuntimeError("deliberate")
    assert netns.leftovers(made.tag) == []
