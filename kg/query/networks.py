"""The graph's projections as plain weighted ``nx.Graph``s, for networkx's algorithms.

``coauthor_graph`` joins authors who wrote a paper together; ``method_dataset_graph`` joins
a method to each dataset or benchmark it was applied to (APPLIED_TO). Edge ``weight`` is
the number of papers behind the link, and ``papers`` their keys; nodes carry ``name`` and
``kind``. Nodes and edges are added in key order, so algorithms that depend on order (and a
seed) give the same answer every time.

>>> import networkx as nx
>>> from kg.query.example import example_graph
>>> C = coauthor_graph(example_graph())
>>> C.edges["author:juliakempe", "author:remimunos"]["weight"]
2
>>> communities = nx.community.louvain_communities(C, weight="weight", seed=1)
>>> for group in sorted(sorted(C.nodes[a]["name"] for a in group) for group in communities):
...     print(", ".join(group))
Ada Lovelace
Carol Chen, Julia Kempe, Rémi Munos, Yann Ollivier
Dan Diaz, Eve Evans
"""

import networkx as nx

from kg.query.lookup import node_name
from kg.query.traverse_coauthors import collaborations
from kg.schema import APPLIED_TO, AUTHOR


def coauthor_graph(G: nx.MultiDiGraph) -> nx.Graph:
    """Authors (every one, co-authors or not) joined by the papers they share:
    ``weight`` = shared papers, ``papers`` = their keys."""
    C: nx.Graph = nx.Graph()
    C.add_nodes_from(
        (a, {"name": node_name(G, a), "kind": AUTHOR})
        for a in sorted(k for k, kind in G.nodes(data="kind") if kind == AUTHOR)
    )
    index = collaborations(G)
    C.add_edges_from(
        (a, b, {"weight": len(index[a][b]), "papers": sorted(index[a][b])})
        for a in sorted(index)
        for b in sorted(index[a])
        if a < b
    )
    return C


def method_dataset_graph(G: nx.MultiDiGraph) -> nx.Graph:
    """Methods joined to the datasets and benchmarks they were applied to: ``weight`` =
    papers applying the method there, ``papers`` = their keys.

    >>> from kg.query.example import example_graph
    >>> M = method_dataset_graph(example_graph())
    >>> for u, v, w in M.edges(data="weight"):
    ...     print(M.nodes[u]["name"], "->", M.nodes[v]["name"], w)
    GRPO -> GLUE 1
    GRPO -> MNLI 1
    PPO -> ImageNet 2
    """
    M: nx.Graph = nx.Graph()
    edges = sorted(
        ((m, t, data) for m, t, rel, data in G.edges(keys=True, data=True) if rel == APPLIED_TO),
        key=lambda edge: (edge[0], edge[1]),
    )
    for m, t, _ in edges:
        for key in (m, t):
            M.add_node(key, name=node_name(G, key), kind=G.nodes[key]["kind"])
    M.add_edges_from(
        (
            m,
            t,
            {
                "weight": data.get("papers", len(data.get("paper_keys") or ())),
                "papers": sorted(data.get("paper_keys") or ()),
            },
        )
        for m, t, data in edges
    )
    return M
