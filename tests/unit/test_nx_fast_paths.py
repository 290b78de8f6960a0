"""kg.graph._nx: each fast path into networkx's internals agrees with the public API."""

import networkx as nx
import pytest

from kg.graph import _nx

NODES = [("a", {"kind": "Author"}), ("p", {"kind": "Paper"}), ("q", {"kind": "Paper"})]
EDGES = [("a", "p", "AUTHORED", {"position": 1}), ("a", "q", "AUTHORED", {"position": 2})]


@pytest.fixture
def G():
    G = nx.MultiDiGraph()
    G.add_nodes_from(NODES)
    G.add_edges_from(EDGES)
    G.add_edge("p", "q", key="CITES", weight=0.5)
    return G


def test_node_attrs_is_the_graphs_node_data(G):
    assert _nx.node_attrs(G) == dict(G.nodes(data=True))
    _nx.node_attrs(G)["a"]["name"] = "A"
    assert G.nodes["a"]["name"] == "A"


def test_successors_and_predecessors_are_the_adjacency(G):
    def plain(adjacency):
        return {u: {v: dict(keys) for v, keys in nbrs.items()} for u, nbrs in adjacency.items()}

    assert _nx.successors(G) == plain(G.succ)
    assert _nx.predecessors(G) == plain(G.pred)
    assert list(_nx.successors(G)["a"]) == list(G.successors("a"))
    assert list(_nx.predecessors(G)["q"]) == list(G.predecessors("q"))


def test_insert_nodes_and_edges_equal_add_nodes_and_edges_from():
    fast, slow = nx.MultiDiGraph(), nx.MultiDiGraph()
    _nx.insert_nodes(fast, [(k, dict(a)) for k, a in NODES])
    _nx.insert_edges(fast, [(u, v, k, dict(a)) for u, v, k, a in EDGES])
    slow.add_nodes_from(NODES)
    slow.add_edges_from(EDGES)
    assert nx.utils.graphs_equal(fast, slow)
    assert list(fast.pred["p"]) == list(slow.pred["p"]) == ["a"]
    assert sorted(fast.edges(keys=True, data=True)) == sorted(slow.edges(keys=True, data=True))
    fast.remove_edge("a", "p", "AUTHORED")  # the structure stays consistent under mutation
    assert not fast.has_edge("a", "p") and fast.in_degree("p") == 0


def test_insert_edges_replaces_an_edge_of_the_same_key(G):
    _nx.insert_edges(G, [("a", "p", "AUTHORED", {"position": 9})])
    assert G.edges["a", "p", "AUTHORED"] == {"position": 9}
    assert G.number_of_edges("a", "p") == 1
