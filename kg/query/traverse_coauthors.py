"""Co-author traversals: co-authors, authors within some hops, the shortest chain, hubs.

Rows mirror the named queries of the same names; ties are broken by name, then key.
"""

from collections.abc import Collection, Mapping
from typing import Any

import networkx as nx

from kg.query.cache import cached
from kg.query.lookup import find_node, node_name, paper_name
from kg.schema import AUTHOR, AUTHORED

#: Who is linked to whom: {author: {co-author: anything}} (as :func:`collaborations`).
Index = Mapping[str, Collection[str]]
#: The longest chain :func:`collaboration_path` looks for, in co-author steps; the named query
#: bounds its pattern to twice as many AUTHORED relationships (``[:AUTHORED*..12]``), since
#: an unbounded shortest path can run for minutes on an engine.
MAX_CHAIN_STEPS = 6


def papers_of(G: nx.MultiDiGraph, author: str) -> list[str]:
    """Keys of the papers an author key wrote."""
    return [p for p in G.successors(author) if AUTHORED in G[author][p]]


def authors_of(G: nx.MultiDiGraph, paper: str) -> list[str]:
    """Keys of the authors of a paper key."""
    return [a for a in G.predecessors(paper) if AUTHORED in G[a][paper]]


def collaborations(G: nx.MultiDiGraph) -> dict[str, dict[str, list[str]]]:
    """{author key: {co-author key: [shared paper keys]}} for every author with a co-author.

    Built once per graph (see :mod:`kg.query.cache`) for the traversals that walk many authors.
    """

    def build(G: nx.MultiDiGraph) -> dict[str, dict[str, list[str]]]:
        authors: dict[str, list[str]] = {}
        for a, p, rel in G.edges(keys=True):
            if rel == AUTHORED:
                authors.setdefault(p, []).append(a)
        index: dict[str, dict[str, list[str]]] = {}
        for p, names in authors.items():
            for a in names if len(names) > 1 else ():
                shared = index.setdefault(a, {})
                for b in names:
                    if a != b:
                        shared.setdefault(b, []).append(p)
        return index

    return cached(G, "collaborations", build)


def _collaborators(G: nx.MultiDiGraph, author: str) -> dict[str, list[str]]:
    """{co-author key: [shared paper keys]} of one author key."""
    shared: dict[str, list[str]] = {}
    for p in papers_of(G, author):
        for b in authors_of(G, p):
            if b != author:
                shared.setdefault(b, []).append(p)
    return shared


def coauthors(G: nx.MultiDiGraph, author: str, *, limit: int | None = None) -> list[dict[str, Any]]:
    """An author's co-authors, most shared papers first, each with the papers they share.

    Examples
    --------
    >>> from kg.query.example import example_graph
    >>> G = example_graph()
    >>> for row in coauthors(G, "julia kempe"):
    ...     print(row["coauthor"], row["shared"], row["papers"])
    Rémi Munos 2 ['Bandits Again', 'Sharper Bounds']
    Yann Ollivier 2 ['Quantum Walks', 'Sharper Bounds']
    >>> coauthors(G, "Ada Lovelace")
    []
    """
    a = find_node(G, author, kinds=(AUTHOR,))
    rows: list[dict[str, Any]] = [
        {
            "coauthor": node_name(G, b),
            "key": b,
            "shared": len(ps),
            "papers": sorted(paper_name(G, p) for p in ps),
        }
        for b, ps in _collaborators(G, a).items()
    ]
    rows.sort(key=lambda r: (-r["shared"], r["coauthor"], r["key"]))
    return rows[:limit]


def coauthors_within(G: nx.MultiDiGraph, author: str, *, hops: int = 2) -> list[dict[str, Any]]:
    """Authors within ``hops`` co-authorship steps, with their distance (1 = co-author).

    >>> from kg.query.example import example_graph
    >>> for row in coauthors_within(example_graph(), "Julia Kempe", hops=2):
    ...     print(row["distance"], row["author"])
    1 Rémi Munos
    1 Yann Ollivier
    2 Carol Chen
    """
    if hops < 1:
        raise ValueError("hops must be at least 1")
    a = find_node(G, author, kinds=(AUTHOR,))
    distance = {a: 0}
    frontier = {a}
    for d in range(1, hops + 1):
        ring = {b for x in frontier for b in _collaborators(G, x) if b not in distance}
        distance.update(dict.fromkeys(ring, d))
        frontier = ring
    rows: list[dict[str, Any]] = [
        {"author": node_name(G, b), "key": b, "distance": d} for b, d in distance.items() if d
    ]
    rows.sort(key=lambda r: (r["distance"], r["author"], r["key"]))
    return rows


def _bfs_level(index: Index, frontier: set[str], seen: dict[str, int]) -> set[str]:
    """The next breadth-first level from ``frontier``; records distances in ``seen``."""
    level = set()
    depth = seen[next(iter(frontier))] + 1
    for x in frontier:
        for y in index.get(x, ()):
            if y not in seen:
                seen[y] = depth
                level.add(y)
    return level


