"""SIMILAR_TO: each paper's most related papers, computed over the whole graph and stored.

The ranking is :mod:`kg.graph.similar`'s; here papers become its summaries (title and
abstract, and the concepts they point to: a concept the paper proposes or names in its
title is its topic, any other a side mention) and its neighbours become edges carrying the
score, its text part, the rank, and the shared concepts (names, keys, and what each adds
to the score as JSON text, since property graphs store no maps).
"""

import multiprocessing
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import networkx as nx
import orjson

from kg import schema as S
from kg.extractors.children import die_with_parent
from kg.extractors.workers import stop_pool
from kg.graph import similar
from kg.graph._nx import insert_edges, node_attrs, successors
from kg.graph.similar import DEFAULTS, Candidates, Settings, Summary


def paper_keys(G: nx.MultiDiGraph) -> list[str]:
    """The keys of the Paper nodes, sorted (the order ties are broken in)."""
    return sorted(n for n, attrs in node_attrs(G).items() if attrs["kind"] == S.PAPER)


def paper_text(attrs: dict[str, Any]) -> str:
    """What a paper says: its title and abstract."""
    return f"{attrs.get('title') or ''}. {attrs.get('abstract') or ''}"


#: A concept a paper points to: its key, name, and whether the paper proposes it.
Pointed = tuple[str, str, bool]


def roles(title: str | None, concepts: Iterable[Pointed], settings: Settings) -> dict[str, float]:
    """The role of each concept a paper points to: 1 for its topic (proposed, or named in
    its title), ``side_weight`` for a side mention.

    >>> roles("Sparse PPO", [("method:ppo", "PPO", False), ("method:sgd", "SGD", False)],
    ...       DEFAULTS)
    {'method:ppo': 1.0, 'method:sgd': 0.5}
    """
    lowered = (title or "").lower()
    return {
        key: 1.0 if proposed or name.lower() in lowered else settings.side_weight
        for key, name, proposed in concepts
    }


def pointed(G: nx.MultiDiGraph, paper: str) -> list[Pointed]:
    """The concepts ``paper`` points to in ``G``."""
    node, succ = node_attrs(G), successors(G)
    return [
        (concept, node[concept]["name"], S.PROPOSES in rels)
        for concept, rels in succ[paper].items()
        if node[concept]["kind"] in S.CONCEPT_KINDS
    ]


def concept_roles(
    G: nx.MultiDiGraph, paper: str, *, settings: Settings = DEFAULTS
) -> dict[str, float]:
    """The :func:`roles` of the concepts a paper of ``G`` points to."""
    return roles(node_attrs(G)[paper].get("title"), pointed(G, paper), settings)


def summaries(
    G: nx.MultiDiGraph, keys: list[str], *, settings: Settings, text: bool = True
) -> list[Summary]:
    """The summaries of the papers ``keys`` (without their terms unless ``text``)."""
    node = node_attrs(G)
    return [
        similar.summarise(
            paper_text(node[k]) if text else "", concept_roles(G, k, settings=settings)
        )
        for k in keys
    ]


def remove_similar_edges(G: nx.MultiDiGraph) -> None:
    """Drop every SIMILAR_TO edge."""
    succ = successors(G)
    pairs = [(u, v) for u in paper_keys(G) for v, rels in succ[u].items() if S.SIMILAR_TO in rels]
    for u, v in pairs:
        G.remove_edge(u, v, key=S.SIMILAR_TO)


def edge_attrs(names: Mapping[str, str], rank: int, n: similar.Neighbour) -> dict[str, Any]:
    """The properties of one SIMILAR_TO edge (``names``: the concepts' names by key)."""
    return {
        "rank": rank,
        "score": n.score,
        "text_score": n.text,
        "shared": [names[c] for c, _ in n.shared],
        "shared_keys": [c for c, _ in n.shared],
        "shared_weights": orjson.dumps([w for _, w in n.shared]).decode(),
    }


def similar_to(
    keys: Sequence[str],
    texts: Sequence[str],
    concepts: Sequence[dict[str, float]],
    names: Mapping[str, str],
    *,
    settings: Settings = DEFAULTS,
    text: Candidates | None = None,
) -> list[tuple[str, str, dict[str, Any]]]:
    """The SIMILAR_TO edges (start, end, properties) of the papers ``keys`` (sorted), with
    these titles and abstracts and concept roles; ``names`` names the concepts, ``text`` is
    their :func:`text_part` if already computed. What a build adds to its graph and the
    ``--neo4j-import`` path writes alike."""
    found = similar_found(texts, concepts, settings=settings, text=text)
    return list(similar_edges(keys, found, names, range(len(keys))))


