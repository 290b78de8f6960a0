"""Papers sharing concepts: related papers by summed IDF, the papers naming a concept, and
what two papers share.

Rows mirror the named queries of the same names; ties are broken by name, then key.
"""

import math
from typing import Any

import networkx as nx

from kg.query.cache import cached
from kg.query.lookup import find_node, node_name, paper_name
from kg.schema import CONCEPT_KINDS, MENTION_RELS, PAPER

#: Decimal places of a related-paper score (the Cypher engines print doubles to 15 digits).
SCORE_DIGITS = 6


def rounded(x: float) -> float:
    """``x`` rounded half up to SCORE_DIGITS places, as Cypher's ``round(x * 1e6) / 1e6``.

    >>> rounded(1.0986122886681098)
    1.098612
    """
    scale = 10**SCORE_DIGITS
    return math.floor(x * scale + 0.5) / scale


def paper_count(G: nx.MultiDiGraph) -> int:
    """Number of Paper nodes (cached until the graph's size changes)."""
    return cached(G, "paper_count", lambda G: len(_nodes_of_kind(G, PAPER)))


def _nodes_of_kind(G: nx.MultiDiGraph, kind: str) -> list[str]:
    return [n for n, k in G.nodes(data="kind") if k == kind]


def concepts_of(G: nx.MultiDiGraph, paper: str) -> set[str]:
    """Concept nodes (any Method/Dataset/Benchmark/Task/Metric/Concept) a paper points to."""
    return {c for c in G.successors(paper) if G.nodes[c].get("kind") in CONCEPT_KINDS}


def papers_about(G: nx.MultiDiGraph, concept: str) -> set[str]:
    """Paper keys that point to a concept node."""
    return {p for p in G.predecessors(concept) if G.nodes[p].get("kind") == PAPER}


def idf(G: nx.MultiDiGraph, concept: str) -> float:
    """How rare a concept is: ln(number of papers / number of papers pointing to it)."""
    return math.log(paper_count(G) / len(papers_about(G, concept)))


def related_papers(
    G: nx.MultiDiGraph, paper: str, *, limit: int | None = 10
) -> list[dict[str, Any]]:
    """Papers sharing concepts with a paper, ranked by the summed IDF of what they share.

    A concept few papers name counts more than one many papers name; ``shared`` lists the
    shared concepts (by name) as the explanation.

    >>> from kg.query.example import example_graph
    >>> for row in related_papers(example_graph(), "Sharper Bounds"):
    ...     print(row["paper"], row["score"], row["shared"])
    Bandits Again 1.791759 ['GRPO', 'bounds']
    Lonely Paper 1.098612 ['regret']
    Quantum Walks 0.693147 ['bounds']
    """
    p = find_node(G, paper, kinds=(PAPER,))
    shared: dict[str, list[str]] = {}
    for c in concepts_of(G, p):
        for q in papers_about(G, c):
            if q != p:
                shared.setdefault(q, []).append(c)
    weight = {c: idf(G, c) for c in concepts_of(G, p)}
    rows: list[dict[str, Any]] = [
        {
            "paper": paper_name(G, q),
            "key": q,
            "score": rounded(sum(weight[c] for c in cs)),
            "shared": sorted(node_name(G, c) for c in cs),
        }
        for q, cs in shared.items()
    ]
    rows.sort(key=lambda r: (-r["score"], r["paper"], r["key"]))
    return rows[:limit]


def papers_with(G: nx.MultiDiGraph, concept: str) -> list[dict[str, Any]]:
    """Every paper that points to a concept, with how (the relationship types), by name.

    >>> from kg.query.example import example_graph
    >>> for row in papers_with(example_graph(), "grpo"):
    ...     print(row["paper"], row["relations"])
    Bandits Again ['USES']
    Sharper Bounds ['PROPOSES']
    """
    c = find_node(G, concept, kinds=CONCEPT_KINDS)
    rows: list[dict[str, Any]] = [
        {
            "paper": paper_name(G, p),
            "key": p,
            "relations": sorted(r for r in G[p][c] if r in MENTION_RELS),
        }
        for p in papers_about(G, c)
    ]
    rows.sort(key=lambda r: (r["paper"], r["key"]))
    return rows


def shared_concepts(G: nx.MultiDiGraph, paper: str, other: str) -> list[dict[str, Any]]:
    """What two papers share: the concepts both point to, rarest first, with their IDF.

    A paper compared with itself gives ``[]``.

    >>> from kg.query.example import example_graph
    >>> for row in shared_concepts(example_graph(), "Sharper Bounds", "Bandits Again"):
    ...     print(row["concept"], row["kind"], row["idf"])
    GRPO Method 1.098612
    bounds Concept 0.693147
    """
    p = find_node(G, paper, kinds=(PAPER,))
    q = find_node(G, other, kinds=(PAPER,))
    if p == q:
        return []
    rows: list[dict[str, Any]] = [
        {
            "concept": node_name(G, c),
            "key": c,
            "kind": G.nodes[c]["kind"],
            "idf": rounded(idf(G, c)),
        }
        for c in concepts_of(G, p) & concepts_of(G, q)
    ]
    rows.sort(key=lambda r: (-r["idf"], r["concept"], r["key"]))
    return rows
