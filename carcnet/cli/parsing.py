"""Provides argparse in the player's language: :func:`speak_argparse` routes argparse's own words
("usage: ", "options", "error: …", "the following arguments are required: …") through
:mod:`carcnet.i18n`, and :data:`ARGPARSE_MESSAGES` marks them for the extractor, so that they are in
carcnet's catalog with the rest of the command line's words.

argparse translates its words with the standard library's ``gettext`` in the ``messages`` domain
(``from gettext import gettext as _, ngettext``, bound when argparse is imported); carcnet's words are
in the ``carcnet`` domain (``carcnet/locale``), which that never reads. argparse looks the two names
up in its own module each time it shows a word (the parsers' headings when they are built, the usage
when it is printed, an error when it is raised), so :func:`speak_argparse` points them at
:mod:`carcnet.i18n`'s functions: every argparse word is then looked up in carcnet's catalog, in the
language in use at that moment. This changes the ``argparse`` module for the whole process, which is
what the command line wants: the ``carcnet`` process parses only its own command line, and where
carcnet's catalog has no translation (or the language is English) argparse's words are its own
English, as before. Overriding argparse's methods instead would mean copying its private code
(``_check_value``, ``parse_known_args``, ``ArgumentError.__str__``, the usage formatter) for every
Python version carcnet supports.
"""

from __future__ import annotations

import argparse

from carcnet import i18n
from carcnet.i18n import N_

__all__ = ["ARGPARSE_MESSAGES", "speak_argparse"]

#: argparse's words that carcnet's parsers can show, as argparse spells them (Python 3.11 to 3.14),
#: marked for the extractor only: argparse itself asks for them (see the module's docstring). Its
#: other words are for programmers (a parser built wrong), or for features carcnet does not use
#: (argument files, mutually exclusive groups, deprecated options, a fixed number of values).
ARGPARSE_MESSAGES = (
    # Translators: the start of the command line's usage line ("usage: carcnet [-h] ..."); keep the
    # space at the end.
    N_("usage: "),
    # Translators: the heading of the arguments given without an option name (a command, a file).
    N_("positional arguments"),
    # Translators: the heading of the options (--game, --seed...) in a command's help.
    N_("options"),
    # Translators: a heading of the command line's help followed by its colon (Python 3.13 and later):
    # %(heading)s is the heading ("options", "positional arguments", "rules").
    N_("%(heading)s:"),
    # Translators: the help of -h, --help.
    N_("show this help message and exit"),
    # Translators: a command line error: %(prog)s is the command ("carcnet host"), %(message)s says what
    # is wrong; keep the line break at the end.
    N_("%(prog)s: error: %(message)s\n"),
    # Translators: a command line error about one argument: %(argument_name)s is the option ("--seed")
    # or the argument's name ("COMMAND"), %(message)s says what is wrong with it.
    N_("argument %(argument_name)s: %(message)s"),
    # Translators: %s lists the arguments missing, separated by commas ("--join, file").
    N_("the following arguments are required: %s"),
    # Translators: %s lists what was typed that no option takes, separated by spaces.
    N_("unrecognized arguments: %s"),
    # Translators: %(option)s is what was typed ("--se"), %(matches)s the options it could be the start
    # of ("--seed, --seats").
    N_("ambiguous option: %(option)s could match %(matches)s"),
    # Translators: an option that takes no value was given one ("--json=yes"): %r is the value.
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    # Translators: %(type)s is the kind of value expected, as Python names it ("int": a whole number,
    # "float": a number), %(value)r is what was typed.
    N_("invalid %(type)s value: %(value)r"),
    # Translators: %(value)r is what was typed, %(choices)s the values allowed, separated by commas.
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    # Translators: %(value)r is what was typed, %(closest)r the allowed value nearest to it, %(choices)s
    # the values allowed, separated by commas.
    N_("invalid choice: %(value)r, maybe you meant %(closest)r? (choose from %(choices)s)"),
)


def speak_argparse() -> None:
    """Makes argparse show its words in the language of :mod:`carcnet.i18n` from now on (see the
    module's docstring): called before the parsers are built, since argparse words their headings
    and ``--help``'s help as it builds them."""
    # argparse binds gettext's functions as its module globals `_` and `ngettext` and calls them by
    # those names: pointing them at carcnet.i18n's is the only way to reach every one of its words.
    argparse._ = i18n._  # type: ignore[attr-defined]
    argparse.ngettext = i18n.ngettext  # type: ignore[attr-defined]
