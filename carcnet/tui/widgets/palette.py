"""Provides the seat colours used across the interface: text styles, and the shades the board paints
a seat's meeples and marks with, in two palettes (the settings' ``palette``): the board game's
colours, or shades that people with any colour vision tell apart (Okabe and Ito's palette, "Color
Universal Design", 2008: vermillion, sky blue, yellow, bluish green).

:func:`use_palette` switches the palette for the screens opened after it (the app calls it at start
and when the setting changes); the tables are read when a widget is made.
"""

from __future__ import annotations

from rich.text import Text

from carcnet.log import COLOURS

__all__ = ["PALETTE_NAMES", "SEAT_HEX", "SEAT_STYLES", "colour_choices", "colour_name", "names_colour", "seat_hex", "seat_style",
           "use_palette"]

_STANDARD_HEX = {
    "red": "#e0383b",
    "blue": "#3a7bff",
    "yellow": "#f2d027",
    "green": "#3fcf5a",
    "black": "#1a1a1a",
    "grey": "#9a9a9a",
    "gray": "#9a9a9a",
    "white": "#f4f4f4",
    "pink": "#ff7eb6",
    "purple": "#a05cff",
    "orange": "#ff8c1a",
}
_STANDARD_STYLES = {
    "red": "bold #ff5f5f",
    "blue": "bold #5fafff",
    "yellow": "bold #ffd75f",
    "green": "bold #5fd75f",
    "black": "bold #d0d0d0 on #303030",
    "grey": "bold #a8a8a8",
}
# Okabe-Ito: red -> vermillion, blue -> sky blue, green -> bluish green, yellow -> yellow; black
# and grey are told by lightness already.
_SAFE_HEX = {**_STANDARD_HEX, "red": "#d55e00", "blue": "#56b4e9", "yellow": "#f0e442", "green": "#009e73"}
_SAFE_STYLES = {**_STANDARD_STYLES, "red": "bold #e66a10", "blue": "bold #56b4e9", "yellow": "bold #f0e442",
                "green": "bold #00b383"}

#: What the colour-blind palette calls the shades it draws instead of a seat colour (Okabe and Ito's
#: own names), so that a colour is never called "Red" where it is drawn vermillion.
_SAFE_NAMES = {"red": "Vermillion", "blue": "Sky blue", "green": "Bluish green"}

#: The palettes by the settings' name: (board shades, text styles).
PALETTE_NAMES = {"standard": (_STANDARD_HEX, _STANDARD_STYLES), "colour-blind": (_SAFE_HEX, _SAFE_STYLES)}
#: The names of the colours each palette draws differently from their own name.
_COLOUR_NAMES = {"standard": {}, "colour-blind": _SAFE_NAMES}
_names_in_use: dict[str, str] = {}

#: How the usual colour names look on the board in the palette in use (``#rrggbb``).
SEAT_HEX: dict[str, str] = dict(_STANDARD_HEX)
#: Text style per seat colour name (carcnet.log.COLOURS) in the palette in use.
SEAT_STYLES: dict[str, str] = dict(_STANDARD_STYLES)


def use_palette(name: str) -> None:
    """Uses the palette *name* (a key of :data:`PALETTE_NAMES`; an unknown name: the standard one)
    from now on."""
    shades, styles = PALETTE_NAMES.get(name, PALETTE_NAMES["standard"])
    global _names_in_use
    _names_in_use = _COLOUR_NAMES.get(name, {})
    SEAT_HEX.clear()
    SEAT_HEX.update(shades)
    SEAT_STYLES.clear()
    SEAT_STYLES.update(styles)


def seat_hex(colour: str) -> str | None:
    """The board shade of a seat colour name in the palette in use, or ``None`` for another name."""
    return SEAT_HEX.get(colour.lower())


def seat_style(colour: str) -> str:
    """The text style of a seat colour (bold white for an unknown one)."""
    return SEAT_STYLES.get(colour, "bold white")


def colour_name(colour: str) -> str:
    """What a seat colour (carcnet.log.COLOURS) is called in the palette in use, for people to read:
    the colour drawn (``Red``; ``Vermillion`` for ``red`` in the colour-blind palette)."""
    return _names_in_use.get(colour.lower(), colour.capitalize())


def names_colour(name: str, colour: str) -> bool:
    """Whether *name* (a seat's) is only what some palette calls *colour* (``Red``, ``Vermillion``):
    a default name, which follows the palette in use."""
    return name in {colour.capitalize(), *(names[colour] for names in _COLOUR_NAMES.values() if colour in names)}


def colour_choices() -> list[tuple[Text, str]]:
    """The seat colours (carcnet.log.COLOURS) as a form's choices ``(label, colour)``: each named and
    drawn as the palette in use draws it."""
    return [(Text(colour_name(c), style=seat_style(c)), c) for c in COLOURS]
