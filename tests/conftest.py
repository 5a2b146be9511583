"""Shared pytest configuration: Hypothesis profiles.

``ci`` (selected when the ``CI`` environment variable is set) is derandomized so a CI run is
reproducible, and prints the reproduction blob of any failure; ``dev`` is the quicker local default.
Choose another explicitly with ``--hypothesis-profile NAME``.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("ci", deadline=None, max_examples=40, derandomize=True, print_blob=True)
settings.register_profile("dev", deadline=None, max_examples=25)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True)
def _config_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test reads and writes the interface's settings in a folder of its own, never the
    user's (``CARCNET_CONFIG_DIR``, carcnet.tui.settings); subprocesses inherit it."""
    monkeypatch.setenv("CARCNET_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))
