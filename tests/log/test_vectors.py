"""The golden vectors of protocol/log.md against the code, in both directions:
encode(json) == bin and decode(bin) == json. The format-1 vectors (log, log-seeded) are the check
that files written before format 2 still load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from carcnet.log import MAGIC, LogWriter, encode_record, entry_bytes, load, pack, scan
from carcnet.log.values import MAX_NAME, name_problem
from carcnet.net import SeatKey

from .vectors import NAMES, VECTORS, file_bytes, from_json, games, to_json, vector


@pytest.mark.parametrize("name", NAMES)
def test_encoding_the_json_gives_the_bytes(name, tmp_path: Path):
    vec, data = vector(name)
    fmt = NAMES[name]
    assert vec["header"]["format"] == fmt
    items = [from_json(vec["header"]), *(from_json(e, fmt) for e in vec["entries"])]
    assert MAGIC + b"".join(encode_record(pack(i, format=fmt)) for i in items) == data
    # and the writer produces exactly these bytes
    with LogWriter.create(tmp_path / "w.carclog", items[0]) as writer:  # type: ignore[arg-type]
        for entry in items[1:]:
            writer.append(entry)  # type: ignore[arg-type]
    assert (tmp_path / "w.carclog").read_bytes() == data


@pytest.mark.parametrize("name", NAMES)
def test_decoding_the_bytes_gives_the_json(name, tmp_path: Path):
    vec, data = vector(name)
    path = tmp_path / "v.carclog"
    path.write_bytes(data)
    loaded = load(path)
    assert loaded.damage is None and loaded.valid_size == len(data) == vec["size"]
    assert loaded.header.format == NAMES[name]
    assert to_json(loaded.header) == vec["header"]
    assert [to_json(e, NAMES[name]) for e in loaded.entries] == vec["entries"]
    assert [str(e.move) for e in loaded.entries] == vec["moves"]
    assert loaded.game.scores == vec["scores"]
    assert loaded.game.phase.value == vec["phase"]
    records, _ = scan(data)
    assert [{"seq": r.index, "offset": r.offset, "size": len(r.body) + 12} for r in records] == vec["records"]


def test_vectors_are_what_the_generator_makes():
    made = games()
    assert set(made) == set(NAMES)
    for name, (header, entries) in made.items():
        assert file_bytes(header, entries) == vector(name)[1], name


def test_the_format_2_game_is_the_format_1_game_with_the_new_fields_nil():
    (v1, _), (v2, _) = vector("log"), vector("log2")
    assert {**v2["header"], "format": 1} == {**v1["header"], "keys": None, "commits": None, "nonces": None}
    assert v2["entries"] == [{**e, "sig": None} for e in v1["entries"]]


def test_the_signed_vector_is_signed_by_the_seeds_it_gives():
    vec, _ = vector("log2-signed")
    header = vec["header"]
    keys = [SeatKey.from_seed(bytes.fromhex(s)) for s in vec["seat_key_seeds"]]
    assert [k.public.hex() for k in keys] == header["keys"]
    loaded = load(VECTORS / "log2-signed.bin")
    assert loaded.header.signed and {e.seat for e in loaded.entries} == {0, 1, 2}
    for entry, raw in zip(loaded.entries, vec["entries"], strict=True):
        assert keys[entry.seat].sign(entry_bytes(header["game"], entry)).hex() == raw["sig"]


def test_the_hex_dump_in_the_spec_matches_the_vector():
    from .make_vectors import dump

    spec = (Path(__file__).parents[2] / "protocol" / "log.md").read_text()
    assert dump(vector("log2")[1]) in spec


# ---------------------------------------------------------------------- docs/log-format.md stays true

DOC = Path(__file__).parents[2] / "docs" / "log-format.md"


def test_the_dump_script_in_the_docs_runs(tmp_path: Path):
    import re
    import subprocess
    import sys

    script = re.search(r"```python\n(import struct.*?)```", DOC.read_text(), re.DOTALL)
    assert script is not None
    (tmp_path / "dump.py").write_text(script.group(1))
    _, data = vector("log2")
    from .util import record_spans

    last = record_spans(data)[-1][0]
    (tmp_path / "torn.carclog").write_bytes(data[: last + 63])
    run = [sys.executable, str(tmp_path / "dump.py")]
    out = subprocess.run([*run, str(VECTORS / "log2.bin")], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    assert len(lines) == 8 and lines[-1] == "end of log"
    assert lines[1] in DOC.read_text() and lines[2] in DOC.read_text() and lines[6] in DOC.read_text()
    out = subprocess.run(
        [*run, str(tmp_path / "torn.carclog")], capture_output=True, text=True, check=True
    ).stdout
    assert out.splitlines()[-1] == f"63 bytes at {last} are damaged"


def test_the_messages_quoted_in_the_docs_are_the_real_ones(tmp_path: Path):
    from carcnet.log import LogError

    from .util import craft, record_spans, wire_maps, write

    doc = " ".join(DOC.read_text().split())
    _, data = vector("log2")
    last = record_spans(data)[-1][0]
    middle = bytearray(data)
    middle[record_spans(data)[3][0] + 30] ^= 1
    corrupt = bytearray(data)
    corrupt[-2] ^= 1

    def edited(record: int, **changes) -> bytes:
        maps = wire_maps(data)
        maps[record].update(changes)
        return craft(*maps)

    cases = [
        data[: last + 40],
        bytes(corrupt),
        bytes(middle),
        edited(0, format=4),
        edited(0, rules=7),
        edited(3, seat=0),
        edited(4, digest=bytes(32)),
        edited(3, move={"type": "place", "tile": "U", "pos": [4, 4], "rot": 1}),
    ]
    signed = vector("log2-signed")[1]
    for change in ({"sig": bytes(64)}, {"sig": None}):
        maps = wire_maps(signed)
        maps[3].update(change)
        cases.append(craft(*maps))
    for content in cases:
        path = write(tmp_path, content)
        try:
            message = load(path).damage.message  # type: ignore[union-attr]
        except LogError as exc:
            message = str(exc).removeprefix(f"{path.name}: ")
        assert message in doc, message


def test_the_rule_of_names_judges_the_names_vector_as_it_says():
    """vectors/names.json (log.md §5): names that look blank (Hangul fillers, the Braille blank, a
    variation selector alone) are refused like white space and invisible characters; an emoji with
    its variation selector and Braille text are names."""
    data = json.loads((VECTORS / "names.json").read_text())
    assert data["max_name"] == MAX_NAME
    assert [name for name, _ in data["accepted"] if name_problem(name) is not None] == []
    assert [name for name, _ in data["refused"] if name_problem(name) is None] == []
