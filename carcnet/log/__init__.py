"""The move log: one game per ``.carclog`` file, appended with fsync, loaded by replay
(``protocol/log.md``; a reader's guide in ``docs/log-format.md``).

May import the engine, msgpack and platformdirs; never asyncio, textual or zeroconf.

>>> from carcnet.log import LogHeader, Seat, pack, unpack
>>> header = LogHeader.new([Seat("Ann", "red"), Seat("Bob", "blue")], seed=7, created=0, game="0" * 32)
>>> unpack(pack(header)) == header
True

Public API: :class:`GameRecorder` (play and record), :func:`load` (read and replay) with
:class:`LoadedLog` and :class:`Damage`, :class:`LogWriter`, :func:`default_dir`, :func:`new_path`;
the values :class:`LogHeader`, :class:`Seat`, :class:`LogEntry`; the codec :func:`to_wire`,
:func:`from_wire`, :func:`pack`, :func:`unpack`; the framing :func:`encode_record`, :func:`scan`;
the errors :class:`LogError`, :class:`LogFormatError`, :class:`LogVersionError`.
"""

from .codec import MAX_BODY, from_wire, pack, to_wire, unpack
from .entries import COLOURS, FORMAT_VERSION, LogEntry, LogHeader, Seat
from .errors import LogError, LogFormatError, LogVersionError
from .framing import MAGIC, Record, Tail, encode_record, scan
from .recorder import GameRecorder, Recovery
from .store import SUFFIX, Damage, LoadedLog, LogWriter, default_dir, load, new_path

__all__ = [
    "COLOURS",
    "FORMAT_VERSION",
    "MAGIC",
    "MAX_BODY",
    "SUFFIX",
    "Damage",
    "GameRecorder",
    "LoadedLog",
    "LogEntry",
    "LogError",
    "LogFormatError",
    "LogHeader",
    "LogVersionError",
    "LogWriter",
    "Record",
    "Recovery",
    "Seat",
    "Tail",
    "default_dir",
    "encode_record",
    "from_wire",
    "load",
    "new_path",
    "pack",
    "scan",
    "to_wire",
    "unpack",
]
