"""The identity override file: a user's author merges, keep-aparts and splits, in TOML,
read by the next build. Beside the graph by default (``graph.kg`` -> ``graph.identity.toml``)::

    # people the evidence did not join
    merge = [["author:accourville", "author:aaroncourville"]]
    # people it should not have joined, or two groups of one name to keep apart
    apart = [["author:jsmith@paper1", "author:jsmith@paper9"]]
    split = ["author:jsmith"]       # split this name into its groups, common or not
    together = ["author:yangliu"]   # never split this name

Keys are ``author:<folded name>``, ``author:<folded name>@<paper id>`` (the group of that
name holding the paper ``paper:<paper id>``) or ``author:<id>`` (``author:orcid:...``).
"""

import os
import re
import tomllib
from os import PathLike
from typing import Any

from kg.errors import InputError
from kg.graph.identity import Overrides

_PAIRS = ("merge", "apart")
_NAMES = ("split", "together")


def identity_file(graph: str | PathLike[str]) -> str:
    """The override file beside a graph file: ``graph.kg`` -> ``graph.identity.toml``.

    >>> identity_file("out/graph.kg")
    'out/graph.identity.toml'
    """
    return os.path.splitext(os.fspath(graph))[0] + ".identity.toml"


def _line_of(lines: list[str], needle: str) -> int:
    return next((n for n, text in enumerate(lines, 1) if needle in text), 0)


def parse_overrides(text: str, *, source: str = "identity overrides") -> Overrides:
    """Overrides from the file's text; InputError (one line, naming the line) when bad.

    >>> parse_overrides('split = ["author:jsmith"]').split
    ('author:jsmith',)
    >>> parse_overrides('merge = ["author:a"]')
    Traceback (most recent call last):
    kg.errors.InputError: identity overrides line 1: merge holds lists of two or more author keys
    """
    lines = text.splitlines()
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        at = re.search(r" \(at line (\d+), column \d+\)$", message)
        line = int(at.group(1)) if at else len(lines)
        message = message[: at.start()] if at else message.removesuffix(" (at end of document)")
        raise InputError(f"{source} line {line}: {message} (not valid TOML)") from None

    def fail(needle: str, problem: str) -> InputError:
        return InputError(f"{source} line {_line_of(lines, needle)}: {problem}")

    for name in data:
        if name not in _PAIRS + _NAMES:
            raise fail(name, f"unknown entry {name!r}; expected {', '.join(_PAIRS + _NAMES)}")
    where: dict[str, int] = {}

    def keys(values: Any, name: str) -> tuple[str, ...]:
        for value in values:
            if not isinstance(value, str) or not value.startswith("author:"):
                raise fail(
                    name if not isinstance(value, str) else f'"{value}"',
                    f"{name}: {value!r} is not an author key (author:...)",
                )
            where.setdefault(value, _line_of(lines, f'"{value}"'))
        return tuple(values)

    pairs = {}
    for name in _PAIRS:
        values = data.get(name, [])
        if not isinstance(values, list) or not all(
            isinstance(v, list) and len(v) >= 2 for v in values
        ):
            raise fail(name, f"{name} holds lists of two or more author keys")
        pairs[name] = tuple(keys(v, name) for v in values)
    singles = {}
    for name in _NAMES:
        values = data.get(name, [])
        if not isinstance(values, list):
            raise fail(name, f"{name} holds a list of author keys")
        singles[name] = keys(values, name)
    return Overrides(
        merge=pairs["merge"],
        apart=pairs["apart"],
        split=singles["split"],
        together=singles["together"],
        lines=where,
        source=source,
    )


def read_overrides(path: str | PathLike[str]) -> Overrides:
    """Overrides from a file; an absent file is no overrides."""
    if not os.path.exists(path):
        return Overrides()
    with open(path, encoding="utf-8") as f:
        return parse_overrides(f.read(), source=os.fspath(path))
