"""Every test runs in folders of its own (tests/conftest.py): HOME, the XDG folders and carcnet's
settings and data folders point into a temporary HOME, for the test and the processes it starts; a
test that touches the user's own carcnet folders fails."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

from carcnet.log import default_dir
from carcnet.tui.settings import config_dir

FOLDERS = ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "CARCNET_CONFIG_DIR")


#: A process that prints its HOME, data folder and settings folder, as JSON.
SHOW_FOLDERS = ("import json, os; from carcnet.log import default_dir; from carcnet.tui.settings import config_dir; "
                "print(json.dumps([os.environ['HOME'], str(default_dir()), str(config_dir())]))")


def _conftest():
    return sys.modules.get("tests.conftest") or sys.modules["conftest"]


def test_a_test_and_what_it_starts_have_folders_of_their_own():
    conftest = _conftest()
    home = Path(os.environ["HOME"])
    assert all(Path(os.environ[name]).is_relative_to(home) for name in FOLDERS)
    assert "CARCNET_DATA_DIR" not in os.environ
    assert default_dir().is_relative_to(home) and config_dir().is_relative_to(home)
    assert not any(str(home / "x").startswith(folder) for folder in conftest.USER_FOLDERS)
    seen = subprocess.run(
        [sys.executable, "-c", SHOW_FOLDERS],
        capture_output=True, text=True, timeout=60, check=True,
    )
    assert json.loads(seen.stdout) == [str(home), str(default_dir()), str(config_dir())]


def test_another_test_gets_another_home(tmp_path):
    assert not tmp_path.is_relative_to(Path(os.environ["HOME"]))
    assert Path(os.environ["HOME"]).name.startswith("home")


def test_opening_the_users_own_folders_is_noted_and_fails_the_test():
    """What the check does when a test reads the user's settings: the path is noted, and the
    isolating fixture fails the test at its end (here the note is taken back, so this one passes)."""
    conftest = _conftest()
    before = len(conftest.USER_READS)
    settings = os.path.join(conftest.USER_FOLDERS[0], "settings.json")
    with contextlib.suppress(OSError):
        open(settings).close()  # the open is what is watched
    with contextlib.suppress(OSError):
        os.listdir(conftest.USER_FOLDERS[-1])
    noted = conftest.USER_READS[before:]
    del conftest.USER_READS[before:]
    assert settings in noted and len(noted) == 2
