"""Rows and Cypher for writing the graph over Bolt: pure functions, no server.

Nodes become ``[key, props]`` rows grouped by kind; relationships ``[source, target, props]``
rows grouped by (type, source kind, target kind). Statements are ``UNWIND $rows ...`` over
batches bounded by rows and serialised bytes; labels, relationship types and property names
come from :mod:`kg.schema` and the graph's attribute names, never from values.

For servers that parse list and map parameters slowly (FalkorDB), rows can instead be
*packed*: each row one string of typed fields, the batch one string, split by the statement.
Packed relationships sharing an endpoint travel as one line per endpoint, and texts cut from
the source Paper's abstract (evidence) as offsets into it.

Examples
--------
>>> merge_nodes_query("Method")
'UNWIND $rows AS row MERGE (n:Method:Concept {key: row[0]}) SET n = row[1]'
>>> write_relationships_query("AUTHORED", "Author", "Paper")  # doctest: +ELLIPSIS
'UNWIND $rows AS row MATCH (a:Author {key: row[0]}) ... MERGE (a)-[r:AUTHORED]->(b) SET r = row[2]'
"""

import bisect
import json
import re
from decimal import Decimal

from kg.errors import KgError
from kg.schema import NODE_KINDS, PAPER, REL_ENDPOINTS, REL_TYPES, labels_of

PROPERTY_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: Separators of packed rows: fields, rows, list items; and the mark of a missing value.
FIELD, RECORD, ITEM, NULL = "\x1f", "\x1e", "\x1d", "\x1a"
#: Separator of the relationships in a grouped line (relationships sharing an endpoint).
EDGE = "\x1c"
PACKING_MARKS = (FIELD, RECORD, ITEM, NULL, EDGE)
_PACKING_MARK = re.compile("[" + "".join(PACKING_MARKS) + "]")
#: The source node property that packed ``slice`` columns are cut from.
SLICED_PROPERTY = "abstract"


# ---------------------------------------------------------------- Cypher builders


def _label(kind):
    if kind not in NODE_KINDS:
        raise KgError(f"unknown node kind {kind!r}; expected one of {', '.join(NODE_KINDS)}")
    return kind


def _rel_type(rel_type):
    if rel_type not in REL_TYPES:
        raise KgError(
            f"unknown relationship type {rel_type!r}; expected one of {', '.join(REL_TYPES)}"
        )
    return rel_type


def _property(name):
    if not PROPERTY_NAME.fullmatch(name):
        raise KgError(f"property name {name!r} is not a plain identifier")
    return f"`{name}`"


def merge_nodes_query(kind):
    return f"UNWIND $rows AS row MERGE (n:{_labels(kind)} {{key: row[0]}}) SET n = row[1]"


def _labels(kind):
    """All of a kind's labels in one pattern: ``Method:Concept``.

    MERGE matches and creates the node with every label at once; adding a label
    afterwards (``SET n:Concept``) costs FalkorDB time that grows with the graph.
    """
    return ":".join(labels_of(_label(kind)))


def write_relationships_query(rel_type, src_kind, dst_kind, *, verb="MERGE"):
    """MERGE (or CREATE, for relationships known to be absent) with properties from rows."""
    return (
        f"UNWIND $rows AS row {_match_endpoints(src_kind, dst_kind)} "
        f"{_verb(verb)} (a)-[r:{_rel_type(rel_type)}]->(b) SET r = row[2]"
    )


def _match_endpoints(src_kind, dst_kind):
    return (
        f"MATCH (a:{_label(src_kind)} {{key: row[0]}}) MATCH (b:{_label(dst_kind)} {{key: row[1]}})"
    )


def _verb(verb):
    if verb not in ("MERGE", "CREATE"):
        raise KgError(f"relationships are written with MERGE or CREATE, not {verb!r}")
    return verb


def delete_relationships_query(rel_type, src_kind, dst_kind):
    return (
        f"UNWIND $rows AS row MATCH (a:{_label(src_kind)} {{key: row[0]}})"
        f"-[r:{_rel_type(rel_type)}]->(b:{_label(dst_kind)} {{key: row[1]}}) DELETE r"
    )


