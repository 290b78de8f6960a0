"""kg.query.networks: the co-author and method-dataset projections as weighted nx.Graphs."""

import doctest
from pathlib import Path

import networkx as nx

import kg
import kg.traverse
from kg.query.example import example_graph
from kg.query.networks import coauthor_graph, method_dataset_graph
from kg.query.traverse_coauthors import coauthors

DOCS = Path(__file__).resolve().parents[2] / "docs" / "traversals.md"


def test_coauthor_graph_weights_are_shared_papers():
    G = example_graph()
    C = coauthor_graph(G)
    assert type(C) is nx.Graph
    authors = {k for k, kind in G.nodes(data="kind") if kind == "Author"}
    assert set(C) == authors
    for a in authors:
        expected = {row["key"]: row["shared"] for row in coauthors(G, a)}
        assert {b: C.edges[a, b]["weight"] for b in C[a]} == expected
    assert C.nodes["author:remimunos"] == {"name": "Rémi Munos", "kind": "Author"}
    assert len(C.edges["author:juliakempe", "author:remimunos"]["papers"]) == 2


def test_method_dataset_graph_weights_are_applying_papers():
    G = example_graph()
    M = method_dataset_graph(G)
    applied = {
        (m, t): data["papers"]
        for m, t, rel, data in G.edges(keys=True, data=True)
        if rel == "APPLIED_TO"
    }
    assert {frozenset(e): w for *e, w in M.edges(data="weight")} == {
        frozenset(pair): n for pair, n in applied.items()
    }
    assert {M.nodes[k]["kind"] for k in M} <= {"Method", "Dataset", "Benchmark"}


def test_importable_from_kg_and_kg_traverse():
    assert kg.coauthor_graph is kg.traverse.coauthor_graph is coauthor_graph
    assert kg.method_dataset_graph is kg.traverse.method_dataset_graph is method_dataset_graph


def test_docs_example_runs():
    failures, tried = doctest.testfile(str(DOCS), module_relative=False, report=True)
    assert tried >= 5 and failures == 0
