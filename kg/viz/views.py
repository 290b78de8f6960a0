"""Views: which nodes and edges of the graph one page shows, and what it says it left out.

Each builder takes the graph first and returns a ``View``; rendering is ``kg.viz.page``'s job.
Nodes are ordered by degree (highest first, ties by key) so a view is the same every time,
and a view holding more than ``MAX_NODES`` nodes keeps the best connected ones and says so.
"""

from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations

from kg import schema
from kg.viz.text import display_name, edge_tooltip, full_name

#: Most nodes one page holds; vis-network stays responsive at this size once physics stops.
MAX_NODES = 2000


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    weight: float
    tooltip: str
    arrows: str = "to"


@dataclass(frozen=True)
class View:
    """One page: its file stem, heading, nodes (graph keys), edges and a note on what it shows."""

    name: str
    title: str
    nodes: tuple
    edges: tuple
    note: str
    highlight: tuple = field(default=())


def by_degree(G, keys):
    """``keys`` ordered by degree in ``G``, highest first, ties by key."""
    return sorted(keys, key=lambda k: (-G.degree(k), k))


def graph_edges(G, keys):
    """The edges of ``G`` among ``keys``, in key order, weighted by their paper count."""
    keys = set(keys)
    edges = [
        Edge(u, v, G.edges[u, v, rel].get("papers", 1), edge_tooltip(G, u, v, rel))
        for u, v, rel in G.edges(keys, keys=True)
        if v in keys
    ]
    return tuple(sorted(edges, key=lambda e: (e.source, e.target, e.tooltip)))


def capped(G, keys, *, limit, keep=()):
    """The ``limit`` best connected of ``keys`` (always including ``keep``) and a note on the rest."""
    ranked = list(dict.fromkeys([*keep, *by_degree(G, keys)]))
    shown, left = ranked[:limit], ranked[limit:]
    if not left:
        return tuple(by_degree(G, shown)), ""
    top_left = max(G.degree(k) for k in left)
    note = f" Left out {len(left):,} nodes with {top_left} or fewer connections (the page holds at most {limit:,})."
    return tuple(by_degree(G, shown)), note


def overview(G, *, top=150):
    """The ``top`` nodes of the whole graph by degree (at most ``MAX_NODES``) and the edges among them.

    >>> import networkx as nx
    >>> G = nx.MultiDiGraph()
    >>> G.add_node("author:a", kind="Author", name="A"); G.add_node("paper:p", kind="Paper", abstract="x")
    >>> G.add_edge("author:a", "paper:p", key="AUTHORED", position=1)
    'AUTHORED'
    >>> overview(G, top=1).note
    'Showing 1 of 2 nodes and 0 of 1 edges, the most connected by degree.'
    """
    nodes = tuple(by_degree(G, G.nodes)[: min(top, MAX_NODES)])
    edges = graph_edges(G, nodes)
    note = (
        f"Showing {len(nodes):,} of {G.number_of_nodes():,} nodes and {len(edges):,} of "
        f"{G.number_of_edges():,} edges, the most connected by degree."
    )
    if top > MAX_NODES and G.number_of_nodes() > MAX_NODES:
        note += f" A page holds at most {MAX_NODES:,} nodes."
    return View("overview", "Overview: the most connected nodes", nodes, edges, note)


def coauthor_pairs(G, authors=None):
    """Shared-paper counts of author pairs ``(a, b)`` with ``a < b``, optionally among ``authors``."""
    pairs = Counter()
    for paper, kind in G.nodes(data="kind"):
        if kind != schema.PAPER:
            continue
        byline = sorted(a for a in G.predecessors(paper) if G.has_edge(a, paper, schema.AUTHORED))
        if authors is not None:
            byline = [a for a in byline if a in authors]
        pairs.update(combinations(byline, 2))
    return pairs


def coauthor_view(G, name, title, authors, *, highlight=(), limit=MAX_NODES):
    """Authors joined by their shared papers (edge width = shared papers)."""
    nodes, left = capped(G, authors, limit=limit, keep=highlight)
    pairs = coauthor_pairs(G, set(nodes))
    edges = tuple(
        Edge(a, b, n, f"{n} shared paper{'s' if n != 1 else ''}: {display_name(G, a)} and {display_name(G, b)}", arrows="")
        for (a, b), n in sorted(pairs.items())
    )
    note = f"{len(nodes):,} of {len(authors):,} authors, {len(edges):,} co-author links (edge width = shared papers).{left}"
    return View(name, title, nodes, edges, note, tuple(highlight))


def coauthor_network(G, *, limit=MAX_NODES):
    """Every author, joined to each co-author by the number of papers they share."""
    authors = [k for k, kind in G.nodes(data="kind") if kind == schema.AUTHOR]
    return coauthor_view(G, "coauthors", "Co-author network", authors, limit=limit)


def method_dataset(G, *, centre=None, limit=MAX_NODES):
    """Methods and the datasets and benchmarks they were applied to (edge width = papers).

    With ``centre`` (a method, dataset or benchmark key) only that node and its partners.
    """
    pairs = [(u, v) for u, v, rel in G.edges(keys=True) if rel == schema.APPLIED_TO]
    if centre is not None:
        pairs = [(u, v) for u, v in pairs if centre in (u, v)]
    keys = {k for pair in pairs for k in pair} | ({centre} if centre else set())
    nodes, left = capped(G, keys, limit=limit, keep=[centre] if centre else ())
    edges = graph_edges(G, nodes)
    edges = tuple(e for e in edges if G.has_edge(e.source, e.target, schema.APPLIED_TO))
    if centre is None:
        name, title = "methods-datasets", "Methods and the datasets they were applied to"
    else:
        name = schema.slug(centre)
        title = f"{G.nodes[centre]['kind']} {full_name(G, centre)}: applied to"
    note = f"{len(nodes):,} methods, datasets and benchmarks; {len(edges):,} method-dataset links (edge width = papers).{left}"
    return View(name, title, nodes, edges, note, (centre,) if centre else ())


def concept_papers(G, concept, *, limit=MAX_NODES):
    """A concept (or method, dataset, ...) and the papers that mention it, with the evidence."""
    papers = [p for p in G.predecessors(concept) if G.nodes[p]["kind"] == schema.PAPER]
    nodes, left = capped(G, [concept, *papers], limit=limit, keep=[concept])
    edges = tuple(e for e in graph_edges(G, nodes) if concept in (e.source, e.target))
    kind = G.nodes[concept]["kind"]
    note = f"{kind} {display_name(G, concept)} and the {len(papers):,} papers that mention it.{left}"
    return View(f"mentions-{schema.slug(concept)}", f"{kind} {full_name(G, concept)}: its papers", nodes, edges, note, (concept,))
