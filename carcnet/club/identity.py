"""This laptop's identity key for events and ratings: one Ed25519 key kept in the user data folder.

A tournament names a person by an identity key (protocol/tournament.md §1) and a bot by the key of
the laptop that runs it; a rating follows a key from game to game. So the key must outlive a game:
:func:`load_identity` keeps its 32-byte private seed, in hex, in ``identity.key`` in the data folder
(readable by its owner only), made the first time it is needed.
"""

from __future__ import annotations

import os
from pathlib import Path

from carcnet.i18n import _
from carcnet.net.signing import SeatKey

__all__ = ["IDENTITY_FILE", "load_identity"]

#: The identity's file in the data folder.
IDENTITY_FILE = "identity.key"


def load_identity(data_dir: Path) -> SeatKey:
    """The identity key kept in *data_dir* (:data:`IDENTITY_FILE`), made there (mode 0600) if missing.

    Raises:
        ValueError: The file is there but is not 64 hex digits (it is never overwritten).
        OSError: The folder cannot be made or the file written.
    """
    path = Path(data_dir) / IDENTITY_FILE
    if path.exists():
        text = path.read_text().strip()
        try:
            seed = bytes.fromhex(text)
        except ValueError:
            seed = b""
        if len(seed) != 32:
            # Translators: {path} is a file.
            raise ValueError(_("{path}: not an identity key (64 hex digits); move it aside to make a new one").format(path=path))
        return SeatKey.from_seed(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    seed = os.urandom(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(seed.hex() + "\n")
    return SeatKey.from_seed(seed)
