"""The command line in the pseudo-locale (carcnet.i18n): every command's ``--help`` and the usage
errors argparse prints show no plain English word; what stays plain is what a player types (command
and option names, choices, metavars in capitals) and the program's name. And the language a player
chose in the settings is the command line's too.
"""

from __future__ import annotations

import argparse
import re

import pytest

from carcnet.bots import BOTS
from carcnet.cli import build_parser, main
from carcnet.i18n import LANGUAGES, PSEUDO, language, set_language
from carcnet.tui.settings import Settings

PLAIN = re.compile(r"(?<![^\W\d_])[A-Za-z]{3,}(?![^\W\d_])")


def _typed_words(parser: argparse.ArgumentParser) -> set[str]:
    """Every word a player types to *parser* and its subcommands: names, options, choices, metavars."""
    words = {"carcnet", "tcp", "HOST", "PORT", "http", "localhost", "json", "internet", *BOTS}  # pip's extra, bots' names
    parsers = [parser]
    while parsers:
        current = parsers.pop()
        for action in current._actions:
            for option in action.option_strings:
                words.update(re.findall(r"[A-Za-z]+", option))
            for value in (action.dest, action.metavar):
                if isinstance(value, str):
                    words.update(re.findall(r"[A-Za-z]+", value))
            if action.choices is not None and not isinstance(action.choices, dict):
                for choice in action.choices:
                    words.update(re.findall(r"[A-Za-z]+", str(choice)))
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    words.update(re.findall(r"[A-Za-z]+", name))
                    parsers.append(sub)
    return words


def _commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = [path]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.extend(_commands(sub, (*path, name)))
    return found


@pytest.fixture
def pseudo(monkeypatch):
    monkeypatch.setenv("LANGUAGE", PSEUDO)
    yield
    set_language("en")


def _plain(text: str, typed: set[str]) -> list[str]:
    """The plain words of *text* that are not typed (metavars are typed words in capitals)."""
    typed = {word.lower() for word in typed}
    return [word for word in PLAIN.findall(text) if word.lower() not in typed]


def test_every_commands_help_is_worded_in_the_players_language(pseudo, capsys):
    set_language(PSEUDO)
    parser = build_parser()
    typed = _typed_words(parser)
    commands = _commands(parser)
    assert len(commands) > 15
    for command in commands:
        with pytest.raises(SystemExit):
            main([*command, "--help"])
        out = capsys.readouterr().out
        assert "‹" in out and _plain(out, typed) == [], (command, _plain(out, typed))


@pytest.mark.parametrize("argv", [["no-such-command"], ["host", "--seats"], ["replay"], ["demo", "--seed", "x"]])
def test_argparse_s_own_errors_are_worded_too(pseudo, capsys, argv):
    set_language(PSEUDO)
    typed = _typed_words(build_parser()) | set(re.findall(r"[A-Za-z]+", " ".join(argv))) | {"int"}  # Python's type
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "‹" in err and _plain(err, typed) == [], _plain(err, typed)


def test_the_settings_language_is_the_command_line_s(pseudo, capsys):
    """A player who chose a language in the settings gets the command line in it, whatever the
    environment says (here the pseudo-locale); ``auto`` follows the environment."""
    chosen = next(code for code in LANGUAGES if code != "en")
    Settings.load().changed(language=chosen).save()
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "‹" not in capsys.readouterr().out and language() == chosen
    Settings.load().changed(language="auto").save()
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "‹" in capsys.readouterr().out and language() == PSEUDO
