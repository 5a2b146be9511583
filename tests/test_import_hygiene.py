"""The engine is pure: importing it pulls in no I/O, networking or UI library (docs/architecture.md).

The import contracts of ``pyproject.toml`` (tests/test_layers.py) check every layer's imports as
written; this checks what importing the engine loads in a fresh interpreter, indirect imports too."""

from __future__ import annotations

import subprocess
import sys

FORBIDDEN = ["asyncio", "socket", "msgpack", "zeroconf", "textual", "rich", "random", "carcnet.bots", "carcnet.cli"]


def test_engine_imports_nothing_impure():
    # only what importing the engine adds counts: site hooks of some interpreters preload modules
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import carcnet.engine\n"
        f"bad = [m for m in {FORBIDDEN!r} if m in sys.modules and m not in before]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == ""
