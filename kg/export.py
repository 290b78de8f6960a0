"""Write the graph for other tools: CSV files for ``neo4j-admin database import``, GraphML, GEXF.

Every format is written from the neutral rows of :mod:`kg.rows`.

The neo4j-admin files: one node file per primary label (``nodes-Paper.csv`` with a
``key:ID`` column, typed property columns and ``:LABEL``) and one relationship file per type
(``relationships-AUTHORED.csv`` with ``:START_ID``, ``:END_ID``, ``:TYPE``). List values
are joined with U+001F, given to neo4j-admin as ``--array-delimiter=U+001F``.

Text holding characters the files cannot carry (XML 1.0 has no way to write NUL and most C0
controls, even as references; U+001F is the CSV files' array delimiter) is written with
U+FFFD in their place, and one :class:`kg.errors.KgNote` says how many values changed.
"""

import csv
import json
import os
import re
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import networkx as nx

from kg.errors import KgError, KgNote, OutputError
from kg.files import atomic_output, partly_written
from kg.neo4j.connection import NEO4J
from kg.rows import (
    Value,
    by_group,
    by_kind,
    node_rows,
    relationship_rows,
    sorted_rows,
    typed_columns,
)

FORMATS = ("neo4j-csv", "graphml", "gexf")
ARRAY_DELIMITER = "\x1f"
IMPORT_OPTIONS = (
    "--array-delimiter=U+001F",
    "--multiline-fields=true",
    "--overwrite-destination=true",
)


#: C0 controls but tab, newline and carriage return; lone surrogates; U+FFFE and U+FFFF.
UNWRITABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


class Cleaner:
    """Text with U+FFFD for each :data:`UNWRITABLE` character; counts the values it changed.

    >>> clean = Cleaner()
    >>> clean("a\\x00b") == "a\\ufffdb", clean(["x", "\\x1f"]) == ["x", "\\ufffd"], clean(3)
    (True, True, 3)
    >>> clean.changed
    2
    """

    def __init__(self) -> None:
        self.changed = 0

    def __call__(self, value: Any) -> Any:
        if isinstance(value, str):
            if UNWRITABLE.search(value) is None:
                return value
            self.changed += 1
            return UNWRITABLE.sub("\ufffd", value)
        if isinstance(value, list):
            return [self(item) for item in value]
        return value

    def note(self, what: str) -> None:
        """Say once, as a KgNote, how many values were changed (nothing if none)."""
        self.changed_note(self.changed, what)

    @staticmethod
    def changed_note(changed: int, what: str) -> None:
        """Say, as a KgNote, that ``changed`` values were cleaned for ``what`` (if any)."""
        if changed:
            warnings.warn(
                KgNote(
                    f"{changed:,} values held control characters (such as NUL) that "
                    f"{what} cannot carry; written with U+FFFD in their place"
                ),
                stacklevel=4,
            )


