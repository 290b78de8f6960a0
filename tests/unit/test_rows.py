"""kg.rows: the neutral node and relationship rows every sink reads."""

import networkx as nx
import pytest

from kg.errors import KgError
from kg.query.traverse import example_graph
from kg.rows import (
    NodeRow,
    RelationshipRow,
    by_group,
    by_kind,
    node_columns,
    node_rows,
    property_names,
    relationship_columns,
    relationship_rows,
    sorted_rows,
    typed_columns,
)
from kg.schema import NODE_KINDS, labels_of
from tests.helpers.neo4j_graphs import paper, small_graph


def test_node_rows_carry_key_and_drop_none():
    rows = by_kind(sorted_rows(node_rows(small_graph())))
    assert sorted(rows) == [
        "Area",
        "Author",
        "Benchmark",
        "Concept",
        "Dataset",
        "Method",
        "Paper",
        "Task",
    ]
    ppo = next(row for row in rows["Method"] if row.key == "method:ppo")
    assert ppo == NodeRow("method:ppo", "Method", {"name": "PPO", "aliases": []})
    assert ppo.labels == ["Method", "Concept"]
    lora_paper = next(row for row in rows["Paper"] if row.key == paper("lora")).props
    assert "label" not in lora_paper and lora_paper["year"] == 2024


def test_relationship_rows_grouped_by_type_and_endpoint_kinds():
    rows = by_group(sorted_rows(relationship_rows(small_graph())))
    assert len(rows[("AUTHORED", "Author", "Paper")]) == 7
    assert len(rows[("EVALUATED_ON", "Paper", "Dataset")]) == 4
    assert rows[("PART_OF", "Dataset", "Benchmark")] == [
        RelationshipRow("PART_OF", "dataset:mnli", "Dataset", "benchmark:glue", "Benchmark", {})
    ]
    assert sum(map(len, rows.values())) == 30


@pytest.mark.parametrize(
    "attrs, message",
    [
        ({"kind": "Planet"}, "kind 'Planet'"),
        ({"kind": "Paper", "sources": [1, 2]}, "non-string items"),
        ({"kind": "Paper", "year": {"y": 1}}, "has type dict"),
    ],
)
def test_node_rows_refuse_what_neo4j_cannot_store(attrs, message):
    G = nx.MultiDiGraph()
    G.add_node("paper:x", **attrs)
    with pytest.raises(KgError, match=message):
        node_rows(G)
    with pytest.raises(KgError, match=message):
        node_columns(G)


@pytest.mark.parametrize(
    "attrs, message",
    [
        ({"kind": "Paper", "sources": [1, 2]}, "node 'paper:x': property 'sources' is a list"),
        ({"kind": "Paper", "year": {"y": 1}}, "node 'paper:x': property 'year' has type dict"),
    ],
)
def test_node_columns_refuse_what_rows_refuse(attrs, message):
    G = nx.MultiDiGraph()
    G.add_node("paper:ok", kind="Paper", year=2020, sources=["a"])
    G.add_node("paper:x", **attrs)
    with pytest.raises(KgError, match=message):
        node_columns(G)
    G.remove_node("paper:x")
    G.add_node("author:a", kind="Author")
    G.add_edge("author:a", "paper:ok", key="AUTHORED", position=1)
    G.add_edge("author:a", "paper:x", key="AUTHORED", **{**attrs, "kind": "x"})
    G.nodes["paper:x"]["kind"] = "Paper"
    where = "relationship 'author:a' -\\[AUTHORED\\]-> 'paper:x'"
    with pytest.raises(KgError, match=where + message.split("'paper:x'")[1]):
        relationship_columns(G)


def mixed_graph():
    """Nodes and relationships whose properties mix types, tuples, None and gaps."""
    G = nx.MultiDiGraph()
    G.add_node("author:a", kind="Author", name="A", variants=("A", "a"), orcid=None)
    G.add_node("author:b", kind="Author", name="B", n=1)
    G.add_node("author:c", kind="Author", name=3.5, n=True, variants=[])
    G.add_node("paper:p", kind="Paper", title=None)
    for i, author in enumerate(("author:a", "author:b", "author:c")):
        G.add_edge(author, "paper:p", key="AUTHORED", position=i + 1, note=None if i else "x")
    return G


