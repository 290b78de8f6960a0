"""Method <-> dataset traversals over APPLIED_TO: what a method (or its versions and sizes)
was applied to, what was applied to a dataset or benchmark (and its parts), and the best
supported pairs.

Rows mirror the named queries of the same names; ties are broken by name, then key.
"""

from typing import Any

import networkx as nx

from kg.query.cache import cached
from kg.query.lookup import find_node, node_name, paper_name
from kg.schema import APPLIED_TO, COLLECTION_KINDS, METHOD, PART_OF, VARIANT_OF


def _applied_row(
    G: nx.MultiDiGraph, method: str, target: str, attrs: dict[str, Any]
) -> dict[str, Any]:
    papers = attrs.get("paper_keys") or []
    return {
        "method": node_name(G, method),
        "method_key": method,
        "target": node_name(G, target),
        "target_key": target,
        "target_kind": G.nodes[target]["kind"],
        "count": attrs.get("papers", len(papers)),
        "papers": sorted(paper_name(G, p) for p in papers),
        "evidence": sorted(set(attrs.get("evidence") or ())),
    }


def datasets_of(
    G: nx.MultiDiGraph, method: str, *, include_variants: bool = False
) -> list[dict[str, Any]]:
    """The datasets and benchmarks a method was applied to, most supporting papers first.

    Each row has the supporting paper count, the papers, and the sentences in which those
    papers report the method's evaluation or application there (the edge's evidence). With
    ``include_variants`` a family answers for its versions and sizes too (VARIANT_OF, at any
    depth); ``method`` says which one each row is about.

    >>> from kg.query.example import example_graph
    >>> for row in datasets_of(example_graph(), "Group Relative Policy Optimization"):
    ...     print(row["target"], row["target_kind"], row["count"], row["papers"])
    GLUE Benchmark 1 ['Bandits Again']
    MNLI Dataset 1 ['Sharper Bounds']
    """
    m = find_node(G, method, kinds=(METHOD,))
    methods = variants_of(G, m) if include_variants else {m}
    rows: list[dict[str, Any]] = [
        _applied_row(G, v, t, G.edges[v, t, APPLIED_TO])
        for v in methods
        for t in G.successors(v)
        if APPLIED_TO in G[v][t]
    ]
    rows.sort(
        key=lambda r: (-r["count"], r["target"], r["target_key"], r["method"], r["method_key"])
    )
    return rows


def variants_of(G: nx.MultiDiGraph, family: str) -> set[str]:
    """``family`` and every node that is VARIANT_OF it, directly or through other variants.

    >>> import networkx as nx
    >>> G = nx.MultiDiGraph()
    >>> G.add_edge("method:llama-3-8b", "method:llama-3", "VARIANT_OF")
    'VARIANT_OF'
    >>> G.add_edge("method:llama-3", "method:llama", "VARIANT_OF")
    'VARIANT_OF'
    >>> sorted(variants_of(G, "method:llama"))
    ['method:llama', 'method:llama-3', 'method:llama-3-8b']
    """
    return _upstream(G, family, VARIANT_OF)


def _upstream(G: nx.MultiDiGraph, node: str, rel: str) -> set[str]:
    """``node`` and every node with a path of ``rel`` edges to it."""
    found = {node}
    queue = [node]
    while queue:
        x = queue.pop()
        for y in G.predecessors(x):
            if rel in G[y][x] and y not in found:
                found.add(y)
                queue.append(y)
    return found


def parts_of(G: nx.MultiDiGraph, whole: str) -> set[str]:
    """``whole`` and every node that is PART_OF it, directly or through other parts.

    >>> from kg.query.example import example_graph
    >>> sorted(parts_of(example_graph(), "benchmark:glue"))
    ['benchmark:glue', 'dataset:mnli']
    """
    return _upstream(G, whole, PART_OF)


def methods_on(
    G: nx.MultiDiGraph, dataset: str, *, include_parts: bool = False
) -> list[dict[str, Any]]:
    """The methods applied to a dataset or benchmark, most supporting papers first.

    With ``include_parts`` a benchmark answers for its member datasets too; ``target``
    says which one each row is about.

    >>> from kg.query.example import example_graph
    >>> for row in methods_on(example_graph(), "glue", include_parts=True):
    ...     print(row["method"], row["target"], row["count"])
    GRPO GLUE 1
    GRPO MNLI 1
    """
    d = find_node(G, dataset, kinds=COLLECTION_KINDS)
    targets = parts_of(G, d) if include_parts else {d}
    rows: list[dict[str, Any]] = [
        _applied_row(G, m, t, G.edges[m, t, APPLIED_TO])
        for t in targets
        for m in G.predecessors(t)
        if APPLIED_TO in G[m][t]
    ]
    rows.sort(
        key=lambda r: (-r["count"], r["method"], r["method_key"], r["target"], r["target_key"])
    )
    return rows


def top_method_dataset_pairs(G: nx.MultiDiGraph, *, limit: int = 10) -> list[dict[str, Any]]:
    """The method-dataset (or benchmark) pairs with the most supporting papers.

    >>> from kg.query.example import example_graph
    >>> for row in top_method_dataset_pairs(example_graph(), limit=2):
    ...     print(row["method"], row["target"], row["count"])
    PPO ImageNet 2
    GRPO GLUE 1
    """

    def rank(G: nx.MultiDiGraph) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = [
            {
                "method": node_name(G, m),
                "method_key": m,
                "target": node_name(G, t),
                "target_key": t,
                "count": d.get("papers", len(d.get("paper_keys") or [])),
            }
            for m, t, k, d in G.edges(keys=True, data=True)
            if k == APPLIED_TO
        ]
        rows.sort(
            key=lambda r: (-r["count"], r["method"], r["target"], r["method_key"], r["target_key"])
        )
        return rows

    return [dict(row) for row in cached(G, "method_dataset_ranking", rank)[:limit]]
