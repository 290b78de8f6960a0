"""SIMILAR_TO: each paper's most related papers, computed over the whole graph and stored.

The ranking is :mod:`kg.graph.similar`'s; here papers become its summaries (title and
abstract, and the concepts they point to: a concept the paper proposes or names in its
title is its topic, any other a side mention) and its neighbours become edges carrying the
score, its text part, the rank, and the shared concepts (names, keys, and what each adds
to the score as JSON text, since property graphs store no maps).
"""

from typing import Any

import networkx as nx
import orjson

from kg import schema as S
from kg.graph import similar
from kg.graph._nx import insert_edges, node_attrs, successors
from kg.graph.similar import DEFAULTS, Settings, Summary


def paper_keys(G: nx.MultiDiGraph) -> list[str]:
    """The keys of the Paper nodes, sorted (the order ties are broken in)."""
    return sorted(n for n, attrs in node_attrs(G).items() if attrs["kind"] == S.PAPER)


def paper_text(attrs: dict[str, Any]) -> str:
    """What a paper says: its title and abstract."""
    return f"{attrs.get('title') or ''}. {attrs.get('abstract') or ''}"


def concept_roles(
    G: nx.MultiDiGraph, paper: str, *, settings: Settings = DEFAULTS
) -> dict[str, float]:
    """The concepts a paper points to with their role: 1 for its topic (proposed, or named
    in its title), ``side_weight`` for a side mention."""
    node, succ = node_attrs(G), successors(G)
    title = (node[paper].get("title") or "").lower()
    roles: dict[str, float] = {}
    for concept, rels in succ[paper].items():
        attrs = node[concept]
        if attrs["kind"] not in S.CONCEPT_KINDS:
            continue
        topic = S.PROPOSES in rels or attrs["name"].lower() in title
        roles[concept] = 1.0 if topic else settings.side_weight
    return roles


def summaries(G: nx.MultiDiGraph, keys: list[str], *, settings: Settings) -> list[Summary]:
    """The summaries of the papers ``keys``."""
    node = node_attrs(G)
    return [
        similar.summarise(paper_text(node[k]), concept_roles(G, k, settings=settings)) for k in keys
    ]


def remove_similar_edges(G: nx.MultiDiGraph) -> None:
    """Drop every SIMILAR_TO edge."""
    succ = successors(G)
    pairs = [(u, v) for u in paper_keys(G) for v, rels in succ[u].items() if S.SIMILAR_TO in rels]
    for u, v in pairs:
        G.remove_edge(u, v, key=S.SIMILAR_TO)


def edge_attrs(G: nx.MultiDiGraph, rank: int, n: similar.Neighbour) -> dict[str, Any]:
    """The properties of one SIMILAR_TO edge."""
    node = node_attrs(G)
    return {
        "rank": rank,
        "score": n.score,
        "text_score": n.text,
        "shared": [node[c]["name"] for c, _ in n.shared],
        "shared_keys": [c for c, _ in n.shared],
        "shared_weights": orjson.dumps([w for _, w in n.shared]).decode(),
    }


def add_similar_edges(G: nx.MultiDiGraph, *, settings: Settings = DEFAULTS) -> None:
    """(Re)compute every paper's ``settings.k`` most related papers as SIMILAR_TO edges.

    The whole corpus is scored again (corpus statistics change with every paper added), so a
    graph built in steps equals one built at once.
    """
    remove_similar_edges(G)
    keys = paper_keys(G)
    if len(keys) < 2 or settings.k < 1:
        return
    papers = summaries(G, keys, settings=settings)
    model = similar.decide(similar.corpus_stats(papers), settings=settings)
    found = similar.neighbours(model, papers)
    insert_edges(
        G,
        (
            (keys[i], keys[n.paper], S.SIMILAR_TO, edge_attrs(G, rank, n))
            for i, row in enumerate(found)
            for rank, n in enumerate(row, 1)
        ),
    )


class Corpus:
    """The model and vectors of a graph's papers, to rank a text that is not among them."""

    def __init__(self, G: nx.MultiDiGraph, *, settings: Settings = DEFAULTS) -> None:
        self.keys = paper_keys(G)
        self.summaries = summaries(G, self.keys, settings=settings)
        self.model = similar.decide(similar.corpus_stats(self.summaries), settings=settings)
        self.vectors = similar.vectors(self.model, self.summaries)

    def related(self, text: str, concepts: dict[str, float], *, k: int) -> list[similar.Neighbour]:
        """The ``k`` papers most related to a paper with this title and abstract and these
        concept roles."""
        return similar.query_neighbours(
            self.model, self.vectors, similar.summarise(text, concepts), k=k
        )
