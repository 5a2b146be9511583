"""The engine is pure: importing it pulls in no I/O, networking or UI library (docs/architecture.md)."""

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


def test_the_network_layer_imports_no_bots_and_no_interface():
    """docs/architecture.md: ``carcnet.net`` speaks the protocol; bots and the interface sit above it."""
    code = (
        "import sys\n"
        "import carcnet.net, carcnet.net.sync, carcnet.net.lobby, carcnet.net.peer, carcnet.net.storage\n"
        "bad = [m for m in ('carcnet.bots', 'carcnet.tui', 'carcnet.lan', 'textual', 'zeroconf') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == ""
