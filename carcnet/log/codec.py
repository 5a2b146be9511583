"""Provides the msgpack form of headers, entries and moves (``protocol/log.md`` §4–7).

:func:`to_wire` and :func:`from_wire` map a value to a plain map (str keys; ints, strs, bools, lists,
``None`` and ``bytes``) and back; :func:`pack` and :func:`unpack` add msgpack. Decoding is strict:
a map must hold exactly the fields of its ``"type"``, each with its msgpack type, or
:class:`~carcnet.log.errors.LogFormatError` names the field. Nothing here is ever unpickled, and
msgpack extension types are refused.

A header says which log format it is in (``format``; §7). Entries do not: they are read and written
in the format of their file's header, given as *format* (default :data:`DEFAULT_FORMAT`). Format 2
adds ``keys``, ``commits`` and ``nonces`` to the header and ``sig`` to each entry; format 3 adds
table draws: chain roots in ``commits`` without ``nonces``, and the ``draw`` move.

>>> from carcnet.engine import parse_move
>>> to_wire(parse_move("place V 1,-2 90"))
{'type': 'place', 'tile': 'V', 'pos': [1, -2], 'rot': 1}
>>> str(unpack(pack(parse_move("deploy 3"))))
'deploy 3'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

import msgpack  # type: ignore[import-untyped]  # msgpack ships no type hints

from carcnet.engine import (
    FARM_RULES,
    RULES_VERSION,
    SUPPORTED_RULES,
    DeployMeeple,
    DrawTile,
    Figure,
    HandBack,
    HandOver,
    Move,
    PlaceTile,
    Position,
    Rules,
    SkipMeeple,
)
from carcnet.engine import RIVER_STARTS as _RIVER_STARTS
from carcnet.engine.draws import MAX_CHAIN

from .parts import FLAGS, SHAPES
from .entries import (
    DEFAULT_FORMAT,
    FORMAT_VERSION,
    KEY_SIZE,
    READ_FORMATS,
    SIG_SIZE,
    TABLE_FORMAT,
    LogEntry,
    LogHeader,
    Seat,
)
from .errors import LogFormatError, LogKeysError, LogVersionError
from .seeding import NONCE_SIZE
from .values import StrictError, check_fields, kind_of, unpack_strict

__all__ = [
    "FARM_RULES",
    "MAX_BODY",
    "RIVER_STARTS",
    "from_wire",
    "options_from_wire",
    "options_to_wire",
    "pack",
    "to_wire",
    "unpack",
]

#: Largest msgpack body of one record, in bytes (``protocol/log.md`` §3).
MAX_BODY = 65536
#: Coordinates and segment indices must lie in ``(-COORD_LIMIT, COORD_LIMIT)``.
COORD_LIMIT = 2**31

Item = LogHeader | LogEntry | Move

_HEADER_KEYS_1 = ("type", "format", "rules", "game", "created", "seats", "options", "seed", "order", "digest")
#: Format 2 adds the seat keys and the commit–reveal of the seed (protocol/log.md §5, wire.md §4.2).
_HEADER_KEYS_2 = (*_HEADER_KEYS_1, "keys", "commits", "nonces")
_SEAT_KEYS = ("name", "colour", "player", "bot")
#: The sheep bag's tokens a header's ``tokens`` may give (Hills & Sheep; protocol/log.md §5).
_TOKENS = ("1", "2", "3", "4", "W")
_FLAG_KEYS = ("river", "abbot", "small-city")
_OPTION_KEYS = ("river", "abbot", "small-city", "farms")
#: With The River, the options also say what happened to the base start tile (protocol/log.md §5).
_RIVER_OPTION_KEYS = (*_OPTION_KEYS, "river-start")
#: The values of ``river-start`` (the engine's ``RIVER_STARTS``): the base start tile placed after the
#: river or shuffled into the river tiles (HiG), or left out (Z-Man).
RIVER_STARTS = _RIVER_STARTS
_ENTRY_KEYS_1 = ("type", "seq", "seat", "move", "digest")
#: Format 2 adds the seat's signature (protocol/log.md §6).
_ENTRY_KEYS_2 = (*_ENTRY_KEYS_1, "sig")
#: The expansions' moves (:mod:`carcnet.log.parts`), by type and by class.
_SHAPES = {shape.type: shape for shape in SHAPES}
_SHAPE_OF = {shape.move: shape for shape in SHAPES}
_MOVE_KEYS = {
    "place": ("type", "tile", "pos", "rot"),
    "deploy": ("type", "segment", "figure"),
    "skip": ("type",),
    **{shape.type: shape.keys for shape in SHAPES},
    "handover": ("type", "seat", "bot", "by"),
    "handback": ("type", "seat"),
    "draw": ("type", "values"),
}
#: A ``handback`` made by the seat itself, taking its seat back from a runner that is gone, names it
#: in ``by`` (protocol/log.md §6); the runner's has no ``by``.
_HANDBACK_BY_KEYS = ("type", "seat", "by")
#: A deploy on another tile than the one just placed (the magic portal) names it (protocol/log.md §4).
_DEPLOY_AT_KEYS = ("type", "segment", "figure", "pos")
#: Chain values are 32 bytes (``protocol/deck.md`` §5.1).
VALUE_SIZE = 32


# ---------------------------------------------------------------------- encoding


def to_wire(item: Item, *, format: int = DEFAULT_FORMAT) -> dict[str, Any]:
    """The plain map of a header, an entry or a move, keys in the order of ``protocol/log.md``.

    A header is written in its own format (``item.format``); an entry in *format*, that of its
    file's header.

    Raises:
        LogFormatError: *item* is none of those, a move field is out of range, or a signed entry
            is to be written in format 1 (which has no signatures).
    """
    out: dict[str, Any]
    if isinstance(item, LogHeader):
        out = {
            "type": "header",
            "format": item.format,
            "rules": item.rules,
            "game": item.game,
            "created": item.created,
            "seats": [
                {"name": s.name, "colour": s.colour, "player": s.player, "bot": s.bot} for s in item.seats
            ],
            "options": options_to_wire(item.options, "header.options"),
            "seed": item.seed,
            "order": list(item.order) if item.order is not None else None,
            "digest": item.digest,
        }
        if item.format >= 2:
            out["keys"] = _bins_out(item.keys)
            out["commits"] = _bins_out(item.commits)
            out["nonces"] = _bins_out(item.nonces)
        if item.tokens is not None:  # (a given order's sheep tokens: only then)
            out["tokens"] = list(item.tokens)
        return out
    if isinstance(item, LogEntry):
        _check_format(format)
        if isinstance(item.move, DrawTile) and format < TABLE_FORMAT:
            raise LogFormatError(f"entry seq {item.seq} is a table draw, which needs log format {TABLE_FORMAT}")
        out = {
            "type": "entry",
            "seq": item.seq,
            "seat": item.seat,
            "move": to_wire(item.move, format=TABLE_FORMAT),
            "digest": item.digest,
        }
        if format >= 2:
            out["sig"] = item.sig
        elif item.sig is not None:
            raise LogFormatError(f"entry seq {item.seq} is signed, but log format {format} has no signatures")
        return out
    if isinstance(item, PlaceTile):
        out = {"type": "place", "tile": item.tile, "pos": _pos_out(item.position), "rot": item.rotation}
        return _checked_move(out, "move")
    if isinstance(item, DeployMeeple):
        figure = item.figure.value if isinstance(item.figure, Figure) else item.figure
        deploy: dict[str, Any] = {"type": "deploy", "segment": item.segment, "figure": figure}
        if item.at is not None:
            deploy["pos"] = _pos_out(item.at)
        return _checked_move(deploy, "move")
    if isinstance(item, SkipMeeple):
        return {"type": "skip"}
    shape = _SHAPE_OF.get(type(item))  # type: ignore[arg-type]
    if shape is not None:  # an expansion's move
        out = {"type": shape.type}
        for key, attribute, kind in shape.fields:
            value = getattr(item, attribute)
            out[key] = _pos_out(value) if kind == "pos" else value
        return _checked_move(out, "move")
    if isinstance(item, HandOver):
        return _checked_move({"type": "handover", "seat": item.seat, "bot": item.bot, "by": item.by}, "move")
    if isinstance(item, HandBack):
        if item.by is None:
            return _checked_move({"type": "handback", "seat": item.seat}, "move")
        return _checked_move({"type": "handback", "seat": item.seat, "by": item.by}, "move")
    if isinstance(item, DrawTile):
        values = list(item.values) if isinstance(item.values, tuple) else item.values
        return _checked_move({"type": "draw", "values": values}, "move", TABLE_FORMAT)
    raise LogFormatError(f"not a header, entry or move: {item!r}")


def pack(item: Item, *, format: int = DEFAULT_FORMAT) -> bytes:
    """The msgpack body of *item* (``protocol/log.md`` §4): one map, shortest int forms, str as
    msgpack str, digests, keys and signatures as msgpack bin. An entry is packed in *format*.
    Raises ``LogFormatError`` as :func:`to_wire` does."""
    body: bytes = msgpack.packb(to_wire(item, format=format), use_bin_type=True)
    return body


def _bins_out(values: tuple[bytes, ...] | None) -> list[bytes] | None:
    return list(values) if values is not None else None


def _check_format(format: int) -> None:
    if format not in READ_FORMATS or isinstance(format, bool):
        raise LogFormatError(f"log format {format!r} is not one this carcnet reads {READ_FORMATS}")


def _pos_out(position: Position) -> list[int] | Position:
    """``[x, y]``; anything but a pair as it is, for :func:`_checked_move` to refuse."""
    if isinstance(position, tuple) and len(position) == 2:
        return [position[0], position[1]]
    return position  # refused by _checked_move


def _checked_move(out: dict[str, Any], where: str, format: int = DEFAULT_FORMAT) -> dict[str, Any]:
    _move_from_map(out, where, format)  # the same checks as decoding: never write what could not be read
    return out


# ---------------------------------------------------------------------- decoding


def unpack(body: bytes, *, format: int = DEFAULT_FORMAT) -> Item:
    """Reads one msgpack body: exactly one map, then :func:`from_wire` (an entry in *format*).

    Raises:
        LogFormatError: Not msgpack, trailing bytes, not a map, or a field is wrong.
        LogVersionError: A header of another format or rules version.
    """
    if not isinstance(body, bytes | bytearray | memoryview) or len(body) > MAX_BODY:
        raise LogFormatError(f"a record body is at most {MAX_BODY} bytes")
    try:
        data = unpack_strict(body, limit=MAX_BODY)
    except StrictError as exc:
        raise LogFormatError(f"the record body is not one msgpack value ({exc})") from None
    return from_wire(data, format=format)


def from_wire(data: object, *, format: int = DEFAULT_FORMAT) -> Item:
    """The header, entry or move a plain map describes, chosen by its ``"type"``.

    A header's ``format`` and ``rules`` are checked before anything else in it, so that a header
    from a newer version is refused for its version, not for a field this version does not know;
    the header is then read by the rules of its format. An entry is read by the rules of *format*
    (its file's): in format 2 it has a ``sig``, in format 1 it has none.

    Raises:
        LogFormatError: A missing or unknown field, a wrong type, a value out of range.
        LogVersionError: A header of another format or rules version (``protocol/log.md`` §7).
    """
    m = _map(data, "record")
    kind = m.get("type")
    if kind == "header":
        return _header_from_map(m)
    if kind == "entry":
        _check_format(format)
        return _entry_from_map(m, format)
    if kind in _MOVE_KEYS:
        return _move_from_map(m, "move", format)
    raise LogFormatError(f"record type must be header, entry or a move type, got {kind!r}")


def _header_from_map(m: dict[str, Any]) -> LogHeader:
    fmt, rules = _check_versions(m)
    expected = _HEADER_KEYS_2 if fmt >= 2 else _HEADER_KEYS_1
    _keys(m, (*expected, "tokens") if "tokens" in m else expected, "header")
    tokens = m.get("tokens")
    if tokens is not None:
        if not isinstance(tokens, list) or len(tokens) > MAX_CHAIN or any(t not in _TOKENS for t in tokens):
            raise LogFormatError(f"header.tokens must be an array of at most {MAX_CHAIN} sheep bag tokens "
                                 "('1' to '4', 'W')")
        tokens = tuple(tokens)
    seats_raw = m["seats"]
    if not isinstance(seats_raw, list):
        raise LogFormatError(f"header.seats must be an array, got {kind_of(seats_raw)}")
    seats = []
    for i, raw in enumerate(seats_raw):
        where = f"header.seats[{i}]"
        s = _map(raw, where)
        _keys(s, _SEAT_KEYS, where)
        _typed(s, "name", str, where)
        _typed(s, "colour", str, where)
        _typed(s, "player", str, where)
        if s["bot"] is not None:
            _typed(s, "bot", str, where)
        seats.append(_build(Seat, where, s["name"], s["colour"], s["player"], s["bot"]))
    options = options_from_wire(m["options"], "header.options")
    seed = m["seed"]
    if seed is not None:
        _int(m, "seed", "header", 0, 2**64)
    order = m["order"]
    if order is not None:
        if not isinstance(order, list) or not all(isinstance(t, str) for t in order):
            raise LogFormatError("header.order must be nil or an array of str (tile letters)")
        order = tuple(order)
    _int(m, "created", "header", 0, 2**63)
    _typed(m, "game", str, "header")
    _typed(m, "digest", bytes, "header")
    keys = commits = nonces = None
    if fmt >= 2:
        keys = _bins_in(m, "keys", KEY_SIZE)
        commits = _bins_in(m, "commits", NONCE_SIZE)
        nonces = _bins_in(m, "nonces", NONCE_SIZE)
    return _build(
        LogHeader,
        "header",
        game=m["game"],
        created=m["created"],
        seats=tuple(seats),
        digest=m["digest"],
        options=options,
        seed=seed,
        order=order,
        keys=keys,
        commits=commits,
        nonces=nonces,
        format=fmt,
        rules=rules,
        tokens=tokens,
    )


def _bins_in(m: dict[str, Any], key: str, size: int) -> tuple[bytes, ...] | None:
    """A format-2 header's ``keys``, ``commits`` or ``nonces``: nil, or an array of at most 6 bin of
    *size* bytes (one per seat: the count is the header's check)."""
    values = m[key]
    if values is None:
        return None
    if not isinstance(values, list) or len(values) > 6:
        raise LogFormatError(f"header.{key} must be nil or an array of at most 6 bin, got {kind_of(values)}")
    for i, value in enumerate(values):
        if not isinstance(value, bytes) or len(value) != size:
            raise LogFormatError(f"header.{key}[{i}] must be bin of {size} bytes, got {kind_of(value)}"[:200])
    return tuple(values)


def options_to_wire(rules: Rules, where: str = "options") -> dict[str, Any]:
    """The ``options`` map of *rules* (``protocol/log.md`` §5): ``river``, ``abbot``,
    ``small-city`` and ``farms``, then ``river-start`` exactly when ``river`` is true, then each
    expansion's flag (true) exactly when it is played (:data:`carcnet.log.parts.FLAGS`: ``inns``,
    ``traders``, ``hills-sheep``, ``princess-dragon``). A header's
    ``options`` and a wire ``lobby``'s (``protocol/wire.md`` §4.6) are this map.

    >>> options_to_wire(Rules(river=True, river_start="omit"))
    {'river': True, 'abbot': False, 'small-city': False, 'farms': 'farm', 'river-start': 'omit'}

    Raises:
        LogFormatError: *rules* is not a :class:`~carcnet.engine.Rules`, or holds what
            :func:`options_from_wire` would refuse (a flag that is not a bool, a ``farms`` other
            than :data:`FARM_RULES`; with ``river``, a ``river_start`` other than
            :data:`RIVER_STARTS`). *where* names the map in the message.
    """
    if not isinstance(rules, Rules):
        raise LogFormatError(f"{where} must be Rules, got {type(rules).__name__}")
    out: dict[str, Any] = {
        "river": rules.river, "abbot": rules.abbot, "small-city": rules.small_city, "farms": rules.farms
    }
    if rules.river:
        out["river-start"] = rules.river_start
    for key, field in FLAGS:  # an expansion's flag, exactly when it is played
        if getattr(rules, field):
            out[key] = True
    options_from_wire(out, where)  # the same checks as reading: never write what could not be read
    return out


def options_from_wire(value: object, where: str = "options") -> Rules:
    """The rule options an ``options`` map describes (``protocol/log.md`` §5), read strictly: exactly
    ``river``, ``abbot`` and ``small-city`` (bools), ``farms`` (one of :data:`FARM_RULES`), and
    ``river-start`` (one of :data:`RIVER_STARTS`) exactly when ``river`` is true. Without The River,
    ``river_start`` is the default, ``"after"``.

    >>> options_from_wire({"river": True, "abbot": False, "small-city": False, "farms": "city", "river-start": "omit"})
    Rules(river=True, abbot=False, river_start='omit', small_city=False, farms='city', inns=False, traders=False, hills_sheep=False, princess_dragon=False)

    Raises:
        LogFormatError: Not a map, a missing or unknown key, a wrong type or value; the message
            names the field under *where* (e.g. ``"header.options.river-start"``).
    """
    options = _map(value, where)
    if "river" in options:
        _typed(options, "river", bool, where)
    river = options.get("river") is True
    expansions = tuple(key for key, _field in FLAGS if key in options)
    _keys(options, (*(_RIVER_OPTION_KEYS if river else _OPTION_KEYS), *expansions), where)
    for key in expansions:  # present exactly when played: one encoding a game
        if options[key] is not True:
            raise LogFormatError(f"{where}.{key} must be true when present, got {options[key]!r}"[:200])
    for key in _FLAG_KEYS:
        _typed(options, key, bool, where)
    _typed(options, "farms", str, where)
    farms = options["farms"]
    if farms not in FARM_RULES:
        raise LogFormatError(f"{where}.farms must be one of {', '.join(FARM_RULES)}, got {farms!r}"[:200])
    river_start = "after"
    if river:
        _typed(options, "river-start", str, where)
        river_start = options["river-start"]
        if river_start not in RIVER_STARTS:
            raise LogFormatError(
                f"{where}.river-start must be one of {', '.join(RIVER_STARTS)}, got {river_start!r}"[:200]
            )
    return Rules(
        river=options["river"], abbot=options["abbot"], river_start=river_start,
        small_city=options["small-city"], farms=farms, **{field: key in expansions for key, field in FLAGS},
    )


def _check_versions(m: dict[str, Any]) -> tuple[int, int]:
    """``protocol/log.md`` §7: the format version first, then the rules version; returns both."""
    fmt = _int(m, "format", "header", 0, 2**32)
    if fmt > FORMAT_VERSION:
        raise LogVersionError(
            "format",
            fmt,
            FORMAT_VERSION,
            f"this log is in log format version {fmt}, newer than this carcnet reads (format version "
            f"{FORMAT_VERSION}): open it with a newer carcnet",
        )
    if fmt not in READ_FORMATS:
        raise LogVersionError(
            "format",
            fmt,
            FORMAT_VERSION,
            f"log format version {fmt} does not exist (this carcnet reads format versions "
            f"{', '.join(map(str, READ_FORMATS))})",
        )
    rules = _int(m, "rules", "header", 0, 2**32)
    if rules not in SUPPORTED_RULES:
        hint = "a newer carcnet" if rules > RULES_VERSION else f"a carcnet that plays rules version {rules}"
        plays = ", ".join(map(str, SUPPORTED_RULES[:-1])) + f" and {SUPPORTED_RULES[-1]}"
        raise LogVersionError(
            "rules",
            rules,
            RULES_VERSION,
            f"this game was played under rules version {rules}, but this carcnet plays rules versions "
            f"{plays}; it is not replayed under other rules: open it with {hint}",
        )
    return fmt, rules


def _entry_from_map(m: dict[str, Any], format: int) -> LogEntry:
    _keys(m, _ENTRY_KEYS_2 if format >= 2 else _ENTRY_KEYS_1, "entry")
    _int(m, "seq", "entry", 1, 2**32)
    _int(m, "seat", "entry", 0, 6)
    _typed(m, "digest", bytes, "entry")
    sig = m.get("sig")
    if sig is not None and (not isinstance(sig, bytes) or len(sig) != SIG_SIZE):
        raise LogFormatError(f"entry.sig must be nil or bin of {SIG_SIZE} bytes, got {kind_of(sig)}")
    move = _move_from_map(_map(m["move"], "entry.move"), "entry.move", format)
    return _build(LogEntry, "entry", m["seq"], m["seat"], move, m["digest"], sig)


def _move_from_map(m: dict[str, Any], where: str, format: int = DEFAULT_FORMAT) -> Move:
    kind = m.get("type")
    keys = _MOVE_KEYS.get(kind) if isinstance(kind, str) else None
    if keys is None or (kind == "draw" and format < TABLE_FORMAT):
        known = [k for k in _MOVE_KEYS if k != "draw" or format >= TABLE_FORMAT]
        raise LogFormatError(f"{where}.type must be one of {', '.join(known)} (log format {format}), got {kind!r}")
    if kind == "handback" and "by" in m:
        keys = _HANDBACK_BY_KEYS
    elif kind == "deploy" and "pos" in m:
        keys = _DEPLOY_AT_KEYS
    _keys(m, keys, where)
    if kind == "place":
        tile = m["tile"]
        if not isinstance(tile, str) or not 1 <= len(tile) <= 4:
            raise LogFormatError(f"{where}.tile must be a tile letter (str), got {tile!r}")
        return PlaceTile(tile, _pos_in(m, where), _int(m, "rot", where, 0, 4))
    if kind == "deploy":
        figure = m["figure"]
        if figure not in ("meeple", "abbot", "large", "builder", "pig", "shepherd"):
            raise LogFormatError(
                f"{where}.figure must be 'meeple', 'abbot', 'large', 'builder', 'pig' or 'shepherd', got {figure!r}"[:200])
        at = _pos_in(m, where) if "pos" in m else None
        return DeployMeeple(_int(m, "segment", where, 0, COORD_LIMIT), Figure(figure), at)
    if kind == "skip":
        return SkipMeeple()
    shape = _SHAPES.get(kind)
    if shape is not None:  # an expansion's move
        values: list[Any] = []
        for key, _attribute, field_kind in shape.fields:
            if field_kind == "pos":
                values.append(_pos_in(m, where))
            elif field_kind == "segment":
                values.append(_int(m, key, where, 0, COORD_LIMIT))
            else:
                value = m[key]
                if not isinstance(value, bool):
                    raise LogFormatError(f"{where}.{key} must be a bool, got {kind_of(value)}")
                values.append(value)
        return shape.move(*values)  # type: ignore[call-arg]
    if kind == "handover":
        bot = m["bot"]
        if not isinstance(bot, str) or not 1 <= len(bot) <= 32:
            raise LogFormatError(f"{where}.bot must be a bot name (str of 1 to 32), got {bot!r}"[:200])
        return HandOver(_int(m, "seat", where, 0, 6), bot, _int(m, "by", where, 0, 6))
    if kind == "handback":
        seat = _int(m, "seat", where, 0, 6)
        if "by" not in m:
            return HandBack(seat)
        by = _int(m, "by", where, 0, 6)
        if by != seat:
            raise LogFormatError(f"{where}.by must be the seat itself ({seat}) when given, got {by}")
        return HandBack(seat, by)
    if kind == "draw":
        values = m["values"]
        if (
            not isinstance(values, list) or not 2 <= len(values) <= 6
            or not all(v is None or (isinstance(v, bytes) and len(v) == VALUE_SIZE) for v in values)
        ):
            raise LogFormatError(f"{where}.values must be an array of 2 to 6 (bin of {VALUE_SIZE} bytes or nil)")
        return DrawTile(tuple(values))
    raise AssertionError(f"no decoder for move type {kind!r}")  # every type of _MOVE_KEYS has one above


def _pos_in(m: dict[str, Any], where: str) -> Position:
    pos = m["pos"]
    if (
        not isinstance(pos, list)
        or len(pos) != 2
        or not all(
            isinstance(v, int) and not isinstance(v, bool) and -COORD_LIMIT < v < COORD_LIMIT for v in pos
        )
    ):
        raise LogFormatError(f"{where}.pos must be an array of two integers [x, y], got {pos!r}")
    return Position(pos[0], pos[1])


# ---------------------------------------------------------------------- checks


def _map(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise LogFormatError(f"{where} must be a map, got {kind_of(value)}")
    for key in value:
        if not isinstance(key, str):
            raise LogFormatError(f"{where} has a key that is not a str: {key!r}")
    return dict(value)


def _keys(m: dict[str, Any], expected: tuple[str, ...], where: str) -> None:
    try:
        check_fields(m, expected, where)
    except StrictError as exc:
        raise LogFormatError(str(exc)) from None


def _typed(m: dict[str, Any], key: str, kind: type, where: str) -> None:
    value = m[key]
    if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
        raise LogFormatError(f"{where}.{key} must be {kind_of(kind())}, got {kind_of(value)} {value!r}"[:200])


def _int(m: dict[str, Any], key: str, where: str, low: int, high: int) -> int:
    value = m.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value < high:
        raise LogFormatError(f"{where}.{key} must be an integer in [{low}, {high}), got {value!r}"[:200])
    return value


_T = TypeVar("_T")


def _build(cls: type[_T], where: str, *args: Any, **kwargs: Any) -> _T:
    try:
        return cls(*args, **kwargs)
    except LogKeysError as exc:
        raise LogKeysError(f"{where}: {exc}") from None
    except LogFormatError as exc:
        raise LogFormatError(f"{where}: {exc}") from None
