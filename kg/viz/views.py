"""Views: which nodes and edges of the graph one page shows, and what it says it left out.

Each builder takes the graph first and returns a ``View``; rendering is ``kg.viz.page``'s job.
Nodes are ordered by degree (highest first, ties by key) so a view is the same every time,
and a view holding more than ``MAX_NODES`` nodes keeps the best connected ones and says so.
"""

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import networkx as nx

from kg import schema
from kg.errors import KgError
from kg.query import traverse
from kg.query.networks import coauthor_graph
from kg.query.traverse_coauthors import collaborations
from kg.query.traverse_methods import variants_of
from kg.viz.text import count, display_name, edge_tooltip, full_name

#: Most nodes one page holds; vis-network stays responsive at this size once physics stops.
MAX_NODES = 2000
#: Most edges one page holds (one paper of 1,300 authors links 844,350 pairs): with the node
#: cap this keeps a page under about 10 MB.
MAX_EDGES = 10_000
#: Bytes of a page's file name at most (file systems allow 255), ".html" included.
MAX_NAME_BYTES = 200
#: Nodes on the whole-corpus co-author and method-dataset pages by default: few enough to read.
READABLE_NODES = 300
#: Most co-authorship steps of an author's page, as the coauthors_within query allows: three
#: steps from a well connected author already reach thousands of a large corpus's authors.
MAX_DEPTH = 3
#: The seed of the community detection (Louvain), so a page is the same every time.
COMMUNITY_SEED = 7
#: Related papers on a paper's page, and paper names in a method-dataset edge's tooltip.
RELATED_PAPERS = 30
TOOLTIP_PAPERS = 5


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
    highlight: tuple = ()
    #: (key, community number) of each node when the page is coloured by community; the
    #: communities are numbered by size, 0 the largest.
    communities: tuple = ()
    #: The overview's ``--top``, kept so a later run writes the same size.
    top: int | None = None


def degree(G: nx.MultiDiGraph, key: str) -> int:
    """A node's degree without the SIMILAR_TO edges (derived from the rest, not drawn)."""
    similar = sum(schema.SIMILAR_TO in rels for rels in G.succ[key].values()) + sum(
        schema.SIMILAR_TO in rels for rels in G.pred[key].values()
    )
    return G.degree(key) - similar


def by_degree(G: nx.MultiDiGraph, keys: Iterable[str]) -> list[str]:
    """``keys`` ordered by :func:`degree`, highest first, ties by key."""
    return sorted(keys, key=lambda k: (-degree(G, k), k))


def graph_edges(G: nx.MultiDiGraph, keys: Iterable[str]) -> tuple[Edge, ...]:
    """The edges of ``G`` among ``keys`` but SIMILAR_TO, in key order, weighted by their
    paper count."""
    keys = set(keys)
    edges = [
        Edge(u, v, G.edges[u, v, rel].get("papers", 1), edge_tooltip(G, u, v, rel))
        for u, v, rel in G.edges(keys, keys=True)
        if v in keys and rel != schema.SIMILAR_TO
    ]
    return tuple(sorted(edges, key=lambda e: (e.source, e.target, e.tooltip)))


def capped(
    G: nx.MultiDiGraph, keys: Iterable[str], *, limit: int, keep: Iterable[str] = ()
) -> tuple[tuple[str, ...], str]:
    """The ``limit`` best connected of ``keys`` (always including ``keep``) and a note on the
    rest."""
    ranked = list(dict.fromkeys([*keep, *by_degree(G, keys)]))
    shown, left = ranked[:limit], ranked[limit:]
    if not left:
        return tuple(by_degree(G, shown)), ""
    top_left = max(degree(G, k) for k in left)
    note = (
        f" Left out {len(left):,} nodes of degree {top_left} or lower "
        f"(this page shows at most {limit:,})."
    )
    return tuple(by_degree(G, shown)), note


def overview(G: nx.MultiDiGraph, *, top: int = 150) -> View:
    """The ``top`` nodes of the whole graph by degree (at most ``MAX_NODES``) and the edges
    among them.

    >>> import networkx as nx
    >>> G = nx.MultiDiGraph()
    >>> G.add_node("author:a", kind="Author", name="A")
    >>> G.add_node("paper:p", kind="Paper", abstract="x")
    >>> G.add_edge("author:a", "paper:p", key="AUTHORED", position=1)
    'AUTHORED'
    >>> overview(G, top=1).note
    'Showing 1 of 2 nodes and 0 of 1 edges, the most connected by degree.'
    """
    nodes = tuple(by_degree(G, G.nodes)[: min(top, MAX_NODES)])
    edges = graph_edges(G, nodes)
    drawn = sum(rel != schema.SIMILAR_TO for _, _, rel in G.edges(keys=True))
    note = (
        f"Showing {len(nodes):,} of {G.number_of_nodes():,} nodes and {len(edges):,} of "
        f"{drawn:,} edges, the most connected by degree."
    )
    if top > MAX_NODES and G.number_of_nodes() > MAX_NODES:
        note += f" A page holds at most {MAX_NODES:,} nodes."
    return View("overview", "Overview: the most connected nodes", nodes, edges, note, top=top)


