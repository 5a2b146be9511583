"""The throwaway LAN's claims (:mod:`tests.net.netns`): many Lans live side by side (test workers, whole
runs), and clearing what a killed run left never touches a Lan that a living process holds, however
old. Needs root; skipped elsewhere with the reason."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from . import netns

ROOT = Path(__file__).resolve().parents[2]

#: A process that makes a Lan of one host, prints its tag and holds it until its stdin closes.
HOLDER = """
import sys
from tests.net import netns
lan = netns.Lan(1)
lan.create()
print(lan.tag, flush=True)
sys.stdin.read()
"""


@pytest.fixture(autouse=True)
def _root() -> None:
    reason = netns.unavailable_reason()
    if reason:
        pytest.skip(reason)


def test_a_living_lan_is_never_stale_however_old() -> None:
    with netns.Lan(2) as made:
        names = {made.tag + s for s in ("-sw", "-n1", "-n2")}
        assert names <= set(netns.namespaces())
        a_day_later = time.time() + 86400
        assert not [name for name in names if netns.stale(name, a_day_later)]
        netns.remove_stale()
        assert names <= set(netns.namespaces())
        assert os.path.exists(os.path.join(netns.CLAIMS, made.tag))
    assert netns.leftovers(made.tag) == []
    assert not os.path.exists(os.path.join(netns.CLAIMS, made.tag))


def test_two_lans_at_once_have_their_own_names() -> None:
    with netns.Lan(1) as one, netns.Lan(1) as two:
        assert one.tag != two.tag
        assert not set(netns.leftovers(one.tag)) & set(netns.leftovers(two.tag))


def test_the_lan_of_a_killed_process_is_removed_at_once() -> None:
    holder = subprocess.Popen([sys.executable, "-c", HOLDER], cwd=ROOT, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None
        tag = holder.stdout.readline().strip()
        assert netns.NAME_PATTERN.fullmatch(f"{tag}-sw"), tag
        netns.remove_stale()
        assert netns.leftovers(tag) != [], "held by a living process"
    finally:
        holder.kill()
        holder.wait(30)
    removed = netns.remove_stale()  # however young: nobody holds it
    assert {f"{tag}-sw", f"{tag}-n1"} <= set(removed), removed
    assert netns.leftovers(tag) == []
    assert not os.path.exists(os.path.join(netns.CLAIMS, tag))
