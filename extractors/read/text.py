"""Text listings: ``conference`` (paper-search pages: optional topic-area line, author line,
abstract) and ``daily`` (abstract paragraphs only)."""

import os
import re
from collections.abc import Iterator
from typing import cast

from kg.extractors.read.files import check_abstract, clean
from kg.extractors.records import PaperRecord, Problem

CONFERENCE_HEADERS = {"论文检索", "paper search"}


DAILY_HEADERS = {"daily papers"}


TRUNCATION_MARKS = ("等", "et al.", "et al", "others", "and others")


def is_area_line(line: str) -> bool:
    """A topic-area line such as "Theory · Optimization".

    >>> is_area_line("Theory · Learning Theory"), is_area_line("We study bandits.")
    (True, False)
    """
    return " · " in line and len(line) <= 200 and not line.endswith(".")


_NAME_WORD = re.compile(r"^[\w.'’()\-]+$")


_PARTICLES = {
    "van",
    "der",
    "de",
    "den",
    "von",
    "da",
    "di",
    "du",
    "la",
    "le",
    "del",
    "dos",
    "bin",
    "al",
    "y",
    "ter",
    "ten",
    "zu",
}


def is_author_line(line: str) -> bool:
    """A comma-separated list of person names (optionally ending with 等 / et al.).

    >>> is_author_line("Ada Lovelace, Alan Turing 等")
    True
    >>> is_author_line("We propose a method, and it works.")
    False
    """
    names, _ = split_author_names(line)
    if not names or len(line) > 3000:
        return False
    for name in names:
        words = name.split()
        if not 1 <= len(words) <= 6 or len(name) > 60:
            return False
        for w in words:
            if not _NAME_WORD.match(w) or any(c.isdigit() for c in w):
                return False
            if not (w[0].isupper() or w[0] == "(" or w.lower() in _PARTICLES):
                return False
    return True


def split_author_names(text: str) -> tuple[list[str], bool]:
    """Split an author string; returns (names, truncated).

    >>> split_author_names("A. Smith, B. Jones 等")
    (['A. Smith', 'B. Jones'], True)
    >>> split_author_names("Ada Lovelace, Alan Turing等")
    (['Ada Lovelace', 'Alan Turing'], True)
    >>> split_author_names("Ada Lovelace and Alan Turing")
    (['Ada Lovelace', 'Alan Turing'], False)
    """
    text = " ".join(text.split())
    truncated = False
    for mark in sorted(TRUNCATION_MARKS, key=len, reverse=True):
        if not text.endswith(mark):
            continue
        if not mark.isascii() or len(text) == len(mark) or not text[-len(mark) - 1].isalnum():
            text = text[: -len(mark)].rstrip(" ,;")
            truncated = True
            break
    sep = ";" if ";" in text else ","
    parts = [p for chunk in text.split(sep) for p in re.split(r"\s+and\s+|\s*&\s*", chunk)]
    names = [p.strip(" ,;") for p in parts if p.strip(" ,;")]
    return names, truncated


def _paragraphs(lines, *, join_lines):
    """(first line number, text) of each paragraph; None when a line was not UTF-8."""
    block: list[str | None] = []
    start = 0
    for n, line in enumerate(lines + [""], 1):
        if line is not None and not line.strip():
            if block:
                if join_lines:
                    yield start, (None if None in block else " ".join(cast(list[str], block)))
                else:
                    for i, b in enumerate(block):
                        yield start + i, b
            block = []
            continue
        if not block:
            start = n
        block.append(line.strip() if line is not None else None)


def read_conference(
    path: str, lines: list[str | None], problems: list[Problem]
) -> Iterator[PaperRecord]:
    """Paper-search pages: [area line] author line, abstract; a header line first."""
    name = os.path.basename(path)
    area = authors = None
    truncated = False
    index = 0
    bad_block = False
    for n, text in _paragraphs(lines, join_lines=False):
        if text is None:
            bad_block = True
            continue
        if n == _first_line(lines) and text.casefold() in CONFERENCE_HEADERS | DAILY_HEADERS:
            continue
        if is_area_line(text) and authors is None:
            area = text
        elif is_author_line(text) and authors is None:
            authors, truncated = split_author_names(text)
        else:
            if bad_block:
                index += 1
            elif check_abstract(path, n, text, problems):
                yield PaperRecord(
                    abstract=clean(text),
                    source=name,
                    index=index,
                    line=n,
                    authors=tuple(authors or ()),
                    authors_truncated=truncated,
                    area=area,
                )
                index += 1
            else:
                index += 1
            area = authors = None
            truncated = bad_block = False
    if area is not None or authors is not None:
        problems.append(
            Problem(
                path,
                len(lines),
                "listing ends with an area or author line "
                "but no abstract; that last entry is skipped",
            )
        )


def _first_line(lines):
    return next((i for i, ln in enumerate(lines, 1) if ln is None or ln.strip()), 0)


def read_daily(
    path: str, lines: list[str | None], problems: list[Problem]
) -> Iterator[PaperRecord]:
    """Daily-papers feeds: one abstract per paragraph, after an optional header line."""
    name = os.path.basename(path)
    index = 0
    for n, text in _paragraphs(lines, join_lines=True):
        if (
            n == _first_line(lines)
            and text
            and text.casefold() in DAILY_HEADERS | CONFERENCE_HEADERS
        ):
            continue
        if check_abstract(path, n, text, problems):
            yield PaperRecord(abstract=clean(text), source=name, index=index, line=n)
        index += 1


def sniff_conference(first: str, lines: list[str | None]) -> bool:
    """A conference listing: its header line, or (unless it has a daily header) an area or
    author line among its first twenty paragraphs."""
    header = first.casefold()
    if header in CONFERENCE_HEADERS:
        return True
    if header in DAILY_HEADERS:
        return False
    paragraphs = [ln.strip() for ln in lines if ln and ln.strip()]
    return any(is_area_line(p) or is_author_line(p) for p in paragraphs[:20])


def sniff_daily(first: str, lines: list[str | None]) -> bool:
    """A daily-papers listing: its header line."""
    return first.casefold() in DAILY_HEADERS
