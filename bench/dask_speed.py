"""Build speed on a Dask LocalCluster against the process pool, on the 19,456 real papers.

Run by hand (not part of the tests):

    .venv/bin/python -m bench.dask_speed [--workers 2] [--repeat 3] [--limit N] [--json FILE]

Each round runs, in a fresh process each and in alternating order, a build of the same
listing with ``WorkerPool(N)`` (``--workers N``) and with ``DaskPool("local:N")``
(``--dask local:N``). The pool is opened and waited for first: its start-up (spawning the
processes, importing spaCy, building the pipelines; for Dask also the scheduler, nannies and
the plugin's check) is reported apart from the build, which is then timed from reading the
listing to the saved graph file. The two graph files are compared byte for byte.
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.scale import write_corpus

REAL_PAPERS = 19_456


def one_build(kind, workers, listing, output):
    """Time one pool's start-up and one build with it (run in a fresh process)."""
    from kg.graph.build import build

    started = time.perf_counter()
    if kind == "dask":
        from kg.scale.dask_pool import DaskPool

        pool = DaskPool(f"local:{workers}")
    else:
        from kg.extractors.workers import WorkerPool

        pool = WorkerPool(workers)
    with pool:
        pool.wait_until_ready()
        ready = time.perf_counter()
        _, report = build([listing], output, fresh=True, pool=pool)
        done = time.perf_counter()
    return {"startup": ready - started, "build": done - ready, "papers": report.new_papers}


def measure(kind, workers, listing, output):
    """:func:`one_build` in a fresh interpreter; its figures."""
    code = (
        "import json, sys; from bench.dask_speed import one_build; "
        "print(json.dumps(one_build(*sys.argv[1:2], int(sys.argv[2]), *sys.argv[3:])))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, kind, str(workers), str(listing), str(output)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3, help="rounds, each running both")
    parser.add_argument("--limit", type=int, default=REAL_PAPERS, help="papers to build")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    runs = {"workers": [], "dask": []}
    with tempfile.TemporaryDirectory() as tmp:
        listing = Path(tmp) / "papers.jsonl"
        write_corpus(args.limit, listing)
        for round_ in range(args.repeat):
            order = ["workers", "dask"] if round_ % 2 == 0 else ["dask", "workers"]
            for kind in order:
                figures = measure(kind, args.workers, listing, Path(tmp) / f"{kind}.kg")
                runs[kind].append(figures)
                print(
                    f"round {round_ + 1} {kind:7}  start-up {figures['startup']:6.2f} s  "
                    f"build {figures['build']:6.2f} s  {figures['papers']:,} papers",
                    flush=True,
                )
            same = (Path(tmp) / "workers.kg").read_bytes() == (Path(tmp) / "dask.kg").read_bytes()
            if not same:
                sys.exit("bench: the Dask build's graph file differs from the local build's")
    medians = {
        kind: {m: statistics.median(r[m] for r in rs) for m in ("startup", "build")}
        for kind, rs in runs.items()
    }
    slower = medians["dask"]["build"] / medians["workers"]["build"] - 1
    n = args.workers
    print(
        f"\n{args.limit:,} papers, median of {args.repeat} interleaved rounds; graph files "
        "byte-identical in every round\n"
        f"--workers {n}      start-up {medians['workers']['startup']:6.2f} s  "
        f"build {medians['workers']['build']:6.2f} s\n"
        f"--dask local:{n}  start-up {medians['dask']['startup']:6.2f} s  "
        f"build {medians['dask']['build']:6.2f} s  ({slower:+.1%} against --workers {n})"
    )
    if args.json:
        Path(args.json).write_text(
            json.dumps({"papers": args.limit, "runs": runs, "medians": medians}, indent=2)
        )


if __name__ == "__main__":
    main()
