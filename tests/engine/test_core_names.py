"""The core names no expansion: a ratchet (``docs/expansion-hook-plan.md`` §9, step 0; strict since step 8).

Counted in the engine's core (:data:`CORE`: ``state.py``, and what moved out of it: ``game.py``, ``setup.py``,
``phase.py``, ``expansion.py``; not ``rules.py``, whose options are the expansions' switches): the
expansion words of :data:`WORDS` in the code's names and
strings. Precisely:

* **Tokens** are read from the syntax tree (``ast``), not the raw text: names (``Name``), attributes
  (``x.attr``), parameters, keyword arguments (``f(inns=...)``), function and class names, imported
  names and their aliases, and string constants (f-string parts included). Comments and documentation
  are not counted: docstrings and every other string standing alone as a statement (the attribute
  docstrings of ``Phase``).
* Each token is **split into words**: on anything not a letter or a digit (``_``, spaces,
  punctuation) and at case changes (``ReturnAbbot`` → ``return abbot``, ``RIVER_SPRING`` → ``river
  spring``), lower-cased.
* A word of :data:`WORDS` is **matched as a whole word** (``winners`` is not ``inn``, ``_city_farmers``
  is not ``farms``, ``largest`` is not ``large``); the small-city rule is the two-word sequence
  ``small city`` (``small_city``, ``"small-city"``). Singular and plural are listed separately.
* Every match is one occurrence (a token may hold several).

:data:`ALLOWED` was the count of each word at the start of the migration, lowered as each expansion
moved out; it is 0 for every word now: the test fails on any (naming every occurrence, where the new
ones are). The test warns when a count goes below :data:`ALLOWED` (nothing can, now).
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import carcnet.engine

STATE = Path(carcnet.engine.__file__).with_name("state.py")
#: The core's modules: what may name no expansion once the migration is done.
CORE = tuple(STATE.with_name(name) for name in ("state.py", "game.py", "setup.py", "phase.py", "expansion.py"))

#: The expansions' words: The River, The Abbot (and its gardens), Inns & Cathedrals (and the large
#: meeple), Traders & Builders (pigs, goods and their kinds), Hills & Sheep (hills, vineyards, the
#: shepherd and its flock), the editions' variants (small cities, the ``farms`` option).
WORDS = (
    "river", "rivers", "abbot", "abbots", "garden", "gardens", "inn", "inns", "cathedral", "cathedrals",
    "large", "trader", "traders", "builder", "builders", "pig", "pigs", "goods", "wine", "grain", "cloth",
    "hill", "hills", "vineyard", "vineyards", "sheep", "shepherd", "shepherds", "flock",
    "dragon", "dragons", "volcano", "volcanoes", "princess", "fairy", "portal", "portals",
    "small city", "farms",
)

#: The allowlist: each word's count in the core as the migration goes. May only go down.
ALLOWED = {word: 0 for word in WORDS}  # none (388 in state.py alone before the hook)


class Occurrence(NamedTuple):
    module: str
    word: str
    line: int
    column: int
    scope: str
    token: str

    def __str__(self) -> str:
        return f"{self.module}:{self.line}:{self.column} in {self.scope}: {self.word!r} in {self.token!r}"


_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def split(token: str) -> list[str]:
    """A token's words, lower-cased: ``_abbot_nodes`` → ``["abbot", "nodes"]``, ``ReturnAbbot`` →
    ``["return", "abbot"]``, ``"small-city"`` → ``["small", "city"]``."""
    return [w.lower() for w in _WORD.findall(token)]


def _documentation(tree: ast.AST) -> set[int]:
    """The ids of the string constants that stand alone as statements (docstrings and the like)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            out.add(id(node.value))
    return out


def _tokens(tree: ast.Module) -> Iterator[tuple[str, ast.AST, str]]:
    """Every ``(token, node, scope)`` of the code, in source order of a walk with scopes."""
    docs = _documentation(tree)

    def visit(node: ast.AST, scope: str) -> Iterator[tuple[str, ast.AST, str]]:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            scope = node.name if scope == "<module>" else f"{scope}.{node.name}"
            yield node.name, node, scope
        elif isinstance(node, ast.Name):
            yield node.id, node, scope
        elif isinstance(node, ast.Attribute):
            yield node.attr, node, scope
        elif isinstance(node, ast.arg):
            yield node.arg, node, scope
        elif isinstance(node, ast.keyword) and node.arg is not None:
            yield node.arg, node, scope
        elif isinstance(node, ast.alias):
            yield node.name, node, scope
            if node.asname:
                yield node.asname, node, scope
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            yield node.value, node, scope
        for child in ast.iter_child_nodes(node):
            yield from visit(child, scope)

    yield from visit(tree, "<module>")


