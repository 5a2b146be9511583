"""One rule for names (issue 13 item 6): the log, the wire, discovery, the interface's forms and the
command line accept and refuse the same names, including the invisible format characters that change
how text around them shows."""

from __future__ import annotations

import subprocess
import sys

import pytest

from carcnet.log import LogFormatError, Seat
from carcnet.log.values import name_problem
from carcnet.net import Hello, MessageError
from carcnet.net.adverts import GameAd
from carcnet.tui.addresses import check_name

REFUSED = ["Ann\u202eevil", "A\u200bnn", "\u2066Ann\u2069", "Ann\U000e0041", "Ann\u2028Bob", "Ann\x85", "A\x1bnn",
           "", "   ", "x" * 33, "\u3164", "\u2800", "\u115f\u1160", "\uffa0", "\u3000", "Ann\u3164", " \ufe0f"]
ACCEPTED = ["Ann", "Zoë", "Ann-Marie O'Neil", "张伟", "Ann 2", "x" * 32, "\u2764\ufe0f"]


@pytest.mark.parametrize("name", REFUSED + ACCEPTED)
def test_every_layer_judges_a_name_alike(name):
    ok = name not in REFUSED
    assert (name_problem(name) is None) == ok
    assert (check_name(name) is None) == ok
    for build, error in (
        (lambda: Seat(name, "red"), LogFormatError),
        (lambda: Hello(game="0" * 32, role="player", name=name, key=bytes(32)), MessageError),
        (lambda: GameAd(game="0" * 32, name=name, phase="lobby", seats_taken=1, seats_total=2, peer="Ann",
                        role="host", key=bytes(32), port=7000), ValueError),
    ):
        if ok:
            build()
        else:
            with pytest.raises(error):
                build()


def test_the_command_line_refuses_what_the_log_refuses():
    done = subprocess.run([sys.executable, "-m", "carcnet", "bot", "--join", "127.0.0.1:9", "--game", "0" * 32,
                           "--name", "Ann\u202eevil", "--no-mdns"], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "--name must be 1 to 32 characters" in done.stderr
