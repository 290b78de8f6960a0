"""Write the graph for other tools: CSV files for ``neo4j-admin database import``, GraphML, GEXF.

The neo4j-admin files: one node file per primary label (``nodes-Paper.csv`` with a
``key:ID`` column, typed property columns and ``:LABEL``) and one relationship file per type
(``relationships-AUTHORED.csv`` with ``:START_ID``, ``:END_ID``, ``:TYPE``). List values
are joined with U+001F, given to neo4j-admin as ``--array-delimiter=U+001F``.
"""

import csv
import json
from pathlib import Path

import networkx as nx

from kg.errors import KgError
from kg.files import atomic_output
from kg.neo4j.push import NEO4J
from kg.neo4j.rows import column_type, node_rows, relationship_rows
from kg.schema import labels_of

FORMATS = ("neo4j-csv", "graphml", "gexf")
ARRAY_DELIMITER = "\x1f"
IMPORT_OPTIONS = (
    "--array-delimiter=U+001F",
    "--multiline-fields=true",
    "--overwrite-destination=true",
)


def cell(value, kind):
    """One CSV field for neo4j-admin: lists joined by U+001F, booleans lower case."""
    if value is None:
        return ""
    if isinstance(value, list):
        if any(ARRAY_DELIMITER in item for item in value):
            raise KgError(f"a list value holds U+001F, which neo4j-admin would split: {value!r}")
        return ARRAY_DELIMITER.join(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if kind else value


def header_and_columns(rows_props):
    """Property columns of a file: sorted names, each with its neo4j-admin type."""
    names = sorted({name for props in rows_props for name in props if name != "key"})
    types = {name: column_type([p[name] for p in rows_props if name in p]) for name in names}
    return [(name, types[name]) for name in names]


def _header(name, kind):
    return f"{name}:{kind}" if kind else name


def export_neo4j_csv(G, directory, *, import_dir=None):
    """Write node and relationship CSV files into ``directory``; returns the import command.

    ``import_dir`` is where neo4j-admin will see the files (e.g. ``/import`` in a container);
    by default ``directory`` itself.
    """
    directory = Path(directory)
    node_files, rel_files = [], []
    for kind, rows in sorted(node_rows(G).items()):
        columns = header_and_columns([props for _, props in rows])
        path = directory / f"nodes-{kind}.csv"
        with atomic_output(path, "the node file", newline="") as out:
            writer = csv.writer(out)
            writer.writerow(["key:ID"] + [_header(n, t) for n, t in columns] + [":LABEL"])
            labels = ARRAY_DELIMITER.join(labels_of(kind))
            for key, props in rows:
                writer.writerow([key] + [cell(props.get(n), t) for n, t in columns] + [labels])
        node_files.append(path)
    by_type = {}
    for (rel_type, _, _), rows in relationship_rows(G).items():
        by_type.setdefault(rel_type, []).extend(rows)
    for rel_type, rows in sorted(by_type.items()):
        columns = header_and_columns([props for _, _, props in rows])
        path = directory / f"relationships-{rel_type}.csv"
        with atomic_output(path, "the relationship file", newline="") as out:
            writer = csv.writer(out)
            writer.writerow([":START_ID", ":END_ID", ":TYPE"] + [_header(n, t) for n, t in columns])
            for src, dst, props in rows:
                writer.writerow([src, dst, rel_type] + [cell(props.get(n), t) for n, t in columns])
        rel_files.append(path)
    with atomic_output(directory / "constraints.cypher", "the constraints file") as out:
        out.write("".join(f"{statement};\n" for statement in NEO4J.key_schema_statements(set())))
    seen_at = Path(import_dir) if import_dir else directory
    command = import_command(
        [seen_at / p.name for p in node_files], [seen_at / p.name for p in rel_files]
    )
    with atomic_output(directory / "import-command.txt", "the import command file") as out:
        out.write(command + "\n")
    return command


def import_command(node_files, rel_files, *, database="neo4j"):
    """The ``neo4j-admin database import full`` command line for these files."""
    parts = ["neo4j-admin database import full", database]
    parts += [f"--nodes={path}" for path in node_files]
    parts += [f"--relationships={path}" for path in rel_files]
    return " ".join(parts + list(IMPORT_OPTIONS))


def plain_graph(G):
    """A copy whose attributes GraphML and GEXF can hold: no None, lists as JSON text."""

    def plain(attrs):
        return {
            name: json.dumps(value, ensure_ascii=False)
            if isinstance(value, list | tuple)
            else value
            for name, value in attrs.items()
            if value is not None
        }

    H = nx.MultiDiGraph(**plain(G.graph))
    H.add_nodes_from((key, plain(attrs)) for key, attrs in G.nodes(data=True))
    H.add_edges_from((u, v, k, plain(attrs)) for u, v, k, attrs in G.edges(keys=True, data=True))
    return H


def export_graph(G, output, *, format, import_dir=None):
    """Write ``G`` as ``format`` (one of :data:`FORMATS`) to ``output`` (a directory for CSV).

    Returns the neo4j-admin command for ``neo4j-csv``, else None.
    """
    if format == "neo4j-csv":
        return export_neo4j_csv(G, output, import_dir=import_dir)
    if format not in FORMATS:
        raise KgError(f"unknown export format {format!r}; choose from {', '.join(FORMATS)}")
    writer = nx.write_graphml if format == "graphml" else nx.write_gexf
    with atomic_output(output, f"the {format} file", binary=True) as out:
        writer(plain_graph(G), out)
    return None
