"""Provides :func:`spaces_placed`: an SVG screenshot whose spaces survive every viewer.

Textual's SVG (Rich's ``export_svg``) draws each run of text as a ``<text>`` at its cell, spaces
written as no-break spaces, and relies on the viewer to keep a run's leading spaces. Viewers that
strip them (as SVG's default white-space handling allows) draw the run a cell or more too far left:
the footer's ``? Help  q Menu`` came out as ``?Help qMenu``. Here each run's leading and trailing
spaces are taken out and its start moved by as many cells, so that nothing depends on them.
"""

from __future__ import annotations

import html
import re

from rich.cells import cell_len

__all__ = ["spaces_placed"]

_TEXT = re.compile(r'<text (?P<before>[^>]*?)x="(?P<x>[-\d.]+)"(?P<middle>[^>]*?)textLength="(?P<length>[\d.]+)"'
                   r'(?P<after>[^>]*)>(?P<text>[^<]*)</text>')
_SPACE = "\xa0 "


def _placed(match: re.Match[str]) -> str:
    raw = match["text"]
    text = html.unescape(raw)
    core = text.lstrip(_SPACE)
    lead = len(text) - len(core)
    core = core.rstrip(_SPACE)
    if not lead and len(core) + lead == len(text):
        return match[0]
    if not core:
        return ""  # spaces only: the background behind them is a rect of its own
    cells = cell_len(text)
    width = float(match["length"]) / cells if cells else 0.0
    x = float(match["x"]) + lead * width
    length = cell_len(core) * width
    body = html.escape(core, quote=False).replace(" ", "&#160;")
    return (f'<text {match["before"]}x="{x:g}"{match["middle"]}textLength="{length:g}"{match["after"]}>'
            f"{body}</text>")


def spaces_placed(svg: str) -> str:
    """*svg* (a Textual screenshot) with every text run's leading and trailing spaces taken out and
    its start moved past the leading ones: it looks the same, and the same in viewers that strip a
    run's spaces."""
    return _TEXT.sub(_placed, svg)
