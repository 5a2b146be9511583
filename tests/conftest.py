"""Shared pytest configuration: Hypothesis profiles.

``ci`` (selected when the ``CI`` environment variable is set) is derandomized so a CI run is
reproducible, and prints the reproduction blob of any failure; ``dev`` is the quicker local default.
Choose another explicitly with ``--hypothesis-profile NAME``.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", deadline=None, max_examples=40, derandomize=True, print_blob=True)
settings.register_profile("dev", deadline=None, max_examples=25)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
