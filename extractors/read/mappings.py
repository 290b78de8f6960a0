"""Structured listings: ``jsonl``, ``json`` (an array or one object) and ``csv`` (header
row); the fields a record's values are looked for in, and the record made of them."""

import csv
import json
import os
from collections.abc import Iterator
from typing import Any, cast

from kg.extractors.read.author_ids import PARALLEL_FIELD, id_of_author, parallel_ids
from kg.extractors.read.fields import author_name, kind_of, text_field, wrong_type, year_field
from kg.extractors.read.files import MAX_ABSTRACT_CHARS, ReadError, check_abstract, clean
from kg.extractors.read.text import TRUNCATION_MARKS, split_author_names
from kg.extractors.records import PaperRecord, Problem

ABSTRACT_FIELDS = ("abstract", "summary", "text", "paperAbstract", "description")


TITLE_FIELDS = ("title",)


AUTHOR_FIELDS = ("authors", "author", "creators")


ID_FIELDS = ("id", "arxiv_id", "arxivId", "doi", "DOI", "paper_id", "paperId", "eprint")


AREA_FIELDS = ("area", "category", "primary_category", "categories", "topic")


VENUE_FIELDS = ("venue", "journal", "booktitle")


def _is_jsonl(lines):
    starts = [ln.lstrip()[:1] for ln in lines if ln and ln.strip()]
    return len(starts) > 1 and all(s == "{" for s in starts[:50])


def _first(obj, fields):
    for f in fields:
        value = obj.get(f)
        if value not in (None, "", [], {}):
            return value
    return None


def _authors_of(value):
    """(names, ids, truncated, problem): ids holds one id or None per name; problem says
    what was left out of a value that is not text or a list of names or author objects."""
    if value is None:
        return [], [], False, None
    if isinstance(value, str):
        names, truncated = split_author_names(value)
        return names, [None] * len(names), truncated, None
    if isinstance(value, dict) and author_name(value):
        value = [value]
    if not isinstance(value, list):
        return [], [], False, wrong_type("authors", value, "a list of names or text")
    names, ids, bad = [], [], []
    for n, a in enumerate(value, 1):
        name = author_name(a)
        if name:
            names.append(name)
            ids.append(id_of_author(a))
        elif not (isinstance(a, str) or a is None):
            bad.append(f"{n} ({kind_of(a)})")
    problem = f"field 'authors' item {', '.join(bad)} is not a name; left out" if bad else None
    truncated = bool(names) and names[-1].casefold() in TRUNCATION_MARKS
    if truncated:
        return names[:-1], ids[:-1], True, problem
    return names, ids, False, problem


def _with_parallel_ids(obj, names, ids, path, line, problems):
    """``ids`` completed from the record's ``author_ids`` field, when it has one."""
    value = obj.get(PARALLEL_FIELD)
    given = parallel_ids(value)
    if given is None:
        if value not in (None, "", []):
            expected = "a list of ids or text"
            problems.append(Problem(path, line, wrong_type(PARALLEL_FIELD, value, expected), True))
        return ids
    if len(given) != len(names):
        problems.append(
            Problem(
                path,
                line,
                f"{PARALLEL_FIELD} has {len(given)} entries for {len(names)} authors; "
                "ids ignored: give one per author (empty for none)",
                kept=True,
            )
        )
        return ids
    return [mine or theirs for mine, theirs in zip(ids, given, strict=True)]


