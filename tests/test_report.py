"""Bug reports (docs/bug-reports.md): ``carcnet report`` writes one zip with the save, its side file,
the connection log, versions, settings (never keys); ``carcnet verify`` and ``tests.bundles.replay_bundle``
replay it; a network table keeps its connection log beside its save (``<save>.events``)."""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import sys
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from carcnet.cli import main
from carcnet.cli.common import EXIT_OK, EXIT_REFUSED, EXIT_USAGE
from carcnet.engine import DrawTile, Rules
from carcnet.log import MAGIC, LogError, encode_record, load, pack
from carcnet.log.aside import aside_path
from carcnet.net.connections import NetEvent
from carcnet.net.parts import SignedEntry
from carcnet.net.replica import Desync
from carcnet.net.signing import sign_entry
from carcnet.table import NetTable, eventfile, plan_from_text
from carcnet.table.bundle import check_bundle, is_bundle, read_bundle, write_bundle
from carcnet.table.eventfile import FiledEvents, events_path
from carcnet.table.keys import keys_path, read_keys

from .bundles import BundleDesync, replay_bundle

LOOP = ("127.0.0.1", 0)


@pytest.fixture
def data_dir(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("CARCNET_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data" / "games"


def _demo(capsys, seed: int = 5) -> Path:
    assert main(["demo", "--players", "3", "--bot", "greedy", "--seed", str(seed), "--save"]) == EXIT_OK
    return Path(capsys.readouterr().out.strip().splitlines()[-1].removeprefix("saved to "))


def _report(capsys, *args: str) -> Path:
    assert main(["report", *args]) == EXIT_OK
    out = capsys.readouterr().out
    return Path(out.splitlines()[0].split(" written to ")[1])


def _members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


# ------------------------------------------------------------------------------ a local game


def test_a_report_holds_the_save_versions_and_settings_and_replays(data_dir, tmp_path, capsys, monkeypatch):
    save = _demo(capsys)
    config = Path(os.environ["CARCNET_CONFIG_DIR"])
    config.mkdir(parents=True, exist_ok=True)
    (config / "settings.json").write_text(json.dumps({"name": "Ann", "bell": False}))
    monkeypatch.chdir(tmp_path)
    path = _report(capsys, "--note", "the scores looked wrong")
    # where F12 in a game writes its reports: the saves folder's reports/, not the current folder
    assert path.parent == data_dir / "reports" and not list(tmp_path.glob("*.zip"))
    assert path.name.startswith(f"carcnet-report-{load(save).header.game[:8]}-")
    members = _members(path)
    assert set(members) == {"manifest.json", "save.carclog", "settings.json"}
    assert members["save.carclog"] == save.read_bytes()
    manifest = json.loads(members["manifest.json"])
    assert manifest["format"] == 1 and manifest["note"] == "the scores looked wrong"
    assert manifest["game"] == load(save).header.game and manifest["save"]["name"] == save.name
    assert manifest["save"]["verdict"].startswith("ok: 142 moves (finished)")
    assert set(manifest["packages"]) >= {"textual", "zeroconf", "msgpack", "cryptography"}
    assert all(manifest["packages"][p] for p in ("textual", "zeroconf", "msgpack", "cryptography"))
    assert manifest["carcnet"] and manifest["python"] and manifest["platform"] and manifest["command"] == sys.argv
    assert manifest["table"] is None  # no running table: nothing in memory to tell
    settings = json.loads(members["settings.json"])
    assert settings["name"] == "Ann" and settings["bell"] is False
    game = replay_bundle(path)
    assert game.digest == load(save).game.digest
    assert main(["verify", str(path)]) == EXIT_OK
    out = capsys.readouterr().out
    assert "note: the scores looked wrong" in out and f"ok: 142 moves (finished), digest {game.digest.hex()}" in out


def test_report_takes_the_save_written_last_or_the_one_named(data_dir, tmp_path, capsys):
    first, second = _demo(capsys, 5), _demo(capsys, 6)
    os.utime(second, (1_000_000, 1_000_000))  # the second was written long before the first
    out = tmp_path / "out"
    path = _report(capsys, "-o", str(out))
    assert path.parent == out and json.loads(_members(path)["manifest.json"])["save"]["name"] == first.name
    path = _report(capsys, str(second), "-o", str(out))
    assert _members(path)["save.carclog"] == second.read_bytes()


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda d: [], "no saved games in"),
        (lambda d: ["report", str(d / "nope.carclog")], "no save at"),
        (lambda d: ["report", str(_text_file(d))], "is not a carcnet save"),
    ],
    ids=["no-saves", "missing", "not-a-save"],
)
def test_report_errors_are_one_line_without_a_traceback(make, words, data_dir, tmp_path, capsys):
    argv = make(tmp_path) or ["report", "--dir", str(tmp_path / "empty")]
    assert main(argv) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith("carcnet: ") and words in err and "Traceback" not in err and len(err.splitlines()) == 1


