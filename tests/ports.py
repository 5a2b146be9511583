"""TCP ports for a server a test starts on loopback with an explicit ``--port``.

A port found free by binding port 0 is one the kernel hands out again to anyone, for the next
connection any test on this machine makes: between the check and the server's own bind another
worker, or another run, may take it. :func:`free_port` gives ports below the kernel's range of
ephemeral ports instead (``/proc/sys/net/ipv4/ip_local_port_range``, 32768 up by default), from a
block of this test worker's own (``PYTEST_XDIST_WORKER``), each checked free before it is given. A
server the test starts with port 0 and then asks (carcnet's network commands print theirs) needs
none of this.
"""

from __future__ import annotations

import itertools
import os
import secrets
import socket

#: The first port of the blocks, and each worker's block's size (the controller or a run without
#: workers has block 0, worker gwN block N + 1): 20000 to 32767 hold 25 blocks.
FIRST, BLOCK = 20000, 500


def _block() -> int:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    index = int(worker[2:]) + 1 if worker.startswith("gw") and worker[2:].isdigit() else 0
    return FIRST + BLOCK * (index % ((32768 - FIRST) // BLOCK))


#: This process's next candidates: its worker's block, from a random place in it (two runs side by
#: side seldom start at the same port).
_start = secrets.randbelow(BLOCK)
_candidates = itertools.cycle([*range(_start, BLOCK), *range(_start)])


def free_port(host: str = "127.0.0.1") -> int:
    """A port of this worker's block that nothing listens on or is bound to at *host* now."""
    base = _block()
    for _ in range(BLOCK):
        port = base + next(_candidates)
        with socket.socket() as probe:
            try:
                probe.bind((host, port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {base}..{base + BLOCK - 1}")
