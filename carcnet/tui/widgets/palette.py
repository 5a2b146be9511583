"""Provides the seat colours used across the interface (text styles; the board has its own shades)."""

from __future__ import annotations

__all__ = ["SEAT_STYLES", "seat_style"]

#: Text style per seat colour name (carcnet.log.COLOURS).
SEAT_STYLES = {
    "red": "bold #ff5f5f",
    "blue": "bold #5fafff",
    "yellow": "bold #ffd75f",
    "green": "bold #5fd75f",
    "black": "bold #d0d0d0 on #303030",
    "grey": "bold #a8a8a8",
}


def seat_style(colour: str) -> str:
    """The text style of a seat colour (bold white for an unknown one)."""
    return SEAT_STYLES.get(colour, "bold white")
