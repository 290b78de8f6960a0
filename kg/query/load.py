"""Materialising the graph's rows (:mod:`kg.rows`) into an empty embedded engine.

FalkorDB's bulk insert, ``GRAPH.BULK``, takes the rows packed as binary fields, a column
at a time from :func:`kg.rows.node_columns` and :func:`kg.rows.relationship_columns`.
Nodes are numbered 0, 1, 2, ... in the order they are sent, so a relationship names its
ends by those numbers instead of being matched by label and key; the ``key`` indexes are
created after the load. A string holding NUL cannot be packed (the format ends strings
with NUL, and Cypher literals cannot hold one either): builds replace NUL at read time, and
a graph that still holds one (built before) is loaded with U+FFFD in its place and a note.

Binary layout of one token (one label or relationship type, many rows), little-endian:
``labels\\0`` (``Method:Concept``), ``uint32`` property count, ``name\\0`` per property,
then per row (relationships first give ``uint64`` start and end numbers) one field per
property: a type byte and its payload (null 0; bool 1 + byte; double 2 + 8 bytes;
string 3 + UTF-8 + NUL; long 4 + 8 bytes; array 5 + ``int64`` length + fields).

Examples
--------
>>> pack_value("ab"), pack_value(None), pack_value(True), pack_value(2)
(b'\\x03ab\\x00', b'\\x00', b'\\x01\\x01', b'\\x04\\x02\\x00\\x00\\x00\\x00\\x00\\x00\\x00')
>>> pack_value(["x"])[9:]  # type 5, the length as 8 bytes, the items
b'\\x03x\\x00'
"""

import struct
import warnings
from collections.abc import Sequence
from itertools import chain
from typing import NamedTuple, Protocol

from kg.errors import KgError, KgNote
from kg.neo4j.cypher import key_schema_queries, node_labels, property_name, rel_type
from kg.rows import NodeColumns, RelationshipColumns, Value

#: Bytes of one bulk command at most (the server's own limit on one argument is 512 MB).
MAX_COMMAND_BYTES = 32_000_000

_LONG = struct.Struct("<Bq").pack
_DOUBLE = struct.Struct("<Bd").pack
_ARRAY = struct.Struct("<Bq").pack
_ENDS = struct.Struct("<QQ").pack
_COUNT = struct.Struct("<I").pack
_NULL, _TRUE, _FALSE = b"\x00", b"\x01\x01", b"\x01\x00"
#: Types whose equal values pack alike (not floats: -0.0 == 0.0).
_REPEATING = frozenset((str, int, bool))


class Unpackable(ValueError):
    """A value the bulk format cannot carry (a string holding NUL)."""


class BulkCommand(NamedTuple):
    """One ``GRAPH.BULK`` call: how many nodes and relationships, and their tokens."""

    nodes: int
    relationships: int
    node_tokens: list[bytes]
    relationship_tokens: list[bytes]


class Engine(Protocol):
    """What loading needs of an engine (:class:`kg.query.engine.EmbeddedEngine`)."""

    def write(self, cypher: str, params: dict | None = None) -> None: ...

    def bulk(self, commands: list[BulkCommand], *, begin: bool = True) -> None: ...


def pack_value(value: Value | None) -> bytes:
    """One property field; raises :class:`Unpackable` for a string holding NUL."""
    kind = type(value)
    if kind is str:
        if "\x00" in value:  # type: ignore[operator]
            raise Unpackable("a string holds NUL")
        return b"\x03" + value.encode() + _NULL  # type: ignore[union-attr]
    if value is None:
        return _NULL
    if kind is bool:
        return _TRUE if value else _FALSE
    if kind is int:
        return _LONG(4, value)
    if kind is float:
        return _DOUBLE(2, value)
    if kind is list:
        return _ARRAY(5, len(value)) + b"".join(map(pack_value, value))  # type: ignore[arg-type]
    raise Unpackable(f"a {kind.__name__} value")


def token_header(labels: str, columns: Sequence[str]) -> bytes:
    """A token's header: its labels (or type) and property names.

    >>> token_header("Area", ["key", "name"])
    b'Area\\x00\\x02\\x00\\x00\\x00key\\x00name\\x00'
    """
    for name in columns:
        property_name(name)  # checked to be a plain identifier
    names = b"".join(name.encode() + _NULL for name in columns)
    return labels.encode() + _NULL + _COUNT(len(columns)) + names