def record_from_mapping(
    obj: Any, *, path: str, index: int, line: int | None, problems: list[Problem]
) -> PaperRecord | None:
    """A PaperRecord from one JSON/CSV record, or None (with a Problem) when it has no abstract."""
    if not isinstance(obj, dict):
        problems.append(Problem(path, line, f"record {index + 1} is not an object; skipped"))
        return None
    abstract = _first(obj, ABSTRACT_FIELDS)
    if not isinstance(abstract, str) or not abstract.strip():
        found = (
            f"an abstract that is {kind_of(abstract)}, not text"
            if abstract is not None
            else f"no abstract (looked for {', '.join(ABSTRACT_FIELDS[:3])})"
        )
        problems.append(
            Problem(
                path, line, f"record {index + 1} has {found}; skipped: add one or drop the record"
            )
        )
        return None
    abstract = clean(abstract)
    if not check_abstract(path, line, abstract, problems):
        return None
    notes: list[str] = []
    authors, ids, truncated, bad_authors = _authors_of(_first(obj, AUTHOR_FIELDS))
    notes += [bad_authors] if bad_authors else []
    ids = _with_parallel_ids(obj, authors, ids, path, line, problems)
    area = _first(obj, AREA_FIELDS)
    if isinstance(area, list):
        area = area[0] if area else None
    elif isinstance(area, str) and area.count(" ") == 0 and "," in area:
        area = area.split(",")[0]
    values = {}
    for name, value in (
        ("title", _first(obj, TITLE_FIELDS)),
        ("area", area),
        ("id", _first(obj, ID_FIELDS)),
        ("venue", _first(obj, VENUE_FIELDS)),
    ):
        values[name], note = text_field(name, value)
        notes += [note] if note else []
    year, note = year_field(obj.get("year"))
    notes += [note] if note else []
    where = "" if line else f"record {index + 1}: "
    problems.extend(Problem(path, line, where + note, kept=True) for note in notes)
    return PaperRecord(
        abstract=abstract,
        source=os.path.basename(path),
        index=index,
        line=line,
        title=values["title"],
        authors=tuple(authors),
        authors_truncated=truncated,
        author_ids=tuple(ids) if any(ids) else (),
        area=values["area"],
        external_id=values["id"],
        venue=values["venue"],
        year=year,
    )


def read_jsonl(
    path: str, lines: list[str | None], problems: list[Problem]
) -> Iterator[PaperRecord]:
    """One JSON object per line."""
    index = 0
    for n, line in enumerate(lines, 1):
        if line is None:
            index += 1
            continue
        if not line.strip():
            continue
        if len(line) > MAX_ABSTRACT_CHARS * 4:
            problems.append(
                Problem(
                    path,
                    n,
                    f"line is {len(line):,} characters long, too long "
                    "for one paper record; skipped: check the file",
                )
            )
            index += 1
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(
                Problem(
                    path,
                    n,
                    f"not valid JSON ({exc.msg} at column {exc.colno}); "
                    "skipped: fix or remove the line",
                )
            )
            index += 1
            continue
        except (ValueError, RecursionError) as exc:
            problems.append(Problem(path, n, f"{_unreadable_json(exc)}; skipped: fix the line"))
            index += 1
            continue
        record = record_from_mapping(obj, path=path, index=index, line=n, problems=problems)
        index += 1
        if record:
            yield record


def _unreadable_json(exc: Exception) -> str:
    """What makes valid JSON unreadable: nesting too deep, or a number too long."""
    if isinstance(exc, RecursionError):
        return "JSON nested too deep to read"
    return "JSON holds a number with over 4,300 digits"


def read_json(path: str, lines: list[str | None], problems: list[Problem]) -> Iterator[PaperRecord]:
    """One JSON document: an array of papers, an object holding one, or one paper."""
    if None in lines:
        raise ReadError(
            lines.index(None) + 1,
            "not valid UTF-8; a JSON document cannot be read in part: re-save the file as UTF-8",
        )
    try:
        doc = json.loads("\n".join(cast(list[str], lines)))
    except json.JSONDecodeError as exc:
        raise ReadError(
            exc.lineno, f"not valid JSON ({exc.msg}); fix the file or pass --format"
        ) from None
    except (ValueError, RecursionError) as exc:
        raise ReadError(None, f"{_unreadable_json(exc)}; fix the file") from None
    if isinstance(doc, dict):
        items = next(
            (
                doc[k]
                for k in ("papers", "records", "entries", "items")
                if isinstance(doc.get(k), list)
            ),
            [doc],
        )
    elif isinstance(doc, list):
        items = doc
    else:
        raise ReadError(1, "JSON holds neither an array nor an object of papers")
    for index, obj in enumerate(items):
        record = record_from_mapping(obj, path=path, index=index, line=None, problems=problems)
        if record:
            yield record


