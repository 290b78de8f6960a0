"""Build benchmarks: end-to-end `kg build`, scaling series, incremental adds.

Run by hand (not part of the tests):

    .venv/bin/python bench/scale.py                       # 19,456 real papers, 2 workers
    .venv/bin/python bench/scale.py --series 2000,20000,200000 --json out/scale.json
    .venv/bin/python bench/scale.py --series 2000 --incremental --added 10,100,1000

Corpora larger than the real one are made by repeating it: replica r of a paper gets the
id ``<id>~r<r>`` and the sentence " (Replica r.)" appended to its abstract, so it is a new
paper with the same authors. Every measurement runs `kg build` in a fresh process; peak RSS
is that process's maximum resident set size.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PAPERLISTS = REPO.parent / "shared" / "eval" / "external" / "paper-metadata-paperlists"


def real_records(source=PAPERLISTS):
    """The real paperlists records, in a fixed order."""
    files = sorted(Path(source).glob("*.jsonl"))
    if not files:
        sys.exit(f"bench: no paperlists JSONL files under {source}")
    for path in files:
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    yield json.loads(line)


def write_corpus(n, path, *, offset=0, source=PAPERLISTS):
    """Write ``n`` records (replicas past the real corpus) to ``path``; return n written."""
    base = list(real_records(source))
    with open(path, "w", encoding="utf-8") as out:
        for i in range(offset, offset + n):
            rec = dict(base[i % len(base)])
            replica = i // len(base)
            if replica:
                field = "text" if "text" in rec else "abstract"
                rec["id"] = f"{rec['id']}~r{replica}"
                rec[field] = f"{rec[field]} (Replica {replica}.)"
            out.write(json.dumps(rec, ensure_ascii=False) + "\n")
    return n


def timed_kg(*args, env=None):
    """Run the ``kg`` program in a fresh process; return (seconds, its peak RSS in MB)."""
    started = time.perf_counter()
    with tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "kg.cli", *map(str, args)],
            stdout=subprocess.DEVNULL,
            stderr=err,
            env=env,
        )
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            sys.exit(f"bench: kg {' '.join(map(str, args))} failed:\n{err.read()}")
    return seconds, usage.ru_maxrss / 1024


def load_seconds(graph):
    code = (
        "import time, sys\nfrom kg.store.graphfile import load_graph\nt = time.perf_counter()\n"
        "load_graph(sys.argv[1])\nprint(time.perf_counter() - t)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(graph)], capture_output=True, text=True, check=True
    ).stdout
    return float(out)


def measure_build(n, workdir, *, workers, source=PAPERLISTS):
    """Full build of ``n`` papers: wall time, papers/s, peak RSS, file size, load time."""
    corpus = Path(workdir) / f"corpus-{n}.jsonl"
    write_corpus(n, corpus, source=source)
    graph = Path(workdir) / f"graph-{n}.kg"
    seconds, rss = timed_kg("build", corpus, "-o", graph, "--fresh", "-q", "--workers", workers)
    return {
        "papers": n,
        "workers": workers,
        "seconds": round(seconds, 2),
        "papers_per_s": round(n / seconds),
        "peak_rss_mb": round(rss),
        "file_mb": round(graph.stat().st_size / 2**20, 1),
        "load_s": round(load_seconds(graph), 2),
        "replicated": n > sum(1 for _ in real_records(source)),
    }


def measure_incremental(workdir, *, base=19456, added=(100,), workers=1, runs=5, source=PAPERLISTS):
    """For each number in ``added``: add that many new papers to one graph of ``base``
    papers ``runs`` times (each from a copy of it) and compare the result with a full
    rebuild. Returns one result per number."""
    workdir = Path(workdir)
    base_corpus, base_graph = workdir / "base.jsonl", workdir / "base.kg"
    write_corpus(base, base_corpus, source=source)
    timed_kg("build", base_corpus, "-o", base_graph, "--fresh", "-q", "--workers", workers)
    results = []
    for extra in added:
        extra_corpus = workdir / f"extra-{extra}.jsonl"
        write_corpus(extra, extra_corpus, offset=base, source=source)
        graph, full = workdir / "incremental.kg", workdir / "full.kg"
        times, peaks = [], []
        for _ in range(runs):
            shutil.copyfile(base_graph, graph)
            seconds, rss = timed_kg("build", extra_corpus, "-o", graph, "-q")
            times.append(seconds)
            peaks.append(rss)
        timed_kg(
            "build", base_corpus, extra_corpus, "-o", full, "--fresh", "-q", "--workers", workers
        )
        results.append(
            {
                "base": base,
                "added": extra,
                "runs": runs,
                "seconds": round(statistics.median(times), 2),
                "seconds_min": round(min(times), 2),
                "seconds_max": round(max(times), 2),
                "peak_rss_mb": round(max(peaks)),
                "same_as_full_rebuild": graph.read_bytes() == full.read_bytes(),
            }
        )
    return results


def table(rows, columns):
    widths = [max(len(str(c)), *(len(str(r.get(c, ""))) for r in rows)) for c in columns]
    lines = ["  ".join(str(c).rjust(w) for c, w in zip(columns, widths, strict=True))]
    lines += [
        "  ".join(str(r.get(c, "")).rjust(w) for c, w in zip(columns, widths, strict=True))
        for r in rows
    ]
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--series", default="19456", help="comma-separated corpus sizes (default: 19456)"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--incremental",
        action="store_true",
        help="also measure adding papers to the 19,456-paper graph",
    )
    parser.add_argument(
        "--added",
        default="100",
        help="with --incremental: comma-separated numbers of papers to add "
        "(default: 100; the first is the suite's figure)",
    )
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = parser.parse_args(argv)
    results = {"machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]}}
    with tempfile.TemporaryDirectory(prefix="kg-bench-") as workdir:
        rows = [
            measure_build(int(n), workdir, workers=args.workers) for n in args.series.split(",")
        ]
        results["builds"] = rows
        print(
            table(
                rows,
                [
                    "papers",
                    "workers",
                    "seconds",
                    "papers_per_s",
                    "peak_rss_mb",
                    "file_mb",
                    "load_s",
                    "replicated",
                ],
            )
        )
        if len(rows) > 1:
            first = rows[0]
            for r in rows[1:]:
                print(
                    f"{r['papers']:,} vs {first['papers']:,} papers: time x"
                    f"{r['seconds'] / first['seconds']:.1f}, RSS x"
                    f"{r['peak_rss_mb'] / first['peak_rss_mb']:.1f}, size x"
                    f"{r['papers'] / first['papers']:.1f}"
                )
        if args.incremental:
            series = measure_incremental(
                workdir, workers=args.workers, added=[int(n) for n in args.added.split(",")]
            )
            results["incremental"] = series[0]
            if len(series) > 1:
                results["incremental_series"] = series
            for inc in series:
                print(
                    f"incremental: +{inc['added']:,} papers to {inc['base']:,} in "
                    f"{inc['seconds']} s (median of {inc['runs']}, {inc['seconds_min']}.."
                    f"{inc['seconds_max']} s; load + extract + save), peak RSS "
                    f"{inc['peak_rss_mb']} MB, same as full rebuild: "
                    f"{inc['same_as_full_rebuild']}"
                )
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
