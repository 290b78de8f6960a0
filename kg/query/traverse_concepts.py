"""Papers sharing concepts: related papers (stored by the build), the papers naming a
concept, and what two papers share.

Rows mirror the named queries of the same names; ties are broken by name, then key.
"""

import math
from typing import Any

import networkx as nx

from kg.query.cache import cached
from kg.query.lookup import find_node, node_name, paper_name
from kg.schema import (
    CONCEPT_KINDS,
    MENTION_RELS,
    PAPER,
    SIMILAR_TO,
    collapse_whitespace,
    entity_key,
)

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
    G: nx.MultiDiGraph,
    paper: str | None = None,
    *,
    text: str | None = None,
    limit: int | None = 10,
) -> list[dict[str, Any]]:
    """A paper's most related papers, as the build stored them (SIMILAR_TO), best first.

    ``score`` is the text similarity of title and abstract (``text_score``) raised by the
    specific concepts both papers point to (``shared``, largest share first); see
    docs/traversals.md. With ``text`` instead of a paper, ranks the graph's papers for a
    title and abstract that is not in it (its concepts found by the extractors; the first
    call builds the corpus model, seconds on a large graph).

    >>> from kg.query.example import example_graph
    >>> for row in related_papers(example_graph(), "Sharper Bounds"):
    ...     print(row["paper"], row["score"], row["text_score"], row["shared"])
    Bandits Again 0.27789 0.272368 ['GRPO']
    Lonely Paper 0.131563 0.130243 ['regret']
    Quantum Walks 0.080451 0.080451 []
    """
    if text is not None:
        if paper is not None:
            raise ValueError("related_papers takes a paper or a text, not both")
        return _related_to_text(G, text, limit=limit)
    if paper is None:
        raise ValueError("related_papers needs a paper or a text")
    p = find_node(G, paper, kinds=(PAPER,))
    edges = sorted(
        ((q, rels[SIMILAR_TO]) for q, rels in G.succ[p].items() if SIMILAR_TO in rels),
        key=lambda edge: edge[1]["rank"],
    )
    rows = [
        {
            "paper": paper_name(G, q),
            "key": q,
            "score": e["score"],
            "text_score": e["text_score"],
            "shared": list(e["shared"]),
        }
        for q, e in edges
    ]
    return rows[:limit]


def _related_to_text(G: nx.MultiDiGraph, text: str, *, limit: int | None) -> list[dict[str, Any]]:
    """:func:`related_papers` of a title and abstract that is not in the graph."""
    from kg.graph.related import Corpus

    corpus = cached(G, "related_corpus", Corpus)
    found = corpus.related(text, text_concepts(G, text), k=limit or len(corpus.keys))
    return [
        {
            "paper": paper_name(G, corpus.keys[n.paper]),
            "key": corpus.keys[n.paper],
            "score": n.score,
            "text_score": n.text,
            "shared": [node_name(G, c) for c, _ in n.shared],
        }
        for n in found
    ]


def text_concepts(G: nx.MultiDiGraph, text: str) -> dict[str, float]:
    """The graph's concepts the extractors find in a text, with their roles (proposed: 1,
    else a side mention's)."""
    from kg.extractors.pipeline import extract_mentions
    from kg.extractors.records import PaperRecord
    from kg.graph.similar import Settings

    record = PaperRecord(abstract=collapse_whitespace(text), source="text", index=0)
    roles: dict[str, float] = {}
    for _, mentions in extract_mentions([record]):
        for m in mentions:
            key = entity_key(m.type, m.canonical)
            if key in G:
                role = 1.0 if m.role == "proposed" else Settings.side_weight
                roles[key] = max(roles.get(key, 0.0), role)
    return roles


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
