"""The JSON form of golden vectors (protocol/README.md), shared by the log and wire vector modules:
msgpack bin as lowercase hex, the 64-bit seed as a decimal string, everything else as is.

A value is bin exactly when its key is one of :data:`BIN_KEYS`, or, for arrays of bin, one of
:data:`BIN_LIST_KEYS` (protocol/log.md §5–6, protocol/wire.md §4).
"""

from __future__ import annotations

from typing import Any

BIN_KEYS = frozenset({"value", "key", "digest", "sig", "hash", "nonce", "id"})
BIN_LIST_KEYS = frozenset({"keys", "commits", "nonces", "sees", "values"})


def to_json(value: Any, key: str = "") -> Any:
    """The JSON form of a msgpack value: bin as hex, the seed as a decimal string."""
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, dict):
        return {k: to_json(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [to_json(v, key) for v in value]
    if key == "seed" and isinstance(value, int):
        return str(value)
    return value


def from_json(value: Any, key: str = "") -> Any:
    """The msgpack value of a JSON form (the inverse of :func:`to_json`)."""
    if isinstance(value, dict):
        return {k: from_json(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [from_json(v, key) for v in value]
    if isinstance(value, str) and (key in BIN_KEYS or key in BIN_LIST_KEYS):
        return bytes.fromhex(value)
    if key == "seed" and isinstance(value, str):
        return int(value)
    return value
