"""BibTeX listings: entries with an ``abstract`` field."""

import re
from collections.abc import Iterator
from typing import Any

from kg.extractors.read.files import ReadError, clean
from kg.extractors.read.mappings import record_from_mapping
from kg.extractors.records import PaperRecord, Problem

_ENTRY_START = re.compile(r"@(\w+)\s*[{(]")
#: Where the next entry may start when one is never closed: an "@" opening a line.
_LINE_ENTRY = re.compile(r"^[ \t]*@\w+\s*[{(]", re.MULTILINE)
_FIELD = re.compile(r"\s*([\w:.\-]+)\s*=\s*")
_BARE = re.compile(r"[^\s,#}{\")]+")
#: The month macros BibTeX predefines.
_MONTHS = {m: m.capitalize() for m in "jan feb mar apr may jun jul aug sep oct nov dec".split()}


def parse_bibtex(
    text: str, unclosed: list[int] | None = None
) -> Iterator[tuple[int, str, str, dict[str, Any]]]:
    """Yield (line, entry type, citation key, fields) for each entry; ``@comment`` and
    ``@preamble`` are skipped, ``@string`` macros are expanded and ``#`` joins values. An
    entry that is never closed raises ReadError(line), or, given the list ``unclosed``,
    has its line added there and the parse goes on at the next line opening an entry.

    >>> list(parse_bibtex('@string{nips = "NeurIPS"} @article{k1, title={A {B}}, year=2020,'
    ...                   ' venue = nips # " 2020"}'))
    [(1, 'article', 'k1', {'title': 'A B', 'year': '2020', 'venue': 'NeurIPS 2020'})]
    """
    macros = dict(_MONTHS)
    pos = 0
    while True:
        m = _ENTRY_START.search(text, pos)
        if not m:
            return
        line = text.count("\n", 0, m.start()) + 1
        kind = m.group(1).lower()
        end = _matching_close(text, m.end() - 1)
        if end is not None and kind != "comment" and _LINE_ENTRY.search(text, m.end(), end):
            end = None  # it closes only inside a later entry
        if end is None:
            if unclosed is None:
                raise ReadError(line, f"@{kind} entry is never closed; fix its braces")
            unclosed.append(line)
            later = _LINE_ENTRY.search(text, m.end())
            if not later:
                return
            pos = later.start()
            continue
        pos = end + 1
        if kind in ("comment", "preamble"):
            continue
        body = text[m.end() : end]
        if kind == "string":
            macros.update(_bibtex_fields(body, macros))
            continue
        key, _, rest = body.partition(",")
        yield line, kind, key.strip(), _bibtex_fields(rest, macros)


def _matching_close(text, open_at):
    opener = text[open_at]
    closer = "}" if opener == "{" else ")"
    depth = 0
    for i in range(open_at, len(text)):
        c = text[i]
        if c == opener:
            depth += 1
        elif c == closer:
            depth -= 1
            if depth == 0:
                return i
    return None


def _closing_quote(body, start):
    """The index of the quote closing the value opened at ``start``: not one inside braces
    nor one escaped as ``\\"``; None when there is none."""
    depth, i = 0, start + 1
    while i < len(body):
        c = body[i]
        if c == "\\":
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == '"' and depth <= 0:
            return i
        i += 1
    return None


def _bibtex_value(body, pos, macros):
    """(value, position after it): braced, quoted, numbers and macros, joined by ``#``."""
    parts = []
    while True:
        while pos < len(body) and body[pos].isspace():
            pos += 1
        if pos < len(body) and body[pos] == "{":
            end = _matching_close(body, pos)
            end = len(body) if end is None else end
            parts.append(body[pos + 1 : end])
            pos = end + 1
        elif pos < len(body) and body[pos] == '"':
            end = _closing_quote(body, pos)
            end = len(body) if end is None else end
            parts.append(body[pos + 1 : end])
            pos = end + 1
        else:
            m = _BARE.match(body, pos)
            word = m.group(0) if m else ""
            parts.append(macros.get(word.lower(), word))
            pos += len(word)
        while pos < len(body) and body[pos].isspace():
            pos += 1
        if pos >= len(body) or body[pos] != "#":
            return "".join(parts), pos
        pos += 1


def _bibtex_fields(body, macros):
    fields: dict[str, Any] = {}
    pos = 0
    while True:
        m = _FIELD.match(body, pos)
        if not m:
            return fields
        value, pos = _bibtex_value(body, m.end(), macros)
        fields[m.group(1).lower()] = clean(value.replace("{", "").replace("}", ""))
        comma = body.find(",", pos)
        if comma < 0:
            return fields
        pos = comma + 1


def _bibtex_person(name):
    if "," in name:
        last, _, first = name.partition(",")
        return clean(f"{first} {last}")
    return name


def read_bibtex(
    path: str, lines: list[str | None], problems: list[Problem]
) -> Iterator[PaperRecord]:
    """Each entry with an abstract is a paper; its authors are split at "and"."""
    text = "\n".join(ln if ln is not None else "\x00" for ln in lines)
    index = 0
    unclosed: list[int] = []
    for line, _kind, _key, fields in parse_bibtex(text, unclosed):
        index += _report_unclosed(path, unclosed, problems)
        if "\x00" in str(fields):
            index += 1
            continue
        authors = fields.get("author")
        if authors:
            names = [n.strip() for n in re.split(r"\s+and\s+", authors) if n.strip()]
            truncated = bool(names) and names[-1].casefold() == "others"
            fields["authors"] = [_bibtex_person(n) for n in (names[:-1] if truncated else names)]
            if truncated:
                fields["authors"].append("others")
            del fields["author"]
        record = record_from_mapping(fields, path=path, index=index, line=line, problems=problems)
        index += 1
        if record:
            yield record
    _report_unclosed(path, unclosed, problems)


def _report_unclosed(path, unclosed, problems):
    """Report the entries in ``unclosed`` and empty it; how many there were."""
    count = len(unclosed)
    problems.extend(
        Problem(path, line, "entry is never closed before the next one; fix its braces")
        for line in unclosed
    )
    unclosed.clear()
    return count


def sniff_bibtex(first: str, lines: list[str | None]) -> bool:
    """BibTeX: the first line opens an entry."""
    return first.startswith("@")