def _tokens(header: bytes, fields: list[list[bytes]], max_bytes: int) -> list[tuple[int, bytes]]:
    """``(rows, token)`` pairs of rows given as columns of fields, each token within max_bytes
    (or one row, if a row alone is larger)."""
    rows = len(fields[0])
    sizes = [list(map(len, column)) for column in fields]
    if len(header) + sum(map(sum, sizes)) <= max_bytes:
        return [(rows, header + b"".join(chain.from_iterable(zip(*fields, strict=True))))]
    tokens, start, size = [], 0, len(header)
    for row, row_size in enumerate(map(sum, zip(*sizes, strict=True))):
        if row > start and size + row_size > max_bytes:
            tokens.append(_token(header, fields, start, row))
            start, size = row, len(header)
        size += row_size
    tokens.append(_token(header, fields, start, rows))
    return tokens


def _token(header: bytes, fields: list[list[bytes]], start: int, end: int) -> tuple[int, bytes]:
    """The token of the rows ``start`` to ``end`` (not included)."""
    parts = zip(*(column[start:end] for column in fields), strict=True)
    return end - start, header + b"".join(chain.from_iterable(parts))


def encoded_column(values: Sequence[Value | None]) -> list[bytes]:
    """Each value of a column as a property field (:func:`pack_value`), plain columns fast.

    >>> encoded_column(["a", None, "a"]), encoded_column([1]) == [pack_value(1)]
    ([b'\\x03a\\x00', b'\\x00', b'\\x03a\\x00'], True)
    """
    kinds = set(map(type, values))
    kinds.discard(type(None))
    if kinds == {str}:
        if "\x00" in "".join(value for value in values if value is not None):  # type: ignore[misc]
            raise Unpackable("a string holds NUL")
    if len(kinds) == 1 and kinds <= _REPEATING:  # one type, so no 1 == True == 1.0 confusion
        distinct = set(values)
        if len(distinct) * 4 < len(values):  # few values, many rows: pack each value once
            packed = {value: pack_value(value) for value in distinct}
            return list(map(packed.__getitem__, values))
    if kinds == {str}:
        return [_NULL if v is None else b"\x03" + v.encode() + _NULL for v in values]  # type: ignore[union-attr]
    if kinds == {int}:
        return [_NULL if v is None else _LONG(4, v) for v in values]
    if kinds == {float}:
        return [_NULL if v is None else _DOUBLE(2, v) for v in values]
    if kinds == {list}:
        return _encoded_lists(values)  # type: ignore[arg-type]
    return [pack_value(value) for value in values]


def _encoded_lists(values: Sequence[list[str] | None]) -> list[bytes]:
    """A column of string lists (or None) as fields, each distinct string packed once.

    >>> _encoded_lists([["a"], None, []]) == [pack_value(["a"]), _NULL, pack_value([])]
    True
    """
    packed: dict[str, bytes] = {}

    def field(items: list[str]) -> bytes:
        parts = [_ARRAY(5, len(items))]
        for item in items:
            part = packed.get(item)
            if part is None:
                part = packed[item] = pack_value(item)
            parts.append(part)
        return b"".join(parts)

    return [_NULL if items is None else field(items) for items in values]


def bulk_commands(
    nodes: list[NodeColumns],
    relationships: list[RelationshipColumns],
    *,
    max_bytes: int = MAX_COMMAND_BYTES,
    numbers: dict[str, int] | None = None,
) -> list[BulkCommand]:
    """The graph's columns (:mod:`kg.rows`) as ``GRAPH.BULK`` commands for an empty graph.

    Nodes go by kind (kinds sorted), each kind by key; relationships by type (sorted), then
    by the kinds they join, each group by start and end node. So the commands depend on the
    graph alone, not on the order it was built or loaded in. :class:`Unpackable` if a value
    cannot go. ``numbers``, if given, gets each node's number; commands of relationships
    alone (no ``nodes``) that follow earlier ones take their ends' numbers from it.
    """
    tokens: list[tuple[bool, int, bytes]] = []  # (is a node token, rows, token)
    number: dict[str, int] = {} if numbers is None else numbers
    for group in sorted(nodes, key=lambda g: g.kind):
        header = token_header(node_labels(group.kind), ["key", *group.values])
        order = sorted(range(len(group.keys)), key=group.keys.__getitem__)
        keys = _permuted(group.keys, order)
        number.update(zip(keys, range(len(number), len(number) + len(keys)), strict=True))
        fields = [
            encoded_column(keys),
            *(encoded_column(_permuted(column, order)) for column in group.values.values()),
        ]
        for count, token in _tokens(header, fields, max_bytes):
            tokens.append((True, count, token))
    width = len(number)
    for rels in sorted(relationships, key=lambda g: (g.type, g.start_kind, g.end_kind)):
        header = token_header(rel_type(rels.type), list(rels.values))
        starts, ends_ = _numbered(number, rels.starts), _numbered(number, rels.ends)
        pair = [start * width + end for start, end in zip(starts, ends_, strict=True)]
        order = sorted(range(len(pair)), key=pair.__getitem__)
        ends = list(map(_ENDS, _permuted(starts, order), _permuted(ends_, order)))
        fields = [ends, *(encoded_column(_permuted(c, order)) for c in rels.values.values())]
        for count, token in _tokens(header, fields, max_bytes):
            tokens.append((False, count, token))
    return _commands(tokens, max_bytes)


