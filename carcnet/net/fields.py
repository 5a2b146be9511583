"""Provides how one field of a wire message is declared, checked, written and read (``protocol/wire.md``
§4's tables): a codec per kind of value (an integer in a range, a bin of a size, a name, a code, one of
a few words, the rule options, ``nil`` or a value, an array of values), the declaration of a field
(:func:`declare`) and the base of the values built from declarations (:class:`Declared`). Sans-I/O.

A value is checked where it is built, so that one that exists is well formed: reading a map only
picks each field's Python value out of it (:meth:`Field.read`), and building the message checks
them all. Every failure is a :class:`MessageError` naming the field (``"hello.port"``), with the code
the peer is told (``wire.md`` §6).

>>> Int(1, 65536).check(0, "hello.port")
Traceback (most recent call last):
...
carcnet.net.fields.MessageError: hello.port must be an integer in [1, 65536), got 0
>>> OrNil(Bin(2)).write(None), Array(Name(), 4).read(["Ann", "Bob"], "x")
(None, ('Ann', 'Bob'))
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Any, ClassVar, TypeAlias

from carcnet.engine import Rules
from carcnet.log import LogFormatError
from carcnet.log.codec import options_from_wire, options_to_wire
from carcnet.log.values import (
    DIGEST_SIZE,
    MAX_NAME,
    StrictError,
    check_fields,
    is_game_id,
    kind_of,
    name_problem,
)

from .framing import ProtocolError

__all__ = [
    "PROTO_VERSION",
    "Array",
    "Bin",
    "Bool",
    "Code",
    "Declared",
    "Field",
    "GameId",
    "Int",
    "MessageError",
    "Name",
    "OneOf",
    "Options",
    "OrNil",
    "Text",
    "bad",
    "check_bin",
    "check_have",
    "check_int",
    "check_keys",
    "check_text",
    "declare",
    "declared",
    "read_list",
    "read_map",
    "read_str",
]

#: The wire protocol version this code speaks (``wire.md`` §8).
PROTO_VERSION = 11
_CODE = re.compile(r"[a-z][a-z0-9-]{0,31}")


class MessageError(ProtocolError):
    """A frame whose map is not a message of ``protocol/wire.md`` §4. ``code`` is
    ``"unknown-message"`` (no or an unknown ``type``), ``"bad-version"`` (a ``hello`` or ``welcome``
    of another protocol or rules version, or a header of another log format), ``"bad-header"`` (a
    header whose keys, commitments, nonces and seed disagree) or ``"bad-message"`` (anything else:
    a field missing, unknown, mistyped or out of range). The message names the field."""


# ---------------------------------------------------------------------- value checks


def bad(where: str, what: str) -> MessageError:
    """The ``"bad-message"`` error of the field *where* (``"hello.port"``): *what* is wrong with it;
    the message cut to 300 characters."""
    return MessageError("bad-message", f"{where} {what}"[:300])


def check_int(value: object, where: str, low: int, high: int) -> None:
    """Raises :class:`MessageError` unless *value* is an int (not a bool) in ``[low, high)``."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value < high:
        raise bad(where, f"must be an integer in [{low}, {high}), got {value!r}")


def check_bin(value: object, where: str, size: int) -> None:
    """Raises :class:`MessageError` unless *value* is bytes of exactly *size*."""
    if not isinstance(value, bytes) or len(value) != size:
        raise bad(where, f"must be bin of {size} bytes, got {kind_of(value)}")


def check_text(value: object, where: str, limit: int = MAX_NAME) -> None:
    """Raises :class:`MessageError` unless *value* is a name of 1 to *limit* characters: log.md §5's
    rule (``carcnet.log.values.name_problem``)."""
    problem = name_problem(value, limit)
    if problem:
        raise bad(where, f"{problem}, got {value!r}")


def check_have(have: object, digest: object, where: str) -> None:
    """Raises :class:`MessageError` unless *have* is a seq (0 to 2³²−1) and *digest* a state digest,
    ``None`` only at have 0 (a peer that holds no header)."""
    check_int(have, f"{where}.have", 0, 2**32)
    if digest is not None:
        check_bin(digest, f"{where}.digest", DIGEST_SIZE)
    if digest is None and have != 0:
        raise bad(f"{where}.digest", "is nil only for a peer that holds no header (have 0)")