def occurrences(source: str, module: str = "state.py") -> dict[str, list[Occurrence]]:
    """Each word of :data:`WORDS` → where it occurs in *source*'s code (the text of *module*)."""
    tree = ast.parse(source)
    wanted = {word: word.split() for word in WORDS}
    out: dict[str, list[Occurrence]] = {word: [] for word in WORDS}
    for token, node, scope in _tokens(tree):
        words = split(token)
        for word, seq in wanted.items():
            n = len(seq)
            for i in range(len(words) - n + 1):
                if words[i : i + n] == seq:
                    out[word].append(Occurrence(module, word, getattr(node, "lineno", 0), getattr(node, "col_offset", 0),
                                                scope, token if len(token) <= 60 else token[:57] + "..."))
    return out


def core_occurrences() -> dict[str, list[Occurrence]]:
    """Each word of :data:`WORDS` → where it occurs in the code of the :data:`CORE` modules."""
    out: dict[str, list[Occurrence]] = {word: [] for word in WORDS}
    for path in CORE:
        for word, found in occurrences(path.read_text(encoding="utf-8"), path.name).items():
            out[word] += found
    return out


def compare(found: dict[str, list[Occurrence]], allowed: dict[str, int]) -> tuple[str | None, str | None]:
    """(why the ratchet fails: words above their allowance, with every occurrence of each; or
    ``None``), (the words below their allowance, to lower it; or ``None``)."""
    up, down = [], []
    for word in WORDS:
        now, was = len(found[word]), allowed.get(word, 0)
        if now > was:
            up.append(f"{word!r}: {now} occurrences, {was} allowed ({now - was} new); all of them:")
            up += [f"    {o}" for o in found[word]]
        elif now < was:
            down.append(f"{word!r}: {now} (allowed {was})")
    total = sum(map(len, found.values()))
    return (
        ("the core names expansions more than allowed (the ratchet only goes down):\n" + "\n".join(up)) if up else None,
        (f"the core names expansions less ({total} now, {sum(allowed.values())} allowed): lower ALLOWED in "
         f"tests/engine/test_core_names.py: " + ", ".join(down)) if down else None,
    )


def test_the_core_names_no_more_expansions_than_allowed() -> None:
    up, down = compare(core_occurrences(), ALLOWED)
    assert up is None, up
    if down is not None:
        warnings.warn(down, stacklevel=1)


def test_words_are_whole() -> None:
    """Words are matched whole, across the ways names are written."""
    source = ("import x as rivers\n"
              "def _take_pig(winners, largest, _city_farmers, smallCity):\n"
              "    '''The abbot's docstring: not counted.'''\n"
              "    'a bare string about inns: not counted'\n"
              "    return ReturnAbbot(f'small-city {MARK_INN}', river=Figure.LARGE) # a comment about wine\n")
    found = {w: [o.token for o in found] for w, found in occurrences(source).items() if found}
    assert found == {"rivers": ["rivers"], "pig": ["_take_pig"], "abbot": ["ReturnAbbot"],
                     "inn": ["MARK_INN"], "large": ["LARGE"], "river": ["river"],
                     "small city": ["smallCity", "small-city "]}


def test_the_ratchet_fails_when_a_name_is_added() -> None:
    """One more expansion name in state.py fails, naming the word and where; one fewer warns."""
    source = STATE.read_text(encoding="utf-8")
    allowed = {w: len(o) for w, o in occurrences(source).items()}
    added = source + "\n\ndef _pig_count(game):\n    return game.pigs\n"
    up, down = compare(occurrences(added), allowed)
    assert down is None and up is not None
    assert "'pig': " in up and "'pigs': " in up and "in _pig_count: 'pig' in '_pig_count'" in up
    up, down = compare(occurrences(source), {**allowed, "wine": allowed["wine"] + 1})
    assert up is None and down is not None and "'wine'" in down


def test_every_expansions_words_are_counted() -> None:
    """What an expansion declares the core must never name (``Expansion.words``) is among the words
    the ratchet counts, so that none of them can come back into the core unseen."""
    from carcnet.engine.expansions import REGISTRY

    for cls in REGISTRY:
        assert cls.words and set(cls.words) <= set(WORDS), (cls.__name__, set(cls.words) - set(WORDS))
