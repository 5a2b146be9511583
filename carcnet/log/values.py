"""Provides the value rules every layer shares, in one place: names, colours, game ids and sizes
(``protocol/log.md`` §5, ``protocol/wire.md`` §4, ``protocol/discovery.md`` §2), and the strict
msgpack reader the log and the wire both decode with (``log.md`` §4, ``wire.md`` §2.2).

The log defines these values (a header holds names, colours, the game id, digests and keys); the
network, discovery, the interface and the command line check what people type and what peers send
against the same rules, so that nothing accepted at one layer is refused at another.

>>> name_problem("Ann") is None
True
>>> name_problem("A\\x7fnn")
'must be 1 to 32 characters without control characters or invisible formatting characters'
>>> name_problem("Ann\\u202e") is None, name_problem("Zoë") is None
(False, True)
>>> is_game_id("3f2a9c1b" * 4), is_game_id("3F2A9C1B" * 4)
(True, False)
>>> unpack_strict(b"\\x81\\xa1a\\x01", limit=16)
{'a': 1}
>>> unpack_strict(b"\\x82\\xa1a\\x01\\xa1a\\x02", limit=16)
Traceback (most recent call last):
...
carcnet.log.values.StrictError: ValueError: duplicate map key 'a'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import msgpack  # type: ignore[import-untyped]  # msgpack ships no type hints

__all__ = [
    "COLOURS",
    "DIGEST_SIZE",
    "KEY_SIZE",
    "MAX_DEPTH",
    "MAX_NAME",
    "SIG_SIZE",
    "StrictError",
    "check_fields",
    "is_game_id",
    "kind_of",
    "name_problem",
    "unpack_strict",
]

#: Seat colours, in the order a new game hands them out (``protocol/log.md`` §5; HiG's five and a
#: sixth from the Big Box).
COLOURS = ("red", "blue", "yellow", "green", "black", "grey")
#: Longest seat, bot, peer or game name, in characters (``log.md`` §5).
MAX_NAME = 32
#: Bytes in a state digest (SHA-256, ``protocol/digest.md`` §4).
DIGEST_SIZE = 32
#: Bytes of an Ed25519 public key (a seat or identity key, ``protocol/wire.md`` §3.1).
KEY_SIZE = 32
#: Bytes of an Ed25519 signature.
SIG_SIZE = 64
#: Deepest nesting of maps and arrays in a decoded body; the top-level value is depth 1 (``wire.md`` §2.2).
MAX_DEPTH = 8

#: Never in a name (``log.md`` §5): C0 and C1 controls and DEL; the invisible format characters that
#: change how the text around them shows (soft hyphen, Arabic letter mark, Mongolian vowel separator,
#: zero-width and directional marks, line and paragraph separators, bidi embeddings, overrides and
#: isolates, word joiner and invisible operators, the byte-order mark, interlinear annotation marks, tag
#: characters, shorthand and musical format controls); and the other characters Unicode says show as
#: nothing (default-ignorable): the combining grapheme joiner, the Hangul fillers (U+115F, U+1160,
#: U+3164, U+FFA0, which are letters that look blank), the Khmer inherent vowels, the Mongolian free
#: variation selectors, and the unassigned default-ignorable code points. Not the variation selectors
#: (an emoji needs U+FE0F): those only do not count as something to see (:data:`_BLANK`). A fixed list,
#: not Unicode properties, so that every Python (whatever its Unicode version) judges a name alike.
_CONTROL = re.compile(
    "[\x00-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f"
    "\u2028-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff0-\ufffb\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0000-\U000e00ff\U000e01f0-\U000e0fff]"
)
#: What does not count as something to see, so that a name of only these looks blank (``log.md`` §5):
#: white space (``str.isspace``: the ideographic space U+3000 and the other spaces included), the
#: Braille blank U+2800 (the space of Braille text) and the variation selectors.
_BLANK = re.compile("[\\s\u2800\ufe00-\ufe0f\U000e0100-\U000e01ef]*")
_GAME_ID = re.compile(r"[0-9a-f]{32}")


def name_problem(value: object, limit: int = MAX_NAME) -> str | None:
    """What is wrong with *value* as a name (seat, bot, peer or game name, and a chat line's text:
    ``log.md`` §5), or ``None``: a name is a str of 1 to *limit* characters, not only blank (white space,
    the Braille blank, variation selectors), without control characters or characters that show as
    nothing (bidi overrides, zero-width characters, tags, line separators, Hangul fillers)."""
    if (not isinstance(value, str) or len(value) > limit or _BLANK.fullmatch(value) is not None
            or _CONTROL.search(value)):
        return f"must be 1 to {limit} characters without control characters or invisible formatting characters"
    return None


def strip_control(text: str) -> str:
    """*text* without the control characters a name may not hold."""
    return _CONTROL.sub("", text)


def is_game_id(value: object) -> bool:
    """Whether *value* is a game id: 32 lowercase hex digits (``log.md`` §5)."""
    return isinstance(value, str) and _GAME_ID.fullmatch(value) is not None


def kind_of(value: object) -> str:
    """The msgpack kind of a decoded *value*, for error messages: ``nil``, ``bool``, ``int``, ``str``,
    ``bin``, ``array``, ``map``, ``float``, or the Python type's name."""
    names = {bool: "bool", int: "int", str: "str", bytes: "bin", list: "array", dict: "map", float: "float"}
    return "nil" if value is None else names.get(type(value), type(value).__name__)