def check_keys(m: dict[str, Any], expected: tuple[str, ...], where: str) -> None:
    """Raises :class:`MessageError` unless the keys of *m* are exactly *expected*."""
    try:
        check_fields(m, expected, where)
    except StrictError as exc:
        raise MessageError("bad-message", str(exc)[:300]) from None


def read_map(value: object, where: str) -> dict[str, Any]:
    """*value*, which must be a map (its keys are checked by :func:`check_keys`)."""
    if not isinstance(value, dict):
        raise bad(where, f"must be a map, got {kind_of(value)}")
    return value


def read_list(value: object, where: str, limit: int) -> list[Any]:
    """*value*, which must be an array of at most *limit* items."""
    if not isinstance(value, list):
        raise bad(where, f"must be an array, got {kind_of(value)}")
    if len(value) > limit:
        raise bad(where, f"holds at most {limit} items")
    return value


def read_str(value: object, where: str) -> str:
    """*value*, which must be a str."""
    if not isinstance(value, str):
        raise bad(where, f"must be a str, got {kind_of(value)}")
    return value


# ---------------------------------------------------------------------- codecs


class Field:
    """How one field of a message is checked, written and read (``wire.md`` §4's tables).

    A message declares each field once: its Python name, its wire name (``declare(..., wire="from")``)
    and one of these codecs. ``to_wire``, ``from_wire`` and every message's check are derived from
    the declarations, in declaration order, which is the canonical key order.
    """

    def check(self, value: object, where: str) -> None:
        """Raises :class:`MessageError` unless *value* is a valid Python value of this field."""

    def write(self, value: Any) -> Any:
        """The field's plain wire value."""
        return value

    def read(self, raw: Any, where: str) -> Any:
        """The Python value of a wire value (checked when the message is built)."""
        return raw


class Int(Field):
    """An int (not a bool) in ``[low, high)``."""

    def __init__(self, low: int, high: int) -> None:
        self.low, self.high = low, high

    def check(self, value: object, where: str) -> None:
        check_int(value, where, self.low, self.high)


class Bin(Field):
    """Bytes of exactly *size*."""

    def __init__(self, size: int) -> None:
        self.size = size

    def check(self, value: object, where: str) -> None:
        check_bin(value, where, self.size)


class Name(Field):
    """A name of 1 to *limit* characters (``log.md`` §5: no control or invisible formatting characters)."""

    def __init__(self, limit: int = MAX_NAME) -> None:
        self.limit = limit

    def check(self, value: object, where: str) -> None:
        check_text(value, where, self.limit)


class GameId(Field):
    """A game id: 32 lowercase hex digits."""

    def check(self, value: object, where: str) -> None:
        if not is_game_id(value):
            raise bad(where, f"must be 32 lowercase hex digits, got {value!r}")


class OneOf(Field):
    """One of the strs *values*."""

    def __init__(self, values: tuple[str, ...]) -> None:
        self.values = values

    def check(self, value: object, where: str) -> None:
        if value not in self.values:
            raise bad(where, f"must be one of {', '.join(self.values)}, got {value!r}")


class Code(Field):
    """An error or reject code (``wire.md`` §6): lowercase letters, digits and ``-``, up to 32."""

    def check(self, value: object, where: str) -> None:
        if not isinstance(value, str) or not _CODE.fullmatch(value):
            raise bad(where, f"must be a code (lowercase letters, digits, '-'; up to 32), got {value!r}")


class Text(Field):
    """Words for people: a str of at most *limit* characters, possibly empty."""

    def __init__(self, limit: int) -> None:
        self.limit = limit

    def check(self, value: object, where: str) -> None:
        if not isinstance(value, str) or len(value) > self.limit:
            raise bad(where, f"must be a str of at most {self.limit} characters")


class Bool(Field):
    """A bool."""

    def check(self, value: object, where: str) -> None:
        if not isinstance(value, bool):
            raise bad(where, "must be a bool")


