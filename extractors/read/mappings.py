"""Structured listings: ``jsonl``, ``json`` (an array or one object) and ``csv`` (header
row); the fields a record's values are looked for in, and the record made of them."""

import csv
import json
import os
from collections.abc import Iterator
from typing import Any, cast

from kg.extractors.read.author_ids import PARALLEL_FIELD, id_of_author, parallel_ids
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
    """(names, ids, truncated): ids holds one id or None per name."""
    if value is None:
        return [], [], False
    if isinstance(value, str):
        names, truncated = split_author_names(value)
        return names, [None] * len(names), truncated
    names, ids = [], []
    for a in value:
        author_id = id_of_author(a)
        if isinstance(a, dict):
            a = a.get("name") or " ".join(str(a.get(k, "")) for k in ("given", "family")).strip()
        a = clean(a)
        if a:
            names.append(a)
            ids.append(author_id)
    truncated = bool(names) and names[-1].casefold() in TRUNCATION_MARKS
    return (names[:-1], ids[:-1], True) if truncated else (names, ids, False)


def _with_parallel_ids(obj, names, ids, path, line, problems):
    """``ids`` completed from the record's ``author_ids`` field, when it has one."""
    given = parallel_ids(obj.get(PARALLEL_FIELD))
    if given is None:
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
        problems.append(
            Problem(
                path,
                line,
                f"record {index + 1} has no abstract (looked for "
                f"{', '.join(ABSTRACT_FIELDS[:3])}); skipped: add one or drop "
                "the record",
            )
        )
        return None
    abstract = clean(abstract)
    if not check_abstract(path, line, abstract, problems):
        return None
    authors, ids, truncated = _authors_of(_first(obj, AUTHOR_FIELDS))
    ids = _with_parallel_ids(obj, authors, ids, path, line, problems)
    area = _first(obj, AREA_FIELDS)
    if isinstance(area, list):
        area = area[0] if area else None
    elif isinstance(area, str) and area.count(" ") == 0 and "," in area:
        area = area.split(",")[0]
    year = obj.get("year")
    try:
        year = int(year) if year not in (None, "") else None
    except (TypeError, ValueError):
        year = None
    external_id = _first(obj, ID_FIELDS)
    return PaperRecord(
        abstract=abstract,
        source=os.path.basename(path),
        index=index,
        line=line,
        title=clean(_first(obj, TITLE_FIELDS)),
        authors=tuple(authors),
        authors_truncated=truncated,
        author_ids=tuple(ids) if any(ids) else (),
        area=clean(area),
        external_id=clean(external_id) if external_id is not None else None,
        venue=clean(_first(obj, VENUE_FIELDS)),
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
        record = record_from_mapping(obj, path=path, index=index, line=n, problems=problems)
        index += 1
        if record:
            yield record


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
    """A header row, then one paper per row."""
    csv.field_size_limit(MAX_ABSTRACT_CHARS * 10)
    good = [ln if ln is not None else "" for ln in lines]
    reader = csv.DictReader(good)
    if not reader.fieldnames or not any(f in reader.fieldnames for f in ABSTRACT_FIELDS):
        raise ReadError(
            1,
            f"CSV header has no abstract column (one of "
            f"{', '.join(ABSTRACT_FIELDS[:3])}); add a header row",
        )
    bad_lines = {i for i, ln in enumerate(lines, 1) if ln is None}
    index = 0
    while True:
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            problems.append(Problem(path, start, f"bad CSV row ({exc}); skipped"))
            index += 1
            continue
        if bad_lines & set(range(start, reader.line_num + 1)):
            index += 1
            continue
        record = record_from_mapping(
            {k: v for k, v in row.items() if k is not None},
            path=path,
            index=index,
            line=start,
            problems=problems,
        )
        index += 1
        if record:
            yield record


def sniff_jsonl(first: str, lines: list[str | None]) -> bool:
    """JSON lines: more than one line, the first fifty of them starting with "{"."""
    return first.startswith("{") and _is_jsonl(lines)


def sniff_json(first: str, lines: list[str | None]) -> bool:
    """A JSON document: an object or an array."""
    return first.startswith(("{", "["))


def sniff_csv(first: str, lines: list[str | None]) -> bool:
    """CSV is known by its suffix only."""
    return False