def cell(value: Value | None) -> str:
    """One CSV field for neo4j-admin: lists joined by U+001F, booleans lower case."""
    if value is None:
        return ""
    if isinstance(value, list):
        if any(ARRAY_DELIMITER in item for item in value):
            raise KgError(f"a list value holds U+001F, which neo4j-admin would split: {value!r}")
        return ARRAY_DELIMITER.join(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def header_cell(name: str, kind: str) -> str:
    """A column's header cell: ``name:type``, or ``name`` for strings."""
    return f"{name}:{kind}" if kind else name


def export_neo4j_csv(
    G: nx.MultiDiGraph, directory: str | os.PathLike, *, import_dir: str | None = None
) -> str:
    """Write node and relationship CSV files into ``directory``; returns the import command.

    Each file is whole once written; a failure part way (a full disk) says which were written.

    ``import_dir`` is where neo4j-admin will see the files (e.g. ``/import`` in a container);
    by default ``directory`` itself.
    """
    directory = Path(directory)
    clean = Cleaner()
    nodes_by_kind = sorted(by_kind(sorted_rows(node_rows(G))).items())
    by_type: dict[str, list] = {}
    for (rel_type, _, _), group in by_group(sorted_rows(relationship_rows(G))).items():
        by_type.setdefault(rel_type, []).extend(group)
    node_files = [directory / f"nodes-{kind}.csv" for kind, _ in nodes_by_kind]
    rel_files = [directory / f"relationships-{rel_type}.csv" for rel_type in sorted(by_type)]
    extra = [directory / "constraints.cypher", directory / "import-command.txt"]
    seen_at = Path(import_dir) if import_dir else directory
    command = import_command(
        [seen_at / p.name for p in node_files], [seen_at / p.name for p in rel_files]
    )
    written: list[Path] = []
    try:
        for path, (_, nodes) in zip(node_files, nodes_by_kind, strict=True):
            columns = typed_columns([row.props for row in nodes])
            with atomic_output(path, "the node file", newline="") as out:
                writer = csv.writer(out)
                writer.writerow(["key:ID"] + [header_cell(n, t) for n, t in columns] + [":LABEL"])
                labels = ARRAY_DELIMITER.join(nodes[0].labels)
                for node in nodes:
                    cells = [cell(clean(node.props.get(n))) for n, _ in columns]
                    writer.writerow([clean(node.key)] + cells + [labels])
            written.append(path)
        for path, (rel_type, rels) in zip(rel_files, sorted(by_type.items()), strict=True):
            columns = typed_columns([row.props for row in rels])
            with atomic_output(path, "the relationship file", newline="") as out:
                writer = csv.writer(out)
                writer.writerow(
                    [":START_ID", ":END_ID", ":TYPE"] + [header_cell(n, t) for n, t in columns]
                )
                for rel in rels:
                    cells = [cell(clean(rel.props.get(n))) for n, _ in columns]
                    writer.writerow([clean(rel.start), clean(rel.end), rel_type] + cells)
            written.append(path)
        with atomic_output(extra[0], "the constraints file") as out:
            out.write("".join(f"{s};\n" for s in NEO4J.key_schema_statements(set())))
        written.append(extra[0])
        with atomic_output(extra[1], "the import command file") as out:
            out.write(command + "\n")
    except OutputError as exc:
        raise partly_written(exc, written, [*node_files, *rel_files, *extra]) from None
    clean.note("the neo4j-admin CSV files")
    return command


def import_command(
    node_files: Sequence[str | Path], rel_files: Sequence[str | Path], *, database: str = "neo4j"
) -> str:
    """The ``neo4j-admin database import full`` command line for these files (each a path,
    or a header file's path and its data files', joined by commas)."""
    parts = ["neo4j-admin database import full", database]
    parts += [f"--nodes={path}" for path in node_files]
    parts += [f"--relationships={path}" for path in rel_files]
    return " ".join(parts + list(IMPORT_OPTIONS))


def _plain(attrs: dict[str, Any], clean: Cleaner) -> dict[str, Any]:
    """Attributes GraphML and GEXF can hold: no None, lists as JSON text, text cleaned."""
    return {
        name: clean(json.dumps(value, ensure_ascii=False) if type(value) is list else value)
        for name, value in attrs.items()
        if value is not None
    }


#: Relationship properties renamed in GraphML and GEXF: GEXF reads ``start`` and ``end`` as
#: a time interval, and the evidence offsets are not one.
RENAMED = {"start": "evidence_start", "end": "evidence_end"}


def plain_graph(G: nx.MultiDiGraph, clean: Cleaner | None = None) -> nx.MultiDiGraph:
    """A graph of the rows of ``G`` for GraphML and GEXF: per node ``label`` (its readable
    name, as on the pages), ``kind`` and properties; per relationship ``label`` (its type)
    and properties, the evidence offsets as ``evidence_start``/``evidence_end``. Keys and
    text pass through ``clean`` (a :class:`Cleaner`, by default a new one).

    A paper's own short label is ``paper_label``. A node's attributes are in name order (as
    a graph file loads them), a relationship's in the graph's order.
    """
    from kg.viz.text import full_name  # the pages' names; kg.viz is loaded only when used

    clean = Cleaner() if clean is None else clean
    H: nx.MultiDiGraph = nx.MultiDiGraph(**_plain(G.graph, clean))
    H.add_nodes_from(
        (
            clean(node.key),
            {
                "label": clean(full_name(G, node.key)),
                **_plain(
                    dict(
                        sorted(
                            [
                                ("kind", node.kind),
                                *(
                                    ("paper_label" if name == "label" else name, value)
                                    for name, value in node.props.items()
                                ),
                            ]
                        )
                    ),
                    clean,
                ),
            },
        )
        for node in node_rows(G)
    )
    for rel in relationship_rows(G):
        props = {RENAMED.get(name, name): value for name, value in rel.props.items()}
        H.add_edge(
            clean(rel.start), clean(rel.end), rel.type, label=rel.type, **_plain(props, clean)
        )
    return H


def export_graph(
    G: nx.MultiDiGraph,
    output: str | os.PathLike,
    *,
    format: str,
    import_dir: str | None = None,
) -> str | None:
    """Write ``G`` as ``format`` (one of :data:`FORMATS`) to ``output`` (a directory for CSV).

    Returns the neo4j-admin command for ``neo4j-csv``, else None.
    """
    if format == "neo4j-csv":
        return export_neo4j_csv(G, output, import_dir=import_dir)
    if format not in FORMATS:
        raise KgError(f"unknown export format {format!r}; choose from {', '.join(FORMATS)}")
    clean = Cleaner()
    H = plain_graph(G, clean)
    with atomic_output(output, f"the {format} file", binary=True) as out:
        if format == "graphml":
            nx.write_graphml(H, out)
        else:
            H.graph["mode"] = "static"
            nx.write_gexf(H, out)
    clean.note(f"{format} (XML 1.0)")
    return None
