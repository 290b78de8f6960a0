"""Read paper listings into :class:`PaperRecord` objects.

Formats: ``conference`` (paper-search pages: optional topic-area line, author line,
abstract), ``daily`` (abstract paragraphs only), ``jsonl``, ``json`` (an array or one
object), ``csv`` (header row) and ``bibtex`` (entries with an ``abstract`` field).

Bad input never stops a read: each problem becomes a :class:`Problem` (file, line, what to
do) and the rest of the input still lands.
"""

import csv
import glob
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from kg.extractors.records import PaperRecord

FORMATS = ("conference", "daily", "jsonl", "json", "csv", "bibtex")
LISTING_SUFFIXES = {
    ".txt": None,
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "json",
    ".csv": "csv",
    ".bib": "bibtex",
}
CONFERENCE_HEADERS = {"论文检索", "paper search"}
DAILY_HEADERS = {"daily papers"}

MAX_ABSTRACT_CHARS = 100_000
TRUNCATION_MARKS = ("等", "et al.", "et al", "others", "and others")

ABSTRACT_FIELDS = ("abstract", "summary", "text", "paperAbstract", "description")
TITLE_FIELDS = ("title",)
AUTHOR_FIELDS = ("authors", "author", "creators")
ID_FIELDS = ("id", "arxiv_id", "arxivId", "doi", "DOI", "paper_id", "paperId", "eprint")
AREA_FIELDS = ("area", "category", "primary_category", "categories", "topic")
VENUE_FIELDS = ("venue", "journal", "booktitle")


@dataclass(frozen=True)
class Problem:
    """A bad file or record: where it is and what to do about it. ``kept`` says the record
    still landed (without what failed), rather than being skipped."""

    source: str
    line: int | None
    message: str
    kept: bool = False

    @property
    def report(self):
        """The one-line warning for the user."""
        return str(self) if self.kept else f"skipped {self}"

    def __str__(self):
        where = f"{self.source}:{self.line}" if self.line else self.source
        return f"{where}: {self.message}"


class ReadError(Exception):
    """A problem that stops the read of one file (the other files still land)."""

    def __init__(self, line, message):
        super().__init__(message)
        self.line = line


# ---------------------------------------------------------------- inputs


def expand_inputs(inputs, problems):
    """Files named by paths, directories (searched recursively for listings) and globs."""
    paths = []
    for item in inputs:
        item = str(item)
        if os.path.isdir(item):
            found = sorted(
                p
                for p in Path(item).rglob("*")
                if p.is_file() and p.suffix.lower() in LISTING_SUFFIXES
            )
            if not found:
                problems.append(
                    Problem(
                        item,
                        None,
                        "directory holds no listing files (.txt, .jsonl, .json, .csv, .bib)",
                    )
                )
            paths.extend(str(p) for p in found)
        elif os.path.exists(item):
            paths.append(item)
        elif glob.has_magic(item):
            matched = sorted(glob.glob(item, recursive=True))
            if not matched:
                problems.append(Problem(item, None, "pattern matches no file; check the path"))
            paths.extend(p for p in matched if os.path.isfile(p))
        else:
            problems.append(Problem(item, None, "no such file or directory; check the path"))
    seen, unique = set(), []
    for p in paths:
        real = os.path.realpath(p)
        if real not in seen:
            seen.add(real)
            unique.append(p)
    return unique


def read_listings(inputs, *, format=None, problems=None):
    """Yield a :class:`PaperRecord` for every good record of every input.

    ``problems``, a list, receives a :class:`Problem` per skipped file or record.
    ``format`` forces one of :data:`FORMATS`; by default each file's format is detected.
    """
    if format is not None and format not in FORMATS:
        raise ValueError(f"unknown format {format!r}; choose from {', '.join(FORMATS)}")
    problems = [] if problems is None else problems
    for path in expand_inputs(inputs, problems):
        try:
            lines = decode_lines(path, problems)
            fmt = format or detect_format(path, lines)
            yield from READERS[fmt](path, lines, problems)
        except ReadError as exc:
            problems.append(Problem(path, exc.line, str(exc)))
        except OSError as exc:
            problems.append(Problem(path, None, f"cannot read: {exc.strerror or exc}"))


def decode_lines(path, problems):
    """The file's lines as text; lines that are not UTF-8 become None and are reported."""
    data = Path(path).read_bytes()
    if not data.strip():
        raise ReadError(None, "file is empty; nothing to read")
    if b"\x00" in data[:8192]:
        raise ReadError(
            None, "looks like a binary file, not a listing; pass text, JSONL, CSV or BibTeX"
        )
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines = []
    for n, raw in enumerate(data.split(b"\n"), 1):
        try:
            lines.append(raw.decode("utf-8").rstrip("\r"))
        except UnicodeDecodeError as exc:
            problems.append(
                Problem(
                    path,
                    n,
                    f"not valid UTF-8 (byte {exc.start + 1} of the "
                    "line); the record there is skipped: re-save the "
                    "file as UTF-8",
                )
            )
            lines.append(None)
    return lines


def detect_format(path, lines):
    """Guess a file's format from its suffix and first line."""
    suffix_format = LISTING_SUFFIXES.get(Path(path).suffix.lower())
    first = next((ln.strip() for ln in lines if ln and ln.strip()), "")
    if suffix_format:
        if suffix_format == "json" and first.startswith("{") and _is_jsonl(lines):
            return "jsonl"
        return suffix_format
    if first.startswith("@"):
        return "bibtex"
    if first.startswith("{"):
        return "jsonl" if _is_jsonl(lines) else "json"
    if first.startswith("["):
        return "json"
    if first.casefold() in CONFERENCE_HEADERS:
        return "conference"
    if first.casefold() in DAILY_HEADERS:
        return "daily"
    paragraphs = [ln.strip() for ln in lines if ln and ln.strip()]
    if any(is_area_line(p) or is_author_line(p) for p in paragraphs[:20]):
        return "conference"
    return "daily"


