"""Query rows as text: an aligned table, a JSON array or CSV.

A table is for reading, so its cells are always made safe for a terminal; JSON and CSV are
data, kept exact unless they go to a terminal (``terminal=True``).
"""

import csv
import io
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from kg.cells import cells, cut, pad, shorten, wrap
from kg.schema import CONCEPT, PAPER, paper_name
from kg.terminal import safe_json, safe_text

#: A node as plain data: its properties and, under this name, its labels.
LABELS = "_labels"
#: A relationship as plain data: its properties and, under this name, its type.
TYPE = "_type"
#: Lines a wrapped table cell takes at most (the rest is cut, with an ellipsis).
CELL_LINES = 3
#: A column narrower than this is not shrunk; when the columns do not fit even so, each
#: row is shown as lines of ``column: value``.
MIN_COLUMN = 10
GAP = "  "
#: A paper's name in a table is cut to this many cells (at a word).
PAPER_CELLS = 60


def node_value(labels: Iterable[str], properties: Mapping[str, Any]) -> dict[str, Any]:
    """A node as plain data: ``{"_labels": [...], **properties}``, its kind first (as
    :func:`kg.schema.labels_of` lists them).

    >>> node_value(["Concept", "Method"], {"key": "method:grpo"})
    {'_labels': ['Method', 'Concept'], 'key': 'method:grpo'}
    """
    return {LABELS: sorted(labels, key=lambda label: (label == CONCEPT, label)), **properties}


def relationship_value(type_: str, properties: Mapping[str, Any]) -> dict[str, Any]:
    """A relationship as plain data: ``{"_type": ..., **properties}``."""
    return {TYPE: type_, **properties}


def render(
    rows: Sequence[Mapping[str, Any]],
    fmt: str = "table",
    *,
    terminal: bool = False,
    width: int | None = None,
    keys: bool = True,
    names: Mapping[str, str] | None = None,
) -> str:
    """Rows as text in one of FORMATS (table, json, csv), ending with a newline; with
    ``terminal``, JSON and CSV are made safe to show (JSON keeps its values). A table is
    fitted to ``width`` cells, leaves out key columns unless ``keys``, and shows the
    values that ``names`` maps (paper keys to readable names) as those names.

    >>> print(render([{"name": "A\\x1b]0;x\\x07"}], "csv", terminal=True), end="")
    name
    A\\x1b]0;x\\x07
    """
    if fmt == "table":
        return format_table(rows, width=width, keys=keys, names=names) + "\n"
    text = FORMATS[fmt](rows)
    text = text if text.endswith("\n") else text + "\n"
    if terminal and fmt == "json":
        return safe_json(text)
    return safe_text(text) if terminal and fmt == "csv" else text


def _cell(value: object, names: Mapping[str, str] | None = None) -> str:
    """A value as the text of a table or CSV cell (``names``: what to show for a key)."""
    if value is None:
        return ""
    if isinstance(value, list):
        return "; ".join(_cell(v, names) for v in value)
    if isinstance(value, dict):
        if LABELS in value or TYPE in value:
            return _entity_cell(value, names or {})
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    if isinstance(value, bool):
        return "true" if value else "false"
    if names and isinstance(value, str):
        return names.get(value, value)
    return str(value)


