"""A folder of neo4j-admin import files read back as rows: those ``kg build
--neo4j-import`` writes (a header file per kind and type, data files without one) and
those ``kg export --format neo4j-csv`` writes (one file each, its header its first line).

For checking the files (a test, ``kg push --import``): the rows come back typed as the
headers say, so they compare equal to :func:`kg.rows.node_rows` of the graph they came from.
"""

import csv
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from kg.errors import InputError
from kg.export import ARRAY_DELIMITER
from kg.rows import NodeRow, Props, RelationshipRow, Value

_FILES = re.compile(r"--(nodes|relationships)=(\S+)")


def read_import_folder(directory: str | Path) -> tuple[list[NodeRow], list[RelationshipRow]]:
    """Every node and relationship row of the files ``import-command.txt`` in ``directory``
    names (its paths taken relative to the folder)."""
    directory = Path(directory)
    try:
        command = (directory / "import-command.txt").read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{directory}: no import-command.txt ({exc.strerror})") from None
    nodes: list[NodeRow] = []
    rels: list[RelationshipRow] = []
    found = _FILES.findall(command)
    for files in (files for what, files in found if what == "nodes"):
        for (key, *cells, labels), header in _rows(directory, files):
            kind = labels.split(ARRAY_DELIMITER)[0]
            nodes.append(NodeRow(key, kind, _props(header[1:-1], cells)))
    kind_of = {row.key: row.kind for row in nodes}
    for files in (files for what, files in found if what == "relationships"):
        for (start, end, rel_type, *cells), header in _rows(directory, files):
            props = _props(header[3:], cells)
            rels.append(RelationshipRow(rel_type, start, kind_of[start], end, kind_of[end], props))
    return nodes, rels


def _rows(directory: Path, files: str) -> Iterator[tuple[list[str], list[str]]]:
    """(cells, header) of each data line of one file set (paths joined by commas, taken
    by name in ``directory``): its first file's first line is the header."""
    csv.field_size_limit(sys.maxsize)
    header: list[str] | None = None
    for path in (directory / Path(f).name for f in files.split(",")):
        with open(path, encoding="utf-8", newline="") as f:
            for line in csv.reader(f):
                if header is None:
                    header = line
                else:
                    yield line, header


def _props(header: list[str], cells: list[str]) -> Props:
    props: Props = {}
    for column, text in zip(header, cells, strict=True):
        if text == "":
            continue
        name, _, kind = column.partition(":")
        props[name] = _value(text, kind)
    return props


def _value(text: str, kind: str) -> Value:
    if kind == "int":
        return int(text)
    if kind == "float":
        return float(text)
    if kind == "boolean":
        return text == "true"
    if kind == "string[]":
        return text.split(ARRAY_DELIMITER)
    return text
