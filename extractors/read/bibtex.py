"""BibTeX listings: entries with an ``abstract`` field."""

import re
from collections.abc import Iterator
from typing import Any

from kg.extractors.read.files import ReadError, clean
from kg.extractors.read.mappings import record_from_mapping
from kg.extractors.records import PaperRecord, Problem

_ENTRY_START = re.compile(r"@(\w+)\s*[{(]")


_FIELD = re.compile(r"\s*([\w:.\-]+)\s*=\s*")


def parse_bibtex(text: str) -> Iterator[tuple[int, str, str, dict[str, Any]]]:
    """Yield (line, entry type, citation key, fields) for each entry; ``@comment``,
    ``@string`` and ``@preamble`` are skipped. Raises ReadError(line) on an unclosed entry.

    >>> list(parse_bibtex('@article{k1, title={A {B}}, year=2020}'))
    [(1, 'article', 'k1', {'title': 'A B', 'year': '2020'})]
    """
    pos = 0
    while True:
        m = _ENTRY_START.search(text, pos)
        if not m:
            return
        line = text.count("\n", 0, m.start()) + 1
        kind = m.group(1).lower()
        end = _matching_close(text, m.end() - 1)
        if end is None:
            raise ReadError(line, f"@{kind} entry is never closed; fix its braces")
        pos = end + 1
        if kind in ("comment", "string", "preamble"):
            continue
        body = text[m.end() : end]
        key, _, rest = body.partition(",")
        yield line, kind, key.strip(), _bibtex_fields(rest)


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


def _bibtex_fields(body):
    fields: dict[str, Any] = {}
    pos = 0
    while True:
        m = _FIELD.match(body, pos)
        if not m:
            return fields
        name, pos = m.group(1).lower(), m.end()
        if pos < len(body) and body[pos] == "{":
            end = _matching_close(body, pos)
            if end is None:
                return fields
            value, pos = body[pos + 1 : end], end + 1
        elif pos < len(body) and body[pos] == '"':
            end = body.find('"', pos + 1)
            end = len(body) if end < 0 else end
            value, pos = body[pos + 1 : end], end + 1
        else:
            m2 = re.match(r"[^,]*", body[pos:])
            assert m2 is not None  # matches anywhere, maybe nothing
            value, pos = m2.group(0), pos + m2.end()
        fields[name] = clean(value.replace("{", "").replace("}", ""))
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
    for line, _kind, _key, fields in parse_bibtex(text):
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


def sniff_bibtex(first: str, lines: list[str | None]) -> bool:
    """BibTeX: the first line opens an entry."""
    return first.startswith("@")