def _is_jsonl(lines):
    starts = [ln.lstrip()[:1] for ln in lines if ln and ln.strip()]
    return len(starts) > 1 and all(s == "{" for s in starts[:50])


# ---------------------------------------------------------------- text listings


def is_area_line(line):
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


def is_author_line(line):
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


def split_author_names(text):
    """Split an author string; returns (names, truncated).

    >>> split_author_names("A. Smith, B. Jones 等")
    (['A. Smith', 'B. Jones'], True)
    >>> split_author_names("Ada Lovelace and Alan Turing")
    (['Ada Lovelace', 'Alan Turing'], False)
    """
    text = " ".join(text.split())
    truncated = False
    for mark in sorted(TRUNCATION_MARKS, key=len, reverse=True):
        if text.endswith(mark) and (len(text) == len(mark) or not text[-len(mark) - 1].isalnum()):
            text = text[: -len(mark)].rstrip(" ,;")
            truncated = True
            break
    sep = ";" if ";" in text else ","
    parts = [p for chunk in text.split(sep) for p in re.split(r"\s+and\s+|\s*&\s*", chunk)]
    names = [p.strip(" ,;") for p in parts if p.strip(" ,;")]
    return names, truncated


def _paragraphs(lines, *, join_lines):
    """(first line number, text) of each paragraph; None when a line was not UTF-8."""
    block, start = [], 0
    for n, line in enumerate(lines + [""], 1):
        if line is not None and not line.strip():
            if block:
                if join_lines:
                    yield start, (None if None in block else " ".join(block))
                else:
                    for i, b in enumerate(block):
                        yield start + i, b
            block = []
            continue
        if not block:
            start = n
        block.append(line.strip() if line is not None else None)


def _check_abstract(path, line, text, problems):
    if text is None:
        return False
    if len(text) > MAX_ABSTRACT_CHARS:
        problems.append(
            Problem(
                path,
                line,
                f"record is {len(text):,} characters long, over "
                f"the {MAX_ABSTRACT_CHARS:,} an abstract may have; skipped: "
                "split it or check the file's format",
            )
        )
        return False
    return True


def read_conference(path, lines, problems):
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
            elif _check_abstract(path, n, text, problems):
                yield PaperRecord(
                    abstract=_clean(text),
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


def read_daily(path, lines, problems):
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
        if _check_abstract(path, n, text, problems):
            yield PaperRecord(abstract=_clean(text), source=name, index=index, line=n)
        index += 1


# ---------------------------------------------------------------- structured listings


def _first(obj, fields):
    for f in fields:
        value = obj.get(f)
        if value not in (None, "", [], {}):
            return value
    return None


def _clean(value):
    return " ".join(str(value).split()) if value is not None else None


def _authors_of(value):
    if value is None:
        return [], False
    if isinstance(value, str):
        return split_author_names(value)
    names = []
    for a in value:
        if isinstance(a, dict):
            a = a.get("name") or " ".join(str(a.get(k, "")) for k in ("given", "family")).strip()
        a = _clean(a)
        if a:
            names.append(a)
    truncated = bool(names) and names[-1].casefold() in TRUNCATION_MARKS
    return (names[:-1] if truncated else names), truncated


def record_from_mapping(obj, *, path, index, line, problems):
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
    abstract = _clean(abstract)
    if not _check_abstract(path, line, abstract, problems):
        return None
    authors, truncated = _authors_of(_first(obj, AUTHOR_FIELDS))
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
        title=_clean(_first(obj, TITLE_FIELDS)),
        authors=tuple(authors),
        authors_truncated=truncated,
        area=_clean(area),
        external_id=_clean(external_id) if external_id is not None else None,
        venue=_clean(_first(obj, VENUE_FIELDS)),
        year=year,
    )


def read_jsonl(path, lines, problems):
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


def read_json(path, lines, problems):
    if None in lines:
        raise ReadError(
            lines.index(None) + 1,
            "not valid UTF-8; a JSON document cannot be read in part: re-save the file as UTF-8",
        )
    try:
        doc = json.loads("\n".join(lines))
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


def read_csv(path, lines, problems):
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


# ---------------------------------------------------------------- BibTeX

_ENTRY_START = re.compile(r"@(\w+)\s*[{(]")
_FIELD = re.compile(r"\s*([\w:.\-]+)\s*=\s*")


def parse_bibtex(text):
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
    fields, pos = {}, 0
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
            value, pos = m2.group(0), pos + m2.end()
        fields[name] = _clean(value.replace("{", "").replace("}", ""))
        comma = body.find(",", pos)
        if comma < 0:
            return fields
        pos = comma + 1


def _bibtex_person(name):
    if "," in name:
        last, _, first = name.partition(",")
        return _clean(f"{first} {last}")
    return name


def read_bibtex(path, lines, problems):
    text = "\n".join(ln if ln is not None else "\x00" for ln in lines)
    index = 0
    for line, kind, key, fields in parse_bibtex(text):
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


READERS = {
    "conference": read_conference,
    "daily": read_daily,
    "jsonl": read_jsonl,
    "json": read_json,
    "csv": read_csv,
    "bibtex": read_bibtex,
}
