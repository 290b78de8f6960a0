"""The one neutral row set every sink reads: nodes and relationships of the graph as rows.

The Neo4j push, the embedded engine's load and the exports see only these rows, never the
networkx graph's internals. A node row is its key, its kind (labels follow from it) and its
properties; a relationship row its type, both ends (key and kind) and its properties.
Properties are what a property graph can store: None is dropped, tuples become lists, and
anything but strings, numbers, booleans and lists of strings is refused. Kinds, types and
the kinds a type may join come from the closed lists of :mod:`kg.schema`.

Examples
--------
>>> import networkx as nx
>>> G = nx.MultiDiGraph()
>>> G.add_node("paper:a", kind="Paper", title="On GRPO", label=None, sources=("x#1",))
>>> G.add_node("method:grpo", kind="Method", name="GRPO")
>>> G.add_edge("paper:a", "method:grpo", key="PROPOSES", score=0.9)
'PROPOSES'
>>> node_rows(G)[0]
NodeRow(key='paper:a', kind='Paper', props={'title': 'On GRPO', 'sources': ['x#1']})
>>> node_rows(G)[1].labels
['Method', 'Concept']
>>> relationship_rows(G)[0].group
('PROPOSES', 'Paper', 'Method')

The same rows as columns, one group per kind or per (type, start kind, end kind), for a
sink that writes a column at a time (the embedded engine's bulk load):

>>> node_columns(G)[0]
NodeColumns(kind='Paper', keys=['paper:a'], values={'sources': [['x#1']], 'title': ['On GRPO']})
>>> relationship_columns(G)[0].values
{'score': [0.9]}
"""

from collections.abc import Collection, Iterable
from itertools import chain, repeat
from operator import methodcaller
from typing import TYPE_CHECKING, NamedTuple

from kg.errors import KgError
from kg.graph._nx import node_attrs, successors
from kg.pickled import pickle_plain
from kg.schema import NODE_KINDS, REL_ENDPOINTS, REL_TYPES, labels_of

if TYPE_CHECKING:
    import networkx as nx

#: A property value a sink can store.
Value = str | int | float | bool | list[str]
Props = dict[str, Value]
_SCALARS = frozenset((str, int, float, bool))
_LIST_OR_NONE = frozenset((list, type(None)))
#: Node attributes that are the row's key and kind, not properties.
_NODE_FIELDS = frozenset(("kind", "key"))


class NodeRow(NamedTuple):
    """One node: ``key``, primary ``kind`` and properties (neither key nor kind among them)."""

    key: str
    kind: str
    props: Props

    @property
    def labels(self) -> list[str]:
        """Its labels: ``Method`` nodes are also ``Concept``."""
        return labels_of(self.kind)


class RelationshipRow(NamedTuple):
    """One relationship: type, start and end (key and kind), properties."""

    type: str
    start: str
    start_kind: str
    end: str
    end_kind: str
    props: Props

    @property
    def group(self) -> tuple[str, str, str]:
        """(type, start kind, end kind): what a statement writing it is built for."""
        return self.type, self.start_kind, self.end_kind


pickle_plain(NodeRow, RelationshipRow)


def _storable(name: str, value: object) -> Value:
    """A value that is not a plain scalar, as a sink stores it; ValueError if it cannot."""
    if isinstance(value, tuple | list):
        if not all(map(isinstance, value, repeat(str))):  # map: no Python frame per item
            raise ValueError(f"property {name!r} is a list with non-string items")
        return list(value)
    if isinstance(value, str | int | float | bool):
        return value
    raise ValueError(f"property {name!r} has type {type(value).__name__}, which Neo4j cannot store")


def properties(attrs: dict, *, skip: frozenset[str] = frozenset()) -> Props:
    """Storable properties from networkx attributes: None dropped, tuples to lists, checked.

    >>> properties({"a": None, "b": (1,)})
    Traceback (most recent call last):
    ValueError: property 'b' is a list with non-string items
    """
    props: Props = {}
    for name, value in attrs.items():
        if value is None or name in skip:
            continue
        props[name] = value if type(value) in _SCALARS else _storable(name, value)
    return props


def node_rows(G: "nx.MultiDiGraph") -> list[NodeRow]:
    """A row for every node, in the graph's order."""
    rows = []
    for key, attrs in G.nodes(data=True):
        kind = attrs.get("kind")
        if kind not in NODE_KINDS:
            raise KgError(
                f"node {key!r} has kind {kind!r}; expected one of {', '.join(NODE_KINDS)}"
            )
        try:
            props = properties(attrs, skip=_NODE_FIELDS)
        except ValueError as exc:
            raise KgError(
                f"node {key!r}: {exc}; rebuild the graph with this version of kg"
            ) from None
        rows.append(NodeRow(key, kind, props))
    return rows