def orphans_query(kind):
    """Nodes nothing points to (no incoming relationship, none with a Paper), and their targets."""
    return (
        f"UNWIND $rows AS row MATCH (n:{_label(kind)} {{key: row}}) "
        f"WHERE NOT (n)<--() AND NOT (n)--(:{PAPER}) "
        "OPTIONAL MATCH (n)-->(m) RETURN n.key AS key, collect(m.key) AS targets"
    )


def delete_nodes_query(kind):
    return f"UNWIND $rows AS row MATCH (n:{_label(kind)} {{key: row}}) DETACH DELETE n"


def existing_relationships_query(kind):
    """Relationships a node of this kind owns: all of a Paper's, others' outgoing non-Paper ones."""
    if _label(kind) == PAPER:
        pattern, where = "(n)-[r]-(x)", ""
    else:
        pattern, where = "(n)-[r]->(x)", f" WHERE NOT x:{PAPER}"
    return (
        f"UNWIND $rows AS row MATCH (n:{kind} {{key: row}}) MATCH {pattern}{where} "
        "RETURN type(r) AS type, startNode(r) = n AS outgoing, n.key AS node, x.key AS other, "
        "properties(r) AS props"
    )


def append_node_property_query(kind, name):
    prop = _property(name)
    return f"MATCH (n:{_label(kind)} {{key: $key}}) SET n.{prop} = n.{prop} + $piece"


def append_relationship_property_query(rel_type, src_kind, dst_kind, name):
    prop = _property(name)
    return (
        f"MATCH (a:{_label(src_kind)} {{key: $src}})-[r:{_rel_type(rel_type)}]->"
        f"(b:{_label(dst_kind)} {{key: $dst}}) SET r.{prop} = r.{prop} + $piece"
    )


# ---------------------------------------------------------------- rows (pure)


def kind_of_key(key):
    """The node kind a key names: ``method:grpo`` -> ``Method``; None if not one of ours.

    >>> kind_of_key("method:grpo"), kind_of_key("paper:0123456789ab"), kind_of_key("x:y")
    ('Method', 'Paper', None)
    """
    prefix = key.partition(":")[0]
    return next((kind for kind in NODE_KINDS if kind.lower() == prefix), None)


def property_map(attrs, *, where, skip=()):
    """Neo4j properties from networkx attributes: None dropped, tuples to lists, types checked."""
    props = {}
    for name, value in attrs.items():
        if name in skip or value is None:
            continue
        if isinstance(value, tuple | list):
            value = list(value)
            if not all(isinstance(item, str) for item in value):
                raise KgError(
                    f"{where}: property {name!r} is a list with non-string items; "
                    "rebuild the graph with this version of kg"
                )
        elif not isinstance(value, str | int | float | bool):
            raise KgError(
                f"{where}: property {name!r} has type {type(value).__name__}, "
                "which Neo4j cannot store; rebuild the graph with this version of kg"
            )
        props[name] = value
    return props


def node_rows(G):
    """``{kind: [[key, props], ...]}`` for every node, in a stable order."""
    rows = {}
    for key in sorted(G.nodes):
        attrs = G.nodes[key]
        kind = attrs.get("kind")
        if kind not in NODE_KINDS:
            raise KgError(
                f"node {key!r} has kind {kind!r}; expected one of {', '.join(NODE_KINDS)}"
            )
        props = property_map(attrs, where=f"node {key!r}", skip=("kind", "key"))
        rows.setdefault(kind, []).append([key, {"key": key, **props}])
    return rows


def edge_group(G, src, dst, rel_type):
    """The (type, source kind, target kind) a relationship is written under."""
    return _rel_type(rel_type), G.nodes[src]["kind"], G.nodes[dst]["kind"]


def relationship_rows(G):
    """``{(type, source kind, target kind): [[source, target, props], ...]}``, stable order."""
    rows = {}
    for src, dst, rel_type, attrs in sorted(G.edges(keys=True, data=True), key=_edge_sort):
        where = f"relationship {src!r} -[{rel_type}]-> {dst!r}"
        props = property_map(attrs, where=where)
        rows.setdefault(edge_group(G, src, dst, rel_type), []).append([src, dst, props])
    return rows