def _entity_cell(value: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """A node as ``(:Label) name``, a relationship as ``[:TYPE] text``.

    >>> _entity_cell({LABELS: ["Paper"], "key": "paper:1", "abstract": "We do X. Then Y."}, {})
    '(:Paper) We do X.'
    >>> _entity_cell({TYPE: "USES", "text": "GRPO", "start": 3}, {})
    '[:USES] GRPO'
    """
    if TYPE in value:
        return " ".join(filter(None, [f"[:{value[TYPE]}]", _cell(value.get("text"))]))
    labels = value[LABELS]
    key = value.get("key")
    name = value.get("name") or (shorten(paper_name(value), PAPER_CELLS) if PAPER in labels else "")
    name = names.get(key, "") if not name and isinstance(key, str) else name
    return " ".join(filter(None, ["(" + "".join(f":{label}" for label in labels) + ")", name]))


def is_key_column(column: str) -> bool:
    """Whether a column holds keys (``key``, ``method_key``, ``p.key``): hidden unless asked.

    >>> [is_key_column(c) for c in ("key", "target_key", "p.key", "keys", "monkey")]
    [True, True, True, False, False]
    """
    return column == "key" or column.endswith(("_key", ".key"))


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


def format_table(
    rows: Sequence[Mapping[str, Any]],
    *,
    width: int | None = None,
    keys: bool = True,
    names: Mapping[str, str] | None = None,
) -> str:
    """Rows as an aligned text table of at most ``width`` cells a line: the widest columns
    are narrowed and their cells wrapped (to CELL_LINES lines, then cut); when even narrow
    columns do not fit, each row is a block of ``column: value`` lines. Key columns are
    left out unless ``keys`` (or unless nothing else is left); values in ``names`` (paper
    keys) are shown by name, except in key columns.

    >>> print(format_table([{"name": "Rémi Munos", "shared": 2}, {"name": "王小明", "shared": 10}]))
    name        shared
    ----------  ------
    Rémi Munos  2
    王小明      10
    (2 rows)
    >>> rows = [{"paper": "paper:1", "key": "paper:1", "about": "a b c d e f g h i j k l m n"}]
    >>> print(format_table(rows, width=24, keys=False, names={"paper:1": "We study X."}))
    paper        about
    -----------  -----------
    We study X.  a b c d e f
                 g h i j k l
                 m n
    (1 row)
    """
    if not rows:
        return "(no rows)"
    columns = _columns(rows)
    if not keys:
        columns = [c for c in columns if not is_key_column(c)] or columns
    header = [_clean(c) for c in columns]
    body = [
        [_clean(_cell(row.get(c), None if is_key_column(c) else names)) for c in columns]
        for row in rows
    ]
    natural = [max(cells(h), *(cells(line[i]) for line in body)) for i, h in enumerate(header)]
    widths = (
        natural if width is None else fit_widths(natural, width - len(GAP) * (len(natural) - 1))
    )
    footer = f"({len(rows)} row{'s' if len(rows) != 1 else ''})"
    if widths is None:
        return "\n".join([*_blocks(header, body, width or 0), footer])
    lines = _table_line(header, widths) + ["  ".join("-" * w for w in widths)]
    for line in body:
        lines += _table_line(line, widths)
    return "\n".join([*lines, footer])


def fit_widths(natural: Sequence[int], room: int) -> list[int] | None:
    """Column widths that fit in ``room`` cells: the widest columns narrowed to one cap,
    as wide as fits; None when even MIN_COLUMN wide they do not.

    >>> fit_widths([5, 40, 30], 50), fit_widths([5, 40], 80), fit_widths([30] * 9, 60)
    ([5, 23, 22], [5, 40], None)
    """
    if sum(natural) <= room:
        return list(natural)
    floor = [min(w, MIN_COLUMN) for w in natural]
    if sum(floor) > room:
        return None
    low, high = MIN_COLUMN, max(natural)  # the widest cap that fits
    while low < high:
        mid = (low + high + 1) // 2
        if sum(min(w, mid) for w in natural) <= room:
            low = mid
        else:
            high = mid - 1
    widths = [min(w, low) for w in natural]
    spare = room - sum(widths)
    for i, w in enumerate(natural):  # cells left over go to the narrowed columns, in order
        if w > widths[i] and spare:
            widths[i] += 1
            spare -= 1
    return widths


def _table_line(values: Sequence[str], widths: Sequence[int]) -> list[str]:
    """One table row as lines: each value wrapped to its column's width."""
    wrapped = [_wrapped(v, w) for v, w in zip(values, widths, strict=True)]
    height = max(len(w) for w in wrapped)
    return [
        GAP.join(
            pad(w[i] if i < len(w) else "", width) for w, width in zip(wrapped, widths, strict=True)
        ).rstrip()
        for i in range(height)
    ]


def _wrapped(text: str, width: int) -> list[str]:
    """``text`` wrapped to ``width`` cells in CELL_LINES lines at most (the last one cut)."""
    lines = wrap(text, width)
    if len(lines) <= CELL_LINES:
        return lines
    return [*lines[: CELL_LINES - 1], cut(" ".join(lines[CELL_LINES - 1 :]), width)]


def _blocks(header: Sequence[str], body: Sequence[Sequence[str]], width: int) -> list[str]:
    """Each row as a block of ``column: value`` lines, values wrapped to ``width``.

    >>> print("\\n".join(_blocks(["a", "bb"], [["x y z w v u t", "w"]], 14)))
    -- row 1
    a   x y z w v
        u t
    bb  w
    """
    label = min(max(cells(h) for h in header), max(width // 3, 1))
    room = max(width - label - len(GAP), MIN_COLUMN)
    lines = []
    for number, values in enumerate(body, 1):
        lines.append(f"-- row {number}")
        for name, value in zip(header, values, strict=True):
            wrapped = _wrapped(value, room)
            lines.append(f"{pad(cut(name, label), label)}{GAP}{wrapped[0]}".rstrip())
            lines += [f"{' ' * label}{GAP}{more}" for more in wrapped[1:]]
    return lines


def _clean(text: str) -> str:
    """A cell's text on one line, safe for a terminal."""
    return safe_text(" ".join(text.split()), keep="")


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
