"""Provides the seat colours used across the interface: text styles, and the shades the board paints
a seat's meeples and marks with, in two palettes (the settings' ``palette``): the board game's
colours, or shades that people with any colour vision tell apart (Okabe and Ito's palette, "Color
Universal Design", 2008: vermillion, sky blue, yellow, bluish green).

:func:`use_palette` switches the palette for the screens opened after it (the app calls it at start
and when the setting changes); the tables are read when a widget is made.
"""

from __future__ import annotations

import re

from rich.text import Text

from carcnet.i18n import pgettext
from carcnet.log import COLOURS

__all__ = ["PALETTE_NAMES", "SEAT_HEX", "SEAT_STYLES", "colour_choices", "colour_name", "names_colour", "seat_hex", "seat_style",
           "styled", "use_palette"]

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
#: own names), so that a colour is never called "Red" where it is drawn vermillion; in English
#: (:func:`colour_name` gives them in the language in use).
_SAFE_NAMES = {"red": "Vermillion", "blue": "Sky blue", "green": "Bluish green"}


def _translated_names() -> dict[str, str]:
    """Every colour name in English (both palettes' and the seat colours') → in the language in use."""
    return {
        # Translators: a seat's colour, as a name (a seat named after its colour is called so)
        "Red": pgettext("colour", "Red"),
        "Blue": pgettext("colour", "Blue"),
        "Yellow": pgettext("colour", "Yellow"),
        "Green": pgettext("colour", "Green"),
        "Black": pgettext("colour", "Black"),
        "Grey": pgettext("colour", "Grey"),
        "Gray": pgettext("colour", "Gray"),
        "White": pgettext("colour", "White"),
        "Pink": pgettext("colour", "Pink"),
        "Purple": pgettext("colour", "Purple"),
        "Orange": pgettext("colour", "Orange"),
        # Translators: the colour-blind palette's shade drawn for red (Okabe and Ito's name)
        "Vermillion": pgettext("colour", "Vermillion"),
        # Translators: the colour-blind palette's shade drawn for blue (Okabe and Ito's name)
        "Sky blue": pgettext("colour", "Sky blue"),
        # Translators: the colour-blind palette's shade drawn for green (Okabe and Ito's name)
        "Bluish green": pgettext("colour", "Bluish green"),
    }

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
    """What a seat colour (carcnet.log.COLOURS) is called in the palette in use, for people to read,
    in the language in use: the colour drawn (``Red``; ``Vermillion`` for ``red`` in the colour-blind
    palette)."""
    english = _names_in_use.get(colour.lower(), colour.capitalize())
    return _translated_names().get(english, english)


def names_colour(name: str, colour: str) -> bool:
    """Whether *name* (a seat's) is only what some palette calls *colour* (``Red``, ``Vermillion``),
    in English or in the language in use: a default name, which follows the palette in use."""
    english = {colour.capitalize(), *(names[colour] for names in _COLOUR_NAMES.values() if colour in names)}
    translated = _translated_names()
    return name in english or name in {translated.get(n, n) for n in english}


def styled(template: str, style: str = "", **fields: str | Text) -> Text:
    """*template* (a translated message with ``{name}`` placeholders) as one :class:`~rich.text.Text`:
    its own words in *style*, each placeholder replaced by its field, a :class:`~rich.text.Text` field
    keeping its styles (a seat's name in its colour), wherever the language puts it.

    >>> line = styled("{who} placed a tile", who=Text("Ann", style="red"))
    >>> line.plain, [(s.start, s.end, str(s.style)) for s in line.spans]
    ('Ann placed a tile', [(0, 3, 'red')])
    """
    pieces: list[tuple[str, str] | Text] = []  # (words, style) or a field's own Text

    def add(text: str, text_style: str) -> None:
        if not text:
            return
        if pieces and isinstance(pieces[-1], tuple) and pieces[-1][1] == text_style:
            pieces[-1] = (pieces[-1][0] + text, text_style)  # one run, as one append made it
        else:
            pieces.append((text, text_style))

    at = 0
    for match in re.finditer(r"\{(\w+)\}", template):
        add(template[at:match.start()], style)
        value = fields[match.group(1)]
        if isinstance(value, Text):
            pieces.append(value)
        else:
            add(value, style)
        at = match.end()
    add(template[at:], style)
    out = Text()
    for piece in pieces:
        if isinstance(piece, Text):
            out.append_text(piece)
        else:
            out.append(piece[0], style=piece[1] or None)
    return out


def colour_choices() -> list[tuple[Text, str]]:
    """The seat colours (carcnet.log.COLOURS) as a form's choices ``(label, colour)``: each named and
    drawn as the palette in use draws it."""
    return [(Text(colour_name(c), style=seat_style(c)), c) for c in COLOURS]