def _edge_sort(edge):
    return edge[2], edge[0], edge[1]


def owner_kinds():
    """Kinds whose nodes own relationships that touch no Paper (APPLIED_TO, PART_OF sources)."""
    return sorted(
        {src for pairs in REL_ENDPOINTS.values() for src, dst in pairs if PAPER not in (src, dst)}
    )


def stale_relationships(G, existing):
    """Relationships on the server (``(type, source, target)``) that the graph does not have.

    >>> import networkx as nx
    >>> G = nx.MultiDiGraph()
    >>> G.add_edge("paper:a", "method:x", key="USES")
    'USES'
    >>> on_server = [("USES", "paper:a", "method:x"), ("USES", "paper:a", "method:y")]
    >>> sorted(stale_relationships(G, on_server))
    [('USES', 'paper:a', 'method:y')]
    """
    return {(t, s, d) for t, s, d in existing if t in REL_TYPES and not G.has_edge(s, d, key=t)}


def orphan_candidates(G, keys):
    """The keys, less the graph's nodes, Papers and keys that are not ours: what may be orphaned."""
    return sorted({key for key in keys if key not in G and kind_of_key(key) not in (None, PAPER)})


def serialised_size(value):
    """Bytes of the compact JSON form (quotes counted twice): a bound on what a server renders.

    >>> serialised_size({"t": "it's"})
    13
    """
    data = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return len(data) + data.count(b"'")


def split_oversized(row, props_index, budget, *, piece_budget=None):
    """Fit a row into ``budget`` bytes: its largest strings and lists move to appended pieces.

    Returns ``(row, [(property, piece), ...])``; the row carries the first piece of each
    moved value and the pieces, appended in order, restore it. Raises if even the row
    without those values does not fit.

    >>> row, pieces = split_oversized(["k", {"key": "k", "text": "abcdefghij"}], 1, 32)
    >>> row[1]["text"] + "".join(p for _, p in pieces)
    'abcdefghij'
    """
    if serialised_size(row) <= budget:
        return row, []
    props = dict(row[props_index])
    row = row[:props_index] + [props] + row[props_index + 1 :]
    movable = sorted(
        (name for name, value in props.items() if name != "key" and isinstance(value, str | list)),
        key=lambda name: -serialised_size(props[name]),
    )
    moved = []
    for name in movable:
        moved.append((name, props[name]))
        props[name] = props[name][:0]
        if serialised_size(row) <= budget:
            break
    else:
        raise KgError(
            f"row {row[0]!r} needs {serialised_size(row)} bytes even without its "
            f"long values; raise --max-batch-bytes above {budget}"
        )
    piece_budget = piece_budget or budget
    pieces = [(name, piece) for name, value in moved for piece in pieces_of(value, piece_budget)]
    return row, pieces