def read_csv(path: str, lines: list[str | None], problems: list[Problem]) -> Iterator[PaperRecord]:
    """A header row, then one paper per row. The delimiter is a comma, else a semicolon,
    tab or bar when the header splits at one into an abstract column."""
    csv.field_size_limit(MAX_ABSTRACT_CHARS * 10)
    good = [ln if ln is not None else "" for ln in lines]
    start = next((n for n, ln in enumerate(good) if ln.strip()), 0)
    header, delimiter = _csv_header(good[start] if good else "")
    _report_duplicate_columns(path, start + 1, header, problems)
    bad_lines = {i for i, ln in enumerate(lines, 1) if ln is None}
    index, pos = 0, start + 1
    while pos < len(good):
        if not good[pos].strip():
            pos += 1
            continue
        rows = csv.reader((good[i] + "\n" for i in range(pos, len(good))), delimiter=delimiter)
        try:
            row = next(rows)
        except csv.Error as exc:
            problems.append(Problem(path, pos + 1, f"bad CSV row ({_csv_error(exc)}); skipped"))
            pos, index = pos + max(rows.line_num, 1), index + 1
            continue
        unclosed = _unclosed_quote(good, pos, rows.line_num, len(header), delimiter)
        if unclosed is not None:
            problems.append(Problem(path, pos + 1, unclosed[1]))
            pos, index = pos + unclosed[0], index + 1
            continue
        first, pos = pos + 1, pos + rows.line_num
        if bad_lines & set(range(first, pos + 1)):
            index += 1
            continue
        record = record_from_mapping(
            dict(zip(header, row, strict=False)),
            path=path,
            index=index,
            line=first,
            problems=problems,
        )
        index += 1
        if record:
            yield record


def _csv_error(exc: csv.Error) -> str:
    """The csv module's error in the words of a listing's user."""
    if "new-line character" in str(exc):
        return "a carriage return (CR) inside a line: save the file with one kind of line ending"
    return str(exc)


_DELIMITERS = (",", ";", "\t", "|")


def _csv_header(line: str) -> tuple[list[str], str]:
    """The column names and the delimiter, from the first delimiter that gives an abstract
    column. ReadError when none does."""
    try:
        for delimiter in _DELIMITERS:
            names = next(csv.reader([line], delimiter=delimiter), [])
            if any(name.strip() in ABSTRACT_FIELDS for name in names):
                return [name.strip() for name in names], delimiter
        found = next(csv.reader([line]), [])
    except csv.Error as exc:
        raise ReadError(1, f"CSV header cannot be read ({_csv_error(exc)}); fix it") from None
    shown = ", ".join(repr(n) for n in found[:6]) + (", ..." if len(found) > 6 else "")
    raise ReadError(
        1,
        f"CSV header has no abstract column (one of {', '.join(ABSTRACT_FIELDS[:3])}); "
        f"its first line reads as the columns {shown}: add a header row naming the columns",
    )


def _report_duplicate_columns(path, line, header, problems):
    counts: dict[str, int] = {}
    for name in header:
        counts[name] = counts.get(name, 0) + 1
    for name, count in counts.items():
        if count > 1 and name:
            problems.append(
                Problem(
                    path,
                    line,
                    f"CSV header names the column {name!r} {count} times; the last one is "
                    "read: rename or drop the others",
                    kept=True,
                )
            )


def _unclosed_quote(lines, pos, count, width, delimiter):
    """(lines to skip, message) when the row of ``count`` lines at ``pos`` holds a quote
    that is never closed, else None. The row then reads in strict mode with an error; it
    ends before the first of its lines that is on its own a well-formed row of the header's
    ``width`` (the record the quote swallowed), else at the end of the row."""
    if count < 2:
        return None
    strict = csv.reader(
        (lines[i] + "\n" for i in range(pos, pos + count)), delimiter=delimiter, strict=True
    )
    try:
        next(strict)
        return None
    except csv.Error:
        pass
    for offset in range(1, count):
        try:
            alone = next(csv.reader([lines[pos + offset]], delimiter=delimiter, strict=True))
        except (csv.Error, StopIteration):
            continue
        if len(alone) == width:
            return offset, (
                f"a quoted field runs on into line {pos + offset + 1}, a record of its own; "
                'skipped: a quote (") is probably missing its close'
            )
    return count, (
        f"a quoted field is never closed (it runs to line {pos + count}); skipped: "
        'a quote (") is probably missing its close'
    )


def sniff_jsonl(first: str, lines: list[str | None]) -> bool:
    """JSON lines: more than one line, the first fifty of them starting with "{"."""
    return first.startswith("{") and _is_jsonl(lines)


def sniff_json(first: str, lines: list[str | None]) -> bool:
    """A JSON document: an object or an array."""
    return first.startswith(("{", "["))


def sniff_csv(first: str, lines: list[str | None]) -> bool:
    """CSV is known by its suffix only."""
    return False
