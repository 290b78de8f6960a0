"""The Cypher that writes the graph: one builder set for the Neo4j push and the embedded engine.

Statements are ``UNWIND $rows ...`` over batches of rows. Labels and relationship types
come from the closed lists of :mod:`kg.schema` and property names are checked to be plain
identifiers, so no Cypher is assembled from data.

Examples
--------
>>> merge_nodes_query("Method")
'UNWIND $rows AS row MERGE (n:Method:Concept {key: row[0]}) SET n = row[1]'
>>> write_relationships_query("AUTHORED", "Author", "Paper")  # doctest: +ELLIPSIS
'UNWIND $rows AS row MATCH (a:Author {key: row[0]}) ... MERGE (a)-[r:AUTHORED]->(b) SET r = row[2]'
>>> create_nodes_query("Area", ["name"])
'UNWIND $rows AS row CREATE (n:Area {key: row[0]}) SET n.`name` = row[1]'
"""

import re
from collections.abc import Iterable, Sequence

from kg.errors import KgError
from kg.schema import NODE_KINDS, PAPER, REL_TYPES, labels_of

PROPERTY_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: Lists the key indexes of a server without constraints (FalkorDB).
INDEXES_QUERY = "CALL db.indexes() YIELD label, properties RETURN label, properties"


def label(kind: str) -> str:
    """A node kind checked against the closed list."""
    if kind not in NODE_KINDS:
        raise KgError(f"unknown node kind {kind!r}; expected one of {', '.join(NODE_KINDS)}")
    return kind


def rel_type(name: str) -> str:
    """A relationship type checked against the closed list."""
    if name not in REL_TYPES:
        raise KgError(f"unknown relationship type {name!r}; expected one of {', '.join(REL_TYPES)}")
    return name


def property_name(name: str) -> str:
    """A property name, checked to be a plain identifier, quoted for Cypher."""
    if not PROPERTY_NAME.fullmatch(name):
        raise KgError(f"property name {name!r} is not a plain identifier")
    return f"`{name}`"


def write_verb(name: str) -> str:
    """MERGE or CREATE: how relationships are written."""
    if name not in ("MERGE", "CREATE"):
        raise KgError(f"relationships are written with MERGE or CREATE, not {name!r}")
    return name


def node_labels(kind: str) -> str:
    """All of a kind's labels in one pattern: ``Method:Concept``.

    MERGE matches and creates the node with every label at once; adding a label
    afterwards (``SET n:Concept``) costs FalkorDB time that grows with the graph.
    """
    return ":".join(labels_of(label(kind)))


def key_labels() -> list[str]:
    """Every label a node can carry, sorted: each gets a key constraint or index."""
    return sorted({name for kind in NODE_KINDS for name in labels_of(kind)})


def key_constraint_query(name: str) -> str:
    """A uniqueness constraint on ``key`` for one label (Neo4j)."""
    return (
        f"CREATE CONSTRAINT kg_{label(name).lower()}_key IF NOT EXISTS "
        f"FOR (n:{name}) REQUIRE n.key IS UNIQUE"
    )


def key_index_query(name: str) -> str:
    """An index on ``key`` for one label (servers without constraints)."""
    return f"CREATE INDEX FOR (n:{label(name)}) ON (n.key)"


def _setters(variable: str, columns: Sequence[str], first: int) -> str:
    """`` SET v.`a` = row[first], v.`b` = row[first + 1], ...`` ('' without columns)."""
    if not columns:
        return ""
    return " SET " + ", ".join(
        f"{variable}.{property_name(name)} = row[{first + i}]" for i, name in enumerate(columns)
    )


def merge_nodes_query(kind: str) -> str:
    """MERGE nodes on ``key`` from ``[key, props]`` rows; their properties become ``props``."""
    return f"UNWIND $rows AS row MERGE (n:{node_labels(kind)} {{key: row[0]}}) SET n = row[1]"


def create_nodes_query(kind: str, columns: Sequence[str]) -> str:
    """CREATE nodes in an empty graph from ``[key, value, ...]`` rows, one value per column."""
    return f"UNWIND $rows AS row CREATE (n:{node_labels(kind)} {{key: row[0]}})" + _setters(
        "n", columns, 1
    )


