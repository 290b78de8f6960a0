"""The identity step on a graph: each paper's summary read from the graph, the people
decided (:func:`kg.graph.people.decide`) laid onto the Author nodes, and the report.

The step starts from what every build has, one Author node per folded name
(``author:<fold>``) with each AUTHORED edge holding the name as ``printed`` there, and
re-keys only the authorships whose person differs: a merged person keeps the key of its
fullest name, a split person gets ``author:<fold>@<its first paper>``, a person given an
id ``author:<id>``. Those nodes carry ``identity`` (the reasons) and, when split,
``split_from``; a later build puts their authorships back and decides again over the whole
corpus, so a graph built in steps equals one built at once.
"""

from collections.abc import Iterable
from operator import itemgetter
from typing import Any

import networkx as nx

from kg import schema as S
from kg.extractors.names import fold
from kg.graph._nx import node_attrs, predecessors, successors
from kg.graph.authors import author_key
from kg.graph.identity import Authorship, IdentitySummary, Overrides, PaperSummary, Person
from kg.graph.papers import add_author, prune_orphans, set_coauthor_counts
from kg.graph.people import decide

_first = itemgetter(0)


def printed_fold(printed: str) -> str:
    """The folded name an authorship's default node is keyed by."""
    return author_key(printed).removeprefix("author:")


def identity_summary(G: nx.MultiDiGraph) -> IdentitySummary:
    """The identity summary of every paper of ``G`` (authors in order, venue, year, the
    entities it links to: every node it points to but its area and its related papers),
    collected in one pass."""
    node, pred, succ = node_attrs(G), predecessors(G), successors(G)
    summary = IdentitySummary()
    for paper, attrs in node.items():
        if attrs["kind"] != S.PAPER:
            continue
        rows = []
        for a, rels in pred[paper].items():
            edge = rels.get(S.AUTHORED)
            if edge is not None:
                name = edge.get("printed")
                if name is None or "identity" in node[a]:
                    name = name or node[a]["name"]
                    f = printed_fold(name)
                else:  # a node no decision touched is keyed by its printed names' fold
                    f = a[7:]
                rows.append((edge["position"], Authorship(name, f, edge.get("author_id"))))
        rows.sort(key=_first)
        authors: dict[str, Authorship] = {}
        for _, ship in rows:
            authors.setdefault(ship.fold, ship)
        topics = tuple(
            e
            for e, rels in succ[paper].items()
            if S.IN_AREA not in rels and S.SIMILAR_TO not in rels
        )
        venue = fold(attrs["venue"]) if attrs.get("venue") else None
        summary.add(PaperSummary(paper, attrs.get("year"), venue, tuple(authors.values()), topics))
    return summary


def apply_people(G: nx.MultiDiGraph, people: Iterable[Person]) -> set[str]:
    """Lay decided ``people`` onto ``G``'s Author nodes (authorships not among them go to
    their folded name's node); returns the authors whose co-author counts may have changed
    (update them with :func:`kg.graph.set_coauthor_counts`)."""
    node, succ = node_attrs(G), successors(G)
    people = list(people)
    target = {ship: p.key for p in people for ship in p.authorships}
    stale = {n for n, a in node.items() if a["kind"] == S.AUTHOR and "identity" in a}
    stale.update(p.key for p in people if p.key in node)
    edges: list[tuple[str, dict[str, Any]]] = []  # (paper, AUTHORED attrs) to lay again
    for n in sorted(stale):
        edges += [(paper, rels[S.AUTHORED]) for paper, rels in succ[n].items()]
        G.remove_node(n)
    emptied = set()
    for paper, f in sorted(target):
        n = f"author:{f}"
        if n in node and paper in succ[n]:
            edges.append((paper, succ[n][paper][S.AUTHORED]))
            G.remove_edge(n, paper, key=S.AUTHORED)
            emptied.add(n)
    for p in people:
        attrs: dict[str, Any] = {"kind": S.AUTHOR, "name": p.name, "variants": list(p.variants)}
        attrs["identity"] = list(p.reasons)
        if p.split_from:
            attrs["split_from"] = f"author:{p.split_from}"
        G.add_node(p.key, **attrs)
    touched = set()
    for paper, edge in sorted(edges, key=lambda e: (e[0], e[1]["position"])):
        ship = (paper, printed_fold(edge.get("printed") or ""))
        author = target.get(ship) or add_author(G, edge["printed"])
        G.add_edge(author, paper, key=S.AUTHORED, **edge)
        touched.add(paper)
    prune_orphans(G, emptied)
    pred = predecessors(G)
    return {a for paper in touched for a, rels in pred[paper].items() if S.AUTHORED in rels}


def resolve_authors(G: nx.MultiDiGraph, overrides: Overrides | None = None) -> list[Person]:
    """Decide author identity over the whole graph and lay it onto ``G``; returns the
    people decided (those that differ from one node per folded name, or carry a reason)."""
    people = decide(identity_summary(G), overrides)
    set_coauthor_counts(G, apply_people(G, people))
    return people


def identity_report(G: nx.MultiDiGraph) -> dict[str, list[dict[str, Any]]]:
    """The identity decisions of a built graph: ``merges`` (people joining several printed
    names, or joined by an override), ``splits`` (one entry per split name, with its
    people) and ``ids`` (people an input id decided), each with its reasons.

    >>> from kg.query.example import example_graph
    >>> identity_report(example_graph())
    {'merges': [], 'splits': [], 'ids': []}
    """
    node, succ = node_attrs(G), successors(G)
    merges, ids = [], []
    splits: dict[str, list[dict[str, Any]]] = {}
    for n in sorted(node):
        attrs = node[n]
        if attrs["kind"] != S.AUTHOR or "identity" not in attrs:
            continue
        row = {
            "key": n,
            "name": attrs["name"],
            "papers": sum(1 for rels in succ[n].values() if S.AUTHORED in rels),
            "variants": attrs["variants"],
            "reasons": attrs["identity"],
        }
        if any(r.startswith(("merge:", "override: merged")) for r in row["reasons"]):
            merges.append(row)
        if attrs.get("split_from"):
            splits.setdefault(attrs["split_from"], []).append(row)
        if any(r.startswith("id:") for r in row["reasons"]):
            ids.append(row)
    return {
        "merges": merges,
        "splits": [{"name": k, "people": rows} for k, rows in sorted(splits.items())],
        "ids": ids,
    }


def format_identity_report(report: dict[str, list[dict[str, Any]]]) -> str:
    """Human-readable text of :func:`identity_report`."""
    people = sum(len(s["people"]) for s in report["splits"])
    lines = [f"Merges ({len(report['merges'])} people)"]
    for row in report["merges"]:
        lines.append(f"  {row['name']} [{row['key']}], {row['papers']} paper(s)")
        lines += [f"    {r}" for r in row["reasons"] if not r.startswith("split:")]
    lines.append(f"Splits ({len(report['splits'])} names into {people} people)")
    for split in report["splits"]:
        why = next(r for r in split["people"][0]["reasons"] if r.startswith("split:"))
        lines.append(f"  {split['name']}: {why.rpartition('; this group')[0] or why}")
        for row in split["people"]:
            lines.append(f"    {row['name']} [{row['key']}], {row['papers']} paper(s)")
    lines.append(f"Author ids ({len(report['ids'])} people)")
    for row in report["ids"]:
        lines.append(f"  {row['name']} [{row['key']}], {row['papers']} paper(s)")
        lines += [f"    {r}" for r in row["reasons"] if r.startswith("id:")]
    return "\n".join(lines)
