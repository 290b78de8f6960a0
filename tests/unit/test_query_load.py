"""kg.query.load: the graph's columns packed as GRAPH.BULK commands (read back here)."""

import struct

import networkx as nx
import pytest

from kg.errors import KgError
from kg.query.load import Unpackable, bulk_commands, encoded_column, pack_value
from kg.query.traverse import example_graph
from kg.rows import node_columns, node_rows, relationship_columns, relationship_rows
from kg.schema import labels_of


def read_value(data, i):
    """The value at ``data[i]`` and where the next one starts (the server's reading)."""
    kind, i = data[i], i + 1
    if kind == 0:
        return None, i
    if kind == 1:
        return bool(data[i]), i + 1
    if kind in (2, 4):
        return struct.unpack_from("<d" if kind == 2 else "<q", data, i)[0], i + 8
    if kind == 3:
        end = data.index(0, i)
        return data[i:end].decode(), end + 1
    assert kind == 5
    (length,), i = struct.unpack_from("<q", data, i), i + 8
    items = []
    for _ in range(length):
        item, i = read_value(data, i)
        items.append(item)
    return items, i


def read_token(token, *, relationship):
    """(labels, [(ends or None, {name: value})]) of one token."""
    end = token.index(0)
    labels, i = token[:end].decode(), end + 1
    (count,), i = struct.unpack_from("<I", token, i), i + 4
    names = []
    for _ in range(count):
        end = token.index(0, i)
        names.append(token[i:end].decode())
        i = end + 1
    rows = []
    while i < len(token):
        ends = None
        if relationship:
            ends, i = struct.unpack_from("<QQ", token, i), i + 16
        props = {}
        for name in names:
            value, i = read_value(token, i)
            if value is not None:
                props[name] = value
        rows.append((ends, props))
    return labels, rows


def read_back(commands):
    """The nodes ``[(number, labels, props)]`` and relationships ``[(type, start, end,
    props)]`` the commands create, numbering nodes as the server does."""
    nodes, rels = [], []
    for command in commands:
        for token in command.node_tokens:
            labels, rows = read_token(token, relationship=False)
            nodes += [(len(nodes) + i, labels, props) for i, (_, props) in enumerate(rows)]
        for token in command.relationship_tokens:
            rel, rows = read_token(token, relationship=True)
            rels += [(rel, *ends, props) for ends, props in rows]
    return nodes, rels


def mixed_graph():
    G = nx.MultiDiGraph()
    G.add_node("author:a", kind="Author", name="Ä 😀", variants=("A", "a"), score=-0.0)
    G.add_node("author:b", kind="Author", name="B", n=2**62, ok=False, variants=[])
    G.add_node("method:m", kind="Method", name="M", score=0.1 + 0.2)
    G.add_node("paper:p", kind="Paper", title="T")
    G.add_edge("author:b", "paper:p", key="AUTHORED", position=1, truncated_list=True)
    G.add_edge("author:a", "paper:p", key="AUTHORED", position=2)
    G.add_edge("paper:p", "method:m", key="USES", score=0.5, evidence="e")
    return G


@pytest.mark.parametrize("graph", [example_graph, mixed_graph])
@pytest.mark.parametrize("max_bytes", [200, 32_000_000])
def test_commands_read_back_as_the_graph_rows(graph, max_bytes):
    G = graph()
    commands = bulk_commands(node_columns(G), relationship_columns(G), max_bytes=max_bytes)
    nodes, rels = read_back(commands)
    key_of = {number: props["key"] for number, _, props in nodes}
    expected_nodes = {row.key: (":".join(labels_of(row.kind)), row.props) for row in node_rows(G)}
    assert {
        key_of[n]: (labels, {k: v for k, v in p.items() if k != "key"}) for n, labels, p in nodes
    } == expected_nodes
    expected_rels = sorted(
        (r.type, r.start, r.end, sorted(r.props.items())) for r in relationship_rows(G)
    )
    assert (
        sorted((t, key_of[a], key_of[b], sorted(p.items())) for t, a, b, p in rels) == expected_rels
    )
    assert sum(c.nodes for c in commands) == len(nodes) == G.number_of_nodes()
    assert sum(c.relationships for c in commands) == len(rels) == G.number_of_edges()


def test_nodes_are_numbered_by_kind_then_graph_order_and_sent_before_relationships():
    G = mixed_graph()
    commands = bulk_commands(node_columns(G), relationship_columns(G), max_bytes=120)
    assert len(commands) > 2
    nodes, rels = read_back(commands)
    assert [p["key"] for _, _, p in nodes] == ["author:a", "author:b", "method:m", "paper:p"]
    assert [labels for _, labels, _ in nodes] == ["Author", "Author", "Method:Concept", "Paper"]
    assert [(t, a, b) for t, a, b, _ in rels] == [
        ("AUTHORED", 0, 3),  # the graph's order: by start node
        ("AUTHORED", 1, 3),
        ("USES", 3, 2),
    ]
    seen_relationship = False
    for command in commands:
        assert len(command.node_tokens) + len(command.relationship_tokens) >= 1
        assert not (seen_relationship and command.node_tokens)
        seen_relationship |= bool(command.relationship_tokens)
        assert sum(map(len, command.node_tokens + command.relationship_tokens)) <= 120


def test_relationships_sent_later_number_their_ends_as_the_nodes_sent_before():
    G = mixed_graph()
    numbers: dict[str, int] = {}
    later = relationship_columns(G, types=("USES",))
    first = bulk_commands(
        node_columns(G), [g for g in relationship_columns(G) if g.type != "USES"], numbers=numbers
    )
    second = bulk_commands([], later, numbers=numbers)
    assert [c.nodes for c in second] == [0] and [c.relationships for c in second] == [1]
    together = bulk_commands(node_columns(G), relationship_columns(G))
    assert read_back(first + second) == read_back(together)


def test_relationships_later_to_a_node_never_sent_are_an_error():
    G = mixed_graph()
    numbers: dict[str, int] = {}
    bulk_commands([], [], numbers=numbers)
    with pytest.raises(KgError, match="'paper:p' is no node"):
        bulk_commands([], relationship_columns(G, types=("USES",)), numbers=numbers)


def test_values_pack_exactly():
    G = mixed_graph()
    nodes, _ = read_back(bulk_commands(node_columns(G), relationship_columns(G)))
    a, b, m = (props for _, _, props in nodes[:3])
    assert a["name"] == "Ä 😀" and a["variants"] == ["A", "a"]
    assert str(a["score"]) == "-0.0" and m["score"] == 0.1 + 0.2
    assert b["n"] == 2**62 and b["ok"] is False and b["variants"] == []


@pytest.mark.parametrize(
    "values", [["a", "a", "a", "a", "b", None], [1] * 9, [True] * 9, [0.0, -0.0] * 5, [1, True] * 5]
)
def test_an_encoded_column_is_its_values_packed_one_by_one(values):
    assert encoded_column(values) == [pack_value(v) for v in values]


@pytest.mark.parametrize("value", ["a\x00b", ["ok", "x\x00"], {"a": 1}])
def test_what_the_format_cannot_carry_is_refused(value):
    with pytest.raises(Unpackable):
        pack_value(value)
    if isinstance(value, str):
        with pytest.raises(Unpackable):
            encoded_column([value] * 9)


def test_property_names_are_checked():
    from kg.query.load import token_header

    with pytest.raises(KgError, match="not a plain identifier"):
        token_header("Paper", ["title`) DELETE (n"])
