"""Read paper listings into :class:`~kg.extractors.records.PaperRecord` objects.

Formats: ``conference`` (paper-search pages: optional topic-area line, author line,
abstract), ``daily`` (abstract paragraphs only), ``jsonl``, ``json`` (an array or one
object), ``csv`` (header row) and ``bibtex`` (entries with an ``abstract`` field). Each is
one entry of the registry below: its name, the file suffixes that name it, a function that
recognises its content and its reader. Adding a format is one entry and one reader.

Bad input never stops a read: each problem becomes a :class:`Problem` (file, line, what to
do) and the rest of the input still lands. Text holding NUL or a lone surrogate lands with
U+FFFD in its place (no store of the graph can carry them), reported as a problem of the record.
"""

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from kg.extractors.read import bibtex, mappings, text
from kg.extractors.read.fields import storable
from kg.extractors.read.files import ReadError, decode_lines, expand_inputs
from kg.extractors.records import PaperRecord, Problem

__all__ = ["FORMATS", "Format", "Problem", "ReadError", "detect_format", "read_listings"]

#: ``sniff(first non-blank line, lines)``: whether the content is of the format.
Sniff = Callable[[str, list[str | None]], bool]
#: ``read(path, lines, problems)``: the file's records, its problems added to ``problems``.
Reader = Callable[[str, list[str | None], list[Problem]], Iterator[PaperRecord]]


@dataclass(frozen=True)
class Format:
    """One input format: its ``name``, the file ``suffixes`` that name it (formats sharing
    one are listed from the most to the least specific sniff), the ``sniff`` that
    recognises its content and its ``read`` function."""

    name: str
    suffixes: tuple[str, ...]
    sniff: Sniff
    read: Reader


_REGISTRY = (
    Format("conference", (), text.sniff_conference, text.read_conference),
    Format("daily", (), text.sniff_daily, text.read_daily),
    Format("jsonl", (".jsonl", ".ndjson", ".json"), mappings.sniff_jsonl, mappings.read_jsonl),
    Format("json", (".json",), mappings.sniff_json, mappings.read_json),
    Format("csv", (".csv",), mappings.sniff_csv, mappings.read_csv),
    Format("bibtex", (".bib",), bibtex.sniff_bibtex, bibtex.read_bibtex),
)
FORMATS = tuple(f.name for f in _REGISTRY)
_BY_NAME = {f.name: f for f in _REGISTRY}
#: The format of a text file that no format recognises: one abstract per paragraph.
_PLAIN_TEXT = "daily"
#: The suffixes of listing files in a directory: the formats' own, and ".txt" for the
#: text listings, whose format their content says.
LISTING_SUFFIXES = frozenset({".txt"}.union(*(f.suffixes for f in _REGISTRY)))


def read_listings(
    inputs: Iterable[str | os.PathLike[str]],
    *,
    format: str | None = None,
    problems: list[Problem] | None = None,
) -> Iterator[PaperRecord]:
    """Yield a :class:`PaperRecord` for every good record of every input.

    ``problems``, a list, receives a :class:`Problem` per skipped file or record.
    ``format`` forces one of :data:`FORMATS`; by default each file's format is detected.
    """
    if format is not None and format not in FORMATS:
        raise ValueError(f"unknown format {format!r}; choose from {', '.join(FORMATS)}")
    problems = [] if problems is None else problems
    for path in expand_inputs(inputs, problems, LISTING_SUFFIXES):
        try:
            lines = decode_lines(path, problems)
            fmt = format or detect_format(path, lines)
            for record in _BY_NAME[fmt].read(path, lines, problems):
                record, problem = storable(record)
                if problem is not None:
                    problems.append(Problem(path, record.line, problem, kept=True))
                yield record
        except ReadError as exc:
            problems.append(Problem(path, exc.line, str(exc)))
        except OSError as exc:
            problems.append(Problem(path, None, f"cannot read: {exc.strerror or exc}"))


def detect_format(path: str, lines: list[str | None]) -> str:
    """Guess a file's format: among the formats its suffix names, the first whose sniff
    recognises the content, else the last of them; without such a suffix, the first
    format whose sniff recognises it (those without suffixes last), else plain text.

    >>> detect_format("x.json", ['{"a": 1}', '{"a": 2}']), detect_format("x.json", ["[]"])
    ('jsonl', 'json')
    >>> detect_format("x.txt", ["@article{k,"]), detect_format("x.txt", ["We study X."])
    ('bibtex', 'daily')
    """
    suffix = Path(path).suffix.lower()
    first = next((ln.strip() for ln in lines if ln and ln.strip()), "")
    named = [f for f in _REGISTRY if suffix in f.suffixes]
    if named:
        return next((f.name for f in named if f.sniff(first, lines)), named[-1].name)
    by_content = [f for f in _REGISTRY if f.suffixes] + [f for f in _REGISTRY if not f.suffixes]
    return next((f.name for f in by_content if f.sniff(first, lines)), _PLAIN_TEXT)