def coauthor_pairs(G: nx.MultiDiGraph, authors: Iterable[str]) -> dict[tuple[str, str], Any]:
    """Shared-paper counts of the co-author pairs ``(a, b)``, ``a < b``, among ``authors``."""
    authors = set(authors)
    index = collaborations(G)
    return {
        (a, b): len(papers)
        for a in authors
        for b, papers in index.get(a, {}).items()
        if a < b and b in authors
    }


def left_out_edges(total: int, limit: int, top_left: float) -> str:
    """The note of a page that holds ``limit`` of ``total`` edges, the rest of weight
    ``top_left`` or lower.

    >>> left_out_edges(844_350, 10_000, 1)
    ' Left out 834,350 of 844,350 edges, of weight 1 or lower (a page holds at most 10,000).'
    """
    return (
        f" Left out {total - limit:,} of {total:,} edges, of weight {top_left:g} or lower "
        f"(a page holds at most {limit:,})."
    )


def coauthor_edges(
    G: nx.MultiDiGraph, shared: Mapping[tuple[str, str], int]
) -> tuple[tuple[Edge, ...], str]:
    """The co-author links of ``shared`` (pair -> shared papers, as
    :func:`coauthor_pairs` counts them), the ``MAX_EDGES`` heaviest, and the note on those
    left out ("" if none)."""
    pairs = sorted(shared.items(), key=lambda item: (-item[1], item[0]))
    left = ""
    if len(pairs) > MAX_EDGES:  # the heaviest links, before any text is made for them
        left = left_out_edges(len(pairs), MAX_EDGES, pairs[MAX_EDGES][1])
    edges = tuple(
        Edge(
            a,
            b,
            n,
            f"{count(n, 'shared paper')}: {display_name(G, a)} and {display_name(G, b)}",
            arrows="",
        )
        for (a, b), n in sorted(pairs[:MAX_EDGES])
    )
    return edges, left


def coauthor_view(
    G: nx.MultiDiGraph,
    name: str,
    title: str,
    authors: Sequence[str],
    *,
    highlight: Iterable[str] = (),
    limit: int = MAX_NODES,
    what: str = "",
) -> View:
    """Authors joined by their shared papers (edge width = shared papers)."""
    nodes, left = capped(G, authors, limit=limit, keep=highlight)
    edges, left_edges = coauthor_edges(G, coauthor_pairs(G, nodes))
    left += left_edges
    note = (
        f"{len(nodes):,} of {len(authors):,} authors{what}, {len(edges):,} co-author links "
        f"(edge width = shared papers).{left}"
    )
    return View(name, title, nodes, edges, note, tuple(highlight))


def largest_component(C: nx.Graph) -> list[str]:
    """The sorted keys of the largest connected component of ``C`` (of equal ones, the one
    with the smallest key)."""
    components = [sorted(c) for c in nx.connected_components(C)]
    return min(components, key=lambda c: (-len(c), c[0]), default=[])


def communities(C: nx.Graph, keys: Sequence[str]) -> dict[str, int]:
    """Louvain communities (by shared-paper weight) of ``keys`` in ``C``, numbered by size
    (0 the largest; ties by smallest key). Seeded and run on integer labels in key order, so
    the result does not depend on string hashing."""
    keys = sorted(keys)
    number = {k: i for i, k in enumerate(keys)}
    H: nx.Graph = nx.Graph()
    H.add_nodes_from(range(len(keys)))
    H.add_weighted_edges_from(
        (number[a], number[b], C.edges[a, b]["weight"]) for a, b in C.subgraph(keys).edges
    )
    groups = [
        sorted(keys[i] for i in group)
        for group in nx.community.louvain_communities(H, weight="weight", seed=COMMUNITY_SEED)
    ]
    groups.sort(key=lambda g: (-len(g), g[0]))
    return {k: n for n, group in enumerate(groups) for k in group}


