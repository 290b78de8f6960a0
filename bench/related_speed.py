"""Related papers: the cost of the SIMILAR_TO step on real subsets of a built graph, its
growth, peak memory, and the time of ``related_papers``.

Subsets are papers drawn at random (seed 18) from the graph with the concepts they point
to, so corpus statistics are recomputed within each (no replicated papers, which would be
each other's neighbours). Growth is the exponent of the time between the smallest and the
largest subset.

    python -m bench.related_speed --graph /tmp/related.kg
"""

import argparse
import math
import random
import resource
import sys
import time
from collections.abc import Sequence

import networkx as nx


def subset(G: nx.MultiDiGraph, papers: list[str]) -> nx.MultiDiGraph:
    """The papers with the entities and areas they point to, and the edges among those."""
    keep = set(papers)
    for p in papers:
        keep.update(v for v in G.successors(p) if G.nodes[v]["kind"] != "Paper")
    return G.subgraph(keep).copy()


def main(argv: Sequence[str] | None = None) -> int:
    from kg.graph.related import add_similar_edges, paper_keys
    from kg.store import load_graph
    from kg.traverse import related_papers

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--graph", required=True, help="a built graph")
    ap.add_argument("--sizes", default="2000,5000,10000,0", help="subset sizes (0: all)")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    G = load_graph(args.graph)
    print(f"load_graph {time.perf_counter() - started:.2f} s")
    keys = paper_keys(G)
    times: list[tuple[int, float]] = []
    for size in (int(s) for s in args.sizes.split(",")):
        papers = sorted(random.Random(18).sample(keys, size)) if 0 < size < len(keys) else keys
        H = subset(G, papers)
        started = time.perf_counter()
        add_similar_edges(H)
        seconds = time.perf_counter() - started
        times.append((len(papers), seconds))
        print(f"{len(papers):>6,} papers: SIMILAR_TO in {seconds:.2f} s")
    (n0, t0), (n1, t1) = times[0], times[-1]
    if n1 > n0:
        print(f"growth: N^{math.log(t1 / t0) / math.log(n1 / n0):.2f}")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (this process, graph included): {rss:,.0f} MB")
    sample = random.Random(18).sample(keys, 200)
    related_papers(G, sample[0])
    started = time.perf_counter()
    for p in sample:
        related_papers(G, p)
    ms = (time.perf_counter() - started) / len(sample) * 1000
    print(f"related_papers: {ms:.3f} ms a paper (200 papers)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
