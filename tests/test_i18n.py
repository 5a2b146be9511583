"""The languages' machinery (carcnet.i18n): the language from the environment as gettext reads it,
switching at once, the pseudo-locale keeping what must stay, and the catalogs: the template up to
date with the code, every offered language complete, no fuzzy entry, every translation keeping its
placeholders and markup (a lost ``{name}`` would fail at the moment a player meets the string).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from carcnet import i18n
from carcnet.i18n import LANGUAGES, PSEUDO, language_from_environment, pseudo, set_language

babel = pytest.importorskip("babel")
from babel.messages.extract import extract_from_dir  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import catalogs  # noqa: E402

PLACEHOLDER = re.compile(r"\{[^{}]*\}|%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[a-zA-Z%]")
TAG = re.compile(r"\[/?[a-z@#$][^\[\]]*\]|\[/\]")


@pytest.mark.parametrize(("environ", "code"), [
    ({}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "de"),
    ({"LANG": "fr_CA"}, "fr"),
    ({"LC_ALL": "es_ES.UTF-8", "LANG": "de_DE.UTF-8"}, "es"),
    ({"LANGUAGE": "pl", "LC_ALL": "de_DE.UTF-8"}, "pl"),
    ({"LANGUAGE": "nl:de", "LANG": "fr_FR.UTF-8"}, "de"),
    ({"LANGUAGE": "nl", "LANG": "fr_FR.UTF-8"}, "en"),  # the first variable set decides, as gettext
    ({"LC_ALL": "C", "LANG": "de_DE.UTF-8"}, "en"),
    ({"LC_ALL": "POSIX"}, "en"),
    ({"LANGUAGE": "", "LC_MESSAGES": "pl_PL.UTF-8"}, "pl"),
])
def test_the_language_comes_from_the_environment_as_gettext_reads_it(environ, code):
    assert language_from_environment(environ) == code


def test_a_switch_is_at_once_and_told_to_listeners():
    heard: list[str] = []
    stop = i18n.on_language_change(heard.append)
    try:
        assert set_language(PSEUDO) == PSEUDO
        assert i18n._("Settings") != "Settings"
        assert set_language("auto", {"LANG": "C"}) == "en"
        assert i18n._("Settings") == "Settings"
        set_language("en")  # no change: not told
    finally:
        stop()
    assert heard == [PSEUDO, "en"]
    with pytest.raises(ValueError, match="not a language"):
        set_language("tlh")


@given(st.lists(st.sampled_from(["New ", "game", "{name}", "{n:>3}", "%(x)s", "%d", "[b]", "[/b]", "[/]",
                                 "[@click=app.help]", "'s", ", ", "\n"]), min_size=1))
def test_the_pseudo_locale_keeps_placeholders_and_markup_and_is_longer(parts):
    message = "".join(parts)
    out = pseudo(message)
    assert PLACEHOLDER.findall(out) == PLACEHOLDER.findall(message)
    assert TAG.findall(out) == TAG.findall(message)
    if re.search(r"[A-Za-z]", PLACEHOLDER.sub("", TAG.sub("", message))):
        def shown(text: str) -> int:
            return len(PLACEHOLDER.sub("", TAG.sub("", text)))

        assert out.startswith("‹") and out.endswith("›") and shown(out) >= 1.4 * shown(message)
        assert not re.search(r"[A-Za-z]", PLACEHOLDER.sub("", TAG.sub("", out)))
    else:
        assert out == message


def _catalog(path: Path):
    with path.open("rb") as file:
        return read_po(file)


def test_the_template_holds_every_marked_string_of_the_code():
    """``tools/catalogs.py extract`` was run after the last string changed (what translators get)."""
    keywords = {"_": None, "N_": None, "NP_": ((1, "c"), 2), "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
                "npgettext": ((1, "c"), 2, 3)}
    in_code = set()
    for _name, _line, message, _comments, context in extract_from_dir(
            str(ROOT / "carcnet"), keywords=keywords, comment_tags=("Translators:",)):
        in_code.add((context, message if isinstance(message, str) else message[0]))
    in_template = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in _catalog(catalogs.TEMPLATE)
                   if m.id}
    assert in_code - in_template == set(), "run tools/catalogs.py extract"
    assert in_template - in_code == set(), "run tools/catalogs.py extract"


@pytest.mark.parametrize("path", catalogs.catalogs(), ids=lambda p: p.parent.parent.name)
def test_each_catalog_keeps_every_placeholder_and_tag_of_its_english(path):
    for message in _catalog(path):
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set(PLACEHOLDER.findall(ids[-1])) | set(PLACEHOLDER.findall(ids[0]))
        for string in strings:
            if not string:
                continue
            # a plural's singular may say "one" instead of "{n}"; every other placeholder stays
            assert set(PLACEHOLDER.findall(string)) <= wanted, (message.id, string)
            missing = set(PLACEHOLDER.findall(ids[0])) - set(PLACEHOLDER.findall(string))
            assert missing <= {"{n}", "{count}"}, (message.id, string, missing)
            assert sorted(TAG.findall(string)) == sorted(TAG.findall(ids[0])), (message.id, string)


@pytest.mark.parametrize("code", [code for code in LANGUAGES if code != "en"])
def test_every_offered_language_is_complete_and_up_to_date(code):
    """A language is offered (carcnet.i18n.LANGUAGES) only when its catalog translates every
    message of the template, none fuzzy; its compiled catalog is the install's."""
    path = catalogs.LOCALE / code / "LC_MESSAGES" / "carcnet.po"
    catalog = _catalog(path)
    template = {(m.context, m.id) for m in _catalog(catalogs.TEMPLATE) if m.id}
    translated = {(m.context, m.id) for m in catalog
                  if m.id and not m.fuzzy and (all(m.string) if isinstance(m.string, tuple) else m.string)}
    assert template - translated == set()
    assert path.with_suffix(".mo").exists(), "compiled on install (setup.py)"