def pieces_of(value, budget):
    """Split a string or list into consecutive pieces that each serialise within ``budget``.

    >>> pieces_of("abcdef", 5)
    ['abc', 'def']
    >>> pieces_of(["ab", "cd", "ef"], 12)
    [['ab', 'cd'], ['ef']]
    """
    pieces, start = [], 0
    while start < len(value):
        end = start + 1
        step = max(1, (len(value) - start) // 2)
        while step:
            if end + step <= len(value) and serialised_size(value[start : end + step]) <= budget:
                end += step
            else:
                step //= 2
        pieces.append(value[start:end])
        start = end
    return pieces


def batches(rows, *, max_rows, max_bytes, overhead=0, size=serialised_size):
    """Consecutive batches of at most ``max_rows`` rows and ``max_bytes`` serialised bytes.

    A row alone over the byte cap forms a batch of its own (callers split such rows first).

    >>> [len(b) for b in batches([["a" * 10]] * 5, max_rows=3, max_bytes=1000)]
    [3, 2]
    >>> [len(b) for b in batches([["a" * 10]] * 5, max_rows=10, max_bytes=40)]
    [2, 2, 1]
    """
    batch, used = [], overhead + 2
    for row in rows:
        row_size = size(row) + 1
        if batch and (len(batch) >= max_rows or used + row_size > max_bytes):
            yield batch
            batch, used = [], overhead + 2
        batch.append(row)
        used += row_size
    if batch:
        yield batch


def fitted_batches(
    rows, *, max_rows, max_bytes, overhead=0, size=serialised_size, count=lambda row: 1
):
    """Batches like :func:`batches` but fuller, in any order: best fit, largest row first.

    Each row joins the batch with the least room left that still fits it, so rows of
    very different sizes share batches and fewer statements carry the same rows.
    ``count`` is how many rows an item stands for (a grouped line), for ``max_rows``.

    >>> rows = [["a" * n] for n in (4, 4, 4, 20, 20, 20)]
    >>> [len(b) for b in batches(rows, max_rows=10, max_bytes=40)]
    [3, 1, 1, 1]
    >>> sorted(len(b) for b in fitted_batches(rows, max_rows=10, max_bytes=40))
    [2, 2, 2]
    """
    room_left, filled, counts = [], [], []
    capacity = max_bytes - overhead - 2
    for row_size, index, row in sorted(
        ((size(row) + 1, i, row) for i, row in enumerate(rows)),
        key=lambda item: (-item[0], item[1]),
    ):
        rows_in_row = count(row)
        at = bisect.bisect_left(room_left, (row_size, -1))
        if at < len(room_left) and counts[room_left[at][1]] + rows_in_row <= max_rows:
            room, batch = room_left.pop(at)
        else:
            room, batch = capacity, len(filled)
            filled.append([])
            counts.append(0)
        filled[batch].append(row)
        counts[batch] += rows_in_row
        room -= row_size
        if room > 0 and counts[batch] < max_rows:
            bisect.insort(room_left, (room, batch))
    return filled


# ---------------------------------------------------------------- packed rows


def column_type(values):
    """The type of a property from its values: int, float, boolean, string[] or '' (string).

    >>> column_type([1, 2]), column_type([1, 2.5]), column_type([True]), column_type([["a"]])
    ('int', 'float', 'boolean', 'string[]')
    >>> column_type(["a", 1])
    ''
    """
    kinds = set(map(type, values))
    if kinds == {bool}:
        return "boolean"
    if kinds == {int}:
        return "int"
    if kinds and kinds <= {int, float}:
        return "float"
    if kinds == {list}:
        return "string[]"
    return ""


def key_prefix(kind):
    """What every key of this kind starts with: ``Author`` -> ``author:``."""
    return f"{_label(kind).lower()}:"


def packed_columns(rows, key_kinds, *, source_texts=None):
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
            kind = decimal_kind(values)
            if kind is None:
                return None
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


def _is_span(rows, name, source_texts):
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


def _slices_shorter(rows, name, source_texts):
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


def slice_field(text, value):
    """``value`` as ``start,length`` in ``text`` (code points, as the server's ``substring``).

    >>> slice_field("we use BERT here", "BERT")
    '7,4'
    """
    return f"{text.index(value)},{len(value)}"


def decimal_kind(values):
    """``decimalN`` when every float is an integer over 10**N exactly (so it survives packing).

    Packed floats travel as integers: ``toFloat`` on some servers parses only to single
    precision, while an integer divided by a power of ten is exact within 2**53.

    >>> decimal_kind([0.9, 2.0, 0.125]), decimal_kind([0.1 + 0.2])
    ('decimal3', None)
    """
    values = set(values)
    exponents = [Decimal(repr(float(value))).as_tuple().exponent for value in values]
    if any(not isinstance(e, int) for e in exponents):
        return None
    scale = max(0, -min(exponents))
    if scale > 15 or any(abs(_scaled(value, scale)) >= 2**53 for value in values):
        return None
    return f"decimal{scale}"


def _scaled(value, scale):
    return int(Decimal(repr(float(value))).scaleb(scale))


def pack_row(row, key_kinds, columns):
    """One row as a string of fields; see :func:`decode_field` for the reverse.

    >>> pack_row(["author:a b", "paper:1", {"n": 1, "ok": False}], ("Author", "Paper"),
    ...          [("n", "int"), ("ok", "boolean"), ("t", "?")])
    'a b\\x1f1\\x1f1\\x1ff\\x1f\\x1a'
    """
    return row_packer(key_kinds, columns)(row)


def row_packer(key_kinds, columns, *, source_texts=None, shared=None):
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


def _encoder(kind, source_texts):
    """``encode(value, row)`` -> the packed field of a (non-null) value of a column type."""
    if kind == "slice":
        return lambda value, row: slice_field(source_texts[row[0]], value)
    if kind == "span":
        return lambda value, row: ""
    if kind.startswith("decimal"):
        scale, scaled = int(kind.removeprefix("decimal")), {}

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


def packed_size(line):
    """Bytes a packed row adds to a statement (quotes and backslashes are sent escaped)."""
    size = len(line) if line.isascii() else len(line.encode("utf-8"))
    if "'" in line or "\\" in line:
        size += line.count("'") + line.count("\\")
    return size


def decode_field(index, kind, *, span=None):
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
        start, end = (f"toInteger(row[{i}])" for i in span)
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


def _packed_map(columns, n_keys, *, key=False):
    at = {column: n_keys + i for i, column in enumerate(columns)}
    span = (at.get(("start", "int")), at.get(("end", "int")))
    entries = ["key: key"] if key else []
    entries += [
        f"{_property(name)}: {decode_field(at[name, kind], kind, span=span)}"
        for name, kind in columns
    ]
    return "{" + ", ".join(entries) + "}"


_UNPACK = f"UNWIND split($rows, '{RECORD}') AS line WITH split(line, '{FIELD}') AS row"


def packed_merge_nodes_query(kind, columns):
    return (
        f"{_UNPACK} WITH row, '{key_prefix(kind)}' + row[0] AS key "
        f"MERGE (n:{_labels(kind)} {{key: key}}) SET n = {_packed_map(columns, 1, key=True)}"
    )


def packed_write_relationships_query(
    rel_type, src_kind, dst_kind, columns, *, verb="MERGE", shared=None
):
    """A new relationship is created with its properties (cheaper); a MERGEd one is replaced.

    With ``shared`` (0: the source, 1: the target) the rows come grouped by that endpoint
    (:func:`grouped_lines`), which is then looked up once per group.
    """
    if verb == "CREATE":  # a null in the map sets nothing, as a null SET would remove
        pattern, props = f"(a)-[r:{_rel_type(rel_type)} {_packed_map(columns, 2)}]->(b)", ""
    else:
        pattern = f"(a)-[r:{_rel_type(rel_type)}]->(b)"
        props = f" SET r = {_packed_map(columns, 2)}"
    ends = [("a", _label(src_kind)), ("b", _label(dst_kind))]
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
    return f"{match} {_verb(verb)} {pattern}{props}"


def _with_key(shared):
    """A grouped relationship's fields with a placeholder where the shared key was."""
    fields = f"split(edge, '{FIELD}')"
    return f"[''] + {fields}" if shared == 0 else f"[{fields}[0], ''] + {fields}[1..]"


def shared_endpoint(rows):
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


def grouped_lines(edges, *, max_size, max_rows):
    """Packed relationships merged per shared endpoint: ``key EDGE fields EDGE fields...``.

    ``edges`` are ``(shared key, other fields, their packed_size)``. Returns ``[(line,
    relationships, packed_size)]``; a group is cut so that each line stays within
    ``max_size`` bytes (:func:`packed_size`) and ``max_rows`` relationships.

    >>> edges = [("p", "x,1", 3), ("p", "y,2", 3), ("q", "z,3", 3)]
    >>> [(line.replace(EDGE, "|"), n, size)
    ...  for line, n, size in grouped_lines(edges, max_size=100, max_rows=10)]
    [('p|x,1|y,2', 2, 9), ('q|z,3', 1, 5)]
    """
    groups = {}
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
