"""``kg build``: listings -> records -> mentions -> resolved entities -> graph -> file."""

import os
import sys
import time
from dataclasses import dataclass, field

from tqdm import tqdm

from extractors.pipeline import extract_mentions
from extractors.read import read_listings
from kg import graph as kgraph
from kg import schema as S
from kg.errors import InputError
from kg.resolve import resolve_corpus
from kg.store import load_graph, save_graph


@dataclass
class BuildReport:
    """What a build read, added and skipped."""

    records: int = 0
    new_papers: int = 0
    updated_papers: int = 0
    known_papers: int = 0
    duplicates: int = 0
    problems: list = field(default_factory=list)
    seconds: float = 0.0
    graph_path: str | None = None


def plan_records(G, records, *, reingest=False):
    """Add incoming records' papers to ``G``; return the papers to (re-)extract and counts.

    A record whose abstract is already in the graph only adds its source (and the authors,
    area and title the graph lacks); a record whose id is known but whose abstract changed
    is re-ingested; ``reingest`` re-extracts known papers too.
    """
    by_hash = kgraph.paper_index(G)
    to_extract, seen = {}, {}
    report = BuildReport()
    for record in records:
        report.records += 1
        digest = S.content_hash(record.abstract)
        key = seen.get(digest) or by_hash.get(digest) or S.paper_key(record.abstract,
                                                                     record.external_id)
        if digest in seen:
            report.duplicates += 1
        elif key in G and G.nodes[key]["hash"] != digest:
            reset_paper(G, key, record)
            report.updated_papers += 1
            to_extract[key] = record
        elif key in G:
            if reingest:
                report.updated_papers += 1
                to_extract[key] = record
            else:
                report.known_papers += 1
        else:
            report.new_papers += 1
            to_extract[key] = record
        seen[digest] = key
        kgraph.add_paper(G, record, key, digest)
    return list(to_extract.items()), report


def reset_paper(G, key, record):
    """Forget what the graph knew of a paper whose abstract changed."""
    touched = {u for u, _, _ in G.in_edges(key, keys=True)} | set(G.successors(key))
    G.remove_edges_from(list(G.in_edges(key, keys=True)) + list(G.out_edges(key, keys=True)))
    methods = kgraph.methods_near(G, touched)
    attrs = G.nodes[key]
    attrs.update(abstract=record.abstract, hash=S.content_hash(record.abstract), label=None,
                 area=None)
    kgraph.update_applied_to(G, methods)
    kgraph.prune_orphans(G, touched)


def add_extractions(G, extracted):
    """Apply resolved (paper key, mentions) pairs: edges, labels, APPLIED_TO, pruning."""
    touched = set()
    for key, mentions in resolve_corpus(extracted, graph=G):
        touched |= kgraph.set_mentions(G, key, mentions)
    kgraph.update_applied_to(G, kgraph.methods_near(G, touched))
    kgraph.prune_orphans(G, touched)


def build_graph(inputs, *, graph=None, format=None, workers=1, reingest=False, progress=False):
    """Read ``inputs`` into ``graph`` (a new one by default); return (graph, BuildReport)."""
    started = time.perf_counter()
    G = kgraph.new_graph() if graph is None else graph
    problems = []
    records = read_listings(inputs, format=format, problems=problems)
    to_extract, report = plan_records(G, records, reingest=reingest)
    report.problems = problems
    bar = tqdm(total=len(to_extract), unit="paper", desc="extracting", disable=not progress,
               file=sys.stderr, mininterval=0.5)
    extracted = []
    keys = [k for k, _ in to_extract]
    for key, (_, mentions) in zip(keys, extract_mentions((r for _, r in to_extract),
                                                         workers=workers)):
        extracted.append((key, mentions))
        bar.update()
    bar.close()
    add_extractions(G, extracted)
    report.seconds = time.perf_counter() - started
    return G, report


def build(inputs, output, *, fresh=False, format=None, workers=1, reingest=False,
          progress=False, strict=False):
    """Build into the graph file ``output`` (adding to it unless ``fresh``) and save it.

    Raises InputError when nothing could be read, or (``strict``) when anything was bad;
    the file is then left as it was.
    """
    started = time.perf_counter()
    G = load_graph(output) if os.path.exists(output) and not fresh else None
    G, report = build_graph(inputs, graph=G, format=format, workers=workers,
                            reingest=reingest, progress=progress)
    if report.records == 0:
        detail = f": {report.problems[0]}" if report.problems else ""
        raise InputError(f"no paper could be read from the inputs{detail}")
    if strict and report.problems:
        raise InputError(f"{len(report.problems)} bad input(s) and --strict given; first: "
                         f"{report.problems[0]}")
    report.graph_path = save_graph(G, output)
    report.seconds = time.perf_counter() - started
    return G, report