def relationship_rows(G: "nx.MultiDiGraph") -> list[RelationshipRow]:
    """A row for every relationship, in the graph's order; types and ends checked."""
    kind_of = dict(G.nodes(data="kind"))
    allowed = {(rel_type, *ends) for rel_type, pairs in REL_ENDPOINTS.items() for ends in pairs}
    rows = []
    for start, end, rel_type, attrs in G.edges(keys=True, data=True):
        start_kind, end_kind = kind_of[start], kind_of[end]
        if (rel_type, start_kind, end_kind) not in allowed:
            raise _bad_relationship(start, end, rel_type, start_kind, end_kind)
        try:
            props = properties(attrs)
        except ValueError as exc:
            raise KgError(
                f"relationship {start!r} -[{rel_type}]-> {end!r}: {exc}; "
                "rebuild the graph with this version of kg"
            ) from None
        rows.append(RelationshipRow(rel_type, start, start_kind, end, end_kind, props))
    return rows


class NodeColumns(NamedTuple):
    """The node rows of one kind as columns: their keys, and per property (names sorted) a
    value for each node, None where it has none."""

    kind: str
    keys: list[str]
    values: dict[str, list[Value | None]]


class RelationshipColumns(NamedTuple):
    """The relationship rows of one group as columns: start and end keys, and properties."""

    type: str
    start_kind: str
    end_kind: str
    starts: list[str]
    ends: list[str]
    values: dict[str, list[Value | None]]


def node_columns(G: "nx.MultiDiGraph") -> list[NodeColumns]:
    """:func:`node_rows` as columns, kinds in the order they first appear (as :func:`by_kind`)."""
    groups: dict[str, tuple[list[str], list[dict]]] = {}
    for key, attrs in node_attrs(G).items():
        kind = attrs.get("kind")
        group = groups.get(kind)  # type: ignore[arg-type]
        if group is None:
            if kind not in NODE_KINDS:
                raise KgError(
                    f"node {key!r} has kind {kind!r}; expected one of {', '.join(NODE_KINDS)}"
                )
            group = groups[kind] = ([], [])
        group[0].append(key)
        group[1].append(attrs)
    columns = []
    for kind, (keys, members) in groups.items():
        try:
            columns.append(NodeColumns(kind, keys, _columns(members, _NODE_FIELDS)))
        except _Unstorable as exc:
            raise KgError(
                f"node {keys[exc.row]!r}: {exc}; rebuild the graph with this version of kg"
            ) from None
    return columns


def relationship_columns(
    G: "nx.MultiDiGraph", *, types: Collection[str] | None = None
) -> list[RelationshipColumns]:
    """:func:`relationship_rows` as columns, groups in the order they first appear (as
    :func:`by_group`); only the relationships of ``types``, if given."""
    kind_of = {key: attrs.get("kind") for key, attrs in node_attrs(G).items()}
    allowed = {(rel_type, *ends) for rel_type, pairs in REL_ENDPOINTS.items() for ends in pairs}
    groups: dict[tuple[str, str, str], tuple[list[str], list[str], list[dict]]] = {}
    # Only nodes of a kind that can start a relationship of ``types`` are visited.
    starting = None if types is None else {s for t in types for s, _ in REL_ENDPOINTS.get(t, ())}
    for start, targets in successors(G).items():
        start_kind = kind_of[start]
        if starting is not None and start_kind not in starting:
            continue
        for end, by_type in targets.items():
            end_kind = kind_of[end]
            for rel_type, attrs in by_type.items():
                if types is not None and rel_type not in types:
                    continue
                name = (rel_type, start_kind, end_kind)
                group = groups.get(name)  # type: ignore[arg-type]
                if group is None:
                    if name not in allowed:
                        raise _bad_relationship(start, end, *name)  # type: ignore[arg-type]
                    group = groups[name] = ([], [], [])
                group[0].append(start)
                group[1].append(end)
                group[2].append(attrs)
    columns = []
    for (rel_type, start_kind, end_kind), (starts, ends, members) in groups.items():
        try:
            values = _columns(members, frozenset())
        except _Unstorable as exc:
            raise KgError(
                f"relationship {starts[exc.row]!r} -[{rel_type}]-> {ends[exc.row]!r}: {exc}; "
                "rebuild the graph with this version of kg"
            ) from None
        columns.append(RelationshipColumns(rel_type, start_kind, end_kind, starts, ends, values))
    return columns


