"""Shared pytest configuration: Hypothesis profiles.

``ci`` (selected when the ``CI`` environment variable is set) is derandomized so a CI run is
reproducible, and prints the reproduction blob of any failure; ``dev`` is the quicker local default.
Choose another explicitly with ``--hypothesis-profile NAME``.

Every test runs in folders of its own (:func:`_own_folders`): HOME and the XDG folders point into a
temporary folder, for the test and for every process it starts. A test that opens, lists or creates
anything in the user's own carcnet folders (those the environment named before the run) fails: an
audit hook (:func:`_audit`) notes every such path.
"""

from __future__ import annotations

import os
import sys
import types

import platformdirs
import pytest

from carcnet.i18n import set_language
from hypothesis import settings

settings.register_profile("ci", deadline=None, max_examples=40, derandomize=True, print_blob=True)
settings.register_profile("dev", deadline=None, max_examples=25)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


#: The XDG folders a test gets, each under its own HOME.
XDG_FOLDERS = {"XDG_CONFIG_HOME": ".config", "XDG_DATA_HOME": ".local/share", "XDG_STATE_HOME": ".local/state",
               "XDG_CACHE_HOME": ".cache"}


def _user_folders() -> tuple[str, ...]:
    """The user's own carcnet folders, as the environment names them before any test runs (each
    ending in a separator): configuration, data, state and cache, and ``$CARCNET_DATA_DIR`` /
    ``$CARCNET_CONFIG_DIR`` if set."""
    folders = [
        platformdirs.user_config_dir("carcnet", appauthor=False),
        platformdirs.user_data_dir("carcnet", appauthor=False),
        platformdirs.user_state_dir("carcnet", appauthor=False),
        platformdirs.user_cache_dir("carcnet", appauthor=False),
        os.environ.get("CARCNET_DATA_DIR", ""),
        os.environ.get("CARCNET_CONFIG_DIR", ""),
    ]
    out = set()
    for folder in filter(None, folders):
        for form in (os.path.abspath(folder), os.path.realpath(folder)):
            out.add(form.rstrip(os.sep) + os.sep)
    return tuple(sorted(out))


USER_FOLDERS = _user_folders()
#: Paths in :data:`USER_FOLDERS` that the test process opened, listed or created (appended by :func:`_audit`).
USER_READS: list[str] = []
_WATCHED = frozenset({"open", "os.listdir", "os.scandir", "os.mkdir", "os.remove", "os.rename", "os.chdir"})


def _audit(event: str, args: tuple) -> None:
    """Notes a path of the user's own folders that the test process touches (an audit hook: it
    cannot be removed, so it only notes; :func:`_own_folders` fails the test)."""
    if event not in _WATCHED or not args or isinstance(args[0], int) or args[0] is None:
        return
    try:
        path = os.path.abspath(os.fsdecode(args[0]))
    except (TypeError, ValueError):
        return
    if (path + os.sep).startswith(USER_FOLDERS):
        USER_READS.append(path)


sys.addaudithook(_audit)