def coauthor_network(G: nx.MultiDiGraph, *, limit: int = READABLE_NODES) -> View:
    """The best connected authors of the largest group of co-authors (the largest connected
    component), coloured by community, joined by the number of papers they share."""
    C = coauthor_graph(G)
    group = largest_component(C)
    nodes, _ = capped(G, group, limit=limit)
    found = communities(C, nodes)
    links = C.subgraph(nodes).edges
    shared = {(min(a, b), max(a, b)): int(links[a, b]["weight"]) for a, b in links}
    edges, left = coauthor_edges(G, shared)
    others = max(0, nx.number_connected_components(C) - 1)
    groups = len(set(found.values()))
    note = (
        f"The {len(nodes):,} best connected of the {len(group):,} authors in the largest group "
        f"of co-authors ({C.number_of_nodes():,} authors in all, "
        f"{count(others, 'other group')}), coloured by community "
        f"({groups:,} {'community' if groups == 1 else 'communities'}, Louvain on shared "
        "papers); "
        f"{count(len(edges), 'co-author link')} (edge width = shared papers).{left}"
    )
    return View(
        "coauthors",
        "Co-author network",
        tuple(nodes),
        edges,
        note,
        communities=tuple((k, found[k]) for k in nodes),
    )


def author_neighbourhood(
    G: nx.MultiDiGraph, author: str, *, depth: int = 1, limit: int = MAX_NODES
) -> View:
    """An author (a key) and everyone within ``depth`` co-authorship steps (1 to
    ``MAX_DEPTH``), the author highlighted."""
    if not 1 <= depth <= MAX_DEPTH:
        raise KgError(
            f"depth {depth}: an author's page goes 1 to {MAX_DEPTH} co-authorship steps "
            "(three steps already reach thousands of authors of a large corpus)"
        )
    rows = traverse.coauthors_within(G, author, hops=depth)
    authors = [author, *(row["key"] for row in rows)]
    steps = count(depth, "step")
    return coauthor_view(
        G,
        page_slug(author) + f"-depth-{depth}",
        f"Co-authors of {full_name(G, author)} within {steps}",
        authors,
        highlight=(author,),
        limit=limit,
        what=f" within {steps} of {full_name(G, author)}",
    )


def applied_edge(row: dict[str, Any]) -> Edge:
    """A method-dataset edge from a ``kg.query.traverse`` applied-to row, its papers in the
    tooltip."""
    papers = "; ".join(row["papers"][:TOOLTIP_PAPERS]) + (
        " …" if len(row["papers"]) > TOOLTIP_PAPERS else ""
    )
    tooltip = (
        f"{row['method']} applied to {row['target']} in {count(row['count'], 'paper')}: {papers}"
    )
    if row["evidence"]:
        tooltip += "\nEvidence: " + row["evidence"][0]
    return Edge(row["method_key"], row["target_key"], row["count"], tooltip)


def method_dataset_view(
    G: nx.MultiDiGraph,
    name: str,
    title: str,
    rows: Sequence[dict[str, Any]],
    *,
    centre: str | None = None,
    variants: Sequence[str] = (),
    limit: int = MAX_NODES,
) -> View:
    """Methods and datasets joined by the APPLIED_TO of ``rows``, and the methods' VARIANT_OF
    links among the nodes shown; ``variants`` are methods shown even without rows."""
    keys = [k for row in rows for k in (row["method_key"], row["target_key"])]
    nodes, left = capped(
        G,
        [*([centre] if centre else []), *variants, *keys],
        limit=limit,
        keep=[centre] if centre else (),
    )
    shown = set(nodes)
    applied = [
        applied_edge(row)
        for row in rows
        if row["method_key"] in shown and row["target_key"] in shown
    ]
    versions = variant_edges(G, shown)
    edges = tuple(sorted(applied + versions, key=lambda e: (e.source, e.target)))
    links = f" and {count(len(versions), 'version link')}" if versions else ""
    note = (
        f"{len(nodes):,} methods, datasets and benchmarks; {len(applied):,} method-dataset "
        f"links (edge width = papers){links}.{left}"
    )
    return View(name, title, nodes, edges, note, (centre,) if centre else ())


def variant_edges(G: nx.MultiDiGraph, keys: Iterable[str]) -> list[Edge]:
    """The VARIANT_OF edges among ``keys`` (a version or size to its family), in key order."""
    keys = set(keys)
    return sorted(
        (
            Edge(u, v, 1, edge_tooltip(G, u, v, rel))
            for u, v, rel in G.edges(keys, keys=True)
            if rel == schema.VARIANT_OF and v in keys
        ),
        key=lambda e: (e.source, e.target),
    )


def method_dataset(G: nx.MultiDiGraph, *, limit: int = READABLE_NODES) -> View:
    """Methods and the datasets and benchmarks they were applied to (edge width = papers)."""
    methods = sorted({m for m, _, rel in G.edges(keys=True) if rel == schema.APPLIED_TO})
    rows = [row for m in methods for row in traverse.datasets_of(G, m)]
    return method_dataset_view(
        G, "methods-datasets", "Methods and the datasets they were applied to", rows, limit=limit
    )


