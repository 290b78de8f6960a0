"""Query rows as text: an aligned table, a JSON array or CSV."""

import csv
import io
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

_CELL_WIDTH = 60


def render(rows: Sequence[Mapping[str, Any]], fmt: str = "table") -> str:
    """Rows as text in one of FORMATS (table, json, csv), ending with a newline."""
    text = FORMATS[fmt](rows)
    return text if text.endswith("\n") else text + "\n"


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


def _columns(rows: Iterable[Mapping[str, Any]]) -> list[str]:
    columns: list[str] = []
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
    columns = _columns(rows)
    cells = [[_shorten(_cell(row.get(c))) for c in columns] for row in rows]
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
    text = " ".join(text.split())
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
    """Rows as CSV with a header line; lists are joined with '; '.

    >>> print(format_csv([{"name": "A, B", "papers": ["x", "y"]}]), end="")
    name,papers
    "A, B",x; y
    """
    out = io.StringIO()
    columns = _columns(rows)
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row.get(c)) for c in columns])
    return out.getvalue()


FORMATS: dict[str, Callable[[Sequence[Mapping[str, Any]]], str]] = {
    "table": format_table,
    "json": format_json,
    "csv": format_csv,
}