@pytest.fixture(autouse=True)
def _own_folders(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Every test reads and writes in folders of its own, never the user's: HOME, the XDG folders
    (:data:`XDG_FOLDERS`) and the interface's settings folder (``CARCNET_CONFIG_DIR``,
    carcnet.tui.settings) point into a temporary HOME, ``CARCNET_DATA_DIR`` is unset (the data folder
    is then the temporary XDG data folder's), and processes the test starts inherit it all. Fails
    the test if it touched :data:`USER_FOLDERS`."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for variable, folder in XDG_FOLDERS.items():
        monkeypatch.setenv(variable, str(home / folder))
    config = home / ".config" / "carcnet"
    config.mkdir(parents=True)
    monkeypatch.setenv("CARCNET_CONFIG_DIR", str(config))
    monkeypatch.delenv("CARCNET_DATA_DIR", raising=False)
    # English, whatever the machine's locale (LANGUAGE comes first; a test of another language sets
    # its own); LANG and LC_ALL stay, for the terminals' character set
    monkeypatch.setenv("LANGUAGE", "en")
    set_language("en")
    before = len(USER_READS)
    yield
    set_language("en")
    touched = USER_READS[before:]
    del USER_READS[before:]
    assert not touched, f"the test touched the user's own folders: {sorted(set(touched))[:5]}"


@pytest.fixture(autouse=True)
def _steady_cursor(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """In a snapshot test a text field's cursor stays as it is when the field takes the focus (shown):
    it blinks by the clock (every 0.5 s), so a snapshot taken a moment later, on a busy machine or
    beside other tests, would catch it hidden."""
    if "snap_compare" in request.fixturenames:
        from textual.widgets import Input

        monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)


@pytest.fixture(autouse=True)
def _quick_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Textual's pilot, after every key, waits for the app to go idle: it sleeps in steps and stops at
    the first step in which the process used next to no CPU (textual._wait). A step is a little longer
    than the screen's repaint period (20 ms against 1/60 s), so that a change's repaint, and what waits
    for it (``call_after_refresh``), comes within it. So a key cost at least 40 ms, asleep: a whole
    game by keys, 4,500 of them, took three minutes. Here the screen repaints every 2 ms and a step
    is 4 ms (longer than a repaint period still), with the same test of idleness (under 5 % of a
    step's CPU time).
    A wait for anything else to happen is a bounded poll of its condition, never the pilot's sleeps."""
    import textual._wait
    import textual.screen

    monkeypatch.setattr(textual.screen, "UPDATE_PERIOD", 0.002)
    monkeypatch.setattr(textual._wait, "SLEEP_GRANULARITY", 0.004)
    monkeypatch.setattr(textual._wait, "SLEEP_IDLE", 0.0002)


# ---------------------------------------------------------------------- the parallel run
#
# The README's command runs the tests in worker processes (pytest-xdist: ``-n auto``, and
# ``--dist loadgroup`` in pyproject.toml). What a test has of its own stays its own there: HOME, the XDG
# folders and the temporary folders (under the worker's own base folder), tmux servers (a socket in a
# new folder), network namespaces (each Lan claims its names, tests/net/netns.py), ports (port 0, or
# tests/ports.py's block of the worker). Below: how many workers, which tests go together, and which
# start first.

#: Names that a test or fixture that builds network namespaces calls (tests/net/netns.py).
LAN_NAMES = frozenset({"lan_for_test", "Lan"})


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers a core. Most of the long tests wait (on bots' delays, on processes
    of their own, on clocks a network table runs by) rather than compute, so a core has room for a
    second worker; more than that and the tests that do compute slow each other down."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(2, 2 * cores)


def _names(code: types.CodeType) -> set[str]:
    """The global and attribute names *code* and the functions defined in it use."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names(const)
    return names


def _fixtures(item: pytest.Item) -> list:
    """The definitions of the fixtures *item* uses (the ones it gets, not those they override)."""
    info = getattr(item, "_fixtureinfo", None)
    return [defs[-1] for defs in info.name2fixturedefs.values() if defs] if info is not None else []


def _shared_with(item: pytest.Item) -> str | None:
    """The module or class whose fixture of that scope *item* uses, if any: such a fixture is made
    once per worker, so every test of it goes to one worker (not made again on each)."""
    for fixturedef in _fixtures(item):
        if fixturedef.scope in ("module", "class") and fixturedef.baseid:
            return fixturedef.baseid
    return None


def _builds_lan(item: pytest.Item) -> bool:
    """Whether *item*, or a fixture it uses, makes network namespaces (:data:`LAN_NAMES`)."""
    funcs = [getattr(item, "obj", None), *(fixturedef.func for fixturedef in _fixtures(item))]
    return any(LAN_NAMES & _names(func.__code__) for func in funcs if hasattr(func, "__code__"))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Orders the tests so that the long ones start first, and groups those that share a module's
    fixture (``xdist_group``): first the tests marked ``slow`` (tens of seconds each), then those that
    build network namespaces (real processes, real clocks), then the rest, each in the order
    collected. Every worker collects, so this is the same order everywhere. (With ``--dist
    loadgroup`` a group is one unit of work, sent before the single tests.)"""
    rank = {}
    for item in items:
        shared = _shared_with(item)
        if shared is not None:
            item.add_marker(pytest.mark.xdist_group(shared))
        rank[item.nodeid] = 0 if item.get_closest_marker("slow") else 1 if _builds_lan(item) else 2
    items.sort(key=lambda item: rank[item.nodeid])
