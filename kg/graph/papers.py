"""The paper layer of the graph: papers, their authors and areas, and co-author counts.

Node ids are keys (``kg.schema``); ``kind`` is the primary label; edges are keyed by
relationship type. Ingesting a paper again replaces its edges; entities, authors and areas
that nothing points to any more are removed.
"""

from collections.abc import Iterable
from typing import Any

import networkx as nx

from kg import schema as S
from kg.extractors.records import PaperRecord
from kg.graph._nx import node_attrs, predecessors, successors
from kg.graph.authors import author_key, display_name


def new_graph() -> nx.MultiDiGraph:
    """An empty kg graph."""
    G: nx.MultiDiGraph = nx.MultiDiGraph(schema_version=S.SCHEMA_VERSION)
    return G


def paper_index(G: nx.MultiDiGraph) -> dict[str, str]:
    """Map content hash -> paper key for the papers of ``G``."""
    return {a["hash"]: n for n, a in G.nodes(data=True) if a["kind"] == S.PAPER}


def source_label(record: PaperRecord) -> str:
    """Where a record came from: ``<file>#<index>``."""
    return f"{record.source}#{record.index}"


def add_paper(G: nx.MultiDiGraph, record: PaperRecord, key: str, digest: str) -> None:
    """Add (or refresh) a Paper node with its authors and area.

    ``digest`` is the record's content hash. A paper already present keeps its edges; the
    record's source is added, and authors, area and title fill in what the graph lacked.
    """
    if key not in G:
        G.add_node(
            key,
            kind=S.PAPER,
            abstract=record.abstract,
            title=record.title,
            label=None,
            area=None,
            sources=[],
            hash=digest,
            venue=record.venue,
            year=record.year,
        )
    attrs = G.nodes[key]
    attrs["sources"] = sorted(set(attrs["sources"]) | {source_label(record)})
    for field in ("title", "venue", "year"):
        if attrs.get(field) is None and getattr(record, field) is not None:
            attrs[field] = getattr(record, field)
    if record.area and attrs["area"] is None:
        attrs["area"] = record.area
        area = S.area_key(record.area)
        if area not in G:
            G.add_node(area, kind=S.AREA, name=record.area)
        G.add_edge(key, area, key=S.IN_AREA)
    if record.authors and not any(S.AUTHORED in rels for rels in G.pred[key].values()):
        ids = record.author_ids + (None,) * len(record.authors)  # ids, where given, by position
        for position, (name, author_id) in enumerate(zip(record.authors, ids, strict=False), 1):
            edge: dict[str, Any] = {"position": position}
            edge["truncated_list"] = record.authors_truncated
            edge["printed"] = name
            if author_id:
                edge["author_id"] = author_id
            G.add_edge(add_author(G, name), key, key=S.AUTHORED, **edge)


def add_author(G: nx.MultiDiGraph, printed: str) -> str:
    """Add an Author node (or a printed variant to an existing one); return its key."""
    key = author_key(printed)
    if key in G:
        attrs = G.nodes[key]
        if printed not in attrs["variants"]:
            attrs["variants"] = sorted(attrs["variants"] + [printed])
            attrs["name"] = display_name(attrs["variants"])
    else:
        G.add_node(key, kind=S.AUTHOR, name=display_name([printed]), variants=[printed])
    return key


def authored_by(G: nx.MultiDiGraph, paper: str) -> list[str]:
    """Author keys of a paper, in author order."""
    rows = [
        (d["position"], a)
        for a, _, k, d in G.in_edges(paper, keys=True, data=True)
        if k == S.AUTHORED
    ]
    return [a for _, a in sorted(rows)]


def set_coauthor_counts(G: nx.MultiDiGraph, authors: Iterable[str] | None = None) -> None:
    """Set each Author's ``coauthors``: how many distinct authors share a paper with them.

    Derived like APPLIED_TO, so that ranking authors by collaborators is a property lookup in
    Cypher rather than a count over every co-author pair of the graph. ``authors`` limits
    the update to those keys (the others keep their count).
    """
    node, pred, succ = node_attrs(G), predecessors(G), successors(G)
    if authors is None:
        authors = [a for a, attrs in node.items() if attrs["kind"] == S.AUTHOR]
    for a in authors:
        if a not in node:
            continue
        partners: set[str] = set()
        for paper, rels in succ[a].items():
            if S.AUTHORED in rels:
                partners.update(b for b, r in pred[paper].items() if S.AUTHORED in r)
        partners.discard(a)
        node[a]["coauthors"] = len(partners)


def prune_orphans(G: nx.MultiDiGraph, candidates: Iterable[str]) -> None:
    """Remove entities, authors and areas among ``candidates`` that nothing points to."""
    pending = set(candidates)
    while pending:
        node = pending.pop()
        if node not in G:
            continue
        kind = G.nodes[node]["kind"]
        if kind == S.AUTHOR:
            alive = any(k == S.AUTHORED for _, _, k in G.out_edges(node, keys=True))
        elif kind == S.PAPER:
            continue
        else:
            alive = any(
                k in S.MENTION_RELS or k in (S.PART_OF, S.IN_AREA)
                for _, _, k in G.in_edges(node, keys=True)
            )
        if not alive:
            pending.update(v for _, v, k in G.out_edges(node, keys=True) if k == S.PART_OF)
            G.remove_node(node)
