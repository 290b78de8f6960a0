"""One cache of what the traversals and the name lookup derive from a graph.

Each value is computed once per graph and again when the graph's node count changes; the
cache holds the graph weakly, so a graph that goes away takes its values with it.
(Counting a MultiDiGraph's edges takes a second on a large graph, so edges added between
existing nodes go unnoticed: call :func:`forget` after such an edit.)
"""

import weakref
from collections.abc import Callable, Hashable
from typing import Any

import networkx as nx

_CACHE: "weakref.WeakKeyDictionary[nx.MultiDiGraph, dict[Hashable, tuple[int, Any]]]" = (
    weakref.WeakKeyDictionary()
)


def cached[T](G: nx.MultiDiGraph, name: Hashable, build: Callable[[nx.MultiDiGraph], T]) -> T:
    """``build(G)``, computed once per graph and ``name``, again when the node count changes.

    >>> G = nx.MultiDiGraph()
    >>> cached(G, "size", len), cached(G, "size", lambda G: "not called")
    (0, 0)
    >>> G.add_node("a"); cached(G, "size", len)
    1
    """
    stamp = G.number_of_nodes()
    per_graph = _CACHE.setdefault(G, {})
    entry = per_graph.get(name)
    if entry is None or entry[0] != stamp:
        entry = per_graph[name] = (stamp, build(G))
    return entry[1]


def forget(G: nx.MultiDiGraph) -> None:
    """Drop everything cached about ``G`` (after editing it in place)."""
    _CACHE.pop(G, None)
