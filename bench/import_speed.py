"""neo4j-admin import files of the real papers: ``kg build --neo4j-import`` against a
local build and ``kg export --format neo4j-csv``.

Run by hand (not part of the tests):

    .venv/bin/python -m bench.import_speed [--papers 19456] [--repeat 3] [--json FILE]

Each round runs, in fresh processes and in rotating order: ``kg build -o G --workers 2
--fresh`` then ``kg export -g G --format neo4j-csv`` (the local path, timed as the sum);
``kg build --neo4j-import DIR --workers 2``; and ``kg build --neo4j-import DIR --dask
local:2``. Each figure is wall time from start to exit and the peak RSS of the largest
process (the driver; Dask's workers are separate processes). In the first round the three
folders' rows are compared: the two import builds byte for byte, and both with the local
export row for row.
"""

import argparse
import json
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path

from bench.scale import timed_kg, write_corpus

REAL_PAPERS = 19_456
KINDS = ("local", "import", "dask")


def run(kind, listing, out):
    """One timed run of ``kind`` writing ``out``: (seconds, peak MB)."""
    if kind == "local":
        graph = out.with_suffix(".kg")
        seconds, rss = timed_kg("build", listing, "-o", graph, "--workers", "2", "--fresh", "-q")
        more, rss2 = timed_kg("export", "-g", graph, "--format", "neo4j-csv", out)
        return seconds + more, max(rss, rss2)
    pool = ["--workers", "2"] if kind == "import" else ["--dask", "local:2"]
    options = ["--import-dir", "/import", "--fresh", *pool]
    return timed_kg("build", listing, "--neo4j-import", out, *options)


def rows(folder):
    """The folder's rows, as counts of their reprs."""
    from kg.scale.import_files import read_import_folder

    nodes, rels = read_import_folder(folder)
    return Counter(map(repr, nodes)), Counter(map(repr, rels))


def same_files(a, b):
    """Whether two folders hold the same files, byte for byte (the saved partitions aside:
    pickles of equal objects may differ)."""
    names = sorted(p.name for p in a.iterdir() if p.is_file())
    if names != sorted(p.name for p in b.iterdir() if p.is_file()):
        return False
    return all((a / n).read_bytes() == (b / n).read_bytes() for n in names)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=REAL_PAPERS)
    parser.add_argument("--repeat", type=int, default=3, help="rounds, each running all three")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    runs = {kind: [] for kind in KINDS}
    with tempfile.TemporaryDirectory() as tmp:
        listing = Path(tmp) / "papers.jsonl"
        write_corpus(args.papers, listing)
        for round_ in range(args.repeat):
            order = KINDS[round_ % 3 :] + KINDS[: round_ % 3]
            for kind in order:
                seconds, rss = run(kind, listing, Path(tmp) / kind)
                runs[kind].append({"seconds": seconds, "peak_mb": rss})
                print(f"round {round_ + 1} {kind:6}  {seconds:7.1f} s  {rss:6.0f} MB", flush=True)
            if round_ == 0:
                folders = {kind: Path(tmp) / kind for kind in KINDS}
                if not same_files(folders["import"], folders["dask"]):
                    sys.exit("bench: the Dask import files differ from the in-process ones")
                if rows(folders["import"]) != rows(folders["local"]):
                    sys.exit("bench: the import files' rows differ from the local export's")
    medians = {
        kind: {m: statistics.median(r[m] for r in rs) for m in ("seconds", "peak_mb")}
        for kind, rs in runs.items()
    }
    base = medians["local"]["seconds"]
    print(f"\n{args.papers:,} papers, median of {args.repeat} rotating rounds; rows checked")
    labels = ("build -o + export", "--neo4j-import", "--dask local:2")
    for kind, label in zip(KINDS, labels, strict=True):
        m = medians[kind]
        print(
            f"{label:18} {m['seconds']:7.1f} s ({m['seconds'] / base:.2f}x)  "
            f"peak {m['peak_mb']:6.0f} MB"
        )
    if args.json:
        Path(args.json).write_text(
            json.dumps({"papers": args.papers, "runs": runs, "medians": medians}, indent=2)
        )


if __name__ == "__main__":
    main()
