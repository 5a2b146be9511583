"""Provides the errors of the log layer: malformed values, unsupported versions, refused log files."""

from __future__ import annotations

__all__ = ["LogError", "LogFormatError", "LogKeysError", "LogVersionError"]


class LogFormatError(ValueError):
    """A header, entry or move that does not follow ``protocol/log.md`` §4–6: a missing or unknown
    field, a wrong msgpack type, a value out of range, bytes that are not one msgpack map. The
    message names the field (``entry.move.rot``) and what was expected."""


class LogKeysError(LogFormatError):
    """A header whose seat keys, commitments, nonces and seed are each well formed but disagree
    (``protocol/log.md`` §5): not one per seat, repeated, a nonce that does not hash to its
    commitment, a seed that is not the one the nonces give. The wire tells a peer ``bad-header`` for
    these and ``bad-message`` for a malformed field (``protocol/wire.md`` §4.2)."""


class LogVersionError(LogFormatError):
    """A header from a format or rules version this carcnet does not play (``protocol/log.md`` §7).

    Attributes:
        field: ``"format"`` (the log format version) or ``"rules"`` (the engine's rules version).
        found: The version the header declares.
        supported: The version this carcnet reads.
    """

    def __init__(self, field: str, found: int, supported: int, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.found = found
        self.supported = supported


class LogError(Exception):
    """A log file that is refused: nothing of it is replayed (``protocol/log.md`` §8).

    The message says what is wrong in words; it never needs a traceback to be understood.

    Attributes:
        reason: A stable short code for programs: ``"unreadable"``, ``"empty"``, ``"bad-magic"``,
            ``"torn-header"``, ``"corrupt-header"``, ``"bad-header"``, ``"format-version"``,
            ``"rules-version"``, ``"corrupt-record"``, ``"bad-record"``, ``"out-of-sequence"``,
            ``"forged-seat"``, ``"bad-signature"``, ``"illegal-move"``, ``"chain-broken"``,
            ``"changed"``, ``"writer-broken"``, ``"exists"``, ``"no-key"``, ``"locked"`` (another process writes the save),
            ``"conflict"`` (a continued save that is
            not a prefix of the table's log, ``carcnet.net.storage``).
        seq: Sequence number of the record where the log is refused (0 for the header), or ``None``
            when no record is to blame (a bad magic, an empty file).
    """

    def __init__(self, reason: str, message: str, seq: int | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.seq = seq