def rows_of_columns(G):
    """The rows :func:`node_columns` and :func:`relationship_columns` hold, as rows."""
    nodes = [
        NodeRow(key, group.kind, props_at(group.values, i))
        for group in node_columns(G)
        for i, key in enumerate(group.keys)
    ]
    rels = [
        RelationshipRow(
            group.type, start, group.start_kind, end, group.end_kind, props_at(group.values, i)
        )
        for group in relationship_columns(G)
        for i, (start, end) in enumerate(zip(group.starts, group.ends, strict=True))
    ]
    return nodes, rels


def props_at(values, i):
    return {name: column[i] for name, column in values.items() if column[i] is not None}


@pytest.mark.parametrize("graph", [small_graph, example_graph, mixed_graph])
def test_columns_hold_the_rows_by_group_in_the_graph_order(graph):
    G = graph()
    nodes, rels = rows_of_columns(G)
    assert by_kind(nodes) == by_kind(node_rows(G))
    assert by_group(rels) == by_group(relationship_rows(G))
    for group in node_columns(G):
        assert list(group.values) == sorted(group.values)
        assert all(len(column) == len(group.keys) for column in group.values.values())


def test_a_property_no_row_has_is_no_column():
    G = mixed_graph()
    authors, papers = node_columns(G)
    assert list(authors.values) == ["n", "name", "variants"]
    assert papers.values == {}
    assert authors.values["variants"] == [["A", "a"], None, []]


def test_relationship_rows_refuse_unknown_types():
    G = nx.MultiDiGraph()
    G.add_node("paper:x", kind="Paper")
    G.add_edge("paper:x", "paper:x", key="LIKES")
    with pytest.raises(KgError, match="unknown relationship type 'LIKES'"):
        relationship_rows(G)
    with pytest.raises(KgError, match="unknown relationship type 'LIKES'"):
        relationship_columns(G)


def test_relationship_rows_refuse_ends_the_schema_does_not_join():
    G = nx.MultiDiGraph()
    G.add_node("paper:x", kind="Paper")
    G.add_node("author:y", kind="Author")
    G.add_edge("paper:x", "author:y", key="AUTHORED")
    with pytest.raises(KgError, match="joins Paper to Author"):
        relationship_rows(G)
    with pytest.raises(KgError, match="joins Paper to Author"):
        relationship_columns(G)


def test_rows_keep_the_graph_order_and_sort_stably():
    G = small_graph()
    assert [row.key for row in node_rows(G)] == list(G.nodes)
    rels = relationship_rows(G)
    assert [(row.start, row.end, row.type) for row in rels] == list(G.edges(keys=True))
    assert [row.key for row in sorted_rows(node_rows(G))] == sorted(G.nodes)
    ordered = [(row.type, row.start, row.end) for row in sorted_rows(rels)]
    assert ordered == sorted(ordered)


def test_rows_turn_tuples_into_lists_and_drop_none():
    G = nx.MultiDiGraph()
    G.add_node("author:a", kind="Author", name="A", variants=("A", "a"), orcid=None, key="x")
    (row,) = node_rows(G)
    assert row.props == {"name": "A", "variants": ["A", "a"]}


def test_typed_columns_give_one_type_per_property():
    props = [{"n": 1, "s": 0.5, "t": "x"}, {"n": 2, "s": 1, "ok": True, "names": ["a"]}]
    assert typed_columns(props) == [
        ("n", "int"),
        ("names", "string[]"),
        ("ok", "boolean"),
        ("s", "float"),
        ("t", ""),
    ]
    assert property_names(props) == ["n", "names", "ok", "s", "t"]


@pytest.mark.parametrize("kind", NODE_KINDS)
def test_every_node_kind_of_the_schema_makes_rows(kind):
    G = nx.MultiDiGraph()
    G.add_node(f"{kind.lower()}:x", kind=kind, name="x")
    (row,) = node_rows(G)
    assert row.labels == labels_of(kind) and row.props == {"name": "x"}


@pytest.mark.parametrize("graph", [small_graph, example_graph])
def test_relationship_columns_of_some_types_are_those_groups_of_all(graph):
    G = graph()
    every = relationship_columns(G)
    for rel_type in {group.type for group in every}:
        assert relationship_columns(G, types=(rel_type,)) == [
            group for group in every if group.type == rel_type
        ]
