"""Checks of a structured record's field values (JSON, CSV, BibTeX): a value of the wrong
type is reported as one line naming the field, and the record lands without it."""

import re
from dataclasses import replace
from typing import Any

from kg.extractors.read.files import clean
from kg.extractors.records import PaperRecord

#: Years a record may give: the graph stores them as 64-bit integers.
MIN_YEAR, MAX_YEAR = 1, 9999


def kind_of(value: Any) -> str:
    """What a JSON value is, in words, for a message.

    >>> kind_of(True), kind_of(42), kind_of({"a": 1}), kind_of([1])
    ('a boolean (true)', 'a number (42)', 'an object', 'a list')
    """
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, int | float):
        text = str(value)
        return f"a number ({text if len(text) <= 20 else text[:17] + '...'})"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    if value is None:
        return "null"
    return "text"


def wrong_type(name: str, value: Any, expected: str) -> str:
    """The message for a field whose value is of the wrong type."""
    return f"field {name!r} is {kind_of(value)}, not {expected}; the record lands without it"


def text_field(name: str, value: Any) -> tuple[str | None, str | None]:
    """(text, problem) for a field that holds text; a number is read as its digits.

    >>> text_field("venue", "NeurIPS"), text_field("venue", 2020)
    (('NeurIPS', None), ('2020', None))
    >>> text_field("title", {"en": "A"})[1]
    "field 'title' is an object, not text; the record lands without it"
    """
    if value is None:
        return None, None
    if isinstance(value, str) or (isinstance(value, int | float) and not isinstance(value, bool)):
        return clean(value) or None, None
    return None, wrong_type(name, value, "text")


def year_field(value: Any) -> tuple[int | None, str | None]:
    """(year, problem) for a ``year`` field: a whole number or its digits, in range.

    >>> year_field("2021"), year_field(2021.0), year_field("")
    ((2021, None), (2021, None), (None, None))
    >>> year_field(10**30)[1][:60]
    "field 'year' is a number (10000000000000000...), not a year "
    """
    if value is None or value == "":
        return None, None
    expected = f"a year from {MIN_YEAR} to {MAX_YEAR}"
    year: int | None = None
    if isinstance(value, bool):
        year = None
    elif isinstance(value, int):
        year = value
    elif isinstance(value, float) and value.is_integer():
        year = int(value)
    elif isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        year = int(value.strip()) if len(value.strip()) <= 6 else None
    if year is not None and MIN_YEAR <= year <= MAX_YEAR:
        return year, None
    return None, wrong_type("year", value, expected)


def author_name(author: Any) -> str | None:
    """The name of one author as a listing gives it: text, or an object with a ``name``
    (or ``given`` and ``family``) that is text; None when it is neither."""
    if isinstance(author, dict):
        name = author.get("name")
        if name is None:
            parts = [author.get(k) for k in ("given", "family")]
            if not any(isinstance(p, str) and p.strip() for p in parts):
                return None
            if not all(p is None or isinstance(p, str) for p in parts):
                return None
            name = " ".join(p for p in parts if p)
        author = name
    if not isinstance(author, str):
        return None
    return clean(author) or None


#: Characters no store of the graph carries: NUL (the embedded engine's bulk format ends
#: strings with it; XML 1.0 cannot write it) and lone surrogates (JSON's "\\ud800", which
#: UTF-8 cannot encode). A record read with one holds U+FFFD in its place.
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
MARK = "\ufffd"
_TEXT_FIELDS = ("abstract", "title", "area", "external_id", "venue")
_LIST_FIELDS = ("authors", "author_ids")


def _described(chars: set[str]) -> str:
    named = ["NUL (U+0000)"] if "\x00" in chars else []
    if chars - {"\x00"}:
        named.append("a lone surrogate (U+D800-U+DFFF)")
    return " and ".join(named)


def storable(record: PaperRecord) -> tuple[PaperRecord, str | None]:
    """``record`` with U+FFFD for every character of :data:`UNSTORABLE` in its text, and the
    problem line when it held one (saying when the paper's key, made of the abstract or the
    id, is the cleaned text's).

    >>> r = PaperRecord(abstract="a\\x00b", source="x.jsonl", index=0, authors=("Ada",))
    >>> clean, problem = storable(r)
    >>> clean.abstract == "a\\ufffdb"
    True
    >>> problem[:60]
    "field 'abstract' holds NUL (U+0000), which the graph cannot "
    >>> storable(PaperRecord(abstract="a b", source="x.jsonl", index=0))[1] is None
    True
    """
    changes: dict[str, Any] = {}
    found: set[str] = set()
    for name in _TEXT_FIELDS:
        value = getattr(record, name)
        if value is not None and UNSTORABLE.search(value):
            found.update(UNSTORABLE.findall(value))
            changes[name] = UNSTORABLE.sub(MARK, value)
    for name in _LIST_FIELDS:
        items = getattr(record, name)
        if any(item is not None and UNSTORABLE.search(item) for item in items):
            found.update(c for item in items if item for c in UNSTORABLE.findall(item))
            changes[name] = tuple(
                None if item is None else UNSTORABLE.sub(MARK, item) for item in items
            )
    if not changes:
        return record, None
    names = ", ".join(repr(name) for name in changes)
    key = ""
    if "external_id" in changes:
        key = ", so the paper's key is made of the cleaned id"
    elif "abstract" in changes and not record.external_id:
        key = ", so the paper's key is the hash of the cleaned abstract"
    return replace(record, **changes), (
        f"field{'s' if len(changes) > 1 else ''} {names} hold{'' if len(changes) > 1 else 's'} "
        f"{_described(found)}, which the graph cannot store; replaced by U+FFFD{key}"
    )
