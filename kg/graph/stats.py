"""Summary statistics of a graph: counts per label and type, sources, top authors."""

import heapq
from collections import Counter
from itertools import chain
from typing import Any

import networkx as nx

from kg import schema as S
from kg.cells import cut, pad
from kg.graph._nx import node_attrs, successors
from kg.terminal import safe_text


def graph_stats(G: nx.MultiDiGraph, *, top: int = 10) -> dict[str, Any]:
    """Counts and leaders of ``G`` as one plain dict.

    ``nodes`` maps each label (Neo4j labels, so entity nodes also count as Concept) to its
    count; ``relationships`` maps each relationship type to its count; ``sources`` counts
    papers per source file; ``top_authors`` and ``most_connected_authors`` list the authors
    with most papers and with most distinct co-authors (ties by name).
    """
    node, succ = node_attrs(G), successors(G)  # every build prints these
    nodes: Counter[str] = Counter()
    for kind, count in Counter(attrs["kind"] for attrs in node.values()).items():
        for label in S.labels_of(kind):
            nodes[label] += count
    rels = Counter(chain.from_iterable(types for nbrs in succ.values() for types in nbrs.values()))
    sources: Counter[str] = Counter()
    papers_of: dict[str, int] = {}
    coauthors_of: dict[str, int] = {}
    authored: set[str] = set()
    for n, attrs in node.items():
        kind = attrs["kind"]
        if kind == S.PAPER:
            sources.update({s.rsplit("#", 1)[0] for s in attrs["sources"]})
        elif kind == S.AUTHOR:
            papers = [paper for paper, types in succ[n].items() if S.AUTHORED in types]
            authored.update(papers)
            papers_of[n] = len(papers)
            coauthors_of[n] = attrs["coauthors"]  # derived by kg build (set_coauthor_counts)

    def leaders(counts: dict[str, int], field: str) -> list[dict[str, Any]]:
        ranked = heapq.nsmallest(top, counts, key=lambda n: (-counts[n], node[n]["name"], n))
        return [{"name": node[n]["name"], "key": n, field: counts[n]} for n in ranked]

    return {
        "nodes": {label: nodes[label] for label in S.NODE_KINDS if nodes[label]},
        "relationships": {t: rels[t] for t in S.REL_TYPES if rels[t]},
        "papers": nodes[S.PAPER],
        "papers_with_authors": len(authored),
        "sources": dict(sorted(sources.items())),
        "top_authors": leaders(papers_of, "papers"),
        "most_connected_authors": leaders(coauthors_of, "coauthors"),
    }


def format_stats(stats: dict[str, Any]) -> str:
    """Human-readable text of :func:`graph_stats`; names and sources are made safe for a
    terminal (one line each).

    >>> stats = {"nodes": {}, "relationships": {}, "papers": 1, "papers_with_authors": 1,
    ...          "sources": {"a.jsonl": 1}, "most_connected_authors": [],
    ...          "top_authors": [{"name": "Ada\\x1b[2J\\nLovelace", "papers": 1}]}
    >>> print(format_stats(stats).splitlines()[-2])
      Ada\\x1b[2J\\x0aLovelace                      1 papers
    """
    lines = ["Nodes"]
    lines += [f"  {label:<12} {n:>8,}" for label, n in stats["nodes"].items()]
    lines.append("Relationships")
    lines += [f"  {t:<12} {n:>8,}" for t, n in stats["relationships"].items()]
    lines.append(
        f"Papers per source ({stats['papers_with_authors']:,} of "
        f"{stats['papers']:,} papers have authors)"
    )
    lines += [f"  {_name(src)} {n:>6,}" for src, n in stats["sources"].items()]
    if stats["top_authors"]:
        lines.append("Most prolific authors")
        lines += [f"  {_name(a['name'])} {a['papers']:>4} papers" for a in stats["top_authors"]]
        lines.append("Authors with most co-authors")
        lines += [
            f"  {_name(a['name'])} {a['coauthors']:>4} co-authors"
            for a in stats["most_connected_authors"]
        ]
    return "\n".join(lines)


def _name(text: str, width: int = 40) -> str:
    """A name or file name on one line, safe for a terminal, in ``width`` cells (cut with an
    ellipsis when longer; wide characters take two).

    >>> _name("王小明", 8) + "|"
    '王小明  |'
    """
    return pad(cut(safe_text(text, keep=""), width), width)
