"""FalkorDB's packed rows: what the push sends a server that parses list parameters slowly.

Used only behind the FalkorDB dialect (``Dialect.packed_rows``). Each row travels as one
string of typed fields, the batch as one string, split by the statement. Packed
relationships sharing an endpoint travel as one line per endpoint, and texts cut from the
source Paper's abstract (evidence) as offsets into it. Rows that cannot be packed (a
property mixing types, a text holding a packing mark) go as lists (:mod:`kg.neo4j.cypher`).
"""

import re
from collections.abc import Callable, Sequence
from decimal import Decimal
from operator import itemgetter
from typing import Any, Protocol

from kg.neo4j import cypher
from kg.neo4j.batches import fitted_batches
from kg.rows import column_type

#: Separators of packed rows: fields, rows, list items; and the mark of a missing value.
FIELD, RECORD, ITEM, NULL = "\x1f", "\x1e", "\x1d", "\x1a"
#: Separator of the relationships in a grouped line (relationships sharing an endpoint).
EDGE = "\x1c"
PACKING_MARKS = (FIELD, RECORD, ITEM, NULL, EDGE)
_PACKING_MARK = re.compile("[" + "".join(PACKING_MARKS) + "]")
#: The source node property that packed ``slice`` columns are cut from.
SLICED_PROPERTY = "abstract"


def key_prefix(kind: str) -> str:
    """What every key of this kind starts with: ``Author`` -> ``author:``."""
    return f"{cypher.label(kind).lower()}:"


def decimal_kind(values: Sequence[float]) -> str | None:
    """``decimalN`` when every float is an integer over 10**N exactly (so it survives packing).

    Packed floats travel as integers: ``toFloat`` on some servers parses only to single
    precision, while an integer divided by a power of ten is exact within 2**53.

    >>> decimal_kind([0.9, 2.0, 0.125]), decimal_kind([0.1 + 0.2])
    ('decimal3', None)
    """
    distinct = set(values)
    exponents = [Decimal(repr(float(value))).as_tuple().exponent for value in distinct]
    whole = [e for e in exponents if isinstance(e, int)]
    if len(whole) < len(exponents):
        return None
    scale = max(0, -min(whole))
    if scale > 15 or any(abs(_scaled(value, scale)) >= 2**53 for value in distinct):
        return None
    return f"decimal{scale}"


def _scaled(value: float, scale: int) -> int:
    return int(Decimal(repr(float(value))).scaleb(scale))


def packed_columns(
    rows: list[list], key_kinds: Sequence[str], *, source_texts: dict[str, str] | None = None
) -> list[tuple[str, str]] | None:
    """Typed property columns ``[(name, type)]`` to pack these rows, or None if they cannot be.

    ``key_kinds`` are the kinds of the rows' leading key fields (one for nodes, two for
    relationships); keys travel without their ``<kind>:`` prefix and a node's ``key``
    property is rebuilt from its key. A type ending in ``?`` is missing from some rows.
    Rows cannot be packed when a property mixes types, a text holds a packing mark or a
    key lacks its prefix. With ``source_texts`` (a relationship source's key to its
    ``abstract``, already on the server), a text column found in every row's source text
    is a ``slice``: it travels as offsets and the server cuts it from the abstract; one that
    is exactly the source text between the ``start`` and ``end`` columns is a ``span`` and
    travels as nothing.

    >>> packed_columns([["method:a", {"key": "method:a", "n": 1, "t": "x"}],
    ...                 ["method:b", {"key": "method:b", "n": 2, "s": 0.25}]], ("Method",))
    [('n', 'int'), ('s', 'decimal2?'), ('t', '?')]
    >>> packed_columns([["method:a", {"n": 1}], ["method:b", {"n": "x"}]], ("Method",)) is None
    True
    """
    n_keys = len(key_kinds)
    texts = []  # every text the rows would carry, to look for packing marks in
    for i, prefix in enumerate(key_prefix(kind) for kind in key_kinds):
        keys = [row[i] for row in rows]
        if not all(key.startswith(prefix) for key in keys):
            return None
        texts.append("".join(keys))
    props = [row[n_keys] for row in rows]
    columns = []
    for name in sorted(set().union(*props) - {"key"}):
        values = [p[name] for p in props if name in p]
        kind = column_type(values)
        if kind == "" and not all(isinstance(value, str) for value in values):
            return None
        if kind == "float":
            decimal = decimal_kind(values)
            if decimal is None:
                return None
            kind = decimal
        if kind == "":
            texts.append("".join(values))
        elif kind == "string[]":
            texts.append("".join(item for value in values for item in value))
        if kind == "" and source_texts:
            if _is_span(rows, name, source_texts):
                kind = "span"
            elif _slices_shorter(rows, name, source_texts):
                kind = "slice"
        columns.append((name, kind + ("?" if len(values) < len(props) else "")))
    if any(kind.startswith("span") for _, kind in columns) and not {
        ("start", "int"),
        ("end", "int"),
    } <= set(columns):
        columns = [(name, kind.replace("span", "slice")) for name, kind in columns]
    if _PACKING_MARK.search("".join(texts)):
        return None
    return columns


