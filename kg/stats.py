"""Summary statistics of a graph: counts per label and type, sources, top authors."""

from collections import Counter

from kg import schema as S


def graph_stats(G, *, top=10):
    """Counts and leaders of ``G`` as one plain dict.

    ``nodes`` maps each label (Neo4j labels, so entity nodes also count as Concept) to its
    count; ``relationships`` maps each relationship type to its count; ``sources`` counts
    papers per source file; ``top_authors`` and ``most_connected_authors`` list the authors
    with most papers and with most distinct co-authors (ties by name).
    """
    nodes = Counter()
    for _, kind in G.nodes(data="kind"):
        nodes.update(S.labels_of(kind))
    rels = Counter(k for _, _, k in G.edges(keys=True))
    sources = Counter()
    for n, a in G.nodes(data=True):
        if a["kind"] == S.PAPER:
            sources.update({s.rsplit("#", 1)[0] for s in a["sources"]})
    papers_of, coauthors_of = {}, {}
    for n, a in G.nodes(data=True):
        if a["kind"] != S.AUTHOR:
            continue
        papers_of[n] = sum(1 for _, _, k in G.out_edges(n, keys=True) if k == S.AUTHORED)
        coauthors_of[n] = a["coauthors"]  # derived by kg build (set_coauthor_counts)
    papers_with_authors = sum(1 for n, a in G.nodes(data=True) if a["kind"] == S.PAPER and
                              any(k == S.AUTHORED for _, _, k in G.in_edges(n, keys=True)))

    def leaders(counts, field):
        ranked = sorted(counts, key=lambda n: (-counts[n], G.nodes[n]["name"], n))[:top]
        return [{"name": G.nodes[n]["name"], "key": n, field: counts[n]} for n in ranked]

    return {
        "nodes": {label: nodes[label] for label in S.NODE_KINDS if nodes[label]},
        "relationships": {t: rels[t] for t in S.REL_TYPES if rels[t]},
        "papers": nodes[S.PAPER],
        "papers_with_authors": papers_with_authors,
        "sources": dict(sorted(sources.items())),
        "top_authors": leaders(papers_of, "papers"),
        "most_connected_authors": leaders(coauthors_of, "coauthors"),
    }


def format_stats(stats):
    """Human-readable text of :func:`graph_stats`."""
    lines = ["Nodes"]
    lines += [f"  {label:<12} {n:>8,}" for label, n in stats["nodes"].items()]
    lines.append("Relationships")
    lines += [f"  {t:<12} {n:>8,}" for t, n in stats["relationships"].items()]
    lines.append(f"Papers per source ({stats['papers_with_authors']:,} of "
                 f"{stats['papers']:,} papers have authors)")
    lines += [f"  {src:<40} {n:>6,}" for src, n in stats["sources"].items()]
    if stats["top_authors"]:
        lines.append("Most prolific authors")
        lines += [f"  {a['name']:<40} {a['papers']:>4} papers" for a in stats["top_authors"]]
        lines.append("Authors with most co-authors")
        lines += [f"  {a['name']:<40} {a['coauthors']:>4} co-authors"
                  for a in stats["most_connected_authors"]]
    return "\n".join(lines)
