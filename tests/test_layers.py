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


def _import_circles() -> list[list[str]]:
    """The circles of imports among carcnet's modules (Tarjan's strongly connected components of the
    import graph), imports made only for type checking (``if TYPE_CHECKING:``) included."""
    import grimp

    graph = grimp.build_graph("carcnet", exclude_type_checking_imports=False)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in sorted(graph.modules)}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in edges[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            part = []
            while True:
                other = stack.pop()
                part.append(other)
                if other == module:
                    break
            if len(part) > 1:
                circles.append(sorted(part))

    for module in edges:
        if module not in index:
            visit(module)
    return circles


def test_no_module_takes_part_in_an_import_circle():
    """No circle of imports anywhere in carcnet/, at the type level too (docs/architecture.md)."""
    pytest.importorskip("grimp")
    assert _import_circles() == []


#: The size of a room (docs/architecture.md): no module of the network layer or the tables over this
#: many lines, no class there with more methods of its own than this.
MAX_MODULE_LINES = 800
MAX_CLASS_METHODS = 35


def _oversized(folders: tuple[str, ...] = ("net", "table")) -> list[str]:
    found = []
    for folder in folders:
        for path in sorted((PACKAGE / folder).glob("*.py")):
            text = path.read_text(encoding="utf-8")
            name = path.relative_to(ROOT).as_posix()
            if text.count("\n") > MAX_MODULE_LINES:
                found.append(f"{name}: {text.count(chr(10))} lines")
            for node in ast.walk(ast.parse(text, name)):
                if isinstance(node, ast.ClassDef):
                    methods = sum(isinstance(b, ast.FunctionDef | ast.AsyncFunctionDef) for b in node.body)
                    if methods > MAX_CLASS_METHODS:
                        found.append(f"{name}: class {node.name} has {methods} methods")
    return found


def test_the_network_and_the_tables_are_in_small_parts():
    """No module of carcnet/net or carcnet/table over 800 lines, no class there over 35 methods."""
    assert _oversized() == []


def test_the_size_check_finds_a_big_class(tmp_path, monkeypatch):
    """The check above can fail: a class of 36 methods and a module of 801 lines are reported."""
    folder = tmp_path / "carcnet" / "net"
    folder.mkdir(parents=True)
    methods = "".join(f"    def m{i}(self):\n        pass\n" for i in range(36))
    (folder / "big.py").write_text("class Big:\n" + methods + "#\n" * 801)
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path / "carcnet")
    assert _oversized(("net",)) == ["carcnet/net/big.py: 874 lines", "carcnet/net/big.py: class Big has 36 methods"]


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
                if source == "carcnet.i18n" and alias.name == "_":
                    continue  # gettext's own name for "translate this", public by convention
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


@pytest.mark.slow
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


def _reach_ups(folder: Path) -> list[str]:
    """Every ``getattr(self.app, …)`` or ``getattr(app, …)`` under *folder*: a screen or widget that looks
    for what some app might hold, instead of being handed it (a constructor's argument) or asking
    with a message."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
                    and node.args):
                continue
            target = ast.unparse(node.args[0])
            if target in ("self.app", "app"):
                found.append(f"{path.relative_to(folder.parent.parent).as_posix()}:{node.lineno}: getattr({target}, …)")
    return found


def test_the_interface_does_not_reach_up_into_the_app():
    """No ``getattr(self.app, …)`` in carcnet/tui: the data folder, the settings' saver and the table
    maker are handed to the screens that need them; the replay asks the app to continue a game."""
    assert _reach_ups(PACKAGE / "tui") == []


def test_the_reach_up_check_finds_one(tmp_path):
    folder = tmp_path / "carcnet" / "tui"
    folder.mkdir(parents=True)
    (folder / "x.py").write_text("def f(self):\n    return getattr(self.app, 'data_dir', None)\n")
    assert _reach_ups(folder) == ["carcnet/tui/x.py:2: getattr(self.app, …)"]
