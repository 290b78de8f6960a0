"""A folder of neo4j-admin import files read back as rows: those ``kg build
--neo4j-import`` writes (a header file per kind and type, data files without one) and
those ``kg export --format neo4j-csv`` writes (one file each, its header its first line).

For checking the files (a test, ``kg push --import``): the rows come back typed as the
headers say, so they compare equal to :func:`kg.rows.node_rows` of the graph they came from.
"""

import csv
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from kg.errors import InputError
from kg.export import ARRAY_DELIMITER
from kg.neo4j.push_plan import kind_of_key
from kg.rows import NodeRow, Props, RelationshipRow, Value

_FILES = re.compile(r"--(nodes|relationships)=(\S+)")


#: A data file of one partition (``-p00003``) or bucket (``-b0002``) of an import build.
_UNIT = re.compile(r"-(p\d+|b\d+)\.csv$")


@dataclass(frozen=True)
class ImportUnit:
    """The rows of one partition or bucket of a folder (or of a whole folder whose files are
    not split so): its files, each beside the file whose first line is its header."""

    nodes_files: tuple[tuple[Path, Path], ...]
    relationship_files: tuple[tuple[Path, Path], ...]

    def counts(self) -> tuple[int, int]:
        """How many node and relationship rows the unit's files hold."""
        return (
            sum(1 for _ in _lines(self.nodes_files)),
            sum(1 for _ in _lines(self.relationship_files)),
        )

    def nodes(self) -> list[NodeRow]:
        return [
            NodeRow(key, labels.split(ARRAY_DELIMITER)[0], _props(header[1:-1], cells))
            for (key, *cells, labels), header, _ in _lines(self.nodes_files)
        ]

    def relationships(self) -> list[RelationshipRow]:
        rels = []
        for (start, end, rel_type, *cells), header, path in _lines(self.relationship_files):
            start_kind, end_kind = kind_of_key(start), kind_of_key(end)
            if start_kind is None or end_kind is None:
                raise InputError(f"{path}: {start!r} -> {end!r} names a node kind kg does not have")
            props = _props(header[3:], cells)
            rels.append(RelationshipRow(rel_type, start, start_kind, end, end_kind, props))
        return rels


def import_units(directory: str | Path) -> list[ImportUnit]:
    """The units of the files ``import-command.txt`` in ``directory`` names (its paths taken
    relative to the folder): one per partition and bucket of an import build, in file order;
    one for a folder whose files are not all so named (``kg export``'s)."""
    directory = Path(directory)
    try:
        command = (directory / "import-command.txt").read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{directory}: no import-command.txt ({exc.strerror})") from None
    files: dict[str, list[tuple[Path, Path]]] = {"nodes": [], "relationships": []}
    for what, names in _FILES.findall(command):
        paths = [directory / Path(name).name for name in names.split(",")]
        header = paths[0]
        files[what].extend((header, path) for path in paths[1:] or paths)
    found = {path: _UNIT.search(path.name) for pairs in files.values() for _, path in pairs}
    suffix = {path: match.group(1) for path, match in found.items() if match}
    if len(suffix) < len(found):
        return [ImportUnit(tuple(files["nodes"]), tuple(files["relationships"]))]
    units: dict[str, dict[str, list[tuple[Path, Path]]]] = {}
    for what, pairs in files.items():
        for header, path in pairs:
            into = units.setdefault(suffix[path], {"nodes": [], "relationships": []})
            into[what].append((header, path))
    return [
        ImportUnit(tuple(unit["nodes"]), tuple(unit["relationships"]))
        for _, unit in sorted(units.items())
    ]


def read_import_folder(directory: str | Path) -> tuple[list[NodeRow], list[RelationshipRow]]:
    """Every node and relationship row of the files ``import-command.txt`` in ``directory``
    names."""
    nodes: list[NodeRow] = []
    rels: list[RelationshipRow] = []
    for unit in import_units(directory):
        nodes += unit.nodes()
        rels += unit.relationships()
    return nodes, rels


def _lines(files: Iterable[tuple[Path, Path]]) -> Iterator[tuple[list[str], list[str], Path]]:
    """(cells, header, file) of each data line of ``files`` (header file, data file): a
    header file's first line is its header, and a data file that is its own header file
    holds data from its second line."""
    csv.field_size_limit(sys.maxsize)
    headers: dict[Path, list[str]] = {}
    for header_file, path in files:
        if header_file not in headers:
            with open(header_file, encoding="utf-8", newline="") as f:
                headers[header_file] = next(csv.reader(f))
        header = headers[header_file]
        with open(path, encoding="utf-8", newline="") as f:
            reader = csv.reader(f)
            if path == header_file:
                next(reader)
            for line in reader:
                yield line, header, path


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
