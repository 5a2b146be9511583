"""The house rules of docs/architecture.md, checked on the whole package: the import contracts of
``pyproject.toml`` (import-linter), no module importing another package's private names, and no
copied code (pylint's duplicate-code, a window of six lines)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "carcnet"


def test_the_import_contracts_are_kept():
    pytest.importorskip("importlinter")
    out = subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports())"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert "0 broken" in out.stdout


def _package_of(module: str) -> str:
    """``carcnet.net.sync`` → ``carcnet.net``; top-level modules are their own package."""
    parts = module.split(".")
    return ".".join(parts[:2])


def _private_imports() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom) or node.level or not (node.module or "").startswith("carcnet"):
                continue
            source = node.module or ""
            if _package_of(source) == _package_of(module):
                continue
            if any(part.startswith("_") and part != "__future__" for part in source.split(".")):
                found.append(f"{module} imports the private module {source}")
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.endswith("__"):
                    found.append(f"{module} imports the private name {source}.{alias.name}")
    return found


def test_no_module_imports_a_private_name_of_another_package():
    assert _private_imports() == []


def test_the_private_name_check_finds_one(tmp_path, monkeypatch):
    """The check above can fail: a module that takes another package's private name is reported."""
    fake = tmp_path / "carcnet" / "cli"
    fake.mkdir(parents=True)
    (fake / "x.py").write_text("from carcnet.log.codec import _kind\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path / "carcnet")
    assert _private_imports() == ["carcnet.cli.x imports the private name carcnet.log.codec._kind"]


def test_no_duplicated_code():
    """pylint's duplicate-code over carcnet/ with a window of six lines (imports and docstrings
    ignored) finds no pair."""
    pytest.importorskip("pylint")
    out = subprocess.run(
        [sys.executable, "-m", "pylint", "--disable=all", "--enable=duplicate-code", "--min-similarity-lines=6",
         "--persistent=n", "--score=n", "carcnet"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
