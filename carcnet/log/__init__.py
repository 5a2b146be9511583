"""The move log: one game per ``.carclog`` file, appended with fsync, loaded by replay
(``protocol/log.md``; a reader's guide in ``docs/log-format.md``).

May import the engine, msgpack, platformdirs and cryptography (to verify the signatures of a LAN
game's entries); never asyncio, textual, zeroconf or :mod:`carcnet.net`.

>>> from carcnet.log import LogHeader, Seat, pack, unpack
>>> header = LogHeader.new([Seat("Ann", "red"), Seat("Bob", "blue")], seed=7, created=0, game="0" * 32)
>>> unpack(pack(header)) == header
True

Public API: :class:`GameRecorder` (play and record), :func:`load` (read and replay) with
:class:`LoadedLog` and :class:`Damage`, :func:`apply_entry` (check and apply one entry),
:class:`LogWriter`, :func:`default_dir`, :func:`new_path`; the values :class:`LogHeader`,
:class:`Seat`, :class:`LogEntry`; the codec :func:`to_wire`, :func:`from_wire`, :func:`pack`,
:func:`unpack`; the framing :func:`encode_record`, :func:`scan`; signatures and the seed
(:mod:`.signatures`, :mod:`.seeding`): :class:`Signer`, :func:`entry_bytes`, :func:`verify_entry`,
:func:`commitment`, :func:`derive_seed`; the errors :class:`LogError`, :class:`LogFormatError`,
:class:`LogKeysError`, :class:`LogVersionError`.
"""

from .codec import MAX_BODY, from_wire, pack, to_wire, unpack
from .entries import (
    COLOURS,
    DEFAULT_FORMAT,
    FORMAT_VERSION,
    READ_FORMATS,
    TABLE_FORMAT,
    LogEntry,
    LogHeader,
    Seat,
)
from .errors import LogError, LogFormatError, LogKeysError, LogVersionError
from .recorder import GameRecorder, Recovery
from .records import MAGIC, MARK, Record, Tail, encode_record, scan
from .seeding import commitment, derive_seed
from .signatures import Signer, entry_bytes, verify_entry
from .store import (
    SUFFIX,
    Damage,
    LoadedLog,
    LogSummary,
    LogWriter,
    apply_entry,
    default_dir,
    load,
    new_path,
    summarize,
)

__all__ = [
    "COLOURS",
    "DEFAULT_FORMAT",
    "FORMAT_VERSION",
    "MAGIC",
    "MARK",
    "MAX_BODY",
    "READ_FORMATS",
    "SUFFIX",
    "TABLE_FORMAT",
    "Damage",
    "GameRecorder",
    "LoadedLog",
    "LogEntry",
    "LogError",
    "LogFormatError",
    "LogHeader",
    "LogKeysError",
    "LogSummary",
    "LogVersionError",
    "LogWriter",
    "Record",
    "Recovery",
    "Seat",
    "Signer",
    "Tail",
    "apply_entry",
    "commitment",
    "default_dir",
    "derive_seed",
    "encode_record",
    "entry_bytes",
    "from_wire",
    "load",
    "new_path",
    "pack",
    "scan",
    "summarize",
    "to_wire",
    "unpack",
    "verify_entry",
]
