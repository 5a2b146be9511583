"""Provides :class:`Settings`: what a player sets once and finds again on the next start:
the theme, the name to play under, the new-game seats and rule options, turn confirmation, the
glyphs, the seat palette and the turn bell.

They live in ``settings.json`` in the user configuration folder (``platformdirs.user_config_dir``,
e.g. ``~/.config/carcnet`` on Linux), or in ``$CARCNET_CONFIG_DIR`` when that is set. The file is
written whole to a temporary file and renamed over the old one, so a crash never leaves half a file.
A file that cannot be read (not JSON, a value of the wrong type) is never lost: the values that make
sense are kept, the others take their defaults, :attr:`Settings.problem` says what was wrong, and the
unreadable file is kept beside as ``settings.json.bad`` when the settings are next saved.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from carcnet.engine import Rules
from carcnet.i18n import LANGUAGES, _

__all__ = ["CONFIG_DIR_ENV", "FILE_NAME", "GLYPHS", "LANGUAGE_CHOICES", "PALETTES", "Settings", "SeatDefault", "config_dir"]

#: Environment variable naming the configuration folder (tests, portable installs).
CONFIG_DIR_ENV = "CARCNET_CONFIG_DIR"
#: The settings file's name in the configuration folder.
FILE_NAME = "settings.json"
#: Glyph sets: box drawing and blocks, or plain ASCII for terminals and fonts without them.
GLYPHS = ("unicode", "ascii")
#: Seat palettes: the board game's colours, or shades told apart with any colour vision (Okabe–Ito).
PALETTES = ("standard", "colour-blind")
#: The caps on a search bot's think time the settings offer: ``level``, each level's own
#: (``carcnet.bots.search_bot.Level.cap``: 2 s, the expert 3 s), or seconds (as text, like the file's).
#: The default, each level's own, is chosen for a laptop doing other things: the hard level takes at
#: most about a second a turn there at 9 turns in 10 and the expert about 3 (docs/bots.md); the cap
#: keeps their rare long turns short.
THINK_CAPS = ("level", "1", "2", "5", "10", "30")
#: The languages the settings offer: ``auto`` (the environment's: ``LANGUAGE``, ``LC_ALL``, ``LANG``)
#: or a code of :data:`carcnet.i18n.LANGUAGES`.
LANGUAGE_CHOICES = ("auto", *LANGUAGES)


def config_dir() -> Path:
    """The folder of the settings file: ``$CARCNET_CONFIG_DIR`` or the user configuration folder."""
    env = os.environ.get(CONFIG_DIR_ENV)
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_config_dir("carcnet", appauthor=False))


@dataclass(frozen=True, slots=True)
class SeatDefault:
    """A seat of the new-game form as it opens: *player* is ``human`` or a bot's name."""

    name: str
    colour: str
    player: str = "human"


def _default_seats() -> tuple[SeatDefault, ...]:
    return (SeatDefault("Red", "red", "human"), SeatDefault("Blue", "blue", "greedy"))


