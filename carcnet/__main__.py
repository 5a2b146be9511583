"""Runs the carcnet command line: ``python -m carcnet``."""

from carcnet.cli import main

raise SystemExit(main())
