"""Runs ``carcnet ARGS`` (``python tests/net/keyed_peer.py ARGS``) as a laptop of a test, with three
things a test needs fixed or written down, each from an environment variable:

- ``CARCNET_TEST_KEYS=LABEL``: this laptop's random bytes are SHA-256 of ``"LABEL n"`` for n = 0,
  1, … (``tests.net.loopback.counter_random``): its identity and seat keys, its game id's nonce and
  its bots' keys are fixed by the label, so a test chooses which seat holds the lower key;
- ``CARCNET_TEST_NOTES=PATH``: every line the table says to people (its notes, which a headless peer
  prints and the interface shows) is appended to PATH, so that a test can wait for a line of a laptop
  that runs the interface;
- ``CARCNET_TEST_REVEAL=SECONDS``: how long a seat's draw value may be missing before the seat counts
  as away (wire.md §5.7; 10 s otherwise), so that a test need not wait 10 s at the first draw after a
  laptop went;
- ``CARCNET_TEST_CLOCKS=HEARTBEAT,DEAD,CONNECT,B1/B2/…``: the clocks of wire.md §2.1 in seconds (a
  heartbeat, a silent connection taken for dead, a TCP connection's wait, the waits between
  reconnections), scaled down as the nemesis does (:data:`tests.net.nemesis.SHORT_CLOCKS`), so that a
  split is noticed in seconds rather than 20.

Everything else is ``carcnet``'s own command line. It fails loudly if the names it replaces are gone.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import sys
from collections.abc import Callable
from typing import Any

import carcnet.table.base as base
import carcnet.table.lan as lan
from carcnet.net.transport import Timing


def _fixed_random(label: str) -> Callable[[int], bytes]:
    counter = itertools.count()

    def random(n: int) -> bytes:
        out = b""
        while len(out) < n:
            out += hashlib.sha256(f"{label} {next(counter)}".encode()).digest()
        return out[:n]

    return random


def _fix_keys(label: str) -> None:
    random = _fixed_random(label)
    for name in ("host", "join"):
        original = getattr(lan.NetTable, name).__func__

        def made(cls: Any, *args: Any, _original: Any = original, **kwargs: Any) -> Any:
            kwargs["random"] = random
            return _original(cls, *args, **kwargs)

        setattr(lan.NetTable, name, classmethod(made))


def _write_notes(path: str) -> None:
    original = base.Table._note

    def note(self: base.Table, text: str, *args: Any, **kwargs: Any) -> None:
        with open(path, "a", encoding="utf-8") as file:
            file.write(text.replace("\n", " ") + "\n")
        original(self, text, *args, **kwargs)

    base.Table._note = note  # type: ignore[method-assign]


def main() -> int:
    assert callable(getattr(base.Table, "_note", None)) and isinstance(lan.REVEAL_WAIT, float), \
        "tests/net/keyed_peer.py: update it to carcnet.table's names"
    if label := os.environ.get("CARCNET_TEST_KEYS"):
        _fix_keys(label)
    if path := os.environ.get("CARCNET_TEST_NOTES"):
        _write_notes(path)
    if reveal := os.environ.get("CARCNET_TEST_REVEAL"):
        lan.REVEAL_WAIT = float(reveal)
    if clocks := os.environ.get("CARCNET_TEST_CLOCKS"):
        heartbeat, dead, connect, backoff = clocks.split(",")
        timing = Timing(heartbeat=float(heartbeat), dead=float(dead), connect=float(connect),
                        backoff=tuple(float(b) for b in backoff.split("/")))
        assert lan.Timing is Timing, "tests/net/keyed_peer.py: update it to carcnet.table.lan's names"
        lan.Timing = lambda: timing  # type: ignore[assignment,misc]
    from carcnet.cli import main as carcnet

    return carcnet(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