@dataclass(frozen=True, slots=True)
class Settings:
    """A player's settings (immutable: :meth:`changed` makes new ones).

    Attributes:
        theme: The Textual theme's name.
        name: The name to play network games under; empty: the login name.
        seats: The new-game form's seats as it opens (2 to 6), the last ones started by default.
        rules: The rule options the new-game forms open with (The River, The Abbot, the scoring
            variants): those of the last game started or hosted.
        confirm: Whether a turn waits for Enter before it is played (off: each choice is played at once).
        glyphs: One of :data:`GLYPHS`.
        palette: One of :data:`PALETTES`.
        bell: Whether the terminal bell rings when a turn at a network table becomes yours.
        think_cap: The most seconds a search bot of this laptop thinks per turn, one of :data:`THINK_CAPS`.
        ponder: Whether the search bots of this laptop think on the others' turns (pondering).
        relay: The invite server (a magic-wormhole mailbox server's ``ws://`` URL) for invite codes;
            empty: the public one (``carcnet.net.invite.DEFAULT_MAILBOX``).
        transit: The relay that carries a game between homes when no direct path is found
            (``tcp:HOST:PORT``); empty: the public one.
        language: One of :data:`LANGUAGE_CHOICES`: the interface's and the command line's language.
        path: The file they were read from and are saved to (``None``: not saved).
        problem: What was wrong with the file when it was read, for the interface to say; else ``None``.
    """

    theme: str = "textual-dark"
    name: str = ""
    seats: tuple[SeatDefault, ...] = field(default_factory=_default_seats)
    rules: Rules = field(default_factory=Rules)
    confirm: bool = True
    glyphs: str = "unicode"
    palette: str = "standard"
    bell: bool = True
    think_cap: str = "level"
    ponder: bool = True
    relay: str = ""
    transit: str = ""
    language: str = "auto"
    path: Path | None = field(default=None, compare=False)
    problem: str | None = field(default=None, compare=False)

    @classmethod
    def load(cls, folder: Path | None = None) -> Settings:
        """The settings saved in *folder* (default :func:`config_dir`); the defaults when there are
        none. Never raises for a bad file: see the module docstring."""
        path = (folder if folder is not None else config_dir()) / FILE_NAME
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls(path=path)
        except OSError as exc:
            return cls(path=path, problem=_("cannot read {path}: {reason}").format(path=path, reason=exc.strerror or exc))
        try:
            data = json.loads(text)
        except ValueError as exc:
            return cls(path=path, problem=_("{path} is not JSON ({reason}); the defaults are used").format(path=path, reason=exc))
        if not isinstance(data, dict):
            return cls(path=path, problem=_("{path} does not hold settings; the defaults are used").format(path=path))
        return cls._from(data, path)

    @classmethod
    def _from(cls, data: dict[str, Any], path: Path) -> Settings:
        values: dict[str, Any] = {}
        wrong: list[str] = []
        defaults = cls()
        for f in fields(cls):
            if f.name in ("path", "problem") or f.name not in data:
                continue
            value = data[f.name]
            checked = _check(f.name, value, type(getattr(defaults, f.name)))
            if checked is None:
                wrong.append(f.name)
            else:
                values[f.name] = checked
        problem = (_("{path}: {settings} not understood; the defaults are used for them").format(
            path=path, settings=", ".join(wrong)) if wrong else None)
        return cls(**values, path=path, problem=problem)

    def changed(self, **values: Any) -> Settings:
        """These settings with *values* changed (not saved: see :meth:`save`).

        Raises:
            ValueError: A value of the wrong type or out of its choices.
        """
        for name, value in values.items():
            if name in ("path", "problem") or _check(name, value, type(getattr(self, name))) is None:
                raise ValueError(f"not a value for the setting {name!r}: {value!r}")
        return replace(self, **values)

    def to_json(self) -> dict[str, Any]:
        """The file's content."""
        data = asdict(self)
        del data["path"], data["problem"]
        data["seats"] = [asdict(s) for s in self.seats]
        return data

    def save(self) -> Settings:
        """Writes the settings to :attr:`path` (atomically; a file that could not be read is kept as
        ``settings.json.bad`` first); returns them without a :attr:`problem`.

        Raises:
            OSError: The folder cannot be made or written.
        """
        path = self.path if self.path is not None else config_dir() / FILE_NAME
        path.parent.mkdir(parents=True, exist_ok=True)
        if self.problem is not None and path.exists():
            os.replace(path, path.with_name(path.name + ".bad"))
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")
        os.replace(tmp, path)
        return replace(self, path=path, problem=None)


def _check(name: str, value: Any, kind: type) -> Any:
    """*value* as the setting *name* holds it, or ``None`` when it is not one."""
    if name == "seats":
        if not isinstance(value, (list, tuple)) or not 2 <= len(value) <= 6:
            return None
        seats = []
        for seat in value:
            if isinstance(seat, SeatDefault):
                seats.append(seat)
                continue
            if not isinstance(seat, dict) or not all(isinstance(seat.get(k), str) for k in ("name", "colour", "player")):
                return None
            seats.append(SeatDefault(seat["name"], seat["colour"], seat["player"]))
        return tuple(seats)
    if name == "rules":
        if isinstance(value, dict):
            names = {f.name for f in fields(Rules)}
            if not set(value) <= names:
                return None
            value = Rules(**value)
        return value if isinstance(value, Rules) and value.problem() is None else None
    if kind is bool:
        return value if isinstance(value, bool) else None
    if not isinstance(value, str):
        return None
    if (name == "glyphs" and value not in GLYPHS or name == "palette" and value not in PALETTES
            or name == "think_cap" and value not in THINK_CAPS or name == "language" and value not in LANGUAGE_CHOICES):
        return None
    if name in ("relay", "transit") and value:
        from carcnet.net.invite import servers

        try:
            servers(**{name: value})
        except ValueError:
            return None
    return value