def _numbered(number: dict[str, int], keys: list[str]) -> list[int]:
    """The numbers of the nodes ``keys``; :class:`Unpackable` for a key holding NUL that was
    numbered cleaned (in earlier commands), KgError for a node not sent."""
    try:
        return list(map(number.__getitem__, keys))
    except KeyError as exc:
        if "\x00" in exc.args[0]:
            raise Unpackable("a string holds NUL") from None
        raise KgError(f"relationship end {exc.args[0]!r} is no node of the graph") from None


def _permuted(column: Sequence, order: list[int]) -> list:
    """``column`` in ``order`` (a list of its positions)."""
    return list(map(column.__getitem__, order))


def _commands(tokens: list[tuple[bool, int, bytes]], max_bytes: int) -> list[BulkCommand]:
    commands, current, size = [], BulkCommand(0, 0, [], []), 0
    for is_node, count, token in tokens:
        if size and size + len(token) > max_bytes:
            commands.append(current)
            current, size = BulkCommand(0, 0, [], []), 0
        if is_node:
            current = current._replace(nodes=current.nodes + count)
            current.node_tokens.append(token)
        else:
            current = current._replace(relationships=current.relationships + count)
            current.relationship_tokens.append(token)
        size += len(token)
    if size:
        commands.append(current)
    return commands


#: What the engine holds in place of NUL.
NUL_MARK = "\ufffd"


def _without_nul(value: Value | None) -> Value | None:
    if isinstance(value, str):
        return value.replace("\x00", NUL_MARK)
    if isinstance(value, list):
        return [item.replace("\x00", NUL_MARK) for item in value]
    return value


def without_nul(
    nodes: list[NodeColumns], relationships: list[RelationshipColumns]
) -> tuple[list[NodeColumns], list[RelationshipColumns], int]:
    """The columns with U+FFFD for every NUL in their keys and text, and how many values
    held one.

    >>> from kg.rows import NodeColumns
    >>> (group,), _, n = without_nul([NodeColumns("Author", ["a"], {"name": ["x\\x00y"]})], [])
    >>> group.values["name"] == ["x\\ufffdy"], n
    (True, 1)
    """
    changed = 0

    def clean(column: Sequence[Value | None]) -> list[Value | None]:
        nonlocal changed
        cleaned = list(map(_without_nul, column))
        changed += sum(a != b for a, b in zip(column, cleaned, strict=True))
        return cleaned

    def clean_values(values: dict[str, list[Value | None]]) -> dict[str, list[Value | None]]:
        return {name: clean(column) for name, column in values.items()}

    node_groups = [
        g._replace(keys=clean(g.keys), values=clean_values(g.values))  # type: ignore[arg-type]
        for g in nodes
    ]
    rel_groups = [
        g._replace(
            starts=[key.replace("\x00", NUL_MARK) for key in g.starts],
            ends=[key.replace("\x00", NUL_MARK) for key in g.ends],
            values=clean_values(g.values),
        )
        for g in relationships
    ]
    return node_groups, rel_groups, changed


def column_commands(
    nodes: list[NodeColumns],
    relationships: list[RelationshipColumns],
    *,
    numbers: dict[str, int] | None = None,
) -> list[BulkCommand]:
    """The bulk commands of the graph's columns (:func:`bulk_commands`, ``numbers`` as
    there). A graph holding NUL (which the bulk format cannot carry) is loaded with U+FFFD
    in its place, told in a :class:`kg.errors.KgNote`."""
    try:
        return bulk_commands(nodes, relationships, numbers=numbers)
    except Unpackable as exc:
        if "NUL" not in str(exc):
            raise KgError(f"the embedded Cypher engine cannot load this graph: {exc}") from None
        nodes, relationships, changed = without_nul(nodes, relationships)
        warnings.warn(
            KgNote(
                f"{changed:,} values of the graph hold NUL, which the embedded engine cannot "
                "carry; it holds U+FFFD in their place (builds now replace NUL when they "
                "read a record: rebuild with --fresh to clean the graph file too)"
            ),
            stacklevel=3,
        )
        if numbers is not None and nodes:
            numbers.clear()  # numbered again, by the cleaned keys
        return bulk_commands(nodes, relationships, numbers=numbers)


def send_commands(engine: Engine, commands: list[BulkCommand]) -> None:
    """Bulk-load ``commands`` into an empty engine, then index every label's ``key``."""
    engine.bulk(commands)
    index_keys(engine)


def index_keys(engine: Engine) -> None:
    """Index every label's ``key`` (after the bulk load)."""
    for statement in key_schema_queries(constraints=False):
        engine.write(statement)