class _Unstorable(ValueError):
    """A value a sink cannot store, in row ``row`` of a group."""

    def __init__(self, message: str, row: int) -> None:
        super().__init__(message)
        self.row = row


def _columns(attrs: list[dict], skip: frozenset[str]) -> dict[str, list[Value | None]]:
    """Per property name (sorted), its storable value in each of ``attrs`` (None if absent);
    a property no row has a value for is no column."""
    columns: dict[str, list[Value | None]] = {}
    for name in sorted(set().union(*attrs) - skip):
        values = list(map(methodcaller("get", name), attrs))
        kinds = set(map(type, values))
        kinds.discard(type(None))
        if not kinds:
            continue
        if not kinds <= _SCALARS:
            values = _storable_column(name, values)
        columns[name] = values
    return columns


def _storable_column(name: str, values: list) -> list[Value | None]:
    if set(map(type, values)) <= _LIST_OR_NONE and all(
        map(isinstance, chain.from_iterable(filter(None, values)), repeat(str))
    ):
        return values  # lists of strings (and None): already what a sink stores
    column: list[Value | None] = []
    for i, value in enumerate(values):
        if value is None or type(value) in _SCALARS:
            column.append(value)
            continue
        if type(value) is list and all(map(isinstance, value, repeat(str))):
            column.append(value)  # already what a sink stores
            continue
        try:
            column.append(_storable(name, value))
        except ValueError as exc:
            raise _Unstorable(str(exc), i) from None
    return column


def _bad_relationship(
    start: str, end: str, rel_type: str, start_kind: str, end_kind: str
) -> KgError:
    where = f"relationship {start!r} -[{rel_type}]-> {end!r}"
    if rel_type not in REL_TYPES:
        return KgError(
            f"{where}: unknown relationship type {rel_type!r}; "
            f"expected one of {', '.join(REL_TYPES)}"
        )
    return KgError(f"{where} joins {start_kind} to {end_kind}; rebuild it with `kg build`")


def by_kind(rows: Iterable[NodeRow]) -> dict[str, list[NodeRow]]:
    """Node rows by kind, kinds in the order they first appear."""
    groups: dict[str, list[NodeRow]] = {}
    for row in rows:
        groups.setdefault(row.kind, []).append(row)
    return groups


def by_group(rows: Iterable[RelationshipRow]) -> dict[tuple[str, str, str], list[RelationshipRow]]:
    """Relationship rows by (type, start kind, end kind), in the order groups first appear."""
    groups: dict[tuple[str, str, str], list[RelationshipRow]] = {}
    for row in rows:
        groups.setdefault(row.group, []).append(row)
    return groups


def sorted_rows[R: (NodeRow, RelationshipRow)](rows: Iterable[R]) -> list[R]:
    """Rows in a stable order: nodes by key, relationships by (type, start, end)."""
    return sorted(rows, key=_sort_key)


def _sort_key(row: NodeRow | RelationshipRow) -> tuple[str, ...]:
    if isinstance(row, NodeRow):
        return (row.key,)
    return row.type, row.start, row.end


def property_names(props: Iterable[Props]) -> list[str]:
    """Sorted names of the properties any of these rows has."""
    return sorted(set().union(*props))


def column_type(values: list[Value]) -> str:
    """The type of a property from its values: int, float, boolean, string[] or '' (string).

    >>> column_type([1, 2]), column_type([1, 2.5]), column_type([True]), column_type([["a"]])
    ('int', 'float', 'boolean', 'string[]')
    >>> column_type(["a", 1])
    ''
    """
    return type_of(set(map(type, values)))


def type_of(kinds: set[type]) -> str:
    """:func:`column_type` of values of these Python types (so parts of a column can be
    typed apart and their sets of types united)."""
    if kinds == {bool}:
        return "boolean"
    if kinds == {int}:
        return "int"
    if kinds and kinds <= {int, float}:
        return "float"
    if kinds == {list}:
        return "string[]"
    return ""


def typed_columns(props: list[Props]) -> list[tuple[str, str]]:
    """``[(name, type)]`` of these rows' properties, names sorted (:func:`column_type`).

    >>> typed_columns([{"n": 1, "t": "x"}, {"n": 2}])
    [('n', 'int'), ('t', '')]
    """
    return [
        (name, column_type([p[name] for p in props if name in p])) for name in property_names(props)
    ]
