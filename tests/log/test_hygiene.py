"""The log layer's imports (docs/architecture.md) and the doctests of carcnet/log."""

from __future__ import annotations

import doctest
import importlib
import subprocess
import sys

import pytest

FORBIDDEN = [
    "asyncio",
    "socket",
    "zeroconf",
    "textual",
    "rich",
    "carcnet.bots",
    "carcnet.cli",
    "carcnet.net",
    "pickle",
]
MODULES = [
    "carcnet.log",
    "carcnet.log.codec",
    "carcnet.log.entries",
    "carcnet.log.framing",
    "carcnet.log.store",
    "carcnet.log.recorder",
    "carcnet.log.seeding",
    "carcnet.log.signatures",
]


def test_log_imports_no_network_or_ui():
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import carcnet.log\n"
        f"bad = [m for m in {FORBIDDEN!r} if m in sys.modules and m not in before]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == ""


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