def similar_found(
    texts: Sequence[str],
    concepts: Sequence[dict[str, float]],
    *,
    settings: Settings = DEFAULTS,
    text: Candidates | None = None,
) -> list[list[similar.Neighbour]]:
    """Each paper's neighbours (by position), the papers as :func:`similar_to` takes them."""
    if len(concepts) < 2 or settings.k < 1:
        return [[] for _ in concepts]
    if text is None:
        text = text_part(list(texts), settings)
    papers = [similar.summarise("", roles_) for roles_ in concepts]
    model = similar.decide(similar.corpus_stats(papers), settings=settings)
    return similar.neighbours(model, papers, text)


def similar_edges(
    keys: Sequence[str],
    found: Sequence[Sequence[similar.Neighbour]],
    names: Mapping[str, str],
    papers: Iterable[int],
) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """The SIMILAR_TO edges that start at the papers at positions ``papers``, from their
    :func:`similar_found` neighbours."""
    for i in papers:
        for rank, n in enumerate(found[i], 1):
            yield keys[i], keys[n.paper], edge_attrs(names, rank, n)


def add_similar_edges(
    G: nx.MultiDiGraph, *, settings: Settings = DEFAULTS, text: Candidates | None = None
) -> None:
    """(Re)compute every paper's ``settings.k`` most related papers as SIMILAR_TO edges,
    from ``text``, the papers' :func:`text_part` if already computed.

    The whole corpus is scored again (corpus statistics change with every paper added), so a
    graph built in steps equals one built at once.
    """
    remove_similar_edges(G)
    keys = paper_keys(G)
    node = node_attrs(G)
    edges = similar_to(
        keys,
        [paper_text(node[k]) for k in keys] if text is None else [],
        [concept_roles(G, k, settings=settings) for k in keys],
        {k: attrs["name"] for k, attrs in node.items() if attrs["kind"] in S.CONCEPT_KINDS},
        settings=settings,
        text=text,
    )
    insert_edges(G, ((u, v, S.SIMILAR_TO, attrs) for u, v, attrs in edges))


def text_part(texts: list[str], settings: Settings) -> Candidates:
    """The candidate pairs of the papers with these titles and abstracts (sorted by key),
    by what they say alone: corpus statistics of their terms, then
    :func:`kg.graph.similar.text_candidates`."""
    return counted_text_part(similar.count_terms(texts), settings)


def counted_text_part(counts: similar.TermCounts, settings: Settings) -> Candidates:
    """The :func:`text_part` of the papers whose terms ``counts`` holds (sorted by key)."""
    model = similar.decide(similar.term_stats(counts), settings=settings)
    return similar.text_candidates(model, similar.counted_vectors(model, counts))


#: Papers from which :class:`TextPart` runs in a process of its own (with fewer, starting
#: a process costs more than it saves).
SIDE_MIN_PAPERS = 2000


def _side_started(parent: int) -> None:
    die_with_parent(parent)
    os.nice(10)  # the extraction workers come first


class TextPart:
    """The :func:`text_part` of a graph's papers, computed in a process of its own at low
    priority from the moment the papers are known: it takes the core a build leaves idle
    while it resolves names. Closing it stops that process.

    :meth:`result` is None (the build computes the text part itself) for a graph of fewer
    than SIDE_MIN_PAPERS papers, or if its papers changed, or if the process was lost.
    """

    def __init__(self, G: nx.MultiDiGraph, *, settings: Settings = DEFAULTS) -> None:
        self.keys = paper_keys(G)
        self._pool: ProcessPoolExecutor | None = None
        if len(self.keys) < SIDE_MIN_PAPERS or settings.k < 1:
            return
        node = node_attrs(G)
        self._pool = ProcessPoolExecutor(
            1,
            initializer=_side_started,
            initargs=(os.getpid(),),
            mp_context=multiprocessing.get_context("spawn"),
        )
        texts = [paper_text(node[k]) for k in self.keys]
        self._text = self._pool.submit(text_part, texts, settings)

    def result(self, G: nx.MultiDiGraph) -> Candidates | None:
        """The text part, if ``G``'s papers are still those it was started for."""
        if self._pool is None or paper_keys(G) != self.keys:
            return None
        try:
            return self._text.result()
        except BrokenProcessPool:
            return None

    def close(self) -> None:
        """Stop the process, busy or not."""
        if self._pool is not None:
            stop_pool(self._pool)
            self._pool = None

    def __enter__(self) -> "TextPart":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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
