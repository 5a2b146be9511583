"""Provides the players' languages: every player-facing string goes through :func:`_` (or
:func:`ngettext`, :func:`pgettext`, :func:`npgettext`), the standard library's :mod:`gettext` over the
``carcnet`` catalogs in ``carcnet/locale/<code>/LC_MESSAGES/carcnet.mo``.

The catalogs' sources (``.po``) are in the repository; ``setup.py`` compiles them when the package is
installed (an editable install included), so the README's commands set everything up. Babel extracts
the template (``carcnet/locale/carcnet.pot``) and checks the catalogs; it is needed to build, never at
run time. How to add a language: ``docs/translating.md``.

One language a process, switched at once by :func:`set_language` (the settings screen's "Language"):
a string is looked up when it is shown, so a string kept in a module's constant is marked with
:func:`N_` (for the extractor only) and passed through :func:`_` where it is shown.

What stays English, whatever the language: the wire protocol, the log and saves (they hold no
words), the connection log and ``--verbose`` (for the developers), and the engine's errors (the
interface says in its own words why a move is not legal).

The pseudo-locale :data:`PSEUDO` (``LANGUAGE=qps``) accents every letter of every marked string and
makes it 40 % longer, between ``‹`` and ``›``: a plain English word on its screen was never marked,
and a ``‹`` without its ``›`` was cut.

>>> set_language("qps")
'qps'
>>> _("New game")
'‹Ñéŵ ĝáɱé~~›'
>>> _("Cannot start: {problem}").format(problem="a reason")
'‹Çáññóť šťáŕť: a reason~~~~›'
>>> ngettext("{n} tile", "{n} tiles", 2).format(n=2)
'‹2 ťíľéš~›'
>>> set_language("en")
'en'
"""

from __future__ import annotations

import gettext
import math
import re
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from pathlib import Path

__all__ = [
    "DOMAIN", "LANGUAGES", "LOCALE_DIR", "PSEUDO", "NP_", "N_", "_", "date_time", "decimal", "joined", "language",
    "language_from_environment", "listed", "ngettext", "npgettext", "on_language_change", "pgettext",
    "pseudo", "set_language",
]

#: The gettext domain: the catalogs' file name.
DOMAIN = "carcnet"
#: Where the catalogs are: ``<code>/LC_MESSAGES/carcnet.mo`` (compiled) beside ``carcnet.po``.
LOCALE_DIR = Path(__file__).with_name("locale")
#: The languages offered, by code, each named in itself (the settings screen's choices).
LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "es": "Español",
    "fr": "Français",
    "pl": "Polski",
}
#: The pseudo-locale's code (not offered in the settings; ``LANGUAGE=qps`` or the tests).
PSEUDO = "qps"

_translations: gettext.NullTranslations = gettext.NullTranslations()
_code = "en"
_listeners: list[Callable[[str], None]] = []


def N_(message: str) -> str:
    """*message* unchanged: marks a string kept in a constant for the extractor; the code that shows
    it passes it through :func:`_`."""
    return message


def NP_(context: str, message: str) -> str:
    """*message* with a *context* (see :func:`pgettext`) kept in a constant, for the extractor: a
    string that :func:`_` shows as ``pgettext(context, message)`` (gettext's own form of a message
    with a context, the two joined by ``\x04``).

    >>> _(NP_("replay key", "Start"))
    'Start'
    """
    return f"{context}\x04{message}"


def _(message: str) -> str:
    """*message* in the current language (itself when the catalog has no translation); a message
    marked with :func:`NP_` with its context."""
    if "\x04" in message:
        context, __, message = message.partition("\x04")
        return _translations.pgettext(context, message)
    return _translations.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of *singular* / *plural* for the count *n* by the language's own plural rule (German
    two forms, Polish three, French ``0`` singular): the caller formats *n* into it."""
    return _translations.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """*message* in the current language where the same English says different things: *context*
    tells which (``pgettext("figure", "Builder")``)."""
    return _translations.pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` with a context (see :func:`pgettext`)."""
    return _translations.npgettext(context, singular, plural, n)


def language() -> str:
    """The code of the language in use (a key of :data:`LANGUAGES`, or :data:`PSEUDO`)."""
    return _code


def _normalised(name: str) -> str:
    """``de_DE.UTF-8`` → ``de``, ``pt_BR`` → ``pt``, ``qps-ploc`` → ``qps``."""
    name = name.split(".")[0].split("@")[0]
    return re.split(r"[_-]", name)[0].lower()