def _is_span(rows: list[list], name: str, source_texts: dict[str, str]) -> bool:
    """Whether every value of the column is its row's source text from ``start`` to ``end``."""
    for row in rows:
        props = row[-1]
        value = props.get(name)
        if value is not None:
            start, end = props.get("start"), props.get("end")
            if not (
                isinstance(start, int)
                and isinstance(end, int)
                and source_texts.get(row[0], "")[start:end] == value
            ):
                return False
    return True


def _slices_shorter(rows: list[list], name: str, source_texts: dict[str, str]) -> bool:
    """Whether every value of the column is in its row's source text, and offsets are shorter."""
    saved = 0
    for row in rows:
        value = row[-1].get(name)
        if value is not None:
            start = source_texts.get(row[0], "").find(value)
            if start < 0:
                return False
            saved += len(value) - len(f"{start},{len(value)}")
    return saved > 0


def slice_field(text: str, value: str) -> str:
    """``value`` as ``start,length`` in ``text`` (code points, as the server's ``substring``).

    >>> slice_field("we use BERT here", "BERT")
    '7,4'
    """
    return f"{text.index(value)},{len(value)}"


def pack_row(row: list, key_kinds: Sequence[str], columns: list[tuple[str, str]]) -> str:
    """One row as a string of fields; see :func:`decode_field` for the reverse.

    >>> pack_row(["author:a b", "paper:1", {"n": 1, "ok": False}], ("Author", "Paper"),
    ...          [("n", "int"), ("ok", "boolean"), ("t", "?")])
    'a b\\x1f1\\x1f1\\x1ff\\x1f\\x1a'
    """
    return row_packer(key_kinds, columns)(row)


def row_packer(
    key_kinds: Sequence[str],
    columns: list[tuple[str, str]],
    *,
    source_texts: dict[str, str] | None = None,
    shared: int | None = None,
) -> Callable[[list], Any]:
    """:func:`pack_row` for many rows of one group: the prefixes and columns worked out once.

    ``slice`` columns need the ``source_texts`` they were chosen with. With ``shared`` (0 or
    1) a relationship row packs to ``(that key, the other fields)`` for :func:`grouped_lines`.
    """
    cuts = [(i, len(key_prefix(kind))) for i, kind in enumerate(key_kinds)]
    n_keys = len(key_kinds)
    encoders = [(name, _encoder(kind.rstrip("?"), source_texts)) for name, kind in columns]

    def fields_of(row):
        props = row[n_keys]
        fields = [row[i][cut:] for i, cut in cuts]
        for name, encode in encoders:
            value = props.get(name)
            fields.append(NULL if value is None else encode(value, row))
        return fields

    if shared is None:
        return lambda row: FIELD.join(fields_of(row))

    def pack_shared(row):
        fields = fields_of(row)
        key = fields.pop(shared)
        return key, FIELD.join(fields)

    return pack_shared


def _encoder(kind: str, source_texts: dict[str, str] | None) -> Callable[[Any, list], str]:
    """``encode(value, row)`` -> the packed field of a (non-null) value of a column type."""
    if kind == "slice":
        texts = source_texts or {}
        return lambda value, row: slice_field(texts[row[0]], value)
    if kind == "span":
        return lambda value, row: ""
    if kind.startswith("decimal"):
        scale = int(kind.removeprefix("decimal"))
        scaled: dict[float, str] = {}

        def encode(value, row):
            field = scaled.get(value)
            if field is None:
                field = scaled[value] = str(_scaled(value, scale))
            return field

        return encode
    return {
        "int": lambda value, row: str(value),
        "boolean": lambda value, row: "t" if value else "f",
        "string[]": lambda value, row: ITEM.join(value),
        "": lambda value, row: value,
    }[kind]


def packed_size(line: str) -> int:
    """Bytes a packed row adds to a statement (quotes and backslashes are sent escaped)."""
    size = len(line) if line.isascii() else len(line.encode("utf-8"))
    if "'" in line or "\\" in line:
        size += line.count("'") + line.count("\\")
    return size


