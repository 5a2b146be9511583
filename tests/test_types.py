"""The type check of ``pyproject.toml``'s ``[tool.mypy]``: ``mypy --strict`` over carcnet/net and
carcnet/table finds nothing (the modules they import are read for their types, their own errors not
reported). mypy runs in a subprocess, as tests/test_layers.py runs lint-imports, with its cache in the
test's temporary directory."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_config_checks_the_network_and_the_tables_strictly():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["strict"] is True
    assert sorted(config["files"]) == ["carcnet/net", "carcnet/table"]
    assert config["follow_imports"] == "silent"
    assert "overrides" not in config  # nothing checked more leniently than --strict


def test_mypy_strict_finds_nothing(tmp_path):
    pytest.importorskip("mypy")
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
         "--cache-dir", str(tmp_path / "mypy-cache"), "--no-color-output"],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.startswith("Success: no issues found"), out.stdout + out.stderr
