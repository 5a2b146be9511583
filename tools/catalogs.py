"""The translators' and developers' tool for the catalogs (docs/translating.md), over Babel:

    python tools/catalogs.py extract        # the template, carcnet/locale/carcnet.pot, from the code
    python tools/catalogs.py update         # every language's carcnet.po merged with the template
    python tools/catalogs.py init CODE      # a new language's carcnet.po
    python tools/catalogs.py compile        # every carcnet.po into carcnet.mo (the install does it too)
    python tools/catalogs.py check          # each catalog's statistics; fails unless all are complete

Needs Babel (in the test extra: ``pip install -e '.[test]'``).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "carcnet" / "locale"
TEMPLATE = LOCALE / "carcnet.pot"
#: The gettext keywords carcnet uses (carcnet/i18n.py), with their arguments for Babel.
KEYWORDS = ("_", "N_", "NP_:1c,2", "ngettext:1,2", "pgettext:1c,2", "npgettext:1c,2,3")


def catalogs() -> list[Path]:
    """Every language's catalog source, by code."""
    return sorted(LOCALE.glob("*/LC_MESSAGES/carcnet.po"))


def _babel(*args: str) -> None:
    from babel.messages.frontend import CommandLineInterface

    CommandLineInterface().run(["pybabel", "-q", *args])


def extract() -> None:
    keywords = [arg for keyword in KEYWORDS for arg in ("-k", keyword)]
    _babel("extract", "--no-default-keywords", *keywords, "--add-comments=Translators:", "--sort-by-file",
           "--project=carcnet", "--copyright-holder=the carcnet authors", "--msgid-bugs-address=",
           "--no-wrap", "-o", str(TEMPLATE), str(ROOT / "carcnet"))
    # The extractor writes the paths it was given: keep them relative, the same on every machine.
    text = TEMPLATE.read_text(encoding="utf-8").replace(f"{ROOT}/", "")
    TEMPLATE.write_text(text, encoding="utf-8")


def update() -> None:
    _babel("update", "-D", "carcnet", "-i", str(TEMPLATE), "-d", str(LOCALE), "--no-wrap",
           "--ignore-obsolete")


def init(code: str) -> None:
    _babel("init", "-D", "carcnet", "-i", str(TEMPLATE), "-d", str(LOCALE), "-l", code, "--no-wrap")


def compile_all() -> None:
    _babel("compile", "-D", "carcnet", "-d", str(LOCALE), "--statistics")


def check() -> int:
    """Prints each catalog's statistics; 1 when one is not complete (untranslated or fuzzy)."""
    from babel.messages.pofile import read_po

    failed = 0
    for path in catalogs():
        with path.open("rb") as file:
            catalog = read_po(file)
        messages = [m for m in catalog if m.id]
        done = [m for m in messages if m.string and (all(m.string) if isinstance(m.string, tuple) else True)
                and not m.fuzzy]
        fuzzy = [m for m in messages if m.fuzzy]
        print(f"{path.parent.parent.name}: {len(done)} of {len(messages)} translated, {len(fuzzy)} fuzzy")
        failed |= len(done) != len(messages)
    return int(failed)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("extract", "update", "init", "compile", "check"):
        print(__doc__)
        return 2
    if argv[0] == "extract":
        extract()
    elif argv[0] == "update":
        update()
    elif argv[0] == "init":
        init(argv[1])
    elif argv[0] == "compile":
        compile_all()
    else:
        return check()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