def _match_endpoints(src_kind: str, dst_kind: str) -> str:
    return (
        f"MATCH (a:{label(src_kind)} {{key: row[0]}}) MATCH (b:{label(dst_kind)} {{key: row[1]}})"
    )


def write_relationships_query(
    rel: str,
    src_kind: str,
    dst_kind: str,
    *,
    verb: str = "MERGE",
    columns: Sequence[str] | None = None,
) -> str:
    """MERGE (or CREATE, for relationships known to be absent) from ``[start, end, ...]`` rows.

    The rows end with a map of properties, or, with ``columns``, with one value per column.
    """
    props = " SET r = row[2]" if columns is None else _setters("r", columns, 2)
    return (
        f"UNWIND $rows AS row {_match_endpoints(src_kind, dst_kind)} "
        f"{write_verb(verb)} (a)-[r:{rel_type(rel)}]->(b){props}"
    )


def delete_relationships_query(rel: str, src_kind: str, dst_kind: str) -> str:
    """DELETE the relationships of ``[start, end]`` rows."""
    return (
        f"UNWIND $rows AS row MATCH (a:{label(src_kind)} {{key: row[0]}})"
        f"-[r:{rel_type(rel)}]->(b:{label(dst_kind)} {{key: row[1]}}) DELETE r"
    )


def orphans_query(kind: str) -> str:
    """Nodes nothing points to (no incoming relationship, none with a Paper), and their targets."""
    return (
        f"UNWIND $rows AS row MATCH (n:{label(kind)} {{key: row}}) "
        f"WHERE NOT (n)<--() AND NOT (n)--(:{PAPER}) "
        "OPTIONAL MATCH (n)-->(m) RETURN n.key AS key, collect(m.key) AS targets"
    )


def delete_nodes_query(kind: str) -> str:
    """DETACH DELETE the nodes of these keys."""
    return f"UNWIND $rows AS row MATCH (n:{label(kind)} {{key: row}}) DETACH DELETE n"


def existing_relationships_query(kind: str) -> str:
    """Relationships a node of this kind owns: a Paper's outgoing ones and those that reach it
    from other kinds (one between two Papers is its start's), others' outgoing non-Paper
    ones. Each relationship has one owner, so a push may read them owner by owner."""
    if label(kind) == PAPER:
        pattern, where = "(n)-[r]-(x)", f" WHERE startNode(r) = n OR NOT x:{PAPER}"
    else:
        pattern, where = "(n)-[r]->(x)", f" WHERE NOT x:{PAPER}"
    return (
        f"UNWIND $rows AS row MATCH (n:{kind} {{key: row}}) MATCH {pattern}{where} "
        "RETURN type(r) AS type, startNode(r) = n AS outgoing, n.key AS node, x.key AS other, "
        "properties(r) AS props"
    )


def append_node_property_query(kind: str, name: str) -> str:
    """Append ``$piece`` to a property of the node ``$key`` (a value too long for one batch)."""
    prop = property_name(name)
    return f"MATCH (n:{label(kind)} {{key: $key}}) SET n.{prop} = n.{prop} + $piece"


def append_relationship_property_query(rel: str, src_kind: str, dst_kind: str, name: str) -> str:
    """Append ``$piece`` to a property of the relationship from ``$src`` to ``$dst``."""
    prop = property_name(name)
    return (
        f"MATCH (a:{label(src_kind)} {{key: $src}})-[r:{rel_type(rel)}]->"
        f"(b:{label(dst_kind)} {{key: $dst}}) SET r.{prop} = r.{prop} + $piece"
    )


def key_schema_queries(*, constraints: bool, existing: Iterable[str] = ()) -> list[str]:
    """DDL that makes ``key`` unique (with constraints) or indexed on every label lacking it."""
    if constraints:
        return [key_constraint_query(name) for name in key_labels()]
    have = set(existing)
    return [key_index_query(name) for name in key_labels() if name not in have]