def shortest_chain_layers(
    index: Index, a: str, b: str, *, max_steps: int = MAX_CHAIN_STEPS
) -> list[set[str]] | None:
    """The authors on shortest chains from ``a`` to ``b``, position by position, or None
    when there is no chain of at most ``max_steps`` steps.

    Breadth first from both ends (always the smaller frontier) until the searches meet at
    length ``d``; the layers are then pruned outwards from a position both searches reached,
    so that layer ``i`` holds exactly the authors at position ``i`` of some shortest chain.
    Searches that have gone ``max_steps`` between them without meeting give up: the ends
    are farther apart than that.

    >>> index = {"a": {"x": 1, "y": 1}, "x": {"a": 1, "b": 1}, "y": {"a": 1, "z": 1},
    ...          "z": {"y": 1, "b": 1}, "b": {"x": 1, "z": 1}}
    >>> [sorted(layer) for layer in shortest_chain_layers(index, "a", "b")]
    [['a'], ['x'], ['b']]
    >>> shortest_chain_layers({"a": {}, "b": {}}, "a", "b") is None
    True
    >>> shortest_chain_layers(index, "a", "b", max_steps=1) is None
    True
    """
    from_a, from_b = {a: 0}, {b: 0}
    levels_a, levels_b = [{a}], [{b}]
    while True:
        meet = [x for x in levels_a[-1] if x in from_b] + [x for x in levels_b[-1] if x in from_a]
        if meet:
            d = min(from_a[x] + from_b[x] for x in meet)
            break
        if len(levels_a) + len(levels_b) - 2 >= max_steps:
            return None
        levels, seen = min((levels_a, from_a), (levels_b, from_b), key=lambda s: len(s[0][-1]))
        level = _bfs_level(index, levels[-1], seen)
        if not level:
            return None
        levels.append(level)
    k = max(0, d - (len(levels_b) - 1))
    layers = {k: {x for x in levels_a[k] if from_b.get(x) == d - k}}
    for i in range(k - 1, -1, -1):
        layers[i] = {x for y in layers[i + 1] for x in index.get(y, ()) if from_a.get(x) == i}
    for i in range(k + 1, d + 1):
        layers[i] = {x for y in layers[i - 1] for x in index.get(y, ()) if from_b.get(x) == d - i}
    return [layers[i] for i in range(d + 1)]


def collaboration_path(G: nx.MultiDiGraph, source: str, target: str) -> list[dict[str, Any]]:
    """The shortest chain of co-authors from ``source`` to ``target``, with linking papers.

    Each row is one author on the path with the papers it shares with the previous one.
    Of several shortest chains, the one whose author keys come first in order wins.
    No chain of at most :data:`MAX_CHAIN_STEPS` co-author steps (or ``source`` is
    ``target``) gives ``[]``.

    >>> from kg.query.example import example_graph
    >>> for row in collaboration_path(example_graph(), "Julia Kempe", "Carol Chen"):
    ...     print(row["step"], row["author"], row["papers"])
    0 Julia Kempe []
    1 Rémi Munos ['Bandits Again', 'Sharper Bounds']
    2 Carol Chen ['Edge Case']
    >>> collaboration_path(example_graph(), "Julia Kempe", "Dan Diaz")
    []
    """
    a = find_node(G, source, kinds=(AUTHOR,))
    b = find_node(G, target, kinds=(AUTHOR,))
    index = collaborations(G)
    layers = shortest_chain_layers(index, a, b) if a != b else None
    if not layers:
        return []
    chain = [a]
    for layer in layers[1:]:
        chain.append(min(x for x in index[chain[-1]] if x in layer))
    rows = []
    for step, x in enumerate(chain):
        shared = index[x][chain[step - 1]] if step else []
        rows.append(
            {
                "step": step,
                "author": node_name(G, x),
                "key": x,
                "papers": sorted(paper_name(G, p) for p in shared),
            }
        )
    return rows


def top_collaborators(G: nx.MultiDiGraph, *, limit: int = 10) -> list[dict[str, Any]]:
    """The authors with the most distinct co-authors, with their paper counts.

    >>> from kg.query.example import example_graph
    >>> for row in top_collaborators(example_graph(), limit=2):
    ...     print(row["author"], row["coauthors"], row["papers"])
    Rémi Munos 3 3
    Julia Kempe 2 3
    """
    index = collaborations(G)
    ranking = cached(
        G,
        "collaborator_ranking",
        lambda G: sorted(index, key=lambda a: (-len(index[a]), node_name(G, a), a)),
    )
    return [
        {
            "author": node_name(G, a),
            "key": a,
            "coauthors": len(index[a]),
            "papers": len(papers_of(G, a)),
        }
        for a in ranking[:limit]
    ]