def _text_file(folder: Path) -> Path:
    path = folder / "notes.carclog"
    path.write_text("not a game\n")
    return path


def test_a_tampered_entry_in_a_report_is_named_by_verify_and_the_replay(data_dir, tmp_path, capsys):
    save = _demo(capsys)
    report = write_bundle(save, tmp_path)
    members = _members(report)
    data = bytearray(members["save.carclog"])
    data[len(data) // 2] ^= 0x01
    tampered = tmp_path / "tampered.zip"
    with zipfile.ZipFile(tampered, "w") as archive:
        for name, body in members.items():
            archive.writestr(name, bytes(data) if name == "save.carclog" else body)
    assert main(["verify", str(tampered)]) == EXIT_REFUSED
    err = capsys.readouterr().err
    assert "seq " in err and "refused" in err
    with pytest.raises(LogError) as refused:
        replay_bundle(tampered)
    assert refused.value.seq is not None and refused.value.seq > 1


def test_verify_says_a_file_that_is_not_a_report(tmp_path, capsys):
    junk = tmp_path / "junk.zip"
    with zipfile.ZipFile(junk, "w") as archive:
        archive.writestr("hello.txt", "hi")
    assert main(["verify", str(junk)]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "no manifest.json" in err and "Traceback" not in err


def test_the_side_file_goes_in_and_is_listed_as_set_aside(data_dir, tmp_path, capsys):
    save = _demo(capsys)
    loaded = load(save)
    # two runs, as two heals would have set them aside: the last two entries, then a forged one
    forged = dataclasses.replace(loaded.entries[100], digest=bytes(32))
    kept = [*loaded.entries[-2:], forged]
    aside = aside_path(save)
    aside.write_bytes(MAGIC + encode_record(pack(loaded.header)) + b"".join(
        encode_record(pack(e, format=loaded.header.format)) for e in kept))
    report = write_bundle(save, tmp_path)
    assert _members(report)["save.aside"] == aside.read_bytes()
    assert main(["verify", str(report)]) == EXIT_OK
    out = capsys.readouterr().out
    names = [s.name for s in loaded.header.seats]
    assert "set aside (not part of the game): 3 entries" in out
    for e in kept:
        assert f"seq {e.seq}: {names[e.seat]}: {e.move}" in out
    assert f"(the run from seq {forged.seq} does not check on the save: seq {forged.seq}: chain-broken" in out
    assert "the run from seq 141" not in out
    assert main(["verify", str(save)]) == EXIT_OK  # a save with its side file beside it
    assert "set aside (not part of the game): 3 entries" in capsys.readouterr().out
    assert replay_bundle(report).digest == loaded.game.digest  # the side file is never replayed into the game


def test_settings_named_like_key_material_stay_out(data_dir, tmp_path, capsys):
    save = _demo(capsys)
    secret = "5e" * 32
    report = write_bundle(save, tmp_path, settings={"name": "Ann", "seat_key": secret, "nested": {"Private": secret}})
    members = _members(report)
    assert json.loads(members["settings.json"]) == {"name": "Ann", "nested": {}}
    assert not any(secret.encode() in body for body in members.values())


def test_a_running_table_that_disagrees_with_its_save_is_reported(data_dir, tmp_path, capsys):
    save = _demo(capsys)
    game = load(save).game
    table = _stub_table(game, digest_of=lambda g: bytes(32))
    report = write_bundle(save, tmp_path, table=table)  # type: ignore[arg-type]
    manifest = json.loads(_members(report)["manifest.json"])
    assert manifest["table"]["moves"] == 142 and manifest["table"]["notes"] == ["a note"]
    assert main(["verify", str(report)]) == EXIT_REFUSED
    assert "the table and its save disagree: at move 142" in capsys.readouterr().out
    with pytest.raises(BundleDesync):
        replay_bundle(report)
    agreeing = write_bundle(save, tmp_path, table=_stub_table(game))  # type: ignore[arg-type]
    assert replay_bundle(agreeing).digest == game.digest


def _stub_table(game, desync=None, digest_of=None):
    """What a report reads of a table: its game, status, presence, notes and stop."""
    shown = game
    if digest_of is not None:
        shown = SimpleNamespace(moves=game.moves, digest=digest_of(game))
    return SimpleNamespace(kind="local", status="playing", game=shown, away=list, cut_off=False,
                           failure=None, notes=["a note"], desync=desync)


# ------------------------------------------------------------------------------ a network game


async def _loopback_game(tmp_path: Path) -> tuple[NetTable, NetTable, Path]:
    """A 2-seat table on loopback (the host's greedy bot and a joining random bot) played to the end."""
    from tests.net.loopback import FAST, until

    host = NetTable.host(name="Ann", game_name="Report", rules=Rules(), plan=plan_from_text("greedy,open", me="Ann"),
                         directory=tmp_path / "host", listen=LOOP, discovery=False, timing=FAST)
    async with host:
        address = ("127.0.0.1", host.peer.port)  # type: ignore[union-attr]
        bob = NetTable.join(host.game_id, name="Bob", bot="random", directory=tmp_path / "bob", listen=LOOP,
                            dial=[address], discovery=False, timing=FAST)
        async with bob:
            games = [host, bob]
            await until([g.peer for g in games], lambda: all(g.status == "finished" for g in games), 60)  # type: ignore[misc]
            await until([g.peer for g in games], lambda: bob.session.have == host.session.have, 20)  # type: ignore[misc]
            report = write_bundle(host.path, tmp_path / "reports", table=host, note="live")  # type: ignore[arg-type]
    return host, bob, report


@pytest.mark.asyncio
async def test_a_network_game_report_has_its_connection_log_and_no_secret(tmp_path):
    host, bob, report = await _loopback_game(tmp_path)
    members = _members(report)
    assert {"manifest.json", "save.carclog", "connections.jsonl", "connections-saved.jsonl"} <= set(members)
    live = [json.loads(line) for line in members["connections.jsonl"].decode().splitlines()]
    assert any(e["code"] == "open" and e["peer"] == "Bob" for e in live)
    filed = [json.loads(line) for line in members["connections-saved.jsonl"].decode().splitlines()]
    assert any(e["code"] == "open" and e["peer"] == "Bob" for e in filed)  # written beside the save as it happened
    assert events_path(host.path).is_file()
    manifest = json.loads(members["manifest.json"])
    assert manifest["table"]["kind"] == "host" and manifest["table"]["digest"] == host.session.digest.hex()
    # no private key of this laptop (seat or identity), in any spelling, in any file of the report
    keys = read_keys(keys_path(host.path), host.header)  # type: ignore[arg-type]
    secrets = [keys.identity.seed, *(k.seed for k in keys.seats.values())]
    assert secrets and all(len(s) == 32 for s in secrets)
    for secret in secrets:
        spellings = [secret, secret.hex().encode(), secret.hex().upper().encode(), base64.b64encode(secret),
                     base64.urlsafe_b64encode(secret).rstrip(b"=")]
        for name, body in members.items():
            assert not any(s in body for s in spellings), f"a private key in {name}"
    assert not any(name.endswith(".keys") for name in members)
    game = replay_bundle(report)
    assert game.digest == host.session.digest

    # The stop of a network game replayed: an entry of seat 0 at seq k, signed by its key but with
    # another digest, as a peer whose engine parted would send it; and the genuine entry, not a stop.
    loaded = load(host.path)
    k, entry = next((e.seq, e) for e in loaded.entries[10:] if not isinstance(e.move, DrawTile) and e.seat == 0)
    forged = dataclasses.replace(entry, digest=bytes(32), sig=None)
    forged = dataclasses.replace(forged, sig=sign_entry(keys.seats[0], loaded.header.game, forged))
    stop = Desync(code="desync", seq=k, seat=0, peer="Bob", peer_key=bob.session.identity.public, local="Ann",
                  message="their digest differs", ours=None, theirs=SignedEntry(forged, forged.sig))
    stopped = write_bundle(host.path, tmp_path / "reports", table=_stub_table(loaded.game, stop))  # type: ignore[arg-type]
    with pytest.raises(BundleDesync) as replayed:
        replay_bundle(stopped)
    assert replayed.value.check.stop.error.reason == "chain-broken" and replayed.value.check.stop.seq == k
    genuine = dataclasses.replace(stop, theirs=SignedEntry(entry, entry.sig))
    quiet = write_bundle(host.path, tmp_path / "reports", table=_stub_table(loaded.game, genuine))  # type: ignore[arg-type]
    assert replay_bundle(quiet).digest == loaded.game.digest
    assert "not replayed" in check_bundle(quiet).stop.text  # type: ignore[union-attr]


# ------------------------------------------------------------------------------ the connection log file


def _event(n: int) -> NetEvent:
    return NetEvent(float(n), "info", "open", f"event {n}", None, "Bob", bytes([n % 256]) * 32)


def test_the_connection_log_is_filed_once_there_is_a_save_and_stays_bounded(tmp_path, monkeypatch):
    save: list[Path] = []
    events = FiledEvents((), 1000, save=lambda: save[0] if save else None, clock=lambda: 10.0)
    events.append(_event(1))  # the lobby: no save yet
    assert events.path is None and list(events) == [_event(1)]
    save.append(tmp_path / "game.carclog")
    events.append(_event(2))
    path = tmp_path / "game.events"
    assert events.path == path
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [e["message"] for e in lines] == ["event 1", "event 2"] and lines[0]["peer_key"] == "01" * 32
    monkeypatch.setattr(eventfile, "MAX_BYTES", 2000)
    for n in range(3, 200):
        events.append(_event(n))
    assert path.stat().st_size <= 2000
    lines = path.read_text().splitlines()
    assert json.loads(lines[-1])["message"] == "event 199" and json.loads(lines[0])["message"].startswith("event ")
    assert len(events) == 199  # memory keeps its own bound


def test_a_report_is_read_back_bounded_and_refuses_a_newer_format(tmp_path):
    newer = tmp_path / "newer.zip"
    with zipfile.ZipFile(newer, "w") as archive:
        archive.writestr("manifest.json", json.dumps({"format": 99}))
        archive.writestr("save.carclog", MAGIC)
    with pytest.raises(Exception, match="format 99"):
        read_bundle(newer)


def test_a_save_is_never_taken_for_a_report_whatever_its_records_hold(data_dir, tmp_path, capsys):
    save = _demo(capsys)
    empty = tmp_path / "empty.zip"
    zipfile.ZipFile(empty, "w").close()
    odd = tmp_path / "odd.carclog"  # a save whose last bytes happen to end like a zip
    odd.write_bytes(save.read_bytes() + empty.read_bytes())
    assert zipfile.is_zipfile(odd) and not is_bundle(odd) and is_bundle(empty)