def decode_field(index: int, kind: str, *, span: tuple[Any, Any] | None = None) -> str:
    """The Cypher expression that turns field ``index`` of a packed row back into its value.

    ``span`` is the indexes of the ``start`` and ``end`` fields, for a ``span`` column.

    >>> decode_field(2, "int"), decode_field(3, "?")
    ('toInteger(row[2])', "CASE row[3] WHEN '\\x1a' THEN null ELSE row[3] END")
    >>> decode_field(2, "slice")
    "substring(a.abstract, toInteger(split(row[2], ',')[0]), toInteger(split(row[2], ',')[1]))"
    >>> decode_field(4, "span", span=(2, 3))
    'substring(a.abstract, toInteger(row[2]), toInteger(row[3]) - toInteger(row[2]))'
    """
    field, base = f"row[{index}]", kind.rstrip("?")
    if base == "span":
        start, end = (f"toInteger(row[{i}])" for i in span or ())
        value = f"substring(a.{SLICED_PROPERTY}, {start}, {end} - {start})"
    elif base == "slice":
        value = (
            f"substring(a.{SLICED_PROPERTY}, toInteger(split({field}, ',')[0]), "
            f"toInteger(split({field}, ',')[1]))"
        )
    elif base.startswith("decimal"):
        value = f"toInteger({field}) / {10 ** int(base.removeprefix('decimal'))}.0"
    else:
        value = {
            "int": f"toInteger({field})",
            "boolean": f"{field} = 't'",
            "string[]": f"CASE {field} WHEN '' THEN [] ELSE split({field}, '{ITEM}') END",
            "": field,
        }[base]
    if not kind.endswith("?"):
        return value
    return f"CASE {field} WHEN '{NULL}' THEN null ELSE {value} END"


def _packed_map(columns: list[tuple[str, str]], n_keys: int, *, key: bool = False) -> str:
    at = {column: n_keys + i for i, column in enumerate(columns)}
    span = (at.get(("start", "int")), at.get(("end", "int")))
    entries = ["key: key"] if key else []
    entries += [
        f"{cypher.property_name(name)}: {decode_field(at[name, kind], kind, span=span)}"
        for name, kind in columns
    ]
    return "{" + ", ".join(entries) + "}"


_UNPACK = f"UNWIND split($rows, '{RECORD}') AS line WITH split(line, '{FIELD}') AS row"


def packed_merge_nodes_query(kind: str, columns: list[tuple[str, str]]) -> str:
    """MERGE nodes from packed rows: the key without its prefix, then one field per column."""
    return (
        f"{_UNPACK} WITH row, '{key_prefix(kind)}' + row[0] AS key "
        f"MERGE (n:{cypher.node_labels(kind)} {{key: key}}) "
        f"SET n = {_packed_map(columns, 1, key=True)}"
    )


def packed_write_relationships_query(
    rel: str,
    src_kind: str,
    dst_kind: str,
    columns: list[tuple[str, str]],
    *,
    verb: str = "MERGE",
    shared: int | None = None,
) -> str:
    """A new relationship is created with its properties (cheaper); a MERGEd one is replaced.

    With ``shared`` (0: the source, 1: the target) the rows come grouped by that endpoint
    (:func:`grouped_lines`), which is then looked up once per group.
    """
    if verb == "CREATE":  # a null in the map sets nothing, as a null SET would remove
        pattern, props = f"(a)-[r:{cypher.rel_type(rel)} {_packed_map(columns, 2)}]->(b)", ""
    else:
        pattern = f"(a)-[r:{cypher.rel_type(rel)}]->(b)"
        props = f" SET r = {_packed_map(columns, 2)}"
    ends = [("a", cypher.label(src_kind)), ("b", cypher.label(dst_kind))]
    if shared is None:
        match = " ".join(
            f"MATCH ({var}:{kind} {{key: '{key_prefix(kind)}' + row[{i}]}})"
            for i, (var, kind) in enumerate(ends)
        )
        match = f"{_UNPACK} {match}"
    else:
        (var, kind), (other, other_kind) = ends[shared], ends[1 - shared]
        match = (
            f"UNWIND split($rows, '{RECORD}') AS line WITH split(line, '{EDGE}') AS edges "
            f"MATCH ({var}:{kind} {{key: '{key_prefix(kind)}' + edges[0]}}) "
            f"UNWIND edges[1..] AS edge "
            f"WITH {var}, {_with_key(shared)} AS row "
            f"MATCH ({other}:{other_kind} {{key: '{key_prefix(other_kind)}' + row[{1 - shared}]}})"
        )
    return f"{match} {cypher.write_verb(verb)} {pattern}{props}"


