"""Every fast path into networkx's internals, in one place.

A kg graph is a ``nx.MultiDiGraph`` whose node, successor and predecessor dicts we read and
fill directly where the public API costs most of a large graph's load, build or count time.
Each function here has a test (``tests/unit/test_nx_fast_paths.py``) that compares it with
the public API, so a networkx release that changes these internals breaks one module.
"""

from collections.abc import Iterable
from typing import Any

import networkx as nx

#: node -> its attribute dict.
NodeDict = dict[Any, dict[str, Any]]
#: u -> {v -> {edge key -> attribute dict}}: the out- (or in-) adjacency.
Adjacency = dict[Any, dict[Any, dict[Any, dict[str, Any]]]]


def node_attrs(G: nx.MultiDiGraph) -> NodeDict:
    """The graph's own node -> attributes dict (``dict(G.nodes(data=True))``, uncopied).

    Change attribute dicts through it, never the dict itself.
    """
    return G._node  # type: ignore[attr-defined]


def successors(G: nx.MultiDiGraph) -> Adjacency:
    """The graph's own out-adjacency ``{u: {v: {key: attrs}}}`` (what ``G.succ`` wraps);
    read only."""
    return G._succ  # type: ignore[attr-defined]


def predecessors(G: nx.MultiDiGraph) -> Adjacency:
    """The graph's own in-adjacency ``{v: {u: {key: attrs}}}`` (what ``G.pred`` wraps);
    read only."""
    return G._pred  # type: ignore[attr-defined]


def insert_nodes(G: nx.MultiDiGraph, nodes: Iterable[tuple[Any, dict[str, Any]]]) -> None:
    """Add new ``(key, attrs)`` nodes: what ``add_nodes_from`` does for absent nodes, without
    its per-node overhead. ``attrs`` becomes the node's attribute dict."""
    node, succ, pred = node_attrs(G), successors(G), predecessors(G)
    for key, attrs in nodes:
        node[key] = attrs
        succ[key] = {}
        pred[key] = {}


def insert_edges(G: nx.MultiDiGraph, edges: Iterable[tuple[Any, Any, Any, dict[str, Any]]]) -> None:
    """Add ``(u, v, key, attrs)`` edges between nodes of ``G`` (about three times faster than
    ``add_edges_from``); an edge of the same key between the same nodes is replaced and
    ``attrs`` becomes the edge's attribute dict."""
    succ, pred = successors(G), predecessors(G)
    for u, v, key, attrs in edges:
        keydict = succ[u].get(v)
        if keydict is None:
            keydict = succ[u][v] = pred[v][u] = {}
        keydict[key] = attrs
