"""The CSV files of a folder of ``neo4j-admin`` import files: each file's columns (a summary
merged across partitions), the data files of a partition's or a bucket's rows, and the
header files, constraints and command that name them."""

import csv
from pathlib import Path

from kg import schema as S
from kg.export import ARRAY_DELIMITER, Cleaner, cell, header_cell, import_command
from kg.files import atomic_output
from kg.neo4j.connection import NEO4J
from kg.rows import Props
from kg.scale.partitioned import Rows

#: {("node", kind) or ("relationship", type): {property: the Python types of its values}}.
Columns = dict[tuple[str, str], dict[str, set[type]]]


def columns_of(rows: Rows) -> Columns:
    """The properties of some rows and the types of their values, by file."""
    found: Columns = {}
    groups = [(("node", k), [r.props for r in rs]) for k, rs in rows.nodes.items()]
    groups += [(("relationship", t), [r.props for r in rs]) for t, rs in rows.relationships.items()]
    for group, props in groups:
        into = found.setdefault(group, {})
        for row in props:
            for name, value in row.items():
                into.setdefault(name, set()).add(type(value))
    return found


def merge_columns(a: Columns, b: Columns) -> Columns:
    """Both files' columns (a new summary)."""
    total = {group: {n: set(t) for n, t in cols.items()} for group, cols in a.items()}
    for group, cols in b.items():
        into = total.setdefault(group, {})
        for name, kinds_ in cols.items():
            into.setdefault(name, set()).update(kinds_)
    return total


#: {group: [(property, neo4j-admin type)]}: each file's columns, names sorted.
Headers = dict[tuple[str, str], list[tuple[str, str]]]


def write_rows(rows: Rows, headers: Headers, directory: str, suffix: str) -> tuple[list, int]:
    """Write one partition's (or bucket's) rows, one file per kind and type without a header
    line; ([(group, file name)], values cleaned)."""
    clean = Cleaner()
    written = []
    for kind, nodes in sorted(rows.nodes.items()):
        group = ("node", kind)
        name = f"nodes-{kind}-{suffix}.csv"
        labels = ARRAY_DELIMITER.join(S.labels_of(kind))
        with atomic_output(Path(directory, name), "the node file", newline="") as out:
            writer = csv.writer(out)
            for node in nodes:
                cells = _cells(node.props, headers[group], clean)
                writer.writerow([clean(node.key), *cells, labels])
        written.append((group, name))
    for rel_type, rels in sorted(rows.relationships.items()):
        group = ("relationship", rel_type)
        name = f"relationships-{rel_type}-{suffix}.csv"
        with atomic_output(Path(directory, name), "the relationship file", newline="") as out:
            writer = csv.writer(out)
            for rel in rels:
                cells = _cells(rel.props, headers[group], clean)
                writer.writerow([clean(rel.start), clean(rel.end), rel_type, *cells])
        written.append((group, name))
    return written, clean.changed


def _cells(props: Props, columns: list[tuple[str, str]], clean: Cleaner) -> list[str]:
    return [cell(clean(props.get(name))) for name, _ in columns]


def header_files(
    staging: Path, headers: Headers, by_group: dict[tuple[str, str], list[str]], seen_at: str
) -> str:
    """Write one header file per kind and type, the constraints and the command; return it."""
    nodes: list[str] = []
    rels: list[str] = []
    for (what, name), columns in sorted(headers.items()):
        typed = [header_cell(n, t) for n, t in columns]
        if what == "node":
            header = f"nodes-{name}-header.csv"
            line = ["key:ID", *typed, ":LABEL"]
        else:
            header = f"relationships-{name}-header.csv"
            line = [":START_ID", ":END_ID", ":TYPE", *typed]
        with atomic_output(staging / header, "a header file", newline="") as out:
            csv.writer(out).writerow(line)
        files = ",".join(f"{seen_at}/{f}" for f in [header, *sorted(by_group[(what, name)])])
        (nodes if what == "node" else rels).append(files)
    with atomic_output(staging / "constraints.cypher", "the constraints file") as out:
        out.write("".join(f"{s};\n" for s in NEO4J.key_schema_statements(set())))
    command = import_command(nodes, rels)
    with atomic_output(staging / "import-command.txt", "the import command file") as out:
        out.write(command + "\n")
    return command