#: Plural messages whose English reads the same at 1 as at 2 (a count the sentence does not inflect
#: around), or keeps the plural for now (the unconfirmed and set-aside moves): every other plural
#: message has an English singular of its own ("1 tile left", not "1 tiles left").
SAME_IN_ENGLISH = {
    ("turns", "{count} marked"), (None, "{speed} ({count} job(s))"),
    (None, "The table has not confirmed the last {count} moves of this game within {seconds} s: they may be set "
           "aside when this laptop meets the others again"),
    (None, "not counted: {n} of the laptops that held its seats never answered this laptop during the event"),
    (None, "{where}: {seats} seats, the draw has {drawn}"), (None, "the laptop of {name} and {n} more"),
    (None, "Set aside: {count} moves from move {seq} on, your move {moves} among them."),
    (None, "Set aside: {count} moves from move {seq} on, your moves {moves} among them."),
    (None, "Set aside: {count} moves from move {seq} on, none of them yours."),
    (None, "While this laptop was apart from the others, {voters} played on without it (move {seq}: {instead})."),
    (None, "a table has 2 to 6 seats; --seats gave {count}"),
    *((None, f"{{n}} with {what}") for what in ("a city", "a road", "a cloister", "a garden", "a river", "a pennant",
                                               "an inn", "a cathedral", "a hill", "a vineyard", "a volcano",
                                               "the dragon", "a princess", "a magic portal")),
    # Hills & Sheep: "sheep" is its own plural
    (None, "{count} sheep"), (None, "+{points}: a flock of {count} sheep"),
    (None, "{player}'s shepherd finds {count} sheep"), (None, "shepherd: {shepherd} sheep"),
    (None, "shepherds: {shepherds} sheep (a flock of {count})"),
    (None, "{player}: your tile extends your shepherd's field ({count} sheep): g grow the flock, s score it"),
    (None, "Dead spots: {n}"), (None, "{n} game(s) found, {usable} to join. Enter chooses."),
    (None, "{n} game(s) found, {usable} to watch. Enter chooses."), (None, "Checking {n} by a handshake…"),
    *((None, f"{whose} {{count}} moves are not confirmed by {by} yet") for whose in ("your last", "the last")
      for by in ("{names}", "the table")),
    (None, "The hard bot looked at {turns}: {count} where its own turn is worth at least {points} points more (mean "
           "± spread over sampled futures; an estimate, not a verdict). Enter: the position before it."),
    (None, "Reviewing: {done} of {total} turns."), (None, "{done} of {total} turns"),
    (None, "{n} game(s) in {folder}. Enter opens one, e archives it, d deletes it."), (None, "Checking {n} more…"),
    (None, "The save and the {n} file(s) beside it is deleted for good: the game cannot be resumed or replayed."),
    (None, "{save}: {n} file(s) deleted."), (None, "{count} to place around"),
    ("goods", "{count} wine"), ("goods", "{count} grain"), ("goods", "{count} cloth"),
    ("feature", "cloister, {count} of 8 neighbours"), ("feature", "garden, {count} of 8 neighbours"),
}


def test_a_plural_message_has_an_english_singular_unless_known_to_read_the_same():
    """A message marked with a plural whose English singular is its plural ("1 tiles left") is a slip,
    unless listed in :data:`SAME_IN_ENGLISH`."""
    same = {(m.context, m.id[0]) for m in _catalog(catalogs.TEMPLATE) if isinstance(m.id, tuple) and m.id[0] == m.id[1]}
    assert same - SAME_IN_ENGLISH == set(), "a plural message without its English singular"
    assert SAME_IN_ENGLISH - same == set(), "listed as the same in English, but it has a singular now (or is gone)"
