"""Query rows as text: an aligned table, a JSON array or CSV.

A table is for reading, so its cells are always made safe for a terminal; JSON and CSV are
data, kept exact unless they go to a terminal (``terminal=True``).
"""

import csv
import io
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from kg.terminal import safe_json, safe_text

_CELL_WIDTH = 60


def render(rows: Sequence[Mapping[str, Any]], fmt: str = "table", *, terminal: bool = False) -> str:
    """Rows as text in one of FORMATS (table, json, csv), ending with a newline; with
    ``terminal``, JSON and CSV are made safe to show (JSON keeps its values).

    >>> print(render([{"name": "A\\x1b]0;x\\x07"}], "csv", terminal=True), end="")
    name
    A\\x1b]0;x\\x07
    """
    text = FORMATS[fmt](rows)
    text = text if text.endswith("\n") else text + "\n"
    if terminal and fmt == "json":
        return safe_json(text)
    return safe_text(text) if terminal and fmt == "csv" else text


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return "; ".join(_cell(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Rows(list):
    """Result rows (dicts in RETURN order) that keep the result's column names, so that
    even an empty result has a CSV header."""

    def __init__(self, columns: Iterable[str], rows: Iterable[dict] = ()) -> None:
        super().__init__(rows)
        self.columns = list(columns)

    @classmethod
    def of(cls, columns: Iterable[str], values: Iterable[Iterable[Any]]) -> "Rows":
        """Rows from the column names and one sequence of values per row."""
        names = list(columns)
        return cls(names, (dict(zip(names, row, strict=True)) for row in values))


def _columns(rows: Iterable[Mapping[str, Any]]) -> list[str]:
    columns: list[str] = list(getattr(rows, "columns", ()))
    for row in rows:
        columns += [c for c in row if c not in columns]
    return columns


def format_table(rows: Sequence[Mapping[str, Any]]) -> str:
    """Rows as an aligned text table; long cells are cut with an ellipsis.

    >>> print(format_table([{"name": "Rémi Munos", "shared": 2}, {"name": "Yann", "shared": 10}]))
    name        shared
    ----------  ------
    Rémi Munos  2
    Yann        10
    (2 rows)
    """
    if not rows:
        return "(no rows)"
    keys = _columns(rows)
    columns = [_shorten(c) for c in keys]
    cells = [[_shorten(_cell(row.get(c))) for c in keys] for row in rows]
    widths = [max(len(c), *(len(line[i]) for line in cells)) for i, c in enumerate(columns)]
    lines = [
        "  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)).rstrip(),
        "  ".join("-" * w for w in widths),
    ]
    lines += [
        "  ".join(v.ljust(w) for v, w in zip(line, widths, strict=True)).rstrip() for line in cells
    ]
    lines.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(lines)


def _shorten(text: str) -> str:
    text = safe_text(" ".join(text.split()), keep="")
    return text if len(text) <= _CELL_WIDTH else text[: _CELL_WIDTH - 1] + "…"


def format_json(rows: Sequence[Mapping[str, Any]]) -> str:
    """Rows as a JSON array, one object per row with keys in RETURN order.

    >>> print(format_json([{"b": 1, "a": ["x"]}]))
    [
      {"b": 1, "a": ["x"]}
    ]
    """
    if not rows:
        return "[]"
    body = ",\n".join("  " + json.dumps(row, ensure_ascii=False) for row in rows)
    return f"[\n{body}\n]"


def format_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    """Rows as CSV with a header line (also with no rows, when they are :class:`Rows`);
    lists are joined with '; ', and values holding line breaks are quoted.

    >>> print(format_csv([{"name": "A, B", "papers": ["x", "y"]}]), end="")
    name,papers
    "A, B",x; y
    >>> format_csv([{"name": "A\\rB"}])
    'name\\n"A\\rB"\\n'
    >>> print(format_csv(Rows(["name", "papers"])), end="")
    name,papers
    """
    columns = _columns(rows)
    lines = [_csv_line(columns)]
    lines += [_csv_line([_cell(row.get(c)) for c in columns]) for row in rows]
    return "".join(lines)


def _csv_line(values: Sequence[str]) -> str:
    """One CSV line ending in a newline; a value holding a carriage return is quoted too
    (the csv module quotes only the characters of its line terminator)."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerow(values)
    return out.getvalue()[:-2] + "\n"


FORMATS: dict[str, Callable[[Sequence[Mapping[str, Any]]], str]] = {
    "table": format_table,
    "json": format_json,
    "csv": format_csv,
}