def method_page(G: nx.MultiDiGraph, method: str, *, limit: int = MAX_NODES) -> View:
    """A method (a key), its versions and sizes (VARIANT_OF), and the datasets and
    benchmarks they were applied to."""
    return method_dataset_view(
        G,
        page_slug(method),
        f"Method {full_name(G, method)}: where it was applied",
        traverse.datasets_of(G, method, include_variants=True),
        centre=method,
        variants=sorted(variants_of(G, method) - {method}),
        limit=limit,
    )


def dataset_page(G: nx.MultiDiGraph, dataset: str, *, limit: int = MAX_NODES) -> View:
    """A dataset or benchmark (a key) and the methods applied to it or to its parts."""
    kind = G.nodes[dataset]["kind"]
    return method_dataset_view(
        G,
        page_slug(dataset),
        f"{kind} {full_name(G, dataset)}: methods applied to it",
        traverse.methods_on(G, dataset, include_parts=True),
        centre=dataset,
        limit=limit,
    )


def concept_papers(G: nx.MultiDiGraph, concept: str, *, limit: int = MAX_NODES) -> View:
    """A concept (or method, dataset, ...) and the papers that name it, with the evidence."""
    papers = [row["key"] for row in traverse.papers_with(G, concept)]
    nodes, left = capped(G, [concept, *papers], limit=limit, keep=[concept])
    edges = tuple(e for e in graph_edges(G, nodes) if concept in (e.source, e.target))
    kind = G.nodes[concept]["kind"]
    note = f"{kind} {full_name(G, concept)} and the {len(papers):,} papers that name it.{left}"
    return View(
        f"mentions-{page_slug(concept)}",
        f"{kind} {full_name(G, concept)}: its papers",
        nodes,
        edges,
        note,
        (concept,),
    )


def related_papers(G: nx.MultiDiGraph, paper: str, *, top: int = RELATED_PAPERS) -> View:
    """A paper, its ``top`` most related papers (as the build stored them) and the concepts
    they share with it, joined by the mention edges that carry the evidence."""
    rows = traverse.related_papers(G, paper, limit=None)
    shown = rows[:top]
    concepts = {
        c for row in shown for c in G.edges[paper, row["key"], schema.SIMILAR_TO]["shared_keys"]
    }
    nodes = tuple(by_degree(G, {paper, *(row["key"] for row in shown), *concepts}))
    edges = tuple(e for e in graph_edges(G, nodes) if e.target in concepts)
    note = (
        f"The {len(shown):,} papers most related to this one (by title and abstract, raised "
        f"by shared specific concepts) and the {len(concepts):,} concepts they share."
    )
    return View(
        page_slug(paper),
        f"Papers sharing concepts with {full_name(G, paper)}",
        nodes,
        edges,
        note,
        (paper,),
    )


def page_slug(key: str) -> str:
    """A node's key as part of a page name: its slug, ended with a hash of the key when the
    name part has no letter or digit (``author:!!!`` and ``author:???`` stay apart).

    >>> page_slug("author:ada lovelace")
    'author-ada-lovelace'
    >>> page_slug("author:!!!") == page_slug("author:???")
    False
    """
    kind, _, name = key.partition(":")
    if schema.slug(name):
        return schema.slug(key)
    return f"{schema.slug(kind)}-{hashlib.sha256(key.encode()).hexdigest()[:12]}"


def file_stem(name: str, *, limit: int = MAX_NAME_BYTES - len(".html")) -> str:
    """A view's name as a file stem: itself when it fits in ``limit`` bytes, else cut and
    ended with a hash of the whole name (so two long names stay apart).

    >>> file_stem("author-ada-depth-1")
    'author-ada-depth-1'
    >>> stem = file_stem("author-" + "x" * 300 + "-depth-1")
    >>> len(stem.encode()), stem[-13:]
    (195, '-134117f24ea1')
    """
    if len(name.encode()) <= limit:
        return name
    digest = hashlib.sha256(name.encode()).hexdigest()[:12]
    cut = name.encode()[: limit - len(digest) - 1].decode(errors="ignore")
    return f"{cut}-{digest}"


def fitted(view: View, *, max_edges: int = MAX_EDGES) -> View:
    """``view`` as one page can hold it: at most ``max_edges`` edges (the heaviest, ties in
    the view's order; the note says what was left out) and a file name that fits."""
    edges = view.edges
    note = view.note
    if len(edges) > max_edges:
        order = sorted(range(len(edges)), key=lambda i: (-edges[i].weight, i))
        kept = sorted(order[:max_edges])
        note += left_out_edges(len(edges), max_edges, edges[order[max_edges]].weight)
        edges = tuple(edges[i] for i in kept)
    return replace(view, name=file_stem(view.name), edges=edges, note=note)