class OrNil(Field):
    """``nil`` or the inner field."""

    def __init__(self, inner: Field) -> None:
        self.inner = inner

    def check(self, value: object, where: str) -> None:
        if value is not None:
            self.inner.check(value, where)

    def write(self, value: Any) -> Any:
        return None if value is None else self.inner.write(value)

    def read(self, raw: Any, where: str) -> Any:
        return None if raw is None else self.inner.read(raw, where)


class Array(Field):
    """An array of at most *limit* items of one field, read into a tuple; distinct unless *repeats*."""

    def __init__(self, item: Field, limit: int, *, repeats: bool = False) -> None:
        self.item, self.limit, self.repeats = item, limit, repeats

    def check(self, value: object, where: str) -> None:
        if not isinstance(value, tuple):
            raise bad(where, "must be a tuple")
        if len(value) > self.limit:
            raise bad(where, f"holds at most {self.limit} items")
        for i, item in enumerate(value):
            self.item.check(item, f"{where}[{i}]")
        if not self.repeats and len(set(value)) != len(value):
            raise bad(where, "holds an item twice")

    def write(self, value: tuple[Any, ...]) -> Any:
        return [self.item.write(v) for v in value]

    def read(self, raw: Any, where: str) -> Any:
        items = read_list(raw, where, self.limit)
        return tuple(self.item.read(v, f"{where}[{i}]") for i, v in enumerate(items))


class Options(Field):
    """The rule options as the header's ``options`` map (``log.md`` §5)."""

    def check(self, value: object, where: str) -> None:
        if not isinstance(value, Rules):
            raise bad(where, "must be Rules")
        try:
            options_to_wire(value, where)
        except LogFormatError as exc:
            raise MessageError("bad-message", str(exc)[:300]) from None

    def write(self, value: Rules) -> Any:
        return options_to_wire(value)

    def read(self, raw: Any, where: str) -> Any:
        try:
            return options_from_wire(raw, where)
        except LogFormatError as exc:
            raise MessageError("bad-message", str(exc)[:300]) from None


# ---------------------------------------------------------------------- declarations


def declare(
    codec: Field, *, wire: str | None = None, default: Any = dataclasses.MISSING,
    factory: Callable[[], Any] | None = None,
) -> Any:
    """A message field: its codec and its wire name (the Python name unless given); its default, or
    a *factory* that makes a fresh one for each message. Typed ``Any`` because it stands where the
    dataclass field's value of the declared type would (as :func:`dataclasses.field` does)."""
    metadata = {"codec": codec, "wire": wire}
    if factory is not None:
        return dataclasses.field(default_factory=factory, metadata=metadata)
    if default is dataclasses.MISSING:
        return dataclasses.field(metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


#: One declared field: (attribute, codec, wire name, where it is named in errors: ``"<type>.<wire name>"``).
Declaration: TypeAlias = tuple[str, Field, str, str]


class Declared:
    """What every frozen dataclass whose fields are declared with :func:`declare` shares: built, it
    checks each declared field in order, then :meth:`_check_more` (the checks across fields); one that
    exists is well formed."""

    __slots__ = ()
    #: The ``type`` of the value on the wire.
    TYPE: ClassVar[str]
    #: The dataclass's fields (set by ``@dataclass`` on each subclass).
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    def __post_init__(self) -> None:
        for attr, codec, _, where in declared(type(self)):
            codec.check(getattr(self, attr), where)
        self._check_more()

    def _check_more(self) -> None:
        """The checks across fields (none by default)."""


_DECLARED: dict[type[Declared], tuple[Declaration, ...]] = {}


def declared(cls: type[Declared]) -> tuple[Declaration, ...]:
    """The declared fields of a class, in order (worked out once per class)."""
    found = _DECLARED.get(cls)
    if found is None:
        out = []
        for f in dataclasses.fields(cls):
            name = f.metadata.get("wire") or f.name
            out.append((f.name, f.metadata["codec"], name, f"{cls.TYPE}.{name}"))
        found = _DECLARED[cls] = tuple(out)
    return found