def _with_key(shared: int) -> str:
    """A grouped relationship's fields with a placeholder where the shared key was."""
    fields = f"split(edge, '{FIELD}')"
    return f"[''] + {fields}" if shared == 0 else f"[{fields}[0], ''] + {fields}[1..]"


def shared_endpoint(rows: list[list]) -> int | None:
    """0 or 1: the endpoint whose keys repeat most among relationship rows; None if none repeat.

    >>> shared_endpoint([["a:1", "b:1", {}], ["a:2", "b:1", {}]])
    1
    >>> shared_endpoint([["a:1", "b:1", {}], ["a:2", "b:2", {}]]) is None
    True
    """
    distinct = [len({row[i] for row in rows}) for i in (0, 1)]
    if min(distinct) == len(rows):
        return None
    return distinct.index(min(distinct))


def grouped_lines(
    edges: list[tuple[str, str, int]], *, max_size: int, max_rows: int
) -> list[tuple[str, int, int]]:
    """Packed relationships merged per shared endpoint: ``key EDGE fields EDGE fields...``.

    ``edges`` are ``(shared key, other fields, their packed_size)``. Returns ``[(line,
    relationships, packed_size)]``; a group is cut so that each line stays within
    ``max_size`` bytes (:func:`packed_size`) and ``max_rows`` relationships.

    >>> edges = [("p", "x,1", 3), ("p", "y,2", 3), ("q", "z,3", 3)]
    >>> [(line.replace(EDGE, "|"), n, size)
    ...  for line, n, size in grouped_lines(edges, max_size=100, max_rows=10)]
    [('p|x,1|y,2', 2, 9), ('q|z,3', 1, 5)]
    """
    groups: dict[str, list[tuple[str, int]]] = {}
    for key, edge, edge_size in edges:
        groups.setdefault(key, []).append((edge, edge_size))
    grouped = []
    for key, group in groups.items():
        key_size = packed_size(key)
        parts, size = [key], key_size
        for edge, edge_size in group:
            if len(parts) > 1 and (size + edge_size + 1 > max_size or len(parts) > max_rows):
                grouped.append((EDGE.join(parts), len(parts) - 1, size))
                parts, size = [key], key_size
            parts.append(edge)
            size += edge_size + 1
        grouped.append((EDGE.join(parts), len(parts) - 1, size))
    return grouped


class PackedStatements(Protocol):
    """What :func:`write_packed` needs of a group's statements (see :mod:`kg.neo4j.push`)."""

    @property
    def key_kinds(self) -> tuple[str, ...]: ...

    @property
    def source_texts(self) -> dict[str, str] | None: ...

    def packed(self, columns: list[tuple[str, str]], shared: int | None) -> str: ...

    def shared(self, rows: list[list]) -> int | None: ...


def write_packed(
    rows: list[list],
    statements: PackedStatements,
    send: Callable[[str, str, int], object],
    *,
    max_bytes: int,
    max_rows: int,
) -> list[list]:
    """Send the rows that pack within ``max_bytes`` as packed batches; return the others.

    ``send(cypher, packed rows, how many rows)`` runs one statement.
    """
    texts = statements.source_texts
    columns = packed_columns(rows, statements.key_kinds, source_texts=texts)
    if columns is None:
        return rows
    shared = statements.shared(rows)
    statement = statements.packed(columns, shared)
    overhead = len(statement.encode("utf-8")) + len("rows") + 4
    pack = row_packer(statements.key_kinds, columns, source_texts=texts, shared=shared)
    room, others = max_bytes - overhead, []
    if shared is None:
        lines = []
        for row in rows:
            line = pack(row)
            size = packed_size(line)
            if size < room:
                lines.append((line, 1, size))
            else:
                others.append(row)
    else:
        edges: list[tuple[str, str, int]] = []
        key_sizes: dict[str, int] = {}
        for row in rows:
            key, edge = pack(row)
            key_size = key_sizes.get(key)
            if key_size is None:
                key_size = key_sizes[key] = packed_size(key)
            edge_size = packed_size(edge)
            if key_size + 1 + edge_size < room:
                edges.append((key, edge, edge_size))
            else:
                others.append(row)
        lines = grouped_lines(edges, max_size=room - 1, max_rows=max_rows)
    for batch in fitted_batches(
        lines,
        max_rows=max_rows,
        max_bytes=max_bytes,
        overhead=overhead,
        size=itemgetter(2),
        count=itemgetter(1),
    ):
        send(statement, RECORD.join([line for line, _, _ in batch]), sum(n for _, n, _ in batch))
    return others