def language_from_environment(environ: Mapping[str, str]) -> str:
    """The language *environ* asks for, as the standard library's :func:`gettext.find` reads it: the
    first of ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set, a list of languages
    separated by ``:``, the first one carcnet speaks; ``en`` when none (``C`` and ``POSIX`` are
    English).

    >>> language_from_environment({"LANG": "de_DE.UTF-8"})
    'de'
    >>> language_from_environment({"LANGUAGE": "nl:fr_BE", "LANG": "de_DE.UTF-8"})
    'fr'
    >>> language_from_environment({"LC_ALL": "C", "LANG": "pl_PL.UTF-8"})
    'en'
    """
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(variable)
        if not value:
            continue
        for item in value.split(":"):
            code = _normalised(item)
            if code in LANGUAGES or code == PSEUDO:
                return code
        return "en"
    return "en"


def set_language(choice: str, environ: Mapping[str, str] | None = None) -> str:
    """Switches every string shown from now on to the language *choice*: a key of
    :data:`LANGUAGES`, :data:`PSEUDO`, or ``auto`` for the environment's
    (:func:`language_from_environment` of *environ*, default ``os.environ``). A language whose catalog
    is not compiled (a source checkout never installed) shows English. Returns the code in use; the
    callbacks of :func:`on_language_change` are called when it changed.

    Raises:
        ValueError: *choice* is none of these.
    """
    global _translations, _code
    if choice == "auto":
        if environ is None:
            import os

            environ = os.environ
        choice = language_from_environment(environ)
    if choice not in LANGUAGES and choice != PSEUDO:
        raise ValueError(f"not a language carcnet speaks: {choice!r}")
    if choice == PSEUDO:
        translations: gettext.NullTranslations = _PseudoTranslations()
    elif choice == "en":
        translations = gettext.NullTranslations()
    else:
        translations = gettext.translation(DOMAIN, LOCALE_DIR, languages=[choice], fallback=True)
    changed = choice != _code
    _translations, _code = translations, choice
    if changed:
        for listener in list(_listeners):
            listener(choice)
    return choice


def on_language_change(listener: Callable[[str], None]) -> Callable[[], None]:
    """Calls *listener* with the new code whenever :func:`set_language` switches the language;
    returns what stops it."""
    _listeners.append(listener)
    return lambda: _listeners.remove(listener) if listener in _listeners else None


def decimal(value: float, digits: int = 1) -> str:
    """*value* with *digits* decimals and the language's decimal mark: ``2.5`` in English, ``2,5`` in
    German."""
    text = f"{value:.{digits}f}"
    return text.replace(".", pgettext("decimal mark", "."))


def date_time(moment: datetime) -> str:
    """*moment* (local time) as the language writes a date and time: ``2026-12-07 15:20`` in
    English, ``07.12.2026 15:20`` in German (the catalog's own ``strftime`` pattern)."""
    return moment.strftime(pgettext("date and time, strftime", "%Y-%m-%d %H:%M"))


def joined(parts: Iterable[str]) -> str:
    """*parts* separated as the language separates the items of a list: ``a, b, c`` (no "and":
    see :func:`listed`)."""
    return pgettext("list separator", ", ").join(parts)


def listed(parts: list[str]) -> str:
    """*parts* as one list in words: ``a``, ``a and b``, ``a, b and c`` (the language's own
    separators)."""
    if len(parts) <= 1:
        return "".join(parts)
    head = joined(parts[:-1])
    return _("{list} and {last}").format(list=head, last=parts[-1])


# The pseudo-locale: every letter accented, 40 % longer, between ‹ and ›; placeholders ({name},
# %(name)s, %d), markup tags ([b], [/], [@click=...]) and escapes are kept as they are.
_ACCENTED = dict(zip(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçďéƒĝĥíĵķľɱñóþǫŕšťúṽŵẋýžÁßÇĎÉƑĜĤÍĴĶĽṀÑÓÞǪŔŠŤÚṼŴẊÝŽ",
    strict=True,
))
_KEPT = re.compile(r"\{[^{}]*\}|%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[a-zA-Z%]|\[/?[a-z@#$][^\[\]]*\]|\[/\]|\\.")


def pseudo(message: str) -> str:
    """*message* in the pseudo-locale (see the module's docstring): ``‹Ñéŵ ĝáɱé~~~›``. A message
    without a letter (a separator, a pattern) is kept as it is."""
    if not re.search(r"[A-Za-z]", _KEPT.sub("", message)):
        return message
    out, shown, at = [], 0, 0
    for match in _KEPT.finditer(message):
        text = message[at:match.start()]
        out.append("".join(_ACCENTED.get(c, c) for c in text))
        shown += len(text)
        out.append(match.group())
        at = match.end()
    tail = message[at:]
    out.append("".join(_ACCENTED.get(c, c) for c in tail))
    shown += len(tail)
    return "‹" + "".join(out) + "~" * max(1, math.ceil(shown * 0.4) - 2) + "›"


class _PseudoTranslations(gettext.NullTranslations):
    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)