class StrictError(ValueError):
    """Bytes that are not one strict msgpack value, or a map without exactly its fields. Each layer
    turns it into its own error (``LogFormatError``, the wire's ``bad-frame`` or ``bad-message``)."""


def _pairs(pairs: list[tuple[Any, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) == len(pairs) and all(key.__class__ is str for key in out):
        return out
    seen: set[object] = set()  # the slow path only names what is wrong
    for key, _ in pairs:
        if not isinstance(key, str):
            raise TypeError(f"map keys are str, got {kind_of(key)}")
        if key in seen:
            raise ValueError(f"duplicate map key {key!r}")
        seen.add(key)
    return out


def _walk(value: object, depth: int) -> None:
    """Refuses floats and nesting deeper than :data:`MAX_DEPTH` below *value* (at *depth*)."""
    items: Iterable[object]
    if type(value) is dict:
        items = value.values()
    elif type(value) is list:
        items = value
    else:
        if type(value) is float:
            raise StrictError("a float is not a carcnet value")
        return
    if depth > MAX_DEPTH:
        raise StrictError(f"maps and arrays nest at most {MAX_DEPTH} deep")
    for item in items:
        item_kind = item.__class__
        if item_kind is dict or item_kind is list or item_kind is float:
            _walk(item, depth + 1)


def unpack_strict(
    body: bytes | bytearray | memoryview, *, limit: int, max_array: int | None = None,
    max_map: int | None = None, max_str: int | None = None, max_bin: int | None = None,
    max_items: int | None = None,
) -> Any:
    """The one msgpack value of *body*, nothing after it, read strictly: map keys are str and unique,
    strings valid UTF-8, no extension types (timestamps included), no float, maps and arrays nested at
    most :data:`MAX_DEPTH` deep, no str, bin, array or map longer than *limit* (or than its own
    *max_array* items, *max_map* pairs, *max_str* or *max_bin* bytes, when given: the wire's real
    maxima, refused by the C unpacker before any Python object is made). Arrays come back as ``list``.

    With *max_items*, the arrays and maps of the whole value, each counting one plus its items (an
    array) or pairs (a map), are at most *max_items* in all: counted as each array or map is
    decoded, and refused at the first one past the budget, so that decoding a value of many small
    containers stops after at most *max_items* of them (``wire.md`` §2.2).

    Raises:
        StrictError: What is wrong, starting with the msgpack error's class name.
    """
    hooks: dict[str, Callable[[Any], Any]] = {"object_pairs_hook": _pairs}
    if max_items is not None:
        hooks = _counting_hooks(max_items)
    try:
        value = msgpack.unpackb(
            body,
            raw=False,
            strict_map_key=True,
            use_list=True,
            max_str_len=limit if max_str is None else max_str,
            max_bin_len=limit if max_bin is None else max_bin,
            max_array_len=limit if max_array is None else max_array,
            max_map_len=limit if max_map is None else max_map,
            max_ext_len=0,
            **hooks,
        )
    except StrictError:
        raise
    except Exception as exc:  # noqa: BLE001 - msgpack raises ValueError subclasses, StackError, UnicodeDecodeError…
        raise StrictError(f"{type(exc).__name__}: {exc}"[:200]) from None
    _walk(value, 1)
    return value


def _counting_hooks(max_items: int) -> dict[str, Callable[[Any], Any]]:
    """The msgpack hooks of :func:`unpack_strict` that count arrays and maps with their items and
    pairs, raising :class:`StrictError` past *max_items* (each hook call counts at least one, so at
    most *max_items* calls are made)."""
    left = max_items

    def spend(n: int) -> None:
        nonlocal left
        left -= n + 1
        if left < 0:
            raise StrictError(f"more than {max_items} arrays, maps and items in all")

    def pairs(items: list[tuple[Any, Any]]) -> dict[str, Any]:
        spend(len(items))
        return _pairs(items)

    def array(items: list[Any]) -> list[Any]:
        spend(len(items))
        return items

    return {"object_pairs_hook": pairs, "list_hook": array}


def check_fields(m: Mapping[str, Any], expected: tuple[str, ...], where: str) -> None:
    """Checks that map *m* has exactly the fields *expected*.

    Raises:
        StrictError: ``"<where> has unknown field 'x' (expected …)"`` or ``"<where> lacks field 'x'"``.
    """
    unknown = [k for k in m if k not in expected]
    if unknown:
        raise StrictError(f"{where} has unknown field {unknown[0]!r} (expected {', '.join(expected)})")
    missing = [k for k in expected if k not in m]
    if missing:
        raise StrictError(f"{where} lacks field {missing[0]!r}")
