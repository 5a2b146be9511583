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
from collections.abc import Iterable, Mapping
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

#: Never in a name (``log.md`` §5): C0 and C1 controls and DEL; and the invisible format characters
#: that change how the text around them shows: soft hyphen, Arabic letter mark, Mongolian vowel
#: separator, zero-width and directional marks, line and paragraph separators, bidi embeddings,
#: overrides and isolates, word joiner and invisible operators, the byte-order mark, interlinear
#: annotation marks, and the tag characters. A fixed list, not Unicode categories, so that every Python
#: (whatever its Unicode version) judges a name alike.
_CONTROL = re.compile(
    "[\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f"
    "\ufeff\ufff9-\ufffb\U000e0000-\U000e007f]"
)
_GAME_ID = re.compile(r"[0-9a-f]{32}")


def name_problem(value: object, limit: int = MAX_NAME) -> str | None:
    """What is wrong with *value* as a name (seat, bot, peer or game name: ``log.md`` §5), or
    ``None``: a name is a str of 1 to *limit* characters, not only white space, without control or
    invisible format characters (bidi overrides, zero-width characters, tags, line separators)."""
    if not isinstance(value, str) or not value.strip() or len(value) > limit or _CONTROL.search(value):
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
) -> Any:
    """The one msgpack value of *body*, nothing after it, read strictly: map keys are str and unique,
    strings valid UTF-8, no extension types (timestamps included), no float, maps and arrays nested at
    most :data:`MAX_DEPTH` deep, no str, bin, array or map longer than *limit* (or than its own
    *max_array* items, *max_map* pairs, *max_str* or *max_bin* bytes, when given: the wire's real
    maxima, refused by the C unpacker before any Python object is made). Arrays come back as ``list``.

    Raises:
        StrictError: What is wrong, starting with the msgpack error's class name.
    """
    try:
        value = msgpack.unpackb(
            body,
            raw=False,
            strict_map_key=True,
            use_list=True,
            object_pairs_hook=_pairs,
            max_str_len=limit if max_str is None else max_str,
            max_bin_len=limit if max_bin is None else max_bin,
            max_array_len=limit if max_array is None else max_array,
            max_map_len=limit if max_map is None else max_map,
            max_ext_len=0,
        )
    except Exception as exc:  # noqa: BLE001 - msgpack raises ValueError subclasses, StackError, UnicodeDecodeError…
        raise StrictError(f"{type(exc).__name__}: {exc}"[:200]) from None
    _walk(value, 1)
    return value


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
