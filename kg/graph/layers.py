"""The property graph: one networkx MultiDiGraph built from paper records and mentions.

Node ids are keys (``kg.schema``); ``kind`` is the primary label; edges are keyed by
relationship type. Ingesting a paper again replaces its edges; entities that nothing
points to any more are removed.
"""

from operator import attrgetter

import networkx as nx

from kg import schema as S
from kg.graph.authors import author_key, display_name

#: Relationship type of a "used" mention, by entity type.
USED_REL = {
    S.METHOD: S.USES,
    S.DATASET: S.EVALUATED_ON,
    S.BENCHMARK: S.EVALUATED_ON,
    S.TASK: S.ADDRESSES,
    S.METRIC: S.MEASURES,
    S.CONCEPT: S.MENTIONS,
}
PROPOSABLE = {S.METHOD, S.DATASET, S.BENCHMARK, S.METRIC, S.TASK}


def new_graph():
    """An empty kg graph."""
    return nx.MultiDiGraph(schema_version=S.SCHEMA_VERSION)


def paper_index(G):
    """Map content hash -> paper key for the papers of ``G``."""
    return {a["hash"]: n for n, a in G.nodes(data=True) if a["kind"] == S.PAPER}


def source_label(record):
    return f"{record.source}#{record.index}"


# ---------------------------------------------------------------- papers and authors


def insert_nodes(G, nodes):
    """Add new ``(key, attrs)`` nodes, filling networkx's node and adjacency dicts directly:
    what ``add_nodes_from`` does for absent nodes, without its per-node overhead. ``attrs``
    becomes the node's attribute dict."""
    node, succ, pred = G._node, G._succ, G._pred
    for key, attrs in nodes:
        node[key] = attrs
        succ[key] = {}
        pred[key] = {}


def insert_edges(G, edges):
    """Add ``(u, v, relationship, attrs)`` edges between nodes of ``G``, filling networkx's
    adjacency dicts directly (about three times faster than ``add_edges_from``); an edge of
    the same type between the same nodes is replaced."""
    succ, pred = G._succ, G._pred
    for u, v, rel, attrs in edges:
        keydict = succ[u].get(v)
        if keydict is None:
            keydict = succ[u][v] = pred[v][u] = {}
        keydict[rel] = attrs


def add_paper(G, record, key, digest):
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
        for position, name in enumerate(record.authors, 1):
            G.add_edge(
                add_author(G, name),
                key,
                key=S.AUTHORED,
                position=position,
                truncated_list=record.authors_truncated,
            )


def add_author(G, printed):
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


def authored_by(G, paper):
    """Author keys of a paper, in author order."""
    rows = [
        (d["position"], a)
        for a, _, k, d in G.in_edges(paper, keys=True, data=True)
        if k == S.AUTHORED
    ]
    return [a for _, a in sorted(rows)]


# ---------------------------------------------------------------- mentions


def add_entity_layer(G, resolved):
    """Add entity nodes, mention edges, paper labels and the derived APPLIED_TO edges for
    resolved mentions.

    ``resolved`` is ``[(paper key, [Mention])]`` with corpus-wide canonical names; the graph
    must not hold entities yet. One edge per paper and entity: the earliest mention is the
    evidence, and the paper PROPOSES the entity if any mention of it is proposed.
    """
    entities, edges, aliases, keys, applied = {}, [], {}, {}, {}
    for paper, mentions in resolved:
        by_entity = {}
        for m in sorted(mentions, key=_text_order):
            key = keys.get((m.type, m.canonical))
            if key is None:
                key = keys[(m.type, m.canonical)] = S.entity_key(m.type, m.canonical)
            if key not in entities:
                _new_entity(entities, edges, aliases, key, m)
            if m.type != S.CONCEPT:
                if m.long_form and entities[key]["long_form"] is None:
                    entities[key]["long_form"] = m.long_form
                names = aliases[key]
                names.add(m.text)
                names.update(m.aliases)
            first, proposed = by_entity.get(key, (m, False))
            by_entity[key] = (first, proposed or m.role == "proposed")
        label = None
        for key, (m, proposed) in by_entity.items():
            rel = S.PROPOSES if proposed and m.type in PROPOSABLE else USED_REL[m.type]
            edges.append(
                (
                    paper,
                    key,
                    rel,
                    {
                        "evidence": m.sentence,
                        "start": m.start,
                        "end": m.end,
                        "text": m.text,
                        "rule": m.rule,
                        "score": round(float(m.score), 4),
                    },
                )
            )
            if rel == S.PROPOSES and m.type == S.METHOD and (label is None or m.start < label[0]):
                label = (m.start, entities[key]["name"])
        G._node[paper]["label"] = label[1] if label else None
        _count_applied_to(applied, paper, by_entity)
    for key, names in aliases.items():
        entities[key]["aliases"] = sorted(names - {entities[key]["name"], ""})
    insert_nodes(G, entities.items())
    insert_edges(G, edges)
    insert_edges(
        G,
        (
            (
                method,
                target,
                S.APPLIED_TO,
                {
                    "papers": len(papers),
                    "paper_keys": sorted(papers),
                    "score": sum(papers.values()),
                },
            )
            for (method, target), papers in applied.items()
        ),
    )


_text_order = attrgetter("start", "end")


def _new_entity(entities, edges, aliases, key, m):
    """Record the node of a new entity (and the benchmarks a dataset is PART_OF)."""
    if m.type == S.CONCEPT:
        entities[key] = {"kind": S.CONCEPT, "name": m.canonical}
        return
    entities[key] = {"kind": m.type, "name": m.canonical, "aliases": [], "long_form": None}
    aliases[key] = set()
    for benchmark in m.part_of:
        bkey = S.entity_key(S.BENCHMARK, benchmark)
        if bkey == key:
            continue
        if bkey not in entities:
            entities[bkey] = {
                "kind": S.BENCHMARK,
                "name": benchmark,
                "aliases": [],
                "long_form": None,
            }
            aliases[bkey] = set()
        edges.append((key, bkey, S.PART_OF, {}))


# ---------------------------------------------------------------- derived edges


def _count_applied_to(applied, paper, by_entity):
    """Record in ``applied`` the APPLIED_TO pairs of one paper: a method is applied to a
    dataset or benchmark when one paper mentions both; a paper where they share a sentence
    (their evidence) scores 1.0, others 0.5."""
    methods, targets = [], []
    for key, (m, _) in by_entity.items():
        if m.type == S.METHOD:
            methods.append((key, m.sentence))
        elif m.type in (S.DATASET, S.BENCHMARK):
            targets.append((key, m.sentence))
    for method, sentence in methods:
        for target, other in targets:
            papers = applied.setdefault((method, target), {})
            papers[paper] = max(papers.get(paper, 0.0), 1.0 if sentence == other else 0.5)


def set_coauthor_counts(G, authors=None):
    """Set each Author's ``coauthors``: how many distinct authors share a paper with them.

    Derived like APPLIED_TO, so that ranking authors by collaborators is a property lookup in
    Cypher rather than a count over every co-author pair of the graph. ``authors`` limits
    the update to those keys (the others keep their count).
    """
    node, pred, succ = G._node, G._pred, G._succ
    if authors is None:
        authors = [a for a, attrs in node.items() if attrs["kind"] == S.AUTHOR]
    for a in authors:
        if a not in node:
            continue
        partners = set()
        for paper, rels in succ[a].items():
            if S.AUTHORED in rels:
                partners.update(b for b, r in pred[paper].items() if S.AUTHORED in r)
        partners.discard(a)
        node[a]["coauthors"] = len(partners)


def prune_orphans(G, candidates):
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
