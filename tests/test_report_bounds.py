"""``carcnet verify`` of a crafted report (docs/bug-reports.md): bounded in what it inflates and keeps
whatever the zip holds or says of itself (members, their sizes together, the manifest's nesting and
numbers), every bad field one line, never a traceback."""

from __future__ import annotations

import json
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from carcnet.cli import main
from carcnet.cli.common import EXIT_OK, EXIT_USAGE
from carcnet.table.bundle import MAX_MEMBER, MAX_TOTAL, BundleError, read_bundle, write_bundle


@pytest.fixture
def save(tmp_path, monkeypatch, capsys) -> Path:
    monkeypatch.setenv("CARCNET_DATA_DIR", str(tmp_path / "data"))
    assert main(["demo", "--players", "2", "--bot", "greedy", "--seed", "3", "--save"]) == EXIT_OK
    return Path(capsys.readouterr().out.strip().splitlines()[-1].removeprefix("saved to "))


def _members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _crafted(tmp_path: Path, members: dict[str, bytes], name: str = "crafted.zip") -> Path:
    path = tmp_path / name
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for member, body in members.items():
            archive.writestr(member, body)
    return path


def _verify(path: Path, capsys) -> tuple[int, str, str]:
    status = main(["verify", str(path)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def test_members_of_zeros_are_refused_within_a_bounded_memory(save, tmp_path, capsys) -> None:
    """A report of small compressed members that inflate to 16 MiB of zeros each, under the names a
    report holds and others: refused once their bytes together pass the bound, the memory kept
    bounded by it (not by the members' count)."""
    report = _members(write_bundle(save, tmp_path / "out"))
    zeros = bytes(MAX_MEMBER)
    names = ["connections.jsonl", "connections-saved.jsonl", "program.log", "screen.svg", "screen.txt",
             "settings.json", *(f"junk-{i}.bin" for i in range(6))]
    crafted = _crafted(tmp_path, {**report, **{n: zeros for n in names}})
    assert crafted.stat().st_size < 2 * 1024 * 1024
    tracemalloc.start()
    try:
        with pytest.raises(BundleError, match="together"):
            read_bundle(crafted)
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < MAX_TOTAL + 2 * MAX_MEMBER, peak
    status, _out, err = _verify(crafted, capsys)
    assert status == EXIT_USAGE and len(err.strip().splitlines()) == 1 and "together" in err


def test_members_a_report_never_holds_are_not_read(save, tmp_path, capsys) -> None:
    report = _members(write_bundle(save, tmp_path / "out"))
    crafted = _crafted(tmp_path, {**report, **{f"junk-{i}.bin": bytes(MAX_MEMBER) for i in range(4)}})
    tracemalloc.start()
    try:
        bundle = read_bundle(crafted)
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert not any(name.startswith("junk") for name in bundle.members)
    assert peak < 4 * 1024 * 1024, peak  # never inflated
    assert _verify(crafted, capsys)[0] == EXIT_OK


def test_a_deeply_nested_manifest_is_one_line(save, tmp_path, capsys) -> None:
    report = _members(write_bundle(save, tmp_path / "out"))
    manifest = json.loads(report["manifest.json"])
    nested = json.dumps(manifest)[:-1] + ', "deep": ' + "[" * 200_000 + "]" * 200_000 + "}"
    crafted = _crafted(tmp_path, {**report, "manifest.json": nested.encode()})
    status, _out, err = _verify(crafted, capsys)
    assert status == EXIT_USAGE and len(err.strip().splitlines()) == 1 and "deep" in err, err


@pytest.mark.parametrize(("changes", "field"), [
    ({"moves": -10**9}, "table.moves"),
    ({"moves": 10**9}, "table.moves"),
    ({"moves": True}, "table.moves"),
    ({"digest": "z" * 64}, "table.digest"),
    ({"stop": {"code": "desync", "seq": -5, "theirs": ""}}, "table.stop.seq"),
    ({"stop": {"code": "desync", "seq": 3, "theirs": "0" * 3}}, "table.stop.theirs"),
    ({"stop": {"code": "\x1b[2J", "seq": 3, "theirs": ""}}, "table.stop.code"),
    ({"stop": [1, 2]}, "table.stop"),
])
def test_each_bad_number_or_field_of_the_table_is_one_line(save, tmp_path, capsys, changes, field) -> None:
    report = _members(write_bundle(save, tmp_path / "out"))
    manifest = json.loads(report["manifest.json"])
    manifest["table"] = {"kind": "network", "status": "playing", "moves": 3, "digest": "0" * 64, "stop": None,
                         **changes}
    crafted = _crafted(tmp_path, {**report, "manifest.json": json.dumps(manifest).encode()})
    status, out, _err = _verify(crafted, capsys)
    lines = [line for line in out.splitlines() if line.startswith("manifest.json: ")]
    assert len(lines) == 1 and lines[0].startswith(f"manifest.json: {field}"), out
    assert status in (EXIT_OK, 1)


def test_printed_fields_cannot_drive_the_terminal(save, tmp_path, capsys) -> None:
    report = _members(write_bundle(save, tmp_path / "out"))
    manifest = json.loads(report["manifest.json"])
    manifest.update(note="\x1b]0;owned\x07" + "n" * 100_000, carcnet=12, origin=["x"])
    crafted = _crafted(tmp_path, {**report, "manifest.json": json.dumps(manifest).encode()})
    status, out, _err = _verify(crafted, capsys)
    assert status == EXIT_OK and "\x1b" not in out and "\x07" not in out
    assert max(len(line) for line in out.splitlines()) < 2100
    assert sum(line.startswith("manifest.json: ") for line in out.splitlines()) == 3, out
